"""`civrules lsp` as an editor starts it: a subprocess spoken to in JSON-RPC over stdio."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.incremental import Session
from civrules.lsp.index import Index, code_at, explain, schema_keys, suggestion, yaml_key_path
from civrules.schema import load_schema
from tests.conftest import RULES

#: Generous: the server answers in well under a second; this only keeps a broken server from hanging.
HANG_GUARD = 60.0
KEEP = {
    "rulesets/advanced-civilization.yaml",
    "rulesets/advanced-civilization-western.yaml",
    "cards/advanced-civilization.yaml",
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "maps/western-panel.yaml",
    "rulebooks/advanced-civilization.yaml",
}
CARDS = "cards/advanced-civilization.yaml"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """Advanced Civilization and its western variant alone (a small tree: a fast first validation)."""
    target = tmp_path / "rules"
    for relative in KEEP:
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, target / relative)
    return target


class Client:
    """A minimal LSP client: framed JSON-RPC messages, a reader thread, requests by id."""

    def __init__(self, rules: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(rules), "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.next_id = 0
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes] | None) -> None:
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                assert "error" not in message, message
                return message.get("result")

    def receive(self) -> dict[str, Any]:
        try:
            message = self.messages.get(timeout=HANG_GUARD)
        except queue.Empty:
            self.process.kill()
            raise AssertionError(f"no answer from civrules lsp: {self.process.stderr.read()!r}") from None  # type: ignore[union-attr]
        if "method" in message and "id" not in message:
            self.notifications.append(message)
        return message

    def diagnostics_until(self, uri: str, wanted: str) -> list[dict[str, Any]]:
        """Wait for diagnostics of ``uri`` that hold the code ``wanted``."""
        for message in self.notifications:
            if _holds(message, uri, wanted):
                return list(message["params"]["diagnostics"])
        while True:
            message = self.receive()
            if _holds(message, uri, wanted):
                return list(message["params"]["diagnostics"])

    def close(self) -> int:
        self.request("shutdown", {})
        self.notify("exit", {})
        try:
            return self.process.wait(timeout=HANG_GUARD)
        finally:
            self.process.kill()


def _holds(message: dict[str, Any], uri: str, code: str) -> bool:
    return (
        message.get("method") == "textDocument/publishDiagnostics"
        and message["params"]["uri"] == uri
        and any(d.get("code") == code for d in message["params"]["diagnostics"])
    )


@pytest.fixture
def client(rules: Path) -> Iterator[Client]:
    started = Client(rules)
    yield started
    if started.process.poll() is None:
        started.process.kill()


def position(text: str, needle: str, offset: int = 0) -> dict[str, int]:
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def test_the_server_answers_an_editor_session(client: Client, rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    initialized = client.request(
        "initialize", {"processId": None, "rootUri": rules.parent.absolute().as_uri(), "capabilities": {}}
    )
    capabilities = initialized["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["definitionProvider"] and capabilities["referencesProvider"]
    assert "completionProvider" in capabilities and "codeActionProvider" in capabilities
    client.notify("initialized", {})
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
    )

    # A typo: the same diagnostic as `civrules validate`, with its did-you-mean as a quick fix.
    typo = text.replace("    cost: 45\n", "    cots: 45\n", 1)
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typo}]},
    )
    found = [d for d in client.diagnostics_until(uri, "S002") if d["code"] == "S002"]
    assert len(found) == 1
    assert found[0]["range"]["start"] == position(typo, "cots: 45")
    assert found[0]["message"] == "unknown key `cots` in `cards[0]`\nhint: did you mean `cost`?"
    assert found[0]["severity"] == 1 and found[0]["source"] == "civrules"
    actions = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": found[0]["range"], "context": {"diagnostics": found}},
    )
    assert actions[0]["edit"]["changes"][uri][0]["newText"] == "cost"

    # Hover on a diagnostic explains its code; on an id, describes the entity.
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(typo, "cots")})
    assert "S002" in hover["contents"]["value"] and "What:" in hover["contents"]["value"]
    at_group = position(typo, "groups: [crafts]", len("groups: [c"))
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at_group})
    assert "**Crafts** — card group `crafts`" in hover["contents"]["value"]

    # Definition of a credit's target card: the card's `id`.
    credit = position(typo, "{card: democracy", len("{card: d"))
    locations = client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": credit})
    assert [loc["uri"] for loc in locations] == [uri]
    assert locations[0]["range"]["start"] == position(typo, "id: democracy", len("id: "))
    references = client.request(
        "textDocument/references",
        {"textDocument": {"uri": uri}, "position": credit, "context": {"includeDeclaration": True}},
    )
    assert len(references) > 3

    # Completion: keys of a card from the schema, ids in a value.
    lines = typo.splitlines()
    at_key = {"line": lines.index("    cots: 45"), "character": 4}
    completion = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at_key})
    labels = {item["label"] for item in completion["items"]}
    assert {"cost", "credits", "prerequisites"} <= labels
    in_value = position(typo, "groups: [crafts]", len("groups: ["))
    completion = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": in_value})
    labels = {item["label"] for item in completion["items"]}
    assert {"crafts", "pottery", "famine"} <= labels

    assert client.close() == 0


# --- the index, in process ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    target = tmp_path_factory.mktemp("index") / "rules"
    for relative in KEEP:
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, target / relative)
    return Index(Session(target).update())


def test_an_overlay_target_goes_to_its_definition_through_extends(index: Index) -> None:
    variant = "rulesets/advanced-civilization-western.yaml"
    text = (RULES / variant).read_text(encoding="utf-8")
    at = position(text, "- id: africa", len("- id: a"))
    symbol = index.at(variant, at["line"] + 1, at["character"] + 1)
    assert symbol is not None and symbol.collection == "nations" and not symbol.definition
    (definition,) = index.definitions(symbol)
    assert definition.relative == "rulesets/advanced-civilization.yaml"
    assert "Africa" in index.describe(symbol)


def test_a_border_names_its_areas(index: Index) -> None:
    symbols = [s for s in index.by_file["maps/mediterranean.yaml"] if s.path[:1] == ("borders",)]
    assert symbols and all(s.collection == "areas" for s in symbols)
    (definition,) = index.definitions(symbols[0])
    assert definition.definition and definition.path[0] == "areas"


def test_keys_at_a_position_follow_indentation() -> None:
    lines = ["kind: civilization_cards", "cards:", "  - id: pottery", "    cost: 45", "    "]
    assert yaml_key_path(lines, 5, 5) == (["cards"], False)
    assert yaml_key_path(lines, 4, 11) == (["cards", "cost"], True)
    properties, _ = schema_keys(load_schema("civilization_cards"), ["cards"])
    assert {"cost", "credits", "groups"} <= set(properties)
    _, values = schema_keys(load_schema("civilization_cards"), ["groups", "colour"])
    assert "orange" in values


def test_a_did_you_mean_carries_its_suggestion(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    for relative in KEEP:
        (rules / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, rules / relative)
    session = Session(rules)
    text = (rules / CARDS).read_text(encoding="utf-8")
    session.set_text(CARDS, text.replace("cost: 45", "cots: 45", 1).replace("colour: blue", "colour: blu", 1))
    found = {d.code: d for d in session.update().diagnostics if d.code in ("S002", "S003")}
    assert suggestion(found["S002"]) == "cost" and suggestion(found["S003"]) == "blue"
    session.set_text(CARDS, text.replace("{card: democracy,", "{card: democrazy,", 1))
    (reference,) = [d for d in session.update().diagnostics if d.code == "X001"]
    assert suggestion(reference) == "democracy"
    span = Span("f.yaml", 1, 1, 1, 5)
    assert suggestion(Diagnostic("C005", Severity.ERROR, "m", span, "did you mean a credit from `a` to `b`?")) is None


def test_a_code_in_a_suppression_comment_is_explained() -> None:
    line = "  - id: famine  # civrules: ignore[I001] kept while the variant is drafted"
    column = line.index("I001") + 2
    assert code_at(line, column) == "I001"
    assert "I001" in explain("I001")
    assert code_at(line, line.index("famine") + 1) is None
    assert code_at("note: Z999 is not a code", 8) is None
