"""Round 32, a designer's trial: Imperial Settlers' wood renamed "Lenha" by removing `wood` and
adding `timber`. The cards' costs name `wood` in references F009 owns, 156 of them."""

from __future__ import annotations

import pytest

from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

TIMBER = (
    "kind: ruleset\nfamily: imperial-settlers\nid: house\nname: house\nextends: imperial-settlers\n"
    "overlay:\n  goods:\n    remove:\n"
    '      - {id: wood, why: "house rule: wood is called timber"}\n'
    "    add:\n"
    '      - {id: timber, name: "Lenha", resource: true, source: "house rule: wood is called timber"}\n'
)


@pytest.mark.slow  # two analyses of Imperial Settlers, 156 F009 findings
def test_a_good_renamed_for_the_table_is_offered_its_name_alone_and_no_fix_that_leaves_the_cards() -> None:
    """V006 offered to point its four references at `timber` (and the editor would have written
    it), leaving the 156 cards whose costs name `wood` to F009: a quick fix that fixes nothing.
    It offers to keep `wood` and patch its name, which the designer meant; pasted in as written,
    the variant validates. The retarget is still told, but is no quick fix; and F009's hint says
    what to write ("name a good ..."), where it was a bare list after "patch the base's fact: "."""
    workspace = CachedWorkspace({"rulesets/house.yaml": TIMBER})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    (v006,) = [d for d in analysis.diagnostics if d.code == "V006"]
    assert v006.additions == () and v006.fix_title is None
    kept = "keep `wood` (delete its `remove` and the `add` of `timber`) and patch its name in `overlay.goods`: "
    entry = '`patch: [{id: wood, name: Lenha, source: "house rule: write why here"}]`'
    assert f"; or if only what it is called changes, {kept}{entry}; or " in (v006.hint or "")
    # F009's costs are the same removal's: folded into V006 (round 33), its hint beside V006's
    assert [d for d in analysis.diagnostics if d.code == "F009"] == []
    assert "; and F009: " in v006.message
    assert (v006.hint or "").endswith(
        "name a good of the ruleset's `goods`: card, common_card, defence, "
        "faction_card, food, gold, raze, stone, timber, vp, worker"
    )
    pasted = TIMBER.split("    remove:")[0] + '    patch: [{id: wood, name: Lenha, source: "house rule: Lenha"}]\n'
    workspace = CachedWorkspace({"rulesets/house.yaml": pasted})
    again = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    assert [d.code for d in again.diagnostics if d.severity != "info"] == []


STONELESS = (
    "kind: ruleset\nfamily: imperial-settlers\nid: house\nname: house\nextends: imperial-settlers\n"
    'overlay:\n  goods:\n    remove:\n      - {id: stone, why: "house rule: no stone"}\n'
)


def test_a_removed_good_is_one_diagnostic_at_the_removal_with_the_costs_that_name_it() -> None:
    """Round 32 left it: removing `stone` gave two errors at the one `remove` entry, F009 (139
    card costs name it) and V006 (a good, an action and a setting name it), for one change. V006,
    the removal's own, says both: the costs in its message, F009's notes at each cost and its way
    beside V006's own."""
    workspace = CachedWorkspace({"rulesets/house.yaml": STONELESS})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    errors = [d for d in analysis.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["V006"], [(d.code, d.message) for d in errors]
    (v006,) = errors
    assert v006.message.startswith("good `stone` is removed, but 3 references to it remain: ")
    assert "; and F009: cost of card `bar014`: no good of the ruleset is called `stone`; " in v006.message
    assert "; for F009: " in (v006.hint or "")
    assert sum(note.label == "where the base shows it" for note in v006.related) == 10
    assert {"stone", "bar014"} <= set(v006.subjects)
