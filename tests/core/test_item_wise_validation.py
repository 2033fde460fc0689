"""An invalid file's schema errors found item by item (civrules.schema): the diagnostics of a
jsonschema walk of the whole file, with jsonschema judging only the items the compiled validator
fails (issue 32, point 4: one error in a long list had every item walked again, per keystroke)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from civrules import schema
from civrules.diagnostics import Diagnostic, sort_diagnostics
from civrules.load import Document, Limits, read_yaml_text
from tests.budget import heavy
from tests.conftest import RULES

#: A file of each family's kinds with long lists, by its qualified kind: cards with nested lists
#: and credits, a map, calamities, a rule index, Sid Meier's units and tiles, Imperial Settlers'
#: cards and factions.
FILES = {
    "cards/advanced-civilization.yaml": "civilization_cards",
    "cards/mega-civilization-commodities.yaml": "commodities",
    "maps/mediterranean.yaml": "map",
    "calamities/advanced-civilization.yaml": "calamities",
    "rulebooks/advanced-civilization.yaml": "rule_index",
    "cards/sid-meiers-civilization-units.yaml": "sid-meiers-civilization/units",
    "maps/sid-meiers-civilization-tiles.yaml": "sid-meiers-civilization/map",
    "cards/imperial-settlers.yaml": "imperial-settlers/cards",
    "factions/imperial-settlers.yaml": "imperial-settlers/factions",
    # Manifests: a base's settings (each judged whole), a variant's overlay, the newer families'.
    "rulesets/mega-civilization.yaml": "ruleset",
    "rulesets/advanced-civilization-western.yaml": "ruleset",
    "rulesets/sid-meiers-civilization.yaml": "sid-meiers-civilization/ruleset",
    "rulesets/imperial-settlers.yaml": "imperial-settlers/ruleset",
    "rulesets/imperial-settlers-peaceful.yaml": "imperial-settlers/ruleset",
}
#: What a mistyped value may become: a wrong type, an unknown key beside it, `{unknown: }` where
#: a value is expected, a float JSON Schema counts as an integer, a value deleted.
VALUES = (": 1", ": x", ": [1]", "_zz: 3", ": {unknown: 1}", ": null", ": -5", ": true", ": 1e3", ": {}", ": [a, 7]")


@cache
def shipped_lines(relative: str) -> list[str]:
    return (RULES / relative).read_text(encoding="utf-8").split("\n")


def read(text: str, relative: str) -> Document | None:
    document, problems = read_yaml_text(text, relative, Limits())
    return document if document is not None and not problems else None


def whole_walk(document: Document, kind: str, limit: int | None) -> list[Diagnostic] | None:
    """The diagnostics of jsonschema's walk of the whole file, in its order (what a file was judged
    by before: the definition the judgment by parts is held to); None for a manifest that
    overlays without `extends:` (judged as a variant, not as written)."""
    data = document.data
    variant = isinstance(data, dict) and ("overlay" in data or "suppress" in data)
    if kind.endswith("ruleset") and variant and "extends" not in data:
        return None
    translate = schema._translator(document, schema._defs(kind), schema.load_schema(kind))
    errors = schema._validator(kind).iter_errors(data)
    found = schema._collect(document.file, (d for e in errors for d in translate((), e)), limit, {}, exact=True)
    assert found is not None
    return found


def mistyped(relative: str, changes: list[tuple[int, int]]) -> Document | None:
    """``relative`` with the value of each line picked by ``changes`` replaced; None when that
    does not read cleanly (a change the reader reports, not the schema)."""
    lines = list(shipped_lines(relative))
    keyed = [i for i, line in enumerate(lines) if ":" in line and not line.lstrip().startswith("#")]
    for at, value in changes:
        line = keyed[at % len(keyed)]
        lines[line] = lines[line].partition(":")[0] + VALUES[value % len(VALUES)]
    return read("\n".join(lines), relative)


def assert_judged_alike(relative: str, changes: list[tuple[int, int]], limit: int | None) -> None:
    document = mistyped(relative, changes)
    if document is None:
        return
    kind = FILES[relative]
    expected = whole_walk(document, kind, limit)
    if expected is not None:
        # The same diagnostics in the same order: past the limit, the same first ones.
        assert schema.validate_document(document, kind, limit) == expected


CHANGES = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=4)
LIMITS = st.sampled_from([None, 1, 2, 3])


@heavy
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(sorted(FILES)), changes=CHANGES, limit=LIMITS)
# `kind:` misspelt: the missing key's hint is the description the schema gives the property.
@example(relative="calamities/advanced-civilization.yaml", changes=[(0, 278), (0, 278)], limit=None)
def test_an_invalid_file_has_the_diagnostics_of_a_walk_of_the_whole_file(
    relative: str, changes: list[tuple[int, int]], limit: int | None
) -> None:
    assert_judged_alike(relative, changes, limit)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(sorted(FILES)), changes=CHANGES, limit=LIMITS)
def test_an_invalid_file_has_the_diagnostics_of_a_walk_of_the_whole_file_exhaustively(
    relative: str, changes: list[tuple[int, int]], limit: int | None
) -> None:
    assert_judged_alike(relative, changes, limit)


class _Recording:
    """An item validator that records each item jsonschema is given."""

    def __init__(self, validator: Any, seen: list[Any]) -> None:
        self.validator, self.seen = validator, seen

    def iter_errors(self, instance: Any) -> Any:
        self.seen.append(instance)
        return self.validator.iter_errors(instance)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.validator, name)


def test_jsonschema_judges_only_the_items_the_compiled_validator_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = shipped_lines("cards/advanced-civilization.yaml")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("cost:"))
    text = "\n".join([*lines[:at], lines[at].replace("cost:", "cots:"), *lines[at + 1 :]])
    document = read(text, "cards/advanced-civilization.yaml")
    assert document is not None
    expected = whole_walk(document, "civilization_cards", None)
    assert expected is not None
    seen: list[Any] = []
    item_validator = schema._item_validator
    monkeypatch.setattr(schema, "_item_validator", lambda *key: _Recording(item_validator(*key), seen))

    def no_whole_walk(kind: str) -> Any:
        raise AssertionError("the whole file was walked")

    monkeypatch.setattr(schema, "_validator", no_whole_walk)
    found = schema.validate_document(document, "civilization_cards")
    assert sort_diagnostics(found) == sort_diagnostics(expected)
    assert len(expected) == 1 and expected[0].code == "S002"
    (item,) = seen  # the mistyped card alone, of the file's cards and groups
    assert "cots" in item


def test_past_the_limit_the_first_errors_are_those_of_a_walk_of_the_whole_file() -> None:
    """Errors of the file's top level and of its lists' items, found apart, are met in the order of
    a walk of the whole file: the first ``limit`` of them are the same."""
    lines = list(shipped_lines("maps/mediterranean.yaml"))
    names = [i for i, line in enumerate(lines) if line.strip().startswith("name:")]
    for at in names[1:5]:
        lines[at] = lines[at].partition(":")[0] + ": [not, a, name]"
    lines[names[0]] = "nme: Mediterranean"  # the map's own name (top level): a misspelt key
    lines.append("stray_key: 1")
    document = read("\n".join(lines), "maps/mediterranean.yaml")
    assert document is not None
    everything = whole_walk(document, "map", None)
    assert everything is not None
    messages = [d.message for d in everything]
    assert {"unknown key `nme`", "unknown key `stray_key`"} <= set(messages) and len(messages) == 6
    for limit in range(1, len(everything) + 1):
        assert schema.validate_document(document, "map", limit) == whole_walk(document, "map", limit)
    assert schema.validate_document(document, "map") == everything
    assert schema.validate_document(document, "map", 3)[-1].code == "R011"


def test_a_list_a_pattern_of_the_file_may_judge_is_walked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A top-level `patternProperties` whose pattern matches the list's key judges the list too:
    an edit of its items is not judged by the new items alone."""
    listed = {"type": "array", "items": {"type": "integer"}}
    own = {"type": "object", "properties": {"values": listed}}
    monkeypatch.setattr(schema, "_fast_validator", lambda kind: object())
    for written, judged in ((own, listed), ({**own, "patternProperties": {"^val": {"maxItems": 2}}}, None)):
        monkeypatch.setattr(schema, "load_schema", lambda kind, written=written: written)
        schema._parts.cache_clear()
        try:
            assert schema._judged_by_item.__wrapped__("example", "values") == judged
        finally:
            schema._parts.cache_clear()


def alike(relative: str, key: int, value: int, every: int) -> Document | None:
    """``relative`` with the value of one key (the ``key``-th of those written on more than one line)
    replaced on every ``every``-th line that writes it: many items failing alike."""
    lines = list(shipped_lines(relative))
    names: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        name, colon, _ = line.strip().removeprefix("- ").partition(":")
        if colon and name and not line.lstrip().startswith("#"):
            names.setdefault(name, []).append(i)
    repeated = sorted(name for name, at in names.items() if len(at) > 1)
    for at in names[repeated[key % len(repeated)]][::every]:
        lines[at] = lines[at].partition(":")[0] + VALUES[value % len(VALUES)]
    return read("\n".join(lines), relative)


def assert_alike_judged_alike(relative: str, key: int, value: int, every: int, limit: int | None) -> None:
    document = alike(relative, key, value, every)
    if document is None:
        return
    expected = whole_walk(document, FILES[relative], limit)
    if expected is not None:
        assert schema.validate_document(document, FILES[relative], limit) == expected


ALIKE = {"key": st.integers(0, 10**6), "value": st.integers(0, 10**6), "every": st.integers(1, 3), "limit": LIMITS}


@heavy
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(sorted(FILES)), **ALIKE)
def test_items_that_fail_alike_have_the_diagnostics_of_a_walk_of_the_whole_file(
    relative: str, key: int, value: int, every: int, limit: int | None
) -> None:
    """An item of the shape of one judged before (schema._ItemErrors) has the errors jsonschema
    gives it: the same diagnostics, at the same places, in the same order as a walk of the file."""
    assert_alike_judged_alike(relative, key, value, every, limit)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(sorted(FILES)), **ALIKE)
def test_items_that_fail_alike_have_the_diagnostics_of_a_walk_of_the_whole_file_exhaustively(
    relative: str, key: int, value: int, every: int, limit: int | None
) -> None:
    assert_alike_judged_alike(relative, key, value, every, limit)


def test_items_that_fail_alike_are_judged_by_jsonschema_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """50,000 map areas each with `land: "yes"` were each walked by jsonschema (27 s of CPU): the
    areas that differ only in values no keyword but their own reads, valid, are judged once; one
    that differs in a value a condition reads, or in an invalid value, is judged apart."""
    areas = [f"  - {{id: h{i}, name: H{i}, panel: main, land: 'yes', water: true}}" for i in range(40)]
    areas += ["  - {id: h40, name: H40, panel: main, land: 7, water: true}"]
    areas += ["  - {id: Not_A_Slug, name: H, panel: main, land: true, water: true}"]
    text = "\n".join(["kind: map", "id: hostile", "name: Hostile", "panel: main", "areas:", *areas, ""])
    document = read(text, "maps/hostile.yaml")
    assert document is not None
    expected = whole_walk(document, "map", None)
    assert expected is not None
    seen: list[Any] = []
    item_validator = schema._item_validator
    monkeypatch.setattr(schema, "_item_validator", lambda *key: _Recording(item_validator(*key), seen))
    assert schema.validate_document(document, "map") == expected
    assert len([d for d in expected if ".land`" in d.message]) == 41
    assert len(seen) == 3  # the first of the 40 areas alike, the one with `land: 7`, the bad id


def small_map(cited_at_top: bool, uncited: int | None) -> Document:
    """A map of four areas, its source cited at its top or not, each area citing its rule but the
    ``uncited``-th."""
    areas = [
        f"  - {{id: h{i}, name: H{i}, panel: main, land: true, water: true, population_limit: 2"
        + ("" if i == uncited else ', rule: "4.1"')
        + "}"
        for i in range(4)
    ]
    top = ['rule: "4.1"'] if cited_at_top else []
    text = "\n".join(
        ["kind: map", "id: small", "name: Small", "panel: main", *top, "borders: []", "areas:", *areas, ""]
    )
    document = read(text, "maps/small.yaml")
    assert document is not None
    return document


@pytest.mark.parametrize("cited_at_top", [True, False])
@pytest.mark.parametrize("uncited", [None, 0, 2])
def test_an_edit_of_a_map_s_areas_is_judged_by_the_areas_read_again_under_the_file_s_condition(
    cited_at_top: bool, uncited: int | None
) -> None:
    """A map file that cites no source for its areas has each area cite its own (the schema's
    top-level `if`/`then`, which names `areas`): an edit of one area was judged by a walk of the
    whole file (a tenth of an editor's update of a large map under variants). The condition asks only which keys
    the file has, so the areas read again are judged alone, under the branch it takes: for a file
    valid before the edit, the verdict of a walk of the whole file."""
    document = small_map(cited_at_top, uncited)
    valid = not schema.validate_document(document, "map")
    assert valid == (cited_at_top or uncited is None)
    for first in range(4):
        kept = schema.items_keep_valid("map", document, ("areas",), first, 1)
        assert kept == (cited_at_top or uncited != first)
