"""Threat: civrules reading or writing where it must not, on the user's file system.

civrules replaces only trees it wrote (the marker), never the working directory, the rules or their
ancestors; it writes atomically (the previous tree stays when the file system fails: full,
read-only, a file-size limit); it follows no symbolic link and waits on no FIFO or device, in rules/,
in output trees, for the stamp, the editor (the language server) or the watcher; it reads nothing
outside rules/; when the file system fails under it, it exits 2 with the cause; and what it writes
does not depend on the order the file system lists files in.

From issue 14 (1, 3, 7) and the attacker's re-trial. The adversarial corpus
(tests/adversarial/cases.yaml, run by test_resource_limits.py) shows each class end to end in a
subprocess; these tests hold the mechanisms in place, in-process and fast.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.cli.watcher import snapshot
from civrules.diagnostics import Span
from civrules.emit import output, stamp
from civrules.emit.output import MARKER, MARKER_TEXT, OutputError, check_replaceable, read_tree, write_tree
from civrules.load.workspace import Workspace
from civrules.pipeline.incremental import Session
from civrules.support import files
from tests.budget import heavy
from tests.conftest import RULES
from tests.core.test_incremental import copy_subset
from tests.core.test_lsp import Client
from tests.security.helpers import make, start_civrules, tree_of

SECRET = "CIVRULES-REDTEAM-SECRET S001"
#: Generous: each step takes well under a second; this only keeps a broken civrules from hanging.
HANG_GUARD = 20.0
RULESET = "advanced-civilization"


# --- 1. Output folders: one mechanism decides what civrules may replace -------------------------


def test_every_tree_civrules_writes_carries_the_marker_and_can_be_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"one"})
    assert (out / MARKER).read_bytes() == MARKER_TEXT
    (out / "stray.txt").write_text("a file civrules did not write", encoding="utf-8")
    write_tree(out, {"a.txt": b"two"})  # marked: replaced whole
    assert tree_of(out) == {MARKER: MARKER_TEXT, "a.txt": b"two"}


@pytest.mark.parametrize("name", ["photo.jpg", "python/notes.txt"])
def test_a_folder_civrules_did_not_write_is_refused_and_untouched(tmp_path: Path, name: str) -> None:
    out = tmp_path / "Desktop"
    make(out, {name: b"mine"})
    with pytest.raises(OutputError, match="did not write"):
        write_tree(out, {"index.html": b"<html>"})
    assert tree_of(out) == {name: b"mine"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Desktop"]  # no staging tree either


@pytest.mark.parametrize(
    ("make_marker", "said"),
    [
        (lambda marker: marker.mkdir(), "is a folder"),
        (lambda marker: os.mkfifo(marker), "not a regular file"),
        (lambda marker: marker.symlink_to("/dev/zero"), "a symbolic link"),
        (lambda marker: marker.write_bytes(b"civrules\nkind: build\n"), "not one civrules wrote"),
    ],
)
def test_a_marker_civrules_cannot_take_is_named_as_found_not_as_missing(
    tmp_path: Path, make_marker: Callable[[Path], object], said: str
) -> None:
    """The refusal said "no `.civrules-output` in it" of a folder holding one, which was a folder, a
    FIFO, a link or a file civrules did not write (round 21's attacker): it names what is there."""
    out = tmp_path / "out"
    make(out, {"mine.txt": b"mine"})
    make_marker(out / MARKER)
    with pytest.raises(OutputError) as raised:
        write_tree(out, {"index.html": b"<html>"})
    assert said in str(raised.value) and "no `" not in str(raised.value), str(raised.value)
    assert (out / "mine.txt").read_bytes() == b"mine"


@pytest.mark.parametrize("kind", ["build", "schemas", "sheets", "helpers"])
def test_a_tree_is_replaced_only_by_a_tree_of_its_own_kind(tmp_path: Path, kind: str) -> None:
    """The marker said only "civrules wrote this": `civrules sheets X --out schemas` replaced the
    schemas `init` wrote, and `schemas --out generated` the built packages."""
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"one"}, kind=kind)
    assert output.marked_kind(out) == kind
    write_tree(out, {"a.txt": b"two"}, kind=kind)  # its own kind: replaced whole
    for other in sorted(set(output.KINDS) - {kind}):
        with pytest.raises(OutputError, match=f"holds the output of civrules' `{kind}` command") as refused:
            write_tree(out, {"b.txt": b"x"}, kind=other)
        assert refused.value.hint is not None and "another --out folder" in refused.value.hint
        with pytest.raises(OutputError, match=f"not of `{other}`"):
            write_tree(out, output.StagedTree(out, other))
    assert tree_of(out) == {MARKER: output.marker_text(kind), "a.txt": b"two"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging tree left either


def test_a_marker_that_names_no_kind_is_taken_by_any_command_and_then_names_one(tmp_path: Path) -> None:
    """A tree marked by a civrules before round 20 (the marker's first two lines alone) is still
    civrules' own: every command takes it, as before, and writes its kind into it."""
    out = tmp_path / "out"
    make(out, {MARKER: output.MARKER_HEAD, "a.txt": b"old"})
    assert output.marked_kind(out) == ""
    write_tree(out, {"b.txt": b"new"}, kind="schemas")
    assert tree_of(out) == {MARKER: output.marker_text("schemas"), "b.txt": b"new"}
    with pytest.raises(OutputError, match="holds the output of civrules' `schemas` command"):
        write_tree(out, {"c.txt": b"x"}, kind="build")


def test_a_marker_naming_an_unknown_kind_is_refused_and_shown_safely(tmp_path: Path) -> None:
    out = tmp_path / "out"
    make(out, {MARKER: output.MARKER_HEAD + b"kind: \x1b[31mevil\n", "a.txt": b"old"})
    with pytest.raises(OutputError, match=r"holds the output of civrules' `\?` command"):
        write_tree(out, {"b.txt": b"new"}, kind="build")
    assert tree_of(out)["a.txt"] == b"old"


def test_an_empty_folder_is_taken(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    write_tree(out, {"a.txt": b"x"})
    assert tree_of(out) == {MARKER: MARKER_TEXT, "a.txt": b"x"}


def every_file(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root``, ``__pycache__`` included (:func:`tree_of` skips it)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "content",
    [
        {"python/civrules_runtime/mynotes.txt": b"notes\n", "sheets/advanced-civilization/cards.html": b"mine\n"},
        {"python/myproj/main.py": b"print('mine')\n", "sheets/taxes/2024.csv": b"1,2\n"},
        {
            "python/x/__init__.py": b'"""generated by civrules"""',
            "python/x/__pycache__/data.cpython-311.pyc": b"\0",
            "sheets/x/index.html": b"<html>",
        },
    ],
    ids=["civrules-names", "a-project-and-taxes", "as-civrules-wrote-it-unmarked"],
)
def test_a_folder_shaped_like_a_civrules_tree_without_the_marker_is_refused(
    tmp_path: Path, content: dict[str, bytes]
) -> None:
    """Any `python/X/Y` or `sheets/X/Y` file was taken for one civrules wrote before it marked its
    trees: the user's files were deleted, overwritten or carried into civrules' tree. Ownership is
    the marker, never the shape of the paths (a tree from before the marker is refused too)."""
    out = tmp_path / "generated"
    make(out, content)
    for planned in ({"python/x/__init__.py": b'"""generated by civrules"""'}, {"sheets/x/index.html": b"<html>"}):
        with pytest.raises(OutputError, match="did not write") as raised:
            write_tree(out, planned)
        assert raised.value.hint is not None and "move this one aside" in raised.value.hint
        with pytest.raises(OutputError, match="did not write"):
            check_replaceable(out)
    assert every_file(out) == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]  # no staging tree either


@heavy
def test_build_into_a_folder_of_the_user_s_is_refused_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attacker's trial: `build RULESET --out ud2`, and a hand-written `generated/` by default,
    exited 0 ("wrote 38 files"), a note deleted and a sheet overwritten."""
    monkeypatch.chdir(tmp_path)
    mine = {"python/civrules_runtime/mynotes.txt": b"notes\n", "sheets/advanced-civilization/cards.html": b"mine\n"}
    make(tmp_path / "ud2", mine)
    handwritten = {"python/civrules_runtime/__init__.py": b"# my own runtime\n"}
    make(tmp_path / "generated", handwritten)
    for arguments in (["build", RULESET, "--out", "ud2"], ["build"], ["build", "--check", "--out", "ud2"]):
        result = CliRunner().invoke(main, ["--rules", str(RULES), "--no-shipped", *arguments])
        if "--check" in arguments:  # read, never written: not a refusal, a stale tree
            assert result.exit_code == 1, result.output
            continue
        assert result.exit_code == 2, result.output
        assert "holds files civrules did not write" in result.output
        assert "error[R007]" in result.output and "hint: civrules replaces only a folder it made" in result.output
    assert every_file(tmp_path / "ud2") == mine
    assert every_file(tmp_path / "generated") == handwritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated", "ud2"]


@pytest.mark.parametrize("where", [".", "..", "rules", "rules/maps", "/"])
def test_the_working_directory_the_rules_and_their_ancestors_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    rules = tmp_path / "rules"
    (rules / "maps").mkdir(parents=True)
    (rules / "maps" / "m.yaml").write_text("kind: map\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutputError, match="refusing"):
        write_tree(Path(where), {"a.txt": b"x"}, protected=(Path("rules"),))
    assert (rules / "maps" / "m.yaml").read_text(encoding="utf-8") == "kind: map\n"


def test_links_fifos_files_and_devices_are_refused_as_output(tmp_path: Path) -> None:
    marked = tmp_path / "marked"
    write_tree(marked, {"a.txt": b"x"})
    (tmp_path / "link").symlink_to(marked)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for name, why in [("link", "symbolic link"), ("dangling", "symbolic link"), ("fifo", "not a folder")]:
        with pytest.raises(OutputError, match=why):
            write_tree(tmp_path / name, {"a.txt": b"y"})
    with pytest.raises(OutputError, match="not a folder"):
        write_tree(tmp_path / "file", {"a.txt": b"y"})
    with pytest.raises(OutputError, match="not a folder"):
        write_tree(Path("/dev/null"), {"a.txt": b"y"})
    assert not (tmp_path / "nowhere").exists()
    assert tree_of(marked) == {MARKER: MARKER_TEXT, "a.txt": b"x"}


@pytest.mark.parametrize(
    ("link", "arguments", "named"),
    [
        ("dist", ["sheets", RULESET], "`dist`"),
        ("dist", ["helpers", RULESET], "`dist`"),
        ("dist/sheets", ["sheets", RULESET], "`dist/sheets`"),
        ("gen-link", ["build", RULESET, "--out", "gen-link/sub"], "`gen-link`"),
        ("gen-link", ["build", "--check", "--out", "gen-link/sub"], "`gen-link`"),
        pytest.param("generated", ["build", "--check"], "it is a symbolic link", marks=heavy),
    ],
)
def test_a_link_on_the_way_to_an_output_inside_the_project_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str, arguments: list[str], named: str
) -> None:
    """Only the last component was judged: `dist -> /tmp/somewhere` made `sheets` and `helpers`
    write `/tmp/somewhere/sheets/` outside the project, exit 0 (and `build --check` read there)."""
    project, elsewhere = tmp_path / "project", tmp_path / "somewhere"
    project.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(project)
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(elsewhere)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "--no-shipped", *arguments])
    if link == "generated":  # --check of a linked generated/: read as one foreign entry, never through
        assert result.exit_code == 1 and "a symbolic link" in result.output, result.output
    else:
        assert result.exit_code == 2, result.output
        assert f"{named} is a symbolic link inside the project; civrules does not follow links" in result.output
        assert "error[R007]" in result.output
        assert "hint: civrules writes only into real folders of the project" in result.output
    assert list(elsewhere.iterdir()) == []


def test_links_above_the_project_are_followed_and_a_link_into_it_is_judged_below(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the line is drawn: folders above the working directory are the user's (`/tmp ->
    /private/tmp` on macOS); once a path is inside the project, no link is followed."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(project)
    (tmp_path / "alias").symlink_to(elsewhere)
    write_tree(tmp_path / "alias" / "out", {"a.txt": b"x"})  # an --out the user gave, outside
    assert tree_of(elsewhere / "out") == {MARKER: MARKER_TEXT, "a.txt": b"x"}
    (tmp_path / "here").symlink_to(project)  # leads into the project...
    (project / "dist").symlink_to(elsewhere)  # ...where a link is refused
    with pytest.raises(OutputError, match=r"`.*dist` is a symbolic link inside the project"):
        write_tree(tmp_path / "here" / "dist" / "x", {"a.txt": b"y"})
    rules = tmp_path / "other" / "rules"  # the folder holding the rules is the project too
    rules.mkdir(parents=True)
    (tmp_path / "other" / "dist").symlink_to(elsewhere)
    with pytest.raises(OutputError, match="symbolic link inside the project"):
        write_tree(tmp_path / "other" / "dist" / "x", {"a.txt": b"y"}, protected=(rules,))
    assert sorted(p.name for p in elsewhere.iterdir()) == ["out"]


def test_a_dot_dot_after_a_link_is_the_links_parent_never_the_folder_it_seems_to_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--out L/../out` with `L -> rules/maps`: the system reads `L/..` as `rules/`, where the path
    was made absolute by its letters (`./out`). The link went unjudged (`L/out` is refused) and the
    tree was written where no other program finds it. Inside the project it is refused as the
    link it goes through; above it, `..` is taken where the system takes it."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / "rules" / "maps").mkdir(parents=True)
    (elsewhere / "deep").mkdir(parents=True)
    monkeypatch.chdir(project)
    Path("L").symlink_to("rules/maps")
    for out in ("L/../out", "L/../../project/out", str(project / "L" / ".." / "out")):
        with pytest.raises(OutputError, match="`L` is a symbolic link inside the project"):
            write_tree(Path(out), {"a.txt": b"x"})
    assert sorted(p.name for p in project.iterdir()) == ["L", "rules"]
    assert sorted(p.name for p in (project / "rules").iterdir()) == ["maps"]
    (tmp_path / "alias").symlink_to(elsewhere / "deep")  # above the project: the user's own layout
    write_tree(tmp_path / "alias" / ".." / "out", {"a.txt": b"x"})
    assert tree_of(elsewhere / "out") == {MARKER: MARKER_TEXT, "a.txt": b"x"}
    assert not (tmp_path / "out").exists()


def test_folders_are_made_without_following_a_link_swapped_in(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(files.RefusedError, match="`a/b` is a symbolic link"):
        files.make_folders(tmp_path, "a/b/c")
    files.make_folders(tmp_path, "a/d/e")
    assert (tmp_path / "a" / "d" / "e").is_dir()
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_committed_folder_named_like_a_staging_tree_is_not_deleted(tmp_path: Path) -> None:
    lookalike = tmp_path / ".out.new-4194303-x"
    make(lookalike, {"keep.txt": b"work"})
    abandoned = tmp_path / ".out.new-4194302-y"
    write_tree(abandoned, {})  # a marked tree, as a killed build leaves it
    abandoned.rename(tmp_path / ".out.new-4194302-y")
    write_tree(tmp_path / "out", {"a.txt": b"x"})
    assert (lookalike / "keep.txt").read_bytes() == b"work"
    assert not abandoned.exists()


# --- Modes: a tree takes the mode (and group) of the folder it replaces, else the umask's ----------


def _mode(path: Path) -> int:
    return path.lstat().st_mode & 0o7777


def _with_umask(mask: int, write: Any) -> None:
    before = os.umask(mask)
    try:
        write()
    finally:
        os.umask(before)


def _staged(root: Path, tree: dict[str, bytes]) -> None:
    staged = output.StagedTree(root)
    for relative, data in tree.items():
        staged[relative] = data
    write_tree(root, staged)


@pytest.mark.parametrize("writer", [write_tree, _staged], ids=["in memory", "staged"])
def test_a_new_tree_takes_the_umasks_mode_throughout(tmp_path: Path, writer: Any) -> None:
    """Every tree was made 0755 at its root whatever the umask: under `umask 077` a world-readable
    root over files of 0600 and folders of 0700."""
    for mask, folder, file in ((0o077, 0o700, 0o600), (0o022, 0o755, 0o644), (0o002, 0o775, 0o664)):
        out = tmp_path / f"out-{mask:03o}"
        _with_umask(mask, lambda out=out: writer(out, {"python/a/b.py": b"x", "c.txt": b"y"}))
        assert [_mode(out), _mode(out / "python"), _mode(out / "python" / "a")] == [folder] * 3, oct(mask)
        assert [_mode(out / "c.txt"), _mode(out / "python" / "a" / "b.py"), _mode(out / MARKER)] == [file] * 3


@pytest.mark.parametrize("writer", [write_tree, _staged], ids=["in memory", "staged"])
def test_a_tree_keeps_the_mode_of_the_folder_it_replaces(tmp_path: Path, writer: Any) -> None:
    """A private (0700) output folder became 0755 at the next build, readable by every user."""
    out = tmp_path / "private"
    out.mkdir(mode=0o700)
    out.chmod(0o700)
    _with_umask(0o022, lambda: writer(out, {"a.txt": b"one"}))
    assert _mode(out) == 0o700
    out.chmod(0o750)
    _with_umask(0o022, lambda: writer(out, {"a.txt": b"two"}))
    assert _mode(out) == 0o750 and (out / "a.txt").read_bytes() == b"two"


def _another_group() -> int | None:
    """A group this process may give a folder it owns other than its own, if there is one."""
    if os.geteuid() == 0:
        return next(gid for gid in (65534, 1, 2) if gid != os.getegid())
    return next((gid for gid in os.getgroups() if gid != os.getegid()), None)


def test_a_group_shared_folder_keeps_its_group_and_setgid_bit_and_its_files_take_the_group(tmp_path: Path) -> None:
    """A folder shared with a group (`chmod 2770`, `chgrp`) became 0755 of the user's own group."""
    group = _another_group()
    if group is None:
        pytest.skip("this user belongs to no other group to share a folder with")
    out = tmp_path / "shared"
    out.mkdir()
    os.chown(out, -1, group)
    out.chmod(0o2770)
    _with_umask(0o002, lambda: write_tree(out, {"sheets/a.html": b"one"}))
    assert (_mode(out), out.stat().st_gid) == (0o2770, group)
    assert {path.stat().st_gid for path in out.rglob("*")} == {group}
    assert _mode(out / "sheets") & 0o2000  # a folder made in it shares the group as the shared folder's own do


@pytest.mark.parametrize("value", ["inf", "1e300", "100000", "0.5"])
def test_no_environment_variable_slows_or_breaks_the_writing_of_a_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """The test suite's pause after each file written was read from CIVRULES_TEST_WRITE_DELAY in
    every run: `inf` was an internal error (R900), `100000` a build that hung. It is set in the
    process the suite starts (tests/security/slow_writes.py), never read from the environment."""
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    monkeypatch.setenv("CIVRULES_TEST_WRITE_DELAY", value)
    write_tree(tmp_path / "memory", {"a.txt": b"a", "b/c.txt": b"c"})
    _staged(tmp_path / "staged", {"a.txt": b"a", "b/c.txt": b"c"})
    assert slept == []
    assert (
        tree_of(tmp_path / "staged")
        == tree_of(tmp_path / "memory")
        == {MARKER: MARKER_TEXT, "a.txt": b"a", "b/c.txt": b"c"}
    )


# --- 7. Failures of the file system: exit 2, a plain cause, the previous tree in place ---------


@pytest.mark.parametrize(
    ("number", "said"),
    [
        (errno.ENOSPC, "no space"),
        (errno.EROFS, "read-only"),
        (errno.EFBIG, "file-size limit"),
        (errno.EACCES, "permission"),
    ],
)
def test_a_failing_file_system_leaves_the_previous_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int, said: str
) -> None:
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"old", "b.txt": b"old"})
    before = tree_of(out)
    real_open = open
    written: list[str] = []

    def failing_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "x" in mode and written:
            raise OSError(number, os.strerror(number), str(path))
        written.append(str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(OutputError, match=said) as raised:
        write_tree(out, {"a.txt": b"new", "b.txt": b"new"})
    assert "nothing was changed" in str(raised.value)
    monkeypatch.undo()
    assert tree_of(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_old_tree_that_cannot_be_removed_is_detected_before_the_swap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only generated/ left the new tree installed and the old one beside it."""
    out = tmp_path / "out"
    write_tree(out, {"python/a.txt": b"old"})
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if Path(p) == out / "python" else real_access(p, m))
    with pytest.raises(OutputError, match="permission denied"):
        write_tree(out, {"python/a.txt": b"new"})
    monkeypatch.undo()
    assert tree_of(out) == {MARKER: MARKER_TEXT, "python/a.txt": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 swaps back only on Linux")
def test_when_the_old_tree_cannot_be_removed_after_the_swap_it_is_swapped_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"old"})
    real_rmtree = shutil.rmtree

    def stuck(path: Any, ignore_errors: bool = False, onerror: Any = None) -> None:
        if onerror is None:
            real_rmtree(path, ignore_errors=ignore_errors)
            return
        onerror(os.rmdir, str(path), (OSError, OSError(errno.EACCES, "Permission denied"), None))

    monkeypatch.setattr(shutil, "rmtree", stuck)
    with pytest.raises(OutputError, match="permission denied"):
        write_tree(out, {"a.txt": b"new"})
    monkeypatch.undo()
    assert tree_of(out) == {MARKER: MARKER_TEXT, "a.txt": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@heavy
def test_the_cli_says_what_failed_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.emit import build as builder

    def full(*_: Any, **__: Any) -> None:
        raise OutputError("cannot write `x`: no space is left on the device; nothing was changed")

    monkeypatch.setattr(builder, "build", full)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", "")
    # One ruleset: what is said of a failed write does not depend on how many were analysed first.
    result = CliRunner().invoke(main, ["--rules", str(RULES), "build", RULESET, "--out", str(tmp_path / "g")])
    assert result.exit_code == 2
    assert "no space is left on the device" in result.output
    assert "bug in civrules" not in result.output


def test_an_os_error_anywhere_is_exit_2_with_its_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.load import workspace

    def broken(self: Workspace) -> Any:
        raise OSError(errno.EIO, "Input/output error", "rules/x.yaml")

    monkeypatch.setattr(workspace.Workspace, "manifests", broken)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "list"])
    assert result.exit_code == 2
    assert "input/output error" in result.output and "bug in civrules" not in result.output
    # A diagnostic with a code, located at the file the system refused, and a hint (on standard
    # error: `list` makes data).
    assert result.stderr.startswith(
        "rules/x.yaml:1:1: error[R018]: cannot access `rules/x.yaml`: an input/output error"
    )
    # The device failed, not a permission: "make it readable" had nothing to fix (round 30).
    assert "\n  hint: the device could not be read" in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("out", "code", "cause", "hint"),
    [
        # Built whole before the write refuses the path: 0.7-1.8 s, in `make test-slow`.
        pytest.param("a" * 300, "R007", "a file name is too long", "name a shorter path", marks=pytest.mark.slow),
        ("a" * 300 + "/x", "R018", "a file name is too long", "name a shorter path"),
        pytest.param(
            "file/x",
            "R007",
            "/file` is not a folder but a file",
            "move what is at `",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_an_out_path_the_system_refuses_for_its_shape_is_hinted_to_by_its_shape(
    tmp_path: Path, out: str, code: str, cause: str, hint: str
) -> None:
    """Round 30's attacker: a path too long, or running through a file, was hinted "make it
    readable (and its folders searchable)" or "check that the folder can be written (its
    permissions, the free space)", which finds nothing to fix; a name too long was "not a folder
    (a file, a FIFO or a device)", though nothing was there."""
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(RULES), "build", RULESET, "--out", str(tmp_path / out)])
    assert result.exit_code == 2
    said = result.output.replace("a" * 300, "A")
    assert f"error[{code}]: " in said and cause in said, said
    assert f"\n  hint: {hint}" in said and "permissions" not in said and "readable" not in said, said
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file"]  # nothing left beside it


@pytest.mark.parametrize("command", ["build", "init", "schemas"])
def test_an_out_path_through_a_fifo_names_the_fifo(tmp_path: Path, command: str) -> None:
    """A FIFO on the way to `--out` (or `init`'s folder): "a part of the path is not a folder"
    left the user to find which part (round 33's leftover, seen through `new-variant`); the
    message names it and what it is, and nothing is written (round 34)."""
    os.mkfifo(tmp_path / "pipe")
    out = tmp_path / "pipe" / "a" / "b"
    args = {"build": ["build", RULESET, "--out", out], "init": ["init", out], "schemas": ["schemas", "--out", out]}
    rules = [] if command == "init" else ["--rules", str(RULES)]
    result = CliRunner().invoke(main, [*rules, *map(str, args[command])])
    said = result.output
    assert result.exit_code == 2 and "error[R007]" in said, said
    assert f"`{tmp_path / 'pipe'}` is not a folder but a FIFO (a named pipe)" in said, said
    assert "a part of the path" not in said and "Traceback" not in said
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pipe"]


# --- 3. Links are never followed; one reader for rules/, output trees and the stamp -----------


def test_the_reader_refuses_links_specials_folders_and_oversize(tmp_path: Path) -> None:
    root = tmp_path / "root"
    make(root, {"sub/a.yaml": b"kind: map\n", "big.yaml": b"x" * 100})
    (tmp_path / "secret").write_text("SECRET", encoding="utf-8")
    (root / "link.yaml").symlink_to(tmp_path / "secret")
    (root / "inner.yaml").symlink_to("sub/a.yaml")
    (root / "via").symlink_to("sub")
    (root / "loop.yaml").symlink_to("loop.yaml")
    os.mkfifo(root / "fifo.yaml")
    assert files.read_under(root, "sub/a.yaml", 50) == b"kind: map\n"
    for relative, kind in [
        ("link.yaml", "link"),
        ("inner.yaml", "link"),
        ("via/a.yaml", "link"),
        ("loop.yaml", "link"),
        ("fifo.yaml", "special"),
        ("sub", "special"),
        ("big.yaml", "large"),
        ("absent.yaml", "missing"),
    ]:
        with pytest.raises(files.RefusedError) as refused:
            files.read_under(root, relative, 50)
        assert refused.value.kind == kind, relative
    kinds = {e.relative: e.kind for e in files.walk(root)}
    assert kinds["via"] == "link" and "via/a.yaml" not in kinds and kinds["fifo.yaml"] == "special"


def test_a_socket_in_place_of_a_rule_file_is_said_to_be_no_regular_file(tmp_path: Path) -> None:
    """Opening a socket fails (ENXIO) before it can be asked what it is: a manifest that was a
    socket was "cannot read: no such device or address", "check the file and its permissions",
    where a FIFO in its place is said to be no regular file."""
    rules = tmp_path / "r"
    make(rules, {"rulesets/.keep": b""})
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(rules / "rulesets" / "sock.yaml"))
        with pytest.raises(files.RefusedError) as refused:
            files.read_under(rules, "rulesets/sock.yaml", 50)
        assert refused.value.kind == "special" and "not a regular file" in str(refused.value), refused.value
        with pytest.raises(files.RefusedError) as refused:
            files.read_file(rules / "rulesets" / "sock.yaml", 50)
        assert refused.value.kind == "special", refused.value
        loaded = Workspace(rules, shipped=False).load("rulesets/sock.yaml")
    (said,) = loaded.diagnostics
    assert said.code == "L012" and "not a regular file" in said.message and "permissions" not in (said.hint or "")


def test_check_names_links_and_fifos_in_generated_and_reads_neither(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    write_tree(out, {"python/a.py": b"A = 1\n"})
    (tmp_path / "secret").write_text("SECRET-VALUE\n", encoding="utf-8")
    (out / "python" / "env.py").symlink_to(tmp_path / "secret")
    os.mkfifo(out / "python" / "wait.py")
    stale = output.stale_files(out, {MARKER: MARKER_TEXT, "python/a.py": b"A = 1\n"})
    text = "\n".join(line for one in stale for line in one.lines())
    assert "generated/python/env.py: a symbolic link" in text
    assert "generated/python/wait.py: not a regular file" in text
    assert "SECRET" not in text


def test_check_diffs_a_committed_file_only_where_its_changed_lines_are_few_enough(tmp_path: Path) -> None:
    """A committed generated file is anyone's to write: with a line inserted before each of its
    lines, difflib compared every pair (16,000 lines: 121 s). A file whose differing lines, between
    its common first and last ones, number more than 2,000 by 2,000 is said to differ, with the
    counts; one changed line of a long file is still a diff."""
    generated = b"".join(f"LINE_{i} = {i}\n".encode() for i in range(2_500))
    out = tmp_path / "generated"
    interleaved = b"".join(f"JUNK_{i} = 0\n".encode() + line for i, line in enumerate(generated.splitlines(True)))
    write_tree(out, {"python/a.py": interleaved, "python/b.py": generated.replace(b"LINE_7 = 7\n", b"LINE_7 = 8\n")})
    stale = output.stale_files(out, {MARKER: MARKER_TEXT, "python/a.py": generated, "python/b.py": generated})
    diffs = ["\n".join(one.lines()) + "\n" for one in stale]
    assert diffs[0] == (
        "generated/python/a.py: differs in 4,999 lines on disk and 2,499 generated, too many to compare line "
        "by line (run `civrules build` to write it)\n"
    )
    assert "-LINE_7 = 8\n+LINE_7 = 7\n" in diffs[1] and diffs[1].startswith("--- a/generated/python/b.py")
    assert output.MOST_COMPARED < 5_000 * 2_500


def test_a_partial_build_carries_no_link_and_no_special_file(tmp_path: Path) -> None:
    from civrules.emit.build import BuildResult, build

    out = tmp_path / "generated"
    write_tree(out, {"python/other/a.py": b"A = 1\n"})
    (tmp_path / "secret").write_text("SECRET-VALUE\n", encoding="utf-8")
    (out / "python" / "other" / "b.py").symlink_to(tmp_path / "secret")
    os.mkfifo(out / "python" / "other" / "c.py")
    dropped = build(out, BuildResult(tree={"python/x/a.py": b"X\n"}), ["x"], everything=False, protected=()).dropped
    assert set(dropped) == {"python/other/b.py", "python/other/c.py"}
    assert tree_of(out) == {MARKER: MARKER_TEXT, "python/other/a.py": b"A = 1\n", "python/x/a.py": b"X\n"}
    assert not any(p.is_symlink() for p in out.rglob("*"))


def test_a_partial_build_reads_only_the_files_it_carries_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`civrules build RULESET` read the whole old tree to carry the other rulesets' files over,
    the files it replaces too (a ruleset's own package, sheets and helper page: read for nothing)."""
    from civrules.emit.build import BuildResult, build
    from civrules.emit.packaging import package_folder
    from civrules.support import files

    out, x = tmp_path / "generated", f"python/{package_folder('x')}"
    write_tree(out, {"python/other/a.py": b"A = 1\n", f"{x}/a.py": b"X = 0\n", f"{x}/b.py": b"B\n"})
    read: list[str] = []
    read_under = files.read_under

    def counted(root: Path, relative: str, max_bytes: int) -> bytes:
        read.append(relative)
        return read_under(root, relative, max_bytes)

    monkeypatch.setattr(files, "read_under", counted)
    dropped = build(out, BuildResult(tree={f"{x}/a.py": b"X = 1\n"}), ["x"], everything=False, protected=()).dropped
    # None of x's files, which the build replaces (the marker is read to judge the folder).
    assert [relative for relative in read if relative != MARKER] == ["python/other/a.py"]
    assert dropped == {}
    assert tree_of(out) == {MARKER: MARKER_TEXT, "python/other/a.py": b"A = 1\n", f"{x}/a.py": b"X = 1\n"}


def test_the_stamp_hashes_links_not_their_targets_and_vouches_for_nothing_odd(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    make(rules, {"a.yaml": b"kind: map\n"})
    (rules / "zero.yaml").symlink_to("/dev/zero")
    assert stamp.input_digest(rules, []) is not None  # the link is hashed as a link: /dev/zero is not read
    os.mkfifo(rules / "fifo.yaml")
    assert stamp.input_digest(rules, []) is None  # a FIFO cannot be vouched for: never "up to date"
    os.unlink(rules / "fifo.yaml")
    (rules / "big.yaml").write_bytes(b"x" * 2000)
    assert stamp.input_digest(rules, [], max_bytes=1000) is None
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"x"})
    assert stamp.output_digest(out) is not None
    (out / "link").symlink_to(tmp_path)
    assert stamp.output_digest(out) is None


# --- 7. Links inside rules/, and folders too deep, are located diagnostics ----------------------


def test_new_variant_never_writes_through_a_link(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "base.yaml").write_text(
        (RULES / "rulesets" / "advanced-civilization.yaml")
        .read_text(encoding="utf-8")
        .replace("id: advanced-civilization", "id: base"),
        encoding="utf-8",
    )
    (rules / "rulesets" / "mine.yaml").symlink_to(tmp_path / "target.yaml")
    result = CliRunner().invoke(main, ["--rules", str(rules), "new-variant", "mine", "--extends", "base"])
    assert result.exit_code == 2 and "already exists" in result.output
    assert not (tmp_path / "target.yaml").exists()
    result = CliRunner().invoke(main, ["--rules", str(rules), "new-variant", "fresh", "--extends", "base"])
    assert result.exit_code == 0, result.output
    assert (rules / "rulesets" / "fresh.yaml").is_file()


def test_a_link_inside_rules_is_reported_even_when_it_stays_inside(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    make(rules, {"maps/real.yaml": b"kind: map\n"})
    (rules / "maps" / "alias.yaml").symlink_to("real.yaml")
    workspace = Workspace(rules)
    assert workspace.check_path("maps/alias.yaml") is not None
    loaded = workspace.load("maps/alias.yaml")
    assert loaded.document is None and [d.code for d in loaded.diagnostics] == ["R003"]


def test_folders_nested_too_deep_and_folder_links_are_reported_when_scanning(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    folder = rules / "maps"
    folder.mkdir(parents=True)
    (rules / "maps" / "up").symlink_to("..")
    for _ in range(files.MAX_DEPTH + 5):
        folder = folder / "d"
        folder.mkdir()
    workspace = Workspace(rules)
    assert workspace.rule_files() == []
    assert sorted(d.code for d in workspace.discovery_diagnostics) == ["L012", "R003"]
    workspace.rule_files()
    assert len(workspace.discovery_diagnostics) == 2  # scanned once per run


# --- Files outside rules/: the editor, the watcher and the scan read nothing there ----------------


def test_the_language_server_reads_nothing_outside_and_waits_on_nothing(tmp_path: Path) -> None:
    """A request about `rules/../secret`, a FIFO and a link to /dev/zero: answered, nothing read.

    The server read a file an editor asked about with `Path.read_text`: through `..` out of the
    workspace, through links, without a bound (a link to /dev/zero ran out of memory) and
    blocking on a FIFO (the server never answered again).
    """
    rules = copy_subset(tmp_path / "rules")
    (tmp_path / "secret.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
    os.mkfifo(rules / "cards" / "fifo.yaml")
    (rules / "cards" / "zero.yaml").symlink_to("/dev/zero")
    client = Client(rules)
    try:
        client.request("initialize", {"processId": None, "rootUri": rules.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        outside = rules.as_uri() + "/../secret.yaml"
        for uri in (outside, (rules / "cards/fifo.yaml").as_uri(), (rules / "cards/zero.yaml").as_uri()):
            at = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}
            hover = client.request("textDocument/hover", at)
            assert hover is None or SECRET not in json.dumps(hover), uri
            completion = client.request("textDocument/completion", at)
            assert completion is not None
        # The file outside is no document of the workspace: its text is not taken, nor checked.
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": outside, "languageId": "yaml", "version": 1, "text": "kind: nonsense\n"}},
        )
        assert (
            client.request(
                "textDocument/hover", {"textDocument": {"uri": outside}, "position": {"line": 0, "character": 1}}
            )
            is None
        )
        assert client.close() == 0
    finally:
        client.process.kill()
    assert not any("secret.yaml" in json.dumps(n) for n in client.notifications)


def test_a_path_through_dotdot_is_outside_the_session(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    assert session.relative(rules / ".." / "secret.yaml") is None
    assert session.relative(rules / "cards" / ".." / ".." / "rules" / "cards" / "x.yaml") == "cards/x.yaml"
    assert session.relative(rules) is None
    assert session.relative(rules / "cards" / "x.yaml") == "cards/x.yaml"


def test_a_path_whose_dotdot_follows_a_link_of_the_rules_is_no_file_of_the_session(tmp_path: Path) -> None:
    """An editor's `file:///…/rules/lnk/../cards/q.yaml`, `lnk` a link under rules/ to a folder out
    of the project: the system reads `lnk/..` as the parent of where `lnk` leads, another file than
    `rules/cards/q.yaml`. Taken by its letters, the session served the editor's buffer of that
    file as `cards/q.yaml`, its diagnostics published under the foreign file's URI. The `..` is
    taken as every path option takes it (:func:`files.dots_taken`): back through a link of the
    rules, it names no file of the session; without a link on the way, it is what it was."""
    rules, elsewhere = tmp_path / "project" / "rules", tmp_path / "elsewhere" / "rules"
    (rules / "cards").mkdir(parents=True)
    (elsewhere / "cards").mkdir(parents=True)
    (rules / "lnk").symlink_to(elsewhere / "cards")
    session = Session(rules)
    assert session.relative(rules / "lnk" / ".." / "cards" / "q.yaml") is None
    assert session.relative(rules / "cards" / ".." / "cards" / "q.yaml") == "cards/q.yaml"
    assert session.relative(rules / "lnk" / "q.yaml") == "lnk/q.yaml"  # read: refused as the link it is (R003)


def test_a_rule_file_or_folder_whose_name_holds_a_backslash_is_said_not_read(tmp_path: Path) -> None:
    """civrules takes a backslash for a folder separator (as Windows does): `maps/a\\b.yaml`, found
    by the walk, was "cannot read: no such file" with the hint to check the path, and the files
    of a folder `cards/sub\\dir` were missing without a word (round 33). Each is said, once, for
    what it is: a name that cannot be given in a manifest."""
    from civrules.pipeline.incremental import full_run

    root = copy_subset(tmp_path / "rules")
    panel = (root / "maps/western-panel.yaml").read_bytes()
    (root / "maps" / "a\\b.yaml").write_bytes(panel)
    (root / "cards" / "sub\\dir").mkdir()
    (root / "cards" / "sub\\dir" / "x.yaml").write_bytes(panel)
    found = [(d.code, d.subjects, d.message) for d in full_run(root) if "\\" in str(d.subjects)]
    assert sorted((code, subjects) for code, subjects, _ in found) == [
        ("L012", ("cards/sub\\dir",)),
        ("L012", ("maps/a\\b.yaml",)),
    ]
    assert all("its name holds a backslash" in message and "no such file" not in message for *_, message in found)


def test_a_file_is_named_where_the_system_takes_a_dotdot_after_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Workspace.display` named `rules/lnk/../x.yaml` as `rules/x.yaml`, by its letters, where the
    system opens the `x.yaml` beside where `lnk` leads: a diagnostic of one file located at
    another. It now takes `..` as every path option and URI does (:func:`files.dots_taken`)."""
    rules, elsewhere = tmp_path / "project" / "rules", tmp_path / "elsewhere" / "deep"
    rules.mkdir(parents=True)
    (elsewhere / "cards").mkdir(parents=True)
    (rules / "lnk").symlink_to(elsewhere / "cards")
    monkeypatch.chdir(tmp_path)
    workspace = Workspace(rules)
    assert workspace.display(rules / "lnk" / ".." / "x.yaml") == "elsewhere/deep/x.yaml"
    assert workspace.display(Path("project/rules/lnk/../x.yaml")) == "elsewhere/deep/x.yaml"
    # Without a link on the way, as before.
    assert workspace.display(rules / "cards" / ".." / "x.yaml") == "project/rules/x.yaml"
    assert workspace.display(Path("project/./rules/x.yaml")) == "project/rules/x.yaml"


@pytest.mark.slow  # the language server's import: 1.7 s
def test_a_dotdot_after_a_link_is_no_file_under_another_name_of_the_rules_folder_either(tmp_path: Path) -> None:
    """The language server's other names of a rules folder (a workspace folder that is a link to
    the project) took their paths by their letters: `alias/rules/lnk/../cards/q.yaml` was served as
    `cards/q.yaml` where the session's own name refuses it."""
    from types import SimpleNamespace

    from civrules.load import Limits
    from civrules.lsp.server import Folder

    rules, elsewhere = tmp_path / "project" / "rules", tmp_path / "elsewhere"
    (rules / "cards").mkdir(parents=True)
    (elsewhere / "cards").mkdir(parents=True)
    (rules / "lnk").symlink_to(elsewhere / "cards")
    (tmp_path / "alias").symlink_to(tmp_path / "project")
    folder = Folder(SimpleNamespace(limits=Limits()), rules)  # type: ignore[arg-type]
    folder.aliases = (tmp_path / "alias" / "rules",)
    assert folder.holds(str(tmp_path / "alias" / "rules" / "cards" / ".." / "cards" / "q.yaml")) == "cards/q.yaml"
    assert folder.holds(str(tmp_path / "alias" / "rules" / "lnk" / ".." / "cards" / "q.yaml")) is None
    assert folder.holds(str(rules / "lnk" / ".." / "cards" / "q.yaml")) is None


def test_a_file_turned_into_a_fifo_after_its_stat_is_not_waited_on(tmp_path: Path) -> None:
    """The session's signature read with `open()`: a FIFO swapped in after `stat` blocked it."""
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    workspace = Workspace(rules)
    target = rules / "cards" / "swapped.yaml"
    os.mkfifo(target)
    real_stat = os.stat

    def regular_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if Path(str(path)) == target:  # as if the FIFO came just after this stat
            values = list(found)
            values[0] = 0o100644
            return os.stat_result(values)
        return found

    found: list[tuple[str, str]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "stat", regular_stat)
        reader = threading.Thread(
            target=lambda: found.append(session.signature("cards/swapped.yaml", {}, workspace)), daemon=True
        )
        reader.start()
        reader.join(HANG_GUARD)
    if reader.is_alive():  # let the blocked open() return, so that the thread ends
        with open(target, "wb"):
            pass
    assert found and found[0][0] == "unread"


def test_watch_snapshot_follows_no_link_and_sees_a_file_become_a_fifo(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.yaml").write_text("x: 1\n", encoding="utf-8")
    (rules / "cards" / "up").symlink_to(tmp_path / "outside")
    (rules / "cards" / "a.yaml").write_text("kind: map\n", encoding="utf-8")
    before = snapshot(rules)
    assert sorted(before) == ["cards/a.yaml"]
    (rules / "cards" / "a.yaml").unlink()
    os.mkfifo(rules / "cards" / "a.yaml")
    after = snapshot(rules)
    assert sorted(after) == ["cards/a.yaml"] and after != before


def test_watch_build_never_replaces_a_folder_that_holds_the_rules(tmp_path: Path) -> None:
    """`build` refused `--out` holding the rules folder; `watch --build` did not pass the guard on."""
    out = tmp_path / "work"
    rules = copy_subset(out / "rules")
    (out / ".civrules-output").write_bytes(
        (Path(__file__).parent.parent.parent / "generated" / ".civrules-output").read_bytes()
    )
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    process = subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(rules), "watch", "--build", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert process.returncode == 2, process.stderr
    assert "error[R007]" in process.stdout and "holds the rules folder" in process.stdout
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before


@pytest.mark.parametrize(
    "command",
    [["new-variant", "mine", "--extends", "advanced-civilization"], ["validate"], ["list"], ["diff", "a", "b"]],
)
def test_every_command_says_why_a_linked_rules_folder_has_no_rulesets(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "real" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules").symlink_to(tmp_path / "real")
    result = CliRunner().invoke(main, ["--rules", str(tmp_path / "rules"), *command])
    assert result.exit_code == 2, result.output
    assert "R003" in result.output and "symbolic link" in result.output, result.output
    assert not (tmp_path / "real" / "rulesets" / "mine.yaml").exists()


def test_a_symbolic_link_out_of_rules_found_by_scanning_is_refused_unread(tmp_path: Path) -> None:
    """`validate` reads every file under rules/ and every manifest: a link out was read (and its
    content shown in diagnostics) unless a manifest named it."""
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "a.yaml").write_text((RULES / "rulesets" / "advanced-civilization.yaml").read_text())
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: [SECRET\n", encoding="utf-8")
    os.symlink(secret, rules / "rulesets" / "evil.yaml")
    os.symlink(secret, rules / "evil.yaml")
    workspace = Workspace(rules)
    for relative in ("rulesets/evil.yaml", "evil.yaml"):
        loaded = workspace.load(relative)
        assert loaded.document is None
        assert [(d.code, d.span) for d in loaded.diagnostics] == [("R003", Span.at(loaded.path))]


# --- The environment failing under a run: exit 2 with the cause -----------------------------------


def test_a_deleted_working_directory_is_said_with_a_hint(tmp_path: Path) -> None:
    """A run from a folder deleted meanwhile said only `cannot access: no such file or directory`."""
    gone = tmp_path / "gone"
    gone.mkdir()
    process = subprocess.run(
        [
            "sh",
            "-c",
            'cd "$1" && rmdir "$1" && exec "$2" -m civrules --rules "$3" validate --format json',
            "sh",
            str(gone),
            sys.executable,
            str(copy_subset(tmp_path / "rules")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert process.returncode == 2, process.stderr
    # In the format asked for: the JSON output is one valid document, not empty.
    (said,) = json.loads(process.stdout)
    assert (said["code"], said["file"]) == ("R018", "<command line>")
    assert said["message"] == "the working directory no longer exists (it was deleted or moved)"
    assert said["hint"].startswith("cd into an existing folder")
    assert "Traceback" not in process.stderr


@pytest.mark.parametrize("command", [["export", "advanced-civilization"], ["explain", "--list"]])
def test_output_cut_short_by_a_file_size_limit_is_exit_2(tmp_path: Path, command: list[str]) -> None:
    """With RLIMIT_FSIZE, Python's buffered stdout took part of a write and dropped the rest:
    `export > file` left 1,024 bytes of JSON and exited 0."""
    import resource

    rules = copy_subset(tmp_path / "rules")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    with (tmp_path / "out.json").open("wb") as out:
        process = subprocess.run(
            [sys.executable, "-m", "civrules", "--rules", str(rules), *command],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            preexec_fn=limit,
            check=False,
        )
    assert process.returncode == 2, process.stderr
    assert "file-size limit" in process.stderr
    assert "Traceback" not in process.stderr and "Exception ignored" not in process.stderr


@pytest.mark.parametrize("way", ["made-without-a-name", "made-under-a-temporary-name", "made-by-name"])
def test_a_new_file_whose_write_fails_is_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str) -> None:
    """`new-variant` under a full disk or a file-size limit left its manifest cut short, and the
    next run was refused: the name was taken. (Where the system can, the file is made without a
    name and linked once whole; elsewhere under a temporary name and linked; where the file system
    has no second names, by name, and removed.)"""
    nameless = way != "made-by-name"
    opened = os.fdopen
    written = files.write_all

    def full(fd: int, content: bytes) -> None:
        written(fd, content[:100])
        raise OSError(errno.ENOSPC, "No space left on device")

    if nameless:
        monkeypatch.setattr(files, "write_all", full)
    if way != "made-without-a-name":
        monkeypatch.setattr(files, "_create_whole", lambda *args: False)
    if way == "made-by-name":
        monkeypatch.setattr(files, "_create_then_link", lambda *args: False)

    class Full:
        def __init__(self, fd: int, mode: str) -> None:
            self.handle = opened(fd, mode)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[:100])
            self.handle.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", Full)  # the one files.create_under calls
    with pytest.raises(files.RefusedError, match=r"cannot write `manifest\.yaml`: no space") as refused:
        files.create_under(tmp_path, "manifest.yaml", b"x" * 1000)
    assert isinstance(refused.value.__cause__, OSError) and refused.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("command", ["init", "new-variant"])
def test_a_file_size_limit_leaves_no_part_of_what_init_or_new_variant_writes(tmp_path: Path, command: str) -> None:
    """Under `ulimit -f 4`, `civrules init fz` left five of the repository's files (and said
    "nothing was changed"); `new-variant` left its manifest cut at the limit, and the next run was
    refused for a name taken. Either command now leaves nothing, and says the limit."""
    import resource

    if command == "init":
        words = ["init", "fz"]
    else:
        rules = tmp_path / "rules"
        (rules / "rulesets").mkdir(parents=True)
        base = (RULES / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
        (rules / "rulesets" / "base.yaml").write_text(base.replace("id: advanced-civilization", "id: base"))
        words = ["--rules", str(rules), "--no-shipped", "new-variant", "fz", "--extends", "base"]

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))

    before = sorted(tmp_path.rglob("*"))
    process = subprocess.run(
        [sys.executable, "-m", "civrules", *words],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        check=False,
    )
    assert process.returncode == 2, process.stdout + process.stderr
    said = process.stdout + process.stderr
    assert "error[R007]" in said and "file-size limit" in said and "move those aside" not in said, said
    assert "Traceback" not in said
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("guarded", [True, False])
def test_no_bytecode_is_written_under_a_file_size_limit(tmp_path: Path, guarded: bool) -> None:
    """Python writes a module's bytecode with one raw write and renames it into place without checking
    the count: under a 1 KiB file-size limit a truncated .pyc was left in the source tree (found in a
    checkout without bytecode, whose next import failed: "bad marshal data"). Under a limit, civrules'
    command line writes none; without civrules imported first, the module's bytecode is written."""
    import resource

    module = tmp_path / "probe.py"
    module.write_text("".join(f"VALUE_{n} = {n} * {n} + {n}\n" for n in range(400)), encoding="utf-8")
    first = "import civrules.cli\n" if guarded else ""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    process = subprocess.run(
        [sys.executable, "-c", first + "import probe\nassert probe.VALUE_3 == 12\n"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    written = list((tmp_path / "__pycache__").glob("probe.*.pyc"))
    assert (written == []) is guarded, written


# --- Output that does not depend on the order the file system lists files in ----------------------


def build(rules: Path, out: Path, *rulesets: str, seed: str = "0", cache: bool = True) -> dict[str, bytes]:
    """A build in a fresh interpreter with the given hash seed."""
    process = start_civrules(rules, "build", *rulesets, "--out", str(out), seed=seed, cache=cache)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr.decode()
    return read_tree(out)


def built_under_two_seeds_in_two_orders(tmp_path: Path, *rulesets: str) -> list[dict[str, bytes]]:
    """The rules tree copied file by file in two opposite orders (directory listings follow
    creation order on some file systems) to the same place, each built with another PYTHONHASHSEED
    in a fresh interpreter, with no data cache (every map layout made under that seed)."""
    files = sorted(p.relative_to(RULES) for p in RULES.rglob("*") if p.is_file())
    rules = tmp_path / "rules"
    built = []
    for n, order in enumerate((files, list(reversed(files)))):
        shutil.rmtree(rules, ignore_errors=True)
        for relative in order:
            (rules / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(RULES / relative, rules / relative)
        built.append(build(rules, tmp_path / f"out{n}", *rulesets, seed=("1", "31337")[n], cache=False))
    assert any(path.startswith("python/") for path in built[0])
    assert any(path.startswith("sheets/") for path in built[0])
    return built


#: `make test`'s ruleset for the hash seeds: a small one (two fresh builds of it cost about 1.3 s of
#: CPU, against 4.6 s for the two Advanced Civilization rulesets) that is still a variant, with
#: engine packages, sheets and the variant's changes sheet.
SMALL_VARIANT = "imperial-settlers-peaceful"


def test_output_is_byte_identical_across_hash_seeds_and_file_creation_orders(tmp_path: Path) -> None:
    """`make test`'s one test of hash seeds: two fresh interpreters under two seeds, rules copied in
    two orders, one small variant built (packages and sheets). The same for the Advanced
    Civilization base and its variant (the map and its layout) is the slow test below; the build
    of every ruleset under another seed (advanced_civilization/test_codegen.py) and the sheets
    rendered alone (test_sheets.py) run in `make test-slow` too."""
    built = built_under_two_seeds_in_two_orders(tmp_path, SMALL_VARIANT)
    assert built[0] == built[1]
    assert f"sheets/{SMALL_VARIANT}/variant-changes.html" in built[0]


@pytest.mark.slow
def test_advanced_civilization_is_byte_identical_across_hash_seeds_and_file_creation_orders(tmp_path: Path) -> None:
    """The same as the test above for the Advanced Civilization base and its Western Extension:
    the map graph, its layout and picture, made under each seed."""
    built = built_under_two_seeds_in_two_orders(tmp_path, RULESET, f"{RULESET}-western")
    assert built[0] == built[1]


def test_a_build_writes_each_file_into_its_staging_tree_as_it_is_made(tmp_path: Path) -> None:
    """Outputs are not held until the end (25 MB at 50×): each file goes into the staging tree
    beside ``out`` when it is made, the same bytes as a build in memory, and the staging tree is
    swapped in whole at the end, leaving nothing beside ``out``."""
    from civrules.emit.build import build, render

    workspace = Workspace(RULES)
    loaded = [workspace.load_ruleset(workspace.manifests()["sid-meiers-civilization"])]
    in_memory = render(workspace, loaded)
    out = tmp_path / "generated"
    staged = output.StagedTree(out)
    result = render(workspace, loaded, tree=staged)
    assert result.tree is staged and staged.folder is not None and not out.exists()
    assert read_tree(staged.folder) == {**in_memory.tree, MARKER: MARKER_TEXT}  # written already
    assert dict(staged.items()) == in_memory.tree
    build(out, result, ["sid-meiers-civilization"], everything=True, protected=(RULES,))
    assert read_tree(out) == {**in_memory.tree, MARKER: MARKER_TEXT}
    assert [p.name for p in tmp_path.iterdir()] == ["generated"]


def test_a_build_that_fails_leaves_no_staging_tree(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    staged = output.StagedTree(out)
    staged["sheets/a.html"] = b"a"
    assert staged.folder is not None and staged.folder.is_dir()
    staged.discard()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("again", [False, True], ids=["new", "over the same tree"])
@pytest.mark.parametrize("staged", [False, True])
def test_every_file_is_on_disk_before_the_tree_is_swapped_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: bool, again: bool
) -> None:
    """Durability, whatever the order of writes and syncs (they run on threads of their own): at the
    swap every file of the new tree (the marker, a file written twice, a file carried over, a file
    of the old tree kept because it holds the same bytes) was synced after its last write, and
    every folder of it too."""
    root = tmp_path / "generated"
    if again:  # unsynced, as `git checkout` leaves a committed tree
        make(root, {MARKER: MARKER_TEXT, "python/a/data.py": b"A = 1\n", "sheets/a/index.html": b"<p>a</p>\n"})
    synced: set[tuple[int, int]] = set()
    real_fsync, real_swap = os.fsync, output._swap
    seen: list[str] = []

    def fsync(descriptor: int) -> None:
        info = os.fstat(descriptor)
        synced.add((info.st_dev, info.st_ino))
        real_fsync(descriptor)

    def swap(staging: Path, root: Path) -> None:
        for entry in files.walk(staging):
            info = os.stat(staging / entry.relative)
            assert (info.st_dev, info.st_ino) in synced, entry.relative  # a file, or a folder's entries
            if entry.kind == "file":
                seen.append(entry.relative)
        info = os.stat(staging)
        assert (info.st_dev, info.st_ino) in synced
        synced.clear()
        real_swap(staging, root)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(output, "_swap", swap)
    tree: dict[str, bytes] = {"python/a/data.py": b"A = 1\n", "sheets/a/index.html": b"<p>a</p>\n"}
    if staged:
        staging = output.StagedTree(root)
        for relative, content in tree.items():
            staging[relative] = content
        staging["python/a/data.py"] = b"A = 2\n"  # written again (a package's version, once decided)
        write_tree(root, staging, {"helpers/b.html": b"kept\n"})
    else:
        write_tree(root, tree, {"helpers/b.html": b"kept\n"})
    assert sorted(seen) == sorted([MARKER, *tree, "helpers/b.html"])
    assert read_tree(root)["python/a/data.py"] == (b"A = 2\n" if staged else b"A = 1\n")
    assert not synced


def _identity(path: Path) -> tuple[int, int]:
    info = os.lstat(path)
    return info.st_dev, info.st_ino


@pytest.mark.parametrize("writer", [write_tree, _staged], ids=["in memory", "staged"])
def test_a_file_written_again_with_the_same_bytes_is_the_old_file_kept(tmp_path: Path, writer: Any) -> None:
    """Each build wrote every file of the tree anew, those that had not changed too (a build of
    mega-civilization: 41 files made, written, synced, and as many removed with the old tree).
    The old tree's file holding the very bytes is kept (linked into the new tree: the same file,
    its modification time too); a file that changed, even to as many bytes, is written anew; after
    the swap each file has one name, and the tree is what was written."""
    out = tmp_path / "out"
    first = {"same.txt": b"one\n", "python/a/same.py": b"A = 1\n", "changed.txt": b"old"}
    writer(out, first)
    old = {name: _identity(out / name) for name in first}
    second = {**first, "changed.txt": b"new", "sheets/a/added.html": b"<p>a</p>\n"}
    writer(out, second)
    assert tree_of(out) == {MARKER: MARKER_TEXT, **second}
    kept = {name for name in first if _identity(out / name) == old[name]}
    assert kept == {"same.txt", "python/a/same.py"}
    assert all(os.lstat(out / name).st_nlink == 1 for name in second)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging tree, no old tree left


@pytest.mark.parametrize("writer", [write_tree, _staged], ids=["in memory", "staged"])
def test_an_old_file_is_kept_only_where_it_is_what_a_new_file_would_be(tmp_path: Path, writer: Any) -> None:
    """A file of the old tree is kept only where nothing tells it from a new one but its time: one
    with a second name elsewhere (a change made there would reach the new tree), another mode, or
    reached through a link (to a folder outside the tree) is written anew, and what lies outside
    the tree is left as it was, with one name."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    tree = {"plain.txt": b"same", "named-twice.txt": b"same", "private.txt": b"same", "linked/file.txt": b"same"}
    _with_umask(0o022, lambda: writer(out, tree))
    outside.mkdir()
    os.link(out / "named-twice.txt", outside / "second-name.txt")
    (out / "private.txt").chmod(0o600)
    (out / "linked").rename(outside / "linked")
    (out / "linked").symlink_to(outside / "linked", target_is_directory=True)
    old = {name: _identity(out / name) for name in ("plain.txt", "named-twice.txt", "private.txt")}
    _with_umask(0o022, lambda: writer(out, tree))
    assert tree_of(out) == {MARKER: MARKER_TEXT, **tree}
    assert _identity(out / "plain.txt") == old["plain.txt"]
    assert _identity(out / "named-twice.txt") != old["named-twice.txt"]
    assert _identity(out / "private.txt") != old["private.txt"] and _mode(out / "private.txt") == 0o644
    assert not (out / "linked").is_symlink()
    assert _identity(out / "linked" / "file.txt") != _identity(outside / "linked" / "file.txt")
    assert os.lstat(outside / "second-name.txt").st_nlink == 1
    assert os.lstat(outside / "linked" / "file.txt").st_nlink == 1


@pytest.mark.parametrize("staged", [False, True])
def test_a_failing_sync_leaves_the_previous_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: bool) -> None:
    """A sync's failure, met on a syncing thread, is the build's OutputError before the swap: the
    previous tree stays, no staging folder is left, and no descriptor stays open."""
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"old", "b/c.txt": b"old"})
    before = tree_of(out)
    real_fsync = os.fsync
    calls: list[int] = []

    def fsync(descriptor: int) -> None:
        calls.append(descriptor)
        if len(calls) == 2:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(descriptor)

    opened = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None
    monkeypatch.setattr(os, "fsync", fsync)
    tree = {"a.txt": b"new", "b/c.txt": b"new", "d/e.txt": b"new"}
    written: output.Tree = tree
    if staged:
        written = output.StagedTree(out)
        for relative, content in tree.items():
            written[relative] = content  # the syncs run meanwhile: a failure waits for the swap
    with pytest.raises(OutputError, match="input/output error") as raised:
        write_tree(out, written)
    assert "nothing was changed" in str(raised.value)
    monkeypatch.undo()
    assert tree_of(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    if opened is not None:
        assert len(os.listdir("/proc/self/fd")) == opened


# --- File names that are no UTF-8 ------------------------------------------------------------------


@heavy
def test_a_file_name_that_is_no_utf8_is_digested_not_an_internal_error(tmp_path: Path) -> None:
    """`build` (its stamp digests every file name under rules/) and `init DIR` (the header cache's key
    digests the folder) ended in R900 at a name that is no UTF-8: Python reads `\\xff` as the
    surrogate `\\udcff`, which strict UTF-8 refuses. Each name is digested as its bytes; names without
    surrogates as before (no stamp or cache entry goes stale)."""
    from civrules.support import cache

    assert cache.digest("cards/x.yaml") == cache.digest(b"cards/x.yaml")
    assert cache.digest(os.fsdecode(b"\xff.yaml")) != cache.digest(os.fsdecode(b"\xfe.yaml"))
    rules = copy_subset(tmp_path / "rules")
    (rules / "cards" / os.fsdecode(b"\xff\xfe odd.yaml")).write_text("# not read by any ruleset\n", encoding="utf-8")
    out = tmp_path / "out"
    for args in (["build", "--out", str(out)], ["build", "--out", str(out), "--check"]):
        result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", *args])
        assert result.exit_code == 0, result.output
        assert "R900" not in result.output
    made = CliRunner().invoke(main, ["init", str(tmp_path / os.fsdecode(b"new\xff"))])
    assert made.exit_code == 0, made.output
    assert (tmp_path / os.fsdecode(b"new\xff") / "rules" / "rulesets").is_dir()


def test_an_output_folder_that_is_a_mount_point_is_named_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build --out gen` where `gen` is a mount point: the tree written beside it cannot be renamed
    into its place (EBUSY), and the hint said to check its permissions and free space, where nothing
    is wrong. The hint names the mount point and a folder inside it; nothing is changed."""
    out = tmp_path / "gen"
    out.mkdir()

    def busy(a: Path, b: Path) -> bool:
        raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), str(b))

    monkeypatch.setattr(output, "_exchange", busy)
    with pytest.raises(OutputError) as refused:
        write_tree(out, {"a.txt": b"a\n"})
    assert "mount point" in str(refused.value) and refused.value.hint is not None
    assert f"--out (`{out / 'generated'}`)" in refused.value.hint
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen"] and not any(out.iterdir())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["schemas", "--out", "gen"])
    assert result.exit_code == 2 and "error[R007]" in result.output, result.output
    assert "hint: `gen` is a mount point" in result.output
    assert "check that the folder can be written" not in result.output


def test_a_build_looks_for_an_old_tree_it_cannot_remove_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replacing a tree held in memory walked the old tree twice for a folder it could not remove:
    before writing the new one, and again before the swap. Once now, before the swap (the test
    above holds that the old tree is kept and the new one removed when there is one)."""
    from civrules.emit import output

    out = tmp_path / "out"
    write_tree(out, {"python/a.txt": b"old", "sheets/b.txt": b"old"})
    walks: list[Path] = []
    real = output._unremovable

    def counted(root: Path) -> Path | None:
        walks.append(root)
        return real(root)

    monkeypatch.setattr(output, "_unremovable", counted)
    write_tree(out, {"python/a.txt": b"new"})
    assert len(walks) == 1
    assert tree_of(out) == {MARKER: MARKER_TEXT, "python/a.txt": b"new"}


#: Every path option of every command, spelt with a `..` after a link (`L -> rules/maps`, inside the
#: project; `OUT -> ../elsewhere/rules/maps`, out of it): read (`--rules`, new-variant's rulesets/
#: under it) or written (`--out`, init's folder). Those that read the rules before judging --out are
#: slow.
DOTS_AFTER_A_LINK = [
    pytest.param(["--rules", "L/..", "--no-shipped", "validate"], "L", id="validate --rules L/.."),
    pytest.param(["--rules", "OUT/..", "--no-shipped", "validate"], "OUT", id="validate --rules OUT/.."),
    pytest.param(
        ["--rules", "OUT/..", "--no-shipped", "new-variant", "v", "--extends", "mine"], "OUT", id="new-variant --rules"
    ),
    pytest.param(["--rules", "OUT/..", "--no-shipped", "list"], "OUT", id="list --rules"),
    pytest.param(["--rules", str(RULES), "schemas", "--out", "L/../x"], "L", id="schemas --out"),
    pytest.param(["init", "OUT/../x"], "OUT", id="init DIRECTORY"),
    pytest.param(["--rules", str(RULES), "watch", "--build", "--out", "L/../x"], "L", id="watch --build --out"),
    *(
        pytest.param(["--rules", str(RULES), command, "imperial-settlers", "--out", "OUT/../x"], "OUT", id=command)
        for command in ("build", "sheets", "helpers")
    ),
]
for _index, _case in enumerate(DOTS_AFTER_A_LINK):
    if _case.id in ("build", "sheets", "helpers", "init DIRECTORY"):  # init: 1 s, making its tree
        DOTS_AFTER_A_LINK[_index] = pytest.param(*_case.values, id=_case.id, marks=pytest.mark.slow)


@pytest.mark.parametrize(("args", "link"), DOTS_AFTER_A_LINK)
def test_every_path_option_takes_a_dot_dot_after_a_link_as_the_system_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], link: str
) -> None:
    """`--out L/..` was refused (round 32) but `--rules L/..` was read: the rules folder's name was
    taken by its letters, so `OUT/..` read a folder out of the project through the link `OUT`, whose
    own name is refused (`--rules OUT`), and new-variant wrote there. Every path option now goes
    through one rule (:func:`files.dots_taken`): a `..` back through a link of the project is
    refused as the link, exit 2, and nothing is read or written through it."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    manifest = "kind: ruleset\nfamily: imperial-settlers\nid: mine\nname: Mine\nfiles: [\n"
    for rules in (project / "rules", elsewhere / "rules"):
        (rules / "maps").mkdir(parents=True)
        (rules / "rulesets").mkdir()
        (rules / "rulesets" / "mine.yaml").write_text(manifest, encoding="utf-8")
    monkeypatch.chdir(project)
    Path("L").symlink_to("rules/maps")
    Path("OUT").symlink_to(elsewhere / "rules" / "maps")
    before = {
        folder: sorted(p.name for p in folder.iterdir())
        for folder in (project, project / "rules", elsewhere, elsewhere / "rules", elsewhere / "rules" / "rulesets")
    }
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.stdout + result.stderr
    said = result.stdout + result.stderr
    assert f"`{link}`" in said and "symbolic link" in said, said
    assert "mine.yaml" not in said  # nothing read there
    assert {folder: sorted(p.name for p in folder.iterdir()) for folder in before} == before


def test_a_rules_folder_through_a_file_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--rules plain/rules` where `plain` is a file: "a part of the path is not a folder" (the
    language server said the same), now which part, as typed, and what it is (round 34)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain").write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", "plain/rules", "validate"])
    assert result.exit_code == 2 and "`plain` is not a folder but a file" in result.output, result.output
    from civrules.lsp.server import rules_folder_problem

    problem = rules_folder_problem([tmp_path / "plain" / "rules"])
    assert problem is not None and f"`{tmp_path / 'plain'}` is not a folder but a file" in problem.message


@pytest.mark.parametrize("what", ["fifo", "device"])
def test_an_out_that_is_no_folder_says_what_it_is(tmp_path: Path, what: str) -> None:
    """`--out /dev/null` was "not a folder (a file, a FIFO or a device)": which of them, the user
    had to find; it now says, as `--rules` and new-variant do (round 34). (A file is refused
    before, by the option's own check: "is a file, not a folder".)"""
    out = tmp_path / "pipe" if what == "fifo" else Path("/dev/null")
    if what == "fifo":
        os.mkfifo(out)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "schemas", "--out", str(out)])
    said = {"fifo": "a FIFO (a named pipe)", "device": "a device"}[what]
    assert result.exit_code == 2 and f"it is not a folder but {said}" in result.output, result.output


def test_a_new_file_is_made_by_name_where_the_system_cannot_link_one_made_without_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some sandboxes have /proc but refuse to link a file through it: the file made without a
    name goes with its descriptor, and the file is made by name, whole."""

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOENT, "No such file or directory")

    monkeypatch.setattr(os, "link", refused)
    files.create_under(tmp_path, "manifest.yaml", b"kind: ruleset\n")
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["manifest.yaml"]
    assert (tmp_path / "manifest.yaml").read_bytes() == b"kind: ruleset\n"


@pytest.mark.parametrize("linked", [True, False])
def test_a_new_file_is_made_whole_on_a_file_system_with_no_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linked: bool
) -> None:
    """Round 35's trial: where no file can be made without a name and the file system takes no lock
    (NFS with no lock daemon: ENOLCK), the lock on the temporary file failed and `new-variant` (and
    `init`) refused, told as a full disk. The file is made unlocked (a later run's sweep cannot
    lock it either, so it never takes it for a leftover), linked, or by name where there are no
    links; no temporary file is left."""
    import fcntl

    def no_locks(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    monkeypatch.setattr(fcntl, "flock", no_locks)
    if not linked:
        monkeypatch.setattr(os, "link", no_links)
    making = getattr(files, "_MAKING", ".civrules-making-")
    (tmp_path / f"{making}someone-elses").write_bytes(b"being written")
    files.create_under(tmp_path, "manifest.yaml", b"kind: ruleset\n")
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == [f"{making}someone-elses", "manifest.yaml"]
    assert (tmp_path / "manifest.yaml").read_bytes() == b"kind: ruleset\n"


def test_only_unheld_temporary_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    """What a run killed while it made a file under a temporary name left is removed by the next
    file made in that folder; one a writer holds now, and a link or a folder under such a name (and
    what a link points at), are left alone."""
    import fcntl

    making = getattr(files, "_MAKING", ".civrules-making-")
    (tmp_path / f"{making}left").write_bytes(b"half")
    (tmp_path / f"{making}held").write_bytes(b"being written")
    (tmp_path / f"{making}folder").mkdir()
    (tmp_path / "elsewhere").write_text("mine\n")
    (tmp_path / f"{making}link").symlink_to(tmp_path / "elsewhere")
    held = os.open(tmp_path / f"{making}held", os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        files.create_under(tmp_path, "manifest.yaml", b"kind: ruleset\n")
    finally:
        os.close(held)
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["elsewhere", "manifest.yaml", f"{making}held", f"{making}folder", f"{making}link"]
    )
    assert (tmp_path / "elsewhere").read_text() == "mine\n"


def test_a_time_in_the_future_is_never_settled() -> None:
    """The fast guard of test_incremental's file system whose clock is ahead: a stamp whose times
    are in the future (a server's clock ahead of this one, this clock set back since) is not
    trusted; one a step in the past is."""
    import time

    now = time.time_ns()

    def stamped(moment: int) -> os.stat_result:
        seconds = moment / 1e9
        fields = [0o100644, 1, 1, 1, 0, 0, 10, int(seconds), int(seconds), int(seconds)]
        return os.stat_result(fields, {"st_atime_ns": moment, "st_mtime_ns": moment, "st_ctime_ns": moment})

    assert not files.settled(stamped(now + 3_600_000_000_000), now)  # an hour ahead
    assert not files.settled(stamped(now + files.TIME_STEP_NS * 5), now)
    assert not files.settled(stamped(now - files.TIME_STEP_NS // 2), now)  # within a step: as before
    assert files.settled(stamped(now - files.TIME_STEP_NS * 2), now)


def test_a_file_whose_close_fails_fails_the_write_and_nothing_is_swapped_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A network file system tells at close that a write failed (EIO). The close, on a sync thread,
    raised there: the thread died with a traceback and the tree was swapped in (exit 0)."""
    out = tmp_path / "out"
    write_tree(out, {"a.txt": b"old\n"})
    close = os.close
    failed: list[int] = []

    def failing(fd: int) -> None:
        close(fd)
        if not failed and threading.current_thread().name == "civrules-sync":
            failed.append(fd)
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "close", failing)
    with pytest.raises(OutputError, match="input/output error"):
        write_tree(out, {"a.txt": b"new\n", "b.txt": b"new\n"})
    monkeypatch.undo()
    assert failed and (out / "a.txt").read_bytes() == b"old\n" and not (out / "b.txt").exists()


def test_what_a_build_holds_open_is_bounded_by_the_limit_of_open_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under `ulimit -n 20` a build failed with "too many open files" where `validate` ran: it held
    up to 64 written files open for their sync, and every folder of the tree it replaced."""
    import resource

    real = resource.getrlimit

    def low(which: int) -> tuple[int, int]:
        return (20, 20) if which == resource.RLIMIT_NOFILE else real(which)

    out = tmp_path / "out"
    tree = {f"f{n}/g/file.txt": b"same\n" for n in range(8)}
    write_tree(out, tree)
    monkeypatch.setattr(resource, "getrlimit", low)
    staged = output.StagedTree(out, "build")
    try:
        for relative, data in tree.items():
            staged[relative] = data
        previous = staged._previous
        assert previous is not None and len(previous._folders) <= 4
    finally:
        staged.discard()
    assert output._pending() == 4


def test_a_failure_on_a_rule_files_descriptor_names_the_file_and_a_folders_close_ends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An fstat of a file being read (EIO) raised an OSError naming no file ("the output" at the
    top); a listed folder's close failing (EIO, a network file system) ended `validate`."""
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "a.yaml").write_bytes(b"x: 1\n")
    real_fstat, real_close = os.fstat, os.close

    def fstat_failing(fd: int) -> os.stat_result:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    with monkeypatch.context() as patched:
        patched.setattr(os, "fstat", fstat_failing)
        with pytest.raises(files.RefusedError, match=r"cannot read `cards/a.yaml`: an input/output error"):
            files.read_under(tmp_path, "cards/a.yaml", 1 << 20)

    def close_failing(fd: int) -> None:
        real_close(fd)
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    with monkeypatch.context() as patched:
        patched.setattr(os, "close", close_failing)
        found = sorted(entry.relative for entry in files.walk(tmp_path))
    assert found == ["cards", "cards/a.yaml"] and real_fstat(0)
