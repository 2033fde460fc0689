"""Round 36's designer trial: a finding at a variant's own line whose fix lies in another entity,
its base's. K009 told a variant linking Law to Famine to "add a modifier ... to `famine`", M021 a
variant listing Dacia on the Danube's flood plain to "write `flood_plain: danube` on the area", C005
a variant crediting Law from Democracy "a credit from `law`": each entity the base's, which the
designer changes from the variant, and nothing said how. Each hint now gives the `overlay` entry;
pasted as it stands (its blanks filled), nothing of the check is left.

The variants are the smallest that show each finding; each is read in a workspace that reads only
the files its ruleset uses.
"""

from __future__ import annotations

import re

from civrules.diagnostics import Diagnostic
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import RULES

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
    workspace = Workspace(RULES, None, {VARIANT: HEAD + overlay})
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
