"""A variant's sheets mark what it adds (+) or changes (Δ) wherever a sheet prints it: a row or line
a setting feeds as well as an entity's row, in every family (README, "Player aids"). A house rule's
starting hand, research cost or solo setup was printed unmarked, as if the rulebook gave it; only
Advanced Civilization's hand limit and taxation were marked."""

from __future__ import annotations

import functools
import re
from typing import Any

from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.emit.sheets.common import PAPERS, page_for
from civrules.emit.sheets.registry import Source
from civrules.pipeline import analyse
from civrules.resolve.diff import FieldChange, RulesetDiff
from tests.rulefiles import CachedWorkspace

VARIANTS = {
    "rulesets/is-sh.yaml": """\
kind: ruleset
family: imperial-settlers
id: is-sh
name: "IS sh"
extends: imperial-settlers
overlay:
  settings:
    starting_hand: {common: 3, source: "house rule: bigger start"}
    defence: {raze_added: 2, source: "house rule: stronger walls"}
    setup:
      patch:
        - where: {step: 1}
          with: {text: "Deal 5 cards.", source: "house rule: deal first"}
    solo:
      source: "house rule: a harder solo game"
      attacks_per_round: 3
      lookout_steps:
        patch:
          - where: {step: 2}
            with: {text: "Reveal the top 5 common cards; take one."}
""",
    "rulesets/smc-t.yaml": """\
kind: ruleset
family: sid-meiers-civilization
id: smc-t
name: "SMC t"
extends: sid-meiers-civilization
overlay:
  settings:
    research:
      source: "house rule: cheap first level"
      costs:
        patch:
          - where: {level: 1}
            with: {trade: 5}
    combat: {ties: attacker, source: "house rule: the bold win ties"}
    culture_hand: {size: 3, source: "house rule: a larger culture hand"}
    movement: {travel_speed: 3, source: "house rule: faster figures"}
""",
    "rulesets/ac-m.yaml": """\
kind: ruleset
id: ac-m
name: "AC m"
extends: advanced-civilization
overlay:
  settings:
    ast: {frozen: {text: "A frozen marker thaws at once.", source: "house rule: no frost"}}
    credit_policy:
      same_target: sum
      source: "house rule: both credits count"
      purchases:
        overpayment: {value: lost, text: "Overpaying buys nothing more.", source: "house rule: no change"}
    sequence_of_play:
      general_rules:
        patch:
          - where: {id: ast_order_breaks_ties}
            with: {text: "Census order breaks all ties.", source: "house rule: census first"}
  options:
    patch:
      - {id: stoic, default: true, source: "house rule: always stoic"}
""",
    "rulesets/ep-m.yaml": """\
kind: ruleset
id: ep-m
name: "EP m"
extends: expansion-project
overlay:
  settings:
    non_native_block_bonus:
      - players: {min: 12, max: 18}
        bonus: face_value_per_card
        shared_goods: bonus
        may_exceed_printed_maximum: true
        source: "house rule: shared goods always get it"
""",
    # Mega Civilization's data has neither the pieces of a nation nor a victory section: the
    # variant adds both, every part of them its own.
    "rulesets/mc-v.yaml": """\
kind: ruleset
id: mc-v
name: "MC v"
extends: mega-civilization
overlay:
  settings:
    components:
      source: "house rule: the pieces"
      nation_sets: 18
      tokens_per_set: 55
      cities_per_set: 9
      ships_per_set: 4
    victory:
      source: "house rule: the winner"
      end_conditions:
        - {id: time_limit, text: "The time agreed is up.", source: "house rule: the winner"}
      scoring:
        - id: cities
          name: "Cities"
          per: city
          points: 50
          text: "Cities: 50 points per city."
          source: "house rule: the winner"
      highest_wins: true
      tie: tie
""",
}


@functools.cache
def _built(ruleset: str) -> tuple[Any, RulesetDiff]:
    workspace = CachedWorkspace(VARIANTS)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    assert not [d for d in analysis.diagnostics if d.severity == "error"], analysis.diagnostics
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    return analysis.model, changes


@functools.cache
def _sheet(ruleset: str, file: str) -> str:
    model, changes = _built(ruleset)
    page = render_sheets(model, "0" * 64, "a4", changes, only={file})[file].decode("utf-8")
    return page[page.index("<body") :]


def _marked(page: str, text: str) -> str:
    """The mark printed on the element (a list item, a paragraph, a heading, a row, a line of a
    foot) that holds ``text``."""
    for element in re.findall(r"<(li|p|h2|tr|span)\b[^>]*>(.*?)</\1>", page, flags=re.S):
        inner = element[1]
        if text in re.sub(r"<[^>]+>", "", inner):
            found = re.search(r'class="changed-mark"[^>]*>([^<]*)', inner)
            return found.group(1) if found else ""
    raise AssertionError(f"{text!r} is not on the sheet")


def test_imperial_settlers_setting_rows_are_marked_where_the_variant_changes_them() -> None:
    page = _sheet("is-sh", "round-and-actions.html")
    assert _marked(page, "Each player then draws 3 common cards") == "Δ"
    assert _marked(page, "Deal 5 cards.") == "Δ"
    # a step, a line the variant leaves alone stays unmarked
    assert _marked(page, "Shuffle the common cards into a face-down deck") == ""
    assert _marked(page, "The game lasts 5 rounds.") == ""
    solo = _sheet("is-sh", "solo-game.html")
    assert _marked(solo, "3 attacks a round") == "Δ"
    assert _marked(solo, "Reveal the top 5 common cards; take one.") == "Δ"
    assert _marked(solo, "Draw the top card of your faction deck.") == ""
    assert _marked(solo, "Use only the faction you choose.") == ""


def test_settings_no_sheet_printed_are_printed_cited_and_marked() -> None:
    """Imperial Settlers' defence tokens, foundations, card uses, goods and first game, Sid Meier's
    cities, trade, production, movement, villages and ties were in the data and on no sheet."""
    page = _sheet("is-sh", "round-and-actions.html")
    defence = "razing that location costs 2 more raze tokens"
    assert _marked(page, defence) == "Δ"
    line = next(li for li in re.findall(r"<li>(.*?)</li>", page, flags=re.S) if defence in li)
    assert "p7/fichas-de-defesa; house rule: stronger walls" in line
    assert _marked(page, "A razed location turned face down is a foundation: its owner gains Madeira") == ""
    assert _marked(page, "Resources, workers and tokens are not limited by the pieces.") == ""
    turn = _sheet("smc-t", "turn-summary.html")
    assert _marked(turn, "A figure moves 3 squares, never diagonally.") == "Δ"
    assert _marked(turn, "At most 2 cities a player, 3 with") == ""
    assert _marked(turn, "The player to the left plays the barbarians of a village") == ""


def test_a_part_of_the_deck_building_pattern_is_marked_by_the_name_the_diff_gives_it() -> None:
    """The pattern's parts have no id: the diff names each by what tells it from the others
    (`copies: 1`), and the sheet asks for it by that name."""
    from civrules.families.imperial_settlers.sheets.deckbuilding import build

    model, _ = _built("is-sh")
    changes = RulesetDiff("a", "b", [FieldChange("deck_building.pattern[copies: 1].cards", 9, 8)], [])
    context = build(Source(model, page_for(PAPERS["a4"], False), changes))
    assert [(copies, mark) for copies, _, mark in context["pattern"]] == [(3, ""), (2, ""), (1, "changed")]
    assert context["size_mark"] == ""


def test_sid_meier_s_setting_rows_are_marked_where_the_variant_changes_them() -> None:
    pyramid = _sheet("smc-t", "technology-pyramid.html")
    assert _marked(pyramid, "Level I · 5 trade") == "Δ"
    assert _marked(pyramid, "Level II · 11 trade") == ""
    combat = _sheet("smc-t", "combat.html")
    assert _marked(combat, "A tie goes to the attacker.") == "Δ"
    assert _marked(combat, "to begin with") == ""
    assert _marked(_sheet("smc-t", "culture-track.html"), "at most 3 culture event cards") == "Δ"
    assert _marked(_sheet("smc-t", "turn-summary.html"), "The turn passes to the left.") == ""


def test_advanced_civilization_setting_rows_are_marked_where_the_variant_changes_them() -> None:
    """Beyond the quick reference's hand limit and taxation: the A.S.T.'s rules, the credit policy,
    the sequence of play's general rules, the trade-block bonus."""
    ast = _sheet("ac-m", "ast.html")
    assert _marked(ast, "A frozen marker thaws at once.") == "Δ"
    sequence = _sheet("ac-m", "sequence-of-play.html")
    assert _marked(sequence, "Census order breaks all ties.") == "Δ"
    assert _marked(_sheet("ac-m", "credit-table.html"), "both credits count.") == "Δ"
    commodities = _sheet("ep-m", "commodities.html")
    assert _marked(commodities, "With 12–18 players") == "+"
    assert "With 16–18 players" not in commodities  # the base's bands, gone
    base = _sheet("ac-m", "commodities.html")
    assert 'class="changed-mark"' not in base


def test_the_options_and_purchase_rules_are_marked_and_cited_where_a_variant_changes_them() -> None:
    """The game options and the purchase rules (printed from round 22) are marked and cited as the
    other rows: a house rule's text under the house rule, never under the base's sections."""
    cards = _sheet("ac-m", "cards.html")
    assert _marked(cards, "Overpaying buys nothing more.") == "Δ"
    line = next(li for li in re.findall(r"<li>(.*?)</li>", cards, flags=re.S) if "Overpaying" in li)
    assert "house rule: no change" in line and "31.58" not in line
    assert _marked(cards, "they can be used from the next turn on.") == ""
    rules = _sheet("ac-m", "special-rules.html")
    assert _marked(rules, "Stoic") == "Δ"
    row = next(tr for tr in re.findall(r"<tr>(.*?)</tr>", rules, flags=re.S) if "Stoic" in tr)
    assert "house rule: always stoic" in row and ">checked<" in row
    assert _marked(rules, "Disable public trade e-mail") == ""


def test_a_deck_composition_is_marked_by_the_name_the_diff_gives_it() -> None:
    """Mega Civilization's compositions share bands of players: the diff names each by its band and
    map region, and the commodities sheet marks the one named."""
    from civrules.families.advanced_civilization.sheets.commodities import commodity_sheet
    from tests.rulefiles import shipped_analysis

    model: Any = shipped_analysis("mega-civilization").model
    name = "commodities.deck_compositions[players: 9-9, map_region: east].decks"
    changes = RulesetDiff("a", "b", [FieldChange(name, [], [])], [])
    decks = commodity_sheet(model, Source(model, page_for(PAPERS["a4"], False), changes))["decks"]
    assert [(d["players"], d["region"]) for d in decks if d["mark"]] == [("9", "east")]


def _diff(*changes: FieldChange) -> Source[Any]:
    model, _ = _built("smc-t")
    return Source(model, page_for(PAPERS["a4"], False), RulesetDiff("a", "b", list(changes), []))


def test_a_setting_s_mark_is_of_the_part_asked_for_what_holds_it_or_what_it_holds() -> None:
    source = _diff(
        FieldChange("research.costs[1].trade", 6, 5),
        FieldChange("special_rules[tools]", None, {"id": "tools", "text": "Slaves."}),
        FieldChange("combat.battle_hand.base", None, 4),
        FieldChange('victory.scoring[text: "A.B. c"].points', 1, 2),
    )
    assert source.setting_mark("research.costs[1].trade") == "changed"
    assert source.setting_mark("research.costs[1]") == "changed"  # it holds the change
    assert source.setting_mark("research") == "changed"
    assert source.setting_mark("research.costs[2]") == ""  # another element of the same list
    assert source.setting_mark("special_rules[tools]") == "added"
    assert source.setting_mark("special_rules[tools].text") == "added"  # within what was added whole
    assert source.setting_mark("special_rules") == "changed"
    assert source.setting_mark("combat.battle_hand.base") == "added"
    assert source.setting_mark("combat.battle_hand.per_extra_figure") == ""
    assert source.setting_mark('victory.scoring[text: "A.B. c"]') == "changed"  # a dot in a name splits nothing
    assert source.setting_mark('victory.scoring[text: "A"]') == ""
    assert source.setting_changed("research", "taxation") and not source.setting_changed("taxation")
    assert Source(source.ruleset, source.page).setting_mark("research") == ""  # not a variant's sheet


def test_a_setting_part_holding_only_what_the_variant_added_is_marked_added() -> None:
    """A setting the base has not, added by a variant, is shown by ``civrules diff`` part by part,
    each part added; the part that holds them was marked Δ (changed) as if the base had had it."""
    page = _sheet("mc-v", "special-rules.html")
    assert _marked(page, "Each nation plays with 55 population tokens, 9 cities, 4 ships.") == "+"
    assert _marked(page, "The highest total wins; equal totals are a tie.") == "+"
    _, changes = _built("mc-v")
    source = Source(_built("mc-v")[0], page_for(PAPERS["a4"], False), changes)
    assert source.setting_mark("components") == "added"
    assert source.setting_mark("victory") == "added"
    assert source.setting_mark("victory.tie") == "added"
    # a part of the base's that holds an added part (a new key of its own) is still changed
    ac = _diff(FieldChange("hand_limit.extra", None, 1))
    assert ac.setting_mark("hand_limit") == "changed"


def test_a_line_two_settings_feed_is_added_only_where_both_are() -> None:
    """Who wins (``highest_wins`` and ``tie``) was marked changed whenever either was marked."""
    from civrules.families.advanced_civilization.sheets.special_rules import build
    from tests.rulefiles import shipped_analysis

    model: Any = shipped_analysis("advanced-civilization").model
    page = page_for(PAPERS["a4"], False)

    def winning(*changes: FieldChange) -> str:
        context = build(Source(model, page, RulesetDiff("a", "b", list(changes), [])))
        return str(context["victory"]["winning_mark"])

    assert winning(FieldChange("victory.highest_wins", None, True), FieldChange("victory.tie", None, "tie")) == "added"
    assert winning(FieldChange("victory.highest_wins", None, True)) == "changed"  # tie: the base's
    assert winning(FieldChange("victory.tie", "wealth", "tie")) == "changed"
    assert winning() == ""


def test_a_phase_a_variant_adds_is_marked_added_on_the_quick_reference() -> None:
    """The quick reference printed Δ on every phase a variant marked, one it added too."""
    from civrules.resolve.diff import CollectionDiff, EntityChange
    from tests.rulefiles import shipped_analysis

    model: Any = shipped_analysis("advanced-civilization").model
    phases = CollectionDiff(
        "phases",
        added=[EntityChange("census", "Census", [])],
        changed=[EntityChange("tax_collection", "Tax Collection", [])],
    )
    changes = RulesetDiff("a", "b", [], [phases])
    pages = render_sheets(model, "0" * 64, "a4", changes, only={"quick-reference.html"})
    page = pages["quick-reference.html"].decode("utf-8")
    page = page[page.index("<body") :]
    assert _marked(page, "Census") == "+"
    assert _marked(page, "Tax Collection") == "Δ"
    assert _marked(page, "Population Expansion") == ""


def test_a_base_s_sheets_mark_nothing() -> None:
    from tests.rulefiles import shipped_analysis

    model = shipped_analysis("imperial-settlers").model
    assert model is not None
    pages = render_sheets(model, "0" * 64, "a4", None, only={"round-and-actions.html", "solo-game.html"})
    assert not any(b'class="changed-mark"' in page for page in pages.values())
