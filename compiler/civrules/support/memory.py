"""numpy, imported so that a process short of address space fails with a MemoryError.

numpy's BLAS (OpenBLAS) maps a buffer per thread as it loads: under an address-space limit
(`ulimit -v`) that leaves too little room, it printed "OpenBLAS error: Memory allocation still
failed after 10 retries, giving up" and ended the process with exit status 1, which says "the
rules have errors", with no diagnostic at all. Or numpy's own modules could not be mapped, an
ImportError. Before numpy is first imported, :func:`import_numpy` asks the system for the room
it takes (and lets go of it again), and raises MemoryError where there is none: civrules then
reports running out of memory (R017, exit 2).
"""

from __future__ import annotations

import mmap
import os
import sys
from types import ModuleType

#: The address space importing numpy takes with one BLAS thread (measured: 86 MiB, numpy 2 with
#: OpenBLAS 0.3), with room to spare.
NUMPY_ROOM = 112 * 2**20


def import_numpy() -> ModuleType:
    """numpy, imported with one BLAS thread unless the environment asks for more (the map layout
    multiplies small matrices: more threads are only more address space, and start-up time);
    MemoryError where the address space left cannot hold it."""
    loaded = sys.modules.get("numpy")
    if loaded is not None:
        return loaded
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    reserve(NUMPY_ROOM, "numpy")
    try:
        import numpy
    except ImportError as error:
        from civrules.diagnostics.process import out_of_memory

        if out_of_memory(error):
            raise MemoryError("numpy could not be loaded: the address space is exhausted") from error
        raise
    return numpy


def reserve(size: int, what: str) -> None:
    """Raise MemoryError unless ``size`` bytes of address space can be mapped now (they are let
    go of at once: only the room is asked for, no memory is used)."""
    try:
        room = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, ValueError) as error:
        raise MemoryError(f"no room in the address space to load {what}") from error
    room.close()
