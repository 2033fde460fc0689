"""Cards that all name one long list of attributes (an alias of an anchored list, as the bench
shape ``aliased-attributes`` writes): their package's data module is written card by card, and
their sheets are encoded as the template writes them, never held as every piece at once.

Memory, not time (tracemalloc counts the bytes allocated, whatever the machine's load): issue 32,
point 6, a variant of 900 cards each aliasing one list of 200 attributes peaked at 553 MB in
``civrules build``, 390 MB of it the nodes of the CARDS table, for a 16 MB ``data.py``.
"""

from __future__ import annotations

import dataclasses
import functools
import tracemalloc
from typing import Any

from civrules.emit.export import export_ruleset
from civrules.emit.sheets.render import each_sheet
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.package import data_module
from civrules.model import Collection
from civrules.pipeline import derived_facts
from tests.budget import heavy
from tests.rulefiles import shipped_analysis

#: Attributes given to every card (as many as one anchored list of the bench shape holds).
ATTRIBUTES = 200


@functools.cache
def aliased() -> tuple[Ruleset, dict[str, Any]]:
    """advanced-civilization with every card given the same 200 attributes, and its export."""
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None and analysis.resolved is not None
    model = of_family(analysis.model)
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    first = next(a for card in model.cards if isinstance(card.attributes, tuple) for a in card.attributes)
    attributes = tuple(dataclasses.replace(first, text=f"h{i}") for i in range(ATTRIBUTES))
    cards = [dataclasses.replace(card, attributes=attributes) for card in model.cards]
    return dataclasses.replace(model, cards=Collection.of(model.cards.name, cards)), exported


@heavy
def test_cards_sharing_one_long_attribute_list_are_written_in_memory_bounded_by_the_module() -> None:
    """The peak while the data module is made stays within 2.5 times the module's size (its
    statements, then the module joined: 1.9). Made as one table of nodes, the cards took 9.4."""
    model, exported = aliased()
    tracemalloc.start()
    try:
        module = data_module(model, exported)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert module.source.count(b'text="h199"') == len(model.cards)  # every card's attributes were written
    assert peak < 2.5 * len(module.source), (peak, len(module.source))


@heavy
def test_the_card_sheet_of_cards_sharing_one_long_attribute_list_is_encoded_as_it_is_written() -> None:
    """The peak while the card sheet is made (its context, its text) stays within 7.5 times the
    page's size (5.8). Rendered whole, every piece the template wrote, their join and its encoding
    were held at once: 9.8."""
    model, _ = aliased()
    for _ in each_sheet(model, "0" * 64):  # what a sheet makes once per process (its template)
        pass
    sheets = each_sheet(model, "0" * 64)
    for file, _content in sheets:  # the sheets before it
        if file == "calamities.html":
            break
    tracemalloc.start()
    try:
        file, content = next(sheets)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert file == "cards.html"
    assert content.count(b"h199") == len(model.cards)
    assert peak < 7.5 * len(content), (peak, len(content))
