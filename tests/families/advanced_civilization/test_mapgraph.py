"""The map graph of the shipped main board, and the map checks on a map far larger than any real one."""

from __future__ import annotations

import collections
import dataclasses
import doctest
import itertools
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
import yaml

import civrules.families.advanced_civilization.mapgraph
from civrules.diagnostics import Severity
from civrules.families.advanced_civilization.mapgraph import derived_coastal, map_graph, neighbours
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.load.workspace import Workspace
from civrules.model import Collection
from civrules.pipeline import Analysis, analyse
from tests import lazy
from tests.conftest import RULES
from tests.rulefiles import shipped_analysis

if TYPE_CHECKING:
    import networkx as nx
else:  # imported by the tests that use it, on the worker that runs this module (tests/lazy.py)
    nx = lazy.module("networkx")

MAP_FILE = RULES / "maps" / "mediterranean.yaml"


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


def test_the_main_board_has_131_areas_and_its_borders_by_kind(ruleset: Ruleset) -> None:
    written = yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))
    kinds = collections.Counter(b["kind"] if isinstance(b["kind"], str) else "unknown" for b in written["borders"])
    assert len(written["areas"]) == 131
    assert kinds == {"land": 158, "sea": 124, "both": 73, "unknown": 1}

    graph = map_graph(ruleset)
    assert graph.all.number_of_nodes() == graph.land.number_of_nodes() == graph.sea.number_of_nodes() == 131
    assert graph.all.number_of_edges() == sum(kinds.values()) == 356
    assert graph.land.number_of_edges() == kinds["land"] + kinds["both"]
    assert graph.sea.number_of_edges() == kinds["sea"] + kinds["both"]
    assert nx.is_connected(graph.all)


def test_neighbours_by_kind(ruleset: Ruleset) -> None:
    assert neighbours(ruleset, "corinth") == ("argos", "athens", "central_mediterranean", "delphi", "sparta")
    assert neighbours(ruleset, "corinth", "land") == ("argos", "athens", "delphi", "sparta")
    assert neighbours(ruleset, "corinth", "sea") == ("central_mediterranean", "delphi", "sparta")
    # caucasus – media has a kind no source gives: a neighbour, but neither by land nor by sea
    assert neighbours(ruleset, "caucasus") == ("armenia", "caspian_sea", "lesser_armenia", "media", "nalchik")
    assert neighbours(ruleset, "caucasus", "land") == ("armenia", "lesser_armenia", "nalchik")
    assert neighbours(ruleset, "caucasus", "sea") == ("caspian_sea", "lesser_armenia")
    assert neighbours(ruleset, "black_sea", "land") == ()
    assert len(neighbours(ruleset, "black_sea", "sea")) == 12
    assert neighbours(ruleset, "atlantis") == ()


def test_border_lookup_is_unordered(ruleset: Ruleset) -> None:
    graph = map_graph(ruleset)
    assert graph.kind("syria", "aleppo") == graph.kind("aleppo", "syria") == "land"
    assert graph.kind("caucasus", "media") == "unknown"
    assert graph.kind("aleppo", "black_sea") is None
    border = graph.border("syria", "aleppo")
    assert border is not None and (border.a, border.b) == ("aleppo", "syria")


def test_map_graph_is_built_once_per_ruleset_and_frozen(ruleset: Ruleset) -> None:
    graph = map_graph(ruleset)
    assert map_graph(ruleset) is graph
    with pytest.raises(nx.NetworkXError):
        graph.land.add_edge("aleppo", "black_sea")


def test_a_map_of_the_same_shape_shares_the_views_of_a_cached_one_with_its_own_borders(ruleset: Ruleset) -> None:
    """A variant that leaves its base's map as it is, or the same map assembled again (a session
    after an edit elsewhere): another Ruleset, the same areas and borders in the same order."""
    graph = map_graph(ruleset)
    again = dataclasses.replace(
        ruleset, borders=Collection.of("borders", [dataclasses.replace(b) for b in ruleset.borders])
    )
    shared = map_graph(again)
    assert (shared.all, shared.land, shared.sea) == (graph.all, graph.land, graph.sea)
    assert shared.all is graph.all and shared.sea is graph.sea  # not built again
    border = shared.border("syria", "aleppo")
    assert (
        border is not None and border is again.borders.get(border.id) and border is not graph.border("syria", "aleppo")
    )
    # A border's kind changed, one left out: built anew.
    changed = [dataclasses.replace(b, kind="sea") if (b.a, b.b) == ("aleppo", "syria") else b for b in ruleset.borders]
    other = map_graph(dataclasses.replace(ruleset, borders=Collection.of("borders", changed)))
    assert (
        other.all is not graph.all
        and other.kind("syria", "aleppo") == "sea"
        and graph.kind("syria", "aleppo") == "land"
    )
    fewer = map_graph(dataclasses.replace(ruleset, borders=Collection.of("borders", list(ruleset.borders)[1:])))
    assert fewer.all is not graph.all and fewer.all.number_of_edges() == graph.all.number_of_edges() - 1


def test_a_cached_ruleset_s_map_is_shared_however_many_maps_were_built_since(ruleset: Ruleset) -> None:
    """The shapes kept for sharing are the most recently used: a ruleset whose graph is cached and
    asked for again puts its map first, so a ruleset of the same shape built after many others
    shares it (in a whole test run, other tests' maps pushed the shipped one out of the few kept)."""
    graph = map_graph(ruleset)
    borders = list(ruleset.borders)
    others = [dataclasses.replace(ruleset, borders=Collection.of("borders", borders[k:])) for k in range(1, 7)]
    for other in others:  # more shapes than are kept
        map_graph(other)
    assert map_graph(ruleset) is graph
    again = dataclasses.replace(ruleset, borders=Collection.of("borders", [dataclasses.replace(b) for b in borders]))
    assert map_graph(again).all is graph.all


def test_derived_coastal_equals_declared_for_every_area(ruleset: Ruleset) -> None:
    derived = derived_coastal(ruleset)
    assert set(derived) == set(ruleset.areas.by_id)
    differ = {a.id: (a.coastal, derived[a.id]) for a in ruleset.areas if bool(a.coastal) != derived[a.id]}
    assert differ == {}
    assert not any(derived[a.id] for a in ruleset.areas if not a.land)


def test_module_examples() -> None:
    assert doctest.testmod(civrules.families.advanced_civilization.mapgraph).failed == 0


@pytest.fixture
def low_recursion_limit() -> Iterator[None]:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(before)


def chain_map(size: int) -> str:
    """A map file of ``size`` land areas in a row, one flood plain over all of them, one volcano."""
    ids = [f"a{n:05d}" for n in range(size)]
    lines = ["kind: map", "id: mediterranean", "name: A chain", "panel: main", 'rule: "4.1"', "areas:"]
    lines += [
        f"  - {{id: {i}, name: Area {i}, panel: main, land: true, water: false, coastal: false, "
        "population_limit: 1, flood_plain: chain}"
        for i in ids
    ]
    lines += ["borders:"] + [f"  - {{areas: [{a}, {b}], kind: land}}" for a, b in itertools.pairwise(ids)]
    lines += ["flood_plains:", f'  - {{id: chain, name: Chain, areas: [{", ".join(ids)}], rule: "4.42"}}']
    lines += [
        "volcanoes:",
        f'  - {{id: middle, name: Middle, areas: [{ids[size // 2]}, {ids[size // 2 + 1]}], rule: "4.41"}}',
    ]
    return "\n".join(lines) + "\n"


def analysed_map(text: str) -> Analysis:
    workspace = Workspace(RULES, overrides={"maps/mediterranean.yaml": text})
    manifest = workspace.manifests()["advanced-civilization"]
    return analyse(workspace, workspace.load_ruleset(manifest), select=["M"])


@pytest.mark.usefixtures("low_recursion_limit")
def test_a_chain_of_3000_areas_does_not_recurse() -> None:
    """Three times the recursion limit: a recursive walk would fail (tests/adversarial has the
    10,000-area chain end to end)."""
    text = chain_map(3_000)
    analysis = analysed_map(text)
    assert analysis.model is not None
    assert [d for d in analysis.diagnostics if d.severity is not Severity.INFO] == []
    chain = of_family(analysis.model)
    assert len(chain.areas) == 3_000
    assert neighbours(chain, "a01500") == ("a01499", "a01501")
    assert nx.is_connected(map_graph(chain).land)


def test_a_chain_cut_in_two_is_one_m006_and_one_m020() -> None:
    cut = analysed_map(chain_map(1_000).replace("  - {areas: [a00499, a00500], kind: land}\n", ""))
    assert sorted(d.code for d in cut.diagnostics if d.severity is not Severity.INFO) == ["M006", "M020"]


def test_the_plain_adjacency_is_the_graphs_neighbours_and_kinds(ruleset: Ruleset) -> None:
    """Code generation and the map sheet read :func:`adjacency`, the checks the networkx graphs
    (let go once a build has checked the ruleset): the two agree on every area and border."""
    from civrules.families.advanced_civilization.mapgraph import LAND_KINDS, SEA_KINDS, adjacency

    graph = map_graph(ruleset)
    plain = adjacency(ruleset)
    assert list(plain) == list(ruleset.areas.by_id)
    for area, across in plain.items():
        assert tuple(sorted(across)) == graph.neighbours(area)
        assert tuple(sorted(n for n, k in across.items() if k in LAND_KINDS)) == graph.neighbours(area, "land")
        assert tuple(sorted(n for n, k in across.items() if k in SEA_KINDS)) == graph.neighbours(area, "sea")
        assert all(graph.kind(area, other) == kind for other, kind in across.items())


def test_forgetting_a_rulesets_graphs_builds_them_again_when_asked(ruleset: Ruleset) -> None:
    from civrules.families.advanced_civilization.mapgraph import forget

    first = map_graph(ruleset)
    forget(ruleset)
    again = map_graph(ruleset)
    assert again is not first
    assert sorted(again.all.edges) == sorted(first.all.edges)


def test_m002_and_the_maps_shape_look_no_area_up_through_the_collection(
    ruleset: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, point 4, counted, never timed: M002 and the map graph's shape (each asked again
    after an edit of a map) looked each border's two areas up through the areas' collection, a
    Python call per side (18,560 each in a map 13 times the shipped one, on every edit of it).
    They now ask the collection's index itself; M002's findings and the graph are the same."""
    from civrules.families.advanced_civilization.checks.borders import check_border_kinds
    from civrules.families.advanced_civilization.mapgraph import forget

    expected = list(check_border_kinds(ruleset))
    edges = sorted(map_graph(ruleset).all.edges)
    calls = collections.Counter[str]()
    real_get, real_contains = Collection.get, Collection.__contains__

    def get(self: Collection[Any], item_id: str) -> Any:
        calls["get"] += 1
        return real_get(self, item_id)

    def contains(self: Collection[Any], item_id: object) -> bool:
        calls["in"] += 1
        return real_contains(self, item_id)

    monkeypatch.setattr(Collection, "get", get)
    monkeypatch.setattr(Collection, "__contains__", contains)
    forget(ruleset)
    again = list(check_border_kinds(ruleset))  # builds the graph again: the shape is found again
    assert calls == {}, calls
    assert again == expected and sorted(map_graph(ruleset).all.edges) == edges
