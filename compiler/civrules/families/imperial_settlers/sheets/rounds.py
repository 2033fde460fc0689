"""The round and its actions on one page: setup, the phases step by step, the actions with their
prices, the general rules, and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.diagnostics.words import count
from civrules.emit.sheets.common import humanize, row_citation, rules_text, setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers.model import Action, ImperialSettlersRuleset
from civrules.families.imperial_settlers.sheets.words import joined_mark, name_of, steps_marked, words


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


def other_rules(source: Source[ImperialSettlersRuleset]) -> list[dict[str, str]]:
    """The rules of the ruleset's settings that a player asks for at the table and no other part of
    a sheet prints: defence tokens, foundations, which cards are razed or dealt with, goods without
    limit, the first game; each cited by its setting and marked where a variant changes it."""
    ruleset = source.ruleset
    found = []

    def add(key: str, text: str, rule: str = "") -> None:
        if text:
            found.append(
                {
                    "text": text,
                    "rule": setting_citation(ruleset.setting_origins, key) or rule,
                    "mark": source.setting_mark(key),
                }
            )

    defence = ruleset.defence_rules()
    if defence is not None:
        said = []
        if defence.per_production_phase is not None:
            said.append(f"Each faction gets {defence.per_production_phase} in each production phase")
        if defence.placed_on is not None:
            said.append(f"it protects a {humanize(defence.placed_on)}")
        if defence.raze_added is not None:
            tokens = "token" if defence.raze_added == 1 else "tokens"
            said.append(f"razing that location costs {defence.raze_added} more raze {tokens}")
        if defence.movable is False:
            said.append("it cannot be moved")
        if defence.discarded_at_clean_up is True:
            said.append("it is discarded at clean-up")
        add("defence", f"{name_of(ruleset, 'goods', 'defence')}: " + "; ".join(said) + "." if said else "")
    uses = [
        (decks, text)
        for decks, text in (
            (ruleset.raze_spoils_decks(), "can be razed for their spoils"),
            (ruleset.deal_decks(), "have a deal area"),
        )
        if decks
    ]
    add(
        "card_uses",
        " ".join(f"The cards of {words(ruleset, 'decks', decks)} {text}." for decks, text in uses),
        rules_text(list(ruleset.card_uses_rules())),  # its parts cite, the setting does not
    )
    foundation = ruleset.foundation()
    if foundation is not None:
        gains = words(ruleset, "goods", foundation.owner_gains)
        add(
            "foundation",
            "A razed location turned face down is a foundation"
            + (f": its owner gains {gains}" if gains else "")
            + (f"; it is {foundation.use}" if foundation.use else "")
            + ".",
        )
    if ruleset.goods_unlimited() is True:
        add("goods_unlimited", "Resources, workers and tokens are not limited by the pieces.")
    first = ruleset.first_game()
    if first is not None and first.factions:
        players = f"{count(first.players, 'player')}, " if first.players is not None else ""
        add("first_game", f"A first game: {players}{words(ruleset, 'factions', first.factions)}.")
    return found


def box_contents(source: Source[ImperialSettlersRuleset]) -> list[dict[str, str]]:
    """What the box holds (`components`): each piece counted (or its fewest), with what the data
    says of it, cited and marked as an entity's row."""
    found = []
    for component in source.ruleset.components:
        if component.count is not None:
            count = f"{component.count} × "
        elif component.minimum is not None:
            count = f"at least {component.minimum} × "
        else:
            count = ""
        found.append(
            {
                "text": f"{count}{component.display_name}" + (f": {component.note}" if component.note else ""),
                "rule": row_citation(component),
                "mark": source.changed("components", component.id),
            }
        )
    return found


def goods_facts(source: Source[ImperialSettlersRuleset]) -> list[dict[str, str]]:
    """What the data says of each good beyond its name: what a token stands for, its note."""
    ruleset = source.ruleset
    found = []
    for good in ruleset.goods:
        said = []
        if good.stands_for:
            said.append(f"stands for {words(ruleset, 'goods', good.stands_for)}.")
        if good.note:
            said.append(good.note)
        if said:
            found.append(
                {
                    "text": f"{good.display_name}: " + " ".join(said),
                    "rule": row_citation(good),
                    "mark": source.changed("goods", good.id),
                }
            )
    return found


@sheet(
    "round-and-actions.html",
    "Round and actions",
    "Setup, the phases of a round step by step, the actions and their prices, the general rules and the final score, "
    "what the box holds and the goods.",
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
        "other": other_rules(source),
        "box": box_contents(source),
        "goods": goods_facts(source),
    }
