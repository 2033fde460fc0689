"""The YAML reader: positions, YAML 1.2 scalars, and every loader diagnostic (good and bad input)."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest

from civrules.diagnostics import Span
from civrules.load import Document, Limits, read_yaml_bytes, read_yaml_file, read_yaml_text, reader
from civrules.load.reader import _SYNTAX_HINTS, _syntax_hint


def codes_of(text: str, limits: Limits | None = None) -> list[tuple[str, int, int]]:
    _, diagnostics = read_yaml_text(text, "f.yaml", limits or Limits())
    return [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span is not None]


def test_keeps_the_span_of_every_value_and_key() -> None:
    document, diagnostics = read_yaml_text("cards:\n  - id: pottery\n    cost: 45\n", "c.yaml")
    assert diagnostics == []
    assert document is not None
    assert document.data == {"cards": [{"id": "pottery", "cost": 45}]}
    assert document.span(("cards", 0, "cost")) == Span("c.yaml", 3, 11, 3, 13)
    assert document.key_span(("cards", 0, "cost")) == Span("c.yaml", 3, 5, 3, 9)
    assert document.span(("cards", 0)).line == 2


def _paths(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path in ``value``, in the order the reader finishes the nodes (a collection after its parts)."""
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [*(found for part, child in children for found in _paths(child, (*path, part))), path]


def test_positions_are_one_flat_table_looked_up_by_path() -> None:
    """Every node has its own position, found by walking its path down from the root, in one flat
    array of a few words a node (no path tuple and no dictionary entry per node): the positions of
    the 400,000 nodes of the 50× synthetic ruleset took 55 MB in path-keyed dictionaries."""
    text = "".join(f"c{i}:\n  cost: {i}\n  name: 'Card {i}'\n  groups: [crafts, arts]\n" for i in range(500))
    document, diagnostics = read_yaml_text(text, "c.yaml")
    assert diagnostics == [] and document is not None
    paths = _paths(document.data)
    assert list(document.value_spans) == paths
    assert list(document.key_spans) == [path for path in paths if path and isinstance(path[-1], str)]
    assert document.span(("c7", "groups", 1)) == Span("c.yaml", 32, 20, 32, 24)
    assert document.key_span(("c499", "name")) == Span("c.yaml", 1999, 3, 1999, 7)
    assert document.exact_span(("c7", "groups", 2)) is None
    assert document.span(("c7", "groups", 2)) == document.span(("c7", "groups"))  # the nearest ancestor
    assert document.span(("c7", "missing", 0)) == document.span(("c7",))
    assert ("c7", "cost") in document.key_spans and ("c7", "groups", 0) not in document.key_spans
    assert list(document.paths_under(("c7", "groups"))) == [("c7", "groups", 0), ("c7", "groups", 1), ("c7", "groups")]
    table = document.table
    assert len(table) == len(paths)
    assert table.records.itemsize * len(table.records) == 48 * len(paths)


def test_a_document_made_from_path_keyed_positions_answers_as_the_table_does() -> None:
    """A document put together from another's positions by path (a splice, a test) answers every
    lookup as the reader's table does."""
    text = "a: &x {b: 1, c: [2, 3]}\nd: *x\ne:\n  - {f: g}\n  - h\n"
    read, _ = read_yaml_text(text, "f.yaml")
    assert read is not None
    made = Document(
        read.file, read.data, dict(read.value_spans), dict(read.key_spans), read.refused, False, read.aliases
    )
    paths = [*_paths(read.data), ("d", "c", 1), ("e", 5), ("missing", 0), ("a", "c", "x")]
    for document in (read, made):
        assert [document.span(p) for p in paths] == [read.span(p) for p in paths]
        assert [document.key_span(p) for p in paths] == [read.key_span(p) for p in paths]
        assert [document.exact_span(p) for p in paths] == [read.exact_span(p) for p in paths]
        assert list(document.key_lines(("a",))) == [("b", 1), ("c", 1)]
        assert list(document.paths_under(("a", "c"))) == [("a", "c", 0), ("a", "c", 1), ("a", "c")]
    assert made.value_spans == read.value_spans and made.key_spans == read.key_spans
    for document in (read, made):  # every position with its path, in the reader's order, looked up once
        assert list(document.positions()) == list(read.value_spans.items())
        assert list(document.positions(keys=True)) == list(read.key_spans.items())


def test_a_document_ending_elsewhere_changes_only_those_ends() -> None:
    """The reading kept after lines added at the end: the same data, the given nodes' ends moved."""
    text = "a:\n  b: [1, 2]\n  c:\n  - d\n"
    read, _ = read_yaml_text(text, "f.yaml")
    assert read is not None
    moved = [(), ("a",), ("a", "c")]
    for document in (read, Document(read.file, read.data, dict(read.value_spans), dict(read.key_spans))):
        ending = document.ending_at(moved, 9, 1)
        assert ending.data is read.data and document.span(()).end_line == 5  # the original as it was
        for path, packed in read.value_spans.items():
            span = ending.span(path)
            expected = (9, 1) if path in moved else (read.span(path).end_line, read.span(path).end_column)
            assert (span.line, span.column) == (packed >> 96, packed >> 64 & 0xFFFFFFFF)
            assert (span.end_line, span.end_column) == expected
        assert list(ending.key_spans.items()) == list(read.key_spans.items())


def test_spans_inside_an_alias_are_where_the_value_is_written() -> None:
    """A part of what an alias repeats is located at its anchor's node, where the designer wrote
    it (and can correct it); the alias itself keeps its own span."""
    document, _ = read_yaml_text("a: &x {b: 1}\nc: *x\n", "f.yaml")
    assert document is not None
    assert document.data["c"] == {"b": 1}
    assert document.span(("c", "b")) == Span("f.yaml", 1, 11, 1, 12)
    assert document.span(("c",)) == Span("f.yaml", 2, 4, 2, 6)


#: Aliases of every kind: of a mapping, of a list, of a scalar, inside an anchored node (followed
#: twice), of a node holding an alias, as list items and in flow collections.
_ALIASED = """\
base: &m {b: 1, c: [2, &s three, {d: 4}]}
list: &l [5, {e: 6}, *s]
inner: &i {f: *m, g: [*l, 7]}
uses:
  - *m
  - {h: *i, k: [*l, *s]}
  - *i
again: *i
"""


def test_spans_through_aliases_walk_the_path_once() -> None:
    """A part inside an alias is located by walking its path down once, and after each alias
    followed only what lies below the anchor: it looked the whole path up from the root three times
    (the note at each of 140,000 credit lines named through one alias). Every span, key span and
    written path is what a document made from the same positions by path gives (the definition)."""
    read, diagnostics = read_yaml_text(_ALIASED, "f.yaml")
    assert diagnostics == [] and read is not None and len(read.aliases) == 9
    made = Document(
        read.file, read.data, dict(read.value_spans), dict(read.key_spans), read.refused, False, read.aliases
    )
    paths = _paths(read.data)
    probes = [*paths, *((*p, "x") for p in paths), *((*p, 0) for p in paths), *((*p, 9, "y") for p in paths)]
    assert [read.span(p) for p in probes] == [made.span(p) for p in probes]
    assert [read.key_span(p) for p in probes] == [made.key_span(p) for p in probes]
    assert [read.written(p) for p in probes] == [made.written(p) for p in probes]
    assert read.written(("uses", 1, "h", "f", "c", 2, "d")) == ("base", "c", 2, "d")  # two aliases followed
    assert read.written(("uses", 1, "h", "g", 0, 2)) == ("list", 2)  # an alias keeps its own span
    assert read.span(("uses", 1, "h", "g", 0, 1, "e")) == Span("f.yaml", 2, 18, 2, 19)

    calls = 0
    child = type(read.table).child

    def counted(table: object, node: int, part: str | int) -> int:
        nonlocal calls
        calls += 1
        return child(table, node, part)  # type: ignore[arg-type]

    many = "\n".join(["a: &a [" + ", ".join(f"{{g: crafts, p: {i}}}" for i in range(50)) + "]", "cards:"])
    many += "".join(f"\n  - {{id: c{i}, credits: *a}}" for i in range(200)) + "\n"
    document, _ = read_yaml_text(many, "m.yaml")
    assert document is not None
    inside = [("cards", i, "credits", j, "g") for i in range(200) for j in range(50)]
    document.span(inside[0])  # the anchor's node, found once
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(document.table), "child", counted)
        spans = [document.span(path) for path in inside]
    assert spans[1] == document.span(("a", 1, "g")) and spans[-1] == document.span(("a", 49, "g"))
    # Down to the alias (three steps and the one that finds nothing), then two below the anchor.
    assert calls <= 6 * len(inside)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("true", True),
        ("False", False),
        ("~", None),
        ("", None),
        ("45", 45),
        ("-3", -3),
        ("0x1F", 31),
        ("0o17", 15),
        ("32.21", 32.21),
        ("1e3", 1000.0),
        ("'32.21'", "32.21"),
        ("2001-12-14", "2001-12-14"),
        ("!!str 45", "45"),
        ("!!int 45", 45),
        ("!!float 1", 1.0),
    ],
)
def test_scalars_follow_the_yaml_1_2_core_schema(text: str, expected: object) -> None:
    document, diagnostics = read_yaml_text(f"v: {text}\n", "f.yaml")
    assert diagnostics == []
    assert document is not None
    assert document.data["v"] == expected
    assert type(document.data["v"]) is type(expected)


def test_syntax_error_points_at_the_parser_mark() -> None:
    _, diagnostics = read_yaml_text("a: [1, 2\nb: 3\n", "f.yaml")
    assert [d.code for d in diagnostics] == ["L001"]
    assert diagnostics[0].span is not None and diagnostics[0].span.line == 2
    assert diagnostics[0].hint is not None


def test_duplicate_key_names_both_places() -> None:
    _, diagnostics = read_yaml_text("a:\n  cost: 45\n  cost: 50\n", "f.yaml")
    (duplicate,) = diagnostics
    assert (duplicate.code, duplicate.span) == ("L002", Span("f.yaml", 3, 3, 3, 7))
    assert duplicate.related[0].span == Span("f.yaml", 2, 3, 2, 7)


def test_duplicate_keys_are_found_at_every_depth() -> None:
    text = "a: 1\na: 2\nb:\n  - {c: 1, c: 2}\n  - d:\n      e: 1\n      e: 1\n"
    assert codes_of(text) == [("L002", 2, 1), ("L002", 4, 12), ("L002", 7, 7)]


def test_each_duplicate_names_its_own_first_definition_among_many_keys() -> None:
    """The first definition is looked up by key (an index made at the first duplicate, extended as
    keys come): keys written again in another order, some twice, a duplicate before and after
    other keys are added, each names the line of its own first definition."""
    keys = [f"k{i}" for i in range(300)]
    again = [*reversed(keys[::3]), "late", *keys[1::7], "late", "k0"]
    lines = [f"{key}: 1" for key in keys[:150]] + [f"{key}: 2" for key in again[:40]]
    lines += [f"{key}: 1" for key in keys[150:]] + [f"{key}: 3" for key in again[40:]]
    _, diagnostics = read_yaml_text("\n".join(lines) + "\n", "f.yaml", Limits(max_diagnostics=10_000))
    first: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        first.setdefault(line.partition(":")[0], number)
    expected = [
        (number, first[line.partition(":")[0]])
        for number, line in enumerate(lines, 1)
        if first[line.partition(":")[0]] != number
    ]
    assert [(d.span.line, d.related[0].span.line) for d in diagnostics if d.span is not None] == expected
    assert {d.code for d in diagnostics} == {"L002"}


def test_problems_past_the_limit_are_counted_not_made_and_a_fatal_one_is_still_listed() -> None:
    """The reader lists at most ``max_diagnostics`` problems of a file and one R011 line saying it
    went on (245,000 duplicate keys made 245,000 diagnostics to list 100); a problem that stops the
    reading is listed past the limit, and a refused value past it is still refused."""
    text = "".join(f"k{i}: 1\n" for i in range(30)) * 2
    _, diagnostics = read_yaml_text(text, "f.yaml", Limits(max_diagnostics=10))
    assert [d.code for d in diagnostics] == ["L002"] * 10 + ["R011"]
    _, everything = read_yaml_text(text, "f.yaml", Limits(max_diagnostics=1000))
    assert [d.code for d in everything] == ["L002"] * 30
    assert everything[:10] == diagnostics[:10]
    deep = text + "x: " + "[" * 120 + "]" * 120 + "\n"
    document, diagnostics = read_yaml_text(deep, "f.yaml", Limits(max_diagnostics=10))
    assert document is None and "nesting deeper" in diagnostics[-2].message and diagnostics[-1].code == "R011"
    tagged = text + "".join(f"t{i}: !!python/name:os.system\n" for i in range(3))
    document, diagnostics = read_yaml_text(tagged, "f.yaml", Limits(max_diagnostics=10))
    assert document is not None and all(document.data[f"t{i}"] is None for i in range(3))
    assert {("t0",), ("t1",), ("t2",)} <= set(document.refused)


def test_distinct_keys_are_fine() -> None:
    assert codes_of("a: 1\nb: {a: 1}\n") == []


@pytest.mark.parametrize("key", ["1", "true", "null", "[a]", "{a: 1}", "1.5"])
def test_non_string_keys_are_refused(key: str) -> None:
    text = f"? {key}\n: value\n" if key.startswith(("[", "{")) else f"{key}: value\n"
    assert [c for c, _, _ in codes_of(text)] == ["L003"]


def test_quoted_numeric_key_is_a_string() -> None:
    assert codes_of("'1': value\n") == []


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object:os.system x\n",
        "a: !!python/name:os.system\n",
        "a: !custom 1\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!set {x}\n",
        "!!omap [a: 1]\n",
    ],
)
def test_tags_outside_the_core_schema_are_refused(text: str) -> None:
    assert "L004" in [c for c, _, _ in codes_of(text)]


def test_core_tags_are_allowed() -> None:
    assert codes_of("a: !!str x\nb: !!map {c: !!seq [1]}\n") == []


@pytest.mark.parametrize(
    ("tag", "wrong", "said", "right"),
    [
        ("int", "abc", "an integer", "3"),
        ("float", "x", "a number", "2.5"),
        ("bool", "maybe", "`true` or `false`", "true"),
        ("null", "3", "`null` (or nothing)", "null"),
    ],
)
def test_a_value_its_tag_refuses_is_hinted_with_what_the_tag_takes(tag: str, wrong: str, said: str, right: str) -> None:
    """The hint says what to write in words a designer reads ("write an integer after `!!int`", not
    "write a int"), and what it says, written, reads clean."""
    _, diagnostics = read_yaml_text(f"a: !!{tag} {wrong}\n", "x.yaml")
    assert [d.code for d in diagnostics] == ["S001"]
    assert diagnostics[0].hint is not None and diagnostics[0].hint.startswith(f"write {said} after `!!{tag}`")
    assert codes_of(f"a: !!{tag} {right}\n") == []


def billion_laughs(levels: int = 9) -> str:
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels + 1):
        refs = ",".join([f"*l{level - 1}"] * 9)
        lines.append(f"l{level}: &l{level} [{refs}]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_small() -> None:
    """Refused before it expands: the peak memory is a few MiB, not the 387 million strings' worth
    (memory, not time, so the verdict does not depend on the machine's load)."""
    tracemalloc.start()
    _, diagnostics = read_yaml_text(billion_laughs(), "bomb.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [d.code for d in diagnostics] == ["L005"]
    assert peak < 5 * 1024 * 1024


def test_modest_aliases_are_allowed() -> None:
    document, diagnostics = read_yaml_text(billion_laughs(2), "ok.yaml")
    assert diagnostics == []
    assert document is not None
    assert len(document.data["l2"]) == 9


def test_aliases_repeating_more_text_than_a_file_may_hold_are_refused() -> None:
    """An alias is one node whatever its anchor holds: a scalar of a million characters named nine
    times is nine million characters for every later stage from 1 MB of file. The text aliases
    repeat is bounded by the file size bound (8 MiB), counted inside collections too; an
    anchor named again is weighed again."""
    scalar = 'a: &r "' + "x" * 1_000_000 + '"\n'
    assert codes_of(scalar + "b: [" + ", ".join(["*r"] * 8) + "]\n") == []
    assert codes_of(scalar + "b: [" + ", ".join(["*r"] * 9) + "]\n") == [("L005", 2, 37)]
    nested = 'a: &r {k: ["' + "x" * 500_000 + '", "' + "y" * 500_000 + '"]}\n'
    assert [c for c, _, _ in codes_of(nested + "b: [" + ", ".join(["*r"] * 9) + "]\n")] == ["L005"]
    again = 'a: &r "' + "x" * 1_000_000 + '"\nb: [*r]\nc: &r "short"\nd: [' + ", ".join(["*r"] * 100) + "]\n"
    assert codes_of(again) == []


def test_nesting_beyond_the_bound_is_refused() -> None:
    assert [c for c, _, _ in codes_of("[" * 10_000 + "]" * 10_000)] == ["L006"]
    assert codes_of("[" * 150 + "]" * 150) == [("L006", 1, 101)]
    block = "".join("  " * i + "- \n" for i in range(5_000))
    assert [c for c, _, _ in codes_of(block)] == ["L006"]
    assert codes_of("a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 50)) + "  " * 50 + "x: 1\n") == []


#: Nesting `levels` deep below the root mapping's key `x` (the root is level 1): `[[[...]]]`,
#: `{a: {a: ...}}`, or block mappings, one a line.
def _nested(shape: str, levels: int) -> str:
    if shape == "flow sequence":
        return "x: " + "[" * levels + "]" * levels + "\n"
    if shape == "flow mapping":
        return "x: " + "{a: " * levels + "1" + "}" * levels + "\n"
    return "x:\n" + "".join("  " * i + "a:\n" for i in range(1, levels)) + "  " * levels + "b: 1\n"


#: Where level 101 opens in ``_nested(shape, n)`` (n > 100), the root mapping being level 1.
_LEVEL_101 = {
    "flow sequence": (1, 3 + 100),  # the 100th `[`
    "flow mapping": (1, 4 + 4 * 99),  # the 100th `{`
    "block": (101, 2 * 100 + 1),  # the mapping 200 columns in (its key `b`)
}


@pytest.mark.parametrize("shape", ["flow sequence", "flow mapping", "block"])
@pytest.mark.parametrize("levels", [101, 5_000])
def test_nesting_past_the_bound_is_located_where_the_bound_is_crossed(shape: str, levels: int) -> None:
    """`x: [[[[...` 5,000 deep: libyaml's own guard (1,000 levels, while its scanner reads ahead)
    stopped the reading before the reader's bound was reached, and L006 was located at libyaml's
    mark, the 1,000th bracket (column 1003). It is located where the level past the bound opens,
    as it is when the reader's bound is reached first (101 levels), whatever comes before it."""
    for before in ("", "".join(f"k{i}: [a, {{b: 'c'}}, \"d\"]  # note\n" for i in range(2_000))):
        line, column = _LEVEL_101[shape]
        line += before.count("\n")
        assert codes_of(before + _nested(shape, levels)) == [("L006", line, column)]


@pytest.mark.parametrize("shape", ["flow sequence", "flow mapping", "block"])
def test_nesting_at_the_bound_is_read(shape: str) -> None:
    document, diagnostics = read_yaml_text(_nested(shape, 99), "f.yaml")  # 100 levels with the root
    assert diagnostics == [] and document is not None
    document, diagnostics = read_yaml_text("[" * 100 + "]" * 100, "f.yaml")  # the root is a list
    assert diagnostics == [] and document is not None


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("[[[[" + "[" * 999, (1, 101)),  # the root is a list: the 101st bracket
        ("x: " + "{" * 999, (1, 103)),  # mappings as keys: the 100th brace
        ("x: [" + "[ " * 5 + "[" * 999, (1, 108)),  # blanks between brackets count nothing
        ("x: [a: " + "[" * 999, (1, 105)),  # `a: ...` in a list is a mapping of one entry
        ('x: ["k": ' + "[" * 999, (1, 107)),  # a quoted key needs no blank after its `:`
        ("x: [{a: [x]}: " + "[" * 999, (1, 112)),  # a mapping as a key (L003) is inside that mapping too
        ("x: [? " + "[" * 999, (1, 104)),  # an explicit key
        ("x: [&a [!!seq " + "[" * 999, (1, 112)),  # located at the node's anchor or tag
        ("x: [[[]], [a, b], " + "[" * 999, (1, 117)),  # closed lists open nothing
        ("x: [#c\n" + "[" * 999, (2, 99)),  # a comment, a line break
        ("x: [\r\n\r#c\r\n" + "[" * 999, (4, 99)),  # CR LF and CR end lines too
        ("- - - " + "[" * 999, (1, 104)),  # block lists on one line, then brackets
        ("a: &a [[[[1]]]]\nx: [" + "[" * 95 + "*a, " + "[" * 999, (2, 100, "a")),  # through an alias
    ],
)
def test_libyaml_stopping_first_is_located_where_the_bound_is_crossed(
    text: str, at: tuple[int, int] | tuple[int, int, str]
) -> None:
    """Each shape libyaml stops on at its 1,000th level, with what its scanner read ahead of the
    reader in between: the level past the bound is counted as the reader counts the events."""
    _, diagnostics = read_yaml_text(text + "]" * 1200 + "\n", "f.yaml")
    found = diagnostics[-1]
    assert found.span is not None
    assert (found.code, found.span.line, found.span.column) == ("L006", at[0], at[1])
    assert ("through the alias `*a`" in found.message) is (len(at) == 3)


@pytest.mark.parametrize(
    ("text", "limits", "at", "message"),
    [
        ("x: " + "[" * 1200, Limits(max_nodes=50), (1, 52), "more than 50 nodes"),  # the 51st node
        ("x: [a, [b, [" + "[" * 1000, Limits(max_nodes=6), (1, 12), "more than 6 nodes"),  # scalars count
        ("a: &a [b, c, d]\nx: [[*a, [" + "[" * 1000, Limits(max_nodes=12), (2, 6), "more than 12 nodes"),
        ('a: &a "' + "y" * 1000 + '"\nx: [' + "*a, " * 6 + "[" * 990, Limits(max_bytes=5000), (2, 25), "5,000 char"),
    ],
)
def test_other_bounds_crossed_before_libyaml_stops_are_reported_where_they_are_crossed(
    text: str, limits: Limits, at: tuple[int, int], message: str
) -> None:
    """With `--max-nodes 50`, `x: [[[[...` 1,200 deep was refused as nesting too deep at libyaml's
    1,000th bracket (libyaml stopped first, reading ahead), though the 51st node, 49 brackets in,
    crosses the node bound first; and likewise scalars and aliases in what libyaml read ahead, and
    the bound on text repeated by aliases. Each is reported where the reader reports it."""
    _, diagnostics = read_yaml_text(text + "]" * 2000 + "\n", "f.yaml", limits)
    (found,) = diagnostics
    assert found.span is not None
    assert (found.code, found.span.line, found.span.column) == ("L005", *at) and message in found.message


def test_file_larger_than_the_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * 2000 + b"\n")
    _, diagnostics = read_yaml_file(path, "big.yaml", Limits(max_bytes=1000))
    assert [d.code for d in diagnostics] == ["L007"]
    document, diagnostics = read_yaml_file(path, "big.yaml", Limits(max_bytes=4000))
    assert diagnostics == [] and document is not None


def test_invalid_utf8_is_located() -> None:
    _, diagnostics = read_yaml_bytes(b"a: 1\nname: caf\xe9\n", "f.yaml")
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span] == [("L008", 2, 10)]


def test_utf16_is_refused_and_utf8_bom_accepted() -> None:
    _, diagnostics = read_yaml_bytes("a: 1\n".encode("utf-16"), "f.yaml")
    assert [d.code for d in diagnostics] == ["L008"]
    document, diagnostics = read_yaml_bytes(b"\xef\xbb\xbfa: 1\n", "f.yaml")
    assert diagnostics == [] and document is not None and document.data == {"a": 1}


def test_nul_and_control_characters_are_located() -> None:
    assert codes_of("a: 1\nb: x\x00y\n") == [("L008", 2, 5)]
    assert codes_of("a: \x07\n") == [("L008", 1, 4)]
    assert codes_of("a: é tab\there\n") == []


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "---\n...\n"])
def test_empty_files_are_reported(text: str) -> None:
    _, diagnostics = read_yaml_text(text, "f.yaml")
    codes = [d.code for d in diagnostics]
    assert codes in (["L009"], []), codes
    if text.startswith("---"):
        assert codes == []  # an explicit empty document is a document (null)
    else:
        assert codes == ["L009"]


def test_several_documents_are_refused() -> None:
    assert codes_of("a: 1\n---\nb: 2\n") == [("L010", 2, 1)]


@pytest.mark.parametrize("value", ["1e999", "-1e999", ".inf", "-.Inf", ".nan", "9" * 10_000])
def test_unreadable_numbers_are_reported(value: str) -> None:
    assert [c for c, _, _ in codes_of(f"n: {value}\n")] == ["L011"]


def test_missing_file_is_reported(tmp_path: Path) -> None:
    _, diagnostics = read_yaml_file(tmp_path / "absent.yaml", "absent.yaml")
    assert [d.code for d in diagnostics] == ["L012"]


def test_alias_to_an_undefined_or_enclosing_anchor_is_reported() -> None:
    assert codes_of("a: *nowhere\n") == [("L013", 1, 4)]
    assert codes_of("a: &self [1, *self]\n") == [("L013", 1, 14)]


@pytest.mark.parametrize(
    ("raw", "line", "quoted"),
    [
        (b"kind: map\rid: x\rname: a\x0cb\r", 3, "name: a"),  # old Mac line ends: CR alone ends a line
        (b"kind: map\r\nid: x\r\nname: a\x0cb\r\n", 3, "name: a"),
        (b"kind: map\nname: a\x0cb\nid: x\n", 2, "name: a"),  # a form feed does not end a line
        (b"\xef\xbb\xbfname: a\x0cb\n", 1, "name: a"),  # columns count from after a byte order mark
    ],
)
def test_a_diagnostic_and_its_quoted_line_agree_whatever_ends_the_lines(
    tmp_path: Path, raw: bytes, line: int, quoted: str
) -> None:
    from civrules.diagnostics.render import SourceLines, render_text

    (tmp_path / "f.yaml").write_bytes(raw)
    _, diagnostics = read_yaml_bytes(raw, "f.yaml")
    (diagnostic,) = diagnostics
    assert diagnostic.span is not None
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == ("L008", line, 8)
    text = render_text(diagnostics, SourceLines(tmp_path))
    shown = [row for row in text.splitlines() if row.lstrip().startswith(f"{line} |")]
    assert shown and shown[0].split("| ", 1)[1].startswith(quoted), text
    caret = text.splitlines()[text.splitlines().index(shown[0]) + 1]
    assert caret.index("^") - caret.index("|") - 2 == 7, text  # under column 8


def test_the_examples_of_what_a_line_is_hold() -> None:
    import doctest

    from civrules.load import lines

    assert doctest.testmod(lines).failed == 0


def test_the_refused_characters_are_the_complement_of_yaml_printable_ones_and_the_misleading_ones() -> None:
    """The refused set is written as the forbidden characters (cheaper to compile at start-up than
    the complement of the printable ones): the same characters, checked over every code point."""
    from civrules.load import reader

    as_complement = re.compile(
        "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
        "|[\x85\u2028\u2029\u202a-\u202e\u2066-\u2069]"
    )
    every = "".join(map(chr, range(0x110000)))
    refused = reader._NON_PRINTABLE.findall(every)
    assert refused == as_complement.findall(every)
    assert "\t" not in refused and "\x85" in refused and "\u202e" in refused and "\ud800" in refused


#: Every kind of problem the reader reports, one text each: syntax errors libyaml words in many
#: ways, and the reader's own refusals.
READER_ERRORS = {
    "unclosed double quote": 'kind: ruleset\nname: "House Ac\nid: x\n',
    "unclosed single quote": "kind: ruleset\nname: 'House Ac\nid: x\n",
    "tab indentation": "kind: ruleset\n\tname: x\n",
    "tab indenting a nested key": "kind: ruleset\noverlay:\n\tcalamities:\n\t\tremove: []\n",
    "tab after spaces": "overlay:\n  calamities:\n  \tremove: []\n",
    "tab after a list dash": "- a\n-\tb\n",
    "tab in a block scalar": "a: |\n  x\n\ty\n",
    "colon in a value": "kind: ruleset\nname: a: b\n",
    "key indented too deep": "kind: ruleset\nname: x\n  id: y\n",
    "unclosed flow list": "kind: ruleset\nlist: [a, b\nid: x\n",
    "unclosed flow mapping": "kind: ruleset\nmap: {a: 1\n",
    "list item dedented": "a:\n  - x\n - y\n",
    "list item in a mapping": "kind: ruleset\n- a\n",
    "text after a quoted value": 'a: "x" y\n',
    "backtick": "kind: `ruleset`\n",
    "at sign": "kind: @ruleset\n",
    "unknown escape": 'kind: "a\\qb"\n',
    "anchor without a name": "kind: &\n",
    "text after the document end": "kind: ruleset\n...\nfoo\n",
    "repeated directive": "%YAML 1.1\n%YAML 1.1\n---\na: 1\n",
    "key without a colon": "kind: ruleset\nname\nid: x\n",
    "block scalar header": "a: |x\n  b\n",
    "unclosed tag": "a: !<foo\n",
    "list on its key's line": "a: - c\n",
    "key after a list": "  - a\n  b: 1\n",
    "missing flow value": "a: [1, , 2]\n",
    "undefined alias": "kind: *nothing\n",
    "duplicate key": "a: 1\na: 2\n",
    "two documents": "kind: a\n---\nkind: b\n",
    "empty file": "",
    "collection as a key": "{[1]: 2}\n",
    "number as a key": "1: a\n",
    "forbidden tag": "a: !!python/object:os.system 1\n",
    "bad explicit int": "a: !!int abc\n",
    "not finite": "a: .nan\n",
    "control character": "a: \x01\n",
    "billion laughs": billion_laughs(),
}


@pytest.mark.parametrize("text", READER_ERRORS.values(), ids=list(READER_ERRORS))
def test_every_reader_error_has_a_hint(text: str) -> None:
    _, found = read_yaml_text(text, "f.yaml")
    assert found, "no diagnostic"
    for diagnostic in found:
        assert diagnostic.code and diagnostic.span is not None and diagnostic.span.line >= 1
        assert diagnostic.hint and diagnostic.hint.strip(), diagnostic


#: A part of the hint each syntax error of READER_ERRORS gets: the hint of its cause.
SYNTAX_HINT_OF = {
    "tab indentation": "replace the tab with spaces",
    "tab indenting a nested key": "replace the tab with spaces",
    "tab after spaces": "replace the tab with spaces",
    "tab after a list dash": "replace the tab with spaces",
    "tab in a block scalar": "replace the tab with spaces",
    "colon in a value": "must be quoted",
    "key indented too deep": "indent `id:` like `name:` on line 2 (column 1)",
    "unclosed flow list": "close the bracket",
    "unclosed flow mapping": "close the bracket",
    "list item dedented": "indent this `- ` like the item on line 2 (column 3)",
    "list item in a mapping": "a list item goes under a key",
    "text after a quoted value": "put `y` inside the quotes, or after a `#`",
    "backtick": "a backtick cannot begin unquoted text",
    "at sign": "`@` cannot begin unquoted text",
    "unknown escape": "a backslash begins an escape",
    "anchor without a name": "needs a name after it",
    "text after the document end": "remove what follows the `...` line",
    "repeated directive": "rule files need no directives",
    "key without a colon": "write `:` after the key",
    "block scalar header": "after `|` or `>`",
    "unclosed tag": "remove the tag",
    "list on its key's line": "cannot begin on its key's line",
    "key after a list": "begin a new item with `- ` at column 3",
    "missing flow value": "a value is missing here",
}


@pytest.mark.parametrize("name", SYNTAX_HINT_OF)
def test_each_syntax_error_gets_the_hint_of_its_cause(name: str) -> None:
    """libyaml words a tab that begins a line like a backtick (a character that "cannot start any
    token"): the character at the error, not only the wording, chooses the hint."""
    _, found = read_yaml_text(READER_ERRORS[name], "f.yaml")
    assert [d.code for d in found] == ["L001"]
    assert SYNTAX_HINT_OF[name] in (found[0].hint or ""), found[0].hint


def test_every_syntax_hint_is_given_for_some_error() -> None:
    """No entry of the hint table is shadowed by one before it, or by the character rules. (The lines
    around an error choose a more particular hint where they can: the table's is given where they
    cannot, as without them.)"""
    found = [d for text in READER_ERRORS.values() for d in read_yaml_text(text, "f.yaml")[1]]
    given = {d.hint for d in found} | {_syntax_hint(d.message) for d in found if d.code == "L001"}
    assert [part for part, hint in _SYNTAX_HINTS if hint not in given] == []


#: For each of libyaml's problems that a hint of the table answers: the most common mistake that
#: makes it, the hint it gets (in full), and the file written as the hint says, one per way it offers.
#: The hints that name a column are also followed mechanically (``_reindent``).
SYNTAX_HINT_FOLLOWED = {
    "key short inside a list item": (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        cost: 45\n"
        '       source: "house rule"\n',
        "indent `source:` like `cost:` on line 5 (column 9), to make it a key of the item above; or begin a "
        "new item with `- ` at column 7 (`- source: ...`)",
        [
            "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        cost: 45\n"
            '        source: "house rule"\n',
            "overlay:\n  civilization_cards:\n    patch:\n      - id: pottery\n        cost: 45\n"
            '      - source: "house rule"\n',
        ],
    ),
    "key at the dash of a list of scalars": (
        "groups:\n  - crafts\n  civics: 1\n",
        "begin a new item with `- ` at column 3 (`- civics: ...`)",
        ["groups:\n  - crafts\n  - civics: 1\n"],
    ),
    "key short in a mapping": (
        "overlay:\n  settings:\n    cities: 9\n   stock: 55\n",
        "indent `stock:` like `cities:` on line 3 (column 5), or like `settings:` on line 2 (column 3): the keys "
        "of a mapping begin in one column",
        [
            "overlay:\n  settings:\n    cities: 9\n    stock: 55\n",
            "overlay:\n  settings:\n    cities: 9\n  stock: 55\n",
        ],
    ),
    "list item short": (
        "prerequisites:\n  - pottery\n - cloth_making\n",
        "indent this `- ` like the item on line 2 (column 3): the items of a list begin in one column",
        ["prerequisites:\n  - pottery\n  - cloth_making\n"],
    ),
    "list item short of its key": (
        "overlay:\n  calamities:\n    remove:\n  - {id: famine}\n",
        "a list item goes under its key, indented more: indent this `- ` under `remove:` on line 3 (column 7)",
        ["overlay:\n  calamities:\n    remove:\n      - {id: famine}\n"],
    ),
    "list item with no key": (
        "kind: ruleset\n- a\n",
        "a list item goes under a key: write the key on a line of its own above this one (`name:`), then indent "
        "this `- ` under it",
        ["kind: ruleset\nname:\n  - a\n"],
    ),
    "text after a quoted value": (
        'name: "Pottery" (house rule)\n',
        "end the line after its value: put `(house rule)` inside the quotes, or after a `#` as a comment",
        ['name: "Pottery (house rule)"\n', 'name: "Pottery" # (house rule)\n'],
    ),
    "key under a key with a value": (
        "kind: ruleset\nname: House\n  id: house\n",
        "indent `id:` like `name:` on line 2 (column 1): `name` has a value of its own, so no key can be indented "
        "under it",
        ["kind: ruleset\nname: House\nid: house\n"],
    ),
    "colon in a value": (
        "kind: ruleset\nname: Civilization: House rules\n",
        'a value containing `: ` must be quoted: write `name: "Civilization: House rules"`',
        ['kind: ruleset\nname: "Civilization: House rules"\n'],
    ),
    "key without a colon": (
        "kind: ruleset\nname\nid: x\n",
        "write `:` after the key on line 2 (`name: value`), or quote a value that runs over lines",
        ["kind: ruleset\nname: value\nid: x\n"],
    ),
    # (A whole conflict is said as one, :func:`test_a_file_with_merge_conflict_markers_is_one_error`;
    # one whose closing marker was deleted is a syntax error at the first.)
    "unresolved merge conflict": (
        "kind: ruleset\n<<<<<<< HEAD\nname: A\n=======\nname: B\n",
        "line 2 is a merge-conflict marker (`<<<<<<<`): the file holds an unresolved merge conflict; keep the lines "
        "you want between the markers, delete the `<<<<<<<`, `=======` and `>>>>>>>` lines, then `git add` the file",
        ["kind: ruleset\nname: A\n", "kind: ruleset\nname: B\n"],
    ),
    "unclosed flow list": (
        "prerequisites: [pottery, cloth_making\nid: x\n",
        "close the bracket, or separate the items with commas",
        ["prerequisites: [pottery, cloth_making]\nid: x\n"],
    ),
    "unclosed flow mapping": (
        "- {id: pottery, cost: 45\n- {id: x}\n",
        "close the bracket, or separate the items with commas",
        ["- {id: pottery, cost: 45}\n- {id: x}\n"],
    ),
    "unknown escape": (
        'source: "C:\\rules\\qa"\n',
        "in double quotes a backslash begins an escape (`\\n`, `\\t`): write `\\\\` for a backslash, or use single "
        "quotes",
        ['source: "C:\\\\rules\\\\qa"\n', "source: 'C:\\rules\\qa'\n"],
    ),
    "anchor without a name": (
        "name: & co\n",
        "an anchor (`&`) or an alias (`*`) needs a name after it; quote the value if the sign is text",
        ['name: "& co"\n'],
    ),
    "block scalar header": (
        "text: |Pottery\n  more\n",
        "after `|` or `>` only `+`, `-`, an indentation digit or a comment may follow: put the text on the lines "
        "below, indented",
        ["text: |\n  Pottery\n  more\n"],
    ),
    "text after the document end": (
        "kind: ruleset\n...\nid: x\n",
        "remove what follows the `...` line (the end of the document), or that line",
        ["kind: ruleset\n...\n", "kind: ruleset\nid: x\n"],
    ),
    "repeated directive": (
        "%YAML 1.1\n%YAML 1.1\n---\na: 1\n",
        "remove the `%` line: rule files need no directives",
        ["%YAML 1.1\n---\na: 1\n", "---\na: 1\n"],
    ),
    "unclosed tag": (
        "a: !<foo\n",
        "remove the tag; only plain strings, numbers, booleans, null, lists and mappings are read",
        ["a:\n"],
    ),
    "list on its key's line": (
        "prerequisites: - pottery\n",
        "a `- ` list item cannot begin on its key's line: put the list on lines of its own under the key",
        ["prerequisites:\n  - pottery\n"],
    ),
    "missing flow value": (
        "groups: [crafts, , civics]\n",
        "a value is missing here: write it, or remove the comma or the `- `",
        ["groups: [crafts, civics]\n"],
    ),
    "tab indentation": (
        "overlay:\n\tcalamities:\n\t\tremove: []\n",
        "replace the tab with spaces: YAML does not allow tabs for indentation",
        ["overlay:\n  calamities:\n    remove: []\n"],
    ),
    "tab in a block scalar": (
        "text: |\n  Pottery\n\tmore\n",
        "replace the tab with spaces: YAML does not allow tabs for indentation",
        ["text: |\n  Pottery\n  more\n"],
    ),
}


def _reindent(text: str, line: int, column: int) -> str:
    """``text`` with its ``line`` (1-based) moved to begin at ``column`` (1-based)."""
    lines = text.split("\n")
    lines[line - 1] = " " * (column - 1) + lines[line - 1].lstrip(" ")
    return "\n".join(lines)


@pytest.mark.parametrize("name", SYNTAX_HINT_FOLLOWED)
def test_a_syntax_hint_followed_literally_makes_the_file_read(name: str) -> None:
    """Each hint of a syntax error, followed as written, mends the most common mistake that makes it:
    a key indented one column short inside a list item is indented like the item's keys (column and
    key named), not "like the list's key", which left it in the wrong mapping (round 19)."""
    broken, hint, followed = SYNTAX_HINT_FOLLOWED[name]
    _, found = read_yaml_text(broken, "f.yaml")
    assert [(d.code, d.hint) for d in found] == [("L001", hint)]
    span = found[0].span
    assert span is not None
    mended = [*followed, *(_reindent(broken, span.line, int(c)) for c in re.findall(r"\(column (\d+)\)", hint))]
    for text in mended:
        document, diagnostics = read_yaml_text(text, "f.yaml")
        assert diagnostics == [] and document is not None, (text, diagnostics)


def test_every_problem_of_the_hint_table_has_a_mistake_followed() -> None:
    """No entry of ``_SYNTAX_HINTS`` goes without a mistake whose hint is followed above (the tab's is
    chosen by the character, and a token that cannot start one by its character too)."""
    given = {hint for _, hint, _ in SYNTAX_HINT_FOLLOWED.values()}
    problems = {
        part
        for text, _, _ in SYNTAX_HINT_FOLLOWED.values()
        for part, _ in _SYNTAX_HINTS
        if any(part in d.message for d in read_yaml_text(text, "f.yaml")[1])
    }
    assert [part for part, _ in _SYNTAX_HINTS if part not in problems] == []
    assert given


def test_reading_refusals_have_hints(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("a: 1\n" * 100, encoding="utf-8")
    (tmp_path / "folder.yaml").mkdir()
    refused = [
        read_yaml_file(tmp_path / "missing.yaml", "missing.yaml")[1],
        read_yaml_file(tmp_path / "folder.yaml", "folder.yaml")[1],
        read_yaml_file(tmp_path / "big.yaml", "big.yaml", Limits(max_bytes=10))[1],
        read_yaml_bytes(b"a: 1\n" * 100, "big.yaml", Limits(max_bytes=10))[1],
        read_yaml_bytes("a: é".encode("utf-16"), "wide.yaml")[1],
        read_yaml_bytes(b"a: \xff\n", "latin.yaml")[1],
    ]
    for found in refused:
        assert found and all(d.hint for d in found), found


def test_an_unclosed_quote_is_located_at_its_opening_quote_with_the_end_of_file_as_a_note() -> None:
    _, found = read_yaml_text('kind: ruleset\nid: house\nname: "House Ac\nextends: advanced-civilization\n', "f.yaml")
    assert [(d.code, d.span and (d.span.line, d.span.column)) for d in found] == [("L001", (3, 7))]
    assert found[0].hint is not None and "close the quote" in found[0].hint and '`"`' in found[0].hint
    assert [(r.span.line, r.span.column) for r in found[0].related] == [(5, 1)]


def _reader_work(text: str) -> int:
    """The lines of the reader's own code (``load/reader.py``) that reading ``text`` runs, and the C
    functions it calls from there: counted, never timed (libyaml's and PyYAML's work is left out,
    which a PyYAML release may change)."""
    from civrules.load import reader
    from tests.security.test_check_growth import calls_made

    return calls_made(lambda: read_yaml_text(text, "cards.yaml", Limits()), within=reader.__file__)


def test_the_reader_opens_closes_and_keys_plain_collections_in_its_event_loop() -> None:
    """A plain mapping or sequence inside another (no tag, no anchor, not a key) is opened and
    closed, and a new key taken, in the event loop, as plain scalars are: a method call for each
    (``on_start``, ``on_end`` and ``place``, ``accept_key``) was about 80 counted steps of the
    reader a node of a card file; now about 67. Same reading: every position and value below."""
    card = (
        "  - id: card_{0}\n    name: Card {0}\n    cost: 1{0}\n    groups: [crafts, arts]\n    credits:\n"
        "      - {{group: arts, points: 10}}\n      - {{card: mysticism, points: 5}}\n    attributes:\n"
        '      - text: "Some text."\n        effects: [{{kind: movement, units: ships, range: 5}}]\n'
    )
    text = "cards:\n" + "".join(card.format(number) for number in range(50))
    document, diagnostics = read_yaml_text(text, "cards.yaml", Limits())
    assert diagnostics == [] and document is not None
    effects = document.data["cards"][49]["attributes"][0]["effects"]
    assert effects == [{"kind": "movement", "units": "ships", "range": 5}]
    assert document.span(("cards",)) == Span("cards.yaml", 2, 3, 502, 1)
    assert document.span(("cards", 49)) == Span("cards.yaml", 492, 5, 502, 1)
    assert document.span(("cards", 49, "credits", 1)) == Span("cards.yaml", 498, 9, 498, 37)
    assert document.key_span(("cards", 49, "attributes")) == Span("cards.yaml", 499, 5, 499, 15)
    assert document.span(("cards", 49, "attributes", 0, "effects")) == Span("cards.yaml", 501, 18, 501, 60)
    assert _reader_work(text) <= 72 * len(document.value_spans)


def test_a_manifest_says_why_a_file_it_names_was_not_read_from_the_reason_not_the_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A manifest naming a file that could not be read says why with the reader's reason, carried
    as data (`Unreadable.reason`), not cut from the end of the reader's message after its last
    `: `: a cause holding a `: ` was said in part."""
    import errno

    from civrules.diagnostics import Unreadable
    from civrules.support import files
    from tests.rulefiles import CachedWorkspace

    real = files.read_under

    def refusing(root: Path, inside: str, limit: int) -> bytes:
        if inside.endswith("lost.yaml"):
            raise OSError(errno.EIO, "refused")
        return real(root, inside, limit)

    monkeypatch.setattr(files, "read_under", refusing)
    monkeypatch.setattr(files, "cause", lambda error: "the disk said: come back later")
    manifest = "rulesets/imperial-settlers-peaceful.yaml"
    text = (Path(__file__).parents[2] / "rules" / manifest).read_text(encoding="utf-8")
    workspace = CachedWorkspace({manifest: text + "files:\n  cards: [cards/lost.yaml]\n"})
    loaded = workspace.load_ruleset(workspace.manifests()["imperial-settlers-peaceful"])
    said = [d for d in loaded.diagnostics if d.code == "L012"]
    assert [d.message for d in said] == ["`cards/lost.yaml` cannot be read: the disk said: come back later"]
    (read,) = [d for d in workspace.load("cards/lost.yaml").diagnostics if d.code == "L012"]
    assert isinstance(read, Unreadable) and read.reason == "the disk said: come back later"
    assert said[0].subjects == ("cards/lost.yaml",)


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("a: 1\na: 2\n", ("a",)),
        ("a: *nowhere\n", ("nowhere",)),
        ("? [1, 2]\n: x\n", ("x.yaml",)),
        ("a: !!python/name:os.system x\n", ("!!python/name:os.system",)),
        ("a: 1\n---\nb: 2\n", ("x.yaml",)),
    ],
    ids=["duplicate-key", "undefined-alias", "collection-key", "unsafe-tag", "two-documents"],
)
def test_the_readers_diagnostics_say_what_they_are_about(text: str, subjects: tuple[str, ...]) -> None:
    """A reading's diagnostics name their subjects as data (the key, anchor or tag their message
    names; the file, for a problem of the whole file), as every check's do."""
    _, diagnostics = read_yaml_text(text, "x.yaml")
    assert diagnostics
    assert diagnostics[0].subjects == subjects
    assert all(s in d.message or s == "x.yaml" for d in diagnostics for s in d.subjects)


class _CountedPattern:
    """A compiled pattern that counts the characters it is matched against."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.characters = 0

    def search(self, text: str) -> re.Match[str] | None:
        self.characters += len(text)
        return self.pattern.search(text)


def test_a_file_is_looked_through_for_refused_characters_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file is looked through for the characters the reader refuses before it is parsed:
    the expression matched the whole text character by character (about 1 ms of each
    `validate` of the largest shipped ruleset, and again in every manifest's header). Only the
    characters other than ASCII text are matched now (the rest is deleted in C), and the whole
    text only where one of them is refused: where, and what is said, are as before."""
    from civrules.load import reader

    counted = _CountedPattern(reader._NON_PRINTABLE)
    monkeypatch.setattr(reader, "_NON_PRINTABLE", counted)
    text = Path(__file__).resolve().parents[2].joinpath("rules", "rulesets", "mega-civilization.yaml").read_text()
    others = sum(
        1 for character in text if not (character.isascii() and (character.isprintable() or character in "\t\n"))
    )
    assert read_yaml_text(text, "m.yaml")[1] == []
    assert counted.characters <= others < len(text) // 100
    # A refused character, ASCII or not, is found where it is, as the whole text's match finds it.
    for refused in ("\x07", "\x7f", "\x85", "\u202e", "\u2066", "\ufffe", "\ud800"):
        line = f"name: caf\u00e9 \u2014 x{refused}y\n"
        bad = f"kind: cards\n{line}"
        diagnostics = read_yaml_text(bad, "b.yaml")[1]
        assert [(d.code, d.span.line, d.span.column, d.message) for d in diagnostics if d.span is not None] == [
            ("L008", 2, line.index(refused) + 1, f"control character U+{ord(refused):04X} is not allowed in YAML")
        ]
    assert reader.forbidden_character("caf\u00e9 \u2014 \t\r\n ok") is None


CONFLICTED = "kind: ruleset\nid: x\n<<<<<<< HEAD\nname: A\n||||||| base\nname: O\n=======\nname: B\n>>>>>>> other\n"


@pytest.mark.parametrize(
    "text",
    [
        CONFLICTED,
        CONFLICTED.replace("\n", "\r\n"),
        # In a quoted string the markers parse: the file was read, the conflict in its description.
        'kind: ruleset\ndescription: "a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> other\n"\n',
    ],
)
def test_a_file_with_merge_conflict_markers_is_one_error(text: str) -> None:
    """A file git left conflict markers in gave an L001 at the line after the first marker, R022
    (`--staged`) and errors of what the file no longer defined; or, where the markers parse (in a
    block scalar), nothing. Now one L001 at the first marker, naming them all, and nothing read."""
    document, found = read_yaml_text(text, "rules/x.yaml")
    marker = text.replace("\r", "").split("\n").index("<<<<<<< HEAD") + 1
    assert document is None and [(d.code, d.span) for d in found] == [
        ("L001", Span("rules/x.yaml", marker, 1, marker, 8))
    ], found
    assert found[0].message.startswith("this file has unresolved merge conflict markers (lines ")
    assert found[0].hint is not None and found[0].hint.endswith("mark it resolved: `git add rules/x.yaml`")


def test_conflict_marker_lines_not_making_a_conflict_are_read() -> None:
    """Only a whole conflict, its markers in their order at the start of lines, is one."""
    text = "kind: ruleset\ndescription: |\n  <<<<<<< a\n  =======\n  >>>>>>> b\nnote: |\n  x\n=======\n"
    assert reader.conflict_markers(text) == []
    assert reader.conflict_markers("a: 1\n=======\n<<<<<<< x\n>>>>>>> y\n") == []
    assert reader.conflict_markers(CONFLICTED * 2) == [3, 5, 7, 9, 12, 14, 16, 18]
