"""civrules as a user installs it: a wheel, outside the repository.

The source tree is a src layout (``compiler/civrules``); what ships is the wheel hatch builds from
it, with the schemas inside (``civrules/_schemas``), the compiled validators and templates, and each
family's templates and runtime sources. This builds the wheel, installs it into a folder of its
own and runs it from another folder, so nothing of the checkout can stand in for what is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_shipped


@pytest.mark.slow
def test_the_installed_wheel_works_outside_the_repository(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO)],
        check=True,
        timeout=600,
    )
    (wheel,) = wheels.glob("civrules-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "civrules/_schemas/ruleset.schema.json" in names
    assert "civrules/py.typed" in names
    assert not [n for n in names if n.startswith(("compiler/", "tools/", "tests/"))], "only the package ships"
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(site), str(wheel)],
        check=True,
        timeout=600,
    )
    elsewhere = tmp_path / "elsewhere"
    copy_shipped(elsewhere / "rules")
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")},
        "PYTHONPATH": str(site),
        "CIVRULES_CACHE_DIR": str(tmp_path / "cache"),
    }

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *command], cwd=elsewhere, env=environment, capture_output=True, text=True, timeout=300
        )

    where = run("-c", "import civrules, civrules.schema; print(civrules.__file__); print(civrules.schema.schema_dir())")
    assert where.returncode == 0, where.stderr
    module, schemas = where.stdout.split()
    assert Path(module).is_relative_to(site) and Path(schemas) == site / "civrules" / "_schemas"
    assert run("-m", "civrules", "validate").returncode == 0
    built = run("-m", "civrules", "build", "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "out" / "sheets" / "advanced-civilization" / "credit-table.html").is_file()
    assert (tmp_path / "out" / "python" / "civrules_rulesets" / "advanced_civilization" / "helpers.py").is_file()
    # What the wheel builds is what the checkout committed, byte for byte.
    shutil.copytree(REPO / "generated", elsewhere / "generated")
    checked = run("-m", "civrules", "build", "--check")
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    listed = run("-m", "civrules", "list", "--families")
    assert listed.returncode == 0 and listed.stdout.startswith("advanced-civilization"), listed.stdout
    # The shipped rulesets are package data: a rule-data repository extends one without a copy.
    assert "civrules/_rules/rulesets/advanced-civilization.yaml" in names
    variant = tmp_path / "variant"
    (variant / "rules" / "rulesets").mkdir(parents=True)
    alone = {k: v for k, v in environment.items() if k != "CIVRULES_NO_SHIPPED"}
    made = subprocess.run(
        [sys.executable, "-m", "civrules", "new-variant", "house", "--extends", "advanced-civilization"],
        cwd=variant,
        env=alone,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    checked = subprocess.run(
        [sys.executable, "-m", "civrules", "validate", "--format", "json"],
        cwd=variant,
        env=alone,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    assert {d["file"] for d in json.loads(checked.stdout)} == {"rules/rulesets/house.yaml"}
