"""The ids a family's own code, templates and schemas name, found by walking them: what a
family's :attr:`~civrules.families.family.Family.named_ids` must hold (each family's
``test_named_ids.py`` compares the two).

A literal is any string constant of the family's Python (docstrings are whole texts, never one
id), any quoted word of its templates and helper scripts, and any value of a schema's ``enum``.
It counts where it equals the id of an entity of one of the family's collections in the shipped
rule data, a base file's or one a variant's `overlay: add` defines; a word that is also another
thing's name (a field, a setting's key) is listed by the family's test, with why it is not the id.
A string the Python builds (an f-string, or a constant joined to a name with `+`) counts where an
id fits it, each value put in standing for a part of an id: `f"{kind}_victory"` names
`culture_victory`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from civrules.families.family import Family
from tests.conftest import REPO
from tests.rulefiles import pristine

if TYPE_CHECKING:
    from civrules.lsp.index import Index, Symbol

_QUOTED = re.compile(r"""["']([a-z][a-z0-9_]*)["']""")
_SLUG = re.compile(r"[a-z0-9_]*")


def _built(node: ast.AST) -> re.Pattern[str] | None:
    """The ids the string ``node`` builds can be, as a pattern: each value put in an f-string or
    joined with `+` stands for a part of an id. None where no constant part could be one."""
    if isinstance(node, ast.JoinedStr):
        parts: list[ast.AST] = list(node.values)
        if all(isinstance(p, ast.Constant) for p in parts):
            return None  # a format spec (`:03d`), or an f-string with nothing put in: its constant is walked
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = []
        stack: list[ast.AST] = [node]
        while stack:  # `a + b + c` nests to the left
            one = stack.pop()
            if isinstance(one, ast.BinOp) and isinstance(one.op, ast.Add):
                stack += [one.right, one.left]
            else:
                parts.append(one)
        if not any(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
            return None
    else:
        return None
    pattern, constant = "", False
    for part in parts:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            if not _SLUG.fullmatch(part.value):
                return None
            pattern += re.escape(part.value)
            constant = constant or bool(part.value)
        elif not pattern.endswith("[a-z0-9_]+"):
            pattern += "[a-z0-9_]+"
    return re.compile(pattern) if constant else None


def shipped_ids(family: Family) -> dict[str, set[str]]:
    """The ids of each collection of ``family`` (keyed by one field) its shipped files define,
    in a base file or in a variant's `overlay: add`."""
    found: dict[str, set[str]] = {}
    for loaded in pristine().values():
        document = loaded.document
        if document is None or not isinstance(document.data, dict):
            continue
        overlay = document.data.get("overlay")
        if loaded.kind == family.slot_kind("ruleset"):
            for collection, spec in family.collections.items():
                block = overlay.get(collection) if isinstance(overlay, dict) else None
                added = block.get("add") if isinstance(block, dict) else None
                for element in added if isinstance(added, list) else ():
                    if isinstance(element, dict) and isinstance(element.get(spec.key), str):
                        found.setdefault(collection, set()).add(element[spec.key])
        for collection, spec in family.collections.items():
            if spec.composite or loaded.kind != family.slot_kind(spec.slot):
                continue
            listed: Any = document.data
            for step in spec.path:
                listed = listed.get(step) if isinstance(listed, dict) else None
            for element in listed if isinstance(listed, list) else ():
                if isinstance(element, dict) and isinstance(element.get(spec.key), str):
                    found.setdefault(collection, set()).add(element[spec.key])
    return found


def _literals(path: Path) -> Iterator[tuple[str | re.Pattern[str], int]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield node.value, node.lineno
            elif isinstance(node, ast.expr) and (built := _built(node)) is not None:
                yield built, node.lineno
    elif path.suffix == ".json":
        for values in _enums(json.loads(text)):
            yield from ((v, 0) for v in values if isinstance(v, str))
    else:
        for match in _QUOTED.finditer(text):
            yield match.group(1), text.count("\n", 0, match.start()) + 1


def _enums(node: Any) -> Iterator[list[Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


def named_in_code(family: Family) -> dict[tuple[str, str], list[str]]:
    """``(collection, id) → places`` for every shipped id a literal of the family's room (code,
    templates, helper scripts) or of its schemas names."""
    room = REPO / "compiler" / Path(*family.package.split("."))
    files = [p for p in sorted(room.rglob("*")) if p.suffix in (".py", ".j2", ".js")]
    files += sorted({(REPO / "schemas" / schema) for schema in family.kinds.values()})
    ids = shipped_ids(family)
    found: dict[tuple[str, str], list[str]] = {}
    for path in files:
        for literal, line in _literals(path):
            for collection, keys in ids.items():
                named = [literal] if isinstance(literal, str) and literal in keys else []
                if isinstance(literal, re.Pattern):
                    named = sorted(key for key in keys if literal.fullmatch(key))
                for key in named:
                    found.setdefault((collection, key), []).append(f"{path.relative_to(REPO)}:{line}")
    return found


def assert_every_named_id_declared(family: Family, not_the_id: Mapping[tuple[str, str], str]) -> None:
    """The walk's claim for ``family``: each literal of its code, templates and schemas that is a
    shipped id is declared in its `NAMED_IDS` or listed in ``not_the_id`` (another thing's name,
    with why); no listed word is one the code no longer names; each declared id is a shipped one."""
    # (A helper module's asserts are not rewritten by pytest: each says what it found.)
    found = named_in_code(family)
    undeclared = {key: where for key, where in found.items() if family.named_by(*key) is None}
    unexplained = {key: where for key, where in undeclared.items() if key not in not_the_id}
    assert not unexplained, f"shipped ids the family's code names, neither declared nor explained: {unexplained}"
    stale = set(not_the_id) - set(found)
    assert not stale, f"words listed as not the id that the code no longer names: {sorted(stale)}"
    ids = shipped_ids(family)
    declared = {(c, i) for c, named in family.named_ids.items() for i in named}
    unshipped = {(c, i) for c, i in declared if i not in ids.get(c, set())}
    assert not unshipped, f"ids declared named that no shipped ruleset has: {sorted(unshipped)}"


def definition(index: Index, collection: str, identifier: str) -> Symbol:
    """The one symbol of ``index`` that defines ``identifier`` in ``collection``."""
    (symbol,) = [s for s in index.by_id[identifier] if s.definition and s.collection == collection]
    return symbol
