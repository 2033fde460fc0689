"""The data module of a package is written record by record: no table's nodes are all held.

Memory, not time (tracemalloc counts the bytes allocated, whatever the machine's load): issue 32,
point 6; as advanced-civilization's cards (tests/families/advanced_civilization/test_aliased_attributes.py),
entities that each alias one long list have nodes of their own for it in every record.
"""

from __future__ import annotations

import dataclasses
import tracemalloc

from civrules.emit.export import export_ruleset
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.package import data_module
from civrules.model import Collection
from civrules.pipeline import derived_facts
from tests.budget import heavy
from tests.rulefiles import shipped_analysis

#: Ranks given to every unit type (one list an alias names in each).
RANKS = 200
#: Unit types made of each shipped one (the shipped four would leave the module's other tables most of it).
COPIES = 10


@heavy
def test_unit_types_sharing_one_long_rank_list_are_written_in_memory_bounded_by_the_module() -> None:
    """Ten unit types of each of sid-meiers-civilization's, each given the same 200 ranks: the peak
    while the data module is made stays within four times the module's size (3.1, its other tables
    included). Made as one table of nodes, and each statement's lines held at once, it was 28."""
    analysis = shipped_analysis("sid-meiers-civilization")
    assert analysis.model is not None and analysis.resolved is not None
    model = analysis.model
    assert isinstance(model, CivilizationRuleset)
    exported = export_ruleset(analysis.resolved, model, derived_facts(model))
    first = model.unit_types.items[0].ranks[0]
    ranks = tuple(dataclasses.replace(first, index=i) for i in range(RANKS))
    units = [
        dataclasses.replace(unit, id=f"{unit.id}_{copy}", ranks=ranks)
        for copy in range(COPIES)
        for unit in model.unit_types
    ]
    aliased = dataclasses.replace(model, unit_types=Collection.of(model.unit_types.name, units))
    tracemalloc.start()
    try:
        module = data_module(aliased, exported)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert module.source.count(b"Rank(") >= len(units) * RANKS  # every unit type's ranks were written
    assert peak < 4 * len(module.source), (peak, len(module.source))
