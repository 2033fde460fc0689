"""The players the ruleset seats, and the facts that depend on them."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, setting
from civrules.checks.players import seats_nobody
from civrules.diagnostics import Diagnostic, Related, Severity
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


@check("T018", "best-players-outside-range", Severity.ERROR, reads=(setting("players"),))
def check_best_players(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: `players.best`, the best number of players the source names, is outside `players.min` to
    `players.max`. (Where `min` is above `max`, every number would be: R024 reports the range.)

    Why: the package's PLAYERS and the sheets would say the game is best with a number of players
    it does not seat. A variant that changes the range (a house rule for five and six players)
    keeps the base's `best` unless it says otherwise: the base's best is no longer a game it plays.

    Fix: a best number within the range, or none: in a variant, `best: null` beside the new range.

        players: {min: 2, max: 4, best: 4, rule: "p2"}             # PASS
        overlay: {settings: {players: {min: 5, max: 6, source: "house rule"}}}
                                                                   # FAIL: the base's best 4 kept
        overlay: {settings: {players: {min: 5, max: 6, best: null, source: "house rule"}}}   # PASS
    """
    players, origin = ruleset.rule("players"), ruleset.rule_origin("players")
    if origin is None:
        return
    low, high, best = players.get("min"), players.get("max"), players.get("best")
    if not (isinstance(low, int) and isinstance(high, int) and isinstance(best, int)) or low <= best <= high:
        return
    if seats_nobody(low, high):
        return  # no best number is within a range that seats nobody: R024 reports the range
    bound = "min" if best < low else "max"
    by_variant = any(name == bound for name, _ in origin.changes)
    if by_variant:
        hint = (
            f"add `best: null` to this variant's `overlay.settings.players` (the base's best number, {best}, "
            f"is no game of {low}-{high} players), or a best number from {low} to {high}"
        )
    else:
        hint = f"make `best` a number from {low} to {high}, or leave it out"
    yield diagnostic(
        "T018",
        f"the best number of players, {best}, is outside the {low}-{high} players the ruleset seats",
        origin.span("best"),
        hint,
        [Related(origin.span(bound), f"players.{bound} is {players[bound]} here")],
        subjects=("best", f"players.{bound}"),
    )
