"""SETTINGS is typed records in every family, and still the mapping it was.

An engine reads ``SETTINGS.ast.points_per_space`` as an ``int | None`` under mypy --strict
(``typed_settings.py``: the project's mypy run checks it; the slow test runs mypy on it alone and on
lines that misuse a type, which mypy must reject). Code written when SETTINGS was a
``FrozenMap`` keeps working: for every shipped ruleset the records, read as mappings, are that
FrozenMap (the same keys in the same order, the same values of the same types, equal and hashing
alike), built here from ``civrules export`` as data.py wrote it before.
"""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime.mappings import FrozenMap  # noqa: E402 - the committed runtime, kept current by `build --check`
from civrules_runtime.records import SettingsRecord  # noqa: E402

#: One ruleset of each family in `make test` (Central America's settings hold an unknown collection
#: and a data file's settings); every shipped ruleset in `make test-slow`.
FAST = ("central-america", "sid-meiers-civilization", "imperial-settlers")
SHIPPED = (
    "advanced-civilization",
    "advanced-civilization-western",
    "central-america",
    "expansion-project",
    "mega-civilization",
    "sid-meiers-civilization",
    "sid-meiers-civilization-community",
    "imperial-settlers",
    "imperial-settlers-advanced-lookout",
    "imperial-settlers-alternative-lookout",
    "imperial-settlers-peaceful",
)


def as_before(item: Any) -> object:
    """The exported settings as data.py wrote SETTINGS before it was typed: mappings as FrozenMaps
    (keys sorted), lists as tuples, {unknown: why} as None, folded text joined."""
    if isinstance(item, dict):
        if set(item) == {"unknown"}:
            return None
        return FrozenMap({str(k): as_before(v) for k, v in sorted(item.items())})
    if isinstance(item, list):
        return tuple(as_before(v) for v in item)
    if isinstance(item, str) and "\n" in item:
        return " ".join(item.split())
    return item


def shape(item: object) -> object:
    """A value with every mapping's keys in order and every scalar's type: equal only if the two
    are alike in everything code can see through the Mapping API."""
    if isinstance(item, Mapping):
        return ("mapping", list(item), len(item), [(k, shape(v)) for k, v in item.items()])
    if isinstance(item, tuple):
        return ("tuple", [shape(v) for v in item])
    return (type(item).__name__, item)


@pytest.mark.parametrize("ruleset", [r if r in FAST else pytest.param(r, marks=pytest.mark.slow) for r in SHIPPED])
def test_the_records_read_as_mappings_are_the_frozen_map_settings_was(ruleset: str) -> None:
    from tests.engine.facts import exported

    before = as_before(exported(ruleset)["settings"])
    assert isinstance(before, FrozenMap)
    settings = importlib.import_module(f"civrules_rulesets.{ruleset.replace('-', '_')}.data").SETTINGS
    assert isinstance(settings, SettingsRecord) and isinstance(settings, Mapping)
    assert shape(settings) == shape(before)
    assert settings == before and before == settings and hash(settings) == hash(before)
    assert pickle.loads(pickle.dumps(settings)) == settings
    # the old API, key by key: [], .get, in, iteration, len
    for key, value in before.items():
        assert settings[key] == value and settings.get(key) == value and key in settings
        if isinstance(value, FrozenMap):
            inner = settings[key]
            assert isinstance(inner, Mapping) and list(inner) == list(value) and len(inner) == len(value)
    assert settings.get("no_such_setting") is None and "no_such_setting" not in settings
    with pytest.raises(KeyError):
        settings["no_such_setting"]


def test_an_engine_reads_the_typed_fields_and_old_code_the_same_values() -> None:
    from civrules_rulesets import advanced_civilization as ac
    from civrules_rulesets import imperial_settlers as imperial
    from civrules_rulesets import mega_civilization as mega
    from civrules_rulesets import sid_meiers_civilization as smc
    from tests.engine import typed_settings

    found = typed_settings.run()
    old: Any = ac.SETTINGS  # as code written against Mapping[str, object] digs
    mega_ast: Any = mega.SETTINGS["ast"]
    assert found["ast_points"] == (old["ast"]["points_per_space"], mega_ast["points_per_space"])
    stack_range = old["commodities"]["trade_stacks"]["setup"]["steps"][2]["stacks"]
    assert found["advanced_civilization"] == (
        old["ast"]["points_per_space"],
        old["ast"]["start_space"],
        old["credit_policy"]["group_credits"],
        stack_range["from"],
        tuple(k for k, v in old["ast"].items() if v is None),
        old["hand_limit"]["count_public"],
    )
    smc_old: Any = smc.SETTINGS
    assert found["sid_meiers_civilization"] == (
        smc_old["cities"]["limit"],
        smc_old["combat"]["battle_hand"]["base"],
        smc_old["combat"]["battle_hand"]["per_extra_figure"],
    )
    imperial_old: Any = imperial.SETTINGS
    assert found["imperial_settlers"] == (
        imperial_old["starting_hand"]["common"],
        imperial_old["rounds"]["count"],
        imperial_old["card_uses"]["raze"]["spoils_on"],
    )


def test_an_unknown_fact_is_none_and_the_key_is_kept() -> None:
    from civrules_rulesets import advanced_civilization as ac

    ast = ac.SETTINGS.ast
    assert ast is not None and ast.finish_space_min_card_value is None
    assert "finish_space_min_card_value" in ast.unknown_fields and "finish_space_min_card_value" in ast
    assert "levels" not in ast and ast.levels is None  # absent, not unknown
    changed = ast.replace(points_per_space=5)
    assert changed.points_per_space == 5 and changed.unknown_fields == ast.unknown_fields
    assert changed["points_per_space"] == 5 and changed != ast


def test_none_given_to_an_unknown_fact_keeps_it_unknown_and_a_value_makes_it_known() -> None:
    # (every field of every settings record written again with its own value: test_package_values)
    from civrules_rulesets import advanced_civilization as ac
    from civrules_rulesets import central_america as ca

    assert "nations" in ca.SETTINGS.unknown_fields and ca.SETTINGS.nations is None
    same = ca.SETTINGS.replace(nations=None)  # None is what it holds: the replace changes nothing
    assert same == ca.SETTINGS and "nations" in same.unknown_fields and "nations" in same
    ast = ac.SETTINGS.ast
    assert ast is not None and "finish_space_min_card_value" in ast.unknown_fields
    known = ast.replace(finish_space_min_card_value=5)
    assert "finish_space_min_card_value" not in known.unknown_fields and known["finish_space_min_card_value"] == 5
    absent = known.replace(finish_space_min_card_value=None)  # a known fact given None is left out
    assert "finish_space_min_card_value" not in absent and "finish_space_min_card_value" not in absent.unknown_fields


#: Engine code that misuses a typed setting: mypy --strict must reject each line.
MISUSE = """\
from civrules_rulesets import advanced_civilization, imperial_settlers, sid_meiers_civilization

ast = advanced_civilization.SETTINGS.ast
assert ast is not None
name: str = ast.start_space
points: int = ast.points_per_space
advanced_civilization.SETTINGS.ast_typo
limit: str = sid_meiers_civilization.SETTINGS.cities.limit if sid_meiers_civilization.SETTINGS.cities else ""
hand = imperial_settlers.SETTINGS.starting_hand
assert hand is not None
common: bool = hand.common.upper()
total: int = advanced_civilization.SETTINGS.ast.points_per_space + 1
"""


@pytest.mark.slow
def test_mypy_types_the_settings_and_rejects_their_misuse(tmp_path: Path) -> None:
    # The project's configuration (strict, mypy_path), with a cache of its own: `make test` runs
    # the project's mypy beside pytest, and the two would otherwise write one cache at once.
    def mypy(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), *files],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )

    good = mypy("tests/engine/typed_settings.py")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "type: ignore" not in (REPO / "tests" / "engine" / "typed_settings.py").read_text(encoding="utf-8")
    misuse = tmp_path / "misuse.py"
    misuse.write_text(MISUSE, encoding="utf-8")
    bad = mypy(str(misuse))
    lines = {int(line.split(":")[1]) for line in bad.stdout.splitlines() if ": error:" in line}
    assert lines == {5, 6, 7, 8, 11, 12}, bad.stdout


def test_a_field_the_data_leave_out_read_as_a_key_is_told_so_not_another_key() -> None:
    """``SETTINGS["nations"]`` of a ruleset whose nations are its NATIONS table (no setting) was told
    "did you mean 'taxation'?": the key is a field of the record, absent from the data, so no other
    key was meant. A key that is no field still gets the closest key the data have."""
    from civrules_rulesets import advanced_civilization as ac
    from civrules_runtime.mappings import MissingKeyError

    with pytest.raises(MissingKeyError) as absent:
        ac.SETTINGS["nations"]
    told = str(absent.value)
    assert "a field of Settings that this ruleset's data do not write" in told and "did you mean" not in told
    assert isinstance(absent.value, KeyError) and absent.value.args == ("nations",)
    assert ac.SETTINGS.get("nations") is None and ac.SETTINGS.nations is None
    with pytest.raises(MissingKeyError, match="did you mean 'taxation'"):
        ac.SETTINGS["taxatoin"]
    with pytest.raises(MissingKeyError):  # an unhashable key is no field either
        ac.SETTINGS[["nations"]]  # type: ignore[index]
