"""Diagnostic renderers: exact text, stable JSON, GitHub annotations and valid SARIF 2.1.0."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.render import SourceLines, render_github, render_json, render_sarif, render_text

SOURCE = "cards:\n  - id: pottery\n    cots: 45\n"
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0-rtm.5.json"

UNKNOWN_KEY = Diagnostic(
    "S002",
    Severity.ERROR,
    "unknown key `cots` in `cards[0]`",
    Span("rules/cards/x.yaml", 3, 5, 3, 9),
    hint="did you mean `cost`?",
)
DUPLICATE = Diagnostic(
    "L002",
    Severity.ERROR,
    "duplicate key `id`",
    Span("rules/cards/x.yaml", 2, 7, 2, 9),
    hint="remove or merge one of the two entries",
    related=(Related(Span("rules/cards/x.yaml", 1, 1, 1, 6), "first defined here"),),
)
WARNING = Diagnostic("C001", Severity.WARNING, "a warning without a place", None)


def sources() -> SourceLines:
    return SourceLines(texts={"rules/cards/x.yaml": SOURCE})


def test_text_quotes_the_line_and_underlines_the_span() -> None:
    assert render_text([UNKNOWN_KEY, DUPLICATE, WARNING], sources()) == (
        "rules/cards/x.yaml:3:5: error[S002]: unknown key `cots` in `cards[0]`\n"
        "  3 |     cots: 45\n"
        "    |     ^^^^\n"
        "  hint: did you mean `cost`?\n"
        "rules/cards/x.yaml:2:7: error[L002]: duplicate key `id`\n"
        "  2 |   - id: pottery\n"
        "    |       ^^\n"
        "  hint: remove or merge one of the two entries\n"
        "  note: rules/cards/x.yaml:1:1: first defined here\n"
        "civrules: warning[C001]: a warning without a place\n"
    )


def test_text_uses_colour_only_when_asked() -> None:
    assert "\x1b[" not in render_text([UNKNOWN_KEY], sources())
    assert "\x1b[1;31merror[S002]" in render_text([UNKNOWN_KEY], sources(), colour=True)


def test_text_survives_a_missing_source_file() -> None:
    lost = Diagnostic("L012", Severity.ERROR, "cannot read", Span("nowhere.yaml", 9, 1, 9, 2))
    assert render_text([lost], SourceLines(root=Path("/nonexistent"))) == (
        "nowhere.yaml:9:1: error[L012]: cannot read\n"
    )


def test_multiline_span_is_underlined_to_the_end_of_its_first_line() -> None:
    block = Diagnostic("S004", Severity.ERROR, "missing key `cost`", Span("rules/cards/x.yaml", 2, 5, 4, 1))
    assert render_text([block], sources()).splitlines()[2] == "    |     ^^^^^^^^^^^"


def test_json_has_the_stable_fields() -> None:
    (record,) = json.loads(render_json([DUPLICATE]))
    assert record == {
        "code": "L002",
        "severity": "error",
        "message": "duplicate key `id`",
        "file": "rules/cards/x.yaml",
        "line": 2,
        "column": 7,
        "end_line": 2,
        "end_column": 9,
        "hint": "remove or merge one of the two entries",
        "related": [
            {
                "file": "rules/cards/x.yaml",
                "line": 1,
                "column": 1,
                "end_line": 1,
                "end_column": 6,
                "label": "first defined here",
            }
        ],
    }


def test_github_annotations_escape_their_payload() -> None:
    """A line break inside a field is shown as `\\n`, never one GitHub reads: rule data cannot start
    a line of its own (`::stop-commands::`); the break before the hint is the annotation's own."""
    tricky = Diagnostic(
        "S001", Severity.WARNING, "50% wrong,\n::stop-commands::x", Span("a,b:c.yaml", 1, 2, 1, 3), "fix"
    )
    assert render_github([tricky, WARNING]) == (
        "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,endLine=1,endColumn=3,title=S001::"
        "50%25 wrong,\\n::stop-commands::x%0Ahint: fix\n"
        "::warning title=C001::a warning without a place\n"
    )


def test_sarif_is_valid_against_the_sarif_2_1_0_schema() -> None:
    log = json.loads(render_sarif([UNKNOWN_KEY, DUPLICATE, WARNING]))
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["S002", "L002", "C001"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [rules[r["ruleIndex"]]["id"] for r in results] == ["S002", "L002", "C001"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 9}
    assert results[1]["relatedLocations"][0]["message"]["text"] == "first defined here"
