"""The references of a ruleset of the Advanced Civilization family: every id one entity names of another.

The core's reference check (X001, :mod:`civrules.checks.references`) asks the family for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from civrules.families.advanced_civilization.model import Effect, Ruleset
from civrules.families.advanced_civilization.succession import manifest_setting
from civrules.model import Collection, Origin, Unknown


def references(ruleset: Ruleset) -> Iterator[tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]]:
    """Every reference: where it is (origin and sub-path), the id named, the collection it must be in, and what."""
    for card in ruleset.cards:
        for i, group in enumerate(card.group_list()):
            yield card.origin, ("groups", i), group, ruleset.groups, "card group"
        if isinstance(card.prerequisites, tuple):
            for i, required in enumerate(card.prerequisites):
                yield card.origin, ("prerequisites", i, "card"), required, ruleset.cards, "prerequisite"
        for line in card.credit_list():
            if line.card is not None:
                yield card.origin, ("credits", line.index, "card"), line.card, ruleset.cards, "credit target"
            if line.group is not None:
                yield card.origin, ("credits", line.index, "group"), line.group, ruleset.groups, "credit group"
        for link in card.calamity_links:
            yield card.origin, (*link.path, "calamity"), link.calamity, ruleset.calamities, "calamity"
        for attribute in card.attributes if isinstance(card.attributes, tuple) else ():
            for effect in attribute.effects:
                yield from _effect_references(ruleset, card.origin, effect)
    for calamity in ruleset.calamities:
        for modifier in calamity.modifiers:
            yield calamity.origin, ("modifiers", modifier.index, "card"), modifier.card, ruleset.cards, "modifier card"
        for i, entry in enumerate(calamity.raw.get("immune") or ()):
            if isinstance(entry, dict) and "card" in entry:
                yield calamity.origin, ("immune", i, "card"), entry["card"], ruleset.cards, "immunity card"
    for nation in ruleset.nations:
        if isinstance(nation.start_areas, tuple):
            for i, start in enumerate(nation.start_areas):
                yield nation.origin, ("start_areas", "areas", i), start, ruleset.areas, "start area"
    for track in ruleset.ast_tracks:
        yield track.origin, ("nation",), track.id, ruleset.nations, "A.S.T. track nation"
        if not isinstance(track.epoch_starts, Unknown):
            for i, (epoch, _) in enumerate(track.epoch_starts):
                yield track.origin, ("epoch_starts", i, "epoch"), epoch, ruleset.epochs, "epoch"
    for count in ruleset.player_counts:
        for c, configuration in enumerate(count.raw.get("configurations") or ()):
            nations = configuration.get("nations") if isinstance(configuration, dict) else None
            for i, nation in enumerate(nations if isinstance(nations, list) else ()):
                yield count.origin, ("configurations", c, "nations", i), nation, ruleset.nations, "nation"
    for area in ruleset.areas:
        if area.flood_plain is not None:
            yield area.origin, ("flood_plain",), area.flood_plain, ruleset.flood_plains, "flood plain"
        if "start_nation" in area.raw:
            yield area.origin, ("start_nation",), area.raw["start_nation"], ruleset.nations, "nation"
    for border in ruleset.borders:
        yield border.origin, ("areas", 0), border.a, ruleset.areas, "border area"
        yield border.origin, ("areas", 1), border.b, ruleset.areas, "border area"
    for region in (*ruleset.flood_plains, *ruleset.volcanoes):
        for i, member in enumerate(region.areas):
            yield region.origin, ("areas", i), member, ruleset.areas, "area"
    commodities = ruleset.settings.get("commodities", {})
    set_value = commodities.get("set_value")
    for i, example in enumerate(set_value.get("examples") or () if isinstance(set_value, dict) else ()):
        document = _document_with(ruleset, "set_value")
        if document is not None:
            origin = Origin(document, ("set_value", "examples", i))
            yield origin, ("commodity",), example.get("commodity"), ruleset.commodities, "commodity"
    mining = commodities.get("mining")
    if isinstance(mining, dict) and "card" in mining:
        document = _document_with(ruleset, "mining")
        if document is not None:
            yield Origin(document, ("mining",)), ("card",), mining["card"], ruleset.cards, "Mining card"
    yield from _rule_card_references(ruleset)


def _rule_card_references(
    ruleset: Ruleset,
) -> Iterator[tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]]:
    """Cards named by ruleset-level rules: hand-limit and tax-rate changes, the cards of phase
    activities and of non-player forces (Expansion Project, Central America), and the card a trade
    stack purchase requires."""
    for key, field, what in (
        ("hand_limit", "card_changes", "hand-limit card"),
        ("taxation", "rate_changes", "tax-rate card"),
    ):
        found = manifest_setting(ruleset, key)
        if found is None or not isinstance(found[1], dict):
            continue
        items = found[1].get(field)
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, dict) and "card" in item:
                yield found[0].child(field, i), ("card",), item["card"], ruleset.cards, what
    for phase in ruleset.phases:
        for i, activity in enumerate(phase.raw.get("sub_activities") or ()):
            if isinstance(activity, dict) and "card" in activity:
                yield phase.origin, ("sub_activities", i, "card"), activity["card"], ruleset.cards, "activity card"
    forces = manifest_setting(ruleset, "non_player_forces")
    if forces is not None and isinstance(forces[1], list):
        for f, force in enumerate(forces[1]):
            advancements = force.get("advancements") if isinstance(force, dict) else None
            for a, advancement in enumerate(advancements if isinstance(advancements, list) else ()):
                if isinstance(advancement, dict) and isinstance(advancement.get("card"), str):
                    origin = forces[0].child(f, "advancements", a)
                    yield origin, ("card",), advancement["card"], ruleset.cards, "advancement of a non-player force"
    document = _last_document_with(ruleset, "trade_stacks")
    stacks = document.data["trade_stacks"].get("stacks") if document is not None else None
    for s, stack in enumerate(stacks if isinstance(stacks, list) else ()):
        purchases = stack.get("purchases") if isinstance(stack, dict) else None
        for p, purchase in enumerate(purchases if isinstance(purchases, list) else ()):
            if isinstance(purchase, dict) and "requires_card" in purchase:
                origin = Origin(document, ("trade_stacks", "stacks", s, "purchases", p))
                yield origin, ("requires_card",), purchase["requires_card"], ruleset.cards, "purchase card"


#: The parameters of card effects that name cards (a single id or a list of ids).
EFFECT_CARD_PARAMETERS = ("card", "unless_holding", "before_holders_of", "exempt_holders")


def _effect_references(
    ruleset: Ruleset, origin: Origin, effect: Effect
) -> Iterator[tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]]:
    for name in EFFECT_CARD_PARAMETERS:
        value = effect.params.get(name)
        if isinstance(value, str):
            yield origin, (*effect.path, name), value, ruleset.cards, f"{effect.kind} card"
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield origin, (*effect.path, name, i), item, ruleset.cards, f"{effect.kind} card"


def _last_document_with(ruleset: Ruleset, key: str) -> Any:
    for document in reversed(ruleset.documents):
        if isinstance(document.data, dict) and document.data.get("kind") == "commodities" and key in document.data:
            return document
    return None


def _document_with(ruleset: Ruleset, key: str) -> Any:
    for document in ruleset.documents:
        if isinstance(document.data, dict) and document.data.get("kind") == "commodities" and key in document.data:
            return document
    return None
