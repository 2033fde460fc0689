"""The language server's index made from the last one (civrules.lsp.index.Index): after an edit,
only the files the edit changed are walked for ids, and the index is the one a fresh walk makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.lsp import index as index_module
from civrules.lsp.index import Index
from civrules.pipeline.incremental import Session
from tests.conftest import copy_rulesets

#: Two families' rulesets, a variant of each among them: a variant's ids point into its base's files.
RULESETS = ("advanced-civilization", "advanced-civilization-western", "imperial-settlers", "imperial-settlers-peaceful")
VARIANT = "rulesets/advanced-civilization-western.yaml"
CARDS = "cards/advanced-civilization.yaml"


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Session]:
    """The rules, and a session on them: each test gives every buffer it edits back its file's
    text before it ends."""
    target = copy_rulesets(tmp_path_factory.mktemp("index-reuse") / "rules", *RULESETS)
    return target, Session(target)


def as_found(index: Index) -> tuple[object, ...]:
    """What requests read of an index: every symbol by file and by id, and each file's kind."""
    return (index.by_file, index.by_id, index.kinds)


def walked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files walked for ids from now on, in order."""
    seen: list[str] = []
    definitions = index_module._definitions

    def recording(relative: str, *rest: object) -> object:
        seen.append(relative)
        return definitions(relative, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(index_module, "_definitions", recording)
    return seen


def edited(rules: Path, relative: str, old: str, new: str) -> str:
    text = (rules / relative).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("relative", "old", "new"),
    [
        # A designer's edit of a variant: an id it names (a reference that goes away).
        (VARIANT, "western", "wester"),
        # A card's cost (spliced: the session reads that card again), and a card's id (a definition).
        (CARDS, "cost: 45", "cost: 46"),
        (CARDS, "- id: pottery", "- id: potery"),
    ],
)
def test_an_edit_walks_only_its_file_and_gives_a_fresh_walks_index(
    started: tuple[Path, Session], relative: str, old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, session = started
    first = Index(session.update())
    seen = walked(monkeypatch)
    session.set_text(relative, edited(rules, relative, old, new))
    result = session.update()
    reused = Index(result, first)
    assert seen == [relative]
    assert as_found(reused) == as_found(Index(result))
    # Undone: the file is walked again (its reading is another), and the index is the first one's.
    session.set_text(relative, None)
    again = session.update()
    assert as_found(Index(again, reused)) == as_found(first)


def test_a_reading_kept_under_another_kind_is_walked_again(
    started: tuple[Path, Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same reading of a file judged another kind (read for another family's ruleset) gives
    the symbols of the kind it has now, not those found under the other."""
    _, session = started
    result = session.update()
    first = Index(result)
    forged = Index(result, first)
    entry = forged._files[CARDS]
    forged._files[CARDS] = index_module._FileSymbols(entry.document, "map", (), (), ())
    seen = walked(monkeypatch)
    assert as_found(Index(result, forged)) == as_found(first)
    assert seen == [CARDS]


def test_each_files_symbols_are_in_the_order_of_their_places_and_each_is_found_by_its_id(
    started: tuple[Path, Session],
) -> None:
    _, session = started
    index = Index(session.update())
    by_file = [symbol for symbols in index.by_file.values() for symbol in symbols]
    assert sorted(by_file, key=repr) == sorted((s for symbols in index.by_id.values() for s in symbols), key=repr)
    assert len(by_file) > 1000  # every file's ids, of two families
    for relative, symbols in index.by_file.items():
        assert all(symbol.relative == relative for symbol in symbols)
        assert symbols == sorted(symbols, key=lambda s: (s.span.line, s.span.column))
