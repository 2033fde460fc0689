"""Imperial Settlers in the editor and at the command line: `civrules lsp` (diagnostics, hover,
definition across the family's files), `civrules watch` and `civrules sheets`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.lsp.index import Index, Symbol
from civrules.pipeline.incremental import Session
from tests.conftest import RULES, copy_rulesets
from tests.core.test_lsp import Client, position
from tests.core.test_watch import Watcher

HOUSE = Path(__file__).resolve().parent / "fixtures" / "house-rule"
DECK = "decks/house-romans.yaml"
CARDS = "cards/imperial-settlers.yaml"
FACTIONS = "factions/imperial-settlers.yaml"
MANIFEST = "rulesets/imperial-settlers.yaml"
PEACEFUL = "rulesets/imperial-settlers-peaceful.yaml"


def _tree(target: Path) -> Path:
    """The family's base, its peaceful variant and the house rule of the tests (its own files)."""
    copy_rulesets(target, "imperial-settlers", "imperial-settlers-peaceful")
    for path in HOUSE.rglob("*.yaml"):
        (target / path.relative_to(HOUSE)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / path.relative_to(HOUSE))
    return target


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tree(tmp_path_factory.mktemp("editor") / "rules")


@pytest.fixture(scope="module")
def index(tree: Path) -> Index:
    return Index(Session(tree).update())


def _symbol_at(index: Index, tree: Path, relative: str, needle: str, offset: int) -> Symbol:
    text = (tree / relative).read_text(encoding="utf-8")
    at = position(text, needle, offset)
    found = index.at(relative, at["line"] + 1, at["character"] + 1)
    assert found is not None, (relative, needle)
    return found


def test_a_custom_decks_card_goes_to_the_card_in_the_card_list(index: Index, tree: Path) -> None:
    symbol = _symbol_at(index, tree, DECK, "{card: rom010", len("{card: r"))
    assert symbol is not None and symbol.collection == "cards" and not symbol.definition
    (definition,) = index.definitions(symbol)
    assert definition.relative == CARDS and definition.definition
    assert "Espiões" in index.describe(symbol)


def test_a_faction_goes_to_its_board_and_a_board_to_its_deck(index: Index, tree: Path) -> None:
    faction = _symbol_at(index, tree, DECK, "faction: romans", len("faction: r"))
    assert faction is not None and faction.collection == "factions"
    (definition,) = index.definitions(faction)
    assert definition.relative == FACTIONS
    deck = _symbol_at(index, tree, FACTIONS, "deck: romans", len("deck: r"))
    assert deck is not None and deck.collection == "decks"
    (definition,) = index.definitions(deck)
    assert definition.relative == MANIFEST


def test_a_variants_overlay_target_goes_to_the_base(index: Index, tree: Path) -> None:
    symbol = _symbol_at(index, tree, PEACEFUL, "- id: raze_opponent_location", len("- id: r"))
    assert symbol is not None and symbol.collection == "actions"
    (definition,) = index.definitions(symbol)
    assert definition.relative == MANIFEST
    assert "Destruir um Local de um oponente" in index.describe(symbol)


def test_the_server_publishes_the_familys_diagnostics_hover_and_definition(tmp_path: Path) -> None:
    rules = _tree(tmp_path / "rules")
    deck = rules / DECK
    text = deck.read_text(encoding="utf-8").replace("{card: rom010, copies: 1}", "{card: bar010, copies: 1}")
    client = Client(rules)
    try:
        uri = deck.absolute().as_uri()
        client.request("initialize", {"processId": None, "rootUri": rules.absolute().as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        found = client.diagnostics_until(uri, "F004")
        (stolen,) = [d for d in found if d["code"] == "F004"]
        assert stolen["range"]["start"] == position(text, "bar010")
        at = position(text, "{card: rom008", len("{card: r"))
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
        assert "Engenheiros" in str(hover)
        definition = client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": at})
        targets = definition if isinstance(definition, list) else [definition]
        assert any(t["uri"].endswith(CARDS) for t in targets)
        assert client.close() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def test_watch_reports_a_broken_custom_deck_and_its_fix(tmp_path: Path) -> None:
    rules = _tree(tmp_path / "rules")
    watcher = Watcher(rules, "imperial-settlers-house")
    first = watcher.until("civrules: ")
    assert not any("error[" in line for line in first)
    deck = rules / DECK
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("{card: rom003, copies: 3}", "{card: rom003, copies: 2}"), encoding="utf-8")
    changed = watcher.until("civrules: ")
    assert any(f"{deck}:" in line and "error[F003]" in line for line in changed), changed
    deck.write_text(text, encoding="utf-8")
    fixed = watcher.until("civrules: ")
    assert any(line.startswith("fixed: ") and "error[F003]" in line for line in fixed), fixed
    assert watcher.interrupt() == 130


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_civrules_sheets_writes_the_familys_sheets(tmp_path: Path, paper: str) -> None:
    out = tmp_path / "sheets"
    result = CliRunner().invoke(
        main, ["--rules", str(RULES), "sheets", "imperial-settlers", "--paper", paper, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.glob("*.html")} == {
        "index.html",
        "common-cards.html",
        "deck-building.html",
        "faction-boards.html",
        "faction-cards.html",
        "round-and-actions.html",
        "solo-game.html",
    }
    page = (out / "faction-cards.html").read_text(encoding="utf-8")
    assert ("size: A4 landscape" if paper == "a4" else "size: letter landscape") in page


def test_completion_offers_the_familys_fields_ids_and_written_kinds(tmp_path: Path) -> None:
    """A family's file writes `kind: cards`, which civrules reads as `imperial-settlers/cards`:
    completion offered nothing in such a file (it looked the written kind up among the qualified
    ones), and offered `kind: imperial-settlers/cards`, which no file may write."""
    import asyncio

    from tests.core.test_lsp import Editor

    tree = _tree(tmp_path / "rules")
    cards = (tree / CARDS).read_text(encoding="utf-8")
    deck = (tree / DECK).read_text(encoding="utf-8")

    async def session() -> None:
        editor = Editor(tree)
        editor.initialize(tree, {})
        await editor.settle()

        def labels(relative: str, at: dict[str, int]) -> set[str]:
            uri = (tree / relative).absolute().as_uri()
            found = editor.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": at})
            return {item["label"] for item in found["items"]}

        fields = labels(CARDS, position(cards, "    deal: wood", len("    ")))
        assert {"deal", "cost", "printed_ids", "copies"} <= fields
        ids = labels(DECK, position(deck, "{card: rom008", len("{card: ")))
        assert "rom008" in ids and "romans" not in ids
        new = tree / "cards" / "new.yaml"
        new.write_text("\n", encoding="utf-8")
        kinds = labels("cards/new.yaml", {"line": 0, "character": 0})
        # The kinds of the folder's families: Imperial Settlers' (round 31: not every game's).
        assert {"kind: cards", "kind: faction_deck"} <= kinds and "kind: civilization_cards" not in kinds
        assert not any("/" in label for label in kinds)

    asyncio.run(session())
