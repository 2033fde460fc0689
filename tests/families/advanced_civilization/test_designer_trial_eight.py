"""Round 35's designer trial: the Western Extension's Africa made to start on the coast, `sahara`
taken off its start areas. M031 was moved to the variant's line with the base's hint, "add
`sahara` to Africa's start areas, or correct `start_nation`": the area's `start_nation` is the
base's fact, which the designer changes in `overlay.areas`, and nothing said how."""

from __future__ import annotations

import re

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


# --- Round 36: a finding at a variant's own line whose fix lies in a base's entity ------------------
#
# K009 told a variant linking Law to Famine to "add a modifier ... to `famine`", M021 a
# variant listing Dacia on the Danube's flood plain to "write `flood_plain: danube` on the area", C005
# a variant crediting Law from Democracy "a credit from `law`": each entity the base's, which the
# designer changes from the variant, and nothing said how. Each hint now gives the `overlay` entry;
# pasted as it stands (its blanks filled), nothing of the check is left.

VARIANT = "rulesets/own-line.yaml"
HEAD = "kind: ruleset\nid: own-line\nname: Own line\nextends: advanced-civilization\noverlay:\n"
#: Law's attribute as the base writes it, with a link to Famine added by the variant.
LAW_EASES_FAMINE = (
    "  civilization_cards:\n    patch:\n      - id: law\n        attributes:\n"
    '          - text: "Reduces the effects of Civil Disorder and Iconoclasm and Heresy."\n'
    '            rule: "32.811"\n            calamities:\n'
    '              - {calamity: civil_disorder, effect: reduces, rule: "30.712"}\n'
    '              - {calamity: iconoclasm_and_heresy, effect: reduces, rule: "30.812"}\n'
    '              - {calamity: famine, effect: reduces, rule: "30.312"}\n'
    '        source: "house rule: Law eases Famine"\n'
)


def _found(overlay: str, code: str) -> list[Diagnostic]:
    workspace = CachedWorkspace({VARIANT: HEAD + overlay})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["own-line"]), (code,))
    return [d for d in analysis.diagnostics if d.code == code]


def _entry(hint: str, collection: str) -> str:
    """The `patch: [...]` entry the hint writes for ``collection``, its blanks filled."""
    match = re.search(rf"(?:`overlay\.{collection}`:|in `overlay\.{collection}`,) `patch: \[(.*?)\]`", hint)
    assert match, hint
    entry = match.group(1)
    entry = entry.replace('{unknown: "write the amount here"}', "-2")
    return re.sub(r"write ([^\"]*?) here", r"a test's \1", entry)


def test_a_link_to_a_base_calamity_is_told_how_to_add_its_modifier_from_the_variant() -> None:
    [k009] = _found(LAW_EASES_FAMINE, "K009")
    assert k009.span is not None and k009.span.file.endswith(VARIANT)
    assert k009.hint is not None and k009.hint.startswith("patch `famine` in `overlay.calamities`: "), k009.hint
    entry = _entry(k009.hint, "calamities")
    # the modifier says how much: the schema refused one without an amount (S004)
    assert "amount:" in entry, entry
    assert _found(LAW_EASES_FAMINE + f"  calamities:\n    patch: [{entry}]\n", "K009") == []


def test_a_dead_credit_is_told_how_to_give_it_the_other_way_from_the_variant() -> None:
    credit = (
        "  civilization_cards:\n    patch:\n      - id: democracy\n"
        '        credits: [{card: law, points: 10, rule: "32.82"}]\n        source: "house rule: a credit"\n'
    )
    [c005] = _found(credit, "C005")
    hint = c005.hint or ""
    assert hint.startswith("for a credit from `law` to `democracy`, patch `law`"), hint
    entry = _entry(hint, "civilization_cards")
    followed = f"  civilization_cards:\n    patch: [{entry}]\n"
    assert _found(followed, "C005") == []
    assert [d.code for d in _found(followed, "S004")] == []  # the credit cites its house rule


def test_an_area_a_variant_lists_on_a_flood_plain_is_told_how_to_set_its_flood_plain_from_the_variant() -> None:
    listed = (
        "  flood_plains:\n    patch:\n      - id: danube\n        areas: {append: [dacia]}\n"
        '        source: "house rule: Dacia floods"\n'
    )
    [m021] = _found(listed, "M021")
    assert m021.hint is not None and m021.hint.startswith("in `overlay.areas`, `patch: [{id: dacia, "), m021.hint
    assert _found(listed + f"  areas:\n    patch: [{_entry(m021.hint, 'areas')}]\n", "M021") == []


def test_an_area_of_another_flood_plain_is_told_how_to_move_it_from_the_variant() -> None:
    listed = (
        "  flood_plains:\n    patch:\n      - id: danube\n        areas: {append: [ur]}\n"
        '        source: "house rule: Ur floods with the Danube"\n'
    )
    [m021] = _found(listed, "M021")
    hint = m021.hint or ""
    assert hint.startswith("to move `ur` here, in `overlay.areas`, `patch: [{id: ur, flood_plain: danube"), hint
    removed = re.search(r"in `overlay\.flood_plains`, `patch: \[(.*?)\]`;", hint)
    assert removed, hint
    taken_off = re.sub(r"write ([^\"]*?) here", r"a test's \1", removed.group(1))
    followed = (
        f"  areas:\n    patch: [{_entry(hint, 'areas')}]\n"
        "  flood_plains:\n    patch:\n      - id: danube\n        areas: {append: [ur]}\n"
        f'        source: "house rule: Ur floods with the Danube"\n      - {taken_off}\n'
    )
    assert _found(followed, "M021") == []
