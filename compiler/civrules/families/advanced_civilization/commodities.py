"""Commodity cards as the rules value them: set values with Mining, and the declared trade stacks.

Pure functions over the model. The set value rule and Mining's bonus are data of the commodities
file (`set_value`, `mining.set_bonus`), typed in the model; :func:`set_value_rule` reads them,
:func:`set_value` applies them to one set. :func:`declared_stacks` gives the numbered trade card
stacks (`trade_stacks`) with the place each was declared, for the checks.
"""

from __future__ import annotations

from civrules.families.advanced_civilization.model import Commodity, Ruleset, TradeStack
from civrules.model import Unknown
from civrules.support.values import frozen_value

#: The only set value formula the rulebooks use: n cards of face value v are worth n x n x v.
COUNT_SQUARED_TIMES_VALUE = "count_squared_times_value"


@frozen_value
class SetValueRule:
    """How a ruleset values a set: the formula and how many cards Mining adds (0 if it adds none)."""

    #: None when the sources do not say how a set is valued (Mega Civilization).
    formula: str | None = COUNT_SQUARED_TIMES_VALUE
    mining_extra_cards: int = 1


#: Advanced Civilization's rule (28.52-28.53, 32.261): n x n x v, Mining adds one card.
ADVANCED_CIVILIZATION = SetValueRule()


def set_value_rule(ruleset: Ruleset) -> SetValueRule:
    """The set value rule the ruleset's commodities file declares.

    Mining adds no card when the file declares no `mining.set_bonus` (the Expansion Project's Mining
    changes treasury instead).
    """
    rule = ruleset.set_value
    formula: str | None = COUNT_SQUARED_TIMES_VALUE
    if rule is not None and rule.unknown:
        formula = None
    elif rule is not None and rule.mapping and rule.formula_written:
        formula = rule.formula
    return SetValueRule(formula, ruleset.mining.extra_cards if ruleset.mining is not None else 0)


def set_value(commodity: Commodity, n: int, mining: bool = False, rule: SetValueRule = ADVANCED_CIVILIZATION) -> int:
    """The value of a set of ``n`` cards of one good.

    With ``mining`` (the holder uses Mining on this set, 32.261) a set of a Mining good counts as
    ``rule.mining_extra_cards`` cards larger, never beyond the good's count (the limit printed on
    the card); Mining does nothing for other goods.

    Raises:
        ValueError: ``n`` is negative or larger than the good's count, the good's value or count
            is unknown, or the formula is not one this function knows.

    Examples:
        >>> iron = Commodity("iron", "Iron", None, {}, value=2, count=8, stack=2, mining=True)
        >>> set_value(iron, 3), set_value(iron, 3, mining=True)
        (18, 32)
    """
    if rule.formula is None:
        raise ValueError("how a set is valued is not in the sources")
    if rule.formula != COUNT_SQUARED_TIMES_VALUE:
        raise ValueError(f"unknown set value formula {rule.formula!r}")
    value, count = commodity.value, commodity.count
    if isinstance(value, Unknown) or isinstance(count, Unknown):
        raise ValueError(f"{commodity.id}: value or count unknown")
    if not 0 <= n <= count:
        raise ValueError(f"{commodity.id}: a set holds 0 to {count} cards, not {n}")
    cards = min(n + rule.mining_extra_cards, count) if mining and commodity.mining and n > 0 else n
    return cards * cards * value


def commodity_total(ruleset: Ruleset) -> int | Unknown:
    """How many commodity cards the deck holds: the sum of the goods' counts.

    Derived from the data, so a variant that recounts a good is consistent by construction; where
    a count is unknown, the declared `total_cards` (the rulebook's statement) when there is one.
    """
    counts = [c.count for c in ruleset.commodities]
    if all(isinstance(n, int) for n in counts):
        return sum(n for n in counts if isinstance(n, int))
    declared = ruleset.total_cards.count if ruleset.total_cards is not None else None
    return declared if isinstance(declared, int) else Unknown("a good's count is unknown")


def declared_stacks(ruleset: Ruleset) -> list[TradeStack]:
    """The trade stacks of `trade_stacks.stacks`, in data order (empty when none are declared)."""
    return list(ruleset.trade_stacks.stacks) if ruleset.trade_stacks is not None else []


@frozen_value
class BlockBonus:
    """A band of player counts in which a set redeemed outside its native trade block gains its face
    value per card (Expansion Project 26.3.3); ``shared_goods`` says whether goods native to both
    blocks gain it when redeemed in the block other than the one they were drawn in (26.3.4)."""

    players_min: int
    players_max: int
    shared_goods: bool


def block_bonuses(ruleset: Ruleset) -> tuple[BlockBonus, ...]:
    """The ruleset's non-native block bonus bands (none for a game without trade blocks)."""
    return tuple(
        BlockBonus(band.players_min, band.players_max, band.shared_goods == "bonus") for band in ruleset.block_bonuses
    )


def block_bonus(
    commodity: Commodity,
    n: int,
    bonuses: tuple[BlockBonus, ...],
    *,
    players: int,
    redeemed_in: str,
    drawn_in: str | None = None,
) -> int:
    """What a set of ``n`` cards gains by being redeemed in the trade block ``redeemed_in``.

    A good of the West or East block gains its face value per card when redeemed in the other
    block, for player counts of a bonus band; a shared good gains it, where the band allows, when
    redeemed in a block other than ``drawn_in``. 0 otherwise (and for goods without a block).

    >>> oil = Commodity("oil", "Oil", None, {}, value=4, count=7, stack=4, mining=False, block="west")
    >>> block_bonus(oil, 3, (BlockBonus(12, 15, True),), players=12, redeemed_in="east")
    12
    """
    native = commodity.block
    value = commodity.value
    if not isinstance(native, str) or isinstance(value, Unknown) or n <= 0:
        return 0
    band = next((b for b in bonuses if b.players_min <= players <= b.players_max), None)
    if band is None:
        return 0
    if native == "shared":
        outside = band.shared_goods and drawn_in is not None and drawn_in != redeemed_in
    else:
        outside = native != redeemed_in
    return n * value if outside else 0


@frozen_value
class Deck:
    """One trade deck of a deck composition: its block, goods with card counts, calamity sets."""

    block: str
    commodities: tuple[tuple[str, int | None], ...]
    calamity_sets: int | None
    calamity_severities: tuple[str, ...] | None


@frozen_value
class DeckBand:
    """The trade decks for a band of player counts (and, where the map is split, a region)."""

    players_min: int
    players_max: int
    region: str | None
    decks: tuple[Deck, ...]


def deck_compositions(ruleset: Ruleset) -> tuple[DeckBand, ...]:
    """The decks per player count the commodities file declares (Expansion Project 10.3.x, Mega
    Civilization): a good given as `share: all` counts all its cards, `half` half of them (None
    when its count is unknown or odd)."""
    counts = {c.id: c.count for c in ruleset.commodities}
    bands = []
    for composition in ruleset.deck_compositions:
        low, high = composition.players_min, composition.players_max
        if low is None or high is None:
            continue
        decks = []
        for deck in composition.decks:
            goods: list[tuple[str, int | None]] = []
            for entry in deck.goods:
                total = counts.get(entry.commodity)
                if isinstance(entry.count, int):
                    cards: int | None = entry.count
                elif entry.share == "all" and isinstance(total, int):
                    cards = total
                elif entry.share == "half" and isinstance(total, int) and total % 2 == 0:
                    cards = total // 2
                else:
                    cards = None
                goods.append((entry.commodity, cards))
            decks.append(
                Deck(
                    str(deck.block),
                    tuple(goods),
                    deck.calamity_sets if isinstance(deck.calamity_sets, int) else None,
                    deck.calamity_severities if isinstance(deck.calamity_severities, tuple) else None,
                )
            )
        bands.append(DeckBand(low, high, composition.region, tuple(decks)))
    return tuple(bands)
