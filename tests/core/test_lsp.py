"""`civrules lsp` as an editor starts it: a subprocess spoken to in JSON-RPC over stdio."""

from __future__ import annotations

import asyncio
import doctest
import json
import queue
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.load.lines import split_lines
from civrules.lsp.index import Index, Symbol, code_at, explain, schema_keys, suggestion, yaml_key_path
from civrules.pipeline.incremental import Session
from civrules.schema import load_schema
from tests.budget import heavy
from tests.conftest import RULES, copy_files

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
    return copy_files(tmp_path / "rules", KEEP)


class Client:
    """A minimal LSP client: framed JSON-RPC messages, a reader thread, requests by id."""

    def __init__(self, rules: Path, *options: str) -> None:
        """The server of ``rules``, started with the global ``options`` too (`--max-diagnostics 1`)."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "civrules", *options, "--rules", str(rules), "lsp"],
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


def position(text: str, needle: str, offset: int = 0, encoding: str = "utf-16") -> dict[str, int]:
    """Where an editor places ``needle`` (plus ``offset`` code points): its line and, counted in
    ``encoding``'s code units (UTF-16 unless negotiated otherwise), its character."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    before = text[text.rfind("\n", 0, index) + 1 : index]
    codec, width = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}[encoding]
    return {"line": line, "character": len(before.encode(codec)) // width}


def test_the_server_answers_an_editor_session(client: Client, rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    initialized = client.request(
        "initialize", {"processId": None, "rootUri": rules.parent.absolute().as_uri(), "capabilities": {}}
    )
    capabilities = initialized["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["definitionProvider"] and capabilities["referencesProvider"]
    assert "completionProvider" in capabilities and "codeActionProvider" in capabilities
    assert capabilities["documentSymbolProvider"]
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

    # Completion: keys of a card from the schema; in a value, the ids of the collection the schema
    # says it refers to (a card's groups: groups, not cards or calamities).
    lines = typo.splitlines()
    at_key = {"line": lines.index("    cots: 45"), "character": 4}
    completion = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at_key})
    labels = {item["label"] for item in completion["items"]}
    assert {"cost", "credits", "prerequisites"} <= labels
    in_value = position(typo, "groups: [crafts]", len("groups: ["))
    completion = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": in_value})
    labels = {item["label"] for item in completion["items"]}
    assert {"crafts", "sciences"} <= labels and not {"pottery", "famine"} & labels

    # The outline, flat (this client declares no hierarchy): each card named with its collection.
    outline = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    (pottery,) = [entry for entry in outline if entry["name"] == "pottery"]
    assert pottery["containerName"] == "cards" and pottery["location"]["uri"] == uri
    assert pottery["location"]["range"]["start"] == position(typo, "- id: pottery", len("- "))
    assert all("children" not in entry for entry in outline)

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


def test_keys_in_nested_flow_mappings_are_read_outermost_first() -> None:
    """A technology's `unlocks: {units: [{type: ` is the unit type being written (Sid Meier's
    technologies, one flow mapping a line): the keys of every flow mapping still open, not the
    first one a search met."""
    head = ["technologies:"]
    line = '  - {id: x, name: "a: b, {c", unlocks: {units: [{type: '
    assert yaml_key_path([*head, line], 2, len(line) + 1) == (["technologies", "unlocks", "units", "type"], True)
    closed = "  - {id: x, unlocks: {units: [{type: a, rank: 2}], buildings: ["
    assert yaml_key_path([*head, closed], 2, len(closed) + 1) == (["technologies", "unlocks", "buildings"], True)
    at_key = "  - {id: x, unlocks: {units: [{type: a, "
    assert yaml_key_path([*head, at_key], 2, len(at_key) + 1) == (["technologies", "unlocks", "units"], False)
    quoted = "  - {note: 'it''s: {a', cost: "
    assert yaml_key_path([*head, quoted], 2, len(quoted) + 1) == (["technologies", "cost"], True)


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
    from civrules.checks.catalogue import all_checks

    all_checks()  # every check's code registered, as a session's first run registers them
    line = "  - id: famine  # civrules: ignore[I001] kept while the variant is drafted"
    column = line.index("I001") + 2
    assert code_at(line, column) == "I001"
    assert "I001" in explain("I001")
    assert code_at(line, line.index("famine") + 1) is None
    assert code_at("note: Z999 is not a code", 8) is None


# --- positions in the negotiated encoding --------------------------------------------------------

#: An emoji and a CJK extension B ideograph: one code point each for civrules, two UTF-16 code units
#: each for VS Code, four UTF-8 bytes each.
ASTRAL = "😀𠀋"


def test_columns_convert_between_code_points_and_each_encoding() -> None:
    from civrules.lsp import positions
    from civrules.lsp.positions import UTF8, UTF16, UTF32, encoding_of, from_units, to_units

    line = f'      - {{note: "{ASTRAL} Ἀθῆναι", card: monotheizm}}'
    column = line.index("monotheizm")  # 0-based, in code points
    before = line[:column]
    expected = {UTF16: len(before.encode("utf-16-le")) // 2, UTF8: len(before.encode()), UTF32: column}
    assert expected[UTF16] == column + 2 and expected[UTF8] > expected[UTF16]
    for encoding, character in expected.items():
        assert to_units(line, column, encoding) == character
        assert from_units(line, character, encoding) == column
        # Every column of the line goes there and back, the end of the line included.
        assert [from_units(line, to_units(line, c, encoding), encoding) for c in range(len(line) + 1)] == list(
            range(len(line) + 1)
        )
    # Inside a surrogate pair or a UTF-8 sequence: the character it is part of; past the end: the end.
    emoji = line.index(ASTRAL)
    assert from_units(line, to_units(line, emoji, UTF16) + 1, UTF16) == emoji
    assert from_units(line, to_units(line, emoji, UTF8) + 3, UTF8) == emoji
    assert from_units(line, 10_000, UTF16) == len(line) and from_units("abc", 9, UTF16) == 3
    # Lines as LSP counts them: a form feed or U+2028 in the text does not end one.
    assert split_lines("a\r\nb\u2028c\x0cd\re\n") == ["a", "b\u2028c\x0cd", "e", ""]
    assert encoding_of(None) == UTF16 and encoding_of("utf-8") == UTF8 and encoding_of("latin-1") == UTF16
    assert doctest.testmod(positions).failed == 0


def astral_cards(text: str) -> str:
    """The cards file with astral characters before a reference (`democracy`) and before a
    misspelt one (`"monotheizm"`, quoted), on the same lines."""
    changed = text.replace(
        '      - {card: democracy, points: 10, rule: "32.212"}\n',
        f'      - {{note: "{ASTRAL}", card: democracy, points: 10, rule: "32.212"}}\n',
        1,
    ).replace(
        '      - {card: monotheism, points: 10, rule: "32.212"}\n',
        f'      - {{note: "{ASTRAL}", card: "monotheizm", points: 10, rule: "32.212"}}\n',
        1,
    )
    assert changed.count(ASTRAL) == 2, "the cards file changed: pick other lines for this test"
    return changed


#: Where the reference on an astral line is written, and how far into that its name starts.
DEMOCRACY, AT_DEMOCRACY = f'{ASTRAL}", card: democracy', len(f'{ASTRAL}", card: ')


class Editor:
    """A client in this process: the server's own protocol fed the JSON an editor sends, its
    answers and notifications read back as JSON."""

    def __init__(self, rules: Path) -> None:
        # Imported here, not at the top: civrules.lsp.server imports lsprotocol (about 0.4 s of
        # CPU), which every pytest worker would pay when it collects this module.
        from civrules.lsp.server import create_server

        self.server = create_server(rules)
        self.server.protocol.set_writer(self, include_headers=False)
        self.sent: list[dict[str, Any]] = []
        self.next_id = 0

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data))

    def close(self) -> None:
        """What a writer must have: the server closes it at exit (nothing to release here)."""

    def _handle(self, message: dict[str, Any]) -> None:
        protocol = self.server.protocol
        protocol.handle_message(protocol.structure_message({"jsonrpc": "2.0", **message}))

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._handle({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self._handle({"id": self.next_id, "method": method, "params": params})
        (answer,) = [m for m in self.sent if m.get("id") == self.next_id and "method" not in m]
        assert "error" not in answer, answer
        return answer.get("result")

    def initialize(self, rules: Path, capabilities: dict[str, Any]) -> dict[str, Any]:
        root = rules.parent.absolute().as_uri()
        found = self.request("initialize", {"processId": None, "rootUri": root, "capabilities": capabilities})
        self.notify("initialized", {})
        return dict(found["capabilities"])

    def open(self, uri: str, text: str, version: int = 1) -> None:
        """Open ``uri`` on the buffer ``text``, as an editor does (`textDocument/didOpen`)."""
        document = {"uri": uri, "languageId": "yaml", "version": version, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": document})

    @classmethod
    async def started(cls, rules: Path, *opened: tuple[str, str]) -> Editor:
        """The set-up most sessions begin with: an editor on ``rules``, initialized with no
        capabilities, each ``(uri, text)`` of ``opened`` open on its buffer, and the validation
        the server scheduled run."""
        editor = cls(rules)
        editor.initialize(rules, {})
        for uri, text in opened:
            editor.open(uri, text)
        await editor.settle()
        return editor

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        """The diagnostics last published for ``uri``."""
        published = [
            m["params"]["diagnostics"]
            for m in self.sent
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
        ]
        assert published, f"nothing published for {uri}"
        return list(published[-1])

    async def settle(self) -> None:
        """Let the validation the server scheduled run, as it does between an editor's messages."""
        await asyncio.wait_for(asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()})), HANG_GUARD)


def test_positions_are_utf16_by_default_and_read_on_the_open_buffer(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = astral_cards((rules / CARDS).read_text(encoding="utf-8"))  # the buffer; the disk keeps ASCII lines

    async def session() -> None:
        editor = Editor(rules)
        capabilities = editor.initialize(rules, {})
        assert capabilities["positionEncoding"] == "utf-16"
        assert capabilities["textDocumentSync"]["change"] == 1  # full: no edit ranges to convert
        editor.open(uri, text)
        await editor.settle()

        # Out: the range of a diagnostic after the astral characters, in UTF-16 code units.
        (found,) = [d for d in editor.diagnostics(uri) if d["code"] == "X001"]
        start = position(text, '"monotheizm"')
        assert found["range"] == {"start": start, "end": {**start, "character": start["character"] + 12}}
        # In: the quick fix reads what is written at the range it was sent (quoted), with or
        # without the diagnostic's data; its edit is that range, untouched.
        for sent in (found, {k: v for k, v in found.items() if k != "data"}):
            (action,) = editor.request(
                "textDocument/codeAction",
                {"textDocument": {"uri": uri}, "range": found["range"], "context": {"diagnostics": [sent]}},
            )
            assert action["edit"]["changes"][uri] == [{"range": found["range"], "newText": '"monotheism"'}]

        # In: hover and definition at UTF-16 positions, at the last character of a name (counted in
        # code points, two characters further right: past it).
        at_y = position(text, DEMOCRACY, AT_DEMOCRACY + len("democrac"))
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at_y})
        assert "civilization card `democracy`" in hover["contents"]["value"]
        at_m = position(text, 'monotheizm"', len("monotheizm") - 1)
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at_m})
        assert "X001" in hover["contents"]["value"]
        definition = editor.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": at_y})
        assert [d["range"]["start"] for d in definition] == [position(text, "id: democracy", len("id: "))]

        # Out: a reference on the astral line, found from the definition.
        references = editor.request(
            "textDocument/references",
            {
                "textDocument": {"uri": uri},
                "position": position(text, "id: democracy", len("id: ")),
                "context": {"includeDeclaration": False},
            },
        )
        start = position(text, DEMOCRACY, AT_DEMOCRACY)
        assert {"uri": uri, "range": {"start": start, "end": {**start, "character": start["character"] + 9}}} in (
            references
        )

        # Out: a related location, after an edit (the whole text: the server asked for full sync).
        twice = text.replace('"monotheizm", points: 10,', '"monotheizm", points: 10, points: 10,', 1)
        editor.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": twice}]}
        )
        await editor.settle()
        (duplicate,) = [d for d in editor.diagnostics(uri) if d["code"] == "L002"]
        written = '"monotheizm", points: 10, points: 10, rule'
        second = position(twice, written, len('"monotheizm", points: 10, '))
        assert duplicate["range"] == {"start": second, "end": {**second, "character": second["character"] + 6}}
        first = position(twice, written, len('"monotheizm", '))
        (related,) = duplicate["relatedInformation"]
        assert related == {
            "location": {"uri": uri, "range": {"start": first, "end": {**first, "character": first["character"] + 6}}},
            "message": "first defined here",
        }

    asyncio.run(session())


def test_a_client_offering_utf8_gets_utf8_positions_read_from_disk(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = astral_cards((rules / CARDS).read_text(encoding="utf-8"))
    (rules / CARDS).write_text(text, encoding="utf-8")  # not opened: the server reads it from disk

    async def session() -> None:
        editor = Editor(rules)
        capabilities = editor.initialize(rules, {"general": {"positionEncodings": ["utf-8", "utf-16"]}})
        assert capabilities["positionEncoding"] == "utf-8"
        await editor.settle()
        at = position(text, DEMOCRACY, AT_DEMOCRACY + len("democrac"), encoding="utf-8")
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
        assert "civilization card `democracy`" in hover["contents"]["value"]
        (found,) = [d for d in editor.diagnostics(uri) if d["code"] == "X001"]
        start = position(text, '"monotheizm"', encoding="utf-8")
        assert start["character"] == position(text, '"monotheizm"')["character"] + 4  # 4 bytes, not 2 units, each
        assert found["range"] == {"start": start, "end": {**start, "character": start["character"] + 12}}

    asyncio.run(session())


def test_quick_fixes_over_a_whole_file_locate_each_diagnostic_once(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code action over a whole file with every diagnostic sent back, as an editor asks for a
    selection of all of it, from a client that strips their data: the file's diagnostics are
    located once for the request, not once per diagnostic sent (this file's 25 took 278
    conversions; 2,000 took 20 s), and the fixes are those the data gives."""
    from civrules.lsp.positions import Positions

    uri = (rules / CARDS).absolute().as_uri()
    text = re.sub(r"^    cost: (\d+)$", r'    cost: "\1"', (rules / CARDS).read_text(encoding="utf-8"), flags=re.M)
    text = text.replace('    cost: "45"\n', "    cots: 45\n", 1).replace("colour: blue", "colour: blu", 1)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": text.count("\n") + 1, "character": 0}}

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        published = editor.diagnostics(uri)
        assert sum(d["code"] == "S001" for d in published) > 20  # each quoted cost: the wrong type, no fix

        def fixes(sent: list[dict[str, Any]]) -> list[tuple[str, Any]]:
            found = editor.request(
                "textDocument/codeAction",
                {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": sent}},
            )
            return [(action["title"], action["edit"]) for action in found]

        given = fixes(published)
        located: list[Span] = []
        range_of = Positions.range

        def counted(self: Positions, at: str, span: Span) -> Any:
            located.append(span)
            return range_of(self, at, span)

        monkeypatch.setattr(Positions, "range", counted)
        stripped = fixes([{k: v for k, v in d.items() if k != "data"} for d in published])
        monkeypatch.undo()
        assert len(located) <= len(published)
        assert stripped == given
        assert [edit["changes"][uri][0]["newText"] for _, edit in given] == ["blue", "cost"]
        # Only a diagnostic sent back without its data is looked for: the data says where there is no fix.
        assert all(set(d["data"]) == {"suggestion", "subjects"} for d in published)
        located.clear()
        monkeypatch.setattr(Positions, "range", counted)
        assert fixes([d for d in published if d.get("data")]) == given
        assert located == []

    asyncio.run(session())


# --- references declared in the schemas: definition, references, completion by kind, rename -----

CALAMITIES = "calamities/advanced-civilization.yaml"
MAP = "maps/mediterranean.yaml"


def test_a_field_goes_to_the_collection_its_schema_declares(index: Index) -> None:
    """`flood_plain: mesopotamia` names the flood plain, not the area of the same id."""
    text = (RULES / MAP).read_text(encoding="utf-8")
    at = position(text, "flood_plain: mesopotamia", len("flood_plain: m"))
    symbol = index.at(MAP, at["line"] + 1, at["character"] + 1)
    assert symbol is not None and symbol.collection == "flood_plains" and not symbol.definition
    (definition,) = index.definitions(symbol)
    assert definition.path[0] == "flood_plains" and definition.path[-1] == "id"
    # A value the schema declares no reference is none, even where it spells an id (the activity
    # `movement` of a turn-order effect, and the phase `movement`).
    cards = (RULES / CARDS).read_text(encoding="utf-8")
    at = position(cards, "activities: [movement", len("activities: [m"))
    assert index.at(CARDS, at["line"] + 1, at["character"] + 1) is None


def _walked(index: Index, relative: str, line: int, column: int) -> Symbol | None:
    """The id occurrence under a position as :meth:`Index.at` found it by walking the file's ids."""
    for symbol in index.by_file.get(relative, ()):
        span = symbol.span
        if (span.line, span.column) <= (line, column) < (span.end_line, span.end_column) or (
            (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column) and span.line == line
        ):
            return symbol
    return None


@heavy
def test_the_id_at_a_position_is_the_one_a_walk_of_the_file_finds(index: Index) -> None:
    """Every position of each line of the cards file that holds an id, and of a line past the last;
    in every file, the start and end of each id and the positions either side of them."""
    for relative, symbols in index.by_file.items():
        lines = (RULES / relative).read_text(encoding="utf-8").split("\n")
        places = {(len(lines) + 1, column) for column in range(3)}
        for symbol in symbols:
            span = symbol.span
            for line, column in ((span.line, span.column), (span.end_line, span.end_column)):
                places |= {(line, column - 1), (line, column), (line, column + 1)}
                if relative == CARDS:
                    places |= {(line, at) for at in range(len(lines[line - 1]) + 3)}
        for line, column in sorted(places):
            assert index.at(relative, line, column) is _walked(index, relative, line, column), (relative, line, column)


def test_touching_spans_give_the_id_a_walk_gives(index: Index) -> None:
    """Where spans touch, nest or repeat: the first in the file's order that holds the position
    (a span of one line holds its end; one of several lines does not)."""
    fresh = Index(index.result, index)
    document = index.by_file[CARDS][0].document

    def symbol(name: str, *span: int) -> Symbol:
        return Symbol("civilization_cards", name, "t.yaml", Span("t.yaml", *span), False, document)

    spans = [
        symbol("a", 1, 5, 1, 9),
        symbol("b", 1, 9, 1, 12),  # starts where `a` ends
        symbol("c", 2, 3, 4, 2),  # three lines
        symbol("d", 4, 2, 4, 6),  # starts where `c` ends
        symbol("e", 5, 1, 5, 4),
        symbol("e2", 5, 1, 5, 4),  # the same span again
        symbol("f", 6, 1, 6, 20),
        symbol("g", 6, 5, 6, 8),  # inside `f`
        symbol("h", 7, 3, 7, 3),  # empty
        symbol("i", 8, 1, 9, 1),  # ends at a line's start
    ]
    fresh.by_file["t.yaml"] = spans
    for line in range(0, 11):
        for column in range(0, 23):
            assert fresh.at("t.yaml", line, column) == _walked(fresh, "t.yaml", line, column), (line, column)
    found = {place: fresh.at("t.yaml", *place) for place in [(1, 9), (4, 2), (5, 2), (6, 6), (7, 3), (9, 1), (3, 40)]}
    assert {place: s.id if s else None for place, s in found.items()} == {
        (1, 9): "a",
        (4, 2): "d",
        (5, 2): "e",
        (6, 6): "f",
        (7, 3): "h",
        (9, 1): None,
        (3, 40): "c",
    }


class _Counted(list[Symbol]):
    """A file's ids that count how many times one of them is read."""

    read = 0

    def __iter__(self) -> Iterator[Symbol]:
        for symbol in super().__iter__():
            self.read += 1
            yield symbol

    def __getitem__(self, at: Any) -> Any:
        self.read += 1
        return super().__getitem__(at)


def test_the_id_under_a_position_is_found_without_walking_the_file(index: Index) -> None:
    """A hover or a definition at each id of a file reads each id a fixed number of times in all,
    not the ids before it each time (which is the square of the file's)."""
    fresh = Index(index.result, index)
    symbols = fresh.by_file[MAP] = _Counted(fresh.by_file[MAP])
    places = [(s.span.line, s.span.column) for s in list.__iter__(symbols)]
    assert len(places) > 100
    found = [fresh.at(MAP, *place) for place in places]
    assert symbols.read <= 3 * len(places)
    assert found == [_walked(index, MAP, *place) for place in places]


def _resolved_by_walk(index: Index, symbol: Symbol) -> tuple[dict[str, Any] | None, list[str]]:
    """What :meth:`Index.describe` showed of an id, as it found it walking each collection."""
    from civrules.resolve import entity_key

    chosen: dict[str, Any] | None = None
    using: list[str] = []
    for name in index.result.rulesets_using(symbol.relative):
        resolved = index.result.analyses[name].resolved
        assert resolved is not None
        spec = index.result.analyses[name].loaded.family.collections[symbol.collection]
        for entry in resolved.collections.get(symbol.collection, ()):
            if entity_key(spec, entry.raw) == symbol.id:
                chosen = chosen if chosen is not None else entry.raw
                using.append(name)
                break
    return chosen, using


def test_hovering_every_id_of_a_file_reads_each_entity_once(index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entity of the rulesets using the file is keyed once for all the hovers, not once per
    hover of an id after it; each id is described as the entity the walk found."""
    from civrules.resolve import entity_key

    fresh = Index(index.result, index)
    symbols = [s for s in fresh.by_file[CARDS] if s.collection != "rulesets"]
    keyed: list[object] = []

    def counted(spec: Any, raw: Any) -> str | None:
        keyed.append(raw)
        return entity_key(spec, raw)

    monkeypatch.setattr("civrules.lsp.index.entity_key", counted)
    described = [fresh._resolved(s) for s in symbols]
    monkeypatch.undo()
    entities = {
        (name, s.collection): len(resolved.collections.get(s.collection, ()))
        for s in symbols
        for name in index.result.rulesets_using(CARDS)
        if (resolved := index.result.analyses[name].resolved) is not None
    }
    assert len(keyed) <= sum(entities.values())
    walked = [_resolved_by_walk(index, s) for s in symbols]
    assert all(raw is not None for raw, _ in described)
    assert [(id(raw), using) for raw, using in described] == [(id(raw), using) for raw, using in walked]


def test_references_include_what_a_variant_writes_in_its_overlay(index: Index) -> None:
    variant = "rulesets/advanced-civilization-western.yaml"
    (cirta,) = [s for s in index.by_id["cirta"] if s.definition]
    found = index.references(cirta, include_definition=False)
    assert any(s.relative == variant and s.path[:2] == ("overlay", "nations") for s in found)
    assert all(s.collection == "areas" for s in found)


def _edit(editor: Editor, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The answer to a request, error included (:meth:`Editor.request` asserts there is none)."""
    editor.next_id += 1
    editor._handle({"id": editor.next_id, "method": method, "params": params})
    (answer,) = [m for m in editor.sent if m.get("id") == editor.next_id and "method" not in m]
    return answer


def completion_labels(editor: Editor, uri: str, at: dict[str, int]) -> set[str]:
    """The labels the server offers to complete at ``at`` in the document ``uri``."""
    found = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
    return {item["label"] for item in found["items"]}


def test_completion_offers_the_ids_of_the_collection_the_field_refers_to(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    calamities_uri = (rules / CALAMITIES).absolute().as_uri()
    calamities = (rules / CALAMITIES).read_text(encoding="utf-8")

    async def session() -> None:
        editor = await Editor.started(rules)

        # A credit's card (in a flow mapping): cards only.
        credit = completion_labels(editor, uri, position(text, "{card: democracy", len("{card: ")))
        assert {"democracy", "pottery"} <= credit and not {"crafts", "famine", "egypt"} & credit
        # A calamity link: calamities only.
        link = completion_labels(editor, uri, position(text, "calamity: ", len("calamity: ")))
        assert "famine" in link and not {"pottery", "crafts"} & link
        # A calamity modifier's card, in the calamities file: cards only.
        modifier = completion_labels(editor, calamities_uri, position(calamities, "- card: democracy", len("- card: ")))
        assert "democracy" in modifier and "famine" not in modifier
        # A value that refers to nothing (a cost): no ids at all.
        cost = completion_labels(editor, uri, position(text, "cost: 45", len("cost: ")))
        assert not {"pottery", "crafts", "famine"} & cost

    asyncio.run(session())


def test_completion_offers_area_ids_on_an_item_of_a_block_list(rules: Path) -> None:
    """`  - germ` under `areas:` (a block list of area ids) is a value being written: it was
    taken for a key, and completion offered nothing. An item of a list of mappings (`  - ` under
    `cards:`) still offers the keys of its first entry."""
    manifest = "rulesets/advanced-civilization.yaml"
    written = "      areas: [sudeten, germania_2]\n"
    text = (rules / manifest).read_text(encoding="utf-8")
    assert written in text
    text = text.replace(written, "      areas:\n        - sudeten\n        - germ\n", 1)
    (rules / manifest).write_text(text, encoding="utf-8")
    lines = text.splitlines()
    at = lines.index("        - germ") + 1
    keys, is_value = yaml_key_path(lines, at, len("        - germ") + 1)
    assert keys[-2:] == ["start_areas", "areas"] and is_value
    assert yaml_key_path(["cards:", "  - i"], 2, len("  - i") + 1) == (["cards"], True)
    uri = (rules / manifest).absolute().as_uri()
    cards_uri = (rules / CARDS).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")

    async def session() -> None:
        editor = await Editor.started(rules)

        areas = completion_labels(editor, uri, position(text, "        - germ", len("        - germ")))
        assert {"germania_2", "sudeten"} <= areas and not {"pottery", "famine"} & areas
        first_key = completion_labels(editor, cards_uri, position(cards, "  - id: pottery", len("  - ")))
        assert {"id", "cost", "credits"} <= first_key

    asyncio.run(session())


def test_rename_rewrites_the_definition_and_every_reference(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    calamities_uri = (rules / CALAMITIES).absolute().as_uri()

    async def session() -> None:
        editor = Editor(rules)
        capabilities = editor.initialize(rules, {"textDocument": {"rename": {"prepareSupport": True}}})
        assert capabilities["renameProvider"] == {"prepareProvider": True}
        await editor.settle()
        at = position(text, "{card: democracy", len("{card: d"))  # from a reference
        prepared = editor.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": at})
        assert prepared["placeholder"] == "democracy"
        assert prepared["range"]["start"] == position(text, "{card: democracy", len("{card: "))
        edit = editor.request(
            "textDocument/rename", {"textDocument": {"uri": uri}, "position": at, "newName": "people_s_rule"}
        )
        changes = edit["changes"]
        assert {uri, calamities_uri} <= set(changes)  # and the manifest, where its rules name the card
        for changed, edits in changes.items():
            lines = Path(changed.removeprefix("file://")).read_text(encoding="utf-8").splitlines()
            for each in edits:
                start, end = each["range"]["start"], each["range"]["end"]
                assert lines[start["line"]][start["character"] : end["character"]] == "democracy"
                assert each["newText"] == "people_s_rule"
        definition = position(text, "id: democracy", len("id: "))
        assert any(e["range"]["start"] == definition for e in changes[uri])
        assert len(changes[uri]) == text.count("democracy")  # the file names it only as an id
        assert len(changes[calamities_uri]) >= 2
        # A YAML-reserved word is a valid id, written where it reads back as text: `id: true` was
        # written plain, a boolean, and the file failed validation (S001).
        edit = editor.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": at, "newName": "true"})
        for edits in edit["changes"].values():
            assert {each["newText"] for each in edits} == {'"true"'}

        # Refused, saying why: not an id, an id taken, a group (its ids are fixed), a ruleset.
        for new, said in (("People's Rule", "not a valid civilization card id"), ("pottery", "already exists")):
            answer = _edit(
                editor, "textDocument/rename", {"textDocument": {"uri": uri}, "position": at, "newName": new}
            )
            assert said in answer["error"]["message"], answer
        group = position(text, "groups: [crafts]", len("groups: [c"))
        answer = _edit(
            editor, "textDocument/rename", {"textDocument": {"uri": uri}, "position": group, "newName": "craft"}
        )
        # Refused before a name is typed since round 35: the family's rules name its groups.
        assert "own rules name" in answer["error"]["message"] and "fixed groups" in answer["error"]["message"]
        cost = position(text, "cost: 45", len("cost: 4"))
        answer = _edit(editor, "textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": cost})
        assert "no id of a collection here" in answer["error"]["message"]
        variant = rules / "rulesets/advanced-civilization-western.yaml"
        written = variant.read_text(encoding="utf-8")
        extends = position(written, "extends: advanced-civilization", len("extends: a"))
        answer = _edit(
            editor,
            "textDocument/prepareRename",
            {"textDocument": {"uri": variant.absolute().as_uri()}, "position": extends},
        )
        assert "rename the file" in answer["error"]["message"]

    asyncio.run(session())


def test_rename_stays_in_the_rulesets_that_read_the_definition() -> None:
    """Advanced Civilization's `pottery` is not the Expansion Project's: renaming one leaves the other."""
    index = Index(Session(RULES).update())
    (pottery,) = [s for s in index.by_id["pottery"] if s.definition and s.relative == CARDS]
    found = index.rename(pottery, "earthenware")
    assert {s.relative for s in found} <= index.scope(CARDS)
    assert "cards/expansion-project.yaml" not in {s.relative for s in found}
    assert sum(s.definition for s in found) == 1


def test_rename_refuses_a_name_ending_in_a_line_break(index: Index) -> None:
    """The schemas' `$` is the end of the name (JSON Schema's), so `pottery\\n` is no id, as `validate`
    says; with Python's `$` the rename was accepted (round 19)."""
    from civrules.lsp.index import RenameRefusedError

    (pottery,) = [s for s in index.by_id["pottery"] if s.definition and s.relative == CARDS]
    for new in ("earthenware\n", "earthenware\r\n"):
        with pytest.raises(RenameRefusedError, match="is not a valid civilization card id"):
            index.rename(pottery, new)
    assert index.rename(pottery, "earthenware")


# --- the outline (textDocument/documentSymbol) ---------------------------------------------------


def _inside(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and (inner.end_line, inner.end_column) <= (
        outer.end_line,
        outer.end_column,
    )


def test_the_outline_lists_each_collection_and_its_entities_as_written(index: Index) -> None:
    import yaml

    data = yaml.safe_load((RULES / CARDS).read_text(encoding="utf-8"))
    outline = index.outline(CARDS)
    assert [entry.name for entry in outline] == ["groups", "cards"]  # the file's order
    groups, cards = outline
    assert [card.name for card in cards.children] == [card["id"] for card in data["cards"]]
    assert [card.detail for card in cards.children] == [card["name"] for card in data["cards"]]
    assert cards.detail == f"{len(data['cards'])} civilization cards" and cards.kind == "collection"
    assert groups.children[0].kind == "card group" and groups.children[0].name == data["groups"][0]["id"]
    definitions = {s.id: s.span for s in index.by_file[CARDS] if s.definition and s.collection == "civilization_cards"}
    for entry in outline:
        assert _inside(entry.selection, entry.span)
        for child in entry.children:
            assert child.selection == definitions.get(child.name, child.selection)
            assert _inside(child.selection, child.span) and _inside(child.span, entry.span)
    # the entries do not overlap: each entity ends before the next begins
    for one, following in zip(cards.children, cards.children[1:], strict=False):
        assert (one.span.end_line, one.span.end_column) <= (following.span.line, following.span.column)


def test_a_manifest_outlines_its_ruleset_and_the_lists_it_defines(index: Index) -> None:
    manifest = "rulesets/advanced-civilization.yaml"
    outline = index.outline(manifest)
    assert (outline[0].kind, outline[0].name) == ("ruleset", "advanced-civilization")
    nations = next(entry for entry in outline if entry.name == "nations")
    assert nations.children and all(child.kind == "nation" for child in nations.children)
    assert index.outline("no/such/file.yaml") == []


def test_the_server_outlines_a_file_nested_where_the_client_shows_a_hierarchy(rules: Path) -> None:
    """A variant's outline: its ruleset, and the entities its overlay adds (a client without the
    hierarchy gets the flat form: see the editor session above)."""
    variant = rules / "rulesets" / "advanced-civilization-western.yaml"
    text = variant.read_text(encoding="utf-8")
    added = (
        "  civilization_cards:\n    add:\n"
        '      - {id: weaving, name: Weaving, rule: "32.21", groups: [crafts], cost: 60, prerequisites: [],'
        " attributes: [], credits: []}\n"
    )
    variant.write_text(text.replace("overlay:\n", "overlay:\n" + added, 1), encoding="utf-8")
    uri = variant.absolute().as_uri()

    async def session() -> Any:
        editor = Editor(rules)
        editor.initialize(rules, {"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}})
        await editor.settle()
        return editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})

    nested = asyncio.run(session())
    assert nested[0]["name"] == "advanced-civilization-western" and nested[0]["kind"] == 2  # Module
    (add,) = [entry for entry in nested if entry["name"] == "overlay.civilization_cards.add"]
    assert add["kind"] == 18 and add["detail"] == "1 civilization card"  # Array
    (card,) = add["children"]
    assert (card["name"], card["detail"]) == ("weaving", "Weaving")
    assert card["selectionRange"]["start"] == position(variant.read_text(encoding="utf-8"), "id: weaving", len("id: "))


# --- nesting past the bound ----------------------------------------------------------------------


@pytest.mark.parametrize("levels", [150, 5_000])
def test_nesting_past_the_bound_is_located_in_the_editor_where_the_bound_is_crossed(
    tmp_path: Path, levels: int
) -> None:
    """5,000 brackets deep, libyaml's own guard (1,000 levels) stopped the reading first and the
    editor was shown L006 at character 1002, its mark; it is at the bracket that opens level 101
    (the root mapping is level 1), character 102, as it is 150 deep. 100 levels are read."""
    from civrules.lsp.positions import Positions
    from civrules.lsp.server import lsp_diagnostic

    (tmp_path / "rules").mkdir()
    session = Session(tmp_path / "rules")
    session.update()
    deep = "kind: map\nid: m\nx: " + "[" * levels + "]" * levels + "\n"
    session.set_text("d.yaml", deep)
    (found,) = [d for d in session.update().diagnostics if d.code == "L006"]
    assert found.span is not None
    positions = Positions("utf-16", lambda uri: deep)
    shown = lsp_diagnostic(found, {found.span.file: "file:///d.yaml"}, positions)
    assert (shown.range.start.line, shown.range.start.character) == (2, 102)
    session.set_text("d.yaml", "kind: map\nid: m\nx: " + "[" * 99 + "]" * 99 + "\n")
    assert not [d for d in session.update().diagnostics if d.code == "L006"]


def test_a_published_diagnostic_carries_its_subjects_and_suggestion_as_data() -> None:
    """What a diagnostic is about (:attr:`Diagnostic.subjects`, as `validate --format json` gives
    it) travels in its LSP `data`, for a code action (a suppression's `target`) to use; the
    suggestion is there even where there is none, so a client that keeps the data is never
    looked up again."""
    from civrules.lsp.positions import Positions
    from civrules.lsp.server import lsp_diagnostic

    span = Span("d.yaml", 1, 1, 1, 5)
    positions = Positions("utf-16", lambda uri: "abcd\n")
    about = Diagnostic("X001", Severity.ERROR, "m", span, "", suggestion="cost", subjects=("cots", "a\tb"))
    shown = lsp_diagnostic(about, {"d.yaml": "file:///d.yaml"}, positions)
    assert shown.data == {"suggestion": "cost", "subjects": ["cots", "a\\tb"]}  # as printable as the JSON output's
    bare = lsp_diagnostic(Diagnostic("R001", Severity.ERROR, "m", span), {"d.yaml": "file:///d.yaml"}, positions)
    assert bare.data == {"suggestion": None, "subjects": []}


def test_the_command_a_hint_gives_to_list_every_diagnostic_is_validate_never_the_server(rules: Path) -> None:
    """R011 ("list them all with ...") repeated the invocation with a higher bound: in the editor,
    `civrules --max-diagnostics 2 --rules DIR lsp`, a server that lists nothing in a terminal. It is
    the `validate` of the same rules folder, with the options that choose what is read."""
    client = Client(rules, "--max-diagnostics", "1")
    try:
        uri = (rules / CARDS).absolute().as_uri()
        text = (rules / CARDS).read_text(encoding="utf-8")
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.notify("initialized", {})
        typos = text.replace("    cost: 45\n", "    cots: 45\n", 2)
        assert typos.count("cots: 45") == 2
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": typos}}
        )
        found = [d for d in client.diagnostics_until(uri, "R011") if d["code"] == "R011"]
        hint = found[0]["message"].partition("\nhint: ")[2]
        assert re.search(rf"`civrules --max-diagnostics \w+ --rules {re.escape(str(rules))} validate`$", hint), hint
        assert client.close() == 0
    finally:
        client.process.kill()


def test_a_related_location_in_a_shipped_file_is_published_at_that_file(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R013's related location, the shipped ruleset's `id:`, lies outside the workspace folder: the
    server dropped it (every related location and diagnostic placed in no file under rules/ was
    dropped or only told in a pop-up). It is published at the shipped file's `file:` URI, which
    the editor opens as any file, at the line and columns `validate --format json` gives."""
    from civrules.load.workspace import shipped_for

    monkeypatch.delenv("CIVRULES_NO_SHIPPED")
    manifest = "rulesets/advanced-civilization.yaml"
    shipped = shipped_for(rules)
    assert shipped is not None
    shipped_text = (shipped / manifest).read_text(encoding="utf-8")
    editor = Editor(rules)

    async def session() -> None:
        editor.initialize(rules, {})
        await editor.settle()

    asyncio.run(session())
    (shadowed,) = [d for d in editor.diagnostics((rules / manifest).absolute().as_uri()) if d["code"] == "R013"]
    (related,) = shadowed["relatedInformation"]
    assert related["message"] == "the shipped ruleset"
    assert related["location"]["uri"] == (shipped / manifest).absolute().as_uri()
    at = position(shipped_text, "id: advanced-civilization\n", len("id: "))
    assert related["location"]["range"]["start"] == at
    # Nothing of it is told in a pop-up instead.
    assert not [m for m in editor.sent if m.get("method") == "window/showMessage"]


def test_an_open_buffer_of_a_linked_rule_file_is_refused_as_the_link_on_disk(rules: Path, tmp_path: Path) -> None:
    """A rule file that is a link to one outside the project, opened in the editor: the server
    checked the buffer (the editor read it through the link) as the file, indexed its ids and
    showed its S002 and R005, where `validate` refuses the link (R003) and reads nothing through
    it. A buffer stands for a file only where the disk holds a regular file or none: what the
    editor is shown is what `validate` says, whatever the buffer holds."""
    linked = "maps/western-panel.yaml"
    outside = tmp_path / "outside.yaml"
    (rules / linked).rename(outside)
    (rules / linked).symlink_to(outside)
    session = Session(rules)
    on_disk = sorted((d.code, d.span) for d in session.update().diagnostics)
    assert any(code == "R003" and span is not None and span.file.endswith(linked) for code, span in on_disk)
    session.set_text(linked, outside.read_text(encoding="utf-8") + "not_a_field: 1\n")
    result = session.update()
    assert sorted((d.code, d.span) for d in result.diagnostics) == on_disk
    assert result.workspace is not None and result.workspace.load(linked).document is None
    # A buffer of a file not saved yet, or of a regular file, is still what is checked.
    session.set_text(CARDS, (rules / CARDS).read_text(encoding="utf-8") + "not_a_field: 1\n")
    assert "S002" in {d.code for d in session.update().diagnostics if d.span and d.span.file.endswith(CARDS)}


def test_a_rules_folder_deleted_while_a_file_is_open_is_said_and_checked_again_when_back(rules: Path) -> None:
    """The rules folder deleted (a branch switched, a folder moved) while the editor has one of its
    files open: looking whether the buffer stands for a file opened the missing folder, and the
    check ended in an internal error ("this is a bug in civrules") with nothing said about the
    folder. It is R004, as `validate` says for a folder that is not there, and once the folder is
    back its files are checked again."""
    session = Session(rules)
    session.update()
    text = (rules / CARDS).read_text(encoding="utf-8")
    session.set_text(CARDS, text)
    session.update()
    saved = rules.parent / "saved"
    rules.rename(saved)
    assert "R004" in {d.code for d in session.update().diagnostics}
    saved.rename(rules)
    session.set_text(CARDS, text.replace("    cost: 45\n", "    cots: 45\n", 1))
    assert "S002" in {d.code for d in session.update().diagnostics}


#: A ruleset of one small cards file (its manifest lacks what a game needs: a quick first validation).
TINY_CARDS = "cards/tiny.yaml"
TINY = {
    "rulesets/tiny.yaml": (
        "kind: ruleset\nid: tiny\nname: Tiny\nfamily: advanced-civilization\n"
        "files:\n  civilization_cards:\n    - cards/tiny.yaml\n"
    ),
    TINY_CARDS: (
        "kind: civilization_cards\ncards:\n"
        "  - id: pottery\n    name: Pottery\n    groups: [crafts]\n    cost: 45\n"
        "    credits:\n      - {card: democracy, points: 10}\n"
        "  - id: democracy\n    name: Democracy\n    groups: [civics]\n    cost: 200\n"
    ),
}


def test_diagnostics_and_locations_are_given_under_the_uri_the_editor_opened_the_file_by(tmp_path: Path) -> None:
    """An editor spells a path's escapes its own way (VS Code writes `c%3A` as `c%3a`): the server
    published a file's diagnostics, and answered a definition, under its own spelling, which the
    editor took for another document (none open, or a second tab). Everything about a file the
    editor opened is given under the URI it opened it by; the one published before under the
    server's spelling is cleared."""
    rules = tmp_path / "a:b" / "rules"
    for relative, written in TINY.items():
        (rules / relative).parent.mkdir(parents=True, exist_ok=True)
        (rules / relative).write_text(written, encoding="utf-8")
    ours = (rules / TINY_CARDS).absolute().as_uri()
    assert "%3A" in ours
    theirs = ours.replace("%3A", "%3a")
    text = TINY[TINY_CARDS]
    typo = text.replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = await Editor.started(rules)
        codes = [d["code"] for d in editor.diagnostics(ours)]  # the manifest lacks much; the cards are fine
        assert codes and "S002" not in codes
        editor.open(theirs, typo)
        await editor.settle()
        assert sorted(d["code"] for d in editor.diagnostics(theirs)) == sorted([*codes, "S002"])
        assert editor.diagnostics(ours) == []  # nothing left under the server's spelling
        credit = position(typo, "{card: democracy", len("{card: d"))
        found = editor.request("textDocument/definition", {"textDocument": {"uri": theirs}, "position": credit})
        assert [location["uri"] for location in found] == [theirs]
        # The buffer comes back clean: cleared under the editor's URI, and never under ours again.
        before = len(editor.sent)
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": theirs, "version": 2}, "contentChanges": [{"text": text}]},
        )
        await editor.settle()
        assert [d["code"] for d in editor.diagnostics(theirs)] == codes
        published = [
            m["params"]["uri"]
            for m in editor.sent[before:]
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"].endswith(TINY_CARDS)
        ]
        assert published == [theirs]

    asyncio.run(session())


@pytest.mark.slow  # it validates a whole shipped ruleset (0.65 s)
def test_ids_of_a_shipped_base_lead_to_its_file_in_a_variant_of_the_rules_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant in the designer's rules folder extending a shipped ruleset: go-to-definition, hover
    and completion of its base's ids found nothing (the shipped files were not indexed), and each
    reference to one was dropped. A definition opens the installed file at its `file:` URI, which
    answers hover and definition in turn, read-only: its buffer is never checked as rules, and a
    rename of a shipped id is refused, saying why."""
    from civrules.load.workspace import shipped_for

    monkeypatch.delenv("CIVRULES_NO_SHIPPED")
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    variant = rules / "rulesets/my-variant.yaml"
    text = (
        "kind: ruleset\nid: my-variant\nname: My variant\nfamily: advanced-civilization\n"
        "extends: advanced-civilization\noverlay:\n  civilization_cards:\n    patch:\n"
        '      - id: pottery\n        cost: 50\n        rule: "32.1"\n'
    )
    variant.write_text(text, encoding="utf-8")
    shipped = shipped_for(rules)
    assert shipped is not None
    cards = shipped / CARDS
    cards_text = cards.read_text(encoding="utf-8")
    uri = variant.absolute().as_uri()

    async def session() -> None:
        editor = await Editor.started(rules)
        at = position(text, "id: pottery", len("id: p"))
        (found,) = editor.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": at})
        assert found["uri"] == cards.absolute().as_uri()
        assert found["range"]["start"] == position(cards_text, "id: pottery", len("id: "))
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
        assert "civilization card `pottery`" in hover["contents"]["value"]
        listed = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
        assert "democracy" in {item["label"] for item in listed["items"]}
        refused = _error(editor, "textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": at})
        assert "shipped with civrules" in refused["message"]

        # The installed file, opened (its buffer changed): answered from, never checked.
        runs = editor.server.runs
        editor.open(found["uri"], cards_text + "x: 1\n")
        await editor.settle()
        assert editor.server.runs == runs
        credit = position(cards_text, "{card: democracy", len("{card: d"))
        (target,) = editor.request(
            "textDocument/definition", {"textDocument": {"uri": found["uri"]}, "position": credit}
        )
        assert target["range"]["start"] == position(cards_text, "id: democracy", len("id: "))

    asyncio.run(session())


def _error(editor: Editor, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The error ``method`` is answered with."""
    editor.next_id += 1
    editor._handle({"id": editor.next_id, "method": method, "params": params})
    (answer,) = [m for m in editor.sent if m.get("id") == editor.next_id and "method" not in m]
    return dict(answer["error"])


@pytest.mark.parametrize(
    ("kind", "keys", "collection"),
    [
        ("imperial-settlers/cards", ["cards", "colours"], "colours"),  # `colours: [brown]`
        ("imperial-settlers/cards", ["cards", "production"], "goods"),  # `production: [wood, wood]`
        ("sid-meiers-civilization/map", ["tiles", "squares"], "terrains"),  # `squares: [[floresta, ...]]`
        ("civilization_cards", ["cards", "groups"], "groups"),  # declared on the list itself
    ],
)
def test_a_reference_declared_on_a_lists_elements_is_found_in_the_list(
    kind: str, keys: list[str], collection: str
) -> None:
    """Completion in a flow list (`colours: [`) reads the reference of the value at its key path,
    which names no list index: one declared on the list's `items` (Imperial Settlers' colours,
    goods and referred cards, a Sid Meier's tile's terrains) was not found, and nothing was offered."""
    from civrules.lsp.index import reference_at

    found = reference_at(kind, keys)
    assert found is not None and found.collection == collection


@pytest.mark.slow  # every shipped ruleset validated (about 4 s)
def test_completion_offers_the_id_written_at_every_reference_of_the_shipped_rules() -> None:
    """At each reference the shipped files write, in every family's files, completion's reference
    lookup names the collection of the id written there (which completion then offers)."""
    from civrules.lsp.index import reference_at

    index = Index(Session(RULES).update())
    missed = []
    for relative, symbols in sorted(index.by_file.items()):
        lines = split_lines((RULES / relative).read_text(encoding="utf-8"))
        for symbol in symbols:
            if symbol.definition or symbol.span.line != symbol.span.end_line:
                continue
            keys, is_value = yaml_key_path(lines, symbol.span.line, symbol.span.column)
            found = reference_at(index.kinds.get(relative), keys) if is_value else None
            if found is None or found.collection != symbol.collection:
                missed.append(f"{relative}:{symbol.span.line}: {symbol.collection} {keys}")
    assert not missed, missed[:10]


def test_a_file_opened_through_two_workspace_folders_of_one_project_is_served_under_both(
    tmp_path: Path,
) -> None:
    """Two workspace folders naming one project (the project, and a link to it): the rules folder
    is served once, under the first name, and a file the editor opened under the other was served
    by no folder (no diagnostic, no hover). Opened under both, it is published under both; closed
    under one, what was shown there is cleared and the other keeps its diagnostics."""
    project = tmp_path / "project"
    for relative, written in TINY.items():
        (project / "rules" / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / "rules" / relative).write_text(written, encoding="utf-8")
    (tmp_path / "link").symlink_to(project, target_is_directory=True)
    direct = (project / "rules" / TINY_CARDS).as_uri()
    linked = (tmp_path / "link" / "rules" / TINY_CARDS).as_uri()
    typo = TINY[TINY_CARDS].replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = Editor(Path("rules"))
        folders = [{"uri": project.as_uri(), "name": "a"}, {"uri": (tmp_path / "link").as_uri(), "name": "b"}]
        editor.request(
            "initialize", {"processId": None, "rootUri": None, "workspaceFolders": folders, "capabilities": {}}
        )
        editor.notify("initialized", {})
        assert len(editor.server.folders) == 1
        for uri in (direct, linked):
            editor.open(uri, typo)
        await editor.settle()
        for uri in (direct, linked):
            assert "S002" in [d["code"] for d in editor.diagnostics(uri)], uri
            hover = editor.request(
                "textDocument/hover", {"textDocument": {"uri": uri}, "position": position(typo, "cots")}
            )
            assert hover is not None and "S002" in hover["contents"]["value"]
        editor.notify("textDocument/didClose", {"textDocument": {"uri": linked}})
        await editor.settle()
        assert editor.diagnostics(linked) == []
        assert "S002" in [d["code"] for d in editor.diagnostics(direct)]

    asyncio.run(session())


@pytest.mark.slow  # a session validating a variant of Advanced Civilization
def test_a_renamed_cards_retarget_is_a_quick_fix_written_where_the_overlay_ends(rules: Path) -> None:
    """V006's first way for a card removed and added under a new id is a patch of each referrer
    in the variant's overlay, away from the removal the diagnostic stands at: a code action
    writes it (one edit of the buffer, as it is), from the data sent back or, for a client that
    strips it, from the diagnostics of the buffer."""
    from civrules.lsp.additions import written

    house = rules / "rulesets" / "house.yaml"
    text = (
        'kind: ruleset\nid: house\nname: "House rules"\nextends: advanced-civilization\n'
        "overlay:\n  civilization_cards:\n    remove:\n"
        '      - {id: pottery, why: "house rule: renamed"}\n'
        "    add:\n"
        "      - {id: ceramics, name: Ceramics, cost: 45, groups: [crafts], prerequisites: [], credits: [],\n"
        '         attributes: [], source: "house rule: renamed"}\n'
    )
    house.write_text(text, encoding="utf-8")
    uri = house.absolute().as_uri()

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        (v006,) = [d for d in editor.diagnostics(uri) if d["code"] == "V006"]

        def actions(sent: dict[str, Any]) -> list[dict[str, Any]]:
            found = editor.request(
                "textDocument/codeAction",
                {"textDocument": {"uri": uri}, "range": sent["range"], "context": {"diagnostics": [sent]}},
            )
            return list(found or [])

        (action,) = actions(v006)
        assert action["title"] == "Point the references at `ceramics`"
        (edit,) = action["edit"]["changes"][uri]
        assert edit["range"]["start"] == {"line": 0, "character": 0}
        assert (
            "- {id: famine, modifiers: {patch: [{where: {card: pottery}, with: {card: ceramics}}]}" in (edit["newText"])
        )
        assert edit["newText"].startswith(text) and edit["newText"] == written(
            text, tuple(_additions(v006["data"], house.name))
        )
        (stripped,) = actions({k: v for k, v in v006.items() if k != "data"})
        assert (stripped["title"], stripped["edit"]) == (action["title"], action["edit"])

    asyncio.run(session())


def _additions(data: dict[str, Any], file: str) -> list[Any]:
    from civrules.diagnostics import Addition

    return [Addition(file, tuple(one["path"]), one["text"], one["append"]) for one in data["additions"]]


def test_a_cited_path_written_with_backslashes_is_fixed_with_slashes(rules: Path) -> None:
    """Q011 (round 33): a `source:` copied from a Windows checkout cites `src\\data\\x.json`, a file
    no one finds; the quick fix writes the citation again with `/` in its path and nowhere else,
    in the quotes it was written in."""
    manifest = rules / "rulesets" / "advanced-civilization.yaml"
    uri = manifest.absolute().as_uri()
    commit = "77949e9e17693a27969b4415671cd716093e91fd"
    cited = f"johnchampaign/advanced-civilization@{commit}:src/data/civilizations.json (astOrder); "
    written = manifest.read_text(encoding="utf-8")
    start = written.index(f'source: "{cited}')
    end = written.index("\n", start)
    rest = written[start + len(f'source: "{cited}') : end - 1]
    windows = cited.replace("src/data/", "src\\data\\")
    text = f"{written[:start]}source: '{windows}{rest}'{written[end:]}"

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        (found,) = [d for d in editor.diagnostics(uri) if d["code"] == "Q011"]
        assert found["severity"] == 2  # a warning: a `\` may be in a file's name
        assert found["message"].startswith("the cited path `src\\data\\civilizations.json` is written with `\\`")
        assert found["message"].endswith("\nhint: write it with `/`: `src/data/civilizations.json`")
        (action,) = editor.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": found["range"], "context": {"diagnostics": [found]}},
        )
        assert action["edit"]["changes"][uri] == [{"range": found["range"], "newText": f"'{cited}{rest}'"}]

    asyncio.run(session())
