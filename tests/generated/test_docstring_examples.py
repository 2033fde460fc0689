"""What a generated module's docstrings show an engine developer running is what runs: every
example (``>>>``) in every module of every package and runtime under ``generated/python`` is run
as a doctest, against the package it documents (in process; each package's helpers state their own
ruleset's values; those run with the slow tests)."""

from __future__ import annotations

import doctest
import importlib
import sys

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))


def documented_modules() -> list[str]:
    """Every module under generated/python whose source shows an example, by its import name."""
    found = []
    for path in shipped.built("python/**/*.py"):  # never a designer's variant built beside them
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(GENERATED).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = documented_modules()
#: The runtimes' examples run in the fast suite; a package's (its helpers') import the package's
#: data, about a second of CPU each, and run with the slow tests (Imperial Settlers' fast, in
#: tests/families/imperial_settlers/test_engine_package.py).
CASES = [
    pytest.param(name, marks=pytest.mark.slow) if name.startswith("civrules_rulesets.") else name for name in MODULES
]


def test_the_examples_are_found_in_every_package_and_runtime_that_shows_one() -> None:
    assert len(MODULES) >= 13
    assert {name.split(".")[0] for name in MODULES} >= {
        "civrules_runtime",
        "civrules_runtime_advanced_civilization",
        "civrules_rulesets",
    }


@pytest.mark.parametrize("name", CASES)
def test_each_docstring_example_gives_what_it_shows(name: str) -> None:
    module = importlib.import_module(name)
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False, verbose=False)
    assert tried > 0
    assert failed == 0, f"run: python -m doctest -v generated/python/{name.replace('.', '/')}.py"
