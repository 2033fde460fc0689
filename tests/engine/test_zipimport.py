"""The packages and runtimes imported from a zip file (``zipimport``: an engine shipped as one archive,
or a wheel put on ``sys.path`` without unpacking it): no module reads a file of its own by path, so
a package of each family imports, answers, pickles and reports its types from the archive as
from a folder (round 33's engine trial)."""

from __future__ import annotations

import importlib
import pickle
import typing
import zipfile
from pathlib import Path

from tests.conftest import REPO
from tests.engine.test_type_hints import PACKAGES
from tests.variant_packages import packages_of

GENERATED = REPO / "generated" / "python"


def _zipped(to: Path) -> Path:
    """generated/python's runtimes and a package of each family, their folders too (a namespace package is found in
    an archive by its folder's entry), as ``zip -r`` and a wheel hold them; no bytecode."""
    archive = to / "engine.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(GENERATED.rglob("*")):
            relative = path.relative_to(GENERATED).parts
            if "__pycache__" in relative or (
                relative[0] == "civrules_rulesets" and relative[1:2] and relative[1] not in PACKAGES
            ):
                continue
            zipped.write(path, path.relative_to(GENERATED).as_posix() + ("/" if path.is_dir() else ""))
    return archive


def test_every_package_imports_and_answers_from_a_zip(tmp_path: Path) -> None:
    archive = _zipped(tmp_path)
    with packages_of(archive):
        for package in PACKAGES:  # one of each family: their data modules compile from source here
            imported = importlib.import_module(f"civrules_rulesets.{package}")
            assert str(archive) in str(imported.__file__)
            assert typing.get_type_hints(imported)["__version__"] == typing.Final[str]
            for name in imported.__all__:
                value = getattr(imported, name)
                if not callable(value):
                    assert pickle.loads(pickle.dumps(value)) == value, (package, name)
        ac = importlib.import_module("civrules_rulesets.advanced_civilization")
        assert ac.purchase_cost(["drama_and_poetry", "architecture", "literacy"], "democracy") == 155
        runtime = importlib.import_module("civrules_runtime")
        assert str(archive) in str(runtime.__file__)
