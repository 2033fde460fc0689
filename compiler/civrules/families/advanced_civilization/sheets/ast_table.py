"""Each nation's A.S.T. track with its epochs and Late Iron Age values, and the epochs' entry
requirements.

What the data does not give is said once: a track whose epochs are unknown is one row with a
note (and, when no track is known, the table is one line saying why); where the tracks end is
unknown, they are drawn to their last epoch's first space and one line says so. Where the game
prints a track per level (Basic and Expert), the tracks are grouped under their level's name, and
an epoch's requirements are given level by level.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from markupsafe import Markup, escape

from civrules.diagnostics.words import count
from civrules.emit.sheets.common import Notes, citation_text, known, row_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.model import AstTrack, Epoch, Ruleset
from civrules.families.advanced_civilization.succession import (
    EpochSpan,
    epoch_order,
    epoch_spans,
    gate_value,
    is_value_gated,
    layout,
    space_value,
)
from civrules.model import Unknown
from civrules.model import known as known_fact


def epoch_initials(epochs: Sequence[Any]) -> dict[str, str]:
    """Short labels for the epochs: the initials of their names (``Early Bronze Age`` → ``EBA``), unique."""
    found: dict[str, str] = {}
    taken: set[str] = set()
    primes: dict[str, int] = {}  # how many primes the next epoch of the same initials tries first
    for epoch in epochs:
        short = "".join(word[0] for word in str(epoch.display_name).split() if word[:1].isalnum()).upper() or epoch.id
        initials, label = short, short + "'" * primes.get(short, 0)
        while label in taken:
            label += "'"
        primes[initials] = len(label) - len(initials)
        found[epoch.id] = label
        taken.add(label)
    return found


def open_spans(ruleset: Ruleset, track: AstTrack) -> tuple[EpochSpan, ...] | None:
    """The epochs of a track whose starts are known but whose end is not (its length is unknown):
    each epoch to the space before the next one's start, the last one on its first space only."""
    starts = track.epoch_starts
    if isinstance(starts, Unknown) or [e for e, _ in starts] != [e.id for e in epoch_order(ruleset)]:
        return None
    spaces = [space for _, space in starts]
    if any(later <= earlier for earlier, later in pairwise(spaces)):
        return None
    return tuple(
        EpochSpan(epoch, first, spaces[i + 1] - 1 if i + 1 < len(spaces) else first)
        for i, (epoch, first) in enumerate(starts)
    )


def requirement_facts(found: Mapping[str, Any]) -> list[str]:
    """An epoch's entry requirements in words, from the fields the data writes."""
    facts = []
    if isinstance(found.get("min_cities"), int):
        facts.append(f"{found['min_cities']} cities in play")
    if isinstance(found.get("min_card_groups"), int):
        facts.append(f"cards of {found['min_card_groups']} groups")
    if found.get("all_card_groups"):
        facts.append("cards of every group")
    if isinstance(found.get("min_cards"), int):
        facts.append(f"{found['min_cards']} civilization cards")
    for band in found.get("min_cards_of_value") or ():
        if not isinstance(band, dict) or not isinstance(band.get("count"), int):
            continue
        if isinstance(band.get("min_value"), int):
            facts.append(f"{count(band['count'], 'card')} worth {band['min_value']} or more")
        elif isinstance(band.get("max_value_below"), int):
            facts.append(f"{count(band['count'], 'card')} worth less than {band['max_value_below']}")
    if isinstance(found.get("min_victory_points"), int):
        facts.append(f"{count(found['min_victory_points'], 'victory point')} in civilization cards")
    if found.get("two_group_cards_count_twice"):
        facts.append("a card of two groups counts for both")
    if found.get("card_value_per_space"):
        facts.append("card face value at least the space's value")
    if found.get("none"):
        facts.append("none")
    return facts


def _by_level(epoch: Epoch) -> list[Any]:
    return [entry for entry in epoch.by_level if isinstance(entry.requirements, dict)]


def _requirements(epoch: Epoch, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The requirements of an epoch: one entry, or one per level where the game has levels (the
    epoch's own text then leads them, saying how they differ)."""
    levels = _by_level(epoch)
    if not levels:
        found = epoch.requirements
        return [{"level": "", "facts": requirement_facts(found), "text": str(found.get("text", ""))}]
    return [
        {
            "level": names.get(str(entry.level), str(entry.level or "")),
            "facts": requirement_facts(entry.requirements or {}),
            "text": str((entry.requirements or {}).get("text", "")),
        }
        for entry in levels
    ]


def ast_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    shape = layout(ruleset)
    epochs = list(epoch_order(ruleset))
    shades = {epoch.id: i % 5 for i, epoch in enumerate(epochs)}
    initials = epoch_initials(epochs)
    names = dict(ruleset.ast.level_names) if ruleset.ast is not None else {}
    notes = Notes()
    found_spans = {track.key: epoch_spans(ruleset, track) for track in ruleset.ast_tracks}
    opened = {
        track.key: open_spans(ruleset, track)
        for track in ruleset.ast_tracks
        if found_spans[track.key] is None and shape.last_space(track) is None
    }
    ends = [shape.last_space(track) or 0 for track in ruleset.ast_tracks if found_spans[track.key]]
    ends += [spans[-1].first for spans in opened.values() if spans]
    # The declared length counts spaces from the start space (0 where spaces count steps from the arrow).
    declared_last = shape.start_space + shape.spaces_per_track - 1 if shape.spaces_per_track else 0
    spaces = max([*ends, declared_last])
    columns = list(range(shape.start_space, spaces + 1))
    levels = list(dict.fromkeys(track.level for track in ruleset.ast_tracks))
    tracks = []
    value_gated: dict[str, bool] = {}
    for track in ruleset.ast_tracks:
        nation = ruleset.nations.get(track.id)
        spans = found_spans[track.key] or opened.get(track.key)
        row: dict[str, Any] = {
            "name": nation.display_name if nation is not None else track.id,
            "position": known(nation.ast_position) if nation is not None else "unknown",
            "level": names.get(str(track.level), str(track.level or "")) if len(levels) > 1 else "",
            "cells": [],
            "unknown": "",
            "caveat": track.caveat,
            "checked": track.checked,
            "mark": _changed(source, "ast_tracks", track.id if track.level is None else f"{track.id}@{track.level}"),
        }
        if isinstance(spans, Unknown) or not spans:
            reason = spans.reason if isinstance(spans, Unknown) else "its epochs' first spaces are not in order"
            row["unknown"] = reason
            row["note"] = ""
            tracks.append(row)
            continue
        last = shape.last_space(track)
        # Each column's span found once per track (the first span holding it, as a search of the
        # spans for every column found it), and each epoch's gate asked once per sheet.
        span_at: dict[int, EpochSpan] = {}
        for held in spans if columns else ():
            for space in range(max(held.first, columns[0]), min(held.last, columns[-1]) + 1):
                span_at.setdefault(space, held)
        for space in columns:
            span = span_at.get(space)
            if span is None:
                row["cells"].append({"space": space, "epoch": "", "shade": -1, "start": False, "value": ""})
                continue
            epoch = ruleset.epochs.by_id[span.epoch]
            value = ""
            if last is not None and (
                _gated(value_gated, epoch) or (space == last and space_value(ruleset, track, space) is not None)
            ):
                # No value where the space needs none (a track whose late_iron_age_spaces are []).
                needed = gate_value(ruleset, track, space)
                value = "unknown" if isinstance(needed, Unknown) else "" if needed is None else str(needed)
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
        row["cells_html"] = _cells(row["cells"])
        tracks.append(row)
    # A reason said by one row stays in it; one said by several is a note, said once below.
    said = Counter(t["unknown"] for t in tracks if t["unknown"])
    for t in tracks:
        if said[t["unknown"]] > 1:
            t["note"] = notes.mark("epochs of a track", t["unknown"])
    # A table of nothing but unknown rows is one line saying why.
    reasons = list(dict.fromkeys(t["unknown"] for t in tracks))
    none_known = bool(tracks) and all(t["unknown"] for t in tracks)
    if none_known:
        notes = Notes()
    if not tracks:
        none_known = True
        listed = ruleset.ast.tracks_unknown if ruleset.ast is not None else None
        reasons = [listed or "the data of this ruleset lists no track"]
    requirements = []
    for epoch in epochs:
        requirements.append(
            {
                "name": epoch.display_name,
                "short": initials[epoch.id],
                "shade": shades[epoch.id],
                "mark": _changed(source, "epochs", epoch.id),
                "levels": _requirements(epoch, names),
                # The epoch's own text where its levels have theirs (it says how they differ).
                "lead": str(epoch.requirements.get("text", "")) if _by_level(epoch) else "",
                "rule": row_citation(epoch, ("requirements",), epoch.requirements.get("rule")),
            }
        )
    ast_notes = [
        {
            "text": text,
            "rule": citation_text(rule, cited),
            "mark": source.setting_mark(f"ast.{key}") if source is not None else "",
        }
        for text, rule, cited, key in (ruleset.ast.notes if ruleset.ast else ())
    ]
    length = known_fact(ruleset.ast.spaces_per_track) if ruleset.ast is not None else None
    open_end = ""
    if any(opened.values()):
        why = length.reason if isinstance(length, Unknown) else "the data does not give it"
        open_end = f"Where the tracks end is not known, so each is drawn to the first space of its last epoch: {why}"
    return {
        "columns": columns,
        "start": shape.start_space,
        "finish": shape.finish_space,
        "points": known(shape.points_per_space),
        "tracks": [] if none_known else tracks,
        "none_known": (
            f"No track can be drawn: {reasons[0]}"
            if none_known and len(reasons) == 1
            else f"No track can be drawn; the first of {len(reasons)} reasons: {reasons[0]}"
            if none_known
            else ""
        ),
        "open_end": open_end,
        "notes_of_tracks": notes.listed(),
        "levels_note": _levels_note(ruleset, [names.get(str(level), str(level)) for level in levels]),
        "values_shown": any(cell["value"] for t in tracks for cell in t["cells"]),
        "epochs": [{"name": e.display_name, "short": initials[e.id], "shade": shades[e.id]} for e in epochs],
        "unchecked": any(t["checked"] is False and not t["unknown"] for t in tracks),
        "requirements": requirements,
        "notes": ast_notes,
        # the colour of each nation's tokens, where the rules name it
        "colours": [
            {"name": nation.display_name, "colour": nation.colour}
            for nation in ruleset.nations.by_id.values()
            if nation.colour
        ],
    }


def _gated(known: dict[str, bool], epoch: Epoch) -> bool:
    """:func:`is_value_gated`, asked once per epoch of a sheet (``known``: the answers so far)."""
    gated = known.get(epoch.id)
    if gated is None:
        gated = known[epoch.id] = is_value_gated(epoch)
    return gated


def _cells(cells: list[dict[str, Any]]) -> Markup:
    """A track's cells, one ``<td>`` a line, as the template's loop wrote them (autoescaped alike):
    written here in one pass, not a template loop whose every attribute look-up and escape goes
    through Jinja (the tracks' cells were most of the A.S.T. sheet's rendering: 18 tracks of up to
    18 spaces on mega-civilization's)."""
    out = []
    for cell in cells:
        start = cell["start"]
        value = cell["value"]
        out.append(
            f'<td class="space s{escape(cell["shade"])}{" start" if start else ""}" title="{escape(cell["epoch"])}">'
            + (f'<span class="ep">{escape(cell["short"])}</span> ' if start else "")
            + (
                '<span class="val unknown">unknown</span>'
                if value == "unknown"
                else f'<span class="val">{escape(value)}</span>'
                if value
                else ""
            )
            + "</td>\n"
        )
    return Markup("".join(out))


@sheet(
    "ast.html",
    "Archaeological Succession Table",
    "Each nation's track with its epochs and Late Iron Age values; the entry requirements of each epoch.",
    position=50,
    landscape=True,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return ast_sheet(source.ruleset, source)


def _levels_note(ruleset: Ruleset, levels: list[str]) -> str:
    """What tells the tracks of two levels apart: the civilizations whose tracks differ between them."""
    if len(levels) < 2:
        return ""
    by_nation: dict[str, list[Any]] = {}
    for track in ruleset.ast_tracks:
        by_nation.setdefault(track.id, []).append(track.epoch_starts)
    differ = [
        str(nation.display_name) if (nation := ruleset.nations.get(key)) is not None else key
        for key, starts in by_nation.items()
        if len(starts) > 1 and any(other != starts[0] for other in starts[1:])
    ]
    listed = " and ".join(levels) if len(levels) == 2 else ", ".join(levels)
    text = f"Each civilization has a track at each level of the game ({listed}), listed level by level"
    if not differ:
        return text + "; they are the same at every level."
    listed_differ = ", ".join(differ)
    return (
        text
        + f"; the epochs' first spaces differ between the levels for {listed_differ}, and are the same for the rest."
    )


def _changed(source: Source[Ruleset] | None, collection: str, key: str) -> str:
    return source.changed(collection, key) if source is not None else ""
