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
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

_T = TypeVar("_T")
_K = TypeVar("_K")

#: How to clear each memo: its ``cache_clear``, or the ``clear`` of a dict.
_CLEARS: list[Callable[[], None]] = []
#: How to drop what each memo holds strongly, by the identity of an object that cannot be referred
#: to weakly (a list, a tuple): see :func:`end_run`.
_RUN_CLEARS: list[Callable[[], None]] = []


def run_memo(maxsize: int) -> Callable[[Callable[..., _T]], functools._lru_cache_wrapper[_T]]:
    """:func:`functools.lru_cache` of at most ``maxsize`` entries, that :func:`forget` clears."""

    def decorate(function: Callable[..., _T]) -> functools._lru_cache_wrapper[_T]:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _CLEARS.append(cached.cache_clear)
        return cached

    return decorate


def by_identity(maxsize: int) -> Callable[[Callable[[Any], _T]], Callable[[Any], _T]]:
    """A memo of a one-argument function by its argument's identity, for arguments that cannot
    change (a model's collection) but cost their size to hash: at most ``maxsize`` entries, each
    going with its argument where the argument can be referred to weakly (a model's collection,
    whose entities hold their documents: kept, it kept every version of an edited file a
    long-lived session had let go), else kept beside its value so that a reused id never
    matches; :func:`forget` clears it."""

    def decorate(function: Callable[[Any], _T]) -> Callable[[Any], _T]:
        kept: dict[int, tuple[Callable[[], Any], _T]] = {}
        #: The entries of arguments held strongly: dropped at the end of each run (:func:`end_run`).
        strong: dict[int, tuple[Callable[[], Any], _T]] = {}
        gone: list[_Ref] = []
        register(kept)
        register_run(strong)

        @functools.wraps(function)
        def cached(argument: Any) -> _T:
            _drop_gone(kept, gone)
            at = id(argument)
            entry = kept.get(at) or strong.get(at)
            if entry is not None and entry[0]() is argument:
                return entry[1]
            value = function(argument)
            if len(kept) + len(strong) >= maxsize:
                kept.clear()
                strong.clear()
            try:
                kept[at] = (_Ref(argument, gone.append, at), value)
            except TypeError:
                strong[at] = (functools.partial(_itself, argument), value)
            return value

        return cached

    return decorate


def _itself(argument: _K) -> _K:
    return argument


class _Ref(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows the key of its memo entry.

    Its callback is a list's ``append`` (C, no Python frame): a Ctrl-C that Python acts on while
    an object goes cannot land in the callback, where Python prints it as "Exception ignored" and
    drops it (the build it was to stop went on to exit 0). The entry is dropped at the memo's next
    use instead (:func:`_drop_gone`).
    """

    __slots__ = ("at",)
    at: int

    def __new__(cls, referent: Any, callback: Callable[[Any], None], at: int) -> _Ref:
        ref = super().__new__(cls, referent, callback)
        ref.at = at
        return ref

    def __init__(self, referent: Any, callback: Callable[[Any], None], at: int) -> None:
        super().__init__(referent, callback)  # type: ignore[call-arg]


def _drop_gone(kept: dict[int, Any], gone: list[_Ref]) -> None:
    """Drop the entries whose objects went (each still the entry of its reference: an id can be
    reused by a new object, whose entry stays)."""
    while gone:
        ref = gone.pop()
        entry = kept.get(ref.at)
        if entry is not None and entry[0] is ref:
            del kept[ref.at]


class Attached(Generic[_K, _T]):
    """What was made from an object that never changes (a document's walk, a model's credit
    matrix), kept by the object's identity for exactly as long as the object lives: an entry holds
    the object weakly and goes with it, so a long-lived session that reads a file again (each
    edit makes a new document) keeps nothing of the versions it let go. A value must not hold its
    object, or neither would ever go. An object that cannot be referred to weakly (a stand-in that
    records what is read of a model, :mod:`civrules.support.tracked`) is held beside its value,
    the last ``held`` of them only. :func:`forget` clears it."""

    __slots__ = ("_gone", "_held", "_kept")

    def __init__(self, held: int = 8) -> None:
        self._kept: dict[int, tuple[Callable[[], _K | None], _T]] = {}
        #: The references whose objects went, their entries not yet dropped (see :class:`_Ref`).
        self._gone: list[_Ref] = []
        self._held = held
        register(self._kept)
        _RUN_CLEARS.append(self._drop_strong)

    def get(self, key: _K) -> _T | None:
        _drop_gone(self._kept, self._gone)
        entry = self._kept.get(id(key))
        return entry[1] if entry is not None and entry[0]() is key else None

    def put(self, key: _K, value: _T) -> _T:
        kept = self._kept
        _drop_gone(kept, self._gone)
        at = id(key)
        try:
            held: Callable[[], _K | None] = _Ref(key, self._gone.append, at)
        except TypeError:
            strong = [k for k, (h, _) in kept.items() if isinstance(h, functools.partial)]
            for k in strong[: max(0, len(strong) - self._held + 1)]:
                del kept[k]
            held = functools.partial(_itself, key)
        kept[at] = (held, value)
        return value

    def pop(self, key: _K) -> None:
        entry = self._kept.get(id(key))
        if entry is not None and entry[0]() is key:
            del self._kept[id(key)]

    def clear(self) -> None:
        self._kept.clear()
        self._gone.clear()

    def _drop_strong(self) -> None:
        """Drop the entries whose objects are held strongly (see :func:`end_run`)."""
        for at in [at for at, (held, _) in self._kept.items() if isinstance(held, functools.partial)]:
            del self._kept[at]

    def __len__(self) -> int:
        _drop_gone(self._kept, self._gone)
        return len(self._kept)


def register(memo: dict[Any, Any]) -> None:
    """A memo kept in a dict of its own (bounded by its owner), for :func:`forget` to clear."""
    _CLEARS.append(memo.clear)


def register_run(memo: dict[Any, Any]) -> None:
    """A memo in a dict of its own that holds its keys strongly (bounded by its owner): cleared at
    the end of each run (:func:`end_run`) as well as by :func:`forget`."""
    _CLEARS.append(memo.clear)
    _RUN_CLEARS.append(memo.clear)


def end_run() -> None:
    """Drop what every memo holds strongly, by the identity of an object that cannot be referred
    to weakly (a list, a tuple: :func:`by_identity`'s and :class:`Attached`'s arguments held beside
    their values, :func:`register_run`'s dicts). Such an entry serves the reuse within one run (the
    entries of a variant patching one list, each asking for its index). Kept after the run, it kept
    its object, and whatever that holds, after a long-lived session let go of the ruleset it came
    from, up to each memo's bound (256 lists of a resolved ruleset's data, and 64 more of its
    citations, round 31). A session (the language server, ``watch``) calls it after each update;
    a command's run ends with its process. What is held weakly stays: it goes with its object."""
    for clear in _RUN_CLEARS:
        clear()


def forget() -> None:
    """Clear every memo of the process (:func:`run_memo`, :func:`register`)."""
    for clear in _CLEARS:
        clear()
