"""The ids Sid Meier's Civilization's own rules name: a rename in the data alone would leave
them naming the old id (:attr:`civrules.families.family.Family.named_ids`).
``tests/families/sid_meiers_civilization/test_named_ids.py`` walks the family's code, templates
and schemas for every id literal and holds this list complete."""

from __future__ import annotations

_VICTORY = "the four ways to win: the victories check, the engine's Victory and the schema's `kind`"
_SITUATION = "the engine's combat situations (CombatSituation) and the schema's `situation`"

NAMED_IDS = {
    "space_kinds": {"culture_victory": "the culture track check (T014) and the engine's culture victory"},
    "victories": {"culture": _VICTORY, "technology": _VICTORY, "economy": _VICTORY, "military": _VICTORY},
    "combat_bonuses": {"defending_city": _SITUATION, "defending_capital": _SITUATION},
}
