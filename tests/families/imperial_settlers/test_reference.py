"""docs/reference.md documents this family's file kinds, field by field, and what its variants change."""

from __future__ import annotations

from civrules.families import family_named
from tests.conftest import REPO
from tools.reference import render_reference


def test_the_reference_documents_every_kind_and_collection_of_the_family() -> None:
    family = family_named("imperial-settlers")
    assert family is not None
    text = render_reference()
    assert text == (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    for kind in family.kinds:
        assert f"## Imperial Settlers: `kind: {kind}`" in text, kind
        assert f"Schema: `schemas/imperial-settlers/{family.kinds[kind].split('/')[-1]}`" in text, kind
    for name in family.collections:
        assert f"| `overlay.{name}` |" in text, name
    for field in ("cards[].spoils", "faction_decks[].cards[].copies", "factions[].board.production"):
        assert f"### `{field}`" in text, field
