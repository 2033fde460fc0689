"""Round 19 (designer audit, defect 2): a request is answered against the buffers as the changes
before it left them, never from a validation of older text with the new text's positions.

A request sent right after a `didChange` (before the debounced validation ran) was answered from
the last result published: a hover, a definition or a rename at the new position of `tripolitania`
named the id the old text had there (a rename rewrote it in every file, and garbled the edited
line), and after a syntax fix every request answered null. Each test here sends the change and the
request in one turn of the server's loop (as queued input), so no validation can run between them
but the one the request itself needs: no sleep, no timing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_files
from tests.security.test_lsp_responsiveness import KEEP, Editor, change

VARIANT = "rulesets/advanced-civilization-western.yaml"
MAP = "maps/mediterranean.yaml"
CARDS = "cards/advanced-civilization.yaml"
#: The variant's line that names `tripolitania`; the line before it names `sahara`, the one after `tunisia_2`.
TRIPOLITANIA = "      - {id: tripolitania, start_nation: africa, "  # the start of its line


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """Advanced Civilization without its variant: the tests of the cards file alone validate less."""
    return copy_files(tmp_path / "rules", set(KEEP) - {VARIANT, "maps/western-panel.yaml"})


def uri_of(rules: Path, relative: str) -> str:
    return (rules / relative).absolute().as_uri()


def position(text: str, needle: str, offset: int = 0) -> dict[str, int]:
    """The LSP position of ``offset`` characters into the first ``needle`` of ``text`` (ASCII text)."""
    at = text.index(needle) + offset
    return {"line": text.count("\n", 0, at), "character": at - text.rfind("\n", 0, at) - 1}


def written(text: str, rng: dict[str, Any]) -> str:
    """What ``text`` holds in the one-line LSP range ``rng``."""
    assert rng["start"]["line"] == rng["end"]["line"], rng
    line: str = text.split("\n")[rng["start"]["line"]]
    start: int = rng["start"]["character"]
    end: int = rng["end"]["character"]
    return line[start:end]


def shifted(text: str) -> str:
    """The variant with a comment line above `tripolitania`'s: where it is now, `tunisia_2` was."""
    assert text.count(TRIPOLITANIA) == 1
    return text.replace(TRIPOLITANIA, "      # Tripolitania: Africa starts here with the panel too.\n" + TRIPOLITANIA)


def run(rules: Path, body: Callable[[Editor], Coroutine[Any, Any, None]], opened: tuple[str, ...]) -> None:
    """Start a server on ``rules``, open ``opened`` and let it validate them, then run ``body``."""

    async def session() -> None:
        editor = Editor(rules)
        await editor.start(rules)
        for relative in opened:
            text = (rules / relative).read_text(encoding="utf-8")
            editor.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri_of(rules, relative), "languageId": "yaml", "version": 1, "text": text}},
            )
        await editor.settle()
        await body(editor)
        await editor.settle()

    asyncio.run(session())


def test_hover_and_definition_right_after_a_change_answer_for_the_new_text(rules: Path) -> None:
    uri = uri_of(rules, VARIANT)
    text = shifted((rules / VARIANT).read_text(encoding="utf-8"))
    where = position(text, "{id: tripolitania", len("{id: t"))
    map_text = (rules / MAP).read_text(encoding="utf-8")

    async def body(editor: Editor) -> None:
        change(editor, uri, 2, text)
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": where})
        assert hover is not None and "tripolitania" in hover["contents"]["value"].lower()
        assert "tunisia" not in hover["contents"]["value"].lower()
        change(editor, uri, 3, text + "\n")
        found = editor.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": where})
        assert found is not None
        assert [(f["uri"], written(map_text, f["range"])) for f in found] == [(uri_of(rules, MAP), "tripolitania")]

    run(rules, body, (VARIANT,))


def test_references_and_rename_right_after_a_change_name_the_id_under_the_cursor(rules: Path) -> None:
    uri = uri_of(rules, VARIANT)
    text = shifted((rules / VARIANT).read_text(encoding="utf-8"))
    where = position(text, "{id: tripolitania", len("{id: t"))
    texts = {uri: text, uri_of(rules, MAP): (rules / MAP).read_text(encoding="utf-8")}

    async def body(editor: Editor) -> None:
        change(editor, uri, 2, text)
        prepared = editor.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": where})
        assert prepared["placeholder"] == "tripolitania" and written(text, prepared["range"]) == "tripolitania"
        change(editor, uri, 3, text + "\n")
        found = editor.request(
            "textDocument/references",
            {"textDocument": {"uri": uri}, "position": where, "context": {"includeDeclaration": True}},
        )
        assert found and {written(texts[f["uri"]], f["range"]) for f in found} == {"tripolitania"}
        assert uri in {f["uri"] for f in found}
        change(editor, uri, 4, text)
        edit = editor.request(
            "textDocument/rename", {"textDocument": {"uri": uri}, "position": where, "newName": "tripolitania_x"}
        )
        assert edit is not None and set(edit["changes"]) == set(texts)
        # Every range replaced holds the id renamed, in the buffer as it is now: nothing else is garbled.
        for changed, edits in edit["changes"].items():
            assert {written(texts[changed], e["range"]) for e in edits} == {"tripolitania"}, changed

    run(rules, body, (VARIANT,))


def test_document_symbols_right_after_a_change_are_placed_in_the_new_text(base: Path) -> None:
    rules = base
    uri = uri_of(rules, CARDS)
    text = "# a line above everything: every entity moves down one line\n" + (rules / CARDS).read_text(encoding="utf-8")

    async def body(editor: Editor) -> None:
        change(editor, uri, 2, text)
        outline = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        cards = [entity for entity in outline or () if entity.get("containerName") == "cards"]
        assert "pottery" in {entity["name"] for entity in cards}
        lines = text.split("\n")
        for entity in cards:  # each entity's range starts at its item, in the text as it is now
            assert lines[entity["location"]["range"]["start"]["line"]].strip() == f"- id: {entity['name']}"

    run(rules, body, (CARDS,))


def test_requests_right_after_a_syntax_fix_answer(base: Path) -> None:
    rules = base
    uri = uri_of(rules, CARDS)
    good = (rules / CARDS).read_text(encoding="utf-8")
    broken = good.replace("  - id: pottery\n", "  - id: [pottery\n", 1)
    where = position(good, "- id: pottery", len("- id: p"))
    credit = position(good, "{card: democracy", len("{card: d"))

    async def body(editor: Editor) -> None:
        change(editor, uri, 2, broken)
        await editor.settle()  # the syntax error is what was last published
        assert any(d["code"] == "L001" for d in editor.published(uri)[-1])
        change(editor, uri, 3, good)
        assert editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": where})
        assert hover is not None and "Pottery" in hover["contents"]["value"]
        found = editor.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": credit})
        assert found and [written(good, f["range"]) for f in found] == ["democracy"]

    run(rules, body, (CARDS,))


def test_a_quick_fix_for_a_client_that_drops_data_matches_the_diagnostic_where_it_moved(rules: Path) -> None:
    """A client that sends a diagnostic back without its data, after an edit moved it: the
    diagnostic is looked up among those of the text as it is, not of the text before the edit."""
    uri = uri_of(rules, VARIANT)
    original = (rules / VARIANT).read_text(encoding="utf-8")
    misspelt = original.replace("{id: tripolitania,", "{id: tripolitana,", 1)
    moved = misspelt.replace("      - {id: tripolitana,", "      # moved down\n      - {id: tripolitana,", 1)

    async def body(editor: Editor) -> None:
        change(editor, uri, 2, misspelt)
        await editor.settle()
        (sent,) = [d for d in editor.published(uri)[-1] if d["data"]["suggestion"] == "tripolitania"]
        change(editor, uri, 3, moved)
        # The editor moved the diagnostic down with its line, and sends it back without `data`.
        rng = {
            "start": {**sent["range"]["start"], "line": sent["range"]["start"]["line"] + 1},
            "end": {**sent["range"]["end"], "line": sent["range"]["end"]["line"] + 1},
        }
        assert written(moved, rng) == "tripolitana"
        back = {"range": rng, "message": sent["message"], "code": sent["code"], "source": "civrules"}
        actions = editor.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": rng, "context": {"diagnostics": [back]}},
        )
        assert actions and actions[0]["edit"]["changes"][uri][0]["newText"] == "tripolitania"

    run(rules, body, (VARIANT,))


def test_completion_right_after_a_change_says_its_ids_may_be_incomplete(rules: Path) -> None:
    """Completion is answered at once while typing (it reads no position from the last result,
    only the ids it offers): until the change is validated, the list says it is incomplete, so
    the editor asks again as the designer types on."""
    uri = uri_of(rules, VARIANT)
    text = (rules / VARIANT).read_text(encoding="utf-8")
    typed = text.replace("{id: sahara, start_nation: africa,", "{id: sahara, start_nation: ,", 1)
    assert typed != text
    where = position(typed, "start_nation: ,", len("start_nation: "))

    async def body(editor: Editor) -> None:
        runs = editor.server.runs
        change(editor, uri, 2, typed)
        answer = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": where})
        assert answer["isIncomplete"] is True and "africa" in {item["label"] for item in answer["items"]}
        assert editor.server.runs == runs  # answered without validating the change first
        await editor.settle()
        answer = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": where})
        assert answer["isIncomplete"] is False and "africa" in {item["label"] for item in answer["items"]}

    run(rules, body, (VARIANT,))


def test_a_rename_reads_again_a_file_changed_on_disk_unannounced(rules: Path) -> None:
    """A rename edits a file the editor has not open as it is on disk: one another program changed
    since it was read (with no `didChangeWatchedFiles`) is read again before the rename is made."""
    uri = uri_of(rules, VARIANT)
    text = (rules / VARIANT).read_text(encoding="utf-8")
    where = position(text, "{id: tripolitania", len("{id: t"))
    map_text = "# a line written by another program\n" + (rules / MAP).read_text(encoding="utf-8")

    async def body(editor: Editor) -> None:
        (rules / MAP).write_text(map_text, encoding="utf-8")
        edit = editor.request(
            "textDocument/rename", {"textDocument": {"uri": uri}, "position": where, "newName": "tripolitania_x"}
        )
        texts = {uri: text, uri_of(rules, MAP): map_text}
        assert set(edit["changes"]) == set(texts)
        for changed, edits in edit["changes"].items():
            assert {written(texts[changed], e["range"]) for e in edits} == {"tripolitania"}, changed

    run(rules, body, (VARIANT,))


def test_a_rename_is_refused_where_a_file_keeps_changing_on_disk(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a file still differs from its reading after it is read again, the rename is refused
    with LSP's ContentModified, never made from the older reading."""
    from civrules.pipeline.incremental import Session

    uri = uri_of(rules, VARIANT)
    text = (rules / VARIANT).read_text(encoding="utf-8")
    where = position(text, "{id: tripolitania", len("{id: t"))

    async def body(editor: Editor) -> None:
        monkeypatch.setattr(Session, "unchanged", lambda self, result, relative: relative != MAP)
        editor.next_id += 1
        params = {"textDocument": {"uri": uri}, "position": where, "newName": "tripolitania_x"}
        editor.protocol.handle_body(
            json.dumps(
                {"jsonrpc": "2.0", "id": editor.next_id, "method": "textDocument/rename", "params": params}
            ).encode()
        )
        (answer,) = [m for m in editor.sent if m.get("id") == editor.next_id and "method" not in m]
        assert answer["error"]["code"] == -32801 and MAP in answer["error"]["message"], answer

    run(rules, body, (VARIANT,))
