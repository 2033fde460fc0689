"""Walks over plain adjacency mappings: the graph questions a clean ruleset asks on every run.

networkx is the graph library of the checks (components, cycles, paths, matchings), but importing
it costs a whole-process `validate` about a tenth of a second (issue 32, point 5), more than all the
graph work of a ruleset. The questions a family's checks ask of every ruleset (does a set of nodes
hang together, is a directed graph free of cycles, what does a node reach) are simple walks over
adjacency its model's lookups already hold; the family imports networkx where one of them finds
something to report (the components and cycles a diagnostic names), so what a diagnostic says
of them is still networkx's answer. (A path between two cards a card check names is the first
shortest one in data order, from a breadth-first walk of the prerequisites: issue 32.)

Examples
--------
>>> edges = {"top": ["left", "right"], "right": ["left"], "left": []}
>>> sorted(reachable(edges, "top"))
['left', 'right']
>>> acyclic(edges), acyclic({"a": ["b"], "b": ["a"]})
(True, False)
>>> connected({"a": ["b"], "b": ["a"], "c": []}, ["a", "b"]), connected({"a": [], "c": []}, ["a", "c"])
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping


def reachable(adjacency: Mapping[str, Iterable[str]], start: str) -> set[str]:
    """The nodes a walk from ``start`` reaches, without ``start`` itself (networkx's ``descendants``)."""
    seen = {start}
    found: set[str] = set()
    stack = [start]
    while stack:
        for other in adjacency.get(stack.pop(), ()):
            if other not in seen:
                seen.add(other)
                found.add(other)
                stack.append(other)
    return found


def acyclic(adjacency: Mapping[str, Iterable[str]]) -> bool:
    """Whether the directed graph ``node → adjacency[node]`` has no cycle (a self-loop is one).

    Every edge must end at a key of ``adjacency``.
    """
    waiting = dict.fromkeys(adjacency, 0)
    for targets in adjacency.values():
        for target in targets:
            waiting[target] += 1
    ready = [node for node, count in waiting.items() if count == 0]
    done = 0
    while ready:
        done += 1
        for target in adjacency[ready.pop()]:
            waiting[target] -= 1
            if waiting[target] == 0:
                ready.append(target)
    return done == len(waiting)


def connected(adjacency: Mapping[str, Iterable[str]], nodes: Collection[str]) -> bool:
    """Whether ``nodes`` hang together by edges between themselves (true for fewer than two)."""
    if len(nodes) < 2:
        return True
    among = set(nodes)
    start = next(iter(nodes))
    seen = {start}
    stack = [start]
    while stack:
        for other in adjacency.get(stack.pop(), ()):
            if other in among and other not in seen:
                seen.add(other)
                stack.append(other)
    return len(seen) == len(among)
