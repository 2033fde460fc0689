"""One nested list changed by entry after entry (round 28, issue 32 point 1): each entry's
`patch:` of an element writing list operations into its nested list (an attribute's
`calamities:`) was asked, for what still writes the list and what each entry lost, of every later
entry's list operations, whatever they named: n entries appending to and removing from it in turn
were n² walks (2,000 entries: 12 s to validate, 11 s to diff). And `civrules diff` worked out the
field's citation again for each element it changed. The later operations are now found by the
elements their selectors can name, and the citation once per field. Held to the old walk and the
old diff on random entries, in a variant and a variant of it."""

from __future__ import annotations

import gc
import json
import random
import types
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from civrules import model, resolve
from civrules.diagnostics import Severity
from civrules.pipeline import compare
from civrules.resolve import (
    Resolver,
    _written_over_list,
    _written_over_operations,
    element_citations,
    field_writers,
    is_list_operations,
    overwritten,
)
from civrules.resolve import diff as resolve_diff
from civrules.resolve.diff import render_text
from tests.core.test_resolve import variant
from tests.rulefiles import CachedWorkspace


class _EveryOperations:
    """The reference: round 27's :class:`resolve._Over` kept every entry's list operations in a
    list and asked each of them (:func:`resolve.written_over`'s cases), whatever they named."""

    def __init__(self) -> None:
        self.written: list[Any] = []

    def add(self, operations: Any) -> None:
        self.written.append(operations)


def _old_over(self: resolve._Over, base: Any, at: Any) -> Iterator[Any]:
    if self.whole:
        yield at
    for operations in self.operations.written:
        if isinstance(base, list):
            yield from _written_over_list(base, operations, at)
        elif is_list_operations(base):
            yield from _written_over_operations(base, operations, at)
    if self.mapping:
        if isinstance(base, dict) and set(base) != {"unknown"}:
            for key, child in self.children.items():
                if key in base:  # a key the base lacks was added, over nothing (round 31)
                    yield from child.over(base[key], (*at, key))
        else:
            yield at


def _old_init(self: resolve._Over, rank: int = 0) -> None:
    self.rank = rank
    self.children = {}
    self.whole = False
    self.mapping = False
    self.operations = _EveryOperations()  # type: ignore[assignment]
    self.over_added = _EveryOperations()  # type: ignore[assignment]


class _PlacedAnew:
    """The reference for locating what earlier entries wrote (round 27's ``model._moves_index``):
    one list's records as an entry left them placed anew from every record of the chains."""

    def __init__(self, field: Any) -> None:
        name, (tokens, _, chain, pending) = field
        prefix = (name,) if name else ()
        index = {token: i for i, token in enumerate(tokens) if token is not None}
        records = [
            (index.get(key[0]) if isinstance(key[0], int) else None, key, owner, path)
            for key, owner, path in model.unchained(chain)
        ]
        records += [(key[0], key, owner, path) for key, owner, path in model.unchained(pending)]
        placed: dict[Any, Any] = {}
        for at, key, owner, path in records:
            if isinstance(at, int):
                moved_to = (*prefix, at, *key[1:])
                placed.pop(moved_to, None)
                placed[moved_to] = (owner, path)
        self.by_key = {key: (key, owner, path) for key, (owner, path) in placed.items()}
        self.by_owner: dict[Any, list[Any]] = {}
        for key, (owner, path) in placed.items():
            self.by_owner.setdefault((id(owner), key[:1]), []).append((key, path))

    def get(self, moved_to: Any) -> Any:
        return self.by_key.get(moved_to)

    def of(self, owner: Any, first: Any) -> Any:
        return tuple(self.by_owner[(id(owner), first)])


def _as_before(patched: pytest.MonkeyPatch) -> None:
    patched.setattr(resolve._Over, "__init__", _old_init)
    patched.setattr(resolve._Over, "over", _old_over)
    patched.setattr(model, "_moves_index", lambda origin, field: _PlacedAnew(field))
    # an element's citation made anew at each entry (round 28), never grown in place
    cite_patched = resolve.cite_patched
    patched.setattr(resolve, "cite_patched", lambda *args, grow=False, **named: cite_patched(*args, **named))
    # the diff's field citation worked out anew for each changed element
    patched.setattr(
        resolve_diff._WrittenCitations, "field", lambda self, entry, name: resolve.field_citation(entry, name)
    )


#: Pottery's attribute, whose nested list the random entries change (named by its text: an entry
#: may cite another section in it).
TEXT = '"A holder of Pottery who holds Grain cards reduces his Famine losses (four unit points per Grain card held)."'

#: The names the random elements of the nested list take (few: selectors name one of several, one
#: named twice, one removed and added again).
NAMES = ("famine", "flood", "plague", "drought")


class _Nested:
    """The nested list as the random entries leave it: its elements' notes, in order (each note
    names one element), or None where it is no list (`null`, `{unknown: why}`)."""

    def __init__(self) -> None:
        self.notes: list[str] | None = []
        self.made = 0

    def element(self) -> str:
        self.made += 1
        return f'{{calamity: {pick_name(self.made)}, effect: reduces, rule: "30.312", note: n{self.made}}}'


def pick_name(k: int) -> str:
    return NAMES[k % len(NAMES)]


def _entry(pick: random.Random, nested: _Nested) -> str:
    """One random patch entry of Pottery's attribute's nested `calamities:` list, most of them
    list operations that apply (appends, removals, replacements, patches, insertions, two in one
    entry), by a selector naming one element (its note, or its note and its calamity), some by
    one naming none or several; the list written whole, `null`, `{unknown: why}`, and appends onto
    those (V007); now and then
    the attribute's citation changed beside, Pottery's attributes appended to, or only the citation
    of its attribute or of a credit patched (a section cited before, or one of its own)."""
    if pick.random() < 0.04:
        return '{id: pottery, attributes: {append: [{text: "More.", rule: "32.211"}]}}'
    if pick.random() < 0.08:
        # only an element's citation, a section cited before or one of its own (its list grown in place)
        section = pick.choice(["32.212", "32.211", f"32.2.{pick.randrange(40)}"])
        if pick.random() < 0.5:
            return f'{{id: pottery, credits: {{patch: [{{where: {{group: crafts}}, with: {{rule: "{section}"}}}}]}}}}'
        return f'{{id: pottery, attributes: {{patch: [{{where: {{text: {TEXT}}}, with: {{rule: "{section}"}}}}]}}}}'

    def selector(note: str) -> str:
        if pick.random() < 0.05:
            return "{effect: reduces}"  # names all of them: V007 where several
        if pick.random() < 0.3:
            return f"{{calamity: {pick_name(int(note[1:]))}, note: {note}}}"
        return f"{{note: {note}}}"

    roll = pick.random()
    notes = nested.notes
    if notes is None and roll < 0.3:
        # a list operation onto no list (V007), located through the earlier entries' records
        calamities = f"{{append: [{nested.element()}]}}"
    elif notes is None or roll < 0.08:
        ops = None
        calamities = f"[{nested.element()}]"
        nested.notes = [f"n{nested.made}"]
    elif roll < 0.12:
        calamities, nested.notes = pick.choice(["null", "{unknown: why}"]), None
    else:
        ops = {}
        for _ in range(pick.choice([1, 1, 1, 2])):
            kind = pick.choice(["append", "remove", "patch", "replace", "insert"] if notes else ["append"])
            if kind in ops:
                continue
            if kind == "append":
                ops[kind] = f"append: [{nested.element()}]"
                notes.append(f"n{nested.made}")
                continue
            note = pick.choice(notes)
            if kind == "remove":
                ops[kind] = f"remove: [{selector(note)}]"
                notes.remove(note)
            elif kind == "patch":
                written = pick.choice(['rule: "30.312"', "note: m", "effect: {unknown: why}", 'rule: "32.212"'])
                ops[kind] = f"patch: [{{where: {selector(note)}, with: {{{written}}}}}]"
                if written == "note: m":
                    notes.remove(note)  # no longer named by its note
            elif kind == "replace":
                ops[kind] = f"replace: [{{where: {selector(note)}, with: {nested.element()}}}]"
                notes[notes.index(note)] = f"n{nested.made}"
            else:
                ops[kind] = f"insert: [{{before: {selector(note)}, items: [{nested.element()}]}}]"
                notes.insert(notes.index(note), f"n{nested.made}")
            if kind in ("remove", "replace", "patch") and "append" in ops:
                break  # applied before the append: its element is not there yet
        order = ["remove", "replace", "patch", "insert", "append"]
        calamities = "{" + ", ".join(ops[k] for k in order if k in ops) + "}"
    cited = pick.choice(["", "", "", ', rule: "32.212"'])
    inner = f"{{calamities: {calamities}{cited}}}"
    return f"{{id: pottery, attributes: {{patch: [{{where: {{text: {TEXT}}}, with: {inner}}}]}}}}"


def _body(entries: list[str]) -> str:
    return "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {e}\n" for e in entries)


def _asked(first: list[str], second: list[str]) -> list[Any]:
    """The variant ``v1`` of advanced-civilization with the entries ``first`` and its variant ``v2``
    with ``second``, resolved: the diagnostics, and each field of Pottery with its writers (in
    order) and what the entries wrote that later ones took (as a set: Q009's marks keep a set)."""
    files = dict([variant("v1", "advanced-civilization", _body(first)), variant("v2", "v1", _body(second))])
    workspace = CachedWorkspace(files)
    resolver = Resolver(workspace)
    found: list[Any] = []
    kept: list[Any] = []
    for ruleset in ("advanced-civilization", "v1", "v2"):
        resolved, diagnostics = resolver.resolve(workspace.load_ruleset(workspace.manifests()[ruleset]))
        found.append([repr(d) for d in diagnostics])
        if resolved is None:
            continue
        kept.append(resolved)
        for entry in resolved.collections["civilization_cards"]:
            if entry.raw.get("id") != "pottery":
                continue
            for name in entry.raw:
                writers = [
                    (None if w is None else (w.document.file, w.path), paths)
                    for w, paths in field_writers(entry.origin, name)
                ]
                lost = sorted({repr((w.document.file, path)) for w, path in overwritten(entry.origin, name)})
                found.append((ruleset, name, repr(entry.raw[name]), writers, lost))
    # each ruleset's Pottery as its resolution left it, once the variants after it are resolved too
    found += [repr(e.raw) for one in kept for e in one.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    return found


def _compared(workspace: CachedWorkspace, old: str, new: str) -> Any:
    """`civrules diff OLD NEW`'s changes (the rulesets resolved by one resolver)."""
    resolver = Resolver(workspace)
    resolved = []
    for one in (old, new):
        found, diagnostics = resolver.resolve(workspace.load_ruleset(workspace.manifests()[one]))
        if found is None or any(d.severity is Severity.ERROR for d in diagnostics):
            return None  # no model to build, as `civrules diff` says (its diagnostics say why)
        resolved.append(found)
    return compare(resolved[0], resolved[1])


def _diffs(first: list[str], second: list[str]) -> list[Any]:
    files = dict([variant("v1", "advanced-civilization", _body(first)), variant("v2", "v1", _body(second))])
    workspace = CachedWorkspace(files)
    found: list[Any] = []
    for old, new in (("advanced-civilization", "v1"), ("v1", "v2"), ("advanced-civilization", "v2")):
        changes = _compared(workspace, old, new)
        if changes is not None:
            found.append((render_text(changes), json.dumps(changes.to_json(), sort_keys=True)))
    return found


@pytest.mark.slow  # 25 pairs of variants resolved and diffed twice: seconds, beyond the fast suite's budget
def test_entries_changing_one_nested_list_find_what_the_walk_through_every_later_entry_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random entries (:func:`_entry`) in a variant and a variant of it, each changing Pottery's
    attribute's nested list (chains of list operations within a variant and across the two),
    resolved and diffed as now and as round 27 did (each entry's record asking every later
    entry's list operations; the field's citation worked out for each changed element): the same
    diagnostics, values, writers in the same order, the same facts lost, the same diff."""
    pick = random.Random(28)
    compared = 0
    for _ in range(25):
        nested = _Nested()
        first = [_entry(pick, nested) for _ in range(pick.randrange(2, 30))]
        second = [_entry(pick, nested) for _ in range(pick.randrange(0, 20))]
        now = _asked(first, second), _diffs(first, second)
        with monkeypatch.context() as patched:
            _as_before(patched)
            walked = _asked(first, second), _diffs(first, second)
        assert now == walked, (first, second)
        compared += len(first) + len(second)
    assert compared > 450


def _shape(kind: str, n: int) -> list[str]:
    """n entries changing Pottery's attribute's nested list in turn: ``append-remove`` appends an
    element then removes it again; ``patch-replace`` patches one element then writes it whole;
    ``unknown-append`` makes the list `{unknown: why}`, then appends to it (V007)."""
    nested = '{{id: pottery, attributes: {{patch: [{{where: {{rule: "32.211"}}, with: {{calamities: {ops}}}}}]}}}}'
    entries = []
    for i in range(n):
        name = f"n{i // 2}"
        if kind == "unknown-append":
            ops = "{unknown: why}" if i % 2 == 0 else '{append: [{calamity: famine, effect: reduces, rule: "30.312"}]}'
        elif kind == "append-remove":
            ops = (
                f'{{append: [{{calamity: famine, effect: reduces, rule: "30.312", note: {name}}}]}}'
                if i % 2 == 0
                else f"{{remove: [{{note: {name}}}]}}"
            )
        else:
            ops = (
                f'{{patch: [{{where: {{calamity: famine}}, with: {{rule: "30.3.{i}"}}}}]}}'
                if i % 2 == 0
                else "{replace: [{where: {calamity: famine}, with: "
                + '{calamity: famine, effect: reduces, rule: "30.312"}}]}'
            )
        entries.append(nested.format(ops=ops))
    return entries


@pytest.mark.parametrize(
    "kind", ["append-remove", "unknown-append", pytest.param("patch-replace", marks=pytest.mark.slow)]
)
def test_entries_changing_one_nested_list_are_followed_at_a_cost_linear_in_them(kind: str) -> None:
    """Counted, never timed: n entries changing Pottery's attribute's nested list in turn
    (:func:`_shape`), resolved and asked what still writes it and what each entry lost, at n and
    2n (the base resolved before, uncounted). Each entry's record asked every later entry's list
    operations what they wrote over in it: the square of n. And each V007 of ``unknown-append``
    located its list by an index made anew of every earlier entry's record of it (round 28)."""
    from tests.security.test_check_growth import MOST, calls_made

    def work(n: int) -> int:
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", _body(_shape(kind, n)))]))
        resolver = Resolver(workspace)
        resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
        loaded = workspace.load_ruleset(workspace.manifests()["big"])

        def run() -> None:
            resolved, diagnostics = resolver.resolve(loaded)
            assert resolved is not None
            assert sum(d.code == "V007" for d in diagnostics) == (n // 2 if kind == "unknown-append" else 0)
            (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
            list(resolve.field_writers(pottery.origin, "attributes"))
            list(resolve.overwritten(pottery.origin, "attributes"))

        # the V007s' locating alone (the model's lines): the rest of the resolution hides a square
        return calls_made(run, within=model.__file__ if kind == "unknown-append" else None)

    small, large = work(100), work(200)
    assert large <= MOST * small, (small, large)


@pytest.mark.slow  # a diff traced line by line: seconds
def test_a_diff_of_entries_changing_one_nested_list_asks_the_field_citation_once() -> None:
    """Counted: `civrules diff` of n entries appending to and patching one nested list (each
    element a change of its own) at n and 2n. The field's citation, read from every entry whose
    facts the list holds, was worked out again for each changed element: the square of n."""
    from tests.security.test_check_growth import MOST, calls_made

    def work(n: int) -> int:
        entries = []
        for i in range(n):
            ops = (
                f'{{append: [{{calamity: famine, effect: reduces, rule: "30.312", note: n{i}}}]}}'
                if i % 2 == 0
                else f'{{patch: [{{where: {{note: n{i - 1}}}, with: {{rule: "30.3.{i}"}}}}]}}'
            )
            entries.append(
                f'{{id: pottery, attributes: {{patch: [{{where: {{rule: "32.211"}}, with: {{calamities: {ops}}}}}]}}}}'
            )
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", _body(entries))]))
        return calls_made(lambda: _compared(workspace, "advanced-civilization", "big"))

    small, large = work(150), work(300)
    assert large <= MOST * small, (small, large)


def test_the_records_of_a_list_are_located_as_placed_anew_from_every_one_of_them() -> None:
    """Random chains of records of where entries wrote a list's elements (tokens and paths drawn
    from a few, chains grown from the latest and from earlier ones, records waiting by index),
    each asked, once all are made, the latest record of every place and each owner's records:
    the same as placing every record anew (:class:`_PlacedAnew`), the records shared among the
    chains (:func:`model._recorded`) read only as far as each chain's own."""
    pick = random.Random(2028)
    owners = [model.Origin(None, ("entry", k)) for k in range(4)]  # type: ignore[arg-type]
    asked = 0
    for _ in range(40):
        model._RECORDED.clear()
        grown: list[Any] = [(None, None)]  # (chain, pending) as each step left them
        for _ in range(pick.randrange(1, 30)):
            chain, pending = pick.choice(grown[-3:] if pick.random() < 0.8 else grown)
            record = ((pick.randrange(4), *pick.choice([(), ("a",), ("a", 0)])), pick.choice(owners), ("p",))
            if pick.random() < 0.3:
                pending = model.linked(((pick.randrange(4), *record[0][1:]), record[1], record[2]), pending)
            else:
                chain = model.linked(record, chain)
            grown.append((chain, pending))
            if pick.random() < 0.5:  # asked while growing (the records shared) and again after
                model._MovesIndex(("f", ((0, None, 2, 1), 4, chain, pending))).get(("f", 0))
        for chain, pending in pick.sample(grown, len(grown)):
            tokens = tuple(pick.sample([0, 1, 2, 3, None], 4))
            field = (pick.choice(["f", ""]), (tokens, 4, chain, pending))
            now, placed = model._MovesIndex(field), _PlacedAnew(field)
            prefix = (field[0],) if field[0] else ()
            for at in range(5):
                for rest in [(), ("a",), ("a", 0), ("b",)]:
                    assert now.get((*prefix, at, *rest)) == placed.get((*prefix, at, *rest))
                    asked += 1
            for owner in owners:
                for first in {key[:1] for key in placed.by_key}:
                    expected = tuple(placed.by_owner.get((id(owner), first), ()))
                    assert now.of(owner, first) == expected
    assert asked > 2000


def test_the_records_a_longer_chain_grew_in_place_go_with_it_not_with_the_chain_it_grew() -> None:
    """A base's chain of records indexed, then a variant's chain grown from it (its records grown
    in place, as each entry's chain grows the one before's): once the variant's chain is gone (an
    edit replaced the variant), its records go, though the base's chain lives on. Held by the
    base's chain, they held the variant's entries, and so every version of its edited file; the
    base's chain has its records made anew when asked again."""
    base_owner = model.Origin(None, ("base",))  # type: ignore[arg-type]
    base = None
    for k in range(3):
        base = model.linked(((k,), base_owner, ("append", k)), base)
    records, size = model._recorded(base)
    grown = model.linked(((3,), model.Origin(None, ("variant",)), ("append", 0)), base)  # type: ignore[arg-type]
    assert model._recorded(grown) == (records, 4) and size == 3  # grown in place, not made anew
    kept = weakref.ref(records)
    del records, grown
    assert len(model._RECORDED)  # (its next use drops the entries of chains gone)
    assert kept() is None
    records, size = model._recorded(base)
    assert size == 3 and records.latest((2,), size) == (2, base_owner, ("append", 2))


def _held(root: Any) -> int:
    """The entries of every container reachable from ``root`` through containers and civrules'
    own objects (not through classes, modules or functions), each container counted once: what a
    resolved entity's records hold."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        one = stack.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        if isinstance(one, (list, tuple, dict, set, frozenset)):
            total += len(one)
        elif not type(one).__module__.startswith("civrules"):
            continue
        stack.extend(
            r
            for r in gc.get_referents(one)
            if not isinstance(r, (type, types.ModuleType, types.FunctionType, str, int))
        )
    return total


@pytest.mark.slow  # 450 entries resolved and every record walked: about 2 s
def test_entries_citing_a_section_in_one_element_keep_its_citation_once() -> None:
    """Counted, what is held: n entries each patching only the citation of one element of
    Pottery's credits (`with: {rule: ...}`, a section of its own each). The element cites every
    section so far; each entry's record kept the element as it was, each with a list of every
    section before it: the square of n held (461 MB at 10,000 as a process, round 28). The
    element's sections are one list, grown in place by each entry of the block, the records
    holding the element by identity."""

    def held(n: int) -> int:
        entries = [
            f'{{id: pottery, credits: {{patch: [{{where: {{group: crafts}}, with: {{rule: "32.2.{i}"}}}}]}}}}'
            for i in range(n)
        ]
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", _body(entries))]))
        resolved, _ = Resolver(workspace).resolve(workspace.load_ruleset(workspace.manifests()["big"]))
        assert resolved is not None
        (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
        (credit,) = [c for c in pottery.raw["credits"] if c.get("group") == "crafts"]
        assert credit["rule"] == ["32.212", *(f"32.2.{i}" for i in range(n))]
        gc.collect()
        return _held(pottery.origin)

    small, large = held(150), held(300)
    assert large <= 2.3 * small, (small, large)


class _KeysRead(dict):  # type: ignore[type-arg]
    """A mapping counting the keys read from it one by one (a set of them made, a walk of them)."""

    read = 0

    def __iter__(self) -> Iterator[Any]:
        for key in super().__iter__():
            _KeysRead.read += 1
            yield key


def test_a_merge_into_an_element_of_many_keys_reads_none_of_its_keys_to_tell_its_kind() -> None:
    """Counted: entries each writing a key of their own into one element (a schema error each)
    merged into an element holding every key before them, and each merge told whether it was
    list operations or an `{unknown: why}` by a set of all its keys (and each operation's patch
    the same of the element): the square of the entries (3.9 s at 8,000, round 28). It is told
    by the mapping's size and its few keys."""
    element = _KeysRead({f"k{i}": 1 for i in range(1_000)})
    _KeysRead.read = 0
    merged = resolve.merge_patch(element, {"k1000": 1})
    assert not is_list_operations(element)
    # a key the element lacks is added, over nothing; one it holds is written over
    assert list(resolve.written_over(element, {"k1000": 1})) == []
    assert list(resolve.written_over(element, {"k999": 2})) == [("k999",)]
    assert merged == {**element, "k1000": 1}
    assert _KeysRead.read == 0, _KeysRead.read


class _CopyCounting(type):
    """Stands for ``dict`` in the resolver's module: each mapping copied through it (``dict(m)``)
    counted by its keys, every other use of the name answered by ``dict`` itself."""

    copied = 0

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], dict):
            _CopyCounting.copied += len(args[0])
        return dict(*args, **kwargs)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, dict)

    def __getattr__(cls, name: str) -> Any:
        return getattr(dict, name)


class _CountedDict(metaclass=_CopyCounting):
    pass


#: Entries writing into Pottery's attribute's nested `calamities:` element noted n0, appended first.
_NESTED = '{id: pottery, attributes: {patch: [{where: {rule: "32.211"}, with: {calamities: '


def _element_keys(n: int, cited: bool) -> list[str]:
    """One entry appending the element, then ``n`` entries each writing a key of its own into it
    (the shape `element-keys`), each under a section of its own too where ``cited``."""
    section = ', rule: "30.31{}"' if cited else ""
    appended = _NESTED + '{append: [{calamity: famine, effect: reduces, rule: "30.312", note: n0}]}}}]}}'
    patches = [
        _NESTED + f"{{patch: [{{where: {{note: n0}}, with: {{k{i}: 1{section.format(i % 3)}}}}}]}}}}}}]}}}}"
        for i in range(n)
    ]
    return [appended, *patches]


#: What the entries of :func:`test_a_nested_element_merged_into_in_place_is_what_a_copy_of_it_made`
#: write into the element noted ``N`` (each a `with:`): keys of their own, citations written, joined
#: and deleted, the selector's field renamed, a nested mapping merged into and cited, an unknown.
_WRITES = (
    "{k0: 1}",
    '{k1: 2, rule: "30.31"}',
    '{source: "house rule: a"}',
    "{k0: null}",
    "{m: {a: 1}}",
    '{m: {b: 2, rule: "30.312"}}',
    '{m: {a: null, source: "house rule: m"}}',
    "{note: RENAMED}",
    '{rule: ["30.31", "30.311"], k2: [1]}',
    "{k3: {unknown: not given}}",
    "{k3: {z: 1}}",
    "{rule: null}",
    '{effect: reduces, source: "house rule: b"}',
    "{source: null, k4: 4}",
)


def _pottery_resolved_counting_copies(entries: list[str]) -> Any:
    """Pottery as a variant of Advanced Civilization with ``entries`` resolves it, the keys of the
    mappings the resolver copies (``dict(...)``) counted in ``_CopyCounting.copied`` (the base
    resolved first, uncounted)."""
    workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", _body(entries))]))
    resolver = Resolver(workspace)
    resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    loaded = workspace.load_ruleset(workspace.manifests()["big"])
    _CopyCounting.copied = 0
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve, "dict", _CountedDict, raising=False)
        resolved, _ = resolver.resolve(loaded)
    assert resolved is not None
    (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    return pottery


@pytest.mark.slow  # six resolutions, every field's writers asked: about 3 s
def test_a_nested_element_merged_into_in_place_is_what_a_copy_of_it_made() -> None:
    """Entries writing in turn into two elements of a nested list (:data:`_WRITES`), in a variant
    and in a variant of it: each later merge of the block writes into the block's element in place
    (round 31), and what is resolved is what a copy of the element at each merge made (round 30's
    merge): each field's value (its keys in their order), the diagnostics, the writers of each
    field and what the entries lost."""
    entries: list[str] = []
    child: list[str] = []
    for note in ("n0", "q0"):
        entries.append(
            _NESTED + f'{{append: [{{calamity: famine, effect: reduces, rule: "30.312", note: {note}}}]}}}}}}]}}}}'
        )
    notes = {"n0": "n0", "q0": "q0"}
    for i, write in enumerate(_WRITES * 2):
        which = ("n0", "q0")[i % 2]
        renamed = f"{which}r{i}"
        text = write.replace("RENAMED", renamed)
        into = entries if i < len(_WRITES) else child
        into.append(_NESTED + f"{{patch: [{{where: {{note: {notes[which]}}}, with: {text}}}]}}}}}}]}}}}")
        if "RENAMED" in write:
            notes[which] = renamed
    merges_into = resolve._Owned.merges_into
    made: list[bool] = []

    def told(self: resolve._Owned, element: object) -> bool:
        made.append(merges_into(self, element))
        return made[-1]

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "merges_into", told)
        in_place = _asked(entries, child)
    assert made.count(True) >= len(_WRITES) - 4, made  # each element's merges but its block's first
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "merges_into", lambda self, element: False)
        copied = _asked(entries, child)
    assert in_place == copied


_CREDITS = "{id: pottery, credits: {"

#: Entries writing in turn into the elements of Pottery's own list of credits (its first, to the
#: Crafts, named by a field the entries rename too), removing and appending some.
_CREDIT_WRITES = (
    "patch: [{where: {group: crafts}, with: {points: 3}}]",
    "patch: [{where: {group: crafts}, with: {note: a}}]",
    'patch: [{where: {group: crafts}, with: {points: 4, rule: "32.2"}}]',
    "patch: [{where: {card: democracy}, with: {points: 5}}, {where: {group: crafts}, with: {k: 1}}]",
    "remove: [{card: monotheism}]",
    "append: [{card: monotheism, points: 7}]",
    "patch: [{where: {card: monotheism}, with: {points: 8}}]",
    "patch: [{where: {group: crafts}, with: {points: null}}]",
    'patch: [{where: {card: democracy}, with: {points: 6, source: "house rule: d"}}]',
    "patch: [{where: {group: crafts}, with: {group: science}}]",
    "patch: [{where: {group: science}, with: {k: 2, points: 2}}]",
    "patch: [{where: {card: monotheism}, with: {points: 8}}]",
    "remove: [{card: democracy}]",
    "patch: [{where: {group: science}, with: {m: {a: 1}}}]",
    "patch: [{where: {group: science}, with: {m: {a: null, b: 2}}}]",
)


@pytest.mark.slow  # six resolutions, every field's writers asked: about 3 s
def test_elements_of_an_entitys_own_list_merged_into_in_place_are_followed_as_copies_were() -> None:
    """Entries writing in turn into the elements of Pottery's own list (:data:`_CREDIT_WRITES`), in
    a variant and again in a variant of it: a later patch of a block merges into an element the
    block merged before in place, and the block's records hold a token for it as it was, not the
    element (round 32: each record held its own copy, the square of n keys for n entries). What
    is resolved is what copying each element at each merge, each record holding its copy, made:
    the diagnostics, each field's value (its keys in their order), writers and what the entries
    lost, and the entries that cite each element."""
    first = [_CREDITS + write + "}}" for write in _CREDIT_WRITES]
    second = [_CREDITS + write.replace("crafts", "science") + "}}" for write in _CREDIT_WRITES[8:]]
    stand_in = resolve._Owned.stand_in
    tokens: list[object] = []

    def told(self: resolve._Owned, element: object) -> object:
        held = stand_in(self, element)
        if held is not element:
            tokens.append(held)
        return held

    def asked() -> list[Any]:
        found = _asked(first, second)
        files = dict([variant("v1", "advanced-civilization", _body(first)), variant("v2", "v1", _body(second))])
        workspace = CachedWorkspace(files)
        resolver = Resolver(workspace)
        for ruleset in ("advanced-civilization", "v1", "v2"):
            resolved, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()[ruleset]))
            assert resolved is not None
            (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
            cited = element_citations(pottery.origin, "credits")
            found.append((ruleset, [cited.get(id(element)) for element in pottery.raw["credits"]]))
        return found

    merge_into = resolve._merge_into
    merged_into: list[object] = []

    def merging(element: dict[str, Any], *args: Any) -> None:
        merged_into.append(element)
        merge_into(element, *args)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "stand_in", told)
        patched.setattr(resolve, "_merge_into", merging)
        patched.setattr(resolve, "_IN_PLACE_FROM", 0)  # the credits are small: each merged into in place
        in_place = asked()
    # each block's merges into an element a merge of it made before, in each of the four resolutions
    assert len(tokens) >= 4 * 5 and len(merged_into) >= 4 * 5, (len(tokens), len(merged_into))
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "stand_in", lambda self, element: element)
        patched.setattr(resolve._Owned, "merges_into", lambda self, element: False)
        copied = asked()
    assert in_place == copied


@pytest.mark.slow  # four resolutions of up to 300 entries, every copy counted: about 4 s
@pytest.mark.parametrize("cited", [False, True], ids=["keys", "cited-keys"])
def test_entries_each_writing_a_key_into_one_nested_element_copy_it_once(cited: bool) -> None:
    """Counted, never timed: one element of a nested list (`element-keys`), then n entries each
    writing a key of its own into it, resolved at n and 2n; the keys of the mappings the
    resolver copies (``dict(...)``) counted. Each entry's merge copied the element whole, every
    key the entries before it wrote: the square of n (1.38 of linear at 10,000 in round 30's
    recording). The block's own copy of the element is merged into in place, as its nested list
    is grown in place; the element and what cites it are what the copies made."""

    def copied(n: int) -> int:
        entries = _element_keys(n, cited)
        pottery = _pottery_resolved_counting_copies(entries)
        (element,) = [c for a in pottery.raw["attributes"] for c in a.get("calamities", []) if c.get("note") == "n0"]
        assert [k for k in element if k.startswith("k")] == [f"k{i}" for i in range(n)]
        assert element["rule"] == (["30.312", "30.310", "30.311"] if cited else "30.312")
        return _CopyCounting.copied

    small, large = copied(150), copied(300)
    assert large <= 2.3 * small, (small, large)


@pytest.mark.slow  # four resolutions of up to 300 entries, every copy counted: about 4 s
@pytest.mark.parametrize("cited", [False, True], ids=["keys", "cited-keys"])
def test_entries_each_writing_a_key_into_one_credit_copy_it_once(cited: bool) -> None:
    """Counted, never timed: n entries each writing a key of its own into Pottery's credit to the
    Crafts, an element of the card's own list (`entry-element-keys`), resolved at n and 2n; the
    keys of the mappings the resolver copies (``dict(...)``) counted. Each entry's merge copied
    the element whole, every key the entries before it wrote: the square of n (1.42 of linear at
    10,000 once the records let go of the copies, round 32). The block's element is merged into
    in place where its records alone follow it; the credit and its citation are what copies made."""

    def copied(n: int) -> int:
        section = ', rule: "32.21{}"' if cited else ""
        entries = [
            f"{{id: pottery, credits: {{patch: [{{where: {{group: crafts}}, with: {{k{i}: 1{section.format(i)}}}}}]}}}}"
            for i in range(n)
        ]
        pottery = _pottery_resolved_counting_copies(entries)
        (credit,) = [c for c in pottery.raw["credits"] if c.get("group") == "crafts"]
        assert [k for k in credit if k.startswith("k")] == [f"k{i}" for i in range(n)]
        assert credit["rule"] == (["32.212", *(f"32.21{i}" for i in range(n) if i != 2)] if cited else "32.212")
        return _CopyCounting.copied

    small, large = copied(150), copied(300)
    assert large <= 2.3 * small, (small, large)


@pytest.mark.parametrize("cited", [False, True], ids=["fields", "cited-fields"])
def test_entries_each_writing_a_field_of_their_own_copy_the_entity_and_its_records_once(cited: bool) -> None:
    """Counted, never timed: n entries each writing a field of its own into Pottery (`entity-keys`),
    resolved at n and 2n; the keys of the mappings the resolver copies (``dict(...)``) counted, and
    the records of the card's fields copied (:func:`model.with_record`'s, a :class:`model.Records`'
    log made). Each entry's merge copied the card whole, and each of its three records of the
    card's fields (the last changer, the writers, every changer) the records of every field
    written before it: the square of n (1.45 of linear at 10,000 in round 32's recording). The
    block's own copy of the card is merged into in place, and the records appended to; the card,
    its citation and what each field's records say are what the copies made."""
    counted = {"records": 0}
    with_record = model.with_record

    def copying(records: Any, record: Any) -> Any:
        counted["records"] += len(records)
        return with_record(records, record)

    def copied(n: int) -> int:
        section = ', rule: "32.21{}"' if cited else ""
        entries = [f"{{id: pottery, k{i}: 1{section.format(i % 3)}}}" for i in range(n)]
        counted["records"] = 0
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(model, "with_record", copying)
            patched.setattr(resolve, "with_record", copying)
            if hasattr(model, "_RecordLog"):  # the log a Records is appended to: made with its records copied
                made = model._RecordLog.__init__

                def logged(self: Any, items: Any) -> None:
                    items = tuple(items)
                    counted["records"] += len(items)
                    made(self, items)

                patched.setattr(model._RecordLog, "__init__", logged)
            pottery = _pottery_resolved_counting_copies(entries)
        assert [k for k in pottery.raw if k.startswith("k")] == [f"k{i}" for i in range(n)]
        assert pottery.raw["rule"] == (["32.21", "32.210", "32.211", "32.212"] if cited else "32.21")
        for i in (0, n // 2, n - 1):
            (writer, _), *_ = field_writers(pottery.origin, f"k{i}")
            assert writer is not None and writer.path[-1] == i
            assert [at.path[-1] for at in resolve.changers(pottery.origin, f"k{i}")] == [i]
        return _CopyCounting.copied + counted["records"]

    small, large = copied(150), copied(300)
    assert large <= 2.3 * small, (small, large)


#: What the entries of :func:`test_an_entity_merged_into_in_place_is_what_a_copy_of_it_made` write
#: into a card in turn: fields of their own (more than :data:`model._APPENDED_FROM`, each an S002)
#: written, written again and deleted, citations written, joined and deleted, its name and cost,
#: a nested mapping merged into and cited, an unknown, and its lists.
_ENTITY_WRITES = (
    "k{i}: 1",
    'k{i}: {{a: 1, b: [x]}}, rule: "32.21"',
    'cost: {i}, source: "house rule: c{i}"',
    "k{j}: null, name: Renamed {i}",
    "k{j}: {{b: {{append: [y]}}, c: 2}}",
    'credits: {{patch: [{{where: {{group: crafts}}, with: {{points: {i}, rule: "32.212"}}}}]}}, k{i}: 5',
    'attributes: {{append: [{{text: "Attr {i}", rule: "32.211"}}]}}, note: n{i}',
    'k{i}: 7, k{j}: 8, rule: ["32.21", "32.212"]',
    "victory_points: 1, k{j}: null, note: null",
    "k{i}: {{unknown: not given}}, rule: null",
    "k{j}: {{z: 1}}, source: null",
)

#: The same with the card's own fields alone (no S002: the variant of the variant is resolved too).
_FIELD_WRITES = (
    'cost: {i}, source: "house rule: c{i}"',
    'name: Renamed {i}, rule: "32.21"',
    "note: n{i}",
    'credits: {{patch: [{{where: {{group: crafts}}, with: {{points: {i}, rule: "32.212"}}}}]}}',
    'attributes: {{append: [{{text: "Attr {i}", rule: "32.211"}}]}}, victory_points: {k}',
    'rule: ["32.21", "32.212"], note: null',
    "victory_points: null, name_language: en",
    'disagreements: [{{text: "d{i}", source: "house rule: d"}}], rule: null',
    'prerequisites: [], source: null, cost: {k}, rule: "32.21"',
    "name_language: null, note: {{unknown: not given}}",
)


@pytest.mark.slow  # eight resolutions, every field's writers asked: about 2 s
@pytest.mark.parametrize("writes", [_ENTITY_WRITES, _FIELD_WRITES], ids=["own-fields", "card-fields"])
def test_an_entity_merged_into_in_place_is_what_a_copy_of_it_made(writes: tuple[str, ...]) -> None:
    """Entries writing in turn into Pottery and Cloth Making, one after the other (``writes``), in a
    variant and in a variant of it: each later merge of a block writes into the block's copy of
    the card in place, and the records of its fields are appended to (round 33; the card's own
    fields are fewer than :data:`model._APPENDED_FROM` and :data:`resolve._IN_PLACE_FROM`, which
    are lowered for them); what is
    resolved is what copying the card and its records at each merge made (round 32's): the
    diagnostics, each field's value (its keys in their order), the writers of each field and
    what the entries lost."""
    first: list[str] = []
    second: list[str] = []
    for i in range(66):
        write = writes[i % len(writes)].format(i=i, j=max(i - 3, 0), k=i % 2)
        into = first if i < 44 else second
        into.append(f"{{id: pottery, {write}}}")
        into.append(f"{{id: cloth_making, {write}}}")
    merge_into = resolve._merge_entity_into
    merged_into: list[object] = []

    def merging(raw: dict[str, Any], *args: Any) -> None:
        merged_into.append(raw)
        merge_into(raw, *args)

    appended = model.Records.__init__
    made: list[object] = []

    def appending(self: Any, *args: Any) -> None:
        made.append(self)
        appended(self, *args)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve, "_merge_entity_into", merging)
        patched.setattr(model.Records, "__init__", appending)
        if writes is _FIELD_WRITES:  # a card's own fields are few: merged into and appended to all the same
            patched.setattr(model, "_APPENDED_FROM", 2)
            patched.setattr(resolve, "_IN_PLACE_FROM", 0)
        in_place = _asked(first, second)
    # each card's merges but each block's first two (the variant of the variant too, where resolved),
    # and those before the card has its fields of its own (:data:`resolve._IN_PLACE_FROM`)
    resolved = {e[0] for e in in_place if isinstance(e, tuple)} - {"advanced-civilization"}
    if writes is _FIELD_WRITES:
        assert len(merged_into) == 2 * (44 - 2) + 2 * (22 - 2), len(merged_into)
    else:
        assert 2 * (44 - 2 - 20) <= len(merged_into) < 2 * (44 - 2), len(merged_into)
    assert resolved == ({"v1"} if writes is _ENTITY_WRITES else {"v1", "v2"}) and len(made) > 3 * 66
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "merges_into_entity", lambda self, raw: False)
        patched.setattr(model, "_APPENDED_FROM", 10**9)
        copied = _asked(first, second)
    assert in_place == copied


def test_an_origins_records_appended_to_read_as_the_tuple_with_record_keeps() -> None:
    """:func:`model.recorded` against :func:`model.with_record`, records of random fields added in
    turn, to the newest records and to older ones (another variant's entries patching a base's
    entity): each read as the sorted tuple the copies made, looked up field by field, compared and
    hashed as it, and as long."""
    pick = random.Random(2033)
    names = [f"f{k}" for k in range(40)]
    for _ in range(20):
        kept: list[tuple[Any, tuple[Any, ...]]] = [((), ())]
        for step in range(120):
            records, tupled = kept[-1] if pick.random() < 0.8 else pick.choice(kept)
            record = (pick.choice(names), step)
            records, tupled = model.recorded(records, record), model.with_record(tupled, record)
            kept.append((records, tupled))
        for records, tupled in pick.sample(kept, 30):
            for name in names:
                assert model.record_of(records, name) == model.record_of(tupled, name)
            assert tuple(records) == tupled and records == tupled and hash(records) == hash(tupled)
            assert len(records) == len(tupled) and bool(records) == bool(tupled)
            assert model.record_of(records, "f1") == model.record_of(tupled, "f1")  # after the tuple was made


@pytest.mark.slow  # four variants analysed: about 1.5 s
def test_a_chain_of_variants_asks_what_each_entry_wrote_over_once() -> None:
    """Counted: a chain of four variants, each with entries changing Pottery's attribute's nested
    list (:func:`_shape`), analysed. Each variant's Q009 marks (what the variants replaced) asked
    what every entry of the chain below it wrote over in the card, again for each variant above:
    4 + 3 + 2 + 1 times each of the first variant's entries (a chain of ten with 10,000 entries:
    55,000 walks, 40% of `validate`, round 29). Asked once per entry and definition now."""
    from civrules.checks import citations
    from civrules.support import memo
    from tests.core.test_resolve import analysed

    entries = _shape("append-remove", 40)
    files = [variant("c0", "advanced-civilization", _body(entries[:10]))]
    files += [variant(f"c{k}", f"c{k - 1}", _body(entries[10 * k : 10 * (k + 1)])) for k in range(1, 4)]
    asked: list[Any] = []
    written_over = resolve.written_over

    def counted(base: Any, patch: Any, at: Any = ()) -> Iterator[Any]:
        asked.append(patch)
        return written_over(base, patch, at)

    memo.forget()
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(citations, "written_over", counted)
        analysis, _ = analysed("c3", *files)
    assert analysis.model is not None
    assert 40 <= len(asked) <= 44, len(asked)  # each entry's once (and the base's own, none)


@pytest.mark.slow  # two analyses and two walks of every object of the process: about 1 s
def test_what_an_entry_wrote_over_is_let_go_with_the_version_of_its_file_an_edit_replaced() -> None:
    """A variant whose entries change Pottery's attribute's nested list analysed, then analysed
    again as an edit leaves it (a new document of the file, as the language server and `watch`
    read it): what each entry wrote over in the card (Q009's marks) was kept by a memo holding the
    entry's node and the card's strongly, so every version of an edited file stayed alive in a
    long-lived session until 65,536 later pairs pushed it out (round 29). It now goes with the
    documents its nodes come from: nothing of the version the edit replaced is alive."""
    from civrules.checks import citations
    from tests.core.test_resolve import analysed

    def edited(mark: str) -> Any:
        entries = [e.replace("n0", mark) for e in _shape("append-remove", 2)]
        analysis, _ = analysed("v1", variant("v1", "advanced-civilization", _body(entries)))
        assert analysis.model is not None
        return analysis

    def alive() -> list[str]:
        gc.collect()
        return sorted(
            mark
            for o in gc.get_objects()
            if isinstance(o, dict) and "calamities" in o
            for mark in ("first-version", "second-version")
            if mark in json.dumps(o, default=str)
        )

    first = edited("first-version")
    (document,) = [weakref.ref(d) for d in first.model.documents if d.file.endswith("rulesets/v1.yaml")]
    assert "first-version" in alive()
    del first
    second = edited("second-version")
    assert citations._WRITTEN  # what the card's document was written over with is kept while it lives
    assert document() is None
    found = alive()
    assert "second-version" in found and "first-version" not in found
    del second


@pytest.mark.slow  # a session analysing a variant four times, and every object of the process walked: seconds
def test_where_entries_wrote_a_list_is_let_go_with_the_versions_of_its_file_edits_replaced(tmp_path: Path) -> None:
    """A session (the language server, `watch`) over a base variant whose entries change
    Pottery's attribute's nested list (``nested-list-variants``' turn: an element appended,
    patched, written whole, removed, then the list deleted), and a variant of it whose entries
    change the list again, its errors located through where each earlier entry wrote an element;
    the variant edited in turn. Those records (:func:`model._recorded`) and their index
    (``model._moves_index``) were kept by memos holding the chains of records strongly: a chain
    holds its entries' origins, and so their documents, so every version of the edited file stayed
    alive until 4,096 later chains pushed it out (round 30). The records now go with their chains:
    of the versions the edits replaced, none is alive but the one before the last (the session
    splices the next edit onto it)."""
    from bench.shapes import _NESTED_TURN
    from civrules.pipeline.incremental import Session
    from tests.core.test_incremental import copy_subset

    def entries(mark: str, turns: range) -> list[str]:
        nested = '{{id: pottery, attributes: {{patch: [{{where: {{rule: "32.211"}}, with: {{calamities: {ops}}}}}]}}}}'
        return [nested.format(ops=_NESTED_TURN[i % 5].format(k=f"{mark}-{i // 5}")) for i in turns]

    rules = copy_subset(tmp_path / "rules")
    (rules / "rulesets" / "v1.yaml").write_text(
        variant("v1", "advanced-civilization", _body(entries("base", range(7))))[1], encoding="utf-8"
    )
    versions = ["first-version", "second-version", "third-version", "fourth-version"]

    def alive() -> set[str]:
        gc.collect()
        return {
            mark
            for o in gc.get_objects()
            if isinstance(o, dict) and "calamities" in o
            for mark in versions
            if mark in json.dumps(o, default=str)
        }

    session = Session(rules)
    for mark in versions:
        session.set_text("rulesets/v2.yaml", variant("v2", "v1", _body(entries(mark, range(7, 14))))[1])
        found = [(d.code, d.span.file.rsplit("/", 1)[-1]) for d in session.update(["v2"]).diagnostics if d.span]
        assert ("S001", "v2.yaml") in found  # the list an entry left empty, located through the records
        assert len(model._RECORDED)  # the records were indexed, and are kept while their chains live
    assert alive() == {"third-version", "fourth-version"}


def _mentions(node: object, text: str) -> bool:
    """Whether ``text`` is in a string somewhere inside ``node`` (its mappings' keys and values, its
    lists' and tuples' items): what ``text in json.dumps(node)`` asks of rule data, for any mapping a
    list of the process holds (an earlier test of the worker may have left one holding an object
    JSON cannot write, or a key that is not a string)."""
    stack: list[object] = [node]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if text in item:
                return True
        elif isinstance(item, (dict, list, tuple)) and id(item) not in seen:
            seen.add(id(item))
            stack.extend([*item.keys(), *item.values()] if isinstance(item, dict) else item)
    return False


@pytest.mark.slow  # a session analysing a variant twice, and every object of the process walked: seconds
def test_a_session_let_go_of_leaves_no_list_of_its_data_in_the_memos(tmp_path: Path) -> None:
    """A session (the language server's, for one workspace folder) checks a variant whose entries
    change Pottery's attribute's nested list, each citing one more rule section for the card; then
    the folder is closed. The lists its resolution made were held, by identity, by memos of the
    process that cannot hold a list weakly (here the card's sections joined, ``_SECTIONS``, 64 of
    them; the index of each list an entry selected in, ``_places``, and the cells list operations
    made, ``_KEPT``, 256 each, are of the same kind), so they stayed alive after the session went
    (round 31). They are held for one run now (:func:`memo.end_run`): no list of the variant's data
    is alive."""
    from bench.shapes import _NESTED_TURN
    from civrules.pipeline.incremental import Session
    from tests.core.test_incremental import copy_subset

    mark, sections = "let-go-mark", ("1", "1.1", "2")  # sections no data of the base cites together
    nested = '{{id: pottery, attributes: {{patch: [{{where: {{rule: "32.211"}}, with: {{calamities: {ops}}}}}]}}}}'
    entries = [nested.format(ops=_NESTED_TURN[i % 5].format(k=f"{mark}-{i // 5}")) for i in range(4)]
    entries += [f'{{id: pottery, cost: {50 + i}, rule: "{section}"}}' for i, section in enumerate(sections)]
    rules = copy_subset(tmp_path / "rules")

    before: list[list[Any]] = []  # lists alive before the session (another test's): held, not counted

    def alive() -> tuple[int, int]:
        """The lists of the variant's elements (marked), and of the card's sections joined, that
        were not alive before the session began."""
        gc.collect()
        earlier = {id(o) for o in before}
        lists = [o for o in gc.get_objects() if type(o) is list and id(o) not in earlier and o is not before]
        marked = sum(1 for o in lists if any(isinstance(x, dict) and _mentions(x, mark) for x in o))
        joined = sum(1 for o in lists if {"32.21", *sections} <= {x for x in o if isinstance(x, str)})
        return marked, joined

    gc.collect()
    before.extend(o for o in gc.get_objects() if type(o) is list)
    session = Session(rules)
    session.set_text("rulesets/v1.yaml", variant("v1", "advanced-civilization", _body(entries))[1])
    found = session.update()
    assert found.analyses["v1"].model is not None
    marked, joined = alive()
    assert marked and joined  # while the session holds the variant
    del found, session  # the language server's workspace folder closed
    assert alive() == (0, 0)


@pytest.mark.slow  # two resolutions of 40 entries: about 1 s
def test_entries_patching_a_small_credit_copy_it_as_before() -> None:
    """Counted: entries each patching Pottery's credit to the Crafts (3 keys) with points and a
    section of their own (`patched-elements`). Merging into such a small element in place, its
    records first let go of it for a token, cost more than copying its few keys (7% more CPU at
    10,000 in round 32): it is copied at each merge, as before, and what is resolved is the same.
    One that grows past :data:`resolve._IN_PLACE_FROM` keys is merged into in place from then on."""
    patches = [
        f'patch: [{{where: {{group: crafts}}, with: {{points: {1 + i % 7}, rule: "32.2.{i}"}}}}]' for i in range(20)
    ]
    grows = [f"patch: [{{where: {{group: crafts}}, with: {{k{i}: 1}}}}]" for i in range(20)]
    first = [_CREDITS + write + "}}" for write in patches]
    second = [_CREDITS + write + "}}" for write in grows]
    stand_in = resolve._Owned.stand_in
    merge_into = resolve._merge_into
    tokens: list[int] = []
    sizes: list[int] = []

    def told(self: resolve._Owned, element: Any) -> object:
        held = stand_in(self, element)
        if held is not element:
            tokens.append(len(element))
        return held

    def merging(element: dict[str, Any], *args: Any) -> None:
        sizes.append(len(element))
        merge_into(element, *args)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "stand_in", told)
        patched.setattr(resolve, "_merge_into", merging)
        found = _asked(first, second)
    # the credit of v1's entries never has more than its 3 keys and its section: copied at each
    assert [n for n in (*sizes, *tokens) if n <= 4] == [], (sizes, tokens)
    assert resolve._IN_PLACE_FROM > 4
    # v2's credit grows a key an entry: merged into in place once it has the keys
    assert len(sizes) >= 20 - resolve._IN_PLACE_FROM and tokens, (sizes, tokens)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolve._Owned, "stand_in", lambda self, element: element)
        patched.setattr(resolve._Owned, "merges_into", lambda self, element: False)
        copied = _asked(first, second)
    assert found == copied
