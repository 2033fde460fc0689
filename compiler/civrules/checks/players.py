"""The range of players a ruleset seats (its manifest's `players`), whatever its family."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from civrules.checks import check, diagnostic, setting
from civrules.diagnostics import Diagnostic, Related, Severity

if TYPE_CHECKING:
    from civrules.model import Ruleset


@check("R024", "player-range-reversed", Severity.ERROR, reads=(setting("players"),))
def check_player_range(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the ruleset's `players` range is reversed: `players.min`, the fewest players it seats,
    is more than `players.max`, the most.

    Why: such a range seats nobody. The package's players and the sheets would print it ("5-4
    players"), and the set-ups and decks given by number of players
    would be judged against a range no game has. A variant that raises `min` above its base's
    `max` (or lowers `max` below its base's `min`) keeps the other bound as the base wrote it.

    Fix: a `min` no more than `max` (swapped, if they were written the wrong way round); in a
    variant, both bounds under `overlay.settings.players`.

        players: {min: 2, max: 4, rule: "p2"}                              # PASS
        players: {min: 4, max: 2, rule: "p2"}                              # FAIL: seats nobody
        overlay: {settings: {players: {min: 5, source: "house rule"}}}     # FAIL: the base's max 4 kept
        overlay: {settings: {players: {min: 5, max: 6, source: "house rule"}}}   # PASS
    """
    found = ruleset.setting("players")
    if found is None or not isinstance(found[0], Mapping):
        return
    players, origin = found
    low, high = players.get("min"), players.get("max")
    if not seats_nobody(low, high):
        return
    changed = {name for name, _ in origin.changes} & {"min", "max"}
    message = f"`players.min` ({low}) is more than `players.max` ({high}): the ruleset seats nobody"
    if len(changed) == 1:
        # a variant wrote one bound and kept its base's other: the finding goes to the one it wrote
        (bound,) = changed
        other = "max" if bound == "min" else "min"
        if bound == "min":
            fix = f"write a `min` of at most {high} here, or add `max: {low}` or more beside it"
        else:
            fix = f"write a `max` of at least {low} here, or add `min: {high}` or less beside it"
        hint = f"{fix} (the base's `{other}` is {players[other]})"
    else:
        bound, other = "min", "max"
        hint = (
            f"`min` is the fewest players and `max` the most: write `min: {high}` and `max: {low}` if they were swapped"
        )
    yield diagnostic(
        "R024",
        message,
        origin.span(bound),
        hint,
        [Related(origin.span(other), f"players.{other} is {players[other]} here")],
        subjects=("players.min", "players.max"),
    )


def seats_nobody(low: object, high: object) -> bool:
    """Whether a `players` range seats nobody: both bounds whole numbers, `min` above `max`.

    R024 reports it. A check that judges other facts against the range (a count's rules, the
    best number, a band of counts) says nothing of them then: each would be "outside 5-4
    players", a range no game has, and the fix is the range's.

    >>> seats_nobody(5, 4), seats_nobody(2, 4), seats_nobody(2, None)
    (True, False, False)
    """
    if isinstance(low, bool) or isinstance(high, bool):
        return False
    return isinstance(low, int) and isinstance(high, int) and low > high
