"""docs/engine.md ("Records and tables are values"): a FrozenMap reads as ``dict`` and
``types.MappingProxyType`` do: ``|`` (either side) gives a new FrozenMap, ``|=`` rebinds and never
changes the table, ``reversed()`` gives its keys last first, ``copy()`` is the table (round 33)."""

from __future__ import annotations

import pickle
import sys
import types
from collections.abc import Mapping

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import imperial_settlers  # noqa: E402 - the committed packages
from civrules_runtime import FrozenMap  # noqa: E402


def test_or_gives_a_new_frozen_map_the_right_values_winning_as_for_dicts() -> None:
    table = FrozenMap({"a": 6, "b": 3})
    joined = table | {"b": 4, "c": 1}
    assert type(joined) is FrozenMap
    assert list(joined.items()) == list(({"a": 6, "b": 3} | {"b": 4, "c": 1}).items())
    assert table == {"a": 6, "b": 3}  # unchanged
    assert hash(joined) == hash(FrozenMap({"a": 6, "b": 4, "c": 1}))
    assert pickle.loads(pickle.dumps(joined)) == joined
    # any mapping on the right: a proxy, another FrozenMap, a package's typed settings record
    assert table | types.MappingProxyType({"z": 0}) == {"a": 6, "b": 3, "z": 0}
    assert table | FrozenMap({"a": 7}) == {"a": 7, "b": 3}
    settings = imperial_settlers.SETTINGS
    assert dict(FrozenMap({}) | settings) == dict(settings)


def test_a_dict_or_a_frozen_map_stays_read_only() -> None:
    table = FrozenMap({"a": 6, "b": 3})
    joined = {"b": 0, "z": 1} | table
    assert type(joined) is FrozenMap
    assert list(joined.items()) == [("b", 3), ("z", 1), ("a", 6)]  # as dict | dict orders them
    assert types.MappingProxyType({"z": 1}) | table == {"z": 1, "a": 6, "b": 3}


def test_or_equal_rebinds_and_never_changes_the_table() -> None:
    table = FrozenMap({"a": 6})
    kept = table
    table |= {"b": 3}
    assert table == {"a": 6, "b": 3}
    assert kept == {"a": 6} and kept is not table


def test_or_with_what_is_no_mapping_is_pythons_type_error() -> None:
    table: Mapping[str, int] = FrozenMap({"a": 6})
    for other in ([("b", 3)], 5, {"b"}):
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \|"):
            table | other  # type: ignore[operator]
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \|"):
            other | table  # type: ignore[operator]


def test_reversed_and_copy_as_dict_and_mapping_proxy() -> None:
    items = {"c": 1, "a": 2, "b": 3}
    table = FrozenMap(items)
    assert list(reversed(table)) == list(reversed(items)) == list(reversed(types.MappingProxyType(items)))
    assert table.copy() is table
    assert list(reversed(FrozenMap({}))) == []


def test_every_read_only_name_of_dict_and_mapping_proxy_is_a_frozen_maps() -> None:
    """What ``dict`` and ``MappingProxyType`` read, a FrozenMap has; the mutators it must not have
    (``fromkeys`` is a constructor: ``FrozenMap(dict.fromkeys(...))``)."""
    operators = ("__or__", "__ror__", "__reversed__")
    proxy = {name for name in dir(types.MappingProxyType) if not name.startswith("_") or name in operators}
    mutators = {"clear", "pop", "popitem", "setdefault", "update", "__setitem__", "__delitem__", "__ior__"}
    read = ({name for name in dir(dict) if not name.startswith("_")} | proxy) - mutators - {"fromkeys"}
    assert sorted(name for name in read if not hasattr(FrozenMap, name)) == []
    assert sorted(name for name in mutators if hasattr(FrozenMap, name)) == []
