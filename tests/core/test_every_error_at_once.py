"""A designer sees every independent error of a variant in one run, each once, whatever the command.

An unknown key in a patch (`cots: 55`) hid the variant's other errors from `validate` (a typo'd id,
a value of the wrong type): they surfaced one fix-and-rerun at a time. `diff` found them, but
listed the unknown key twice, and printed the diff of a variant with semantic errors with exit 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics import Diagnostic, Related, Severity, Span, merge_duplicates, sort_diagnostics
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, line_of, problems

TYPOS = (
    HEAD
    + """\
overlay:
  civilization_cards:
    patch:
      - id: potery
        cost: 55
        source: "house rule"
      - id: pottery
        cots: 55
        source: "house rule"
      - id: astronomy
        cost: "fifty"
        source: "house rule"
  calamities:
    remove:
      - {id: famin, why: "house"}
"""
)

# Removes a card still referenced, and names a card that does not exist: valid files, semantic errors.
DANGLING = (
    HEAD
    + """\
overlay:
  civilization_cards:
    patch:
      - id: pottery
        prerequisites: {append: [{card: astronomyy, source: "house rule"}]}
"""
)


def test_an_unknown_key_of_a_patch_hides_none_of_the_variants_other_errors() -> None:
    found = problems(analysed(TYPOS))
    assert sorted((d.code, d.span.line if d.span else 0) for d in found) == [
        ("S001", 15),
        ("S002", 12),
        ("V005", 8),
        ("V005", 19),
    ]


def test_the_unknown_key_found_by_the_manifest_and_by_the_merged_entity_is_listed_once() -> None:
    (unknown,) = [d for d in problems(analysed(TYPOS)) if d.code == "S002"]
    assert [r.label for r in unknown.related] == ["the base definition"]


def test_an_error_that_is_not_an_unknown_key_of_an_entry_still_stops_at_the_files() -> None:
    """A wrong value inside an entry (a list operation of the wrong shape) is found by the schema,
    and again by the resolver in other words: it is reported once, by the schema."""
    text = TYPOS.replace("cots: 55", "prerequisites: {append: {card: pottery}}")
    assert [d.code for d in problems(analysed(text))] == ["S001"]


def test_a_setting_of_the_manifest_with_a_schema_error_hides_none_of_the_overlays_errors() -> None:
    """Round 26's designer: `players: {min: many}` at the manifest's top level was the only error
    shown; the overlay's misspelt id, its cost in words and its removal of a calamity the base has
    not came one fix-and-rerun later. The setting's error stops the model, not the resolution."""
    text = TYPOS.replace("overlay:\n", 'players: {min: many, max: 7, source: "house rule"}\noverlay:\n')
    found = problems(analysed(text))
    assert sorted((d.code, d.span.line if d.span else 0) for d in found) == [
        ("S001", 5),  # `many`
        ("S001", 16),
        ("S002", 13),
        ("V005", 9),
        ("V005", 20),
    ]
    assert analysed(text).model is None  # the checks, which read the model, are not run


def test_a_setting_restated_in_part_is_judged_merged_with_its_base() -> None:
    """A variant's manifest restating part of a setting (`players: {min: 3}`) is merged with its
    base's key by key, but the manifest's schema told "missing key `max` in `players`", a key the
    base gives, and no check ran. The merge is judged: no S004, and the model is built (its
    checks run: the base's two-player count is below the variant's fewest players)."""
    text = HEAD + 'players: {min: 3, source: "house rule: three at least"}\n'
    analysis = analysed(text)
    assert [d.code for d in problems(analysis) if d.code == "S004"] == []
    assert analysis.model is not None


def test_a_setting_restated_in_part_with_a_wrong_value_is_one_error() -> None:
    """`players: {min: many}` was three errors (two missing keys the base gives, and `many`)."""
    text = HEAD + "players: {min: many}\n"
    assert [(d.code, d.message) for d in problems(analysed(text))] == [
        ("S001", "`many` is a text, where a whole number belongs in `players.min`")
    ]


def test_a_nested_setting_restated_at_its_value_is_told_unchanged_not_uncited() -> None:
    """Round 30's designer: `credit_policy: {purchases: {overpayment: {value: lost}}}` at the
    manifest's top level restates what the base holds. The manifest's schema judged the part
    written as if it were the whole setting and told "`lost` is a text, where a mapping belongs",
    hinting `{unknown: lost}` (the one form of the field that needs no citation); the base's
    `rule:` is kept by the merge, which is what is judged: the patch changes nothing (V013)."""
    text = HEAD + "credit_policy:\n  purchases:\n    overpayment:\n      value: lost\n"
    assert [d.code for d in problems(analysed(text))] == ["V013"]


def test_a_nested_setting_restated_with_a_wrong_value_is_told_by_its_merge() -> None:
    """`value: lots` was two errors, the untrue S001 ("a mapping belongs") beside the S003 that
    proposes `lost`: one, S003, at the value."""
    text = HEAD + "credit_policy:\n  purchases:\n    overpayment:\n      value: lots\n"
    found = problems(analysed(text))
    assert [(d.code, d.hint) for d in found] == [("S003", "did you mean `lost`?")]
    assert found[0].span is not None and found[0].span.line == line_of(text, "lots")


def test_an_error_in_what_the_variant_reads_still_stops_at_its_files() -> None:
    """An error of a key that says what the variant is or reads (its `name:`) leaves nothing to
    resolve: it is told alone (with the overlay's unknown key, which the schema finds), as before."""
    text = TYPOS.replace('name: "House rules"', "name: [House, rules]")
    assert sorted(d.code for d in problems(analysed(text))) == ["S001", "S002"]


def test_two_findings_that_differ_only_in_their_notes_are_one_with_both_notes() -> None:
    at = Span.at("v.yaml", 3, 5)
    base = Related(Span.at("base.yaml", 9), "the base definition", at_base=True)
    bare = Diagnostic("S002", Severity.ERROR, "unknown key `cots`", at, "did you mean `cost`?")
    noted = Diagnostic("S002", Severity.ERROR, "unknown key `cots`", at, "did you mean `cost`?", (base,))
    assert merge_duplicates([bare, noted]) == [noted]
    assert sort_diagnostics([noted, bare]) == [noted]
    other = Diagnostic("S002", Severity.ERROR, "unknown key `cots`", Span.at("v.yaml", 4, 5))
    assert len(merge_duplicates([bare, other])) == 2


def _diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, *options: str) -> tuple[int, str, str]:
    """`civrules diff` of a rules folder holding only the variant of the shipped base."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "house.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(rules), "diff", "advanced-civilization", "house", *options])
    return result.exit_code, result.stdout, result.stderr


def test_diff_lists_each_error_once_as_validate_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _diff(tmp_path, monkeypatch, TYPOS)
    assert code == 1
    assert (out + err).count("error[S002]") == 1
    assert sorted(line.split("error[")[1][:4] for line in (out + err).splitlines() if "error[" in line) == [
        "S001",
        "S002",
        "V005",
        "V005",
    ]


def test_diff_of_a_variant_with_semantic_errors_prints_the_diff_then_the_errors_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _diff(tmp_path, monkeypatch, DANGLING)
    assert code == 1
    assert "~ pottery" in out and "error[" not in out
    assert "error[X001]" in err and "astronomyy" in err


def test_diff_in_json_prints_its_errors_in_json_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both streams of `diff --format json` are JSON: the diff on standard output, the errors (a
    list of validate's records) on standard error."""
    code, out, err = _diff(tmp_path, monkeypatch, DANGLING, "--format", "json")
    assert code == 1
    assert isinstance(json.loads(out), dict)
    assert "X001" in [record["code"] for record in json.loads(err)]


def test_diff_of_a_clean_variant_says_nothing_else_and_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _diff(
        tmp_path,
        monkeypatch,
        HEAD + 'overlay: {civilization_cards: {patch: [{id: pottery, cost: 50, source: "house"}]}}\n',
    )
    assert code == 0, err
    assert "~ pottery" in out and "error" not in err
