"""JSON-RPC as the language server speaks it: framing, parsing and the answers the specification
names for what an editor (or anything else on the other end of the pipe) gets wrong.

pygls' own reader (``pygls.io_.run_async``) read a ``Content-Length`` of any size into memory (a
MemoryError), waited forever on a negative, non-numeric or short one, wrote a traceback to standard
error for a body that is not JSON or is a batch and answered nothing, answered nothing to a
request whose params do not fit its method (a negative line, ``params: null``) nor to a request
after ``shutdown``, and sent tracebacks (with installation paths) as the ``data`` of an internal
error. Here:

- a message is read by :class:`FrameReader`: its headers are bounded, its ``Content-Length`` must
  be a decimal number of at most ``max_message`` bytes, and after any framing error the reader
  skips to the next ``Content-Length`` header, so the server keeps answering;
- a framing or parse error is answered with ``ParseError`` (-32700, id null); a body that is JSON
  but no request, notification or response (a batch, which LSP does not use, included) with
  ``InvalidRequest`` (-32600); params that do not fit the method with ``InvalidParams``
  (-32602); a request before ``initialize`` with ``ServerNotInitialized`` (-32002) and one after
  ``shutdown`` with ``InvalidRequest``; a notification before ``initialize`` is dropped (as LSP
  says), and a change to a document never opened is ignored (logged once);
- a document's text is never what the client's message does not say it is: a ranged change (the
  server advertises Full sync) is applied in the agreed position encoding, or refused where its
  range is not in the buffer (logged; the last good buffer is kept, and later ranged changes are
  refused until the whole text comes again); a change whose version is not after the buffer's is
  an older text, refused (logged); a second ``didOpen`` of an open document is its whole text,
  taken (logged);
- no response and no log line carries a traceback: an error's message is one escaped line, and
  pygls' log records are written as their first line only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, Optional, Union
from urllib.parse import unquote, urlsplit

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol

from civrules.diagnostics.escape import printable
from civrules.diagnostics.markup import plain
from civrules.diagnostics.words import ticked

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002

#: The longest header line read (a `Content-Length` or `Content-Type` line is a few dozen bytes).
MAX_HEADER_LINE = 4096
#: Header lines of one message at most.
MAX_HEADERS = 32
#: The characters of buffer one `didChange` may have its ranged changes applied to, in all: each
#: ranged change reads the buffer as the change before it left it, so a message of 20,000 tiny
#: changes to a 20 KB file cost 34 s of CPU (round 33), and one within the message bound (half a
#: million) hours. About a second of work; beyond it the changes are refused as a range not in
#: the buffer is (the server asks for whole texts: Full sync), until the whole text comes again.
MAX_RANGED_WORK = 32 * 1024 * 1024
_CONTENT_LENGTH = re.compile(rb"content-length\s*:", re.IGNORECASE)
_HEADER = re.compile(rb"^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*:[ \t]*(.*?)[ \t]*\r?\n$")


@dataclass(frozen=True, slots=True)
class Frame:
    """One message read: its body, or why none could be read (``error``, for a ParseError)."""

    body: bytes = b""
    error: str | None = None


class FrameReader:
    """Reads LSP's base protocol (headers, a blank line, ``Content-Length`` bytes of body) from a
    binary stream, within bounds, and finds the next message after a malformed one."""

    def __init__(self, stream: IO[bytes] | FdStream, max_message: int) -> None:
        self.stream = stream
        self.max_message = max_message
        self._resync = False
        self._carried: bytes | None = None

    def _line(self) -> bytes:
        if self._carried is not None:
            line, self._carried = self._carried, None
            return line
        return self.stream.readline(MAX_HEADER_LINE + 1)

    def read(self) -> Frame | None:
        """The next message, a :class:`Frame` saying why it could not be read, or None at the end."""
        if self._resync and not self._skip_to_header():
            return None
        length: int | None = None
        problem: str | None = None
        count = 0
        while True:
            line = self._line()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if count == 0:
                    continue  # blank lines between messages: nothing to read yet
                break
            count += 1
            match = _HEADER.match(line)
            if match is None or count > MAX_HEADERS:
                self._resync = True
                rest = _CONTENT_LENGTH.search(line, 1)
                if rest is not None:  # the next message's header, after the rest of a short body
                    self._carried = line[rest.start() :]
                    self._resync = False
                shown = line[:40].decode("utf-8", "replace")
                why = "too many header lines" if match is not None else f"not a header line: {shown!r}"
                return Frame(error=f"cannot read the message's headers ({why})")
            name, value = match.group(1).lower(), match.group(2)
            if name != b"content-length":
                continue  # Content-Type, or a header LSP does not define: nothing to read in it
            if not value.isdigit() or not value.isascii():
                problem = f"Content-Length `{value[:40].decode('utf-8', 'replace')}` is not a number of bytes"
            elif len(value) > 15 or int(value) > self.max_message:
                problem = f"a message of {int(value):,} bytes is larger than the {self.max_message:,} bytes read"
            else:
                length = int(value)
        if problem is None and length is None:
            problem = "the message has no Content-Length header"
        if problem is not None:
            self._resync = True
            return Frame(error=problem)
        assert length is not None
        body = self.stream.read(length)
        if len(body) < length:
            return None  # the stream ended inside the body
        return Frame(body)

    def _skip_to_header(self) -> bool:
        """Skip what is left of a malformed message: up to the next line holding ``Content-Length:``.

        Reads at most :data:`MAX_HEADER_LINE` bytes at a time (a body of any size is skipped in
        bounded pieces). False at the end of the stream.
        """
        while True:
            line = self.stream.readline(MAX_HEADER_LINE + 1)
            if not line:
                return False
            found = _CONTENT_LENGTH.search(line)
            if found is not None and line.endswith(b"\n"):
                self._carried = line[found.start() :]
                self._resync = False
                return True


class FdStream:
    """``readline`` and ``read`` over a file descriptor, with a buffer of its own.

    The reader thread blocks in it while the server works; a thread blocked in ``sys.stdin.buffer``
    holds that object's lock, and the interpreter aborts at exit (SIGABRT) when it finds it held.
    """

    CHUNK = 65536

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.ended = False

    def _fill(self) -> bool:
        if self.ended:
            return False
        chunk = os.read(self.fd, self.CHUNK)
        if not chunk:
            self.ended = True
            return False
        self.buffer += chunk
        return True

    def readline(self, limit: int = -1) -> bytes:
        start = 0
        while True:
            end = self.buffer.find(b"\n", start)
            if end >= 0:
                size = end + 1
                break
            if 0 <= limit <= len(self.buffer):
                size = limit
                break
            start = len(self.buffer)
            if not self._fill():
                size = len(self.buffer)
                break
        if 0 <= limit < size:
            size = limit
        line = bytes(self.buffer[:size])
        del self.buffer[:size]
        return line

    def read(self, size: int) -> bytes:
        while len(self.buffer) < size and self._fill():
            pass
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data


class CivrulesProtocol(LanguageServerProtocol):
    """pygls' protocol, answering every message the specification says to answer, without tracebacks."""

    def _send_response(self, msg_id: Any, result: Any | None = None, error: types.ResponseError | None = None) -> None:
        if error is not None:
            # pygls puts the traceback of a handler's exception into `data` (with installation
            # paths), and its first line into `message`: one escaped line, no data.
            message = _one_line(str(error.message)) or "internal error"
            error = types.ResponseError(code=error.code, message=message)
        super()._send_response(msg_id, result, error)

    def send_error(self, msg_id: Any, code: int, message: str) -> None:
        """An error response (``msg_id`` None: the id could not be read)."""
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": _one_line(message)}})

    #: The method of the message being handled (what a handler's exception is reported with).
    handling: str | None = None
    #: Whether a change to a document the client never opened was logged (once a session).
    _told_unopened = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The open documents whose buffer a refused ranged change left behind the client's text.
        self._out_of_step: set[str] = set()
        #: What was logged once a document (a version that went backwards, a second open).
        self._warned: set[tuple[str, str]] = set()
        # lsprotocol structures LSP's `integer | string` (a request's id to cancel, a progress token,
        # a diagnostic's code) by passing any value through: an object there reached pygls' and
        # civrules' look-ups (TypeError: unhashable), a client's mistake reported as a bug in civrules.
        self._converter.register_structure_hook(_INTEGER_OR_STRING, _integer_or_string)
        self._converter.register_structure_hook(_OPTIONAL_INTEGER_OR_STRING, _integer_or_string_or_none)

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        if is_request and self._shutdown and method != types.EXIT:
            self.send_error(message.id, INVALID_REQUEST, f"the server is shutting down: `{method}` after `shutdown`")
            return
        if method not in (None, types.INITIALIZE, types.EXIT) and self._workspace is None and not self._shutdown:
            if is_request:
                self.send_error(message.id, SERVER_NOT_INITIALIZED, f"`{method}` before `initialize`")
            # A notification before `initialize` is dropped, as LSP says (`exit` excepted): there
            # is no workspace to open a document in yet.
            return
        unread = _unreadable_uri(getattr(message, "params", None))
        if unread is not None:
            said = f"{ticked(_shown(unread))} is no URI civrules can read (an unclosed `[` in its authority)"
            if is_request:
                self.send_error(message.id, INVALID_PARAMS, f"invalid params for `{method}`: {said}")
            else:
                self._warn_once(
                    ("uri", method or ""), f"civrules: ignored `{method}`: {said}; further such are ignored silently"
                )
            return
        if isinstance(method, str) and method.startswith("notebookDocument/"):
            # The server offers no notebook sync, yet pygls kept every cell of a notebook a client
            # opened, none of them bounded by anything (round 33: 5,000 cells of 10 kB, all held).
            self._warn_once(
                ("notebook", ""),
                f"civrules: ignored {ticked(_shown(method))}: the server synchronises no notebooks (it offers none in "
                "its capabilities); further such are ignored silently",
            )
            return
        if method == types.TEXT_DOCUMENT_DID_CHANGE and not self._opened(message.params.text_document.uri):
            self._ignore_unopened(message.params.text_document.uri)
            return
        if method == types.TEXT_DOCUMENT_DID_CHANGE and not self._in_step(message.params):
            return
        if method == types.TEXT_DOCUMENT_DID_OPEN:
            self._reopened(message.params.text_document)
        self.handling = method
        try:
            super().handle_message(message)
        finally:
            self.handling = None

    def _opened(self, uri: str) -> bool:
        return self._workspace is not None and unquote(uri) in self._workspace.text_documents

    def _ignore_unopened(self, uri: str) -> None:
        """A change to a document never opened has nothing to apply to: ignored, and said once."""
        if self._told_unopened:
            return
        self._told_unopened = True
        shown = _shown(uri)
        self.notify(
            types.WINDOW_LOG_MESSAGE,
            types.LogMessageParams(
                type=types.MessageType.Warning,
                message=f"civrules: ignored a change to {ticked(shown)}, which was not opened (`textDocument/didOpen` "
                "comes first); further such changes are ignored silently",
            ),
        )

    def _in_step(self, params: types.DidChangeTextDocumentParams) -> bool:
        """Whether the change ``params`` applies to the open buffer; if so, its content changes are
        made one whole text (what pygls, under Full sync, applies as it is).

        pygls applied a ranged change's text as the whole document: the server validated a
        fragment as the file (S005 at 0:0) until the editor next sent the whole text.
        """
        from civrules.lsp.positions import edited, encoding_of

        assert self._workspace is not None
        uri = unquote(params.text_document.uri)
        document = self._workspace.text_documents[uri]
        version = params.text_document.version
        if document.version is not None and version <= document.version:
            self._warn_once(
                ("version", uri),
                f"civrules: ignored a change to {ticked(_shown(uri))} numbered {version}, not after the version "
                f"{document.version} it has (versions only increase): it is an older text, and the buffer "
                "stays as it was; further such changes to it are ignored silently",
            )
            return False
        encoding = encoding_of(self._workspace.position_encoding)
        text: str | None = document.source if uri not in self._out_of_step else None
        work = 0
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                if text is not None:
                    work += len(text) + 1
                    text = edited(text, change.range, change.text, encoding) if work <= MAX_RANGED_WORK else None
            else:
                text = change.text
        if text is None:
            if uri not in self._out_of_step:
                self._out_of_step.add(uri)
                why = (
                    f"one of {len(params.content_changes):,} ranged changes, more than the server applies in one "
                    "message"
                    if work > MAX_RANGED_WORK
                    else "a ranged change whose range is not in the buffer the server has"
                )
                self.notify(
                    types.WINDOW_LOG_MESSAGE,
                    types.LogMessageParams(
                        type=types.MessageType.Warning,
                        message=f"civrules: ignored {why} to {ticked(_shown(uri))} "
                        "(the server asks for whole texts: Full sync); the buffer "
                        "stays as it was, and ranged changes to it are ignored until the editor sends its "
                        "whole text (save, or reopen the file)",
                    ),
                )
            return False
        self._out_of_step.discard(uri)
        params.content_changes = [types.TextDocumentContentChangeWholeDocument(text=text)]
        return True

    def _reopened(self, item: types.TextDocumentItem) -> None:
        """A ``didOpen`` of a document already open: its text is the editor's whole buffer, taken
        (pygls replaces the document, version and all); said once a document."""
        uri = unquote(item.uri)
        self._out_of_step.discard(uri)
        if self._workspace is None or uri not in self._workspace.text_documents:
            return
        self._warn_once(
            ("open", uri),
            f"civrules: {ticked(_shown(uri))} was opened again without being closed (`textDocument/didClose` comes "
            "between): its buffer is read from the second open",
        )

    def left_behind(self, uri: str) -> None:
        """The buffer of ``uri`` (unquoted) is not the client's text (the server dropped it): a
        ranged change is refused until the whole text comes again."""
        self._out_of_step.add(uri)

    def _warn_once(self, key: tuple[str, str], message: str) -> None:
        if key in self._warned:
            return
        self._warned.add(key)
        self.notify(types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=types.MessageType.Warning, message=message))

    def handle_body(self, body: bytes) -> None:
        """Parse one message's body and handle it, answering what cannot be handled."""
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            said = str(error) if not isinstance(error, RecursionError) else "nested too deep"
            self.send_error(None, PARSE_ERROR, f"the message is not JSON: {said[:200]}")
            return
        if isinstance(data, list):
            # JSON-RPC's batches: LSP never sends one. Each element is answered as not handled.
            ids = [e.get("id") for e in data if isinstance(e, dict) and _valid_id(e.get("id"))]
            why = "a batch (a JSON array) is not a message LSP sends: send each message on its own"
            for msg_id in ids or [None]:
                self.send_error(msg_id, INVALID_REQUEST, why)
            return
        problem = _envelope_problem(data)
        if problem is not None:
            msg_id = data.get("id") if isinstance(data, dict) and _valid_id(data.get("id")) else None
            self.send_error(msg_id, INVALID_REQUEST, problem)
            return
        method = data.get("method")
        is_request = "id" in data and method is not None
        try:
            message = self._structure(data)
        except Exception as error:  # noqa: BLE001 - any shape cattrs refuses is the sender's
            said = _first_error(error)
            if is_request:
                self.send_error(data["id"], INVALID_PARAMS, f"invalid params for `{method}`: {said}")
            else:
                logger.warning("ignored `%s`: invalid params (%s)", method or "a response", said)
            return
        try:
            self.handle_message(message)
        except SystemExit:
            raise
        except Exception as error:  # noqa: BLE001 - the last line of defence: answered, never a traceback
            said = f"{type(error).__name__}: {error}"
            logger.error("internal error handling `%s` (%s)", method, said)
            if is_request:
                self.send_error(data["id"], INTERNAL_ERROR, f"internal error ({said[:200]})")

    def _structure(self, data: dict[str, Any]) -> Any:
        """The message as pygls' types (as its ``structure_message``, without its traceback log)."""
        if "method" in data:
            wanted = self.get_message_type(data["method"])
            if wanted is None:
                from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage

                wanted = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
                data = {"params": None, **data}
            return self._converter.structure(data, wanted)
        if "error" in data:
            return self._converter.structure(data, types.ResponseErrorMessage)
        from pygls.protocol.json_rpc import JsonRPCResponseMessage

        wanted = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        return self._converter.structure({"result": None, **data}, wanted)


logger = logging.getLogger("civrules.lsp")


def _unreadable_uri(params: Any) -> str | None:
    """The first URI of ``params`` (a document's, the workspace's root or folders', a watched
    file's) that :func:`urllib.parse.urlsplit` refuses, or None.

    pygls and civrules split every URI they are given; one that cannot be split (``http://[x/a``:
    ValueError "Invalid IPv6 URL") made `initialize` an internal error, leaving no session, and a
    `didOpen` or a hover a bug reported to the user: it is the client's, refused at the door.
    """
    if params is None:
        return None
    uris: list[Any] = [getattr(getattr(params, "text_document", None), "uri", None), getattr(params, "root_uri", None)]
    uris += [folder.uri for folder in getattr(params, "workspace_folders", None) or ()]
    event = getattr(params, "event", None)
    uris += [folder.uri for folder in (getattr(event, "added", None) or ()) + (getattr(event, "removed", None) or ())]
    uris += [change.uri for change in getattr(params, "changes", None) or () if hasattr(change, "uri")]
    for uri in uris:
        if isinstance(uri, str):
            try:
                urlsplit(uri)
            except ValueError:
                return uri
    return None


def _one_line(message: str) -> str:
    """An error's message as an answer carries it: one escaped line, bounded. It may quote what the
    client sent (a method's name after `shutdown` or before `initialize`), which came back whole:
    100,000 characters of a method named so were answered with 100,000 more."""
    return plain(" ".join(message.split())[:300])


def _shown(uri: str) -> str:
    """A URI as a log line shows it: one escaped line, bounded, its invisible characters (a zero
    width space making it look like another's) escaped as a quoted source line's are."""
    return printable(" ".join(uri.split())[:200])


#: A URI as a message quotes it (public: the server says the same of a document it drops).
shown_uri = _shown


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


#: LSP's `integer | string` as lsprotocol annotates it: ``typing.Union``, the key its converter's
#: hooks are registered under.
_INTEGER_OR_STRING = Union[int, str]  # noqa: UP007
_OPTIONAL_INTEGER_OR_STRING = Optional[Union[int, str]]  # noqa: UP007, UP045


def _integer_or_string(value: Any, _type: Any) -> int | str:
    """``value`` where LSP says `integer | string`; a TypeError (invalid params) for any other."""
    if not _valid_id(value):
        raise TypeError(f"expected an integer or a string, not {type(value).__name__}")
    return value  # type: ignore[no-any-return]


def _integer_or_string_or_none(value: Any, _type: Any) -> int | str | None:
    """``value`` where LSP says `integer | string`, or an optional one left out (null)."""
    return None if value is None else _integer_or_string(value, _type)


def _envelope_problem(data: Any) -> str | None:
    """Why ``data`` is no JSON-RPC 2.0 request, notification or response, or None."""
    if not isinstance(data, dict):
        return f"a message is a JSON object, not {type(data).__name__}"
    if data.get("jsonrpc") != "2.0":
        return 'a message says `"jsonrpc": "2.0"`'
    if "id" in data and not _valid_id(data["id"]):
        return "a message's id is a number or a string"
    if "method" in data:
        if not isinstance(data["method"], str):
            return "a message's method is a string"
        return None
    if "id" not in data or ("result" not in data and "error" not in data):
        return "a message is a request, a notification or a response"
    return None


def _first_error(error: BaseException) -> str:
    """Where the params do not fit, as cattrs says it (``required field missing @ $.params.position``)."""
    try:
        import cattrs

        said = "; ".join(cattrs.transform_error(error, format_exception=_said_of_value))
    except Exception:  # noqa: BLE001 - not one of cattrs' errors
        said = f"{type(error).__name__}: {error}"
    return " ".join(said.split())[:300]


def _said_of_value(error: BaseException, wanted: Any) -> str:
    """cattrs' words for a value that does not fit, with LSP's name for `integer | string` (cattrs
    says "expected Union")."""
    from cattrs.v import format_exception

    if wanted in (_INTEGER_OR_STRING, _OPTIONAL_INTEGER_OR_STRING):
        return "invalid value, expected an integer or a string"
    return format_exception(error, wanted)


class OneLine(logging.Handler):
    """Writes a log record's first line, escaped, to standard error: never a traceback."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        super().__init__(logging.WARNING)
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and isinstance(record.exc_info[1], JsonRpcException):
            return  # an answer the server gave on purpose (a rename refused): the client has it
        try:
            first = record.getMessage().split("\n", 1)[0]
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is dropped
            return
        stream = self.stream or sys.stderr
        try:
            stream.write(f"civrules lsp: {record.levelname.lower()}: {plain(first)[:500]}\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def quiet_logs() -> None:
    """pygls' and civrules' log records as one line each, without tracebacks (standard error)."""
    for name in ("pygls", "civrules.lsp"):
        log = logging.getLogger(name)
        log.handlers = [OneLine()]
        log.propagate = False


def serve_stream(
    protocol: CivrulesProtocol,
    stdin: IO[bytes],
    stdout: BinaryIO,
    max_message: int,
    on_start: Callable[[], None] | None = None,
) -> int:
    """Serve until the client exits or the input ends; returns the exit code (0 after `shutdown`)."""
    from pygls.io_ import StdoutWriter

    protocol.set_writer(StdoutWriter(stdout))
    reader = FrameReader(FdStream(stdin.fileno()), max_message)
    return asyncio.run(_serve(protocol, reader, on_start))


async def _serve(protocol: CivrulesProtocol, reader: FrameReader, on_start: Callable[[], None] | None) -> int:
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[Frame | None] = asyncio.Queue()
    # The reader runs ahead of the handlers by a few messages at most: enough for the handlers to
    # see that changes are queued, not a whole stream held in memory.
    room = threading.Semaphore(8)

    def read() -> None:
        while True:
            room.acquire()
            try:
                frame = reader.read()
            except (OSError, ValueError):
                frame = None
            try:
                loop.call_soon_threadsafe(frames.put_nowait, frame)
            except RuntimeError:  # the loop is closed: the server was stopped (Ctrl-C, SIGTERM) as it read
                return
            if frame is None:
                return

    threading.Thread(target=read, name="civrules-lsp-reader", daemon=True).start()
    if on_start is not None:
        on_start()
    while True:
        frame = await frames.get()
        room.release()
        if frame is None:
            # The input ended: as `exit` would have, 0 after `shutdown`, else 1.
            return 0 if protocol._shutdown else 1
        try:
            if frame.error is not None:
                protocol.send_error(None, PARSE_ERROR, frame.error)
            else:
                protocol.handle_body(frame.body)
        except SystemExit as leaving:  # `exit`: pygls closes the writer and exits
            return leaving.code if isinstance(leaving.code, int) else 0
        except BrokenPipeError:
            return 1
        except JsonRpcException as error:  # pragma: no cover - handle_body answers these itself
            logger.error("%s", error)
