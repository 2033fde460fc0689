"""One ruleset through the pipeline: load → (resolve) → validate → model → check.

Semantic checks run only on rulesets whose files all passed schema validation: checking a model
built from malformed data would bury the real error under its consequences.

Every independent error is reported in one run; a stage is skipped only where an error makes what
it would find meaningless or a restatement of that error. A file that was not read as written (a
load error, L) or whose shape is wrong (a schema error) stops there: resolving it would read a
shape the resolver does not know, or report the same mistake again in other words. The exception
is an unknown key of one entry of an overlay operation (`cots: 55` in a patch): the overlay's shape
is whole, and each entry is judged apart once merged with its base (its values by its collection's
schema, its id against the base's), so the variant is still resolved for those errors
(:func:`_entry_errors`); only the semantic checks, which read the model, are skipped. So is
a variant whose errors all lie in settings its manifest writes at its top level (`players: {min:
many}`): the overlay is applied and judged all the same (:func:`_manifest_setting_errors`).
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from civrules.checks import ALL_COLLECTIONS, SETTINGS, Check, setting
from civrules.checks.catalogue import all_checks, run_checks
from civrules.diagnostics import (
    Diagnostic,
    Related,
    Severity,
    Span,
    Unchanged,
    codes,
    has_errors,
    merge_duplicates,
    named,
    words,
)
from civrules.families import family_named, family_of
from civrules.load.document import NodePath
from civrules.load.workspace import LoadedRuleset, Workspace
from civrules.model import Origin, Ruleset
from civrules.model.assembly import Assembled, assembling
from civrules.pipeline.suppression import suppress, suppress_in_base
from civrules.resolve import Resolved, Resolver, change_place, changers, entity_key, overlay_base_notes
from civrules.resolve.diff import RulesetDiff, diff_rulesets
from civrules.schema.references import Remembered, remembering

T = TypeVar("T")


@dataclass(slots=True)
class Analysis:
    """What the pipeline learnt about one ruleset."""

    loaded: LoadedRuleset
    model: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    resolved: Resolved | None = None
    #: What each check found (by code), before suppressions and relocation: a session reuses the
    #: findings of the checks an edit does not concern.
    found_by: dict[str, list[Diagnostic]] | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None and not has_errors(self.diagnostics)


class Shared:
    """What the rulesets of one command share: the models of collections and the references of
    entities, kept by the identity of the entries they were made of (the memos a language-server
    session keeps across edits: :class:`~civrules.model.assembly.Assembled`,
    :class:`~civrules.schema.references.Remembered`).

    A variant resolved with its base's :class:`~civrules.resolve.Resolver` keeps the base's entries
    it does not change as the same objects, so its analysis reuses the base's models and walks for
    them instead of making them again (a chain of 60 variants: 0.5 s of 5 s). What two rulesets in
    a row did not ask for is let go (each memo holds two rounds), so memory stays that of a pair.
    A command of one ruleset installs nothing: there is nothing to share, and nothing is kept.
    """

    def __init__(self, rulesets: int) -> None:
        self._memos = (Remembered(), Assembled()) if rulesets > 1 else None

    @contextlib.contextmanager
    def ruleset(self) -> Iterator[None]:
        """Within the block, one ruleset's analysis answers from (and adds to) the memos."""
        if self._memos is None:
            yield
            return
        references, assembled = self._memos
        references.next_round()
        assembled.next_round()
        with remembering(references), assembling(assembled):
            yield

    @property
    def reused(self) -> int:
        """How many models were given back rather than made again (for tests: reuse is counted, never timed)."""
        if self._memos is None:
            return 0
        return self._memos[1].reused + self._memos[1].entities_reused


def analyse(
    workspace: Workspace,
    loaded: LoadedRuleset,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    *,
    debug: bool = False,
    resolver: Resolver | None = None,
    reuse: Callable[[Check, Ruleset], list[Diagnostic] | None] | None = None,
) -> Analysis:
    """Validate one loaded ruleset and, when its files are well-formed, run the semantic checks.

    ``resolver`` may be shared by the rulesets of one workspace: a variant then reuses the
    resolution of a base analysed before it (resolution never changes what it resolved).
    ``reuse`` may give a check's findings without running it (see :func:`run_checks`).
    """
    diagnostics = loaded.all_diagnostics()
    if loaded.judged is not None:
        # Its base is not found, so neither is its family: V001 is what it has to say, beside any
        # mistake in the keys that name it (its other keys wait for a family to be judged by);
        # not where `extends:` is itself refused (`../etc/passwd` is no ruleset id): one is enough.
        document = loaded.manifest.file.document
        extends = document.span(("extends",)) if document is not None else None
        if not any(d.severity is Severity.ERROR and d.span == extends for d in diagnostics):
            diagnostics.extend((resolver or Resolver(workspace)).resolve(loaded)[1])
        return Analysis(loaded, None, _own(merge_duplicates(diagnostics), workspace, loaded))
    if has_errors(diagnostics) and not _resolvable(diagnostics, loaded):
        return Analysis(loaded, None, _noted_at_base(diagnostics, workspace, loaded, resolver))
    malformed = has_errors(diagnostics)
    resolver = resolver or Resolver(workspace)
    resolved, problems = resolver.resolve(loaded)
    if malformed and resolved is not None:
        restated = _restated_in_part(loaded, resolved)
        diagnostics = [d for d in diagnostics if not restated(d)]
        malformed = has_errors(diagnostics)
    if malformed:
        # Its entries' errors, each once: the resolution finds an entry's unknown key again (with
        # the note at the base's definition the schema's finding is given here).
        noted = _noted_at_base(diagnostics, workspace, loaded, resolver)
        told = _blanks_alone(merge_duplicates([*noted, *problems]))
        return Analysis(loaded, None, _own(told, workspace, loaded))
    # What resolving each base's own layer found is told once a run (Resolver.untold): the k-th
    # variant of a chain held the k bases' no-op patches, the square of the chain in all.
    document = loaded.manifest.file.document
    silences = isinstance(document.data, dict) and "suppress" in document.data if document is not None else True
    diagnostics.extend(problems if resolved is None else resolver.untold(resolved, problems, mark=not silences))
    if resolved is None or has_errors(problems):
        return Analysis(loaded, None, _own(diagnostics, workspace, loaded))
    model = build_model(resolved)
    found_by: dict[str, list[Diagnostic]] = {}
    diagnostics.extend(run_checks(model, select, ignore, debug=debug, reuse=reuse, found_by=found_by))
    diagnostics = without_uncited_no_ops(diagnostics, problems)
    own = [loaded.manifest.file.path, *(one.path for files in loaded.files.values() for one in files)]
    told = relocate(
        diagnostics, resolved, own, found_by, lambda wanted: base_findings(workspace, resolver, resolved, wanted)
    )
    told = as_the_base_shows(diagnostics, told, resolved, _ShownBy(workspace, resolver, resolved))
    # Suppressions are judged where each diagnostic is shown: a comment on the variant's line
    # silences what was moved there (judged at the base's place, it silenced nothing and R021 said
    # nothing was reported on the line that showed it); a `suppress:` entry still silences a moved
    # one by the base's place it names. The relocations keep the order, one diagnostic for one.
    moved_from = {shown: found.span for found, shown in zip(diagnostics, told, strict=True) if shown.span != found.span}
    silenced = suppress_in_base(
        suppress(told, workspace, own, select, ignore, resolved.family.id, workspace.limits.max_diagnostics),
        resolved,
        select,
        ignore,
        moved_from,
        workspace.limits.max_diagnostics,
    )
    diagnostics = note_base_definitions(
        one_per_removal(one_per_change(silenced, moved_from, found_by)), resolved.base_notes
    )
    resolver.findings(loaded.id).found = dict(found_by)  # for its variants analysed after it (the same resolver)
    return Analysis(loaded, model, _own(diagnostics, workspace, loaded), resolved, found_by)


def without_uncited_no_ops(diagnostics: list[Diagnostic], resolving: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
    """``diagnostics`` less each Q009 (a change cited nowhere) of a patch that V013 tells changes
    nothing: of the same entity or setting, in the same file, asking a citation of fields the
    patch sets to the value they have. The V013 are those of ``diagnostics`` and of ``resolving``
    (what resolving the ruleset found, a base's layers' included where another analysis tells them).

    Such a patch writes no fact: the value and its citation stay the base's. Asked to cite it, a
    designer following the hint would cite a change that is not made; V013 says what to do (write
    the value meant, or delete the entry), one diagnostic for the one mistake.
    """
    no_ops = [
        (d.subjects[0], frozenset(d.subjects[1:]), frozenset(d.fields_at))
        for d in (*diagnostics, *resolving)
        if isinstance(d, Unchanged) and d.subjects
    ]
    if not no_ops:
        return diagnostics

    def of_a_no_op(diagnostic: Diagnostic) -> bool:
        # at a field the no-op writes: the same patch entry, not a later one of the same entity
        span, subjects = diagnostic.span, diagnostic.subjects
        return (
            diagnostic.code == "Q009"
            and span is not None
            and len(subjects) > 1
            and any(
                subject == subjects[0] and set(subjects[1:]) <= fields and span in places
                for subject, fields, places in no_ops
            )
        )

    return [d for d in diagnostics if not of_a_no_op(d)]


def _blanks_alone(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` less any other at a blank a hint wrote (L016): the blank is the one cause
    there (a text where a number or a selector belongs, the resolver finding no element it names)."""
    blanks = {
        (d.span.file, d.span.line, d.span.column)
        for d in diagnostics
        if d.code == codes.UNFILLED_BLANK.code and d.span is not None
    }
    if not blanks:
        return diagnostics
    return [
        d
        for d in diagnostics
        if d.code == codes.UNFILLED_BLANK.code
        or d.span is None
        or (d.span.file, d.span.line, d.span.column) not in blanks
    ]


def _resolvable(diagnostics: Sequence[Diagnostic], loaded: LoadedRuleset) -> bool:
    """Whether every error of ``diagnostics`` (a ruleset's load and schema findings) leaves its
    variant worth resolving: an unknown key of an overlay entry (:func:`_entry_errors`) or an error
    in a setting its manifest writes at its top level (:func:`_manifest_setting_errors`)."""
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    in_entries, in_settings = _entry_errors(loaded), _manifest_setting_errors(loaded)
    # A blank a hint wrote (L016) is read as written: resolved, the variant's settings written in
    # part are its base's completed (no S004 for the `max` its base gives); it is still not judged.
    return all(d.code == codes.UNFILLED_BLANK.code or in_entries(d) or in_settings(d) for d in errors)


def _entry_errors(loaded: LoadedRuleset) -> Callable[[Diagnostic], bool]:
    """Whether an error is an unknown key (S002) of one entry of an operation of its manifest's
    `overlay:` collections (a misspelt field of a patch, `cots: 55`).

    That error leaves the rest meaningful: the resolver merges the entry's other fields as written,
    judges the merged entity whole (finding the same key again, one diagnostic with it) and each
    other entry apart. Any other error stops the ruleset at its files (but those of
    :func:`_manifest_setting_errors`): a load error (the file was not read as written), an error of
    a file the ruleset reads, of the overlay's shape, of the key that names an entry, or of a value
    inside an entry (a list operation of the wrong shape: the resolver would report the same
    mistake again, in other words).
    """
    document = loaded.manifest.file.document
    data = document.data if document is not None else None
    overlay = data.get("overlay") if isinstance(data, dict) else None
    if document is None or not isinstance(overlay, dict):
        return lambda diagnostic: False
    unknown: set[Span] = set()  # where each key of an entry other than its naming key is written
    for name, block in overlay.items():
        spec = loaded.family.collections.get(name) if isinstance(name, str) else None
        if spec is None or not isinstance(block, dict):
            continue
        for operation, items in block.items():
            if operation not in ("add", "replace", "patch", "remove") or not isinstance(items, list):
                continue
            for index, item in enumerate(items):
                if isinstance(item, dict):
                    path = ("overlay", name, operation, index)
                    unknown.update(document.key_span((*path, key)) for key in item if key != spec.key)
    return lambda diagnostic: diagnostic.code == codes.UNKNOWN_KEY.code and diagnostic.span in unknown


#: Top-level keys of a manifest that say what it is and what it reads: an error in one of them
#: leaves nothing to resolve (a ruleset without its id, a base or files not as written).
SHAPING_KEYS = frozenset({"kind", "id", "name", "family", "extends", "files", "rulebook", "overlay", "suppress"})


def _manifest_setting_errors(loaded: LoadedRuleset) -> Callable[[Diagnostic], bool]:
    """Whether an error lies in a setting a variant's manifest writes at its top level (`players:
    {min: many}`), not in what the ruleset is or reads, nor in its `overlay:`.

    That error stops the ruleset's model, not its resolution: the overlay is still applied and its
    own mistakes (a misspelt id, a cost in words) are told beside the setting's, in one run. One
    such error hid all of them: the designer fixed it, then saw the next batch.
    """
    document = loaded.manifest.file.document
    data = document.data if document is not None else None
    if document is None or not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        return lambda diagnostic: False
    regions = []
    for key in data:
        if isinstance(key, str) and key not in SHAPING_KEYS and loaded.family.settings.get(key) == "ruleset":
            start, end = document.key_span((key,)), document.span((key,))
            regions.append(((start.line, start.column), (end.end_line, end.end_column)))

    def in_a_setting(diagnostic: Diagnostic) -> bool:
        span = diagnostic.span
        return (
            span is not None
            and span.file == document.file
            and any(start <= (span.line, span.column) <= end for start, end in regions)
        )

    return in_a_setting


def _restated_in_part(loaded: LoadedRuleset, resolved: Resolved) -> Callable[[Diagnostic], bool]:
    """Whether an error is the manifest's schema finding (S001-S004) inside a setting a variant's
    manifest restates in part (`players: {min: 3, source: ...}`), which the resolver judged
    merged with its base's.

    A setting a variant restates merges into its base's key by key (what it does not name is kept),
    and the resolver judges the merge, telling each of its errors where the variant wrote it. The
    manifest's schema judges what is written as if it were the whole setting: it told "missing key
    `max` in `players`" of a key the base gives, and of `rules: {penalty: {kind: {value: lost}}}`
    "`lost` is a text, where a mapping belongs" (the field's one form that needs no `rule:`, which
    the base's entry has), and the variant's model was never built. What the merge
    still lacks or holds wrong is told by the resolver, once.
    """
    document = loaded.manifest.file.document
    data = document.data if document is not None else None
    if document is None or not isinstance(data, dict) or not isinstance(data.get("extends"), str):
        return lambda diagnostic: False
    regions: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for key, value in data.items():
        if not isinstance(key, str) or key in SHAPING_KEYS or loaded.family.settings.get(key) != "ruleset":
            continue
        merged = resolved.data.get(key)
        if isinstance(value, dict) and isinstance(merged, dict) and merged is not value:  # merged with the base's
            start, end = document.key_span((key,)), document.span((key,))
            regions.append(((start.line, start.column), (end.end_line, end.end_column)))

    def restated(diagnostic: Diagnostic) -> bool:
        span = diagnostic.span
        return (
            diagnostic.code in _SCHEMA_FINDINGS
            and span is not None
            and span.file == document.file
            and any(start <= (span.line, span.column) <= end for start, end in regions)
        )

    return restated


#: What the schema says of a value: wrong, unknown, not allowed, missing (not a file of no kind).
_SCHEMA_FINDINGS = frozenset(
    code.code for code in (codes.SCHEMA_VIOLATION, codes.UNKNOWN_KEY, codes.BAD_ENUM, codes.MISSING_KEY)
)


class _ShownBy:
    """How the base of a variant (the base itself a variant) shows its checks' findings: placed by
    its own layer's relocations (:func:`relocate`), each in the nearest ruleset of its chain that
    caused it."""

    def __init__(self, workspace: Workspace, resolver: Resolver, variant: Resolved) -> None:
        self._workspace, self._resolver, self._variant = workspace, resolver, variant

    def shown(self, wanted: frozenset[str]) -> list[tuple[Diagnostic, Diagnostic]]:
        """The base's findings of the codes ``wanted``, each as found and as its analysis shows it
        (once for each code in a run: kept by the resolver, :attr:`civrules.resolve.Findings.base_shown`).

        Each finding is placed apart from the others (by its own code's findings in the base's
        base), so what is worked out for some codes holds whichever others are asked with them:
        a chain's variants ask each base for sets of codes that overlap, and each set asked anew
        went down the whole chain again."""
        kept = self._resolver.findings(self._variant.chain[-1]).base_shown
        missing = wanted - kept.keys()
        if missing:
            made = self._shown(frozenset(missing))
            for code in missing:
                kept[code] = [pair for pair in made if pair[0].code == code]
        return [pair for code in sorted(wanted) for pair in kept[code]]

    def _shown(self, wanted: frozenset[str]) -> list[tuple[Diagnostic, Diagnostic]]:
        workspace, resolver = self._workspace, self._resolver
        base = base_of(workspace, resolver, self._variant)
        found = base_findings(workspace, resolver, self._variant, wanted)
        raw = [d for code in sorted(found) for d in found[code]]
        if base is None or len(base.chain) < 2 or not raw:
            return [(d, d) for d in raw]
        layer = len(base.chain) - 1
        own = [file for file, at in base.layers.items() if at == layer]
        shown = relocate(raw, base, own, found, lambda codes: base_findings(workspace, resolver, base, codes))
        shown = as_the_base_shows(raw, shown, base, _ShownBy(workspace, resolver, base))
        return list(zip(raw, shown, strict=True))


def relocate(
    diagnostics: list[Diagnostic],
    resolved: Resolved,
    own: Iterable[str],
    found_by: Mapping[str, list[Diagnostic]],
    findings_of_base: Callable[[frozenset[str]], Mapping[str, Sequence[Diagnostic]]],
) -> list[Diagnostic]:
    """A variant's findings placed and told as its own layer makes them (its changes' lines, the
    fix written from it): :func:`at_the_variant`, :func:`caused_by_the_variant`,
    :func:`from_the_variant`, one diagnostic for one."""
    moved = at_the_variant(diagnostics, resolved)
    moved = caused_by_the_variant(moved, resolved, own, found_by, findings_of_base)
    told = from_the_variant(moved, resolved, findings_of_base)
    return in_the_variants_manifest(diagnostics, told, resolved)


def in_the_variants_manifest(found: list[Diagnostic], told: list[Diagnostic], resolved: Resolved) -> list[Diagnostic]:
    """Each finding a check makes in the variant's own manifest (an entity its `overlay:` adds),
    left where it was found, its fix first as the variant writes it (:attr:`Diagnostic.from_variant`).

    A check states its fix in the form of a ruleset's own data (`add an entry under `items``);
    what the variant's `overlay:` adds is changed there, in the overlay's words (an
    `overlay.items` entry), which the check gives too: an entity a variant added without what it
    needs was told to write the base file's form.
    """
    if len(resolved.chain) < 2:
        return told
    manifest = resolved.manifest.file
    result = list(told)
    for at, (was, now) in enumerate(zip(found, told, strict=True)):
        fix = was.from_variant
        if (
            was is now
            and fix is not None
            and was.span is not None
            and was.span.file == manifest
            and was.severity != "info"
            and fix not in (was.hint or "")
        ):
            result[at] = replace(was, hint=f"{fix}; or {was.hint}" if was.hint else fix)
    return result


def as_the_base_shows(
    found: list[Diagnostic],
    told: list[Diagnostic],
    resolved: Resolved,
    shown_by: _ShownBy,
) -> list[Diagnostic]:
    """Each finding a variant's own layer left as it was found (``told``, from ``found``) that its
    base, itself a variant, finds at the same place too: told as the base's analysis tells it.

    A variant relocates what its own changes cause and leaves what its base finds to the base
    (:func:`caused_by_the_variant`): a variant of a variant left the middle variant's doing in the
    first base's file, with the first base's hint, though the middle variant's analysis shows it at
    its own line. Each layer relocates its own, so a finding stands in the nearest ruleset of the
    chain that caused it, with the hint that layer gives.
    """
    if len(resolved.chain) < 3:
        return told  # its base is a base ruleset: nothing there is relocated
    layer = len(resolved.chain) - 1
    left = [
        at
        for at, (was, now) in enumerate(zip(found, told, strict=True))
        if was is now and was.span is not None and resolved.layers.get(was.span.file, layer) != layer
    ]
    if not left:
        return told
    shown = {
        _finding(was): now for was, now in shown_by.shown(frozenset(found[at].code for at in left)) if now is not was
    }
    if not shown:
        return told
    result = list(told)
    for at in left:
        base_shows = shown.get(_finding(found[at]))
        if base_shows is not None:
            result[at] = replace(found[at], span=base_shows.span, hint=base_shows.hint, related=base_shows.related)
    return result


def _own(diagnostics: list[Diagnostic], workspace: Workspace, loaded: LoadedRuleset) -> list[Diagnostic]:
    """The diagnostics of a ruleset of the rules folder without the warnings and infos located in
    a shipped base's files (its unknown facts, say): those are civrules' to fix, not the user's; what
    the variant causes there was moved to the variant. An error stays (the installation is broken)."""
    if loaded.manifest.shipped:
        return diagnostics
    shipped = workspace.shipped_files()
    if not shipped:
        return diagnostics
    return [d for d in diagnostics if d.severity is Severity.ERROR or d.span is None or d.span.file not in shipped]


def build_model(resolved: Resolved) -> Ruleset:
    """The typed model of a resolved ruleset, built by its family (resolution checked it has one)."""
    family = family_of(resolved.data)
    assemble = family.hook("assemble") if family is not None else None
    if assemble is None:
        raise LookupError(f"ruleset `{resolved.data.get('id')}` has no family that builds its model")
    model: Ruleset = assemble(resolved)
    resolved.assembled = True
    return model


def compare(old: Resolved, new: Resolved, *, citations: bool = False) -> RulesetDiff:
    """What ``new`` changes relative to ``old`` (``civrules diff``, a variant's changes sheet), each
    as built: a ruleset's family puts what its assembly derives (a deck total that its data changed
    without restating it) among its settings, so each is assembled first if it was not. The diff is
    then the same whichever was built before, and the command and the sheet say the same."""
    for resolved in (old, new):
        if not resolved.assembled:
            build_model(resolved)
    return diff_rulesets(old, new, citations=citations)


def from_the_variant(
    diagnostics: list[Diagnostic],
    resolved: Resolved,
    base_findings: Callable[[frozenset[str]], Mapping[str, Sequence[Diagnostic]]] | None = None,
) -> list[Diagnostic]:
    """Say, in the hint of a diagnostic a variant's analysis leaves in a base file, how to make the
    change from the variant: its base's files are not the designer's to edit ("correct the cost"
    becomes "... from this variant: patch `lantern` in `overlay.items`").

    A finding the base's own checks make in the same words at the same place (``base_findings``:
    what the checks of the codes asked for find in the base) is the base's problem, whatever the
    variant changes beside it in that entity: it is left as the base reports it, so a run of both
    reports it once (a typo in the base's `discount:` was told twice, once "from this variant,
    patch `tower`", which leaves the base broken)."""
    if len(resolved.chain) < 2:
        return diagnostics
    own = len(resolved.chain) - 1

    def in_base(diagnostic: Diagnostic) -> bool:
        # an info (an unknown fact of the base, say) asks for no change: the same note in every variant
        span = diagnostic.span
        return (
            span is not None
            and diagnostic.severity != "info"
            and resolved.layers.get(span.file, own) != own
            and "this variant" not in (diagnostic.hint or "")
        )

    if not any(in_base(diagnostic) for diagnostic in diagnostics):
        return diagnostics  # nothing to tell: the variant's changes need not be listed
    # only what the variant changed: a base's own problem is reported as the base reports it
    changed = _Enclosures((span, way) for span, _, way in _changed_by_the_variant(resolved))
    ways: dict[int, str] = {}
    for at, diagnostic in enumerate(diagnostics):
        span = diagnostic.span
        if span is not None and in_base(diagnostic):
            inside = changed.around(span)
            if inside:
                ways[at] = min(inside, key=lambda found: found[0].end_line - found[0].line)[1]
    if ways and base_findings is not None:
        found = base_findings(frozenset(diagnostics[at].code for at in ways))
        the_bases = {_said(d) for findings in found.values() for d in findings}
        ways = {at: way for at, way in ways.items() if _said(diagnostics[at]) not in the_bases}
    told = list(diagnostics)
    for at, way in ways.items():
        diagnostic = diagnostics[at]
        told[at] = replace(
            diagnostic,
            hint=_variant_first(f"this file is the base's: from this variant, {way}", diagnostic.hint, ONE_PATCH)
            if diagnostic.from_variant is None
            else f"this file is the base's: from this variant, {diagnostic.from_variant}; or {way}",
        )
    return told


#: How :func:`_variant_first` joins a check's own fix to a way that is the patch of the entity or
#: setting the finding stands in: the fix is what that patch writes.
ONE_PATCH = "{way}, which writes the fix: {hint}"

#: How a caused finding's hint joins a check's own fix to the variant's change it follows from,
#: where that change is not the patch of the base's fact noted: undo the change, or make the fix
#: there. "undo or amend this change, or make the fix in `overlay` (add, patch or remove ...); or
#: patch, in this variant's overlay, the base's fact ...": the fix was offered twice.
AT_THE_NOTE = '{undo}; or, in `overlay`, patch the base\'s fact the note "where the base shows it" points at: {hint}'


def _variant_first(way: str, hint: str | None, joined: str) -> str:
    """A hint whose first words are the fix in the file the designer edits (``way``, the
    variant's), the check's own fix (``hint``, written of the fact it judges) after it, as the
    variant makes it (``joined``: :data:`ONE_PATCH`): a check that writes no
    fix of its own for a variant (:attr:`Diagnostic.from_variant`) was told "in the base's file
    itself: ...", a file the designer does not edit."""
    return joined.format(way=way, hint=hint) if hint else way


def _said(diagnostic: Diagnostic) -> tuple[str, Severity, Span | None, str]:
    """A finding as it is told: its code, severity, place and words (its hint aside)."""
    return diagnostic.code, diagnostic.severity, diagnostic.span, diagnostic.message


def at_the_variant(diagnostics: list[Diagnostic], resolved: Resolved) -> list[Diagnostic]:
    """Point a diagnostic that a variant's change causes in a base file at the variant's line.

    A check compares two facts and reports at one of them (a stage whose requirement a variant made lower
    than the one before it); when that one is the base's and the other is the variant's change, the designer must
    edit the variant: the variant's line becomes the location and the base's a note. Suppressions
    are applied after (a comment at the variant's line; a `suppress:` entry at the base's place).
    """
    if len(resolved.chain) < 2:
        return diagnostics
    own = len(resolved.chain) - 1
    moved = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        if span is not None and resolved.layers.get(span.file) != own:
            change = next((r for r in diagnostic.related if resolved.layers.get(r.span.file) == own), None)
            if change is not None:
                others = tuple(r for r in diagnostic.related if r is not change)
                diagnostic = replace(
                    diagnostic,
                    span=change.span,
                    related=(Related(span, "the base fact it conflicts with", at_base=True), *others),
                    # A check's own variant fix is its fix as the variant writes it: the hint
                    # written for the base's file after it ("...; or make it `land`") was the
                    # same fix again, in a file the designer does not edit.
                    hint=diagnostic.hint if diagnostic.from_variant is None else diagnostic.from_variant,
                )
                if diagnostic.from_variant is None:
                    hint = _base_fact_from_the_variant(
                        diagnostic.hint, span, "the base fact it conflicts with", resolved
                    )
                    diagnostic = replace(diagnostic, hint=hint)
        moved.append(diagnostic)
    return moved


#: How a moved finding's hint, written of the facts the check compares, says how to change the
#: base's one from the variant: "correct the number, or ..." named the base's requirement as if
#: the designer edited the base's file (M031's class).
BASE_FACT = '{hint}; the base\'s fact (the note "{label}") is changed from this variant: {way}'


def _base_fact_from_the_variant(hint: str | None, span: Span, label: str, resolved: Resolved) -> str | None:
    """``hint`` of a finding moved from the base's fact at ``span`` to the variant's line, with how
    the variant changes that fact: a patch of the entity or the setting it lies in. Unchanged
    where the hint already speaks of the variant or the overlay, or no entity or setting holds it."""
    if hint is None or "overlay" in hint or "this variant" in hint:
        return hint
    way = _patch_of_base_fact(span, resolved)
    return hint if way is None else BASE_FACT.format(hint=hint, label=label, way=way)


def _patch_of_base_fact(span: Span, resolved: Resolved) -> str | None:
    """How the variant patches the entity or setting of its base that holds ``span`` (the
    innermost); None where none does, or the variant changes it already (its patch of it is
    where the designer writes the fix, and its line is shown)."""
    own = len(resolved.chain) - 1

    def changed_here(origin: Origin) -> bool:
        return any(resolved.layers.get(change.file) == own for _, change in origin.changes)

    found: list[tuple[Span, str]] = []
    changed: set[str] = set()
    for name, entries in resolved.collections.items():
        spec = resolved.family.collections[name]
        for entry in entries:
            if entry.origin.file != span.file:
                continue
            held = entry.origin.span()
            key = entity_key(spec, entry.raw)
            if key is not None and _holds(held, span):
                way = f"patch {spec.shown(key)} in `overlay.{name}` (`- {spec.naming(key)}` and the fields to change)"
                found.append((held, way))
                if changed_here(entry.origin):
                    changed.add(way)
    for key, origin in resolved.setting_origins.items():
        if origin.file == span.file and _holds(origin.span(), span):
            if changed_here(origin):
                return None  # the variant's change of the setting is where it writes the fix
            found.append(
                (
                    origin.span(),
                    f"change it in `overlay.settings` (`{key}: {{...}}`: what it names is merged into the base's)",
                )
            )
    if not found:
        return None
    way = min(found, key=lambda one: one[0].end_line - one[0].line)[1]
    return None if way in changed else way


def _changed_by_the_variant(resolved: Resolved) -> Iterator[tuple[Span, Span, str]]:
    """Each entity and setting of a base that the variant (the last of ``resolved.chain``)
    changes: its span in the base, the span of the variant's (first) change of it, and how to
    change it from the variant."""
    own = len(resolved.chain) - 1

    def change_here(origin: Origin) -> Origin | None:
        # every entry that changed a field, not its last changer alone: the first of the variant's
        # (the last changer of the field sorting first was taken, a later entry than the first)
        here = [
            change
            for name, _ in origin.changes
            for change in changers(origin, name)
            if resolved.layers.get(change.file) == own
        ]
        return min(here, key=_written_at, default=None)

    for name, entries in resolved.collections.items():
        spec = resolved.family.collections[name]
        for entry in entries:
            if not entry.origin.changes:
                continue  # changed by no overlay entry (most of a base's thousands): no frame for it
            change = change_here(entry.origin)
            key = entity_key(spec, entry.raw) if change is not None else None
            if change is not None and key is not None:
                way = f"patch {spec.shown(key)} in `overlay.{name}` (`- {spec.naming(key)}` and the fields to change)"
                yield entry.origin.span(), change.document.span(change.path), way
    for key, origin in resolved.setting_origins.items():
        change = change_here(origin) if origin.changes else None
        if change is not None:
            way = f"change it in `overlay.settings` (`{key}: {{...}}`: what it names is merged into the base's)"
            yield origin.span(), change.document.span(change_place(change, key)), way


def _written_at(change: Origin) -> tuple[str, int, int]:
    """Where an overlay entry is written (its file, line and column), for the first of them."""
    span = change.document.span(change.path)
    return (span.file, span.line, span.column)


def caused_by_the_variant(
    diagnostics: list[Diagnostic],
    resolved: Resolved,
    own_files: Iterable[str],
    found_by: Mapping[str, list[Diagnostic]],
    base_findings: Callable[[frozenset[str]], Mapping[str, Sequence[Diagnostic]]],
) -> list[Diagnostic]:
    """Point a check's diagnostic that a variant causes in its base's files at the variant.

    A check that sums or compares across entities (a deck's size, the one entity at the top of a
    tiered structure) reports at a fact of the base although the variant's change broke it: no related
    place is the variant's (:func:`at_the_variant` moves those). A diagnostic of a check left in a
    file the variant does not own is the variant's doing when the same check on the base
    (``base_findings``: what each of the codes asked for found, a code it could not tell left out)
    does not report at the same place; a base's own problem stays where it is.
    The variant's place is its change of the entity the diagnostic or a related place lies in, else
    its one change of what the check reads (:attr:`civrules.checks.Check.reads`: the collections,
    the fields of them and the settings it names), else the block those changes are in, else its
    `overlay:` (or `extends:`) line; the base's place becomes a note and the hint says
    how to make the fix from the variant. The variant's changes are indexed once (bisected by
    :class:`_Enclosures`, counted by collection), and only when a diagnostic is the variant's.
    """
    if len(resolved.chain) < 2:
        return diagnostics
    own = set(own_files)
    left = [
        at
        for at, diagnostic in enumerate(diagnostics)
        if diagnostic.span is not None
        and diagnostic.span.file not in own
        and diagnostic.severity != "info"  # an unknown fact of the base, say: no change is asked for
        and diagnostic.code in found_by
    ]
    if not left:
        return diagnostics
    found = base_findings(frozenset(diagnostics[at].code for at in left))
    in_base = {code: {_finding(d) for d in findings} for code, findings in found.items()}

    def caused_here(diagnostic: Diagnostic) -> bool:
        base = in_base.get(diagnostic.code)  # None: the base's findings of the code are not known
        return base is not None and _finding(diagnostic) not in base

    caused = [at for at in left if caused_here(diagnostics[at])]
    if not caused:
        return diagnostics
    changes = _VariantChanges(resolved, own)
    reads = {entry.code.code: entry.reads for entry in all_checks(resolved.family.id)}
    moved = list(diagnostics)
    for at in caused:
        diagnostic = diagnostics[at]
        assert diagnostic.span is not None
        way = changes.place_of(diagnostic, reads.get(diagnostic.code))
        moved[at] = replace(
            diagnostic,
            span=way.place,
            hint=f"from this variant (the base has no such problem): {way.told(diagnostic)}",
            related=(Related(diagnostic.span, "where the base shows it", at_base=True), *diagnostic.related),
        )
    return moved


#: How many of the base's places a diagnostic standing for several findings notes (each note is
#: printed with its line): its message counts the rest.
NOTED_PLACES = 10


def one_per_removal(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic for an entity a variant removes and its references: V006 at the `remove`
    entry, with each other error moved there about the same entity folded in.

    A family's own check of a reference V006 leaves to it (a cost naming an item, which the family
    checks) was moved to the variant's file as an error of its own: removing one item gave that
    check's error (139 costs name it) and V006 (3 references) at one line, for one change. V006
    now says both, with every note, and the other check's way beside its own.
    """
    # by the removed entity, and by what V006 says the variant added in its place (renamed)
    removals = {
        (d.span.file, subject): d
        for d in diagnostics
        if d.code == "V006" and d.span is not None
        for subject in d.subjects[:2]
    }
    if not removals:
        return diagnostics
    folded: dict[int, list[Diagnostic]] = {}
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        # a family check's finding moved to the variant's file (at the removal, or at the block
        # that adds a new one beside it), about the removed entity
        removal = next(
            (
                removals[(span.file, subject)]
                for subject in diagnostic.subjects
                if span is not None and (span.file, subject) in removals
            ),
            None,
        )
        if (
            removal is not None
            and diagnostic is not removal
            and diagnostic.severity is Severity.ERROR
            and diagnostic.code[:1] not in ("L", "S", "R", "V")
        ):
            folded.setdefault(id(removal), []).append(diagnostic)
            continue
        kept.append(diagnostic)
    if not folded:
        return diagnostics
    merged = []
    for diagnostic in kept:
        others = folded.get(id(diagnostic), [])
        if others:
            diagnostic = replace(
                diagnostic,
                message=diagnostic.message + "".join(f"; and {o.code}: {o.message}" for o in others),
                hint="; ".join([diagnostic.hint or "", *(f"for {o.code}: {o.hint}" for o in others if o.hint)]).strip(
                    "; "
                ),
                related=(*diagnostic.related, *(r for o in others for r in o.related)),
                subjects=tuple(dict.fromkeys((*diagnostic.subjects, *(s for o in others for s in o.subjects)))),
            )
        merged.append(diagnostic)
    return merged


def one_per_change(
    diagnostics: list[Diagnostic], moved_from: Mapping[Diagnostic, Span | None], checked: Collection[str] = ()
) -> list[Diagnostic]:
    """One diagnostic for the findings of one check that a variant's one change causes.

    A change of a setting that many entities of the base follow (a variant's list of the groups
    whose entities may have some field, one group left out where 30 of its entities have it) made
    the check find each entity apart, and each finding was moved to the same place of the variant
    (:func:`caused_by_the_variant`, :func:`at_the_variant`): 30 errors at one line, for one
    mistake. Those of one code and severity moved to one place with one hint, the same fix
    (``moved_from``: each moved diagnostic, by the place it was found at; two findings there with
    fixes of their own stay two) are said once,
    where the first of them stands: its message, how many more the change makes and what they are
    about, a note at the first :data:`NOTED_PLACES` places of the base, and every subject of theirs
    (what `--format json` gives). Suppressions were judged before, finding by finding: a
    `suppress:` entry naming one base fact silences that one alone.

    The same holds where a check itself tells its findings at the one place to change (``checked``:
    the codes of the checks that ran), in a base ruleset or a variant's own files: every entity of
    a group that a setting's list leaves out is a finding at that list, with the entity as a note;
    with one fix there, they are one diagnostic, its notes at the first of the places.
    """
    groups: dict[tuple[str, Severity, Span, str | None, bool], list[int]] = {}
    for at, diagnostic in enumerate(diagnostics):
        moved = diagnostic in moved_from
        if diagnostic.span is not None and (moved or diagnostic.code in checked):
            key = (diagnostic.code, diagnostic.severity, diagnostic.span, diagnostic.hint, moved)
            groups.setdefault(key, []).append(at)
    several = [members for members in groups.values() if len(members) > 1]
    if not several:
        return diagnostics
    dropped: set[int] = set()
    grouped = list(diagnostics)
    for members in several:
        first, others = diagnostics[members[0]], [diagnostics[at] for at in members[1:]]
        about = _told_apart(first, others)
        moved = first in moved_from
        notes = [*first.related]
        for other in others:
            if len(notes) >= NOTED_PLACES:
                break
            notes.extend(note for note in other.related if (note.at_base or not moved) and note not in notes)
        makes = "this change makes" if moved else "the same fix answers"
        grouped[members[0]] = replace(
            first,
            message=f"{first.message}; {makes} {words.count(len(others), 'more finding')} "
            f"of the kind: {words.listed(about)}",
            related=tuple(notes[: max(NOTED_PLACES, len(first.related))]),
            subjects=named(s for member in (first, *others) for s in member.subjects),
        )
        dropped.update(members[1:])
    return [diagnostic for at, diagnostic in enumerate(grouped) if at not in dropped]


def _told_apart(first: Diagnostic, others: list[Diagnostic]) -> list[str]:
    """What names each of ``others`` (findings told as one with ``first``) apart: its first subject
    that not every one of them has, else its first subject, else its message. Findings of one
    change are often about one entity each time (an area made inland, at every border of it):
    their first subject, that entity's, named it over and over, not what each is about."""
    shared = set(first.subjects).intersection(*(other.subjects for other in others))
    named = []
    for other in others:
        own = [subject for subject in other.subjects if subject not in shared]
        named.append(own[0] if own else other.subjects[0] if other.subjects else other.message)
    return named


def _finding(diagnostic: Diagnostic) -> tuple[str, Severity, Span | None]:
    """What makes two findings of a check one: its code, its severity (a check that cannot judge
    says so in an info where it would report an error) and its place. Not its words: they count what
    the variant changed too (a tier the base makes too small holds the variant's entities), and
    the problem at that place is still the base's."""
    return diagnostic.code, diagnostic.severity, diagnostic.span


class _VariantChanges:
    """The changes a variant (the last of a resolution's chain) makes: the base's entities and
    settings it changes, by their spans in the base (:class:`_Enclosures`), and every place of the
    variant that changes a collection, a field of its entities or a setting, with the block it is
    written in."""

    def __init__(self, resolved: Resolved, own_files: set[str]) -> None:
        self._own_files = own_files
        self._manifest = resolved.manifest
        self._entities = _Enclosures(
            (span, (place, way)) for span, place, way in _changed_by_the_variant(resolved) if span.file not in own_files
        )
        layer = len(resolved.chain) - 1
        #: By what it changes, as :attr:`civrules.checks.Check.reads` names it (a collection, for
        #: an entity added, replaced or removed; `collection.field` for a field a patch writes; a
        #: setting, :func:`civrules.checks.setting`), each place of the variant that changes it,
        #: with the path of the manifest's block it is written in (None: a data file of the
        #: variant's own).
        self._places: dict[str, dict[Span, NodePath | None]] = {}

        def add(changed: str, origin: Origin | None) -> None:
            if origin is None or resolved.layers.get(origin.file) != layer:
                return
            block: NodePath | None = None
            if origin.document is self._manifest and origin.path:
                block = origin.path[:2] if origin.path[0] == "overlay" else origin.path[:1]
            self._places.setdefault(changed, {})[origin.document.span(origin.path)] = block

        # every overlay entry that changed a field, not its last changer alone: a diagnostic about
        # a fact an earlier entry wrote was told to undo the later entry
        for name, entries in resolved.collections.items():
            for entry in entries:
                add(name, entry.origin)
                for written, _ in entry.origin.changes:
                    for change in changers(entry.origin, written):
                        add(f"{name}.{written}", change)
            for removed in resolved.removed.get(name, {}).values():
                add(name, removed)
        for key, origin in resolved.setting_origins.items():
            add(setting(key), origin)
            for name, _ in origin.changes:
                for change in changers(origin, name):
                    add(setting(key), replace(change, path=change_place(change, name)))
        #: By what it changes, the blocks its places are written in: a diagnostic looks at these,
        #: not at every place (5,000 patches, as many diagnostics).
        self._blocks = {name: set(places.values()) for name, places in self._places.items()}

    def place_of(self, diagnostic: Diagnostic, reads: frozenset[str] | None) -> _CausedAt:
        """Where in the variant a diagnostic it causes is reported, and how to make its fix there."""
        for at, span in enumerate((diagnostic.span, *(r.span for r in diagnostic.related))):
            if span is None or span.file in self._own_files:
                continue
            around = self._entities.around(span)
            if around:
                _, (place, way) = min(around, key=lambda found: found[0].end_line - found[0].line)
                # the patch holds the base's fact noted (the finding's own place): it writes the fix
                return _CausedAt(place, "undo this change", way, writes=at == 0, patch=True)
        # What the variant changes of what the check reads (everything, for a check that may read
        # anything): the one place that changes it, else the one block those places are in.
        read = [name for name in self._places if _read_by(name, reads)]
        places = {place for name in read for place in self._places[name]}
        entities = "make the fix in `overlay` (add, patch or remove the base's entities)"
        if len(places) == 1:
            (place,) = places
            return _CausedAt(place, "undo or amend this change", entities)
        blocks = {block for name in read for block in self._blocks[name]}
        if len(blocks) == 1:
            (block,) = blocks
            if block is not None and block[0] == "overlay":
                written = ".".join(map(str, block))
                return _CausedAt(
                    self._manifest.key_span(block), f"undo or amend the change in `{written}` that makes it", entities
                )
        if self._manifest.has_key(("overlay",)):
            return _CausedAt(
                self._manifest.key_span(("overlay",)),
                "undo or amend the change in `overlay` that makes it",
                "make the fix there (add, patch or remove the base's entities)",
            )
        return _CausedAt(
            self._manifest.key_span(("extends",)), "change what this variant adds or restates that makes it"
        )


@dataclass(frozen=True, slots=True)
class _CausedAt:
    """Where a finding a variant causes is told (``place``, in the variant) and the two ways to
    fix it there: ``undo`` the change, or ``fix`` (what to write in the overlay instead; None
    where the variant has no overlay to write it in). ``writes``: the change is the patch of the
    very fact the finding stands at in the base, so the check's own fix is what the patch writes;
    ``patch``: ``fix`` is the variant's patch of an entity that holds the finding or a place noted."""

    place: Span
    undo: str
    fix: str | None = None
    writes: bool = False
    patch: bool = False

    def told(self, diagnostic: Diagnostic) -> str:
        """How to fix ``diagnostic`` from the variant, each way once: a check's variant fix of its
        own (:attr:`Diagnostic.from_variant`), else its fix as the patch writes it, or at the base's
        fact noted; then undoing the change."""
        if diagnostic.from_variant is not None:
            return f"{diagnostic.from_variant}; or {self.undo}"
        if not diagnostic.hint:
            if self.fix is None:
                return self.undo
            return f"{self.fix}, or {self.undo}" if self.patch else f"{self.undo}, or {self.fix}"
        if self.writes:
            return f"{ONE_PATCH.format(way=self.fix, hint=diagnostic.hint)}; or {self.undo}"
        return AT_THE_NOTE.format(undo=self.undo, hint=diagnostic.hint)


def _read_by(changed: str, reads: frozenset[str] | None) -> bool:
    """Whether a check reading ``reads`` (:attr:`civrules.checks.Check.reads`) reads what the
    change of ``changed`` (a collection, `collection.field`, or a setting) changes.

    >>> _read_by("cards.copies", frozenset({"cards"})), _read_by("cards.colours", frozenset({"cards.copies"}))
    (True, False)
    >>> _read_by("cards", frozenset({"cards.copies"})), _read_by("settings.coins", frozenset({"settings"}))
    (True, True)
    >>> _read_by("cards.copies", frozenset({"*"})), _read_by("settings.coins", frozenset({"*"}))
    (True, False)
    """
    if reads is None or changed in reads:
        return True
    if changed.startswith(f"{SETTINGS}."):
        return SETTINGS in reads
    if ALL_COLLECTIONS in reads:
        return True  # every collection, whole
    collection, dot, _ = changed.partition(".")
    if dot:
        return collection in reads  # a field of a collection the check reads whole
    return any(name.startswith(f"{collection}.") for name in reads)  # an entity added or removed


def base_of(workspace: Workspace, resolver: Resolver, resolved: Resolved) -> Resolved | None:
    """The resolution of a variant's base (``resolver``'s, resolved now if it was not)."""
    base_id = resolved.chain[-2]
    base = resolver.resolution(base_id)
    if base is None:
        manifest = workspace.manifest(base_id)
        base = resolver.resolve(workspace.load_ruleset(manifest))[0] if manifest is not None else None
    return base


def base_findings(
    workspace: Workspace, resolver: Resolver, resolved: Resolved, wanted: frozenset[str]
) -> dict[str, list[Diagnostic]]:
    """What the checks of the codes ``wanted`` find in the base of a variant (resolved by
    ``resolver``): those the base's analysis found already (:attr:`civrules.resolve.Findings.found`), the others
    run on the base's model, built once. A check that fails on the base is left out: its findings
    in the variant are not known to be the variant's."""
    kept = resolver.findings(resolved.chain[-2])
    found = dict(kept.found)
    missing = wanted - found.keys() - kept.untold
    if missing:
        base = base_of(workspace, resolver, resolved)  # resolved again only to run a check it was never asked
        if base is None:
            return {}
        model = build_model(base)
        for entry in all_checks(model.family):
            code = entry.code.code
            if code not in missing or entry.family not in (None, model.family):
                continue
            try:
                found[code] = list(entry.run(model))
            except MemoryError:
                raise
            except Exception:  # noqa: BLE001 - the base's own analysis reports it (R900)
                continue
        kept.found = found
        kept.untold |= missing - found.keys()
    return {code: found[code] for code in wanted if code in found}


class _Enclosures(Generic[T]):
    """Spans of files, each with a value, looked up by a place they hold.

    A diagnostic found the spans around it by trying every span of its file (a variant patching
    5,000 areas of its base and as many warnings there: 13 s). The spans of a document's nodes nest
    or lie apart, so those around a place are the span that starts last before it and the spans
    that hold that one: a bisection and a walk up, as deep as the nesting. A file whose spans
    overlap without nesting (no document makes one) is still tried span by span, so the answer is
    always the same as trying them all.
    """

    def __init__(self, spans: Iterable[tuple[Span, T]]) -> None:
        self._files: dict[str, _FileSpans[T]] = {}
        for span, value in spans:
            self._files.setdefault(span.file, _FileSpans()).given.append((span, value))
        for spans_of_file in self._files.values():
            spans_of_file.nest()

    def __bool__(self) -> bool:
        return bool(self._files)

    def around(self, place: Span) -> list[tuple[Span, T]]:
        """The spans that hold ``place``, with their values, in the order they were given."""
        spans = self._files.get(place.file)
        if spans is None:
            return []
        if spans.tangled:
            return [(span, value) for span, value in spans.given if _holds(span, place)]
        at = bisect.bisect_right(spans.starts, (place.line, place.column)) - 1
        found = []
        while at >= 0:
            given = spans.by_start[at]
            if _holds(spans.given[given][0], place):
                found.append(given)
            at = spans.parent[at]
        return [spans.given[given] for given in sorted(found)]


@dataclass(slots=True)
class _FileSpans(Generic[T]):
    """The spans of one file: as given, and ordered by where they start, each with the nearest
    span that holds it (its parent)."""

    given: list[tuple[Span, T]] = field(default_factory=list)
    #: Indexes into ``given`` by start, a span before those it holds; their starts; the position
    #: (in this order) of each one's parent, -1 for none.
    by_start: list[int] = field(default_factory=list)
    starts: list[tuple[int, int]] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    tangled: bool = False

    def nest(self) -> None:
        def start_then_widest(given: int) -> tuple[int, int, int, int, int]:
            span = self.given[given][0]
            return (span.line, span.column, -span.end_line, -span.end_column, given)

        self.by_start = sorted(range(len(self.given)), key=start_then_widest)
        self.starts = [(self.given[g][0].line, self.given[g][0].column) for g in self.by_start]
        holding: list[int] = []  # the positions of the spans that hold the last one placed
        for at, given in enumerate(self.by_start):
            span = self.given[given][0]
            while holding:
                outer = self.given[self.by_start[holding[-1]]][0]
                if _holds(outer, span):
                    break
                # a span it does not fit in must end before it starts, or the spans do not nest
                if (span.line, span.column) <= (outer.end_line, outer.end_column):
                    self.tangled = True
                holding.pop()
            self.parent.append(holding[-1] if holding else -1)
            holding.append(at)


def _holds(outer: Span, inner: Span) -> bool:
    """Whether ``inner`` lies within ``outer`` (the same file assumed)."""
    starts_inside = (outer.line, outer.column) <= (inner.line, inner.column)
    return starts_inside and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def note_base_definitions(diagnostics: list[Diagnostic], notes: Sequence[tuple[Span, Span]]) -> list[Diagnostic]:
    """Give every diagnostic inside a variant's overlay entry a note at the base's definition.

    The checks point at the variant's line (provenance); this adds, where the check did not, where
    the base defined what the entry changes, so the designer sees both the change and the original.
    The entry of a diagnostic is found by bisection (:class:`_Enclosures`), not by trying every entry.
    """
    entries = _Enclosures((entry, base) for entry, base in notes if base.file != entry.file)
    if not entries:
        return diagnostics
    noted = []
    for diagnostic in diagnostics:
        # entries do not overlap: at most one holds the diagnostic
        around = entries.around(diagnostic.span) if diagnostic.span is not None else []
        defined = around[-1][1] if around else None
        if defined is not None and not any(r.span == defined or r.at_base for r in diagnostic.related):
            note = Related(defined, "the base definition", at_base=True)
            diagnostic = replace(diagnostic, related=(*diagnostic.related, note))
        noted.append(diagnostic)
    return noted


def _noted_at_base(
    diagnostics: list[Diagnostic], workspace: Workspace, loaded: LoadedRuleset, resolver: Resolver | None = None
) -> list[Diagnostic]:
    """A variant refused by its schema is not resolved; its base (when clean) still gives the notes."""
    manifest = loaded.manifest.file.document
    parent = manifest.data.get("extends") if manifest is not None and isinstance(manifest.data, dict) else None
    base_manifest = workspace.manifest(parent) if isinstance(parent, str) else None
    if manifest is None or base_manifest is None or base_manifest.id == loaded.id:
        return diagnostics
    base_loaded = workspace.load_ruleset(base_manifest)
    if has_errors(base_loaded.all_diagnostics()):
        return diagnostics
    base, problems = (resolver or Resolver(workspace)).resolve(base_loaded)
    if base is None or has_errors(problems):
        return diagnostics
    return note_base_definitions(diagnostics, overlay_base_notes(manifest, base))


def derived_facts(model: Any) -> Mapping[str, Any]:
    """The facts the family of ``model`` (a resolved ruleset's model) derives for ``civrules
    export`` (its hook ``export``); empty where the family derives none."""
    family = family_named(model.family)
    derive = family.hook("export") if family is not None else None
    found: Mapping[str, Any] = derive(model) if derive is not None else {}
    return found
