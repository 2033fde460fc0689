"""The culture track: costs never fall, it ends on the culture victory."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Severity
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


@check(
    "T013",
    "culture-cost-falls",
    Severity.ERROR,
    reads=(
        "spaces.cost",
        "spaces.position",
    ),
)
@made_of("spaces")
def check_culture_costs(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a space of the culture track costs less culture or trade than the space before it.

    Why: the higher the track, the dearer it is: higher spaces cost trade as well as culture (p8).

    Fix: give the space at least the previous space's costs.

        - {id: space_08, position: 8, cost: {culture: 2, trade: 3}}   # FAIL after 3 culture
    """
    spaces = sorted(ruleset.spaces, key=lambda s: s.position)
    for low, high in itertools.pairwise(spaces):
        if isinstance(low.cost, tuple) and isinstance(high.cost, tuple):  # noqa: SIM102
            if high.cost[0] < low.cost[0] or high.cost[1] < low.cost[1]:
                yield diagnostic(
                    "T013",
                    f"space {high.position} costs {high.cost[0]} culture and {high.cost[1]} trade, less than space {low.position}'s {low.cost[0]} and {low.cost[1]}",  # noqa: E501
                    high.origin.span("cost"),
                    "costs never fall along the track",
                    subjects=(high.id, low.id),
                )


@check(
    "T014",
    "culture-track-does-not-end-in-victory",
    Severity.ERROR,
    reads=(
        "spaces.kind",
        "spaces.position",
    ),
)
@made_of("spaces")
def check_track_end(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: the culture track's last space is not the culture victory, or a victory space is not last.

    Why: the culture victory is reaching the end of the track (p8, p13).

    Fix: make the last space, and only it, of kind culture_victory.

        - {id: space_10, position: 10, kind: culture_victory}   # FAIL when spaces follow it
    """
    spaces = sorted(ruleset.spaces, key=lambda s: s.position)
    for space in spaces[:-1]:
        if space.kind == "culture_victory":
            yield diagnostic(
                "T014",
                f"space {space.position} is a culture victory but is not the last space",
                space.origin.span("kind"),
                "only the last space is the victory",
                subjects=(space.id,),
            )
    if spaces and spaces[-1].kind != "culture_victory":
        yield diagnostic(
            "T014",
            f"the last space ({spaces[-1].position}) is not the culture victory",
            spaces[-1].origin.span("kind"),
            "make it kind culture_victory",
            subjects=(spaces[-1].id,),
        )
