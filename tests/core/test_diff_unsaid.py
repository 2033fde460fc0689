"""Round 32, a designer's trial: what `civrules diff` and a variant's changes sheet say of what a
variant did not write, and of what it deleted.

Every variant that wrote no `status:` printed `- status: draft` under "settings": a variant never
has its base's own header (V011), so its silence read as a change of the rules. A field deleted
with `null` printed the base's citation under it as `cited: rule …`, as if the rule cited the
deletion; it is what cited the fact that is gone, and says so (`was cited:`).
"""

from __future__ import annotations

import pytest

from civrules.pipeline import analyse, compare
from civrules.resolve.diff import render_text
from tests.rulefiles import CachedWorkspace

SETTING_NULL = """\
kind: ruleset
id: house
name: "House rules"
extends: expansion-project
overlay:
  settings:
    hand_limit: {count_public: null}
"""
FIELD_NULL = """\
kind: ruleset
id: house
name: "House rules"
extends: sid-meiers-civilization
overlay:
  buildings:
    remove:
      - {id: celeiro, why: "house rule: no granary"}
    patch: [{id: aqueduto, upgrade_of: null}]
  technologies:
    patch: [{id: pottery, unlocks: {buildings: {remove: [celeiro]}}}]
"""


def _diff(text: str, base: str, *, in_words: bool = False) -> str:
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    manifests = workspace.manifests()
    old, new = (analyse(workspace, workspace.load_ruleset(manifests[name])).resolved for name in (base, "house"))
    assert old is not None and new is not None
    return render_text(compare(old, new), in_words=in_words)


@pytest.mark.parametrize("in_words", [False, True], ids=["diff", "changes sheet"])
@pytest.mark.parametrize(
    ("text", "base"),
    [(SETTING_NULL, "expansion-project"), (FIELD_NULL, "sid-meiers-civilization")],
    ids=["setting", "field"],
)
def test_a_variant_without_a_status_is_no_change_of_status(text: str, base: str, in_words: bool) -> None:
    """Both bases say `status: draft`; the variant says none, which is no change of its rules."""
    assert "status" not in _diff(text, base, in_words=in_words)


def test_a_variant_that_writes_its_status_is_told_it() -> None:
    """A status the variant writes is its own: it is compared."""
    said = 'kind: ruleset\nid: house\nname: "House rules"\nextends: imperial-settlers\nstatus: house_rule\n'
    assert "+ status: house_rule" in _diff(said, "imperial-settlers")


@pytest.mark.parametrize(
    ("text", "base", "deleted", "citation"),
    [
        (SETTING_NULL, "expansion-project", "- hand_limit.count_public: true", "rule 27.2"),
        (FIELD_NULL, "sid-meiers-civilization", "- upgrade_of: celeiro", "rule p6"),
    ],
    ids=["setting", "field"],
)
def test_a_deleted_fact_is_told_what_cited_it_not_cited_by_it(
    text: str, base: str, deleted: str, citation: str
) -> None:
    lines = _diff(text, base).splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == deleted)
    assert lines[at + 1].strip().startswith(f"was cited: {citation}")
    assert not any(line.strip().startswith("cited:") for line in lines)
