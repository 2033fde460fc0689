"""An engine's subclass of a record class is a record of the base's fields and its own, as a
subclass of a frozen dataclass is: made by calling it, it is checked, compared, hashed, shown,
pickled, copied, changed with ``replace`` and turned into a dict with every field. Before round 32
a record's fields were its class's own ``__slots__``: ``class Tagged(Card): __slots__ = ()`` was a
bare ``KeyError: 'id'`` from inside the runtime when called, and ``class Priced(Card)`` with a slot
of its own an ``AttributeError`` from its base's check, run before the subclass had set its field.

Every record class of the three families' runtimes that a shipped package holds is walked (one
record of each, from one package of each family)."""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import OutOfDomainError  # noqa: E402
from civrules_runtime.mappings import FrozenMap  # noqa: E402
from civrules_runtime.records import Record, SettingsRecord  # noqa: E402


def _records(value: object, depth: int = 0) -> Iterator[Record]:
    if depth > 6:
        return
    if isinstance(value, Record):
        yield value
        for field in value._values():
            yield from _records(field, depth + 1)
    elif isinstance(value, tuple):
        for item in value:
            yield from _records(item, depth + 1)
    elif isinstance(value, FrozenMap):  # a table (the credit matrix holds numbers, not records)
        for item in value.values():
            yield from _records(item, depth + 1)


def _one_of_each(package: Any) -> list[Record]:
    found: dict[type[Record], Record] = {}
    for name in package.__all__:
        for record in _records(getattr(package, name)):
            found.setdefault(type(record), record)
    return list(found.values())


def _arguments(record: Record) -> dict[str, Any]:
    """What the record's class is called with to make it again: its fields (and a settings record's
    unknown ones)."""
    fields = dict(zip(record._names(), record._values(), strict=True))
    if isinstance(record, SettingsRecord):
        fields["unknown_fields"] = record.unknown_fields
    return fields


@pytest.mark.parametrize("package", [ac, imperial, smc], ids=lambda package: package.__name__.rpartition(".")[2])
def test_a_subclass_of_each_record_class_is_a_record_of_its_fields(package: Any) -> None:
    records = _one_of_each(package)
    assert len(records) > 30
    for record in records:
        _subclassed(record)


def _subclassed(record: Record) -> None:
    base = type(record)
    tagged = type(f"Tagged{base.__name__}", (base,), {"__slots__": (), "__module__": __name__})
    made = tagged(**_arguments(record))
    assert made._names() == record._names() and made._values() == record._values()
    assert made == tagged(**_arguments(record))
    # equal as the same class only, as a dataclass (a settings record: to any mapping of its items)
    assert (made == record) is isinstance(record, SettingsRecord)
    assert hash(made) == hash(tagged(**_arguments(record)))
    assert repr(made) == repr(record).replace(base.__name__, tagged.__name__, 1)
    assert made.asdict() == record.asdict()
    assert copy.deepcopy(made) == made
    for field in record._names():  # a change, and a refusal, as its base's
        value = getattr(record, field)
        changed: Record = made.replace(**{field: value})
        assert type(changed) is tagged and changed._values() == record.replace(**{field: value})._values()
        assert _refusal(made, field) == _refusal(record, field).replace(base.__name__, tagged.__name__, 1)


def _refusal(record: Record, field: str) -> str:
    """What ``record.replace`` says of a value of no field's type (``""``: it takes it)."""
    try:
        record.replace(**{field: b"x"})
    except OutOfDomainError as error:
        return str(error)
    return ""


@pytest.mark.parametrize(
    "record", [ac.CARDS["law"], imperial.CARDS[next(iter(imperial.CARDS))], ac.SETTINGS], ids=lambda r: type(r).__name__
)
def test_a_subclass_with_a_field_of_its_own_holds_its_base_fields_then_its_own(record: Record) -> None:
    base = type(record)

    def init(self: Any, made_from: Record, price: int) -> None:
        base.__init__(self, **_arguments(made_from))  # the base's own check waits for the subclass's
        object.__setattr__(self, "price", price)

    priced = type(
        "Priced",
        (base,),
        {"__slots__": ("price",), "__init__": init, "__annotations__": {"price": "int"}, "__module__": __name__},
    )
    globals()["Priced"] = priced  # pickled by its name, as an engine's module-level class is
    try:
        made = priced(record, 5)
        assert made._names() == (*record._names(), "price")
        # a class pattern reaches its own field by position too, as a frozen dataclass's subclass's
        # (round 34: it inherited its base's __match_args__, without ``price``)
        assert getattr(priced, "__match_args__") == (*getattr(base, "__match_args__"), "price")  # noqa: B009
        assert made.price == 5 and made.asdict() == {**record.asdict(), "price": 5}
        assert pickle.loads(pickle.dumps(made)) == made
        assert made != priced(record, 6) and hash(made) == hash(priced(record, 5))
        with pytest.raises(OutOfDomainError, match=r"^Priced\.price='5' is not of its type, int$"):
            priced(record, "5")
    finally:
        del globals()["Priced"]
