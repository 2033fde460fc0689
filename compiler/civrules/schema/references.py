"""References declared in the schemas: which field names an entity of which collection.

A property of a schema that holds ids of another collection says so with the vendor keyword
``x-civrules-ref`` (JSON Schema 2020-12 ignores keywords it does not know, as do fastjsonschema
and editors' yaml-language-server)::

    "card": {
      "x-civrules-ref": {"collection": "cards", "what": "prerequisite"},
      "$ref": "#/$defs/id"
    }

``collection`` is the collection the id must be in (a collection of the file's family,
or ``rulesets`` for a manifest id); ``what`` names the reference in diagnostics ("prerequisite
`x` does not exist in cards"). A property holding a list of ids (``blocked_by``,
a border's ``areas``) carries the annotation once: each id of the list is a reference.
``"check": "F009"`` declares a reference that the reference check X001 leaves to the check that
code names (which must report a bogus id there: tests/core/test_reference_owners.py puts one in
each); the editor navigates it all the same (go to definition, find references, completion,
rename). ``"check": false``, naming no check, is read as such a declaration whose owner is unknown;
the shipped schemas never use it.

This one declaration drives the reference check (:mod:`civrules.checks.references`) and the
language server (:mod:`civrules.lsp.index`); no table of reference edges is written anywhere else.
:func:`find_references` walks a value with the schema node that describes it and yields every
reference in it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import operator
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from civrules.load.document import NodePath
from civrules.schema.patterns import JSON_TYPES
from civrules.support.values import frozen_value

#: The vendor keyword of a reference annotation.
KEYWORD = "x-civrules-ref"

#: The operations a variant may write in place of a list (:mod:`civrules.resolve`).
LIST_OPERATIONS = frozenset({"remove", "replace", "patch", "insert", "append"})


@frozen_value
class Ref:
    """What an annotated field refers to: a collection, the reference in words, whether X001 checks
    it, and where it does not, the code of the check that does (``owner``)."""

    collection: str
    what: str
    check: bool = True
    owner: str | None = None


def declared(node: Any) -> Ref | None:
    """The reference a schema node declares (its own ``x-civrules-ref``), if any."""
    note = node.get(KEYWORD) if isinstance(node, dict) else None
    if not isinstance(note, dict):
        return None
    check = note.get("check", True)
    if isinstance(check, str):  # the code of the check that reads it instead of X001
        return Ref(str(note["collection"]), str(note["what"]), False, check)
    return Ref(str(note["collection"]), str(note["what"]), bool(check))


def find_references(
    schema: Mapping[str, Any], nodes: tuple[Any, ...], value: Any, *, patches: bool = False
) -> Iterator[tuple[NodePath, str, Ref]]:
    """Every id in ``value`` that the schema nodes ``nodes`` (of the schema document ``schema``;
    several where a path leads to several, see :func:`node_at`) declare a reference: its path
    under ``value``, the id, and what it refers to.

    Only string ids are yielded (a value of another type is the schema's to report). Where the
    schema offers alternatives (``oneOf``, ``anyOf``), those the value plainly contradicts (by its
    type, or the ``const`` of one of its fields, as an effect's ``kind``) are left out.
    With ``patches``, a mapping of list operations where a list is expected (a variant's
    ``{append: [...]}``) is walked as the elements it writes.

    >>> schema = {"$defs": {"id": {"type": "string"}}}
    >>> node = {"type": "object", "properties": {"card": {"x-civrules-ref": {
    ...     "collection": "cards", "what": "prerequisite"}, "$ref": "#/$defs/id"}}}
    >>> [(path, target) for path, target, _ in find_references(schema, (node,), {"card": "lantern"})]
    [(('card',), 'lantern')]
    """
    walked = _Schema(schema)
    found: list[tuple[NodePath, str, Ref]] = []
    _walk(walked, _nodes_of(walked, nodes), value, (), patches, found)
    return iter(found)


class _Schema:
    """A schema document with what the walk asks of its nodes remembered (schemas are loaded once)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema

    def branches(self, node: Any) -> list[dict[str, Any]]:
        return _branches_of(_Frozen(self.schema), _Frozen(node))


class _Frozen:
    """A schema node hashed by identity, for the caches below (schema nodes are never changed)."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node

    def __hash__(self) -> int:
        return id(self.node)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Frozen) and other.node is self.node


@functools.lru_cache(maxsize=4096)
def _branches_of(schema: _Frozen, node: _Frozen) -> list[dict[str, Any]]:
    """``node`` with its local ``$ref`` followed and ``allOf``/``anyOf``/``oneOf`` opened, each
    branch a node of its own (itself first)."""
    found: list[dict[str, Any]] = []
    seen: set[int] = set()

    def visit(current: Any, depth: int) -> None:
        if not isinstance(current, dict) or depth > 16 or id(current) in seen:
            return
        seen.add(id(current))
        found.append(current)
        target = current.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            visit(schema.node.get("$defs", {}).get(target[len("#/$defs/") :]), depth + 1)
        for keyword in ("allOf", "anyOf", "oneOf"):
            for branch in current.get(keyword, ()):
                visit(branch, depth + 1)

    visit(node.node, 0)
    return found


@functools.lru_cache(maxsize=4096)
def _may_refer(schema: _Frozen, node: _Frozen) -> bool:
    """Whether any reference is declared at or below ``node`` (a walk stops where none is)."""
    pending = [node.node]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if not isinstance(current, dict) or id(current) in seen:
            continue
        seen.add(id(current))
        for branch in _branches_of(schema, _Frozen(current)):
            if KEYWORD in branch:
                return True
            pending.extend(branch.get("properties", {}).values())
            for keyword in ("items", "additionalProperties"):
                if isinstance(branch.get(keyword), dict):
                    pending.append(branch[keyword])
    return False


def _admits(schema: _Schema, node: dict[str, Any], value: Any) -> bool:
    """False where ``node`` alone plainly refuses ``value`` (its type or const; an enum is the
    schema's to report, and a misspelt value must still be a reference)."""
    kinds = node.get("type")
    if isinstance(kinds, str):
        kinds = [kinds]
    if isinstance(kinds, list):
        allowed = tuple(t for k in kinds for t in JSON_TYPES.get(k, ()))
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            return False
    return not ("const" in node and node["const"] != value)


def _applies(schema: _Schema, branch: dict[str, Any], value: Any) -> bool:
    """Whether a branch may describe ``value``: it and the fields it fixes (an effect's `kind`) agree."""
    if not _admits(schema, branch, value):
        return False
    if isinstance(value, dict):
        for key, sub in branch.get("properties", {}).items():
            if key in value and not _fixed(schema, sub, value[key]):
                return False
    return True


def _fixed(schema: _Schema, node: Any, value: Any) -> bool:
    """Whether a field's value agrees with the ``const`` its node (through ``$ref``) fixes."""
    for _ in range(16):
        if not isinstance(node, dict):
            return True
        if "const" in node and node["const"] != value:
            return False
        target = node.get("$ref")
        if not (isinstance(target, str) and target.startswith("#/$defs/")):
            return True
        node = schema.schema.get("$defs", {}).get(target[len("#/$defs/") :])
    return True


def _alternatives(schema: _Schema, nodes: tuple[Any, ...], value: Any) -> list[dict[str, Any]]:
    """The branches of ``nodes`` that may describe ``value``.

    A branch whose alternative (of a ``oneOf``/``anyOf``) refuses the value is dropped with all it
    brings: an effect of kind `immunity` is described by `effect_immunity` only.
    """
    found: list[dict[str, Any]] = []
    for node in nodes:
        found.extend(_open(schema, node, value, 0))
    return found


def _open(schema: _Schema, node: Any, value: Any, depth: int) -> Iterator[dict[str, Any]]:
    if not isinstance(node, dict) or depth > 16 or not _applies(schema, node, value):
        return
    yield node
    target = node.get("$ref")
    if isinstance(target, str) and target.startswith("#/$defs/"):
        yield from _open(schema, schema.schema.get("$defs", {}).get(target[len("#/$defs/") :]), value, depth + 1)
    for keyword in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(keyword, ()):
            yield from _open(schema, branch, value, depth + 1)


class _Step:
    """What the walk needs of the nodes describing a value of one shape: the reference they
    declare, or the nodes of its fields and elements (computed once per nodes and shape)."""

    __slots__ = ("branches", "fields", "items", "ref")

    def __init__(self, ref: Ref | None, branches: tuple[dict[str, Any], ...], items: _Nodes | None) -> None:
        self.ref = ref
        self.branches = branches
        #: The nodes of each field seen (None: nothing is declared below it), filled as met.
        self.fields: dict[str, _Nodes | None] = {}
        self.items = items


class _Nodes:
    """Schema nodes (of one schema document) that describe a value, with the walk's step for each
    shape of value they met, and the nodes of each step's fields and elements, found once: a node
    of the data costs the walk a look-up in its parent's step, not a key of every node's identity
    and a ``repr`` of its fixed fields built again (the reference walk was most of X001's work).

    Made once per schema and nodes (:func:`_nodes_of`); holds them, so that their ids stay unique."""

    __slots__ = ("fixed", "nodes", "refers", "schema", "steps")

    def __init__(self, schema: _Schema, nodes: tuple[Any, ...]) -> None:
        self.schema = schema.schema
        self.nodes = nodes
        frozen = _Frozen(schema.schema)
        #: Whether any reference is declared at or below the nodes (the walk stops where none is).
        self.refers = any(_may_refer(frozen, _Frozen(node)) for node in nodes)
        #: The fields whose ``const`` decides which branches apply (an effect's `kind`).
        self.fixed = _fixed_keys(schema, nodes) if self.refers else ()
        #: Steps by the shape of a value: its type, and the ``repr`` of each fixed field's value.
        self.steps: dict[Any, _Step] = {}

    def step(self, schema: _Schema, value: Any) -> _Step:
        shape: Any = type(value)
        if self.fixed and isinstance(value, dict):
            shape = (shape, *[repr(value.get(k)) for k in self.fixed])
        found = self.steps.get(shape)
        if found is None:
            branches = tuple(_alternatives(schema, self.nodes, value))
            ref = next((r for r in map(declared, branches) if r is not None), None)
            items = tuple(b["items"] for b in branches if isinstance(b.get("items"), dict))
            found = self.steps[shape] = _Step(ref, branches, _nodes_of(schema, items) if items else None)
        return found

    def field(self, schema: _Schema, step: _Step, key: str) -> _Nodes | None:
        """The nodes of the field ``key`` of a value of ``step`` (None where nothing is declared below it)."""
        try:
            return step.fields[key]
        except KeyError:
            pass
        branches = step.branches
        found = tuple(b["properties"][key] for b in branches if key in b.get("properties", {}))
        if not found:
            found = tuple(
                b["additionalProperties"] for b in branches if isinstance(b.get("additionalProperties"), dict)
            )
        following = _nodes_of(schema, found) if found else None
        step.fields[key] = following = following if following is not None and following.refers else None
        return following


#: The nodes met by the walk, by the ids of their schema and nodes (each entry holds them).
_nodes: dict[tuple[int, ...], _Nodes] = {}
_fixing: dict[tuple[int, ...], tuple[tuple[str, ...], tuple[Any, ...]]] = {}


def _nodes_of(schema: _Schema, nodes: tuple[Any, ...]) -> _Nodes:
    key = (id(schema.schema), *map(id, nodes))
    found = _nodes.get(key)
    if found is None:
        found = _nodes[key] = _Nodes(schema, nodes)
    return found


def _fixed_keys(schema: _Schema, nodes: tuple[Any, ...]) -> tuple[str, ...]:
    """The fields whose ``const`` (in some branch of ``nodes``) decides which branches apply."""
    key = (id(schema.schema), *map(id, nodes))
    found = _fixing.get(key)
    if found is None:
        keys: set[str] = set()
        for node in nodes:
            for branch in schema.branches(node):
                for name, sub in branch.get("properties", {}).items():
                    if any("const" in b for b in schema.branches(sub)):
                        keys.add(name)
        found = _fixing[key] = (tuple(sorted(keys)), (schema.schema, *nodes))
    return found[0]


#: What the walk descends into: the rest holds no id.
_WALKED = (dict, list, str)


def _walk(
    schema: _Schema, at: _Nodes, value: Any, path: NodePath, patches: bool, found: list[tuple[NodePath, str, Ref]]
) -> None:
    """Append the references in ``value`` (described by ``at``) to ``found``, in the order of the
    data: one recursive function appending to a list, not a generator per level of nesting."""
    if not at.refers:
        return
    step = at.step(schema, value)
    if patches and _is_list_operations(value):
        _walk_operations(schema, at.nodes, value, path, found)
        return
    ref = step.ref
    if ref is not None:
        if isinstance(value, str):
            found.append((path, value, ref))
        elif isinstance(value, list):
            found.extend(((*path, i), item, ref) for i, item in enumerate(value) if isinstance(item, str))
        return
    if isinstance(value, dict):
        fields = step.fields
        for key, item in value.items():
            following = fields[key] if key in fields else at.field(schema, step, key)
            if following is not None and isinstance(item, _WALKED):
                _walk(schema, following, item, (*path, key), patches, found)
    elif isinstance(value, list):
        items = step.items
        if items is not None:
            for i, item in enumerate(value):
                if isinstance(item, _WALKED):
                    _walk(schema, items, item, (*path, i), patches, found)


def _is_list_operations(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and all(key in LIST_OPERATIONS for key in value)


def _walk_operations(
    schema: _Schema,
    nodes: tuple[Any, ...],
    value: dict[str, Any],
    path: NodePath,
    found: list[tuple[NodePath, str, Ref]],
) -> None:
    """A variant's list operations on a list described by ``nodes``: the elements they write, and
    the selectors that name elements by value or by fields."""
    items = tuple(b["items"] for b in _alternatives(schema, nodes, []) if isinstance(b.get("items"), dict))
    if not items:
        return
    at = _nodes_of(schema, items)
    for operation, entries in value.items():
        for i, entry in enumerate(entries if isinstance(entries, list) else ()):
            where: NodePath = (*path, operation, i)
            if operation in ("append", "remove"):
                _walk(schema, at, entry, where, True, found)
            elif isinstance(entry, dict):
                for key in ("where", "with", "before", "after"):
                    if key in entry:
                        _walk(schema, at, entry[key], (*where, key), True, found)
                for k, element in enumerate(entry.get("items") or () if operation == "insert" else ()):
                    _walk(schema, at, element, (*where, "items", k), True, found)


def node_at(schema: Mapping[str, Any], path: tuple[str, ...], *, item: bool = False) -> tuple[Any, ...]:
    """The schema nodes describing the value at the key path ``path`` of a document (lists
    entered where the schema has them); with ``item``, the nodes of that value's list elements.

    Found once for a schema and path (:func:`_nodes_at`): X001 asks it for each collection of
    each ruleset, and a session's update asks again for every ruleset an edit checks again (a
    base and its variants: about 180 walks of the same schemas an update of the largest shipped
    ruleset under ten variants)."""
    return _nodes_at(_Frozen(schema), tuple(path), item)


@functools.lru_cache(maxsize=1024)
def _nodes_at(frozen: _Frozen, path: tuple[str, ...], item: bool) -> tuple[Any, ...]:
    schema = frozen.node
    nodes: tuple[Any, ...] = (schema,)
    for key in path:
        following: list[Any] = []
        for node in nodes:
            for branch in _branches_of(frozen, _Frozen(node)):
                if key in branch.get("properties", {}):
                    following.append(branch["properties"][key])
                elif isinstance(branch.get("items"), dict):
                    following.extend(
                        b["properties"][key]
                        for b in _branches_of(frozen, _Frozen(branch["items"]))
                        if key in b.get("properties", {})
                    )
        nodes = tuple(following)
    return item_nodes(schema, nodes) if item else nodes


def item_nodes(schema: Mapping[str, Any], nodes: tuple[Any, ...]) -> tuple[Any, ...]:
    """The schema nodes of the elements of a list the schema nodes ``nodes`` describe."""
    frozen = _Frozen(schema)
    return tuple(
        b["items"] for node in nodes for b in _branches_of(frozen, _Frozen(node)) if isinstance(b.get("items"), dict)
    )


def ref_at(schema: Mapping[str, Any], nodes: tuple[Any, ...]) -> Ref | None:
    """The reference the schema nodes ``nodes`` declare (the first of their branches that does)."""
    frozen = _Frozen(schema)
    for node in nodes:
        for branch in _branches_of(frozen, _Frozen(node)):
            found = declared(branch)
            if found is not None:
                return found
    return None


def declared_references(schema: Mapping[str, Any]) -> Iterator[tuple[str, Ref]]:
    """Every annotation of a schema document, with its JSON pointer (for tests and the reference)."""
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            found = declared(node)
            if found is not None:
                yield pointer, found
            stack.extend((f"{pointer}/{key}", sub) for key, sub in reversed(list(node.items())) if key != KEYWORD)
        elif isinstance(node, list):
            stack.extend((f"{pointer}/{i}", sub) for i, sub in reversed(list(enumerate(node))))


def schema_of(kind: str) -> Mapping[str, Any] | None:
    """The schema of a qualified file kind (:func:`civrules.schema.qualify`), if there is one."""
    from civrules.schema import known_kind, load_schema

    return load_schema(kind) if known_kind(kind) else None


class Remembered:
    """The references found in values a long-lived session walks again and again, by the identity
    of the value: an edit spliced into one file leaves every other entity the same object
    (:mod:`civrules.load.splice`; resolution and the model keep a base's entries as read), so only
    the entities the edit read again are walked again.

    A value is never changed once read, so what was found in it holds while it lives; each entry
    keeps its value (and schema nodes) alive, so ids stay unique. What one :meth:`next_round`
    did not ask for is let go at the following one: the memo holds the entities of the last two
    rounds, no more. Only a caller that installs it (:func:`remembering`) pays its memory.
    """

    def __init__(self) -> None:
        self._now: dict[tuple[int, ...], tuple[Any, tuple[Any, ...], Any]] = {}
        self._before: dict[tuple[int, ...], tuple[Any, tuple[Any, ...], Any]] = {}
        #: The last findings of each sequence :meth:`each_of` was asked, by its name and ``held``.
        self._each_now: dict[tuple[object, ...], _Each] = {}
        self._each_before: dict[tuple[object, ...], _Each] = {}
        #: How many times each walk (the first of ``held`` where it is a function; None: the
        #: others) was made, not given back: for tests, which count an edit's work, never time it.
        self.made: Counter[object] = Counter()
        #: How many values :meth:`each_of` made findings for, by the sequence's name: for tests too.
        self.made_each: Counter[object] = Counter()

    def next_round(self) -> None:
        """Start a round: what the round before last asked for and this one did not is let go."""
        self._before, self._now = self._now, {}
        self._each_before, self._each_now = self._each_now, {}

    def find(
        self, schema: Mapping[str, Any], nodes: tuple[Any, ...], value: Any
    ) -> tuple[tuple[NodePath, str, Ref], ...]:
        """:func:`find_references` of ``value``, found once for as long as ``value`` is asked for."""
        found: tuple[tuple[NodePath, str, Ref], ...] = self.of(
            value, (schema, *nodes), lambda: tuple(find_references(schema, nodes, value))
        )
        return found

    def of(
        self, value: Any, held: tuple[Any, ...], make: Callable[[], Any], keep: Callable[[Any], bool] | None = None
    ) -> Any:
        """What ``make`` finds in ``value`` (with ``held``, what else it depends on, compared by
        identity: a schema's nodes, the function that walks), made once for as long as it is asked
        for; with ``keep``, only a finding it accepts is kept (the others are made each time)."""
        key = (id(value), *map(id, held))
        found = self._now.get(key) or self._before.get(key)
        # the entry holds the value and ``held``: ids that match name the same objects
        if found is None or found[0] is not value:
            self.made[held[0] if held and callable(held[0]) else None] += 1
            found = (value, held, make())
            if keep is not None and not keep(found[2]):
                return found[2]
        self._now[key] = found
        return found[2]

    def each_of(
        self,
        name: Hashable,
        values: Sequence[Any],
        held: tuple[Any, ...],
        make: Callable[[int], tuple[Any, ...]],
        *,
        placed: bool,
    ) -> list[tuple[Any, ...]]:
        """``make(i)`` for each ``values[i]``, made again only for the values that are not the very
        objects the last sequence of this ``name`` and ``held`` had at that place.

        A sequence made anew around the same values (a collection assembled again after an edit of
        one entity, the entries of a list a splice read again in part) asks for each value's
        findings where the old one was asked: the two are compared by identity (in C, no Python
        frame per value) and only the values that differ, or moved by an entry added or removed
        before them, are made again. What ``make(i)`` finds must depend on ``values[i]``, its
        index and ``held`` alone, and on the place of the value's entry where it is ``placed``
        (a diagnostic's span: lines move when an edit adds lines above): then a value's findings
        that are not empty are made again at each ask (an empty one holds wherever it is).
        """
        key = (name, *map(id, held))
        last = self._each_now.get(key) or self._each_before.get(key)
        if last is None or any(map(operator.is_not, last.held, held)):
            found = [make(i) for i in range(len(values))]
            self.made_each[name] += len(values)
        else:
            found = last.reused(values, make, placed, self.made_each, name)
        self._each_now[key] = _Each(tuple(values), held, found)
        return found

    def __len__(self) -> int:
        return len(self._now)


class _Each:
    """What :meth:`Remembered.each_of` found in one sequence of values: the values (held, so ids
    stay unique), what else it depended on, each value's findings."""

    __slots__ = ("found", "held", "values")

    def __init__(self, values: tuple[Any, ...], held: tuple[Any, ...], found: list[tuple[Any, ...]]) -> None:
        self.values, self.held, self.found = values, held, found

    def reused(
        self,
        values: Sequence[Any],
        make: Callable[[int], tuple[Any, ...]],
        placed: bool,
        made: Counter[object],
        name: Hashable,
    ) -> list[tuple[Any, ...]]:
        """The findings of ``values``, each kept from these where it may be (see :meth:`Remembered.each_of`)."""
        old, new = self.values, values
        if len(old) == len(new):
            # the same length: each place compared with the same place (an edit inside entries)
            found = list(self.found)
            again = set(itertools.compress(itertools.count(), map(operator.is_not, old, new)))
            after = len(new)  # no place moved
        else:
            # entries added or removed: the places before the first that differs, and after the last
            shortest = min(len(old), len(new))
            start = next(itertools.compress(itertools.count(), map(operator.is_not, old, new)), shortest)
            end = next(
                itertools.compress(itertools.count(), map(operator.is_not, reversed(old), reversed(new))), shortest
            )
            end = min(end, shortest - start)
            found = [*self.found[:start], *((),) * (len(new) - start - end), *self.found[len(old) - end :]]
            again = set(range(start, len(new) - end))
            after = len(new) - end  # the places from here on moved
        # a finding that holds a place, or whose place moved, is made again (an empty one holds)
        if placed or after < len(new):
            again.update(at for at in itertools.compress(itertools.count(), found) if placed or at >= after)
        for at in sorted(again):
            found[at] = make(at)
        made[name] += len(again)
        return found


#: The memo installed by :func:`remembering` (none: every walk is made afresh, as a command of one ruleset does).
_remembered: list[Remembered] = []


@contextlib.contextmanager
def remembering(memo: Remembered) -> Iterator[None]:
    """Within the block, :func:`references_in` answers from ``memo`` (a session's, kept across edits)."""
    _remembered.append(memo)
    try:
        yield
    finally:
        _remembered.pop()


def is_remembering() -> bool:
    """Whether a memo is installed (:func:`remembering`): a walk split for it need not be split otherwise."""
    return bool(_remembered)


def remembered(
    value: Any, held: tuple[Any, ...], make: Callable[[], Any], keep: Callable[[Any], bool] | None = None
) -> Any:
    """What ``make`` finds in ``value``: from the installed memo when there is one (see :meth:`Remembered.of`)."""
    if _remembered:
        return _remembered[-1].of(value, held, make, keep)
    return make()


def each_remembered(
    name: Hashable,
    values: Sequence[Any],
    held: tuple[Any, ...],
    make: Callable[[int], tuple[Any, ...]],
    *,
    placed: bool,
) -> list[tuple[Any, ...]]:
    """``make(i)`` for each of ``values``: within the installed memo, made again only for the values
    the last sequence of this ``name`` and ``held`` did not have at that place (see
    :meth:`Remembered.each_of`)."""
    if _remembered:
        return _remembered[-1].each_of(name, values, held, make, placed=placed)
    return [make(at) for at in range(len(values))]


def references_in(schema: Mapping[str, Any], nodes: tuple[Any, ...], value: Any) -> Iterable[tuple[NodePath, str, Ref]]:
    """:func:`find_references` of ``value``, from the installed memo when there is one."""
    if _remembered:
        return _remembered[-1].find(schema, nodes, value)
    return find_references(schema, nodes, value)
