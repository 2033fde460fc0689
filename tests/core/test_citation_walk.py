"""The walk that finds a document's `rule:` citations and `{unknown: why}` facts
(`checks/citations.py`, ``_walk_node``): what its definition finds, in document order, on random
documents. The walk keeps one path it grows and cuts instead of a tuple per node; this holds it to
the definition it replaced."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from civrules.checks.citations import Walk, _walk_node

NodePath = tuple[str | int, ...]


def by_definition(node: Any, path: NodePath = ()) -> Walk:
    """Every node in document order: a mapping of `unknown` alone is an unknown fact; a text, or
    each text of a list, under a `rule:` key is a citation."""
    cited: list[tuple[NodePath, NodePath, str]] = []
    unknowns: list[tuple[NodePath, str]] = []

    def visit(node: Any, path: NodePath) -> None:
        if isinstance(node, dict):
            if len(node) == 1 and "unknown" in node:
                unknowns.append((path, str(node["unknown"])))
            for key, value in node.items():
                visit(value, (*path, key))
        elif isinstance(node, list):
            if path and path[-1] == "rule":
                cited.extend((path, (*path, i), n) for i, n in enumerate(node) if isinstance(n, str))
            for i, value in enumerate(node):
                visit(value, (*path, i))
        elif isinstance(node, str) and path and path[-1] == "rule":
            cited.append((path, path, node))

    visit(node, path)
    return Walk(tuple(cited), tuple(unknowns))


SCALARS = st.one_of(st.sampled_from(["1.2", "31.62", "p4/setup", ""]), st.integers(0, 9), st.none(), st.booleans())
KEYS = st.sampled_from(["rule", "unknown", "id", "rules", "credits"])
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=40,
)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(DOCUMENTS, st.sampled_from([(), ("rule",), ("cards", 3), ("rule", 0)]))
def test_the_walk_finds_what_its_definition_finds_in_order(document: Any, at: NodePath) -> None:
    assert _walk_node(document, at) == by_definition(document, at)


def test_a_walk_from_a_text_under_rule_cites_it() -> None:
    assert _walk_node("4.1", ("areas", 0, "rule")).citations == ((("areas", 0, "rule"), ("areas", 0, "rule"), "4.1"),)
