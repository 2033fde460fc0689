"""The errors every generated package raises, and the checks of arguments that raise them."""

from __future__ import annotations

import heapq

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import TypeVar

    T = TypeVar("T")


class UnknownFactError(LookupError):
    """A helper needed a fact the sources do not give (it is None in the data)."""


class UnknownIdError(KeyError, ValueError):
    """An id, or a value of a vocabulary, that the ruleset does not have (a misspelling)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DraftRulesetError(RuntimeError):
    """An engine asked for a complete ruleset and was given a draft (see the package's DRAFT)."""


class NotACollectionError(TypeError):
    """A single string where a collection of ids belongs (``purchase_cost("law", ...)``): a string
    is iterable, but its letters are not ids. Also a value that is no collection at all
    (``purchase_cost(5, ...)``)."""


def collection(value: object, parameter: str) -> None:
    """Raise NotACollectionError when ``value``, given for ``parameter`` (a collection of ids), is a
    string, or not iterable."""
    if isinstance(value, str | bytes):
        raise NotACollectionError(
            f"{parameter} is a collection of ids, not the string {value!r}: write [{value!r}] for one id"
        )
    try:
        iter(value)  # type: ignore[call-overload]  # an iterator given is returned, not consumed
    except TypeError:
        raise NotACollectionError(f"{parameter} is a collection of ids (a list, a set ...), not {value!r}") from None


class OutOfDomainError(ValueError):
    """An argument a rule is not defined for (a negative count of cities, a set larger than the
    good's cards, a space off the track): the message names the value and the rule's domain."""


def within(value: object, name: str, low: int = 0, high: int | None = None, rule: str = "") -> int:
    """``value`` when ``low <= value <= high``; OutOfDomainError naming it and the domain otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutOfDomainError(f"{name}={value!r} is not a whole number{rule and f' ({rule})'}")
    if value < low or (high is not None and value > high):
        domain = f"{low} or more" if high is None else f"{low} to {high}"
        raise OutOfDomainError(f"{name}={value!r} is outside the domain of the rule{rule and f' ({rule})'}: {domain}")
    return value


def flag(value: object, name: str) -> bool:
    """``value`` when it is a bool; OutOfDomainError naming it otherwise (``"yes"`` is no flag,
    though it is true)."""
    if not isinstance(value, bool):
        raise OutOfDomainError(f"{name}={value!r} is not a flag: True or False")
    return value


def at_most(ids: Iterable[T], parameter: str, copies: Callable[[T], int | None], why: Callable[[int], str]) -> list[T]:
    """``ids`` as a list when none is listed more times than the game has of it (``copies(id)``;
    None: the sources do not give a bound); OutOfDomainError naming the first listed once too often
    otherwise, and ``why(most)`` the bound ("the game has 1 copy of it (Card.copies)"). A collection
    of game objects is no multiset: one card held counted twice gave a discount, a row of the
    pyramid, a credit the game cannot give. An unhashable value is left to the caller, which
    refuses it as no id (check the ids first: UnknownIdError comes before this)."""
    listed = list(ids)
    seen: dict[object, int] = {}
    for item in listed:
        try:
            times = seen[item] = seen.get(item, 0) + 1
        except TypeError:
            continue
        most = copies(item)
        if most is not None and times > most:
            raise OutOfDomainError(f"{item!r} is listed {_times(times)} in {parameter}: {why(most)}")
    return listed


def once_each(ids: Iterable[T], parameter: str, why: str) -> list[T]:
    """``ids`` as a list when none is listed twice (:func:`at_most` with a bound of one): ``why``
    says why one is the most ("a player holds one card of each technology")."""
    return at_most(ids, parameter, lambda _: 1, lambda _: why)


def copies(n: int) -> str:
    """``1 copy``, ``2 copies``: a bound of :func:`at_most` in words."""
    return f"{n} copy" if n == 1 else f"{n} copies"


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def an_id(value: object, parameter: str) -> str:
    """``value`` when it is a str (every id is one); UnknownIdError naming ``parameter`` otherwise
    (None, a number or a list is no id of any ruleset)."""
    if not isinstance(value, str):
        raise UnknownIdError(f"{parameter}={value!r} is not an id: an id is a str")
    return value


def unknown_id(value: object, table: Mapping[str, object], what: str) -> UnknownIdError:
    """The UnknownIdError refusing ``value`` as a ``what`` of ``table``: it proposes the closest id
    ("did you mean"), or, with none close, names the first ids."""
    article = "an" if what[:1] in "aeiou" else "a"
    if not isinstance(value, str):
        return UnknownIdError(f"{value!r} is not {article} {what} of this ruleset: an id is a str, {some_ids(table)}")
    close = closest_id(value, table)
    hint = f"did you mean {close!r}?" if close is not None else some_ids(table)
    return UnknownIdError(f"{value!r} is not {article} {what} of this ruleset: {hint}")


def closest_id(word: str, table: Mapping[str, object]) -> str | None:
    """The id of ``table`` most like ``word`` (difflib's ratio at least 0.6), or None; compared with at
    most :data:`_COMPARED` ids of the nearest lengths, however large the table."""
    if len(word) > _LONGEST:  # difflib's time grows as the square of the words' length
        return None
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
