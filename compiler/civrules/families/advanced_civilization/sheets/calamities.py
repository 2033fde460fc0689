"""The calamities in resolution order, with every card modifier in words and numbers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from civrules.emit.sheets.common import humanize, name_of, rules_text, signed, unit_words
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.calamities import (
    calamity_amount,
    effect_raw,
    effect_side,
    modified_effects,
    resolution_order,
)
from civrules.families.advanced_civilization.model import Calamity, Modifier, Ruleset
from civrules.model import Unknown


def effect_amount_text(effect: Mapping[str, Any]) -> str:
    """An effect's amount as printed: ``10 unit points``, ``all but 3 cities``, ``unknown``."""
    amount = effect.get("amount")
    unit = effect.get("unit")
    if isinstance(amount, dict) and "unknown" in amount:
        text = "unknown"
    elif isinstance(amount, dict) and isinstance(amount.get("all_but"), int):
        text = f"all but {amount['all_but']} {unit_words(unit, amount['all_but'])}"
    elif isinstance(amount, int) and not isinstance(amount, bool):
        text = f"{amount} {unit_words(unit, amount)}"
    else:
        return ""
    most = effect.get("max_per_victim")
    if isinstance(most, int):
        text += f", at most {most} per victim"
    return text


def _effect_label(calamity: Calamity, effect_id: str) -> str:
    """The effect's id in words, when its side has several effects (otherwise the side says it)."""
    side = effect_side(calamity, effect_id)
    effects = calamity.raw.get(side or "") or ()
    return humanize(effect_id) if len(effects) > 1 else ""


def modifier_parts(ruleset: Ruleset, calamity: Calamity, modifier: Modifier) -> list[str]:
    """A card's modifier of a calamity in words and numbers, one part per effect it changes.

    E.g. Medicine on Epidemic: ``−8 unit points (primary, 16 → 8)``.
    """
    raw: Mapping[str, Any] = calamity.raw["modifiers"][modifier.index]
    parts: list[tuple[str, str]] = []
    for effect_id in modified_effects(calamity, modifier):
        side = effect_side(calamity, effect_id)
        if side is None or modifier.applies_to not in (side, "both"):
            continue
        effect = effect_raw(calamity, effect_id) or {}
        becomes = raw.get("becomes") if isinstance(raw.get("becomes"), dict) else {}
        unit = becomes.get("unit", effect.get("unit")) if isinstance(becomes, dict) else effect.get("unit")
        base = effect.get("amount")
        stated = raw.get("set_to", becomes.get("amount") if isinstance(becomes, dict) else None)
        amount = modifier.amount
        per = raw.get("per") if isinstance(raw.get("per"), dict) else None
        if modifier.effect == "immunity":
            words = "immune"
        elif isinstance(raw.get("adds"), dict) and isinstance(amount, int):
            adds = raw["adds"]
            words = f"{signed(amount)} {unit_words(adds.get('unit', unit), amount)}"
            if per is not None:
                words += f" per {humanize(per.get('kind', ''))}"
            words += ", an added loss"
        elif isinstance(stated, int):
            if isinstance(base, int):
                words = (
                    f"none instead of {base} {unit_words(unit, base)}"
                    if stated == 0
                    else f"{stated} instead of {base} {unit_words(unit, base)}"
                )
            else:
                words = f"{stated} {unit_words(unit, stated)}"
        elif isinstance(becomes, dict) and "kind" in becomes:
            words = f"{humanize(becomes['kind'])} instead of {humanize(effect.get('kind', 'the effect'))}"
        elif isinstance(amount, Unknown):
            words = "unknown"
        elif isinstance(amount, int):
            words = f"{signed(amount)} {unit_words(unit, amount)}"
            if per is not None and per.get("kind") == "commodity_card":
                words += f" per {name_of(ruleset.commodities, str(per.get('commodity')))} card"
            elif per is not None:
                words += f" per {humanize(per.get('kind', ''))}"
            if isinstance(raw.get("cap"), int):
                words += f", at most {raw['cap']}"
        elif isinstance(raw.get("cap"), int):
            words = f"at most {raw['cap']} {unit_words(unit, raw['cap'])}"
        elif modifier.effect == "nullifies":
            words = "no effect"
        else:
            words = humanize(modifier.effect)
        if raw.get("optional"):
            words += ", optional"
        where: list[str] = [side]
        label = _effect_label(calamity, effect_id)
        if label:
            where.append(label)
        if modifier.effect != "immunity" and not isinstance(raw.get("adds"), dict) and "instead of" not in words:
            result = calamity_amount(calamity, effect_id, {modifier.card}, side)
            if isinstance(result.base, int) and result.value is not None and result.value != result.base:
                where.append(f"{result.base} → {result.value}")
        parts.append((words, ", ".join(where)))
    return merge_parts(parts)


def merge_parts(parts: Iterable[tuple[str, str]]) -> list[str]:
    """Parts with the same words said once: ``−4 unit points (primary; secondary)``."""
    merged: dict[str, list[str]] = {}
    for words, where in parts:
        merged.setdefault(words, []).append(where)
    return [f"{words} ({'; '.join(where)})" for words, where in merged.items()]


def calamity_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    entries = []
    for number, calamity in enumerate(resolution_order(ruleset), start=1):
        sides = {}
        for side in ("primary", "secondary"):
            sides[side] = [
                {
                    "amount": effect_amount_text(effect),
                    "text": str(effect.get("text", humanize(effect.get("kind", "")))),
                    "rule": rules_text(effect.get("rule")),
                }
                for effect in calamity.raw.get(side) or ()
                if isinstance(effect, dict)
            ]
        immune = [
            {"text": str(entry.get("text", "")), "rule": rules_text(entry.get("rule"))}
            for entry in calamity.raw.get("immune") or ()
            if isinstance(entry, dict)
        ]
        by_card: dict[str, list[str]] = {}
        for modifier in calamity.modifiers:
            for part in modifier_parts(ruleset, calamity, modifier):
                if part not in by_card.setdefault(modifier.card, []):
                    by_card[modifier.card].append(part)
        modifiers = [{"card": name_of(ruleset.cards, card), "parts": parts} for card, parts in by_card.items()]
        combination = calamity.raw.get("modifier_combination")
        combination_text = ""
        if isinstance(combination, dict):
            combination_text = str(combination.get("text", humanize(combination.get("mode", ""))))
        beneficiary = calamity.raw.get("beneficiary")
        notes = [
            {"text": str(entry["text"]), "rule": rules_text(entry.get("rule"))}
            for entry in [*(calamity.raw.get("no_effect_when") or ()), beneficiary]
            if isinstance(entry, dict) and entry.get("text")
        ]
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
                "rule": rules_text(list(calamity.rules)),
                "primary": sides["primary"],
                "secondary": sides["secondary"],
                "immune": immune,
                "modifiers": modifiers,
                "combination": combination_text,
                "combination_rule": rules_text(combination.get("rule")) if isinstance(combination, dict) else "",
                "notes": notes,
            }
        )
    return {"calamities": entries}


@sheet(
    "calamities.html",
    "Calamities",
    "The calamities in resolution order: effects on primary and secondary victims and every card modifier.",
    position=30,
    sources=("calamities", "civilization_cards"),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return calamity_sheet(source.ruleset, source)
