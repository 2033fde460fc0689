"""The nearest enclosing section of a cited number (`checks/citations.py`, ``Index.enclosing``), the
hint of Q001 and Q002: the definition's answer, in work that does not grow with the number's
length (a `rule:` of 100,000 digits is within the schema's pattern)."""

from __future__ import annotations

import random

import pytest

from civrules.checks.citations import Index


def by_definition(index: Index, number: str) -> str | None:
    """The enclosing section as its definition reads: drop the number's end, step by step (what
    ``Index.enclosing`` still does for a number the schema does not admit)."""
    if index.numbering == "pages_and_headings":
        return index.enclosing(number)  # a page: no steps, the same code
    return index._enclosing_by_steps(number)


class Looked(frozenset[str]):
    """Section numbers that count the characters of every number looked up among them."""

    looked = 0

    def __contains__(self, number: object) -> bool:
        Looked.looked += len(number) if isinstance(number, str) else 1
        return super().__contains__(number)


NUMBERINGS = ("decimal_digits", "dotted_components", "pages_and_headings")


def test_the_enclosing_section_is_the_definitions_on_random_numbers() -> None:
    """Numbers and indexes over digits, dots, `p` and `/`: numbers the schema admits, and others
    (two dots in a row, a dot at either end), which are answered step by step."""
    rng = random.Random(7)

    def number() -> str:
        return "".join(rng.choice("1223..p/") for _ in range(rng.randint(0, 9)))

    for _ in range(2_000):
        numbering = rng.choice(NUMBERINGS)
        sections = frozenset(number() for _ in range(rng.randint(0, 30)))
        index = Index(None, sections, {number(): "" for _ in range(rng.randint(0, 5))}, frozenset(), numbering)  # type: ignore[arg-type]
        for _ in range(20):
            cited = number()
            assert index.enclosing(cited) == by_definition(index, cited), (numbering, cited, sorted(sections))


@pytest.mark.parametrize(("numbering", "enclosing"), [("decimal_digits", "2.11"), ("dotted_components", "2")])
def test_a_long_number_looks_up_only_heads_as_long_as_a_known_section(numbering: str, enclosing: str) -> None:
    """`2.111…1` of n digits: the heads looked up are those of the index's lengths (1 to 4
    characters here), whatever n; every head of the number was cut and looked up before, the
    square of n (100,000 digits: 2 s)."""
    looked = []
    for digits in (10_000, 20_000):
        index = Index(None, Looked({"2", "2.1", "2.11", "10.3"}), {}, frozenset(), numbering)  # type: ignore[arg-type]
        Looked.looked = 0
        assert index.enclosing("2." + "1" * digits) == enclosing
        looked.append(Looked.looked)
    assert looked[0] == looked[1] <= 20, looked
