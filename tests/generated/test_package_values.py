"""The records and tables of every generated package, of every family, are Python values: they
pickle (every protocol), copy and deep-copy to equal values, hash, compare equal, derive a changed
record (``replace``) and turn into dicts (``asdict``).

Every record type of every family's runtime is held to it: those the packages' tables hold are
taken from them (every value of every public table, walked), the others (a helper's answers) are
made as an engine gets them.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import itertools
import operator
import pickle
import sys
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime import FrozenMap  # noqa: E402 - the committed runtime, kept current by `build --check`
from civrules_runtime.records import Record, SettingsRecord  # noqa: E402

PACKAGES = shipped.package_names()  # never a designer's variant built beside them
RUNTIMES = sorted(p.name for p in GENERATED.iterdir() if p.name.startswith("civrules_runtime_"))


def package(name: str) -> ModuleType:
    return importlib.import_module(f"civrules_rulesets.{name}")


def tables(module: ModuleType) -> Iterator[tuple[str, object]]:
    """Every public table of a package (its upper-case names)."""
    for name in module.__all__:
        if name.isupper():
            yield name, getattr(module, name)


def values(value: object) -> Iterator[object]:
    """``value`` and every value inside it: records' fields, mappings' keys and values, items."""
    yield value
    if isinstance(value, Record):
        for name in fields(value):
            yield from values(getattr(value, name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from values(key)
            yield from values(item)
    elif isinstance(value, tuple | frozenset):
        for item in value:
            yield from values(item)


def fields(record: Record) -> tuple[str, ...]:
    names: tuple[str, ...] = getattr(type(record), "__slots__")  # noqa: B009 - Record's own is ()
    return names


def answers() -> Iterator[Record]:
    """Records the packages give as answers, not as tables: every calamity effect's amount, for
    each role, holding no card and every card, in every package that has calamity effects."""
    for name in PACKAGES:
        module = package(name)
        effects = getattr(module, "CALAMITY_EFFECTS", None)
        if effects is None:
            continue
        for calamity, listed in effects.items():
            for effect in listed or ():
                for role, held in itertools.product(("primary", "secondary"), ((), tuple(module.CARDS))):
                    try:
                        yield module.calamity_amount(calamity, effect.id, held, role)
                    except (LookupError, ValueError):
                        continue


def record_types() -> list[type[Record]]:
    found: set[type[Record]] = set()
    for runtime in ("civrules_runtime", *RUNTIMES):
        for module in ("records", "settings") if runtime != "civrules_runtime" else ("records",):
            records = importlib.import_module(f"{runtime}.{module}")
            found.update(c for c in vars(records).values() if inspect.isclass(c) and issubclass(c, Record))
    found -= {Record, SettingsRecord}  # the bases
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__name__}")


@functools.cache
def samples() -> dict[type[Record], list[Record]]:
    """Up to a few records of each type, from the tables, the answers, or made from defaults: made
    when a test first asks, not at collection (every package imported and walked, about 0.35 s of
    CPU that every pytest worker paid to collect this module)."""
    out: dict[type[Record], list[Record]] = {}
    sources = [v for name in PACKAGES for _, table in tables(package(name)) for v in values(table)]
    sources += [v for answer in answers() for v in values(answer)]
    for value in sources:
        if isinstance(value, Record) and len(out.setdefault(type(value), [])) < 8:
            out[type(value)].append(value)
    for kind in record_types():
        if kind not in out and all(
            p.default is not inspect.Parameter.empty or _numeric_bound(kind, name)
            for name, p in inspect.signature(kind).parameters.items()
        ):
            out[kind] = [_from_defaults(kind)]  # e.g. a card effect no ruleset's card has yet
    for kind in record_types():
        if kind not in out and issubclass(kind, SettingsRecord):
            out[kind] = [_unused_setting(kind)]
    return out


def _bounds_of(kind: type[Record]) -> dict[str, tuple[tuple[str, Any], ...]]:
    bounds = getattr(importlib.import_module(kind.__module__.rsplit(".", 1)[0]), "bounds", None)
    found: dict[str, tuple[tuple[str, Any], ...]] = bounds.BOUNDS.get(kind.__name__, {}) if bounds else {}
    return found


def _numeric_bound(kind: type[Record], field: str) -> bool:
    """Whether the schema bounds ``field`` of ``kind`` below or above (a number without a default)."""
    return any(key in {"minimum", "maximum"} for key, _ in _bounds_of(kind).get(field, ()))


def _from_defaults(kind: type[Record]) -> Record:
    """A record of ``kind`` made from its constructor's defaults, a number without one (``points``
    of ``CreditTokens``) the nearest its schema bounds allow to 0."""
    changes: dict[str, object] = {}
    for field, constraints in _bounds_of(kind).items():
        value: Any = inspect.signature(kind).parameters[field].default
        if value is inspect.Parameter.empty:
            value = 0
        for key, limit in constraints:
            if isinstance(value, int) and key == "minimum":
                value = max(value, limit)
            elif isinstance(value, int) and key == "maximum":
                value = min(value, limit)
        changes[field] = value
    return kind(**changes)


def _unused_setting(kind: type[SettingsRecord]) -> SettingsRecord:
    """A settings record of a kind no shipped ruleset writes (a variant's suppressions, the sources'
    disagreements in a family whose data has none yet), made of placeholder values (no game fact)."""
    module = importlib.import_module(kind.__module__)
    make: Callable[..., SettingsRecord] = kind  # each kind's own keyword arguments
    if kind.__name__ == "SuppressItem":
        return make(code="K002", reason="placeholder")
    alternative: SettingsRecord = module.DisagreementAlternative(value=1, source="placeholder")
    if kind.__name__ == "DisagreementAlternative":
        return alternative
    return make(field="placeholder", chosen=2, alternatives=(alternative,), why="placeholder")


def assert_value(value: object) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(value, protocol)) == value
    assert copy.copy(value) == value
    deep = copy.deepcopy(value)
    assert deep == value
    assert hash(deep) == hash(value)


def test_every_record_type_of_every_family_is_sampled() -> None:
    """A record type neither in a table, nor an answer, nor constructible from defaults would go
    untested: give ``answers`` a way to make it."""
    assert RUNTIMES, "no family runtime in generated/python"
    assert [qualified(kind) for kind in record_types() if kind not in samples()] == []
    # The tests below are parametrised by the runtimes' record types: none sampled is left out.
    assert [qualified(kind) for kind in samples() if kind not in record_types()] == []


def qualified(kind: type[Record]) -> str:
    return f"{kind.__module__}.{kind.__name__}"


KINDS: list[type[Record]] = sorted(record_types(), key=qualified)


@pytest.mark.parametrize("kind", KINDS, ids=[kind.__name__ for kind in KINDS])
def test_records_are_python_values(kind: type[Record]) -> None:
    for record in samples()[kind]:
        assert_value(record)
        assert record.replace() == record and record.replace() is not record
        names = fields(record)
        assert list(record.asdict()) == list(names)
        assert all(not isinstance(v, Record | FrozenMap) for v in record.asdict().values())
        # Each field written again with its own value: every value the packages hold is one of its type,
        # and the record is the same (a settings record's unknown fact given None stays unknown).
        for n in names:
            assert record.replace(**{n: getattr(record, n)}) == record
        # The first field that may be None (a fact the sources do not give), made None.
        optional = [n for n in names if _takes(kind, n, "None")]
        if optional:
            first = optional[0]
            changed = record.replace(**{first: None})
            # A changed record is the record made anew with that field (a record may normalise a
            # field: Assumptions keeps an absent table as ()).
            made = {**{n: getattr(record, n) for n in names}, first: None}
            if isinstance(record, SettingsRecord):  # which keys are unknown is kept, None given or not
                made["unknown_fields"] = record.unknown_fields
            assert changed == kind(**made)
            assert changed.__class__ is kind
            assert all(getattr(changed, n) == getattr(record, n) for n in names if n != first)
        first = names[0]
        with pytest.raises(TypeError):
            record.replace(no_such_field=1)
        with pytest.raises(AttributeError, match="frozen"):
            setattr(record, first, None)


def _annotation(kind: type[Record], name: str) -> str:
    """The annotation of the field ``name`` of ``kind``, as written (``int | None``)."""
    for klass in kind.__mro__:
        found = inspect.get_annotations(klass).get(name)
        if found is not None:
            return str(found)
    raise AssertionError(f"{kind.__name__}.{name} has no annotation")


def _takes(kind: type[Record], name: str, what: str) -> bool:
    """Whether the field's annotation names ``what`` (``None``, ``object``) as one of its types."""
    depth, options, option = 0, [], ""
    for char in _annotation(kind, name):  # the union's options at the top level only
        depth += (char == "[") - (char == "]")
        if char == "|" and depth == 0:
            options.append(option.strip())
            option = ""
        else:
            option += char
    return what in [*options, option.strip()]


class _Foreign:
    """A value of no record's field type (an engine's own object, given by mistake)."""

    def __repr__(self) -> str:
        return "<foreign>"


@pytest.mark.parametrize("kind", KINDS, ids=[kind.__name__ for kind in KINDS])
def test_a_changed_or_restored_record_holds_values_of_its_fields_types(kind: type[Record]) -> None:
    """`replace` took any value for any field (`card.replace(cost="ten")`, a flag given as 1), and a
    pickle restored whatever state it held: the record then failed deep inside a helper, or answered
    wrongly. Each path that makes a record other than the package's own data now holds its fields to
    their declared types, and names the field (OutOfDomainError, a ValueError); a name that is no
    field is a TypeError naming the closest."""
    from civrules_runtime.errors import NotACollectionError, OutOfDomainError

    foreign = _Foreign()
    for record in samples()[kind]:
        names = fields(record)
        state = record.__getstate__()
        for at, name in enumerate(names):
            if _takes(kind, name, "object"):  # a field of any value: nothing to refuse
                continue
            # Named by the record's field (an Assumptions record says what the value should be, as
            # its constructor always did: OutOfDomainError, or NotACollectionError for no mapping).
            with pytest.raises(
                (OutOfDomainError, NotACollectionError), match=rf"^({kind.__name__}\.)?{name}\b.*<foreign>"
            ):
                record.replace(**{name: foreign})
            broken = (*state[:at], foreign, *state[at + 1 :])
            with pytest.raises(OutOfDomainError, match=rf"^{kind.__name__}\.{name}=<foreign> "):
                pickle.loads(pickle.dumps(record)).__setstate__(broken)
        misspelt = names[0] + "_s"
        with pytest.raises(TypeError, match=rf"^{kind.__name__} has no field {misspelt!r}: "):
            record.replace(**{misspelt: 1})


def _arguments(record: Record) -> dict[str, object]:
    """The keyword arguments that make ``record`` again by calling its class: its fields, by the
    names its constructor takes (a settings record's unknown keys too)."""
    taken = inspect.signature(type(record)).parameters
    made = {name: getattr(record, name) for name in fields(record) if name in taken}
    if isinstance(record, SettingsRecord):
        made["unknown_fields"] = record.unknown_fields
    return made


@pytest.mark.parametrize("kind", KINDS, ids=[kind.__name__ for kind in KINDS])
def test_a_record_made_by_calling_its_class_holds_values_of_its_fields_types(kind: type[Record]) -> None:
    """`Card(..., cost="ten")`, as an engine developer makes a record, was made whatever its fields
    held, while `replace` and unpickling refused it: every path that makes a record holds the same
    checks, and a misspelt argument names the closest, as `replace` does."""
    from civrules_runtime.errors import NotACollectionError, OutOfDomainError

    foreign = _Foreign()
    make: Callable[..., Record] = kind  # each record's own keyword arguments
    for record in samples()[kind]:
        given = _arguments(record)
        assert make(**given) == record
        for name in given:
            if name == "unknown_fields" or _takes(kind, name, "object"):
                continue
            with pytest.raises(
                (OutOfDomainError, NotACollectionError), match=rf"^({kind.__name__}\.)?{name}\b.*<foreign>"
            ):
                make(**{**given, name: foreign})
        misspelt = next(iter(given)) + "_s"
        with pytest.raises(TypeError, match=rf"^{kind.__name__} has no field {misspelt!r}: "):
            make(**given, **{misspelt: 1})


def test_a_record_made_by_calling_its_class_says_what_its_field_holds() -> None:
    from civrules_runtime.errors import OutOfDomainError
    from civrules_runtime.records import PlayerRange
    from civrules_runtime_advanced_civilization.records import Card, Credit

    rules = package("advanced_civilization")
    card = rules.CARDS["pottery"]
    given = _arguments(card)
    make_card: Callable[..., Record] = Card  # made as an engine's untyped code would, unchecked by mypy
    make_credit: Callable[..., Record] = Credit
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost='ten' is not of its type, int \| None$"):
        make_card(**{**given, "cost": "ten"})
    with pytest.raises(OutOfDomainError, match=r"^Card\.groups=\('crafs',\) "):
        make_card(**{**given, "groups": ("crafs",)})
    with pytest.raises(TypeError, match=r"^Card has no field 'cots': did you mean 'cost'\?$"):
        make_card(**given, cots=50)
    with pytest.raises(OutOfDomainError, match=r"^Credit\.extra=1 is not of its type, bool$"):
        make_credit(**{**_arguments(rules.CARDS["pottery"].credits[0]), "extra": 1})
    with pytest.raises(OutOfDomainError, match=r"min=5 is above max=4$"):
        PlayerRange(5, 4)
    with pytest.raises(OutOfDomainError, match=r"best=9 is outside 2 to 4$"):
        PlayerRange(2, 4, best=9)
    assert make_card(**given) == card


def test_every_record_of_every_package_is_one_its_class_would_make() -> None:
    """A package's data module makes its records without the checks of a call of their class (its
    data was checked when it was built, and paying again costs every engine's import): every record
    of every table of every package is held to those checks here, once."""
    from civrules_runtime import records

    checked = 0
    for name in PACKAGES:
        for _, table in tables(package(name)):
            for value in values(table):
                if isinstance(value, Record):
                    records._restored(value, value._values())
                    checked += 1
    assert checked > 1000


def test_a_package_data_module_makes_its_records_without_checking_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a package's data checks none of its records: counted, every record of the module is
    made (through the makers it binds, ``data_maker``) and none goes through the checks (the test
    above holds them once)."""
    import importlib.util

    from civrules_runtime import records

    checked: list[object] = []
    made: list[object] = []
    check = records._restored

    def counted(record: Record, values: tuple[object, ...]) -> None:
        checked.append(record)
        check(record, values)

    monkeypatch.setattr(records, "_restored", counted)
    for name in PACKAGES:
        package(name)  # its ids and runtime, imported as an engine imports them
        spec = importlib.util.spec_from_file_location(
            f"civrules_rulesets.{name}.data", GENERATED / "civrules_rulesets" / name / "data.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)  # a fresh load, not the one sys.modules keeps
        spec.loader.exec_module(module)
        data = [table for key, table in vars(module).items() if key.isupper()]
        made += [v for table in data for v in values(table) if isinstance(v, Record)]
    assert made and checked == []
    # and the same records, made by an engine's own module, are each checked
    card = package("advanced_civilization").CARDS["pottery"]
    assert type(card)(**_arguments(card)) == card and checked == [card]


@pytest.mark.parametrize(
    "module_name", ["civrules_rulesets.forged.data", "civrules_rulesets.advanced_civilization.data"]
)
def test_a_module_named_as_a_data_module_makes_checked_records(module_name: str) -> None:
    """A record made by calling its class is checked whoever calls it: a module that only bears a
    data module's name (any module can be named so) was trusted by that name, read from the
    caller's frame, and made a card costing 'ten'."""
    from types import ModuleType

    from civrules_runtime.errors import OutOfDomainError

    card = package("advanced_civilization").CARDS["pottery"]
    forged = ModuleType(module_name)
    forged.__dict__.update(Card=type(card), given={**_arguments(card), "cost": "ten"})
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost='ten' is not of its type, int \| None$"):
        exec("Card(**given)", forged.__dict__)  # the call as a module of that name makes it


def test_data_maker_makes_the_record_its_class_makes_unchecked() -> None:
    """``data_maker(cls)`` takes the class's arguments and makes the record the class would make,
    without the checks (what a package's data module makes its records with)."""
    from civrules_runtime.records import data_maker

    card = package("advanced_civilization").CARDS["pottery"]
    make = data_maker(type(card))
    assert make(**_arguments(card)) == card
    assert make(**{**_arguments(card), "cost": "ten"}).cost == "ten"  # unchecked: its caller vouches
    with pytest.raises(TypeError):
        make(**_arguments(card), cots=50)


def test_a_calamity_amount_is_made_without_checking_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``calamity_amount`` answers with records made from the package's checked records and its
    checked arguments: counted, none of them goes through a call's checks (each answer paid them:
    3.5 µs a call), and the answer is the same."""
    from civrules_runtime import records

    rules = package("advanced_civilization")
    before = rules.calamity_amount("civil_war", "faction_annexed", ["military", "music"], "primary")
    checked: list[object] = []
    check = records._restored

    def counted(record: Record, values: tuple[object, ...]) -> None:
        checked.append(record)
        check(record, values)

    monkeypatch.setattr(records, "_restored", counted)
    after = rules.calamity_amount("civil_war", "faction_annexed", ["military", "music"], "primary")
    assert after == before and after.additions and checked == []


def test_a_changed_record_says_what_its_field_holds() -> None:
    from civrules_runtime.errors import OutOfDomainError

    rules = package("advanced_civilization")
    card = rules.CARDS["pottery"]
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost='ten' is not of its type, int \| None$"):
        card.replace(cost="ten")
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost=True "):
        card.replace(cost=True)  # a flag is no whole number
    with pytest.raises(OutOfDomainError, match=r"^Card\.groups='crafts' "):
        card.replace(groups="crafts")  # a text where a tuple of groups belongs
    with pytest.raises(OutOfDomainError, match=r"^Card\.groups=\('crafs',\) "):
        card.replace(groups=("crafs",))  # no group of the vocabulary
    assert card.replace(groups=("crafts",)).groups == ("crafts",)  # a vocabulary's text is its member
    with pytest.raises(OutOfDomainError, match=r"^Credit\.extra=1 is not of its type, bool$"):
        card.credits[0].replace(extra=1)  # 1 is no flag
    with pytest.raises(TypeError, match=r"^Card has no field 'cots': did you mean 'cost'\?$"):
        card.replace(cots=50)
    with pytest.raises(OutOfDomainError, match=r"^Attribute\.effects=\(1,\) "):
        card.attributes[0].replace(effects=(1,))  # an alias of records (Effect) is read too
    with pytest.raises(TypeError, match=r"^Settings has no field 'credit_polcy': did you mean 'credit_policy'\?$"):
        rules.SETTINGS.replace(credit_polcy=None)


def test_a_changed_player_range_is_one_the_rules_could_give() -> None:
    """`PLAYERS.replace(min=5)` on a 2-4 range made a range seating no count, `best=9` a best number
    it does not seat (T018 refuses both in the data)."""
    from civrules_runtime.errors import OutOfDomainError

    players = package("sid_meiers_civilization").PLAYERS
    assert players is not None and (players.min, players.max, players.best) == (2, 4, 4)
    with pytest.raises(OutOfDomainError, match=r"min=0 seats no player"):
        players.replace(min=0)
    with pytest.raises(OutOfDomainError, match=r"min=5 is above max=4$"):
        players.replace(min=5)
    with pytest.raises(OutOfDomainError, match=r"best=9 is outside 2 to 4$"):
        players.replace(best=9)
    assert players.replace(max=5, best=None).max == 5
    with pytest.raises(OutOfDomainError, match=r"min=5 is above max=4$"):
        pickle.loads(pickle.dumps(players)).__setstate__((5, 4, None, (), None, FrozenMap({})))


@pytest.mark.parametrize("name", PACKAGES)
def test_every_table_of_every_package_is_a_python_value(name: str) -> None:
    module = package(name)
    for table, value in tables(module):
        if table == "ID_ENUMS":  # classes pickle by reference
            assert pickle.loads(pickle.dumps(value)) == value
            continue
        assert_value(value)
        for inner in values(value):
            assert not isinstance(inner, dict | list | set), f"{table} holds a mutable {type(inner).__name__}"


def test_frozen_map_is_a_read_only_value() -> None:
    table = FrozenMap({"iron": 6, "salt": 3})
    assert table == {"iron": 6, "salt": 3} and table == FrozenMap({"iron": 6, "salt": 3})
    assert hash(table) == hash(FrozenMap({"salt": 3, "iron": 6}))
    assert list(table) == ["iron", "salt"] and len(table) == 2 and "iron" in table
    assert copy.copy(table) is table
    with pytest.raises(TypeError):
        table["iron"] = 7  # type: ignore[index]
    with pytest.raises(AttributeError, match="read-only"):
        table._items = {}


def test_the_issue_examples() -> None:
    """pickle/copy/deepcopy of a card failed ("frozen"), the mappings could not be pickled, an
    epoch (its requirements a mappingproxy) could not be hashed."""
    rules = package("advanced_civilization")
    card = rules.CARDS["pottery"]
    assert pickle.loads(pickle.dumps(card)) == card
    assert copy.copy(card) == card and copy.deepcopy(card) == card
    assert pickle.loads(pickle.dumps(rules.CARDS)) == rules.CARDS
    assert all(isinstance(hash(epoch), int) for epoch in rules.EPOCHS.values())
    cheaper = card.replace(cost=card.cost - 5)
    assert cheaper.cost == card.cost - 5 and cheaper != card and cheaper.name == card.name
    assert card.asdict()["id"] == "pottery"


def test_records_have_no_order_and_say_how_to_sort_them() -> None:
    """Records are equal or not, as frozen dataclasses without ``order=True``: sorting records of
    any kind is a TypeError that says to sort by a field (it said only that ``<`` is not
    supported)."""
    told = 0
    for kind, records in samples().items():
        record: Any = records[0]  # mypy refuses comparing records: the runtime is tried here
        for compare in (operator.lt, operator.le, operator.gt, operator.ge):
            with pytest.raises(TypeError, match=rf"{kind.__name__} records have no order .* sort them by a field"):
                compare(record, record)
        told += 1
    assert told == len(samples())
