"""The players the ruleset seats, and the facts that depend on them: the first game, the solo game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from civrules.checks import check, diagnostic, setting
from civrules.checks.players import seats_nobody
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.model import Origin


@check(
    "F017",
    "player-range-excludes-fact",
    Severity.ERROR,
    reads=(setting("players"), setting("first_game"), setting("solo")),
)
def check_player_range(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a fact of the ruleset is for a number of players `players.min` to `players.max` leaves
    out: the recommended first game (`first_game.players`, 2 in the rulebook, p5), or the solo
    game (the `solo` setting, p13) where `players.min` is more than 1. (Where `min` is above
    `max`, every game would be: R024 reports the range.)

    Why: the package and the sheets would still offer a game the ruleset does not seat (the solo
    helpers answer for a 1-player game of a ruleset for three and four). A variant that changes the
    range keeps the base's first game and solo rules unless it says otherwise.

    Fix: widen `players`, or drop the fact: in a variant, `first_game: null` or `solo: null` under
    `overlay.settings`.

        overlay: {settings: {players: {min: 3, max: 4, source: "house rule"}}}
                                          # FAIL: the base's first game (2) and solo game (1) kept
        overlay: {settings: {players: {min: 3, max: 4, source: "house rule"}, first_game: null, solo: null}}
                                                                                      # PASS
    """
    players, origin = ruleset.fact("players"), ruleset.fact_origin("players")
    if not isinstance(players, Mapping) or origin is None:
        return
    low, high = players.get("min"), players.get("max")
    if not isinstance(low, int) or not isinstance(high, int) or seats_nobody(low, high):
        return  # a range that seats nobody is R024's, not a fact's outside it
    first, first_origin = ruleset.fact("first_game"), ruleset.fact_origin("first_game")
    if isinstance(first, Mapping) and first_origin is not None:
        count = first.get("players")
        if isinstance(count, int) and not low <= count <= high:
            bound = "min" if count < low else "max"
            yield diagnostic(
                "F017",
                f"the first game is for {words.count(count, 'player')}, "
                f"outside the {low}-{high} players the ruleset seats",
                first_origin.span("players"),
                _hint(origin, bound, "first_game", f"make `first_game.players` a number from {low} to {high}"),
                [Related(origin.span(bound), f"players.{bound} is {players[bound]} here")],
                subjects=("first_game.players", f"players.{bound}"),
            )
    solo_origin = ruleset.fact_origin("solo")
    if solo_origin is not None and low > 1:
        yield diagnostic(
            "F017",
            f"the ruleset has solo rules, but seats {low}-{high} players: no game of 1",
            solo_origin.key_span(),
            _hint(origin, "min", "solo", "make `players.min` 1, or delete the `solo` setting"),
            [Related(origin.span("min"), f"players.min is {low} here")],
            subjects=("solo", "players.min"),
        )


def _hint(players: Origin, bound: str, fact: str, in_place: str) -> str:
    """The fix: where a variant set the bound, the patch that drops ``fact`` from it (it validates:
    `null` deletes a setting of the base); else the edit of the file that states both."""
    if any(name == bound for name, _ in players.changes):
        return f"add `{fact}: null` to this variant's `overlay.settings` (or widen its `players`)"
    return in_place


@check("F018", "players-beyond-factions", Severity.ERROR, reads=(setting("players"), "factions.id"))
def check_seats(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the ruleset seats more players (`players.max`) than it has factions.

    Why: each player leads one of the factions, with its board and its deck (the opening text, p1;
    the set-up's step 3, p5, gives each of the 4 factions its components): a fifth player has
    nothing to play, yet the package's `PLAYERS` and the sheets would offer the game to five.

    Fix: lower `players.max` to the factions' count, or add the factions (their boards, decks and
    cards) that seat the others.

        overlay: {settings: {players: {min: 1, max: 5, source: "house rule"}}}   # FAIL: 4 factions
        overlay: {settings: {players: {min: 1, max: 4, source: "house rule"}}}   # PASS
    """
    players, origin = ruleset.fact("players"), ruleset.fact_origin("players")
    if not isinstance(players, Mapping) or origin is None:
        return
    high = players.get("max")
    factions = list(ruleset.factions)
    if not isinstance(high, int) or isinstance(high, bool) or not factions or high <= len(factions):
        return
    yield diagnostic(
        "F018",
        f"the ruleset seats up to {high} players, but has {len(factions)} factions: each player plays one",
        origin.span("max"),
        f"lower `players.max` to {len(factions)}, or add the factions that seat the others",
        [Related(factions[0].origin.head(), f"the {len(factions)} factions begin here")],
        subjects=("players.max",),
    )
