"""The designer's reference in docs/ is generated from the schemas and kept current."""

from __future__ import annotations

from civrules.families import default_family
from civrules.schema import load_schema
from tests.conftest import REPO
from tools.reference import render_reference

COLLECTIONS = default_family().collections
SETTINGS = default_family().settings


def test_the_committed_reference_is_the_generated_one() -> None:
    committed = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    assert committed == render_reference(), "docs/reference.md is stale: run `python -m tools.reference`"


def test_the_reference_lists_every_field_of_every_kind_and_every_overlay_target() -> None:
    text = render_reference()
    for field in ("cards[].credits[].points", "commodities[].count", "calamities[].modifiers[].amount", "hand_limit"):
        assert f"### `{field}`" in text, field
    for name in [*COLLECTIONS, *SETTINGS]:
        assert f"`overlay.{name}`" in text or f"| `{name}` |" in text, name


def test_every_setting_a_variant_can_change_is_typed_in_the_overlay_schema() -> None:
    overlay = load_schema("ruleset")["properties"]["overlay"]["properties"]
    assert set(overlay) == {*COLLECTIONS, "settings"}
    assert set(overlay["settings"]["properties"]) == {*SETTINGS, "remove", "replace", "add"}
    for key, slot in SETTINGS.items():
        assert key in load_schema(slot)["properties"], (key, slot)


def test_the_overlay_patch_of_each_collection_is_typed_field_by_field_from_its_own_schema() -> None:
    from tools.reference import overlay_patch_defs

    defs = load_schema("ruleset")["$defs"]
    for name, generated in overlay_patch_defs().items():
        assert defs.get(name) == generated, f"`{name}` is stale: run `python -m tools.reference`"
