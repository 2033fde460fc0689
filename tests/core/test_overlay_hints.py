"""Hints that name an overlay operation name one that applies, and each works when followed literally.

A `patch` applies to the base, before the variant's `add`: it cannot reach an entity the same
variant adds. A key (a track's `nation`, a border's `areas`) cannot be patched away: the entity must
be removed, named as the resolver names it. Each test follows the hint as written and checks the
error is gone.
"""

from __future__ import annotations

import re

import yaml

from civrules.diagnostics import Diagnostic
from civrules.pipeline import Analysis, analyse
from tests.rulefiles import CachedWorkspace, shipped_text

#: A variant of Advanced Civilization that removes Cloth Making (nothing of the base refers to it).
NO_CLOTH = (
    "kind: ruleset\nid: no-cloth\nname: No Cloth Making\nextends: advanced-civilization\n"
    "overlay:\n  civilization_cards:\n    remove:\n      - {id: cloth_making, why: house rule}\n"
)
LOOMS = (
    "      - {id: looms, name: Looms, groups: [crafts], cost: 90, attributes: [], credits: [],\n"
    '         prerequisites: [{card: cloth_making, source: "house rule"}], source: "house rule"}\n'
)


def header(ruleset_id: str, extends: str) -> str:
    return f"kind: ruleset\nid: {ruleset_id}\nname: {ruleset_id}\nextends: {extends}\n"


def analysed(ruleset_id: str, text: str, *others: tuple[str, str]) -> Analysis:
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": text, **dict(others)})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))


def problems(analysis: Analysis, *codes: str) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info" and (not codes or d.code in codes)]


def quoted(hint: str | None, starting: str) -> list[str]:
    """The texts the hint quotes (between backticks) that start with ``starting``."""
    return [text for text in (hint or "").split("`")[1::2] if text.startswith(starting)]


def follow_patches(text: str, hint: str | None) -> str:
    """``text`` (a variant's manifest, its `overlay:` last) with each patch the hint writes (``in
    `overlay.NAME`: `patch: [...]` ``) added under its collection, as a designer pastes it."""
    for name, patch in re.findall(r"`overlay\.(\w+)`: `(patch: \[[^`]*\])`", hint or ""):
        block = f"  {name}:\n"
        text = text.replace(block, f"{block}    {patch}\n") if block in text else f"{text}{block}    {patch}\n"
    return text


# --- V006: a reference to an entity removed ----------------------------------------------------------


def test_a_reference_from_an_entity_the_variant_adds_is_dropped_in_its_add_entry() -> None:
    """The hint said "patch `looms` in `overlay.civilization_cards`": followed, V005 (the base has no
    `looms`: a patch applies to the base, before `add`), whose hint was "use `add`"."""
    text = header("looms", "no-cloth") + "overlay:\n  civilization_cards:\n    add:\n" + LOOMS
    (found,) = problems(analysed("looms", text, ("rulesets/no-cloth.yaml", NO_CLOTH)))
    assert found.code == "V006" and found.hint is not None
    assert "patch `looms`" not in found.hint
    assert "this variant's `add` entry of `looms`" in found.hint, found.hint
    followed = text.replace('[{card: cloth_making, source: "house rule"}]', "[]")
    assert problems(analysed("looms", followed, ("rulesets/no-cloth.yaml", NO_CLOTH))) == []


def test_a_reference_that_is_a_tracks_key_is_removed_with_the_tracks_as_the_hint_writes_them() -> None:
    """Mega Civilization prints a Basic and an Expert track per nation: the hint said "patch
    `kushan` in `overlay.ast_tracks`", but a track's `nation` is its key; `{nation: kushan}` names
    no track (V005)."""
    text = header("m17", "mega-civilization") + (
        'overlay:\n  nations:\n    remove:\n      - {id: kushan, why: "house rule: 17 civilizations"}\n'
    )
    (found,) = problems(analysed("m17", text), "V006")
    assert "patch `kushan`" not in (found.hint or "")
    (removal,) = quoted(found.hint, "remove: [")
    assert removal == (
        'remove: [{nation: kushan, level: basic, why: "house rule: write why here"}, '
        '{nation: kushan, level: expert, why: "house rule: write why here"}]'
    ), found.hint
    assert "`overlay.ast_tracks`" in (found.hint or "")
    # The player counts that seat Kushan (bubba0077/MegaCiv's StartingCivs) are patched as the same
    # hint writes it: each count's configuration named by its id, Kushan removed from its nations.
    (patch,) = quoted(found.hint, "patch: [")
    assert patch.startswith(
        "patch: [{players: 6, configurations: {patch: [{where: {id: east}, with: {nations: {remove: [kushan]}}}]}}, "
    ), found.hint
    assert "`overlay.player_counts`" in (found.hint or "") and "more)" not in (found.hint or "")
    pasted = text + f"  ast_tracks:\n    {removal}\n  player_counts:\n    {patch}\n"
    assert {d.code for d in problems(analysed("m17", pasted))} == {"L016"}  # the removals' blanks
    after = analysed("m17", pasted.replace("write why here", "17 civilizations"))
    assert problems(after, "V005", "V006", "V007", "S001", "S002") == []
    assert after.resolved is not None
    seated = [e.raw for e in after.resolved.collections["player_counts"] if e.raw["players"] == 6]
    assert [c["nations"] for c in seated[0]["configurations"] if c["id"] == "east"] == [
        ["parthia", "persia", "babylon", "saba", "indus"]
    ]


def test_a_reference_that_is_the_only_element_of_a_list_is_deleted_with_null_as_the_hint_writes_it() -> None:
    """Pottery's attribute names Famine in a list of one calamity: the hint said "one inside an
    element with `{patch: [{where: SELECTOR, with: {...}}]}`"; followed with `{remove: [...]}`, the
    list left empty is S001 (designer audit, round 19, defect 5)."""
    text = header("no-famine", "advanced-civilization") + (
        "overlay:\n  calamities:\n    remove:\n      - {id: famine, why: house rule}\n"
    )
    (found,) = problems(analysed("no-famine", text), "V006")
    (patch,) = quoted(found.hint, "patch: [")
    assert patch == (
        'patch: [{id: pottery, attributes: {patch: [{where: {rule: "32.211"}, with: {calamities: null}}]}}]'
    ), found.hint
    followed = text + f"  civilization_cards:\n    {patch}\n"
    analysis = analysed("no-famine", followed)
    assert problems(analysis) == []
    assert analysis.resolved is not None
    (pottery,) = [e.raw for e in analysis.resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    assert all("calamities" not in attribute for attribute in pottery["attributes"])


def test_references_in_several_lists_of_one_entity_are_dropped_by_one_patch_entry() -> None:
    """A card that credits and requires the removed one: both references in one entry, an element
    removed from each list (the others kept), named by the field that holds the reference; its
    prerequisites, a list that may be empty but is required, are emptied, not deleted."""
    looms = LOOMS.replace(
        "credits: []",
        'credits: [{card: cloth_making, points: 10, source: "house rule"},\n'
        '         {card: pottery, points: 5, source: "house rule"}]',
    )
    base = NO_CLOTH.replace("id: no-cloth", "id: base").replace(
        "    remove:\n      - {id: cloth_making, why: house rule}\n", "    add:\n" + looms
    )
    text = header("no-cloth", "base") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: cloth_making, why: house rule}\n"
    )
    (found,) = problems(analysed("no-cloth", text, ("rulesets/base.yaml", base)), "V006")
    (patch,) = quoted(found.hint, "patch: [")
    assert patch == (
        "patch: [{id: looms, credits: {remove: [{card: cloth_making}]}, "
        "prerequisites: {remove: [{card: cloth_making}]}}]"
    ), found.hint
    followed = follow_patches(text, found.hint)
    assert problems(analysed("no-cloth", followed, ("rulesets/base.yaml", base))) == []


def test_a_reference_that_is_a_borders_key_is_removed_with_the_borders() -> None:
    """An area's borders name it in their key (`areas`): the hint said "patch
    `central_mediterranean|cyrene` in `overlay.borders`"."""
    text = header("no-cyrene", "advanced-civilization") + (
        "overlay:\n  areas:\n    remove:\n      - {id: cyrene, why: house rule}\n"
    )
    (found,) = problems(analysed("no-cyrene", text), "V006")
    (removal,) = quoted(found.hint, "remove: [")
    assert removal.startswith(
        'remove: [{areas: [central_mediterranean, cyrene], why: "house rule: write why here"}, '
    ), found.hint
    assert "`overlay.borders`" in (found.hint or "")
    # pasted as written, the blanks alone are reported (L016); filled, nothing is left
    pasted = text + f"  borders:\n    {removal}\n"
    assert {d.code for d in problems(analysed("no-cyrene", pasted))} == {"L016"}
    followed = pasted.replace("write why here", "no Cyrene")
    assert problems(analysed("no-cyrene", followed), "V005", "V006") == []


def test_past_a_dozen_referrers_the_hint_writes_the_first_and_counts_the_rest() -> None:
    cards = "".join(LOOMS.replace("looms", f"looms_{i}").replace("Looms", f"Looms {i}") for i in range(14))
    base = NO_CLOTH.replace("id: no-cloth", "id: base").replace(
        "    remove:\n      - {id: cloth_making, why: house rule}\n", "    add:\n" + cards
    )
    text = header("no-cloth", "base") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: cloth_making, why: house rule}\n"
    )
    (found,) = problems(analysed("no-cloth", text, ("rulesets/base.yaml", base)), "V006")
    (patch,) = quoted(found.hint, "patch: [")
    assert patch.count("{id: looms_") == 12 and "(and each other the notes point at: 2 more)" in (found.hint or "")
    assert len(found.related) == 14
    (left,) = problems(analysed("no-cloth", follow_patches(text, found.hint), ("rulesets/base.yaml", base)))
    assert left.code == "V006" and left.message.endswith(
        "2 references to it remain: civilization card `looms_12`, civilization card `looms_13`"
    ), left.message


def test_an_entity_with_dozens_of_references_is_told_the_forms_not_an_entry_of_dozens() -> None:
    credits = ", ".join(f'{{card: cloth_making, points: {i}, source: "house rule"}}' for i in range(1, 41))
    base = NO_CLOTH.replace("id: no-cloth", "id: base").replace(
        "    remove:\n      - {id: cloth_making, why: house rule}\n",
        "    add:\n" + LOOMS.replace("credits: []", f"credits: [{credits}]"),
    )
    text = header("no-cloth", "base") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: cloth_making, why: house rule}\n"
    )
    (found,) = problems(analysed("no-cloth", text, ("rulesets/base.yaml", base)), "V006")
    assert quoted(found.hint, "patch: [") == [] and "patch `looms` in `overlay.civilization_cards`" in (
        found.hint or ""
    ), found.hint


def test_a_reference_from_the_base_is_patched_away_from_the_variant_as_the_hint_writes_it() -> None:
    text = header("no-medicine", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: medicine, why: house rule}\n"
    )
    (found,) = problems(analysed("no-medicine", text), "V006")
    assert (found.hint or "").startswith("in this variant, patch the calamity that names it"), found.hint
    followed = follow_patches(text, found.hint)
    assert "  calamities:\n    patch: [{id: epidemic, modifiers: {remove: [" in followed
    assert problems(analysed("no-medicine", followed)) == []


def test_the_errors_a_written_patch_is_checked_against_tell_two_missing_keys_from_one() -> None:
    """A V006 patch entry is offered only if the entity so patched has no error it lacked before:
    the errors were a set of (place, keyword) pairs, so a patch that deleted a required field of an
    entity already missing another one added nothing to it, and was offered."""
    from civrules.schema import entity_errors

    calamity = dict(yaml.safe_load(shipped_text("calamities/advanced-civilization.yaml"))["calamities"][0])
    del calamity["name"]
    before = entity_errors("calamities", ("calamities",), calamity)
    del calamity["stack"]
    after = entity_errors("calamities", ("calamities",), calamity)
    assert before and not after <= before


# --- S001: a patch that empties a list: `null` deletes the field --------------------------------------


def test_a_patch_that_empties_an_optional_list_is_told_to_delete_it_with_null() -> None:
    """The auditor followed the old V006 hint with `{remove: [...]}`: "the list has 0 items, at least
    1 needed", hint "write a list of at least 1 item" (designer audit, round 19, defect 5)."""
    text = header("no-famine", "advanced-civilization") + (
        "overlay:\n  calamities:\n    remove:\n      - {id: famine, why: house rule}\n"
        "  civilization_cards:\n    patch:\n      - id: pottery\n        attributes:\n          patch:\n"
        '            - where: {rule: "32.211"}\n              with: {calamities: {remove: [{calamity: famine}]}}\n'
    )
    (found,) = problems(analysed("no-famine", text))
    assert found.code == "S001" and found.hint is not None
    (written,) = quoted(found.hint, "calamities: ")
    assert written == "calamities: null", found.hint
    followed = text.replace("{calamities: {remove: [{calamity: famine}]}}", "{" + written + "}")
    assert problems(analysed("no-famine", followed)) == []


def test_an_add_that_writes_an_optional_list_empty_is_told_to_leave_it_out() -> None:
    """In an `add` (written whole, where `null` deletes nothing) the field is left out instead."""
    text = header("looms", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    add:\n"
        + LOOMS.replace("cloth_making", "pottery").replace(
            "attributes: []", 'attributes: [{text: "Looms.", source: "house rule", calamities: []}]'
        )
    )
    (found,) = problems(analysed("looms", text))
    assert found.code == "S001" and (found.hint or "").startswith("leave out `calamities`"), found.hint
    followed = text.replace(", calamities: []", "")
    assert problems(analysed("looms", followed)) == []


def test_a_patch_that_empties_a_required_list_is_not_told_to_delete_it() -> None:
    """A calamity's `primary` effects are required: `null` would delete them (S003), so the hint
    stays the list's."""
    text = header("x", "advanced-civilization") + (
        'overlay:\n  calamities:\n    patch:\n      - {id: famine, primary: [], source: "house rule"}\n'
    )
    (found,) = problems(analysed("x", text))
    assert found.code == "S001" and found.hint == "write a list of at least 1 item"


def test_a_required_list_left_empty_beside_other_missing_keys_is_not_told_to_leave_it_out() -> None:
    """Round 21's trial: a `replace` of the victory missing `tie` and its citation was told "leave
    out `end_conditions`" and "leave out `scoring`", and following it gave S004 for both: with the
    mapping already missing required keys, the missing `end_conditions` was one more `required`
    error at the same place, and a set of (place, keyword) pairs did not grow."""
    text = header("ep-h6", "expansion-project") + (
        "overlay:\n  settings:\n    replace:\n      victory: {highest_wins: true, end_conditions: [], scoring: []}\n"
    )
    emptied = [d for d in problems(analysed("ep-h6", text), "S001") if "list is empty" in d.message]
    assert len(emptied) == 2
    assert all(d.hint == "write a list of at least 1 item" for d in emptied), [d.hint for d in emptied]
    followed = text.replace(", end_conditions: [], scoring: []", "")
    assert {d.message for d in problems(analysed("ep-h6", followed), "S004")} >= {
        "missing key `end_conditions` in `overlay.settings.replace.victory`",
        "missing key `scoring` in `overlay.settings.replace.victory`",
    }


def test_an_optional_list_left_empty_beside_other_missing_keys_is_still_told_to_leave_it_out() -> None:
    """The same mapping's optional list (a civilization card's `purchase_effects`) is still told to
    leave it out, however many required keys the mapping misses."""
    text = header("looms", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    add:\n"
        '      - {id: looms, groups: [crafts], attributes: [], credits: [], prerequisites: [], source: "house rule",\n'
        "         purchase_effects: []}\n"
    )
    [found] = [d for d in problems(analysed("looms", text), "S001") if "list is empty" in d.message]
    assert (found.hint or "").startswith("leave out `purchase_effects`"), found.hint


# --- V005: an operation that names no entity of the base --------------------------------------------


def test_a_patch_of_an_entity_the_same_variant_adds_says_to_change_the_add_entry() -> None:
    """The hint was "use `add` to create a new civilization_cards entry": the `add` is there."""
    text = header("looms", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: looms, cost: 100}\n    add:\n"
        + LOOMS.replace("cloth_making", "pottery")
    )
    (found,) = problems(analysed("looms", text))
    assert found.code == "V005"
    assert found.hint == (
        "this variant's `add` gives `looms`: write the change in that entry (a patch applies to the base, before `add`)"
    )
    assert [r.label for r in found.related] == ["the variant's `add` of `looms`"]
    assert found.message == "cannot patch civilization card `looms`: the base has no such entry (this variant adds it)"
    followed = text.replace("    patch:\n      - {id: looms, cost: 100}\n", "").replace("cost: 90", "cost: 100")
    assert problems(analysed("looms", followed)) == []


def test_a_patch_of_an_entity_the_same_variant_removes_says_so() -> None:
    text = header("no-medicine", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: mysticism, why: house rule}\n"
        "    patch:\n      - {id: mysticism, cost: 40}\n"
    )
    found = problems(analysed("no-medicine", text), "V005")
    assert [d.hint for d in found] == [
        "this variant removes `mysticism` (its `remove` entry, applied first): drop this patch, or the removal"
    ]
    # The message said "the base has no such entry" of a card the base has, against its own hint.
    assert [d.message for d in found] == ["cannot patch civilization card `mysticism`: this variant removes it"]


def test_a_patch_of_an_entity_the_base_removed_says_to_add_it_whole() -> None:
    """The hint was a "did you mean" of the closest card left, or "use `add` to create a new
    civilization_cards entry", as if the base never had it."""
    text = (
        header("cloth", "no-cloth")
        + "overlay:\n  civilization_cards:\n    patch:\n      - {id: cloth_making, cost: 40}\n"
    )
    (found,) = problems(analysed("cloth", text, ("rulesets/no-cloth.yaml", NO_CLOTH)))
    assert found.code == "V005"
    assert found.hint == "the base ruleset removes `cloth_making`: to have it in this variant, `add` it whole"
    assert found.message == "cannot patch civilization card `cloth_making`: the base ruleset removes it"
    assert [r.span.file for r in found.related] == ["rules/rulesets/no-cloth.yaml"]
    followed = text.replace("patch:\n      - {id: cloth_making, cost: 40}\n", "add:\n" + LOOMS).replace(
        "id: looms, name: Looms", "id: cloth_making, name: Cloth Making"
    )
    followed = followed.replace('[{card: cloth_making, source: "house rule"}]', "[]")
    assert problems(analysed("cloth", followed, ("rulesets/no-cloth.yaml", NO_CLOTH))) == []


def test_two_changes_of_an_entity_the_same_variant_removes_are_one_error_noting_both() -> None:
    """Round 26 left one V005 per entry, each with the same note at the removal: one mistake (the
    removal, or the changes of what it removes) on two lines. One error at the first, the other
    entry a note, and a hint for both; followed, the variant is clean."""
    text = header("no-medicine", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: mysticism, why: house rule}\n"
        '    replace:\n      - {id: mysticism, name: Mysticism, source: "house rule"}\n'
        '    patch:\n      - {id: mysticism, cost: 40, source: "house rule"}\n'
        '      - {id: mysticism, note: "cheaper"}\n'
    )
    (found,) = problems(analysed("no-medicine", text), "V005")
    assert found.message == (
        "cannot replace civilization card `mysticism`: this variant removes it; 2 more entries change it too"
    )
    assert found.hint == (
        "this variant removes `mysticism` (its `remove` entry, applied first): drop the 3 entries, or the removal"
    )
    lines = text.splitlines()
    assert [(r.label, r.span.line) for r in found.related] == [
        ("the variant's `remove` of `mysticism`", lines.index("      - {id: mysticism, why: house rule}") + 1),
        *[
            ("another entry of `overlay.civilization_cards` changing `mysticism`", n)
            for n in (len(lines) - 1, len(lines))
        ],
    ]
    followed = text.split("    replace:")[0]
    assert problems(analysed("no-medicine", followed), "V005") == []


def test_two_patches_of_an_entity_the_base_removed_are_one_error_three_deep() -> None:
    """A variant of a variant of the shipped game: the middle one removed the card."""
    text = (
        header("cloth", "no-cloth")
        + "overlay:\n  civilization_cards:\n    patch:\n      - {id: cloth_making, cost: 40}\n"
        + "      - {id: cloth_making, note: dearer}\n"
    )
    (found,) = problems(analysed("cloth", text, ("rulesets/no-cloth.yaml", NO_CLOTH)))
    assert found.code == "V005"
    assert (
        found.message
        == "cannot patch civilization card `cloth_making`: the base ruleset removes it; 1 more entry changes it too"
    )
    assert found.hint == (
        "the base ruleset removes `cloth_making`: to have it in this variant, `add` it whole, with what the 2 "
        "entries change"
    )
    assert [r.span.file for r in found.related] == ["rules/rulesets/no-cloth.yaml", "rules/rulesets/cloth.yaml"]


def test_two_patches_of_an_entity_the_same_variant_adds_are_one_error() -> None:
    text = header("looms", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: looms, cost: 100}\n      - {id: looms, note: x}\n"
        "    add:\n" + LOOMS.replace("cloth_making", "pottery")
    )
    (found,) = problems(analysed("looms", text))
    assert found.code == "V005"
    assert found.hint == (
        "this variant's `add` gives `looms`: write what the 2 entries change in that entry "
        "(they apply to the base, before `add`)"
    )
    assert [r.label for r in found.related] == [
        "the variant's `add` of `looms`",
        "another entry of `overlay.civilization_cards` changing `looms`",
    ]


def test_two_patches_of_a_misspelt_id_and_a_second_removal_stay_one_error_each() -> None:
    """Each is its own line's mistake: a misspelling is fixed where it is written, a second
    removal of one entity is deleted."""
    text = header("no-medicine", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    remove:\n      - {id: mysticism, why: house rule}\n"
        "      - {id: mysticism, why: again}\n"
        "    patch:\n      - {id: mistycism, cost: 40}\n      - {id: mistycism, note: x}\n"
    )
    found = problems(analysed("no-medicine", text), "V005")
    assert [d.message for d in found] == [
        "cannot remove civilization card `mysticism`: this variant already removes it",
        "cannot patch civilization card `mistycism`: the base has no such entry",
        "cannot patch civilization card `mistycism`: the base has no such entry",
    ]


def test_removing_a_track_by_its_nation_alone_names_each_track_to_remove() -> None:
    """`{nation: kushan}` was "did you mean `kushan@basic`?": a form the docs did not give, and one
    of the two tracks."""
    text = header("m17", "mega-civilization") + (
        'overlay:\n  ast_tracks:\n    remove:\n      - {nation: kushan, why: "house rule"}\n'
    )
    (found,) = problems(analysed("m17", text), "V005")
    named = quoted(found.hint, "nation: kushan, level: ")
    assert named == ["nation: kushan, level: basic", "nation: kushan, level: expert"], found.hint
    entries = "".join(f'      - {{{fields}, why: "house rule"}}\n' for fields in named)
    followed = text.replace('      - {nation: kushan, why: "house rule"}\n', entries)
    assert problems(analysed("m17", followed), "V005") == []


def test_a_misspelt_track_level_is_told_the_fields_to_write() -> None:
    text = header("m17", "mega-civilization") + (
        "overlay:\n  ast_tracks:\n    patch:\n      - {nation: kushan, level: expret, note: house rule}\n"
    )
    (found,) = problems(analysed("m17", text), "V005")
    assert found.hint == "did you mean `nation: kushan, level: expert`?"
    meant = re.findall(r"`([^`]*)`", found.hint)[0]
    followed = text.replace("nation: kushan, level: expret", meant)
    assert problems(analysed("m17", followed), "V005") == []


# --- an entry named as no patch can name it -----------------------------------------------------------


def _border(analysis: Analysis, first: str, second: str) -> dict[str, object]:
    assert analysis.resolved is not None, problems(analysis)
    (border,) = [e.raw for e in analysis.resolved.collections["borders"] if sorted(e.raw["areas"]) == [first, second]]
    return border


def test_the_way_to_change_a_border_from_the_variant_writes_its_key_as_a_patch_names_it() -> None:
    """A diagnostic left in a base file inside a border the variant patches was told "(`- areas:
    cyrene|libya` and the fields to change)": written so, the patch named no border and was
    skipped without a word."""
    from civrules.pipeline import _changed_by_the_variant

    text = header("coast", "advanced-civilization") + (
        "overlay:\n  borders:\n    patch:\n      - {areas: [cyrene, libya], note: house rule}\n"
    )
    analysis = analysed("coast", text)
    assert analysis.resolved is not None
    ways = [way for _, _, way in _changed_by_the_variant(analysis.resolved) if "cyrene, libya" in way]
    assert ways == [
        "patch `areas: [cyrene, libya]` in `overlay.borders` (`- areas: [cyrene, libya]` and the fields to change)"
    ]
    (fields,) = re.findall(r"`- ([^`]*)`", ways[0])
    followed = header("coast", "advanced-civilization") + (
        f"overlay:\n  borders:\n    patch:\n      - {{{fields}, note: written as told}}\n"
    )
    assert _border(analysed("coast", followed), "cyrene", "libya")["note"] == "written as told"


def test_an_overlay_entry_whose_key_names_no_entity_is_an_error_not_skipped() -> None:
    """`areas: cyrene|libya` (a border's key as messages write it), `id: [pottery]`: `validate`
    exited 0 and the entry changed nothing."""
    text = header("coast", "advanced-civilization") + (
        "overlay:\n  borders:\n    patch:\n      - {areas: cyrene|libya, note: house rule}\n"
        "  civilization_cards:\n    patch:\n      - {id: [pottery], cost: 50, source: house rule}\n"
    )
    found = problems(analysed("coast", text))
    # The schema refuses each now (a key's type is the collection's); its hints are the resolver's were.
    assert sorted((d.code, d.hint) for d in found) == [
        ("S001", "write one id, not a list: `id: pottery`"),
        ("S001", "write the pair as a list: `areas: [cyrene, libya]`"),
    ]
    followed = text.replace("areas: cyrene|libya", "areas: [cyrene, libya]").replace("id: [pottery]", "id: pottery")
    analysis = analysed("coast", followed)
    assert problems(analysis) == [] and _border(analysis, "cyrene", "libya")["note"] == "house rule"


def test_a_settings_patch_of_the_tracks_names_them_by_nation_and_level() -> None:
    text = header("m17", "mega-civilization") + "overlay:\n  settings:\n    ast: {tracks: []}\n"
    (found,) = problems(analysed("m17", text))
    assert found.hint is not None and "`nation` and" in found.hint and "`level`" in found.hint, found.hint


def test_removing_a_setting_the_base_lacks_says_to_delete_it_not_to_add_it() -> None:
    """The hint was "use `add` to give the variant a `special_rules`", to a variant removing it."""
    text = header("plain", "advanced-civilization") + "overlay:\n  settings:\n    remove: [special_rules, taxation]\n"
    (found,) = problems(analysed("plain", text))
    assert found.code == "V005" and found.hint == "nothing to remove: delete `special_rules` from `remove`"
    assert problems(analysed("plain", text.replace("special_rules, ", ""))) == []


def test_a_removed_card_a_setting_names_is_said_with_the_setting_and_its_change() -> None:
    """Removing Democracy from the Expansion Project counted 5 references and named 4: the fifth,
    the revolt's immunity card (`taxation.revolt.immune_card`, a setting of the manifest), was only
    a note, and no hint said how to change it from the variant. It is named, and its change in
    `overlay.settings` written first."""
    text = header("ep-no-democracy", "expansion-project") + (
        'overlay:\n  civilization_cards:\n    remove:\n      - {id: democracy, why: "house rule"}\n'
    )
    (found,) = problems(analysed("ep-no-democracy", text), "V006")
    assert found.message.endswith(", the setting `taxation.revolt.immune_card`")
    assert found.message.count("`, ") + 1 == 5  # each of the 5 references named
    assert found.hint is not None and found.hint.startswith(
        "in this variant, change what the setting names in `overlay.settings`: "
        "`taxation: {revolt: {immune_card: null}}`; in this variant, patch the civilization card"
    )
