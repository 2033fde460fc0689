"""What more than one threat module uses: a tree read back as bytes, a tree written from bytes,
and civrules started in a fresh interpreter (to be killed, or to run under another hash seed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from civrules.emit.output import read_tree
from tests.conftest import REPO


def tree_of(root: Path) -> dict[str, bytes]:
    return read_tree(root)


def make(root: Path, content: dict[str, bytes]) -> None:
    for relative, data in content.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(data)


def start_civrules(
    rules: Path, *args: str, seed: str = "0", delay: float = 0.0, cache: bool = True
) -> subprocess.Popen[bytes]:
    """civrules in a fresh interpreter; without ``cache`` it neither reads nor writes its data caches
    (every map layout is computed under this hash seed, none read from another run's); with a
    ``delay`` it pauses that many seconds after each file it writes (:func:`civrules_command`)."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    if not cache:
        env["CIVRULES_CACHE_DIR"] = ""
    return subprocess.Popen(
        [*civrules_command(delay), "--rules", str(rules), *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def civrules_command(delay: float = 0.0) -> list[str]:
    """The command that starts civrules in a fresh interpreter: `python -m civrules`, or with a
    ``delay`` the test suite's launcher that pauses after each file written (tests/security/slow_writes.py),
    which must then run in the repository's root (it is imported from there)."""
    if not delay:
        return [sys.executable, "-m", "civrules"]
    return [sys.executable, "-m", "tests.security.slow_writes", repr(delay)]


def coarse_times(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, file: Path, moment: int) -> None:
    """``module.os.<name>`` (``stat`` or ``lstat``, the one function every module shares) gives
    ``file`` the modification and change time ``moment``, as a file system whose clock steps
    coarsely gives two saves within one step: nothing else is changed, for any other path."""
    real = getattr(module.os, name)

    def stepped(path: Any, *args: Any, **kwargs: Any) -> Any:
        found = real(path, *args, **kwargs)
        if isinstance(path, (str, os.PathLike)) and Path(path) == file:
            fields = list(found[:10])
            fields[8] = fields[9] = moment // 1_000_000_000
            seconds = moment / 1e9
            extra = {"st_atime": found.st_atime, "st_mtime": seconds, "st_ctime": seconds}
            extra |= {"st_atime_ns": found.st_atime_ns, "st_mtime_ns": moment, "st_ctime_ns": moment}
            return os.stat_result(fields, extra)
        return found

    monkeypatch.setattr(module.os, name, stepped)


def killed_in_a_child(hook: Any, run: Any) -> int:
    """Run ``run`` in a forked copy of this process that ``hook(kill)`` arranges to be killed
    (``kill()``: ends it at once, cleaning nothing, as SIGKILL would) at one step; its exit status."""
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's lines are not counted
        # A fork of a process with threads (the test worker's) can deadlock on a lock another
        # thread held: then the alarm's default action ends the child, and the parent's wait
        # returns (a status no stage expects) instead of hanging the suite. Its work takes
        # milliseconds; the alarm is no measure of speed, only of a child that never ends.
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(600)
        try:
            hook(lambda *args, **kwargs: os._exit(9))
            run()
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    return os.waitstatus_to_exitcode(status)
