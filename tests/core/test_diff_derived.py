"""`civrules diff` marks what a ruleset's family derived from its data, not what a variant wrote.

Round 25's designer read `~ commodities.total_cards.count: 286 → 287` as a change of theirs: the
variant patched one good's count, and the family's assembly re-derived the deck's total from it.
The derived value is marked (a `derived:` line, `"derived": true` in JSON) in every variant that
keeps it, two and three deep, and no longer where a later variant writes the setting itself.
"""

from __future__ import annotations

from typing import Any

from civrules.pipeline import analyse, compare
from civrules.resolve.diff import render_text
from tests.rulefiles import CachedWorkspace

HOUSE = """\
kind: ruleset
id: my-house
name: "My house rules"
extends: expansion-project
status: draft
overlay:
  commodities:
    patch:
      - {id: clay, count: 8, source: "house rule"}
"""
SECOND = """\
kind: ruleset
id: my-house2
name: "My house rules, two"
extends: my-house
status: draft
"""
THIRD = """\
kind: ruleset
id: my-house3
name: "My house rules, three"
extends: my-house2
status: draft
overlay:
  settings:
    total_cards: {count: 287, source: "house rule: we count them"}
"""
WORKSPACE = CachedWorkspace(
    {"rulesets/my-house.yaml": HOUSE, "rulesets/my-house2.yaml": SECOND, "rulesets/my-house3.yaml": THIRD}
)


def _total(old: str, new: str) -> tuple[dict[str, Any], str]:
    resolved = []
    for ruleset in (old, new):
        analysis = analyse(WORKSPACE, WORKSPACE.load_ruleset(WORKSPACE.manifests()[ruleset]))
        assert analysis.resolved is not None
        resolved.append(analysis.resolved)
    result = compare(*resolved)
    (total,) = [c for c in result.to_json()["settings"] if c["field"] == "commodities.total_cards.count"]
    return total, render_text(result)


def test_a_total_the_family_derives_is_marked_derived_in_the_diff() -> None:
    total, text = _total("expansion-project", "my-house")
    assert (total["old"], total["new"], total.get("derived")) == (286, 287, True)
    shown = text.splitlines()
    at = shown.index("  ~ commodities.total_cards.count: 286 → 287")
    assert shown[at + 1].startswith("      derived: ")


def test_a_variant_of_a_variant_keeps_the_mark_while_nobody_writes_the_total() -> None:
    total, _ = _total("expansion-project", "my-house2")
    assert total.get("derived") is True


def test_a_total_a_variant_writes_itself_is_no_longer_derived() -> None:
    total, text = _total("expansion-project", "my-house3")
    assert "derived" not in total
    assert "derived: " not in text
