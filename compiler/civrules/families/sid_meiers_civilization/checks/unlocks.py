"""Unlocks: every unit rank a technology unlocks exists, and every building, government and unit
rank a player can build is unlocked by something or available from the start."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Related, Severity, blanks
from civrules.families.sid_meiers_civilization.checks import cannot_judge
from civrules.families.sid_meiers_civilization.model import (
    Building,
    CivilizationRuleset,
    Government,
    Technology,
    Unlocks,
)
from civrules.model import Entity, Unknown


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
    Where some technologies' unlocks are unknown, the check cannot judge what they might unlock
    and says so once; it still judges what they cannot hide: an item a technology unlocks as its
    file defines it, that a variant's change (a patch of its unlocks, its removal) leaves unlocked
    by no technology whose unlocks are known, and an item a variant adds, which no technology whose
    unlocks were left unknown before it existed can name.

    Fix: add it to the `unlocks` of the technology that unlocks it (in a variant, in a patch of
    that technology in `overlay.technologies`), or undo the change that took its unlock away.

        buildings:
          - {id: porto, ...}   # FAIL when no technology lists porto in its unlocks
    """
    unknown = [t for t in ruleset.technologies if isinstance(t.unlocks, Unknown)]
    silent = [t for t in ruleset.technologies if isinstance(t.unlocks, Unlocks) and not t.unlocks.stated]
    if unknown or silent:
        yield cannot_judge(
            "T007",
            f"what is unlocked cannot be judged: {len(unknown) + len(silent)} technologies have no known unlocks",
            ruleset.manifest.span("id"),
            "give every technology's unlocks",
            subjects=(*(t.id for t in unknown), *(t.id for t in silent)),
        )
    open_ = {t.id: ruleset.layer(t.origin, "unlocks") for t in (*unknown, *silent)}
    known = [t.unlocks for t in ruleset.technologies if isinstance(t.unlocks, Unlocks)]
    # what each technology unlocks as its file defines it, before a variant's change (the first of them)
    defined: dict[tuple[str, str], Technology] = {}
    for tech in ruleset.defined_technologies:
        if isinstance(tech.unlocks, Unlocks):
            for kind, ids in (("building", tech.unlocks.buildings), ("government", tech.unlocks.governments)):
                for one in ids:
                    defined.setdefault((kind, one), tech)
    unlocked = {("building", b) for u in known for b in u.buildings} | {
        ("government", g) for u in known for g in u.governments
    }
    needed: list[tuple[str, Building | Government]] = [("building", b) for b in ruleset.buildings]
    needed += [("government", g) for g in ruleset.governments if not g.starting and not g.transitional]
    variant = len(ruleset.chain) > 1
    for kind, item in needed:
        if (kind, item.id) in unlocked:
            continue
        was = defined.get((kind, item.id))
        message = f"no technology unlocks {kind} `{item.id}`"
        related: list[Related] = []
        if was is not None and was.id not in open_:
            # the data gave it an unlock, which a change took away: no unknown unlock stands for it
            message += (
                f" any more: `{was.id}` unlocks it as defined, and no other technology whose unlocks are known does"
            )
            related.append(Related(was.origin.span("unlocks"), f"`{was.id}` unlocks it here"))
        elif open_ and not all(layer < _defined_in(ruleset, item) for layer in open_.values()):
            continue  # a technology whose unlocks are unknown may unlock it
        yield diagnostic(
            "T007",
            message,
            item.origin.head(),
            _unlock_hint(kind, item.id) if variant else "add it to a technology's unlocks",
            related,
            subjects=(item.id,),
            # moved to the variant's change that took the unlock away, which the hint then ends undoing
            from_variant=_unlock_hint(kind, item.id) if variant else None,
        )


def _defined_in(ruleset: CivilizationRuleset, item: Entity) -> int:
    """The position in the chain of the ruleset whose file first defines ``item`` (a `replace` of
    it stands for its earliest definition): no technology whose unlocks an earlier ruleset left
    unknown can name it."""
    first = item.origin.replaced[0] if item.origin.replaced else item.origin
    return ruleset.layers.get(first.file, 0)


def _unlock_hint(kind: str, item: str) -> str:
    """How a variant gives ``item`` an unlock: the patch of a technology that names it."""
    tech = blanks.blank("the technology's id")
    return (
        f'name a technology that unlocks it, in `overlay.technologies`: `patch: [{{id: "{tech}", '
        f'unlocks: {{{kind}s: {{append: [{item}]}}}}, source: "{blanks.HOUSE_RULE}"}}]`'
    )
