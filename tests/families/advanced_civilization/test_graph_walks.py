"""The walks that answer a clean ruleset's graph questions without networkx give networkx's answers.

A clean `validate` of an Advanced Civilization ruleset imports no networkx (issue 32, point 5:
start-up); the walks (:mod:`civrules.support.walks`), the map graph's lookups and the greedy group
matching are held equal here to the networkx algorithms they stand in for, on the shipped rulesets
and on small random graphs (seeded, so every run tests the same cases).
"""

from __future__ import annotations

import doctest
import itertools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import pytest

import civrules.support.walks
from civrules.families.advanced_civilization.checks.cards import (
    Prerequisites,
    arrow,
    cyclic_cards,
    prerequisite_graph,
)
from civrules.families.advanced_civilization.mapgraph import map_graph
from civrules.families.advanced_civilization.model import Card, Ruleset, of_family
from civrules.families.advanced_civilization.succession import groups_covered
from civrules.support.walks import acyclic, connected, reachable
from tests import lazy
from tests.conftest import RULES
from tests.core.test_startup import _imports
from tests.rulefiles import shipped_analysis

if TYPE_CHECKING:
    import networkx as nx
else:  # imported by the tests that use it, on the worker that runs this module (tests/lazy.py)
    nx = lazy.module("networkx")

SHIPPED = ("advanced-civilization", "expansion-project", "mega-civilization")


@pytest.fixture(scope="module", params=SHIPPED)
def ruleset(request: pytest.FixtureRequest) -> Ruleset:
    analysis = shipped_analysis(request.param)
    assert analysis.model is not None
    return of_family(analysis.model)


def test_module_examples() -> None:
    assert doctest.testmod(civrules.support.walks).failed == 0


def test_a_clean_validate_of_an_advanced_civilization_ruleset_imports_no_networkx() -> None:
    (imported,) = _imports(["--rules", str(RULES), "validate", "mega-civilization"])
    assert "civrules.families.advanced_civilization.checks" in imported
    assert not [m for m in imported if m.startswith("networkx")], imported


def test_prerequisite_walks_equal_networkx_on_the_shipped_cards(ruleset: Ruleset) -> None:
    graph = prerequisite_graph(ruleset)
    digraph = graph.graph
    assert list(graph) == list(digraph) and graph.acyclic() == nx.is_directed_acyclic_graph(digraph)
    assert cyclic_cards(graph) == set()
    for card in graph:
        assert set(graph.closure().cards(graph.closure().below[card])) == nx.descendants(digraph, card)
        assert graph.ancestors(card) == nx.ancestors(digraph, card)


def test_map_lookups_equal_networkx_on_the_shipped_maps(ruleset: Ruleset) -> None:
    graph = map_graph(ruleset)
    for kind in ("all", "land", "sea"):
        view = graph.view(kind)
        for area in view:
            assert graph.degree(area, kind) == view.degree(area)
            assert graph.neighbours(area, kind) == tuple(sorted(view.adj[area]))
        assert graph.connected(list(view), kind) == (len(view) < 2 or nx.is_connected(view))
    for a, b in itertools.islice(itertools.combinations(graph.all, 2), 5000):
        assert graph.has_edge(a, b) == graph.all.has_edge(a, b)
        assert graph.kind(a, b) == (graph.all.edges[a, b]["kind"] if graph.all.has_edge(a, b) else None)


def _random_digraph(rng: random.Random, nodes: int, edges: int) -> dict[str, list[str]]:
    names = [f"n{i}" for i in range(nodes)]
    adjacency: dict[str, list[str]] = {name: [] for name in names}
    for _ in range(edges):
        adjacency[rng.choice(names)].append(rng.choice(names))
    return adjacency


def test_walks_equal_networkx_on_random_graphs() -> None:
    rng = random.Random(32)
    for _ in range(300):
        adjacency = _random_digraph(rng, rng.randint(1, 9), rng.randint(0, 14))
        digraph = nx.DiGraph()
        digraph.add_nodes_from(adjacency)
        digraph.add_edges_from((a, b) for a, targets in adjacency.items() for b in targets)
        assert acyclic(adjacency) == nx.is_directed_acyclic_graph(digraph)
        for node in adjacency:
            assert reachable(adjacency, node) == nx.descendants(digraph, node)
        undirected = digraph.to_undirected()
        both = {n: list(undirected.adj[n]) for n in undirected}
        among = rng.sample(sorted(adjacency), rng.randint(0, len(adjacency)))
        assert connected(both, among) == (len(among) < 2 or nx.is_connected(undirected.subgraph(among)))


def test_the_closure_of_the_prerequisites_equals_a_walk_from_each_card() -> None:
    """``Closure`` (every card's transitive prerequisites as bits, made in one pass; over the strongly
    connected components where there are cycles) answers as a walk from each card does."""
    rng = random.Random(32)
    for _ in range(300):
        adjacency = _random_digraph(rng, rng.randint(1, 12), rng.randint(0, 20))
        graph = Prerequisites({node: list(dict.fromkeys(targets)) for node, targets in adjacency.items()})
        closure = graph.closure()
        assert closure is graph.closure()
        for node in adjacency:
            below = reachable(adjacency, node)
            assert set(closure.cards(closure.below[node])) == below, (adjacency, node)
            assert closure.cards(closure.below[node]) == [n for n in adjacency if n in below]  # data order
            assert [other for other in adjacency if closure.holds(node, other)] == closure.cards(closure.below[node])
            assert closure.cards(closure.below[node], 2) == closure.cards(closure.below[node])[:2]
        assert closure.mask(adjacency) == (1 << len(adjacency)) - 1


def test_a_prerequisite_path_is_a_shortest_one_and_a_long_one_is_shown_by_its_ends() -> None:
    rng = random.Random(32)
    for _ in range(200):
        adjacency = _random_digraph(rng, rng.randint(1, 12), rng.randint(0, 20))
        graph = Prerequisites({node: list(dict.fromkeys(targets)) for node, targets in adjacency.items()})
        for source in adjacency:
            for target in reachable(adjacency, source):
                route = graph.shortest_path(source, target)
                assert route.length == nx.shortest_path_length(graph.graph, source, target) + 1
                assert not route.tail and route.head[0] == source and route.head[-1] == target
                assert all(b in adjacency[a] for a, b in itertools.pairwise(route.head))
    chain = Prerequisites({f"c{i}": [f"c{i + 1}"] for i in range(5000)} | {"c5000": []})
    route = chain.shortest_path("c0", "c5000")
    assert (route.head, route.tail, route.length) == (
        ("c0", "c1", "c2", "c3"),
        ("c4997", "c4998", "c4999", "c5000"),
        5001,
    )
    assert arrow(route) == "`c0` → `c1` → `c2` → `c3` → … 4,993 more … → `c4997` → `c4998` → `c4999` → `c5000`"
    assert arrow(["a", "b", "c"]) == arrow(chain.shortest_path("c0", "c2")).replace("c0", "a").replace(
        "c1", "b"
    ).replace("c2", "c")


@dataclass(frozen=True)
class _Card:
    id: str
    groups: tuple[str, ...]

    def group_list(self) -> tuple[str, ...]:
        return self.groups


def test_groups_covered_equals_a_maximum_matching_on_random_hands() -> None:
    rng = random.Random(32)
    groups = ["crafts", "sciences", "arts", "civics", "religion"]
    for _ in range(500):
        hand = [
            _Card(f"c{rng.randint(0, 7)}", tuple(rng.sample(groups, rng.randint(0, 2))))
            for _ in range(rng.randint(0, 6))
        ]
        graph = nx.Graph()
        graph.add_nodes_from(("card", card.id) for card in hand)
        graph.add_edges_from((("card", card.id), ("group", g)) for card in hand for g in card.groups)
        top: list[Any] = [("card", card.id) for card in hand]
        expected = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=top)) // 2
        assert groups_covered(cast(list[Card], hand), count_both=False) == expected, hand
