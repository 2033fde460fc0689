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
    """A record class's links to the schema, read from the class body: its schema object
    (``_schema``; None where its fields come from several) and the fields linked otherwise than to
    that object's property of their name (``_properties``)."""

    def __init__(
        self, name: str, schema: str | None, fields: list[tuple[str, str]], properties: dict[str, str]
    ) -> None:
        self.name, self.schema, self.fields = name, schema, fields  # fields: (name, annotation)
        self.properties = properties


def links(source: str) -> list[Link]:
    """The linked record classes of a ``records.py`` source, in the order they are defined."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        schema = None
        properties: dict[str, str] = {}
        slots: list[str] = []
        annotations: dict[str, str] = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                name = item.targets[0].id
                if name == "_schema" and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    schema = item.value.value
                elif name == "_properties" and isinstance(item.value, ast.Dict):
                    properties = _texts(item.value)
                elif name == "__slots__" and isinstance(item.value, ast.Tuple):
                    slots = [
                        e.value for e in item.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                if item.target.id == "_properties" and isinstance(item.value, ast.Dict):
                    properties = _texts(item.value)
                else:
                    annotations[item.target.id] = ast.unparse(item.annotation)
        if schema is not None or properties:
            fields = [(slot, annotations.get(slot, "")) for slot in slots if not slot.startswith("_")]
            found.append(Link(node.name, schema, fields, properties))
    return found


def _texts(node: ast.Dict) -> dict[str, str]:
    """A dict literal's entries of a text to a text."""
    return {
        key.value: value.value
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant)
        and isinstance(key.value, str)
        and isinstance(value, ast.Constant)
        and isinstance(value.value, str)
    }


def _pointer(schema: dict[str, Any], pointer: str) -> Any:
    node: Any = schema
    for part in pointer.lstrip("#").strip("/").split("/"):
        if part:
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
    return node


#: The annotation words of the values of each JSON type.
JSON_TYPES: dict[str, frozenset[str]] = {
    "array": frozenset({"tuple"}),
    "integer": frozenset({"int"}),
    "number": frozenset({"int", "float"}),
    "string": frozenset({"str"}),
    "boolean": frozenset({"bool"}),
}


def _fits(schema: dict[str, Any], branch: Any, words: set[str]) -> bool:
    """Whether a value of a field of annotation ``words`` can be of ``branch``'s JSON type (a branch
    of no declared type, a constant or an object, does not fit a field that holds no record)."""
    for _ in range(20):
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        branch = _pointer(schema, ref)
    if not isinstance(branch, dict):
        return False
    kind = branch.get("type")
    if isinstance(kind, str):
        return bool(words & JSON_TYPES.get(kind, frozenset()))
    if "const" in branch:
        return type(branch["const"]).__name__ in words
    return False


def _known(schema: dict[str, Any], node: Any, words: set[str] | None = None) -> Any:
    """The schema of a known value of ``node``: its reference followed, and a fact's ``oneOf``/``anyOf``
    with ``{unknown: why}`` read as the fact's one other branch (None where several remain). Where
    the field's annotation ``words`` are given, of several branches the one its values can be of
    is read (a citation written as one section or a list of them: its list for a tuple; a count or
    an object: the count for an ``int``)."""
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
                if len(known) > 1 and words is not None:
                    known = [b for b in known if _fits(schema, b, words)]
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
    words = set(annotation.replace("[", " ").replace("]", " ").replace(",", " ").replace("|", " ").split())
    node = _known(schema, prop, words)
    if _allows_unknown(schema, prop) and "None" not in annotation:
        required = False
    if not isinstance(node, dict):
        return []
    found = _constraints_of(node, words, required)
    item_words = words - {"tuple"}
    items = _known(schema, node.get("items"), item_words) if "tuple" in words and "items" in node else None
    if isinstance(items, dict):  # each item's own: a minimum, a pattern, an enum (not a list's)
        found += [
            (f"items_{key}", value)
            for key, value in _constraints_of(items, item_words, True)
            if key not in LIST_CONSTRAINTS
        ]
    return found


#: The constraints of a list as a whole (those of its items are the others, written ``items_<key>``).
LIST_CONSTRAINTS = frozenset({"minItems", "minItems_or_absent", "maxItems", "uniqueItems"})


def _constraints_of(node: dict[str, Any], words: set[str], required: bool) -> list[tuple[str, object]]:
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
) -> tuple[dict[str, dict[str, list[tuple[str, object]]]], dict[str, str], dict[str, dict[str, str]], list[str]]:
    """Each linked class's constrained fields (their constraints), each linked class's schema
    object, where each constrained field's property is when it is not that object's property of
    the field's name, and the fields of linked classes that no property constrains."""
    files = {file: family.qualified_kind(kind) for kind, file in family.kinds.items()}
    source = (runtime_dir(family) / "records.py").read_text(encoding="utf-8")
    bounds: dict[str, dict[str, list[tuple[str, object]]]] = {}
    links_of: dict[str, str] = {}
    where: dict[str, dict[str, str]] = {}
    unlinked: list[str] = []

    def schema_of(name: str, link: str) -> tuple[dict[str, Any], str]:
        file, _, pointer = link.partition("#")
        if file not in files:
            raise SystemExit(f"{name} links {link!r}: {file!r} is not a schema of the family ({sorted(files)})")
        return load_schema(files[file]), pointer

    for link in links(source):
        obj: Any = None
        if link.schema is not None:
            schema, pointer = schema_of(link.name, link.schema)
            try:
                obj = _pointer(schema, pointer)
                obj["properties"]
            except (KeyError, TypeError, IndexError) as error:
                raise SystemExit(f"{link.name}._schema = {link.schema!r}: no object with properties there") from error
            links_of[link.name] = link.schema
        for field, annotation in link.fields:
            path = link.properties.get(field, field)
            if field == "rules" and field not in link.properties and obj is not None:
                cited = _citations(schema, obj, pointer)
                if cited is not None:
                    bounds.setdefault(link.name, {})[field] = [cited[0]]
                    file = str(link.schema).partition("#")[0]
                    where.setdefault(link.name, {})[field] = " or ".join(f"{file}#{at}" for at in cited[1])
                    continue
            try:
                if "#" in path:  # a property of another object: file#pointer
                    field_schema, at = schema_of(link.name, path)
                    prop = _pointer(field_schema, at)
                    parent, _, name = at.rpartition("/properties/")
                    required = bool(parent) and name in _pointer(field_schema, parent).get("required", ())
                    located = path
                elif obj is None:
                    unlinked.append(f"{link.name}.{field}")
                    continue
                else:  # a property of the class's object, or of an object in it: "players/min"
                    field_schema, node, at = schema, obj, pointer
                    prop, required = None, True
                    for part in path.split("/"):
                        node, at = _object_at(field_schema, node, at, part)
                        if not isinstance(node, dict) or part not in node.get("properties", {}):
                            prop = None
                            break
                        required = required and part in node.get("required", ())
                        prop, at = node["properties"][part], f"{at}/properties/{part}"
                        node = prop
                    file = str(link.schema).partition("#")[0]
                    located = f"{link.schema}/properties/{field}" if path == field else f"{file}#{at}"
            except (KeyError, TypeError, IndexError) as error:
                raise SystemExit(f"{link.name}.{field} links {path!r}: no property there") from error
            if prop is None:
                if field in link.properties:
                    raise SystemExit(f"{link.name}._properties links {field} to {path!r}: no property there")
                unlinked.append(f"{link.name}.{field}")
                continue
            found = constraints(field_schema, prop, annotation, required)
            if found:
                bounds.setdefault(link.name, {})[field] = found
                if link.schema is None or located != f"{link.schema}/properties/{field}":
                    where.setdefault(link.name, {})[field] = located
            else:
                unlinked.append(f"{link.name}.{field}")
    return bounds, links_of, where, unlinked


def _citations(schema: dict[str, Any], obj: Any, at: str) -> tuple[tuple[str, object], list[str]] | None:
    """The constraint on each item of a record's ``rules`` (its fact's ``rule`` sections, then its
    ``source``): each item is a section as the object's ``rule`` property writes one, or a source as
    its ``source`` property does (``items_any_of``: the constraints of either), and where those
    properties are; None where the object has neither."""
    node, at = _object_at(schema, obj, at)
    properties = node.get("properties", {}) if isinstance(node, dict) else {}
    forms = []
    located = []
    for name in ("rule", "source"):
        if name not in properties:
            continue
        text = _known(schema, properties[name], {"str"})
        if isinstance(text, dict):
            found = [(key, value) for key, value in _constraints_of(text, {"str"}, True) if key not in LIST_CONSTRAINTS]
            if found:
                forms.append(tuple(found))
                located.append(f"{at}/properties/{name}")
    if not forms:
        return None
    return ("items_any_of", tuple(forms)), located


def settings_bounds_of(
    family: Family,
) -> tuple[dict[str, dict[str, list[tuple[str, object]]]], dict[str, dict[str, str]], list[str]]:
    """Each settings record class's constrained fields (their constraints) and where each field's
    property is, by class and field, and the fields no property constrains. The settings records
    are made from the schemas (:func:`civrules.emit.settings_types.settings_types`), each field from
    one property: that property is its link. Their classes are the runtime's ``settings`` module's,
    whose names may be the records' (``HandLimit``), so they are written apart."""
    from civrules.emit.settings_types import settings_types

    files = {family.qualified_kind(kind): file for kind, file in family.kinds.items()}
    pointers: dict[int, dict[int, str]] = {}  # each schema's nodes' JSON pointers, by their ids
    bounds: dict[str, dict[str, list[tuple[str, object]]]] = {}
    where: dict[str, dict[str, str]] = {}
    unlinked: list[str] = []
    for spec in settings_types(family).records.values():
        for field in spec.fields:
            found: list[tuple[str, object]] = []
            located = None
            if field.schema is not None and field.schema[2] in files:
                prop, document, kind = field.schema
                if id(document) not in pointers:  # the schema the record was made from, whatever reads it since
                    pointers[id(document)] = _pointers(document)
                pointer = pointers[id(document)].get(id(prop))
                if pointer is not None:
                    # a present list is known: a setting the data leaves out is None, never an empty list
                    found = constraints(dict(document), prop, field.annotation(), True)
                    located = f"{files[kind]}#{pointer}"
            if found and located is not None:
                bounds.setdefault(spec.name, {})[field.attr] = found
                where.setdefault(spec.name, {})[field.attr] = located
            else:
                unlinked.append(f"{spec.name}.{field.attr}")
    return bounds, where, unlinked


def _pointers(document: Any) -> dict[int, str]:
    """The JSON pointer of each object and list in ``document``, by its id."""
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            found.setdefault(id(node), at)
            stack += [(value, f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}") for key, value in node.items()]
        elif isinstance(node, list):
            found.setdefault(id(node), at)
            stack += [(value, f"{at}/{index}") for index, value in enumerate(node)]
    return found


def _object_at(schema: dict[str, Any], node: Any, at: str, part: str | None = None) -> tuple[Any, str]:
    """``node`` (at pointer ``at``) with its references followed and a fact's one branch other than
    ``{unknown: why}`` taken, and where it then is; of several branches, the one object whose
    properties have ``part`` (``amount/all_but``: the ``{all_but: n}`` form of an amount)."""
    for _ in range(20):
        if not isinstance(node, dict):
            break
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and not ref.endswith("/unknown"):
            node, at = _pointer(schema, ref), ref[1:]
            continue
        taken = None
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                known = [
                    (index, branch)
                    for index, branch in enumerate(branches)
                    if not (isinstance(branch, dict) and str(branch.get("$ref", "")).endswith("/unknown"))
                ]
                if len(known) > 1 and part is not None:
                    known = [(index, branch) for index, branch in known if _has_property(schema, branch, part)]
                if len(known) == 1:
                    taken = (known[0][1], f"{at}/{key}/{known[0][0]}")
        if taken is None:
            break
        node, at = taken
    return node, at


def _has_property(schema: dict[str, Any], branch: Any, part: str) -> bool:
    """Whether ``branch`` (its references followed) is an object with the property ``part``."""
    for _ in range(20):
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/")):
            break
        branch = _pointer(schema, ref)
    return isinstance(branch, dict) and part in branch.get("properties", {})


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
    bounds, links_of, where, unlinked = bounds_of(family)
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
    lines.append("")
    lines.append(
        "#: Where a constrained field's property is, by class and field, when it is not its class's object's property"
    )
    lines.append("#: of the field's name (a class's ``_properties``: another name, or another object's).")
    lines.append("WHERE: dict[str, dict[str, str]] = {" + ("" if where else "}"))
    for cls, located in where.items():
        lines.append(f"    {_literal(cls)}: {{")
        lines += [f"        {_literal(field)}: {_literal(at)}," for field, at in located.items()]
        lines.append("    },")
    lines += ["}"] if where else []
    settings, settings_where, settings_unlinked = settings_bounds_of(family)
    lines += [
        "",
        "#: Each settings record class's constrained fields (the runtime's ``settings`` module's classes, whose names",
        "#: may be records' too), by the same keywords. Settings fields no property constrains:",
        *_comment_lines(settings_unlinked),
        "SETTINGS_BOUNDS: dict[str, dict[str, tuple[tuple[str, object], ...]]] = {" + ("" if settings else "}"),
    ]
    for cls, fields in settings.items():
        lines.append(f"    {_literal(cls)}: {{")
        for field, found in fields.items():
            lines += _lines(8, f"{_literal(field)}: ", tuple(found))
        lines.append("    },")
    lines += ["}"] if settings else []
    lines += [
        "",
        "#: Where each constrained settings field's property is, by class and field.",
        "SETTINGS_WHERE: dict[str, dict[str, str]] = {" + ("" if settings_where else "}"),
    ]
    for cls, located in settings_where.items():
        lines.append(f"    {_literal(cls)}: {{")
        lines += _where_lines(located)
        lines.append("    },")
    lines += ["}"] if settings_where else []
    return "\n".join(lines) + "\n"


def _comment_lines(names: list[str]) -> list[str]:
    """``names`` as comment lines of at most 120 characters (``none`` where there are none)."""
    lines: list[str] = []
    current = "#:"
    for name in names or ["none"]:
        if len(current) + 1 + len(name) + 1 > 120:
            lines.append(current.rstrip(","))
            current = "#:"
        current += f" {name},"
    return [*lines, current.rstrip(",")]


def _where_lines(located: dict[str, str]) -> list[str]:
    """A class's fields and their properties, one a line (split as ``ruff format`` splits a long one)."""
    lines = []
    for field, at in located.items():
        one = f"        {_literal(field)}: {_literal(at)},"
        lines += (
            [one] if len(one) <= 120 else [f"        {_literal(field)}: (", f"            {_literal(at)}", "        ),"]
        )
    return lines


def rendered() -> dict[Path, str]:
    """Every shipped family's ``bounds`` module, by where it is written."""
    return {target(f): render_module(f) for f in shipped_families()}


def main(argv: list[str]) -> int:
    return write_or_check(rendered(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
