"""A list's diff element by element (`civrules diff`, a variant's sheet marks) is the same when its
elements are counted and looked up as when each was searched for in the other list.

`_diff_lists` matched the elements of two lists by searching one for each of the other's (and an
element gone for a come one of its name among all of them): the square of the list, which a
variant changing one list of 5,000 ids reached. It now counts texts and looks names up; the
reference below is the search, on random lists of the shapes rule data has (ids, numbers, mappings
with and without naming fields, equal elements, unknowns).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from civrules.resolve import diff
from civrules.resolve.diff import FieldChange


def _unmatched(these: list[Any], others: list[Any]) -> list[int]:
    """The places of ``these`` whose text is not found in ``others``, each found one used up."""
    remaining = [diff._canon(v) for v in others]
    missed = []
    for i, value in enumerate(these):
        text = diff._canon(value)
        if text in remaining:
            remaining[remaining.index(text)] = "\x00"
        else:
            missed.append(i)
    return missed


def _searched(old: list[Any], new: list[Any], path: str) -> Iterator[FieldChange]:
    """The matching of elements as it was: each searched for in the other list."""
    gone, added = _unmatched(old, new), _unmatched(new, old)
    before, after = diff.distinguish(old), diff.distinguish(new)
    plain = diff._plain_mapping
    if len(gone) == 1 and len(added) == 1 and plain(old[gone[0]]) and plain(new[added[0]]):
        yield from diff.diff_values(old[gone[0]], new[added[0]], f"{path}[{before[gone[0]]}]")
        return
    pairs: dict[int, int] = {}
    for i in gone:
        match = next((j for j in added if after[j] == before[i] and j not in pairs.values()), None)
        if match is not None and not before[i].startswith("#") and plain(old[i]) and plain(new[match]):
            pairs[i] = match
    for i in gone:
        if i in pairs:
            yield from diff.diff_values(old[i], new[pairs[i]], f"{path}[{before[i]}]")
        else:
            yield FieldChange(f"{path}[{before[i]}]", old[i], None)
    for j in added:
        if j not in pairs.values():
            yield FieldChange(f"{path}[{after[j]}]", None, new[j])


def _element(rng: random.Random, kind: str) -> Any:
    if kind == "id":
        return rng.choice(["gaul", "narbo", "roma", "iberia", "crete"])
    if kind == "number":
        return rng.randint(0, 4)
    mapping: dict[str, Any] = {"level": rng.choice(["basic", "expert"]), "min_cities": rng.randint(1, 3)}
    if rng.random() < 0.5:
        mapping["text"] = rng.choice(["Ships may move five areas.", "Ships may move four areas.", "Cities grow."])
    if rng.random() < 0.2:
        mapping["amount"] = {"unknown": rng.choice(["lost", "not given"])}
    return mapping if rng.random() < 0.9 else {"unknown": "not in the sources"}


def test_counting_and_looking_up_match_the_search_on_random_lists() -> None:
    rng = random.Random(32)
    compared = 0
    for _ in range(600):
        kind = rng.choice(["id", "number", "mapping", "mapping"])
        old = [_element(rng, kind) for _ in range(rng.randint(0, 7))]
        new = [rng.choice(old) if old and rng.random() < 0.5 else _element(rng, kind) for _ in range(rng.randint(0, 7))]
        rng.shuffle(new)
        if diff._named_each(old) is not None and diff._named_each(new) is not None and (old or new):
            continue  # named by a field: not this matching
        assert list(diff._diff_lists(old, new, "p")) == list(_searched(old, new, "p")), (old, new)
        compared += 1
    assert compared > 400
