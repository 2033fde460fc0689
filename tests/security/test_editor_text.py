"""Issue 27, point 2: every text the language server sends an editor passes one escaping boundary
(civrules.diagnostics.markup), as every printed text passes civrules.diagnostics.escape.

The trial's example: a hover on a variant's `extends:` put the base ruleset's `name` into Markdown
as written, so a remote image was fetched when a reviewer hovered, and a `command:` link or raw
HTML came back live. Here hostile names (image and `command:` links, raw HTML, entities,
autolinks, backticks, a tab and a line break) are sent through every editor-facing path: hovers on
a ruleset, an entity and a diagnostic, completion, code-action titles, diagnostics' messages and
related information. Markdown must render as the characters written, plain text must hold no
control character.
"""

from __future__ import annotations

import asyncio
import doctest
import json
import re
from pathlib import Path
from typing import Any

import pytest

from civrules.diagnostics import markup
from civrules.diagnostics.escape import UNSAFE
from civrules.diagnostics.markup import markdown_block, markdown_code, markdown_text, plain
from tests.conftest import copy_files

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"
HANG_GUARD = 60.0
BASE = "rulesets/advanced-civilization.yaml"
VARIANT = "rulesets/advanced-civilization-western.yaml"
CARDS = "cards/advanced-civilization.yaml"
KEEP = (
    BASE,
    VARIANT,
    CARDS,
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "maps/western-panel.yaml",
    "rulebooks/advanced-civilization.yaml",
)

#: What a stranger's pull request may name things: each would do something in a Markdown renderer.
HOSTILE = (
    "![pixel](https://tracker.example/p.png)",
    "[run](command:workbench.action.terminal.new)",
    '<img src="https://tracker.example/p.png">',
    "<https://tracker.example/auto> www.tracker.example",
    "&lt;b&gt; *bold* _it_ # heading",
    "`code` ``` fence `",
    "tab\there, line\nbreak",
)
_RAW_CONTROL = re.compile(f"[{UNSAFE}]")


def yaml_string(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    target = copy_files(tmp_path / "rules", KEEP)
    base = target / BASE
    base.write_text(
        base.read_text(encoding="utf-8").replace(
            'name: "Advanced Civilization"', f"name: {yaml_string(' '.join(HOSTILE))}", 1
        ),
        encoding="utf-8",
    )
    cards = target / CARDS
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(
            "  - id: pottery\n    name: Pottery\n",
            f"  - id: pottery\n    name: {yaml_string(' '.join(HOSTILE))}\n    {yaml_string(HOSTILE[0])}: 1\n",
            1,
        ),
        encoding="utf-8",
    )
    return target


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
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.protocol.handle_body(json.dumps(message).encode())
        (answer,) = [m for m in self.sent if m.get("id") == self.next_id and "method" not in m]
        assert "error" not in answer, answer
        return answer.get("result")

    async def settle(self) -> None:
        await asyncio.wait_for(asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()})), HANG_GUARD)


def at(text: str, needle: str, offset: int = 0) -> dict[str, int]:
    index = text.index(needle) + offset
    return {"line": text.count("\n", 0, index), "character": index - text.rfind("\n", 0, index) - 1}


def inert(markdown: str) -> None:
    """No Markdown construct starts in ``markdown`` outside code: every bracket, angle bracket,
    parenthesis, `!`, `&` and backtick there is escaped; code spans and fenced blocks are closed."""
    rest = re.sub(r"^(`{3,})text\n.*?\n\1$", "", markdown, flags=re.DOTALL | re.MULTILINE)
    position = 0
    while position < len(rest):
        char = rest[position]
        if char == "\\":
            position += 2
            continue
        if char == "`":
            fence = re.match(r"`+", rest[position:])
            assert fence is not None
            end = rest.find(fence.group(), position + len(fence.group()))
            assert end > 0, f"an unclosed code span in {markdown!r}"
            position = end + len(fence.group())
            continue
        assert char not in "[]<>()!&", f"unescaped {char!r} at {position} in {rest!r}"
        position += 1
    assert not _RAW_CONTROL.search(markdown.replace("\n", "")), markdown


def test_hostile_names_reach_the_editor_as_the_characters_written(rules: Path) -> None:
    variant_uri = (rules / VARIANT).absolute().as_uri()
    cards_uri = (rules / CARDS).absolute().as_uri()
    variant = (rules / VARIANT).read_text(encoding="utf-8")
    cards = (rules / CARDS).read_text(encoding="utf-8")

    async def session() -> None:
        editor = Editor(rules)
        editor.request("initialize", {"processId": None, "rootUri": rules.parent.as_uri(), "capabilities": {}})
        editor.notify("initialized", {})
        await editor.settle()

        # The trial's example: a hover on `extends:` shows the base's name.
        hover = editor.request(
            "textDocument/hover",
            {"textDocument": {"uri": variant_uri}, "position": at(variant, "extends: advanced", len("extends: a"))},
        )
        value = hover["contents"]["value"]
        assert hover["contents"]["kind"] == "markdown"
        inert(value)
        assert markdown_text(" ".join(HOSTILE)) in value

        # A hover on a card: its name, and (on the hostile key) the S002 diagnostic that quotes it.
        hover = editor.request(
            "textDocument/hover", {"textDocument": {"uri": cards_uri}, "position": at(cards, "id: pottery", 5)}
        )
        inert(hover["contents"]["value"])
        assert markdown_text(" ".join(HOSTILE)) in hover["contents"]["value"]
        key = at(cards, json.dumps(HOSTILE[0]), 2)
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": cards_uri}, "position": key})
        inert(hover["contents"]["value"])
        assert "S002" in hover["contents"]["value"] and markdown_text(HOSTILE[0]) in hover["contents"]["value"]

        # Diagnostics: plain text, no control character; related information the same.
        published = [m["params"] for m in editor.sent if m.get("method") == "textDocument/publishDiagnostics"]
        assert published
        for params in published:
            for diagnostic in params["diagnostics"]:
                for line in diagnostic["message"].split("\n"):  # the line break before `hint:` is ours
                    assert not _RAW_CONTROL.search(line), diagnostic
                for related in diagnostic.get("relatedInformation") or ():
                    assert not _RAW_CONTROL.search(related["message"]), related
        (unknown,) = [d for p in published if p["uri"] == cards_uri for d in p["diagnostics"] if d["code"] == "S002"][
            -1:
        ]
        assert plain(HOSTILE[0]) in unknown["message"]

        # A code action's title, whatever suggestion the client sends back (it is plain text).
        for fix in HOSTILE:
            sent = {**unknown, "data": {"suggestion": fix}}
            (action,) = editor.request(
                "textDocument/codeAction",
                {"textDocument": {"uri": cards_uri}, "range": unknown["range"], "context": {"diagnostics": [sent]}},
            )
            assert not _RAW_CONTROL.search(action["title"]) and plain(fix) in action["title"]

        # Completion: keys' documentation is Markdown made inert; no label holds a control character.
        lines = cards.split("\n")
        key_line = next(i for i, line in enumerate(lines) if line.startswith("    rule:"))
        found = editor.request(
            "textDocument/completion",
            {"textDocument": {"uri": cards_uri}, "position": {"line": key_line, "character": 4}},
        )
        assert found["items"]
        for item in found["items"]:
            assert not _RAW_CONTROL.search(item["label"])
            documentation = item.get("documentation")
            if documentation is not None:
                inert(documentation["value"])

    asyncio.run(session())


def test_an_id_holding_a_line_break_is_not_offered_for_insertion(rules: Path) -> None:
    cards = rules / CARDS
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("  - id: pottery\n", '  - id: "pot\\ntery"\n', 1), encoding="utf-8"
    )
    text = cards.read_text(encoding="utf-8")
    uri = cards.absolute().as_uri()

    async def session() -> None:
        editor = Editor(rules)
        editor.request("initialize", {"processId": None, "rootUri": rules.parent.as_uri(), "capabilities": {}})
        editor.notify("initialized", {})
        await editor.settle()
        found = editor.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": at(text, "{card: democracy", len("{card: "))},
        )
        labels = {item["label"] for item in found["items"]}
        assert "democracy" in labels and not any("\n" in label for label in labels)

    asyncio.run(session())


@pytest.mark.parametrize("text", HOSTILE)
def test_each_escape_renders_the_text_it_was_given(text: str) -> None:
    """Undoing CommonMark's backslash escapes gives back the text (as printable() shows it)."""
    escaped = markdown_text(text)
    inert(escaped)
    assert re.sub(r"\\(.)", r"\1", escaped) == plain(text)
    code = markdown_code(text)
    fence = re.match(r"`+", code)
    assert fence is not None and fence.group() not in code[len(fence.group()) : -len(fence.group())]
    block = markdown_block(f"{text}\n```\nmore")
    opening = block.split("\n", 1)[0].removesuffix("text")
    assert block.endswith("\n" + opening) and block.count(opening) == 2


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(markup).failed == 0
