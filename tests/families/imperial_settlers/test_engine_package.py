"""The generated packages of Imperial Settlers as an engine uses them: the rulebook's worked examples,
the compiler's own answers (civrules.families.imperial_settlers.rules), unknown facts and misspelt
ids refused, one engine for every ruleset of the family, and an installable distribution."""

from __future__ import annotations

import doctest
import itertools
import os
import shutil
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from civrules.families.imperial_settlers import rules
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.model import Unknown
from tests.conftest import REPO, distribution_folder
from tests.rulefiles import shipped_analysis

GENERATED = REPO / "generated" / "python"
PIP = (sys.executable, "-m", "pip")
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    imperial_settlers,
    imperial_settlers_advanced_lookout,
    imperial_settlers_alternative_lookout,
    imperial_settlers_peaceful,
)
from civrules_rulesets.imperial_settlers import helpers as imperial_settlers_helpers  # noqa: E402
from civrules_runtime import OutOfDomainError  # noqa: E402
from civrules_runtime_imperial_settlers import (  # noqa: E402
    RazeTarget,
    RulesetPackage,
    UnknownFactError,
    UnknownIdError,
    logic,
)
from civrules_runtime_imperial_settlers.records import CountedGoods, Scoring  # noqa: E402

IS = imperial_settlers
#: Typed as the protocol: mypy --strict (the project's) checks that every package satisfies it.
PACKAGES: dict[str, RulesetPackage] = {
    "imperial-settlers": imperial_settlers,
    "imperial-settlers-peaceful": imperial_settlers_peaceful,
    "imperial-settlers-alternative-lookout": imperial_settlers_alternative_lookout,
    "imperial-settlers-advanced-lookout": imperial_settlers_advanced_lookout,
}


@cache
def model(ruleset_id: str) -> ImperialSettlersRuleset:
    analysis = shipped_analysis(ruleset_id)
    assert analysis.ok and isinstance(analysis.model, ImperialSettlersRuleset)
    return analysis.model


# --- The rulebook's worked examples ------------------------------------------------------------


def test_building_costs_of_the_rulebook() -> None:
    """p8: the Armazém de Madeira costs 2 wood and 1 stone; the Altar Sombrio a location, 1 wood and
    2 stone; the Torre de Guarda 2 wood and the Moinho (a location)."""
    assert IS.can_pay(IS.CardId.COM003, ["wood", "wood", "stone"])
    assert IS.missing_to_pay("com003", ["wood", "stone"]) == {"wood": 1}
    assert IS.can_pay("bar014", {"location": 1, "wood": 1, "stone": 2})
    assert not IS.can_pay("bar014", {"wood": 1, "stone": 2})  # no location to discard
    assert IS.can_pay("bar012", ["wood", "wood", "location"])


def test_gold_stands_in_for_any_resource_but_not_the_reverse() -> None:
    """p3 and p10: gold may be used in place of wood, stone or food; never the reverse, nor for a location."""
    assert IS.can_pay("com003", ["gold", "gold", "gold"])
    assert IS.can_pay("com003", ["wood", "gold", "stone"])
    assert not IS.can_pay("bar012", ["gold", "gold", "gold"])  # gold is no location
    assert IS.missing_to_pay("com003", ["wood", "gold"]) == {"stone": 1}
    assert not IS.GOODS["wood"].stands_for and IS.GOODS["gold"].stands_for == ("food", "wood", "stone")


def test_the_price_of_a_raze() -> None:
    """p9: 1 raze token razes a card from the hand, 2 an opponent's location; p7: a defence token
    adds 1; p11: a Samurai adds 1."""
    assert IS.raze_price(RazeTarget.CARD_IN_HAND) == 1
    assert IS.raze_price("raze_opponent_location") == 2
    assert IS.raze_price("raze_opponent_location", defence=1) == 3
    assert IS.raze_price("raze_opponent_location", defence=1, samurai=1) == 4
    assert IS.CARDS["com003"].spoils == ("wood", "wood")  # p9: razing the Armazém de Madeira gives 2 wood


def test_razing_the_armeiro_gives_what_the_rulebook_s_example_gives() -> None:
    """p9, "Exemplo de Pilhagem no Local de um oponente": Luis razes Igor's Armeiro with 2 raze
    tokens and takes 2 stone and 1 VP. The razing steps give the spoils area's goods and nothing
    else, so those are the Armeiro's spoils (the transcription's one stone and a VP is recorded as
    the alternative: the rulebook is primary)."""
    assert IS.raze_price("raze_opponent_location") == 2
    assert IS.CARDS["com018"].spoils == ("stone", "stone", "vp")


def test_eight_workers_give_four_goods() -> None:
    """p10: 'Luis descarta 8 trabalhadores e pega 1 Madeira, compra 2 cartas Comuns e 1 carta de Facção'."""
    assert IS.worker_exchange(8) == 4
    assert IS.worker_exchange(7) == 3
    assert set(IS.ACTIONS["spend_workers"].gives_one_of) == {"food", "wood", "stone", "card"}


def test_the_production_example() -> None:
    """p6: the Japanese board, a worker deal and a gold deal, the Armeiro (1 raze) and the Campos do
    Lorde (1 food, a card the sources do not single out) give 5 workers, 1 wood, 2 raze, 1 defence,
    1 gold and 1 food."""
    found = Counter(IS.production("japanese", deals=["worker", "gold"], locations=["com018"]))
    found["food"] += 1  # the Campos do Lorde
    assert found == Counter(worker=5, wood=1, raze=2, defence=1, gold=1, food=1)
    assert dict(IS.production("japanese")) == {"defence": 1, "raze": 1, "wood": 1, "worker": 4}
    assert IS.FACTIONS["japanese"].storage == ("food",)  # p7: the Japanese may keep any food


def test_a_production_per_location_of_a_colour_counts_the_card_itself_up_to_its_limit() -> None:
    """p11/esclarecimentos-gerais and p15: a location that gives goods per location of a colour
    counts the player's locations of that colour, itself included where its colour matches; com025
    gives 1 food per red location, at most 3 (the transcription's HAS_RED_3_MAX). The locations
    of other kinds count for their colour and produce nothing themselves."""
    board = Counter(IS.production("romans"))

    def extra(*locations: str) -> Counter[str]:
        return Counter(IS.production("romans", locations=locations)) - board  # type: ignore[arg-type]

    assert extra("com025") == {"food": 1}  # itself, the only red location
    assert extra("com025", "com023") == {"food": 3}  # 2 (itself and the field) and the field's 1
    assert extra("com025", "com023", "com023", "com075", "com082") == {"food": 5}  # 5 red: 3, and 2 fields
    assert extra("com003") == {}  # an ability location: nothing of its own
    assert extra("com029", "com003") == {"wood": 2}  # com029 counts the brown ability location and itself
    assert extra("com029", "com025") == {"wood": 1, "food": 1}  # each its own colour


def test_the_castelo_do_daimio_scores_with_samurai() -> None:
    """p14: Samurai score with the Castelo do Daimiô (jap009): 1 VP per Samurai, at most 3 (the
    transcription's HAS_SAMURAI_3_MAX); p11: a Samurai guards a faction location, 1 at most on each,
    so the empire's faction locations bound the Samurai."""
    board = Counter(IS.production("japanese"))

    def extra(locations: list[str], samurai: int) -> Counter[str]:
        return Counter(IS.production("japanese", locations=locations, samurai=samurai)) - board  # type: ignore[arg-type]

    assert extra(["jap009"], 0) == {}
    assert extra(["jap009"], 1) == {"vp": 1}
    assert extra(["jap009", "jap008", "jap013"], 3) == {"vp": 3}
    assert extra(["jap009", "jap008", "jap013", "jap015"], 4) == {"vp": 3}  # at most 3
    assert extra(["jap009", "jap009", "jap008"], 3) == {"vp": 6}  # each copy counts them
    assert extra(["jap008", "jap013"], 2) == {}  # Samurai without the castle score nothing
    with pytest.raises(OutOfDomainError, match=r"samurai=2 .*: 0 to 1"):
        IS.production("japanese", locations=["jap009", "com025"], samurai=2)  # 1 faction location
    with pytest.raises(OutOfDomainError, match=r"samurai=-1 "):
        IS.production("japanese", samurai=-1)
    # Samurai are the Japanese special rule (p11): the Romans have none, whatever they built.
    with pytest.raises(OutOfDomainError, match=r"samurai=1 .*no `samurai` special rule"):
        IS.production("romans", locations=["rom001"], samurai=1)
    assert IS.production("romans", locations=["rom001"], samurai=0) == IS.production("romans", locations=["rom001"])
    # at most one Samurai guards a location (p11): a raze meets at most one
    with pytest.raises(OutOfDomainError, match=r"samurai=2 .*: 0 to 1"):
        IS.raze_price("raze_opponent_location", samurai=2)


def test_a_build_bonus_per_location_of_a_colour_is_a_record_an_engine_counts_with() -> None:
    """p11/p15: the build bonus of com001 is 1 VP per grey location, the card itself counted, at
    most 6, and a card (the transcription's HAS_GRAY_6_MAX_AND_GET_CARD)."""
    bonus = IS.CARDS["com001"].build_bonus
    assert isinstance(bonus, CountedGoods)
    assert (bonus.each, bonus.per, bonus.colour, bonus.at_most, bonus.plus) == ("vp", "colour", "grey", 6, ("card",))
    assert bonus.given(1) == ("vp", "card")
    assert bonus.given(8) == ("vp",) * 6 + ("card",)
    samurai = IS.CARDS["jap009"].production
    assert isinstance(samurai, CountedGoods) and (samurai.per, samurai.colour) == ("samurai", None)
    with pytest.raises(OutOfDomainError, match=r"count=-1 "):
        bonus.given(-1)


def test_building_the_torre_de_guarda_gives_what_the_rulebook_s_example_gives() -> None:
    """p8, "Exemplo de Construção de Local": Luis (the Barbarians) builds the Torre de Guarda, a
    production location, and "recebe 1 Ficha de Pilhagem e 1 Trabalhador imediatamente, já que
    Locais de Produção também fornecem seus Bens assim que são construídos" (Nota 1)."""
    assert IS.build_gains("barbarians", IS.CardId.BAR012, ["com003"]) == {"raze": 1, "worker": 1}
    assert IS.build_gains("barbarians", "bar012") == IS.build_gains("barbarians", "bar012", ["bar001", "com029"])


def test_building_gives_the_production_the_build_bonus_or_both() -> None:
    """p8, "Construir um local": a production location gives its production at once (Nota 1), a
    build bonus gives its goods once (Nota 2), a production location with a build bonus both (Nota 3);
    a location with neither gives nothing when built."""
    assert IS.build_gains("romans", "com008") == {"stone": 2}  # produces 1 stone, and a bonus of 1 stone
    assert IS.build_gains("romans", "com012") == {"worker": 2}  # 1 worker each
    assert IS.build_gains("japanese", "jap026") == {}  # Ninjas: its bonus goes on faction locations (p11)
    assert IS.build_gains("romans", "com002") == {}  # an ability location without a bonus
    assert IS.build_gains("egyptians", "egy001") == {"card": 2}


def test_the_ninjas_bonus_is_two_workers_placed_at_once_as_samurai() -> None:
    """p11, JAP026 Ninjas: "Bônus de construção: 2 [workers] para ser usado imediatamente como
    Samurai"; "Os Japoneses": "Caso o jogador tenha apenas um Local de Facção onde possa posicionar
    um Samurai, o segundo é descartado". The workers go on faction locations (at most 1 Samurai on
    each, p11 "Posicionando Samurais"), never to the supply; what finds no place is discarded."""
    ninjas = IS.CARDS["jap026"]
    assert ninjas.build_bonus == ("worker", "worker") and ninjas.build_bonus_placed_as == "samurai"
    assert IS.build_gains("japanese", "jap026") == {}
    # the rulebook's case: the Ninjas are the only faction location, so the second is discarded
    assert IS.build_samurai("japanese", "jap026") == 1
    assert IS.build_samurai("japanese", "jap026", ["jap008"]) == 2
    assert IS.build_samurai("japanese", "jap026", ["jap008", "jap013", "jap015"]) == 2  # 2, never more
    assert IS.build_samurai("japanese", "jap026", ["jap008"], samurai=1) == 1  # one place left
    assert IS.build_samurai("japanese", "jap026", ["com003", "com008"]) == 1  # common locations take none
    assert IS.build_samurai("japanese", "jap008") == 0  # a bonus for the supply, or none: no Samurai
    assert IS.build_samurai("romans", "com008") == 0
    with pytest.raises(OutOfDomainError, match=r"samurai=2 .*: 0 to 1$"):
        IS.build_samurai("japanese", "jap026", samurai=2)
    model_ = model("imperial-settlers")
    assert rules.build_samurai(model_, "japanese", "jap026") == 1
    assert rules.build_samurai(model_, "japanese", "jap026", ["jap008"]) == 2
    assert rules.build_gains(model_, "japanese", "jap026") == Counter()


def test_a_gain_per_location_of_a_colour_counts_the_card_built() -> None:
    """p11 "Esclarecimentos gerais" and p15 "Lembre-se": a location giving goods per location of a
    colour counts itself where its colour matches; com001's bonus is 1 VP per grey location (at most
    6) and a card; com025 produces 1 food per red location (at most 3) when built too (p8)."""
    assert IS.build_gains("romans", "com001") == {"vp": 1, "card": 1}  # itself, the only grey one
    assert IS.build_gains("romans", "com001", ["com008", "com008", "com003"]) == {"vp": 3, "card": 1}
    assert IS.build_gains("romans", "com025") == {"food": 1}
    assert IS.build_gains("romans", "com025", ["com023", "com023", "com075"]) == {"food": 3}  # 4 red: at most 3
    # Samurai count for a gain per Samurai: the Castelo do Daimiô (p14), on the empire's faction locations
    assert IS.build_gains("japanese", "jap009", ["jap008"], samurai=2) == {"vp": 2}


def test_building_checks_the_empire_as_production_does() -> None:
    """The card built is one of the empire's: the faction's own deck or the common one, no more
    copies than the game has, the Samurai no more than its faction locations hold (p11)."""
    with pytest.raises(OutOfDomainError, match=r"'rom001' is a card of the romans deck: the 'japanese' empire"):
        IS.build_gains("japanese", "rom001")
    with pytest.raises(OutOfDomainError, match=r"'bar012' is listed 3 times in locations and card: .*2 copies"):
        IS.build_gains("barbarians", "bar012", ["bar012", "bar012"])
    with pytest.raises(OutOfDomainError, match=r"samurai=3 .*: 0 to 2$"):
        IS.build_gains("japanese", "jap009", ["jap008", "com003"], samurai=3)
    with pytest.raises(OutOfDomainError, match=r"samurai=1 .*no `samurai` special rule"):
        IS.build_gains("romans", "rom001", samurai=1)
    with pytest.raises(UnknownIdError, match=r"no card 'com0011'"):
        IS.build_gains("romans", "com0011")  # type: ignore[arg-type]  # misspelt on purpose
    with pytest.raises(UnknownIdError, match=r"no faction 'roman'"):
        IS.build_gains("roman", "com001")  # type: ignore[arg-type]
    # The compiler's own answer checks the empire's Samurai as the package does, for gains as for
    # Samurai placed (round 24's build_gains read any number of Samurai as held).
    model_ = model("imperial-settlers")
    for answer in (rules.build_gains, rules.build_samurai):
        with pytest.raises(ValueError, match=r"^3 Samurai on 2 faction locations: at most 2$"):
            answer(model_, "japanese", "jap009", ["jap008", "com003"], 3)
        with pytest.raises(ValueError, match=r"^1 Samurai on 1 faction locations: at most 0$"):
            answer(model_, "romans", "rom001", (), 1)
    assert rules.build_gains(model_, "japanese", "jap009", ["jap008"], samurai=2) == Counter({"vp": 2})


def test_building_a_location_whose_production_is_unknown_gives_the_data_s_why() -> None:
    """com016's production is unknown (the transcription's PRODUCE_ANOTHER_PRODUCTION): building it
    gives it (p8, Nota 3: its bonus of a card too), so what building it gives is unknown, and said
    with the data's why; an engine that assumes a production gets both."""
    from civrules_runtime_imperial_settlers import Assumptions

    why = {fact.field: fact.reason for fact in IS.UNKNOWN_FACTS}["cards[com016].production"]
    with pytest.raises(UnknownFactError) as refused:
        IS.build_gains("romans", "com016")
    assert str(refused.value) == f"the sources do not give what 'com016' produces: {why}"
    assumed = IS.assuming(Assumptions(card_productions={"com016": ["wood"]}, why="a table's agreement"))
    assert assumed.build_gains("romans", "com016") == {"wood": 1, "card": 1}
    assert assumed.build_gains("romans", "com008") == IS.build_gains("romans", "com008")


def test_the_score_of_a_board() -> None:
    """p7: each common location is worth 1 VP, each faction location 2, added to the VP of the game."""
    assert IS.board_score(0, 0) == 0
    assert IS.board_score(4, 3, vp=20) == 30


@pytest.mark.parametrize(
    ("score", "level"),
    [
        (0, "plebeu"),
        (29, "plebeu"),
        (30, "servo"),
        (49, "escudeiro"),
        (79, "rei"),
        (80, "imperador"),
        (120, "imperador"),
    ],
)
def test_the_solo_achievement_of_a_score(score: int, level: str) -> None:
    """p14, Tabela de Conquistas: <30 Plebeu, 30+ Servo, 40+ Escudeiro ... 80+ Imperador."""
    assert IS.solo_achievement(score).id == level
    assert IS.solo_achievement(score).name is not None


def test_the_decks_hold_their_30_and_84_cards() -> None:
    """p2 and p5: four faction decks of 30 cards and a common deck of 84, each copy with its printed id."""
    assert {deck: len(IS.deck(deck)) for deck in IS.DeckId} == {
        "barbarians": 30,
        "romans": 30,
        "japanese": 30,
        "egyptians": 30,
        "common": 84,
    }
    assert IS.deck("barbarians")[:3] == ("BAR001", "BAR002", "BAR003")
    assert IS.card_of("BAR002").id == "bar001" and IS.card_of("BAR002").copies == 3
    assert sum(IS.CARDS[IS.PRINTED_IDS[p]].copies > 0 for p in IS.deck("common")) == 84


def test_a_name_in_another_language_is_never_the_name() -> None:
    card = IS.CARDS["bar001"]
    assert card.name is None and card.source_name is not None and card.source_name.language == "cs"
    assert IS.CARDS["bar012"].name == "Torre de Guarda"


def test_the_peaceful_variant_forbids_razing_a_location_and_changes_the_lookout() -> None:
    """p12, Variante Pacífica."""
    peaceful = imperial_settlers_peaceful
    assert IS.ACTIONS["raze_opponent_location"].allowed
    assert not peaceful.ACTIONS["raze_opponent_location"].allowed
    assert peaceful.raze_price("raze_card_in_hand") == 1
    assert peaceful.PHASES["lookout"].steps[0] != IS.PHASES["lookout"].steps[0]


# --- The compiler's own answers ----------------------------------------------------------------

HANDS = [
    [],
    ["wood"],
    ["gold"],
    ["wood", "wood", "stone"],
    ["gold", "gold", "stone", "location"],
    ["wood", "stone", "stone", "location"],
    ["food", "gold", "wood", "wood", "stone", "stone", "stone", "location"],
]


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_the_package_answers_as_the_compiler(ruleset: str) -> None:
    package, ruled = PACKAGES[ruleset], model(ruleset)
    for card, hand in itertools.product(ruled.cards, HANDS):
        assert package.can_pay(card.id, hand) == rules.can_pay(ruled, card.id, hand), (card.id, hand)
        assert dict(package.missing_to_pay(card.id, hand)) == dict(rules.missing_to_pay(ruled, card.id, hand))
    for action, defence, samurai in itertools.product(("raze_card_in_hand", "raze_opponent_location"), (0, 2), (0, 1)):
        expected = rules.raze_price(ruled, action, defence, samurai)
        assert package.raze_price(action, defence, samurai) == expected  # type: ignore[arg-type]
    for workers in range(10):
        assert package.worker_exchange(workers) == rules.worker_exchange(ruled, workers)
    for score in range(0, 100, 5):
        assert package.solo_achievement(score).id == rules.solo_achievement(ruled, score).id
    for common, factions in itertools.product(range(4), range(4)):
        assert package.board_score(common, factions, 7) == rules.board_score(ruled, common, factions, 7)
    for faction in ruled.factions:
        producing = [
            c.id
            for c in ruled.cards
            if c.kind == "production" and isinstance(c.production, tuple) and c.deck in ("common", faction.deck)
        ][:3]
        assert Counter(package.production(faction.id, ["worker"], producing)) == rules.production(
            ruled, faction.id, ["worker"], producing
        )
        # A whole empire: every location the faction may build whose production is known, so that
        # each production per location of a colour counts past its limit, and Samurai on two.
        empire = [
            c.id
            for c in ruled.cards
            if c.deck in ("common", faction.deck) and (c.kind != "production" or c.production is not None)
            if not isinstance(c.production, Unknown)
        ]
        guards = any(rule.id == "samurai" for rule in faction.special_rules)  # the Japanese (p11)
        for samurai in (0, 2) if guards else (0,):
            assert Counter(package.production(faction.id, [], empire, samurai)) == rules.production(
                ruled, faction.id, [], empire, samurai
            )
        if not guards:
            with pytest.raises(OutOfDomainError, match=r"no `samurai` special rule"):
                package.production(faction.id, [], empire, 1)
        # What building each location gives (p8), in an empire of a few locations of several colours.
        held = empire[::7][:6]
        for card in ruled.cards:
            if card.id not in empire or isinstance(card.build_bonus, Unknown) or held.count(card.id) >= card.copies:
                continue
            gains = rules.build_gains(ruled, faction.id, card.id, held)
            assert Counter(package.build_gains(faction.id, card.id, held)) == gains, card.id
            placed = rules.build_samurai(ruled, faction.id, card.id, held)
            assert package.build_samurai(faction.id, card.id, held) == placed, card.id
        others = [c.id for c in ruled.cards if c.kind == "production" and c.deck not in ("common", faction.deck)]
        with pytest.raises(OutOfDomainError, match=r"builds only common cards and its own deck's"):
            package.production(faction.id, [], others[:1])  # another faction's location is not in this empire


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_card_and_deck_of_the_model_reaches_the_package(ruleset: str) -> None:
    package, ruled = PACKAGES[ruleset], model(ruleset)
    assert set(package.CARDS) == {c.id for c in ruled.cards}
    for card in ruled.cards:
        record = package.CARDS[card.id]
        assert (record.kind, record.colours, record.printed_ids, record.copies) == (
            card.kind,
            card.colours,
            card.printed_ids,
            card.copies,
        )
        assert record.cost == card.cost and record.spoils == card.spoils and record.deal == card.deal
        assert record.name == (card.name if isinstance(card.name, str) else None)
    assert {f.id: f.production for f in package.FACTIONS.values()} == {f.id: f.production for f in ruled.factions}


# --- Unknown facts, misspelt ids ---------------------------------------------------------------


def test_a_misspelt_id_is_an_error_naming_the_closest() -> None:
    with pytest.raises(UnknownIdError, match=r"no card .com03.*did you mean"):
        IS.can_pay("com03", ["wood"])  # type: ignore[arg-type]  # misspelt on purpose: refused at run time too
    with pytest.raises(UnknownIdError, match="'japanese'"):
        IS.production("japanse")  # type: ignore[arg-type]
    with pytest.raises(KeyError):  # UnknownIdError is a KeyError
        IS.raze_price("raze_everything")  # type: ignore[arg-type]
    with pytest.raises(UnknownIdError):
        IS.deck("comon")  # type: ignore[arg-type]


def test_unknown_facts_raise_unknown_fact_error() -> None:
    """A ruleset without scoring, an achievement table or a board's production answers nothing it
    does not know (the rule logic every package calls)."""
    with pytest.raises(UnknownFactError):
        logic.board_score(None, 1, 1)
    with pytest.raises(UnknownFactError):
        logic.board_score(Scoring(1, None), 1, 1)
    with pytest.raises(UnknownFactError):
        logic.solo_achievement(None, 40)
    with pytest.raises(UnknownFactError):
        logic.worker_exchange({}, 4)
    unpriced = {**IS.ACTIONS, "raze_card_in_hand": IS.ACTIONS["raze_card_in_hand"].replace(price={"food": 1})}
    with pytest.raises(UnknownFactError):
        logic.raze_price(unpriced, "raze_card_in_hand")
    with pytest.raises(
        UnknownIdError, match=r"^no raze action 'deal' .*; one of raze_card_in_hand, raze_opponent_location$"
    ):
        logic.raze_price(IS.ACTIONS, "deal")  # an action, but no raze: not a price the sources leave out
    assert IS.UNKNOWN_FACTS and not IS.DRAFT
    IS.require_complete()


def test_the_helpers_doctests_pass() -> None:
    failed, tried = doctest.testmod(imperial_settlers_helpers)
    assert failed == 0 and tried >= 6


# --- An installable distribution --------------------------------------------------------------

ENGINE = """\
from civrules_runtime_imperial_settlers import RulesetPackage


def summary(rules: RulesetPackage) -> tuple[int, int, bool, int, str]:
    return (
        len(rules.deck("common")),
        rules.raze_price("raze_opponent_location", defence=1),
        rules.can_pay("com003", ["gold", "wood", "stone"]),
        rules.board_score(4, 3, vp=20),
        rules.solo_achievement(45).id,
    )


from civrules_rulesets import imperial_settlers
from civrules_rulesets import imperial_settlers_peaceful

print(*summary(imperial_settlers), *summary(imperial_settlers_peaceful))
"""


@pytest.mark.slow
def test_pip_installs_the_packages_that_import_and_type_check(tmp_path: Path) -> None:
    """`pip install generated/python/<package>` (offline: wheels built without isolation, installed
    with --no-index --no-deps into a fresh venv); an engine typed against the family's protocol
    then runs and passes mypy --strict."""
    pytest.importorskip("hatchling")
    pytest.importorskip("mypy")
    dist = tmp_path / "dist"
    for name in (
        "civrules_runtime",
        "civrules_runtime_imperial_settlers",
        "imperial_settlers",
        "imperial_settlers_peaceful",
    ):
        source = shutil.copytree(GENERATED / distribution_folder(name), tmp_path / "src" / name)
        before = sorted(p.name for p in source.iterdir())
        built = subprocess.run(
            [*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(source)],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert built.returncode == 0, built.stderr
        assert sorted(p.name for p in source.iterdir()) == before  # nothing written beside the sources
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    wheels = sorted(str(w) for w in dist.glob("*.whl"))
    installed = subprocess.run(
        [*PIP, "--python", str(python), "install", "-q", "--no-index", "--no-deps", *wheels],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    engine = tmp_path / "engine.py"
    engine.write_text(ENGINE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ran = subprocess.run([str(python), str(engine)], capture_output=True, text=True, env=env, check=False, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["84", "3", "True", "30", "escudeiro"] * 2
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-executable", str(python), "--no-incremental", str(engine)],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=600,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
