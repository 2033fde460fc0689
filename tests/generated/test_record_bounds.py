"""Records hold the schemas' constraints on their fields, not only their types: a record made by
calling its class, changed with ``replace`` or unpickled with a known value outside its field's
bound (a minimum, a maximum, a pattern, a list's length ...) is OutOfDomainError naming the field
and the bound. The bounds are the family runtimes' ``bounds`` modules, which compiler/tools/bounds.py
generates from the family schemas through each record class's ``_schema`` link; every value here is
derived from those modules, none is listed by hand.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from civrules.families import family_named
from tests.budget import heavy
from tests.generated.test_package_values import PACKAGES, RUNTIMES, package, tables, values
from tools import bounds as generator

if True:  # the committed runtime, on the path test_package_values puts it
    from civrules_runtime.errors import OutOfDomainError
    from civrules_runtime.records import Record


def bounds_of(runtime: str) -> dict[str, dict[str, tuple[tuple[str, object], ...]]]:
    module = importlib.import_module(f"{runtime}.bounds")
    found: dict[str, dict[str, tuple[tuple[str, object], ...]]] = module.BOUNDS
    return found


def where_of(cls: type, field: str) -> str:
    """The schema property ``field`` of ``cls`` is linked to, as its runtime's ``bounds`` module has it:
    its own (``WHERE``: a field named otherwise, or of a class whose fields come from several
    objects; ``SETTINGS_WHERE`` for a settings record's), else its class's object's property of
    its name."""
    module = importlib.import_module(f"{runtime_of(cls)}.bounds")
    if is_settings(cls):
        located: str = module.SETTINGS_WHERE[cls.__name__][field]
        return located
    where: str | None = module.WHERE.get(cls.__name__, {}).get(field)
    return where or f"{module.LINKS[cls.__name__]}/properties/{field}"


def is_settings(cls: type) -> bool:
    """Whether ``cls`` is a settings record class of a family runtime (its ``settings`` module's)."""
    return cls.__module__.startswith("civrules_runtime_") and cls.__module__.endswith(".settings")


def class_bounds(cls: type) -> dict[str, tuple[tuple[str, object], ...]]:
    """The constraints of ``cls``'s fields, by field, as its runtime's ``bounds`` module has them
    (``SETTINGS_BOUNDS`` for a settings record class: their names may be records' too)."""
    module = importlib.import_module(f"{runtime_of(cls)}.bounds")
    table = getattr(module, "SETTINGS_BOUNDS", {}) if is_settings(cls) else module.BOUNDS
    found: dict[str, tuple[tuple[str, object], ...]] = table.get(cls.__name__, {})
    return found


def runtime_of(cls: type) -> str:
    return cls.__module__.rsplit(".", 1)[0]


def shipped_records() -> Iterator[Record]:
    for name in PACKAGES:
        for _, table in tables(package(name)):
            for value in values(table):
                if isinstance(value, Record):
                    yield value


def examples() -> dict[tuple[type, str], Record]:
    """For each constrained field of each record class, a shipped record whose field holds a known
    value (a non-empty one for a list)."""
    found: dict[tuple[type, str], Record] = {}
    for record in shipped_records():
        cls = type(record)
        if not (cls.__module__.startswith("civrules_runtime_") and cls.__module__.endswith((".records", ".settings"))):
            continue  # a family runtime's records and settings records
        for name in class_bounds(cls):
            value = getattr(record, name)
            if value is not None and value != () and (type(record), name) not in found:
                found[type(record), name] = record
    return found


_CANDIDATE_TEXTS = ("", " ", "A", "-", "a b", "Ω", "1a", "x" * 300)


def cases(bound: tuple[str, Any], value: Any) -> tuple[list[Any], list[Any]]:
    """Values just inside and just outside one constraint, from the constraint and a known value
    that holds it."""
    key, limit = bound
    if key == "any_of":  # of several forms: a text none of them takes
        forms = [[(k, v) for k, v in form] for form in limit]
        return [value], [text for text in _CANDIDATE_TEXTS if all(not _holds(form, text) for form in forms)][:1]
    if key.startswith("items_"):  # each item's: the list with its first item just outside
        if not isinstance(value, tuple):  # a field that holds a list or a record: the record has no items
            return [value], []
        _, outside = cases((key.removeprefix("items_"), limit), value[0])
        return [value], [(item, *value[1:]) for item in outside]
    if key == "minimum":
        return [limit], [limit - 1]
    if key == "maximum":
        return [limit], [limit + 1]
    if key == "exclusiveMinimum":
        return [limit + 1], [limit]
    if key == "exclusiveMaximum":
        return [limit - 1], [limit]
    if key == "not_const":
        return [value], [limit]
    if key == "enum":
        return [value], ["no such value"]
    if key == "minLength":
        return [value], ([value[: limit - 1]] if limit >= 1 and isinstance(value, str) else [])
    if key == "maxLength":
        return [value], ["a" * (limit + 1)]
    if key == "pattern":
        return [value], [text for text in _CANDIDATE_TEXTS if not re.search(limit, text)][:1]
    assert isinstance(value, tuple) and value
    if key == "minItems":
        return [value], [value[: limit - 1]]
    if key == "minItems_or_absent":
        return [value, ()], ([value[: limit - 1]] if limit >= 2 else [])
    if key == "maxItems":
        return [value], [tuple(value[i % len(value)] for i in range(limit + 1))]
    if key == "uniqueItems":
        return [value], [(*value, value[0])]
    raise AssertionError(f"no cases for the constraint {key!r}")


def _holds(form: list[tuple[str, object]], value: object) -> bool:
    from civrules_runtime import records as records_module

    return all(records_module._bound_test(key, limit)(value) for key, limit in form)


def restored(record: Record, name: str, value: object) -> Record:
    """``record`` with ``value`` in field ``name``, as unpickling (or a copy) restores it."""
    state = list(record.__getstate__())
    state[record._names().index(name)] = value
    made = object.__new__(type(record))
    made.__setstate__(tuple(state))
    return made


def constructed(record: Record, name: str, value: object) -> Record | None:
    """A call of ``record``'s class with its fields and ``value`` in ``name``; None where the class's
    constructor does not take its fields by their names."""
    parameters = [p for p in inspect.signature(type(record)).parameters if p != "self"]
    if sorted(parameters) != sorted(record._names()):
        return None
    fields = dict(zip(record._names(), record._values(), strict=True))
    return type(record)(**{**fields, name: value})


def test_each_family_runtime_bounds_module_is_current() -> None:
    stale = [str(path) for path, text in generator.rendered().items() if path.read_text(encoding="utf-8") != text]
    assert stale == [], "run `cd compiler && python -m tools.bounds`"


def test_a_changed_schema_makes_the_bounds_module_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds are read from the schemas, not kept: a constraint changed in a schema changes
    the module (the test above then fails)."""
    family = family_named("sid-meiers-civilization")
    assert family is not None
    before = generator.render_module(family)
    from civrules.schema import load_schema as load

    def changed(kind: str) -> dict[str, Any]:
        schema = copy.deepcopy(load(kind))
        if kind.endswith("/units"):
            ranks = schema["properties"]["unit_types"]["items"]["properties"]["ranks"]["items"]["properties"]
            ranks["rank"]["maximum"] = 7
        return schema

    monkeypatch.setattr(generator, "load_schema", changed)
    after = generator.render_module(family)
    assert after != before
    assert '"rank": (("minimum", 1), ("maximum", 7))' in after


def test_every_bound_names_a_field_of_a_linked_record_class() -> None:
    from civrules_runtime import records as records_module

    checked = 0
    for runtime in RUNTIMES:
        records = importlib.import_module(f"{runtime}.records")
        for name, fields in bounds_of(runtime).items():
            cls = getattr(records, name)
            assert cls._schema or set(fields) <= set(cls._properties), name
            assert [field for field, _, _ in records_module._bound_tests(cls)] == [
                field for field in cls.__slots__ if field in fields for _ in fields[field]
            ]
            checked += len(fields)
    assert checked > 100


@heavy
def test_just_inside_each_bound_holds_and_just_outside_is_refused_on_every_path() -> None:
    """For every constrained field of every record class that a shipped package holds: a value
    just inside the bound is taken by ``replace``, by a call of the class and by unpickling; one
    just outside is OutOfDomainError naming the field and the bound on each of them."""
    found = examples()
    outside_checked = inside_checked = 0
    for (cls, name), record in sorted(found.items(), key=lambda item: (item[0][0].__qualname__, item[0][1])):
        fields = class_bounds(cls)[name]
        for bound in fields:
            inside, outside = cases(bound, getattr(record, name))
            for value in inside:
                assert getattr(record.replace(**{name: value}), name) == value
                assert getattr(restored(record, name, value), name) == value
                made = constructed(record, name, value)
                assert made is None or getattr(made, name) == value
                inside_checked += 1
            for value in outside:
                pointer = re.escape(where_of(cls, name))
                where = rf"{cls.__name__}\.{name}=.* is outside its schema's bound, .*{pointer}"
                if bound[0] in {"enum", "items_enum"}:  # a vocabulary's field refuses it as of another type first
                    where = rf"{cls.__name__}\.{name}=.* is (outside its schema's bound|not of its type)"
                with pytest.raises(OutOfDomainError, match=where):
                    record.replace(**{name: value})
                with pytest.raises(OutOfDomainError, match=where):
                    restored(record, name, value)
                if constructed(record, name, getattr(record, name)) is not None:
                    with pytest.raises(OutOfDomainError, match=where):
                        constructed(record, name, value)
                outside_checked += 1
    assert len(found) > 150
    assert outside_checked > 300 and inside_checked > 300
    settings = {(cls, name) for cls, name in found if is_settings(cls)}
    assert len(settings) > 100, "the settings records' fields are swept too"


def test_a_bound_is_checked_after_the_type_and_a_data_module_makes_its_records_unchecked() -> None:
    """A value of another type is refused as a type (not a bound); ``data_maker`` (a package's
    data module's maker) checks neither, as before."""
    from civrules_runtime.records import data_maker

    record, name, limit = next(
        (r, n, int(str(dict(b)["minimum"])))
        for (cls, n), r in examples().items()
        for field, b in class_bounds(cls).items()
        if field == n and "minimum" in dict(b)
    )
    with pytest.raises(OutOfDomainError, match="is not of its type"):
        record.replace(**{name: "ten"})
    fields = dict(zip(record._names(), record._values(), strict=True))
    if constructed(record, name, getattr(record, name)) is not None:
        assert getattr(data_maker(type(record))(**{**fields, name: limit - 1}), name) == limit - 1


def test_no_constructor_default_is_outside_its_fields_bound() -> None:
    """A default a record class's constructor gives a field holds the field's bounds: a default the
    schema refuses (``CreditTokens()``'s 0 points where the fewest is 1) made a call that leaves
    the field out, which mypy accepts, refused whatever else it was given. Such a field has no
    default: the data always gives it."""
    from civrules_runtime import records as records_module

    contradicting = []
    defaults = 0
    for runtime in RUNTIMES:
        records = importlib.import_module(f"{runtime}.records")
        for name, fields in bounds_of(runtime).items():
            parameters = inspect.signature(getattr(records, name)._made).parameters
            for field, constraints in fields.items():
                default = parameters[field].default if field in parameters else inspect.Parameter.empty
                if default is inspect.Parameter.empty or default is None:
                    continue
                defaults += 1
                for key, limit in constraints:
                    try:
                        held = records_module._bound_test(key, limit)(default)
                    except TypeError:
                        held = False
                    if not held:
                        contradicting.append(f"{name}.{field}={default!r} ({key} {limit!r})")
    assert contradicting == []
    assert defaults > 10


#: The record classes of the family runtimes that no schema constraint holds, and why.
UNBOUNDED_CLASSES = {
    "CalamityAmount": "a helper's answer (calamity_amount), made from records and arguments already held",
    "Assumptions": "an engine's assumptions: their constructor checks their own bounds (_checks_own_arguments)",
}

#: Fields of classes linked to a schema object that are neither a property of it nor linked to one
#: by the class's ``_properties``, and why none holds them.
UNLINKED_FIELDS = {
    "rules": "a fact's citations: its `rule` sections, then its `source` (two properties; the build checks each)",
    **dict.fromkeys(
        (
            "CityBuild.unlimited",
            "CalamityModifier.per_commodity",
            "CalamityModifier.per_any_commodity",
            "CalamityModifier.effects",
            "Calamity.beneficiary_overflow",
            "Calamity.beneficiary_unit_points",
            "Calamity.beneficiary_eligibility",
            "CalamityEffect.site_tie_broken_by",
            "Phase.max_major_calamities",
            "Phase.max_minor_calamities",
            "Phase.max_of_one_calamity",
            "Faction.production",
            "Faction.storage",
            "Action.extra_per_defence",
            "Action.extra_per_samurai",
            "Action.owner_gains",
            "Phase.step_facts",
            "CultureSpace.culture",
            "CultureSpace.trade",
            "AstTrack.space_values",
            "TradeStack.commodities",
            "Taxation.revolt_immune_cards",
            "PurchaseEffect.next_turn",
            "CountedGoods.colour",
            "Addition.card",
            "Addition.per",
            "Credit.group",
            "CalamityEffect.side",
            "CalamityImmunity.side",
            "PlayerCount.nations",
        ),
        "a branch among several of a property of another name, or several properties: no one property",
    ),
    **dict.fromkeys(
        (
            "CalamityEffect.unknown",
            "CalamityModifier.amount_unknown",
            "Combination.mode_unknown",
            "Requirements.known",
            "PlayerCount.given",
            "HandLimit.cumulative",
            "Taxation.cumulative",
            "Building.upgrade_unknown",
            "Pyramid.one_more_below",
            "Pyramid.inferred",
        ),
        "derived: whether a fact is known, given or inferred, a flag no property writes as it is",
    ),
    "GeneralRule.name": "the rule's id, standing for the name the schema's general rules do not have",
}


#: The family runtimes: Advanced Civilization's, Imperial Settlers', Sid Meier's Civilization's.
RUNTIMES_BY_FAMILY = (
    "civrules_runtime_advanced_civilization",
    "civrules_runtime_imperial_settlers",
    "civrules_runtime_sid_meiers_civilization",
)


def _record_classes(runtime: str) -> dict[str, type[Record]]:
    records = importlib.import_module(f"{runtime}.records")
    return {
        name: cls
        for name, cls in vars(records).items()
        if isinstance(cls, type) and issubclass(cls, Record) and cls.__module__ == records.__name__
    }


def test_every_record_class_without_bounds_is_one_that_holds_no_rule_data() -> None:
    """Every record class of a family runtime is held to the constraints of the schema objects its
    fields come from (one object, ``_schema``, or each field's, ``_properties``), but those listed
    with why; a record class added without links fails here."""
    unbounded = sorted(
        name for runtime in RUNTIMES for name in _record_classes(runtime) if name not in bounds_of(runtime)
    )
    assert [name for name in unbounded if name not in UNBOUNDED_CLASSES] == []
    assert set(unbounded) == set(UNBOUNDED_CLASSES)


#: The settings record classes that no schema constraint holds, and why.
UNBOUNDED_SETTINGS_CLASSES = {
    "CivilizationCards": "a slot's settings: its one field is a section, a record held by its own bounds",
    "CreditPolicyPurchases": "each of its fields is a section, a record held by its own bounds",
    "NotInSources": "each of its fields is None: a part of the game no source gives",
    "CardUses": "each of its fields is a section, a record held by its own bounds",
}


def _settings_classes(runtime: str) -> dict[str, type[Record]]:
    settings = importlib.import_module(f"{runtime}.settings")
    return {
        name: cls
        for name, cls in vars(settings).items()
        if isinstance(cls, type) and issubclass(cls, Record) and cls.__module__ == settings.__name__
    }


def test_every_settings_record_class_is_held_to_its_schema_properties_but_those_said_why_not() -> None:
    """A settings record's fields are made from the schema's properties, one each: each field is
    held to its property's constraints as a record's is (``SETTINGS.ast.replace(points_per_space=-1)``
    was taken without a word); the classes no constraint holds are listed with why."""
    unbounded = sorted(
        name for runtime in RUNTIMES for name, cls in _settings_classes(runtime).items() if not class_bounds(cls)
    )
    assert [name for name in unbounded if name not in UNBOUNDED_SETTINGS_CLASSES] == []
    assert set(unbounded) == set(UNBOUNDED_SETTINGS_CLASSES)
    for runtime in RUNTIMES:  # each bound names a field of its class, linked to a property
        module = importlib.import_module(f"{runtime}.bounds")
        for name, fields in module.SETTINGS_BOUNDS.items():
            cls = _settings_classes(runtime)[name]
            assert set(fields) <= set(cls.__slots__), name
            assert set(fields) == set(module.SETTINGS_WHERE[name]), name


def test_a_settings_record_outside_its_property_is_refused_naming_it() -> None:
    """Where a settings record's class name is a record's too (``HandLimit``), each is held to its
    own object's constraints."""
    from civrules_rulesets import advanced_civilization, imperial_settlers

    ast = advanced_civilization.SETTINGS.ast
    assert ast is not None and ast.points_per_space is not None
    with pytest.raises(OutOfDomainError, match=r"Ast\.points_per_space=-1 is outside its schema's bound") as refused:
        ast.replace(points_per_space=-1)
    assert str(refused.value).endswith(f"({where_of(type(ast), 'points_per_space')})")
    with pytest.raises(OutOfDomainError, match="outside its schema's bound"):
        restored(ast, "points_per_space", -1)
    hand = imperial_settlers.SETTINGS.starting_hand
    assert hand is not None
    with pytest.raises(OutOfDomainError, match=r"StartingHand\.common=-1 is outside its schema's bound"):
        hand.replace(common=-1)
    clashing = [
        name
        for runtime in RUNTIMES
        for name in importlib.import_module(f"{runtime}.bounds").SETTINGS_BOUNDS
        if name in bounds_of(runtime)
    ]
    assert "HandLimit" in clashing


def test_every_field_of_a_linked_class_is_linked_to_its_property_or_said_why_not() -> None:
    """A field named otherwise than its schema property (``players_min`` of ``players: {min}``) is
    linked to it by its class's ``_properties``, not left unchecked; those no property holds are
    listed with why."""
    from civrules.families import families
    from civrules.schema import load_schema

    unlinked = []
    for family in families().values():
        files = {file: family.qualified_kind(kind) for kind, file in family.kinds.items()}
        source = (generator.runtime_dir(family) / "records.py").read_text(encoding="utf-8")
        for link in generator.links(source):
            if link.schema is None:
                continue
            file, _, pointer = link.schema.partition("#")
            properties = generator._pointer(load_schema(files[file]), pointer)["properties"]
            unlinked += [
                f"{link.name}.{field}"
                for field, _ in link.fields
                if field not in properties and field not in link.properties
            ]
    assert [name for name in unlinked if name.split(".")[1] != "rules" and name not in UNLINKED_FIELDS] == []


def test_a_list_item_a_field_named_otherwise_and_a_class_of_several_objects_are_held() -> None:
    """An item of a list outside its schema's ``items`` (an area id with spaces, a printed id in
    lower case), a field named otherwise than its property (``players_min`` of ``players.min``,
    ``size`` of ``deck_size``, ``strength_min`` of ``strength.min``) and a field of a class whose
    fields come from several schema objects (a border's area, an era's id) are refused as every
    bound is, naming the property."""
    ac, imperial, smc = RUNTIMES_BY_FAMILY
    wanted: dict[tuple[str, str, str], Callable[[Any], object]] = {
        (ac, "Region", "areas"): lambda value: ("Not An Id", *value[1:]),
        (ac, "DeckBand", "players_min"): lambda value: 0,
        (ac, "Border", "a"): lambda value: "Not An Id",
        (imperial, "Card", "printed_ids"): lambda value: ("jap011",),
        (imperial, "DeckRule", "size"): lambda value: 0,
        (smc, "Rank", "strength_min"): lambda value: 0,
        (smc, "Era", "id"): lambda value: "Not An Id",
        # a citation that is neither a section nor a source; an amount's {all_but: n} form
        (ac, "Card", "rules"): lambda value: (*value, " "),
        (imperial, "Action", "rules"): lambda value: ("",),
        (ac, "CalamityEffect", "all_but"): lambda value: -1,
    }
    fields = {(runtime, cls): field for runtime, cls, field in wanted}
    tried = set()
    for record in shipped_records():
        cls = type(record).__name__
        field = fields.get((runtime_of(type(record)), cls))
        if field is None or (key := (runtime_of(type(record)), cls, field)) in tried:
            continue
        if getattr(record, field) in (None, ()):
            continue
        tried.add(key)
        value = wanted[key](getattr(record, field))
        refused = rf"{cls}\.{field}=.* is outside its schema's bound, .*schema\.json#"
        with pytest.raises(OutOfDomainError, match=refused):
            record.replace(**{field: value})
        with pytest.raises(OutOfDomainError, match="outside its schema's bound"):
            restored(record, field, value)
    assert tried == set(wanted)
