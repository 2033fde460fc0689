"""Every fact a variant writes is cited (Q009, round 20).

A variant's `patch` wrote facts with no citation and `validate` said nothing: `export` then gave
`field_sources: {cost: null}` and the package kept the base's rule beside the new value. An entity
added without a citation was S004 all along; a patch is the same fact written over its base's.
The shape of a citation is tests/core/test_citation_shapes.py's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from civrules import model
from civrules.checks.citations import check_cited_changes
from civrules.diagnostics import Diagnostic
from civrules.emit.export import export_ruleset
from civrules.pipeline import Analysis, analyse, build_model, derived_facts
from civrules.resolve import Resolver
from tests.core.test_resolve import variant
from tests.rulefiles import CachedWorkspace

SMC = "kind: ruleset\nid: cite\nname: Cite\nextends: sid-meiers-civilization\n"
IS = "kind: ruleset\nfamily: imperial-settlers\nid: cite\nname: Cite\nextends: imperial-settlers\n"
HOUSE_RULE = 'source: "house rule: write why here"'  # what Q009's and S001's hints write (a blank, L016)
CITED = 'source: "house rule: a reason"'  # the blank filled


def analysed(text: str, files: dict[str, str] | None = None, ruleset: str = "cite") -> Analysis:
    workspace = CachedWorkspace({"rulesets/cite.yaml": text, **(files or {})})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def colossus(extra: str = "") -> str:
    return SMC + f"overlay:\n  wonders:\n    patch:\n      - {{id: colossus, cost: 12{extra}}}\n"


def at(text: str, found: Diagnostic) -> str:
    assert found.span is not None
    return text.splitlines()[found.span.line - 1][found.span.column - 1 :]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (colossus(), "cost: 12"),
        (colossus(", source: null"), "cost: 12"),
        (IS + "overlay:\n  settings:\n    rounds: {count: 6}\n", "count: 6"),
        (SMC + "overlay:\n  technologies:\n    patch:\n      - {id: pottery, level: 2}\n", "level: 2"),
        (IS + "overlay:\n  cards:\n    patch:\n      - {id: bar004, deal: wood}\n", "deal: wood"),
    ],
    ids=["entity", "null-source", "setting", "technology", "card"],
)
def test_a_patch_that_writes_a_fact_without_a_citation_is_q009_at_the_field(text: str, field: str) -> None:
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1 and found[0].severity == "error", problems(analysed(text))
    assert at(text, found[0]).startswith(field)
    assert HOUSE_RULE in (found[0].hint or "")


def test_following_q009_s_hint_literally_validates_and_cites_the_field() -> None:
    text = colossus(f", {CITED}")
    analysis = analysed(text)
    assert problems(analysis) == []
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    (written,) = [w for w in exported["wonders"] if w["id"] == "colossus"]
    assert written["field_sources"] == {"cost": "source: house rule: a reason"}


def test_fields_of_one_patch_entry_are_one_diagnostic() -> None:
    text = SMC + 'overlay:\n  wonders:\n    patch:\n      - {id: colossus, cost: 12, name: "O Colosso"}\n'
    (found,) = problems(analysed(text))
    assert found.message.startswith("`colossus`: `cost`, `name` are changed with no citation")


def test_a_chain_s_base_answers_for_its_own_patches() -> None:
    """The leaf cites its change; its base (a variant of the designer's too) does not: the base's
    validation reports it, not every variant of it again."""
    base = colossus().replace("id: cite\nname: Cite", "id: mid\nname: Mid")
    leaf = SMC.replace("extends: sid-meiers-civilization", "extends: mid") + (
        'overlay:\n  wonders:\n    patch:\n      - {id: colossus, cost: 14, source: "house rule: dearer"}\n'
    )
    files = {"rulesets/mid.yaml": base}
    assert problems(analysed(leaf, files)) == []
    assert [d.code for d in problems(analysed(leaf, files, "mid"))] == ["Q009"]


@pytest.mark.parametrize(
    "overlay",
    [
        # V006's hint for a removed calamity: deletions inside a `with:`
        '  calamities:\n    remove:\n      - {id: flood, why: "house rule: no Flood"}\n'
        '  civilization_cards:\n    patch:\n      - {id: engineering, attributes: {patch: [{where: {rule: "32.312"}, '
        "with: {calamities: {remove: [{calamity: flood}]}}}]}}\n",
        '  civilization_cards:\n    patch:\n      - {id: law, attributes: {remove: [{rule: "30.23.4"}]}}\n',
        "  settings:\n    total_cards: null\n",
        "  civilization_cards:\n    patch:\n      - {id: pottery, note: a house note}\n",
        '  civilization_cards:\n    patch:\n      - {id: pottery, cost: {unknown: "the house has not decided"}}\n',
        # a whole setting written `{unknown: why}`: the mapping `{unknown}` is no field to cite
        # (Q009's hint added `source:` beside it, S002)
        '  settings:\n    set_value: {unknown: "the house has not decided"}\n',
    ],
    ids=["with-removes", "list-remove", "null", "note", "unknown", "setting-made-unknown"],
)
def test_a_patch_that_writes_no_fact_needs_no_citation(overlay: str) -> None:
    text = "kind: ruleset\nid: cite\nname: Cite\nextends: expansion-project\noverlay:\n" + overlay
    assert "Q009" not in [d.code for d in problems(analysed(text))]


@pytest.mark.parametrize(
    ("extends", "setting"), [("advanced-civilization", "two_coast_areas"), ("expansion-project", "set_value")]
)
def test_a_setting_written_unknown_whole_is_no_field_of_its_sources(extends: str, setting: str) -> None:
    """`{unknown: why}` in place of a whole setting replaces it, as `overlay.settings.replace` does:
    `setting_sources` named its `unknown` as a field the variant changed, uncited."""
    text = (
        f"kind: ruleset\nid: cite\nname: Cite\nextends: {extends}\noverlay:\n"
        f'  settings:\n    {setting}: {{unknown: "the house has not decided"}}\n'
    )
    analysis = analysed(text)
    assert problems(analysis) == []
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    assert setting not in exported.get("setting_sources", {}), exported["setting_sources"]
    origin = analysis.resolved.setting_origins[setting]
    assert origin.changes == () and origin.document.file.endswith("rulesets/cite.yaml")


# Round 22: what a field's facts are cited by is decided by what still writes them (Origin.writers,
# civrules.resolve.cited_writers), as `export`'s field_sources, ENTITY_FIELD_SOURCES and the sheets
# decide it, not by the field's last changer alone: Q009 missed a patch entry whose facts a later
# entry left (an append before another append, a list a later entry changed in part, a mapping a
# later entry merged into, an append before a `remove:`), and `diff` cited an element an earlier
# entry wrote by every entry of the field.

BAR004 = IS + "overlay:\n  cards:\n    patch:\n      - {{id: bar004, {first}}}\n      - {{id: bar004, {second}}}\n"
A = 'source: "house rule: a"'
B = 'source: "house rule: b"'


def bar004(first: str, second: str) -> str:
    return BAR004.format(first=first, second=second)


@pytest.mark.parametrize(
    "text",
    [
        bar004("cost: {append: [food]}", f"cost: {{append: [stone]}}, {B}"),
        bar004("cost: [food, wood]", f"cost: {{replace: [{{where: wood, with: stone}}]}}, {B}"),
        bar004("cost: {append: [food]}", "cost: {remove: [location]}"),
        SMC + "overlay:\n  wonders:\n    patch:\n      - {id: colossus, discount: {cost: 8}}\n"
        f"      - {{id: colossus, discount: {{technology: pottery}}, {B}}}\n",
    ],
    ids=["append-then-append", "list-then-replace-one", "append-then-remove", "mapping-then-other-key"],
)
def test_an_uncited_patch_whose_facts_a_later_patch_left_is_q009_at_its_own_field(text: str) -> None:
    """The first entry's facts are still there (`food`, the Colossus's discount of 8) whatever the
    second entry cites, or whether it only deleted: the first entry is reported, at its field."""
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1, problems(analysed(text))
    first_line = text.splitlines().index(next(line for line in text.splitlines() if "- {id:" in line)) + 1
    assert found[0].span is not None and found[0].span.line == first_line
    assert at(text, found[0]).startswith(("cost:", "discount:"))
    # The hint, followed: the first entry cites its change, and nothing is reported.
    cited = text.replace("}\n      - {id:", f", {CITED}}}\n      - {{id:", 1)
    assert cited != text and [d for d in problems(analysed(cited)) if d.code == "Q009"] == []


@pytest.mark.parametrize(
    "text",
    [
        bar004("cost: [food]", f"cost: [stone], {B}"),
        bar004("cost: {append: [food]}", "cost: {remove: [food]}"),
        SMC + "overlay:\n  wonders:\n    patch:\n      - {id: colossus, discount: {cost: 8}}\n"
        f"      - {{id: colossus, discount: {{cost: 9}}, {B}}}\n",
        SMC + "overlay:\n  wonders:\n    patch:\n      - {id: colossus, discount: {cost: 8}}\n"
        "      - {id: colossus, discount: {cost: null}}\n",
        # round 24: the id written again by the later entry is its own (the reader gives equal
        # ids one object: looked up by identity, the first entry's `food` was still there)
        bar004("cost: {append: [food]}", f"cost: {{replace: [{{where: food, with: food}}]}}, {B}"),
        bar004("cost: {append: [food]}", f"cost: {{remove: [food], append: [food]}}, {B}"),
    ],
    ids=[
        "list-written-over",
        "appended-then-removed",
        "mapping-key-written-over",
        "mapping-key-deleted",
        "id-replaced-by-itself",
        "id-removed-and-appended-again",
    ],
)
def test_an_uncited_patch_whose_every_fact_a_later_patch_wrote_over_or_deleted_is_not_q009(text: str) -> None:
    assert [d for d in problems(analysed(text)) if d.code == "Q009"] == []


def test_a_later_patch_that_writes_over_a_key_leaves_the_field_cited_by_it_alone() -> None:
    """export's field_sources (the same record Q009 reads): the discount is the second entry's."""
    text = (
        SMC + f"overlay:\n  wonders:\n    patch:\n      - {{id: colossus, discount: {{cost: 8}}, {CITED}}}\n"
        f"      - {{id: colossus, discount: {{cost: 9}}, {B}}}\n"
    )
    analysis = analysed(text)
    assert [d.code for d in problems(analysis)] == ["V012"]  # the earlier entry written over (V012)
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    (written,) = [w for w in exported["wonders"] if w["id"] == "colossus"]
    assert written["field_sources"] == {"discount": "source: house rule: b"}


def diffed(old: str, new: str, files: dict[str, str]) -> str:
    from civrules.resolve.diff import diff_rulesets, render_text

    workspace = CachedWorkspace(files)
    resolved = []
    for ruleset in (old, new):
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
        # a later entry writing over an earlier one is V012, a warning; what the diff cites is the test
        errors = [d for d in problems(analysis) if d.code != "V012"]
        assert analysis.resolved is not None and errors == [], errors
        resolved.append(analysis.resolved)
    return render_text(diff_rulesets(*resolved))


def cited_line(text: str, changed: str) -> str:
    """The `cited:` line under the diff's line that starts with ``changed``."""
    lines = [line.strip() for line in text.splitlines()]
    return lines[next(i for i, line in enumerate(lines) if line.startswith(changed)) + 1]


AC_TWO = """\
kind: ruleset
id: cite
name: Cite
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - {id: pottery, credits: {append: [{card: mysticism, points: 5, source: "house rule: a"}]}}
      - {id: pottery, credits: {append: [{card: law, points: 5, source: "house rule: b"}]}}
"""
AC_BLOCK = "overlay:\n  civilization_cards:\n    patch:\n"


@pytest.mark.parametrize("split", [False, True], ids=["one-overlay", "two-variants"])
def test_diff_cites_an_element_by_the_patch_that_wrote_it_not_by_the_field_s_last_changer(split: bool) -> None:
    """Two appends to Pottery's credits, in one overlay or in a variant of a variant: each credit
    line is cited by its own `source:` (the diff said "a; b" for the first, every writer of the
    field, as if the second entry had written it)."""
    files = {"rulesets/cite.yaml": AC_TWO}
    if split:
        first, second = AC_TWO.splitlines(keepends=True)[-2:]
        header = AC_TWO.split("overlay:")[0]
        files = {
            "rulesets/mid.yaml": header.replace("id: cite\nname: Cite", "id: mid\nname: Mid") + AC_BLOCK + first,
            "rulesets/cite.yaml": header.replace("advanced-civilization", "mid") + AC_BLOCK + second,
        }
    text = diffed("advanced-civilization", "cite", files)
    assert cited_line(text, "+ credits[mysticism]") == "cited: source: house rule: a", text
    assert cited_line(text, "+ credits[law]") == "cited: source: house rule: b", text


def test_diff_cites_a_setting_s_element_by_the_variant_that_wrote_it() -> None:
    """A list setting appended to by a variant and by a variant of it: the first step is the
    first variant's, whatever the second cites."""
    mid = IS.replace("id: cite\nname: Cite", "id: mid\nname: Mid") + (
        "overlay:\n  settings:\n    setup:\n      append:\n"
        '        - {step: 8, text: "Deal each player one extra card.", source: "house rule: a"}\n'
    )
    leaf = IS.replace("extends: imperial-settlers", "extends: mid") + (
        "overlay:\n  settings:\n    setup:\n      append:\n"
        '        - {step: 9, text: "Deal each player one more card.", source: "house rule: b"}\n'
    )
    text = diffed("imperial-settlers", "cite", {"rulesets/mid.yaml": mid, "rulesets/cite.yaml": leaf})
    assert cited_line(text, "+ setup[8]") == "cited: source: house rule: a", text
    assert cited_line(text, "+ setup[9]") == "cited: source: house rule: b", text


# Round 22: a setting a variant writes whole (`overlay.settings.replace`, `add`, or a patch of a
# setting that is no mapping) where its schema takes a citation beside its fields: Sid Meier's
# settings take `rule:` and `source:` but do not require them, so an uncited `replace` passed.


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ("    replace:\n      coins: {victory: 15, token_coins_lost: true}\n", "overlay.settings.replace.coins"),
        (
            "    replace:\n      trade: {dial_max: 30, kept_between_turns: true, tradeable: [promises], "
            f"{CITED}}}\n      coins: {{victory: 15}}\n",
            "overlay.settings.replace.coins",
        ),
    ],
    ids=["replace", "beside-a-cited-one"],
)
def test_a_setting_written_whole_without_a_citation_is_q009_naming_where_it_goes(settings: str, where: str) -> None:
    text = SMC + "overlay:\n  settings:\n" + settings
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1, problems(analysed(text))
    assert at(text, found[0]).startswith("coins:")
    assert f"`{where}`" in (found[0].hint or "") and HOUSE_RULE in (found[0].hint or "")
    # The hint, followed: the citation beside the setting's fields, and nothing is reported.
    cited = text.replace("coins: {victory: 15", f"coins: {{{CITED}, victory: 15")
    assert problems(analysed(cited)) == []


def test_a_base_s_setting_written_whole_answers_in_the_base_not_in_its_variants() -> None:
    mid = SMC.replace("id: cite\nname: Cite", "id: mid\nname: Mid") + (
        "overlay:\n  settings:\n    replace:\n      coins: {victory: 15, token_coins_lost: true}\n"
    )
    leaf = SMC.replace("extends: sid-meiers-civilization", "extends: mid") + (
        f"overlay:\n  settings:\n    players: {{max: 5, {CITED}}}\n"
    )
    files = {"rulesets/mid.yaml": mid}
    assert problems(analysed(leaf, files)) == []
    assert [d.code for d in problems(analysed(leaf, files, "mid"))] == ["Q009"]


AC_MID = "kind: ruleset\nid: mid\nname: Mid\nextends: advanced-civilization\n"
TWO_COASTS = "overlay:\n  settings:\n    two_coast_areas: [corinth]\n"


def cite_apart(setting: str) -> str:
    """What Q009's hint says to write for a setting that takes no citation of its own."""
    return f'overlay:\n  settings:\n    citations: {{{setting}: {{source: "house rule: ..."}}}}\n'


@pytest.mark.parametrize(
    ("extends", "settings", "setting"),
    [
        ("advanced-civilization", "    two_coast_areas: [corinth]\n", "two_coast_areas"),
        ("advanced-civilization", "    replace:\n      two_coast_areas: [corinth]\n", "two_coast_areas"),
        ("sid-meiers-civilization", "    add:\n      declared_count: 60\n", "declared_count"),
    ],
    ids=["ids-written-whole", "ids-replaced", "number-added"],
)
def test_a_setting_with_no_place_of_its_own_written_whole_is_q009_and_cited_in_overlay_settings(
    extends: str, settings: str, setting: str
) -> None:
    """`two_coast_areas` is a list of ids (or an unknown), Sid Meier's `declared_count` a number:
    neither takes a `rule:` or `source:`, nor did `overlay.settings`, so a variant's whole write of
    them passed uncited (round 22 left them so). `overlay.settings.citations` cites them by name,
    with the `rule:` or `source:` a mapping setting writes beside its fields (round 24)."""
    text = f"kind: ruleset\nid: cite\nname: Cite\nextends: {extends}\noverlay:\n  settings:\n" + settings
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1, problems(analysed(text))
    assert at(text, found[0]).startswith(f"{setting}:")
    hint = found[0].hint or ""
    assert (
        "`overlay.settings.citations`" in hint and f'{{{setting}: {{source: "house rule: write why here"}}}}' in hint
    ), hint
    # The hint, followed: the citation under the setting's name, and nothing is reported.
    cited = text.replace("overlay:\n  settings:\n", cite_apart(setting))
    assert cited != text and problems(analysed(cited)) == []


def test_q009_s_hint_for_list_operations_on_ids_is_one_that_can_be_followed() -> None:
    """An id appended to a list setting cannot carry a citation (no `with:` mapping, no item that
    takes `source:`): the hint said to cite in each item added, then (round 22) to give the reason
    in a suppression, which cites nothing (`diff` said "uncited"); it now says to cite it in
    `overlay.settings.citations`, which clears it and cites the change (round 24)."""
    leaf = (
        "kind: ruleset\nid: cite\nname: Cite\nextends: mid\n"
        "overlay:\n  settings:\n    two_coast_areas:\n      append: [cyprus]\n"
    )
    files = {"rulesets/mid.yaml": AC_MID + cite_apart("two_coast_areas") + TWO_COASTS.split("settings:\n")[1]}
    (found,) = problems(analysed(leaf, files))
    assert found.code == "Q009" and at(leaf, found).startswith("two_coast_areas:")
    assert "with:" not in (found.hint or "") and "`overlay.settings.citations`" in (found.hint or "")
    cited = leaf.replace("overlay:\n  settings:\n", cite_apart("two_coast_areas").replace("...", "b"))
    analysis = analysed(cited, files)
    assert problems(analysis) == []
    assert exported_sources(analysis)["two_coast_areas"] == {"two_coast_areas": "source: house rule: b"}
    out = diffed("mid", "cite", {**files, "rulesets/cite.yaml": cited})
    assert cited_line(out, "+ map.two_coast_areas[cyprus]") == "cited: source: house rule: b", out


def exported_sources(analysis: Analysis) -> dict[str, object]:
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    return dict(exported.get("setting_sources", {}))


AC = "kind: ruleset\nid: cite\nname: Cite\nextends: advanced-civilization\n"
BORDER = "overlay:\n  borders:\n    {operation}:\n      - {{areas: [corinth, jerusalem], kind: land{extra}}}\n"


def test_an_entity_a_variant_adds_where_its_schema_takes_an_optional_citation_is_q009() -> None:
    """A border takes `rule:` and `source:` but needs neither in a map file, which cites its
    borders at its top; a variant's manifest has no such place, and its uncited border passed."""
    text = AC + BORDER.format(operation="add", extra="")
    found = [d for d in problems(analysed(text)) if d.code == "Q009"]
    assert len(found) == 1, problems(analysed(text))
    assert at(text, found[0]).startswith("{areas: [corinth")
    assert "`overlay.borders.add[0]`" in (found[0].hint or "") and HOUSE_RULE in (found[0].hint or "")
    assert problems(analysed(AC + BORDER.format(operation="add", extra=f", {CITED}"))) == []


# Round 24: an element with no citation of its own (an id appended to a card's cost) was cited in
# `diff` by the joined citations of every entry whose facts the field holds, "a; b", as if each
# had written it: it is cited by the entry that wrote it.


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("cost: {append: [food]}", "cost: {append: [stone]}"),
        ("cost: {append: [food]}", "cost: {replace: [{where: location, with: stone}]}"),
    ],
    ids=["two-appends", "append-then-replace"],
)
def test_diff_cites_an_element_with_no_citation_of_its_own_by_the_entry_that_wrote_it(first: str, second: str) -> None:
    text = bar004(f"{first}, {A}", f"{second}, {B}")
    out = diffed("imperial-settlers", "cite", {"rulesets/cite.yaml": text})
    lines = [line.strip() for line in out.splitlines()]
    for value, cited in (("food", "a"), ("stone", "b")):
        # the cost has two `wood`s: its elements are named by their places (`cost[#4]: food`)
        at = next(i for i, line in enumerate(lines) if line.startswith("+ cost[") and line.endswith(f": {value}"))
        assert lines[at + 1] == f"cited: source: house rule: {cited}", out


# Round 25: the reader gives equal ids one object, so an id two entries each appended is one object
# twice in the list; `diff` cited both copies by the field's citation, "a; b", as if each entry had
# written both: each copy is its writer's.


def test_diff_cites_each_copy_of_an_id_two_entries_appended_by_the_entry_that_appended_it() -> None:
    text = bar004(f"cost: {{append: [food]}}, {A}", f"cost: {{append: [food]}}, {B}")
    out = diffed("imperial-settlers", "cite", {"rulesets/cite.yaml": text})
    assert cited_line(out, "+ cost[#4]: food") == "cited: source: house rule: a", out
    assert cited_line(out, "+ cost[#5]: food") == "cited: source: house rule: b", out


def test_diff_cites_a_copy_of_an_id_two_variants_appended_by_the_variant_that_appended_it() -> None:
    mid = IS.replace("id: cite\nname: Cite", "id: mid\nname: Mid") + (
        'overlay:\n  cards:\n    patch:\n      - {id: bar004, cost: {append: [food]}, source: "house rule: a"}\n'
    )
    leaf = IS.replace("id: cite\nname: Cite\nextends: imperial-settlers", "id: cite\nname: Cite\nextends: mid") + (
        'overlay:\n  cards:\n    patch:\n      - {id: bar004, cost: {append: [food, wood]}, source: "house rule: b"}\n'
    )
    out = diffed("imperial-settlers", "cite", {"rulesets/mid.yaml": mid, "rulesets/cite.yaml": leaf})
    # the card's own cost has two `wood`s already: the appended one is the third copy, the leaf's
    assert cited_line(out, "+ cost[#4]: food") == "cited: source: house rule: a", out
    assert cited_line(out, "+ cost[#5]: food") == "cited: source: house rule: b", out
    assert cited_line(out, "+ cost[#6]: wood") == "cited: source: house rule: b", out


def test_copies_of_an_id_one_of_which_was_inserted_are_cited_by_the_field_not_guessed() -> None:
    """An insertion puts its copy before the others: which copy is whose is not known, and the
    field's citation (every entry whose facts it holds) cites them all."""
    text = bar004(
        f"cost: {{append: [food]}}, {A}",
        f"cost: {{insert: [{{before: location, items: [food]}}]}}, {B}",
    )
    out = diffed("imperial-settlers", "cite", {"rulesets/cite.yaml": text})
    cited = [line.strip() for line in out.splitlines() if line.strip().startswith("cited:")]
    assert cited and set(cited) == {"cited: source: house rule: a; source: house rule: b"}, out


# Round 24: a later entry's `patch:` list operation made the element it merged into wholly its
# own: the entry that appended the element dropped out of what writes the field, though the
# fields the patch left (the attribute's text and calamities) are still the ones it wrote.

SHIPS = '{text: "Ships move far.", effects: [{kind: movement, units: ships, range: 5}]'
PATCHED_ATTRIBUTE = AC_TWO.split("overlay:")[0] + (
    f"{AC_BLOCK}      - {{id: pottery, attributes: {{append: [{SHIPS}, "
    'calamities: [{calamity: famine, effect: reduces, source: "house rule: a"}], source: "house rule: a"}]}}\n'
    '      - {id: pottery, attributes: {patch: [{where: {text: "Ships move far."}, '
    'with: {effects: [{kind: movement, units: ships, range: 6}]}}]}, source: "house rule: b"}\n'
)


def test_an_element_a_later_patch_merged_into_is_still_cited_by_the_entry_that_wrote_its_other_fields() -> None:
    analysis = analysed(PATCHED_ATTRIBUTE)
    assert [d.code for d in problems(analysis)] == ["V012"]  # the earlier entry written over (V012)
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    (pottery,) = [w for w in exported["civilization_cards"] if w["id"] == "pottery"]
    assert pottery["field_sources"] == {"attributes": "source: house rule: a; source: house rule: b"}
    out = diffed("advanced-civilization", "cite", {"rulesets/cite.yaml": PATCHED_ATTRIBUTE})
    assert cited_line(out, '+ attributes[text: "Ships move far."]') == (
        "cited: source: house rule: a; source: house rule: b"
    ), out


def test_an_element_whose_every_fact_a_later_patch_wrote_over_is_no_longer_its_first_writer_s() -> None:
    """The guard: the patch writes over every fact but the text that names the element."""
    text = PATCHED_ATTRIBUTE.replace(', calamities: [{calamity: famine, effect: reduces, source: "house rule: a"}]', "")
    assert text != PATCHED_ATTRIBUTE
    analysis = analysed(text)
    assert [d.code for d in problems(analysis)] == ["V012"]  # the earlier entry written over (V012)
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    (pottery,) = [w for w in exported["civilization_cards"] if w["id"] == "pottery"]
    assert pottery["field_sources"] == {"attributes": "source: house rule: b"}


def test_q009_looks_each_uncited_field_s_value_up_not_through_every_field_s_records(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted, never timed: n uncited entries each writing a field of its own into Pottery, Q009
    asked at n and 2n; the records of the card's fields read whole (:class:`model.Records`
    iterated) counted. Each uncited field's final value (is it the base's, put back?) was searched
    for through the records of every field written: the square of n (round 33)."""
    read = {"records": 0}
    iterate = model.Records.__iter__

    def counting(self: model.Records[Any]) -> Iterator[Any]:
        for record in iterate(self):
            read["records"] += 1
            yield record

    monkeypatch.setattr(model.Records, "__iter__", counting)

    def asked(n: int) -> int:
        entries = "".join(f"      - {{id: pottery, k{i}: 1}}\n" for i in range(n))
        body = "overlay:\n  civilization_cards:\n    patch:\n" + entries
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", body)]))
        resolved, _ = Resolver(workspace).resolve(workspace.load_ruleset(workspace.manifests()["big"]))
        assert resolved is not None
        ruleset = build_model(resolved)  # its unknown fields (S002) would stop `validate` before the checks
        read["records"] = 0
        found = list(check_cited_changes(ruleset))
        assert sorted(d.subjects[1:] for d in found) == sorted((f"k{i}",) for i in range(n))
        assert all(d.code == "Q009" and d.span is not None for d in found)
        return read["records"]

    small, large = asked(150), asked(300)
    assert large <= 2.3 * small, (small, large)
