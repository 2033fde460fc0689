"""Printable player aids ("sheets"): self-contained HTML pages and one PDF, from a resolved ruleset.

Each sheet is one HTML file with its CSS inline and nothing fetched from anywhere (no URL, no
font, no script), laid out for print with ``@page`` rules for A4 or US Letter; the PDF is the
same pages typeset by WeasyPrint. Every page carries the ruleset's name, its fingerprint and the
note that it is generated, naming the rule files to edit instead.

- ``quick-reference.html``: the turn on one page (phases, hand limit, taxation, trade draw,
  calamity order);
- ``credit-table.html``: the civilization card credit table (owned cards down, targets across),
  one landscape page, like the back cover of the Advanced Civilization rulebook, where it fits;
  for a larger deck the credit chart (each card's credits to each group and to single cards);
- ``cards.html``: the card quick chart (groups, cost, prerequisites, credits, attributes);
- ``calamities.html``: the calamities in resolution order, with every card modifier in words
  and numbers;
- ``commodities.html``: the goods of each trade stack with their set values, with Mining, and the
  deck compositions where the data has them;
- ``ast.html``: each nation's A.S.T. track with its epochs and Late Iron Age values, and the
  epochs' entry requirements;
- ``sequence-of-play.html``: the phases with their conditions and order;
- ``map.html``: a picture of the map graph and the index of every area;
- ``variant-changes.html``: what a variant changes (``civrules diff`` output), when given;
- ``index.html``: the list of sheets.

Unknown facts print as ``—`` with a note of the reason; a variant's sheets mark what it adds or
changes. Templates are jinja2 with autoescape on, so a name from the data is always text, never markup;
strings that go into CSS (the running page header) are CSS-escaped. The output is a pure function
of the model: everything is sorted or in data order, nothing depends on the time or on hashing.

Examples
--------
>>> files = render_sheets(ruleset, fingerprint)  # doctest: +SKIP
>>> sorted(files)[:3]  # doctest: +SKIP
['ast.html', 'calamities.html', 'cards.html']

Each sheet is one module of this package (``credit_table.py``, ``map_sheet.py`` ...) that
registers its builder with :func:`~civrules.emit.sheets.registry.sheet`; ``common.py`` holds what
they share and ``render.py`` typesets them. Adding a sheet is one module, one template, one test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from civrules.emit.sheets.common import PAPERS, Page, Paper, css_string
from civrules.emit.sheets.registry import Sheet, Source

if TYPE_CHECKING:
    from civrules.emit.sheets.render import CHANGES, INDEX, SHEETS, all_sheets, render_pdf, render_sheets

#: What :mod:`civrules.emit.sheets.render` offers, imported when first asked for: a sheet module
#: imports this package's `common` and `registry`, and must not set the renderer importing it back.
_RENDER = frozenset({"CHANGES", "INDEX", "SHEETS", "all_sheets", "render_pdf", "render_sheets"})


def __getattr__(name: str) -> Any:
    if name in _RENDER:
        from civrules.emit.sheets import render

        return getattr(render, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHANGES",
    "INDEX",
    "PAPERS",
    "SHEETS",
    "Page",
    "Paper",
    "Sheet",
    "Source",
    "all_sheets",
    "css_string",
    "render_pdf",
    "render_sheets",
]
