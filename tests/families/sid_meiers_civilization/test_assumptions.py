"""An engine supplies the facts the Sid Meier's Civilization rule data lacks: most technologies'
levels, many buildings' and wonders' costs (the base ruleset's sources give 2 of 21 levels). The
values assumed here are a table's, for the example: not the game's facts."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    sid_meiers_civilization,
    sid_meiers_civilization_community,
)
from civrules_runtime.errors import DraftRulesetError, OutOfDomainError  # noqa: E402
from civrules_runtime_sid_meiers_civilization import (  # noqa: E402
    AssumedPackage,
    Assumptions,
    RulesetPackage,
    UnknownFactError,
    UnknownIdError,
)

base = sid_meiers_civilization
PACKAGES: dict[str, RulesetPackage] = {
    "sid-meiers-civilization": sid_meiers_civilization,
    "sid-meiers-civilization-community": sid_meiers_civilization_community,
}


def test_a_table_plays_the_base_game_with_its_own_technology_levels_and_costs() -> None:
    """The worked example: the levels of Pottery, Code of Laws and Masonry, Stonehenge's cost and
    the temple's are not in the sources; the helpers refuse until the engine assumes them, then
    answer from the view, while the package itself still refuses."""
    with pytest.raises(UnknownFactError, match="level of pottery"):
        base.may_place_technology([], "pottery")
    with pytest.raises(UnknownFactError, match="cost of stonehenge"):
        base.wonder_cost("stonehenge")
    assumed = Assumptions(
        technology_levels={"pottery": 1, "code_of_laws": 1, "masonry": 2},
        wonder_costs={"stonehenge": 10},
        building_costs={"templo": 7},
        why="our table's agreement",
    )
    view = base.assuming(assumed)
    assert view.may_place_technology([], "pottery")
    assert not view.may_place_technology(["pottery"], "masonry")  # a level-2 needs two below it
    assert view.may_place_technology(["pottery", "code_of_laws"], "masonry")
    assert view.pyramid_needs(["pottery", "code_of_laws", "masonry"]) == {1: 3, 2: 3, 3: 3, 4: 2, 5: 1}
    assert view.wonder_cost("stonehenge") == 10 and view.WONDERS["stonehenge"].cost == 10
    assert view.BUILDINGS["templo"].cost == 7 and base.BUILDINGS["templo"].cost is None
    assert view.TECHNOLOGIES["sailing"] == base.TECHNOLOGIES["sailing"]  # what was not assumed
    assert isinstance(view, AssumedPackage) and assumed == view.ASSUMPTIONS
    with pytest.raises(UnknownFactError):
        base.wonder_cost("stonehenge")
    with pytest.raises(UnknownFactError):
        view.wonder_cost("the_hanging_gardens")  # only what was assumed
    assert view.research_cost(1) == base.research_cost(1) and view.unit_cost("infantaria", 1) == 5


def test_civilizations_and_units_can_be_assumed() -> None:
    view = base.assuming(
        Assumptions(
            starting_technologies={"roma": "code_of_laws"},
            starting_governments={"roma": "republic"},
            unit_deck_sizes={"infantaria": 20},
            wonder_eras={"stonehenge": "ancient"},
        )
    )
    assert view.CIVILIZATIONS["roma"].starting_technology == "code_of_laws"
    assert view.CIVILIZATIONS["roma"].starting_government == "republic"
    assert view.UNIT_TYPES["infantaria"].deck_size == 20
    assert view.WONDERS["stonehenge"].era == "ancient"  # ERAS is an unknown collection here


def test_an_assumption_never_overrides_a_fact_the_ruleset_gives() -> None:
    """Sailing's level (2), the Colossus's cost and the granary's are in the sources."""
    with pytest.raises(OutOfDomainError, match="level of sailing is in the rule data"):
        base.assuming(Assumptions(technology_levels={"sailing": 1}))
    with pytest.raises(OutOfDomainError, match="cost of colossus"):
        base.assuming(Assumptions(wonder_costs={"colossus": 1}))
    with pytest.raises(OutOfDomainError, match="cost of celeiro"):
        base.assuming(Assumptions(building_costs={"celeiro": 1}))
    with pytest.raises(OutOfDomainError, match="starting_government of egito"):
        base.assuming(Assumptions(starting_governments={"egito": "republic"}))
    with pytest.raises(UnknownIdError, match="potery"):
        base.assuming(Assumptions(technology_levels={"potery": 1}))
    with pytest.raises(UnknownIdError, match="potery"):
        base.assuming(Assumptions(starting_technologies={"roma": "potery"}))
    with pytest.raises(UnknownIdError, match="monarchy"):
        base.assuming(Assumptions(starting_governments={"roma": "monarchy"}))


def test_require_complete_still_refuses_a_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assumed facts are not the rules: a draft (both Sid Meier's rulesets are, by their manifests)
    stays a draft in the view; a complete one is complete in it."""
    assert base.DRAFT
    view = base.assuming(Assumptions(technology_levels={"pottery": 1}))
    with pytest.raises(DraftRulesetError, match="sid-meiers-civilization is a draft"):
        view.require_complete()
    monkeypatch.setattr(sys.modules[f"{base.__name__}.data"], "DRAFT", False)
    view.require_complete()


def test_assumptions_are_a_typed_python_value() -> None:
    assumed = Assumptions(technology_levels={"pottery": 1}, why="x")
    assert assumed.technology_levels == (("pottery", 1),)
    assert assumed.replace(why="y").technology_levels == assumed.technology_levels
    assert Assumptions(technology_levels=assumed.technology_levels) == assumed.replace(why="")


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_a_view_without_assumptions_answers_as_its_package_with_every_name(ruleset: str) -> None:
    package = PACKAGES[ruleset]
    view = package.assuming(Assumptions())
    module = sys.modules[f"civrules_rulesets.{ruleset.replace('-', '_')}"]
    for name in module.__all__:
        assert getattr(view, name) is not None or getattr(package, name) is None, name
    for name in ("TECHNOLOGIES", "BUILDINGS", "WONDERS", "UNIT_TYPES", "CIVILIZATIONS"):
        assert dict(getattr(view, name)) == dict(getattr(package, name)), name
    assert view.RULESET_ID == package.RULESET_ID and view.__version__ == package.__version__
    assert repr(view).startswith(f"<{package.RULESET_ID} assuming Assumptions(")
