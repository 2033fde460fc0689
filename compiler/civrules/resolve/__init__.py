"""Resolving a ruleset: `extends` chains and overlays, with provenance for every entity and field.

A variant manifest names its base with ``extends:`` (any depth) and changes it with ``overlay:``,
one block per collection::

    overlay:
      sides:
        patch:                                  # merge into an existing entity
          - id: north
            home: {spaces: [hill, lake], rule: "4.61"}
        add: [...]                              # new entities (error if the id exists)
        replace: [...]                          # whole entities (error if the id does not exist)
        remove:                                 # error if absent, or still referenced
          - {id: lantern, why: "..."}

A patch follows JSON Merge Patch (RFC 7386): mappings merge key by key, any other value replaces
(lists included), ``null`` deletes a field; ``{append: [...]}`` appends to a list instead. The
variant's own ``files:`` add to its base's, and its other top-level keys (``players``, a
game's settings ...) replace the base's. Entities keep where they were defined and, per field,
where they were last changed, so a diagnostic points at the file a designer must edit.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import copy
import functools
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from civrules.diagnostics import Diagnostic, Related, Severity, Span, Unchanged, blanks, codes, named, stopped, words
from civrules.diagnostics.suggest import QUERIES, Vocabulary, closest, mean
from civrules.families import CollectionSpec, Family
from civrules.load.document import Document, NodePath
from civrules.load.workspace import MAX_EXTENDS as MAX_EXTENDS  # the chain's bound, public here too (V002)
from civrules.load.workspace import LoadedRuleset, Manifest, Workspace, family_mismatch
from civrules.model import (
    Changers,
    Origin,
    Slots,
    WriterLog,
    linked,
    record_of,
    recorded,
    unchained,
    with_record,
    without_record,
)
from civrules.schema import (
    MERGE_KEY,
    entity_passes_fast,
    is_valid_fast,
    setting_items_cite,
    validate_entity,
    validate_setting,
)
from civrules.schema.references import remembered
from civrules.support import memo
from civrules.support.values import frozen_value

OPERATIONS = ("remove", "replace", "patch", "add")

#: Keys of a variant manifest that are not rule facts of the ruleset (never merged into its base's).
_MANIFEST_HEADER = {
    "kind",
    "family",
    "id",
    "name",
    "description",
    "status",
    "extends",
    "overlay",
    "suppress",
    "files",
    "rulebook",
}

#: Keys of a manifest's header that say what this one ruleset is: a variant never has its base's.
#: `status` above all: a house rule built on a rulebook's own variant is not the rulebook's, and a
#: variant of a draft says itself whether it is one (V011 where its base has a status and it none).
OWN_HEADER = frozenset({"description", "status"})


def entity_key(spec: CollectionSpec, raw: Mapping[str, Any]) -> str | None:
    """The identifying key of an entity as text: ``key@qualifier`` where the collection is keyed
    by a qualifier too, ``a|b`` (sorted) where it is keyed by a pair."""
    value = raw.get(spec.key)
    if spec.qualifier is not None and isinstance(value, str) and isinstance(raw.get(spec.qualifier), str):
        return f"{value}@{raw[spec.qualifier]}"
    if spec.pair:
        if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
            return "|".join(sorted(value))
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    return str(value)


@dataclass(slots=True, eq=False)
class Entry:
    """One entity of a collection, with where it was defined and changed. Two entries are equal
    only when they are one (an entry is a place in a collection, not a value: a collection's index
    finds an entry's place by identity, see :func:`_find`)."""

    origin: Origin
    raw: dict[str, Any]


class SchemaBudget:
    """The schema errors an overlay's entities may cost before its judging stops, as a base file's
    does (:func:`civrules.schema.validate_document`): past ``limit`` (``--max-diagnostics``), an
    entity is only told valid or not by the compiled validator, and the first that is not stops
    the judging of the rest (one R011 says so). Each wrong entity costs jsonschema's interpreted
    walk, about 1 ms: 20,000 wrong cards added by a variant took 17 s, where a base file of as many
    stopped at the limit in 2.6 s. With no ``limit``, every entity is judged in full."""

    __slots__ = ("errors", "limit", "stopped")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.errors = 0
        self.stopped = False

    def judge(
        self,
        kind: str,
        list_path: tuple[str, ...],
        data: Any,
        locate: Callable[[NodePath], tuple[Document, NodePath]],
        base: Span | None = None,
    ) -> list[Diagnostic]:
        """:func:`validate_entity` within the budget.

        An entity found valid is not judged again while a session's memo
        (:mod:`civrules.schema.references`) holds it: a value is never changed once read, and an
        edit spliced into a variant's manifest leaves every overlay entry it did not touch the same
        object (a patched entity too: see :func:`_merged`), so an edit of one added card judges
        that card, not the 5,000 beside it. A wrong one is judged each time: its diagnostics are
        located where it is written now. Judged valid or found so before, it costs the budget nothing.
        """
        judged: list[list[Diagnostic]] = []

        def judge() -> bool:
            """Judge it now; whether it was found valid (a budget that stopped judged nothing)."""
            stopped = self.stopped
            found = self._judge(kind, list_path, data, locate, base)
            judged.append(found)
            return not found and not stopped and not self.stopped

        remembered(data, (SchemaBudget.judge, sys.intern(kind), list_path), judge, keep=bool)
        return judged[0] if judged else []  # not judged: found valid before

    def _judge(
        self,
        kind: str,
        list_path: tuple[str, ...],
        data: Any,
        locate: Callable[[NodePath], tuple[Document, NodePath]],
        base: Span | None = None,
    ) -> list[Diagnostic]:
        if self.stopped:
            return []
        if self.limit is not None and self.errors >= self.limit:
            passes = entity_passes_fast(kind, list_path, data)
            if passes is None:  # rare: the interpreted validator judges it
                passes = not validate_entity(kind, list_path, data, locate, base)
            self.stopped = not passes
            return []
        found = validate_entity(kind, list_path, data, locate, base)
        self.errors += sum(1 for diagnostic in found if diagnostic.severity is Severity.ERROR)
        return found


@dataclass(slots=True)
class Resolved:
    """A ruleset with its base chain applied: what the model is built from."""

    #: The ruleset's family: its collections and settings are what resolution knows.
    family: Family
    manifest: Document
    data: dict[str, Any]
    chain: tuple[str, ...]
    collections: dict[str, list[Entry]] = field(default_factory=dict)
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    documents: list[Document] = field(default_factory=list)
    removed: dict[str, dict[str, Origin]] = field(default_factory=dict)
    rule_index: Document | None = None
    #: Where each setting (a key of the family's ``settings``) was defined and, per sub-key, last changed.
    setting_origins: dict[str, Origin] = field(default_factory=dict)
    #: Each setting a variant removed (`overlay.settings.remove`, or patched to `null`): the removal,
    #: with what it removed as its ``base``; the removed setting's facts, its unknowns and citations
    #: too, are gone, as an entity's in ``removed`` are.
    removed_settings: dict[str, Origin] = field(default_factory=dict)
    #: The position in ``chain`` of the ruleset that brought each file (by display name).
    layers: dict[str, int] = field(default_factory=dict)
    #: Each file's name in what civrules writes (by display name; :meth:`Workspace.name_of`).
    names: dict[str, str] = field(default_factory=dict)
    #: Where the manifest that brought each file names it (by the file's display name).
    file_entries: dict[str, Span] = field(default_factory=dict)
    #: Each overlay entry that changes something of the base (its span in the variant) and the
    #: base's definition of what it changes: a diagnostic inside the entry gets a note there.
    base_notes: list[tuple[Span, Span]] = field(default_factory=list)
    #: Whether a model was built of it: its family's assembly puts what it derives among its
    #: settings (a deck total that its data changed without restating it).
    assembled: bool = False
    #: Each setting its family's assembly derived (:meth:`derive`), with the origin the setting had
    #: then: while that is still its origin (no later variant wrote it), its value is derived from
    #: the ruleset's data, not written by anyone (what `civrules diff` marks as derived).
    derived: dict[str, Origin | None] = field(default_factory=dict)
    #: The schema work the overlay being applied may still cost (:class:`SchemaBudget`); outside
    #: an overlay's application, unbounded.
    budget: SchemaBudget = field(default_factory=lambda: SchemaBudget(None))

    def derive(self, key: str) -> None:
        """Mark the setting ``key`` as derived: its family's assembly has just put in place of its
        value what the ruleset's data makes it."""
        self.derived[key] = self.setting_origins.get(key)

    def is_derived(self, key: str) -> bool:
        """Whether the setting ``key`` holds a derived value, written by no ruleset since."""
        return key in self.derived and self.derived[key] is self.setting_origins.get(key)


def _bases_for(chain: Sequence[str], manifests: Mapping[str, Manifest]) -> list[str]:
    """The rulesets the last of ``chain`` could extend without a cycle: every known one but those of
    ``chain`` (it and the variants being resolved through it) and those whose ``extends`` leads to
    one of them (its other variants)."""
    excluded = set(chain)
    allowed: list[str] = []
    for ruleset_id in manifests:
        step: str | None = ruleset_id
        for _ in range(MAX_EXTENDS + 1):
            if step is None or step in excluded:
                break
            manifest = manifests.get(step)
            parent = manifest.head.get("extends") if manifest is not None else None
            step = parent if isinstance(parent, str) else None
        if step is None or step not in excluded:
            allowed.append(ruleset_id)
    return allowed


@dataclass(slots=True, eq=False)
class Findings:
    """What one ruleset's checks found, and how its base shows its own, as its variants ask
    (:func:`civrules.pipeline.base_findings`, :class:`civrules.pipeline._ShownBy`): kept by the
    resolver by the ruleset's id for the whole run, past :meth:`Resolver.retain`.

    They were kept with each resolution, which a run forgets once no ruleset left extends it: in
    a chain of 64 variants each variant's analysis asked its base how it shows its findings, the
    base asked its own base, down to the first, resolving each forgotten base again (its whole
    chain below it) and building its model again to run its checks: the square of the chain's
    length (3,014 models built for 65 rulesets). What a ruleset's checks find does not depend on
    which variant asks, nor on which resolution of it answers (one run reads its files once)."""

    #: What its checks found, by code, once asked (:func:`civrules.pipeline.analyse`): a variant
    #: resolved on it compares its own findings in the base's files with these.
    found: dict[str, list[Diagnostic]] = field(default_factory=dict)
    #: The codes asked of it that no check of its family found (none makes them, or its check
    #: failed): asked again, they are not run again (a chain of 60 variants asked each base for
    #: them, each time building its model anew).
    untold: frozenset[str] = frozenset()
    #: Its base's findings of each code asked, each as found and as the base's analysis shows it
    #: (:class:`civrules.pipeline._ShownBy`): by code, as each is told apart from the others.
    base_shown: dict[str, list[tuple[Diagnostic, Diagnostic]]] = field(default_factory=dict)


class Resolver:
    """Resolves rulesets of one workspace, each once."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._done: dict[str, tuple[Resolved | None, list[Diagnostic]]] = {}
        #: The files each resolution in ``_done`` loaded (its bases' included), loaded again where
        #: it is reused: whoever reuses it is made from them too.
        self._read: dict[str, frozenset[str]] = {}
        #: Each ruleset's :class:`Findings`, by id, for the resolver's life (never retained less).
        self._findings: dict[str, Findings] = {}
        #: How many of each resolution's problems its base's resolution gave it (they come first),
        #: by id: the rest are its own layer's (:meth:`untold`). Kept past :meth:`retain`.
        self._inherited: dict[str, int] = {}
        #: The ids whose own layer's problems an analysis took already (:meth:`untold`).
        self._told: set[str] = set()

    def findings(self, ruleset_id: str) -> Findings:
        """What ``ruleset_id``'s checks found so far, and how its base shows its own (kept for the
        run: a ruleset forgotten by :meth:`retain` and resolved again answers from these)."""
        kept = self._findings.get(ruleset_id)
        if kept is None:
            kept = self._findings[ruleset_id] = Findings()
        return kept

    def resolve(self, loaded: LoadedRuleset) -> tuple[Resolved | None, list[Diagnostic]]:
        return self._resolve(loaded, ())

    def untold(self, resolved: Resolved, problems: list[Diagnostic], *, mark: bool = True) -> list[Diagnostic]:
        """``problems`` (what resolving ``resolved`` found: each layer's of its chain in turn, its
        bases' first) less those of each base's own layer that an analysis sharing this resolver
        took already; each layer's are marked taken.

        A variant's resolution holds what resolving each of its bases found (a no-op patch, V013,
        in each layer's file): in a chain of k variants, the k-th analysis held k of them, the
        square of the chain in all, relocated, judged against suppressions and merged by the run
        into one each. What a base's own layer found is told once a run: by the first analysis that
        holds it (the base's own, or a variant's when the base is not checked, `validate v5`); the
        layer's own are always kept (they are its analysis's, whoever told them first). Where the
        layers' counts are not all known (not resolved by this resolver), ``problems`` is kept whole.
        Without ``mark`` (an analysis whose `suppress:` entries may silence a base's finding, and
        whose entries that silence nothing are V008), ``problems`` is kept whole and nothing is
        marked taken: a variant above it still tells what its entries silence."""
        if not mark:
            return problems
        bounds = [self._inherited.get(ruleset_id) for ruleset_id in resolved.chain]
        if any(bound is None for bound in bounds):
            return problems
        starts = [bound for bound in bounds if bound is not None]
        ends = [*starts[1:], len(problems)]
        if any(start > end for start, end in zip(starts, ends, strict=True)):
            return problems  # not this resolver's layers (never so: they come first, in turn)
        kept: list[Diagnostic] = []
        last = len(resolved.chain) - 1
        for layer, (ruleset_id, start, end) in enumerate(zip(resolved.chain, starts, ends, strict=True)):
            if layer == last or ruleset_id not in self._told:
                kept.extend(problems[start:end])
            self._told.add(ruleset_id)
        return kept

    def resolution(self, ruleset_id: str) -> Resolved | None:
        """The resolution of ``ruleset_id`` made already (a variant's base, say), or None."""
        done = self._done.get(ruleset_id)
        return done[0] if done is not None else None

    def retain(self, ruleset_ids: Iterable[str]) -> None:
        """Forget every resolution but those of ``ruleset_ids`` (the bases of the rulesets a run has
        still to check): a run over many rulesets holds what it will reuse, not every model's data
        (a 60-variant chain held 60 resolutions, and the collector walked them all, again and again)."""
        keep = ruleset_ids if isinstance(ruleset_ids, (set, frozenset)) else set(ruleset_ids)
        self._done = {key: value for key, value in self._done.items() if key in keep}
        self._read = {key: value for key, value in self._read.items() if key in keep}

    @staticmethod
    def still_extended(bases: Sequence[str | None]) -> Iterator[set[str]]:
        """For each ruleset of a run in turn (``bases``: :meth:`bases`), the ids that it and the
        rulesets after it extend, for :meth:`retain`: one set, kept up to date as the run goes,
        where a set made of the rest of the list at each ruleset cost a run of n variants the
        square of n (round 29's `overlay-variants` shape)."""
        left = collections.Counter(base for base in bases if base is not None)
        keep = set(left)
        for base in bases:
            yield keep
            if base is not None:
                left[base] -= 1
                if not left[base]:
                    keep.discard(base)

    @staticmethod
    def bases(rulesets: Sequence[LoadedRuleset]) -> list[str | None]:
        """The id each ruleset's manifest `extends` (None where it names none), in order."""
        found: list[str | None] = []
        for loaded in rulesets:
            document = loaded.manifest.file.document
            data = document.data if document is not None else None
            base = data.get("extends") if isinstance(data, dict) else None
            found.append(base if isinstance(base, str) else None)
        return found

    def _resolve(self, loaded: LoadedRuleset, seen: tuple[str, ...]) -> tuple[Resolved | None, list[Diagnostic]]:
        done = self._done.get(loaded.id)
        # A resolution is reused where resolving it again from here would pass the same checks: below
        # ``seen`` its chain has ``len(chain) - 1`` levels with an `extends`, each checked against
        # MAX_EXTENDS. Otherwise it is resolved again, so that the result (and where a chain too long
        # is reported) is the same whichever rulesets the resolver resolved before.
        if done is not None and done[0] is not None and len(seen) + len(done[0].chain) - 1 <= MAX_EXTENDS:
            # A session records what each ruleset's check loaded as what it depends on: reused, the
            # resolution still reads its bases' files (a variant checked before its base resolved
            # the base, whose own check then read nothing of its base's, and missed edits of it).
            self.workspace.read_again(sorted(self._read.get(loaded.id, ())))
            return done
        with self.workspace.reading() as read:
            resolved, diagnostics = self._resolve_afresh(loaded, seen)
        if resolved is not None:
            self._done[loaded.id] = (resolved, diagnostics)
            self._read[loaded.id] = frozenset(read)
        return resolved, diagnostics

    def _resolve_afresh(self, loaded: LoadedRuleset, seen: tuple[str, ...]) -> tuple[Resolved | None, list[Diagnostic]]:
        manifest = loaded.manifest.file.document
        if manifest is None:  # read before, unreadable now (an I/O error, a file changed meanwhile)
            return None, list(loaded.manifest.file.diagnostics)
        diagnostics: list[Diagnostic] = []
        parent_id = manifest.data.get("extends")
        base: Resolved | None = None
        if isinstance(parent_id, str):
            base, problems = self._parent(loaded, parent_id, (*seen, loaded.id))
            diagnostics.extend(problems)
            if base is None:
                return None, diagnostics
        inherited = len(diagnostics)
        resolved, again = _start(manifest, loaded, base)
        for document in resolved.documents:
            if document.file not in resolved.names:
                resolved.names[document.file] = self.workspace.name_of(document.file)
        diagnostics.extend(again)
        resolved.budget = SchemaBudget(self.workspace.limits.max_diagnostics)
        diagnostics.extend(_apply_overlay(resolved, manifest))
        if resolved.budget.stopped and resolved.budget.limit is not None:
            diagnostics.append(stopped(manifest.file, resolved.budget.limit))
        resolved.budget = SchemaBudget(None)
        # The key indexes served this overlay; another finds the keys of its own lists. Kept, each
        # held its entries and their documents past the session's round that resolved them.
        for entries in resolved.collections.values():
            _KEY_INDEX.pop(id(entries), None)
        self._inherited[resolved.chain[-1]] = inherited
        return resolved, diagnostics

    def _parent(
        self, loaded: LoadedRuleset, parent_id: str, chain: tuple[str, ...]
    ) -> tuple[Resolved | None, list[Diagnostic]]:
        manifest = loaded.manifest.file.document
        if manifest is None:  # read before, unreadable now (an I/O error, a file changed meanwhile)
            return None, list(loaded.manifest.file.diagnostics)
        at = manifest.span(("extends",))
        manifests = self.workspace.known_manifests()
        if parent_id in chain:
            return None, [
                _diag(
                    codes.EXTENDS_CYCLE,
                    cycle_message((*chain[chain.index(parent_id) :], parent_id)),
                    at,
                    "break the cycle: a ruleset cannot extend itself or one of its own variants",
                    subjects=("extends",),
                )
            ]
        if len(chain) > MAX_EXTENDS:
            return None, [
                _diag(
                    codes.EXTENDS_CYCLE,
                    f"the `extends` chain is more than {MAX_EXTENDS} rulesets long",
                    at,
                    "extend the base ruleset directly: a variant of a variant of ... that deep is not read",
                    subjects=("extends",),
                )
            ]
        parent = manifests.get(parent_id)
        unread = _unread_manifest_of(self.workspace, parent_id) if parent is None else None
        if unread is not None:
            # Its file is there and says why it is not read (a syntax error, merge-conflict
            # markers): V001 "names no ruleset" beside that error was a second error for one cause.
            return None, [
                _diag(
                    codes.BROKEN_BASE,
                    f"the base ruleset `{words.clipped(parent_id)}` cannot be read, so this variant was not checked",
                    at,
                    f"fix {words.named_path(unread)} first; its error is listed with it",
                    subjects=(parent_id,),
                )
            ]
        if parent is None:
            # Neither the ruleset itself nor one of its variants: extending either is a cycle (V002).
            near = closest(parent_id, _bases_for(chain, manifests))
            hint = mean(parent_id, near) if near else "run `civrules list` to see the ruleset ids"
            turned_off = _shipped_turned_off(parent_id)
            if turned_off is not None:
                hint, near = turned_off, None
            problem = _diag(
                codes.UNKNOWN_BASE,
                unknown_base_message(parent_id),
                at,
                hint,
                subjects=words.whole((parent_id,)),
            )
            return None, [replace(problem, suggestion=near)]
        mismatch = family_mismatch(loaded.manifest, manifests)
        if mismatch is not None:
            # Told when the manifest is loaded (its analysis stops there); here for a caller that
            # resolves what it loaded without looking at the load's diagnostics.
            return None, [mismatch]
        parent_loaded = self.workspace.load_ruleset(parent)
        problems = parent_loaded.all_diagnostics()
        if any(d.severity == "error" for d in problems):
            return None, [
                *problems,
                _diag(
                    codes.BROKEN_BASE,
                    f"the base ruleset `{parent_id}` has errors, so this variant was not checked",
                    at,
                    "fix the base ruleset first; its errors are listed above",
                    (Related(_manifest_span(parent), "the base ruleset", at_base=True),),
                    subjects=(parent_id,),
                ),
            ]
        resolved, diagnostics = self._resolve(parent_loaded, chain)
        if resolved is None:
            diagnostics = [
                *diagnostics,
                _diag(
                    codes.BROKEN_BASE,
                    f"the base ruleset `{parent_id}` cannot be resolved",
                    at,
                    "fix the base ruleset first",
                    subjects=(parent_id,),
                ),
            ]
        return resolved, diagnostics


def _unread_manifest_of(workspace: Workspace, parent_id: str) -> str | None:
    """The name of the file ``rulesets/ID.yaml`` (or ``.yml``) of the rules folder where it is
    there but was not read as a document (its errors say why), for the ruleset id ``parent_id``
    an `extends:` names and no manifest declares; else None."""
    if not parent_id or "/" in parent_id or "\\" in parent_id or parent_id.startswith(".") or len(parent_id) > 200:
        return None
    for relative in (f"rulesets/{parent_id}.yaml", f"rulesets/{parent_id}.yml"):
        if workspace.has_rule_file(relative):
            loaded = workspace.load(relative)
            if loaded.document is None and any(d.severity == "error" for d in loaded.diagnostics):
                return loaded.path
    return None


def cycle_message(links: Iterable[str]) -> str:
    """V002's message for the ``links`` of a cycle of `extends` (the first one again last), each id
    cut where long (:func:`~civrules.diagnostics.words.clipped`): `validate`'s and `new-variant`'s."""
    return "`extends` makes a cycle: " + " → ".join(words.clipped(link) for link in links)


def unknown_base_message(parent_id: str) -> str:
    """V001's message for an `extends:` naming ``parent_id``, no ruleset, cut where long: an id of
    200,000 letters made a message of 200 kB (round 33)."""
    return f"`extends: {words.clipped(parent_id)}` names no ruleset"


def _shipped_turned_off(ruleset_id: str) -> str | None:
    """V001's hint when ``ruleset_id`` is a ruleset shipped with civrules that `--no-shipped` or
    CIVRULES_NO_SHIPPED keeps from being read; else None."""
    from civrules.load.workspace import shipped_rules, shipped_turned_off, shipped_turned_off_by

    shipped = shipped_rules()
    from civrules.support.files import kind_of

    if not shipped_turned_off() or shipped is None or kind_of(shipped, f"rulesets/{ruleset_id}.yaml") != "file":
        return None
    return (
        f"`{ruleset_id}` is shipped with civrules, but the shipped rulesets are not read: "
        f"{shipped_turned_off_by()} turned them off; drop the option and "
        f"unset the variable (or set it to 0) to extend it"
    )


def _manifest_span(manifest: Manifest) -> Span:
    document = manifest.file.document
    return document.span(("id",)) if document is not None else Span.at(manifest.file.path)


def _files_of_the_base(manifest: Document, loaded: LoadedRuleset, base: Resolved | None) -> list[Diagnostic]:
    """V010 for each file the variant names that its base already reads (it is not read again)."""
    if base is None:
        return []
    found = []
    for display, at in loaded.entries.items():
        if display not in base.layers:
            continue
        named = base.file_entries.get(display)
        brought = base.chain[base.layers[display]]
        found.append(
            _diag(
                codes.FILE_OF_THE_BASE,
                f"`{_render_entry(manifest, at)}` is a file of the base ruleset `{brought}`, which this variant "
                "already reads",
                manifest.span(at),
                "delete this entry: a variant has every file of its base; change what differs in `overlay:`",
                (Related(named, f"`{brought}` names it here"),) if named is not None else (),
                subjects=(_render_entry(manifest, at), brought),
            )
        )
    return found


def _render_entry(manifest: Document, at: NodePath) -> str:
    """The path a manifest's `files:` entry at ``at`` writes."""
    node: Any = manifest.data
    for part in at:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
    return node if isinstance(node, str) else "/".join(str(p) for p in at)


def _start(manifest: Document, loaded: LoadedRuleset, base: Resolved | None) -> tuple[Resolved, list[Diagnostic]]:
    """The ruleset's own data laid over a copy of its base (without its overlay yet); and V010 for
    each file it names that the base already reads, which is not read a second time."""
    again = _files_of_the_base(manifest, loaded, base)
    inherited = base.layers if base is not None else {}
    own_by_slot = {
        slot: [
            f.document for f in files if f.document is not None and (slot == "rule_index" or f.path not in inherited)
        ]
        for slot, files in loaded.files.items()
    }
    own_documents = [
        document for slot, documents in own_by_slot.items() if slot != "rule_index" for document in documents
    ]
    if base is None:
        data = {k: v for k, v in manifest.data.items() if k not in ("overlay", "suppress")}
        resolved = Resolved(loaded.family, manifest, data, (str(manifest.data["id"]),))
        for key in data:
            if loaded.family.settings.get(key) == "ruleset":
                resolved.setting_origins[key] = Origin(manifest, (key,))
    else:
        data = {key: value for key, value in base.data.items() if key not in OWN_HEADER}
        again.extend(_status_unsaid(manifest, loaded.family, base))
        resolved = Resolved(
            loaded.family,
            manifest,
            data,
            (*base.chain, str(manifest.data["id"])),
            {name: list(entries) for name, entries in base.collections.items()},
            {slot: dict(values) for slot, values in base.settings.items()},
            list(base.documents),
            {name: dict(ids) for name, ids in base.removed.items()},
            setting_origins=dict(base.setting_origins),
            removed_settings=dict(base.removed_settings),
            layers=dict(base.layers),
            names=dict(base.names),
            file_entries=dict(base.file_entries),
            derived=dict(base.derived),
        )
        resolved.base_notes = list(base.base_notes)
        for key, value in manifest.data.items():
            if key in ("overlay", "suppress"):
                continue
            here = Origin(manifest, (key,))
            previous = resolved.setting_origins.get(key)
            if key in _MANIFEST_HEADER or loaded.family.settings.get(key) != "ruleset":
                data[key] = value
            elif (
                isinstance(value, dict)
                and not is_list_operations(value)
                and isinstance(data.get(key), dict)
                and previous is not None
            ):
                # A setting the variant restates merges into its base's, key by key: what it does
                # not name (a limit's `per_round`) is kept, not silently dropped.
                again.extend(_unchanged_setting(key, data[key], value, previous, here))
                data[key] = merge_patch(data[key], value)
                origin = resolved.setting_origins[key] = _changed(previous, value, here, data[key])
                # The manifest's schema judged only what it wrote: the merge (a base's `by_count`
                # beside its `per_player`) is judged as the overlay's settings patches are.
                # The compiled validator first, on the manifest with the merged value: the slow one
                # (jsonschema, 0.1 s to import) only where there is an error to word.
                kind = loaded.family.slot_kind("ruleset")
                if is_valid_fast(kind, {**manifest.data, key: data[key]}) is not True:
                    again.extend(validate_setting(kind, key, data[key], origin.place, previous.span()))
            else:
                data[key] = value
                resolved.setting_origins[key] = replace(here, base=previous, replaced=_gone(previous))
    layer = len(resolved.chain) - 1
    for document in (manifest, *own_documents):
        resolved.layers.setdefault(document.file, layer)
    for display, at in loaded.entries.items():
        resolved.file_entries.setdefault(display, manifest.span(at))
    resolved.documents.extend([manifest, *own_documents])
    own_index = own_by_slot.get("rule_index")
    if own_index:
        resolved.rule_index = own_index[0]
    elif base is not None:
        resolved.rule_index = base.rule_index
    for name, spec in loaded.family.collections.items():
        documents = [manifest] if spec.slot == "ruleset" else own_by_slot.get(spec.slot, [])
        if spec.slot == "ruleset" and base is not None and _lookup(manifest.data, spec.path) is None:
            continue  # the variant's manifest does not redefine this collection: keep the base's
        if spec.slot == "ruleset" and base is not None:
            resolved.collections[name] = []  # a variant that writes the whole collection replaces it
        entries = resolved.collections.setdefault(name, [])
        for document in documents:
            items = _lookup(document.data, spec.path)
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, dict):
                    origin = Origin(document, (*spec.path, i))
                    if not _continue(entries, spec, origin, item):
                        entries.append(Entry(origin, item))
    for slot, documents in own_by_slot.items():
        if slot == "rule_index":
            continue
        for document in documents:
            for key, value in document.data.items():
                if not loaded.family.describes_file(key) and not _is_collection_key(loaded.family, slot, key):
                    resolved.settings.setdefault(slot, {})[key] = value
                    previous = resolved.setting_origins.get(key)
                    resolved.setting_origins[key] = Origin(document, (key,), replaced=_gone(previous))
    return resolved, again


def _status_unsaid(manifest: Document, family: Family, base: Resolved) -> list[Diagnostic]:
    """V011 for a variant that says no `status:` where its base says one: a variant's status is its
    own, so it would have none, silently (an engine's check that the ruleset is complete would pass
    a variant of a draft that still lacks what its base lacks)."""
    said = base.data.get("status")
    if not isinstance(said, str) or "status" in manifest.data:
        return []
    from civrules.schema import load_schema

    described = load_schema(family.slot_kind("ruleset")).get("properties", {}).get("status", {})
    allowed = [value for value in described.get("enum", ()) if isinstance(value, str)]
    others = f" (the values it may take: {words.listed(allowed)})" if allowed else ""
    base_id = base.chain[-1]
    return [
        _diag(
            codes.STATUS_UNSAID,
            f"the base ruleset `{base_id}` says `status: {said}`; this variant says no `status:`, and a "
            "variant's status is its own, never its base's",
            manifest.span(("extends",)),
            f"write this variant's own `status:` beside `extends:`{others}: `status: {said}` if what it "
            "says of the base holds for this variant too",
            subjects=(base_id, "status"),
        )
    ]


def _gone(previous: Origin | None) -> tuple[Origin, ...]:
    """What a setting written whole in place of ``previous`` stands in place of: ``previous``, as
    it stood (with what patched it), and what it had itself replaced. None of their facts holds."""
    return () if previous is None else (*previous.replaced, previous)


def _changed(
    previous: Origin,
    patch: Mapping[str, Any],
    at: Origin,
    merged: Mapping[str, Any],
    moved: Mapping[NodePath, NodePath] | None = None,
    was: Mapping[NodePath, Any] | None = None,
) -> Origin:
    """``previous`` with each key the patch names recorded as last changed at ``at``, and what
    still writes it once ``merged`` (:func:`writers_after`)."""
    changes = previous.changes
    for key in patch:
        changes = recorded(changes, (key, at))
    writers = _writers(previous, patch, at, merged, moved or {}, was or {})
    changed_by = _changed_by(previous, patch, at)
    return replace(previous, changes=changes, writers=writers, changed_by=changed_by)


def _earlier_moved(
    origin: Origin,
    before: Mapping[str, int],
    merged: Mapping[str, Any],
    patch: Mapping[str, Any],
    edits: Mapping[NodePath, Edits],
) -> tuple[tuple[str, Slots], ...]:
    """``origin``'s record of the elements earlier overlay entries' list operations wrote
    (:attr:`Origin.earlier_moved`), once the entry ``patch`` has changed the entity into ``merged``
    (``before``: the length of each of its lists before, by field, taken before the merge, which
    may have grown a list in place, :data:`_OWNED`; ``edits``: what its list operations did to
    each list's places, :func:`merge_patch`'s): for
    each field it changes by list operations, the last changer's records join those of the entries
    before, each on the place of the element it wrote (:func:`_carried`), which follows the
    element from list to list. An element this entry wrote whole (replaced, inserted, appended) is
    in a new place, the entry's: a record of what was there before (the very object again, an id
    the reader gives one object) no longer finds it; an element it patched keeps its place, and
    its records, but for the fields the patch wrote, which its own records locate.
    The records of the fields it leaves are not looked at (n entries changing another field of
    an entity whose one list n entries appended to: no pass over those n per change), nor, in a
    field it changes, the records of the elements it leaves (n entries each replacing one of n
    elements an entry each appended: no pass over the n records per entry)."""
    fields = origin.earlier_moved
    for name in patch:
        old, new, value = before.get(name), merged.get(name), patch[name]
        if old is None or not isinstance(new, list) or not is_list_operations(value):
            # no list before, or none now, or one written whole: no element written before is left
            fields = without_record(fields, name)
            continue
        last = record_of(origin.changes, name)
        mine = (
            [((key[1], *key[2:]), last[1], path) for key, path in _moves_of(origin.moved, name) if key[1:]]
            if last is not None
            else []
        )
        found = record_of(fields, name)
        carried = _carried(None if found is None else found[1], mine, old, len(new), edits.get((name,), ()))
        fields = without_record(fields, name) if carried is None else with_record(fields, (name, carried))
    return fields


def _carried(
    slots: Slots | None,
    mine: list[tuple[NodePath, Origin, NodePath]],
    before: int,
    merged: int,
    edits: Sequence[tuple[int, int, int]],
) -> Slots | None:
    """One list's records of where earlier overlay entries wrote its elements (``slots``, as they
    stood for the list of ``before`` elements), with those of its last changer added (``mine``:
    each with its place in that list, its owner and where it wrote it), once list operations
    (``edits``) made a list of ``merged`` elements of it; None where there are none.

    A record names the place of its element by a token (:data:`civrules.model.Slots`), not by its
    index: a token goes with its place through the operations of every later entry (a removal
    before it, an insertion) and is lost with it (the element removed, or written whole by a later
    entry), so that an entry changing the list touches the places it changes, not every record
    (each record placed again by its element's index, one removal moving every record after it,
    was a pass over them all per entry). Where its index is asked (:func:`civrules.model.Origin.locate`
    and the rest), the tokens of the list are counted once. A place is given a token when a record
    first names it; the next token is the slots' count of them (the same tokens for the same
    entries, whatever was read before: an edit of a session compares them). Entries that only
    append move no place: their records wait by index (``pending``), and the tokens are not copied
    (n entries each appending to one list, each copying the tokens of the list, were the square of
    n in copies), until an entry that may move a place gives them tokens."""
    tokens, made, chain, pending = slots if slots is not None and len(slots[0]) <= before else ((), 0, None, None)
    for key, owner, path in mine:
        if isinstance(key[0], int) and 0 <= key[0] < before:
            pending = linked((key, owner, path), pending)
    if chain is None and pending is None:
        return None
    if edits and all(kind == _NEW and at == before for kind, at, _ in edits):
        return tokens, made, chain, pending  # appended: no place moved, the records wait by index
    places: list[int | None] = [*tokens, *[None] * (before - len(tokens))]
    for key, owner, path in unchained(pending):
        at = int(key[0])  # an index: only such records wait
        token = places[at]
        if token is None:
            token = places[at] = made
            made += 1
        chain = linked(((token, *key[1:]), owner, path), chain)
    for kind, at, count in edits:
        if kind == _NEW:
            places[at:at] = [None] * count
        elif kind == _GONE:
            del places[at]
        else:
            places[at] = None  # written whole: a new element there, no longer the one a record names
    if len(places) != merged or chain is None:
        return None  # not the list the operations made (none are recorded): no place to name
    return tuple(places), made, chain, None


def _earlier_listed(
    previous: Origin,
    before: list[Any],
    merged: list[Any],
    edits: Mapping[NodePath, Edits],
) -> tuple[tuple[str, Slots], ...]:
    """:func:`_earlier_moved` for a list setting that list operations change again: the elements
    earlier variants' list operations wrote (``previous``: the setting as they left it), each on
    the place of its element in ``merged`` (:func:`_carried`), located in the variant that wrote
    it (recorded under ``""``)."""
    slots = next((found for name, found in previous.earlier_moved if name == ""), None)
    own = Origin(previous.document, previous.path) if previous.changes else None
    mine = [(key, own, path) for key, path in previous.moved if key] if own is not None else []
    carried = _carried(slots, mine, len(before), len(merged), edits.get((), ()))
    return () if carried is None else (("", carried),)


def _changed_by(origin: Origin, names: Iterable[str], at: Origin) -> Sequence[tuple[str, Changers]]:
    """``origin``'s record of every overlay entry that changed each field, with ``at`` after the
    others for each of ``names`` (:attr:`Origin.changed_by`)."""
    found = origin.changed_by
    for name in names:
        found = recorded(found, (name, (at, _changers_of(origin, name))))
    return found


def _changers_of(origin: Origin, name: str) -> Changers | None:
    """The chain of the overlay entries that changed the field ``name`` (its last changer where
    none is recorded; None where none changed it)."""
    found = record_of(origin.changed_by, name)
    if found is not None:
        return found[1]
    last = record_of(origin.changes, name)
    return None if last is None else (last[1], None)


def changers(origin: Origin, name: str) -> tuple[Origin, ...]:
    """Every overlay entry that changed the field ``name`` of what was read from ``origin``,
    earliest first (its last changer where none is recorded; none where none changed it)."""
    return tuple(unchained(_changers_of(origin, name)))


def _writers(
    origin: Origin,
    patch: Mapping[str, Any],
    at: Origin,
    merged: Mapping[str, Any],
    moved: Mapping[NodePath, NodePath],
    was: Mapping[NodePath, Any],
    keys: tuple[str, ...] = (),
    *,
    owned: bool = False,
) -> Sequence[tuple[str, WriterLog, Any]]:
    """``origin``'s record of what writes each field, with the fields ``patch`` names (but
    ``keys``, those naming an entity) as the overlay entry ``at`` left them in ``merged`` (``moved``: where its list
    operations wrote each element, and ``was``: each element a `patch:` merged into as it was,
    :func:`merge_patch`'s; ``owned``: :func:`writers_after`'s)."""
    # the records of the fields the patch leaves are not looked at one by one (n entries each
    # writing a field of its own: a pass in Python over the fields written before, per entry)
    writers = origin.writers
    for name in patch:
        if name not in keys:
            logged = record_of(writers, name)
            prior = logged[1] if logged else _unlogged(origin, name, _node_at(origin.document, (*origin.path, name)))
            wrote = _wrote(moved, (name,))
            was_here = _was(was, (name,))
            log = writers_after(prior, name, at, merged.get(name), name in merged, wrote, was_here, owned=owned)
            writers = recorded(writers, (name, log, merged.get(name)))
    return writers


def _continue(entries: list[Entry], spec: CollectionSpec, origin: Origin, item: dict[str, Any]) -> bool:
    """Merge an entity that continues one read before it from another file of the ruleset, as the
    collection's family declares (:attr:`CollectionSpec.continuation`).

    The continuation's lists of the declared fields are added to the entity it continues, which
    then records the continuation as where those fields were last changed. False when the
    collection declares no continuation, or ``item`` writes no marker or continues no entity read
    before (the family's checks report those).
    """
    continuation = spec.continuation
    if continuation is None or continuation.marker not in item:
        return False
    key = entity_key(spec, item)
    index = _find(spec, entries, key) if key is not None else None
    if index is None:
        return False
    base = entries[index]
    raw = dict(base.raw)
    changes = base.origin.changes
    for name in continuation.extends:
        raw[name] = [*base.raw.get(name, []), *item.get(name, [])]
        changes = recorded(changes, (name, origin))
    changed_by = _changed_by(base.origin, continuation.extends, origin)
    merged = Entry(replace(base.origin, changes=changes, changed_by=changed_by), raw)
    _put(spec, entries, index, merged)
    return True


def _is_collection_key(family: Family, slot: str, key: str) -> bool:
    return any(spec.slot == slot and spec.path[0] == key for spec in family.collections.values())


def _lookup(data: Any, path: tuple[str, ...]) -> Any:
    node = data
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def _apply_overlay(resolved: Resolved, manifest: Document) -> Iterator[Diagnostic]:
    overlay = manifest.data.get("overlay")
    if not isinstance(overlay, dict):
        return
    for name, operations in overlay.items():
        if name == "settings" and isinstance(operations, dict):
            yield from _apply_settings(resolved, manifest, operations)
            continue
        spec = resolved.family.collections.get(name)
        if spec is None or not isinstance(operations, dict):
            continue  # the schema reports unknown collections
        yield from _one_per_cause(name, spec, _apply_operations(resolved, manifest, name, spec, operations))


def _apply_operations(
    resolved: Resolved, manifest: Document, name: str, spec: CollectionSpec, operations: Mapping[str, Any]
) -> Iterator[tuple[str, Diagnostic]]:
    """The operations of ``manifest``'s overlay on one collection, in order: each diagnostic with
    the operation whose entry it is about."""
    entries = resolved.collections.setdefault(name, [])
    for operation in OPERATIONS:
        items = operations.get(operation)
        if not isinstance(items, list):
            continue
        patched: dict[str, Span] = {}
        with _OWNED.block():
            for index, item in enumerate(items):
                if isinstance(item, dict):
                    at = Origin(manifest, ("overlay", name, operation, index))
                    if operation == "patch":
                        found = _patch(resolved, name, spec, entries, item, at, patched)
                    else:
                        found = _OPERATIONS[operation](resolved, name, spec, entries, item, at)
                    yield from ((operation, diagnostic) for diagnostic in found)
        yield from ((operation, diagnostic) for diagnostic in _validate_patched(resolved, spec, entries, patched))


def _one_per_cause(name: str, spec: CollectionSpec, diagnostics: Iterable[tuple[str, Diagnostic]]) -> list[Diagnostic]:
    """``diagnostics`` with the entries that cannot change one entity for one reason said once.

    Two patches of a card the variant removes were two V005 errors, each with the same note at
    the removal: one mistake (the removal, or the changes of what it removes), written on two
    lines. An entity removed (by the variant or its base) or added by the variant is one cause for
    every entry of the collection that changes it: one diagnostic at the first of them, noting
    each other entry, with a hint for all of them. An id that names nothing (a misspelling) is each
    entry's own mistake, and stays one diagnostic for each; so does a second removal of an entity
    (that entry is to delete).
    """
    pairs = list(diagnostics)
    told = [diagnostic for _, diagnostic in pairs]
    causes: dict[tuple[tuple[str, ...], Related], list[int]] = {}
    for at, (operation, diagnostic) in enumerate(pairs):
        changes = operation in ("patch", "replace")
        if (
            changes
            and diagnostic.code == codes.OVERLAY_MISSING.code
            and len(diagnostic.related) == 1
            and diagnostic.span
        ):
            causes.setdefault((diagnostic.subjects, diagnostic.related[0]), []).append(at)
    dropped: set[int] = set()
    for (subjects, cause), members in causes.items():
        if len(members) < 2:
            continue
        first, others = told[members[0]], [told[at] for at in members[1:]]
        key = spec.shown(subjects[0] if subjects else "")
        entries = words.count(len(members), "entry", "entries")
        if cause.label == _REMOVED_HERE.format(key=key):
            hint = f"this variant removes {key} (its `remove` entry, applied first): drop the {entries}, or the removal"
        elif cause.label == _REMOVED_IN_BASE.format(key=key):
            hint = (
                f"the base ruleset removes {key}: to have it in this variant, `add` it whole, "
                f"with what the {entries} change"
            )
        else:  # _ADDED_HERE
            hint = (
                f"this variant's `add` gives {key}: write what the {entries} change in that entry "
                "(they apply to the base, before `add`)"
            )
        notes = tuple(
            Related(other.span, f"another entry of `overlay.{name}` changing {key}") for other in others if other.span
        )
        more = words.count(len(others), "more entry", "more entries")
        told[members[0]] = replace(
            first,
            message=f"{first.message}; {more} {'changes' if len(others) == 1 else 'change'} it too",
            hint=hint,
            related=(*first.related, *notes),
        )
        dropped.update(members[1:])
    return [diagnostic for at, diagnostic in enumerate(told) if at not in dropped]


#: The operations of `overlay.settings` besides patching a setting by naming it.
SETTING_OPERATIONS = ("remove", "replace", "add")


def _apply_settings(resolved: Resolved, manifest: Document, operations: Mapping[str, Any]) -> Iterator[Diagnostic]:
    """`overlay.settings`: remove, replace, patch (a setting named directly), add, in this order."""
    removals = operations.get("remove")
    for i, key in enumerate(removals if isinstance(removals, list) else ()):
        slot = resolved.family.settings.get(key) if isinstance(key, str) else None
        if slot is None:
            continue  # the schema reports an unknown setting
        values = resolved.data if slot == "ruleset" else resolved.settings.setdefault(slot, {})
        if key not in values:
            yield _missing_setting(manifest, key, ("overlay", "settings", "remove", i), "remove")
            continue
        values.pop(key)
        _remove_setting(resolved, key, Origin(manifest, ("overlay", "settings", "remove", i)))
    replacements = operations.get("replace")
    for key, value in replacements.items() if isinstance(replacements, dict) else ():
        if resolved.family.settings.get(key) is not None and not _has_setting(resolved, key):
            yield _missing_setting(manifest, key, ("overlay", "settings", "replace", key), "replace")
            continue
        yield from _patch_setting(resolved, manifest, key, value, ("overlay", "settings", "replace", key), whole=True)
    for key, patch in operations.items():
        if key not in SETTING_OPERATIONS:
            yield from _patch_setting(resolved, manifest, key, patch)
    additions = operations.get("add")
    for key, value in additions.items() if isinstance(additions, dict) else ():
        existing = resolved.setting_origins.get(key)
        if existing is not None and _has_setting(resolved, key):
            yield _diag(
                codes.OVERLAY_EXISTS,
                f"cannot add the setting {words.shown(key)}: the base has it",
                manifest.key_span(("overlay", "settings", "add", key)),
                f"patch it (`overlay.settings.{key}`) or `replace` it",
                (Related(existing.span(), "defined here"),),
                subjects=(key,),
            )
            continue
        yield from _patch_setting(resolved, manifest, key, value, ("overlay", "settings", "add", key), whole=True)


def _remove_setting(resolved: Resolved, key: str, at: Origin) -> None:
    """Forget the setting ``key``'s origin, keeping the removal (``at``) and what it removed: the
    removed setting's unknowns and citations no longer count (:func:`civrules.checks.citations.superseded`)."""
    gone = resolved.setting_origins.pop(key, None)
    if gone is not None:
        resolved.removed_settings[key] = replace(at, base=gone)


#: Where a variant's manifest writes its settings' changes: a list setting changed by list
#: operations is recorded as changed there, under its own key (:func:`change_place`).
SETTINGS_PATH: NodePath = ("overlay", "settings")


def change_place(change: Origin, name: str) -> NodePath:
    """The path of what the overlay entry ``change`` wrote for the field ``name``: the entry (an
    entity's `patch` entry, a setting's patch), or, for a top-level list setting changed by list
    operations (written directly under `overlay.settings`), its key there."""
    return (*change.path, name) if change.path == SETTINGS_PATH else change.path


def _has_setting(resolved: Resolved, key: str) -> bool:
    slot = resolved.family.settings.get(key)
    values = resolved.data if slot == "ruleset" else resolved.settings.get(slot or "", {})
    return key in values


def _missing_setting(manifest: Document, key: str, at: NodePath, verb: str) -> Diagnostic:
    return _diag(
        codes.OVERLAY_MISSING,
        f"cannot {verb} the setting {words.shown(key)}: the base has none",
        manifest.key_span(at) if verb == "replace" else manifest.span(at),
        f"nothing to remove: delete {words.shown(key)} from `remove`"
        if verb == "remove"
        else f"use `add` to give the variant a `{key}`",
        subjects=(key,),
    )


def _patch_setting(
    resolved: Resolved,
    manifest: Document,
    key: str,
    patch: Any,
    where: NodePath | None = None,
    *,
    whole: bool = False,
) -> Iterator[Diagnostic]:
    """Merge ``overlay.settings.<key>`` into the setting of the base, wherever the base defines it
    (or, ``whole``, put the value in its place)."""
    slot = resolved.family.settings.get(key)
    if slot is None:
        return  # the schema reports an unknown setting
    values = resolved.data if slot == "ruleset" else resolved.settings.setdefault(slot, {})
    at = Origin(manifest, where or ("overlay", "settings", key))
    previous = resolved.setting_origins.get(key)
    if patch is None:
        values.pop(key, None)
        _remove_setting(resolved, key, at)
        return
    if not whole:
        yield from _unchanged_setting(key, values.get(key), patch, previous, at)
    removal = resolved.removed_settings.pop(key, None) if previous is None else None
    inside = [
        (name, spec)
        for name, spec in resolved.family.collections.items()
        if spec.slot == slot and spec.path[:1] == (key,)
    ]
    for name, spec in inside:
        if isinstance(patch, dict) and len(spec.path) > 1 and spec.path[1] in patch:
            yield _diag(
                codes.SCHEMA_VIOLATION,
                f"`{'.'.join(spec.path)}` is a collection: a settings patch cannot change it",
                at.key_span(spec.path[1]),
                f"change its entries in `overlay.{name}` (add, patch, replace, remove, each named by {spec.named_by})",
                subjects=(".".join(spec.path),),
            )
            return
    problems: list[PatchProblem] = []
    moved: dict[NodePath, NodePath] = {}
    was: dict[NodePath, Any] = {}
    edits: dict[NodePath, Edits] = {}
    merged = (
        copy.deepcopy(patch)
        if whole
        else merge_patch(values.get(key), patch, problems, root=key, moved=moved, was=was, edits=edits)
    )
    for problem in problems:
        told = _diag(
            codes.LIST_SELECTOR,
            problem.message,
            at.span(*problem.path),
            problem.hint,
            subjects=(key, *problem.subjects),
        )
        yield replace(told, suggestion=problem.suggestion) if problem.suggestion else told
    # An `{unknown: why}` is written whole, as merge_patch puts it (no field of it is merged): the
    # setting is replaced, not changed field by field (its `unknown` is no field to cite).
    mergeable = (
        isinstance(patch, dict)
        and not only_unknown(patch)
        and not is_list_operations(patch)
        and isinstance(values.get(key), dict)
    )
    if mergeable and not whole:
        kind = resolved.family.slot_kind(slot)
        elements = functools.partial(setting_items_cite, kind, key)
        merged = _cite_elements(values[key], patch, merged, moved, elements)
        merged = cite_patched(values[key], patch, merged, cited_apart=lambda name, value: elements(name))
    if mergeable and previous is not None and not whole:
        origin = _changed(previous, patch, at, merged, moved, was)
        origin = replace(origin, moved=_moves_kept(origin.moved, patch, moved))
    elif is_list_operations(patch) and isinstance(values.get(key), list) and previous is not None and not whole:
        # A list setting changed element by element: the base's elements the operations leave are
        # still the base's; what they write is recorded as the setting's change, under its own key
        # (as an entity's list field is), so that Q009, `setting_sources` and `diff` cite it.
        written = Origin(manifest, SETTINGS_PATH)
        definition = setting_definition(previous)
        logged = _log_of(previous, key)
        prior = logged[0] if logged else _unlogged(previous, key, _node_at(definition.document, definition.path))
        writers = writers_after(prior, key, written, merged, True, _wrote(moved, ()), _was(was, ()))
        earlier = _changers_of(previous, key)  # an earlier variant's list operations on it (a definition: none)
        origin = replace(
            at,
            base=previous,
            moved=tuple(moved.items()),
            changes=((key, written),),
            writers=((key, writers, merged),),
            changed_by=((key, (written, earlier)),),
            earlier_moved=_earlier_listed(previous, values[key], merged, edits),
            # what the setting stood in place of before still holds no fact (an earlier variant's
            # whole write of it over a map's `{unknown}`: the unknown came back)
            replaced=previous.replaced,
        )
    else:
        gone = removal.base if removal is not None else previous
        origin = replace(at, base=previous, moved=tuple(moved.items()), replaced=_gone(gone))
    values[key] = merged
    resolved.setting_origins[key] = origin
    if previous is not None:
        resolved.base_notes.append((at.span(), previous.span()))
    base_span = previous.span() if previous is not None else None
    yield from validate_setting(resolved.family.slot_kind(slot), key, merged, origin.place, base_span)


def _cite_elements(
    base: Mapping[str, Any],
    patch: Mapping[str, Any],
    merged: Any,
    moved: Mapping[NodePath, NodePath],
    cite: Callable[[str], bool],
) -> Any:
    """``merged`` (``patch`` merged into the setting ``base``) with the patch's citation on what it
    wrote, not on what it left: each element of a list whose elements take a citation (``cite``:
    a limit's bands per player count) cites the patch where the patch wrote or changed it, the base where it
    did not; and the setting keeps the base's citation when the patch changed nothing of it but
    such elements. A house rule's `source:` on a change of one band no longer took the rulebook's
    section from the other band and from the limit's text."""
    own = {k: patch[k] for k in CITATION_FIELDS if patch.get(k) is not None}
    was = {k: base[k] for k in CITATION_FIELDS if k in base}
    if not own or not was or not isinstance(merged, dict):
        return merged
    lists = [
        name
        for name, value in patch.items()
        if name not in CITATION_FIELDS and value is not None and isinstance(merged.get(name), list) and cite(name)
    ]
    if not lists:
        return merged
    touched = {(path[0], path[1]) for path in moved if len(path) >= 2 and isinstance(path[1], int)}
    for name in lists:
        written_whole = not is_list_operations(patch[name])
        merged[name] = [
            element
            if not isinstance(element, dict) or any(k in element for k in CITATION_FIELDS)
            else {**element, **(own if written_whole or (name, i) in touched else was)}
            for i, element in enumerate(merged[name])
        ]
    others = [
        name
        for name, value in patch.items()
        if name not in (*CITATION_FIELDS, "note") and value is not None and name not in lists
    ]
    if others:
        return merged  # the patch states facts of the setting itself: its citation cites the setting
    return {**{k: v for k, v in merged.items() if k not in CITATION_FIELDS}, **was}


#: Keys of a mapping that say where its facts come from or comment on them, not facts.
_NOT_FACTS = frozenset({*("rule", "source"), "note", "disagreements"})


def cite_patched(
    base: Any,
    patch: Any,
    merged: Any,
    inherited: Mapping[str, Any] | None = None,
    *,
    whole_entity: bool = False,
    cited_apart: Callable[[str, Any], bool] = lambda name, value: False,
    identity: object = (),
    grow: bool = False,
) -> Any:
    """``merged`` (``patch`` merged into ``base`` by :func:`merge_patch`) with each mapping's
    citation (`rule:`, `source:`) citing what wrote its facts, not merged as data.

    Merged key by key, a patch's `rule:` took the place of the definition's `rule:` (and its
    `source:` of the definition's `source:`): a card patched `{cost: 50, rule: "1.1"}` had its
    groups and credits cited by 1.1 alone, and a nested fact with its own citation kept the
    base's for values the patch wrote. Now:

    - an entity (``whole_entity``) is cited by its definition, then by the patch: both, the
      definition's first, never the definition's dropped (its fields the patch left are still
      the definition's; `export`'s `field_sources` says which cites which field);
    - a mapping inside it (or a setting) that cites on its own is cited by the patch (its own
      citation, else the one it is written under, ``inherited``) where the patch wrote all its
      facts, else by both, the definition's first. A patch that cites nothing leaves the base's
      citation (Q009 asks it for one).

    ``cited_apart(name, value)``: a field whose elements carry their own citation (a setting's
    bands), which the mapping's citation does not cite. ``grow``: the mapping is an element of a
    list (or a mapping inside one) a block's merge made, whose list of sections may be grown in
    place (:class:`_Owned`), as an entity's own citation is. ``identity``: the fields that name the
    mapping (a list operation's `where: {step: 1}`), no fact the patch left, nor is an `id:`.

    >>> cite_patched({"a": 1, "rule": "1"}, {"a": 2, "rule": "2"}, {"a": 2, "rule": "2"}, whole_entity=True)
    {'a': 2, 'rule': ['1', '2']}
    >>> house = {"source": "house rule: x"}
    >>> cite_patched({"a": 1, "rule": "1"}, {"a": 2, **house}, {"a": 2, "rule": "1", **house})
    {'a': 2, 'source': 'house rule: x'}
    """
    if not (isinstance(base, dict) and isinstance(patch, dict) and isinstance(merged, dict)):
        return merged
    if is_list_operations(patch) or "unknown" in patch or "unknown" in base:
        return merged
    own = {k: patch[k] for k in CITATION_FIELDS if patch.get(k) is not None}
    cite = own or dict(inherited or {})
    for name, value in patch.items():
        if name not in _NOT_FACTS and isinstance(value, dict) and isinstance(merged.get(name), dict):
            merged[name] = cite_patched(base.get(name), value, merged[name], cite, grow=grow or whole_entity)
    was = {k: base[k] for k in CITATION_FIELDS if base.get(k) is not None and not (k in patch and patch[k] is None)}
    if not was or not cite:
        return merged  # the definition cites nothing here (its parts cite), or the patch cites nothing
    if not all(_citation_value(v) for v in (*was.values(), *cite.values())):
        return merged  # a citation the schema refuses (reported there): merged as written
    facts = [name for name in patch if name not in _NOT_FACTS]
    wrote = [name for name in facts if not cited_apart(name, patch[name])]
    if (not facts and not own) or (facts and not wrote and not whole_entity):
        return merged  # a note alone; or only lists whose elements cite themselves (`_cite_elements`)
    naming = {"id", *(identity if isinstance(identity, dict) else ())}
    left = any(name not in _NOT_FACTS and name not in patch and name not in naming for name in base)
    joined = whole_entity or left or not wrote
    cited = _both_citations(was, cite, grow=grow or whole_entity) if joined else dict(cite)
    return {**{k: v for k, v in merged.items() if k not in CITATION_FIELDS}, **cited}


def _both_citations(first: Mapping[str, Any], *then: Mapping[str, Any], grow: bool = False) -> dict[str, Any]:
    """The citations ``first`` and each of ``then`` together, in their order, as if joined two at
    a time: the rule sections of all (one list; one section stays text where ``first``'s was), and
    the secondary sources (one `source:`, joined by `; ` as the data writes several; a source equal
    to all before it is not said twice). In one pass: folding an entity's writers two at a time
    hashed and copied the sources and sections joined so far at each (one entry appending n
    elements, then n entries each citing a house rule: 1.6 of 4.7 s at 20,000, round 25).

    A list of sections this made is remembered with its sections (:data:`_SECTIONS`): joined again
    with one more patch's citation (the entity patched entry after entry), only what that patch adds
    is hashed, not the n sections before it (n entries each citing a `rule:` of their own: 22.5 s
    at 20,000, round 25). ``grow``: the citation is an entity's own, and where ``first``'s list is
    one a block's earlier merge made (:data:`_OWNED`), the sections are added to it in place rather
    than copied with it into a new list (each entry copied every section before it: round 26).

    >>> _both_citations({"rule": "1", "source": "a"}, {"rule": "1", "source": "a"}, {"source": "b"})
    {'rule': '1', 'source': 'a; b'}
    """
    first_rule = first.get("rule")
    known = _sections(first_rule)
    grown = grow and known is not None and _OWNED.grows(first_rule, ("rule",), sections=True)
    if known is not None:
        rules, texts = known.rules, known.texts  # extended in place: the list keeps its own length
    else:
        rules = dict.fromkeys(_listed(first_rule))
        texts = all(isinstance(rule, str) for rule in rules)
    listed = isinstance(first_rule, list)
    sources = [first["source"]] if isinstance(first.get("source"), str) else []
    joined = len(sources[0]) if sources else 0  # the length of the sources joined so far
    fresh: list[Any] = []  # the sections ``first``'s list lacks, in order, where it is grown
    for cited in then:
        added = _listed(cited.get("rule"))
        if grown:
            fresh.extend(rule for rule in dict.fromkeys(added) if rule not in rules)
        rules.update(dict.fromkeys(added))
        texts = texts and all(isinstance(rule, str) for rule in added)
        listed = bool(rules) and (listed or len(rules) != 1)
        source = cited.get("source")
        if isinstance(source, str) and not (sources and len(source) == joined and source == "; ".join(sources)):
            joined += len(source) + (2 if sources else 0)
            sources.append(source)
    out: dict[str, Any] = {}
    if rules:
        if grown:
            assert isinstance(first_rule, list) and known is not None  # for mypy: `grown` says so
            first_rule.extend(fresh)
            out["rule"] = made = first_rule
            known.texts = texts
            _SECTIONS.move_to_end(id(made))  # the newest again: let go after the other lists
        elif listed:
            out["rule"] = made = list(rules)
            if len(_SECTIONS) >= _SECTIONS_HELD:
                _SECTIONS.popitem(last=False)  # the oldest (a dict's first key is found past every one deleted)
            _SECTIONS[id(made)] = (made, _Sections(rules, texts))
            if grow:
                _OWNED.own(made, ("rule",), sections=True)
        else:
            out["rule"] = next(iter(rules))
    if sources:
        out["source"] = "; ".join(sources)
    return out


class _Sections:
    """The rule sections of a list :func:`_both_citations` made, as the keys of a dict in the
    list's order, and whether all are text. One dict serves a chain of lists, each one section or
    more longer than the one it was made from: it holds a list's sections while its length is the
    list's (sections are only ever added to it, at its end)."""

    __slots__ = ("rules", "texts")

    def __init__(self, rules: dict[Any, None], texts: bool) -> None:
        self.rules = rules
        self.texts = texts


#: The last lists of rule sections :func:`_both_citations` made, by identity, each with its
#: :class:`_Sections` (held beside it, so a reused id never matches): a list no longer here is read
#: again, at its length's cost. A list cannot be referred to weakly, and :class:`memo.Attached`'s
#: bound of strong keys scanned every key it held at each one kept (0.9 of 3.4 s at 20,000). Held
#: for one run (:func:`memo.end_run`): a long-lived session let go of them with their ruleset.
_SECTIONS: collections.OrderedDict[int, tuple[list[Any], _Sections]] = collections.OrderedDict()
_SECTIONS_HELD = 64
memo.register_run(_SECTIONS)


def _sections(rule: Any) -> _Sections | None:
    """The sections of the list ``rule`` if :func:`_both_citations` made it and they are still its."""
    if not isinstance(rule, list):
        return None
    held = _SECTIONS.get(id(rule))
    if held is None or held[0] is not rule:
        return None
    known = held[1]
    return known if len(known.rules) == len(rule) else None


def _citation_value(value: Any) -> bool:
    """Whether ``value`` is a `rule:` or `source:` as the schemas allow it: text, or a list of text
    (known without reading it again for a list :func:`_both_citations` made)."""
    if isinstance(value, str):
        return True
    known = _sections(value)
    if known is not None:
        return known.texts
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _listed(rule: Any) -> list[Any]:
    if rule is None:
        return []
    return list(rule) if isinstance(rule, list) else [rule]


def overlay_base_notes(manifest: Document, base: Resolved) -> list[tuple[Span, Span]]:
    """Each overlay entry of ``manifest`` that names something of ``base``, with the base's definition.

    For a variant whose manifest the schema refused (so it is not resolved): its diagnostics still
    get a note at the base definition of what the faulty entry changes.
    """
    overlay = manifest.data.get("overlay") if isinstance(manifest.data, dict) else None
    notes: list[tuple[Span, Span]] = []
    if not isinstance(overlay, dict):
        return notes
    for name, operations in overlay.items():
        if name == "settings" and isinstance(operations, dict):
            named: list[tuple[NodePath, str]] = [((k,), k) for k in operations if k not in SETTING_OPERATIONS]
            for operation in ("replace", "add"):
                block = operations.get(operation)
                named += [((operation, k), k) for k in (block if isinstance(block, dict) else ())]
            removals = operations.get("remove")
            named += [(("remove", i), k) for i, k in enumerate(removals if isinstance(removals, list) else ())]
            for sub, key in named:
                origin = base.setting_origins.get(str(key))
                if origin is not None:
                    notes.append((manifest.span(("overlay", "settings", *sub)), origin.span()))
            continue
        spec = base.family.collections.get(name)
        if spec is None or not isinstance(operations, dict):
            continue
        entries = base.collections.get(name, [])
        for operation in ("patch", "replace", "remove"):
            items = operations.get(operation)
            for i, item in enumerate(items if isinstance(items, list) else ()):
                target = entity_key(spec, item) if isinstance(item, dict) else None
                found = _find(spec, entries, target) if target is not None else None
                if found is not None:
                    notes.append((manifest.span(("overlay", name, operation, i)), entries[found].origin.head()))
    return notes


class _KeyIndex:
    """A collection's entries by key, and each entry's place, kept with the list while it changes
    only through :func:`_put`, :func:`_pop` and appends (every change the resolver makes).

    A place is an entry's slot (its index when it was indexed or appended) less the slots removed
    before it: a removal records its slot, in order, and moves no other entry's slot. Found by
    identity with ``list.index``, each place was a scan of the list, and checking that the list had
    not changed was a copy and a comparison of it: 30,000 areas patched took 50 s."""

    __slots__ = ("by_key", "count", "entries", "hints", "last", "removed", "slots", "spec")

    def __init__(self, entries: list[Entry], spec: CollectionSpec) -> None:
        self.entries = entries
        self.spec = spec
        self.by_key: dict[str, list[Entry]] = {}
        #: Each entry's slot, by identity.
        self.slots: dict[int, int] = {}
        #: The slots of the entries removed, in order.
        self.removed: list[int] = []
        #: How many of the list's entries are indexed (the first ``count``), and the last of them.
        self.count = 0
        self.last: Entry | None = None
        self.hints = _Hints()

    def current(self) -> bool:
        """Whether the index holds the list as it is, but for entries appended since."""
        entries = self.entries
        return self.count <= len(entries) and (self.count == 0 or entries[self.count - 1] is self.last)

    def extend(self) -> None:
        """Index the entries appended since (all of them, the first time)."""
        entries = self.entries
        for i in range(self.count, len(entries)):
            entry = entries[i]
            self.slots[id(entry)] = i + len(self.removed)  # every slot before it is live or removed
            key = entity_key(self.spec, entry.raw)
            if key is not None:
                self.by_key.setdefault(key, []).append(entry)
            self.hints.vocabulary = None
        if self.count < len(entries):
            self.count = len(entries)
            self.last = entries[-1]

    def place(self, entry: Entry) -> int:
        slot = self.slots[id(entry)]
        return slot - bisect.bisect_left(self.removed, slot)

    def put(self, at: int, old: Entry, entry: Entry) -> None:
        self.slots[id(entry)] = self.slots.pop(id(old))
        same = self.by_key.get(entity_key(self.spec, old.raw) or "", [])
        for i, e in enumerate(same):
            if e is old:
                same[i] = entry
                break
        if at == self.count - 1:
            self.last = entry

    def pop(self, old: Entry) -> None:
        bisect.insort(self.removed, self.slots.pop(id(old)))
        self.hints.vocabulary = None
        key = entity_key(self.spec, old.raw)
        same = self.by_key.get(key or "", [])
        for i, e in enumerate(same):
            if e is old:
                del same[i]
                break
        if key is not None and not same:
            self.by_key.pop(key, None)
        self.count -= 1
        self.last = self.entries[self.count - 1] if self.count else None


#: Each collection's index (see :func:`_find`), by the list's identity; the list itself is kept in
#: the index, so a reused id cannot match.
_KEY_INDEX: dict[int, _KeyIndex] = {}


def _indexed(spec: CollectionSpec, entries: list[Entry]) -> _KeyIndex:
    """The index of ``entries``, up to date (made again where the list changed another way)."""
    index = _KEY_INDEX.get(id(entries))
    if index is None or index.entries is not entries or index.spec != spec or not index.current():
        if len(_KEY_INDEX) >= 64:
            _KEY_INDEX.clear()
        index = _KEY_INDEX[id(entries)] = _KeyIndex(entries, spec)
    index.extend()
    return index


def _find(spec: CollectionSpec, entries: list[Entry], key: str) -> int | None:
    """The index of the first entry with this key. The keys are indexed once per collection and
    kept while the list changes through :func:`_put`, :func:`_pop` and appends: an overlay that
    adds thousands of entries extends the index, and one that patches, replaces or removes
    thousands keeps it up to date (each such operation made the index again, the square of the
    collection: 5,000 patches took 11 s)."""
    index = _indexed(spec, entries)
    first = index.by_key.get(key)
    return index.place(first[0]) if first else None


class _Hints:
    """The "did you mean" of a collection's missing keys: one vocabulary of its keys while they stay
    the same (made again after an entry is added or removed), and how many missing keys were
    answered. Past :data:`SUGGESTED` no key is suggested: each answer costs the collection's size
    (an overlay naming 2,500 missing ids among 5,000 took 34 s, each making a vocabulary of its own)."""

    __slots__ = ("added", "asked", "vocabulary")

    def __init__(self) -> None:
        self.vocabulary: Vocabulary | None = None
        self.asked = 0
        #: A variant's `add` entries of the collection by key (:func:`_added_by`), for the manifest
        #: they were read from: found once, not once per missing key.
        self.added: tuple[Document, dict[str, NodePath]] | None = None


#: Missing keys of one collection answered with a "did you mean" (as a vocabulary's own bound).
SUGGESTED = QUERIES


def _put(spec: CollectionSpec, entries: list[Entry], at: int, entry: Entry) -> None:
    """``entries[at] = entry``, for an entry of the same key, the index kept up to date."""
    index = _indexed(spec, entries)
    old = entries[at]
    entries[at] = entry
    index.put(at, old, entry)


def _pop(spec: CollectionSpec, entries: list[Entry], at: int) -> Entry:
    """``entries.pop(at)``, the index kept up to date."""
    index = _indexed(spec, entries)
    old = entries.pop(at)
    index.pop(old)
    return old


def _missing(
    resolved: Resolved, name: str, spec: CollectionSpec, entries: list[Entry], key: str, at: Origin, verb: str
) -> Diagnostic:
    told = _missing_here(resolved, name, spec, entries, key, at, verb)
    word = spec.word or name  # the designer's word for one entity, not the overlay's block
    if told is not None:
        why, hint_told, place = told
        message = f"cannot {verb} {word} {spec.shown(key)}: {why}"
        about = words.whole((key,))
        return _diag(codes.OVERLAY_MISSING, message, at.span(spec.key), hint_told, (place,), subjects=about)
    message = f"cannot {verb} {word} {spec.shown(key)}: the base has no such entry"
    hints = _indexed(spec, entries).hints  # made by the find that missed
    close: str | None = None
    hint: str | None = None
    if hints.asked < SUGGESTED:
        hints.asked += 1
        if spec.pair or hints.vocabulary is None:
            existing = [k for k in (entity_key(spec, e.raw) for e in entries) if k is not None]
        levels = _qualified(spec, entries, key)
        if levels:
            # `{side: north}` where the base keys a track by side and level: each of its keys.
            word = spec.word or name
            hint = (
                f"the base has one {word} of `{key}` per `{spec.qualifier}`: name each by both, in an entry of "
                f"its own: {', '.join(f'`{spec.naming(level)}`' for level in levels)}"
            )
        elif spec.pair:
            # Two areas the base does not join: what each of them does border says more than the
            # spelling of the closest pair.
            hint = _borders_hint(key, existing)
        else:
            if hints.vocabulary is None:
                hints.vocabulary = Vocabulary(existing, queries=SUGGESTED)
            close = hints.vocabulary.closest(key)  # bounded: an overlay may name thousands of missing ids
            if close and spec.qualifier is not None:
                hint = mean(spec.naming(key), spec.naming(close))  # the fields to write, not the key's text
            else:
                hint = mean(key, close) if close else None
    if hint is None:
        hint = (
            "the base has nothing to remove by this name: delete this entry"
            if verb == "remove"
            else f"to add a new {word}, write it whole under `add:` in `overlay.{name}`"
        )
    elif verb == "remove" and spec.pair:
        hint = f"nothing to remove: {hint}"
    # A border's key is its two areas and a track's its side and level: not text to put back as
    # one. Where one field of a track's names is what differs (`level: basci`), that field is the
    # place, and its value the suggestion an editor puts back.
    field, plain = spec.key, close if close and not spec.pair and spec.qualifier is None else None
    if close and spec.qualifier is not None:
        written, meant = spec.fields_of(key), spec.fields_of(close)
        differing = [name for name in spec.naming_fields if written.get(name) != meant.get(name)]
        if len(differing) == 1 and isinstance(meant.get(differing[0]), str):
            field, plain = differing[0], str(meant[differing[0]])
    problem = _diag(codes.OVERLAY_MISSING, message, at.span(field), hint, subjects=words.whole((key,)))
    return replace(problem, suggestion=plain)


def _qualified(spec: CollectionSpec, entries: list[Entry], key: str) -> list[str]:
    """The keys of the base's entities of a collection keyed by a qualifier too (a track's side
    and level) whose first part is ``key``, written without its qualifier."""
    if spec.qualifier is None or "@" in key:
        return []
    return sorted(k for k in _indexed(spec, entries).by_key if k.startswith(f"{key}@"))


#: The notes of a V005 that say why an entry has nothing to change (:func:`_missing_here`), one
#: cause for every entry of the collection naming that entity (:func:`_one_per_cause`).
_REMOVED_HERE = "the variant's `remove` of {key}"
_REMOVED_IN_BASE = "the base's `remove` of {key}"
_ADDED_HERE = "the variant's `add` of {key}"


def _missing_here(
    resolved: Resolved, name: str, spec: CollectionSpec, entries: list[Entry], key: str, at: Origin, verb: str
) -> tuple[str, str, Related] | None:
    """Why an operation of a variant names no entity of its base when the variant itself, or the
    base, says why: an entity removed (the variant's own `remove` applies first; a base's removal
    leaves nothing to change), or one the variant adds (`add` applies last: a patch, replacement
    or removal applies to the base, before it). Each as what the message says of it (never "the
    base has no such entry" of an entity the base has and this variant removes), the hint, and the
    place that explains it; None: the base never had it."""
    removal = resolved.removed.get(name, {}).get(key)
    shown = spec.shown(key)
    if removal is not None:
        own = removal.document is at.document
        by = "this variant" if own else "the base ruleset"
        place = Related(removal.span(), (_REMOVED_HERE if own else _REMOVED_IN_BASE).format(key=shown), at_base=not own)
        why = f"{by} {'already ' if verb == 'remove' else ''}removes it"
        if verb == "remove":
            return why, f"{by} already removes {shown}: delete this entry", place
        if own:
            return (
                why,
                f"this variant removes {shown} (its `remove` entry, applied first): drop this {verb}, or the removal",
                place,
            )
        return why, f"the base ruleset removes {shown}: to have it in this variant, `add` it whole", place
    added = _added_by(at.document, name, spec, entries).get(key)
    if added is None:
        return None
    place = Related(at.document.span(added), _ADDED_HERE.format(key=shown))
    change = {
        "patch": "write the change in that entry",
        "replace": "write that entry as it should be",
        "remove": "delete that entry instead",
    }[verb]
    why = "the base has no such entry (this variant adds it)"
    return why, f"this variant's `add` gives {shown}: {change} (a {verb} applies to the base, before `add`)", place


def _named_blank(spec: CollectionSpec, word: str) -> str:
    """The naming fields of an overlay entry, each a blank (L016 until written): what a hint writes
    where the entry has none (`id: "write the entity's id here"`, a pair's two ids in a list)."""
    if spec.pair:
        return f'{spec.key}: ["{blanks.blank("the first id")}", "{blanks.blank("the second id")}"]'
    what = f"the {word}'s {spec.key}"
    return f'{spec.key}: "{blanks.blank(what)}"'


def _unnamed(name: str, spec: CollectionSpec, item: Mapping[str, Any], at: Origin) -> Diagnostic:
    """An overlay entry whose key names no entity (`areas: left|right`, `id: [lantern]`) or that
    has no key (`{side: north}` among sides): it was skipped without a word. The schemas
    refuse an entry without its key; one a family's schema lets through is refused here all the
    same, never skipped. An entry whose key was written in what a YAML merge key (`<<`) was to
    merge is told so at the `<<`, as the schemas tell it elsewhere: "missing key `id`" and "write
    the component's id" of an entry that wrote it, in the merge, said nothing of the cause."""
    if spec.key not in item and MERGE_KEY in item:
        return _diag(
            codes.UNKNOWN_KEY,
            f"a YAML merge key (`{MERGE_KEY}`) is not read in rule data in `{_entry_path(at.path)}`",
            at.document.key_span((*at.path, MERGE_KEY)),
            "write the merged keys out here: a mapping holds what it says, nothing it merges from elsewhere",
            subjects=(MERGE_KEY,),
        )
    if spec.key not in item:
        return _diag(
            codes.MISSING_KEY,
            f"missing key `{spec.key}` in `{_entry_path(at.path)}`: an entry of `overlay.{name}` is named by "
            f"{spec.named_by}",
            at.span(),
            f"write the {spec.word or name}'s {spec.key}: `{_named_blank(spec, spec.word or name)}`",
            subjects=(spec.key, _entry_path(at.path)),
        )
    value = item[spec.key]
    if spec.pair:
        parts = value.split("|") if isinstance(value, str) else []
        pair = (
            f"[{parts[0].strip()}, {parts[1].strip()}]" if len(parts) == 2 and all(p.strip() for p in parts) else None
        )
        hint = f"write the pair as a list: `{spec.key}: {pair or _named_blank(spec, '').partition(': ')[2]}`"
    elif isinstance(value, list) and len(value) == 1 and isinstance(value[0], (str, int)):
        hint = f"write one {spec.key}, not a list: `{spec.key}: {value[0]}`"
    else:
        hint = f"write the {spec.word or name}'s {spec.key} as text: `{spec.key}: ...`"
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _diag(
        codes.SCHEMA_VIOLATION,
        f"`{shown}` names no {spec.word or name}: an entry of `overlay.{name}` is named by {spec.named_by}",
        at.span(spec.key),
        hint,
        subjects=(shown,),
    )


def _added_by(manifest: Document, name: str, spec: CollectionSpec, entries: list[Entry]) -> dict[str, NodePath]:
    """The entries of ``manifest``'s `overlay.<name>.add` by key, with their paths."""
    hints = _indexed(spec, entries).hints
    if hints.added is None or hints.added[0] is not manifest:
        overlay = manifest.data.get("overlay") if isinstance(manifest.data, dict) else None
        block = overlay.get(name) if isinstance(overlay, dict) else None
        items = block.get("add") if isinstance(block, dict) else None
        found: dict[str, NodePath] = {}
        for i, item in enumerate(items if isinstance(items, list) else ()):
            key = entity_key(spec, item) if isinstance(item, dict) else None
            if key is not None:
                found.setdefault(key, ("overlay", name, "add", i))
        hints.added = (manifest, found)
    return hints.added[1]


def _borders_hint(key: str, existing: list[str]) -> str | None:
    """The borders the base gives each area of the pair ``key`` (``a|b``), where it gives any."""
    parts = []
    for area in dict.fromkeys(key.split("|")):
        others = []
        for pair in existing:
            first, _, second = pair.partition("|")
            if area in (first, second):
                others.append(second if first == area else first)
        others.sort()
        if others:
            parts.append(f"`{area}` borders {', '.join(others[:12])}{' ...' if len(others) > 12 else ''}")
    return "; ".join(parts) if parts else None


def _add(
    resolved: Resolved, name: str, spec: CollectionSpec, entries: list[Entry], item: dict[str, Any], at: Origin
) -> Iterator[Diagnostic]:
    key = entity_key(spec, item)
    if key is None:
        yield _unnamed(name, spec, item, at)
        return
    existing = _find(spec, entries, key)
    if existing is not None:
        first = entries[existing].origin
        # The entry this one collides with is the variant's own (an earlier `add`, or a `replace`):
        # there is no base entry to patch, so the fix is one of the two.
        own = first.file == at.file
        written = next((part for part in first.path if part in ("add", "replace")), "add") if own else ""
        word = spec.word or name  # the designer's word for one entity, not the overlay's block
        yield _diag(
            codes.OVERLAY_EXISTS,
            f"cannot add {word} {spec.shown(key)}: it already exists",
            at.span(spec.key),
            f"this variant's `{written}` already gives {spec.shown(key)}: rename one of the two entries, or drop one"
            if own
            else (
                f"to change the base's {word} {spec.shown(key)}, move this entry under `patch:` in "
                f"`overlay.{name}` and keep only the fields that differ (or under `replace:`, written whole); "
                f"to add a {word} of this variant's own, write it with {words.article(spec.key)} "
                f"`{spec.key}:` the base does not use"
            ),
            (Related(first.head(), f"given first here, by the variant's `{written}`" if own else "defined here"),),
            subjects=(key,),
        )
        return
    removal = resolved.removed.get(name, {}).pop(key, None)
    if removal is not None and removal.base is not None:
        # Removed, then added again: the new entity stands in place of the removed one, as a
        # `replace` would; the removed one's facts (its unknowns, its citations) went with it.
        gone = removal.base
        at = replace(at, base=gone.base or gone, replaced=(*gone.replaced, gone))
    entries.append(Entry(at, item))
    found = resolved.budget.judge(resolved.family.slot_kind(spec.slot), spec.path, item, at.place)
    yield from _ids_taken(found, name, spec, entries, at)


def _ids_taken(
    found: Iterable[Diagnostic], name: str, spec: CollectionSpec, entries: list[Entry], at: Origin
) -> Iterator[Diagnostic]:
    """``found`` (the schema's findings of an entity a variant adds, at ``at``), where the id its
    key's form finding proposes (`Lantern`: "e.g. `lantern`") is one ``entries`` (the
    collection as the variant has it so far) already has: told that the id is taken, and how to
    change that entity instead or name this one otherwise. The schema stage that words the hint
    knows no ruleset's ids."""
    place = at.span(spec.key)
    for diagnostic in found:
        taken = diagnostic.suggestion
        has = _find(spec, entries, taken) if taken is not None and diagnostic.span == place else None
        if taken is not None and has is not None:
            word = spec.word or name
            whose = "this variant's" if entries[has].origin.file == at.file else "the base's"
            change = (
                f"`- {spec.naming(taken)}` and the fields to change under `patch:` in `overlay.{name}`"
                if whose == "the base's"
                else "the fields in the entry that adds it"
            )
            diagnostic = replace(
                diagnostic,
                hint=f"`{taken}` is the id of {whose} {word} already: to change that one, write {change}; "
                f"to add another, give this one an id of its own, written as `{taken}` is",
                suggestion=None,
            )
        yield diagnostic


def _target(
    resolved: Resolved,
    name: str,
    spec: CollectionSpec,
    entries: list[Entry],
    item: dict[str, Any],
    at: Origin,
    verb: str,
) -> tuple[str, int] | Diagnostic | None:
    """The key and index of the entity an overlay entry changes; a V005 when the base has none."""
    key = entity_key(spec, item)
    if key is None:
        return _unnamed(name, spec, item, at)
    existing = _find(spec, entries, key)
    if existing is None:
        return _missing(resolved, name, spec, entries, key, at, verb)
    return key, existing


def _replace(
    resolved: Resolved, name: str, spec: CollectionSpec, entries: list[Entry], item: dict[str, Any], at: Origin
) -> Iterator[Diagnostic]:
    target = _target(resolved, name, spec, entries, item, at, "replace")
    if not isinstance(target, tuple):
        yield from [target] if target is not None else []
        return
    _, existing = target
    old = entries[existing].origin
    base = old.base or old
    _put(spec, entries, existing, Entry(replace(at, base=base, replaced=(*old.replaced, old)), item))
    resolved.base_notes.append((at.span(), base.head()))
    yield from resolved.budget.judge(resolved.family.slot_kind(spec.slot), spec.path, item, at.place, base.head())


def _remove(
    resolved: Resolved, name: str, spec: CollectionSpec, entries: list[Entry], item: dict[str, Any], at: Origin
) -> Iterator[Diagnostic]:
    target = _target(resolved, name, spec, entries, item, at, "remove")
    if not isinstance(target, tuple):
        yield from [target] if target is not None else []
        return
    key, existing = target
    # The removal keeps what it removed (``base``): the entity's facts, its unknowns too, are gone.
    removed = _pop(spec, entries, existing)
    resolved.removed.setdefault(name, {})[key] = replace(at, base=removed.origin)


class _Moved(tuple[tuple[NodePath, NodePath], ...]):
    """An :attr:`Origin.moved` made by :func:`_moves_kept`, with its records by field
    (``fields``: each field's records, one tuple that every later entry keeping them shares, in
    the order they stand in; None: the records of no field). An entry keeps the fields it does not
    change, and finds the last changer's records of a field, without a pass over the others' (one
    entry appending n elements to one list, then n entries each changing another list of the
    entity by list operations, copied and searched the n records per entry, the square of n)."""

    fields: dict[str | int | None, tuple[tuple[NodePath, NodePath], ...]]


def _by_field(
    moved: tuple[tuple[NodePath, NodePath], ...],
) -> dict[str | int | None, tuple[tuple[NodePath, NodePath], ...]]:
    """The records of ``moved`` by field (None: those of no field), in order."""
    if isinstance(moved, _Moved):
        return moved.fields
    found: dict[str | int | None, list[tuple[NodePath, NodePath]]] = {}
    for key, path in moved:
        found.setdefault(key[0] if key else None, []).append((key, path))
    return {field: tuple(records) for field, records in found.items()}


def _moves_kept(
    before: tuple[tuple[NodePath, NodePath], ...], entry: Mapping[str, Any], written: Mapping[NodePath, NodePath]
) -> tuple[tuple[NodePath, NodePath], ...]:
    """The elements written by list operations (``Origin.moved``) after a patch ``entry`` whose own
    list operations wrote ``written``: those of earlier entries for fields ``entry`` does not
    change, then its own. An entry changing none of the fields earlier ones wrote elements of keeps
    their records as they are, the same tuple, not a copy: one entry appending n elements followed
    by n entries patching another field copied the n records n times, the square of them. The
    records are kept by field (:class:`_Moved`): an entry passes over the fields, and over its own
    records, not over the records of the fields it leaves."""
    groups = _by_field(before)
    fields: dict[str | int | None, tuple[tuple[NodePath, NodePath], ...]] = {
        name: records for name, records in groups.items() if name is not None and name not in entry
    }
    kept = before if len(fields) == len(groups) else tuple(itertools.chain.from_iterable(fields.values()))
    if not written:
        if not fields or (kept is before and isinstance(before, _Moved)):
            return kept
        made = _Moved(kept)  # by field from now on (a tuple read by field each entry was a pass over it)
        made.fields = fields
        return made
    made = _Moved((*kept, *written.items()))
    made.fields = fields
    for name, records in _by_field(tuple(written.items())).items():
        made.fields[name] = (*made.fields.get(name, ()), *records)
    return made


def _moves_of(moved: tuple[tuple[NodePath, NodePath], ...], name: str) -> tuple[tuple[NodePath, NodePath], ...]:
    """The records of ``moved`` (an :attr:`Origin.moved`) of the elements of the field ``name``."""
    if isinstance(moved, _Moved):
        return moved.fields.get(name, ())
    return tuple((key, path) for key, path in moved if key[:1] == (name,))


def _patch(
    resolved: Resolved,
    name: str,
    spec: CollectionSpec,
    entries: list[Entry],
    item: dict[str, Any],
    at: Origin,
    patched: dict[str, Span],
) -> Iterator[Diagnostic]:
    """Merge one `patch` entry into its entity; the entity is validated once its block's patches
    are all applied (:func:`_validate_patched`), its key and base definition recorded in ``patched``."""
    target = _target(resolved, name, spec, entries, item, at, "patch")
    if not isinstance(target, tuple):
        yield from [target] if target is not None else []
        return
    _, existing = target
    entry = entries[existing]
    unchanged = _unchanged_fields(entry.raw, entry.origin, item, at, spec.naming_fields)
    judged = _judged_fields(item, spec.naming_fields)
    if unchanged and len(unchanged) == len(judged):
        named_as = entity_key(spec, entry.raw) or ""
        yield _unchanged(f"{spec.word or name} {spec.shown(named_as)}", item, entry.origin, at, unchanged, key=named_as)
    elif not judged and _cites_only(item):
        # (a setting's patch citing alone re-cites it: its citation merges as a field does)
        named_as = entity_key(spec, entry.raw) or ""
        yield _only_cited(f"{spec.word or name} {spec.shown(named_as)}", item, entry.origin, at, named_as)
    # taken before the merge, which may grow a list of the entity in place (:data:`_OWNED`)
    lengths = {field: len(value) for field in item if isinstance(value := entry.raw.get(field), list)}
    # an entity this block patched before: its merge is no session's to reuse (:data:`_OWNED`),
    # and may be made in place (its key taken before)
    named = entity_key(spec, entry.raw)
    again = named in patched
    merged, problems, moved, was, edits = _merged(entry.raw, item, spec.key, remember=not again)
    for problem in problems:
        about = f"{spec.word or name} {spec.shown(named or '')}"
        told = _diag(
            codes.LIST_SELECTOR,
            f"{problem.message} (in {about})"
            if problem.complete
            else f"{problem.message} `{_render(problem.path)}` of {about}",
            at.span(*problem.path),
            problem.hint,
            (
                Related(
                    entry.origin.span(*_list_part(problem.path)),
                    "the base's value" if problem.complete else "the base's list",
                ),
            ),
            subjects=(*problem.subjects, _render(problem.path)),
        )
        yield replace(told, suggestion=problem.suggestion) if problem.suggestion else told
    changed = entry.origin.changes
    # the fields that name the entity (its key, and a qualifier) select it: the entry changes none
    named_by = spec.naming_fields
    for field_name in item:
        if field_name not in named_by:
            changed = recorded(changed, (field_name, at))
    writers = _writers(entry.origin, item, at, merged, moved, was, named_by, owned=again)
    changed_by = _changed_by(entry.origin, (field_name for field_name in item if field_name not in named_by), at)
    origin = replace(
        entry.origin,
        changes=changed,
        moved=_moves_kept(entry.origin.moved, item, moved),
        writers=writers,
        changed_by=changed_by,
        earlier_moved=_earlier_moved(entry.origin, lengths, merged, item, edits),
    )
    _put(spec, entries, existing, Entry(origin, merged))
    resolved.base_notes.append((at.span(), entry.origin.head()))
    key = entity_key(spec, merged)
    if key is not None:
        patched.setdefault(key, entry.origin.head())


def _judged_fields(item: Mapping[str, Any], keys: tuple[str, ...] = ()) -> list[str]:
    """The fields of a patch that V013 judges: all but the fields that name the entity (``keys``),
    citations and notes (an entry cites its change with them)."""
    return [field for field in item if field not in keys and field not in CITATION_FIELDS and field != "note"]


def _unchanged_fields(
    had: Mapping[str, Any], origin: Origin, item: Mapping[str, Any], at: Origin, keys: tuple[str, ...] = ()
) -> list[str]:
    """The fields a `patch` (of an entity, the fields naming it, ``keys``, aside, or of a setting) sets to the value
    ``had`` (read from ``origin``) already has from an earlier layer (the base's definition, or a
    variant it extends): V013 where they are all the patch's judged fields (:func:`_judged_fields`).
    A field an earlier entry of the same variant wrote is V012's to tell. A patch that also
    changes a field may restate another on purpose (to cite a second source for it, as a
    transcription does)."""
    return [
        field
        for field in _judged_fields(item, keys)
        if field in had
        and not ((written := record_of(origin.changes, field)) is not None and written[1].file == at.file)
        and _same_value(had[field], item[field])
    ]


def _same_value(had: Any, value: Any) -> bool:
    """Whether a patch's ``value`` leaves ``had`` as it is: equal, or a mapping merged into a
    mapping whose every field it names holds that value already (list operations always act)."""
    if isinstance(value, dict):
        if is_list_operations(value) or not isinstance(had, dict) or not value:
            return False
        if set(value) == {"unknown"} or set(had) == {"unknown"}:
            return value == had  # an unknown fact is written whole
        return all(key in had and _same_value(had[key], inner) for key, inner in value.items())
    if isinstance(value, list):
        return isinstance(had, list) and had == value  # a list in a patch is written whole
    return type(had) is type(value) and had == value


def _unchanged_setting(key: str, had: Any, patch: Any, previous: Origin | None, at: Origin) -> Iterator[Diagnostic]:
    """V013 for a patch of the setting ``key`` (in `overlay.settings`, or the setting restated in
    a variant's manifest, which merges as one) whose every judged field already has the value it
    writes in ``had``, read from ``previous``; judged as an entity's patch is (:func:`_unchanged_fields`)."""
    if previous is None or not isinstance(patch, dict) or not isinstance(had, dict) or is_list_operations(patch):
        return
    if set(patch) == {"unknown"} or set(had) == {"unknown"}:
        return  # an unknown fact is written whole
    unchanged = _unchanged_fields(had, previous, patch, at)
    if unchanged and len(unchanged) == len(_judged_fields(patch)):
        yield _unchanged(f"the setting `{key}`", patch, previous, at, unchanged, key)


def _unchanged(
    about: str,
    patch: Mapping[str, Any],
    origin: Origin,
    at: Origin,
    fields: list[str],
    subject: str | None = None,
    *,
    key: str | None = None,
) -> Diagnostic:
    """V013 for a ``patch`` (of ``about``: an entity, or a setting; read from ``origin``) whose
    every judged field (``fields``) already has the value it writes: one diagnostic for the patch,
    at its first field, with the value that field has noted. The values are said as the patch
    writes them (what it names of a mapping, not the whole of the base's)."""
    shown = ", ".join(f"`{f}: {_shown_value(patch[f])}`" for f in fields[:4]) + (", ..." if len(fields) > 4 else "")
    # an entity may be mistaken for one of a like name; a setting is named by its key alone
    which = f" (is it the right {about.rsplit(' `', 1)[0]}?)" if subject is None else ""
    unchanged = codes.OVERLAY_UNCHANGED
    return Unchanged(
        unchanged.code,
        unchanged.severity,
        f"this patch of {about} changes nothing: it already has {shown}",
        at.document.key_span((*at.path, fields[0])),
        f"write the value you mean{which}, or delete this entry: the ruleset keeps "
        f"{'this value' if len(fields) == 1 else 'these values'}",
        (Related(origin.span(fields[0]), "the value it has"),),
        subjects=named((subject if subject is not None else key if key is not None else about, *fields)),
        fields_at=tuple(at.document.key_span((*at.path, field)) for field in fields),
    )


def _cites_only(item: Mapping[str, Any]) -> bool:
    """Whether a patch entry writes a citation (text that says something: a blank one is S001's)
    and, beside the fields naming its entity, nothing else that :func:`_judged_fields` judges."""
    return any(
        (isinstance(value, str) and bool(value.strip())) or (isinstance(value, list) and bool(value))
        for field, value in item.items()
        if field in CITATION_FIELDS
    )


def _only_cited(about: str, patch: Mapping[str, Any], origin: Origin, at: Origin, subject: str) -> Diagnostic:
    """V013 for a ``patch`` (of ``about``, read from ``origin``) that writes a citation and no
    field: a patch's citation cites the fields it writes, so the entity keeps its definition's
    (a designer re-citing a fact the base states had no word of it)."""
    cited = next(field for field in patch if field in CITATION_FIELDS)
    unchanged = codes.OVERLAY_UNCHANGED
    return Diagnostic(
        unchanged.code,
        unchanged.severity,
        f"this patch of {about} changes nothing: it writes no field but its citation, and a patch's citation "
        "cites the fields it writes",
        at.document.key_span((*at.path, cited)),
        "write the field you change beside the citation, or delete this entry: a fact the variant does not "
        "change keeps its base's citation (the note points at it)",
        (Related(origin.head(), "the definition, with its citation"),),
        subjects=named((subject, cited)),
    )


def _shown_value(value: Any) -> str:
    """A value as a designer would write it in the overlay, cut short where it is long."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:39] + "…"


def _cited_by_writers(origin: Origin, merged: dict[str, Any], layers: Mapping[str, int]) -> dict[str, Any]:
    """``merged`` (the entity read from ``origin``, patched) cited by its definition, then by each
    patch entry whose facts it still holds, in the order they were written: a patch whose every
    fact a later variant wrote over (or removed) no longer cites the entity, as its sheet row and
    its `field_sources` do not (:func:`cite_patched` added each patch's citation as it came)."""
    definition = _node_at(origin.document, origin.path)
    was = {k: definition[k] for k in CITATION_FIELDS if isinstance(definition, dict) and definition.get(k) is not None}
    if not was:
        return merged  # the definition cites nothing here: the patches' citations merged as data
    standing: dict[int, Origin] = {}
    for name, _ in origin.changes:
        if name not in CITATION_FIELDS:
            standing.update({id(writer): writer for writer, _ in field_writers(origin, name) if writer is not None})

    def written_at(writer: Origin) -> tuple[Any, ...]:
        return (
            layers.get(writer.file, len(layers)),
            writer.file,
            *((0, p) if isinstance(p, int) else (1, p) for p in writer.path),
        )

    owns = []
    for writer in sorted(standing.values(), key=written_at):
        entry = _node_at(writer.document, writer.path)
        own = {k: entry[k] for k in CITATION_FIELDS if isinstance(entry, dict) and entry.get(k) is not None}
        if own:
            owns.append(own)
    if not all(_citation_value(value) for cites in (was, *owns) for value in cites.values()):
        return merged  # a citation the schema refuses (reported there; a mapping is no section to join)
    cited: dict[str, Any] = _both_citations(was, *owns) if owns else was
    if not all(_citation_value(value) for value in cited.values()):
        return merged  # a citation the schema refuses (reported there): merged as written
    if all(merged.get(k) == cited.get(k) for k in CITATION_FIELDS):
        return merged
    return {**{k: v for k, v in merged.items() if k not in CITATION_FIELDS}, **cited}


_Merge = tuple[
    dict[str, Any], tuple["PatchProblem", ...], dict[NodePath, NodePath], dict[NodePath, Any], dict[NodePath, "Edits"]
]


def _merged(raw: dict[str, Any], item: dict[str, Any], key: str, *, remember: bool = True) -> _Merge:
    """The patch entry ``item`` merged into the entity ``raw`` (its key aside), what went wrong, and
    where its list operations put what they wrote (and each element a `patch:` merged into, as it
    was: :func:`merge_patch`'s ``was``; and what they did to each list's places, its ``edits``).
    Within a session's memo, the same ``item`` on the same ``raw`` gives the merge made before, the
    very object: what is judged and walked of a merged entity is then found in the memo as an
    entity read from a file is (see :meth:`SchemaBudget.judge`).

    Not ``remember``: ``raw`` is what an earlier entry of the block merged, and the merge is made
    afresh, never kept, so it may grow in place the lists the block's merges made (:data:`_OWNED`):
    a memo holding it would see a later entry's elements in it."""

    def merge() -> _Merge:
        problems: list[PatchProblem] = []
        moved: dict[NodePath, NodePath] = {}
        was: dict[NodePath, Any] = {}
        edits: dict[NodePath, Edits] = {}
        written = {k: v for k, v in item.items() if k != key}
        if not remember and _OWNED.merges_into_entity(raw) and _merged_in_place(raw, written):
            _merge_entity_into(raw, written, problems, moved, was, edits)
            return raw, tuple(problems), moved, was, edits
        merged_raw = merge_patch(raw, written, problems, moved=moved, was=was, edits=edits)
        merged = cite_patched(raw, written, merged_raw, whole_entity=True)
        if not remember and isinstance(merged, dict) and len(merged) >= _IN_PLACE_FROM:
            _OWNED.own_entity(merged)  # a smaller one is copied at the next merge (:data:`_IN_PLACE_FROM`)
        return merged, tuple(problems), moved, was, edits

    if not remember:
        with _OWNED.growing():
            return merge()
    found: _Merge = remembered(item, (_merged, raw, sys.intern(key)), merge)
    return found


def _merge_entity_into(
    raw: dict[str, Any],
    written: dict[str, Any],
    problems: list[PatchProblem],
    moved: dict[NodePath, NodePath],
    was: dict[NodePath, Any],
    edits: dict[NodePath, Edits],
) -> None:
    """The patch entry's fields ``written`` merged into the entity ``raw`` in place, and the entity
    cited by what wrote its facts: what :func:`merge_patch` then :func:`cite_patched` make of a
    copy of it, for an entity an earlier entry of the block merged anew (:meth:`_Owned.own_entity`).
    Copied at each entry, the entity was copied whole at each: n entries each writing a field of
    their own into it copied the square of n fields (`entity-keys`, round 33).

    Both read only the fields the patch names and the entity's citation (an entity's citation is
    joined with the patch's whatever fields it has: ``whole_entity``), so :func:`cite_patched` is
    shown those alone as they were, and a citation it makes anew is written back after the other
    fields, where the copy it made put it."""
    shown = (*written, *(k for k in (*CITATION_FIELDS, "unknown") if k not in written))
    before = {k: raw[k] for k in shown if k in raw}
    own = {k: written[k] for k in CITATION_FIELDS if written.get(k) is not None} or None
    for key, value in written.items():
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = merge_patch(raw.get(key), value, problems, (key,), "the value", moved, (key,), own, was, edits)
    merged = {k: raw[k] for k in shown if k in raw}
    _take_citation(raw, cite_patched(before, written, merged, whole_entity=True), merged)


class _Owned:
    """The lists a block of overlay entries (one collection's `patch:` list) made in merges of an
    entity it had patched before, which no memo holds (:func:`_merged`): the next entry of the
    block that changes the same list (appends to an entity's list, adds a rule section to its
    citation) adds to it in place. Made anew at each entry, the list was copied whole at each:
    n entries appending to one card's list, or each citing a rule section of its own, copied the
    square of n elements (repeated-patches and patches-citing-rules, round 26).

    Only an entity's own fields' lists are grown, and the rule sections of a citation inside it
    (an element's, a nested mapping's: :func:`cite_patched`'s ``grow``), and only ones such a merge
    made: the first merge of an entity in a block may be a session's memo's (:func:`_merged`), so
    it is never changed. What an element of a list was before a `patch:` (:func:`merge_patch`'s
    ``was``) is kept by the records for its identity alone (:func:`_writing` follows an element
    by it, reading what each entry wrote from its document): its citation's sections are the
    element's own list, grown by the entries after it. Copied at each entry, each element the
    records held had a list of every section before it (n entries each citing a section of
    their own in one element: 461 MB at 10,000, round 29). The merge an entry grows a list of is
    the one before it in the block, which nothing reads again: the entity's entry and its records
    hold the latest only. Forgotten at the block's end: a later block (a child variant's) copies
    the list once, as it starts."""

    __slots__ = ("entities", "lists", "logged", "mappings", "on")

    def __init__(self) -> None:
        #: By identity, each held (so that no other list takes its id while the block lasts).
        self.lists: dict[int, tuple[list[Any], bool]] = {}
        #: The elements of nested lists a `patch:` operation of such a merge made (:meth:`own_element`).
        self.mappings: dict[int, dict[str, Any]] = {}
        #: By identity, each element of an entity's own list that the records of such a merge hold,
        #: with those records (:meth:`record`).
        self.logged: dict[int, tuple[Any, list[tuple[WriterLog, tuple[int, int]]]]] = {}
        #: By identity, each entity such a merge made (:meth:`own_entity`).
        self.entities: dict[int, dict[str, Any]] = {}
        self.on = False

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        """One block of entries: what it made is forgotten at its end (and a block is never nested)."""
        self.lists.clear()
        self.mappings.clear()
        self.logged.clear()
        self.entities.clear()
        try:
            yield
        finally:
            self.lists.clear()
            self.mappings.clear()
            self.logged.clear()
            self.entities.clear()
            self.on = False

    def record(self, log: WriterLog) -> None:
        """``log``, the record of a merge no memo holds, is the block's: each element of the entity's
        own list its `patch:` operations merged anew, and where the log holds it (:meth:`stand_in`).
        Not one it read (an element of the definition's, or one the reader gives twice, as one
        object, is followed by other records too), nor one of fewer keys than :data:`_IN_PLACE_FROM`
        (copied at the next merge, as before round 32: the records hold a few keys of it each)."""
        made: dict[int, list[tuple[WriterLog, tuple[int, int]]]] = {}
        for which, (now, was, _, _) in enumerate(log.patched):
            if isinstance(now, dict) and len(now) < _IN_PLACE_FROM:
                continue  # copied at the next merge, the records holding its few keys (:data:`_IN_PLACE_FROM`)
            held = self.logged.get(id(now))
            if held is None or held[0] is not now:
                held = self.logged[id(now)] = (now, [])
            made[id(now)] = held[1]
            held[1].append((log, (which, 0)))
            if was is now:
                held[1].append((log, (which, 1)))
        mine = log.mine if made else None
        for at, element in enumerate(mine[2] if mine is not None else ()):
            if (places := made.get(id(element))) is not None:
                places.append((log, (-1, at)))

    def follows(self, element: Any) -> bool:
        """Whether the block's records alone follow ``element``, one of an entity's own list that a
        `patch:` of the block merged anew (:meth:`record`): they can let go of it (:meth:`stand_in`)."""
        held = self.logged.get(id(element))
        return held is not None and held[0] is element

    def stand_in(self, element: Any) -> Any:
        """What the records stand for ``element`` by, once a later `patch:` of the block merges into
        it (anew, or in place), where the block's records alone follow it (:meth:`follows`): a
        token in its place in each of them (:meth:`WriterLog.stand_in`), which follow the element
        by its identity alone, so that they let go of it. Each record held its own copy of the
        element, which n entries each writing a key of their own into it made the square of n
        keys in memory (1,355 MB at 10,000, round 31). ``element`` itself where another holds it
        (a merge a memo may hold)."""
        if not self.follows(element):
            return element
        _, places = self.logged.pop(id(element))
        token = _MergedAnew()
        for log, place in places:
            log.stand_in(place, token)
        return token

    @contextlib.contextmanager
    def growing(self) -> Iterator[None]:
        """Within it, one merge no memo holds: the lists it makes are the block's, and it may grow them."""
        self.on = True
        try:
            yield
        finally:
            self.on = False

    def grows(self, made: object, at: NodePath, *, sections: bool = False) -> bool:
        """Whether ``made`` (the field ``at`` of the entity) is a list of the block's, grown in place.

        ``sections``: a citation's rule sections (:func:`_both_citations`), which are only ever
        added to, at the end: its sections' dict (:data:`_SECTIONS`) holds them while its length
        is the list's, and a record of what wrote them the list and its length then
        (:attr:`WriterLog.mine`). Such a list is never another's to grow: list operations on it (a
        `remove:` then an `append:`, as long as before) copy it, as they did before round 26."""
        held = self.lists.get(id(made)) if self.on and len(at) == 1 else None
        return held is not None and held[0] is made and held[1] == sections

    def own(self, made: list[Any], at: NodePath, *, sections: bool = False) -> None:
        """``made`` (the field ``at`` of the entity) is the block's, if a merge no memo holds made it."""
        if self.on and len(at) == 1:
            self.lists[id(made)] = (made, sections)

    def own_entity(self, made: dict[str, Any]) -> None:
        """``made``, an entity a merge no memo holds made anew (of :data:`_IN_PLACE_FROM` fields or
        more), is the block's: the next entry of the block that patches it merges into it in place
        (:func:`_merge_entity_into`). Nothing else
        reads it again: the entity's entry holds the latest merge only, and its records hold the
        values of its fields, not the entity."""
        if self.on:
            self.entities[id(made)] = made

    def merges_into_entity(self, raw: object) -> bool:
        """Whether the entity ``raw`` is the block's (:meth:`own_entity`), for a merge no memo holds."""
        held = self.entities.get(id(raw)) if self.on else None
        return held is not None and held is raw

    def merges_into(self, element: object) -> bool:
        """Whether ``element`` (of a list of the entity, or of one inside its elements) is the block's:
        the next `patch:` operation naming it merges into it in place (:func:`_merge_into`)."""
        held = self.mappings.get(id(element)) if self.on else None
        return held is not None and held is element

    def own_element(self, made: Any) -> None:
        """``made``, the element a `patch:` operation merged anew, is the block's, if a merge no memo
        holds made it. A nested element's old self is known by nothing (its merge records no
        ``was``), so nothing reads it again but the list that holds it, as with the nested list
        itself; what an element of the entity's own list was before a patch is known by its
        identity (:func:`_writing`), so it is merged into in place only where the block's records
        alone follow it, and let go of it first (:meth:`stand_in`)."""
        if self.on and isinstance(made, dict):
            self.mappings[id(made)] = made


_OWNED = _Owned()


def _take_citation(merged_in_place: dict[str, Any], made: Mapping[str, Any], merged: Mapping[str, Any]) -> None:
    """Make ``merged_in_place`` (a mapping a patch merged into in place) what :func:`cite_patched`
    made of its ``merged`` view: a nested mapping cited anew takes its place, and where the
    citation was made anew, its fields come after the facts, as they print."""
    for key, value in made.items():
        if key not in CITATION_FIELDS and merged_in_place.get(key) is not value:
            merged_in_place[key] = value  # a nested mapping cited anew
    if made is not merged:  # made anew, its citation after the facts
        for key in CITATION_FIELDS:
            merged_in_place.pop(key, None)
        merged_in_place.update((k, v) for k, v in made.items() if k in CITATION_FIELDS)


#: The fewest keys an element of an entity's own list has for its block's records to let go of it
#: (:meth:`_Owned.record`, :meth:`_Owned.stand_in`) and a later `patch:` of the block to merge into
#: it in place (:func:`_merge_into`); a smaller one is copied and held by the records, as before
#: round 32. Registering each record's places and standing a token in them cost more than the
#: copies of a small credit (`patched-elements`, 7-10% more CPU in round 32); what the records
#: hold of such copies is fewer than this many keys each, so linear in the entries. So too the
#: fewest fields an entity has for a later entry of its block to merge into it in place
#: (:meth:`_Owned.own_entity`, round 33): a card of a dozen fields is copied faster than the few
#: fields an entry writes are looked at one by one.
_IN_PLACE_FROM = 16


class _MergedAnew:
    """What the records of a block hold for an element of an entity's own list that a later
    `patch:` of the block merged anew (:meth:`_Owned.stand_in`): its identity, not its facts,
    which :func:`_writing` never reads (it reads what each entry wrote from its document)."""

    __slots__ = ()


def _validate_patched(
    resolved: Resolved, spec: CollectionSpec, entries: list[Entry], patched: dict[str, Span]
) -> Iterator[Diagnostic]:
    """Validate each entity a block's patches changed, once, as they left it: each part located in
    the patch that last wrote it. Validated after each patch, an entity patched n times was
    validated whole n times (2,000 patches appending to one card's list: 31 s)."""
    kind = resolved.family.slot_kind(spec.slot)
    for key, base in patched.items():
        found = _find(spec, entries, key)
        if found is not None:
            entry = entries[found]
            cited = _cited_by_writers(entry.origin, entry.raw, resolved.layers)  # once, its patches all applied
            if cited is not entry.raw:
                entry = Entry(entry.origin, cited)
                _put(spec, entries, found, entry)
            yield from resolved.budget.judge(kind, spec.path, entry.raw, entry.origin.place, base)


def _list_part(path: NodePath) -> NodePath:
    """The path of the list a list operation changes (the part before the operation's name)."""
    for i, part in enumerate(path):
        if part in LIST_OPERATIONS:
            return path[:i]
    return path


def _render(path: NodePath) -> str:
    return ".".join(str(p) for p in _list_part(path))


def _entry_path(path: NodePath) -> str:
    """``path`` as schema diagnostics write it: `overlay.nations.remove[0]`."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" if i else str(p) for i, p in enumerate(path))


#: The keys that cite where a fact comes from.
CITATION_FIELDS = ("rule", "source")


def citation_at(document: Document, path: NodePath) -> str | None:
    """The citation (`rule:`, `source:`) written on the mapping at ``path`` of ``document``."""
    node: Any = document.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return citation_of(node)


def citation_of(node: Any) -> str | None:
    """The citation (`rule:`, `source:`) written on the mapping ``node`` (None: it cites nothing)."""
    if not isinstance(node, dict):
        return None
    parts = []
    for key in CITATION_FIELDS:
        value = node.get(key)
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        if isinstance(value, (str, int, float)) and str(value).strip():
            parts.append(f"{key}{' ' if key == 'rule' else ': '}{' '.join(str(value).split())}")
    return "; ".join(parts) or None


def cited_nodes(document: Document, path: NodePath, name: str, *, inside: bool = False) -> list[Mapping[str, Any]]:
    """The mappings whose `rule:` and `source:` cite the field ``name`` of the entity (or overlay
    entry) at ``path``, as :func:`field_citation` reads them: the field's own, else (``inside``) those
    of what its list operations wrote, else the entity's; none where nothing cites it.

    Found once per document, path and field: a list setting's list operations are one change of
    the setting, and each of its n changed elements (a diff's line, a sheet's row) asked for its
    citation, each walking all n operations (a variant patching 2,000 rules of a setting: 4 million
    steps)."""
    return list(_found(document, path, name, inside)[0])


def cited_texts(document: Document, path: NodePath, name: str, *, inside: bool = False) -> tuple[str, ...]:
    """The citations of :func:`cited_nodes`, in words (:func:`citation_of`), each once, in order."""
    return _found(document, path, name, inside)[1]


def _found(
    document: Document, path: NodePath, name: str, inside: bool
) -> tuple[tuple[Mapping[str, Any], ...], tuple[str, ...]]:
    kept = _citations_found(document)
    key = (path, name, inside)
    found = kept.get(key)
    if found is None:
        nodes = tuple(_cited_nodes(document, path, name, inside=inside))
        found = kept[key] = (nodes, tuple(dict.fromkeys(str(citation_of(node)) for node in nodes)))
    return found


@memo.by_identity(256)
def _citations_found(
    document: Document,
) -> dict[tuple[NodePath, str, bool], tuple[tuple[Mapping[str, Any], ...], tuple[str, ...]]]:
    """What :func:`cited_nodes` found in ``document`` (which is never changed once read)."""
    return {}


def _cited_nodes(document: Document, path: NodePath, name: str, *, inside: bool) -> list[Mapping[str, Any]]:
    own = _citing(document, (*path, name))
    if own is not None:
        return [own]
    if inside:
        found = list(_citing_inside(_node_at(document, (*path, name)), ()))
        if found:
            return found
    if path == SETTINGS_PATH or (len(path) == 3 and path[:2] == SETTINGS_PATH and path[2] in ("replace", "add")):
        cited = settings_citation(document, name)
        if cited is not None:
            return [cited]
    entity = _citing(document, path)
    return [entity] if entity is not None else []


#: Where a variant's manifest cites the settings it writes that take no citation of their own.
SETTINGS_CITATIONS = "citations"


def settings_citation(document: Document, name: str) -> Mapping[str, Any] | None:
    """The citation of the setting ``name`` in `overlay.settings.citations` of a variant's
    manifest: where a setting that takes no `rule:` or `source:` of its own (a list of ids, a
    number) is cited, as a mapping setting is beside its fields; None where it has none."""
    return _citing(document, (*SETTINGS_PATH, SETTINGS_CITATIONS, name))


def _citing_inside(value: Any, at: NodePath) -> Iterator[Mapping[str, Any]]:
    """The mappings strictly inside ``value`` (at ``at`` in it) that cite, in document order (as
    their first citation key comes), none in a list operation's selector. Read from the data, not
    from the document's table of positions, which a build lets go of before its sheets."""
    if isinstance(value, dict):
        cites = bool(at) and not _in_selector(at) and citation_of(value) is not None
        for key, item in value.items():
            if cites and key in CITATION_FIELDS:
                cites = False  # told once, where its first citation key is
                yield value
            if isinstance(item, (dict, list)):
                yield from _citing_inside(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                yield from _citing_inside(item, (*at, index))


def _node_at(document: Document, path: NodePath) -> Any:
    node: Any = document.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _citing(document: Document, path: NodePath) -> Mapping[str, Any] | None:
    """The mapping at ``path`` of ``document`` where it cites (`rule:`, `source:`), else None."""
    node = _node_at(document, path)
    return node if isinstance(node, dict) and citation_of(node) is not None else None


def _in_selector(path: NodePath) -> bool:
    """Whether ``path`` (inside a patched field) is in a selector of a list operation: a `where:`,
    or an element of `remove:`. Its `rule:` names the element changed (`where: {rule: "32.241"}`);
    it is not the citation of the change."""
    return any(
        part == "where" or (part == "remove" and i + 1 < len(path) and isinstance(path[i + 1], int))
        for i, part in enumerate(path)
    )


def holds_a_fact(value: Any) -> bool:
    """Whether a value a patch writes states a fact: not `null` (the base's fact deleted), an
    `{unknown: why}` (no fact: why the sources give none), list operations that only `remove`
    elements, or a mapping that writes only a `note` (and citations) into the base's.

    >>> [holds_a_fact(v) for v in (12, [], {}, False, {"count": 6}, {"remove": [1], "append": [2]})]
    [True, True, True, True, True, True]
    >>> [holds_a_fact(v) for v in (None, {"unknown": "why"}, {"remove": [1]}, {"note": "n", "rule": "4.61"})]
    [False, False, False, False]
    >>> deleting = {"events": {"remove": [{"event": "flood"}]}}
    >>> writing = {"threshold": 1700}
    >>> [holds_a_fact({"patch": [{"where": {"id": 1}, "with": change}]}) for change in (deleting, writing)]
    [False, True]
    """
    if value is None:
        return False
    if not isinstance(value, dict) or not value:
        return True
    if only_unknown(value):
        return False
    if is_list_operations(value):
        return any(_operation_writes(operation, items) for operation, items in value.items())
    return any(holds_a_fact(v) for k, v in value.items() if k not in CITATION_FIELDS and k != "note")


def _operation_writes(operation: str, items: Any) -> bool:
    """Whether a list operation writes a fact: elements appended, inserted or put in another's
    place, or a `with:` that writes one into an element; not a removal, nor a `with:` that only
    deletes (`with: {events: {remove: [...]}}`, `with: {events: null}`, as V006's hint writes)."""
    if operation == "remove" or not isinstance(items, list):
        return False
    if operation == "append":
        return bool(items)
    if operation == "insert":
        return any(isinstance(entry, dict) and entry.get("items") for entry in items)
    changes = [entry.get("with") for entry in items if isinstance(entry, dict)]
    if operation == "replace":
        return any(change is not None for change in changes)
    return any(holds_a_fact(change) for change in changes)


#: What still writes facts in a field: an overlay entry (None: the field's definition), the paths,
#: inside what it wrote for the field, of the elements of a list it wrote that are still there
#: (``((),)``: what it wrote, whole), and those elements themselves. An element is never changed
#: in place (:func:`_list_operations`), so the list a later change leaves holds the very element
#: where it holds the writer's fact; none (``()``): not followed element by element.
Writer = tuple[Origin | None, tuple[NodePath, ...], tuple[Any, ...]]


def _log_of(origin: Origin, name: str) -> tuple[WriterLog, Any] | None:
    """The log of the field ``name`` of what was read from ``origin``, and the field's value as its
    last change left it (None: no log was kept)."""
    found = record_of(origin.writers, name)
    return None if found is None else (found[1], found[2])


def _unlogged(origin: Origin, name: str, definition: Any) -> tuple[Writer, ...]:
    """What writes the field ``name`` of what was read from ``origin`` where no log of it was kept
    (``definition``: its definition's value of the field): its last changer, else the definition."""
    last = record_of(origin.changes, name)
    if last is not None:
        return ((last[1], ((),), ()),)
    if isinstance(definition, list):
        return ((None, tuple((k,) for k in range(len(definition))), tuple(definition)),)
    return ((None, ((),), ()),)


def _records(origin: Origin, name: str, definition: Any) -> tuple[Writer, ...]:
    """What writes the field ``name`` of what was read from ``origin`` (``definition``: its
    definition's value of the field), as its log says (:func:`_writing`), else its last changer,
    else the definition."""
    logged = _log_of(origin, name)
    return _unlogged(origin, name, definition) if logged is None else _writing(*logged, name)


def field_writers(origin: Origin, name: str) -> tuple[tuple[Origin | None, tuple[NodePath, ...]], ...]:
    """What still writes a fact in the field ``name`` of what was read from ``origin``, earliest
    first (None: the definition), each with the paths of the elements it wrote that are still
    there: the definition and the overlay entries whose facts a later change left, not the last
    changer alone (which may only have deleted: a list's `remove:`). Empty where the field holds
    no fact any more (a `null`, an `{unknown: why}`)."""
    return tuple((writer, paths) for writer, paths, _ in _records(origin, name, None))


def _wrote(moved: Mapping[NodePath, NodePath], prefix: NodePath) -> dict[int, NodePath]:
    """From a merge's ``moved`` (where list operations wrote each element, :func:`merge_patch`), the
    index of each element of the list at ``prefix`` they wrote, and the path of what wrote it in
    the list's operations: an appended, inserted or replacing element's own, a `patch:` entry's."""
    found: dict[int, NodePath] = {}
    n = len(prefix)
    for key, path in moved.items():
        index = key[n] if len(key) > n else None
        if key[:n] != prefix or not isinstance(index, int) or path[:n] != prefix:
            continue
        written = path[n:]
        if len(key) == n + 1 or index not in found:
            found[index] = written[:2] if written[:1] == ("patch",) else written
    return found


def _was(was: Mapping[NodePath, Any], prefix: NodePath) -> dict[int, Any]:
    """From a merge's ``was``, each element of the list at ``prefix`` a `patch:` merged into, by
    its index in the result, as it was before."""
    n = len(prefix)
    return {
        index: element
        for key, element in was.items()
        if len(key) == n + 1 and key[:n] == prefix and isinstance(index := key[n], int)
    }


def writers_after(
    prior: WriterLog | tuple[Writer, ...],
    name: str,
    at: Origin,
    merged: Any,
    present: bool,
    wrote: Mapping[int, NodePath],
    was: Mapping[int, Any] | None = None,
    *,
    owned: bool = False,
) -> WriterLog:
    """The log of the field ``name`` once the overlay entry ``at`` has changed it into ``merged``
    (``present``: the field is still there), from its log before (``prior``; or what wrote it
    where none was kept); ``wrote``: the elements of the list ``at``'s list operations wrote, by
    index (:func:`_wrote`). What this change takes from the writers before it is noted, not done:
    it is done once, for the log's last change, when the field's writers are asked for
    (:func:`_writing`). Q009's predicate decides what writes: a change that writes no fact (a
    `null`, a `remove:`, an `{unknown: why}`) is no writer, and the writers before it keep the
    facts it left; ``was``: each element its `patch:` operations merged into, by index, as it was,
    so that the writer of the element keeps the fields the patch left (not the whole element the
    later entry's). ``owned``: the merge is one no memo holds, its block's (:data:`_OWNED`): the
    records of the block let go of an element a later patch of it merged anew (:meth:`_Owned.stand_in`)."""
    before, start = (prior, ()) if isinstance(prior, WriterLog) else (None, prior)
    if not present or (isinstance(merged, dict) and only_unknown(merged)):
        return WriterLog(before, start, None, cut=True, merge=None)  # no fact left
    value = _node_at(at.document, (*at.path, name))
    operations = is_list_operations(value)
    # what may have gone: a mapping's keys (a list's elements are each claimed by its writer's record)
    merge = value if isinstance(merged, dict) and isinstance(value, dict) and not operations else None
    mine: Writer | None = None
    whole: tuple[Origin, list[Any]] | None = None
    if holds_a_fact(value):
        mine = (at, ((),), ())
        if isinstance(merged, list) and operations and wrote:
            indices = sorted(i for i in wrote if i < len(merged))
            mine = (at, tuple(wrote[i] for i in indices), tuple(merged[i] for i in indices))
        elif isinstance(merged, list) and isinstance(value, list):
            # each element at its index, made when asked (:attr:`WriterLog.mine`): for `rule:`, the
            # merged list is every section cited so far, not the entry's own
            mine, whole = None, (at, merged)
    # element by element, or key by key: what it left is still theirs; else it wrote the field whole
    cut = (mine is not None or whole is not None) and not (
        operations or (isinstance(value, dict) and isinstance(merged, dict))
    )
    patched: list[list[Any]] = []
    if was and isinstance(merged, list) and operations:
        for index, old in sorted(was.items()):
            path = wrote.get(index)
            entry = _node_at(at.document, (*at.path, name, *path)) if path and path[0] == "patch" else None
            if index < len(merged) and isinstance(entry, dict):
                now = merged[index]
                old = _OWNED.stand_in(old) if owned and old is not now else old
                patched.append([now, old, entry.get("with"), entry.get("where")])
    log = WriterLog(before, start, mine, cut=cut, merge=merge, whole=whole)
    log.patched = patched
    if owned:
        _OWNED.record(log)
    return log


def _writing(log: WriterLog, value: Any, name: str) -> tuple[Writer, ...]:
    """What still writes the field ``name`` after the last change of ``log`` (``value``: the field's
    value it left), earliest first: each change's writer with the facts the changes after it left,
    found in one pass from the last change back (a list's elements looked up in ``value``, an
    element never coming back once gone; a mapping's keys in what the later changes merged, as one
    tree), and kept. An element a later `patch:` merged into is its earlier writer's still, in the
    fields the patches' `with:` left (each such fact at its path), and the patch's in what it wrote.
    What the changes took of the elements the entries wrote is kept beside (:attr:`WriterLog.lost`)."""
    if log.found:
        return log.found[0]
    here: dict[int, int] = {}
    if isinstance(value, list):
        for element in value:
            here[id(element)] = here.get(id(element), 0) + 1
    # elements a later `patch:` merged into, by the identity of the element as it was: the element
    # it kept in the list now, and what the patches' `with:`s and `where:`s wrote, as one (_Chain)
    standing: dict[int, tuple[Any, Any, _Chain]] = {}
    later = _Merged()
    found: list[Writer] = []
    lost: list[tuple[Origin, NodePath]] = []

    def left(record: Writer) -> None:
        kept: Writer | None = record
        if record[2] and isinstance(value, list):
            # every record claims its elements, the latest first, dropped or not: the reader gives
            # equal ids one object, so an id a later entry wrote again is that entry's
            kept = _left(record, here, standing, name, lost)
        if kept is not None and later.any:
            if kept[0] is not None and kept[2]:
                lost.extend((kept[0], path) for path in kept[1])  # a list's elements, the field a mapping now
            kept = _not_written_over(kept, name, later)
        if kept is not None:
            found.append(kept)

    node: WriterLog | None = log
    while node is not None:
        became: list[tuple[Any, Any, Any, Any, _Chain | None]] = []
        for now, was, with_, where in node.patched:
            if here.get(id(now), 0) > 0:
                became.append((was, now, with_, where, None))
            elif (derived := standing.get(id(now))) is not None:
                derived[2].users += 1
                became.append((was, derived[1], with_, where, derived[2]))
        if node.mine is not None:
            left(node.mine)  # reads the chains of this change's own elements before they grow
        for was, now, with_, where, after in became:
            standing[id(was)] = (was, now, _Chain.before(after, with_, where))
        if node.cut:
            break
        if node.merge is not None:
            later.add(node.merge)
        if node.before is None:
            for record in reversed(node.start):
                left(record)
        node = node.before
    found.reverse()
    log.found.append(tuple(found))
    log.lost.extend(lost)
    return log.found[0]


def _not_written_over(record: Writer, name: str, later: _Merged) -> Writer | None:
    """``record`` with the facts it wrote into the mapping field ``name`` that the patches merged
    into it key by key after it (``later``) neither wrote over nor deleted, each at its path in
    what it wrote (None where none is left). The definition always stands: where no overlay
    entry's facts are left, the field is cited by the definition's. A list's elements are gone:
    the field is a mapping now."""
    writer, paths, elements = record
    if writer is None:
        return record
    if elements:
        return None
    leaves = list(_fact_leaves(_node_at(writer.document, (*writer.path, name)))) if paths == ((),) else list(paths)
    left = tuple(leaf for leaf in leaves if not later.writes_over(leaf))
    if not left:
        return None
    return record if len(left) == len(leaves) else (writer, left, ())


class _Merged:
    """The patches merged key by key into a mapping field after some change, as one tree: which
    paths they wrote a whole value at (or deleted), and which they merged a mapping into, so
    that whether any of them wrote over a fact is one walk down its path, not one per patch
    (n patches each asked of every fact the patches before them wrote was the square of them)."""

    __slots__ = ("children", "mapping", "whole")

    def __init__(self) -> None:
        self.children: dict[Any, _Merged] = {}
        self.whole = False  # a patch wrote a whole value here (a `null` too): nothing below is left
        self.mapping = False  # a patch merged a mapping here: a value written here whole is gone

    @property
    def any(self) -> bool:
        return self.mapping

    def add(self, patch: Mapping[str, Any]) -> None:
        """Add a patch merged key by key at this node."""
        self.mapping = True
        for key, item in patch.items():
            child = self.children.get(key)
            if child is None:
                child = self.children[key] = _Merged()
            if _merged_key_by_key(item):
                child.add(item)
            elif not is_list_operations(item):
                child.whole = True  # list operations change a list in part

    def writes_over(self, leaf: NodePath) -> bool:
        """Whether a patch added writes over (or deletes) the value at ``leaf``: it wrote a whole
        value at or above it, or merged a mapping where it stood."""
        node = self
        for part in leaf:
            child = node.children.get(part)
            if child is None:
                return False
            if child.whole:
                return True
            node = child
        return node.mapping


def overwritten(origin: Origin, name: str) -> Iterator[tuple[Origin, NodePath]]:
    """What each overlay entry that changed the field ``name`` of what was read from ``origin``
    (:func:`changers`) wrote that a later one wrote over or deleted, each as the entry and the
    path in its document: the field it wrote, where a later entry wrote the field whole (a value,
    a `null`, an `{unknown: why}`), or the keys of a mapping it merged that later entries wrote
    over (the field, where they wrote over all of them); and, as the field's writer records say
    (:func:`field_writers`, :attr:`WriterLog.lost`), each element of a list it wrote that a later
    entry removed or wrote whole over, and what a later `patch:` list operation wrote over in one.
    An element an entry appended and a later one removed (or patched to a known value) held its
    unknowns (Q006, Q007, `UNKNOWN_FACTS`) still: the entries' documents were read, not what the
    records say is left of what each wrote."""
    changes = changers(origin, name)
    whole_after = False
    later = _Merged()
    for change in reversed(changes):
        entry = _node_at(change.document, change.path)
        if not isinstance(entry, dict) or name not in entry:
            continue
        value = entry[name]
        field_path = (*change.path, name)
        if whole_after:
            yield change, field_path
        elif later.any and _merged_key_by_key(value):
            leaves = list(_fact_leaves(value))
            gone = [leaf for leaf in leaves if later.writes_over(leaf)]
            if gone and len(gone) == len(leaves):
                yield change, field_path
            else:
                yield from ((change, (*field_path, *leaf)) for leaf in gone)
        if _merged_key_by_key(value):
            later.add(value)
        elif not is_list_operations(value):
            whole_after = True
    logged = _log_of(origin, name)
    if logged is not None:
        log, value = logged
        _writing(log, value, name)
        yield from ((writer, (*writer.path, name, *path)) for writer, path in log.lost)


def _merged_key_by_key(value: Any) -> bool:
    """Whether a patch merges ``value`` into what is there key by key (a mapping, not list
    operations nor an `{unknown: why}`, both written whole)."""
    return isinstance(value, dict) and not is_list_operations(value) and not only_unknown(value)


def _fact_leaves(value: Any, at: NodePath = ()) -> Iterator[NodePath]:
    """The paths, inside ``value`` as a patch writes it, of the facts it states (:func:`holds_a_fact`):
    each value it writes whole (a scalar, a list, list operations), not its mappings' citations
    and notes, nor a `null` or an `{unknown: why}` (no fact)."""
    if _merged_key_by_key(value) and value:
        for key, item in value.items():
            if key not in CITATION_FIELDS and key != "note":
                yield from _fact_leaves(item, (*at, key))
    elif holds_a_fact(value):
        yield at


class _Over:
    """What patches merged into one value wrote over in it, as one tree: :func:`written_over` of
    each of them, their union found in one walk of the value, not one per patch (each of n entries
    patching an element in turn asked of every later patch was the square of n, round 27). At each
    path: whether a patch wrote a whole value there (a scalar, a list, a `null`, an `{unknown: why}`),
    whether one merged a mapping there (and the tree of its keys), and the list operations written there."""

    __slots__ = ("children", "mapping", "operations", "over_added", "rank", "whole")

    def __init__(self, rank: int = 0) -> None:
        self.children: dict[Any, _Over] = {}
        #: Its place among its parent's children (the order the patches first wrote their keys).
        self.rank = rank
        self.whole = False
        self.mapping = False
        #: The list operations written here, as a list's (:func:`_written_over_list`) and as
        #: operations' (:func:`_written_over_operations`) are asked of them.
        self.operations = _Selecting(repr)
        self.over_added = _Selecting(_what_operations_take)

    def add(self, patch: Any) -> None:
        """Add a patch merged here (:func:`written_over`'s cases, in its order)."""
        if is_list_operations(patch):
            if not set(patch) <= {"insert", "append"}:  # those write over nothing, in a list or in operations
                self.operations.add(patch)
                self.over_added.add(patch)
        elif isinstance(patch, dict) and not only_unknown(patch):
            self.mapping = True
            for key, value in patch.items():
                child = self.children.get(key)
                if child is None:
                    child = self.children[key] = _Over(len(self.children))
                child.add(value)
        else:
            self.whole = True

    def over(self, base: Any, at: NodePath) -> Iterator[NodePath]:
        """The paths (from ``at``, the path of ``base``) the patches added wrote over in ``base``,
        each of :func:`written_over`'s for one of them (a path two wrote over may come twice)."""
        if self.whole:
            yield at
        if isinstance(base, list):
            for operations in self.operations.naming(base):
                yield from _written_over_list(base, operations, at)
        elif is_list_operations(base):
            for operations in self.over_added.naming(_added_elements(base)):
                yield from _written_over_operations(base, operations, at)
        if self.mapping:
            if isinstance(base, dict) and not only_unknown(base):
                # the keys of ``base`` the patches wrote, in the order the patches first wrote them: a
                # key ``base`` lacks was added, over nothing (n entries each adding a key of its own
                # to one element asked each entry's element of every key written after it, the
                # square of n, and told each as written over: V012 on a key no entry wrote again)
                children = self.children
                if len(base) < len(children):
                    keys = sorted((key for key in base if key in children), key=lambda key: children[key].rank)
                else:
                    keys = [key for key in children if key in base]
                for key in keys:
                    yield from children[key].over(base[key], (*at, key))
            else:
                yield at


class _Selecting:
    """The list operations that patches wrote at one path, in order, each found by the elements its
    selectors can name (:func:`_selects`): what they wrote over in a list, or in the elements an
    earlier entry's list operations added, is asked of those that name one of its elements, not of
    every one. Each entry patching an element's nested list was asked of every later entry's
    operations, whatever they named: n entries appending to and removing from one nested list in
    turn were n² walks (round 28). Operations ``same`` tells equal to some before them are kept
    once: they write over what those did, and the paths :meth:`_Over.over` gives are read as a set."""

    __slots__ = ("always", "by_key", "same", "seen", "written")

    def __init__(self, same: Callable[[Mapping[str, Any]], str]) -> None:
        self.same = same
        #: Each entry's operations, in order (equal ones once).
        self.written: list[Mapping[str, Any]] = []
        self.seen: set[str] = set()
        #: By each selector shape, and each key an element has in it: the operations (their places
        #: in ``written``, in order) with a selector of that key.
        self.by_key: dict[_Shape, dict[Any, list[int]]] = {}
        #: The operations with a selector that can only be compared with every element.
        self.always: list[int] = []

    def __repr__(self) -> str:
        return repr(self.written)

    def add(self, operations: Mapping[str, Any]) -> None:
        written = self.same(operations)
        if written in self.seen:
            return
        self.seen.add(written)
        place = len(self.written)
        self.written.append(operations)
        for name in ("remove", "replace", "patch"):
            entries = operations.get(name)
            for entry in entries if isinstance(entries, list) else ():
                if name != "remove":
                    if not isinstance(entry, dict) or "where" not in entry:
                        continue  # no selector: it names nothing (nor is it applied)
                    entry = entry["where"]
                shape = _selector_shape(entry)
                if shape is None:
                    found = self.always
                else:
                    key = (entry,) if shape == "value" else tuple(entry[field] for field in shape)
                    found = self.by_key.setdefault(shape, {}).setdefault(key, [])
                if not found or found[-1] != place:
                    found.append(place)

    def naming(self, elements: Iterable[Any]) -> list[Mapping[str, Any]]:
        """The operations, in order, with a selector that may name one of ``elements``: any other
        names none of them, and writes over nothing of them."""
        places = set(self.always)
        if self.by_key:
            for element in elements:
                for shape, keys in self.by_key.items():
                    key = _Elements._key(shape, element)
                    if key is not None and (found := keys.get(key)) is not None:
                        places.update(found)
        return [self.written[place] for place in sorted(places)]


def _what_operations_take(operations: Mapping[str, Any]) -> str:
    """``operations`` as what they take of the elements earlier operations added tells them apart
    (:func:`_written_over_operations`): their selectors, and where each `patch:` writes (not the
    values it writes, nor what a `replace:` puts in)."""
    kept: dict[str, Any] = {}
    for name in ("remove", "replace", "patch"):
        entries = operations.get(name)
        if not isinstance(entries, list) or name == "remove":
            kept[name] = entries
            continue
        kept[name] = [
            {"where": entry["where"], "with": _where_written(entry["with"]) if name == "patch" else None}
            if isinstance(entry, dict) and "where" in entry and "with" in entry
            else None
            for entry in entries
        ]
    return repr(kept)


def _where_written(patch: Any) -> Any:
    """What :func:`written_over` reads of ``patch``: the keys it merges into, and the list
    operations it writes, each value written whole only as such."""
    if is_list_operations(patch):
        return ("operations", patch)
    if isinstance(patch, dict) and not only_unknown(patch):
        return [(key, _where_written(value)) for key, value in patch.items()]
    return "whole"


def _added_elements(operations: Mapping[str, Any]) -> list[Any]:
    """The elements list operations add to their list (append, insert, or put in place of another)."""
    added = list(operations.get("append") or [])
    for entry in operations.get("insert") or []:
        if isinstance(entry, dict):
            added += entry.get("items") or []
    for entry in operations.get("replace") or []:
        if isinstance(entry, dict) and "with" in entry:
            added.append(entry["with"])
    return added


class _Chain:
    """The `patch:` list operations merged into an element after its writer, as one: this one's
    `with:` and `where:` (``patch``) and the later ones (``after``), and, held once for them all
    (:meth:`state`), their `with:`s merged key by key (what they wrote over or deleted of a fact,
    :class:`_Merged`), the fields their `where:`s named the element by, and what each wrote over
    (:class:`_Over`). A link's state is grown from the later link's, taken from it in place where
    that one has no other link made from it: an element patched by n entries in turn was followed
    by each entry's record through the chain of every later patch, merging each again, the square
    of n (round 27). A link whose state was taken, read after all, makes it again from its chain."""

    __slots__ = ("_state", "after", "patch", "users")

    def __init__(self, patch: tuple[Any, Any], after: _Chain | None) -> None:
        self.patch = patch
        self.after = after
        self._state: tuple[_Merged, set[Any], _Over] | None = None
        self.users = 0  # the links made from it (an earlier patch of its element each)

    @staticmethod
    def before(after: _Chain | None, with_: Any, where: Any) -> _Chain:
        """The link of a patch (its ``with_`` and ``where``) with ``after`` the later ones."""
        link = _Chain((with_, where), after)
        if after is not None and after.users == 1 and after._state is not None:
            link._state, after._state = after._state, None  # taken: no other link grows from it
        else:
            link._state = (_Merged(), set(), _Over()) if after is None else _Chain._made(after)
        _Chain._add(link._state, with_, where)
        return link

    def state(self) -> tuple[_Merged, set[Any], _Over]:
        """What this patch and the later ones wrote, as one (its `with:`s merged, its `where:`s'
        fields, what each wrote over)."""
        return self._state if self._state is not None else _Chain._made(self)

    @staticmethod
    def _made(chain: _Chain) -> tuple[_Merged, set[Any], _Over]:
        made: tuple[_Merged, set[Any], _Over] = (_Merged(), set(), _Over())
        link: _Chain | None = chain
        while link is not None:
            _Chain._add(made, *link.patch)
            link = link.after
        return made

    @staticmethod
    def _add(state: tuple[_Merged, set[Any], _Over], with_: Any, where: Any) -> None:
        merged, naming, over = state
        if _merged_key_by_key(with_):
            merged.add(with_)
        if isinstance(where, dict):
            naming.update(where)
        over.add(with_)


def _left(
    record: Writer,
    here: dict[int, int],
    standing: dict[int, tuple[Any, Any, _Chain]] | None = None,
    name: str = "",
    lost: list[tuple[Origin, NodePath]] | None = None,
) -> Writer | None:
    """``record`` with the elements it wrote that are still in the list and no later record
    claimed (``here``: how many of each, by identity, are left to claim; those it keeps are taken
    from it); None where none is. Equal ids are one object (the reader's): an element is its
    latest writer's, counted rather than found, so that an id a later entry removed and wrote
    again, or replaced with itself, is no longer the first entry's. An element a later `patch:`
    merged into (``standing``) is kept in the facts it wrote that the patches left, each at its
    path, as the element the list holds now. What it loses is added to ``lost`` (a writer's, not
    the definition's): an element no longer there, at its path; what the patches wrote over in
    one they merged into, at the paths in it they wrote over (:func:`written_over`)."""
    writer, paths, elements = record
    if not elements:
        return record  # written whole, or not followed element by element: it stands
    kept = []
    for path, element in zip(paths, elements, strict=True):
        if here.get(id(element), 0) > 0:
            here[id(element)] -= 1
            kept.append((path, element))
        elif standing and (derived := standing.pop(id(element), None)) is not None:
            kept += [(leaf, derived[1]) for leaf in _patched_left(writer, name, path, element, derived[2])]
            if lost is not None and writer is not None:
                lost.extend((writer, over) for over in _patched_over(writer, name, path, derived[2]))
        elif lost is not None and writer is not None:
            lost.append((writer, path))
    if not kept:
        return None
    return writer, tuple(path for path, _ in kept), tuple(element for _, element in kept)


def _patched_left(writer: Origin | None, name: str, path: NodePath, element: Any, patches: _Chain) -> list[NodePath]:
    """The paths of the facts ``writer`` wrote at ``path`` of the list field ``name`` (the
    ``element``; a `patch:` operation's: its `with:`) that the later ``patches`` neither wrote
    over nor named the element by (a `where:`'s fields are no fact of what it patched)."""
    written: Any = element
    prefix = path
    if writer is not None:
        if path[:1] == ("patch",) and len(path) == 2:
            prefix = (*path, "with")
        written = _node_at(writer.document, (*writer.path, name, *prefix))
    merged, naming, over = patches.state()
    left = [leaf for leaf in _fact_leaves(written) if not (leaf and leaf[0] in naming) and not merged.writes_over(leaf)]
    nested = [leaf for leaf in left if is_list_operations(_value_at(written, leaf))]
    if nested:  # list operations it wrote into a nested list: what later ones took of what they added
        taken = set(over.over(written, ()))
        gone = {leaf for leaf in nested if not _operations_left(_value_at(written, leaf), taken, leaf)}
        left = [leaf for leaf in left if leaf not in gone]
    return [(*prefix, *leaf) for leaf in left]


def _value_at(value: Any, path: NodePath) -> Any:
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _operations_left(operations: Mapping[str, Any], taken: set[NodePath], at: NodePath) -> bool:
    """Whether list operations an entry wrote at ``at`` still state a fact once later list
    operations took (``taken``: :func:`written_over`'s paths in what the entry wrote) the elements
    they removed or replaced of those it added: a `patch:` entry's fields, or an element it added
    that none took whole (a later patch of one of its fields leaves it the others)."""
    if operations.get("patch"):
        return True
    added = [(*at, "append", index) for index in range(len(operations.get("append") or []))]
    for index, entry in enumerate(operations.get("insert") or []):
        items = entry.get("items") if isinstance(entry, dict) else None
        added += [(*at, "insert", index, "items", k) for k in range(len(items or []))]
    added += [(*at, "replace", index, "with") for index in range(len(operations.get("replace") or []))]
    return any(path not in taken for path in added)


def _patched_over(writer: Origin, name: str, path: NodePath, patches: _Chain) -> list[NodePath]:
    """The paths of what the later ``patches`` wrote over (or deleted) in what ``writer`` wrote at
    ``path`` of the list field ``name`` (an element; a `patch:` operation's: its `with:`), each
    once (n later patches each writing over one field were n records of it, the square of n in
    memory), as :func:`_patched_left` reads what they left."""
    prefix = (*path, "with") if path[:1] == ("patch",) and len(path) == 2 else path
    written = _node_at(writer.document, (*writer.path, name, *prefix))
    return list(dict.fromkeys(patches.state()[2].over(written, prefix)))


def cited_writers(origin: Origin, name: str) -> list[tuple[Origin, list[Mapping[str, Any]]]] | None:
    """Each overlay entry whose facts the field ``name`` (of what was read from ``origin``) still
    holds, earliest first, with the mappings that cite those facts (empty: it cites nothing, an
    uncited fact); none where only its definition's facts remain; None where it holds no fact (a
    deletion writes none, and is cited by nothing: it is never an uncited fact).

    The one answer to "which patch wrote this, and how is it cited": Q009 reports the entries
    that cite nothing, `diff` cites a value by the entry that wrote it, and `export`'s
    `field_sources`, the packages' ENTITY_FIELD_SOURCES and the sheets cite the field by them.
    Not the field's last changer, which may only have deleted (a list's `remove:`), nor have
    written over every fact of an earlier entry (an append after an append, a key merged into a
    mapping beside the keys another entry wrote)."""
    writers = field_writers(origin, name)
    if not writers:
        return None
    return [(writer, _writer_nodes(writer, name, paths)) for writer, paths in writers if writer is not None]


def element_citations(origin: Origin, name: str) -> dict[int, list[list[Mapping[str, Any]] | None]]:
    """For each element of the list field ``name`` (of what was read from ``origin``) that an
    overlay entry wrote and that field still holds, by the element's identity, the mappings citing
    what that entry wrote of it (as :func:`cited_writers` cites the entry's facts; empty: it cites
    nothing), one list per copy of the element the field holds, its writers' earliest first (None:
    a copy of the definition's, which the field's citation cites): `diff` cites an element with no
    citation of its own by the entry that wrote it, not by every entry whose facts the field holds.
    The reader gives equal ids one object, so that an id two entries each appended is one object
    twice in the list: each copy is its own writer's, in the list's order, where every copy but
    the definition's was appended (an entry's copy then comes after those of the entries before
    it); where one was inserted or written in place, which copy is whose is not known, and the
    field's citation cites them all (None each), as it cites an element some copy of which no
    record names (a list written whole holds it too), which is left out."""
    found: dict[int, list[list[Mapping[str, Any]] | None]] = {}
    placed: set[int] = set()  # the elements a copy of which an entry wrote elsewhere than at the end
    for writer, paths, elements in _records(origin, name, None):
        if not elements:
            continue  # written whole, or not followed element by element
        for path, element in zip(paths, elements, strict=True):
            if writer is not None and path[:1] != ("append",):
                placed.add(id(element))
            found.setdefault(id(element), []).append(None if writer is None else _writer_nodes(writer, name, (path,)))
    for key in placed:
        if len(copies := found[key]) > 1:
            found[key] = [None] * len(copies)
    return found


def setting_written_whole(origin: Origin) -> tuple[Any, list[Mapping[str, Any]]] | None:
    """The value of a setting (whose resolution is ``origin``) that a variant's overlay wrote whole
    (`overlay.settings.replace`, `add`, or a patch of a setting the base lacks or that is no
    mapping), with the mappings citing it as :func:`cited_nodes` reads a field (its own citation,
    else those inside it); None where no overlay wrote it whole (it was patched, or read from a file)."""
    key = origin.path[-1] if origin.path else None
    if origin.changes or len(origin.path) < 3 or origin.path[:2] != SETTINGS_PATH or not isinstance(key, str):
        return None
    value = _node_at(origin.document, origin.path)
    return value, cited_nodes(origin.document, origin.path[:-1], key, inside=True)


def entity_written_whole(origin: Origin) -> tuple[str, list[Mapping[str, Any]]] | None:
    """The collection of an entity (whose definition is ``origin``) that a variant's overlay wrote
    whole (`overlay.<collection>.add`, `replace`), with the mappings citing it: its own citation,
    else those inside it; None where no overlay wrote it whole (a data file's, or its base's)."""
    path = origin.path
    if len(path) < 4 or path[0] != "overlay" or path[2] not in ("add", "replace") or not isinstance(path[1], str):
        return None
    own = _citing(origin.document, path)
    return path[1], [own] if own is not None else list(_citing_inside(_node_at(origin.document, path), ()))


def writer_nodes(origin: Origin, name: str) -> list[list[Mapping[str, Any]]] | None:
    """The mappings that cite what still writes the field ``name``, one list per overlay entry
    whose facts it still holds (:func:`cited_writers`, without the entries)."""
    found = cited_writers(origin, name)
    return None if found is None else [nodes for _, nodes in found]


def _writer_nodes(writer: Origin, name: str, paths: tuple[NodePath, ...]) -> list[Mapping[str, Any]]:
    """The mappings citing the parts at ``paths`` of what ``writer`` wrote for the field ``name``
    (each its own citation, else what cites inside it, else the nearest mapping around it inside
    the field: a key another entry left of a mapping merged key by key), else the entry's; for
    ``()``, the field's as :func:`cited_nodes` reads it."""
    if paths == ((),):
        return cited_nodes(writer.document, writer.path, name, inside=True)
    field = _node_at(writer.document, (*writer.path, name))
    found: list[Mapping[str, Any]] = []
    for path in paths:
        inside = list(_citing_inside(_node_at(writer.document, (*writer.path, name, *path)), path))
        found += inside or _citing_around(field, path)
    if not found:
        entry = _citing(writer.document, writer.path)
        if entry is None and writer.path == SETTINGS_PATH:
            entry = settings_citation(writer.document, name)  # a list setting's list operations
        found = [entry] if entry is not None else []
    return list({id(node): node for node in found}.values())


def _citing_around(field: Any, path: NodePath) -> list[Mapping[str, Any]]:
    """The nearest mapping strictly around the part at ``path`` of ``field`` (the field included)
    that cites, none in a list operation's selector; none where none does."""
    nodes = [field]
    for part in path[:-1]:
        node = nodes[-1]
        nodes.append(node.get(part) if isinstance(node, dict) else node[part] if _indexes(node, part) else None)
    for depth in range(len(nodes) - 1, -1, -1):
        node = nodes[depth]
        if isinstance(node, dict) and not _in_selector(path[:depth]) and citation_of(node) is not None:
            return [node]
    return []


def _indexes(node: Any, part: str | int) -> bool:
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _joined(nodes: Iterable[Mapping[str, Any]]) -> str | None:
    return "; ".join(dict.fromkeys(str(citation_of(node)) for node in nodes)) or None


def _written_citation(origin: Origin, name: str, definition: Origin) -> tuple[bool, str | None]:
    """Whether the field ``name`` holds a fact, and its citation: what still writes it, else what
    of its definition (read from ``definition``) it still holds."""
    writers = field_writers(origin, name)
    if not writers:
        return False, None
    changed = [(writer, paths) for writer, paths in writers if writer is not None]
    if changed:
        return True, _joined(node for writer, paths in changed for node in _writer_nodes(writer, name, paths))
    return True, _joined(node for _, paths in writers for node in _writer_nodes(definition, name, paths))


def field_citation(entry: Entry, name: str) -> str | None:
    """The citation of the field ``name`` of an entity: the overlay entries' whose facts it still
    holds (a house rule's `source:`, never the rulebook section the base cited for its old value),
    else the definition's. None where what writes it cites nothing, or nothing writes it."""
    return _written_citation(entry.origin, name, entry.origin)[1]


def field_citations(entry: Entry) -> dict[str, str | None]:
    """The citation of each field a variant's overlay changed that still holds a fact (what still
    writes it, maybe uncited: None)."""
    return origin_field_citations(entry.origin)


def origin_field_citations(origin: Origin) -> dict[str, str | None]:
    """:func:`field_citations` of the entity read from ``origin`` (a model entity's)."""
    found: dict[str, str | None] = {}
    for name, _ in origin.changes:
        if name in CITATION_FIELDS or name == "note":
            continue
        holds, cited = _written_citation(origin, name, origin)
        if holds:
            found[name] = cited
    return found


def setting_definition(origin: Origin) -> Origin:
    """The definition of a setting whose resolution is ``origin``: a list setting changed by list
    operations is recorded at the variant's change, its ``base`` the setting as it was."""
    while origin.base is not None and any(at.path == SETTINGS_PATH for _, at in origin.changes):
        origin = origin.base
    return origin


def _setting_written(resolved: Resolved, key: str, name: str) -> tuple[bool, str | None]:
    origin = resolved.setting_origins.get(key)
    if origin is None:
        return False, None
    if name == key and any(at.path == SETTINGS_PATH for _, at in origin.changes):
        defined = setting_definition(origin)  # a list setting: the list itself, under its key
        return _written_citation(origin, name, Origin(defined.document, defined.path[:-1]))
    return _written_citation(origin, name, origin)


def setting_field_citation(resolved: Resolved, key: str, name: str) -> str | None:
    """The citation of the field ``name`` of the setting ``key``, as :func:`field_citation` gives an
    entity's: the settings patches' whose facts it still holds, else the setting's definition's
    (the field's own citation, else the setting's). None where what writes it cites nothing."""
    return _setting_written(resolved, key, name)[1]


def setting_field_citations(resolved: Resolved) -> dict[str, dict[str, str | None]]:
    """For each setting a variant changed, the citation of each field it changed that still holds
    a fact, as :func:`field_citations` gives an entity's."""
    found: dict[str, dict[str, str | None]] = {}
    for key, origin in sorted(resolved.setting_origins.items()):
        fields: dict[str, str | None] = {}
        for name, _ in origin.changes:
            if name in CITATION_FIELDS or name == "note":
                continue
            holds, cited = _setting_written(resolved, key, name)
            if holds:
                fields[name] = cited
        if fields:
            found[key] = fields
    return found


_OPERATIONS: dict[str, Callable[..., Iterator[Diagnostic]]] = {
    "add": _add,
    "replace": _replace,
    "remove": _remove,
    "patch": _patch,
}


#: The list operations a patch may write in place of a list: ``{remove: [...], append: [...]}``.
LIST_OPERATIONS = ("remove", "replace", "patch", "insert", "append")

#: What list operations did to the places of a list, in order (:func:`merge_patch`'s ``edits``):
#: each a kind, a place in the list as it stood then, and how many places. ``_NEW``: that many
#: elements put in before that place (inserted, appended); ``_GONE``: the element there removed;
#: ``_WHOLE``: the element there written whole in place of another (replaced). A `patch:` keeps
#: its element's place (what wrote it still writes the fields the patch left).
Edits = list[tuple[int, int, int]]
_NEW, _GONE, _WHOLE = 0, 1, 2


@frozen_value
class PatchProblem:
    """A list operation of a patch that cannot be applied, at its path inside the patch."""

    path: NodePath
    message: str
    hint: str
    #: The message names what it is about; else the list and the entity are appended to it.
    complete: bool = False
    #: What it is about (the field whose list it changes), as the diagnostic's subjects.
    subjects: tuple[str, ...] = ()
    #: The text its "did you mean" proposes in place of the text at its path (an editor's quick fix).
    suggestion: str | None = None


def is_list_operations(value: Any) -> bool:
    """True when ``value`` is written as list operations (``{remove: [...]}`` ...) rather than a value.

    Told by its keys (at most five: a mapping of more is no list operations), never by a set of
    them all: an element that entries each wrote a key of their own into was asked at every
    entry, each a set of every key the entries before it wrote (round 29)."""
    return isinstance(value, dict) and 0 < len(value) <= len(LIST_OPERATIONS) and value.keys() <= _OPERATION_NAMES


#: :data:`LIST_OPERATIONS` as a set.
_OPERATION_NAMES = frozenset(LIST_OPERATIONS)


def only_unknown(value: dict[Any, Any]) -> bool:
    """Whether the mapping ``value`` is an `{unknown: why}` (its only key `unknown`): told without a
    set of its keys, which cost its size at each merge of an element grown by every entry (round 29)."""
    return len(value) == 1 and "unknown" in value


def merge_patch(
    target: Any,
    patch: Any,
    problems: list[PatchProblem] | None = None,
    at: NodePath = (),
    root: str = "the value",
    moved: dict[NodePath, NodePath] | None = None,
    merged_at: NodePath | None = None,
    cited: Mapping[str, Any] | None = None,
    was: dict[NodePath, Any] | None = None,
    edits: dict[NodePath, Edits] | None = None,
) -> Any:
    """RFC 7386 JSON Merge Patch, plus list operations that address elements by value or by fields.

    A list is replaced by a list; written as a mapping of operations, it is changed in place
    (applied in the order remove, replace, patch, insert, append):

    - ``remove: [SELECTOR, ...]`` removes the element each selector names;
    - ``replace: [{where: SELECTOR, with: VALUE}]`` puts ``VALUE`` in its place;
    - ``patch: [{where: SELECTOR, with: PATCH}]`` merges ``PATCH`` into it;
    - ``insert: [{before: SELECTOR, items: [...]}]`` (or ``after:``) inserts next to it;
    - ``append: [...]`` adds at the end.

    A selector is a value (the element equal to it: ``remove: [drought]``) or a mapping of fields
    the element has (``{id: drought}``, ``{rule: "30.23.4"}``); it must name exactly one element.
    What cannot be applied is appended to ``problems`` (path inside the patch) and skipped. An
    element a list operation wrote (replaced, inserted, appended) is recorded in ``moved``: its
    path in the result, and the path inside the patch that wrote it, so it is located there.
    An element a `patch:` operation merges into is cited by what wrote its facts
    (:func:`cite_patched`; ``cited``: the citation the patch is written under), and recorded in
    ``was`` as it was before (its path in the result: the element), so that what wrote its other
    fields is still known (:func:`writers_after`). ``edits`` gets, for each list list operations
    changed (by its path in the result), what they did to its places, in order (:data:`Edits`):
    what follows an element's place from list to list (:func:`_carried`).

    >>> merge_patch({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": None, "e": 4}})
    {'a': 1, 'b': {'d': 3, 'e': 4}}
    >>> merge_patch({"l": [1]}, {"l": {"append": [2, 3]}})
    {'l': [1, 2, 3]}
    >>> merge_patch([{"id": "a"}, {"id": "b"}], {"remove": [{"id": "a"}]})
    [{'id': 'b'}]
    """
    problems = problems if problems is not None else []
    merged_at = at if merged_at is None else merged_at
    if is_list_operations(patch):
        if isinstance(target, list) or target is None:
            items = target if isinstance(target, list) else []
            return _list_operations(items, patch, problems, at, root, moved, merged_at, cited, was, edits)
        problems.append(_not_a_list(target, patch, at, root))
        return copy.deepcopy(target)
    if not isinstance(patch, dict) or only_unknown(patch):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) and not only_unknown(target) else {}
    cited = {k: patch[k] for k in CITATION_FIELDS if patch.get(k) is not None} or cited
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            inner = (*merged_at, key)
            result[key] = merge_patch(
                result.get(key), value, problems, (*at, key), root, moved, inner, cited, was, edits
            )
    return result


def _merged_in_place(element: Any, patch: Any) -> bool:
    """Whether :func:`_merge_into` merges ``patch`` into ``element`` as :func:`merge_patch` would:
    a mapping of fields into a mapping of facts (what is written whole, list operations on it, an
    `{unknown: why}` on either side, makes a value anew)."""
    return (
        isinstance(element, dict)
        and not only_unknown(element)
        and isinstance(patch, dict)
        and not only_unknown(patch)
        and not is_list_operations(patch)
    )


#: A key no data has (a mapping's keys are text): it stands for the facts of an element that a
#: patch leaves, in the few fields of the element :func:`_merge_into` shows :func:`cite_patched`.
_LEFT_FACTS: Any = object()


def _merge_into(
    element: dict[str, Any],
    patch: dict[str, Any],
    problems: list[PatchProblem],
    at: NodePath,
    root: str,
    moved: dict[NodePath, NodePath],
    cited: Mapping[str, Any] | None,
    selector: Any,
) -> None:
    """``patch`` merged into ``element`` in place, and the element cited by what wrote its facts: what
    :func:`merge_patch` then :func:`cite_patched` make of them, without copying the element.

    Both read only the fields the patch names, the element's citation, and whether the element
    has a fact the patch leaves; so they are given those alone (the fields as they were, and
    :data:`_LEFT_FACTS` for that fact), and what they make of them is written back into the
    element: the fields in their places, a citation they wrote anew after the others, as the
    copy they made put it. Finding such a fact reads at most the patch's fields, the citations and
    the selector's fields before one (each is told apart from a fact left by its name)."""
    naming = {"id", *(selector if isinstance(selector, dict) else ())}
    shown = (*patch, *(k for k in (*CITATION_FIELDS, "unknown") if k not in patch))
    before = {k: element[k] for k in shown if k in element}
    if any(k not in _NOT_FACTS and k not in patch and k not in naming for k in element):
        before[_LEFT_FACTS] = True
    own = {k: patch[k] for k in CITATION_FIELDS if patch.get(k) is not None} or None
    for key, value in patch.items():
        if value is None:
            element.pop(key, None)
        else:
            element[key] = merge_patch(element.get(key), value, problems, (*at, key), root, moved, (key,), own)
    merged = {k: element[k] for k in shown if k in element}
    _take_citation(element, cite_patched(before, patch, merged, cited, identity=selector, grow=True), merged)


def _not_a_list(target: Any, operations: dict[str, Any], at: NodePath, root: str) -> PatchProblem:
    """List operations written on a value of the base that is not a list (a number, a mapping, unknown).

    Merged as a mapping they would replace the value with `{remove: ...}`, and the schema would then
    report a key the designer never wrote ("missing key `unknown`").
    """
    name = str(at[-1]) if at and isinstance(at[-1], str) else root
    written = words.listed(list(operations))
    if isinstance(target, dict) and only_unknown(target):
        return PatchProblem(
            at,
            f"`{name}` is unknown in the base, so there is no list for the list operations ({written}) to change",
            f"write the whole value: `{name}: [...]`",
            complete=True,
            subjects=(name,),
        )
    if isinstance(target, dict):
        what, hint = "a mapping", f"write the fields to change: `{name}: {{FIELD: VALUE}}`"
    else:
        what, hint = f"`{json.dumps(target, ensure_ascii=False)}`", f"write the new value itself: `{name}: VALUE`"
    return PatchProblem(
        at,
        f"`{name}` is not a list (the base has {what}): list operations ({written}) change only lists",
        hint,
        complete=True,
        subjects=(name,),
    )


def _selects(selector: Any, element: Any) -> bool:
    if isinstance(selector, dict) and isinstance(element, dict):
        return all(key in element and element[key] == value for key, value in selector.items())
    return bool(selector == element)


class _Cell:
    """One element of a list being changed by list operations, and where the patch wrote it (None:
    the base's element, where it was). Compared by identity: the list finds its place by pointer.
    A node of its list's tree (:class:`_Elements`): the cells before it on its left, those after
    on its right."""

    __slots__ = ("alive", "dead", "element", "fields", "left", "right", "size", "up", "was", "written")

    def __init__(self, element: Any, written: NodePath | None) -> None:
        self.element = element
        self.written = written
        #: The element as it was before a `patch` merged into it (None: no `patch` did).
        self.was: Any = None
        #: Where a `patch` wrote what it merged into the element (paths inside the element).
        self.fields: dict[NodePath, NodePath] = {}
        #: Removed from the list (it stays in the tree until the cells are compacted).
        self.dead = False
        #: Its place in the tree: the cells before it and after it (their subtrees), and above it.
        self.left: _Cell | None = None
        self.right: _Cell | None = None
        self.up: _Cell | None = None
        #: The cells of its subtree, removed ones counted, and the live ones.
        self.size = 1
        self.alive = 1


def _alive(cell: _Cell | None) -> int:
    return cell.alive if cell is not None else 0


def _size(cell: _Cell | None) -> int:
    return cell.size if cell is not None else 0


def _tree(cells: Sequence[_Cell], up: _Cell | None) -> _Cell | None:
    """A balanced tree of ``cells`` (in order) under ``up``: its root."""
    if not cells:
        return None
    middle = len(cells) // 2
    root = cells[middle]
    root.up = up
    root.left = _tree(cells[:middle], root)
    root.right = _tree(cells[middle + 1 :], root)
    root.size = 1 + _size(root.left) + _size(root.right)
    root.alive = (0 if root.dead else 1) + _alive(root.left) + _alive(root.right)
    return root


def _in_order(root: _Cell | None) -> Iterator[_Cell]:
    """The cells of the tree under ``root``, in the list's order (removed ones too)."""
    stack: list[_Cell] = []
    node = root
    while stack or node is not None:
        while node is not None:
            stack.append(node)
            node = node.left
        node = stack.pop()
        yield node
        node = node.right


#: Values a selector's fields are looked up by (hashable, and equal only to values of these types).
_SCALARS = (str, int, float, bool, type(None))


#: How a selector is looked up: by the sorted names of the fields it gives (a mapping of scalar
#: fields), or as a value (a scalar: the element equal to it).
_Shape = tuple[str, ...] | Literal["value"]


def _selector_shape(selector: Any) -> _Shape | None:
    """How ``selector`` is looked up; None where it can only be compared with every element."""
    if isinstance(selector, dict):
        if all(isinstance(key, str) for key in selector) and all(isinstance(v, _SCALARS) for v in selector.values()):
            return tuple(sorted(selector))
        return None
    return "value" if isinstance(selector, _SCALARS) else None


class _Elements:
    """The elements of a list that list operations change, in order, found by selector.

    Each selector named its element by comparing itself with every element of the list: n
    selectors over a list of n elements were n² comparisons (5,000 `patch` entries on a setting of
    5,000 elements: 43 s). The elements are indexed by the fields a selector names (made on the
    first selector of that shape, kept up to date as operations change, add and remove elements),
    so a selector looks up its candidates; a selector whose values are lists or mappings is still
    compared with every element. The cells are the nodes of a tree in the list's order, each
    counting the live cells under it, kept balanced by rebuilding the highest subtree one side of
    which outgrew the other (a scapegoat tree): an element's place is counted, and an element
    removed, inserted or appended anywhere, in a walk from a cell to the root, not a pass over the
    list (each `insert:` before the last element numbered every cell after it again: n entries
    each inserting, the square of n). A removed element keeps its node until the removed are as
    many as the live (:meth:`compact`). The cells and their indexes outlive the list operations
    of one entry (:data:`_KEPT`): the next entry changing the list they made starts from them."""

    #: How much larger than its sibling's a subtree may grow before its parent's is rebuilt:
    #: neither side holds more than this share of a subtree's cells (a tree of n cells is then
    #: at most log(n) / log(1 / _BALANCE) deep).
    _BALANCE = 0.7

    def __init__(self, items: list[Any]) -> None:
        cells = [_Cell(item, None) for item in items]
        self.root = _tree(cells, None)
        #: How many of the cells are live, and how many there are (removed ones counted).
        self.count = len(cells)
        self.total = len(cells)
        self._indexes: dict[_Shape, dict[Any, list[_Cell]]] = {}

    def live(self) -> list[_Cell]:
        return [cell for cell in _in_order(self.root) if not cell.dead]

    def compact(self) -> None:
        """The removed cells let go, once they are as many as the live ones (each removal paid
        for by the cells it leaves, not by the list)."""
        if self.total - self.count > self.count:
            cells = self.live()
            self.root = _tree(cells, None)
            self.total = len(cells)

    @staticmethod
    def _key(shape: _Shape, element: Any) -> Any:
        """``element``'s key in the index of ``shape`` (None: it is in no bucket of that index: no
        selector of that shape can name it, a list or a mapping never being equal to a scalar)."""
        if shape == "value":
            return (element,) if isinstance(element, _SCALARS) else None
        if not isinstance(element, dict):
            return None
        values = []
        for name in shape:
            value = element.get(name, _ABSENT)
            if value is _ABSENT or not isinstance(value, _SCALARS):
                return None
            values.append(value)
        return tuple(values)

    def _index(self, shape: _Shape) -> dict[Any, list[_Cell]]:
        index = self._indexes.get(shape)
        if index is None:
            index = self._indexes[shape] = {}
            for cell in _in_order(self.root):
                if cell.dead:
                    continue  # removed: no selector names it (an index made after a removal found it again)
                key = self._key(shape, cell.element)
                if key is not None:
                    index.setdefault(key, []).append(cell)
        return index

    def _unindex(self, cell: _Cell) -> None:
        for shape, index in self._indexes.items():
            key = self._key(shape, cell.element)
            if key is not None:
                bucket = index[key]
                del bucket[next(i for i, other in enumerate(bucket) if other is cell)]
                if not bucket:
                    del index[key]

    def _reindex(self, cell: _Cell) -> None:
        for shape, index in self._indexes.items():
            key = self._key(shape, cell.element)
            if key is not None:
                index.setdefault(key, []).append(cell)

    def select(self, selector: Any, problems: list[PatchProblem], at: NodePath) -> _Cell | None:
        """The one element ``selector`` names; a problem when it names none or several."""
        shape = _selector_shape(selector)
        if shape is None:
            found = [cell for cell in _in_order(self.root) if not cell.dead and _selects(selector, cell.element)]
        else:
            key = (selector,) if shape == "value" else tuple(selector[name] for name in shape)
            found = self._index(shape).get(key, [])
        if len(found) == 1:
            return found[0]
        shown = json.dumps(selector, ensure_ascii=False, sort_keys=True)
        if not found:
            # After QUERIES problems, no "did you mean": each hint compares the selector with the list.
            items = [cell.element for cell in self.live()]
            hint = _selector_hint(items, selector) if len(problems) < QUERIES else _NAME_AN_ELEMENT
            # A selector written as a text (`remove: [wesx]`) is the text at ``at``: its "did you
            # mean" is a replacement (one written as a mapping is not: `{id: x}` would be put as text).
            meant = (
                closest(selector, [item for item in items if isinstance(item, str)])
                if isinstance(selector, str) and len(problems) < QUERIES
                else None
            )
            problems.append(PatchProblem(at, f"{shown} names no element of the list", hint, suggestion=meant))
        else:
            problems.append(
                PatchProblem(
                    at,
                    f"{shown} names {len(found)} elements of the list",
                    "add fields to the selector so that it names one element",
                )
            )
        return None

    def place(self, cell: _Cell) -> int:
        """How many live cells are before ``cell``: counted on the way from it to the root."""
        found = _alive(cell.left)
        node = cell
        while (parent := node.up) is not None:
            if parent.right is node:
                found += _alive(parent.left) + (0 if parent.dead else 1)
            node = parent
        return found

    def remove(self, cell: _Cell) -> None:
        self._unindex(cell)
        cell.dead = True
        node: _Cell | None = cell
        while node is not None:
            node.alive -= 1
            node = node.up
        self.count -= 1

    def change(self, cell: _Cell, element: Any) -> None:
        self._unindex(cell)
        cell.element = element
        self._reindex(cell)

    def rekey(self, cell: _Cell, change: Callable[[], object]) -> None:
        """``change`` the cell's element in place, its keys in the indexes taken before, put after."""
        self._unindex(cell)
        change()
        self._reindex(cell)

    def insert(self, at: int, new: list[_Cell]) -> None:
        """Put ``new`` (cells not in the tree) before the live cell at ``at`` (at the end when
        ``at`` is the count), as a balanced subtree hung at the leaf there."""
        sub = _tree(new, None)
        if sub is None:
            return
        for cell in new:
            self._reindex(cell)
        last = at >= self.count
        self.count += len(new)
        self.total += len(new)
        if self.root is None:
            self.root = sub
            return
        if not last:
            node = self._live_at(at)
            if node.left is None:
                node.left = sub
            else:
                node = node.left
                while node.right is not None:
                    node = node.right
                node.right = sub
        else:
            node = self.root
            while node.right is not None:
                node = node.right
            node.right = sub
        sub.up = node
        # the cells above count the new ones; the highest whose one side outgrew the other is rebuilt
        highest: _Cell | None = None
        above: _Cell | None = node
        while above is not None:
            above.size += sub.size
            above.alive += sub.alive
            if max(_size(above.left), _size(above.right)) > self._BALANCE * above.size:
                highest = above
            above = above.up
        if highest is not None:
            self._rebuild(highest)

    def _live_at(self, at: int) -> _Cell:
        """The live cell with ``at`` live cells before it."""
        node = self.root
        while node is not None:
            before = _alive(node.left)
            if at < before:
                node = node.left
                continue
            if at == before and not node.dead:
                return node
            at -= before + (0 if node.dead else 1)
            node = node.right
        raise IndexError(at)

    def _rebuild(self, top: _Cell) -> None:
        """The subtree under ``top`` made balanced again, in its place."""
        up = top.up
        rebuilt = _tree(list(_in_order(top)), up)
        if up is None:
            self.root = rebuilt
        elif up.left is top:
            up.left = rebuilt
        else:
            up.right = rebuilt


class _Kept:
    """The cells (:class:`_Elements`) that made each list list operations made lately, by the list
    (a list is never changed once made): the next entry's list operations on that list start from
    them. Made anew for each entry, they were the list's cells and selector indexes built again per
    entry: n entries appending to one list, then n replacing or removing an element of it, the
    square of n."""

    #: How many lists' cells are kept (the lists themselves are held beside them: no other list
    #: takes the id of one).
    MOST = 256

    def __init__(self) -> None:
        self.states: dict[int, tuple[list[Any], _Elements]] = {}
        memo.register_run(self.states)

    def take(self, items: list[Any]) -> _Elements | None:
        """The cells that made ``items``, no longer kept (one entry changes them)."""
        found = self.states.pop(id(items), None)
        if found is None or found[0] is not items or found[1].count != len(items):
            return None
        return found[1]

    def put(self, items: list[Any], elements: _Elements) -> None:
        if len(self.states) >= self.MOST:
            del self.states[next(iter(self.states))]
        self.states[id(items)] = (items, elements)


_KEPT = _Kept()


_ABSENT = object()


#: The hint of a selector naming no element when nothing closer can be said.
_NAME_AN_ELEMENT = "name an element by a value or by fields it has"


def _selector_hint(items: list[Any], selector: Any) -> str:
    """What a selector that names no element most likely meant, or what the elements can be named by."""
    fallback = _NAME_AN_ELEMENT
    if isinstance(selector, dict) and len(selector) == 1:
        ((field, wanted),) = selector.items()
        fields = sorted({key for item in items if isinstance(item, dict) for key in item})
        values = [str(item[field]) for item in items if isinstance(item, dict) and isinstance(item.get(field), str)]
        if not values and fields and field not in fields:
            return f"no element has `{field}`; they have: {words.listed(fields)}"
        close = closest(str(wanted), values) if isinstance(wanted, str) else None
        return f"did you mean `{{{field}: {close}}}`?" if close else _values_hint(items, selector) or fallback
    if isinstance(selector, dict):
        return _values_hint(items, selector) or fallback
    if isinstance(selector, str):
        close = closest(selector, [item for item in items if isinstance(item, str)])
        return mean(selector, close) if close else _values_hint(items, selector) or fallback
    return _values_hint(items, selector) or fallback


#: How many of the values a field takes a hint lists (then "…").
_VALUES_SHOWN = 8


def _values_hint(items: list[Any], selector: Any) -> str | None:
    """The values the list holds where ``selector`` asks for one it lacks: the elements' own (a
    list of values), or those of the first field of the selector whose value no element has,
    sorted, the first few; None where there are none to show."""
    if isinstance(selector, dict):
        for field in sorted(selector, key=str):
            taken = {
                item[field]
                for item in items
                if isinstance(item, dict) and isinstance(item.get(field, _ABSENT), _SCALARS)
            }
            wanted = selector[field]
            if taken and (not isinstance(wanted, _SCALARS) or wanted not in taken):
                return f"`{field}` takes, in this list: {_some(taken)}"
        return None
    taken = {item for item in items if isinstance(item, _SCALARS)}
    return f"the list holds: {_some(taken)}" if taken else None


def _some(values: set[Any]) -> str:
    ordered = sorted(values, key=lambda v: (type(v).__name__, v if v is not None else 0))
    shown = ", ".join(
        json.dumps(v, ensure_ascii=False) if isinstance(v, str) else str(v) for v in ordered[:_VALUES_SHOWN]
    )
    return f"{shown}, …" if len(ordered) > _VALUES_SHOWN else shown


def written_over(base: Any, patch: Any, at: NodePath = ()) -> Iterator[NodePath]:
    """The paths (from ``at``, the path of ``base``) of what ``patch``, merged into ``base`` by
    :func:`merge_patch`, writes over or deletes: a mapping merges key by key into a mapping, and
    replaces anything else (an unknown included); list operations write over the elements they
    remove or replace and the fields their `patch:` entries write, and over nothing they insert
    or append. What cannot be applied writes over nothing.

    >>> list(written_over({"a": 1, "b": {"unknown": "?"}}, {"b": {"c": 2}}))
    [('b',)]
    >>> base = [{"id": "x", "n": {"unknown": "?"}}, {"id": "y"}, {"id": "z"}]
    >>> ops = {"remove": [{"id": "y"}], "patch": [{"where": {"id": "x"}, "with": {"n": 3}}], "append": [{}]}
    >>> list(written_over(base, ops, ("l",)))
    [('l', 1), ('l', 0, 'n')]
    >>> earlier = {"append": [{"id": "w", "n": {"unknown": "?"}}, {"id": "v"}]}
    >>> list(written_over(earlier, {"remove": [{"id": "v"}], "patch": [{"where": {"id": "w"}, "with": {"n": 1}}]}))
    [('append', 1), ('append', 0, 'n')]
    """
    if is_list_operations(patch):
        if isinstance(base, list):
            yield from _written_over_list(base, patch, at)
        elif is_list_operations(base):
            yield from _written_over_operations(base, patch, at)
        return
    if isinstance(patch, dict) and not only_unknown(patch) and isinstance(base, dict) and not only_unknown(base):
        for key, value in patch.items():
            if key in base:  # a key the base lacks is added: nothing of the base is there to write over
                yield from written_over(base[key], value, (*at, key))
        return
    yield at


def _written_over_list(base: list[Any], operations: Mapping[str, Any], at: NodePath) -> Iterator[NodePath]:
    """:func:`written_over` for list operations: applied as :func:`_list_operations` applies them,
    each selector naming an element of the list as it stands, each base element known by its place
    in ``base``. Only removals, replacements and patches write over an element, and insertions and
    appends come after them (nothing selects what they add): those are not applied.

    The base's elements are looked up in an index of ``base`` made once (:class:`_Places`, each
    selector shape's on its first selector), the elements this entry changed beside it: each of n
    entries changing one element of a long list (a definition an earlier variant added, Q009
    asking each) made a cell of every element of the list, the square of them."""
    if set(operations) <= {"insert", "append"}:
        # they write over nothing, and nothing selects after them: no index of the list to make (n
        # entries appending to a list of n each made n cells, Q009 asking what each wrote over)
        return
    places = _places(base)
    now: dict[int, Any] = {}  # the element at each place this entry changed, as it changed it
    changed: dict[_Shape, dict[Any, set[int]]] = {}  # ``now``'s places by each selector shape's key
    gone: set[int] = set()  # places removed
    replaced: set[int] = set()  # places written whole: no element of the base there any more

    def select(selector: Any) -> int | None:
        """The one live place ``selector`` names (None: it names none, or several)."""
        shape = _selector_shape(selector)
        found: list[int] = []
        if shape is None:
            found = [
                place
                for place in range(len(base))
                if place not in gone and _selects(selector, now[place] if place in now else base[place])
            ]
            return found[0] if len(found) == 1 else None
        key = (selector,) if shape == "value" else tuple(selector[name] for name in shape)
        for place in places.index(shape).get(key, ()):
            if place not in gone and place not in now:
                found.append(place)
                if len(found) > 1:
                    return None
        if shape not in changed:
            index: dict[Any, set[int]] = {}
            for place, element in now.items():
                if (known := _Elements._key(shape, element)) is not None:
                    index.setdefault(known, set()).add(place)
            changed[shape] = index
        for place in changed[shape].get(key, ()):
            if place not in gone:
                found.append(place)
                if len(found) > 1:
                    return None
        return found[0] if found else None

    def change(place: int, element: Any) -> None:
        for shape, index in changed.items():
            if place in now and (key := _Elements._key(shape, now[place])) is not None:
                index[key].discard(place)
            if (key := _Elements._key(shape, element)) is not None:
                index.setdefault(key, set()).add(place)
        now[place] = element

    for name in ("remove", "replace", "patch"):
        entries = operations.get(name)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if name == "remove":
                place = select(entry)
                if place is not None:
                    gone.add(place)
                    if place not in replaced:
                        yield (*at, place)
                continue
            if not isinstance(entry, dict) or "where" not in entry or "with" not in entry:
                continue
            place = select(entry["where"])
            if place is None:
                continue
            element = now[place] if place in now else base[place]
            if name == "replace":
                if place not in replaced:
                    replaced.add(place)
                    yield (*at, place)
                change(place, entry["with"])
            else:
                if place not in replaced:
                    yield from written_over(element, entry["with"], (*at, place))
                change(place, merge_patch(element, entry["with"]))


def _written_over_operations(
    base: Mapping[str, Any], operations: Mapping[str, Any], at: NodePath
) -> Iterator[NodePath]:
    """:func:`written_over` where both wrote list operations into one list (an element's nested
    list, changed by a `patch:`'s `with:` and again by a later one's): what ``operations`` removes
    or replaces of the elements ``base`` added (appended, inserted, or put in place of another), each
    at its path in ``base``, and what its `patch:` entries write over in them. A selector naming an
    element ``base`` added names that one (naming several is V007's). What ``base`` added is known
    here; the list it was added to is not, so nothing else is."""
    added: list[tuple[NodePath, Any]] = []
    for index, item in enumerate(base.get("append") or []):
        added.append((("append", index), item))
    for index, entry in enumerate(base.get("insert") or []):
        if isinstance(entry, dict):
            added += [(("insert", index, "items", k), item) for k, item in enumerate(entry.get("items") or [])]
    for index, entry in enumerate(base.get("replace") or []):
        if isinstance(entry, dict) and "with" in entry:
            added.append((("replace", index, "with"), entry["with"]))
    if not added:
        return
    gone: set[NodePath] = set()

    def named(selector: Any) -> list[tuple[NodePath, Any]]:
        found = [(path, item) for path, item in added if path not in gone and _selects(selector, item)]
        return found if len(found) == 1 else []

    for name in ("remove", "replace", "patch"):
        entries = operations.get(name)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if name != "remove" and (not isinstance(entry, dict) or "where" not in entry or "with" not in entry):
                continue
            for path, item in named(entry if name == "remove" else entry["where"]):
                if name == "patch":
                    yield from written_over(item, entry["with"], (*at, *path))
                else:
                    gone.add(path)
                    yield (*at, *path)


class _Places:
    """The places of a list's elements by the key each selector shape looks them up by (made on
    the first selector of that shape): a list never changed once read, indexed once for every
    entry that asks what it wrote over in it (:func:`_written_over_list`)."""

    __slots__ = ("items", "shapes")

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self.shapes: dict[_Shape, dict[Any, list[int]]] = {}

    def index(self, shape: _Shape) -> dict[Any, list[int]]:
        found = self.shapes.get(shape)
        if found is None:
            found = self.shapes[shape] = {}
            for place, element in enumerate(self.items):
                key = _Elements._key(shape, element)
                if key is not None:
                    found.setdefault(key, []).append(place)
        return found


@memo.by_identity(256)
def _places(items: list[Any]) -> _Places:
    return _Places(items)


def _list_operations(
    target: list[Any],
    operations: dict[str, Any],
    problems: list[PatchProblem],
    at: NodePath,
    root: str = "the value",
    moved: dict[NodePath, NodePath] | None = None,
    merged_at: NodePath = (),
    cited: Mapping[str, Any] | None = None,
    was: dict[NodePath, Any] | None = None,
    edits: dict[NodePath, Edits] | None = None,
) -> list[Any]:
    # The list is new (or one an earlier entry of the block made, grown in place: :data:`_OWNED`);
    # its elements are the target's until an operation makes one anew (no element is changed in
    # place), as a merged mapping keeps the target's values it does not patch.
    grows = _OWNED.grows(target, merged_at)
    appended = operations.get("append")
    if set(operations) == {"append"} and isinstance(appended, list):
        # Nothing is selected: the elements need no index, and only the new ones a place (each of
        # n patches appending to one list made a cell of every element before it: n²).
        kept = _KEPT.take(target)
        before = len(target)
        added = copy.deepcopy(appended)
        if grows:
            target.extend(added)
            items = target
        else:
            items = [*target, *added]
            _OWNED.own(items, merged_at)
        if edits is not None:
            edits[merged_at] = [(_NEW, before, len(appended))]
        if moved is not None:
            for k in range(len(appended)):
                moved[(*merged_at, before + k)] = (*at, "append", k)
        if kept is not None:
            kept.insert(kept.count, [_Cell(item, None) for item in added])
            _KEPT.put(items, kept)
        return items
    elements = _KEPT.take(target) or _Elements(target)
    if grows:
        result = target
    else:
        result = list(target)
        _OWNED.own(result, merged_at)
    done: Edits = edits.setdefault(merged_at, []) if edits is not None else []
    touched: dict[int, _Cell] = {}
    for name in LIST_OPERATIONS:
        entries = operations.get(name)
        if entries is None:
            continue
        if not isinstance(entries, list):
            problems.append(
                PatchProblem((*at, name), f"`{name}` takes a list", f"write `{name}: [...]`", subjects=(name,))
            )
            continue
        for i, entry in enumerate(entries):
            where = (*at, name, i)
            if name == "append":
                last = _Cell(copy.deepcopy(entry), where)
                done.append((_NEW, elements.count, 1))
                elements.insert(elements.count, [last])
                result.append(last.element)
                touched[id(last)] = last
                continue
            if name == "remove":
                cell = elements.select(entry, problems, where)
                if cell is not None:
                    place = elements.place(cell)
                    done.append((_GONE, place, 1))
                    del result[place]
                    elements.remove(cell)
                continue
            if not isinstance(entry, dict):
                problems.append(
                    PatchProblem(where, f"a `{name}` entry is a mapping", _OPERATION_SHAPES[name], subjects=(name,))
                )
                continue
            if name == "insert":
                side = "before" if "before" in entry else "after" if "after" in entry else None
                new = entry.get("items")
                if side is None or not isinstance(new, list):
                    problems.append(
                        PatchProblem(
                            where,
                            "an `insert` entry names a place and items",
                            _OPERATION_SHAPES[name],
                            subjects=(name,),
                        )
                    )
                    continue
                cell = elements.select(entry[side], problems, (*where, side))
                if cell is not None:
                    index = elements.place(cell) + (1 if side == "after" else 0)
                    added = [_Cell(item, (*where, "items", k)) for k, item in enumerate(copy.deepcopy(new))]
                    done.append((_NEW, index, len(added)))
                    elements.insert(index, added)
                    result[index:index] = [one.element for one in added]
                    touched.update((id(one), one) for one in added)
                continue
            if "where" not in entry or "with" not in entry:
                problems.append(
                    PatchProblem(
                        where, f"a `{name}` entry has `where` and `with`", _OPERATION_SHAPES[name], subjects=(name,)
                    )
                )
                continue
            cell = elements.select(entry["where"], problems, (*where, "where"))
            if cell is None:
                continue
            touched[id(cell)] = cell
            if name == "replace":
                elements.change(cell, copy.deepcopy(entry["with"]))
                cell.written, cell.fields = (*where, "with"), {}
                place = elements.place(cell)
                done.append((_WHOLE, place, 1))
                result[place] = cell.element
            else:
                # Located inside the element (paths from it): its place in the result is known at the end.
                inner: dict[NodePath, NodePath] = {}
                selector, with_ = entry["where"], entry["with"]
                if (
                    _OWNED.merges_into(cell.element)
                    and _merged_in_place(cell.element, with_)
                    and (was is None or _OWNED.follows(cell.element))
                ):
                    # an element this block merged before: merged into in place, not copied whole
                    # again (n entries each writing a key of its own into it: n² keys copied). One of
                    # the entity's own list, which the records follow by its identity: they let go of
                    # it first, a token standing for it as it was (:meth:`_Owned.stand_in`)
                    if was is not None and cell.was is None and cell.written is None:
                        cell.was = _OWNED.stand_in(cell.element)
                    merge = functools.partial(_merge_into, cell.element, with_, problems, (*where, "with"), root)
                    elements.rekey(cell, functools.partial(merge, inner, cited, selector))
                    patched = cell.element
                else:
                    patched = merge_patch(cell.element, with_, problems, (*where, "with"), root, inner, ())
                    # the element's citation cites what wrote its facts (its selecting fields are no fact left)
                    patched = cite_patched(cell.element, with_, patched, cited, identity=selector, grow=True)
                    _OWNED.own_element(patched)
                if cell.was is None and cell.written is None:
                    cell.was = cell.element  # the element an earlier writer wrote, merged into
                if patched is not cell.element:
                    elements.change(cell, patched)
                result[elements.place(cell)] = patched
                cell.fields.update(inner)
                if isinstance(entry["with"], dict):
                    # Each field the `with:` wrote is located there, the element's others at the base.
                    for key in entry["with"]:
                        cell.fields.setdefault((key,), (*where, "with", key))
    # Only the cells this entry wrote have records, in the order of the list.
    placed = sorted(((elements.place(cell), cell) for cell in touched.values() if not cell.dead), key=lambda p: p[0])
    if moved is not None:
        for index, cell in placed:
            for path, written in cell.fields.items():
                moved.setdefault((*merged_at, index, *path), written)
            if cell.written is not None:
                moved[(*merged_at, index)] = cell.written
    if was is not None:
        for index, cell in placed:
            if cell.was is not None:
                was[(*merged_at, index)] = cell.was
    for _, cell in placed:
        # the next entry's list operations start from this list
        cell.written, cell.fields, cell.was = None, {}, None
    elements.compact()
    _KEPT.put(result, elements)
    return result


_OPERATION_SHAPES = {
    "replace": "write `{where: SELECTOR, with: NEW_ELEMENT}`",
    "patch": "write `{where: SELECTOR, with: {FIELD: VALUE}}`",
    "insert": "write `{before: SELECTOR, items: [...]}` or `{after: SELECTOR, items: [...]}`",
}


#: A diagnostic of this stage (:func:`civrules.diagnostics.codes.made`).
_diag = codes.made


__all__ = [
    "CollectionSpec",
    "Entry",
    "NodePath",
    "Resolved",
    "Resolver",
    "changers",
    "citation_at",
    "citation_of",
    "cited_writers",
    "element_citations",
    "entity_key",
    "entity_written_whole",
    "field_citation",
    "field_citations",
    "field_writers",
    "holds_a_fact",
    "is_list_operations",
    "merge_patch",
    "overlay_base_notes",
    "overwritten",
    "setting_written_whole",
    "settings_citation",
    "writer_nodes",
]
