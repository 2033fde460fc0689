"""Invisible format characters at a syntax error (round 19).

`cat a.yaml b.yaml` leaves b's byte order mark (U+FEFF) at the start of a later line; a pasted
zero width space (U+200B) or word joiner (U+2060) sits in an indentation. libyaml then reports an
error whose usual hint (indent it like the keys beside it) describes a line that looks right, and
the quoted line printed the character raw, as nothing.
"""

from __future__ import annotations

import pytest

from civrules.diagnostics.escape import INVISIBLE, printable_source
from civrules.diagnostics.render import SourceLines, render_text
from civrules.load import read_yaml_text

#: A file, the character its syntax error is caused by, and the line it is on.
CASES = {
    "a byte order mark at a later line's start": ("\ufeffkind: map\n\ufeffx: 1\n", "\ufeff", 2),
    "a zero width space in an indentation": ("kind: map\na:\n  b: 1\n \u200b c: 2\n", "\u200b", 4),
    "a word joiner before a list dash": ("kind: map\na:\n  - 1\n  \u2060- 2\n", "\u2060", 4),
    "a byte order mark before a list dash": ("a:\n  - 1\n  \ufeff- 2\n", "\ufeff", 3),
    "a zero width space before a list item": ("a:\n  - 1\n\u200b  - 2\n", "\u200b", 3),
}

NAMES = {"\ufeff": "ZERO WIDTH NO-BREAK SPACE", "\u200b": "ZERO WIDTH SPACE", "\u2060": "WORD JOINER"}


@pytest.mark.parametrize("name", CASES)
def test_the_hint_names_the_invisible_character_and_says_remove_it(name: str) -> None:
    text, character, line = CASES[name]
    _, found = read_yaml_text(text, "f.yaml")
    (diagnostic,) = found
    assert diagnostic.code == "L001"
    named = f"U+{ord(character):04X} {NAMES[character]}"
    assert diagnostic.hint is not None and named in diagnostic.hint and "remove it" in diagnostic.hint, diagnostic.hint
    column = text.split("\n")[line - 1].index(character) + 1
    assert f"line {line}, column {column}" in diagnostic.hint, diagnostic.hint


def test_a_syntax_error_without_an_invisible_character_keeps_its_hint() -> None:
    _, found = read_yaml_text("kind: map\na:\n  b: 1\n   c: 2\n", "f.yaml")
    (diagnostic,) = found
    assert diagnostic.hint is not None and "invisible" not in diagnostic.hint


def test_the_quoted_line_shows_the_invisible_character_escaped_with_the_caret_under_the_error() -> None:
    text = "\ufeffkind: map\n\ufeffx: 1\n"
    _, found = read_yaml_text(text, "f.yaml")
    shown = render_text(found, SourceLines(texts={"f.yaml": text}))
    quoted = [line for line in shown.splitlines() if line.startswith("  2 |")]
    assert quoted == ["  2 | \\ufeffx: 1"], shown
    caret = shown.splitlines()[shown.splitlines().index(quoted[0]) + 1]
    assert caret.index("^") == len("  2 | \\ufeff"), shown  # under `x`, where libyaml reports it


def test_every_invisible_format_character_escaped_in_quoted_lines_is_one() -> None:
    import re
    import unicodedata

    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    escaped = re.findall(f"[{INVISIBLE}]", every)
    assert {"\ufeff", "\u200b", "\u2060"} <= set(escaped)
    assert {unicodedata.category(c) for c in escaped} == {"Cf"}
    assert "\u200c" not in escaped and "\u200d" not in escaped  # joiners that scripts write in words
    assert printable_source("a\u200bb") == "a\\u200bb" and printable_source("\U000e0041") == "\\U000e0041"
