"""`civrules lsp`: a Language Server Protocol server over stdio (pygls).

It keeps one :class:`civrules.pipeline.incremental.Session` for each rules directory it serves (a
:class:`Folder`: one for each workspace folder that holds one, the editor's `workspaceFolders`
followed as they are added and removed), and routes each file to the folder whose rules directory
holds it: every open buffer is read from the editor's text, the rest from disk, and after each
change the session re-reads and re-checks only what the change can affect. Diagnostics are those of
``civrules validate`` (codes, ranges, hints as part of the message, related locations), published
for every file they point at, so an edit of a base ruleset shows what it breaks in its variants.
Hover explains diagnostics and codes and describes ids; go-to-definition, find-references and rename
work for every id the schemas declare a reference to (``x-civrules-ref``); completion offers schema
keys, enum values and, where a value refers to a collection, that collection's ids; a quick fix
applies each "did you mean".

Every position that crosses the protocol goes through :mod:`civrules.lsp.positions`, which converts
civrules' code-point columns to and from the encoding agreed with the client (UTF-16 by default).
Documents are synchronised in full, so no edit range needs converting on the way in (a client that
sends ranged changes all the same has them applied by :mod:`civrules.lsp.transport`). Every text that
reaches the editor goes through :mod:`civrules.diagnostics.markup` (Markdown for hovers, plain text
for the rest), and every message through :mod:`civrules.lsp.transport`, which answers what the
JSON-RPC specification says to answer and never a traceback.

Validation is coalesced: a change only records the buffer and schedules a run, which starts once
no change has come for :attr:`CivrulesServer.debounce` seconds and yields to the messages that
arrive between the rulesets it checks. A run that a newer change supersedes stops and publishes
nothing. Requests are answered between runs' steps, against the buffers as the changes before them
left them (LSP's order): a request that reads positions from the last result first brings it up to
date (:meth:`CivrulesServer.current`) where a buffer it reads changed since, finishing the pending
run there and then. Which buffers each request reads:

- hover, documentSymbol and a quick fix looked up for a client that drops a diagnostic's data:
  the document's own (where the hover describes an id, its text is that of the last result);
- definition: the document's, and those of the definitions it answers with;
- references, prepareRename and rename: every buffer (a reference may have been typed in any);
- completion: none. It reads no position from the result, only the ids it offers, and must keep
  up with typing: until the change is validated, its list says it is incomplete, so the editor
  asks again as the designer types on.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, unquote_to_bytes, urlsplit

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.uris import to_fs_path as _pygls_path

from civrules import __version__
from civrules.diagnostics import Addition, Diagnostic, Severity, Span, codes, words
from civrules.diagnostics.escape import printable
from civrules.diagnostics.markup import markdown_block, markdown_text, plain
from civrules.diagnostics.words import named_path, ticked
from civrules.families import Family
from civrules.load import Limits
from civrules.load.lines import decode
from civrules.load.names import SHIPPED
from civrules.load.reader import scalar_text
from civrules.lsp.additions import written
from civrules.lsp.index import (
    CITING,
    Index,
    Outline,
    Parsed,
    RenameRefusedError,
    Symbol,
    block_item_at,
    citation_at,
    code_at,
    covers,
    describe_citation,
    description,
    explain,
    reference_at,
    schema_keys,
    suggestion,
    written_kind,
    yaml_key_path,
)
from civrules.lsp.positions import Positions, encoding_of
from civrules.lsp.transport import CivrulesProtocol, quiet_logs, serve_stream, shown_uri
from civrules.pipeline.incremental import Result, Session
from civrules.support import cache
from civrules.support.collector import settle
from civrules.support.files import (
    LinkOnTheWayError,
    RefusedError,
    dots_taken,
    kind_of,
    not_folder_on,
    read_under,
    real_place,
)

#: What a run's steps give once they are all taken (a request may have taken the last ones).
_FINISHED = object()

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def file_uri(path: str) -> str:
    r"""The `file:` URI of the absolute ``path`` as the editor is sent it: pygls' own, or, for a name
    that is no UTF-8 (a byte such as 0xff, held as a lone surrogate), each byte of it
    percent-encoded. pygls encodes the name as UTF-8, and such a file in the rules folder ended
    every run of the server in an internal error, with no diagnostic shown for any file.

    >>> file_uri("/r/cards/a b.yaml"), file_uri("/r/cards/bad\udcff.yaml")
    ('file:///r/cards/a%20b.yaml', 'file:///r/cards/bad%FF.yaml')
    """
    try:
        return from_fs_path(path) or ""
    except UnicodeEncodeError:
        return "file://" + quote(os.fsencode(path), safe="/")


def fs_path(uri: str) -> str | None:
    r"""The path a `file:` URI names, the inverse of :func:`file_uri`: its percent-encoded bytes
    decoded as the file system names files (a byte that is no UTF-8 back to its lone surrogate,
    where pygls made it U+FFFD, naming no file); any other URI as pygls reads it.

    A URI holding a lone surrogate (JSON's `"\ud800"`, which a client may send, though no URI
    holds anything but ASCII) names no file: None, where reading it ended every request about it
    in an internal error (round 34).

    >>> fs_path("file:///r/cards/bad%FF.yaml") == "/r/cards/bad\udcff.yaml"
    True
    >>> fs_path("file:///r/cards/\ud800.yaml") is None
    True
    """
    try:
        uri.encode("utf-8")
    except UnicodeEncodeError:
        return None
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost") or os.name == "nt":
        return _pygls_path(uri)
    return os.fsdecode(unquote_to_bytes(parts.path))


class Folder:
    """One rules folder served: its session, what it last found, and what was last published.

    The server keeps one for each rules folder it serves (one per workspace folder that holds
    one); each file is routed to the folder whose rules directory holds it
    (:meth:`CivrulesServer.folder_of`), so the workspaces of a multi-root editor are checked each
    on its own, as `civrules validate` would check them one after the other.
    """

    def __init__(
        self, server: CivrulesServer, rules: Path, problem: Diagnostic | None = None, key: Path | None = None
    ) -> None:
        self.server = server
        self.session = Session(rules, server.limits)
        self.result: Result | None = None
        #: Whether the editor was told that the rules folder is not there (``problem``, said by the server).
        self._root_problem = problem is not None
        #: The diagnostics located at no file the editor has, told while they last (see accept()).
        self._told: set[Diagnostic] = set()
        self._index: Index | None = None
        #: Each editor buffer's last reading that parsed (see :meth:`accept`): completion's ids
        #: while the buffer does not parse as typed.
        self._parsed: dict[str, Parsed] = {}
        #: The last result's diagnostics by the file they point at (see diagnostics_of()).
        self._grouped: tuple[Result, dict[str, list[Diagnostic]]] | None = None
        self._published: dict[str, tuple[Diagnostic, ...]] = {}
        #: The URIs each file's diagnostics were last published under, by its name in diagnostics.
        self._uris: dict[str, tuple[str, ...]] = {}
        #: The buffer versions each file's diagnostics were last published with, under those URIs.
        self._versions: dict[str, tuple[int | None, ...]] = {}
        #: The files outside the rules folder a published location points at (the shipped rules
        #: the last result read), by URI: their keys in its workspace, to read their lines.
        self.outside: dict[str, str] = {}
        #: The same files' keys by their absolute paths, whatever spelling of their URIs the editor
        #: sends back (a definition opened one, and the designer hovers in it).
        self._shipped: dict[str, str] = {}
        #: The URI the editor used for each file it opened (by its path under rules/): what the
        #: file's diagnostics and locations are given under. Given under the server's own spelling
        #: of the path (`%3A` where the editor wrote `%3a`, `:` where it wrote `%3A`), they were
        #: shown for no open document, or for a second one.
        self._client_uris: dict[str, list[str]] = {}
        #: The other names of the rules folder the editor's workspace folders give it (a workspace
        #: folder that is a link to the project, beside the project itself): a file opened under
        #: one of them is this folder's file. It was served by no folder (no diagnostic, no hover).
        self.aliases: tuple[Path, ...] = ()
        #: The folder's real path, resolved once when it is served (see :func:`_key`): what tells
        #: it apart from the other folders served, with no path resolved again at each change.
        self.key = key if key is not None else _key(rules)
        self._lexical = os.path.normpath(rules.absolute())
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        #: Changes seen so far: a run started at one generation is superseded by a later one.
        self.generation = 0
        #: The generation of the buffers :attr:`result` was made from (-1: no result yet).
        self.validated = -1
        #: The run under way (its generation and its steps): a request that needs its result
        #: finishes it (see current()), and the run, resumed, finds it finished.
        self._running: tuple[int, Iterator[Result | None]] | None = None
        #: Runs started, and runs stopped because a newer change superseded them (never published).
        self.runs = 0
        self.superseded = 0

    @property
    def rules(self) -> Path:
        return self.session.root

    def relative(self, uri: str) -> str | None:
        """The file ``uri`` names: its path under rules/, or the key of a shipped file the last
        result read (:meth:`places`); None for any other."""
        path = fs_path(uri)
        if path is None:
            return None
        return self.holds(path) or self._shipped.get(os.path.abspath(path))

    def could_hold(self, lexical: str) -> bool:
        """Whether the normalized absolute ``lexical`` lies under one of the folder's names (its
        own, its real path, an alias): where it does not, :meth:`holds` is None, and is not asked."""
        names = (self._lexical, str(self.key), *(os.path.normpath(alias.absolute()) for alias in self.aliases))
        return any(lexical.startswith(name.rstrip(os.sep) + os.sep) for name in names)

    def holds(self, path: str) -> str | None:
        """``path`` relative to the rules folder, under its own name or one of its :attr:`aliases`
        (each taken lexically, as the session takes its own: no link in the path is followed)."""
        found = self.session.relative(Path(path))
        if found is not None:
            return found
        if self.aliases and ".." in Path(path).parts:
            try:  # `alias/lnk/../x.yaml`: as under the folder's own name, no `..` back through a link
                dots_taken(Path(path), [Path(os.path.realpath(self.rules))])
            except LinkOnTheWayError:
                return None
        lexical = Path(os.path.normpath(os.path.abspath(path)))
        for alias in self.aliases:
            try:
                relative = lexical.relative_to(os.path.normpath(alias.absolute())).as_posix()
            except ValueError:
                continue
            # As the folder's own name would give it: the session's checks of the name apply.
            return self.session.relative(self.session.root / relative) if relative not in ("", ".") else None
        return None

    def uri(self, relative: str) -> str:
        """The URI of the file ``relative`` (a key of :meth:`relative`) as the editor knows it: the one
        it opened the file by, else the file's `file:` URI (the installed file's for a shipped one)."""
        sent = self._client_uris.get(relative)
        if sent:
            return sent[-1]  # the one it opened last
        if relative.startswith(SHIPPED):
            shipped = self.result.workspace.shipped_keys() if self.result and self.result.workspace else {}
            path = next((display for display, key in shipped.items() if key == relative), None)
            return file_uri(os.path.abspath(path)) if path is not None else ""
        return file_uri(str((self.session.root / relative).absolute()))

    def places(self, result: Result) -> dict[str, str]:
        """The URI of every file a diagnostic of ``result`` can point at, by its name in diagnostics:
        the rule files, and the shipped files read (a related location at a shipped ruleset's `id:`,
        R013's, lies outside the workspace folder: the editor opens it by its `file:` URI).
        The shipped ones are noted in :attr:`outside`, for their lines to be read (:meth:`text`)."""
        places = {display: self.uri(relative) for relative, display in result.files.items()}
        self.outside = {}
        self._shipped = {}
        if result.workspace is not None:
            for display, key in result.workspace.shipped_keys().items():
                opened = self._client_uris.get(key)
                uri = opened[-1] if opened else from_fs_path(os.path.abspath(display))
                if uri and display not in places:
                    places[display] = uri
                    self.outside[uri] = key
                    self._shipped[os.path.abspath(display)] = key
        return places

    def text_outside(self, uri: str) -> str | None:
        """The text of a shipped file a published location points at (see :meth:`places`), read as
        civrules reads it (no link followed, within the size bound); None for any other URI."""
        key = self.relative(uri)
        if key is None or not key.startswith(SHIPPED) or self.result is None or self.result.workspace is None:
            return None
        try:
            return decode(self.result.workspace.read_bytes(key))
        except (OSError, RefusedError):
            return None

    def changed(self, uri: str, closed: bool = False) -> None:
        """Read ``uri`` from its open buffer (or from disk when it is closed) from now on."""
        relative = self.relative(uri)
        if relative is None or self._root_problem:
            # No rules folder there: a buffer checked alone was said to be used by no ruleset
            # (R005), when the folder itself is what is missing (told once, see CivrulesServer.start).
            return
        sent = self._client_uris.setdefault(relative, [])
        if uri in sent:
            sent.remove(uri)
        if not (closed and sent):  # closed, the last keeps its spelling: a closed file's problems stay listed
            sent.append(uri)
        if relative.startswith(SHIPPED):
            return  # an installed file opened to be read: what its buffer holds is no rule data of the folder
        documents = self.server.workspace.text_documents
        # Closed under one URI, a file still open under another is read from that buffer.
        document = documents.get(unquote(uri)) or next(
            (documents[unquote(other)] for other in reversed(sent) if unquote(other) in documents), None
        )
        self.session.set_text(relative, document.source if document is not None else None)
        self.schedule()

    def schedule(self) -> None:
        """Validate again once changes stop coming: changes that arrive meanwhile join the run,
        and a change during a run supersedes it."""
        if self._stopped:
            return
        self.generation += 1
        self.server.changes += 1
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._revalidate())

    def busy(self) -> bool:
        """Whether a run is due or under way."""
        return self._dirty or (self._task is not None and not self._task.done())

    def stop(self) -> None:
        """Stop serving the folder (its workspace folder was removed): the pending run is dropped,
        and what was published for its files is cleared."""
        self._stopped = True
        self._dirty = False
        if self._running is not None:
            close = getattr(self._running[1], "close", None)
            if close is not None:
                close()
            self._running = None
        if self._task is not None and not self._task.done():
            self._task.cancel()
        for display in sorted(self._published):
            for uri in self._uris.get(display, ()):
                self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self._published.clear()

    async def _revalidate(self) -> None:
        while self._dirty:
            seen = -1
            while seen != self.generation:  # until `debounce` seconds pass without a change
                seen = self.generation
                await asyncio.sleep(self.server.debounce)
            if self._stopped:
                return
            self._dirty = False
            await self._run(seen)

    async def _run(self, generation: int) -> None:
        """One validation, step by step; it stops unpublished if a change comes after ``generation``."""
        if self.validated == generation:
            return  # a request needed it first and brought the result up to date (see current())
        steps = self._steps(generation)
        try:
            while True:
                if self.generation != generation:
                    self.superseded += 1  # `_dirty` is set again: the next run starts after the debounce
                    return
                # Finished already where a request needed the result and ran the rest (see current()).
                step = next(steps, _FINISHED)
                if step is _FINISHED:
                    return
                if step is None:
                    await asyncio.sleep(0)  # answer what arrived meanwhile (a hover, more changes)
                    if self._stopped:
                        return
                    continue
                assert isinstance(step, Result)
                self.accept(step, generation)
                self.server._settle_later()
        except Exception as error:  # noqa: BLE001 - a bug must not take the editor's server down: reported
            self.server.internal_error(error)
        finally:
            if self._running is not None and self._running[1] is steps:
                self._running = None

    def _steps(self, generation: int) -> Iterator[Result | None]:
        """The steps of the run for the buffers of ``generation``: the run under way if it is that
        one, else a new run (one for older buffers is stopped: it would publish nothing)."""
        if self._running is not None and self._running[0] == generation:
            return self._running[1]
        if self._running is not None:
            close = getattr(self._running[1], "close", None)
            if close is not None:
                close()  # superseded: its task, resumed, sees the newer generation and stops
        self.runs += 1
        steps = iter(self.session.steps())
        self._running = (generation, steps)
        return steps

    def current(self, relatives: Iterable[str] | None) -> Result:
        """The result requests are answered from, made from the buffers as they are now wherever
        it matters: where one of ``relatives`` (paths under rules/; None: any file) was changed
        since the last result, the pending run is done now, before the request is answered.

        ``()``: the last result as it is (the first run's, if none was published yet).
        """
        if self.result is None or self.stale(relatives):
            generation = self.generation
            steps = self._steps(generation)
            try:
                for step in steps:
                    if step is not None:
                        self.accept(step, generation)
            finally:
                if self._running is not None and self._running[1] is steps:
                    self._running = None
            self.server._settle_later()
        assert self.result is not None
        return self.result

    def stale(self, relatives: Iterable[str] | None) -> bool:
        """Whether the last result was made from other buffers than the editor's now: of any file
        (``relatives`` None: any change, on disk too, since), or of one of ``relatives``."""
        if self.result is None:
            return True
        if self.validated == self.generation:
            return False
        if relatives is None:
            return True
        read = self.result.workspace.overrides if self.result.workspace is not None else {}
        now = self.session.overlays
        return any(read.get(relative) != now.get(relative) for relative in relatives)

    def accept(self, result: Result, generation: int) -> None:
        """Take ``result``, made from the buffers of ``generation``, as what requests are answered
        from, and publish what it changed."""
        self.result = result  # the index is made again from it at the next request (see index())
        self.validated = generation
        self._remember_parsed(result)
        if self._stopped:
            return  # answered a request as its folder was removed: nothing to publish any more
        self.publish(result)
        for diagnostic in result.diagnostics:
            if diagnostic.span is None:  # a check that crashed (R900): no file to show it in
                self.server.window_log_message(
                    types.LogMessageParams(
                        type=types.MessageType.Error, message=plain(f"civrules: {diagnostic.message}")
                    )
                )
        self._tell_unplaced(result)

    def _remember_parsed(self, result: Result) -> None:
        """Keep the reading of each file the run read where it parses (a reference to the document
        the run read, no walk of it), and forget the files gone: the ids of a buffer that does not
        parse as typed (see :class:`Index`). A buffer opened already broken has its file's reading
        on disk."""
        workspace = result.workspace
        if workspace is None:
            return
        for relative in [r for r in self._parsed if r not in result.files]:
            del self._parsed[relative]
        for relative in result.files:
            loaded = workspace.load(relative)
            if loaded.document is not None and loaded.kind is not None:
                files: frozenset[str] = frozenset()
                for name in result.rulesets_using(relative):
                    files |= result.depends[name]
                self._parsed[relative] = Parsed(loaded.document, loaded.kind, files)

    def _tell_unplaced(self, result: Result) -> None:
        """Tell the editor, once while it lasts, each diagnostic located at no rule file it can show
        one in: a folder under rules/ that cannot be listed (L012), the rules folder itself.
        Published nowhere, it would be lost, and the files it hides would look clean."""
        shown = set(self.places(result))
        root = result.workspace.display(self.session.root) if result.workspace is not None else None
        unplaced = {
            diagnostic
            for diagnostic in result.diagnostics
            if diagnostic.span is not None
            and diagnostic.span.file not in shown
            and diagnostic.severity is not Severity.INFO
            # What the server's start already said about a rules folder that is not there.
            and not (self._root_problem and diagnostic.span.file == root)
        }
        for diagnostic in sorted(unplaced - self._told, key=lambda d: (d.span.file if d.span else "", d.code)):
            self.server.tell(diagnostic)
        self._told = unplaced

    def diagnostics_of(self, display: str, relatives: Iterable[str] | None) -> list[Diagnostic]:
        """Every diagnostic that points at the file ``display`` names, in order (uncapped:
        :meth:`publish` shows at most ``--max-diagnostics`` of them), of the result :meth:`current`
        gives for ``relatives``."""
        result = self.current(relatives)
        if self._grouped is None or self._grouped[0] is not result:
            self._grouped = (result, result.by_file())
        return self._grouped[1].get(display, [])

    def index(self, relatives: Iterable[str] | None) -> Index:
        """The ids of the result :meth:`current` gives for ``relatives``: every caller says which
        buffers its answer must be made from (see the module's documentation)."""
        result = self.current(relatives)
        if self._index is None or self._index.result is not result:
            self._index = Index(result, self._index, self._parsed)
        return self._index

    def publish(self, result: Result) -> None:
        """Publish what changed since the last time, for each file under every URI the editor has
        it open by (its own spelling; two where two workspace folders name the same folder), else
        its `file:` URI; what was shown under a URI no longer used is cleared."""
        places = self.places(result)
        grouped = result.by_file(self.session.limits.max_diagnostics)
        positions = self.positions()
        relatives = {display: relative for relative, display in result.files.items()}
        for display in sorted(set(grouped) | set(self._published)):
            found = tuple(grouped.get(display, ()))
            sent = self._client_uris.get(relatives.get(display, ""))
            uris = tuple(sent) if sent else (places[display],) if display in places else ()
            before = self._uris.get(display, ())
            versions = tuple(self._version_read(result, relatives.get(display), uri) for uri in uris)
            if (
                self._published.get(display, ()) == found
                and before == uris
                and (not self.server.reads_versions() or self._versions.get(display) == versions)
            ):
                continue
            for gone in before:
                if gone not in uris:  # a file that went away, or a URI the editor no longer uses
                    self.server.text_document_publish_diagnostics(
                        types.PublishDiagnosticsParams(uri=gone, diagnostics=[])
                    )
            if not uris:
                self._published.pop(display, None)
                self._uris.pop(display, None)
                self._versions.pop(display, None)
                continue
            self._published[display] = found
            self._uris[display] = uris
            self._versions[display] = versions
            converted = [lsp_diagnostic(d, places, positions) for d in found]
            for uri, version in zip(uris, versions, strict=True):
                self.server.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=converted, version=version)
                )

    def _version_read(self, result: Result, relative: str | None, uri: str) -> int | None:
        """The version of the editor's buffer of ``uri`` that ``result`` read, or None where it read
        the file on disk (the buffer is not open, or not saved in the rules folder): an editor can
        then tell which text the diagnostics it is shown are for (until round 35 none said)."""
        read = result.workspace.overrides if result.workspace is not None else {}
        document = self.server.workspace.text_documents.get(unquote(uri))
        if document is None or relative is None or read.get(relative) != document.source:
            return None
        version = document.version
        return version if isinstance(version, int) else None

    def positions(self) -> Positions:
        return self.server.positions()

    def location(self, symbol: Symbol, positions: Positions) -> types.Location:
        return positions.location(self.uri(symbol.relative), symbol.span)


class CivrulesServer(LanguageServer):
    """The language server: the rules folders it serves (:class:`Folder`), one for each workspace
    folder that holds one, and what is said to the editor for all of them."""

    #: Seconds without a change before a validation starts: a burst of keystrokes is one run.
    debounce = 0.05
    #: Seconds without a change after diagnostics are published before the garbage collector runs
    #: (:func:`civrules.support.collector.settle`): its full collection is paid while idle. None (a
    #: server in another program's process, as the tests'): the collector is left alone; :func:`serve`,
    #: which owns its process, sets it.
    settle_after: float | None = None
    #: Buffers kept at most of documents that are no rule file of a folder served (a README, a file
    #: of another project, a shipped file opened to be read), each of at most the limits'
    #: ``max_bytes``: pygls keeps every buffer an editor opens, and none of these is a rule file
    #: the loader bounds (L007) as it reads it. A client opening 10,000 such documents of 8 MB
    #: each held them all (round 33).
    max_outside = 64

    def __init__(self, rules: Path, limits: Limits | None = None) -> None:
        # Full sync: the client sends the whole text of a buffer on every change. A rules file is
        # re-read whole after each change anyway, and pygls would apply ranged edits to lines split
        # where LSP does not split them (at a form feed or U+2028 a designer pasted). A client that
        # sends ranged edits all the same has them applied by the protocol (transport.py).
        super().__init__(
            "civrules",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=_HeardProtocol,
        )
        self.rules = rules
        self.limits = limits
        #: The rules folders served, in the order of the workspace folders that hold them.
        self.folders: list[Folder] = []
        self._started = False
        #: The workspace folders the folders served were last looked for in (see :meth:`start`).
        self._roots: list[str] = []
        #: What each of :attr:`_roots` was found to hold when it was last probed (a relative --rules).
        self._probes: dict[str, _Probe] = {}
        #: The workspace folders whose rules folder was not found, by where it would be (normalized).
        self._unfound: dict[str, str] = {}
        #: Whether the editor was told that no rules folder was found (said once until one is).
        self._told_missing = False
        #: Whether the editor was told that the configured cache folder is not used (said once a session).
        self._told_cache = False
        self._settling: asyncio.TimerHandle | None = None
        #: Changes seen so far, in every folder (an idle collection waits for them to stop).
        self.changes = 0
        #: The open documents outside the rules folders (:meth:`bounded`), by their unquoted URI:
        #: whether the buffer was refused as too large (an L007 is published for it).
        self._outside: dict[str, bool] = {}
        #: Whether a document beyond :attr:`max_outside` was refused (said once a session).
        self._told_outside = False

    # --- the folders served ------------------------------------------------------------------

    @property
    def first(self) -> Folder | None:
        """The folder served first (a single-folder editor's only one)."""
        return self.folders[0] if self.folders else None

    @property
    def session(self) -> Session | None:
        return self.first.session if self.first is not None else None

    @property
    def result(self) -> Result | None:
        return self.first.result if self.first is not None else None

    @property
    def generation(self) -> int:
        return self.first.generation if self.first is not None else 0

    @property
    def runs(self) -> int:
        """Runs started, in every folder."""
        return sum(folder.runs for folder in self.folders)

    @property
    def superseded(self) -> int:
        """Runs stopped unpublished because a newer change superseded them, in every folder."""
        return sum(folder.superseded for folder in self.folders)

    def reads_versions(self) -> bool:
        """Whether the editor reads the `version` of published diagnostics (its `versionSupport`).
        LSP 3.17: a publication replaces the last one, and its version says which text of the
        buffer it was made for. Such an editor is sent an unchanged set again once a buffer's
        version moves on: kept at the old version, an editor that compares it with the buffer's
        takes the diagnostics for stale. Once a run, for the buffers edited since: no flood. An
        editor that ignores it is sent nothing new."""
        capabilities = self.client_capabilities.text_document
        published = capabilities.publish_diagnostics if capabilities is not None else None
        return bool(published is not None and published.version_support)

    def workspace_roots(self, fallback: bool = True) -> list[str]:
        """The editor's workspace folders as paths, in its order; without any, its `rootUri` (or
        `rootPath`): LSP 3.17 deprecates these for `workspaceFolders`. Not a ``fallback`` once the
        editor has changed its folders: an editor sends `rootUri` (its first folder) at the start and
        never again, so with every folder removed it named a folder the editor had closed."""
        roots: list[str] = []
        for folder in self.workspace.folders.values():
            path = fs_path(folder.uri)
            if path is not None and path not in roots:
                roots.append(path)
        if not roots and fallback and self.workspace.root_path:
            roots.append(self.workspace.root_path)
        return roots

    def start(self, roots: str | Iterable[str] | None = None) -> list[Folder]:
        """Serve the rules folders of the workspace folders ``roots`` (paths; one path, or None:
        none), replacing those served before.

        A relative --rules is looked for in each workspace folder, and every one that holds it is
        served; where none does, in the directory the server was started in. An absolute one is
        served alone. Where no rules folder is found, the editor is told once through the protocol
        (a pop-up and a log line; never on stdout, which is the protocol's channel) and the server
        goes on, answering requests from an empty result, so creating the folder or opening the
        right one helps.
        """
        if roots is None:
            roots = []
        elif isinstance(roots, str):
            roots = [roots]
        self._roots = roots = list(roots)
        rules = self.rules
        if rules.is_absolute():
            probes = [_probe(rules)]
        else:
            # A workspace folder probed before is not probed again: a change of the editor's folders
            # costs the folders added (1,000 folders, each probed and resolved at every change, made
            # about 40 ms of CPU a change). A rules folder created later in one of them is noticed by
            # the next change the editor sends of a file under it (see :meth:`notice`).
            self._probes = {root: self._probes.get(root) or _probe(Path(root) / rules) for root in roots}
            probes = list(self._probes.values())
            self._unfound = {
                os.path.normpath(probe.path.absolute()): root
                for root, probe in self._probes.items()
                if probe.real is None
            }
        found = [probe for probe in probes if probe.real is not None]
        problem = None
        if not found:
            # None is a folder: the one the server was started in (a relative --rules), else the
            # first place tried, where the editor's project is.
            tried = probes if rules.is_absolute() else [*probes, _probe(rules)]
            found = [next((probe for probe in tried if probe.real is not None), tried[0])]
            if found[0].real is None:
                problem = _no_rules_folder(tried)
                found = [_Probe(found[0].path, _key(found[0].path), found[0].why)]
        aliases: dict[Path, list[Path]] = {}
        for probe in found:
            assert probe.real is not None
            aliases.setdefault(probe.real, []).append(probe.path)
        started = self._serve(list({probe.real: probe for probe in reversed(found)}.values())[::-1], problem)
        for folder in self.folders:
            folder.aliases = tuple(p for p in aliases.get(folder.key, ()) if p != folder.rules)
        return started

    def _serve(self, wanted: list[_Probe], problem: Diagnostic | None) -> list[Folder]:
        """Serve ``wanted``: a folder served already goes on, the others are stopped or started
        (the folders started: validated once scheduled)."""
        self._started = True
        started: list[Folder] = []
        kept = {folder.key: folder for folder in self.folders}
        folders: list[Folder] = []
        for probe in wanted:
            real = probe.real if probe.real is not None else _key(probe.path)
            folder = kept.pop(real, None)
            if folder is None or folder._root_problem != (problem is not None):
                if folder is not None:
                    folder.stop()
                folder = Folder(self, probe.path, problem, real)
                started.append(folder)
            folders.append(folder)
        for gone in kept.values():
            gone.stop()
        self.folders = folders
        if problem is None:
            self._told_missing = False
        elif not self._told_missing:
            self._told_missing = True
            self.tell(problem)
        self._tell_cache_refused()
        return started

    def _tell_cache_refused(self) -> None:
        """Tell the editor, once, that the configured cache folder is not used and why: one the
        project or another user could have written (:func:`civrules.support.cache.refusal`). The
        command line refuses to run with it (R008, exit 2); the server runs on without a cache,
        as its workspaces never use such a one, so the editor keeps its checks."""
        if self._told_cache:
            return
        refused = cache.refusal()
        if refused is None:
            return
        self._told_cache = True
        why, variable = refused
        self.tell(
            Diagnostic(
                codes.COMMAND_LINE.code,
                Severity.WARNING,
                printable(f"{why}: the server runs without a cache (civrules would trust the entries found there)"),
                None,
                hint=f"set {variable} to a folder of yours outside the project (the default is ~/.cache/civrules) "
                "where the editor starts the server, or CIVRULES_CACHE_DIR= (empty)",
            )
        )

    def restart(self, roots: Iterable[str]) -> None:
        """Serve the rules folders of ``roots`` (see :meth:`start`); a folder started anew reads the
        editor's open buffers it holds, and is validated."""
        for folder in self.start(roots):
            for document in list(self.workspace.text_documents.values()):
                if self.folder_of(document.uri) is folder:
                    folder.changed(document.uri)  # an open buffer of the folder is read from the editor
            folder.schedule()

    def follow_the_folders(self, uris: Iterable[str] | None = None) -> bool:
        """Serve the workspace's rules folders anew where one served stopped being a folder (renamed
        or deleted while the editor had it open: its open buffers were checked alone, each "used by
        no ruleset"), where one that was missing is there now, or where a workspace folder that held
        none holds one now; whether it did.

        With ``uris`` (the files a change names), only what they can tell is looked at: the folders
        that hold them and the one said missing, one `stat` each, and the workspace folders whose
        rules folder would hold them, probed again where none was found (a rules folder created since:
        the editor names a file under it when one is opened, saved or reported by a watcher). A
        keystroke stated every folder served (1,000 `stat` a keystroke at 1,000 folders). Without
        ``uris``, every folder served is looked at."""
        if not self._started:
            return False
        looked = self.folders
        created = False
        if uris is not None:
            paths = [path for path in map(fs_path, uris) if path is not None]
            holding = {id(folder) for folder in map(self._holding, paths) if folder is not None}
            looked = [folder for folder in self.folders if folder._root_problem or id(folder) in holding]
            for path in paths:
                for place in (path, *map(str, Path(path).parents)):
                    root = self._unfound.get(os.path.normpath(place))
                    if root is not None and self._probes.pop(root, None) is not None:
                        created = True
        gone = [folder for folder in looked if _is_folder(folder.rules) == folder._root_problem]
        if not gone and not created:
            return False
        for folder in gone:
            places = {folder.rules, *folder.aliases}
            self._probes = {root: probe for root, probe in self._probes.items() if probe.path not in places}
        self.restart(self._roots)
        return True

    def folder_of(self, uri: str) -> Folder | None:
        """The folder whose rules directory holds ``uri`` (the innermost, where one holds another),
        or None when none does."""
        if not self._started:
            self.start(self.workspace_roots())
        path = fs_path(uri)
        if path is None:
            return None
        best = self._holding(path)
        if best is not None:
            return best
        # A shipped file a folder's rulesets read (a definition in a shipped base opened it): answered
        # by that folder, read-only.
        return next((folder for folder in self.folders if os.path.abspath(path) in folder._shipped), None)

    def _holding(self, path: str) -> Folder | None:
        """The folder whose rules directory holds ``path`` (the innermost), or None. Only a folder
        whose names hold it lexically is asked (:meth:`Folder.holds` resolves its root: a path
        resolved for each folder served at each change)."""
        try:
            lexical = os.path.normpath(os.path.abspath(path))
        except ValueError:
            return None
        best: Folder | None = None
        for folder in self.folders:
            if (
                folder.could_hold(lexical)
                and folder.holds(path) is not None
                and (best is None or len(folder.rules.absolute().parts) > len(best.rules.absolute().parts))
            ):
                best = folder
        return best

    def relative(self, uri: str) -> str | None:
        folder = self.folder_of(uri)
        return folder.relative(uri) if folder is not None else None

    def changed(self, uri: str, closed: bool = False) -> None:
        """Read ``uri`` from its open buffer (or from disk when it is ``closed``) from now on."""
        folder = self.folder_of(uri)
        if self.follow_the_folders([uri]):
            return  # every folder started anew read the open buffers
        if folder is not None:
            folder.changed(uri, closed)

    def bounded(self, uri: str) -> bool:
        """Whether the buffer of ``uri``, just opened or changed, is kept: a rule file's always (the
        loader bounds what it reads, L007); a document outside the rules folders only within
        :attr:`max_outside` documents of the limits' ``max_bytes`` each. One beyond the count is
        dropped (logged once); one too large is kept empty, with an L007 published on it, until
        the editor sends a whole text within the bound."""
        folder = self.folder_of(uri)
        relative = folder.relative(uri) if folder is not None else None
        key = unquote(uri)
        if folder is not None and relative is not None and not relative.startswith(SHIPPED):
            # A rule file on disk is never dropped; one that is not (yet) there is counted with
            # the documents outside: an editor opening 10,000 URIs of files that do not exist
            # under rules/ had them all kept (round 33). Its size is the loader's to judge (L007).
            # Only a regular file counts as on disk: a URI below a file or a FIFO (`cards/x.yaml/n.yaml`)
            # is no rule file there either, and was kept uncounted.
            if key in self._outside or kind_of(folder.session.root, relative) == "file":
                return True
            if len(self._outside) >= self.max_outside:
                self._drop(uri)
                return False
            self._outside[key] = False
            return True
        documents = self.workspace.text_documents
        document = documents.get(key)
        if document is None:
            return False
        if key not in self._outside and len(self._outside) >= self.max_outside:
            self._drop(uri)
            return False
        limit = (self.limits or Limits()).max_bytes
        source = document.source
        # Four bytes a character at most: only a text that might be too large is encoded to count.
        size = len(source) if len(source) * 4 <= limit else len(source.encode("utf-8", "surrogatepass"))
        if size > limit:
            self.workspace.put_text_document(
                types.TextDocumentItem(
                    uri=uri, language_id=document.language_id or "", version=document.version or 0, text=""
                )
            )
            if isinstance(self.protocol, CivrulesProtocol):
                self.protocol.left_behind(key)  # a ranged change has no text to apply to
            self._outside[key] = True
            message = (
                f"the editor's buffer of this file is {size:,} bytes, more than the {limit:,} bytes civrules "
                "keeps of a file outside the rules folder: the server did not keep it"
            )
            hint = "close the file, or raise the bound with `--max-file-size`"
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    diagnostics=[
                        types.Diagnostic(
                            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
                            message=plain(message) + f"\nhint: {plain(hint)}",
                            severity=types.DiagnosticSeverity.Error,
                            code=codes.TOO_LARGE.code,
                            source="civrules",
                        )
                    ],
                )
            )
            return False
        if self._outside.get(key):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self._outside[key] = False
        return True

    def _drop(self, uri: str) -> None:
        """Forget the buffer of ``uri``, one beyond :attr:`max_outside` (logged once a session)."""
        self.workspace.remove_text_document(uri)
        if not self._told_outside:
            self._told_outside = True
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Warning,
                    message=plain(
                        f"civrules: did not keep {ticked(shown_uri(uri))}: {self.max_outside} documents "
                        "outside the rules folder or not saved in it are open already, the most the server "
                        "keeps (close some); further such are dropped silently"
                    ),
                )
            )

    def closed_outside(self, uri: str) -> None:
        """Forget the document ``uri`` outside the rules folders, closed; its L007 is cleared."""
        if self._outside.pop(unquote(uri), False):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def schedule(self, uris: Iterable[str] | None = None) -> None:
        """Validate every folder again once changes stop coming (a file changed on disk: ``uris``,
        where the editor named them)."""
        if not self._started:
            self.start(self.workspace_roots())
        if self.follow_the_folders(uris):
            return
        for folder in self.folders:
            folder.schedule()

    def _settle_later(self) -> None:
        """Collect and freeze the garbage collector's objects once the server has been idle
        :attr:`settle_after` seconds (a change meanwhile puts it off, and so does any message:
        see :meth:`heard`)."""
        if self.settle_after is None:
            return
        if self._settling is not None:
            self._settling.cancel()
        self._settling = asyncio.get_running_loop().call_later(self.settle_after, self._settle, self.changes)

    def heard(self) -> None:
        """A message arrived: a collection still to come waits for :attr:`settle_after` seconds
        of silence from now. (Counted from the publication, it could start just before a request,
        which then waited for it: a hover repeated after a second took 0.95 s at scale 100.)"""
        if self._settling is not None:
            self._settle_later()

    def _settle(self, changes: int) -> None:
        self._settling = None
        if changes != self.changes or any(folder.busy() for folder in self.folders):
            return  # a change came: the run it starts settles after it
        settle()

    def internal_error(self, error: Exception, method: str | None = None) -> None:
        """Log ``error`` (raised handling ``method``, or validating) for the user: a bug, said politely."""
        # pygls wraps a handler's exception in an internal error whose message already names it.
        said = error.message if isinstance(error, JsonRpcException) else f"{type(error).__name__}: {error}"
        said = " ".join(said.split())[:200]
        where = f" handling `{method}`" if method else ""
        self.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Error,
                message=plain(
                    f"civrules: internal error{where} ({said}). Sorry: this is a bug in civrules, not in your "
                    "rules; please report it."
                ),
            )
        )

    def report_server_error(self, error: Exception, source: type[Exception]) -> None:
        """What pygls calls when a handler raises: a log line saying it is a bug, and the server
        goes on. (pygls' default shows the exception, Python type and all, as a pop-up.)"""
        if source is FeatureRequestError:
            return  # a request's error goes back in its response, already made plain (transport.py)
        self.internal_error(error, self.protocol.handling if isinstance(self.protocol, CivrulesProtocol) else None)

    def tell(self, diagnostic: Diagnostic) -> None:
        """Show ``diagnostic`` as a pop-up (an error or a warning) and a log line: for what is in no
        file the editor has, and so cannot be published as a file's diagnostic."""
        where = f"{diagnostic.span.file}: " if diagnostic.span is not None else ""
        text = f"civrules: {where}{diagnostic.severity.value}[{diagnostic.code}]: {diagnostic.message}"
        if diagnostic.hint:
            text += f" (hint: {diagnostic.hint})"
        kind = types.MessageType.Error if diagnostic.severity is Severity.ERROR else types.MessageType.Warning
        self.window_show_message(types.ShowMessageParams(type=kind, message=plain(text)))
        self.window_log_message(types.LogMessageParams(type=kind, message=plain(text)))

    def text(self, uri: str) -> str | None:
        """The text of ``uri`` as the editor has it: its open buffer, else the file under the
        rules folder that holds it."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is not None:
            source: str = document.source
            return source
        folder = self.folder_of(uri)
        relative = folder.relative(uri) if folder is not None else None
        if folder is None or relative is None or relative.startswith(SHIPPED):
            # A shipped file a published location points at (R013's related location, a definition).
            return next((text for f in self.folders if (text := f.text_outside(uri)) is not None), None)
        try:
            raw = read_under(folder.session.root, relative, folder.session.limits.max_bytes)
        except (OSError, RefusedError):
            return None
        # As civrules reads it (its columns count from after a byte order mark), and as editors show it.
        return decode(raw)

    def positions(self) -> Positions:
        """Position conversions in the encoding agreed at initialize, on the texts as they are now."""
        return Positions(encoding_of(self.workspace.position_encoding), self.text)


class _HeardProtocol(CivrulesProtocol):
    """The transport's protocol, telling the server of every message that arrives."""

    def handle_message(self, message: Any) -> None:
        if isinstance(self._server, CivrulesServer):
            self._server.heard()
        super().handle_message(message)


def lsp_diagnostic(diagnostic: Diagnostic, places: dict[str, str], positions: Positions) -> types.Diagnostic:
    """A civrules diagnostic as LSP's: code, range, message with its hint, related locations.

    ``places`` maps the files' displayed names to their URIs (:meth:`Folder.places`); a related
    location in no file of them (none is known: a folder) is left out.
    """
    assert diagnostic.span is not None
    related = [
        types.DiagnosticRelatedInformation(
            location=positions.location(places[r.span.file], r.span), message=plain(r.label)
        )
        for r in diagnostic.related
        if r.span.file in places
    ]
    # Plain text, one line each for the message and the hint: a line break in them is data's.
    message = plain(diagnostic.message) + (f"\nhint: {plain(diagnostic.hint)}" if diagnostic.hint else "")
    fix = suggestion(diagnostic)
    return types.Diagnostic(
        range=positions.range(places[diagnostic.span.file], diagnostic.span),
        message=message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source="civrules",
        related_information=related or None,
        # What a code action needs without asking again: the fix (None: there is none, as
        # opposed to a client that sent the diagnostic back without its data), and what the
        # diagnostic is about, as `validate --format json` gives it (a suppression's `target`).
        data={
            "suggestion": fix,
            "subjects": [printable(subject) for subject in diagnostic.subjects],
            **_additions_data(diagnostic),
        },
    )


def _additions_data(diagnostic: Diagnostic) -> dict[str, object]:
    """A fix made of entries to write elsewhere in the diagnostic's own file (V006's retarget),
    as the diagnostic's data carries it to a code action: its title and each addition."""
    span = diagnostic.span
    own = [one for one in diagnostic.additions if span is not None and one.file == span.file]
    if not own or len(own) != len(diagnostic.additions) or diagnostic.fix_title is None:
        return {}
    return {
        "fix_title": diagnostic.fix_title,
        "additions": [{"path": list(one.path), "text": one.text, "append": one.append} for one in own],
    }


def _additions_of(data: object, file: str) -> tuple[str, tuple[Addition, ...]] | None:
    """The title and additions a diagnostic's data carries (:func:`_additions_data`), read back
    as sent: anything not of that shape is no fix."""
    if not isinstance(data, dict) or not isinstance(data.get("fix_title"), str):
        return None
    found: list[Addition] = []
    for one in data.get("additions") or ():
        if not isinstance(one, dict):
            return None
        path, text, append = one.get("path"), one.get("text"), one.get("append")
        if not isinstance(path, list) or not all(isinstance(part, str) for part in path) or not path:
            return None
        if not isinstance(text, str) or not isinstance(append, bool):
            return None
        found.append(Addition(file, tuple(path), text, append))
    return (data["fix_title"], tuple(found)) if found else None


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _key(path: Path) -> Path:
    """What tells two rules folders apart: the same folder however it is named. A rules folder that
    is a link is told by where the link is (:func:`real_place`): civrules reads nothing through it,
    so the files where it leads are none of its own. Told by where it led when it was served, the
    files there were routed to it, and after the link was retargeted the old target's still were
    (round 36)."""
    try:
        return real_place(path)
    except (OSError, RuntimeError, ValueError):
        return Path(os.path.normpath(path.absolute()))


@dataclass(frozen=True, slots=True)
class _Probe:
    """One place a rules folder was looked for, as it was found."""

    path: Path
    #: Its real path (:func:`_key`) where it is a folder, else None.
    real: Path | None
    #: Why it is no rules folder to open (None where it is one).
    why: str | None


def _probe(path: Path) -> _Probe:
    """Look at ``path``: one `stat`, and the steps of resolving it where it is a folder.

    A folder civrules cannot list, or a link, is opened all the same: reading it says why (L012, R003).
    """
    import errno
    import stat

    shown = named_path(path.absolute())
    try:
        found = path.stat()
    except ValueError:  # a NUL in the name
        return _Probe(path, None, f"{shown} cannot name a folder (it holds a NUL character)")
    except OSError as error:
        in_the_way = not_folder_on(path.absolute()) if error.errno == errno.ENOTDIR else None
        why = {
            errno.ENOENT: "no such folder",
            errno.ENOTDIR: "a part of the path is not a folder"
            if in_the_way is None
            else f"{named_path(in_the_way[0])} is not a folder but {in_the_way[1]}",
            errno.ELOOP: "a symbolic link that leads back to itself",
        }.get(error.errno or 0, printable(error.strerror or str(error)).lower())
        return _Probe(path, None, f"{shown}: {why}")
    if stat.S_ISDIR(found.st_mode):
        return _Probe(path, _key(path), None)
    return _Probe(path, None, f"{shown} is not a folder")


def rules_folder_problem(tried: list[Path]) -> Diagnostic | None:
    """Why none of ``tried`` (the places a relative --rules is looked for, or the one absolute
    path) is a rules folder to open, as a diagnostic for the editor; None when one of them is."""
    probes = []
    for path in dict.fromkeys(path.absolute() for path in tried):
        probe = _probe(path)
        if probe.why is None:
            return None
        probes.append(probe)
    return _no_rules_folder(probes)


def _no_rules_folder(probes: list[_Probe]) -> Diagnostic:
    """That none of ``probes`` (none a folder) is a rules folder to open, as a diagnostic for the editor."""
    # The workspace folder may be the start one: each place is named once.
    reasons = [why for why in dict.fromkeys(probe.why for probe in probes) if why is not None]
    # The places tried are the editor's workspace folders, as many as it sends: the pop-up names the
    # first few (1,000 folders made a pop-up of 43,000 characters) and counts the others.
    more = len(reasons) - _REASONS_SHOWN
    said = "; ".join(reasons[:_REASONS_SHOWN])
    if more > 0:
        said += f"; and {words.count(more, 'other place')} like them"
    return Diagnostic(
        codes.NO_RULESETS.code,
        codes.NO_RULESETS.severity,
        "no rules folder to check: " + said,
        None,
        hint="open the project folder (the one holding rules/) as the editor's workspace, or start the "
        "server with `civrules --rules DIR lsp` (DIR absolute, or relative to the workspace folder); "
        "`civrules init` in the workspace folder starts a rule-data repository there",
        subjects=tuple(dict.fromkeys(printable(str(probe.path.absolute())) for probe in probes[: words.SHOWN])),
    )


#: How many of the places a rules folder was looked for its absence names.
_REASONS_SHOWN = 3


def create_server(rules: Path, limits: Limits | None = None) -> CivrulesServer:
    """The server with every feature registered."""
    server = CivrulesServer(rules, limits)

    @server.feature(types.INITIALIZED)
    def initialized(ls: CivrulesServer, params: types.InitializedParams) -> None:
        ls.start(ls.workspace_roots())
        ls.schedule()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def workspace_folders(ls: CivrulesServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        # pygls has brought its list of the workspace folders up to date: serve theirs.
        ls.restart(ls.workspace_roots(fallback=False))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CivrulesServer, params: types.DidOpenTextDocumentParams) -> None:
        if ls.bounded(params.text_document.uri):
            ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CivrulesServer, params: types.DidChangeTextDocumentParams) -> None:
        if ls.bounded(params.text_document.uri):
            ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: CivrulesServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CivrulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.closed_outside(params.text_document.uri)
        ls.changed(params.text_document.uri, closed=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: CivrulesServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.schedule([change.uri for change in params.changes])

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: CivrulesServer, params: types.HoverParams) -> types.Hover | None:
        folder = ls.folder_of(params.text_document.uri)
        return _hover(folder, params.text_document.uri, params.position) if folder is not None else None

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: CivrulesServer, params: types.DefinitionParams) -> list[types.Location] | None:
        uri = params.text_document.uri
        positions = ls.positions()
        folder = ls.folder_of(uri)
        relative = folder.relative(uri) if folder is not None else None
        if folder is None or relative is None:
            return None
        read = {relative}
        while True:
            # In a buffer that does not parse as typed too, from the part before its error.
            symbol = _symbol(folder, uri, params.position, positions, read, as_typed=True)
            found = folder.index(read).definitions_as_typed(symbol) if symbol is not None else []
            places = {s.relative for s in found}
            if not folder.stale(places):
                break
            read |= places  # a definition's file was edited since: its place is looked up in the new text
        return [folder.location(s, positions) for s in found] or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: CivrulesServer, params: types.ReferenceParams) -> list[types.Location] | None:
        positions = ls.positions()
        folder = ls.folder_of(params.text_document.uri)
        symbol = _symbol(folder, params.text_document.uri, params.position, positions, None) if folder else None
        if folder is None or symbol is None:
            return None
        index = folder.index(None)
        found, unread = index.references_as_typed(symbol, include_definition=params.context.include_declaration)
        if unread:
            # A list has no room for a note: the log says what it may lack.
            ls.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Warning,
                    message=plain(
                        f"civrules: the references of {ticked(symbol.id)} leave out what "
                        f"{words.listed(unread)} "
                        f"{'names' if len(unread) == 1 else 'name'} after {'its' if len(unread) == 1 else 'their'} "
                        "YAML error (the part before it is listed): fix the file and ask again"
                    ),
                )
            )
        return [folder.location(s, positions) for s in found] or None

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[":", " ", "[", ",", "-"])
    )
    def completion(ls: CivrulesServer, params: types.CompletionParams) -> types.CompletionList:
        folder = ls.folder_of(params.text_document.uri)
        if folder is None:
            return types.CompletionList(is_incomplete=False, items=[])
        return _completion(folder, params.text_document.uri, params.position)

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: CivrulesServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder:
        positions = ls.positions()
        folder = ls.folder_of(params.text_document.uri)
        # Every buffer: the rename that follows rewrites the id in every file that names it.
        symbol = _symbol(folder, params.text_document.uri, params.position, positions, None) if folder else None
        if folder is None or symbol is None:
            raise _Refused("no id of a collection here: only an entity's id, or a reference to one, can be renamed")
        try:
            folder.index(None).renamable(symbol)
        except RenameRefusedError as refused:
            raise _Refused(plain(str(refused))) from None
        span = positions.range(params.text_document.uri, _inside_quotes(folder, symbol, positions))
        return types.PrepareRenamePlaceholder(range=span, placeholder=symbol.id)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def rename(ls: CivrulesServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        positions = ls.positions()
        folder = ls.folder_of(params.text_document.uri)
        for attempt in range(2):
            # Every buffer as it is now (the pending run is done first): a rename made from an older
            # result rewrote the id the old text had at the cursor, at the old places, in every file.
            symbol = _symbol(folder, params.text_document.uri, params.position, positions, None) if folder else None
            if folder is None or symbol is None:
                raise _Refused("no id of a collection here: only an entity's id, or a reference to one, can be renamed")
            try:
                found = folder.index(None).rename(symbol, params.new_name)
            except RenameRefusedError as refused:
                raise _Refused(plain(str(refused))) from None
            # A file the editor has not open is edited as it is on disk: where another program
            # changed it since it was read (and the editor said nothing), it is read again first.
            assert folder is not None and folder.result is not None
            moved = sorted({s.relative for s in found if not folder.session.unchanged(folder.result, s.relative)})
            if not moved:
                break
            if attempt:
                raise _ContentModified(
                    f"{named_path(moved[0])} keeps changing on disk as civrules reads it: rename again once it is saved"
                )
            folder.schedule()  # a change the editor did not tell: the next current() reads the files again
        assert folder is not None  # the loop refused a rename without one
        changes: dict[str, list[types.TextEdit]] = {}
        for occurrence in found:
            uri = folder.uri(occurrence.relative)
            span = _inside_quotes(folder, occurrence, positions)
            # Inside its quotes the id is text; written plain, `true` or `null` would not be. Part
            # of a text (a `field:`'s selector), it is written as it is.
            whole = span == occurrence.span and occurrence.document.span(occurrence.path) == occurrence.span
            new_text = scalar_text(params.new_name) if whole else params.new_name
            changes.setdefault(uri, []).append(types.TextEdit(range=positions.range(uri, span), new_text=new_text))
        return types.WorkspaceEdit(changes=changes) if changes else None

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(
        ls: CivrulesServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        folder = ls.folder_of(params.text_document.uri)
        return _outline(folder, params.text_document.uri) if folder is not None else None

    @server.feature(types.WORKSPACE_SYMBOL)
    def workspace_symbol(ls: CivrulesServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        """Every entity of every rules folder served whose id or name holds the query: an id found
        from any file (VS Code: `Ctrl+T`; Neovim: `vim.lsp.buf.workspace_symbol()`). Not served
        before round 33: an editor had to open the file that defines an id first."""
        positions = ls.positions()
        found: list[types.SymbolInformation] = []
        # A shipped file two folders read (each extends a shipped ruleset) gives each of its entities
        # to both: listed once (round 36: each base entity twice, at the same place).
        seen: set[tuple[str, str, int, int]] = set()
        for folder in ls.folders:
            for symbol, name in folder.index(None).symbols(params.query)[:WORKSPACE_SYMBOLS]:
                location = folder.location(symbol, positions)
                place = (symbol.id, location.uri, location.range.start.line, location.range.start.character)
                if place in seen:
                    continue
                seen.add(place)
                found.append(
                    types.SymbolInformation(
                        name=symbol.id,
                        kind=_SYMBOL_KINDS.get(
                            "ruleset" if symbol.collection == "rulesets" else "", types.SymbolKind.Object
                        ),
                        location=location,
                        container_name=f"{name} ({symbol.collection})" if name else symbol.collection,
                    )
                )
        return found

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def code_action(ls: CivrulesServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return _code_actions(ls, params) or None

    return server


#: The most entities a workspace-symbol query answers per rules folder (the best matches first):
#: a query of one letter over a map thirteen times the shipped one matched thousands.
WORKSPACE_SYMBOLS = 500

#: How the editor marks each kind of outline entry (an entity: by its collection's entity word).
_SYMBOL_KINDS = {"ruleset": types.SymbolKind.Module, "collection": types.SymbolKind.Array}


def _outline(ls: Folder, uri: str) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    """The file's outline (:meth:`Index.outline`): nested where the client shows a hierarchy, else
    one flat list, each entity naming its collection as its container (LSP's older form)."""
    relative = ls.relative(uri)
    if relative is None:
        return None
    outline = ls.index((relative,)).outline(relative)
    if not outline:
        return None
    positions = ls.positions()

    def nested(entry: Outline) -> types.DocumentSymbol:
        return types.DocumentSymbol(
            name=entry.name,
            detail=plain(entry.detail) or None,
            kind=_SYMBOL_KINDS.get(entry.kind, types.SymbolKind.Object),
            range=positions.range(uri, entry.span),
            selection_range=positions.range(uri, entry.selection),
            children=[nested(child) for child in entry.children] or None,
        )

    capabilities = ls.server.client_capabilities.text_document
    symbols = capabilities.document_symbol if capabilities is not None else None
    if symbols is not None and symbols.hierarchical_document_symbol_support:
        return [nested(entry) for entry in outline]
    flat: list[types.SymbolInformation] = []
    for entry in outline:
        for one, container in ((entry, None), *((child, entry.name) for child in entry.children)):
            flat.append(
                types.SymbolInformation(
                    name=one.name,
                    kind=_SYMBOL_KINDS.get(one.kind, types.SymbolKind.Object),
                    location=positions.location(uri, one.span),
                    container_name=container,
                )
            )
    return flat


class _Refused(JsonRpcException):
    """A rename the server declines, with why: LSP's RequestFailed, shown by the editor."""

    CODE = -32803
    MESSAGE = "rename refused"


class _ContentModified(JsonRpcException):
    """A request whose answer the files changed under as it was made: LSP's ContentModified."""

    CODE = -32801
    MESSAGE = "content modified"


def _inside_quotes(ls: Folder, symbol: Symbol, positions: Positions) -> Span:
    """The span of an id without the quotes it may be written in (a rename keeps them)."""
    span = symbol.span
    lines = positions.lines(ls.uri(symbol.relative))
    if span.line == span.end_line and 0 < span.line <= len(lines):
        written = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        if len(written) >= 2 and written[0] == written[-1] and written[0] in "\"'":
            return Span(span.file, span.line, span.column + 1, span.end_line, span.end_column - 1)
    return span


def _symbol(
    ls: Folder,
    uri: str,
    position: types.Position,
    positions: Positions,
    relatives: Iterable[str] | None,
    *,
    as_typed: bool = False,
) -> Symbol | None:
    """The id under ``position``, in the result made from the buffers of the document and of
    ``relatives`` as they are now (None: every buffer; see :meth:`CivrulesServer.current`);
    ``as_typed``: in a buffer that does not parse too (:meth:`Index.at_as_typed`)."""
    relative = ls.relative(uri)
    if relative is None:
        return None
    read = None if relatives is None else {relative, *relatives}
    index = ls.index(read)
    at = index.at_as_typed if as_typed else index.at
    return at(relative, *positions.point(uri, position))


def _hover(ls: Folder, uri: str, position: types.Position) -> types.Hover | None:
    relative = ls.relative(uri)
    if relative is None:
        return None
    # The document's buffer as it is now: its diagnostics and ids are placed in it.
    result = ls.current((relative,))
    positions = ls.positions()
    line, column = positions.point(uri, position)
    display = result.files.get(relative)
    parts: list[str] = []
    shown: set[str] = set()
    # The file's own diagnostics (grouped once per result), not every file's at each hover.
    for diagnostic in ls.diagnostics_of(display, (relative,)) if display is not None else ():
        span = diagnostic.span
        if span is None or not covers(span, line, column):
            continue
        text = f"**{markdown_text(f'{diagnostic.severity.value}[{diagnostic.code}]')}**: "
        text += markdown_text(diagnostic.message)
        if diagnostic.hint:
            text += f"\n\nhint: {markdown_text(diagnostic.hint)}"
        if diagnostic.code not in shown:
            shown.add(diagnostic.code)
            text += f"\n\n{markdown_block(explain(diagnostic.code))}"
        parts.append(text)
    lines = positions.lines(uri)
    code = code_at(lines[line - 1], column) if 0 < line <= len(lines) else None
    if code is not None and code not in shown:
        parts.append(markdown_block(explain(code)))
    index = ls.index((relative,))
    symbol = index.at_as_typed(relative, line, column)
    if symbol is not None:
        parts.append(index.describe(symbol))
    cited = citation_at(lines[line - 1], column) if symbol is None and 0 < line <= len(lines) else None
    if cited is not None:
        said = describe_citation(cited, _rule_indexes(result, relative))
        if said:
            parts.append(said)
    if not parts:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


def _rule_indexes(result: Result, relative: str, files: Iterable[str] | None = None) -> dict[str, Any]:
    """The rule indexes (by rulebook title) the rulesets that read ``relative`` read (a variant's,
    its base's), or those among ``files``: what its citations cite. Read from the files, not the
    rulesets' models, so a ruleset with an error elsewhere still answers."""
    from civrules.checks.citations import index_of

    found: dict[str, Any] = {}
    workspace = result.workspace
    if workspace is None:
        return found
    reads = [result.depends.get(name, ()) for name in result.rulesets_using(relative)] if files is None else [files]
    for each in reads:
        for read in sorted(each):
            loaded = workspace.load(read)
            if loaded.document is None or loaded.kind is None or loaded.kind.rpartition("/")[2] != "rule_index":
                continue
            data = loaded.document.data if isinstance(loaded.document.data, dict) else {}
            listed = data.get("sections") or ()
            sections = frozenset(
                item["section"] for item in listed if isinstance(item, dict) and isinstance(item.get("section"), str)
            )
            index = index_of(loaded.document, sections)
            book = index.document.data.get("rulebook") if isinstance(index.document.data, dict) else None
            title = book.get("title") if isinstance(book, dict) else None
            found.setdefault(title if isinstance(title, str) else read, index)
    return found


_KIND_LINE = re.compile(r"^kind:\s*([a-z_]+)\s*$", re.MULTILINE)


def _file_kind(ls: Folder, relative: str, text: str) -> str | None:
    """The qualified kind of the file ``relative`` (a family's `kind: cards` is its `<family>/cards`):
    as the session judged it, else as civrules judges a file no ruleset has claimed yet (a
    manifest's `family:`, else its base's, else the default family's: :func:`written_kind`; any
    other file's kind among the families of the rules folder's rulesets,
    :func:`civrules.schema.family_of_kind`). None: no kind, or one none of those families has."""
    from civrules.schema import family_of_kind, qualify

    judged = ls.index(()).kinds.get(relative)
    if judged is not None:
        return judged
    found = _KIND_LINE.search(text)
    if found is None:
        return None
    kind = found.group(1)
    if kind == "ruleset":
        # Its `family:`, else its base's (`extends:`): a variant of another family that names only
        # its base was offered the keys of the default family's manifest until round 36.
        return written_kind(text, ls.index(()).result.workspace)
    family = family_of_kind(kind, _families_here(ls))
    return qualify(family, kind) if family is not None else None


def _families_here(ls: Folder) -> tuple[Family, ...]:
    """The families of the folder's rulesets, as its last result found them (none: not known yet)."""
    workspace = ls.index(()).result.workspace
    return workspace.families_here() if workspace is not None else ()


def _completion(ls: Folder, uri: str, position: types.Position) -> types.CompletionList:
    from civrules.schema import CORE_KINDS, SCHEMA_FILES, load_schema

    relative = ls.relative(uri)
    positions = ls.positions()
    lines = positions.lines(uri)
    items: list[types.CompletionItem] = []
    if relative is None:
        return types.CompletionList(is_incomplete=False, items=items)
    keys, is_value = yaml_key_path(lines, *positions.point(uri, position))
    kind = _file_kind(ls, relative, "\n".join(lines))
    properties: dict[str, Any] = {}
    values: list[Any] = []
    if kind in SCHEMA_FILES:
        properties, values = schema_keys(load_schema(kind), keys)
        item = is_value and properties and not values and block_item_at(lines, *positions.point(uri, position))
        if item and reference_at(kind, keys) is None:
            is_value = False  # an item of a list of mappings (`  - i` under `cards:`): its first key
    if not keys and not is_value and kind not in SCHEMA_FILES:
        values = []
        # The kinds as a file writes them (a family's `cards`, not the qualified `<family>/cards`):
        # those of the folder's families (any family's where it has no ruleset yet).
        here = _families_here(ls)
        written = sorted(
            {k.rpartition("/")[2] for k in SCHEMA_FILES}
            if not here
            else {*CORE_KINDS, *(k for family in here for k in family.kinds)}
        )
        items.extend(
            types.CompletionItem(label=f"kind: {k}", kind=types.CompletionItemKind.Keyword, insert_text=f"kind: {k}")
            for k in written
        )
    cites = keys[-1] if is_value and keys and keys[-1] in CITING and kind in SCHEMA_FILES else None
    if cites is not None:
        items.extend(_citations(ls, relative, cites, lines, uri, position))
    elif is_value or not properties:
        for value in values:
            if isinstance(value, str) and _insertable(value):
                items.append(types.CompletionItem(label=value, kind=types.CompletionItemKind.EnumMember))
        # Ids only where the schema says the value refers to a collection, and only that one's.
        ref = reference_at(kind, keys) if is_value else None
        wanted = ref.collection if ref is not None else None
        index = ls.index(())
        offered = (
            [(one, wanted) for one in index.extendable(relative)]
            if wanted == "rulesets"
            else index.ids(relative)
            if wanted is not None
            else []
        )
        for identifier, collection in offered:
            # An id that holds a control character is offered as nothing: it would be inserted as it is.
            if collection == wanted and _insertable(identifier):
                items.append(
                    types.CompletionItem(
                        label=identifier,
                        kind=types.CompletionItemKind.Reference,
                        detail=plain(collection.replace("_", " ")),
                    )
                )
    else:
        for name, sub in sorted(properties.items()):
            text = description(sub)
            items.append(
                types.CompletionItem(
                    label=name,
                    kind=types.CompletionItemKind.Property,
                    insert_text=f"{name}: ",
                    documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown_text(text))
                    if text
                    else None,
                )
            )
    # The ids offered are those of the last result (made at once while typing); until the buffers
    # are validated, the list may lack an id just typed: the editor is to ask again as typing goes on.
    return types.CompletionList(is_incomplete=ls.stale(None), items=items)


def _citations(
    ls: Folder, relative: str, cites: str, lines: list[str], uri: str, position: types.Position
) -> list[types.CompletionItem]:
    """What a `rule:` value may cite (the sections of the rule indexes of the rulesets reading the
    file, each with its title) or a `source:` value (the sources those rulesets already cite), as
    hover reads them. Until round 34 a citation was completed with nothing. Written as typed inside
    quotes the designer opened, else quoted where YAML would read another type (`32.21`, a number).

    Each is an edit of the value typed so far (from its start to the cursor), not a word to insert:
    an editor that ends a word at `.`, `/` or `@` (VS Code's YAML, Vim's `iskeyword`) took `2` of
    `32.2` as the word, filtered `32.21` out, or wrote `32.32.21` (round 35)."""
    positions = ls.positions()
    line, column = positions.point(uri, position)
    text = lines[line - 1][: column - 1] if 0 < line <= len(lines) else ""
    quoted = text.count('"') % 2 == 1 or text.count("'") % 2 == 1
    typed = types.Range(start=positions.position(uri, line, _value_start(text, cites, quoted) + 1), end=position)
    index = ls.index(())
    found: list[tuple[str, str | None]] = []
    if cites == "source":
        found = [(source, None) for source in index.sources(relative)]
    else:
        seen: set[str] = set()
        looked_in = index.looked_in(relative)  # a manifest that does not parse: where it last looked
        for book, rule_index in sorted(_rule_indexes(index.result, relative, looked_in).items()):
            data = rule_index.document.data if isinstance(rule_index.document.data, dict) else {}
            for item in data.get("sections") or ():
                section = item.get("section") if isinstance(item, dict) else None
                if isinstance(section, str) and section not in seen:
                    seen.add(section)
                    title = item.get("title")
                    found.append((section, f"{title} ({book})" if isinstance(title, str) else str(book)))
    return [
        types.CompletionItem(
            label=cited,
            kind=types.CompletionItemKind.Reference if cites == "rule" else types.CompletionItemKind.Text,
            detail=plain(detail) if detail else None,
            text_edit=types.TextEdit(range=typed, new_text=cited if quoted else scalar_text(cited)),
            filter_text=cited,
            sort_text=f"{number:06d}",
        )
        for number, (cited, detail) in enumerate(found)
        if _insertable(cited)
    ]


def _value_start(text: str, cites: str, quoted: bool) -> int:
    """Where the citation being typed at the end of ``text`` (a line up to the cursor) starts:
    after the quote left open, else after what comes before a section (`rule: `, `[`, `, `, `- `),
    else after `source:` (a source holds spaces), else after the line's indent and list marks."""
    if quoted:
        return max(text.rfind('"'), text.rfind("'")) + 1
    if cites == "rule":
        return max(text.rfind(c) for c in " \t[,{:") + 1
    keyed = [found.end() for found in re.finditer(rf"(?<![\w-]){re.escape(cites)}\s*:\s*", text)]
    if keyed:
        return keyed[-1]
    marks = re.match(r"[\s-]*", text)
    return marks.end() if marks is not None else 0


def _code_actions(ls: CivrulesServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    positions = ls.positions()
    lines = positions.lines(uri)
    actions: list[types.CodeAction] = []
    fixes: dict[_Sent, dict[str, object]] | None = None  # looked up only for a client that strips data
    for diagnostic in params.context.diagnostics:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        if "suggestion" not in data:  # sent back without its data: looked up among ours
            if fixes is None:
                fixes = _suggestions(ls, uri, positions)
            data = fixes.get(_sent(diagnostic.code, diagnostic.range), {})
        fix = data.get("suggestion")
        elsewhere = _additions_of(data, uri)
        if elsewhere is not None:
            action = _additions_action(positions, uri, diagnostic, *elsewhere)
            if action is not None:
                actions.append(action)
        if not isinstance(fix, str):
            continue
        # The edit replaces the range the client sent (in its units); what it holds is read in ours.
        rng = diagnostic.range
        new_text = fix
        line, column, end_line, end_column = positions.span(uri, rng)
        if line == end_line and 0 < line <= len(lines):
            written = lines[line - 1][column - 1 : end_column - 1]
            if len(written) >= 2 and written[0] == written[-1] and written[0] in "\"'":
                new_text = f"{written[0]}{fix}{written[0]}"
            else:  # written plain, the fix must read back as text (`true` would be a boolean)
                new_text = scalar_text(fix)
        actions.append(
            types.CodeAction(
                title=plain(f"Replace with `{fix}`"),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=rng, new_text=new_text)]}),
            )
        )
    return actions


def _additions_action(
    positions: Positions, uri: str, diagnostic: types.Diagnostic, title: str, additions: tuple[Addition, ...]
) -> types.CodeAction | None:
    """The quick fix writing ``additions`` into the document at ``uri`` as its text is now: one
    edit of the whole text (a later addition may extend a block an earlier one makes); None where
    one of them cannot be written as a block of its own (:mod:`civrules.lsp.additions`)."""
    lines = positions.lines(uri)
    text = positions.text(uri)
    if not lines or text is None:
        return None
    edited = written(text, additions)
    if edited is None or edited == text:
        return None
    whole = types.Range(
        start=types.Position(line=0, character=0), end=positions.position(uri, len(lines), len(lines[-1]) + 1)
    )
    return types.CodeAction(
        title=plain(title),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=whole, new_text=edited)]}),
    )


def _insertable(text: str) -> bool:
    """Whether ``text`` may be offered for insertion as it is (no character the editor would hide)."""
    return plain(text) == text


#: A diagnostic as a client sends it back: its code, and its LSP range as (line, character, end
#: line, end character).
_Sent = tuple[object, int, int, int, int]


def _sent(code: object, rng: types.Range) -> _Sent:
    return (code, rng.start.line, rng.start.character, rng.end.line, rng.end.character)


def _suggestions(server: CivrulesServer, uri: str, positions: Positions) -> dict[_Sent, dict[str, object]]:
    """The suggestion of each of our diagnostics of ``uri`` by its code and LSP range: what a
    diagnostic a client sends back without its data is looked up in (where two share both, the
    first's, as they are sorted).

    Made once per request: each diagnostic sent searched the file's for its own, converting their
    spans until one matched; a quick fix over a whole file of 2,000 diagnostics took 20 s.
    """
    ls = server.folder_of(uri)
    relative = ls.relative(uri) if ls is not None else None
    if ls is None or relative is None:
        return {}
    # The document's buffer as it is now: the client moved the diagnostics it sends back with their lines.
    display = ls.current((relative,)).files.get(relative)
    found: dict[_Sent, dict[str, object]] = {}
    for diagnostic in ls.diagnostics_of(display, (relative,)) if display is not None else ():
        assert diagnostic.span is not None
        found.setdefault(
            _sent(diagnostic.code, positions.range(uri, diagnostic.span)),
            {"suggestion": suggestion(diagnostic), **_additions_data(diagnostic)},
        )
    return found


def serve(rules: Path, limits: Limits | None = None) -> int:
    """Serve LSP over stdin and stdout until the client exits; the exit code (0 after `shutdown`)."""
    import sys

    quiet_logs()
    server = create_server(rules, limits)
    server.settle_after = 1.0  # this process is the server's: collect while idle (see `settle_after`)
    # The largest message: a buffer of the largest file read, every character escaped in JSON
    # (`\uXXXX`, six bytes), and room for the rest of a didChange.
    bound = (limits or Limits()).max_bytes * 6 + 65536
    assert isinstance(server.protocol, CivrulesProtocol)
    return serve_stream(server.protocol, sys.stdin.buffer, sys.stdout.buffer, bound)
