"""Splicing an edit into a reading (civrules.load.splice): the document a full read gives, or none."""

from __future__ import annotations

import os
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.load import Document, Limits, read_yaml_text
from civrules.load.splice import Spliced, splice_document
from tests.budget import heavy
from tests.conftest import RULES

#: Files of every shape the splice meets: indentless lists (`- id:` at the start of the line), a
#: rule index, cards with nested lists, a manifest (a mapping of mappings: nothing to splice).
FILES = (
    "maps/mediterranean.yaml",
    "cards/expansion-project.yaml",
    "calamities/advanced-civilization.yaml",
    "rulebooks/advanced-civilization.yaml",
    "rulesets/advanced-civilization-western.yaml",
)
LIMITS = Limits()
#: The random edits of each of the two sweeps of `make test-slow`: 150 (400 and 600 in round 29),
#: new ones each run, so that CI's runs together cover far more than one; `make fuzz`
#: (``CIVRULES_FUZZ_EXAMPLES``, Makefile) runs as many as it sets, 2,000 by default.
SWEEP = int(os.environ.get("CIVRULES_FUZZ_EXAMPLES", "0") or 0) or 150


@cache
def shipped(relative: str) -> tuple[str, Document]:
    text = (RULES / relative).read_text(encoding="utf-8")
    document, problems = read_yaml_text(text, relative, LIMITS)
    assert document is not None and not problems
    return text, document


def assert_read_alike(spliced: Document, text: str) -> None:
    """``spliced`` is what reading ``text`` whole gives: data, positions and their order."""
    whole, problems = read_yaml_text(text, spliced.file, LIMITS)
    assert whole is not None and not problems, "a splice is made only of a text that reads cleanly"
    assert spliced.data == whole.data
    assert list(spliced.value_spans.items()) == list(whole.value_spans.items())
    assert list(spliced.key_spans.items()) == list(whole.key_spans.items())
    assert (spliced.refused, spliced.aliases, spliced.anchors) == (whole.refused, whole.aliases, whole.anchors)
    assert spliced.whole_floats == whole.whole_floats
    # The table's count of what its root reaches (the node bound, the table's upkeep) is the full read's.
    assert spliced.table.reachable() == (len(whole.value_spans), len(whole.key_spans))


def edit(text: str, kind: str, at: int, to: int, size: int) -> str:
    lines = text.split("\n")[:-1]
    at, to = at % len(lines), to % (len(lines) + 1)
    if kind == "change_value":
        lines[at] = lines[at] + " x" if ": " in lines[at] else lines[at] + "2"
    elif kind == "drop_lines":
        del lines[at : at + size]
    elif kind == "duplicate_lines":  # an item written twice: duplicate ids
        lines[at:at] = lines[at : at + size]
    elif kind == "move_lines":  # cut and paste: items moved, or a structure broken
        block = lines[at : at + size]
        del lines[at : at + size]
        lines[to:to] = block
    elif kind == "comment":
        lines.insert(at, "# a comment")
    elif kind == "break_yaml":
        lines.insert(at, "  broken: [")
    elif kind == "indent":
        lines[at] = "  " + lines[at]
    elif kind == "dedent":
        lines[at] = lines[at][2:]
    return "\n".join(lines) + "\n"


EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            ["change_value", "drop_lines", "duplicate_lines", "move_lines", "comment", "break_yaml", "indent", "dedent"]
        ),
        st.integers(min_value=0, max_value=10**6),
        st.integers(min_value=0, max_value=10**6),
        st.integers(min_value=1, max_value=12),
    ),
    min_size=1,
    max_size=5,
)


#: A file dense in anchors and aliases: scalars anchored in list items and aliased in items before
#: and after other edits, an alias in an item below an anchored one, a collection anchored (whose
#: aliases count as its nodes: the file is then read whole), an anchor no alias names.
ANCHORED = """kind: map
id: m
areas:
- id: a
  note: &n1 "the first note"
  names: [x, y]
- id: b
  note: *n1
  size: 2
- id: c
  note: &n2 second
  other: &n3 third
- id: d
  note: *n2
  more: *n1
  size: 4
- id: e
  size: 5
- id: f
  note: *n3
borders:
- {a: a, b: b, note: *n2}
- {a: b, b: c}
- {a: c, b: d, note: &n4 last}
- {a: d, b: e}
"""
ANCHORED_COLLECTION = ANCHORED.replace("  names: [x, y]\n", "  names: &l [x, y]\n").replace(
    "- id: e\n", "- id: e\n  names: *l\n"
)


@cache
def read_text(name: str) -> tuple[str, Document]:
    text = {"anchored": ANCHORED, "anchored-collection": ANCHORED_COLLECTION}[name]
    document, problems = read_yaml_text(text, "m.yaml", LIMITS)
    assert document is not None and not problems
    return text, document


def run_edits(relative: str, edits: list[tuple[str, int, int, int]]) -> int:
    """Apply ``edits`` one after the other, splicing each into the last clean reading (as a session
    does) and holding every splice to a full read; how many were spliced."""
    text, document = read_text(relative) if relative.startswith("anchored") else shipped(relative)
    spliced_count = 0
    for kind, at, to, size in edits:
        new = edit(text, kind, at, to, size)
        spliced = splice_document(text, document, new, LIMITS)
        whole, problems = read_yaml_text(new, relative, LIMITS)
        if spliced is not None:
            assert_read_alike(spliced.document, new)
            spliced_count += 1
        if whole is None or problems:
            continue  # the next edit is spliced into the last reading without a diagnostic
        text, document = new, spliced.document if spliced is not None else whole
    return spliced_count


@heavy
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(FILES), edits=EDITS)
def test_a_spliced_edit_reads_as_the_whole_file(relative: str, edits: list[tuple[str, int, int, int]]) -> None:
    run_edits(relative, edits)


@pytest.mark.slow
@settings(max_examples=SWEEP, deadline=None, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(FILES), edits=EDITS)
def test_a_spliced_edit_reads_as_the_whole_file_exhaustively(
    relative: str, edits: list[tuple[str, int, int, int]]
) -> None:
    run_edits(relative, edits)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(["anchored", "anchored-collection"]), edits=EDITS)
def test_a_spliced_edit_of_a_file_with_anchors_reads_as_the_whole_file(
    relative: str, edits: list[tuple[str, int, int, int]]
) -> None:
    run_edits(relative, edits)


@pytest.mark.slow
@settings(max_examples=SWEEP, deadline=None, suppress_health_check=list(HealthCheck))
@given(relative=st.sampled_from(["anchored", "anchored-collection", "rulesets/mega-civilization.yaml"]), edits=EDITS)
def test_a_spliced_edit_of_a_file_with_anchors_reads_as_the_whole_file_exhaustively(
    relative: str, edits: list[tuple[str, int, int, int]]
) -> None:
    run_edits(relative, edits)


def test_edits_beside_anchors_and_aliases_are_spliced() -> None:
    """The property above holds trivially if nothing is spliced: every edit of a line inside an area
    holding no anchor that leaves the file clean (a value changed, a comment added, a line removed)
    is spliced, aliases in it or not; one in an area holding an anchor, and any in the file that
    anchors a collection, is read whole."""
    text, _ = read_text("anchored")
    lines = text.split("\n")
    areas = range(lines.index("areas:") + 1, lines.index("borders:"))
    starts = [i for i in areas if lines[i].startswith("- ")]
    ends = dict(zip(starts, [*starts[1:], areas.stop], strict=True))
    anchoring = {i for s in starts if any("&" in line for line in lines[s : ends[s]]) for i in range(s, ends[s])}
    tried = 0
    for i in (i for i in areas if i not in starts):  # an item's first line: the items may merge
        for kind in ("change_value", "comment", "drop_lines"):
            new = edit(text, kind, i, 0, 1)
            if read_yaml_text(new, "m.yaml", LIMITS)[1]:
                continue  # an alias given a word after it: a syntax error
            tried += 1
            assert run_edits("anchored", [(kind, i, 0, 1)]) == (0 if i in anchoring else 1), (kind, lines[i])
            assert run_edits("anchored-collection", [(kind, i, 0, 1)]) == 0
    assert tried > 20


def test_an_edit_of_mega_civilizations_player_counts_is_spliced() -> None:
    """Its manifest anchors two notes in its first configuration and aliases them in every other:
    a name edited in another configuration reads one count again, not the 1,668 lines."""
    text, document = shipped("rulesets/mega-civilization.yaml")
    assert document.aliases
    new = text.replace('name: "East"', 'name: "Eost"', 2)
    new = new.replace('name: "Eost"', 'name: "East"', 1)  # the second configuration named East
    assert new != text
    spliced = splice_document(text, document, new, LIMITS)
    assert spliced is not None and spliced.path == ("player_counts", "counts") and spliced.count == 1
    assert_read_alike(spliced.document, new)


def edits_inside_items_are_spliced(every: int) -> None:
    """The property above holds trivially if nothing is spliced: edits of values inside the map's
    areas are (one line changed, added or removed), at every ``every``-th area's name."""
    text, _ = shipped("maps/mediterranean.yaml")
    lines = text.split("\n")
    inside = [i for i, line in enumerate(lines) if line.startswith("    name: ")][::every]
    kinds = ("change_value", "comment", "drop_lines")
    assert inside
    assert all(run_edits("maps/mediterranean.yaml", [(kind, i, 0, 1)]) == 1 for i in inside for kind in kinds)


def test_most_edits_inside_items_are_spliced() -> None:
    """Every 30th area's name in `make test` (each edit is a splice and a whole read of the map);
    every 5th in `make test-slow`."""
    edits_inside_items_are_spliced(30)


@pytest.mark.slow
def test_most_edits_inside_items_are_spliced_at_length() -> None:
    edits_inside_items_are_spliced(5)


# --- the splice, shape by shape ------------------------------------------------------------------

HEAD = "kind: map\nid: m\n"


def splice(old: str, new: str) -> Spliced | None:
    document, problems = read_yaml_text(old, "m.yaml", LIMITS)
    assert document is not None and not problems
    spliced = splice_document(old, document, new, LIMITS)
    if spliced is not None:
        assert_read_alike(spliced.document, new)
    return spliced


@pytest.mark.parametrize("indent", ["", "  "], ids=["indentless", "indented"])
@pytest.mark.parametrize(
    ("before", "after", "first", "count"),
    [
        ("- id: a\n  n: 1\n- id: b\n  n: 2\n", "- id: a\n  n: 1\n- id: b\n  n: 3\n", 1, 1),
        ("- id: a\n  n: 1\n- id: b\n  n: 2\n", "- id: a\n  n: 1\n  m: 5\n- id: b\n  n: 2\n", 0, 2),
        ("- id: a\n- id: b\n- id: c\n", "- id: a\n- id: x\n- id: y\n- id: b\n- id: c\n", 0, 4),
        ("- id: a\n- id: b\n- id: c\n", "- id: a\n- id: c\n", 1, 0),
        ("- id: a\n- id: b\n- id: c\n", "- id: b\n- id: a\n- id: c\n", 0, 2),
        ("- id: a\n  t: |\n    text\n\n- id: b\n", "- id: a\n  t: |\n    other text\n\n- id: b\n", 0, 1),
        ("- id: a\n  t: >-\n    folded\n# c\n- id: b\n", "- id: a\n  t: >-\n    folded more\n# c\n- id: b\n", 0, 1),
        ("- id: a\n- [1, 2]\n- id: c\n", "- id: a\n- [1, 2, 3]\n- id: c\n", 1, 1),
        ("- id: a\n- id: b\n", "- id: a\n- id: b\n\n# a comment\n", 1, 1),
        ("- id: a\n- id: b\n", "- id: a\n- id: b\n  n: 2\n- id: c\n", 1, 2),
        ("- id: a\n- id: b\n", "- id: new\n- id: a\n- id: b\n", 0, 2),
        # The last item removed: the one before it now ends where it ended, and is read again.
        ("- id: a\n- id: b\n- id: c\n", "- id: a\n- id: b\n", 1, 1),
    ],
    ids=[
        "value",
        "new-line",
        "new-items",
        "item-removed",
        "items-swapped",
        "block-scalar",
        "folded",
        "flow",
        "comment-after",
        "items-after",
        "item-before",
        "last-item-removed",
    ],
)
def test_an_edit_inside_a_list_is_spliced(indent: str, before: str, after: str, first: int, count: int) -> None:
    def nested(items: str) -> str:
        return "".join(indent + line if line else line for line in items.split("\n")[:-1] for line in [line + "\n"])

    tail = "borders:\n- a\n"
    spliced = splice(f"{HEAD}areas:\n{nested(before)}{tail}", f"{HEAD}areas:\n{nested(after)}{tail}")
    assert spliced is not None and (spliced.path, spliced.first, spliced.count) == (("areas",), first, count)
    at_end = splice(f"{HEAD}areas:\n{nested(before)}", f"{HEAD}areas:\n{nested(after)}")
    assert at_end is not None
    if after.startswith(before) and not after[len(before) :].strip(" \n#abcdefghijklmnopqrstuvwxyz"):
        assert at_end.path is None and at_end.ends is not None  # blank and comment lines at the end
    else:
        assert (at_end.path, at_end.first, at_end.count) == (("areas",), first, count)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\nid: b\n"),  # a line leaves the list
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n  - id: b\n"),  # an item moves into another
        ("areas:\n- id: a\n- id: b\n", "areaz:\n- id: a\n- id: b\n"),  # a top-level key
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: [b\n"),  # broken YAML
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: b\n  id: c\n"),  # a duplicate key
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: 012\n"),  # a reader's warning
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: &x a\n- id: *x\n"),  # anchors and aliases
        ("areas:\n- &x {id: a}\n- *x\n- id: b\n", "areas:\n- &x {id: a}\n- *x\n- id: c\n"),  # aliases before
        ("areas:\n- id: a\n- id: &x b\n", "areas:\n- id: a\n- id: &x c\n"),  # an anchored node
        ("areas:\n- id: &x a\n  n: 1\n- id: b\n", "areas:\n- id: &x a\n  n: 2\n- id: b\n"),  # in an anchor's item
        ("areas:\n- id: a\n- id: &x b\n- id: *x\n", "areas:\n- id: a\n  n: *x\n- id: &x b\n- id: *x\n"),  # after
        ("areas:\n- id: &x a\n- id: &x b\n- id: *x\n", "areas:\n- id: &x a\n- id: &x b\n- id: c\n"),  # twice
        ("areas:\n- id: a\n- id: &x b\n- id: *x\n", "areas:\n- id: a\n- id: a2\n- id: &x b\n- id: *x\n"),  # moved
        ("areas:\n- id: &x a\n- id: b\n", "areas:\n- id: &x a\n- id: b\n  n: &y c\n"),  # an anchor added
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: b"),  # no line break at the end
        ("areas:\n- id: a\n- id: b\n", "areas:\r\n- id: a\r\n- id: c\r\n"),  # carriage returns
        ("areas:\n- id: a\n", "areas:\n"),  # the list emptied: its key holds null
        ("areas:\n-\n  id: a\n- id: b\n", "areas:\n-\n  id: x\n- id: b\n"),  # an item below its dash
        ("areas: [a,\n  b]\n", "areas: [a,\n  c]\n"),  # a flow list
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: b\n...\n"),  # the end of the document
        ("areas:\n- id: a\n- id: b\n", "areas:\n- id: a\n- id: b\n---\nx: 1\n"),  # a second document
    ],
)
def test_an_edit_the_splice_cannot_tell_is_read_whole(before: str, after: str) -> None:
    assert splice(HEAD + before, HEAD + after) is None


@pytest.mark.parametrize(
    "before",
    [
        "areas:\n- id: a\n- id: b\n",
        "areas:\n- id: a\n  names:\n  - x\n  - y\n",
        "areas:\n  - id: a\n    n: {b: 1,\n      c: 2}\n",
        "areas:\n- [1, 2]\n# old comment\n\n",
        'areas:\n- id: a\n  t: "two\n    lines"\n',
        "areas:\n- id: a\n  t: |\n    text\n  n: 1\n",
        "areas:\n- id: a\n# civrules: ignore[M003] why\n",
        "areas:\n- id: a\nnote:\n",
        "areas:\n-\n",
    ],
    ids=[
        "items",
        "nested-list",
        "flow-mapping",
        "comments-before",
        "quoted",
        "block-scalar-inside",
        "suppression",
        "empty-value",
        "empty-item",
    ],
)
@pytest.mark.parametrize("tail", ["# a comment\n", "\n\n", "  # indented\n   \n"], ids=["comment", "blank", "indented"])
def test_blank_and_comment_lines_at_the_end_read_no_node_again(before: str, tail: str) -> None:
    old, _ = read_yaml_text(HEAD + before, "m.yaml", LIMITS)
    assert old is not None
    spliced = splice_document(HEAD + before, old, HEAD + before + tail, LIMITS)
    assert spliced is not None and spliced.path is None and spliced.ends is not None
    assert spliced.document.data is old.data  # the same objects: nothing was read
    assert_read_alike(spliced.document, HEAD + before + tail)
    removed = splice(HEAD + before + tail, HEAD + before)
    assert removed is not None and removed.path is None  # and taken away again


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # The last scalar ends at the end of the text: a block scalar takes indented `#` lines in.
        ("areas:\n- id: a\n  t: |\n    text\n", "areas:\n- id: a\n  t: |\n    text\n    # not a comment\n"),
        ("areas:\n- id: a\n  t: |+\n    text\n", "areas:\n- id: a\n  t: |+\n    text\n\n"),
        # A quoted scalar whose last line looks like a comment.
        ('areas:\n- id: "a\n  # b"\n', 'areas:\n- id: "a\n  # c"\n'),
        # A tab, a control character: left to the reader.
        ("areas:\n- id: a\n", "areas:\n- id: a\n\t# tab\n"),
        ("areas:\n- id: a\n", "areas:\n- id: a\n# \x07\n"),
    ],
    ids=["block-scalar", "kept-block-scalar", "quoted", "tab", "control"],
)
def test_lines_at_the_end_a_node_may_take_in_are_read_again(before: str, after: str) -> None:
    document, problems = read_yaml_text(HEAD + before, "m.yaml", LIMITS)
    assert document is not None and not problems
    spliced = splice_document(HEAD + before, document, HEAD + after, LIMITS)
    assert spliced is None or spliced.path is not None
    if spliced is not None:
        assert_read_alike(spliced.document, HEAD + after)


def test_an_unchanged_text_gives_its_reading_back() -> None:
    text = HEAD + "areas:\n- id: a\n"
    document, _ = read_yaml_text(text, "m.yaml", LIMITS)
    assert document is not None
    spliced = splice_document(text, document, text, LIMITS)
    assert spliced is not None and spliced.document is document and spliced.path is None


def test_a_splice_holds_the_node_bound_of_the_whole_file() -> None:
    limits = Limits(max_nodes=12)
    before, after = HEAD + "areas:\n- id: a\n", HEAD + "areas:\n- id: a\n- id: b\n- id: c\n"
    document, _ = read_yaml_text(before, "m.yaml", limits)
    assert document is not None
    assert read_yaml_text(after, "m.yaml", limits)[1], "the whole file is beyond the bound"
    assert splice_document(before, document, after, limits) is None


# --- the spliced table ---------------------------------------------------------------------------


def test_a_splice_writes_the_positions_in_a_table_and_leaves_the_old_reading_as_it_was() -> None:
    before = HEAD + "areas:\n- id: a\n  n: 1\n- id: b\n  n: 2\nborders:\n- a\n"
    after = HEAD + "areas:\n- id: a\n  n: 1\n  m: 3\n- id: b\n  n: 2\nborders:\n- a\n"
    old, _ = read_yaml_text(before, "m.yaml", LIMITS)
    assert old is not None
    kept = list(old.value_spans.items()), list(old.key_spans.items())
    spliced = splice_document(before, old, after, LIMITS)
    assert spliced is not None and spliced.path == ("areas",)
    assert not spliced.document.table.empty  # no path-keyed positions made
    assert (list(old.value_spans.items()), list(old.key_spans.items())) == kept
    assert_read_alike(spliced.document, after)


def test_a_value_edited_in_an_item_leaves_only_that_item_unreachable() -> None:
    """An edit inside one item writes the new item over the old one's node: what the old item held
    and the small reading's own nodes are the only ones no path reaches; the other items are not
    copied."""
    items = "".join(f"- id: a{i}\n  n: {i}\n" for i in range(20))
    before = f"{HEAD}areas:\n{items}"
    after = before.replace("  n: 7\n", "  n: 70\n")
    old, _ = read_yaml_text(before, "m.yaml", LIMITS)
    assert old is not None
    spliced = splice_document(before, old, after, LIMITS)
    assert spliced is not None and (spliced.first, spliced.count) == (7, 1)
    table = spliced.document.table
    # Unreachable: the old a7's `id` and `n`; of the small reading (`_:` the new a7, then the next
    # item `- id: a8` to end it), the stand-in list, the new item's own node (written over the old
    # one's) and the next item with its `id`. Its root is not copied.
    assert (table.unreachable, table.unreachable_keys) == (2 + 1 + 1 + 2, 2 + 1 + 0 + 1)
    assert len(table) == len(old.table) + 6
    assert_read_alike(spliced.document, after)


def test_an_item_added_gives_the_list_a_new_block() -> None:
    items = "".join(f"- id: a{i}\n" for i in range(5))
    before = f"{HEAD}areas:\n{items}"
    after = before.replace("- id: a2\n", "- id: a2\n- id: new\n")
    old, _ = read_yaml_text(before, "m.yaml", LIMITS)
    assert old is not None
    spliced = splice_document(before, old, after, LIMITS)
    assert spliced is not None and spliced.path == ("areas",)
    table = spliced.document.table
    areas = table.find(("areas",))
    assert table.children(areas).start >= len(old.table)  # a new block: six items
    assert len(table.children(areas)) == 6
    assert table.unreachable >= 5  # the old block's five items at least
    assert_read_alike(spliced.document, after)


def test_a_table_mostly_unreachable_is_read_whole_again() -> None:
    """Each edit that changes the number of items leaves the old block of items behind; once the
    table holds more unreachable nodes than reachable ones, the file is read whole again (a new,
    compact table), and until then it is spliced."""
    items = "".join(f"- id: a{i}\n  n: {i}\n  m: x\n" for i in range(30))
    text = f"{HEAD}areas:\n{items}"
    document, _ = read_yaml_text(text, "m.yaml", LIMITS)
    assert document is not None
    spliced_edits = 0
    for step in range(20):
        new = text.replace("- id: a5\n", f"- id: n{step}\n- id: a5\n")
        spliced = splice_document(text, document, new, LIMITS)
        if spliced is None:
            break
        assert_read_alike(spliced.document, new)
        table = spliced.document.table
        assert table.unreachable <= table.reachable()[0]
        text, document = new, spliced.document
        spliced_edits += 1
    else:
        pytest.fail("twenty edits that each leave a block behind were all spliced")
    assert spliced_edits >= 2  # not read whole at the first edit
    whole, _ = read_yaml_text(new, "m.yaml", LIMITS)
    assert whole is not None and whole.table.unreachable == 0


# --- lists below the top: a variant's overlay entries -----------------------------------------------

VARIANT = (
    "kind: ruleset\nid: v\nname: V\nextends: b\n"
    "overlay:\n"
    "  civilization_cards:\n"
    "    add:\n"
    "      - {id: a, cost: 1}\n"
    "      - id: b\n"
    "        cost: 2\n"
    "      - {id: c, cost: 3}\n"
    "    patch:\n"
    "    - {id: pottery, cost: 4}\n"
    "    - {id: mining, cost: 5}\n"
    "  areas:\n"
    "    remove:\n"
    "      - {id: crete, why: gone}\n"
    "suppress:\n"
    "  - {code: M003, target: x, reason: y}\n"
)


@pytest.mark.parametrize(
    ("old", "new", "path", "first", "count"),
    [
        ("{id: a, cost: 1}", "{id: a, cost: 9}", ("overlay", "civilization_cards", "add"), 0, 1),
        ("        cost: 2\n", "        cost: 2\n        name: B\n", ("overlay", "civilization_cards", "add"), 1, 2),
        ("      - {id: c, cost: 3}\n", "", ("overlay", "civilization_cards", "add"), 1, 1),
        ("{id: c, cost: 3}\n", "{id: c, cost: 3}\n      - {id: d}\n", ("overlay", "civilization_cards", "add"), 2, 2),
        ("{id: mining, cost: 5}", "{id: mining, cost: 6}", ("overlay", "civilization_cards", "patch"), 1, 1),
        ("{id: pottery, cost: 4}", "{id: pottery, cost: [4}", None, 0, 0),  # broken YAML: read whole
        ("{id: crete, why: gone}", "{id: crete, why: lost}", ("overlay", "areas", "remove"), 0, 1),
        ("    patch:\n", "    replace:\n", None, 0, 0),  # a key of the path changed
        ("  areas:\n", "  nations:\n", None, 0, 0),
        ("      - {id: crete", "    - {id: crete", None, 0, 0),  # the list's indentation
        ("      - {id: crete, why: gone}\n", "      - {id: crete, why: gone}\n    add: []\n", None, 0, 0),
        ("{code: M003, target: x, reason: y}", "{code: M003, target: x, reason: z}", ("suppress",), 0, 1),
    ],
    ids=[
        "value",
        "field-added",
        "item-removed",
        "item-added",
        "patch",
        "broken",
        "key-of-the-path",
        "collection-renamed",
        "indentation",
        "remove",
        "key-after-the-items",
        "top-level-after-nested",
    ],
)
def test_an_edit_inside_a_nested_list_is_spliced(
    old: str, new: str, path: tuple[str, ...] | None, first: int, count: int
) -> None:
    """An edit inside one entry of a variant's overlay reads that entry again, as one of a top-level
    list does; the document is the one a full read gives, and what it did not touch is the same
    object (the other collections' blocks, the other entries)."""
    assert old in VARIANT
    after = VARIANT.replace(old, new, 1)
    document, problems = read_yaml_text(VARIANT, "v.yaml", LIMITS)
    assert document is not None and not problems
    spliced = splice_document(VARIANT, document, after, LIMITS)
    if spliced is not None:
        assert_read_alike(spliced.document, after)
    if path is None:
        assert spliced is None
        return
    assert spliced is not None and (spliced.path, spliced.first, spliced.count) == (path, first, count)
    data, was = spliced.document.data, document.data
    if path[0] == "overlay":
        kept = {"areas", "civilization_cards"} - {path[1]}
        assert all(data["overlay"][name] is was["overlay"][name] for name in kept)
        items, old_items = data["overlay"][path[1]][path[2]], was["overlay"][path[1]][path[2]]
        assert all(item is old_items[i] for i, item in enumerate(items[:first]))
        assert data["suppress"] is was["suppress"]
    else:
        assert data["overlay"] is was["overlay"]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # A mapping on the key's line, in flow style: nothing below it is a block item.
        ("overlay: {areas: {add: [{id: a}]}}\n", "overlay: {areas: {add: [{id: b}]}}\n"),
        # The nested mapping's keys at the column of its own key (not a mapping below it).
        (
            "overlay:\n  areas:\n    add:\n    - id: a\n    - id: b\n",
            "overlay:\n  areas:\n    add:\n    - id: a\n    - id: c\n",
        ),
        # The item runs into what follows: the next key read inside it.
        (
            "overlay:\n  areas:\n    add:\n    - id: a\n    patch:\n    - id: b\n",
            "overlay:\n  areas:\n    add:\n    - id: 'a\n    patch:\n    - id: b\n",
        ),
    ],
    ids=["flow", "indentless-list", "unclosed-quote"],
)
def test_a_nested_edit_the_splice_cannot_tell_is_read_whole_or_alike(before: str, after: str) -> None:
    head = "kind: ruleset\nid: v\n"
    splice(head + before, head + after)  # held to a full read when it splices


def test_a_shipped_variant_manifest_splices_an_edit_of_its_overlay() -> None:
    """The western extension's manifest: an edit of one patched area is spliced (its overlay's
    lists are below the top, in block mappings)."""
    text, document = shipped("rulesets/advanced-civilization-western.yaml")
    new = text.replace("{id: sahara, start_nation: africa,", "{id: sahara, start_nation: italy,", 1)
    assert new != text
    spliced = splice_document(text, document, new, LIMITS)
    assert spliced is not None and spliced.path == ("overlay", "areas", "patch") and spliced.count == 1
    assert_read_alike(spliced.document, new)
