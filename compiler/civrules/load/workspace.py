"""The rules directory: finding ruleset manifests and loading the files they name.

Every file is read and schema-validated once per run, however many rulesets use it. Paths in
manifests are relative to ``rules/`` and may not leave it. A ruleset manifest is declared by its
header (its id, family and base, :mod:`civrules.load.header`) and read in full when its ruleset,
a variant of it, or its diagnostics are asked for: a command on one ruleset reads no other's.

The rulesets shipped with civrules (its own ``rules/``, package data of the wheel) can be
extended from any rules folder without being copied: a ruleset id not declared under ``rules/``
is looked up among them (:func:`shipped_rules`). They are read, never written, through the same
guards as the user's files, under keys that begin with :data:`SHIPPED` (which no manifest path
may), and named in diagnostics by where they are installed; only the rules folder's own rulesets
are "every ruleset" of a command. Every file is read through
:mod:`civrules.support.files`: a symbolic link anywhere under ``rules/`` is reported (R003), never
followed; a FIFO, a device or a folder in place of a file is unreadable (L012); the size bound
applies to every read, the quoting of a line included.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from civrules.diagnostics import Diagnostic, Related, Span, Unreadable, codes
from civrules.diagnostics.words import name_ticked, named_path, ticked, times
from civrules.families import Family, default_family, families, family_named, family_of
from civrules.load import Document, Limits, NodePath, read_yaml_bytes, read_yaml_text
from civrules.load.header import IDENTITY, headers_of, read_header
from civrules.load.lines import decode, split_lines
from civrules.load.names import SHIPPED as SHIPPED
from civrules.load.names import artifact_name
from civrules.load.reader import scalar_text, unreadable_file, unreadable_folder
from civrules.support import cache, environment, files
from civrules.support.files import plain_path

#: A yes (`1`, `true`, `yes`, `on`; set by `--no-shipped`): the rules folder is read alone
#: (:mod:`civrules.support.environment` reads it).
NO_SHIPPED_VARIABLE = "CIVRULES_NO_SHIPPED"


def shipped_rules() -> Path | None:
    """Where the rulesets shipped with civrules are: ``civrules/_rules`` in an installed wheel, the
    ``rules/`` of the clone in a source checkout (an editable install), else None."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_rules"
    if packaged.is_dir():
        return packaged
    clone = package.parent.parent / "rules"
    if package.parent.name == "compiler" and (clone / "rulesets").is_dir():
        return clone
    return None


def shipped_turned_off(strict: bool = False) -> bool:
    """Whether `--no-shipped` or CIVRULES_NO_SHIPPED turned the shipped rulesets off. A value that
    is neither a yes nor a no raises :class:`~civrules.support.environment.FlagValueError` when
    ``strict`` (the command line refuses it first, R008) and is read as no otherwise."""
    try:
        return environment.flag(NO_SHIPPED_VARIABLE)
    except environment.FlagValueError:
        if strict:
            raise
        return False


def shipped_turned_off_by() -> str:
    """What turned the shipped rulesets off, for a hint: `--no-shipped` or the variable as set."""
    return f"`--no-shipped` or {environment.written(NO_SHIPPED_VARIABLE)}"


def is_manifest_path(relative: str) -> bool:
    """Whether the rule file ``relative`` (a path under rules/) is where a ruleset's manifest is:
    directly in `rulesets/`.

    >>> is_manifest_path("rulesets/my-game.yaml"), is_manifest_path("cards/my-game.yaml")
    (True, False)
    """
    return relative.startswith("rulesets/") and relative.count("/") == 1


def shipped_for(root: Path) -> Path | None:
    """The shipped rules a rules folder sees: none with `--no-shipped` (CIVRULES_NO_SHIPPED), and
    none for the shipped folder itself (civrules' own checkout)."""
    if shipped_turned_off():
        return None
    shipped = shipped_rules()
    if shipped is None:
        return None
    try:
        if root.resolve() == shipped.resolve():
            return None
    except (OSError, RuntimeError):  # a link loop: the rules folder is reported by rule_files
        pass
    return shipped


#: The longest `extends` chain resolved (V002 beyond it; each level costs stack, and real variants
#: are 1-3 deep). :mod:`civrules.resolve` bounds resolution by it, and a manifest's family is
#: looked for through no more bases than this.
MAX_EXTENDS = 64


@dataclass(slots=True)
class LoadedFile:
    """One file as read: its document (None if unreadable), its kind, and what was wrong with it."""

    path: str
    document: Document | None
    #: The qualified kind (:func:`civrules.schema.qualify`): ``map``, ``<family>/cards`` ...
    kind: str | None
    diagnostics: list[Diagnostic]
    #: How many of ``diagnostics`` come from reading the file (the rest: from judging its kind).
    read: int = 0

    @property
    def valid(self) -> bool:
        return (
            self.document is not None
            and self.kind is not None
            and not any(d.severity == "error" for d in self.diagnostics)
        )


class Manifest:
    """A ruleset manifest found under ``rules/rulesets/``.

    Its identity (:attr:`id`, :attr:`family`, :attr:`head`) is known from the start; its file
    (:attr:`file`, :attr:`data`) may be read only when first asked for: a manifest whose header
    was read cheaply (:mod:`civrules.load.header`) is read in full then, once, through the
    workspace's cache, exactly as it would have been read at the start.
    """

    __slots__ = ("_file", "_head", "_read", "family", "id", "shipped")

    def __init__(
        self,
        id: str,
        file: LoadedFile | None = None,
        family: Family | None = None,
        shipped: bool = False,
        *,
        head: dict[str, str] | None = None,
        read: Callable[[Manifest], LoadedFile] | None = None,
    ) -> None:
        """``file`` as read, or ``head`` (its identity keys, from :func:`read_header`) and ``read``,
        which reads the file in full when it is first needed."""
        assert file is not None or (head is not None and read is not None)
        self.id = id
        self._file = file
        self._head = head
        self._read = read
        #: The ruleset's family: its own `family:`, else its base's (through `extends`), else the default.
        self.family: Family = family if family is not None else default_family()
        #: Shipped with civrules (read from the installed package), not one of the rules folder's own.
        self.shipped = shipped

    def __repr__(self) -> str:
        state = "read" if self._file is not None else "header"
        return f"Manifest({self.id!r}, family={self.family.id!r}, shipped={self.shipped}, {state})"

    @property
    def file(self) -> LoadedFile:
        """The manifest's file, read in full (now, if it was not yet)."""
        if self._file is None:
            assert self._read is not None
            self._file = self._read(self)
            self._read = None  # it holds the workspace, which holds this manifest: no cycle once read
        return self._file

    @file.setter
    def file(self, loaded: LoadedFile) -> None:
        self._file = loaded

    @property
    def is_read(self) -> bool:
        """Whether the manifest's file has been read in full (not only its header)."""
        return self._file is not None

    @property
    def head(self) -> dict[str, Any]:
        """The top-level values of its identity keys (kind, id, family, extends) that it holds,
        without reading the file in full where only its header was read."""
        if self._file is None and self._head is not None:
            return self._head
        data = self.data
        return {key: data[key] for key in IDENTITY if key in data}

    @property
    def data(self) -> dict[str, Any]:
        document = self.file.document
        assert document is not None
        data: dict[str, Any] = document.data
        return data


@dataclass(slots=True)
class LoadedRuleset:
    """A manifest and the data files it names, each loaded and validated against its schema."""

    manifest: Manifest
    files: dict[str, list[LoadedFile]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Where the manifest's `files:` names each of its files (by the file's display name).
    entries: dict[str, NodePath] = field(default_factory=dict)
    #: The manifest's own diagnostics where they are not its file's: a variant whose base is not
    #: found has no family to be judged by (:func:`base_not_found`), so only what every family's
    #: schema says alike is kept (its identity keys); the rest waits for its base.
    judged: list[Diagnostic] | None = None
    #: The files its `files:` names but that were not read, their family unknown (by display name):
    #: named, so not unused (R005).
    deferred: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def family(self) -> Family:
        return self.manifest.family

    def all_diagnostics(self) -> list[Diagnostic]:
        own = self.manifest.file.diagnostics if self.judged is None else self.judged
        found = list(own) + list(self.diagnostics)
        for loaded in self.files.values():
            for one in loaded:
                found.extend(one.diagnostics)
        return found


#: A ruleset id as the schema has it (`$defs/ruleset_id`): what a file name or an id may be proposed as.
_RULESET_ID = re.compile(r"[a-z][a-z0-9-]*")


def _id_hint(ruleset_id: str, path: PurePosixPath) -> str:
    """R006's hint: only a file name and an id that would pass (`../evil` names no file, `V1` is no id)."""
    fixes = []
    if _RULESET_ID.fullmatch(ruleset_id):
        fixes.append(f"name the file `{ruleset_id}{path.suffix}`")
    if _RULESET_ID.fullmatch(path.stem):
        fixes.append(f"set `id: {scalar_text(path.stem)}`")  # `id: true` would be a boolean
    if fixes:
        return ", or ".join(fixes)
    return "give the manifest a kebab-case id (e.g. `my-variant`), and name its file after it (`my-variant.yaml`)"


class Workspace:
    """A ``rules/`` directory and everything read from it during one run."""

    #: Whether manifests are declared from their headers (:mod:`civrules.load.header`), each read
    #: in full only when asked for. A workspace whose readings outlive it (an editor's session,
    #: which reads again only what changed) reads them in full: a kept reading costs nothing.
    reads_headers = True

    def __init__(
        self,
        root: Path,
        limits: Limits | None = None,
        overrides: dict[str, str] | None = None,
        shipped: Path | bool | None = True,
    ) -> None:
        """``overrides`` maps paths relative to ``root`` to text read instead of the file (tests, editors);
        ``shipped`` is the folder of the shipped rulesets (True: :func:`shipped_for`, False: none)."""
        self.root = root
        cache.protect(root, "the rules folder")  # its cache entries are never read from it
        self.shipped_root: Path | None = shipped_for(root) if shipped is True else None if shipped is False else shipped
        self._shipped: dict[str, Manifest] | None = None
        self.overrides = overrides or {}
        #: Paths relative to ``root`` read as if no file were there, whatever the disk holds: what a
        #: commit does not hold (`validate --staged` in a commit of some paths, `git commit PATHS`).
        self.absent: set[str] = set()
        self.real_root = _real(root)  # a link loop is reported by rule_files
        self.limits = limits or Limits()
        self._files: dict[str, LoadedFile] = {}
        #: Each file read's key (see :meth:`load`) by its name in diagnostics, and the shipped ones'
        #: apart: asked once per ruleset of a run, a walk of every file read made a run of n variants
        #: of one base cost the square of n (round 29's `overlay-variants` shape).
        #: (A subclass that puts files in ``_files`` itself, as the tests' cache does, is indexed
        #: again when the count of files read is not the count indexed: :meth:`_display_index`.)
        self._by_display: dict[str, str] = {}
        self._shipped_by_display: dict[str, str] = {}
        self._indexed = 0
        #: The sets :meth:`reading` collects the files loaded into, innermost last.
        self._reading: list[set[str]] = []
        #: Files read as a kind of a family other than the one they declare on their own.
        self._family_files: dict[tuple[str, str], LoadedFile] = {}
        self._manifests: dict[str, Manifest] | None = None
        self.discovery_diagnostics: list[Diagnostic] = []
        self._rule_files: set[str] | None = None
        #: The manifests whose base is being read to learn their family (a loop of `extends`).
        self._hinting: set[str] = set()
        #: The family of the ruleset whose file :meth:`load_as` is reading for the first time.
        self._claiming: Family | None = None
        #: Whether :meth:`manifests` is being asked for by :meth:`families_here` (a loop, where a
        #: file under rulesets/ is read as a data file).
        self._declaring = False

    def display(self, path: Path) -> str:
        """How a file is named in diagnostics: relative to the working directory where it is under
        it, else absolute; normalised, so that a file has one name however `--rules` is spelt
        (`rules/../rules`, `./rules`, `../repo/rules` from inside the repository, its absolute path).

        A `..` is taken where the system takes it (:func:`civrules.support.files.dots_taken`, the
        rule of every path option and URI since round 32): after a link `L` leading elsewhere,
        `L/../x.yaml` is the `x.yaml` beside where `L` leads, the file the system opens; read by its
        letters, it was named as the `x.yaml` beside `L`, another file (round 33).
        """
        try:
            cwd = os.getcwd()
        except OSError:  # the working directory is gone: the command says so (R018, exit 2)
            if path.is_absolute():
                raise
            return Path(os.path.normpath(path)).as_posix()
        joined = os.path.join(cwd, path)
        if ".." in joined and os.pardir in Path(joined).parts:
            absolute = str(files.dots_taken(Path(joined), ()))
        else:
            absolute = os.path.normpath(joined)
        try:
            relative = os.path.relpath(absolute, cwd)
        except ValueError:  # pragma: no cover - another drive on Windows
            return Path(absolute).as_posix()
        outside = relative == os.pardir or relative.startswith(os.pardir + os.sep)
        return Path(absolute if outside else relative).as_posix()

    def name_of(self, display: str) -> str:
        """How a file (by its name in diagnostics) is named in what civrules writes for others to
        read: the sources a sheet or a package names, the files a message counts.

        A file of the rules folder by its path in it (``cards/x.yaml``); a shipped file by its path
        among the shipped rules behind :data:`SHIPPED` (``<civrules>/rulesets/my-game.yaml``),
        the same wherever civrules is installed and whatever the working directory (an install
        path made a variant's packages and sheets differ on every machine: round 20); any other
        name as it is. Diagnostics keep locating a file where it is (:meth:`display`), to be opened.
        """
        return artifact_name(display, self.root, self.shipped_root)

    @contextlib.contextmanager
    def reading(self) -> Iterator[set[str]]:
        """The files loaded while the block runs, cached or not (each also counts in every
        :meth:`reading` around it): what a result made in the block was made from."""
        found: set[str] = set()
        self._reading.append(found)
        try:
            yield found
        finally:
            self._reading.pop()

    def read_again(self, relatives: Iterable[str]) -> None:
        """Load ``relatives`` (from the cache, where they were loaded already): a result made
        earlier in the run and reused now is made from them, and whoever reuses it reads them too
        (a language server's session learns from what is loaded which edits concern a ruleset)."""
        for relative in relatives:
            self.load(relative)

    def noted(self, relative: str) -> None:
        """Count ``relative`` as loaded in every :meth:`reading` under way."""
        for found in self._reading:
            found.add(relative)

    def load(self, relative: str) -> LoadedFile:
        """Read and schema-validate ``rules/<relative>`` (cached)."""
        self.noted(relative)
        cached = self._files.get(relative)
        if cached is not None:
            return cached
        root, inside = self._place(relative)
        path = root / inside
        display = self.display(path)
        text = self.buffer(relative)
        if text is not None:
            # An editor's buffer is held to the bound of a file on disk (the same text saved).
            size = len(text) if len(text) > self.limits.max_bytes else len(text.encode("utf-8", "surrogatepass"))
            if size > self.limits.max_bytes:
                document, diagnostics = None, [_refusal(files.RefusedError("large", "", size), display, self.limits)]
            else:
                document, diagnostics = self.read_text(relative, text, display)
        else:
            document, diagnostics = self._read(relative, display)
        kind = None
        if document is not None:
            # Imported here: jsonschema is the heaviest import, and `civrules --version`, `list`
            # or a no-op `build` never validate anything.
            from civrules.schema import document_kind

            read = len(diagnostics)
            claimed, self._claiming = self._claiming, None
            family = self._inherited_hint(relative, document) or claimed
            among = (
                self.families_here() if family is None and not is_manifest_path(relative.removeprefix(SHIPPED)) else ()
            )
            kind, kind_diagnostics = document_kind(document, family, among)
            diagnostics.extend(kind_diagnostics)
            if kind is not None:
                diagnostics.extend(self.validate(relative, document, kind))
        else:
            read = len(diagnostics)
        loaded = LoadedFile(display, document, kind, diagnostics, read)
        in_step = self._indexed == len(self._files)
        self._files[relative] = loaded
        if in_step:
            self._by_display.setdefault(display, relative)
            if relative.startswith(SHIPPED):
                self._shipped_by_display.setdefault(display, relative)
            self._indexed = len(self._files)
        return loaded

    def _display_index(self) -> tuple[dict[str, str], dict[str, str]]:
        """Each file read's key by its name in diagnostics, and the shipped ones' apart: kept as
        files are read (:meth:`load`), made again from ``_files`` where it is out of step."""
        if self._indexed != len(self._files):
            by_display: dict[str, str] = {}
            shipped: dict[str, str] = {}
            for relative, loaded in self._files.items():
                by_display.setdefault(loaded.path, relative)
                if relative.startswith(SHIPPED):
                    shipped.setdefault(loaded.path, relative)
            self._by_display, self._shipped_by_display, self._indexed = by_display, shipped, len(self._files)
        return self._by_display, self._shipped_by_display

    def buffer(self, relative: str) -> str | None:
        """The editor's text of ``relative`` (:attr:`overrides`), where it stands for the file: None
        where there is none, and where the disk holds a link or a file that is not regular there.
        `validate` refuses those (R003, L012) and reads nothing through them: a buffer the editor
        read through the link (a rule file linked to one outside the project) was checked, its
        ids indexed, and the refusal never shown."""
        text = self.overrides.get(relative)
        return text if text is not None and self.takes_buffer(relative) else None

    def takes_buffer(self, relative: str) -> bool:
        """Whether an editor's buffer of ``relative`` stands for the file: the disk holds a regular
        file there, or nothing yet (see :meth:`buffer`)."""
        return relative.startswith(SHIPPED) or files.kind_of(self.root, relative) in ("file", "missing")

    def families_here(self) -> tuple[Family, ...]:
        """The families of the rules folder's own rulesets (none where it has none yet): those a
        data file no ruleset reads is judged among (:func:`civrules.schema.document_kind`), its
        hints, its completions and its hovers drawn from its own family, not from any game whose
        kind has its name. Shipped rulesets are not the folder's: they choose nothing here."""
        if self._declaring:
            return ()  # a file under rulesets/ that is no manifest, read while they are declared
        self._declaring = True
        try:
            manifests = self.manifests()
        finally:
            self._declaring = False
        return tuple(sorted({one.family.id: one.family for one in manifests.values()}.values(), key=lambda f: f.id))

    def _inherited_hint(self, relative: str, document: Document) -> Family | None:
        """The family a manifest that names none inherits from the ruleset it extends, found by
        reading that ruleset's manifest (``rulesets/<id>.yaml``: the file a ruleset id names); None
        where it is not such a manifest, or its base is not found so.

        The manifest is then judged once, under that family's schema: judged first as the default
        family's, a variant of another family failed and was validated again by jsonschema (its import
        alone was a tenth of a whole `validate`). :meth:`manifests` still settles the family from
        every manifest read (:func:`_inherited_family`): this is where it is looked for first.
        """
        data = document.data
        shipped = relative.startswith(SHIPPED)
        folder = f"{SHIPPED}rulesets/" if shipped else "rulesets/"
        if (
            not isinstance(data, dict)
            or data.get("kind") != "ruleset"
            or "family" in data
            or not isinstance(data.get("extends"), str)
            or not relative.startswith(folder)
            or "/" in relative[len(folder) :]
            or relative in self._hinting
            # Each base read here reads its own base first: past the longest chain resolved (V002
            # reports it) the family is left to :meth:`manifests` rather than to the stack.
            or len(self._hinting) >= MAX_EXTENDS
        ):
            return None
        from civrules.schema import registered

        parent: str = data["extends"]
        candidates = [f"rulesets/{parent}{suffix}" for suffix in (".yaml", ".yml")]
        found = None if shipped else next((c for c in candidates if self.has_rule_file(c)), None)
        if found is None and self.shipped_root is not None:
            shipped_names = [f"{SHIPPED}{c}" for c in candidates]
            # Asked without following links, and a name too long for the system is no file there
            # (Path.is_file raised ENAMETOOLONG: `extends:` of 300 letters was an R018, exit 2).
            root = self.shipped_root
            found = next((c for c in shipped_names if files.kind_of(root, c[len(SHIPPED) :]) == "file"), None)
        if found is None or found == relative:
            return None
        self._hinting.add(relative)
        try:
            base = self.load(found)
        finally:
            self._hinting.discard(relative)
        if base.kind is None or base.document is None or base.document.data.get("id") != parent:
            return None
        family = registered().get(base.kind, (None, ""))[0]
        return family if family is not None and family is not default_family() else None

    def _written_kind(self, relative: str) -> object:
        """The `kind:` the rule file ``relative`` declares, as written (None where it declares none,
        or is no manifest's data file, or cannot be read)."""
        if is_manifest_path(relative):
            return None
        document = self.load(relative).document
        data = document.data if document is not None else None
        return data.get("kind") if isinstance(data, dict) else None

    def load_as(self, relative: str, family: Family) -> LoadedFile:
        """``rules/<relative>`` read as a file of ``family`` (the family of a ruleset that uses it).

        A file read here first is judged as ``family``'s (:meth:`load`, then cached as the file's
        own judgment); a file read before whose kind was judged another family's is judged again
        as ``family``'s kind, its reading reused.
        """
        from civrules.schema import document_kind, qualify, validate_document

        if relative not in self._files:
            # Read first for this family: judged as the default family's (a kind two families
            # both have, such as `map`), it would fail and be judged again.
            self._claiming = family
            try:
                loaded = self.load(relative)
            finally:
                self._claiming = None
        else:
            loaded = self.load(relative)
        document = loaded.document
        declared = document.data.get("kind") if document is not None and isinstance(document.data, dict) else None
        if document is None or not isinstance(declared, str) or loaded.kind == qualify(family, declared):
            return loaded
        key = (relative, family.id)
        cached = self._family_files.get(key)
        if cached is not None:
            return cached
        diagnostics = loaded.diagnostics[: loaded.read]
        kind, kind_diagnostics = document_kind(document, family)
        diagnostics.extend(kind_diagnostics)
        if kind is not None:
            diagnostics.extend(validate_document(document, kind, self.limits.max_diagnostics))
        judged = LoadedFile(loaded.path, document, kind, diagnostics, loaded.read)
        self._family_files[key] = judged
        return judged

    def _place(self, relative: str) -> tuple[Path, str]:
        """The folder a key is relative to, and the path in it: the rules folder, or the shipped one."""
        if relative.startswith(SHIPPED) and self.shipped_root is not None:
            return self.shipped_root, relative[len(SHIPPED) :]
        return self.root, relative

    def _read(self, relative: str, display: str) -> tuple[Document | None, list[Diagnostic]]:
        """Read ``rules/<relative>`` without following links, within the size bound."""
        root, inside = self._place(relative)
        try:
            if relative in self.absent:
                raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(root / inside))
            raw = files.read_under(root, inside, self.limits.max_bytes)
        except files.RefusedError as refused:
            return None, [_refusal(refused, display, self.limits)]
        except OSError as error:
            return None, [unreadable_file(files.RefusedError("unreadable", "", error=error.errno), display)]
        return self.read_raw(relative, raw, display)

    def read_text(self, relative: str, text: str, display: str) -> tuple[Document | None, list[Diagnostic]]:
        """Read the text of ``relative`` (an editor's buffer); a session reads again only what changed."""
        return read_yaml_text(text, display, self.limits)

    def validate(self, relative: str, document: Document, kind: str) -> list[Diagnostic]:
        """The diagnostics of ``relative``'s document against the schema of its ``kind``."""
        from civrules.schema import validate_document

        return validate_document(document, kind, self.limits.max_diagnostics)

    def read_raw(self, relative: str, raw: bytes, display: str) -> tuple[Document | None, list[Diagnostic]]:
        """Read the bytes of ``relative`` as found on disk; a session reads again only what changed."""
        return read_yaml_bytes(raw, display, self.limits)

    def manifests(self) -> dict[str, Manifest]:
        """Every ruleset manifest under ``rules/rulesets/``, by id (sorted by file name)."""
        if self._manifests is not None:
            return self._manifests
        directory = self.root / "rulesets"
        paths = [self.root / r for r in self.rule_files() if is_manifest_path(r)]
        unlisted = {self.display(self.root), self.display(directory)}
        said = any(
            d.code == codes.UNREADABLE.code and d.span and d.span.file in unlisted for d in self.discovery_diagnostics
        )
        # A link, or a folder that could not be listed, is reported once, by rule_files.
        said = said or any(d.code == codes.NO_RULESETS.code for d in self.discovery_diagnostics)
        if not paths and not files.is_link(self.root) and self._link_before_root() is None and not said:
            self.discovery_diagnostics.append(
                Diagnostic(
                    codes.NO_RULESETS.code,
                    codes.NO_RULESETS.severity,
                    f"no ruleset manifests in {named_path(self.display(directory))}",
                    Span.at(self.display(self.root)),  # the rules folder named (--rules), not a line of a file
                    hint=self._no_manifest_hint(),
                    subjects=(self.display(directory),),
                )
            )
        found = self._declared([path.relative_to(self.root).as_posix() for path in paths])
        shipped = self.shipped_manifests()
        everything = {**{k: v for k, v in shipped.items() if k not in found}, **found}
        for manifest in found.values():
            family = _inherited_family(everything, manifest)
            if family is not None and family is not manifest.family:
                # A variant that names no family is its base's: judged by that family's schema
                # (now, or when a manifest declared by its header is read).
                manifest.family = family
                if manifest.is_read:
                    manifest.file = self.load_as(self._relative_of(manifest.file.path), family)
        for ruleset_id, manifest in found.items():
            other = shipped.get(ruleset_id)
            if other is None:
                continue
            document = manifest.file.document
            if document is None or other.file.document is None:
                continue
            manifest.file.diagnostics.append(
                _diag(
                    codes.SHIPPED_SHADOWED,
                    f"ruleset id `{ruleset_id}` is also the id of a ruleset shipped with civrules "
                    f"({ticked(self.name_of(other.file.path))})",
                    document.span(("id",)),
                    f"extend the shipped ruleset (`extends: {ruleset_id}`) instead of copying it, or give this "
                    "one an id of its own (`--no-shipped` reads a rules folder alone)",
                    (Related(other.file.document.span(("id",)), "the shipped ruleset"),),
                    subjects=(ruleset_id, self.name_of(other.file.path)),
                )
            )
        self._manifests = found
        return found

    def _no_manifest_hint(self) -> str:
        """R004's hint for a rules folder with no manifest: a new repository's (`git init`, an
        empty `rules/`) is told how to write its first one; only a folder that is not there was
        told to run from the project root, which an empty rules folder at the root already is."""
        where = "run civrules from the project root, or pass --rules DIR"
        if not os.path.isdir(self.root):
            return where
        bases = sorted(self.shipped_manifests())
        shipped = f" (BASE one of the rulesets shipped with civrules: {', '.join(bases)})" if bases else ""
        return (
            f"write one: `civrules new-variant NAME --extends BASE`{shipped}, or `civrules init` for a new "
            f"repository; if this is not your rules folder, {where}"
        )

    def shipped_manifests(self) -> dict[str, Manifest]:
        """The rulesets shipped with civrules, by id (none when the rules folder is read alone)."""
        if self._shipped is not None:
            return self._shipped
        self._shipped = {}
        if self.shipped_root is None:
            return self._shipped
        names = sorted(
            entry.relative
            for entry in files.walk(self.shipped_root / "rulesets", max_depth=1)
            if entry.kind == "file" and entry.relative.endswith((".yaml", ".yml")) and "/" not in entry.relative
        )
        found = self._declared([f"{SHIPPED}rulesets/{name}" for name in names])
        for manifest in found.values():
            manifest.shipped = True
            family = _inherited_family(found, manifest)
            if family is not None and family is not manifest.family:
                manifest.family = family
                if manifest.is_read:
                    manifest.file = self.load_as(self._relative_of(manifest.file.path), family)
        self._shipped = found
        return found

    def read_bytes(self, relative: str) -> bytes:
        """The bytes of a file by its key (``cards/x.yaml``, or a shipped one's), read as every file
        is (no link followed, within the size bound); raises :class:`files.RefusedError` or OSError."""
        root, inside = self._place(relative)
        return files.read_under(root, inside, self.limits.max_bytes)

    def key_of(self, display: str) -> str:
        """The key (see :meth:`load`) of a file read before, by its name in diagnostics."""
        return self._relative_of(display)

    def shipped_files(self) -> set[str]:
        """The names in diagnostics of the shipped files read so far."""
        return set(self.shipped_keys())

    def shipped_keys(self) -> dict[str, str]:
        """The shipped files read so far: each one's key (see :meth:`load`) by its name in diagnostics."""
        return dict(self._display_index()[1])

    def manifest(self, ruleset_id: str) -> Manifest | None:
        """The ruleset ``ruleset_id``: the rules folder's own, else the shipped one of that id."""
        return self.manifests().get(ruleset_id) or self.shipped_manifests().get(ruleset_id)

    def known_manifests(self) -> dict[str, Manifest]:
        """Every ruleset a name can mean: the rules folder's own, and the shipped ones they do not shadow."""
        own = self.manifests()
        return {**{k: v for k, v in self.shipped_manifests().items() if k not in own}, **own}

    def _declared(self, relatives: list[str]) -> dict[str, Manifest]:
        """The manifests among the files ``relatives`` (keys of :meth:`load`), by id.

        A manifest whose header can be trusted (:meth:`_headers`) is not read in full here: only
        when its file or data is first asked for (the ruleset loaded, a base of it, the diagnostics
        of every file). Any other is read in full now, as every manifest once was.
        """
        found: dict[str, Manifest] = {}
        repeated: list[tuple[LoadedFile, Document, str, Manifest]] = []
        heads = self._headers(relatives)
        for relative in relatives:
            path = PurePosixPath(relative)
            head = heads.get(relative)
            if head is not None and path.stem not in found:
                family = family_of(head) or default_family()
                found[path.stem] = Manifest(
                    path.stem,
                    family=family,
                    head=head,
                    read=partial(self._read_manifest, relative, declared=family),
                )
                continue
            loaded = self.load(relative)
            document = loaded.document
            if document is None or not isinstance(document.data, dict):
                continue
            if loaded.kind is not None and loaded.kind.rpartition("/")[2] != "ruleset":
                loaded.diagnostics.append(
                    _diag(
                        codes.BAD_KIND,
                        f"a file under rulesets/ must be `kind: ruleset`, not `{loaded.kind}`",
                        document.span(("kind",)),
                        "move the file to the folder of its kind",
                        subjects=(loaded.kind,),
                    )
                )
                continue
            ruleset_id = document.data.get("id")
            if not isinstance(ruleset_id, str):
                continue
            if ruleset_id != path.stem:
                loaded.diagnostics.append(
                    _diag(
                        codes.ID_NOT_FILE_NAME,
                        f"the manifest {name_ticked(path.name)} declares the id `{ruleset_id}`",
                        document.span(("id",)),
                        _id_hint(ruleset_id, path),
                        subjects=(ruleset_id, path.name),
                    )
                )
            previous = found.get(ruleset_id)
            if previous is not None:
                repeated.append((loaded, document, ruleset_id, previous))
                continue
            found[ruleset_id] = Manifest(ruleset_id, loaded, family_of(document.data) or default_family())
        # told once every manifest is read: a third manifest of an id is no "declared twice"
        declared = Counter(ruleset_id for _, _, ruleset_id, _ in repeated)
        for loaded, document, ruleset_id, previous in repeated:
            assert previous.file.document is not None
            loaded.diagnostics.append(
                _diag(
                    codes.DUPLICATE_RULESET,
                    f"ruleset id `{ruleset_id}` is declared {times(declared[ruleset_id] + 1)}",
                    document.span(("id",)),
                    "give each manifest its own id",
                    (Related(previous.file.document.span(("id",)), "first declared here"),),
                    subjects=(ruleset_id,),
                )
            )
        return found

    def _headers(self, relatives: list[str]) -> dict[str, dict[str, str]]:
        """The headers (:func:`read_header`) of the manifests among ``relatives`` that need not be
        read in full to be declared, by key.

        A header is trusted where the full read would add nothing to the manifest's identity: it
        says `kind: ruleset` and the id its file is named (no B001/R00x diagnostic to place), and
        the bases whose families it inherits, read as :meth:`_inherited_hint` reads them, are
        headers too and make no loop of `extends` (where the order of reading decides what is
        read: that stays the order of the files). None is read in an editor's buffer, or by a
        workspace that keeps its readings (:attr:`reads_headers`).
        """
        heads: dict[str, dict[str, str]] = {}
        if not self.reads_headers:
            return heads
        folder = relatives[0].rpartition("/")[0] + "/" if relatives else ""
        raws: dict[str, bytes] = {}
        for relative in relatives:
            if relative in self.overrides or relative in self._files:
                continue
            try:
                raws[relative] = self.read_bytes(relative)
            except (files.RefusedError, OSError):
                continue  # read in full: its diagnostic is the full read's
        root, inside = self._place(folder)
        real = self.real_root if root is self.root else _real(root)
        for relative, head in headers_of(raws, self.limits, str(real / inside), read_header).items():
            if head is not None and head.get("kind") == "ruleset" and head.get("id") == PurePosixPath(relative).stem:
                heads[relative] = head
        present = set(relatives)
        trusted: dict[str, dict[str, str]] = {}
        for relative, head in heads.items():
            seen = {relative}
            current: dict[str, str] | None = head
            while current is not None and "family" not in current and "extends" in current:
                base = next(
                    (c for c in (f"{folder}{current['extends']}{s}" for s in (".yaml", ".yml")) if c in present), None
                )
                if base is None:
                    break  # not one of these: a shipped base (which extends none of them) or none
                if base in seen:
                    current = None  # a loop of `extends`
                    break
                seen.add(base)
                current = heads.get(base)  # None: read in full, so this one is too
            if current is not None:
                trusted[relative] = head
        return trusted

    def _read_manifest(self, relative: str, manifest: Manifest, declared: Family) -> LoadedFile:
        """The full reading of a manifest declared by its header: as :meth:`manifests` would have
        made it (judged again as its base's family where it inherits one)."""
        loaded = self.load(relative)
        if manifest.family is not declared:
            loaded = self.load_as(relative, manifest.family)
        return loaded

    def _relative_of(self, display: str) -> str:
        """The path relative to the rules folder of a file read before, by its display name."""
        relative = self._display_index()[0].get(display)
        if relative is None:
            raise KeyError(display)
        return relative

    def load_ruleset(self, manifest: Manifest) -> LoadedRuleset:
        """Load the data files a manifest names, each checked against the kind of its slot."""
        from civrules.schema import qualify

        result = LoadedRuleset(manifest)
        document = manifest.file.document
        if document is None or not isinstance(document.data, dict):
            # Declared by its header, then changed on disk before it was read in full: what it is
            # now is in its file's diagnostics (a syntax error, say), which the ruleset reports.
            return result
        known = self.known_manifests()
        if base_not_found(manifest, known):
            self._defer(manifest, result)
            return result
        mismatch = family_mismatch(manifest, known)
        if mismatch is not None:
            result.diagnostics.append(mismatch)
        files = manifest.data.get("files")
        family = manifest.family
        slots: list[tuple[str, str, list[tuple[NodePath, Any]]]] = []
        if isinstance(files, dict):
            for slot, expected in family.slots.items():
                paths = files.get(slot) or []
                if isinstance(paths, list):
                    slots.append((slot, expected, [(("files", slot, i), p) for i, p in enumerate(paths)]))
        rulebook = manifest.data.get("rulebook")
        if isinstance(rulebook, dict) and "rule_index" in rulebook:
            slots.append(("rule_index", "rule_index", [(("rulebook", "rule_index"), rulebook["rule_index"])]))
        # A path the schema already refused (absolute, `..`) is reported once, by the schema. Only
        # an error refuses it: a warning at the path (an invisible character's) left the file
        # named and never read, its own errors unlisted.
        refused = {d.span for d in manifest.file.diagnostics if d.span is not None and d.refuses}
        theirs = _files_of_bases(manifest, known)
        for slot, expected, entries in slots:
            loaded_files: list[LoadedFile] = []
            for at, relative in entries:
                if not isinstance(relative, str) or document.span(at) in refused:
                    continue
                if miscased_suffix(relative) is not None:
                    result.diagnostics.append(_suffix_case(relative, document.span(at), named=True))
                    continue
                problem = self.check_path(relative, shipped=manifest.shipped)
                if problem is not None:
                    result.diagnostics.append(
                        _diag(
                            codes.BAD_PATH,
                            problem,
                            document.span(at),
                            f"write {ticked(plain_path(relative))}"
                            if plain_path(relative) != relative and "/" in relative
                            else "write the path relative to rules/, e.g. `cards/my-cards.yaml`",
                            subjects=(relative,),
                        )
                    )
                    continue
                key = SHIPPED + relative if manifest.shipped else relative
                base = theirs.get(plain_path(relative))
                if base is not None and base[0] != key and at[0] == "files":
                    # The base's file, named as its base names it, but in a folder of its own (a
                    # shipped base): not this folder's file of that name, which would define each
                    # of its entries twice, nor a missing file whose hint invites a copy of it.
                    # (Where the base is in this folder it is the same file, which resolution
                    # does not read twice: V010 there.)
                    result.diagnostics.append(_file_of_the_base(relative, document.span(at), base[1], base[2]))
                    continue
                loaded = self.load_as(key, family)
                if loaded.document is None and not loaded.diagnostics:
                    continue
                unreadable = [d for d in loaded.diagnostics if isinstance(d, Unreadable)]
                if loaded.document is None and unreadable:
                    reason = unreadable[0].reason
                    where = f"the path is relative to {named_path(self.display(self.root))}"
                    close = None
                    if reason == "no such file":
                        from civrules.diagnostics.suggest import closest

                        # Only a file of the slot's kind: any other was offered (the manifest
                        # itself for its `items/<its id>.yaml` once that file was renamed, a file
                        # of another kind named alike), and the quick fix made a kind mismatch of it.
                        of_kind = (r for r in self.suggestible_files() if self._written_kind(r) == expected)
                        close = closest(relative, [*of_kind, *theirs])
                    if close in theirs:
                        # Never "paths are relative to ..." for a base's file: a copy of it there
                        # would define each of its entries twice.
                        where = (
                            f"did you mean `{close}`? It is a file of the base ruleset `{theirs[close][1]}`, which "
                            "this variant already reads: delete this entry; change what differs in `overlay:`"
                        )
                    elif close:
                        where = f"did you mean `{close}`? (paths are relative to {named_path(self.display(self.root))})"
                    elif reason != "no such file" and unreadable[0].hint:
                        where = unreadable[0].hint  # the file is there: what keeps it from being read
                    missing = _diag(
                        codes.UNREADABLE,
                        f"{ticked(relative)} cannot be read: {reason}",
                        document.span(at),
                        where,
                        subjects=(relative,),
                    )
                    # The path its "did you mean" proposes, for the editor's quick fix (it had none:
                    # a renamed file's new name was to be typed). A base's file is to be deleted.
                    fix = close if close and close not in theirs else None
                    result.diagnostics.append(replace(missing, suggestion=fix) if fix else missing)
                    continue
                if loaded.kind is not None and loaded.kind != qualify(family, expected):
                    assert loaded.document is not None
                    result.diagnostics.append(
                        _diag(
                            codes.BAD_KIND,
                            f"{ticked(relative)} is `kind: {_plain(loaded.kind)}`, "
                            f"but `{_render(at)}` takes `{expected}`",
                            document.span(at),
                            "move the path to the slot of its kind",
                            (Related(loaded.document.span(("kind",)), "kind declared here"),),
                            subjects=(_render(at), expected, relative),
                        )
                    )
                    continue
                loaded_files.append(loaded)
                if at[0] == "files":
                    result.entries.setdefault(loaded.path, at)
            result.files[slot] = loaded_files
        return result

    def _defer(self, manifest: Manifest, result: LoadedRuleset) -> None:
        """Judge a variant whose base is not found (:func:`base_not_found`) by no family: its
        family was only guessed (the default), and that family's verdict on its overlay or its
        files (a key of the game of its base, which the default family has not) hid the one mistake, V001, which
        resolution reports. Its identity keys are judged (every family's schema says the same of
        them); its data files are named but not read."""
        from civrules.schema import validate_document

        loaded = manifest.file
        document = loaded.document
        if document is None or loaded.kind is None:
            # No kind to judge it by (`kind:` names no kind: its S005 says so): what reading it
            # found is all there is to say of it.
            result.judged = list(loaded.diagnostics)
        else:
            identity = copy.copy(document)
            identity.data = {key: document.data[key] for key in (*sorted(IDENTITY), "name") if key in document.data}
            kept = set(validate_document(identity, loaded.kind, self.limits.max_diagnostics))
            schema = set(loaded.diagnostics[loaded.read :]) - kept
            result.judged = [d for d in loaded.diagnostics if d not in schema or not d.code.startswith("S")]
        files = manifest.data.get("files")
        for paths in files.values() if isinstance(files, dict) else ():
            for relative in paths if isinstance(paths, list) else ():
                if isinstance(relative, str) and self.check_path(relative, shipped=manifest.shipped) is None:
                    result.deferred.append(self.display(self.root / relative))

    def source_lines(self, display: str, mentioning: str = "") -> list[str]:
        """The text of a file already read, by its display name (for suppressions and quoting);
        none when it does not hold ``mentioning`` (an ASCII text: found in the bytes, so a large
        file without it is neither decoded nor split, 18 MB for the 50× synthetic map)."""
        relative = self._display_index()[0].get(display)
        if relative is None:
            return []
        text = self.buffer(relative)
        if text is not None:
            return split_lines(text) if mentioning in text else []
        root, inside = self._place(relative)
        try:
            raw = files.read_under(root, inside, self.limits.max_bytes)
        except (files.RefusedError, OSError):
            return []
        if mentioning.encode("ascii") not in raw:
            return []
        return split_lines(decode(raw))

    def rule_files(self) -> list[str]:
        """Every YAML file under the rules directory, relative to it, sorted.

        Found without following links: a link named `*.yaml` is listed (reading it reports it);
        any other link, and folders nested too deep, are reported in ``discovery_diagnostics``.
        """
        found = self._discovered() | {relative for relative in self.overrides if self._findable(relative)}
        return sorted(found - self.absent)

    def suggestible_files(self) -> list[str]:
        """:meth:`rule_files`, listed for a did-you-mean: what it proposes depends on which files
        there are, not only on what the files it names hold (a session checks again a ruleset that
        asked when a file is created, deleted or renamed)."""
        return self.rule_files()

    def has_rule_file(self, relative: str) -> bool:
        """Whether ``relative`` is one of :meth:`rule_files`, asked without listing them: each
        manifest asks for its base's (10,000 manifests listing and sorting every file each: 60 s)."""
        if relative in self.absent:
            return False
        return relative in self._discovered() or (relative in self.overrides and self._findable(relative))

    def _findable(self, relative: str) -> bool:
        """Whether an editor's buffer at ``relative`` is a file :meth:`_discovered` would list once
        saved: a `.yaml` or `.yml` name, no deeper than the walk goes, reached through no link.

        A buffer is a rule file only where the file on disk would be: `validate` reads no
        `README.md`, note or `.YAML` file under `rules/`, so the editor checks none either.
        """
        if not relative.endswith((".yaml", ".yml")) or relative.count("/") > files.MAX_DEPTH:
            return False
        parts = relative.split("/")
        for end in range(1, len(parts) + 1):
            kind = files.kind_of(self.root, "/".join(parts[:end]))
            if kind == "missing":
                return True  # a buffer not saved yet, in a folder that may be new too
            if end < len(parts) and kind != "dir":
                return False  # a link (or a file) where a folder is: the walk does not enter it
        return kind != "dir"  # a link or special file named `*.yaml` is listed, as the walk lists it

    def _link_before_root(self) -> Path | None:
        """The link inside the project that the rules folder's name goes back through with a `..`
        (`--rules L/..`), which :meth:`display`, taking `..` by its letters, does not show."""
        try:
            files.dots_taken(self.root, [Path(os.path.realpath(os.getcwd()))])
        except files.LinkOnTheWayError as crossed:
            return crossed.link
        except OSError:  # the working directory is gone: the command says so (R018)
            return None
        return None

    def _discovered(self) -> set[str]:
        """The YAML files found under the rules directory (once): see :meth:`rule_files`."""
        if self._rule_files is None:
            found: set[str] = set()
            crossed = self._link_before_root()
            if crossed is not None:  # `--rules L/..`: the system takes `..` after the link L, not before
                self.discovery_diagnostics.append(
                    _diag(
                        codes.BAD_PATH,
                        f"the rules folder {named_path(self.root.as_posix())} is reached back through the symbolic "
                        f"link {named_path(self.display(crossed))}: `..` after a link is the parent of where the "
                        "link leads; civrules does not follow links (it could lead outside the project)",
                        Span.at(self.root.as_posix()),  # as typed: its display takes `..` by its letters
                        "pass the folder you mean with --rules, without `..` after a link",
                        subjects=(self.root.as_posix(), self.display(crossed)),
                    )
                )
                self._rule_files = found
                return found
            if files.is_link(self.root):  # `rules -> ~` committed by a pull request: nothing is read
                self.discovery_diagnostics.append(
                    _diag(
                        codes.BAD_PATH,
                        f"the rules folder {named_path(self.display(self.root))} is a symbolic link; civrules does not "
                        "follow links (it could lead outside the project)",
                        Span.at(self.display(self.root)),
                        "pass the folder it points at with --rules, if it is yours",
                        subjects=(self.display(self.root),),
                    )
                )
            turned = self._root_no_folder()
            if turned is not None:  # `rules` made a file while `watch` or the language server ran
                self.discovery_diagnostics.append(turned)
                self._rule_files = found
                return found
            for entry in files.walk(self.root, first=("rulesets",)):
                yaml_name = entry.relative.endswith((".yaml", ".yml"))
                if "\\" in entry.relative.rpartition("/")[2] and (yaml_name or entry.kind == "dir"):
                    # Read as a folder separator (as on Windows), where the walk found one name: the
                    # file was "cannot read: no such file", and what a folder named so holds was
                    # missing without a word (round 33).
                    self.discovery_diagnostics.append(
                        _backslashed(entry.relative, self.display(self.root / entry.relative))
                    )
                elif yaml_name and entry.kind in ("file", "link", "special"):
                    found.add(entry.relative)
                elif entry.relative == "rulesets" and entry.kind in ("file", "special"):
                    # A FIFO (or a file) where the manifests' folder is was "no ruleset manifests in
                    # `rules/rulesets`", as if the folder were empty (round 33).
                    self.discovery_diagnostics.append(self._rulesets_no_folder())
                elif entry.kind != "dir" and miscased_suffix(entry.relative) is not None:
                    self.discovery_diagnostics.append(
                        _suffix_case(entry.relative, Span.at(self.display(self.root / entry.relative)), named=False)
                    )
                elif entry.kind == "link":
                    self.discovery_diagnostics.append(
                        _refusal(files.RefusedError("link", ""), self.display(self.root / entry.relative), self.limits)
                    )
                elif entry.kind == "unreadable":
                    self.discovery_diagnostics.append(
                        unreadable_folder(entry.errno, self.display(self.root / entry.relative))
                    )
                elif entry.kind == "many":
                    display = self.display(self.root)
                    self.discovery_diagnostics.append(
                        _diag(
                            codes.UNREADABLE,
                            f"{named_path(display)} holds more than {files.MAX_ENTRIES:,} files and folders: "
                            f"the rest, from {name_ticked(entry.relative)} on, is not read",
                            Span.at(display),
                            (
                                f"keep in {named_path(display)} only rule data: move the other files (images, notes, "
                                "exports) out of it, or into a folder of their own beside it"
                            )
                            if files.kind_of(self.root, "rulesets") == "dir"
                            else "pass the rules folder itself with --rules (rulesets/, cards/, maps/, ...), "
                            "not a folder above it",
                            subjects=(display, entry.relative),
                        )
                    )
                elif entry.kind == "deep":
                    display = self.display(self.root / entry.relative)
                    self.discovery_diagnostics.append(
                        _diag(
                            codes.UNREADABLE,
                            f"{named_path(display)} is nested more than {files.MAX_DEPTH} folders deep: not read",
                            Span.at(display),
                            "keep rule files in the folders of their kind (rules/cards, rules/maps, ...)",
                            subjects=(display,),
                        )
                    )
            self.discovery_diagnostics.extend(self._same_but_case(found))
            self._rule_files = found
        return self._rule_files

    def _root_no_folder(self) -> Diagnostic | None:
        """R004 for a rules folder that is now a file (or a FIFO, a device), or None: a folder made
        a file while `watch` ran was "no ruleset manifests in `rules/rulesets`", quoting the file's
        first line as if it were a rule file (round 36). At the start the command line refuses it."""
        try:
            mode = os.lstat(self.root).st_mode
        except (OSError, ValueError):  # missing, or unreadable: said as it is (R004, L012)
            return None
        if stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
            return None
        display = self.display(self.root)
        return Diagnostic(
            codes.NO_RULESETS.code,
            codes.NO_RULESETS.severity,
            f"the rules folder {named_path(display)} is not a folder but {files.no_folder(mode)}: no rule file is read",
            Span.at(display),
            hint=f"put the rules folder back at {named_path(display)}, or pass the folder of your rules with --rules",
            subjects=(display,),
        )

    def _rulesets_no_folder(self) -> Diagnostic:
        """R004 for ``rules/rulesets`` that is no folder: what it is, named by its path."""
        display = self.display(self.root / "rulesets")
        try:
            what = files.no_folder(os.lstat(self.root / "rulesets").st_mode)
        except OSError:  # gone since it was listed
            what = "no folder"
        return Diagnostic(
            codes.NO_RULESETS.code,
            codes.NO_RULESETS.severity,
            f"{named_path(display)} is not a folder but {what}: no ruleset manifest is read",
            Span.at(display),
            hint=f"move {named_path(display)} away and make it the folder of the ruleset manifests",
            subjects=(display,),
        )

    def _same_but_case(self, found: Iterable[str]) -> list[Diagnostic]:
        """R023 for each set of rule files whose paths differ only in case: a case-insensitive file
        system (macOS, Windows) holds one of them. The one to keep is the one spelt in lower case,
        as rule files and ruleset ids are (of `Loop-B.yaml` and `loop-b.yaml`, `loop-b.yaml`:
        R006 asks the same of a manifest), else the first in sorted order; but the one the
        manifests' `files:` name where they name one alone (round 34: renaming it broke the rulesets
        reading it). The warning is at the first of the others, and says to rename those: it said
        "rename A or B" (round 33)."""
        by_lower: dict[str, list[str]] = {}
        for relative in sorted(found):
            by_lower.setdefault(relative.lower(), []).append(relative)
        problems = []
        twins = [same for same in by_lower.values() if len(same) > 1]
        named = self._named_in_manifests(found) if any(not is_manifest_path(same[0]) for same in twins) else set()
        for same in twins:
            lower = same[0].lower()
            chosen = [one for one in same if one in named]
            if len(chosen) == 1:  # the one the manifests read: renaming it broke every ruleset naming it
                kept, why = chosen[0], "the one the manifests' `files:` name"
            else:
                kept = lower if lower in same else same[0]
                why = "spelt in lower case, as rule files are" if kept == lower else "first in sorted order"
            renamed = [one for one in same if one != kept]
            shown = {one: self.display(self.root / one) for one in same}
            names, keep = ", ".join(name_ticked(one) for one in renamed), name_ticked(kept)
            each, them, it = ("each of ", "them", "each") if len(renamed) > 1 else ("", "it", "it")
            problems.append(
                _diag(
                    codes.NAMES_DIFFER_IN_CASE,
                    f"{names} {'differ' if len(renamed) > 1 else 'differs'} from {keep} only in case: on macOS "
                    "and Windows they are one file, and a checkout there keeps only one of them",
                    Span.at(shown[renamed[0]]),
                    f"keep {keep} ({why}): rename {each}{names} to a name of its own (`git mv`), or merge "
                    f"{them} into {keep} and delete {it} (`git rm`); and write the name kept in the manifests",
                    related=(
                        Related(Span.at(shown[kept]), "the name to keep"),
                        *(Related(Span.at(shown[one]), "the same name in other letters") for one in renamed[1:]),
                    ),
                    subjects=tuple(same),
                )
            )
        return problems

    def _named_in_manifests(self, found: Iterable[str]) -> set[str]:
        """The paths (plain spelling) the `files:` of the manifests among ``found`` name. Read only
        where rule files differ in case (R023), so that the one the rulesets read is the one kept:
        the manifests are otherwise read by their headers alone."""
        named: set[str] = set()
        for relative in found:
            if not is_manifest_path(relative):
                continue
            try:
                raw = (
                    self.overrides[relative].encode("utf-8")
                    if relative in self.overrides
                    else self.read_bytes(relative)
                )
            except (files.RefusedError, OSError, UnicodeEncodeError):
                continue  # its own diagnostic is the full read's
            document, _ = read_yaml_bytes(raw, self.display(self.root / relative), self.limits)
            data = document.data if document is not None else None
            listed = data.get("files") if isinstance(data, dict) else None
            for paths in listed.values() if isinstance(listed, dict) else ():
                for path in paths if isinstance(paths, list) else ():
                    if isinstance(path, str):
                        named.add(plain_path(path))
        return named

    def check_path(self, relative: str, *, shipped: bool = False) -> str | None:
        """Why a manifest path is not allowed, or None when it names a place inside ``rules/`` (inside
        the shipped rules, for a ``shipped`` manifest's path).

        A path through a symbolic link is refused whether the link leads out of ``rules/`` or not:
        civrules follows no link (and the file is then read without following any, see :meth:`load`).
        """
        if relative.startswith(SHIPPED):
            return f"{ticked(relative)} begins with `{SHIPPED}`, which names the rules shipped with civrules"
        if relative.startswith(("/", "\\")) or (len(relative) > 1 and relative[1] == ":"):
            return f"{ticked(relative)} is an absolute path; paths are relative to rules/"
        if ".." in Path(relative).parts or ".." in relative.replace("\\", "/").split("/"):
            return f"{ticked(relative)} contains `..`; paths may not leave rules/"
        plain = plain_path(relative)
        if plain != relative:
            # One file, one spelling: `uniqueItems` and the files a variant's base reads compare
            # what is written, and `maps/./x.yaml` opens `maps/x.yaml` (round 19: read twice).
            return f"{ticked(relative)} is `{plain}` spelt otherwise: a file is named one way"
        root = self.shipped_root if shipped and self.shipped_root is not None else self.root
        parts = [p for p in relative.replace("\\", "/").split("/") if p not in ("", ".")]
        for end in range(1, len(parts) + 1):
            try:
                kind = files.kind_of(root, "/".join(parts[:end]))
            except files.RefusedError:
                return None
            if kind == "link":
                shown = "/".join(parts[:end])
                return (
                    f"{name_ticked(shown)} is a symbolic link; civrules does not follow links (it could lead "
                    "outside rules/)"
                )
            if kind != "dir":
                return None
        return None


def miscased_suffix(relative: str) -> str | None:
    """The suffix of a name ending in `.yaml` or `.yml` in other letters (`.YAML`, `.Yml`), or None.

    Such a file is refused wherever it is found or named (R015), never read: a case-insensitive
    file system opens `y.YAML` for `y.yaml` and a case-sensitive one does not, so accepting it
    would make the same repository validate differently on a Mac and on Linux CI.
    """
    suffix = PurePosixPath(relative.replace("\\", "/")).suffix
    return suffix if suffix.lower() in (".yaml", ".yml") and suffix not in (".yaml", ".yml") else None


#: What Windows reads as a folder separator, and :func:`civrules.support.files` too.
BACKSLASH = "\\"


def _backslashed(relative: str, display: str) -> Diagnostic:
    """L012 for a file or folder under rules/ whose name holds a backslash: not read."""
    renamed = relative.rpartition("/")[2].replace(BACKSLASH, "-")
    return _diag(
        codes.UNREADABLE,
        f"{named_path(display)} is not read: its name holds a backslash, which civrules takes for a folder "
        "separator (as Windows does), so the name cannot be given in a manifest",
        Span.at(display),
        f"rename it without the backslash (`git mv`), e.g. to {name_ticked(renamed)}",
        subjects=(relative,),
    )


def _suffix_case(relative: str, span: Span, *, named: bool) -> Diagnostic:
    suffix = miscased_suffix(relative) or ""
    renamed = relative[: len(relative) - len(suffix)] + suffix.lower()
    if named:
        message = (
            f"{name_ticked(relative)} ends in `{suffix}`: civrules reads rule files ending in `.yaml` or `.yml` only"
        )
        hint = f"rename the file to {name_ticked(renamed)} and name it so here"
    else:
        message = (
            f"{name_ticked(relative)} ends in `{suffix}`: civrules reads only `.yaml` and `.yml` files, so it is "
            "not read"
        )
        hint = f"rename it to {name_ticked(PurePosixPath(renamed).name)} (a lower-case suffix)"
    return _diag(codes.SUFFIX_CASE, message, span, hint, subjects=(relative,))


#: A diagnostic of this stage (:func:`civrules.diagnostics.codes.made`).
_diag = codes.made


def _plain(kind: str) -> str:
    """A qualified kind as a file writes it (``<family>/cards`` → ``cards``)."""
    return kind.rpartition("/")[2]


def _inherited_family(manifests: dict[str, Manifest], manifest: Manifest) -> Family | None:
    """The family of a variant that names none: its base's, which is its nearest base's that names
    one (None: no base does, so the default stands, or the variant names its own).

    A variant that names a family other than its base's keeps it: it is judged by the schema of the
    family it says it is of, and told of the mismatch (V009, :func:`family_mismatch`). Judged by its
    base's instead, its `family:` and every key of its overlay were refused one by one, with hints
    that pointed away from the line to change, and V009 was never reached.
    """
    if "family" in manifest.head:
        return None
    seen = {manifest.id}
    current = manifest
    while True:
        parent = current.head.get("extends")
        if not isinstance(parent, str) or parent in seen or parent not in manifests:
            return None
        seen.add(parent)
        current = manifests[parent]
        if "family" in current.head:
            return current.family


def _files_of_bases(manifest: Manifest, manifests: Mapping[str, Manifest]) -> dict[str, tuple[str, str, Span]]:
    """The files the bases of ``manifest`` name under `files:`, by the path each writes (relative
    to its own rules folder, in plain spelling): the key it is read by, the base's id, and where
    the base names it. The nearest base's naming comes first."""
    found: dict[str, tuple[str, str, Span]] = {}
    seen = {manifest.id}
    current = manifest
    while True:
        parent = current.head.get("extends")
        if not isinstance(parent, str) or parent in seen or parent not in manifests or len(seen) > MAX_EXTENDS:
            return found  # past the longest chain resolved, V002 is the chain's diagnostic
        seen.add(parent)
        current = manifests[parent]
        document = current.file.document
        named = document.data.get("files") if document is not None and isinstance(document.data, dict) else None
        for slot, paths in named.items() if isinstance(named, dict) else ():
            for index, relative in enumerate(paths) if isinstance(paths, list) else ():
                if isinstance(relative, str) and document is not None:
                    key = SHIPPED + plain_path(relative) if current.shipped else plain_path(relative)
                    found.setdefault(plain_path(relative), (key, current.id, document.span(("files", slot, index))))


def _file_of_the_base(relative: str, at: Span, base: str, named: Span) -> Diagnostic:
    """V010 for a `files:` entry that names, as its base writes it, a file of the base ruleset ``base``."""
    return _diag(
        codes.FILE_OF_THE_BASE,
        f"{ticked(relative)} is a file of the base ruleset `{base}`, which this variant already reads",
        at,
        "delete this entry: a variant has every file of its base; change what differs in `overlay:`",
        (Related(named, f"`{base}` names it here", at_base=True),),
        subjects=(base, relative),
    )


def base_not_found(manifest: Manifest, manifests: Mapping[str, Manifest]) -> bool:
    """Whether ``manifest`` names no family and its `extends` chain (through bases that name none)
    reaches an id no ruleset of ``manifests`` has (a typo, or a shipped base not read): its family
    is then not known, only guessed (the default), and V001 is its one diagnostic to give."""
    seen = {manifest.id}
    current = manifest
    while "family" not in current.head:
        parent = current.head.get("extends")
        if not isinstance(parent, str) or parent in seen or len(seen) > MAX_EXTENDS:
            return False  # a base ruleset (the default family is its own), a loop or a chain too long (V002)
        if parent not in manifests:
            return True
        seen.add(parent)
        current = manifests[parent]
    return False


def family_mismatch(manifest: Manifest, manifests: Mapping[str, Manifest]) -> Diagnostic | None:
    """V009 for a variant whose base (among ``manifests``, by id) is of another family than the one
    it names, or, naming none, whose overlay changes only collections another family has; None
    otherwise (no base found: V001 is resolution's).

    Told where the manifest is loaded, before resolution: a variant with schema errors is not
    resolved, and the errors of a variant of the wrong game would hide the one line to change.
    """
    document = manifest.file.document
    if document is None or not isinstance(document.data, dict):
        return None
    data = document.data
    parent_id = data.get("extends")
    parent = manifests.get(parent_id) if isinstance(parent_id, str) else None
    if parent is None or parent is manifest:
        return None
    base = parent.family.id
    named = data.get("family")
    if isinstance(named, str):
        if named == base or family_named(named) is None:  # an unknown family is S-reported
            return None
        return _diag(
            codes.FAMILY_MISMATCH,
            f"this variant names the family `{named}`, but its base `{parent_id}` is of `{base}`",
            document.span(("family",)),
            f"to change `{parent_id}`, drop `family:` (a variant is of its base's family) and write the overlay "
            f"in `{base}`'s terms; to make a variant of `{named}`, point `extends:` at a ruleset of `{named}` "
            "(`civrules list` names each ruleset's family)",
            (
                Related(document.span(("extends",)), "the base named here"),
                Related(_id_span(parent), "the base ruleset", at_base=True),
            ),
            subjects=(named, parent_id, base),
        )
    overlay = data.get("overlay")
    if named is not None or not isinstance(overlay, dict):
        return None
    own = parent.family.collections
    foreign = [key for key in overlay if isinstance(key, str) and key != "settings" and key not in own]
    if not foreign:
        return None
    others = [f.id for f in families().values() if f.id != base and all(key in f.collections for key in foreign)]
    if not others:
        return None  # keys no family has: misspelt, which the schema says (with a did-you-mean)
    shown = ", ".join(f"`{key}`" for key in foreign)
    games = " or ".join(f"`{other}`" for other in others)
    return _diag(
        codes.FAMILY_MISMATCH,
        f"this variant's overlay changes {shown}, {'a collection' if len(foreign) == 1 else 'collections'} of "
        f"{games}, but its base `{parent_id}` is of `{base}`",
        document.span(("extends",)),
        f"to make a variant of {games}, point `extends:` at one of its rulesets (`civrules list` names each "
        f"ruleset's family); to change `{parent_id}`, write the overlay in `{base}`'s terms",
        (Related(_id_span(parent), "the base ruleset", at_base=True),),
        subjects=(parent_id, base),
    )


def _id_span(manifest: Manifest) -> Span:
    document = manifest.file.document
    return document.span(("id",)) if document is not None else Span.at(manifest.file.path)


def _render(path: NodePath) -> str:
    return ".".join(str(part) for part in path if not isinstance(part, int))


def _refusal(refused: files.RefusedError, display: str, limits: Limits) -> Diagnostic:
    """The diagnostic of a rule file that :mod:`civrules.support.files` would not read."""
    if refused.kind == "link":
        return _diag(
            codes.BAD_PATH,
            f"{named_path(display)} is a symbolic link; civrules does not follow links (it could lead outside rules/)",
            Span.at(display),
            "replace the link by the file itself",
            subjects=(display,),
        )
    if refused.kind == "large":
        size = f"{refused.size:,} bytes, " if refused.size is not None else ""
        return _diag(
            codes.TOO_LARGE,
            f"file is {size}more than the {limits.max_bytes:,} bytes civrules reads",
            Span.at(display),
            "split the file, or raise the bound with --max-file-size",
            subjects=(display,),
        )
    return unreadable_file(refused, display)


def _real(path: Path) -> Path:
    """``path`` with its links resolved (as given, made absolute, where that fails: a link loop,
    RuntimeError before Python 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()
