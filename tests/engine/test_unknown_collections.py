""" "None" and "unknown" are told apart for every collection of every package of every family: an
empty public table is either named by UNKNOWN_COLLECTIONS (the sources do not give it) or known to
hold nothing, and each of the latter is listed here with the reason (issue 28 point 6)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from types import ModuleType

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

PACKAGES = shipped.package_names()  # never a designer's variant built beside them
#: Empty tables that are known to hold nothing (none, not unknown), and why.
KNOWN_EMPTY = {
    "ID_ALIASES": "no id of the ruleset has an alias (not a fact of the game)",
    "ENTITY_FIELD_SOURCES": "no variant changed an entity of the ruleset (provenance, not a fact of the game)",
    # The data has no `non_native_block_bonus` (the Expansion Project's rule for its trade blocks)
    # and neither marks it unknown nor lists it under not_in_sources.
    "BLOCK_BONUSES": "the ruleset's data gives no bonus for a set redeemed in a non-native block",
    # Likewise no `deck_compositions`: Advanced Civilization builds trade stacks (TRADE_STACKS).
    "DECK_COMPOSITIONS": "the ruleset's data composes no decks by player count",
}


def package(name: str) -> ModuleType:
    return importlib.import_module(f"civrules_rulesets.{name}")


def collections(module: ModuleType) -> dict[str, object]:
    """The package's public tables that are collections (mappings and tuples of entries)."""
    return {
        name: value
        for name in module.__all__
        if name.isupper()
        and isinstance(value := getattr(module, name), Mapping | tuple | frozenset)
        and name != "UNKNOWN_COLLECTIONS"
    }


def empty(value: object) -> bool:
    if isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
        return not any(value.values())  # ADJACENCY: one (empty) mapping per kind of adjacency
    return not value


def test_every_family_has_packages() -> None:
    families = {package(name).__name__ for name in PACKAGES}
    assert {"civrules_rulesets.advanced_civilization", "civrules_rulesets.sid_meiers_civilization"} <= families
    assert "civrules_rulesets.imperial_settlers" in families


@pytest.mark.parametrize("name", PACKAGES)
def test_an_empty_collection_is_unknown_or_known_to_hold_nothing(name: str) -> None:
    module = package(name)
    tables = collections(module)
    assert set(module.UNKNOWN_COLLECTIONS) <= set(tables), "UNKNOWN_COLLECTIONS names a table the package lacks"
    for table in module.UNKNOWN_COLLECTIONS:
        assert empty(tables[table]), f"{table} is named unknown but has entries"
    for table, value in tables.items():
        if empty(value) and table not in module.UNKNOWN_COLLECTIONS:
            assert table in KNOWN_EMPTY, f"{name}.{table} is empty: unknown (UNKNOWN_COLLECTIONS) or none?"


def test_a_derived_table_is_unknown_with_its_collection() -> None:
    """Sid Meier's Civilization's base ruleset leaves its eras, culture track and markers out; an
    Imperial Settlers ruleset without decks would leave DECK_CARDS unknown with DECKS."""
    smc = package("sid_meiers_civilization")
    assert {"ERAS", "CULTURE_SPACES", "CULTURE_DECKS", "TILES", "HUTS", "VILLAGES"} == smc.UNKNOWN_COLLECTIONS
    assert not package("sid_meiers_civilization_community").UNKNOWN_COLLECTIONS
    from civrules.families.imperial_settlers.package import COLLECTION_TABLES, DATA_NAMES

    assert {t for tables in COLLECTION_TABLES.values() for t in tables} <= set(DATA_NAMES)
    assert COLLECTION_TABLES["decks"] == ("DECKS", "DECK_CARDS")
    assert not package("imperial_settlers").UNKNOWN_COLLECTIONS
