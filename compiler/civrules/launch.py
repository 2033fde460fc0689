"""The `civrules` program: the entry point of the console script (pyproject.toml's
``project.scripts``) and of ``python -m civrules``.

Importing the command line takes a fifth of a second (click, PyYAML, civrules' own modules); a
Ctrl-C in that time, or a dependency that is not installed, once ended in a traceback (and a
process killed by SIGINT, not exit 130). Here those are diagnostics like any other failure, in the
command's `--format` (:mod:`civrules.diagnostics.process`): this module imports nothing heavy
before it can report one.

The program also ends here, not in Python's shutdown, which took a fifth of a second more after the
command's output and gave the stop signals their default actions back: a Ctrl-C then killed the
process (status -2, no diagnostic). :func:`leave` flushes the output, says a stop signal that
came meanwhile (R016, on standard error: the output is whole) and ends the process with its
status (:func:`os._exit`), never by the signal.
"""

# No `from __future__ import annotations` and nothing Python's start has not imported yet before the
# folders of a relative PYTHONPATH entry (the checked project) are off the search path: a
# `__future__.py`, `contextlib.py` or `typing.py` there was imported in place of the standard one.
import os
import sys

from civrules.support import search_path

search_path.keep_absolute_imports()

import contextlib  # noqa: E402 - see above
from typing import NoReturn  # noqa: E402


def main() -> NoReturn:
    """Run the command line of ``sys.argv``; exit with its status."""
    try:
        # First of civrules' own after this module and search_path (which import only what
        # Python's start did): under a file-size limit no module imported from here on writes its
        # bytecode (a truncated .pyc would break the next import of it, by any program).
        import civrules.support.bytecode  # noqa: F401
        from civrules.support import interrupts, streams

        streams.guard()  # before any file is opened: none takes a closed standard stream's number
        streams.speak_utf8()
        search_path.keep_absolute()  # no program is found in the checked project
        interrupts.stop_on_signals()
        from civrules.cli import main as command_line
    except SystemExit as done:
        leave(done.code)
    except BaseException as error:  # noqa: BLE001 - every failure of the start is a diagnostic
        fail(error)
    try:
        command_line()
    except SystemExit as done:  # click exits itself
        leave(done.code)
    except BaseException as error:  # noqa: BLE001 - where click does not run the command (its clean-up)
        fail(error)
    leave(0)  # pragma: no cover - click exits itself


def fail(error: BaseException) -> NoReturn:
    """Report ``error``, which ended civrules before (or after) the command line could, and exit."""
    from civrules.support import interrupts

    interrupts.stop_on_signals()  # (a failure may come before they were installed)
    interrupts.finishing()  # a second Ctrl-C does not cut the report short
    from civrules.diagnostics import process
    from civrules.diagnostics.render import DOCUMENTS
    from civrules.support import streams

    words = sys.argv[1:]
    failure = process.diagnose(error, debug="--debug" in words)
    fmt = process.format_asked(words)
    # A json, sarif or gitlab document begun on standard output (the command's, or one cut short) is not
    # followed by a second one; a command whose standard output is what it makes (`list --format
    # json > rulesets.json`), or the language server's channel to the editor, gets none: the
    # failure is said on standard error, as the command line does. They were said on standard
    # output when the failure came before the command line could run (a Ctrl-C or a missing
    # dependency as it was imported).
    on_stderr = failure.on_stderr or process.said_on_stderr(words) or (fmt in DOCUMENTS and streams.stdout_begun())
    with contextlib.suppress(OSError, ValueError):  # nowhere left to say it
        process.report([failure.diagnostic], fmt, sys.stderr if on_stderr else None)
    if failure.bug and "--debug" in words:
        import traceback

        with contextlib.suppress(OSError, ValueError):
            traceback.print_exception(error, file=sys.stderr)
    leave(failure.exit_code)


def leave(code: object) -> NoReturn:
    """End the process with the status ``code`` says (``sys.exit``'s argument), its output flushed
    first. A stop signal from here on is noted, not acted on; one that came is said (R016 on
    standard error) and the status is 128 + its number, as for a signal at any earlier moment."""
    from civrules.support import interrupts

    interrupts.stop_on_signals()
    interrupts.finishing()
    status = _status(code)
    status = _flushed(status)
    with contextlib.suppress(BaseException):  # what Python's shutdown would run (logging's flush)
        import atexit

        atexit._run_exitfuncs()
    status = _flushed(status)
    lost = interrupts.lost()
    signum = interrupts.noted() or (interrupts.signal_of(lost) if lost is not None else None)
    stopped = {interrupts.status_of(s) for s in interrupts.STOP_SIGNALS}
    if signum is not None and status not in stopped:  # not said yet: the command had ended
        from civrules.diagnostics import process

        with contextlib.suppress(OSError, ValueError):
            process.report([process.interrupted(signum, done=True)], process.format_asked(sys.argv[1:]), sys.stderr)
        status = interrupts.status_of(signum)
    os._exit(status)


def _status(code: object) -> int:
    """The exit status of ``sys.exit(code)``: None is 0, a number itself, anything else is printed
    (on standard error) and 1, as Python does."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    with contextlib.suppress(OSError, ValueError):
        print(code, file=sys.stderr)
    return 1


def _flushed(status: int) -> int:
    """``status`` once standard output and error are flushed: 141 if the reader of the output went
    away (as a tool killed by SIGPIPE), 2 with R007 if it could not be written (a full disk, a
    closed descriptor), unless the command had failed already (its failure said, 2 or more)."""
    from civrules.diagnostics import process

    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except ValueError:  # closed by the command (the language server's writer, at `exit`): nothing left
        pass
    except BrokenPipeError:
        return status if status >= 2 else 141
    except OSError as error:
        if status >= 2:
            return status
        with contextlib.suppress(OSError, ValueError):
            failure = process.diagnose(error)
            process.report([failure.diagnostic], process.format_asked(sys.argv[1:]), sys.stderr)
        return 2
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except ValueError:
        pass
    except OSError:  # nowhere to say it
        return max(status, 2)
    return status
