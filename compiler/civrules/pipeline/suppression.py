"""Suppressions: what a `# civrules: ignore[...]` comment and a variant's `suppress:` entry silence,
and the one rule set both are held to.

A comment silences the diagnostics of its codes in its own file: on its line (`ignore`) or
anywhere in the file (`ignore-file`). A variant's `suppress:` entry silences those its changes
cause in the files of its base, which it cannot edit. Whichever way a code is written, it is judged
by the same rules (:meth:`Judge.refusal`, :func:`gives_reason`, :func:`kept_from_running`):

- a load (L) or schema (S) error, and an error of :data:`UNBUILDABLE`, cannot be silenced: the
  suppression is an error of its own (R010), and silences nothing;
- a code that is no diagnostic code is a warning, with the code it meant (R020);
- a suppression without a reason (none, or only spaces) is not honoured, and says so;
- a code that silences nothing is a warning (R021 at a comment, V008 at an entry), unless
  `--select`/`--ignore` kept its check from running.

Of these, a file lists at most ``--max-diagnostics`` of each severity (:class:`Listed`): the rest
are counted, not made, and one R011 says how many are not listed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from civrules.checks.catalogue import known_code
from civrules.diagnostics import Diagnostic, Severity, Span, codes, suggest, truncation, words
from civrules.diagnostics.suggest import mean
from civrules.diagnostics.words import named_path
from civrules.families.code_hints import CodeHints
from civrules.load.workspace import Workspace
from civrules.resolve import Resolved
from civrules.support.values import frozen_value

# `# civrules: ignore[M003,M004] reason` on the offending line, or `# civrules: ignore-file[M003] reason`
# anywhere in the file. A reason is required so that a suppression documents itself.
_SUPPRESSION = re.compile(r"#\s*civrules:\s*(ignore|ignore-file)\[([A-Za-z0-9, ]+)\]\s*(\S.*)?$")

#: Errors that make the model unbuildable: silenced, they let `build` write a package that does not
#: import (duplicate enum members, a name that is not an identifier, a reference to no member).
#: Load (L) and schema (S) errors cannot be silenced either: the file was not read as written.
UNBUILDABLE = frozenset({"I001", "I003", "X001", "V006"})


class Listed:
    """Which of the diagnostics of the suppressions of a file are made: the first ``limit`` of
    each severity, in the order they are written, as :func:`~civrules.diagnostics.cap_per_file`
    lists a file's (the most severe first, then by position); each one after them is counted, and
    :meth:`summaries` gives one R011 per file for them. A comment naming a code costs seven bytes,
    its diagnostic a message and a hint: a 6.9 MB file of a million unknown codes made a million
    warnings (12 s, 683 MB) of which 100 were listed.

    >>> listed = Listed(2)
    >>> [listed.admits("a.yaml", Severity.WARNING) for _ in range(3)], listed.made
    ([True, True, False], 2)
    >>> [d.message for d in listed.summaries()]
    ['1 more diagnostic in this file is not listed (at most 2 per file)']
    """

    __slots__ = ("_built", "_hidden", "limit", "made")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.made = 0  # how many were admitted (for tests: the work is counted, never timed)
        self._built: dict[tuple[str, Severity], int] = {}
        self._hidden: dict[str, int] = {}

    def admits(self, file: str, severity: Severity) -> bool:
        """Whether the next diagnostic of ``file`` of ``severity`` is made; if not, it is counted."""
        built = self._built.get((file, severity), 0)
        if self.limit is None or built < self.limit:
            self._built[(file, severity)] = built + 1
            self.made += 1
            return True
        self._hidden[file] = self._hidden.get(file, 0) + 1
        return False

    def summaries(self) -> list[Diagnostic]:
        """One R011 for each file some of whose diagnostics were counted, not made."""
        assert self.limit is not None or not self._hidden
        return [truncation(file, hidden, self.limit or 0) for file, hidden in self._hidden.items()]


def suppressible(code: str) -> bool:
    """Whether a suppression (a comment's code or a `suppress:` entry) may silence ``code``."""
    return not code.startswith(("L", "S")) and code not in UNBUILDABLE


def gives_reason(reason: object) -> bool:
    """Whether a suppression's reason (a comment's text after its brackets, an entry's `reason:`)
    says something: text with more than spaces. Without one, the suppression is not honoured."""
    return isinstance(reason, str) and bool(reason.strip())


def kept_from_running(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """Whether `--select`/`--ignore` kept the check of ``code`` from running: a suppression of
    ``code`` then silences nothing, and is not judged for it."""
    selected = [c.upper() for c in select]
    return bool(selected and not any(code.startswith(s) for s in selected)) or any(
        code.startswith(i.upper()) for i in ignore
    )


@frozen_value
class Suppression:
    """One code of a suppression, where it is written: in a `# civrules: ignore[...]` comment, or
    in a variant's `suppress:` entry (``entry``, its number from 1)."""

    code: str
    span: Span
    whole_file: bool
    reason: bool
    entry: int | None = None

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def comment(self) -> str:
        return "ignore-file" if self.whole_file else "ignore"

    @property
    def written(self) -> str:
        """The suppression as a message names it."""
        return f"`suppress` entry {self.entry}" if self.entry is not None else f"`# civrules: {self.comment}[...]`"


class Judge:
    """The rules a suppression's code is held to, whichever way it is written (a comment or a
    `suppress:` entry): whether it may silence, and how one that may not is reported.

    Each distinct code is judged once, and after the first unknown one by the catalogue of every
    code; one vocabulary answers each distinct unknown code once and stops suggesting after QUERIES
    of them. Judging a code lists the registered checks (a comment of 8,000 codes: 14 s).
    """

    def __init__(self, family: str | None = None) -> None:
        self._family = family  # the ruleset's: its codes and the core's are suggested first
        self._known: dict[str, bool] = {}
        self._catalogue: Mapping[str, codes.Code] | None = None
        self._hints: CodeHints | None = None

    def verdict(self, suppression: Suppression) -> codes.Code | None:
        """None where the code may silence; else the code of why it may not (:meth:`refusal`),
        found without making the diagnostic."""
        code = suppression.code
        if not suppressible(code):
            return codes.UNSUPPRESSIBLE
        return None if self._is_known(code) else codes.UNKNOWN_SUPPRESSION

    def refusal(self, suppression: Suppression, hides: bool) -> Diagnostic | None:
        """None where the code may silence; else why it may not: R010 for a code that cannot be
        silenced (``hides``: whether an error of that code is reported where the suppression
        would silence it, which its hint says), R020 for a code that is no diagnostic code."""
        code = suppression.code
        if not suppressible(code):
            return _unsilenceable(suppression, hides)
        if self._is_known(code):
            return None
        # Every family's checks are imported only here, to suggest the code meant.
        if self._catalogue is None or self._hints is None:
            self._hints = CodeHints(self._family)
            self._catalogue = self._hints.known
        return Diagnostic(
            codes.UNKNOWN_SUPPRESSION.code,
            codes.UNKNOWN_SUPPRESSION.severity,
            f"{suppression.written} names {words.shown(code)}, which is no diagnostic code: it silences nothing",
            suppression.span,
            self._hints.hint(code) or "`civrules explain --list` lists the codes",
            subjects=words.whole((code,)),
            # The span is the code as written (in a comment or a `suppress:` entry's `code:`): the
            # editor's quick fix puts the one code the hint proposes in its place.
            suggestion=self._hints.meant(code),
        )

    def _is_known(self, code: str) -> bool:
        known = self._known.get(code)
        if known is None:
            known = self._known[code] = known_code(code) if self._catalogue is None else code in self._catalogue
        return known


def _unsilenceable(suppression: Suppression, hides: bool) -> Diagnostic:
    """R010 for a suppression naming a code that cannot be silenced; its hint says whether such an
    error is reported where it would silence it (``hides``)."""
    code = suppression.code
    if suppression.entry is None:
        where = "in this file" if suppression.whole_file else "on this line"
        hint = (
            f"fix the {code} error this comment hides, then remove `{code}` from the comment"
            if hides
            else f"remove `{code}` from the comment: no {code} is reported {where}, and none could be silenced"
        )
    else:
        hint = (
            f"fix the {code} error this entry was written for, then delete the entry"
            if hides
            else f"delete the entry: no {code} is reported, and none could be silenced"
        )
    return Diagnostic(
        codes.UNSUPPRESSIBLE.code,
        codes.UNSUPPRESSIBLE.severity,
        f"{code} cannot be silenced: it makes the ruleset unbuildable, or the file unread",
        suppression.span,
        hint,
        subjects=(code,),
    )


def suppress(
    diagnostics: Iterable[Diagnostic],
    workspace: Workspace,
    files: Iterable[str] = (),
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    family: str | None = None,
    limit: int | None = None,
) -> list[Diagnostic]:
    """Drop diagnostics silenced by a suppression comment in the file they point at.

    Load and schema errors, and the errors in :data:`UNBUILDABLE`, cannot be silenced: a comment
    that tries is reported (R010) wherever it is, in the ``files`` given or in a file a diagnostic
    points at. The comments of the ``files`` given (the ruleset's own) are checked like a variant's
    `suppress:` entries (:class:`Judge`): a code civrules does not know (R020) and a code that
    silences nothing on its line or in its file (R021) are warnings at the comment; a code
    ``select``/``ignore`` kept from running is not judged unused. ``family`` (the ruleset's) is
    the family whose codes a misspelt one is first thought to mean. Of the diagnostics of the
    comments, the first ``limit`` of each severity in a file are made (:class:`Listed`), the rest
    counted in one R011.
    """
    tables: dict[str, list[Suppression]] = {}
    #: A file's honoured suppressions (those with a reason) by (code, line), a whole file's by
    #: (code, 0): each diagnostic looks up its own, where it scanned every comment of its file
    #: (8,000 diagnostics and as many codes in one comment: 12 s).
    honoured: dict[str, dict[tuple[str, int], list[Suppression]]] = {}
    refused: list[Suppression] = []

    def table(file: str) -> list[Suppression]:
        if file not in tables:
            # Only a line that holds `civrules:` can hold a suppression: a file without one is not split.
            found, wrong = _suppressions(file, workspace.source_lines(file, mentioning="civrules:"))
            tables[file] = found
            refused.extend(wrong)
            by_place: dict[tuple[str, int], list[Suppression]] = {}
            for s in found:
                if s.reason:
                    by_place.setdefault((s.code, 0 if s.whole_file else s.line), []).append(s)
            honoured[file] = by_place
        return tables[file]

    own = list(dict.fromkeys(files))
    for file in own:
        table(file)
    used: set[tuple[str, int, str]] = set()
    reported: set[tuple[str, int, str]] = set()  # where each diagnostic is, for R010's hint
    kept = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        if span is not None:
            reported.update(((span.file, span.line, diagnostic.code), (span.file, 0, diagnostic.code)))
        if span is None or not suppressible(diagnostic.code):
            kept.append(diagnostic)
            continue
        table(span.file)
        by_place = honoured[span.file]
        silencing = [*by_place.get((diagnostic.code, span.line), ()), *by_place.get((diagnostic.code, 0), ())]
        if silencing:
            used.update((span.file, s.line, s.code) for s in silencing)
            continue
        kept.append(diagnostic)
    judge = Judge(family)
    listed = Listed(limit)
    refusals = [
        judge.refusal(s, (s.span.file, 0 if s.whole_file else s.line, s.code) in reported)
        for s in refused
        if listed.admits(s.span.file, codes.UNSUPPRESSIBLE.severity)
    ]
    shown: dict[tuple[str, str], list[int]] = {}  # the lines each code is still shown at, by file
    for diagnostic in kept:
        if diagnostic.span is not None:
            shown.setdefault((diagnostic.span.file, diagnostic.code), []).append(diagnostic.span.line)
    unchecked = _unchecked_suppressions(own, tables, used, select, ignore, judge, listed, reported, shown)
    return kept + [refusal for refusal in refusals if refusal is not None] + unchecked + listed.summaries()


def _unchecked_suppressions(
    files: Sequence[str],
    tables: Mapping[str, Sequence[Suppression]],
    used: set[tuple[str, int, str]],
    select: Sequence[str],
    ignore: Sequence[str],
    judge: Judge,
    listed: Listed,
    reported: set[tuple[str, int, str]] | frozenset[tuple[str, int, str]] = frozenset(),
    shown: Mapping[tuple[str, str], Sequence[int]] | None = None,
) -> list[Diagnostic]:
    """R020 for a comment's code no check has, R021 for one that silenced nothing; those of a file
    past what it lists (``listed``) counted, not made. ``reported``: (file, line, code) of each
    diagnostic shown (line 0: anywhere in the file); a comment without a reason whose code is
    reported at its place is told it is not honoured, not that nothing of its code is there.
    ``shown``: the lines of each file each code is still shown at: a line's comment whose code is
    shown on another line of its file (a patch of two no-op fields, told at the first) is told
    the nearest such line, where it was told only to delete the code."""
    found = []
    for file in files:
        for entry in tables.get(file, ()):
            verdict = judge.verdict(entry)  # the tables hold the codes that may be silenced: R020 or None
            if verdict is not None:
                refusal = judge.refusal(entry, hides=False) if listed.admits(file, verdict.severity) else None
                if refusal is not None:
                    found.append(refusal)
                continue
            if kept_from_running(entry.code, select, ignore) or (file, entry.line, entry.code) in used:
                continue
            if not listed.admits(file, codes.UNUSED_SUPPRESSION_COMMENT.severity):
                continue
            where = "in this file" if entry.whole_file else "on this line"
            comment = f"`# civrules: {entry.comment}[{entry.code}]`"
            if not entry.reason and (file, 0 if entry.whole_file else entry.line, entry.code) in reported:
                # The code is reported there: the comment is passed over for its missing reason
                # alone ("no V013 is reported on this line" beside the V013 of that line was false).
                found.append(
                    Diagnostic(
                        codes.UNUSED_SUPPRESSION_COMMENT.code,
                        codes.UNUSED_SUPPRESSION_COMMENT.severity,
                        f"{comment} is not honoured: it gives no reason, and the {entry.code} {where} stays",
                        entry.span,
                        f"give the reason: `# civrules: {entry.comment}[{entry.code}] why`",
                        subjects=(entry.code,),
                    )
                )
                continue
            hint = f"delete `{entry.code}` from the comment" + (
                "" if entry.reason else f", or give the reason: `# civrules: {entry.comment}[{entry.code}] why`"
            )
            elsewhere = () if entry.whole_file or shown is None else shown.get((file, entry.code), ())
            if elsewhere:
                nearest = min(elsewhere, key=lambda line: (abs(line - entry.line), line))
                hint = (
                    f"{entry.code} is reported on line {nearest} of this file: move the comment to the end of "
                    f"that line{'' if entry.reason else ', with its reason'}, or delete `{entry.code}` from it"
                )
            found.append(
                Diagnostic(
                    codes.UNUSED_SUPPRESSION_COMMENT.code,
                    codes.UNUSED_SUPPRESSION_COMMENT.severity,
                    f"{comment} silences nothing: no {entry.code} is reported {where}"
                    + ("" if entry.reason else " (a comment without a reason is not honoured)"),
                    entry.span,
                    hint,
                    subjects=(entry.code,),
                )
            )
    return found


def suppress_in_base(
    diagnostics: list[Diagnostic],
    resolved: Resolved,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    moved_from: Mapping[Diagnostic, Span | None] | None = None,
    limit: int | None = None,
) -> list[Diagnostic]:
    """Drop the diagnostics a variant's `suppress:` list silences in the files of its base.

    A variant cannot write a comment into its base's files, so it names what to silence: the code,
    optionally the base file and the id the message names, and a reason. Only diagnostics located
    in files the variant did not bring are silenced (its own lines take comments), and those a
    check found there that are shown at the variant's line (``moved_from``: each one's place in the
    base), judged by that place: an entry written for one silences it still, and a comment on the
    line it is shown at does too. Each entry's
    code is judged as a comment's is (:class:`Judge`): one that cannot be silenced is an error
    (R010) and one that is no code a warning (R020), and neither silences anything; an entry
    without a reason is not honoured; an entry that silences nothing is a warning (V008), unless
    ``select``/``ignore`` kept its code from running. Of those, the first ``limit`` of each
    severity are made (:class:`Listed`), the rest counted in one R011.
    """
    entries = resolved.manifest.data.get("suppress") if isinstance(resolved.manifest.data, dict) else None
    if not isinstance(entries, list) or len(resolved.chain) < 2:
        return diagnostics
    own = len(resolved.chain) - 1
    written: list[Suppression | None] = []  # None: an entry whose code is not text silences nothing
    for i, entry in enumerate(entries):
        code = entry.get("code") if isinstance(entry, dict) else None
        at = resolved.manifest.span(("suppress", i, "code"))
        reason = isinstance(entry, dict) and gives_reason(entry.get("reason"))
        written.append(Suppression(code, at, False, reason, i + 1) if isinstance(code, str) else None)
    used = [False] * len(entries)
    #: Whether an entry of a code that cannot be silenced names an error that is reported (R010's hint).
    hides = [False] * len(entries)
    refused = {s.code for s in written if s is not None and not suppressible(s.code)}
    # The entries by their code, and those with a target by the target too: a diagnostic tries
    # the entries its message can match (those that name no target, and those whose target it
    # quotes), where it tried every entry of its code (3,000 entries and as many warnings of M003:
    # 9 million tries, 5 s).
    anywhere: dict[str, list[_SuppressEntry]] = {}
    named: dict[str, dict[str, list[_SuppressEntry]]] = {}
    for i, (entry, suppression) in enumerate(zip(entries, written, strict=True)):
        if suppression is None or not (suppression.reason or suppression.code in refused):
            continue  # an entry without a reason is not honoured (V008 says so)
        target = entry.get("target")
        if isinstance(target, str):
            named.setdefault(suppression.code, {}).setdefault(target, []).append((i, entry, target))
        else:  # a target that is not text narrows nothing
            anywhere.setdefault(suppression.code, []).append((i, entry, None))
    moved = moved_from or {}
    kept = []
    for diagnostic in diagnostics:
        code = diagnostic.code
        span = moved.get(diagnostic) or diagnostic.span  # where in the base a moved one was found
        silenced = False
        silenceable = span is not None and suppressible(code) and resolved.layers.get(span.file) != own
        if silenceable or (span is not None and code in refused):
            tried = [*anywhere.get(code, ()), *_about(diagnostic, named.get(code, {}))]
            found_at = replace(diagnostic, span=span)
            for i, entry, target in tried:
                if _silences(entry, target, found_at):
                    if silenceable:
                        used[i] = silenced = True
                    else:
                        hides[i] = True
        if not silenced:
            kept.append(diagnostic)
    judge = Judge(resolved.family.id)
    judged = []
    hints = _UnusedHints(kept, resolved, own, moved)
    listed = Listed(limit)
    for i, (entry, suppression) in enumerate(zip(entries, written, strict=True)):
        verdict = judge.verdict(suppression) if suppression is not None else None
        if suppression is not None and verdict is not None:
            if listed.admits(suppression.span.file, verdict.severity):
                judged.append(_refused(judge.refusal(suppression, hides[i])))
            continue
        if used[i] or (suppression is not None and kept_from_running(suppression.code, select, ignore)):
            continue
        at = resolved.manifest.span(("suppress", i))
        if not listed.admits(at.file, codes.UNUSED_SUPPRESSION.severity):
            continue
        unreasoned = suppression is not None and not suppression.reason
        hint, meant = ("give the entry its reason (`reason: why`), or delete it", None) if unreasoned else hints(entry)
        if meant is not None:
            # At the misspelt `target` itself, which the editor's quick fix replaces with the
            # name proposed: placed on the whole entry, a replacement would have replaced it.
            at = resolved.manifest.span(("suppress", i, "target"))
        judged.append(
            Diagnostic(
                codes.UNUSED_SUPPRESSION.code,
                codes.UNUSED_SUPPRESSION.severity,
                f"`suppress` entry {i + 1} ({_code_of(entry)}) silences nothing"
                + (": an entry without a reason is not honoured" if unreasoned else ""),
                at,
                hint=hint,
                subjects=_entry_subjects(entry),
                suggestion=meant,
            )
        )
    return kept + judged + listed.summaries()


def _refused(refusal: Diagnostic | None) -> Diagnostic:
    """The refusal of a suppression :meth:`Judge.verdict` refused."""
    assert refusal is not None
    return refusal


class _UnusedHints:
    """V008's hint for each entry that silences nothing: where the entry's code is reported in the
    base but not about its target, the subject of those diagnostics closest to it (a misspelt
    `target`); where it is reported only in the variant's own files, found there, the comment that
    silences it on its line.

    What each code's diagnostics hold is gathered once, on the first entry of that code that asks,
    and every later entry of the code asks the same vocabulary (:class:`~civrules.diagnostics.
    suggest.Vocabulary`, whose bound on the questions holds): each entry gathered them again, n
    entries of a code with misspelt targets and n diagnostics of it n² names handed over."""

    def __init__(
        self, kept: Sequence[Diagnostic], resolved: Resolved, own: int, moved: Mapping[Diagnostic, Span | None]
    ) -> None:
        self.kept, self.resolved, self.own, self.moved = kept, resolved, own, moved
        self.by_code: dict[str, tuple[str | None, suggest.Vocabulary | None]] = {}

    def __call__(self, entry: object) -> tuple[str, str | None]:
        """The hint for ``entry``, and the target it proposes in place of the entry's (None: none)."""
        fallback = "delete the entry, or correct its `code`, `file` or `target`"
        if not isinstance(entry, dict) or not isinstance(entry.get("code"), str):
            return fallback, None
        elsewhere, vocabulary = self._of(entry["code"])
        if elsewhere is not None:
            return elsewhere, None
        target = entry.get("target")
        if not isinstance(target, str) or vocabulary is None:
            return fallback, None
        meant = vocabulary.closest(target)
        return (f"`target`: {mean(target, meant)}", meant) if meant else (fallback, None)

    def _of(self, code: str) -> tuple[str | None, suggest.Vocabulary | None]:
        """For ``code``: the hint of an entry where it is reported only in the variant's own files
        (else None), and the vocabulary of the subjects of its diagnostics in the base (None: none)."""
        if code in self.by_code:
            return self.by_code[code]
        resolved = self.resolved

        def in_base(d: Diagnostic) -> bool:
            span = self.moved.get(d) or d.span
            return span is not None and resolved.layers.get(span.file) != self.own

        of_code = [d for d in self.kept if d.code == code and d.span is not None]
        found: tuple[str | None, suggest.Vocabulary | None]
        base = [d for d in of_code if in_base(d)]
        if of_code and not base:
            first = min(of_code, key=Diagnostic.sort_key)
            assert first.span is not None
            own = first.span.file == resolved.manifest.file
            where = "this variant's own file" if own else named_path(first.span.file)
            found = (
                f"{code} is reported in {where}, on line {first.span.line}: silence it there with "
                f"`# civrules: ignore[{code}] why` at the end of that line, and delete the entry",
                None,
            )
        else:
            names = [name for d in base for name in d.subjects]
            found = (None, suggest.Vocabulary(names) if names else None)
        self.by_code[code] = found
        return found


#: A `suppress` entry: its position in the list, the entry, and its target (None: it names none).
_SuppressEntry = tuple[int, dict[str, object], str | None]


def _about(diagnostic: Diagnostic, by_target: Mapping[str, list[_SuppressEntry]]) -> list[_SuppressEntry]:
    """The entries of ``by_target`` whose target the diagnostic is about: one of its
    :attr:`~civrules.diagnostics.Diagnostic.subjects`, the ids, keys and files the check that made
    it named as data. It was a name the message quoted, read back from the rendered text: what a
    message names unquoted (`section 16.4`, the ids beyond a list's first ten) no target reached."""
    if not by_target:
        return []
    return [found for name in diagnostic.subjects for found in by_target.get(name, ())]


def _entry_subjects(entry: object) -> tuple[str, ...]:
    """What V008 is about: the entry's code, and the file and target it names, where they are text."""
    if not isinstance(entry, dict):
        return ()
    return tuple(value for key in ("code", "file", "target") if isinstance(value := entry.get(key), str))


def _code_of(entry: object) -> object:
    return entry.get("code") if isinstance(entry, dict) else entry


def _silences(entry: dict[str, object], target: str | None, diagnostic: Diagnostic) -> bool:
    """Whether a `suppress` entry silences a diagnostic: its code, its file if it names one, and
    its ``target`` if it names one: one of the diagnostic's subjects (:func:`_about`), whatever it
    holds, never a name looked for in the message's text."""
    if entry.get("code") != diagnostic.code or diagnostic.span is None:
        return False
    file = entry.get("file")
    if isinstance(file, str) and not (diagnostic.span.file == file or diagnostic.span.file.endswith("/" + file)):
        return False
    return target is None or target in diagnostic.subjects


def _suppressions(file: str, lines: Sequence[str]) -> tuple[list[Suppression], list[Suppression]]:
    """The suppressions of a file's comments, and those of codes that cannot be silenced (R010)."""
    found: list[Suppression] = []
    refused: list[Suppression] = []
    for number, text in enumerate(lines, start=1):
        if "civrules:" not in text:
            continue
        match = _SUPPRESSION.search(text)
        if match is None:
            continue
        whole_file, reason = match.group(1) == "ignore-file", gives_reason(match.group(3))
        offset = 0
        for part in match.group(2).split(","):
            code = part.strip()
            column = match.start(2) + offset + part.find(code) + 1
            offset += len(part) + 1
            if not code:
                continue
            span = Span(file, number, column, number, column + len(code))
            (found if suppressible(code) else refused).append(Suppression(code, span, whole_file, reason))
    return found, refused
