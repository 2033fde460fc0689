"""Where civrules, and the libraries it loads, look for programs: the PATH's absolute folders.

A relative folder of the PATH (`.`, an empty entry, `bin`) names a folder of the directory
civrules runs in, the project it checks, whose files a pull request may bring: with
`PATH=.:$PATH` (or a trailing `:`), `validate --staged` ran a `git` committed into the project,
and `sheets --pdf` ran its `gcc` and `ld` (WeasyPrint loads Pango through cffi, whose
``ctypes.util.find_library`` runs them). civrules never executes anything from the working tree
(README), so such folders are never searched, as Go's ``os/exec`` refuses what they find
(``ErrDot``):

- the program's entry point (:mod:`civrules.launch`) keeps only the absolute folders in its own
  ``PATH`` (:func:`keep_absolute`), for every program it or a library runs;
- a command line called in process leaves its host's ``PATH`` as it is, and looks programs up in
  :func:`absolute` itself (:func:`absolute_only` around an import that runs them).

>>> absolute(".:/usr/bin::bin:/bin:")
'/usr/bin:/bin'
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


def absolute(path: str | None = None) -> str:
    """The absolute folders of ``path`` (default: the ``PATH`` variable, or the system's default
    when it is unset), in their order."""
    if path is None:
        path = os.environ.get("PATH", os.defpath)
    return os.pathsep.join(folder for folder in path.split(os.pathsep) if os.path.isabs(folder))


def keep_absolute() -> None:
    """Keep only the absolute folders in this process's ``PATH`` (for the program's entry point)."""
    os.environ["PATH"] = absolute()


@contextlib.contextmanager
def absolute_only() -> Iterator[None]:
    """``PATH`` holds its absolute folders only while the block runs, then is what it was."""
    was = os.environ.get("PATH")
    os.environ["PATH"] = absolute(was)
    try:
        yield
    finally:
        if was is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = was
