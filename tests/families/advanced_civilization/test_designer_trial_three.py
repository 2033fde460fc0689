"""The third designer trial: the mistakes a designer planted that civrules let pass, or reported
on the wrong line. Each test is one mistake, answered at the line that holds it.
"""

from __future__ import annotations

from dataclasses import astuple, replace
from typing import Any

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.families.advanced_civilization.model import Ruleset
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, line_of, only, problems

MUSIC = HEAD + "overlay:\n  civilization_cards:\n    patch:\n      - id: music\n        source: house rule\n"

# --- suppression comments are checked like `suppress:` entries --------------------------------------


def test_a_suppression_comment_with_a_misspelt_code_names_the_code_it_meant() -> None:
    text = MUSIC + "        cost: 90   # civrules: ignore[K01O] house rule\n"
    found = only(analysed(text), text, "ignore[K01O]", "R020")
    assert found.severity == "warning" and found.hint == "did you mean `K010`?"
    assert found.span is not None
    assert text.splitlines()[found.span.line - 1][found.span.column - 1 :].startswith("K01O")


def test_a_file_wide_suppression_with_a_misspelt_code_is_reported_at_the_comment() -> None:
    text = MUSIC + "        cost: 90\n# civrules: ignore-file[M3O] no map here\n"
    found = only(analysed(text), text, "ignore-file[M3O]", "R020")
    assert found.hint == "did you mean `M030`?"


def test_a_suppression_comment_on_a_line_where_nothing_fires_is_unused() -> None:
    text = MUSIC.replace("id: music\n", "id: music   # civrules: ignore[C006] no credits\n") + "        cost: 90\n"
    found = only(analysed(text), text, "ignore[C006]", "R021")
    assert found.severity == "warning" and "silences nothing" in found.message
    assert found.hint == "delete `C006` from the comment"


# --- a value inside a list operation's `with:` is where its diagnostic points ---------------------------

LAW_ATTRIBUTE = (
    HEAD
    + "overlay:\n  civilization_cards:\n    patch:\n      - id: law\n        attributes:\n          patch:\n"
    + '            - where: {rule: "32.811"}\n              with:\n'
)


def test_a_wrong_type_inside_with_is_reported_at_the_value() -> None:
    text = LAW_ATTRIBUTE + '                text: "Reduces Civil Disorder."\n                calamities: 7\n'
    found = only(analysed(text), text, "calamities: 7", "S001")
    assert found.span is not None and found.span.column == text.splitlines()[found.span.line - 1].index("7") + 1


def test_a_misspelt_key_inside_with_is_reported_at_the_key() -> None:
    text = LAW_ATTRIBUTE + "                calamites: []\n"
    assert only(analysed(text), text, "calamites", "S002").hint == "did you mean `calamities`?"


def test_a_wrong_value_in_a_nested_list_operation_is_reported_at_the_value() -> None:
    text = LAW_ATTRIBUTE + (
        "                calamities:\n                  patch:\n"
        "                    - where: {calamity: civil_disorder}\n                      with: {effect: reduce}\n"
    )
    assert only(analysed(text), text, "effect: reduce}", "S003").hint == "did you mean `reduces`?"


def test_a_stack_make_up_patched_inside_with_is_reported_at_the_value() -> None:
    """K002 pointed at the `patch:` key, three lines above the count that is wrong."""
    text = HEAD + (
        "overlay:\n  settings:\n    trade_stacks:\n      source: house rule\n      stacks:\n        patch:\n"
        "          - where: {number: 9}\n            with:\n"
        "              calamity_cards: {non_tradable: 0, tradable: 5, minor: 0}\n"
    )
    found = only(analysed(text), text, "calamity_cards: {", "K002")
    assert "declares 5 tradable" in found.message


# --- counts and articles -------------------------------------------------------------------------------


def test_a_count_of_one_is_singular_and_an_id_takes_its_article() -> None:
    from civrules.diagnostics.words import a, count

    assert count(1, "minor calamity", "minor calamities") == "1 minor calamity"
    assert count(0, "card") == "0 cards"
    assert a("`agriculture`") == "an `agriculture`" and a("`pottery`") == "a `pottery`"
    text = HEAD + (
        "overlay:\n  settings:\n    trade_stacks:\n      source: house rule\n      stacks:\n        patch:\n"
        "          - where: {number: 9}\n            with:\n"
        "              calamity_cards: {non_tradable: 0, tradable: 2, minor: 0}\n"
    )
    message = only(analysed(text), text, "calamity_cards: {", "K002").message
    assert "holds 1 tradable calamity;" in message and "declares 2 tradable calamities" in message


# --- no declared fact survives a change that makes it false ---------------------------------------------


def _exported(text: str) -> dict[str, object]:
    from civrules.emit.export import export_ruleset
    from civrules.pipeline import derived_facts

    analysis = analysed(text)
    assert analysis.ok and analysis.resolved is not None and analysis.model is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def test_a_calamity_moved_into_a_stack_re_derives_the_stack_make_up_everywhere() -> None:
    """The base declares one tradable calamity in stack 9; the variant puts Famine there too. The
    declared make-up no longer holds: export, the model (package, sheets) give the variant's."""
    text = HEAD + "overlay:\n  calamities:\n    patch:\n      - {id: famine, stack: 9, source: house rule}\n"
    analysis = analysed(text)
    assert not problems(analysis)
    model = analysis.model
    assert isinstance(model, Ruleset) and model.trade_stacks is not None
    by_number = {s.number: s.calamity_cards for s in model.trade_stacks.stacks}
    assert by_number[9] is not None and by_number[9]["non_tradable"] == 1 and by_number[9]["tradable"] == 1
    stacks = _exported(text)["settings"]["commodities"]["trade_stacks"]["stacks"]  # type: ignore[index]
    (nine,) = [s for s in stacks if s["number"] == 9]
    assert nine["calamity_cards"] == {"non_tradable": 1, "tradable": 1}
    (three,) = [s for s in stacks if s["number"] == 3]
    assert three["calamity_cards"]["non_tradable"] == 0


def test_a_recounted_good_re_derives_the_declared_total() -> None:
    text = HEAD + 'overlay:\n  commodities:\n    patch:\n      - {id: gems, count: 6, source: "house rule"}\n'
    total = _exported(text)["settings"]["commodities"]["total_cards"]  # type: ignore[index]
    assert total == {"count": 115, "note": "derived from this ruleset's counts of the goods (the base declares 114)"}


# --- schema errors choose the branch the designer meant, and removals say why ---------------------------


def test_a_collection_dedented_out_of_the_overlay_says_to_indent_it() -> None:
    """`nations: {add: [...]}` at the top of a variant was "missing key `unknown`"."""
    text = MUSIC + "        cost: 90\nnations:\n  add:\n    - id: numidia\n"
    found = only(analysed(text), text, "nations:", "S001")
    assert "unknown" not in found.message.replace("{unknown: ...}", "")
    assert found.hint is not None and "indent" in found.hint and "`overlay:`" in found.hint


def test_a_mapping_where_a_list_operation_needs_a_list_has_a_hint() -> None:
    text = MUSIC + "        prerequisites: {append: {card: pottery}}\n"
    found = only(analysed(text), text, "prerequisites:", "S001")
    assert "where a list belongs" in found.message and found.hint is not None and "list" in found.hint


def test_a_removal_without_why_is_an_error_as_the_docs_say() -> None:
    text = HEAD + "overlay:\n  calamities:\n    remove:\n      - id: piracy\n"
    found = only(analysed(text), text, "- id: piracy", "S004")
    assert "`why`" in found.message


# --- a Mega Civilization house variant: calamity arithmetic, and hints from where the designer stands ---

BLIGHT = """\
kind: ruleset
id: house
name: "House rules"
extends: mega-civilization
overlay:
  calamities:
    add:
      - id: blight
        name: "Blight"
        stack: 3
        severity: major
        tradable: true
        source: "house rule: blight"
        primary:
          - id: blight_primary
            kind: lose_unit_points
            amount: 12
            unit: unit_points
            text: The victim takes 12 damage.
            source: "house rule"
        secondary:
          - id: blight_secondary
            kind: lose_unit_points
            amount: 15
            unit: unit_points
            max_per_victim: 5
            victim_count: 3
            allocated_by: primary_victim
            text: He assigns 5 damage to each of three players.
            source: "house rule"
        immune: []
        modifiers:
          - card: pottery
            applies_to: primary
            effect: reduces
            modifies: [blight_primary]
            amount: -5
            text: A victim holding Pottery prevents 5 damage.
            source: "house rule"
"""


def blight_problems(text: str) -> list[tuple[str, int, str, str]]:
    return [
        (d.code, d.span.line if d.span else 0, d.message, d.hint or "")
        for d in problems(analysed(text))
        if d.code != "K010"
    ]


def test_a_modifier_larger_than_its_effect_is_a_warning_with_the_numbers() -> None:
    text = BLIGHT.replace("amount: -5\n", "amount: -20\n")
    ((code, line, message, _),) = blight_problems(text)
    assert (code, line) == ("K016", line_of(text, "amount: -20"))
    assert "by 20, more than its 12 points" in message


def test_a_secondary_total_above_victims_times_cap_is_a_warning_with_the_numbers() -> None:
    text = BLIGHT.replace("amount: 15\n", "amount: 20\n")
    ((code, line, message, _),) = blight_problems(text)
    assert (code, line) == ("K017", line_of(text, "amount: 20"))
    assert "20 points to 3 victims of at most 5 each (15)" in message


def test_k010_in_a_variant_says_how_to_link_the_base_card_from_the_variant() -> None:
    """Mega Civilization has no rule index to cite: the hint writes `source:`, and since Pottery
    is the base's, it says to patch it in the overlay instead of "add to the attribute"."""
    (found,) = [d for d in problems(analysed(BLIGHT)) if d.code == "K010"]
    assert found.span is not None and found.span.line == line_of(BLIGHT, "card: pottery")
    hint = found.hint or ""
    assert "in this variant, patch `pottery` in `overlay.civilization_cards`" in hint
    assert 'source: "write the source here"' in hint and "rule:" not in hint.replace("{rule:", "")


def test_a_diagnostic_the_variant_causes_in_a_base_file_is_at_its_patch_and_says_how_to_change_it() -> None:
    """K003 is found at the base's calamity, which the base alone does not get wrong: the variant's
    patch of it is where the designer edits, the base's place a note."""
    text = HEAD + "overlay:\n  calamities:\n    patch:\n      - {id: epidemic, modifier_combination: null}\n"
    (found,) = problems(analysed(text))
    assert found.code == "K003" and found.span is not None and found.span.file.endswith("rulesets/house.yaml")
    assert found.span.line == line_of(text, "{id: epidemic")
    assert found.related[0].label == "where the base shows it" and "calamities/" in found.related[0].span.file
    assert (found.hint or "").startswith(
        "from this variant (the base has no such problem): patch `epidemic` in `overlay.calamities` "
        "(`- id: epidemic` and the fields to change), which writes the fix: add `modifier_combination: "
    )
    assert (found.hint or "").endswith("; or undo this change")


def test_a_diagnostic_left_in_a_base_file_says_how_to_change_it_from_the_variant() -> None:
    """A diagnostic that stays in a base file (the base has it too) in an entity the variant
    changes: the hint says how to make the change from the variant."""
    from civrules import pipeline

    text = HEAD + "overlay:\n  calamities:\n    patch:\n      - {id: epidemic, modifier_combination: null}\n"
    analysis = analysed(text)
    assert analysis.resolved is not None and analysis.found_by is not None
    (found,) = pipeline.from_the_variant(analysis.found_by["K003"], analysis.resolved)  # as the check found it
    assert found.span is not None and "calamities/" in found.span.file
    assert (found.hint or "").startswith(
        "this file is the base's: from this variant, patch `epidemic` in `overlay.calamities` "
        "(`- id: epidemic` and the fields to change), which writes the fix: "
    )


def test_with_no_diagnostic_left_in_a_base_file_the_variants_changes_are_not_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The failing counterpart: where every diagnostic is the variant's own (or an info), nothing
    is told, and the variant's changes are not listed (no entity's key is looked up)."""
    from civrules import pipeline

    text = HEAD + "overlay:\n  calamities:\n    patch:\n      - {id: epidemic, modifier_combination: null}\n"
    analysis = analysed(text)
    assert analysis.resolved is not None
    looked: list[object] = []
    from civrules.resolve import entity_key as real

    def counted(spec: object, raw: object) -> object:
        looked.append(raw)
        return real(spec, raw)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "entity_key", counted)
    own = [d for d in analysis.diagnostics if d.span is not None and d.span.file.endswith("rulesets/house.yaml")]
    infos = [d for d in analysis.diagnostics if d.severity == "info"]
    assert [d.code for d in own] == ["K003", "Q007"]  # K003: the variant causes it, so it is the variant's
    for diagnostics in (own, infos, []):
        assert pipeline.from_the_variant(diagnostics, analysis.resolved) is diagnostics
    assert looked == []
    assert analysis.found_by is not None
    base = analysis.found_by["K003"]  # where the check found it: in the base's file
    told = pipeline.from_the_variant([replace(d, hint=None) for d in base], analysis.resolved)
    assert looked and all("from this variant" in (d.hint or "") for d in told)


class _WatchedSpan(Span):
    """A diagnostic's place that counts how often its position is read: trying it against every
    change of its file reads it once per change."""

    reads = 0

    def __getattribute__(self, name: str) -> Any:
        if name in ("line", "column", "end_line", "end_column"):
            _WatchedSpan.reads += 1
        return super().__getattribute__(name)


def test_each_diagnostic_left_in_a_base_file_finds_its_change_without_trying_every_change() -> None:
    """One diagnostic per patched card of the base, inside the card: each is told to patch its own
    card, and each is compared with a bounded number of changes, not with all the file's (a
    variant patching 5,000 areas with as many warnings in their file: 13 s)."""
    from civrules import pipeline

    base = analysed(HEAD).resolved
    assert base is not None
    *patched, untouched = [entry.raw["id"] for entry in base.collections["civilization_cards"]]
    text = HEAD + "overlay:\n  civilization_cards:\n    patch:\n"
    text += "".join(f'      - {{id: {card}, cost: 50, source: "house rule"}}\n' for card in patched)
    resolved = analysed(text).resolved
    assert resolved is not None
    places = {entry.raw["id"]: entry.origin.span("name") for entry in resolved.collections["civilization_cards"]}
    assert {place.file for place in places.values()} == {"rules/cards/advanced-civilization.yaml"}
    first, last = places[patched[0]], places[patched[-1]]
    across = Span(first.file, first.line, first.column, last.end_line, last.end_column)  # in no single card
    diagnostics = [
        Diagnostic("K003", Severity.WARNING, f"`{card}` is wrong", _WatchedSpan(*astuple(place)))
        for card, place in [*places.items(), ("all", across)]
    ]
    _WatchedSpan.reads = 0
    told = pipeline.from_the_variant(diagnostics, resolved)
    hints = {d.message.split("`")[1]: d.hint for d in told}
    for card in patched:
        assert hints[card] == (
            f"this file is the base's: from this variant, patch `{card}` in `overlay.civilization_cards` "
            f"(`- id: {card}` and the fields to change)"
        )
    assert hints[untouched] is None and hints["all"] is None
    assert len(patched) >= 20 and _WatchedSpan.reads <= 8 * len(diagnostics)


# --- unknown facts are counted in the resolved ruleset ----------------------------------------------------


def test_the_unknown_facts_of_a_removed_entity_are_no_longer_listed_or_counted() -> None:
    def unknowns(text: str) -> tuple[str, list[str]]:
        analysis = analysed(text)
        (summary,) = [d.message for d in analysis.diagnostics if d.code == "Q007"]
        return summary, [d.message for d in analysis.diagnostics if d.code == "Q006"]

    kept_summary, kept = unknowns(HEAD)
    text = HEAD + 'overlay:\n  calamities:\n    remove:\n      - {id: piracy, why: "house rule: no pirates"}\n'
    summary, listed = unknowns(text)
    assert [m for m in kept if "calamities[piracy]" in m] and not [m for m in listed if "calamities[piracy]" in m]
    assert len(listed) == len(kept) - 1
    assert f"has {len(kept) - 1} unknown facts" in summary and f"has {len(kept)} unknown facts" in kept_summary


# --- provenance per field ----------------------------------------------------------------------------------


def test_a_patched_field_carries_the_patch_citation_in_export_and_diff() -> None:
    from civrules.resolve.diff import diff_rulesets, render_text

    music = "id: music\n        source: house rule"
    text = MUSIC.replace(music, '{id: pottery, cost: 50, source: "house rule: cheap"}')
    (pottery,) = [c for c in _exported(text)["civilization_cards"] if c["id"] == "pottery"]  # type: ignore[attr-defined]
    assert pottery["field_sources"] == {"cost": "source: house rule: cheap"}
    variant = analysed(text).resolved
    base = analysed(HEAD).resolved  # the house ruleset unchanged: Advanced Civilization's data
    assert variant is not None and base is not None
    shown = render_text(diff_rulesets(base, variant))
    assert "~ cost: 45 → 50\n          cited: rule 32.21 → source: house rule: cheap\n" in shown


def test_a_stack_make_up_the_variant_restates_is_held_to_its_calamities() -> None:
    text = HEAD + (
        "overlay:\n  calamities:\n    patch:\n      - {id: famine, stack: 9, source: house rule}\n"
        "  settings:\n    trade_stacks:\n      source: house rule\n      stacks:\n        patch:\n"
        "          - where: {number: 9}\n            with:\n"
        "              calamity_cards: {non_tradable: 0, tradable: 1}\n"
    )
    # the restated make-up says no non-tradable calamity; the variant's Famine is one: at Famine's stack
    found = only(analysed(text), text, "famine, stack: 9", "K002")
    assert "makes trade stack 9 hold 1 non-tradable calamity; the ruleset declares 0" in found.message


# --- a value inside an alias is where its diagnostic points ---------------------------------------------


def test_a_wrong_value_repeated_by_an_alias_is_reported_where_it_is_written() -> None:
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        prerequisites: &pre\n"
        '          - {card: potery, rule: "32.21"}\n      - id: music\n        prerequisites: *pre\n'
    )
    found = [d for d in problems(analysed(text)) if d.code == "X001"]
    assert found and {d.span.line for d in found if d.span is not None} == {line_of(text, "card: potery")}
