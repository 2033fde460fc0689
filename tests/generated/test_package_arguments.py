"""Every helper's arguments at run time, in every family: a level, a rank, a count or a flag of
the wrong type or outside the rule is the runtime's OutOfDomainError naming the argument and what
it takes; a value that is no collection where one belongs is NotACollectionError; an unknown id
is UnknownIdError proposing the closest id ("did you mean"), or naming the first ids when none is
close. Never a raw TypeError from inside the package, a truthy string taken for True, or a level
that does not exist reported as a fact the sources leave out."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

import civrules_runtime_advanced_civilization as ac_runtime  # noqa: E402 - the committed packages
import civrules_runtime_sid_meiers_civilization as smc_runtime  # noqa: E402
from civrules_rulesets import advanced_civilization as ac  # noqa: E402
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import mega_civilization as mega  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import NotACollectionError, OutOfDomainError, UnknownIdError  # noqa: E402
from civrules_runtime_advanced_civilization import logic as ac_logic  # noqa: E402
from civrules_runtime_imperial_settlers import logic as imperial_logic  # noqa: E402
from civrules_runtime_sid_meiers_civilization import logic as smc_logic  # noqa: E402

Call = Callable[[], object]

#: Levels, ranks, counts and flags of the wrong type or outside the rule: the pattern each message matches.
OUT_OF_DOMAIN: dict[str, tuple[str, Call]] = {
    "smc.research_cost level 9": (r"^level=9 .*research table.*: 1 to 5$", lambda: smc.research_cost(9, [])),
    "smc.research_cost level 0": (r"^level=0 .*: 1 to 5$", lambda: smc.research_cost(0)),
    "smc.research_cost level '2'": (r"^level='2' is not a whole number", lambda: smc.research_cost("2", [])),  # type: ignore[arg-type]
    # 2.0 is whole: it is refused for its type (it was "not a whole number", round 36); 2.5 has a fraction
    "smc.research_cost level 2.0": (r"^level=2\.0 is a float, not an int", lambda: smc.research_cost(2.0, [])),  # type: ignore[arg-type]
    "smc.research_cost level 2.5": (r"^level=2\.5 is not a whole number", lambda: smc.research_cost(2.5, [])),  # type: ignore[arg-type]
    "smc.trade_after_research level 7": (r"^level=7 ", lambda: smc.trade_after_research(7, 30)),
    "smc.trade_after_research trade": (r"^trade='18' is not a whole number", lambda: smc.trade_after_research(2, "18")),  # type: ignore[arg-type]
    "smc.unit_cost rank '2'": (
        r"^rank='2' is not a rank: a rank is an int \(artilharia has ranks 1, 2, 3, 4\)$",
        lambda: smc.unit_cost("artilharia", "2"),  # type: ignore[arg-type]
    ),
    "smc.unit_cost rank True": (r"^rank=True is not a rank", lambda: smc.unit_cost("artilharia", True)),
    "smc.battle_hand_size defending_city": (
        r"^defending_city='no' is not a flag: True or False$",
        lambda: smc.battle_hand_size(2, defending_city="no"),  # type: ignore[arg-type]
    ),
    "smc.combat_bonus generals": (r"^generals='1' is not a whole number", lambda: smc.combat_bonus(generals="1")),  # type: ignore[arg-type]
    "smc.combat_bonus walled": (r"^walled=1 is not a flag", lambda: smc.combat_bonus(walled=1)),  # type: ignore[arg-type]
    "smc.combat_bonus buildings": (r"^buildings\['barracks'\]=-1 ", lambda: smc.combat_bonus({"barracks": -1})),
    "smc.victories_met coins": (r"^coins=-1 ", lambda: smc.victories_met(coins=-1)),
    "smc.victories_met culture_space": (r"^culture_space='3' ", lambda: smc.victories_met(culture_space="3")),  # type: ignore[arg-type]
    "smc.victories_met captured_capital": (
        r"^captured_capital=1 is not a flag",
        lambda: smc.victories_met(captured_capital=1),  # type: ignore[arg-type]
    ),
    "ac.set_value mining": (
        r"^mining='yes' is not a flag: True or False$",
        lambda: ac.set_value("iron", 3, mining="yes"),  # type: ignore[arg-type]
    ),
    "ac.calamities_suffered stoic": (r"^stoic='y' is not a flag", lambda: ac.calamities_suffered([], stoic="y")),  # type: ignore[arg-type]
    "ac.calamity_amount commodities": (
        r"^commodities\['grain'\]='2' is not a whole number",
        lambda: ac.calamity_amount("famine", "famine_primary", [], "primary", commodities={"grain": "2"}),  # type: ignore[dict-item]
    ),
    "imperial.board_score vp": (r"^vp='3' is not a whole number", lambda: imperial.board_score(1, 1, "3")),  # type: ignore[arg-type]
    "imperial.can_pay goods": (r"^wood='2' is not a whole number", lambda: imperial.can_pay("com003", {"wood": "2"})),
    "imperial.production samurai": (
        r"^samurai='1' is not a whole number",
        lambda: imperial.production("japanese", locations=["jap009"], samurai="1"),  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_DOMAIN))
def test_a_level_rank_count_or_flag_of_the_wrong_kind_is_out_of_domain_by_name(case: str) -> None:
    pattern, call = OUT_OF_DOMAIN[case]
    with pytest.raises(OutOfDomainError, match=pattern):
        call()


def test_a_level_the_research_table_has_is_still_answered() -> None:
    assert [smc.research_cost(level) for level in (1, 5)] == [6, 26]
    assert smc.unit_cost("artilharia", 2) == 7  # an int rank the unit has
    with pytest.raises(UnknownIdError, match="artilharia has no rank 9: ranks 1, 2, 3, 4"):
        smc.unit_cost("artilharia", 9)  # an int rank it has not: as before


NOT_A_COLLECTION: dict[str, tuple[str, Call]] = {
    "ac.purchase_cost": ("owned", lambda: ac.purchase_cost(5, "law")),  # type: ignore[arg-type]
    "ac.hand_limit": ("held", lambda: ac.hand_limit(None)),  # type: ignore[arg-type]
    "smc.research_cost": ("wonders", lambda: smc.research_cost(1, 3)),  # type: ignore[arg-type]
    "imperial.production": ("deals", lambda: imperial.production("romans", deals=7)),  # type: ignore[arg-type]
}

#: A list or a string where a mapping of counts (or of players) belongs: refused by name, not read
#: as pairs (``dict(["barracks"])``) nor failing inside with AttributeError.
NOT_A_MAPPING: dict[str, tuple[str, Call]] = {
    "smc.combat_bonus list": ("buildings", lambda: smc.combat_bonus(["barracks"])),  # type: ignore[arg-type]
    "smc.combat_bonus string": ("buildings", lambda: smc.combat_bonus("barracks")),  # type: ignore[arg-type]
    "ac.calamity_amount commodities": (
        "commodities",
        lambda: ac.calamity_amount("famine", "famine_primary", [], "primary", commodities=["grain"]),  # type: ignore[arg-type]
    ),
    "ac.secondary_losses allotment": (
        "allotment",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", ["ann"]),  # type: ignore[arg-type]
    ),
    "ac.secondary_losses nations": (
        "nations",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", {"ann": 5}, nations=["egypt"]),  # type: ignore[arg-type]
    ),
    "ac.secondary_losses held": (
        "held",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", {"ann": 5}, ["pottery"]),  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("case", sorted(NOT_A_MAPPING))
def test_a_value_that_is_no_mapping_is_refused_by_name(case: str) -> None:
    parameter, call = NOT_A_MAPPING[case]
    with pytest.raises(NotACollectionError, match=rf"^{parameter} is a mapping of .*, not "):
        call()


@pytest.mark.parametrize("case", sorted(NOT_A_COLLECTION))
def test_a_value_that_is_no_collection_is_refused_by_name(case: str) -> None:
    """`purchase_cost(5, "law")` raised "'int' object is not iterable" from inside the package."""
    parameter, call = NOT_A_COLLECTION[case]
    with pytest.raises(NotACollectionError, match=rf"^{parameter} is a collection of ids \(a list, a set ...\), not "):
        call()


UNKNOWN_IDS: dict[str, tuple[str, Call]] = {
    "ac.purchase_cost misspelt": (
        r"^'democrazy' is not a civilization card of this ruleset: did you mean 'democracy'\?$",
        lambda: ac.purchase_cost([], "democrazy"),  # type: ignore[arg-type]
    ),
    "ac.purchase_cost far": (
        r"^'zzz' is not a civilization card of this ruleset: one of agriculture, architecture, .*, \.\.\.$",
        lambda: ac.purchase_cost([], "zzz"),  # type: ignore[arg-type]
    ),
    "ac.purchase_cost unhashable": (
        r"^\[\] is not a civilization card of this ruleset: an id is a str, one of agriculture",
        lambda: ac.purchase_cost([], []),  # type: ignore[arg-type]
    ),
    "ac.neighbours": (
        r"^'athen' is not an area of this ruleset: did you mean 'athens'\?$",
        lambda: ac.neighbours("athen"),  # type: ignore[arg-type]
    ),
    "ac.trade_problems": (
        r"\(a commodity or a calamity\): did you mean 'grain'\?$",
        lambda: ac.trade_problems(["gran"], 3, []),  # type: ignore[list-item]
    ),
    "ac.assuming": (
        r"^'lawx' is not a civilization card of this ruleset: did you mean 'law'\?$",
        lambda: ac.assuming(ac_runtime.Assumptions(card_costs={"lawx": 3})),
    ),
    "smc.wonder_cost": (
        r"^'colosus' is not a wonder of this ruleset: did you mean 'colossus'\?$",
        lambda: smc.wonder_cost("colosus"),  # type: ignore[arg-type]
    ),
    "smc.may_place_technology starting": (
        r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$",
        lambda: smc.may_place_technology([], "pottery", starting="potery"),  # type: ignore[arg-type]
    ),
    "smc.assuming starting technology": (
        r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$",
        lambda: smc.assuming(smc_runtime.Assumptions(starting_technologies={"roma": "potery"})),
    ),
    "smc.assuming wonder cost": (
        r"^'stonehedge' is not a wonder of this ruleset: did you mean 'stonehenge'\?$",
        lambda: smc.assuming(smc_runtime.Assumptions(wonder_costs={"stonehedge": 10})),
    ),
    "imperial.missing_to_pay far": (
        r"^no card 'zzz' in this ruleset; one of bar001, bar004, .*, \.\.\.$",
        lambda: imperial.missing_to_pay("zzz", []),  # type: ignore[arg-type]
    ),
    "imperial.production misspelt": (
        r"^no faction 'japanes' in this ruleset; did you mean 'japanese'\?$",
        lambda: imperial.production("japanes"),  # type: ignore[arg-type]
    ),
    "smc.wonder_cost technologies": (
        r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$",
        lambda: smc.wonder_cost("colossus", ["potery"]),  # type: ignore[list-item]
    ),
    "smc.wonder_cost unhashable technology": (
        r"^\[\] is not a technology of this ruleset: an id is a str, ",
        lambda: smc.wonder_cost("colossus", [[]]),  # type: ignore[list-item]
    ),
    "smc.assuming wonder_cost technologies": (
        r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$",
        lambda: smc.assuming(smc_runtime.Assumptions()).wonder_cost("colossus", ["potery"]),
    ),
    "smc.victories_met technologies": (
        r"^'potery' is not a technology of this ruleset: did you mean 'pottery'\?$",
        lambda: smc.victories_met(["potery"]),  # type: ignore[list-item]
    ),
    "smc.combat_bonus buildings": (
        r"^'barraks' is not a building of this ruleset: did you mean 'barracks'\?$",
        lambda: smc.combat_bonus({"barraks": 1}),
    ),
    "smc.unlocked_by": (
        r"^'colosus' is not a building, unit type, government or wonder of this ruleset: did you mean 'colossus'\?$",
        lambda: smc.unlocked_by("colosus"),  # type: ignore[arg-type]
    ),
    "smc.assuming unlocked_by": (
        r"^'zzz' is not a building, unit type, government or wonder of this ruleset: one of ",
        lambda: smc.assuming(smc_runtime.Assumptions()).unlocked_by("zzz"),
    ),
    "ac.calamity_amount nation": (
        r"^'egipt' is not a nation of this ruleset: did you mean 'egypt'\?$",
        lambda: ac.calamity_amount("famine", "famine_primary", [], "primary", nation="egipt"),  # type: ignore[arg-type]
    ),
    "ac.calamity_amount commodities": (
        r"^'gran' is not a commodity of this ruleset: did you mean 'grain'\?$",
        lambda: ac.calamity_amount("famine", "famine_primary", [], "primary", commodities={"gran": 2}),
    ),
    "ac.secondary_losses nations": (
        r"^'egipt' is not a nation of this ruleset: did you mean 'egypt'\?$",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", {"ann": 5}, nations={"ann": "egipt"}),  # type: ignore[dict-item]
    ),
    "ac.secondary_losses nations of a player allotted nothing": (
        r"^'egipt' is not a nation of this ruleset: did you mean 'egypt'\?$",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", {}, nations={"bob": "egipt"}),  # type: ignore[dict-item]
    ),
    "ac.secondary_losses held of a player allotted nothing": (
        r"^'potery' is not a civilization card of this ruleset: did you mean 'pottery'\?$",
        lambda: ac.secondary_losses("epidemic", "epidemic_secondary", {}, {"bob": ["potery"]}),  # type: ignore[list-item]
    ),
    "ac.assuming calamity_amount nation": (
        r"^'egipt' is not a nation of this ruleset: did you mean 'egypt'\?$",
        lambda: ac.assuming(ac_runtime.Assumptions()).calamity_amount(
            "famine", "famine_primary", [], "primary", nation="egipt"
        ),
    ),
    "imperial.production deals": (
        r"^no good 'wod' in this ruleset; did you mean 'wood'\?$",
        lambda: imperial.production("romans", deals=["wod"]),  # type: ignore[list-item]
    ),
    "imperial.production deal counts": (
        r"^no good 'wod' in this ruleset; did you mean 'wood'\?$",
        lambda: imperial.production("romans", deals={"wod": 1}),  # type: ignore[dict-item]
    ),
    "imperial.shortfall cost": (
        r"^no good 'wod' in this ruleset; did you mean 'wood'\?$",
        lambda: imperial_logic.shortfall(["wod"], [], imperial.GOODS),
    ),
    "imperial.deck far": (
        r"^no deck 'zzz' in this ruleset; one of barbarians, common, egyptians, japanese, romans$",
        lambda: imperial.deck("zzz"),  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("case", sorted(UNKNOWN_IDS))
def test_an_unknown_id_proposes_the_closest_or_names_the_first_ids(case: str) -> None:
    pattern, call = UNKNOWN_IDS[case]
    with pytest.raises(UnknownIdError, match=pattern):
        call()


class _Walked(dict[str, int]):
    """A table that counts the walks over its ids."""

    walks = 0

    def __iter__(self) -> Iterator[str]:
        type(self).walks += 1
        return super().__iter__()


@pytest.mark.parametrize(
    "refuse",
    [
        lambda table, word: ac_logic.known_id(table, word, "card"),
        lambda table, word: smc_logic.entry(table, word, "card"),
        lambda table, word: imperial_logic.known(table, word, "card"),
    ],
    ids=["advanced_civilization", "sid_meiers_civilization", "imperial_settlers"],
)
def test_a_did_you_mean_walks_a_table_once_however_many_refusals(refuse: Callable[[object, str], object]) -> None:
    """An engine refusing ids of a large table (here 20,000) pays its vocabulary once, and each
    misspelling is compared with a bounded number of ids of the nearest lengths."""
    _Walked.walks = 0
    table = _Walked({f"card_{n:05d}": n for n in range(20_000)})
    for word in ("card_0123", "card_001234", "zzz") * 50:
        with pytest.raises(UnknownIdError) as raised:
            refuse(table, word)
    assert "did you mean 'card_" in str(raised.value) or "one of card_00000" in str(raised.value)
    assert _Walked.walks <= 2


@pytest.mark.parametrize("package", [ac, smc, imperial], ids=lambda package: package.__name__.rpartition(".")[2])
@pytest.mark.parametrize("value", [None, [1], 1.5, True], ids=["None", "list", "float", "bool"])
def test_canonical_id_of_a_value_that_is_no_str_is_an_unknown_id(package: object, value: object) -> None:
    """canonical_id([1]) raised "unhashable type: 'list'"; None, 1.5 and True came back as ids."""
    with pytest.raises(UnknownIdError, match=rf"^name={value!r} is not an id: an id is a str$".replace("[", r"\[")):
        package.canonical_id(value)  # type: ignore[attr-defined]


def test_canonical_id_still_maps_an_alias_and_keeps_any_other_str() -> None:
    assert ac.canonical_id("gemstones") == "gems" and ac.canonical_id("nope") == "nope"
    assert ac.assuming(ac_runtime.Assumptions()).canonical_id("gemstones") == "gems"


#: Goods that are no str: refused as no good of the ruleset, as every other helper refuses an id
#: that is no str, never looked up as its text ("no good 'None'; did you mean 'stone'?").
GOODS_NO_STR: dict[str, Call] = {
    "production deals": lambda: imperial.production("romans", deals=[None]),  # type: ignore[list-item]
    "production deal counts": lambda: imperial.production("romans", deals={None: 1}),  # type: ignore[dict-item]
    "can_pay list": lambda: imperial.can_pay("bar001", [None]),  # type: ignore[list-item]
    "can_pay counts": lambda: imperial.can_pay("bar001", {None: 1}),  # type: ignore[dict-item]
    "missing_to_pay unhashable": lambda: imperial.missing_to_pay("bar001", [[1]]),  # type: ignore[list-item]
}


@pytest.mark.parametrize("case", sorted(GOODS_NO_STR))
def test_a_good_that_is_no_str_is_refused_as_no_good(case: str) -> None:
    with pytest.raises(UnknownIdError, match=r"^no good (None|\[1\]) in this ruleset: an id is a str, one of card, "):
        GOODS_NO_STR[case]()


def test_a_location_is_still_counted_where_a_cost_takes_one_and_refused_as_a_deal() -> None:
    assert imperial.can_pay("jap006", ["wood", "location"])  # jap006's cost: a wood and a location (p3)
    assert imperial.missing_to_pay("jap006", {"wood": 1}) == {"location": 1}
    with pytest.raises(UnknownIdError, match=r"^no good 'location' in this ruleset"):
        imperial.production("romans", deals=["location"])  # type: ignore[list-item]


def test_a_player_keyed_none_is_not_the_player_who_traded_the_calamity() -> None:
    """{None: 2} raised "the player who traded famine ... may not be a secondary victim": the default
    traded_by=None matched the key None."""
    assert ac.secondary_losses("famine", "famine_secondary", {None: 2}) == {None: 2}  # type: ignore[dict-item]
    assert ac.secondary_losses("epidemic", "epidemic_secondary", {None: 2}) == {None: 2}  # type: ignore[dict-item]
    with pytest.raises(OutOfDomainError, match=r"^allotment\['ann'\]=2: the player who traded epidemic"):
        ac.secondary_losses("epidemic", "epidemic_secondary", {"ann": 2}, traded_by="ann")


def _ep_set_value_with_wax_decks(wax: int, good: str, n: int, **trade: object) -> int:
    """The Expansion Project's set_value where each deck of 15-18 players holds ``wax`` cards of wax
    (a variant's deck composition: the shipped decks hold every card of every good they hold)."""
    from civrules_rulesets.expansion_project import data
    from civrules_runtime_advanced_civilization import Deck, DeckBand

    def fewer(deck: Deck) -> Deck:
        goods = tuple((g, wax if g == "wax" else c) for g, c in deck.commodities)
        return Deck(deck.block, goods, deck.calamity_sets, deck.calamity_severities)

    bands = tuple(
        DeckBand(b.players_min, b.players_max, b.region, tuple(fewer(d) for d in b.decks)) if b.players_min == 15 else b
        for b in data.DECK_COMPOSITIONS
    )
    return ac_logic.set_value(
        data.COMMODITIES, data.BLOCK_BONUSES, data.SET_VALUE_FORMULA, data.MINING_EXTRA_CARDS, good, n, False,
        trade.get("players"), trade.get("redeemed_in"), trade.get("drawn_in"), data.PLAYER_COUNTS, bands,  # type: ignore[arg-type]
    )  # fmt: skip


#: A rule's argument it is not defined for: the documented OutOfDomainError (a ValueError, as the
#: plain ValueError these raised was), never a ValueError of no kind of this runtime.
NOT_DEFINED: dict[str, tuple[str, Call]] = {
    # Only where a bonus band covers the count and trade blocks are in play (5 players: one deck).
    "ep.set_value players without redeemed_in": (
        r"^with 12 players a set redeemed outside .* give redeemed_in= too \(one of 'west', 'east'\)$",
        lambda: ep.set_value("clay", 2, players=12),
    ),
    "ep.set_value redeemed_in without players": (
        r"^redeemed_in='west' without players=: .* give players= too$",
        lambda: ep.set_value("clay", 2, redeemed_in="west"),
    ),
    "mega.decks_for split map": (r"^with 5 players the map is split: give region=", lambda: mega.decks_for(5)),
    # Round 19: arguments held to the game the other arguments fix, not only to their vocabulary.
    "ep.set_value block not in play": (
        r"^redeemed_in='single': with 13 players the trade blocks in play are east, west$",
        lambda: ep.set_value("oil", 3, players=13, redeemed_in="single"),
    ),
    "ep.set_value shared block not in play": (
        r"^redeemed_in='shared': with 13 players",
        lambda: ep.set_value("oil", 3, players=13, redeemed_in="shared"),
    ),
    "ep.set_value drawn_in not in play": (
        r"^drawn_in='single': with 15 players",
        lambda: ep.set_value("wax", 3, players=15, redeemed_in="west", drawn_in="single"),
    ),
    "ep.set_value shared good without drawn_in": (
        r"^wax is a shared good: give drawn_in=",
        lambda: ep.set_value("wax", 3, players=15, redeemed_in="west"),
    ),
    "ep.set_value native good drawn elsewhere": (
        r"^drawn_in='east': oil is a good of the west block",
        lambda: ep.set_value("oil", 3, players=13, redeemed_in="east", drawn_in="east"),
    ),
    "ep.set_value players above the ruleset": (
        r"^players=19 .*: 5 to 18$",
        lambda: ep.set_value("oil", 3, players=19, redeemed_in="east"),
    ),
    "ep.set_value players below the ruleset": (
        r"^players=4 .*: 5 to 18$",
        lambda: ep.set_value("oil", 3, players=4, redeemed_in="single"),
    ),
    "ep.decks_for players above the ruleset": (r"^players=19 .*: 5 to 18$", lambda: ep.decks_for(19)),
    "ep.decks_for region of a whole map": (
        r"^region='west': with 13 players the whole map is played",
        lambda: ep.decks_for(13, "west"),
    ),
    "imperial.production another faction's location": (
        r"^'bar001' is a card of the barbarians deck: the 'romans' empire builds only common cards",
        lambda: imperial.production("romans", locations=["bar001"]),
    ),
    "ac.calamity_amount role": (
        r"^famine.famine_secondary is an effect on the secondary victim, not the primary$",
        lambda: ac.calamity_amount("famine", "famine_secondary", [], "primary"),
    ),
    "imperial.production Samurai beyond the faction locations": (
        r"^samurai=2 is outside the domain of the rule \(Samurai: at most 1 on each of the empire's 1 faction "
        r"locations; the `samurai` special rule, p11/posicionando-samurais, p11/exemplo-de-uso-do-samurai\): 0 to 1$",
        lambda: imperial.production("japanese", locations=["jap009", "com025"], samurai=2),
    ),
    # Round 19 (second trial): arguments held to the components of the game, not only to its vocabulary.
    "ep.set_value good in no deck of the count": (
        r"^bone is in no trade deck with 12 players$",
        lambda: ep.set_value("bone", 3, players=12, redeemed_in="west", drawn_in="east"),
    ),
    "ep.set_value good in no deck, without drawn_in": (
        r"^bone is in no trade deck with 12 players$",
        lambda: ep.set_value("bone", 3, players=12, redeemed_in="east"),
    ),
    "mega.set_value good in no deck of the count": (
        r"^bone is in no trade deck with 12 players$",
        lambda: mega.set_value("bone", 3, players=12, redeemed_in="west", drawn_in="east"),
    ),
    "mega.set_value good in no deck of either region": (
        r"^wax is in no trade deck with 5 players$",
        lambda: mega.set_value("wax", 1, players=5),
    ),
    "ep.set_value more cards than the decks hold": (
        r"^n=5 is outside the domain of the rule \(the cards of wax in the trade decks with 15 players\): 0 to 4$",
        lambda: _ep_set_value_with_wax_decks(2, "wax", 5, players=15, redeemed_in="west", drawn_in="east"),
    ),
    "ep view set_value good in no deck of the count": (
        r"^bone is in no trade deck with 12 players$",
        lambda: ep.assuming(ac_runtime.Assumptions(card_costs={"law": 170}, why="t")).set_value(
            "bone", 3, players=12, redeemed_in="east"
        ),
    ),
    "ep view set_value players above the ruleset": (
        r"^players=19 .*: 5 to 18$",
        lambda: ep.assuming(ac_runtime.Assumptions(card_costs={"law": 170}, why="t")).set_value(
            "oil", 3, players=19, redeemed_in="east"
        ),
    ),
    "imperial.production a location listed beyond its copies": (
        r"^'com007' is listed twice in locations: the game has 1 copy of it \(Card.copies\)$",
        lambda: imperial.production("barbarians", locations=["com007", "com007"]),
    ),
    "imperial.production a faction location beyond its copies": (
        r"^'bar001' is listed 40 times in locations: the game has 3 copies of it",
        lambda: imperial.production("barbarians", locations=["bar001"] * 40),
    ),
    "imperial.board_score more common locations than the common deck": (
        r"^common_locations=85 is outside the domain of the rule \(locations in the empire\): 0 to 84$",
        lambda: imperial.board_score(85, 0),
    ),
    "imperial.board_score more faction locations than a faction deck": (
        r"^faction_locations=31 is outside the domain of the rule \(locations in the empire\): 0 to 30$",
        lambda: imperial.board_score(0, 31),
    ),
    "mega.decks_for a region not played with that count": (
        r"^no trade decks for region 'east' with 10 players \(only west\)$",
        lambda: mega.decks_for(10, "east"),
    ),
}


@pytest.mark.parametrize("case", sorted(NOT_DEFINED))
def test_an_argument_a_rule_is_not_defined_for_is_out_of_domain(case: str) -> None:
    pattern, call = NOT_DEFINED[case]
    with pytest.raises(OutOfDomainError, match=pattern):
        call()


def test_the_arguments_the_game_allows_are_still_answered() -> None:
    """The counterparts of the cases above: each block in play, a shared good with the block it
    was drawn in, a band where shared goods gain nothing, a faction's own production location."""
    assert ep.set_value("oil", 3, players=13, redeemed_in="east") == 48  # 26.3.3
    assert ep.set_value("oil", 3, players=13, redeemed_in="west", drawn_in="west") == 36
    assert ep.set_value("wax", 3, players=15, redeemed_in="west", drawn_in="east") == 24  # 12-15
    assert ep.set_value("wax", 3, players=15, redeemed_in="west", drawn_in="west") == 18
    assert ep.set_value("wax", 3, players=17, redeemed_in="west") == 18  # 16-18: shared goods gain nothing
    assert ep.set_value("oil", 3, players=5, redeemed_in="single") == 36  # no bonus band
    assert len(ep.decks_for(13)) == 2 and len(ep.decks_for(13, "whole")) == 2
    assert len(mega.decks_for(5, "west")) == 1


def test_the_components_in_play_are_answered_up_to_their_number() -> None:
    """The counterparts of the round-19 component cases: a good in a deck of that count, a set of
    every card of it those decks hold, a location up to its copies, an empire of every card."""
    assert ep.set_value("wax", 8, players=15, redeemed_in="west", drawn_in="east") == 8 * 8 * 2 + 8 * 2
    assert _ep_set_value_with_wax_decks(2, "wax", 4, players=15, redeemed_in="west", drawn_in="east") == 40
    assert ep.set_value("oil", 3, players=12, redeemed_in="east") == 48
    assert mega.set_value("bone", 3, players=15, redeemed_in="west", drawn_in="east") > 0
    assert mega.set_value("wax", 1, players=9) == mega.set_value("wax", 1)  # West's deck holds it with 9
    plain = dict(imperial.production("barbarians"))
    three = dict(imperial.production("barbarians", locations=["bar001"] * 3))
    assert three == {**plain, "wood": plain.get("wood", 0) + 3 * 2}  # bar001 (3 copies) makes 2 wood
    assert imperial.board_score(84, 30) == imperial.board_score(84, 0) + imperial.board_score(0, 30)


def test_a_count_that_plays_one_region_needs_no_region() -> None:
    """Mega Civilization plays one configuration with 10 players (West) and with 11 (East): the map
    is not split between games there, and its one region's decks are the answer."""
    assert mega.decks_for(10) == mega.decks_for(10, "west")
    assert mega.decks_for(11) == mega.decks_for(11, "east")
    assert mega.decks_for(12) == mega.decks_for(12, "whole")


#: Ids that are unhashable in a collection of held cards: refused as no card, not "unhashable type"
#: from the set the helper made of them.
UNHASHABLE_HELD: dict[str, Call] = {
    "credit_toward": lambda: ac.credit_toward([[1]], "law"),  # type: ignore[list-item]
    "purchase_cost": lambda: ac.purchase_cost([[1]], "law"),  # type: ignore[list-item]
    "effects_held": lambda: ac.effects_held([[1]]),  # type: ignore[list-item]
    "ship_range": lambda: ac.ship_range([[1]]),  # type: ignore[list-item]
    "can_enter_epoch": lambda: ac.can_enter_epoch("early_bronze_age", 1, [[1]]),  # type: ignore[list-item]
    "can_enter_space": lambda: ac.can_enter_space("egypt", 1, 1, [[1]]),  # type: ignore[list-item]
}


@pytest.mark.parametrize("case", sorted(UNHASHABLE_HELD))
def test_an_unhashable_card_held_is_an_unknown_id(case: str) -> None:
    with pytest.raises(UnknownIdError, match=r"^\[1\] is not a civilization card of this ruleset: an id is a str"):
        UNHASHABLE_HELD[case]()


def _smc_view() -> object:
    """Sid Meier's base game with the levels the report's placement needs (its levels are unknown)."""
    return smc.assuming(smc_runtime.Assumptions(technology_levels={"pottery": 1, "code_of_laws": 1, "masonry": 2}))


#: Round 20: a collection of game objects is no multiset. A player holds one card of each
#: technology and each wonder the game has one of, one of each civilization card; a calamity is
#: drawn no more often than the game has copies of it. Each listed once too often is refused, as
#: Imperial Settlers' production(locations=) has refused a location beyond its copies since round
#: 19 (one Porcelain Tower counted twice was a free research, one Sailing two cards of a row).
LISTED_BEYOND_COPIES: dict[str, tuple[str, Call]] = {
    "smc.research_cost": (
        r"^'porcelain_tower' is listed twice in wonders: the game has 1 copy of it$",
        lambda: smc.research_cost(1, ["porcelain_tower", "porcelain_tower"]),
    ),
    "smc.trade_after_research": (
        r"^'porcelain_tower' is listed twice in wonders: ",
        lambda: smc.trade_after_research(1, 20, 0, ["porcelain_tower", "porcelain_tower"]),
    ),
    "smc.pyramid_needs": (
        r"^'sailing' is listed twice in pyramid: a player has one card of each technology$",
        lambda: smc.pyramid_needs(["sailing", "sailing"]),
    ),
    "smc.may_place_technology": (
        r"^'pottery' is listed twice in pyramid: a player has one card of each technology$",
        lambda: smc.may_place_technology(["pottery", "pottery"], "masonry"),
    ),
    "smc.wonder_cost": (
        r"^'metalworking' is listed twice in technologies: a player has one card of each technology$",
        lambda: smc.wonder_cost("colossus", ["metalworking", "metalworking"]),
    ),
    "smc.victories_met": (
        r"^'pottery' is listed twice in technologies: ",
        lambda: smc.victories_met(technologies=["pottery", "pottery"]),
    ),
    "smc view may_place_technology": (
        r"^'pottery' is listed twice in pyramid: ",
        lambda: _smc_view().may_place_technology(["pottery", "pottery"], "masonry"),  # type: ignore[attr-defined]
    ),
    "smc view research_cost": (
        r"^'porcelain_tower' is listed twice in wonders: ",
        lambda: _smc_view().research_cost(1, ["porcelain_tower", "porcelain_tower"]),  # type: ignore[attr-defined]
    ),
    "ac.credit_toward": (
        r"^'pottery' is listed twice in owned: a player holds one of each civilization card$",
        lambda: ac.credit_toward(["pottery", "pottery"], "law"),
    ),
    "ac.purchase_cost": (
        r"^'pottery' is listed twice in owned: ",
        lambda: ac.purchase_cost(["pottery", "pottery"], "law"),
    ),
    "ac.calamity_amount": (
        r"^'pottery' is listed twice in held: ",
        lambda: ac.calamity_amount("famine", "famine_primary", ["pottery", "pottery"], "primary"),
    ),
    "ac.effects_held": (r"^'military' is listed twice in held: ", lambda: ac.effects_held(["military", "military"])),
    "ac.hand_limit": (r"^'pottery' is listed twice in held: ", lambda: ac.hand_limit(["pottery", "pottery"])),
    "ac.tax_rates": (r"^'coinage' is listed twice in held: ", lambda: ac.tax_rates(["coinage", "coinage"])),
    "ac.can_enter_epoch": (
        r"^'pottery' is listed twice in held: ",
        lambda: ac.can_enter_epoch("early_bronze_age", 9, ["pottery", "pottery"]),
    ),
    "ac.can_enter_space": (
        r"^'pottery' is listed twice in held: ",
        lambda: ac.can_enter_space("egypt", 1, 9, ["pottery", "pottery"]),
    ),
    "ac.ship_range": (r"^'astronomy' is listed twice in held: ", lambda: ac.ship_range(["astronomy", "astronomy"])),
    "ac.secondary_losses": (
        r"^'pottery' is listed twice in held\['b'\]: ",
        lambda: ac.secondary_losses("famine", "famine_secondary", {"b": 5}, held={"b": ["pottery", "pottery"]}),
    ),
    "ac view credit_toward": (
        r"^'pottery' is listed twice in owned: ",
        lambda: ac.assuming(ac_runtime.Assumptions()).credit_toward(["pottery", "pottery"], "law"),
    ),
    "ep.calamity_resolution_order": (
        r"^'famine' is listed 3 times in calamities: the game has 2 copies of it \(Calamity.copies\)$",
        lambda: ep.calamity_resolution_order(["famine"] * 3),
    ),
    "ep.calamities_suffered": (
        r"^'famine' is listed 3 times in received: the game has 2 copies of it",
        lambda: ep.calamities_suffered(["famine"] * 3, stoic=True),
    ),
    "ac.calamity_resolution_order": (
        r"^'famine' is listed twice in calamities: the game has 1 copy of it \(Calamity.copies\)$",
        lambda: ac.calamity_resolution_order(["famine", "famine"]),
    ),
    # Round 35: the times were those seen up to the first excess, so a calamity a game holds none of,
    # listed twice, was "listed once", and five of a two-copy calamity were "listed 3 times".
    # Round 36: where the count's decks hold none, no count of times is the point ("listed twice ...
    # has 0 copies" read as if once would do): the message says it is listed, and "no copy".
    "mega.calamity_resolution_order a calamity the count's decks hold none of": (
        r"^'tempest' is in calamities, but a game of 6 players has no copy of it "
        r"\(Calamity.copies_by_players\)$",
        lambda: mega.calamity_resolution_order(["tempest", "tempest"], players=6),
    ),
    "mega.calamity_resolution_order one card the count's decks hold none of": (
        r"^'tempest' is in calamities, but a game of 13 players has no copy of it "
        r"\(Calamity.copies_by_players\)$",
        lambda: mega.calamity_resolution_order(["famine", "tempest"], players=13),
    ),
    "ep.calamity_resolution_order all the times listed": (
        r"^'famine' is listed 5 times in calamities: the game has 2 copies of it \(Calamity.copies\)$",
        lambda: ep.calamity_resolution_order(["famine", "flood", "famine", "famine", "famine", "famine"]),
    ),
}


@pytest.mark.parametrize("case", sorted(LISTED_BEYOND_COPIES))
def test_a_game_object_listed_more_times_than_the_game_has_it_is_out_of_domain(case: str) -> None:
    pattern, call = LISTED_BEYOND_COPIES[case]
    with pytest.raises(OutOfDomainError, match=pattern):
        call()


def test_each_game_object_listed_once_or_up_to_its_copies_is_still_answered() -> None:
    """The counterparts: one Porcelain Tower, a pyramid of distinct technologies, two copies of an
    Expansion Project calamity (it has two of each), a civilization card held once, one card of each
    of two Advanced Civilization calamities (it has one of each, 9.1)."""
    assert smc.research_cost(1, ["porcelain_tower"]) == max(0, (smc.RESEARCH.costs[1] or 0) - 5)
    assert _smc_view().may_place_technology(["pottery", "code_of_laws"], "masonry") is True  # type: ignore[attr-defined]
    assert _smc_view().may_place_technology(["pottery"], "masonry") is False  # type: ignore[attr-defined]
    assert ep.calamity_resolution_order(["famine", "famine"]) == ("famine", "famine")
    assert ac.credit_toward(["pottery"], "law") == ac.credit_toward(("pottery",), "law")
    assert ac.calamity_resolution_order(["famine", "epidemic"]) == ("famine", "epidemic")  # one card of each
