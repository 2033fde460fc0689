"""Generating each shipped family runtime's ``bounds`` module: the schema constraints of its records.

A record class links itself to the schema object its records hold, once, in its class body:
``_schema = "civilization-cards.schema.json#/$defs/card"`` (a file of the family's ``kinds`` and
a JSON pointer into it). Each field of the class is linked to that object's property of the same
name; a field whose name is no property of it is not linked, and the generated module lists it.
This generator reads those links (from the runtime's ``records.py`` source, with :mod:`ast`: no
runtime is imported) and writes, for every linked field, the constraints its property declares for
a known value (a property that is a fact or ``{unknown: why}`` gives the fact's): numeric bounds
(``minimum``, ``maximum``, the exclusive ones, a value that is not allowed: ``not: {const: 0}``),
a text's length and pattern, a list's length and uniqueness, and ``enum``. A constraint is written
only where the field's annotation holds values of its kind (a bound on numbers for an ``int``
field). Where a variant's schema (the ruleset's overlays) declares a field otherwise, the family's
data schema is the one: the constraints are the family's, for every ruleset.

The runtime (``civrules_runtime.records.bound``) holds every record made by calling its class,
changed with ``replace`` or unpickled to them; a package's data module makes its records through
``data_maker``, unchecked (they were checked against the same schemas when the package was built).

Regenerate after changing a schema or a record's link (tests/generated/test_record_bounds.py fails until then)::

    cd compiler && python -m tools.bounds          # rewrite the runtimes' bounds.py
    cd compiler && python -m tools.bounds --check  # exit 1 if one differs
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from civrules.families import Family
from civrules.schema import load_schema
from tools import write_or_check
from tools.settings import shipped_families

#: The constraints written, in the order they are checked, each with the annotation words of the
#: values it applies to.
CONSTRAINTS: dict[str, tuple[str, ...]] = {
    "minimum": ("int", "float"),
    "maximum": ("int", "float"),
    "exclusiveMinimum": ("int", "float"),
    "exclusiveMaximum": ("int", "float"),
    "not_const": ("int", "float", "str"),
    "enum": ("int", "str"),
    "minLength": ("str",),
    "maxLength": ("str",),
    "pattern": ("str",),
    "minItems": ("tuple",),
    "minItems_or_absent": ("tuple",),
    "maxItems": ("tuple",),
    "uniqueItems": ("tuple",),
}


def runtime_dir(family: Family) -> Path:
    module = importlib.import_module(family.package)
    return Path(str(module.__file__)).resolve().parent / "runtime"


def target(family: Family) -> Path:
    """Where the family's ``bounds`` module is written."""
    return runtime_dir(family) / "bounds.py"


class Link:
    """A record class's link to its schema object, read from the class body."""

    def __init__(self, name: str, schema: str, fields: list[tuple[str, str]]) -> None:
        self.name, self.schema, self.fields = name, schema, fields  # fields: (name, annotation)


def links(source: str) -> list[Link]:
    """The linked record classes of a ``records.py`` source, in the order they are defined."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        schema = None
        slots: list[str] = []
        annotations: dict[str, str] = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                name = item.targets[0].id
                if name == "_schema" and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    schema = item.value.value
                elif name == "__slots__" and isinstance(item.value, ast.Tuple):
                    slots = [
                        e.value for e in item.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                annotations[item.target.id] = ast.unparse(item.annotation)
        if schema is not None:
            fields = [(slot, annotations.get(slot, "")) for slot in slots if not slot.startswith("_")]
            found.append(Link(node.name, schema, fields))
    return found


def _pointer(schema: dict[str, Any], pointer: str) -> Any:
    node: Any = schema
    for part in pointer.lstrip("#").strip("/").split("/"):
        if part:
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _known(schema: dict[str, Any], node: Any) -> Any:
    """The schema of a known value of ``node``: its reference followed, and a fact's ``oneOf``/``anyOf``
    with ``{unknown: why}`` read as the fact's one other branch (None where several remain)."""
    seen = 0
    while isinstance(node, dict) and seen < 20:
        seen += 1
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and not ref.endswith("/unknown"):
            node = _pointer(schema, ref)
            continue
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                known = [
                    b for b in branches if not (isinstance(b, dict) and str(b.get("$ref", "")).endswith("/unknown"))
                ]
                if len(known) != 1:
                    return None
                node = known[0]
                break
        else:
            return node
    return None


def _allows_unknown(schema: dict[str, Any], node: Any) -> bool:
    """Whether ``node`` (its references followed) may be ``{unknown: why}``."""
    for _ in range(20):
        if not isinstance(node, dict):
            return False
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.endswith("/unknown"):
            return True
        if isinstance(ref, str) and ref.startswith("#/"):
            node = _pointer(schema, ref)
            continue
        branches = [*node.get("oneOf", ()), *node.get("anyOf", ())]
        return any(isinstance(b, dict) and str(b.get("$ref", "")).endswith("/unknown") for b in branches)
    return False


def constraints(schema: dict[str, Any], prop: Any, annotation: str, required: bool) -> list[tuple[str, object]]:
    """The constraints of a property on a known value, those that apply to the field's annotation.
    A list property the object does not require, or that may be ``{unknown: why}`` where the
    field's annotation has no None, is an empty tuple in a record where it is absent or unknown:
    its ``minItems`` is written ``minItems_or_absent`` (empty, or at least that many)."""
    node = _known(schema, prop)
    if _allows_unknown(schema, prop) and "None" not in annotation:
        required = False
    if not isinstance(node, dict):
        return []
    words = set(annotation.replace("[", " ").replace("]", " ").replace(",", " ").replace("|", " ").split())
    found: list[tuple[str, object]] = []
    for key, kinds in CONSTRAINTS.items():
        if key == "minItems_or_absent":
            continue
        if key == "not_const":
            value = node.get("not", {}).get("const") if isinstance(node.get("not"), dict) else None
            present = value is not None
        else:
            present = key in node
            value = node.get(key)
        if not present or not words & set(kinds):
            continue
        if key == "uniqueItems" and value is not True:
            continue
        if key == "enum" and isinstance(value, list):
            value = tuple(value)
        if key == "minItems" and not required:
            key = "minItems_or_absent"
        found.append((key, value))
    return found


def bounds_of(
    family: Family,
) -> tuple[dict[str, dict[str, list[tuple[str, object]]]], dict[str, str], list[str]]:
    """Each linked class's constrained fields (their constraints), each linked class's schema
    object, and the fields of linked classes that no property constrains."""
    files = {file: family.qualified_kind(kind) for kind, file in family.kinds.items()}
    source = (runtime_dir(family) / "records.py").read_text(encoding="utf-8")
    bounds: dict[str, dict[str, list[tuple[str, object]]]] = {}
    links_of: dict[str, str] = {}
    unlinked: list[str] = []
    for link in links(source):
        file, _, pointer = link.schema.partition("#")
        if file not in files:
            raise SystemExit(f"{link.name}._schema names {file!r}: not a schema of the family ({sorted(files)})")
        schema = load_schema(files[file])
        try:
            obj = _pointer(schema, pointer)
            properties = obj["properties"]
        except (KeyError, TypeError, IndexError) as error:
            raise SystemExit(f"{link.name}._schema = {link.schema!r}: no object with properties there") from error
        links_of[link.name] = link.schema
        for field, annotation in link.fields:
            if field not in properties:
                unlinked.append(f"{link.name}.{field}")
                continue
            required = field in obj.get("required", ())
            found = constraints(schema, properties[field], annotation, required)
            if found:
                bounds.setdefault(link.name, {})[field] = found
            else:
                unlinked.append(f"{link.name}.{field}")
    return bounds, links_of, unlinked


def _literal(value: object) -> str:
    """``value`` as Python source, as ``ruff format`` writes it (texts in double quotes)."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        items = ", ".join(_literal(item) for item in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    return repr(value)


def _lines(indent: int, head: str, value: object, tail: str = ",") -> list[str]:
    """``head value tail`` on one line where it fits in 120 characters, else a tuple one item a
    line (as ``ruff format`` lays it out)."""
    pad = " " * indent
    one = f"{pad}{head}{_literal(value)}{tail}"
    if len(one) <= 120 or not isinstance(value, tuple):
        return [one]
    return [f"{pad}{head}(", *(line for item in value for line in _lines(indent + 4, "", item)), f"{pad}){tail}"]


def render_module(family: Family) -> str:
    bounds, links_of, unlinked = bounds_of(family)
    lines = [
        f'"""The schema constraints of the {family.name} family\'s records, by class and field.',
        "",
        "Generated by compiler/tools/bounds.py from the family's schemas, through each record class's",
        "``_schema`` link (``LINKS``; a field is linked to that object's property of its name): do not",
        "edit. ``civrules_runtime.records.bound`` holds the records made by calling their class, changed",
        "or unpickled to these constraints (the family's data schemas' own, for every ruleset).",
        "",
        "Fields of linked classes that no property of their name constrains (none is held here):",
        "",
    ]
    lines += [f"- {name}" for name in unlinked] or ["- none"]
    lines += ['"""', "", "from __future__ import annotations", ""]
    lines.append("#: Each linked class's schema object (a file of the family's schemas and a JSON pointer in it).")
    lines.append("LINKS: dict[str, str] = {")
    lines += [f"    {_literal(cls)}: {_literal(link)}," for cls, link in links_of.items()]
    lines.append("}")
    lines.append("")
    lines.append(
        "#: Each class's constrained fields, by JSON Schema's keywords (``not_const``: ``not: {const: ...}``)."
    )
    lines.append("BOUNDS: dict[str, dict[str, tuple[tuple[str, object], ...]]] = {")
    for cls, fields in bounds.items():
        lines.append(f"    {_literal(cls)}: {{")
        for field, found in fields.items():
            lines += _lines(8, f"{_literal(field)}: ", tuple(found))
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def rendered() -> dict[Path, str]:
    """Every shipped family's ``bounds`` module, by where it is written."""
    return {target(f): render_module(f) for f in shipped_families()}


def main(argv: list[str]) -> int:
    return write_or_check(rendered(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
