"""Rules: the round's phases and the solo achievement table are consistent."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic
from civrules.diagnostics import Diagnostic, Severity
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset


@check("F012", "scoring-constants", Severity.ERROR)
def check_scoring(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the scoring constants disagree: a faction location is worth less than a common one (2
    and 1 VP, p7), or the phases of a round are not numbered 1, 2, … without gaps or repeats (four
    phases, p6).

    Why: the end-of-game score and every helper that plays a round read these numbers; a variant
    that swaps them by mistake changes every game silently.

    Fix: restore the order, or give faction locations at least a common location's VP.

        scoring: {common_location_vp: 2, faction_location_vp: 1}   # FAIL
    """
    found = ruleset.setting("scoring")
    if found is not None and isinstance(found[0], dict):
        value, origin = found
        common, faction = value.get("common_location_vp"), value.get("faction_location_vp")
        if isinstance(common, int) and isinstance(faction, int) and faction < common:
            yield diagnostic(
                "F012",
                f"a faction location is worth {faction} VP, less than a common location's {common} (p7)",
                origin.span("faction_location_vp"),
                "faction locations are worth 2 VP, common ones 1",
            )
    orders = sorted(phase.order for phase in ruleset.phases)
    if orders and orders != list(range(1, len(orders) + 1)):
        wrong = next(p for p in ruleset.phases if p.order not in range(1, len(orders) + 1) or orders.count(p.order) > 1)
        yield diagnostic(
            "F012",
            f"the phases are numbered {', '.join(map(str, orders))}; a round's phases run 1 to {len(orders)} (p6)",
            wrong.origin.span("order"),
            "number the phases in their order",
        )


@check("F013", "solo-achievement-thresholds", Severity.ERROR)
def check_achievements(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the solo achievement table (p14) is not a ladder: the lowest level must be `below` the
    next level's `at_least`, and every later level's `at_least` must be higher than the one before.

    Why: a score must fall into exactly one level; a table out of order gives two levels, or none.

    Fix: order the levels lowest first, each threshold above the last.

        levels:
          - {id: servo, at_least: 30}
          - {id: escudeiro, at_least: 30}   # FAIL: not above 30
    """
    found = ruleset.setting("solo")
    if found is None or not isinstance(found[0], dict):
        return
    solo, origin = found
    levels = (solo.get("achievements") or {}).get("levels") or []
    previous: int | None = None
    for index, level in enumerate(levels):
        if not isinstance(level, dict):
            continue
        if index == 0:
            previous = level.get("below") if isinstance(level.get("below"), int) else level.get("at_least")
            continue
        threshold = level.get("at_least")
        if not isinstance(threshold, int):
            yield diagnostic(
                "F013",
                f"achievement `{level.get('id')}` has no `at_least`; only the lowest level is `below`",
                origin.span("achievements", "levels", index),
                "give it `at_least`",
            )
            continue
        if previous is not None and (threshold < previous or (index > 1 and threshold == previous)):
            yield diagnostic(
                "F013",
                f"achievement `{level.get('id')}` starts at {threshold}, not above the level before ({previous})",
                origin.span("achievements", "levels", index, "at_least"),
                "order the levels lowest first",
            )
        previous = threshold
