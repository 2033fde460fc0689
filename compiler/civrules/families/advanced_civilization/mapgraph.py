"""The map as graphs: areas are nodes, borders are edges (networkx, imported where an algorithm runs).

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

import weakref
from collections.abc import Collection as Many
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from civrules.families.advanced_civilization.model import Area, Border, Ruleset
from civrules.model import Collection
from civrules.support import memo
from civrules.support.walks import connected

#: Border kinds that count as land borders (4.33: a border crossing land and sea is both).
LAND_KINDS = frozenset({"land", "both"})
#: Border kinds that count as sea borders.
SEA_KINDS = frozenset({"sea", "both"})

GraphKind = Literal["all", "land", "sea"]


def pair(a: str, b: str) -> tuple[str, str]:
    """The unordered pair ``{a, b}`` as a tuple in id order: the key of a border."""
    return (a, b) if a <= b else (b, a)


def _views_of(kind: str) -> tuple[GraphKind, ...]:
    """The views a border of ``kind`` is an edge of."""
    return ("all", *(("land",) if kind in LAND_KINDS else ()), *(("sea",) if kind in SEA_KINDS else ()))


class MapGraph:
    """The three views of one map and the border behind each edge.

    The lookups (neighbours, kinds, degrees) and the question every ruleset asks (does a set of
    areas hang together) are answered from plain adjacency mappings; ``all``, ``land`` and ``sea``
    are the views as frozen networkx graphs, built (and networkx imported) on first use, for the
    graph algorithms of a diagnostic and the map picture's layout (issue 32, point 5: importing
    networkx was a sixth of a whole-process `validate`).

    ``borders`` maps each pair (:func:`pair`) to its first :class:`Border`; it is empty for a graph
    built from plain tuples.
    """

    __slots__ = ("_adjacency", "_edges", "_nodes", "_views", "borders")

    def __init__(
        self,
        nodes: tuple[str, ...],
        edges: tuple[tuple[str, str, str], ...],
        borders: Mapping[tuple[str, str], Border],
    ) -> None:
        self._nodes = nodes
        self._edges = edges
        self.borders = borders
        self._adjacency: dict[GraphKind, dict[str, dict[str, str]]] = {
            kind: {node: {} for node in nodes} for kind in ("all", "land", "sea")
        }
        for a, b, kind in edges:
            for view in _views_of(kind):
                adjacency = self._adjacency[view]
                adjacency[a][b] = adjacency[b][a] = kind
        self._views: dict[GraphKind, Any] = {}

    def sharing(self, borders: Mapping[tuple[str, str], Border]) -> MapGraph:
        """A graph of the same areas and edges with ``borders`` behind them: the adjacency and the
        networkx views (built or still to be built) are shared, never copied."""
        graph = MapGraph.__new__(MapGraph)
        graph._nodes, graph._edges, graph.borders = self._nodes, self._edges, borders
        graph._adjacency, graph._views = self._adjacency, self._views
        return graph

    def adjacency(self, kind: GraphKind = "all") -> Mapping[str, Mapping[str, str]]:
        """Each area's neighbours across a border of ``kind``, with the border's kind."""
        if kind not in self._adjacency:
            raise ValueError(f"unknown graph kind {kind!r}")
        return self._adjacency[kind]

    def view(self, kind: GraphKind = "all") -> Any:
        """The frozen networkx graph of ``kind``: ``all``, ``land`` (land and both) or ``sea`` (sea and both)."""
        self.adjacency(kind)
        if kind not in self._views:
            import networkx as nx  # only where a graph algorithm runs (see the class)

            graph = nx.Graph()
            graph.add_nodes_from(self._nodes)
            for a, b, border_kind in self._edges:
                if kind in _views_of(border_kind):
                    graph.add_edge(a, b, kind=border_kind)
            self._views[kind] = nx.freeze(graph)
        return self._views[kind]

    @property
    def all(self) -> Any:
        return self.view("all")

    @property
    def land(self) -> Any:
        return self.view("land")

    @property
    def sea(self) -> Any:
        return self.view("sea")

    def neighbours(self, area: str, kind: GraphKind = "all") -> tuple[str, ...]:
        """The areas across a border of ``kind`` from ``area``, in id order (none for an unknown area)."""
        return tuple(sorted(self.adjacency(kind).get(area, ())))

    def degree(self, area: str, kind: GraphKind = "all") -> int:
        """How many areas border ``area`` by a border of ``kind`` (0 for an unknown area)."""
        return len(self.adjacency(kind).get(area, ()))

    def kind(self, a: str, b: str) -> str | None:
        """The kind of the border between ``a`` and ``b`` (``unknown`` if not given), or None if none."""
        return self._adjacency["all"].get(a, {}).get(b)

    def has_edge(self, a: str, b: str, kind: GraphKind = "all") -> bool:
        """Whether a border of ``kind`` joins ``a`` and ``b``."""
        return b in self.adjacency(kind).get(a, {})

    def connected(self, areas: Many[str], kind: GraphKind = "all") -> bool:
        """Whether ``areas`` hang together by borders of ``kind`` between themselves."""
        return connected(self.adjacency(kind), areas)

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
    nodes = tuple(dict.fromkeys(areas))
    known = set(nodes)
    seen: set[tuple[str, str]] = set()
    edges = []
    for a, b, kind in borders:
        if a == b or a not in known or b not in known or pair(a, b) in seen:
            continue
        seen.add(pair(a, b))
        edges.append((a, b, kind))
    return MapGraph(nodes, tuple(edges), dict(declared or {}))


#: What the three views are made of: the area ids and the first border of each pair, in data order.
_Shape = tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]


def _shape(ruleset: Ruleset) -> tuple[_Shape, dict[tuple[str, str], Border]]:
    first: dict[tuple[str, str], Border] = {}
    # the areas' index itself, not the collection's `in` (a Python call per border's side: 18,560
    # at 13 times the shipped map)
    areas = ruleset.areas.by_id
    for border in ruleset.borders:
        if border.a != border.b and border.a in areas and border.b in areas:
            first.setdefault(pair(border.a, border.b), border)
    return (tuple(areas), tuple((b.a, b.b, b.kind) for b in first.values())), first


# The graph of each ruleset, by identity, for as long as the ruleset lives: checks, emitters and
# sheets ask for the same ruleset's graph many times. A ruleset whose map has the shape of a recent
# one's (a variant that leaves its base's map as it is; the same map assembled again after an edit
# elsewhere, in a long-running session) shares that one's adjacency and views, with its own
# borders: each map's views are built once.
_CACHE: memo.Attached[Ruleset, tuple[MapGraph, _Shape, MapGraph]] = memo.Attached()
#: The most recently used maps' areas and edges, each with a graph of them without borders (what a
#: graph of the same shape shares): a model's own graph holds its borders, and so its documents,
#: and is kept no longer than the model (kept here, the last four kept their models' documents
#: alive). A ruleset's graph asked for again puts its shape first again, so a cached ruleset's map
#: is always one a new ruleset of the same shape shares.
_SHAPES: list[tuple[_Shape, MapGraph]] = []
_CACHE_SIZE = 4


#: The graph of each list of borders (with the areas it was made with), for as long as it lives:
#: the graph is made of the ruleset's areas and borders alone, and a variant that leaves its base's
#: map as it is holds the base's very collections. Without it each of them looked through every
#: border again to find its map's shape (after an edit of a base's map under ten variants, eleven
#: times the same borders).
_BY_BORDERS: memo.Attached[
    Collection[Border], tuple[weakref.ref[Collection[Area]], tuple[MapGraph, _Shape, MapGraph]]
] = memo.Attached()


def map_graph(ruleset: Ruleset) -> MapGraph:
    """The map graph of a ruleset (built once, then cached)."""
    cached = _CACHE.get(ruleset)
    if cached is not None:
        graph, shape, same = cached
        _recent(shape, same)
        return graph
    areas, borders = ruleset.areas, ruleset.borders
    made = _BY_BORDERS.get(borders)
    if made is not None and made[0]() is areas:
        _CACHE.put(ruleset, made[1])
        _recent(made[1][1], made[1][2])
        return made[1][0]
    shape, first = _shape(ruleset)
    kept = next((views for known, views in _SHAPES if known == shape), None)
    views = kept if kept is not None else build_map_graph(shape[0], shape[1])
    _recent(shape, views)
    built = views.sharing(first)
    _CACHE.put(ruleset, (built, shape, views))
    _BY_BORDERS.put(borders, (weakref.ref(areas), (built, shape, views)))
    return built


def _recent(shape: _Shape, same: MapGraph) -> None:
    """Put ``shape`` (with its borderless graph) first among the shapes kept."""
    if _SHAPES and _SHAPES[0][1] is same:
        return
    _SHAPES[:] = [(shape, same), *(entry for entry in _SHAPES if entry[1] is not same)][:_CACHE_SIZE]


def forget(ruleset: Ruleset) -> None:
    """Let go of the ruleset's graphs (the family's ``checked`` hook: a build, once the ruleset is
    checked; code generation and the sheets read :func:`adjacency`). At 50× the synthetic map's
    three views held 13 MB as networkx graphs, and the cache kept the model alive."""
    cached = _CACHE.get(ruleset)
    if cached is not None:
        _CACHE.pop(ruleset)
        _SHAPES[:] = [entry for entry in _SHAPES if entry[1] is not cached[2]]
    _BY_BORDERS.pop(ruleset.borders)


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
    graph = map_graph(ruleset)
    return {area.id: area.land and graph.degree(area.id, "sea") > 0 for area in ruleset.areas.by_id.values()}
