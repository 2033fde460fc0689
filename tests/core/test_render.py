"""Diagnostic renderers: exact text, stable JSON, GitHub annotations and valid SARIF 2.1.0."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from civrules.diagnostics import Diagnostic, Related, Severity, Span, cap_per_file, stopped
from civrules.diagnostics.escape import dumps_json, printable, printable_lines, safe_line_start
from civrules.diagnostics.render import SourceLines, render, render_github, render_json, render_sarif, render_text
from tests.budget import heavy

SOURCE = "cards:\n  - id: pottery\n    cots: 45\n"
SARIF_SCHEMA = Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json"

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
    subjects=("id",),
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
        "subjects": ["id"],
    }


def test_json_and_sarif_carry_what_each_diagnostic_is_about_as_data() -> None:
    """`subjects` (the ids, keys and files a diagnostic is about, each whole) follows the fields
    CI read before, in JSON, and is a result's property in SARIF; a name holding a backtick or a
    control character is one name, printable; a diagnostic about nothing named has none."""
    about = Diagnostic(
        "C003",
        Severity.ERROR,
        "`` a`b `` gives a credit to itself",
        Span("rules/cards/x.yaml", 2, 7, 2, 9),
        subjects=("a`b", "x\x1by"),
    )
    records = json.loads(render_json([about, WARNING]))
    assert list(records[0])[-1] == "subjects"
    assert [r["subjects"] for r in records] == [["a`b", "x\\x1by"], []]
    (run,) = json.loads(render_sarif([about, WARNING]))["runs"]
    assert [r.get("properties") for r in run["results"]] == [{"subjects": ["a`b", "x\\x1by"]}, None]


def test_sarif_is_validated_against_the_standard_s_schema_as_cited() -> None:
    """The logs were validated against `sarif-2.1.0-rtm.5.json`, a draft before the standard, from
    no recorded source. The schema is now the OASIS standard's own file, cited in tests/data/README.md
    by repository, commit and git blob: the file is that blob, byte for byte."""
    cited = re.search(
        r"`sarif-schema-2\.1\.0\.json` \|.*`(?P<repo>[\w-]+/[\w-]+)@(?P<commit>[0-9a-f]{40}):(?P<path>[^`]+)`, "
        r"git blob `(?P<blob>[0-9a-f]{40})`",
        (SARIF_SCHEMA.parent / "README.md").read_text(encoding="utf-8"),
    )
    assert cited is not None and cited["repo"] == "oasis-tcs/sarif-spec" and cited["path"].endswith(SARIF_SCHEMA.name)
    content = SARIF_SCHEMA.read_bytes()
    assert hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest() == cited["blob"]  # git names a blob so
    assert json.loads(content)["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"


JSON_SCHEMA = Path(__file__).parent.parent.parent / "docs" / "validate-json.schema.json"


def test_json_output_is_the_documented_format_field_for_field() -> None:
    """`--format json` was described in prose alone, with no schema a CI consumer could validate
    against and no word of what may change between versions. docs/validate-json.schema.json is
    that schema (format 1): every record validates, and a field added, dropped or reordered here
    fails until the schema says so."""
    schema = json.loads(JSON_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    about_nothing = Diagnostic("R004", Severity.ERROR, "no such folder", Span("<command line>", 1, 1, 1, 2))
    records = json.loads(render_json([UNKNOWN_KEY, DUPLICATE, WARNING, about_nothing]))
    jsonschema.Draft202012Validator(schema).validate(records)
    fields = schema["$defs"]["diagnostic"]
    assert [list(record) for record in records] == [fields["required"]] * 4
    assert list(fields["properties"]) == fields["required"]
    related = fields["properties"]["related"]["items"]
    assert list(records[1]["related"][0]) == related["required"] == list(related["properties"])
    assert fields["properties"]["severity"]["enum"] == [s.value for s in Severity]


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


def test_a_github_file_name_is_escaped_as_github_reads_it_back() -> None:
    """A newline in a file's name was shown as `\\n`, which names another file: GitHub's own escapes
    (`%0A`) name the very file; another control is its bytes percent-encoded, never raw."""
    for name, escaped in (
        ("rules/a\nb.yaml", "rules/a%0Ab.yaml"),
        ("rules/50%,x:y.yaml", "rules/50%25%2Cx%3Ay.yaml"),
        ("rules/a\tb\x1b[2J\u202e.yaml", "rules/a%09b%1B[2J%E2%80%AE.yaml"),
        ("rules/Ægyptus.yaml", "rules/Ægyptus.yaml"),
    ):
        found = Diagnostic("S001", Severity.ERROR, "x", Span(name, 1, 2, 1, 3))
        assert render_github([found]) == f"::error file={escaped},line=1,col=2,endLine=1,endColumn=3,title=S001::x\n"


def test_a_github_annotation_about_no_file_has_no_file_property() -> None:
    usage = Diagnostic("R004", Severity.ERROR, "no rules", Span.at("<command line>"), hint="pass --rules")
    assert render_github([usage]) == "::error title=R004::no rules%0Ahint: pass --rules\n"


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


def test_sarif_dumps_each_result_alone_as_the_whole_log_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log of 50,000 results dumped whole took 422 MB: each result is dumped alone, and the text
    is the whole log's dump, byte for byte (an empty log and a hostile message too)."""
    from civrules.diagnostics import render as module

    hostile = Diagnostic("S001", Severity.ERROR, HOSTILE, Span("rules/x.yaml", 1, 1, 1, 2), hint=HOSTILE)
    for diagnostics in ([], [WARNING], [UNKNOWN_KEY, DUPLICATE, WARNING, hostile]):
        text = render_sarif(diagnostics)
        log = json.loads(text)
        assert text == dumps_json(log, indent=2) + "\n"
        assert len(log["runs"][0]["results"]) == len(diagnostics)
    dumped: list[Any] = []

    def dumping(value: Any, **options: Any) -> str:
        dumped.append(value)
        return dumps_json(value, **options)

    monkeypatch.setattr(module, "dumps_json", dumping)
    render_sarif([UNKNOWN_KEY, DUPLICATE, WARNING])
    assert all(len(str(value).split("'ruleId'")) <= 2 for value in dumped)


def test_a_shipped_file_is_named_behind_civrules_the_same_wherever_civrules_is_installed(tmp_path: Path) -> None:
    """A variant's base shipped with civrules was an absolute `file:` URI in SARIF (and an absolute
    path in GitHub's notes): the machine's install path in CI's artifacts, and two machines' logs
    differed. It is named as civrules' other artifacts name it, `<civrules>/...`: in SARIF a URI
    relative to the base `%CIVRULES%`, which the log declares without a location."""
    logs, annotations = [], []
    for install in (tmp_path / "venv" / "site-packages" / "civrules" / "_rules", tmp_path / "clone" / "rules"):
        base = (install / "calamities" / "advanced-civilization.yaml").as_posix()
        noted = Diagnostic(
            "V006",
            Severity.ERROR,
            "civilization card `pottery` is removed, but 1 reference to it remains",
            Span((tmp_path / "repo" / "rules" / "rulesets" / "v.yaml").as_posix(), 7, 14, 7, 20),
            related=(Related(Span(base, 147, 15, 147, 22), "still referred to here"),),
        )
        inside = Diagnostic("S002", Severity.ERROR, "unknown key", Span(base, 3, 5, 3, 9))
        logs.append(render_sarif([noted, inside], tmp_path / "repo", shipped=install))
        annotations.append(render_github([noted, inside], tmp_path / "repo", shipped=install))
        assert str(tmp_path) not in logs[-1] and str(tmp_path) not in annotations[-1]
    assert logs[0] == logs[1] and annotations[0] == annotations[1]
    log = json.loads(logs[0])
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (run,) = log["runs"]
    shipped = {"uri": "calamities/advanced-civilization.yaml", "uriBaseId": "%CIVRULES%"}
    assert run["results"][0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"] == shipped
    assert run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"] == shipped
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert "uri" not in run["originalUriBaseIds"]["%CIVRULES%"]  # no machine's path
    assert "%0Anote: <civrules>/calamities/advanced-civilization.yaml:147:15: " in annotations[0]
    assert "file=<civrules>/calamities/advanced-civilization.yaml,line=3," in annotations[0]


def test_a_file_outside_the_repository_and_the_shipped_rules_keeps_its_absolute_uri(tmp_path: Path) -> None:
    elsewhere = Diagnostic("S002", Severity.ERROR, "unknown key", Span((tmp_path / "x.yaml").as_posix(), 1, 1, 1, 2))
    log = json.loads(render_sarif([elsewhere], tmp_path / "repo", shipped=tmp_path / "civrules" / "_rules"))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "file://" + (tmp_path / "x.yaml").as_posix()}


# --- Nothing from the data reaches the output as a control (issue 14, point 4) --------------------

HOSTILE = "k\n::stop-commands::x\r\x1b[2J\x7f\x9b\u2028\u202e\ud800\t."


def test_printable_escapes_every_control_and_keeps_other_text() -> None:
    assert printable(HOSTILE) == "k\\n::stop-commands::x\\r\\x1b[2J\\x7f\\x9b\\u2028\\u202e\\ud800\\t."
    assert printable("Ægyptus מצרים 👩\u200d👧 \u00e9 नमस्ते `x` %") == "Ægyptus מצרים 👩\u200d👧 \u00e9 नमस्ते `x` %"
    # but not `e` and a combining accent, which print as `é` does (round 36: a decomposed twin)
    assert printable("e\u0301") == "e\\u0301"
    assert printable_lines("a\x1b\nb") == "a\\x1b\nb"
    assert safe_line_start("::error::x.yaml") == "./::error::x.yaml" and safe_line_start("a::b") == "a::b"


def test_json_escapes_what_json_dumps_leaves_raw() -> None:
    text = dumps_json({"k": HOSTILE, "é": 1})
    assert json.loads(text) == {"k": HOSTILE, "é": 1}  # the same data, surrogate included
    assert not any(c in text for c in "\x7f\x9b\u2028\u202e\ud800") and "é" in text


def test_every_format_prints_hostile_fields_escaped() -> None:
    hostile = Diagnostic(
        "S002",
        Severity.ERROR,
        f"unknown key `{HOSTILE}`",
        Span(f"::error::{HOSTILE}.yaml", 1, 1, 1, 2),
        hint=HOSTILE,
        related=(Related(Span(HOSTILE, 1, 1, 1, 2), HOSTILE),),
    )
    raw = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
    for fmt in ("text", "json", "github", "sarif"):
        out = render([hostile], fmt, SourceLines(texts={}))
        assert raw.search(out) is None, fmt
        if fmt in ("text", "github"):
            assert len(out.splitlines()) == (3 if fmt == "text" else 1), fmt
            assert not any(line.startswith("::") for line in out.splitlines()[1:]), fmt
    assert render_text([hostile], SourceLines(texts={})).startswith("./::error::k\\n::stop-commands::")


def test_a_quoted_line_with_a_control_character_is_escaped_and_the_caret_follows() -> None:
    """The loader refuses a file for a raw ESC (L008) and points at it: the quote is of that line."""
    text = "name: \x1b[31mred\n"
    found = Diagnostic("L008", Severity.ERROR, "control character", Span("f.yaml", 1, 7, 1, 8))
    assert render_text([found], SourceLines(texts={"f.yaml": text})) == (
        "f.yaml:1:7: error[L008]: control character\n  1 | name: \\x1b[31mred\n    |       ^^^^\n"
    )


def test_a_tab_in_a_quoted_line_is_shown_not_drawn_as_a_blank() -> None:
    """A tab that YAML refuses as indentation (L001) looks like spaces in an editor: the quote shows
    it, with the caret under it, so the designer sees what the hint means."""
    text = "overlay:\n  \tcalamities:\n"
    found = Diagnostic("L001", Severity.ERROR, "a tab", Span("f.yaml", 2, 3, 2, 4))
    assert render_text([found], SourceLines(texts={"f.yaml": text})) == (
        "f.yaml:2:3: error[L001]: a tab\n  2 |   \\tcalamities:\n    |   ^^\n"
    )


# --- At most --max-diagnostics per file (issue 14, point 5) --------------------------------------


def test_each_file_lists_at_most_the_bound_the_most_severe_first_and_one_summary() -> None:
    infos = [Diagnostic("Q006", Severity.INFO, f"i{n}", Span("a.yaml", n, 1, n, 2)) for n in range(1, 4)]
    errors = [Diagnostic("X001", Severity.ERROR, f"e{n}", Span("a.yaml", 10 + n, 1, 10 + n, 2)) for n in range(3)]
    other = Diagnostic("X001", Severity.ERROR, "b", Span("b.yaml", 1, 1, 1, 2))
    capped = cap_per_file([*infos, *errors, other], 2)
    assert [(d.code, d.message[:2]) for d in capped] == [
        ("R011", "4 "),
        ("X001", "e0"),
        ("X001", "e1"),
        ("X001", "b"),
    ]
    # A summary made upstream is merged; one that says checking stopped is kept as it is.
    again = cap_per_file([*capped, Diagnostic("X001", Severity.ERROR, "e9", Span("a.yaml", 99, 1, 99, 2))], 2)
    assert [d.message for d in again if d.code == "R011"] == [
        "5 more diagnostics in this file are not listed (at most 2 per file)"
    ]
    assert cap_per_file([stopped("a.yaml", 2), *errors[:2]], 2)[0] == stopped("a.yaml", 2)


def test_a_file_that_stopped_and_lost_more_to_the_cap_has_one_summary_line() -> None:
    """Round 19: the schema stage's "stopped checking" and the cap's "1 more" were two R011 lines
    of one file, the first counting only the warning the cap pushed out."""
    errors = [Diagnostic("S002", Severity.ERROR, f"e{n}", Span("a.yaml", 10 + n, 1, 10 + n, 2)) for n in range(2)]
    warning = Diagnostic("R005", Severity.WARNING, "w", Span("a.yaml", 1, 1, 1, 2))
    other = Diagnostic("X001", Severity.ERROR, "b", Span("b.yaml", 1, 1, 1, 2))
    capped = cap_per_file([stopped("a.yaml", 2), *errors, warning, other, stopped("b.yaml", 2)], 2)
    summaries = [d for d in capped if d.code == "R011"]
    assert [d.span.file for d in summaries if d.span is not None] == ["a.yaml", "b.yaml"]
    assert summaries[0].message == (
        "1 more diagnostic in this file is not listed (at most 2 per file), and civrules stopped checking it "
        "after 2 diagnostics: it has more"
    )
    assert summaries[1] == stopped("b.yaml", 2)
    assert [d.message for d in capped if d.code != "R011"] == ["e0", "e1", "b"]
    # Capped again (a session's next round), the line stays one and counts the same.
    assert cap_per_file(capped, 2) == capped


def test_a_summary_is_merged_by_what_it_counts_not_by_its_words() -> None:
    """An R011 summary carries what it counts (`Summary.hidden`, `Summary.stopped`), and the cap
    merges summaries by those: it read them back from the message with a pattern, so a summary
    worded otherwise (another stage's, or a later wording) was counted as nothing."""
    from civrules.diagnostics import TRUNCATED, Summary

    worded = Summary(TRUNCATED, Severity.INFO, "three were left out", Span.at("a.yaml"), hidden=3)
    halted = Summary(TRUNCATED, Severity.INFO, "the stage gave up here", Span.at("b.yaml"), stopped=True)
    error = Diagnostic("X001", Severity.ERROR, "e", Span("a.yaml", 2, 1, 2, 2))
    capped = cap_per_file(
        [worded, halted, error, Diagnostic("X001", Severity.ERROR, "f", Span("a.yaml", 3, 1, 3, 2))], 1
    )
    summaries = {d.span.file: d for d in capped if isinstance(d, Summary) and d.span is not None}
    assert summaries["a.yaml"].message == "4 more diagnostics in this file are not listed (at most 1 per file)"
    assert (summaries["a.yaml"].hidden, summaries["a.yaml"].subjects) == (4, ("a.yaml",))
    assert summaries["b.yaml"] is halted


@pytest.mark.parametrize("renderer", [render_json, render_sarif], ids=["json", "sarif"])
def test_rendering_diagnostics_leaves_nothing_only_the_collector_frees(renderer: Any) -> None:
    """Counted in objects, never timed: n and 2n diagnostics rendered as JSON (or SARIF) with the
    collector off, then what a collection of the objects they made finds unreachable (the test
    process's older objects frozen: tests/collector.py). The encoder that indents (Python's)
    made its functions anew for each record, referring to each other: about 25 objects per
    diagnostic that only the collector frees, whose collections grew to a quarter of a
    10,000-diagnostic run (round 25). Now a record leaves nothing behind it."""
    from tests.collector import left_for_the_collector

    def left(n: int) -> int:
        diagnostics = [
            Diagnostic(
                "S003",
                Severity.ERROR,
                f"wrong type at `areas[{i}].land`",
                Span("rules/maps/m.yaml", i + 1, 5, i + 1, 9),
                hint="write `true` or `false`",
                related=(Related(Span("rules/maps/m.yaml", 1, 1, 1, 6), "the map"),),
                subjects=(f"a{i}", "land"),
            )
            for i in range(n)
        ]
        text, found = left_for_the_collector(lambda: renderer(diagnostics))
        assert text.count("wrong type at") == n
        return found

    small, large = left(200), left(400)
    assert large - small < 20, (small, large)


@heavy
def test_indented_json_is_json_dumps_character_for_character() -> None:
    """Random plain data (text with escapes, controls, separators and lone surrogates; numbers,
    literals, lists, tuples, mappings, empty ones) and some that is not (keys that are not text,
    NaN, infinities, an int subclass): :func:`dumps_json` with an indent writes exactly what
    ``json.dumps(..., ensure_ascii=False, indent=...)`` wrote before, unsafe characters escaped."""
    import enum
    import random

    from civrules.diagnostics.escape import _UNSAFE_IN_JSON

    class Level(enum.IntEnum):
        ONE = 1

    pick = random.Random(25)
    texts = ["", "a", 'é\u2028x"\\\n\t\x7f\x1b', "\ud800", "<civrules>/maps/m.yaml"]
    scalars: list[Any] = [None, True, False, 0, -3, 10**20, 0.5, -0.0, 1e100, float("nan"), float("inf"), Level.ONE]

    def value(depth: int) -> Any:
        roll = pick.randrange(8 if depth < 4 else 2)
        if roll == 0:
            return pick.choice(texts)
        if roll == 1:
            return pick.choice(scalars)
        if roll in (2, 3):
            return [value(depth + 1) for _ in range(pick.randrange(4))]
        if roll == 4:
            return tuple(value(depth + 1) for _ in range(pick.randrange(3)))
        if roll == 7 and pick.random() < 0.2:
            return {pick.choice([1, None, "k"]): value(depth + 1)}
        return {pick.choice([*texts[:3], "b", "c"]): value(depth + 1) for _ in range(pick.randrange(4))}

    for _ in range(20_000):
        data, indent = value(0), pick.choice([0, 2, 4])
        old = json.dumps(data, ensure_ascii=False, indent=indent)
        assert dumps_json(data, indent=indent) == _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", old)


#: Names holding invisible format characters: a zero width space, a soft hyphen, a tag character.
HIDDEN = "card\u200b_x\u00ad\U000e0041"


def test_an_invisible_character_in_a_name_is_printed_as_its_escape() -> None:
    """A file, a key or an id holding a zero width space was printed raw: "the manifest
    `western\u200b.yaml` declares the id `western`; name the file `western.yaml`" read as the
    same name twice. Every field is shown as what it holds, in every format, as a control character
    is (the joiners scripts write in words stay); the quoted line as before."""
    diagnostic = Diagnostic(
        "S002",
        Severity.ERROR,
        f"unknown key `{HIDDEN}`",
        Span(f"{HIDDEN}.yaml", 1, 1, 1, 2),
        hint=f"did you mean `card_x`? {HIDDEN} \u200d",
        related=(Related(Span(f"{HIDDEN}.yaml", 1, 1, 1, 2), HIDDEN),),
    )
    shown = "card\\u200b_x\\xad\\U000e0041"
    assert printable(HIDDEN) == shown and printable("می\u200cخواهم 👩\u200d👧") == "می\u200cخواهم 👩\u200d👧"
    invisible = re.compile("[\u00ad\u200b\U000e0041]")
    for fmt in ("text", "json", "github", "sarif"):
        out = render([diagnostic], fmt, SourceLines(texts={}))
        # An annotation's `file` names the very file, for GitHub to find: its text is escaped.
        assert invisible.search(out.partition(",line=")[2] if fmt == "github" else out) is None, (fmt, out)
        said = f"unknown key `{shown}`"
        assert (said.replace("\\", "\\\\") if fmt in ("json", "sarif") else said) in out, fmt  # JSON doubles `\`
    text = render_text([diagnostic], SourceLines(texts={}))
    assert text.startswith(f"{shown}.yaml:1:1: error[S002]: unknown key `{shown}`"), text
    assert json.loads(render_json([diagnostic]))[0]["message"] == f"unknown key `{shown}`"  # as a control is


def test_a_name_written_decomposed_is_told_apart_from_its_composed_twin() -> None:
    """Two manifests `café.yaml`, one named composed (NFC) and one decomposed (NFD: `e` and a
    combining accent, as a Mac's older file system writes names), were told as "ruleset id `cafe1`
    is declared twice" at `café.yaml:3:5`, "first declared here" at `café.yaml:3:5`: the same name
    twice. A sequence that the composed form writes otherwise is printed as its escapes; composed
    text, and marks that compose with nothing (Devanagari's), print as they are."""
    composed, decomposed = "caf\u00e9.yaml", "cafe\u0301.yaml"
    twice = Diagnostic(
        "R002",
        Severity.ERROR,
        "ruleset id `cafe1` is declared twice",
        Span(f"rulesets/{composed}", 3, 5, 3, 10),
        related=(Related(Span(f"rulesets/{decomposed}", 3, 5, 3, 10), "first declared here"),),
    )
    text = render_text([twice], SourceLines(texts={}))
    assert text.startswith(f"rulesets/{composed}:3:5: error[R002]") and "rulesets/cafe\\u0301.yaml:3:5" in text, text
    assert printable("\u1112\u1161\u11ab") == "\\u1112\\u1161\\u11ab" and printable("\ud55c") == "\ud55c"  # Hangul
    assert printable("\u212b") == "\\u212b" and printable("नमस्ते") == "नमस्ते"  # the Angstrom sign is Å's twin


def gitlab(diagnostics: list[Diagnostic], texts: dict[str, str]) -> list[dict[str, Any]]:
    report = render(diagnostics, "gitlab", SourceLines(texts=texts), root=Path.cwd())
    issues: list[dict[str, Any]] = json.loads(report)
    return issues


def test_gitlab_prints_a_code_quality_report_of_the_repository_s_files() -> None:
    """`--format gitlab`: GitLab's Code Quality report, one issue per diagnostic of a file of the
    repository; one about no file (the command line) or outside it (a shipped base) is no issue."""
    shipped = Diagnostic("V001", Severity.ERROR, "in a base", Span("/elsewhere/base.yaml", 1, 1, 1, 2))
    at_command_line = Diagnostic("R001", Severity.ERROR, "no ruleset `x`", Span.at("<command line>"))
    minor = Diagnostic("R005", Severity.WARNING, "unused", Span.at("rules/cards/x.yaml"))
    issues = gitlab([UNKNOWN_KEY, minor, WARNING, shipped, at_command_line], {"rules/cards/x.yaml": SOURCE})
    assert [{k: v for k, v in issue.items() if k != "fingerprint"} for issue in issues] == [
        {
            "description": "unknown key `cots` in `cards[0]`; hint: did you mean `cost`?",
            "check_name": "S002",
            "severity": "major",
            "location": {"path": "rules/cards/x.yaml", "lines": {"begin": 3}},
        },
        {
            "description": "unused",
            "check_name": "R005",
            "severity": "minor",
            "location": {"path": "rules/cards/x.yaml", "lines": {"begin": 1}},
        },
    ]
    assert all(re.fullmatch("[0-9a-f]{64}", issue["fingerprint"]) for issue in issues)
    assert render([at_command_line], "gitlab", sources()) == "[]\n"
    (noted,) = gitlab([DUPLICATE], {"rules/cards/x.yaml": SOURCE})  # a note, as GitHub's annotation gives it
    assert noted["description"].endswith("; note: rules/cards/x.yaml:1:1: first defined here")


def test_gitlab_fingerprints_hold_across_runs_and_moved_lines_and_tell_twins_apart() -> None:
    """GitLab tells an issue by its fingerprint between a merge request and its target: the same
    rules give the same ones, a line added above an issue keeps its fingerprint, and two issues of
    one code, message and line text in one file each have their own (GitLab shows one of each)."""
    twin = Diagnostic("S002", Severity.ERROR, UNKNOWN_KEY.message, Span("rules/cards/x.yaml", 5, 5, 5, 9))
    text = SOURCE + "  - id: weaving\n    cots: 45\n"
    first = [issue["fingerprint"] for issue in gitlab([UNKNOWN_KEY, twin], {"rules/cards/x.yaml": text})]
    again = [issue["fingerprint"] for issue in gitlab([UNKNOWN_KEY, twin], {"rules/cards/x.yaml": text})]
    moved = [
        Diagnostic("S002", Severity.ERROR, UNKNOWN_KEY.message, Span("rules/cards/x.yaml", line, 5, line, 9))
        for line in (4, 6)
    ]
    shifted = [issue["fingerprint"] for issue in gitlab(moved, {"rules/cards/x.yaml": "# a comment\n" + text})]
    assert first == again == shifted
    assert len(set(first)) == 2
