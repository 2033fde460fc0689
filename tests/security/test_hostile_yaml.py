"""Threat: hostile or malformed rule files (parser bombs, tags, encodings, numbers, broken documents).

Whatever a rule file holds, civrules answers with located diagnostics, never a crash. The last
section pins each fix the fuzzers and the adversarial corpus called for in the reader and the schema
(aliases nesting data too deep, forbidden tags, control characters written as escapes, numbers too
long to print, whole floats, a misspelt key in a oneOf branch); the reader's own bounds and
diagnostics (billion laughs, nesting, invalid UTF-8, duplicate keys) are in tests/core/test_loader.py.

Fuzzing: random YAML, random bytes and random mutations of the shipped rule files never make
civrules raise. Every run ends in a list of diagnostics and exit 0 or 1: never 2 (an internal
error), never a traceback, and every error is located in a file.

`make test` runs a small, derandomized budget (the same examples every run, a few seconds); the
tests marked slow run the same properties at sixteen times the budget (`make test-slow`, which CI
runs too). `make fuzz` runs a larger, random one: ``CIVRULES_FUZZ_EXAMPLES`` sets the examples per
test, and ``CIVRULES_FUZZ_RANDOM=1`` draws new examples each run (failures are kept in .hypothesis/
and replayed first next time).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import string
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules import cli
from civrules.cli import main
from civrules.diagnostics import Severity
from civrules.load import Limits, read_yaml_bytes, read_yaml_text
from civrules.pipeline import analyse
from tests.budget import heavy
from tests.rulefiles import (
    CachedWorkspace,
    dump,
    fingerprint,
    get,
    nodes,
    pristine,
    put,
    remove,
    shipped_text,
    users,
)

EXAMPLES = int(os.environ.get("CIVRULES_FUZZ_EXAMPLES", "0") or 0)
RANDOM = os.environ.get("CIVRULES_FUZZ_RANDOM") == "1"


#: The slow variants' budget, as a multiple of the fast suite's first one (12 random documents, 24
#: mutated files): `make test` runs a quarter of those two now (3 and 6: each example validates the
#: rulesets that read the file, and the two cost 7 s of CPU at the first budget), `make test-slow`
#: the same 16 times as many (192 and 384).
SLOW = 16


def budget(ci_examples: int) -> settings:
    """The test's budget (derandomized: the same examples every run) or the `make fuzz` one."""
    return settings(
        max_examples=EXAMPLES or ci_examples,
        derandomize=not RANDOM,
        database=None if not RANDOM else settings().database,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        print_blob=True,
    )


#: Span-less diagnostics that are legitimately not in a file.
_UNLOCATED = {"R004"}


_STDOUT, _STDERR = io.StringIO(), io.StringIO()


def run_cli(overrides: dict[str, str], *args: str) -> tuple[int, list[dict[str, Any]], str]:
    """`civrules --rules rules/ validate ARGS --format json` over the shipped rules with ``overrides``.

    In-process, through click's own entry point (an exception that escaped it would fail the test),
    writing to the same two buffers every time: click caches a wrapper per output stream, so a new
    stream per run (as CliRunner makes) would keep every run's output alive.
    """

    def workspace(self: cli.Context) -> CachedWorkspace:
        return CachedWorkspace(overrides, self.limits)

    for stream in (_STDOUT, _STDERR):
        stream.seek(0)
        stream.truncate()
    code: Any = 0
    with (
        mock.patch.object(cli.Context, "workspace", workspace),
        contextlib.redirect_stdout(_STDOUT),
        contextlib.redirect_stderr(_STDERR),
    ):
        try:
            cli.main.main(["validate", *args, "--format", "json"], prog_name="civrules")
        except SystemExit as done:
            code = done.code
    return int(code or 0), json.loads(_STDOUT.getvalue() or "[]"), _STDERR.getvalue()


def assert_answered(code: int, diagnostics: list[dict[str, Any]], stderr: str) -> None:
    """A run ended as a run must: exit 0 or 1, errors when 1, each error located."""
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert not [d for d in diagnostics if d["code"] == "R900"], diagnostics
    assert code in (0, 1), (code, stderr, diagnostics[:5])
    errors = [d for d in diagnostics if d["severity"] == "error"]
    assert (code == 1) == bool(errors), (code, errors[:5])
    for error in errors:
        if error["code"] not in _UNLOCATED:
            assert error["file"] and error["line"] >= 1 and error["column"] >= 1, error


@pytest.fixture(scope="module", autouse=True)
def _pristine_data_is_never_changed() -> Any:
    before = fingerprint()
    yield
    assert fingerprint() == before, "a run changed the data of a shared pristine document"


# --- Random documents --------------------------------------------------------------------------

_KEYS = st.sampled_from(
    ["kind", "id", "name", "cards", "areas", "borders", "calamities", "commodities", "rule", "cost", "stack"]
) | st.text(string.ascii_lowercase + "_", min_size=1, max_size=8)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["map", "ruleset", "civilization_cards", "calamities", "commodities", "crafts", "32.21"])
)
_DATA = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=5),
    max_leaves=25,
)
_YAML_ALPHABET = st.sampled_from(list(":-?[]{},&*!|>'\"#%@`\n\n\n    \t~.0123456789abcxyz_é\u2028\ufeff\x85"))


def fuzzed_files() -> list[str]:
    """The shipped files some ruleset reads (found when the first test runs, not at collection)."""
    return sorted(f for f in users() if pristine()[f].document is not None)


_TARGETS = st.deferred(lambda: st.sampled_from(fuzzed_files()))


def rulesets_reading(relative: str) -> tuple[str, ...]:
    """The rulesets to validate after changing ``relative``: those that read it, or all of them
    (none named) when it is a manifest, whose change may rename or remove a ruleset."""
    return () if relative.startswith("rulesets/") else users()[relative]


def kinds_of(relative: str) -> str:
    loaded = pristine()[relative]
    return loaded.kind or "map"


def answer_random_document(target: str, data: Any, keep_kind: bool) -> None:
    """Random (well-formed) YAML in place of a shipped file, often keeping its `kind:` so the schema
    and the rulesets that use it have something to say."""
    if keep_kind and isinstance(data, dict):
        data = {"kind": kinds_of(target), **data}
    code, diagnostics, stderr = run_cli({target: dump(data)}, *rulesets_reading(target))
    assert_answered(code, diagnostics, stderr)


@given(target=_TARGETS, data=_DATA, keep_kind=st.booleans())
@budget(12 // 4)
def test_random_documents_in_place_of_a_rule_file(target: str, data: Any, keep_kind: bool) -> None:
    answer_random_document(target, data, keep_kind)


@pytest.mark.slow
@given(target=_TARGETS, data=_DATA, keep_kind=st.booleans())
@budget(12 * SLOW)
def test_random_documents_in_place_of_a_rule_file_at_length(target: str, data: Any, keep_kind: bool) -> None:
    answer_random_document(target, data, keep_kind)


@given(text=st.text(_YAML_ALPHABET, max_size=200))
@budget(80)
def test_random_text_is_read_without_raising(text: str) -> None:
    """Text made of YAML's punctuation: the reader returns a document or diagnostics, never raises."""
    document, diagnostics = read_yaml_text(text, "fuzz.yaml")
    assert document is not None or diagnostics
    for diagnostic in diagnostics:
        assert diagnostic.span is not None and diagnostic.span.line >= 1


@given(raw=st.binary(max_size=300) | st.text(_YAML_ALPHABET, max_size=100).map(lambda t: t.encode("utf-16")))
@budget(80)
def test_random_bytes_are_read_without_raising(raw: bytes) -> None:
    document, diagnostics = read_yaml_bytes(raw, "fuzz.yaml")
    assert document is not None or diagnostics


def answer_unused_file(text: str) -> None:
    """The same text as a new file under rules/: `validate` with no ruleset reads every file."""
    code, diagnostics, stderr = run_cli({"cards/fuzz.yaml": "kind: map\n" + text})
    assert_answered(code, diagnostics, stderr)


@heavy
@given(text=st.text(_YAML_ALPHABET, min_size=1, max_size=120))
@budget(4)
def test_random_text_as_an_unused_file_through_the_cli(text: str) -> None:
    answer_unused_file(text)


@pytest.mark.slow
@given(text=st.text(_YAML_ALPHABET, min_size=1, max_size=120))
@budget(4 * SLOW)
def test_random_text_as_an_unused_file_through_the_cli_at_length(text: str) -> None:
    answer_unused_file(text)


# --- Mutations of the shipped files ------------------------------------------------------------

_OPERATIONS = ("drop_key", "change_type", "rename_id", "swap", "duplicate", "truncate", "noise")
_OTHER_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.lists(st.integers(0, 9), max_size=3)
    | st.dictionaries(st.sampled_from(["id", "unknown", "x"]), st.text(max_size=5), max_size=2)
)


def mutate(data: Any, operation: str, draw: Any) -> Any:
    """One mutation of plain data (in place where it can); returns the data."""
    every = list(nodes(data))
    entries = [(p, v) for p, v in every if p and isinstance(get(data, p[:-1]), dict)]
    items = [(p, v) for p, v in every if p and isinstance(get(data, p[:-1]), list)]
    if operation == "drop_key" and entries:
        path, _ = draw(st.sampled_from(entries))
        remove(data, path)
    elif operation == "change_type" and every[1:]:
        path, value = draw(st.sampled_from(every[1:]))
        put(data, path, draw(_OTHER_VALUES.filter(lambda v: type(v) is not type(value))))
    elif operation == "rename_id":
        ids = [(p, v) for p, v in every if p and p[-1] in ("id", "card", "calamity", "extends") and isinstance(v, str)]
        if ids:
            path, value = draw(st.sampled_from(ids))
            others = sorted({v for _, v in ids if v != value}) or ["x"]
            put(data, path, draw(st.sampled_from(others) | st.text(string.ascii_lowercase + "_", max_size=10)))
    elif operation == "swap" and len(every) > 2:
        (a, first), (b, second) = draw(st.lists(st.sampled_from(every[1:]), min_size=2, max_size=2, unique_by=repr))
        if a[: len(b)] != b and b[: len(a)] != a:  # neither inside the other
            put(data, a, copy.deepcopy(second))
            put(data, b, copy.deepcopy(first))
    elif operation == "duplicate" and items:
        path, value = draw(st.sampled_from(items))
        get(data, path[:-1]).insert(int(path[-1]), copy.deepcopy(value))
    return data


_OPERATION_LISTS = st.lists(st.sampled_from(_OPERATIONS), min_size=1, max_size=3)


@given(draw=st.data(), target=_TARGETS, operations=_OPERATION_LISTS)
@budget(24 // 4)
def test_mutated_rule_files_are_answered_with_diagnostics(draw: Any, target: str, operations: list[str]) -> None:
    answer_mutated_file(draw, target, operations)


@pytest.mark.slow
@given(draw=st.data(), target=_TARGETS, operations=_OPERATION_LISTS)
@budget(24 * SLOW)
def test_mutated_rule_files_are_answered_with_diagnostics_at_length(
    draw: Any, target: str, operations: list[str]
) -> None:
    answer_mutated_file(draw, target, operations)


def answer_mutated_file(draw: Any, target: str, operations: list[str]) -> None:
    """Drop a key, change a type, rename an id, swap two values, duplicate an entry, truncate the
    file or throw in noise: the rulesets that use the file still get a located answer."""
    document = pristine()[target].document
    assert document is not None
    data = copy.deepcopy(document.data)
    text: str | None = None
    for operation in operations:
        if operation in ("truncate", "noise"):
            text = text if text is not None else dump(data)
            at = draw.draw(st.integers(0, len(text)))
            noise = draw.draw(st.text(_YAML_ALPHABET, max_size=8)) if operation == "noise" else ""
            text = text[:at] + noise + (text[at:] if operation == "noise" else "")
        elif text is None:
            data = mutate(data, operation, draw.draw)
    code, diagnostics, stderr = run_cli({target: text if text is not None else dump(data)}, *rulesets_reading(target))
    assert_answered(code, diagnostics, stderr)


@heavy
def test_the_pristine_dump_of_every_file_reads_back_the_same() -> None:
    """The mutation tests write data back with libyaml's emitter: unmutated, it must read the same."""
    for relative in fuzzed_files():
        document = pristine()[relative].document
        assert document is not None
        again, diagnostics = read_yaml_text(dump(document.data), relative)
        assert not diagnostics and again is not None and again.data == document.data, relative


def test_the_shipped_files_are_all_fuzz_targets() -> None:
    assert "cards/advanced-civilization.yaml" in fuzzed_files()
    assert shipped_text("rulesets/advanced-civilization.yaml")


# --- The fixes the fuzzers and the corpus called for, pinned in the reader and the schema ---------


def codes_of(text: str, limits: Limits | None = None) -> list[tuple[str, int, int]]:
    _, diagnostics = read_yaml_text(text, "f.yaml", limits or Limits())
    return [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span is not None]


@pytest.mark.parametrize("prefix", ["0x", "0o"])
def test_hex_and_octal_integers_too_long_to_print_are_refused(prefix: str) -> None:
    """Python reads any number of hex digits, but every later stage prints numbers in decimal,
    which has a limit (4300 digits): jsonschema's error message raised ValueError (exit 2)."""
    digit = "f" if prefix == "0x" else "7"
    assert codes_of(f"n: {prefix}{digit * 10_000}\n") == [("L011", 1, 4)]
    document, diagnostics = read_yaml_text(f"n: {prefix}{digit * 100}\n", "f.yaml")
    assert (
        diagnostics == [] and document is not None and document.data["n"] == int(digit * 100, 16 if digit == "f" else 8)
    )


def test_aliases_cannot_nest_data_deeper_than_the_bound() -> None:
    """Each anchor a list holding the alias of the one before: flat text, data 900 levels deep;
    the resolver's merge patch (copy.deepcopy) raised RecursionError (exit 2)."""
    ladder = "l0: &l0 [x]\n" + "".join(f"l{k}: &l{k} [*l{k - 1}, x]\n" for k in range(1, 900))
    assert codes_of(ladder) == [("L006", 100, 12)]
    assert codes_of(ladder, Limits(max_depth=1000)) == []  # the bound, not the shape, refuses it
    assert codes_of("a: &a [[[x]]]\nb: [[*a]]\n") == []  # modest nesting through an alias is fine


def test_a_collection_with_a_forbidden_tag_is_reported_once() -> None:
    """Like a refused scalar, a refused collection becomes a null the schema does not judge again."""
    document, diagnostics = read_yaml_text("a: !!python/object:x {b: 1}\nc: !custom [1]\n", "f.yaml")
    assert [d.code for d in diagnostics] == ["L004", "L004"]
    assert document is not None and document.data == {"a": None, "c": None}
    assert document.refused == {("a",), ("c",)}


def test_control_characters_written_as_escapes_are_refused_where_they_are() -> None:
    """A NUL in a name validated and built, and the generated package did not import."""
    text = 'a: "x\\0y"\n"k\\e": 1\nb: ["ok\\ttab\\nline", "\\x85"]\nc: "\\u202e"\n'
    document, diagnostics = read_yaml_text(text, "f.yaml")
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span] == [
        ("L008", 1, 4),
        ("L008", 2, 1),
        ("L008", 3, 22),
        ("L008", 4, 4),
    ]
    assert document is not None and document.data == {"a": None, "b": ["ok\ttab\nline", None], "c": None}
    assert document.refused == {("a",), ("b", 1), ("c",)}  # judged once: not again by the schema


@pytest.mark.parametrize("written", ["1e3", "1000.0", "!!float 1000"])
def test_a_whole_float_is_not_an_integer(written: str) -> None:
    """jsonschema and fastjsonschema both took 1000.0 for an integer; the package got a float. It
    is told a decimal number: it was "a number with a fraction", which 1000.0 has not (round 36)."""
    cards = shipped_text("cards/advanced-civilization.yaml")
    broken = cards.replace("    cost: 45\n", f"    cost: {written}\n", 1)
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": broken})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    (error,) = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    line = broken[: broken.index(f"cost: {written}")].count("\n") + 1
    assert (error.code, error.span is not None and error.span.line) == ("S001", line)
    said = "`1000.0` is a decimal number, which is none of the forms the field takes in `cards[0].cost`"
    assert error.message == said
    assert error.hint == "write the whole number `1000`: YAML reads `1e3` or `1000.0` as a decimal number"


def test_a_misspelt_key_inside_a_one_of_branch_is_reported() -> None:
    """Found by the fuzzer: a credit line with `0points` for `points` fails both branches of its
    oneOf; the best branch's best error was "missing `points`", dropped as the echo of an unknown
    key that was never reported. The file passed as valid and assembling it raised KeyError."""
    cards = shipped_text("cards/advanced-civilization.yaml")
    broken = cards.replace("{group: crafts, points: 10", "{group: crafts, poinst: 10", 1)
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": broken})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    assert [(d.code, d.hint) for d in errors] == [("S002", "did you mean `points`?")]
    line = broken[: broken.index("poinst")].count("\n") + 1
    assert errors[0].span is not None and errors[0].span.line == line


def test_a_broken_manifest_named_on_the_command_line_shows_its_errors(family_copy: Path) -> None:
    """`validate NAME` with NAME's manifest unreadable said "no ruleset NAME" (exit 2)."""
    (family_copy / "rulesets" / "broken.yaml").write_text("kind: ruleset\nid: broken\nname: [\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "validate", "broken"])
    assert result.exit_code == 1
    assert "broken.yaml:4:1: error[L001]" in result.stdout
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "validate", "nowhere"])
    assert result.exit_code == 2 and "no ruleset `nowhere`" in result.stdout
