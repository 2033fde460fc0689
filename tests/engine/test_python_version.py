"""The packages need Python 3.11 (every generated distribution's requires-python). Put on an older
Python's path (``PYTHONPATH=generated/python`` with Python 3.10), the runtime failed deep inside its
own modules, ``ImportError: cannot import name 'EnumType' from 'enum'``, saying nothing of the
Python it needs (round 34). Importing a package, or a runtime, there says so first. The older
Python is played in process: ``sys.version_info`` is what the runtime reads."""

from __future__ import annotations

import importlib
import re
import sys

import pytest

from civrules.emit.pyproject import REQUIRES_PYTHON
from tests.conftest import REPO
from tests.variant_packages import packages_of

GENERATED = REPO / "generated" / "python"
SOURCE = REPO / "compiler" / "civrules" / "emit" / "runtime" / "__init__.py"


@pytest.mark.parametrize(
    "module", ["civrules_rulesets.imperial_settlers", "civrules_runtime_sid_meiers_civilization", "civrules_runtime"]
)
def test_an_older_python_is_told_the_python_the_packages_need(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with packages_of(GENERATED):  # fresh modules: the runtime's __init__ runs again
        monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
        with pytest.raises(ImportError, match=r"^civrules_runtime needs Python 3\.11 or later \(") as refused:
            importlib.import_module(module)
        assert refused.value.name == "civrules_runtime"
        assert sys.executable in str(refused.value)
        monkeypatch.undo()
        assert importlib.import_module(module).__name__ == module  # on this Python, it imports


def test_the_runtime_checks_the_python_every_distribution_requires() -> None:
    checked = re.search(r"_sys\.version_info < \((\d+), (\d+)\)", SOURCE.read_text(encoding="utf-8"))
    assert checked is not None
    assert f">={checked.group(1)}.{checked.group(2)}" == REQUIRES_PYTHON
    assert f"(its requires-python, {REQUIRES_PYTHON}," in SOURCE.read_text(encoding="utf-8")
