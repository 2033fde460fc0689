"""What the language server shows when a client's message cannot be handled, or a handler fails.

The editor shows a `window/showMessage` as a pop-up; pygls' default turns any exception of a
notification's handler (its own document-sync handlers' included) into one, "Error in server:
KeyError: 'file:///…'". Here: a notification before `initialize` is dropped (LSP: "notifications
should be dropped, except for the exit notification"), a change to a document never opened is
ignored and said once in the log, and an exception in any handler is one `window/logMessage` of
type Error that names the method and says it is a bug, after which the server goes on answering.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from civrules.lsp.transport import CivrulesProtocol
from tests.conftest import copy_files
from tests.core.test_lsp import CARDS, KEEP, Editor


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


def _shown(editor: Editor) -> list[dict[str, Any]]:
    return [m for m in editor.sent if m.get("method") == "window/showMessage"]


def _logged(editor: Editor) -> list[dict[str, Any]]:
    return [m["params"] for m in editor.sent if m.get("method") == "window/logMessage"]


def _hover(editor: Editor, uri: str) -> Any:
    return editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}})


def test_notifications_before_initialize_are_dropped(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")

    async def session() -> None:
        editor = Editor(rules)
        editor.open(uri, text)
        editor.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "x"}]}
        )
        editor.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri, "type": 2}]})
        editor.notify("initialized", {})
        assert editor.sent == []  # nothing shown, nothing logged: dropped
        assert not asyncio.all_tasks() - {asyncio.current_task()}  # and no validation scheduled

        editor.initialize(rules, {})
        await editor.settle()
        _hover(editor, uri)  # answered without an error: the session starts as usual, from the disk
        assert _shown(editor) == [] and not any(entry["type"] == 1 for entry in _logged(editor))

    asyncio.run(session())


def test_a_change_to_a_document_never_opened_is_ignored_and_said_once(rules: Path) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    unopened = (rules / "maps" / "nope.yaml").absolute().as_uri()

    async def session() -> None:
        editor = await Editor.started(rules)
        for version in (2, 3):
            change = {
                "range": {"start": {"line": 99, "character": 0}, "end": {"line": 100, "character": 0}},
                "text": "x",
            }
            editor.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": unopened, "version": version}, "contentChanges": [change]},
            )
        editor.notify("textDocument/didClose", {"textDocument": {"uri": unopened}})
        assert _shown(editor) == []
        (said,) = [entry for entry in _logged(editor) if "nope.yaml" in entry["message"]]
        assert said["type"] == 2 and "not opened" in said["message"] and "KeyError" not in said["message"]
        _hover(editor, uri)  # answered without an error: still answering

    asyncio.run(session())


@pytest.mark.parametrize("method", ["textDocument/didOpen", "textDocument/didSave", "workspace/didChangeWatchedFiles"])
def test_an_exception_in_a_notification_handler_is_a_log_line_naming_its_method(
    method: str, rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from civrules.lsp.server import CivrulesServer

    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    params: dict[str, dict[str, Any]] = {
        "textDocument/didOpen": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        "textDocument/didSave": {"textDocument": {"uri": uri}},
        "workspace/didChangeWatchedFiles": {"changes": [{"uri": uri, "type": 2}]},
    }

    def broken(self: CivrulesServer, *args: object) -> None:
        raise KeyError("file:///somewhere/secret.yaml")

    async def session() -> None:
        editor = await Editor.started(rules)
        monkeypatch.setattr(CivrulesServer, "changed", broken)
        monkeypatch.setattr(CivrulesServer, "schedule", broken)
        editor.notify(method, params[method])
        assert _shown(editor) == []  # no pop-up with a Python exception
        (logged,) = [entry for entry in _logged(editor) if entry["type"] == 1]
        assert f"internal error handling `{method}`" in logged["message"], logged
        assert "this is a bug in civrules" in logged["message"] and "Traceback" not in logged["message"]
        monkeypatch.undo()
        _hover(editor, uri)  # answered without an error: the server goes on

    asyncio.run(session())


def test_a_rule_file_whose_name_is_no_utf8_is_shown_at_its_uri(rules: Path) -> None:
    """Round 28's attacker: a file `cards/bad\\xff.yaml` (a name that is no UTF-8) in the rules
    folder ended every run of the server in an internal error, and no file's diagnostics were shown:
    pygls makes a URI of a name as UTF-8. Its diagnostics are published at `bad%FF.yaml`, and that
    URI, opened by the editor, names the file again: its text is what is checked."""
    bad = os.path.join(os.fsencode(rules / "cards"), b"bad\xff.yaml")
    with open(bad, "wb") as file:
        file.write(b"x: [\n")
    uri = (rules / "cards").absolute().as_uri() + "/bad%FF.yaml"

    async def session() -> None:
        editor = await Editor.started(rules)
        assert not any(entry["type"] == 1 for entry in _logged(editor)), _logged(editor)
        published = {
            m["params"]["uri"]: m["params"]["diagnostics"]
            for m in editor.sent
            if m.get("method") == "textDocument/publishDiagnostics"
        }
        assert [d["code"] for d in published[uri]] == ["L001"], published
        editor.sent.clear()
        editor.open(uri, "x: 1\n")
        await editor.settle()
        assert not any(entry["type"] == 1 for entry in _logged(editor)), _logged(editor)
        now = [m["params"] for m in editor.sent if m.get("method") == "textDocument/publishDiagnostics"]
        assert [[d["code"] for d in p["diagnostics"]] for p in now if p["uri"] == uri] == [["S005"]], now  # its text

    asyncio.run(session())


#: A URI `urllib.parse.urlsplit` refuses (ValueError "Invalid IPv6 URL"): its authority opens `[`.
UNSPLITTABLE = "http://[x/rules/cards/a.yaml"


def _raw(editor: Editor, message: dict[str, Any]) -> None:
    protocol = editor.server.protocol
    assert isinstance(protocol, CivrulesProtocol)
    protocol.handle_body(json.dumps({"jsonrpc": "2.0", **message}).encode())


def _answer(editor: Editor, msg_id: int) -> dict[str, Any]:
    (answer,) = [m for m in editor.sent if m.get("id") == msg_id and "method" not in m]
    return answer


def test_an_initialize_whose_root_is_no_uri_is_invalid_params_not_an_internal_error(rules: Path) -> None:
    editor = Editor(rules)
    _raw(
        editor,
        {"id": 101, "method": "initialize", "params": {"processId": None, "rootUri": UNSPLITTABLE, "capabilities": {}}},
    )
    error = _answer(editor, 101)["error"]
    assert error["code"] == -32602 and "`http://[x/rules/cards/a.yaml` is no URI" in error["message"], error
    # The editor may try again with a root that is one.
    editor.initialize(rules, {})


def test_a_document_whose_uri_is_no_uri_is_refused_at_the_door_not_reported_as_a_bug(rules: Path) -> None:
    async def session() -> None:
        editor = await Editor.started(rules)
        editor.sent.clear()
        item = {"uri": UNSPLITTABLE, "languageId": "yaml", "version": 1, "text": "id: x\n"}
        _raw(editor, {"method": "textDocument/didOpen", "params": {"textDocument": item}})
        _raw(editor, {"method": "textDocument/didOpen", "params": {"textDocument": item}})
        _raw(
            editor,
            {
                "id": 7,
                "method": "textDocument/hover",
                "params": {"textDocument": {"uri": UNSPLITTABLE}, "position": {"line": 0, "character": 0}},
            },
        )
        await editor.settle()
        said = [entry["message"] for entry in _logged(editor)]
        assert not [m for m in said if "internal error" in m], said
        (ignored,) = [m for m in said if "ignored `textDocument/didOpen`" in m]  # once, not at each
        assert "is no URI civrules can read" in ignored
        assert _answer(editor, 7)["error"]["code"] == -32602
        _hover(editor, (rules / CARDS).absolute().as_uri())  # still answering

    asyncio.run(session())


def test_an_error_quoting_what_the_client_sent_is_bounded(rules: Path) -> None:
    editor = Editor(rules)
    method = "\x1b[31m\n::error::x" + "y" * 100_000
    _raw(editor, {"id": 101, "method": method, "params": {}})  # before `initialize`
    editor.initialize(rules, {})
    _raw(editor, {"id": 102, "method": "shutdown"})
    _raw(editor, {"id": 103, "method": method, "params": {}})  # after `shutdown`
    for msg_id in (101, 103):
        message = _answer(editor, msg_id)["error"]["message"]
        assert len(message) <= 320 and "\n" not in message and "\x1b" not in message, message[:400]


def test_a_logged_uri_shows_its_invisible_characters(rules: Path) -> None:
    editor = Editor(rules)
    editor.initialize(rules, {})
    unopened = (rules / "maps" / "a\u200bb\u202e.yaml").absolute().as_uri().replace("%E2%80%8B", "\u200b")
    editor.notify(
        "textDocument/didChange", {"textDocument": {"uri": unopened, "version": 2}, "contentChanges": [{"text": "x"}]}
    )
    (said,) = [entry["message"] for entry in _logged(editor) if "ignored a change" in entry["message"]]
    assert "a\\u200bb" in said and "\u200b" not in said, said


#: Values a client may send where LSP says `integer | string` (a request's id to cancel, a progress
#: token, a diagnostic's code) that are neither: lsprotocol's converter passed them through unchecked.
NO_ID = [{"x": 1}, [1], 1.5, True]


def test_an_id_token_or_code_that_is_no_integer_or_string_is_invalid_params_not_a_bug(
    rules: Path, caplog: pytest.LogCaptureFixture
) -> None:
    uri = (rules / CARDS).absolute().as_uri()
    where = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}}
    editor = Editor(rules)
    editor.initialize(rules, {})
    editor.sent.clear()
    for number, value in enumerate(NO_ID):
        caplog.clear()
        _raw(editor, {"method": "$/cancelRequest", "params": {"id": value}})
        _raw(editor, {"method": "window/workDoneProgress/cancel", "params": {"token": value}})
        context = {"diagnostics": [{"range": where, "message": "m", "code": value}]}
        actions = {"textDocument": {"uri": uri}, "range": where, "context": context}
        _raw(editor, {"id": 10 + number, "method": "textDocument/codeAction", "params": actions})
        hover = {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}, "workDoneToken": value}
        _raw(editor, {"id": 20 + number, "method": "textDocument/hover", "params": hover})
        said = [entry["message"] for entry in _logged(editor)] + [record.getMessage() for record in caplog.records]
        assert not [m for m in said if "internal error" in m or "bug" in m], (value, said)
        for msg_id in (10 + number, 20 + number):
            error = _answer(editor, msg_id)["error"]
            assert error["code"] == -32602 and "expected an integer or a string" in error["message"], (value, error)
        ignored = [record.getMessage() for record in caplog.records if "ignored" in record.getMessage()]
        assert len(ignored) == 2 and all("expected an integer or a string" in m for m in ignored), (value, ignored)


def test_buffers_of_rule_files_not_on_disk_are_bounded_in_count(rules: Path) -> None:
    """An editor could open any number of URIs under rules/ for files that do not exist, all kept
    (round 33): those are counted with the documents outside the rules folder; a rule file on disk
    is kept whatever their number."""

    async def session() -> None:
        editor = Editor(rules)
        editor.server.max_outside = 3
        editor.initialize(rules, {})
        await editor.settle()
        documents = editor.server.workspace.text_documents
        uris = [(rules / "cards" / f"unsaved-{n}.yaml").absolute().as_uri() for n in range(6)]

        def open_(uri: str, text: str) -> None:
            item = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
            editor.notify("textDocument/didOpen", {"textDocument": item})

        for uri in uris:
            open_(uri, "kind: calamities\n")
        assert [uri in documents for uri in uris] == [True, True, True, False, False, False]
        dropped = [entry["message"] for entry in _logged(editor) if "did not keep" in entry["message"]]
        assert len(dropped) == 1 and "unsaved-3.yaml" in dropped[0], dropped
        # A rule file on disk, opened past the bound, is kept, and so is a change to a kept one.
        text = (rules / CARDS).read_text(encoding="utf-8")
        open_((rules / CARDS).absolute().as_uri(), text)
        assert documents[(rules / CARDS).absolute().as_uri()].source == text
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uris[0], "version": 2}, "contentChanges": [{"text": "kind: map\n"}]},
        )
        assert documents[uris[0]].source == "kind: map\n"
        # A closed one leaves its place to another.
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uris[1]}})
        open_(uris[4], "kind: map\n")
        assert uris[4] in documents
        # Below a file (or a FIFO) no rule file is on disk either: counted, not kept past the bound.
        below = [(rules / CARDS / f"n{n}.yaml").absolute().as_uri() for n in range(3)]
        for uri in below:
            open_(uri, "kind: map\n")
        assert not any(uri in documents for uri in below)
        await editor.settle()

    asyncio.run(session())


def test_buffers_outside_the_rules_folder_are_bounded_in_count_and_bytes(rules: Path, tmp_path: Path) -> None:
    """pygls keeps every buffer an editor opens; those of no rule file were kept whole and without
    number (round 33: 10,000 documents of 8 MB each, all held). Now at most `max_outside` of them,
    each within the limits' `max_bytes`: one too large is kept empty, with an L007 on it."""
    from civrules.load import Limits

    async def session() -> None:
        editor = Editor(rules)
        editor.server.limits = Limits(max_bytes=1_000)
        editor.server.max_outside = 3
        editor.initialize(rules, {})
        await editor.settle()
        uris = [(tmp_path / f"notes-{n}.md").absolute().as_uri() for n in range(5)]

        def open_(uri: str, text: str) -> None:
            item = {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
            editor.notify("textDocument/didOpen", {"textDocument": item})

        def published(uri: str) -> list[Any]:
            return [
                m["params"]["diagnostics"]
                for m in editor.sent
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ]

        documents = editor.server.workspace.text_documents
        open_(uris[0], "small")
        open_(uris[1], "é" * 600)  # 1,200 bytes in UTF-8: over the bound
        assert documents[uris[1]].source == ""
        ((too_large,),) = published(uris[1])
        assert too_large["code"] == "L007" and "1,200 bytes, more than the 1,000" in too_large["message"]
        assert "\nhint: " in too_large["message"]
        open_(uris[2], "x" * 1_000)
        open_(uris[3], "dropped")  # the fourth outside the rules folder
        open_(uris[4], "dropped too")
        assert uris[3] not in documents and uris[4] not in documents
        dropped = [entry["message"] for entry in _logged(editor) if "did not keep" in entry["message"]]
        assert len(dropped) == 1 and "notes-3.md" in dropped[0], dropped
        kept = sum(len(documents[uri].source.encode()) for uri in uris if uri in documents)
        assert kept <= 3 * 1_000

        # The whole text within the bound is kept again, and the L007 cleared.
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uris[1], "version": 2}, "contentChanges": [{"text": "short"}]},
        )
        assert documents[uris[1]].source == "short" and published(uris[1])[-1] == []
        # A closed one leaves its place to another.
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uris[0]}})
        open_(uris[3], "now kept")
        assert documents[uris[3]].source == "now kept"
        # The rule files' buffers are not counted among them.
        text = (rules / CARDS).read_text(encoding="utf-8")
        open_((rules / CARDS).absolute().as_uri(), text)
        assert documents[(rules / CARDS).absolute().as_uri()].source == text
        await editor.settle()
        assert not any(entry["type"] == 1 for entry in _logged(editor))

    asyncio.run(session())


def test_a_notebook_a_client_opens_is_not_kept(rules: Path) -> None:
    """The server offers no notebook sync, yet pygls kept every cell of a notebook a client
    opened, none bounded (round 33: 50 notebooks of 100 cells of 10 kB, 50 MB held): notebook
    notifications are ignored, said once."""

    async def session() -> None:
        editor = Editor(rules)
        capabilities = editor.initialize(rules, {})
        assert "notebookDocumentSync" not in capabilities
        await editor.settle()
        for n in range(3):
            cells = [f"file:///tmp/nb{n}.ipynb#c{j}" for j in range(20)]
            editor.notify(
                "notebookDocument/didOpen",
                {
                    "notebookDocument": {
                        "uri": f"file:///tmp/nb{n}.ipynb",
                        "notebookType": "jupyter",
                        "version": 1,
                        "cells": [{"kind": 2, "document": cell} for cell in cells],
                    },
                    "cellTextDocuments": [
                        {"uri": cell, "languageId": "python", "version": 1, "text": "x" * 1_000} for cell in cells
                    ],
                },
            )
        workspace = editor.server.workspace
        assert not workspace.text_documents and not workspace._notebook_documents
        said = [entry["message"] for entry in _logged(editor) if "notebook" in entry["message"]]
        assert len(said) == 1 and "synchronises no notebooks" in said[0], said

    asyncio.run(session())


def test_a_uri_holding_a_lone_surrogate_names_no_file_and_fails_nothing(rules: Path) -> None:
    """JSON lets a client send `"\\ud800"` inside a URI (no URI holds it: URIs are ASCII): reading
    its path encoded it, and didOpen, didSave, hover and definition each ended in an internal
    error (-32603, "UnicodeEncodeError ... surrogates not allowed") (round 34). It names no file:
    the document is one outside the rules folder, and every request is answered."""

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        await editor.settle()
        uri = (rules / "cards").absolute().as_uri() + "/\ud800.yaml"
        item = {"uri": uri, "languageId": "yaml", "version": 1, "text": "kind: civilization_cards\ncards: [\n"}
        editor.notify("textDocument/didOpen", {"textDocument": item})
        await editor.settle()
        at = {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}
        assert editor.request("textDocument/hover", at) is None
        assert editor.request("textDocument/definition", at) in (None, [])
        editor.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await editor.settle()
        assert not [entry for entry in _logged(editor) if "internal error" in entry["message"]], _logged(editor)

    asyncio.run(session())


def test_a_hundred_workspace_folders_without_rules_make_a_pop_up_of_a_few_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no workspace folder holds the rules folder, the pop-up said why of each one the client
    sent: 1,000 folders made a message of 43,000 characters. It names three and counts the rest."""
    folders = [{"uri": (tmp_path / f"f{n:03}").as_uri(), "name": f"f{n}"} for n in range(100)]
    monkeypatch.chdir(tmp_path)  # no `rules` in the directory the server started in either: 101 places

    async def session() -> Editor:
        editor = Editor(Path("rules"))
        initialize: dict[str, Any] = {
            "processId": None,
            "rootUri": None,
            "capabilities": {},
            "workspaceFolders": folders,
        }
        editor.request("initialize", initialize)
        editor.notify("initialized", {})
        await editor.settle()
        return editor

    (shown,) = [m["params"]["message"] for m in _shown(asyncio.run(session()))]
    assert f"`{tmp_path / 'f002' / 'rules'}`: no such folder; and 98 other places like them (hint:" in shown
    assert len(shown) < 1_000, len(shown)
