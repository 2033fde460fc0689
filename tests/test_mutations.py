"""Single-point mutations of the shipped rulesets are each caught at the right file and line.

The mutations are generated from the data (tests/mutations.py): every border, prerequisite, credit,
modifier card, calamity, commodity, epoch, nation, citation and overlay entry gives one mutation of
its kind. CI runs up to five per kind, spread over the data; `python -m tests.mutations` runs them
all and prints the same table.
"""

from __future__ import annotations

import copy

import pytest

from civrules.diagnostics import Severity
from civrules.pipeline import analyse
from tests.mutations import KINDS, Outcome, data_of, mutations, run, table
from tests.rulefiles import CachedWorkspace, dump

SAMPLE = 5


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    return [run(mutation) for mutation in mutations(SAMPLE)]


def test_every_mutation_kind_is_caught_every_time(outcomes: list[Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print("\n" + table(outcomes))
    missed = [
        f"{o.mutation.kind} {o.mutation.instance}: expected {o.expected}, found {sorted(set(o.found))[:8]}"
        for o in outcomes
        if not o.caught
    ]
    assert not missed, "\n".join(missed)


def test_there_are_enough_mutations_of_every_kind(outcomes: list[Outcome]) -> None:
    assert len(outcomes) >= 30
    counted = {kind: sum(o.mutation.kind == kind for o in outcomes) for kind in KINDS}
    assert all(counted.values()), counted  # the data still holds an instance of every kind


def test_the_unmutated_files_written_back_are_clean(outcomes: list[Outcome]) -> None:
    """The control: a file written back without its mutation gives no error, so every catch above
    comes from the mutation, not from writing the file back."""
    for ruleset, file in sorted({(o.mutation.ruleset, o.mutation.file) for o in outcomes}):
        workspace = CachedWorkspace({file: dump(copy.deepcopy(data_of(file)))})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
        errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
        assert not errors, (file, errors[:3])
