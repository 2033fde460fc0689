"""Player aid sheets: valid, self-contained, escaped HTML that prints right in Chromium and WeasyPrint.

The browser tests run the real headless Chromium (Debian's package; `make setup-browser` as root),
one browser for every rendering, driven over the DevTools pipe (tests/browser.py); where none is
installed they are skipped, with the reason (CI sets CIVRULES_REQUIRE_BROWSER=1, which
makes that a failure). Set ``CIVRULES_UPDATE_SCREENSHOT=1`` to rewrite docs/sheets-credit-table.png
and docs/sheets-credit-chart.png (each is written anyway when missing, never otherwise, so a test run
leaves the tree clean).
"""

from __future__ import annotations

import functools
import hashlib
import html
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from civrules.emit.build import variant_changes
from civrules.emit.export import export_ruleset
from civrules.emit.export import fingerprint as fingerprint_of
from civrules.emit.sheets import CHANGES, css_string, render_pdf, render_sheets
from civrules.emit.sheets import SHEETS as EVERY_FAMILYS_SHEETS
from civrules.emit.sheets.common import label_of
from civrules.families.advanced_civilization.calamities import resolution_order
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.sheets.svgmap import map_svg
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse, derived_facts
from civrules.resolve.diff import CollectionDiff, EntityChange, FieldChange, RulesetDiff, diff_rulesets, render_text
from tests import lazy, shipped
from tests.browser import Browser, BrowserError
from tests.budget import heavy
from tests.conftest import REPO, RULES
from tests.layout import outside_the_page
from tests.rulefiles import CachedWorkspace, shipped_analysis

if TYPE_CHECKING:
    import html5lib  # type: ignore[import-untyped]
    import pypdf
    from PIL import Image
else:  # imported by the tests that use them, on the worker that runs this module (tests/lazy.py)
    html5lib = lazy.module("html5lib")
    pypdf = lazy.module("pypdf")
    Image = lazy.module("PIL.Image")

BASE = "advanced-civilization"
VARIANT = "advanced-civilization-western"
SCREENSHOT = REPO / "docs" / "sheets-credit-table.png"
CHART_SCREENSHOT = REPO / "docs" / "sheets-credit-chart.png"
#: The sheets of this family's rulesets (the core's and its own; other families register theirs).
SHEETS = tuple(s for s in EVERY_FAMILYS_SHEETS if s.family in (None, "advanced-civilization"))
#: CSS pixels per millimetre (96 dpi).
PX = 96 / 25.4

# --- Models ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    model: Ruleset
    fingerprint: str
    files: Mapping[str, bytes]


def _analyse(workspace: Workspace, ruleset_id: str) -> Any:
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    assert analysis.model is not None and analysis.resolved is not None
    return analysis


def _shipped(ruleset_id: str) -> Any:
    """A shipped ruleset's analysis, shared with the process's other readers of it (tests.rulefiles)."""
    analysis = shipped_analysis(ruleset_id)
    assert analysis.model is not None and analysis.resolved is not None
    return analysis


def _fingerprint(analysis: Any) -> str:
    return fingerprint_of(export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))


@pytest.fixture(scope="module")
def base() -> Built:
    analysis = _shipped(BASE)
    assert analysis.ok
    fingerprint = _fingerprint(analysis)
    return Built(analysis.model, fingerprint, render_sheets(analysis.model, fingerprint))


@pytest.fixture(scope="module")
def variant() -> tuple[Built, str]:
    old, new = _shipped(BASE), _shipped(VARIANT)  # the base analysed once, not again for the variant
    diff = diff_rulesets(old.resolved, new.resolved)
    fingerprint = _fingerprint(new)
    # the changes as the sheet gives them: a mapping or list that comes or goes whole in words
    return Built(new.model, fingerprint, render_sheets(new.model, fingerprint, "letter", diff)), render_text(
        diff, in_words=True
    )


def _text(files: Mapping[str, bytes]) -> Iterator[tuple[str, str]]:
    for name, content in files.items():
        if name.endswith(".html"):
            yield name, content.decode("utf-8")


def _parse(text: str) -> Any:
    """The document tree; html5lib in strict mode raises on the first parse error."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)


def _cell_text(element: Any) -> str:
    """The text a reader sees in an element: pictures (inline SVG, with their titles) left out."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node.tag, str) and node.tag.rsplit("}", 1)[-1] == "svg":
            return
        yield node.text or ""
        for child in node:
            yield from walk(child)
            yield child.tail or ""

    return " ".join("".join(walk(element)).split())


# --- The HTML itself ---------------------------------------------------------------------------


def test_render_gives_every_sheet_and_an_index(base: Built, variant: tuple[Built, str]) -> None:
    expected = {sheet.file for sheet in SHEETS if sheet.family in (None, base.model.family)} | {"index.html"}
    assert set(base.files) == expected
    assert set(variant[0].files) == expected | {CHANGES.file}
    index = base.files["index.html"].decode()
    for sheet in SHEETS:
        assert (f'href="{sheet.file}"' in index) == (sheet.file in expected)


def test_every_sheet_parses_without_errors(base: Built, variant: tuple[Built, str]) -> None:
    for files in (base.files, variant[0].files):
        for name, text in _text(files):
            try:
                _parse(text)
            except html5lib.html5parser.ParseError as error:  # pragma: no cover - the failure report
                pytest.fail(f"{name}: {error}")


def test_sheets_refer_to_nothing_outside_themselves(base: Built, variant: tuple[Built, str]) -> None:
    for files in (base.files, variant[0].files):
        for name, text in _text(files):
            for forbidden in ("http:", "https:", "//", "@import", "<script", "<link", "<img", "<iframe", "src="):
                assert forbidden not in text.lower(), f"{name} contains {forbidden!r}"
            # url() only for a fragment of the same page (the map's hatching pattern).
            assert all(target.startswith("#") for target in re.findall(r"url\(\s*['\"]?([^)'\"]*)", text)), name
            # Links only between the sheets themselves.
            for target in re.findall(r"href=\"([^\"]*)\"", text):
                assert re.fullmatch(r"[a-z-]+\.html", target), f"{name} links to {target!r}"


def test_every_sheet_names_the_ruleset_fingerprint_and_rule_files(base: Built) -> None:
    short = base.fingerprint[:12]
    for name, text in _text(base.files):
        assert "Advanced Civilization" in text, name
        assert short in text and base.fingerprint in text, name
        assert "generated by civrules — do not edit; from rules/rulesets/advanced-civilization.yaml" in text, name
        # The running page header and footer are CSS strings, hex-escaped.
        assert f"@top-left {{\n    content: {css_string('Advanced Civilization')};" in text, name
    assert "rules/cards/advanced-civilization.yaml" in base.files["credit-table.html"].decode()
    assert "rules/maps/mediterranean.yaml" in base.files["map.html"].decode()


def test_page_size_follows_the_paper(base: Built, variant: tuple[Built, str]) -> None:
    assert "size: A4 landscape;" in base.files["credit-table.html"].decode()
    assert "size: A4 portrait;" in base.files["cards.html"].decode()
    assert "size: letter landscape;" in variant[0].files["credit-table.html"].decode()
    assert "size: letter portrait;" in variant[0].files["map.html"].decode()


def test_unknown_paper_is_refused(base: Built) -> None:
    with pytest.raises(ValueError, match="unknown paper 'a3'"):
        render_sheets(base.model, base.fingerprint, "a3")


@pytest.mark.slow  # make test: security/test_filesystem.py's two builds (sheets included) under two seeds
def test_output_is_the_same_whatever_the_hash_seed(base: Built) -> None:
    script = (
        "import hashlib, sys\n"
        "from pathlib import Path\n"
        "from civrules.load.workspace import Workspace\n"
        "from civrules.pipeline import analyse\n"
        "from civrules.emit.sheets import render_sheets\n"
        f"w = Workspace(Path({str(RULES)!r}))\n"
        f"a = analyse(w, w.load_ruleset(w.manifests()[{BASE!r}]))\n"
        f"files = render_sheets(a.model, {base.fingerprint!r})\n"
        "digest = hashlib.sha256()\n"
        "for name, content in sorted(files.items()):\n"
        "    digest.update(name.encode() + b'\\0' + content + b'\\0')\n"
        "print(digest.hexdigest())\n"
    )
    expected = hashlib.sha256()
    for name, content in sorted(base.files.items()):
        expected.update(name.encode() + b"\0" + content + b"\0")
    runs = []
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "CIVRULES_CACHE_DIR": ""}  # the map layout made under this seed
        runs.append(
            subprocess.Popen([sys.executable, "-c", script], cwd="/", env=env, stdout=subprocess.PIPE, text=True)
        )
    digests = [run.communicate(timeout=120)[0].strip() for run in runs]
    assert digests == [expected.hexdigest()] * 2


def test_a_card_name_with_markup_is_text() -> None:
    cards = (RULES / "cards" / "advanced-civilization.yaml").read_text()
    hostile = '"<script>alert(1)</script> Pottery & <b>Co</b>"'
    text = cards.replace("    name: Pottery\n", f"    name: {hostile}\n", 1)
    assert text != cards
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": text})
    analysis = _analyse(workspace, BASE)
    files = render_sheets(analysis.model, "0" * 64)
    for name, page in _text(files):
        assert "<script" not in page.lower() and "<b>" not in page, name
        tree = _parse(page)
        assert tree.findall(".//script") == [] and tree.findall(".//b") == [], name
    for name in ("credit-table.html", "cards.html"):
        assert "&lt;script&gt;alert(1)&lt;/script&gt; Pottery &amp; &lt;b&gt;Co&lt;/b&gt;" in files[name].decode()


def test_a_ruleset_name_cannot_leave_the_style_element() -> None:
    manifest = (RULES / "rulesets" / "advanced-civilization.yaml").read_text()
    hostile = "'Adv\"; } </style><script>alert(1)</script><style> body { color: red'"
    text = manifest.replace('name: "Advanced Civilization"\n', f"name: {hostile}\n", 1)
    assert text != manifest
    workspace = CachedWorkspace({"rulesets/advanced-civilization.yaml": text})
    analysis = _analyse(workspace, BASE)
    files = render_sheets(analysis.model, "0" * 64)
    for name, page in _text(files):
        assert "<script" not in page.lower(), name
        tree = _parse(page)
        styles = tree.findall(".//style")
        assert len(styles) == 1 and tree.findall(".//script") == [], name
        assert "</style" not in (styles[0].text or "") and "color: red" not in (styles[0].text or ""), name


def test_css_strings_escape_everything_but_plain_characters() -> None:
    assert str(css_string("A4 — x")) == '"A4\\000020\\002014\\000020x"'
    assert str(css_string("</style>")) == '"\\00003c\\00002fstyle\\00003e"'


# --- What the sheets say -----------------------------------------------------------------------


def test_credit_table_cells_are_the_derived_matrix(base: Built) -> None:
    tree = _parse(base.files["credit-table.html"].decode())
    cards = list(base.model.cards.by_id.values())
    matrix = credit_matrix(base.model)
    rows = tree.findall(".//table[@class='credits']/tbody/tr")
    assert len(rows) == len(cards)
    for card, row in zip(cards, rows, strict=True):
        head, cost, *cells = list(row)
        assert _cell_text(head) == card.display_name
        assert _cell_text(cost) == str(card.cost)
        shown = [_cell_text(cell) for cell in cells]
        assert shown == [str(matrix.get(card.id, {}).get(target.id, "")) for target in cards]
    # Costs and prerequisites are in the header: each column label names its card and prerequisites.
    labels = tree.findall(".//table[@class='credits']/thead/tr")[0].findall("th")[1:]
    democracy = next(label for label in labels if label.get("title") == "Democracy")
    assert "needs Law" in "".join(democracy.itertext())
    assert re.search(r'<th class="tcost">200</th>', base.files["credit-table.html"].decode())


def test_two_group_cards_show_both_marks(base: Built) -> None:
    text = base.files["credit-table.html"].decode()
    row = re.search(r"<th scope=\"row\">(.*?)Engineering</th>", text)
    assert row is not None
    assert row.group(1).count("<svg") == 2
    assert 'aria-label="Crafts"' in row.group(1) and 'aria-label="Sciences"' in row.group(1)


def test_calamities_are_in_resolution_order_with_card_modifiers(base: Built) -> None:
    text = html.unescape(base.files["calamities.html"].decode())
    names = [calamity.display_name for calamity in resolution_order(base.model)]
    positions = [text.index(f"<h2>{name}</h2>") for name in names]
    assert positions == sorted(positions)
    assert "Medicine:</span> −8 unit points (primary, 16 → 8); −5 unit points (secondary, 10 → 5)" in text
    assert "Mysticism:</span> 2 instead of 3 cities (primary)" in text
    assert "Pottery:</span> −4 unit points per Grain card, optional (primary; secondary)" in text


def test_military_in_civil_war_is_one_separate_loss_apart_from_the_faction_selections(base: Built) -> None:
    """30.414: Military's removal of five unit points per faction is said once, as a loss of its own
    with the annexation, not against the primary victim's and the beneficiary's selections."""
    text = html.unescape(base.files["calamities.html"].decode())
    lines = [line for line in re.findall(r"<li>(.*?)</li>", text) if "Military:</span>" in line]
    war = [line for line in lines if "per faction" in line]
    said = "+5 unit points per faction, a separate loss, once (primary, with faction annexed)"
    assert [line.partition('<span class="said">')[0] for line in war] == [f'<span class="card">Military:</span> {said}']
    assert "each player must take these, where he can, from areas next to the other faction" in war[0]  # its words


def test_ast_shows_unknown_never_blank(base: Built) -> None:
    tree = _parse(base.files["ast.html"].decode())
    rows = {_cell_text(row.find("th")).rstrip("*"): row for row in tree.findall(".//table[@class='ast']/tbody/tr")}
    assert set(rows) == {nation.display_name for nation in base.model.nations}
    # Italy's track comes from the community author's earlier commit (its row once had only an unknown).
    assert " ".join(_cell_text(cell) for cell in rows["Italy"].findall("td")).startswith("2 SA")
    for name, row in rows.items():
        cells = [_cell_text(cell) for cell in row.findall("td")][1:]
        assert cells[-1] == "unknown", name  # the finish box's value is not in the sources
        late = [cell for cell in cells if cell.startswith("LIA")]
        assert len(late) == 1 and re.fullmatch(r"LIA \d+", late[0]), name
    africa = [_cell_text(cell) for cell in rows["Africa"].findall("td")][1:]
    assert africa[14:16] == ["LIA 1300", "1600"]  # spaces 14 and 15, counted from the arrow (0)


def test_sequence_of_play_keeps_unknown_orders(base: Built) -> None:
    tree = _parse(base.files["sequence-of-play.html"].decode())
    rows = tree.findall(".//tbody/tr")
    assert [_cell_text(row.find("td")) for row in rows] == [str(n) for n in range(1, 14)]
    census = _cell_text(rows[2])
    assert "Census" in census and "unknown 18.1 gives no order" in census


def test_commodities_give_set_values_with_mining(base: Built) -> None:
    tree = _parse(base.files["commodities.html"].decode())
    rows = tree.findall(".//table[@class='goods']/tbody/tr")
    iron = next(i for i, row in enumerate(rows) if _cell_text(row.find("th")) == "Iron ◆")
    assert [_cell_text(cell) for cell in rows[iron].findall("td")][:6] == ["2", "8", "2", "8", "18", "32"]
    assert [_cell_text(cell) for cell in rows[iron + 1].findall("td")][2:6] == ["8", "18", "32", "50"]
    assert "Trade decks by number of players" not in base.files["commodities.html"].decode()


def test_deck_compositions_are_shown_when_the_data_has_them() -> None:
    commodities = (RULES / "cards" / "advanced-civilization-commodities.yaml").read_text()
    decks = (
        "deck_compositions:\n"
        "  - players: {min: 3, max: 5}\n"
        "    map_region: west\n"
        '    rule: "10.3"\n'
        "    decks:\n"
        "      - block: single\n"
        "        commodities:\n"
        "          - {commodity: ochre, count: 5}\n"
        "          - {commodity: iron, share: half}\n"
        "        calamity_severities: [major]\n"
        "        calamity_sets: 1\n"
    )
    workspace = CachedWorkspace({"cards/advanced-civilization-commodities.yaml": commodities + decks})
    analysis = _analyse(workspace, BASE)
    text = render_sheets(analysis.model, "0" * 64)["commodities.html"].decode()
    assert "Trade decks by number of players" in text
    assert re.search(
        r"<th [^>]*>3–5</th><td [^>]*>west</td>\s*<td>single</td>\s*<td>Ochre 5, Iron half of the cards</td>", text
    )


def test_map_index_lists_every_area_with_its_borders(base: Built) -> None:
    tree = _parse(base.files["map.html"].decode())
    rows = tree.findall(".//table[@class='areas']/tbody/tr")
    assert len(rows) == len(base.model.areas)
    alexandria = next(row for row in rows if _cell_text(row.find("th")) == "Alexandria")
    cells = [_cell_text(cell) for cell in alexandria.findall("td")]
    assert cells[:5] == ["land", "4", "white", "Nile flood plain (Egypt)", "yes"]
    assert "Memphis" in cells[5]


def test_map_picture_is_deterministic_and_complete(base: Built) -> None:
    first = map_svg(base.model, 186.0, 247.0)  # the content box of an A4 portrait page, less the caption
    assert first == map_svg(base.model, 186.0, 247.0)
    assert str(first) in base.files["map.html"].decode()
    assert first.count("<circle") + first.count("<rect") >= len(base.model.areas)
    for label in ("land border", "sea border", "land and sea border", "flood plain", "start area", "volcano"):
        assert f">{label}" in first
    assert "xmlns" not in first
    assert 'xmlns="http://www.w3.org/2000/svg"' in map_svg(base.model, 186.0, 250.0, standalone=True)


def test_variant_changes_sheet(variant: tuple[Built, str]) -> None:
    built, changes = variant
    text = built.files[CHANGES.file].decode()
    assert "a variant of advanced-civilization" in text
    assert '<div class="added indent-2">+ aquitania  Aquitania</div>' in text
    assert ".diff .indent-2 { padding-left: 2.6mm; }" in text  # the sheet's style, not an attribute
    assert changes.count("\n") >= text.count('<div class="') - 1


# --- WeasyPrint --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    reader: pypdf.PdfReader
    texts: list[str]


@pytest.fixture(scope="module")
def weasy_pdf(base: Built) -> Printed:
    reader = pypdf.PdfReader(io.BytesIO(render_pdf(base.model, base.fingerprint)))
    return Printed(reader, [page.extract_text() for page in reader.pages])


# Typesetting every sheet takes WeasyPrint most of a minute: `make test-slow`. The credit table's
# one-page test below keeps WeasyPrint in `make test`.
@pytest.mark.slow
def test_weasyprint_pdf_has_every_sheet_within_bounds(weasy_pdf: Printed, base: Built) -> None:
    pages = weasy_pdf.reader.pages
    assert 9 <= len(pages) <= 24
    first, second = pages[0].mediabox, pages[1].mediabox
    assert (round(float(first.width)), round(float(first.height))) == (595, 842)  # the quick reference
    assert (round(float(second.width)), round(float(second.height))) == (842, 595)  # the credit table
    assert all(float(page.mediabox.width) < float(page.mediabox.height) for page in pages[2:5])
    for number, text in enumerate(weasy_pdf.texts, start=1):
        assert f"fingerprint {base.fingerprint[:12]}" in text and "generated by civrules" in text, number
        # One header a page: the sheet's own on its first page, the running one on the others.
        assert text.count(f"fingerprint {base.fingerprint[:12]}") == 1, number


def test_each_pdf_page_has_one_header(base: Built) -> None:
    """The first page of a sheet printed its own header and the running one: the ruleset and the
    fingerprint twice. A sheet of two pages, typeset by WeasyPrint: each page says them once."""
    import weasyprint  # type: ignore[import-untyped]

    page = render_sheets(base.model, base.fingerprint)["cards.html"].decode()
    reader = pypdf.PdfReader(io.BytesIO(weasyprint.HTML(string=page).render().write_pdf()))
    assert len(reader.pages) >= 2
    for number, printed in enumerate(reader.pages, start=1):
        text = printed.extract_text()
        assert text.count(f"fingerprint {base.fingerprint[:12]}") == 1, number
        assert text.count(base.model.name) == 1, number


@pytest.mark.slow
def test_weasyprint_pdf_states_costs_and_credits(weasy_pdf: Printed) -> None:
    text = "\n".join(weasy_pdf.texts)
    assert re.search(r"\bDemocracy\n[^\n]*\n200\b", text), "Democracy's cost"
    assert re.search(r"\bDrama and Poetry\n.{0,300}?\b20 to Literacy\b", text, re.DOTALL), "Drama and Poetry → Literacy"
    assert "Medicine: −8 unit points (primary, 16 → 8)" in text


@pytest.mark.parametrize(
    ("paper", "size"),
    # A4 in `make test` (the shorter landscape page); Letter in `make test-slow`. Chromium prints it
    # on one page of either paper in `make test` (test_chromium_credit_table_fits_one_landscape_page).
    [pytest.param("a4", (842, 595), id="a4"), pytest.param("letter", (792, 612), id="letter", marks=pytest.mark.slow)],
)
def test_weasyprint_credit_table_is_one_page_on_either_paper(base: Built, paper: str, size: tuple[int, int]) -> None:
    import weasyprint

    page = render_sheets(base.model, base.fingerprint, paper)["credit-table.html"].decode()
    document = weasyprint.HTML(string=page).render()
    assert len(document.pages) == 1, paper
    reader = pypdf.PdfReader(io.BytesIO(document.write_pdf()))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size, paper


# --- 18-player rulesets: every sheet within the page ----------------------------------------

MEGA = "mega-civilization"
EXPANSION = "expansion-project"
_MANIFESTS = Workspace(RULES).manifests()
ALL_RULESETS = sorted(shipped.RULESETS)  # not a designer's own ruleset in rules/ (tests/shipped.py)


#: The rulesets of the Advanced Civilization family (the credit sheets'); the others are of other families.
#: A manifest knows its family (a variant's is its base's): no ruleset is loaded to collect the tests.
CARD_RULESETS = [r for r in ALL_RULESETS if _MANIFESTS[r].family.default]
#: The Sid Meier's Civilization family's base ruleset: `make test` holds every sheet of it within the page.
SMC = "sid-meiers-civilization"


@functools.cache
def _shipped_model(ruleset_id: str) -> tuple[Ruleset, RulesetDiff | None]:
    """A shipped ruleset's model, analysed once per test process from one reading of the shipped
    files (tests.rulefiles; models are frozen): the tests here only read it."""
    return _model(CachedWorkspace(), ruleset_id)


def _model(workspace: Workspace, ruleset_id: str) -> tuple[Ruleset, RulesetDiff | None]:
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None
    model = of_family(analysis.model) if loaded.family.default else analysis.model
    return model, variant_changes(workspace, loaded, analysis.resolved)  # type: ignore[return-value]


@functools.cache
def _sheets_of(ruleset_id: str, paper: str, only: tuple[str, ...] | None = None) -> Mapping[str, bytes]:
    """The sheets of a ruleset, rendered once per test process (one render shared by the tests)."""
    model, changes = _shipped_model(ruleset_id)
    return render_sheets(model, "0" * 64, paper, changes, only=only)


def test_an_overflowing_box_is_found() -> None:
    wide = "<html><style>@page { size: A4; margin: 10mm }</style><body><div style='width: 400mm'>x</div></body></html>"
    assert any("BlockBox" in found for found in outside_the_page(wide))
    assert outside_the_page(wide.replace("400mm", "100mm")) == []
    # On the paper, but into the right margin (A4 is 210 mm wide, 190 mm between the margins).
    assert any("BlockBox" in found for found in outside_the_page(wide.replace("400mm", "195mm")))
    assert outside_the_page(wide.replace("400mm", "185mm")) == []  # with the body's 8 px margin


@pytest.mark.parametrize(
    ("ruleset_id", "paper", "sheets"),
    [
        # One sheet of each family here, its densest: Advanced Civilization's is Mega Civilization's
        # credit chart on A4 (18 players; the base ruleset's credit table is held to one page above,
        # on A4 here and on Letter too in `make test-slow`); Sid Meier's is its buildings, which
        # runs to a second page on Letter; Imperial Settlers' is in its own test_sheets.py. Every
        # sheet of every ruleset on both papers is `make test-slow`'s (below): Mega Civilization's
        # quick reference and calamities (1.4 s of WeasyPrint's CPU), Sid Meier's technology
        # pyramid and units, the base ruleset's map, the community edition's sheets.
        (MEGA, "a4", ("credit-table.html",)),
        (SMC, "letter", ("buildings.html",)),
    ],
)
def test_sheets_lie_within_the_page(ruleset_id: str, paper: str, sheets: tuple[str, ...] | None) -> None:
    for name, content in _sheets_of(ruleset_id, paper, sheets).items():
        assert outside_the_page(content.decode()) == [], (ruleset_id, paper, name)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset_id", ALL_RULESETS)
def test_every_sheet_of_every_ruleset_lies_within_the_page(ruleset_id: str, paper: str) -> None:
    for name, content in _sheets_of(ruleset_id, paper).items():
        assert outside_the_page(content.decode()) == [], (ruleset_id, paper, name)


@pytest.mark.parametrize("ruleset_id", CARD_RULESETS)
def test_every_card_name_is_on_the_credit_sheet(ruleset_id: str) -> None:
    model, _ = _shipped_model(ruleset_id)
    page = _sheets_of(ruleset_id, "a4", ("credit-table.html",))["credit-table.html"].decode()
    rows = _parse(page).findall(".//tbody/tr")
    shown = {_cell_text(row.find("th")).removesuffix(" Δ").removesuffix(" +") for row in rows}
    names = {label_of(card) for card in model.cards}  # an unnamed card by its rule, never its id
    assert {name for name in names if not any(row.endswith(name) for row in shown)} == set()
    assert len(rows) == len(names)
    assert "unknownunknown" not in page


def test_a_large_deck_gets_the_credit_chart_and_a_small_one_the_table() -> None:
    small = _sheets_of(BASE, "a4", ("credit-table.html",))["credit-table.html"].decode()
    large = _sheets_of(EXPANSION, "a4", ("credit-table.html",))["credit-table.html"].decode()
    assert 'class="credits"' in small and 'class="chart"' not in small
    assert 'class="chart"' in large and 'class="credits"' not in large
    tree = _parse(large)
    anatomy = next(r for r in tree.findall(".//tbody/tr") if _cell_text(r.find("th")).endswith("Anatomy"))
    cells = [_cell_text(cell) for cell in anatomy.findall("td")]
    # Expansion Project 30.4.1: 10 to science, 5 to craft (columns: art, civic, craft, religion, science).
    assert cells[:5] == ["", "", "5", "", "10"]
    # Every card's cost is unknown in the transcription: one line says so, no column of "unknown".
    assert "Unknown for every card, so not in the chart: cost —" in html.unescape(large)


@functools.cache
def _large_deck_chart() -> tuple[int, str]:
    """The credit sheet (Letter) of Advanced Civilization with 130 cards more: the number of cards, the page."""
    cards = (RULES / "cards" / "advanced-civilization.yaml").read_text()
    extra = "".join(
        f"  - id: extra_{i}\n    name: Extra {i}\n    groups: [arts]\n    cost: {100 + i}\n    prerequisites: []\n"
        f"    credits: [{{group: crafts, points: 5, rule: '31'}}, {{card: extra_{i + 1}, points: 10, rule: '31'}}]\n"
        f"    attributes: []\n    rule: '31'\n"
        for i in range(130)
    )
    text = cards.replace("\ncards:\n", "\ncards:\n" + extra, 1).replace("extra_130", "pottery")
    assert text.count("id: extra_") == 130
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": text})
    analysis = _analyse(workspace, BASE)
    page = render_sheets(analysis.model, "0" * 64, "letter", only=("credit-table.html",))["credit-table.html"]
    return len(analysis.model.cards), page.decode()


def test_a_deck_of_any_size_gets_a_chart_that_lists_every_card() -> None:
    count, page = _large_deck_chart()
    assert count > 150
    rows = _parse(page).findall(".//table[@class='chart']/tbody/tr")
    assert len(rows) == count
    extra_0 = next(row for row in rows if _cell_text(row.find("th")).endswith("Extra 0"))
    assert _cell_text(extra_0.findall("td")[-1]) == "Extra 1 10"


@pytest.mark.slow
def test_the_chart_of_a_large_deck_lies_within_the_page() -> None:
    assert outside_the_page(_large_deck_chart()[1]) == []


def test_groups_without_symbols_get_distinct_shapes_and_letters() -> None:
    page = _sheets_of(MEGA, "a4", ("credit-table.html",))["credit-table.html"].decode()
    legend = re.search(r'<span class="group-legend">(.*?)</span>\n', page, re.DOTALL)
    assert legend is not None
    keys = re.findall(r'<span class="group-key">(.*?)</span>', legend.group(1), re.DOTALL)
    shapes = [re.search(r"<title>[^<]*</title><(\w+)( points=\"[^\"]*\")?", key).group(0) for key in keys]  # type: ignore[union-attr]
    letters = [re.search(r'font-weight="bold"[^>]*>([^<]+)</text>', key).group(1) for key in keys]  # type: ignore[union-attr]
    assert len(keys) == 5
    assert len({re.sub(r"<title>[^<]*</title>", "", shape) for shape in shapes}) == 5
    assert letters == ["Cr", "S", "A", "Ci", "R"]
    # The legend says what the drawing shows: the data gives the groups' colours, so the shapes are filled.
    said = "are not in the sources: the shapes with letters, in the groups' colours, are drawn here"
    assert said in html.unescape(page)
    assert "hollow" not in page
    assert ">?</text>" not in page


@heavy
def test_quick_reference_gives_the_turn_on_one_page() -> None:
    import weasyprint

    page = _sheets_of(BASE, "a4", ("quick-reference.html",))["quick-reference.html"].decode()
    text = _cell_text(_parse(page).find(".//main"))
    assert "8 commodity cards" in text and "(31.71, 31.72)" in text
    assert "2 tokens per city" in text and "Coinage: 1/2/3 per city" in text
    assert "By ascending number of cities: the player holding fewest cities draws first (27.1)." in text
    assert "3 cards at least per trade" in text
    assert text.index("Volcanic Eruption/Earthquake") < text.index("Piracy")
    assert "13 Movement of A.S.T. Markers" in text
    assert len(weasyprint.HTML(string=page).render().pages) == 1


def test_quick_reference_shows_unknown_facts_with_their_reason() -> None:
    page = html.unescape(_sheets_of(MEGA, "a4", ("quick-reference.html",))["quick-reference.html"].decode())
    text = _cell_text(_parse(page).find(".//main"))
    # the phases come from the rulebook transcription (issue 31); phases 10 and 12 go by A.S.T. position
    # (§10, §12), which is not A.S.T. order (the ranking)
    assert "A.S.T. Alteration" in page and "which no order of play in the data's words can express" not in page
    assert text.count("order: A.S.T. position order") == 2 and "order: A.S.T. order" in text
    # The hand limit depends on the player count (§12): each band, and no "unknown".
    assert "8 commodity cards with 5–11 players; 9 with 12–18" in text
    assert "unknown hand limit" not in page
    # The order of the calamities is worked out by civrules from other games' rules: the sheet says so.
    assert "Derived order.</span> Worked out by civrules, not listed in the rule files" in page
    assert "the rule of Advanced Civilization 29.6 and of the Expansion Project 24.7.1–24.7.2" in page


def test_facts_missing_for_one_reason_are_one_note_on_the_quick_reference() -> None:
    """Two facts missing for one reason are one note, not two saying the same: a ruleset that gives
    neither a hand limit nor taxation (no shipped one does any more)."""
    manifest = (RULES / "rulesets" / "advanced-civilization.yaml").read_text()
    start, end = manifest.index("\nhand_limit:\n"), manifest.index("\noptions:\n")
    assert "\ntaxation:\n" in manifest[start:end]
    workspace = CachedWorkspace({"rulesets/advanced-civilization.yaml": manifest[:start] + manifest[end:]})
    model, _ = _model(workspace, BASE)
    assert model.hand_limit is None and model.taxation is None
    page = html.unescape(
        render_sheets(model, "0" * 64, only=("quick-reference.html",))["quick-reference.html"].decode()
    )
    assert "unknown hand limit and taxation: not in any rule file of this ruleset" in page
    assert page.count("not in any rule file of this ruleset") == 1


def test_variant_sheets_mark_what_the_variant_changes(base: Built) -> None:
    changes = RulesetDiff(
        BASE,
        "a-variant",
        [FieldChange("hand_limit.commodity_cards", 8, 9)],
        [CollectionDiff("calamities", changed=[EntityChange("flood", "Flood", [FieldChange("stack", 5, 6)])])],
    )
    page = render_sheets(base.model, base.fingerprint, changes=changes, only=("quick-reference.html",))
    text = _cell_text(_parse(page["quick-reference.html"].decode()).find(".//main"))
    assert "Hand limit Δ" in text and "Flood (5) Δ" in text and "Famine (3) Δ" not in text
    plain = _cell_text(_parse(base.files["quick-reference.html"].decode()).find(".//main"))
    assert "Δ" not in plain
    changes.collections.append(CollectionDiff("civilization_cards", added=[EntityChange("pottery", "Pottery", [])]))
    page = render_sheets(base.model, base.fingerprint, changes=changes, only=("cards.html", "calamities.html"))
    assert re.search(
        r"Pottery <span class=\"changed-mark\" title=\"added by this variant\">\+</span>", page["cards.html"].decode()
    )
    assert (
        '<h2>Flood <span class="changed-mark" title="changed by this variant">Δ</span></h2>'
        in page["calamities.html"].decode()
    )


def test_a_real_variant_marks_its_new_areas(variant: tuple[Built, str]) -> None:
    text = variant[0].files["map.html"].decode()
    assert re.search(r"Aquitania <span class=\"changed-mark\" title=\"added by this variant\">\+</span>", text)


# --- Chromium ----------------------------------------------------------------------------------

#: The credit table's layout on screen: does anything stick out sideways, is the page one screen high?
_METRICS = """(function () {
  var page = document.querySelector(".page");
  var table = document.querySelector("table.credits");
  var style = getComputedStyle(page);
  var box = page.getBoundingClientRect();
  return {
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    tableRight: table.getBoundingClientRect().right,
    tableScroll: table.scrollWidth,
    tableClient: table.clientWidth,
    contentRight: box.right - parseFloat(style.paddingRight),
    pageHeight: box.height
  };
})()"""


def test_a_browser_that_never_answers_fails_the_wait_and_is_killed(tmp_path: Path) -> None:
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nread -r line <&3\n")  # reads the commands (no newline comes), answers none
    silent.chmod(0o755)
    browser = Browser(str(silent), tmp_path / "profile", tmp_path / "log", timeout=0.5)
    with pytest.raises(BrowserError, match=r"did not send the reply to Browser.getVersion within 0.5 s"), browser:
        browser.send("Browser.getVersion")
    with pytest.raises(ProcessLookupError):
        os.killpg(browser.pid, 0)  # nothing of it is left


def test_a_browser_that_dies_is_reported_with_its_status(tmp_path: Path) -> None:
    browser = Browser(shutil.which("false") or "/bin/false", tmp_path / "profile", tmp_path / "log")
    with (
        pytest.raises(
            BrowserError,
            match=r"closed its pipe before it (read|sent the reply to) Browser.getVersion"
            r" \(chromium exited with status 1\)",
        ),
        browser,
    ):
        browser.send("Browser.getVersion")


#: The boxes of the map picture's labels (the names and nations, not their white halos), as drawn.
_LABEL_BOXES = """(() => Array.from(document.querySelectorAll('svg.map-graph g.labels text'))
  .filter(t => t.getAttribute('fill') !== '#ffffff')
  .map(t => { const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; }))()"""


@pytest.mark.parametrize("ruleset_id", [BASE, VARIANT])
def test_no_map_label_covers_another_in_the_browser(browser: Browser, tmp_path: Path, ruleset_id: str) -> None:
    """A map label covered another (Knossos over Crete): measured by the boxes Chromium draws them in."""
    page = tmp_path / "map.html"
    page.write_bytes((REPO / "generated" / "sheets" / ruleset_id / "map.html").read_bytes())
    with browser.open(page.as_uri(), _size(True)) as tab:
        boxes = tab.evaluate(_LABEL_BOXES)
    assert len(boxes) > 100
    covered = [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]
    ]
    assert covered == []


#: Each line of the changes' sheet with its indent class, and where Chromium draws its text from.
_INDENTS = """(() => Array.from(document.querySelectorAll('.diff div[class*="indent-"]'))
  .map(d => [d.className, parseFloat(getComputedStyle(d).paddingLeft)]))()"""
_SHADES = """(() => Array.from(document.querySelectorAll('.shades .shade'))
  .map(s => getComputedStyle(s).backgroundColor))()"""


@pytest.mark.slow
def test_the_sheets_style_applies_under_their_policy_in_the_browser(browser: Browser, tmp_path: Path) -> None:
    """The sheets' `style` attributes became classes so that their policy allows their `<style>`
    by its hash alone, not `'unsafe-inline'`: Chromium applies the style (a wrong hash would drop
    it whole) and draws each indent and each shade as the attributes did."""
    changes, table = tmp_path / "variant-changes.html", tmp_path / "credit-table.html"
    changes.write_bytes((REPO / "generated" / "sheets" / VARIANT / "variant-changes.html").read_bytes())
    table.write_bytes((REPO / "generated" / "sheets" / BASE / "credit-table.html").read_bytes())
    with browser.open(changes.as_uri(), _size(False)) as tab:
        indents = tab.evaluate(_INDENTS)
    assert len(indents) > 100 and {name.split()[-1] for name, _ in indents} >= {"indent-0", "indent-6"}
    for name, drawn in indents:  # the attribute said `padding-left: {indent * 1.3:.1f}mm`
        millimetres = float(f"{int(name.split('indent-')[1]) * 1.3:.1f}")
        assert drawn == pytest.approx(millimetres * PX, abs=0.01), name
    with browser.open(table.as_uri(), _size(True)) as tab:
        shades = tab.evaluate(_SHADES)
    assert shades == ["rgb(244, 241, 236)", "rgb(179, 164, 140)", "rgb(90, 74, 60)"]  # f4f1ec, b3a48c, 5a4a3c


@dataclass(frozen=True)
class Browsed:
    png: dict[str, Path]
    pdf: dict[str, Path]
    metrics: dict[str, dict[str, float]]
    screenshot: Path
    eighteen: Path


def _size(landscape: bool, paper: str = "a4") -> tuple[int, int]:
    short, long = (210.0, 297.0) if paper == "a4" else (215.9, 279.4)
    width, height = (long, short) if landscape else (short, long)
    return round(width * PX), round(height * PX)


#: The sheets `make test` renders and prints in Chromium: one landscape (the credit table, the
#: densest) and one portrait (the quick reference). `make test-slow` renders every sheet.
BROWSED_FAST = ("credit-table.html", "quick-reference.html")


def _render_each(browser: Browser, root: Path, sheets: Iterable[Any]) -> tuple[dict[str, Path], dict[str, Path]]:
    """A PNG (at the sheet's page size) and a PDF of each of ``sheets`` (written under ``root/a4``)."""
    png, pdf = {}, {}
    for sheet in sheets:
        png[sheet.file] = root / f"{sheet.file}.png"
        pdf[sheet.file] = root / f"{sheet.file}.pdf"
        with browser.open((root / "a4" / sheet.file).as_uri(), _size(sheet.landscape)) as page:
            png[sheet.file].write_bytes(page.screenshot())
            page.emulate(None)  # the browser's own window, as `--print-to-pdf` printed in
            pdf[sheet.file].write_bytes(page.pdf())
    return png, pdf


def _write_pages(root: Path, pages: Mapping[str, Mapping[str, bytes]]) -> None:
    for paper, files in pages.items():
        (root / paper).mkdir()
        for name, content in files.items():
            (root / paper / name).write_bytes(content)


@pytest.fixture(scope="module")
def browsed(browser: Browser, base: Built, tmp_path_factory: pytest.TempPathFactory) -> Browsed:
    """The credit table and the quick reference through the one Chromium (tests/conftest.py), a
    tab each: PNG, PDF, layout metrics on both papers, the README's screenshots."""
    root = tmp_path_factory.mktemp("chromium")
    pages = {"a4": dict(base.files), "letter": render_sheets(base.model, base.fingerprint, "letter")}
    # One sheet of an 18-player ruleset: Mega Civilization's credit chart.
    pages["mega"] = dict(_sheets_of(MEGA, "a4", ("credit-table.html",)))
    _write_pages(root, pages)
    metrics: dict[str, dict[str, float]] = {}
    screenshot = root / "credit-table-docs.png"
    eighteen = root / "mega-credit-chart.png"
    png, pdf = _render_each(browser, root, [s for s in SHEETS if s.file in BROWSED_FAST])
    pdf["letter"] = root / "letter-credit-table.pdf"
    with browser.open((root / "letter" / "credit-table.html").as_uri()) as page:
        pdf["letter"].write_bytes(page.pdf())
    for paper in ("a4", "letter"):
        with browser.open((root / paper / "credit-table.html").as_uri(), _size(True, paper)) as page:
            metrics[paper] = page.evaluate(_METRICS)
    with browser.open((root / "a4" / "credit-table.html").as_uri(), _size(True), scale=1.5) as page:
        screenshot.write_bytes(page.screenshot())
    with browser.open((root / "mega" / "credit-table.html").as_uri(), _size(True)) as page:
        eighteen.write_bytes(page.screenshot())
    return Browsed(png, pdf, metrics, screenshot, eighteen)


@pytest.fixture(scope="module")
def browsed_every_sheet(browser: Browser, base: Built, tmp_path_factory: pytest.TempPathFactory) -> Browsed:
    """Every sheet through the one Chromium: PNG and PDF (`make test-slow`)."""
    root = tmp_path_factory.mktemp("chromium-every-sheet")
    _write_pages(root, {"a4": dict(base.files)})
    png, pdf = _render_each(browser, root, [s for s in SHEETS if s.file in base.files])
    return Browsed(png, pdf, {}, root / "unused.png", root / "unused.png")


def _assert_rendered(browsed: Browsed, sheets: Iterable[Any]) -> None:
    for sheet in sheets:
        with Image.open(browsed.png[sheet.file]) as image:
            assert image.size == _size(sheet.landscape), sheet.file
            grey = image.convert("L")
            dark = sum(grey.histogram()[:128])
        assert dark > 2000, f"{sheet.file} looks blank"


def _assert_printed_with_furniture(browsed: Browsed, base: Built, sheets: Iterable[Any]) -> None:
    for sheet in sheets:
        reader = pypdf.PdfReader(browsed.pdf[sheet.file])
        assert 1 <= len(reader.pages) <= 8, sheet.file
        for number, page in enumerate(reader.pages, start=1):
            box = page.mediabox
            assert (float(box.width) > float(box.height)) == sheet.landscape, (sheet.file, number)
            text = page.extract_text()
            assert base.fingerprint[:12] in text and "generated by civrules" in text, (sheet.file, number)


def test_chromium_renders_a_landscape_and_a_portrait_sheet(browsed: Browsed, base: Built) -> None:
    chosen = [s for s in SHEETS if s.file in BROWSED_FAST]
    assert {s.landscape for s in chosen} == {True, False}
    _assert_rendered(browsed, chosen)
    _assert_printed_with_furniture(browsed, base, chosen)


@pytest.mark.slow
def test_chromium_renders_every_sheet_to_png(browsed_every_sheet: Browsed) -> None:
    _assert_rendered(browsed_every_sheet, [s for s in SHEETS if s.file in browsed_every_sheet.png])


@pytest.mark.slow
def test_chromium_prints_every_sheet_with_page_furniture(browsed_every_sheet: Browsed, base: Built) -> None:
    _assert_printed_with_furniture(browsed_every_sheet, base, [s for s in SHEETS if s.file in base.files])


def test_chromium_credit_table_fits_one_landscape_page(browsed: Browsed) -> None:
    for name, size in (("credit-table.html", (842, 595)), ("letter", (792, 612))):
        reader = pypdf.PdfReader(browsed.pdf[name])
        assert len(reader.pages) == 1, name
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size, name


def test_chromium_credit_table_has_no_horizontal_overflow(browsed: Browsed) -> None:
    for paper in ("a4", "letter"):
        found = browsed.metrics[paper]
        assert found["scrollWidth"] == found["clientWidth"], (paper, found)
        assert found["tableScroll"] <= found["tableClient"], (paper, found)
        assert found["tableRight"] <= found["contentRight"] + 0.5, (paper, found)
        assert found["pageHeight"] <= _size(True, paper)[1] + 1, (paper, found)


def test_credit_table_screenshot_for_the_readme(browsed: Browsed) -> None:
    with Image.open(browsed.screenshot) as image:
        width, height = _size(True)
        assert abs(image.size[0] - width * 1.5) <= 1 and abs(image.size[1] - height * 1.5) <= 1
    if os.environ.get("CIVRULES_UPDATE_SCREENSHOT") == "1" or not SCREENSHOT.exists():
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(browsed.screenshot, SCREENSHOT)
    assert SCREENSHOT.exists()


def test_chromium_renders_an_eighteen_player_credit_chart(browsed: Browsed) -> None:
    with Image.open(browsed.eighteen) as image:
        assert image.size == _size(True)
        grey = image.convert("L")
        dark = sum(grey.histogram()[:128])
        # The chart reaches the right edge of the content box (the "to single cards" column) but not beyond.
        right = grey.crop((image.size[0] - round(8 * PX) + 2, 0, image.size[0], image.size[1]))
        assert sum(right.histogram()[:128]) == 0, "content in the right margin"
    assert dark > 5000, "the 18-player credit chart looks blank"
    if os.environ.get("CIVRULES_UPDATE_SCREENSHOT") == "1" or not CHART_SCREENSHOT.exists():
        shutil.copyfile(browsed.eighteen, CHART_SCREENSHOT)
    assert CHART_SCREENSHOT.exists()


@pytest.mark.slow
def test_a_map_too_large_for_numpy_alone_gets_the_index_without_a_picture(tmp_path: Path) -> None:
    """From 500 nodes networkx lays a graph out with scipy, which civrules does not depend on: a
    map of 524 areas (four synthetic boards) ended the build in an internal error."""
    from bench.synth import generate
    from civrules.emit.sheets.common import PAPERS, page_for
    from civrules.families.advanced_civilization.sheets.map_sheet import MAX_PICTURE_AREAS, map_sheet

    rules = generate(tmp_path / "synthetic", 4)
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["synthetic"]))
    assert analysis.model is not None
    ruleset = of_family(analysis.model)
    assert MAX_PICTURE_AREAS < len(ruleset.areas) <= 600
    context = map_sheet(ruleset, page_for(PAPERS["a4"], landscape=True))
    assert context["picture"] is None and context["counts"]["areas"] == len(ruleset.areas)


# --- what the data says, once (issue: designers, round three) -----------------------------------


def test_the_variant_map_marks_a_base_area_that_gained_a_border() -> None:
    page = (REPO / "generated" / "sheets" / VARIANT / "map.html").read_text(encoding="utf-8")
    row = re.search(r'<th scope="row">Germania(.*?)</tr>', page, re.DOTALL)
    assert row is not None
    assert 'title="gained a border by this variant">Δ</span>' in row.group(1)
    added = '<span class="changed-mark" title="border added by this variant">+</span>'
    assert f"Lower Germany{added}" in row.group(1) and f"Rhenus{added}" in row.group(1)
    assert f"Dacia{added}" not in row.group(1)
    untouched = re.search(r'<th scope="row">Thebes(.*?)</tr>', page, re.DOTALL)
    assert untouched is not None and "changed-mark" not in untouched.group(1)
    # The picture rings them too (dashed: changed), with a legend that says so.
    marked = len(re.findall(r'<th scope="row">[^<]*<span class="changed-mark"', page))
    rings = re.findall(r'<circle [^>]*r="13" fill="none" stroke="#b0421f"[^>]*>', page)
    assert len(rings) == marked > 27
    assert "changed by this variant (or a border added)" in page


def test_the_mega_ast_sheet_groups_the_tracks_by_level_and_gives_each_levels_requirements() -> None:
    page = html.unescape((REPO / "generated" / "sheets" / MEGA / "ast.html").read_text(encoding="utf-8"))
    text = _cell_text(_parse(page).find(".//main"))
    # The 18 civilizations twice: under which level, and which of them differ.
    assert "Basic A.S.T.: 18 tracks" in text and "Expert A.S.T.: 18 tracks" in text
    assert "the epochs' first spaces differ between the levels for Minoa" in text
    # The requirements themselves, level by level, never "see requirements_by_level".
    assert "Basic: 3 cities in play; 3 cards worth 100 or more" in text
    assert "Expert: 4 cities in play; 12 civilization cards" in text
    assert "requirements_by_level" not in text
    # The epochs the data gives are drawn; each level's tracks carry their length (the last step 15
    # at Basic, 16 at Expert: bubba0077's lastAstStep), so the columns run from the arrow (0) to 16.
    assert "unknown — the epochs of this track are not usable" not in text
    assert "Where the tracks end is not known" not in text
    tree = _parse(page)
    rows = [row for row in tree.findall(".//table[@class='ast']/tbody/tr") if row.find("td") is not None]
    # No space of a Mega Civilization track carries a card value of its own (`late_iron_age_spaces:
    # []`, a fact): no cell says unknown, where each finish once said its card value was.
    assert len(rows) == 36 and all("unknown" not in _cell_text(row) for row in rows)


@pytest.mark.slow  # two tabs
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_chromium_prints_each_levels_tracks_of_the_mega_ast_on_one_page(
    browser: Browser, tmp_path: Path, paper: str
) -> None:
    """Mega Civilization's A.S.T. has 18 tracks at each level (Basic, Expert). Printed, each level
    ran past its page by two rows: Egypt and Parthia, the last two of the Basic level, headed page
    2 and those of the Expert level page 3, their level's heading a page before (players' trial,
    round 33). Each level's tracks print on one page, under their level's heading."""
    page = tmp_path / "ast.html"
    page.write_bytes(_sheets_of(MEGA, paper, ("ast.html",))["ast.html"])
    with browser.open(page.as_uri()) as tab:
        texts = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(tab.pdf())).pages]
    nations = re.findall(r'<th scope="row">([^<]+)</th>', page.read_text(encoding="utf-8"))[:18]
    assert len(nations) == 18 and nations[0] == "Minoa" and nations[-1] == "Parthia"
    for level in ("Basic", "Expert"):
        heading = f"{level} A.S.T.: 18 tracks"
        (number,) = [n for n, text in enumerate(texts, start=1) if heading in text]
        under = texts[number - 1].split(heading, 1)[1]
        missing = [nation for nation in nations if not re.search(rf"(?m)^{nation}\b", under)]
        assert missing == [], f"{paper}: page {number} has {heading!r} without {missing}"


#: Each citation printed past the right edge of its table cell: its text and by how many px.
_CITATIONS_PAST_THEIR_CELL = r"""Array.from(document.querySelectorAll('td .rule')).map(function (span) {
  const cell = span.closest('td').getBoundingClientRect();
  let right = 0;
  for (const box of span.getClientRects()) right = Math.max(right, box.right);
  return [span.textContent.slice(0, 50), Math.round(right - cell.right)];
}).filter(function (found) { return found[1] > 0; })"""


@pytest.mark.slow  # two tabs
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_citation_breaks_inside_its_cell(browser: Browser, tmp_path: Path, paper: str) -> None:
    """Mega Civilization's cards cite ``bubba0077/MegaCiv@<commit>:src/net/.../Technology.java``, a
    path with no space or hyphen to break at: it ran on one line past its cell and the table's
    edge, "Technology.java;" cut at the border (players' trial, round 33). A citation breaks
    inside a word where it has no other place to, and stays in its cell. Laid out on screen,
    where a sheet's page is the paper with its margins as padding: the printed lines."""
    page = tmp_path / "cards.html"
    page.write_bytes(_sheets_of(MEGA, paper, ("cards.html",))["cards.html"])
    with browser.open(page.as_uri(), (1200, 900)) as tab:
        past = tab.evaluate(_CITATIONS_PAST_THEIR_CELL)
        cited = tab.evaluate("document.querySelectorAll('td .rule').length")
    assert cited >= 4 and past == [], past


def test_an_ast_with_no_track_is_one_line_saying_why() -> None:
    page = html.unescape((REPO / "generated" / "sheets" / EXPANSION / "ast.html").read_text(encoding="utf-8"))
    assert '<table class="ast">' not in page
    assert "No track can be drawn: The civilizations and the spaces at which each track's epochs begin" in page


#: The loop ast.html.j2 wrote the tracks' cells with before they were written in Python.
_AST_CELLS_LOOP = (
    "{% for cell in cells %}\n"
    '<td class="space s{{ cell.shade }}{% if cell.start %} start{% endif %}" title="{{ cell.epoch }}">'
    '{% if cell.start %}<span class="ep">{{ cell.short }}</span> {% endif %}'
    '{% if cell.value == "unknown" %}<span class="val unknown">unknown</span>'
    '{% elif cell.value %}<span class="val">{{ cell.value }}</span>{% endif %}</td>\n'
    "{% endfor %}\n"
)


def test_the_ast_cells_written_in_python_are_what_the_template_loop_wrote() -> None:
    """Every kind of cell (empty, an epoch's first space, a value, an unknown value) and text that
    must be escaped, against the loop rendered by the sheets' own environment (autoescaped)."""
    from civrules.emit.sheets.common import environment
    from civrules.families.advanced_civilization.sheets.ast_table import _cells

    cells = [
        {"space": 1, "epoch": "", "shade": -1, "start": False, "value": ""},
        {"space": 2, "epoch": 'Stone <Age> & "Co"', "short": "S&A", "shade": 0, "start": True, "value": ""},
        {"space": 3, "epoch": "Bronze 'Age'", "short": "B", "shade": 1, "start": False, "value": "unknown"},
        {"space": 4, "epoch": "Iron", "short": "I<", "shade": 4, "start": True, "value": "1,100"},
        {"space": 5, "epoch": "Iron", "short": "I", "shade": 4, "start": False, "value": "<b>"},
    ]
    loop = environment(None).from_string(_AST_CELLS_LOOP)
    for some in (cells, cells[:1], []):
        assert str(_cells(some)) == loop.render(cells=some)
    shipped = ast_sheet_of("mega-civilization")
    for track in shipped["tracks"]:
        assert str(track["cells_html"]) == loop.render(cells=track["cells"])


@pytest.mark.parametrize("ruleset_id", ["mega-civilization", "advanced-civilization"])
def test_each_ast_cell_is_the_first_span_holding_its_space(ruleset_id: str) -> None:
    """The cells' epochs, found once per track by space, are those a search of the track's spans
    for each column finds (the first span holding the space), and a value is asked where the
    epoch is gated or the space is the last."""
    from civrules.families.advanced_civilization.sheets.ast_table import open_spans
    from civrules.families.advanced_civilization.succession import epoch_spans

    ruleset = of_family(shipped_analysis(ruleset_id).model)
    sheet = ast_sheet_of(ruleset_id)
    assert sheet["tracks"] and len(sheet["tracks"]) == len(ruleset.ast_tracks)
    for track, row in zip(ruleset.ast_tracks, sheet["tracks"], strict=True):
        spans = epoch_spans(ruleset, track) or open_spans(ruleset, track)
        assert spans and not row["unknown"], track
        for cell in row["cells"]:
            span = next((s for s in spans if cell["space"] in s), None)  # type: ignore[union-attr]
            expected = ruleset.epochs.by_id[span.epoch].display_name if span is not None else ""
            assert cell["epoch"] == expected and cell["start"] == (span is not None and span.first == cell["space"])


def ast_sheet_of(ruleset_id: str) -> Mapping[str, Any]:
    from civrules.families.advanced_civilization.sheets.ast_table import ast_sheet

    return ast_sheet(of_family(shipped_analysis(ruleset_id).model))


def test_the_marks_made_once_per_sheet_are_what_the_symbols_macro_writes() -> None:
    """A card's marks come from the ``symbols`` macro itself, once per sheet for the same marks and
    size: the markup of a later card with the same groups is the first's, a size changes it."""
    from civrules.emit.sheets.common import environment
    from civrules.families.advanced_civilization.sheets.marks import SymbolsMarkup, symbols

    ruleset = of_family(shipped_analysis("mega-civilization").model)
    template = environment("civrules.families.advanced_civilization").from_string(
        '{% from "_macros.j2" import symbols %}{{ symbols(marks, size) }}'
    )
    marked = SymbolsMarkup()
    for card in ruleset.cards.by_id.values():
        marks = symbols(ruleset, card)
        for size in ("3.2mm", "2.8mm"):
            assert str(marked(marks, size)) == template.render(marks=marks, size=size)
    assert str(marked(marks)) == template.render(marks=marks, size="3.2mm")
    assert marked(marks, "2.8mm") != marked(marks, "3.2mm")


@pytest.mark.slow
def test_the_sheets_of_a_ruleset_without_a_map_do_not_import_the_graph_library() -> None:
    """networkx is imported where a map is laid out, not by every build (100 ms of CPU)."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from civrules.emit.sheets import each_sheet\n"
        "from civrules.load.workspace import Workspace\n"
        "from civrules.pipeline import analyse\n"
        f"workspace = Workspace(Path({str(RULES)!r}))\n"
        "analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()['mega-civilization']))\n"
        "assert not analysis.model.areas\n"
        "files = dict(each_sheet(analysis.model, '0' * 64))\n"
        "print('map.html' in files, 'networkx' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["True", "False"], done.stdout + done.stderr


def test_the_commodities_sheet_prints_the_trade_block_bonus_of_each_band() -> None:
    """The Expansion Project's set values at 12-18 players: a set redeemed outside its good's native
    block gains its face value per card (26.3.3; shared goods not from 16 players, 26.3.4), as the
    package and the helper page count it; the sheet printed the plain values alone (3 Oil: 36, where
    the rulebook's example gives 48) and a set's bound as if nothing could pass it (player audit,
    round 20, defect 2)."""
    page = html.unescape(_sheets_of(EXPANSION, "a4", ("commodities.html",))["commodities.html"].decode())
    text = " ".join(_cell_text(_parse(page).find(".//main")).split())
    gains = "a set redeemed in the trade block that is not its good's native one gains its face value per card"
    assert f"With 12–15 players, {gains}: n × value more (shared goods too, when redeemed in the block other " in text
    assert f"With 16–18 players, {gains}: n × value more (not shared goods), and may be worth more than the " in text
    assert "printed maximum (26.3.3)." in text and "printed maximum (26.3.3, 26.3.4)." in text
    assert "The table gives each set's value before the trade-block bonus below." in text
    plain = html.unescape(_sheets_of(BASE, "a4", ("commodities.html",))["commodities.html"].decode())
    assert "trade-block bonus" not in plain and "native" not in plain  # no trade blocks: nothing to say


def test_the_quick_reference_prints_the_trade_and_calamity_rules_the_package_applies() -> None:
    """trade_problems holds a trade to the cards named (28.3), calamities_suffered to two calamities
    a turn and unit_points to 5 a city and 1 a token; the sheet printed none of them (player audit,
    round 20, defect 2's class)."""
    page = html.unescape(_sheets_of(BASE, "a4", ("quick-reference.html",))["quick-reference.html"].decode())
    text = " ".join(_cell_text(_parse(page).find(".//main")).split())
    assert "3 cards at least per trade; each side states truthfully how many cards it gives and names 2 of them" in text
    assert "A player suffers at most 2 calamities as primary victim a turn: of more, 2 drawn at random (29" in text
    assert "In a loss of unit points a city counts 5 and a token 1 (29" in text


def _main_text(ruleset_id: str, file: str) -> str:
    page = html.unescape(_sheets_of(ruleset_id, "a4", (file,))[file].decode())
    return " ".join(_cell_text(_parse(page).find(".//main")).split())


def test_the_special_rules_sheet_prints_the_game_options() -> None:
    """Advanced Civilization's `options` (the online site's create-game form: what each does, its
    choices, default and the printed rules' value) were in the data and on no sheet (round 22)."""
    text = _main_text(BASE, "special-rules.html")
    options = list(_shipped(BASE).model.options)
    assert len(options) == 11
    for option in options:
        assert option.name in text and " ".join(option.description.split()) in text, option.id
        assert f"{option.help_page} {option.help_section}" in text, option.id
    # a row cites the help section and the printed rules it relates to, as the data does
    assert "Changes the number of trade cards a player may keep (8 under the standard rules)." in text
    assert "How to Create a Civilization Game 5.4; 31.71" in text
    # the choices of an enum, a label the site shows, a value the printed rules give
    assert "Advanced Civilization: The standard map." in text
    assert "Stoic" in text and "How to Create a Civilization Game 5.11; 29.5" in text
    # unknown facts print as every sheet prints them: a dash and a note giving the data's reason
    assert "The labels of the create-game form are not in the help text; only their descriptions are." in text
    assert "a number 8 How to Create a Civilization Game 5.4" in text  # the printed rules' 8
    # no option's default is known: said once, not a dash a row
    assert re.search(r"Unknown for every option, so not in the table: the default —\w\.", text)
    assert "default, 11 times; the first: The help text calls Advanced Civilization the standard map" in text
    assert "choices: The help text names only the choice 'No Time Limit'" in text
    for ruleset_id in (EXPANSION, MEGA):  # no options in their data: no section
        assert "online" not in _main_text(ruleset_id, "special-rules.html").lower()


def test_the_cards_sheet_prints_the_purchase_rules() -> None:
    """The credit policy's `purchases` (several cards a turn, the turn a card's credits start,
    treasury within the price, overpayment) held texts and unknowns that no sheet printed (round 22)."""
    text = _main_text(BASE, "cards.html")
    purchases = _shipped(BASE).model.credit_policy["purchases"]
    for key, rule in purchases.items():
        assert " ".join(rule["text"].split()) in text, key
    assert "they can be used from the next turn on. (31.53)" in text
    assert "no more of them than required. (31.2, 31.41)" in text
    expansion = _main_text(EXPANSION, "cards.html")
    assert "Same turn credits —" in expansion  # unknown: a dash, its reason in a note
    assert "26.5.2 and 26.5.4-26.5.6 are missing from the source" in expansion
    assert "gives no change: the excess is lost. (26.5.9)" in expansion
    mega = _main_text(MEGA, "cards.html")
    # a transcription's text cites the transcription, as the sheets' rows do
    assert "all of them in one purchase. (menuan/megacivrules-flutter)" in mega


def test_the_cards_sheet_prints_the_credit_policy_s_purchase_facts() -> None:
    """`credits_must_be_used`, `free_when_covered` and `extra_credits` were printed by no sheet
    (round 22); the excess lost is the purchase rules' overpayment, printed once."""
    text = _main_text(BASE, "cards.html")
    assert "A player must use every credit that applies to a card he buys and may not pay treasury instead. (" in text
    assert "A card whose credits cover its cost is acquired at no cost. (31.51" in text
    assert "extra credit" not in text  # no extra credits in the base game
    expansion = _main_text(EXPANSION, "cards.html")
    assert "An extra credit to one named card is a one-time bonus toward that card, added on top of " in expansion
    assert expansion.count("the excess is lost") == 1
    mega = _main_text(MEGA, "cards.html")
    assert re.search(r"Whether every credit that applies must be used —\w", mega)


def test_the_facts_the_data_words_and_no_sheet_printed_are_printed_with_their_citations() -> None:
    """Round 23's hunt, every `text` of every Advanced Civilization ruleset held against its sheets:
    a calamity card's modifier was printed only as its numbers (Pottery's Grain cards lying face up
    until the end of the turn were on no sheet), an effect's fallback and alternative (Treachery's
    city eliminated where the trader has none), a card's purchase effect (Anatomy's two more
    sciences) and a player count's trade decks were in the data alone."""
    calamities = _main_text(BASE, "calamities.html")
    assert (
        "Grain cards used this way are not discarded: they lie face up in front of him until the end of the turn"
        in (calamities)
    )
    assert "picks the units he removes. (30.311) Cards Pottery: −4 unit points per Grain card" in calamities
    assert "before the next turn. (30.312, 32.211)" in calamities
    assert (
        "If it cannot be done: The victim's city is eliminated instead when the trading player has no city "
        "available. (30.221)"
    ) in calamities
    assert "Instead: " in _main_text(EXPANSION, "calamities.html")  # City in Flames' alternative
    cards = _main_text(EXPANSION, "cards.html")
    assert "When bought: When he buys this card, the holder may immediately also take up to two more advancements" in (
        cards
    )
    assert "each with a face value under 100; he may take one or none" in cards
    decks = _main_text(EXPANSION, "special-rules.html")
    assert "Trade deck West: The western block's deck: the goods marked W, half of those marked S" in decks
    assert "a set of major and minor calamities. (9.6, 10.3.4)" in decks


def test_the_special_rules_sheet_prints_how_many_sets_of_pieces_the_game_has() -> None:
    """`components.nation_sets` was printed by no sheet (round 22): the pieces of one nation were."""
    text = _main_text(BASE, "special-rules.html")
    assert "The game has 9 sets of playing pieces, one per nation. Each nation plays with 55 population tokens" in text


# --- round 33: one long word in a column heading ---


def test_a_long_word_in_a_column_heading_is_broken_with_hyphens_over_the_lines_the_cell_holds() -> None:
    """A card name of one word longer than its column label's line (a designer's, or a compound
    of the kind Portuguese and German write) was cut on its first line with an ellipsis, though
    the cell had room for more lines: "Agriculturalirrigat…". It is broken where each line ends,
    a hyphen at each break, as CSS breaks a word no line holds; an ellipsis only where the lines
    the cell holds run out. Its full name stays the label's title and accessible name."""
    import doctest

    from civrules.families.advanced_civilization.sheets import credit_table

    assert doctest.testmod(credit_table).failed == 0
    word = "Agriculturalirrigationandfloodplain"
    relative = "cards/advanced-civilization.yaml"
    text = (RULES / relative).read_text(encoding="utf-8")
    assert "    name: Agriculture\n" in text
    workspace = CachedWorkspace({relative: text.replace("    name: Agriculture\n", f"    name: {word}\n", 1)})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.model is not None
    for paper in ("a4", "letter"):
        page = render_sheets(analysis.model, "0" * 64, paper, only={"credit-table.html"})["credit-table.html"]
        written = html.unescape(page.decode("utf-8"))
        label = re.search(rf'<svg class="col-label"[^>]*aria-label="{word}".*?</svg>', written, re.S)
        assert label is not None, paper
        lines = re.findall(r'font-weight="bold"[^>]*>([^<]*)</text>', label.group(0))
        assert len(lines) > 1 and all(line.endswith("-") for line in lines[:-1]), (paper, lines)
        assert "".join(line.removesuffix("-") for line in lines) == word, (paper, lines)
        assert f"<title>{word}" in label.group(0)


# --- round 34: the credit table's set width ---


@heavy
def test_the_credit_tables_columns_print_at_the_widths_they_were_sized_for() -> None:
    """The credit table said ``table-layout: fixed; width: auto``: a fixed layout needs a set
    width, so both engines laid it out automatically and spread the room over the columns their
    own way. WeasyPrint (``civrules sheets --pdf``) gave a long-named variant's name column
    41.85 mm, where its headings' lines were made for 40 mm. The table now has its columns' width:
    each column prints at the width it was sized for, and the table lies in the page's content box."""
    import weasyprint

    relative = "cards/advanced-civilization.yaml"
    text = (RULES / relative).read_text(encoding="utf-8")
    for short, long in {
        "Pottery": "Pottery of the Bronze Age Kingdoms of the Aegean Sea and of the Islands Beyond It",
        "Agriculture": "Agriculturalirrigationandfloodplaincultivationoftheriverineempires",
    }.items():
        assert f"    name: {short}\n" in text
        text = text.replace(f"    name: {short}\n", f'    name: "{long}"\n', 1)
    workspace = CachedWorkspace({relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.model is not None
    page = render_sheets(analysis.model, "0" * 64, "a4", only={"credit-table.html"})["credit-table.html"].decode()
    widths = re.findall(r"table\.credits col\.(\w+) \{ width: ([\d.]+)mm; \}", page)
    sized = {name: float(width) for name, width in widths}
    assert set(sized) == {"name", "cost", "card"}, sized
    document = weasyprint.HTML(string=page).render()
    assert len(document.pages) == 1
    page_box = document.pages[0]._page_box
    mm = 96 / 25.4
    (table,) = [
        box
        for box in page_box.descendants()
        if type(box).__name__ == "TableBox" and "credits" in (box.element.get("class") or "")
    ]
    columns = [column for group in table.column_groups for column in group.children]
    printed = [(column.element.get("class"), column.width / mm) for column in columns]
    assert len(printed) == 2 + page.count('<svg class="col-label"')
    assert [name for name, width in printed if abs(sized[name] - width) > 0.01] == [], (sized, printed[:3])
    right = page_box.content_box_x() + page_box.width
    assert table.position_x + table.margin_width() <= right + 0.5


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a `#rrggbb` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@heavy
def test_every_text_colour_of_the_sheets_reads_at_4_5_to_1_on_its_backgrounds() -> None:
    """WCAG 2's AA contrast for text (4.5:1), for players with low vision and for a sheet printed
    pale: every colour a sheet's style gives text, against white and against the tinted row of its
    tables. The cards sheet's "none" (a card without prerequisites) was #888888, 3.5:1 on white."""
    from civrules.emit.sheets import SHEETS

    low = set()
    for ruleset_id in shipped.RULESETS:
        rendered = render_sheets(_shipped(ruleset_id).model, "0" * 64, "a4", only={s.file for s in SHEETS})
        for name, content in rendered.items():
            if not name.endswith(".html"):
                continue
            style = "".join(re.findall(r"<style>(.*?)</style>", content.decode("utf-8"), re.S))
            backgrounds = {"#ffffff", *re.findall(r"tr:nth-child\(even\)[^{]*\{\s*background:\s*(#[0-9a-f]{6})", style)}
            for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", style):
                text = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})\b", body)
                ground = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{6})\b", body)
                if text is None:
                    continue
                for behind in {ground.group(1)} if ground else backgrounds:
                    if _contrast(text.group(1), behind) < 4.5:
                        low.add((ruleset_id, name, selector.strip(), text.group(1), behind))
    assert low == set(), sorted(low)
