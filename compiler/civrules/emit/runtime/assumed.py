"""What every family's view of a package with an engine's assumptions shares.

A draft lacks facts a game needs; an engine that plays it anyway states what it assumes in its
family's ``Assumptions`` record and asks the package for a view, ``package.assuming(...)``. Each
family's runtime builds its view on :class:`AssumedView` (the package's names forwarded, the
assumptions named, ``require_complete()`` still refusing) and fills its tables with :func:`fill`
(an assumption only ever supplies a fact the sources do not give: one the ruleset gives is an
OutOfDomainError, never overridden). Each family's ``Assumptions`` record checks its values with
:func:`pairs` and :func:`count` when it is made, by the bounds the family's schema sets the fact it
supplies: a value of the wrong type or outside them is an OutOfDomainError, a value that is no
mapping where one belongs a NotACollectionError; the ids are the package's to check, at
``assuming()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from functools import wraps
from types import FunctionType, MappingProxyType
from typing import TypeVar

from .errors import NotACollectionError, OutOfDomainError, UnknownFactError, reword, unknown_id, within
from .protocol import RulesetPackageBase
from .records import PlayerRange, Record, UnknownFact

TYPE_CHECKING = False

R = TypeVar("R", bound=Record)
V = TypeVar("V")


def pairs(
    values: Mapping[str, object] | Iterable[tuple[str, object]] | None,
    field: str,
    what: str,
    check: Callable[[object, str], V],
) -> tuple[tuple[str, V], ...]:
    """An assumption by id, as the record holds it: ``values`` (a mapping, or the pairs a record
    holds: ``replace``) as pairs sorted by id, each value checked by ``check`` (given the value and
    its name, ``field['a']``). None is no assumption; a string, a number or a list that is no
    mapping is NotACollectionError naming ``field`` (a mapping of ``what``)."""
    if values is None:
        return ()
    refused = NotACollectionError(f"{field} is a mapping of {what} ({{id: value}}), not {values!r}")
    if isinstance(values, str | bytes):
        raise refused
    try:
        found = dict(values)
    except (TypeError, ValueError):  # no mapping, nor pairs: dict(5), dict(["a"])
        raise refused from None
    checked = [(key, check(value, f"{field}[{key!r}]")) for key, value in found.items()]
    return tuple(sorted(checked, key=_by_id))


def _by_id(pair: tuple[object, object]) -> tuple[int, str]:
    # ids in their order; a key that is no id (None, 5) sorts after them, for assuming() to refuse
    key = pair[0]
    return (0, key) if isinstance(key, str) else (1, repr(key))


def count(low: int, high: int | None, rule: str) -> Callable[[object, str], int]:
    """The check of an assumed whole number: ``low`` to ``high`` (None: no upper bound), the bounds
    of the fact in the family's schema; OutOfDomainError naming the value and ``rule`` otherwise."""

    def check(value: object, name: str) -> int:
        return within(value, name, low, high, rule)

    return check


def optional(value: object, name: str, check: Callable[[object, str], V]) -> V | None:
    """None (nothing assumed), or ``value`` checked by ``check``."""
    return None if value is None else check(value, name)


def text(value: object, name: str) -> str:
    """``value`` when it is a str (``why``, an id the package checks); OutOfDomainError otherwise."""
    if not isinstance(value, str):
        raise OutOfDomainError(f"{name}={value!r} is not a text (a str)")
    return value


def given(what: str) -> OutOfDomainError:
    """The error for an assumption about a fact the rule data gives."""
    return OutOfDomainError(f"{what} is in the rule data: an assumption only supplies a fact the sources do not give")


def fill(
    table: Mapping[str, R], assumed: Iterable[tuple[str, object]], field: str, what: str
) -> MappingProxyType[str, R]:
    """``table`` with ``field`` of each record named in ``assumed`` set to the assumed value.

    UnknownIdError for an id ``table`` does not have (``what`` names its kind); OutOfDomainError
    where the record's ``field`` is given (not None).
    """
    filled = dict(table)
    for key, value in assumed:
        record = filled.get(key)
        if record is None:
            raise unknown_id(key, table, what)
        if getattr(record, field) is not None:
            raise given(f"the {field} of {key}")
        filled[key] = record.replace(**{field: value})
    return MappingProxyType(filled)


def _told(method: Callable[..., object]) -> Callable[..., object]:
    """``method`` of a view, its UnknownFactError worded with the package's unknown facts
    (:func:`civrules_runtime.errors.reword`)."""

    @wraps(method)
    def told(self: AssumedView, *args: object, **kwargs: object) -> object:
        try:
            return method(self, *args, **kwargs)
        except UnknownFactError as error:
            reword(error, self._package.UNKNOWN_FACTS, type(self)._overlay_collections)
            raise

    return told


class AssumedView:
    """A view of a package with assumptions: the package's every name (forwarded, or replaced by the
    family's view where an assumption filled a fact), the assumptions (``ASSUMPTIONS``), and
    ``require_complete()`` refusing a draft as the package does: assumed facts are not the rules.

    The members every package has are written out, so that a family's view satisfies its
    protocol for a type checker; a family's view declares its own tables likewise.

    A view is a value as the package's records are: two views of one package with equal
    assumptions are equal (and hash alike), ``dir()`` lists the package's names too, and a view
    pickles and copies (as its package's name and its assumptions: unpickling imports the package).
    """

    if TYPE_CHECKING:  # for type checkers only: a public class's hints name no private attribute
        #: The family logic's OVERLAY_COLLECTIONS, set by a family's view whose logic has them.
        _overlay_collections: Mapping[str, str]
    _overlay_collections = MappingProxyType({})

    #: The family's ``Assumptions`` record, set by each family's view: any other value given to
    #: ``assuming()`` (None, a dict, another family's record) is a TypeError naming it.
    ASSUMPTIONS_TYPE: type = object

    def __init_subclass__(cls, **kwargs: object) -> None:
        # A family's helpers call its rule logic over the view's tables: a fact still missing is
        # worded with the package's unknown facts, as the package's own helpers word it.
        super().__init_subclass__(**kwargs)
        for name, member in list(vars(cls).items()):
            if not name.startswith("_") and isinstance(member, FunctionType):
                setattr(cls, name, _told(member))

    def __init__(self, package: RulesetPackageBase, assumptions: object) -> None:
        expected = self.ASSUMPTIONS_TYPE
        if not isinstance(assumptions, expected):
            raise TypeError(f"assuming() takes {_qualified(expected)}, not {_qualified(type(assumptions))}")
        self._package = package
        self.ASSUMPTIONS = assumptions

    def __getattr__(self, name: str) -> object:
        package = self.__dict__.get("_package")
        if package is None:  # copy and pickle probe names before __init__ has run
            raise AttributeError(name)
        return getattr(package, name)

    def __repr__(self) -> str:
        return f"<{self._package.RULESET_ID} assuming {self.ASSUMPTIONS!r}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AssumedView):
            return (
                type(other) is type(self) and other._package is self._package and other.ASSUMPTIONS == self.ASSUMPTIONS
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._package.RULESET_ID, self.ASSUMPTIONS))

    def __dir__(self) -> list[str]:
        names: Iterable[str] = getattr(self._package, "__all__", None) or dir(self._package)
        return sorted({*super().__dir__(), *names})

    def __reduce__(self) -> tuple[Callable[[str, object], object], tuple[str, object]]:
        module: str = getattr(self._package, "__name__")  # noqa: B009 - a package is a module; its protocol has no __name__
        return (_view, (module, self.ASSUMPTIONS))

    def require_complete(self) -> None:
        """Refuses a draft as the package does: assumed facts are not the rules."""
        self._package.require_complete()

    def canonical_id(self, name: str) -> str:
        return self._package.canonical_id(name)

    @property
    def RULESET_ID(self) -> str:  # noqa: N802 - the package's constant
        return self._package.RULESET_ID

    @property
    def RULESET_NAME(self) -> str:  # noqa: N802
        return self._package.RULESET_NAME

    @property
    def RULESET_FINGERPRINT(self) -> str:  # noqa: N802
        return self._package.RULESET_FINGERPRINT

    @property
    def BASE_RULESET(self) -> str | None:  # noqa: N802
        return self._package.BASE_RULESET

    @property
    def __version__(self) -> str:
        return self._package.__version__

    @property
    def PLAYERS(self) -> PlayerRange | None:  # noqa: N802
        return self._package.PLAYERS

    @property
    def DRAFT(self) -> bool:  # noqa: N802
        return self._package.DRAFT

    @property
    def UNKNOWN_FACTS(self) -> tuple[UnknownFact, ...]:  # noqa: N802
        return self._package.UNKNOWN_FACTS

    @property
    def UNKNOWN_COLLECTIONS(self) -> frozenset[str]:  # noqa: N802
        return self._package.UNKNOWN_COLLECTIONS

    @property
    def ID_ALIASES(self) -> Mapping[str, str]:  # noqa: N802
        return self._package.ID_ALIASES

    @property
    def ID_ENUMS(self) -> Mapping[str, type[StrEnum]]:  # noqa: N802
        return self._package.ID_ENUMS

    @property
    def SETTINGS(self) -> Mapping[str, object]:  # noqa: N802
        return self._package.SETTINGS

    @property
    def ENTITY_SOURCES(self) -> Mapping[str, tuple[str, ...]]:  # noqa: N802
        return self._package.ENTITY_SOURCES

    @property
    def ENTITY_FIELD_SOURCES(self) -> Mapping[str, Mapping[str, str | None]]:  # noqa: N802
        return self._package.ENTITY_FIELD_SOURCES


def _view(package: str, assumptions: object) -> object:
    """The view a pickled view was: of the package named ``package``, imported (a copy, the same). A
    package that is not installed is a ModuleNotFoundError naming its distribution, not only the
    module pickle could not import."""
    import importlib

    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as error:
        if error.name is None or not (package == error.name or package.startswith(f"{error.name}.")):
            raise  # the package is there; something it imports is not: that error names it
        distribution = package.replace(".", "-").replace("_", "-")
        raise ModuleNotFoundError(
            f"the pickle is of a view of {package} (its assuming()), and {package} is not installed"
            f" here: pip install {distribution} (the version that made the pickle), then load it again",
            name=error.name,
        ) from None
    view: object = module.assuming(assumptions)
    return view


def _qualified(kind: type) -> str:
    """``civrules_runtime_imperial_settlers.Assumptions`` (a runtime's record by its package), ``dict``."""
    top = kind.__module__.partition(".")[0]
    return kind.__qualname__ if top == "builtins" else f"{top}.{kind.__qualname__}"


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(("UnknownIdError",))

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a view's class by its module and name: one this version lacks is said so.
        from .errors import absent

        raise absent(__name__, name, _RETIRED)
