"""A patch's list operations (remove, replace, patch, insert, append by selector): found through an
index of the elements, they give what applying them one after another to the list gives, comparing
each selector with every element (the definition); and each is located where the patch wrote it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civrules.resolve import LIST_OPERATIONS, PatchProblem, _selector_hint, _selects, merge_patch

# --- the definition: every selector compared with every element, one operation after another ------


def _select(items: list[Any], selector: Any, problems: list[tuple[Any, ...]], at: tuple[Any, ...]) -> int | None:
    found = [i for i, element in enumerate(items) if _selects(selector, element)]
    if len(found) == 1:
        return found[0]
    shown = json.dumps(selector, ensure_ascii=False, sort_keys=True)
    if not found:
        problems.append((at, f"{shown} names no element of the list", _selector_hint(items, selector)))
    else:
        problems.append((at, f"{shown} names {len(found)} elements of the list"))
    return None


def defined(target: list[Any], operations: dict[str, Any]) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """The list and the problems, as the operations define them (well-formed entries only)."""
    items = copy.deepcopy(target)
    problems: list[tuple[Any, ...]] = []
    for name in LIST_OPERATIONS:
        for i, entry in enumerate(operations.get(name, ())):
            where = (name, i)
            if name == "append":
                items.append(copy.deepcopy(entry))
            elif name == "remove":
                index = _select(items, entry, problems, where)
                if index is not None:
                    del items[index]
            elif name == "insert":
                side = "before" if "before" in entry else "after"
                index = _select(items, entry[side], problems, (*where, side))
                if index is not None:
                    index += 1 if side == "after" else 0
                    items[index:index] = copy.deepcopy(entry["items"])
            else:
                index = _select(items, entry["where"], problems, (*where, "where"))
                if index is not None:
                    with_ = entry["with"]
                    items[index] = copy.deepcopy(with_) if name == "replace" else merge_patch(items[index], with_)
    return items, problems


# --- random lists and operations ----------------------------------------------------------------------

IDS = st.sampled_from(["a", "b", "c", "d"])
SCALARS = st.one_of(IDS, st.integers(0, 2), st.booleans(), st.none())
ELEMENTS = st.one_of(
    st.fixed_dictionaries({"id": IDS}, optional={"n": st.integers(0, 2), "tags": st.lists(IDS, max_size=2)}),
    SCALARS,
    st.lists(IDS, max_size=2),
)
SELECTORS = st.one_of(
    SCALARS,
    st.fixed_dictionaries({"id": IDS}),
    st.fixed_dictionaries({"id": IDS, "n": st.integers(0, 2)}),
    st.fixed_dictionaries({"n": st.one_of(st.integers(0, 2), st.booleans())}),
    st.fixed_dictionaries({"tags": st.lists(IDS, max_size=2)}),  # compared with every element
    st.just({}),
    st.lists(IDS, max_size=2),
)
PATCHES = st.one_of(
    st.fixed_dictionaries({}, optional={"id": IDS, "n": st.one_of(st.integers(0, 2), st.none())}),
    SCALARS,
)
OPERATIONS = st.fixed_dictionaries(
    {},
    optional={
        "remove": st.lists(SELECTORS, max_size=4),
        "replace": st.lists(st.fixed_dictionaries({"where": SELECTORS, "with": ELEMENTS}), max_size=3),
        "patch": st.lists(st.fixed_dictionaries({"where": SELECTORS, "with": PATCHES}), max_size=4),
        "insert": st.lists(
            st.one_of(
                st.fixed_dictionaries({"before": SELECTORS, "items": st.lists(ELEMENTS, max_size=2)}),
                st.fixed_dictionaries({"after": SELECTORS, "items": st.lists(ELEMENTS, max_size=2)}),
            ),
            max_size=3,
        ),
        "append": st.lists(ELEMENTS, max_size=2),
    },
).filter(bool)  # `{}` is no list operation: a merge patch of nothing


def _node(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def assert_applied_as_defined(target: list[Any], operations: dict[str, Any]) -> None:
    """The operations give what their definition gives: the list, the problems and their hints,
    and the places of what they wrote."""
    problems: list[PatchProblem] = []
    moved: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    got = merge_patch({"l": target}, {"l": operations}, problems, moved=moved)["l"]
    expected, expected_problems = defined(target, operations)
    assert got == expected
    shown = [
        (p.path[1:], p.message, p.hint) if "no element" in p.message else (p.path[1:], p.message) for p in problems
    ]
    assert shown == expected_problems
    # Each element an insert or an append wrote (the last operations: nothing changes it after) is
    # located at what wrote it, at its place in the result.
    document = {"l": operations}
    for result_path, written in moved.items():
        if written[1] in ("insert", "append") and len(result_path) == 2:
            assert _node({"l": got}, result_path) == _node(document, written), (result_path, written)


@settings(max_examples=100, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ELEMENTS, max_size=8), OPERATIONS)
def test_list_operations_apply_as_one_after_another(target: list[Any], operations: dict[str, Any]) -> None:
    assert_applied_as_defined(target, operations)


@pytest.mark.slow
@settings(max_examples=2_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ELEMENTS, max_size=12), OPERATIONS)
def test_list_operations_apply_as_one_after_another_exhaustively(target: list[Any], operations: dict[str, Any]) -> None:
    assert_applied_as_defined(target, operations)


def test_a_patched_field_is_located_at_its_element_s_place_after_an_insert_moved_it() -> None:
    """A patch is applied before the inserts: an element it changed may move. Its fields were
    located at the place the element had when patched, so an insert before it left them pointing at
    its neighbour (the field of another element, or nothing)."""
    operations = {
        "patch": [{"where": {"id": "b"}, "with": {"n": 1}}],
        "insert": [{"before": {"id": "a"}, "items": [{"id": "x"}]}],
    }
    moved: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    got = merge_patch({"l": [{"id": "a"}, {"id": "b"}]}, {"l": operations}, moved=moved)["l"]
    assert got == [{"id": "x"}, {"id": "a"}, {"id": "b", "n": 1}]
    assert moved[("l", 2, "n")] == ("l", "patch", 0, "with", "n")
    assert moved[("l", 0)] == ("l", "insert", 0, "items", 0)
    assert ("l", 1, "n") not in moved


def test_thousands_of_selectors_are_looked_up_not_compared_with_every_element() -> None:
    """5,000 patches of a list of 5,000 elements, each by its id, compare the selector with the
    elements its id names, not with all 5,000 (the list in the definition's time: 25 million)."""
    import civrules.resolve as resolve

    n = 5_000
    target = [{"id": f"r{i}", "text": "base"} for i in range(n)]
    operations = {
        "patch": [{"where": {"id": f"r{i}"}, "with": {"text": f"changed {i}"}} for i in range(1, n, 2)],
        "remove": [{"id": f"r{i}"} for i in range(0, n, 2)],
    }
    compared = 0
    selects = resolve._selects

    def counted(selector: Any, element: Any) -> bool:
        nonlocal compared
        compared += 1
        return selects(selector, element)

    resolve._selects = counted
    try:
        problems: list[PatchProblem] = []
        got = merge_patch(target, operations, problems)
    finally:
        resolve._selects = selects
    assert not problems and compared == 0
    assert got == [{"id": f"r{i}", "text": f"changed {i}"} for i in range(1, n, 2)]


def test_a_text_selector_naming_no_element_offers_the_element_it_meant_as_a_quick_fix() -> None:
    """`remove: [craftz]` was told "did you mean `crafts`?" with no suggestion: the editor offered
    no quick fix, as it does for every other "did you mean". A selector written as a mapping
    offers none (`{id: x}` is no text to put in its place)."""
    problems: list[PatchProblem] = []
    assert merge_patch(["crafts", "science"], {"remove": ["craftz"]}, problems) == ["crafts", "science"]
    ((found,),) = [[(p.hint, p.suggestion) for p in problems]]
    assert found == ("did you mean `crafts`?", "crafts")
    problems = []
    merge_patch([{"id": "crafts"}], {"remove": [{"id": "craftz"}]}, problems)
    assert [(p.hint, p.suggestion) for p in problems] == [("did you mean `{id: crafts}`?", None)]


@pytest.mark.slow  # it analyses a variant of a whole shipped ruleset (1.8 s)
def test_the_quick_fix_of_a_text_selector_replaces_it_where_the_variant_writes_it() -> None:
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    text = (
        "kind: ruleset\nid: v\nname: v\nextends: advanced-civilization\noverlay:\n  civilization_cards:\n"
        "    patch:\n      - id: pottery\n        groups: {remove: [craftz]}\n"
    )
    workspace = CachedWorkspace({"rulesets/v.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["v"]), ())
    (found,) = [d for d in analysis.diagnostics if d.hint == "did you mean `crafts`?"]
    assert (found.code, found.suggestion) == ("V007", "crafts") and found.span is not None
    line = text.splitlines()[found.span.line - 1]
    assert line[found.span.column - 1 : found.span.end_column - 1] == "craftz"
