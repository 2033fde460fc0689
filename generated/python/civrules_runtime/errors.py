"""The errors every generated package raises, and the checks of arguments that raise them."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Mapping
from enum import Enum, EnumType, StrEnum
from types import ModuleType
from typing import Protocol, TypeVar

TYPE_CHECKING = False


class _UnknownFact(Protocol):
    """What these functions read of a package's :class:`~civrules_runtime.records.UnknownFact`
    (records imports this module: its type is not imported here)."""

    @property
    def field(self) -> str: ...

    @property
    def reason(self) -> str: ...


T = TypeVar("T")


class UnknownFactError(LookupError):
    """A helper needed a fact the ruleset does not give (it is None in the data).

    Made by :func:`not_given`, it says which of two cases it is, each truthfully: a fact the rule
    data records as unknown (``{unknown: why}``) is one "the sources do not give", with ``reason``, the
    data's why; a fact the ruleset leaves out (an optional field a variant or a house ruleset does
    not write, a rule its family has not) is one "this ruleset does not give", and ``reason`` is
    None. ``what`` names the fact in words, ``field`` where the data holds it
    (``items[a].cost``, ``limits.per_player``); both are None for an error made
    otherwise."""

    what: str | None
    field: str | None
    reason: str | None
    hint: str

    def __init__(
        self,
        *args: object,
        what: str | None = None,
        field: str | None = None,
        reason: str | None = None,
        hint: str = "",
    ) -> None:
        super().__init__(*args)
        self.what, self.field, self.reason, self.hint = what, field, reason, hint


class UnknownIdError(KeyError, ValueError):
    """An id, or a value of a vocabulary, that the ruleset does not have (a misspelling)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DraftRulesetError(RuntimeError):
    """An engine asked for a complete ruleset and was given a draft (see the package's DRAFT)."""


class NotACollectionError(TypeError):
    """A single string where a collection of ids belongs (``price("a", ...)``): a string
    is iterable, but its letters are not ids. Also a value that is no collection at all
    (``purchase_cost(5, ...)``)."""


class OtherVersionError(ImportError):
    """A class (or another public name) that a runtime's or a package's module does not have in this
    version, asked for by name: by a pickle made by another version of it, which had the class (pickle
    finds a record's class, an enum of ids, by its module and name), or by code written for another
    version (``from module import Name``). An ImportError, as Python's own for a name no version has;
    ``name`` is the module, ``missing`` the name it lacks."""

    missing: str

    def __init__(self, message: str, *, module: str, missing: str) -> None:
        super().__init__(message, name=module)
        self.missing = missing


def absent(
    module: str,
    name: str,
    retired: Collection[str] = (),
    *,
    for_type_checkers: bool | Collection[str] = (),
) -> AttributeError | OtherVersionError:
    """The error a module whose objects are pickled (a runtime's records, settings, vocabularies and
    mappings; a package's ids) raises from its ``__getattr__`` for ``name``, which it lacks.

    ``retired`` names what a released version of the module had and this one lacks (the module's
    ``_RETIRED``, held to the ledger of released names, ``compiler/tools/runtime_names.json``): a
    pickle that names one was made by another version, and that is :class:`OtherVersionError`, saying
    which version of which distribution this is, and to load the pickle with the version that made
    it. pickle reports an AttributeError from a module only as "Can't get attribute", so this is an
    ImportError (``try: from module import Name`` / ``except ImportError`` catches it).
    ``for_type_checkers`` names what the module defines for type checkers only (an ids module's
    ``CardIdName``), said so the same way (True, as packages built before 2.16 pass it: ``name`` is one).

    Any other name is Python's AttributeError, as a module's ``__getattr__`` owes it: ``hasattr``,
    ``getattr(module, name, default)`` and pickle's search of every imported module for an object
    whose ``__module__`` is None (``pickle.whichmodule``) catch only that. Raising another error for
    any capitalised name broke them (``pickle.dumps`` of such an object with a capitalised name).
    """
    type_only = for_type_checkers if isinstance(for_type_checkers, bool) else name in for_type_checkers
    if name.startswith("_") or not (type_only or name in retired):
        return AttributeError(f"module {module!r} has no attribute {name!r}")
    this, distribution = _release(module)
    if type_only:
        why = "it is defined for type checkers only: import it under `if TYPE_CHECKING:` (from typing)"
    else:
        why = (
            f"a pickle that names it was made by another version of {distribution}, which has it (or code was"
            " written for one): load the pickle with the version that made it, or make the value again with"
            " this one"
        )
    return OtherVersionError(f"{module} has no {name!r} in {this}: {why}", module=module, missing=name)


def absent_id(enum: type[StrEnum], value: object) -> None:
    """An id enum's or a vocabulary's ``_missing_`` (``ItemId("alphx")``, or a pickle of an id this
    version of its distribution lacks, which pickle makes again by calling its enum): UnknownIdError
    (a ValueError, as Enum's own) naming the closest id and the distribution and version that define
    the enum (a ruleset package's for an id enum, a runtime's for a vocabulary), where Enum says only
    that it "is not a valid ItemId"."""
    ids = enum._value2member_map_
    this, distribution = _release(enum.__module__)
    if not isinstance(value, str):
        raise UnknownIdError(f"{shown(value)} is no {enum.__name__} of {this}: an id is a str, {some_ids(ids)}")
    close = closest_id(value, ids)
    hint = f"did you mean {close!r}?" if close is not None else some_ids(ids)
    raise UnknownIdError(
        f"{value!r} is no {enum.__name__} of {this}: {hint} (if a pickle holds it, another version of"
        f" {distribution} made it: load that pickle with the version that made it)"
    )


class IdEnumType(EnumType):
    """The metaclass of the packages' id enums and the runtimes' vocabularies: a member asked for by a
    name the enum lacks (``ItemId["ALPHAX"]``, ``ItemId.ALPHAX``), or by its id where its name
    belongs (``ItemId["alpha"]``), is refused naming the closest member, or the member whose id it
    is, and saying that ``ItemId("alpha")`` takes an id: Enum said only the name (``KeyError:
    'alpha'``, as if the item were missing). ``ItemId[...]`` raises UnknownIdError (a KeyError, as
    Enum's own), ``ItemId.X`` an AttributeError. To a type checker it is Enum's own."""

    if not TYPE_CHECKING:

        def __getitem__(cls, name):
            try:
                return super().__getitem__(name)
            except KeyError:
                raise UnknownIdError(_no_member(cls, name)) from None

        def __getattr__(cls, name):
            if name.startswith("_"):  # the machinery's and tools' probes: Python's own words
                raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}", name=name, obj=cls)
            member = cls.__dict__.get("_member_map_", {}).get(name)  # Python 3.11 finds members here
            if member is not None:
                return member
            raise AttributeError(_no_member(cls, name), name=name, obj=cls)


def _no_member(enum: EnumType, name: object) -> str:
    """What a lookup of ``enum``'s member by ``name`` that it lacks says."""
    by_value: Mapping[object, Enum] = getattr(enum, "_value2member_map_", {})
    members: Mapping[str, object] = getattr(enum, "_member_map_", {})
    called = enum.__name__
    if isinstance(name, str) and name in by_value:
        return (
            f"{name!r} is an id of {called}, not a member's name: {called}({name!r}) takes the id, and is"
            f" {called}.{by_value[name].name}"
        )
    if not isinstance(name, str):
        return f"{shown(name)} is no member's name of {called}: a name is a str, {some_ids(members)}"
    close = closest_id(name.upper(), members)  # the names are the ids in capitals
    hint = f"did you mean {close!r}?" if close is not None else some_ids(members)
    return (
        f"{name!r} is no member of {called}: {hint} (a member's name is its id in capitals; {called}(id) takes the id)"
    )


class NoIdsEnumType(IdEnumType):
    """The metaclass of an id enum that has no members (a ruleset whose data gives none of a
    collection): Enum refuses any value of such an enum with its own TypeError ("has no members
    defined") before it asks ``_missing_``, so ``ItemId("a")``, or a pickle of another version's
    id, was no UnknownIdError, as it is for an enum with members. To a type checker it is Enum's own."""

    if not TYPE_CHECKING:

        def __call__(cls, value, *args, **kwargs):
            if args or kwargs or cls._member_map_:  # the functional API, or an enum with members after all
                return super().__call__(value, *args, **kwargs)
            return cls._missing_(value)


def _release(module: str) -> tuple[str, str]:
    """``civrules-rulesets-x 3.2.6`` (the distribution of ``module``'s package and the version it is
    imported at), and the distribution alone."""
    import sys

    package = module.rpartition(".")[0] or module
    version = getattr(sys.modules.get(package), "__version__", None)
    distribution = package.replace(".", "-").replace("_", "-")
    return (f"{distribution} {version}" if isinstance(version, str) else distribution), distribution


def collection(value: object, parameter: str) -> None:
    """Raise NotACollectionError when ``value``, given for ``parameter`` (a collection of ids), is a
    string, or not iterable."""
    if isinstance(value, str | bytes):
        raise NotACollectionError(
            f"{parameter} is a collection of ids, not the string {shown(value)}: write [{shown(value)}] for one id"
        )
    try:
        iter(value)  # type: ignore[call-overload]  # an iterator given is returned, not consumed
    except TypeError:
        raise NotACollectionError(
            f"{parameter} is a collection of ids (a list, a set ...), not {shown(value)}"
        ) from None


class OutOfDomainError(ValueError):
    """An argument a rule is not defined for (a negative count, a set larger than the pieces the
    game has of it, a space off the track): the message names the value and the rule's domain."""


def within(value: object, name: str, low: int = 0, high: int | None = None, rule: str = "") -> int:
    """``value`` when ``low <= value <= high``; OutOfDomainError naming it and the domain otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        # 3.0 is whole: what it lacks is the type ("is not a whole number" said otherwise)
        what = "a float, not an int" if isinstance(value, float) and value.is_integer() else "not a whole number"
        raise OutOfDomainError(f"{name}={shown(value)} is {what}{rule and f' ({rule})'}")
    if value < low or (high is not None and value > high):
        domain = f"{low} or more" if high is None else f"{low} to {high}"
        rule = rule and f" ({rule})"
        raise OutOfDomainError(f"{name}={shown(value)} is outside the domain of the rule{rule}: {domain}")
    return value


def flag(value: object, name: str) -> bool:
    """``value`` when it is a bool; OutOfDomainError naming it otherwise (``"yes"`` is no flag,
    though it is true)."""
    if not isinstance(value, bool):
        raise OutOfDomainError(f"{name}={shown(value)} is not a flag: True or False")
    return value


def at_most(ids: Iterable[T], parameter: str, copies: Callable[[T], int | None], why: Callable[[int], str]) -> list[T]:
    """``ids`` as a list when none is listed more times than the game has of it (``copies(id)``;
    None: the sources do not give a bound); OutOfDomainError naming the first listed once too often
    otherwise, with the times ``ids`` lists it in all, and ``why(most)`` the bound ("the game has 1
    copy of it (Piece.copies)"); an id the game has none of is named as listed, with no count ("'a' is
    in pieces, but the game has no copy of it"). A collection of game objects is no multiset: one
    piece held counted twice gave twice what it gives once, which the game cannot give. An
    unhashable value is left to the caller, which refuses it as no id (check the ids first:
    UnknownIdError comes before this)."""
    listed = list(ids)
    seen: dict[object, int] = {}
    for item in listed:
        try:
            times = seen[item] = seen.get(item, 0) + 1
        except TypeError:
            continue
        most = copies(item)
        if most == 0:
            # no count of times is the point where the game has none: "listed twice ... has no
            # copy" read as if once would do
            raise OutOfDomainError(f"{shown(item)} is in {parameter}, but {why(most)}")
        if most is not None and times > most:
            # the times seen so far stop at the first excess: "listed once" of an id listed twice
            # where the game has none of it
            raise OutOfDomainError(f"{shown(item)} is listed {_times(listed.count(item))} in {parameter}: {why(most)}")
    return listed


def once_each(ids: Iterable[T], parameter: str, why: str) -> list[T]:
    """``ids`` as a list when none is listed twice (:func:`at_most` with a bound of one): ``why``
    says why one is the most ("a player holds one piece of each")."""
    return at_most(ids, parameter, lambda _: 1, lambda _: why)


def copies(n: int) -> str:
    """``no copy``, ``1 copy``, ``2 copies``: a bound of :func:`at_most` in words."""
    return "no copy" if n == 0 else f"{n} copy" if n == 1 else f"{n} copies"


def _count(n: int, noun: str) -> str:
    """``1 field``, ``2 fields``: ``n`` and ``noun`` (a plural in ``s``) in the number it takes."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def an_id(value: object, parameter: str) -> str:
    """``value`` when it is a str (every id is one); UnknownIdError naming ``parameter`` otherwise
    (None, a number or a list is no id of any ruleset)."""
    if not isinstance(value, str):
        given = give_its_id(value)
        raise UnknownIdError(f"{parameter}={shown(value)} is not an id: an id is a str{given and f'; {given}'}")
    return value


def shown(value: object) -> str:
    """``value`` as a refusal shows it: its repr, cut at :data:`_SHOWN` characters (a record or a
    table given where an id or a number belongs printed pages: its every field, nested); a record
    with an id as its class and that id (``the Item record 'a'``); an id enum's member as its id
    (``'a'``: its repr, ``<ItemId.A: 'a'>``, is Python's, not the id an engine wrote)."""
    record_id = _record_id(value)
    if record_id is not None:
        return f"the {type(value).__name__} record {str(record_id)!r}"
    try:
        said = repr(str(value)) if isinstance(value, str) else repr(value)
    except Exception:  # noqa: BLE001 - the refusal is raised all the same, naming what it could not show
        said = _unshowable(value)
    return said if len(said) <= _SHOWN else f"{said[: _SHOWN - 3]}..."


def _unshowable(value: object) -> str:
    """What a refusal says of a value whose repr fails: an integer past the digits Python turns into
    text (``10**5000``: a ValueError), a list nested past the stack (a RecursionError), an object
    whose ``__repr__`` raises. The refusal raised that error in its place: a ValueError of the
    interpreter, not the rule's OutOfDomainError or UnknownIdError."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return f"<an integer of about {digits:,} digits>"
    return f"<a {type(value).__name__} that cannot be shown>"


def _record_id(value: object) -> str | None:
    """The id of a record of a civrules runtime (a table's row), or None for any other value."""
    if not type(value).__module__.startswith("civrules_runtime") or not hasattr(value, "asdict"):
        return None
    found = getattr(value, "id", None)
    return str(found) if isinstance(found, str) else None  # an id enum's member as its id


def give_its_id(value: object) -> str:
    """``give its id, 'a' (record.id), not the record`` where ``value`` is a record with an id (a
    table's row given where its id belongs); empty otherwise."""
    record_id = _record_id(value)
    return "" if record_id is None else f"give its id, {record_id!r} (record.id), not the record"


#: The longest repr of a value a refusal shows.
_SHOWN = 80


def unknown_id(value: object, table: Mapping[str, object], what: str) -> UnknownIdError:
    """The UnknownIdError refusing ``value`` as a ``what`` of ``table``: it proposes the closest id
    ("did you mean"), or, with none close, names the first ids."""
    article = "an" if what[:1] in "aeiou" and not what.startswith(_CONSONANT_SOUND) else "a"
    if not isinstance(value, str):
        record_id = _record_id(value)
        if record_id is not None and record_id in table:  # a table's row given for its id
            return UnknownIdError(f"{shown(value)} is given where {article} {what}'s id belongs: {give_its_id(value)}")
        if record_id is not None:  # a row of another table: its id is none of these either
            return UnknownIdError(
                f"{shown(value)} is given where {article} {what}'s id belongs, and {record_id!r} is no {what}"
                f" either: {some_ids(table)}"
            )
        return UnknownIdError(
            f"{shown(value)} is not {article} {what} of this ruleset: an id is a str, {some_ids(table)}"
        )
    close = closest_id(value, table)
    hint = f"did you mean {close!r}?" if close is not None else some_ids(table)
    return UnknownIdError(f"{shown(value)} is not {article} {what} of this ruleset: {hint}")


def closest_id(word: str, table: Mapping[str, object]) -> str | None:
    """The id of ``table`` most like ``word`` (difflib's ratio at least 0.6), or None; compared with at
    most :data:`_COMPARED` ids of the nearest lengths, however large the table. An id the table has
    in another case (``A01`` for ``a01``) is the closest, whatever difflib's ratio of the two."""
    if len(word) > _LONGEST:  # difflib's time grows as the square of the words' length
        return None
    for cased in (word.lower(), word.upper()):
        if cased != word and cased in table:
            return cased
    by_length = _spelling(table)[0]
    size = len(word)
    low, high = size * 3 // 7, size * 7 // 3 + 1  # 2M/(a+b) >= 0.6 needs a length in this window
    picked: list[str] = []
    for distance in range(max(size - low, high - size) + 1):
        for length in (size - distance, size + distance) if distance else (size,):
            if low <= length <= high:
                picked.extend(by_length.get(length, ()))
        if len(picked) >= _COMPARED:
            break
    import difflib  # on the refusal path only

    found = difflib.get_close_matches(word, picked[:_COMPARED], n=1)
    return found[0] if found else None


def some_ids(table: Mapping[str, object]) -> str:
    """``one of a, b, c, ...``: the first ids of ``table`` (12 at most, not a sort of every id), or
    ``it has none``."""
    return _spelling(table)[1]


#: Each id table's ids by length and the first ids named, by the table they were read from (kept
#: with it, so that an id reused by a new table is not mistaken for it): made at a table's first
#: refusal, not at each one (an engine refusing ids of a large table walked all of it each time).
_SPELLINGS: dict[int, tuple[Mapping[str, object], dict[int, list[str]], str]] = {}
#: Words that begin with a vowel said as a consonant: "a user", "a union", not "an".
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once")
#: Ids a misspelling is compared with, the longest word compared, the tables kept.
_COMPARED, _LONGEST, _KEPT = 200, 120, 16


def _spelling(table: Mapping[str, object]) -> tuple[dict[int, list[str]], str]:
    kept = _SPELLINGS.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1], kept[2]
    by_length: dict[int, list[str]] = {}
    for key in table:
        by_length.setdefault(len(key), []).append(str(key))  # an id enum member as its id
    first = heapq.nsmallest(12, table)
    named = f"one of {', '.join(first)}{', ...' if len(table) > len(first) else ''}" if first else "it has none"
    if len(_SPELLINGS) >= _KEPT:
        _SPELLINGS.clear()
    _SPELLINGS[id(table)] = (table, by_length, named)
    return by_length, named


def not_given(
    what: str, field: str, unknown: Iterable[_UnknownFact] | Mapping[str, str] = (), hint: str = ""
) -> UnknownFactError:
    """The UnknownFactError of a fact ``what`` (in words: "the limit per player") that a helper needs and
    the data's ``field`` (``limits.per_player``) does not hold, worded by why it does not:

    - the data records it, or a value holding it (``items[a]`` for ``items[a].cost``), as
      unknown, one of ``unknown`` (a package's UNKNOWN_FACTS, or their reasons by field): "the
      sources do not give the limit per player: <the data's why>";
    - otherwise the ruleset does not write it (a variant or a house ruleset without the optional
      field, a family without the rule), or the caller could not say (a runtime function called
      without the package's unknown facts: :class:`Told` words it again where they are known):
      "this ruleset does not give the limit per player (limits.per_player)". Never "not in the
      sources", which the data does not say of a fact it leaves out.

    ``hint`` (what the fact decides, how an engine may supply it) is said too, before the data's why.
    """
    from collections.abc import Mapping  # loaded already: the standard library's own imports need it

    reasons = unknown if isinstance(unknown, Mapping) else _reasons(unknown)
    reason = _reason(field, reasons)
    if reason is not None:  # the data's why last, as written
        message = f"the sources do not give {what}{f' ({hint})' if hint else ''}: {reason}"
    else:
        message = f"this ruleset does not give {what} ({field}){f': {hint}' if hint else ''}"
    return UnknownFactError(message, what=what, field=field, reason=reason, hint=hint)


def reason_of(
    field: str, unknown: Iterable[_UnknownFact] | Mapping[str, str], collections: Mapping[str, str] | None = None
) -> str | None:
    """The data's why of ``field`` being unknown (as :func:`not_given` finds it in ``unknown``, a
    package's UNKNOWN_FACTS or their reasons by field; ``collections``: the family logic's
    OVERLAY_COLLECTIONS), or None where the data does not record it as unknown. For a value a
    helper returns that a later call may refuse (an amount one of whose inputs is unknown): it
    keeps the why of the input, which that call no longer has the package's unknown facts to find."""
    from collections.abc import Mapping

    reasons = unknown if isinstance(unknown, Mapping) else _reasons(unknown, collections)
    return _reason(field, reasons)


def _reasons(unknown: Iterable[_UnknownFact], collections: Mapping[str, str] | None = None) -> dict[str, str]:
    """The reason of each unknown fact by the field of the resolved ruleset it leaves unknown: a
    base file's own field as written (``items[a].cost``, ``limits``), a variant's overlay's
    as the field it writes (``overlay.listed_items.patch[a].cost`` is ``items[a].cost``:
    ``collections`` names the data's field of each overlay collection whose name differs)."""
    return {_resolved(fact.field, collections or {}): fact.reason for fact in unknown}


#: The words of a variant's overlay that name an operation rather than a field.
_OPERATIONS = frozenset({"add", "replace", "patch", "remove", "insert", "append", "with"})


def _resolved(field: str, collections: Mapping[str, str]) -> str:
    """The field of the resolved ruleset a fact's ``field`` (as UNKNOWN_FACTS writes it) holds."""
    if not field.startswith("overlay."):
        return field
    import re  # on the refusal path only

    parts = [p for p in re.findall(r"\[[^\]]*\]|[^.\[]+", field[len("overlay.") :]) if p not in _OPERATIONS]
    if parts[:1] == ["settings"]:
        parts = parts[1:]
    if parts and parts[0] in collections:
        parts[0] = collections[parts[0]]
    return "".join(p if p.startswith("[") or not i else f".{p}" for i, p in enumerate(parts))


def _reason(field: str, reasons: Mapping[str, str]) -> str | None:
    """The reason the data gives for ``field`` being unknown, or for the nearest value holding it
    (``items[a]``, then ``items``), or else for the first part of it the data records as unknown
    (``stages[x].requirements.criteria`` leaves ``stages[x].requirements`` unknown): None where
    none of them is recorded unknown."""
    if not reasons:
        return None
    end = len(field)
    while end > 0:
        found = reasons.get(field[:end])
        if found is not None:
            return found
        end = max(field.rfind(".", 0, end), field.rfind("[", 0, end))
    return next((why for part, why in reasons.items() if part.startswith((f"{field}.", f"{field}["))), None)


def reword(
    error: UnknownFactError,
    unknown: Iterable[_UnknownFact] | Mapping[str, str],
    collections: Mapping[str, str] | None = None,
) -> None:
    """Word ``error`` again, in place, with ``unknown`` (a package's UNKNOWN_FACTS, or their reasons
    by field, :func:`_reasons`), where :func:`not_given` made it without them and the data records
    its fact as unknown: it then says the sources do not give the fact, and why (``reason``).
    ``collections``: the family logic's OVERLAY_COLLECTIONS."""
    if error.field is None or error.what is None or error.reason is not None:
        return
    from collections.abc import Mapping

    reasons = unknown if isinstance(unknown, Mapping) else _reasons(unknown, collections)
    again = not_given(error.what, error.field, reasons, error.hint)
    if again.reason is not None:
        error.args, error.reason = again.args, again.reason


class Told(ModuleType):
    """A runtime module's functions as one package calls them: an UnknownFactError that
    :func:`not_given` made without the package's unknown facts (``reason`` None) is worded again
    with them (``unknown``: its UNKNOWN_FACTS), so a fact the data records as unknown is said to be
    one the sources do not give, with the data's why, and one the ruleset leaves out is said to be one
    it does not give. A package's helpers call the family's rule logic through it; anything that is
    no function is the module's own."""

    def __init__(self, module: ModuleType, unknown: Iterable[_UnknownFact]) -> None:
        super().__init__(module.__name__, module.__doc__)  # a module still, as the package's ``logic``
        self._module = module
        self._reasons = _reasons(unknown, getattr(module, "OVERLAY_COLLECTIONS", None))

    def __getattr__(self, name: str) -> object:
        found = getattr(self._module, name)
        if not callable(found) or isinstance(found, type):
            return found
        reasons = self._reasons

        def told(*args: object, **kwargs: object) -> object:
            try:
                return found(*args, **kwargs)
            except UnknownFactError as error:
                reword(error, reasons)
                raise

        told.__name__ = told.__qualname__ = name
        told.__doc__ = found.__doc__
        self.__dict__[name] = told  # made once: later calls find it without __getattr__
        return told


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()


if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # An error sent to another process (multiprocessing pickles it) is named by its module and
        # class: one this version lacks is said so.
        raise absent(__name__, name, _RETIRED)
