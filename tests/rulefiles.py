"""Shared by the fuzz and mutation tests: the shipped rule files read once, and runs that reuse them.

Reading and schema-validating every shipped file takes a quarter of a second; a test that changes
one file per example would spend its budget re-reading the others. :class:`CachedWorkspace` is a
:class:`~civrules.load.workspace.Workspace` that takes every file it is not told to override from one
pristine reading. Nothing downstream changes a loaded document (the pristine data is checked
against its fingerprint by the tests that use it).

Every other workspace of a test process shares the same readings too: :func:`install_shipped_reads`
(installed by tests/conftest.py) keeps the reading of each shipped file's bytes for any workspace
that finds them, and :func:`reading_apart` opts a test out.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from civrules.load import Document, Limits, NodePath
from civrules.load.workspace import LoadedFile, Workspace
from tests import shipped
from tests.conftest import RULES

if TYPE_CHECKING:
    from civrules.pipeline import Analysis


@functools.cache
def pristine() -> dict[str, LoadedFile]:
    """Every shipped rule file, read and validated once, by path relative to rules/."""
    workspace = Workspace(RULES)
    workspace.manifests()
    for relative in _shipped_rule_files():
        workspace.load(relative)
    kept = set(_shipped_rule_files())
    return {relative: loaded for relative, loaded in workspace._files.items() if relative in kept}


def fingerprint() -> str:
    """A hash of the data of every pristine document (to show that no run changed them)."""
    digest = hashlib.sha256()
    for relative, loaded in sorted(pristine().items()):
        digest.update(relative.encode())
        digest.update(_digest(loaded.document.data if loaded.document is not None else None).encode())
    return digest.hexdigest()


class CachedWorkspace(Workspace):
    """A workspace over the shipped rules that re-reads only the files it overrides."""

    #: Its manifests are declared from their pristine readings, as an editor's session declares them
    #: from the readings it keeps (civrules.pipeline.incremental): reading each manifest's header
    #: from disk again (ten files walked for every workspace: a fifth of the CPU of the check
    #: fixtures, core/test_checks.py) gave nothing the reading it holds does not.
    reads_headers = False

    def __init__(self, overrides: Mapping[str, str] | None = None, limits: Limits | None = None) -> None:
        super().__init__(RULES, limits, dict(overrides or {}))

    def _discovered(self) -> set[str]:
        """Only the shipped files of rules/ (tests/shipped.py): a designer's own ruleset beside them
        (the README's five-minute variant) is not the project's, and no test of the shipped data
        reads it."""
        if self._rule_files is None:
            self._rule_files = super()._discovered() & set(_shipped_rule_files())
        return self._rule_files

    def load(self, relative: str) -> LoadedFile:
        if relative not in self._files and relative not in self.overrides:
            shipped = pristine().get(relative)
            if shipped is not None:
                # A copy of the list: manifests() appends to a manifest's diagnostics.
                self._files[relative] = LoadedFile(
                    shipped.path, shipped.document, shipped.kind, list(shipped.diagnostics)
                )
        return super().load(relative)


@functools.cache
def shipped_analysis(ruleset_id: str) -> Analysis:
    """A shipped ruleset, unchanged, analysed once per test process from one reading of the shipped
    files: the tests that only look at a shipped ruleset's model or findings share it, where each
    module read every file again and analysed the ruleset again (about 0.3 s of CPU each). Nothing
    downstream changes an analysis; a test that edits a ruleset analyses its own copy."""
    from civrules.pipeline import analyse

    workspace = CachedWorkspace()
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))


@functools.cache
def users() -> dict[str, tuple[str, ...]]:
    """For each shipped rule file, the rulesets whose validation reads it (a base's files included)."""
    from civrules.pipeline import analyse

    found: dict[str, set[str]] = {}
    for ruleset_id in sorted(CachedWorkspace().manifests()):
        workspace = _Recording(ruleset_id, found)
        analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    return {relative: tuple(sorted(ids)) for relative, ids in found.items()}


class _Recording(CachedWorkspace):
    """Notes, for one ruleset, every file its validation reads."""

    def __init__(self, ruleset_id: str, found: dict[str, set[str]]) -> None:
        super().__init__()
        self.ruleset_id = ruleset_id
        self.found = found

    def load(self, relative: str) -> LoadedFile:
        self.found.setdefault(relative, set()).add(self.ruleset_id)
        return super().load(relative)


def shipped_text(relative: str) -> str:
    return (RULES / relative).read_text(encoding="utf-8")


def dump(data: Any) -> str:
    """YAML text for plain data, one block mapping per line where it can (libyaml's emitter)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text: str = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1 << 16)
    return text


def nodes(data: Any, path: NodePath = ()) -> Iterator[tuple[NodePath, Any]]:
    """Every node of plain data with its path, parents before children (iteratively)."""
    stack: list[tuple[NodePath, Any]] = [(path, data)]
    while stack:
        here, node = stack.pop()
        yield here, node
        if isinstance(node, dict):
            stack.extend(((*here, key), value) for key, value in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend(((*here, i), value) for i, value in reversed(list(enumerate(node))))


def get(data: Any, path: NodePath) -> Any:
    for part in path:
        data = data[part]
    return data


def put(data: Any, path: NodePath, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


def remove(data: Any, path: NodePath) -> None:
    del get(data, path[:-1])[path[-1]]


@dataclass(frozen=True)
class Located:
    """Where a diagnostic is, as the tests compare it: code, file relative to rules/, line, column."""

    code: str
    file: str
    line: int
    column: int


def locate_in(document: Document, path: NodePath, *, key: bool = False) -> tuple[int, int]:
    span = document.key_span(path) if key else document.span(path)
    return span.line, span.column


def relative_to_rules(file: str) -> str:
    """A diagnostic's file as a path relative to rules/ (it is shown relative to the working directory)."""
    path = Path(file)
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        return absolute.resolve().relative_to(RULES).as_posix()
    except ValueError:
        return file


def install_shipped_reads() -> None:
    """Let every :class:`~civrules.load.workspace.Workspace` of this test process read the bytes of
    a shipped rule file once: its header, its reading and its schema verdict are kept by content
    and given again to any workspace that finds the same bytes (the shipped folder, or a copy of
    it in a test's own folder), under that workspace's name for the file.

    The suite reads the shipped files in hundreds of workspaces (every command a test runs in
    process, every copied rules folder): reading and judging them again was about a fifth of the
    suite's CPU (py-spy, 2026-12-02). Only a clean reading is kept (no diagnostic, nothing
    refused), and only of bytes that are a shipped file's; the bytes are still read from disk
    each time. Any other file, a changed copy included, is read and judged by the code under
    test, as is every file within :func:`reading_apart` (a test that takes the reader or the
    validators away, or compares two readings' objects); a test of reading itself calls the
    reader (civrules.load.reader) or gives other bytes. Nothing downstream changes a document's
    data: each kept reading's data is checked against its digest once the process's last test
    has run (tests/conftest.py). Each workspace gets a :class:`~civrules.load.Document` of its
    own over the shared data and positions, so a build that lets a document's positions go lets
    go its own."""
    from civrules.load import header
    from civrules.load import workspace as module

    if getattr(module.Workspace.read_raw, "shipped_reads", False):
        return
    contents = frozenset((RULES / relative).read_bytes() for relative in _shipped_rule_files())
    read_raw, validate, read_header = module.Workspace.read_raw, module.Workspace.validate, header.read_header
    readings: dict[tuple[bytes, Limits], Document] = {}
    heads: dict[tuple[bytes, Limits], dict[str, str] | None] = {}
    clean: set[tuple[int, str, int]] = set()  # (id of a kept reading's data, kind, max_diagnostics)

    def kept_read_raw(self: Workspace, relative: str, raw: bytes, display: str) -> tuple[Document | None, list[Any]]:
        if _APART or raw not in contents:
            return read_raw(self, relative, raw, display)
        kept = readings.get((raw, self.limits))
        if kept is None:
            document, diagnostics = read_raw(self, relative, raw, display)
            if document is None or diagnostics or document.refused:
                return document, diagnostics
            readings[(raw, self.limits)] = kept = document
            _KEPT.append((relative, kept, _digest(kept.data)))
        return _own(kept, display), []

    def kept_validate(self: Workspace, relative: str, document: Document, kind: str) -> list[Any]:
        key = (id(document.data), kind, self.limits.max_diagnostics)
        if _APART:
            return validate(self, relative, document, kind)
        if key in clean:
            return []
        found = validate(self, relative, document, kind)
        if not found and any(kept.data is document.data for kept in readings.values()):
            clean.add(key)
        return found

    def kept_header(raw: bytes, limits: Limits) -> dict[str, str] | None:
        if _APART or raw not in contents:
            return read_header(raw, limits)
        key = (raw, limits)
        if key not in heads:
            heads[key] = read_header(raw, limits)
        head = heads[key]
        return dict(head) if head is not None else None

    kept_read_raw.shipped_reads = True  # type: ignore[attr-defined]
    module.Workspace.read_raw = kept_read_raw  # type: ignore[method-assign]
    module.Workspace.validate = kept_validate  # type: ignore[method-assign]
    module.read_header = kept_header  # type: ignore[attr-defined]


#: Each kept reading, by the first name it was read under, with the digest of its data then.
_KEPT: list[tuple[str, Document, str]] = []


def changed_shipped_reads() -> list[str]:
    """The files whose kept reading (:func:`install_shipped_reads`) some run changed since it was
    read: checked when the test process ends (tests/conftest.py), as every later test got it."""
    return [relative for relative, kept, digest in _KEPT if _digest(kept.data) != digest]


def _digest(data: Any) -> str:
    """A hash of a document's data (its JSON, keys sorted)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()


#: Set while :func:`reading_apart` holds: every file is read, and judged, by the code under test.
_APART: list[bool] = []


@contextlib.contextmanager
def reading_apart() -> Iterator[None]:
    """Within: the workspaces of this process read and judge every file themselves (what a test
    needs that compares two readings' objects, or that takes the reader or the validators away)."""
    _APART.append(True)
    try:
        yield
    finally:
        _APART.pop()


def _own(kept: Document, display: str) -> Document:
    """A document of its own over ``kept``'s data and positions, named ``display``."""
    return Document(display, kept.data, whole_floats=kept.whole_floats, aliases=kept.aliases, table=kept.table)


@functools.cache
def _shipped_rule_files() -> tuple[str, ...]:
    """The shipped YAML files of rules/, relative to it (tests/shipped.py)."""
    return tuple(path.relative_to(RULES).as_posix() for path in shipped.yaml_files())
