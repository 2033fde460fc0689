"""What an engine assumes is checked like a helper's arguments, in every family: an assumed value of
the wrong type or outside the bounds the family's schema sets the fact is the runtime's
OutOfDomainError naming the field and the id, when the ``Assumptions`` record is made; a value that
is no mapping where one belongs is NotACollectionError; an id the ruleset does not have (or one
that is no str) is UnknownIdError at ``assuming()``; anything but the family's ``Assumptions`` given
to ``assuming()`` is a TypeError naming the record it takes. Never a bare AssertionError,
AttributeError or TypeError from inside a helper later, nor a wrong answer (a cost of ``'ten'``).

A view is a value as the package's records are: it pickles and copies, equals a view of the same
package with equal assumptions, and ``dir()`` lists every name of its package."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

import civrules_runtime_advanced_civilization as ac_runtime  # noqa: E402 - the committed packages
import civrules_runtime_imperial_settlers as imperial_runtime  # noqa: E402
import civrules_runtime_sid_meiers_civilization as smc_runtime  # noqa: E402
from civrules_rulesets import advanced_civilization as ac  # noqa: E402
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import NotACollectionError, OutOfDomainError, UnknownIdError  # noqa: E402

SCHEMAS = REPO / "schemas"
PHASE = "ruleset.schema.json#/properties/sequence_of_play/properties/phases/items/properties/"

#: Each whole-number assumption (family record, field, an id it may name) and the schema node
#: whose bounds it takes: the runtime writes the bounds out, this keeps them the schema's.
BOUNDED: dict[str, tuple[Callable[..., object], str, str]] = {
    "ac card_costs": (
        ac_runtime.Assumptions,
        "card_costs",
        "civilization-cards.schema.json#/$defs/card/properties/cost/oneOf/0",
    ),
    "ac commodity_values": (
        ac_runtime.Assumptions,
        "commodity_values",
        "commodities.schema.json#/$defs/commodity/properties/value",
    ),
    "ac commodity_counts": (
        ac_runtime.Assumptions,
        "commodity_counts",
        "commodities.schema.json#/$defs/commodity/properties/count",
    ),
    "ac track_spaces": (
        ac_runtime.Assumptions,
        "track_spaces",
        "ruleset.schema.json#/properties/ast/properties/tracks/items/properties/spaces",
    ),
    "ac min_trade_cards": (ac_runtime.Assumptions, "min_trade_cards", PHASE + "min_trade_cards"),
    "ac named_trade_cards": (ac_runtime.Assumptions, "named_trade_cards", PHASE + "named_trade_cards"),
    "ac max_primary_calamities": (
        ac_runtime.Assumptions,
        "max_primary_calamities",
        PHASE + "max_primary_calamities/oneOf/0",  # the number; a limit with parts is not assumed
    ),
    "ac ship_moves": (ac_runtime.Assumptions, "ship_moves", PHASE + "ship_moves"),
    "ac hand_limit": (
        ac_runtime.Assumptions,
        "hand_limit",
        "ruleset.schema.json#/properties/hand_limit/properties/commodity_cards",
    ),
    "ac tokens_per_city": (
        ac_runtime.Assumptions,
        "tokens_per_city",
        "ruleset.schema.json#/properties/taxation/properties/tokens_per_city",
    ),
    "smc technology_levels": (
        smc_runtime.Assumptions,
        "technology_levels",
        "sid-meiers-civilization/technologies.schema.json#/properties/technologies/items/properties/level/oneOf/0",
    ),
    "smc building_costs": (
        smc_runtime.Assumptions,
        "building_costs",
        "sid-meiers-civilization/buildings.schema.json#/properties/buildings/items/properties/cost/oneOf/0",
    ),
    "smc wonder_costs": (
        smc_runtime.Assumptions,
        "wonder_costs",
        "sid-meiers-civilization/wonders.schema.json#/properties/wonders/items/properties/cost/oneOf/0",
    ),
    "smc unit_deck_sizes": (
        smc_runtime.Assumptions,
        "unit_deck_sizes",
        "sid-meiers-civilization/units.schema.json#/properties/unit_types/items/properties/deck_size/oneOf/0",
    ),
}

#: The fields that map ids to values (the others take one value).
BY_ID = {"card_costs", "commodity_values", "commodity_counts", "track_spaces"} | {
    "technology_levels",
    "building_costs",
    "wonder_costs",
    "unit_deck_sizes",
}


def _bounds(pointer: str) -> tuple[int, int | None]:
    file, _, path = pointer.partition("#/")
    node = json.loads((SCHEMAS / file).read_text(encoding="utf-8"))
    for part in path.split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    assert node["type"] == "integer", pointer
    return node["minimum"], node.get("maximum")


def _assume(case: str, value: object) -> object:
    record, field, _ = BOUNDED[case]
    return record(**{field: {"x": value} if field in BY_ID else value})


def _name(case: str) -> str:
    field = BOUNDED[case][1]
    return rf"{field}\['x'\]" if field in BY_ID else field


@pytest.mark.parametrize("case", sorted(BOUNDED))
def test_an_assumed_number_takes_the_bounds_of_its_fact_in_the_schema(case: str) -> None:
    low, high = _bounds(BOUNDED[case][2])
    _assume(case, low)
    if high is not None:
        _assume(case, high)
        with pytest.raises(
            OutOfDomainError, match=rf"^{_name(case)}={high + 1} is outside the domain .*: {low} to {high}$"
        ):
            _assume(case, high + 1)
    with pytest.raises(OutOfDomainError, match=rf"^{_name(case)}={low - 1} is outside the domain of the rule"):
        _assume(case, low - 1)


@pytest.mark.parametrize("value", ["170", 170.5, True, None, [1]], ids=["str", "float", "bool", "None", "list"])
@pytest.mark.parametrize("case", sorted(BOUNDED))
def test_an_assumed_number_of_the_wrong_type_is_out_of_domain_by_name(case: str, value: object) -> None:
    if value is None and BOUNDED[case][1] not in BY_ID:
        assert _assume(case, value) == BOUNDED[case][0]()  # None: nothing assumed
        return
    with pytest.raises(OutOfDomainError, match=rf"^{_name(case)}=.* is not a whole number"):
        _assume(case, value)


@pytest.mark.parametrize("value", [(5, 0), (5,), -1, "5,1", (5, "1")], ids=["zero", "one", "int", "str", "text"])
def test_assumed_unit_points_are_a_pair_of_positive_whole_numbers(value: object) -> None:
    """unit_points=-1 was accepted, then unit_points() raised a bare AssertionError (a TypeError under -O)."""
    with pytest.raises(OutOfDomainError, match=r"^unit_points"):
        ac_runtime.Assumptions(unit_points=value)  # type: ignore[arg-type]
    assert ac_runtime.Assumptions(unit_points=[5, 1]).unit_points == (5, 1)  # type: ignore[arg-type]
    # every shipped ruleset of the family gives them now (the Expansion Project's 3.6, round 25):
    # an assumption of them is refused, as any of a fact the data holds
    with pytest.raises(OutOfDomainError, match="unit_points is in the rule data"):
        ep.assuming(ac_runtime.Assumptions(unit_points=(5, 1)))


NOT_A_MAPPING: dict[str, Callable[[], object]] = {
    "ac card_costs string": lambda: ac_runtime.Assumptions(card_costs="law"),  # type: ignore[arg-type]
    "ac card_costs number": lambda: ac_runtime.Assumptions(card_costs=5),  # type: ignore[arg-type]
    "ac track_spaces list": lambda: ac_runtime.Assumptions(track_spaces=["egypt"]),  # type: ignore[list-item]
    "smc wonder_costs string": lambda: smc_runtime.Assumptions(wonder_costs="colossus"),  # type: ignore[arg-type]
    "smc starting_governments list": lambda: smc_runtime.Assumptions(starting_governments=["roma"]),  # type: ignore[list-item]
    "imperial card_costs number": lambda: imperial_runtime.Assumptions(card_costs=3),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("case", sorted(NOT_A_MAPPING))
def test_an_assumption_that_is_no_mapping_is_refused_by_name(case: str) -> None:
    """card_costs="law" raised "'str' object has no attribute 'items'" from inside the record."""
    field = case.split()[1]
    with pytest.raises(NotACollectionError, match=rf"^{field} is a mapping of .* \({{id: value}}\), not "):
        NOT_A_MAPPING[case]()


UNKNOWN_IDS: dict[str, tuple[str, Callable[[], object]]] = {
    "ac a key that is no str": (
        r"^None is not a civilization card of this ruleset: an id is a str, ",
        lambda: ep.assuming(ac_runtime.Assumptions(card_costs={None: 170, "law": 170})),  # type: ignore[arg-type]
    ),
    "smc a technology that is a list": (
        r"^\['pottery'\] is not a technology of this ruleset: an id is a str, ",
        lambda: smc.assuming(smc_runtime.Assumptions(starting_technologies={"roma": ["pottery"]})),  # type: ignore[arg-type]
    ),
    "smc an era that is no str": (
        r"^5 is not an era of this ruleset: an id is a str",
        lambda: smc.assuming(smc_runtime.Assumptions(wonder_eras={"colossus": 5})),  # type: ignore[arg-type]
    ),
    "imperial a good that is a list": (
        r"^no good \['wood'\] in this ruleset: an id is a str, ",
        lambda: imperial.assuming(imperial_runtime.Assumptions(card_productions={"jap011": [["wood"]]})),  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("case", sorted(UNKNOWN_IDS))
def test_an_assumed_id_that_is_no_str_is_an_unknown_id_at_assuming(case: str) -> None:
    """{None: 170, "law": 170} failed to sort ("'<' not supported"); a list where an id belongs
    raised "unhashable type" from inside the view."""
    pattern, call = UNKNOWN_IDS[case]
    with pytest.raises(UnknownIdError, match=pattern):
        call()


def test_a_level_above_the_rulesets_pyramid_is_out_of_domain() -> None:
    """A level in the schema's bounds (1 to 5) is still outside a pyramid of fewer levels."""
    small = smc.PYRAMID.replace(levels=3)
    view = smc.assuming(smc_runtime.Assumptions(technology_levels={"pottery": 3}))
    assert view.TECHNOLOGIES["pottery"].level == 3
    package = type("Package", (), {name: getattr(smc, name) for name in smc.__all__})
    package.PYRAMID = small  # type: ignore[attr-defined]
    with pytest.raises(OutOfDomainError, match=r"^technology_levels\['pottery'\]=4 is outside the pyramid .*: 1 to 3$"):
        smc_runtime.AssumedPackage(package, smc_runtime.Assumptions(technology_levels={"pottery": 4}))  # type: ignore[arg-type]


WRONG_RECORD: dict[str, tuple[str, Callable[[], object]]] = {
    "ac None": ("civrules_runtime_advanced_civilization.Assumptions, not NoneType", lambda: ep.assuming(None)),  # type: ignore[arg-type]
    "ac dict": (
        "civrules_runtime_advanced_civilization.Assumptions, not dict",
        lambda: ep.assuming({"card_costs": {"law": 170}}),  # type: ignore[arg-type]
    ),
    "ac another family's": (
        "civrules_runtime_advanced_civilization.Assumptions, not civrules_runtime_sid_meiers_civilization.Assumptions",
        lambda: ep.assuming(smc_runtime.Assumptions()),  # type: ignore[arg-type]
    ),
    "smc another family's": (
        "civrules_runtime_sid_meiers_civilization.Assumptions, not civrules_runtime_advanced_civilization.Assumptions",
        lambda: smc.assuming(ac_runtime.Assumptions()),  # type: ignore[arg-type]
    ),
    "imperial another family's": (
        "civrules_runtime_imperial_settlers.Assumptions, not civrules_runtime_sid_meiers_civilization.Assumptions",
        lambda: imperial.assuming(smc_runtime.Assumptions()),  # type: ignore[arg-type]
    ),
    "a view's assuming": (
        "civrules_runtime_sid_meiers_civilization.Assumptions, not NoneType",
        lambda: smc.assuming(smc_runtime.Assumptions()).assuming(None),  # type: ignore[arg-type]
    ),
}


@pytest.mark.parametrize("case", sorted(WRONG_RECORD))
def test_assuming_anything_but_the_familys_record_names_the_record_it_takes(case: str) -> None:
    """assuming(None) raised "'NoneType' object has no attribute 'card_costs'"."""
    message, call = WRONG_RECORD[case]
    with pytest.raises(TypeError, match=rf"^assuming\(\) takes {message}$"):
        call()


def test_the_wrong_answers_the_report_found_are_refused() -> None:
    """Each was accepted and answered: a cost 'ten', -3, 170.5; a level 9 no pyramid has."""
    for assume in (
        lambda: smc_runtime.Assumptions(wonder_costs={"stonehenge": "ten"}),  # type: ignore[arg-type]
        lambda: smc_runtime.Assumptions(wonder_costs={"statue_of_liberty": -3}),
        lambda: smc_runtime.Assumptions(technology_levels={"pottery": 9}),
        lambda: ac_runtime.Assumptions(card_costs={"law": 170.5}),  # type: ignore[arg-type]
        lambda: ac_runtime.Assumptions(ship_moves="four"),  # type: ignore[arg-type]
        lambda: ac_runtime.Assumptions(why=5),  # type: ignore[arg-type]
    ):
        with pytest.raises(OutOfDomainError):
            assume()
    assert ep.assuming(ac_runtime.Assumptions(card_costs={"law": 170})).purchase_cost([], "law") == 170


def test_an_assumptions_record_replaces_and_pickles_with_its_checks() -> None:
    """``replace`` passes the pairs the record holds back through the checks."""
    assumed = ac_runtime.Assumptions(card_costs={"law": 170}, unit_points=(5, 1), why="ours")
    assert assumed.replace(why="theirs").card_costs == (("law", 170),)
    assert pickle.loads(pickle.dumps(assumed)) == assumed
    with pytest.raises(OutOfDomainError, match=r"^card_costs\['law'\]=0 "):
        assumed.replace(card_costs={"law": 0})


VIEWS: dict[str, Callable[[], Any]] = {
    "expansion_project": lambda: ep.assuming(ac_runtime.Assumptions(card_costs={"law": 170}, why="t")),
    "sid_meiers_civilization": lambda: smc.assuming(smc_runtime.Assumptions(wonder_costs={"stonehenge": 10})),
    "imperial_settlers": lambda: imperial.assuming(imperial_runtime.Assumptions(card_productions={"jap011": ["wood"]})),
}


@pytest.mark.parametrize("package", sorted(VIEWS))
def test_a_view_is_a_value_that_pickles_copies_and_compares(package: str) -> None:
    """pickle and deepcopy raised "cannot pickle 'module' object"; equal views compared unequal."""
    view = VIEWS[package]()
    again = VIEWS[package]()
    assert view == again and hash(view) == hash(again)
    assert view != ac.assuming(ac_runtime.Assumptions()) and view != object()
    for copied in (pickle.loads(pickle.dumps(view)), copy.deepcopy(view), copy.copy(view)):
        assert copied == view
        assert copied.CARDS == view.CARDS if hasattr(view, "CARDS") else copied.WONDERS == view.WONDERS


@pytest.mark.parametrize("package", sorted(VIEWS))
def test_dir_of_a_view_has_every_name_of_its_package(package: str) -> None:
    """ "the view has every name of the package" (docs/engine.md): dir() listed almost none."""
    module = sys.modules[f"civrules_rulesets.{package}"]
    names = dir(VIEWS[package]())
    assert set(module.__all__) <= set(names)
    assert "ASSUMPTIONS" in names and names == sorted(names)


RUNTIMES = [
    REPO / "compiler" / "civrules" / "emit" / "runtime",
    *sorted((REPO / "compiler" / "civrules" / "families").glob("*/runtime")),
]


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda path: path.parent.name)
def test_no_runtime_checks_an_argument_with_assert(runtime: Path) -> None:
    """An assert vanishes under ``python -O``: ``unit_points=-1`` raised a bare AssertionError, and
    under -O "cannot unpack non-iterable int object". A runtime's checks raise its errors."""
    asserts = [
        f"{path.name}:{node.lineno}"
        for path in sorted(runtime.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert asserts == []


def test_an_assumed_value_keeps_every_other_field_of_the_good() -> None:
    """A good whose value is assumed keeps its block counts (Mega Civilization) and its mark of an
    inferred stack; the view rebuilt the record from some of its fields and dropped the others."""
    from civrules_runtime_advanced_civilization.assumptions import _commodity
    from civrules_runtime_advanced_civilization.records import Commodity
    from civrules_runtime_advanced_civilization.vocab import Block

    good = Commodity("salt", "Salt", None, 9, 3, False, Block.EAST, ((Block.EAST, 5), (Block.WEST, 4)), ("stack",))
    assumed = _commodity(good, 3, None)
    assert assumed == good.replace(value=3)
    assert (assumed.block_counts, assumed.inferred) == (((Block.EAST, 5), (Block.WEST, 4)), ("stack",))
