"""A screen reader can tell what every header cell of the shipped pages heads (round 31).

A ``<th>`` in a table's ``<thead>`` heads the column below it. One in the body heads nothing a
screen reader can be sure of unless its ``scope`` says so: the row it starts (``row``), or the rows
of its ``<tbody>`` (``rowgroup``: the commodities sheet's "Stack 3" line over the goods of that trade
stack). Before round 31 those stack lines had none, and a screen reader read them as a column header
(or as nothing) over the goods' rows, and read "Stack 2calamities: ...": no space parted the
stack's number from the calamities shuffled into it, set apart by a margin alone. Held here for
every shipped sheet and helper page, read as text (no browser).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated"
#: The shipped rulesets' pages (tests/shipped.py: never a designer's variant built beside them).
PAGES = sorted([*shipped.built("sheets/*/*.html"), *shipped.built("helpers/*.html")])
SCOPES = {"row", "rowgroup", "col", "colgroup"}


class _Headers(HTMLParser):
    """The body header cells of a page that say no scope: their line and first words."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_head = 0
        self.open: tuple[int, list[str]] | None = None  # a body <th> without scope being read
        self.unscoped: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "thead":
            self.in_head += 1
        elif tag == "th" and not self.in_head and dict(attrs).get("scope") not in SCOPES:
            self.open = (self.getpos()[0], [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.in_head -= 1
        elif tag == "th" and self.open is not None:
            line, words = self.open
            self.unscoped.append(f"line {line}: {' '.join(''.join(words).split())[:60]!r}")
            self.open = None

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open[1].append(data)


def unscoped(html: str) -> list[str]:
    parser = _Headers()
    parser.feed(html)
    parser.close()
    return parser.unscoped


def test_a_body_header_without_scope_is_found() -> None:
    page = (
        "<table><thead><tr><th>Good</th></tr></thead><tbody>"
        '<tr><th colspan="2">Stack 1</th></tr><tr><th scope="row">Ochre</th><td>1</td></tr></tbody></table>'
    )
    assert unscoped(page) == ["line 1: 'Stack 1'"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(GENERATED)))
def test_every_body_header_of_a_shipped_page_says_what_it_heads(page: Path) -> None:
    assert PAGES
    found = unscoped(page.read_text(encoding="utf-8"))
    assert not found, f"header cells in a table body without scope (row or rowgroup): {found}"


class _ColumnHeaders(HTMLParser):
    """The column header cells of a page (in a ``<thead>``) that name nothing: no text, no
    ``aria-label`` on the cell or on a picture inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_head = 0
        self.open: tuple[int, list[str]] | None = None
        self.unnamed: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        label = (dict(attrs).get("aria-label") or "").strip()
        if tag == "thead":
            self.in_head += 1
        elif tag == "th" and self.in_head:
            self.open = (self.getpos()[0], [label])
        elif self.open is not None and label:
            self.open[1].append(label)

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.in_head -= 1
        elif tag == "th" and self.open is not None:
            line, words = self.open
            if not "".join(words).strip():
                self.unnamed.append(f"line {line}")
            self.open = None

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open[1].append(data)


def unnamed_columns(html: str) -> list[str]:
    parser = _ColumnHeaders()
    parser.feed(html)
    parser.close()
    return parser.unnamed


def test_a_column_header_that_names_nothing_is_found() -> None:
    page = '<table><thead><tr><th></th><th>Cards</th><th><svg aria-label="Pottery"></svg></th></tr></thead></table>'
    assert unnamed_columns(page) == ["line 1"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(GENERATED)))
def test_every_column_header_of_a_shipped_page_names_its_column(page: Path) -> None:
    """A screen reader moving along a row says each cell's column header: an empty one said
    nothing over the A.S.T.'s epoch shades, Sid Meier's phase numbers and battle hands, and over
    a government's role ("starting"), which no heading named at all (round 34)."""
    found = unnamed_columns(page.read_text(encoding="utf-8"))
    assert not found, f"column header cells that name nothing: {found}"


def _stack_lines(html: str) -> list[str]:
    """The words of the commodities sheet's stack lines, as a screen reader (or a copy) gets them."""
    lines = []
    for chunk in html.split('<th scope="rowgroup"')[1:]:
        lines.append(" ".join(_text(chunk[chunk.index(">") + 1 : chunk.index("</th>")]).split()))
    return lines


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _text(fragment: str) -> str:
    reader = _Text()
    reader.feed(fragment)
    reader.close()
    return "".join(reader.parts)


@pytest.mark.parametrize("page", shipped.built("sheets/*/commodities.html"), ids=lambda p: p.parent.name)
def test_a_stack_line_parts_its_number_from_its_calamities(page: Path) -> None:
    lines = _stack_lines(page.read_text(encoding="utf-8"))
    with_calamities = [line for line in lines if "calamities:" in line]
    assert with_calamities, lines
    for line in with_calamities:
        assert " calamities:" in line, line
