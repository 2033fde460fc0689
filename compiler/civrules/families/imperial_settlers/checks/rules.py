"""Rules: the round's phases, the solo round's phases and the solo achievement table are consistent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from civrules.checks import check, diagnostic, setting
from civrules.diagnostics import Diagnostic, Severity
from civrules.diagnostics.suggest import closest, mean
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset


@check("F012", "scoring-constants", Severity.ERROR, reads=("phases.order", setting("scoring")))
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
    scoring = ruleset.scoring()
    if scoring is not None:
        common, faction = scoring.common_location_vp, scoring.faction_location_vp
        if common is not None and faction is not None and faction < common:
            yield diagnostic(
                "F012",
                f"a faction location is worth {faction} VP, less than a common location's {common} (p7)",
                scoring.origin.span("faction_location_vp"),
                "faction locations are worth 2 VP, common ones 1",
                subjects=("faction_location_vp", "common_location_vp"),
            )
    orders = sorted(phase.order for phase in ruleset.phases)
    if orders and orders != list(range(1, len(orders) + 1)):
        times = Counter(orders)
        wrong = next(p for p in ruleset.phases if p.order not in range(1, len(orders) + 1) or times[p.order] > 1)
        yield diagnostic(
            "F012",
            f"the phases are numbered {', '.join(map(str, orders))}; a round's phases run 1 to {len(orders)} (p6)",
            wrong.origin.span("order"),
            "number the phases in their order",
            subjects=(wrong.id,),
        )


@check("F013", "solo-achievement-thresholds", Severity.ERROR, reads=(setting("solo"),))
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
    table = ruleset.solo_table()
    if table is None:
        return
    origin = table.origin
    previous: int | None = None
    for index, level in enumerate(table.levels):
        if level is None:
            continue
        if index == 0:
            previous = level.below if level.below is not None else level.at_least
            continue
        threshold = level.at_least
        if threshold is None:
            yield diagnostic(
                "F013",
                f"achievement `{level.id}` has no `at_least`; only the lowest level is `below`",
                origin.span("achievements", "levels", index),
                "give it `at_least`",
                subjects=(level.id, "at_least", "below"),
            )
            continue
        if previous is not None and (threshold < previous or (index > 1 and threshold == previous)):
            yield diagnostic(
                "F013",
                f"achievement `{level.id}` starts at {threshold}, not above the level before ({previous})",
                origin.span("achievements", "levels", index, "at_least"),
                "order the levels lowest first",
                subjects=(level.id,),
            )
        previous = threshold


#: The phase of a solo round that is no phase of the round: the virtual player's attack (p13).
SOLO_ATTACK = "attack"


@check("F016", "unknown-solo-phase", Severity.ERROR, reads=("phases.id", setting("solo")))
def check_solo_phases(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a phase of the solo round (`solo.phases`) is neither a phase of the round (`phases`) nor
    `attack`, the virtual player's attack that a solo round adds after clean-up (p13).

    Why: a solo round plays the round's phases and then the attack, in the order this list gives;
    a phase that is not in the ruleset cannot be played, and the engine package and the sheets
    would list it all the same.

    Fix: name a phase of `phases` (the hint names the closest), or `attack`.

        solo:
          phases: [lookout, producton, action, clean_up, attack]   # FAIL: did you mean `production`?
    """
    solo = ruleset.solo_phases()
    if solo is None:
        return
    known = [*ruleset.phases.ids(), SOLO_ATTACK]
    for index, phase in enumerate(solo.phases):
        if phase is None or phase in known:
            continue
        suggestion = closest(phase, known)
        yield diagnostic(
            "F016",
            f"solo phase `{phase}` is no phase of the round, nor the virtual player's `{SOLO_ATTACK}`",
            solo.origin.span("phases", index),
            mean(phase, suggestion) if suggestion else f"a solo round's phases: {', '.join(known)}",
            suggestion=suggestion,
            subjects=(phase, SOLO_ATTACK),
        )
