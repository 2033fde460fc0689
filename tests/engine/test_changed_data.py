"""What docs/engine.md says an engine may not rely on, and what it uses instead (round 34): records
are not dataclasses (``dataclasses.replace`` and the others raise ``dataclasses``' TypeError), and
their own means do what those do; a package's name patched (``mock.patch.object(package, "CARDS",
...)``) changes no helper's answer, and the supported ways to other data (a view with assumptions)
do."""

from __future__ import annotations

import dataclasses
import sys
import typing
from unittest import mock

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

import civrules_runtime_advanced_civilization as family  # noqa: E402 - the committed packages
from civrules_rulesets import advanced_civilization as ac  # noqa: E402
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_runtime import Record, UnknownFactError  # noqa: E402


def test_a_record_is_no_dataclass_and_its_own_means_do_what_dataclasses_functions_do() -> None:
    card = ac.CARDS["law"]
    for call in (
        lambda: dataclasses.replace(card, cost=50),  # type: ignore[type-var]
        lambda: dataclasses.asdict(card),  # type: ignore[call-overload]
        lambda: dataclasses.astuple(card),  # type: ignore[call-overload]
        lambda: dataclasses.fields(card),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="dataclass"):
            call()
    assert not dataclasses.is_dataclass(card) and isinstance(card, Record)
    changed = card.replace(cost=50)
    assert changed.cost == 50 and changed.replace(cost=card.cost) == card
    assert list(typing.get_type_hints(type(card))) == list(card.asdict()) == list(type(card).__slots__)


def test_a_patched_table_of_a_package_changes_no_helper_and_a_view_with_assumptions_does() -> None:
    cost = ac.purchase_cost([], "law")
    cheaper = {**ac.CARDS, "law": ac.CARDS["law"].replace(cost=1)}
    with mock.patch.object(ac, "CARDS", cheaper):
        assert ac.CARDS["law"].cost == 1
        assert ac.purchase_cost([], "law") == cost  # the helper reads the package's data, not its names
    assert ac.CARDS["law"].cost == cost
    with pytest.raises(UnknownFactError):
        ep.purchase_cost([], "law")
    view = ep.assuming(family.Assumptions(card_costs={"law": 170}, why="a test"))
    assert view.purchase_cost([], "law") == 170
