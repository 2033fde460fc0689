"""CIVILIZATION: The Expansion Project (`expansion-project`) and its Central America map variant
(`central-america`) against the numbers of the rulebook text: 286 commodity cards (8.2.1), 24 x 2
calamities (8.3.1), the trade decks per band of players (10.3.1-10.3.4), the order of resolution
(24.7.1-24.7.2), the credit tokens (6.1-6.2, 26.5.x), the 51 advancements of 5.1 against the 53
sections 30.2-30.54, and the Central America deck, Conquistadors and volcano rule."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from civrules.diagnostics import Diagnostic
from civrules.emit.export import export_ruleset
from civrules.emit.helpers.render import render_helper
from civrules.emit.sheets.render import render_sheets
from civrules.families.advanced_civilization.calamities import calamity_amount, resolution_order
from civrules.families.advanced_civilization.commodities import commodity_total
from civrules.families.advanced_civilization.credits import (
    CreditLine,
    CreditPolicy,
    CreditSource,
    TwoGroupCards,
    credit_matrix,
    credit_policy,
    credit_toward,
    derive_credit_matrix,
)
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.package import render_package
from civrules.model import Unknown
from civrules.pipeline import analyse, derived_facts
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis

if str(REPO / "generated" / "python") not in sys.path:
    sys.path.insert(0, str(REPO / "generated" / "python"))


@dataclass(frozen=True)
class Loaded:
    model: Ruleset
    exported: dict[str, Any]
    diagnostics: list[Diagnostic]


def load(ruleset_id: str) -> Loaded:
    analysis = shipped_analysis(ruleset_id)
    assert analysis.model is not None and analysis.resolved is not None
    exported = json.loads(
        json.dumps(export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)), sort_keys=True)
    )
    return Loaded(of_family(analysis.model), exported, analysis.diagnostics)


@pytest.fixture(scope="module")
def ep() -> Loaded:
    return load("expansion-project")


@pytest.fixture(scope="module")
def ca() -> Loaded:
    return load("central-america")


def commodities_settings(loaded: Loaded) -> Mapping[str, Any]:
    settings: Mapping[str, Any] = loaded.exported["settings"]["commodities"]
    return settings


def card(loaded: Loaded, card_id: str) -> dict[str, Any]:
    return next(c for c in loaded.exported["civilization_cards"] if c["id"] == card_id)


def calamity(loaded: Loaded, calamity_id: str) -> dict[str, Any]:
    return next(c for c in loaded.exported["calamities"] if c["id"] == calamity_id)


def is_unknown(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"unknown"}


# --- Both rulesets validate ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ["expansion-project", "central-america"])
def test_validates_with_only_unknown_fact_infos(ruleset_id: str) -> None:
    loaded = load(ruleset_id)
    problems = [d for d in loaded.diagnostics if d.severity != "info"]
    assert problems == []
    # no A008 "cannot be judged" of the epochs' cards of a value range: every cost is unknown, and
    # Q006 names each one (round 36: the designer read the same gap twice)
    assert {d.code for d in loaded.diagnostics} <= {"Q006", "Q007"}


def test_the_ruleset_declares_itself_a_draft(ep: Loaded, ca: Loaded) -> None:
    assert ep.exported["settings"]["status"] == "draft"
    assert ca.exported["settings"]["status"] == "draft"


# --- Commodities (8.2.1-8.2.3, 10.3.x, 26.3.x) -----------------------------------------------------


def test_286_commodity_cards_of_45_goods_five_per_stack(ep: Loaded) -> None:
    goods = ep.model.commodities
    assert len(goods) == 45
    assert sum(c.count for c in goods if isinstance(c.count, int)) == 286
    assert commodities_settings(ep)["total_cards"]["count"] == 286
    for stack in range(1, 10):
        assert len([c for c in goods if c.stack == stack]) == 5
    assert all(c.value == c.stack for c in goods)
    # 8.2.3: per stack two western, two eastern and one shared good
    for stack in range(1, 10):
        blocks = sorted(c.raw["block"] for c in goods if c.stack == stack)
        assert blocks == ["east", "east", "shared", "west", "west"]


# Neither table prints a value or a stack: 8.2.1 and item 11 print names and counts in nine rows, and
# the data reads each good's value and stack as its row's number. Only Oil's value is printed (26.3.3).


def test_the_expansion_projects_values_and_stacks_are_marked_inferred_but_oils(ep: Loaded) -> None:
    inferred = {c["id"]: c.get("inferred") for c in ep.exported["commodities"]}
    assert inferred.pop("oil") is None
    assert len(inferred) == 44 and all(fields == ["value", "stack"] for fields in inferred.values())


def test_central_americas_values_and_stacks_are_marked_inferred(ca: Loaded) -> None:
    inferred = {c["id"]: c.get("inferred") for c in ca.exported["commodities"]}
    assert len(inferred) == 27 and all(fields == ["value", "stack"] for fields in inferred.values())
    assert all(c.inferred == ("value", "stack") for c in ca.model.commodities)


def test_an_inferred_value_is_marked_in_the_package_the_sheet_and_the_helper(ca: Loaded) -> None:
    from civrules_rulesets.central_america.data import COMMODITIES  # the committed package, kept current

    assert COMMODITIES["turquoise"].inferred == ("value", "stack")
    sheet = render_sheets(ca.model, "0" * 64)["commodities.html"].decode()
    assert (
        '<td class="num">9<span class="inferred" title="not printed: read from the source table">†</span></td>' in sheet
    )
    assert "<li>† Not printed by any source: each marked value is read from the row" in sheet
    page = render_helper(ca.model, "0" * 64).decode()
    assert "Turquoise † <input" in page and 'id="inferred-values"' in page


def deck_sizes(settings: Mapping[str, Any], goods: Mapping[str, int]) -> dict[tuple[int, int], dict[str, int]]:
    """Commodity cards per deck of each band: `all` of a good, or `half` of it."""
    sizes: dict[tuple[int, int], dict[str, int]] = {}
    for composition in settings["deck_compositions"]:
        band = (composition["players"]["min"], composition["players"]["max"])
        for deck in composition["decks"]:
            cards = 0
            for entry in deck["commodities"]:
                count = goods[entry["commodity"]]
                cards += count if entry["share"] == "all" else count // 2
            sizes.setdefault(band, {})[deck["block"]] = cards
    return sizes


def calamity_cards(deck: Mapping[str, Any], majors: int = 16, minors: int = 8) -> int | None:
    severities = deck["calamity_severities"]
    if is_unknown(severities):
        return None
    sets: int = deck["calamity_sets"]
    return sets * ((majors if "major" in severities else 0) + (minors if "minor" in severities else 0))


def test_deck_sizes_per_band_of_players(ep: Loaded) -> None:
    goods = {c.id: c.count for c in ep.model.commodities if isinstance(c.count, int)}
    settings = commodities_settings(ep)
    sizes = deck_sizes(settings, goods)
    assert sizes == {
        (5, 7): {"single": 114},
        (8, 11): {"single": 172},
        (12, 14): {"west": 114, "east": 114},
        (15, 18): {"west": 143, "east": 143},
    }
    assert sum(sizes[(15, 18)].values()) == 286  # every card in play at 15-18 players
    calamities = {
        (c["players"]["min"], c["players"]["max"]): [calamity_cards(d) for d in c["decks"]]
        for c in settings["deck_compositions"]
    }
    # 10.3.1 says only "one set (tradable and non-tradable) of calamities": unknown whether minors are in
    assert calamities == {(5, 7): [None], (8, 11): [24], (12, 14): [16, 16], (15, 18): [24, 24]}
    assert sum(n for n in calamities[(15, 18)] if n) == 48


def test_the_5_7_deck_is_the_8_11_deck_without_the_asterisked_goods(ep: Loaded) -> None:
    settings = commodities_settings(ep)
    small, full = ({e["commodity"] for e in c["decks"][0]["commodities"]} for c in settings["deck_compositions"][:2])
    assert small < full and len(small) == 18 and len(full) == 27
    assert full - small == {"bone", "wax", "ceramics", "grain", "glass", "lead", "herbs", "obsidian", "amber"}
    shared = {c.id for c in ep.model.commodities if c.raw["block"] == "shared"}
    assert full - small == shared


def test_non_native_block_bonus_gives_26_3_3s_example(ep: Loaded) -> None:
    # 26.3.3: an eastern player redeeming three Oil (a western good, 4 each): 3 x 3 x 4 + 3 x 4 = 48
    oil = ep.model.commodities.get("oil")
    assert oil is not None and oil.value == 4 and oil.raw["block"] == "west"
    bonus = commodities_settings(ep)["non_native_block_bonus"]
    assert [(b["players"]["min"], b["players"]["max"], b["shared_goods"]) for b in bonus] == [
        (12, 15, "bonus"),
        (16, 18, "no_bonus"),
    ]
    assert bonus[0]["bonus"] == "face_value_per_card"
    cards = 3
    assert cards * cards * oil.value + cards * oil.value == 48
    example = commodities_settings(ep)["set_value"]["examples"][0]
    assert (example["commodity"], example["cards"], example["set_value"]) == ("oil", 3, 36)


def test_mining_doubles_treasury_and_enlarges_no_set(ep: Loaded) -> None:
    mining = commodities_settings(ep)["mining"]
    assert mining["treasury_token_value"] == 2 and "set_bonus" not in mining
    assert not any(c.mining for c in ep.model.commodities)


def test_hand_limit_eight_with_trade_routes_and_diaspora(ep: Loaded) -> None:
    limit = ep.exported["settings"]["hand_limit"]
    assert limit["commodity_cards"] == 8
    assert {c["card"]: c["change"] for c in limit["card_changes"]} == {"trade_routes": 1, "diaspora": -1}
    assert limit["card_changes_cumulative"] is True


def test_trade_card_purchases_of_the_advancements(ep: Loaded) -> None:
    stacks = commodities_settings(ep)["trade_stacks"]["stacks"]
    purchases = {s["number"]: [(p["price"], p["requires_card"]) for p in s.get("purchases", [])] for s in stacks}
    assert purchases == {
        1: [],
        2: [(7, "cartography")],
        3: [(9, "advancement_30_44")],
        4: [],
        5: [],
        6: [(13, "mining")],
        7: [(15, "cartography")],
        8: [(16, "mining")],
        9: [],
    }


# --- Calamities (8.3.1, 24.7, 29) --------------------------------------------------------------------


def test_48_calamity_cards_24_calamities_of_two_copies(ep: Loaded) -> None:
    calamities = list(ep.model.calamities)
    assert len(calamities) == 24
    assert sum(c.raw["copies"] for c in calamities) == 48
    for stack in range(2, 10):
        here = [c for c in calamities if c.stack == stack]
        kinds = sorted(
            "minor" if c.severity == "minor" else ("tradable" if c.tradable else "non_tradable") for c in here
        )
        assert kinds == ["minor", "non_tradable", "tradable"], stack
    assert all(c.tradable is True for c in calamities if c.severity == "minor")


def test_8_3_1_names_23_calamities_and_the_missing_one_is_recorded(ep: Loaded) -> None:
    iconoclasm = calamity(ep, "iconoclasm_and_heresy")
    assert "8.3.1" not in iconoclasm["rule"]
    assert any("8.3.1" in a["source"] for d in iconoclasm["disagreements"] for a in d["alternatives"])
    others = [c for c in ep.exported["calamities"] if c["id"] != "iconoclasm_and_heresy"]
    assert len(others) == 23 and all("8.3.1" in c["rule"] for c in others)


def test_resolution_order_minor_calamities_first(ep: Loaded) -> None:
    order = [c.id for c in resolution_order(ep.model)]
    assert order == ep.exported["calamity_resolution_order"]
    assert order == [
        # 24.7.1: the minor calamities, ascending from Squandered Wealth to Banditry
        "squandered_wealth",
        "tempest",
        "city_in_flames",
        "city_riots",
        "coastal_migration",
        "tribal_conflict",
        "minor_uprising",
        "banditry",
        # 24.7.2: then the major ones, ascending, the non-tradable before the tradable of its stack
        "volcano_earthquake",
        "treachery",
        "famine",
        "superstition",
        "civil_war",
        "slave_revolt",
        "flood",
        "barbarian_hordes",
        "cyclone",
        "epidemic",
        "corruption",
        "civil_disorder",
        "tyranny",
        "iconoclasm_and_heresy",
        "regression",
        "piracy",
    ]


def amount(ruleset: Ruleset, calamity_id: str, effect: str, held: set[str], role: str = "primary") -> int | None:
    found = ruleset.calamities.get(calamity_id)
    assert found is not None
    result = calamity_amount(found, effect, held, "primary" if role == "primary" else "secondary")
    return result.value


def test_calamity_amounts_with_advancements(ep: Loaded) -> None:
    model = ep.model
    # 29.6.2.3: Medicine and Anatomy each save eight unit points of a primary victim, "for each"
    assert amount(model, "epidemic", "epidemic_primary", set()) == 16
    assert amount(model, "epidemic", "epidemic_primary", {"medicine", "anatomy"}) == 0
    assert amount(model, "epidemic", "epidemic_primary", {"roadbuilding", "trade_empire"}) == 26
    # 29.3.2.2: one city fewer for each of Mysticism, Deism, Enlightenment (not the highest only)
    assert amount(model, "superstition", "cities_reduced", {"mysticism", "deism"}) == 1
    # 29.5.2.2.1-29.5.2.2.2: 15 barbarians, +5 Politics, +5 Provincial Empire, -5 Monarchy
    assert amount(model, "barbarian_hordes", "invasion", {"politics", "provincial_empire", "monarchy"}) == 20
    # 29.3.1.5: Irrigation nullifies Famine, also for a secondary victim
    assert amount(model, "famine", "famine_secondary", {"irrigation"}, "secondary") == 0


def test_an_unknown_combination_makes_the_amount_of_two_cards_unknown(ep: Loaded) -> None:
    # 29.3.3 does not say whether Astronavigation and Cartography together keep two ships or four
    tempest = ep.model.calamities.get("tempest")
    assert tempest is not None
    one = calamity_amount(tempest, "ships_lost", {"astronavigation"}, "primary")
    assert one.unknown is None and one.loss(4) == 2
    both = calamity_amount(tempest, "ships_lost", {"astronavigation", "cartography"}, "primary")
    assert isinstance(both.unknown, Unknown) and both.value is None
    # Theocracy spares one city per commodity card given up (29.8.2.2)
    iconoclasm = ep.model.calamities.get("iconoclasm_and_heresy")
    assert iconoclasm is not None
    assert calamity_amount(iconoclasm, "cities_reduced", {"theocracy"}, "primary", {"oil": 1, "salt": 2}).value == 1


# --- Advancements (5.1, 30.2-30.54) -----------------------------------------------------------------


def test_53_advancement_sections_against_51_in_5_1(ep: Loaded) -> None:
    cards = list(ep.model.cards)
    assert len(cards) == 53
    assert [c.rules[0] for c in cards] == [f"30.{n}" for n in range(2, 55)]
    declared = ep.exported["settings"]["civilization_cards"]["declared_count"]
    assert declared["count"] == 51 and declared["rule"] == "5.1"
    assert "53" in declared["note"]


def test_unnamed_sections_have_unknown_names_and_section_ids(ep: Loaded) -> None:
    unnamed = [c.id for c in ep.model.cards if isinstance(c.name, Unknown)]
    assert unnamed == [f"advancement_30_{n}" for n in (9, 17, 25, 27, 34, 44, 54)]
    inferred = {
        c["id"]: alternative["value"]
        for c in ep.exported["civilization_cards"]
        for d in c.get("disagreements", [])
        if d["field"] == "name"
        for alternative in d["alternatives"]
        if alternative["source"].startswith("inference")
    }
    # Each name is inferred, not given: the alphabetical slot, and for five of them Mega
    # Civilization's advance with exactly the section's credits (community/megaciv_advances.csv).
    assert inferred == {
        "advancement_30_9": "Cloth Making",
        "advancement_30_17": "Empiricism",
        "advancement_30_54": "Written Record",
        "advancement_30_25": "Literacy",
        "advancement_30_27": "Mathematics",
        "advancement_30_34": "Monument",
        "advancement_30_44": "Rhetoric",
    }


def test_costs_groups_and_prerequisites_are_unknown(ep: Loaded) -> None:
    for advancement in ep.model.cards:
        assert isinstance(advancement.cost, Unknown), advancement.id
        assert isinstance(advancement.groups, Unknown), advancement.id
        assert isinstance(advancement.prerequisites, Unknown), advancement.id


@pytest.mark.parametrize(
    ("card_id", "printed"),
    [
        ("masonry", "30.24"),
        ("monarchy", "30.30"),
        ("theocracy", "30.45"),
        ("mysticism", "30.19"),
        ("mythology", "30.35"),
    ],
)
def test_wrong_cross_references_are_disagreements(ep: Loaded, card_id: str, printed: str) -> None:
    found = card(ep, card_id)
    chosen = [d for d in found["disagreements"] if d["field"].startswith("rule")]
    assert chosen and chosen[0]["chosen"] == found["rule"][0]
    assert chosen[0]["alternatives"][0]["value"] == printed


def test_every_credit_attribute_and_purchase_effect_cites_its_section(ep: Loaded) -> None:
    for advancement in ep.exported["civilization_cards"]:
        section = advancement["rule"][0] if isinstance(advancement["rule"], list) else advancement["rule"]
        for line in advancement["credits"]:
            assert line["rule"] == f"{section}.1", (advancement["id"], line)
        for attribute in advancement["attributes"]:
            assert attribute.get("rule"), (advancement["id"], attribute)
        for effect in advancement.get("purchase_effects", []):
            assert effect["rule"] == f"{section}.2"


def test_purchase_effects(ep: Loaded) -> None:
    effects = {
        c["id"]: [(e["kind"], e.get("points")) for e in c["purchase_effects"]]
        for c in ep.exported["civilization_cards"]
        if "purchase_effects" in c
    }
    assert effects == {
        "anatomy": [("acquire_advancements", None)],
        "library": [("discount", 40)],
        "advancement_30_34": [("credit_tokens", 10)],
        "wonder_of_the_world": [("credit_tokens", 20)],
        "advancement_30_54": [("credit_tokens", 5)],
    }


def test_every_calamity_effect_and_modifier_cites_its_section(ep: Loaded) -> None:
    for found in ep.exported["calamities"]:
        for side in ("primary", "secondary"):
            for effect in found[side]:
                assert effect["rule"], (found["id"], effect["id"])
        for modifier in found["modifiers"]:
            assert modifier["rule"], (found["id"], modifier["card"])


# --- Credit policy (6.1-6.2, 26.5.x) ---------------------------------------------------------------


def test_the_declared_credit_policy(ep: Loaded) -> None:
    declared = ep.model.credit_policy
    assert declared["group_credits"] == "credit_tokens_of_group"
    assert is_unknown(declared["two_group_cards"])
    assert declared["across_owned_cards"] == "sum"
    assert declared["extra_credits"] == "added_once"
    assert declared["credits_must_be_used"] and declared["free_when_covered"] and declared["excess_lost"]
    assert credit_policy(ep.model) == CreditPolicy(two_group_cards_known=False, two_group_cards=TwoGroupCards.UNKNOWN)


def test_the_derived_matrix_holds_the_extra_credits(ep: Loaded) -> None:
    # Every advancement's groups are unknown, so the credit tokens reach no known target; every
    # "N extra credits to Y" (30.x.1) is a cell of the matrix.
    matrix = credit_matrix(ep.model)
    assert matrix.export() == ep.exported["credit_matrix"]
    extras = {
        (c.id, line.card): line.points for c in ep.model.cards for line in c.credit_list() if line.extra and line.card
    }
    assert (
        len(extras) == 35
    )  # 34 "extra credits to" lines and Iron Working's "10 credits to the Advanced Military advancement"
    assert {(owned, target): points for owned, row in matrix.items() for target, points in row.items()} == extras
    # 30.3.1 and 30.41.1: Agriculture gives 20 toward Democracy, Pottery 10 toward Agriculture
    assert credit_toward(matrix, ["agriculture", "pottery"], "democracy") == 20
    assert credit_toward(matrix, ["agriculture", "pottery"], "agriculture") == 10


def test_credit_tokens_extras_and_two_group_cards_under_the_policy() -> None:
    """26.5.x has no worked example: the policy on advancements whose groups are given here for the test.

    An Agriculture-like card gives 10 craft and 5 science credit tokens and 20 extra toward a
    Democracy-like card; the tokens reach every card of the group, the extra is added on top of them
    (26.5.1), tokens of several cards add up (6.2), and a two-group card takes no group tokens while
    the rule for it (26.5.2, 26.5.4-26.5.6) is missing, only its extra credits.
    """
    farming = CreditSource(
        "farming",
        ("crafts",),
        (CreditLine(10, group="crafts"), CreditLine(5, group="sciences"), CreditLine(20, card="vote", extra=True)),
    )
    pots = CreditSource(
        "pots", ("crafts",), (CreditLine(10, group="crafts"), CreditLine(10, card="farming", extra=True))
    )
    vote = CreditSource("vote", ("crafts",), ())
    mixed = CreditSource("mixed", ("crafts", "sciences"), ())
    stars = CreditSource("stars", ("sciences",), (CreditLine(10, card="mixed", extra=True),))
    policy = CreditPolicy(two_group_cards_known=False)
    matrix = derive_credit_matrix([farming, pots, vote, mixed, stars], policy)
    assert matrix["farming"] == {"pots": 10, "stars": 5, "vote": 30}
    assert matrix["pots"] == {"farming": 20, "vote": 10}
    assert matrix["stars"] == {"mixed": 10}
    assert credit_toward(matrix, ["farming", "pots"], "vote") == 40
    # with the two-group rule known (both groups), the two-group card takes the tokens too
    assert derive_credit_matrix([farming, mixed], CreditPolicy())["farming"]["mixed"] == 10


# --- Game structure ------------------------------------------------------------------------------------


def test_seventeen_phases_in_the_order_of_12_1(ep: Loaded) -> None:
    phases = list(ep.model.phases)
    assert len(phases) == 17 == ep.exported["settings"]["sequence_of_play"]["phase_count"]
    assert [p.number for p in phases] == list(range(1, 18))
    assert [p.order for p in phases] == [
        "ast_order",
        "ast_order",
        "simultaneous",
        "census_order",
        "census_order",
        "simultaneous",
        "ast_order",
        "ast_order",
        "ast_order",
        "ascending_city_count",
        "simultaneous",
        "ascending_calamity_order",
        "ast_order",
        "ast_order",
        "ast_order",
        "ast_order",
        "simultaneous",
    ]
    special = next(p for p in phases if p.id == "special_abilities")
    assert [a["card"] for a in special.raw["sub_activities"]] == [
        "diaspora",
        "fundamentalism",
        "monotheism",
        "politics",
        "provincial_empire",
        "trade_empire",
        "universal_doctrine",
    ]


def test_taxation_with_monarchy_and_coinage(ep: Loaded) -> None:
    taxation = ep.exported["settings"]["taxation"]
    assert taxation["tokens_per_city"] == 2
    changes = {c["card"]: (c["raise_by"], c["lower_by"]) for c in taxation["rate_changes"]}
    assert changes == {"monarchy": (1, 0), "coinage": (1, 1)}
    assert taxation["rate_changes_combination"]["cumulative"] is True
    assert 2 + sum(up for up, _ in changes.values()) == 4  # 13.2.3: four tokens per city with both


def test_epoch_requirements_of_28_2(ep: Loaded) -> None:
    requirements = {e.id: e.requirements for e in ep.model.epochs}
    assert requirements["stone_age"]["none"] is True
    assert is_unknown(requirements["early_bronze_age"]["criteria"])
    assert is_unknown(requirements["late_bronze_age"]["criteria"])
    assert requirements["early_iron_age"]["min_cities"] == 4
    assert requirements["early_iron_age"]["min_cards_of_value"] == [{"count": 3, "min_value": 100}]
    assert requirements["late_iron_age"]["min_cities"] == 5
    assert requirements["late_iron_age"]["min_cards_of_value"] == [{"count": 3, "min_value": 200}]


def test_victory_points_of_35_1(ep: Loaded) -> None:
    victory = ep.exported["settings"]["victory"]
    scoring = {s["id"]: s for s in victory["scoring"]}
    assert scoring["ast_position"]["points"] == 5
    assert (scoring["advancements_below_100"]["points"], scoring["advancements_below_100"]["card_value_below"]) == (
        1,
        100,
    )
    assert is_unknown(scoring["advancements_100_and_more"]["points"])
    assert scoring["cities"]["points"] == 1
    assert victory["tie"] == "wealth"


def test_players_and_the_civilizations_are_an_explicit_gap(ep: Loaded) -> None:
    assert ep.model.players == (5, 18)
    assert [c.players for c in ep.model.player_counts] == list(range(18, 4, -1))
    assert len(ep.model.nations) == 0 and is_unknown(ep.exported["settings"]["nations"])
    assert ep.exported["settings"]["components"]["nation_sets"] == 18


def test_the_map_is_an_explicit_gap_and_the_packages_build(ep: Loaded, ca: Loaded) -> None:
    for loaded in (ep, ca):
        assert is_unknown(loaded.exported["settings"]["not_in_sources"]["map"])
        assert loaded.exported["areas"] == [] and loaded.exported["borders"] == []
        files = render_package(loaded.model, loaded.exported)
        for name, content in files.items():
            if name.endswith(".py"):
                compile(content.decode("utf-8"), name, "exec")


# --- Central America -----------------------------------------------------------------------------------


def test_central_america_has_its_own_27_goods(ca: Loaded) -> None:
    goods = list(ca.model.commodities)
    assert len(goods) == 27
    assert sum(c.count for c in goods if isinstance(c.count, int)) == 173
    assert "total_cards" not in commodities_settings(ca)  # the variant states none: 173 is derived
    assert commodity_total(ca.model) == 173
    for stack in range(1, 10):
        assert len([c for c in goods if c.stack == stack]) == 3
    counts = {c.id: c.count for c in goods}
    assert counts["salt"] == 9 and counts["maize"] == 8 and counts["turquoise"] == 4
    assert all(c.raw.get("source", "").startswith("Central America map variant, item 11") for c in goods)
    sizes = deck_sizes(commodities_settings(ca), {c.id: c.count for c in goods if isinstance(c.count, int)})
    assert sizes == {(9, 9): {"single": 173}}


def test_central_america_is_for_nine_players(ca: Loaded) -> None:
    assert ca.model.players == (9, 9)
    assert [c.players for c in ca.model.player_counts] == [9]
    assert ca.model.extends == "expansion-project"


def test_the_conquistadors(ca: Loaded) -> None:
    forces = ca.exported["settings"]["non_player_forces"]
    assert [f["id"] for f in forces] == ["conquistadors"]
    conquistadors = forces[0]
    assert conquistadors["replaces"] == ["barbarians", "pirates"]
    advancements = [a["card"] for a in conquistadors["advancements"]]
    assert len(advancements) == 13
    known = [a for a in advancements if isinstance(a, str)]
    assert all(a in ca.model.cards for a in known)
    assert [a["name"] for a in conquistadors["advancements"] if is_unknown(a["card"])] == ["Navigazione"]
    assert is_unknown(conquistadors["calamity_card"]["stack"])
    assert {r["id"] for r in conquistadors["rules"]} >= {"card_tribute", "hoard", "gold_ransom", "moves_last"}


def test_every_volcano_erupts_on_the_central_america_map(ep: Loaded, ca: Loaded) -> None:
    base = calamity(ep, "volcano_earthquake")
    variant = calamity(ca, "volcano_earthquake")
    assert base["primary"][0]["where"] == "areas_touched_by_volcano"
    assert variant["primary"][0]["where"] == "areas_touched_by_every_volcano"
    assert variant["primary"][0]["rule"] == "29.2.1.7"
    assert any("item 8" in a["source"] for d in variant["disagreements"] for a in d["alternatives"])
    # the rest of the calamity, and the other 23, are the Expansion Project's
    assert [c["id"] for c in ca.exported["calamities"]] == [c["id"] for c in ep.exported["calamities"]]
    assert variant["modifiers"] == base["modifiers"]


# --- The names a credit's rule prints for an unnamed target ---------------------------------------------

#: The extra credits whose rule names a target that no passage names with its section (30.x.1): the
#: giver, the rule, the card the credit is wired to (by alphabetical position only), the name the
#: rule prints and the points.
NAMED_TARGETS = (
    ("drama_and_poetry", "30.16.1", "advancement_30_44", "Rhetoric", 10),
    ("advancement_30_25", "30.25.1", "advancement_30_27", "Mathematics", 20),
    ("mysticism", "30.36.1", "advancement_30_34", "Monument", 10),
    ("mythology", "30.37.1", "advancement_30_25", "Literacy", 10),
)


def test_a_credit_keeps_the_name_its_rule_prints_for_an_unnamed_target(ep: Loaded) -> None:
    from civrules_rulesets.expansion_project.data import CARDS  # the committed package, kept current

    by_id = {card["id"]: card for card in ep.exported["civilization_cards"]}
    sheets = render_sheets(ep.model, "0" * 64)
    chart, cards = sheets["credit-table.html"].decode(), sheets["cards.html"].decode()
    for giver, rule, target, name, points in NAMED_TARGETS:
        (written,) = [c for c in by_id[giver]["credits"] if c.get("card") == target]
        assert written["target_name"] == {"text": name, "rule": rule} and written["rule"] == rule
        assert isinstance(ep.model.cards.by_id[target].name, Unknown)  # the card itself stays unnamed
        (line,) = [line for line in CARDS[giver].credits or () if line.card == target]
        assert (line.target_name, line.points, line.extra) == (name, points, True)
        section = target.removeprefix("advancement_").replace("_", ".")
        assert f'<td class="cards">{name} (unnamed {section}) {points} extra</td>' in chart
        assert f"<li>{points} to {name} (unnamed {section}) (extra)</li>" in cards
    # no credit line names a target only by its section where its rule prints a name
    assert '<td class="cards">unnamed (' not in chart and "to unnamed (" not in cards


def test_central_america_keeps_no_block_bonus_band_for_counts_it_never_seats(ca: Loaded) -> None:
    """The Expansion Project's bonus bands (12-15, 16-18 players, 26.3.3-26.3.4) cannot apply to a
    nine-player game; inherited, each was a band outside the ruleset's players (P007)."""
    from civrules_rulesets.central_america.data import BLOCK_BONUSES
    from tests.rulefiles import CachedWorkspace

    assert "non_native_block_bonus" not in commodities_settings(ca) and ca.model.block_bonuses == ()
    assert BLOCK_BONUSES == ()
    name = "rulesets/central-america.yaml"
    text = (REPO / "rules" / name).read_text(encoding="utf-8")
    assert text.count("    non_native_block_bonus: null\n") == 1
    workspace = CachedWorkspace({name: text.replace("    non_native_block_bonus: null\n", "")})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["central-america"]))
    found = [d.message for d in analysis.diagnostics if d.code == "P007"]
    assert found == [
        "the block-bonus band for 12-15 players reaches beyond the 9-9 players the ruleset is for",
        "the block-bonus band for 16-18 players reaches beyond the 9-9 players the ruleset is for",
    ]
