"""Schema errors and overlay errors said in a designer's words (round 25's designer's trial).

Every JSON-Schema keyword the shipped schemas use is a mistake a designer can make; each is said
in the words of the rule data (a list, a mapping, a text, a whole number; an item, a key, a
character, in the number the count takes), never in jsonschema's (`{} should be non-empty`,
`'x' is not valid under any of the given schemas`) nor in JSON Schema's (`string`, `integer`,
`minProperties`, a regular expression). A value the data writes empty or blank is shown as such,
never as backquotes around nothing ("unknown key ``").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from civrules.diagnostics import Diagnostic, words
from civrules.load import read_yaml_text
from civrules.schema import _translate  # the one translation of a schema error into words
from tests.core.test_overlay_hints import analysed, header, problems

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"

#: For each keyword a designer's value can fail, a schema using it and a value failing it. A keyword
#: the shipped schemas use that is not here fails :func:`test_every_keyword_the_schemas_use_is_worded`.
FAILING: dict[str, tuple[dict[str, Any], Any]] = {
    "type": ({"type": "integer"}, "forty"),
    "enum": ({"enum": ["oak", "birch"]}, "pine"),
    "const": ({"const": "ruleset"}, "rulest"),
    "minimum": ({"type": "integer", "minimum": 1}, 0),
    "maximum": ({"type": "integer", "maximum": 9}, 10),
    "minLength": ({"type": "string", "minLength": 1}, ""),
    "maxLength": ({"type": "string", "maxLength": 3}, "oaks"),
    "pattern": ({"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}, "Oak"),
    "minItems": ({"type": "array", "minItems": 1}, []),
    "maxItems": ({"type": "array", "maxItems": 2}, ["a", "b", "c"]),
    "uniqueItems": ({"type": "array", "uniqueItems": True}, ["crafts", "crafts"]),
    "minProperties": ({"type": "object", "minProperties": 1}, {}),
    "required": ({"type": "object", "required": ["cost"]}, {}),
    "additionalProperties": (
        {"type": "object", "properties": {"cost": {}}, "additionalProperties": False},
        {"cots": 1},
    ),
    "propertyNames": ({"type": "object", "propertyNames": {"enum": ["oak"]}}, {"pine": 1}),
    "oneOf": ({"oneOf": [{"type": "integer"}, {"type": "integer", "minimum": 0}]}, 3),
    "anyOf": ({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}, "x"),
    "allOf": ({"allOf": [{"type": "integer"}]}, "x"),
    "not": ({"not": {"const": 0}}, 0),
    "if": ({"if": {"required": ["a"]}, "then": {"required": ["b"]}}, {"a": 1}),
}

#: What schema errors used to say, or could: jsonschema's sentences, JSON Schema's names, a
#: regular expression, a count of one in the plural.
JARGON = re.compile(
    r"should be|is not valid under|is a required property|does not match|fewer than|shorter than"
    r"|\b(string|integer|boolean|object|array|minProperties|minItems|uniqueItems|additionalProperties)\b"
    r"|\b1 (keys|items|characters)\b|\^\[|'"
)


def keywords_used(node: Any) -> Iterator[str]:
    """The keywords of a schema, at every depth (the names of properties and definitions are none)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
                for child in value.values():
                    yield from keywords_used(child)
            elif key not in ("examples", "default", "x-civrules-ref"):
                yield key
                yield from keywords_used(value)
    elif isinstance(node, list):
        for item in node:
            yield from keywords_used(item)


VALIDATING = {
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minProperties",
    "maxProperties",
    "required",
    "additionalProperties",
    "propertyNames",
    "dependentRequired",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "unevaluatedProperties",
}


def used_keywords() -> set[str]:
    used: set[str] = set()
    for path in SCHEMAS.rglob("*.schema.json"):
        used.update(k for k in keywords_used(json.loads(path.read_text(encoding="utf-8"))) if k in VALIDATING)
    return used


def said(schema: dict[str, Any], value: Any) -> list[Diagnostic]:
    document, _ = read_yaml_text(f"x: {json.dumps(value)}\n", "rules/cards/x.yaml")
    assert document is not None
    errors = list(Draft202012Validator({"type": "object", "properties": {"x": schema}}).iter_errors({"x": value}))
    assert errors, (schema, value)
    # each once, as every caller of the translation gives them
    return list(dict.fromkeys(d for error in errors for d in _translate(document, error)))


def test_every_keyword_the_schemas_use_is_worded() -> None:
    missing = used_keywords() - set(FAILING)
    assert not missing, f"give each of {sorted(missing)} a failing value here, and its words in `_message`"


@pytest.mark.parametrize("keyword", sorted(FAILING))
def test_each_keyword_is_said_in_the_designers_words(keyword: str) -> None:
    schema, value = FAILING[keyword]
    diagnostics = said(schema, value)
    assert diagnostics
    for diagnostic in diagnostics:
        assert not JARGON.search(diagnostic.message), diagnostic.message
        assert "`x`" in diagnostic.message or "in `x`" in diagnostic.message, diagnostic.message


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "object", "minProperties": 1}, {}, "the mapping is empty, at least 1 key needed in `x`"),
        ({"type": "object", "minProperties": 2}, {"a": 1}, "the mapping has 1 key, at least 2 keys needed in `x`"),
        ({"type": "array", "minItems": 1}, [], "the list is empty, at least 1 item needed in `x`"),
        ({"type": "array", "minItems": 3}, [1], "the list has 1 item, at least 3 items needed in `x`"),
        ({"type": "array", "maxItems": 1}, [1, 2], "the list has 2 items, at most 1 allowed in `x`"),
        ({"type": "string", "minLength": 1}, "", "the text is empty in `x`"),
        ({"type": "string", "minLength": 2}, "a", "the text has 1 character, at least 2 characters needed in `x`"),
        (
            {"type": "array", "uniqueItems": True},
            ["crafts", "arts", "crafts"],
            "the list names `crafts` more than once in `x`",
        ),
        ({"type": "integer"}, "forty", "`forty` is a text, where a whole number belongs in `x`"),
        ({"type": "string"}, 3, "`3` is a whole number, where a text belongs in `x`"),
        (
            {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
            "Oak",
            "`Oak` is not a lower_snake_case id (a-z, 0-9, `_`) in `x`",
        ),
        ({"type": "string", "pattern": "^[0-9]+$"}, "a", "`a` is not written as this field's values are in `x`"),
        ({"type": "string", "enum": ["a"]}, "", '`""` (empty) is not an allowed value in `x`'),
    ],
)
def test_a_size_a_form_and_a_type_are_counted_in_words(schema: dict[str, Any], value: Any, expected: str) -> None:
    assert [d.message for d in said(schema, value)] == [expected]


# --- a value written empty or blank ---------------------------------------------------------------

#: Backquotes around nothing or white space: a Markdown reader sees a fence of two, or a blank span.
NOTHING_QUOTED = re.compile(r"(?<!`)`\s*`(?!`)")

EMPTY_MISTAKES = {
    "an empty key in a patch": (
        '  civilization_cards:\n    patch:\n      - {id: pottery, cost: 45, source: house rule, "": 3}\n'
    ),
    "a blank key among the settings": '  settings:\n    " ": 3\n',
    "a patch of an empty id": '  civilization_cards:\n    patch:\n      - {id: "", cost: 45, source: house rule}\n',
    "a patch of a blank id": '  civilization_cards:\n    patch:\n      - {id: " ", cost: 45, source: house rule}\n',
    "a removal of an empty id": '  civilization_cards:\n    remove:\n      - {id: "", why: house rule}\n',
    "a removal of an empty setting": '  settings:\n    remove: [""]\n',
    "a blank citation": '  calamities:\n    patch:\n      - {id: flood, note: a, source: "  "}\n',
    "an empty name": '  civilization_cards:\n    patch:\n      - {id: pottery, name: "", source: house rule}\n',
}


@pytest.mark.parametrize("mistake", sorted(EMPTY_MISTAKES))
def test_an_empty_or_blank_value_is_never_quoted_as_nothing(mistake: str) -> None:
    found = problems(
        analysed("ep-blank", header("ep-blank", "expansion-project") + "overlay:\n" + EMPTY_MISTAKES[mistake])
    )
    assert len(found) == 1, [d.message for d in found]
    for text in (found[0].message, found[0].hint or ""):
        assert all(name.strip() for name in words.quoted(text)), text
        assert not NOTHING_QUOTED.search(text), text


def test_an_empty_key_says_it_is_empty() -> None:
    [found] = problems(
        analysed(
            "ep-blank",
            header("ep-blank", "expansion-project") + "overlay:\n" + EMPTY_MISTAKES["an empty key in a patch"],
        )
    )
    assert found.message.startswith('unknown key `""` (empty) in `overlay.civilization_cards.patch[0]`')


# --- a mapping where a list belongs ---------------------------------------------------------------


def test_a_patch_writing_a_mapping_where_a_list_belongs_is_one_diagnostic_naming_the_shapes() -> None:
    """A patch's `credits: {group: crafts, points: 5}` (one credit, the list's brackets forgotten)
    was told "missing key `unknown`" and "unknown key `group`" (allowed: `unknown`): two diagnostics
    for one mistake, about a shape the designer never meant. A data file said it once, as now."""
    text = header("ep-credits", "expansion-project") + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: theology, credits: {group: crafts, points: 5}, source: "house rule"}\n'
    )
    (found,) = problems(analysed("ep-credits", text))
    assert found.code == "S001"
    assert found.message.startswith("a mapping of `group`, `points` where a list or `{unknown: ...}` belongs")


def test_a_misspelt_key_of_the_unknown_form_is_told_by_its_did_you_mean() -> None:
    text = header("ep-credits", "expansion-project") + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: theology, credits: {unknwon: "lost"}, source: "house rule"}\n'
    )
    (found,) = problems(analysed("ep-credits", text))
    assert (found.code, found.hint) == ("S002", "did you mean `unknown`?")


def test_a_misspelt_key_of_the_unknown_form_in_a_data_file_is_told_by_its_did_you_mean() -> None:
    """In a data file it was told "a mapping of `unknwon` where a list or `{unknown: ...}` belongs"."""
    unknown = {
        "type": "object",
        "required": ["unknown"],
        "properties": {"unknown": {"type": "string"}},
        "additionalProperties": False,
    }
    found = said({"oneOf": [{"type": "array"}, unknown]}, {"unknwon": "lost"})
    assert [(d.code, d.hint) for d in found] == [("S002", "did you mean `unknown`?")]


# --- a value of a type none of the field's forms takes ----------------------------------------------

_LOST_OR_UNKNOWN = {
    "anyOf": [
        {"type": "string", "enum": ["lost"]},
        {"type": "object", "required": ["unknown"], "properties": {"unknown": {"type": "string"}}},
    ]
}


def test_a_value_no_form_takes_is_not_said_to_want_one_forms_type() -> None:
    """A setting's `value: 3`, where the field takes `lost` or `{unknown: why}`, was told "`3` is a
    whole number, where a mapping belongs" (the `{unknown: why}` form's type), beside a hint that
    writes `lost`; and `value: [lost]` "a list where a mapping belongs", with the hint "write a
    mapping (`{KEY: VALUE}`), not a list". The message no longer names one form's type; the
    value in brackets that a form takes is told to drop them."""
    [number] = said(_LOST_OR_UNKNOWN, 3)
    assert number.message == "`3` is a whole number, which is none of the forms the field takes in `x`"
    assert number.hint is not None and "`lost`" in number.hint and "mapping" not in number.message
    [listed] = said(_LOST_OR_UNKNOWN, ["lost"])
    assert listed.message == "a list, which is none of the forms the field takes in `x`"
    assert listed.hint == "drop the brackets: `lost`"


def test_a_settings_value_in_brackets_in_a_variant_is_told_to_drop_them() -> None:
    text = header("ep-lost", "expansion-project") + (
        "overlay:\n  settings:\n    credit_policy:\n      purchases:\n        overpayment:\n"
        '          value: [lost]\n      source: "house rule"\n'
    )
    (found,) = problems(analysed("ep-lost", text))
    assert (found.code, found.hint) == ("S001", "drop the brackets: `lost`")
    assert found.span is not None and (found.span.file, found.span.line) == ("rules/rulesets/ep-lost.yaml", 10)
    # written as the hint says, it is well-formed; the base loses an overpayment already (V013)
    assert [d.code for d in problems(analysed("ep-lost", text.replace("value: [lost]", "value: lost")))] == ["V013"]
