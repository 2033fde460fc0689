"""The ids Sid Meier's Civilization's own rules name: a rename in the data alone would leave
them naming the old id (:attr:`civrules.families.family.Family.named_ids`).
``tests/families/sid_meiers_civilization/test_named_ids.py`` walks the family's code, templates
and schemas for every id literal and holds this list complete."""

from __future__ import annotations

NAMED_IDS = {
    "space_kinds": {"culture_victory": "the culture track check (T014) and the engine's culture victory"},
}
