"""Calamities: where they sit in the trade stacks, and how the civilization cards change them.

The calamities file says which stack each calamity is in and which cards modify it; the
commodities file declares the stacks (`trade_stacks`), which of them take calamities and, per
stack, how many of each kind (`calamity_cards`, Advanced Civilization 9.1 and 15.2). The cards
file says the same modifications from the other side (an attribute's `calamities` links). These
checks hold the three together.

Not checked here, on purpose:

- ids a modifier, an immunity or a link names that do not exist: X001 reports those, and the
  checks here skip them;
- the sign of a modifier's `amount`: it follows the amount, not the harm (Music adds five unit
  points to the primary victim's Civil War selection, which is less harm), so it says nothing
  about `effect`;
- the order of resolution: it is derived (:func:`~civrules.families.advanced_civilization.calamities.
  resolution_order`), never written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from civrules.checks import RULE_INDEX, check, diagnostic, made_of, setting
from civrules.checks.players import seats_nobody
from civrules.diagnostics import Diagnostic, Related, Severity, blanks, words
from civrules.diagnostics.suggest import closest
from civrules.families.advanced_civilization.calamities import modified_effects, together
from civrules.families.advanced_civilization.commodities import declared_stacks
from civrules.families.advanced_civilization.model import (
    CALAMITY_KINDS,
    Calamity,
    Card,
    Immunity,
    Modifier,
    Ruleset,
    TradeStack,
)
from civrules.model import Unknown

# --- Shared helpers ----------------------------------------------------------------------------

SIDES = ("primary", "secondary")


def calamities_of(ruleset: Ruleset) -> list[Calamity]:
    """Every calamity in data order, the copies of a duplicated id too: each is a card of its own
    (I001 reports the id), and skipping one would make its stack or its modifiers look missing."""
    return list(ruleset.calamities)


def modifiers_by_card(ruleset: Ruleset) -> dict[tuple[str, str], list[tuple[Calamity, Modifier]]]:
    """The modifiers of each (calamity id, card id), with their calamity (of all calamities sharing a
    duplicated id), in data order: a card's modifiers looked up, not searched for among a calamity's
    (a calamity with thousands of modifiers and as many cards linking to it cost their product)."""
    found: dict[tuple[str, str], list[tuple[Calamity, Modifier]]] = {}
    for calamity in ruleset.calamities:
        for modifier in calamity.modifiers:
            found.setdefault((calamity.id, modifier.card), []).append((calamity, modifier))
    return found


def effects_by_side(calamity: Calamity) -> dict[str, list[str]]:
    """The effect ids of each side, in data order."""
    return {side: [e.id for e in calamity.effects_of(side) if e.id is not None] for side in SIDES}


def sides_of(applies_to: str) -> tuple[str, ...]:
    """The sides `applies_to` or `from` selects (`both` is both)."""
    return SIDES if applies_to == "both" else (applies_to,)


def kind_of(calamity: Calamity) -> str | None:
    """The kind `calamity_cards` counts the calamity as (None where its trade status is unknown)."""
    if calamity.severity == "minor":
        return "minor"
    if isinstance(calamity.tradable, Unknown):
        return None
    return "tradable" if calamity.tradable else "non_tradable"


KIND_WORDS = {"non_tradable": "non-tradable", "tradable": "tradable", "minor": "minor"}


def _count(n: int, kind: str) -> str:
    return words.count(n, f"{KIND_WORDS[kind]} calamity", f"{KIND_WORDS[kind]} calamities")


def _closest(name: str, choices: Sequence[str]) -> str | None:
    return closest(name, choices)


def _stacks_key(ruleset: Ruleset) -> Related | None:
    if ruleset.trade_stacks is None:
        return None
    return Related(ruleset.trade_stacks.origin.key_span("stacks"), "the trade stacks are declared here")


# --- Stacks ------------------------------------------------------------------------------------


@check("K001", "calamity-outside-calamity-stacks", Severity.ERROR, reads=("calamities.stack", setting("trade_stacks")))
@made_of("calamities", "trade_stacks")
def check_calamity_stacks(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a calamity is in a trade stack the commodities file does not declare, or in one declared
    `calamities: false` (Advanced Civilization: the first stack has no calamities, 15.2, 30.1).

    Why: the set-up (15.2) shuffles each calamity into, or places it under, the stack of its
    number; a calamity in a stack that does not exist is never dealt, and one in a stack without
    calamities breaks the promise that the first stack is safe to draw from.

    Fix: correct the calamity's `stack`, or the stack's declaration. Where several calamities sit
    in a stack declared without calamities, the diagnostic points at the declaration.

        trade_stacks:
          stacks:
            - {number: 6, calamities: false, rule: "9.1"}   # FAIL: Epidemic is in stack 6
    """
    stacks = {stack.number: stack for stack in declared_stacks(ruleset)}
    if not stacks:
        return
    by_stack: dict[int, list[Calamity]] = {}
    for calamity in calamities_of(ruleset):
        stack = stacks.get(calamity.stack)
        if stack is None or not stack.calamities:
            by_stack.setdefault(calamity.stack, []).append(calamity)
    numbers = ", ".join(str(n) for n in sorted(s.number for s in stacks.values() if s.calamities))
    for number, found in sorted(by_stack.items()):
        stack = stacks.get(number)
        names = words.listed([c.id for c in found])
        if stack is None:
            declared = _stacks_key(ruleset)
            first = found[0]
            yield diagnostic(
                "K001",
                f"{names} {'is' if len(found) == 1 else 'are'} in trade stack {number}, "
                "which the ruleset does not declare",
                first.origin.span("stack"),
                f"the stacks with calamities are {numbers}",
                [Related(c.origin.span("stack"), f"`{c.id}` is in stack {number} too") for c in found[1:]]
                + ([declared] if declared else []),
                subjects=(*(c.id for c in found), number),
            )
        elif len(found) == 1:
            yield diagnostic(
                "K001",
                f"`{found[0].id}` is in trade stack {number}, which is declared without calamities",
                found[0].origin.span("stack"),
                f"the stacks with calamities are {numbers}",
                [Related(stack.origin.span("calamities"), f"stack {number} is declared without calamities here")],
                subjects=(found[0].id,),
            )
        else:
            yield diagnostic(
                "K001",
                f"trade stack {number} is declared without calamities, but {names} are in it",
                stack.origin.span("calamities"),
                f"declare `calamities: true`, or move the calamities (stacks with calamities: {numbers})",
                [Related(c.origin.span("stack"), f"`{c.id}` is in stack {number}") for c in found],
                subjects=(number, *(c.id for c in found)),
            )


@check(
    "K002",
    "stack-calamity-composition",
    Severity.ERROR,
    reads=("calamities.severity", "calamities.stack", "calamities.tradable", setting("trade_stacks")),
)
def check_stack_composition(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a trade stack does not hold the calamities its declaration says: Advanced Civilization
    puts one non-tradable and one tradable calamity in each of stacks 2-5 and one tradable
    calamity in each of stacks 6-9 (9.1, 15.2), declared per stack as `calamity_cards`.

    Why: the set-up (15.2) shuffles the tradable calamities into their stacks under the cards set
    aside and puts the non-tradable ones at the bottom; a calamity with the wrong stack or trade
    status changes when it can be drawn and the order of resolution (29.6).

    Fix: correct the calamity's `stack` or `tradable` (the notes name the candidates), or the
    declaration. A stack that lacks a calamity is reported at its declaration, naming the stacks
    that have one too many; a surplus nothing else explains is reported at the calamity. A
    variant that adds, removes or moves calamities need not restate `calamity_cards`: the base's
    declaration no longer holds, so the variant's make-up is derived from its calamities (in
    `export`, the package and the sheets too); one it restates is checked.

        - id: famine
          stack: 2          # FAIL: stack 3 declares one non-tradable calamity and has none
          tradable: false
    """
    fields = ("stack", "tradable", "severity")
    # A declaration a later variant's change to the calamities overtook is derived, not checked
    # (assemble re-derives it); one the variant restates is held to its calamities.
    latest = ruleset.latest_change("calamities", calamities_of(ruleset), fields)
    stacks = [
        s
        for s in declared_stacks(ruleset)
        if s.calamity_cards is not None and not latest > ruleset.layer(s.origin.child("calamity_cards"))
    ]
    if not stacks:
        return
    held: dict[int, dict[str, list[Calamity]]] = {s.number: {kind: [] for kind in CALAMITY_KINDS} for s in stacks}
    for calamity in calamities_of(ruleset):
        kind = kind_of(calamity)
        if kind is not None and calamity.stack in held:
            held[calamity.stack][kind].append(calamity)
    surplus: dict[str, list[tuple[TradeStack, list[Calamity]]]] = {kind: [] for kind in CALAMITY_KINDS}
    short = dict.fromkeys(CALAMITY_KINDS, 0)
    for stack in stacks:
        assert stack.calamity_cards is not None
        for kind in CALAMITY_KINDS:
            found, wanted = held[stack.number][kind], stack.calamity_cards[kind]
            if len(found) > wanted:
                surplus[kind].append((stack, found))
            short[kind] += max(0, wanted - len(found))
    reported: set[int] = set()
    for stack in stacks:
        declared = stack.calamity_cards
        assert declared is not None
        found_by_kind = held[stack.number]
        lacking = [kind for kind in CALAMITY_KINDS if len(found_by_kind[kind]) < declared[kind]]
        if not lacking:
            continue
        reported.add(stack.number)
        kinds = [k for k in CALAMITY_KINDS if declared[k] or found_by_kind[k]]
        has = " and ".join(_count(len(found_by_kind[k]), k) for k in kinds)
        wants = " and ".join(_count(declared[k], k) for k in kinds)
        related = [
            Related(c.origin.span("tradable" if kind != "minor" else "severity"), f"`{c.id}`: {KIND_WORDS[kind]}")
            for kind in CALAMITY_KINDS
            for c in found_by_kind[kind]
        ]
        for kind in lacking:
            for other, found in surplus[kind]:
                related.extend(
                    Related(
                        c.origin.span("stack"),
                        f"`{c.id}`: one of {len(found)} {KIND_WORDS[kind]} in stack {other.number}",
                    )
                    for c in found
                )
        yield diagnostic(
            "K002",
            f"trade stack {stack.number} holds {has}; the ruleset declares {wants}",
            # the count written for the kind that is short (the whole declaration if it is left out)
            stack.origin.span("calamity_cards", lacking[0]),
            "correct the `stack` or `tradable` of a calamity (see the notes), or the stack's `calamity_cards`",
            related,
            subjects=(stack.number,),
        )
    for kind in CALAMITY_KINDS:
        if short[kind] >= sum(len(found) - _declared(stack, kind) for stack, found in surplus[kind]):
            continue
        for stack, found in surplus[kind]:
            if stack.number in reported:
                continue
            extra = found[-1]
            yield diagnostic(
                "K002",
                f"`{extra.id}` makes trade stack {stack.number} hold {_count(len(found), kind)}; "
                f"the ruleset declares {_declared(stack, kind)}",
                extra.origin.span("stack"),
                "move it to another stack, or correct the stack's `calamity_cards`",
                [Related(stack.origin.span("calamity_cards"), f"stack {stack.number} is declared here")]
                + [Related(c.origin.span("stack"), f"`{c.id}` is in stack {stack.number} too") for c in found[:-1]],
                subjects=(extra.id,),
            )


def _declared(stack: TradeStack, kind: str) -> int:
    return stack.calamity_cards[kind] if stack.calamity_cards is not None else 0


# --- Modifiers ---------------------------------------------------------------------------------


@check("K003", "modifier-combination-missing", Severity.ERROR, reads=("calamities", RULE_INDEX))
@made_of("calamities", "rule_index")
def check_combination_declared(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: the modifiers of a calamity name two or more different cards, but the calamity declares
    no `modifier_combination`.

    Why: a player holding several of the cards needs to know whether their effects add up
    (Epidemic, 30.615) or only the highest counts (Superstition, 30.322); the rules say which for
    each calamity, and an engine cannot guess it.

    Fix: add `modifier_combination` with the mode the rule gives (and `precedence` for highest).

        - id: epidemic
          modifiers:                  # FAIL: Medicine and Roadbuilding, no modifier_combination
            - {card: medicine, ...}
            - {card: roadbuilding, ...}
    """
    for calamity in calamities_of(ruleset):
        if calamity.combination is not None:
            continue
        first: dict[str, Modifier] = {}
        for modifier in calamity.modifiers:
            first.setdefault(modifier.card, modifier)
        if len(first) < 2:
            continue
        names = words.listed(list(first))
        yield diagnostic(
            "K003",
            f"`{calamity.id}` has modifiers of {words.count(len(first), 'card')} ({names}) but no "
            f"`modifier_combination`",
            calamity.origin.key_span("modifiers"),
            "add `modifier_combination: {mode: cumulative, text: "
            f'"{_RULE_WORDS}", {ruleset.citation_blank()}}}` as the rule says '
            "(`mode: highest` where only the strongest modifier counts)",
            [
                Related(calamity.origin.span("modifiers", m.index, "card"), f"a modifier of `{m.card}`")
                for m in first.values()
            ],
            subjects=(calamity.id, "modifier_combination"),
        )


@check("K004", "combination-card-mismatch", Severity.ERROR, reads=("calamities",))
@made_of("calamities")
def check_combination_cards(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: `modifier_combination` names a card that has no modifier on this calamity (in
    `precedence` or `overrides`), or, with mode `highest`, a card that modifies the calamity is
    missing from `precedence`.

    Why: the combination decides which held card governs (30.322) or which cards another cancels
    (30.4124); a card it does not rank, or ranks without a modifier, leaves the amount undefined.

    Fix: list in `precedence` exactly the cards of the modifiers, lowest level first; name in
    `overrides` only cards that modify the calamity.

        modifier_combination:
          mode: highest
          precedence: [mysticism, deism]    # FAIL: Enlightenment modifies Superstition too
    """
    for calamity in calamities_of(ruleset):
        combination = calamity.combination
        if combination is None or not combination.detailed:
            continue
        cards = list(dict.fromkeys(m.card for m in calamity.modifiers))
        named: list[tuple[tuple[str | int, ...], str]] = []
        precedence = combination.precedence
        named.extend((("modifier_combination", "precedence", i), card) for i, card in enumerate(precedence))
        for override in combination.overrides:
            o = override.index
            named.append((("modifier_combination", "overrides", o, "card"), override.card))
            named.extend(
                (("modifier_combination", "overrides", o, "overrides", i), card)
                for i, card in enumerate(override.overrides)
            )
        ranked, modifying = frozenset(precedence), frozenset(cards)
        unranked = [card for card in cards if card not in ranked] if calamity.modifier_combination == "highest" else []
        strays = [(path, card) for path, card in named if card not in modifying]
        for n, (path, card) in enumerate(strays):
            suggestion = unranked[n] if n < len(unranked) else _closest(card, cards)
            yield diagnostic(
                "K004",
                f"`{calamity.id}`: `modifier_combination` names `{card}`, which has no modifier on this calamity",
                calamity.origin.span(*path),
                f"did you mean `{suggestion}`?" if suggestion else "name only cards of the calamity's modifiers",
                [Related(calamity.origin.key_span("modifiers"), "the modifiers")],
                suggestion,
                subjects=(calamity.id, "modifier_combination", card),
            )
        first: dict[str, Modifier] = {}
        for m in calamity.modifiers if unranked[len(strays) :] else ():
            first.setdefault(m.card, m)
        for card in unranked[len(strays) :]:
            modifier = first[card]
            yield diagnostic(
                "K004",
                f"`{calamity.id}`: `{card}` modifies the calamity but is not in the `precedence` of mode highest",
                calamity.origin.span("modifiers", modifier.index, "card"),
                "add it to `precedence` at its level (lowest first)",
                [Related(calamity.origin.span("modifier_combination", "precedence"), "the precedence")],
                subjects=(calamity.id, card, "precedence"),
            )


@check(
    "K005",
    "unknown-effect-id",
    Severity.ERROR,
    reads=(
        "calamities.effects",
        "calamities.immune",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_effect_ids(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a modifier's `modifies`, or an immunity's `effects`, names an effect id the calamity does
    not have (its effects are the `id`s of its `primary` and `secondary` lists).

    Why: the modifier or immunity then changes nothing: a Medicine holder would lose the full
    Epidemic amount.

    Fix: name an effect of the same calamity (the hint gives the closest).

        modifiers:
          - card: medicine
            modifies: [epidemic_primery]     # FAIL: did you mean `epidemic_primary`?
    """
    for calamity in calamities_of(ruleset):
        effects = [e for side in effects_by_side(calamity).values() for e in side]
        known_effects = set(effects)
        places: list[tuple[tuple[str | int, ...], Any]] = []
        for modifier in calamity.modifiers:
            places.extend((("modifiers", modifier.index, "modifies", i), e) for i, e in enumerate(modifier.modifies))
        for entry in calamity.immune:
            places.extend((("immune", entry.index, "effects", j), e) for j, e in enumerate(entry.effects))
        for path, effect in places:
            if effect in known_effects:
                continue
            suggestion = _closest(effect, effects)
            yield diagnostic(
                "K005",
                f"`{calamity.id}` has no effect `{effect}`",
                calamity.origin.span(*path),
                f"did you mean `{suggestion}`?" if suggestion else f"its effects are {', '.join(effects) or 'none'}",
                suggestion=suggestion,
                subjects=(calamity.id, effect),
            )


@check(
    "K006",
    "effect-side-mismatch",
    Severity.ERROR,
    reads=(
        "calamities.effects",
        "calamities.immune",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_effect_sides(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a modifier names an effect on the other side from the one it `applies_to` (a modifier
    for the primary victim naming an effect on the secondary victims, or the reverse); an immunity
    names effects outside the side it is `from`; or a modifier without `modifies` applies to a side
    on which the calamity has no effects.

    Why: the modifier would never apply: the holder of the card is never in that role for that
    effect.

    Fix: correct `applies_to` (or `from`), or the effect named.

        - card: medicine
          applies_to: secondary
          modifies: [epidemic_primary]     # FAIL: an effect on the primary victim
    """
    for calamity in calamities_of(ruleset):
        by_side = effects_by_side(calamity)
        side_of = {e: side for side, ids in by_side.items() for e in ids}
        for modifier in calamity.modifiers:
            allowed = sides_of(modifier.applies_to)
            if not modifier.modifies and not any(by_side.get(side) for side in allowed):
                yield diagnostic(
                    "K006",
                    f"`{calamity.id}`: the `{modifier.card}` modifier applies to the {modifier.applies_to} victim, "
                    "but the calamity has no effect there",
                    calamity.origin.span("modifiers", modifier.index, "applies_to"),
                    "correct `applies_to`, or name the effects in `modifies`",
                    subjects=(calamity.id, modifier.card),
                )
            for i, effect in enumerate(modifier.modifies):
                side = side_of.get(effect)
                if side is not None and side not in allowed:
                    yield diagnostic(
                        "K006",
                        f"`{calamity.id}`: the `{modifier.card}` modifier applies to the {modifier.applies_to} victim, "
                        f"but `{effect}` is an effect on the {side} victim",
                        calamity.origin.span("modifiers", modifier.index, "modifies", i),
                        f"set `applies_to: {side}` (or `both`), or name an effect on the {modifier.applies_to} side",
                        [Related(calamity.origin.span("modifiers", modifier.index, "applies_to"), "applies to")],
                        subjects=(calamity.id, modifier.card, effect),
                    )
        for entry in calamity.immune:
            allowed = sides_of(entry.side)
            for i, effect in enumerate(entry.effects):
                side = side_of.get(effect)
                if side is not None and side not in allowed:
                    yield diagnostic(
                        "K006",
                        f"`{calamity.id}`: an immunity from the {entry.side} side names `{effect}`, "
                        f"an effect on the {side} victim",
                        calamity.origin.span("immune", entry.index, "effects", i),
                        f"set `from: {side}` (or `both`), or name an effect on the {entry.side} side",
                        subjects=(calamity.id, effect),
                    )


class _Covered:
    """The effects an immunity or modifier of one calamity covers (None when it names an effect
    that does not exist); the calamity's effects gathered once, not for each entry."""

    def __init__(self, calamity: Calamity) -> None:
        self.by_side = effects_by_side(calamity)
        self.every = {e for ids in self.by_side.values() for e in ids}

    def __call__(self, sides: tuple[str, ...], named: Sequence[str]) -> frozenset[str] | None:
        if named:
            return frozenset(named) if set(named) <= self.every else None
        return frozenset(e for side in sides for e in self.by_side.get(side, ()))


@check(
    "K007",
    "immunity-without-modifier",
    Severity.ERROR,
    reads=(
        "calamities.effects",
        "calamities.immune",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_immunity_has_modifier(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an `immune` entry for the holders of a card has no `immunity` modifier of that card on
    the calamity, or the modifier covers other effects than the entry.

    Why: the calamity's immunities are read by the people resolving it, its modifiers by the
    engine and the player aids; the two must say the same thing (Engineering and Earthquake,
    30.213; Theology and Iconoclasm and Heresy, 30.819).

    Fix: add the modifier (`effect: immunity`, the same card, the same effects), or correct it.

        immune:
          - {who: card_holder, card: theology, from: secondary, ...}
        modifiers: []       # FAIL: no `immunity` modifier of theology
    """
    for calamity in calamities_of(ruleset):
        if not calamity.immune:
            continue
        covered_by = _Covered(calamity)
        # each card's `immunity` modifiers, and the effects each covers, once per calamity (not
        # all the calamity's modifiers walked again for each `immune` entry)
        immunity_of: dict[str, list[Modifier]] = {}
        for m in calamity.modifiers:
            if m.effect == "immunity":
                immunity_of.setdefault(m.card, []).append(m)
        coverage: dict[str, tuple[list[frozenset[str] | None], set[frozenset[str] | None]]] = {}
        for entry in calamity.immune:
            card, n = entry.card, entry.index
            if entry.who != "card_holder" or not isinstance(card, str):
                continue
            immunities = immunity_of.get(card, [])
            covers = covered_by(sides_of(entry.side), entry.effects)
            if not immunities:
                yield diagnostic(
                    "K007",
                    f"`{calamity.id}`: holders of `{card}` are immune, but no `immunity` modifier of `{card}` says so",
                    calamity.origin.span("immune", n, "card"),
                    f"add a modifier `{_immunity_modifier(ruleset, entry, card)}` covering the same effects",
                    [Related(calamity.origin.key_span("modifiers"), "the modifiers")],
                    subjects=(calamity.id, card, "immunity"),
                )
                continue
            if card not in coverage:
                listed = [covered_by(sides_of(m.applies_to), m.modifies) for m in immunities]
                coverage[card] = (listed, set(listed))
            covered, covered_set = coverage[card]
            if covers is None or None in covered_set or covers in covered_set:
                continue
            yield diagnostic(
                "K007",
                f"`{calamity.id}`: the immunity of `{card}` holders covers {_list(covers)}, "
                f"its `immunity` modifier {_list(covered[0] or frozenset())}",
                calamity.origin.span("immune", n, "card"),
                "make the entry's `from`/`effects` and the modifier's `applies_to`/`modifies` name the same effects",
                [Related(calamity.origin.span("modifiers", m.index, "effect"), "the modifier") for m in immunities],
                subjects=(calamity.id, card, "immunity"),
            )


def _list(effects: frozenset[str]) -> str:
    return ", ".join(f"`{e}`" for e in sorted(effects)) or "no effect"


@check(
    "K008",
    "immunity-modifier-without-entry",
    Severity.ERROR,
    reads=(
        "calamities.immune",
        "calamities.modifiers",
        RULE_INDEX,
    ),
)
@made_of("calamities", "rule_index")
def check_modifier_has_immunity(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a modifier with `effect: immunity` names a card for which the calamity has no `immune`
    entry (`who: card_holder`, `card: ...`).

    Why: the immunity list is where the people resolving a calamity look for who cannot be a
    victim; an immunity only in the modifiers is missed (and the two must agree, see K007).

    Fix: add the `immune` entry for holders of the card, or correct the modifier's `effect`.

        immune: []                                     # FAIL: no entry for Theology holders
        modifiers:
          - {card: theology, effect: immunity, ...}
    """
    for calamity in calamities_of(ruleset):
        entries = {entry.card for entry in calamity.immune if entry.who == "card_holder"}
        reported: set[str] = set()
        for modifier in calamity.modifiers:
            if modifier.effect != "immunity" or modifier.card in entries or modifier.card in reported:
                continue
            reported.add(modifier.card)
            yield diagnostic(
                "K008",
                f"`{calamity.id}`: the `{modifier.card}` modifier grants immunity, "
                "but `immune` has no entry for its holders",
                calamity.origin.span("modifiers", modifier.index, "effect"),
                f"add `{_immune_entry(ruleset, modifier)}` to `immune`",
                [Related(calamity.origin.key_span("immune"), "the immunities")],
                subjects=(calamity.id, modifier.card, "immune"),
            )


# --- Cards and calamities, both ways -----------------------------------------------------------

#: The modifier effects an attribute link's direction agrees with (an immunity is a reduction).
COMPATIBLE = {
    "reduces": {"reduces", "nullifies", "immunity"},
    "nullifies": {"nullifies"},
    "aggravates": {"aggravates"},
    "alters": {"alters"},
}


@check(
    "K009",
    "card-link-without-modifier",
    Severity.ERROR,
    reads=("calamities.modifiers", "civilization_cards", RULE_INDEX),
)
@made_of("calamities", "cards", "rule_index")
def check_links_have_modifiers(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a civilization card's attribute says it changes a calamity (`calamities:` in the card's
    `attributes`), but the calamity has no modifier for that card.

    Why: the card text (and the player aid printed from it) promises an effect the engine never
    applies; one of the two files is wrong.

    Fix: add the modifier to the calamity (with its amount and rule), or remove the link.

        - id: law
          attributes:
            - calamities:
                - {calamity: famine, effect: reduces}   # FAIL: Famine has no Law modifier
    """
    modifiers = modifiers_by_card(ruleset)
    for card in ruleset.cards.by_id.values():
        for link in card.calamity_links:
            calamity = ruleset.calamities.get(link.calamity)
            if calamity is None or (calamity.id, card.id) in modifiers:
                continue
            modifier = (
                f"{{card: {card.id}, applies_to: both, effect: {link.effect}, {_HOW_MUCH.get(link.effect, '')}text: "
                f'"{_CARD_WORDS}", {ruleset.citation_blank()}}}'
            )
            yield diagnostic(
                "K009",
                f"`{card.id}` says it {link.effect} `{calamity.id}`, but the calamity has no `{card.id}` modifier",
                card.origin.span(*link.path, "calamity"),
                f"add a modifier `{modifier}` to `{calamity.id}` "
                "(`applies_to: primary` or `secondary` where the card says so), or remove this link",
                [Related(calamity.origin.key_span("modifiers"), f"the modifiers of `{calamity.id}`")],
                subjects=(card.id, calamity.id),
                # the calamity a variant's link names is most often its base's, which the designer
                # changes from the variant; read only in a variant, written always (made of its
                # collections, the finding is shared by the rulesets holding them)
                from_variant=f"patch `{calamity.id}` in `overlay.calamities`: `patch: [{{id: {calamity.id}, "
                f'modifiers: {{append: [{modifier}]}}, source: "{blanks.HOUSE_RULE}"}}]`',
            )


@check(
    "K010",
    "modifier-without-card-link",
    Severity.ERROR,
    reads=("calamities.modifiers", "civilization_cards", RULE_INDEX),
)
def check_modifiers_have_links(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a calamity has a modifier for a civilization card, but no attribute of that card links
    to the calamity (`calamities:` in the card's `attributes`).

    Why: the card's own text (and the player aid printed from it) does not tell its holder that it
    changes the calamity; one of the two files is wrong.

    Fix: add the link to the card attribute that states it, or remove the modifier.

        - id: pottery
          attributes:
            - text: "... reduces his Famine losses ..."    # FAIL: no `calamities:` link to famine
    """
    linked = {(card.id, link.calamity) for card in ruleset.cards.by_id.values() for link in card.calamity_links}
    for calamity in calamities_of(ruleset):
        seen: set[str] = set()
        for modifier in calamity.modifiers:
            card = ruleset.cards.get(modifier.card)
            if card is None or modifier.card in seen:
                continue
            seen.add(modifier.card)
            if (card.id, calamity.id) in linked:
                continue
            place = card.origin.key_span("attributes") if card.writes_attributes else card.origin.head()
            # the modifier's own section states what the card does to the calamity: the link cites it
            cite = f'rule: "{modifier.rules[0]}"' if modifier.rules else ruleset.citation_blank()
            link = f"{{calamity: {calamity.id}, effect: {_link_word(modifier.effect)}, {cite}}}"
            if ruleset.from_base(card.origin, "attributes"):
                hint = (
                    f"the attributes of `{card.id}` are its base's: in this variant, patch `{card.id}` in "
                    f"`overlay.civilization_cards` with `attributes: {{patch: [{{where: {_attribute_selector(card)}, "
                    f"with: {{calamities: {{append: [{link}]}}}}}}]}}`, or remove the modifier"
                )
            else:
                hint = f"add `{link}` to the attribute of `{card.id}` that states it, or remove the modifier"
            yield diagnostic(
                "K010",
                f"`{calamity.id}` has {words.a(f'`{card.id}`')} modifier, but no attribute of `{card.id}` links to it",
                calamity.origin.span("modifiers", modifier.index, "card"),
                hint,
                [Related(place, f"the attributes of `{card.id}`")],
                subjects=(calamity.id, card.id),
            )


#: The blanks of the entries K003, K007, K008 and K009 write where the data say nothing (L016).
_RULE_WORDS = blanks.blank("the rule's words")
_CARD_WORDS = blanks.blank("the card's words")
#: What a modifier of each effect must say besides (the schema asks an amount, a cap or a value
#: set of a reduction, an aggravation or a nullification): K009's entry without it was refused.
_HOW_MUCH = {
    "reduces": f'amount: {{unknown: "{blanks.blank("the amount")}"}}, ',
    "aggravates": f'amount: {{unknown: "{blanks.blank("the amount")}"}}, ',
    "nullifies": "set_to: 0, ",
}


def _cited(ruleset: Ruleset, rules: Sequence[str], source: str | None) -> str:
    """How an entry a hint writes cites what it restates: the sections or the source of the entry
    it comes from, else a blank the designer fills (L016)."""
    if rules:
        return "rule: " + (json.dumps(rules[0]) if len(rules) == 1 else json.dumps(list(rules)))
    if source:
        return "source: " + json.dumps(source, ensure_ascii=False)
    return ruleset.citation_blank()


def _immunity_modifier(ruleset: Ruleset, entry: Immunity, card: str) -> str:
    """The `immunity` modifier that says what the `immune` entry ``entry`` of ``card``'s holders says."""
    modifies = f", modifies: [{', '.join(entry.effects)}]" if entry.effects else ""
    text = json.dumps(entry.text or _CARD_WORDS, ensure_ascii=False)
    return (
        f"{{card: {card}, applies_to: {entry.side}, effect: immunity{modifies}, text: {text}, "
        f"{_cited(ruleset, entry.rules, entry.source)}}}"
    )


def _immune_entry(ruleset: Ruleset, modifier: Modifier) -> str:
    """The `immune` entry that says what the `immunity` modifier ``modifier`` says."""
    effects = f", effects: [{', '.join(modifier.modifies)}]" if modifier.modifies else ""
    text = json.dumps(modifier.text or _CARD_WORDS, ensure_ascii=False)
    return (
        f"{{who: card_holder, card: {modifier.card}, from: {modifier.applies_to}{effects}, text: {text}, "
        f"{_cited(ruleset, modifier.rules, None)}}}"
    )


def _attribute_selector(card: Card) -> str:
    """How a list operation names the card's first attribute: by its citation, else by its text."""
    attributes = card.attributes if not isinstance(card.attributes, Unknown) else ()
    for attribute in attributes:
        if attribute.rules:
            return '{rule: "' + attribute.rules[0] + '"}'
        if attribute.source and len(attribute.source) <= 40:
            return "{source: " + json.dumps(attribute.source, ensure_ascii=False) + "}"
        # written whole, as a selector matches it: a JSON string is a YAML double-quoted one
        return "{text: " + json.dumps(attribute.text, ensure_ascii=False) + "}"
    return "{text: " + json.dumps(blanks.blank("the attribute's text"), ensure_ascii=False) + "}"


def _link_word(effect: str) -> str:
    return "reduces" if effect == "immunity" else effect


@check("K011", "card-link-direction-mismatch", Severity.WARNING, reads=("calamities.modifiers", "civilization_cards"))
@made_of("calamities", "cards")
def check_link_directions(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a card's attribute says it reduces (aggravates, nullifies, alters) a calamity, but none
    of the calamity's modifiers for that card does so. An immunity or a nullification counts as a
    reduction.

    Why: the card text and the calamity disagree on whether the card helps or hurts its holder.

    Fix: correct the link's `effect`, or the modifier's.

        - id: medicine
          attributes:
            - calamities:
                - {calamity: epidemic, effect: aggravates}   # FAIL: the modifiers reduce
    """
    by_card = modifiers_by_card(ruleset)
    for card in ruleset.cards.by_id.values():
        for link in card.calamity_links:
            calamity = ruleset.calamities.get(link.calamity)
            if calamity is None:
                continue
            modifiers = by_card.get((calamity.id, card.id), [])
            if not modifiers or any(m.effect in COMPATIBLE.get(link.effect, {link.effect}) for _, m in modifiers):
                continue
            effects = ", ".join(sorted({m.effect for _, m in modifiers}))
            yield diagnostic(
                "K011",
                f"`{card.id}` says it {link.effect} `{calamity.id}`, but its modifiers there are: {effects}",
                card.origin.span(*link.path, "effect"),
                "make the link's `effect` and the calamity's modifiers agree",
                [
                    Related(owner.origin.span("modifiers", m.index, "effect"), f"`{card.id}` modifier: {m.effect}")
                    for owner, m in modifiers
                ],
                subjects=(card.id, calamity.id),
            )


# --- Amounts and roles -------------------------------------------------------------------------


@check(
    "K012",
    "set-to-disagrees-with-amount",
    Severity.WARNING,
    reads=(
        "calamities.effects",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_set_to(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a modifier gives both a change (`amount`) and the resulting amount (`set_to`), and the
    modified effect's amount plus the change is not `set_to`.

    Why: the two say different things (Superstition with Mysticism: three cities less one is two,
    30.322); the engine uses `set_to`, the player aid may print the change.

    Fix: correct one of the two, or drop `amount` where the rule states only the result.

        primary:
          - {id: cities_reduced, amount: 3, ...}
        modifiers:
          - {card: mysticism, amount: -1, set_to: 1, ...}   # FAIL: 3 - 1 is 2
    """
    for calamity in calamities_of(ruleset):
        amounts = {e.id: e.amount for e in calamity.effects if e.id is not None}
        for modifier in calamity.modifiers:
            set_to, change = modifier.set_to, modifier.amount
            if not isinstance(set_to, int) or not isinstance(change, int) or modifier.per:
                continue
            for effect in modified_effects(calamity, modifier):
                base = amounts.get(effect)
                if isinstance(base, int) and not isinstance(base, bool) and base + change != set_to:
                    yield diagnostic(
                        "K012",
                        f"`{calamity.id}`: `{modifier.card}` changes `{effect}` by {change:+d} from {base}, "
                        f"which is {base + change}, but sets it to {set_to}",
                        calamity.origin.span("modifiers", modifier.index, "set_to"),
                        # An amount below 0 is no result `set_to` can state: only the change is then offered.
                        f"set `set_to: {base + change}` or `amount: {set_to - base:+d}`"
                        if base + change >= 0
                        else f"set `amount: {set_to - base:+d}`",
                        [Related(calamity.origin.span("modifiers", modifier.index, "amount"), "the change")],
                        subjects=(calamity.id, modifier.card, effect),
                    )
                    break


def _trading_player_uses(calamity: Calamity) -> Iterator[tuple[tuple[str | int, ...], str]]:
    for effect in calamity.effects:
        side, i = effect.side, effect.index
        if effect.condition == "card_traded":
            yield (side, i, "condition"), "applies only when the card was traded"
        for key, who in (
            ("chosen_by", effect.chosen_by),
            ("allocated_by", effect.allocated_by),
            ("replaced_by", effect.replaced_by),
        ):
            if who == "trading_player":
                yield (side, i, key), f"has `{key}: trading_player`"
    for entry in calamity.immune:
        if entry.who == "trading_player":
            yield ("immune", entry.index, "who"), "makes the trading player immune"


@check(
    "K013",
    "trading-player-on-non-tradable",
    Severity.WARNING,
    reads=(
        "calamities.effects",
        "calamities.immune",
        "calamities.tradable",
    ),
)
@made_of("calamities")
def check_trading_player(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a non-tradable calamity has an effect or immunity that involves the player who traded
    the card (the condition `card_traded`, `chosen_by`/`allocated_by`/`replaced_by:
    trading_player`, or `who: trading_player`).

    Why: a non-tradable calamity is never traded (9.1, 29.61), so there is no trading player: the
    part never applies. Either the calamity is in fact tradable or the part belongs elsewhere.

    Fix: remove the part, or correct `tradable`.

        - id: famine
          tradable: false
          immune:
            - {who: trading_player, from: secondary, ...}   # FAIL: Famine is never traded
    """
    for calamity in calamities_of(ruleset):
        if calamity.tradable is not False:
            continue
        for path, what in _trading_player_uses(calamity):
            yield diagnostic(
                "K013",
                f"`{calamity.id}` is not tradable, but this part {what}",
                calamity.origin.span(*path),
                "remove it, or make the calamity tradable if the rule says so",
                [Related(calamity.origin.span("tradable"), "not tradable")],
                subjects=(calamity.id,),
            )


@check("K014", "duplicate-effect-id", Severity.ERROR, reads=("calamities.effects",))
@made_of("calamities")
def check_duplicate_effect_ids(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two effects of one calamity (its `primary` and `secondary` lists together) share an id.

    Why: modifiers and immunities name effects by id; with two of a name they would change both,
    or the wrong one.

    Fix: give each effect its own id (and update the modifiers naming it).

        primary:
          - id: coastal_cities_taken
        secondary:
          - id: coastal_cities_taken     # FAIL: the same id as the primary effect
    """
    for calamity in calamities_of(ruleset):
        first: dict[str, tuple[str, int]] = {}
        for effect in calamity.effects:
            side, i = effect.side, effect.index
            if effect.id is None:
                continue
            previous = first.setdefault(effect.id, (side, i))
            if previous == (side, i):
                continue
            yield diagnostic(
                "K014",
                f"`{calamity.id}` has two effects with id `{effect.id}`",
                calamity.origin.span(side, i, "id"),
                "rename one of them, and the modifiers or immunities that mean it",
                [Related(calamity.origin.span(*previous, "id"), "first defined here")],
                subjects=(calamity.id, effect.id),
            )


@check(
    "K015",
    "duplicate-modifier",
    Severity.WARNING,
    reads=(
        "calamities.effects",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_duplicate_modifiers(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two modifiers of the same card on one calamity change the same effect for the same role
    (primary or secondary victim).

    Why: whether the two apply both, or one replaces the other, is nowhere said: an engine would
    apply the card twice. Usually a copy left behind, or two rule sentences that belong in one
    modifier.

    Fix: merge them into one modifier, or make them name different effects or roles.

        - {card: medicine, applies_to: primary, modifies: [epidemic_primary], amount: -8, ...}
        - {card: medicine, applies_to: primary, modifies: [epidemic_primary], amount: -8, ...}  # FAIL
    """
    for calamity in calamities_of(ruleset):
        seen: dict[tuple[str, str, str], Modifier] = {}
        for modifier in calamity.modifiers:
            if modifier.adds:
                continue
            keys = [
                (modifier.card, side, effect)
                for side in sides_of(modifier.applies_to)
                for effect in modified_effects(calamity, modifier)
            ]
            clash = next((seen[key] for key in keys if key in seen), None)
            for key in keys:
                seen.setdefault(key, modifier)
            if clash is None:
                continue
            yield diagnostic(
                "K015",
                f"`{calamity.id}` has two `{modifier.card}` modifiers that change the same effect for the same victim",
                calamity.origin.span("modifiers", modifier.index, "card"),
                "merge them into one modifier, or make them name different effects or roles",
                [Related(calamity.origin.span("modifiers", clash.index, "card"), "the other modifier")],
                subjects=(calamity.id, modifier.card),
            )


#: How many of the effects a K018 diagnostic points at (a message stays short whatever the data holds).
SHOWN_EFFECTS = 10


@check(
    "K018",
    "addition-on-several-effects",
    Severity.ERROR,
    reads=(
        "calamities.effects",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_addition_on_one_effect(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a modifier adds a separate loss (`adds`) and goes with two or more effects of one side
    that take place together in one resolution: it names them in `modifies`, or it names none, so
    that it goes with every effect of the side(s) it `applies_to`. Effects under conditions that
    exclude each other (an eruption or an earthquake; the card traded or not) never take place
    together, so a loss that goes with each of them is still taken once.

    Why: an added loss is taken once, where the rule says: Military's five unit points from each
    faction in Civil War are removed once the factions are selected (30.414), not once per faction
    selection. Put on three effects, the package reports it with each (an engine applying each
    effect removes 15 unit points per faction, not 5) and the sheets list it against effects it
    does not change.

    Fix: name in `modifies` the one effect the rule takes the loss with, and say when in the
    modifier's `text` or `note`.

        - card: military                     # FAIL: Civil War has three effects on the primary victim
          applies_to: primary
          effect: aggravates
          amount: 5
          per: {kind: faction}
          adds: {kind: lose_unit_points, unit: unit_points}

        - card: military
          applies_to: primary
          effect: aggravates
          modifies: [faction_annexed]        # PASS: taken once, with the annexation
          amount: 5
          per: {kind: faction}
          adds: {kind: lose_unit_points, unit: unit_points}
    """
    for calamity in calamities_of(ruleset):
        for modifier in calamity.modifiers:
            for side, effects in together(calamity, modifier).items():
                ids = [str(e.id) for e in effects]
                named = "it names" if modifier.modifies else "without `modifies`, it goes with"
                yield diagnostic(
                    "K018",
                    f"`{calamity.id}`: the loss `{modifier.card}` adds goes with "
                    f"{words.count(len(ids), 'effect')} of the {side} victim that take place together "
                    f"({named} {words.listed(ids)}): applied effect by effect, it is taken {len(ids)} times",
                    calamity.origin.key_span("modifiers", modifier.index, "modifies" if modifier.modifies else "adds"),
                    "name in `modifies` the one effect the rule takes the loss with (and say when in its `text`), "
                    f"e.g. `modifies: [{ids[-1]}]`",
                    [Related(calamity.origin.span(side, e.index, "id"), f"`{e.id}`") for e in effects[:SHOWN_EFFECTS]],
                    # The effects the modifier names in its `modifies` are its own, all of them; a
                    # side's every effect, shared by each modifier naming none, those the message
                    # shows: every one made n modifiers on n effects n² subjects.
                    subjects=(calamity.id, modifier.card, *(ids if modifier.modifies else ids[: words.SHOWN])),
                )


@check(
    "K019",
    "calamity-copies-by-players",
    Severity.ERROR,
    reads=("calamities.copies", "calamities.copies_by_players", setting("players")),
)
@made_of("calamities", "players")
def check_copies_by_players(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a calamity's `copies_by_players` gives a band of player counts more cards of it than its
    `copies`, or its bands hold every count the ruleset is for and none of them reaches `copies`.

    Why: `copies` is the most cards of the calamity any game of the ruleset holds; the generated
    package refuses a player holding more than that (`calamity_resolution_order`,
    `calamities_suffered`) and, given `players=`, more than the band of that count. A band above
    `copies` is refused by the one and allowed by the other; a `copies` no game reaches lets
    through a card no game has.

    Fix: write `copies` as the most of the bands (the hint gives it), or correct the band.

        copies: 1                                        # FAIL: 12-18 players hold two
        copies_by_players:
          - {players: {min: 5, max: 11}, copies: 1}
          - {players: {min: 12, max: 18}, copies: 2}

        copies: 2                                        # PASS: the most of its bands
        copies_by_players:
          - {players: {min: 5, max: 11}, copies: 1}
          - {players: {min: 12, max: 18}, copies: 2}
    """
    low, high = ruleset.players
    for calamity in calamities_of(ruleset):
        bands = [b for b in calamity.copies_by_players if b.copies is not None]
        if not bands:
            continue
        most = max(bands, key=lambda b: b.copies or 0)
        assert most.copies is not None
        index = calamity.copies_by_players.index(most)
        if most.copies > calamity.copies:
            yield diagnostic(
                "K019",
                f"`{calamity.id}`: a game of {most.players_min}-{most.players_max} players holds "
                f"{words.count(most.copies, 'copy')} of it, more than its `copies` ({calamity.copies}), "
                "the most any game holds",
                calamity.origin.span("copies_by_players", index, "copies"),
                f"write `copies: {most.copies}`, or correct the band",
                subjects=(calamity.id, "copies"),
            )
            continue
        held: set[int] = set()
        for band in bands:
            if band.players_min is not None and band.players_max is not None:
                held.update(range(max(band.players_min, low), min(band.players_max, high) + 1))
        if most.copies < calamity.copies and not seats_nobody(low, high) and held >= set(range(low, high + 1)):
            yield diagnostic(
                "K019",
                f"`{calamity.id}`: no game holds its {words.count(calamity.copies, 'copy', 'copies')}: its bands hold "
                "every count of "
                f"{low}-{high} players, {most.copies} at most",
                calamity.origin.span("copies"),
                f"write `copies: {most.copies}`, or correct the band",
                subjects=(calamity.id,),
            )
