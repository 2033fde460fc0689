"""The incremental core of the language server and watch mode: a long-lived :class:`Session`.

A session holds, across edits, what a full ``civrules validate`` computes from scratch:

- every rule file read and schema-validated, keyed by its path and a hash of its content (the
  text of an unsaved editor buffer, or the bytes on disk): a file is read again only when its
  content changed, which a ``stat`` tells first and a hash confirms;
- every ruleset's diagnostics and analysis, keyed by the content of every file the ruleset read
  (its manifest, its data files, and those of its bases through ``extends``) and by the set of
  ruleset ids: a ruleset is checked again only when one of those changed.

Everything is held in memory, in this process: nothing is loaded from or executed out of a disk
cache. :meth:`Session.update` returns what a full ``civrules validate`` (no ruleset named) would
print, so an editor, ``civrules watch`` and the command line agree; ``tests/core/test_incremental.py``
holds a session to a fresh full run after random edit sequences.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from civrules.checks import ALL_COLLECTIONS, RULE_INDEX, SETTINGS, Check, setting
from civrules.diagnostics import Diagnostic, Span, cap_per_file, codes, sort_diagnostics
from civrules.diagnostics.words import name_ticked
from civrules.families import Family
from civrules.load import Document, Limits
from civrules.load.document import NodePath
from civrules.load.splice import Spliced, splice_document
from civrules.load.workspace import (
    SHIPPED,
    LoadedFile,
    LoadedRuleset,
    Workspace,
    is_manifest_path,
    shipped_turned_off,
)
from civrules.model import Collection, Entity, Ruleset
from civrules.model.assembly import Assembled, assembling
from civrules.pipeline import SHAPING_KEYS, Analysis, analyse
from civrules.resolve import OPERATIONS, Resolver
from civrules.schema.references import Remembered, remembering
from civrules.support import memo
from civrules.support.commands import invoked, validating
from civrules.support.files import LinkOnTheWayError, RefusedError, dots_taken, read_under, real_place, settled

#: What a file's content is known by: how it was read (editor text or disk bytes) and its hash.
Signature = tuple[str, str]


@dataclass(frozen=True, slots=True)
class _Parsed:
    """One file as read and schema-validated, before any run appends to its diagnostics."""

    signature: Signature
    path: str
    document: Document | None
    kind: str | None
    diagnostics: tuple[Diagnostic, ...]
    #: How many of ``diagnostics`` come from reading the file (the rest: from judging its kind).
    read: int = 0
    #: The text the document was read from (None: not read as text): the next edit is spliced into it.
    text: str | None = None
    #: The families a data file no ruleset claimed was judged among (their ids; None: it was
    #: claimed, or is a manifest): judged again when the rules folder's families are others, or
    #: when a ruleset claims it (see :meth:`_SessionWorkspace.judged_alike`).
    among: tuple[str, ...] | None = None


@dataclass(slots=True)
class _Checked:
    """One ruleset's analysis and what it depended on."""

    key: tuple[object, ...]
    depends: frozenset[str]
    analysis: Analysis
    #: Whether it listed the rule files for a did-you-mean (:meth:`Workspace.suggestible_files`):
    #: its key then holds their names, and a file created, deleted or renamed checks it again.
    listed: bool = False


@dataclass(slots=True)
class Result:
    """What one update of a session found."""

    #: Every diagnostic, as ``civrules validate`` with no ruleset named reports them (sorted).
    diagnostics: list[Diagnostic]
    #: The analysis of each ruleset (its model and resolved data when it got that far).
    analyses: dict[str, Analysis]
    #: The rule files (relative to the rules directory) each ruleset read, its bases' included.
    depends: dict[str, frozenset[str]]
    #: Every rule file of the tree, relative to the rules directory, and how diagnostics name it.
    files: dict[str, str]
    #: Files read again and rulesets checked again by this update (the rest was reused).
    reread: list[str] = field(default_factory=list)
    rechecked: list[str] = field(default_factory=list)
    #: Of ``reread``, the files of which only the list items an edit touched were read again.
    spliced: list[str] = field(default_factory=list)
    #: The workspace of this update: the documents of every file, as read.
    workspace: Workspace | None = None
    #: The invocation the update stands for, `civrules --rules DIR validate` of the session's
    #: folder (see :meth:`Session.invocation`): a command a hint gives names it.
    invocation: tuple[str, ...] = ()

    def by_file(self, limit: int | None = None) -> dict[str, list[Diagnostic]]:
        """The diagnostics grouped by the file they point at (display name); every file has a list.

        With a ``limit``, at most that many per file and one that counts the rest, as ``validate`` prints.
        """
        grouped: dict[str, list[Diagnostic]] = {display: [] for display in self.files.values()}
        with invoked(self.invocation):  # R011's command for the rest lists them from the same folder
            listed = self.diagnostics if limit is None else cap_per_file(self.diagnostics, limit)
        for diagnostic in listed:
            if diagnostic.span is not None:
                grouped.setdefault(diagnostic.span.file, []).append(diagnostic)
        return grouped

    def rulesets_using(self, relative: str) -> list[str]:
        """The rulesets that read ``relative`` (directly or through a base), sorted."""
        return sorted(name for name, files in self.depends.items() if relative in files)


class Session:
    """A rules directory kept validated across edits: see the module documentation."""

    def __init__(self, root: Path, limits: Limits | None = None, *, debug: bool = False) -> None:
        self.root = root
        self.limits = limits or Limits()
        #: `--debug`: a check that crashes raises (its traceback shown) instead of becoming R900.
        self.debug = debug
        #: Unsaved editor buffers, by path relative to the rules directory: read instead of the disk.
        self.overlays: dict[str, str] = {}
        self._parsed: dict[str, _Parsed] = {}
        self._stamps: dict[str, tuple[tuple[int, ...], Signature]] = {}
        #: The lines of a file on disk that suppressions are looked for in (by file and the word
        #: they must mention), with the stamp the file had when they were read: see
        #: :meth:`_SessionWorkspace.source_lines`.
        self._lines: dict[tuple[str, str], tuple[tuple[tuple[int, ...], Signature], list[str]]] = {}
        self._checked: dict[str, _Checked] = {}
        #: The references found in each entity, kept for the entities an edit leaves as they were.
        self._references = Remembered()
        #: The models of each collection, kept for the collections an edit leaves as they were.
        self.assembled = Assembled()
        self.last: Result | None = None

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the rules directory, or None when it lies outside.

        ``..`` is taken lexically (``rules/../secret`` is outside, whatever links the path holds),
        and a path that names the rules directory itself, or one no file system can hold, is None.
        A ``..`` back through a link under the rules directory (``rules/lnk/../cards/x.yaml``) is
        None too: the system reads it where the link leads, another file than its letters name
        (:func:`files.dots_taken`, as every path option takes it).
        """
        try:
            os.fsencode(str(path))
        except UnicodeError:
            return None
        if "\x00" in str(path):  # a `%00` in an editor's URI: no file system holds the name
            return None
        lexical = Path(os.path.normpath(path.absolute()))
        if ".." in path.parts:
            try:
                dots_taken(path, [Path(os.path.realpath(self.root))])
            except LinkOnTheWayError:
                return None
        roots = [Path(os.path.normpath(self.root.absolute()))]
        with contextlib.suppress(OSError, RuntimeError):  # a link loop: only the lexical root names it
            roots.append(real_place(self.root))  # a rules folder that is a link: not where it leads
        for root in roots:
            try:
                relative = lexical.relative_to(root).as_posix()
            except ValueError:
                continue
            return relative if relative not in ("", ".") else None
        return None

    def set_text(self, relative: str, text: str | None) -> None:
        """Read ``relative`` from ``text`` (an editor's unsaved buffer), or from disk again when None."""
        if text is None:
            self.overlays.pop(relative, None)
        else:
            self.overlays[relative] = text

    def unchanged(self, result: Result, relative: str) -> bool:
        """Whether ``relative`` holds what ``result`` read of it (a file saved or edited on disk by
        another program since, with no word of it, does not)."""
        workspace = result.workspace
        if not isinstance(workspace, _SessionWorkspace):
            return True
        return workspace.signature(relative) == self.signature(relative, self.overlays, workspace)

    def invocation(self, rulesets: Sequence[str] = ()) -> tuple[str, ...]:
        """The arguments of the command this session's checks of ``rulesets`` stand for
        (:func:`invocation`): recorded while it checks, a command a hint gives to paste (Q007's,
        R011's) reads this folder, whatever the process was started as (a language server of
        several workspace folders, `watch`, another program)."""
        return invocation(self.root, self.limits, rulesets)

    def update(self, rulesets: Sequence[str] = ()) -> Result:
        """Bring every result up to date with the files and buffers as they are now.

        With ``rulesets`` named, only those are checked and the diagnostics are those of
        ``civrules validate RULESET…``: a shipped ruleset the rules folder does not shadow is
        checked as `validate` checks it; a name of no ruleset is left out (not in ``analyses``:
        the caller says so, as `civrules watch` does with R001).
        """
        for step in self.steps(rulesets):
            if step is not None:
                return step
        raise AssertionError("an update ends with its result")  # pragma: no cover

    def steps(self, rulesets: Sequence[str] = ()) -> Iterator[Result | None]:
        """:meth:`update` in steps: None after the manifests are read and after each ruleset is
        checked, then the result. A caller may stop between steps (the language server does when
        a newer edit supersedes the run): what was checked is kept, by content, for the next run.
        """
        # Recorded for each step alone, never across a yield: the server runs the sessions of
        # several folders by turns, and each one's commands name its own folder.
        invocation = self.invocation(rulesets)
        steps = self._steps(rulesets, invocation)
        try:
            while True:
                with invoked(invocation):
                    try:
                        step = next(steps)
                    except StopIteration:
                        return
                yield step
        finally:
            # What the memos hold strongly served this run; kept, it kept the data of rulesets the
            # session lets go of (memo.end_run). A run stopped between steps ends here too.
            memo.end_run()

    def _steps(self, rulesets: Sequence[str], invocation: tuple[str, ...]) -> Iterator[Result | None]:
        workspace = _SessionWorkspace(self)
        manifests = workspace.manifests()
        walked = False  # the memo of references starts a round when a ruleset is analysed again
        yield None
        diagnostics: list[Diagnostic] = list(workspace.discovery_diagnostics)
        manifest_files = {name: workspace.relative_of(m.file.path) for name, m in manifests.items()}
        names_key = tuple(sorted(manifest_files.items()))
        analyses: dict[str, Analysis] = {}
        depends: dict[str, frozenset[str]] = {}
        rechecked: list[str] = []
        loaded_rulesets: list[LoadedRuleset] = []
        resolver = Resolver(workspace)  # shared: a base and its variant checked again resolve the base once
        # A ruleset named may be a shipped one the rules folder does not shadow, as `validate` reads
        # it (`civrules watch my-game` beside a variant of it): it was left out, and
        # the round said "0 errors, 0 infos" of a ruleset never checked.
        known = workspace.known_manifests() if rulesets else manifests
        for name in sorted(manifests) if not rulesets else [n for n in rulesets if n in known]:
            previous = self._checked.get(name)
            if previous is not None and previous.key == self._key(
                workspace, names_key, previous.depends, listed=previous.listed
            ):
                loaded_rulesets.append(previous.analysis.loaded)
                checked = previous
            else:
                workspace.recording, workspace.listed = set(), False
                loaded = workspace.load_ruleset(known[name])
                kept = _kept(workspace, names_key, previous, loaded)
                if kept is not None:  # only comments at the end of files changed: nothing to check
                    assert previous is not None
                    workspace.recording = None
                    listed = previous.listed or workspace.listed
                    key = self._key(workspace, names_key, previous.depends, listed=listed)
                    checked = _Checked(key, previous.depends, kept, listed)
                    self._checked[name] = checked
                    loaded_rulesets.append(loaded)
                else:
                    if not walked:
                        self._references.next_round()
                        self.assembled.next_round()
                        walked = True
                    reuse = self._reuse(workspace, names_key, previous, known[name].family)
                    with remembering(self._references), assembling(self.assembled):
                        analysis = analyse(workspace, loaded, resolver=resolver, reuse=reuse, debug=self.debug)
                    files = workspace.recording | {manifest_files[n] for n in _chain(manifests, name)}
                    workspace.recording = None
                    key = self._key(workspace, names_key, files, listed=workspace.listed)
                    checked = _Checked(key, frozenset(files), analysis, workspace.listed)
                    self._checked[name] = checked
                    loaded_rulesets.append(loaded)
                    rechecked.append(name)
                    yield None
            # Its files are claimed now, as a full run's first reading of them was: a later
            # unclaimed load (another ruleset's did-you-mean for a missing path) keeps their judgment.
            workspace.used |= used_files(loaded_rulesets[-1:])
            analyses[name] = checked.analysis
            depends[name] = checked.depends
            diagnostics.extend(checked.analysis.diagnostics)
        for gone in set(self._checked) - set(known):
            del self._checked[gone]
        if not rulesets:
            diagnostics.extend(unused_files(workspace, loaded_rulesets))
        rule_files = workspace.rule_files()
        for gone in {relative for relative in self._parsed if not relative.startswith(SHIPPED)} - set(rule_files):
            del self._parsed[gone]
            self._stamps.pop(gone, None)
        for forgotten in [key for key in self._lines if key[0] not in self._stamps]:
            del self._lines[forgotten]
        result = Result(
            sort_diagnostics(diagnostics),
            analyses,
            depends,
            {relative: workspace.display(self.root / relative) for relative in rule_files},
            sorted(workspace.reread),
            rechecked,
            sorted(workspace.spliced),
            workspace,
            invocation,
        )
        self.last = result
        yield result

    def _reuse(
        self, workspace: _SessionWorkspace, names: tuple[object, ...], previous: _Checked | None, family: Family
    ) -> Callable[[Check, Ruleset], list[Diagnostic] | None] | None:
        """What a ruleset's checks found before an edit, for the checks the edit does not concern.

        Only after an edit of one data file that was spliced (:mod:`civrules.load.splice`) into the
        reading the previous analysis used: the edit then changed the entities of the collection
        whose list it fell in, and nothing else; or of one manifest, inside the entries of one
        operation of its `overlay.<collection>` (they change that collection's entities alone, and
        the setting it is written inside, if any: `overlay.rows` of a `limits.rows`), or
        inside one of its top-level settings or collections (`limits:`, `items:`: that setting
        and the collections written in it change alone; a check reading that setting, any setting
        or every collection runs again), in the ruleset and in each variant of it; or of a data
        file, inside one setting it writes (`limits:` in a data file), likewise. A
        check that declares what it reads
        (:attr:`civrules.checks.Check.reads`) and reads none of that collection gives what it found
        before, its locations in the edited file moved by the lines the edit added or removed;
        one located in the items read again runs again. So does one that declares fields of that
        collection, when the edit changed none of them (:func:`changed_fields`): a card's name
        typed again leaves the checks of its cost and credits with what they found.
        """
        if previous is None or previous.analysis.found_by is None or previous.key[0] != names:
            return None
        files = previous.key[1]
        assert isinstance(files, tuple)
        changed = [(relative, signature) for relative, signature in files if workspace.signature(relative) != signature]
        if len(changed) != 1 or changed[0][0] not in workspace._splices:
            return None
        relative, before = changed[0]
        spliced, parsed = workspace._splices[relative]
        kind = parsed.kind.rpartition("/")[2] if parsed.kind is not None else None
        if spliced.path is None or parsed.signature != before or kind is None:
            return None
        items_path: tuple[str, ...] | None = None  # the list whose items were read again: entities' entries
        edited_setting: str | None = None  # the setting whose value the edit fell in (a manifest's)
        if kind == "ruleset":
            # A manifest: an edit inside the entries of one operation of a variant's
            # `overlay.<collection>` (`add`, `patch`, `replace`, `remove`) changes that collection's
            # entities and nothing else.
            path = spliced.path
            overlaid = len(path) == 3 and path[0] == "overlay" and path[2] in OPERATIONS
            touched = {path[1]} if overlaid and path[1] in family.collections else set()
            # A removal changes which entities there are (and what `removed` holds): every field.
            items_path = path if overlaid and path[2] != "remove" else None
            if touched:
                # A collection written inside a setting (`limits.rows`): the setting is edited too,
                # as where the manifest writes that collection itself (below).
                spec = family.collections[path[1]]
                holder = spec.path[0]
                if spec.slot == "ruleset" and len(spec.path) > 1 and family.settings.get(holder) == "ruleset":
                    edited_setting = holder
            if not overlaid and path and isinstance(path[0], str) and path[0] not in SHAPING_KEYS:
                # A list inside one top-level key that is a setting of the manifest (its value,
                # and the collections written inside it: a setting's part), or a collection the
                # manifest writes (`items:`): that setting and those collections change, nothing
                # else of the ruleset (what the manifest is and reads lies in the keys left out).
                key = path[0]
                edited_setting = key if family.settings.get(key) == "ruleset" else None
                inside = {
                    name for name, spec in family.collections.items() if spec.slot == "ruleset" and spec.path[0] == key
                }
                if edited_setting is not None or inside:
                    touched = inside
                    whole = [name for name in inside if family.collections[name].path == path]
                    items_path = path if edited_setting is None and len(whole) == 1 and len(inside) == 1 else None
        else:
            touched = {
                name
                for name, spec in family.collections.items()
                if spec.slot != "ruleset" and family.slots.get(spec.slot) == kind and spec.path == spliced.path
            }
            items_path = spliced.path
            head = spliced.path[0] if spliced.path else None
            if not touched and isinstance(head, str):
                slot = family.settings.get(head)
                if slot is not None and family.slots.get(slot) == kind:
                    # A list inside one setting a data file writes (its `limits:`, say):
                    # that setting changes alone, as inside a manifest's.
                    edited_setting = head
                    items_path = None
        if kind == "rule_index":
            touched = {RULE_INDEX}
            items_path = None
        if not touched and edited_setting is None:
            return None  # a list no collection is made of (a map's list of borders left out): anything may read it
        found_by = previous.analysis.found_by
        model_before = previous.analysis.model
        fields: list[frozenset[str] | None] = []  # the fields the edit changed, once asked (None: any)

        def edited_fields(model: Ruleset) -> frozenset[str] | None:
            if not fields:
                name = next(iter(touched))
                fields.append(
                    changed_fields(name, family, model_before, model, parsed.document, spliced, items_path)
                    if len(touched) == 1 and items_path is not None and model_before is not None
                    else None
                )
            return fields[0]

        def reuse(entry: Check, model: Ruleset) -> list[Diagnostic] | None:
            earlier = found_by.get(entry.code.code)
            if earlier is None:
                return None
            reads = entry.all_reads  # what its hints read too: a hint is part of what it found
            if edited_setting is not None and (
                reads is None or ALL_COLLECTIONS in reads or SETTINGS in reads or setting(edited_setting) in reads
            ):
                return None  # it reads the setting the edit fell in (or may: any setting, anything)
            if entry.reads_any_of(touched):
                # It reads the collection the edit fell in: still the same findings when it reads
                # none of the fields the edit changed (an item's name, for the checks of its costs).
                if reads is None or ALL_COLLECTIONS in reads:
                    return None
                edited = edited_fields(model)
                if edited is None or any(reads_field(reads, one) for one in edited):
                    return None
            return _moved(earlier, parsed.path, spliced)

        return reuse

    def _key(
        self, workspace: _SessionWorkspace, names: tuple[object, ...], files: Iterable[str], *, listed: bool = False
    ) -> tuple[object, ...]:
        signatures = tuple(sorted((relative, workspace.signature(relative)) for relative in files))
        return (names, signatures, workspace.listing() if listed else None)

    def signature(self, relative: str, overlays: Mapping[str, str], workspace: Workspace) -> Signature:
        """What the content of ``relative`` is now.

        Only a signature of kind ``text`` or ``bytes`` names a content whose reading may be reused;
        the others (missing, refused, not a regular file, too large) say only when to look again.
        """
        text = overlays.get(relative)
        if text is not None and workspace.takes_buffer(relative):
            # An editor's text is known by the bytes it would be saved as: a file opened unchanged
            # (or closed unsaved) reads as it did, and nothing is checked again (as ("text", hash)
            # it matched no key of the disk's bytes: opening a file re-read it and re-checked every
            # ruleset reading it). Reading those bytes gives what reading the text gives; a text
            # no file can hold (a lone surrogate) stays text. A buffer of a link is none (see
            # Workspace.buffer): the link is refused, as on disk.
            try:
                return ("bytes", hashlib.blake2b(text.encode("utf-8")).hexdigest())
            except UnicodeEncodeError:
                return ("text", hashlib.blake2b(text.encode("utf-8", "surrogatepass")).hexdigest())
        if relative.startswith(SHIPPED):  # installed with civrules: it does not change while it runs
            return ("bytes", relative)
        path = self.root / relative
        now = time.time_ns()  # before the stat: a save just after it is within the step judged below
        try:
            found = os.stat(path)
        except (OSError, ValueError) as error:  # ValueError: a name no file system can hold
            return ("missing", str(getattr(error, "errno", "")))
        if workspace.check_path(relative) is not None:
            return ("refused", "")
        if not stat.S_ISREG(found.st_mode) or found.st_size > self.limits.max_bytes:
            return ("unread", f"{found.st_mode}:{found.st_size}:{found.st_mtime_ns}")
        stamp = (found.st_mtime_ns, found.st_ctime_ns, found.st_size, found.st_ino, found.st_dev)
        known = self._stamps.get(relative)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            # Through civrules.support.files, as every read: a link or a FIFO swapped in since the stat
            # above is refused, not followed or waited on.
            raw = read_under(self.root, relative, self.limits.max_bytes)
        except RefusedError as refused:
            return ("unread", refused.kind)
        except OSError as error:
            return ("missing", str(error.errno))
        signature = ("bytes", hashlib.blake2b(raw).hexdigest())
        # A file read within a step of its file system's clock may change again keeping this stamp
        # (settled()): kept, its stale content was reused until another save changed the stamp.
        if settled(found, now):
            self._stamps[relative] = (stamp, signature)
        else:
            self._stamps.pop(relative, None)
        return signature


class _SessionWorkspace(Workspace):
    """A workspace for one update: files whose content did not change come from the session."""

    reads_headers = False  # a manifest's reading is kept by the session: reading it again costs nothing

    def __init__(self, session: Session) -> None:
        super().__init__(session.root, session.limits, dict(session.overlays))
        self.session = session
        self.recording: set[str] | None = None
        #: Whether the ruleset being recorded listed the rule files (:meth:`suggestible_files`).
        self.listed = False
        self._listing: str | None = None
        self.reread: list[str] = []
        self.spliced: list[str] = []
        #: The text each file was read from in this update, kept for splicing the next edit.
        self._texts: dict[str, str] = {}
        #: The files spliced in this update: what was read again, and the reading it was spliced into.
        self._splices: dict[str, tuple[Spliced, _Parsed]] = {}
        self._signatures: dict[str, Signature] = {}
        self._relative: dict[str, str] = {}
        #: The files (by their names in diagnostics) the rulesets of this update loaded so far read,
        #: every ruleset checked, the named ones alike (`watch RULESET`): see :meth:`judged_alike`.
        self.used: set[str] = set()

    def signature(self, relative: str) -> Signature:
        if relative not in self._signatures:
            self._signatures[relative] = self.session.signature(relative, self.overrides, self)
        return self._signatures[relative]

    def suggestible_files(self) -> list[str]:
        if self.recording is not None:
            self.listed = True
        return super().suggestible_files()

    def listing(self) -> str:
        """What names the rule files have now (a hash of them): part of the key of a ruleset that
        listed them for a did-you-mean. A missing path's hint stayed "the path is relative to ..."
        after the file it means was created (or kept proposing one since renamed) until the
        manifest itself changed, where `validate` proposes the file there is now (round 33)."""
        if self._listing is None:
            self._listing = hashlib.blake2b("\0".join(self.rule_files()).encode("utf-8", "surrogatepass")).hexdigest()
        return self._listing

    def relative_of(self, display: str) -> str:
        return self._relative.get(display, display)

    def source_lines(self, display: str, mentioning: str = "") -> list[str]:
        """As :meth:`Workspace.source_lines`, a file on disk read once while its stamp stays: each
        ruleset an edit checks again looks for suppressions in each of its files (about 30 reads of
        unchanged files an update of the largest shipped ruleset under ten variants and a chain).

        The lines are kept with the stamp and signature the session saw this update
        (:meth:`Session.signature`), before they were read: a write in between leaves another
        stamp, so the next update reads the file again."""
        relative = self._display_index()[0].get(display)
        if relative is None or relative in self.overrides or relative.startswith(SHIPPED):
            return super().source_lines(display, mentioning)
        signature = self.signature(relative)
        stamped = self.session._stamps.get(relative)
        if stamped is None or stamped[1] != signature:  # not read this update (a link, a folder, gone)
            return super().source_lines(display, mentioning)
        kept = self.session._lines.get((relative, mentioning))
        if kept is not None and kept[0] == stamped:
            return list(kept[1])
        lines = super().source_lines(display, mentioning)
        self.session._lines[(relative, mentioning)] = (stamped, lines)
        return list(lines)

    def load(self, relative: str) -> LoadedFile:
        if self.recording is not None:
            self.recording.add(relative)
        self.noted(relative)
        loaded = self._files.get(relative)
        if loaded is not None:
            return loaded
        signature = self.signature(relative)
        reusable = signature[0] in ("text", "bytes")
        parsed = self.session._parsed.get(relative)
        among = self._among(relative)
        if reusable and parsed is not None and parsed.signature == signature and self.judged_alike(parsed, among):
            if parsed.text is None and relative in self.overrides:
                # Read from disk, now open with the same content: the next edit splices into its text.
                parsed = self.session._parsed[relative] = replace(parsed, text=self.overrides[relative])
            # A fresh list: a run appends to a file's diagnostics (a manifest's id, say).
            loaded = LoadedFile(parsed.path, parsed.document, parsed.kind, list(parsed.diagnostics), parsed.read)
            self._files[relative] = loaded
        else:
            loaded = super().load(relative)
            self.reread.append(relative)
            if reusable:
                self.session._parsed[relative] = _Parsed(
                    signature,
                    loaded.path,
                    loaded.document,
                    loaded.kind,
                    tuple(loaded.diagnostics),
                    loaded.read,
                    self._texts.get(relative),
                    among,
                )
        self._relative[loaded.path] = relative
        return loaded

    def judged_alike(self, parsed: _Parsed, among: tuple[str, ...] | None) -> bool:
        """Whether the kept reading ``parsed`` is judged as a load now would judge it (``among``:
        :meth:`_among`), as a full run, whose first load of a file is the one its judgment is kept
        from (a ruleset's files are read claimed before any other read of them).

        - Claimed now (``among`` None, a manifest too): kept where it was claimed; a reading judged
          among the folder's families is judged again as the claiming family's (a file a manifest
          starts to list: kept, the session's index, hovers and completions went on judging it as
          the folder's default family's `map` where its ruleset reads it as another family's).
        - Unclaimed now: a reading judged among the same families is kept; a reading a ruleset
          claimed is kept where a ruleset this update loaded before reads it (:attr:`used`: a full
          run read it claimed then), else judged among the folder's families (a file a manifest
          stops listing kept its old family's kind, hints and completions until the file itself
          changed: round 31). Before round 33 any claimed reading was kept until every ruleset was
          loaded, and for good where only some are checked (`watch RULESET`): a manifest's missing
          path, whose did-you-mean reads every rule file unclaimed, kept a file no ruleset reads
          any more judged as its old family's (its diagnostics those of another game's `map`).
        """
        if among is None:
            return parsed.among is None
        if parsed.among is not None:
            return among == parsed.among
        return parsed.path in self.used

    def _among(self, relative: str) -> tuple[str, ...] | None:
        """The families (ids) a load of ``relative`` now would judge it among: a data file no
        ruleset claims is judged among the rules folder's (:meth:`Workspace.families_here`), so a
        reading kept from another set of them is judged again, as a full run would. None where it
        is claimed, or a manifest (whose own `family:` or base decides). A reading a ruleset
        claimed is kept as it was: the judgment its family made."""
        if self._claiming is not None or is_manifest_path(relative.removeprefix(SHIPPED)):
            return None
        return tuple(one.id for one in self.families_here())

    def read_text(self, relative: str, text: str, display: str) -> tuple[Document | None, list[Diagnostic]]:
        """Splice the edit into the previous reading of the file when it allows (see
        :mod:`civrules.load.splice`), else read the whole text."""
        self._texts[relative] = text
        previous = self.session._parsed.get(relative)
        if (
            previous is not None
            and previous.text is not None
            and previous.document is not None
            and previous.read == 0
            and previous.path == display
        ):
            spliced = splice_document(previous.text, previous.document, text, self.limits)
            if spliced is not None:
                self.spliced.append(relative)
                self._splices[relative] = (spliced, previous)
                return spliced.document, []
        return super().read_text(relative, text, display)

    def validate(self, relative: str, document: Document, kind: str) -> list[Diagnostic]:
        """A spliced document whose previous reading was valid: only its new items are validated,
        where the schema judges their list item by item (see :func:`civrules.schema.items_keep_valid`)."""
        from civrules.schema import items_keep_valid

        found = self._splices.get(relative)
        if found is not None:
            spliced, previous = found
            if (
                spliced.document is document
                and previous.kind == kind
                and not previous.diagnostics
                and (
                    spliced.path is None or items_keep_valid(kind, document, spliced.path, spliced.first, spliced.count)
                )
            ):
                return []
        return super().validate(relative, document, kind)

    def read_raw(self, relative: str, raw: bytes, display: str) -> tuple[Document | None, list[Diagnostic]]:
        """A file saved on disk: read as its text when that is what the reader would read (UTF-8
        without a byte order mark, within the bound), so a saved edit is spliced as a typed one."""
        if raw[:1] not in (b"\xef", b"\xfe", b"\xff", b"\x00") and len(raw) <= self.limits.max_bytes:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                return self.read_text(relative, text, display)
        return super().read_raw(relative, raw, display)


def _kept(
    workspace: _SessionWorkspace, names: tuple[object, ...], previous: _Checked | None, loaded: LoadedRuleset
) -> Analysis | None:
    """The previous analysis of a ruleset, for ``loaded``, when the files it read changed only in
    blank and comment lines at their ends (a comment appended): no node's data changed, and no
    position but the ends of the nodes that ended where a file did (:attr:`Spliced.ends`). Its
    diagnostics are those found before, those ending there moved; its model and resolution are
    the same (the same data objects; the resolution's documents are the readings it was made from,
    whose last nodes end where the file ended then; the next analysis resolves again).
    None when anything else changed: a file not spliced so, one
    that had diagnostics of its own, a suppression comment (`# civrules: ...`, which silences what
    checks find) among the lines changed, or a diagnostic that starts where the file ended.
    """
    if previous is None or previous.key[0] != names:
        return None
    files = previous.key[1]
    assert isinstance(files, tuple)
    ends: dict[str, tuple[int, int]] = {}
    for relative, before in files:
        if workspace.signature(relative) == before:
            continue
        workspace.load(relative)  # a base's file, not read yet in this update: read (spliced) now
        found = workspace._splices.get(relative)
        if found is None:
            return None
        spliced, parsed = found
        if spliced.path is not None or spliced.ends is None or parsed.signature != before or parsed.diagnostics:
            return None
        new_text, old_text = workspace._texts.get(relative), parsed.text
        if new_text is None or old_text is None:
            return None
        first = spliced.lines[0]  # the first line changed (lines before it hold the data: it is above 1)
        for text, count in ((old_text, spliced.ends[0]), (new_text, spliced.ends[1])):
            # the lines from `first` on, of the `count` the text's line breaks split it in
            if first < 2 or any("civrules" in line.lower() for line in text.rsplit("\n", count - first + 1)[1:]):
                return None
        ends[parsed.path] = spliced.ends
    if not ends:
        return None

    def moved(span: Span) -> Span | None:
        end = ends.get(span.file)
        if end is None or (span.end_line, span.end_column) != (end[0], 1):
            return span if end is None or (span.line, span.column) < (end[0], 1) else None
        return replace(span, end_line=end[1]) if (span.line, span.column) < (end[0], 1) else None

    analysis = previous.analysis
    diagnostics = _relocated(analysis.diagnostics, moved)
    if diagnostics is None:
        return None
    found_by: dict[str, list[Diagnostic]] | None = None
    if analysis.found_by is not None:
        found_by = {}
        for code, earlier in analysis.found_by.items():
            moved_earlier = _relocated(earlier, moved)
            if moved_earlier is None:
                return None
            found_by[code] = moved_earlier
    return replace(analysis, loaded=loaded, diagnostics=diagnostics, found_by=found_by)


def changed_fields(
    name: str,
    family: Family,
    before: Ruleset,
    model: Ruleset,
    old: Document | None,
    spliced: Spliced,
    items: NodePath,
) -> frozenset[str] | None:
    """What an edit spliced into the entries of the collection ``name`` (the list at ``items``:
    a data file's entities, or the entries of one operation of a variant's overlay) changed, as
    :attr:`civrules.checks.Check.reads` names it (`items.name`); None when it may
    have changed any field: an entry added, removed or renamed (which entities there are), an
    entity keyed otherwise than by one field, or a field of the model made of the entity whole.

    A field is changed where an entry read again writes it otherwise (or writes it where it did
    not: what locates the field is then another entry), and where the model of an entity those
    entries name holds another value for it (before: ``before``'s, now: ``model``'s). Every other
    entity is what it was: an entry changes only the entity it names.
    """
    spec = family.collections.get(name)
    if spec is None or spec.qualifier is not None or spec.pair or old is None:
        return None
    old_items, new_items = _at(old.data, items), _at(spliced.document.data, items)
    if not isinstance(old_items, list) or not isinstance(new_items, list):
        return None
    first, count = spliced.first, spliced.count
    if len(old_items) != len(new_items) or first < 0 or first + count > len(new_items):
        return None  # entries added or removed: which entities there are changed
    edited: set[str] = set()
    named: set[object] = set()
    for was, now in zip(old_items[first : first + count], new_items[first : first + count], strict=True):
        if not isinstance(was, dict) or not isinstance(now, dict):
            return None
        key = was.get(spec.key)
        if not isinstance(key, str) or not _same(key, now.get(spec.key)):
            return None
        named.add(key)
        edited.update(f"{name}.{field}" for field in _differing(was, now))
    then, made = _collection(before, name), _collection(model, name)
    if then is None or made is None or len(then) != len(made):
        return None
    if any(a.id != b.id for a, b in zip(then.items, made.items, strict=True)):
        return None
    if before.removed.get(name, {}).keys() != model.removed.get(name, {}).keys():
        return None
    for a, b in zip(then.items, made.items, strict=True):
        if a.raw.get(spec.key) not in named and b.raw.get(spec.key) not in named:
            continue
        if type(a) is not type(b):
            return None
        edited.update(f"{name}.{field}" for field in _differing(a.raw, b.raw))
        for one in dataclasses.fields(a):
            if one.name in ("origin", "raw") or getattr(a, one.name) == getattr(b, one.name):
                continue
            if one.name != "name" and one.name not in a.raw and one.name not in b.raw:
                return None  # a field made of the entity whole (or its id): any check of it may differ
            edited.add(f"{name}.{one.name}")
    return frozenset(edited)


def reads_field(reads: frozenset[str], field: str) -> bool:
    """Whether a check declaring ``reads`` reads ``field`` (`collection.field`): the field itself,
    or its collection whole."""
    return field in reads or field.partition(".")[0] in reads


def _collection(model: Ruleset, name: str) -> Collection[Entity] | None:
    return next((one for one in model.collections() if one.name == name), None)


def _at(data: object, path: NodePath) -> object:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _differing(was: Mapping[str, object], now: Mapping[str, object]) -> list[str]:
    """The keys ``was`` and ``now`` write differently: a value of another type or content (`1`
    is not `1.0`, nor `true`), or written by one only."""
    missing = object()
    return [key for key in {**was, **now} if not _same(was.get(key, missing), now.get(key, missing))]


def _same(a: object, b: object) -> bool:
    """Whether two values read from YAML are the same: of one type, equal, keys in one order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(value, b[key]) for key, value in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a is b or a == b


def _moved(diagnostics: Sequence[Diagnostic], file: str, spliced: Spliced) -> list[Diagnostic] | None:
    """``diagnostics`` located where their lines of ``file`` are after ``spliced``; None when one
    of them is located in the items read again (its check must run again)."""

    def moved(span: Span) -> Span | None:
        if span.file != file:
            return span
        line, end_line = spliced.moved(span.line), spliced.moved(span.end_line)
        if line is None or end_line is None:
            return None
        return span if (line, end_line) == (span.line, span.end_line) else replace(span, line=line, end_line=end_line)

    return _relocated(diagnostics, moved)


def _relocated(diagnostics: Sequence[Diagnostic], moved: Callable[[Span], Span | None]) -> list[Diagnostic] | None:
    """``diagnostics`` with each span (their own and their related ones') where ``moved`` puts it;
    None when ``moved`` cannot place one (None for it: its check must run again). A diagnostic
    whose spans all stay is kept as it is."""
    found = []
    for diagnostic in diagnostics:
        span = moved(diagnostic.span) if diagnostic.span is not None else None
        related = tuple(replace(one, span=at) for one in diagnostic.related if (at := moved(one.span)) is not None)
        if (diagnostic.span is not None and span is None) or len(related) != len(diagnostic.related):
            return None
        same = span is diagnostic.span and all(
            a.span is b.span for a, b in zip(related, diagnostic.related, strict=True)
        )
        found.append(diagnostic if same else replace(diagnostic, span=span, related=related))
    return found


def _chain(manifests: Mapping[str, object], name: str) -> list[str]:
    """A ruleset and its bases through ``extends``, as far as they exist (cycles stop)."""
    chain: list[str] = []
    current: str | None = name
    while current is not None and current in manifests and current not in chain:
        chain.append(current)
        manifest = manifests[current]
        data = getattr(manifest, "data", {})
        parent = data.get("extends") if isinstance(data, dict) else None
        current = parent if isinstance(parent, str) else None
    return chain


def used_files(loaded: Sequence[LoadedRuleset]) -> set[str]:
    """The files (by their names in diagnostics) the rulesets ``loaded`` read: their manifests,
    their data files and those they defer."""
    used = {one.path for ruleset in loaded for files in ruleset.files.values() for one in files}
    used |= {ruleset.manifest.file.path for ruleset in loaded}
    used |= {display for ruleset in loaded for display in ruleset.deferred}
    return used


def unused_files(workspace: Workspace, loaded: Sequence[LoadedRuleset]) -> list[Diagnostic]:
    """Diagnostics of every rule file no ruleset uses: each is validated, and reported as unused.

    The same as ``civrules validate`` with no ruleset named.
    """
    used = used_files(loaded)
    found: list[Diagnostic] = []
    for relative in workspace.rule_files():
        one = workspace.load(relative)
        if one.path in used:
            continue
        found.extend(one.diagnostics)
        if one.kind is not None and one.kind != "ruleset":
            found.append(
                Diagnostic(
                    codes.UNUSED_FILE.code,
                    codes.UNUSED_FILE.severity,
                    f"{name_ticked(relative)} is not used by any ruleset",
                    Span.at(one.path),
                    "list it under `files:` in a ruleset manifest, or delete it",
                    subjects=(relative,),
                )
            )
    return found


def invocation(root: Path, limits: Limits, rulesets: Sequence[str] = ()) -> tuple[str, ...]:
    """The arguments of `civrules --rules ROOT validate RULESET...`, with the options that choose
    what is read: the command line's, or where none runs, those of ``limits`` that are not the
    defaults and `--no-shipped` where the shipped rulesets are turned off
    (:func:`civrules.support.commands.validating`)."""
    own: list[str] = ["--no-shipped"] if shipped_turned_off() else []
    default = Limits()
    if limits.max_bytes != default.max_bytes:
        own += ["--max-file-size", str(limits.max_bytes)]
    if limits.max_nodes != default.max_nodes:
        own += ["--max-nodes", str(limits.max_nodes)]
    return validating(root, rulesets, otherwise=own)


def full_run(root: Path, overlays: Mapping[str, str] | None = None, limits: Limits | None = None) -> list[Diagnostic]:
    """A full validation from scratch (no session), as ``civrules validate`` with no ruleset named
    (and as a session of ``root`` finds it: its hints' commands name the folder, see :func:`invocation`)."""
    with invoked(invocation(root, limits or Limits())):
        return _full_run(root, overlays, limits)


def _full_run(root: Path, overlays: Mapping[str, str] | None, limits: Limits | None) -> list[Diagnostic]:
    workspace = Workspace(root, limits, dict(overlays or {}))
    manifests = workspace.manifests()
    diagnostics: list[Diagnostic] = list(workspace.discovery_diagnostics)
    loaded = [workspace.load_ruleset(manifests[name]) for name in sorted(manifests)]
    for one in loaded:
        diagnostics.extend(analyse(workspace, one).diagnostics)
    diagnostics.extend(unused_files(workspace, loaded))
    return sort_diagnostics(diagnostics)
