"""Round 35's editor trial: a designer's session in `civrules lsp`, driven in this process.

Each case is one thing an editor user does that the earlier trials did not: hover and go to
definition in a buffer that does not parse yet, a rename while another buffer does not parse, a
file another program saved broken (not open in the editor), and completing a citation in an
editor that ends its words at `.` or `/`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from civrules.diagnostics import Severity
from civrules.lsp.index import Index
from civrules.pipeline.incremental import Session, full_run
from tests.conftest import copy_files
from tests.core.test_lsp import CARDS, KEEP, Editor, position

WESTERN = "rulesets/advanced-civilization-western.yaml"
CALAMITIES = "calamities/advanced-civilization.yaml"
CREDIT = '      - {card: democracy, points: 10, rule: "32.212"}\n'


def _asked(editor: Editor, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The server's whole answer to a request (its `result`, or its `error`)."""
    editor.next_id += 1
    editor._handle({"id": editor.next_id, "method": method, "params": params})
    (answer,) = [m for m in editor.sent if m.get("id") == editor.next_id and "method" not in m]
    return answer


def _changed(editor: Editor, uri: str, text: str, version: int) -> None:
    editor.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
    )


def test_hover_and_definition_answer_before_the_error_of_a_buffer_that_does_not_parse(tmp_path: Path) -> None:
    """The cards file with a note typed at its top and a credit's `{` not closed yet: hover on
    pottery's id and go to definition from its `groups: [crafts]` answered nothing, as both
    needed the whole file to parse. They answer from the text before the YAML error, at its places
    now (one line lower than the last reading that parsed), and the hover says the facts are read
    from there; an id after the error still answers nothing, and no request fails."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    assert CREDIT in cards
    head, _, rest = cards.partition(CREDIT)
    typing = "# a note typed at the top\n" + head + "      - {card: dem\n" + rest
    after = rest[rest.index("  - id: ") :].split("\n", 1)[0]

    async def session() -> None:
        editor = await Editor.started(rules, (uri, cards))
        _changed(editor, uri, typing, 2)
        await editor.settle()
        at = {"textDocument": {"uri": uri}, "position": position(typing, "id: pottery", len("id: pot"))}
        shown = editor.request("textDocument/hover", at)
        assert shown is not None, "no hover on pottery's id"
        assert "Pottery" in shown["contents"]["value"] and "before the YAML error" in shown["contents"]["value"]
        groups = {"textDocument": {"uri": uri}, "position": position(typing, "groups: [crafts]", len("groups: [cr"))}
        (found,) = editor.request("textDocument/definition", groups)
        assert (found["uri"], found["range"]["start"]) == (uri, position(typing, "id: crafts", len("id: ")))
        assert editor.request("textDocument/hover", groups) is not None
        beyond = {"textDocument": {"uri": uri}, "position": position(typing, after, len(after))}
        answer = _asked(editor, "textDocument/definition", beyond)
        assert "error" not in answer and answer["result"] is None, answer

    asyncio.run(session())


def test_a_rename_is_refused_while_a_buffer_that_does_not_parse_names_the_id(tmp_path: Path) -> None:
    """Renaming pottery in the cards file while the variant's buffer, which patches pottery, does
    not parse: the rename rewrote the cards and calamities and left the variant's `{id: pottery}`
    behind (its manifest, not parsing, read no files). It is refused, naming the file and the line
    of its error; a rename of an id the broken buffer does not name goes ahead."""
    rules = copy_files(tmp_path / "rules", KEEP)
    cards_uri, west_uri = (rules / CARDS).absolute().as_uri(), (rules / WESTERN).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    western = (rules / WESTERN).read_text(encoding="utf-8")
    broken = western.replace(
        "overlay:\n", "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 50}\n  areas: [\n", 1
    )
    assert broken != western

    async def session() -> None:
        editor = await Editor.started(rules, (cards_uri, cards), (west_uri, broken))
        asked = {"textDocument": {"uri": cards_uri}, "position": position(cards, "id: pottery", len("id: "))}
        answer = _asked(editor, "textDocument/rename", {**asked, "newName": "ceramics"})
        assert "error" in answer, answer
        assert "advanced-civilization-western.yaml:" in answer["error"]["message"], answer
        assert "error" in _asked(editor, "textDocument/prepareRename", asked)
        other = {"textDocument": {"uri": cards_uri}, "position": position(cards, "id: astronomy", len("id: "))}
        renamed = editor.request("textDocument/rename", {**other, "newName": "star_lore"})
        assert cards_uri in renamed["changes"], renamed

    asyncio.run(session())


def test_a_file_saved_broken_on_disk_keeps_its_symbols_and_ids(tmp_path: Path) -> None:
    """Another program saves the cards file with a `{` not closed halfway (a merge, a script), and
    the editor does not have it open: its cards dropped out of "go to symbol in workspace", and out
    of completion in the other files. Workspace symbols give the part of the file before its error,
    at their places in the file as it is on disk; completion offers the ids it last had."""
    rules = copy_files(tmp_path / "rules", KEEP)
    cards_uri, calamities_uri = (rules / CARDS).absolute().as_uri(), (rules / CALAMITIES).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    calamities = (rules / CALAMITIES).read_text(encoding="utf-8")
    head, _, rest = cards.partition(CREDIT)
    saved = "# merged\n" + head + "      - {card: dem\n" + rest
    assert "      - card: pottery\n" in calamities
    typing = calamities.replace("      - card: pottery\n", "      - card: pot\n", 1)

    async def session() -> None:
        editor = await Editor.started(rules, (calamities_uri, calamities))
        (rules / CARDS).write_text(saved, encoding="utf-8")
        editor.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": cards_uri, "type": 2}]})
        _changed(editor, calamities_uri, typing, 2)
        await editor.settle()
        found = editor.request("workspace/symbol", {"query": "pottery"})
        places = {(f["location"]["uri"], f["location"]["range"]["start"]["line"]) for f in found}
        assert (cards_uri, position(saved, "id: pottery")["line"]) in places, found
        offered = editor.request(
            "textDocument/completion",
            {"textDocument": {"uri": calamities_uri}, "position": position(typing, "card: pot", len("card: pot"))},
        )
        assert "pottery" in {item["label"] for item in offered["items"]}

    asyncio.run(session())


def test_a_citation_is_completed_by_an_edit_of_the_value_typed_so_far(tmp_path: Path) -> None:
    """`rule: "32.2|`, `rule: 32.2|` in a flow mapping, `rule: ["6.1", "31.5|` and `source: "community/adv|`:
    each item was a text to insert, and an editor whose words end at `.` or `/` replaced only `2`
    (or `adv`), writing `32.32.21`. Each item now edits the value from its start to the cursor,
    and applying it writes the citation once."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    cards = (rules / CARDS).read_text(encoding="utf-8")
    cited = "community/advciv_civ_card_credits.csv (civbuddy_points column, tsjensen/civbuddy)"
    assert f'source: "{cited}"' in cards and '    rule: "32.21"\n' in cards and CREDIT in cards
    # (what is replaced, by what is typed so far, up to the cursor, the item, what the line then holds there)
    cases = [
        ('    rule: "32.21"\n', '    rule: "32.2\n', 'rule: "32.2', "32.21", 'rule: "32.21'),
        (CREDIT, "      - {card: democracy, points: 10, rule: 32.2\n", "rule: 32.2", "32.212", 'rule: "32.212"'),
        ('    rule: "32.21"\n', '    rule: ["6.1", "31.5\n', '"31.5', "31.55", '"31.55'),
        (f'source: "{cited}"', 'source: "community/adv', 'source: "community/adv', cited, f'source: "{cited}'),
    ]
    versions = iter(range(2, 10))

    async def session() -> None:
        editor = await Editor.started(rules, (uri, cards))
        for old, new, typed, label, written in cases:
            text = cards.replace(old, new, 1)
            _changed(editor, uri, text, next(versions))
            at = position(text, typed, len(typed))
            found = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
            (item,) = [item for item in found["items"] if item["label"] == label]
            edit = item["textEdit"]
            assert edit["range"]["end"] == at and edit["range"]["start"]["line"] == at["line"], edit
            line = text.splitlines()[at["line"]]
            start, end = edit["range"]["start"]["character"], edit["range"]["end"]["character"]
            assert line[:start] + edit["newText"] + line[end:] == line.replace(typed, written, 1), (line, edit)

    asyncio.run(session())


def test_a_rename_rewrites_the_target_of_a_variants_suppress_entry(tmp_path: Path) -> None:
    """A variant silences A010 about `late_bronze_age` in its base (`suppress: - {code: A010,
    target: late_bronze_age, ...}`); renaming the epoch rewrote the base's ten places and left the
    entry's target behind, so the entry silenced nothing (V008) and A010 came back. The target is
    renamed with the rest, and still silences A010."""
    rules = copy_files(tmp_path / "rules", KEEP - {WESTERN})
    # The base under an id of its own: the shipped ruleset's ids are not the folder's to rename.
    shipped = rules / "rulesets/advanced-civilization.yaml"
    base = shipped.read_text(encoding="utf-8").replace("\nid: advanced-civilization\n", "\nid: home\n", 1)
    shipped.unlink()
    (rules / "rulesets/home.yaml").write_text(base, encoding="utf-8")
    (rules / "rulesets/quiet.yaml").write_text(
        "kind: ruleset\nid: quiet\nname: Quiet\nextends: home\n"
        "suppress:\n  - {code: A010, target: late_bronze_age, reason: the house rule}\n"
        "overlay:\n  epochs:\n    patch:\n      - id: early_bronze_age\n"
        "        requirements: {min_cities: 4, source: house rule}\n",
        encoding="utf-8",
    )

    async def session() -> None:
        editor = await Editor.started(rules)
        uri = (rules / "rulesets/home.yaml").absolute().as_uri()
        at = {"textDocument": {"uri": uri}, "position": position(base, "id: late_bronze_age", len("id: "))}
        renamed = editor.request("textDocument/rename", {**at, "newName": "late_bronze"})
        for changed, edits in renamed["changes"].items():
            path = Path(url2pathname(urlsplit(changed).path))
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]))[
                ::-1
            ]:
                start, end = edit["range"]["start"], edit["range"]["end"]
                line = lines[start["line"]]
                lines[start["line"]] = line[: start["character"]] + edit["newText"] + line[end["character"] :]
            path.write_text("".join(lines), encoding="utf-8")

    asyncio.run(session())
    assert "target: late_bronze," in (rules / "rulesets/quiet.yaml").read_text(encoding="utf-8")
    # The entry silences A010 as before (without it, A010 is reported, and the entry alone is V008).
    assert not {"A010", "V008"} & {d.code for d in full_run(rules, {}) if d.severity != Severity.INFO}


def _renamed(rules: Path, collection: str, identifier: str, new: str) -> dict[str, str]:
    """The files of ``rules`` a rename of ``identifier`` rewrites, as they read after it (the
    server's index, in this process: its edits as the server makes them, without quoting)."""
    index = Index(Session(rules).update())
    (symbol,) = [
        s for s in index.by_id[identifier] if s.definition and s.collection == collection and s.relative in index.kinds
    ]
    texts: dict[str, list[str]] = {}
    for occurrence in sorted(index.rename(symbol, new), key=lambda s: (s.span.line, s.span.column), reverse=True):
        lines = texts.setdefault(occurrence.relative, (rules / occurrence.relative).read_text("utf-8").split("\n"))
        span = occurrence.span
        line = lines[span.line - 1]
        assert line[span.column - 1 : span.end_column - 1] == identifier, (occurrence, line)
        lines[span.line - 1] = line[: span.column - 1] + new + line[span.end_column - 1 :]
    return {relative: "\n".join(lines) for relative, lines in texts.items()}


def test_a_rename_rewrites_what_a_disagreement_restates_or_selects_by_the_id(tmp_path: Path) -> None:
    """A `disagreements:` entry restates its field's value (`chosen: [susa, media, parthia]` for
    Advanced Civilization's `start_areas.areas`) or selects a list's element by its id (`field:
    "modifiers[philosophy].effect"` of Advanced Civilization's Civil War). A rename rewrote the
    field and left the entry behind: Q008 said it chose a value the data does not hold, or the
    entry compared nothing from then on, unsaid. Both are rewritten (a field written in words is
    prose, which Q008 does not read, and is left as it is). Round 35 found this with Imperial
    Settlers' good `card`, which a rename now refuses (a card's cost lists goods from a fixed set:
    tests/families/imperial_settlers/test_named_ids.py)."""
    rules = copy_files(tmp_path / "rules", KEEP - {WESTERN})
    renamed = _renamed(rules, "areas", "susa", "shushan")
    assert "        chosen: [shushan, media, parthia]" in renamed["rulesets/advanced-civilization.yaml"].split("\n")
    calamities = _renamed(rules, "civilization_cards", "philosophy", "sophia")[CALAMITIES]
    assert '      - field: "modifiers[sophia].effect"' in calamities.split("\n")


def test_published_diagnostics_carry_the_version_of_the_buffer_they_were_made_from(tmp_path: Path) -> None:
    """Diagnostics published for an open buffer say which of its versions they were made from, so
    an editor can tell them from ones made for an older text; a file read from disk (not open)
    gets none. Until round 35 no publication carried a version."""
    rules = copy_files(tmp_path / "rules", KEEP)
    uri = (rules / CARDS).absolute().as_uri()
    on_disk = (rules / CALAMITIES).absolute().as_uri()
    calamities = (rules / CALAMITIES).read_text(encoding="utf-8")
    assert '"modifiers[philosophy].effect"' in calamities
    (rules / CALAMITIES).write_text(calamities.replace('"modifiers[philosophy].effect"', '"modifiers[sophia].effect"'))
    cards = (rules / CARDS).read_text(encoding="utf-8")

    async def session() -> None:
        editor = await Editor.started(rules, (uri, cards))

        def last(of: str) -> dict[str, Any]:
            sent = [m["params"] for m in editor.sent if m.get("method") == "textDocument/publishDiagnostics"]
            found: dict[str, Any] = [p for p in sent if p["uri"] == of][-1]
            return found

        assert last(uri)["version"] == 1
        assert last(on_disk)["diagnostics"] and last(on_disk).get("version") is None
        _changed(editor, uri, cards.replace("groups: [crafts]", "groups: [craftz]", 1), 7)
        await editor.settle()
        assert last(uri)["diagnostics"] and last(uri).get("version") == 7
        _changed(editor, uri, cards, 8)
        await editor.settle()
        assert last(uri) == {"uri": uri, "diagnostics": [], "version": 8}

    asyncio.run(session())
