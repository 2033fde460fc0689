"""Unlocks: every unit rank a technology unlocks exists, and every building, government and unit
rank a player can build is unlocked by something or available from the start."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Severity
from civrules.families.sid_meiers_civilization.checks import cannot_judge
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset, Unlocks
from civrules.model import Unknown


@check("T006", "unlock-of-missing-unit-rank", Severity.ERROR, reads=("technologies.unlocks", "unit_types.ranks"))
@made_of("technologies", "unit_types")
def check_unit_unlocks(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a technology unlocks a rank of a unit type that the type does not have.

    Why: the upgrade would turn the military technology marker to a side that does not exist.

    Fix: name a rank the unit type has (1 to 4; aircraft have one).

        unlocks: {units: [{type: cavalaria, rank: 5}]}   # FAIL
    """
    for tech in ruleset.technologies:
        if not isinstance(tech.unlocks, Unlocks):
            continue
        for n, unit in enumerate(tech.unlocks.units):
            kind = ruleset.unit_types.get(unit.type)
            if kind is not None and kind.rank(unit.rank) is None:
                yield diagnostic(
                    "T006",
                    f"technology `{tech.id}` unlocks rank {unit.rank} of `{unit.type}`, which has ranks {', '.join(str(r.rank) for r in kind.ranks)}",  # noqa: E501
                    tech.origin.span("unlocks", "units", n, "rank"),
                    "name a rank the unit type has",
                    subjects=(tech.id, unit.type),
                )


@check(
    "T007",
    "nothing-unlocks-it",
    Severity.WARNING,
    reads=("technologies.unlocks", "buildings.id", "governments.starting", "governments.transitional"),
)
def check_everything_unlocked(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a building or a government that is not available from the start is unlocked by no
    technology.

    Why: nothing a player does can make it producible; it is dead data, or an unlock is missing.
    Where some technologies' unlocks are unknown, the check cannot judge and says so once.

    Fix: add it to the `unlocks` of the technology that unlocks it.

        buildings:
          - {id: porto, ...}   # FAIL when no technology lists porto in its unlocks
    """
    unknown = [t.id for t in ruleset.technologies if isinstance(t.unlocks, Unknown)]
    silent = [t.id for t in ruleset.technologies if isinstance(t.unlocks, Unlocks) and not t.unlocks.stated]
    if unknown or silent:
        yield cannot_judge(
            "T007",
            f"what is unlocked cannot be judged: {len(unknown) + len(silent)} technologies have no known unlocks",
            ruleset.manifest.span("id"),
            "give every technology's unlocks",
            subjects=(*unknown, *silent),
        )
        return
    unlocked_b = {b for t in ruleset.technologies if isinstance(t.unlocks, Unlocks) for b in t.unlocks.buildings}
    unlocked_g = {g for t in ruleset.technologies if isinstance(t.unlocks, Unlocks) for g in t.unlocks.governments}
    for building in ruleset.buildings:
        if building.id not in unlocked_b:
            yield diagnostic(
                "T007",
                f"no technology unlocks building `{building.id}`",
                building.origin.head(),
                "add it to a technology's unlocks",
                subjects=(building.id,),
            )
    for gov in ruleset.governments:
        if not gov.starting and not gov.transitional and gov.id not in unlocked_g:
            yield diagnostic(
                "T007",
                f"no technology unlocks government `{gov.id}`",
                gov.origin.head(),
                "add it to a technology's unlocks",
                subjects=(gov.id,),
            )
