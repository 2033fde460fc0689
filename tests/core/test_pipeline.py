"""The pipeline around the checks: selection, suppression comments, and checks only on clean files."""

from __future__ import annotations

import pytest

from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import RULES

CALAMITIES = "calamities/advanced-civilization.yaml"


def codes_with(overrides: dict[str, str], select: tuple[str, ...] = (), ignore: tuple[str, ...] = ()) -> list[str]:
    workspace = Workspace(RULES, overrides=overrides)
    loaded = workspace.load_ruleset(workspace.manifests()["advanced-civilization"])
    return sorted(d.code for d in analyse(workspace, loaded, select, ignore).diagnostics if d.severity != "info")


def calamities(find: str, replace: str) -> dict[str, str]:
    text = (RULES / CALAMITIES).read_text(encoding="utf-8")
    assert find in text
    return {CALAMITIES: text.replace(find, replace, 1)}


DUPLICATE = ("  - id: treachery\n", "  - id: famine\n")


def test_a_duplicate_id_is_reported() -> None:
    assert codes_with(calamities(*DUPLICATE)) == ["I001"]


def test_select_and_ignore_choose_checks_by_code_prefix() -> None:
    overrides = calamities(*DUPLICATE)
    assert codes_with(overrides, select=("X",)) == []
    assert codes_with(overrides, select=("I0",)) == ["I001"]
    assert codes_with(overrides, ignore=("I001",)) == []


SAME_NAME = ('    name: "Treachery"', '    name: "Famine"')  # I002, a warning, on the renamed line


def test_a_suppression_comment_with_a_reason_silences_its_line() -> None:
    find, renamed = SAME_NAME
    assert codes_with(calamities(find, renamed)) == ["I002"]
    assert codes_with(calamities(find, renamed + "  # civrules: ignore[I002] two printings of Famine")) == []


def test_a_suppression_without_a_reason_is_not_honoured() -> None:
    find, renamed = SAME_NAME
    # The comment is reported too (R021): it says it silences nothing, and why.
    assert codes_with(calamities(find, renamed + "  # civrules: ignore[I002]")) == ["I002", "R021"]


def test_a_suppression_comment_is_checked_like_a_suppress_entry() -> None:
    """An unknown code (R020, with the code it meant) and a code that silences nothing (R021) are
    warnings at the comment; a code kept from running by --select/--ignore is not judged."""
    find, renamed = SAME_NAME
    assert codes_with(calamities(find, renamed + "  # civrules: ignore[I0O2] two printings")) == ["I002", "R020"]
    unused = calamities("  - id: treachery\n", "  - id: treachery  # civrules: ignore[I002] two printings\n")
    assert codes_with(unused) == ["R021"]
    assert codes_with(unused, select=("X",)) == []
    assert codes_with(unused, ignore=("I002",)) == []


def test_a_file_wide_suppression_silences_the_code_in_that_file_only() -> None:
    text = (RULES / CALAMITIES).read_text(encoding="utf-8")
    silenced = "# civrules: ignore-file[I002] two printings of Famine\n" + text.replace(*SAME_NAME, 1)
    assert codes_with({CALAMITIES: silenced}) == []


def test_an_error_that_makes_the_ruleset_unbuildable_cannot_be_suppressed() -> None:
    """Silenced, a duplicate id let `build` write enums with two equal members: the package did
    not import. The error stays, and the comment that tried is an error of its own (R010)."""
    text = (RULES / CALAMITIES).read_text(encoding="utf-8")
    famine = '  - id: famine\n    name: "Famine"'
    assert famine in text
    silenced = text.replace(*DUPLICATE, 1).replace(
        famine, '  - id: famine  # civrules: ignore[C002,I001] kept while the variant is drafted\n    name: "Famine"'
    )
    workspace = Workspace(RULES, overrides={CALAMITIES: silenced})
    loaded = workspace.load_ruleset(workspace.manifests()["advanced-civilization"])
    found = [d for d in analyse(workspace, loaded).diagnostics if d.severity != "info"]
    assert sorted(d.code for d in found) == ["I001", "R010", "R021"]  # C002 fires nowhere here
    (refusal,) = [d for d in found if d.code == "R010"]
    index = silenced.index("I001]")
    line, column = silenced.count("\n", 0, index) + 1, index - silenced.rfind("\n", 0, index)
    assert refusal.span is not None and (refusal.span.line, refusal.span.column) == (line, column)
    # Named in a file with no diagnostic of its own, the comment is reported all the same.
    manifest = "rulesets/advanced-civilization.yaml"
    text = (RULES / manifest).read_text(encoding="utf-8") + "# civrules: ignore-file[X001] references drafted\n"
    assert codes_with({manifest: text}) == ["R010"]


def test_schema_errors_cannot_be_suppressed_and_stop_the_checks() -> None:
    text = (RULES / CALAMITIES).read_text(encoding="utf-8")
    broken = "# civrules: ignore-file[S001,I001] no\n" + text.replace("    stack: 2\n", "    stack: two\n", 1)
    broken = broken.replace(*DUPLICATE, 1)
    assert codes_with({CALAMITIES: broken}) == ["S001"]


def test_the_spans_around_a_place_are_those_trying_every_span_finds() -> None:
    """The index of a variant's changes (and of its overlay entries) answers as a scan of all the
    spans did, in the order they were given: spans that nest, lie apart, repeat one another or
    touch, and spans that overlap without nesting (its file is then scanned)."""
    import random

    from civrules.diagnostics import Span
    from civrules.pipeline import _Enclosures

    def spans(file: str, count: int, chance: random.Random) -> list[Span]:
        made = []
        for _ in range(count):
            line, column = chance.randint(1, 12), chance.randint(1, 6)
            end_line = line + chance.choice((0, 0, 1, 3))
            end_column = chance.randint(column + 1, 9) if end_line == line else chance.randint(1, 9)
            made.append(Span(file, line, column, end_line, end_column))
        return made

    def nested(file: str, at: int, depth: int) -> list[Span]:
        # a document's nodes: each holds two, which lie apart
        inner = (
            []
            if depth == 0
            else [*nested(file, at + 1, depth - 1), *nested(file, at + 1 + 3 ** (depth - 1), depth - 1)]
        )
        return [Span(file, at, 3, at + 3**depth, 1), *inner]

    chance = random.Random(7)
    for given in (
        nested("a.yaml", 1, 3),
        [*nested("a.yaml", 1, 2), *nested("a.yaml", 1, 2), *nested("b.yaml", 3, 1), *nested("b.yaml", 3, 2)],
        spans("a.yaml", 40, chance),
        [*nested("a.yaml", 1, 3), *spans("b.yaml", 30, chance)],
    ):
        index = _Enclosures((span, n) for n, span in enumerate(given))
        for place in [*spans("a.yaml", 300, chance), *spans("b.yaml", 100, chance), *given]:
            expected = [
                (span, n)
                for n, span in enumerate(given)
                if span.file == place.file
                and (span.line, span.column) <= (place.line, place.column)
                and (place.end_line, place.end_column) <= (span.end_line, span.end_column)
            ]
            assert index.around(place) == expected, place


@pytest.mark.slow
def test_a_name_mixing_alphabets_in_a_word_is_a_warning_at_it() -> None:
    """A calamity named `Fаmine` with a Cyrillic `а` (U+0430) looked like Famine and was read
    without a word (round 31); a name in another alphabet (or two, a word each) is text."""
    assert codes_with(calamities('    name: "Famine"', '    name: "F\u0430mine"')) == ["I004"]
    assert codes_with(calamities('    name: "Famine"', '    name: "Λιμός (Famine)"')) == []
