"""The rules a ruleset holds beside its sequence of play are printed for the table: the Central America
variant's own rules (the Conquistadors, Tools and Slaves, the map measure) were on no sheet but as JSON
on the variant's changes sheet, and no sheet printed what each number of players plays with."""

from __future__ import annotations

import functools
import html
import re
from typing import Any

from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.pipeline import analyse
from civrules.resolve.diff import render_text
from tests.rulefiles import CachedWorkspace
from tests.sheet_text import unmarked

SHEET = "special-rules.html"

HOUSE = """\
kind: ruleset
id: cam-house
name: "CAM house"
extends: central-america
overlay:
  settings:
    special_rules:
      patch:
        - where: {id: tools_and_slaves}
          with: {text: "Slaves never save anyone.", source: "house rule: no escape"}
    victory:
      tie: tie
      source: "house rule: no tie-break"
"""


@functools.cache
def _pages(ruleset: str) -> dict[str, str]:
    workspace = CachedWorkspace({"rulesets/cam-house.yaml": HOUSE})
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    changes = variant_changes(workspace, loaded, analysis.resolved)
    files = render_sheets(
        analysis.model, "0" * 64, "a4", changes, only={SHEET, "variant-changes.html", "commodities.html"}
    )
    return {name: html.unescape(page.decode()) for name, page in files.items()}


def _text(page: str) -> str:
    page = unmarked(page)
    body = page[page.index("<main") :]
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


def _line(page: str, words: str) -> str:
    """The visible text of the list item or paragraph that holds ``words``."""
    for inner in re.findall(r"<(?:li|p|h2|tr)\b[^>]*>(.*?)</(?:li|p|h2|tr)>", page, flags=re.S):
        text = " ".join(re.sub(r"<[^>]+>", " ", inner).split())
        if words in text:
            return text
    raise AssertionError(f"{words!r} is on no line")


def test_the_central_america_variant_s_own_rules_are_printed_cited_and_marked() -> None:
    page = _pages("central-america")[SHEET]
    item = "Central America map variant, item"
    assert _line(page, "Conquistadors").startswith("Conquistadors +")
    assert "They replace the Barbarians and the Pirates." in _text(page)
    # The activation, the calamity card and three rules are item 2's: cited once, after the last.
    assert "(" not in _line(page, "The Conquistador units are not played until")
    assert f"({item} 2" in _line(page, "resolve their conflicts after all other players")
    assert _text(page).count(f"({item} 2 ") == 1
    tools = _line(page, "Tools and Slaves")
    assert tools.startswith("With the optional Tools and Slaves trade cards in play") and f"({item} 9" in tools
    assert " + " in f"{tools} "  # a rule the variant adds
    assert f"({item} 10" in _line(page, "use 4 inches of map per player")
    held = _line(page, "They hold:")
    assert "Militari Esperti (Advanced Military)" in held
    assert re.search("Navigazione[¹²³],", held)  # a name that matches no card: its note says why
    # the calamity card's unknown stack is a dash and a note, never a guess
    assert re.search("tradable; stack —[¹²³]", _line(page, "calamity card brings them into play"))
    hoard = _line(page, "hoard of at most eight")
    assert f"({item} 4" in hoard and "+" not in hoard  # the force's heading marks it as the variant's


def test_a_house_rule_s_change_to_a_special_rule_is_marked_and_cited() -> None:
    page = _pages("cam-house")[SHEET]
    line = _line(page, "Slaves never save anyone.")
    assert "Δ" in line and "house rule: no escape" in line
    assert "Δ" not in _line(page, "Use the rules of the Dawn of History game")


def test_the_rules_of_each_number_of_players_are_printed() -> None:
    from tests.rulefiles import shipped_analysis

    model = shipped_analysis("advanced-civilization").model
    assert model is not None
    page = html.unescape(render_sheets(model, "0" * 64, only={SHEET})[SHEET].decode())
    four = _line(page, "Only the three eastern panels")
    assert four.startswith("4 55 Eastern map") and "Nations: Egypt, Babylon, Assyria, Asia." in four
    assert "16.6" in four
    assert "(16.12)" in _line(page, "Nations whose start areas are on a panel not in play may not be chosen.")
    assert "12 tokens are needed to build a city on an island. (16.8)" in _line(page, "City sites on islands")


def test_the_variant_s_changes_sheet_gives_a_whole_rule_in_words_never_as_json() -> None:
    page = _pages("central-america")["variant-changes.html"]
    text = _text(page)
    assert not re.search(r"[\[{]\"", text), "JSON on the changes sheet"
    assert "+ special_rules[tools_and_slaves]: With the optional Tools and Slaves trade cards in play" in text
    assert "activation: The Conquistador units are not played until" in text
    assert "Militari Esperti; card: advanced_military" in text
    assert "calamity card: Conquistador; tradable: yes; stack: unknown (The variant does not say" in text


def test_civrules_diff_s_text_is_unchanged() -> None:
    """The command's output is a contract of its own (a whole mapping as JSON, on one line)."""
    workspace = CachedWorkspace({"rulesets/cam-house.yaml": HOUSE})
    loaded = workspace.load_ruleset(workspace.manifests()["central-america"])
    analysis: Any = analyse(workspace, loaded)
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    text = render_text(changes)
    assert '+ special_rules[base_rules]: {"id": "base_rules", "text": "Use the rules' in text
    assert render_text(changes, in_words=True) != text


def test_the_end_of_the_game_is_printed_cited_and_a_variant_s_change_marked() -> None:
    from tests.rulefiles import shipped_analysis

    model = shipped_analysis("advanced-civilization").model
    assert model is not None
    page = html.unescape(render_sheets(model, "0" * 64, only={SHEET})[SHEET].decode())
    assert "(34.1)" in _line(page, "One or more players move their markers onto a finish square")
    assert "(35.1)" in _line(page, "Cities: 50 points per city on the board.")
    assert _line(page, "The highest total wins").startswith("The highest total wins; equal totals are a tie.")
    base = _pages("central-america")[SHEET]  # the Expansion Project's: ties broken by wealth
    assert "equal totals are broken by wealth" in _line(base, "The highest total wins")
    house = _line(_pages("cam-house")[SHEET], "The highest total wins")
    assert "equal totals are a tie. Δ" in house and "house rule: no tie-break" in house


def test_the_pieces_of_a_nation_and_the_preparation_of_the_trade_stacks_are_printed() -> None:
    """`components` and `trade_stacks.setup` were on no sheet: a player sets the game up with them."""
    from tests.rulefiles import shipped_analysis

    model = shipped_analysis("advanced-civilization").model
    assert model is not None
    pages = render_sheets(model, "0" * 64, only={SHEET, "commodities.html"})
    page = html.unescape(pages[SHEET].decode())
    pieces = "Each nation plays with 55 population tokens, 9 cities, 4 ships, 1 census marker, 1 succession marker."
    assert _line(page, pieces).endswith("(5.1)")
    stacks = html.unescape(pages["commodities.html"].decode())
    assert _line(stacks, "Shuffle each stack.") == "Shuffle each stack."  # one passage: cited once, at its end
    assert _line(stacks, "Place the four non-tradable calamity cards").endswith("(15.2)")
    assert _text(stacks).count("(15.2)") == 1
    # the Central America variant's set-up differs from the Expansion Project's: marked
    variant = _pages("central-america")["commodities.html"]
    assert "Δ" in _line(variant, "set aside a number of commodity cards equal to the number of players")
    assert "Δ" not in _line(variant, "Shuffle each stack.")


def test_a_count_whose_set_up_is_unknown_says_so_with_its_reason() -> None:
    """Central America's nine players play a map and civilizations the sources do not give
    (`configurations: {unknown: ...}`): the model dropped the reason and the row printed nothing."""
    page = _pages("central-america")[SHEET]
    nine = _line(page, "4 inches of map per player")  # the count's own rule, in its row
    assert nine.startswith("9 ") and "not in the sources" in nine, nine
    assert "the variant names neither the areas of its map nor its nine civilizations" in _text(page)


def test_taxation_and_the_hand_limit_are_printed_in_full_with_who_takes_the_revolting_cities() -> None:
    """The quick reference, one page, gave taxation and the hand limit only in short ("cities you
    cannot pay for revolt"): no sheet printed `taxation.revolt.text`, `hand_limit.text`, nor who
    takes the revolting cities (`revolt.beneficiary`), which Mega Civilization's text leaves to it
    ("the beneficiary") and the Expansion Project's sources lost (round 23)."""
    from tests.rulefiles import shipped_analysis

    def page_of(ruleset: str) -> str:
        model = shipped_analysis(ruleset).model
        assert model is not None
        return html.unescape(render_sheets(model, "0" * 64, only={SHEET})[SHEET].decode())

    base = page_of("advanced-civilization")
    revolt = _line(base, "the cities he cannot pay for revolt, after all others have paid")
    assert "Cities of a player holding Democracy never revolt." in revolt
    assert _line(base, "The player with the most unit points in stock (a city 5, a token 1) picks the revolting")
    assert _line(base, "Tradable calamity cards may not be kept or surrendered.").endswith("(31.71, 31.72)")
    assert "(19.31, 19.32, 19.33, 19.34)" in _text(base)
    mega = page_of("mega-civilization")
    assert _line(mega, "The player with the most cities in stock (ties: the most tokens in stock")
    assert "menuan/megacivrules-flutter" in _line(mega, "discards down to the hand limit of commodity cards")
    project = page_of("expansion-project")
    said = _line(project, "The sources do not say who takes the revolting cities")
    assert said.endswith("(13.3.1, 13.3.2, 13.3.5, 13.3.6)"), said
    assert "which are missing from the text" in _text(project)  # the data's why, in the notes
    assert _line(project, "Monarchy and Coinage together allow four tokens per city").endswith("(13.2.3)")
    # a variant's own revolt rule is marked and cited by the variant
    house = (
        "kind: ruleset\nid: ac-tax\nname: ac-tax\nextends: advanced-civilization\noverlay:\n  settings:\n"
        "    taxation:\n      revolt:\n"
        '        text: "Unpaid cities stay loyal."\n        source: "house rule: no revolts"\n'
    )
    workspace = CachedWorkspace({"rulesets/ac-tax.yaml": house})
    loaded = workspace.load_ruleset(workspace.manifests()["ac-tax"])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    changes = variant_changes(workspace, loaded, analysis.resolved)
    page = html.unescape(render_sheets(analysis.model, "0" * 64, "a4", changes, only={SHEET})[SHEET].decode())
    assert _line(page, "Unpaid cities stay loyal.") == "Unpaid cities stay loyal. Δ"  # cited with the next line
    who = _line(page, "The player with the most unit points in stock")
    assert who.endswith("(19.31, 19.32, 19.33, 19.34; house rule: no revolts)") and "Δ" not in who, who
    assert "Δ" not in _line(page, "Tradable calamity cards may not be kept or surrendered.")
