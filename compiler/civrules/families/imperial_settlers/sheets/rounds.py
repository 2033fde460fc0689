"""The round and its actions on one page: setup, the phases step by step, the actions with their
prices, the general rules, and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import row_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers.model import Action, ImperialSettlersRuleset
from civrules.families.imperial_settlers.sheets.words import joined_mark, name_of, steps_marked


def price_text(ruleset: ImperialSettlersRuleset, action: Action) -> str:
    """An action's price in words: ``1 Comida``; ``+1 per Ficha de Defesa`` where a defence adds to it."""
    parts = [
        (f"{amount} × " if amount != 1 else "") + name_of(ruleset, "goods", good)
        for good, amount in sorted(action.price.items())
    ]
    if action.extra_per_defence:
        parts.append(f"+{action.extra_per_defence} per {name_of(ruleset, 'goods', 'defence')} on the location")
    if action.extra_per_samurai:
        parts.append(f"+{action.extra_per_samurai} per Samurai on the location")
    return ", ".join(parts) if parts else "as the card shows"


@sheet(
    "round-and-actions.html",
    "Round and actions",
    "Setup, the phases of a round step by step, the actions and their prices, the general rules and the final score.",
    position=10,
    sources=("ruleset",),
)
def build(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    phases = [
        {
            "name": phase.display_name,
            "steps": [step.text for step in phase.phase_steps],
            "note": phase.note,
            "rule": row_citation(phase),
            "mark": source.changed("phases", phase.id),
        }
        for phase in sorted(ruleset.phases, key=lambda p: p.order)
    ]
    actions = [
        {
            "name": action.display_name,
            "price": price_text(ruleset, action),
            "gives": ", ".join(name_of(ruleset, "goods", g) for g in action.gives_one_of),
            "allowed": action.allowed,
            "note": action.note,
            "rule": row_citation(action),
            "mark": source.changed("actions", action.id),
        }
        for action in ruleset.actions
    ]
    scoring = ruleset.scoring()
    hand = ruleset.starting_hand()
    mark = source.setting_mark
    return {
        "rounds": ruleset.rounds(),
        "rounds_mark": mark("rounds.count"),
        "setup": steps_marked(source, "setup", ruleset.setup_steps()),
        "hand": [(amount, "common" if kind == "common" else "faction") for kind, amount in hand.items()],
        "hand_mark": joined_mark(mark(f"starting_hand.{kind}") for kind in hand),
        "phases": phases,
        "actions": actions,
        "general": [
            (rule.text, source.changed("general_rules", rule.id)) for rule in ruleset.general_rules if rule.text
        ],
        "scoring": scoring,
        "scoring_mark": joined_mark(mark(f"scoring.{key}") for key in ("common_location_vp", "faction_location_vp")),
        "ties": [(tie.text, mark(f"scoring.tie_breaks[{tie.id}]")) for tie in ruleset.tie_breaks()],
    }
