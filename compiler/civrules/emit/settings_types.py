"""The typed records of a family's SETTINGS, read from its schemas.

A generated package's ``SETTINGS`` holds every ruleset-level rule (the settings of ``civrules
export``). Its type follows the family's schemas: each object a schema defines for a setting is a
record class of the family runtime's ``settings`` module (written by ``python -m tools.settings``
from what :func:`settings_types` computes), and each package's ``data.py`` constructs them
(:func:`settings_value`). A record is also the ``Mapping[str, object]`` SETTINGS was before: the
same keys (the data's own spelling, sorted), nested the same way, unknown facts None.

How a schema becomes a type: ``{unknown: why}`` → None (as every other record has it); a string,
integer, boolean, number → ``str``, ``int``, ``bool``, ``float`` (an ``enum`` or ``const`` → the type
of its values); an array → ``tuple[T, ...]``; an object with ``properties`` → a record (a ``$defs``
object is one record wherever it is used); an object of free keys → ``Mapping[str, T]``; the
alternatives of ``oneOf``/``anyOf`` → a union. A field the schema does not require is ``T | None``
(None: absent; ``record.unknown_fields`` and ``key in record`` tell absent from unknown).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from civrules.emit.pyfmt import Code, Node, call, dct, record_call, string, tup
from civrules.families import Family
from civrules.schema import load_schema

#: Names a field cannot have as an attribute (the Mapping's and the record's methods, Python's
#: keywords): such a field is the attribute ``<name>_`` and the key ``<name>``.
_RESERVED = frozenset({"get", "items", "keys", "values", "replace", "asdict", "unknown_fields"})

#: The manifest keys that are not settings (``civrules.emit.export``: the header and the file list).
_NOT_SETTINGS = frozenset({"kind", "family", "overlay", "files", "id", "name", "extends", "players"})


@dataclass(frozen=True)
class Shape:
    """How one value is typed and written: ``kind`` is scalar, none, tuple, record, mapping, union or any."""

    kind: str
    type: str = "object"  # the scalar's Python type, or the record's class name
    items: tuple[Shape, ...] = ()

    def annotation(self) -> str:
        if self.kind in ("scalar", "record"):
            return self.type
        if self.kind == "none":
            return "None"
        if self.kind == "tuple":
            return f"tuple[{self.items[0].annotation()}, ...]"
        if self.kind == "mapping":
            return f"Mapping[str, {self.items[0].annotation()}]"
        if self.kind == "union":
            names = [i.annotation() for i in self.items if i.kind != "none"]
            unique = list(dict.fromkeys(names))
            if any(i.kind == "none" for i in self.items):
                unique.append("None")
            return " | ".join(unique)
        return "object"

    def accepts_none(self) -> bool:
        return self.kind in ("none", "any") or (self.kind == "union" and any(i.accepts_none() for i in self.items))


@dataclass(frozen=True)
class FieldSpec:
    key: str  # as the data writes it
    attr: str  # as the record's attribute
    shape: Shape
    required: bool
    doc: str
    #: The field's property, the schema that holds it and that schema's qualified kind (None: a field
    #: no property gives, a slot's settings): compiler/tools/bounds.py writes its constraints from it.
    schema: tuple[Mapping[str, Any], Mapping[str, Any], str] | None = field(default=None, compare=False, repr=False)

    def annotation(self) -> str:
        text = self.shape.annotation()
        if not self.required and not self.shape.accepts_none():
            text += " | None"
        return text


@dataclass
class RecordSpec:
    name: str
    doc: str
    fields: list[FieldSpec] = field(default_factory=list)

    def field_by_key(self) -> dict[str, FieldSpec]:
        return {f.key: f for f in self.fields}


@dataclass
class SettingsTypes:
    """A family's settings records (in the order the module defines them), the root last."""

    records: dict[str, RecordSpec]
    root: str = "Settings"
    #: Each record's keys and required keys, by its name, made when first asked for (:meth:`keys`).
    _keys: dict[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict, repr=False, compare=False)

    def keys(self, record: str) -> tuple[frozenset[str], frozenset[str]]:
        """The keys of the record named ``record``, and those of them it requires: made once (the
        records are complete once :func:`settings_types` returns them), not a dict of its fields
        for every value a union or a record asks about (SETTINGS: hundreds a data module)."""
        found = self._keys.get(record)
        if found is None:
            fields = self.records[record].field_by_key()
            found = self._keys[record] = (frozenset(fields), frozenset(k for k, f in fields.items() if f.required))
        return found


def attribute(key: str) -> str:
    """The attribute of a setting's key (``from`` → ``from_``)."""
    name = re.sub(r"\W", "_", key)
    if keyword.iskeyword(name) or name in _RESERVED or name[:1].isdigit():
        name += "_"
    return name


def _camel(key: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", key) if part)


def _singular(key: str) -> str:
    if key.endswith("ies"):
        return key[:-3] + "y"
    if key.endswith("s") and not key.endswith("ss"):
        return key[:-1]
    return key + "_item"


def _first_line(text: str) -> str:
    return " ".join(text.split())


class _Builder:
    def __init__(self) -> None:
        self.records: dict[str, RecordSpec] = {}
        self.by_node: dict[int, tuple[Mapping[str, Any], str]] = {}  # a schema object's record, by its id
        self.described = ""  # the description of the field whose type is being made
        self.kinds: dict[int, str] = {}  # each schema read, by its id: its qualified kind

    def located(
        self, node: Mapping[str, Any], doc: Mapping[str, Any]
    ) -> tuple[Mapping[str, Any], Mapping[str, Any], str] | None:
        """``node``, the schema ``doc`` that holds it and that schema's qualified kind."""
        kind = self.kinds.get(id(doc))
        return None if kind is None else (node, doc, kind)

    def deref(self, node: Mapping[str, Any], doc: Mapping[str, Any]) -> tuple[Mapping[str, Any], str | None]:
        """The node a ``$ref`` points at (followed to the end), and the name of the last ``$defs`` entry."""
        name = None
        while "$ref" in node:
            ref = node["$ref"]
            name = ref.rsplit("/", 1)[-1]
            target: Any = doc
            for part in ref.lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node, name

    def shape(self, node: Mapping[str, Any], doc: Mapping[str, Any], hint: str) -> Shape:
        if "$ref" in node:
            target, name = self.deref(node, doc)
            if name == "unknown":
                return Shape("none")
            if name and self._is_record(target, doc):
                hint = _camel(name)
            elif name and target.get("type") == "array":
                hint = _camel(_singular(name))
            return self.shape(target, doc, hint)
        alternatives = [
            alt
            for key in ("oneOf", "anyOf")
            for alt in node.get(key, ())
            if any(k in alt for k in ("$ref", "type", "properties", "const", "enum", "items"))
        ]
        if alternatives and "type" not in node and "properties" not in node:
            shapes: list[Shape] = []
            for i, alt in enumerate(alternatives):
                shape = self.shape(alt, doc, hint if i == 0 else f"{hint}{i + 1}")
                shapes.extend(shape.items if shape.kind == "union" else (shape,))
            return _union(shapes)
        if "const" in node:
            return _scalar(node["const"])
        if "enum" in node:
            return _union([_scalar(v) for v in node["enum"]])
        kind = node.get("type")
        if isinstance(kind, list):
            return _union([self.shape({**node, "type": k}, doc, hint) for k in kind])
        if kind == "string":
            return Shape("scalar", "str")
        if kind == "integer":
            return Shape("scalar", "int")
        if kind == "number":
            return Shape("scalar", "float")
        if kind == "boolean":
            return Shape("scalar", "bool")
        if kind == "null":
            return Shape("none")
        if kind == "array":
            items = node.get("items")
            inner = self.shape(items, doc, hint) if isinstance(items, Mapping) else Shape("any")
            return Shape("tuple", items=(inner,))
        if kind == "object" or "properties" in node:
            if self._properties(node, doc):
                return Shape("record", self.record(node, doc, hint))
            extra = node.get("additionalProperties")
            if isinstance(extra, Mapping):
                return Shape("mapping", items=(self.shape(extra, doc, hint),))
            return Shape("mapping", items=(Shape("any"),))
        return Shape("any")

    def _is_record(self, node: Mapping[str, Any], doc: Mapping[str, Any]) -> bool:
        return bool(self._properties(node, doc))

    def _properties(self, node: Mapping[str, Any], doc: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
        out: dict[str, Mapping[str, Any]] = dict(node.get("properties", {}))
        for part in node.get("allOf", ()):
            target, _ = self.deref(part, doc)
            out.update(self._properties(target, doc))
        return out

    def _required(self, node: Mapping[str, Any], doc: Mapping[str, Any]) -> set[str]:
        out = set(node.get("required", ()))
        for part in node.get("allOf", ()):
            target, _ = self.deref(part, doc)
            out |= self._required(target, doc)
        return out

    def record(
        self,
        node: Mapping[str, Any],
        doc: Mapping[str, Any],
        name: str,
        *,
        properties: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]] | None = None,
        required: set[str] | None = None,
        prefix: str | None = None,
    ) -> str:
        known = self.by_node.get(id(node))
        if known is not None and known[0] is node and properties is None:
            return known[1]
        while name in self.records:
            name += "_"
        spec = RecordSpec(name, _first_line(str(node.get("description") or self.described)))
        self.records[name] = spec  # before the fields: a record may hold itself
        if properties is None:
            self.by_node[id(node)] = (node, name)  # the node kept: its id is not reused
            properties = [(key, sub, doc) for key, sub in self._properties(node, doc).items()]
            required = self._required(node, doc)
        for key, sub, sub_doc in properties:
            target, _ = self.deref(sub, sub_doc) if "$ref" in sub else (sub, None)
            is_list = target.get("type") == "array"
            hint = (name if prefix is None else prefix) + _camel(_singular(key) if is_list else key)
            doc_text = sub.get("description") or target.get("description") or ""
            self.described = doc_text
            shape = self.shape(sub, sub_doc, hint or _camel(key))
            if shape.kind == "none":
                doc_text = f"{doc_text} {_ALWAYS_NONE.format(key=key)}".strip()
            spec.fields.append(
                FieldSpec(
                    key,
                    attribute(key),
                    shape,
                    key in (required or ()),
                    _first_line(doc_text),
                    self.located(sub, sub_doc),
                )
            )
        # the module defines a record after the records its fields use
        self.records[name] = self.records.pop(name)
        return name


def _scalar(item: Any) -> Shape:
    if item is None:
        return Shape("none")
    if isinstance(item, bool):
        return Shape("scalar", "bool")
    if isinstance(item, int):
        return Shape("scalar", "int")
    if isinstance(item, float):
        return Shape("scalar", "float")
    return Shape("scalar", "str")


def _union(shapes: Sequence[Shape]) -> Shape:
    unique = list(dict.fromkeys(shapes))
    if any(s.kind == "any" for s in unique):
        return Shape("any")
    return unique[0] if len(unique) == 1 else Shape("union", items=tuple(unique))


#: What a field typed None says (the data give it only as {unknown: why}): the type alone reads
#: as a field with no value, so its comment says where an engine reads the fact.
_ALWAYS_NONE = "Always None, since the data write it only as {{unknown: why}}: {key!r} in unknown_fields where they do."

#: What a collection is as a setting: only where it is unknown as a whole.
_WHOLE = (
    "Not a setting: the {collection} collection is a table of the package, and where the sources do not give it, "
    "the package's UNKNOWN_COLLECTIONS names that table."
)


def _whole(collection: str) -> dict[str, str]:
    """The schema of a collection as a setting: {unknown: why} for the whole of it."""
    return {"$ref": "#/$defs/unknown", "description": _WHOLE.format(collection=collection)}


def _may_be_unknown(builder: _Builder, node: Mapping[str, Any], doc: Mapping[str, Any]) -> bool:
    """Whether a schema accepts {unknown: why} for the whole value."""
    target, _ = builder.deref(node, doc) if "$ref" in node else (node, None)
    return any(alt.get("$ref") == "#/$defs/unknown" for key in ("anyOf", "oneOf") for alt in target.get(key, ()))


def settings_types(family: Family) -> SettingsTypes:
    """The record classes of ``family``'s SETTINGS: the manifest's settings (every top-level key that
    is not the header, the file list or a list collection), then each data file's settings as a
    record named by its slot."""
    found = _CACHE.get(family.id)
    if found is None:
        found = _CACHE[family.id] = _settings_types(family)
    return found


_CACHE: dict[str, SettingsTypes] = {}


def _settings_types(family: Family) -> SettingsTypes:
    builder = _Builder()
    manifest = load_schema(family.qualified_kind("ruleset"))
    builder.kinds[id(manifest)] = family.qualified_kind("ruleset")
    roots = {spec.path[0]: spec for spec in family.collections.values() if spec.slot == "ruleset"}
    nested = {
        spec.path[1]: name for name, spec in family.collections.items() if spec.slot == "ruleset" and len(spec.path) > 1
    }
    names = {spec.path: name for name, spec in family.collections.items() if spec.slot == "ruleset"}
    top: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = []
    for key, sub in manifest.get("properties", {}).items():
        if key in _NOT_SETTINGS:
            continue
        if key in roots:
            target, _ = builder.deref(sub, manifest) if "$ref" in sub else (sub, None)
            kept = {
                k: v if k not in nested else _whole(nested[k])
                for k, v in builder._properties(target, manifest).items()
                if k not in nested or _may_be_unknown(builder, v, manifest)
            }
            if target.get("type") != "object" or not kept:
                # a collection of its own: a table of the package, not a setting; but the whole
                # collection {unknown: why} is a setting (None: unknown)
                if _may_be_unknown(builder, sub, manifest):
                    top.append((key, _whole(names.get((key,), key)), manifest))
                continue
            required = builder._required(target, manifest) - set(nested)
            sub = {**target, "properties": kept, "required": sorted(required), "allOf": []}
        top.append((key, sub, manifest))
    slots: dict[str, list[str]] = {}
    for key, slot in family.settings.items():
        if slot != "ruleset":
            slots.setdefault(slot, []).append(key)
    for slot in sorted(slots):
        schema = load_schema(family.slot_kind(slot))
        builder.kinds[id(schema)] = family.slot_kind(slot)
        properties = schema.get("properties", {})
        builder.record(
            {"description": f"The settings of the ruleset's {slot} files."},
            schema,
            _camel(slot),
            properties=[(key, properties[key], schema) for key in slots[slot] if key in properties],
            required=set(),
            prefix="",
        )
    builder.record(
        {"description": f"Every ruleset-level rule of a {family.name} ruleset (SETTINGS)."},
        manifest,
        "Settings",
        properties=top,
        required=set(manifest.get("required", ())) - _NOT_SETTINGS,
        prefix="",
    )
    root = builder.records["Settings"]
    for slot in sorted(slots):
        root.fields.append(
            FieldSpec(slot, attribute(slot), Shape("record", _camel(slot)), False, f"The settings of the {slot} files.")
        )
    return SettingsTypes(builder.records)


def settings_classes(types: SettingsTypes, prefix: str) -> tuple[str, ...]:
    """The name (``prefix`` + class name) of each settings record class :func:`settings_value` may make."""
    return tuple(prefix + spec.name for spec in types.records.values())


def settings_value(types: SettingsTypes, settings: Mapping[str, Any], prefix: str, *, makers: bool = False) -> Node:
    """The expression ``data.py`` writes for SETTINGS: the records (``prefix`` + class name) of
    ``settings`` as ``civrules export`` gives them; ``makers``: each made through the maker of its
    class (:func:`civrules.emit.pyfmt.record_call`, unchecked), which the module's head binds
    (:func:`civrules.emit.pyfmt.used_makers` of :func:`settings_classes`), else by a call of its
    class (checked when the package is imported)."""
    make = record_call if makers else call
    return _value(types, Shape("record", types.root), settings, prefix, "SETTINGS", make)


#: Values that are no mapping, told by their exact type (most of SETTINGS' values): the ``Mapping``
#: ABC is a call into Python for each.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _is_unknown(item: Any) -> bool:
    kind = type(item)
    if kind is dict:
        return len(item) == 1 and "unknown" in item
    return kind not in _SCALARS and isinstance(item, Mapping) and set(item) == {"unknown"}


def _plain(item: Any) -> Node:
    """Data no schema types (``object``): read-only mappings and tuples, as SETTINGS was."""
    kind = type(item)  # the scalars by exact type first: the Mapping ABC is a call into Python
    if kind is str:
        return string(" ".join(item.split()) if "\n" in item else item)
    if kind is int or kind is bool or kind is float:
        return Code(repr(item))
    if _is_unknown(item) or item is None:
        return Code("None")
    if isinstance(item, Mapping):
        return call("FrozenMap", dct([(string(str(k)), _plain(v)) for k, v in sorted(item.items())]))
    if isinstance(item, list | tuple):
        return tup([_plain(v) for v in item])
    if isinstance(item, str):
        return string(" ".join(item.split()) if "\n" in item else item)
    return Code(repr(item))


def _fits(types: SettingsTypes, shape: Shape, item: Any) -> bool:
    kind = shape.kind
    if kind == "any":
        return True
    if kind == "none":
        return item is None or _is_unknown(item)
    if kind == "scalar":
        python = {"str": str, "int": int, "float": float, "bool": bool}[shape.type]
        if isinstance(item, bool) and shape.type != "bool":
            return False
        return isinstance(item, python) or (shape.type == "float" and isinstance(item, int))
    if kind == "tuple":
        return isinstance(item, list | tuple) and all(_fits(types, shape.items[0], i) for i in item)
    if kind == "mapping":
        return isinstance(item, Mapping) and not _is_unknown(item)
    if kind == "record":
        if not isinstance(item, Mapping) or _is_unknown(item):
            return False
        known, required = types.keys(shape.type)
        return known.issuperset(item) and all(key in item for key in required)
    return any(_fits(types, s, item) for s in shape.items)


def _value(
    types: SettingsTypes, shape: Shape, item: Any, prefix: str, where: str, make: Callable[..., Node] = call
) -> Node:
    if item is None or _is_unknown(item):
        return Code("None")
    kind = shape.kind
    if kind == "union":
        for alternative in shape.items:
            if alternative.kind != "none" and _fits(types, alternative, item):
                return _value(types, alternative, item, prefix, where, make)
        raise ValueError(f"{where}: {item!r} fits none of {shape.annotation()}")
    if kind in ("scalar", "any"):
        return _plain(item)
    if kind == "tuple":
        return tup([_value(types, shape.items[0], v, prefix, f"{where}[{i}]", make) for i, v in enumerate(item)])
    if kind == "mapping":
        inner = shape.items[0]
        pairs = [
            (string(str(k)), _value(types, inner, v, prefix, f"{where}.{k}", make)) for k, v in sorted(item.items())
        ]
        return call("FrozenMap", dct(pairs))
    if not _fits(types, shape, item):
        raise ValueError(f"{where}: {sorted(item)} are not the fields of {shape.type}")
    spec = types.records[shape.type]
    arguments: dict[str, Node] = {}
    unknown: list[str] = []
    for f in spec.fields:
        if f.key not in item:
            continue
        found = item[f.key]
        if found is None or _is_unknown(found):
            unknown.append(f.key)
        arguments[f.attr] = _value(types, f.shape, found, prefix, f"{where}.{f.key}", make)
    if unknown:
        arguments["unknown_fields"] = tup([string(k) for k in unknown])
    return make(prefix + spec.name, **arguments)


def _fit(indent: int, opening: str, items: Sequence[str], closing: str, *, one_tuple: bool = False) -> list[str]:
    """``opening item, item closing`` on one line of at most 120 characters, else one item a line."""
    pad = " " * indent
    inner = ", ".join(items) + ("," if one_tuple and len(items) == 1 else "")
    line = f"{pad}{opening}{inner}{closing}"
    if len(line) <= 120:
        return [line]
    return [f"{pad}{opening}", *(f"{pad}    {item}," for item in items), f"{pad}{closing}"]


def _docstring(indent: int, text: str) -> list[str]:
    """A docstring of ``text`` wrapped at 100 characters."""
    pad = " " * indent
    text = text.replace("\\", "\\\\").replace('"' * 3, "'" * 3)
    lines = _wrap('"' * 3 + text, 100 - indent)
    if lines[-1].endswith('"'):
        lines[-1] += " "
    lines[-1] += '"' * 3
    return [pad + line for line in lines]


def render_module(family: Family, *, bounded: bool = False, retired: Iterable[str] = ()) -> str:
    """The family runtime's ``settings`` module: the records of :func:`settings_types`, formatted
    as ruff formats them; ``bounded``: its records are held to the schema constraints the runtime's
    ``bounds`` module gives them (``SETTINGS_BOUNDS``, written by compiler/tools/bounds.py);
    ``retired``: the names a released version of the module had and this one lacks (its
    ``_RETIRED``: ``civrules_runtime.errors.absent``)."""
    types = settings_types(family)
    out = [
        f'"""The records of the settings of every package of the {family.name} family (SETTINGS).',
        "",
        "Generated by ``python -m tools.settings`` from the family's schemas (do not edit): each object the",
        "schemas define for a ruleset-level rule is a record; SETTINGS is a :class:`Settings`. Every",
        "record is also the read-only ``Mapping[str, object]`` SETTINGS was before it was typed (the same",
        "keys, nested the same way), so ``SETTINGS.<section>.<field>`` and",
        "``SETTINGS['<section>']['<field>']`` give the same value. A field is None where the",
        "fact is absent or unknown (``key in record`` and ``record.unknown_fields`` tell which).",
        '"""',
        "",
        "# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow",
        "",
        "from __future__ import annotations",
        "",
    ]
    # Each name an annotation uses is imported at run time: typing.get_type_hints evaluates them.
    if any("Mapping[" in f.annotation() for spec in types.records.values() for f in spec.fields):
        out.append("from collections.abc import Mapping")
    out += [
        "from typing import Self",
        "",
        "from civrules_runtime.records import SettingsRecord" + (", bound" if bounded else "") + ", typed_replace",
        "",
    ]
    if bounded:
        out[-1:] = ["", "from .bounds import SETTINGS_BOUNDS, SETTINGS_WHERE", ""]
    out += [
        "TYPE_CHECKING = False",
        "",
        "_set = object.__setattr__",
        "",
        "__all__ = [",
        *(f'    "{name}",' for name in sorted(types.records)),
        "]",
    ]
    for spec in types.records.values():
        out += ["", ""]
        out.append(f"class {spec.name}(SettingsRecord):")
        out += _docstring(4, spec.doc or f"The settings of {spec.name}.")
        out.append("")
        attrs = [f'"{f.attr}"' for f in spec.fields]
        out += _fit(4, "__slots__ = (", attrs, ")", one_tuple=True)
        out += _fit(4, "__match_args__ = (", attrs, ")", one_tuple=True)
        if any(f.key != f.attr for f in spec.fields):
            out += _fit(4, "_setting_keys = (", [f'"{f.key}"' for f in spec.fields], ")", one_tuple=True)
        out.append("")
        for f in spec.fields:
            if f.doc:
                out += [f"    #: {line}" for line in _wrap(f.doc, 112)]
            out.append(f"    {f.attr}: {f.annotation()}")
        out.append("")
        params = [f"{f.attr}: {f.annotation()}" + ("" if f.required else " = None") for f in spec.fields] + [
            "unknown_fields: tuple[str, ...] = ()"
        ]
        out += _fit(4, "def __init__(", ["self", "*", *params], ") -> None:")
        out += [f'        _set(self, "{f.attr}", {f.attr})' for f in spec.fields]
        out.append('        _set(self, "_unknown", unknown_fields)')
        # replace() declared: each field keyword-only with its type, which type checkers and
        # inspect.signature read (at run time it is SettingsRecord.replace, which takes any field
        # by name and checks it when it runs)
        out += ["", "    @typed_replace"]
        out += _fit(
            4,
            "def replace(",
            ["self", "*", *(f"{f.attr}: {f.annotation()} = ..." for f in spec.fields)],
            ") -> Self:",
        )
        out.append("        raise NotImplementedError  # never called: the declaration of its signature")
    if bounded:
        out += ["", "", "bound(globals(), SETTINGS_BOUNDS, SETTINGS_WHERE)"]
    out += ["", "", *_retired_names(sorted(set(retired))), "", *ABSENT_NAMES]
    return "\n".join(out) + "\n"


#: The end of a runtime module whose records are pickled: a pickle names a record's class by its
#: module and name, and one this version of the module lacks is said so (``civrules_runtime.errors.absent``),
#: where pickle would say only "Can't get attribute". Hidden from type checkers, so that a name the
#: module lacks stays a type error.
ABSENT_NAMES = (
    "if not TYPE_CHECKING:  # a name this module lacks stays a type error",
    "",
    "    def __getattr__(name: str) -> object:",
    "        # A pickle names a record's class by its module and name: one this version lacks is said so.",
    "        from civrules_runtime.errors import absent",
    "",
    "        raise absent(__name__, name, _RETIRED)",
)


def _retired_names(retired: Sequence[str]) -> list[str]:
    """The module's ``_RETIRED``, as ruff formats it."""
    head = [
        "#: The names a released version of this module had and this one lacks (the ledger of released names,",
        "#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.",
    ]
    if not retired:
        return [*head, "_RETIRED: frozenset[str] = frozenset()"]
    names = [f'        "{name}",' for name in retired]
    return [*head, "_RETIRED: frozenset[str] = frozenset(", "    (", *names, "    )", ")"]


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines
