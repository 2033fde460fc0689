"""The ids Sid Meier's Civilization's own rules name (`NAMED_IDS`, in
the family's `__init__.py`): an editor's rename refuses them, and a walk of the family's code,
templates and schemas holds the list complete."""

from __future__ import annotations

import pytest

from civrules.families import families
from civrules.lsp.index import Index, RenameRefusedError
from civrules.pipeline.incremental import Session
from tests.conftest import copy_files
from tests.named_ids import assert_every_named_id_declared, definition, shipped_ids
from tests.shipped import ruleset_files

FAMILY = families()["sid-meiers-civilization"]

#: Literals of the family's code that equal a shipped id and are not it, with why.
NOT_THE_ID = {
    ("city_actions", "resource"): "a technology effect's field",
    ("space_kinds", "great_person"): "what a combat bonus counts (BonusPer: each General)",
    # The village marker only the community variant adds is named in its data alone.
    ("villages_markers", "great_person"): "what a combat bonus counts (BonusPer: each General)",
    ("governments", "fundamentalism"): "the key of the combat setting's bonus under Fundamentalism",
    ("wonders", "colossus"): "the scaffold's example where the base has no wonder",
    ("buildings", "celeiro"): "the scaffold's example where the base has no building",
    ("technologies", "pottery"): "an example in the ids module's docstring",
    # The checks and the engine read a victory's `kind` and a bonus's `situation`, fixed by the
    # schema, not the entity's id (a rename of the id alone gave no diagnostic, round 35's audit).
    ("victories", "culture"): "the value of a victory's `kind`",
    ("victories", "technology"): "the value of a victory's `kind`",
    ("victories", "economy"): "the value of a victory's `kind`",
    ("victories", "military"): "the value of a victory's `kind`",
    ("combat_bonuses", "defending_city"): "the value of a combat bonus's `situation`",
    ("combat_bonuses", "defending_capital"): "the value of a combat bonus's `situation`",
}


def test_every_id_the_family_code_names_is_declared() -> None:
    """A walk of every literal of the family's code, templates and schemas: each that is a
    shipped id is declared named, or listed here as another thing's name; and each declared id is
    a shipped one."""
    assert_every_named_id_declared(FAMILY, NOT_THE_ID)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    rules = copy_files(tmp_path_factory.mktemp("named") / "rules", ruleset_files("sid-meiers-civilization"))
    return Index(Session(rules).update())


def test_a_rename_of_the_culture_victory_space_kind_is_refused(index: Index) -> None:
    """Renaming the space kind `culture_victory` gave a T014 (the culture track check names the
    kind of its last space): the rename is refused, before the user types (prepareRename asks
    `renamable`), saying what names the id and what to do instead."""
    symbol = definition(index, "space_kinds", "culture_victory")
    with pytest.raises(RenameRefusedError) as refused:
        index.renamable(symbol)
    assert "own rules name" in str(refused.value) and "`name:`" in str(refused.value)
    with pytest.raises(RenameRefusedError):
        index.rename(symbol, "cultural_victory")


def test_an_id_the_family_does_not_name_still_renames(index: Index) -> None:
    symbol = definition(index, "wonders", "colossus")
    assert index.rename(symbol, "colosso")


def test_the_walk_knows_ids_only_a_variant_adds_and_ids_the_code_builds() -> None:
    """Round 35's walk read the base files alone: the civilizations the community variant adds
    (`overlay: add`) were no shipped id, and a literal naming one was never compared. Nor was a
    string the code builds (`f"{kind}_victory"`): only whole constants were."""
    import ast

    from tests.named_ids import _built

    assert {"americans", "zulu"} <= shipped_ids(FAMILY)["civilizations"]
    assert {"egito", "roma"} <= shipped_ids(FAMILY)["civilizations"]
    built = [_built(ast.parse(code, mode="eval").body) for code in ('f"{kind}_victory"', '"culture_" + kind')]
    assert all(pattern is not None and pattern.fullmatch("culture_victory") for pattern in built)
    assert _built(ast.parse('f"{n:03d} cards"', mode="eval").body) is None  # words, not an id
