"""Round 36's editor trial: a designer's session in `civrules lsp`, driven in this process, on the
smallest rules folder that shows each case."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.core.test_lsp import Editor

#: A cards file of no ruleset: R005, whatever else the buffer is typed to hold.
LONE = "kind: cards\nfamily: advanced-civilization\ncards: []\n"


def _published(editor: Editor, uri: str) -> list[dict[str, Any]]:
    return [
        m["params"]
        for m in editor.sent
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]


def _session(tmp_path: Path, capabilities: dict[str, Any]) -> list[dict[str, Any]]:
    """What was published for a buffer opened at version 1 and typed at twice, its diagnostics the
    same at each version."""
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    (rules / "cards" / "lone.yaml").write_text(LONE, encoding="utf-8")
    uri = (rules / "cards" / "lone.yaml").absolute().as_uri()

    async def session() -> list[dict[str, Any]]:
        editor = Editor(rules)
        editor.initialize(rules, capabilities)
        editor.open(uri, LONE)
        await editor.settle()
        for version in (2, 3):
            text = LONE + "#" * version + "\n"
            change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
            editor.notify("textDocument/didChange", change)
            await editor.settle()
        return _published(editor, uri)

    return asyncio.run(session())


def test_an_unchanged_set_of_diagnostics_is_sent_again_at_the_new_version_to_an_editor_that_reads_it(
    tmp_path: Path,
) -> None:
    """LSP 3.17: a publication's `version` says which text of the buffer it was made for. Round 35
    sent it only when the diagnostics changed: a buffer typed at kept its first version, and an
    editor that reads versions (`versionSupport`) took the diagnostics for those of an older text.
    Such an editor is sent the set again at each run's version; one that does not read versions
    is sent nothing new (a publication per run for nothing)."""
    reading = _session(tmp_path / "reads", {"textDocument": {"publishDiagnostics": {"versionSupport": True}}})
    assert [p.get("version") for p in reading] == [1, 2, 3]
    assert reading[0]["diagnostics"] and all(p["diagnostics"] == reading[0]["diagnostics"] for p in reading)
    ignoring = _session(tmp_path / "ignores", {})
    assert [p.get("version") for p in ignoring] == [1]
