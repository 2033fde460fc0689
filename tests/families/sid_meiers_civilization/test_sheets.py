"""The player aids of the Sid Meier's Civilization family: what the data says and nothing else (no
field names, no placeholders), an empty section saying why, names as printed, a variant's changes
marked. That every sheet lies within the page on A4 and Letter is tests/families/advanced_civilization/test_sheets.py's
(`test_sheets_lie_within_the_page`)."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest

from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.pipeline import analyse
from tests.browser import Browser
from tests.conftest import copy_shipped
from tests.rulefiles import CachedWorkspace
from tests.sheet_text import unmarked

RULESETS = ("sid-meiers-civilization", "sid-meiers-civilization-community")
SHEETS = (
    "turn-summary.html",
    "technology-pyramid.html",
    "buildings.html",
    "units.html",
    "wonders.html",
    "governments.html",
    "combat.html",
    "culture-track.html",
)


@cache
def _rendered(ruleset_id: str) -> tuple[CivilizationRuleset, dict[str, str]]:
    workspace = CachedWorkspace()  # one reading of the shipped files per process (tests.rulefiles)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    analysis = analyse(workspace, loaded)
    assert isinstance(analysis.model, CivilizationRuleset) and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    files = render_sheets(analysis.model, "0" * 64, "a4", changes)
    return analysis.model, {name: content.decode() for name, content in files.items()}


def _text(page: str) -> str:
    page = unmarked(page)
    body = page[page.index("<main") : page.index('<footer class="sheet-foot">')]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_sheet_is_there_and_listed_in_the_index(ruleset_id: str) -> None:
    _, files = _rendered(ruleset_id)
    assert set(SHEETS) <= set(files)
    for name in SHEETS:
        assert f'href="{name}"' in files["index.html"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_sheets_print_no_field_name_and_no_placeholder(ruleset_id: str) -> None:
    _, files = _rendered(ruleset_id)
    for name in SHEETS:
        text = _text(files[name])
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (name, re.findall(r"\b[a-z]+_[a-z_]+\b", text)[:5])
        for placeholder in ("None", "{{", "}}", "Unknown(", "unknown unknown", "TODO"):
            assert placeholder not in text, (name, placeholder)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_technology_is_on_the_pyramid_once_with_what_it_unlocks(ruleset_id: str) -> None:
    model, files = _rendered(ruleset_id)
    text = _text(files["technology-pyramid.html"])
    for tech in model.technologies:
        assert text.count(f" {tech.display_name} ") >= 1, tech.id
    assert "Level II · 11 trade · the technology victory needs 4" in text
    assert re.search(r" Pottery( Δ)? Celeiro[ ,]", text)  # what the rulebook says Pottery unlocks (p6)
    if ruleset_id == RULESETS[0]:
        assert "unknown level" in text
    else:  # every technology's unlocks from the transcription's card text
        assert "unknown unlocks" not in text and " Writing + Biblioteca " in text


def test_empty_sections_say_why_in_one_line() -> None:
    _, files = _rendered("sid-meiers-civilization")
    culture = _text(files["culture-track.html"])
    assert "The sources of this ruleset give none of the culture track's spaces." in culture
    assert "The sources of this ruleset give no culture event deck." in culture
    assert "No technology of level I is in the sources of this ruleset." in _text(files["technology-pyramid.html"])


def test_the_rulebook_numbers_are_on_the_sheets() -> None:
    _, files = _rendered("sid-meiers-civilization")
    combat = _text(files["combat.html"])
    for line in ("to begin with 3", "beyond the first +2", "under Fundamentalism +1", "Defendendo uma capital +12"):
        assert line in combat
    units = _text(files["units.html"])
    assert "Cavalaria 2 Knights 7 2–4 Chivalry" in units
    buildings = _text(files["buildings.html"])
    assert "Aqueduto ● 8 Celeiro Engineering" in buildings
    assert "Colossus 15 10 with Metalworking" in _text(files["wonders.html"])
    turn = _text(files["turn-summary.html"])
    assert "Vitória pela economia 15 coins" in turn and "researching Space Flight" in turn


def test_a_variant_marks_what_it_adds_and_changes() -> None:
    _, files = _rendered("sid-meiers-civilization-community")
    wonders = _text(files["wonders.html"])
    assert "Chichen Itza + 15" in wonders  # added by the variant
    assert "Stonehenge Δ 10" in wonders  # its cost changed by the variant
    assert "variant-changes.html" in files


@pytest.mark.parametrize("added", [7, 8])
def test_buildings_get_a_column_per_terrain_up_to_twelve_terrains_then_name_theirs(tmp_path: Path, added: int) -> None:
    """Five terrains and ``added`` more (bench/shapes.py's `smc-terrains`, building ``b<i>`` on
    ``tr<i>`` and the next): twelve are columns of marks; thirteen would make the sheet as large as
    buildings times terrains, so each building names its own."""
    from bench import shapes
    from civrules.families.sid_meiers_civilization.sheets.buildings import MAX_TERRAIN_COLUMNS
    from civrules.load.workspace import Workspace

    rules = tmp_path / "rules"
    copy_shipped(rules)
    shapes.smc_terrains(rules, added)
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["sid-meiers-civilization"]))
    assert isinstance(analysis.model, CivilizationRuleset)
    sheet = _text(render_sheets(analysis.model, "0" * 64, "a4", None)["buildings.html"].decode())
    if 5 + added <= MAX_TERRAIN_COLUMNS:
        assert "Stands on" not in sheet and "Tr0 Tr1" in sheet and "● the building may stand" in sheet
    else:
        assert "Tr0 Tr1" not in sheet and "Stands on" in sheet
        assert "B0 Tr0, Tr1 7" in sheet and f"B{added - 1} Tr{added - 1}, Tr0 7" in sheet
        assert "13 terrains: each building's own are named" in sheet


def _row(page: str, label: str) -> str:
    """The text of the table row whose first cell is ``label``."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, flags=re.S):
        cells = [_text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
        if cells and cells[0].startswith(label):
            return " ".join(cells)
    raise AssertionError(f"no row {label!r}")


def _text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", unmarked(fragment)))).strip()


def test_the_combat_sheet_prints_the_loot_and_the_winner_s_losses() -> None:
    """`combat.loot` (what the winner takes from figures, a city, a capital) and
    `figures_lost_per_destroyed_units` were in the data and on no sheet (round 22)."""
    _, files = _rendered(RULESETS[0])
    page = files["combat.html"]
    figures = _row(page, "from figures")
    assert "one of: 3 trade, 3 culture, 1 resource" in figures and "p17/a-pilhagem-do-vencedor" in figures
    assert "one of: 1 technology, 1 culture card, 2 resources" in _row(page, "from a city")
    assert "a military victory" in _row(page, "from a capital")
    assert "The winner loses 1 figure for every 2 units destroyed in the battle." in _text(page)


def test_the_turn_summary_prints_the_settings_no_sheet_printed() -> None:
    """City actions, resources, coins, the city centre, Anarchy's capital and the advanced tie
    break were in the data and on no sheet (round 22)."""
    _, files = _rendered(RULESETS[0])
    page = files["turn-summary.html"]
    actions = _row(page, "City actions")
    assert "Produzir uma figura, unidade, construção ou maravilha" in actions
    assert "Dedicar às artes: 1 culture, +1 per culture icon in the outskirts" in actions
    assert "Coletar um recurso: 1 resource" in actions and "p4/acoes-da-cidade" in actions
    assert "Seda, Ferro, Incenso, Trigo" in _row(page, "Resources")
    assert "Coin tokens are not lost." in _row(page, "Coins")
    assert "The city centre yields no icons." in _row(page, "Cities")
    ties = _row(page, "Ties")
    assert "In the advanced version: a military victory ends the game at once; " in ties
    assert "the others let the turn finish; the score adds technologies, culture spaces, coins; still tied, " in ties
    assert "the victory is shared." in ties
    governments = _text(files["governments.html"])
    assert re.search(r"Anarquia between two governments; the capital takes no action", governments)
    assert "The turn passes to the left. 2 to 4 players, best with 4." in _text(page)
    community = _rendered(RULESETS[1])[1]["turn-summary.html"]
    assert "Friendly Barbarian 2" in _text(community) and "Friendly Workers 1" in _text(community)


def test_the_map_tiles_are_on_the_buildings_and_terrains_sheet() -> None:
    """The community variant's map tiles (each tile's squares of terrain) were in the data and on
    no sheet (round 22); the base game, with no tile in its sources, gets no such section."""
    model, files = _rendered(RULESETS[1])
    page = files["buildings.html"]
    assert len(list(model.tiles)) == 43
    aztec = _row(page, "Aztec")
    rows = "Floresta, Floresta, Floresta, Água / Floresta, Água, Pradaria, Água / Montanha, Pradaria, Montanha, "
    assert rows + "Floresta / Montanha, Deserto, Floresta, Deserto" in aztec
    assert "cash1981/playciv" in aztec
    for tile in model.tiles:
        assert f">{tile.display_name}" in page, tile.id
    assert "Map tiles" not in _text(_rendered(RULESETS[0])[1]["buildings.html"])


#: Each place where a cited section's line is broken between two letters or digits, in the page
#: laid out for print: the text of the cell and the two characters around the break.
_BROKEN_WORDS = r"""(() => {
  const found = [];
  for (const cell of document.querySelectorAll('td.r')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data, range = document.createRange();
      let top = null;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (top !== null && box.top > top + 1 && /\w/.test(text[i - 1]) && /\w/.test(text[i]))
          found.push([cell.textContent.trim().slice(0, 60), text.slice(i - 6, i) + '|' + text.slice(i, i + 6)]);
        top = box.top;
      }
    }
  }
  return found.slice(0, 5);
})()"""


@pytest.mark.slow  # a tab a sheet: 16 on each paper
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_cited_section_is_broken_inside_a_word(browser: Browser, tmp_path: Path, paper: str) -> None:
    """The community edition cites its transcription, ``cash1981/civilization-boardgame-rest``,
    beside the rulebook's sections. In a 22 mm column (less its padding) that did not fit: the
    cell broke it inside its words ("civilizati|on"), seven lines a row, and the trumps table's
    last row went to a page of its own (players' trial, round 33). A citation breaks only where
    a space or a hyphen allows. Laid out on screen, where a sheet's page is the paper with its
    margins as padding: the printed lines."""
    broken = {}
    for ruleset_id in RULESETS:
        workspace = CachedWorkspace()
        loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
        analysis = analyse(workspace, loaded)
        assert analysis.model is not None and analysis.resolved is not None
        changes = variant_changes(workspace, loaded, analysis.resolved)
        files = render_sheets(analysis.model, "0" * 64, paper, changes, only=set(SHEETS))
        for name in SHEETS:
            page = tmp_path / f"{ruleset_id}-{name}"
            page.write_bytes(files[name])
            with browser.open(page.as_uri(), (1200, 900)) as tab:
                found = tab.evaluate(_BROKEN_WORDS)
            if found:
                broken[f"{ruleset_id}/{name}"] = found
    assert broken == {}, broken
