"""Round 34's editor trial: a designer's session in `civrules lsp`, driven in this process.

Each case is one thing an editor user does that the earlier trials did not: completion in a
mapping whose brace is not typed yet (in a file and in a variant's overlay), a quick fix applied
twice, the buffer of a file deleted on disk, the rules folder switched to another branch, and a
buffer holding a byte-order mark, a NUL, a NEL or a line separator.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from civrules.pipeline.incremental import full_run
from tests.conftest import copy_files
from tests.core.test_lsp import CARDS, KEEP, Editor, completion_labels, position

WESTERN = "rulesets/advanced-civilization-western.yaml"


def _said(editor: Editor) -> set[tuple[str, str, int, int]]:
    """What the server last published for every file: (file under rules/, code, line, character)."""
    last: dict[str, list[dict[str, Any]]] = {}
    for message in editor.sent:
        if message.get("method") == "textDocument/publishDiagnostics":
            last[message["params"]["uri"]] = message["params"]["diagnostics"]
    return {
        (uri.rpartition("/rules/")[2], str(d["code"]), d["range"]["start"]["line"], d["range"]["start"]["character"])
        for uri, found in last.items()
        for d in found
    }


def _validated(rules: Path, buffers: dict[str, str]) -> set[tuple[str, str, int, int]]:
    """What `civrules validate` says of the same files and buffers, in the same terms."""
    return {
        (d.span.file.rpartition("rules/")[2], d.code, d.span.line - 1, d.span.column - 1)
        for d in full_run(rules, buffers)
        if d.span is not None
    }


def test_completion_in_a_flow_mapping_whose_brace_is_not_typed_yet_offers_the_ids(tmp_path: Path) -> None:
    """`- {card: dem|` with no `}` yet (an editor that does not close brackets: Vim, Helix), in
    the cards file, and `- {id: pot|` in a variant's new `overlay.civilization_cards.patch`: the
    buffer does not parse, and completion offered nothing, as the ids came from the buffer's
    reading alone (the cards file's own cards; the rulesets of a manifest that parses). The ids
    are those of the buffer's last reading that parsed (or its file's on disk, where it was
    opened broken), and the rulesets that read it then."""
    rules = copy_files(tmp_path / "rules", KEEP)
    cards_uri, western_uri = (rules / CARDS).absolute().as_uri(), (rules / WESTERN).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    credit = '      - {card: democracy, points: 10, rule: "32.212"}\n'
    assert credit in cards
    typing = cards.replace(credit, "      - {card: dem\n", 1)
    western = (rules / WESTERN).read_text(encoding="utf-8")
    patching = western.replace("overlay:\n", "overlay:\n  civilization_cards:\n    patch:\n      - {id: pot\n", 1)
    assert patching != western

    async def session() -> None:
        editor = await Editor.started(rules, (cards_uri, cards))
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": cards_uri, "version": 2}, "contentChanges": [{"text": typing}]},
        )
        await editor.settle()
        offered = completion_labels(editor, cards_uri, position(typing, "{card: dem", len("{card: dem")))
        assert {"democracy", "pottery"} <= offered and "famine" not in offered, offered
        # A variant's manifest opened as it is being typed: its rulesets' cards, from the disk's reading.
        editor.open(western_uri, patching)
        await editor.settle()
        offered = completion_labels(editor, western_uri, position(patching, "{id: pot", len("{id: pot")))
        assert "pottery" in offered and "egypt" not in offered, offered
        # What is published is still what `validate` says of the buffers as they are.
        assert _said(editor) == _validated(rules, {CARDS: typing, WESTERN: patching})

    asyncio.run(session())


def test_a_quick_fix_asked_again_for_its_stale_diagnostic_leaves_the_text_as_it_is(tmp_path: Path) -> None:
    """A quick fix applied, then asked again for the same diagnostic (an editor that keeps the old
    diagnostic until the new ones come, a user pressing the shortcut twice): the second edit writes
    at the old range what the first wrote there, so the text stays fixed, and nothing is left."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    text = (rules / CARDS).read_text(encoding="utf-8")
    typo = text.replace("    cost: 45\n", "    cots: 45\n", 1)

    def fixed(before: str, edits: list[dict[str, dict[str, dict[str, int]]]]) -> str:
        (edit,) = edits
        start, end = edit["range"]["start"], edit["range"]["end"]
        lines = before.splitlines(keepends=True)
        assert start["line"] == end["line"]
        line = lines[start["line"]]
        lines[start["line"]] = line[: start["character"]] + str(edit["newText"]) + line[end["character"] :]
        return "".join(lines)

    async def session() -> None:
        editor = await Editor.started(rules, (uri, typo))
        (stale,) = [d for d in editor.diagnostics(uri) if d["code"] == "S002"]
        asked = {"textDocument": {"uri": uri}, "range": stale["range"], "context": {"diagnostics": [stale]}}
        (action,) = editor.request("textDocument/codeAction", asked)
        once = fixed(typo, action["edit"]["changes"][uri])
        assert once == text
        editor.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": once}]}
        )
        await editor.settle()
        assert "S002" not in {d["code"] for d in editor.diagnostics(uri)}
        again = editor.request("textDocument/codeAction", asked)
        assert all(fixed(once, a["edit"]["changes"][uri]) == text for a in again), again

    asyncio.run(session())


def test_the_unsaved_buffer_of_a_file_deleted_on_disk_is_checked_as_validate_checks_it(tmp_path: Path) -> None:
    """The cards file deleted on disk (another program, `git rm`) while its edited buffer is open:
    the editor still has the text, and the server judges it as `validate` judges that buffer, until
    the buffer is saved back; closed unsaved, the file is missing where the manifest names it."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    typo = (rules / CARDS).read_text(encoding="utf-8").replace("    cost: 45\n", "    cots: 45\n", 1)

    async def session() -> None:
        editor = await Editor.started(rules, (uri, typo))
        (rules / CARDS).unlink()
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri, "type": 3}]})
        await editor.settle()
        assert "S002" in {d["code"] for d in editor.diagnostics(uri)}
        assert _said(editor) == _validated(rules, {CARDS: typo})
        editor.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        await editor.settle()
        assert "L012" in {code for _, code, _, _ in _said(editor)}
        assert _said(editor) == _validated(rules, {})

    asyncio.run(session())


def test_the_rules_folder_switched_to_another_branch_is_checked_as_that_branch(tmp_path: Path) -> None:
    """`git checkout other` under an open editor: a ruleset deleted, a file changed, a variant
    added, all at once; with the watched-file notifications, and (a client that watches nothing)
    with none but the next save. Each time the server says what `validate` says of the branch."""
    rules = copy_files(tmp_path / "rules", KEEP)
    main, other = tmp_path / "main", tmp_path / "other"
    shutil.copytree(rules, main)
    shutil.copytree(rules, other)
    (other / WESTERN).unlink()
    cards = (other / CARDS).read_text(encoding="utf-8")
    (other / CARDS).write_text(cards.replace("    cost: 45\n", "    cots: 45\n", 1), encoding="utf-8")
    house = "kind: ruleset\nid: house\nname: House\nextends: advanced-civilization\n"
    (other / "rulesets" / "house.yaml").write_text(
        house + 'overlay:\n  civilization_cards:\n    remove:\n      - {id: potery, why: "house rule"}\n',
        encoding="utf-8",
    )
    changed: list[dict[str, str | int]] = [
        {"uri": (rules / WESTERN).absolute().as_uri(), "type": 3},
        {"uri": (rules / CARDS).absolute().as_uri(), "type": 2},
        {"uri": (rules / "rulesets" / "house.yaml").absolute().as_uri(), "type": 1},
    ]

    def checkout(branch: Path) -> None:
        shutil.rmtree(rules)
        shutil.copytree(branch, rules)

    async def session() -> None:
        editor = await Editor.started(rules)
        before = _said(editor)
        checkout(other)
        editor.notify("workspace/didChangeWatchedFiles", {"changes": changed})
        await editor.settle()
        assert _said(editor) == _validated(rules, {}) != before
        checkout(main)
        back = [{**change, "type": {1: 3, 2: 2, 3: 1}[int(change["type"])]} for change in changed]
        editor.notify("workspace/didChangeWatchedFiles", {"changes": back})
        await editor.settle()
        assert _said(editor) == _validated(rules, {}) == before
        checkout(other)  # no notification: the next save checks the files again
        editor.notify("textDocument/didSave", {"textDocument": {"uri": (rules / WESTERN).absolute().as_uri()}})
        await editor.settle()
        assert _said(editor) == _validated(rules, {})

    asyncio.run(session())


def test_a_buffer_with_a_bom_a_nul_a_nel_or_a_line_separator_is_placed_as_validate_places_it(tmp_path: Path) -> None:
    """Text pasted from elsewhere: a byte-order mark before the first key, a NUL after a value, a
    NEL (U+0085) or a LINE SEPARATOR (U+2028) inside a name. What the server publishes, and
    where, is what `validate` says of the same buffer."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    typo = (rules / CARDS).read_text(encoding="utf-8").replace("    cost: 45\n", "    cots: 45\n", 1)
    buffers = {
        "bom": "\ufeff" + typo,
        "nul": typo.replace("    cots: 45\n", "    cots: 45\x00\n", 1),
        "nel": typo.replace("Pottery", "Pot\u0085tery", 1),
        "line separator": typo.replace("Pottery", "Pot\u2028tery", 1),
    }

    async def session() -> None:
        editor = await Editor.started(rules, (uri, typo))
        for version, (name, text) in enumerate(buffers.items(), start=2):
            editor.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
            )
            await editor.settle()
            assert _said(editor) == _validated(rules, {CARDS: text}), name

    asyncio.run(session())


def test_a_buffer_broken_halfway_outlines_the_part_before_its_error_at_its_places(tmp_path: Path) -> None:
    """The cards file with a line typed at its top and a credit's `{` left open halfway down: the
    buffer does not parse, and its outline (`textDocument/documentSymbol`) was empty, its cards
    gone from `workspace/symbol` too. Both now give the part before the error, at its places in
    the text as it is now (the last reading that parsed would put every card one line too high);
    nothing after the error, whose place no reading knows."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    credit = '      - {card: democracy, points: 10, rule: "32.212"}\n'
    assert credit in cards
    head, _, rest = cards.partition(credit)
    typing = "# a note typed at the top\n" + head + "      - {card: dem\n" + rest
    after_error = rest[rest.index("  - id: ") :].split("\n", 1)[0].removeprefix("  - id: ")

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}})
        editor.open(uri, cards)
        await editor.settle()
        editor.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typing}]}
        )
        await editor.settle()
        outline = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert outline, "an empty outline"
        cards_list = next(entry for entry in outline if entry["name"] == "cards")
        shown = {child["name"]: child["selectionRange"]["start"] for child in cards_list["children"]}
        assert shown["pottery"] == position(typing, "id: pottery", len("id: "))
        assert after_error not in shown, shown
        groups = next(entry for entry in outline if entry["name"] == "groups")
        assert groups["children"][0]["selectionRange"]["start"] == position(typing, "id: arts", len("id: "))
        found = editor.request("workspace/symbol", {"query": "pottery"})
        places = {(f["location"]["uri"], f["location"]["range"]["start"]["line"]) for f in found}
        assert (uri, position(typing, "id: pottery")["line"]) in places, found
        # A quote left open in pottery's own `rule:`: libyaml finds it lines later, "while parsing
        # a block mapping" that starts at pottery; the part before where it was found still holds
        # pottery's id (cut where the mapping starts, the outline lost it; at the root's, everything).
        quoting = cards.replace('    rule: "32.21"\n', '    rule: "32.2\n', 1)
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": quoting}]},
        )
        await editor.settle()
        outline = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        cards_list = next(entry for entry in outline if entry["name"] == "cards")
        assert [child["name"] for child in cards_list["children"]] == ["pottery"], cards_list

    asyncio.run(session())


def test_completion_in_a_citation_offers_the_rule_indexs_sections_and_the_sources_cited(tmp_path: Path) -> None:
    """`rule: "32.2|` (a card's, and a credit's in a flow mapping) and `source: "comm|`: completion
    offered nothing in a citation, though hover reads the same rule index. A `rule:` value is
    offered the sections of the rule index its rulesets read, each with its title; a `source:` value
    the sources those rulesets already cite. A quote left open is not written twice; a section
    typed with no quote is quoted (YAML would read `32.21` as a number)."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    credit = '      - {card: democracy, points: 10, rule: "32.212"}\n'
    assert '    rule: "32.21"\n' in cards and credit in cards
    cited = "community/advciv_civ_card_credits.csv (civbuddy_points column, tsjensen/civbuddy)"
    assert f'source: "{cited}"' in cards

    versions = iter(range(2, 10))

    def completed(editor: Editor, text: str, needle: str) -> dict[str, dict[str, Any]]:
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": next(versions)}, "contentChanges": [{"text": text}]},
        )
        found = editor.request(
            "textDocument/completion", {"textDocument": {"uri": uri}, "position": position(text, needle, len(needle))}
        )
        return {item["label"]: item for item in found["items"]}

    async def session() -> None:
        editor = await Editor.started(rules, (uri, cards))
        offered = completed(editor, cards.replace('    rule: "32.21"\n', '    rule: "32.2\n', 1), 'rule: "32.2')
        assert "32.21" in offered and offered["32.21"]["textEdit"]["newText"] == "32.21", sorted(offered)[:20]
        assert "Pottery" in offered["32.21"]["detail"], offered["32.21"]
        assert not {"pottery", "democracy", "crafts"} & offered.keys()
        offered = completed(
            editor, cards.replace(credit, "      - {card: democracy, points: 10, rule: 32.2\n", 1), "rule: 32.2"
        )
        assert offered["32.212"]["textEdit"]["newText"] == '"32.212"', offered["32.212"]
        offered = completed(editor, cards.replace(f'source: "{cited}"', 'source: "comm', 1), 'source: "comm')
        assert cited in offered and offered[cited]["textEdit"]["newText"] == cited, sorted(offered)[:20]
        assert "32.21" not in offered
        # A variant's patch, its manifest not parsing as typed (so it has no rulesets yet): the
        # sections of the rule index its rulesets read when it last parsed.
        west_uri = (rules / WESTERN).absolute().as_uri()
        western = (rules / WESTERN).read_text(encoding="utf-8")
        patching = western.replace(
            "overlay:\n", 'overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, rule: "32.2\n', 1
        )
        editor.open(west_uri, western)
        await editor.settle()
        editor.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": west_uri, "version": 2}, "contentChanges": [{"text": patching}]},
        )
        found = editor.request(
            "textDocument/completion",
            {"textDocument": {"uri": west_uri}, "position": position(patching, 'rule: "32.2', len('rule: "32.2'))},
        )
        assert "32.21" in {item["label"] for item in found["items"]}

    asyncio.run(session())
