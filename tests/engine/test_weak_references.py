"""A record can be referred to weakly, as a frozen dataclass made with ``weakref_slot=True`` can: an
engine caches records it makes (a ``weakref.WeakValueDictionary`` of changed records) or observes
them (``weakref.finalize``) without keeping them alive. Before runtime 2.20.0 ``weakref.ref(card)``
was Python's bare ``TypeError: cannot create weak reference to 'Card' object``: the record base's
``__slots__`` were empty. The base's one slot, ``__weakref__``, costs a record one pointer.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import weakref

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_runtime.records import Record  # noqa: E402


def _record_classes() -> list[type[Record]]:
    for runtime in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization"):
        for module in ("records", "settings"):
            importlib.import_module(f"civrules_runtime_{runtime}.{module}")
    found, stack = [], [Record]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def test_every_record_class_of_the_runtimes_is_weakly_referable_and_stays_slotted() -> None:
    classes = _record_classes()
    assert len(classes) > 100  # the three families' records and settings records, and the shared ones
    refused = [cls.__qualname__ for cls in classes if not cls.__weakrefoffset__]
    assert not refused, refused
    with_dict = [cls.__qualname__ for cls in classes if cls.__dictoffset__ and "tests" not in cls.__module__]
    assert not with_dict, with_dict  # still no __dict__: a record is its fields


def test_a_weak_reference_to_a_record_follows_it_and_a_cache_of_them_lets_them_go() -> None:
    card = ac.CARDS[ac.CardId("pottery")]
    assert weakref.ref(card)() is card and weakref.ref(ac.SETTINGS)() is ac.SETTINGS
    assert weakref.ref(ac.PLAYERS)() is ac.PLAYERS  # a record of the shared runtime
    cache: weakref.WeakValueDictionary[str, Record] = weakref.WeakValueDictionary()
    priced = card.replace(cost=200)
    cache["priced"] = priced
    assert cache["priced"] is priced
    del priced  # the engine's last reference: the cache keeps none
    assert "priced" not in cache
    assert pickle.loads(pickle.dumps(card)) == card  # the slot is no field: not pickled, not shown
    assert "__weakref__" not in repr(card) and "__weakref__" not in card.asdict()
