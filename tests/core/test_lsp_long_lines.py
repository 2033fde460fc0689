"""The language server on long lines (round twelve's audit of text-length costs): positions are
converted by a table of the line made once, and the completion's flow-mapping key is read from the
end of the line only, with the answers of the definitions they replace."""

from __future__ import annotations

import random

import pytest

from civrules.lsp import positions
from civrules.lsp.index import yaml_key_path
from civrules.lsp.positions import UTF8, UTF16, UTF32, from_units, to_units, units


def to_units_by_definition(line: str, column: int, encoding: str) -> int:
    column = max(column, 0)
    return units(line[:column], encoding) + max(column - len(line), 0)


def from_units_by_definition(line: str, character: int, encoding: str) -> int:
    character = max(character, 0)
    if encoding == UTF32 or line.isascii():
        return min(character, len(line))
    count = 0
    for index, char in enumerate(line):
        count += units(char, encoding)
        if count > character:
            return index
    return len(line)


def test_positions_are_the_definitions_on_random_lines() -> None:
    """ASCII, accented, CJK extension B, an emoji and a lone surrogate, at every column and
    character of the line and past its end."""
    rng = random.Random(5)
    for _ in range(300):
        line = "".join(rng.choice("ab é𠀋😀\ud800") for _ in range(rng.randint(0, 12)))
        for encoding in (UTF8, UTF16, UTF32):
            for column in range(-1, len(line) + 3):
                assert to_units(line, column, encoding) == to_units_by_definition(line, column, encoding)
            for character in range(-1, 4 * len(line) + 3):
                assert from_units(line, character, encoding) == from_units_by_definition(line, character, encoding)


def test_every_position_of_a_long_line_is_converted_in_work_linear_in_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Find-references on one line holding a reference every few characters: each conversion
    encoded the line up to its column (or counted it character by character), the product of the
    two. Counted: the characters given to ``units``."""
    counted = 0

    def counting(text: str, encoding: str) -> int:
        nonlocal counted
        counted += len(text)
        return units(text, encoding)

    monkeypatch.setattr(positions, "units", counting)

    def converted(n: int) -> int:
        nonlocal counted
        counted = 0
        line = "é" + "ab " * n
        for column in range(0, len(line), 3):
            assert positions.from_units(line, positions.to_units(line, column, UTF16), UTF16) == column
        return counted

    at_n, at_2n = converted(2_000), converted(4_000)
    assert at_2n <= 2.5 * at_n, (at_n, at_2n)


def test_the_flow_key_of_a_line_is_read_from_its_last_thousand_characters() -> None:
    """The search backtracks over every comma before the cursor (24,000 characters: 1.9 s per
    completion), so it reads the line's last 1,000 characters: a flow mapping opened further back
    gives no key (the completion offers the enclosing block's keys), one opened within gives it."""
    lines = ["cards:", "  - {id: pottery, " + "note: x, " * 100 + "cost: 4"]
    assert yaml_key_path(lines, 2, len(lines[1]) + 1) == (["cards", "cost"], True)
    long = ["cards:", "  - {" + ",a: [b" * 5_000 + "], cost: 4"]
    assert yaml_key_path(long, 2, len(long[1]) + 1) == (["cards"], False)
