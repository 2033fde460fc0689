"""The rule logic behind every package's helpers, over a package's tables (passed in).

Each generated package binds these to its own data (``helpers.py``); engines call the package's
helpers, not these.

Every helper checks its arguments (the ids first) before it looks up a fact: an id that is not of
the kind its parameter takes is UnknownIdError whatever facts the other arguments lack, and
UnknownFactError is kept for a fact the ruleset does not give about ids that are right: made by
``civrules_runtime.errors.not_given``, which says whether the data records it as unknown (and why,
where the package's unknown facts are known: ``errors.Told``) or the ruleset leaves it out.
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from enum import StrEnum
from random import Random
from typing import TypeVar

from civrules_runtime.errors import (
    NotACollectionError,
    OutOfDomainError,
    UnknownFactError,
    UnknownIdError,
    at_most,
    closest_id,
    collection,
    copies,
    flag,
    give_its_id,
    not_given,
    once_each,
    reason_of,
    shown,
    some_ids,
    unknown_id,
    within,
)
from civrules_runtime.mappings import FrozenMap
from civrules_runtime.records import UnknownFact, data_maker

from .credits import CreditMatrix
from .records import (
    Addition,
    AstTrack,
    BlockBonus,
    Calamity,
    CalamityAmount,
    CalamityEffect,
    CalamityImmunity,
    CalamityModifier,
    Card,
    Combination,
    Commodity,
    Deck,
    DeckBand,
    Effect,
    Epoch,
    HandLimit,
    Movement,
    Phase,
    Taxation,
)
from .settings import Settings
from .vocab import (
    Adjacency,
    AppliesTo,
    Block,
    CombinationMode,
    EffectKind,
    MapRegion,
    ModifierEffect,
    Role,
)

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")


#: The set value formula of the rulebooks: n cards of face value v are worth n x n x v.
COUNT_SQUARED_TIMES_VALUE = "count_squared_times_value"

#: The data's field of each overlay collection a variant names otherwise: a civilization card a
#: variant patches to ``{unknown: why}`` (``overlay.civilization_cards.patch[law].cost``) leaves the
#: field ``cards[law].cost`` unknown, as a card file's own unknown does (civrules_runtime.errors.Told).
OVERLAY_COLLECTIONS: "Mapping[str, str]" = FrozenMap({"civilization_cards": "cards", "ast_tracks": "ast.tracks"})


def vocabulary(enum: "type[E]", value: str, what: str) -> "E":
    """``value`` as a member of ``enum``; UnknownIdError (naming the allowed values) otherwise."""
    try:
        return enum(value)
    except Exception:  # noqa: BLE001 - no member; RecursionError (a list nested too deep); its own hash or == fails
        allowed = ", ".join(repr(m.value) for m in enum)
        raise UnknownIdError(
            f"{shown(value)} is not {'an' if what[:1] in 'aeiou' else 'a'} {what}: one of {allowed}"
        ) from None


def known_id(table: "Mapping[str, object]", value: str, what: str) -> str:
    """``value`` when ``table`` has it; UnknownIdError (proposing the closest id) otherwise."""
    try:
        found = value in table
    except Exception:  # noqa: BLE001 - an unhashable value (a list), or one whose own hash or == fails: no id
        found = False
    if not found:
        raise unknown_id(value, table, what)
    return value


def mapping(value: "Mapping[str, T] | None", parameter: str, what: str) -> "Mapping[str, T]":
    """``value`` when it is a mapping (None: empty); NotACollectionError naming ``parameter`` (a
    mapping of ``what``) otherwise: a list or a string where a mapping belongs is not read."""
    if value is None:
        return {}
    if isinstance(value, str | bytes) or not callable(getattr(value, "items", None)):
        raise NotACollectionError(f"{parameter} is a mapping of {what} ({{key: value}}), not {shown(value)}")
    return value


#: Why a civilization card is listed once at most in a player's holding (``once_each``).
ONE_CARD = "a player holds one of each civilization card"


def held_cards(cards: "Mapping[str, object]", held: "Iterable[str]", parameter: str) -> "list[str]":
    """The civilization cards ``held`` (ids of ``cards``) as a list: UnknownIdError for an id that
    is none, OutOfDomainError for a card listed twice (a holding is no multiset)."""
    return once_each([known_id(cards, card, "civilization card") for card in held], parameter, ONE_CARD)


def credit_toward(matrix: "Mapping[str, Mapping[str, int]]", owned: "Iterable[str]", target: str) -> int:
    """The credit a holder of ``owned`` receives toward ``target`` (a card listed twice is
    OutOfDomainError: a player holds one of each), the target's own left out. A package's matrix
    computes it by the ruleset's policy (a card of two groups may take only its highest group's
    credits held: never the sum of the cells); any other mapping of cells is summed."""
    collection(owned, "owned")
    known_id(matrix, target, "civilization card")
    held = held_cards(matrix, owned, "owned")
    if isinstance(matrix, CreditMatrix):
        return matrix.credit_toward(held, target)
    return sum(matrix[card].get(target, 0) for card in held if card != target)


def purchase_cost(
    cards: "Mapping[str, Card]", matrix: "Mapping[str, Mapping[str, int]]", owned: "Iterable[str]", target: str
) -> int:
    """The rule logic of a package's ``purchase_cost`` over its ``cards`` and credit ``matrix``: what
    ``target`` costs a holder of ``owned``, its cost less credits, never below zero."""
    collection(owned, "owned")
    known_id(cards, target, "civilization card")
    credit = credit_toward(matrix, owned, target)  # the cards owned checked before the cost is looked up
    cost = cards[target].cost
    if cost is None:
        raise not_given(f"the cost of {target}", f"cards[{target}].cost")
    return max(0, cost - credit)


def set_value(
    commodities: "Mapping[str, Commodity]",
    bonuses: "tuple[BlockBonus, ...]",
    formula: str | None,
    mining_extra_cards: int,
    good: str,
    n: int,
    mining: bool,
    players: int | None,
    redeemed_in: str | None,
    drawn_in: str | None,
    counts: "Iterable[int]" = (),
    bands: "tuple[DeckBand, ...]" = (),
) -> int:
    """``counts``: the player counts the ruleset is for (none known: any); ``bands``: its trade
    decks by player count, which say the blocks in play (26.3.3 counts a block only where it is)."""
    commodity = commodities[known_id(commodities, good, "commodity")]
    flag(mining, "mining")
    redeemed = None if redeemed_in is None else vocabulary(Block, redeemed_in, "trade block")
    drawn = None if drawn_in is None else vocabulary(Block, drawn_in, "trade block")
    if players is not None:
        _player_count(players, counts)
        in_play = _blocks_in_play(bands, players)
        for given, parameter in ((redeemed, "redeemed_in"), (drawn, "drawn_in")):
            if given is not None and in_play and given not in in_play:
                blocks = ", ".join(sorted(str(block) for block in in_play))
                raise OutOfDomainError(
                    f"{parameter}={str(given)!r}: with {_players(players)} the trade blocks in play are {blocks}"
                )
        in_decks = _cards_in_play(bands, players, good)
        if in_decks == 0:
            raise OutOfDomainError(f"{good} is in no trade deck with {_players(players)}")
        if in_decks is not None:
            within(n, "n", 0, in_decks, f"the cards of {good} in the trade decks with {_players(players)}")
    if drawn is not None and commodity.block not in (None, Block.SHARED) and drawn != commodity.block:
        raise OutOfDomainError(
            f"drawn_in={str(drawn)!r}: {good} is a good of the {commodity.block} block, drawn only there"
        )
    if formula is None:
        raise not_given("how a set of commodity cards is valued", "set_value.formula")
    if formula != COUNT_SQUARED_TIMES_VALUE:
        raise UnknownFactError(f"the set value formula {formula!r} is not one these helpers know")
    if commodity.value is None:
        raise not_given(f"the value of {good}", f"commodities[{good}].value")
    if commodity.count is None:
        raise not_given(f"the count of {good}", f"commodities[{good}].count")
    within(n, "n", 0, commodity.count, f"the cards in a set of {good}")
    cards = min(n + mining_extra_cards, commodity.count) if n and mining and commodity.mining else n
    value = cards * cards * commodity.value
    band = None if players is None else _bonus_band(bonuses, players)
    if redeemed is None and players is not None and band is not None:
        named = _blocks_named(bands, players)
        if named != (Block.SINGLE,):
            # A bonus band of that count, and trade blocks in play: the block redeemed in decides it.
            raise OutOfDomainError(
                f"with {_players(players)} a set redeemed outside its good's native trade block gains its face value "
                f"per card: give redeemed_in= too (one of {', '.join(repr(str(b)) for b in named)})"
            )
    if redeemed is not None and players is None and bonuses:
        raise OutOfDomainError(
            f"redeemed_in={str(redeemed)!r} without players=: whether a set redeemed outside its good's native "
            "trade block gains its face value per card depends on the player count: give players= too"
        )
    if players is None or redeemed is None or commodity.block is None or n == 0 or band is None:
        return value
    if commodity.block == Block.SHARED:
        if band.shared_goods and drawn is None:
            raise OutOfDomainError(
                f"{good} is a shared good: give drawn_in= (the block its cards were drawn in), which decides "
                f"its bonus with {_players(players)}"
            )
        outside = band.shared_goods and drawn is not None and drawn != redeemed
    else:
        outside = commodity.block != redeemed
    return value + n * commodity.value if outside else value


def _bonus_band(bonuses: "tuple[BlockBonus, ...]", players: int) -> "BlockBonus | None":
    """The band of ``bonuses`` (BLOCK_BONUSES) a game of ``players`` is in; None where none is."""
    return next((b for b in bonuses if b.players_min <= players <= b.players_max), None)


def _blocks_named(bands: "tuple[DeckBand, ...]", players: int) -> "tuple[Block, ...]":
    """The values ``redeemed_in=`` may take in a game of ``players``: the trade blocks in play
    (DECK_COMPOSITIONS), or West and East where the ruleset declares no decks for that count."""
    in_play = _blocks_in_play(bands, players) - {Block.SHARED}
    if not in_play:
        return (Block.WEST, Block.EAST)
    return tuple(block for block in Block if block in in_play)


def _player_count(players: int, counts: "Iterable[int]") -> None:
    """OutOfDomainError where ``players`` is not a count the ruleset is for (``counts``; none
    known: 1 or more)."""
    known = sorted(counts)
    if known:
        within(players, "players", known[0], known[-1], "the players of this ruleset")
    else:
        within(players, "players", 1)


def _blocks_in_play(bands: "tuple[DeckBand, ...]", players: int) -> "frozenset[Block]":
    """The trade blocks of the decks of a game of ``players`` (any map region); none where the
    ruleset declares no decks for that count."""
    return frozenset(
        deck.block for band in bands if band.players_min <= players <= band.players_max for deck in band.decks
    )


def _cards_in_play(bands: "tuple[DeckBand, ...]", players: int, good: str) -> int | None:
    """How many cards of ``good`` the trade decks of a game of ``players`` hold (DECK_COMPOSITIONS):
    0 where no deck holds it; the most of one region's decks where the map's regions are played
    apart; None where the ruleset declares no decks for that count or a deck's count of it is not
    in the sources (the good's own count then bounds a set)."""
    most: int | None = None
    for band in bands:
        if not band.players_min <= players <= band.players_max:
            continue
        held = 0
        for deck in band.decks:
            for name, count in deck.commodities:
                if name == good:
                    if count is None:
                        return None
                    held += count
        most = held if most is None else max(most, held)
    return most


def decks_for(
    bands: "tuple[DeckBand, ...]", players: int, region: str | None, counts: "Iterable[int]" = ()
) -> "tuple[Deck, ...]":
    """The rule logic of a package's ``decks_for`` over its ``bands``: the trade decks of a game of
    ``players`` (in ``region`` where the map is split); () where the ruleset declares none."""
    wanted = None if region is None else vocabulary(MapRegion, region, "map region")
    _player_count(players, counts)
    matching = [b for b in bands if b.players_min <= players <= b.players_max]
    if not matching:
        return ()
    whole = [b for b in matching if b.region in (None, MapRegion.WHOLE)]
    if whole:
        if wanted not in (None, MapRegion.WHOLE):
            raise OutOfDomainError(
                f"region={shown(region)}: with {_players(players)} the whole map is played; leave out region="
            )
        return whole[0].decks
    if wanted is None:
        if len({b.region for b in matching}) == 1:
            # One region is played with that many players (Mega Civilization's 10 and 11): no choice to make.
            return matching[0].decks
        regions = ", ".join(sorted(str(b.region) for b in matching))
        raise OutOfDomainError(f"with {_players(players)} the map is split: give region= (one of {regions})")
    for band in matching:
        if band.region == wanted:
            return band.decks
    regions = ", ".join(sorted(str(b.region) for b in matching))
    raise OutOfDomainError(f"no trade decks for region {shown(region)} with {_players(players)} (only {regions})")


def neighbours(adjacency: "Mapping[str, Mapping[str, frozenset[str]]]", area: str, kind: str) -> frozenset[str]:
    """The rule logic of a package's ``neighbours`` over its ``adjacency``: the areas next to ``area``
    across land, across water, or either (``kind``, an Adjacency)."""
    by_kind = adjacency[vocabulary(Adjacency, kind, "kind of adjacency")]
    return by_kind[known_id(by_kind, area, "area")]


def resolution_order(
    order: "tuple[str, ...]",
    calamities: "Iterable[str]",
    table: "Mapping[str, Calamity] | None" = None,
    parameter: str = "calamities",
    players: int | None = None,
    counts: "Iterable[int]" = (),
) -> "tuple[str, ...]":
    """Every given calamity card in resolution order (29.6): two copies of one calamity (the
    Expansion Project has two of each) are both kept, side by side. With ``table`` (the ruleset's
    CALAMITIES), a calamity listed more times than the game has copies of it is OutOfDomainError
    (a package built before passes none: no bound): the most any game holds (Calamity.copies),
    or, given ``players``, what a game of that many holds (Calamity.copies_by_players; a count no
    band holds is bound by ``copies``). ``players`` outside the ruleset's counts (``counts``) is
    OutOfDomainError."""
    collection(calamities, parameter)
    if players is not None:
        _player_count(players, counts)
    rank = _rank(order)
    given = [known_id(rank, c, "calamity") for c in calamities]
    if table is not None:
        checked: list[bool] = [False]  # whether a band gave the bound last asked for (at_most asks, then raises)

        def bound(calamity: str) -> int | None:
            if calamity not in table:
                return None
            most, checked[0] = _copies_in_game(table[calamity], players)
            return most

        def why(most: int) -> str:
            field = "Calamity.copies_by_players" if checked[0] else "Calamity.copies"
            game = "the game" if players is None else f"a game of {_players(players)}"
            return f"{game} has {copies(most)} of it ({field})"

        at_most(given, parameter, bound, why)
    return tuple(sorted(given, key=rank.__getitem__))


def _copies_in_game(calamity: Calamity, players: int | None) -> "tuple[int | None, bool]":
    """The cards of ``calamity`` a game of ``players`` holds (its band's, where one holds the count;
    else the most any game holds), and whether a band gave it."""
    if players is not None:
        for band in calamity.copies_by_players:
            if band.players_min <= players <= band.players_max:
                return band.copies, True
    return calamity.copies, False


#: Each calamity order's ranks, by the order they were read from (kept with it, so that an id
#: reused by a new tuple is not mistaken for it): made once, not at every call (an engine sorting
#: two calamities ranked all 1,200 of a large ruleset's each time). At most 16 orders are kept.
_RANKS: "dict[int, tuple[tuple[str, ...], dict[str, int]]]" = {}


def _rank(order: "tuple[str, ...]") -> "dict[str, int]":
    kept = _RANKS.get(id(order))
    if kept is not None and kept[0] is order:
        return kept[1]
    rank = {calamity: index for index, calamity in enumerate(order)}
    if len(_RANKS) >= 16:
        _RANKS.clear()
    _RANKS[id(order)] = (order, rank)
    return rank


def calamity_amount(
    effects: "Mapping[str, tuple[CalamityEffect, ...] | None]",
    modifiers: "Mapping[str, tuple[CalamityModifier, ...] | None]",
    combinations: "Mapping[str, Combination]",
    immunities: "Mapping[str, tuple[CalamityImmunity, ...] | None]",
    cards: "Mapping[str, Card]",
    nations: "Mapping[str, object]",
    commodity_ids: "Mapping[str, object]",
    calamity: str,
    effect: str,
    held: "Iterable[str]",
    role: str,
    commodities: "Mapping[str, int] | None",
    nation: str | None,
    unknown_facts: "Iterable[UnknownFact] | Mapping[str, str]" = (),
) -> CalamityAmount:
    """What ``effect`` of ``calamity`` takes from a holder of ``held`` (see the package's helper).
    ``unknown_facts`` (the package's UNKNOWN_FACTS) give the data's why of an input left unknown
    (the effect's amount, how the modifiers combine, a card's change) to the amount, whose ``loss``
    refuses it later, away from the package (CalamityAmount.unknown_reason)."""
    collection(held, "held")
    side = vocabulary(Role, role, "calamity role")
    commodities = mapping(commodities, "commodities", "commodity ids to the cards held of each")
    for good, count in commodities.items():
        known_id(commodity_ids, good, "commodity")
        within(count, f"commodities[{shown(good)}]", 0, None, "the commodity cards held of a good")
    if nation is not None:
        known_id(nations, nation, "nation")
    holding = set(held_cards(cards, held, "held"))
    listed, found = _effect(effects, calamity, effect)
    if found is None:
        ids = ", ".join(repr(e.id) for e in listed) or "none"
        raise UnknownIdError(f"{calamity} has no effect {shown(effect)} (its effects: {ids})")
    held_modifiers, held_immunities = modifiers[calamity], immunities[calamity]
    if held_modifiers is None:
        raise not_given(f"the civilization cards that change {calamity}", f"calamities[{calamity}].modifiers")
    if held_immunities is None:
        raise not_given(f"who is immune to {calamity}", f"calamities[{calamity}].immune")
    if found.side != side:
        raise OutOfDomainError(f"{calamity}.{effect} is an effect on the {found.side} victim, not the {side}")
    base, all_but, limit = found.amount, found.all_but, None
    if side == Role.SECONDARY:
        # The most one secondary victim can be allotted: the per-victim limit, else the total.
        limit = found.max_per_victim if found.max_per_victim is not None else found.amount
        if found.max_per_victim is not None:
            base, all_but = found.max_per_victim, None
    unknown = found.unknown and base is None and found.per_city is None
    # The first input left unknown, by its field: what the amount's refusal names, with its why.
    unknown_field = f"calamities[{calamity}].{side}[{effect}].amount" if unknown else None
    # A card holder's immunity is also an `immunity` modifier of the card (check K007): counted below.
    immune = nation is not None and any(
        i.who == "nation" and i.nation == nation and i.side in (None, side) and (not i.effects or effect in i.effects)
        for i in held_immunities
    )
    relevant = [
        m
        for m in held_modifiers
        if m.card in holding and m.applies_to in (side, AppliesTo.BOTH) and effect in m.effects
    ]
    if combinations[calamity].mode_unknown and len({m.card for m in relevant}) > 1:
        unknown = True  # the rules do not say how these cards' modifiers combine
        unknown_field = unknown_field or f"calamities[{calamity}].modifier_combination.mode"
    additions = tuple(_addition(m.card, m.amount, m.per, m.adds_kind, m.adds_unit) for m in relevant if m.adds)
    change, set_to, cap, kind = 0, None, None, found.kind
    for modifier in _counted(combinations[calamity], [m for m in relevant if not m.adds], holding):
        if modifier.effect == ModifierEffect.IMMUNITY:
            immune = True
        kind = modifier.becomes_kind or kind
        if modifier.stated is not None:
            set_to = modifier.stated if set_to is None else min(set_to, modifier.stated)
        elif modifier.amount_unknown:
            unknown = True
            unknown_field = unknown_field or f"calamities[{calamity}].modifiers[{modifier.card}].amount"
        elif modifier.amount is not None:
            times = 1 if modifier.per_commodity is None else (commodities or {}).get(modifier.per_commodity, 0)
            if modifier.per_any_commodity:
                times = sum((commodities or {}).values())
            change += modifier.amount * times
        if modifier.cap is not None:
            cap = modifier.cap if cap is None else min(cap, modifier.cap)
    return _calamity_amount(
        calamity, effect, side, base, all_but, change, set_to, cap, immune, kind, unknown,
        found.per_city, limit, additions, found.alternative, unknown_field,
        None if unknown_field is None else reason_of(unknown_field, unknown_facts, OVERLAY_COLLECTIONS),
    )  # fmt: skip


#: The records :func:`calamity_amount` answers with, made without a call's checks: every field is
#: read from the package's records (checked when it was built, or by the call or ``replace`` that
#: made them) or from the arguments checked above, and the checks cost each answer 3.5 µs.
_addition = data_maker(Addition)
_calamity_amount = data_maker(CalamityAmount)


def _effect(
    effects: "Mapping[str, tuple[CalamityEffect, ...] | None]", calamity: str, effect: str
) -> "tuple[tuple[CalamityEffect, ...], CalamityEffect | None]":
    """``calamity``'s effects and the one called ``effect`` (None: the calamity has none of that id,
    though another calamity has). An effect no calamity of the ruleset has is UnknownIdError
    proposing one that is, before the calamity's effects are looked up: UnknownFactError only where
    the ruleset does not give the effects of ``calamity``."""
    listed = effects[known_id(effects, calamity, "calamity")]
    found = next((e for e in listed or () if e.id == effect), None)
    if found is None:
        every = _effect_ids(effects)
        if not _has(every, effect):
            raise unknown_id(effect, every, "calamity effect")
    if listed is None:
        raise not_given(f"the effects of {calamity}", f"calamities[{calamity}].effects")
    return listed, found


#: Every effect id of each effects table, by the table it was read from (kept with it, as the ranks
#: of :data:`_RANKS`): made at the first refusal of an effect, not at each one.
_EFFECT_IDS: "dict[int, tuple[Mapping[str, object], dict[str, str]]]" = {}


def _effect_ids(effects: "Mapping[str, tuple[CalamityEffect, ...] | None]") -> "dict[str, str]":
    kept = _EFFECT_IDS.get(id(effects))
    if kept is not None and kept[0] is effects:
        return kept[1]
    every = {e.id: calamity for calamity, listed in effects.items() for e in listed or ()}
    if len(_EFFECT_IDS) >= 16:
        _EFFECT_IDS.clear()
    _EFFECT_IDS[id(effects)] = (effects, every)
    return every


def _has(table: "Mapping[str, object]", key: object) -> bool:
    try:
        return key in table
    except Exception:  # noqa: BLE001 - unhashable, or its own hash or == fails: no id
        return False


def _players(n: int) -> str:
    """``1 player``, ``2 players``: a number of players in a message (``players=1`` is asked too)."""
    return f"{n} player" if n == 1 else f"{shown(n)} players"


def _cards(n: int) -> str:
    """``1 card``, ``2 cards``: a count of cards in a message."""
    return f"{n} card" if n == 1 else f"{shown(n)} cards"  # a stated count may be any whole number


def _counted(
    combination: Combination, applying: "list[CalamityModifier]", held: "set[str]"
) -> "list[CalamityModifier]":
    dropped: set[str] = set()
    for card, overridden in combination.overrides:
        if card in held:
            dropped.update(overridden)
    if combination.mode == CombinationMode.HIGHEST:
        rank: dict[str, int] = {}
        for place, card in enumerate(combination.precedence):  # a card's level looked up, not searched for
            rank.setdefault(card, place)
        ranked = [m.card for m in applying if m.card in rank and m.card not in dropped]
        if ranked:
            top = max(ranked, key=rank.__getitem__)
            dropped.update(card for card in ranked if card != top)
    return [m for m in applying if m.card not in dropped]


def effects_held(cards: "Mapping[str, Card]", held: "Iterable[str]", kind: str | None) -> "tuple[Effect, ...]":
    """The rule logic of a package's ``effects_held`` over its ``cards``: the structured effects of
    the held cards' attributes (of one EffectKind, ``kind``, or all)."""
    collection(held, "held")
    wanted = None if kind is None else vocabulary(EffectKind, kind, "effect kind")
    out: list[Effect] = []
    for card in held_cards(cards, held, "held"):
        attributes = cards[card].attributes
        if attributes is None:
            raise not_given(f"the abilities of {card}", f"cards[{card}].attributes")
        out.extend(e for a in attributes for e in a.effects if wanted is None or e.kind == wanted)
    return tuple(out)


def hand_limit(
    limit: HandLimit | None,
    cards: "Mapping[str, Card]",
    held: "Iterable[str]",
    players: int | None = None,
    counts: "Iterable[int]" = (),
) -> int:
    """The commodity cards a holder of ``held`` may keep; where the limit depends on the player
    count (``limit.by_players``), ``players`` is required (OutOfDomainError naming the bands
    otherwise); a count the ruleset is not for (``counts``) is OutOfDomainError."""
    collection(held, "held")
    owned = set(held_cards(cards, held, "held"))
    if players is not None:
        _player_count(players, counts)
    if limit is None:
        raise not_given("the hand limit", "hand_limit")
    base = limit.commodity_cards
    if limit.by_players:
        if players is None:
            bands = ", ".join(f"{b.players_min}-{b.players_max} players: {b.commodity_cards}" for b in limit.by_players)
            raise OutOfDomainError(f"the hand limit depends on the number of players: give players= ({bands})")
        found = [b.commodity_cards for b in limit.by_players if b.players_min <= players <= b.players_max]
        if not found:
            raise not_given(f"the hand limit of a game of {_players(players)}", "hand_limit.by_players")
        base = found[0]
    if base is None:
        raise not_given("the hand limit", "hand_limit.commodity_cards")
    changes = [change for card, change in limit.card_changes if card in owned]
    if len(changes) > 1 and not limit.cumulative:
        raise not_given("how the hand-limit changes of several cards combine", "hand_limit.card_changes_cumulative")
    return max(0, base + sum(changes))


def tax_rates(taxation: Taxation | None, cards: "Mapping[str, Card]", held: "Iterable[str]") -> "tuple[int, ...]":
    """The rule logic of a package's ``tax_rates`` over its ``taxation``: the tax rates, in tokens per
    city, a holder of the cards ``held`` may choose from."""
    collection(held, "held")
    owned = set(held_cards(cards, held, "held"))
    if taxation is None or taxation.tokens_per_city is None:
        raise not_given("the tax rate", "taxation" if taxation is None else "taxation.tokens_per_city")
    changes = [c for c in taxation.rate_changes if c.card in owned]
    if len(changes) > 1 and not taxation.cumulative:
        raise not_given("how the tax-rate changes of several cards combine", "taxation.rate_changes_combination")
    low = taxation.tokens_per_city - sum(c.lower_by for c in changes)
    high = taxation.tokens_per_city + sum(c.raise_by for c in changes)
    return tuple(range(max(0, low), high + 1))


def _groups_covered(cards: "Mapping[str, Card]", held: "list[str]", count_both: bool) -> int:
    if count_both:
        return len({group for card in held for group in _groups(cards, card)})
    matched: dict[str, str] = {}

    def assign(card: str, seen: set[str]) -> bool:
        for group in _groups(cards, card):
            if group in seen:
                continue
            seen.add(group)
            if group not in matched or assign(matched[group], seen):
                matched[group] = card
                return True
        return False

    return sum(1 for card in held if assign(card, set()))


def _groups(cards: "Mapping[str, Card]", card: str) -> "tuple[str, ...]":
    groups = cards[card].groups
    if groups is None:
        raise not_given(f"the groups of {card}", f"cards[{card}].groups")
    return groups


def _cost(cards: "Mapping[str, Card]", card: str) -> int:
    cost = cards[card].cost
    if cost is None:
        raise not_given(f"the cost of {card}", f"cards[{card}].cost")
    return cost


def _requirements_met(
    epochs: "Mapping[str, Epoch]", cards: "Mapping[str, Card]", group_count: int,
    epoch: str, level: str, cities: int, held: "list[str]",
) -> bool:  # fmt: skip
    need = epochs[epoch].requirements[level]
    if not need.known:
        raise not_given(f"the entry requirements of {epoch}", f"epochs[{epoch}].requirements")
    if need.min_cities is not None and cities < need.min_cities:
        return False
    if need.min_card_groups is not None or need.all_card_groups:
        groups = _groups_covered(cards, held, need.two_group_cards_count_twice)
        if need.min_card_groups is not None and groups < need.min_card_groups:
            return False
        if need.all_card_groups and groups < group_count:
            return False
    if need.min_cards is not None and len(held) < need.min_cards:
        return False
    for count, lowest, below in need.min_cards_of_value:
        costs = [_cost(cards, card) for card in held]
        if sum(1 for cost in costs if cost >= lowest and (below is None or cost < below)) < count:
            return False
    if need.min_victory_points is not None:
        points = 0
        for card in held:
            worth = cards[card].victory_points
            if worth is None:
                raise not_given(f"the victory points of {card}", f"cards[{card}].victory_points")
            points += worth
        if points < need.min_victory_points:
            return False
    return True


def _track(tracks: "Mapping[str, Mapping[str, AstTrack]]", nation: str, level: str) -> AstTrack:
    by_level = tracks.get(nation)
    if by_level is None:
        raise not_given(f"the A.S.T. track of {nation}", f"ast.tracks[{nation}]")
    track = by_level.get(level)
    if track is None:
        raise not_given(f"the A.S.T. track of {nation} at level {shown(level)}", f"ast.tracks[{nation}]")
    return track


def _space_value(track: AstTrack, space: int, finish: "tuple[int, int | None, bool] | None" = None) -> int | None:
    """The card value a space of a value-gated epoch needs; None where it needs none: a track whose
    ``space_values`` are () has no space with a card value of its own (a fact, not a gap), and the
    finish needs only ``finish``'s value. ``finish`` None: the finish is not known to the caller (a
    package built before it was passed, or a track of unknown length), so an unlisted space is a
    value the sources do not give, as it was read then."""
    if track.space_values is None:
        raise not_given(f"the A.S.T. values of {track.nation}", f"ast.tracks[{track.nation}].space_values")
    for listed, value in track.space_values:
        if listed == space:
            if value is None:
                raise not_given(
                    f"the value of space {space} of {track.nation}", f"ast.tracks[{track.nation}].space_values"
                )
            return value
    if finish is not None and space == finish[0]:
        if finish[2]:
            raise not_given(
                f"the card value of the finish (space {space}) of {track.nation}", "ast.finish_space_min_card_value"
            )
        return finish[1]
    if finish is not None and not track.space_values:
        return None
    raise UnknownFactError(f"no card value is given for space {space} of {track.nation}")


def _finish(
    settings: "Settings | Mapping[str, object] | None", track: AstTrack
) -> "tuple[int, int | None, bool] | None":
    """The finish of ``track`` (see _space_value) from the ruleset's typed SETTINGS:
    ast.spaces_per_track where the track gives no length, ast.start_space and
    ast.finish_space_min_card_value. None where ``settings`` are not typed or the length is unknown."""
    if not isinstance(settings, Settings) or settings.ast is None:
        return None
    per_track, start = _ast(settings)
    spaces = track.spaces if track.spaces is not None else per_track
    if spaces is None:
        return None
    ast = settings.ast
    unknown = "finish_space_min_card_value" in ast.unknown_fields
    return (start + spaces - 1, ast.finish_space_min_card_value, unknown)


def can_enter_epoch(
    epochs: "Mapping[str, Epoch]", cards: "Mapping[str, Card]", tracks: "Mapping[str, Mapping[str, AstTrack]]",
    nations: "Mapping[str, object]", group_count: int, levels: "tuple[str, ...]",
    epoch: str, cities: int, held: "Iterable[str]", nation: str | None, level: str | None,
    settings: "Settings | Mapping[str, object] | None" = None,
) -> bool:  # fmt: skip
    """The rule logic of a package's ``can_enter_epoch`` over its tables: may a marker enter ``epoch``
    with ``cities`` in play and the civilization cards ``held``?"""
    collection(held, "held")
    known_id(epochs, epoch, "epoch")
    within(cities, "cities", 0, None, "the cities a player has in play, 33.2")
    at = levels[0] if level is None else _level(levels, level)
    owned = held_cards(cards, held, "held")
    if nation is not None:
        known_id(nations, nation, "nation")
    if not _requirements_met(epochs, cards, group_count, epoch, at, cities, owned):
        return False
    if nation is None or not epochs[epoch].requirements[at].card_value_per_space:
        return True
    track = _track(tracks, nation, at)
    if track.epoch_starts is None:
        raise not_given(f"where the epochs start on the A.S.T. track of {nation}", f"ast.tracks[{nation}].epoch_starts")
    first = next((space for listed, space in track.epoch_starts if listed == epoch), None)
    if first is None:
        raise not_given(f"where {epoch} starts on the A.S.T. track of {nation}", f"ast.tracks[{nation}].epoch_starts")
    needed = _space_value(track, first, _finish(settings, track))
    return needed is None or sum(_cost(cards, card) for card in owned) >= needed


def can_enter_space(
    epochs: "Mapping[str, Epoch]", cards: "Mapping[str, Card]", tracks: "Mapping[str, Mapping[str, AstTrack]]",
    nations: "Mapping[str, object]", group_count: int, levels: "tuple[str, ...]",
    nation: str, space: int, cities: int, held: "Iterable[str]", level: str | None,
    settings: "Settings | Mapping[str, object] | None" = None,
) -> bool:  # fmt: skip
    """``settings``: the ruleset's SETTINGS, which give the finish's card value and the length of a
    track that gives none (ast.spaces_per_track); None (a package built before they were passed):
    neither is read."""
    collection(held, "held")
    known_id(nations, nation, "nation")
    within(cities, "cities", 0, None, "the cities a player has in play, 33.2")
    at = levels[0] if level is None else _level(levels, level)
    owned = held_cards(cards, held, "held")
    track = _track(tracks, nation, at)
    finish = _finish(settings, track)
    spaces = track.spaces if track.spaces is not None else None if finish is None else _ast(settings or {})[0]
    if track.epoch_starts is None:
        raise not_given(f"where the epochs start on the A.S.T. track of {nation}", f"ast.tracks[{nation}].epoch_starts")
    if spaces is None:
        raise not_given(f"the length of the A.S.T. track of {nation}", "ast.spaces_per_track")
    starts = sorted(track.epoch_starts, key=lambda item: item[1])
    within(space, "space", starts[0][1], starts[0][1] + spaces - 1, f"the spaces of the A.S.T. track of {nation}")
    epoch = starts[0][0]
    for listed, first in starts:
        if first <= space:
            epoch = listed
    if not _requirements_met(epochs, cards, group_count, epoch, at, cities, owned):
        return False
    if not epochs[epoch].requirements[at].card_value_per_space:
        return True
    needed = _space_value(track, space, finish)
    return needed is None or sum(_cost(cards, card) for card in owned) >= needed


def _level(levels: "tuple[str, ...]", level: str) -> str:
    if level not in levels:
        raise UnknownIdError(f"{shown(level)} is not an A.S.T. level of this ruleset: one of {', '.join(levels)}")
    return level


# --- The rules an engine needs beyond the tables: trade, victims, ships, units, the A.S.T. finish ---


def _phase_fact(phases: "Mapping[str, Phase]", phase: str, field: str, what: str) -> "object":
    found = phases.get(phase)
    value = None if found is None else getattr(found, field)
    if value is None:
        # The data writes no such number, or records it as unknown: not_given says which (Mega
        # Civilization's calamity limit, once said to be missing from the sources, was in its cited one).
        raise not_given(
            what, f"sequence_of_play.phases[{phase}].{field}",
            hint=f"an engine may supply it with assuming(Assumptions({field}=...))",
        )  # fmt: skip
    return value


def _phase_int(phases: "Mapping[str, Phase]", phase: str, field: str, what: str) -> int:
    value = _phase_fact(phases, phase, field, what)
    if isinstance(value, bool) or not isinstance(value, int):  # a check, not an assert: -O drops those
        # 3.0 is whole: what it lacks is the type ("not a whole number" said otherwise)
        kind = "a float, not an int" if isinstance(value, float) and value.is_integer() else "not a whole number"
        raise OutOfDomainError(f"the {phase} phase's {field} is {value!r}, {kind} ({what})")
    return value


def trade_problems(
    phases: "Mapping[str, Phase]", commodities: "Mapping[str, object]", calamities: "Mapping[str, Calamity]",
    cards: "Mapping[str, object]", given: "Iterable[str]", stated_count: int, named: "Iterable[str]",
) -> "tuple[str, ...]":  # fmt: skip
    """The rule logic of a package's ``trade_problems`` over its tables: what makes one player's side of a trade
    illegal; () when it is legal."""
    collection(given, "given")
    collection(named, "named")
    given_cards, named_cards = list(given), list(named)
    for card in (*given_cards, *named_cards):
        if not _trade_card(card, commodities, calamities, cards):
            trade = _trade_cards(commodities, calamities)
            close = closest_id(card, trade) if isinstance(card, str) else None
            hint = f"did you mean {close!r}?" if close else some_ids(trade)
            hint = give_its_id(card) or hint  # a table's row given for its id: its id
            raise UnknownIdError(
                f"{shown(card)} is not a trade card of this ruleset (a commodity or a calamity): {hint}"
            )
    within(stated_count, "stated_count", 0, None, "a number of cards")
    least = _phase_int(phases, "trade", "min_trade_cards", "the fewest cards a trade needs")
    naming = _phase_int(phases, "trade", "named_trade_cards", "how many of the cards traded are named")
    problems: list[str] = []
    for card in given_cards:
        if card in cards:
            problems.append(f"{card} is a civilization card: only trade cards are traded")
    if len(given_cards) < least:
        problems.append(f"{_cards(len(given_cards))} given: each player in a trade gives at least {least}")
    if stated_count != len(given_cards):
        stated = _cards(stated_count)
        problems.append(f"{stated} stated, {len(given_cards)} given: the number must be stated truthfully")
    if len(named_cards) != min(naming, len(given_cards)):
        problems.append(f"{_cards(len(named_cards))} named: each player names {naming} of the cards he gives")
    left = Counter(given_cards)  # each card given can be named once
    for card in named_cards:
        if left[card]:
            left[card] -= 1
        else:
            problems.append(f"{card} was named but is not among the cards given: named cards must be given")
    for card in dict.fromkeys(given_cards):
        if card in calamities:
            tradable = calamities[card].tradable
            if tradable is None:
                raise not_given(f"whether {card} is tradable", f"calamities[{card}].tradable")
            if not tradable:
                problems.append(f"{card} is a non-tradable calamity: it is kept until trading ends, never traded")
    return tuple(problems)


#: The trade cards (commodities and calamities) of each pair of tables, by the tables they were read
#: from (kept with them, as the ranks of :data:`_RANKS`): made at the first refusal, not at each one.
_TRADE_CARDS: "dict[tuple[int, int], tuple[Mapping[str, object], Mapping[str, object], dict[str, None]]]" = {}


def _trade_cards(commodities: "Mapping[str, object]", calamities: "Mapping[str, object]") -> "dict[str, None]":
    kept = _TRADE_CARDS.get((id(commodities), id(calamities)))
    if kept is not None and kept[0] is commodities and kept[1] is calamities:
        return kept[2]
    trade = dict.fromkeys([*commodities, *calamities])
    if len(_TRADE_CARDS) >= 16:
        _TRADE_CARDS.clear()
    _TRADE_CARDS[(id(commodities), id(calamities))] = (commodities, calamities, trade)
    return trade


def _trade_card(
    card: str, commodities: "Mapping[str, object]", calamities: "Mapping[str, object]", cards: "Mapping[str, object]"
) -> bool:
    try:
        return card in commodities or card in calamities or card in cards
    except Exception:  # noqa: BLE001 - unhashable, or its own hash or == fails: no card
        return False


def secondary_losses(
    effects: "Mapping[str, tuple[CalamityEffect, ...] | None]",
    modifiers: "Mapping[str, tuple[CalamityModifier, ...] | None]",
    combinations: "Mapping[str, Combination]",
    immunities: "Mapping[str, tuple[CalamityImmunity, ...] | None]",
    cards: "Mapping[str, Card]",
    nation_ids: "Mapping[str, object]",
    commodity_ids: "Mapping[str, object]",
    calamity: str, effect: str, allotment: "Mapping[str, int]", held: "Mapping[str, Iterable[str]] | None",
    traded_by: str | None, nations: "Mapping[str, str] | None",
    calamities: "Mapping[str, Calamity] | None" = None,
) -> "Mapping[str, int]":  # fmt: skip
    """Each secondary victim's loss, by player: a read-only FrozenMap, in the allotment's order.

    ``traded_by`` is held to the calamity's facts: ``calamities`` (the ruleset's CALAMITIES; a
    package built before passes none) says whether anyone can have traded it, and the calamity's
    ``trading_player`` immunities whether the trader is spared this effect."""
    allotment = mapping(allotment, "allotment", "players to their shares")
    held = mapping(held, "held", "players to their civilization cards")
    nations = mapping(nations, "nations", "players to their nations")
    for player, cards_held in held.items():
        collection(cards_held, f"held[{shown(player)}]")
        held_cards(cards, cards_held, f"held[{shown(player)}]")
    for nation in nations.values():
        known_id(nation_ids, nation, "nation")
    listed, found = _effect(effects, calamity, effect)
    if found is None or found.side != Role.SECONDARY:
        ids = ", ".join(repr(e.id) for e in listed if e.side == Role.SECONDARY) or "none"
        raise UnknownIdError(f"{calamity} has no effect {shown(effect)} on secondary victims (those it has: {ids})")
    limit = found.max_per_victim if found.max_per_victim is not None else found.amount
    if traded_by is not None:
        _tradable(calamities, calamity, traded_by)
    for player, share in allotment.items():
        within(share, f"allotment[{shown(player)}]", 0, limit, f"a share of {calamity}.{effect}")
        if not share or traded_by is None or player != traded_by:  # None traded it: no player
            continue
        spared = _trader_spared(immunities, calamity, effect)
        if spared is not None:
            raise OutOfDomainError(
                f"allotment[{shown(player)}]={share}: the player who traded {calamity} to the primary victim "
                f"may not be a secondary victim of {effect}{spared}"
            )
    total = sum(allotment.values())
    if found.amount is not None and total > found.amount:
        raise OutOfDomainError(f"the shares total {total}, more than the {found.amount} of {calamity}.{effect}")
    victims = sum(1 for share in allotment.values() if share)
    if found.victim_count is not None and victims > found.victim_count:
        raise OutOfDomainError(
            f"{victims} secondary victims, more than the {found.victim_count} of {calamity}.{effect}"
        )
    return FrozenMap({
        player: calamity_amount(
            effects, modifiers, combinations, immunities, cards, nation_ids, commodity_ids, calamity, effect,
            held.get(player, ()), "secondary", None, nations.get(player),
        ).loss(share)
        for player, share in allotment.items()
    })  # fmt: skip


def _tradable(calamities: "Mapping[str, Calamity] | None", calamity: str, traded_by: str) -> None:
    """OutOfDomainError where ``calamity`` is not tradable (CALAMITIES; a package built before
    passes none): it has no trader to name (``traded_by``). UnknownFactError where the ruleset does
    not give its tradability."""
    found = None if calamities is None else calamities.get(calamity)
    if found is None:
        return
    if found.tradable is None:
        raise not_given(f"whether {calamity} is tradable", f"calamities[{calamity}].tradable")
    if not found.tradable:
        cited = f" ({', '.join(found.rules)})" if found.rules else ""
        raise OutOfDomainError(
            f"traded_by={shown(traded_by)}: {calamity} is not tradable{cited}: no player traded it to the primary "
            "victim; leave out traded_by="
        )


def _trader_spared(
    immunities: "Mapping[str, tuple[CalamityImmunity, ...] | None]", calamity: str, effect: str
) -> str | None:
    """Why the player who traded ``calamity`` takes no share of its ``effect`` on secondary victims:
    the citation of the calamity's ``trading_player`` immunity that spares him (" (29.61)", or ""
    where it cites none); None where none does (he may be allotted a share like any other player).
    UnknownFactError where the calamity's immunities are unknown."""
    listed = immunities[calamity]
    if listed is None:
        raise not_given(f"who is immune to {calamity}", f"calamities[{calamity}].immune")
    for immunity in listed:
        if (
            immunity.who == "trading_player"
            and immunity.side in (None, Role.SECONDARY)
            and (not immunity.effects or effect in immunity.effects)
        ):
            return f" ({', '.join(immunity.rules)})" if immunity.rules else ""
    return None


def calamities_suffered(
    phases: "Mapping[str, Phase]", order: "tuple[str, ...]", received: "Iterable[str]",
    rng: "Random | None", stoic: bool, table: "Mapping[str, Calamity] | None" = None,
    players: int | None = None, counts: "Iterable[int]" = (),
) -> "tuple[str, ...]":  # fmt: skip
    """The rule logic of a package's ``calamities_suffered`` over its ``phases`` and resolution ``order``: the
    calamities a player suffers as primary victim of those he ``received`` this turn, in resolution order."""
    flag(stoic, "stoic")
    if rng is not None and not callable(getattr(rng, "sample", None)):
        # checked whatever the hand: a seed given for the generator failed only on a hand over the limit
        raise OutOfDomainError(
            f"rng={shown(rng)} is no random number generator: give a random.Random (random.Random(5) for the seed"
            " 5), or None for a fresh one"
        )
    cards = resolution_order(order, received, table, "received", players, counts)
    if stoic:
        return cards
    limit = _phase_int(
        phases, "resolution_of_calamities", "max_primary_calamities", "how many calamities a player suffers"
    )
    phase = phases["resolution_of_calamities"]
    kept = list(cards)
    if phase.max_of_one_calamity is not None:
        # the extra cards of one calamity go first, whatever else he holds (Mega Civilization §8);
        # they are alike, so which of them goes does not matter
        seen: Counter[str] = Counter()
        unique = []
        for calamity in kept:
            seen[calamity] += 1
            if seen[calamity] <= phase.max_of_one_calamity:
                unique.append(calamity)
        kept = unique
    by_severity = (("major", phase.max_major_calamities), ("minor", phase.max_minor_calamities))
    over = [(severity, most) for severity, most in by_severity if most is not None]
    if len(kept) <= limit and not any(_of_severity(kept, s, table) > m for s, m in over):
        return resolution_order(order, kept)
    if rng is None:
        rng = Random()
    if not over:  # one number (Advanced Civilization 29.5): that many drawn at random
        return resolution_order(order, rng.sample(kept, limit))
    # then the excess of a severity over its limit, then any over the total, each at random: the
    # fewest discards that meet every part of the limit
    for severity, most in over:
        of_it = [c for c in kept if _severity(c, table) == severity]
        for gone in rng.sample(of_it, max(0, len(of_it) - most)):
            kept.remove(gone)
    if len(kept) > limit:
        kept = rng.sample(kept, limit)
    return resolution_order(order, kept)


def _severity(calamity: str, table: "Mapping[str, Calamity] | None") -> str:
    found = None if table is None else table.get(calamity)
    if found is None or found.severity is None:
        raise not_given(
            f"whether {calamity} is a major or a minor calamity",
            f"calamities[{calamity}].severity",
            hint="its calamity limit counts them apart",
        )
    return str(found.severity)


def _of_severity(calamities: "list[str]", severity: str, table: "Mapping[str, Calamity] | None") -> int:
    return sum(1 for c in calamities if _severity(c, table) == severity)


def ship_range(phases: "Mapping[str, Phase]", cards: "Mapping[str, Card]", held: "Iterable[str]") -> int:
    """The rule logic of a package's ``ship_range`` over its ``phases`` and ``cards``: the most sea areas a holder of
    ``held`` moves a ship through in one movement phase."""
    moves = [
        e for e in effects_held(cards, held, EffectKind.MOVEMENT) if isinstance(e, Movement) and e.units == "ships"
    ]
    ranges = [m.range for m in moves if m.range is not None]
    base = max(ranges) if ranges else _phase_int(phases, "movement", "ship_moves", "a ship's range")
    return base + sum(m.range_change or 0 for m in moves)


def unit_points(phases: "Mapping[str, Phase]", cities: int, tokens: int) -> int:
    """The rule logic of a package's ``unit_points`` over its ``phases``: the unit points of ``cities`` cities and
    ``tokens`` tokens in a calamity's loss (29.62)."""
    city, token = _unit_values(phases)
    return within(cities, "cities") * city + within(tokens, "tokens") * token


def reduction_points(phases: "Mapping[str, Phase]", tokens_left: int) -> int:
    """The rule logic of a package's ``reduction_points`` over its ``phases``: the unit points a city's reduction
    counts for when it leaves ``tokens_left`` tokens (29.62)."""
    city, token = _unit_values(phases)
    within(tokens_left, "tokens_left", 0, city // token, "the tokens a reduced city leaves")
    return city - tokens_left * token


def _unit_values(phases: "Mapping[str, Phase]") -> "tuple[int, int]":
    found = phases.get("resolution_of_calamities")
    value = None if found is None else found.unit_points
    if value is None:
        raise not_given(
            "what a city and a token count for",
            "sequence_of_play.phases[resolution_of_calamities].unit_points",
            hint="an engine may supply it with assuming(Assumptions(unit_points=...))",
        )
    return value


def _ast(settings: "Settings | Mapping[str, object]") -> "tuple[int | None, int]":
    """The A.S.T.'s spaces per track (None: unknown) and its start space (1 where not given)."""
    if isinstance(settings, Settings):
        ast = settings.ast
        return (None, 1) if ast is None else (ast.spaces_per_track, ast.start_space)
    # a package built before SETTINGS was typed (with runtime 1.3) passes the mapping it had
    from collections.abc import Mapping

    found = settings.get("ast")
    old: Mapping[str, object] = found if isinstance(found, Mapping) else {}
    per_track, start = old.get("spaces_per_track"), old.get("start_space")
    return (per_track if isinstance(per_track, int) else None, start if isinstance(start, int) else 1)


def finish_space(
    settings: "Settings | Mapping[str, object]", tracks: "Mapping[str, Mapping[str, AstTrack]]",
    nations: "Mapping[str, object]", levels: "tuple[str, ...]", nation: str, level: str | None,
) -> int:  # fmt: skip
    """The rule logic of a package's ``finish_space`` over its ``settings`` and A.S.T. ``tracks``: the finish square
    of ``nation``'s track (34.1 A)."""
    known_id(nations, nation, "nation")
    per_track, start = _ast(settings)
    track = _track(tracks, nation, levels[0] if level is None else _level(levels, level))
    spaces = track.spaces if track.spaces is not None else per_track
    if spaces is None:
        raise not_given(f"the length of the A.S.T. track of {nation}, and so its finish", "ast.spaces_per_track")
    return start + spaces - 1


def has_finished(
    settings: "Settings | Mapping[str, object]", tracks: "Mapping[str, Mapping[str, AstTrack]]",
    nations: "Mapping[str, object]", levels: "tuple[str, ...]", nation: str, space: int, level: str | None,
) -> bool:  # fmt: skip
    """The rule logic of a package's ``has_finished`` over its ``settings`` and A.S.T. ``tracks``: has ``nation``'s
    marker reached the finish square on ``space`` (34.1 A)?"""
    last = finish_space(settings, tracks, nations, levels, nation, level)
    start = _ast(settings)[1]
    within(space, "space", start, last, f"the spaces of the A.S.T. track of {nation}")
    return space == last
