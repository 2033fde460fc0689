"""A value a variant writes whole (a list inside a list operation's `with:`, an element it replaces,
inserts or appends, a list beside list operations in one patch entry) is the variant's, all of it: a
key missing from it is missing where the variant wrote it (S004 "missing key", at the variant, with
a note at the base), never "this patch deletes it" at the base's element at the same place, a file
the designer cannot edit and a `null` nobody wrote.
"""

from __future__ import annotations

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline import Analysis, analyse
from tests.rulefiles import CachedWorkspace


def analysed(ruleset_id: str, overlay: str) -> Analysis:
    text = f"kind: ruleset\nid: {ruleset_id}\nname: {ruleset_id}\nextends: advanced-civilization\noverlay:\n{overlay}"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": text})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))


def missing(analysis: Analysis) -> Diagnostic:
    (found,) = [d for d in analysis.diagnostics if d.severity == "error"]
    assert found.code == "S004" and found.span is not None, found
    return found


POTTERY_PATCH = (
    "  civilization_cards:\n    patch:\n      - id: pottery\n        attributes:\n          patch:\n"
    '            - where: {rule: "32.211"}\n'
)

#: Each overlay and the line of the element that lacks its citation (the manifest's fifth line is `overlay:`).
WRITTEN_WHOLE = {
    # a list written whole inside an entity's list operation's `with:` (two levels down: the
    # calamities of an attribute)
    "entity-with": (
        POTTERY_PATCH
        + "              with: {calamities: [{calamity: famine, effect: reduces}],"
        + ' source: "house rule: x"}\n',
        12,
    ),
    # ... and inside a setting's (`trade_stacks.stacks[8].purchases`)
    "setting-with": (
        "  settings:\n    trade_stacks:\n      stacks:\n        patch:\n          - where: {number: 9}\n"
        '            with: {purchases: [{price: 18}], source: "house rule: 18"}\n',
        11,
    ),
    # an element a `replace:` writes whole, where the base's element at its index has the key
    "replace": (
        "  civilization_cards:\n    patch:\n      - id: pottery\n        attributes:\n          replace:\n"
        '            - where: {rule: "32.211"}\n'
        '              with: {text: "Famine costs less."}\n',
        12,
    ),
    # an element appended where a removed one stood (the base's element at the same index has the key)
    "append": (
        "  civilization_cards:\n    patch:\n      - id: pottery\n        credits:\n"
        "          remove: [{card: monotheism}]\n          append:\n            - {card: monotheism, points: 5}\n",
        12,
    ),
    # a list written whole beside list operations of another field of the same patch entry
    "beside": (
        "  civilization_cards:\n    patch:\n      - id: pottery\n"
        '        credits: [{group: crafts, points: 5}]\n        source: "house rule: x"\n'
        '        attributes: {patch: [{where: {rule: "32.211"},'
        ' with: {text: "Less famine.", source: "house rule: y"}}]}\n',
        9,
    ),
}


@pytest.mark.parametrize("name", list(WRITTEN_WHOLE))
def test_a_key_missing_from_a_value_the_variant_wrote_whole_is_missing_at_the_variant(name: str) -> None:
    overlay, line = WRITTEN_WHOLE[name]
    found = missing(analysed(name, overlay))
    assert found.message.startswith("missing key `rule`"), found.message
    assert "deletes" not in found.message and "null" not in (found.hint or "")
    span = found.span
    assert span is not None and span.file.endswith(f"rulesets/{name}.yaml") and span.line == line, span
    assert [note.label for note in found.related] == ["the base definition"]
    assert found.related[0].span.file != span.file


def test_a_key_the_with_deletes_with_null_is_still_said_to_be_deleted_there() -> None:
    """The control: a `null` the variant wrote deletes the base's key, and is located at that `null`."""
    overlay = POTTERY_PATCH + '              with: {text: null, source: "house rule: x"}\n'
    found = missing(analysed("deleted", overlay))
    assert "this patch deletes it" in found.message, found.message
    span = found.span
    assert span is not None and span.file.endswith("rulesets/deleted.yaml") and span.line == 12, span
