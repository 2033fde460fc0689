"""The C allocator's free memory handed back to the system between the stages of a build.

Python gives the C allocator (glibc's malloc on Linux) the memory of large objects and of the
arenas it frees; glibc keeps what is freed in the middle of its heap for later requests, so a
build's resident memory only grew: what the checks let go of (the documents' positions, the map
graphs) and the rendering of one file left holes that the next file's larger blocks did not fit,
and each stage's peak was stacked on the last one's. :func:`trim` asks glibc to return every
free page (``malloc_trim(0)``), a few milliseconds: ``civrules build`` calls it between a
ruleset's stages (checked, package, sheets, helper). Elsewhere (macOS, musl, Windows) it does
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_TRIM: list[Callable[[int], Any] | None] = []


def trim() -> None:
    """Hand the allocator's free pages back to the system (glibc only; otherwise nothing)."""
    if not _TRIM:
        _TRIM.append(_malloc_trim())
    found = _TRIM[0]
    if found is not None:
        found(0)


def _malloc_trim() -> Callable[[int], Any] | None:
    try:
        import ctypes

        function: Callable[[int], Any] = ctypes.CDLL(None).malloc_trim
    except (ImportError, OSError, AttributeError, TypeError):
        return None
    return function
