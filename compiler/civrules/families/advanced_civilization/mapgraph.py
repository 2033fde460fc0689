"""The map as graphs: areas are nodes, borders are edges (networkx).

One map, three views, built once per ruleset and shared by the map checks, code generation and the
map sheet:

- ``all``: every border, whatever its kind (a border of unknown kind included);
- ``land``: land and both borders, the borders tokens cross (4.31, 4.33);
- ``sea``: sea and both borders, the borders ships cross (4.32, 4.33, 23.52).

Every area is a node of every view, so an area without sea borders is an isolated node of the sea
view. A border naming an area that does not exist is left out (X001 reports it), and so is a border
from an area to itself; of a pair declared twice the first border counts (M001 reports the other).
The graphs are frozen: a caller that wants to change one works on a copy.

Examples
--------
>>> graph = build_map_graph(["a", "b", "c"], [("a", "b", "land"), ("b", "c", "both")])
>>> graph.neighbours("b", "sea")
('c',)
>>> graph.kind("c", "b")
'both'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import networkx as nx

from civrules.families.advanced_civilization.model import Border, Ruleset

#: Border kinds that count as land borders (4.33: a border crossing land and sea is both).
LAND_KINDS = frozenset({"land", "both"})
#: Border kinds that count as sea borders.
SEA_KINDS = frozenset({"sea", "both"})

GraphKind = Literal["all", "land", "sea"]


def pair(a: str, b: str) -> tuple[str, str]:
    """The unordered pair ``{a, b}`` as a tuple in id order: the key of a border."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class MapGraph:
    """The three views of one map and the border behind each edge.

    ``borders`` maps each pair (:func:`pair`) to its first :class:`Border`; it is empty for a graph
    built from plain tuples.
    """

    all: Any
    land: Any
    sea: Any
    borders: Mapping[tuple[str, str], Border]

    def view(self, kind: GraphKind = "all") -> Any:
        """The graph of ``kind``: ``all``, ``land`` (land and both) or ``sea`` (sea and both)."""
        if kind == "all":
            return self.all
        if kind == "land":
            return self.land
        if kind == "sea":
            return self.sea
        raise ValueError(f"unknown graph kind {kind!r}")

    def neighbours(self, area: str, kind: GraphKind = "all") -> tuple[str, ...]:
        """The areas across a border of ``kind`` from ``area``, in id order (none for an unknown area)."""
        graph = self.view(kind)
        if area not in graph:
            return ()
        return tuple(sorted(graph.adj[area]))

    def kind(self, a: str, b: str) -> str | None:
        """The kind of the border between ``a`` and ``b`` (``unknown`` if not given), or None if none."""
        if not self.all.has_edge(a, b):
            return None
        kind: str = self.all.edges[a, b]["kind"]
        return kind

    def border(self, a: str, b: str) -> Border | None:
        """The (first) border declared between ``a`` and ``b``."""
        return self.borders.get(pair(a, b))


def build_map_graph(
    areas: Iterable[str],
    borders: Iterable[tuple[str, str, str]],
    declared: Mapping[tuple[str, str], Border] | None = None,
) -> MapGraph:
    """The map graph of ``areas`` (ids, in data order) and ``borders`` given as ``(a, b, kind)``.

    Borders to areas not in ``areas``, from an area to itself, and repeats of a pair are skipped.
    """
    every = nx.Graph()
    land = nx.Graph()
    sea = nx.Graph()
    for graph in (every, land, sea):
        graph.add_nodes_from(areas)
    for a, b, kind in borders:
        if a == b or a not in every or b not in every or every.has_edge(a, b):
            continue
        every.add_edge(a, b, kind=kind)
        if kind in LAND_KINDS:
            land.add_edge(a, b, kind=kind)
        if kind in SEA_KINDS:
            sea.add_edge(a, b, kind=kind)
    return MapGraph(nx.freeze(every), nx.freeze(land), nx.freeze(sea), dict(declared or {}))


def _build(ruleset: Ruleset) -> MapGraph:
    first: dict[tuple[str, str], Border] = {}
    for border in ruleset.borders:
        if border.a != border.b and border.a in ruleset.areas and border.b in ruleset.areas:
            first.setdefault(pair(border.a, border.b), border)
    return build_map_graph(ruleset.areas.by_id, ((b.a, b.b, b.kind) for b in first.values()), first)


# The graphs of the last few rulesets, by identity: checks, emitters and sheets ask for the same
# ruleset's graph many times, and a Ruleset (frozen, with dict fields) can be neither hashed nor
# weakly referenced. Holding the ruleset keeps its id from being reused while it is cached.
_CACHE: list[tuple[Ruleset, MapGraph]] = []
_CACHE_SIZE = 4


def map_graph(ruleset: Ruleset) -> MapGraph:
    """The map graph of a ruleset (built once, then cached)."""
    for cached, graph in _CACHE:
        if cached is ruleset:
            return graph
    graph = _build(ruleset)
    _CACHE.insert(0, (ruleset, graph))
    del _CACHE[_CACHE_SIZE:]
    return graph


def forget(ruleset: Ruleset) -> None:
    """Let go of the ruleset's graphs (the family's ``checked`` hook: a build, once the ruleset is
    checked; code generation and the sheets read :func:`adjacency`). At 50× the synthetic map's
    three graphs held 13 MB, and the cache kept the model alive."""
    _CACHE[:] = [(cached, graph) for cached, graph in _CACHE if cached is not ruleset]


def adjacency(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """Each area (in data order) and, by neighbour, the kind of the border between them: the
    ``all`` view of :func:`map_graph` in plain dicts, made without networkx and not kept. The same
    borders count (of a pair declared twice the first; none to an unknown area or to itself).
    """
    found: dict[str, dict[str, Any]] = {area: {} for area in ruleset.areas.by_id}
    for border in ruleset.borders:
        a, b = border.a, border.b
        if a == b or a not in found or b not in found or b in found[a]:
            continue
        found[a][b] = border.kind
        found[b][a] = border.kind
    return found


def neighbours(ruleset: Ruleset, area: str, kind: GraphKind = "all") -> tuple[str, ...]:
    """The areas across a border of ``kind`` (``all``, ``land`` or ``sea``) from ``area``, in id order."""
    return map_graph(ruleset).neighbours(area, kind)


def derived_coastal(ruleset: Ruleset) -> dict[str, bool]:
    """Whether each area is coastal by its borders: it has land and a sea or both border (4.24).

    Lakes are not told apart (no source marks them), so an area whose only water is a lake with
    sea borders would come out coastal here.
    """
    sea = map_graph(ruleset).sea
    return {area.id: area.land and sea.degree(area.id) > 0 for area in ruleset.areas.by_id.values()}
