"""Invisible format characters at a syntax error (round 19).

`cat a.yaml b.yaml` leaves b's byte order mark (U+FEFF) at the start of a later line; a pasted
zero width space (U+200B) or word joiner (U+2060) sits in an indentation. libyaml then reports an
error whose usual hint (indent it like the keys beside it) describes a line that looks right, and
the quoted line printed the character raw, as nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from civrules.diagnostics.escape import INVISIBLE, printable
from civrules.diagnostics.render import SourceLines, render_text
from civrules.load import read_yaml_text
from civrules.load.workspace import Workspace

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
    assert printable("a\u200bb") == "a\\u200bb" and printable("\U000e0041") == "\\U000e0041"


def test_an_invisible_character_in_rule_text_is_a_warning_at_it() -> None:
    """A zero width space or a soft hyphen inside a name was read without a word: two cards whose
    names look the same, a sheet printing a name that is not the one in the file (round 31). Each
    line holding one is an L015 warning at the first, written as such or as an escape; the joiners
    scripts write inside words, and the byte order mark that opens a file, are text."""
    text = (
        "\ufeffkind: cards\n"
        'a: "Astro\u200bnomy"\n'  # 2: as such, in quotes
        "b: Myst\u00adi\u00adcism\n"  # 3: two on the line, plain
        'c: "Astro\\u200bnomy"\n'  # 4: an escape
        "d: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645\n"  # 5: a Persian word's non-joiner
        "e: \U0001f468\u200d\U0001f469\n"  # 6: an emoji's joiner
        "# \u2060 in a comment\n"  # 7
    )
    document, found = read_yaml_text(text, "f.yaml")
    assert document is not None
    said = sorted((d.span.line, d.span.column, d.code, d.severity, d.message) for d in found if d.span is not None)
    assert len(said) == len(found)
    assert said == [
        (2, 10, "L015", "warning", "invisible character U+200B ZERO WIDTH SPACE in the text"),
        (3, 8, "L015", "warning", "invisible character U+00AD SOFT HYPHEN in the text (and 1 more on this line)"),
        (4, 4, "L015", "warning", "invisible character U+200B ZERO WIDTH SPACE (written as an escape) in the text"),
        (7, 3, "L015", "warning", "invisible character U+2060 WORD JOINER in the text"),
    ]
    assert all(d.hint is not None and d.hint.startswith("delete it: it prints as nothing") for d in found)
    # At a syntax error its hint names the character (round 19): no second diagnostic for it.
    assert [d.code for d in read_yaml_text("a:\n  b: 1\n \u200b c: 2\n", "f.yaml")[1]] == ["L001"]


def test_a_file_of_many_invisible_characters_is_read_in_one_pass_and_listed_to_the_bound() -> None:
    """A line each: one warning a line up to --max-diagnostics, the rest counted (R011), never one
    per character (a line of 10,000 is one)."""
    from civrules.load.reader import Limits

    text = "".join(f'n{i}: "x\u200by"\n' for i in range(1_000)) + "z: " + "\u200b" * 10_000 + "z\n"
    _, found = read_yaml_text(text, "f.yaml", Limits(max_diagnostics=100))
    assert [d.code for d in found] == ["L015"] * 100 + ["R011"]
    _, found = read_yaml_text("z: " + "\u200b" * 10_000 + "z\n", "f.yaml")
    (said,) = [d.message for d in found]
    assert said == "invisible character U+200B ZERO WIDTH SPACE in the text (and 9,999 more on this line)"


def test_names_read_the_same_whatever_their_width_case_or_invisible_characters() -> None:
    """I002 read a name by its ASCII letters alone: every non-ASCII letter dropped, so two Greek
    names both read as "" (the same), and `Pão` as `Pêo`; a full-width `Ａｓｔｒｏｎｏｍｙ` was no
    twin of `Astronomy`. A name reads by its letters in any script, folded (NFKC), without what
    prints as nothing."""
    from civrules.checks.identity import _slug

    assert _slug("Αθήνα") != _slug("Σπάρτη") and _slug("Pão") != _slug("Pêo")
    assert _slug("Ａｓｔｒｏｎｏｍｙ") == _slug("ASTRO\u200bNOMY") == _slug("Astro\u00adnomy") == "astronomy"
    assert _slug("Sun & Moon") == "sun_and_moon" and _slug("ﬁre") == _slug("Fire")


def test_a_word_mixing_lookalike_alphabets_in_a_name_is_i004() -> None:
    """`Lаntern` with a Cyrillic `а` (U+0430) looked like `Lantern` and was read without a word
    (round 31): a word of a name mixing Latin, Greek, Cyrillic (alphabets that share shapes) is
    I004, naming a letter of each; a name in another alphabet, or two with a word each, is text."""
    from types import SimpleNamespace

    from civrules.checks.identity import _mixed_script_names

    class Cards(list[SimpleNamespace]):
        name = "cards"

    origin = SimpleNamespace(span=lambda key: None, head=lambda: None)
    names = ["Lantern", "L\u0430ntern", "Λιμός (Famine)", "Ἀθῆναι", "Pão de Açúcar", "\u0391lpha", "日本語 Nihon"]
    found = _mixed_script_names(
        cast(
            Any,
            Cards(
                SimpleNamespace(id=f"e{i}", name=n, display_name=n, names_itself=True, origin=origin)
                for i, n in enumerate(names)
            ),
        )
    )
    assert [d.code for d in found] == ["I004", "I004"]
    assert found[0].message == (
        "cards: the name `L\u0430ntern` (`e1`) mixes alphabets in `L\u0430ntern`: "
        "`L` (U+004C LATIN CAPITAL LETTER L), `\u0430` (U+0430 CYRILLIC SMALL LETTER A)"
    )
    assert "`\u0391` (U+0391 GREEK CAPITAL LETTER ALPHA)" in found[1].message


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("medi\u200bterranean", "holds the invisible U+200B ZERO WIDTH SPACE, which prints as nothing: delete it"),
        ("medi\u00adterranean", "holds the invisible U+00AD SOFT HYPHEN, which prints as nothing: delete it"),
        ("medit\u0435rranean", "holds U+0435 CYRILLIC SMALL LETTER IE, which only looks like a Latin letter: retype"),
        (
            "m\u0435di\u200bterranean",
            "holds the invisible U+200B ZERO WIDTH SPACE, which prints as nothing, and U+0435 CYRILLIC SMALL "
            "LETTER IE, which only looks like a Latin letter: retype",
        ),
    ],
)
def test_an_id_holding_an_invisible_character_is_told_it_prints_as_nothing(
    tmp_path: Path, written: str, said: str
) -> None:
    """An id's pattern refuses every character outside ASCII; its hint said of a zero width space
    that it "only looks like a Latin letter" (it looks like nothing), and to retype the id."""
    (tmp_path / "maps").mkdir()
    escaped = written.encode("ascii", "backslashreplace").decode()
    (tmp_path / "maps" / "m.yaml").write_text(f'kind: map\nid: "{escaped}"\n', encoding="utf-8")
    loaded = Workspace(tmp_path, shipped=False).load("maps/m.yaml")
    (refused,) = [d for d in loaded.diagnostics if d.code == "S001"]
    assert refused.hint is not None and said in refused.hint, refused.hint
