"""The phases of a turn with their conditions and order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import humanize, known, rules_text
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.model import Ruleset
from civrules.model import Unknown


def sequence_sheet(ruleset: Ruleset) -> dict[str, Any]:
    position = {phase.id: i for i, phase in enumerate(ruleset.phases)}
    phases = sorted(
        ruleset.phases.by_id.values(),
        key=lambda p: (p.number if isinstance(p.number, int) else 10**6, position[p.id]),
    )
    rows = []
    for phase in phases:
        if isinstance(phase.order, Unknown):
            order, reason = "unknown", phase.order.reason
        else:
            order = str(phase.raw.get("order_text") or humanize(phase.order or "")) or "—"
            reason = ""
        subs = [
            {"name": str(sub.get("name", humanize(sub.get("id", "")))), "rule": rules_text(sub.get("rule"))}
            for sub in phase.raw.get("sub_activities") or ()
            if isinstance(sub, dict)
        ]
        rows.append(
            {
                "number": known(phase.number, ""),
                "name": phase.display_name,
                "rule": rules_text(list(phase.rules)),
                "condition": str(phase.raw.get("condition_text") or humanize(phase.condition or "")) or "—",
                "order": order,
                "reason": reason,
                "subs": subs,
            }
        )
    settings = ruleset.data.get("sequence_of_play")
    general = []
    if isinstance(settings, dict):
        for entry in settings.get("general_rules") or ():
            if isinstance(entry, dict) and entry.get("text"):
                general.append({"text": str(entry["text"]), "rule": rules_text(entry.get("rule"))})
    return {"phases": rows, "general": general}


@sheet(
    "sequence-of-play.html",
    "Sequence of play",
    "The phases of a turn, when each happens and in which order players act.",
    position=60,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return sequence_sheet(source.ruleset)
