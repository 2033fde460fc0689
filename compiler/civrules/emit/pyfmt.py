"""Python source for data, laid out exactly as the project's formatter (ruff format) lays it out.

Generated code must come out already formatted (`ruff format --check generated/python`) without
running a formatter at build time: a value is written on one line when that fits in the line
length, else exploded one element per line with a trailing comma, which the formatter keeps
("magic trailing comma"). Strings are quoted as the formatter prefers (double quotes unless that
needs more escapes).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

#: The project's line length (pyproject.toml, [tool.ruff]).
LINE_LENGTH = 120


class Node:
    """A piece of Python expression source."""

    def flat(self) -> str:
        raise NotImplementedError

    def lines(self, indent: int, prefix: str, suffix: str) -> Iterator[str]:
        """The value's lines (:func:`write` into a list)."""
        out: list[str] = []
        write(self, indent, prefix, suffix, out)
        return iter(out)

    def flat_within(self, budget: int) -> str | None:
        """:meth:`flat` when it is at most ``budget`` characters long, else None."""
        text = self.flat()
        return text if len(text) <= budget else None

    def explodable(self) -> bool:
        return False

    def exploded(self, indent: int, prefix: str, suffix: str) -> Iterator[str]:
        raise NotImplementedError


def write(
    node: Node, indent: int, prefix: str, suffix: str, out: list[str], spill: Callable[[list[str]], None] | None = None
) -> None:
    """Append the value's lines to ``out``: on one line when that fits, else exploded one element a
    line; ``spill`` (when given) is handed ``out`` whenever it holds :data:`_BATCH` lines, to take
    them away (a large table's lines are not all held at once).

    One recursive function appending to a list, not a generator per node: each line of a nested
    table passed through one generator frame per level of its nesting (the writer was a third of a
    package's rendering: ~212,000 calls on the largest shipped ruleset)."""
    if type(node) is Code:
        out.append(f"{' ' * indent}{prefix}{node.text}{suffix}")
        return
    if type(node) is _Container:
        # Its methods inline: most nodes written are small containers that fit on their line.
        items = node.items
        if not items:
            out.append(f"{' ' * indent}{prefix}{node.flat()}{suffix}")
            return
        budget = LINE_LENGTH - indent - len(prefix) - len(suffix)
        one = node._flat
        if one is None:
            one = _flat_within(node.opening, node.closing, node.one_tuple and len(items) == 1, items, budget)
            if one is not None:
                node._flat = one
        elif len(one) > budget:
            one = None
        if one is not None:
            out.append(f"{' ' * indent}{prefix}{one}{suffix}")
        else:
            _explode(node, indent, prefix, suffix, out, spill)
        return
    pad = " " * indent
    if not node.explodable():
        out.append(f"{pad}{prefix}{node.flat()}{suffix}")
        return
    # Flattened only as far as a line holds: a large value is not written out whole at every
    # level of its nesting just to learn that it does not fit.
    one = node.flat_within(LINE_LENGTH - indent - len(prefix) - len(suffix))
    if one is not None:
        out.append(f"{pad}{prefix}{one}{suffix}")
        return
    if isinstance(node, (_Container, _Lazy)):
        _explode(node, indent, prefix, suffix, out, spill)
    else:
        out.extend(node.exploded(indent, prefix, suffix))


def _explode(
    node: _Container | _Lazy,
    indent: int,
    prefix: str,
    suffix: str,
    out: list[str],
    spill: Callable[[list[str]], None] | None,
) -> None:
    """A container's lines one element a line (see :func:`write`)."""
    pad = " " * indent
    out.append(f"{pad}{prefix}{node.opening}")
    inner = indent + 4
    inner_pad = pad + "    "
    for key, value in node.items if isinstance(node, _Container) else node.make():
        if type(value) is Code:
            out.append(f"{inner_pad}{key}{value.text},")
        else:
            write(value, inner, key, ",", out, spill)
        if spill is not None and len(out) >= _BATCH:
            spill(out)
    out.append(f"{pad}{node.closing}{suffix}")


@dataclass(slots=True, unsafe_hash=True)
class Code(Node):
    """Source written as is (a name, a number, an enum member). Never changed once made (nothing
    assigns its ``text``); not a frozen dataclass only because a frozen one's ``__init__`` sets its
    field through ``object.__setattr__``: twice the cost of making one, and a data module makes
    thousands (8,700 in the build of the largest shipped ruleset)."""

    text: str

    def flat(self) -> str:
        return self.text


class _Container(Node):
    """A bracketed display (a call, a tuple, a dict, a set) of ``items``: (key or prefix, value).

    Its one line is kept once made: a container that does not fit flattens its first items, and
    then each of them is written again on its own line, flattened again (a third of a data
    module's writing was flattening the same small values twice)."""

    __slots__ = ("_flat", "closing", "items", "one_tuple", "opening")

    def __init__(
        self, opening: str, closing: str, items: Sequence[tuple[str, Node]] = (), one_tuple: bool = False
    ) -> None:
        self.opening = opening
        self.closing = closing
        self.items = items
        self.one_tuple = one_tuple
        self._flat: str | None = None

    def flat(self) -> str:
        if self._flat is None:
            inner = ", ".join(f"{key}{value.flat()}" for key, value in self.items)
            if self.one_tuple and len(self.items) == 1:
                inner += ","
            self._flat = f"{self.opening}{inner}{self.closing}"
        return self._flat

    def flat_within(self, budget: int) -> str | None:
        text = self._flat
        if text is not None:
            return text if len(text) <= budget else None
        text = _flat_within(self.opening, self.closing, self.one_tuple and len(self.items) == 1, self.items, budget)
        if text is not None:
            self._flat = text
        return text

    def explodable(self) -> bool:
        return bool(self.items)

    def exploded(self, indent: int, prefix: str, suffix: str) -> Iterator[str]:
        out: list[str] = []
        _explode(self, indent, prefix, suffix, out, None)
        return iter(out)


def _flat_within(opening: str, closing: str, one: bool, items: Iterable[tuple[str, Node]], budget: int) -> str | None:
    """A container's one line when it is at most ``budget`` characters long (``one``: a one-tuple's
    trailing comma), else None, found reading as few of its items as that takes.

    Each item is added to the length used with the ", " before it (counted for the first item too,
    and taken back at the start), and an item that is a container is asked only for what is left;
    a container whose line is kept already is measured, not asked (a data module's writing calls
    this for every container it writes, most of them rows of a few names and numbers)."""
    used = len(opening) + len(closing) + one - 2  # no ", " before the first item
    parts = []
    for key, value in items:
        kind = type(value)
        if kind is Code:
            inner = key + value.text  # type: ignore[attr-defined]
        else:
            room = budget - used - 2 - len(key)
            if room < 0:
                return None
            flat = value._flat if kind is _Container else None  # type: ignore[attr-defined]
            if flat is None:
                flat = value.flat_within(room)
                if flat is None:
                    return None
            elif len(flat) > room:
                return None
            inner = key + flat
        used += len(inner) + 2
        if used > budget:
            return None
        parts.append(inner)
    if not parts and used + 2 > budget:
        return None
    inner_text = ", ".join(parts)
    if one:
        inner_text += ","
    return f"{opening}{inner_text}{closing}"


class _Lazy(Node):
    """A dict display or a tuple whose entries are made each time they are read, one at a time: a
    large table's nodes are never all held (a shipped card game's cards at 50x: 22 MB of nodes; a
    shipped map's areas, borders and adjacency: 12 MB)."""

    __slots__ = ("closing", "count", "make", "one_tuple", "opening")

    def __init__(
        self, count: int, make: Callable[[], Iterable[tuple[str, Node]]], opening: str, closing: str, one_tuple: bool
    ) -> None:
        self.count = count
        self.make = make
        self.opening = opening
        self.closing = closing
        self.one_tuple = one_tuple

    def _items(self) -> Iterator[tuple[str, Node]]:
        return iter(self.make())

    def flat(self) -> str:
        return _Container(self.opening, self.closing, tuple(self._items()), self.one_tuple).flat()

    def flat_within(self, budget: int) -> str | None:
        one = self.one_tuple and self.count == 1
        return _flat_within(self.opening, self.closing, one, self._items(), budget)

    def explodable(self) -> bool:
        return self.count > 0

    def exploded(self, indent: int, prefix: str, suffix: str) -> Iterator[str]:
        out: list[str] = []
        _explode(self, indent, prefix, suffix, out, None)
        return iter(out)


def lazy_dct(count: int, make: Callable[[], Iterable[tuple[Node, Node]]]) -> Node:
    """:func:`dct` of the ``count`` entries ``make()`` yields, made again each time they are read."""
    return _Lazy(count, lambda: ((f"{k.flat()}: ", v) for k, v in make()), "{", "}", False)


def record_call(callee: str, /, *args: Node, **kwargs: Node) -> Node:
    """``callee(arg, ..., key=value, ...)`` for a record of a package's data module, made through
    the record's maker (:func:`maker`): a call of the class checks the record, and the data module's
    records were checked when the package was built (:func:`makers` binds each maker)."""
    return call(maker(callee), *args, **kwargs)


def maker(callee: str) -> str:
    """The name a data module binds the maker of the record class ``callee`` to (``Card``:
    ``_Card``; ``settings.Ast``: ``_SettingsAst``)."""
    module, _, name = callee.rpartition(".")
    return f"_{module[:1].upper()}{module[1:]}{name}"


def makers(classes: Iterable[str]) -> str:
    """The head's part that binds the maker of each record class of ``classes`` (by the name its
    calls use, :func:`maker`) with ``data_maker`` (``civrules_runtime.records``, which the module
    imports): a record made without the checks a call of its class makes, its arguments typed as
    the class's."""
    return "".join(f"{maker(name)} = data_maker({name})\n" for name in sorted(set(classes), key=maker))


#: A call of a name that begins with ``_`` and goes on with letters and digits only, as each maker's
#: call is written (:func:`maker`): no two such calls overlap, so one search of a module finds them all.
_UNDERSCORED_CALL = re.compile(rb"_[A-Za-z0-9]+\(")


def used_makers(body: Source, classes: Iterable[str]) -> str:
    """:func:`makers` of the classes of ``classes`` whose records ``body`` makes (a call of the maker).

    ``body`` is read once for all the makers (:meth:`Source.underscored_calls`), not once a class:
    a data module names about a hundred classes, and each was a search of its statements (460 KB
    for the largest shipped ruleset), most of them to the end. A maker's name of other characters (no
    class's today) is looked for as before, on its own."""
    called = body.underscored_calls()
    chosen = []
    for name in classes:
        call_ = f"{maker(name)}("
        if call_.isascii() and _UNDERSCORED_CALL.fullmatch(call_.encode("ascii")):
            if call_ in called:
                chosen.append(name)
        elif call_ in body:
            chosen.append(name)
    return makers(chosen)


def lazy_tup(count: int, make: Callable[[], Iterable[Node]]) -> Node:
    """:func:`tup` of the ``count`` items ``make()`` yields, made again each time they are read."""
    return _Lazy(count, lambda: (("", v) for v in make()), "(", ")", True)


def call(callee: str, /, *args: Node, **kwargs: Node) -> Node:
    """``callee(arg, ..., key=value, ...)``."""
    items = [("", a) for a in args]
    if kwargs:
        items += [(f"{k}=", v) for k, v in kwargs.items()]
    return _Container(f"{callee}(", ")", tuple(items))


def tup(items: Sequence[Node]) -> Node:
    """A tuple: ``()``, ``(a,)``, ``(a, b)``."""
    return _Container("(", ")", tuple([("", i) for i in items]), one_tuple=True)


def dct(items: Sequence[tuple[Node, Node]]) -> Node:
    """A dict display ``{key: value, ...}``."""
    return _Container("{", "}", tuple([(f"{k.flat()}: ", v) for k, v in items]))


def frozen(items: Sequence[Node]) -> Node:
    """``OrderedFrozenSet((...))``: a frozenset that iterates in the order of ``items``, whatever
    ``PYTHONHASHSEED`` is (``OrderedFrozenSet()`` when empty; the module imports the name from
    ``civrules_runtime.mappings``)."""
    if not items:
        return Code("OrderedFrozenSet()")
    return call("OrderedFrozenSet", tup(items))


def string(value: str) -> Node:
    """A string literal quoted as the formatter prefers (double quotes unless that needs more escapes)."""
    if '"' not in value and "\\" not in value and value.isprintable():
        return Code('"' + value + '"')  # nothing to escape (most ids and names): double quotes
    quote = "'" if value.count('"') > value.count("'") else '"'
    if value.isprintable() and "\\" not in value and quote not in value:
        return Code(quote + value + quote)
    out = []
    for char in value:
        if char == "\\":
            out.append("\\\\")
        elif char == quote:
            out.append("\\" + quote)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif not char.isprintable():
            out.append(repr(char)[1:-1])
        else:
            out.append(char)
    return Code(quote + "".join(out) + quote)


def statement(target: str, value: Node) -> str:
    """``target = value`` (target may carry an annotation), formatted."""
    out: list[str] = []
    write(value, 0, f"{target} = ", "", out)
    return "\n".join(out) + "\n"


#: A module of at least this many bytes of statements is joined through a temporary file
#: (:meth:`Source.module`); a smaller one in memory.
_SPOOLED = 1 << 20

#: Lines of a statement encoded together (its text is made a batch at a time, not all its lines at once).
_BATCH = 4096


#: What one statement of a :class:`Source` declares, as it was written: its target (``NAME:
#: ANNOTATION``, or a name alone) and its value's text where the value is one :class:`Code` (a bare
#: ``Final``'s type is its constant's), else None.
Target = tuple[str, str | None]


@dataclass(frozen=True, slots=True)
class Declarations:
    """What a module made by :meth:`Source.rendered` declares, without parsing it back: its first
    ``head`` bytes are written as they are (a docstring, imports: read them by parsing them), and
    each statement after them is, in order, one of ``targets`` (the very strings its lines were
    formatted from). ``size`` is the module's length, to tell it from other bytes."""

    size: int
    head: int
    targets: tuple[Target, ...]


class Module(NamedTuple):
    """A module's source, and what it declares (:class:`Declarations`; None where a statement was
    added already written, without its target: its declarations are then read from the source)."""

    source: bytes
    declarations: Declarations | None


class Source:
    r"""A module's statements as UTF-8 chunks, each encoded as it is written, and the module made of
    them in one join (:meth:`module`).

    A package's ``data.py`` (12 MB at 50x) was held as the statements, their join, the join with
    the module's head and its bytes at once; here only the encoded statements and the module's bytes.

    >>> source = Source()
    >>> source.statement("#: The answer.\n", "ANSWER", Code("42"))
    >>> "ANSWER" in source, source.module(["import x\n"])
    (True, b'import x\n\n#: The answer.\nANSWER = 42\n')
    """

    __slots__ = ("chunks", "targets")

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        #: What each statement declares, as it was written (:data:`Target`), in the order of
        #: ``chunks``; None once a statement was appended without its target.
        self.targets: list[Target] | None = []

    def append(self, text: str, target: str | None = None, value: Node | None = None) -> None:
        """A statement written out already (its source, ending with a newline): ``target = value``
        formatted, where ``target`` is given (what it declares); without it the module's
        declarations are read from its source (:meth:`rendered`)."""
        self.chunks.append(text.encode("utf-8"))
        if target is None or value is None or self.targets is None:
            self.targets = None
        else:
            self.targets.append(_target(target, value))

    def extend(self, chunks: Iterable[bytes], targets: Iterable[Target] | None) -> None:
        """Statements another :class:`Source` wrote (its ``chunks`` and ``targets``), written again."""
        self.chunks.extend(chunks)
        if targets is None or self.targets is None:
            self.targets = None
        else:
            self.targets.extend(targets)

    def statement(self, comment: str, target: str, value: Node) -> None:
        """``comment`` (whole lines, or empty) and then :func:`statement` ``target = value``."""
        out = bytearray(comment.encode("utf-8"))

        def spill(batch: list[str]) -> None:
            out.extend("\n".join(batch).encode("utf-8") + b"\n")
            batch.clear()

        batch: list[str] = []
        write(value, 0, f"{target} = ", "", batch, spill)
        if batch:
            spill(batch)
        self.chunks.append(bytes(out))
        if self.targets is not None:
            self.targets.append(_target(target, value))

    def __contains__(self, text: object) -> bool:
        """Whether some statement holds ``text`` (a name or a call, never across two statements)."""
        if not isinstance(text, str):
            return False
        needle = text.encode("utf-8")
        return any(needle in chunk for chunk in self.chunks)

    def underscored_calls(self) -> frozenset[str]:
        """Every ``_name(`` the statements hold, ``name`` of ASCII letters and digits (a maker's
        call, :func:`maker`), wherever it stands (``x_Item(`` holds ``_Item(``), found in one read
        of the statements."""
        found: set[bytes] = set()
        for chunk in self.chunks:
            found.update(_UNDERSCORED_CALL.findall(chunk))
        return frozenset(call.decode("ascii") for call in found)

    def rendered(self, head: Sequence[str]) -> Module:
        """:meth:`module`, with what it declares as its statements were written (:class:`Declarations`)."""
        parts = sum(len(part.encode("utf-8")) for part in head) + len(head)  # each part, then "\n"
        targets = None if self.targets is None else tuple(self.targets)
        source = self.module(head)
        declared = None if targets is None else Declarations(len(source), min(parts, len(source)), targets)
        return Module(source, declared)

    def module(self, head: Sequence[str]) -> bytes:
        r"""The module: ``head``'s parts and then the statements, each separated by a blank line
        (``"\n".join(head) + "\n" + "\n".join(statements)``, encoded); the statements are let go."""
        parts = [part.encode("utf-8") for part in head]
        if not self.chunks:
            return b"\n".join(parts) + b"\n"
        if sum(len(chunk) for chunk in self.chunks) >= _SPOOLED:
            spooled = self._spooled(parts)
            if spooled is not None:
                return spooled
        out = b"\n".join([*parts, *self.chunks])
        self.chunks.clear()
        return out

    def _spooled(self, parts: list[bytes]) -> bytes | None:
        """The module joined through a temporary file: each statement is let go once written, and
        the module is read back in one piece, so the statements and their join are never held at
        once (two copies of a 12 MB data.py at 50x). None, with nothing let go, when no temporary
        file can be made; a failure to write it (a full disk) is raised, as any output's is."""
        try:
            spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below; only making it falls back
        except OSError:
            return None
        with spool:
            spool.write(b"\n".join(parts))
            chunks, self.chunks = self.chunks, []
            chunks.reverse()
            while chunks:
                spool.write(b"\n")
                spool.write(chunks.pop())
            spool.seek(0)
            return spool.read()


def _target(target: str, value: Node) -> Target:
    """What ``target = value`` declares (:data:`Target`)."""
    return (target, value.text if isinstance(value, Code) else None)
