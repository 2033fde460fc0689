"""Printable player aids ("sheets"): self-contained HTML pages and one PDF, from a resolved ruleset.

Each sheet is one HTML file with its CSS inline and nothing fetched from anywhere (no URL, no
font, no script), laid out for print with ``@page`` rules for A4 or US Letter; the PDF is the
same pages typeset by WeasyPrint. Every page carries the ruleset's name, its fingerprint and the
note that it is generated, naming the rule files to edit instead.

Which sheets a ruleset has is its family's: each family's ``sheets`` packages (its room's
``sheets/``) register them (``civrules list --families`` names the families; each family's
documentation lists its sheets). The core adds to every ruleset's:

- ``variant-changes.html``: what a variant changes (``civrules diff`` output), when given;
- ``index.html``: the list of sheets.

Unknown facts print as ``—`` with a note of the reason; a variant's sheets mark what it adds or
changes. Templates are jinja2 with autoescape on, so a name from the data is always text, never markup;
strings that go into CSS (the running page header) are CSS-escaped. The output is a pure function
of the model: everything is sorted or in data order, nothing depends on the time or on hashing.

Examples
--------
>>> files = render_sheets(ruleset, fingerprint)  # doctest: +SKIP
>>> sorted(files)[-2:]  # doctest: +SKIP
['index.html', 'variant-changes.html']

Each sheet is one module (of a family's sheets package, or ``variant_changes.py`` here) that
registers its builder with :func:`~civrules.emit.sheets.registry.sheet`; ``common.py`` holds what
they share and ``render.py`` typesets them. Adding a sheet is one module, one template, one test.
A builder reads only through its :class:`Source` and returns plain data: a build of several
rulesets runs it on a stand-in that records its reads and gives a variant that reads the same the
context made before (:mod:`civrules.support.tracked`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from civrules.emit.sheets.common import PAPERS, Page, Paper, css_string
from civrules.emit.sheets.registry import Sheet, Source

if TYPE_CHECKING:
    from civrules.emit.sheets.render import CHANGES, INDEX, SHEETS, all_sheets, each_sheet, render_pdf, render_sheets

#: What :mod:`civrules.emit.sheets.render` offers, imported when first asked for: a sheet module
#: imports this package's `common` and `registry`, and must not set the renderer importing it back.
_RENDER = frozenset({"CHANGES", "INDEX", "SHEETS", "all_sheets", "each_sheet", "render_pdf", "render_sheets"})


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
    "each_sheet",
    "render_pdf",
    "render_sheets",
]
