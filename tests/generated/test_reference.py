"""The designer's reference in docs/ is generated from the schemas and kept current."""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.families import default_family
from civrules.schema import load_schema
from tests.conftest import REPO
from tools.reference import main, render_reference

COLLECTIONS = default_family().collections
SETTINGS = default_family().settings


def test_the_committed_reference_is_the_generated_one() -> None:
    committed = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    assert committed == render_reference(), "docs/reference.md is stale: run `python -m tools.reference`"


def test_check_writes_nothing_and_fails_on_a_stale_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    current = tmp_path / "reference.md"
    current.write_text((REPO / "docs" / "reference.md").read_text(encoding="utf-8"), encoding="utf-8")
    stale = tmp_path / "stale.md"
    stale.write_text("# an older reference\n", encoding="utf-8")
    assert main(["--check", str(current)]) == 0
    assert main(["--check", str(stale)]) == 1
    assert stale.read_text(encoding="utf-8") == "# an older reference\n"
    assert "stale.md: differs from what tools.reference writes" in capsys.readouterr().err


def test_the_reference_lists_every_field_of_every_kind_and_every_overlay_target() -> None:
    text = render_reference()
    for field in ("cards[].credits[].points", "commodities[].count", "calamities[].modifiers[].amount", "hand_limit"):
        assert f"### `{field}`" in text, field
    for name in [*COLLECTIONS, *SETTINGS]:
        assert f"`overlay.{name}`" in text or f"| `{name}` |" in text, name


def test_every_setting_a_variant_can_change_is_typed_in_the_overlay_schema() -> None:
    overlay = load_schema("ruleset")["properties"]["overlay"]["properties"]
    assert set(overlay) == {*COLLECTIONS, "settings"}
    # `citations`: where the settings that take no citation of their own are cited (round 24)
    assert set(overlay["settings"]["properties"]) == {*SETTINGS, "remove", "replace", "add", "citations"}
    for key, slot in SETTINGS.items():
        assert key in load_schema(slot)["properties"], (key, slot)


def test_the_overlay_entries_of_each_collection_are_typed_from_its_own_schema() -> None:
    """Each collection's `add`, `replace`, `patch` and `remove` entries are typed by its own
    definitions (keyed by its own key), not one shared by collections keyed differently."""
    from tools.reference import overlay_blocks, overlay_defs

    schema = load_schema("ruleset")
    for name, generated in overlay_defs().items():
        assert schema["$defs"].get(name) == generated, f"`{name}` is stale: run `python -m tools.reference`"
    overlay = schema["properties"]["overlay"]["properties"]
    for name, block in overlay_blocks().items():
        assert overlay[name] == block, f"`overlay.{name}` is stale: run `python -m tools.reference`"
    assert not {"overlay_entity", "overlay_patch", "overlay_removal"} & set(schema["$defs"])


def test_the_reference_names_each_overlay_entrys_key_and_a_removals_reason() -> None:
    """Each collection's add, replace, patch and remove entries are documented with the key that
    names them, and a removal with its `why`: the reference merged a block's generic part over the
    collection's own and showed `remove: [{...: "..."}]` for every Advanced Civilization collection."""
    text = render_reference()
    for name, spec in COLLECTIONS.items():
        key = spec.key
        for operation in ("add", "replace", "patch", "remove"):
            assert f"### `overlay.{name}.{operation}[].{key}`" in text, (name, operation, key)
        assert f"### `overlay.{name}.remove[].why`" in text, name
    assert "`remove: [{...: " not in text and "`add: [{...: " not in text and "`patch: [{...: " not in text
