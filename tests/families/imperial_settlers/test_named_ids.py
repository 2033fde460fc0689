"""The ids Imperial Settlers' own rules name (`NAMED_IDS`, in
the family's `__init__.py`): an editor's rename refuses them, and a walk of the family's code,
templates and schemas holds the list complete."""

from __future__ import annotations

import pytest

from civrules.families import families
from civrules.lsp.index import Index, RenameRefusedError
from civrules.pipeline.incremental import Session
from tests.conftest import copy_files
from tests.named_ids import assert_every_named_id_declared, definition
from tests.shipped import ruleset_files

FAMILY = families()["imperial-settlers"]

#: Literals of the family's code that equal a shipped id and are not it, with why.
NOT_THE_ID = {
    ("card_anatomy", "build_bonus"): "a card's field; the part of a card is named in the data alone",
    ("card_anatomy", "colour"): "a card's field",
    ("card_anatomy", "copies"): "a card's field",
    ("card_anatomy", "cost"): "a card's field",
    ("card_anatomy", "deal"): "a card's field, and the value an action's `gives` takes",
    ("card_anatomy", "effect"): "a card's field",
    ("card_anatomy", "spoils"): "a card's field, and the value an action's `gives` takes",
    ("actions", "deal"): "the value an action's `gives` takes (a card's deal), not the action",
    ("actions", "build"): "the key of the engine package's answers",
    ("components", "cards"): "the slot and collection `cards`",
    ("components", "wood"): "the good `wood`, which the component counts",
    ("components", "stone"): "the good `stone`, which the component counts",
    ("components", "food"): "the good `food`, which the component counts",
    ("components", "workers"): "the key of the engine package's answers, and the runtime's argument",
    ("components", "faction_board"): "a value of the solo setting `source_of_goods`",
    ("colours", "gold"): "the good `gold`",
    ("phases", "action"): "the location kind `action`",
    ("phases", "production"): "the location kind `production`",
    ("phases", "lookout"): "the key of the solo sheet's lookout steps",
    ("factions", "japanese"): "the key of the solo sheet's target order",
    ("decks", "japanese"): "the key of the solo sheet's target order",
    ("factions", "romans"): "the scaffold's example where the base has no faction",
    ("decks", "romans"): "the scaffold's example where the base has no faction",
    ("cards", "bar001"): "an example in the ids module's docstring",
}


def test_every_id_the_family_code_names_is_declared() -> None:
    """A walk of every literal of the family's code, templates and schemas: each that is a
    shipped id is declared named, or listed here as another thing's name; and each declared id is
    a shipped one."""
    assert_every_named_id_declared(FAMILY, NOT_THE_ID)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    rules = copy_files(tmp_path_factory.mktemp("named") / "rules", ruleset_files("imperial-settlers"))
    return Index(Session(rules).update())


@pytest.mark.parametrize(("collection", "identifier"), [("goods", "stone"), ("goods", "worker")])
def test_a_rename_of_a_good_the_cards_cost_names_is_refused(index: Index, collection: str, identifier: str) -> None:
    """Renaming `stone` gave 95 F009 errors (a card's cost lists goods from a fixed set) and
    `worker` an F020 (the build bonus check names it): the rename is refused, before the user
    types (prepareRename asks `renamable`), saying what names the id and what to do instead."""
    symbol = definition(index, collection, identifier)
    with pytest.raises(RenameRefusedError) as refused:
        index.renamable(symbol)
    assert "own rules name" in str(refused.value) and "`name:`" in str(refused.value)
    with pytest.raises(RenameRefusedError):
        index.rename(symbol, "granite")


def test_an_id_the_family_does_not_name_still_renames(index: Index) -> None:
    symbol = definition(index, "components", "score_board")
    assert index.rename(symbol, "scoring_board")
