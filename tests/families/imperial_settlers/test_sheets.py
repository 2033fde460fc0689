"""The player aids of Imperial Settlers: every sheet valid HTML within its page box on A4 and Letter
(WeasyPrint, and Chromium where one is installed), names in the edition's language, an unknown name
as the card's id with one note, no field names or placeholders, and a variant's changes marked."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.pipeline import analyse
from tests import lazy
from tests.browser import Browser
from tests.layout import outside_the_page
from tests.rulefiles import CachedWorkspace
from tests.sheet_text import unmarked

if TYPE_CHECKING:
    import html5lib  # type: ignore[import-untyped]
    import pypdf
else:  # imported by the tests that use them, on the worker that runs this module (tests/lazy.py)
    html5lib = lazy.module("html5lib")
    pypdf = lazy.module("pypdf")

BASE = "imperial-settlers"
PEACEFUL = "imperial-settlers-peaceful"
OWN = (
    "common-cards.html",
    "deck-building.html",
    "faction-boards.html",
    "faction-cards.html",
    "round-and-actions.html",
    "solo-game.html",
)
#: CSS pixels per millimetre (96 dpi).
PX = 96 / 25.4


@functools.cache
def _model(ruleset_id: str) -> tuple[ImperialSettlersRuleset, Any]:
    workspace = CachedWorkspace()  # one reading of the shipped files per process (tests.rulefiles)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    analysis = analyse(workspace, loaded)
    assert analysis.ok and isinstance(analysis.model, ImperialSettlersRuleset) and analysis.resolved is not None
    return analysis.model, variant_changes(workspace, loaded, analysis.resolved)


@functools.cache
def sheets_of(ruleset_id: str, paper: str = "a4") -> Mapping[str, str]:
    model, changes = _model(ruleset_id)
    return {
        name: unmarked(content.decode("utf-8"))
        for name, content in render_sheets(model, "0" * 64, paper, changes).items()
    }


def _visible(page: str) -> str:
    """The text a reader sees: the document's body, tags and the style left out."""
    body = page[page.index("<body") :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_family_has_its_six_sheets_and_the_index() -> None:
    assert set(sheets_of(BASE)) == {*OWN, "index.html"}
    assert set(sheets_of(PEACEFUL)) == {*OWN, "index.html", "variant-changes.html"}


@pytest.mark.parametrize("ruleset_id", [BASE, PEACEFUL])
def test_every_sheet_parses_strictly(ruleset_id: str) -> None:
    for name, page in sheets_of(ruleset_id).items():
        html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page), name


#: The sheet `make test` lays out on Letter (the shorter page): the faction cards, the family's
#: densest (landscape, past one page). Every sheet on both papers is `make test-slow`'s (below, and
#: advanced_civilization/test_sheets.py's test_every_sheet_of_every_ruleset_lies_within_the_page),
#: among them the two other sheets that run past a page (common cards, the round and its actions).
DENSEST = ("faction-cards.html",)


def test_the_densest_sheets_lie_within_the_page() -> None:
    pages = sheets_of(BASE, "letter")
    for name in DENSEST:
        assert outside_the_page(pages[name]) == [], ("letter", name)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_lies_within_the_page(paper: str) -> None:
    for name, page in sheets_of(BASE, paper).items():
        assert outside_the_page(page) == [], (paper, name)


def test_no_field_name_or_placeholder_is_printed() -> None:
    """The family's sheets and the index; the core's variant sheet is `civrules diff` itself, which
    names each change by its path in the data on purpose."""
    for ruleset_id in (BASE, PEACEFUL):
        for name, page in sheets_of(ruleset_id).items():
            if name == "variant-changes.html":
                continue
            text = _visible(page)
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (name, re.findall(r"\b[a-z]+_[a-z_]+\b", text)[:5])
            for placeholder in ("None", "{{", "}}", "{%", "unknown", "undefined", "TODO"):
                assert placeholder not in text, (name, placeholder)


def test_names_are_the_editions_and_an_unknown_name_is_the_id_with_one_note() -> None:
    model, _ = _model(BASE)
    pages = sheets_of(BASE)
    cards = pages["faction-cards.html"] + pages["common-cards.html"]
    for card in model.cards:
        if isinstance(card.name, str):
            assert f">{card.name}<" in cards.replace("&#39;", "'"), card.id
        else:
            assert re.search(rf'class="name unnamed">{card.printed_ids[0]}¹<', cards), card.id
        assert card.source_name is None or card.source_name[0] not in cards, card.id  # never the Czech name
    for name in ("faction-cards.html", "common-cards.html"):
        assert pages[name].count("no source in the edition&#39;s language names this card") == 1, name


def test_the_decks_are_whole() -> None:
    pages = sheets_of(BASE)
    assert pages["faction-cards.html"].count("30 with their copies (a deck of 30)") == 4
    assert "84 with their copies (a deck of 84)" in pages["common-cards.html"]
    assert pages["deck-building.html"].count("meets the rule") == 4
    for level in ("Plebeu", "Servo", "Escudeiro", "Cavaleiro", "Castelão", "Rei", "Imperador"):
        assert f"<strong>{level}</strong>" in pages["solo-game.html"]
    assert "<td>below 30</td>" in pages["solo-game.html"] and "<td>80 or more</td>" in pages["solo-game.html"]


def test_the_peaceful_variant_marks_what_it_changes() -> None:
    pages = sheets_of(PEACEFUL)
    assert "not allowed in this ruleset" in pages["round-and-actions.html"]
    assert pages["round-and-actions.html"].count('class="changed-mark"') == 2  # the lookout, the raze
    assert "not allowed in this ruleset" not in sheets_of(BASE)["round-and-actions.html"]


# --- Chromium ----------------------------------------------------------------------------------


def _size(landscape: bool, paper: str) -> tuple[int, int]:
    short, long = (210.0, 297.0) if paper == "a4" else (215.9, 279.4)
    width, height = (long, short) if landscape else (short, long)
    return round(width * PX), round(height * PX)


_WIDTH = "(() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth}))()"


#: The landscape and the portrait sheet Chromium prints, each on the paper of its own.
LANDSCAPE, PORTRAIT = "faction-cards.html", "round-and-actions.html"


def _printed(
    browser: Browser, root: Path, printed: tuple[tuple[str, str], ...]
) -> Iterator[tuple[str, str, pypdf.PdfReader, Mapping[str, float]]]:
    for paper in sorted({paper for paper, _ in printed}):
        (root / paper).mkdir()
        for name, page in sheets_of(BASE, paper).items():
            (root / paper / name).write_text(page, encoding="utf-8")
    for paper, name in printed:
        landscape = name == LANDSCAPE
        with browser.open((root / paper / name).as_uri(), _size(landscape, paper)) as tab:
            width = tab.evaluate(_WIDTH)
            tab.emulate(None)
            pdf = root / f"{paper}-{name}.pdf"
            pdf.write_bytes(tab.pdf())
        yield paper, name, pypdf.PdfReader(pdf), width


@pytest.mark.parametrize(
    "printed",
    [
        # `make test`: each sheet on the narrower paper of its orientation (Letter is the narrower
        # landscape page, 279 mm against 297; A4 the narrower portrait one, 210 mm against 216).
        pytest.param((("letter", LANDSCAPE), ("a4", PORTRAIT)), id="each-on-its-narrower-paper"),
        # `make test-slow`: both sheets on both papers.
        pytest.param(
            tuple((paper, name) for paper in ("a4", "letter") for name in (LANDSCAPE, PORTRAIT)),
            id="both-papers",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_chromium_prints_a_landscape_and_a_portrait_sheet_within_the_page(
    browser: Browser, tmp_path: Path, printed: tuple[tuple[str, str], ...]
) -> None:
    sizes = {"a4": (842, 595), "letter": (792, 612)}
    for paper, name, reader, width in _printed(browser, tmp_path, printed):
        assert width["scroll"] <= width["client"], (paper, name, width)  # nothing wider than the page
        landscape = name == LANDSCAPE
        assert 1 <= len(reader.pages) <= (4 if landscape else 2), (paper, name)
        for page in reader.pages:
            box = (round(float(page.mediabox.width)), round(float(page.mediabox.height)))
            assert box == (sizes[paper] if landscape else sizes[paper][::-1]), (paper, name, box)
            assert "generated by civrules" in page.extract_text(), (paper, name)


def test_the_box_contents_and_the_goods_are_on_the_round_sheet() -> None:
    """`components` (what the box holds) and the goods' own facts (gold stands for a resource) were
    in the data and on no sheet (round 22)."""
    model, _ = _model(BASE)
    page = _visible(sheets_of(BASE)["round-and-actions.html"])
    for component in model.components:
        assert component.display_name in page, component.id
    assert "1 × Tabuleiro de Pontuação (p2/1-tabuleiro-de-pontuacao)" in page
    assert "at least 30 × Madeiras (p3/marcadores-de-bens-e-fichas)" in page
    assert "16 × Cartas de Ataque: For the solo game only. (p2/16-cartas-de-ataque)" in page
    gold = "Ficha de Ouro: stands for Comida, Madeira, Pedra. Gold may stand for any resource, but not the reverse"
    assert gold in page


def test_the_anatomy_of_a_card_and_the_kinds_of_location_are_on_the_common_cards_sheet() -> None:
    """`card_anatomy` (the parts of a card, by side) and the kinds of location's rows were in the
    data and on no sheet (round 22)."""
    model, _ = _model(BASE)
    page = _visible(sheets_of(BASE)["common-cards.html"])
    for part in model.card_anatomy:
        assert part.display_name in page, part.id
    assert "Left side: Custo de Construção do Local (p4/lado-esquerdo)" in page
    assert (
        "Área de Acordo: Faction cards only: the good a deal gives. (p4/lado-direito, p4/visao-geral-das-cartas)"
        in page
    )
    assert "Local de Produção, top row: Gives its goods when built and in every later production phase" in page


def test_what_a_card_does_is_on_its_row_where_the_sources_give_it() -> None:
    """A card's `effect` was printed by no sheet (round 23): the seven cards whose effects the
    sources give (Sabotadores, Ruínas ...) had only their cost, spoils and deal on the sheets."""
    model, _ = _model(BASE)
    given = [card for card in model.cards if isinstance(card.effect, str)]
    assert len(given) == 7
    sheets = sheets_of(BASE)
    printed = html.unescape(" ".join(_visible(sheets[name]) for name in ("faction-cards.html", "common-cards.html")))
    for card in given:
        assert " ".join(str(card.effect).split()).partition(":")[2] in printed, card.id
    assert "Sabotadores Action: spend 1 worker to take 1 resource (food, wood or stone)" in printed
    # the data's words, which said "None:", read as a value left out, and the sheet alone reworded
    assert "Ruínas No ability: built for nothing" in printed
