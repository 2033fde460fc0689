"""A hint that proposes a value proposes one that passes: a `set_to` below 0 is not offered for a
change that takes the amount below 0."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_text

CALAMITIES = "calamities/advanced-civilization.yaml"
MYSTICISM = "        amount: -1\n        set_to: 2"


def found(code: str, file: str, old: str, new: str) -> list[Diagnostic]:
    text = shipped_text(file)
    assert old in text
    workspace = CachedWorkspace({file: text.replace(old, new, 1)})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    return [d for d in analysis.diagnostics if d.code == code]


def test_a_change_below_zero_is_hinted_by_its_amount_only_and_following_it_passes() -> None:
    """Three cities less four is below 0: `set_to: 0` (what it says already) was offered."""
    [k012] = found("K012", CALAMITIES, MYSTICISM, "        amount: -4\n        set_to: 0")
    assert k012.hint == "set `amount: -3`"
    assert found("K012", CALAMITIES, MYSTICISM, "        amount: -3\n        set_to: 0") == []
