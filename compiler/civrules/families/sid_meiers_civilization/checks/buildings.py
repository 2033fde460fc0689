"""Buildings: upgrades cost more than their base and upgrade no building in a circle, limited
buildings keep off water."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.support.walks import acyclic


def _upgrades(ruleset: CivilizationRuleset) -> dict[str, list[str]]:
    """The directed graph building → the building it upgrades (`upgrade_of`); an `upgrade_of` that
    names no building is X001's."""
    return {
        b.id: [b.upgrade_of] if isinstance(b.upgrade_of, str) and b.upgrade_of in ruleset.buildings else []
        for b in ruleset.buildings
    }


def _upgrade_cycles(ruleset: CivilizationRuleset) -> list[list[str]]:
    """Each cycle of upgrades once, as its path from the building of it that comes first in the data."""
    upgrades = _upgrades(ruleset)
    if acyclic(upgrades):
        return []
    import networkx as nx  # only where there is a cycle (see civrules.support.walks)

    order = {building: n for n, building in enumerate(upgrades)}
    graph = nx.DiGraph()
    graph.add_nodes_from(upgrades)
    graph.add_edges_from((building, base) for building, bases in upgrades.items() for base in bases)
    cycles = []
    for component in nx.strongly_connected_components(graph):
        start = min(component, key=order.__getitem__)
        if len(component) == 1 and not graph.has_edge(start, start):
            continue
        cycles.append([u for u, _ in nx.find_cycle(graph, source=start)])
    return sorted(cycles, key=lambda path: order[path[0]])


@check("T017", "building-upgrade-cycle", Severity.ERROR, reads=("buildings.upgrade_of",))
@made_of("buildings")
def check_upgrade_cycles(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: buildings upgrade each other in a circle (`upgrade_of`): a building that upgrades itself,
    or `a` upgrades `b` which upgrades `a`. The cycle is reported once, at the `upgrade_of` that
    closes it (the one naming the building of the cycle that comes first in the data), with a note
    at each other `upgrade_of` of it.

    Why: an upgraded building replaces the basic one it upgrades once its technology is known
    (p12, p13): in a circle no building of it is the basic one, so none can be built first, and a
    generated engine that follows upgrades to the basic building never gets there.

    Fix: remove the `upgrade_of` that is wrong (the rulebook's upgrades run one way: Granary to
    Aqueduct, Workshop to Iron Mine, ...).

        - {id: oficina, upgrade_of: mina_de_ferro}   # FAIL: the Iron Mine upgrades the Workshop
        - {id: porto, upgrade_of: porto}              # FAIL: the Harbour upgrades itself
    """
    for path in _upgrade_cycles(ruleset):
        closing = ruleset.buildings.by_id[path[-1]]
        if len(path) == 1:
            message = f"building `{closing.id}` upgrades itself: it can never be built"
        else:
            shown = " → ".join(f"`{b}`" for b in [*path, path[0]])
            message = f"building upgrade cycle {shown}: none of these buildings is a basic one to build first"
        yield diagnostic(
            "T017",
            message,
            closing.origin.span("upgrade_of"),
            "remove the `upgrade_of` that is wrong: an upgrade replaces a basic building that is no upgrade of it",
            [
                Related(ruleset.buildings.by_id[a].origin.span("upgrade_of"), f"`{a}` upgrades `{b}` here")
                for a, b in itertools.pairwise(path)
            ],
            subjects=path,
        )


@check(
    "T008",
    "upgrade-not-dearer-than-base",
    Severity.ERROR,
    reads=(
        "buildings.cost",
        "buildings.upgrade_of",
    ),
)
@made_of("buildings")
def check_upgrade_costs(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: an upgraded building costs no more than the basic building it upgrades (Granary 5,
    Aqueduct 8, p13).

    Why: once the upgrade is unlocked the player must build it instead of the basic one (p13);
    an upgrade that is not dearer is no trade-off.

    Fix: give the upgrade a higher cost (the hint gives the costs that fit between the building it
    upgrades and the buildings that upgrade it). Buildings on a cycle of upgrades are T017's.

        - {id: aqueduto, upgrade_of: celeiro, cost: 5}   # FAIL: the Granary costs 5
    """
    cyclic = {building for path in _upgrade_cycles(ruleset) for building in path}
    above: dict[str, list[int]] = {}  # the known costs of the buildings that upgrade each building
    for building in ruleset.buildings:
        if isinstance(building.upgrade_of, str) and isinstance(building.cost, int):
            above.setdefault(building.upgrade_of, []).append(building.cost)
    for building in ruleset.buildings:
        base = ruleset.buildings.get(building.upgrade_of) if isinstance(building.upgrade_of, str) else None
        if base is None or building.id in cyclic:
            continue
        if not isinstance(building.cost, int) or not isinstance(base.cost, int):
            continue
        if building.cost <= base.cost:
            ceiling = min(above.get(building.id, ()), default=None)
            fits = words.between(base.cost, ceiling)
            hint = (
                f"make it cost {fits}"
                if fits is not None
                else f"no cost fits between `{base.id}` ({base.cost}) and the building that upgrades it "
                f"({ceiling}): change one of those costs too"
            )
            yield diagnostic(
                "T008",
                f"building `{building.id}` costs {building.cost}, not more than `{base.id}` ({base.cost}) it upgrades",
                building.origin.span("cost"),
                hint,
                subjects=(building.id, base.id),
            )


@check(
    "T009",
    "limited-building-on-water",
    Severity.ERROR,
    reads=("buildings.limited", "buildings.terrains", "terrains.water"),
)
@made_of("buildings", "terrains")
def check_limited_terrain(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a limited (starred) building, or a building's terrain list, allows water where the rule
    does not: limited buildings go on "any terrain except water" (p6).

    Why: the table's rule for the starred row is one clause; a water square in its list is a typo.

    Fix: remove the water terrain.

        - {id: templo, limited: true, terrains: [agua, pradaria]}   # FAIL
    """
    water = {t.id for t in ruleset.terrains if t.water}
    for building in ruleset.buildings:
        if building.limited is True and isinstance(building.terrains, tuple):
            wet = [t for t in building.terrains if t in water]
            if wet:
                yield diagnostic(
                    "T009",
                    f"limited building `{building.id}` may stand on water ({', '.join(wet)})",
                    building.origin.span("terrains"),
                    "limited buildings go on any terrain except water",
                    subjects=(building.id,),
                )
