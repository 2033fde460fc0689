"""Standard output holds what a command makes, and nothing else.

`validate`, `build` and `watch` make a report: their diagnostics are it, on standard output. `list`,
`diff`, `export` and `explain` make data a script keeps (`civrules diff a b --format json >
diff.json`): their diagnostics (the rules' errors, a usage error, the process failing) go to
standard error, in the command's `--format`, and standard output holds what the command made or
nothing. Round 18's audit: `diff --format json` printed the diagnostics of a variant that does not
resolve on standard output, and those of one that does on standard error, so the file saved as
"the diff" held either a diff or a list of diagnostics.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import copy_rulesets

BROKEN = 'kind: ruleset\nid: broken\nname: "Broken"\nextends: advanced-civilization\noverlay:\n  x: 1\n   y: 2\n'
WRONG = """\
kind: ruleset
id: wrong
name: "Wrong"
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - {id: pottery, cost: 50, credits: {append: [{card: nosuch, points: 5, source: "house rule"}]}, source: "x"}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base ruleset, a variant that does not resolve (its YAML is broken) and one that resolves
    with an error (a credit to a card that does not exist)."""
    rules = copy_rulesets(tmp_path_factory.mktemp("streams") / "rules", "advanced-civilization")
    (rules / "rulesets" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    (rules / "rulesets" / "wrong.yaml").write_text(WRONG, encoding="utf-8")
    return rules


def _run(rules: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), *args])
    return result.exit_code, result.stdout, result.stderr


def _codes(text: str) -> list[str]:
    found: Any = json.loads(text)
    return [d["code"] for d in found]


def test_a_diff_of_a_variant_that_does_not_resolve_prints_nothing_on_standard_output(rules: Path) -> None:
    code, out, err = _run(rules, "diff", "advanced-civilization", "broken", "--format", "json")
    assert (code, out) == (1, "")
    assert "L001" in _codes(err)


def test_a_diff_of_a_variant_that_resolves_with_errors_prints_the_diff_and_the_errors_apart(rules: Path) -> None:
    code, out, err = _run(rules, "diff", "advanced-civilization", "wrong", "--format", "json")
    assert code == 1
    assert "civilization_cards" in json.loads(out)["collections"]
    assert _codes(err) == ["X001"]


@pytest.mark.parametrize(
    ("args", "exit_code", "code"),
    [
        # a usage error: a ruleset that is not there
        (["diff", "advanced-civilization", "nosuch", "--format", "json"], 2, "R001"),
        # a usage error of click's, before the command runs
        (["diff", "advanced-civilization", "--format", "json"], 2, "R008"),
        (["list", "--format", "json", "--families", "--nosuch"], 2, "R008"),
        (["export", "broken"], 1, "L001"),
        (["export", "nosuch"], 2, "R001"),
    ],
)
def test_a_command_that_makes_data_prints_its_diagnostics_on_standard_error(
    rules: Path, args: list[str], exit_code: int, code: str
) -> None:
    found, out, err = _run(rules, *args)
    assert (found, out) == (exit_code, "")
    if "json" in args:
        assert code in _codes(err)
    else:
        assert f"[{code}]" in err


def test_explain_prints_a_code_it_does_not_know_on_standard_error(rules: Path) -> None:
    code, out, err = _run(rules, "explain", "Z999")
    assert (code, out) == (2, "")
    assert "error[R008]: invalid value for CODE: no diagnostic code `Z999`" in err


def test_a_failure_of_the_process_during_a_diff_is_on_standard_error(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("civrules.pipeline.compare", crash)
    code, out, err = _run(rules, "diff", "advanced-civilization", "wrong", "--format", "json")
    assert (code, out) == (2, "")
    assert _codes(err) == ["R900"]


@pytest.mark.parametrize(
    ("args", "exit_code", "code"),
    [
        (["validate", "broken", "--format", "json"], 1, "L001"),
        (["validate", "nosuch", "--format", "json"], 2, "R001"),
    ],
)
def test_validate_prints_its_report_on_standard_output(rules: Path, args: list[str], exit_code: int, code: str) -> None:
    found, out, err = _run(rules, *args)
    assert found == exit_code and code in _codes(out)
    assert err == ""


# --- A failure before the command line can run: said where the command line would say it ---------


@pytest.mark.parametrize(
    ("words", "on_stderr"),
    [
        (["list", "--format", "json"], True),
        (["--rules", "rules", "diff", "a", "b", "--format", "json"], True),
        (["export", "a"], True),
        (["explain", "R016"], True),
        (["lsp"], True),  # standard output is the editor's channel
        (["validate", "--format", "json"], False),  # the report is the output
        (["validate", "list", "--format", "json"], False),  # a ruleset named `list`
    ],
)
@pytest.mark.parametrize(
    "error",
    [KeyboardInterrupt(), ModuleNotFoundError("No module named 'yaml'", name="yaml")],
    ids=["ctrl-c", "missing"],
)
def test_a_failure_as_civrules_starts_is_said_where_the_command_says_its_diagnostics(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    words: list[str],
    on_stderr: bool,
    error: BaseException,
) -> None:
    """The entry point says a failure that comes before the command line can run (a Ctrl-C, or a
    dependency missing, as it is imported). It said it on standard output whatever the command:
    `list --format json > rulesets.json` kept a list of diagnostics, and the language server wrote it
    on the editor's channel."""
    import sys

    from civrules import launch
    from civrules.support import interrupts

    def left(code: object) -> None:
        raise SystemExit(code)

    monkeypatch.setattr(sys, "argv", ["civrules", *words])
    monkeypatch.setattr(interrupts, "stop_on_signals", lambda: None)  # this process is pytest's
    monkeypatch.setattr(interrupts, "finishing", lambda: None)
    monkeypatch.setattr(launch, "leave", left)
    with pytest.raises(SystemExit) as ended:
        launch.fail(error)
    assert ended.value.code == (130 if isinstance(error, KeyboardInterrupt) else 2)
    out, err = capsys.readouterr()
    code = "R016" if isinstance(error, KeyboardInterrupt) else "R910"
    said, other = (err, out) if on_stderr else (out, err)
    assert code in said and code not in other, (out, err)
    if on_stderr:
        assert out == ""


def test_the_entry_point_reads_the_command_as_the_command_line_does() -> None:
    """The entry point's names of the commands (it reads them without click) are the group's."""
    from civrules import cli
    from civrules.diagnostics import process

    assert set(main.commands) == process.COMMANDS
    assert cli.lsp.name == process.SERVER
    for words in (["list"], ["--rules", "r", "validate", "list"], ["--rules", "list"], ["--debug"], []):
        named = cli._command_asked(words, main)
        assert process.command_asked(words) == (named.name if named is not None else None), words


@pytest.mark.parametrize("words", [["lsp", "--stdio"], ["lsp", "--max-nodes", "0"]])
def test_a_usage_error_of_the_language_server_is_said_on_standard_error(words: list[str]) -> None:
    """Standard output is the editor's channel: an option the server does not take (`--stdio`, which
    some clients add) was said there, read by the editor as a broken message, and shown nowhere."""
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "error[R008]" in result.stderr and "civrules lsp --help" in result.stderr, result.stderr
