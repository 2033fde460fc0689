"""The phases of a turn with their conditions and order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import citation_text, humanize, known, row_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.model import Ruleset
from civrules.model import Unknown


def sequence_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
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
            order = phase.order_text or humanize(phase.order or "") or "—"
            reason = ""
        subs = [
            {
                "name": sub.name if sub.name is not None else humanize(sub.id or ""),
                "rule": citation_text(sub.rules, sub.source),
            }
            for sub in phase.sub_activities
        ]
        rows.append(
            {
                "number": known(phase.number, ""),
                "name": phase.display_name,
                "rule": row_citation(phase),
                "condition": phase.condition_text or humanize(phase.condition or "") or "—",
                "order": order,
                "reason": reason,
                "subs": subs,
                "mark": source.changed("phases", phase.id) if source is not None else "",
            }
        )
    general = [
        {
            "text": entry.text,
            "rule": citation_text(entry.rules, entry.source),
            "mark": source.setting_mark(f"sequence_of_play.general_rules[{entry.id}]")
            if source is not None and entry.id is not None
            else "",
        }
        for entry in ruleset.general_rules
    ]
    return {"phases": rows, "general": general}


@sheet(
    "sequence-of-play.html",
    "Sequence of play",
    "The phases of a turn, when each happens and in which order players act.",
    position=60,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return sequence_sheet(source.ruleset, source)
