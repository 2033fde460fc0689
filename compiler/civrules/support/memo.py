"""What a process keeps of the work it made from rule data, to make it once: and how to forget it.

A build of several rulesets meets the same work again: the variants of a base that keep its map
draw the same picture and place the same labels, and write the same large statements into their
data modules; the sheets of rulesets with the same card groups ask for the same group marks.
Each such memo is keyed by the facts it is made from (never by a file's name or time) and bounded,
and is made with :func:`run_memo` (or given to :func:`register`), so that :func:`forget` clears
every one of them at once.

:func:`forget` is for whoever needs each run to start cold: the benchmarks (``bench/run.py``
repeats a build in one process, and a memo kept from the previous run would time a build that
makes nothing again, not the build a fresh ``civrules build`` process makes), and tests that count
work. The commands never call it: a long-lived session (``watch``, the language server) keeps its
memos between rounds, within their bounds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

#: How to clear each memo: its ``cache_clear``, or the ``clear`` of a dict.
_CLEARS: list[Callable[[], None]] = []


def run_memo(maxsize: int) -> Callable[[Callable[..., _T]], functools._lru_cache_wrapper[_T]]:
    """:func:`functools.lru_cache` of at most ``maxsize`` entries, that :func:`forget` clears."""

    def decorate(function: Callable[..., _T]) -> functools._lru_cache_wrapper[_T]:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _CLEARS.append(cached.cache_clear)
        return cached

    return decorate


def by_identity(maxsize: int) -> Callable[[Callable[[Any], _T]], Callable[[Any], _T]]:
    """A memo of a one-argument function by its argument's identity, for arguments that cannot
    change (a model's collection) but cost their size to hash: at most ``maxsize`` entries, the
    argument kept beside its value so that a reused id never matches; :func:`forget` clears it."""

    def decorate(function: Callable[[Any], _T]) -> Callable[[Any], _T]:
        kept: dict[int, tuple[Any, _T]] = {}
        register(kept)

        @functools.wraps(function)
        def cached(argument: Any) -> _T:
            entry = kept.get(id(argument))
            if entry is not None and entry[0] is argument:
                return entry[1]
            value = function(argument)
            if len(kept) >= maxsize:
                kept.clear()
            kept[id(argument)] = (argument, value)
            return value

        return cached

    return decorate


def register(memo: dict[Any, Any]) -> None:
    """A memo kept in a dict of its own (bounded by its owner), for :func:`forget` to clear."""
    _CLEARS.append(memo.clear)


def forget() -> None:
    """Clear every memo of the process (:func:`run_memo`, :func:`register`)."""
    for clear in _CLEARS:
        clear()
