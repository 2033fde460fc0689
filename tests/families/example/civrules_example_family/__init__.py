"""An example game family for civrules: a game of dice, each die with a number of faces.

It shows every part a family declares: its file kinds and their schemas (shipped in this
distribution), its manifest's file slots, its one collection, its model, one check with its own
code prefix, and one emitted module. ``docs/families.md`` explains each part.
"""

from __future__ import annotations

from civrules.families import CollectionSpec, Family

FAMILY = Family(
    id="example-dice",
    name="Example: dice",
    package=__name__,
    # One letter no other family and not the core uses: --select E selects this family's checks.
    code_prefixes=("E",),
    kinds={"ruleset": "ruleset.schema.json", "dice": "dice.schema.json"},
    slots={"dice": "dice"},
    collections={"dice": CollectionSpec("dice", ("dice",), word="die")},
    settings={"players": "ruleset"},
    checks=(f"{__name__}.checks",),
    hooks={
        "assemble": f"{__name__}.model:build_model",
        "package": f"{__name__}.package:render_package",
    },
    schemas=f"{__name__}.schemas",
)
