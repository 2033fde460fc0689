"""Faces: a die can be rolled."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic
from civrules.diagnostics import Diagnostic, Severity
from civrules_example_family.model import DiceRuleset


@check("E001", "die-with-too-few-faces", Severity.ERROR)
def check_faces(ruleset: DiceRuleset) -> Iterator[Diagnostic]:
    """
    What: a die has fewer than two faces.

    Why: a die of one face always shows it; rolling it decides nothing, so a rule that rolls it
    is not a roll.

    Fix: give the die at least two faces.

        dice:
          - {id: coin, faces: 1}   # FAIL: a die needs at least two faces
    """
    for die in ruleset.dice:
        if isinstance(die.faces, int) and die.faces < 2:
            yield diagnostic(
                "E001",
                f"die `{die.id}` has {die.faces} face{'s' if die.faces != 1 else ''}: it cannot be rolled",
                die.origin.span("faces"),
                "give it at least 2 faces",
                subjects=(die.id,),
            )
