"""What a build reuses across the rulesets of one process is what it would render anew (issue 32,
point 6: an `extends` chain of 60 variants rendered its base's map tables and group marks 61 times).

The map's large statements of ``data.py`` are kept by the facts they are made of, and the groups'
marks by the groups; a ruleset rendered after others (the caches warm with theirs) gets the bytes it
gets alone, and a ruleset whose facts differ gets its own.
"""

from __future__ import annotations

import dataclasses

import pytest

from civrules.emit.export import export_ruleset
from civrules.emit.pyfmt import Module
from civrules.families.advanced_civilization import package
from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.sheets import marks
from civrules.model import Collection
from civrules.pipeline import derived_facts
from civrules.support import memo
from tests.rulefiles import shipped_analysis

SHIPPED = ("advanced-civilization", "advanced-civilization-western", "mega-civilization")


@pytest.fixture(scope="module")
def rulesets() -> dict[str, tuple[Ruleset, dict[str, object]]]:
    found = {}
    for ruleset_id in SHIPPED:
        analysis = shipped_analysis(ruleset_id)  # shared: the tests only read the models
        assert analysis.model is not None and analysis.resolved is not None
        model = of_family(analysis.model)
        found[ruleset_id] = (model, export_ruleset(analysis.resolved, model, derived_facts(model)))
    return found


def _alone(ruleset: Ruleset, exported: dict[str, object]) -> Module:
    package._WRITTEN.clear()
    return package.data_module(ruleset, exported)


def test_a_data_module_after_others_is_the_one_made_alone(
    rulesets: dict[str, tuple[Ruleset, dict[str, object]]],
) -> None:
    alone = {ruleset_id: _alone(*made) for ruleset_id, made in rulesets.items()}
    package._WRITTEN.clear()
    for _ in range(2):  # the second round reuses every map statement the first wrote
        for ruleset_id, made in rulesets.items():
            assert package.data_module(*made) == alone[ruleset_id], ruleset_id
    assert package._WRITTEN


def test_a_map_that_differs_in_one_fact_is_written_anew(rulesets: dict[str, tuple[Ruleset, dict[str, object]]]) -> None:
    ruleset, exported = rulesets["advanced-civilization"]
    first = ruleset.areas.items[0]
    # True and 1 are equal and hash alike; the statement's key tells them apart.
    changed = dataclasses.replace(first, land=1 if first.land is True else True)  # type: ignore[arg-type]
    other = dataclasses.replace(ruleset, areas=Collection.of("areas", [changed, *ruleset.areas.items[1:]]))
    package._WRITTEN.clear()
    package.data_module(ruleset, exported)
    reused = package.data_module(other, exported)
    assert reused == _alone(other, exported)
    assert reused != _alone(ruleset, exported)


def test_group_marks_are_made_once_for_the_same_groups(rulesets: dict[str, tuple[Ruleset, dict[str, object]]]) -> None:
    memo.forget()  # the marks by groups (`_marks`) and by the model's groups collection (`_marks_of`)
    ruleset, _ = rulesets["advanced-civilization"]
    first = marks.group_marks(ruleset)
    first["arts"] = first["crafts"]  # a caller's copy: the kept marks are not changed by it
    assert marks.group_marks(ruleset) != first
    assert marks._marks.cache_info().misses == 1  # made once, then looked up by the collection
    equal = dataclasses.replace(ruleset, groups=Collection.of("groups", list(ruleset.groups.items)))
    assert marks.group_marks(equal) == marks.group_marks(ruleset)
    assert marks._marks.cache_info().hits >= 1  # another collection of the same groups: made once
    group = ruleset.groups.items[0]
    recoloured = dataclasses.replace(
        ruleset,
        groups=Collection.of("groups", [dataclasses.replace(group, colour="#123456"), *ruleset.groups.items[1:]]),
    )
    assert marks.group_marks(recoloured)[group.id].fill == "#123456"
    assert marks.group_marks(ruleset)[group.id].fill != "#123456"


def test_forget_clears_every_memo_a_build_keeps(rulesets: dict[str, tuple[Ruleset, dict[str, object]]]) -> None:
    """What a build keeps for the next ruleset of its process is forgotten at once by
    ``memo.forget`` (the benchmarks time each repeated build cold, as a fresh process makes it)."""
    from civrules.emit.sheets import each_sheet
    from civrules.families.advanced_civilization.sheets import svgmap
    from civrules.support import memo

    ruleset, exported = rulesets["advanced-civilization"]
    package.data_module(ruleset, exported)
    list(each_sheet(ruleset, "0" * 64))
    kept = (svgmap._svg_text, svgmap._placed_labels, marks._marks)
    assert package._WRITTEN and all(made.cache_info().currsize for made in kept)
    memo.forget()
    assert not package._WRITTEN and not any(made.cache_info().currsize for made in kept)
    assert package.data_module(ruleset, exported) == _alone(ruleset, exported)
