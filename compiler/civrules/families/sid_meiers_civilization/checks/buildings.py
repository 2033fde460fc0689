"""Buildings: upgrades cost more than their base, limited buildings keep off water."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic
from civrules.diagnostics import Diagnostic, Severity
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


@check("T008", "upgrade-not-dearer-than-base", Severity.ERROR, reads=("buildings",))
def check_upgrade_costs(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: an upgraded building costs no more than the basic building it upgrades (Granary 5,
    Aqueduct 8, p13).

    Why: once the upgrade is unlocked the player must build it instead of the basic one (p13);
    an upgrade that is not dearer is no trade-off.

    Fix: give the upgrade a higher cost.

        - {id: aqueduto, upgrade_of: celeiro, cost: 5}   # FAIL: the Granary costs 5
    """
    for building in ruleset.buildings:
        base = ruleset.buildings.get(building.upgrade_of) if building.upgrade_of else None
        if base is None or not isinstance(building.cost, int) or not isinstance(base.cost, int):
            continue
        if building.cost <= base.cost:
            yield diagnostic(
                "T008",
                f"building `{building.id}` costs {building.cost}, not more than `{base.id}` ({base.cost}) it upgrades",
                building.origin.span("cost"),
                f"make it cost more than {base.cost}",
            )


@check("T009", "limited-building-on-water", Severity.ERROR, reads=("buildings", "terrains"))
def check_limited_terrain(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a limited (starred) building, or a building's terrain list, allows water where the rule
    does not: limited buildings go on "any terrain except water" (p6).

    Why: the table's rule for the starred row is one clause; a water square in its list is a typo.

    Fix: remove the water terrain.

        - {id: templo, limited: true, terrains: [agua, pradaria]}   # FAIL
    """
    water = {t.id for t in ruleset.terrains if t.water}
    for building in ruleset.buildings:
        if building.limited is True and isinstance(building.terrains, tuple):
            wet = [t for t in building.terrains if t in water]
            if wet:
                yield diagnostic(
                    "T009",
                    f"limited building `{building.id}` may stand on water ({', '.join(wet)})",
                    building.origin.span("terrains"),
                    "limited buildings go on any terrain except water",
                )
