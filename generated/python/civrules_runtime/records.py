# ruff: noqa: RUF023 - __slots__ list the fields in their order, which repr and comparison follow
"""The record base every family's runtime builds its records on, and the records every family shares.

A record is frozen, slotted and compared by its fields, like a frozen dataclass, and a Python
value like one: it pickles, copies and hashes, ``record.replace(field=value)`` derives a changed
record (``copy.replace`` too, on Python 3.13) and ``record.asdict()`` gives its fields as a dict,
recursively, as ``dataclasses.asdict`` does. Records have no order, as frozen dataclasses without
``order=True``: ``sorted(records)`` is a TypeError saying to sort by a field (``key=``), and an
error for mypy. Records are not dataclasses, though: ``dataclasses.replace``, ``asdict``,
``astuple`` and ``fields`` raise their TypeError ("should be called on dataclass instances") and
``dataclasses.is_dataclass`` is False; use ``record.replace``, ``record.asdict``,
``typing.get_type_hints(type(record))`` (the fields, in order) and ``isinstance(value, Record)``.
A record changed with ``replace``, restored from a
pickle (which anyone can write), or made by calling its class holds values of its fields' declared
types, as the package's data was checked to when it was built: a value of another type is
OutOfDomainError naming the field (the package's data module makes its records unchecked, through
:func:`data_maker`). Each family's
runtime (``civrules_runtime_<family>``) defines its own records on :class:`Record`; the records of
the Advanced Civilization family that lived here before the runtime was split by family are still
importable from this module for now (loaded on first use): they live in
``civrules_runtime_advanced_civilization.records``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, ParamSpec, Self, TypeVar, cast

from .errors import NotACollectionError, OutOfDomainError, _count, shown
from .mappings import FrozenMap, MissingKeyError, _by_a_table

TYPE_CHECKING = False
R = TypeVar("R", bound="Record")
P = ParamSpec("P")

_set = object.__setattr__


class Record:
    """A frozen, slotted record compared, hashed and shown by its fields, like a frozen dataclass
    (written out rather than made by ``dataclasses``: creating ~50 dataclasses costs an engine
    more import time than all of a ruleset's data). So it is no dataclass to ``dataclasses``: its
    functions raise TypeError for it; :meth:`replace` and :meth:`asdict` are its own, and
    ``typing.get_type_hints`` of its class gives its fields in order, as ``dataclasses.fields``.
    A record can be referred to weakly (``weakref.ref(record)``, a ``WeakValueDictionary`` of
    records), as a frozen dataclass made with ``weakref_slot=True`` can."""

    # The slot of weak references, the base's only one: an engine caches or observes records it
    # does not own (a WeakValueDictionary, weakref.finalize), at one pointer a record.
    __slots__ = ("__weakref__",)

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # The fields: the public slots of each class from the base down, as a subclass of a frozen
        # dataclass has its base's fields, then its own (an engine's ``class PricedCard(Card)``).
        cls._fields = tuple(
            name
            for klass in reversed(cls.__mro__)
            for name in _slots(klass)
            if not name.startswith("_")  # the record machinery's own (a settings record's)
        )
        declared = cls.__dict__.get("replace")
        if declared is not None and getattr(declared, "_replace_signature", False):
            # a signature of typed_replace: the class's replace is its base's, read by inspect as declared
            stub = getattr(declared, "__wrapped__", declared)  # the declaration typed_replace wraps
            made = _replace_declared(cls, getattr(super(cls, cls), "replace"), stub)  # noqa: B009 - no base is typed here
            setattr(cls, "replace", made)  # noqa: B010 - mypy refuses the assignment of a method
        inherited = tuple(getattr(super(cls, cls), "_fields", ()))
        own = tuple(name for name in cls._fields if name not in inherited)
        if own and inherited and "__match_args__" not in cls.__dict__:
            # a class pattern reaches a subclass's own fields by position too, after its base's, as
            # for a frozen dataclass's subclass (it inherited the base's, without them)
            setattr(cls, "__match_args__", (*getattr(super(cls, cls), "__match_args__", inherited), *own))  # noqa: B010 - mypy refuses the assignment
        raw = cls.__dict__.get("__init__")
        if raw is not None:
            cls._made = raw  # the record's own constructor, unchecked: replace() checks what it changes
            # every call of the class is checked (a misspelt argument named as replace() names it)
            cls.__init__ = _checking(raw, types=not cls._checks_own_arguments)  # type: ignore[method-assign]

    # The class-level settings below are declared for type checkers only: annotated at run time they
    # would be among ``typing.get_type_hints(Card)``, which a dataclass-like field reader takes for
    # fields. A record class's hints are its fields (and its public ``ClassVar`` constants).
    if TYPE_CHECKING:
        #: The constructor the record's class defines, without the checks (see :func:`_checking`).
        _made: ClassVar[Callable[..., None]]
        #: The schema object this class's records hold, ``file#pointer`` (a file of the family's
        #: schemas): each field is linked to that object's property of its name.
        #: compiler/tools/bounds.py reads it to write the family runtime's ``bounds`` module, which
        #: :func:`bound` applies.
        _schema: ClassVar[str | None]
        #: The schema's constraints on the fields, checked after their types, by field (set by
        #: :func:`bound`; none: the class has none): their tests are made when first checked.
        _bounds: ClassVar[Mapping[str, Iterable[tuple[str, object]]]]
        #: Where a bounded field's property is, ``file#pointer``, when it is not ``_schema``'s
        #: property of the field's name (set by :func:`bound`, from the class's ``_properties``).
        _bounds_at: ClassVar[Mapping[str, str]]
        #: The fields linked otherwise than to ``_schema``'s property of their name, by field: a
        #: path of properties in that object (``"players/min"``, ``"rule"``) or another object's
        #: property (``file#pointer``), for a field named otherwise or a class whose fields come
        #: from several objects. compiler/tools/bounds.py reads it with ``_schema``.
        _properties: ClassVar[Mapping[str, str]]
        #: The record's fields, in order: its bases' then its own (made for each class).
        _fields: ClassVar[tuple[str, ...]]
    _fields = ()
    _schema = None
    _bounds = {}  # noqa: RUF012 - a class setting, replaced (never changed) by bound()
    _bounds_at = {}  # noqa: RUF012 - likewise
    _properties = {}  # noqa: RUF012 - a class setting, each class its own
    #: True where the record's constructor checks its arguments itself and says what each should be
    #: (an engine's assumptions: their bounds when made, their ids by the package that takes them):
    #: a call of its class does not check the values again.
    _checks_own_arguments = False

    def _names(self) -> tuple[str, ...]:
        return self._fields

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
        names = self._names()
        if not isinstance(state, tuple) or len(state) != len(names):
            raise _unrestorable(type(self), names, state)
        for name, value in zip(names, state, strict=True):
            _set(self, name, value)
        _restored(self, state)  # a pickle is made by anyone: its fields are held to the record's types

    def __copy__(self) -> Self:
        return self  # it cannot change: a copy is itself, as for a tuple

    def replace(self, *args: Any, **changes: Any) -> Self:
        """A record of the same type with ``changes`` made to its fields (the others as they are):
        what ``dataclasses.replace`` does for a dataclass, which raises TypeError for a record.

        Raises TypeError for a name that is not one of its fields (naming the closest), and
        OutOfDomainError (a ValueError) for a value its field's type does not hold (a text where a
        whole number belongs, a flag given as 1, a value no vocabulary of the field has): the
        record's data was checked when the package was built, and a changed record is held to the
        same types. Each record class declares a ``replace`` of its own (:func:`typed_replace`,
        written by compiler/tools/replaces.py), its fields keyword-only with their types: a type
        checker refuses ``card.replace(cost="ten")`` too, and ``inspect.signature`` and ``help()``
        read those fields (``= ...``: the field as it is); this one's ``*args``/``Any`` only let
        those narrow it.
        """
        _positional(self, args)
        _known(self, changes)
        with _made_of(self, changes):
            made = _unchecked(type(self), {**dict(zip(self._names(), self._values(), strict=True)), **changes})
        return _checked(made, changes)

    __replace__ = replace  # copy.replace (Python 3.13)

    def asdict(self, *, tagged: bool = False) -> dict[str, object]:
        """The fields by name, records and mappings in them turned into dicts (as
        ``dataclasses.asdict``, which raises TypeError for a record; tuples stay tuples).

        ``tagged``: also what the fields alone do not say, so that :meth:`from_dict` makes the very
        record again: each record whose class is one of several a field may hold (a member of an
        alias ``Effect = Gain | Loss``, where ``Gain(change=-1)`` and ``Loss(change=-1)`` have the
        same fields) names its class first, ``"@record": "Gain"``, and a settings record with
        fields the sources do not give names them, ``"@unknown_fields": ["items"]``. Every other
        record's dict is as without it.
        ``from_dict`` reads both forms; a runtime before 2.18 reads only the untagged one (it
        refuses ``@record`` as no field): write that for engines still on one.
        """
        plain = {name: _plain(value, tagged) for name, value in zip(self._names(), self._values(), strict=True)}
        if not tagged:
            return plain
        tags: dict[str, object] = {}
        if _told_by_class(type(self)):
            tags[RECORD_KEY] = type(self).__name__
        unknown = getattr(self, "unknown_fields", None) if isinstance(self, SettingsRecord) else None
        if unknown:
            tags[UNKNOWN_FIELDS_KEY] = list(unknown)
        return {**tags, **plain} if tags else plain

    @classmethod
    def from_dict(cls, fields: Mapping[str, object], /) -> Self:
        """The record of this class that :meth:`asdict` gave ``fields`` for: ``asdict``'s inverse,
        which also reads ``json.loads`` of its JSON (lists for tuples, a whole number's key as a
        text). Each field's value is read by its declared type (a dict into the record or table it
        was, a list into a tuple), then the record is made as a call of the class makes it, so it is
        checked as one is: each field of its type and within its schema's bounds, ids of their
        vocabularies, nested records the same.

        Raises NotACollectionError (a TypeError) where ``fields`` is no mapping, OutOfDomainError (a
        ValueError) for a name that is no field (naming the closest), a field missing, or a value
        its field does not hold (naming the field).
        """
        return _from_dict(cls, fields)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    if not TYPE_CHECKING:  # hidden from type checkers: ``sorted(records)`` stays a mypy error

        def __lt__(self, other: object) -> bool:
            raise TypeError(
                f"{type(self).__name__} records have no order (as frozen dataclasses, they are equal or"
                " not): sort them by a field, sorted(records, key=lambda record: record.id)"
            )

        __le__ = __gt__ = __ge__ = __lt__

    def _problem(self) -> str | None:
        """What makes the fields, each of its type, no record the rules could give (a range whose
        fewest is above its most), checked with the types where a record is changed or restored;
        None: nothing."""
        return None


_Signature = TypeVar("_Signature", bound=Callable[..., object])


def typed_replace(signature: _Signature) -> _Signature:
    """Declares a record class's ``replace``: its fields keyword-only, each optional (``= ...``),
    each with the type the class's constructor takes. The class's ``replace`` does what its base's
    does (a name that is no field, a value of another type: the errors of :meth:`Record.replace`),
    and type checkers, IDEs and ``inspect.signature`` read the fields and types declared::

        class Item(Record):
            ...

            @typed_replace
            def replace(self, *, id: str = ..., cost: int = ...) -> Self:
                raise NotImplementedError  # never called: the declaration only

    ``inspect.signature(Item.replace)`` is then ``(self, *, id: 'str' = Ellipsis, cost: 'int' =
    Ellipsis) -> 'Self'`` (``eval_str=True`` or ``typing.get_type_hints`` evaluate the types), where
    it was the base's ``(self, *args, **changes)``. compiler/tools/replaces.py writes these.

    Only a record class reads the declaration: on a class that is no :class:`Record`, or on a method
    of a record class named otherwise, calling it raises TypeError saying so (the stub's body, the
    declaration's ``NotImplementedError``, never runs).
    """
    import functools

    name = getattr(signature, "__name__", "replace")

    def undeclared(self: object, *args: object, **changes: object) -> object:
        owner = type(self).__name__
        if isinstance(self, Record):
            raise TypeError(
                f"{owner}.{name} is declared with civrules_runtime.records.typed_replace, which declares a"
                f" record class's replace only: name it replace, or write {name} without typed_replace"
            )
        raise TypeError(
            f"{owner}.{name} is declared with civrules_runtime.records.typed_replace, which declares the"
            f" replace of a record class, and {owner} is no civrules_runtime.Record: derive {owner} from"
            f" Record (or a record class), or write its {name} without typed_replace"
        )

    made = functools.update_wrapper(undeclared, signature)  # inspect reads the declared signature
    setattr(made, "_replace_signature", True)  # noqa: B010 - a function's attribute, for __init_subclass__
    # called, it says it is no record's replace: a record class's replace is its base's (__init_subclass__)
    return cast("_Signature", made)


def _replace_declared(
    cls: type, inherited: Callable[..., object], declared: Callable[..., object]
) -> Callable[..., object]:
    """``inherited`` (the base's ``replace``) as ``cls``'s own, whose signature ``inspect`` reads from
    ``declared`` (``__wrapped__``, as it reads a decorated function's); its code is the base's, copied,
    so a call costs what the base's does."""
    import types

    if not isinstance(inherited, types.FunctionType):  # an engine's base with a replace of its own kind
        return inherited
    made = types.FunctionType(
        inherited.__code__, inherited.__globals__, "replace", inherited.__defaults__, inherited.__closure__
    )
    made.__kwdefaults__ = inherited.__kwdefaults__
    made.__doc__ = inherited.__doc__
    made.__module__ = cls.__module__
    made.__qualname__ = f"{cls.__qualname__}.replace"
    made.__annotations__ = dict(declared.__annotations__)
    made.__wrapped__ = declared  # type: ignore[attr-defined]
    return made


def _slots(klass: type) -> tuple[str, ...]:
    """The names ``klass`` itself declares in ``__slots__`` (one name may be written as a str)."""
    slots = klass.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _unrestorable(cls: type, names: tuple[str, ...], state: object) -> OutOfDomainError:
    """The error of a pickle whose state is not ``cls``'s fields: most likely made by another
    version of the runtime that defines ``cls``, whose record has other fields (a pickle holds a
    record's values in the order of its fields, not their names)."""
    import sys

    package = cls.__module__.rpartition(".")[0] or cls.__module__
    version = getattr(sys.modules.get(package), "__version__", None)
    given = _count(len(state), "value") if isinstance(state, tuple) else f"a {type(state).__name__}"
    return OutOfDomainError(
        f"{cls.__name__} is restored from its {_count(len(names), 'field')} ({', '.join(names)}), not {given}:"
        f" the pickle was made by another version of {package}{f' than this {version}' if version else ''}, whose"
        f" {cls.__name__} has other fields; load it with the version that made it, or make it again from a"
        " ruleset package's data (a pickle of a record is for the version that wrote it)"
    )


def _plain(value: object, tagged: bool = False) -> object:
    if isinstance(value, Record):
        # an engine's record class may define an asdict() of its own, without ``tagged``
        return value.asdict(tagged=True) if tagged else value.asdict()
    if isinstance(value, Mapping):
        return {key: _plain(item, tagged) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_plain(item, tagged) for item in value)
    return value


#: The key of ``asdict(tagged=True)`` that names a record's class, where a field may hold several.
RECORD_KEY = "@record"
#: The key of ``asdict(tagged=True)`` that names a settings record's fields the sources do not give.
UNKNOWN_FIELDS_KEY = "@unknown_fields"

#: Whether each record class is one of several a field may hold (made when first asked).
_BY_CLASS: dict[type, bool] = {}


def _told_by_class(cls: type) -> bool:
    """Whether ``cls`` is a member of an alias of several records (``Effect = Immunity | ...``) of
    the module that defines it: a field of that alias's type holds any of them, and their dicts
    may have the same keys, so ``asdict(tagged=True)`` names its class."""
    told = _BY_CLASS.get(cls)
    if told is None:
        import sys
        from types import UnionType

        module = sys.modules.get(cls.__module__)
        told = any(
            isinstance(value, UnionType) and cls in value.__args__ and len(value.__args__) > 1
            for value in (vars(module).values() if module is not None else ())
        )
        _BY_CLASS[cls] = told
    return told


# --- A record made again from its asdict() ---------------------------------------------------------


def _from_dict(cls: type[R], fields: object) -> R:
    if not isinstance(fields, Mapping):
        raise NotACollectionError(
            f"{cls.__name__}.from_dict takes a mapping of its fields (what asdict() gives), not {shown(fields)}"
            f" (of type {type(fields).__name__})"
        )
    names = cls._fields
    extra: dict[str, object] = {}
    if RECORD_KEY in fields and fields[RECORD_KEY] != cls.__name__:
        raise OutOfDomainError(
            f"{cls.__name__}.from_dict: the dict is of the record {fields[RECORD_KEY]!r} ({RECORD_KEY}), not of"
            f" {cls.__name__}"
        )
    if UNKNOWN_FIELDS_KEY in fields:
        unknown = fields[UNKNOWN_FIELDS_KEY]
        if not issubclass(cls, SettingsRecord):
            raise OutOfDomainError(
                f"{cls.__name__}.from_dict: {UNKNOWN_FIELDS_KEY} is for a settings record; {cls.__name__} has no"
                " unknown fields"
            )
        if not isinstance(unknown, (list, tuple)) or not all(isinstance(key, str) for key in unknown):
            raise OutOfDomainError(
                f"{cls.__name__}.from_dict: {UNKNOWN_FIELDS_KEY} is a list of its data's keys, not {shown(unknown)}"
            )
        strange = [key for key in unknown if key not in cls._field_of]
        if strange:
            raise OutOfDomainError(
                f"{cls.__name__}.from_dict: {UNKNOWN_FIELDS_KEY} names {', '.join(map(repr, strange))}, no key of its"
                f" data: its keys are {', '.join(cls._setting_keys)}"
            )
        extra["unknown_fields"] = tuple(unknown)
    for name in fields:
        if name in (RECORD_KEY, UNKNOWN_FIELDS_KEY):
            continue
        if name not in names:
            from .errors import closest_id

            close = closest_id(name, dict.fromkeys(names)) if isinstance(name, str) else None
            hint = f"did you mean {close!r}?" if close else f"its fields are {', '.join(names)}"
            raise OutOfDomainError(f"{cls.__name__}.from_dict: {name!r} is no field of {cls.__name__}: {hint}")
    missing = [name for name in names if name not in fields]
    if missing:
        raise OutOfDomainError(
            f"{cls.__name__}.from_dict: {', '.join(missing)} missing (asdict() gives every field: {', '.join(names)})"
        )
    readers = _readers(cls)
    values = {}
    for name in names:
        read = readers.get(name)
        values[name] = fields[name] if read is None else read(fields[name])
    try:
        return cls(**values, **extra)
    except TypeError as error:
        if type(error) is not TypeError:  # one of the runtime's own (NotACollectionError): it says what it is
            raise
        raise OutOfDomainError(f"{cls.__name__}.from_dict: {error}") from None


#: How a value of one part of a field's type is read from asdict()'s output: the kinds of plain
#: values it reads (a record and a table read a mapping, a tuple a list or a tuple) and how.
_Read = tuple[tuple[type, ...], Callable[[object], object]]

#: Each record type's readers, by field (a field missing: its value is taken as it is).
_READERS: dict[type, dict[str, Callable[[object], object]]] = {}


def _readers(cls: type) -> dict[str, Callable[[object], object]]:
    readers = _READERS.get(cls)
    if readers is None:
        import inspect
        import sys

        readers = {}
        for klass in reversed(cls.__mro__):
            namespace = vars(sys.modules[klass.__module__]) if klass.__module__ in sys.modules else {}
            for name in _slots(klass):
                annotation = inspect.get_annotations(klass).get(name)
                if annotation is not None and not name.startswith("_"):
                    found = _Loader(str(annotation), namespace).read()
                    if found is not None:
                        readers[name] = found[1]
        _READERS[cls] = readers
    return readers


def _record_read(klass: type[Record]) -> _Read:
    return ((Mapping,), lambda value: klass.from_dict(value) if isinstance(value, Mapping) else value)


def _records_read(classes: tuple[type[Record], ...]) -> _Read:
    """A mapping read into the record of ``classes`` (an alias of records, ``Effect``) whose fields
    are its keys; of several, the first that takes it."""

    def read(value: object) -> object:
        if not isinstance(value, Mapping):
            return value
        if RECORD_KEY in value:  # asdict(tagged=True): the record names its class
            named = [klass for klass in classes if klass.__name__ == value[RECORD_KEY]]
            if not named:
                raise OutOfDomainError(
                    f"{value[RECORD_KEY]!r} ({RECORD_KEY}) is none of the records this field holds:"
                    f" {', '.join(klass.__name__ for klass in classes)}"
                )
            return named[0].from_dict(value)
        keys = set(value)
        fitting = [klass for klass in classes if set(klass._fields) == keys]
        if not fitting:
            raise OutOfDomainError(
                f"no record of {', '.join(klass.__name__ for klass in classes)} has the fields "
                f"{', '.join(map(str, value))}"
            )
        return _only(fitting, value)

    return ((Mapping,), read)


def _only(classes: list[type[Record]], value: Mapping[str, object]) -> object:
    """The one record of ``classes`` that ``value`` makes: where several have its fields and take
    its values (``HandLimitChange(change=-1)`` and ``CitySupport(change=-1)``), asdict() did not
    say which it was, and none is guessed."""
    made: list[object] = []
    refused: Exception | None = None
    for klass in classes:
        try:
            made.append(klass.from_dict(value))
        except (TypeError, ValueError) as error:
            refused = refused or error
    if len(made) == 1:
        return made[0]
    if refused is not None and not made:
        raise refused
    raise OutOfDomainError(
        f"{dict(value)!r} is a record of any of {', '.join(klass.__name__ for klass in classes)}, whose"
        f" fields are the same: asdict() does not say which it was (save asdict(tagged=True), whose {RECORD_KEY!r}"
        " names it)"
    )


def _int_key(key: object) -> object:
    # JSON writes a whole number's key as its text
    if isinstance(key, str) and key.lstrip("-").isdigit() and key.isascii():
        return int(key)
    return key


def _tuple_read(arguments: list[_Read | str | None]) -> _Read | None:
    if len(arguments) == 2 and arguments[1] == "...":
        each = arguments[0]
        if isinstance(each, str):
            return None
        read_each = None if each is None else each[1]

        def items(value: object) -> object:
            if not isinstance(value, (list, tuple)):
                return value
            return tuple(value) if read_each is None else tuple(read_each(item) for item in value)

        return ((list, tuple), items)
    reads: list[Callable[[object], object] | None] = []
    for argument in arguments:
        if isinstance(argument, str):
            return None
        reads.append(None if argument is None else argument[1])

    def fixed(value: object) -> object:
        if not isinstance(value, (list, tuple)) or len(value) != len(reads):
            return value
        return tuple(item if read is None else read(item) for read, item in zip(reads, value, strict=True))

    return ((list, tuple), fixed)


def _mapping_read(item: _Read | None, *, whole_keys: bool) -> _Read:
    read_item = None if item is None else item[1]

    def mapping(value: object) -> object:
        if not isinstance(value, Mapping):
            return value
        # a FrozenMap, as the package's own records hold: a constructor that keeps the mapping it
        # is given as it is would make a record of a dict, which does not hash
        return FrozenMap(
            {
                (_int_key(key) if whole_keys else key): (each if read_item is None else read_item(each))
                for key, each in value.items()
            }
        )

    return ((Mapping,), mapping)


class _Loader:
    """Reads a field's annotation (as :class:`_Reader` does) into how its value is read from
    asdict()'s output; None where nothing is to be done (a text, a number, an id, ``object``)."""

    def __init__(self, text: str, namespace: Mapping[str, object]) -> None:
        import re

        self.tokens: list[str] = re.findall(r"\.\.\.|[A-Za-z_][A-Za-z_0-9.]*|[\[\],|]", text)
        self.at = 0
        self.namespace = namespace

    def read(self) -> _Read | None:
        try:
            found = self._union()
        except (IndexError, ValueError):
            return None
        return found if self.at == len(self.tokens) else None

    def _union(self) -> _Read | None:
        options = [self._one()]
        while self.at < len(self.tokens) and self.tokens[self.at] == "|":
            self.at += 1
            options.append(self._one())
        parts = [option for option in options if option is not None]
        if len(parts) <= 1:
            return parts[0] if parts else None
        kinds = tuple(kind for part_kinds, _ in parts for kind in part_kinds)

        def read(value: object) -> object:
            fitting = [part for part in parts if isinstance(value, part[0])]
            refused: Exception | None = None
            for _, part in fitting:
                try:
                    return part(value)
                except (TypeError, ValueError) as error:
                    refused = refused or error
            if refused is not None:
                raise refused
            return value

        return (kinds, read)

    def _arguments(self) -> list[_Read | str | None]:
        if self.tokens[self.at] != "[":
            raise ValueError("[ expected")
        self.at += 1
        found: list[_Read | str | None] = []
        while True:
            if self.tokens[self.at] == "...":
                found.append("...")
                self.at += 1
            else:
                found.append(self._union())
            token = self.tokens[self.at]
            self.at += 1
            if token == "]":
                return found
            if token != ",":
                raise ValueError(", expected")

    def _one(self) -> _Read | None:
        name = self.tokens[self.at]
        self.at += 1
        if self.at < len(self.tokens) and self.tokens[self.at] == "[":
            whole_keys = self.tokens[self.at + 1 : self.at + 3] == ["int", ","]
            arguments = self._arguments()
            if name == "tuple":
                return _tuple_read(arguments)
            if name == "Mapping" and len(arguments) == 2 and not any(isinstance(a, str) for a in arguments):
                return _mapping_read(arguments[1], whole_keys=whole_keys)  # type: ignore[arg-type]
            return None
        found = self.namespace.get(name)
        from types import UnionType

        if isinstance(found, UnionType) and all(
            isinstance(one, type) and issubclass(one, Record) for one in found.__args__
        ):  # an alias of records (``Effect = Immunity | Movement | ...``)
            return _records_read(found.__args__)
        if isinstance(found, type) and issubclass(found, Record):
            return _record_read(found)
        return None


def _unchecked(cls: type[R], fields: Mapping[str, object]) -> R:
    """A record of ``cls`` made by its own constructor from ``fields``, without the checks of a call
    of the class (the caller checks what it must)."""
    made = object.__new__(cls)
    cls._made(made, **fields)
    return made


def _checking(made: Callable[..., None], *, types: bool) -> Callable[..., None]:
    """The constructor of a record class: ``made`` (the one the class defines), then the checks a
    changed or restored record is held to (each field of its declared type, and ``_problem``), so a
    record made by calling its class (``Card(...)``, as an engine does) is one the rules could
    give, whoever calls it (a package's data module makes its records through :func:`data_maker`
    instead); ``types`` False: the constructor checks its values itself (only a misspelt argument
    is named here)."""
    import functools

    @functools.wraps(made)
    def checked(self: Record, *args: object, **kwargs: object) -> None:
        try:
            made(self, *args, **kwargs)
        except (TypeError, ValueError) as error:
            if not _pythons(error):  # one of the runtime's own (NotACollectionError): it says what it is
                raise
            _misread(self, made, args, kwargs, error)
            raise
        # A subclass's constructor that calls this one (``super().__init__``) has fields of its own
        # still to set: its own check, when it returns, holds the whole record.
        if types and type(self)._made is made:
            _restored(self, self._values())

    return checked


def data_maker(cls: Callable[P, R]) -> Callable[P, R]:
    """The maker of ``cls``'s records for a package's data module: its arguments as the class takes
    them (a type checker reads them as the class's), its record made without the checks a call of
    the class makes. That module's records were checked against the schemas when the package was
    built, and its tests hold every record of every shipped package to these checks, so loading
    them does not pay for the checks again. An engine has no use for it: a record it makes from
    its own values is to be checked (call the class)."""
    made: Callable[..., None] = cls._made  # type: ignore[attr-defined]
    new = object.__new__

    def make(*args: P.args, **kwargs: P.kwargs) -> R:
        record: R = new(cls)  # type: ignore[arg-type]  # a record class, read as its call
        made(record, *args, **kwargs)
        return record

    return make


def _misread(
    record: Record, made: Callable[..., None], args: tuple[object, ...], kwargs: Mapping[str, object], error: Exception
) -> None:
    """The TypeError of a record's constructor (Python's, for a name it does not take, or one that
    reading a value raised) said as :meth:`Record.replace` says it: naming the closest parameter,
    or the field whose value is not of its type; returns when neither applies."""
    import inspect

    parameters = [name for name in inspect.signature(made).parameters if name != "self"]
    cls = type(record)
    for name in kwargs:
        if name not in parameters:
            from .errors import closest_id

            close = closest_id(name, dict.fromkeys(parameters))
            hint = f"did you mean {close!r}?" if close else f"it takes {', '.join(parameters)}"
            raise TypeError(f"{cls.__name__} has no field {name!r}: {hint}") from error
    try:
        bound = inspect.signature(made).bind(record, *args, **kwargs).arguments
    except TypeError:
        wrong = _wrongly_called(cls.__name__, made, args, kwargs)
        if wrong is None:
            return  # a constructor of an engine's own that takes ``*args``: Python's message names it
        raise wrong from error
    checks = _checks(cls)
    for name, value in bound.items():
        check = checks.get(name)
        if check is not None and not check(value):
            raise _refused(cls, name, value) from error


def _pythons(error: Exception) -> bool:
    """Whether ``error``, raised inside a record's constructor, is Python's own TypeError (a value it
    could not read), or a table's refusal of what it is made of (``FrozenMap(5)``, a field's value
    it takes into a table): both are said better by naming the field whose value it was. The
    runtime's other refusals (NotACollectionError, OutOfDomainError) say what they are."""
    return type(error) is TypeError or (isinstance(error, (TypeError, ValueError)) and _by_a_table(error))


def _wrongly_called(
    name: str, made: Callable[..., None], args: tuple[object, ...], kwargs: Mapping[str, object]
) -> TypeError | None:
    """A TypeError naming what a record's constructor takes, where it was given too many values by
    position, a field twice or too few: Python's own (``Assumptions.__init__() takes 1 positional
    argument but 2 were given``) counts ``self`` and names no field. None for a constructor that
    takes ``*args`` or ``**kwargs`` (an engine's subclass): Python's message is then its own."""
    import inspect

    parameters = list(inspect.signature(made).parameters.values())[1:]  # without self
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters):
        return None
    positional = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    shown = [p.name if p.default is p.empty else f"{p.name}=..." for p in parameters]
    if len(positional) < len(parameters):
        shown.insert(len(positional), "*")  # the fields after it are given by name only
    takes = f"{name}({', '.join(shown)})"
    if len(args) > len(positional):
        some = f"at most {len(positional)} by position ({', '.join(positional)})"
        count = f"{len(args)} value{'s' if len(args) != 1 else ''}"
        by_position = some if positional else "its fields by name only"
        return TypeError(f"{name} was given {count} by position; it takes {by_position}: {takes}")
    given = positional[: len(args)]
    twice = [field for field in given if field in kwargs]
    if twice:
        return TypeError(f"{name} was given {', '.join(twice)} twice, by position and by name: {takes}")
    missing = [p.name for p in parameters if p.default is p.empty and p.name not in given and p.name not in kwargs]
    if missing:
        return TypeError(f"{name} needs {', '.join(missing)} (no default): {takes}")
    return None


def _positional(record: Record, args: tuple[object, ...]) -> None:
    """TypeError where ``replace`` is given a value without its field's name."""
    if args:
        raise TypeError(
            f"{type(record).__name__}.replace takes its changes by field name ({', '.join(record._names())}),"
            f" not {len(args)} positional"
        )


def _known(record: Record, changes: Iterable[str]) -> None:
    """TypeError for a name of ``changes`` that is no field of ``record``, naming the closest."""
    names = record._names()
    for name in changes:
        if name not in names:
            from .errors import closest_id

            close = closest_id(name, dict.fromkeys(names))
            hint = f"did you mean {close!r}?" if close else f"its fields are {', '.join(names)}"
            raise TypeError(f"{type(record).__name__} has no field {name!r}: {hint}")


@contextlib.contextmanager
def _made_of(record: Record, changes: Mapping[str, object]) -> Iterator[None]:
    """A record's constructor that takes what it reads into a type of its own (a mapping into a
    FrozenMap) fails on a value it cannot read with a TypeError of its own: the value's field is
    named instead, as :func:`_checked` names it."""
    try:
        yield
    except (TypeError, ValueError) as error:
        if not _pythons(error):  # one of the runtime's own (NotACollectionError): it says what it is
            raise
        checks = _checks(type(record))
        for name, value in changes.items():
            check = checks.get(name)
            if check is not None and not check(value):
                raise _refused(type(record), name, value) from error
        raise


def _refused(cls: type, name: str, value: object) -> OutOfDomainError:
    return OutOfDomainError(f"{cls.__name__}.{name}={shown(value)} is not of its type, {_annotation(cls, name)}")


def _checks(cls: type) -> dict[str, Callable[[object], bool] | None]:
    checks = _CHECKS.get(cls)
    if checks is None:
        checks = _CHECKS[cls] = _checks_of(cls)
    return checks


def _restored(record: Record, values: Iterable[object]) -> None:
    """:func:`_checked` of every field of ``record``, its ``values`` given in the order of its fields
    (unpickling checks each field of each record: the checks are read in order, not by name)."""
    cls = type(record)
    ordered = _ORDERED.get(cls)
    if ordered is None:
        checks = _checks(cls)
        ordered = _ORDERED[cls] = tuple(checks.get(name) for name in record._names())
    for check, value, name in zip(ordered, values, record._names(), strict=True):
        if check is not None and not check(value):
            raise _refused(cls, name, value)
    if cls._bounds:
        _within(record, None)
    problem = record._problem()
    if problem is not None:
        raise OutOfDomainError(f"{shown(record)}: {problem}")  # a large record is cut, as any refusal shows one


def _checked(record: R, names: Iterable[str]) -> R:
    """``record`` when each of its fields ``names`` holds a value of the field's declared type;
    OutOfDomainError naming the first that does not otherwise."""
    checks = _checks(type(record))
    for name in names:
        check = checks.get(name)
        if check is not None:
            value = getattr(record, name)
            if not check(value):
                raise _refused(type(record), name, value)
    if type(record)._bounds:
        _within(record, frozenset(names))
    problem = record._problem()
    if problem is not None:
        raise OutOfDomainError(f"{shown(record)}: {problem}")  # a large record is cut, as any refusal shows one
    return record


def _within(record: Record, names: frozenset[str] | None) -> None:
    """Raises OutOfDomainError naming the first field of ``record`` (of ``names``; None: any) whose
    known value (None: a fact the sources do not give) is outside its schema's constraints."""
    cls = type(record)
    tests = _BOUND_TESTS.get(cls)
    if tests is None:
        tests = _BOUND_TESTS[cls] = _bound_tests(cls)
    for name, test, words in tests:
        if names is not None and name not in names:
            continue
        value = getattr(record, name)
        if value is None:
            continue
        try:
            held = test(value)
        except TypeError:  # a value of a type no check of its field reads
            held = False
        if not held:
            at = cls._bounds_at.get(name) or f"{cls._schema}/properties/{name}"
            raise OutOfDomainError(f"{cls.__name__}.{name}={value!r} is outside its schema's bound, {words} ({at})")


def bound(
    namespace: Mapping[str, object],
    bounds: Mapping[str, Mapping[str, Iterable[tuple[str, object]]]],
    where: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Holds the record classes of ``namespace`` (a family runtime's records module) to ``bounds``,
    the constraints its ``bounds`` module gives each class's fields (generated from the family's
    schemas by compiler/tools/bounds.py, through each class's ``_schema`` and ``_properties``
    links; ``where``: the property of a field linked otherwise than to its class's object's of its
    name): a record made by calling its class, changed with ``replace`` or unpickled is
    OutOfDomainError naming the field and the bound where a known value is outside them (after the
    fields' types are checked; ``items_<constraint>`` holds each item of a list). A package's data
    module makes its records through :func:`data_maker`, unchecked: they were held to the same
    schemas when the package was built."""
    for name, fields in bounds.items():
        cls = namespace[name]
        if not (isinstance(cls, type) and issubclass(cls, Record)):
            raise TypeError(f"{name} is not a record class: its bounds hold nothing")
        cls._bounds = fields  # tested when first checked: importing a runtime compiles no pattern
        cls._bounds_at = (where or {}).get(name, {})


def _bound_tests(cls: type[Record]) -> tuple[tuple[str, Callable[[object], bool], str], ...]:
    """The tests of ``cls``'s bounds: (field, test, the bound in words), in the order of its fields."""
    order = {field: at for at, field in enumerate(cls._fields)}
    return tuple(
        (field, _bound_test(key, value), _bound_words(key, value))
        for field, constraints in sorted(cls._bounds.items(), key=lambda item: order[item[0]])
        for key, value in constraints
    )


#: Each bounded record type's tests (made when one of its records is first checked).
_BOUND_TESTS: dict[type, tuple[tuple[str, Callable[[object], bool], str], ...]] = {}


def _bound_words(key: str, value: object) -> str:
    if key.startswith("items_"):
        return f"each item {_bound_words(key.removeprefix('items_'), value)}"
    words = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "above",
        "exclusiveMaximum": "below",
        "not_const": "not",
        "enum": "one of",
        "minLength": "a text of at least this many characters:",
        "maxLength": "a text of at most this many characters:",
        "pattern": "a text matching",
        "minItems": "at least this many items:",
        "minItems_or_absent": "none (absent) or at least this many items:",
        "maxItems": "at most this many items:",
    }
    if key == "any_of" and isinstance(value, tuple):  # several forms: all of one form's constraints
        forms = (", ".join(_bound_words(k, v) for k, v in form) for form in value)
        return "either " + " or ".join(f"({form})" for form in forms)
    return "no item twice" if key == "uniqueItems" else f"{words.get(key, key)} {value!r}"


def _bound_test(key: str, bound: object) -> Callable[[object], bool]:
    """The test of one schema constraint (JSON Schema's keyword; ``not_const``: ``not: {const}``)
    on a known value of its field (a comparison of another type raises TypeError: not held);
    ``items_<constraint>``: that constraint on each item of a list (an unknown item, None, holds;
    as JSON Schema's ``items``, it says nothing of a value that is no list, where a field may hold
    either)."""
    if key.startswith("items_"):
        test = _bound_test(key.removeprefix("items_"), bound)

        def each(value: Any) -> bool:
            return not isinstance(value, tuple) or all(item is None or test(item) for item in value)

        return each
    if key == "any_of" and isinstance(bound, tuple):  # a value of one of several forms (a section or a source)
        forms = tuple(tuple(_bound_test(k, v) for k, v in form) for form in bound)

        def any_of(value: object) -> bool:
            for tests in forms:
                try:
                    if all(test(value) for test in tests):
                        return True
                except TypeError:  # a form whose comparisons do not read the value's type
                    continue
            return False

        return any_of
    if key == "pattern" and isinstance(bound, str):
        import re

        search = re.compile(bound).search
        return lambda value: isinstance(value, str) and search(value) is not None
    if key == "enum" and isinstance(bound, tuple):
        members = frozenset(bound)
        return lambda value: value in members
    if key == "uniqueItems":
        return _unique
    limit: Any = bound
    tests: dict[str, Callable[[Any], bool]] = {
        "minimum": lambda value: value >= limit,
        "maximum": lambda value: value <= limit,
        "exclusiveMinimum": lambda value: value > limit,
        "exclusiveMaximum": lambda value: value < limit,
        "not_const": lambda value: value != limit,
        "minLength": lambda value: isinstance(value, str) and len(value) >= limit,
        "maxLength": lambda value: isinstance(value, str) and len(value) <= limit,
        "minItems": lambda value: len(value) >= limit,
        "minItems_or_absent": lambda value: not value or len(value) >= limit,
        "maxItems": lambda value: len(value) <= limit,
    }
    if key not in tests:
        raise ValueError(f"no test of the schema constraint {key!r}: tools/bounds.py wrote one it does not know")
    return tests[key]


def _unique(value: object) -> bool:
    items = list(value)  # type: ignore[call-overload]  # a tuple, as its field's type holds
    try:
        return len(set(items)) == len(items)
    except TypeError:  # items that do not hash
        return all(item not in items[:at] for at, item in enumerate(items))


#: Each record type's checks, by field (None: the field's type is not one this module reads).
_CHECKS: dict[type, dict[str, Callable[[object], bool] | None]] = {}
#: Each record type's checks in the order of its fields.
_ORDERED: dict[type, tuple[Callable[[object], bool] | None, ...]] = {}


def _annotation(cls: type, name: str) -> str | None:
    """The annotation of the field ``name`` (the text ``from __future__ import annotations`` left)."""
    import inspect

    for klass in cls.__mro__:
        found = inspect.get_annotations(klass).get(name)
        if found is not None:
            return str(found)
    return None


def _checks_of(cls: type) -> dict[str, Callable[[object], bool] | None]:
    import inspect
    import sys

    checks: dict[str, Callable[[object], bool] | None] = {}
    for klass in reversed(cls.__mro__):
        namespace = vars(sys.modules[klass.__module__]) if klass.__module__ in sys.modules else {}
        for name in klass.__dict__.get("__slots__", ()):
            annotation = inspect.get_annotations(klass).get(name)
            if annotation is not None and not name.startswith("_"):
                checks[name] = _Reader(str(annotation), namespace).check()
    return checks


class _Plain:
    """A check that is one ``isinstance``: the types, and whether a bool is taken (``flags``: a
    ``bool`` or ``object`` part says so; ``int`` takes none, a flag is no whole number). Parts of a
    union merge into one; made a function at the end."""

    __slots__ = ("types", "flags")

    def __init__(self, types: tuple[type, ...], flags: bool) -> None:
        self.types, self.flags = types, flags

    def check(self) -> Callable[[object], bool]:
        types = self.types
        if self.flags or not any(issubclass(bool, kind) for kind in types):
            return lambda value: isinstance(value, types)
        return lambda value: isinstance(value, types) and value.__class__ is not bool


def _function(part: _Plain | Callable[[object], bool]) -> Callable[[object], bool]:
    return part.check() if isinstance(part, _Plain) else part


class _Reader:
    """Reads an annotation (``int | None``, ``tuple[Credit, ...]``, ``Mapping[str, int]``, an
    enumeration's or a record's name) into a check; None for what it cannot read (a name only a
    type checker knows): such a field is not checked, never refused."""

    def __init__(self, text: str, namespace: Mapping[str, object]) -> None:
        import re

        self.tokens: list[str] = re.findall(r"\.\.\.|[A-Za-z_][A-Za-z_0-9.]*|[\[\],|]", text)
        self.at = 0
        self.namespace = namespace

    def check(self) -> Callable[[object], bool] | None:
        try:
            found = self._union()
        except (IndexError, ValueError):
            return None
        return _function(found) if found is not None and self.at == len(self.tokens) else None

    def _next(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _union(self) -> _Plain | Callable[[object], bool] | None:
        options = [self._one()]
        while self._peek() == "|":
            self._next()
            options.append(self._one())
        plain = [option for option in options if isinstance(option, _Plain)]
        others = [option for option in options if option is not None and not isinstance(option, _Plain)]
        if len(plain) + len(others) < len(options):
            return None  # a part it cannot read: the whole field is not checked
        merged = (
            _Plain(tuple(kind for part in plain for kind in part.types), any(part.flags for part in plain))
            if plain
            else None
        )
        if not others:
            return merged
        checks = [*([merged.check()] if merged is not None else []), *others]
        if len(checks) == 1:
            return checks[0]

        def any_of(value: object) -> bool:
            for check in checks:  # noqa: SIM110 - a loop makes no generator per value checked
                if check(value):
                    return True
            return False

        return any_of

    def _arguments(self) -> list[_Plain | Callable[[object], bool] | str | None]:
        if self._next() != "[":
            raise ValueError("[ expected")
        found: list[_Plain | Callable[[object], bool] | str | None] = []
        while True:
            if self._peek() == "...":
                found.append(self._next())
            else:
                found.append(self._union())
            token = self._next()
            if token == "]":
                return found
            if token != ",":
                raise ValueError(", expected")

    def _one(self) -> _Plain | Callable[[object], bool] | None:
        name = self._next()
        if self._peek() == "[":
            arguments = self._arguments()
            if name == "tuple":
                return _tuple_of(arguments)
            if name == "Mapping" and len(arguments) == 2:
                key, value = arguments
                if key is not None and not isinstance(key, str) and value is not None and not isinstance(value, str):
                    key_of, value_of = _function(key), _function(value)

                    def mapping(given: object) -> bool:
                        if not isinstance(given, Mapping):
                            return False
                        for k, v in given.items():  # noqa: SIM110 - as in any_of
                            if not (key_of(k) and value_of(v)):
                                return False
                        return True

                    return mapping
            return None
        return _named(name, self.namespace)


def _tuple_of(arguments: list[_Plain | Callable[[object], bool] | str | None]) -> Callable[[object], bool] | None:
    if len(arguments) == 2 and arguments[1] == "...":
        each = arguments[0]
        if each is None or isinstance(each, str):
            return None
        if isinstance(each, _Plain) and (each.flags or not any(issubclass(bool, kind) for kind in each.types)):
            types = each.types

            def plain_items(value: object) -> bool:
                if not isinstance(value, tuple):
                    return False
                for item in value:  # noqa: SIM110 - as in any_of
                    if not isinstance(item, types):
                        return False
                return True

            return plain_items
        item_of = _function(each)

        def items(value: object) -> bool:
            if not isinstance(value, tuple):
                return False
            for item in value:  # noqa: SIM110 - as in any_of
                if not item_of(item):
                    return False
            return True

        return items
    checks = [_function(argument) for argument in arguments if argument is not None and not isinstance(argument, str)]
    if len(checks) != len(arguments):
        return None
    return lambda value: (
        isinstance(value, tuple) and len(value) == len(checks) and all(c(v) for c, v in zip(checks, value, strict=True))
    )


_BUILTIN: dict[str, _Plain] = {
    "int": _Plain((int,), flags=False),
    "float": _Plain((int, float), flags=False),
    "str": _Plain((str,), flags=False),
    "bool": _Plain((bool,), flags=True),
    "None": _Plain((type(None),), flags=False),
    "object": _Plain((object,), flags=True),
}


def _named(name: str, namespace: Mapping[str, object]) -> _Plain | Callable[[object], bool] | None:
    if name in _BUILTIN:
        return _BUILTIN[name]
    found = namespace.get(name)
    from types import UnionType

    if isinstance(found, UnionType) and all(isinstance(one, type) for one in found.__args__):
        # an alias of records (``Effect = Immunity | Movement | ...``)
        return _Plain(found.__args__, flags=bool in found.__args__)
    if not isinstance(found, type):
        return None
    from enum import Enum

    if issubclass(found, Enum) and issubclass(found, str):
        # a member, or a text the vocabulary has (``"a"`` for Kind.A): a member is one
        values = frozenset(member.value for member in found)
        return lambda value: isinstance(value, str) and value in values
    return _Plain((found,), flags=found is bool)


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

    if TYPE_CHECKING:  # for type checkers only: a record class's hints are its fields (see Record)
        _unknown: tuple[str, ...]  # the keys given as unknown
        _present: tuple[str, ...]  # the keys of the data, sorted: made when the mapping is first read
        #: The data's key of each field, in the order of ``__slots__`` (where one differs from its field).
        _setting_keys: ClassVar[tuple[str, ...]]
        _field_of: ClassVar[dict[str, str]]
    _setting_keys = ()
    _field_of = {}  # noqa: RUF012 - set once per class, never changed

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        names = cls._fields
        keys = cls.__dict__.get("_setting_keys")
        if not keys:  # each field's key as its base has it (an engine's subclass), else its name
            key_of = {name: key for key, name in cls._field_of.items()}
            keys = tuple(key_of.get(name, name) for name in names)
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
        # as a FrozenMap's miss: an UnknownIdError (a KeyError) naming the closest key the data has,
        # or, for a field of the record the data leave out, saying so (no other key was meant)
        field_of = type(self).__name__ if isinstance(key, str) and key in self._field_of else ""
        raise MissingKeyError(key, dict.fromkeys(self._keys()), field_of=field_of) from None

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
        names = self._names()
        if not isinstance(state, tuple) or len(state) != len(names) + 1:
            raise _unrestorable(type(self), (*names, "unknown_fields"), state)
        *values, unknown = state
        if not isinstance(unknown, tuple) or any(key not in self._field_of for key in unknown):
            raise OutOfDomainError(f"{type(self).__name__}'s unknown fields are keys of its data, not {unknown!r}")
        for name, value in zip(names, values, strict=True):
            _set(self, name, value)
        _set(self, "_unknown", unknown)
        _restored(self, values)

    def _problem(self) -> str | None:
        unknown = self._unknown
        if not isinstance(unknown, tuple) or any(key not in self._field_of for key in unknown):
            return f"its unknown fields are keys of its data, not {unknown!r}"
        return None

    def replace(self, *args: Any, **changes: Any) -> Self:
        """A record of the same type with ``changes`` made to its fields (by field name). A field
        whose fact is unknown stays unknown unless it is given a value: given None, which is what it
        holds, it stays in ``unknown_fields``, so ``record.replace(field=record.field) == record``
        for every field. Raises TypeError and OutOfDomainError as :meth:`Record.replace`."""
        _positional(self, args)
        _known(self, changes)
        fields = dict(zip(self._names(), self._values(), strict=True))
        # None given to an unknown field is the value it holds: the fact stays unknown (a replace that
        # changes nothing is the record itself); a value given makes it known
        unknown = tuple(key for key in self.unknown_fields if changes.get(self._field_of[key]) is None)
        with _made_of(self, changes):
            made = _unchecked(type(self), {**fields, **changes, "unknown_fields": unknown})
        return _checked(made, changes)

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

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        file: str = ...,
        field: str = ...,
        reason: str = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature


class PlayerRange(Record):
    """How many players the ruleset seats (the manifest's ``players``, ``civrules export``'s
    ``ruleset.players``): the fewest, the most, the best number where the source names one (None:
    it names none: an optional fact of every family's packages, always None in a family whose schema
    has no ``players.best``), and what cites those numbers: the rule pages or sections (empty: none), or
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

    @typed_replace  # written by compiler/tools/replaces.py from __init__: do not edit
    def replace(
        self,
        *,
        min: int = ...,
        max: int = ...,
        best: int | None = ...,
        rule: tuple[str, ...] = ...,
        source: str | None = ...,
        field_sources: Mapping[str, str | None] | None = ...,
    ) -> Self:
        raise NotImplementedError  # never called: Record gives the class its base's, of this signature

    def _problem(self) -> str | None:
        # As the checks hold the data: at least one player (every family's schema), the fewest
        # no more than the most, and the best number within them (T018).
        if self.min < 1:
            return f"min={self.min} seats no player: the fewest is 1 or more"
        if self.min > self.max:
            return f"min={self.min} is above max={self.max}"
        if self.best is not None and not self.min <= self.best <= self.max:
            return f"best={self.best} is outside {self.min} to {self.max}"
        return None

    def __contains__(self, players: object) -> bool:
        """Whether ``players`` is a number of players the ruleset seats (``3 in PLAYERS``)."""
        return isinstance(players, int) and not isinstance(players, bool) and self.min <= players <= self.max


TYPE_CHECKING = False

#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(
    (
        "AbilityAction",
        "AbilityPhase",
        "Activity",
        "Addition",
        "AppliesTo",
        "Area",
        "AstTrack",
        "Attribute",
        "Block",
        "BlockBonus",
        "Border",
        "BorderKind",
        "Calamity",
        "CalamityAlternative",
        "CalamityAmount",
        "CalamityEffect",
        "CalamityFallback",
        "CalamityImmunity",
        "CalamityKind",
        "CalamityLink",
        "CalamityModifier",
        "CalamityUnit",
        "Card",
        "CityBuild",
        "CitySupport",
        "Combination",
        "CombinationMode",
        "Commodity",
        "CommodityExchange",
        "CommodityValue",
        "Conflict",
        "ConflictAspect",
        "Credit",
        "CreditTokens",
        "Deck",
        "DeckBand",
        "Effect",
        "EffectKind",
        "Epoch",
        "Goods",
        "Group",
        "GroupId",
        "HandLimit",
        "HandLimitChange",
        "Immunity",
        "ImmunityAgainst",
        "LinkEffect",
        "MapRegion",
        "ModifierEffect",
        "Movement",
        "MovementUnits",
        "Nation",
        "Phase",
        "PlayerCount",
        "PopulationLimit",
        "PopulationWhere",
        "PurchaseEffect",
        "PurchaseKind",
        "RateChange",
        "Region",
        "Requirements",
        "Role",
        "ScoringItem",
        "Severity",
        "SpecialAbility",
        "StackSetupStep",
        "Targets",
        "Tax",
        "Taxation",
        "TokenColours",
        "TradeCardPurchase",
        "TradeStack",
        "Treasury",
        "TreasuryShare",
        "TurnOrder",
        "TurnPosition",
        "VictoryPoints",
    )
)

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        from . import _moved

        found = _moved.attribute(__name__, name, "records", _RETIRED)
        # A released name is bound at its first read: later reads are plain global lookups (a
        # refusal is raised, never bound, so it is said again at each read).
        return globals().setdefault(name, found) if name in _RETIRED else found

    # ``importlib.reload`` runs this file again in the same globals: the names reads bound are
    # forgotten, and read again from the family's runtime (none of them is defined here).
    for _name in _RETIRED:
        globals().pop(_name, None)
    del _name
