"""Where `civrules lsp` finds the rules folder, and what the editor is told when it finds none.

docs/editors.md: "a relative `--rules` is looked for in the editor's workspace folder first, then in
the directory the server was started in". Editors often start a server in another directory than
the project's (Neovim's `cmd` runs in Neovim's), so the folder is looked for at `initialize`, not
before: standard output is the protocol's channel, and a problem reaches the editor as a message.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_files
from tests.core.test_lsp import CARDS, HANG_GUARD, KEEP, Editor


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _frames(output: bytes) -> list[dict[str, Any]]:
    """Every message of ``output``, which must be JSON-RPC frames and nothing else."""
    found = []
    while output:
        header, separator, rest = output.partition(b"\r\n\r\n")
        assert separator, f"not a JSON-RPC frame: {output[:200]!r}"
        fields = dict(line.split(b": ", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        found.append(json.loads(rest[:length]))
        output = rest[length:]
    return found


@pytest.mark.parametrize(
    "arguments",
    # The default `--rules` in `make test`; the same relative folder written out in `make test-slow`
    # (one server process each: the path that resolves them is the same).
    [
        pytest.param(["lsp"], id="default"),
        pytest.param(["--rules", "rules", "lsp"], id="written", marks=pytest.mark.slow),
    ],
)
def test_a_server_started_outside_the_project_finds_rules_in_the_workspace_folder(
    tmp_path: Path, arguments: list[str]
) -> None:
    workspace = tmp_path / "project"
    copy_files(workspace / "rules", KEEP)
    elsewhere = tmp_path / "elsewhere"  # where the editor started the server: no rules/ there
    elsewhere.mkdir()
    uri = (workspace / "rules" / CARDS).as_uri()
    session: list[dict[str, Any]] = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}},
        },
        {"method": "initialized", "params": {}},
        # Answered from the first validation, which publishes the diagnostics of every file.
        {
            "id": 2,
            "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
        },
        {"id": 3, "method": "shutdown"},
        {"method": "exit"},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "civrules", *arguments],
        cwd=elsewhere,
        input=b"".join(_frame(message) for message in session),
        capture_output=True,
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 0, done
    messages = _frames(done.stdout)  # nothing but the protocol on standard output
    answers = {message["id"]: message for message in messages if "id" in message and "method" not in message}
    assert "error" not in answers[1] and "capabilities" in answers[1]["result"]
    published = {m["params"]["uri"] for m in messages if m.get("method") == "textDocument/publishDiagnostics"}
    assert published and all(one.startswith(f"{(workspace / 'rules').as_uri()}/") for one in published)
    assert not [m for m in messages if m.get("method") == "window/showMessage"]


def test_no_rules_folder_anywhere_is_said_to_the_editor_once_and_the_server_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    workspace.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    uri = (workspace / "rules" / CARDS).as_uri()

    async def session() -> None:
        editor = Editor(Path("rules"))
        editor.request("initialize", {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}})
        editor.notify("initialized", {})
        await editor.settle()
        hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
        assert editor.request("textDocument/hover", hover) is None  # still answering
        await editor.settle()
        (shown,) = [m["params"] for m in editor.sent if m.get("method") == "window/showMessage"]
        assert shown["type"] == 1 and "error[R004]: no rules folder" in shown["message"], shown
        assert f"`{workspace / 'rules'}`: no such folder" in shown["message"]
        assert f"`{elsewhere / 'rules'}`: no such folder" in shown["message"]
        assert "hint: open the project folder" in shown["message"]
        assert "`civrules init` in the workspace folder starts a rule-data repository" in shown["message"]

        absolute = Editor(tmp_path / "missing")  # an absolute --rules is looked for there alone
        absolute.request("initialize", {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}})
        absolute.notify("initialized", {})
        await absolute.settle()
        (shown,) = [m["params"] for m in absolute.sent if m.get("method") == "window/showMessage"]
        assert f"no rules folder to check: `{tmp_path / 'missing'}`: no such folder (hint:" in shown["message"]

    asyncio.run(session())


def test_a_folder_of_rules_that_cannot_be_listed_is_said_to_the_editor_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.security.test_unreadable import refuse

    rules = copy_files(tmp_path / "rules", KEEP)
    (rules / "maps" / "locked").mkdir()
    refuse(monkeypatch, rules / "maps" / "locked")

    async def session() -> None:
        editor = await Editor.started(rules)
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (rules / CARDS).as_uri(), "type": 2}]})
        await editor.settle()  # a second validation: what was said is not said again
        (shown,) = [m["params"] for m in editor.sent if m.get("method") == "window/showMessage"]
        assert "error[L012]: cannot list the folder" in shown["message"] and "maps/locked" in shown["message"], shown
        assert "permission" in shown["message"]

    asyncio.run(session())


def _workspace(tmp_path: Path, name: str, typo: str | None) -> Path:
    """A project folder holding rules/, its cards file with ``typo`` for `cost` on disk (an S002)."""
    rules = copy_files(tmp_path / name / "rules", KEEP)
    if typo is not None:
        cards = rules / CARDS
        cards.write_text(cards.read_text(encoding="utf-8").replace("    cost: 45\n", f"    {typo}: 45\n", 1), "utf-8")
    return tmp_path / name


def _folder(path: Path) -> dict[str, str]:
    return {"uri": path.as_uri(), "name": path.name}


def _unknown_keys(editor: Editor, uri: str) -> list[str] | None:
    """The keys of the S002 diagnostics last published for ``uri`` (None: nothing published)."""
    published = [
        m["params"]["diagnostics"]
        for m in editor.sent
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]
    if not published:
        return None
    return sorted(d["message"].split("`")[1] for d in published[-1] if d["code"] == "S002")


def test_the_rules_folder_is_looked_for_in_the_workspace_folders_when_root_uri_is_null(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LSP 3.17 deprecates `rootUri` for `workspaceFolders`: with `rootUri: null` the server looked
    only in its own directory (R004 naming it) and published nothing."""
    project = _workspace(tmp_path, "project", "cots")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    async def session() -> None:
        editor = Editor(Path("rules"))
        editor.request(
            "initialize",
            {"processId": None, "rootUri": None, "workspaceFolders": [_folder(project)], "capabilities": {}},
        )
        editor.notify("initialized", {})
        await editor.settle()
        assert not [m for m in editor.sent if m.get("method") == "window/showMessage"]
        assert _unknown_keys(editor, (project / "rules" / CARDS).as_uri()) == ["cots"]

    asyncio.run(session())


def test_every_workspace_folder_holding_rules_is_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workspace folders, each with its rules/: each is validated on its own, a buffer of
    each is read by its own folder's session, and a request is answered from the folder of its
    file. The second folder was never served, and nothing said so."""
    first, second = _workspace(tmp_path, "first", "cots"), _workspace(tmp_path, "first/second", "cotz")
    monkeypatch.chdir(tmp_path)
    first_cards, second_cards = (first / "rules" / CARDS).as_uri(), (second / "rules" / CARDS).as_uri()

    async def session() -> None:
        editor = Editor(Path("rules"))
        editor.request(
            "initialize",
            {
                "processId": None,
                "rootUri": first.as_uri(),
                "workspaceFolders": [_folder(first), _folder(second)],
                "capabilities": {},
            },
        )
        editor.notify("initialized", {})
        await editor.settle()
        assert not [m for m in editor.sent if m.get("method") == "window/showMessage"]
        assert _unknown_keys(editor, first_cards) == ["cots"]
        assert _unknown_keys(editor, second_cards) == ["cotz"]
        # A buffer of the second folder: checked by its session, the first folder's left as it was.
        text = (second / "rules" / CARDS).read_text(encoding="utf-8").replace("    cotz: 45\n", "    cost: 45\n", 1)
        editor.open(second_cards, text)
        await editor.settle()
        assert _unknown_keys(editor, second_cards) == []
        assert _unknown_keys(editor, first_cards) == ["cots"]
        # A hover in each folder's file describes the id as that folder has it.
        at = text.index("id: pottery") + len("id: p")
        place = {"line": text.count("\n", 0, at), "character": at - text.rfind("\n", 0, at) - 1}
        for uri in (first_cards, second_cards):
            hover = editor.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": place})
            assert hover is not None and "pottery" in hover["contents"]["value"], uri

    asyncio.run(session())


def test_workspace_folders_added_and_removed_start_and_stop_their_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`workspace.workspaceFolders.changeNotifications` is advertised: a folder added where no
    rules folder was found starts one, and a folder removed stops it (its diagnostics cleared)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    project = _workspace(tmp_path, "project", "cots")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cards = (project / "rules" / CARDS).as_uri()

    async def session() -> None:
        editor = Editor(Path("rules"))
        found = editor.request(
            "initialize", {"processId": None, "rootUri": None, "workspaceFolders": [_folder(empty)], "capabilities": {}}
        )
        assert found["capabilities"]["workspace"]["workspaceFolders"]["changeNotifications"] is True
        editor.notify("initialized", {})
        await editor.settle()
        (shown,) = [m["params"] for m in editor.sent if m.get("method") == "window/showMessage"]
        assert "R004" in shown["message"] and f"`{empty / 'rules'}`: no such folder" in shown["message"]
        assert _unknown_keys(editor, cards) is None

        editor.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [_folder(project)], "removed": []}})
        await editor.settle()
        assert _unknown_keys(editor, cards) == ["cots"]
        assert len([m for m in editor.sent if m.get("method") == "window/showMessage"]) == 1

        editor.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [_folder(project)]}})
        await editor.settle()
        assert _unknown_keys(editor, cards) == []  # cleared: the folder is no longer the editor's
        hover = {"textDocument": {"uri": cards}, "position": {"line": 0, "character": 0}}
        assert editor.request("textDocument/hover", hover) is None

    asyncio.run(session())


def test_a_removed_folder_is_not_served_again_as_the_start_rooturi_when_none_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor names its first folder as `rootUri` at the start and never updates it: once every
    folder is removed, that folder (closed already) was served again and its problems came back."""
    first = _workspace(tmp_path, "first", "cots")
    second = _workspace(tmp_path, "second", "cotz")
    monkeypatch.chdir(tmp_path)
    first_cards, second_cards = (first / "rules" / CARDS).as_uri(), (second / "rules" / CARDS).as_uri()

    async def session() -> None:
        editor = Editor(Path("rules"))
        start = {"rootUri": first.as_uri(), "workspaceFolders": [_folder(first), _folder(second)]}
        editor.request("initialize", {"processId": None, **start, "capabilities": {}})
        editor.notify("initialized", {})
        await editor.settle()
        assert _unknown_keys(editor, first_cards) == ["cots"] and _unknown_keys(editor, second_cards) == ["cotz"]
        for gone in (first, second):
            editor.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [_folder(gone)]}})
            await editor.settle()
        assert _unknown_keys(editor, first_cards) == [] and _unknown_keys(editor, second_cards) == []

    asyncio.run(session())


@pytest.mark.slow  # three validations of a small tree: about 2 s, over the fast suite's share for one test
def test_a_rules_folder_renamed_while_open_is_said_missing_and_served_again_when_back(tmp_path: Path) -> None:
    """The designer renames (or deletes) the rules folder while a file of it is open: the server said
    nothing of the folder, and checked the open buffer alone, "not used by any ruleset" (R005). It
    now says the folder is not there, as at the start, and publishes nothing for its buffers; once
    the folder is back, the buffer is read from the editor and checked with its rulesets again."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8").replace("colour: blue", "colour: blu", 1)
    moved = tmp_path / "renamed"

    def codes(editor: Editor) -> list[str]:
        return sorted(d["code"] for d in editor.diagnostics(uri))

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        assert codes(editor) == ["S003"]

        rules.rename(moved)
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri, "type": 3}]})
        await editor.settle()
        assert codes(editor) == []
        (shown,) = [m["params"] for m in editor.sent if m.get("method") == "window/showMessage"]
        assert f"error[R004]: no rules folder to check: `{rules}`: no such folder" in shown["message"], shown
        # Typing on in the buffer of the missing folder says nothing more, and publishes nothing.
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text + "\n"}]},
        )
        await editor.settle()
        assert codes(editor) == []
        assert len([m for m in editor.sent if m.get("method") == "window/showMessage"]) == 1

        moved.rename(rules)  # back, told by the next change (an editor that watches no files)
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]},
        )
        await editor.settle()
        assert codes(editor) == ["S003"]

    asyncio.run(session())


def _file_system_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every `stat` and `lstat` made from now on (a probe of a folder, or a step of resolving a
    path), by the path it asked about: counted, never timed."""
    import os

    asked: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(path: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            asked.append(str(path))
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    return asked


def _calls_per_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, served: int) -> tuple[int, int, int]:
    """The stats and lstats of one workspace folder added, one removed, and one keystroke, with
    ``served`` workspace folders holding rules/ (empty: nothing to validate) and as many without."""
    with_rules = [tmp_path / str(served) / f"with{n}" for n in range(served)]
    without = [tmp_path / str(served) / f"without{n}" for n in range(served)]
    for root in with_rules:
        (root / "rules" / "cards").mkdir(parents=True)
    for root in without:
        root.mkdir(parents=True)
    added = tmp_path / str(served) / "added"
    (added / "rules").mkdir(parents=True)
    uri = (with_rules[0] / "rules" / "cards" / "new.yaml").as_uri()
    counts: list[int] = []

    async def session() -> None:
        editor = Editor(Path("rules"))
        folders = [_folder(root) for root in with_rules + without]
        editor.request(
            "initialize", {"processId": None, "rootUri": None, "workspaceFolders": folders, "capabilities": {}}
        )
        editor.notify("initialized", {})
        editor.open(uri, "kind: cards\n")  # no validation is let run: only what a change costs is counted
        with monkeypatch.context() as patched:
            asked = _file_system_calls(patched)
            editor.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [_folder(added)], "removed": []}})
            counts.append(len(asked))
            editor.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [_folder(added)]}})
            counts.append(len(asked) - counts[0])
            editor.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "kind: cards\n\n"}]},
            )
            counts.append(len(asked) - sum(counts))
        assert len(editor.server.folders) == served

    asyncio.run(session())
    return counts[0], counts[1], counts[2]


def test_a_workspace_folder_change_and_a_keystroke_probe_in_proportion_to_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder added or removed probed every workspace folder again (whether it holds rules/, and
    each served folder's real path): at 1,000 folders, about 40 ms of CPU a change. A keystroke
    stated every folder served. Now each costs the same with 3 times as many folders."""
    assert _calls_per_change(tmp_path, monkeypatch, 12) == _calls_per_change(tmp_path, monkeypatch, 4)


def test_a_rules_folder_created_in_a_workspace_folder_is_served_once_a_file_of_it_is_named(tmp_path: Path) -> None:
    """A workspace folder is probed once, when it is added: a rules folder created in it later is
    found when the editor names a file under it (one opened, or a watcher's event), and only that
    workspace folder is probed again."""
    served, later = tmp_path / "served", tmp_path / "later"
    (served / "rules").mkdir(parents=True)
    later.mkdir()

    async def session() -> None:
        editor = Editor(Path("rules"))
        folders = [_folder(served), _folder(later)]
        editor.request(
            "initialize", {"processId": None, "rootUri": None, "workspaceFolders": folders, "capabilities": {}}
        )
        editor.notify("initialized", {})
        assert [folder.rules for folder in editor.server.folders] == [served / "rules"]
        (later / "rules" / "cards").mkdir(parents=True)
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": (later / "rules").as_uri(), "type": 1}]})
        assert [folder.rules for folder in editor.server.folders] == [served / "rules", later / "rules"]

    asyncio.run(session())
