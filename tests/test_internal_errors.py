"""A bug in civrules (not in the rules) exits 2 with a one-line apology that names the ruleset and
asks for a report; the traceback is shown only with --debug."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable

import pytest
from click.testing import CliRunner, Result

import civrules.checks
from civrules.checks import Check
from civrules.checks.catalogue import all_checks
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Severity, codes
from civrules.families.advanced_civilization.model import Ruleset
from tests.conftest import REPO, RULES

RULESET = "advanced-civilization"


def crash(ruleset: Ruleset) -> Iterable[Diagnostic]:
    raise RuntimeError("boom\nwith a second line")


@pytest.fixture
def crashing_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that raises, registered beside the real ones (not in the code registry)."""
    all_checks()  # import every check module first: they register into the list replaced here
    entry = codes.Code("Z999", "crashes-on-purpose", Severity.ERROR, "What: a test double. Why: -. Fix: -.")
    monkeypatch.setattr(civrules.checks, "_CHECKS", [*civrules.checks._CHECKS, Check(entry, crash)])


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["--rules", str(RULES), *args])


def test_a_crashing_check_is_an_internal_error_diagnostic_and_exit_2(crashing_check: None) -> None:
    result = invoke("validate", RULESET)
    assert result.exit_code == 2
    assert "Traceback" not in result.stdout + result.stderr
    (line,) = [line for line in result.stdout.splitlines() if "error[R900]" in line]
    assert f"check Z999 (crashes-on-purpose) crashed on ruleset `{RULESET}`: RuntimeError: boom" in line
    assert "hint: this is a bug in civrules, not in your rules: please report it" in result.stdout


def test_a_crashing_check_with_debug_shows_the_apology_and_the_traceback(crashing_check: None) -> None:
    result = invoke("--debug", "validate", RULESET)
    assert result.exit_code == 2
    apology = result.stderr.splitlines()[0]
    assert apology == (
        f"civrules: internal error (RuntimeError: boom with a second line) on ruleset `{RULESET}`. "
        "Sorry: this is a bug in civrules, not in your rules."
    )
    assert "Traceback (most recent call last)" in result.stderr
    assert "raise RuntimeError" in result.stderr


@pytest.mark.parametrize("command", [["build", "--out", "{tmp}/generated"], ["export"]])
def test_build_and_export_exit_2_when_a_check_crashes(
    crashing_check: None, command: list[str], tmp_path: pytest.TempPathFactory
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = invoke(args[0], RULESET, *args[1:])
    assert result.exit_code == 2, result.output
    assert "error[R900]" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_a_crash_outside_the_checks_is_one_line_and_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*_: object) -> None:
        raise ValueError("a\nmulti-line\nmessage")

    monkeypatch.setattr("civrules.resolve.Resolver.resolve", explode)
    result = invoke("validate", RULESET)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"civrules: internal error (ValueError: a multi-line message) on ruleset `{RULESET}`. "
        "Sorry: this is a bug in civrules, not in your rules.",
        "hint: please report it with the command you ran and the output of --debug",
    ]
    result = invoke("--debug", "validate", RULESET)
    assert result.exit_code == 2
    assert "Traceback (most recent call last)" in result.stderr
    assert "hint: please report it" not in result.stderr


def test_a_crash_in_a_real_process_exits_2_without_a_traceback() -> None:
    program = (
        "import sys\n"
        "import civrules.checks as checks\n"
        "from civrules.diagnostics import codes\n"
        "from civrules.diagnostics import Severity\n"
        "from civrules.checks.catalogue import all_checks\n"
        "all_checks()\n"
        "def crash(ruleset):\n"
        "    raise ZeroDivisionError('division by zero')\n"
        "checks._CHECKS.append(checks.Check(codes.Code('Z999', 'crash', Severity.ERROR, ''), crash))\n"
        "from civrules.cli import main\n"
        f"sys.argv = ['civrules', '--rules', {str(RULES)!r}, *sys.argv[1:]]\n"
        "main()\n"
    )
    for debug in ([], ["--debug"]):
        done = subprocess.run(
            [sys.executable, "-c", program, *debug, "validate", RULESET],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
            timeout=120,
        )
        assert done.returncode == 2
        assert ("Traceback" in done.stderr) == bool(debug), done.stderr
