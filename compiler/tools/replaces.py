"""Writing each record class's typed ``replace`` into the runtimes' record sources.

:meth:`civrules_runtime.records.Record.replace` takes any field by name (``**changes``) and checks
the values when it runs; a type checker cannot see which names and types a class's fields have
from that, so ``card.replace(cost="ten")`` passed ``mypy --strict``, and ``inspect.signature``
showed ``(*args, **changes)``. This generator gives every record class that defines its
constructor a ``replace`` of its own, declared with ``@typed_replace``: its fields keyword-only,
each optional, each with the type its constructor takes (``replace`` makes the changed record
through that constructor). At run time the class's ``replace`` is its base's code, whose
signature ``inspect`` (and so ``help()`` and an IDE's run-time completion) reads from the
declaration; before runtime 2.19 the declaration was for type checkers only (an ``if
TYPE_CHECKING:`` block, which this replaces). It reads the classes with :mod:`ast` (no runtime is
imported) and writes the block right after each class's ``__init__``, replacing the one it wrote
before.

Regenerate after changing a record's fields (tests/engine/test_typed_replace.py fails until then)::

    cd compiler && python -m tools.replaces          # rewrite the blocks
    cd compiler && python -m tools.replaces --check  # exit 1 if one differs
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tools import write_or_check
from tools.bounds import runtime_dir
from tools.settings import shipped_families

#: The first line of a block this generator writes (it finds its blocks again by it).
MARKER = "    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit"
#: The first line of the blocks it wrote before runtime 2.19 (for type checkers only), replaced.
OLD_MARKER = "    if TYPE_CHECKING:  # written by compiler/tools/replaces.py from __init__: do not edit"


def sources() -> list[Path]:
    """The record sources of the shared runtime and of every shipped family's runtime."""
    shared = Path(__file__).resolve().parent.parent / "civrules" / "emit" / "runtime" / "records.py"
    return [shared, *(runtime_dir(family) / "records.py" for family in shipped_families())]


def _slots(node: ast.ClassDef) -> list[str] | None:
    for item in node.body:
        if (
            isinstance(item, ast.Assign)
            and len(item.targets) == 1
            and isinstance(item.targets[0], ast.Name)
            and item.targets[0].id == "__slots__"
            and isinstance(item.value, ast.Tuple)
        ):
            return [e.value for e in item.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return None


def _init(node: ast.ClassDef) -> ast.FunctionDef | None:
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            return item
    return None


def _segment(lines: list[bytes], node: ast.expr) -> str:
    """The source text of ``node`` (its offsets are in UTF-8 bytes; ``ast.get_source_segment``
    splits the whole source again at each call)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    end = node.end_col_offset if node.end_col_offset is not None else len(lines[last])
    if first == last:
        return lines[first][node.col_offset : end].decode("utf-8")
    parts = [lines[first][node.col_offset :], *lines[first + 1 : last], lines[last][:end]]
    return b"\n".join(parts).decode("utf-8")


def signature(lines: list[bytes], node: ast.ClassDef) -> list[tuple[str, str]] | None:
    """Each field of the class with the annotation its constructor takes it with, in the order of
    its fields; None where the class defines no constructor or no fields of its own (it has its
    base's ``replace``)."""
    slots, init = _slots(node), _init(node)
    if not node.bases:  # no record (a record class has a base: Record, or another record class)
        return None
    if not slots or init is None or any(slot.startswith("_") for slot in slots):
        return None
    parameters = {arg.arg: arg for arg in [*init.args.args, *init.args.kwonlyargs]}
    fields = []
    for slot in slots:
        arg = parameters.get(slot)
        if arg is None or arg.annotation is None:
            raise SystemExit(f"{node.name}.__init__ takes no annotated parameter {slot!r}: replace() could not make it")
        fields.append((slot, " ".join(_segment(lines, arg.annotation).split())))
    return fields


def block(fields: list[tuple[str, str]]) -> list[str]:
    """The lines of a class's typed ``replace`` (laid out as ``ruff format`` keeps it)."""
    return [
        MARKER,
        "    def replace(",
        "        self,",
        "        *,",
        *(f"        {name}: {annotation} = ...," for name, annotation in fields),
        "    ) -> Self:",
        "        raise NotImplementedError  # never called: Record gives the class its base's, of this signature",
    ]


def render(source: str) -> str:
    """``source`` with each record class's block written (those written before replaced)."""
    lines = source.split("\n")
    tree = ast.parse(source)
    encoded = [line.encode("utf-8") for line in lines]
    edits: list[tuple[int, int, list[str]]] = []  # (first line, end line, lines), 0-based, end excluded
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = signature(encoded, node)
        old = [
            (item.lineno, item.end_lineno)
            for item in node.body
            if isinstance(item, ast.If) and lines[item.lineno - 1] == OLD_MARKER and item.end_lineno is not None
        ] + [
            (item.decorator_list[0].lineno, item.end_lineno)
            for item in node.body
            if isinstance(item, ast.FunctionDef)
            and item.decorator_list
            and lines[item.decorator_list[0].lineno - 1] == MARKER
            and item.end_lineno is not None
        ]
        for first, last in old:  # the block and the blank line before it
            assert last is not None
            edits.append((first - 2, last, []))
        init = _init(node)
        if fields is not None and init is not None and init.end_lineno is not None:
            edits.append((init.end_lineno, init.end_lineno, ["", *block(fields)]))
    for first, end, new in sorted(edits, key=lambda edit: (edit[0], edit[1]), reverse=True):
        lines[first:end] = new
    return "\n".join(lines)


def rendered() -> dict[Path, str]:
    """Every record source with its blocks written, by where it is."""
    return {path: render(path.read_text(encoding="utf-8")) for path in sources()}


def main(argv: list[str]) -> int:
    return write_or_check(rendered(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
