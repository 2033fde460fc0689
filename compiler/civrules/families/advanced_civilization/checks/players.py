"""Nations and player counts: every supported count has its rules, every nation its place (16, 17.4)."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of, setting
from civrules.checks.players import seats_nobody
from civrules.diagnostics import Diagnostic, Related, Severity, Span, words
from civrules.families.advanced_civilization.model import Nation, Ruleset
from civrules.model import Origin
from civrules.support.values import frozen_value


@check(
    "P001",
    "too-few-nations",
    Severity.ERROR,
    reads=(
        "player_counts.configurations",
        "player_counts.players",
    ),
)
@made_of("player_counts")
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
                f"nation{'s' if len(nations) != 1 else ''} for {words.count(count.players, 'player')}",
                count.origin.span("configurations", c, "nations"),
                "list every nation the rules allow at this count",
                subjects=(name,),
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
        subjects=("player_counts.counts", *absent),
        from_variant=_counts_added(absent) if len(ruleset.chain) > 1 else None,
    )


def _counts_added(absent: list[int]) -> str:
    """P002's fix as a variant makes it: the entries its `overlay.player_counts` adds, the first
    written out whole (each fact unknown until the designer writes the rules they play by)."""
    each = "the count" if len(absent) == 1 else f"the {len(absent)} counts, one entry each"
    first = absent[-1]
    return (
        f"add {each} in `overlay.player_counts`, `add: [{{players: {first}, status: given, "
        'source: "house rule: write why here", tokens_per_player: {unknown: "write why no source gives it here"}, '
        'configurations: {unknown: "write why no source gives it here"}}]` '
        "with the facts your rules give in place of the unknowns (`status: missing` where a rulebook's are lost)"
    )


@check("P003", "player-count-out-of-range", Severity.ERROR, reads=("player_counts.players", setting("players")))
def check_counts_in_range(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: `player_counts.counts` has an entry for a number of players outside `players.min` to
    `players.max`. (Where `min` is above `max`, every count would be: R024 reports the range.)

    Why: the count can never be chosen, or `players` is wrong and the count is the truth: either
    way sheets and generated code disagree about how many may play.

    Fix: widen `players`, or remove the entry.

        players: {min: 2, max: 8}
        player_counts:
          counts:
            - players: 9        # FAIL: more than players.max
    """
    low, high = ruleset.players
    if seats_nobody(low, high):
        return  # every count would be outside a range no game has: R024's finding
    players = ruleset.setting_origins.get("players")
    outside = [count.players for count in ruleset.player_counts if not low <= count.players <= high]
    # one fix for them all, so that the findings one change of `players` makes are told as one
    removed = ", ".join(f'{{players: {n}, why: "..."}}' for n in outside)
    for count in ruleset.player_counts:
        if low <= count.players <= high:
            continue
        yield diagnostic(
            "P003",
            f"rules for {words.count(count.players, 'player')}, but the ruleset supports {low}-{high} players",
            count.origin.span("players"),
            "widen `players.min` / `players.max`, or remove this count",
            [Related(players.span(), "supported players declared here")] if players else [],
            subjects=(count.players,),
            from_variant=(
                f"remove the count{'s' if len(outside) > 1 else ''} in `overlay.player_counts`, `remove: [{removed}]`"
                if len(ruleset.chain) > 1
                else None
            ),
        )


@check("P004", "player-count-missing", Severity.INFO, reads=("player_counts",))
@made_of("player_counts")
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
            f"the rules for {words.count(count.players, 'player')} are missing from the sources",
            count.origin.span("status"),
            f"find section {rules} in another copy of the rulebook" if rules else None,
            subjects=(count.players, *count.rules),
        )


def _positions(ruleset: Ruleset) -> Iterator[tuple[Nation, int]]:
    for nation in ruleset.nations:
        if isinstance(nation.ast_position, int):
            yield nation, nation.ast_position


@check("P005", "duplicate-ast-position", Severity.ERROR, reads=("nations.ast_position",))
@made_of("nations")
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
            subjects=(nation.id, other.id),
        )


@check("P006", "ast-position-out-of-range", Severity.ERROR, reads=("nations.ast_position",))
@made_of("nations")
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
            subjects=(nation.id,),
        )


@check(
    "P007",
    "player-band-misplaced",
    Severity.ERROR,
    reads=(
        setting("hand_limit"),
        setting("deck_compositions"),
        setting("non_native_block_bonus"),
        setting("players"),
        "calamities.copies_by_players",
    ),
)
def check_player_bands(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a band of player counts (`hand_limit.by_players`, `deck_compositions`,
    `non_native_block_bonus`, a calamity's `copies_by_players`) holds a count that an earlier band
    of the same list holds too (for deck compositions, one of the same `map_region`), reaches beyond
    the counts the ruleset is for (`players.min` to `players.max`; not said of a calamity's copies,
    which are the card set's and kept by a variant seating fewer players), or holds no count at all
    (its `min` above its `max`). (Where the ruleset's own `players.min` is above its `max`, R024
    reports that, and no band is said to reach beyond it.)

    Why: each count has one hand limit (Mega Civilization §12: 8 commodity cards at 5-11 players, 9
    at 12-18), one set of trade decks, one block bonus and one number of each calamity's cards
    (Expansion Project 8.3.1: the duplicates only with twelve or more). With two bands for a count
    the generated package and the sheets answer the first written and hide the other; a count
    outside `players` is never played, so the band is mistyped or `players` is wrong. A count no
    band holds is not an error: that fact is not in the sources.

    Fix: make the bands meet without sharing a count, within `players`.

        players: {min: 5, max: 18}
        hand_limit:
          by_players:
            - {players: {min: 5, max: 11}, commodity_cards: 8}
            - {players: {min: 10, max: 18}, commodity_cards: 9}   # FAIL: 10 and 11 twice
    """
    lists: list[tuple[str, Origin | None, list[_Band], _Overlay]] = []
    hand = ruleset.hand_limit
    if hand is not None and hand.by_players:
        bands = [_Band(i, b.players_min, b.players_max, None) for i, b in enumerate(hand.by_players)]
        lists.append(("hand-limit band", hand.origin, bands, _Overlay("settings", "hand_limit", "by_players")))
    compositions = [_Band(i, c.players_min, c.players_max, c.region) for i, c in enumerate(ruleset.deck_compositions)]
    lists.append(
        (
            "deck composition",
            ruleset.setting_origins.get("deck_compositions"),
            compositions,
            _Overlay("settings", "deck_compositions", None),
        )
    )
    bonuses = [_Band(i, b.players_min, b.players_max, None) for i, b in enumerate(ruleset.block_bonuses)]
    lists.append(
        (
            "block-bonus band",
            ruleset.setting_origins.get("non_native_block_bonus"),
            bonuses,
            _Overlay("settings", "non_native_block_bonus", None),
        )
    )
    for calamity in ruleset.calamities:
        copies = [_Band(i, b.players_min, b.players_max, None) for i, b in enumerate(calamity.copies_by_players)]
        lists.append(
            (
                f"`{calamity.id}` copies band",
                calamity.origin,
                copies,
                _Overlay("calamities", calamity.id, "copies_by_players"),
            )
        )
    low, high = ruleset.players
    players = ruleset.setting_origins.get("players")
    supported = [Related(players.span(), "supported players declared here")] if players else []
    for noun, origin, bands, overlay in lists:
        if origin is None or not bands:
            continue
        path: tuple[str, ...] = (
            ("by_players",)
            if noun == "hand-limit band"
            else ("copies_by_players",)
            if noun.endswith("copies band")
            else ()
        )
        # A calamity's copies are the card set's, which a variant seating fewer players keeps
        # (Central America's nine players and the Expansion Project's 12-18 band): not held to
        # `players`, only to one band per count.
        within = not noun.endswith("copies band") and not seats_nobody(low, high)  # reversed: R024's
        yield from _misplaced(noun, origin, path, bands, (low, high) if within else (1, 64), supported, overlay)


@frozen_value
class _Overlay:
    """Where a variant changes a list of bands: `overlay.settings` and the setting's key (and the
    field of it that holds the list, a hand limit's `by_players`), or `overlay.calamities` and the
    calamity's id with its `copies_by_players`."""

    block: str
    key: str
    field: str | None

    def band_changed(self, band: _Band, to: tuple[int, int] | None) -> str:
        """P007's fix as a variant writes it: the band ``band`` given the players ``to``, or
        removed (None), by the list operations of its overlay (a band is named by its players, and
        its map region where it has one)."""
        where = f"{{players: {{min: {band.first}, max: {band.last}}}"
        where += f", map_region: {band.region}}}" if band.region is not None else "}"
        cite = 'source: "house rule: write why here"'
        if to is None:
            operation = f"{{remove: [{where}]}}"
        elif self.field is None:  # a list setting's elements cite in their `with:`
            operation = f"{{patch: [{{where: {where}, with: {{players: {{min: {to[0]}, max: {to[1]}}}, {cite}}}}}]}}"
        else:
            operation = f"{{patch: [{{where: {where}, with: {{players: {{min: {to[0]}, max: {to[1]}}}}}}}]}}"
        if self.block == "calamities":
            return f"in `overlay.calamities`, `patch: [{{id: {self.key}, {self.field}: {operation}, {cite}}}]`"
        if self.field is None:
            return f"in `overlay.settings`, `{self.key}: {operation}`"
        return f"in `overlay.settings`, `{self.key}: {{{self.field}: {operation}, {cite}}}`"


@frozen_value
class _Band:
    """One band of player counts as written: its place in its list, its ends, its map region."""

    index: int
    first: int | None
    last: int | None
    region: str | None


def _misplaced(
    noun: str,
    origin: Origin,
    path: tuple[str, ...],
    bands: list[_Band],
    supported_range: tuple[int, int],
    supported: list[Related],
    overlay: _Overlay,
) -> Iterator[Diagnostic]:
    low, high = supported_range

    def where(band: _Band) -> Span:
        return origin.span(*path, band.index, "players")

    def named(band: _Band) -> str:
        region = f" ({band.region})" if band.region is not None else ""
        return f"{band.first}-{band.last} players{region}"

    def subjects(band: _Band) -> tuple[str, ...]:
        """The band as the message names it: its players, and its region where it has one."""
        return (f"{band.first}-{band.last}", *([band.region] if band.region is not None else []))

    placed: list[tuple[str, int, int, _Band]] = []
    for band in bands:
        first, last = band.first, band.last
        if first is None or last is None:
            continue
        if first > last:
            yield diagnostic(
                "P007",
                f"the {noun} for {named(band)} holds no player count: its `min` is above its `max`",
                where(band),
                f"write `{{min: {last}, max: {first}}}`",
                subjects=("min", "max"),
                from_variant=overlay.band_changed(band, (last, first)),
            )
            continue
        if first < low or last > high:
            inside = (max(first, low), min(last, high))
            widen = f"widen `players` to {min(first, low)}-{max(last, high)}"
            narrow = f"narrow the band to `{{min: {inside[0]}, max: {inside[1]}}}`, or {widen}"
            yield diagnostic(
                "P007",
                f"the {noun} for {named(band)} reaches beyond the {low}-{high} players the ruleset is for",
                where(band),
                narrow if inside[0] <= inside[1] else f"remove the band, or {widen}",
                supported,
                subjects=subjects(band),
                from_variant=(
                    f"narrow the band to {inside[0]}-{inside[1]} players {overlay.band_changed(band, inside)}"
                    if inside[0] <= inside[1]
                    else f"remove the band {overlay.band_changed(band, None)}"
                ),
            )
            continue
        placed.append((band.region or "", first, band.index, band))
    # Bands by region, then fewest players, each compared with the one of its region reaching
    # furthest so far: n log n; the band written later is the one reported (the first applies).
    reach: _Band | None = None
    for region, first, _index, band in sorted(placed, key=lambda p: p[:3]):
        if reach is not None and (reach.region or "") == region and reach.last is not None and first <= reach.last:
            kept, later = sorted((reach, band), key=lambda b: b.index)
            assert kept.first is not None and kept.last is not None and later.first is not None
            assert later.last is not None
            shared_low, shared_high = max(kept.first, later.first), min(kept.last, later.last)
            both = f"{shared_low}-{shared_high} players" if shared_low != shared_high else None
            shared = both or words.count(shared_low, "player")
            yield diagnostic(
                "P007",
                f"the {noun}s for {named(kept)} and {named(later)} both hold {shared}",
                where(later),
                _band_hint(later.first, later.last, kept.first, kept.last),
                [Related(where(kept), "the band written first, which applies")],
                subjects=(*subjects(kept), *subjects(later)),
                from_variant=_band_changed(overlay, later, kept.first, kept.last),
            )
        if reach is None or (reach.region or "") != region or (band.last or 0) > (reach.last or 0):
            reach = band


def _band_changed(overlay: _Overlay, later: _Band, kept_first: int, kept_last: int) -> str:
    """:func:`_band_hint`'s fix of the band ``later`` as a variant writes it (:meth:`_Overlay.band_changed`)."""
    assert later.first is not None and later.last is not None
    if kept_last < later.last:
        start = words.count(kept_last + 1, "player")
        return f"start this band at {start} {overlay.band_changed(later, (kept_last + 1, later.last))}"
    if later.first < kept_first:
        end = words.count(kept_first - 1, "player")
        return f"end this band at {end} {overlay.band_changed(later, (later.first, kept_first - 1))}"
    return f"remove this band {overlay.band_changed(later, None)}: the band written first holds all its counts"


def _band_hint(first: int, last: int, kept_first: int, kept_last: int) -> str:
    """How to make the band ``first``-``last`` share no count with ``kept_first``-``kept_last``."""
    if kept_last < last:
        return f"start this band at {words.count(kept_last + 1, 'player')}: `{{min: {kept_last + 1}, max: {last}}}`"
    if first < kept_first:
        return f"end this band at {words.count(kept_first - 1, 'player')}: `{{min: {first}, max: {kept_first - 1}}}`"
    return "remove this band: the band written first holds all its counts"
