"""`civrules build --check`: what it compares a generated tree with, how much of it it reads, and how
much it prints."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import copy_rulesets


def _build(rules: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), *extra[:2], "build", "--out", str(out), *extra[2:]])
    return result.exit_code, result.stdout, result.stderr


def test_generated_files_larger_than_a_rule_file_may_be_are_checked_and_carried_over(tmp_path: Path) -> None:
    """--max-file-size bounds rule files, not output: at 100 times Advanced Civilization a build wrote
    two data.py of 24 MB, which the check straight after called stale ("more than the 8,388,608
    civrules reads"), and which a build of one other ruleset would have dropped as "not carried over"."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers", "sid-meiers-civilization")
    out = tmp_path / "generated"
    largest = max(path.stat().st_size for path in rules.rglob("*") if path.is_file())
    bound = ("--max-file-size", str(largest))
    code, stdout, stderr = _build(rules, out, *bound)
    assert code == 0, stdout + stderr
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert max(len(content) for content in before.values()) > largest  # what the test is about
    code, stdout, stderr = _build(rules, out, *bound, "--check")
    assert (code, stdout) == (0, ""), stdout + stderr
    code, stdout, stderr = _build(rules, out, *bound, "sid-meiers-civilization")  # the others carried over
    assert code == 0 and "not carried over" not in stderr, stdout + stderr
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
