"""Single-point mutations of the shipped rulesets are each caught at the right file and line.

The mutations are generated from the data (mutations.py beside it): every border, prerequisite, credit,
modifier card, calamity, commodity, epoch, nation, citation and overlay entry gives one mutation of
its kind. `make test` runs a sample of each kind (spread over the data); the full sweep of every
instance is marked slow (`make test-slow`, which CI runs too);
`python -m tests.families.advanced_civilization.mutations` runs it and prints the catch rate per kind as a table.
"""

from __future__ import annotations

import copy

import pytest

from civrules.diagnostics import Severity
from civrules.pipeline import analyse
from tests.families.advanced_civilization.mutations import KINDS, Mutation, data_of, run, spread
from tests.rulefiles import CachedWorkspace, dump

#: Mutations per kind in `make test`: one, to show each kind caught (every mutation of every kind
#: is `make test-slow`'s).
SAMPLE = 1


def assert_all_caught(chosen: list[Mutation]) -> None:
    missed = [
        f"{o.mutation.kind} {o.mutation.instance}: expected {o.expected}, found {sorted(set(o.found))[:8]}"
        for o in map(run, chosen)
        if not o.caught
    ]
    assert not missed, "\n".join(missed)


@pytest.mark.parametrize("kind", KINDS)
def test_a_sample_of_every_mutation_kind_is_caught(kind: str) -> None:
    chosen = spread(list(KINDS[kind]()), SAMPLE)
    assert chosen, f"the data no longer holds an instance of {kind}"
    assert_all_caught(chosen)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_every_mutation_of_every_kind_is_caught(kind: str) -> None:
    chosen = list(KINDS[kind]())
    assert chosen, f"the data no longer holds an instance of {kind}"
    assert_all_caught(chosen)


def test_there_are_enough_mutations_of_every_kind() -> None:
    counted = {kind: len(list(generate())) for kind, generate in KINDS.items()}
    assert all(counted.values()), counted  # the data still holds an instance of every kind
    assert sum(counted.values()) >= 1000, counted


def test_the_unmutated_files_written_back_are_clean() -> None:
    """The control: a file written back without its mutation gives no error, so every catch above
    comes from the mutation, not from writing the file back."""
    sampled = [m for generate in KINDS.values() for m in spread(list(generate()), SAMPLE)]
    for ruleset, file in sorted({(m.ruleset, m.file) for m in sampled}):
        workspace = CachedWorkspace({file: dump(copy.deepcopy(data_of(file)))})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
        errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
        assert not errors, (file, errors[:3])
