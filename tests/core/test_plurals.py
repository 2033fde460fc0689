"""Counts agree with their nouns: no message says "after 1 diagnostics" or "(1 lines)" (round 34).

A count put before a noun goes through a helper that picks the noun's number (the compiler's
`civrules.diagnostics.words.count`, the runtimes' `errors._count` and their own small ones), or
is one that cannot be 1 (a bound civrules sets, a size beyond it, a range's upper end).
"""

from __future__ import annotations

import ast
import re

from civrules.diagnostics import stopped, stopped_and_truncated
from civrules.diagnostics.words import count
from tests.budget import heavy
from tests.conftest import REPO

COMPILER = REPO / "compiler" / "civrules"

#: The plural nouns messages, sheets and generated packages' errors put after a count.
NOUNS = re.compile(
    r" (?:more )?(diagnostics|files|lines|cards|values|fields|rulesets|characters|entries|items|keys|errors|"
    r"warnings|sections|rules|folders|players|bytes|times|levels|copies|records|tables|steps|victory points)\b"
)

#: Counts before a plural noun that cannot be 1, by file and the interpolated expression, and why.
CANNOT_BE_ONE = {
    ("cli/__init__.py", "stale.files"): "its branch is taken when it is not 1 (the 1 is said apart)",
    ("emit/output.py", "self.files"): "its branch is taken when it is not 1",
    ("emit/packaging.py", "len(ruleset_id)"): "an id longer than the bound",
    ("emit/runtime/errors.py", "n"): "copies() and _times() say 1 (and 2) apart",
    ("emit/runtime/records.py", "type(self).__name__"): "a class name, no count",
    ("emit/settings_types.py", "slot"): "a slot's name, no count",
    ("diagnostics/__init__.py", "FILES_LISTED_IN_FULL"): "a bound civrules sets (10)",
    ("emit/sheets/common.py", "len(reasons)"): "more than one distinct reason",
    ("families/advanced_civilization/assemble.py", "players"): "a players value that is no number",
    ("families/advanced_civilization/checks/calamities.py", "len(ids)"): "two or more ids taken at once",
    ("families/advanced_civilization/runtime/logic.py", "shown(n)"): "the _players() and _cards() helpers",
    ("families/advanced_civilization/sheets/cards.py", "group"): "a group's name, no count",
    ("families/advanced_civilization/sheets/quick_reference.py", "one"): "its branch is taken when it is not 1",
    ("families/imperial_settlers/checks/decks.py", "listed"): "a list of copy counts",
    ("families/imperial_settlers/checks/decks.py", "', '.join(map(str, short))"): "a list of copy counts",
    ("families/imperial_settlers/rules.py", "times"): "more than a card's copies, which are 1 or more",
    ("families/sid_meiers_civilization/runtime/logic.py", "what"): "a kind's name, no count",
    ("schema/accepted.py", "reference['what']"): "a kind's name, no count",
    ("schema/accepted.py", "low"): "its branch is taken when low > 1",
    ("support/files.py", "READ_AGAIN + 1"): "a bound civrules sets",
}

#: A bound civrules or its user sets, or a size beyond one: never 1.
BOUND = re.compile(r"max|MAX|limit|\.size$|^size$|st_size|len\(raw\)|int\(value\)")

#: The text before a count that makes it a range's upper end ("2-4 players", "0 to 5 cards").
RANGE_END = re.compile(r"(-|\bto |\bup to )$")


def _hits(source: str, relative: str) -> list[tuple[str, int, str, str]]:
    """Each count of ``source`` that stands right before a plural noun and may be 1."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        parts = node.values
        for at, value in enumerate(parts):
            after = parts[at + 1] if at + 1 < len(parts) else None
            if not isinstance(value, ast.FormattedValue) or not isinstance(after, ast.Constant):
                continue
            noun = NOUNS.match(str(after.value))
            if noun is None:
                continue
            expression = ast.unparse(value.value)
            before = parts[at - 1] if at else None
            prefix = str(before.value) if isinstance(before, ast.Constant) else ""
            if BOUND.search(expression) or RANGE_END.search(prefix):
                continue
            if (relative, expression) not in CANNOT_BE_ONE:
                found.append((relative, node.lineno, expression, noun.group(0)))
    return found


@heavy
def test_no_count_that_can_be_one_stands_before_a_plural_noun() -> None:
    """The walk that finds the class: each f-string of the compiler, runtimes and sheets where a
    count stands right before a plural noun. Before round 34 it found "after {limit:,} diagnostics"
    (R011 with --max-diagnostics 1), "({lines:,} lines)" of build --check, "wrote {n} files",
    "{len(given_cards)} cards given" of a generated package's trade_problems and some 30 others."""
    found = []
    for path in sorted(COMPILER.rglob("*.py")):
        found += _hits(path.read_text(encoding="utf-8"), path.relative_to(COMPILER).as_posix())
    assert found == []


def test_the_walk_finds_a_count_before_a_plural_and_passes_a_range_or_a_bound() -> None:
    """The walk is not blind: a count it has not been told of is found."""
    source = (
        'f"after {n:,} diagnostics"; f"{len(x)} more lines of {cut}"; f"2-{high} players"; '
        'f"at most {limits.max_bytes:,} bytes"; f"{count(n, \'file\')} written"'
    )
    assert [(hit[2], hit[3]) for hit in _hits(source, "x.py")] == [("n", " diagnostics"), ("len(x)", " more lines")]


def test_r011_with_a_limit_of_one_says_one_diagnostic() -> None:
    """`--max-diagnostics 1` said "civrules stopped checking this file after 1 diagnostics"."""
    assert stopped("a.yaml", 1).message == "civrules stopped checking this file after 1 diagnostic; it has more"
    assert stopped("a.yaml", 2).message == "civrules stopped checking this file after 2 diagnostics; it has more"
    both = stopped_and_truncated("a.yaml", 1, 1)
    assert both.message.endswith("stopped checking it after 1 diagnostic: it has more"), both.message


def test_count_says_the_number_of_its_noun_with_thousands_separated() -> None:
    assert [count(n, "line") for n in (0, 1, 2, 1000)] == ["0 lines", "1 line", "2 lines", "1,000 lines"]
    assert count(1, "copy", "copies") == "1 copy"
