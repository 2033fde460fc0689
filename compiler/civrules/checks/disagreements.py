"""Disagreements: each `disagreements:` entry's `chosen` is the value the data holds for its `field`.

A `disagreements:` entry records that sources differ about a field of the entity (or setting) it sits
on: the value written, the others and why. It is prose about a value, so nothing ties it to the
value but this check: a variant that patches the field and leaves the base's entry as it was (or a
hand that edits one and not the other) leaves an entry saying a value was chosen that the data no
longer holds.

Every family writes `disagreements:` the same way, so the check is the core's: it walks each entity
of every collection (its resolved fields, a variant's patches applied) and every setting, whatever
the family, and names no game.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from civrules.checks import ALL_COLLECTIONS, SETTINGS, check, diagnostic
from civrules.checks.unknowns import is_unknown
from civrules.diagnostics import Diagnostic, Related, Severity
from civrules.families import family_named
from civrules.load.document import NodePath
from civrules.model import Collection, Entity, Origin, Ruleset
from civrules.schema.references import each_remembered, remembered

#: A field's name as a `field:` names it: keys joined by dots, each key followed by any number of
#: `[label]` selectors of a list's elements (`modifiers[b].effect`). Anything else
#: (`cost (as printed)`, `cost, colour, copies`) describes the field in words, and is not
#: compared.
_STEP = r"[A-Za-z_]\w*(?:\[[^\[\].\s]+\])*"
FIELD = re.compile(rf"{_STEP}(?:\.{_STEP})*")
SELECTOR = re.compile(r"\[([^\[\]]+)\]")

#: How long a value may be in a message before it is cut (a message stays one line).
_SHOWN = 80


def values_of(owner: Mapping[str, Any], field: str, naming: Sequence[str] = ("id",)) -> list[Any] | None:
    """The values ``field`` names in ``owner``, or None where it names no field of it.

    A selector `[label]` picks the elements of a list whose id (or other of the family's ``naming``
    keys, :attr:`~civrules.families.Family.naming_keys`) is ``label``, so a field may name several
    values. A key the mapping does not hold, the last or one before it, is the field left
    unwritten: its value is None (`chosen: null`). A middle key not written was skipped (the entry
    compared nothing): the data write the parent of every dotted field they name, so the entry
    is compared, and one that chose a value is told the field holds none.

    >>> values_of({"kinds": ["sea"]}, "kinds"), values_of({"a": {"b": 3}}, "a.b")
    ([['sea']], [3])
    >>> values_of({"name": "x"}, "home.areas"), unselected({"name": "x"}, "mods[a].x")
    ([None], ('mods', ''))
    >>> values_of({"mods": [{"slot": "a", "x": 1}, {"slot": "b", "x": 2}]}, "mods[b].x", ("id", "slot"))
    [2]
    >>> values_of({"name": "x"}, "home"), values_of({"name": "x"}, "cost (as printed)")
    ([None], None)
    """
    return _selected(owner, field, naming)[0]


def unselected(owner: Mapping[str, Any], field: str, naming: Sequence[str] = ("id",)) -> tuple[str, str] | None:
    """Where ``field``'s selector `[label]` selects no element of ``owner`` (a label renamed by
    hand, or the element removed): the steps up to the list, and the labels its elements have
    there, in words; None where every selector selects something, or the field is in words.

    >>> unselected({"mods": [{"id": "a"}, {"id": "b"}]}, "mods[c].x")
    ('mods', '`a`, `b`')
    >>> unselected({"mods": [{"id": "a"}]}, "mods[a].x"), unselected({"mods": []}, "cost (as printed)")
    (None, None)
    """
    return _selected(owner, field, naming)[1]


def _selected(
    owner: Mapping[str, Any], field: str, naming: Sequence[str]
) -> tuple[list[Any] | None, tuple[str, str] | None]:
    """:func:`values_of`, and :func:`unselected` where a selector is why there are none."""
    if not FIELD.fullmatch(field):
        return None, None
    nodes: list[Any] = [owner]
    steps = field.split(".")
    for n, step in enumerate(steps):
        key, _, rest = step.partition("[")
        labels = SELECTOR.findall(f"[{rest}") if rest else []
        found: list[Any] = []
        for node in nodes:
            if node is _UNWRITTEN:
                found.append(_UNWRITTEN)  # below a key not written: not written either
                continue
            if not isinstance(node, Mapping) or is_unknown(node):
                return None, None
            if key in node:
                found.append(node[key])
            elif labels:
                # An element selected in a list not written: the selector selects nothing.
                upto = ".".join((*steps[:n], key))
                return None, (upto, "")
            else:
                found.append(_UNWRITTEN)
        for j, label in enumerate(labels):
            if any(is_unknown(items) for items in found):
                return None, None
            chosen = [
                item
                for items in found
                if isinstance(items, list)
                for item in items
                if isinstance(item, Mapping) and _named(item, label, naming)
            ]
            if not chosen:
                had = [_label(item, naming) for items in found if isinstance(items, list) for item in items]
                upto = ".".join((*steps[:n], key + "".join(f"[{x}]" for x in labels[:j])))
                shown_labels = ", ".join(f"`{h}`" for h in dict.fromkeys(h for h in had if h is not None))
                return None, (upto, shown_labels)
            found = chosen
        nodes = found
    return [None if node is _UNWRITTEN else node for node in nodes], None


#: A value below a key the data does not write (`a.b` where the mapping has no `a`).
_UNWRITTEN = object()


def _label(item: Any, naming: Sequence[str]) -> str | None:
    """What a selector writes to select ``item``: its first naming key's value."""
    if not isinstance(item, Mapping):
        return None
    return next((str(item[key]) for key in naming if isinstance(item.get(key), (str, int))), None)


def _named(item: Mapping[str, Any], label: str, naming: Sequence[str]) -> bool:
    return any(isinstance(item.get(key), (str, int)) and str(item.get(key)) == label for key in naming)


def same(chosen: Any, value: Any) -> bool:
    """Whether ``chosen`` is ``value``: two unknowns are the same whatever their reasons (the fact
    chosen is that no source gives it), mappings and lists element by element, a boolean only a
    boolean.

    >>> same({"unknown": "p6 has no row"}, {"unknown": "the table lacks it"}), same(1, True), same([1], [1])
    (True, False, True)
    """
    if is_unknown(chosen) or is_unknown(value):
        return is_unknown(chosen) and is_unknown(value)
    if isinstance(chosen, Mapping) and isinstance(value, Mapping):
        return chosen.keys() == value.keys() and all(same(chosen[k], value[k]) for k in chosen)
    if isinstance(chosen, list) and isinstance(value, list):
        return len(chosen) == len(value) and all(same(c, v) for c, v in zip(chosen, value, strict=True))
    if isinstance(chosen, bool) or isinstance(value, bool):
        return chosen is value
    return bool(type(chosen) is type(value) or {type(chosen), type(value)} <= {int, float}) and chosen == value


def shown(value: Any) -> str:
    """A value as YAML's flow style writes it, cut to one short line.

    >>> shown(["sea", "hill"]), shown({"unknown": "no row"}), shown(None), shown("x" * 100)[-2:]
    ('[sea, hill]', '{unknown: no row}', 'null', 'x…')
    """
    text = _flow(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _flow(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return " ".join(str(value).split())


def _owners(node: Any, sub: NodePath = ()) -> Iterator[tuple[NodePath, Mapping[str, Any], list[Any]]]:
    """Each mapping at or below ``node`` that has `disagreements:`, its path and its entries."""
    found: list[tuple[NodePath, Mapping[str, Any], list[Any]]] = []
    _gather_owners(node, list(sub), found)
    return iter(found)


#: Values with nothing below them: most of an entity's nodes, passed over without asking the
#: ``Mapping`` ABC (a call into Python for each) whether they are a mapping.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _gather_owners(node: Any, path: list[Any], found: list[tuple[NodePath, Mapping[str, Any], list[Any]]]) -> None:
    """:func:`_owners`, appended to ``found``: one path grown and cut as the walk goes down and back
    up, made a tuple only where an owner is (a generator and a path tuple per node, each node asked
    whether it is a ``Mapping``, were Q008's whole cost)."""
    if type(node) is dict or (type(node) is not list and isinstance(node, Mapping)):
        entries = node.get("disagreements")
        if isinstance(entries, list):
            found.append((tuple(path), node, entries))
        for key, value in node.items():
            if key != "disagreements" and type(value) not in _LEAVES and isinstance(value, (dict, list, Mapping)):
                path.append(key)
                _gather_owners(value, path, found)
                path.pop()
    elif isinstance(node, list):
        for i, value in enumerate(node):
            if type(value) not in _LEAVES and isinstance(value, (dict, list, Mapping)):
                path.append(i)
                _gather_owners(value, path, found)
                path.pop()


def _owned(data: Any) -> tuple[tuple[NodePath, Mapping[str, Any], list[Any]], ...]:
    """:func:`_owners` of an entity's or a setting's data, found once while a session's memo holds
    it (:mod:`civrules.schema.references`): an edit of one entity walks that entity again, not
    every entity of the ruleset (a variant adding 5,000 cards: 35 ms of each edit)."""
    if not isinstance(data, (Mapping, list)):
        return ()
    found: tuple[tuple[NodePath, Mapping[str, Any], list[Any]], ...] = remembered(
        data, (_owners,), lambda: tuple(_owners(data))
    )
    return found


def _settings(ruleset: Ruleset) -> Iterator[tuple[str, Origin, Any, tuple[NodePath, ...]]]:
    """Each setting the check walks (its name in messages, origin and value), with the paths inside
    it that are a collection's (walked as its entities)."""
    family = family_named(ruleset.family)
    for key in ruleset.setting_origins:
        found = ruleset.setting(key)
        if found is None:
            continue
        value, origin = found
        slot = family.settings.get(key) if family is not None else None
        inside = tuple(
            spec.path[1:]
            for spec in (family.collections.values() if family is not None else ())
            if spec.slot == slot and spec.path[0] == key
        )
        yield key, origin, value, inside


@check("Q008", "chosen-is-not-the-value", Severity.WARNING, reads=(ALL_COLLECTIONS, SETTINGS))
def check_disagreements(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a `disagreements:` entry says a value was chosen for its `field`, and the field holds
    another value (a variant patched the field and kept its base's entry, or one of the two was
    edited alone); or its `field` selects a list's element by a label no element has
    (`modifiers[b].effect` once `b` was renamed by hand), so that it is compared with nothing.

    Why: the entry is what tells a reader which source the data followed and why; one that names a
    value the data does not hold says the opposite of the data, and sends a reader to the source
    that was set aside. Unknowns count as one value (`{unknown: ...}` chosen for an unknown field,
    whatever the two reasons say). A field not written (nor the field holding it: `home.areas`
    with no `home`) holds no value, so only `chosen: null` agrees with it. A `field` written in
    words rather than as the field's name (`cost (as printed)`) is not compared.

    Fix: make `chosen` the value the field holds, and record the value it replaced among the
    `alternatives` with its source; a variant that changes the field patches `disagreements` too.
    A selector selects an element by the id it has now.

        kinds: [sea, hill]
        disagreements:
          - field: kinds
            chosen: [plain]   # WARNING: `kinds` is [sea, hill]
    """
    family = family_named(ruleset.family)
    naming = family.naming_keys if family is not None else ("id",)
    # What a part finds is kept by the family, which makes ``naming`` (made anew at each ask).
    for collection in ruleset.collections():
        found: tuple[Diagnostic, ...] = remembered(
            collection,
            (_collection_disagreements, family),
            partial(_collection_disagreements, collection, naming, family),
        )
        yield from found
    for name, origin, data, inside in _settings(ruleset):
        yield from _setting_disagreements(name, origin, data, inside, naming, family)


def _collection_disagreements(
    collection: Collection[Entity], naming: Sequence[str], family: object
) -> tuple[Diagnostic, ...]:
    """What the check finds in a collection's entities: found once for the same collection (the
    very object) while a session's memo holds it, whichever ruleset (a base, its variants) asks.

    A collection assembled again (an edit of one area makes the map's collections anew, every
    other entity of them the same data) looks again only at the entities whose data is not the
    same object at the same place, and at those it found something in (their places may have
    moved): the rest found nothing before and find nothing now (what is found depends on the
    entity's data alone; its origin only places it)."""
    entities = collection.items

    def found_in(at: int) -> tuple[Diagnostic, ...]:
        entity = entities[at]
        return tuple(_disagreements(f"{collection.name}[{entity.id}]", entity.origin, entity.raw, (), naming))

    raws = tuple(map(_RAW, entities))
    each = each_remembered((_collection_disagreements, collection.name), raws, (family,), found_in, placed=True)
    return tuple(itertools.chain.from_iterable(each))


#: An entity's data as written (C: no Python frame per entity).
_RAW = operator.attrgetter("raw")


def _setting_disagreements(
    name: str, origin: Origin, data: Any, inside: tuple[NodePath, ...], naming: Sequence[str], family: object
) -> tuple[Diagnostic, ...]:
    """What the check finds in one setting: found once for the same value and origin (the very
    objects) while a session's memo holds them."""

    def found() -> tuple[str, tuple[NodePath, ...], tuple[Diagnostic, ...]]:
        return name, inside, tuple(_disagreements(name, origin, data, inside, naming))

    kept: tuple[str, tuple[NodePath, ...], tuple[Diagnostic, ...]] = remembered(
        data, (_setting_disagreements, origin, family), found
    )
    # Known by identity: a key or collections other than those it was found for are walked afresh.
    return kept[2] if kept[:2] == (name, inside) else found()[2]


def _disagreements(
    name: str, origin: Origin, data: Any, inside: tuple[NodePath, ...], naming: Sequence[str]
) -> Iterator[Diagnostic]:
    """The entries of one entity's or setting's `disagreements:` (``name`` in messages) whose
    `chosen` is not the value of their field."""
    for sub, owner, entries in _owned(data):
        if any(sub[: len(path)] == path for path in inside):
            continue
        for i, entry in enumerate(entries):
            if not isinstance(entry, Mapping) or "chosen" not in entry:
                continue
            field, chosen = entry.get("field"), entry["chosen"]
            values, missed = _selected(owner, field, naming) if isinstance(field, str) else (None, None)
            if missed is not None:
                yield _selects_nothing(name, origin, sub, i, str(field), *missed)
            if values is None:
                continue
            wrong = [value for value in values if not same(chosen, value)]
            if not wrong:
                continue
            assert isinstance(field, str)
            top = field.split(".", 1)[0].split("[", 1)[0]
            written, said = ((*sub, top), f"`{top}` is written here") if top in owner else (sub, f"it has no `{top}`")
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in sub)
            yield diagnostic(
                "Q008",
                f"`{name}{where}.disagreements[{i}]` says `{shown(chosen)}` was chosen for `{field}`, "
                f"but `{field}` is `{shown(wrong[0])}`",
                origin.span(*sub, "disagreements", i, "chosen"),
                "write the value the data holds in `chosen` and the one it replaced among the `alternatives` "
                "(with its source), or give the field the chosen value back; a variant that changes the "
                "field patches its `disagreements` too",
                [Related(origin.span(*written), said)],
                subjects=(shown(chosen), field, shown(wrong[0])),
            )


def _selects_nothing(name: str, origin: Origin, sub: NodePath, i: int, field: str, upto: str, had: str) -> Diagnostic:
    """Q008 for an entry whose `field:` selects no element (a label renamed by hand, or the element
    removed): until round 35 the entry compared nothing from then on, unsaid."""
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in sub)
    return diagnostic(
        "Q008",
        f"`{name}{where}.disagreements[{i}]` is about `{field}`, which selects no element of `{upto}`: the "
        "entry's `chosen` is compared with nothing",
        origin.span(*sub, "disagreements", i, "field"),
        f"select an element by the id it has now ({had or 'the list has none'}), or remove the entry "
        "if the element is gone; a field written in words (`cost (as printed)`) is not compared",
        [Related(origin.span(*sub), "the entry sits here")],
        subjects=(field, upto),
    )
