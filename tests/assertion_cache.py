"""Each test module's assertions rewritten once per checkout, before pytest-xdist starts its workers.

pytest rewrites the ``assert`` statements of every test module it imports and keeps the result in a
pyc of its own (``__pycache__/test_x.cpython-311-pytest-9.2.0.pyc``), which any later process reads.
On a fresh clone (CI's every run) there is none yet, and every worker collects every module at the
same moment: each of the three workers rewrote all 161 test modules itself, about 6-7 s of CPU
each (collection took 10.6-11.4 s of CPU per worker instead of 4.0-4.2 s, 2026-12-04), 13-14 s of
the two cores that the fast suite spends in every CI run. The controller, which collects nothing,
rewrites them once before it starts the workers (:func:`rewrite_test_modules`, called by
tests/conftest.py), and the workers read what it wrote.

It is pytest's own rewriting, called as pytest's import hook calls it (``_pytest.assertion.rewrite``:
read a kept pyc, else rewrite and write it), so a worker cannot tell the pycs from its own. Those
names are pytest's, not a public interface: where a pytest no longer has them, nothing is written
here and each worker rewrites what it imports, as before (slower, never wrong);
``core/test_suite_rules.py`` fails where that happens, so that it is seen.
"""

from __future__ import annotations

import fnmatch
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest


def test_modules(config: pytest.Config) -> list[Path]:
    """The files a run's workers will import through pytest's rewriting hook: the test modules
    (``python_files``) and conftest.py files under the paths the run was given (its ``testpaths``
    when given none), each once, sorted."""
    patterns = [str(pattern) for pattern in config.getini("python_files")]
    found: set[Path] = set()
    for start in _starts(config):
        if start.is_file():
            candidates: Iterable[Path] = [start]
        elif start.is_dir():
            candidates = (path for path in start.rglob("*.py") if "__pycache__" not in path.parts)
        else:
            continue
        for path in candidates:
            name = path.name
            if name == "conftest.py" or any(fnmatch.fnmatch(name, pattern) for pattern in patterns):
                found.add(path.resolve())
    return sorted(found)


def _starts(config: pytest.Config) -> list[Path]:
    """Where the run collects: its arguments (a node id's file), else its testpaths, inside the rootdir."""
    root = config.rootpath.resolve()
    given = [arg.split("::", 1)[0] for arg in config.args if not arg.startswith("-")]
    paths = [(config.invocation_params.dir / arg).resolve() for arg in given]
    if not paths:
        paths = [(root / str(arg)).resolve() for arg in config.getini("testpaths")] or [root]
    return [path for path in paths if path == root or root in path.parents]


def rewrite_test_modules(config: pytest.Config, modules: Iterable[Path] | None = None) -> list[Path]:
    """Write the rewritten pyc of each module (by default :func:`test_modules`) that has no current
    one; return the modules rewritten. Nothing where pytest does not rewrite assertions (``--assert=plain``), may
    not write bytecode (``PYTHONDONTWRITEBYTECODE``), or lacks the functions its hook uses."""
    if config.getoption("assertmode", "rewrite") != "rewrite" or sys.dont_write_bytecode:
        return []
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
            try_makedirs,
        )

        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return []
    rewritten = []
    for module in test_modules(config) if modules is None else modules:
        cache = get_cache_dir(module)
        pyc = cache / (module.name[:-3] + PYC_TAIL)
        if _read_pyc(module, pyc) is not None or not try_makedirs(cache):
            continue
        try:
            source_hash, code = _rewrite_test(module, config)
        except (OSError, SyntaxError, ValueError):
            continue  # the worker that imports it reports it, as pytest does
        if _write_pyc(state, code, source_hash, pyc):
            rewritten.append(module)
    return rewritten


def starts_workers(config: pytest.Config) -> bool:
    """Whether this process is a pytest-xdist controller about to start workers (``-n 3``)."""
    if hasattr(config, "workerinput"):
        return False
    workers = config.getoption("numprocesses", None)
    return workers not in (None, 0, "0")
