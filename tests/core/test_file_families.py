"""A rule file no ruleset reads yet (a new file, an unsaved buffer) is judged as a file of the rules
folder's own families: its hints, completions and hovers never describe another game's files.

Round 31's editor trial: a `kind: cards` buffer beside Advanced Civilization's rulesets was
validated against Imperial Settlers' card schema (the one family with a `cards` kind), and its
hints spoke of "the kind of location: production, ability or action".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline.incremental import Session, full_run
from tests.core.test_lsp import TINY, Editor, completion_labels

HOUSE = "cards/house.yaml"
#: Written as an Advanced Civilization designer would, thinking of civilization cards.
HOUSE_TEXT = "kind: cards\ncards:\n  - id: mining\n    nmae: Mining\n    cots: 180\n"
#: A ruleset of another family beside the tiny one, reading none of the house file.
SETTLERS = "rulesets/settlers.yaml"
SETTLERS_TEXT = "kind: ruleset\nid: settlers\nname: Settlers\nfamily: imperial-settlers\n"


def _tiny(root: Path) -> Path:
    for relative, written in TINY.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(written, encoding="utf-8")
    return root


def _of(diagnostics: list[Diagnostic], relative: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.span is not None and d.span.file.endswith(relative)]


def test_a_file_no_ruleset_reads_is_judged_among_the_folders_families(tmp_path: Path) -> None:
    rules = _tiny(tmp_path / "rules")
    session = Session(rules)
    session.update()
    session.set_text(HOUSE, HOUSE_TEXT)
    found = _of(session.update().diagnostics, HOUSE)
    # One diagnostic: the kind, which no family of this folder has; nothing of Imperial Settlers' cards.
    assert [d.code for d in found] == ["S005"], [(d.code, d.message, d.hint) for d in found]
    (kind,) = found
    assert "civilization_cards" in (kind.hint or "") and "imperial-settlers" in (kind.hint or "")
    assert not any("location" in f"{d.message} {d.hint}" for d in found)
    assert found == _of(full_run(rules, session.overlays), HOUSE)

    # A ruleset of the family whose kind it is, added to the folder: the file is now that family's
    # (its keys judged against its cards), in the session as in a full run.
    session.set_text(SETTLERS, SETTLERS_TEXT)
    now = _of(session.update().diagnostics, HOUSE)
    assert "S005" not in {d.code for d in now} and {"S002", "R005"} <= {d.code for d in now}
    assert now == _of(full_run(rules, session.overlays), HOUSE)

    # And removed again: judged again among Advanced Civilization's alone, not kept from before.
    session.set_text(SETTLERS, SETTLERS_TEXT.replace("family: imperial-settlers\n", ""))
    assert [d.code for d in _of(session.update().diagnostics, HOUSE)] == ["S005"]


def test_a_new_files_kind_and_keys_are_completed_from_the_folders_own_families(tmp_path: Path) -> None:
    rules = _tiny(tmp_path / "rules")
    uri = (rules / HOUSE).absolute().as_uri()

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        await editor.settle()
        editor.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "k"}}
        )
        await editor.settle()
        kinds = completion_labels(editor, uri, {"line": 0, "character": 1})
        assert "kind: civilization_cards" in kinds and "kind: cards" not in kinds, kinds
        assert "kind: technologies" not in kinds and "kind: rule_index" in kinds
        editor.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": "kind: cards\ncards:\n  - id: x\n    \n"}],
            },
        )
        # The keys of a card: none of Imperial Settlers' (`printed_ids`, `kind` of location).
        keys = completion_labels(editor, uri, {"line": 3, "character": 4})
        assert not {"printed_ids", "kind"} & keys, keys

    asyncio.run(session())


def test_a_new_files_ids_are_offered_from_its_own_familys_files(tmp_path: Path) -> None:
    """Completion and definitions in a file no ruleset reads looked in every file read, so a new
    civilization-cards file was offered another game's phases (every family has `phases`)."""
    from civrules.lsp.index import Index

    rules = _tiny(tmp_path / "rules")
    session = Session(rules)
    session.set_text(SETTLERS, SETTLERS_TEXT + "phases:\n  - {id: harvest, name: Harvest}\n")
    session.set_text(HOUSE, "kind: civilization_cards\ncards:\n  - id: mining\n    name: Mining\n")
    index = Index(session.update())
    offered = index.ids(HOUSE)
    assert ("pottery", "civilization_cards") in offered and ("harvest", "phases") not in offered, offered
    (harvest,) = [s for s in index.by_id["harvest"] if s.definition]
    assert index.definitions(harvest) == [harvest]  # its own family's file finds it still


#: A map: a kind both Advanced Civilization (the default family) and Sid Meier's Civilization have.
BOARD = "maps/board.yaml"
BOARD_TEXT = "kind: map\nareas:\n  - id: rome\n    name: Rome\n"
#: A Sid Meier's Civilization ruleset beside the tiny Advanced Civilization one, and its `files:`.
CIV = "rulesets/civ.yaml"
CIV_TEXT = "kind: ruleset\nid: civ\nname: Civ\nfamily: sid-meiers-civilization\n"
READS_BOARD = "files:\n  map:\n    - maps/board.yaml\n"


@pytest.mark.parametrize("first", [True, False], ids=["read-then-not", "not-then-read"])
def test_a_file_a_manifest_stops_or_starts_reading_is_judged_again_in_a_session(tmp_path: Path, first: bool) -> None:
    """A file a ruleset stopped reading kept that ruleset's family's judgment in the language server
    (its hints, its keys offered, its index kind) until the file itself changed, where a full run
    judges it among the rules folder's families; and a file a ruleset started to read kept the
    folder's judgment in the index (the keys of the other game's map), the ruleset's own diagnostics
    right. A manifest's edit judges again the files it stops or starts reading, as a full run.
    From either start, each of the two changes fails on the old code."""
    rules = _tiny(tmp_path / "rules")
    (rules / BOARD).parent.mkdir(parents=True)
    (rules / BOARD).write_text(BOARD_TEXT, encoding="utf-8")
    reading, not_reading = CIV_TEXT + READS_BOARD, CIV_TEXT
    texts = [reading, not_reading, reading] if first else [not_reading, reading, not_reading]
    (rules / CIV).write_text(texts[0], encoding="utf-8")
    board = (rules / BOARD).absolute().as_uri()
    civ = (rules / CIV).absolute().as_uri()
    # A new top-level key of the map: Sid Meier's maps have `tiles`, Advanced Civilization's `borders`.
    at = {"line": 4, "character": 0}

    async def session() -> None:
        editor = Editor(rules)
        editor.initialize(rules, {})
        await editor.settle()
        editor.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": board, "languageId": "yaml", "version": 1, "text": BOARD_TEXT + "\n"}},
        )
        editor.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": civ, "languageId": "yaml", "version": 1, "text": texts[0]}},
        )
        for version, text in enumerate(texts, start=1):
            if version > 1:
                editor.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": civ, "version": version}, "contentChanges": [{"text": text}]},
                )
            await editor.settle()
            keys = completion_labels(editor, board, at)
            if READS_BOARD in text:  # read by the civ ruleset: its family's map
                assert "tiles" in keys and "borders" not in keys, (version, keys)
            else:  # read by none: judged among the folder's families, the default's map
                assert "borders" in keys and "tiles" not in keys, (version, keys)

    asyncio.run(session())

    # The diagnostics, each way, are a full run's.
    checked = Session(rules)
    for text in texts:
        checked.set_text(CIV, text)
        assert _of(checked.update().diagnostics, BOARD) == _of(full_run(rules, checked.overlays), BOARD), text
