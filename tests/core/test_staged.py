"""`--staged` (the pre-commit hooks): what civrules checks is what the commit holds.

pre-commit sets aside the unstaged changes of tracked files, never untracked ones: a base that was
never `git add`ed, or one taken out with `git rm --cached`, was read from disk and a broken commit
passed. These tests make real git repositories (git is run as the hooks run it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules import __version__
from civrules.cli import main
from civrules.diagnostics.escape import printable
from civrules.emit import output
from civrules.support import staged
from tests.conftest import REPO
from tests.core.test_pasted_commands import code_spans

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
        ("rulesets/scratch.yaml", "ignored"),  # ignored by git, read by civrules all the same
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


def test_a_git_dir_with_no_work_tree_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GIT_DIR naming a bare repository: git has no work tree to compare, said as R008."""
    root = repository(tmp_path)
    subprocess.run(["git", "clone", "-q", "--bare", str(root), str(tmp_path / "bare.git")], check=True)
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "bare.git"))
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 2
    (problem,) = found
    assert problem["code"] == "R008" and "git cannot list what is staged" in str(problem["message"]), problem
    assert "work tree" in str(problem["message"]) and problem["hint"]


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


def r022s(found: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    """The R022s of a `--format json` list, by file."""
    return {str(d["file"]): d for d in found if d["code"] == "R022"}


def pasted(command: str, where: Path) -> subprocess.CompletedProcess[bytes]:
    """``command`` pasted into dash in ``where`` (the `sh` of Debian and Ubuntu, and the strictest
    POSIX sh at hand: a form it runs, bash, zsh and ksh run too), bash where dash is not installed."""
    shell = "dash" if shutil.which("dash") else "bash"
    return subprocess.run([shell, "-c", command], cwd=where, capture_output=True, check=False)


def git_commands(hint: object) -> list[str]:
    """The `git ...` commands a hint names, as printed (in code spans: a name may hold a backtick)."""
    return [span for span in code_spans(str(hint)) if span.startswith("git ")]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_each_r022_hints_git_command_pasted_does_what_it_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint's command is pasted into a shell: a name with a newline was printed `'n\\nl.yaml'`
    (single quotes, the newline escaped as the line is printed), which a shell reads as a
    backslash and an n; a name beginning with `-` was read by git as an option; an ignored file
    was told `git add`, which git refuses for it. Each is now one word the shell gives git whole,
    and the command does what the hint says: the file is then in the commit."""
    root = repository(tmp_path)
    rules = root / "rules"
    (root / ".gitignore").write_text("ignored.yaml\n", encoding="utf-8")
    git(root, "add", ".gitignore")
    untracked = [
        "rulesets/n\nl.yaml",
        "rulesets/it's $HOME *.yaml",
        "-n.yaml",
        "rulesets/\u202eback.yaml",
        "t\tab.yaml",
        "rulesets/a`b ``c.yaml",
    ]
    for relative in [*untracked, "rulesets/ignored.yaml"]:
        (rules / relative).write_text("kind: ruleset\n", encoding="utf-8")
    (rules / "rulesets" / "repo2.yaml").write_text(MANIFEST.format(id="repo2", base="repo1") + "# edited\n", "utf-8")
    (rules / "rulesets" / "repo1.yaml").unlink()  # deleted, still staged
    code, found = validate(rules, monkeypatch, "--rules", ".", "--staged")
    assert code == 1
    hints = {file: d["hint"] for file, d in r022s(found).items()}
    printed = sorted([*(printable(relative) for relative in untracked), "rulesets/ignored.yaml", "rulesets/repo1.yaml"])
    assert sorted(hints) == sorted([*printed, "rulesets/repo2.yaml"])
    assert "git add -f rulesets/ignored.yaml" in str(hints["rulesets/ignored.yaml"])
    for file, hint in sorted(hints.items()):
        first = git_commands(hint)[0]  # git add (-f), or git rm: what puts the file's state in the commit
        done = pasted(first, rules)
        assert done.returncode == 0, (file, first, done.stderr)
    code, found = validate(rules, monkeypatch, "--rules", ".", "--staged")
    assert r022s(found) == {}, found


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_r022s_hints_to_undo_a_change_restore_the_staged_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other way a hint offers: `git restore` of a changed file and of a deleted one, with a
    name a shell would not take as printed."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    odd = rulesets / "o\nd\x1bd.yaml"
    odd.write_text(MANIFEST.format(id="odd", base="repo1"), encoding="utf-8")
    git(root, "add", "-A")
    odd.write_text("kind: [\n", encoding="utf-8")
    (rulesets / "repo1.yaml").unlink()
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 1
    for file, problem in sorted(r022s(found).items()):
        (restore,) = [one for one in git_commands(problem["hint"]) if one.startswith("git restore ")]
        done = pasted(restore, root)
        assert done.returncode == 0, (file, restore, done.stderr)
    assert odd.read_text(encoding="utf-8").startswith("kind: ruleset")
    code, found = validate(root, monkeypatch, "--staged")
    assert r022s(found) == {}, found


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("flag", ["skip-worktree", "assume-unchanged"])
def test_a_file_git_is_told_not_to_look_at_is_judged_by_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    """Round 21's attacker: git lists neither a skip-worktree file (what a sparse checkout sets)
    nor an assume-unchanged one as changed or deleted, so a commit breaking repo2 (its base left out
    of the work tree by a sparse checkout) or committing a staged manifest the work tree had a good
    copy of passed the hook. Each is R022 when its working copy is not the index's, and following
    the hint's commands makes the two agree."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    good = (rulesets / "repo1.yaml").read_text(encoding="utf-8")
    git(root, "update-index", f"--{flag}", "rules/rulesets/repo2.yaml")
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 0 and r022s(found) == {}, found  # flagged, and its copy is the index's: nothing to say
    if flag == "skip-worktree":
        (rulesets / "repo2.yaml").unlink()  # as a sparse checkout leaves it out
    else:
        (rulesets / "repo1.yaml").write_text(good.replace("advanced-civilization", "no-such-base"), encoding="utf-8")
        git(root, "add", "rules/rulesets/repo1.yaml")  # the broken copy staged
        (rulesets / "repo1.yaml").write_text(good, encoding="utf-8")  # the good one on disk
        git(root, "update-index", f"--{flag}", "rules/rulesets/repo1.yaml")
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 1
    shown = "rules/rulesets/repo2.yaml" if flag == "skip-worktree" else "rules/rulesets/repo1.yaml"
    (problem,) = r022s(found).values()
    assert problem["file"] == shown and flag in str(problem["message"]), problem
    unflag, _, restore = git_commands(problem["hint"])
    assert pasted(unflag, root).returncode == 0
    assert pasted(restore, root).returncode == 0  # the staged copy taken: what the commit holds is read
    code, found = validate(root, monkeypatch, "--staged")
    assert r022s(found) == {}, found
    assert code == (0 if flag == "skip-worktree" else 1)  # the staged no-such-base is now read: V001


@pytest.mark.parametrize("flag", ["skip-worktree", "assume-unchanged"])
def test_a_flagged_file_git_checked_out_with_crlf_is_what_the_index_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    """Round 21's review: the flagged file's bytes were hashed as they are on disk, and a checkout
    git wrote with CRLF line ends (`eol=crlf`, `core.autocrlf`) was R022 though `git status` was
    clean, which stopped the commit. It is judged as `git add` would stage it; a real change still is R022."""
    root = repository(tmp_path)
    (root / ".gitattributes").write_text("*.yaml text eol=crlf\n", encoding="utf-8")
    git(root, "add", ".gitattributes")
    git(root, "commit", "-qm", "crlf")
    manifest = root / "rules" / "rulesets" / "repo2.yaml"
    manifest.unlink()
    git(root, "checkout", "--", "rules/rulesets/repo2.yaml")
    assert b"\r\n" in manifest.read_bytes()  # as git wrote it out; the index holds LF
    git(root, "update-index", f"--{flag}", "rules/rulesets/repo2.yaml")
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 0 and r022s(found) == {}, found
    manifest.write_bytes(manifest.read_bytes() + b"# edited\r\n")
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 1 and list(r022s(found)) == ["rules/rulesets/repo2.yaml"], found


@pytest.mark.slow  # a whole validate and a dozen git runs: 0.5-3 s, over the fast suite's budget (#32, point 7)
@pytest.mark.skipif(shutil.which("sh") is None, reason="sh is not installed")
def test_a_filter_driver_of_the_repositorys_own_configuration_is_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 30's attacker: a folder unpacked from an archive brings its `.git/config`; a filter
    driver there (`filter.x.clean = ./x.sh`), named for `*.yaml` by a `.gitattributes`, was run by
    `git ls-files --modified` and `git hash-object`, once for each rule file git compared by
    content: civrules ran a program of the working tree. The user's own configuration's filter
    (global: git-lfs installs itself so) still runs, as it does for `git add`."""
    root = repository(tmp_path)
    ran = tmp_path / "ran"
    for name in ("theirs", "mine"):
        script = (root if name == "theirs" else tmp_path) / f"{name}.sh"
        script.write_text(f'#!/bin/sh\necho {name} >> "{ran}"\ncat\n', encoding="utf-8")
        script.chmod(0o755)
    git(root, "config", "filter.theirs.clean", str(root / "theirs.sh"))
    mine = tmp_path / "gitconfig"
    mine.write_text(f'[filter "mine"]\n\tclean = {tmp_path / "mine.sh"}\n', encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(mine))
    (root / ".gitattributes").write_text("repo1.yaml filter=theirs\nrepo2.yaml filter=mine\n", encoding="utf-8")
    for name in ("repo1", "repo2"):
        git(root, "update-index", "--skip-worktree", f"rules/rulesets/{name}.yaml")
        with (root / "rules" / "rulesets" / f"{name}.yaml").open("a", encoding="utf-8") as manifest:
            manifest.write("# edited\n")
    ran.unlink(missing_ok=True)
    code, found = validate(root, monkeypatch, "--staged")
    assert code == 1 and sorted(r022s(found)) == ["rules/rulesets/repo1.yaml", "rules/rulesets/repo2.yaml"], found
    assert ran.read_text(encoding="utf-8").split() == ["mine"]


def test_a_conflict_not_marked_resolved_is_told_to_resolve_and_add_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """During a merge the file with a conflict was said to have changes not staged, and told
    `git restore FILE`, which git refuses for an unmerged path."""
    root = repository(tmp_path)
    manifest = root / "rules" / "rulesets" / "repo2.yaml"
    git(root, "checkout", "-q", "-b", "other")
    manifest.write_text(MANIFEST.format(id="repo2", base="repo1") + "# theirs\n", encoding="utf-8")
    git(root, "commit", "-qam", "theirs")
    git(root, "checkout", "-q", "-")
    manifest.write_text(MANIFEST.format(id="repo2", base="repo1") + "# ours\n", encoding="utf-8")
    git(root, "commit", "-qam", "ours")
    merged = subprocess.run(["git", "merge", "-q", "other"], cwd=root, capture_output=True, check=False)
    assert merged.returncode == 1  # the conflict
    assert [(one.relative, one.state) for one in staged.unstaged(root / "rules")] == [
        ("rulesets/repo2.yaml", "unmerged")
    ]
    code, found = validate(root, monkeypatch, "--staged")
    # Its conflict markers are one error at the first (it was R022 and L001 at once), whether or
    # not a ruleset read reads the file, and told to `git add` once resolved.
    assert code == 1
    assert [(d["code"], d["file"], d["line"]) for d in found if d["severity"] == "error"] == [
        ("L001", "rules/rulesets/repo2.yaml", 5)
    ], found
    code, alone = validate(root, monkeypatch, "--staged", "repo1")
    assert [d for d in alone if d["severity"] == "error"] == [d for d in found if d["severity"] == "error"]
    problem = next(d for d in found if d["code"] == "L001")
    assert "conflict" in str(problem["message"]) and "resolve" in str(problem["hint"])
    assert "restore" not in str(problem["hint"])
    manifest.write_text(MANIFEST.format(id="repo2", base="repo1") + "# both\n", encoding="utf-8")  # resolved
    code, found = validate(root, monkeypatch, "--staged")  # resolved, not marked so: R022 alone
    assert [(d["code"], d["file"]) for d in found if d["severity"] == "error"] == [
        ("R022", "rules/rulesets/repo2.yaml")
    ], found
    done = pasted(git_commands(problem["hint"])[0], root)
    assert done.returncode == 0, done.stderr
    code, found = validate(root, monkeypatch, "--staged")
    assert r022s(found) == {}, found


def test_a_staged_file_whose_working_copy_does_not_parse_is_named_as_not_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate NAME --staged` on a manifest whose unstaged edit does not parse listed the parse
    errors alone and not R022: what differs from the commit, the cause, was dropped wherever the
    command stopped early (a broken or missing manifest, in `validate` and in `build --check`)."""
    root = repository(tmp_path)
    manifest = root / "rules" / "rulesets" / "repo2.yaml"
    manifest.write_text("kind: [\n", encoding="utf-8")
    code, found = validate(root, monkeypatch, "repo2", "--staged")
    assert code == 1
    assert "rules/rulesets/repo2.yaml" in r022s(found), found
    assert any(d["code"] == "L001" for d in found)
    result = CliRunner().invoke(main, ["build", "--check", "--staged", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and "error[R022]" in result.stdout, result.output
    manifest.unlink()  # deleted, still staged: an unknown ruleset (exit 2), and why
    code, found = validate(root, monkeypatch, "repo2", "--staged")
    assert code == 2
    assert sorted(str(d["code"]) for d in found) == ["R001", "R022"], found


#: A pre-commit hook (sh) that records what it is given, then stops the commit: the index stays
#: as staged, and the test reads the environment and directory git ran the hook with.
RECORDING_HOOK = '#!/bin/sh\nenv -0 > "$HOOK_RECORD/environment"\npwd > "$HOOK_RECORD/directory"\nexit 1\n'

#: A hook that asks civrules, in the hook's own process tree as git started it, what differs from
#: the index under `$HOOK_RULES` (cheap: the module imports the standard library alone).
ASKING_HOOK = (
    "#!/bin/sh\n"
    '"$HOOK_PYTHON" -c "import json, sys; from pathlib import Path; from civrules.support import staged; '
    "print(json.dumps([[one.relative, one.state] for one in staged.unstaged(Path(sys.argv[1]), staged.is_rule_file)]))"
    '" "$HOOK_RULES" > "$HOOK_RECORD/answer" 2> "$HOOK_RECORD/error"\n'
    "exit 1\n"
)


def install_hook(tmp_path: Path, text: str) -> Path:
    """A hooks folder holding ``text`` as pre-commit (given to git as core.hooksPath)."""
    hooks = tmp_path / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "pre-commit").write_text(text, encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    return hooks


def commit_with_hook(where: Path, hooks: Path, record: Path, *args: str, **extra: str) -> None:
    """`git commit` in ``where`` as a designer types it, the hook in ``hooks`` run by git itself."""
    record.mkdir(exist_ok=True)
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    environment.update(HOOK_RECORD=str(record), PYTHONPATH=str(REPO / "compiler"), **extra)
    configured = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", f"core.hooksPath={hooks}"]
    done = subprocess.run(
        ["git", *configured, "commit", "-qm", "hooked", *args],
        cwd=where,
        env=environment,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # the hook stops it, having recorded what it was given


def test_validate_staged_in_a_linked_worktree_as_git_runs_the_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git gives a hook in a linked worktree GIT_DIR (.git/worktrees/NAME) and no GIT_WORK_TREE: git
    run inside rules/ took rules/ as the top of the work tree, and every commit was refused with
    R022 about paths that do not exist (rules/rules/rulesets/...)."""
    root = repository(tmp_path)
    git(root, "worktree", "add", "-q", str(tmp_path / "wt"))
    worktree = tmp_path / "wt"
    manifest = worktree / "rules" / "rulesets" / "repo1.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    git(worktree, "add", "-A")
    record = tmp_path / "record"
    commit_with_hook(worktree, install_hook(tmp_path, RECORDING_HOOK), record)
    entries = (record / "environment").read_text(encoding="utf-8").split("\0")
    given = dict(entry.split("=", 1) for entry in entries if "=" in entry)
    assert given["GIT_DIR"].endswith("/worktrees/wt") and "GIT_WORK_TREE" not in given  # git's way, held
    for name, value in given.items():
        if name.startswith("GIT_"):
            monkeypatch.setenv(name, value)
    directory = Path((record / "directory").read_text(encoding="utf-8").strip())
    code, found = validate(directory, monkeypatch, "repo1", "--staged")
    assert code == 0 and [d for d in found if d["severity"] != "info"] == [], found
    (worktree / "rules" / "rulesets" / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), "utf-8")
    code, found = validate(directory, monkeypatch, "repo1", "--staged")
    assert code == 1
    assert [(d["code"], d["file"]) for d in found if d["severity"] != "info"] == [("R022", "rules/rulesets/repo3.yaml")]


def _layout(tmp_path: Path, name: str) -> tuple[Path, Path, tuple[str, ...]]:
    """A repository of one layout with a change staged: where to commit, the rules folder, and
    the arguments of `git commit`."""
    if name == "no commits yet":
        root = tmp_path / "repo"
        (root / "rules" / "rulesets").mkdir(parents=True)
        git(root, "init", "-q")
        (root / "rules" / "rulesets" / "repo1.yaml").write_text(
            MANIFEST.format(id="repo1", base="advanced-civilization"), encoding="utf-8"
        )
        git(root, "add", "-A")
        return root, root / "rules", ()
    if name == "rules below the top":
        root = tmp_path / "repo"
        (root / "data" / "rules" / "rulesets").mkdir(parents=True)
        git(root, "init", "-q")
        (root / "data" / "rules" / "rulesets" / "repo1.yaml").write_text(MANIFEST.format(id="repo1", base="x"), "utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "start")
        git(root, "worktree", "add", "-q", str(tmp_path / "wt"))
        where = tmp_path / "wt"
        rules = where / "data" / "rules"
    elif name == "submodule":
        inner = repository(tmp_path / "inner")
        root = tmp_path / "super"
        root.mkdir()
        git(root, "init", "-q")
        git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
        git(root, "commit", "-qm", "with the submodule")
        where = root / "sub"
        rules = where / "rules"
    else:
        root = repository(tmp_path)
        where, rules = root, root / "rules"
        if name.startswith("linked worktree"):
            git(root, "worktree", "add", "-q", str(tmp_path / "wt"))
            where = tmp_path / "wt"
            rules = where / "rules"
    manifest = next((rules / "rulesets").iterdir())
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    if name.endswith("git commit FILE"):  # git stages it into an index of its own for the hook
        return where, rules, (str(manifest.relative_to(where)),)
    git(where, "add", "-A")
    return where, rules, ()


@pytest.mark.parametrize(
    "layout",
    [
        "main checkout",
        "main checkout, git commit FILE",
        "linked worktree",
        "linked worktree, git commit FILE",
        "rules below the top",
        "submodule",
        "no commits yet",
    ],
)
def test_the_hook_sees_what_the_commit_holds_in_every_layout(tmp_path: Path, layout: str) -> None:
    """A real `git commit` runs a hook that asks civrules what under the rules folder differs from
    the index: nothing staged is reported, and an untracked file is, in each layout git has."""
    where, rules, args = _layout(tmp_path, layout)
    (rules / "rulesets" / "untracked.yaml").write_text(MANIFEST.format(id="untracked", base="x"), encoding="utf-8")
    record = tmp_path / "record"
    hooks = install_hook(tmp_path, ASKING_HOOK)
    commit_with_hook(where, hooks, record, *args, HOOK_PYTHON=sys.executable, HOOK_RULES=str(rules.relative_to(where)))
    assert (record / "error").read_text(encoding="utf-8") == ""
    assert json.loads((record / "answer").read_text(encoding="utf-8")) == [["rulesets/untracked.yaml", "untracked"]]


@pytest.mark.slow
def test_a_commit_in_a_linked_worktree_passes_the_hook_civrules_init_writes(tmp_path: Path) -> None:
    """The review's reproduction whole: a repository from `civrules init`, its hook's command run
    by git for commits made in a linked worktree (a fresh interpreter each, hence slow)."""
    made = CliRunner().invoke(main, ["init", str(tmp_path / "repo1")])
    assert made.exit_code == 0, made.output
    root = tmp_path / "repo1"
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    git(root, "worktree", "add", "-q", str(tmp_path / "wt1"))
    worktree = tmp_path / "wt1"
    (variant,) = (worktree / "rules" / "rulesets").iterdir()
    variant.write_text(variant.read_text(encoding="utf-8") + "# x\n", encoding="utf-8")
    git(worktree, "add", "-A")
    hook = '#!/bin/sh\n"$HOOK_PYTHON" -m civrules validate --strict --staged > "$HOOK_RECORD/said" 2>&1\n'
    hooks = install_hook(tmp_path, hook)
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    environment.update(HOOK_RECORD=str(tmp_path), HOOK_PYTHON=sys.executable, PYTHONPATH=str(REPO / "compiler"))
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", f"core.hooksPath={hooks}"]
    done = subprocess.run([*command, "commit", "-qm", "wt"], cwd=worktree, env=environment, check=False)
    assert done.returncode == 0, (tmp_path / "said").read_text(encoding="utf-8")
    (worktree / "rules" / "rulesets" / "base.yaml").write_text(MANIFEST.format(id="base", base=variant.stem), "utf-8")
    (worktree / "rules" / "rulesets" / "top.yaml").write_text(MANIFEST.format(id="top", base="base"), "utf-8")
    git(worktree, "add", "rules/rulesets/top.yaml")  # its base left out of the commit
    done = subprocess.run([*command, "commit", "-qm", "top"], cwd=worktree, env=environment, check=False)
    said = (tmp_path / "said").read_text(encoding="utf-8")
    assert done.returncode == 1 and "error[R022]" in said, said
    assert [line for line in said.splitlines() if "error[" in line] == [
        "rules/rulesets/base.yaml:1:1: error[R022]: `rules/rulesets/base.yaml` is not in git's index "
        "(untracked): the commit will not hold it"
    ], said


@pytest.mark.parametrize("path", [".:{path}", ":{path}", "rules:{path}"])
def test_a_git_in_the_checked_tree_is_never_run_whatever_the_path_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """A relative folder of the PATH (`.`, an empty entry, `rules`) found a `git` committed into the
    project, and civrules ran the one in the rules folder (git is run there): any code a pull
    request brings ran in the pre-commit hook."""
    root = repository(tmp_path)
    real = shutil.which("git")
    assert real is not None
    ran = tmp_path / "ran"
    for folder in (root, root / "rules"):
        fake = folder / "git"
        fake.write_text(f'#!/bin/sh\necho "$0" >> "{ran}"\nexec "{real}" "$@"\n', encoding="utf-8")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", path.format(path=os.environ["PATH"]))
    assert validate(root, monkeypatch, "--staged")[0] == 0
    assert not ran.exists(), ran.read_text(encoding="utf-8")


@pytest.mark.parametrize("inside", ["node_modules/.bin", ".", "rules", "rules/rulesets"])
def test_a_git_in_an_absolute_path_folder_inside_the_project_is_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    """`PATH=$PWD/node_modules/.bin:$PATH` (a CI step, a package manager's script) is absolute, and
    civrules ran the `git` committed there: only relative folders were skipped. A folder of the PATH
    that lies in the project's tree (the repository's work tree, the rules folder) is skipped too."""
    root = repository(tmp_path)
    real = shutil.which("git")
    assert real is not None
    ran = tmp_path / "ran"
    folder = root / inside
    folder.mkdir(parents=True, exist_ok=True)
    fake = folder / "git"
    fake.write_text(f'#!/bin/sh\necho "$0" >> "{ran}"\nexec "{real}" "$@"\n', encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    assert validate(root, monkeypatch, "--staged")[0] == 0
    assert not ran.exists(), ran.read_text(encoding="utf-8")


def test_a_git_only_inside_the_project_is_r910_naming_the_folder_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repository(tmp_path)
    real = shutil.which("git")
    assert real is not None
    folder = root / "node_modules" / ".bin"
    folder.mkdir(parents=True)
    (folder / "git").write_text(f'#!/bin/sh\nexec "{real}" "$@"\n', encoding="utf-8")
    (folder / "git").chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    code, said = validate(root, monkeypatch, "--staged")
    assert code == 2
    assert [(d["code"], str(folder) in str(d["message"]), "outside the project" in str(d["hint"])) for d in said] == [
        ("R910", True, True)
    ], said


def test_no_git_in_the_paths_absolute_folders_is_r910(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = repository(tmp_path)
    monkeypatch.setenv("PATH", ".")
    code, said = validate(root, monkeypatch, "--staged")
    assert code == 2
    assert [(d["code"], "absolute folders" in str(d["message"])) for d in said] == [("R910", True)]


#: The git commands that open the ignore and attribute files of the work tree (`ls-files` reads
#: `.gitignore` files with `--exclude-standard`, and `.gitattributes` to compare a file's content).
_READS_THE_TREE = ("ls-files", "hash-object")


@pytest.mark.parametrize(
    "special", ["rules/.gitignore", "rules/rulesets/.gitattributes", ".gitignore", ".git/info/exclude"]
)
def test_a_fifo_git_would_read_its_ignore_or_attribute_rules_from_is_refused_before_git_waits_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, special: str
) -> None:
    """A folder unpacked from an archive can hold a FIFO named `.gitignore`: git opens it for its
    ignore rules and waits forever for a writer, so the pre-commit hook (`validate --staged`) hung
    where civrules itself refuses a FIFO (L012) without blocking on it."""
    root = repository(tmp_path)
    (root / "rules" / "rulesets" / "new.yaml").write_text(MANIFEST.format(id="new", base="repo1"), encoding="utf-8")
    (root / special).parent.mkdir(parents=True, exist_ok=True)
    (root / special).unlink(missing_ok=True)
    os.mkfifo(root / special)
    run = subprocess.run

    def not_blocking(command: list[str], *args: object, **kwargs: object) -> object:
        if any(word in command for word in _READS_THE_TREE):
            raise AssertionError(f"git would block opening the FIFO `{special}`: {command}")
        return run(command, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "run", not_blocking)
    with pytest.raises(staged.StagedError) as refused:
        staged.unstaged(root / "rules", staged.is_rule_file)
    assert special.rsplit("/", 1)[-1] in str(refused.value) and "FIFO" in str(refused.value), refused.value
    assert "remove it" in refused.value.hint, refused.value.hint


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_r022s_hints_run_where_the_user_is_when_that_is_not_the_rules_work_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34's CI trial: the rules in a submodule (`data/`) of the repository a user works in,
    and `--rules` given from a folder in no repository. The hint's `git add data/rules/...` was
    refused by git in the superproject ("is in submodule 'data'") and outside any repository ("not
    a git repository"). The commands now name the rules' work tree with `git -C`, and do what they
    say pasted where the user ran civrules; in the work tree itself they stay as they were."""
    module = repository(tmp_path)
    superproject = tmp_path / "game"
    superproject.mkdir()
    git(superproject, "init", "-q")
    git(superproject, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(module), "data")
    git(superproject, "commit", "-qm", "data")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    rules = superproject / "data" / "rules"
    for where, spelt in ((superproject, "data/rules"), (outside, str(rules)), (rules, ".")):
        (rules / "rulesets" / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), encoding="utf-8")
        code, found = validate(where, monkeypatch, "--rules", spelt, "--staged")
        assert code == 1
        (hint,) = [d["hint"] for d in r022s(found).values()]
        command = git_commands(hint)[0]
        done = pasted(command, where)
        assert done.returncode == 0, (where, command, done.stderr)
        assert command.startswith("git add") == (where == rules), command
        code, found = validate(where, monkeypatch, "--rules", spelt, "--staged")
        assert r022s(found) == {}, (where, found)
        git(rules, "rm", "-q", "--cached", "rulesets/repo3.yaml")


def test_a_repository_git_refuses_for_its_owner_is_hinted_as_git_says(tmp_path: Path) -> None:
    """Round 34: a checkout another user owns (a CI container's, a mounted volume) is refused by git
    for "dubious ownership"; R008's hint said to run in a git repository, which it is. It now gives
    the command git's own message names. git's words are its setup.c's (die_upon_dubious_ownership)."""
    refusal = (
        "fatal: detected dubious ownership in repository at '/w/x y'\n"
        "To add an exception for this directory, call:\n\n"
        "\tgit config --global --add safe.directory '/w/x y'\n"
    )
    fake = tmp_path / "git"
    fake.write_text(f"#!/bin/sh\ncat >&2 <<'END'\n{refusal}END\nexit 128\n", encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises(staged.StagedError) as raised:
        staged._git(str(fake), tmp_path, dict(os.environ), "ls-files")
    hint = raised.value.hint
    assert "`git config --global --add safe.directory '/w/x y'`" in hint, hint
    assert "run it in a git repository" not in hint, hint


def partial_index(root: Path, monkeypatch: pytest.MonkeyPatch, name: str, *named: str) -> None:
    """The index ``name`` of a commit of the paths ``named`` (HEAD, and those paths as the work
    tree holds them), in GIT_INDEX_FILE as git gives it to the hooks of `git commit PATHS`."""
    monkeypatch.chdir(root)
    monkeypatch.setenv("GIT_INDEX_FILE", name)
    git(root, "read-tree", "HEAD")
    if named:
        git(root, "add", "-A", "--", *named)


def test_a_partial_commit_tells_a_staged_file_it_was_not_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 34's CI trial: `git commit -- rules/rulesets/repo1.yaml` with repo3.yaml `git add`ed
    makes the commit from an index of HEAD and the path named (`.git/next-index-PID.lock` in
    GIT_INDEX_FILE); R022 called repo3.yaml untracked and said to `git add` it, which was done. A
    file the repository's own index does not hold either is still untracked. Round 35: the files
    not named are read as the commit holds them, and R022 is left for the untracked one."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    (rulesets / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), encoding="utf-8")
    (rulesets / "repo4.yaml").write_text(MANIFEST.format(id="repo4", base="repo1"), encoding="utf-8")
    (rulesets / "repo2.yaml").write_text(MANIFEST.format(id="repo2", base="repo1") + "# staged\n", encoding="utf-8")
    git(root, "add", "rules/rulesets/repo3.yaml", "rules/rulesets/repo2.yaml")
    partial_index(root, monkeypatch, ".git/next-index-4242.lock")  # as git names it for the hooks
    found = [(one.relative, one.state) for one in staged.unstaged(root / "rules")]
    assert found == [
        ("rulesets/repo2.yaml", "not-in-commit"),
        ("rulesets/repo3.yaml", "not-in-commit"),
        ("rulesets/repo4.yaml", "untracked"),
    ]
    code, problems = validate(root, monkeypatch, "--staged")
    assert code == 1
    said = {str(p["file"]).rsplit("/", 1)[-1]: p for p in problems if p["code"] == "R022"}
    assert list(said) == ["repo4.yaml"] and "git add" in str(said["repo4.yaml"]["hint"]), said
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/index")  # the repository's own index: no partial commit
    assert [one.state for one in staged.unstaged(root / "rules")] == ["untracked"]


def test_a_partial_commit_is_judged_by_what_it_holds_not_by_what_else_is_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34 left it: `git commit -- repo1.yaml` with a new variant repo3.yaml staged and not
    named was refused (R022, "name it too"), though the commit, holding no repo3, is sound. What
    is checked is what is committed: a staged file not named is read as its last committed copy,
    or as no file, so the commit passes; and where that copy breaks the commit, it is refused."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    (rulesets / "repo1.yaml").write_text(
        MANIFEST.format(id="repo1", base="advanced-civilization") + "# named\n", "utf-8"
    )
    (rulesets / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), encoding="utf-8")
    git(root, "add", "-A")
    partial_index(root, monkeypatch, ".git/next-index-4242.lock", "rules/rulesets/repo1.yaml")
    code, problems = validate(root, monkeypatch, "--staged")
    assert (code, [p for p in problems if p["severity"] != "info"]) == (0, [])
    # repo2 now extends the shipped ruleset (staged, not named) and repo1 is removed (named): the
    # commit holds repo2's committed copy, which extends repo1, and no repo1.
    monkeypatch.delenv("GIT_INDEX_FILE")
    (rulesets / "repo2.yaml").write_text(MANIFEST.format(id="repo2", base="advanced-civilization"), "utf-8")
    (rulesets / "repo3.yaml").unlink()
    git(root, "rm", "-q", "--cached", "rules/rulesets/repo3.yaml")
    (rulesets / "repo1.yaml").unlink()
    git(root, "add", "-A")
    code, problems = validate(root, monkeypatch, "--staged")
    assert code == 0, problems  # the work tree and git's own index are sound
    partial_index(root, monkeypatch, ".git/next-index-4242.lock", "rules/rulesets/repo1.yaml")
    code, problems = validate(root, monkeypatch, "--staged")
    errors = [(p["code"], str(p["file"]).rsplit("/", 1)[-1]) for p in problems if p["severity"] == "error"]
    assert code == 1 and errors and all(file == "repo2.yaml" and code != "R022" for code, file in errors), problems
    # Its `extends:` line is not the working file's: the message says which copy the line is of.
    assert all("as this commit holds it" in str(p["message"]) for p in problems if p["severity"] == "error")


@pytest.mark.parametrize("index", ["tool-index", "index.tool.7"])
def test_a_commit_from_an_index_of_its_own_is_a_partial_commit_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: str
) -> None:
    """Round 34 knew a partial commit only by git's name `next-index-*`: another tool committing
    from an index of its own (and naming it to the hooks) had its staged files called untracked.
    Any index but the repository's own (and that one's lock, which `git commit -a` and `-i` name)
    is the commit's own."""
    root = repository(tmp_path)
    rulesets = root / "rules" / "rulesets"
    (rulesets / "repo3.yaml").write_text(MANIFEST.format(id="repo3", base="repo1"), encoding="utf-8")
    git(root, "add", "-A")
    (root / ".git" / index).parent.mkdir(parents=True, exist_ok=True)
    partial_index(root, monkeypatch, str(root / ".git" / index))
    assert [(one.relative, one.state) for one in staged.unstaged(root / "rules")] == [
        ("rulesets/repo3.yaml", "not-in-commit")
    ]
    shutil.copy(root / ".git" / "index", root / ".git" / "index.lock")  # `git commit -a`, `-i`: git's own index
    monkeypatch.setenv("GIT_INDEX_FILE", str(root / ".git" / "index.lock"))
    assert staged.unstaged(root / "rules") == []


def test_an_output_file_staged_but_not_in_a_partial_commit_is_compared_as_the_commit_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 35 left it: `build --check --staged` compared generated/ on disk, so in `git commit
    PATHS` each output file staged and not named was an R022 saying to name it, though the commit
    did not need it. Such a file is now compared as the commit holds it: its last committed copy,
    or none (the cheap half of the test below, without a build)."""
    from civrules.cli import _staged_problems
    from civrules.emit.output import stale_files

    root = repository(tmp_path)
    generated = root / "generated"
    (generated / "python").mkdir(parents=True)
    (generated / "python" / "a.py").write_text("A = 1\n", encoding="utf-8")
    git(root, "add", "generated")
    git(root, "commit", "-qm", "built")
    (generated / "python" / "a.py").write_text("A = 2\n", encoding="utf-8")
    (generated / "python" / "b.py").write_text("B = 1\n", encoding="utf-8")
    (root / "notes.txt").write_text("notes\n", encoding="utf-8")
    git(root, "add", "-A")
    partial_index(root, monkeypatch, ".git/next-index-4242.lock", "notes.txt")
    committed: dict[str, bytes | None] = {}
    problems = _staged_problems(
        generated, lambda path: path.relative_to(root).as_posix(), rules=False, committed=committed
    )
    assert problems == [] and committed == {"python/a.py": b"A = 1\n", "python/b.py": None}
    assert [one.relative for one in stale_files(generated, {"python/a.py": b"A = 1\n"}, committed=committed)] == []
    found = list(stale_files(generated, {"python/a.py": b"A = 2\n", "python/b.py": b"B = 1\n"}, committed=committed))
    assert [(one.relative, one.state) for one in found] == [("python/a.py", "differs"), ("python/b.py", "missing")]


def test_the_project_generated_and_the_marker_are_read_as_the_commit_holds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build --check --staged` read the output's marker (the civrules version R009 names) and,
    with `--out DIR`, the project's generated/ that the versions move from, from disk: in a commit
    of some paths, or with changes not staged there, not what the commit holds."""
    from civrules.cli import _committed_copy
    from civrules.emit import output, versions

    root = repository(tmp_path)
    generated = root / "generated"
    at = "python/p/api.json"
    (generated / "python" / "p").mkdir(parents=True)
    (generated / at).write_text('{"version": "1.0.3"}', encoding="utf-8")
    (generated / output.MARKER).write_bytes(output.MARKER_HEAD + output.MARKER_VERSION + b"0.0.9\n")
    git(root, "add", "generated")
    git(root, "commit", "-qm", "built")
    (generated / at).write_text('{"version": "1.0.9"}', encoding="utf-8")  # staged, not in the commit
    (root / "notes.txt").write_text("notes\n", encoding="utf-8")
    git(root, "add", "-A")
    (generated / "python" / "new.json").write_text("{}", encoding="utf-8")  # untracked
    partial_index(root, monkeypatch, ".git/next-index-4244.lock", "notes.txt")
    copy = _committed_copy(generated)
    assert (copy(at), copy("python/new.json")) == (b'{"version": "1.0.3"}', None)
    document, folder = versions.previous_manifest(at, tmp_path / "out", generated, 1 << 20, None, copy)
    assert document == {"version": "1.0.3"} and folder == generated
    assert versions.previous_manifest(at, tmp_path / "out", generated, 1 << 20)[0] == {"version": "1.0.9"}
    marker = copy(output.MARKER)
    assert marker is not None and output.marked_version_in(marker) == ("0.0.9", marker.count(b"\n"))
    assert output.marked_version_in(None) is None and output.marked_version_in(b"not a marker\n") is None


@pytest.mark.slow
def test_build_check_staged_in_a_partial_commit_checks_the_output_the_commit_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new variant and its output are staged; `git commit -- notes.txt` commits neither, and is
    sound: `build --check --staged` passes (it asked to name every staged output file, R022). A
    commit of the variant alone holds the old output: stale (R009), and told to name the output."""
    root = repository(tmp_path)
    monkeypatch.chdir(root)
    built = CliRunner().invoke(main, ["build", "repo1"])
    assert built.exit_code == 0, built.output
    git(root, "add", "-A")
    git(root, "commit", "-qm", "built")
    rulesets = root / "rules" / "rulesets"
    (rulesets / "repo1.yaml").write_text(
        MANIFEST.format(id="repo1", base="advanced-civilization").replace('name: "repo1"', 'name: "Repo One"'),
        encoding="utf-8",
    )
    built = CliRunner().invoke(main, ["build", "repo1"])
    assert built.exit_code == 0, built.output
    (root / "notes.txt").write_text("notes\n", encoding="utf-8")
    git(root, "add", "-A")
    assert CliRunner().invoke(main, ["build", "--check", "--staged", "repo1"]).exit_code == 0
    partial_index(root, monkeypatch, ".git/next-index-4242.lock", "notes.txt")
    checked = CliRunner().invoke(main, ["build", "--check", "--staged", "repo1"])
    assert checked.exit_code == 0, checked.output
    assert "are compared as the commit holds them" in checked.stderr
    partial_index(root, monkeypatch, ".git/next-index-4243.lock", "rules/rulesets/repo1.yaml")
    checked = CliRunner().invoke(main, ["build", "--check", "--staged", "repo1"])
    assert checked.exit_code == 1 and "R022" not in checked.output, checked.output
    assert "error[R009]" in checked.output and "name the output folder in the `git commit`" in checked.output
    assert "else write it again: `civrules build repo1`" in checked.output
    # The commit holds a marker an older civrules wrote; this one's is staged, not in the commit:
    # R009 names the version of the marker compared (it named the one on disk, this civrules').
    monkeypatch.delenv("GIT_INDEX_FILE")
    marker = root / "generated" / output.MARKER
    marker.write_bytes(marker.read_bytes().replace(f"civrules: {__version__}".encode(), b"civrules: 0.0.9"))
    git(root, "commit", "-qam", "an older civrules built it")
    assert CliRunner().invoke(main, ["build", "repo1"]).exit_code == 0
    git(root, "add", "-A")
    partial_index(root, monkeypatch, ".git/next-index-4245.lock", "notes.txt")
    checked = CliRunner().invoke(main, ["build", "--check", "--staged", "repo1"])
    assert f"`generated` was written by civrules 0.0.9, not by this civrules {__version__}" in checked.output


def test_the_build_a_stale_staged_check_names_is_one_civrules_runs() -> None:
    """R009's hint after `build --check --staged` said to run `civrules build --staged`, which is
    refused (--staged goes with --check): the build to run leaves both out."""
    from civrules.cli import _build_command
    from civrules.support.commands import invoked

    with invoked(["build", "--check", "--staged", "repo1"]):
        assert _build_command() == "civrules build repo1"


def test_a_line_of_a_file_read_as_committed_is_placed_in_the_working_file_or_said_to_be_the_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 35 left it: a file staged but not in a partial commit is read as the commit holds it,
    and its diagnostics gave that copy's line numbers, which the editor does not show. A line the
    working file holds unchanged is now moved to where it is there; one it changed keeps the
    commit's number, the message says so, and the line quoted is the commit's."""
    from civrules.cli import _placed_in_working_files
    from civrules.diagnostics import Diagnostic, Related, Severity, Span
    from civrules.load.workspace import Workspace

    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    committed = "kind: ruleset\nid: a\nname: A\nextends: gone\n"
    (tmp_path / "rules" / "rulesets" / "a.yaml").write_text("# one\n# two\n" + committed, encoding="utf-8")
    (tmp_path / "rules" / "rulesets" / "b.yaml").write_text(committed.replace("gone", "kept"), encoding="utf-8")
    workspace = Workspace(Path("rules"))
    workspace.overrides.update({"rulesets/a.yaml": committed, "rulesets/b.yaml": committed})
    shifted = Diagnostic(
        "V001",
        Severity.ERROR,
        "extends: gone",
        Span("rules/rulesets/a.yaml", 4, 10, 4, 14),
        related=(Related(Span("rules/rulesets/a.yaml", 2, 1, 2, 3), "its id"),),
    )
    changed = Diagnostic("V001", Severity.ERROR, "extends: gone", Span("rules/rulesets/b.yaml", 4, 10, 4, 14))
    elsewhere = Diagnostic("S002", Severity.ERROR, "unknown key", Span("rules/rulesets/c.yaml", 4, 1, 4, 2))
    placed, texts = _placed_in_working_files(workspace, [shifted, changed, elsewhere])
    assert placed[0].span == Span("rules/rulesets/a.yaml", 6, 10, 6, 14) and placed[0].message == "extends: gone"
    assert placed[0].related[0].span.line == 4
    assert placed[1].span == changed.span and "as this commit holds it" in placed[1].message
    assert placed[2] == elsewhere
    assert texts == {"rules/rulesets/b.yaml": committed}


def test_rules_in_a_repository_inside_the_hooks_are_compared_with_their_own_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 36's CI trial: a superproject's hook checking the rules of a submodule (`--rules
    data/rules`) gave them the superproject's index (GIT_INDEX_FILE), taken for a partial commit
    of theirs: every rule file was read as absent (R004, no ruleset manifests). The hook's
    variables are of its repository; the rules are compared with the index of their own."""
    inner = repository(tmp_path)  # the submodule's checkout, inside the superproject's work tree
    outer = tmp_path
    git(outer, "init", "-q")
    (outer / "readme.txt").write_text("x\n", encoding="utf-8")
    git(outer, "add", "readme.txt")
    monkeypatch.chdir(outer)
    monkeypatch.setenv("GIT_INDEX_FILE", ".git/index")  # as git gives it to the superproject's hook
    assert staged.unstaged(inner / "rules") == []
    (inner / "rules" / "rulesets" / "repo2.yaml").write_text("kind: ruleset\n", encoding="utf-8")
    assert [(one.relative, one.state) for one in staged.unstaged(inner / "rules")] == [
        ("rulesets/repo2.yaml", "changed")
    ]
    # GIT_DIR exported alone, civrules run outside its work tree: git took the working directory
    # for the work tree, did not look into the repository there, and found nothing unstaged.
    monkeypatch.delenv("GIT_INDEX_FILE")
    monkeypatch.setenv("GIT_DIR", str(inner / ".git"))
    assert [one.state for one in staged.unstaged(inner / "rules")] == ["changed"]
