"""What every sheet shares: paper and page boxes, text helpers, group marks, the templates."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import jinja2
from markupsafe import Markup

from civrules.emit.sheets.languages import language_name
from civrules.emit.templating import template_environment
from civrules.load.names import SHIPPED
from civrules.model import Entity, Origin, Ruleset, Unknown, rules_of, source_of
from civrules.resolve import CITATION_FIELDS, writer_nodes

# --- Paper and pages ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size: its CSS name, its name for people, and its portrait width and height in mm."""

    id: str
    css: str
    label: str
    width: float
    height: float


PAPERS: Mapping[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "letter", "US Letter", 215.9, 279.4),
}


@dataclass(frozen=True, slots=True)
class Page:
    """The page box of one sheet: size, orientation and margins (mm)."""

    paper: Paper
    landscape: bool
    top: float
    side: float
    bottom: float

    @property
    def width(self) -> float:
        return self.paper.height if self.landscape else self.paper.width

    @property
    def height(self) -> float:
        return self.paper.width if self.landscape else self.paper.height

    @property
    def content_width(self) -> float:
        return self.width - 2 * self.side

    @property
    def content_height(self) -> float:
        return self.height - self.top - self.bottom

    @property
    def size(self) -> str:
        return f"{self.paper.css} {'landscape' if self.landscape else 'portrait'}"


def page_for(paper: Paper, landscape: bool) -> Page:
    """The page box of a sheet of this orientation on ``paper``."""
    if landscape:
        return Page(paper, True, top=11.0, side=8.0, bottom=11.0)
    return Page(paper, False, top=14.0, side=12.0, bottom=14.0)


def paper_named(paper: str) -> Paper:
    """The paper of that name (``a4`` or ``letter``, any case).

    Raises:
        ValueError: no paper has that name.
    """
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}: expected one of {', '.join(sorted(PAPERS))}") from None


# --- Text helpers ------------------------------------------------------------------------------

#: One character a CSS string writes as a hex escape (all but ``[A-Za-z0-9.,_-]``).
_UNSAFE_CSS = re.compile(r"[^A-Za-z0-9.,_-]")


def _css_escape(match: re.Match[str]) -> str:
    return f"\\{ord(match.group()):06x}"


def css_string(value: object) -> Markup:
    """A quoted CSS string whose every character outside ``[A-Za-z0-9.,_-]`` is a hex escape.

    Nothing in it can end the string, the declaration or the ``<style>`` element it sits in.

    >>> str(css_string('a"</style>'))
    '"a\\\\000022\\\\00003c\\\\00002fstyle\\\\00003e"'
    """
    # One substitution over the text, not a match per character (a sheet's note is thousands of them).
    escaped = _UNSAFE_CSS.sub(_css_escape, str(value))
    return Markup(f'"{escaped}"')


def humanize(value: object) -> str:
    """An id or enum value as words: ``ascending_city_count`` → ``ascending city count``."""
    return str(value).replace("_", " ")


def known(value: object, none: str = "—") -> str:
    """A fact as printed: ``unknown`` for an unknown one, ``none`` for an absent one."""
    if isinstance(value, Unknown):
        return "unknown"
    if value is None:
        return none
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def signed(amount: int) -> str:
    """A change with its sign, using a true minus: ``−8``, ``+5``."""
    return f"−{-amount}" if amount < 0 else f"+{amount}"


def rules_text(rules: object) -> str:
    """Rule sections as printed: ``30.613, 32.431``."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, (list, tuple)):
        return ", ".join(str(rule) for rule in rules)
    return ""


_TRANSCRIPTION = re.compile(r"[\w.-]+/[\w.-]+@\S")


def _short_source(source: str) -> str:
    """A `source:` as a sheet prints it: transcriptions by their repositories (the data gives the
    commit and the path), anything else (a house rule) as written."""
    parts = [part.strip() for part in source.split(";")]
    if all(_TRANSCRIPTION.match(part) for part in parts):
        return ", ".join(dict.fromkeys(part.partition("@")[0] for part in parts))
    return " ".join(source.split())


def _short_citation(node: Mapping[str, Any]) -> str:
    """A citing mapping's `rule:` and `source:` as a sheet prints them."""
    source = source_of(node)
    parts = (rules_text(list(rules_of(node))), _short_source(source) if source else "")
    return "; ".join(part for part in parts if part)


#: Fields that say where facts come from, not what they are: a patch writing them changes no fact shown.
_NOT_FACTS = frozenset({*CITATION_FIELDS, "note", "disagreements"})


def row_citation(
    entity: Entity,
    fields: Iterable[str] | None = None,
    rule: object = None,
    *,
    transcriptions: bool = False,
    cited_apart: Iterable[str] = (),
) -> str:
    """What a sheet's row of ``entity`` cites for the ``fields`` it shows (None: all of them but
    those ``cited_apart``, whose parts the sheet cites each on its own).

    The entity's definition cites it: its `rule:` (with ``transcriptions``, the repository of its
    `source:` where it cites no rule), or ``rule`` where the sheet cites a rule of its own for the
    row. A field a variant's patch wrote is cited by the patch, as `export`'s `field_sources` cites
    it (`uncited` where the patch cites nothing): a house rule's cost is never shown under the
    rulebook section the base cited for its old value.
    """
    return origin_citation(entity.origin, fields, rule, transcriptions=transcriptions, cited_apart=cited_apart)


def setting_citation(
    origins: Mapping[str, Origin], key: str, fields: Iterable[str] | None = None, *, cited_apart: Iterable[str] = ()
) -> str:
    """What a sheet's row of the setting ``key`` cites for the ``fields`` it shows, as
    :func:`row_citation` cites an entity's row and `export`'s `setting_sources` a setting's fields:
    its definition's `rule:`, then the citation of each settings patch for the fields it wrote. A
    house rule's limit of 9 was printed under the sections that give 8. ``origins``: the
    model's ``setting_origins``; nothing where it has none for ``key``."""
    origin = origins.get(key)
    return "" if origin is None else origin_citation(origin, fields, cited_apart=cited_apart)


def citation_text(rules: object, source: str | None, *, transcriptions: bool = False) -> str:
    """A part's own citation as a sheet prints it: its rule sections, then its `source:` where it is
    no transcription (a house rule, a variant's or a community file's text, as written). A band a
    variant wrote with only a `source:` was printed with no citation. A transcription is left to
    the row's citation (:func:`row_citation`'s ``transcriptions``), as parts printed it before: a
    part cannot tell the definition's source from a variant's, and a house rule is never one. With
    ``transcriptions``, for a part printed on its own (no row cites it), a transcription is cited by
    its repositories."""
    if transcriptions and source and not rules_text(rules):
        return _short_source(source)
    shown = source if source and not _TRANSCRIPTION.search(source) else ""  # one naming a transcription
    parts = (rules_text(rules), " ".join(shown.split()))
    return "; ".join(part for part in parts if part)


def cited_once(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` with a citation that the next line repeats left to it: lines that one passage gives
    (a variant text's item) are cited once, after the last of them, not on each line."""
    return [
        {**line, "rule": ""} if i + 1 < len(lines) and lines[i + 1]["rule"] == line["rule"] else line
        for i, line in enumerate(lines)
    ]


def origin_citation(
    origin: Origin,
    fields: Iterable[str] | None = None,
    rule: object = None,
    *,
    transcriptions: bool = False,
    cited_apart: Iterable[str] = (),
) -> str:
    """:func:`row_citation` of what was read from ``origin`` (an entity's or a setting's)."""
    definition = _citing_node(origin.document.data, origin.path)
    if rule is not None:
        base = rules_text(rule)
    else:
        base = rules_text(list(rules_of(definition)))
        source = source_of(definition)
        if not base and source is not None and transcriptions:
            base = _short_source(source)
    shown = None if fields is None else set(fields)
    apart = set(cited_apart)
    cited = [base] if base else []
    for name, _ in origin.changes:
        if name in _NOT_FACTS or name in apart or (shown is not None and name not in shown):
            continue
        # What still writes the field: a deletion writes no fact, and is not an uncited one.
        for nodes in writer_nodes(origin, name) or ():
            cited.extend([_short_citation(node) for node in nodes] or ["uncited"])
    return "; ".join(dict.fromkeys(part for part in cited if part))


def _citing_node(data: Any, path: tuple[str | int, ...]) -> Mapping[str, Any]:
    node = data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return {}
    return node if isinstance(node, Mapping) else {}


def label_of(entity: Any) -> str:
    """An entity as a player reads it: its name, or, where the sources do not give one, ``unnamed``
    and the rule sections it is cited by (``unnamed (30.44)``), never its id."""
    name = getattr(entity, "name", None)
    if isinstance(name, str):
        return name
    rules = [str(rule) for rule in getattr(entity, "rules", ()) or ()]
    return f"unnamed ({', '.join(rules)})" if rules else "unnamed"


def name_of(collection: Any, item_id: str) -> str:
    """The name of ``item_id`` in a collection (:func:`label_of`), or the id itself when it is not there."""
    found = collection.get(item_id)
    return label_of(found) if found is not None else item_id


# --- Unknown facts, compactly ------------------------------------------------------------------

#: Reference marks for the notes of a sheet, in order.
_MARKS = "¹²³⁴⁵⁶⁷⁸⁹"


class Notes:
    """The unknown facts of one sheet, printed compactly: ``—¹`` in place, the reason once below.

    A note is per topic (``cost``, ``copies`` ...): one mark for every unknown cost of the
    sheet, whose note gives the reason, or the number of unknowns and the first reason when the
    reasons differ (each is in the rule files, and ``civrules explain`` says how to find them).
    Topics unknown for the same reason share one note (``limit and rate: …``): no note
    repeats another's reason.
    """

    def __init__(self) -> None:
        self.topics: dict[str, list[str]] = {}
        self.names: dict[str, list[str]] = {}
        self.alias: dict[str, str] = {}

    def mark(self, topic: str, reason: str) -> str:
        first = self.alias.get(topic)
        if first is None:
            first = next((t for t, reasons in self.topics.items() if set(reasons) == {reason}), topic)
            self.alias[topic] = first
            if topic not in self.names.setdefault(first, []):
                self.names[first].append(topic)
        self.topics.setdefault(first, []).append(reason)
        return self.reference(list(self.topics).index(first))

    @staticmethod
    def reference(index: int) -> str:
        return "".join(_MARKS[int(d) - 1] if d != "0" else "⁰" for d in str(index + 1))

    def fact(self, value: object, topic: str, none: str = "—") -> str:
        """A fact as printed: an unknown one as ``—`` and its topic's mark."""
        if isinstance(value, Unknown):
            return "—" + self.mark(topic, value.reason or "not in the sources")
        return known(value, none)

    def listed(self) -> list[tuple[str, str]]:
        """Every note: its mark and its text."""
        found = []
        for index, (topic, reasons) in enumerate(self.topics.items()):
            names = self.names.get(topic, [topic])
            label = " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]
            distinct = list(dict.fromkeys(reasons))
            if len(distinct) == 1:
                text = f"{label}: {distinct[0]}"
            else:
                text = f"{label}, {len(reasons)} times; the first: {distinct[0]}"
            found.append((self.reference(index), text))
        return found


# --- Templates and sources ---------------------------------------------------------------------


def environment(family: str | None = None) -> jinja2.Environment:
    """The sheets' jinja2 environment (autoescape on) with the ``css_string``, ``mm`` and
    ``language_name`` filters: of the family whose package is ``family`` (its templates, then the
    core's), or the core's alone."""
    env = template_environment("sheets", autoescape=True, family=family)
    env.filters["css_string"] = css_string
    env.filters["mm"] = _mm
    env.filters["language_name"] = language_name
    return env


def _mm(value: object) -> str:
    return f"{float(value):.2f}mm"  # type: ignore[arg-type]


def source_files(ruleset: Ruleset, kinds: Iterable[str]) -> list[str]:
    """The rule files a sheet is made from: the manifests of the ruleset's chain and its files of ``kinds``.

    A file of the rules folder is given from the folder's name (``rules/cards/…``), whatever the
    working directory; a file shipped with civrules as :meth:`~civrules.model.Ruleset.file_name`
    names it (``<civrules>/rulesets/…``), wherever civrules is installed: so the sheets are the
    same wherever they are built.
    """
    prefix = PurePosixPath(ruleset.manifest.file).parent.parent.name or "rules"
    wanted = set(kinds)
    found: dict[str, None] = {}
    for document in ruleset.documents:
        data = document.data
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind != "ruleset" and kind not in wanted:
            continue
        found.setdefault(_shown(ruleset.file_name(document.file), prefix))
    return list(found)


def _shown(name: str, prefix: str) -> str:
    """How :func:`source_files` shows a file named ``name`` of the rules folder called ``prefix``."""
    if name.startswith((SHIPPED, "/")):  # shipped, or absolute (a POSIX path's one mark of it)
        return name
    return f"{prefix}/{name}"
