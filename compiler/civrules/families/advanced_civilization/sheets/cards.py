"""The card quick chart: every card's groups, cost, prerequisites, credits and attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import (
    Notes,
    citation_text,
    humanize,
    known,
    name_of,
    origin_citation,
    row_citation,
    rules_text,
    setting_citation,
)
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.model import Card, CreditLine, Ruleset
from civrules.families.advanced_civilization.sheets.marks import SymbolsMarkup, drawn_note, group_symbols, symbols
from civrules.model import Unknown
from civrules.model import known as known_value


def credit_target(ruleset: Ruleset, line: CreditLine) -> str:
    """The card a credit names, as a player reads it: the card's name; where the sources give the card
    none but the giving rule prints one for its target (`target_name`), that name beside the card's
    label (``Rhetoric (unnamed 30.44)``: Expansion Project 30.16.1 names Rhetoric, no passage names
    the card of 30.44), never the label alone."""
    assert line.card is not None
    label = name_of(ruleset.cards, line.card)
    target = ruleset.cards.get(line.card)
    if line.target_name is None or target is None or isinstance(target.name, str):
        return label
    rules = ", ".join(str(rule) for rule in target.rules)
    return f"{line.target_name} (unnamed {rules})" if rules else f"{line.target_name} (unnamed)"


def _credit_lines(ruleset: Ruleset, card: Card) -> list[str]:
    """A card's credits as written; equal credits toward single cards merged (``10 to Democracy, Monotheism``)."""
    if isinstance(card.credits, Unknown):
        return ["unknown"]
    merged: dict[tuple[str, bool, bool], list[str]] = {}
    for line in card.credits:
        if line.card is not None:
            key, target = (known(line.points), True, line.extra), credit_target(ruleset, line)
        else:
            group = name_of(ruleset.groups, line.group) if line.group is not None else "?"
            key, target = (known(line.points), False, line.extra), f"all other {group} cards"
        merged.setdefault(key, []).append(target)
    lines = []
    for (points, single, extra), targets in merged.items():
        said = ", ".join(targets) if single else "; ".join(targets)
        lines.append(f"{points} to {said}{' (extra)' if extra else ''}")
    return lines


def purchase_rules(ruleset: Ruleset, source: Source[Ruleset] | None, notes: Notes) -> list[dict[str, str]]:
    """How civilization cards are bought (the credit policy's `purchases`): each rule's text as the
    data holds it, cited as its part of the setting is; one the sources do not give, its name and
    the unknown's note."""
    purchases = ruleset.credit_policy.get("purchases")
    origin = ruleset.setting_origins.get("credit_policy")
    said = []
    for key, rule in purchases.items() if isinstance(purchases, Mapping) else ():
        if not isinstance(rule, Mapping):
            continue
        value = known_value(rule.get("value"))
        text = " ".join(str(rule.get("text") or "").split())
        name = humanize(key)
        if isinstance(value, Unknown):
            text = (text + " " if text else f"{name[:1].upper()}{name[1:]} ") + notes.fact(value, name)
        elif not text:
            text = f"{name[:1].upper()}{name[1:]}: {humanize(value) if isinstance(value, str) else known(value)}"
        cited = (
            origin_citation(origin.child("purchases", key), transcriptions=True)
            if origin is not None
            else citation_text(rule.get("rule"), rule.get("source"))
        )
        mark = source.setting_mark(f"credit_policy.purchases.{key}") if source is not None else ""
        said.append({"text": text, "rule": cited, "mark": mark})
    policy = ruleset.credit_policy
    for key, (given, asked) in POLICY_FACTS.items():
        if key == "excess_lost" and isinstance(purchases, Mapping) and "overpayment" in purchases:
            continue  # the purchase rules' overpayment says it, with its own words
        value = known_value(policy.get(key))
        if isinstance(value, Unknown):
            text = f"{asked} {notes.fact(value, humanize(key))}"
        elif value is True or (key == "extra_credits" and value == "added_once"):
            text = given
        else:
            continue
        said.append(
            {
                "text": text,
                "rule": setting_citation(ruleset.setting_origins, "credit_policy", (key,)),
                "mark": source.setting_mark(f"credit_policy.{key}") if source is not None else "",
            }
        )
    return said


#: The credit policy's facts of buying a card, as the ruleset schema defines them: what a known
#: value says, and what an unknown one leaves open.
POLICY_FACTS = {
    "credits_must_be_used": (
        "A player must use every credit that applies to a card he buys and may not pay treasury instead.",
        "Whether every credit that applies must be used",
    ),
    "free_when_covered": (
        "A card whose credits cover its cost is acquired at no cost.",
        "Whether a card its credits cover is acquired at no cost",
    ),
    "excess_lost": (
        "No change is given when commodity cards and credits exceed the cost: the excess is lost.",
        "Whether the excess of a payment is lost",
    ),
    "extra_credits": (
        "An extra credit to one named card is a one-time bonus toward that card, added on top of the group credits.",
        "How an extra credit counts",
    ),
}


def card_chart(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    notes = Notes()
    marked = SymbolsMarkup()
    rows = []
    for card in ruleset.cards.by_id.values():
        attributes = []
        for attribute in card.attributes if isinstance(card.attributes, tuple) else ():
            links = [
                f"{humanize(link.effect)} {name_of(ruleset.calamities, link.calamity)}" for link in attribute.calamities
            ]
            attributes.append(
                {"text": attribute.text, "rule": citation_text(attribute.rules, attribute.source), "links": links}
            )
        # What buying the card brings at once (`purchase_effects`), printed by no sheet before (round 23).
        attributes.extend(
            {"text": f"When bought: {' '.join(effect.text.split())}", "rule": rules_text(effect.cited), "links": []}
            for effect in card.purchase_effects
            if effect.text
        )
        if isinstance(card.prerequisites, Unknown):
            prerequisites = [notes.fact(card.prerequisites, "prerequisites")]
        else:
            prerequisites = [name_of(ruleset.cards, p) for p in card.prerequisites]
        rows.append(
            {
                "name": card.name if isinstance(card.name, str) else notes.fact(card.name, "name", "unnamed"),
                "mark": source.changed("civilization_cards", card.id) if source is not None else "",
                "symbols": symbols(ruleset, card),
                "symbols_html": marked(symbols(ruleset, card)),
                "groups": " / ".join(name_of(ruleset.groups, g) for g in card.group_list())
                if not isinstance(card.groups, Unknown)
                else notes.fact(card.groups, "groups"),
                "cost": notes.fact(card.cost, "cost"),
                "prerequisites": prerequisites,
                "credits": _credit_lines(ruleset, card),
                "attributes": attributes,
                "rule": row_citation(card),
                "victory_points": notes.fact(card.victory_points, "victory points"),
            }
        )
    with_points = any(card.victory_points is not None for card in ruleset.cards.by_id.values())
    groups = group_symbols(ruleset)
    return {
        "rows": rows,
        "purchases": purchase_rules(ruleset, source, notes),
        "groups": groups,
        "drawn": drawn_note(groups),
        "victory_points": with_points,
        "notes": notes.listed(),
    }


@sheet(
    "cards.html",
    "Civilization cards",
    "Every card's groups, cost, prerequisites, credits and attributes, with rule sections, and how cards are bought.",
    position=20,
    sources=("civilization_cards", "calamities"),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return card_chart(source.ruleset, source)
