"""Research costs: they rise with the level, and the top one fits on the trade dial."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from civrules.checks import check, diagnostic, setting
from civrules.diagnostics import Diagnostic, Severity, words
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


def _costs(ruleset: CivilizationRuleset) -> list[tuple[int, int, int]]:
    return [
        (n, int(c["level"]), int(c["trade"]))
        for n, c in enumerate(ruleset.rule("research").get("costs") or ())
        if isinstance(c, dict) and isinstance(c.get("level"), int) and isinstance(c.get("trade"), int)
    ]


@check("T004", "research-cost-does-not-rise", Severity.ERROR, reads=(setting("research"), setting("trade")))
def check_costs_rise(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a level's research cost is not above the cost of the level below (6, 11, 16, 21, 26, p11).

    Why: a higher technology that costs no more than a lower one flattens the pyramid: players
    would skip the cheap levels' trade-off.

    Fix: give each level more trade than the one below (the hint gives the costs that fit below the
    level above and the trade dial's maximum).

        research: {costs: [{level: 1, trade: 6}, {level: 2, trade: 6}]}   # FAIL
    """
    origin = ruleset.rule_origin("research")
    costs = sorted(_costs(ruleset), key=lambda c: c[1])
    dial = ruleset.rule("trade").get("dial_max")
    top = dial + 1 if isinstance(dial, int) else None
    for at, ((_, low, low_trade), (n, high, high_trade)) in enumerate(itertools.pairwise(costs)):
        if origin is not None and high_trade <= low_trade:
            ceiling = costs[at + 2][2] if at + 2 < len(costs) else top
            fits = words.between(low_trade, ceiling)
            yield diagnostic(
                "T004",
                f"level {high} costs {high_trade} trade, not more than level {low}'s {low_trade}",
                origin.span("costs", n, "trade"),
                f"make it {fits}"
                if fits is not None
                else f"no cost fits between level {low}'s {low_trade} and the cost above it ({ceiling}): "
                "change those too",
                subjects=(high, low),
            )


@check("T005", "research-cost-above-trade-dial", Severity.ERROR, reads=(setting("research"), setting("trade")))
def check_top_cost_fits(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a research cost is above the trade dial's maximum (27, p3).

    Why: trade never exceeds the dial, so a technology that needs more can never be researched.

    Fix: lower the cost, or raise the dial.

        research: {costs: [{level: 5, trade: 30}]}   # FAIL with trade: {dial_max: 27}
    """
    dial = ruleset.rule("trade").get("dial_max")
    origin = ruleset.rule_origin("research")
    if not isinstance(dial, int) or origin is None:
        return
    costs = _costs(ruleset)
    for n, level, trade in costs:
        if trade > dial:
            below = max((t for _, lower, t in costs if lower < level), default=None)
            fits = words.between(below, dial + 1)
            yield diagnostic(
                "T005",
                f"level {level} needs {trade} trade, more than the trade dial's maximum {dial}",
                origin.span("costs", n, "trade"),
                (f"make it {fits}" if below is not None else f"make it at most {dial}")
                if fits is not None
                else f"no cost fits above the level below ({below}) within the dial: lower that one, or raise the dial",
                subjects=(level, "dial_max"),
            )
