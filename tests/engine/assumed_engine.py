"""Engine code written once against each family's protocol and run on views with assumptions.

It must type-check under mypy --strict with no ignore comment: a view is a ``RulesetPackage`` of its
family (``tests/engine/test_assumed_engine.py`` runs mypy on this file alone, and the project's mypy
run checks it too). The values assumed are a table's, for the example: not the game's facts.
"""

from __future__ import annotations

import civrules_runtime_advanced_civilization as ac_runtime
import civrules_runtime_imperial_settlers as is_runtime
import civrules_runtime_sid_meiers_civilization as smc_runtime
from civrules_rulesets import expansion_project, imperial_settlers, mega_civilization, sid_meiers_civilization


def law_price(rules: ac_runtime.RulesetPackage) -> int:
    """What Law costs a player who owns nothing: an engine's Advanced Civilization code."""
    return rules.purchase_cost([], "law")


def city_and_token(rules: ac_runtime.RulesetPackage) -> int:
    """The unit points of a city and a token in a calamity's loss (the resolution phase's rule)."""
    return rules.unit_points(cities=1, tokens=1)


def pottery_first(rules: smc_runtime.RulesetPackage) -> bool:
    """Can Pottery open a pyramid: an engine's Sid Meier's Civilization code."""
    return rules.may_place_technology([], "pottery")


def japanese_income(rules: is_runtime.RulesetPackage, locations: list[str]) -> dict[str, int]:
    """What the Japanese collect with ``locations``: an engine's Imperial Settlers code."""
    return dict(rules.production("japanese", locations=locations))


def views() -> tuple[
    ac_runtime.RulesetPackage, ac_runtime.RulesetPackage, smc_runtime.RulesetPackage, is_runtime.RulesetPackage
]:
    """One view per family, typed as the family's protocol without a cast."""
    ep: ac_runtime.RulesetPackage = expansion_project.assuming(ac_runtime.Assumptions(card_costs={"law": 170}))
    mega: ac_runtime.RulesetPackage = mega_civilization.assuming(ac_runtime.Assumptions(why="nothing it lacks"))
    smc: smc_runtime.RulesetPackage = sid_meiers_civilization.assuming(
        smc_runtime.Assumptions(technology_levels={"pottery": 1})
    )
    imperial: is_runtime.RulesetPackage = imperial_settlers.assuming(
        is_runtime.Assumptions(card_productions={"jap011": ["wood"]})
    )
    return ep, mega, smc, imperial


def run() -> tuple[int, int, bool, dict[str, int]]:
    """The engine's answers on the views (a view of a view takes the package's own facts anew)."""
    ep, mega, smc, imperial = views()
    direct = ac_runtime.AssumedPackage(expansion_project, ac_runtime.Assumptions(card_costs={"law": 170}))
    again: ac_runtime.RulesetPackage = direct  # the class itself satisfies the protocol
    assert again.assuming(ac_runtime.Assumptions()).CARDS["law"].cost is None
    assert isinstance(mega, ac_runtime.AssumedPackage) and mega.ASSUMPTIONS.unit_points is None  # the data gives them
    smc_class: smc_runtime.RulesetPackage = smc_runtime.AssumedPackage(
        sid_meiers_civilization, smc_runtime.Assumptions()
    )
    is_class: is_runtime.RulesetPackage = is_runtime.AssumedPackage(imperial_settlers, is_runtime.Assumptions())
    assert smc_class.RULESET_ID == "sid-meiers-civilization" and is_class.RULESET_ID == "imperial-settlers"
    return law_price(ep), city_and_token(mega), pottery_first(smc), japanese_income(imperial, ["jap011"])
