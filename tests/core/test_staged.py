"""`--staged` (the pre-commit hooks): what civrules checks is what the commit holds.

pre-commit sets aside the unstaged changes of tracked files, never untracked ones: a base that was
never `git add`ed, or one taken out with `git rm --cached`, was read from disk and a broken commit
passed. These tests make real git repositories (git is run as the hooks run it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.support import staged

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

MANIFEST = 'kind: ruleset\nid: {id}\nname: "{id}"\nextends: {base}\n'


@pytest.fixture(autouse=True)
def with_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variants extend the shipped rulesets (the suite reads its copies alone)."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    monkeypatch.delenv("CIVRULES_RULES", raising=False)
    for name in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
        monkeypatch.delenv(name, raising=False)


def git(repository: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repository,
        check=True,
        capture_output=True,
    )


def repository(tmp_path: Path) -> Path:
    """A committed repository: repo1 extends advanced-civilization, repo2 extends repo1."""
    root = tmp_path / "repo"
    (root / "rules" / "rulesets").mkdir(parents=True)
    git(root, "init", "-q")
    (root / "rules" / "rulesets" / "repo1.yaml").write_text(
        MANIFEST.format(id="repo1", base="advanced-civilization"), encoding="utf-8"
    )
    (root / "rules" / "rulesets" / "repo2.yaml").write_text(MANIFEST.format(id="repo2", base="repo1"), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def validate(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["validate", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_an_untracked_base_stops_the_commit_only_with_staged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's case: repo4 extends repo3, which was never `git add`ed; the hook passed."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    (rulesets / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo2"), encoding="utf-8")
    (rulesets / "repo4.yaml").write_text(MANIFEST.format(id="repo4", base="repo3"), encoding="utf-8")
    git(root, "add", "rules/rulesets/repo4.yaml")
    code, found = validate(root, monkeypatch, "repo4")
    assert code == 0, found  # the working tree is valid: without --staged, as before
    code, found = validate(root, monkeypatch, "repo4", "--staged")
    assert code == 1
    (problem,) = [d for d in found if d["code"] == "R022"]
    assert problem["file"] == "rules/rulesets/repo3.yaml" and problem["severity"] == "error"
    assert "not in git's index" in str(problem["message"])
    assert "`git add rules/rulesets/repo3.yaml`" in str(problem["hint"])


def test_a_base_removed_from_the_index_and_unstaged_changes_are_each_said(tmp_path: Path) -> None:
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    git(root, "rm", "-q", "--cached", "rules/rulesets/repo1.yaml")  # still on disk, gone from the commit
    (rulesets / "repo2.yaml").write_text(MANIFEST.format(id="repo2", base="repo1") + "# edited\n", encoding="utf-8")
    (root / "rules" / "notes.txt").write_text("not a rule file\n", encoding="utf-8")
    (root / ".gitignore").write_text("scratch.yaml\n", encoding="utf-8")
    (rulesets / "scratch.yaml").write_text(MANIFEST.format(id="scratch", base="repo1"), encoding="utf-8")
    found = staged.unstaged(root / "rules", staged.is_rule_file)
    assert [(one.relative, one.state) for one in found] == [
        ("rulesets/repo1.yaml", "untracked"),
        ("rulesets/repo2.yaml", "changed"),
        ("rulesets/scratch.yaml", "untracked"),  # ignored by git, read by civrules all the same
    ]
    (rulesets / "repo2.yaml").unlink()
    found = staged.unstaged(root / "rules", staged.is_rule_file)
    assert ("rulesets/repo2.yaml", "deleted") in [(one.relative, one.state) for one in found]


def test_the_index_of_the_commit_is_the_one_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git names the index of `git commit FILE` in GIT_INDEX_FILE, relative to the hook's folder."""
    root = repository(tmp_path)
    (root / "rules" / "rulesets" / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), encoding="utf-8")
    other = root / ".git" / "other-index"
    shutil.copy(root / ".git" / "index", other)
    monkeypatch.chdir(root)
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/other-index")
    subprocess.run(["git", "add", "rules/rulesets/repo3.yaml"], cwd=root, check=True)  # into the other index
    assert staged.unstaged(root / "rules") == []
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert [one.relative for one in staged.unstaged(root / "rules")] == ["rulesets/repo3.yaml"]


def test_staged_outside_a_repository_or_without_check_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = tmp_path / "plain" / "rules" / "rulesets"
    rules.mkdir(parents=True)
    (rules / "solo.yaml").write_text(MANIFEST.format(id="solo", base="advanced-civilization"), encoding="utf-8")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above tmp_path is found
    code, found = validate(tmp_path / "plain", monkeypatch, "--staged")
    assert code == 2
    (problem,) = found
    assert problem["code"] == "R008" and "git cannot list what is staged" in str(problem["message"]) and problem["hint"]
    result = CliRunner().invoke(main, ["build", "--staged"])
    assert result.exit_code == 2 and "--staged goes with --check" in result.output


def test_build_check_staged_names_an_output_file_not_added(tmp_path: Path) -> None:
    """`civrules build` wrote a new file under generated/ that was not `git add`ed: the check
    compares the disk and passed, and the commit lacked the file."""
    root = repository(tmp_path)
    generated = root / "generated"
    (generated / "python").mkdir(parents=True)
    (generated / "python" / "a.py").write_text("A = 1\n", encoding="utf-8")
    git(root, "add", "generated")
    git(root, "commit", "-qm", "built")
    (generated / "python" / "b.py").write_text("B = 1\n", encoding="utf-8")
    (generated / "python" / "__pycache__").mkdir()
    (generated / "python" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    from civrules.cli import _staged_problems

    problems = _staged_problems(generated, lambda path: path.relative_to(root).as_posix(), rules=False)
    assert [(d.code, d.span.file if d.span else None) for d in problems] == [("R022", "generated/python/b.py")]
