"""Round 32, a designer's trial: Sid Meier's Civilization without the Granary (`celeiro`), which
Pottery unlocks and the Aqueduct upgrades (`upgrade_of: celeiro`, a field of its own)."""

from __future__ import annotations

from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

NO_GRANARY = (
    'kind: ruleset\nid: house\nname: "House rules"\nextends: sid-meiers-civilization\n'
    'overlay:\n  buildings:\n    remove:\n      - {id: celeiro, why: "house rule: no granary"}\n'
)


def _problems(text: str) -> list[tuple[str, str | None]]:
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    return [(d.code, d.hint) for d in analysis.diagnostics if d.severity != "info"]


def test_a_reference_in_a_field_of_its_own_is_dropped_by_deleting_the_field() -> None:
    """V006 told the Aqueduct's `upgrade_of: celeiro` "a list element goes with `{remove:
    [SELECTOR]}`, one inside an element with `{patch: ...}`": neither reaches a field that is
    the reference. Its patch deletes the field (`null`, where the building may lack it), and
    pasted in as written with Pottery's, the variant validates."""
    ((code, hint),) = _problems(NO_GRANARY)
    assert code == "V006"
    assert "`patch: [{id: aqueduto, upgrade_of: null}]`" in (hint or "")
    assert "a list element goes with" not in (hint or "")
    pasted = NO_GRANARY + (
        "    patch: [{id: aqueduto, upgrade_of: null}]\n"
        "  technologies:\n    patch: [{id: pottery, unlocks: {buildings: {remove: [celeiro]}}}]\n"
    )
    assert _problems(pasted) == []
