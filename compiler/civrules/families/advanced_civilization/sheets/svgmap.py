"""A picture of the map graph for the map sheet: areas as nodes, borders as lines, as plain SVG.

The layout is networkx's spring (Fruchterman-Reingold) layout with a fixed seed on a copy of the
map graph whose nodes and edges are sorted by id, so the same map always gives the same picture,
whatever the data order or ``PYTHONHASHSEED``; coordinates are rounded to a tenth of a unit, so
the bytes are the same too. The SVG itself is written by a template (autoescaped, like every
sheet): area names from the data can never become markup.

Drawing conventions (also the picture's legend): land borders solid, sea borders dashed, borders
that are both a double line, borders of unknown kind dotted; inland areas white circles, coastal
areas tinted circles, water areas squares (open sea: a diamond); a flood plain is hatched; a start
area has a second ring and its nation under the name; each name stands where it covers no other
(sheets/labels.py), with a thin line back to its area when it stands off; a volcano is a triangle; the number in a
land area is its population limit and the small square its city site (black or white).

Examples
--------
>>> from civrules.families.advanced_civilization.mapgraph import build_map_graph
>>> layout = spring_positions(build_map_graph(["a", "b", "c"], [("a", "b", "land"), ("b", "c", "sea")]).all)
>>> sorted(layout) == ["a", "b", "c"]
True
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from civrules.emit.sheets.common import environment as common_environment
from civrules.families.advanced_civilization import FAMILY
from civrules.families.advanced_civilization.mapgraph import map_graph
from civrules.families.advanced_civilization.model import Area, Ruleset
from civrules.families.advanced_civilization.sheets.labels import Box, Placed, place_labels
from civrules.model import Unknown
from civrules.support import cache
from civrules.support.memo import run_memo
from civrules.support.stored import json_document

#: The seed of the spring layout: changing it changes every committed map picture.
SEED = 1
#: Iterations of the spring layout: enough for the 131 areas of the main board to settle.
ITERATIONS = 500
#: The width of the picture in user units; the height follows the aspect the caller asks for.
WIDTH = 1000.0
#: Room kept around the nodes for labels, and the height of the legend band, in user units.
PAD = 34.0
LEGEND = 92.0


def environment() -> jinja2.Environment:
    env = common_environment(FAMILY.package)
    env.filters["n"] = number
    return env


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    name: str
    x: float
    y: float
    shape: str  # inland, coastal, sea, open_sea
    flood: bool
    start: str  # the nations whose start area it is, by name ("" if none)
    population: str  # the population limit as printed ("" for none, "?" unknown)
    city_site: str  # black, white or ""
    volcano: bool
    #: Where its label is drawn (sheets/labels.py): the name's baseline, the nation's, a leader line.
    label_x: float = 0.0
    label_y: float = 0.0
    nation_y: float = 0.0
    leader: tuple[float, float, float, float] | None = None
    #: What a variant did to the area: ``added``, ``changed`` (a border it gained counts), or "".
    changed: str = ""


@dataclass(frozen=True, slots=True)
class Edge:
    a: str
    b: str
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str  # land, sea, both, unknown


@dataclass(frozen=True, slots=True)
class LegendItem:
    mark: str
    label: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Picture:
    """What the template draws: a view box, edges under nodes, and a legend of the marks used."""

    width: float
    height: float
    legend_y: float
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    legend: tuple[LegendItem, ...]


#: Every mark the picture can use, in legend order, with its legend text.
MARKS = (
    ("land", "land border"),
    ("sea", "sea border"),
    ("both", "land and sea border"),
    ("unknown", "border of unknown kind"),
    ("inland", "inland area"),
    ("coastal", "coastal area"),
    ("sea_area", "water area"),
    ("open_sea", "open sea"),
    ("flood", "flood plain (hatched)"),
    ("start", "start area (nation below)"),
    ("volcano", "volcano"),
    ("black", "black city site"),
    ("white", "white city site"),
    ("population", "population limit"),
    ("added", "added by this variant"),
    ("changed", "changed by this variant (or a border added)"),
)
#: Legend items per row.
LEGEND_COLUMNS = 4


def _round(value: float) -> float:
    """A coordinate rounded to a tenth (so float noise in the layout never reaches the bytes)."""
    return round(value, 1) + 0.0


def number(value: float) -> str:
    """A coordinate as SVG text: one decimal, never ``-0.0``."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def spring_positions(graph: Any) -> dict[str, tuple[float, float]]:
    """Positions in [0, 1] x [0, 1] for the nodes of ``graph``, from a seeded spring layout.

    The graph is copied with its nodes and edges in id order first, so the result depends only on
    which nodes and edges there are.
    """
    nodes = sorted(graph.nodes)
    if len(nodes) < 2:  # nothing to lay out (a ruleset without a map)
        return dict.fromkeys(nodes, (0.5, 0.5))
    # Only where a map is laid out (see mapgraph): importing it was 100 ms of CPU of every build,
    # a ruleset's without a map too.
    import networkx as nx

    ordered = nx.Graph()
    ordered.add_nodes_from(nodes)
    ordered.add_edges_from(sorted(tuple(sorted(edge)) for edge in graph.edges))
    # The layout is the slowest step of a build and a pure function of the graph (and of the
    # library versions and this module's code): keep it in the content-hash cache.
    code = _layout_code()
    if not code:
        return _spring(ordered)
    key = cache.digest(
        "spring-layout",
        str(SEED),
        str(ITERATIONS),
        nx.__version__,
        _numpy_version(),
        code,
        json.dumps([list(ordered.nodes), [list(edge) for edge in ordered.edges]]),
    )
    stored = cache.read(f"layout-{key}.json")
    if stored is not None:
        found = _stored_positions(stored)
        if set(found) == set(ordered.nodes):
            return {node: found[node] for node in ordered.nodes}
    positions = _spring(ordered)
    cache.write(f"layout-{key}.json", json.dumps(positions, sort_keys=True).encode("utf-8"))
    return positions


@functools.cache
def _layout_code() -> str:
    """A digest of this module, which lays a map out (:func:`_spring`): a civrules whose layout
    changed (another normalisation, seed or iterations) took the positions an older one had
    cached for the same graph, which are in range and so were believed. An unreadable module
    (an installation that cannot name its code) caches nothing."""
    try:
        return cache.digest(Path(__file__).read_bytes())
    except OSError:
        return ""


def _stored_positions(stored: bytes) -> dict[str, tuple[float, float]]:
    """A cached layout, or nothing when the entry is not one (corrupt, forged, out of range)."""
    loaded = json_document(stored)
    if not isinstance(loaded, dict):
        return {}
    try:
        found = {str(node): (float(x), float(y)) for node, (x, y) in loaded.items()}
    except (ValueError, TypeError):
        return {}
    if not all(0.0 <= v <= 1.0 for point in found.values() for v in point):  # also refuses NaN
        return {}
    return found


def _numpy_version() -> str:
    # The first import of numpy (networkx's layout uses it): where the address space cannot hold
    # it, a MemoryError (out of memory, exit 2), not OpenBLAS ending the process with status 1.
    from civrules.support.memory import import_numpy

    return str(import_numpy().__version__)


def _spring(ordered: Any) -> dict[str, tuple[float, float]]:
    import networkx as nx  # imported already by spring_positions

    raw = nx.spring_layout(ordered, seed=SEED, iterations=ITERATIONS)
    xs = [float(raw[n][0]) for n in ordered.nodes]
    ys = [float(raw[n][1]) for n in ordered.nodes]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    return {
        node: ((float(raw[node][0]) - min(xs)) / span_x, (float(raw[node][1]) - min(ys)) / span_y)
        for node in ordered.nodes
    }


def _shape(area: Area) -> str:
    if not area.land:
        return "open_sea" if area.open_sea else "sea"
    coastal = area.coastal if area.coastal is not None else area.water
    return "coastal" if coastal else "inland"


def _population(area: Area) -> str:
    if isinstance(area.population_limit, Unknown):
        return "?"
    return "" if area.population_limit is None else str(area.population_limit)


def _start_areas(ruleset: Ruleset) -> dict[str, list[str]]:
    starts: dict[str, list[str]] = {}
    for nation in ruleset.nations.by_id.values():
        if isinstance(nation.start_areas, tuple):
            for area in nation.start_areas:
                starts.setdefault(area, []).append(nation.display_name)
    return starts


def picture(ruleset: Ruleset, aspect: float, marks: Mapping[str, str] | None = None) -> Picture:
    """The picture of the ruleset's map graph in a box ``aspect`` (height / width) high; ``marks``
    names the areas a variant adds or changes (``added`` / ``changed``), ringed on the picture."""
    graph = map_graph(ruleset).all
    height = WIDTH * aspect
    positions = spring_positions(graph)
    draw_h = height - LEGEND - 2 * PAD
    draw_w = WIDTH - 2 * PAD
    points = {node: (_round(PAD + x * draw_w), _round(PAD + y * draw_h)) for node, (x, y) in sorted(positions.items())}
    starts = _start_areas(ruleset)
    flooded = {area for region in ruleset.flood_plains for area in region.areas}
    volcanic = {area for region in ruleset.volcanoes for area in region.areas}
    nodes = []
    for node_id, (x, y) in points.items():
        area = ruleset.areas.by_id[node_id]
        nodes.append(
            Node(
                node_id,
                area.display_name,
                x,
                y,
                _shape(area),
                area.flood_plain is not None or node_id in flooded,
                ", ".join(sorted(starts.get(node_id, []))),
                _population(area) if area.land else "",
                area.city_site if area.city_site in ("black", "white") else "",
                node_id in volcanic,
            )
        )
    labels = _placed_labels(tuple((n.id, n.x, n.y, n.name, n.start) for n in nodes), WIDTH, height - LEGEND)
    nodes = [
        dataclasses.replace(
            n,
            changed=(marks or {}).get(n.id, ""),
            label_x=labels[n.id][1].x,
            label_y=labels[n.id][1].y,
            nation_y=labels[n.id][1].nation_y,
            leader=labels[n.id][1].leader,
        )
        for n in nodes
    ]
    edges = []
    for a, b in sorted(tuple(sorted(edge)) for edge in graph.edges):
        kind = str(graph.edges[a, b].get("kind"))
        kind = kind if kind in ("land", "sea", "both") else "unknown"
        edges.append(Edge(a, b, *points[a], *points[b], kind))
    used = {edge.kind for edge in edges} | {"sea_area" if n.shape == "sea" else n.shape for n in nodes}
    used.update(name for name, present in _node_marks(nodes).items() if present)
    top = height - LEGEND + 14
    legend = []
    for i, (mark, label) in enumerate((m, label) for m, label in MARKS if m in used):
        row, column = divmod(i, LEGEND_COLUMNS)
        x = _round(PAD + column * (WIDTH - 2 * PAD) / LEGEND_COLUMNS)
        legend.append(LegendItem(mark, label, x, _round(top + row * 19)))
    return Picture(WIDTH, _round(height), _round(height - LEGEND), tuple(nodes), tuple(edges), tuple(legend))


@run_memo(maxsize=8)
def _placed_labels(
    areas: tuple[tuple[str, float, float, str, str], ...], width: float, height: float
) -> Mapping[str, tuple[Box, Placed]]:
    """:func:`place_labels`, once per picture drawn in a run: the variants of a base that keep its
    map (an `extends` chain of 99) each placed the same labels again (a tenth of their build)."""
    return place_labels(areas, width, height)


def _node_marks(nodes: tuple[Node, ...] | list[Node]) -> Mapping[str, bool]:
    return {
        "flood": any(n.flood for n in nodes),
        "start": any(n.start for n in nodes),
        "volcano": any(n.volcano for n in nodes),
        "black": any(n.city_site == "black" for n in nodes),
        "white": any(n.city_site == "white" for n in nodes),
        "population": any(n.population for n in nodes),
        "added": any(n.changed == "added" for n in nodes),
        "changed": any(n.changed == "changed" for n in nodes),
    }


def map_svg(
    ruleset: Ruleset,
    width_mm: float,
    height_mm: float,
    *,
    standalone: bool = False,
    marks: Mapping[str, str] | None = None,
    titled: bool = True,
) -> Markup:
    """The map graph as SVG markup, ``width_mm`` x ``height_mm`` when printed.

    Inline (the default) it carries no namespace declaration, which HTML does not need; with
    ``standalone`` it is a complete SVG document for a file of its own. Not ``titled``, its title
    is left as :data:`TITLE`, for the page to put in (the map sheet's context is then the same for
    every ruleset with the same map, whatever its name).
    """
    drawn = picture(ruleset, height_mm / width_mm, marks)
    text = Markup(_svg_text(drawn, f"{width_mm:.1f}", f"{height_mm:.1f}", standalone))
    return text.replace(TITLE, f"Map graph of {ruleset.name}") if titled else text


#: Where the title goes in a picture's SVG text: autoescaped text never holds a raw ``<``, and the
#: template writes none around ``title``, so the only occurrences are the title's own. Put in with
#: ``Markup.replace``, which escapes the title.
TITLE = "<civrules-map-title/>"


@run_memo(maxsize=8)
def _svg_text(drawn: Picture, width_mm: str, height_mm: str, standalone: bool) -> str:
    """The SVG text of a picture, its title left as :data:`TITLE`: rendered once per run for the
    same picture (the variants of a base that keep its map, an `extends` chain of 60, drew the same
    picture each; issue 32, point 6). The title (the ruleset's name) is put in afterwards, escaped
    as the template escapes it."""
    return str(
        environment()
        .get_template("map-graph.svg.j2")
        .render(picture=drawn, width_mm=width_mm, height_mm=height_mm, standalone=standalone, title=Markup(TITLE))
    )
