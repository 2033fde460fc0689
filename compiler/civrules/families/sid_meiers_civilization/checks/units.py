"""Units: costs rise by rank, strengths rise by one a rank, trumps name real types."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Severity, words
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


@check("T010", "unit-rank-inconsistent", Severity.ERROR, reads=("unit_types.ranks",))
@made_of("unit_types")
def check_ranks(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a unit rank costs no more than the rank below, or its strengths are not the rank below's
    plus one (the rulebook: 5, 7, 9, 11; strength 1 to 3 at rank 1, +1 a rank, p6).

    Why: upgrading units makes them dearer and stronger by one; a rank that breaks this is a typo.

    Fix: give the rank its cost and strength range.

        ranks:
          - {rank: 2, cost: 7, strength: {min: 2, max: 5}}   # FAIL: rank 1 is 1-3
    """
    for unit in ruleset.unit_types:
        ranks = sorted(unit.ranks, key=lambda r: r.rank)
        for at, (low, high) in enumerate(itertools.pairwise(ranks)):
            if isinstance(low.cost, int) and isinstance(high.cost, int) and high.cost <= low.cost:
                higher = ranks[at + 2] if at + 2 < len(ranks) else None
                ceiling = higher.cost if higher is not None and isinstance(higher.cost, int) else None
                fits = words.between(low.cost, ceiling)
                yield diagnostic(
                    "T010",
                    f"`{unit.id}` rank {high.rank} costs {high.cost}, not more than rank {low.rank}'s {low.cost}",
                    unit.origin.span("ranks", high.index, "cost"),
                    f"make it {fits}"
                    if fits is not None
                    else f"no cost fits between rank {low.rank}'s {low.cost} and the rank above's {ceiling}: "
                    "change those too",
                    subjects=(unit.id,),
                )
            if isinstance(low.strength, tuple) and isinstance(high.strength, tuple):
                want = (low.strength[0] + 1, low.strength[1] + 1)
                if high.strength != want:
                    yield diagnostic(
                        "T010",
                        f"`{unit.id}` rank {high.rank} has strength {high.strength[0]}-{high.strength[1]}; one rank above {low.strength[0]}-{low.strength[1]} it is {want[0]}-{want[1]}",  # noqa: E501
                        unit.origin.span("ranks", high.index, "strength"),
                        f"strength {want[0]} to {want[1]}",
                        subjects=(unit.id,),
                    )


@check(
    "T011",
    "trumps-form-no-cycle",
    Severity.WARNING,
    reads=(
        "unit_types.available_at_start",
        "unit_types.never_trumped",
        "unit_types.trumps",
    ),
)
@made_of("unit_types")
def check_trumps(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: the basic unit types' trumps do not form one rock-paper-scissors cycle (p16), or a type
    that is never trumped is trumped by another.

    Why: every basic type must beat one and lose to one; otherwise one type dominates.

    Fix: make each basic type trump a different one.

        - {id: artilharia, trumps: cavalaria}   # FAIL when cavalry already trumps artillery
    """
    basic = [u for u in ruleset.unit_types if u.available_at_start]
    targets = [u.trumps for u in basic]
    never = {u.id for u in ruleset.unit_types if u.never_trumped}
    for unit in ruleset.unit_types:
        if unit.trumps in never:
            yield diagnostic(
                "T011",
                f"`{unit.id}` trumps `{unit.trumps}`, which can never be trumped",
                unit.origin.span("trumps"),
                "remove the trump",
                subjects=(unit.id, unit.trumps),
            )
    if basic and sorted(t or "" for t in targets) != sorted(u.id for u in basic):
        unit = basic[0]
        yield diagnostic(
            "T011",
            f"the basic unit types trump {', '.join(t or 'nothing' for t in targets)}: not each of {', '.join(u.id for u in basic)} once",  # noqa: E501
            unit.origin.span("trumps"),
            "each basic type trumps one other",
            subjects=(u.id for u in basic),
        )
