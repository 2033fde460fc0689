"""Every family's printed sheets, as Chromium lays them out for print on A4 and on Letter: no text
is printed smaller than a player can read at the table.

The floor, :data:`SMALLEST_EM_MM` (1.75 mm, 6.6 CSS px, 5 pt): the least x-height the EU allows for
the mandatory text on a small pack, 0.9 mm (Regulation (EU) No 1169/2011, Article 13(3); 1.2 mm on
larger ones), in Liberation Sans, the sheets' face, whose x-height is 0.52 em (1,062 of 2,048
units). A sheet is a dense reference read at arm's length, as such a label is. Every text the
sheets set in CSS was above it (the smallest, a citation, 2 mm); the letters civrules draws in a
group's mark, and the population numbers of the map picture, were SVG text scaled with their
picture, and printed at 1.3 mm (Mega Civilization's credit chart), 1.5 mm (its cards) and 1.67 mm.

Each text node's size is the computed font size, times the scale of its SVG picture where it is in
one (the determinant of its screen matrix: a view box drawn smaller than its units). `make
test-slow`: every sheet of every shipped ruleset, twice (about 250 tabs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from civrules.emit.build import variant_changes
from civrules.emit.export import export_ruleset, fingerprint
from civrules.emit.sheets import render_sheets
from civrules.emit.sheets.common import page_for, paper_named
from civrules.pipeline import derived_facts
from tests.browser import Browser
from tests.rulefiles import CachedWorkspace, shipped_analysis

#: The least height of the em of any printed text (see the module's documentation).
SMALLEST_EM_MM = 1.75
#: CSS pixels per millimetre (96 dpi).
PX = 96 / 25.4
#: The papers' width and height in millimetres, portrait.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

#: The printed size of each text node of the page, smallest first, with where it is.
SIZES = r"""(() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.data.trim() || !element || element.closest('title, style, script')) continue;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    let size = parseFloat(style.fontSize);
    if (element instanceof SVGElement) {
      const matrix = element.getScreenCTM();
      if (matrix) size *= Math.sqrt(Math.abs(matrix.a * matrix.d - matrix.b * matrix.c));
    }
    found.push([size, node.data.trim().slice(0, 30), element.tagName.toLowerCase()]);
  }
  const root = document.documentElement;
  return [found.sort((a, b) => a[0] - b[0]).slice(0, 3), root.scrollWidth - root.clientWidth];
})()"""


def _rulesets() -> list[str]:
    return sorted(CachedWorkspace().manifests())


def _sheets(ruleset_id: str, paper: str) -> dict[str, bytes]:
    """The sheets of a shipped ruleset on ``paper``, as `civrules sheets --paper` renders them."""
    workspace = CachedWorkspace()
    analysis = shipped_analysis(ruleset_id)
    assert analysis.resolved is not None and analysis.model is not None
    stamp = fingerprint(export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    changes = variant_changes(workspace, loaded, analysis.resolved)
    return render_sheets(analysis.model, stamp, paper, changes)


def smallest_printed(browser: Browser, page: Path, paper: str, landscape: bool) -> tuple[list[Any], float]:
    """The three smallest printed texts of ``page`` (size in CSS px, text, element), laid out for
    print on ``paper``, and how far (CSS px) the page's content runs past the page box's width.

    The viewport is the page box (the paper less the sheets' margins), as Chromium lays a page out
    for print. Content wider than it is not cut when printed: Chromium shrinks the whole page to
    fit, every text with it, which a computed font size does not show (round 33: a variant's
    unbroken card name made the credit table 1379 px wide on a 1123 px page, and its smallest text
    printed at 1.35 mm though its size said 1.75 mm)."""
    box = page_for(paper_named(paper), landscape)
    size = (round(box.content_width * PX), round(box.content_height * PX))
    with browser.open(page.as_uri(), size) as tab:
        browser.send("Emulation.setEmulatedMedia", {"media": "print"}, tab.session)
        found, past = tab.evaluate(SIZES)
        return list(found), float(past)


@pytest.mark.slow
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("ruleset_id", _rulesets())
def test_no_printed_text_is_smaller_than_the_floor(
    browser: Browser, tmp_path: Path, ruleset_id: str, paper: str
) -> None:
    from civrules.emit.sheets import SHEETS

    landscape = {sheet.file: sheet.landscape for sheet in SHEETS}
    small: dict[str, list[Any]] = {}
    for name, content in _sheets(ruleset_id, paper).items():
        if not name.endswith(".html"):
            continue
        page = tmp_path / name
        page.write_bytes(content)
        found, past = smallest_printed(browser, page, paper, landscape.get(name, False))
        if found and found[0][0] < SMALLEST_EM_MM * PX - 0.01:
            small[name] = [(f"{size / PX:.2f} mm", text, tag) for size, text, tag in found]
        if past > 1:  # Chromium would shrink the page, every text with it
            small.setdefault(name, []).append(f"{past / PX:.1f} mm wider than the page box")
    assert small == {}, f"{ruleset_id} on {paper}: text printed smaller than {SMALLEST_EM_MM} mm: {small}"


#: A designer's variant naming cards at length: words a column label breaks into lines, one word
#: longer than any label's line (broken with hyphens over the lines, round 33; it was cut with an
#: ellipsis), and a prerequisite whose "needs" line is long.
LONG_NAMES = {
    "Pottery": "Pottery of the Bronze Age Kingdoms of the Aegean Sea and of the Islands Beyond It",
    "Agriculture": "Agriculturalirrigationandfloodplaincultivationoftheriverineempires",
    "Law": "Law of the Twelve Tables as Written Down and Posted in the Forum of the City",
}


@pytest.mark.slow
def test_a_variants_long_card_names_print_no_smaller_than_the_floor(browser: Browser, tmp_path: Path) -> None:
    """The credit table's column labels shrank a card's name to fit its cell with no least size:
    a long name (a variant's) printed at 1 mm. They break it into lines, and cut what still does
    not fit with an ellipsis, at the floor; the full name stays the label's title. A word no line
    holds is broken with a hyphen at each line's end (round 33), and prints at the floor too."""
    import html
    import re

    from civrules.pipeline import analyse

    relative = "cards/advanced-civilization.yaml"
    text = (Path(__file__).parents[2] / "rules" / relative).read_text(encoding="utf-8")
    for short, long in LONG_NAMES.items():
        assert f"    name: {short}\n" in text
        text = text.replace(f"    name: {short}\n", f'    name: "{long}"\n', 1)
    workspace = CachedWorkspace({relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.model is not None
    for paper in sorted(PAPERS):
        content = render_sheets(analysis.model, "0" * 64, paper, only={"credit-table.html"})["credit-table.html"]
        page = tmp_path / f"credit-table-{paper}.html"
        page.write_bytes(content)
        found, past = smallest_printed(browser, page, paper, landscape=True)
        assert found[0][0] >= SMALLEST_EM_MM * PX - 0.01, (paper, [(f"{s / PX:.2f} mm", t, g) for s, t, g in found])
        # Nothing is wider than the page box, so the page prints at its size, not shrunk to fit.
        assert past <= 1, (paper, f"{past / PX:.1f} mm wider than the page box")
        written = html.unescape(content.decode("utf-8"))
        # The word no line holds is broken over lines, a hyphen at each break, not cut.
        assert ">Agriculturalirrigationand-</text>" in written and "Agriculturalirrigationand\u2026" not in written
        # Its row's heading breaks it too (round 33: unbroken, it made the table wider than the page),
        # the full name the heading's title.
        heading = re.search(r'<th scope="row"[^>]*title="Agriculturalirrigation[^"]*"[^>]*>(.*?)</th>', written)
        assert heading is not None and "-<br>" in heading.group(1), heading
        for long in LONG_NAMES.values():  # and every name is there in full
            assert f'aria-label="{long}"' in written and f"<title>{long}" in written, long


#: The text of each heading of the page, in order.
HEADINGS = r"""(() => [...document.querySelectorAll('main h2, main h3, main h4')]
  .map(e => e.textContent.replace(/\s+/g, ' ').trim()).filter(t => t))()"""


@pytest.mark.slow
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("ruleset_id", _rulesets())
def test_no_heading_is_printed_last_on_its_page(browser: Browser, tmp_path: Path, ruleset_id: str, paper: str) -> None:
    """A heading printed at the foot of a page heads nothing there: what it heads is on the next.
    Only h2 was kept with what follows it; Mega Civilization's special rules printed "At every
    number of players" (an h3) last on A4's first page, its list on the second (round 34). Each
    sheet of every shipped ruleset is printed (Chromium, the sheet's own ``@page``), and no page
    but the last ends with a heading's text."""
    import io

    import pypdf

    ended: dict[str, list[tuple[int, str]]] = {}
    for name, content in _sheets(ruleset_id, paper).items():
        if not name.endswith(".html"):
            continue
        page = tmp_path / name
        page.write_bytes(content)
        with browser.open(page.as_uri()) as tab:
            headings = set(tab.evaluate(HEADINGS))
            printed = pypdf.PdfReader(io.BytesIO(tab.pdf())).pages
        for number, sheet_page in enumerate(printed[:-1], start=1):
            lines = [line.strip() for line in (sheet_page.extract_text() or "").splitlines() if line.strip()]
            if lines and lines[-1] in headings:
                ended.setdefault(name, []).append((number, lines[-1]))
    assert ended == {}, f"{ruleset_id} on {paper}: pages that end with a heading: {ended}"
