"""The ids Advanced Civilization's own rules name (`NAMED_IDS`, in
the family's `__init__.py`): an editor's rename refuses them, and a walk of the family's code,
templates and schemas holds the list complete."""

from __future__ import annotations

import pytest

from civrules.families import families
from civrules.lsp.index import Index, RenameRefusedError
from civrules.pipeline.incremental import Session
from tests.budget import heavy
from tests.conftest import copy_files
from tests.core.test_lsp import KEEP
from tests.named_ids import assert_every_named_id_declared, definition

FAMILY = families()["advanced-civilization"]

#: Literals of the family's code that equal a shipped id and are not it, with why.
NOT_THE_ID = {
    ("options", "map"): "the slot and kind `map`",
    ("options", "stoic"): "the engine function's argument of the same name, in its error",
    ("calamities", "regression"): "the key of the A.S.T.'s rule of regression, a setting",
    ("calamities", "famine"): "the scaffold's example where the base has no calamity",
    ("calamities", "flood"): "the map sheet's legend key for flood plains",
    ("phases", "conflict"): "the effect kind `conflict` (EffectKind)",
    ("civilization_cards", "pottery"): "the scaffold's example, and one in the ids module's docstring",
    ("commodities", "lead"): "the key of the A.S.T. sheet's lead text",
    ("civilization_cards", "mining"): "the `mining` setting's card where it names none; the data name it "
    "(`mining: {card: mining}`), which a rename rewrites, and the setting's own name",
}


@heavy
def test_every_id_the_family_code_names_is_declared() -> None:
    """A walk of every literal of the family's code, templates and schemas: each that is a
    shipped id is declared named, or listed here as another thing's name; and each declared id is
    a shipped one."""
    assert_every_named_id_declared(FAMILY, NOT_THE_ID)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    rules = copy_files(tmp_path_factory.mktemp("named") / "rules", KEEP)
    return Index(Session(rules).update())


def test_a_rename_of_a_phase_the_engine_names_is_refused(index: Index) -> None:
    """Renaming the phase `trade` left the engine package's trade rules (the fewest cards a trade
    needs) reading a phase that is no longer there: the rename is refused, before the user types
    (prepareRename asks `renamable`), saying what names the id and what to do instead."""
    symbol = definition(index, "phases", "trade")
    with pytest.raises(RenameRefusedError) as refused:
        index.renamable(symbol)
    assert "own rules name" in str(refused.value) and "`name:`" in str(refused.value)
    with pytest.raises(RenameRefusedError):
        index.rename(symbol, "trading")


def test_an_id_the_family_does_not_name_still_renames(index: Index) -> None:
    symbol = definition(index, "civilization_cards", "pottery")
    assert index.rename(symbol, "ceramics")
