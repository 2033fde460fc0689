"""What the language server does with a client's document-sync messages that do not fit what was
agreed: the server advertises Full sync, yet a client may send a ranged change, a version that goes
backwards, or open a document twice. Each is either applied correctly or refused with a
`window/logMessage`; the buffer civrules validates is never a fragment or an older text.

pygls kept only a ranged change's text as the whole document (logging to standard error only):
the server validated `cots` as the cards file and published S005 at 0:0, which no later ranged
change cleared.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_files
from tests.core.test_lsp import CARDS, KEEP, Editor, position

#: An emoji and a CJK extension-B character: two UTF-16 code units, four UTF-8 bytes each.
ASTRAL = "\U0001f600\U0002000b"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


def _logged(editor: Editor) -> list[dict[str, Any]]:
    return [m["params"] for m in editor.sent if m.get("method") == "window/logMessage"]


def _published(editor: Editor, uri: str) -> list[dict[str, Any]]:
    """The diagnostics last published for ``uri`` (none: a clean file is published nothing)."""
    published = [
        m["params"]["diagnostics"]
        for m in editor.sent
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]
    return list(published[-1]) if published else []


def _codes(editor: Editor, uri: str) -> list[str]:
    return sorted(d["code"] for d in _published(editor, uri))


def _unknown_keys(editor: Editor, uri: str) -> list[str]:
    return sorted(d["message"].split("`")[1] for d in _published(editor, uri) if d["code"] == "S002")


def _open(editor: Editor, uri: str, text: str, version: int = 1, language: str = "yaml") -> None:
    editor.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}
    )


def _change(editor: Editor, uri: str, version: int, *changes: dict[str, Any]) -> None:
    params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": list(changes)}
    editor.notify("textDocument/didChange", params)


def _ranged(start: dict[str, int], end: dict[str, int], text: str) -> dict[str, Any]:
    return {"range": {"start": start, "end": end}, "text": text}


def _buffer(editor: Editor, uri: str) -> str:
    source: str = editor.server.workspace.text_documents[uri].source
    return source


@pytest.mark.parametrize(
    "encoding",
    # UTF-16 (the default) in `make test`; the other two encodings in `make test-slow`.
    ["utf-16", pytest.param("utf-8", marks=pytest.mark.slow), pytest.param("utf-32", marks=pytest.mark.slow)],
)
def test_a_ranged_change_is_applied_to_the_buffer_in_the_agreed_encoding(rules: Path, encoding: str) -> None:
    """The report's case, on a line that starts with astral characters and ends in CR LF: the
    range is read in the encoding agreed at initialize, and the buffer is the whole file edited."""
    uri = (rules / CARDS).absolute().as_uri()
    disk = (rules / CARDS).read_text(encoding="utf-8")
    assert "    cost: 45\n" in disk
    text = disk.replace("    cost: 45\n", f"    # {ASTRAL}\r\n    cost: 45\n", 1)
    at = position(text, "cost: 45")
    if encoding != "utf-16":  # the position helper counts UTF-16 units; the comment line is ASCII before it
        at = {"line": at["line"], "character": 4}
    typo = text.replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {"general": {"positionEncodings": [encoding]}})
        _open(editor, uri, text)
        await editor.settle()
        assert "S002" not in _codes(editor, uri)
        # `cost` -> `cots`: four characters replaced on line `at`.
        end = {"line": at["line"], "character": at["character"] + 4}
        _change(editor, uri, 2, _ranged(at, end, "cots"))
        await editor.settle()
        assert _buffer(editor, uri) == typo
        assert _unknown_keys(editor, uri) == ["cots"] and "S005" not in _codes(editor, uri)
        # An edit after the astral characters of the comment line, and an insertion at a line's
        # end past its last character (LSP: a character past the end of a line is its end).
        comment = at["line"] - 1
        after = {"line": comment, "character": {"utf-16": 6 + 4, "utf-8": 6 + 8, "utf-32": 6 + 2}[encoding]}
        _change(
            editor,
            uri,
            3,
            _ranged(after, after, " ok"),
            _ranged({"line": comment, "character": 999}, {"line": comment, "character": 999}, "!"),
            _ranged(at, end, "cost"),  # the correcting edit: applied after the two before it
        )
        await editor.settle()
        assert _buffer(editor, uri) == text.replace(f"# {ASTRAL}\r\n", f"# {ASTRAL} ok!\r\n", 1)
        assert "S002" not in _codes(editor, uri) and "S005" not in _codes(editor, uri)
        assert not [entry for entry in _logged(editor) if entry["type"] <= 2]

    asyncio.run(session())


def test_a_ranged_change_that_does_not_fit_the_buffer_is_refused_and_said(rules: Path) -> None:
    """A range past the last line, or one that ends before it starts, cannot be applied: the
    change is refused with a log line, the last good buffer is kept, and the ranged changes that
    follow (made against a text the server does not have) are refused too, until the editor
    sends the whole text again."""
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    lines = text.count("\n")
    at = position(text, "cost: 45")
    end = {"line": at["line"], "character": at["character"] + 4}

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        _open(editor, uri, text)
        await editor.settle()
        _change(editor, uri, 2, _ranged({"line": lines + 5, "character": 0}, {"line": lines + 6, "character": 0}, "x"))
        await editor.settle()
        assert _buffer(editor, uri) == text
        (said,) = [entry for entry in _logged(editor) if "ranged" in entry["message"]]
        assert said["type"] == 2 and "cards/advanced-civilization.yaml" in said["message"], said
        assert "S005" not in _codes(editor, uri)
        # Out of step now: a change that would fit is refused as well (it was made against the
        # client's text), and said no more.
        _change(editor, uri, 3, _ranged(at, end, "cots"))
        await editor.settle()
        assert _buffer(editor, uri) == text and len([e for e in _logged(editor) if "ranged" in e["message"]]) == 1
        # The whole text brings it back in step; a ranged change is applied again.
        _change(editor, uri, 4, {"text": text.replace("    cost: 45\n", "    cotz: 45\n", 1)})
        _change(editor, uri, 5, _ranged(at, end, "cots"))
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cots"] and "S005" not in _codes(editor, uri)
        # A range that ends before it starts.
        _change(editor, uri, 6, _ranged(end, at, "cost"))
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cots"]
        assert len([e for e in _logged(editor) if "ranged" in e["message"]]) == 2

    asyncio.run(session())


def test_a_change_whose_version_goes_backwards_is_refused_and_said(rules: Path) -> None:
    """Versions only increase (LSP); a change numbered at or before the buffer's version is an
    older text: refused with a log line, not validated as the buffer."""
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    newer = text.replace("    cost: 45\n", "    cotz: 45\n", 1)
    older = text.replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        _open(editor, uri, text, version=4)
        _change(editor, uri, 7, {"text": newer})
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cotz"]
        for version in (5, 7):
            _change(editor, uri, version, {"text": older})
        await editor.settle()
        assert _buffer(editor, uri) == newer and _unknown_keys(editor, uri) == ["cotz"]
        assert editor.server.workspace.text_documents[uri].version == 7
        said = [entry for entry in _logged(editor) if "version" in entry["message"]]
        assert len(said) == 1 and said[0]["type"] == 2 and "7" in said[0]["message"], said  # once a document
        _change(editor, uri, 8, {"text": older})
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cots"]

    asyncio.run(session())


def test_a_document_opened_twice_is_read_from_the_second_open_and_said(rules: Path) -> None:
    """`didOpen` of a document already open (LSP: not without a `didClose` between): its text is
    the editor's whole buffer, so it is taken, and the log says so once. A change after the
    `didClose` is ignored (said in the log): the file is read from disk."""
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    typo = text.replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        _open(editor, uri, text, version=3)
        _open(editor, uri, typo, version=1)
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cots"]
        said = [entry for entry in _logged(editor) if "opened again" in entry["message"]]
        assert len(said) == 1 and said[0]["type"] == 2, said
        # Its version is the second open's: the changes after it are in step.
        _change(editor, uri, 2, {"text": typo.replace("cots", "cotz", 1)})
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cotz"]
        # Closed, it is read from disk again; a change sent after the close has nothing to apply to.
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        _change(editor, uri, 3, {"text": typo})
        await editor.settle()
        assert _unknown_keys(editor, uri) == [] and uri not in editor.server.workspace.text_documents
        assert [entry for entry in _logged(editor) if "which was not opened" in entry["message"]]

    asyncio.run(session())


def test_the_language_id_does_not_decide_what_a_rule_file_is(rules: Path) -> None:
    """A rule file opened as `plaintext` (an editor that does not know YAML) is checked from its
    buffer all the same: its path under rules/ decides, as for `civrules validate`."""
    uri = (rules / CARDS).absolute().as_uri()
    typo = (rules / CARDS).read_text(encoding="utf-8").replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        _open(editor, uri, typo, language="plaintext")
        await editor.settle()
        assert _unknown_keys(editor, uri) == ["cots"]

    asyncio.run(session())


def test_a_message_of_many_ranged_changes_is_applied_within_a_bound_of_work(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ranged change reads the buffer the one before it left: 20,000 tiny changes in one
    `didChange` to a 20 KB file cost 34 s of CPU (round 33), half a million (within the message
    bound) hours. The characters read for one message's ranged changes are bounded (counted here:
    the changes applied, not a time); past the bound the message is refused as out of step, said
    once, and the whole text brings the buffer back."""
    from civrules.lsp import positions, transport

    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    applied: list[int] = []
    real = positions.edited

    def counted(*args: Any) -> str | None:
        applied.append(len(args[0]))
        return real(*args)

    monkeypatch.setattr(positions, "edited", counted)
    monkeypatch.setattr(transport, "MAX_RANGED_WORK", 10 * (len(text) + 100), raising=False)

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        _open(editor, uri, text)
        await editor.settle()
        comment = _ranged({"line": 0, "character": 0}, {"line": 0, "character": 0}, "#\n")
        _change(editor, uri, 2, *[comment] * 5)  # within the bound: applied
        assert _buffer(editor, uri) == "#\n" * 5 + text and len(applied) == 5
        _change(editor, uri, 3, *[comment] * 1_000)
        assert len(applied) <= 5 + 10 and _buffer(editor, uri) == "#\n" * 5 + text
        (said,) = [entry["message"] for entry in _logged(editor) if "ranged changes" in entry["message"]]
        assert "one of 1,000 ranged changes, more than the server applies in one message" in said
        _change(editor, uri, 4, {"text": text})
        await editor.settle()
        assert _buffer(editor, uri) == text
        assert not [entry for entry in _logged(editor) if entry["type"] == 1]

    asyncio.run(session())
