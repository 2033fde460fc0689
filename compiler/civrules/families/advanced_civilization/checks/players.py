"""Nations and player counts: every supported count has its rules, every nation its place (16, 17.4)."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, setting
from civrules.diagnostics import Diagnostic, Related, Severity
from civrules.families.advanced_civilization.model import Nation, Ruleset


@check(
    "P001",
    "too-few-nations",
    Severity.ERROR,
    reads=(
        "player_counts.configurations",
        "player_counts.players",
    ),
)
def check_nations_per_count(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a set-up for N players offers fewer than N nations.

    Why: each player leads one nation (15.3); with fewer nations than players someone cannot play,
    usually because a nation was dropped from the list (16.2-16.8).

    Fix: list every nation the rules allow at that count (the list may have more nations than
    players: the rest are left out).

        - players: 4
          configurations:
            - id: eastern
              nations: [egypt, babylon, assyria]   # FAIL: 3 nations for 4 players
    """
    for count in ruleset.player_counts:
        for configuration in count.configurations:
            nations, c = configuration.nations, configuration.index
            if nations is None or len(nations) >= count.players:
                continue
            name = configuration.id if configuration.id is not None else c
            yield diagnostic(
                "P001",
                f"the {count.players}-player set-up `{name}` offers {len(nations)} "
                f"nation{'s' if len(nations) != 1 else ''} for {count.players} players",
                count.origin.span("configurations", c, "nations"),
                "list every nation the rules allow at this count",
            )


@check(
    "P002",
    "player-count-uncovered",
    Severity.ERROR,
    reads=("player_counts.players", setting("player_counts"), setting("players")),
)
def check_counts_cover_players(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the ruleset supports a number of players (between `players.min` and `players.max`) for
    which `player_counts.counts` has no entry.

    Why: the map in play, tokens per player and nations available depend on the number of players
    (16.1); a game of that size cannot be set up. If the rules for it are lost from the sources,
    say so with `status: missing` (as 16.4 and 16.5 are).

    Fix: add the count, with its facts or with `status: missing` and unknown facts.

        players: {min: 2, max: 8}
        player_counts:
          counts: [{players: 8}, {players: 7}, {players: 4}, ...]   # FAIL: no 6 or 5
    """
    found = ruleset.setting_origins.get("player_counts")
    players = ruleset.setting_origins.get("players")
    if found is None or players is None:
        return
    low, high = ruleset.players
    have = {count.players for count in ruleset.player_counts}
    absent = [n for n in range(high, low - 1, -1) if n not in have]
    if not absent:
        return
    numbers = ", ".join(str(n) for n in absent)
    yield diagnostic(
        "P002",
        f"no rules for {numbers} player{'s' if absent != [1] else ''}, although the ruleset supports "
        f"{low}-{high} players",
        found.key_span("counts"),
        "add each count to `player_counts.counts`, with `status: missing` if its rules are lost",
        [Related(players.span(), "supported players declared here")],
    )


@check("P003", "player-count-out-of-range", Severity.ERROR, reads=("player_counts.players", setting("players")))
def check_counts_in_range(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: `player_counts.counts` has an entry for a number of players outside `players.min` to
    `players.max`.

    Why: the count can never be chosen, or `players` is wrong and the count is the truth: either
    way sheets and generated code disagree about how many may play.

    Fix: widen `players`, or remove the entry.

        players: {min: 2, max: 8}
        player_counts:
          counts:
            - players: 9        # FAIL: more than players.max
    """
    low, high = ruleset.players
    players = ruleset.setting_origins.get("players")
    for count in ruleset.player_counts:
        if low <= count.players <= high:
            continue
        yield diagnostic(
            "P003",
            f"rules for {count.players} players, but the ruleset supports {low}-{high} players",
            count.origin.span("players"),
            "widen `players.min` / `players.max`, or remove this count",
            [Related(players.span(), "supported players declared here")] if players else [],
        )


@check("P004", "player-count-missing", Severity.INFO, reads=("player_counts",))
def check_missing_counts(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the rules for a number of players are marked `status: missing`: the ruleset supports the
    count but the sources lost its section (Advanced Civilization 16.4 and 16.5).

    Why: nobody can set up a game of that size from this data; a designer should know which counts
    still need a source.

    Fix: nothing to fix while the source is lost; when it is found, record the facts and set
    `status: given`.

        - players: 6
          status: missing      # INFO: six-player rules unknown
    """
    for count in ruleset.player_counts:
        if count.given:
            continue
        rules = ", ".join(count.rules)
        yield diagnostic(
            "P004",
            f"the rules for {count.players} players are missing from the sources",
            count.origin.span("status"),
            f"find section {rules} in another copy of the rulebook" if rules else None,
        )


def _positions(ruleset: Ruleset) -> Iterator[tuple[Nation, int]]:
    for nation in ruleset.nations:
        if isinstance(nation.ast_position, int):
            yield nation, nation.ast_position


@check("P005", "duplicate-ast-position", Severity.ERROR, reads=("nations.ast_position",))
def check_unique_ast_positions(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two nations have the same A.S.T. position.

    Why: A.S.T. order breaks every tie between nations (17.4) and orders most phases; two nations in
    one place leave the order undefined.

    Fix: give each nation the place of its track on the A.S.T.; mark a place the sources do not give
    as `{unknown: why}`.

        - id: africa
          ast_position: {position: 1}
        - id: italy
          ast_position: {position: 1}   # FAIL: Africa is first
    """
    first: dict[int, Nation] = {}
    for nation, position in _positions(ruleset):
        other = first.setdefault(position, nation)
        if other is nation:
            continue
        yield diagnostic(
            "P005",
            f"nation `{nation.id}` has A.S.T. position {position}, like `{other.id}`",
            nation.origin.span("ast_position", "position"),
            "give each nation its own place in A.S.T. order",
            [Related(other.origin.span("ast_position", "position"), "the same position here")],
        )


@check("P006", "ast-position-out-of-range", Severity.ERROR, reads=("nations.ast_position",))
def check_ast_position_range(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a nation's A.S.T. position is larger than the number of nations.

    Why: the A.S.T. lists one track per nation (10.2, 17.4), so positions run from 1 to the number of
    nations; a larger one means a nation is missing or the position is mistyped.

    Fix: correct the position, or add the missing nation.

        nations: [... nine nations ...]
        - id: egypt
          ast_position: {position: 10}   # FAIL: only 9 nations
    """
    count = len(ruleset.nations)
    for nation, position in _positions(ruleset):
        if position <= count:
            continue
        yield diagnostic(
            "P006",
            f"nation `{nation.id}` has A.S.T. position {position}, but there are {count} nations",
            nation.origin.span("ast_position", "position"),
            f"positions run from 1 to {count}",
        )
