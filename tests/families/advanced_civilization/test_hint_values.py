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


def test_a_card_added_twice_by_one_variant_is_told_to_rename_or_drop_one() -> None:
    """There is no base entry to patch: the entry added first is the variant's own."""
    card = (
        "      - {id: banking, name: Banking, groups: [crafts], cost: 140, attributes: [], prerequisites: [],"
        ' credits: [], source: "house rule"}\n'
    )
    variant = (
        "kind: ruleset\nid: ac-twice\nname: twice\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    add:\n" + card + card.replace("Banking", "Banking Two")
    )
    workspace = CachedWorkspace({"rulesets/ac-twice.yaml": variant})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-twice"]))
    [v004] = [d for d in analysis.diagnostics if d.code == "V004"]
    assert v004.hint == "this variant's `add` already gives `banking`: rename one of the two entries, or drop one"
    assert [(r.span.line, r.label) for r in v004.related] == [(8, "given first here, by the variant's `add`")]


def test_a_card_the_base_has_is_told_to_patch_it() -> None:
    variant = (
        "kind: ruleset\nid: ac-again\nname: again\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    add:\n"
        "      - {id: pottery, name: Pottery, groups: [crafts], cost: 45, attributes: [], prerequisites: [],"
        ' credits: [], source: "house rule"}\n'
    )
    workspace = CachedWorkspace({"rulesets/ac-again.yaml": variant})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-again"]))
    [v004] = [d for d in analysis.diagnostics if d.code == "V004"]
    # In the designer's words (the card, not the overlay's block `civilization_cards`), and what to
    # write where: the entry moved under `patch:`, or an id of the variant's own.
    assert v004.message == "cannot add civilization card `pottery`: it already exists"
    assert v004.hint == (
        "to change the base's civilization card `pottery`, move this entry under `patch:` in "
        "`overlay.civilization_cards` and keep only the fields that differ (or under `replace:`, written "
        "whole); to add a civilization card of this variant's own, write it with an `id:` the base does not use"
    )


def test_a_card_a_variant_adds_under_a_base_cards_name_is_told_to_patch_that_one() -> None:
    """I002 of a card a variant adds with the name of one of its base's said "civilization_cards:
    ... reads the same as ..." and "give each entity a distinct name": it now names the card in the
    designer's words and writes the patch of the base's card, or a name of its own."""
    variant = (
        "kind: ruleset\nid: ac-named\nname: named\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    add:\n"
        "      - {id: pottery_ii, name: Pottery, groups: [crafts], cost: 60, attributes: [], prerequisites: [],"
        ' credits: [], source: "house rule"}\n'
    )
    workspace = CachedWorkspace({"rulesets/ac-named.yaml": variant})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-named"]))
    [i002] = [d for d in analysis.diagnostics if d.code == "I002"]
    assert i002.message == "civilization card `Pottery` (`pottery_ii`) reads the same as `Pottery` (`pottery`)"
    assert i002.span is not None and i002.span.file.endswith("rulesets/ac-named.yaml") and i002.span.line == 8
    assert i002.hint == (
        "the base already has civilization card `pottery` named `Pottery`: to change it, write "
        "`patch: [{id: pottery, cost: 60, attributes: [], credits: [], source: house rule}]` in the manifest's "
        "`overlay.civilization_cards` and drop `pottery_ii`; "
        "or give `pottery_ii` a name of its own"
    )
