"""Holding Ctrl-C back while civrules makes or removes something it must not leave half-done.

Python raises KeyboardInterrupt between any two bytecodes: one that comes in after a temporary
folder or file exists but before its name is kept leaves it behind. Inside :func:`deferred`,
SIGINT and SIGTERM are noted, not acted on, and delivered again when the block ends.

A signal mask would not do: the kernel hands a signal to any thread that does not block it, so in
a process with other threads (a language server, a test runner's workers) a mask on the main
thread holds nothing back. The Python-level handler is what every thread's signal ends in.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block; those that came in are raised again after it.

    Only the main thread can change signal handlers: elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[signal.Signals] = []

    def note(signum: int, frame: FrameType | None) -> None:
        received.append(signal.Signals(signum))

    previous = {}
    for held in _HELD:
        handler = signal.getsignal(held)
        if handler is None or handler == signal.SIG_IGN:  # set outside Python, or ignored: left alone
            continue
        previous[held] = handler
        signal.signal(held, note)
    try:
        yield
    finally:
        for held, handler in previous.items():
            signal.signal(held, handler)
        for signum in dict.fromkeys(received):
            handler = previous[signum]
            if callable(handler):
                # Called here, in this frame: a signal sent again would be acted on at the next
                # bytecode boundary, which may be inside a garbage-collector callback, where Python
                # prints the KeyboardInterrupt and drops it.
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


def lost() -> bool:
    """Whether a Ctrl-C was lost since the last call (see :func:`catch_lost`); it is forgotten."""
    found = bool(_LOST)
    _LOST.clear()
    return found
