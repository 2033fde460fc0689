"""Issue 27, point 4: the language server follows JSON-RPC whatever arrives on its input.

Each malformed message of the trial (a huge, negative, non-numeric or short `Content-Length`, a
body that is not JSON or is a batch, params that do not fit, a request after `shutdown`, a
completion past the end of a document, a `%00` in a URI) is sent to `civrules lsp` in a
subprocess; each gets the error response the specification names, or none where it names none, and
after each the server still answers a request. Nothing it writes carries a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pytest

from tests.conftest import copy_files

if TYPE_CHECKING:
    from civrules.lsp.transport import Frame

# civrules.lsp.transport is imported by the tests that use it, not here: it imports lsprotocol
# (about 0.4 s of CPU), which every pytest worker would pay when it collects this module.

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"
#: Generous: every answer comes in well under a second; this only keeps a broken server from hanging.
HANG_GUARD = 60.0
CARDS = "cards/advanced-civilization.yaml"
KEEP = (
    "rulesets/advanced-civilization.yaml",
    CARDS,
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "rulebooks/advanced-civilization.yaml",
)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


class RawClient:
    """`civrules lsp` in a subprocess, written to byte for byte, its messages read back whole."""

    def __init__(self, rules: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(rules), "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        self.next_id = 1000

    def _read(self, stream: IO[bytes] | None) -> None:
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.messages.put(json.loads(stream.read(length)))

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def answer(self, msg_id: int | str | None) -> dict[str, Any]:
        """The next response with ``msg_id`` (notifications and other answers are passed over)."""
        while True:
            try:
                message = self.messages.get(timeout=HANG_GUARD)
            except queue.Empty:
                self.process.kill()
                raise AssertionError(f"no answer to {msg_id!r} from civrules lsp") from None
            if "method" not in message and message.get("id") == msg_id:
                return message

    def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.answer(self.next_id)

    def alive(self, uri: str) -> None:
        """The server still answers: a hover on the cards file comes back without an error."""
        answer = self.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": HOVER_AT})
        assert "error" not in answer, answer

    def finish(self) -> tuple[int, str]:
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.close()
        code = self.process.wait(timeout=HANG_GUARD)
        assert self.process.stderr is not None
        return code, self.process.stderr.read().decode("utf-8", "replace")


HOVER_AT = {"line": 3, "character": 6}


@pytest.fixture
def client(rules: Path) -> Iterator[RawClient]:
    started = RawClient(rules)
    yield started
    if started.process.poll() is None:
        started.process.kill()


def _error(answer: dict[str, Any], code: int) -> str:
    assert "result" not in answer and answer["error"]["code"] == code, answer
    assert "data" not in answer["error"], answer  # no traceback travels in `data`
    message: str = answer["error"]["message"]
    assert "Traceback" not in message and "site-packages" not in message and "\n" not in message
    return message


def test_every_malformed_message_is_answered_and_the_server_keeps_answering(client: RawClient, rules: Path) -> None:
    from civrules.lsp.transport import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR

    uri = (rules / CARDS).absolute().as_uri()
    # Before `initialize`: ServerNotInitialized, as LSP says.
    _error(client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": HOVER_AT}), -32002)
    client.request("initialize", {"processId": None, "rootUri": rules.parent.absolute().as_uri(), "capabilities": {}})
    client.send({"method": "initialized", "params": {}})
    client.alive(uri)

    framing = [
        # A Content-Length far beyond any message (pygls read it into memory: MemoryError).
        b"Content-Length: 99999999999999999999\r\n\r\n{}",
        b"Content-Length: 9999999999\r\n\r\n{}",
        # Negative and non-numeric ones (pygls never answered again).
        b"Content-Length: -5\r\n\r\n{}",
        b"Content-Length: twelve\r\n\r\n{}",
        b"Content-Length: 0x10\r\n\r\n{}",
        # No Content-Length at all; a header line that is none.
        b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}",
        b"this is not a header\r\n\r\n",
        # A short one: the rest of the body runs into the next message's header.
        b'Content-Length: 10\r\n\r\n{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover"}',
        # A body that is not JSON, not UTF-8, or nested beyond any parser's stack.
        b"Content-Length: 5\r\n\r\nhello",
        b"Content-Length: 3\r\n\r\n\xff\xfe\xfd",
        b"Content-Length: 200000\r\n\r\n" + b"[" * 100_000 + b"]" * 100_000,
    ]
    for data in framing:
        client.write(data)
        message = _error(client.answer(None), PARSE_ERROR)
        assert message, data
        client.alive(uri)

    # JSON that is no message: a batch (LSP sends none), a number, a wrong version, an id of the wrong type.
    hover = {"textDocument": {"uri": uri}, "position": HOVER_AT}
    batch = json.dumps([{"jsonrpc": "2.0", "id": 77, "method": "textDocument/hover", "params": hover}]).encode()
    client.write(b"Content-Length: %d\r\n\r\n" % len(batch) + batch)
    assert "batch" in _error(client.answer(77), INVALID_REQUEST)
    for body in (b"[]", b"42", b'{"jsonrpc": "1.0", "id": 78, "method": "x"}', b'{"jsonrpc": "2.0", "id": 1.5}'):
        client.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        _error(client.answer(78 if b"78" in body else None), INVALID_REQUEST)
        client.alive(uri)

    # Params that do not fit the method: InvalidParams, with the request's id.
    for params in (
        None,
        {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
        {"textDocument": {"uri": uri}, "position": {"line": "three", "character": 0}},
        {"textDocument": {"uri": uri}},
        [1, 2],
    ):
        _error(client.request("textDocument/hover", params), INVALID_PARAMS)
        client.alive(uri)
    # An unknown method: MethodNotFound; an unknown notification: nothing.
    _error(client.request("civrules/nothing", {}), -32601)
    client.send({"method": "civrules/nothing", "params": None})
    client.send({"method": "textDocument/didOpen", "params": None})
    client.alive(uri)

    # Requests the server cannot serve from a file: answered, without an error.
    for params in (
        {"textDocument": {"uri": uri}, "position": {"line": 100_000, "character": 5}},  # past the end
        {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 100_000}},
        {"textDocument": {"uri": (rules / "cards" / "x%00.yaml").as_uri()}, "position": HOVER_AT},
        {"textDocument": {"uri": rules.as_uri() + "/cards/x%00.yaml"}, "position": HOVER_AT},
        {"textDocument": {"uri": "file:///%00"}, "position": HOVER_AT},
        {"textDocument": {"uri": "not a uri"}, "position": HOVER_AT},
    ):
        for method in ("textDocument/completion", "textDocument/hover", "textDocument/definition"):
            answer = client.request(method, params)
            assert "error" not in answer, (method, params, answer)

    # After `shutdown`: every request is InvalidRequest; `exit` then ends the process with 0.
    assert "error" not in client.request("shutdown", None)
    assert "shutting down" in _error(client.request("textDocument/hover", hover), INVALID_REQUEST)
    client.send({"method": "exit", "params": None})
    code, stderr = client.finish()
    assert code == 0
    assert "Traceback" not in stderr and "site-packages" not in stderr, stderr


def test_exit_without_shutdown_is_exit_1_and_the_end_of_input_ends_the_server(rules: Path) -> None:
    client = RawClient(rules)
    try:
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.send({"method": "exit", "params": None})
        code, stderr = client.finish()
        assert code == 1 and "Traceback" not in stderr
    finally:
        client.process.kill()
    client = RawClient(rules)
    try:
        client.write(b"Content-Length: 50\r\n\r\n{")  # the input ends inside a body
        code, stderr = client.finish()
        assert code == 1 and "Traceback" not in stderr
    finally:
        client.process.kill()


# --- the frame reader, in process ---------------------------------------------------------------


def _frames(data: bytes, max_message: int = 1000) -> list[Frame]:
    from civrules.lsp.transport import FrameReader

    reader = FrameReader(io.BytesIO(data), max_message)
    found = []
    while (frame := reader.read()) is not None:
        found.append(frame)
    return found


def test_the_reader_bounds_what_it_reads_and_finds_the_next_message() -> None:
    good = b"Content-Length: 2\r\n\r\n{}"
    frames = _frames(b"Content-Length: 5000\r\n\r\n" + b"x" * 5000 + good)
    assert [f.error is not None for f in frames] == [True, False] and frames[1].body == b"{}"
    assert "larger than the 1,000 bytes" in (frames[0].error or "")
    # A header line longer than any header: refused in bounded pieces, the next message found.
    frames = _frames(b"X" * 100_000 + b"\r\n\r\n" + good)
    assert frames[-1].body == b"{}" and all(f.error for f in frames[:-1])
    # Blank lines between messages and a Content-Type are read over; the name is case-insensitive.
    assert [f.body for f in _frames(b"\r\n\r\ncontent-length: 2\r\nContent-Type: x\r\n\r\n{}")] == [b"{}"]


def test_the_fd_stream_reads_lines_within_a_limit(tmp_path: Path) -> None:
    from civrules.lsp.transport import FdStream

    path = tmp_path / "input"
    path.write_bytes(b"abc\ndefghij\n" + b"k" * 10)
    with path.open("rb") as handle:
        stream = FdStream(handle.fileno())
        assert stream.readline(100) == b"abc\n"
        assert stream.readline(4) == b"defg" and stream.readline(100) == b"hij\n"
        assert stream.read(4) == b"kkkk" and stream.read(100) == b"k" * 6 and stream.read(1) == b""


def test_codes_are_the_specifications() -> None:
    from civrules.lsp.transport import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, SERVER_NOT_INITIALIZED

    assert (PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, SERVER_NOT_INITIALIZED) == (-32700, -32600, -32602, -32002)
