"""Round 35's designer trial: the Western Extension's Africa made to start on the coast, `sahara`
taken off its start areas. M031 was moved to the variant's line with the base's hint, "add
`sahara` to Africa's start areas, or correct `start_nation`": the area's `start_nation` is the
base's fact, which the designer changes in `overlay.areas`, and nothing said how."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

COAST = (
    'kind: ruleset\nid: acw-africa\nname: "Africa on the coast"\nextends: advanced-civilization-western\n'
    "overlay:\n  nations:\n    patch:\n      - id: africa\n"
    "        start_areas: {areas: {remove: [sahara]}}\n"
    '        source: "house rule: Africa starts on the coast"\n'
)


def _errors(text: str) -> list[Diagnostic]:
    workspace = CachedWorkspace({"rulesets/acw-africa.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["acw-africa"]))
    return [d for d in analysis.diagnostics if d.severity == "error"]


def test_an_area_taken_off_a_nations_start_areas_is_told_how_to_change_its_start_nation_from_the_variant() -> None:
    [m031] = _errors(COAST)
    assert m031.code == "M031"
    way = '`patch: [{id: sahara, start_nation: null, source: "house rule: write why here"}]`'
    assert m031.hint is not None and f"in `overlay.areas`, {way}" in m031.hint, m031.hint
    entry = way.strip("`").removeprefix("patch: [").removesuffix("]").replace("write why here", "the coast")
    assert _errors(COAST + f"  areas:\n    patch:\n      - {entry}\n") == []


def test_an_area_a_variant_gives_another_nation_is_told_how_to_take_it_off_from_the_variant() -> None:
    """The other side: a variant listing `sahara` for Egypt, whose `start_nation` says Africa."""
    text = (
        'kind: ruleset\nid: acw-africa\nname: "Egypt in the desert"\nextends: advanced-civilization-western\n'
        "overlay:\n  nations:\n    patch:\n      - id: egypt\n"
        "        start_areas: {areas: {append: [sahara]}}\n"
        '        source: "house rule: Egypt reaches the desert"\n'
    )
    found = [d for d in _errors(text) if d.code == "M031"]
    assert found, [d.code for d in _errors(text)]
    hints = " ".join(d.hint or "" for d in found)
    assert "`overlay." in hints, hints
