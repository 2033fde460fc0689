"""Round 33's editor trial: a designer's session in `civrules lsp`, driven in this process.

Each case is one thing an editor user does that the earlier trials did not: completion inside a
flow mapping, a file deleted outside the editor, line endings of two kinds in one buffer, a
restart of the server with buffers unsaved, a code action asked over two diagnostics at once, a
rename in one of two projects open side by side, and the requests the server does not serve.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from civrules.pipeline.incremental import full_run
from tests.core.test_lsp import TINY, TINY_CARDS, Editor, completion_labels

MANIFEST = "rulesets/tiny.yaml"


def _tiny(root: Path) -> Path:
    for relative, text in TINY.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


def _at(text: str, needle: str, offset: int = 0) -> dict[str, int]:
    """The LSP position of ``needle`` (plus ``offset``) in ``text``, any line ending a line's end."""
    at = text.index(needle) + offset
    before = text[:at].replace("\r\n", "\n").replace("\r", "\n")
    return {"line": before.count("\n"), "character": len(before) - before.rfind("\n") - 1}


def _codes(editor: Editor, uri: str) -> list[tuple[str, int]]:
    return sorted((d["code"], d["range"]["start"]["line"]) for d in editor.diagnostics(uri))


def test_completion_inside_a_flow_mapping_offers_the_ids_of_the_field(tmp_path: Path) -> None:
    """`- {card: d|, points: 10}`: the credit's card, written inside braces, is completed from
    the cards as it is in block style."""
    rules = _tiny(tmp_path / "rules")
    uri = (rules / TINY_CARDS).absolute().as_uri()
    text = TINY[TINY_CARDS].replace("{card: democracy,", "{card: d,", 1)

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        offered = completion_labels(editor, uri, _at(text, "{card: d,", len("{card: d")))
        assert "democracy" in offered and "pottery" in offered, offered

    asyncio.run(session())


def test_a_file_deleted_outside_the_editor_is_said_unreadable_where_it_is_named(tmp_path: Path) -> None:
    """The cards file deleted by `git checkout` or a file manager (never opened): the watched-file
    notification checks again, the manifest's path to it is L012, and what was published for the
    file itself is cleared, as `validate` no longer names it."""
    rules = _tiny(tmp_path / "rules")
    cards, manifest = (rules / TINY_CARDS).absolute().as_uri(), (rules / MANIFEST).absolute().as_uri()

    async def session() -> None:
        editor = await Editor.started(rules)
        assert editor.diagnostics(cards)  # the tiny cards lack keys: S004s
        (rules / TINY_CARDS).unlink()
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": cards, "type": 3}]})
        await editor.settle()
        assert editor.diagnostics(cards) == []
        said = [d for d in editor.diagnostics(manifest) if d["code"] == "L012"]
        assert len(said) == 1 and "cards/tiny.yaml" in said[0]["message"], said
        full = [d for d in full_run(rules, {}) if d.code == "L012"]
        assert [d.message for d in full] == [said[0]["message"].split("\nhint: ")[0]]

    asyncio.run(session())


def test_a_buffer_of_mixed_line_endings_is_placed_line_by_line_as_validate_places_it(tmp_path: Path) -> None:
    """A file pasted together from Windows and Unix sources: CRLF lines, then LF lines (and a lone
    CR, an old Mac's). A diagnostic is on the line the editor shows, as `validate` counts it."""
    rules = _tiny(tmp_path / "rules")
    uri = (rules / TINY_CARDS).absolute().as_uri()
    lines = TINY[TINY_CARDS].replace("    cost: 200\n", "    cots: 200\n").splitlines(keepends=True)
    for ending in ("\r", "\r\n"):
        text = "".join(line.replace("\n", "\r\n") for line in lines[:3]) + "".join(lines[3:-2])
        text += "".join(line.replace("\n", ending) for line in lines[-2:])

        async def session(text: str = text, ending: str = ending) -> None:
            editor = await Editor.started(rules, (uri, text))
            (typo,) = [d for d in editor.diagnostics(uri) if d["code"] == "S002"]
            assert typo["range"]["start"] == _at(text, "cots"), (ending, typo)
            validated = [d for d in full_run(rules, {TINY_CARDS: text}) if d.code == "S002"]
            assert [(d.span.line - 1, d.span.column - 1) for d in validated if d.span] == [
                (typo["range"]["start"]["line"], typo["range"]["start"]["character"])
            ]

        asyncio.run(session())


def test_a_restarted_server_given_the_unsaved_buffers_again_says_what_it_said_before(tmp_path: Path) -> None:
    """The server restarted (a crash, `Restart server`) while a buffer is unsaved: the editor
    opens its documents again with their unsaved text. The new server says of each file what the
    old one said, and nothing from the disk's copy of the edited file."""
    rules = _tiny(tmp_path / "rules")
    uri = (rules / TINY_CARDS).absolute().as_uri()
    manifest = (rules / MANIFEST).absolute().as_uri()
    unsaved = TINY[TINY_CARDS].replace("    cost: 45\n", "    cots: 45\n", 1)
    said: list[tuple[list[tuple[str, int]], list[tuple[str, int]]]] = []

    async def session() -> None:
        editor = await Editor.started(rules, (uri, unsaved))
        said.append((_codes(editor, uri), _codes(editor, manifest)))

    asyncio.run(session())
    asyncio.run(session())
    assert said[0] == said[1] and ("S002", 5) in said[0][0], said


def test_a_code_action_over_two_diagnostics_offers_each_ones_fix_apart(tmp_path: Path) -> None:
    """A selection over two lines, each with a misspelt key that has a fix: one quick fix each,
    each editing its own diagnostic's range only (not one edit for both, nor two for each)."""
    rules = _tiny(tmp_path / "rules")
    uri = (rules / TINY_CARDS).absolute().as_uri()
    text = TINY[TINY_CARDS].replace("    cost: 45\n", "    cots: 45\n").replace("    cost: 200\n", "    cotz: 200\n")

    async def session() -> None:
        editor = await Editor.started(rules, (uri, text))
        published = editor.diagnostics(uri)
        fixable = [d for d in published if d["code"] == "S002"]
        assert len(fixable) == 2, published
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": text.count("\n"), "character": 0}}
        actions: list[dict[str, Any]] = editor.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": fixable}},
        )
        edits = sorted((a["edit"]["changes"][uri][0]["newText"], a["diagnostics"][0]["code"]) for a in actions)
        assert edits == [("cost", "S002"), ("cost", "S002")], actions
        for action in actions:
            (edit,) = action["edit"]["changes"][uri]
            assert edit["range"] == action["diagnostics"][0]["range"]

    asyncio.run(session())


def test_a_rename_in_one_of_two_projects_open_side_by_side_leaves_the_other_alone(tmp_path: Path) -> None:
    """Two workspace folders, each a project whose cards have the same ids: renaming `democracy`
    in the first rewrites its definition and its reference there, and nothing of the second."""
    first, second = tmp_path / "first", tmp_path / "second"
    _tiny(first / "rules"), _tiny(second / "rules")
    uri = (first / "rules" / TINY_CARDS).absolute().as_uri()
    text = TINY[TINY_CARDS]

    async def session() -> None:
        editor = Editor(first / "rules")
        folders = [{"uri": f.absolute().as_uri(), "name": f.name} for f in (first, second)]
        editor.request(
            "initialize",
            {"processId": None, "rootUri": first.absolute().as_uri(), "workspaceFolders": folders, "capabilities": {}},
        )
        editor.notify("initialized", {})
        await editor.settle()
        renamed = editor.request(
            "textDocument/rename",
            {"textDocument": {"uri": uri}, "position": _at(text, "id: democracy", len("id: d")), "newName": "republic"},
        )
        changes = renamed.get("changes") or {
            change["textDocument"]["uri"]: change["edits"] for change in renamed["documentChanges"]
        }
        assert list(changes) == [uri], list(changes)
        assert sorted(edit["range"]["start"]["line"] for edit in changes[uri]) == [7, 8]

    asyncio.run(session())


def test_go_to_symbol_in_workspace_finds_an_entity_by_id_or_name_from_any_file(tmp_path: Path) -> None:
    """`Ctrl+T` in VS Code (`workspace/symbol`): the server did not serve it, and an id could be
    reached only from a file that names it. Every entity the rulesets read is found by its id or
    its name, any case, at its definition; a ruleset by its id."""
    rules = _tiny(tmp_path / "rules")
    cards = (rules / TINY_CARDS).absolute().as_uri()
    text = TINY[TINY_CARDS]

    async def session() -> None:
        editor = Editor(rules)
        capabilities = editor.initialize(rules, {})
        assert capabilities.get("workspaceSymbolProvider")
        await editor.settle()

        def query(text: str) -> list[tuple[str, str, dict[str, int], str]]:
            found = editor.request("workspace/symbol", {"query": text})
            return [
                (s["name"], s["location"]["uri"], s["location"]["range"]["start"], s["containerName"]) for s in found
            ]

        democracy = ("democracy", cards, _at(text, "id: democracy", len("id: ")), "Democracy (civilization_cards)")
        assert query("DEMO") == [democracy]
        assert query("cracy") == [democracy]
        assert [name for name, *_ in query("")] == ["democracy", "pottery", "tiny"]
        assert query("no such card") == []

    asyncio.run(session())


def test_hovering_a_citation_shows_the_rulebook_section_it_cites(tmp_path: Path) -> None:
    """A `rule:` value hovered said nothing: a designer checking what `6.1` is opened the rule index
    and searched for it. The hover gives the section's title as the rule index has it, and the
    line of the rulebook's text it stands on; a number inside a section, the section holding it."""
    import doctest

    from civrules.lsp import index
    from tests.conftest import copy_files
    from tests.core.test_lsp import CARDS, KEEP

    assert doctest.testmod(index).failed == 0  # citation_at's examples: lists and flow mappings
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    assert '    rule: "6.1"\n' in text
    inside = text.replace('    rule: "6.1"\n', '    rule: "6.1234"\n', 1)

    async def session() -> None:
        editor = await Editor.started(rules)

        def hover(text: str) -> str:
            found = editor.request(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": _at(text, 'rule: "6.1', len('rule: "6'))},
            )
            return str(found["contents"]["value"]) if found else ""

        said = hover(text)
        assert "**6\\.1** — Le CARTE CIVILIZZAZIONE" in said and "ADVANCED CIVILIZATION, line 219" in said, said
        editor.open(uri, inside)
        await editor.settle()
        said = hover(inside)
        assert "**6\\.1234**, in 6\\.1 — Le CARTE CIVILIZZAZIONE" in said, said

    asyncio.run(session())
