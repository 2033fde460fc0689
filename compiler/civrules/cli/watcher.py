"""`civrules watch`: validate (and with ``--build`` rebuild) on every save, printing only what changed.

The rules directory is polled (``os.stat`` of every YAML file: no dependency, works on every
file system, a few hundred microseconds a round for the shipped rules); a change runs a
:class:`civrules.pipeline.incremental.Session` update, which re-reads only the changed files and re-checks
only the rulesets that read them. The first round prints every diagnostic, as ``validate`` would;
each later round prints the diagnostics that appeared (in full, with the source line and hint)
and one line for each that went away, then a summary.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from civrules.diagnostics import (
    SUMMARY_INFOS,
    TRUNCATED,
    Diagnostic,
    Severity,
    cap_output,
    count_line,
    has_errors,
    sort_diagnostics,
    words,
)
from civrules.diagnostics.escape import printable
from civrules.diagnostics.render import SourceLines, json_file, render_text
from civrules.load import Limits
from civrules.load.workspace import Workspace, shipped_for
from civrules.pipeline.incremental import Result, Session
from civrules.support import files
from civrules.support.collector import settle
from civrules.support.commands import invoked

Echo = Callable[[str], None]


def snapshot(root: Path) -> dict[str, tuple[int, ...]]:
    """What a save changes, for every YAML name under ``root``: its kind, modification time, size,
    inode and change time (a tool that puts the modification time back, `touch -r`, `cp -p`, leaves
    the change time), and for a file not yet settled (:func:`civrules.support.files.settled`: saved
    within a step of a coarse file system clock) a digest of what it holds: a second save within
    that step, of the same size, changed nothing else a `stat` shows, and was never checked (a
    settled file's digest is 0: see :func:`_as_before`).

    Found as the rules are read (:func:`civrules.support.files.walk`): no link followed, folders at most
    :data:`~civrules.support.files.MAX_DEPTH` deep; a link or a FIFO is described by ``lstat``, never opened,
    so a file turning into one is a change, and what it points at is not looked at. A folder that
    cannot be listed is there too (as ``folder/``), so locking or unlocking it is a change.
    """
    found: dict[str, tuple[int, ...]] = {}
    now = time.time_ns()
    for entry in files.walk(root):
        if entry.kind == "unreadable":  # a folder locked or unlocked is a change: its L012 comes or goes
            found[f"{entry.relative}/"] = (0, entry.errno)
            continue
        # A `.YAML` file is watched too: it is reported (R015) until it is renamed.
        if entry.kind == "dir" or not entry.relative.lower().endswith((".yaml", ".yml")):
            continue
        try:
            status = os.lstat(root / entry.relative)
        except (OSError, ValueError):
            continue
        state: tuple[int, ...] = (status.st_mode, status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns)
        if stat.S_ISREG(status.st_mode):
            state += (0 if files.settled(status, now) else _digest(root, entry.relative),)
        found[entry.relative] = state
    return found


def _as_before(
    current: dict[str, tuple[int, ...]], before: Mapping[str, tuple[int, ...]] | None
) -> dict[str, tuple[int, ...]]:
    """``current`` (a :func:`snapshot`), where a file has settled since ``before`` (the last one) and
    its `stat` is as there, with the state it had there: a file settling is no change (it was one
    more round, reading nothing, two seconds after every save). A file settled in ``before`` whose
    `stat` is as there is as before too, though it looks unsettled now: this machine's clock was set
    back (every file then looked changed, and a round read them all again; round 36). Any change
    since it settled moved its change time."""
    for relative, state in current.items():
        last = (before or {}).get(relative)
        if last is not None and len(state) == 6 and 0 in (state[5], last[5]) and last[:5] == state[:5]:
            current[relative] = last
    return current


def _digest(root: Path, relative: str) -> int:
    """What the file ``relative`` holds, as a number (0: it could not be read, or is too large)."""
    try:
        data = files.read_under(root, relative, _MOST_DIGESTED)
    except (files.RefusedError, OSError):
        return 0
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


#: The largest file a snapshot reads to tell two saves apart (the largest a rule file may be).
_MOST_DIGESTED = Limits().max_bytes


#: How long a file a save has just emptied is waited for (seconds): a save that truncates and then
#: writes leaves it empty in between, and a busy machine can hold the writer there for a while.
EMPTIED_WAIT = 1.0


def _settled(
    root: Path, current: dict[str, tuple[int, ...]], interval: float, before: Mapping[str, tuple[int, ...]]
) -> dict[str, tuple[int, ...]]:
    """The files once they stand still: an editor that saves by truncating and then writing is not
    read in between (which would report an empty file, then "fixed" it).

    A file the change left empty (``before`` is the last state read) is a save still under way
    while it is waited for, up to :data:`EMPTIED_WAIT`: standing still for one pause is not enough
    for it when the writer was put aside between its two steps. A file emptied on purpose is read
    after that wait, and an empty file no save touched delays nothing."""
    pause = min(interval, 0.05)
    emptied_pauses = round(EMPTIED_WAIT / pause) if pause > 0 else 0
    for count in range(max(100, emptied_pauses)):  # a file rewritten without end is read all the same
        time.sleep(pause)
        again = _as_before(snapshot(root), current)
        if again == current and (count >= emptied_pauses or not _emptied(current, before)):
            break
        current = again
    return current


def _emptied(current: Mapping[str, tuple[int, ...]], before: Mapping[str, tuple[int, ...]]) -> bool:
    """Whether a regular file changed since ``before`` is empty now (a save between its steps)."""
    return any(
        stat.S_ISREG(state[0]) and state[2] == 0 and before.get(name) != state for name, state in current.items()
    )


def chosen(diagnostics: Sequence[Diagnostic], limit: int, *, verbose: bool, quiet: bool = False) -> list[Diagnostic]:
    """The diagnostics `validate` would print: infos folded into their summary unless ``verbose``,
    none with ``quiet`` (`-q`: errors and warnings only, and the line that counts what was not
    listed), at most ``limit`` per file and ten times that in all (one line counts the rest)."""
    listed = list(diagnostics)
    if quiet:  # as `validate -q`: the line saying more were found than listed stays (they may be errors)
        listed = [d for d in listed if d.severity is not Severity.INFO or d.code == TRUNCATED]
    elif not verbose:
        listed = [d for d in listed if d.severity is not Severity.INFO or d.code in SUMMARY_INFOS]
    return cap_output(listed, limit)


def unchecked_files(result: Result) -> frozenset[str]:
    """The files (as diagnostics name them) of every ruleset whose checks did not run this round: it
    stopped at reading, the schemas or resolving, so what those checks said is neither there nor gone."""
    found: set[str] = set()
    for name, analysis in result.analyses.items():
        if analysis.model is None:
            found.update(result.files.get(relative, relative) for relative in result.depends.get(name, ()))
    return frozenset(found)


#: The stages that run before a ruleset's checks (reading, schemas, manifests): what they say is
#: said again every round, even when the checks after them cannot run.
_READ_STAGES = ("L", "S", "R")


def _same_problem(diagnostic: Diagnostic) -> tuple[object, ...]:
    """A diagnostic without its line and column: a problem that only moved (a line added above it)
    is the same problem."""
    span = diagnostic.span
    return (diagnostic.code, diagnostic.severity, span.file if span else None, diagnostic.message, diagnostic.hint)


@dataclass(slots=True)
class Changes:
    """What one save changed: the diagnostics that appeared, those fixed, and what is now believed
    to stand (``current``: the new round's, plus those not checked again this round)."""

    appeared: list[Diagnostic]
    fixed: list[Diagnostic]
    current: list[Diagnostic]


def compare(
    before: Sequence[Diagnostic], after: Sequence[Diagnostic], unchecked: Collection[str] = frozenset()
) -> Changes:
    """The real changes between two rounds.

    - A diagnostic whose ruleset's checks did not run this round (``unchecked`` files; the rules have
      an error that stops them) is neither fixed nor new: it is held, and judged when they run again.
    - An info that goes away is not "fixed" (an info is no problem).
    - A diagnostic that only moved (same code, file, message and hint; lines added above it) is not
      a change.
    """
    new, old = set(after), set(before)
    held = [
        d
        for d in before
        if d not in new and d.span is not None and d.span.file in unchecked and not d.code.startswith(_READ_STAGES)
    ]
    kept = set(held)
    gone = [d for d in before if d not in new and d not in kept]
    appeared = [d for d in after if d not in old]
    moved = Counter(_same_problem(d) for d in gone) & Counter(_same_problem(d) for d in appeared)
    if moved:
        still = moved.copy()
        gone = [d for d in gone if not _take(still, _same_problem(d))]
        still = moved.copy()
        appeared = [d for d in appeared if not _take(still, _same_problem(d))]
    fixed = [d for d in gone if d.severity is not Severity.INFO]
    return Changes(appeared, fixed, sort_diagnostics([*after, *held]))


def _take(counts: Counter[tuple[object, ...]], key: tuple[object, ...]) -> bool:
    if counts[key] > 0:
        counts[key] -= 1
        return True
    return False


def describe_changes(
    before: Sequence[Diagnostic],
    after: Sequence[Diagnostic],
    sources: SourceLines,
    unchecked: Collection[str] = frozenset(),
    *,
    colour: bool = False,
) -> str:
    """What appeared (in full) and what was fixed (one line each): see :func:`compare`."""
    changes = compare(before, after, unchecked)
    return _described(changes, sources, colour=colour)


def _described(changes: Changes, sources: SourceLines, *, colour: bool = False, shipped: Path | None = None) -> str:
    out = render_text(changes.appeared, sources, colour=colour, shipped=shipped) if changes.appeared else ""
    for diagnostic in changes.fixed:  # every field escaped, as render_text escapes it
        span = diagnostic.span
        name = json_file(span.file, shipped) if span is not None else ""
        where = f"{printable(name)}:{span.line}:{span.column}" if span is not None else "civrules"
        out += f"fixed: {where}: {diagnostic.severity.value}[{diagnostic.code}]: {printable(diagnostic.message)}\n"
    return out


def summary(diagnostics: Sequence[Diagnostic], *, verbose: bool = False) -> str:
    """The counts `validate` prints: of every diagnostic, the infos not listed among them."""
    return count_line(diagnostics, verbose=verbose)


#: What a build after a round said: its line, and whether it failed (nothing was built).
Built = tuple[str, bool]


def watch(
    rules: Path,
    rulesets: Sequence[str],
    echo: Echo,
    *,
    note: Echo | None = None,
    alert: Echo | None = None,
    quiet: bool = False,
    missing: Callable[[Workspace, list[str]], list[Diagnostic]] | None = None,
    limits: Limits | None = None,
    build: Callable[[Result], Built | None] | None = None,
    before_read: Callable[[], None] | None = None,
    interval: float = 0.3,
    verbose: bool = False,
    colour: bool = False,
    debug: bool = False,
) -> None:
    """Validate ``rules`` now and after every change, until interrupted (``colour``: diagnostics in
    colour; ``debug``: a check that crashes stops it with its traceback, as `validate --debug`).

    ``echo`` prints the report (the diagnostics and `fixed:` lines: `civrules watch` writes it on
    standard output), ``note`` the summary and progress lines (standard error, none with `-q`),
    ``alert`` a build that did not happen (standard error, even with `-q`); both are ``echo`` where
    not given. ``quiet`` lists no infos. ``missing`` gives, each round, the diagnostics of the
    rulesets named that were not checked (deleted or renamed since the start, or no longer
    readable), given the round's workspace and their names: they are reported as `validate`
    reports them, never passed over as clean. ``before_read`` is called at each round just before
    the rules are read (`watch --build` takes there the digest its stamp vouches for).
    """
    note = note or echo
    alert = alert or echo
    session = Session(rules, limits, debug=debug)
    shown: list[Diagnostic] = []
    seen: dict[str, tuple[int, ...]] | None = None
    while True:
        current = _as_before(snapshot(rules), seen)
        if current == seen:
            time.sleep(interval)
            continue
        first = seen is None
        if not first:
            current = _settled(rules, current, interval, seen or {})
        seen = current
        started = time.perf_counter()
        if before_read is not None:
            before_read()
        result = session.update(rulesets)
        every = result.diagnostics
        gone = [name for name in rulesets if name not in result.analyses]
        absent = missing(result.workspace, gone) if gone and missing is not None and result.workspace else []
        if absent:
            every = sort_diagnostics([*every, *absent])
        elapsed = time.perf_counter() - started
        # R011's command lists the rest with `validate` of the rules folder and rulesets watched,
        # never with `watch` again (which lists nothing more and does not end).
        with invoked((*result.invocation, "--verbose") if verbose else result.invocation):
            diagnostics = chosen(every, session.limits.max_diagnostics, verbose=verbose, quiet=quiet)
        sources = SourceLines(max_bytes=session.limits.max_bytes)
        if first:
            out = render_text(diagnostics, sources, colour=colour, shipped=shipped_for(rules))
            shown = diagnostics
        else:
            changes = compare(shown, diagnostics, unchecked_files(result))
            out = _described(changes, sources, colour=colour, shipped=shipped_for(rules))
            shown = changes.current
        if out:
            echo(out.rstrip("\n"))
        if build is not None and (first or set(result.rechecked) & set(rulesets or result.analyses)):
            if has_errors(diagnostics):
                alert("civrules: nothing was built: the rules have errors")
            else:
                said = build(result)
                if said is not None:
                    (alert if said[1] else note)(said[0])
        # After every save, whatever it changed: the counts of `validate`, what was read, how long.
        reread = ", ".join(map(printable, result.reread)) if not first else words.count(len(result.reread), "file")
        counts = summary(every, verbose=verbose)
        note(f"civrules: {counts} (read {reread or 'nothing'}; {elapsed * 1000:.0f} ms)")
        # The result is out: the garbage collector's full collection is paid now, while waiting for
        # the next save, and what survives is frozen so the next update's collections skip it.
        settle()
