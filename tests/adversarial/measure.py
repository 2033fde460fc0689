"""Run a command and report its exit code, output, peak memory and CPU time, as the kernel counts them.

The command is started by a small launcher interpreter, which reaps it with :func:`os.wait4` (that
one process's peak resident set size, user and system CPU) and hands the figures back on a pipe of
their own. Started straight from the test process, the command's peak would be at least the test
process's own: Linux records the parent's high-water mark in a child at ``exec`` (the child of a
``vfork`` shares its parent's memory until then), and a test worker that has built the 50× rulesets
is hundreds of MB. The launcher is small, so the figures are those of the command alone, whatever
else the test process has run. CPU time, not wall time, is
what `make bench` compares with the speed goals (bench/adversarial.py); the tests only bound the
wall time, generously, so that a hang fails instead of waiting for ever.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measured:
    returncode: int
    stdout: str
    stderr: str
    cpu_seconds: float  # user + system
    max_rss_bytes: int
    wall_seconds: float


class HungError(AssertionError):
    """The command ran past its wall-time guard; it was killed."""


def run(
    command: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    preexec_fn: Callable[[], None] | None = None,
) -> Measured:
    """Run ``command`` with its output captured; kill it and raise :class:`HungError` after ``timeout`` wall seconds."""
    started = time.perf_counter()
    deadline = time.monotonic() + timeout
    figures, report = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report), *command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            preexec_fn=preexec_fn,
            pass_fds=(report,),
            start_new_session=True,  # a hung command is killed with its launcher, as one group
        )
    finally:
        os.close(report)
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.fileno(), process.stderr.fileno()
    received: dict[int, list[bytes]] = {out: [], err: []}
    try:
        with selectors.DefaultSelector() as selector:
            for stream in (process.stdout, process.stderr):
                selector.register(stream, selectors.EVENT_READ)
            while selector.get_map():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise HungError(f"{command[-1]!r}... still running after {timeout:g} s of wall time: killed")
                for key, _ in selector.select(remaining):
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        received[key.fd].append(data)
                    else:
                        selector.unregister(key.fileobj)
        while True:  # output closed; the process may still be ending
            pid, status, _ = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                raise HungError(f"{command[-1]!r}... did not end after {timeout:g} s of wall time: killed")
            time.sleep(0.005)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    finally:
        process.stdout.close()
        process.stderr.close()
        with open(figures, "rb") as stream:
            said = stream.read().decode()
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if not said:  # the launcher itself failed: what it printed says why
        raise RuntimeError(f"the launcher of {command[0]!r} gave no figures: {b''.join(received[err])[-500:]!r}")
    user, system, max_rss_kib = said.split()
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is in bytes on macOS, KiB on Linux
    return Measured(
        returncode=process.returncode,
        stdout=b"".join(received[out]).decode("utf-8"),
        stderr=b"".join(received[err]).decode("utf-8"),
        cpu_seconds=float(user) + float(system),
        max_rss_bytes=int(max_rss_kib) * scale,
        wall_seconds=time.perf_counter() - started,
    )


#: Starts the command (argv[2:]) with this interpreter's standard streams, reaps it, writes its user
#: and system CPU seconds and peak RSS to the descriptor argv[1], and ends as the command did.
_LAUNCHER = """\
import os, signal, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
os.write(int(sys.argv[1]), f"{usage.ru_utime} {usage.ru_stime} {usage.ru_maxrss}".encode())
if os.WIFSIGNALED(status):
    signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_in_process(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
) -> Measured:
    """Run ``civrules ARGS`` in this interpreter, through click's test runner (output captured,
    ``env`` set for the run and restored): the fast suite's way of running the corpus, without
    starting an interpreter per case. The CPU time is this process's; no peak memory is measured
    (``max_rss_bytes`` is 0: the process holds more than the case), which the slow suite's
    :func:`run` does. After ``timeout`` wall seconds a SIGALRM stops the run (where this is the main
    thread), so a hang fails instead of waiting for ever."""
    import signal
    import threading

    from click.testing import CliRunner

    from civrules.cli import main

    def hung(signum: int, frame: object) -> None:
        raise HungError(f"{args[-1]!r}... still running after {timeout:g} s of wall time: stopped")

    guarded = threading.current_thread() is threading.main_thread()
    previous_handler = signal.signal(signal.SIGALRM, hung) if guarded else None
    before = os.getcwd()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        os.chdir(cwd)
        if guarded:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        result = CliRunner().invoke(main, list(args), env=dict(env), prog_name="civrules")
    finally:
        if guarded:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)
        os.chdir(before)
    cpu_seconds, wall_seconds = time.process_time() - cpu, time.perf_counter() - started
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        # What escaped click's entry point, which a command would have printed as a traceback.
        raise result.exception
    return Measured(
        returncode=result.exit_code,
        stdout=result.stdout,
        stderr=result.stderr,
        cpu_seconds=cpu_seconds,
        max_rss_bytes=0,
        wall_seconds=wall_seconds,
    )
