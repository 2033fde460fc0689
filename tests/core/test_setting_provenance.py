"""A setting a variant changes keeps the provenance an entity keeps (round 21).

A setting removed or replaced (or patched over an `{unknown}`) kept counting its base's unknown
facts and citations: Q006/Q007, `cited_rules`, the package's `UNKNOWN_FACTS`. And a top-level
list setting changed by list operations (`patch: [{where:, with:}]`, `append`, `insert`) had no
provenance: an uncited `with:` passed Q009, a cited one had no `cited:` in `diff`, no
`setting_sources` in `export`. Entities (tests/core/test_unknowns.py, test_cited_changes.py) did
both right; these hold settings to the same, in every family.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from civrules.checks.citations import citations
from civrules.checks.unknowns import field_path, unknown_facts
from civrules.diagnostics import Diagnostic, Severity
from civrules.emit.export import export_ruleset
from civrules.families import family_named
from civrules.pipeline import Analysis, analyse, derived_facts
from civrules.resolve.diff import diff_rulesets
from tests.rulefiles import CachedWorkspace

EP = "kind: ruleset\nid: v\nname: V\nextends: expansion-project\n"
CAM = "kind: ruleset\nid: v\nname: V\nextends: central-america\n"
IS = "kind: ruleset\nfamily: imperial-settlers\nid: v\nname: V\nextends: imperial-settlers\n"

TAXATION = "taxation.revolt.beneficiary"
POINTS = "victory.scoring[advancements_100_and_more].points"
SPACES = "victory.scoring[ast_position].space_counting"
CREDIT = "credit_policy.two_group_cards"
NAVIGATION = "non_player_forces[conquistadors].advancements[5].card"
STACK = "non_player_forces[conquistadors].calamity_card.stack"


@functools.cache
def analysed(text: str, files: tuple[tuple[str, str], ...] = (), ruleset: str = "v") -> Analysis:
    workspace = CachedWorkspace({"rulesets/v.yaml": text, **dict(files)})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity is not Severity.INFO]


def unknowns(analysis: Analysis) -> set[str]:
    """The ruleset's unknown facts as Q006 names them, and as `UNKNOWN_FACTS` does (the same set)."""
    reported = {d.message.split("`")[1] for d in analysis.diagnostics if d.code == "Q006"}
    assert analysis.model is not None
    family = family_named(analysis.model.family)
    assert family is not None
    listed = {field_path(document.data, path, family) for document, path, _ in unknown_facts(analysis.model)}
    count = next(d.message for d in analysis.diagnostics if d.code == "Q007")
    assert f"has {len(listed)} unknown facts" in count
    return reported | listed


def cited_in(analysis: Analysis, file: str, root: str) -> list[Any]:
    """The `rule:` numbers the ruleset still cites under the top-level key ``root`` of ``file``."""
    assert analysis.model is not None
    return [
        n for document, path, n in citations(analysis.model) if document.file.endswith(file) and path[:1] == (root,)
    ]


def exported(analysis: Analysis) -> dict[str, Any]:
    assert analysis.resolved is not None and analysis.model is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def test_a_removed_setting_takes_its_unknowns_and_citations_with_it() -> None:
    base = analysed(EP + "overlay:\n  settings:\n    remove: [hand_limit]\n")  # a setting with no unknown
    text = EP + "overlay:\n  settings:\n    remove: [taxation, victory, credit_policy]\n"
    analysis = analysed(text)
    assert problems(analysis) == []
    assert {TAXATION, POINTS, SPACES, CREDIT} <= unknowns(base)
    gone = unknowns(base) - unknowns(analysis)
    assert {TAXATION, POINTS, SPACES, CREDIT} <= gone
    assert all(u.split(".")[0].split("[")[0] in ("taxation", "victory", "credit_policy") for u in gone)
    for root in ("taxation", "victory", "credit_policy"):
        assert cited_in(base, "expansion-project.yaml", root)
        assert cited_in(analysis, "expansion-project.yaml", root) == []


def test_a_setting_patched_to_null_is_gone_as_a_removed_one() -> None:
    analysis = analysed(EP + "overlay:\n  settings:\n    taxation: null\n")
    assert TAXATION not in unknowns(analysis)
    assert cited_in(analysis, "expansion-project.yaml", "taxation") == []


def test_a_replaced_setting_and_a_patch_over_an_unknown_keep_only_what_holds() -> None:
    text = EP + (
        "overlay:\n  settings:\n    replace:\n"
        '      taxation: {rule: ["13.1"], tokens_per_city: 3, source: "house rule: heavier tax"}\n'
        "    victory:\n      scoring:\n        patch:\n"
        "          - where: {id: advancements_100_and_more}\n"
        '            with: {points: 3, source: "house rule: 3 points"}\n'
    )
    analysis = analysed(text)
    assert problems(analysis) == []
    found = unknowns(analysis)
    assert TAXATION not in found and POINTS not in found
    assert SPACES in found  # the scoring element the patch left keeps its unknown
    # The base's taxation cites 13.x throughout; the replacement's own 13.1 is in the variant.
    assert cited_in(analysis, "expansion-project.yaml", "taxation") == []
    assert cited_in(analysis, "v.yaml", "overlay") == ["13.1"]
    assert cited_in(analysis, "expansion-project.yaml", "victory")  # what the patch left


def test_a_setting_removed_then_added_again_counts_only_the_added_ones() -> None:
    mid = EP.replace("id: v\nname: V", "id: mid\nname: Mid") + "overlay:\n  settings:\n    remove: [taxation]\n"
    leaf = EP.replace("extends: expansion-project", "extends: mid") + (
        "overlay:\n  settings:\n    add:\n"
        "      taxation:\n        tokens_per_city: 3\n        source: house rule\n"
        '        revolt: {text: "Revolts.", source: "house rule", beneficiary: {unknown: "leaf"}}\n'
    )
    analysis = analysed(leaf, (("rulesets/mid.yaml", mid),))
    assert problems(analysis) == [] and analysis.model is not None
    assert cited_in(analysis, "expansion-project.yaml", "taxation") == []
    family = family_named(analysis.model.family)
    assert family is not None
    facts = [
        (analysis.model.file_name(document.file), field_path(document.data, path, family))
        for document, path, _ in unknown_facts(analysis.model)
        if "taxation" in field_path(document.data, path, family)
    ]
    assert facts == [("rulesets/v.yaml", "overlay.settings.add.taxation.revolt.beneficiary")]


@pytest.mark.parametrize(
    ("overlay", "gone", "kept"),
    [
        # a `with:` writing a known value over an element's unknown
        (
            "    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
            "          with:\n            calamity_card: {stack: 9}\n"
            '            source: "house rule: stack 9"\n',
            {STACK},
            {NAVIGATION},
        ),
        # nested list operations inside the `with:`
        (
            "    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
            "          with:\n            advancements:\n              patch:\n"
            "                - where: {name: Navigazione}\n                  with: {card: cartography}\n"
            '            source: "house rule: navigation"\n',
            {NAVIGATION},
            {STACK},
        ),
        # a removed element
        (
            "    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
            "          with: {advancements: {remove: [{name: Navigazione}]}}\n",
            {NAVIGATION},
            {STACK},
        ),
        # an appended element writes over nothing
        (
            "    special_rules:\n      append:\n"
            '        - {id: house, text: "A house rule.", source: "house rule: one more"}\n',
            set(),
            {NAVIGATION, STACK},
        ),
    ],
    ids=["with", "nested", "remove", "append"],
)
def test_list_operations_on_a_list_setting_supersede_what_they_write_over(
    overlay: str, gone: set[str], kept: set[str]
) -> None:
    analysis = analysed(CAM + "overlay:\n  settings:\n" + overlay)
    assert problems(analysis) == []
    found = unknowns(analysis)
    assert not (gone & found) and kept <= found
    assert len(unknowns(analysed(CAM))) - len(found) == len(gone)


UNCITED = [
    (
        CAM,
        "    special_rules:\n      patch:\n        - where: {id: tools_and_slaves}\n"
        '          with: {text: "Slaves never save anyone."}\n',
        "special_rules",
    ),
    (
        CAM,
        "    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
        '          with: {name: "Spaniards"}\n',
        "non_player_forces",
    ),
    (
        CAM,
        "    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
        "          with: {advancements: {append: [{card: mining, name: Miniere}]}}\n",
        "non_player_forces",
    ),
    (IS, '    setup:\n      patch:\n        - where: {step: 1}\n          with: {text: "Deal 5 cards."}\n', "setup"),
]


@pytest.mark.parametrize(("manifest", "overlay", "key"), UNCITED, ids=["text", "name", "nested-append", "is-setup"])
def test_an_uncited_list_operation_on_a_list_setting_is_q009_at_the_setting(
    manifest: str, overlay: str, key: str
) -> None:
    text = manifest + "overlay:\n  settings:\n" + overlay
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1, problems(analysed(text))
    assert found[0].span is not None
    assert text.splitlines()[found[0].span.line - 1].strip().startswith(f"{key}:")
    assert f"the setting `{key}` is changed with no citation" in found[0].message
    assert "in each `with:`" in (found[0].hint or "")
    # Following the hint (a `source:` in the `with:`) validates.
    cited = text.replace("with: {", 'with: {source: "house rule: ...", ', 1)
    assert [d.code for d in problems(analysed(cited))] == []


def test_a_cited_list_operation_on_a_list_setting_is_cited_in_diff_and_export() -> None:
    text = IS + (
        "overlay:\n  settings:\n    setup:\n      patch:\n        - where: {step: 1}\n"
        '          with: {text: "Deal 5 cards.", source: "house rule: deal first"}\n'
    )
    analysis = analysed(text)
    assert problems(analysis) == []
    assert exported(analysis)["setting_sources"] == {"setup": {"setup": "source: house rule: deal first"}}
    base = analysed(text, (), "imperial-settlers")
    assert base.resolved is not None and analysis.resolved is not None
    changes = [c for c in diff_rulesets(base.resolved, analysis.resolved).settings if c.path.startswith("setup")]
    assert [c.path for c in changes] == ["setup[1].text"]
    assert changes[0].sources is not None and changes[0].sources[1] == "source: house rule: deal first"


# Round 22: what a variant writes over is decided by every overlay entry that changed a field, not
# by the field's last changer alone (Origin.changed_by): a variant of a variant that changed the
# same field again brought back the base's unknowns the first one had written over, and an earlier
# entry's own unknown a later one wrote over was still counted.

SMC_V = "kind: ruleset\nid: v\nname: V\nextends: mid\n"
MID = "kind: ruleset\nid: mid\nname: Mid\nextends: {base}\n"


def test_a_variant_of_a_variant_changing_the_same_list_setting_keeps_what_the_first_wrote_over() -> None:
    mid = MID.format(base="central-america") + (
        "overlay:\n  settings:\n    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
        '          with:\n            calamity_card: {stack: 9}\n            source: "house rule: stack 9"\n'
    )
    leaf = SMC_V + (
        "overlay:\n  settings:\n    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
        '          with: {name: "Spaniards", source: "house rule: a name"}\n'
    )
    files = (("rulesets/mid.yaml", mid),)
    assert problems(analysed(leaf, files)) == []
    assert STACK not in unknowns(analysed(leaf, files, "mid")) and NAVIGATION in unknowns(analysed(leaf, files))
    assert STACK not in unknowns(analysed(leaf, files))
    assert unknowns(analysed(leaf, files)) == unknowns(analysed(leaf, files, "mid"))


def test_an_earlier_patch_s_unknown_a_later_patch_wrote_over_is_no_unknown_fact() -> None:
    mid = MID.format(base="sid-meiers-civilization") + (
        "overlay:\n  wonders:\n    patch:\n"
        '      - {id: colossus, cost: {unknown: "the house has not decided"}, source: "house rule: a"}\n'
    )
    leaf = SMC_V + 'overlay:\n  wonders:\n    patch:\n      - {id: colossus, cost: 16, source: "house rule: b"}\n'
    files = (("rulesets/mid.yaml", mid),)
    assert problems(analysed(leaf, files)) == []
    written = "overlay.wonders.patch[colossus].cost"
    assert written in unknowns(analysed(leaf, files, "mid"))
    assert written not in unknowns(analysed(leaf, files))
    assert len(unknowns(analysed(leaf, files))) == len(unknowns(analysed(leaf, files, "mid"))) - 1


def test_list_operations_on_a_list_setting_a_base_variant_wrote_whole_do_not_bring_its_unknown_back() -> None:
    """A variant writes the two-coast areas whole over the map's `{unknown}`; a variant of it
    appends one: the map's unknown came back (Q006, Q007, `UNKNOWN_FACTS`), the list operations'
    record of the setting keeping none of what the whole write stood in place of (round 24)."""
    ac = "kind: ruleset\nid: {id}\nname: {id}\nextends: {base}\noverlay:\n  settings:\n"
    mid = ac.format(id="mid", base="advanced-civilization") + "    two_coast_areas: [corinth]\n"
    leaf = ac.format(id="v", base="mid") + "    two_coast_areas: {append: [cyprus]}\n"
    files = (("rulesets/mid.yaml", mid),)
    assert "two_coast_areas" not in unknowns(analysed(leaf, files, "mid"))
    assert "two_coast_areas" not in unknowns(analysed(leaf, files))
    assert unknowns(analysed(leaf, files)) == unknowns(analysed(leaf, files, "mid"))


AC = "kind: ruleset\nid: v\nname: V\nextends: advanced-civilization\n"
#: An entry appending a credit of Pottery whose points are unknown.
UNKNOWN_CREDIT = (
    "overlay:\n  civilization_cards:\n    patch:\n"
    "      - {id: pottery, credits: {append: [{card: mining, points: {unknown: why}, rule: '32.211'}]}}\n"
)


@pytest.mark.parametrize(
    ("later", "counted"),
    [
        ("{remove: [{card: mining}]}", False),
        ("{replace: [{where: {card: mining}, with: {card: mining, points: 5, rule: '32.211'}}]}", False),
        ("{patch: [{where: {card: mining}, with: {points: 10}}]}, source: 'house rule: b'", False),
        ("{patch: [{where: {card: mining}, with: {rule: '32.212'}}]}", True),
    ],
    ids=["removed", "replaced", "patched-known", "patched-elsewhere"],
)
def test_an_unknown_an_entry_appended_is_gone_when_a_later_entry_removes_or_writes_over_it(
    later: str, counted: bool
) -> None:
    """An entry appends an element with an `{unknown: why}` to a card's list, a later entry of the
    variant removes the element, replaces it, or patches a known value over the unknown: the
    unknown is no fact (Q006, Q007, `UNKNOWN_FACTS`). What a later entry's list operations took of
    the elements an earlier one wrote was not told apart (the entries' documents were read, not
    the records of what each wrote that is left), and the unknown was still counted (round 24); a
    patch of another field of the element leaves it."""
    appended = analysed(AC + UNKNOWN_CREDIT)
    text = AC + UNKNOWN_CREDIT + f"      - {{id: pottery, credits: {later}}}\n"
    found = unknowns(analysed(text))
    assert len(unknowns(appended)) == len(unknowns(analysed(AC))) + 1
    assert found == (unknowns(appended) if counted else unknowns(analysed(AC)))


#: A variant appending, inside a `patch:`'s `with:`, an advancement of the Conquistadors whose card is unknown.
NESTED_UNKNOWN = MID.format(base="central-america") + (
    "overlay:\n  settings:\n    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
    "          with:\n            advancements: {append: [{card: {unknown: why}, name: Miniere}]}\n"
    '            source: "house rule: a"\n'
)


@pytest.mark.parametrize(
    ("later", "counted"),
    [
        ("{remove: [{name: Miniere}]}", False),
        ("{replace: [{where: {name: Miniere}, with: {card: mining, name: Miniere}}]}", False),
        ("{patch: [{where: {name: Miniere}, with: {card: mining}}]}", False),
        ("{patch: [{where: {name: Miniere}, with: {note: a mine}}]}", True),
        ("{append: [{card: mining, name: Mine}]}", True),
    ],
    ids=["removed", "replaced", "patched-known", "patched-elsewhere", "appended-beside"],
)
def test_an_unknown_appended_inside_a_with_is_gone_when_a_later_nested_operation_takes_it(
    later: str, counted: bool
) -> None:
    """The nested case of the test above (round 25): the unknown was appended to a list inside a
    list element (a `patch:`'s `with:`), and a variant of that variant removes the element,
    replaces it or patches a known value over the unknown with list operations inside its own
    `with:`. Both wrote list operations into one list, and what the later took of the elements the
    earlier added was not read (an earlier writer's list operations were no list to select in):
    the unknown was still counted (Q006, Q007, `UNKNOWN_FACTS`), and the variant that appended the
    element still cited the setting in `export` and `diff`."""
    leaf = SMC_V + (
        "overlay:\n  settings:\n    non_player_forces:\n      patch:\n        - where: {id: conquistadors}\n"
        f"          with:\n            advancements: {later}\n"
        '            source: "house rule: b"\n'
    )
    files = (("rulesets/mid.yaml", NESTED_UNKNOWN),)
    assert problems(analysed(leaf, files)) == []
    written = "overlay.settings.non_player_forces.patch[0].with.advancements.append[0].card"
    appended = unknowns(analysed(leaf, files, "mid"))
    assert written in appended
    assert (written in unknowns(analysed(leaf, files))) is counted
    assert len(unknowns(analysed(leaf, files))) == len(appended) - (0 if counted else 1)
    # the citation side: the first variant is cited while a fact it wrote is left (the element's
    # name, where only its card was patched), not once its only element was removed or replaced
    cited = exported(analysed(leaf, files))["setting_sources"]["non_player_forces"]["non_player_forces"]
    assert ("house rule: a" in cited) is (later.startswith(("{patch", "{append"))), cited
