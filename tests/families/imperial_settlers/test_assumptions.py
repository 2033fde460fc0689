"""An engine supplies the facts the Imperial Settlers rule data lacks: what some production
locations produce (the sources leave the Japanese deck's jap011 without a production) and
what some locations give when built. The values assumed here are a table's, for the example: not
the game's facts."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    imperial_settlers,
    imperial_settlers_advanced_lookout,
    imperial_settlers_alternative_lookout,
    imperial_settlers_peaceful,
)
from civrules_runtime.errors import DraftRulesetError, NotACollectionError, OutOfDomainError  # noqa: E402
from civrules_runtime_imperial_settlers import (  # noqa: E402
    AssumedPackage,
    Assumptions,
    RulesetPackage,
    UnknownFactError,
    UnknownIdError,
)

IS = imperial_settlers
PACKAGES: dict[str, RulesetPackage] = {
    "imperial-settlers": imperial_settlers,
    "imperial-settlers-peaceful": imperial_settlers_peaceful,
    "imperial-settlers-alternative-lookout": imperial_settlers_alternative_lookout,
    "imperial-settlers-advanced-lookout": imperial_settlers_advanced_lookout,
}


def test_a_table_plays_with_its_own_production_for_a_location_the_sources_leave_blank() -> None:
    """The worked example: the Japanese board produces four workers, a raze, a defence and a wood
    (p6, the faction board); jap011 is a production location whose production is unknown. The
    table assumes it produces one wood: the view's production phase counts it."""
    with pytest.raises(UnknownFactError, match="what 'jap011' produces"):
        IS.production("japanese", locations=["jap011"])
    assumed = Assumptions(card_productions={"jap011": ["wood"]}, card_build_bonuses={"jap011": ["vp"]}, why="ours")
    view = IS.assuming(assumed)
    assert view.production("japanese") == IS.production("japanese") == {"defence": 1, "raze": 1, "wood": 1, "worker": 4}
    assert view.production("japanese", locations=["jap011"]) == {"defence": 1, "raze": 1, "wood": 2, "worker": 4}
    assert view.CARDS["jap011"].production == ("wood",) and IS.CARDS["jap011"].production is None
    assert view.card_of("JAP011") == view.CARDS["jap011"] and view.card_of("JAP011").build_bonus == ("vp",)
    assert view.can_pay("jap011", ["stone", "location"]) and not view.can_pay("jap011", ["stone"])
    assert isinstance(view, AssumedPackage) and assumed == view.ASSUMPTIONS
    with pytest.raises(UnknownFactError):
        IS.production("japanese", locations=["jap011"])  # the package itself is unchanged
    with pytest.raises(UnknownFactError):
        view.production("romans", locations=["rom011"])  # only what was assumed
    # A production the sources give per location of a colour is computed in the view as in the package.
    assert view.production("japanese", locations=["jap006", "jap020"]) == IS.production(
        "japanese", locations=["jap006", "jap020"]
    )


def test_an_assumption_never_overrides_a_fact_the_ruleset_gives() -> None:
    """jap006's cost (a wood and a location) is in the sources, and so is bar001's production."""
    with pytest.raises(OutOfDomainError, match="cost of jap006 is in the rule data"):
        IS.assuming(Assumptions(card_costs={"jap006": ["stone"]}))
    with pytest.raises(OutOfDomainError, match="production of bar001"):
        IS.assuming(Assumptions(card_productions={"bar001": ["wood"]}))
    with pytest.raises(OutOfDomainError, match="production of jap006"):  # 1 worker per pink location (p11)
        IS.assuming(Assumptions(card_productions={"jap006": ["wood"]}))
    with pytest.raises(OutOfDomainError, match="not a production location"):
        IS.assuming(Assumptions(card_productions={"bar004": ["wood"]}))
    with pytest.raises(UnknownIdError, match="'wod'"):
        IS.assuming(Assumptions(card_productions={"jap011": ["wod"]}))
    with pytest.raises(UnknownIdError, match="jap666"):
        IS.assuming(Assumptions(card_productions={"jap666": ["wood"]}))
    with pytest.raises(NotACollectionError, match="write \\['wood'\\]"):
        Assumptions(card_productions={"jap006": "wood"})


def test_require_complete_still_refuses_a_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    view = IS.assuming(Assumptions(card_productions={"jap011": ["wood"]}))
    view.require_complete()  # the ruleset is not a draft
    monkeypatch.setattr(sys.modules[f"{IS.__name__}.data"], "DRAFT", True)
    with pytest.raises(DraftRulesetError):
        view.require_complete()


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_a_view_without_assumptions_answers_as_its_package_with_every_name(ruleset: str) -> None:
    package = PACKAGES[ruleset]
    view = package.assuming(Assumptions())
    module = sys.modules[f"civrules_rulesets.{ruleset.replace('-', '_')}"]
    for name in module.__all__:
        assert getattr(view, name) is not None or getattr(package, name) is None, name
    assert dict(view.CARDS) == dict(package.CARDS)
    assert view.production("romans") == package.production("romans")
    assert view.deck("common") == package.deck("common")
