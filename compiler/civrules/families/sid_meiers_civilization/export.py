"""The facts ``civrules export`` derives for a ruleset of the Sid Meier's Civilization family."""

from __future__ import annotations

from typing import Any

from civrules.families.sid_meiers_civilization import rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


def derived_facts(model: CivilizationRuleset) -> dict[str, Any]:
    """``technologies_by_level`` {level: [technology ids]} (``unknown``: those whose level the sources
    do not give), and ``unlocked_by`` {building, unit type, government or wonder id: [technology ids]}
    (an id none known unlocks is left out while some technology's unlocks are not in the sources:
    absent means cannot be judged, never "nothing unlocks it")."""
    levels: dict[str, list[str]] = {}
    for tech in model.technologies:
        key = str(tech.level) if isinstance(tech.level, int) else "unknown"
        levels.setdefault(key, []).append(tech.id)
    unlocked: dict[str, list[str]] = {}
    items = [
        *(b.id for b in model.buildings),
        *(u.id for u in model.unit_types),
        *(g.id for g in model.governments),
        *(w.id for w in model.wonders),
    ]
    for item in dict.fromkeys(items):
        try:
            unlocked[item] = list(rules.unlocked_by(model, item))
        except rules.CannotJudgeError:
            continue
    return {"technologies_by_level": dict(sorted(levels.items())), "unlocked_by": unlocked}
