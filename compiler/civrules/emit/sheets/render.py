"""Rendering the registered sheets to HTML pages and to one PDF."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import logging
import pkgutil
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from civrules.emit.helpers import sha256
from civrules.emit.sheets import registry, variant_changes
from civrules.emit.sheets.common import Paper, environment, page_for, paper_named, source_files
from civrules.emit.sheets.languages import NameLanguages, NameMarker, marked_names
from civrules.emit.sheets.registry import Sheet, Source
from civrules.families import Family, families, family_named, family_of_module
from civrules.model import Ruleset
from civrules.resolve.diff import RulesetDiff
from civrules.support.tracked import Read, reuse_or_make

#: The core's sheet modules (every ruleset's sheets): imported for the sheets they register.
SHARED = (variant_changes,)


def all_sheets() -> tuple[Sheet, ...]:
    """Every registered sheet, in order of position: the shared ones and each family's.

    The shared sheets are imported by name (:data:`SHARED`), each family's from the packages its
    register entry lists (:attr:`civrules.families.Family.sheets`), every module of them (the
    modules that are not sheets register nothing).
    """
    for family in families().values():
        _import_sheets(family)
    return _owned(registry._SHEETS.values())


def _import_sheets(family: Family) -> None:
    """Import every module of the family's sheet packages (each registers its sheets)."""
    for package in family.sheets:
        for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
            importlib.import_module(f"{package}.{module.name}")


def _owned(sheets: Iterable[Sheet]) -> tuple[Sheet, ...]:
    """The sheets, each with the family whose module registered it, in order of position."""
    found = []
    for sheet in sheets:
        owner = family_of_module(sheet.build.__module__)
        found.append(dataclasses.replace(sheet, family=owner.id) if owner is not None else sheet)
    return tuple(sorted(found, key=lambda s: (s.position, s.file)))


@functools.cache
def registered() -> tuple[Sheet, ...]:
    """Every sheet, found once, when first asked for: importing this module imports no sheet (a
    sheet module may import what imports this one)."""
    return all_sheets()


@functools.cache
def registered_for(family_id: str) -> tuple[Sheet, ...]:
    """The sheets of one family's rulesets (the core's and the family's own), found once: only
    that family's sheet modules are imported. A build of one ruleset imported every family's
    (their models and rules besides: 40-50 ms of CPU in a ``civrules build`` of
    the largest shipped ruleset) to keep one family's sheets."""
    family = family_named(family_id)
    if family is not None:
        _import_sheets(family)
    return tuple(s for s in _owned(registry._SHEETS.values()) if s.family in (None, family_id))


if TYPE_CHECKING:
    #: The sheets of every ruleset, in order.
    SHEETS: tuple[Sheet, ...]
    #: The sheet of what a variant changes (the first sheet only a variant has).
    CHANGES: Sheet


def __getattr__(name: str) -> Any:
    if name == "SHEETS":
        return tuple(s for s in registered() if not s.variant_only)
    if name == "CHANGES":
        return next(s for s in registered() if s.variant_only)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


INDEX = Sheet("index.html", "Player aids", "The sheets of this ruleset.", False, ())


def _all_kinds(ruleset: Ruleset) -> set[str]:
    """The kinds of every file of the ruleset (the index sheet is made from them all)."""
    return {str(d.data["kind"]) for d in ruleset.documents if isinstance(d.data, dict) and "kind" in d.data}


def _sheets(ruleset: Ruleset, changes: RulesetDiff | None) -> list[Sheet]:
    """The sheets of ``ruleset``: the core's and its family's (a variant's changes only for a variant)."""
    return [s for s in registered_for(ruleset.family) if changes is not None or not s.variant_only]


def _render(
    ruleset: Ruleset,
    fingerprint: str,
    paper: Paper,
    sheet: Sheet,
    context: Mapping[str, Any],
    listed: Sequence[Sheet],
    names: _Names,
) -> str:
    return names.marker.mark("".join(_pieces(ruleset, fingerprint, paper, sheet, context, listed, names.languages)))


@dataclasses.dataclass(frozen=True, slots=True)
class _Names:
    """The languages of a ruleset's names and their marker, made once for all its sheets."""

    languages: NameLanguages
    marker: NameMarker


def _names(ruleset: Ruleset) -> _Names:
    return _Names(*marked_names(ruleset))


#: Pieces of a sheet's text encoded together (:func:`_encoded`).
_BATCH = 4096


def _encoded(
    ruleset: Ruleset,
    fingerprint: str,
    paper: Paper,
    sheet: Sheet,
    context: Mapping[str, Any],
    listed: Sequence[Sheet],
    names: _Names,
) -> bytes:
    """:func:`_render`, encoded as UTF-8 a batch of the template's pieces at a time: a sheet of
    180,000 attributes (cards aliasing one long list) held every piece the template wrote, their
    join and its encoding at once, 60 MB for an 11 MB page. A ruleset with names in another
    language than the page's has its names marked in the whole text (its sheets are small)."""
    if names.marker.pattern is not None:
        return _render(ruleset, fingerprint, paper, sheet, context, listed, names).encode("utf-8")
    chunks: list[bytes] = []
    batch: list[str] = []
    for piece in _pieces(ruleset, fingerprint, paper, sheet, context, listed, names.languages):
        batch.append(piece)
        if len(batch) >= _BATCH:
            chunks.append("".join(batch).encode("utf-8"))
            batch.clear()
    chunks.append("".join(batch).encode("utf-8"))
    return b"".join(chunks)


#: Where :data:`SHEET_POLICY` names the sheet's one style: :func:`_style_hashed` puts its hash there
#: (inside the quotes, which the page's attribute escapes).
_STYLE_HASH = "sha256-of-the-style"

#: What a browser may do with a sheet: show it, styled by its own CSS. A sheet has no script, loads
#: nothing and posts nothing; should a name or a citation ever come through unescaped, a browser
#: still runs no script of it and fetches nothing it names (the helpers' pages have had such a
#: policy; the sheets had none). The one style allowed is the sheet's own `<style>`, by its hash,
#: as the helpers' pages allow theirs: a sheet has no `style` attribute (each is a class), so a
#: `style` that came through unescaped would not apply either.
SHEET_POLICY = "; ".join(
    (
        "default-src 'none'",
        f"style-src '{_STYLE_HASH}'",
        "img-src 'none'",
        "font-src 'none'",
        "connect-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    )
)


def _style_hashed(pieces: Iterator[str]) -> Iterator[str]:
    """``pieces``, the policy in the head naming the hash of the sheet's `<style>` (the head is
    held until the style ends; the rest is passed on as it comes)."""
    head: list[str] = []
    for piece in pieces:
        head.append(piece)
        if "</style>" in "".join(head[-2:]):  # a tag the template writes whole, in one piece or two
            break
    text = "".join(head)
    start, end = text.find("<style>"), text.find("</style>")
    if start >= 0 and end > start:  # the policy comes first in the head, before any name is written
        text = text.replace(_STYLE_HASH, sha256(text[start + len("<style>") : end]).strip("'"), 1)
    yield text
    yield from pieces


def _pieces(
    ruleset: Ruleset,
    fingerprint: str,
    paper: Paper,
    sheet: Sheet,
    context: Mapping[str, Any],
    listed: Sequence[Sheet],
    languages: NameLanguages,
) -> Iterator[str]:
    """The sheet's text as the template writes it, piece by piece."""
    page = page_for(paper, sheet.landscape)
    sources = source_files(ruleset, sheet.sources if sheet is not INDEX else _all_kinds(ruleset))
    family = family_named(ruleset.family)
    template = environment(family.package if family is not None else None).get_template(
        sheet.file.replace(".html", ".html.j2")
    )
    return _style_hashed(
        template.generate(
            ruleset=ruleset,
            fingerprint=fingerprint,
            content_security_policy=SHEET_POLICY,
            short=fingerprint[:12],
            sheet=sheet,
            page=page,
            sources=sources,
            note=f"generated by civrules — do not edit; from {', '.join(sources)}",
            sheets=listed,
            languages=languages,
            **context,
        )
    )


def _contexts(
    ruleset: Ruleset, paper: Paper, changes: RulesetDiff | None, only: Collection[str] | None = None
) -> list[tuple[Sheet, Mapping[str, Any]]]:
    return [
        (s, s.build(Source(ruleset, page_for(paper, s.landscape), changes)))
        for s in _sheets(ruleset, changes)
        if only is None or s.file in only
    ]


def render_sheets(
    model: Ruleset,
    fingerprint: str,
    paper: str = "a4",
    changes: RulesetDiff | None = None,
    *,
    only: Collection[str] | None = None,
) -> dict[str, bytes]:
    """Every sheet of a ruleset as HTML, by path relative to ``generated/sheets/<ruleset_id>/``.

    ``paper`` is ``a4`` or ``letter``; ``changes`` is ``civrules diff BASE RULESET`` for a
    variant: its sheets then mark what it changes, and the "what this variant changes" sheet is
    added. ``only`` names the sheets to render (the index is then left out, unless it is named).

    Raises:
        ValueError: ``paper`` is not a known paper size.
    """
    chosen = paper_named(paper)
    listed = _sheets(model, changes)
    names = _names(model)
    files: dict[str, bytes] = {}
    for sheet, context in _contexts(model, chosen, changes, only):
        files[sheet.file] = _render(model, fingerprint, chosen, sheet, context, listed, names).encode("utf-8")
    if only is None or INDEX.file in only:
        index = _render(model, fingerprint, chosen, INDEX, {"paper": chosen}, listed, names)
        files[INDEX.file] = index.encode("utf-8")
    return dict(sorted(files.items()))


def each_sheet(
    model: Ruleset,
    fingerprint: str,
    paper: str = "a4",
    changes: RulesetDiff | None = None,
    *,
    kept: dict[str, tuple[list[Read], Any]] | None = None,
) -> Iterator[tuple[str, bytes]]:
    """:func:`render_sheets`' files one at a time, in the same order, each sheet's context built
    when it is rendered: a build writes each as it is made (at 50× the synthetic ruleset's sheets
    and their contexts, held together, were the build's peak).

    ``kept`` (a build of several rulesets) holds each sheet's last context and what its builder
    read to make it (:mod:`civrules.support.tracked`): a ruleset that gives the same for every one
    of those reads (a variant that keeps the collections the sheet shows, its marks the same)
    reuses the context instead of building it again."""
    chosen = paper_named(paper)
    listed = _sheets(model, changes)
    names = _names(model)
    jobs: dict[str, Sheet | None] = {sheet.file: sheet for sheet in listed}
    jobs[INDEX.file] = None
    for file in sorted(jobs):
        sheet = jobs[file]
        if sheet is None:
            yield file, _encoded(model, fingerprint, chosen, INDEX, {"paper": chosen}, listed, names)
            continue
        source = Source(model, page_for(chosen, sheet.landscape), changes)
        if kept is None:
            context = sheet.build(source)
        else:
            context = reuse_or_make(kept, file, source, sheet.build, deep=("ruleset",))
        yield file, _encoded(model, fingerprint, chosen, sheet, context, listed, names)
        del context, source


def _refuse(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    raise ValueError(f"sheets are self-contained; refusing to fetch {url!r}")


def render_pdf(model: Ruleset, fingerprint: str, paper: str = "a4", changes: RulesetDiff | None = None) -> bytes:
    """One PDF with every sheet (the index left out), typeset by WeasyPrint.

    WeasyPrint is imported here, not at module level, so commands that never print stay quick to
    start. Nothing is fetched: the pages have no URL, and the fetcher refuses any all the same.
    """
    from civrules.support import search_path

    with search_path.absolute_only():  # its libraries are looked up by running gcc and ld
        import weasyprint  # type: ignore[import-untyped]

    chosen = paper_named(paper)
    listed = _sheets(model, changes)
    names = _names(model)
    documents = []
    logger = logging.getLogger("weasyprint")
    logger.addFilter(_for_browsers_only)
    try:
        for sheet, context in _contexts(model, chosen, changes):
            html = _render(model, fingerprint, chosen, sheet, context, listed, names)
            documents.append(weasyprint.HTML(string=html, url_fetcher=_refuse).render())
    finally:
        logger.removeFilter(_for_browsers_only)
    pages = [page for document in documents for page in document.pages]
    pdf: bytes = documents[0].copy(pages).write_pdf()
    return pdf


def _for_browsers_only(record: logging.LogRecord) -> bool:
    """Drop WeasyPrint's notice that it ignores ``print-color-adjust`` (it prints backgrounds anyway)."""
    return "print-color-adjust" not in record.getMessage()
