"""What the checks do over every entity, counted (never timed: tests/README.md, "Growth counted,
not timed"): their walks cost a few steps a node and find what they found before."""

from __future__ import annotations

from typing import Any

from civrules.checks.disagreements import _owners
from tests.security.test_check_growth import calls_made


def _entity(number: int) -> dict[str, Any]:
    """An entity of the shape of a card: mostly scalars, a few lists and mappings, one owner of
    `disagreements:` inside a list."""
    return {
        "id": f"card_{number}",
        "name": f"Card {number}",
        "cost": 100,
        "note": None,
        "groups": ["crafts", "arts"],
        "prerequisites": [{"card": "pottery", "rule": "1"}],
        "credits": [
            {"group": "arts", "points": 10, "rule": ["32.1", "32.2"]},
            {"card": "mysticism", "points": 5, "disagreements": [{"field": "points", "chosen": 5}]},
        ],
        "disagreements": [{"field": "cost", "chosen": 100, "alternatives": [{"value": 90}]}],
    }


def _nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(_nodes(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_nodes(item) for item in value)
    return 1


def test_the_owners_of_disagreements_are_found_at_their_paths() -> None:
    entity = _entity(1)
    assert [(path, entries) for path, _, entries in _owners(entity)] == [
        ((), entity["disagreements"]),
        (("credits", 1), entity["credits"][1]["disagreements"]),
    ]
    assert [path for path, _, _ in _owners(entity["credits"], ("credits",))] == [("credits", 1)]
    assert list(_owners("text")) == []


def test_q008_walks_an_entity_in_a_few_steps_a_node() -> None:
    """Q008 walks every entity and setting for `disagreements:`: a generator and a path tuple per
    node, and every scalar asked whether it is a ``Mapping`` (an ABC: a call into Python), cost
    about 7 counted steps a node of a card; now about 5."""
    entities = [_entity(number) for number in range(50)]
    work = calls_made(lambda: [list(_owners(entity)) for entity in entities])
    assert work <= 6 * sum(_nodes(entity) for entity in entities)
