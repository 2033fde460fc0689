"""Stop signals: Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, a cancelled CI job) and SIGHUP (the
terminal closed) end civrules as one failure, R016, with the status 128 + the signal's number.

Python raises KeyboardInterrupt for SIGINT between any two bytecodes, and ends the process at once
on SIGTERM or SIGHUP (their default actions): no diagnostic, an empty json or sarif document, a
staging folder left beside the output. The program's entry point (:mod:`civrules.launch`) has
SIGTERM and SIGHUP raise :class:`Stopped`, a KeyboardInterrupt, so every clean-up Ctrl-C runs
runs for them too (:func:`stop_on_signals`). SIGQUIT (Ctrl-\\) keeps its default action: it is the
"quit now" that works where civrules cannot act on a signal (Python acts on one only between
bytecodes of the main thread; a long call into C holds Ctrl-C back until it returns), and like
SIGKILL it leaves a staging folder that the next build removes.

A signal that comes after a temporary folder or file exists but before its name is kept would leave
it behind: inside :func:`deferred`, stop signals are noted, not acted on, and delivered again when
the block ends. Once the command is done (:func:`finishing`), up to the process's exit, they are
only noted: the output is whole, and the entry point says so (R016 on standard error) and exits
with the signal's status, never by the signal (Python's own shutdown gives the signals their
default actions back before it ends, and click turns a KeyboardInterrupt into "Aborted!", exit 1).

A signal mask would not do: the kernel hands a signal to any thread that does not block it, so in
a process with other threads (a language server, a test runner's workers) a mask on the main
thread holds nothing back. The Python-level handler is what every thread's signal ends in.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

#: The signals that ask civrules to stop, and end it as R016; Ctrl-C's first.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: The C functions :mod:`signal` wraps (``getsignal``, ``signal``): the same handlers set and read,
#: without converting each to and from an enum, which cost ten times the call (a build holds the
#: signals back around each file it writes: 33 µs a block, 3 ms of a build's CPU).
_RAW: Any = importlib.import_module("_signal")

#: Where a stop signal's words name what sends it (R016's message).
SENT_BY = {
    signal.SIGINT: "Ctrl-C",
    signal.SIGTERM: "SIGTERM, as `kill`, `timeout` or a cancelled CI job sends",
    signal.SIGHUP: "SIGHUP, as a closed terminal sends",
}


class Stopped(KeyboardInterrupt):
    """A stop signal other than Ctrl-C, raised where Python raises Ctrl-C's KeyboardInterrupt: every
    ``except KeyboardInterrupt`` and clean-up of civrules (and of click, asyncio, ...) treats it as one."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signal.Signals(signum)


def signal_of(error: KeyboardInterrupt) -> signal.Signals:
    """The signal behind ``error``: its own for :class:`Stopped`, SIGINT for a KeyboardInterrupt."""
    return error.signum if isinstance(error, Stopped) else signal.SIGINT


def status_of(signum: int) -> int:
    """The exit status of civrules stopped by ``signum``: 128 + its number, as shells report a
    process the signal ended (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    return 128 + int(signum)


#: Whether :func:`stop_on_signals` installed civrules' handler: the process is civrules' own.
_PROGRAM: list[bool] = []
#: Whether the command is done (:func:`finishing`): a stop signal is noted, not raised.
_FINISHING: list[bool] = []
#: The stop signals noted since :func:`finishing`, in the order they came.
_NOTED: list[signal.Signals] = []


def _on_stop(signum: int, frame: FrameType | None) -> None:
    """The program's handler of every stop signal: raised as Ctrl-C is while the command runs,
    noted once it is done."""
    if _FINISHING:
        _NOTED.append(signal.Signals(signum))
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def stop_on_signals() -> None:
    """Have the stop signals raise KeyboardInterrupt (:class:`Stopped` for SIGTERM and SIGHUP), or
    be noted once the command is done (:func:`finishing`); and keep a Ctrl-C Python cannot raise
    (:func:`catch_lost`). A signal the process was started with ignored stays ignored (`nohup`
    ignores SIGHUP; a shell's background job, SIGINT).

    For the program's entry point only (:mod:`civrules.launch`): a host that calls the command line
    in process keeps its own handlers. Called again, it changes nothing.
    """
    catch_lost()
    if _PROGRAM:
        return
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler == signal.SIG_DFL or handler is signal.default_int_handler:
            signal.signal(signum, _on_stop)
    _PROGRAM.append(True)


def finishing() -> None:
    """The command is done, or failed and is saying why: from now until the process exits, a stop
    signal is noted (:func:`noted`), not raised. In the program only (see :func:`stop_on_signals`);
    elsewhere nothing changes."""
    if not _PROGRAM:
        return
    if not _FINISHING:
        _FINISHING.append(True)  # first, and one step: the handler reads it
    if threading.current_thread() is threading.main_thread():
        # A handler put in the place of civrules' (by a library) and not put back is replaced too.
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler) and handler is not _on_stop:
                signal.signal(signum, _on_stop)


def noted() -> signal.Signals | None:
    """The first stop signal noted since :func:`finishing`, if any."""
    return _NOTED[0] if _NOTED else None


def ignoring() -> contextlib.AbstractContextManager[None]:
    """A block a stop signal does not cut short (a failure being reported): in the program, the
    signals are noted from here on (:func:`finishing`); called in process, they are ignored for the
    block, and the host's handlers put back after it."""
    if _PROGRAM:
        finishing()
        return contextlib.nullcontext()
    return _ignored()


@contextlib.contextmanager
def _ignored() -> Iterator[None]:
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler):  # only what would raise: a default action or SIG_IGN stays
                previous[signum] = handler
                signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(signum, handler)


def deferred() -> contextlib.AbstractContextManager[None]:
    """Hold the stop signals back for the block; those that came in are raised again after it.

    Only the main thread can change signal handlers: elsewhere the block runs as it is.
    """
    return _held(at_once=None)


def whole() -> contextlib.AbstractContextManager[None]:
    """Hold the first stop signal back until the block, the writing of one document (a json or
    sarif document cut short is no document), has ended; then act on it, as :func:`deferred` does.
    A second stop signal is acted on at once: a reader that never reads would hold civrules
    forever, and a second Ctrl-C says the user wants it stopped all the same.

    Only the main thread can change signal handlers: elsewhere the block runs as it is.
    """
    return _held(at_once=2)


@contextlib.contextmanager
def _held(at_once: int | None) -> Iterator[None]:
    """The stop signals held back for the block, but for the ``at_once``-th (if any) and those
    after it, which are acted on where they come."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[signal.Signals] = []
    previous: dict[signal.Signals, Any] = {}

    def put_back() -> dict[signal.Signals, Any]:
        handlers = dict(previous)
        previous.clear()
        for held, handler in handlers.items():
            _RAW.signal(held, handler)
        return handlers

    def note(signum: int, frame: FrameType | None) -> None:
        received.append(signal.Signals(signum))
        if at_once is not None and len(received) >= at_once:
            handlers = put_back()
            for came in dict.fromkeys(received):
                _act(handlers[came], came)

    for held in STOP_SIGNALS:
        handler = _RAW.getsignal(held)
        if handler is None or handler == signal.SIG_IGN:  # set outside Python, or ignored: left alone
            continue
        previous[held] = handler
        _RAW.signal(held, note)
    try:
        yield
    finally:
        handlers = put_back()
        for signum in dict.fromkeys(received) if handlers else ():
            _act(handlers[signum], signum)


def _act(handler: Any, signum: int) -> None:
    """Act on ``signum`` as ``handler`` (the one held back) would have."""
    if callable(handler):
        # Called here, in this frame: a signal sent again would be acted on at the next bytecode
        # boundary, which may be inside a garbage-collector callback, where Python prints the
        # KeyboardInterrupt and drops it.
        handler(signum, None)
    else:
        signal.raise_signal(signum)


#: Ctrl-Cs Python could not raise (see :func:`catch_lost`), not yet acted on.
_LOST: list[KeyboardInterrupt] = []


def catch_lost() -> None:
    """Keep a Ctrl-C that lands where Python cannot raise it, for :func:`lost` to say so.

    Python acts on a signal at the next bytecode, wherever it is: in a weak reference's callback,
    a ``__del__``, a generator's ``finally`` run as it is collected. A KeyboardInterrupt raised
    there cannot reach the code that was running; Python printed "Exception ignored ...
    KeyboardInterrupt" and went on, and a build that was asked to stop exited 0. Here it is kept,
    nothing is printed, and the command line ends as interrupted (exit 130) once the command
    returns. (civrules' own callbacks run no Python code, so one cannot be interrupted at all:
    :mod:`civrules.support.memo`.) Any other exception Python cannot raise goes to the hook that
    was there before.

    Installed once per process (a second call changes nothing), by the program's entry point
    (:mod:`civrules.launch`) only: a host program that calls the command line in process keeps
    its own hook.
    """
    import sys

    previous = sys.unraisablehook
    if getattr(previous, "catches_lost_interrupts", False):
        return

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _LOST.append(unraisable.exc_value)
            return
        previous(unraisable)

    hook.catches_lost_interrupts = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def lost() -> KeyboardInterrupt | None:
    """The first Ctrl-C (or other stop signal) lost since the last call (see :func:`catch_lost`),
    if any; it is forgotten."""
    found = _LOST[0] if _LOST else None
    _LOST.clear()
    return found
