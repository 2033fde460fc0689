"""A sheet's row cites what was cited for the fields it shows, in every family: a field a variant's
patch wrote is cited by the patch (`uncited` where the patch cites nothing), as `export`'s
`field_sources` cites it, never by the rulebook section the base cited for its old value."""

from __future__ import annotations

import functools
from typing import Any

from civrules.emit.sheets.common import PAPERS, page_for, rules_text
from civrules.emit.sheets.registry import Source
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_analysis

AC_GROUPS = """\
kind: ruleset
id: ac-grp
name: "AC groups"
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - {id: pottery, groups: [arts], cost: 50, source: "house rule: pottery is an art"}
      - {id: cloth_making, cost: 50}
  calamities:
    patch:
      - {id: famine, stack: 3, source: "house rule: a later famine"}
"""

IS_CARDS = """\
kind: ruleset
family: imperial-settlers
id: is-cite
name: "IS cited"
extends: imperial-settlers
overlay:
  cards:
    patch:
      - {id: com001, cost: [wood, stone], source: "house rule: a cheaper statue"}
  actions:
    patch:
      - {id: raze_opponent_location, price: {raze: 3}}
"""


@functools.cache
def _variant(ruleset: str) -> Any:
    texts = {"rulesets/ac-grp.yaml": AC_GROUPS, "rulesets/is-cite.yaml": IS_CARDS}
    workspace = CachedWorkspace(texts)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert analysis.model is not None, analysis.diagnostics
    return analysis.model


def _source(model: Any) -> Source[Any]:
    return Source(model, page_for(PAPERS["a4"], True))


def test_an_advanced_civilization_card_row_cites_the_patch_for_what_it_wrote() -> None:
    from civrules.families.advanced_civilization.sheets.cards import card_chart

    model = _variant("ac-grp")
    rows = {row["name"]: row["rule"] for row in card_chart(model)["rows"]}
    assert rows["Pottery"] == "32.21; house rule: pottery is an art"
    # The merged card keeps the base's `rule:` where no patch wrote one: what the row cited before.
    cloth, metal = (rules_text(model.cards.get(card).rules) for card in ("cloth_making", "metalworking"))
    assert rows["Cloth Making"] == f"{cloth}; uncited"
    assert rows["Metalworking"] == metal  # a card no patch wrote cites as it did


def test_a_calamity_row_cites_the_patch_for_its_stack() -> None:
    from civrules.families.advanced_civilization.sheets.calamities import calamity_sheet

    def famine(model: Any) -> str:
        entries = calamity_sheet(model)["calamities"]
        (found,) = [entry["rule"] for entry in entries if entry["name"] == "Famine"]
        return str(found)

    model = _variant("ac-grp")
    assert famine(model) == f"{rules_text(model.calamities.get('famine').rules)}; house rule: a later famine"


def test_sid_meier_s_community_rows_cite_the_transcription_for_the_costs_it_gives() -> None:
    """Stonehenge's cost (10) and Porto's (7) are the community transcription's, not the rulebook's."""
    from civrules.families.sid_meiers_civilization.sheets.buildings import buildings_sheet
    from civrules.families.sid_meiers_civilization.sheets.units import units_sheet
    from civrules.families.sid_meiers_civilization.sheets.wonders import wonders_sheet

    source = _source(shipped_analysis("sid-meiers-civilization-community").model)

    def rules(context: dict[str, Any]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for section in context["sections"]:
            for row in section.rows:
                found.setdefault(row.cells[0], []).append(row.rule)
        return found

    assert rules(wonders_sheet(source))["Stonehenge"] == [
        "p13/1-vitoria-pela-cultura; cash1981/civilization-boardgame-rest"
    ]
    assert rules(buildings_sheet(source))["Porto"] == ["p6/edificios-terrenos-validos; cash1981/playciv"]
    # A unit's first row cites it, its ranks' names included; its other ranks' rows repeat nothing.
    artillery = rules(units_sheet(source))["Artilharia"]
    assert artillery[0].endswith("; cash1981/civilization-boardgame-rest") and artillery[1:4] == ["", "", ""]


def test_imperial_settlers_rows_cite_a_patch_and_say_uncited_where_it_cites_nothing() -> None:
    from civrules.families.imperial_settlers.sheets.cards import build_common_cards
    from civrules.families.imperial_settlers.sheets.rounds import build

    source = _source(_variant("is-cite"))
    rows = [row for deck in build_common_cards(source)["decks"] for row in deck["rows"]]
    (statue,) = [row for row in rows if "COM001" in str(row)]
    assert statue["rule"] == "house rule: a cheaper statue"
    (raze,) = [action for action in build(source)["actions"] if action["name"] == "Destruir um Local de um oponente"]
    assert raze["rule"] == (
        "p9/para-destruir-um-local-de-um-oponente, p9/transformando-um-local-em-uma-fundacao, "
        "p7/fichas-de-defesa, p11/posicionando-samurais; uncited"
    )


SETTINGS_PATCHED = {
    "rulesets/ac-cite.yaml": """\
kind: ruleset
id: ac-cite
name: "AC cite"
extends: advanced-civilization
overlay:
  settings:
    hand_limit: {commodity_cards: 9, source: "house rule: nine"}
    taxation: {tokens_per_city: 3, source: "house rule: three"}
    ast: {epoch_entry: {text: "A marker enters a new epoch a turn late.", source: "house rule: late"}}
""",
    "rulesets/ep-bonus.yaml": """\
kind: ruleset
id: ep-bonus
name: "EP bonus"
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
    "rulesets/is-solo.yaml": """\
kind: ruleset
family: imperial-settlers
id: is-solo
name: "IS solo"
extends: imperial-settlers
overlay:
  settings:
    solo: {attacks_per_round: 3, source: "house rule: a harder virtual player"}
""",
    "rulesets/smc-hand.yaml": """\
kind: ruleset
id: smc-hand
name: "SMC hand"
extends: sid-meiers-civilization
overlay:
  settings:
    combat: {battle_hand: {base: 4, source: "house rule: a larger hand"}}
""",
}


@functools.cache
def _settings_variant(ruleset: str) -> Any:
    workspace = CachedWorkspace(SETTINGS_PATCHED)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert analysis.model is not None, analysis.diagnostics
    assert not [d for d in analysis.diagnostics if d.severity == "error"], analysis.diagnostics
    return analysis.model


def test_a_patched_setting_s_row_cites_the_house_rule_beside_the_base_s_sections() -> None:
    """Round 20's trial: a house rule's hand limit of 9 was printed under 31.71, 31.72 alone, the
    sections that give 8 (taxation likewise); the row cites as `setting_sources` does."""
    from civrules.emit.sheets.common import Notes
    from civrules.families.advanced_civilization.sheets.quick_reference import _hand_limit, _taxation

    model = _settings_variant("ac-cite")
    assert _hand_limit(model, Notes())["rule"] == "31.71, 31.72; house rule: nine"
    assert _taxation(model, Notes())["rule"].endswith("; house rule: three")
    base: Any = shipped_analysis("advanced-civilization").model
    assert _hand_limit(base, Notes())["rule"] == "31.71, 31.72"  # the base's row cites as it did


def test_a_variant_s_block_bonus_band_is_printed_with_its_source() -> None:
    from civrules.families.advanced_civilization.sheets.commodities import _block_bonuses

    (band,) = _block_bonuses(_settings_variant("ep-bonus"))
    assert band["rule"] == "house rule: shared goods always get it"
    model: Any = shipped_analysis("expansion-project").model
    base = [band["rule"] for band in _block_bonuses(model)]
    assert base == ["26.3.3", "26.3.3, 26.3.4"]


def test_an_imperial_settlers_solo_house_rule_is_cited_on_the_solo_sheet() -> None:
    from civrules.families.imperial_settlers.sheets.solo import build

    context = build(_source(_settings_variant("is-solo")))
    assert context["solo"]["attacks"] == 3
    assert context["solo"]["rule"] == "p13, p14; house rule: a harder virtual player"


def test_a_sid_meier_s_battle_hand_house_rule_is_cited_on_the_combat_sheet() -> None:
    from civrules.families.sid_meiers_civilization.sheets.combat import combat_sheet

    context = combat_sheet(_source(_settings_variant("smc-hand")))
    rows = [row for section in context["sections"] for row in section.rows if row.cells[0] == "to begin with"]
    # the house rule wrote the base of the hand; the hand's other numbers are still p14's
    assert [(row.cells[1], row.rule) for row in rows] == [
        ("4", "p14/1-montando-a-forca-de-batalha; house rule: a larger hand")
    ]


def test_a_house_rule_s_a_s_t_note_is_printed_with_its_source() -> None:
    """The A.S.T. sheet's notes printed their `rule:` alone: the house rule's text rewritten whole
    was printed with no citation."""
    from civrules.families.advanced_civilization.sheets.ast_table import ast_sheet

    notes = {note["text"]: note["rule"] for note in ast_sheet(_settings_variant("ac-cite"))["notes"]}
    assert notes["A marker enters a new epoch a turn late."] == "house rule: late"
