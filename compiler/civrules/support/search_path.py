"""Where civrules, and the libraries it loads, look for programs and modules: absolute folders only.

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

An absolute folder can name the project too (round 35): `PATH=$PWD/node_modules/.bin:$PATH`,
set by a CI step or a package manager's script, found a `git` committed there for `validate
--staged`. So where civrules knows the project it checks, it also skips the folders that lie in
its trees (:func:`outside`: the rules folder, the folder holding it, the repository's work tree,
as :func:`civrules.support.cache.project_trees` finds them), and says which it skipped when
nothing is found elsewhere.

A relative folder of ``PYTHONPATH`` is the same hole for modules: Python turns it into the
absolute folder it names in the working directory and searches it before the standard library
and the installed distributions. With `PYTHONPATH=.` (or an empty entry: `PYTHONPATH=$X:` when
``X`` was unset), a `typing.py`, `yaml.py` or `click.py` in the checked project was imported by
civrules, and a `*.dist-info` folder declaring a game family had its module imported (run) by
`civrules list`. The entry point takes those folders off ``sys.path`` before it imports anything
else (:func:`keep_absolute_imports`), and off ``PYTHONPATH`` for the programs it runs. This module
imports nothing Python's start has not imported already (no ``__future__``, no ``contextlib``): it
runs before the folders are taken off.

What Python itself imports before any of civrules runs (`sitecustomize`, the console script's
own imports, the `civrules` package) is searched there first all the same, as a shell runs a
`./civrules` with `PATH=.:$PATH`: keep relative folders out of both variables where a project
you did not write is checked. The shipped pre-commit hooks start Python isolated
(``python -I -m civrules``), so neither variable reaches them.

>>> absolute(".:/usr/bin::bin:/bin:")
'/usr/bin:/bin'
"""

import os
import sys


def absolute(path: str | None = None) -> str:
    """The absolute folders of ``path`` (default: the ``PATH`` variable, or the system's default
    when it is unset), in their order."""
    if path is None:
        path = os.environ.get("PATH", os.defpath)
    return os.pathsep.join(folder for folder in path.split(os.pathsep) if os.path.isabs(folder))


def _within(folder: str, tree: str) -> bool:
    return folder == tree or folder.startswith(tree.rstrip("/") + "/")


def outside(trees: tuple[str, ...], path: str | None = None) -> tuple[str, list[str]]:
    """The absolute folders of ``path`` (default: the ``PATH`` variable) that lie in none of
    ``trees`` (real paths), joined as a search path, and those skipped because they do. A folder is
    judged as written and as it resolves (a link in the project to a folder elsewhere is the
    project's link: it could name another folder tomorrow).

    >>> outside(("/p",), "/usr/bin:/p/node_modules/.bin:/p:/pa/bin")
    ('/usr/bin:/pa/bin', ['/p/node_modules/.bin', '/p'])
    """
    kept: list[str] = []
    skipped: list[str] = []
    for folder in absolute(path).split(os.pathsep):
        if not folder:
            continue
        named = os.path.normpath(folder)
        try:
            real = os.path.realpath(folder)
        except (OSError, ValueError):
            real = named
        if any(_within(named, tree) or _within(real, tree) for tree in trees):
            skipped.append(folder)
        else:
            kept.append(folder)
    return os.pathsep.join(kept), skipped


def keep_absolute() -> None:
    """Keep only the absolute folders in this process's ``PATH`` (for the program's entry point)."""
    os.environ["PATH"] = absolute()


def relative_import_folders(pythonpath: str | None = None) -> list[str]:
    """The folders of ``sys.path`` that relative entries of ``pythonpath`` (default: the
    ``PYTHONPATH`` variable) put there: Python made each absolute against the working directory
    it started in. A folder ``pythonpath`` also names absolutely is not one of them.

    >>> import os
    >>> relative_import_folders(":/usr/lib/x") == [os.getcwd()]
    True
    """
    if pythonpath is None:
        pythonpath = os.environ.get("PYTHONPATH", "")
    if not pythonpath:  # unset or empty: Python adds nothing
        return []
    entries = pythonpath.split(os.pathsep)
    named = {os.path.normpath(entry) for entry in entries if os.path.isabs(entry)}
    try:
        folders = [os.path.abspath(entry) for entry in entries if not os.path.isabs(entry)]
    except OSError:  # the working directory is gone: nothing can be imported from it either
        return []
    return [folder for folder in dict.fromkeys(folders) if folder not in named]


def keep_absolute_imports() -> None:
    """Take the folders relative ``PYTHONPATH`` entries named off ``sys.path``, and those entries off
    ``PYTHONPATH`` (for the programs civrules runs): for the program's entry point, before it imports
    anything else."""
    folders = relative_import_folders()
    if folders:
        sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) not in folders]
        sys.path_importer_cache.clear()
    kept = absolute(os.environ.get("PYTHONPATH", ""))
    if kept:
        os.environ["PYTHONPATH"] = kept
    else:
        os.environ.pop("PYTHONPATH", None)


class absolute_only:  # noqa: N801 - used as a function: ``with absolute_only():``
    """``PATH`` holds its absolute folders only while the block runs (those lying in none of
    ``trees``, real paths: :func:`outside`), then is what it was."""

    def __init__(self, trees: tuple[str, ...] = ()) -> None:
        self._was: str | None = None
        self._trees = trees

    def __enter__(self) -> None:
        self._was = os.environ.get("PATH")
        os.environ["PATH"] = outside(self._trees, absolute(self._was))[0]

    def __exit__(self, *exc: object) -> None:
        if self._was is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = self._was
