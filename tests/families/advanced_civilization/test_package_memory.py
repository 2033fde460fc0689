"""The data module of a package is written card by card: its cards' nodes are never all held.

Memory, not time (tracemalloc counts the bytes allocated, whatever the machine's load): issue 32,
point 6, a variant of 900 cards each aliasing one list of 200 attributes peaked at 553 MB in
``civrules build``, 390 MB of it the nodes of the CARDS table, for a 16 MB ``data.py``.
"""

from __future__ import annotations

import dataclasses
import tracemalloc

from civrules.emit.export import export_ruleset
from civrules.families.advanced_civilization.model import of_family
from civrules.families.advanced_civilization.package import data_module
from civrules.model import Collection
from civrules.pipeline import derived_facts
from tests.rulefiles import shipped_analysis

#: Attributes given to every card (as many as one anchored list of the bench shape holds).
ATTRIBUTES = 200


def test_cards_sharing_one_long_attribute_list_are_written_in_memory_bounded_by_the_module() -> None:
    """Every card of advanced-civilization given the same 200 attributes (as an alias names one
    list): the peak while the data module is made stays within twice the module's size (its
    statements, then the module joined). Made as one table of nodes, the cards took 9.4 times."""
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None and analysis.resolved is not None
    model = of_family(analysis.model)
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    first = next(a for card in model.cards if isinstance(card.attributes, tuple) for a in card.attributes)
    attributes = tuple(dataclasses.replace(first, text=f"h{i}") for i in range(ATTRIBUTES))
    cards = [dataclasses.replace(card, attributes=attributes) for card in model.cards]
    aliased = dataclasses.replace(model, cards=Collection.of(model.cards.name, cards))
    tracemalloc.start()
    try:
        module = data_module(aliased, exported)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert module.source.count(b'text="h199"') == len(cards)  # every card's attributes were written
    assert peak < 2.5 * len(module.source), (peak, len(module.source))
