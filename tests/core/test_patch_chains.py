"""An element of a list patched by entry after entry (round 27, issue 32 point 1): what still
writes the list, and what each entry's facts lost, are found from one record per patch of the
element, not from each entry's walk through the chain of every later patch of it (the square of
the entries: 10,000 entries patching Pottery's group credit took 280 s to validate, and 20,000
over 10 GB). Held to the walk as it was (the reference below, round 26's code) on random entries."""

from __future__ import annotations

import random
from typing import Any

import pytest

from civrules import resolve
from civrules.model import Origin, WriterLog
from civrules.resolve import (
    Resolver,
    Writer,
    _fact_leaves,
    _Merged,
    _merged_key_by_key,
    _node_at,
    _not_written_over,
    _operations_left,
    _value_at,
    field_writers,
    is_list_operations,
    overwritten,
    written_over,
)
from tests.budget import heavy
from tests.core.test_resolve import variant
from tests.rulefiles import CachedWorkspace

# The reference: round 26's walk (f45f994c), each earlier entry's record following the chain of
# every later patch of its element, unchanged but for its names.

_OldPatches = tuple[tuple[Any, Any], "_OldPatches | None"]


def _old_writing(log: WriterLog, value: Any, name: str) -> tuple[Writer, ...]:
    if log.found:
        return log.found[0]
    here: dict[int, int] = {}
    if isinstance(value, list):
        for element in value:
            here[id(element)] = here.get(id(element), 0) + 1
    standing: dict[int, tuple[Any, Any, _OldPatches]] = {}
    later = _Merged()
    found: list[Writer] = []
    lost: list[tuple[Origin, Any]] = []

    def left(record: Writer) -> None:
        kept: Writer | None = record
        if record[2] and isinstance(value, list):
            kept = _old_left(record, here, standing, name, lost)
        if kept is not None and later.any:
            if kept[0] is not None and kept[2]:
                lost.extend((kept[0], path) for path in kept[1])
            kept = _not_written_over(kept, name, later)
        if kept is not None:
            found.append(kept)

    node: WriterLog | None = log
    while node is not None:
        became: list[tuple[Any, Any, Any, Any, _OldPatches | None]] = []
        for now, was, with_, where in node.patched:
            if here.get(id(now), 0) > 0:
                became.append((was, now, with_, where, None))
            elif (derived := standing.get(id(now))) is not None:
                became.append((was, derived[1], with_, where, derived[2]))
        if node.mine is not None:
            left(node.mine)
        for was, now, with_, where, after in became:
            standing[id(was)] = (was, now, ((with_, where), after))
        if node.cut:
            break
        if node.merge is not None:
            later.add(node.merge)
        if node.before is None:
            for record in reversed(node.start):
                left(record)
        node = node.before
    found.reverse()
    log.found.append(tuple(found))
    log.lost.extend(lost)
    return log.found[0]


def _old_left(
    record: Writer,
    here: dict[int, int],
    standing: dict[int, tuple[Any, Any, _OldPatches]],
    name: str,
    lost: list[tuple[Origin, Any]],
) -> Writer | None:
    writer, paths, elements = record
    if not elements:
        return record
    kept = []
    for path, element in zip(paths, elements, strict=True):
        if here.get(id(element), 0) > 0:
            here[id(element)] -= 1
            kept.append((path, element))
        elif standing and (derived := standing.pop(id(element), None)) is not None:
            kept += [(leaf, derived[1]) for leaf in _old_patched_left(writer, name, path, element, derived[2])]
            if writer is not None:
                lost.extend((writer, over) for over in _old_patched_over(writer, name, path, derived[2]))
        elif writer is not None:
            lost.append((writer, path))
    if not kept:
        return None
    return writer, tuple(path for path, _ in kept), tuple(element for _, element in kept)


def _old_patched_left(writer: Origin | None, name: str, path: Any, element: Any, patches: _OldPatches) -> list[Any]:
    written: Any = element
    prefix = path
    if writer is not None:
        if path[:1] == ("patch",) and len(path) == 2:
            prefix = (*path, "with")
        written = _node_at(writer.document, (*writer.path, name, *prefix))
    over = _Merged()
    naming: set[Any] = set()
    chain: _OldPatches | None = patches
    while chain is not None:
        (with_, where), chain = chain
        if _merged_key_by_key(with_):
            over.add(with_)
        if isinstance(where, dict):
            naming.update(where)
    left = [leaf for leaf in _fact_leaves(written) if not (leaf and leaf[0] in naming) and not over.writes_over(leaf)]
    nested = [leaf for leaf in left if is_list_operations(_value_at(written, leaf))]
    if nested:
        taken: set[Any] = set()
        chain = patches
        while chain is not None:
            (with_, _), chain = chain
            taken.update(written_over(written, with_))
        gone = {leaf for leaf in nested if not _operations_left(_value_at(written, leaf), taken, leaf)}
        left = [leaf for leaf in left if leaf not in gone]
    return [(*prefix, *leaf) for leaf in left]


def _old_patched_over(writer: Origin, name: str, path: Any, patches: _OldPatches) -> list[Any]:
    prefix = (*path, "with") if path[:1] == ("patch",) and len(path) == 2 else path
    written = _node_at(writer.document, (*writer.path, name, *prefix))
    over: list[Any] = []
    chain: _OldPatches | None = patches
    while chain is not None:
        (with_, _), chain = chain
        over += written_over(written, with_, prefix)
    return over


#: The cards the random entries change (and one that is not there: an error).
CARDS = ("pottery", "cloth_making", "no_such_card")


def _entry(pick: random.Random, made: list[int]) -> str:
    """One random patch entry (a flow mapping) of a card's credits or attributes, most of them a
    `patch:` of the same few elements again (chains of patches), with `null`s, `{unknown}`s,
    refused citations, selectors that name nothing, the selector's field written over, list
    operations on an attribute's nested calamities, and appends, removals, insertions and
    replacements of the elements patched."""
    card = pick.choices(CARDS, weights=(8, 3, 1))[0]
    fields: list[str] = []

    def points() -> str:
        return pick.choice(["3", "5", "null", "{unknown: why}", "7"])

    def cited() -> str:
        return pick.choice(['rule: "32.212"', 'rule: "32.2.9"', "rule: 7", 'rule: ["32.21", 7]', "rule: null", ""])

    def credit_where() -> str:
        return pick.choice(["{group: crafts}", "{group: crafts}", "{card: democracy}", "{card: c1}", "{group: none}"])

    def credit_with() -> str:
        parts = [f"points: {points()}" for _ in range(pick.random() < 0.8)]
        parts += [c for c in [cited()] if c]
        if pick.random() < 0.08:
            parts.append(pick.choice(["group: crafts", "card: c1", "group: arts"]))
        if pick.random() < 0.05:
            return pick.choice(["null", "{unknown: why}", "3"])
        return "{" + ", ".join(parts) + "}"

    def attribute() -> str:
        made[0] += 1
        return f'{{text: "A{made[0]}.", rule: "32.211"}}'

    def named() -> str:
        return f'{{text: "A{pick.randrange(1, made[0] + 2)}."}}'

    def attribute_with() -> str:
        roll = pick.random()
        if roll < 0.3:
            citation = cited() or 'rule: "32.2"'
            return f"{{calamities: {{append: [{{id: famine{pick.randrange(3)}}}]}}, {citation}}}"
        if roll < 0.45:
            return f"{{calamities: {{remove: [{{id: famine{pick.randrange(3)}}}]}}}}"
        if roll < 0.55:
            return "{calamities: [{id: flood}]}"
        if roll < 0.6:
            return "{calamities: null}"
        return "{" + ", ".join(p for p in ["note: n" if pick.random() < 0.2 else "", cited()] if p) + "}"

    roll = pick.random()
    if roll < 0.5:
        fields.append(f"credits: {{patch: [{{where: {credit_where()}, with: {credit_with()}}}]}}")
    elif roll < 0.55:
        fields.append(f"credits: {{append: [{{card: c1, points: {pick.choice(['4', '6'])}}}]}}")
    elif roll < 0.58:
        fields.append(f"credits: {{remove: [{credit_where()}]}}")
    elif roll < 0.6:
        fields.append(f"credits: {{insert: [{{before: {credit_where()}, items: [{{card: c1, points: 2}}]}}]}}")
    elif roll < 0.62:
        fields.append(f"credits: {{replace: [{{where: {credit_where()}, with: {{group: crafts, points: 1}}}}]}}")
    elif roll < 0.63:
        whole = ["credits: null", "credits: {unknown: why}", "credits: [{group: crafts, points: 2}]"]
        fields.append(pick.choice(whole))
    elif roll < 0.75:
        fields.append(f"attributes: {{append: [{attribute()}]}}")
    elif roll < 0.93:
        fields.append(f"attributes: {{patch: [{{where: {named()}, with: {attribute_with()}}}]}}")
    elif roll < 0.95:
        fields.append(f"attributes: {{remove: [{named()}]}}")
    elif roll < 0.97:
        fields.append(f"attributes: {{insert: [{{before: {named()}, items: [{attribute()}]}}]}}")
    else:
        fields.append(pick.choice(["attributes: null", "attributes: {unknown: why}"]))
    if pick.random() < 0.2:
        fields.append(f'rule: "32.2.{pick.randrange(9)}"')
    return "{" + ", ".join([f"id: {card}", *fields]) + "}"


def _body(entries: list[str]) -> str:
    return "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {e}\n" for e in entries)


def _asked(first: list[str], second: list[str]) -> list[Any]:
    """The variant ``v1`` of advanced-civilization with the entries ``first`` and its variant ``v2``
    with ``second``, resolved: each card's fields' writers (in order) and, for each field, what the
    entries wrote that later ones took (as a set: its one reader, Q009's marks, keeps a set)."""
    files = dict([variant("v1", "advanced-civilization", _body(first)), variant("v2", "v1", _body(second))])
    workspace = CachedWorkspace(files)
    resolver = Resolver(workspace)
    found: list[Any] = []
    for ruleset in ("advanced-civilization", "v1", "v2"):
        resolved, diagnostics = resolver.resolve(workspace.load_ruleset(workspace.manifests()[ruleset]))
        assert resolved is not None
        found.append([repr(d) for d in diagnostics])
        for entry in resolved.collections["civilization_cards"]:
            if entry.raw.get("id") not in CARDS:
                continue
            for name in entry.raw:
                writers = [
                    (None if w is None else (w.document.file, w.path), paths)
                    for w, paths in field_writers(entry.origin, name)
                ]
                lost = sorted({repr((w.document.file, path)) for w, path in overwritten(entry.origin, name)})
                found.append((ruleset, entry.raw.get("id"), name, repr(entry.raw[name]), writers, lost))
    return found


@heavy
def test_an_element_patched_entry_after_entry_keeps_the_writers_the_walk_through_every_later_patch_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random entries (:func:`_entry`) in a variant and a variant of it, most patching the same
    credit or attribute again (chains of patches within a variant and across the two), resolved as
    now and with round 26's walk (each earlier writer's record following the chain of every later
    patch of its element): the same diagnostics, values, writers in the same order, and the same
    facts lost (the walk's duplicates, one per later patch, aside)."""
    pick = random.Random(27)
    compared = 0
    for _ in range(30):
        made = [0]
        first = [_entry(pick, made) for _ in range(pick.randrange(2, 40))]
        second = [_entry(pick, made) for _ in range(pick.randrange(0, 30))]
        now = _asked(first, second)
        with monkeypatch.context() as patched:
            patched.setattr(resolve, "_writing", _old_writing)
            walked = _asked(first, second)
        assert now == walked, (first, second)
        compared += len(first) + len(second)
    assert compared > 600


_CREDIT = "credits: {patch: [{where: {group: crafts}, with: {WITH}}]}"


#: Each entry of bench's ``patched-elements`` shape, and its kin: the section cited on the entry; a
#: patch that writes no fact (a `null`: its change is no writer, and the chain of later patches it
#: left was taken by the next earlier patch without being read); list operations appending to an
#: attribute's nested list (each asked of every later entry's, which write over nothing). Each with
#: the field asked what the entries lost, and how many facts each entry but the last loses.
SHAPES = {
    "rule-in-element": ("{id: pottery, " + _CREDIT.replace("WITH", 'points: P, rule: "32.2.I"') + "}", "credits", 2),
    "rule-on-entry": ('{id: pottery, rule: "32.2.I", ' + _CREDIT.replace("WITH", "points: P") + "}", "credits", 1),
    "writing-nothing": ("{id: pottery, " + _CREDIT.replace("WITH", "points: null") + "}", "credits", 0),
    "nested-append": (
        '{id: pottery, attributes: {patch: [{where: {rule: "32.211"}, with: {calamities: {append: [{id: cI}]}}}]}}',
        "attributes",
        0,
    ),
}


@pytest.mark.parametrize(
    "shape", [pytest.param(shape, marks=heavy) if shape == "nested-append" else shape for shape in sorted(SHAPES)]
)
def test_an_element_patched_by_each_entry_is_followed_at_a_cost_linear_in_them(shape: str) -> None:
    """Counted, never timed: n entries each patching Pottery's group credit (:data:`SHAPES`),
    resolved, then asked what still writes each field and what the entries lost, at n and 2n (the
    base resolved before, uncounted). Each earlier entry's record walked the chain of every later
    patch, merging each `with:` again and recording once per later patch what it wrote over: the
    square of n in work and in memory."""
    from tests.security.test_check_growth import MOST, calls_made

    def work(n: int) -> int:
        template, field, each = SHAPES[shape]
        entries = [template.replace("P", str(1 + i % 50)).replace("I", str(i)) for i in range(n)]
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", _body(entries))]))
        resolver = Resolver(workspace)
        resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
        loaded = workspace.load_ruleset(workspace.manifests()["big"])
        lost: list[Any] = []

        def run() -> None:
            resolved, _ = resolver.resolve(loaded)
            assert resolved is not None
            (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
            for name in pottery.raw:
                field_writers(pottery.origin, name)
            lost[:] = list(overwritten(pottery.origin, field))

        made = calls_made(run)
        # every entry but the last lost what the next wrote over (its points, and its section where
        # it cited one in the element), each once; a `null` wrote nothing to lose, an append lost none
        assert len(lost) == len(set(lost)) == (n - 1) * each, len(lost)
        return made

    small, large = work(150), work(300)
    assert large <= MOST * small, (small, large)


def _tree(node: Any) -> Any:
    """A :class:`resolve._Merged` or :class:`resolve._Over` as plain values, to compare two (an
    :class:`resolve._Over`'s children as a mapping, their order and each one's ``rank`` in it aside)."""
    fields = [getattr(node, name) for name in type(node).__slots__ if name not in ("children", "rank")]
    return (repr(fields), {key: _tree(child) for key, child in node.children.items()})


def test_a_link_whose_state_an_earlier_patch_took_makes_it_again_when_read() -> None:
    """A chain of patches of one element, each link's state taken by the link of the patch before
    it (its only user), then every link read (as a record that claims the element after an earlier
    patch of it was linked would, or a second link made from it): each the state its patches make
    when merged anew, not the state grown since by the earlier patches."""
    patches = [
        ({"points": 3, "rule": "32.2.1"}, {"group": "crafts"}),
        ({"points": None}, {"card": "democracy"}),
        ({"calamities": {"append": [{"id": "famine"}]}}, {"text": "A1."}),
        ({"unknown": "why"}, None),
        ({"points": {"unknown": "why"}, "note": "n"}, {"group": "crafts"}),
    ]
    links: list[resolve._Chain] = []
    after: resolve._Chain | None = None
    for with_, where in reversed(patches):
        if after is not None:
            after.users += 1
        after = resolve._Chain.before(after, with_, where)
        links.append(after)
    assert [link._state is None for link in links] == [True] * (len(links) - 1) + [False]
    for j, link in enumerate(links):
        # made anew: this link's patch and the later ones, each merged as a patch is
        merged, naming, over = resolve._Merged(), set[Any](), resolve._Over()
        for with_, where in patches[len(patches) - 1 - j :]:
            if isinstance(with_, dict) and set(with_) != {"unknown"}:
                merged.add(with_)
            naming.update(where or {})
            over.add(with_)
        state = link.state()
        assert (_tree(state[0]), state[1], _tree(state[2])) == (_tree(merged), naming, _tree(over)), j
    # and what it wrote over in an element, read from that state: each path once
    element = {"group": "crafts", "points": 10, "calamities": [{"id": "famine"}], "rule": "32.212"}
    found = list(dict.fromkeys(links[-1].state()[2].over(element, ("e",))))
    assert sorted(found) == sorted({path for with_, _ in patches for path in written_over(element, with_, ("e",))})
    # the element has no `note:`: the patch writing one adds it, over nothing
    assert sorted(found) == [("e",), ("e", "points"), ("e", "rule")]
