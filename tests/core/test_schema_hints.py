"""Every JSON Schema keyword's error has a hint that says what to write, computed from the schema.

Round 18's designer trial: `cost: -50` was answered "hint: Face value (purchase cost, also its value
for the A.S.T. and victory), or unknown.", `tokens_per_player: 60` "Population tokens each player
uses.", `primary: []` "Effects on the primary victim ...": the field's description, which says
what the field means, for the keywords `minimum`, `maximum` and `minItems`, while a type error in
the same run said what to write. Each keyword jsonschema validates has a case here (or is named
as a keyword whose errors are those of its subschemas), each case's field carries a description
the hint must not fall back to, and every keyword of the shipped schemas is one of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from civrules import schema
from civrules.diagnostics import Diagnostic
from civrules.load import read_yaml_text
from civrules.pipeline import analyse
from civrules.schema import accepted
from tests.conftest import REPO as ROOT
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed

DESCRIPTION = "What the field means, in the schema's words."
UNKNOWN = {
    "type": "object",
    "properties": {"unknown": {"type": "string", "minLength": 1}},
    "required": ["unknown"],
    "additionalProperties": False,
}


def _field(node: dict[str, Any]) -> dict[str, Any]:
    """A schema of a mapping whose one field `f` is ``node``, described."""
    return {
        "type": "object",
        "properties": {"f": {"description": DESCRIPTION, **node}},
        "$defs": {"unknown": UNKNOWN},
    }


#: Each keyword jsonschema validates: a field's schema, a value it refuses (YAML), and words the
#: hint must hold.
CASES: dict[str, tuple[dict[str, Any], str, str]] = {
    "minimum": (
        {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 1000}, {"$ref": "#/$defs/unknown"}]},
        "-50",
        "write a whole number from 1 to 1000, or `{unknown: why}` where the sources do not give it",
    ),
    "maximum": ({"type": "integer", "minimum": 1, "maximum": 55}, "60", "write a whole number from 1 to 55"),
    "exclusiveMinimum": ({"type": "number", "exclusiveMinimum": 0}, "0", "write a number more than 0"),
    "exclusiveMaximum": ({"type": "integer", "exclusiveMaximum": 10}, "10", "write a whole number of 9 or less"),
    "multipleOf": ({"type": "integer", "multipleOf": 5}, "12", "write a whole number that is a multiple of 5"),
    "minItems": ({"type": "array", "minItems": 1}, "[]", "write a list of at least 1 item"),
    "maxItems": (
        {"x-civrules-ref": {"collection": "groups", "what": "card group"}, "type": "array", "maxItems": 2},
        "[a, b, c]",
        "write a list of at most 2 card group ids",
    ),
    "uniqueItems": ({"type": "array", "uniqueItems": True}, "[a, a]", "`a` is listed twice: keep one"),
    "contains": ({"type": "array", "contains": {"const": "x"}}, "[a]", "write a list holding `x`"),
    "minContains": (
        {"type": "array", "contains": {"const": "x"}, "minContains": 2},
        "[x]",
        "write a list holding `x`",
    ),
    "maxContains": (
        {"type": "array", "contains": {"const": "x"}, "maxContains": 1},
        "[x, x]",
        "write a list holding `x`",
    ),
    "items": (
        {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
        "[a, b]",
        "write a list of at most 1 item",
    ),
    "unevaluatedItems": (
        {"type": "array", "prefixItems": [{"type": "string"}], "unevaluatedItems": False},
        "[a, b]",
        "write a list of at most 1 item",
    ),
    "minLength": ({"type": "string", "minLength": 1}, '""', "write a text that is not empty"),
    "maxLength": ({"type": "string", "maxLength": 3}, "abcd", "shorten the text to 3 characters or fewer"),
    "pattern": ({"type": "string", "pattern": "^[a-z]{2}$"}, "eng", "write a two-letter language code"),
    "format": ({"type": "string", "format": "date", "maxLength": 2}, "abc", "shorten the text"),
    "type": (
        {"oneOf": [{"type": "integer", "minimum": 1}, {"$ref": "#/$defs/unknown"}]},
        "true",
        "write a whole number of 1 or more, or `{unknown: why}`",
    ),
    "enum": ({"enum": ["orange", "red"]}, "orang", "did you mean `orange`?"),
    "const": ({"const": "calamities"}, "calamity", "did you mean `calamities`?"),
    "minProperties": (
        {"type": "object", "properties": {"a": {}, "b": {}}, "minProperties": 1},
        "{}",
        "write a mapping with at least 1 key of `a`, `b`",
    ),
    "maxProperties": (
        {"type": "object", "properties": {"a": {}, "b": {}}, "maxProperties": 1},
        "{a: 1, b: 2}",
        "write a mapping with at most 1 key of `a`, `b`",
    ),
    "required": (
        {"type": "object", "properties": {"a": {"type": "integer", "minimum": 0}}, "required": ["a"]},
        "{}",
        "`a`: write a whole number of 0 or more",
    ),
    "dependentRequired": (
        {"type": "object", "dependentRequired": {"a": ["b"]}},
        "{a: 1}",
        "add `b` beside `a`, or leave out `a`",
    ),
    "additionalProperties": (
        {"type": "object", "properties": {"cost": {}}, "additionalProperties": False},
        "{cots: 1}",
        "did you mean `cost`?",
    ),
    "unevaluatedProperties": (
        {"type": "object", "properties": {"cost": {}}, "unevaluatedProperties": False},
        "{cots: 1}",
        "leave out the keys this mapping does not take (it takes `cost`)",
    ),
    "propertyNames": (
        {"type": "object", "propertyNames": {"enum": ["players", "ast"]}},
        "{playres: 1}",
        "did you mean `players`?",
    ),
    "not": (
        {"type": "integer", "minimum": -10, "maximum": 10, "not": {"const": 0}},
        "0",
        "write a whole number from -10 to 10 other than 0",
    ),
    "oneOf": (
        {"oneOf": [{"type": "integer"}, {"type": "integer", "minimum": 0}]},
        "3",
        "write a whole number, or a whole number of 0 or more",
    ),
    "anyOf": (
        {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/unknown"}]},
        "1.5",
        "write a whole number, or `{unknown: why}`",
    ),
}
#: Keywords whose errors are those of their subschemas (each judged by its own keyword above), or
#: that assert nothing: `format` is an annotation in JSON Schema 2020-12 unless asked for.
SUBSCHEMAS = frozenset(
    {"$ref", "$dynamicRef", "allOf", "if", "properties", "patternProperties", "dependentSchemas", "prefixItems"}
)


def _hint_of(keyword: str) -> list[Diagnostic]:
    node, value, _ = CASES[keyword]
    whole = _field(node)
    document, problems = read_yaml_text(f"f: {value}\n", "f.yaml")
    assert problems == [] and document is not None
    translate = schema._translator(document, whole["$defs"], whole)
    errors = schema._validator_class()(whole).iter_errors(document.data)
    found = schema._collect(document.file, (d for e in errors for d in translate((), e)), None, {}, exact=True)
    assert found is not None
    return found


def test_every_keyword_jsonschema_validates_has_a_case() -> None:
    from jsonschema import Draft202012Validator

    # `minContains` and `maxContains` are judged by `contains`: their cases are its own
    assert set(Draft202012Validator.VALIDATORS) - SUBSCHEMAS == set(CASES) - {"minContains", "maxContains"}


def _keywords(node: Any) -> Iterator[str]:
    """The keywords of a schema and its subschemas (not the names of its properties or defs)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "$defs", "patternProperties", "dependentSchemas"):
                for sub in value.values():
                    yield from _keywords(sub)
            elif key in ("examples", "default", "const", "enum"):
                yield key  # its value is data, not a schema: its keys are no keywords
            elif not key.startswith("x-"):
                yield key
                yield from _keywords(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keywords(item)


def test_every_keyword_of_the_shipped_schemas_is_judged_here() -> None:
    annotations = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"}
    found: set[str] = set()
    for path in sorted((ROOT / "schemas").rglob("*.schema.json")):
        found.update(_keywords(json.loads(path.read_text(encoding="utf-8"))))
    # `then`, `else` and `required` values, enum members and `x-` extensions are not keywords
    assert found - annotations - {"then", "else"} <= set(CASES) | SUBSCHEMAS


@pytest.mark.parametrize("keyword", sorted(CASES))
def test_the_hint_of_each_keyword_says_what_to_write_not_the_description(keyword: str) -> None:
    found = _hint_of(keyword)
    if keyword == "format":  # asserts nothing: the case's other keyword does
        assert [d.hint for d in found] == ["shorten the text to 2 characters or fewer"]
        return
    assert found, keyword
    for diagnostic in found:
        assert diagnostic.hint is not None, diagnostic
        assert DESCRIPTION not in diagnostic.hint
    assert any(CASES[keyword][2] in (d.hint or "") for d in found), [d.hint for d in found]


# --- the designer trial's three, on the shipped schemas ---------------------------------------------


def _hint(text: str, needle: str) -> str | None:
    (found,) = [d for d in analysed(text).diagnostics if d.code == "S001"]
    assert found.span is not None and text.splitlines()[found.span.line - 1].strip().startswith(needle)
    return found.hint


def test_a_cost_below_one_is_told_the_range_and_unknown() -> None:
    text = (
        HEAD + 'overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: -50, source: "house rule"}\n'
    )
    assert _hint(text, "- {id: pottery") == (
        "write a whole number from 1 to 1000, or `{unknown: why}` where the sources do not give it"
    )


def test_tokens_beyond_the_bound_are_told_the_range() -> None:
    text = HEAD + (
        'overlay:\n  player_counts:\n    patch:\n      - {players: 8, tokens_per_player: 60, source: "house rule"}\n'
    )
    hint = _hint(text, "- {players: 8")
    assert hint is not None and hint.startswith("write a whole number from 1 to 55, or `{unknown: why}`")


def test_an_empty_list_of_effects_is_told_to_hold_one() -> None:
    text = HEAD + ('overlay:\n  calamities:\n    patch:\n      - {id: famine, primary: [], source: "house rule"}\n')
    assert _hint(text, "- {id: famine") == "write a list of at least 1 item"


def test_every_bounded_field_of_the_shipped_schemas_has_a_computed_hint() -> None:
    """Each field with a bound (a number's, a list's or a text's length, a mapping's keys) is told
    in words, never by its description."""
    bounds = ("minimum", "maximum", "exclusiveMinimum", "minItems", "maxItems", "minLength", "minProperties")
    missing = []
    for path in sorted((ROOT / "schemas").rglob("*.schema.json")):
        whole = json.loads(path.read_text(encoding="utf-8"))
        defs = whole.get("$defs", {})
        for node in _nodes(whole):
            if any(bound in node for bound in bounds) and accepted.write_hint(node, defs) is None:
                missing.append((path.name, node))
    assert missing == []


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def test_the_examples_of_the_words_module_hold() -> None:
    import doctest

    assert doctest.testmod(accepted).failed == 0


def test_a_land_fact_on_a_water_area_is_told_to_leave_it_out() -> None:
    """`not: {anyOf: [{required: [...]}, ...]}`: the keys written that the form refuses, by name."""
    from tests.rulefiles import CachedWorkspace, shipped_text

    text = shipped_text("maps/mediterranean.yaml").replace(
        "    land: false\n    water: true\n", "    land: false\n    water: true\n    population_limit: 2\n", 1
    )
    workspace = CachedWorkspace({"maps/mediterranean.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    (found,) = [d for d in analysis.diagnostics if d.code == "S001"]
    assert found.hint == "leave out `population_limit`: it is not allowed here"


def test_every_key_a_base_ruleset_must_give_is_described_when_missing() -> None:
    """A base manifest's required sections are named by the schema's `then: {required: [...]}`,
    whose subschema describes none of them: "missing key `ast`" came with no hint at all (round 18's
    attacker trial). The hint is the key's description and what to write, from the properties of
    the object the key belongs to."""
    text = 'kind: ruleset\nid: house\nname: "House"\nplayers: {min: 2, max: 4, source: "house rule"}\n'
    missing = [d for d in analysed(text).diagnostics if d.code == "S004"]
    assert {d.message for d in missing} >= {"missing key `ast`", "missing key `epochs`", "missing key `nations`"}
    for found in missing:
        key = found.message.removeprefix("missing key `").partition("`")[0]
        assert found.hint is not None and found.hint.startswith(f"`{key}`: "), found
    (ast,) = [d for d in missing if d.message == "missing key `ast`"]
    assert ast.hint is not None and "Archaeological Succession Table" in ast.hint


#: The citation every fact carries: `anyOf` of two branches that each only require a key.
CITATION = [{"required": ["rule"]}, {"required": ["source"]}]


def _resolved(node: Any, root: dict[str, Any]) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def _cited(schema: Any, data: Any, root: dict[str, Any], path: tuple[str | int, ...] = ()) -> Iterator[Any]:
    """(schema, path) of each mapping of ``data`` whose schema requires a citation, walking the
    schema's `properties` and `items` along the data."""
    node = _resolved(schema, root)
    if not isinstance(node, dict):
        return
    if isinstance(data, dict):
        if node.get("anyOf") == CITATION or node.get("oneOf") == CITATION:
            yield node, path
        for key, value in data.items():
            if key in node.get("properties", {}):
                yield from _cited(node["properties"][key], value, root, (*path, key))
    elif isinstance(data, list) and "items" in node:
        for index, value in enumerate(data):
            yield from _cited(node["items"], value, root, (*path, index))


def _shrunk(data: Any, path: tuple[str | int, ...]) -> Any:
    """``data`` with only the way to ``path`` kept (each list down to the one element on the way,
    or its first), and the mapping at ``path`` without its citation."""
    if not path:
        if isinstance(data, dict):
            return {
                k: _shrunk(v, ()) if isinstance(v, list) else v for k, v in data.items() if k not in ("rule", "source")
            }
        return data[:1]
    head, rest = path[0], path[1:]
    if isinstance(data, list):
        return [_shrunk(data[int(head)], rest)]
    return {**({"kind": data["kind"]} if "kind" in data else {}), str(head): _shrunk(data[head], rest)}


def _citation_cases() -> Iterator[Any]:
    """Each place a schema requires a citation, with the first shipped mapping of that place."""
    from tests.rulefiles import pristine

    seen: set[int] = set()
    for relative, loaded in sorted(pristine().items()):
        if loaded.document is None or loaded.kind is None:
            continue
        root = schema.load_schema(loaded.kind)
        for node, path in _cited(root, loaded.document.data, root):
            if id(node) not in seen:
                seen.add(id(node))
                yield pytest.param(loaded.kind, loaded.document.data, path, id=f"{relative}:{path}")


def test_every_place_that_requires_a_citation_is_tried() -> None:
    """The cases below are derived from the schemas: each family's cited entities are among them."""
    kinds = {case.values[0] for case in _citation_cases()}
    assert {"civilization_cards", "calamities", "commodities", "map", "ruleset"} <= kinds
    assert {f"sid-meiers-civilization/{kind}" for kind in ("technologies", "wonders", "culture", "units")} <= kinds


@pytest.mark.parametrize(("kind", "data", "path"), list(_citation_cases()))
def test_an_entity_missing_its_citation_is_told_to_add_one(kind: str, data: Any, path: tuple[str | int, ...]) -> None:
    """`anyOf: [{required: [rule]}, {required: [source]}]` adds a requirement to the mapping it sits
    in; it is no other shape the mapping could take. Round 19: a card without `rule:` was "a
    mapping of `id`, `name`, ... where `{rule: ...}` or `{source: ...}` belongs", its hint "write
    `{rule: ...}` or `{source: ...}` here", which replaces the whole card."""
    document, read = read_yaml_text(json.dumps(_shrunk(data, path)), "x.yaml")
    assert document is not None and not read
    at = tuple(0 if isinstance(part, int) else part for part in path)
    where = f" in `{schema._render_path(at)}`" if at else ""
    found = schema.validate_document(document, kind)
    cited = [d for d in found if d.message == f"missing key `rule` (or `source`){where}"]
    assert len(cited) == 1, found
    assert cited[0].code == "S004" and cited[0].span == schema._head(document, at)
    assert cited[0].hint is not None and cited[0].hint.startswith("add `rule:`") and "`source:`" in cited[0].hint
    assert not [d for d in found if d.message.startswith("a mapping of")], found
