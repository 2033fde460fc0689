"""Standard streams that were closed when civrules started (`>&-`, `2>&-`, `<&-`).

Python starts with ``sys.stdout = None`` when descriptor 1 is closed, and click's ``echo`` drops
what it is given: `civrules export RULESET >&-` printed nothing and exited 0, where `>/dev/full`
is R007 and exit 2. And the first file civrules opened took the free number: a write meant for
standard output would have gone into it.

:func:`guard`, called first by the program's entry point (:mod:`civrules.launch`):

- gives each closed descriptor of 0, 1 and 2 the null device, so that no file opened later takes
  its number (git's ``sanitize_stdfds`` does the same);
- makes a closed standard output or error a stream whose writes fail as a closed descriptor's do
  (EBADF). A command with something to print there fails with R007 on standard error, exit 2; one
  that prints nothing there exits as it would have (coreutils' ``close_stdout`` judges so too).
  With standard error closed there is nowhere to say it: civrules exits 2 without a word;
- makes a closed standard input read as empty (the language server sees its input end).

:func:`speak_utf8`, called next, makes what civrules prints UTF-8 whatever the locale or
``PYTHONIOENCODING`` says, as JSON and SARIF must be: under a Latin-1 one, `explain` and `diff`
were R900 (an em dash, an arrow the encoding lacks) and a `--format json` report was Latin-1 bytes.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
from typing import Any

#: The names of the standard streams, by descriptor, as a message says them.
NAMES = {0: "standard input", 1: "standard output", 2: "standard error"}


class _Closed(io.RawIOBase):
    """A standard stream that was closed: every write fails (EBADF), as the descriptor's would."""

    def __init__(self, fd: int, placeholder: bool) -> None:
        super().__init__()
        self._fd = fd
        self._placeholder = placeholder

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        # The null device civrules put in its place, which a failure's clean-up may point
        # elsewhere; a file that took the number before civrules could is no one's to touch.
        if not self._placeholder:
            raise io.UnsupportedOperation(f"{NAMES[self._fd]} is closed")
        return self._fd

    def write(self, data: object) -> int:
        raise _marked(OSError(errno.EBADF, f"{NAMES[self._fd]} is closed"))


def is_closed(fd: int) -> bool:
    """Whether ``fd`` is no open descriptor."""
    try:
        os.fstat(fd)
    except OSError as error:
        return error.errno == errno.EBADF
    return False


def _fill(fd: int) -> bool:
    """Put the null device on the closed descriptor ``fd``; whether it is there now."""
    try:
        opened = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
    except OSError:
        return False
    if opened != fd:
        try:
            os.dup2(opened, fd)
        except OSError:
            return False
        finally:
            os.close(opened)
    return True


def guard() -> None:
    """See the module's documentation: for the program's entry point, first of all (a host that
    calls the command line in process keeps its own streams)."""
    ours = {fd: _fill(fd) for fd in NAMES if is_closed(fd)}
    if sys.stdin is None:
        with_null = ours.get(0, False)
        sys.stdin = open(0 if with_null else os.devnull, encoding="utf-8", closefd=not with_null)  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = closed_stream(1, ours.get(1, False))
    if sys.stderr is None:
        sys.stderr = closed_stream(2, ours.get(2, False))


def speak_utf8() -> None:
    """Make the process's own standard output and error write UTF-8 (a host that calls the command
    line in process keeps its own streams).

    Into a pipe or a file the bytes are UTF-8 whatever the locale says (a document read by another
    program is the same in any locale). On a terminal of another encoding what it can show is
    written in it, and a character it lacks as an escape (``\\u2014``) instead of failing.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream is not getattr(sys, f"__{name}__") or not isinstance(stream, io.TextIOWrapper):
            continue
        if codecs.lookup(stream.encoding).name == "utf-8":
            continue
        try:
            terminal = stream.isatty()
        except (OSError, ValueError):
            terminal = False
        with contextlib.suppress(OSError, ValueError):  # a stream that fails says so at its first write
            if terminal:
                stream.reconfigure(errors="backslashreplace")
            else:
                stream.reconfigure(encoding="utf-8", errors=stream.errors)


def closed_stream(fd: int, placeholder: bool) -> io.TextIOWrapper:
    """The text stream of the closed standard stream ``fd`` (1 or 2); ``placeholder``: the null
    device holds its number (see :func:`guard`)."""
    return io.TextIOWrapper(io.BufferedWriter(_Closed(fd, placeholder)), encoding="utf-8", errors="backslashreplace")


class WholeWrites(io.RawIOBase):
    """Standard output that writes every byte it is given, or raises.

    Python's buffered writer returns a short count when the file system takes part of a write (a
    file-size limit reached, RLIMIT_FSIZE), and the text layer above it drops the rest: the
    output was cut short and civrules exited 0. Here a short write is followed by another, which
    then fails with the file system's reason (EFBIG, ENOSPC), and civrules exits 2.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        #: Whether a write was begun: the command's output may have reached the descriptor (see
        #: :func:`stdout_begun`).
        self.begun = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        # io.RawIOBase says False whatever the descriptor is: colour never reached a terminal.
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            # Marked before the call: a stop signal that comes while it waits on a full pipe is
            # raised as it returns, before its count could be kept, though the kernel took bytes.
            self.begun = True
            try:
                done += os.write(self._fd, view[done:])
            except OSError as error:
                _marked(error)
                raise
        return done


def _marked(error: OSError) -> OSError:
    """``error``, marked as a failed write of the command's output (see
    :func:`civrules.support.files.doing`): told "cannot write the output", where an error with no
    file name that is not marked so is told as the system's (round 36)."""
    from civrules.diagnostics.process import WRITING_OUTPUT
    from civrules.support.files import doing

    return doing(error, WRITING_OUTPUT)


class Whole(io.BufferedWriter):
    """The buffered layer over :class:`WholeWrites` (marks a stream already replaced)."""


def write_stdout_whole() -> None:
    """Put :class:`WholeWrites` under ``sys.stdout`` when it is the process's own (not a test's)."""
    stream = sys.stdout
    if stream is not sys.__stdout__ or stream is None or isinstance(getattr(stream, "buffer", None), Whole):
        return
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError, AttributeError):
        return
    sys.stdout = io.TextIOWrapper(
        Whole(WholeWrites(fd)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
    )


def stdout_begun() -> bool:
    """Whether the program's standard output (not a test's) may hold bytes already: a document the
    command began to print before it was stopped, which a second document after it would make
    invalid. What is still buffered is written first (or never will be)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if not isinstance(buffer, Whole) or not isinstance(buffer.raw, WholeWrites):
        return False
    with contextlib.suppress(OSError, ValueError):
        stream.flush()
    return buffer.raw.begun
