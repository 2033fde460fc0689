"""The `civrules` command line.

Exit codes: 0 clean, 1 the rules have errors, 2 usage or internal error. Every failure a user can
cause is a diagnostic; a traceback appears only for a bug, and only with ``--debug``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, NoReturn

# First of civrules' own: under a file-size limit no module imported from here on writes its
# bytecode (a truncated .pyc would break the next import of it, by any program).
from civrules.support import bytecode  # noqa: F401  # isort: skip

import click

from civrules import __version__
from civrules.diagnostics import (
    SUMMARY_INFOS,
    TRUNCATED,
    Diagnostic,
    Severity,
    Span,
    cap_output,
    codes,
    count_line,
    has_errors,
    sort_diagnostics,
)
from civrules.diagnostics.escape import dumps_json, printable, safe_line_start
from civrules.diagnostics.process import DIAGNOSTICS_ON_STDERR
from civrules.diagnostics.render import (
    DOCUMENTS,
    FORMATS,
    SourceLines,
    gitlab_name,
    json_file,
    render_chunks,
    source_root,
)
from civrules.diagnostics.words import count as counted
from civrules.diagnostics.words import named_path, shown, ticked, typed_path
from civrules.load import Limits
from civrules.load.workspace import LoadedRuleset, Manifest, Workspace
from civrules.support import collector, interrupts, streams
from civrules.support.files import no_folder as _no_folder

if TYPE_CHECKING:
    from civrules.emit.build import BuildResult
    from civrules.emit.output import StaleFile
    from civrules.emit.stamp import Edit
    from civrules.support.staged import Unstaged

EXIT_CLEAN, EXIT_RULE_ERRORS, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 128 + 13  # as a process killed by SIGPIPE: the reader of the output went away

#: The largest value a size or count option takes (larger ones cannot be used as a bound).
_MAX_OPTION = 2**40


@dataclass(slots=True)
class Context:
    rules: Path
    limits: Limits
    debug: bool
    current: str | None = None  # the ruleset being worked on, named if civrules fails
    #: Where the rules folder was named: `--rules`, `CIVRULES_RULES` or the default (a message names it).
    rules_from: str = "--rules"
    #: `--color`: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always or never.
    color: str = "auto"
    #: `-q/--quiet`: no infos in text output, no summary or progress lines (errors and warnings stay).
    quiet: bool = False
    #: The command's `--format` (its diagnostics are printed in it, usage failures too), else text.
    fmt: str = "text"

    def workspace(self) -> Workspace:
        self.require_rules()
        return Workspace(self.rules, self.limits)

    def shipped(self) -> Path | None:
        """The shipped rules the rules folder reads as shipped (a variant's base), which machine
        output names behind `<civrules>/` (:func:`civrules.diagnostics.render.json_file`): none
        with `--no-shipped`, and none for civrules' own checkout, whose rules folder they are."""
        from civrules.load.workspace import shipped_for

        return shipped_for(self.rules)

    def project_generated(self) -> Path:
        """The project's ``generated/`` (beside its rules folder): the versions a build into another
        folder (``build --out DIR``) moves its packages' versions from."""
        from civrules.emit.build import project_generated

        return project_generated(self.rules)

    def protected(self) -> tuple[Path, ...]:
        """The folders no output may replace or be written into: the rules folder, and the shipped
        rulesets it reads (read-only)."""
        from civrules.emit.build import protected_folders

        return protected_folders(self.rules)

    def require_rules(self) -> None:
        """Exit 2, saying why, unless the rules folder can be read as one (before anything is read)."""
        problem = rules_folder_problem(self.rules, self.rules_from)
        if problem is not None:
            _usage_failure([problem])


def rules_folder_problem(rules: Path, named_by: str) -> Diagnostic | None:
    """Why ``rules`` cannot be the rules folder (missing, not a folder, a link that loops), or None.

    ``named_by`` says where the name came from (`--rules`, `CIVRULES_RULES` or `default`), and the
    diagnostic is located there: a folder that is not there is not "a folder without manifests".
    """
    import errno
    import stat

    shown = typed_path(rules)
    where = {
        "CIVRULES_RULES": ticked(f"CIVRULES_RULES={shown}"),
        "default": f"the rules folder {ticked(shown)} (the default of --rules)",
    }.get(named_by, ticked(f"--rules {shown}"))
    hint = (
        "pass the rules folder (the one holding rulesets/, cards/, maps/...) with --rules DIR, "
        "or run civrules from the project root"
    )
    if str(rules) == "":
        return _command_line(codes.NO_RULESETS, f"{where}: the name is empty", hint)
    try:
        found = os.stat(rules)
    except ValueError:  # a NUL in the name
        return _command_line(codes.NO_RULESETS, f"{where}: a folder name cannot hold a NUL character", hint)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return _command_line(
                codes.BAD_PATH,
                f"{where} is a symbolic link that leads back to itself (a link loop): there is no folder to read",
                "point --rules at the rules folder itself; civrules does not follow links",
            )
        if error.errno == errno.ENOENT:
            if named_by == "default":
                hint += _where_a_project_is(rules)
            return _command_line(codes.NO_RULESETS, f"{where}: no such folder", hint)
        if error.errno == errno.ENOTDIR:
            from civrules.support.files import not_folder_on

            in_the_way = not_folder_on(rules)
            said = (
                f"{named_path(in_the_way[0])} is not a folder but {in_the_way[1]}"
                if in_the_way is not None
                else "a part of the path is not a folder"
            )
            return _command_line(codes.NO_RULESETS, f"{where}: {said}", hint)
        return _command_line(
            codes.NO_RULESETS, f"{where}: cannot open it ({printable(error.strerror or str(error))})", hint
        )
    if not stat.S_ISDIR(found.st_mode):
        return _command_line(codes.NO_RULESETS, f"{where} is not a folder but {_no_folder(found.st_mode)}", hint)
    return None


def _where_a_project_is(rules: Path) -> str:
    """The end of R004's hint for the default rules folder not found here: the folder above that
    holds one (run in `compiler/` or `rules/cards/` of a project), else `civrules init`, for one
    who just installed civrules and has no project yet."""
    here = Path.cwd()
    for above in here.parents:
        if (above / rules / "rulesets").is_dir():
            return f"; {named_path(above)}, a folder above this one, holds a rules folder: run civrules there"
    return "; to start a rule-data repository of your own in this folder, run `civrules init`"


def _command_line(code: codes.Code, message: str, hint: str) -> Diagnostic:
    return Diagnostic(code.code, code.severity, message, Span.at("<command line>"), hint)


class _Refused(click.BadParameter):
    """A value civrules refuses, with the hint its diagnostic (R008) prints."""

    def __init__(self, message: str, hint: str, **where: Any) -> None:
        super().__init__(message, **where)
        self.hint = hint

    def format_message(self) -> str:
        # Not `Invalid value: ...` where no option or argument is at fault (an unknown command).
        return super().format_message() if self.param is not None or self.param_hint is not None else self.message


class _EnvironmentRefused(_Refused):
    """An environment variable civrules refuses (R008): no option is at fault, whichever option's
    callback read it."""

    def format_message(self) -> str:
        return self.message


def _then(first: str | None, rest: str) -> str:
    """Two parts of a hint: a suggestion (`did you mean `x`?`), if any, then what always holds."""
    if not first:
        return rest
    return f"{first} {rest}" if first.endswith("?") else f"{first}; {rest}"


class _Group(click.Group):
    """Turns a usage error into a diagnostic (R008), and whatever else ends a command (Ctrl-C, the
    machine failing, a bug) into the diagnostic of :mod:`civrules.diagnostics.process`."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        given = list(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except (click.exceptions.NoArgsIsHelpError, click.exceptions.Exit):
            interrupts.finishing()  # the help or the version, printed: done
            raise  # `civrules` alone: the help, as click shows it
        except click.UsageError as error:  # the group's own options (`civrules --max-nodes 0 list`)
            interrupts.finishing()
            _usage_error(error, given, self)
        except KeyboardInterrupt as error:  # click would say "Aborted!" and exit 1
            _process_failure(error, click.Context(self, info_name=info_name, obj=None), self, given)
        ctx.meta["civrules.args"] = given
        return ctx

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            name = args[0] if args else ""
            if name in self.commands or name.startswith("-"):
                raise
            from civrules.diagnostics.suggest import did_you_mean

            near = did_you_mean(name, self.list_commands(ctx))
            raise _Refused(
                f"no command {shown(printable(name))}",
                _then(near, f"`{ctx.command_path} --help` lists the commands"),
                ctx=ctx,
            ) from error

    def invoke(self, ctx: click.Context) -> Any:
        try:
            # A Ctrl-C while this is imported (1.4 ms, its first use) was click's "Aborted!", exit 1:
            # the command has printed nothing yet, and the stop is its output.
            from civrules.support.commands import invoked

            # The commands printed for the user to paste repeat this invocation's options.
            scope = invoked(ctx.meta.get("civrules.args", []))
        except KeyboardInterrupt as error:
            _process_failure(error, ctx, self)
        try:
            with scope:
                return self._invoke(ctx)
        except KeyboardInterrupt as error:
            # Came as the command ended, between its last step and `interrupts.finishing` (click
            # would make it "Aborted!" and exit 1): what the command printed stands, and the stop
            # is said beside it.
            _process_failure(error, ctx, self, late=True)

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            done = super().invoke(ctx)
            # The command is done: a stop signal from here to the process's exit is noted, and said
            # by the entry point (civrules.launch), where Python's shutdown would have died of it.
            interrupts.finishing()
        except click.UsageError as error:
            interrupts.finishing()
            command = self.commands.get(ctx.invoked_subcommand or "")
            if error.ctx is None and command is not None:
                # Raised by click's parser of the command's options (`build --out` without a value),
                # which names no context: the hint names the command's --help, not the group's.
                error.ctx = click.Context(command, info_name=ctx.invoked_subcommand, parent=ctx)
            _usage_error(error, ctx.meta.get("civrules.args", []), self)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            interrupts.finishing()
            gone = interrupts.lost()
            if gone is not None:  # a Ctrl-C Python could not raise where it came: interrupted all the same
                _process_failure(gone, ctx, self, late=True)
            raise
        except BrokenPipeError:
            # The reader went away (`civrules explain --list | head`): not a bug, and nobody left to
            # tell. Exit as a tool killed by SIGPIPE does, with nothing left to flush at exit.
            interrupts.finishing()
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_BROKEN_PIPE)
        except BaseException as error:  # noqa: BLE001 - Ctrl-C, the machine failing, a bug: a diagnostic
            _process_failure(error, ctx, self)
        gone = interrupts.lost()
        if gone is not None:
            _process_failure(gone, ctx, self, late=True)
        return done


def _process_failure(
    error: BaseException,
    ctx: click.Context,
    group: click.Group,
    args: Sequence[str] | None = None,
    *,
    late: bool = False,
) -> NoReturn:
    """Report what ended the command (Ctrl-C or another stop signal, out of memory, a missing
    dependency, the system refusing a file, a broken family, a bug) as a diagnostic in the
    command's format, and exit with its status (128 + a stop signal's number, 130 for Ctrl-C;
    else 2); `--debug` adds a bug's traceback. ``late``: the command had printed its output whole
    (a Ctrl-C found lost once it returned): the diagnostic goes to standard error, where it leaves
    that output one valid document."""
    # A second Ctrl-C does not cut the report short. Called in process, the host's handlers are put
    # back after it (a test, an editor's host); in the program, a stop signal from here on, as the
    # process exits, is civrules.launch's to report.
    with interrupts.ignoring():
        _report_failure(error, ctx, group, args, late)


def _report_failure(
    error: BaseException, ctx: click.Context, group: click.Group, args: Sequence[str] | None, late: bool
) -> NoReturn:
    from civrules.diagnostics import process

    state = ctx.obj if isinstance(ctx.obj, Context) else None
    debug = state.debug if state is not None else bool(ctx.params.get("debug"))
    limits = state.limits if state is not None else Limits()
    where = f" on ruleset `{printable(state.current)}`" if state is not None and state.current else ""
    failure = process.diagnose(error, where=where, bounds=(limits.max_bytes, limits.max_nodes), debug=debug)
    words = args if args is not None else ctx.meta.get("civrules.args", [])
    fmt = _format_asked(words, group)
    command = _command_asked(words, group)
    # Standard output is the language server's channel to the editor: its failures go to the log.
    late = late or command is lsp or (fmt in _DOCUMENTS and streams.stdout_begun())
    on_stderr = failure.on_stderr or late or (command is not None and command.name in _DIAGNOSTICS_ON_STDERR)
    with contextlib.suppress(OSError):  # nowhere left to say it
        _emit([failure.diagnostic], fmt, failed=True, err=on_stderr)
    if failure.on_stderr:
        # What is left in standard output's buffer cannot be written either: nothing to flush at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if failure.bug and debug:
        import traceback  # only to show an internal error: not imported at every start

        click.echo(traceback.format_exc(), err=True)
    sys.exit(failure.exit_code)


def _command_path(ctx: click.Context | None) -> str:
    """``civrules new-variant``: the command as a user types it, whatever the program was started as
    (click's own path begins with the interpreter's name under ``python -m`` or a test's ``-c``)."""
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["civrules", *reversed(names)])


def _usage_error(error: click.UsageError, args: Sequence[str], group: click.Group) -> NoReturn:
    """Print a usage error of click's or civrules' as a diagnostic (R008) located on the command
    line, in the format the command was asked for, and exit 2."""
    from civrules.diagnostics.suggest import did_you_mean

    command = error.ctx.command if error.ctx is not None else group
    help_hint = f"`{_command_path(error.ctx)} --help` lists what it takes"
    if isinstance(error, _Refused):
        message, hint = error.format_message(), error.hint
    elif isinstance(error, click.NoSuchOption):
        names = [name for param in command.params for name in (*param.opts, *param.secondary_opts)]
        near = did_you_mean(error.option_name, [name for name in names if name.startswith("-")])
        message, hint = f"no such option `{printable(error.option_name)}`", _then(near, help_hint)
        named = _command_asked(args, group) if command is group and near is None else None
        if named is not None and any(error.option_name in param.opts for param in named.params):
            # `civrules --format json validate`: an option of the command, written before it
            option = printable(error.option_name)
            hint = f"`{option}` is an option of the command `{named.name}`: write it after `{named.name}`"
    else:
        message = error.format_message()
        param = getattr(error, "param", None)
        rules = isinstance(param, click.Parameter) and param.name == "rules"
        hint = (
            "pass the rules folder (the one holding rulesets/, cards/, maps/...) with --rules DIR, "
            "or run civrules from the project root"
            if rules
            else help_hint
        )
    if message[:1].isupper() and message[1:2].islower():  # click's sentences: `Invalid value for ...`
        message = message[:1].lower() + message[1:]
    message = message.removesuffix(".")
    problem = _command_line(codes.COMMAND_LINE, printable(message), hint)
    named = _command_asked(args, group)
    on_stderr = named is not None and named.name in _DIAGNOSTICS_ON_STDERR
    _usage_failure([problem], _format_asked(args, group), err=on_stderr)


def _command_asked(args: Sequence[str], group: click.Group) -> click.Command | None:
    """The command a command line names, read from its words (before they are parsed)."""
    return next((group.commands[word] for word in args if word in group.commands), None)


def _format_asked(args: Sequence[str], group: click.Group) -> str:
    """The `--format` a command line asks for, read from its words (a usage error may come before
    the option is parsed); `text` when there is none, or the command prints no diagnostics in it."""
    command = _command_asked(args, group)
    choices: Sequence[str] = ()
    for param in command.params if command is not None else ():
        if param.name == "fmt" and getattr(param, "callback", None) is _format_chosen:
            choices = getattr(param.type, "choices", ())
    asked = "text"
    for at, word in enumerate(args):
        value = args[at + 1] if word == "--format" and at + 1 < len(args) else word.partition("=")[2]
        if (word == "--format" or word.startswith("--format=")) and value in choices:
            asked = value
    return asked


def _format_chosen(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """`--format`: the command's diagnostics, usage failures among them, are printed in it."""
    state = ctx.find_object(Context)
    if state is not None and isinstance(value, str):
        state.fmt = value
    return value


class _FolderName(click.Path):
    """A folder's name on the command line, refused (R008, before anything is read or written) where
    it cannot be the folder meant:

    - an empty one: as a path it is `.`, and civrules would scan, or write into, the working
      directory (`--out "$DIR"` with ``DIR`` unset);
    - `-`: standard input or output to most tools, but civrules reads and writes folders, never a
      stream; `./-` names a folder called `-`;
    - for a folder civrules writes, a name ending in a line's end (`$'out\\n'`, pasted with the
      line): it made a folder named `out` and a newline, which no listing shows as such. A line's end
      inside a name is the name (every command civrules prints quotes it for a shell).
    """

    def __init__(self, what: str, empty_hint: str, *, written: bool) -> None:
        super().__init__(path_type=Path, file_okay=False)
        self.what = what
        self.empty_hint = empty_hint
        self.written = written

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            if not value.strip():
                self.fail(f"the name of {self.what} is empty ({self.empty_hint})", param, ctx)
            if value == "-":
                self.fail(
                    f"`-` stands for standard input or output to other tools, but {self.what} is a folder "
                    "(one called `-` is `./-`)",
                    param,
                    ctx,
                )
            if self.written and value.endswith(("\n", "\r")):
                self.fail(
                    f"the name of {self.what} ends in a line's end (`{printable(value)}`): "
                    "was it pasted with the line? Name the folder without it",
                    param,
                    ctx,
                )
            self._refuse_no_folder(value, param, ctx)
        return super().convert(value, param, ctx)

    def _refuse_no_folder(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> None:
        """R008 for a name that is a regular file, said as every message names a folder
        (:func:`~civrules.diagnostics.words.named_path`): click's own check said "Directory 'it's'
        is a file", in quotes of its own, which a name holding one ends early. (A FIFO, a device, a
        link loop or a missing folder is each said where the folder is judged, as before.)"""
        import stat

        try:
            mode = os.stat(value).st_mode
        except (OSError, ValueError):  # missing, unreadable, a NUL: the command says so as before
            return
        if stat.S_ISREG(mode):
            self.fail(f"{named_path(value)} is a file, not a folder", param, ctx)


_RULES = _FolderName("the rules folder", "pass --rules DIR, or leave it out for `rules`", written=False)
_OUT = _FolderName("the output folder", "pass --out DIR, or leave it out for its default", written=True)
_INIT_DIRECTORY = _FolderName(
    "the new repository's folder", "leave DIRECTORY out for the working directory", written=True
)


_RULES_HELP = "The rules directory.  [default: $CIVRULES_RULES if set, else rules]"
_MAX_FILE_SIZE_HELP = "Largest rule file read, in bytes."
_MAX_NODES_HELP = "Most YAML nodes a file may expand to (bounds alias expansion)."
_MAX_DIAGNOSTICS_HELP = "Most diagnostics listed per file (and ten times that in all); one line counts the rest."
_DEBUG_HELP = "Show tracebacks of internal errors."
_COLOR_HELP = "Colour diagnostics: auto (on a terminal; NO_COLOR turns it off, FORCE_COLOR on), always or never."
_QUIET_HELP = "Print errors and warnings only: no infos, no summary or progress lines."
_COLOR = click.Choice(["auto", "always", "never"])
_NO_SHIPPED_HELP = (
    "Read the rules folder alone: no ruleset shipped with civrules is extended or listed "
    "(for a folder holding its own copies of them). Also CIVRULES_NO_SHIPPED=1 (or true, yes, on)."
)


def _refuse_untrusted_cache(rules: Path, command: str | None) -> None:
    """R008 where the cache folder is one the project (or another user) could have written: its
    entries would be trusted (:mod:`civrules.support.cache`), so nothing is run with it. Not for
    `lsp`: the editor showed a server that failed to start, with the reason on a standard error it
    keeps out of sight; the server runs without the cache (no workspace uses it) and tells the
    editor why (:meth:`civrules.lsp.server.CivrulesServer.tell`)."""
    from civrules.support import cache

    cache.protect(rules, "the rules folder")
    refused = cache.refusal() if command != "lsp" else None
    if refused is not None:
        why, variable = refused
        raise _EnvironmentRefused(
            printable(f"{why}: civrules would trust the entries found there"),
            f"set {variable} to a folder of yours outside the project (the default is ~/.cache/civrules), "
            "or CIVRULES_CACHE_DIR= (empty) to run without a cache",
        )


def _no_shipped(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """`--no-shipped`: through the environment, so that every workspace (watch, lsp) reads it.
    Without it, CIVRULES_NO_SHIPPED must be a yes or a no (R008 naming it otherwise)."""
    from civrules.load.workspace import NO_SHIPPED_VARIABLE, shipped_turned_off
    from civrules.support import environment

    if value:
        os.environ[NO_SHIPPED_VARIABLE] = "1"
        return
    try:
        shipped_turned_off(strict=True)
    except environment.FlagValueError as error:
        raise _EnvironmentRefused(printable(str(error)), error.hint) from None


def use_colour(choice: str, stream: Any) -> bool:
    """Whether text written to ``stream`` is coloured: ``--color always|never`` decides; with `auto`,
    a non-empty NO_COLOR (no-color.org) turns it off, a FORCE_COLOR other than `0` or `false` turns
    it on, and otherwise colour is on when ``stream`` is a terminal other than a dumb one."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    forced = os.environ.get("FORCE_COLOR")
    if forced is not None and forced.strip().lower() not in ("", "0", "false"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # a closed or unusual stream
        return False


def _complete_rulesets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a ruleset name: the manifests under the rules folder (by file name, read
    without parsing a file), the folder being `--rules` as typed so far, else $CIVRULES_RULES or `rules`."""
    from civrules.support import files

    given = next(
        (c.params["rules"] for c in _contexts(ctx) if isinstance(c.params.get("rules"), (str, Path))),
        None,
    )
    rules = Path(given) if given is not None else Path(os.environ.get("CIVRULES_RULES") or "rules")
    try:
        names = {
            Path(entry.relative).stem
            for entry in files.walk(rules / "rulesets", max_depth=1)
            if entry.kind == "file" and entry.relative.endswith((".yaml", ".yml")) and "/" not in entry.relative
        }
    except (OSError, ValueError, files.RefusedError):
        return []
    from civrules.load.workspace import shipped_for

    shipped = shipped_for(rules)
    if shipped is not None:
        names |= {
            Path(entry.relative).stem
            for entry in files.walk(shipped / "rulesets", max_depth=1)
            if entry.kind == "file" and entry.relative.endswith((".yaml", ".yml"))
        }
    return sorted(name for name in names if name.startswith(incomplete))


def _contexts(ctx: click.Context) -> list[click.Context]:
    found: list[click.Context] = []
    current: click.Context | None = ctx
    while current is not None:
        found.append(current)
        current = current.parent
    return found


def _complete_codes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a diagnostic code (after the last comma of a `--select L,S` list), with
    what it reports as help."""
    from click.shell_completion import CompletionItem

    from civrules.checks.catalogue import catalogue

    head, comma, last = incomplete.rpartition(",")
    prefix = head + comma
    return [
        CompletionItem(prefix + code, help=entry.summary())
        for code, entry in sorted(catalogue().items())
        if code.startswith(last.upper())
    ]


def _note(message: str) -> None:
    """A summary or progress line on standard error, left out with `-q`."""
    state = click.get_current_context(silent=True)
    context = state.find_object(Context) if state is not None else None
    if context is None or not context.quiet:
        click.echo(message, err=True)


def _done(message: str) -> None:
    """The command's last line (`wrote N files`, `is up to date`), said once its work is done: a stop
    signal from here on is noted, not raised (:func:`interrupts.finishing`), and said by the entry
    point as coming after the output was written (R016 on standard error). It was raised until
    click had unwound the command, a few milliseconds later on a loaded machine: a Ctrl-C after
    `wrote 20 files` said, on standard output, that the command was cut short and was to be run
    again. Only where nothing but the command's exit is left: not in `watch`, which goes on."""
    interrupts.finishing()
    _note(message)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="civrules")
@click.option(
    "--rules",
    "rules",
    type=_RULES,
    default=Path("rules"),
    envvar="CIVRULES_RULES",
    help=_RULES_HELP,
)
@click.option(
    "--max-file-size",
    type=click.IntRange(min=1, max=_MAX_OPTION),
    default=Limits().max_bytes,
    show_default=True,
    help=_MAX_FILE_SIZE_HELP,
)
@click.option(
    "--max-nodes",
    type=click.IntRange(min=1, max=_MAX_OPTION),
    default=Limits().max_nodes,
    show_default=True,
    help=_MAX_NODES_HELP,
)
@click.option(
    "--max-diagnostics",
    type=click.IntRange(min=1),
    default=Limits().max_diagnostics,
    show_default=True,
    help=_MAX_DIAGNOSTICS_HELP,
)
@click.option("--debug", is_flag=True, help=_DEBUG_HELP)
@click.option("--color", "--colour", "color", type=_COLOR, default="auto", show_default=True, help=_COLOR_HELP)
@click.option("-q", "--quiet", is_flag=True, help=_QUIET_HELP)
@click.option("--no-shipped", is_flag=True, expose_value=False, callback=_no_shipped, help=_NO_SHIPPED_HELP)
@click.pass_context
def main(
    ctx: click.Context,
    rules: Path,
    max_file_size: int,
    max_nodes: int,
    max_diagnostics: int,
    debug: bool,
    color: str,
    quiet: bool,
) -> None:
    """civrules: validate and compile board-game rule data (every installed game family: `civrules list --families`).

    The options below may also follow the command: `civrules validate --rules DIR` is
    `civrules --rules DIR validate`.
    """
    collector.for_a_run()
    # A Ctrl-C Python drops (in a weak reference's callback) stops the command too, where the
    # program's entry point (civrules.launch) installed the hook that keeps it: a process-wide hook,
    # never installed by a command line called in process (a host program's own would be replaced).
    limits = Limits(max_bytes=max_file_size, max_nodes=max_nodes, max_diagnostics=max_diagnostics)
    source = ctx.get_parameter_source("rules")
    named_by = {
        click.core.ParameterSource.ENVIRONMENT: "CIVRULES_RULES",
        click.core.ParameterSource.DEFAULT: "default",
    }.get(source, "--rules")  # type: ignore[arg-type]
    ctx.obj = Context(rules, limits, debug, rules_from=named_by, color=color, quiet=quiet)
    _refuse_untrusted_cache(rules, ctx.invoked_subcommand)
    streams.write_stdout_whole()


#: The formats whose output is one document: a diagnostic printed after it would make it invalid.
_DOCUMENTS = DOCUMENTS


def _print_document(text: str, *, nl: bool = True, err: bool = False) -> None:
    """Print ``text``, one document (json, sarif, the JSON a command makes), and flush it whole.

    A stop signal that comes while it is written is acted on once it is: cut short, the document
    would be no document, and R016 is then said on standard error beside it (:func:`_report_failure`).
    A second stop signal stops civrules at once (a reader that never reads would hold it forever).
    """
    with interrupts.whole():
        click.echo(text, nl=nl, err=err)


#: How many characters of rendered diagnostics are written at once: the output of many is written
#: as it is rendered, in pieces of about this size, never held whole (the SARIF log of 50,000
#: results, 46 MB, was held joined and again encoded).
ECHO_CHUNK = 1 << 16


def _echo_chunks(chunks: Iterable[str], *, colour: bool | None = None, err: bool = False) -> None:
    """Print ``chunks`` as one text, joined in pieces of about :data:`ECHO_CHUNK` characters; each
    chunk is whole diagnostics (or the document's frame), so no escape is split between pieces."""
    batch: list[str] = []
    size = 0
    for chunk in chunks:
        batch.append(chunk)
        size += len(chunk)
        if size >= ECHO_CHUNK:
            click.echo("".join(batch), nl=False, color=colour, err=err)
            batch, size = [], 0
    if size:
        click.echo("".join(batch), nl=False, color=colour, err=err)


_SIZE = click.IntRange(min=1, max=_MAX_OPTION)


def _global_override(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """A global option given after the command: it overrides the group's value (or default)."""
    state = ctx.find_object(Context)
    if state is None or value is None or value is False:
        return
    if param.name == "rules":
        state.rules = value
        state.rules_from = "--rules"
        _refuse_untrusted_cache(value, ctx.info_name)
    elif param.name == "max_file_size":
        state.limits = dataclasses.replace(state.limits, max_bytes=value)
    elif param.name == "max_nodes":
        state.limits = dataclasses.replace(state.limits, max_nodes=value)
    elif param.name == "max_diagnostics":
        state.limits = dataclasses.replace(state.limits, max_diagnostics=value)
    elif param.name == "debug":
        state.debug = True
    elif param.name == "color":
        state.color = value
    elif param.name == "quiet":
        state.quiet = True


def _global_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The group's options on a command too, so they work after it (`civrules validate --debug`).

    They are not passed to the command: their callback updates the shared `Context`, which the
    group made from the options before the command (the later one wins).
    """
    shared: dict[str, Any] = {"expose_value": False, "callback": _global_override}
    before = len(getattr(command, "__click_params__", []))
    for option in reversed(
        [
            click.option("--rules", type=_RULES, default=None, help=_RULES_HELP, **shared),
            click.option("--max-file-size", type=_SIZE, default=None, help=_MAX_FILE_SIZE_HELP, **shared),
            click.option("--max-nodes", type=_SIZE, default=None, help=_MAX_NODES_HELP, **shared),
            click.option(
                "--max-diagnostics", type=click.IntRange(min=1), default=None, help=_MAX_DIAGNOSTICS_HELP, **shared
            ),
            click.option("--debug", is_flag=True, default=False, help=_DEBUG_HELP, **shared),
            click.option("--color", "--colour", "color", type=_COLOR, default=None, help=_COLOR_HELP, **shared),
            click.option("-q", "--quiet", is_flag=True, default=False, help=_QUIET_HELP, **shared),
            click.option(
                "--no-shipped",
                is_flag=True,
                default=False,
                expose_value=False,
                callback=_no_shipped,
                help=_NO_SHIPPED_HELP,
            ),
        ]
    ):
        command = option(command)
    # Listed after the command's own options in its --help (click shows __click_params__ reversed).
    params: list[click.Parameter] = command.__click_params__  # type: ignore[attr-defined]
    command.__click_params__ = params[before:] + params[:before]  # type: ignore[attr-defined]
    return command


#: The formats whose every diagnostic becomes an annotation, an alert or an issue: infos only with
#: --infos, files named from the repository's root.
_ANNOTATING = ("github", "sarif", "gitlab")

#: Info diagnostics shown in text output even without --verbose: summaries, not one line per fact.
_SUMMARY_INFOS = SUMMARY_INFOS


def _emit(
    diagnostics: Sequence[Diagnostic],
    fmt: str,
    *,
    verbose: bool = True,
    keep_order: bool = False,
    summaries: bool = True,
    infos: bool = False,
    err: bool | None = None,
    failed: bool = False,
    last: bool = False,
    texts: Mapping[str, str] | None = None,
) -> None:
    """Print diagnostics (``texts``: the text of files quoted from elsewhere than the disk, by
    name: :func:`_placed_in_working_files`); text output without ``verbose`` folds per-fact infos (all infos without
    ``summaries``) into the summary; `github` and `sarif` output leave infos out unless ``infos``
    (each would be an annotation or a code-scanning alert). ``err``: on standard error, by default
    for the commands that make data and the language server (:data:`_DIAGNOSTICS_ON_STDERR`: standard
    output holds what the command made, or nothing, or is the editor's channel); ``failed``: the
    command stops without doing its work (a SARIF log says so); ``last``: they are the command's
    report, and it exits once they are printed: it is done from their last line on (the text
    output's count line, said as :func:`_done` says a last line; a document's end). A Ctrl-C between
    the count line and the exit of `validate` printed R016 after the report, on standard output,
    saying to run the command again (round 30 closed the same gap after build's `wrote N files`)."""
    state = click.get_current_context(silent=True)
    context = state.find_object(Context) if state is not None else None
    if err is None:
        err = _diagnostics_on_stderr(state)
    ordered = list(diagnostics) if keep_order else sort_diagnostics(diagnostics)
    shown = ordered
    if fmt == "text" and not verbose:
        kept = _SUMMARY_INFOS if summaries else set()
        shown = [d for d in ordered if d.severity is not Severity.INFO or d.code in kept]
    if fmt == "text" and context is not None and context.quiet:  # `-q`: errors and warnings only
        shown = [d for d in shown if d.severity is not Severity.INFO or d.code == TRUNCATED]
    if fmt in _ANNOTATING and not infos:
        # The line saying that more diagnostics than were listed exist stays: they may be errors.
        shown = [d for d in shown if d.severity is not Severity.INFO or d.code == TRUNCATED]
    # Every format lists at most --max-diagnostics per file, and one line for the rest: the
    # 490,000 diagnostics of a hostile file made 3.7 GB of SARIF; and ten times that in all (19,000
    # unused files printed 57,000). The counts below are of all.
    shown = cap_output(shown, context.limits.max_diagnostics if context is not None else Limits().max_diagnostics)
    limits = context.limits if context is not None else Limits()
    sources = SourceLines(texts=texts, max_bytes=limits.max_bytes)
    root = shipped = None
    if context is not None and fmt in _ANNOTATING:  # files named from the repository's root
        with contextlib.suppress(OSError):  # the working directory is gone: no file is named anyway
            root = source_root(context.rules)
    if context is not None:
        # A base's files: behind `<civrules>/`, not the install path, in every format (text too,
        # round 34: its notes named the install path where the messages say `<civrules>/`). The
        # shipped rules this rules folder reads as such: none for civrules' own checkout, whose
        # files are the repository's (they were named `<civrules>/...` there).
        shipped = context.shipped()
    stream = sys.stderr if err else sys.stdout
    colour = fmt == "text" and use_colour(context.color if context is not None else "auto", stream)
    chunks = render_chunks(shown, fmt, sources, colour=colour, root=root, failed=failed, shipped=shipped)
    if fmt == "gitlab":
        # What GitLab's report cannot hold (no file of the repository: a usage error, a base's
        # file) is said on standard error, in the job's log, as text: the job fails on it.
        apart = [d for d in shown if gitlab_name(d, root, shipped) is None]
        if apart:
            _echo_chunks(render_chunks(apart, "text", sources, shipped=shipped), err=True)
    if fmt in _DOCUMENTS:
        with interrupts.whole():
            _echo_chunks(chunks, err=err)
    else:
        # `color=` as decided: click would strip the escapes of output that is not a terminal.
        _echo_chunks(chunks, colour=colour, err=err)
    if fmt == "text":
        (_done if last else _note)(f"civrules: {count_line(ordered, verbose=verbose)}")
    elif last:  # (a stop signal held back while a document was written was raised at its end, as before)
        interrupts.finishing()


_STAGED_HELP = (
    "Fail (R022) on each file read that is not what git's index holds: untracked (or ignored), "
    "changed but not staged, or deleted but still staged; the pre-commit hooks run with it, so that "
    "what is checked is what is committed."
)


def _staged_problems(
    folder: Path,
    display: Callable[[Path], str],
    *,
    rules: bool,
    reading: Workspace | None = None,
    committed: dict[str, bytes | None] | None = None,
) -> list[Diagnostic]:
    """R022 for each file under ``folder`` (with ``rules``, each YAML file; else each file but
    Python's bytecode caches) that the commit will not hold as civrules reads it; exit 2 when git
    cannot say (no git, no repository).

    With ``reading`` (the workspace of the rules folder, nothing read yet), a file staged but not
    in a commit of some paths (`git commit PATHS`) is no R022: the workspace reads it as the commit
    holds it, its last committed copy or none. The commit then passes where what it holds is
    valid, whatever else is staged for a later one: it was refused for a staged file it did not
    need, and told to name it. With ``committed`` (an output folder `build --check` compares), such
    a file's copy in the commit is put there, by its path under ``folder`` (None: no file), to be
    compared instead of the one on disk."""
    from civrules.support import staged
    from civrules.support.install import path_word

    def wanted(relative: str) -> bool:
        if rules:
            return staged.is_rule_file(relative)
        return "__pycache__" not in relative.split("/")

    try:
        found = staged.unstaged(folder, wanted)
        if reading is not None:
            found = _read_as_committed(folder, found, reading)
        elif committed is not None:
            found = _compared_as_committed(folder, found, committed, display)
    except staged.StagedError as error:
        code = codes.MISSING_DEPENDENCY if error.missing_git else codes.COMMAND_LINE
        _usage_failure([_command_line(code, printable(str(error)), error.hint)])
    problems = []
    where = named_path(display(folder))
    # A hint's git command runs where the user is; outside the rules' work tree (a superproject
    # holding them as a submodule, another folder) git refused it ("Pathspec is in submodule",
    # "not a git repository"): it is then told the work tree with `-C`, and the path from there.
    top = _outside_work_tree(folder) if found else None
    for one in found:
        shown = display(folder / one.relative)
        # The git commands a hint names are pasted into a shell: each path one word of it, and
        # never read as an option (a file `-n.yaml` named at the top of `--rules .`).
        git, quoted = "git", printable(path_word(shown))
        if top is not None:
            inside = os.path.relpath(os.path.realpath(folder / one.relative), os.path.realpath(top))
            git, quoted = f"git -C {printable(path_word(display(top)))}", printable(path_word(inside))
        name = named_path(shown)
        if one.state == "not-in-commit":
            message = (
                f"{name} is staged, but not in this commit: `git commit` was given paths (or `--only`), and not "
                "this one (the commit holds its last committed copy, or none)"
            )
            hint = "name it in the `git commit` too, or commit without paths (what is staged goes in then)"
        elif one.state == "untracked":
            message = f"{name} is not in git's index (untracked): the commit will not hold it"
            hint = f"{ticked(f'{git} add {quoted}')} to commit it, or move it out of {where}"
        elif one.state == "ignored":
            message = f"{name} is not in git's index (ignored by git): the commit will not hold it"
            hint = f"{ticked(f'{git} add -f {quoted}')} to commit it all the same, or move it out of {where}"
        elif one.state == "unmerged" and rules and (conflicted := _conflict_markers_in(folder, one.relative, shown)):
            # Said as the reader says it (once: the same diagnostic), at the first marker, and even
            # where no ruleset read reads the file: an R022 beside it was two errors for one cause.
            problems.append(conflicted)
            continue
        elif one.state == "unmerged":
            message = f"{name} has a merge conflict not marked resolved: the commit cannot hold it"
            hint = (
                f"resolve the conflict in it, then mark it resolved: {ticked(f'{git} add {quoted}')} "
                f"(or {ticked(f'{git} rm {quoted}')} to leave the file out)"
            )
        elif one.state in ("sparse", "assumed"):
            flag = "skip-worktree" if one.state == "sparse" else "assume-unchanged"
            why = " (a sparse checkout sets it)" if one.state == "sparse" else ""
            message = (
                f"{name} is marked {flag}{why}, and the work tree does not hold its staged copy: "
                "git does not compare it, and the rules read are not the ones the commit holds"
            )
            hint = (
                f"{ticked(f'{git} update-index --no-{flag} {quoted}')}, then stage or undo what differs "
                f"({ticked(f'{git} add {quoted}')}, or {ticked(f'{git} restore {quoted}')})"
            )
        elif one.state == "changed":
            message = f"{name} has changes not staged for commit: the commit will not hold them"
            hint = f"{ticked(f'{git} add {quoted}')} to commit them, or undo them: {ticked(f'{git} restore {quoted}')}"
        else:
            message = f"{name} is deleted but still staged: the commit will hold it"
            restore = ticked(f"{git} restore {quoted}")
            hint = f"{ticked(f'{git} rm {quoted}')} to commit the deletion, or restore it: {restore}"
        not_staged = codes.NOT_STAGED
        problems.append(
            Diagnostic(not_staged.code, not_staged.severity, message, Span.at(shown), hint, subjects=(shown,))
        )
    return problems


def _committed_copy(folder: Path) -> Callable[[str], bytes | None]:
    """A file under ``folder`` (by its path there) as the commit's index holds it (None: none), read
    when asked: `build --check --staged --out DIR` reads the API manifests of the project's
    `generated/` (which the versions move from) so, not from disk; git failing reads none."""
    from civrules.support import staged

    def copy(relative: str) -> bytes | None:
        if not os.path.isdir(folder):
            return None
        try:
            return staged.committed_copies(folder, [relative]).get(relative)
        except staged.StagedError:
            return None

    return copy


def _conflict_markers_in(folder: Path, relative: str, shown: str) -> Diagnostic | None:
    """The L001 the reader gives the rule file at ``relative`` for the merge-conflict markers git
    left in it (:func:`civrules.load.reader.conflict_markers`), or None: none, or not read."""
    from civrules.load.reader import Limits, conflicted
    from civrules.support.files import RefusedError, read_under

    try:
        text = read_under(folder, relative, Limits().max_bytes).decode("utf-8")
    except (RefusedError, OSError, UnicodeDecodeError):
        return None
    return conflicted(text, shown)


def _read_as_committed(folder: Path, found: list[Unstaged], reading: Workspace) -> list[Unstaged]:
    """``found`` but the files not in a commit of some paths that ``reading`` now reads as the
    commit holds them (:func:`_staged_problems`); a copy that is no UTF-8 text stays an R022."""

    def take(relative: str, copy: bytes | None) -> bool:
        if copy is None:
            reading.absent.add(relative)
            return True
        try:
            reading.overrides[relative] = copy.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return False
        return True

    return _as_committed(folder, found, take, reading.display, "read")


def _compared_as_committed(
    folder: Path, found: list[Unstaged], committed: dict[str, bytes | None], display: Callable[[Path], str]
) -> list[Unstaged]:
    """``found`` but the files of an output folder not in a commit of some paths, whose copies in
    the commit are put in ``committed`` for `build --check` to compare (:func:`_staged_problems`)."""

    def take(relative: str, copy: bytes | None) -> bool:
        committed[relative] = copy
        return True

    return _as_committed(folder, found, take, display, "compared")


def _as_committed(
    folder: Path,
    found: list[Unstaged],
    take: Callable[[str, bytes | None], bool],
    display: Callable[[Path], str],
    verb: str,
) -> list[Unstaged]:
    """``found`` but the files not in a commit of some paths whose copy in the commit (bytes, or
    None for no file) ``take`` took; a note says which were, as they are not what the editor shows
    (a V001 for a base not named, an output file called stale, says why here)."""
    from civrules.support import staged

    left = [one.relative for one in found if one.state == "not-in-commit"]
    taken = {relative for relative, copy in staged.committed_copies(folder, left).items() if take(relative, copy)}
    if taken:
        named = sorted(named_path(display(folder / relative)) for relative in taken)
        listed = ", ".join(named[:3]) + (f" and {len(named) - 3:,} more" if len(named) > 3 else "")
        one = len(named) == 1
        _note(
            f"civrules: {listed}, staged but not in this commit (`git commit` was given paths, or `--only`), "
            f"{'is' if one else 'are'} {verb} as the commit holds {'it' if one else 'them'}: "
            f"{'its' if one else 'their'} last committed copy, or no file"
        )
    return [one for one in found if one.relative not in taken]


def _placed_in_working_files(
    workspace: Workspace, diagnostics: Sequence[Diagnostic]
) -> tuple[list[Diagnostic], dict[str, str]]:
    """``diagnostics`` with the lines of the files ``workspace`` read as a commit of some paths
    holds them (:func:`_read_as_committed`: its ``overrides``) placed in the files on disk, which
    the editor shows; and the committed text of each file whose lines could not be, by its name.

    A file's lines are moved where every place named in it lies in a part of the committed copy
    the working file holds unchanged (a line added above one only shifts it). Where one does not
    (the line was changed, or is not in the working file), that file's places keep the committed
    copy's lines, each message (or note) says so, and the line quoted is the committed copy's:
    round 35 gave the committed copy's line numbers, which the editor does not show, unmarked."""
    import difflib

    from civrules.load.lines import decode, split_lines
    from civrules.support.files import RefusedError, read_under

    if not workspace.overrides:
        return list(diagnostics), {}
    named = {workspace.display(workspace.root / relative): relative for relative in workspace.overrides}
    spans: dict[str, list[Span]] = {}
    for diagnostic in diagnostics:
        for span in (diagnostic.span, *(related.span for related in diagnostic.related)):
            if span is not None and span.file in named:
                spans.setdefault(span.file, []).append(span)
    moved: dict[str, dict[int, int]] = {}  # by file, each committed line to its working line
    kept: dict[str, str] = {}
    for file, found in spans.items():
        text = workspace.overrides[named[file]]
        before = split_lines(text)
        try:  # a regular file within the bound, never through a link
            after = split_lines(decode(read_under(workspace.root, named[file], workspace.limits.max_bytes)))
        except (RefusedError, OSError, ValueError):
            after = None
        lines: dict[int, int] = {}
        if after is not None:
            matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
            for tag, first, last, there, _ in matcher.get_opcodes():
                if tag == "equal":
                    lines.update((line + 1, there + line - first + 1) for line in range(first, last))
            lines[len(before) + 1] = len(after) + 1  # a place at the end of the file (one past its last line)
        if all(span.line in lines and span.end_line in lines for span in found):
            moved[file] = lines
        else:
            kept[file] = text

    def placed(span: Span) -> Span:
        lines = moved.get(span.file)
        if lines is None:
            return span
        return dataclasses.replace(span, line=lines[span.line], end_line=lines[span.end_line])

    said = " (at a line of the file as this commit holds it, its last committed copy: the file on disk differs there)"
    out = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        related = tuple(
            dataclasses.replace(one, span=placed(one.span), label=one.label + (said if one.span.file in kept else ""))
            for one in diagnostic.related
        )
        message = diagnostic.message + (said if span is not None and span.file in kept else "")
        out.append(
            dataclasses.replace(
                diagnostic, span=placed(span) if span is not None else None, related=related, message=message
            )
        )
    return out, kept


def _outside_work_tree(folder: Path) -> Path | None:
    """The top of the work tree git compares ``folder`` in, where the working directory is not in
    it (None where it is, or git cannot say)."""
    from civrules.support import staged

    top = staged.work_tree_top(folder)
    if top is None:
        return None
    here, real = Path(os.path.realpath(os.getcwd())), Path(os.path.realpath(top))
    return None if here == real or real in here.parents else top


def _usage_failure(diagnostics: Sequence[Diagnostic], fmt: str | None = None, *, err: bool | None = None) -> NoReturn:
    """Print ``diagnostics`` in ``fmt`` (by default the command's `--format`) on the stream of the
    command's diagnostics (``err``, by default as :func:`_emit` decides), and exit 2."""
    if fmt is None:
        state = click.get_current_context(silent=True)
        context = state.find_object(Context) if state is not None else None
        fmt = context.fmt if context is not None else "text"
    _emit(diagnostics, fmt, failed=True, err=err, last=True)
    sys.exit(EXIT_USAGE)


#: The commands whose standard output is data a script keeps (the rulesets or families, a diff,
#: the resolved ruleset, a code's documentation): their diagnostics, of the rules, of the command
#: line and of the process alike, go to standard error in the command's `--format`, so that
#: standard output holds what the command made, or nothing (`diff --format json > diff.json`).
#: The other commands' output is their report (`validate`, `build`, `watch`), or they write files
#: and print nothing else: their diagnostics are on standard output. The language server's standard
#: output is the editor's channel: its diagnostics (a usage error, pygls missing) go to standard
#: error too. One set with the entry point's, which says a failure that comes before the command
#: line can run.
_DIAGNOSTICS_ON_STDERR = DIAGNOSTICS_ON_STDERR


def _diagnostics_on_stderr(state: click.Context | None) -> bool:
    """Whether the command running (in ``state``, or a context above it) says its diagnostics on
    standard error (:data:`_DIAGNOSTICS_ON_STDERR`)."""
    while state is not None:
        if state.parent is not None and state.command.name in _DIAGNOSTICS_ON_STDERR:
            return True
        state = state.parent
    return False


def _output_failure(error: Exception, hint: str | None = None) -> NoReturn:
    """Exit 2 for an output folder civrules may not replace or cannot write; nothing was changed."""
    said = printable(str(error))
    hint = hint or getattr(error, "hint", None)
    if not hint:
        hint = (
            "check that the folder can be written (its permissions, the free space), or name another with --out"
            if said.startswith("cannot ")
            else "name a new or empty folder with --out, or one civrules wrote before (it holds `.civrules-output`)"
        )
    _usage_failure([_command_line(codes.OUTPUT_REFUSED, said, hint)])


def _failure_code(diagnostics: Sequence[Diagnostic]) -> int:
    """Exit 2 when a check crashed (R900, a bug in civrules), else 1 (the rules have errors)."""
    return EXIT_USAGE if any(d.code == codes.INTERNAL_ERROR.code for d in diagnostics) else EXIT_RULE_ERRORS


def _select_rulesets(
    workspace: Workspace,
    names: Sequence[str],
    fmt: str,
    *,
    require: bool = True,
    found: Sequence[Diagnostic] = (),
) -> list[LoadedRuleset]:
    """The rulesets named (every one when none is), loaded; exits where there is nothing to do.

    With ``require`` (every command but `validate`, which reports every file anyway), a tree whose
    manifests cannot be read is exit 1 with their diagnostics: `build --max-file-size 1` read
    nothing, and said "0 errors" and exited 0. ``found``: what the command found before (R022 of
    `--staged`), printed first wherever this exits: a manifest edited and not staged that no longer
    parses was reported as broken, and the difference from the commit, its cause, was not.
    """
    if not names:  # every ruleset is loaded: each manifest is read in full at once, not by its header first
        workspace.reads_headers = False
    manifests = workspace.manifests()
    if not manifests and workspace.discovery_diagnostics:
        _usage_failure([*found, *workspace.discovery_diagnostics], fmt)
    if not manifests and require:
        broken = broken_manifests(workspace)
        if has_errors(broken):
            _emit([*found, *broken], fmt, last=True)
            click.echo("civrules: nothing was read: no ruleset manifest could be read (see above)", err=True)
            sys.exit(EXIT_RULE_ERRORS)
        directory = workspace.display(workspace.root / "rulesets")
        _usage_failure(
            [
                *found,
                _command_line(
                    codes.NO_RULESETS,
                    f"no ruleset manifests in {named_path(directory)}",
                    "add one, or pass --rules DIR",
                ),
            ],
            fmt,
        )
    # A ruleset named may be a shipped one (`civrules diff my-game my-variant`).
    known = workspace.known_manifests()
    unknown = [name for name in names if name not in known]
    # A manifest that is there but cannot be read is not an unknown ruleset: show why it cannot.
    broken = [
        d
        for name in unknown
        for relative in (f"rulesets/{name}.yaml", f"rulesets/{name}.yml")
        if workspace.has_rule_file(relative)
        for d in workspace.load(relative).diagnostics
    ]
    if has_errors(broken):
        _emit([*found, *broken], fmt, last=True)
        sys.exit(EXIT_RULE_ERRORS)
    if unknown:
        _usage_failure([*found, *(_unknown_ruleset(name, list(known), manifests) for name in unknown)], fmt)
    chosen = list(names) if names else sorted(manifests)
    state = click.get_current_context().find_object(Context)
    loaded = []
    for name in chosen:
        if state is not None:
            state.current = name
        loaded.append(workspace.load_ruleset(known[name]))
    return loaded


def broken_manifests(workspace: Workspace) -> list[Diagnostic]:
    """The diagnostics of every file under rulesets/ that did not become a ruleset (it could not
    be read, or is no manifest): what a command working on every ruleset would silently skip."""
    manifests = {manifest.file.path for manifest in workspace.manifests().values()}
    found: list[Diagnostic] = []
    for relative in workspace.rule_files():
        if not relative.startswith("rulesets/") or relative.count("/") != 1:
            continue
        loaded = workspace.load(relative)
        if loaded.path not in manifests:
            found.extend(loaded.diagnostics)
    return found


def _some(ids: Sequence[str]) -> str:
    """The first :data:`~civrules.diagnostics.words.SHOWN` of ``ids`` and how many more there are: a
    rules folder of 5,000 manifests made a hint naming every one of them."""
    from civrules.diagnostics.words import SHOWN

    more = len(ids) - SHOWN
    return ", ".join(ids[:SHOWN]) + (f" and {more:,} more" if more > 0 else "")


def _unknown_ruleset(name: str, known: list[str], manifests: Mapping[str, Manifest] | None = None) -> Diagnostic:
    from civrules.diagnostics.suggest import did_you_mean

    hint = did_you_mean(name, known) or f"known rulesets: {_some(sorted(known)) or 'none'}"
    # A CI step validating what a change touched (`git diff --name-only | xargs civrules validate`)
    # names files: a manifest's is told its ruleset, any other file the run that reads them all.
    written = PurePosixPath(name.replace("\\", "/"))
    as_file = "/" in name or "\\" in name or "." in name  # an id is kebab-case: no `.`, no folder
    # a manifest's file: under `rulesets/`, or its name alone (`x.yaml`); `cards/x.yaml` is a data file
    stem = (written.stem if written.parent.name in ("rulesets", "") else None) if as_file else name
    if as_file:
        hint = (
            "a ruleset is named by its id, not by a file; `civrules validate` with no ruleset reads every file "
            "under the rules folder and checks every ruleset, which is what a change to a data file needs"
        )
    # A manifest copied from another keeps the other's id: the file is found by its name, the ruleset by its id.
    for declared, manifest in (manifests or {}).items():
        path = PurePosixPath(manifest.file.path)
        if path.stem == stem and path.parent.name == "rulesets":
            hint = (
                f"`rulesets/{path.name}` declares `id: {declared}`: validate it as `{declared}`, "
                f"or set `id: {stem}` in the file"
            )
            if as_file and declared == stem:
                hint = f"name the ruleset by its id, `{printable(stem)}`, not by its file"
    return Diagnostic(
        codes.UNKNOWN_RULESET.code,
        codes.UNKNOWN_RULESET.severity,
        f"no ruleset {shown(printable(name))}",
        Span.at("<command line>"),
        hint,
        subjects=(name,),
    )


def _inherited(manifests: Mapping[str, Manifest], ruleset_id: str) -> dict[str, Any]:
    """A manifest's top-level keys over those of its bases (cheap: no data file is read)."""
    chain: list[dict[str, Any]] = []
    current: str | None = ruleset_id
    while current is not None and current in manifests and len(chain) <= len(manifests):
        data = manifests[current].data
        chain.append(data)
        parent = data.get("extends")
        current = parent if isinstance(parent, str) else None
    merged: dict[str, Any] = {}
    for data in reversed(chain):
        merged.update(data)
    return merged


@main.command("list")
@_global_options
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, callback=_format_chosen
)
@click.option("--families", is_flag=True, help="List the installed game families instead, with their code prefixes.")
@click.pass_obj
def list_command(obj: Context, fmt: str, families: bool) -> None:
    """List the rulesets and their game families.

    Each ruleset is listed with its family; `--families` lists the installed families instead.
    """
    if families:
        _list_families(fmt)
        return
    workspace = obj.workspace()
    workspace.reads_headers = False  # every manifest's name and players are listed: each is read in full
    own = workspace.manifests()
    if not own:
        _usage_failure(workspace.discovery_diagnostics)
    manifests = workspace.known_manifests()
    # A shipped ruleset's file as every JSON output names it (behind `<civrules>/`): its install
    # path made two machines' listings of one repository differ.
    shipped_root = obj.shipped() if fmt == "json" else None
    rows: list[dict[str, Any]] = []
    for ruleset_id in sorted(manifests):
        data = _inherited(manifests, ruleset_id)
        raw_players = data.get("players")
        players: dict[str, Any] = raw_players if isinstance(raw_players, dict) else {}
        rows.append(
            {
                "id": ruleset_id,
                "name": data.get("name"),
                "extends": data.get("extends"),
                "players": {"min": players.get("min"), "max": players.get("max")},
                "file": json_file(manifests[ruleset_id].file.path, shipped_root),
                "family": manifests[ruleset_id].family.id,
                "shipped": manifests[ruleset_id].shipped,
            }
        )
    if fmt == "json":
        _print_document(dumps_json([_typed_row(row) for row in rows], indent=2, sort_keys=True))
        return
    # The id column as wide as the longest id (escaped as printed): no id runs into its name.
    width = max((len(printable(row["id"])) for row in rows), default=0)
    for row in rows:
        extends = f"  (extends {row['extends']})" if row["extends"] else ""
        # A manifest that fails validation is still listed: its fields may be anything.
        name = row["name"] if isinstance(row["name"], str) else "(no readable name: `civrules validate` says why)"
        shipped = "  (shipped with civrules)" if row["shipped"] else ""
        rest = f"{name}, {_players(row['players'])}{extends}  [{row['family']}]{shipped}"
        click.echo(safe_line_start(f"{printable(row['id']):<{width}}  {printable(rest)}"))


def _typed_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row of `list --format json` with the types docs/list-json.schema.json gives it: `name` and
    `extends` a text or null, each of `players` an integer or null. A manifest that fails
    validation is still listed, and a value of it of another type (`name: 5`, `extends: [a]`,
    `players: {min: true}`) is null: `civrules validate` says what is wrong with it, and a CI step
    reading the list gets the types it was told."""

    def text(value: Any) -> str | None:
        return value if isinstance(value, str) else None

    def count(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    players = row["players"]
    typed = {"min": count(players["min"]), "max": count(players["max"])}
    return {**row, "name": text(row["name"]), "extends": text(row["extends"]), "players": typed}


def _list_families(fmt: str) -> None:
    """`civrules list --families`: every game family civrules finds, with its code prefixes."""
    from civrules.families import families

    found = list(families().values())
    if fmt == "json":
        rows = [
            {
                "id": family.id,
                "name": family.name,
                "code_prefixes": list(family.code_prefixes),
                "default": family.default,
                "package": family.package,
            }
            for family in found
        ]
        _print_document(dumps_json(rows, indent=2, sort_keys=True))
        return
    width = max((len(printable(family.id)) for family in found), default=0)
    for family in found:
        default = "  (the default: a manifest without `family:`)" if family.default else ""
        rest = f"{family.name}; codes {' '.join(family.code_prefixes)}{default}"
        click.echo(safe_line_start(f"{printable(family.id):<{width}}  {printable(rest)}"))


def _players(players: Mapping[str, Any]) -> str:
    """`2-8 players`, `9 players` (not `9-9`), or what is known of the range."""
    low, high = (
        n if isinstance(n, int) and not isinstance(n, bool) else None for n in (players.get("min"), players.get("max"))
    )
    if isinstance(low, int) and low == high:
        return f"{low} player{'s' if low != 1 else ''}"
    if isinstance(low, int) and isinstance(high, int):
        return f"{low}-{high} players"
    if isinstance(low, int):
        return f"{low} or more players"
    if isinstance(high, int):
        return f"up to {high} players"
    return "players not given"


def _code_prefixes(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """`--select`/`--ignore` values: comma lists split, upper-cased, each the start of a known code.

    A value that selects nothing is a usage error: in CI, `--select XYZ` would otherwise hide every
    error and exit 0. So is a value naming no code at all (`--select ""`, `--select ,`: an unset
    variable in a CI script), which ran every check, or skipped none, whatever the script meant.
    """
    if not value:
        return ()  # nothing given: no check imported (every family's would be, to read the codes)
    for given in value:
        if not given.replace(",", "").strip():
            name = param.opts[0] if param.opts else "--select"
            raise _Refused(
                f"{shown(printable(given))} names no diagnostic code",
                f"give {name} CODE[,CODE...] (`civrules explain --list` prints every code), or leave {name} out "
                "to run every check",
                ctx=ctx,
                param=param,
            )
    from civrules.checks.catalogue import catalogue
    from civrules.diagnostics.suggest import mean, meant_code

    known = sorted(catalogue())
    prefixes = sorted({code[:n] for code in known for n in range(1, len(code) + 1)})
    chosen: list[str] = []
    for given in value:
        for part in given.split(","):
            item = part.strip().upper()
            if not item:
                continue
            if item not in prefixes:
                close = meant_code(part.strip(), prefixes)
                raise _Refused(
                    f"no diagnostic code starts with {shown(printable(part.strip()))}",
                    _then(
                        mean(part.strip(), close) if close else None,
                        f"the codes begin with {_prefixes_by_family()}; `civrules explain --list` prints every code",
                    ),
                    ctx=ctx,
                    param=param,
                )
            if item not in chosen:
                chosen.append(item)
    return tuple(chosen)


def _unknown_family(family_id: str) -> click.BadParameter:
    """`--family` naming no installed family, with the closest (its look-alike letters named)."""
    from civrules.diagnostics.suggest import did_you_mean
    from civrules.families import families

    near = did_you_mean(family_id, list(families()))
    return _Refused(
        f"no game family {shown(printable(family_id))}",
        _then(near, "`civrules list --families` names them"),
        param_hint="--family",
    )


def _prefixes_by_family() -> str:
    """The code prefixes in use, by who owns them: ``I L Q R S V X (core); E (example-dice)``."""
    from civrules.families import CORE_PREFIXES, families

    owners = [f"{' '.join(CORE_PREFIXES)} (core)"]
    owners += [f"{' '.join(family.code_prefixes)} ({family.id})" for family in families().values()]
    return "; ".join(owners)


@main.command()
@_global_options
@click.argument("rulesets", nargs=-1, shell_complete=_complete_rulesets)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    callback=_format_chosen,
    help="How diagnostics are printed.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--select",
    multiple=True,
    shell_complete=_complete_codes,
    metavar="CODE[,CODE...]",
    callback=_code_prefixes,
    help=(
        "Run only checks whose code starts with CODE (repeat it, or separate codes with commas); "
        "`civrules explain --list` names each code's family."
    ),
)
@click.option(
    "--ignore",
    multiple=True,
    shell_complete=_complete_codes,
    metavar="CODE[,CODE...]",
    callback=_code_prefixes,
    help="Skip checks whose code starts with CODE (repeat it, or separate codes with commas).",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Text output: list every info (each unknown fact), not only summaries."
)
@click.option(
    "--infos",
    is_flag=True,
    help=(
        "github, sarif and gitlab output: also report infos (left out by default: each would be an annotation, "
        "an alert or an issue)."
    ),
)
@click.option("--staged", is_flag=True, help=_STAGED_HELP)
@click.pass_obj
def validate(
    obj: Context,
    rulesets: tuple[str, ...],
    fmt: str,
    strict: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    verbose: bool,
    infos: bool,
    staged: bool,
) -> None:
    """Validate rulesets and report every problem found.

    With no RULESET: every ruleset, and every YAML file under the rules directory (a file no
    ruleset uses is a warning).
    """
    from civrules.pipeline import Shared, analyse
    from civrules.resolve import Resolver

    workspace = obj.workspace()
    # Before anything is read: the rules on disk must be the ones committed (or git must say so).
    not_staged = _staged_problems(obj.rules, workspace.display, rules=True, reading=workspace) if staged else []
    loaded = _select_rulesets(workspace, rulesets, fmt, require=False, found=not_staged)
    shared = Shared(len(loaded))  # a variant reuses its base's models and walks of the entries it keeps
    diagnostics: list[Diagnostic] = [*not_staged, *workspace.discovery_diagnostics]
    resolver = Resolver(workspace)  # shared: a variant reuses its base's resolution, not its whole chain's
    bases = Resolver.bases(loaded)
    for ruleset, extended in zip(loaded, Resolver.still_extended(bases), strict=True):
        obj.current = ruleset.id
        resolver.retain(extended)
        with shared.ruleset():
            analysis = analyse(workspace, ruleset, select, ignore, debug=obj.debug, resolver=resolver)
        diagnostics.extend(analysis.diagnostics)
    obj.current = None
    if not rulesets:
        from civrules.pipeline.incremental import unused_files

        diagnostics.extend(unused_files(workspace, loaded))
    diagnostics, texts = _placed_in_working_files(workspace, list(dict.fromkeys(diagnostics)))
    _emit(diagnostics, fmt, verbose=verbose or bool(select), infos=infos, last=True, texts=texts)
    if any(d.code == codes.INTERNAL_ERROR.code for d in diagnostics):
        sys.exit(EXIT_USAGE)
    failing = has_errors(diagnostics) or (strict and any(d.severity is Severity.WARNING for d in diagnostics))
    sys.exit(EXIT_RULE_ERRORS if failing else EXIT_CLEAN)


@main.command()
@_global_options
@click.argument("code", required=False, shell_complete=_complete_codes)
@click.option(
    "--list", "list_all", is_flag=True, help="List every code with its severity, what it reports and its family."
)
@click.option(
    "--family",
    "family_id",
    metavar="FAMILY",
    help="With --list: only the core's codes and those of this game family (`civrules list --families`).",
)
def explain(code: str | None, list_all: bool, family_id: str | None) -> None:
    """Explain a diagnostic code: what, why and how to fix.

    `civrules explain L002` prints one code's documentation; `civrules explain --list` lists them all,
    each with the family whose rulesets it is reported on (`core`: every ruleset).
    """
    from civrules.checks.catalogue import catalogue
    from civrules.families import families, family_of_code

    known = catalogue()
    if family_id is not None and family_id not in families():
        raise _unknown_family(family_id)
    # An option or argument the command would not read is refused, not dropped: `explain --list
    # R001` listed every code, and `explain R001 --family x` explained R001 whatever x was.
    if list_all and code is not None:
        raise click.UsageError(f"`--list` lists every code: name one ({shown(printable(code))}) or `--list`, not both")
    if not list_all and family_id is not None:
        raise click.UsageError("`--family` chooses the codes `--list` lists: add `--list`, or leave `--family` out")
    if list_all:
        for one in known.values():
            owner = family_of_code(one.code)
            if family_id is not None and owner is not None and owner.id != family_id:
                continue
            click.echo(
                f"{one.code}  {one.severity.value:<7}  {one.name}: {one.summary()}  [{owner.id if owner else 'core'}]"
            )
        return
    if code is None:
        raise click.UsageError("name a code (`civrules explain L002`), or list them all with `--list`")
    entry = known.get(code.upper())
    if entry is None:
        from civrules.families.code_hints import CodeHints

        # No ruleset here: each suggestion says whose it is (`A011`: one family's `A010`, or
        # another's `T011`).
        raise _Refused(
            f"no diagnostic code {shown(printable(code))}",
            _then(CodeHints().hint(code), "`civrules explain --list` prints every code"),
            param_hint="CODE",
        )
    click.echo(entry.explain(), nl=False)


@main.command("new-variant")
@_global_options
@click.argument("name")
@click.option(
    "--extends",
    "base",
    required=True,
    metavar="BASE",
    shell_complete=_complete_rulesets,
    help="The ruleset the variant changes.",
)
@click.pass_obj
def new_variant(obj: Context, name: str, base: str) -> None:
    """Scaffold a variant: rules/rulesets/NAME.yaml, extending BASE.

    The new variant changes nothing yet (it validates as it is).
    """
    from civrules.emit.packaging import ruleset_id_problems

    unusable = ruleset_id_problems(name)  # the ids check I003 refuses, for the same reasons
    if unusable:
        raise click.BadParameter(f"{printable(unusable[0].message)}; {unusable[0].hint}", param_hint="NAME")
    workspace = obj.workspace()
    manifests = workspace.known_manifests()  # a variant may extend a shipped ruleset
    if not manifests and workspace.discovery_diagnostics:  # why there is none (a linked rules folder...)
        _usage_failure(workspace.discovery_diagnostics)
    if base not in manifests:
        # A manifest that is there but cannot be read (a FIFO, no permission) is not an unknown
        # ruleset: its L012 says why, as `validate BASE` says it (it was "no ruleset `base`").
        broken = [
            d
            for relative in (f"rulesets/{base}.yaml", f"rulesets/{base}.yml")
            if workspace.has_rule_file(relative)
            for d in workspace.load(relative).diagnostics
        ]
        if has_errors(broken):
            _emit(broken, obj.fmt, failed=True, last=True)
            sys.exit(EXIT_RULE_ERRORS)
        _usage_failure([_unknown_ruleset(base, list(manifests))])
    _refuse_unresolvable_base(obj, workspace, manifests[base])
    from civrules.support import files

    path = obj.rules / "rulesets" / f"{name}.yaml"
    if name in manifests:
        raise click.BadParameter(f"a ruleset `{name}` already exists", param_hint="NAME")
    from civrules.emit.repository import UnreadableBaseError, variant_manifest

    try:
        scaffold = variant_manifest(workspace, manifests[base], name).encode("utf-8")
    except UnreadableBaseError as unreadable:  # read a moment ago, not now (an I/O error): nothing written
        _emit(unreadable.diagnostics, obj.fmt, failed=True, last=True)
        sys.exit(_failure_code(unreadable.diagnostics))
    try:  # a new file only: never over an existing one, never through a link
        files.make_folders(obj.rules, "rulesets")  # a rules folder of shipped bases only has none yet
        files.create_under(obj.rules, f"rulesets/{name}.yaml", scaffold)
    except files.RefusedError as refused:
        if refused.kind == "exists":
            raise click.BadParameter(
                f"{ticked(workspace.display(path))} already exists (a file, a folder or a link)", param_hint="NAME"
            ) from None
        from civrules.emit.output import OutputError, cause

        # The reason is the system's (a read-only folder, a full disk): not "cannot read". A folder
        # on the way that is none is named as the user knows it (`rules/rulesets`, not `rulesets`).
        said = (
            cause(refused.__cause__)
            if isinstance(refused.__cause__, OSError) and refused.kind != "link"
            else f"{named_path(workspace.display(obj.rules / refused.not_folder))} is not a folder but {refused.what}"
            if refused.not_folder
            else refused.reason
        )
        from civrules.support.files import limit_hint

        _output_failure(
            OutputError(f"cannot create {ticked(workspace.display(path))}: {said}"),
            (limit_hint(refused.__cause__) if isinstance(refused.__cause__, OSError) else None)
            or f"civrules needs to write a new file into {ticked(workspace.display(path.parent))}",
        )
    from civrules.support.commands import command

    _note(f"created {printable(workspace.display(path))}; next: edit it, then {ticked(command('validate', name))}")


def _refuse_unresolvable_base(obj: Context, workspace: Workspace, base: Manifest) -> None:
    """Exit 1, nothing written, when ``base``'s `extends` chain is a cycle or names a ruleset that
    is not there: a variant of it could never be resolved, and `new-variant` wrote one without a
    word and said "next: validate it" (round 33). What the base's files hold is the variant's to
    meet later (V003), as a base edited afterwards would be: not judged here."""
    from civrules.load.workspace import MAX_EXTENDS
    from civrules.resolve import cycle_message, unknown_base_message
    from civrules.support.commands import command

    manifests = workspace.known_manifests()
    chain, current = [base.id], base
    problem: tuple[codes.Code, str, str] | None = None
    while problem is None:
        parent = current.head.get("extends")
        if not isinstance(parent, str):
            return
        if parent in chain:
            hint = "break the cycle: a ruleset cannot extend itself or one of its own variants"
            problem = codes.EXTENDS_CYCLE, cycle_message((*chain[chain.index(parent) :], parent)), hint
        elif parent not in manifests:
            problem = codes.UNKNOWN_BASE, unknown_base_message(parent), "run `civrules list` to see the ids"
        elif len(chain) > MAX_EXTENDS:
            hint = "extend the base ruleset directly: a variant of a variant of ... that deep is not read"
            problem = codes.EXTENDS_CYCLE, f"the `extends` chain is more than {MAX_EXTENDS} rulesets long", hint
        else:
            chain.append(parent)
            current = manifests[parent]
    document = current.file.document
    at = document.span(("extends",)) if document is not None else Span.at(current.file.path)
    code, message, hint = problem
    found = Diagnostic(code.code, code.severity, message, at, hint, subjects=("extends",))
    refusal = _command_line(
        codes.BROKEN_BASE,
        f"the ruleset `{base.id}` cannot be extended: its `extends` chain cannot be resolved; no variant was created",
        f"fix `{current.id}`'s `extends:` first ({ticked(command('validate', base.id))} says the same), "
        "then run new-variant again",
    )
    _emit([found, refusal], obj.fmt, failed=True, last=True)
    sys.exit(EXIT_RULE_ERRORS)


@main.command()
@_global_options
@click.argument("old", shell_complete=_complete_rulesets)
@click.argument("new", shell_complete=_complete_rulesets)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, callback=_format_chosen
)
@click.option("--citations", is_flag=True, help="Also compare rule sections, sources, notes and disagreements.")
@click.pass_obj
def diff(obj: Context, old: str, new: str, fmt: str, citations: bool) -> None:
    """Show what ruleset NEW changes relative to OLD.

    Entity by entity, field by field. A ruleset with errors: when both still resolve, the diff is
    printed, then their errors, and the exit status is 1; otherwise only the errors. Errors are
    always on standard error, in the same --format: standard output holds the diff or nothing.
    """
    from civrules.pipeline import Shared, analyse, compare
    from civrules.resolve import Resolver
    from civrules.resolve.diff import render_text

    workspace = obj.workspace()
    loaded = _select_rulesets(workspace, [old, new], fmt)
    if loaded[0].family is not loaded[1].family:
        # Two games share no collection: the diff would be every entity removed, then every one added.
        families = f"`{old}` is of `{loaded[0].family.id}`, `{new}` of `{loaded[1].family.id}`"
        hint = "compare two rulesets of one family, such as a variant and its base (`civrules list` names each one's)"
        _usage_failure(
            [_command_line(codes.DIFF_ACROSS_FAMILIES, f"cannot diff rulesets of two games: {families}", hint)]
        )
    # The diagnostics are validate's (the same pipeline): a diff of a variant that does not
    # validate says so, whatever its errors' stage.
    resolver = Resolver(workspace)
    shared = Shared(len(loaded))
    resolved = []
    errors: list[Diagnostic] = []
    for one in loaded:
        obj.current = one.id
        with shared.ruleset():
            analysis = analyse(workspace, one, debug=obj.debug, resolver=resolver)
        obj.current = None
        found = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
        if analysis.resolved is None or analysis.model is None:
            # Not resolved: there is nothing to compare; the errors on standard error, as below.
            _emit(found or analysis.diagnostics, fmt, last=True)
            sys.exit(_failure_code(found or analysis.diagnostics))
        errors.extend(found)
        resolved.append(analysis.resolved)
    changes = compare(resolved[0], resolved[1], citations=citations)
    if fmt == "json":
        _print_document(dumps_json(changes.to_json(), indent=2, sort_keys=True))
    else:
        click.echo(render_text(changes), nl=False)
    if errors:
        # What the rulesets are, said after what they change: the diff alone would pass for a
        # reviewable change of a ruleset that does not validate.
        # On standard error, in the --format asked: `json` on both streams stays machine-readable.
        _emit(errors, fmt, last=True)
        sys.exit(_failure_code(errors))


@main.command()
@_global_options
@click.argument("rulesets", nargs=-1, shell_complete=_complete_rulesets)
@click.option("--check", "check_only", is_flag=True, help="Fail (exit 1) if generated/ is stale; write nothing.")
@click.option(
    "--out",
    type=_OUT,
    default=Path("generated"),
    show_default=True,
    help="The output directory.",
)
@click.option("-v", "--verbose", is_flag=True, help="List every info, not only a one-line count.")
@click.option("--staged", is_flag=True, help="With --check: " + _STAGED_HELP[:1].lower() + _STAGED_HELP[1:])
@click.pass_obj
def build(obj: Context, rulesets: tuple[str, ...], check_only: bool, out: Path, verbose: bool, staged: bool) -> None:
    """Generate the packages, sheets and helpers into generated/.

    Every clean ruleset is built; the new tree replaces the old one in one step, so a failed build
    leaves the old tree.
    """
    from civrules.emit import stamp
    from civrules.emit.output import OutputError, check_replaceable

    if staged and not check_only:
        raise _Refused(
            "--staged goes with --check: a build writes the files, and git's index is for you to update",
            "check what is committed with `civrules build --check --staged`, or leave --staged out",
            param_hint="'--staged'",
        )
    obj.require_rules()
    arguments = [*rulesets, f"max_bytes={obj.limits.max_bytes}", f"max_nodes={obj.limits.max_nodes}"]
    try:  # before anything is read, a folder civrules may not replace (or read, for --check) is refused
        check_replaceable(out, protected=obj.protected(), contents=not check_only, kind="build")
    except OutputError as error:
        _output_failure(error)
    if not check_only:
        _refuse_newer_output(out, "build")
    not_staged: list[Diagnostic] = []
    workspace = obj.workspace()
    committed: dict[str, bytes | None] = {}
    if staged:  # the rules read and the tree compared must be the ones committed
        # In a commit of some paths, what is staged and not named is read and compared as the
        # commit holds it (round 35 did it for the rules; the output folder was still compared
        # on disk, and its files staged and not named were each an R022 saying to name them).
        not_staged = _staged_problems(obj.rules, workspace.display, rules=True, reading=workspace)
        if os.path.isdir(out):
            not_staged += _staged_problems(out, workspace.display, rules=False, committed=committed)
    # What the rules are before they are read: the stamp vouches for these, not for a file saved
    # while the build runs (see stamp.record).
    inputs = None if check_only else stamp.input_digest(obj.rules, arguments, obj.limits.max_bytes)
    if not check_only and stamp.is_up_to_date(obj.rules, out, arguments, obj.limits.max_bytes, inputs=inputs):
        _done(f"civrules: {named_path(out)} is up to date (nothing changed since the last build)")
        return
    loaded = _select_rulesets(workspace, rulesets, "text", found=not_staged)
    broken = [] if rulesets else broken_manifests(workspace)
    if has_errors(broken):
        # Building "every ruleset" without one whose manifest cannot be read would drop its output.
        _emit([*not_staged, *broken], "text", last=True)
        click.echo("civrules: nothing was built: a ruleset manifest cannot be read (previous output kept)", err=True)
        sys.exit(EXIT_RULE_ERRORS)
    try:
        if check_only:
            _build_check(obj, workspace, loaded, rulesets, out, verbose, not_staged, committed, staged=staged)
        else:
            _build(obj, workspace, loaded, rulesets, out, verbose, inputs)
    except OutputError as error:
        _output_failure(error)


def _versions_said(result: BuildResult) -> None:
    """Why each package's version moved (or would, with --check)."""
    for line in result.versions:
        _note(f"civrules: {printable(line)}")


def _stale_texts(out: Path, relatives: Sequence[str]) -> dict[str, str]:
    """The text of each stale output file ``build --check`` found on disk, for its R009 to quote the
    line it names: a regular file of at most the bound a rule file has, as the renderer reads one
    (a link, a FIFO or a file grown past it is not quoted)."""
    from civrules.load.lines import decode
    from civrules.support.files import RefusedError, read_file

    texts = {}
    for relative in relatives:
        try:
            texts[str(out / relative)] = decode(read_file(out / relative, 8 * 1024 * 1024))
        except (RefusedError, OSError, ValueError):  # gone, refused, or no text: not quoted
            continue
    return texts


def _build_found(
    found: Sequence[Diagnostic], verbose: bool, *, last: bool, texts: Mapping[str, str] | None = None
) -> None:
    """What a build or `build --check` found: errors and warnings first, then the infos folded into
    one line (each with --verbose). ``last``: the report ends the command (`--check`, or no ruleset
    built: nothing is written after it), so a Ctrl-C after its last line is said as coming once the
    command was done, not as cutting short a command to run again."""
    by_severity = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    ordered = sorted(sort_diagnostics(found), key=lambda d: by_severity[d.severity])
    _emit(ordered, "text", verbose=verbose, keep_order=True, summaries=False, last=last, texts=texts)


def _build(
    obj: Context,
    workspace: Workspace,
    loaded: list[LoadedRuleset],
    rulesets: tuple[str, ...],
    out: Path,
    verbose: bool,
    inputs: str | None,
) -> None:
    """`civrules build` once its rulesets are loaded: :func:`civrules.emit.build.build_rulesets`,
    the function the benchmark measures too, then what it did said and the stamp recorded (of the
    ``inputs`` taken before the rules were read: :func:`civrules.emit.stamp.record`)."""
    from civrules.emit import build as builder
    from civrules.emit import stamp
    from civrules.emit.output import StagedTree

    edited: list[stamp.Edit] = []
    unrecorded: dict[str, str] | None = None
    kept: set[str] = set()

    def rendered(result: BuildResult) -> None:  # said before the new tree is swapped in
        nonlocal edited, unrecorded
        # What was changed by hand in the output, found as late as can be: just before the swap
        # (found before the rendering, a change made while the build ran was lost without a word).
        edited, unrecorded = stamp.edits(out), stamp.unrecorded(out)
        if isinstance(result.tree, StagedTree):  # an edit in place of a file the build kept stays in it
            kept.update(result.tree.shared(edit.relative for edit in edited))
        _versions_said(result)
        _build_found(result.diagnostics, verbose, last=len(result.failed_ids) == len(loaded))

    arguments = [*rulesets, f"max_bytes={obj.limits.max_bytes}", f"max_nodes={obj.limits.max_nodes}"]
    result, swapped = builder.build_rulesets(
        obj.rules, out, workspace, loaded, everything=not rulesets, debug=obj.debug, rendered=rendered
    )
    failed = _some(result.failed_ids)
    if len(result.failed_ids) < len(loaded):
        for relative, why in sorted(swapped.dropped.items()):
            click.echo(f"civrules: not carried over: {named_path(out / relative)}: {printable(why)}", err=True)
        # From what the build wrote, never the tree read again: a change made in it just after the
        # swap is not the build's (it was recorded as civrules' own, and vouched for by the stamp).
        replaced = stamp.lost(edited, swapped.written, swapped.carried)
        _edits_said(out, replaced, stamp.not_kept(unrecorded, swapped.written), kept)
        stamp.record_written(out, swapped.written, swapped.carried)
        if not result.failed:
            stamp.record(out, arguments, inputs, swapped.written)
        built = len(loaded) - len(result.failed_ids)
        wrote = f"{counted(len(result.tree), 'file')} for {counted(built, 'ruleset')}"
        _done(f"civrules: wrote {wrote} into {named_path(out)}")
    if result.failed:
        click.echo(f"civrules: not built, the rules have errors (previous output kept): {failed}", err=True)
        sys.exit(_failure_code(result.diagnostics))


def _edits_said(out: Path, lost: Sequence[Edit], unknown: int = 0, kept: Collection[str] = ()) -> None:
    """Each file of ``out`` changed or put there since civrules last wrote it, that the build just
    replaced or dropped (:func:`_edits_told`), on standard error even with `-q`: it is a loss, not
    progress. The build is not refused for it: it would be, forever."""
    for line in _edits_told(out, lost, unknown, kept):
        click.echo(line, err=True)


def _edits_told(out: Path, lost: Sequence[Edit], unknown: int = 0, kept: Collection[str] = ()) -> list[str]:
    """The lines saying which files of ``out`` changed since civrules wrote them a build replaced:
    a change made by hand in generated/ was lost without a word. ``unknown``: how many files the
    build replaced or dropped where civrules kept no record of what it had written there (no cache,
    or a cleared one): whether any was changed by hand cannot be told, and that is said, with why.
    ``kept``: those of ``lost`` the build had kept (linked from the old tree, unchanged then) and
    that were changed in place after: the new tree holds the change (it was "wrote it anew")."""
    told = []
    if unknown:
        from civrules.emit import stamp

        told.append(
            f"civrules: this build replaced or removed {counted(unknown, 'file')} of {named_path(out)}; whether any"
            f" had been changed by hand cannot be told: {stamp.why_unrecorded(out)}"
        )
        told.append(  # (then no file is known to be changed: a record tells those, and there is none)
            "  hint: what you change in the output is not kept; where the output is committed, `git diff`"
            " shows what was replaced"
        )
    for edit in lost:
        where = named_path(out / edit.relative)
        if edit.relative in kept:
            told.append(
                f"civrules: {where} was changed while this build ran, after the build had found it unchanged and"
                " kept it: the new tree holds the change; build again to write it anew"
            )
        elif edit.written is not None:
            told.append(f"civrules: {where} was changed since civrules wrote it; this build wrote it anew")
        else:
            told.append(f"civrules: {where} was not written by civrules; this build's tree does not hold it")
    if lost:
        told.append(
            "  hint: what you change in the output is not kept: make the change in the rule data (or in"
            " civrules' templates) instead; where the output is committed, `git diff` shows what was replaced"
        )
    return told


def _build_check(
    obj: Context,
    workspace: Workspace,
    loaded: list[LoadedRuleset],
    rulesets: tuple[str, ...],
    out: Path,
    verbose: bool,
    not_staged: Sequence[Diagnostic] = (),
    committed: Mapping[str, bytes | None] | None = None,
    *,
    staged: bool = False,
) -> None:
    """`civrules build --check` once its rulesets are loaded: render in memory, compare with ``out``
    (its files of ``committed``, by path under it, as the commit of some paths holds them: bytes,
    or None for none; :func:`_staged_problems`). With ``staged``, the project's ``generated/`` that
    a package's version moves from when ``out`` is another folder is read as the commit holds it."""
    from civrules.emit import build as builder
    from civrules.emit.output import MARKER, before_replacing, marked_version, marked_version_in

    # Unlike a build, --check keeps what only the checks need (no let_go).
    baseline = obj.project_generated()
    result = builder.render(
        workspace,
        loaded,
        debug=obj.debug,
        out=out,
        baseline=baseline,
        committed=committed,
        baseline_copy=_committed_copy(baseline) if staged else None,
    )
    _versions_said(result)
    found = list(result.diagnostics)
    failed = _some(result.failed_ids)
    stale = builder.check(out, result, [one.id for one in loaded], everything=not rulesets, committed=committed)
    for line in stale:  # each file's diff made as it is printed, and the lines printed bounded
        click.echo(printable(line))
    # Each stale file is an error of its own, located at it: CI can select, ignore or annotate it.
    # What to do before the build takes the folder is judged on disk, where that build runs; the
    # version the marker names is the marker compared: the commit's copy, where that is the one.
    first = before_replacing(out, obj.protected(), kind="build") if stale.found else None
    marked = None
    if stale.found:
        marked = marked_version_in(committed[MARKER]) if committed and MARKER in committed else marked_version(out)
    told = [
        _stale_output(out, relative, what, first, state, marked, committed=relative in (committed or {}), place=place)
        for relative, what, state, place in stale.found
    ]
    written = marked[0] if marked else None
    found += _of_another_version(out, told, written, "older output over it")
    found += not_staged
    found, texts = _placed_in_working_files(workspace, list(dict.fromkeys(found)))  # (an L001 said by both)
    # A file compared as the commit holds it is quoted from that copy, whose line R009 names; one
    # compared on disk, from the disk (the renderer itself quotes only rule files: a diagnostic at a
    # folder made a file quoted that file's first line).
    texts.update(
        (str(out / relative), copy.decode("utf-8", errors="replace"))
        for relative, copy in (committed or {}).items()
        if copy is not None
    )
    texts.update(_stale_texts(out, [relative for relative, _, _, _ in stale.found if str(out / relative) not in texts]))
    _build_found(found, verbose, last=True, texts=texts)
    if stale.files:
        differ = f"{stale.files:,} file differs" if stale.files == 1 else f"{stale.files:,} files differ"
        then = f"{printable(first)}; then run" if first else "run"
        if _is_newer(written):
            newer = f"it was written by civrules {written}, newer than this civrules {__version__}"
            click.echo(f"civrules: {named_path(out)} is stale ({differ}); {newer}: run civrules {written}", err=True)
        else:
            click.echo(f"civrules: {named_path(out)} is stale ({differ}); {then} {ticked(_build_command())}", err=True)
    elif not result.failed and not not_staged:
        _done(f"civrules: {named_path(out)} is up to date")
    if not_staged:
        files = f"{len(not_staged):,} file{'' if len(not_staged) == 1 else 's'}"
        click.echo(f"civrules: {files} read or compared not as staged for commit (R022)", err=True)
    if result.failed:
        click.echo(f"civrules: not checked, the rules have errors: {failed}", err=True)
        sys.exit(_failure_code(result.diagnostics))
    if stale.files or not_staged:
        sys.exit(EXIT_RULE_ERRORS)


_WEASYPRINT_DOCS = "https://doc.courtbouillon.org/weasyprint/stable/first_steps.html"


def _require_weasyprint(rules: Path) -> None:
    """`--pdf` needs WeasyPrint and the system libraries it loads (Pango): say what to install.
    Its libraries are looked up by running gcc and ld, never from a folder of the PATH that lies in
    the project of the rules folder ``rules`` (nor a relative one)."""
    from civrules.support import cache, search_path

    try:
        with search_path.absolute_only(cache.project_trees(rules)):
            import weasyprint  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as error:
        problem = f"--pdf needs WeasyPrint, which is not installed ({error})"
        from civrules.support.install import install_extra

        hint = f"install civrules' `pdf` extra into the Python that runs civrules: {ticked(install_extra('pdf'))}"
    except OSError as error:  # its system libraries are missing: the import loads them
        said = " ".join(str(error).split())[:200]
        problem = f"--pdf needs WeasyPrint's system libraries (Pango), which are missing ({said})"
        hint = (
            "install them, e.g. `sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0` (Debian, Ubuntu) "
            f"or `brew install pango` (macOS); see {_WEASYPRINT_DOCS}. Without --pdf the HTML sheets are written"
        )
    else:
        return
    missing = codes.MISSING_DEPENDENCY
    _usage_failure([Diagnostic(missing.code, missing.severity, problem, Span.at("<command line>"), hint)])


@main.command()
@_global_options
@click.argument("ruleset", shell_complete=_complete_rulesets)
@click.option("--pdf", is_flag=True, help="Also typeset every sheet into one PDF (WeasyPrint).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--out",
    type=_OUT,
    default=None,
    help="Where to write [default: dist/sheets/RULESET-PAPER].",
)
@click.pass_obj
def sheets(obj: Context, ruleset: str, pdf: bool, paper: str, out: Path | None) -> None:
    """Render the printable player aids of RULESET.

    HTML sheets, and one PDF of them all with --pdf (needs WeasyPrint and its system libraries).

    The A4 HTML sheets of every ruleset are also part of `civrules build` (generated/sheets/).
    """
    from civrules.emit import build as builder
    from civrules.emit.export import export_ruleset, fingerprint
    from civrules.emit.sheets import render_pdf, render_sheets
    from civrules.pipeline import analyse, derived_facts

    if pdf:
        _require_weasyprint(obj.rules)
    workspace = obj.workspace()
    (loaded,) = _select_rulesets(workspace, [ruleset], "text")
    analysis = analyse(workspace, loaded, debug=obj.debug)
    if not analysis.ok or analysis.resolved is None or analysis.model is None:
        _emit(analysis.diagnostics, "text", last=True)
        sys.exit(_failure_code(analysis.diagnostics))
    stamp = fingerprint(export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))
    changes = builder.variant_changes(workspace, loaded, analysis.resolved)
    target = out or Path("dist") / "sheets" / f"{ruleset}-{paper}"
    files = render_sheets(analysis.model, stamp, paper, changes)
    if pdf:
        files[f"{ruleset}-{paper}.pdf"] = render_pdf(analysis.model, stamp, paper, changes)
    from civrules.emit.output import OutputError, write_tree

    _refuse_newer_output(target, "sheets")
    try:
        write_tree(target, files, protected=obj.protected(), kind="sheets")
    except OutputError as error:
        _output_failure(error)
    _done(f"civrules: wrote {counted(len(files), 'file')} into {named_path(target)}")


@main.command()
@_global_options
@click.argument("ruleset", shell_complete=_complete_rulesets)
@click.option(
    "--out",
    type=_OUT,
    default=None,
    help="Where to write [default: dist/helpers/RULESET].",
)
@click.pass_obj
def helpers(obj: Context, ruleset: str, out: Path | None) -> None:
    """Write the player helper of RULESET: one offline HTML page.

    It works opened from disk, with no network. Every ruleset's is also part of `civrules build`
    (generated/helpers/).
    """
    from civrules.emit.export import export_ruleset, fingerprint
    from civrules.emit.helpers.render import render_helper
    from civrules.emit.output import OutputError, write_tree
    from civrules.pipeline import analyse, derived_facts

    workspace = obj.workspace()
    (loaded,) = _select_rulesets(workspace, [ruleset], "text")
    analysis = analyse(workspace, loaded, debug=obj.debug)
    if not analysis.ok or analysis.resolved is None or analysis.model is None:
        _emit(analysis.diagnostics, "text", last=True)
        sys.exit(_failure_code(analysis.diagnostics))
    stamp = fingerprint(export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))
    target = out or Path("dist") / "helpers" / ruleset
    files = {f"{ruleset}.html": render_helper(analysis.model, stamp)}
    _refuse_newer_output(target, "helpers")
    try:
        write_tree(target, files, protected=obj.protected(), kind="helpers")
    except OutputError as error:
        _output_failure(error)
    _done(f"civrules: wrote {named_path(target / f'{ruleset}.html')}")


@main.command()
@_global_options
@click.argument("ruleset", shell_complete=_complete_rulesets)
@click.option("--format", "fmt", type=click.Choice(["json"]), default="json", show_default=True)
@click.pass_obj
def export(obj: Context, ruleset: str, fmt: str) -> None:
    """Print the resolved ruleset as canonical JSON.

    Sorted keys, the same bytes on every run.
    """
    from civrules.emit.export import export_ruleset
    from civrules.pipeline import analyse, derived_facts

    workspace = obj.workspace()
    (loaded,) = _select_rulesets(workspace, [ruleset], "text")
    analysis = analyse(workspace, loaded, debug=obj.debug)
    if not analysis.ok or analysis.resolved is None or analysis.model is None:
        _emit(analysis.diagnostics, "text", last=True)
        sys.exit(_failure_code(analysis.diagnostics))
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    _print_document(dumps_json(exported, indent=2, sort_keys=True))


@main.command()
@_global_options
@click.pass_obj
def lsp(obj: Context) -> None:
    """Serve the Language Server Protocol over stdin/stdout.

    For editors: see docs/editors.md.
    """
    # The rules folder is not checked here: a relative --rules is looked for in the editor's
    # workspace folders first, which only `initialize` names, and a problem goes to the editor
    # through the protocol (stdout is its channel): see CivrulesServer.start.
    try:
        from civrules.lsp.server import serve
    except ImportError as error:  # pragma: no cover - pygls is a declared dependency
        from civrules.support.install import reinstall

        missing = codes.MISSING_DEPENDENCY
        _usage_failure(
            [
                _command_line(
                    missing, f"`civrules lsp` needs pygls ({error})", f"install it again: {ticked(reinstall())}"
                )
            ]
        )
    from civrules.support.commands import invoked, reading_options

    # What the editor shows is what `validate` prints of the folder: a command a hint gives to paste
    # in a terminal (R011's "list them all with ...") is that one, never this server started again
    # (which lists nothing there), with the options that choose what is read.
    with invoked([*reading_options(), "validate"]):
        code = serve(obj.rules, obj.limits)
    if code:
        sys.exit(code)  # `exit` without `shutdown` first, or the input ended: 1, as LSP says


@main.command()
@_global_options
@click.argument("rulesets", nargs=-1, shell_complete=_complete_rulesets)
@click.option("--build", "rebuild", is_flag=True, help="Also rebuild generated/ after each change that validates.")
@click.option(
    "--out",
    type=_OUT,
    default=Path("generated"),
    show_default=True,
    help="The output directory of --build.",
)
@click.option(
    "--interval",
    type=click.FloatRange(min=0.05, max=3600),
    default=0.3,
    show_default=True,
    help="Seconds between polls.",
)
@click.option("-v", "--verbose", is_flag=True, help="List every info (each unknown fact), not only summaries.")
@click.pass_obj
def watch(obj: Context, rulesets: tuple[str, ...], rebuild: bool, out: Path, interval: float, verbose: bool) -> None:
    """Validate RULESETS on every save, printing what changed.

    All rulesets when none is named; only what changed is printed; Ctrl-C stops.
    """
    from civrules.cli.watcher import watch as run
    from civrules.emit.output import OutputError, check_replaceable

    if not math.isfinite(interval):
        raise click.BadParameter(f"{interval} is not a number of seconds", param_hint="'--interval'")
    obj.require_rules()
    if rebuild:
        try:  # the folder is judged as `build` judges it, before the first round
            check_replaceable(out, protected=obj.protected(), kind="build")
        except OutputError as error:
            _output_failure(error)
        _refuse_newer_output(out, "build")
    workspace = obj.workspace()
    _select_rulesets(workspace, rulesets, "text")  # unknown names are a usage error, as for validate
    colour = use_colour(obj.color, sys.stdout)
    builder = _watch_builder(obj, rulesets, out) if rebuild else None
    try:
        # The report (diagnostics, `fixed:`) on standard output; summary and progress lines on
        # standard error, none with `-q`, as `validate` and `build` print them.
        run(
            obj.rules,
            rulesets,
            lambda line: click.echo(line, color=colour),
            note=_note,
            alert=lambda line: click.echo(line, err=True),
            quiet=obj.quiet,
            missing=_watched_absent,
            limits=obj.limits,
            build=builder[1] if builder else None,
            before_read=builder[0] if builder else None,
            interval=interval,
            verbose=verbose,
            colour=colour,
            debug=obj.debug,
        )
    except KeyboardInterrupt as stopped:  # Ctrl-C, SIGTERM, SIGHUP: the end of watching, not a failure to say
        sys.exit(interrupts.status_of(interrupts.signal_of(stopped)))


def _watched_absent(workspace: Workspace, names: Sequence[str]) -> list[Diagnostic]:
    """What `validate` says of each ruleset named to `watch` that a round did not check (deleted
    or renamed since the start, or its manifest no longer read): a manifest that cannot be read,
    its diagnostics; any other name, R001 with its "did you mean". Nothing where the rules folder
    has no manifest at all: the round reports that (R004), as `validate` does."""
    manifests = workspace.manifests()
    if not manifests and workspace.discovery_diagnostics:
        return []
    known = workspace.known_manifests()
    found: list[Diagnostic] = []
    for name in names:
        broken = [
            d
            for relative in (f"rulesets/{name}.yaml", f"rulesets/{name}.yml")
            if workspace.has_rule_file(relative)
            for d in workspace.load(relative).diagnostics
        ]
        found.extend(broken if has_errors(broken) else [_unknown_ruleset(name, list(known), manifests)])
    return found


def _watch_builder(obj: Context, rulesets: tuple[str, ...], out: Path) -> tuple[Callable[[], None], Any]:
    """What `watch --build` calls before each round reads the rules, and to build after it."""
    from civrules.emit import build as builder
    from civrules.emit import stamp
    from civrules.emit.output import OutputError, StagedTree
    from civrules.pipeline.incremental import Result

    arguments = [*rulesets, f"max_bytes={obj.limits.max_bytes}", f"max_nodes={obj.limits.max_nodes}"]
    taken: list[str | None] = [None]

    def before_read() -> None:
        # The rules as they are before the round reads them: the stamp vouches for these, not for a
        # save made after (taken once the round had read, a save in between was vouched for).
        taken[0] = stamp.input_digest(obj.rules, arguments, obj.limits.max_bytes)

    def rebuild(result: Result) -> tuple[str, bool]:
        """What the build said, and whether it failed (standard error even with `-q`)."""
        assert result.workspace is not None
        names = list(rulesets) or sorted(result.analyses)
        inputs = taken[0]
        # Rendered into its staging tree as `build` renders, so that what was changed by hand in the
        # output is found just before the swap: found before the files were written, a change made
        # while they were was replaced without a word (round 36).
        staged = StagedTree(out, "build")
        try:
            rendered = builder.render(
                result.workspace,
                [result.analyses[n].loaded for n in names],
                debug=obj.debug,
                out=out,
                tree=staged,
                baseline=obj.project_generated(),
            )
            if rendered.failed:
                return "civrules: nothing was built: the rules have errors", True
            edited = stamp.edits(out)
            unrecorded = stamp.unrecorded(out)
            kept = staged.shared(edit.relative for edit in edited)
            made = len(rendered.tree)  # (the staged tree takes in the files carried over)
            swapped = builder.build(
                out,
                rendered,
                names,
                everything=not rulesets,
                protected=obj.protected(),
            )
        except OutputError as error:  # the folder changed since the first round: say so, keep watching
            return f"civrules: nothing was built: {printable(str(error))}", True
        finally:
            staged.discard()
        # From what the build wrote, never the tree read again (see _build).
        stamp.record(out, arguments, inputs, swapped.written)
        replaced = stamp.lost(edited, swapped.written, swapped.carried)
        stamp.record_written(out, swapped.written, swapped.carried)
        count = f"{len(names)} ruleset{'' if len(names) == 1 else 's'}"
        said = [
            *_edits_told(out, replaced, stamp.not_kept(unrecorded, swapped.written), kept),
            f"civrules: wrote {counted(made, 'file')} for {count} into {named_path(out)}",
        ]
        return "\n".join(said), False

    return before_read, rebuild


@main.command()
@_global_options
@click.option(
    "--out",
    type=_OUT,
    required=True,
    help="The folder to write the schemas into (a new one, or one civrules wrote).",
)
@click.option("--check", "check_only", is_flag=True, help="Fail (exit 1) if the folder differs; write nothing.")
@click.pass_obj
def schemas(obj: Context, out: Path, check_only: bool) -> None:
    """Export the JSON Schemas (for editors, check-jsonschema).

    The modelines civrules writes (`# yaml-language-server: $schema=../../schemas/...`) point at a
    `schemas/` folder beside `rules/`: `civrules schemas --out schemas` makes it.
    """
    from civrules.emit.output import MARKER, OutputError, before_replacing, check_replaceable, stale_files, write_tree
    from civrules.emit.repository import schema_tree

    tree = schema_tree()
    if check_only:
        try:  # as `build --check`: where the folder is judged (never the working directory), not what it holds
            check_replaceable(out, protected=obj.protected(), contents=False, kind="schemas")
        except OutputError as error:
            _output_failure(error)
        # Compared as `build --check` compares a generated tree: a link, a FIFO or an empty folder
        # in it is named, never followed or read. The schemas are judged, not the marker and the
        # README civrules writes beside them: a folder of schemas kept by hand (this repository's
        # own, which civrules ships) has neither, and needs neither.
        stale = [
            one
            for one in stale_files(out, tree)
            if not (one.relative == MARKER and one.reason is None)
            and not (one.relative == "README.md" and one.state == "missing")
        ]
        if stale:
            first = before_replacing(out, obj.protected(), kind="schemas")
            # A missing folder is one civrules writes (it holds schemas), never one to delete.
            ours = [one.relative in tree or one.state == "missing" for one in stale]
            told = [_stale_schema(out, one, mine, first) for one, mine in zip(stale, ours, strict=True)]
            told = _schemas_of_another_version(out, told)
            _emit(told, "text", last=True, texts=_stale_texts(out, [one.relative for one in stale]))
            sys.exit(EXIT_RULE_ERRORS)
        _done(f"civrules: {named_path(out)} holds the schemas of civrules {__version__}")
        return
    _refuse_newer_output(out, "schemas")
    try:
        write_tree(out, tree, protected=obj.protected(), kind="schemas")
    except OutputError as error:
        _output_failure(error)
    _done(f"civrules: wrote {counted(len(tree), 'file')} into {named_path(out)}")


def _build_command() -> str:
    """The build that writes what `build --check` found stale: this invocation without `--check`."""
    from civrules.support.commands import command, rerun

    return rerun(dropping={"--check": False, "--staged": False}) or command("build")


def _stale_output(
    out: Path,
    relative: str,
    what: str,
    first: str | None = None,
    state: str = "differs",
    marked: tuple[str | None, int] | None = None,
    *,
    committed: bool = False,
    place: tuple[int, int] = (1, 1),
) -> Diagnostic:
    """R009: one file of a generated tree that is not what `civrules build` would write there (or
    a folder of them that is ``missing``; ``state``: :attr:`civrules.emit.output.StaleFile.state`);
    ``first``: what to do before that build takes the folder (:func:`before_replacing`); ``marked``:
    the civrules version the tree's marker names, and its line
    (:func:`civrules.emit.output.marked_version`), which a stale marker is said by; ``committed``:
    the file was compared as a commit of some paths holds it, staged but not named there; ``place``:
    the line and column of its first difference (:meth:`civrules.emit.output.StaleFile.place`)."""
    from civrules.emit.output import MARKER

    shown = str(out / relative) if relative else str(out)
    stale = codes.OUTPUT_STALE
    missing = state == "missing"
    hint = f"write it{'' if missing else ' again'}: {ticked(_build_command())}, and commit the result"
    if state == "line-endings":
        hint = _line_endings_hint(out, ticked(_build_command()))
    if first:
        hint = f"{first}; then {hint}"
    message, span = f"{named_path(shown)} {what}", Span.at(shown, *place)
    if committed:  # the disk's copy (staged) may be right: what is wrong is the commit's paths
        message += " (as this commit holds it: staged, but not in this commit, whose `git commit` was given paths)"
        hint = (
            "the commit holds the file's last committed copy, or none: name the output folder in the `git commit` "
            f"too (or commit without paths) if what is staged is current; else {hint}"
        )
    if relative == MARKER and not missing and marked is not None and marked[0] != __version__:
        written, line = marked
        span = Span.at(shown, line)
        if written is None:
            message = (
                f"{named_path(str(out))} names no civrules version in its {ticked(MARKER)}: a civrules before "
                f"round 34 wrote it, not this civrules {__version__}"
            )
        else:
            message = f"{named_path(str(out))} was written by civrules {written}, not by this civrules {__version__}"
    return Diagnostic(stale.code, stale.severity, message, span, hint, subjects=(shown,))


def _line_endings_hint(out: Path, again: str) -> str:
    """What to do about output files a checkout wrote with CRLF line endings: building again writes
    LF, which the next such checkout turns into CRLF again."""
    attributes = named_path(str(out.parent / ".gitattributes"))
    return (
        f"add the line `{out.name}/** -text` to {attributes} and commit it, so that git checks these files out as "
        "civrules writes them (`core.autocrlf`, the default of Git for Windows and of GitHub's Windows runners, "
        f"writes LF as CRLF); then {again} writes them as they are committed"
    )


def _refuse_newer_output(out: Path, kind: str) -> None:
    """Exit 2 (R007 at the marker's version line) where a newer civrules than this one wrote the
    folder ``out``: writing this civrules' output over it would put older output over newer (a
    designer upgraded, CI or a teammate did not), silently until round 34. `--check` says so
    instead (:func:`_of_another_version`); an older civrules' folder is written over, as before. A
    folder of another ``kind`` is left to the write, which refuses it for that."""
    from civrules.emit.output import MARKER, marked_kind, marked_version

    marked = marked_version(out) if os.path.isdir(out) and marked_kind(out) in ("", kind) else None
    if marked is None or not _is_newer(marked[0]):
        return
    written, line = marked
    folder, marker = named_path(str(out)), str(out / MARKER)
    refused = codes.OUTPUT_REFUSED
    message = (
        f"refusing to write over {folder}: civrules {written} wrote it, newer than this civrules {__version__}, "
        "whose output is older"
    )
    hint = (
        f"run civrules {written} here (in CI, pin it in the workflow's install step); to put civrules "
        f"{__version__}'s output there all the same, move {folder} aside (or delete it) first"
    )
    told = Diagnostic(refused.code, refused.severity, message, Span.at(marker, line), hint, subjects=(marker,))
    _usage_failure([told])


def _is_newer(written: str | None) -> bool:
    """Whether the civrules version ``written`` (read from a folder civrules wrote) is newer than
    this civrules."""
    if written is None or written == __version__:
        return False
    from packaging.version import InvalidVersion, Version

    try:
        return Version(written) > Version(__version__)
    except InvalidVersion:
        return False


def _schemas_of_another_version(out: Path, told: list[Diagnostic]) -> list[Diagnostic]:
    """``told`` (R009s of the schemas folder ``out``), each hint saying so where the folder's README
    names another civrules than this one. A repository whose workflow pins one civrules while
    its designer upgraded (or the other way) was told by CI's older civrules to write its schemas
    again, over the newer ones the designer's civrules wrote."""
    from civrules.emit.repository import schemas_version

    return _of_another_version(out, told, schemas_version(out), "older schemas over them")


def _of_another_version(out: Path, told: list[Diagnostic], written: str | None, over: str) -> list[Diagnostic]:
    """``told`` (R009s of the folder ``out``, which civrules ``written`` wrote, as the folder says),
    each hint saying so where that is another civrules than this one: a newer one is to be run
    rather than writing ``over`` with this one, and an older one's folder is written again and this
    civrules pinned where CI installs it (the same `build --check` or `schemas --check` in CI would
    say the folder is stale otherwise)."""
    if written is None or written == __version__ or written == "?":
        return told
    if _is_newer(written):
        said = (
            f"{named_path(str(out))} was written by civrules {written}, newer than this civrules {__version__}: "
            f"run civrules {written} here (in CI, pin it in the workflow's install step) rather than writing "
            f"{over}"
        )
        return [dataclasses.replace(d, hint=said) for d in told]
    pin = f"; {named_path(str(out))} was written by civrules {written}: pin civrules {__version__} where CI installs it"
    return [dataclasses.replace(d, hint=f"{d.hint}{pin}" if d.hint else pin) for d in told]


def _stale_schema(out: Path, one: StaleFile, ours: bool, first: str | None) -> Diagnostic:
    """R009: one entry of a schemas folder that is not what this civrules writes (``ours``: a
    file it writes has that path; ``first``: what to do before `civrules schemas` takes the folder)."""
    relative, said, reason = one.relative, one.what(), one.reason
    if reason is not None:  # a link, a FIFO, an empty folder: named, never read
        entry = "not a folder" if not relative else "not the file" if ours else "no file"
        what = f"is {entry} civrules {__version__} writes: {reason}"
    elif one.state in ("missing", "line-endings"):  # a file, or a folder of them (said once, with how many)
        what = said
    elif not ours:
        what = f"is no file civrules {__version__} writes"
    else:
        what = f"differs from the one civrules {__version__} writes"
    shown = str(out / relative) if relative else str(out)
    stale = codes.OUTPUT_STALE
    from civrules.support.commands import command, rerun

    # The invocation again without `--check` (a bare command where there is none).
    again = "write the schemas again: " + ticked(rerun(dropping={"--check": False}) or command("schemas", "--out", out))
    hint = again if ours or not relative else f"{again}, or delete {named_path(shown)}"
    if one.state == "line-endings":
        hint = _line_endings_hint(out, ticked(rerun(dropping={"--check": False}) or command("schemas", "--out", out)))
    if first:  # the write would refuse the folder as it is (not one civrules wrote, or a link)
        hint = f"{first}; then {hint}"
    message = f"{named_path(shown)} {what}"
    return Diagnostic(stale.code, stale.severity, message, Span.at(shown, *one.read().place()), hint, subjects=(shown,))


def _complete_families(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    from civrules.families import families

    return [name for name in sorted(families()) if name.startswith(incomplete)]


@main.command()
@_global_options
@click.argument("directory", required=False, type=_INIT_DIRECTORY, default=Path("."))
@click.option(
    "--family",
    "family_id",
    metavar="FAMILY",
    shell_complete=_complete_families,
    help="The game family of the new ruleset [default: the default family, or the one of --extends].",
)
@click.option(
    "--extends",
    "base_id",
    metavar="RULESET",
    shell_complete=_complete_rulesets,
    help="The shipped ruleset the new one is a variant of [default: the family's main ruleset].",
)
@click.option(
    "--new-base",
    is_flag=True,
    help="A base ruleset of its own instead of a variant: a copy of the family's main ruleset to edit throughout.",
)
@click.option("--name", metavar="ID", help="The new ruleset's id [default: from the folder's name].")
@click.pass_obj
def init(
    obj: Context, directory: Path, family_id: str | None, base_id: str | None, new_base: bool, name: str | None
) -> None:
    """Make a rule-data repository in DIRECTORY (default: here).

    rules/ with one ruleset, the schemas its modelines point at, a pre-commit configuration, a
    GitHub Actions workflow, a .yamllint, a .gitattributes and a README saying what to do next.
    Nothing is written over an existing file: a folder that already holds any of them is refused
    (a .gitattributes there is kept instead, and the lines it needs are said). Every file is
    written, or none (a full disk part-way leaves the folder as it was). The rules folder is
    always DIRECTORY/rules, where the hook and the workflow look: --rules is refused, and
    CIVRULES_RULES is not read.
    """
    import re

    if obj.rules_from == "--rules":  # accepted as every command's option, it chose nothing here
        raise _Refused(
            "`civrules init` makes its rules folder at DIRECTORY/rules; --rules does not choose it",
            "leave --rules out: `civrules init DIR` writes DIR/rules (and the hook and workflow that read it); "
            "--rules is for the commands that read rules kept elsewhere",
            param_hint="'--rules'",
        )

    from civrules.emit.packaging import ruleset_id_problems
    from civrules.emit.repository import (
        KEPT_IF_THERE,
        SCHEMAS,
        enclosing_repository,
        family_named,
        gitattributes_lines,
        main_ruleset,
        repository_files,
        schema_tree,
    )
    from civrules.load.workspace import shipped_rules

    if new_base and base_id is not None:
        raise click.UsageError("--new-base starts a ruleset that extends none: leave --extends out")
    shipped = shipped_rules()
    if shipped is None:  # pragma: no cover - a wheel always holds them
        from civrules.support.install import reinstall

        missing = codes.MISSING_DEPENDENCY
        problem = "this installation of civrules has no shipped rulesets"
        _usage_failure([_command_line(missing, problem, f"install civrules again: {ticked(reinstall())}")])
    workspace = Workspace(directory / "rules", obj.limits, shipped=shipped)
    known = workspace.shipped_manifests()
    family = family_named(family_id)
    if family is None:
        raise _unknown_family(family_id or "")
    if base_id is not None:
        if base_id not in known:
            _usage_failure([_unknown_ruleset(base_id, list(known))])
        base = known[base_id]
        if family_id is None:
            family = base.family
        elif base.family is not family:
            raise click.BadParameter(
                f"`{base_id}` is a ruleset of `{base.family.id}`, not of `{family.id}`", param_hint="--extends"
            )
    else:
        found = main_ruleset(workspace, family)
        if found is None:
            raise click.BadParameter(
                f"civrules ships no ruleset of `{family.id}` to start from; name one with --extends",
                param_hint="--family",
            )
        base = found
    if name is None:
        slug = re.sub(r"[^a-z0-9]+", "-", directory.absolute().name.lower()).strip("-")
        name = "my-rules" if ruleset_id_problems(slug) else slug
        if name in known:
            name = f"{name}-{'base' if new_base else 'variant'}"
    elif unusable := ruleset_id_problems(name):
        raise click.BadParameter(f"{printable(unusable[0].message)}; {unusable[0].hint}", param_hint="--name")
    if name in known:
        raise click.BadParameter(
            f"`{name}` is the id of a ruleset shipped with civrules; choose another", param_hint="--name"
        )
    from civrules.support.install import path_word, word

    extends = "--new-base" if new_base else f"--extends {word(base.id)}"
    arguments = f" --family {word(family.id)} {extends} --name {word(name)}"
    root = enclosing_repository(directory)
    inside = None
    if root is not None:
        inside = Path(os.path.normpath(Path.cwd() / directory)).relative_to(root).as_posix()
    from civrules.emit.repository import UnreadableBaseError

    def files_of(kept: Sequence[str]) -> dict[str, bytes]:
        return repository_files(workspace, base, name, new=new_base, arguments=arguments, inside=inside, kept=kept)

    try:  # files_of runs before anything is written: a base unreadable then leaves nothing written
        kept = _write_repository(directory, files_of, schema_tree(), SCHEMAS, kept_if_there=KEPT_IF_THERE)
    except UnreadableBaseError as unreadable:  # read a moment ago, not now (an I/O error): nothing written
        _emit(unreadable.diagnostics, obj.fmt, failed=True, last=True)
        sys.exit(_failure_code(unreadable.diagnostics))
    where = "" if directory == Path(".") else f"cd {printable(path_word(directory))} && "
    _note(
        f"civrules: made a rule-data repository in {named_path(directory)}: ruleset `{name}` "
        + ("(a base of its own)" if new_base else f"(a variant of `{base.id}`)")
    )
    _note(f"next: {ticked(f'{where}civrules validate')}, then see {named_path(directory / 'README.md')}")
    if kept:
        lines = "".join(f"\n  {line}" for line in gitattributes_lines().splitlines())
        _note(
            f"note: {named_path(directory / KEPT_IF_THERE[0])} is there already and was kept: so that checkouts "
            f"keep the line endings civrules and yamllint compare, add to it what it lacks of:{lines}"
        )
    if root is not None:
        # Not the folder's own repository: its workflow and hook run only once moved to the root.
        _note(
            f"note: {named_path(directory)} is inside the git repository {named_path(os.path.relpath(root))}, "
            "and GitHub and pre-commit read `.github/workflows/rules.yml` and `.pre-commit-config.yaml` only at "
            f"a repository's root: {named_path(directory / 'README.md')} (step 4) says how to move them there"
        )


def _write_repository(
    directory: Path,
    files_of: Callable[[Sequence[str]], Mapping[str, bytes]],
    schemas: Mapping[str, bytes],
    folder: str,
    *,
    kept_if_there: Sequence[str] = (),
) -> list[str]:
    """Write a new repository's files into ``directory``, none over anything that is there: every
    file, or none. A file of ``kept_if_there`` that is there (once a killed init's files are taken
    back) is kept and not written, and no reason to refuse: those kept are returned. The files are
    ``files_of(kept)``, made once what is kept is known (the README says what it kept: it named
    the `.gitattributes` it wrote where it had written none).

    Everything that would refuse the write is found before the first one: a file of the same
    name, ``directory`` or a folder above it inside the project (the working directory) that is a
    link. The files are then written into a staging folder civrules makes inside ``directory``
    (made first, without following links, when it is new) and renamed into place, never over a
    name taken meanwhile; a failure on the way (a full disk, a file-size limit, Ctrl-C) takes back
    what was renamed and removes the staging folder and the folders civrules made. The schemas go
    in one tree civrules marks as its own.
    """
    from civrules.emit.output import OutputError, refuse_links
    from civrules.support import files

    new_only = (
        "civrules init writes only new files; run it in an empty or new folder "
        "(`civrules init NEW-FOLDER`), or move those aside first"
    )
    no_links = (
        "civrules init writes only into real folders of the project; remove the link, or name the "
        "folder it points at if it is yours"
    )
    tree = files_of(())
    try:
        target = refuse_links(directory)
    except OutputError as refused:
        _output_failure(OutputError(f"{refused}: nothing was written"), no_links)
    kind = files.kind_of(target.parent, target.name) if os.path.isdir(target.parent) else "missing"
    if kind == "link":
        _output_failure(
            OutputError(
                f"refusing to write into {named_path(directory)}: {named_path(directory)} is a symbolic link; "
                "civrules does not follow links: nothing was written"
            ),
            no_links,
        )
    for relative in sorted({*tree, folder}):
        parts = PurePosixPath(relative).parts
        for depth in range(1, len(parts)):
            if files.is_link(target.joinpath(*parts[:depth])):
                on_the_way = "/".join(parts[:depth])
                _output_failure(
                    OutputError(
                        f"refusing to write into {named_path(directory)}: {ticked(on_the_way)} in it is a "
                        "symbolic link; civrules does not follow links: nothing was written"
                    ),
                    no_links,
                )
    if kind not in ("dir", "missing"):
        # A FIFO, a socket or a device (a regular file is refused with the option): it "already
        # held `.`", as if it were a folder with files in it.
        try:
            what = _no_folder(os.lstat(target).st_mode)
        except OSError:  # gone meanwhile: said as what it was
            what = "no folder"
        _output_failure(
            OutputError(f"{named_path(directory)} is not a folder but {what}: nothing was written"),
            "name a new folder for the repository, or an empty one (`civrules init NEW-FOLDER`)",
        )
    if kind == "dir":  # an init killed in this folder: its staging folder, and what it had moved out
        from civrules.emit.output import remove_abandoned_staging

        remove_abandoned_staging(target, _INIT_STAGING, _INIT_MARKER, lambda leftover: _undo_moves(target, leftover))
    kept = [relative for relative in kept_if_there if relative in tree and os.path.lexists(target / relative)]
    if kept:
        tree = {relative: data for relative, data in files_of(kept).items() if relative not in kept}
    clashes = [
        relative
        for relative in sorted({*tree, folder, "rules"})
        if os.path.lexists(target / relative) and not (relative == "rules" and _empty_folder(target / "rules"))
    ]
    if clashes:
        listed = ", ".join(f"`{c}`" for c in clashes)
        _output_failure(OutputError(f"{named_path(directory)} already holds {listed}: nothing was written"), new_only)
    try:
        _stage_repository(target, kind == "missing", tree, schemas, folder)
    except files.RefusedError as refused:
        error = refused.__cause__
        if refused.kind != "link" and isinstance(error, OSError):
            _repository_unwritable(directory, error)
        _output_failure(
            OutputError(f"{refused.reason}: nothing was changed"), no_links if refused.kind == "link" else new_only
        )
    except FileExistsError as error:  # made by another program while civrules wrote
        name = printable(os.path.basename(error.filename or ""))
        _output_failure(OutputError(f"{named_path(directory)} already holds `{name}`: nothing was changed"), new_only)
    except OutputError as error:
        if isinstance(error.__cause__, OSError):
            _repository_unwritable(directory, error.__cause__)
        _output_failure(error, new_only)
    except OSError as error:
        _repository_unwritable(directory, error)
    return kept


def _repository_unwritable(directory: Path, error: OSError) -> NoReturn:
    """Exit 2 for a repository the file system would not take (nothing of it was left)."""
    import errno

    from civrules.emit.output import OutputError, cause
    from civrules.support.files import limit_hint, not_folder_on

    in_the_way = not_folder_on(directory) if error.errno == errno.ENOTDIR else None
    if in_the_way is not None:
        there, what = in_the_way
        _output_failure(
            OutputError(
                f"cannot write into {named_path(directory)}: {named_path(there)} is not a folder but {what}; "
                "nothing was changed"
            ),
            f"move what is at {named_path(there)} away, or name another folder",
        )
    _output_failure(
        OutputError(f"cannot write into {named_path(directory)}: {cause(error)}; nothing was changed"),
        limit_hint(error)
        or "check that the folder can be written (its permissions, the free space on the disk, a "
        "file-size limit: `ulimit -f`), or name another",
    )


def _stage_repository(
    target: Path, new: bool, tree: Mapping[str, bytes], schemas: Mapping[str, bytes], folder: str
) -> None:
    """Write ``tree`` and the ``schemas`` (into ``folder``) into the folder ``target`` (absolute,
    its folders above resolved; ``new``: it does not exist yet), all or nothing (see
    :func:`_write_repository`)."""
    import shutil
    import tempfile

    from civrules.emit.output import hold, let_go_of, rename_new, write_tree
    from civrules.support import files

    made: list[Path] = []  # the folders made for ``target``, the deepest first
    staging: Path | None = None
    moved: list[tuple[Path, Path]] = []  # (staged, placed), in the order renamed
    try:
        if new:
            above = target
            while not os.path.lexists(above.parent) and above.parent != above:
                above = above.parent
            made = [folder_made for folder_made in (target, *target.parents) if folder_made.is_relative_to(above)]
            files.make_folders(above.parent, str(target.relative_to(above.parent)))
        with interrupts.deferred():  # the clean-up must always know the folder
            staging = Path(tempfile.mkdtemp(prefix=_INIT_STAGING, dir=target))
            hold(staging)
        files.create_under(staging, _INIT_MARKER, _INIT_MARKER_TEXT)
        for relative, content in sorted(tree.items()):
            parent = PurePosixPath(relative).parent
            if parent.parts:
                files.make_folders(staging, str(parent))
            files.create_under(staging, relative, content)
        write_tree(staging / folder, schemas, kind="schemas")
        import json

        # What the renames will move, and what each is like, made whole before the first: a kill
        # between two renames leaves it, by which the next init takes back what had been moved.
        planned: list[tuple[Path, Path]] = []
        _move_into(staging, target, planned, lambda source, place: None)
        journal = [[str(s.relative_to(staging)), str(p.relative_to(target)), _likeness(s)] for s, p in planned]
        files.create_under(staging, _INIT_MOVES, json.dumps(journal).encode())
        # Each file is synced before it has its name; the names (the record's among them) are the
        # folders' to keep: synced too, before any rename, a power loss after one cannot leave the
        # renames on the disk and the record, or a moved file, not.
        files.sync_folders(staging)
        with interrupts.deferred():  # the renames are one step for Ctrl-C
            _move_into(staging, target, moved, rename_new)
    except BaseException:
        with interrupts.deferred():
            for staged, placed in reversed(moved):
                with contextlib.suppress(OSError):
                    placed.rename(staged)
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
                let_go_of(staging)
            for folder_made in made:
                with contextlib.suppress(OSError):
                    folder_made.rmdir()  # only if empty: nothing but what civrules made
        raise
    shutil.rmtree(staging, ignore_errors=True)
    let_go_of(staging)


#: What `civrules init` names its staging folder with (inside the new repository), and the file
#: it puts there first, by which the next init knows one a killed init left (and is not moved).
_INIT_STAGING = ".civrules-init-"
_INIT_MARKER = ".civrules-init-staging"
_INIT_MARKER_TEXT = b"civrules init writes a new repository here, then moves it out; delete this folder if left.\n"


#: The record of the renames init is about to make (in its staging folder, never moved out).
_INIT_MOVES = ".civrules-init-moves"


def _likeness(path: Path) -> list[list[object]]:
    """What ``path`` (a file or a folder, not followed) and all it holds are like, as a rename keeps
    it: each entry's relative name, identity (inode), and a file's size and modification time. A
    file changed in place, or one added or removed, changes it."""
    import stat

    found: list[list[object]] = []
    entries = [(".", path)]
    while entries:
        relative, entry = entries.pop()
        try:
            facts = os.lstat(entry)
        except OSError:
            return []
        if stat.S_ISDIR(facts.st_mode):
            found.append([relative, facts.st_ino])  # a folder's own times move with the rename
            try:
                names = sorted(os.listdir(entry))
            except OSError:
                return []
            entries.extend((f"{relative}/{name}", entry / name) for name in names)
        else:
            found.append([relative, facts.st_ino, facts.st_size, facts.st_mtime_ns])
    return sorted(found, key=lambda item: str(item[0]))


def _undo_moves(target: Path, staging: Path) -> None:
    """Take back into ``staging`` (the folder of an init that was killed) what it had moved into
    ``target`` and is as it was moved: the repository is then as before that init, and the init run
    again writes it whole. What was changed since (a file edited, one added) stays."""
    from civrules.support import files, stored

    try:
        journal = stored.json_document(files.read_under(staging, _INIT_MOVES, 16 * 1024 * 1024))
    except (files.RefusedError, OSError, ValueError):
        return  # none: killed before its first rename
    if not isinstance(journal, list):
        return
    for entry in reversed(journal):
        if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(part, str) for part in entry[:2])):
            continue
        names = [PurePosixPath(entry[0]), PurePosixPath(entry[1])]
        if any(name.is_absolute() or ".." in name.parts or not name.parts for name in names):
            continue  # not a record init wrote: names inside the two folders only
        staged, placed = staging / entry[0], target / entry[1]
        if any(files.is_link(target.joinpath(*names[1].parts[:depth])) for depth in range(1, len(names[1].parts))):
            continue  # a folder on the way replaced by a link since: never followed
        if os.path.lexists(staged) or not os.path.lexists(placed) or _likeness(placed) != entry[2]:
            continue
        with contextlib.suppress(OSError):
            os.rename(placed, staged)


def _move_into(
    staged: Path, target: Path, moved: list[tuple[Path, Path]], rename_new: Callable[[Path, Path], None]
) -> None:
    """Rename what the folder ``staged`` holds into the folder ``target``: a folder that is there
    already (`.github` with workflows of its own, an empty `rules`) is entered, anything else is
    renamed whole, never over a name taken. Each rename is added to ``moved``."""
    for name in sorted(os.listdir(staged)):
        if name in (_INIT_MARKER, _INIT_MOVES):
            continue
        source, place = staged / name, target / name
        if _kind_of(source) == "dir" and _kind_of(place) == "dir":
            _move_into(source, place, moved, rename_new)
        else:
            rename_new(source, place)
            moved.append((source, place))


def _kind_of(path: Path) -> str:
    """What ``path`` is, without following it: "dir", "link", "file", "special" or "missing"."""
    from civrules.support import files

    return files.kind_of(path.parent, path.name)


def _empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
    except OSError:
        return False
