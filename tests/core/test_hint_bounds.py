"""Hints and suppressions cost no more than the text they answer (round twelve's audit of
text-length costs): a "did you mean" answers words no longer than a name, and at most
``QUERIES`` distinct ones per vocabulary, list or comment; a diagnostic finds the comments that
silence it by its code and line, not by reading every comment of its file."""

from __future__ import annotations

from typing import Any

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.diagnostics.suggest import LONGEST, QUERIES, Vocabulary, lookalike_differences
from civrules.pipeline.suppression import suppress
from civrules.resolve import PatchProblem, _Elements
from tests.security.test_check_growth import MOST, calls_made


def test_a_word_longer_than_a_name_gets_no_suggestion() -> None:
    """difflib compares two words in the square of their length: ids are not bounded, so a word
    longer than :data:`LONGEST` (a name's bound) is not compared with anything."""
    known = "b" * (LONGEST - 1) + "x"
    assert Vocabulary([known]).closest("b" * LONGEST) == known
    assert Vocabulary([known + "x"]).closest("b" * (LONGEST + 1)) is None


def test_a_word_with_thousands_of_invisible_characters_is_said_to_hold_them() -> None:
    written = "\u200b".join("pottery" * 3_000)
    assert lookalike_differences(written, "pottery" * 3_000) == "the invisible U+200B ZERO WIDTH SPACE"


def test_a_list_gives_its_first_queries_unmatched_selectors_a_hint_and_no_more() -> None:
    """Every selector naming no element was compared with the whole list, however many there were."""
    items: list[Any] = [{"id": f"item{i}"} for i in range(50)]
    problems: list[PatchProblem] = []
    elements = _Elements(items)
    for i in range(QUERIES + 20):
        assert elements.select({"id": f"itme{i % 50}"}, problems, ("remove", i)) is None
    hints = [p.hint for p in problems]
    assert hints[0] == "did you mean `{id: item0}`?"
    assert all(h.startswith("did you mean") for h in hints[:QUERIES])
    assert set(hints[QUERIES:]) == {"name an element by a value or by fields it has"}


class _Comments:
    """A workspace's lines of one file: line i holds a suppression of K001 with a reason."""

    def __init__(self, lines: int) -> None:
        self.lines = [f"  x{i}: 1  # civrules: ignore[K001] read so in the source" for i in range(lines)]

    def source_lines(self, file: str, mentioning: str | None = None) -> list[str]:
        return self.lines


def test_each_diagnostic_finds_its_comment_in_work_linear_in_the_comments() -> None:
    """n diagnostics, each on a line with its own comment: each was tried against every comment of
    the file, the square of n."""

    def silenced(n: int) -> int:
        workspace = _Comments(n)
        found = [
            Diagnostic("K001", Severity.WARNING, "m", Span("rules/cards/a.yaml", i + 1, 1, i + 1, 2)) for i in range(n)
        ]
        kept: list[Diagnostic] = []
        work = calls_made(lambda: kept.extend(suppress(found, workspace)))  # type: ignore[arg-type]
        assert kept == []
        return work

    at_n, at_2n = silenced(400), silenced(800)
    assert at_2n <= MOST * at_n, (at_n, at_2n)


class _UnknownCodes(_Comments):
    """Line i suppresses `Z{i}`, a code no check has (R020, with the code it likely meant)."""

    def __init__(self, lines: int) -> None:
        self.lines = [f"  x{i}: 1  # civrules: ignore[Z{i:03d}] read so" for i in range(lines)]


def test_a_comment_naming_unknown_codes_gets_queries_suggestions_and_no_more() -> None:
    """Each unknown code was compared with every known code on its own (a comment of 8,000 took
    14 s, and no bound): one vocabulary now answers them, the first QUERIES distinct ones."""
    found = suppress([], _UnknownCodes(QUERIES + 100), files=["rules/cards/a.yaml"])  # type: ignore[arg-type]
    hints = [d.hint or "" for d in found if d.code == "R020"]
    assert len(hints) == QUERIES + 100
    assert sum(h.startswith("did you mean") for h in hints[:QUERIES]) > QUERIES // 2
    assert set(hints[QUERIES:]) == {"`civrules explain --list` lists the codes"}


def test_each_distinct_code_of_the_comments_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging a code lists every registered check: once per code written, a comment of 8,000
    codes took 6 s. Each distinct code is judged once, and none after the catalogue is loaded."""
    import civrules.pipeline.suppression as pipeline
    from civrules.checks.catalogue import known_code as real

    judged: list[str] = []

    def counting(code: str) -> bool:
        judged.append(code)
        return real(code)

    monkeypatch.setattr(pipeline, "known_code", counting)
    workspace = _Comments(0)
    workspace.lines = ["  x: 1  # civrules: ignore[" + ",".join(["K001", "ZZ", "I002"] * 1_000) + "] read so"]
    found = suppress([], workspace, files=["rules/cards/a.yaml"])  # type: ignore[arg-type]
    assert sorted(d.code for d in found) == ["R020"] * 1_000 + ["R021"] * 2_000
    assert judged == ["K001", "ZZ"]
