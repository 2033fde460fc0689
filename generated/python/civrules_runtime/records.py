# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The record base every family's runtime builds its records on, and the records every family shares.

A record is frozen, slotted and compared by its fields, like a frozen dataclass, and a Python
value like one: it pickles, copies and hashes, ``record.replace(field=value)`` derives a changed
record (``copy.replace`` too, on Python 3.13) and ``record.asdict()`` gives its fields as a dict,
recursively, as ``dataclasses.asdict`` does. Each family's
runtime (``civrules_runtime_<family>``) defines its own records on :class:`Record`; the records of
the Advanced Civilization family that lived here before the runtime was split by family are still
importable from this module for now (loaded on first use): they live in
``civrules_runtime_advanced_civilization.records``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .mappings import FrozenMap, MissingKeyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Self

_set = object.__setattr__


class Record:
    """A frozen, slotted record compared, hashed and shown by its fields, like a frozen dataclass
    (written out rather than made by ``dataclasses``: creating ~50 dataclasses costs an engine
    more import time than all of a ruleset's data)."""

    __slots__ = ()

    def _names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self.__slots__
        return names

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._names())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record) and other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names())
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign to {name!r}")

    # pickle and copy make a record without ``__init__`` and set its fields from this state
    # (``__setattr__`` refuses, so the default state of a slotted object cannot be restored).
    def __getstate__(self) -> tuple[object, ...]:
        return self._values()

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(self._names(), state, strict=True):
            _set(self, name, value)

    def __copy__(self) -> Self:
        return self  # it cannot change: a copy is itself, as for a tuple

    def replace(self, **changes: object) -> Self:
        """A record of the same type with ``changes`` made to its fields (the others as they are).

        Raises TypeError for a name that is not one of its fields.
        """
        return type(self)(**{**dict(zip(self._names(), self._values(), strict=True)), **changes})

    __replace__ = replace  # copy.replace (Python 3.13)

    def asdict(self) -> dict[str, object]:
        """The fields by name, records and mappings in them turned into dicts (as
        ``dataclasses.asdict``; tuples stay tuples)."""
        return {name: _plain(value) for name, value in zip(self._names(), self._values(), strict=True)}

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")


def _plain(value: object) -> object:
    if isinstance(value, Record):
        return value.asdict()
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


class SettingsRecord(Record, Mapping[str, object]):
    """A record of a ruleset's settings (``SETTINGS`` and its sections) that is also the read-only
    mapping SETTINGS was before it was typed: its keys are the keys of the data (sorted, as
    ``civrules export`` writes them), only those the data has, each with the value of its field.

    A field is None where the fact is absent or unknown: ``key in record`` tells them apart, and
    ``unknown_fields`` lists the keys whose facts the sources do not give. A key that is not a
    Python name (``from``) is the field ``from_``. A record equals any mapping of the same items
    (and hashes as one), as the FrozenMap it replaces did.
    """

    __slots__ = ("_unknown", "_present")

    _unknown: tuple[str, ...]  # the keys given as unknown
    _present: tuple[str, ...]  # the keys of the data, sorted: made when the mapping is first read
    #: The data's key of each field, in the order of ``__slots__`` (where one differs from its field).
    _setting_keys: tuple[str, ...] = ()
    _field_of: dict[str, str] = {}  # noqa: RUF012 - set once per class, never changed

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        names: tuple[str, ...] = cls.__dict__.get("__slots__", ())
        keys = cls.__dict__.get("_setting_keys") or names
        cls._setting_keys = keys
        cls._field_of = dict(zip(keys, names, strict=True))

    def _keys(self) -> tuple[str, ...]:
        """The keys the data has: the fields given a value, and the unknown ones (made once, when
        first asked: an engine that reads the fields never pays for the mapping)."""
        try:
            return self._present
        except AttributeError:
            unknown = self._unknown
            present = sorted(
                key
                for key, name in zip(self._setting_keys, self._names(), strict=True)
                if getattr(self, name) is not None or key in unknown
            )
            _set(self, "_present", tuple(present))
            return self._present

    @property
    def unknown_fields(self) -> tuple[str, ...]:
        """The keys the data has whose facts the sources do not give (their fields are None)."""
        return tuple(key for key in self._keys() if getattr(self, self._field_of[key]) is None)

    def __getitem__(self, key: str) -> object:
        if key in self._keys():
            return getattr(self, self._field_of[key])
        # as a FrozenMap's miss: an UnknownIdError (a KeyError) naming the closest key the data has
        raise MissingKeyError(key, dict.fromkeys(self._keys())) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def __contains__(self, key: object) -> bool:
        return key in self._keys()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SettingsRecord) and other.__class__ is self.__class__:
            return self._values() == other._values() and self.unknown_fields == other.unknown_fields
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))  # as a FrozenMap of the same items

    def __getstate__(self) -> tuple[object, ...]:
        return (*self._values(), self.unknown_fields)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        *values, unknown = state
        for name, value in zip(self._names(), values, strict=True):
            _set(self, name, value)
        _set(self, "_unknown", unknown)

    def replace(self, **changes: object) -> Self:
        """A record of the same type with ``changes`` made to its fields (by field name); a field
        left unknown stays unknown."""
        fields = dict(zip(self._names(), self._values(), strict=True))
        unknown = tuple(key for key in self.unknown_fields if self._field_of[key] not in changes)
        make: Callable[..., Self] = type(self)  # each record's own keyword arguments
        return make(**{**fields, **changes}, unknown_fields=unknown)

    __replace__ = replace  # copy.replace (Python 3.13)


class UnknownFact(Record):
    """A fact the sources do not give: the data file, the field, and why."""

    __slots__ = ("file", "field", "reason")
    __match_args__ = ("file", "field", "reason")

    file: str
    field: str
    reason: str

    def __init__(self, file: str, field: str, reason: str) -> None:
        _set(self, "file", file)
        _set(self, "field", field)
        _set(self, "reason", reason)


class PlayerRange(Record):
    """How many players the ruleset seats (the manifest's ``players``, ``civrules export``'s
    ``ruleset.players``): the fewest, the most, the best number where the source names one (None:
    it names none), and what cites those numbers: the rule pages or sections (empty: none), or
    secondary sources (None: none; several are joined by "; "). A number a variant's patch wrote
    is cited by the patch, never by the section the base cited for the number it replaced;
    ``field_sources`` names the citation of each field a variant changed (``"min"``, ``"max"``,
    ``"best"``: ``"rule p2"``, ``"source: house rule: ..."``, None where the patch cites nothing),
    as ``civrules export``'s ``setting_sources.players`` does, and is empty where no variant changed
    the range."""

    __slots__ = ("min", "max", "best", "rule", "source", "field_sources")
    __match_args__ = ("min", "max", "best", "rule", "source", "field_sources")

    min: int
    max: int
    best: int | None
    rule: tuple[str, ...]
    source: str | None
    field_sources: Mapping[str, str | None]

    def __init__(
        self,
        min: int,
        max: int,
        best: int | None = None,
        rule: tuple[str, ...] = (),
        source: str | None = None,
        field_sources: Mapping[str, str | None] | None = None,
    ) -> None:
        _set(self, "min", min)
        _set(self, "max", max)
        _set(self, "best", best)
        _set(self, "rule", rule)
        _set(self, "source", source)
        _set(self, "field_sources", FrozenMap(field_sources or {}))

    def __contains__(self, players: object) -> bool:
        """Whether ``players`` is a number of players the ruleset seats (``3 in PLAYERS``)."""
        return isinstance(players, int) and not isinstance(players, bool) and self.min <= players <= self.max


TYPE_CHECKING = False
if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        return _moved.attribute(__name__, name, "records")
