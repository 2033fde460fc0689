"""A view with assumptions is its family's ``RulesetPackage`` for mypy --strict, with no ``type:
ignore`` anywhere (issue 28 point 6): the engine code of ``assumed_engine.py`` type-checks and runs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

FILE = REPO / "tests" / "engine" / "assumed_engine.py"
GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))


def test_engine_code_runs_on_the_views_of_every_family() -> None:
    from tests.engine import assumed_engine

    law, finish, pottery, income = assumed_engine.run()
    assert (law, finish, pottery) == (170, 16, True)
    assert income == {"defence": 1, "raze": 1, "wood": 2, "worker": 4}


@pytest.mark.slow
def test_mypy_accepts_the_views_as_the_protocols_without_an_ignore() -> None:
    sources = [FILE.read_text(encoding="utf-8")]
    for family in (
        "emit/runtime",
        *(f"families/{f}/runtime" for f in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")),
    ):
        folder = REPO / "compiler" / "civrules" / family
        sources += [
            path.read_text(encoding="utf-8")
            for path in (folder / "assumed.py", folder / "assumptions.py")
            if path.exists()
        ]
    assert all("type: ignore" not in source for source in sources)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "tests/engine/assumed_engine.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
