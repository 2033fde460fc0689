"""Python's garbage collector in the long-running processes (``civrules lsp``, ``civrules watch``).

A full (generation 2) collection walks every object the process holds. A session keeps the data,
documents and models of every ruleset between edits, so at 10× the shipped rules one full
collection during an update cost 90–200 ms of CPU, more than the rest of an edit's checks.
:func:`settle` is called by those processes once an update's diagnostics are out and while they
are idle: it collects every cycle, then freezes what survives (``gc.freeze()``), so the
collections made during the next update walk only what that update makes. What becomes cyclic
garbage while frozen (the objects an edit replaced) is collected by the next :func:`settle`.

A :class:`civrules.pipeline.incremental.Session` used as a library does not touch the collector:
the policy is the process's, and only the commands that own their process choose it.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect everything (what was frozen included), then freeze what survives."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


#: Allocations between two young collections, and how many of those make one of the next
#: generation: Python's defaults are (700, 10, 10).
RUN_THRESHOLDS = (50_000, 20, 20)


def for_a_run() -> None:
    """The collector's pace for one command over a whole ruleset (issue 32).

    A run makes millions of objects and keeps most of them until it ends (documents, models, the
    rendered files): at Python's default pace the collector walks the growing heap again and again,
    and its share grew faster than the data (5,000 cards in one card file: 1.6 of the 5.5 s of a
    build, against 0.1 of 1.3 s without them). Young collections every 50,000 allocations instead of
    700 keep the collector linear in what a run makes, for at most a few MB of garbage held longer.
    Cycles are still collected: what the run lets go of (a ruleset's analysis once it is built) is
    freed as before.
    """
    gc.set_threshold(*RUN_THRESHOLDS)
