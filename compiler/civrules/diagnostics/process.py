"""Diagnostics of the civrules process itself, not of rule data: Ctrl-C (R016), running out of
memory (R017), the system refusing to let civrules read (R018) or write (R007), a missing
dependency (R910), a broken game family (R019), and a bug (R900).

Each is a diagnostic like any other, located on the command line, printed in the command's
`--format` (so json, sarif and gitlab output stay one valid document) with the exit code it calls for.
This module imports neither click nor PyYAML: the program's entry point (:mod:`civrules.launch`)
reports with it a failure that comes before they are imported, or because they cannot be, the way
the command line (``cli._Group.invoke``) reports the same failure later.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from civrules.diagnostics import Diagnostic, Span, codes
from civrules.diagnostics.escape import printable
from civrules.diagnostics.words import count, named_path, ticked
from civrules.support import interrupts

#: Where a failure of the process is located: it is about no file.
COMMAND_LINE = "<command line>"

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C (128 + the number of any stop signal)

#: The errors of a file system that has no room, or takes no writes: the output's (R007).
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})


@dataclass(frozen=True, slots=True)
class Failure:
    """What to print for an exception that ended the command, and how to exit."""

    diagnostic: Diagnostic
    exit_code: int
    #: On standard error even where diagnostics go to standard output: writing that failed.
    on_stderr: bool = False
    #: A bug in civrules (R900): `--debug` shows its traceback.
    bug: bool = False


def diagnose(
    error: BaseException, *, where: str = "", bounds: tuple[int, int] | None = None, debug: bool = False
) -> Failure:
    """The diagnostic of ``error``, which ended the command.

    ``where`` is a clause naming what was being worked on (`` on ruleset `x` ``); ``bounds`` the
    run's ``--max-file-size`` and ``--max-nodes`` (named by the out-of-memory hint); ``debug``
    whether `--debug` was given (an internal error's hint then points at its traceback).
    """
    if isinstance(error, KeyboardInterrupt):
        signum = interrupts.signal_of(error)
        return Failure(interrupted(signum), interrupts.status_of(signum))
    if isinstance(error, ModuleNotFoundError) and error.name:
        return Failure(missing_module(error.name), EXIT_USAGE)
    if out_of_memory(error):
        return Failure(_out_of_memory(error, where, bounds), EXIT_USAGE)
    # Looked up, not imported: no family was read (and none can be broken) unless it is loaded.
    family = sys.modules.get("civrules.families.family")
    if family is not None and isinstance(error, family.FamilyError):
        return Failure(_family_broken(error), EXIT_USAGE)
    if isinstance(error, OSError):
        return _system_refused(error)
    # One line whatever the exception says; the details are for --debug.
    said = printable(" ".join(str(error).split()))
    said = said if len(said) <= 200 else said[:197] + "..."
    hint = (
        "please report it with the command you ran and the traceback below"
        if debug
        else "please report it with the command you ran and the output of --debug"
    )
    message = f"internal error ({type(error).__name__}: {said}){where}: a bug in civrules, not in your rules"
    return Failure(_at(codes.INTERNAL_ERROR, message, hint), EXIT_USAGE, bug=True)


def interrupted(signum: int, *, done: bool = False) -> Diagnostic:
    """R016: civrules was stopped by ``signum`` (Ctrl-C, SIGTERM, SIGHUP); ``done``: after its
    output was whole (the signal came as the process was ending)."""
    sent_by = interrupts.SENT_BY.get(signal.Signals(signum), signal.Signals(signum).name)
    if done:
        return _at(
            codes.INTERRUPTED,
            f"interrupted ({sent_by}) as civrules was ending, after its output was written",
            "what the command printed and wrote is whole; run it again for the exit status of its own result",
        )
    return _at(
        codes.INTERRUPTED,
        f"interrupted ({sent_by}): an output folder is left as it was, or wholly replaced",
        "run the command again to finish it",
    )


def missing_module(name: str) -> Diagnostic:
    """R910: one of civrules' dependencies is not installed for the Python that runs it."""
    from civrules.support.install import clone_command, python, reinstall

    then = clone_command()
    return _at(
        codes.MISSING_DEPENDENCY,
        f"the module `{printable(name)}` is not installed for the Python that runs civrules ({python()})",
        f"install civrules with its dependencies: {ticked(reinstall())}"
        + (f", then run {ticked(then)}" if then else ""),
    )


#: What a library's failure to load says when the system had no memory to map it with.
_NO_MEMORY_WORDS = ("cannot allocate memory", "failed to map segment", "out of memory")


def out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is the machine running out of memory: a MemoryError; a thread that could
    not be started (its stack is memory too); a compiled library that could not be mapped (numpy's
    ImportError, caused by one that says so)."""
    if isinstance(error, MemoryError):
        return True
    if isinstance(error, OSError) and error.errno == errno.ENOMEM:  # a map, a fork, a descriptor's buffer
        return True
    if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
        return True
    if isinstance(error, ImportError):
        seen: BaseException | None = error
        for _ in range(8):  # the chain of causes, bounded
            if seen is None:
                break
            if isinstance(seen, MemoryError) or any(w in str(seen).lower() for w in _NO_MEMORY_WORDS):
                return True
            seen = seen.__cause__ or seen.__context__
    return False


def _out_of_memory(error: BaseException, where: str, bounds: tuple[int, int] | None) -> Diagnostic:
    # The input, not civrules, was too large for this machine's bounds: say which bound would have
    # stopped it before it filled memory, and which one it ran into.
    what = "out of memory"
    if isinstance(error, RuntimeError):
        what = "out of memory: no thread could be started"
    elif isinstance(error, ImportError):
        what = f"out of memory: the library `{printable(str(error.name or 'numpy'))}` could not be loaded"
    now = (f" (now {count(bounds[0], 'byte')})", f" (now {bounds[1]:,})") if bounds is not None else ("", "")
    hint = (
        f"bound what one rule file may hold with --max-file-size{now[0]} and --max-nodes{now[1]}; "
        "or raise the address-space limit (`ulimit -v`)"
    )
    return _at(codes.OUT_OF_MEMORY, f"{what}{where}{address_space()}", hint)


def address_space() -> str:
    """The address-space limit the process runs under, as a clause (empty where there is none)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not on Linux or macOS
        return ""
    if soft == resource.RLIM_INFINITY:
        return ""
    return f" (the address-space limit is {soft / 2**20:,.0f} MiB)"


def _family_broken(error: BaseException) -> Diagnostic:
    from civrules.support.install import python, word

    family = getattr(error, "family", None)
    distribution = getattr(error, "distribution", None)
    said = printable(" ".join(str(error).split()))
    if distribution:
        name = printable(distribution[0])
        found = f" at `{printable(distribution[1])}`" if distribution[1] else ""
        message = f"a game family cannot be used: {said} (it comes from the distribution `{name}`{found})"
        hint = (
            f"fix the family, or remove `{name}` from the Python that runs civrules "
            # The Python that runs civrules, not `python`: the one on the PATH may be another
            # (pipx, a virtual environment not activated), where pip finds no such distribution.
            f"({ticked(printable(python() + ' -m pip uninstall ' + word(distribution[0])))}, "
            "or take its folder off PYTHONPATH)"
        )
    else:
        message = f"a game family cannot be used: {said}"
        hint = (
            f"fix the family `{printable(family)}`, or remove its distribution from the Python that runs civrules"
            if family
            else "fix or remove the family's distribution from the Python that runs civrules"
        )
    return _at(codes.FAMILY_BROKEN, message, hint)


def _system_refused(error: OSError) -> Failure:
    """The machine, not civrules, failed: say what it said (a full disk, a read-only folder)."""
    if error.filename is None and working_directory_is_gone():
        return Failure(
            _at(
                codes.ACCESS_REFUSED,
                "the working directory no longer exists (it was deleted or moved)",
                "cd into an existing folder and run civrules again",
            ),
            EXIT_USAGE,
        )
    said = printable(_cause(error))
    doing = _what_doing(error)
    if error.filename is None and (doing == WRITING_OUTPUT or (doing is None and error.errno in _OUTPUT_ERRORS)):
        # Standard output could not be written (a full disk under `> file`): its diagnostic goes
        # to standard error, the one stream left.
        message = f"cannot write the output: {said}"
        hint = "free space on the device the output goes to, or send it elsewhere"
        if error.errno == errno.EBADF:  # closed when civrules started (civrules.support.streams)
            hint = "run civrules with its output open (`>&-` closes it): send it to a file, or to /dev/null"
        elif error.errno not in _NO_ROOM:  # the device failed (EIO), not the space on it
            hint = _system_hint(error)
        return Failure(_at(codes.OUTPUT_REFUSED, message, hint), EXIT_USAGE, on_stderr=True)
    code = codes.OUTPUT_REFUSED if error.errno in _NO_ROOM else codes.ACCESS_REFUSED
    if error.filename is None:
        # A call on a descriptor (fsync, flock, a read) that no caller named: what the system
        # said, and what to do about that, never "cannot write the output" (round 36).
        what = f"cannot {doing}" if doing else "the system refused what civrules asked of it"
        return Failure(_at(code, f"{what}: {said}", _system_hint(error)), EXIT_USAGE)
    # The name may be a rule file's or an output file's: escaped like every printed name.
    raw = error.filename
    name = os.fsdecode(raw) if isinstance(raw, (str, bytes)) else str(raw)
    if error.errno in _NO_ROOM:
        hint = _limit_hint(error) or (
            "check that the folder can be written (its permissions, the free space), or name another with --out"
        )
        message = f"cannot {doing or 'write'} {named_path(name)}: {said}"
        return Failure(_at(codes.OUTPUT_REFUSED, message, hint), EXIT_USAGE)
    # Located at the file the system refused (an input, as a rule file's L012 is).
    hint = _access_hint(error)
    message = f"cannot {doing or 'access'} {named_path(name)}: {said}"
    return Failure(Diagnostic(code.code, code.severity, message, Span.at(name), hint, subjects=(name,)), EXIT_USAGE)


#: What :func:`civrules.support.files.doing` marks a failed write of standard output with.
WRITING_OUTPUT = "write the output"

#: The errors of a write to standard output that no call marked (:data:`WRITING_OUTPUT`): no room,
#: a closed descriptor. Any other error with no file name is said as the system's (round 36).
_OUTPUT_ERRORS = _NO_ROOM | {errno.EBADF}


def _system_hint(error: OSError) -> str:
    """What to do about a failure of the system that names no file, by its errno."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free space on the device civrules writes to, then run civrules again"
    if error.errno == errno.EROFS:
        return "the file system civrules writes to is read-only: remount it writable, or work elsewhere"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "check the permissions of the files and folders civrules uses, then run civrules again"
    return _limit_hint(error) or "check the device and the file system civrules works on, then run civrules again"


def _what_doing(error: OSError) -> str | None:
    """:func:`civrules.support.files.what_doing`, where civrules could load it."""
    try:
        from civrules.support.files import what_doing
    except ImportError:  # pragma: no cover - a failure at start, before civrules could load
        return None
    return what_doing(error)


_ACCESS_HINT = "make it readable (and its folders searchable) by the user that runs civrules, or leave it out"
#: The device's failure is no permission to change either.
_DEVICE_HINT = "the device could not be read (a failing disk, a network file system gone): check it, then run again"


def _limit_hint(error: OSError) -> str | None:
    """:func:`civrules.support.files.limit_hint`, where civrules could load it."""
    try:
        from civrules.support.files import limit_hint
    except ImportError:  # pragma: no cover - a failure at start, before civrules could load
        return None
    return limit_hint(error)


def _access_hint(error: OSError) -> str:
    """What to do about a path the system refused to read: "make it readable" where the path's
    shape (:func:`civrules.emit.output.path_hint`) or the device is the cause was no help."""
    if error.errno == errno.EIO:
        return _DEVICE_HINT
    try:
        from civrules.emit.output import path_hint
    except ImportError:  # pragma: no cover - a failure at start, before civrules could load
        return _ACCESS_HINT
    return path_hint(error) or _ACCESS_HINT


def _cause(error: OSError) -> str:
    try:
        from civrules.emit.output import cause
    except ImportError:  # pragma: no cover - a failure at start, before civrules could load
        return (error.strerror or str(error)).lower()
    return cause(error)


def working_directory_is_gone() -> bool:
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _at(code: codes.Code, message: str, hint: str) -> Diagnostic:
    return Diagnostic(code.code, code.severity, message, Span.at(COMMAND_LINE), hint)


#: civrules' commands by name, for the entry point to read which one a command line runs without the
#: command line (it may be what failed to import); `civrules.cli`'s group holds the same names.
COMMANDS = frozenset(
    {
        "build",
        "diff",
        "explain",
        "export",
        "helpers",
        "init",
        "list",
        "lsp",
        "new-variant",
        "schemas",
        "sheets",
        "validate",
        "watch",
    }
)

#: The commands whose standard output is data a script keeps (the rulesets, a diff, the resolved
#: ruleset, a code's documentation): every diagnostic of theirs goes to standard error, so that
#: standard output holds what the command made, or nothing (`diff --format json > diff.json`).
MAKE_DATA = frozenset({"list", "diff", "export", "explain"})

#: The command whose standard output is the language server's channel to the editor.
SERVER = "lsp"

#: The commands none of whose diagnostics goes to standard output: it holds what they make, or is
#: the language server's channel (a usage error there was read by the editor as a broken message).
DIAGNOSTICS_ON_STDERR = MAKE_DATA | {SERVER}


def command_asked(words: Sequence[str]) -> str | None:
    """The command a command line runs, read from its words before any is parsed: the first word
    naming one, as the command line reads it (`civrules.cli._command_asked`)."""
    return next((word for word in words if word in COMMANDS), None)


def said_on_stderr(words: Sequence[str]) -> bool:
    """Whether the command line ``words`` has the process's failures said on standard error: its
    standard output holds what the command makes (:data:`MAKE_DATA`), or is the language server's."""
    return command_asked(words) in DIAGNOSTICS_ON_STDERR


def format_asked(words: Sequence[str]) -> str:
    """The `--format` a command line asks for, read from its words before any is parsed (what
    fails at start fails before click): the last one naming a format civrules prints, else text."""
    from civrules.diagnostics.render import FORMATS

    asked = "text"
    for at, word in enumerate(words):
        if word == "--":
            break
        value = words[at + 1] if word == "--format" and at + 1 < len(words) else word.partition("=")[2]
        if (word == "--format" or word.startswith("--format=")) and value in FORMATS:
            asked = value
    return asked


def report(diagnostics: Sequence[Diagnostic], fmt: str, stream: TextIO | None = None) -> None:
    """Print the diagnostics of a command that failed, without click: in ``fmt``, on standard
    output (as the command line prints its usage failures), the count line on standard error."""
    from civrules.diagnostics import count_line
    from civrules.diagnostics.render import SourceLines, render

    out = stream if stream is not None else sys.stdout
    out.write(render(diagnostics, fmt, SourceLines(), failed=True))
    out.flush()
    if fmt == "gitlab":  # GitLab's report holds no failure of the process (no file): said as text
        sys.stderr.write(render(diagnostics, "text", SourceLines()))
        sys.stderr.flush()
    if fmt == "text":
        sys.stderr.write(f"civrules: {count_line(list(diagnostics))}\n")
        sys.stderr.flush()
