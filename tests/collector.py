"""What a run leaves that only the garbage collector frees, counted among the objects it made."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def left_for_the_collector(run: Callable[[], _T]) -> tuple[_T, int]:
    """What ``run`` returns, and how many of the objects made while it ran only a collection frees
    (the collector off while it runs, then one collection). The process's older objects are frozen
    first (``gc.freeze``): the collection walks what ``run`` made, not the whole heap of a test
    process that has run hundreds of tests (the renderers' test collected it four times: 2.2 s of
    CPU in a run of the suite), and garbage older tests left is not counted (it goes at the
    process's next collection after ``gc.unfreeze``)."""
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        result = run()
        found = gc.collect()
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()
    return result, found
