"""The technology pyramid: the technologies the data holds can complete it, one sits on top, and
the minimums the rulebook gives add up."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from civrules.checks import check, diagnostic, setting
from civrules.diagnostics import Diagnostic, Severity, words
from civrules.families.sid_meiers_civilization.checks import cannot_judge
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset, levels_of


def _minimums(ruleset: CivilizationRuleset) -> dict[int, int]:
    return {
        int(m["level"]): int(m["count"])
        for m in ruleset.rule("pyramid").get("minimums") or ()
        if isinstance(m, dict) and isinstance(m.get("level"), int) and isinstance(m.get("count"), int)
    }


@check("T001", "pyramid-cannot-be-completed", Severity.ERROR, reads=("technologies.level", setting("pyramid")))
def check_pyramid_complete(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: some level of the pyramid holds fewer technologies than the technology victory needs
    there (the rulebook: at least 5, 4, 3 and 2 at levels I-IV before Space Flight, p13).

    Why: a player who cannot fill a level can never research Space Flight; the technology victory
    is then impossible. Where technologies have no known level, the check cannot judge and says so
    once, as an info; unless even they cannot fill the rows, whatever their levels (a variant that
    removes technologies, say): the minimums ask more than the known levels give and they number.

    An empty top level is T002's (no technology has the top level): T001 does not report it again.

    Fix: give the missing technologies, or their levels.

        technologies:
          - {id: pottery, level: 1}   # FAIL when only four level-I technologies exist
    """
    minimums = _minimums(ruleset)
    counts, unknown = levels_of(list(ruleset.technologies))
    origin = ruleset.rule_origin("pyramid")
    span = origin.span("minimums") if origin is not None else ruleset.manifest.span()
    short = sum(max(0, need - counts.get(level, 0)) for level, need in minimums.items())
    if unknown and short > unknown:
        # whatever levels the technologies of no known level have, too few are left to fill the rows
        lacking = words.count(short - unknown, "technology", "technologies")
        yield diagnostic(
            "T001",
            f"the pyramid cannot be completed at any levels: its minimums ask "
            f"{words.count(short, 'technology', 'technologies')} more than the known levels give, and "
            f"{words.count(unknown, 'technology', 'technologies')} {'has' if unknown == 1 else 'have'} no known level",
            span,
            f"add at least {lacking}, with the levels the rows lack",
            subjects=("levels",),
            from_variant=f"in `overlay.technologies`, remove fewer technologies or add some, {lacking} more in all, "
            "with the levels the rows lack"
            if len(ruleset.chain) > 1
            else None,
        )
        return
    if unknown:
        yield cannot_judge(
            "T001",
            f"the pyramid cannot be judged: {words.count(unknown, 'technology', 'technologies')} "
            f"{'has' if unknown == 1 else 'have'} no known level",
            span,
            "the community variant gives every level",
            subjects=(t.id for t in ruleset.technologies if not isinstance(t.level, int)),
        )
        return
    top = ruleset.rule("pyramid").get("top_level")
    for level, need in sorted(minimums.items()):
        have = counts.get(level, 0)
        if have == 0 and level == top:
            continue  # the victory technology moved off the top: one cause, T002's finding
        if have < need:
            yield diagnostic(
                "T001",
                f"level {level} holds {have} technolog{'y' if have == 1 else 'ies'}; the technology victory needs {need}",  # noqa: E501
                span,
                f"add {need - have} level-{level} technolog{'y' if need - have == 1 else 'ies'}",
                subjects=(level,),
            )


@check("T002", "top-level-not-one-technology", Severity.ERROR, reads=("technologies.level", setting("pyramid")))
def check_top_level(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: the top level of the pyramid does not hold exactly one technology.

    Why: the rulebook makes Space Flight "the only level 5 technology" (p13); researching it is the
    technology victory. None makes that victory impossible; two make it ambiguous.

    Fix: keep one technology at the top level.

        technologies:
          - {id: fusion, level: 5}   # FAIL: a second level-5 technology
    """
    top = ruleset.rule("pyramid").get("top_level")
    if not isinstance(top, int):
        return
    at_top = [t for t in ruleset.technologies if t.level == top]
    if len(at_top) == 1:
        return
    if not at_top:
        origin = ruleset.rule_origin("pyramid")
        yield diagnostic(
            "T002",
            f"no technology has the top level {top}",
            origin.span("top_level") if origin else ruleset.manifest.span(),
            "give the victory technology the top level",
            subjects=("top_level",),
        )
        return
    for tech in at_top[1:]:
        yield diagnostic(
            "T002",
            f"technology `{tech.id}` is a second one at the top level {top} (after `{at_top[0].id}`)",
            tech.origin.span("level"),
            "only one technology may sit on top of the pyramid",
            subjects=(tech.id, at_top[0].id),
        )


@check("T003", "pyramid-minimums-inconsistent", Severity.ERROR, reads=(setting("pyramid"),))
def check_minimum_arithmetic(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: the pyramid's minimums do not fall by one per level to a single top technology, or they
    do not add up to the declared total.

    Why: each technology sits on two of the row below, so a row holds one more than the row above
    (5, 4, 3, 2, 1: 15 in all, p13). Minimums that break this describe no pyramid.

    Fix: correct the minimums or the total.

        pyramid: {minimums: [{level: 1, count: 5}, {level: 2, count: 5}], total: 15}   # FAIL
    """
    pyramid = ruleset.rule("pyramid")
    origin = ruleset.rule_origin("pyramid")
    if origin is None:
        return
    minimums = _minimums(ruleset)
    levels = sorted(minimums)
    top = pyramid.get("top_level")
    # Counted down from the single top technology, not from the row above: that row may be the wrong one.
    counts = (
        "; ".join(f"level {level} needs {top - level + 1}" for level in levels if level <= top)
        if isinstance(top, int)
        else None
    )
    for lower, upper in itertools.pairwise(levels):
        if minimums[lower] != minimums[upper] + 1:
            yield diagnostic(
                "T003",
                f"the pyramid's minimums say level {upper} needs {minimums[upper]} technologies and level "
                f"{lower} needs {minimums[lower]}: each row holds one more than the row above it",
                origin.span("minimums"),
                f"write the minimums one more a row down, counted from the top level {top}: {counts}"
                if counts
                else f"make level {lower} need {minimums[upper] + 1}",
                subjects=(upper, lower),
            )
    total = pyramid.get("total")
    if isinstance(total, int) and sum(minimums.values()) != total:
        yield diagnostic(
            "T003",
            f"the minimums add up to {sum(minimums.values())}, not the declared total {total}",
            origin.span("total"),
            # Where the minimums counted from the top add up to the total, a minimum is the slip.
            f"correct the minimums, which add up to {total} counted from the top level {top}: {counts}"
            if counts and isinstance(top, int) and sum(top - level + 1 for level in levels if level <= top) == total
            else f"make the total {sum(minimums.values())}, the sum of the minimums",
            subjects=("minimums", "total"),
        )
