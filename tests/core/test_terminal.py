"""Terminal conventions: colour on a terminal (`--color`, NO_COLOR, FORCE_COLOR), `-q`, and shell
completion of commands, options, ruleset names and codes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules import cli
from tests.conftest import REPO, copy_shipped, on_terminal

RULES = str(REPO / "rules")
ESC = "\x1b["
#: A rules folder of one manifest with one error: read in milliseconds, unlike the shipped rules.
TINY = Path(__file__).parent.parent / "fixtures" / "terminal" / "rules"
ERROR = f"{ESC}1;31merror[S004]"
#: The variables that choose colour, cleared so that each test sets only its own.
_CLEARED = ("NO_COLOR", "FORCE_COLOR", "TERM")


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    return {**env, "TERM": "xterm", **extra}


def run_on_terminal(*args: str, **env: str) -> str:
    """civrules with its standard output on a pseudo-terminal: what a person at one sees."""
    started, shown = on_terminal(
        lambda terminal: subprocess.run(
            [sys.executable, "-m", "civrules", "--rules", str(TINY), *args],
            stdout=terminal,
            stderr=subprocess.DEVNULL,
            env=_environment(**env),
            check=False,
            timeout=120,
        )
    )
    assert started.returncode == 1
    return shown.decode("utf-8")


def run_into_pipe(*args: str, **env: str) -> str:
    """civrules with its standard output not a terminal: in this process, through click's test
    runner (its output is no terminal), the colour variables cleared but those given."""
    variables: dict[str, str | None] = dict.fromkeys(_CLEARED)
    result = CliRunner().invoke(cli.main, ["--rules", str(TINY), *args], env={**variables, "TERM": "xterm", **env})
    assert result.exit_code == 1, result.output
    return result.stdout


ONE_INFO = ("validate",)


def test_diagnostics_are_coloured_on_a_terminal_and_plain_in_a_pipe() -> None:
    """The output wrapper had no `isatty()`: the colour code never ran."""
    assert ERROR in run_on_terminal(*ONE_INFO)
    assert ESC not in run_into_pipe(*ONE_INFO)


def test_no_color_turns_colour_off_and_force_color_on() -> None:
    assert ESC not in run_on_terminal(*ONE_INFO, NO_COLOR="1")
    assert ERROR in run_into_pipe(*ONE_INFO, FORCE_COLOR="1")
    assert ESC not in run_into_pipe(*ONE_INFO, FORCE_COLOR="0")


@pytest.mark.parametrize("where", ["before", "after"])
def test_color_option_wins_over_the_terminal_and_the_environment(where: str) -> None:
    """Where the option is written is click's parsing, the same in a pipe as on a terminal: both
    places are held in this process, and one place on a real terminal (an interpreter started, the
    fast suite's budget: tests/budget.py)."""

    def args(choice: str) -> list[str]:
        return [f"--color={choice}", *ONE_INFO] if where == "before" else [*ONE_INFO, "--color", choice]

    assert ERROR in run_into_pipe(*args("always"), NO_COLOR="1")
    assert ESC not in run_into_pipe(*args("never"), FORCE_COLOR="1")
    if where == "before":
        assert ESC not in run_on_terminal(*args("never"), FORCE_COLOR="1")


def test_use_colour_follows_the_conventions(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal:
        def isatty(self) -> bool:
            return True

    for name in _CLEARED:
        monkeypatch.delenv(name, raising=False)
    assert cli.use_colour("auto", Terminal())
    assert not cli.use_colour("never", Terminal())
    assert cli.use_colour("always", object())
    monkeypatch.setenv("TERM", "dumb")
    assert not cli.use_colour("auto", Terminal())
    monkeypatch.setenv("NO_COLOR", "")  # empty: not set, as no-color.org says
    monkeypatch.setenv("TERM", "xterm")
    assert cli.use_colour("auto", Terminal())


def test_quiet_prints_errors_and_warnings_only() -> None:
    result = CliRunner().invoke(cli.main, ["--rules", RULES, "-q", "validate", "mega-civilization"])
    assert result.exit_code == 0
    assert result.stdout == "" and result.stderr == ""
    result = CliRunner().invoke(cli.main, ["--rules", RULES, "validate", "mega-civilization", "--quiet"])
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    loud = CliRunner().invoke(cli.main, ["--rules", RULES, "validate", "mega-civilization"])
    assert "info[Q007]" in loud.stdout and "civrules: 0 errors" in loud.stderr


def test_quiet_keeps_the_errors(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    copy_shipped(rules)
    manifest = rules / "rulesets" / "mega-civilization.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "nonsense: 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["--rules", str(rules), "-q", "validate", "mega-civilization"])
    assert result.exit_code == 1
    assert "error[S002]" in result.stdout and "info[" not in result.stdout and result.stderr == ""


# --- Shell completion -----------------------------------------------------------------------------


def complete(words: str, **env: str) -> list[str]:
    """What bash completion offers for ``words`` (the last one being completed): click's completion
    entry point run in this process, as the shell's hook runs it, with the variables the hook sets."""
    parts = words.split(" ")
    variables = {"_CIVRULES_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)}
    before = os.getcwd()
    os.chdir(REPO)  # the shell's folder: `rules` is found there unless --rules or CIVRULES_RULES says
    try:
        result = CliRunner().invoke(cli.main, [], env={**variables, **env}, prog_name="civrules")
    finally:
        os.chdir(before)
    assert result.exit_code == 0, result.output
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if "," in line]


def test_completion_offers_commands_and_options() -> None:
    assert complete("civrules va") == ["validate"]
    assert "--format" in complete("civrules validate --fo")
    assert "--color" in complete("civrules --col")


def test_completion_offers_ruleset_names() -> None:
    assert complete("civrules validate advanced-civilization-w") == ["advanced-civilization-western"]
    assert "mega-civilization" in complete("civrules export ")
    assert complete("civrules new-variant mine --extends imperial-settlers-p") == ["imperial-settlers-peaceful"]
    assert complete("civrules diff advanced-civilization sid-meiers-civilization-") == [
        "sid-meiers-civilization-community"
    ]


def test_completion_reads_the_rules_folder_given(tmp_path: Path) -> None:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "house-rules.yaml").write_text("kind: ruleset\n", encoding="utf-8")
    assert complete(f"civrules --rules {tmp_path} validate ") == ["house-rules"]
    assert complete("civrules validate ", CIVRULES_RULES=str(tmp_path)) == ["house-rules"]


def test_completion_offers_codes() -> None:
    assert "L002" in complete("civrules explain L00")
    assert complete("civrules explain r01") == complete("civrules explain R01") != []
    assert "S,L002" in complete("civrules validate --select S,L00")
