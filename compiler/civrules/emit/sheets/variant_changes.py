"""What a variant changes relative to its base (``civrules diff`` output); variants only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.registry import Source, sheet
from civrules.model import Ruleset
from civrules.resolve.diff import render_text


def changes_sheet(changes: str) -> dict[str, Any]:
    """The lines of ``civrules diff`` output, each with a class by its mark (+ added, - removed, ~ changed)
    and one by its indent (``indents``: each that is used, for the sheet's style to say how far)."""
    lines = []
    for text in changes.splitlines():
        stripped = text.lstrip()
        if not stripped:
            continue
        mark = stripped[0]
        kind = {"+": "added", "-": "removed", "~": "changed"}.get(mark, "heading" if text == stripped else "detail")
        lines.append({"kind": kind, "indent": len(text) - len(stripped), "text": stripped})
    return {"lines": lines, "indents": sorted({line["indent"] for line in lines})}


@sheet(
    "variant-changes.html",
    "What this variant changes",
    "Every entity and setting this ruleset adds, removes or changes relative to its base.",
    position=90,
    variant_only=True,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return changes_sheet(render_text(source.changes, in_words=True) if source.changes is not None else "")
