"""The calamities in resolution order, with every card modifier in words and numbers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from civrules.emit.sheets.common import citation_text, humanize, name_of, row_citation, signed
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.calamities import (
    EffectAmount,
    calamity_amount,
    effect_of,
    effect_side,
    modified_effects,
    order_basis,
    resolution_order,
)
from civrules.families.advanced_civilization.model import Calamity, CalamityEffect, Modifier, Ruleset
from civrules.model import Unknown

#: A calamity's units in words, singular and plural (the others are their ids in words).
_UNITS = {
    "unit_points": ("unit point", "unit points"),
    "cities": ("city", "cities"),
    "tokens": ("token", "tokens"),
}


def unit_words(unit: object, amount: int | None = None) -> str:
    """The unit of an amount in words, singular for one; nothing where the data names no unit."""
    if unit is None or isinstance(unit, Unknown):
        return ""
    singular, plural = _UNITS.get(str(unit), (humanize(unit), humanize(unit)))
    return singular if amount is not None and abs(amount) == 1 else plural


def effect_amount_text(effect: CalamityEffect) -> str:
    """An effect's amount as printed: ``10 unit points``, ``all but 3 cities``, ``unknown``."""
    amount = effect.amount
    unit = effect.unit
    if effect.amount_unknown is not None:
        text = "unknown"
    elif effect.all_but is not None:
        text = f"all but {effect.all_but} {unit_words(unit, effect.all_but)}".rstrip()
    elif isinstance(amount, int) and not isinstance(amount, bool):
        text = f"{amount} {unit_words(unit, amount)}".rstrip()
    else:
        return ""
    if effect.max_per_victim is not None:
        text += f", at most {effect.max_per_victim} per victim"
    return text


def _effect_label(calamity: Calamity, effect_id: str) -> str:
    """The effect's id in words, when its side has several effects (otherwise the side says it)."""
    side = effect_side(calamity, effect_id)
    effects = calamity.effects_of(side) if side is not None else ()
    return humanize(effect_id) if len(effects) > 1 else ""


def modifier_parts(
    ruleset: Ruleset,
    calamity: Calamity,
    modifier: Modifier,
    amounts: dict[tuple[str, str, str], EffectAmount] | None = None,
) -> list[str]:
    """A card's modifier of a calamity in words and numbers, one part per effect it changes.

    E.g. Medicine on Epidemic: ``−8 unit points (primary, 16 → 8)``. ``amounts``: what a holder of
    one card loses, by effect, card and side, kept for the calamity's other modifiers (a card of
    many modifiers asked the same amount once for each, each asking walking all of them). A
    separate loss a card adds (`adds`) is said once, apart from the amounts it does not change.
    """
    if modifier.adds:
        return _addition_parts(calamity, modifier)
    parts: list[tuple[str, str]] = []
    for effect_id in modified_effects(calamity, modifier):
        effect = effect_of(calamity, effect_id)
        side = effect_side(calamity, effect_id)
        if effect is None or side is None or modifier.applies_to not in (side, "both"):
            continue
        unit = modifier.becomes_unit if modifier.becomes_unit is not None else effect.unit
        base = effect.amount
        stated = modifier.stated
        amount = modifier.amount
        if modifier.effect == "immunity":
            words = "immune"
        elif isinstance(stated, int):
            if isinstance(base, int):
                words = (
                    f"none instead of {base} {unit_words(unit, base)}"
                    if stated == 0
                    else f"{stated} instead of {base} {unit_words(unit, base)}"
                )
            else:
                words = f"{stated} {unit_words(unit, stated)}"
        elif modifier.becomes_kind is not None:
            words = f"{humanize(modifier.becomes_kind)} instead of {humanize(effect.kind or 'the effect')}"
        elif isinstance(amount, Unknown):
            words = "unknown"
        elif isinstance(amount, int):
            words = f"{signed(amount)} {unit_words(unit, amount)}"
            if modifier.per_kind == "commodity_card":
                words += f" per {name_of(ruleset.commodities, str(modifier.per_commodity))} card"
            elif modifier.per:
                words += f" per {humanize(modifier.per_kind or '')}"
            if modifier.cap is not None:
                words += f", at most {modifier.cap}"
        elif modifier.cap is not None:
            words = f"at most {modifier.cap} {unit_words(unit, modifier.cap)}"
        elif modifier.effect == "nullifies":
            words = "no effect"
        else:
            words = humanize(modifier.effect)
        words = " ".join(words.split())  # an amount of no named unit has no word after it
        if modifier.optional:
            words += ", optional"
        where: list[str] = [side]
        label = _effect_label(calamity, effect_id)
        if label:
            where.append(label)
        if modifier.effect != "immunity" and not modifier.adds and "instead of" not in words:
            key = (effect_id, modifier.card, side)
            result = amounts.get(key) if amounts is not None else None
            if result is None:
                result = calamity_amount(calamity, effect_id, {modifier.card}, side)
                if amounts is not None:
                    amounts[key] = result
            if isinstance(result.base, int) and result.value is not None and result.value != result.base:
                where.append(f"{result.base} → {result.value}")
        parts.append((words, ", ".join(where)))
    return merge_parts(parts)


def _addition_parts(calamity: Calamity, modifier: Modifier) -> list[str]:
    """A separate loss a card adds, said once with the effect it goes with on each side: Military on
    Civil War, ``+5 unit points per faction, a separate loss, once (primary, with faction annexed)``.
    Effects under conditions that exclude each other are joined by "or" (Urbanism: eruption or
    earthquake); check K018 holds a loss to effects that never take place together."""
    amount = modifier.amount
    if isinstance(amount, int):
        words = f"{signed(amount)} {unit_words(modifier.adds_unit, amount)}".rstrip()
        if modifier.per:
            words += f" per {humanize(modifier.per_kind or '')}"
        words += ", a separate loss, once"
    else:
        units = unit_words(modifier.adds_unit, 2)
        words = f"a separate loss{' of ' + units if units else ''}, once"
        if isinstance(amount, Unknown):
            words += ", amount unknown"
    words = " ".join(words.split())
    if modifier.optional:
        words += ", optional"
    named = modified_effects(calamity, modifier)
    places = []
    for side in ("primary", "secondary"):
        if modifier.applies_to not in (side, "both"):
            continue
        labels = [_effect_label(calamity, e) for e in named if effect_side(calamity, e) == side]
        if not labels:
            continue
        shown = " or ".join(label for label in labels if label)
        places.append(f"{side}, with {shown}" if shown else side)
    return [f"{words} ({'; '.join(places)})"] if places else []


def _instead(effect: CalamityEffect) -> list[dict[str, str]]:
    """What a victim may lose instead of the effect (`alternative`) and what happens where it cannot
    be carried out (`fallback`), as the data words them, each with its citation: printed by no sheet
    before (round 23), so a player of Treachery did not read that the city is eliminated where the
    trader has none to put in its place."""
    return [
        {"text": f"{lead} {' '.join(part.text.split())}", "rule": citation_text(part.rules, part.source)}
        for lead, part in (("Instead:", effect.alternative), ("If it cannot be done:", effect.fallback))
        if part is not None and part.text
    ]


def merge_parts(parts: Iterable[tuple[str, str]]) -> list[str]:
    """Parts with the same words said once: ``−4 unit points (primary; secondary)``."""
    merged: dict[str, list[str]] = {}
    for words, where in parts:
        merged.setdefault(words, []).append(where)
    return [f"{words} ({'; '.join(where)})" for words, where in merged.items()]


#: A calamity's parts the sheet cites each on its own (an effect by its rule): not its row's citation.
_CITED_APART = frozenset(
    {"primary", "secondary", "effects", "immune", "no_effect_when", "beneficiary", "modifier_combination"}
)


def calamity_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    entries = []
    for number, calamity in enumerate(resolution_order(ruleset), start=1):
        sides = {}
        for side in ("primary", "secondary"):
            sides[side] = [
                {
                    "amount": effect_amount_text(effect),
                    "text": effect.text if effect.text is not None else humanize(effect.kind or ""),
                    "rule": citation_text(effect.rules, effect.source),
                    "also": _instead(effect),
                }
                for effect in calamity.effects_of(side)
            ]
        immune = [
            {"text": entry.text or "", "rule": citation_text(entry.rules, entry.source)} for entry in calamity.immune
        ]
        by_card: dict[str, dict[str, None]] = {}  # each card's parts, each once, in order
        # each card's modifiers as the data words them, with their citations: the parts give the
        # numbers, the words the rest (Pottery's Grain cards lie face up until the end of the turn)
        worded: dict[str, dict[tuple[str, str], None]] = {}
        amounts: dict[tuple[str, str, str], EffectAmount] = {}
        for modifier in calamity.modifiers:
            for part in modifier_parts(ruleset, calamity, modifier, amounts):
                by_card.setdefault(modifier.card, {})[part] = None
            if modifier.text:
                words = (" ".join(modifier.text.split()), citation_text(modifier.rules, modifier.source))
                worded.setdefault(modifier.card, {})[words] = None
        modifiers = [
            {
                "card": name_of(ruleset.cards, card),
                "parts": list(parts),
                "said": [{"text": text, "rule": rule} for text, rule in worded.get(card, {})],
            }
            for card, parts in by_card.items()
        ]
        combination = calamity.combination
        combination_text = ""
        if combination is not None and combination.detailed:
            combination_text = combination.text if combination.text is not None else humanize(combination.mode or "")
        notes = [
            {"text": entry.text, "rule": citation_text(entry.rules, entry.source)}
            for entry in [*calamity.no_effect_when, calamity.beneficiary]
            if entry is not None and entry.text
        ]
        beneficiary = calamity.beneficiary
        if beneficiary is not None and beneficiary.eligibility:  # who may benefit, in the rules' words
            notes.append(
                {"text": beneficiary.eligibility, "rule": citation_text(beneficiary.rules, beneficiary.source)}
            )
        if isinstance(calamity.tradable, Unknown):
            tradable = "tradability unknown"
        else:
            tradable = "tradable" if calamity.tradable else "non-tradable"
        entries.append(
            {
                "number": number,
                "name": calamity.display_name,
                "mark": source.changed("calamities", calamity.id) if source is not None else "",
                "stack": calamity.stack,
                "tradable": tradable,
                "is_tradable": calamity.tradable is True,
                "severity": calamity.severity or "",
                "rule": row_citation(calamity, cited_apart=_CITED_APART),
                "primary": sides["primary"],
                "secondary": sides["secondary"],
                "immune": immune,
                "modifiers": modifiers,
                "combination": combination_text,
                "combination_rule": citation_text(combination.rules, combination.source)
                if combination is not None and combination.detailed
                else "",
                "notes": notes,
            }
        )
    # How the cards' changes combine is said once: above the list when every calamity says the same,
    # else as a lettered note under it for the calamities that share a text.
    said = [(e["combination"], e["combination_rule"]) for e in entries if e["combination"]]
    shared = [text for text, n in Counter(said).items() if n > 1]
    everywhere = len(shared) == 1 and len(said) == len(entries)
    letters = {text: "abcdefghijklmnopqrstuvwxyz"[i % 26] for i, text in enumerate(shared)}
    for entry in entries:
        key = (entry["combination"], entry["combination_rule"])
        entry["combination_note"] = "" if everywhere else letters.get(key, "")
        if key in letters:
            entry["combination"] = ""
    return {
        "calamities": entries,
        "order_basis": order_basis(ruleset) if entries else "",
        "combination_everywhere": {"text": shared[0][0], "rule": shared[0][1]} if everywhere else None,
        "combination_notes": [
            {"letter": letter, "text": text, "rule": rule} for (text, rule), letter in letters.items() if not everywhere
        ],
    }


@sheet(
    "calamities.html",
    "Calamities",
    "The calamities in resolution order: effects on primary and secondary victims and every card modifier.",
    position=30,
    sources=("calamities", "civilization_cards"),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return calamity_sheet(source.ruleset, source)
