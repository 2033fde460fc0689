"""A folder or a file under rules/ that the system will not let civrules read is an error at it.

A folder that could not be listed was skipped without a word, so `validate` exited 0 while the
files in it had errors; an unreadable file's L012 said its reason twice ("cannot read `rules/x`:
cannot read `x`: Permission denied") with the hint for a FIFO. Tests run as root in CI, where a
mode of 000 stops nothing: the system's refusal is simulated where civrules asks for it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.support import files
from tests.conftest import copy_files

MAP_ERRORS = b"kind: map\nbogus: 1\n"  # a schema error in a map: exit 1 when read
KEEP = ("rulesets/advanced-civilization.yaml", "cards/advanced-civilization.yaml",
        "cards/advanced-civilization-commodities.yaml", "calamities/advanced-civilization.yaml",
        "maps/mediterranean.yaml", "rulebooks/advanced-civilization.yaml")  # fmt: skip


def refuse(monkeypatch: pytest.MonkeyPatch, folder: Path, number: int = errno.EACCES, *, enter: bool = False) -> None:
    """Make ``folder`` one the system will not list (``enter``: one it lists but will not let
    civrules look into), as a folder of mode 000 (or 444) does for a user who is not root."""
    locked = os.stat(folder)

    def is_locked(fd: int) -> bool:
        found = os.fstat(fd)
        return (found.st_dev, found.st_ino) == (locked.st_dev, locked.st_ino)

    names, status = files._names, files._status

    def refusing_names(fd: int) -> list[str]:
        if not enter and is_locked(fd):
            raise OSError(number, os.strerror(number))
        return names(fd)

    def refusing_status(name: str, fd: int) -> os.stat_result:
        if enter and is_locked(fd):
            raise OSError(number, os.strerror(number))
        return status(name, fd)

    monkeypatch.setattr(files, "_names", refusing_names)
    monkeypatch.setattr(files, "_status", refusing_status)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    rules = copy_files(tmp_path / "rules", KEEP)
    (rules / "maps" / "locked").mkdir()
    (rules / "maps" / "locked" / "x.yaml").write_bytes(MAP_ERRORS)
    return rules


def _validate(rules: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", "validate", "--format", "json"])
    return result.exit_code, result.stdout


@pytest.mark.parametrize("enter", [False, True], ids=["not-listed", "not-entered"])
def test_a_folder_that_cannot_be_listed_is_an_error_at_it_and_hides_nothing(
    rules: Path, monkeypatch: pytest.MonkeyPatch, enter: bool
) -> None:
    import json

    code, out = _validate(rules)
    assert code == 1 and "L012" not in out  # readable: its file's own errors
    assert any(d["file"].endswith("maps/locked/x.yaml") for d in json.loads(out))
    refuse(monkeypatch, rules / "maps" / "locked", enter=enter)
    code, out = _validate(rules)
    assert code == 1, out  # not 0: the files in it would have errors, or none, nobody knows
    (locked,) = [d for d in json.loads(out) if d["code"] == "L012"]
    assert locked["file"].endswith("maps/locked"), locked
    assert locked["message"].count("permission denied") == 1 and "cannot list the folder" in locked["message"]
    assert "check the folder's permissions" in locked["hint"]


def test_a_rules_folder_that_cannot_be_listed_is_said(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refuse(monkeypatch, rules)
    result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", "validate"])
    assert result.exit_code == 2 and "error[L012]: cannot list the folder" in result.output, result.output
    assert "no ruleset manifests" not in result.output


def test_the_walk_yields_a_folder_it_cannot_list_and_output_trees_name_it(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from civrules.emit.output import scan_tree

    refuse(monkeypatch, rules / "maps" / "locked", errno.EIO)
    found = {entry.relative: entry for entry in files.walk(rules)}
    assert found["maps/locked"] == files.Entry("maps/locked", "unreadable", errno=errno.EIO)
    assert "maps/locked/x.yaml" not in found
    assert scan_tree(rules).foreign == {
        "maps/locked": "a folder that cannot be listed (an input/output error (the disk or the file system))"
    }


def test_watch_sees_a_folder_locked_or_unlocked(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.cli.watcher import snapshot

    before = snapshot(rules)
    refuse(monkeypatch, rules / "maps" / "locked")
    after = snapshot(rules)
    assert "maps/locked/x.yaml" in before and "maps/locked/x.yaml" not in after
    assert after["maps/locked/"] == (0, errno.EACCES)


@pytest.mark.parametrize(
    ("number", "reason", "hint"),
    [
        (errno.EACCES, "permission denied", "check the file's permissions"),
        (errno.EIO, "an input/output error (the disk or the file system)", "check the disk"),
        (errno.ENAMETOOLONG, "the name is too long", "shorter name"),
    ],
)
def test_an_unreadable_file_says_its_reason_once_with_the_hint_for_it(
    rules: Path, monkeypatch: pytest.MonkeyPatch, number: int, reason: str, hint: str
) -> None:
    import json

    opened = os.open
    cards = rules / "cards" / "advanced-civilization.yaml"
    target = os.stat(cards)

    def refusing(path: str | Path, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        fd = opened(path, flags, mode, dir_fd=dir_fd)
        found = os.fstat(fd)
        if (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino):
            os.close(fd)
            raise OSError(number, os.strerror(number))
        return fd

    monkeypatch.setattr(os, "open", refusing)
    code, out = _validate(rules)
    monkeypatch.undo()
    assert code == 1
    (unreadable,) = [
        d for d in json.loads(out) if d["code"] == "L012" and d["file"].endswith("cards/advanced-civilization.yaml")
    ]
    assert unreadable["message"] == f"cannot read `{unreadable['file']}`: {reason}", unreadable
    assert hint in unreadable["hint"] and "regular YAML file" not in unreadable["hint"], unreadable


def test_a_rule_file_that_is_a_folder_or_a_fifo_gets_the_hint_for_it(tmp_path: Path) -> None:
    from civrules.load import read_yaml_file

    (tmp_path / "folder.yaml").mkdir()
    os.mkfifo(tmp_path / "pipe.yaml")
    (folder,) = read_yaml_file(tmp_path / "folder.yaml", "folder.yaml")[1]
    (fifo,) = read_yaml_file(tmp_path / "pipe.yaml", "pipe.yaml")[1]
    (missing,) = read_yaml_file(tmp_path / "gone.yaml", "gone.yaml")[1]
    assert (
        folder.message == "cannot read `folder.yaml`: it is a folder"
        and folder.hint
        and "name the files" in folder.hint
    )
    assert "a FIFO" in fifo.message and fifo.hint == "a rule file is a regular YAML file"
    assert (
        missing.message == "cannot read `gone.yaml`: no such file" and missing.hint and "check the path" in missing.hint
    )


@pytest.mark.parametrize(
    ("number", "remedy"),
    [(errno.EMFILE, "ulimit -n"), (errno.ENFILE, "fs.file-max"), (errno.EFBIG, "ulimit -f")],
    ids=["open-files", "system-open-files", "file-size"],
)
def test_a_limit_of_the_process_or_the_system_is_told_with_its_remedy_not_as_permissions(
    number: int, remedy: str
) -> None:
    """Out of file descriptors (`ulimit -n 8`: `build` stopped at "too many open files"), the hints
    said to check permissions and free space, or to make the file readable: nothing to find there."""
    from civrules.diagnostics.process import diagnose
    from civrules.emit.output import unwritable
    from civrules.load.reader import unreadable_file, unreadable_folder

    refused = OSError(number, os.strerror(number), "rules/cards/x.yaml")
    hints = {
        "L012 file": unreadable_file(files.RefusedError("unreadable", "", error=number), "rules/cards/x.yaml").hint,
        "L012 folder": unreadable_folder(number, "rules/maps").hint,
        "R007 build": unwritable(Path("generated"), refused).hint,
        "exit 2": diagnose(refused).diagnostic.hint,
    }
    for where, hint in hints.items():
        assert hint is not None and remedy in hint and "permission" not in hint, (where, hint)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["init", "{tmp}/repo"], marks=pytest.mark.slow, id="init"),  # 0.8 s: it writes the schemas
        pytest.param(["--rules", "rules", "new-variant", "mine", "--extends", "base"], id="new-variant"),
    ],
)
def test_init_and_new_variant_out_of_file_descriptors_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules" / "rulesets" / "base.yaml").write_text(
        # No `extends:`: the tests read no shipped ruleset, and new-variant refuses a base whose chain
        # names none (V001) before it writes.
        'kind: ruleset\nid: base\nname: "Base"\n',
        encoding="utf-8",
    )
    opened = os.open

    def exhausted(path: str | Path, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        nameless = getattr(os, "O_TMPFILE", 0)
        if flags & os.O_CREAT or (nameless and flags & nameless == nameless):  # a file made by name, or not
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE), str(path))
        return opened(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "open", exhausted)
    arguments = [argument.format(tmp=tmp_path) for argument in command]
    result = CliRunner().invoke(main, arguments)
    monkeypatch.undo()
    assert result.exit_code == 2, result.output
    assert "too many open files" in result.output and "ulimit -n" in result.output, result.output
    assert "permissions" not in result.output and "needs to write" not in result.output, result.output


@pytest.mark.parametrize("what", ["fifo", "file", "socket"])
def test_a_fifo_socket_or_file_where_a_folder_is_read_is_said_not_a_folder(tmp_path: Path, what: str) -> None:
    """A FIFO at `rules/rulesets` was "no ruleset manifests in `rules/rulesets`" (as if empty), and a
    FIFO at `rules/maps` was "cannot read `maps/x.yaml`: it is not a regular file", the file blamed
    for the folder on its way (round 33): each is named as what it is, not a folder."""
    import socket

    from civrules.load.workspace import Workspace

    def plant(path: Path) -> str:
        if what == "fifo":
            os.mkfifo(path)
            return "a FIFO (a named pipe)"
        if what == "file":
            path.write_text("x\n")
            return "a file"
        with socket.socket(socket.AF_UNIX) as bound:
            bound.bind(str(path))
        return "a socket"

    rules = tmp_path / "rules"
    rules.mkdir()
    said = plant(rules / "rulesets")
    workspace = Workspace(rules, shipped=False)
    assert workspace.manifests() == {}
    (r004,) = [d for d in workspace.discovery_diagnostics if d.code == "R004"]
    assert r004.message.startswith(f"`{workspace.display(rules / 'rulesets')}` is not a folder but {said}"), r004
    assert "no ruleset manifests" not in r004.message

    (rules / "rulesets").unlink()
    (rules / "rulesets").mkdir()
    (rules / "rulesets" / "t.yaml").write_text(
        "kind: ruleset\nid: t\nfamily: advanced-civilization\nfiles: {map: [maps/a.yaml]}\n"
    )
    plant(rules / "maps")
    read = Workspace(rules, shipped=False).load("maps/a.yaml")
    (l012,) = read.diagnostics
    assert l012.code == "L012" and l012.message.endswith(f"`maps` is not a folder but {said}"), l012
    assert l012.hint and "`maps` must be a folder" in l012.hint, l012


def _rewritten_while_read(monkeypatch: pytest.MonkeyPatch, file: Path, texts: list[bytes], *, every: bool) -> None:
    """Each read of ``file`` (the first only, unless ``every``) is followed by the file rewritten in
    place with the next of ``texts``, as a program saving it without a new file does."""
    target = os.stat(file)
    real = os.read
    count = [0]

    def read(fd: int, most: int) -> bytes:
        chunk = real(fd, most)
        found = os.fstat(fd)
        if (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino) and (every or count[0] == 0):
            text = texts[count[0] % len(texts)]
            count[0] += 1
            with open(file, "r+b") as rewriting:
                rewriting.write(text)
                rewriting.truncate()
        return chunk

    monkeypatch.setattr(os, "read", read)


def test_a_file_rewritten_in_place_while_it_is_read_is_read_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file saved in place while civrules read it gave the old file's first bytes and the new
    one's last: a text no one wrote, judged (a schema error at a line that is not there)."""
    file = tmp_path / "a.yaml"
    file.write_bytes(b"kind: map\nid: before\n")
    after = b"kind: map\nid: after\nname: longer than what was there before\n"
    _rewritten_while_read(monkeypatch, file, [after], every=False)
    assert files.read_under(tmp_path, "a.yaml", 1000) == after


def test_a_file_that_changes_each_time_it_is_read_is_said_being_written(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    cards = rules / "cards" / "advanced-civilization.yaml"
    text = cards.read_bytes()
    _rewritten_while_read(monkeypatch, cards, [text + b"# one\n", text + b"# three\n"], every=True)
    code, out = _validate(rules)
    monkeypatch.undo()
    assert code == 1
    cards_said, manifest_said = sorted(
        (d for d in json.loads(out) if d["code"] == "L012"),
        key=lambda d: d["file"].endswith("rulesets/advanced-civilization.yaml"),
    )
    assert cards_said["message"] == f"cannot read `{cards_said['file']}`: {files.CHANGING}", cards_said
    assert cards_said["hint"] == "run civrules again once the file is saved"
    assert manifest_said["message"] == f"`cards/advanced-civilization.yaml` cannot be read: {files.CHANGING}"
    assert files.CHANGING == "it changed each of the 4 times it was read (a program is writing it)"
