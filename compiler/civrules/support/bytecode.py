"""No bytecode written under a file-size limit.

Python caches a module's bytecode (``__pycache__/*.pyc``) with one raw write whose count it does not
check: under a file-size limit (``RLIMIT_FSIZE``, as a CI sandbox or ``ulimit -f`` sets) smaller than
a module's bytecode, the write is cut short and the truncated file is renamed into place. The next
import of that module, by any program, fails on it ("bad marshal data"). civrules run under such a
limit therefore writes no bytecode: importing this module (the command line does, before anything of
its own) sets :data:`sys.dont_write_bytecode` when the process has a finite file-size limit.
"""

from __future__ import annotations

import sys


def limited() -> bool:
    """Whether this process may write files of a bounded size only (never on a system without the limit)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return soft != resource.RLIM_INFINITY


def guard() -> None:
    if limited():
        sys.dont_write_bytecode = True


guard()
