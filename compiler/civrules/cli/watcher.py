"""`civrules watch`: validate (and with ``--build`` rebuild) on every save, printing only what changed.

The rules directory is polled (``os.stat`` of every YAML file: no dependency, works on every
file system, a few hundred microseconds a round for the shipped rules); a change runs a
:class:`civrules.pipeline.incremental.Session` update, which re-reads only the changed files and re-checks
only the rulesets that read them. The first round prints every diagnostic, as ``validate`` would;
each later round prints the diagnostics that appeared (in full, with the source line and hint)
and one line for each that went away, then a summary.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from civrules.diagnostics import TRUNCATED, Diagnostic, Severity, cap_per_file, has_errors
from civrules.diagnostics.escape import printable
from civrules.diagnostics.render import SourceLines, render_text
from civrules.load import Limits
from civrules.pipeline.incremental import Result, Session
from civrules.support import files

Echo = Callable[[str], None]


def snapshot(root: Path) -> dict[str, tuple[int, ...]]:
    """What a save changes, for every YAML name under ``root``: its kind, modification time and size.

    Found as the rules are read (:func:`civrules.support.files.walk`): no link followed, folders at most
    :data:`~civrules.support.files.MAX_DEPTH` deep; a link or a FIFO is described by ``lstat``, never opened,
    so a file turning into one is a change, and what it points at is not looked at.
    """
    found: dict[str, tuple[int, ...]] = {}
    for entry in files.walk(root):
        if entry.kind == "dir" or not entry.relative.endswith((".yaml", ".yml")):
            continue
        try:
            status = os.lstat(root / entry.relative)
        except (OSError, ValueError):
            continue
        found[entry.relative] = (status.st_mode, status.st_mtime_ns, status.st_size, status.st_ino)
    return found


def _settled(root: Path, current: dict[str, tuple[int, ...]], interval: float) -> dict[str, tuple[int, ...]]:
    """The files once they stand still: an editor that saves by truncating and then writing is not
    read in between (which would report an empty file, then "fixed" it)."""
    pause = min(interval, 0.05)
    for _ in range(100):  # a file rewritten without end is read after 100 pauses all the same
        time.sleep(pause)
        again = snapshot(root)
        if again == current:
            break
        current = again
    return current


def chosen(result: Result, limit: int, *, verbose: bool) -> list[Diagnostic]:
    """The diagnostics `validate` would print: infos folded into their summary unless ``verbose``,
    at most ``limit`` per file (one line counts the rest)."""
    diagnostics = result.diagnostics
    if not verbose:
        diagnostics = [d for d in diagnostics if d.severity is not Severity.INFO or d.code in ("Q007", TRUNCATED)]
    return cap_per_file(diagnostics, limit)


def describe_changes(
    before: Sequence[Diagnostic], after: Sequence[Diagnostic], sources: SourceLines, *, colour: bool = False
) -> str:
    """What appeared (in full) and what went away (one line each)."""
    old, new = set(before), set(after)
    appeared = [d for d in after if d not in old]
    gone = [d for d in before if d not in new]
    out = render_text(appeared, sources, colour=colour) if appeared else ""
    for diagnostic in gone:  # every field escaped, as render_text escapes it
        span = diagnostic.span
        where = f"{printable(span.file)}:{span.line}:{span.column}" if span is not None else "civrules"
        out += f"fixed: {where}: {diagnostic.severity.value}[{diagnostic.code}]: {printable(diagnostic.message)}\n"
    return out


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    counts = {s: sum(1 for d in diagnostics if d.severity is s) for s in Severity}
    return ", ".join(f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in counts.items())


def watch(
    rules: Path,
    rulesets: Sequence[str],
    echo: Echo,
    *,
    limits: Limits | None = None,
    build: Callable[[Result], str | None] | None = None,
    interval: float = 0.3,
    verbose: bool = False,
    colour: bool = False,
) -> None:
    """Validate ``rules`` now and after every change, until interrupted (``colour``: diagnostics in colour)."""
    session = Session(rules, limits)
    shown: list[Diagnostic] = []
    seen: dict[str, tuple[int, ...]] | None = None
    while True:
        current = snapshot(rules)
        if current == seen:
            time.sleep(interval)
            continue
        first = seen is None
        if not first:
            current = _settled(rules, current, interval)
        seen = current
        started = time.perf_counter()
        result = session.update(rulesets)
        elapsed = time.perf_counter() - started
        diagnostics = chosen(result, session.limits.max_diagnostics, verbose=verbose)
        sources = SourceLines(max_bytes=session.limits.max_bytes)
        out = (
            render_text(diagnostics, sources, colour=colour)
            if first
            else describe_changes(shown, diagnostics, sources, colour=colour)
        )
        changed = first or bool(out)
        if out:
            echo(out.rstrip("\n"))
        if build is not None and (first or set(result.rechecked) & set(rulesets or result.analyses)):
            if has_errors(diagnostics):
                echo("civrules: nothing was built: the rules have errors")
            else:
                said = build(result)
                if said:
                    echo(said)
        if changed:
            reread = ", ".join(map(printable, result.reread)) if not first else f"{len(result.reread)} files"
            echo(f"civrules: {summary(diagnostics)} (read {reread or 'nothing'}; {elapsed * 1000:.0f} ms)")
        shown = diagnostics
