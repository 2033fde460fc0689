"""A session assembles again only the collections an edit changed (civrules.model.assembly): the
Advanced Civilization assembly's builders declare what they read."""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.families.advanced_civilization.model import of_family
from civrules.pipeline.incremental import Session, full_run
from tests.conftest import copy_rulesets

BASE, VARIANT = "advanced-civilization", "advanced-civilization-western"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_rulesets(tmp_path_factory.mktemp("assembly") / "rules", BASE, VARIANT)


def test_an_edit_of_the_map_assembles_the_map_again_and_reuses_the_other_collections_models(tree: Path) -> None:
    """The assembly's builders declare the collections they read (`assembles`): after an area's
    edit the areas are assembled again (and the borders, written in the edited file: their origins
    are in its new reading), the cards, commodities and calamities are the models made before; after
    a card's edit, the other way round. The diagnostics are a full run's."""
    session = Session(tree)
    first = of_family(session.update().analyses[BASE].model)
    areas = "maps/mediterranean.yaml"
    text = (tree / areas).read_text(encoding="utf-8")
    session.set_text(areas, text.replace("    name: Adriatic Sea\n", "    name: Adriatic\n", 1))
    made = session.assembled.made
    edited = session.update()
    model = of_family(edited.analyses[BASE].model)
    assert edited.spliced == [areas] and model is not first
    assert model.areas is not first.areas and model.borders is not first.borders
    adriatic = model.areas.get("adriatic_sea")
    assert adriatic is not None and adriatic.name == "Adriatic"
    assert model.cards is first.cards and model.groups is first.groups
    assert model.commodities is first.commodities and model.calamities is first.calamities
    assert session.assembled.made > made
    assert edited.diagnostics == full_run(tree, session.overlays)
    cards = "cards/advanced-civilization.yaml"
    session.set_text(cards, (tree / cards).read_text(encoding="utf-8").replace("cost: 45", "cost: 145", 1))
    again = session.update()
    after = of_family(again.analyses[BASE].model)
    assert after.cards is not model.cards
    assert after.areas is model.areas and after.calamities is model.calamities
    assert again.diagnostics == full_run(tree, session.overlays)


def test_a_manifest_edit_reassembles_only_what_the_manifest_holds(tree: Path) -> None:
    """A change to the variant's name reads its manifest again: its nations (patched there) are
    assembled again, and every entity of a file the edit left alone is the model made before,
    in the variant as in its base (the failing counterpart: the patched nation is not)."""
    session = Session(tree)
    first = session.update()
    base, variant = of_family(first.analyses[BASE].model), of_family(first.analyses[VARIANT].model)
    manifest = "rulesets/advanced-civilization-western.yaml"
    text = (tree / manifest).read_text(encoding="utf-8")
    session.set_text(
        manifest, text.replace('name: "Advanced Civilization with', 'name: "Advanced Civilisation with', 1)
    )
    edited = session.update()
    assert edited.rechecked == [VARIANT]
    after = of_family(edited.analyses[VARIANT].model)
    assert after is not variant and after.name == "Advanced Civilisation with the Western Extension"
    assert after.cards is variant.cards and after.calamities is variant.calamities
    assert all(card is base.cards.get(card.id) for card in after.cards)
    assert after.nations is not variant.nations  # the overlay's nations: in the file read again
    assert edited.diagnostics == full_run(tree, session.overlays)
