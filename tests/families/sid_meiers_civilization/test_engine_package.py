"""The generated packages of the Sid Meier's Civilization family as an engine uses them: the
rulebook's worked examples exactly, the compiler's own answers (rules.py) for every question,
unknown facts refused, misspelt ids refused, one engine for both rulesets."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import pytest

from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.package import TABLES
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    sid_meiers_civilization,
    sid_meiers_civilization_community,
)
from civrules_runtime.errors import OutOfDomainError  # noqa: E402
from civrules_runtime_sid_meiers_civilization import (  # noqa: E402
    CombatSituation,
    RulesetPackage,
    UnknownFactError,
    UnknownIdError,
)
from tests.families.sid_meiers_civilization.engine import civilization_summary  # noqa: E402

base = sid_meiers_civilization
community = sid_meiers_civilization_community
#: Typed as the protocol: mypy --strict (the project's) checks that both packages satisfy it.
PACKAGES: dict[str, RulesetPackage] = {
    "sid-meiers-civilization": sid_meiers_civilization,
    "sid-meiers-civilization-community": sid_meiers_civilization_community,
}


def _model(ruleset_id: str) -> CivilizationRuleset:
    """The compiler's model of a shipped ruleset, analysed when a test first asks (never at
    collection, which every pytest worker pays)."""
    analysis = shipped_analysis(ruleset_id)
    assert isinstance(analysis.model, CivilizationRuleset)
    return analysis.model


# --- The rulebook's worked examples -----------------------------------------------------------


def test_sailing_costs_eleven_trade_and_spends_all_of_eighteen() -> None:
    """p11, examples 1 and 2: level II needs 11; with 18 trade the dial goes to 0, with 4 coins to 4."""
    assert [base.research_cost(level) for level in range(1, 6)] == [6, 11, 16, 21, 26]
    assert base.TECHNOLOGIES["sailing"].level == 2
    assert base.trade_after_research(2, 18) == 0
    assert base.trade_after_research(2, 18, coins=4) == 4
    assert base.trade_after_research(2, 11, coins=15) == 11  # coins never add trade (p18)
    with pytest.raises(ValueError, match="needs 11"):
        base.trade_after_research(2, 10)


def test_the_porcelain_tower_makes_research_five_trade_cheaper() -> None:
    """p20: its owner needs 5 trade less to research."""
    assert base.research_cost(1, ["porcelain_tower"]) == 1
    assert base.research_cost(5, ["porcelain_tower"]) == 21


def test_the_colossus_costs_fifteen_or_ten_with_metalworking() -> None:
    """p7."""
    assert base.wonder_cost("colossus") == 15
    assert base.wonder_cost("colossus", ["metalworking"]) == 10
    with pytest.raises(UnknownFactError):
        base.wonder_cost("stonehenge")  # only the Colossus's cost is printed
    assert community.wonder_cost("stonehenge") == 10


def test_units_cost_five_seven_nine_eleven_and_aircraft_twelve() -> None:
    """p6, and the FAQ's errata for aircraft (p20)."""
    for unit in ("artilharia", "infantaria", "cavalaria"):
        assert [base.unit_cost(unit, rank) for rank in (1, 2, 3, 4)] == [5, 7, 9, 11]
    assert base.unit_cost("aeronave", 1) == 12
    with pytest.raises(UnknownIdError):
        base.unit_cost("aeronave", 2)


#: The buildings the p6 table joins to the one before them with a comma, which p12 does not name as
#: an upgrade (it names only Granary and Aqueduct, whose pair the table also prints with a comma).
OPEN_UPGRADES: tuple[Any, ...] = ("universidade", "banco", "catedral", "academia_militar")


def test_whether_university_bank_cathedral_and_academy_are_upgrades_is_unknown_in_the_base_game() -> None:
    """p12: "some" buildings have a basic and an improved face, Granary and Aqueduct the example;
    the market board that marks the improved ones is not in the sources. The base game wrote these
    four as nobody's upgrade; they are unknown there, and asked, the helper says why. A building the
    rulebook pairs (Aqueduct) or that is basic (Library) is answered; the community transcription
    answers all four."""
    for building in OPEN_UPGRADES:
        record = base.BUILDINGS[building]
        assert record.upgrade_of is None and record.upgrade_unknown, building
        with pytest.raises(UnknownFactError, match=r"p12") as raised:
            base.upgrade_of(building)
        assert building in str(raised.value)
        assert community.BUILDINGS[building].upgrade_unknown is False
    assert [community.upgrade_of(b) for b in OPEN_UPGRADES] == ["biblioteca", "marcado", "templo", "barracks"]
    assert base.upgrade_of("aqueduto") == "celeiro" and base.upgrade_of("mina_de_ferro") == "oficina"
    assert base.upgrade_of("biblioteca") is None and not base.BUILDINGS["biblioteca"].upgrade_unknown
    with pytest.raises(UnknownIdError):
        base.upgrade_of("universidad")  # type: ignore[arg-type]
    fields = {fact.field for fact in base.UNKNOWN_FACTS}
    assert {f"buildings[{b}].upgrade_of" for b in OPEN_UPGRADES} <= fields


def test_granary_and_aqueduct_costs_and_where_buildings_stand() -> None:
    """p6 (the building/terrain table), p13 (Granary 5, Aqueduct 8)."""
    assert base.BUILDINGS["celeiro"].cost == 5 and base.BUILDINGS["aqueduto"].cost == 8
    assert base.BUILDINGS["aqueduto"].upgrade_of == "celeiro"
    assert base.may_stand_on("porto", "agua") is True
    assert base.may_stand_on("templo", "agua") is False  # limited: any terrain but water
    assert base.may_stand_on("templo", "floresta") is True
    assert base.may_stand_on("muros", "pradaria") is False and base.BUILDINGS["muros"].city_centre
    with pytest.raises(UnknownFactError):
        base.may_stand_on("barracks", "deserto")  # the table has no row for Barracks
    assert community.may_stand_on("barracks", "deserto") is True


def test_battle_hand_is_three_plus_two_a_figure_plus_fundamentalism_plus_three_defending() -> None:
    """p14, 1. Montando a força de batalha."""
    assert base.battle_hand_size(1) == 3
    assert base.battle_hand_size(2) == 5
    assert base.battle_hand_size(1, "fundamentalism") == 4
    assert base.battle_hand_size(1, defending_city=True) == 6
    # Three figures in a square: a technology held raises the stacking limit of 2 (p9).
    assert base.battle_hand_size(3, "fundamentalism", defending_city=True, technologies=["masonry"]) == 11
    # The defender of a city attacked with no figure in it, and the player defending a village
    # ("a figura ou cidade" attacked): no figure beyond the first, the hand begins at 3.
    assert base.battle_hand_size(0, defending_city=True) == 6
    assert base.battle_hand_size(0) == 3
    with pytest.raises(ValueError, match=r"figures=-1 .*0 or more"):
        base.battle_hand_size(-1)


def test_an_argument_beyond_a_bound_the_data_states_is_refused() -> None:
    """The dial holds 27 trade (p3: SETTINGS.trade.dial_max), a square 2 figures unless a technology
    held raises it (p9: movement.stacking_limit), the culture track ends at its last space: the
    helpers answered 28 trade, 100 figures (a hand of 201) and space 22 as if legal (player audit,
    round 20, defect 5)."""
    assert base.SETTINGS.trade is not None and base.SETTINGS.trade.dial_max == 27
    assert base.trade_after_research(1, 27, coins=3) == 3
    with pytest.raises(OutOfDomainError, match=r"^trade=28 .*dial_max.*: 0 to 27$"):
        base.trade_after_research(1, 28)
    with pytest.raises(OutOfDomainError, match=r"^trade=1000 "):
        community.trade_after_research(1, 1000, coins=500)
    assert base.SETTINGS.movement is not None and base.SETTINGS.movement.stacking_limit == 2
    assert base.battle_hand_size(2) == 5
    with pytest.raises(OutOfDomainError, match=r"^figures=100 .*stacking_limit.*masonry.*: 0 to 2$"):
        base.battle_hand_size(100)
    with pytest.raises(OutOfDomainError, match=r"^figures=3 "):
        community.battle_hand_size(3, technologies=["sailing"])  # a technology that raises nothing
    # Masonry raises the limit to a number the rulebook does not give: no bound is made up.
    assert base.battle_hand_size(3, technologies=["masonry"]) == 7
    with pytest.raises(UnknownIdError):
        base.battle_hand_size(1, technologies=["masonri"])  # type: ignore[list-item]
    last = max(space.position for space in community.CULTURE_SPACES.values())
    assert community.victories_met(culture_space=last) == ("culture",)
    with pytest.raises(OutOfDomainError, match=rf"^culture_space={last + 1} .*: 0 to {last}$"):
        community.victories_met(culture_space=last + 1)


def test_combat_bonuses_and_the_difference_of_twelve_and_eight() -> None:
    """p15: a side with +12 against +8 takes the +4 card."""
    capital = base.combat_bonus(defending="defending_capital")
    academies = base.combat_bonus({"academia_militar": 2})
    assert (capital, academies, capital - academies) == (12, 8, 4)
    assert base.combat_bonus({"barracks": 3}, generals=1) == 10
    assert base.combat_bonus(defending=CombatSituation.DEFENDING_CITY, walled=True) == 10
    assert base.combat_bonus(walled=True) == 0  # walls count only for the defender
    with pytest.raises(UnknownIdError, match="defending_city"):
        base.combat_bonus(defending="defending_village")  # type: ignore[arg-type]


def test_the_victories() -> None:
    """p13-14: Space Flight, 15 coins, an enemy capital; the culture track only where it is known."""
    assert base.victories_met(["space_flight"]) == ("technology",)
    assert base.victories_met(coins=14) == () and base.victories_met(coins=15) == ("economy",)
    assert base.victories_met(captured_capital=True) == ("military",)
    with pytest.raises(UnknownFactError):
        base.victories_met(culture_space=21)  # the track is printed on the board, not in the text
    assert community.victories_met(culture_space=21) == ("culture",)
    assert community.victories_met(culture_space=20) == ()


def test_the_pyramid_needs_fifteen_technologies_and_a_row_below() -> None:
    """p12-13: 5, 4, 3, 2 and Space Flight; a level II card needs the row below formed."""
    assert dict(community.pyramid_needs([])) == {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}
    assert sum(base.pyramid_needs([]).values()) == 15
    assert community.may_place_technology([], "pottery") is True
    assert community.may_place_technology(["pottery"], "pottery") is False
    assert community.may_place_technology(["pottery"], "sailing") is False
    assert community.may_place_technology(["pottery", "currency"], "sailing") is True
    assert community.may_place_technology(["pottery", "currency", "sailing"], "chivalry") is False
    assert community.may_place_technology([], "space_flight") is False
    # a starting technology sits in the base row whatever its level (p12)
    assert community.may_place_technology(["construction", "pottery"], "sailing", starting="construction")
    assert dict(community.pyramid_needs(["pottery", "sailing"])) == {1: 4, 2: 3, 3: 3, 4: 2, 5: 1}


def test_what_the_sources_do_not_give_is_refused_never_guessed() -> None:
    with pytest.raises(UnknownFactError, match="level of pottery"):
        base.may_place_technology([], "pottery")  # the rulebook gives only Sailing's and Space Flight's levels
    with pytest.raises(UnknownFactError):
        base.pyramid_needs(["pottery"])
    assert base.may_place_technology([], "sailing") is False  # level II on an empty pyramid
    assert community.unlocks_of("writing").buildings == ("biblioteca",)  # cash1981/playciv's card text
    assert community.unlocked_by("biblioteca") == ("writing",)
    assert community.unlocks_of("pottery").buildings == ("celeiro",)  # the rulebook's Celeiro kept
    # any player may build any wonder (p7): a technology lowers a wonder's cost, it unlocks none
    assert community.unlocks_of("pottery").wonders == ()
    assert community.unlocked_by("the_pyramids") == ()
    assert community.wonder_cost("the_pyramids", ["pottery"]) == 10
    assert base.unlocks_of("pottery").buildings == ("celeiro",)
    assert base.unlocked_by("aqueduto") == ("engineering",)
    assert base.unlocked_by("cavalaria") == ("chivalry",)
    with pytest.raises(UnknownFactError):
        base.unlocks_of("horseback_riding")  # the rulebook names it for its abilities, never its unlocks
    with pytest.raises(UnknownFactError):
        base.unlocked_by("biblioteca")  # no technology the rulebook names unlocks it; others may


def test_a_misspelt_id_is_an_error_naming_the_ids() -> None:
    with pytest.raises(UnknownIdError, match="technology"):
        base.may_place_technology([], "potery")  # type: ignore[arg-type]  # misspelt on purpose
    with pytest.raises(KeyError):
        base.unit_cost("archers", 1)  # type: ignore[arg-type]
    with pytest.raises(UnknownIdError):
        base.may_stand_on("templo", "swamp")  # type: ignore[arg-type]


# --- The compiler's own answers -----------------------------------------------------------------


def _same(pkg: RulesetPackage, model: CivilizationRuleset, helper: str, *args: Any) -> None:
    """The package's helper and the compiler's function of that name answer the same, or both refuse:
    an unknown fact (UnknownFactError / CannotJudgeError), or a bad argument."""
    try:
        expected: Any = getattr(rules, helper)(model, *args)
    except rules.CannotJudgeError:
        with pytest.raises(UnknownFactError):
            getattr(pkg, helper)(*args)
        return
    except (KeyError, ValueError) as error:
        with pytest.raises(type(error)):
            getattr(pkg, helper)(*args)
        return
    got = getattr(pkg, helper)(*args)
    assert (dict(got) if isinstance(expected, dict) else got) == expected, (helper, args)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_helper_answers_as_the_compiler(ruleset: str) -> None:
    pkg, model = PACKAGES[ruleset], _model(ruleset)
    techs = [t.id for t in model.technologies]
    for level, trade, coins in itertools.product(range(0, 7), (0, 6, 11, 18, 27), (0, 4, 15)):
        _same(pkg, model, "research_cost", level)
        _same(pkg, model, "trade_after_research", level, trade, coins)
    for wonder in model.wonders:
        _same(pkg, model, "research_cost", 3, [wonder.id])
        _same(pkg, model, "wonder_cost", wonder.id)
        _same(pkg, model, "wonder_cost", wonder.id, techs)
    pyramids = [[], techs[:2], techs[:5], techs[:9], [t for t in techs if t != "space_flight"]]
    for held, tech in itertools.product(pyramids, techs):
        _same(pkg, model, "may_place_technology", held, tech)
    for held in pyramids:
        _same(pkg, model, "pyramid_needs", held)
    for unit, rank in itertools.product(model.unit_types, range(0, 6)):
        _same(pkg, model, "unit_cost", unit.id, rank)
    for building, terrain in itertools.product(model.buildings, model.terrains):
        _same(pkg, model, "may_stand_on", building.id, terrain.id)
    governments = [None, *(g.id for g in model.governments)]
    for figures, government, defending in itertools.product(range(0, 5), governments, (False, True)):
        _same(pkg, model, "battle_hand_size", figures, government, defending)
    built = {b.id: n for n, b in enumerate(model.buildings)}
    situations = (None, "defending_city", "defending_capital")
    for situation, walled, generals in itertools.product(situations, (False, True), (0, 2)):
        _same(pkg, model, "combat_bonus", built, generals, situation, walled)
    for held, coins, space, captured in itertools.product(
        ([], ["space_flight"]), (0, 15), (None, 1, 21), (False, True)
    ):
        _same(pkg, model, "victories_met", held, coins, space, captured)
    items = [*(b.id for b in model.buildings), *(u.id for u in model.unit_types), *(g.id for g in model.governments)]
    for item in items:
        _same(pkg, model, "unlocked_by", item)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_entity_of_every_collection_reaches_the_package(ruleset: str) -> None:
    pkg, model = PACKAGES[ruleset], _model(ruleset)
    for table, collection, enum, _ in TABLES:
        ids = [e.id for e in getattr(model, collection)]
        assert list(getattr(pkg, table)) == ids, table
        assert [m.value for m in pkg.ID_ENUMS[collection]] == ids, enum
    for tech in model.technologies:
        record = pkg.TECHNOLOGIES[tech.id]
        assert record.name == tech.name
        assert record.level == (tech.level if isinstance(tech.level, int) else None)
        assert (record.unlocks is None) == (rules.known_unlocks(tech) is None)
    assert len(pkg.UNKNOWN_FACTS) > 0
    assert ruleset == pkg.RULESET_ID


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_one_engine_runs_unchanged_on_both_rulesets(ruleset: str) -> None:
    out = civilization_summary(PACKAGES[ruleset])
    assert out["id"] == ruleset
    assert out["level_2_cost"] == 11 and out["kept_with_4_coins"] == 4
    assert out["technologies_to_win"] == 15 and out["cheapest_unit"] == 5
    assert out["battle_hand"] == 8 and out["capital_bonus"] == 16
    assert out["coins_win"] == ("economy",)
    if ruleset == "sid-meiers-civilization":
        assert out["culture_win"] == "unknown"
        assert out["first_level_2"] == "unknown"  # most levels are not in the rulebook
    else:
        assert out["culture_win"] == ("culture",)
        assert out["first_level_2"] == "agriculture"


def test_the_package_reads_the_model_not_the_yaml() -> None:
    source = (REPO / "compiler/civrules/families/sid_meiers_civilization/package.py").read_text(encoding="utf-8")
    assert "yaml" not in source.lower().replace("the raw yaml", "")


def test_unlocked_by_walks_a_technology_table_once() -> None:
    """An engine asking which technologies unlock each of n items walks the technologies once, not
    n times; a new table (an assumptions view fills one in) is walked for itself."""
    from collections.abc import Iterator, Mapping

    from civrules_runtime_sid_meiers_civilization import logic

    class Counted(Mapping[str, Any]):
        def __init__(self, table: Mapping[str, Any]) -> None:
            self.table, self.walks = table, 0

        def __getitem__(self, key: str) -> Any:
            return self.table[key]

        def __iter__(self) -> Iterator[str]:
            self.walks += 1
            return iter(self.table)

        def __len__(self) -> int:
            return len(self.table)

    model = _model("sid-meiers-civilization-community")
    items = [*(b.id for b in model.buildings), *(u.id for u in model.unit_types), *(g.id for g in model.governments)]
    table = Counted(community.TECHNOLOGIES)
    answers = [logic.unlocked_by(table, item) for item in items]
    assert table.walks == 1
    # The model's ids are `str`; the package's helper is typed with its own literal ids.
    assert answers == [community.unlocked_by(item) for item in items]  # type: ignore[arg-type]
    other = Counted(community.TECHNOLOGIES)
    logic.unlocked_by(other, items[0])
    assert other.walks == 1
