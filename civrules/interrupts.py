"""Holding Ctrl-C back while civrules makes or removes something it must not leave half-done.

Python raises KeyboardInterrupt between any two bytecodes: one that comes in after a temporary
folder or file exists but before its name is kept leaves it behind. Inside :func:`deferred`,
SIGINT and SIGTERM wait and are delivered when the block ends.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block (on the main thread, where Python handles them)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
