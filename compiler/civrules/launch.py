"""The `civrules` program: the entry point of the console script (pyproject.toml's
``project.scripts``) and of ``python -m civrules``.

Importing the command line takes a fifth of a second (click, PyYAML, civrules' own modules); a
Ctrl-C in that time, or a dependency that is not installed, once ended in a traceback (and a
process killed by SIGINT, not exit 130). Here those are diagnostics like any other failure, in the
command's `--format` (:mod:`civrules.diagnostics.process`): this module imports nothing heavy
before it can report one.
"""

from __future__ import annotations

import contextlib
import sys
from typing import NoReturn


def main() -> NoReturn:
    """Run the command line of ``sys.argv``; exit with its status."""
    try:
        # First of civrules' own: under a file-size limit no module imported from here on writes
        # its bytecode (a truncated .pyc would break the next import of it, by any program).
        import civrules.support.bytecode  # noqa: F401
        from civrules.support import interrupts

        interrupts.catch_lost()
        from civrules.cli import main as command_line
    except BaseException as error:  # every failure of the start is a diagnostic
        if isinstance(error, SystemExit):
            raise
        fail(error)
    try:
        command_line()
    except KeyboardInterrupt as error:  # where click does not run the command: the exit's clean-up
        fail(error)
    sys.exit(0)  # pragma: no cover - click exits itself


def fail(error: BaseException) -> NoReturn:
    """Report ``error``, which ended civrules before (or after) the command line could, and exit."""
    if isinstance(error, KeyboardInterrupt):
        import signal

        with contextlib.suppress(ValueError, OSError):  # a second Ctrl-C does not cut the report short
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    from civrules.diagnostics import process

    words = sys.argv[1:]
    failure = process.diagnose(error, debug="--debug" in words)
    with contextlib.suppress(OSError):  # nowhere left to say it
        process.report([failure.diagnostic], process.format_asked(words), sys.stderr if failure.on_stderr else None)
    if failure.bug and "--debug" in words:
        import traceback

        traceback.print_exception(error, file=sys.stderr)
    sys.exit(failure.exit_code)
