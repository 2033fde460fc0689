"""A schema's `pattern`, read as JSON Schema reads it: an ECMA-262 regular expression.

Python's `re` differs from ECMA-262 where an anchored pattern is concerned: its `$` also matches
just before a final line break, so `^[a-z][a-z0-9_]*$` took `"brewing\\n"` for an id, which
`validate` passed and `build` turned into a broken module (round 19). Every pattern civrules runs
(jsonschema's `pattern`, the hint code's look-ups, the fast validators ``tools.validators``
writes) is compiled here, with each `$` outside a character class made `\\Z`,
the end of the text only. No schema uses `patternProperties`, whose keys jsonschema would match
with ``re.search`` in `additionalProperties` too (tests/core/test_schema_patterns.py holds them to it).

>>> python_source("^[a-z][a-z0-9_]*$")
'^[a-z][a-z0-9_]*\\\\Z'
>>> matches("^[a-z][a-z0-9_]*$", "brewing"), matches("^[a-z][a-z0-9_]*$", "brewing\\n")
(True, False)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any


def python_source(pattern: str) -> str:
    """The Python regular expression that means what the ECMA-262 ``pattern`` means: each `$`
    (not escaped, not inside `[...]`) is `\\Z`."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = "\\Z"
        out.append(char)
        index += 1
    return "".join(out)


@functools.cache
def compiled(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled with ECMA-262's `$`; search it, as JSON Schema's `pattern` does."""
    return re.compile(python_source(pattern))


def matches(pattern: str, text: str) -> bool:
    """Whether ``text`` matches the schema pattern ``pattern`` anywhere, as JSON Schema says."""
    return compiled(pattern).search(text) is not None


def pattern_keyword(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """jsonschema's `pattern` keyword with :func:`compiled` in place of ``re.search``."""
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")
