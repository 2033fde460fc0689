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
