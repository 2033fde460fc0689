"""The solo game: its setup, its lookout, the virtual player's attack priorities, and the
achievement table of a final score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.families.imperial_settlers.sheets.words import PHRASES, joined_mark, name_of, steps_marked, words


@sheet(
    "solo-game.html",
    "Solo game",
    "The solo game: setup, lookout, the virtual player's attack priorities and the achievement table.",
    position=40,
    sources=("ruleset",),
)
def build(source: Source[ImperialSettlersRuleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    solo = ruleset.solo_rules()
    table = ruleset.solo_table()
    levels = []
    if table is not None:
        written = [level for level in table.levels if level is not None]
        for index, level in enumerate(written):
            later = written[index + 1].at_least if index + 1 < len(written) else None
            if level.at_least is not None:
                band = f"{level.at_least}–{later - 1}" if later is not None else f"{level.at_least} or more"
            elif level.below is not None:
                band = f"below {level.below}"
            else:
                band = "—"
            levels.append(
                {
                    "name": level.name or level.id or "—",
                    "band": band,
                    "mark": source.setting_mark(f"solo.achievements.levels[{level.id}]") if level.id else "",
                }
            )
    if solo is None:
        return {"solo": None, "levels": levels}
    mark = source.setting_mark
    return {
        "solo": {
            "setup": steps_marked(source, "solo.setup", solo.setup),
            "lookout": steps_marked(source, "solo.lookout_steps", solo.lookout),
            "phases_mark": mark("solo.phases"),
            "attacks_mark": joined_mark(
                mark(f"solo.{key}") for key in ("attacks_per_round", "locations_razed_per_attack", "attack_cards.count")
            ),
            "by_kind_mark": mark("solo.attack_priority.by_kind"),
            "then_mark": mark("solo.attack_priority.then"),
            "defence_mark": mark("solo.defence_protects"),
            "samurai_mark": mark("solo.samurai_protects"),
            "japanese_mark": mark("solo.japanese_target_order.order"),
            "winning_mark": mark("solo.winning.compare"),
            "phases": words(ruleset, "phases", [p for p in solo.phases if ruleset.phases.get(p) is not None])
            + (", then the virtual player's attack" if "attack" in solo.phases else ""),
            "attacks": solo.attacks_per_round,
            "razed": solo.locations_razed_per_attack,
            "cards": solo.attack_cards,
            "by_kind": [name_of(ruleset, "location_kinds", kind) for kind in solo.priority_by_kind],
            "then": [PHRASES.get(item, item.replace("_", " ")) for item in solo.priority_then],
            "japanese": [name_of(ruleset, "goods", good) for good in solo.japanese_target_order],
            "defence": solo.defence_protects,
            "samurai": solo.samurai_protects,
            "winning": PHRASES.get(solo.winning_compare or "", None),
            "rule": setting_citation(ruleset.setting_origins, "solo"),
        },
        "levels": levels,
        "table_rule": "p14",
    }
