"""The schema errors of a file with many failing items are held no longer than their diagnostics
need (issue 32, points 2 and 6): a map of 20,000 areas, each citing no source where the file cites
none and each with a wrong type, peaked at 316 MB in `validate --format json`, and at 248 MB with
the default cap of 100 diagnostics a file.

Memory and counts, not time (tracemalloc counts the bytes allocated, the collector the objects it
frees, whatever the machine's load).
"""

from __future__ import annotations

import tracemalloc

import pytest

from civrules.load.document import Document
from civrules.load.reader import read_yaml_text
from civrules.schema import validate_document
from tests.collector import left_for_the_collector


def hostile_map(areas: int) -> Document:
    """A map of ``areas`` areas (the bench shape `diagnostics`): each fails the file's `then` (it
    cites no source, nor does the file) and has `land: "yes"`, two diagnostics an area."""
    lines = ["kind: map", "id: hostile", "name: Hostile", "panel: main", "borders: []", "areas:"]
    lines.extend(f'  - {{id: h{i}, name: H{i}, panel: main, land: "yes", water: true}}' for i in range(areas))
    document, problems = read_yaml_text("\n".join(lines) + "\n", "maps/hostile.yaml")
    assert document is not None and problems == []
    return document


def peak_of(document: Document, limit: int | None) -> tuple[int, int, int]:
    """The diagnostics of ``document``, and the bytes validating it held at most and kept."""
    validate_document(document, "map", limit)  # what is made once per process (validators, schemas)
    tracemalloc.start()
    try:
        found = validate_document(document, "map", limit)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return len(found), peak, kept


@pytest.mark.parametrize("areas", [500, pytest.param(5_000, marks=pytest.mark.slow)])
def test_capped_diagnostics_of_many_failing_areas_hold_no_error_of_each(areas: int) -> None:
    """With the cap, the peak is that of the capped diagnostics and 1 kB an area at most (about
    0.2 kB). The file's own errors (one per area, each with its `anyOf`'s branches) were all held
    until the areas were judged: 9 kB an area."""
    count, peak, _ = peak_of(hostile_map(areas), 100)
    assert count == 101  # 100 and R011
    assert peak < 256 * 1024 + 1024 * areas, (peak, areas)


def test_validating_many_failing_areas_leaves_no_cycle_for_the_collector() -> None:
    """Each of jsonschema's errors names the error of its `anyOf` as its parent, which names it
    back: freed only by a collection, which a run makes seldom (``collector.for_a_run``); they are
    let go of as soon as their diagnostics are made. The collector found 3 objects an area."""
    document = hostile_map(300)
    validate_document(document, "map", None)
    _, cycles = left_for_the_collector(lambda: validate_document(document, "map", None))
    assert cycles < 50, cycles
