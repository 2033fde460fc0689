"""Threat: a run cut short, by a signal or by a bug in civrules, leaving a half-written tree or a traceback.

`civrules build` killed at random points (SIGKILL) leaves generated/ as the old tree or the new one,
never a mix, and the next build removes what the killed one left; Ctrl-C (SIGINT) exits 130 and
leaves nothing half-made; a bug in civrules (a crashing check, a crash outside the checks) exits 2
with a one-line apology that names the ruleset and asks for a report, the traceback only with --debug.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

import civrules.checks
from civrules.checks import Check
from civrules.checks.catalogue import all_checks
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Severity, codes
from civrules.emit.output import MARKER, MARKER_TEXT, read_tree, write_tree
from civrules.families.advanced_civilization.model import Ruleset
from civrules.load.workspace import Workspace
from civrules.support import cache, interrupts, streams
from tests.conftest import REPO, RULES, copy_rulesets, copy_shipped, default_sigint, no_gc_callbacks
from tests.security.helpers import civrules_command, killed_in_a_child, start_civrules, tree_of

RULESET = "advanced-civilization"
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
KILLS = (
    2  # builds killed in `make test`, each while it writes; `make test-slow` kills 20, half at any moment of their run
)
WRITE_DELAY = 0.03  # seconds per file written (tests/security/slow_writes.py): a window to kill in


def build_here(rules: Path, out: Path, *rulesets: str) -> dict[str, bytes]:
    """A build in this process, where a fresh interpreter is not the point."""
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", *rulesets, "--out", str(out)])
    assert result.exit_code == 0, result.stdout + result.stderr
    return read_tree(out)


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The rules after a one-fact change, and the trees a build writes before and after it."""
    root = tmp_path_factory.mktemp("faults")
    changed = root / "rules"
    copy_shipped(changed)
    cards = changed / "cards" / "advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "    cost: 45\n" in text
    cards.write_text(text.replace("    cost: 45\n", "    cost: 46\n", 1), encoding="utf-8")
    old = build_here(RULES, root / "old", RULESET)
    # The change is built over the old tree, as the killed builds are: a package's version moves from
    # the API manifest the old tree holds (into an empty folder every package would be 1.0.0).
    shutil.copytree(root / "old", root / "new")
    new = build_here(changed, root / "new", RULESET)
    assert old != new and set(old) == set(new)
    return changed, old, new


def kill_once(n: int, rules: Path, old_tree: Path, work: Path) -> tuple[str, bool]:
    """One build killed with SIGKILL: half of the time at a random moment of its run, half of the
    time at a random moment of its writing (once the staging directory appears). Returns what
    generated/ then holds and whether the kill came while files were being written."""
    chance = random.Random(n)
    out = work / f"run{n}" / "generated"
    shutil.copytree(old_tree, out)
    process = start_civrules(rules, "build", RULESET, "--out", str(out), seed=str(n), delay=WRITE_DELAY)
    writing = False
    if n % 2:
        time.sleep(chance.uniform(0.0, 2.5))
    else:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            if any(p.name.startswith(".generated.new-") for p in out.parent.iterdir()):
                time.sleep(chance.uniform(0.0, 14 * WRITE_DELAY))
                break
            time.sleep(0.005)
    if process.poll() is None:
        writing = any(p.name.startswith(".generated.new-") for p in out.parent.iterdir())
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    return ("killed" if process.returncode == -signal.SIGKILL else "finished"), writing


@pytest.mark.slow  # real processes killed at random points, about 2 s: with the slow tests, which CI runs too
def test_a_build_killed_at_random_points_leaves_the_old_tree_or_the_new_one(
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two builds, each killed at a random moment of its writing (even runs: see kill_once), the
    # kills that can leave a mix; the kills at any moment of a run are slow's twenty (tests/budget.py:
    # a fast test starts at most two interpreters).
    kill_builds(range(0, 2 * KILLS, 2), trees, tmp_path, capsys)


@pytest.mark.slow
def test_twenty_builds_killed_at_random_points_leave_the_old_tree_or_the_new_one(
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kill_builds(range(20), trees, tmp_path, capsys)


def kill_builds(
    numbers: range,
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules, old, new = trees
    old_tree = tmp_path / "old"
    for relative, content in old.items():
        (old_tree / relative).parent.mkdir(parents=True, exist_ok=True)
        (old_tree / relative).write_bytes(content)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda n: kill_once(n, rules, old_tree, tmp_path), numbers))
    kills = len(runs)
    seen = []
    for n, (how, _writing) in zip(numbers, runs, strict=True):
        tree = read_tree(tmp_path / f"run{n}" / "generated")
        state = "old" if tree == old else "new" if tree == new else "mixed"
        assert state != "mixed", f"run {n} ({how}): generated/ is neither the old tree nor the new one"
        seen.append(state)
    killed_writing = sum(1 for how, writing in runs if how == "killed" and writing)
    with capsys.disabled():
        print(
            f"\n{kills} builds, {sum(how == 'killed' for how, _ in runs)} killed ({killed_writing} while writing): "
            f"{seen.count('old')} left the old tree, {seen.count('new')} the new one, none a mix"
        )
    # the kills did land in the middle of writing (a quarter of slow's runs; one of fast's two, which
    # all wait for the writing to begin)
    assert killed_writing >= max(1, kills // 4), runs
    # A killed build leaves its staging directory beside generated/; the next build still succeeds.
    out = tmp_path / f"run{numbers[0]}" / "generated"
    assert build_here(rules, out, RULESET) == new


def test_a_killed_builds_staging_tree_is_removed_by_the_next_build(tmp_path: Path) -> None:
    from civrules.emit.output import MARKER, MARKER_TEXT, write_tree

    out = tmp_path / "generated"
    write_tree(out, {"a.txt": b"one"})
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    abandoned = tmp_path / f".generated.new-{dead.stdout.strip()}-x1y2"
    (abandoned / "python").mkdir(parents=True)
    (abandoned / MARKER).write_bytes(MARKER_TEXT)  # written first into every staging tree
    lookalike = tmp_path / f".generated.new-{dead.stdout.strip()}-committed"
    (lookalike / "python").mkdir(parents=True)
    (lookalike / "python" / "work.txt").write_text("not civrules'", encoding="utf-8")
    live = tmp_path / f".generated.new-{os.getppid()}-z3"  # made by a process still running, not yet locked
    live.mkdir()
    write_tree(out, {"a.txt": b"two"})
    assert not abandoned.exists()
    assert live.exists()  # a build still running is left alone
    assert (lookalike / "python" / "work.txt").exists()  # not marked: not civrules' to delete
    assert (out / "a.txt").read_bytes() == b"two"


def _held_by_another_writer(folder: Path) -> int:
    """A descriptor holding ``folder``'s lock as a running build holds its staging tree's (the lock
    is the open file's: one opened here conflicts with any other opening, in this process too)."""
    import fcntl

    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return descriptor


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_a_killed_builds_staging_tree_is_removed_whatever_process_now_has_its_number(tmp_path: Path) -> None:
    # A build killed as process 1 of a container (or as any number the next run is given again) left
    # its tree for good: the next run took it for its own, or for a build still running.
    out = tmp_path / "generated"
    write_tree(out, {"a.txt": b"one"})
    leftovers = []
    for pid in (os.getpid(), os.getppid(), 1):
        leftover = tmp_path / f".generated.new-{pid}-k{pid}"
        (leftover / "python").mkdir(parents=True)
        (leftover / MARKER).write_bytes(MARKER_TEXT)
        (leftover / "python" / "half.py").write_bytes(b"# cut short")
        leftovers.append(leftover)
    running = tmp_path / f".generated.new-{os.getpid()}-run"  # a build writing now: its lock is held
    (running / "python").mkdir(parents=True)
    (running / MARKER).write_bytes(MARKER_TEXT)
    held = _held_by_another_writer(running)
    try:
        write_tree(out, {"a.txt": b"two"})
    finally:
        os.close(held)
    assert [leftover.name for leftover in leftovers if leftover.exists()] == []
    assert (running / "python").is_dir()
    assert (out / "a.txt").read_bytes() == b"two"
    write_tree(out, {"a.txt": b"three"})  # let go of, it is a leftover like the others
    assert not running.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_an_old_tree_a_build_killed_between_its_two_renames_left_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where two folders cannot be swapped in one step (not Linux), the old tree is renamed away,
    # then the new one into place: a build killed between left `.generated.old-PID`, for good.
    from civrules.emit import output

    out = tmp_path / "generated"
    write_tree(out, {"a.txt": b"one"})
    monkeypatch.setattr(output, "_exchange", lambda _a, _b: False)
    renames: list[Path] = []
    rename = Path.rename

    def watched(source: Path, target: Any) -> Any:
        renames.append(Path(target))
        if Path(target).name.startswith(".generated.old-"):
            assert _held_is_taken(source)  # held from before it is renamed away until it is deleted
        return rename(source, target)

    monkeypatch.setattr(Path, "rename", watched)
    write_tree(out, {"a.txt": b"two"})
    assert [path.name for path in renames] == [f".generated.old-{os.getpid()}", "generated"]
    monkeypatch.undo()
    left = tmp_path / f".generated.old-{os.getppid()}"  # as a build killed there leaves it
    write_tree(left, {"a.txt": b"one"})
    write_tree(out, {"a.txt": b"three"})
    assert sorted(path.name for path in tmp_path.iterdir()) == ["generated"]


def _held_is_taken(folder: Path) -> bool:
    """Whether another writer holds ``folder``'s lock now."""
    import fcntl

    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_the_old_tree_swapped_out_is_held_until_it_is_deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Once swapped, the old tree bears the staging folder's name: another build cleaning up
    # leftovers then must not take it for one (and delete it under this build's feet).
    from civrules.emit import output

    out = tmp_path / "generated"
    write_tree(out, {"a.txt": b"one"})
    seen: list[str] = []
    discard = output._discard_old

    def looked_at(old: Path, root: Path) -> None:
        import fcntl

        descriptor = os.open(old, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append("free")
        except BlockingIOError:
            seen.append("held")
        finally:
            os.close(descriptor)
        assert (old / "a.txt").read_bytes() == b"one"
        discard(old, root)

    monkeypatch.setattr(output, "_discard_old", looked_at)
    write_tree(out, {"a.txt": b"two"})
    assert seen == ["held"]
    assert (out / "a.txt").read_bytes() == b"two"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["generated"]


def _meanwhile(monkeypatch: pytest.MonkeyPatch, root: Path, moment: str, make: Any) -> None:
    """Call ``make()`` once the staging tree for ``root`` is complete, just before the swap looks at
    ``root`` (``"before"``), or just after it found nothing there (``"after"``)."""
    from civrules.emit import output
    from civrules.support import files

    take, kind_of = output._take_metadata, files.kind_of
    armed: list[bool] = []

    def taken(staging: Path, target: Path, *, final: bool) -> None:
        take(staging, target, final=final)
        if final and target == root and not armed:
            armed.append(True)
            if moment == "before":
                make()

    def looked(parent: Path, name: str) -> str:
        found = kind_of(parent, name)
        if armed == [True] and moment == "after" and Path(parent, name) == root:
            armed.append(False)
            make()
        return found

    monkeypatch.setattr(output, "_take_metadata", taken)
    monkeypatch.setattr(files, "kind_of", looked)


@pytest.mark.parametrize("moment", ["before", "after"])
def test_a_tree_another_build_put_in_place_meanwhile_is_replaced_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    # Two builds into a new --out: both found it missing, and the later one's rename failed
    # ("directory not empty", exit 2) though a moment later it would have replaced the other's tree.
    out = tmp_path / "generated"
    _meanwhile(monkeypatch, out, moment, lambda: write_tree(out, {"a.txt": b"other", "b.txt": b"other"}))
    write_tree(out, {"a.txt": b"mine"})
    assert read_tree(out) == {"a.txt": b"mine", MARKER: MARKER_TEXT}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["generated"]


@pytest.mark.parametrize("moment", ["before", "after"])
def test_a_folder_made_meanwhile_that_civrules_did_not_write_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    # Judged replaceable when the write began (nothing there), the folder found at the swap was
    # exchanged and deleted whatever it had become.
    from civrules.emit import output

    out = tmp_path / "generated"
    _meanwhile(monkeypatch, out, moment, lambda: (out / "mine").mkdir(parents=True))
    with pytest.raises(output.OutputError) as refused:
        write_tree(out, {"a.txt": b"new"})
    assert "generated" in str(refused.value)
    assert [path.name for path in out.iterdir()] == ["mine"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["generated"]


# --- Ctrl-C: exit 130, nothing left half-written --------------------------------------------------


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.load import workspace

    def interrupted(self: Workspace) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(workspace.Workspace, "manifests", interrupted)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "list"])
    assert result.exit_code == 130
    # on standard error: `list` makes data, and its standard output holds it or nothing
    assert result.stderr.startswith("<command line>:1:1: error[R016]: interrupted (Ctrl-C)")
    assert "  hint: run the command again" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_ctrl_c_leaves_json_and_sarif_output_a_valid_document(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """Interrupted, `validate --format sarif` left standard output empty: a CI step that uploads it
    got a file of 0 bytes."""
    from civrules.load import workspace

    def interrupted(self: Workspace) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(workspace.Workspace, "manifests", interrupted)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "validate", "--format", fmt])
    assert result.exit_code == 130
    log = json.loads(result.stdout)
    if fmt == "json":
        assert [(d["code"], d["file"]) for d in log] == [("R016", "<command line>")]
        return
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert [n["descriptor"]["id"] for n in invocation["toolExecutionNotifications"]] == ["R016"]
    assert log["runs"][0]["results"] == []


def test_ctrl_c_while_the_command_line_is_read_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while click read the options became click's "Aborted!" and exit 1 (the rules have
    errors)."""
    from civrules import cli

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli._FolderName, "convert", interrupted)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "validate", "--format", "json"])
    assert result.exit_code == 130, result.output
    assert [d["code"] for d in json.loads(result.stdout)] == ["R016"]
    assert "Aborted" not in result.output


def test_ctrl_c_while_the_command_is_set_up_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while the group imported what runs the command (its first use, 1.4 ms) became
    click's "Aborted!" and exit 1: seen once in a full slow run, a Ctrl-C at a random moment of
    `validate --format sarif` (test_a_stop_signal_at_random_moments_of_validate_leaves_one_sarif_document)."""
    import importlib.abc
    import sys

    name = "civrules.support.commands"

    class Interrupting(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname: str, *args: Any) -> None:
            if fullname == name:
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    result = CliRunner().invoke(main, ["--rules", str(RULES), "validate", "--format", "json"])
    assert result.exit_code == 130, result.output
    assert [d["code"] for d in json.loads(result.stdout)] == ["R016"]
    assert "Aborted" not in result.output


@pytest.mark.parametrize(
    ("start", "code", "status"),
    [
        # Ctrl-C while the command line is imported (a fifth of a second at every start).
        ("raise KeyboardInterrupt", "R016", 130),
        # The console script imported click and PyYAML outside any handler.
        ("raise ModuleNotFoundError(\"No module named 'yaml'\", name='yaml')", "R910", 2),
    ],
)
def test_a_failure_while_civrules_starts_is_a_diagnostic_in_the_format_asked(
    start: str, code: str, status: int
) -> None:
    """What the console script runs (pyproject.toml's `project.scripts`), in a fresh interpreter: the
    import of civrules' command line fails the way the trial found it failing, in the middle of
    importing PyYAML. It printed a traceback, and a Ctrl-C killed the process (status -2, not 130)."""
    import tomllib

    target = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["civrules"]
    module, _, function = target.partition(":")
    program = (
        "import importlib.abc, sys\n"
        "class Failing(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'yaml':\n"
        f"            {start}\n"
        "sys.meta_path.insert(0, Failing())\n"
        f"from {module} import {function}\n"
        f"sys.exit({function}())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "--rules", str(RULES), "validate", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
        preexec_fn=default_sigint,
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr and done.stderr == "", done.stderr
    (said,) = json.loads(done.stdout)
    assert (said["code"], said["file"]) == (code, "<command line>") and said["hint"], said


def test_no_python_code_runs_when_a_memos_object_goes() -> None:
    """A Ctrl-C that landed in a memo's weak-reference callback (Python acts on a signal at the next
    bytecode, wherever it is) was printed as "Exception ignored ... KeyboardInterrupt", and the build
    went on to exit 0. The callbacks are now a list's `append`: no bytecode of theirs to land in."""
    from civrules.support import memo

    class Key:
        pass

    attached: memo.Attached[Key, int] = memo.Attached()
    by_identity = memo.by_identity(4)(lambda argument: 1)
    key, other = Key(), Key()
    attached.put(key, 1)
    assert by_identity(other) == 1
    called: list[str] = []

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            called.append(frame.f_code.co_name)
        return None

    sys.settrace(trace)
    try:
        del key, other  # each entry's object goes: its callback runs
    finally:
        sys.settrace(None)
    assert called == []
    assert len(attached) == 0  # the entry is dropped at the memo's next use


def test_a_ctrl_c_python_cannot_raise_still_ends_the_command_in_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt in any weak-reference callback, ``__del__`` or collected generator is one
    Python prints and drops: the command then exits 130 when it returns, not 0."""
    import weakref

    from civrules.load import workspace
    from civrules.support import interrupts

    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)  # pytest's, restored after
    interrupts.catch_lost()  # as the program's entry point does (civrules.launch)
    manifests = workspace.Workspace.manifests

    class Going:
        pass

    def interrupted_in_a_callback(self: Workspace) -> Any:
        def callback(ref: Any) -> None:
            raise KeyboardInterrupt  # as Python raises it at the callback's first bytecode

        going = Going()
        ref = weakref.ref(going, callback)
        del going
        assert ref() is None  # the callback ran, and its KeyboardInterrupt went nowhere
        return manifests(self)

    monkeypatch.setattr(workspace.Workspace, "manifests", interrupted_in_a_callback)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "list", "--format", "json"])
    assert result.exit_code == 130, result.output
    assert json.loads(result.stdout)  # the list it printed whole stays one document
    assert [d["code"] for d in json.loads(result.stderr)] == ["R016"]


def test_the_command_line_called_in_process_keeps_the_host_programs_unraisable_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hook that keeps a dropped Ctrl-C is the program's (civrules.launch): a host that calls
    the command line in process keeps its own, which a later ``__del__``'s errors still reach."""

    def host(unraisable: Any) -> None:
        pass

    monkeypatch.setattr(sys, "unraisablehook", host)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert sys.unraisablehook is host


def default_stop_signals() -> None:
    """``preexec_fn`` of a child that must stop on Ctrl-C, SIGTERM and SIGHUP, whatever dispositions
    this run inherited (a test runner started under `nohup`, or as a background job)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("signum", "words"),
    [
        (signal.SIGINT, "interrupted (Ctrl-C)"),
        # What CI sends a cancelled job and `timeout` sends: the process died of it, without a word, and
        # its staging folder stayed beside the output.
        (signal.SIGTERM, "interrupted (SIGTERM, as `kill`, `timeout` or a cancelled CI job sends)"),
        pytest.param(signal.SIGHUP, "interrupted (SIGHUP, as a closed terminal sends)", marks=pytest.mark.slow),
    ],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_a_stop_signal_while_writing_is_r016_and_leaves_the_previous_tree(
    tmp_path: Path, signum: signal.Signals, words: str
) -> None:
    out = tmp_path / "generated"
    write_tree(out, {"old.txt": b"old"})
    env = {**os.environ, "CIVRULES_CACHE_DIR": ""}
    process = subprocess.Popen(
        [*civrules_command(0.05), "--rules", str(RULES), "build", "imperial-settlers", "--out", str(out)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=default_stop_signals,
    )
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if any(p.name.startswith(".generated.new-") for p in tmp_path.iterdir()):
            break
        time.sleep(0.01)
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, stderr.decode()
    assert stdout.decode().startswith(f"<command line>:1:1: error[R016]: {words}: "), stdout.decode()
    assert tree_of(out) == {MARKER: MARKER_TEXT, "old.txt": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]


def _interrupt_right_after(make: Any) -> Any:
    """``make`` (tempfile.mkdtemp, or the cache's maker of a new file) that sends this process
    Ctrl-C the moment it returns: the signal lands where it once left the temporary folder or
    file behind."""

    def made(*args: Any, **kwargs: Any) -> Any:
        result = make(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return result

    return made


@pytest.mark.usefixtures("sigint_default")
def test_ctrl_c_just_after_the_staging_folder_is_made_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write_tree(out, {"old.txt": b"old"})
    monkeypatch.setattr("civrules.emit.output.tempfile.mkdtemp", _interrupt_right_after(tempfile.mkdtemp))
    with pytest.raises(KeyboardInterrupt):
        write_tree(out, {"new.txt": b"new"})
    assert tree_of(out) == {MARKER: MARKER_TEXT, "old.txt": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generated"]


@pytest.mark.usefixtures("sigint_default")
def test_ctrl_c_just_after_a_cache_entry_is_begun_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_new_file", _interrupt_right_after(cache._new_file))
    with pytest.raises(KeyboardInterrupt):
        cache.write("entry", b"data")
    assert list((tmp_path / "cache").iterdir()) == []


# --- SIGTERM and SIGHUP: stopped as by Ctrl-C, with their own status -------------------------------


@pytest.fixture
def program(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The stop signals handled in this test as the program's entry point (civrules.launch) has
    them handled; this process's handlers and civrules' state put back after it."""
    saved = {signum: signal.getsignal(signum) for signum in interrupts.STOP_SIGNALS}
    for name in ("_PROGRAM", "_FINISHING", "_NOTED"):
        monkeypatch.setattr(interrupts, name, [])
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # catch_lost replaces it
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as Python starts a program
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        with no_gc_callbacks():  # a signal this test sends lands in civrules, not in hypothesis's
            yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


@pytest.mark.usefixtures("program")
def test_the_program_raises_sigterm_and_sighup_as_ctrl_c_until_the_command_is_done() -> None:
    """SIGTERM and SIGHUP ended the process at once (their default actions): no diagnostic, an
    empty json or sarif document, a staging folder left. They are now raised as Ctrl-C is, so every
    clean-up of Ctrl-C's runs for them too; and once the command is done, all three are noted for
    the entry point to say, not raised where nothing would catch them."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # started under `nohup`: left ignored
    interrupts.stop_on_signals()
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    interrupts._PROGRAM.clear()
    interrupts.stop_on_signals()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(interrupts.Stopped) as stopped:
            signal.raise_signal(signum)
        assert isinstance(stopped.value, KeyboardInterrupt) and stopped.value.signum == signum
    with pytest.raises(KeyboardInterrupt) as interrupted:
        signal.raise_signal(signal.SIGINT)
    assert not isinstance(interrupted.value, interrupts.Stopped)
    finished = []

    def held_back() -> None:
        with interrupts.deferred():  # as while a staging folder is made: raised after the block
            signal.raise_signal(signal.SIGTERM)
            finished.append(True)

    with pytest.raises(interrupts.Stopped):
        held_back()
    assert finished == [True]
    interrupts.finishing()
    for signum in (signal.SIGHUP, signal.SIGINT):
        signal.raise_signal(signum)
    assert interrupts.noted() == signal.SIGHUP


def test_holding_the_signals_back_sets_and_puts_back_the_handlers_without_the_enum_wrappers() -> None:
    """A build holds the stop signals back around each file it writes (its sync handed over): reading
    and setting three handlers through :mod:`signal`'s wrappers, which convert each handler to and
    from an enum, cost about 370 counted steps a block (33 µs: 3 ms of a build); now about 85. The
    handlers are put back as they were, and a signal held back is still acted on after the block."""
    from tests.security.test_check_growth import calls_made

    before = {signum: signal.getsignal(signum) for signum in interrupts.STOP_SIGNALS}
    caught: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: caught.append(signum))
    try:
        with interrupts.deferred():
            signal.raise_signal(signal.SIGTERM)
            assert caught == []
        assert caught == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert {signum: signal.getsignal(signum) for signum in interrupts.STOP_SIGNALS} == before

    def held() -> None:
        for _ in range(10):
            with interrupts.deferred():
                pass

    assert calls_made(held) <= 10 * 150


@pytest.mark.parametrize(("signum", "fmt"), [(signal.SIGTERM, "json"), (signal.SIGHUP, "sarif")], ids=["TERM", "HUP"])
def test_sigterm_and_sighup_are_r016_naming_the_signal_with_status_128_and_its_number(
    monkeypatch: pytest.MonkeyPatch, signum: signal.Signals, fmt: str
) -> None:
    """`timeout -s TERM 0.3 civrules validate --format sarif > t.sarif` left 0 bytes in t.sarif."""
    from civrules.load import workspace

    def stopped(self: Workspace) -> Any:
        raise interrupts.Stopped(signum)

    monkeypatch.setattr(workspace.Workspace, "manifests", stopped)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "validate", "--format", fmt])
    assert result.exit_code == 128 + signum
    log = json.loads(result.stdout)
    if fmt == "json":
        ((code, message),) = [(d["code"], d["message"]) for d in log]
    else:
        jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
        (invocation,) = log["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is False
        ((code, message),) = [
            (n["descriptor"]["id"], n["message"]["text"]) for n in invocation["toolExecutionNotifications"]
        ]
    assert code == "R016" and message.startswith(f"interrupted ({signum.name}, as "), message


@pytest.mark.parametrize(
    ("stop", "status"),
    [(KeyboardInterrupt(), 130), (interrupts.Stopped(signal.SIGTERM), 143), (interrupts.Stopped(signal.SIGHUP), 129)],
    ids=["INT", "TERM", "HUP"],
)
def test_watch_ends_on_a_stop_signal_with_its_status(
    monkeypatch: pytest.MonkeyPatch, stop: KeyboardInterrupt, status: int
) -> None:
    """`watch` ends quietly on Ctrl-C (exit 130); SIGTERM ended it the same, or killed it."""

    def watching(*args: Any, **kwargs: Any) -> None:
        raise stop

    monkeypatch.setattr("civrules.cli.watcher.watch", watching)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "watch"])
    assert (result.exit_code, result.stdout, result.stderr) == (status, "", "")


@pytest.mark.parametrize(
    ("stop", "words"),
    [(KeyboardInterrupt(), "Ctrl-C"), (interrupts.Stopped(signal.SIGTERM), "SIGTERM, ")],
    ids=["INT", "TERM"],
)
def test_the_language_server_stopped_says_so_on_standard_error_not_in_the_protocol(
    monkeypatch: pytest.MonkeyPatch, stop: KeyboardInterrupt, words: str
) -> None:
    """Standard output is the language server's channel to the editor: R016 was printed into it,
    after the last message. It goes to standard error (the server's log), with the signal's status."""

    def serving(*args: Any, **kwargs: Any) -> int:
        raise stop

    monkeypatch.setattr("civrules.lsp.server.serve", serving)
    result = CliRunner().invoke(main, ["--rules", str(RULES), "lsp"])
    assert result.exit_code == 128 + interrupts.signal_of(stop)
    assert result.stdout == ""
    assert result.stderr.startswith(f"<command line>:1:1: error[R016]: interrupted ({words}"), result.stderr


@pytest.mark.slow
def test_the_language_server_ends_on_sigterm_without_a_traceback() -> None:
    """An editor ends its server with SIGTERM: the process died of it; on Ctrl-C its reader thread
    could print a traceback as the event loop closed under it."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}}
    ).encode()
    process = subprocess.Popen(
        [sys.executable, "-m", "civrules", "--rules", str(RULES), "lsp"],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=default_stop_signals,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    process.stdin.flush()
    header = process.stdout.readline()  # the answer to `initialize` has begun: the server is serving
    assert header.startswith(b"Content-Length: "), header
    process.send_signal(signal.SIGTERM)
    rest, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr.decode()
    said = stderr.decode()
    assert said.startswith("<command line>:1:1: error[R016]: interrupted (SIGTERM, "), said
    assert "Traceback" not in said and "Exception" not in said
    assert b"R016" not in header + rest


# --- A stop signal as civrules ends: said, with its status, never death by the signal ---------------

#: A command whose output is one document, and where a Ctrl-C is sent as it ends.
_LATE = {
    # Its last step, its document printed.
    "command": (
        "import civrules.cli as cli\n"
        "listed = cli.list_command.callback\n"
        "def then_stopped(*args, **kwargs):\n"
        "    listed(*args, **kwargs)\n"
        "    signal.raise_signal(signal.SIGINT)\n"
        "cli.list_command.callback = then_stopped\n"
    ),
    # click's clean-up once the command returned (click made it "Aborted!" and exit 1).
    "click": (
        "import click\n"
        "close = click.Context.close\n"
        "def closing(self):\n"
        "    close(self)\n"
        "    if self.parent is None:\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "click.Context.close = closing\n"
    ),
    # Python's shutdown, which gave the signals their default actions back (status -2, no word).
    "shutdown": "import atexit\natexit.register(signal.raise_signal, signal.SIGINT)\n",
}


@pytest.mark.parametrize("moment", list(_LATE))
def test_ctrl_c_as_civrules_ends_is_said_on_standard_error_and_exits_130(moment: str) -> None:
    program = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        f"{_LATE[moment]}"
        "from civrules.launch import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "--rules", str(RULES), "list", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 130, done.stderr
    assert [row["id"] for row in json.loads(done.stdout)] == sorted(row["id"] for row in json.loads(done.stdout)) != []
    (said,) = json.loads(done.stderr)  # the list stays one document; R016 is said beside it
    assert said["code"] == "R016" and said["message"].startswith("interrupted (Ctrl-C)"), said


def test_a_failure_after_the_document_outside_the_command_line_is_said_on_standard_error() -> None:
    """A failure the command line cannot catch (in click's clean-up, once the command printed its
    list) was reported by the entry point on standard output, after the list: two documents."""
    program = (
        "import click\n"
        "close = click.Context.close\n"
        "def closing(self):\n"
        "    close(self)\n"
        "    if self.parent is None:\n"
        "        raise RuntimeError('boom')\n"
        "click.Context.close = closing\n"
        "from civrules.launch import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "--rules", str(RULES), "list", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert [row["id"] for row in json.loads(done.stdout)] != []  # the list, one document
    (said,) = json.loads(done.stderr)
    assert said["code"] == "R900", said


#: A command line whose last line (`wrote N files`, `is up to date`) is followed at once by a Ctrl-C,
#: as a user (or the sweep below) sends one on seeing it: the moment chosen, not left to the machine.
_STOPPED_ON_ITS_LAST_LINE = (
    "import signal\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "import civrules.cli as cli\n"
    "note = cli._note\n"
    "def then_stopped(message):\n"
    "    note(message)\n"
    "    if any(last in message for last in (' wrote ', ' is up to date', ' holds the schemas')):\n"
    "        signal.raise_signal(signal.SIGINT)\n"
    "cli._note = then_stopped\n"
    "from civrules.launch import main\n"
    "main()\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["build", "schemas"])
def test_ctrl_c_once_a_command_said_it_wrote_its_output_is_said_on_standard_error(tmp_path: Path, command: str) -> None:
    """Seen in the random sweep below on a loaded machine: a Ctrl-C after `civrules: ... is up to
    date` came while click was still unwinding the command, and was said on standard output as
    cutting it short ("run the command again to finish it"), though the command had said it was
    done. Sent as each line is written, here: the first run writes, the second finds it up to date."""
    out = tmp_path / "out"
    words = ["build", "imperial-settlers"] if command == "build" else ["schemas"]
    for expected in ("wrote ", "up to date" if command == "build" else "holds the"):
        done = subprocess.run(
            [sys.executable, "-c", _STOPPED_ON_ITS_LAST_LINE, "--rules", str(RULES), *words, "--out", str(out)]
            + (["--check"] if expected == "holds the" else []),
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=300,
            check=False,
        )
        assert expected in done.stderr, done.stderr
        assert done.returncode == 130, done.stdout + done.stderr
        assert "R016" not in done.stdout, done.stdout  # the command's report is its own
        said = done.stderr.split(expected, 1)[1]
        assert "error[R016]: interrupted (Ctrl-C) as civrules was ending, after its output was written" in said, said
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


#: The same, sent after the line named by the program's first argument (which is left out of the
#: command line): the last line of a command that reports and exits.
_STOPPED_AFTER = (
    "import signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "import civrules.cli as cli\n"
    "last = sys.argv.pop(1)\n"
    "note, echo = cli._note, cli.click.echo\n"
    "def then_stopped(message=None, *args, **kwargs):\n"
    "    (echo if args or kwargs else note)(message, *args, **kwargs)\n"
    "    if isinstance(message, str) and last in message:\n"
    "        signal.raise_signal(signal.SIGINT)\n"
    "cli._note = then_stopped\n"
    "cli.click.echo = then_stopped\n"
    "from civrules.launch import main\n"
    "main()\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("words", "last"),
    [
        pytest.param(["validate", "imperial-settlers"], " errors, ", id="validate"),
        pytest.param(["build", "house", "--out", "out"], "not built, the rules have errors", id="build-failing"),
        pytest.param(["sheets", "house", "--out", "out"], "civrules: 1 error, ", id="sheets-failing"),
    ],
)
def test_ctrl_c_after_the_last_line_of_a_report_is_said_as_coming_once_it_was_written(
    tmp_path: Path, words: list[str], last: str
) -> None:
    """Round 30 closed the gap after build's `wrote N files`; `validate`'s count line (and the
    report of a command that fails and writes nothing) still had one: a Ctrl-C after it printed R016
    on standard output, after the report, saying to run the command again to finish it."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers")
    house = "kind: ruleset\nid: house\nname: house\nextends: imperial-settlers\noverlay:\n  settings:\n"
    house += '    starting_hand: {common: -3, source: "house rule"}\n'
    (rules / "rulesets" / "house.yaml").write_text(house, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _STOPPED_AFTER, last, "--rules", str(rules), *words],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 130, done.stdout + done.stderr
    assert "R016" not in done.stdout, done.stdout  # the command's report is its own
    said = "error[R016]: interrupted (Ctrl-C) as civrules was ending, after its output was written"
    assert said in done.stderr and "run the command again to finish it" not in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_ctrl_c_at_random_moments_after_a_build_never_kills_civrules(tmp_path: Path) -> None:
    """The trial's sweep: Ctrl-C 0-20 ms after `civrules: wrote N files`, in the fifth of a second
    Python's shutdown took, ended all 15 of 15 runs by SIGINT (status -2)."""
    chance = random.Random(18)
    out = tmp_path / "out"
    statuses = []
    for _ in range(15):
        process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(RULES), "build", "imperial-settlers", "--out", str(out)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=default_stop_signals,
        )
        assert process.stderr is not None
        for line in process.stderr:
            if b"wrote" in line or b"up to date" in line:
                time.sleep(chance.uniform(0, 0.02))
                process.send_signal(signal.SIGINT)
                break
        _, stderr = process.communicate(timeout=120)
        statuses.append(process.returncode)
        assert process.returncode in (0, 130), stderr.decode()  # done before the signal came, or said
        assert ("error[R016]" in stderr.decode()) == (process.returncode == 130), stderr.decode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def wait_until_started(process: subprocess.Popen[bytes]) -> None:
    """Wait until civrules in ``process`` handles SIGTERM (Linux's /proc says which signals a
    process catches): its entry point has begun. Before, the interpreter is starting, and a signal
    has its default action."""
    status = Path(f"/proc/{process.pid}/status")
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        caught = next((line for line in status.read_text().splitlines() if line.startswith("SigCgt:")), "SigCgt: 0")
        if int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.005)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["INT", "TERM", "HUP"])
def test_a_stop_signal_at_random_moments_of_validate_leaves_one_sarif_document(signum: signal.Signals) -> None:
    """What CI uploads: `validate --format sarif > t.sarif` stopped at any moment once civrules has
    started is one valid log."""
    chance = random.Random(int(signum))
    validator = jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    for _ in range(6):
        process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(RULES), "validate", "--format", "sarif"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=default_stop_signals,
        )
        wait_until_started(process)
        time.sleep(chance.uniform(0.0, 2.5))
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode in (0, 128 + signum), stderr.decode()
        log = json.loads(stdout)
        validator.validate(log)
        (invocation,) = log["runs"][0]["invocations"]
        notified = [n["descriptor"]["id"] for n in invocation.get("toolExecutionNotifications", [])]
        # Stopped once the log was written whole: R016 is said on standard error, in the format
        # asked for (a SARIF log of its own), not in the log already written.
        late = _notified_in_sarif(stderr.decode()) == ["R016"]
        assert (notified == ["R016"] or late) == (process.returncode != 0), (notified, stderr.decode())


def _notified_in_sarif(text: str) -> list[str]:
    """The codes a SARIF log in ``text`` notifies of (none where ``text`` is no SARIF log)."""
    try:
        log = json.loads(text)
    except ValueError:
        return []
    if not isinstance(log, dict) or not log.get("runs"):
        return []
    (invocation,) = log["runs"][0]["invocations"]
    return [n["descriptor"]["id"] for n in invocation.get("toolExecutionNotifications", [])]


# --- A bug in civrules: exit 2, one line that asks for a report, the traceback only with --debug ---


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
    apology = result.stdout.splitlines()[0]
    assert apology == (
        "<command line>:1:1: error[R900]: internal error (RuntimeError: boom with a second line) on ruleset "
        f"`{RULESET}`: a bug in civrules, not in your rules"
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
    # `build` reports on standard output; `export` makes data, and reports on standard error
    assert "error[R900]" in (result.stdout if args[0] == "build" else result.stderr)
    assert "Traceback" not in result.stdout + result.stderr


def test_a_crash_outside_the_checks_is_one_line_and_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*_: object) -> None:
        raise ValueError("a\nmulti-line\nmessage")

    monkeypatch.setattr("civrules.resolve.Resolver.resolve", explode)
    result = invoke("validate", RULESET)
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        f"<command line>:1:1: error[R900]: internal error (ValueError: a multi-line message) on ruleset `{RULESET}`: "
        "a bug in civrules, not in your rules",
        "  hint: please report it with the command you ran and the output of --debug",
    ]
    assert result.stderr == "civrules: 1 error, 0 warnings, 0 infos\n"
    result = invoke("--debug", "validate", RULESET)
    assert result.exit_code == 2
    assert "Traceback (most recent call last)" in result.stderr
    assert "output of --debug" not in result.stdout


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


@pytest.mark.usefixtures("sigint_default")
def test_ctrl_c_while_the_sync_threads_start_leaves_the_tree_removable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C that came while a build's sync threads were being started left a thread made and not
    started, and removing the staging tree joined it: "cannot join thread before it is started", an
    internal error (exit 2) where Ctrl-C is 130. The interrupt is now held back until they run."""
    import threading

    from civrules.emit.output import StagedTree

    start = threading.Thread.start
    calls = 0

    def interrupted_start(thread: threading.Thread) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:  # Ctrl-C between the first thread's start and the second's
            os.kill(os.getpid(), signal.SIGINT)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", interrupted_start)
    tree = StagedTree(tmp_path / "generated")
    with pytest.raises(KeyboardInterrupt):
        tree["a.txt"] = b"a"
    monkeypatch.setattr(threading.Thread, "start", start)
    tree.discard()  # joins every thread it started: no error, nothing left beside the output folder
    assert [p.name for p in tmp_path.iterdir()] == []


# --- A stop signal while a document is written to a full pipe ---------------------------------------


def _small_pipe() -> tuple[int, int, int]:
    """A pipe whose buffer holds one page: a document of a few kilobytes fills it. Its read end,
    write end and capacity."""
    import fcntl

    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    return read, write, fcntl.fcntl(write, fcntl.F_GETPIPE_SZ)


def _unread(fd: int) -> int:
    """The bytes waiting in the pipe whose read end is ``fd``."""
    import array
    import fcntl
    import termios

    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def _rules_with_errors(root: Path, count: int) -> Path:
    """A rules tree of one manifest with ``count`` unknown keys: a list of diagnostics of some kilobytes."""
    rules = root / "rules"
    (rules / "rulesets").mkdir(parents=True)
    keys = "".join(f"k{n}: {n}\n" for n in range(count))
    (rules / "rulesets" / "x.yaml").write_text(f"kind: ruleset\nid: x\n{keys}", encoding="utf-8")
    return rules


@pytest.mark.skipif(not hasattr(signal, "pthread_kill") or sys.platform != "linux", reason="needs Linux's pipes")
@pytest.mark.parametrize(
    ("signum", "fmt"), [(signal.SIGINT, "json"), (signal.SIGTERM, "sarif")], ids=["INT-json", "TERM-sarif"]
)
@pytest.mark.usefixtures("program")
def test_a_stop_signal_while_a_document_is_written_to_a_full_pipe_leaves_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: signal.Signals, fmt: str
) -> None:
    """`timeout 2 civrules validate --format sarif | (sleep 4; python3 -m json.tool)`: the signal
    came while the document's first write waited on a full pipe; the bytes it had written were not
    counted, so R016 followed the cut document on standard output, a second document. The document
    is now written whole first, and R016 said on standard error, with the signal's status."""
    import threading

    interrupts.stop_on_signals()  # SIGTERM raised as the program has it raised, not the default death
    rules = _rules_with_errors(tmp_path, 20)
    read, write, capacity = _small_pipe()
    stdout = io.TextIOWrapper(streams.Whole(streams.WholeWrites(write)), encoding="utf-8")
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    main_thread = threading.get_ident()
    received: list[bytes] = []
    ended = threading.Event()

    def reader() -> None:
        # Nothing is read until the pipe is full (civrules is waiting in its write) and the signal sent.
        while _unread(read) < capacity and not ended.is_set():
            time.sleep(0.001)
        if not ended.is_set():
            signal.pthread_kill(main_thread, signum)
        while chunk := os.read(read, 65536):
            received.append(chunk)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with pytest.raises(SystemExit) as exited:
            main.main(["--rules", str(rules), "--no-shipped", "validate", "--format", fmt], prog_name="civrules")
    finally:
        ended.set()
        with contextlib.suppress(OSError, ValueError):
            stdout.flush()
        os.close(write)
        thread.join()
        os.close(read)
    assert exited.value.code == 128 + signum, stderr.getvalue()
    document = b"".join(received)
    assert len(document) > capacity  # the pipe was full: the signal came during the write
    log = json.loads(document)  # one document, whole
    if fmt == "json":
        assert len(log) >= 20 and "R016" not in {d["code"] for d in log}, log
        (said,) = json.loads(stderr.getvalue())
        assert said["code"] == "R016", said
    else:
        jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
        assert len(log["runs"][0]["results"]) >= 20
        assert "toolExecutionNotifications" not in log["runs"][0]["invocations"][0]
        (invocation,) = json.loads(stderr.getvalue())["runs"][0]["invocations"]
        assert [n["descriptor"]["id"] for n in invocation["toolExecutionNotifications"]] == ["R016"]


@pytest.mark.skipif(not hasattr(signal, "pthread_kill") or sys.platform != "linux", reason="needs Linux's pipes")
@pytest.mark.usefixtures("sigint_default")
def test_output_waiting_on_a_full_pipe_counts_as_begun_when_a_signal_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count of bytes written was kept after `os.write` returned; a Ctrl-C that came while it
    waited on a full pipe was raised as it returned, so 4 KiB in the pipe counted as nothing
    written, and R016 was printed after them as a second document."""
    import threading

    read, write, capacity = _small_pipe()
    raw = streams.WholeWrites(write)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(streams.Whole(raw), encoding="utf-8"))
    main_thread = threading.get_ident()
    received: list[bytes] = []

    def reader() -> None:
        while _unread(read) < capacity:
            time.sleep(0.001)
        signal.pthread_kill(main_thread, signal.SIGINT)
        while chunk := os.read(read, 65536):
            received.append(chunk)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            raw.write(b"x" * (3 * capacity))
        assert streams.stdout_begun()
    finally:
        os.close(write)
        thread.join()
        os.close(read)
    assert len(b"".join(received)) >= capacity


@pytest.mark.skipif(not hasattr(signal, "pthread_kill") or sys.platform != "linux", reason="needs Linux's pipes")
@pytest.mark.usefixtures("program")
def test_a_second_stop_signal_while_a_document_waits_on_a_full_pipe_stops_civrules_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader that never reads would hold civrules forever: the first stop signal waits for the
    document to be written, a second one stops civrules where it is. The document is cut, and
    R016 is said on standard error, never after it as a second document."""
    import threading

    interrupts.stop_on_signals()
    rules = _rules_with_errors(tmp_path, 20)
    read, write, capacity = _small_pipe()
    stdout = io.TextIOWrapper(streams.Whole(streams.WholeWrites(write)), encoding="utf-8")
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    main_thread = threading.get_ident()
    ended = threading.Event()
    received: list[bytes] = []

    def reader() -> None:
        while _unread(read) < capacity and not ended.is_set():
            time.sleep(0.001)
        if not ended.is_set():
            signal.pthread_kill(main_thread, signal.SIGINT)
            signal.pthread_kill(main_thread, signal.SIGTERM)
        ended.wait()  # read only once civrules has stopped
        while chunk := os.read(read, 65536):
            received.append(chunk)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with pytest.raises(SystemExit) as exited:
            main.main(["--rules", str(rules), "--no-shipped", "validate", "--format", "json"], prog_name="civrules")
    finally:
        ended.set()
        with contextlib.suppress(OSError, ValueError):
            stdout.flush()
        os.close(write)
        thread.join()
        os.close(read)
    assert exited.value.code == 130, stderr.getvalue()
    cut = b"".join(received)
    assert len(cut) == capacity and b"R016" not in cut
    (said,) = json.loads(stderr.getvalue())
    assert said["code"] == "R016" and said["message"].startswith("interrupted (Ctrl-C)"), said


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="needs Linux's pipes")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_the_program_stopped_while_its_document_waits_on_a_full_pipe_prints_it_whole(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """The audit's `timeout 2 civrules validate --format sarif | (sleep 4; python3 -m json.tool)`,
    as a program: the pipe is read only once the signal was sent."""
    rules = _rules_with_errors(tmp_path, 20)
    read, write, capacity = _small_pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(rules), "--no-shipped", "validate", "--format", "sarif"],
            cwd=REPO,
            stdout=write,
            stderr=subprocess.PIPE,
            preexec_fn=default_stop_signals,
        )
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as reader:
        while _unread(reader.fileno()) < capacity and process.poll() is None:
            time.sleep(0.005)
        assert process.poll() is None  # civrules waits in its write: the document is larger than the pipe
        process.send_signal(signum)
        document = reader.read()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, stderr.decode()
    log = json.loads(document)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    assert len(log["runs"][0]["results"]) >= 20
    (invocation,) = json.loads(stderr)["runs"][0]["invocations"]
    assert [n["descriptor"]["id"] for n in invocation["toolExecutionNotifications"]] == ["R016"]


# --- A Ctrl-C a test sends itself lands in the test, never in a garbage collector's callback -------


@pytest.fixture
def collector_callback() -> Iterator[list[str]]:
    """A Python callback of the garbage collector, installed before the test's other fixtures (as
    hypothesis installs its own in the first process that runs a ``@given`` test); the phases it
    ran in, listed."""
    import gc

    ran: list[str] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        ran.append(phase)

    gc.callbacks.insert(0, callback)
    try:
        yield ran
    finally:
        gc.callbacks.remove(callback)


@pytest.mark.parametrize("fixture", ["sigint_default", "program"])
def test_a_ctrl_c_the_test_sends_itself_is_raised_in_its_code(
    collector_callback: list[str], fixture: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hypothesis's callback of the garbage collector ran Python code in the middle of the signal
    tests: a Ctrl-C sent while a collection ran it was raised there, and "Exception ignored in:
    <function gc_callback ...> KeyboardInterrupt" was printed at the end of full runs. Each
    Ctrl-C a thread sends to the main thread while it collects is now raised in the test's code, and
    none is lost (before: about one in two)."""
    import gc
    import threading

    request.getfixturevalue(fixture)
    lost: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: lost.append(unraisable.exc_value))
    main_thread, raised = threading.get_ident(), 0
    for _ in range(50):
        collecting, sent = threading.Event(), threading.Event()

        def send() -> None:
            collecting.wait()  # noqa: B023 - each sender waits for its own round
            signal.pthread_kill(main_thread, signal.SIGINT)
            sent.set()  # noqa: B023

        sender = threading.Thread(target=send)
        sender.start()
        try:
            collecting.set()
            while not sent.is_set():  # the main thread collects until the signal is sent (and after)
                cycle: list[object] = []
                cycle.append(cycle)
                gc.collect(0)
            for _ in range(1000):  # a Python signal handler runs within a few bytecodes of its signal
                gc.collect(0)
        except KeyboardInterrupt:
            raised += 1
        sender.join()
    assert lost == []
    assert raised == 50
    assert collector_callback == []  # it never ran while the test sent signals


def test_the_temporary_files_of_cache_writers_that_were_killed_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed between making an entry's temporary file and putting it in place left
    `.tmp-*` in the cache for good. The next run's first entry removes those no process holds
    (at most cache.MOST_LEFTOVERS of them); one a writer holds is left alone."""
    import fcntl

    folder = tmp_path / "cache"
    most = getattr(cache, "MOST_LEFTOVERS", 64)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache, "_SWEPT", [], raising=False)
    killed = "entry-of-a-killed-run"

    def killed_before_the_replace(*args: Any, **kwargs: Any) -> None:
        raise SystemExit(137)  # the kill, at the step after the file was written

    with monkeypatch.context() as killing:
        killing.setattr(os, "replace", killed_before_the_replace)
        killing.setattr(os, "unlink", lambda *args, **kwargs: None)  # a killed run cleans nothing
        for _ in range(most + 2):
            with pytest.raises(SystemExit):
                cache.write(killed, b"half")
    monkeypatch.setattr(cache, "_SWEPT", [], raising=False)  # a new run
    left = os.listdir(folder)  # in the order the sweep looks at them: the first is held
    assert len(left) == most + 2 and all(name.startswith(".tmp-") for name in left)
    held = os.open(folder / left[0], os.O_RDONLY)  # a writer still making its entry
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        cache.write("entry", b"data")
        cache.write("another", b"data")  # once per process: bounded work
    finally:
        os.close(held)
    after = sorted(path.name for path in folder.iterdir())
    assert "entry" in after and "another" in after and killed not in after
    leftovers = [name for name in after if name.startswith(".tmp-")]
    assert left[0] in leftovers
    assert len(leftovers) == 3  # the held one and the two past the bound (64 looked at, 63 removed)
    monkeypatch.setattr(cache, "_SWEPT", [], raising=False)
    cache.write("entry", b"data")  # the next run
    assert [name for name in os.listdir(folder) if name.startswith(".tmp-")] == []  # the held one, let go


def test_a_new_variant_killed_while_it_writes_its_manifest_leaves_nothing(tmp_path: Path) -> None:
    """`new-variant` killed between making its manifest and writing it left an empty
    `rulesets/mine.yaml`: a ruleset that is no ruleset, and the next run refused ("already exists")."""
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    base = (RULES / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    (rules / "rulesets" / "base.yaml").write_text(base.replace("id: advanced-civilization", "id: base"))
    words = ["--rules", str(rules), "--no-shipped", "new-variant", "mine", "--extends", "base"]

    opened = os.open

    def right_after_the_file_is_made(kill: Any) -> None:
        def open_then_kill(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            descriptor = opened(path, flags, *args, **kwargs)
            nameless = getattr(os, "O_TMPFILE", 0)
            if path == "mine.yaml" or (nameless and flags & nameless == nameless):  # made by name, or not
                kill()
            return descriptor

        os.open = open_then_kill

    status = killed_in_a_child(right_after_the_file_is_made, lambda: CliRunner().invoke(main, words))
    assert status == 9
    assert sorted(path.name for path in (rules / "rulesets").iterdir()) == ["base.yaml"]
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("stage", ["made", "written", "named"])
def test_a_new_variant_killed_where_no_file_can_be_made_without_a_name_leaves_no_empty_manifest(
    tmp_path: Path, stage: str
) -> None:
    """Where the system has no `O_TMPFILE` (macOS, some FUSE and network file systems), the
    manifest was made by name, then written: a kill in between left an empty `mine.yaml`, and the
    next run refused ("already exists"). Now it is written under a temporary name and then given
    its own: the kill leaves no manifest, or a whole one, and what it left under the temporary
    name is removed by the next file made there."""
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    base = (RULES / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    (rules / "rulesets" / "base.yaml").write_text(base.replace("id: advanced-civilization", "id: base"))

    def words(name: str) -> list[str]:
        return ["--rules", str(rules), "--no-shipped", "new-variant", name, "--extends", "base"]

    opened, linked, unlinked = os.open, os.link, os.unlink

    def without_nameless_files(kill: Any) -> None:
        with contextlib.suppress(AttributeError):
            delattr(os, "O_TMPFILE")

        def open_then_kill(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            descriptor = opened(path, flags, *args, **kwargs)
            if stage == "made" and flags & os.O_CREAT and str(path).startswith(("mine.yaml", ".civrules-")):
                kill()  # the manifest made, by its name or by a temporary one
            return descriptor

        def link(*args: Any, **kwargs: Any) -> None:
            if stage == "written":
                kill()
            linked(*args, **kwargs)

        def unlink(*args: Any, **kwargs: Any) -> None:
            if stage == "named":
                kill()
            unlinked(*args, **kwargs)

        os.open, os.link, os.unlink = open_then_kill, link, unlink

    status = killed_in_a_child(without_nameless_files, lambda: CliRunner().invoke(main, words("mine")))
    assert status == 9
    left = sorted(path.name for path in (rules / "rulesets").iterdir())
    if stage == "named":  # killed once the manifest had its name: it is whole
        assert "mine.yaml" in left
        assert (rules / "rulesets" / "mine.yaml").read_text(encoding="utf-8").strip()
    else:
        assert "mine.yaml" not in left
        result = CliRunner().invoke(main, words("mine"))
        assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, words("other"))
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (rules / "rulesets").iterdir()) == ["base.yaml", "mine.yaml", "other.yaml"]


def test_only_regular_temporary_files_are_removed_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the sweep for leftovers finds under a temporary file's name that no writer makes (a
    FIFO, a folder, a link) is not removed, nor followed."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache, "_SWEPT", [])
    os.mkfifo(folder / ".tmp-fifo")
    (folder / ".tmp-folder").mkdir()
    (tmp_path / "elsewhere").write_text("mine\n")
    (folder / ".tmp-link").symlink_to(tmp_path / "elsewhere")
    cache.write("entry", b"data")
    assert sorted(os.listdir(folder)) == [".tmp-fifo", ".tmp-folder", ".tmp-link", "entry"]
    assert (tmp_path / "elsewhere").read_text() == "mine\n"
