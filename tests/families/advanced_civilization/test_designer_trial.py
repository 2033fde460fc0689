"""The second designer trial: house rules written from the docs alone, and the mistakes met on the way.

Each test is one thing a designer did, and what civrules must answer: at the line they wrote, in
their words, with a hint that fixes it when followed literally, once per mistake.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics import Diagnostic
from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.pipeline import Analysis, analyse
from civrules.resolve.diff import diff_rulesets, render_text
from tests.budget import heavy
from tests.conftest import copy_shipped
from tests.core.test_incremental import copy_subset
from tests.rulefiles import CachedWorkspace

HEAD = """\
kind: ruleset
id: house
name: "House rules"
extends: advanced-civilization
"""


def analysed(text: str, ruleset_id: str = "house") -> Analysis:
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": text})
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    return analyse(workspace, loaded)


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def only(analysis: Analysis, text: str, needle: str, code: str) -> Diagnostic:
    """The one problem of ``analysis``: ``code``, in the variant, on the line holding ``needle``."""
    found = problems(analysis)
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    (diagnostic,) = found
    assert diagnostic.span is not None and diagnostic.span.file.endswith("rulesets/house.yaml")
    assert diagnostic.span.line == line_of(text, needle), diagnostic
    return diagnostic


# --- list operations written where the base has no list ---------------------------------------------


def test_list_operations_on_a_number_say_the_field_is_not_a_list() -> None:
    text = HEAD + "overlay:\n  civilization_cards:\n    patch:\n      - id: music\n        cost: {remove: [80]}\n"
    found = only(analysed(text), text, "cost: {remove", "V007")
    assert "`cost` is not a list" in found.message and "music" in found.message
    assert "unknown" not in found.message + (found.hint or "")
    assert found.hint == "write the new value itself: `cost: VALUE`"
    assert [note.label for note in found.related] == ["the base's value"]


def test_list_operations_on_a_mapping_setting_say_it_is_not_a_list() -> None:
    text = HEAD + "overlay:\n  settings:\n    hand_limit: {append: [9]}\n"
    found = only(analysed(text), text, "hand_limit: {append", "V007")
    assert "`hand_limit` is not a list" in found.message
    assert found.hint == "write the fields to change: `hand_limit: {FIELD: VALUE}`"


def test_list_operations_on_a_list_the_base_does_not_know_ask_for_the_whole_list() -> None:
    # Africa's start areas are unknown in Advanced Civilization: there is no list to append to.
    text = (
        HEAD + "overlay:\n  nations:\n    patch:\n      - id: africa\n        start_areas: {areas: {append: [cirta]}}\n"
    )
    found = only(analysed(text), text, "start_areas: {areas", "V007")
    assert "`areas` is unknown in the base" in found.message
    assert found.hint == "write the whole value: `areas: [...]`"


# --- removing what is not there, and what is still used ---------------------------------------------


def test_removing_a_border_the_base_does_not_have_does_not_suggest_adding_it() -> None:
    text = HEAD + 'overlay:\n  borders:\n    remove:\n      - {areas: [cyprus, thebes], why: "house rule"}\n'
    found = only(analysed(text), text, "cyprus, thebes", "V005")
    assert "add" not in (found.hint or ""), found.hint
    assert found.hint is not None and "nothing to remove" in found.hint


def test_a_removed_calamity_still_used_names_the_card_that_uses_it_and_how_to_patch_it() -> None:
    text = HEAD + 'overlay:\n  calamities:\n    remove:\n      - {id: flood, why: "house rule: no Flood"}\n'
    found = only(analysed(text), text, "id: flood", "V006")
    assert found.message == (
        "calamity `flood` is removed, but 1 reference to it remains: civilization card `engineering`"
    )
    assert found.hint is not None and "in `overlay.civilization_cards`: `patch: [{id: engineering, " in found.hint
    (note,) = found.related
    assert note.span.file.endswith("cards/advanced-civilization.yaml")


def test_following_the_hint_of_a_removed_calamity_validates() -> None:
    # The hint writes the patch of the referrer in the variant: a list element goes with `{remove: [...]}`.
    text = HEAD + 'overlay:\n  calamities:\n    remove:\n      - {id: flood, why: "house rule: no Flood"}\n'
    found = only(analysed(text), text, "id: flood", "V006")
    (patch,) = [quoted for quoted in (found.hint or "").split("`")[1::2] if quoted.startswith("patch: [")]
    assert patch == (
        'patch: [{id: engineering, attributes: {patch: [{where: {rule: "32.312"}, '
        "with: {calamities: {remove: [{calamity: flood}]}}}]}}]"
    )
    assert problems(analysed(text + f"  civilization_cards:\n    {patch}\n")) == []


# --- schema errors in a patch: hints that fix the value when followed literally ----------------------


def test_a_word_where_a_number_belongs_is_not_told_to_drop_its_quotes() -> None:
    text = HEAD + 'overlay:\n  civilization_cards:\n    patch:\n      - id: coinage\n        cost: "ninety"\n'
    found = only(analysed(text), text, 'cost: "ninety"', "S001")
    assert found.hint == "write a whole number in digits, without quotes"


def test_a_number_in_quotes_is_told_to_drop_its_quotes() -> None:
    text = HEAD + 'overlay:\n  civilization_cards:\n    patch:\n      - id: coinage\n        cost: "90"\n'
    found = only(analysed(text), text, 'cost: "90"', "S001")
    assert found.hint == "write the number without quotes or a `!!str` tag: `90`"


def test_a_group_appended_twice_names_the_repeated_group() -> None:
    text = (
        HEAD + "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        groups: {append: [crafts]}\n"
    )
    found = only(analysed(text), text, "groups: {append", "S001")
    assert found.hint is not None and "`crafts` is listed twice" in found.hint


def test_a_card_given_three_groups_is_told_the_limit_and_what_to_write() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - id: mysticism\n        groups: [religion, arts, sciences]\n"
    )
    found = only(analysed(text), text, "groups: [religion", "S001")
    assert "3 items" in found.message and "at most 2" in found.message
    # What to write, not the field's description (round 18)
    assert found.hint == (
        "write a list of 1 to 2 card group ids, each once, or `{unknown: why}` where the sources do not give it"
    )


def test_a_key_outdented_under_an_empty_setting_is_told_to_indent_it() -> None:
    # `hand_limit:` with nothing under it, and its field written beside it instead of inside it.
    text = HEAD + "overlay:\n  settings:\n    hand_limit:\n    commodity_cards: 9\n"
    found = only(analysed(text), text, "    commodity_cards: 9", "S002")
    assert found.hint == (
        f"`hand_limit:` on line {line_of(text, 'hand_limit:')} has no value, so `commodity_cards` is read beside it: "
        "indent `commodity_cards` (and the lines that belong with it) under `hand_limit:`"
    )


def test_a_misspelt_key_beside_an_empty_one_still_gets_did_you_mean() -> None:
    text = HEAD + "overlay:\n  settings:\n    hand_limit:\n    tasation: {}\n"
    found = only(analysed(text), text, "tasation", "S002")
    assert found.hint == "did you mean `taxation`?"


# --- the diff of a variant: each change as the field it is -------------------------------------------


def diff_of(text: str) -> str:
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    manifests = workspace.manifests()
    variant = analyse(workspace, workspace.load_ruleset(manifests["house"]))
    base = analyse(workspace, workspace.load_ruleset(manifests["advanced-civilization"]))
    assert variant.resolved is not None and base.resolved is not None
    assert problems(variant) == []
    return render_text(diff_rulesets(base.resolved, variant.resolved))


def test_a_changed_group_credit_is_one_line_naming_the_group() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n"
        "        credits: {patch: [{where: {group: crafts}, with: {points: 15, source: house rule}}]}\n"
    )
    changes = diff_of(text)
    assert "~ credits[crafts].points: 10 → 15" in changes, changes
    assert "credits[…]" not in changes


def test_a_changed_late_iron_age_value_is_one_line_naming_the_space() -> None:
    text = HEAD + (
        "overlay:\n  ast_tracks:\n    patch:\n      - nation: africa\n        source: house rule\n"
        "        late_iron_age_spaces: {patch: [{where: {space: 15}, with: {min_card_value: 1700}}]}\n"
    )
    changes = diff_of(text)
    assert "~ late_iron_age_spaces[15].min_card_value: 1600 → 1700" in changes, changes


def test_one_changed_element_of_an_unnamed_list_is_shown_field_by_field() -> None:
    # Pottery's attribute gets a house-rule wording: the rest of the attribute is unchanged.
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        source: house rule\n"
        '        attributes:\n          patch:\n            - where: {rule: "32.211"}\n'
        '              with: {text: "Grain cards reduce Famine losses by five each."}\n'
    )
    changes = diff_of(text)
    assert '~ attributes[text: "A holder of Pottery…"].text: ' in changes, changes
    assert "Grain cards reduce Famine losses by five each." in changes
    assert "+ attributes[" not in changes


# --- a list operation that names no element ---------------------------------------------------------


def test_a_misspelt_selector_is_answered_with_the_element_it_meant() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: coinage\n"
        "        credits: {remove: [{card: theolgy}]}\n"
    )
    found = only(analysed(text), text, "credits: {remove", "V007")
    assert found.hint == "did you mean `{card: theology}`?"


def test_a_selector_by_a_field_no_element_has_names_the_fields_they_have() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: coinage\n"
        "        credits: {remove: [{target: theology}]}\n"
    )
    found = only(analysed(text), text, "credits: {remove", "V007")
    assert found.hint == "no element has `target`; they have: `card`, `group`, `points`, `rule`"


# --- the player aids of a variant mark what it changes on every sheet that shows it -------------------

SHEET_CHANGES = (
    HEAD
    + """\
overlay:
  civilization_cards:
    patch:
      - {id: pottery, cost: 55, source: "house rule"}
    add:
      - {id: banking, name: Banking, groups: [crafts], cost: 140, attributes: [], source: "house rule",
         prerequisites: [{card: coinage, source: "house rule"}],
         credits: [{group: crafts, points: 10, source: "house rule"}]}
  commodities:
    patch:
      - {id: salt, count: 10, source: "house rule"}
  calamities:
    patch:
      - id: famine
        primary:
          patch:
            - where: {id: famine_primary}
              with: {amount: 15, text: "Fifteen unit points are lost by the primary victim himself."}
        source: "house rule"
  ast_tracks:
    patch:
      - nation: africa
        late_iron_age_spaces: {patch: [{where: {space: 15}, with: {min_card_value: 1700}}]}
        source: "house rule"
  epochs:
    patch:
      - {id: early_bronze_age, name: "Early Bronze Age (house)", source: "house rule"}
  settings:
    total_cards: null
"""
)


def sheets_of(text: str) -> dict[str, str]:
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    loaded = workspace.load_ruleset(workspace.manifests()["house"])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None, problems(analysis)
    assert problems(analysis) == []
    changes = variant_changes(workspace, loaded, analysis.resolved)
    rendered = render_sheets(analysis.model, "0" * 64, changes=changes)
    return {name: html.unescape(re.sub(r"\s+", " ", page.decode())) for name, page in rendered.items()}


def marked(page: str, name: str) -> str:
    """The mark after ``name`` in a row header of ``page``: `+`, `Δ`, or nothing."""
    after = r'(?:<(?!span class="changed-mark")/?[a-z][^>]*>|\s)*(?:<span class="changed-mark"[^>]*>([^<]*)</span>)?'
    found = re.search(re.escape(name) + after, page)
    assert found is not None, name
    return found.group(1) or ""


def test_the_credit_table_marks_an_added_and_a_changed_card() -> None:
    page = sheets_of(SHEET_CHANGES)["credit-table.html"]
    rows = page[page.index("<tbody") :]
    assert marked(rows, ">Banking") == "+"
    assert marked(rows, ">Pottery") == "Δ"
    assert marked(rows, ">Mining") == ""


def test_the_ast_sheet_marks_a_changed_track_and_a_changed_epoch() -> None:
    page = sheets_of(SHEET_CHANGES)["ast.html"]
    assert marked(page, ">Africa") == "Δ"
    assert marked(page, ">Egypt") == ""
    assert marked(page, 'scope="row">Early Bronze Age (house)') == "Δ"


def test_the_commodities_sheet_marks_a_changed_good_and_a_changed_calamity() -> None:
    page = sheets_of(SHEET_CHANGES)["commodities.html"]
    assert marked(page, ">Salt") == "Δ"
    assert marked(page, ">Grain") == ""
    assert marked(page, "Famine") == "Δ"


NO_VALUES = HEAD + (
    "overlay:\n  ast_tracks:\n    patch:\n"
    '      - {nation: africa, late_iron_age_spaces: [], source: "house rule: no values"}\n'
)


def test_a_track_without_space_values_needs_no_card_value_on_the_sheet_helper_or_page() -> None:
    """`late_iron_age_spaces: []` is a fact (no space carries a card value of its own): the helper
    answers from the epoch's other requirements, the A.S.T. sheet prints no value and the page's
    table says no value, where all three read it as unknown before."""
    from civrules.families.advanced_civilization.helpers import epoch_tables
    from civrules.families.advanced_civilization.model import of_family
    from civrules.families.advanced_civilization.succession import can_enter_epoch, can_enter_space, gate_value

    analysis = analysed(NO_VALUES)
    assert analysis.model is not None and problems(analysis) == []
    model = of_family(analysis.model)
    track = next(t for t in model.ast_tracks if t.id == "africa")
    every = [c.id for c in model.cards]
    assert (gate_value(model, track, 14), gate_value(model, track, 15)) == (None, None)
    assert can_enter_space(model, "africa", 14, 9, every) is True
    assert can_enter_epoch(model, "late_iron_age", 9, every, nation="africa") is True
    assert not isinstance(gate_value(model, track, 16), int | type(None))  # the finish: unknown in the base
    values = epoch_tables(model)["ast_tracks"]["africa"]["standard"]["space_values"]
    assert values["14"] is None and values["15"] is None and "16" not in values
    page = render_sheets(model, "0" * 64, only=["ast.html"])["ast.html"].decode()
    row = page[page.index(">Africa") :]
    row = row[: row.index("</tr>")]
    assert row.count(">unknown<") == 1, row  # the finish only
    egypt = page[page.index(">Egypt") :]
    assert ">1300<" in egypt[: egypt.index("</tr>")]  # a track the variant leaves alone keeps its values


# --- the command line, as a designer types it -------------------------------------------------------


def _rules_with(tmp_path: Path, *files: tuple[str, str]) -> Path:
    root = tmp_path / "rules"
    copy_shipped(root)
    for relative, text in files:
        (root / relative).write_text(text, encoding="utf-8")
    return root


def test_validating_a_variant_by_its_file_name_when_its_id_differs_says_which_id_to_use(tmp_path: Path) -> None:
    # Copied from another variant: the file is `t9.yaml`, the id inside still `t9-house`.
    text = HEAD.replace("id: house", "id: t9-house") + "overlay:\n  settings:\n    hand_limit: {commodity_cards: 9}\n"
    rules = _rules_with(tmp_path, ("rulesets/t9.yaml", text))
    result = CliRunner().invoke(main, ["--rules", str(rules), "validate", "t9", "--format", "json"])
    assert result.exit_code == 2, result.output
    (found,) = json.loads(result.stdout)
    assert found["code"] == "R001"
    assert found["hint"] == (
        "`rulesets/t9.yaml` declares `id: t9-house`: validate it as `t9-house`, or set `id: t9` in the file"
    )


def test_one_patch_written_as_a_mapping_is_told_to_write_a_list() -> None:
    text = HEAD + "overlay:\n  civilization_cards:\n    patch: {id: pottery, cost: 50}\n"
    found = only(analysed(text), text, "patch: {id", "S001")
    assert found.message == "a mapping where a list belongs in `overlay.civilization_cards.patch`"
    assert found.hint == "write a list: `[{...}]`, or each entry on its own line starting with `- `"


def test_a_misspelt_code_to_suppress_is_told_the_codes_it_may_mean() -> None:
    text = HEAD + 'suppress:\n  - {code: A01, reason: "the house rule"}\n'
    found = only(analysed(text), text, "code: A01", "S001")
    assert found.hint is not None and "a code is a letter and three digits, such as `A010`" in found.hint
    assert "civrules explain --list" in found.hint


def test_the_scaffolds_remove_example_names_an_entity_of_the_collection_it_stands_under(tmp_path: Path) -> None:
    rules = _rules_with(tmp_path)
    runner = CliRunner()
    made = runner.invoke(main, ["--rules", str(rules), "new-variant", "mine", "--extends", "advanced-civilization"])
    assert made.exit_code == 0
    created = rules / "rulesets" / "mine.yaml"
    # The designer uncomments the overlay (one `# ` off each line), then the `remove` example with
    # the block it stands in (one more `# `).
    lines, inside, remove = [], False, False
    for line in created.read_text(encoding="utf-8").splitlines():
        inside = inside or line.startswith("# overlay:")
        line = line[2:] if inside and line.startswith("# ") else line
        remove = remove or line.lstrip().startswith("# calamities:")
        if remove and line.lstrip().startswith("# "):
            line = line.replace("# ", "", 1)
        lines.append(line)
    created.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(main, ["--rules", str(rules), "validate", "mine", "--format", "json"])
    found = [d for d in json.loads(result.stdout) if d["severity"] != "info"]
    assert [d["code"] for d in found] == ["V006"], found
    assert found[0]["message"].startswith("calamity `volcano_earthquake` is removed")


# --- a map panel of the variant's own --------------------------------------------------------------

ATLANTIS = """\
kind: map
id: atlantis
name: "Atlantis (house rule)"
panel: [main]
areas:
  - {id: atlantis, name: Atlantis, panel: main, land: true, water: true, coastal: true, population_limit: 2,
     source: "house rule"}
borders:
  - {areas: [atlantis, cyprus], kind: sea, source: "house rule"}
"""


def test_a_misspelt_data_file_path_is_answered_with_the_file_that_is_there() -> None:
    text = HEAD + "files: {map: [maps/atlantis.yml]}\n"
    workspace = CachedWorkspace({"rulesets/house.yaml": text, "maps/atlantis.yaml": ATLANTIS})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    found = only(analysis, text, "maps/atlantis.yml", "L012")
    assert found.hint == "did you mean `maps/atlantis.yaml`? (paths are relative to `rules`)"


def test_a_base_area_restated_in_the_variants_map_file_is_told_to_patch_it_instead() -> None:
    panel = ATLANTIS + '  - {areas: [atlantis, crete], kind: sea, source: "house rule"}\n'
    panel = panel.replace(
        "borders:",
        "  - {id: cyprus, name: Cyprus, panel: main, land: true, water: true, coastal: true, population_limit: 3,\n"
        '     source: "house rule"}\nborders:',
    )
    text = HEAD + "files: {map: [maps/atlantis.yaml]}\n"
    workspace = CachedWorkspace({"rulesets/house.yaml": text, "maps/atlantis.yaml": panel})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    (duplicate,) = [d for d in problems(analysis) if d.code == "I001"]
    assert duplicate.span is not None and duplicate.span.file.endswith("maps/atlantis.yaml")
    assert duplicate.hint == (
        "the base already has area `cyprus`: to change it, patch it in the variant's manifest "
        "(`overlay: {areas: {patch: [{id: cyprus, population_limit: 3, source: house rule}]}}`) and delete it here; "
        "or give this one a new id"
    )


def test_building_one_variant_counts_one_ruleset(tmp_path: Path) -> None:
    text = HEAD + 'overlay:\n  settings:\n    hand_limit: {commodity_cards: 9, source: "house rule"}\n'
    rules = _rules_with(tmp_path, ("rulesets/house.yaml", text))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", "house", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (
        result.stderr.splitlines()[-1].startswith("civrules: wrote ") and " files for 1 ruleset into " in result.stderr
    )


# --- `civrules watch` while an editor saves --------------------------------------------------------


class _StopWatchingError(Exception):
    pass


@heavy
def test_watch_does_not_read_a_file_an_editor_is_still_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An editor saves by truncating the file, then writing it: a round that looks in between must
    # wait for the file to stand still, not report the empty file (L009) and then "fixed" it.
    from civrules.cli import watcher as watching

    rules = copy_subset(tmp_path / "rules")
    cards = rules / "cards" / "advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    real = watching.snapshot
    calls = 0

    def saving(root: Path) -> dict[str, tuple[int, ...]]:
        nonlocal calls
        calls += 1
        if calls == 2:  # the save begins: the file is empty for a moment
            cards.write_text("", encoding="utf-8")
        elif calls == 3:  # and then holds the new text
            cards.write_text(text.replace('    rule: "32.21"\n', '    rule: "32.12"\n', 1), encoding="utf-8")
        return real(root)

    printed: list[str] = []

    def echo(line: str) -> None:
        printed.append(line)
        if line.startswith("civrules: ") and len([p for p in printed if p.startswith("civrules: ")]) == 2:
            raise _StopWatchingError

    monkeypatch.setattr(watching, "snapshot", saving)
    with pytest.raises(_StopWatchingError):
        watching.watch(rules, ["advanced-civilization"], echo, interval=0.01)
    second = "\n".join(printed[1:])
    assert "L009" not in second, second
    assert "error[Q001]: section 32.12 is not in the rule index" in second


# --- a setting's value in a patch, where a setting may also be unknown ---------------------------------


def test_a_wrong_value_in_a_setting_patch_is_reported_at_the_variant_line() -> None:
    # `set_value` is a rule or `{unknown: why}`: the error inside the rule is the designer's line.
    text = HEAD + "overlay:\n  settings:\n    set_value:\n      formula: count_times_value\n"
    found = only(analysed(text), text, "formula: count_times_value", "S003")
    assert found.hint == "did you mean `count_squared_times_value`?"
    assert any(r.span.file.endswith("advanced-civilization-commodities.yaml") for r in found.related)


def test_a_replaced_card_without_a_citation_is_told_to_cite_a_rule_or_a_source() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    replace:\n"
        "      - {id: pottery, name: Pottery, groups: [crafts], cost: 50,\n"
        "         prerequisites: [], credits: [], attributes: []}\n"
    )
    found = only(analysed(text), text, "{id: pottery", "S004")
    assert found.message == "missing key `rule` (or `source`) in `overlay.civilization_cards.replace[0]`"
    assert found.hint == (
        'add `rule:`, the card\'s own section (e.g. "32.21"), which gives its name, group(s) and cost; or, where '
        'the rulebook is silent, `source:` (a community transcription, or `source: "house rule: write why here"`)'
    )


# --- a house rule cites its source wherever the rulebook's section could be cited ---------------------


def test_a_house_rule_can_cite_its_source_on_a_phase_an_option_taxation_and_set_values() -> None:
    text = (
        HEAD.replace("extends: advanced-civilization", "extends: expansion-project")
        + """\
overlay:
  phases:
    patch:
      - {id: census, name: "Census (house)", source: "house rule: census first"}
  settings:
    taxation: {source: "house rule: taxes as before"}
    set_value: {source: "house rule: set values as before"}
"""
    )
    assert problems(analysed(text)) == []


def test_a_house_rule_phase_added_whole_needs_no_rulebook_section() -> None:
    text = (
        HEAD.replace("extends: advanced-civilization", "extends: expansion-project")
        + """\
overlay:
  phases:
    add:
      - {id: festival, number: 17, name: "Festival", condition: always, condition_text: "Always.",
         order: simultaneous, source: "house rule: a festival ends the turn"}
"""
    )
    found = [d for d in problems(analysed(text)) if d.code in ("S004", "S002")]
    assert found == [], [(d.code, d.message) for d in found]


def test_a_variant_that_forgot_extends_gets_one_diagnostic_saying_so() -> None:
    text = HEAD.replace("extends: advanced-civilization\n", "") + (
        'overlay:\n  calamities:\n    remove:\n      - {id: flood, why: "house rule"}\n'
    )
    found = only(analysed(text), text, "overlay:", "S001")
    assert found.message == "`overlay` changes a base ruleset, but this manifest names none (`extends:`)"
    assert found.hint == "add `extends: BASE` under `name:` (`civrules list` names the rulesets)"


# --- a new card with typed effects ------------------------------------------------------------------

BANKING_WITH_EFFECTS = (
    HEAD
    + """\
overlay:
  civilization_cards:
    add:
      - id: banking
        name: Banking
        groups: [crafts]
        cost: 140
        prerequisites: [{card: coinage, source: "house rule"}]
        credits: [{group: crafts, points: 10, source: "house rule"}]
        attributes:
          - text: "The holder's ships move six areas; the holder may tax one token more or less."
            source: "house rule"
            effects:
              - {kind: movment, units: ships, range: 6}
              - {kind: tax, rate_changes: [0, 1]}
        source: "house rule"
"""
)


def test_two_mistakes_in_one_new_card_are_two_diagnostics() -> None:
    analysis = analysed(BANKING_WITH_EFFECTS)
    found = {(d.code, d.span.line if d.span else 0) for d in problems(analysis)}
    assert found == {
        ("S003", line_of(BANKING_WITH_EFFECTS, "kind: movment")),
        ("S001", line_of(BANKING_WITH_EFFECTS, "rate_changes: [0, 1]")),
    }, [(d.code, d.message) for d in problems(analysis)]


def test_a_change_of_zero_says_a_change_is_never_zero() -> None:
    text = BANKING_WITH_EFFECTS.replace("kind: movment", "kind: movement")
    found = only(analysed(text), text, "rate_changes: [0, 1]", "S001")
    assert found.message.startswith("`0` is not allowed")
    assert "should not be valid" not in found.message
    assert found.span is not None and found.span.column == text.splitlines()[found.span.line - 1].index("[0, 1]") + 2


def test_the_main_help_points_at_its_options_where_they_are_printed() -> None:
    shown = CliRunner().invoke(main, ["--help"]).output
    said = shown.index("may also follow the command")
    assert "options below" in shown[said - 40 : said] and shown.index("Options:") > said


def test_one_epoch_raised_above_all_later_ones_is_one_diagnostic_at_the_variant_line() -> None:
    text = HEAD + "overlay:\n  epochs:\n    patch:\n      - id: late_bronze_age\n"
    # the requirement's text worded anew (V014: it said "Three cities in play")
    text += "        requirements: {min_cities: 9, text: Nine cities in play, source: house rule}\n"
    found = only(analysed(text), text, "requirements: {min_cities: 9", "A010")
    assert found.message == (
        "epoch `late_bronze_age` needs 9 cities in play, more than the 2 epochs after it: "
        "`early_iron_age` (4), `late_iron_age` (5)"
    )
    assert [r.label for r in found.related if r.label.startswith("needs")] == ["needs 4", "needs 5"]


def test_a_house_rule_value_of_a_good_is_not_held_to_the_base_rulebooks_worked_examples() -> None:
    # The examples (28.53: three Bronze are worth 54) are the base rulebook's statements about its own
    # values: a variant that changes Bronze's value changes them on purpose, as it does a deck total.
    text = HEAD + (
        "overlay:\n  commodities:\n    patch:\n"
        '      - {id: bronze, value: 7, stack: 7, source: "house rule: bronze is worth 7"}\n'
    )
    found = problems(analysed(text))
    assert "D006" not in [d.code for d in found]
    # Stack 6 now holds too few cards for eight players: the variant's patch does it, so it is
    # located there, with the base's stack and the most players noted where the base states them
    # (not the whole of the variant's file).
    (small,) = [d for d in found if d.code == "D005"]
    assert small.span is not None and small.span.file.endswith("rulesets/house.yaml")
    assert small.span.line == line_of(text, "{id: bronze")
    shows = small.related[0]
    assert shows.label == "where the base shows it"
    assert shows.span.file.endswith("advanced-civilization-commodities.yaml")
    assert any(
        r.label == "the most players" and r.span.file.endswith("rulesets/advanced-civilization.yaml")
        for r in small.related
    )


def test_a_wrong_worked_example_the_variant_writes_itself_is_still_reported() -> None:
    text = HEAD + (
        "overlay:\n  settings:\n    set_value:\n      examples:\n        append:\n"
        '          - {commodity: bronze, cards: 2, set_value: 25, source: "house rule"}\n'
    )
    found = only(analysed(text), text, "set_value: 25", "D006")
    assert "2 x 2 x 6 = 24" in found.message


def test_an_appended_start_area_that_does_not_exist_is_pointed_at_itself() -> None:
    text = HEAD.replace("advanced-civilization", "advanced-civilization-western") + (
        "overlay:\n  nations:\n    patch:\n      - id: africa\n"
        '        start_areas: {areas: {append: [numidia]}, source: "house rule"}\n'
    )
    found = only(analysed(text), text, "append: [numidia]", "X001")
    assert found.span is not None
    line = text.splitlines()[found.span.line - 1]
    assert line[found.span.column - 1 : found.span.end_column - 1] == "numidia"
    assert found.hint == "did you mean `numidia_2`?"


def test_an_area_put_on_a_flood_plain_by_a_variant_is_told_how_to_list_it_there_in_the_variant() -> None:
    text = HEAD + 'overlay:\n  areas:\n    patch:\n      - {id: cyprus, flood_plain: nile, source: "house rule"}\n'
    found = only(analysed(text), text, "flood_plain: nile", "M021")
    written = (
        "overlay: {flood_plains: {patch: [{id: nile, areas: {append: [cyprus]}, "
        'source: "house rule: write why here"}]}}'
    )
    assert found.hint == f"add `cyprus` to `nile` in this variant (`{written}`), or correct `flood_plain`"
    # Followed literally, the hint settles the membership (what is left is the map's business: M020),
    # and cites its change (an uncited one was Q009, round 20).
    entry = written.removeprefix("overlay: {flood_plains: {patch: [").removesuffix("]}}")
    fixed = text + f"  flood_plains:\n    patch:\n      - {entry}\n".replace("write why here", "a wetter Cyprus")
    assert not {"M021", "Q009"} & {d.code for d in problems(analysed(fixed))}


def test_the_diff_of_a_removal_carries_the_reason_the_variant_gives() -> None:
    text = HEAD + (
        'overlay:\n  calamities:\n    remove:\n      - {id: flood, why: "house rule: no Flood"}\n'
        "  civilization_cards:\n    patch:\n      - id: engineering\n"
        "        attributes:\n          patch:\n"
        '            - where: {rule: "32.312"}\n'
        "              with: {calamities: {remove: [{calamity: flood}]}}\n"
    )
    changes = diff_of(text).splitlines()
    at = changes.index("  - flood  Flood")
    assert changes[at + 1] == "      why: house rule: no Flood"
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    manifests = workspace.manifests()
    variant = analyse(workspace, workspace.load_ruleset(manifests["house"]))
    base = analyse(workspace, workspace.load_ruleset(manifests["advanced-civilization"]))
    assert variant.resolved is not None and base.resolved is not None
    (removed,) = diff_rulesets(base.resolved, variant.resolved).to_json()["collections"]["calamities"]["removed"]
    assert removed["why"] == "house rule: no Flood"


def test_a_file_a_variant_lists_twice_is_told_at_the_repeat_to_delete() -> None:
    text = HEAD + "files:\n  map:\n    - maps/western-panel.yaml\n    - maps/western-panel.yaml  # the repeat\n"
    found = only(analysed(text), text, "# the repeat", "S001")
    assert found.span is not None and found.span.column == text.splitlines()[-1].index("maps") + 1
    assert found.hint is not None and "listed twice" in found.hint


def test_an_id_the_base_has_is_never_proposed_for_a_card_a_variant_adds() -> None:
    card = "{id: Agriculture, name: Farming, cost: 80, groups: [crafts], prerequisites: [], credits: [], attributes: []"
    text = HEAD + f'overlay:\n  civilization_cards:\n    add:\n      - {card}, source: "house rule: x"}}\n'
    found = only(analysed(text), text, "id: Agriculture", "S001")
    assert found.hint is not None and "e.g. `agriculture`" not in found.hint and found.suggestion is None
    assert "`agriculture` is the id of the base's civilization card already" in found.hint
    assert "`- id: agriculture` and the fields to change under `patch:` in `overlay.civilization_cards`" in found.hint
    # the hint followed: the base's card patched, nothing else to say
    text = (
        HEAD
        + "overlay:\n  civilization_cards:\n    patch:\n"
        + '      - {id: agriculture, name: Farming, source: "house rule: x"}\n'
    )
    assert problems(analysed(text)) == []


def test_an_id_of_no_card_is_proposed_as_the_quick_fix() -> None:
    card = "{id: Weaving, name: Weaving, cost: 80, groups: [crafts], prerequisites: [], credits: [], attributes: []"
    text = HEAD + f'overlay:\n  civilization_cards:\n    add:\n      - {card}, source: "house rule: x"}}\n'
    found = only(analysed(text), text, "id: Weaving", "S001")
    assert found.hint == "ids are lower_snake_case, e.g. `weaving`" and found.suggestion == "weaving"


def test_a_patch_that_changes_nothing_is_not_asked_for_a_citation() -> None:
    """Round 30: Pottery "made dearer" at the 45 it costs, with no citation, was V013 (it changes
    nothing) and Q009 ("`cost` is changed with no citation"): untrue, the patch writes no fact
    of its own. V013 alone; a field it does change, uncited, is still Q009."""
    text = HEAD + "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 45}\n"
    assert [d.code for d in problems(analysed(text))] == ["V013"]
    changed = problems(analysed(text.replace("cost: 45", "cost: 55")))
    assert [d.code for d in changed] == ["Q009"]


def test_a_setting_patched_to_its_value_is_not_asked_for_a_citation() -> None:
    """The same of a setting: `hand_limit: {commodity_cards: 8}` where the base holds 8."""
    text = HEAD + "overlay:\n  settings:\n    hand_limit: {commodity_cards: 8}\n"
    assert [d.code for d in problems(analysed(text))] == ["V013"]


def test_a_credit_a_variant_shadows_is_deleted_in_the_variants_patch() -> None:
    """Round 30: a variant appending "220 to Monotheism" to Enlightenment, whose base line gives it
    15, was told C004 "delete the shadowed credit, or raise it above the group credit": the base's
    line, in the base's file, and no group credit is involved. The hint now writes the deletion in
    the variant's patch; followed, C004 is answered."""
    credit = '{append: [{card: monotheism, points: 220, source: "house rule: faith"}]}'
    text = HEAD + f"overlay:\n  civilization_cards:\n    patch:\n      - id: enlightenment\n        credits: {credit}\n"
    (c004,) = [d for d in analysed(text).diagnostics if d.code == "C004"]
    assert c004.hint == (
        "the shadowed credit (15 to `monotheism`) is the base's: delete it in this patch, beside the `append:` of "
        "its `credits:`, `remove: [{card: monotheism, points: 15}]`"
    )
    mended = text.replace("{append:", "{remove: [{card: monotheism, points: 15}], append:")
    assert [d.code for d in analysed(mended).diagnostics if d.code == "C004"] == []


def test_a_base_value_a_patch_makes_wrong_is_told_at_the_patch() -> None:
    """Round 30: a variant making Antiochia inland (`water: false`) was told S003 in the base's
    map file, "true is not an allowed value in `areas[5].coastal`", hint "use one of: false": a
    file the designer cannot edit, in its index's words. The schema's condition (an area without
    water is not coastal) is the patch's doing: told at its `water`, with the fix in the patch."""
    text = HEAD + (
        "overlay:\n  areas:\n    patch:\n"
        '      - {id: antiochia, water: false, source: "house rule: Antiochia is inland"}\n'
    )
    (s003,) = problems(analysed(text))
    assert s003.code == "S003" and s003.span is not None
    assert (s003.span.file, s003.span.line) == ("rules/rulesets/house.yaml", line_of(text, "water: false"))
    assert s003.message.startswith("`coastal: true`, as the base gives it, does not fit `water: false` written here")
    assert s003.hint == "write `coastal: false` in this patch beside `water`"
    assert [r.label for r in s003.related] == ["the base's value", "the base definition"]


def test_a_value_its_own_entrys_other_key_refuses_names_that_key_and_the_schemas_reason() -> None:
    """Round 33: `coastal: true` written beside `water: false` in one patch was told "true is not
    an allowed value ... use one of: false", without the key that decides it or why. The message
    names `water: false` and the schema's reason, the hint both ways out, a note points at `water`."""
    text = HEAD + (
        "overlay:\n  areas:\n    patch:\n"
        '      - {id: antiochia, water: false, coastal: true, source: "house rule: Antiochia is inland"}\n'
    )
    (s003,) = problems(analysed(text))
    assert s003.code == "S003" and s003.span is not None
    assert (s003.span.file, s003.span.line) == ("rules/rulesets/house.yaml", line_of(text, "coastal: true"))
    assert s003.span.column == text.splitlines()[s003.span.line - 1].index("true") + 1
    assert s003.message == (
        "`coastal: true` does not fit `water: false` in `overlay.areas.patch[0]`: "
        "an area without water is not coastal and has no coasts (4.24, 23.57)"
    )
    assert s003.hint == "write `coastal: false` here, or change `water: false` if that is what is wrong"
    (water,) = [r for r in s003.related if r.label == "the `water` it must fit"]
    assert water.span.line == s003.span.line
    assert water.span.column == text.splitlines()[s003.span.line - 1].index("water") + 1
    # either way out, pasted as the hint writes it, leaves no schema error (making Antiochia
    # inland has its consequences for its borders: M002, the map's own)
    for mended in (text.replace("coastal: true", "coastal: false"), text.replace("water: false", "water: true")):
        assert [d.code for d in problems(analysed(mended)) if d.code.startswith("S")] == []


def test_a_change_written_over_by_the_bases_value_is_not_asked_for_a_citation() -> None:
    """Round 30: Pottery patched to 55 (cited), then patched back to its base's 45 (uncited) was
    V012 at the first patch and Q009 at the second, "`cost` is changed with no citation": the
    field holds the base's value, cited in the base; V012 alone tells the mistake. A second
    patch writing a value of its own, uncited, is still Q009."""
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: pottery, cost: 55, source: "house rule: dearer pottery"}\n'
        "      - {id: pottery, cost: 45}\n"
    )
    assert [d.code for d in problems(analysed(text))] == ["V012"]
    dearer = problems(analysed(text.replace("cost: 45", "cost: 65")))
    assert sorted(d.code for d in dearer) == ["Q009", "V012"]


def test_a_setting_changed_then_restored_is_not_asked_for_a_citation() -> None:
    """The same of a setting restated at the manifest's top level, then patched back to the
    base's 8 commodity cards under `overlay.settings`."""
    text = HEAD + (
        'hand_limit: {commodity_cards: 9, source: "house rule: nine"}\n'
        "overlay:\n  settings:\n    hand_limit: {commodity_cards: 8}\n"
    )
    assert [d.code for d in problems(analysed(text))] == ["V012"]
    # 10, not the base's 8: uncited (Q009), and the base's text still says eight (V014)
    changed = problems(analysed(text.replace("cards: 8}", "cards: 10}")))
    assert sorted(d.code for d in changed) == ["Q009", "V012", "V014"]


def test_the_findings_of_one_change_are_each_named_by_what_tells_them_apart() -> None:
    """Round 30: Antiochia made inland broke its four `both` borders, told as one M002 at the
    patch: "this change makes 3 more findings of the kind: `antiochia`, `antiochia`,
    `antiochia`", the area every border shares. Each further border is named by its other side."""
    text = HEAD + (
        "overlay:\n  areas:\n    patch:\n"
        '      - {id: antiochia, water: false, coastal: false, source: "house rule: Antiochia is inland"}\n'
    )
    (m002,) = [d for d in analysed(text).diagnostics if d.code == "M002"]
    assert m002.message.endswith("this change makes 3 more findings of the kind: `galatia`, `phoenicia`, `salamis`")


def test_the_border_kinds_list_what_fits_only_for_the_borders_that_do_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, never timed (issue 32, point 4): M002 listed the kinds that fit (a set made) for
    every border of the map and asked the graph whether it was the pair's border, 11-13 ms of
    each edit of an area's id in a map 13 times the shipped one. A kind that fits is now told from
    the two areas' land and water alone: with Antiochia made inland, only its four broken
    borders are listed, and M002 says what it said."""
    from civrules.families.advanced_civilization.checks import borders

    listed: list[tuple[str, str]] = []
    real = borders.allowed_kinds

    def counted(a: Any, b: Any) -> frozenset[str]:
        listed.append((a.id, b.id))
        return real(a, b)

    monkeypatch.setattr(borders, "allowed_kinds", counted)
    text = HEAD + (
        "overlay:\n  areas:\n    patch:\n"
        '      - {id: antiochia, water: false, coastal: false, source: "house rule: Antiochia is inland"}\n'
    )
    analysis = analysed(text)
    (m002,) = [d for d in analysis.diagnostics if d.code == "M002"]
    assert len(listed) == 4 and all("antiochia" in pair for pair in listed), listed
    assert m002.message.endswith("this change makes 3 more findings of the kind: `galatia`, `phoenicia`, `salamis`")


def _quoted_after(hint: str, lead: str) -> str:
    """The code a hint quotes right after ``lead``."""
    return hint.split(lead, 1)[1].split("`", 2)[1]


def test_a_band_a_variant_leaves_outside_its_players_is_narrowed_in_its_overlay() -> None:
    """Round 30: an Expansion Project variant seating six or more was told P007 "...; in the
    base's file itself: narrow the band to `{min: 6, max: 7}`", a file the designer cannot
    edit. The hint writes the narrowing in the variant's `overlay.settings`; followed (with
    P003's removal of the 5-player count), the variant validates."""
    text = HEAD.replace("advanced-civilization", "expansion-project") + (
        'players: {min: 6, source: "house rule: at least six"}\n'
    )
    found = problems(analysed(text))
    assert sorted(d.code for d in found) == ["P003", "P007"]
    (p007,) = [d for d in found if d.code == "P007"]
    hint = p007.hint or ""
    assert "base's file" not in hint
    settings = _quoted_after(hint, "narrow the band to 6-7 players in `overlay.settings`, ")
    assert settings == (
        "deck_compositions: {patch: [{where: {players: {min: 5, max: 7}}, "
        'with: {players: {min: 6, max: 7}, source: "house rule: write why here"}}]}'
    )
    pasted = text + (
        'overlay:\n  player_counts:\n    remove: [{players: 5, why: "house rule: at least six"}]\n'
        f"  settings:\n    {settings}\n"
    )
    assert [d.code for d in problems(analysed(pasted))] == ["L016"]  # the blank, for the designer's reason
    assert problems(analysed(pasted.replace("write why here", "at least six"))) == []


def test_a_hand_limit_band_is_narrowed_in_the_variants_setting_as_the_hint_writes() -> None:
    """The same in Mega Civilization's hand limit, whose bands are a field of the setting: its
    list operations are written inside `by_players`, the citation beside them."""
    text = HEAD.replace("advanced-civilization", "mega-civilization") + (
        'players: {min: 6, source: "house rule: at least six"}\n'
    )
    (p007,) = [d for d in problems(analysed(text)) if d.code == "P007" and "hand-limit" in d.message]
    assert _quoted_after(p007.hint or "", "narrow the band to 6-11 players in `overlay.settings`, ") == (
        "hand_limit: {by_players: {patch: [{where: {players: {min: 5, max: 11}}, "
        'with: {players: {min: 6, max: 11}}}]}, source: "house rule: write why here"}'
    )


def test_the_borders_an_inland_area_breaks_are_rekinded_in_the_variants_overlay() -> None:
    """Round 31: Antiochia made inland was told M002 "...; or make it `land`, or correct the
    areas' land/water": the border in the base's map file, a file the designer does not edit, and
    a `land` kind for the sea borders that no longer exist. The hint writes every border of
    Antiochia in the variant's `overlay.borders` at once (the both borders kept as land, the sea
    borders removed); pasted in, the variant has no M002."""
    text = HEAD + (
        "overlay:\n  areas:\n    patch:\n"
        '      - {id: antiochia, water: false, coastal: false, source: "house rule: Antiochia is inland"}\n'
    )
    (m002,) = [d for d in analysed(text).diagnostics if d.code == "M002"]
    fix = _quoted_after(m002.hint or "", "in `overlay.borders`: ")
    assert fix == (
        '{patch: [{areas: [antiochia, cilicia], kind: land, source: "house rule: write why here"}, '
        '{areas: [antiochia, phoenicia], kind: land, source: "house rule: write why here"}], '
        'remove: [{areas: [antiochia, galatia], why: "house rule: write why here"}, '
        '{areas: [antiochia, salamis], why: "house rule: write why here"}]}'
    )
    pasted = text + f"  borders: {fix}\n"
    assert {d.code for d in problems(analysed(pasted))} == {"L016"}  # the blanks of the reasons
    filled = pasted.replace("write why here", "inland Antiochia")
    assert [d.code for d in problems(analysed(filled)) if d.code.startswith(("M", "L"))] == []


def test_a_card_a_variant_makes_free_is_told_the_cost_to_patch_in_its_overlay() -> None:
    """Round 31: Law made to credit Democracy its whole 200 was told C006 "check the cost and the
    credits toward this card from its prerequisites", nothing a designer can write. The hint
    patches Democracy's cost above the credits in the variant's overlay; written as it says, the
    warning is gone."""
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - id: law\n"
        '        credits: {append: [{card: democracy, points: 200, source: "house rule: law gives democracy"}]}\n'
    )
    c006 = only(analysed(text), text, "credits: {append", "C006")
    hint = c006.hint or ""
    assert hint.startswith(
        "patch `democracy` in `overlay.civilization_cards` to a cost of more than 200, "
        '`- {id: democracy, cost: "write a cost above 200 here", source: "house rule: write why here"}`, '
        "or lower the credits toward it from `law`"
    )
    raised = text + '      - {id: democracy, cost: 210, source: "house rule: dearer democracy"}\n'
    assert [d.code for d in problems(analysed(raised))] == []


@pytest.mark.parametrize(
    "text",
    [
        HEAD
        + (
            "overlay:\n  civilization_cards:\n    patch:\n"
            '      - {id: pottery, cost: 45, source: "house rule: as printed"}\n'
            "      - {id: pottery, cost: 60}\n"
        ),
        HEAD
        + (
            'hand_limit: {commodity_cards: 8, source: "house rule: as printed"}\n'
            "overlay:\n  settings:\n    hand_limit: {commodity_cards: 10}\n"
        ),
    ],
    ids=["entity", "setting"],
)
def test_an_uncited_change_after_a_patch_that_changes_nothing_is_still_asked_for_a_citation(text: str) -> None:
    """Round 31: Pottery patched to its own 45 (cited), then to 60 with no citation, was V013 and
    V012 at the first patch, warnings only, and `validate` passed: the Q009 of the second patch
    was taken for the first's (the same card and field) and dropped with it, while `diff` said
    "cited: rule 32.21 → uncited". Only a Q009 at the very patch V013 tells of is dropped."""
    found = problems(analysed(text))
    (q009,) = [d for d in found if d.code == "Q009"]
    assert q009.span is not None and q009.span.line == line_of(text, "10}" if "cards: 10" in text else "cost: 60")
    assert "V013" in [d.code for d in found]


def test_a_border_is_named_in_messages_as_the_patch_names_it() -> None:
    """Round 31: a border's patch was told "`antiochia|cilicia`: `kind` is changed with no
    citation", "this patch of border `antiochia|cilicia` changes nothing", "cannot patch border
    `antiochia|cilicai`": the resolver's key, which no designer writes. Each names the border as
    the patch does, `areas: [antiochia, cilicia]`; its subjects (what `suppress:` matches) keep
    the key."""
    text = HEAD + (
        "overlay:\n  borders:\n    patch:\n"
        "      - {areas: [antiochia, cilicia], kind: land}\n"
        '      - {areas: [antiochia, phoenicia], kind: both, source: "house rule: as printed"}\n'
    )
    told = {d.code: d for d in problems(analysed(text))}
    assert told["Q009"].message.startswith("`areas: [antiochia, cilicia]`: `kind` is changed with no citation")
    assert told["V013"].message.startswith("this patch of border `areas: [antiochia, phoenicia]` changes nothing")
    assert told["Q009"].subjects[0] == "antiochia|cilicia" and told["V013"].subjects[0] == "antiochia|phoenicia"
    typo = HEAD + 'overlay:\n  borders:\n    patch:\n      - {areas: [antiochia, cilicai], kind: land, source: "x"}\n'
    (v005,) = problems(analysed(typo))
    assert v005.message == "cannot patch border `areas: [antiochia, cilicai]`: the base has no such entry"


def test_a_border_is_named_in_the_diff_and_the_changes_sheet_as_the_overlay_names_it() -> None:
    """Round 31 (follow-up): `civrules diff`, its JSON and the variant's changes sheet named a
    border `antiochia|galatia`, the resolver's key, where messages say `areas: [antiochia,
    galatia]`; so did V004 ("cannot add border `antiochia|cilicia`"), V006's list of referrers and
    V005's notes about a removed or added border. Each names it as an overlay entry does; JSON
    keeps the key in `id` (what `suppress:` matches) and gives the fields in `named_by`."""
    text = HEAD + (
        "overlay:\n  borders:\n    remove:\n"
        '      - {areas: [antiochia, galatia], why: "house rule: no strait"}\n'
        '    patch:\n      - {areas: [phoenicia, antiochia], kind: land, source: "house rule: silted"}\n'
    )
    changes = diff_of(text)
    assert "|" not in changes
    assert "  - areas: [antiochia, galatia]\n      why: house rule: no strait\n" in changes
    assert "  ~ areas: [antiochia, phoenicia]\n      ~ kind: both → land\n" in changes
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    manifests = workspace.manifests()
    variant = analyse(workspace, workspace.load_ruleset(manifests["house"]))
    base = analyse(workspace, workspace.load_ruleset(manifests["advanced-civilization"]))
    assert variant.resolved is not None and base.resolved is not None
    result = diff_rulesets(base.resolved, variant.resolved)
    assert render_text(result, in_words=True) == changes  # what the variant's changes sheet prints
    (removed,) = result.to_json()["collections"]["borders"]["removed"]
    assert (removed["id"], removed["named_by"]) == ("antiochia|galatia", {"areas": ["antiochia", "galatia"]})
    # The resolver's other messages about a border, likewise.
    added = HEAD + 'overlay:\n  borders:\n    add:\n      - {areas: [antiochia, cilicia], kind: land, source: "x"}\n'
    (v004,) = problems(analysed(added))
    assert v004.message == "cannot add border `areas: [antiochia, cilicia]`: it already exists"
    twice = text + '      - {areas: [galatia, antiochia], kind: land, source: "x"}\n'
    twice += '      - {areas: [antiochia, galatia], kind: both, source: "x"}\n'
    (v005,) = problems(analysed(twice))
    assert "|" not in v005.message + (v005.hint or "") + "".join(note.label for note in v005.related)
    assert v005.hint is not None and v005.hint.startswith("this variant removes `areas: [antiochia, galatia]`")
    gone = HEAD + 'overlay:\n  areas:\n    remove:\n      - {id: galatia, why: "house rule: sunk"}\n'
    (v006,) = [d for d in problems(analysed(gone)) if d.code == "V006"]
    assert "border `areas: [antiochia, galatia]`" in v006.message and "|" not in v006.message


@pytest.mark.parametrize(
    ("patch", "code", "base_hint"),
    [
        ('{id: antiochia, water: false, coastal: false, source: "house rule: inland"}', "M002", "make it `land`"),
        (
            '{id: law, credits: {append: [{card: democracy, points: 200, source: "house rule: x"}]}}',
            "C006",
            "check the cost",
        ),
    ],
    ids=["M002", "C006"],
)
def test_a_variant_fix_is_not_followed_by_the_fix_for_the_bases_file(patch: str, code: str, base_hint: str) -> None:
    """Round 31 (follow-up): M002 and C006, moved to the variant's line with the fix the variant
    writes in its overlay, still ended "; or make it `land`, or correct the areas' land/water"
    and "; or check the cost and the credits ...": the same fix, written for the base's file."""
    area = "areas" if code == "M002" else "civilization_cards"
    text = HEAD + f"overlay:\n  {area}:\n    patch:\n      - {patch}\n"
    (found,) = [d for d in analysed(text).diagnostics if d.code == code]
    assert found.hint is not None and "overlay." in found.hint and base_hint not in found.hint


_RENAMED = HEAD + (
    "overlay:\n  civilization_cards:\n    remove:\n"
    '      - {id: pottery, why: "house rule: renamed"}\n'
    "    add:\n"
    "      - {id: ceramics, name: Ceramics, cost: 45, groups: [crafts], prerequisites: [], credits: [],\n"
    '         attributes: [], source: "house rule: renamed"}\n'
)


@pytest.mark.parametrize(
    ("added", "renamed"),
    [
        ("", "ceramics"),  # the only card the variant adds
        (
            "      - {id: potteries, name: Potteries, cost: 50, groups: [crafts], prerequisites: [], credits: [],\n"
            '         attributes: [], source: "house rule: renamed"}\n',
            "potteries",  # of two, the one whose id is closest
        ),
    ],
    ids=["only", "closest"],
)
def test_a_card_renamed_by_a_variant_is_offered_as_the_references_new_target(added: str, renamed: str) -> None:
    """Round 31 (follow-up): Pottery removed and added anew as Ceramics was told V006 "patch the
    calamity that names it to drop the reference ...; or keep `pottery`": Famine's modifier lost,
    not moved to the card that replaces Pottery. The hint first points the references at the card
    the variant adds (the only one, or the closest by id); pasted in, the V006 is gone."""
    text = _RENAMED + added
    (v006,) = [d for d in problems(analysed(text)) if d.code == "V006"]
    patch = (
        f"{{id: famine, modifiers: {{patch: [{{where: {{card: pottery}}, with: {{card: {renamed}}}}}]}}, "
        'source: "house rule: write why here"}'
    )
    assert (v006.hint or "").startswith(
        f"if `{renamed}`, which this variant adds, is `pottery` renamed, point the references at it in "
        f"`overlay.calamities`: `patch: [{patch}]`; or "
    )
    # Pasted as written (round 32: it was written with no citation, and Q009 asked for one)
    pasted = text + f"  calamities:\n    patch:\n      - {patch}\n"
    assert [d.code for d in problems(analysed(pasted))] == ["L016"]  # the citation's blank
    fixed = pasted.replace("write why here", "renamed")
    assert not {"V006", "Q009", "L016"} & {d.code for d in problems(analysed(fixed))}


def test_a_removal_with_no_added_card_like_it_offers_no_new_target() -> None:
    text = _RENAMED.replace("id: ceramics", "id: weaving").replace("Ceramics", "Weaving") + (
        "      - {id: glass, name: Glass, cost: 50, groups: [crafts], prerequisites: [], credits: [],\n"
        '         attributes: [], source: "house rule: x"}\n'
    )
    (v006,) = [d for d in problems(analysed(text)) if d.code == "V006"]
    assert "renamed" not in (v006.hint or "")


def test_a_third_level_putting_back_the_rulebooks_value_is_offered_the_bases_citation() -> None:
    """Round 31 (follow-up): lvl2 patched Pottery's cost to 50 (cited), lvl3 put back the
    rulebook's 45 with no citation: Q009 noted "the base definition", not the lvl2 line whose
    value it changes, and asked for a source as for any house rule. The note is at lvl2's
    change, and the hint offers the base's own citation; written in, lvl3 is clean."""
    middle = HEAD.replace("id: house", "id: middle") + (
        'overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 50, source: "house rule: dearer"}\n'
    )
    top = HEAD.replace("advanced-civilization", "middle") + (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 45}\n"
    )

    def found(text: str) -> list[Diagnostic]:
        workspace = CachedWorkspace({"rulesets/middle.yaml": middle, "rulesets/house.yaml": text})
        return problems(analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"])))

    (q009,) = found(top)
    assert q009.code == "Q009" and (q009.hint or "").endswith(
        '; it puts back the base\'s own value: cite it as the base does, `rule: "32.21"`'
    )
    assert [(note.span.file, note.span.line, note.at_base) for note in q009.related] == [
        ("rules/rulesets/middle.yaml", 8, True)
    ]
    assert found(top.replace("cost: 45}", 'cost: 45, rule: "32.21"}')) == []
