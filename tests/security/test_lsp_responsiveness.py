"""Issue 27, point 5: the language server stays responsive under ordinary editor traffic.

The trial's examples: every change was validated in full before the next message was read, so
2,000 keystroke changes took 110 s, and with 200 open variant buffers a hover was not answered
within 3 minutes. Now changes coalesce (a run starts after a quiet moment, and a change during a
run supersedes it, unpublished) and requests are answered between runs (a request that reads
positions in a buffer changed since the last run first has the pending run done, once for every
change queued before it). These tests hold the behaviour, never a time: `make bench` measures the
times (bench/run.py, `lsp`).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from civrules.pipeline.incremental import Result
from tests.conftest import copy_files

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"
HANG_GUARD = 60.0
CARDS = "cards/advanced-civilization.yaml"
#: The line (0-based) of `id: advanced-civilization` in its manifest.
MANIFEST_ID_LINE = (
    (RULES / "rulesets/advanced-civilization.yaml")
    .read_text(encoding="utf-8")
    .split("\n")
    .index("id: advanced-civilization")
)
KEEP = (
    "rulesets/advanced-civilization.yaml",
    "rulesets/advanced-civilization-western.yaml",
    CARDS,
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "maps/western-panel.yaml",
    "rulebooks/advanced-civilization.yaml",
)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


class Editor:
    """The server's own protocol fed the JSON an editor sends; its answers read back as JSON."""

    def __init__(self, rules: Path) -> None:
        # Imported here, not at the top: civrules.lsp imports lsprotocol (about 0.4 s of CPU),
        # which every pytest worker would pay when it collects this module.
        from civrules.lsp.server import create_server
        from civrules.lsp.transport import CivrulesProtocol

        self.server = create_server(rules)
        assert isinstance(self.server.protocol, CivrulesProtocol)
        self.protocol = self.server.protocol
        self.protocol.set_writer(self, include_headers=False)
        self.sent: list[dict[str, Any]] = []
        self.next_id = 0

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data))

    def close(self) -> None:
        """A writer's method; nothing to release."""

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.protocol.handle_body(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def request(self, method: str, params: dict[str, Any]) -> Any:
        """Answered at once, in the handling of the request (not after a validation)."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.protocol.handle_body(json.dumps(message).encode())
        (answer,) = [m for m in self.sent if m.get("id") == self.next_id and "method" not in m]
        assert "error" not in answer, answer
        return answer.get("result")

    def published(self, uri: str) -> list[list[dict[str, Any]]]:
        return [
            m["params"]["diagnostics"]
            for m in self.sent
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        ]

    async def settle(self) -> None:
        await asyncio.wait_for(asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()})), HANG_GUARD)

    async def start(self, rules: Path) -> None:
        self.request("initialize", {"processId": None, "rootUri": rules.parent.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        await self.settle()


def change(editor: Editor, uri: str, version: int, text: str) -> None:
    editor.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )


def unknown_keys(diagnostics: list[dict[str, Any]]) -> list[str]:
    return sorted(d["message"].split("`")[1] for d in diagnostics if d["code"] == "S002")


def test_a_run_superseded_by_a_change_is_not_published(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    first = text.replace("    cost: 45\n", "    cots: 45\n", 1)
    second = text.replace("    cost: 45\n", "    cotz: 45\n", 1)

    async def session() -> None:
        editor = Editor(rules)
        await editor.start(rules)
        editor.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        await editor.settle()
        session = editor.server.session
        assert session is not None
        real_steps = session.steps
        started: list[int] = []

        def steps(*args: Any) -> Iterator[Result | None]:
            """A run that, after its first step, sees the editor send another change (as if typed then)."""
            started.append(editor.server.generation)
            for number, step in enumerate(real_steps(*args)):
                yield step
                if len(started) == 1 and number == 0:
                    change(editor, uri, 3, second)

        monkeypatch.setattr(session, "steps", steps)
        before = editor.server.superseded
        change(editor, uri, 2, first)
        await editor.settle()
        assert editor.server.superseded == before + 1 and len(started) == 2
        published = editor.published(uri)
        assert all("cots" not in unknown_keys(p) for p in published)  # the superseded run's finding
        assert unknown_keys(published[-1]) == ["cotz"]

    asyncio.run(session())


def test_a_hover_is_answered_while_changes_queue(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")

    async def session() -> None:
        editor = Editor(rules)
        await editor.start(rules)
        editor.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        await editor.settle()
        runs = editor.server.runs
        published = len(editor.published(uri))
        # 200 keystrokes, then hovers, all before the server's loop gets a turn (as queued input).
        for version in range(2, 202):
            typed = text.replace("    cost: 45\n", f"    cost{version}: 45\n", 1)
            change(editor, uri, version, typed)
        at = text.index("id: pottery") + len("id: p")
        position = {"line": text.count("\n", 0, at), "character": at - text.rfind("\n", 0, at) - 1}
        # A hover of another file than the one typed in: answered from the last result at once (no
        # position it reads moved).
        manifest = (rules / "rulesets/advanced-civilization.yaml").absolute().as_uri()
        at_id = {"line": MANIFEST_ID_LINE, "character": len("id: a")}
        assert editor.request("textDocument/hover", {"textDocument": {"uri": manifest}, "position": at_id})
        assert editor.server.runs == runs and len(editor.published(uri)) == published
        # A hover of the file typed in is answered for its text as the last change left it (LSP's
        # order; round 19): the 200 changes are validated once, for it, and published.
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
        assert "pottery" in hover["contents"]["value"]
        assert editor.server.runs == runs + 1
        assert unknown_keys(editor.published(uri)[-1]) == ["cost201"]
        await editor.settle()
        assert editor.server.runs == runs + 1  # the 200 changes and the hover were one run
        assert unknown_keys(editor.published(uri)[-1]) == ["cost201"]

    asyncio.run(session())


def test_a_server_fed_keystrokes_in_a_pipe_answers_and_settles_on_the_last(rules: Path) -> None:
    """The same through stdin: 300 changes and a hover written at once; all answered, the last
    diagnostics those of the last change."""
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    messages: list[dict[str, Any]] = [
        {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        },
    ]
    for version in range(2, 302):
        typed = text.replace("    cost: 45\n", f"    cost{version}: 45\n", 1)
        messages.append(
            {
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": typed}]},
            }
        )
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
    messages.append({"id": 2, "method": "textDocument/hover", "params": hover})
    data = b""
    for message in messages:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        data += b"Content-Length: %d\r\n\r\n" % len(body) + body
    process = subprocess.Popen(
        [sys.executable, "-m", "civrules", "--rules", str(rules), "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(data)
        process.stdin.flush()
        answered: set[int] = set()
        last: list[dict[str, Any]] = []
        while "cost301" not in unknown_keys(last) or answered != {1, 2}:
            length = 0
            while (header := process.stdout.readline()) not in (b"\r\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            assert header, process.stderr.read() if process.stderr else ""
            message = json.loads(process.stdout.read(length))
            if "id" in message and "method" not in message:
                assert "error" not in message, message
                answered.add(message["id"])
            elif message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                last = message["params"]["diagnostics"]
    finally:
        process.kill()
        process.wait(timeout=HANG_GUARD)
