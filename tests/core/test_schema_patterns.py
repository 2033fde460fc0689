"""A schema's `pattern` means what JSON Schema means by it: an ECMA-262 regular expression, whose `$`
is the end of the text only. Python's `$` also matches before a final line break: `id: "brewing\\n"`
passed `validate` and broke `build` (round 19). Every pattern of every schema is held to that on
each path a value is judged by: jsonschema (errors, overlays), the compiled fast validators, the
hint code and the language server's rename."""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

SCHEMAS = REPO / "schemas"


def _patterns_in(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        yield from node.get("patternProperties", {})
        for value in node.values():
            yield from _patterns_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns_in(value)


@functools.cache
def schema_patterns() -> dict[str, tuple[str, ...]]:
    """Every `pattern` (and `patternProperties` key) of every schema file, with the files it is in."""
    found: dict[str, list[str]] = {}
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        for pattern in _patterns_in(json.loads(path.read_text(encoding="utf-8"))):
            found.setdefault(pattern, []).append(path.relative_to(SCHEMAS).as_posix())
    return {pattern: tuple(dict.fromkeys(files)) for pattern, files in sorted(found.items())}


def _shortest(parsed: Any) -> str:
    """The shortest text of a parsed pattern's main path (the first branch, each repeat its minimum):
    enough for the anchored patterns of the schemas; the caller checks that it matches."""
    from re import _constants as c  # type: ignore[attr-defined]

    out = []
    for op, arg in parsed:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.IN:
            first = next(a for a in arg if a[0] is not c.NEGATE)
            out.append(chr(first[1][0]) if first[0] is c.RANGE else _shortest([first]))
        elif op is c.CATEGORY:
            out.append({c.CATEGORY_DIGIT: "0", c.CATEGORY_WORD: "a", c.CATEGORY_SPACE: " "}[arg])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, _high, item = arg
            out.append(_shortest(item) * low)
        elif op is c.SUBPATTERN:
            out.append(_shortest(arg[-1]))
        elif op is c.BRANCH:
            out.append(_shortest(arg[1][0]))
        elif op is c.ANY:
            out.append("a")
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        else:  # pragma: no cover - a construct no schema uses yet: teach it here
            raise AssertionError(f"no example for {op}")
    return "".join(out)


#: The patterns of free text (a citation, a reason), anchored at the start only: a text may end in
#: a line break (YAML's `>` keeps one), and is refused for saying nothing (blank), or, a citation,
#: for naming a repository without its commit: each with a text it takes and one it refuses.
FREE_TEXT = {
    "\\S": ("house rule", " \n\t "),
    "^(?!\\s*$)(?![A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+(?::\\S|@(?![0-9a-f]{40}:\\S)))"
    "(?!(?:[^;]*;)+\\s*[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+@(?![0-9a-f]{40}:\\S))"
    "(?!(?:[^(]*\\()+\\s*[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+(?::\\S|@(?![0-9a-f]{40}:\\S)))": (
        "house rule: a dearer canal (as cash1981/playciv@0123456789abcdef0123456789abcdef01234567:x.ts has it)",
        "a dearer canal (cash1981/playciv:x.ts)",
    ),
}


def example(pattern: str) -> str:
    from re import _parser  # type: ignore[attr-defined]

    if pattern in FREE_TEXT:
        return FREE_TEXT[pattern][0]
    text = _shortest(_parser.parse(pattern))
    assert re.fullmatch(pattern, text), (pattern, text)
    return text


def test_the_schemas_have_patterns() -> None:
    assert "^[a-z][a-z0-9_]*$" in schema_patterns()
    assert len(schema_patterns()) >= 5


def test_the_free_text_patterns_are_civrules_own() -> None:
    from civrules.schema import patterns

    assert set(FREE_TEXT) == {patterns.NOT_BLANK, patterns.SOURCE}
    assert set(FREE_TEXT) <= set(schema_patterns())


@pytest.mark.parametrize("pattern", sorted(FREE_TEXT))
def test_a_free_text_pattern_takes_a_final_line_break_and_refuses_what_says_nothing(pattern: str) -> None:
    from civrules.schema import patterns, validator_for

    good, bad = FREE_TEXT[pattern]
    schema = {"type": "string", "pattern": pattern}
    for taken in (good, good + "\n", "\n" + good):
        assert patterns.matches(pattern, taken) and validator_for(schema).is_valid(taken), taken
    for refused in (bad, "", "   ", "\n"):
        assert not patterns.matches(pattern, refused) and not validator_for(schema).is_valid(refused), refused


@pytest.mark.parametrize("pattern", sorted(set(schema_patterns()) - set(FREE_TEXT)))
def test_every_pattern_refuses_a_value_that_matches_but_for_a_final_line_break(pattern: str) -> None:
    from civrules.schema import patterns, validator_for

    good = example(pattern)
    schema = {"type": "string", "pattern": pattern}
    for bad in (good + "\n", "\n" + good, good + "\r\n"):
        assert not patterns.matches(pattern, bad), bad
        assert not validator_for(schema).is_valid(bad), bad
    assert patterns.matches(pattern, good)
    assert validator_for(schema).is_valid(good)


@pytest.mark.parametrize("pattern", sorted(schema_patterns()))
def test_every_compiled_validator_holding_a_pattern_compiles_it_as_civrules_does(pattern: str) -> None:
    """The fast validators are generated by fastjsonschema, whose own translation of `$` is its
    choice; tools.validators writes each of their patterns with civrules' translation."""
    from civrules.schema import SCHEMA_FILES, patterns, validator_module

    seen = 0
    for kind in sorted(SCHEMA_FILES):
        module = importlib.import_module(f"civrules._generated.validators.{validator_module(kind)}")
        compiled = getattr(module, "REGEX_PATTERNS", {}).get(pattern)
        if compiled is None:
            continue
        seen += 1
        assert compiled.pattern == patterns.python_source(pattern)
        if pattern in FREE_TEXT:
            good, bad = FREE_TEXT[pattern]
            assert compiled.search(good + "\n") and not compiled.search(bad)
            continue
        assert compiled.search(example(pattern)) and not compiled.search(example(pattern) + "\n")
    assert seen, f"no compiled validator holds {pattern}"


def test_python_source_leaves_an_escaped_dollar_and_one_in_a_class_alone() -> None:
    from civrules.schema.patterns import python_source

    assert python_source(r"^a\$[$\]]b$") == r"^a\$[$\]]b\Z"
    assert python_source(r"^(a$|b$)") == r"^(a\Z|b\Z)"
    assert re.search(python_source(r"^a\$[$]$"), "a$$")
    assert not re.search(python_source(r"^a\$[$]$"), "a$$\n")


def test_an_id_ending_in_a_line_break_is_s001_at_the_id() -> None:
    from civrules.load import read_yaml_text
    from civrules.schema import document_kind, validate_document

    text = (REPO / "rules/cards/advanced-civilization.yaml").read_text(encoding="utf-8")
    bad = text.replace("- id: pottery\n", '- id: "pottery\\n"\n', 1)
    assert bad != text
    document, problems = read_yaml_text(bad, "cards.yaml")
    assert problems == [] and document is not None
    kind, _ = document_kind(document)
    assert kind is not None
    (found,) = validate_document(document, kind)
    assert found.code == "S001"
    assert found.span is not None
    assert bad.splitlines()[found.span.line - 1].strip() == '- id: "pottery\\n"'


def test_an_overlay_adding_an_id_ending_in_a_line_break_is_refused(tmp_path: Path) -> None:
    from civrules.schema import validate_entity

    card = {
        "id": "brewing\n",
        "name": "Brewing",
        "source": "house rule: brewing",
        "groups": ["crafts"],
        "cost": 45,
        "prerequisites": [],
        "credits": [],
        "attributes": [],
    }
    from civrules.load import read_yaml_text

    document, _ = read_yaml_text("a: 1\n", "v.yaml")
    assert document is not None
    found = validate_entity("civilization_cards", ("cards",), card, lambda path: (document, ()))
    assert [d.code for d in found] == ["S001"]
    assert validate_entity("civilization_cards", ("cards",), {**card, "id": "brewing"}, lambda p: (document, ())) == []


def test_no_schema_uses_pattern_properties() -> None:
    """jsonschema matches `patternProperties` keys with ``re.search`` in `additionalProperties` too,
    which civrules does not replace: a schema that needs them must have that keyword replaced first."""
    users = [
        path.relative_to(SCHEMAS).as_posix()
        for path in sorted(SCHEMAS.rglob("*.schema.json"))
        if '"patternProperties"' in path.read_text(encoding="utf-8")
    ]
    assert users == []
