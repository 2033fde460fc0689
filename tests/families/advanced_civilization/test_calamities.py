"""Calamities as the rules resolve them: the order of resolution (29.6, Expansion Project 24.7) and
the amounts effects take after the holder's cards (section 30), against the shipped Advanced
Civilization data and the rulebook's numbers."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from civrules.families.advanced_civilization.calamities import AllBut, Role, calamity_amount, resolution_order, together
from civrules.families.advanced_civilization.model import Calamity, Ruleset, of_family
from civrules.load.document import Document
from civrules.model import Collection, Origin, Unknown
from tests.rulefiles import shipped_analysis


@pytest.fixture(scope="module")
def advciv() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


@pytest.fixture(scope="module")
def expansion() -> Ruleset:
    analysis = shipped_analysis("expansion-project")
    assert analysis.model is not None
    return of_family(analysis.model)


def calamity(ruleset: Ruleset, calamity_id: str) -> Calamity:
    found = ruleset.calamities.get(calamity_id)
    assert found is not None
    return found


# --- Order of resolution -----------------------------------------------------------------------


def test_advanced_civilization_has_twelve_calamities_four_of_them_non_tradable(advciv: Ruleset) -> None:
    assert len(advciv.calamities) == 12
    assert [c.id for c in advciv.calamities if c.tradable is False] == [
        "volcano_earthquake",
        "famine",
        "civil_war",
        "flood",
    ]


def test_the_twelve_resolve_by_ascending_stack_non_tradable_first(advciv: Ruleset) -> None:
    # 29.6: "Volcanic Eruption, Treachery, Famine, Superstition, etc.", ending with Piracy
    assert [c.id for c in resolution_order(advciv)] == [
        "volcano_earthquake",
        "treachery",
        "famine",
        "superstition",
        "civil_war",
        "slave_revolt",
        "flood",
        "barbarian_hordes",
        "epidemic",
        "civil_disorder",
        "iconoclasm_and_heresy",
        "piracy",
    ]


def test_the_order_does_not_depend_on_the_order_of_the_data(advciv: Ruleset) -> None:
    assert resolution_order(reversed(advciv.calamities.items)) == resolution_order(advciv)


def synthetic(calamity_id: str, stack: int, tradable: bool | Unknown, severity: str | None = None) -> Calamity:
    origin = Origin(Document("synthetic.yaml", {}), ())
    return Calamity(calamity_id, calamity_id, origin, {}, stack, tradable, severity, (), None, ())


def test_minor_calamities_resolve_before_every_major_one() -> None:
    # Expansion Project 24.7.1-24.7.2: minor ones first, in ascending order; then the major ones
    cards = [
        synthetic("cyclone", 3, True, "major"),
        synthetic("banditry", 9, True, "minor"),
        synthetic("famine", 3, False, "major"),
        synthetic("squandered_wealth", 2, True, "minor"),
    ]
    assert [c.id for c in resolution_order(cards)] == ["squandered_wealth", "banditry", "famine", "cyclone"]


def test_a_calamity_of_unknown_trade_status_comes_last_in_its_stack() -> None:
    cards = [
        synthetic("unsure", 4, Unknown("not in the sources")),
        synthetic("revolt", 4, True),
        synthetic("war", 4, False),
    ]
    assert [c.id for c in resolution_order(cards)] == ["war", "revolt", "unsure"]


# --- Civil War (30.41) -------------------------------------------------------------------------

BONUS_CARDS = ("music", "drama_and_poetry", "democracy")


def first_faction(ruleset: Ruleset, held: set[str]) -> int:
    war = calamity(ruleset, "civil_war")
    by_victim = calamity_amount(war, "first_faction_by_primary", held, "primary").value
    by_beneficiary = calamity_amount(war, "first_faction_by_beneficiary", held, "primary").value
    assert by_victim is not None
    assert by_beneficiary is not None
    return by_victim + by_beneficiary


@pytest.mark.parametrize(
    "held",
    [set(combo) for n in range(len(BONUS_CARDS) + 1) for combo in itertools.combinations(BONUS_CARDS, n)],
    ids=lambda held: "+".join(sorted(held)) or "none",
)
def test_the_primary_victim_selects_15_plus_his_card_bonuses(advciv: Ruleset, held: set[str]) -> None:
    # 30.4121-30.4122: 15, +5 Music, +5 Drama and Poetry, +10 Democracy, cumulative
    bonus = {"music": 5, "drama_and_poetry": 5, "democracy": 10}
    war = calamity(advciv, "civil_war")
    assert calamity_amount(war, "first_faction_by_primary", held, "primary").value == 15 + sum(
        bonus[card] for card in held
    )
    # 30.4123: the beneficiary then adds 20, whatever the victim holds
    assert calamity_amount(war, "first_faction_by_beneficiary", held, "primary").value == 20


def test_the_first_faction_is_35_to_55_unit_points(advciv: Ruleset) -> None:
    sizes = [
        first_faction(advciv, set(combo))
        for n in range(len(BONUS_CARDS) + 1)
        for combo in itertools.combinations(BONUS_CARDS, n)
    ]
    # 15 + 20 with no card, 15 + 5 + 5 + 10 + 20 with all three. The "35 to 50 unit points"
    # leaves out one of the bonuses: the rulebook's maximum is 55.
    assert (min(sizes), max(sizes)) == (35, 55)


def test_philosophy_makes_the_first_faction_15_chosen_by_the_beneficiary(advciv: Ruleset) -> None:
    # 30.4124: "regardless of any other civilization cards held by the primary victim"
    for others in ((), BONUS_CARDS):
        assert first_faction(advciv, {"philosophy", *others}) == 15
    war = calamity(advciv, "civil_war")
    overridden = calamity_amount(war, "first_faction_by_primary", {"philosophy", "democracy"}, "primary")
    assert [m.card for m in overridden.superseded] == ["democracy"]


def test_military_adds_a_loss_per_faction_without_changing_the_selection(advciv: Ruleset) -> None:
    # 30.414: five unit points removed from each faction after the factions are selected
    war = calamity(advciv, "civil_war")
    amount = calamity_amount(war, "first_faction_by_primary", {"military"}, "primary")
    assert amount.value == 15
    assert amount.additions == ()
    beneficiary = calamity_amount(war, "first_faction_by_beneficiary", {"military"}, "primary")
    assert beneficiary.value == 20 and beneficiary.additions == ()


def additions_over(war: Calamity, held: set[str], role: Role = "primary") -> list[tuple[object, ...]]:
    """Every separate loss a holder of ``held`` takes, walking the calamity's effects one by one as
    an engine applying each effect would."""
    return [
        (effect.id, m.card, m.amount, m.per_kind)
        for effect in war.effects_of(role)
        for m in calamity_amount(war, str(effect.id), held, role).additions
    ]


def test_a_civil_war_with_military_costs_each_faction_five_unit_points_once(advciv: Ruleset) -> None:
    """30.414 and 32.832: one removal of five unit points from each faction, once both factions are
    chosen; an engine applying each effect of Civil War in turn takes it once, not once per effect."""
    war = calamity(advciv, "civil_war")
    assert additions_over(war, {"military"}) == [("faction_annexed", "military", 5, "faction")]
    assert additions_over(war, {"military", "philosophy", "music"}) == [("faction_annexed", "military", 5, "faction")]
    assert additions_over(war, set()) == []


def test_a_loss_on_effects_that_exclude_each_other_is_taken_once(expansion: Ruleset) -> None:
    """Urbanism's four unit points (Expansion Project 29.2.1.3) go with the eruption and the
    earthquake of each side: one or the other takes place (29.2.1.1-29.2.1.2), never both, so the
    loss is taken once. Were the two under the same condition, it would be taken twice."""
    volcano = calamity(expansion, "volcano_earthquake")
    urbanism = next(m for m in volcano.modifiers if m.card == "urbanism")
    assert together(volcano, urbanism) == {}
    same = tuple(
        dataclasses.replace(e, condition="primary_has_city_touched_by_volcano") if e.id == "earthquake" else e
        for e in volcano.effects
    )
    clashing = together(dataclasses.replace(volcano, effects=same), urbanism)
    assert {side: [e.id for e in effects] for side, effects in clashing.items()} == {
        "primary": ["eruption", "earthquake"]
    }
    # without `modifies`, on three effects of the primary victim, one under a condition and two under
    # its complement: the two take place together; the secondary victims' two exclude each other
    earthquake = next(e for e in volcano.effects if e.id == "earthquake")
    aftershock = dataclasses.replace(earthquake, id="aftershock", index=2)
    three = dataclasses.replace(volcano, effects=(*volcano.effects, aftershock))
    clashing = together(three, dataclasses.replace(urbanism, modifies=()))
    assert {side: [e.id for e in effects] for side, effects in clashing.items()} == {
        "primary": ["earthquake", "aftershock"]
    }


def test_the_expansion_projects_three_war_cards_cost_each_faction_five_each_once(expansion: Ruleset) -> None:
    """Expansion Project 29.4.1.6: five unit points from each faction for each of Military, Naval
    Warfare and Advanced Military held, removed once the factions are selected."""
    war = calamity(expansion, "civil_war")
    cards = ["military", "naval_warfare", "advanced_military"]
    assert additions_over(war, set(cards)) == [("faction_annexed", card, 5, "faction") for card in cards]
    assert additions_over(war, {"naval_warfare"}) == [("faction_annexed", "naval_warfare", 5, "faction")]


# --- Epidemic (30.61) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "primary", "secondary"),
    [
        (set(), 16, 10),
        ({"medicine"}, 8, 5),  # 30.613: -8 as primary victim, -5 as secondary
        ({"roadbuilding"}, 21, 15),  # 30.614: +5 either way
        ({"medicine", "roadbuilding"}, 13, 10),  # 30.615: cumulative
    ],
)
def test_epidemic_losses_with_medicine_and_roadbuilding(
    advciv: Ruleset, held: set[str], primary: int, secondary: int
) -> None:
    epidemic = calamity(advciv, "epidemic")
    assert calamity_amount(epidemic, "epidemic_primary", held, "primary").value == primary
    # a secondary victim loses at most 10 (30.611) before his own cards change it
    assert calamity_amount(epidemic, "epidemic_secondary", held, "secondary").value == secondary


def test_a_secondary_victims_cards_change_the_share_he_was_allotted(advciv: Ruleset) -> None:
    epidemic = calamity(advciv, "epidemic")
    with_medicine = calamity_amount(epidemic, "epidemic_secondary", {"medicine"}, "secondary")
    assert (with_medicine.loss(7), with_medicine.loss(3)) == (2, 0)
    with_roads = calamity_amount(epidemic, "epidemic_secondary", {"roadbuilding"}, "secondary")
    assert with_roads.loss(10) == 15


def test_the_role_must_be_the_side_of_the_effect(advciv: Ruleset) -> None:
    epidemic = calamity(advciv, "epidemic")
    with pytest.raises(ValueError, match="primary"):
        calamity_amount(epidemic, "epidemic_primary", {"medicine"}, "secondary")
    with pytest.raises(KeyError):
        calamity_amount(epidemic, "plague", set(), "primary")


# --- Civil Disorder (30.71) --------------------------------------------------------------------

EVERY_CIVIL_DISORDER_CARD = {"music", "drama_and_poetry", "law", "democracy", "military", "roadbuilding"}


@pytest.mark.parametrize(
    ("held", "cities", "reduced"),
    [
        (set(), 9, 6),  # 30.711: all but three
        ({"music"}, 9, 5),  # 30.712: one fewer for each of Music, Drama and Poetry, Law, Democracy
        ({"music", "drama_and_poetry", "law", "democracy"}, 9, 2),
        ({"military"}, 9, 7),  # 30.713: one more
        ({"military", "roadbuilding"}, 9, 8),  # 30.714: one more
        (EVERY_CIVIL_DISORDER_CARD, 9, 4),  # 30.715: cumulative, 6 - 4 + 2
        ({"military", "roadbuilding"}, 4, 3),
        ({"military"}, 3, 1),  # none of three reduced, one more with Military
        # Fewer than three cities: 30.711 reduces none, and 30.713 still adds one ("the number ...
        # reduced is increased by one"; the Gamer's Guide: Military "cost[s] an additional city").
        ({"military"}, 2, 1),
        ({"music", "military"}, 2, 0),  # 30.715: the changes add up first, -1 + 1
        ({"music", "drama_and_poetry", "law", "democracy"}, 5, 0),  # never fewer than none
        ({"military", "roadbuilding"}, 1, 1),  # never more than he has
    ],
)
def test_civil_disorder_with_the_arts_law_democracy_military_and_roadbuilding(
    advciv: Ruleset, held: set[str], cities: int, reduced: int
) -> None:
    disorder = calamity_amount(calamity(advciv, "civil_disorder"), "cities_reduced", held, "primary")
    assert disorder.base == AllBut(3)
    assert disorder.value is None  # it depends on the victim's cities
    assert disorder.loss(cities) == reduced


# --- Superstition (30.32): highest wins --------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "reduced"),
    [
        (set(), 3),
        ({"mysticism"}, 2),
        ({"deism"}, 1),
        ({"enlightenment"}, 0),
        ({"mysticism", "deism"}, 1),  # not 3 - 1 - 2: only the highest level card counts
        ({"mysticism", "enlightenment"}, 0),
        ({"mysticism", "deism", "enlightenment"}, 0),
    ],
)
def test_superstition_takes_the_highest_religion_card_only(advciv: Ruleset, held: set[str], reduced: int) -> None:
    amount = calamity_amount(calamity(advciv, "superstition"), "cities_reduced", held, "primary")
    assert amount.value == reduced
    assert len(amount.applied) == min(1, len(held))


def test_superstition_reports_the_lower_cards_as_superseded(advciv: Ruleset) -> None:
    amount = calamity_amount(calamity(advciv, "superstition"), "cities_reduced", {"mysticism", "deism"}, "primary")
    assert [m.card for m in amount.applied] == ["deism"]
    assert [m.card for m in amount.superseded] == ["mysticism"]


# --- The other modifiers -----------------------------------------------------------------------


def test_famine_losses_fall_by_four_per_grain_card_with_pottery(advciv: Ruleset) -> None:
    famine = calamity(advciv, "famine")
    # 30.312: Pottery, four unit points for each Grain card held, as primary or secondary victim
    assert calamity_amount(famine, "famine_primary", {"pottery"}, "primary", {"grain": 2}).value == 2
    assert calamity_amount(famine, "famine_primary", {"pottery"}, "primary").value == 10
    assert calamity_amount(famine, "famine_secondary", {"pottery"}, "secondary", {"grain": 1}).value == 4


def test_engineering_caps_flood_losses_at_seven(advciv: Ruleset) -> None:
    flood = calamity(advciv, "flood")
    assert calamity_amount(flood, "flood_primary", {"engineering"}, "primary").value == 7
    secondary = calamity_amount(flood, "flood_secondary", {"engineering"}, "secondary")
    assert (secondary.loss(10), secondary.loss(5)) == (7, 5)


def test_engineering_turns_the_earthquake_into_a_reduction_and_shields_neighbours(advciv: Ruleset) -> None:
    quake = calamity(advciv, "volcano_earthquake")
    assert calamity_amount(quake, "earthquake", set(), "primary").kind == "destroy_cities"
    assert calamity_amount(quake, "earthquake", {"engineering"}, "primary").kind == "reduce_cities"
    neighbour = calamity_amount(quake, "earthquake_secondary", {"engineering"}, "secondary")
    assert neighbour.immune
    assert neighbour.value == 0


def test_mining_and_enlightenment_cancel_in_a_slave_revolt(advciv: Ruleset) -> None:
    revolt = calamity(advciv, "slave_revolt")
    assert calamity_amount(revolt, "tokens_withheld", {"mining"}, "primary").value == 20
    assert calamity_amount(revolt, "tokens_withheld", {"mining", "enlightenment"}, "primary").value == 15


def test_a_secondary_victim_loses_at_most_the_per_victim_limit(advciv: Ruleset) -> None:
    """30.311: Famine's 20 unit points, 'no more than eight from any one player'; 30.912: each
    secondary victim of Piracy 'loses only one city'."""
    famine = calamity_amount(calamity(advciv, "famine"), "famine_secondary", set(), "secondary")
    assert (famine.value, famine.loss(20), famine.loss(5)) == (8, 8, 5)
    piracy = calamity_amount(calamity(advciv, "piracy"), "other_coastal_cities_taken", set(), "secondary")
    assert piracy.loss(2) == 1


def test_military_adds_its_loss_to_civil_war(advciv: Ruleset) -> None:
    """30.414: with Military, five unit points of each faction are removed after the selection."""
    amount = calamity_amount(calamity(advciv, "civil_war"), "faction_annexed", {"military"}, "primary")
    assert [(m.card, m.amount) for m in amount.additions] == [("military", 5)]


def test_each_loss_that_goes_with_many_effects_names_those_its_message_shows(advciv: Ruleset) -> None:
    """K018 for n modifiers that add a loss without `modifies`, on a side of n effects: each
    diagnostic is about its calamity and card, and the effects its message shows (the first ten);
    every effect of the side was a subject of each (n² subjects in `--format json` for a file of n
    lines). The effects a modifier names in its own `modifies` are all its subjects."""
    from civrules.families.advanced_civilization.checks.calamities import check_addition_on_one_effect

    war = calamity(advciv, "civil_war")
    first = war.effects_of("primary")[0]
    effects = tuple(dataclasses.replace(first, id=f"e{i}", condition=None) for i in range(40))
    loss = next(m for m in war.modifiers if m.adds)
    free = [dataclasses.replace(loss, card=f"k{i}", modifies=(), applies_to="primary") for i in range(40)]
    named = dataclasses.replace(loss, card="named", modifies=tuple(e.id for e in effects[:25] if e.id))
    broad = dataclasses.replace(war, effects=effects, modifiers=(*free, named))
    only = dataclasses.replace(advciv, calamities=Collection.of("calamities", [broad]))
    found = list(check_addition_on_one_effect(only))
    assert len(found) == 41
    assert {len(d.subjects) for d in found[:40]} == {2 + 10}
    assert found[-1].subjects == ("civil_war", "named", *(f"e{i}" for i in range(25)))
