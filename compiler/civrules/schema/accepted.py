"""What a schema accepts, in words: the "write ..." of a schema error's hint.

A schema error's hint says what to write in place of the value refused, computed from the schema
of the field: its type, bounds, lengths, pattern, the forms of a `oneOf`, and `{unknown: why}`
where the field admits it. It never repeats the field's `description`, which says what the field
means, not what to write (round 18: `cost: -50` was answered "Face value (purchase cost ...), or
unknown.").

>>> defs = {"unknown": {"type": "object", "required": ["unknown"], "properties": {"unknown": {"type": "string"}}}}
>>> cost = {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 1000}, {"$ref": "#/$defs/unknown"}]}
>>> write_hint(cost, defs)
'write a whole number from 1 to 1000, or `{unknown: why}` where the sources do not give it'
>>> write_hint({"type": "array", "minItems": 1, "items": {"type": "string"}}, {})
'write a list of at least 1 item'
>>> write_hint({"type": "integer", "minimum": -10, "maximum": 10, "not": {"const": 0}}, {})
'write a whole number from -10 to 10 other than 0'
>>> write_hint({"description": "anything"}, {}) is None
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from civrules.diagnostics import blanks, words
from civrules.schema import patterns

#: How the values of each pattern of the schemas are written (a pattern not listed is shown).
PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "a lower_snake_case id (a-z, 0-9, `_`)",
    "^[a-z][a-z0-9-]*$": "a kebab-case id (a-z, 0-9, `-`)",
    "^[a-z][a-z0-9]*(-[a-z0-9]+)*$": "a kebab-case id (a-z, 0-9, words joined by single `-`)",
    "^[A-Z][0-9]{3}$": "a diagnostic code, a letter and three digits such as `A010`",
    "^[A-Z]{3}$": "three capital letters, such as `ROM`",
    "^[A-Z]{3}[0-9]{3}$": "a printed id, three capital letters and three digits such as `ROM001`",
    "^[a-z]{2}$": "a two-letter language code, such as `en`",
    "^([0-9]+(\\.[0-9]+)*|p[0-9]+(/[a-z0-9]+(-[a-z0-9]+)*)?)$": (
        'a rule section such as `"32.21"` (quoted), or a page such as `p12` or `p12/heading`'
    ),
    "^(?!/)(?!.*\\.\\.)[A-Za-z0-9_][A-Za-z0-9_./-]*$": "a path relative to the rules folder, without `..`",
    patterns.NOT_BLANK: "a text that is not blank",
    patterns.SOURCE: (
        'a citation: where the fact comes from in words (`"house rule: ..."`), or a repository\'s file as '
        "`owner/repo@<40-hex commit>:path`"
    ),
}

#: How deep :func:`forms` follows `oneOf`, `anyOf` and `$ref` before it gives up (the schemas nest two).
_DEPTH = 6


def write_hint(schema: Any, defs: Mapping[str, Any]) -> str | None:
    """ "write ..." and what ``schema`` accepts; None where it accepts anything it could tell."""
    found = forms(schema, defs)
    return f"write {alternatives(found)}" if found else None


def alternatives(found: list[str]) -> str:
    """``found`` joined as alternatives: `a`, `a, or b`, `a, b, or c`."""
    return found[0] if len(found) == 1 else ", ".join(found[:-1]) + f", or {found[-1]}"


def resolve(schema: Any, defs: Mapping[str, Any]) -> Any:
    """``schema`` with its local `$ref` (`#/$defs/name`) followed, its own keywords kept over the def's."""
    for _ in range(_DEPTH):
        if not isinstance(schema, Mapping):
            return schema
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return schema
        target = defs.get(ref[len("#/$defs/") :])
        if not isinstance(target, Mapping):
            return {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def forms(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> list[str]:
    """The forms of the values ``schema`` accepts, each in words, without repeats ([] where it
    cannot tell: a schema of no type, or nested too deep)."""
    schema = resolve(schema, defs)
    if not isinstance(schema, Mapping) or depth > _DEPTH:
        return []
    found: list[str] = []
    # A reference annotates the field, not each of its forms: a branch's ids are the field's.
    reference = {"x-civrules-ref": schema["x-civrules-ref"]} if "x-civrules-ref" in schema else {}
    for keyword in ("oneOf", "anyOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and not _is_citation(branches):
            for branch in branches:
                found.extend(forms({**reference, **branch} if isinstance(branch, Mapping) else branch, defs, depth + 1))
    if not found:
        found = _own_forms(schema, defs)
    return list(dict.fromkeys(found))


def _is_citation(branches: list[Any]) -> bool:
    """Whether ``branches`` are "cite `rule` or `source`": keys the value must hold beside its
    own, not forms it takes (`{rule: ...}` is no form of a limit)."""
    return sorted(map(str, branches)) == sorted(str({"required": [key]}) for key in ("rule", "source"))


def _own_forms(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> list[str]:
    if "const" in schema:
        return [_shown(schema["const"])]
    if isinstance(schema.get("enum"), list):
        values = [_shown(v) for v in schema["enum"]]
        return [
            values[0] if len(values) == 1 else f"one of {', '.join(values[:12])}{' ...' if len(values) > 12 else ''}"
        ]
    types = schema.get("type")
    listed = types if isinstance(types, list) else [types] if isinstance(types, str) else _implied_types(schema)
    found = []
    for kind in listed:
        match kind:
            case "integer" | "number":
                found.append(_number(schema, kind == "integer"))
            case "string":
                found.append(_text(schema))
            case "array":
                found.append(_list(schema, defs))
            case "object":
                found.append(_mapping(schema))
            case "boolean":
                found.append("`true` or `false`")
            case "null":
                found.append("`null`")
    return found


def _implied_types(schema: Mapping[str, Any]) -> list[str]:
    """The type a schema without `type` implies by its keywords (`minimum`: a number ...)."""
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return ["number"]
    if any(k in schema for k in ("minLength", "maxLength", "pattern")):
        return ["string"]
    if any(k in schema for k in ("minItems", "maxItems", "items", "uniqueItems", "contains")):
        return ["array"]
    if any(k in schema for k in ("properties", "required", "minProperties", "maxProperties")):
        return ["object"]
    return []


def _bound(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _number(schema: Mapping[str, Any], whole: bool) -> str:
    low, high = _bound(schema.get("minimum")), _bound(schema.get("maximum"))
    above, below = _bound(schema.get("exclusiveMinimum")), _bound(schema.get("exclusiveMaximum"))
    if whole and above is not None:
        low, above = max(low, int(above) + 1) if low is not None else int(above) + 1, None
    if whole and below is not None:
        high, below = min(high, -int(-below) - 1) if high is not None else -int(-below) - 1, None
    said = ["a whole number" if whole else "a number"]
    if low is not None and high is not None:
        said.append(f"from {low} to {high}" if low != high else f"equal to {low}")
    elif low is not None:
        said.append(f"of {low} or more")
    elif high is not None:
        said.append(f"of {high} or less")
    if above is not None:
        said.append(f"more than {above}")
    if below is not None:
        said.append(f"less than {below}")
    step = _bound(schema.get("multipleOf"))
    if step is not None:
        said.append(f"that is a multiple of {step}")
    excluded = schema.get("not")
    if isinstance(excluded, Mapping) and set(excluded) == {"const"}:
        said.append(f"other than {excluded['const']}")
    return " ".join(said)


def _text(schema: Mapping[str, Any]) -> str:
    reference = schema.get("x-civrules-ref")
    pattern = schema.get("pattern")
    if isinstance(reference, Mapping) and isinstance(reference.get("what"), str):
        said = f"the id of {words.a(reference['what'])}"
    elif isinstance(pattern, str):
        said = PATTERN_WORDS.get(pattern, f"a text matching the pattern `{pattern}`")
    else:
        said = "a text"
    low, high = schema.get("minLength"), schema.get("maxLength")
    if isinstance(low, int) and isinstance(high, int):
        return f"{said} of {low} to {words.count(high, 'character')}"
    if isinstance(high, int):
        return f"{said} of at most {words.count(high, 'character')}"
    if isinstance(low, int) and low > 1:
        return f"{said} of at least {low} characters"
    if low == 1 and said == "a text":
        return "a text that is not empty"
    return said


def _list(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    item, items = "item", "items"
    reference = schema.get("x-civrules-ref")
    if isinstance(reference, Mapping) and isinstance(reference.get("what"), str):
        item, items = f"{reference['what']} id", f"{reference['what']} ids"
    low, high = schema.get("minItems"), schema.get("maxItems")
    low = low if isinstance(low, int) and low > 0 else None
    high = high if isinstance(high, int) else None
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list) and False in (schema.get("items"), schema.get("unevaluatedItems")):
        high = len(prefix) if high is None else min(high, len(prefix))  # no item past the prefix
    if low is not None and high is not None:
        said = (
            f"a list of exactly {words.count(low, item, items)}"
            if low == high
            else f"a list of {low} to {high} {items}"
        )
    elif low is not None:
        said = f"a list of at least {words.count(low, item, items)}"
    elif high is not None:
        said = f"a list of at most {words.count(high, item, items)}"
    else:
        said = "a list" if item == "item" else f"a list of {items}"
    contains = schema.get("contains")
    if contains is not None:
        held = forms(contains, defs)
        if held:
            said += f" holding {alternatives(held)}"
    if schema.get("uniqueItems") is True:
        said += ", each once"
    return said


def _mapping(schema: Mapping[str, Any]) -> str:
    required = schema.get("required")
    if required == ["unknown"]:
        return "`{unknown: why}` where the sources do not give it"
    if isinstance(required, list) and required:
        # each value a blank (L016 until written), so that the form pastes as it is written
        return (
            "`{" + ", ".join(f'{key}: "{blanks.blank("the " + str(key).replace("_", " "))}"' for key in required) + "}`"
        )
    keys = schema.get("properties")
    names = list(keys) if isinstance(keys, Mapping) else []
    allowed = schema.get("propertyNames")
    if not names and isinstance(allowed, Mapping) and isinstance(allowed.get("enum"), list):
        names = [str(k) for k in allowed["enum"]]
    low, high = schema.get("minProperties"), schema.get("maxProperties")
    of = f" of {words.listed(names, shown=8)}" if names else ""
    if isinstance(low, int) and isinstance(high, int):
        return f"a mapping with {low} to {high} keys{of}"
    if isinstance(low, int) and low > 0:
        return f"a mapping with at least {words.count(low, 'key')}{of}"
    if isinstance(high, int):
        return f"a mapping with at most {words.count(high, 'key')}{of}"
    return "a mapping"


def _shown(value: Any) -> str:
    return f"`{value}`" if isinstance(value, str) else f"`{json.dumps(value)}`"
