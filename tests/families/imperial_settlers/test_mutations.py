"""Single-point mutations of Imperial Settlers' shipped data are each caught by the family's check
that owns the fact, at the right file and line (mutations.py beside this module). `make test` runs a
sample of each kind; the sweep of every instance is slow (`make test-slow`)."""

from __future__ import annotations

import pytest

from tests.families.advanced_civilization.mutations import Mutation, run, spread
from tests.families.imperial_settlers.mutations import KINDS

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
    assert_all_caught(list(KINDS[kind]()))


def test_the_mutations_cover_the_familys_data_checks() -> None:
    """Every check of the family that guards a fact of the shipped data has a mutation kind."""
    codes = {m.code for generate in KINDS.values() for m in generate()}
    assert codes >= {"F001", "F005", "F007", "F008", "F009", "F010", "F011", "F012", "F013", "F016"}
    assert sum(len(list(generate())) for generate in KINDS.values()) >= 400
