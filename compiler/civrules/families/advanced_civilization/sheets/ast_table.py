"""Each nation's A.S.T. track with its epochs and Late Iron Age values, and the epochs' entry
requirements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from civrules.emit.sheets.common import known, rules_text
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.model import Ruleset
from civrules.families.advanced_civilization.succession import (
    epoch_order,
    epoch_spans,
    is_value_gated,
    layout,
    space_value,
)
from civrules.model import Unknown


def epoch_initials(epochs: Sequence[Any]) -> dict[str, str]:
    """Short labels for the epochs: the initials of their names (``Early Bronze Age`` → ``EBA``), unique."""
    found: dict[str, str] = {}
    for epoch in epochs:
        short = "".join(word[0] for word in str(epoch.display_name).split() if word[:1].isalnum()).upper() or epoch.id
        while short in found.values():
            short += "'"
        found[epoch.id] = short
    return found


def ast_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    shape = layout(ruleset)
    epochs = list(epoch_order(ruleset))
    shades = {epoch.id: i % 5 for i, epoch in enumerate(epochs)}
    initials = epoch_initials(epochs)
    spaces = max(
        [shape.last_space(track) or 0 for track in ruleset.ast_tracks] + [shape.spaces_per_track or 0],
    )
    columns = list(range(shape.start_space, spaces + 1))
    tracks = []
    for track in ruleset.ast_tracks:
        nation = ruleset.nations.get(track.id)
        spans = epoch_spans(ruleset, track)
        row: dict[str, Any] = {
            "name": nation.display_name if nation is not None else track.id,
            "position": known(nation.ast_position) if nation is not None else "unknown",
            "cells": [],
            "unknown": "",
            "caveat": track.caveat,
            "checked": track.checked,
            "mark": _changed(source, "ast_tracks", track.id if track.level is None else f"{track.id}@{track.level}"),
        }
        if isinstance(spans, Unknown) or spans is None:
            row["unknown"] = spans.reason if isinstance(spans, Unknown) else "the epochs of this track are not usable"
            tracks.append(row)
            continue
        last = shape.last_space(track)
        for space in columns:
            span = next((s for s in spans if space in s), None)
            if span is None:
                row["cells"].append({"space": space, "epoch": "", "shade": -1, "start": False, "value": ""})
                continue
            epoch = ruleset.epochs.by_id[span.epoch]
            value = ""
            if is_value_gated(epoch) or (space == last and space_value(ruleset, track, space) is not None):
                needed = space_value(ruleset, track, space)
                value = "unknown" if needed is None or isinstance(needed, Unknown) else str(needed)
            row["cells"].append(
                {
                    "space": space,
                    "epoch": epoch.display_name,
                    "short": initials[span.epoch],
                    "shade": shades[span.epoch],
                    "start": space == span.first,
                    "value": value,
                }
            )
        tracks.append(row)
    requirements = []
    for epoch in epochs:
        found = epoch.requirements
        facts = []
        if isinstance(found.get("min_cities"), int):
            facts.append(f"{found['min_cities']} cities in play")
        if isinstance(found.get("min_card_groups"), int):
            facts.append(f"cards of {found['min_card_groups']} groups")
        if found.get("all_card_groups"):
            facts.append("cards of every group")
        if isinstance(found.get("min_cards"), int):
            facts.append(f"{found['min_cards']} civilization cards")
        if found.get("two_group_cards_count_twice"):
            facts.append("a card of two groups counts for both")
        if found.get("card_value_per_space"):
            facts.append("card face value at least the space's value")
        if found.get("none"):
            facts.append("none")
        requirements.append(
            {
                "name": epoch.display_name,
                "short": initials[epoch.id],
                "shade": shades[epoch.id],
                "mark": _changed(source, "epochs", epoch.id),
                "text": str(found.get("text", "")),
                "facts": facts,
                "rule": rules_text(found.get("rule") or list(epoch.rules)),
            }
        )
    notes = [{"text": text, "rule": rules_text(rule)} for text, rule in (ruleset.ast.notes if ruleset.ast else ())]
    return {
        "columns": columns,
        "start": shape.start_space,
        "finish": shape.finish_space,
        "points": known(shape.points_per_space),
        "tracks": tracks,
        "epochs": [{"name": e.display_name, "short": initials[e.id], "shade": shades[e.id]} for e in epochs],
        "unchecked": any(t["checked"] is False and not t["unknown"] for t in tracks),
        "requirements": requirements,
        "notes": notes,
    }


@sheet(
    "ast.html",
    "Archaeological Succession Table",
    "Each nation's track with its epochs and Late Iron Age values; the entry requirements of each epoch.",
    position=50,
    landscape=True,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return ast_sheet(source.ruleset, source)


def _changed(source: Source[Ruleset] | None, collection: str, key: str) -> str:
    return source.changed(collection, key) if source is not None else ""
