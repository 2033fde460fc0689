"""Calamities as the rules resolve them: the order of resolution and the amount an effect takes.

Pure functions over the model. The order is derived, never written in the data (Advanced
Civilization 29.6, Expansion Project 24.7); the amount an effect takes from a holder is the
effect's base amount changed by the modifiers of the civilization cards he holds, combined as the
calamity's `modifier_combination` says (cumulative, or only the highest card, 30.322).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import field
from typing import Literal

from civrules.families.advanced_civilization.model import Calamity, CalamityEffect, Modifier, Ruleset
from civrules.model import Unknown, known
from civrules.support.memo import by_identity
from civrules.support.values import frozen_value

Role = Literal["primary", "secondary"]


def _order_key(calamity: Calamity) -> tuple[int, int, int]:
    severity = 0 if calamity.severity == "minor" else 1
    tradable = 2 if isinstance(calamity.tradable, Unknown) else int(calamity.tradable)
    return severity, calamity.stack, tradable


def resolution_order(ruleset: Ruleset | Iterable[Calamity]) -> tuple[Calamity, ...]:
    """The calamities in the order they are resolved.

    Ascending trade stack; in one stack the non-tradable calamities before the tradable ones
    (Advanced Civilization 29.6). Where calamities have a severity, every minor calamity is
    resolved before the major ones, minor ones also in ascending stack order (Expansion Project
    24.7.1-24.7.2). A calamity whose trade status is unknown comes last in its stack; ties keep the
    data order (players' A.S.T. order settles them in play).

    Examples:
        >>> [c.id for c in resolution_order(ruleset)][:4]   # doctest: +SKIP
        ['volcano_earthquake', 'treachery', 'famine', 'superstition']
    """
    calamities = ruleset.calamities if isinstance(ruleset, Ruleset) else ruleset
    return tuple(sorted(calamities, key=_order_key))


def order_basis(ruleset: Ruleset) -> str:
    """How :func:`resolution_order` was worked out, for a sheet to say beside the order: it is
    derived, never listed in the data, by the rules of Advanced Civilization (and of the Expansion
    Project where calamities have a severity), whichever game the ruleset is; the ruleset's own
    phase of calamity resolution is quoted where it says how."""
    severities = any(calamity.severity is not None for calamity in ruleset.calamities)
    text = (
        "Worked out by civrules, not listed in the rule files: by trade stack, lowest first, and in a stack "
        "the non-tradable calamities before the tradable ones"
        + (", every minor calamity before the major ones" if severities else "")
        + " (the rule of Advanced Civilization 29.6"
        + (" and of the Expansion Project 24.7.1–24.7.2" if severities else "")
        + ")."
    )
    for phase in ruleset.phases:
        if phase.order == "ascending_calamity_order" and phase.order_text:
            rules = ", ".join(phase.rules)
            text += f" This ruleset's {phase.display_name} says: {phase.order_text}" + (f" ({rules})" if rules else "")
            if not text.endswith((".", ")")):
                text += "."
            break
    return text


@frozen_value
class AllBut:
    """An amount of "all of the victim's units except ``spared``" (Civil Disorder, 30.711)."""

    spared: int


@frozen_value
class EffectAmount:
    """What one effect of a calamity takes from one holder, after his cards' modifiers.

    ``base`` is the effect's amount as written, or for a secondary victim the most one victim can
    be made to lose (`max_per_victim`) where the effect has such a limit. ``change`` is the signed
    sum of the modifiers that apply; ``set_to`` an amount a modifier states outright (it wins over
    ``change``); ``cap`` the most the holder loses.
    """

    calamity: str
    effect: str
    role: Role
    base: int | AllBut | Unknown | None
    change: int = 0
    set_to: int | None = None
    cap: int | None = None
    immune: bool = False
    #: The effect kind after an `alters` modifier (e.g. an earthquake reduces instead of destroys).
    kind: str | None = None
    #: The modifiers that count, and those of held cards that another card superseded.
    applied: tuple[Modifier, ...] = ()
    superseded: tuple[Modifier, ...] = ()
    #: Modifiers that add a separate loss rather than change this one (Military in Civil War, 30.414),
    #: given with the one effect the loss is taken with (check K018), so taken once per resolution.
    additions: tuple[Modifier, ...] = ()
    unknown: Unknown | None = field(default=None)
    #: For a secondary victim: the most one victim can be allotted (`max_per_victim`, else the total).
    limit: int | None = None
    #: An amount per city the victim owns (`amount: {per_city_owned: n}`, Expansion Project Tyranny).
    per_city: int | None = None

    @property
    def value(self) -> int | None:
        """The most this holder loses: :meth:`loss` of as many units as the rule can take (for a
        secondary victim a share as large as ``limit``); None when it depends on his units or
        cities (``AllBut``, an amount per city) or is unknown. One computation with ``loss``."""
        return self._amount(None, None)

    def loss(self, units: int, *, cities: int | None = None) -> int:
        """What the holder loses, given ``units``.

        ``units`` is, for an effect on the primary victim, what he has of the effect's unit (his
        cities for Civil Disorder: all but three reduced, the modifiers then change the number
        reduced, never below none nor beyond all); for a secondary victim, the share of the total
        the primary victim allotted him (29.61), counted up to ``limit``: the per-victim limit
        (Famine: eight unit points, 30.311; Piracy: one city, 30.912) or else the effect's total
        (Flood: ten, 30.512), which his own cards then change; allotted nothing, he loses nothing.
        ``cities`` is the number of cities he owns, for an amount per city (Expansion Project
        Tyranny, 29.8.1.3).

        Raises:
            ValueError: the amount is unknown or not given, ``cities`` is needed and missing, or
            ``units`` or ``cities`` is negative.
        """
        if units < 0 or (cities is not None and cities < 0):
            raise ValueError(f"{self.calamity}.{self.effect}: units and cities are counted from 0")
        if self.immune:
            return 0
        if self.unknown is not None:
            raise ValueError(f"{self.calamity}.{self.effect}: amount unknown ({self.unknown.reason})")
        if self.per_city is not None and self.set_to is None and cities is None:
            raise ValueError(f"{self.calamity}.{self.effect} is an amount per city: give cities=")
        amount = self._amount(units, cities)
        if amount is None:
            raise ValueError(f"{self.calamity}.{self.effect}: no amount")
        return amount

    def _amount(self, units: int | None, cities: int | None) -> int | None:
        """The one computation of the rule: what he loses with ``units`` (None: unlimited) and
        ``cities`` (None: not known); None where that cannot be said."""
        if self.immune:
            return 0
        if self.unknown is not None:
            return None
        if self.role == "secondary":
            if units is None:
                units = self.limit
            elif self.limit is not None:
                units = min(units, self.limit)
            if units == 0:
                return 0
        full: int
        if self.set_to is not None:
            full = self.set_to
        elif self.per_city is not None:
            if cities is None:
                return None
            full = self.per_city * cities + self.change
        elif isinstance(self.base, AllBut):
            if units is None:
                return None
            full = max(0, units - self.base.spared) + self.change
        elif self.role == "secondary" and (self.limit is not None or not isinstance(self.base, int)):
            if units is None:
                return None
            full = units + self.change
        elif not isinstance(self.base, int):
            return None
        else:
            full = self.base + self.change
        amount = self._capped(full)
        return amount if units is None or self.role != "primary" else min(units, amount)

    def _capped(self, amount: int) -> int:
        amount = max(0, amount)
        return amount if self.cap is None else min(amount, self.cap)


def effect_of(calamity: Calamity, effect_id: str) -> CalamityEffect | None:
    """The effect ``effect_id`` of a calamity (the first of that id), None where it has none."""
    return _effects_by_id(calamity).get(effect_id)


@by_identity(64)
def _effects_by_id(calamity: Calamity) -> dict[str | None, CalamityEffect]:
    """A calamity's effects by id, the first of each, made once per calamity: an effect is asked
    for each of its modifiers (by the sheet, the package and the checks), each asking scanned them."""
    found: dict[str | None, CalamityEffect] = {}
    for effect in calamity.effects:
        found.setdefault(effect.id, effect)
    return found


def effect_side(calamity: Calamity, effect_id: str) -> Role | None:
    """Whether the effect is one on the primary victim or on the secondary victims (None: no such effect)."""
    effect = effect_of(calamity, effect_id)
    if effect is None:
        return None
    return "primary" if effect.side == "primary" else "secondary"


def modified_effects(calamity: Calamity, modifier: Modifier) -> tuple[str, ...]:
    """The effects a modifier changes: its `modifies`, else every effect on the sides it applies to."""
    if modifier.modifies:
        return modifier.modifies
    sides = ("primary", "secondary") if modifier.applies_to == "both" else (modifier.applies_to,)
    return tuple(e.id for side in sides for e in calamity.effects_of(side) if e.id is not None)


#: The conditions of an effect (the schema's closed set) that exclude each other, each to its
#: complement: an effect under one and an effect under the other never take place in the same
#: resolution (the card was traded or it was not, 30.911-30.912; the primary victim has a city by a
#: volcano or he has none, 30.211-30.212; he has vulnerable units on a flood plain or he has none,
#: 30.511 and 30.514).
COMPLEMENTS: Mapping[str, str] = {
    first: second
    for pair in (
        ("card_traded", "card_not_traded"),
        ("primary_has_city_touched_by_volcano", "primary_has_no_city_touched_by_volcano"),
        ("primary_has_vulnerable_units_on_flood_plain", "primary_has_no_vulnerable_units_on_flood_plain"),
    )
    for first, second in (pair, pair[::-1])
}


def _complement(condition: str | None) -> str:
    """The condition that excludes ``condition`` (nothing, "", where none does)."""
    return COMPLEMENTS.get(condition, "") if condition is not None else ""


def together(calamity: Calamity, modifier: Modifier) -> dict[Role, tuple[CalamityEffect, ...]]:
    """The effects of each side that a modifier's separate loss (`adds`) goes with, where two or
    more of them may take place in one resolution (sides without such effects left out): an engine
    applying each effect would take the loss once for each. For a modifier without `adds`, nothing.

    Counted, not compared pair by pair: an effect happens together with another of the loss's
    effects unless every other one is under the complement of its condition."""
    if not modifier.adds:
        return {}
    found: dict[Role, tuple[CalamityEffect, ...]] = {}
    named = set(modified_effects(calamity, modifier))
    sides: tuple[Role, ...] = ("primary", "secondary")
    for side in sides:
        if modifier.applies_to not in (side, "both"):
            continue
        effects = [e for e in calamity.effects_of(side) if e.id is not None and e.id in named]
        conditions = Counter(e.condition for e in effects if e.condition is not None)
        clashing = tuple(e for e in effects if len(effects) - 1 > conditions[_complement(e.condition)])
        if clashing:
            found[side] = clashing
    return found


def _unknown_mode(calamity: Calamity) -> Unknown | None:
    """The calamity's combination mode where the data writes it `{unknown: why}` (else None)."""
    return calamity.combination.mode_unknown if calamity.combination is not None else None


def _combine(calamity: Calamity, found: list[Modifier], held: Collection[str]) -> tuple[list[Modifier], list[Modifier]]:
    """Split the modifiers of held cards into those that count and those superseded."""
    combination = calamity.combination
    dropped: set[str] = set()
    for override in combination.overrides if combination is not None else ():
        if override.card in held:
            dropped.update(override.overrides)
    if calamity.modifier_combination == "highest":
        rank = _ranks(calamity)
        ranked = [m.card for m in found if m.card in rank and m.card not in dropped]
        if ranked:
            top = max(ranked, key=rank.__getitem__)
            dropped.update(card for card in ranked if card != top)
    return [m for m in found if m.card not in dropped], [m for m in found if m.card in dropped]


@by_identity(64)
def _ranks(calamity: Calamity) -> dict[str, int]:
    """Each card of the calamity's ``precedence`` by its first place: a card's level looked up, not
    searched for, and made once per calamity (each amount a sheet or a package asks combines the
    modifiers: a precedence of 5,000 cards searched, or ranked again, for each was 25 million steps)."""
    rank: dict[str, int] = {}
    for place, card in enumerate(calamity.combination.precedence if calamity.combination is not None else ()):
        rank.setdefault(card, place)
    return rank


def _modifiers_of(calamity: Calamity, held_cards: Collection[str]) -> list[Modifier]:
    """The modifiers of ``calamity`` of the cards in ``held_cards``, in data order: looked up by
    card where the calamity has many (a sheet or a package asks the amount for each of a calamity's
    modifiers: Famine with 5,000 card modifiers scanned them all 25,000 times, 11 s of a build)."""
    modifiers = calamity.modifiers
    if len(modifiers) <= _SCANNED or len(held_cards) >= len(modifiers):
        return [m for m in modifiers if m.card in held_cards]
    by_card = _positions_by_card(calamity)
    found = sorted(i for card in set(held_cards) for i in by_card.get(card, ()))
    return [modifiers[i] for i in found]


@by_identity(64)
def _positions_by_card(calamity: Calamity) -> dict[str, list[int]]:
    """Where each card's modifiers are among the calamity's, made once per calamity."""
    by_card: dict[str, list[int]] = {}
    for position, modifier in enumerate(calamity.modifiers):
        by_card.setdefault(modifier.card, []).append(position)
    return by_card


#: A calamity of at most this many modifiers is scanned; a longer one looked up by card.
_SCANNED = 16


def calamity_amount(
    calamity: Calamity,
    effect_id: str,
    held_cards: Collection[str],
    role: Role,
    commodities: Mapping[str, int] | None = None,
) -> EffectAmount:
    """What the effect ``effect_id`` takes from a holder of ``held_cards`` in ``role``.

    ``role`` is the holder's part in the calamity: ``primary`` (the primary victim) or
    ``secondary`` (a secondary victim); it must be the side the effect is on. ``commodities``
    gives the commodity cards the holder has, by good, for modifiers counted per card (Pottery
    with Grain against Famine, 30.312); an optional modifier is taken as used.

    The modifiers of held cards that apply to the role and name the effect are combined as the
    calamity's `modifier_combination` says: cumulative (all add up; an `overrides` card cancels
    the cards it overrides), or highest (only the highest card of `precedence` held counts,
    30.322). Without a combination every applying modifier counts. Where the mode is written
    `{unknown: why}` and the holder has modifiers of two or more cards, the amount is unknown.
    A modifier counted per commodity card of any good (`per: any_commodity_card`, Theocracy against
    Iconoclasm and Heresy) counts every card in ``commodities``.

    Raises:
        KeyError: the calamity has no effect ``effect_id``.
        ValueError: the effect is not on the side ``role`` names.

    Examples:
        >>> calamity_amount(epidemic, "epidemic_primary", {"medicine"}, "primary").value  # doctest: +SKIP
        8
    """
    effect = effect_of(calamity, effect_id)
    if effect is None:
        raise KeyError(f"{calamity.id} has no effect {effect_id!r}")
    side = "primary" if effect.side == "primary" else "secondary"
    if side != role:
        raise ValueError(f"{calamity.id}.{effect_id} is an effect on the {side} victim, not the {role}")
    amount = known(effect.amount)
    base: int | AllBut | Unknown | None
    if effect.all_but is not None:
        base = AllBut(effect.all_but)
    elif isinstance(amount, (int, Unknown)):
        base = amount
    else:
        base = None
    limit = None
    if role == "secondary":
        # The most one secondary victim can be allotted: the per-victim limit, else the total.
        limit = (
            effect.max_per_victim if effect.max_per_victim is not None else amount if isinstance(amount, int) else None
        )
        if effect.max_per_victim is not None:
            base = effect.max_per_victim
    unknown = base if isinstance(base, Unknown) else None

    found = [
        m
        for m in _modifiers_of(calamity, held_cards)
        if m.applies_to in (role, "both") and effect_id in modified_effects(calamity, m)
    ]
    additions = [m for m in found if m.adds]  # (equal modifiers have the same `adds`)
    counted, superseded = _combine(calamity, [m for m in found if not m.adds], held_cards)
    mode = _unknown_mode(calamity)
    if mode is not None and len({m.card for m in found}) > 1:
        unknown = mode  # the rules do not say how the cards' modifiers combine

    change, set_to, cap, immune, kind = 0, None, None, False, effect.kind
    for modifier in counted:
        if modifier.effect == "immunity":
            immune = True
        kind = modifier.becomes_kind if modifier.becomes_kind is not None else kind
        stated = modifier.stated
        if stated is None and modifier.effect == "nullifies" and modifier.amount is None:
            stated = 0
        if isinstance(stated, int):
            set_to = stated if set_to is None else min(set_to, stated)
        elif isinstance(modifier.amount, Unknown):
            unknown = modifier.amount
        elif isinstance(modifier.amount, int):
            times = 1
            if modifier.per_kind == "commodity_card":
                times = (commodities or {}).get(modifier.per_commodity or "", 0)
            elif modifier.per_kind == "any_commodity_card":
                times = sum((commodities or {}).values())
            change += modifier.amount * times
        if modifier.cap is not None:
            cap = modifier.cap if cap is None else min(cap, modifier.cap)
    return EffectAmount(
        calamity.id,
        effect_id,
        role,
        base,
        change,
        set_to,
        cap,
        immune,
        kind,
        tuple(counted),
        tuple(superseded),
        tuple(additions),
        unknown,
        limit,
        effect.per_city,
    )
