"""Every sheet of every ruleset, of every family, says only what the data says, and says it once.

The sheets read here are the committed ones (`generated/sheets/`, kept current by `build --check`
and tests/generated): each is scanned as a player reads it, its visible text, for what a player
cannot use: a field name or an id where a word belongs (`see requirements_by_level`,
`nations[].ast_position`), a placeholder (`[…]`, `{"unknown": ""}`, a `None` amid words, empty brackets, a template's
braces), a word in backticks (a key of the data),
a table with no row, and a sentence printed twice on one sheet (a footnote repeating another's
reason, a row per unknown fact where one line would say why).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests import shipped
from tests.conftest import REPO

SHEETS = REPO / "generated" / "sheets"
ALL = shipped.built("sheets/*/*.html")  # never a designer's variant built beside them

#: A word of snake_case: a field name or an id, never English.
SNAKE = re.compile(r"(?<![\w/@:#-])(?<!\w\.)[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\[\])?(?![\w/.(-]*[/@])(?!\.[a-z]{2,4}\b)")
#: What a template or a dump leaves where a fact belongs.
PLACEHOLDERS = re.compile(
    r"\[…\]|\{\"unknown\"|(?<=\w )None\b|\bnull\b|\bundefined\b|\bNaN\b|\bTODO\b"
    r"|\{\{|\{%|%\}|\bsee [a-z]+_[a-z_]+|`[^`\s]+`|\(\)"
)
#: The shortest sentence that, printed twice on one sheet, is said twice.
LONG = 70


class Visible(HTMLParser):
    """A sheet's text as printed: no style, no script, no title; block elements end a line.

    Besides all of it (``parts``), the sheet's own words (``said``: paragraphs, notes, legends, what
    a list says of itself) apart from the facts of each entity (table cells, a card's attributes),
    which may well repeat from one entity to the next; and each table's rows (``rows``).
    """

    BLOCKS = frozenset({"p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "caption", "br", "footer", "header"})
    #: Where a sheet speaks for itself rather than for an entity.
    OWN = frozenset({"notes", "foot-mark", "muted", "lead", "key", "small", "whole-note", "combination-notes"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.said: list[str] = []
        self.hidden = 0
        self.own: list[str] = []
        self.stack: list[tuple[str, bool]] = []
        self.tables: list[list[list[str]]] = []
        self.rows: list[list[str]] = []
        self.empty_tables = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "title"):
            self.hidden += 1
        classes = set((dict(attrs).get("class") or "").split())
        own = tag == "p" or bool(classes & self.OWN)
        if tag not in ("br", "col", "img", "meta", "link", "input", "hr", "wbr"):
            self.stack.append((tag, own))
        if tag in self.BLOCKS:
            self.parts.append("\n")
            self.said.append("\n")
        if tag == "tbody":
            self.tables.append([])
        if tag == "tr" and self.tables:
            self.tables[-1].append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "title"):
            self.hidden -= 1
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
        if tag == "tbody" and self.tables:
            rows = self.tables.pop()
            self.empty_tables += not rows
            self.rows.extend(rows)
        if tag in self.BLOCKS:
            self.parts.append("\n")
            self.said.append("\n")

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        self.parts.append(data)
        if any(own for _, own in self.stack):
            self.said.append(data)
        if self.tables and self.tables[-1]:
            self.tables[-1][-1].append(data)


def read(path: Path) -> Visible:
    parser = Visible()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def lines_of(parser: Visible, parts: list[str] | None = None) -> list[str]:
    text = "".join(parser.parts if parts is None else parts)
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class Scanned:
    """What the tests below read of one committed sheet: its printed lines, the lines of what it
    says for itself, each table row's text, and how many tables have no row."""

    lines: tuple[str, ...]
    said: tuple[str, ...]
    rows: tuple[str, ...]
    empty_tables: int


@functools.cache
def scanned(path: Path) -> Scanned:
    """A sheet parsed once per process for the four tests that read it (each parsed it again: 1.6
    s of CPU for the 97 sheets), held as tuples of strings, which the garbage collector skips."""
    parser = read(path)
    rows = tuple(" ".join("".join(row).split()) for row in parser.rows)
    return Scanned(tuple(lines_of(parser)), tuple(lines_of(parser, parser.said)), rows, parser.empty_tables)


@pytest.fixture(scope="module", autouse=True)
def _scanned_for_this_module_only() -> Iterator[None]:
    """The parsed sheets are let go when the module's tests end."""
    yield
    scanned.cache_clear()


def _name(path: Path) -> str:
    return path.relative_to(SHEETS).as_posix()


def test_every_ruleset_has_sheets_to_scan() -> None:
    assert {p.parent.name for p in ALL} >= {"mega-civilization", "sid-meiers-civilization", "imperial-settlers"}


@pytest.mark.parametrize("path", ALL, ids=_name)
def test_a_sheet_prints_no_field_name_and_no_placeholder(path: Path) -> None:
    lines = scanned(path).lines
    found = [(line, m.group()) for line in lines for m in PLACEHOLDERS.finditer(line)]
    # What a variant changes is `civrules diff`'s output: its paths and ids are its words.
    if path.name != "variant-changes.html":
        found += [(line, m.group()) for line in lines for m in SNAKE.finditer(line)]
    assert not found, "\n".join(f"{word!r} in: {line[:160]}" for line, word in found[:20])


@pytest.mark.parametrize("path", ALL, ids=_name)
def test_a_sheet_has_no_empty_table(path: Path) -> None:
    assert scanned(path).empty_tables == 0, "a table with no row: say in one line why there is nothing"


@pytest.mark.parametrize("path", [p for p in ALL if p.name != "variant-changes.html"], ids=_name)
def test_a_sheet_says_each_sentence_once(path: Path) -> None:
    """What a sheet says for itself (a note, a legend, a footnote) is said once; the facts of two
    entities may be the same (two cards with one attribute)."""
    sentences = Counter(
        sentence.strip()
        for line in scanned(path).said
        for sentence in re.split(r"(?<=[.;:])\s+", line)
        if len(sentence.strip()) >= LONG
    )
    repeated = [(n, s) for s, n in sentences.items() if n > 1]
    assert not repeated, "\n".join(f"{n}× {s[:160]}" for n, s in repeated[:10])


@pytest.mark.parametrize("path", ALL, ids=_name)
def test_an_unknown_is_not_a_row_each_where_one_line_would_say_why(path: Path) -> None:
    """36 rows of "unknown — the epochs of this track are not usable": one line says it."""
    reasons: Counter[str] = Counter()
    for text in scanned(path).rows:
        if "unknown" in text:
            reason = text.split("unknown", 1)[1].strip(" —-:")
            if len(reason) >= 20:
                reasons[reason] += 1
    repeated = [(n, r) for r, n in reasons.items() if n > 2]
    assert not repeated, "\n".join(f"{n} rows: unknown — {r[:120]}" for n, r in repeated)


def _scan(page: str, *, diff: bool = False) -> list[str]:
    """Everything the tests above find on one page (for pages that are not committed)."""
    parser = Visible()
    parser.feed(page)
    parser.close()
    lines = lines_of(parser)
    found = [m.group() for line in lines for m in PLACEHOLDERS.finditer(line)]
    if not diff:
        found += [m.group() for line in lines for m in SNAKE.finditer(line)]
    found += ["an empty table"] * parser.empty_tables
    reasons: Counter[str] = Counter()
    for row in parser.rows:
        text = " ".join("".join(row).split())
        if "unknown" in text and len(reason := text.split("unknown", 1)[1].strip(" —-:")) >= 20:
            reasons[reason] += 1
    found += [f"{n} rows of one unknown" for n in reasons.values() if n > 2]
    return found


def test_the_scan_finds_what_the_trial_found() -> None:
    """The faults of the Mega Civilization sheets the trial met, each found by the scan."""
    row = "<tr><th>Minoa</th><td>unknown — the epochs of this track are not usable</td></tr>"
    assert _scan(f"<table><tbody>{row * 3}</tbody></table>") == ["3 rows of one unknown"]
    assert _scan("<table><thead><tr><th>#</th></tr></thead><tbody></tbody></table>") == ["an empty table"]
    assert _scan("<p>Depends on the A.S.T. level (Basic or Expert): see requirements_by_level.</p>") == [
        "see requirements_by_level",
        "requirements_by_level",
    ]
    assert _scan("<p>Minoa first (nations[].ast_position).</p>") == ["ast_position"]
    assert _scan('<p>+ areas[…]: gaul {"unknown": ""}</p>', diff=True) == ["[…]", '{"unknown"']
    assert _scan("<p>−2 None (secondary)</p><p>3 cards at least per trade ()</p>") == ["None", "()"]
    assert _scan("<p>for which `order` has no value</p>") == ["`order`"]
    # What is fine: a citation's path, an id in a source, English.
    assert _scan("<p>None. (28.2.1) menuan/megacivrules-flutter@e2c9:assets/data/json/chapters.json</p>") == []


def test_the_sheets_of_a_mega_civilization_house_variant_say_only_what_the_data_says() -> None:
    from civrules.emit.build import variant_changes
    from civrules.emit.sheets import render_sheets
    from civrules.pipeline import analyse
    from tests.families.advanced_civilization.test_mega_civilization import MEGA_HOUSE
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace({"rulesets/mega-house.yaml": MEGA_HOUSE})
    loaded = workspace.load_ruleset(workspace.manifests()["mega-house"])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    files = render_sheets(analysis.model, "0" * 64, changes=changes)
    found = {
        name: _scan(page.decode(), diff=name == "variant-changes.html")
        for name, page in files.items()
        if _scan(page.decode(), diff=name == "variant-changes.html")
    }
    assert found == {}


@pytest.mark.parametrize("ruleset_id", ["advanced-civilization", "sid-meiers-civilization", "imperial-settlers"])
def test_a_ruleset_with_nothing_in_its_collections_gets_a_line_not_an_empty_table(ruleset_id: str) -> None:
    """Mega Civilization's sequence of play was a table with no row and no note: every sheet of
    every family, given a ruleset whose every collection is empty, says in a line why it lists nothing."""
    import dataclasses

    from civrules.emit.sheets import render_sheets
    from civrules.model import Collection
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace({})
    model = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id])).model
    assert model is not None
    empty: dict[str, Any] = {
        f.name: Collection.of(value.name, [])
        for f in dataclasses.fields(model)
        if isinstance(value := getattr(model, f.name), Collection)
    }
    assert empty
    files = render_sheets(dataclasses.replace(model, **empty), "0" * 64)
    found = {name: _scan(page.decode()) for name, page in files.items()}
    assert {name: problems for name, problems in found.items() if problems} == {}
