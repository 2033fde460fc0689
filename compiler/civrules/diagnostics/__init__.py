"""The one type every stage returns: a located, coded diagnostic.

Loading, schema validation, resolution and the semantic checks all report problems as
:class:`Diagnostic` values; nothing user-facing is ever an exception. Renderers live in
:mod:`civrules.diagnostics.render`.
"""

from __future__ import annotations

import bisect
import enum
import sys
from collections.abc import Iterable
from dataclasses import field, replace

from civrules.diagnostics.words import QUOTED_AT_MOST, bounded, count, ticked
from civrules.support.values import frozen_value


class Severity(enum.StrEnum):
    """How bad a diagnostic is; errors make `validate` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@frozen_value(order=True)
class Span:
    """A range in a file: 1-based line and column, the end column exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def at(cls, file: str, line: int = 1, column: int = 1) -> Span:
        """A one-character span (or a whole-file location when only the file is known)."""
        return cls(file, line, column, line, column + 1)


@frozen_value
class Related:
    """Another place that explains a diagnostic (the other side of a border, a base definition)."""

    span: Span
    label: str
    #: Whether it is the base's side of what a variant's diagnostic is about (the base definition it
    #: changes, the base fact it conflicts with, the base ruleset): a diagnostic with such a note
    #: gets no other "the base definition" (:func:`civrules.pipeline.note_base_definitions`). It was
    #: told by the word "base" in the label, which an id in a label (`database`) holds too.
    at_base: bool = False


@frozen_value
class Addition:
    """An entry a fix adds to a rule file where the diagnostic does not stand (V006's patch of
    each referrer, in `overlay.<collection>` of the variant): in ``file``, at the YAML ``path``
    (``append``: one more element of the list there; else the mapping key ``path[-1]``), the
    value ``text`` in YAML's flow style. An editor (the language server, which has the file's
    text) writes it where the path's block ends, making the keys of the path the file lacks."""

    file: str
    path: tuple[str, ...]
    text: str
    append: bool = False


@frozen_value
class Diagnostic:
    """A problem found in the rule data, with where it is and how to fix it."""

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    hint: str | None = None
    related: tuple[Related, ...] = field(default_factory=tuple)
    #: When the hint is a "did you mean", or proposes an id of the form ids take: the text to put
    #: in place of the span's (an editor's quick fix). Whoever knows the ruleset's ids drops one
    #: that is taken (the resolver, for an entity a variant adds).
    suggestion: str | None = None
    #: What the diagnostic is about, as data: the ids, keys, codes, paths and files its message
    #: names, each whole as the rule data spells it (a name holding a backtick or a space is one
    #: name), given where the diagnostic is made, never read back from the message. A variant's
    #: `suppress:` entry's `target` is matched against them, and `--format json` and `sarif` carry
    #: them (`subjects`) for CI to read. A message that lists only the first ids of many (`and 40
    #: more`) has every one of them here where the list is the diagnostic's own; of a list that
    #: many diagnostics share (each of n findings naming the same n elements), only those the
    #: message shows, so that what is printed grows with the findings, not with their square. A
    #: value is a subject where the message shows it whole, not a long text it cuts.
    subjects: tuple[str, ...] = ()
    #: The check's fix written as a variant makes it, in its own file (`overlay.<collection>.add:
    #: [...]`), for a diagnostic a variant causes in its base's files: the hint says it in place of
    #: the fix in the base's file, which is not the designer's to edit (it said only "change it in
    #: `overlay`, or undo this change", then that fix). None where the fix is the same words in
    #: either file.
    from_variant: str | None = None
    #: A fix made of entries to write elsewhere (:class:`Addition`), with what an editor's quick
    #: fix calls it (``fix_title``): where the hint's first way is such entries (V006's patch
    #: pointing each reference at the entity a variant renamed it to), not a text put at the span.
    additions: tuple[Addition, ...] = ()
    fix_title: str | None = None

    def __post_init__(self) -> None:
        # What a diagnostic quotes is bounded here, for every code at once: a message quoting a
        # value of the data as written grew with the value (round 33: V001 of a 200,000-letter
        # `extends:` was 200 kB). A subject longer than the bound is no subject: the message does
        # not show it whole, and held whole it made each output that carries subjects as long.
        # (Each field judged by its type: a stand-in value of another type is kept as it is.)
        if type(self.message) is str and len(self.message) > QUOTED_AT_MOST:
            object.__setattr__(self, "message", bounded(self.message))
        if type(self.hint) is str and len(self.hint) > QUOTED_AT_MOST:
            object.__setattr__(self, "hint", bounded(self.hint))
        if type(self.related) is tuple and any(len(note.label) > QUOTED_AT_MOST for note in self.related):
            notes = tuple(replace(note, label=bounded(note.label)) for note in self.related)
            object.__setattr__(self, "related", notes)
        if type(self.subjects) is tuple and any(len(subject) > QUOTED_AT_MOST for subject in self.subjects):
            object.__setattr__(self, "subjects", tuple(s for s in self.subjects if len(s) <= QUOTED_AT_MOST))
        # A check gives the same hint to each of its n findings, made anew each time: kept as one
        # string, not n copies (40,000 diagnostics of a hostile map held 20,000 copies of S004's).
        if type(self.hint) is str:
            object.__setattr__(self, "hint", sys.intern(self.hint))

    @property
    def refuses(self) -> bool:
        """Whether what stands at the span was refused (a key or value the reader dropped, a path
        the schema will not follow): an error. A warning or an info says something of a value that
        is taken as written, and stops nothing, whatever its code or place."""
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple[str, int, int, str, str]:
        span = self.span or Span("", 0, 0, 0, 0)
        return (span.file, span.line, span.column, self.code, self.message)


@frozen_value
class Unreadable(Diagnostic):
    """L012: a rule file (or folder) civrules could not read, with why as data: ``reason`` is the
    cause alone (`no such file`, `permission denied`, `it is a symbolic link`), which a manifest
    naming the file reports again in words of its own. It was cut from the end of the message
    (everything after its last `: `), which held only while no cause held a `: `."""

    reason: str = ""


@frozen_value
class Unchanged(Diagnostic):
    """V013: a patch that sets every field it names to the value it has, with where each of those
    fields is written in it (``fields_at``, their keys). A Q009 asking a citation of fields of the
    same entity is this patch's (and dropped) only where it stands at one of them: matched by the
    entity and the fields alone, an uncited change in a later entry was dropped with the no-op's."""

    fields_at: tuple[Span, ...] = ()


@frozen_value
class Summary(Diagnostic):
    """R011: the one line standing for what a file does not list (:func:`cap_per_file`), with what
    it counts as data: ``hidden`` diagnostics not listed, and whether checking the file
    ``stopped`` at the bound. They were read back from its message by a pattern."""

    hidden: int = 0
    stopped: bool = False


def named(subjects: Iterable[object]) -> tuple[str, ...]:
    """``subjects`` as :attr:`Diagnostic.subjects` holds them: each once, in the order given, as
    the text a message shows it by (a number quoted as `3` is the subject ``"3"``). One name
    given alone (`subjects=card.id`) is that name, not its letters.

    >>> named(["oak", "birch", "oak", 3]), named("oak")
    (('oak', 'birch', '3'), ('oak',))
    """
    if isinstance(subjects, str):
        return (subjects,)
    return tuple(dict.fromkeys(s if isinstance(s, str) else str(s) for s in subjects))


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order diagnostics by file and position so output is stable across runs.

    One diagnostic per root cause: the same problem found by two stages (an unknown key of a patch
    by the manifest's schema, and again by its entity's once merged) is listed once, with the notes
    of both (:func:`merge_duplicates`); a schema error (S…) about a node that holds a refused load
    error (L…: a key or value the reader dropped) is its consequence, and is left out. A load
    warning (L014's leading zero, L015's invisible character) refuses nothing, the value is read as
    written: taken for a refusal, it hid the error of each node around it, up to the file's
    (a file `0` and a soft hyphen exited 1 with no error listed).
    """
    unique = merge_duplicates(diagnostics)
    refused = [d.span for d in unique if d.span is not None and _refusal(d)]
    if refused:
        holds_any = _Holding(refused)
        unique = [d for d in unique if not (d.code.startswith("S") and holds_any(d.span))]
    return sorted(unique, key=Diagnostic.sort_key)


def _refusal(diagnostic: Diagnostic) -> bool:
    """Whether ``diagnostic`` stands where the reader dropped a key or a value (a load error)."""
    return diagnostic.refuses and diagnostic.code.startswith("L")


def merge_duplicates(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with each problem once: two that differ only in their notes (one stage adds
    "the base definition", another does not) are one, with the notes of both, where the first of
    them stood.

    >>> at = Span.at("v.yaml", 3, 5)
    >>> base = Related(Span.at("base.yaml", 9), "the base definition", at_base=True)
    >>> bare = Diagnostic("S002", Severity.ERROR, "unknown key `cots`", at)
    >>> noted = Diagnostic("S002", Severity.ERROR, "unknown key `cots`", at, related=(base,))
    >>> merge_duplicates([bare, noted]) == [noted]
    True
    """
    merged: dict[tuple[object, ...], Diagnostic] = {}
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.severity, diagnostic.message, diagnostic.span, diagnostic.hint)
        held = merged.get(key)
        if held is None:
            merged[key] = diagnostic
        elif held != diagnostic:
            related = tuple(dict.fromkeys((*held.related, *diagnostic.related)))
            subjects = tuple(dict.fromkeys((*held.subjects, *diagnostic.subjects)))
            merged[key] = replace(
                held, related=related, suggestion=held.suggestion or diagnostic.suggestion, subjects=subjects
            )
    return list(merged.values())


class _Holding:
    """Whether a span holds any of ``inner`` (another span of its file lying within it).

    The inner spans of each file are sorted by where they start, and a span's are looked for from
    its start on, stopping at its end: the spans of one document nest or lie apart, so the first
    that starts within a span mostly lies within it. Each schema error was tested against every
    refused key (245,000 duplicate keys, each an L diagnostic: 58 s of one `validate`).
    """

    def __init__(self, inner: list[Span]) -> None:
        by_file: dict[str, list[tuple[tuple[int, int], tuple[int, int], Span]]] = {}
        for other in inner:
            by_file.setdefault(other.file, []).append(
                ((other.line, other.column), (other.end_line, other.end_column), other)
            )
        for entries in by_file.values():
            entries.sort(key=lambda entry: entry[0])
        self._by_file = by_file
        self._starts = {file: [entry[0] for entry in entries] for file, entries in by_file.items()}

    def __call__(self, span: Span | None) -> bool:
        if span is None or span.file not in self._by_file:
            return False
        entries = self._by_file[span.file]
        start, end = (span.line, span.column), (span.end_line, span.end_column)
        at = bisect.bisect_left(self._starts[span.file], start)
        while at < len(entries) and entries[at][0] <= end:
            _, other_end, other = entries[at]
            if other_end <= end and other != span:
                return True
            at += 1
        return False


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


#: The code of the one line that stands for the diagnostics of a file not listed (see codes.py).
TRUNCATED = "R011"


#: Infos that text output lists even without --verbose: summaries, not one line per fact (Q007 counts
#: a ruleset's unknown facts; the truncation line counts what a file did not list).
SUMMARY_INFOS = frozenset({"Q007", TRUNCATED})


def count_line(diagnostics: Iterable[Diagnostic], *, verbose: bool = False) -> str:
    """The counts text output ends with, of every diagnostic (``validate`` and ``watch`` alike):
    ``1 error, 0 warnings, 234 infos (232 infos not shown: --verbose lists them)``."""
    found = list(diagnostics)
    counts = {s: sum(1 for d in found if d.severity is s) for s in Severity}
    line = ", ".join(f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in counts.items())
    hidden = sum(1 for d in found if d.severity is Severity.INFO and d.code not in SUMMARY_INFOS)
    if hidden and not verbose:
        line += f" ({hidden} info{'s' if hidden != 1 else ''} not shown: --verbose lists them)"
    return line


def _with_bound(bound: int | None) -> str:
    """The running command again with ``--max-diagnostics`` set to ``bound`` (N where unknown), to
    paste where it was run; without a command line (a language server or a session in another
    program's process), `civrules --max-diagnostics N validate`: the command that lists them. It
    was `civrules --max-diagnostics N`, which names no command and runs none."""
    from civrules.support.commands import command, rerun

    given = ["--max-diagnostics", "N" if bound is None else str(bound)]
    return rerun(given, dropping={"--max-diagnostics": True}) or command(*given, "validate")


#: How many times the per-file bound (`--max-diagnostics`) a whole output lists at most.
FILES_LISTED_IN_FULL = 10


def cap_output(diagnostics: Iterable[Diagnostic], limit: int) -> list[Diagnostic]:
    """:func:`cap_per_file`, then at most :data:`FILES_LISTED_IN_FULL` times ``limit`` in all, the
    most severe first, and one line (R011, of no file) counting the rest and the files they are in.

    Round 34: the bound was per file only, so 19,000 unused files of three diagnostics each printed
    57,000; every command's output (`validate`, `build`, `watch`…, every format) goes through here.
    A file's own summary stays where one of its diagnostics is listed, else it is counted in the
    whole output's. The language server publishes file by file (:func:`cap_per_file`)."""
    capped = cap_per_file(diagnostics, limit)
    most = limit * FILES_LISTED_IN_FULL
    regular = [d for d in capped if not isinstance(d, Summary)]
    if len(regular) <= most:
        return capped
    kept = sorted(regular, key=lambda d: d.severity.rank)[:most]  # stable: the sorted order within a rank
    listed_files = {d.span.file if d.span is not None else "" for d in kept}
    hidden = len(regular) - most
    unlisted: set[str] = set()
    for diagnostic in regular:
        file = diagnostic.span.file if diagnostic.span is not None else ""
        if file not in listed_files:
            unlisted.add(file)
    for summary in capped:
        if not isinstance(summary, Summary):
            continue
        file = summary.span.file if summary.span is not None else ""
        if file in listed_files:
            kept.append(summary)
        else:
            hidden += summary.hidden
            unlisted.add(file)
    kept.append(_output_truncation(hidden, len(unlisted), most, limit))
    return sort_diagnostics(kept)


def _output_truncation(hidden: int, files: int, most: int, limit: int) -> Diagnostic:
    """The summary of the ``hidden`` diagnostics beyond the first ``most`` of a whole output."""
    more = f"{hidden:,} more diagnostic{'s' if hidden != 1 else ''} {'are' if hidden != 1 else 'is'} not listed"
    where = ""
    if files:
        where = f"; {files:,} file{'s' if files != 1 else ''} {'have' if files != 1 else 'has'} none listed"
    return Summary(
        TRUNCATED,
        Severity.INFO,
        f"{more} (at most {most:,} in all, {FILES_LISTED_IN_FULL} times the {limit:,} per file){where}",
        None,
        f"fix the listed ones first (one cause often makes many), or list more with {ticked(_with_bound(None))}",
        hidden=hidden,
    )


def truncation(file: str, hidden: int, limit: int) -> Diagnostic:
    """The summary of the ``hidden`` diagnostics of ``file`` beyond the first ``limit``."""
    return Summary(
        TRUNCATED,
        Severity.INFO,
        f"{hidden:,} more diagnostic{'s' if hidden != 1 else ''} in this file {'are' if hidden != 1 else 'is'} "
        f"not listed (at most {limit:,} per file)",
        Span.at(file) if file else None,
        f"fix the listed ones first, or list them all with {ticked(_with_bound(limit + hidden))}",
        subjects=(file,) if file else (),
        hidden=hidden,
    )


def stopped(file: str, limit: int) -> Diagnostic:
    """The summary of a file whose checking stopped at the first problem beyond ``limit``."""
    return Summary(
        TRUNCATED,
        Severity.INFO,
        f"civrules stopped checking this file after {count(limit, 'diagnostic')}; it has more",
        Span.at(file),
        f"fix the listed ones first, or list more with {ticked(_with_bound(None))}",
        subjects=(file,),
        stopped=True,
    )


def stopped_and_truncated(file: str, hidden: int, limit: int) -> Diagnostic:
    """The one summary of a file whose checking stopped at ``limit`` and of which ``hidden`` more
    diagnostics (of other stages) were not listed."""
    return Summary(
        TRUNCATED,
        Severity.INFO,
        f"{hidden:,} more diagnostic{'s' if hidden != 1 else ''} in this file {'are' if hidden != 1 else 'is'} "
        f"not listed (at most {limit:,} per file), and civrules stopped checking it after "
        f"{count(limit, 'diagnostic')}: it has more",
        Span.at(file),
        f"fix the listed ones first, or list more with {ticked(_with_bound(None))}",
        subjects=(file,),
        hidden=hidden,
        stopped=True,
    )


def cap_per_file(diagnostics: Iterable[Diagnostic], limit: int) -> list[Diagnostic]:
    """At most ``limit`` diagnostics per file, the most severe first, and one summary for the rest.

    The result is in :func:`sort_diagnostics` order. Summaries already made upstream are merged
    with what is dropped here into one line per file: the count of what is not listed, and that
    checking stopped where a stage stopped at the limit (its summary not counted against it),
    each read from the summaries' fields (:class:`Summary`), never from their words.
    """
    by_file: dict[str, list[Diagnostic]] = {}
    hidden: dict[str, int] = {}
    halted: dict[str, Diagnostic] = {}
    for diagnostic in sort_diagnostics(diagnostics):
        file = diagnostic.span.file if diagnostic.span is not None else ""
        if isinstance(diagnostic, Summary):
            if diagnostic.hidden:
                hidden[file] = hidden.get(file, 0) + diagnostic.hidden
            if diagnostic.stopped:
                halted.setdefault(file, diagnostic)
            continue
        by_file.setdefault(file, []).append(diagnostic)
    kept: list[Diagnostic] = []
    for file, found in by_file.items():
        if len(found) > limit:
            listed = sorted(found, key=lambda d: d.severity.rank)[:limit]  # stable: position within a rank
            hidden[file] = hidden.get(file, 0) + len(found) - limit
            found = listed
        kept.extend(found)
    for file in sorted(hidden.keys() | halted.keys()):
        count = hidden.get(file, 0)
        if file in halted:
            kept.append(stopped_and_truncated(file, count, limit) if count else halted[file])
        else:
            kept.append(truncation(file, count, limit))
    return sort_diagnostics(kept)
