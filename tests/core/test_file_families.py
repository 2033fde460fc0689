"""A rule file no ruleset reads yet (a new file, an unsaved buffer) is judged as a file of the rules
folder's own families: its hints, completions and hovers never describe another game's files.

Round 31's editor trial: a `kind: cards` buffer beside Advanced Civilization's rulesets was
validated against Imperial Settlers' card schema (the one family with a `cards` kind), and its
hints spoke of "the kind of location: production, ability or action".
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline.incremental import Session, full_run
from tests.budget import heavy
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
        editor = await Editor.started(rules)
        editor.open(uri, "k")
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
        editor = await Editor.started(rules)
        editor.open(board, BOARD_TEXT + "\n")
        editor.open(civ, texts[0])
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


# --- round 33: files created, deleted and renamed; paths that name no file ---

#: Sid Meier's Civilization's map (its `tiles`): an error of every kind of `map` but its own.
TILES_TEXT = "kind: map\ntiles:\n  - id: t1\n"
TYPO = "maps/bord.yaml"


def _reading(manifest: str, path: str | None) -> str:
    """``manifest``'s text reading the map at ``path`` too (none: no map)."""
    if path is None:
        return manifest
    files = "files:\n" if "files:" not in manifest else ""
    return f"{manifest}{files}  map:\n    - {path}\n"


def _full(rules: Path, session: Session, relative: str) -> list[tuple[str, str, str | None]]:
    return [(d.code, d.message, d.hint) for d in _of(full_run(rules, session.overlays), relative)]


def _mine(diagnostics: list[Diagnostic], relative: str) -> list[tuple[str, str, str | None]]:
    return [(d.code, d.message, d.hint) for d in _of(diagnostics, relative)]


def test_a_missing_paths_did_you_mean_follows_the_files_created_and_deleted(tmp_path: Path) -> None:
    """A manifest's path to no file says which file of its kind is closest (L012's did-you-mean).
    The session kept the ruleset's analysis while the files it had read were unchanged, so a file
    created since (the one the path meant, saved under the right name) went unproposed, and a file
    deleted since was still proposed, until the manifest itself changed. The proposal is now that
    of `validate`, each way."""
    rules = _tiny(tmp_path / "rules")
    tiny = "rulesets/tiny.yaml"
    (rules / tiny).write_text(_reading(TINY[tiny], TYPO), encoding="utf-8")
    session = Session(rules)
    hints = []
    for text in (None, BOARD_TEXT, None):  # no map, a map created (an unsaved buffer), the buffer closed
        session.set_text(BOARD, text)
        found = _mine(session.update().diagnostics, tiny)
        assert found == _full(rules, session, tiny), text
        hints += [hint for code, _, hint in found if code == "L012"]
    assert [("did you mean `maps/board.yaml`" in (hint or "")) for hint in hints] == [False, True, False], hints


#: What a designer does to a folder of two families' rulesets and one map, one step at a time.
STEPS = (
    "map-areas",  # the map written as Advanced Civilization's
    "map-tiles",  # ... as Sid Meier's Civilization's
    "map-deleted",
    "civ-reads-map",
    "civ-reads-typo",
    "civ-reads-nothing",
    "civ-deleted",
    "tiny-reads-map",
    "tiny-reads-typo",
    "tiny-reads-nothing",
    "typo-created",  # the misspelt path's file made, as a copy of the map
    "typo-deleted",
)


@heavy
def test_random_steps_of_files_and_manifests_give_the_diagnostics_of_a_full_run(tmp_path: Path) -> None:
    """The language server's and `watch`'s session against `validate` after each of 60 steps (seeded)
    that create, delete and rewrite files on disk or in the editor, and make a manifest start or stop
    reading a map, or read a path that names none. Found in round 33: a map a manifest stopped
    reading for a misspelt path kept the old family's judgment (its `tiles` judged Sid Meier's),
    and a misspelt path's did-you-mean did not follow the files created and deleted."""
    import random

    rules = _tiny(tmp_path / "rules")
    (rules / "maps").mkdir()
    texts = {"tiny": TINY["rulesets/tiny.yaml"], "civ": CIV_TEXT}
    session = Session(rules)
    rng = random.Random(33)
    taken: list[str] = []
    for count in range(60):
        step = rng.choice(STEPS)
        taken.append(step)
        in_editor = rng.random() < 0.5
        target, _, change = step.partition("-")
        written: tuple[str, str | None]
        if target == "map" or target == "typo":
            relative = BOARD if target == "map" else TYPO
            text = {"areas": BOARD_TEXT, "tiles": TILES_TEXT, "created": TILES_TEXT}.get(change)
            written = (relative, text)
        else:
            manifest = f"rulesets/{target}.yaml"
            path = {"reads-map": BOARD, "reads-typo": TYPO}.get(change)
            written = (manifest, None if change == "deleted" else _reading(texts[target], path))
        relative, text = written
        if in_editor and text is not None:
            session.set_text(relative, text)
        else:
            session.set_text(relative, None)
            if text is None:
                (rules / relative).unlink(missing_ok=True)
            else:
                (rules / relative).write_text(text, encoding="utf-8")
                # Each save is told from the one before by its time, however fast they come.
                os.utime(rules / relative, ns=(10**18 + count * 10**9, 10**18 + count * 10**9))
        got = session.update().diagnostics
        want = full_run(rules, session.overlays)
        assert [(d.code, d.span, d.message, d.hint) for d in got] == [
            (d.code, d.span, d.message, d.hint) for d in want
        ], taken
