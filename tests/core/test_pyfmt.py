"""The formatter of generated Python: a value flattened only as far as a line holds lays out as the
whole flattening did (issue 32: a large table was written out whole at every level of its nesting)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from civrules.emit.pyfmt import (
    LINE_LENGTH,
    Code,
    Declarations,
    Node,
    Source,
    _Container,
    call,
    dct,
    lazy_dct,
    statement,
    string,
    tup,
    used_makers,
)
from tests.budget import heavy


def _reference_lines(node: Node, indent: int, prefix: str, suffix: str) -> list[str]:
    """The layout as it was defined: the whole flat text when it fits, else one element per line."""
    pad = " " * indent
    one = f"{pad}{prefix}{node.flat()}{suffix}"
    if len(one) <= LINE_LENGTH or not node.explodable():
        return [one]
    assert isinstance(node, _Container)
    out = [f"{pad}{prefix}{node.opening}"]
    for key, value in node.items:
        out.extend(_reference_lines(value, indent + 4, key, ","))
    out.append(f"{pad}{node.closing}{suffix}")
    return out


def _value(rng: random.Random, depth: int) -> Node:
    shape = rng.randrange(5) if depth < 4 else 0
    width = rng.choice([0, 1, 2, 3, 8, 30])
    if shape == 0:
        return string("x" * rng.randrange(40)) if rng.random() < 0.5 else Code(str(rng.randrange(10**6)))
    if shape == 1:
        return tup([_value(rng, depth + 1) for _ in range(width)])
    if shape == 2:
        return dct([(string(f"k{i}" * rng.randrange(1, 9)), _value(rng, depth + 1)) for i in range(width)])
    if shape == 3:
        return call("MappingProxyType", _value(rng, depth + 1))
    return call("Record", *[_value(rng, depth + 1) for _ in range(width)], name=_value(rng, depth + 1))


# 100 random values in `make test`, 400 (the same 100 first) in `make test-slow`: 5 s of CPU.
@pytest.mark.parametrize("values", [100, pytest.param(400, marks=pytest.mark.slow)])
def test_bounded_flattening_lays_out_as_the_whole_flattening(values: int) -> None:
    rng = random.Random(32)
    for _ in range(values):
        node = _value(rng, 0)
        for indent, prefix in ((0, "TABLE: Final[Mapping[str, int]] = "), (8, "key="), (4, "")):
            assert list(node.lines(indent, prefix, ",")) == _reference_lines(node, indent, prefix, ","), node.flat()[
                :200
            ]
    assert statement("X", tup([Code("1")])) == "X = (1,)\n"


def test_a_string_with_nothing_to_escape_is_quoted_as_it_is() -> None:
    assert string("pottery").flat() == '"pottery"'
    assert string('say "hi"').flat() == "'say \"hi\"'"
    assert string("a\\b\n").flat() == '"a\\\\b\\n"'
    assert string("é\u2028").flat() == '"é\\u2028"'


@heavy
def test_a_module_made_as_bytes_is_the_join_of_its_statements() -> None:
    """Source (each statement encoded as it is written, lines a batch at a time) gives the bytes of
    the text the statements made joined; a lazy dict display lays out as the dict display."""
    rng = random.Random(7)
    source, texts = Source(), []
    for n in range(60):
        node = _value(rng, 0)
        comment = "#: a table\n" if n % 3 == 0 else ""
        source.statement(comment, f"T{n}", node)
        texts.append(comment + statement(f"T{n}", node))
    # One statement of more lines than a batch holds (4,096).
    big = dct([(string(f"k{i}"), tup([Code(str(i)), string("x" * 90)])) for i in range(5000)])
    source.statement("", "BIG", big)
    texts.append(statement("BIG", big))
    head = ['"""Doc."""\n', "import x\n"]
    assert "T59" in source and "NOWHERE" not in source
    assert source.module(head) == ("\n".join(head) + "\n" + "\n".join(texts)).encode("utf-8")
    for width in (0, 1, 3, 2000):
        items = [(string(f"key{i}"), _value(rng, 2)) for i in range(width)]
        lazy = lazy_dct(len(items), items.__iter__)
        assert statement("M", lazy) == statement("M", dct(items))
        assert statement("M", call("FrozenMap", lazy)) == statement("M", call("FrozenMap", dct(items)))


def test_a_rendered_module_says_what_each_statement_was_written_to_declare() -> None:
    """Source.rendered gives the module's bytes and, for each statement after the head, the target
    and constant it was written from, in order, as the statements reused from another Source were
    written there; where a statement was added already written without its target, nothing."""
    source, other = Source(), Source()
    source.statement("#: The id.\n", "RULESET_ID: Final", string("x"))
    other.statement("", "TABLE: Final[Mapping[str, int]]", dct([(string("a"), Code("1"))]))
    other.append("DRAFT: Final = True\n", "DRAFT: Final", Code("True"))
    source.extend(other.chunks, other.targets)
    head = ['"""Doc."""\n', "from x import é\n"]
    source_bytes, declarations = source.rendered(head)
    assert declarations is not None
    assert source_bytes[: declarations.head] == "\n".join(head).encode("utf-8") + b"\n"
    assert source_bytes[declarations.head :].startswith(b"#: The id.\nRULESET_ID")
    assert declarations.size == len(source_bytes)
    assert declarations.targets == (
        ("RULESET_ID: Final", '"x"'),
        ("TABLE: Final[Mapping[str, int]]", None),
        ("DRAFT: Final", "True"),
    )
    other.append("X = 1\n")
    assert other.targets is None
    source.extend(other.chunks, other.targets)
    assert source.rendered(head).declarations is None
    alone = "\n".join(head).encode("utf-8") + b"\n"  # 30 bytes: 29 characters, "é" is two bytes
    assert Source().rendered(head) == (alone, Declarations(30, 30, ()))


def _calls(run: Callable[[], object]) -> int:
    """The functions ``run`` calls (Python's and C's), counted, never timed."""
    import sys
    from types import FrameType
    from typing import Any

    made = 0

    def counted(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal made
        if event in ("call", "c_call"):
            made += 1

    sys.setprofile(counted)
    try:
        run()
    finally:
        sys.setprofile(None)
    return made


def test_a_tables_nodes_are_made_without_a_generator_per_container() -> None:
    """A data module's tables are thousands of small calls, tuples and dicts (mega-civilization's:
    about 3,600 containers and 2,700 strings a build): each container's items were made by a
    generator (a call at every item), a string counted its quotes twice before finding it had none.
    A card of this shape cost 43 calls to make; now 29. The text written is the same."""

    def cards() -> Node:
        return tup(
            [
                call(
                    "Card",
                    string(f"card_{number}"),
                    Code(str(number)),
                    tup([string("crafts"), string("arts")]),
                    name=string(f"Card {number}"),
                    credits=dct([(string("arts"), Code("10"))]),
                )
                for number in range(200)
            ]
        )

    text = statement("CARDS", cards())
    assert text.splitlines()[:2] == [
        "CARDS = (",
        '    Card("card_0", 0, ("crafts", "arts"), name="Card 0", credits={"arts": 10}),',
    ]
    assert statement("QUOTED", tup([string('say "hi"'), string("it's"), string("a\\b")])) == (
        'QUOTED = (\'say "hi"\', "it\'s", "a\\\\b")\n'
    )
    assert _calls(cards) <= 200 * 35


def test_a_line_is_given_exactly_when_it_fits_the_budget() -> None:
    """``flat_within`` counts every item with the ", " before it (none before the first), the
    brackets and a one-tuple's comma, and measures a container whose line is kept without asking
    it again: at each budget around the flat length, the line or None, never off by one."""
    rng = random.Random(24)
    nodes: list[Node] = [tup([]), dct([]), call("F"), tup([Code("1")]), tup([tup([])]), dct([(string("k"), tup([]))])]
    nodes += [_value(rng, 0) for _ in range(60)]
    for node in nodes:
        whole = node.flat()
        for kept in (False, True):
            if kept:
                node.flat()  # its line (and its items') kept now
            for budget in range(max(0, len(whole) - 3), len(whole) + 3):
                assert node.flat_within(budget) == (whole if len(whole) <= budget else None), (whole, budget)


def test_code_is_hashed_and_compared_by_its_text() -> None:
    assert Code("None") == Code("None") and hash(Code("None")) == hash(Code("None"))
    assert Code("None") != Code("True")


def test_a_data_module_binds_the_makers_it_calls_after_one_read_of_its_statements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A data module's maker bindings were found by one search of its statements a class (about a
    hundred searches of 460 KB for mega-civilization, most of them to the end): the makers are now
    found in one read, and a maker's name that is not ``_`` and letters and digits is still looked
    for on its own. Which makers are bound is what a search of the whole module for each call says."""
    source = Source()
    source.statement("", "CARDS", tup([call("_Card", string("a")), call("_SettingsAst", Code("1"))]))
    source.statement("", "MORE", tup([call("x_Tech", Code("2")), call("_Odd_Name", Code("3"))]))
    source.statement("", "TEXT", string("_Calamity ( is no call"))
    classes = ("Card", "settings.Ast", "Tech", "Calamity", "Odd_Name", "Unused", "PlayerRange")
    searches: list[object] = []
    contains = Source.__contains__

    def counted(self: Source, text: object) -> bool:
        searches.append(text)
        return contains(self, text)

    monkeypatch.setattr(Source, "__contains__", counted)
    bound = used_makers(source, classes)
    whole = b"".join(source.chunks).decode("utf-8")
    expected = [
        name
        for name in ("Card", "Odd_Name", "settings.Ast", "Tech")
        if f"_{name.replace('settings.', 'Settings')}(" in whole
    ]
    assert expected == ["Card", "Odd_Name", "settings.Ast", "Tech"]
    assert bound == "".join(f"_{n.replace('settings.', 'Settings')} = data_maker({n})\n" for n in expected)
    assert searches == ["_Odd_Name("]
