"""civrules' own sdist and wheel hold the files pyproject.toml lists, and nothing else lying in the
checkout (compiler/tools/package_files.py).

Hatchling took every file of the folder that no ``.gitignore`` names: round 35's packaging trial
found a ``notes.txt`` and a ``scratch/try.py`` in civrules' sdist, and a module left in
``compiler/civrules/`` went into the wheel, as did a designer's own ruleset in ``rules/rulesets/``
(the README's five-minute variant, made in the project's folder), installed as a ruleset civrules
ships. Its default licence globs took a ``NOTICE`` or ``AUTHORS`` file lying there as a licence.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest

import civrules
from tests.conftest import REPO

#: What a checkout may hold beside civrules' files: notes, a scratch module at the top and in the
#: package, a designer's variant, a schema of one's own, files hatchling's licence globs match.
#: (Each a folder and a name: a path of this project written whole must exist, tests/core/test_docs.py.)
STRAYS = tuple(
    "/".join(parts)
    for parts in (
        ("notes.txt",),
        ("scratch", "try.py"),
        ("compiler/civrules", "stray.py"),
        ("compiler/civrules/checks", "try_check.py"),
        ("rules/rulesets", "my-variant.yaml"),
        ("schemas", "mine.schema.json"),
        ("NOTICE",),
        ("AUTHORS.md",),
        ("COPYING",),
    )
)

#: The files of the checkout that are not listed and that an sdist holds: its metadata, the readme
#: and licence it names, and the ignore files hatchling puts in every sdist.
SDIST_EXTRAS = ("pyproject.toml", "README.md", "LICENSE", ".gitignore", ".hgignore")

#: Where the wheel puts each listed folder (pyproject.toml, `[tool.hatch.build.targets.wheel] sources`).
INSTALLED_AS = {"compiler/civrules/": "civrules/", "rules/": "civrules/_rules/", "schemas/": "civrules/_schemas/"}


def _git_checkout() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the list is held to the files git tracks")


def _tracked() -> list[str]:
    from tools import package_files

    return package_files.tracked(REPO)


def _installed(path: str) -> str:
    return next(to + path.removeprefix(root) for root, to in INSTALLED_AS.items() if path.startswith(root))


def _checkout_with_strays(tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of what a build reads from the checkout (the tracked files of the listed folders and
    the files at the top), with :data:`STRAYS` beside them."""
    tracked = _tracked()
    root = tmp_path / "civrules"
    for name in (*tracked, *SDIST_EXTRAS):
        if (REPO / name).is_file():  # the base had no LICENSE
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / name, root / name)
    for name in STRAYS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("id: stray\n" if name.endswith(".yaml") else "stray\n", encoding="utf-8")
    return root, tracked


def test_the_listed_files_are_the_files_git_tracks() -> None:
    """A module added to civrules (or a ruleset, or a schema) is listed too: `make package-files`;
    and nothing lies in this checkout that hatchling would read or take beyond the list."""
    _git_checkout()
    from tools import package_files

    text = package_files.PYPROJECT.read_text(encoding="utf-8")
    assert package_files.render(text, _tracked()) == text, "run `make package-files`"
    assert package_files.main(["--check"]) == 0


def test_a_build_takes_the_listed_files_and_no_stray_beside_them(tmp_path: Path) -> None:
    """What hatchling puts in the sdist and the wheel, asked without writing either (the archives
    themselves: the slow test below)."""
    _git_checkout()
    from hatchling.builders.sdist import SdistBuilder
    from hatchling.builders.wheel import WheelBuilder

    root, tracked = _checkout_with_strays(tmp_path)
    wheel = WheelBuilder(str(root))
    assert sorted(f.distribution_path for f in wheel.recurse_included_files()) == sorted(map(_installed, tracked))
    assert wheel.metadata.core.license_files == ["LICENSE"]
    assert wheel.metadata.core.license_expression == "MIT"
    sdist = SdistBuilder(str(root))
    assert sorted(f.distribution_path for f in sdist.recurse_included_files()) == tracked
    forced = sdist.get_default_build_data()["force_include"]
    assert sorted(forced.values()) == sorted(SDIST_EXTRAS)
    assert all(Path(path) == root / name for path, name in forced.items())  # the checkout's own


def test_the_check_names_each_file_hatchling_would_read_or_take_beyond_the_list(tmp_path: Path) -> None:
    """Round 36: no option of pyproject.toml stops hatchling reading a `hatch.toml` at the root as
    configuration (its `[build]` table replaced the list: every file of the checkout went in) or
    copying a `hatch_build.py` into the sdist, nor copying the first `.hgignore` found from the
    checkout upward (a home folder's went into civrules' sdist). The tracked, empty `.hgignore`
    stops the last; `python -m tools.package_files --check`, run by the test above in `make test` and CI,
    fails on the others, naming each file and saying what to do."""
    from tools import package_files

    # A checkout of three of civrules' files (its pyproject.toml listing them), with the strays.
    root = tmp_path / "civrules"
    files = [
        "compiler/civrules/__init__.py",
        "rules/rulesets/advanced-civilization.yaml",
        "schemas/ruleset.schema.json",
    ]
    for name in (*files, *SDIST_EXTRAS):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / name, root / name)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(package_files.render(pyproject.read_text(encoding="utf-8"), files), encoding="utf-8")
    for name in STRAYS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("stray\n", encoding="utf-8")
    (tmp_path / ".hgignore").write_text("syntax: glob\nsecret/\n", encoding="utf-8")  # the folder above
    assert package_files.stray_files(root) == []  # the strays beside the listed files are not taken

    (root / ".hgignore").unlink()
    (above,) = package_files.stray_files(root)
    assert above == (
        f"{tmp_path / '.hgignore'}: hatchling would copy it into civrules' sdist as `.hgignore`, civrules' own "
        "being missing: restore it (`git checkout -- .hgignore`)"
    )

    (root / ".hgignore").write_text("", encoding="utf-8")
    (root / "hatch.toml").write_text('[build]\nexclude = ["schemas"]\n', encoding="utf-8")
    (root / "hatch_build.py").write_text("stray\n", encoding="utf-8")
    hatch_toml, hatch_build, consequence = package_files.stray_files(root)
    assert hatch_toml.startswith("hatch.toml: hatchling reads it as build configuration") and "delete it" in hatch_toml
    assert hatch_build.startswith("hatch_build.py: hatchling copies it into the sdist") and "delete it" in hatch_build
    assert consequence.startswith("with them, hatchling would take ")
    assert " files beyond the list and leave out " in consequence

    (root / "hatch.toml").unlink()
    (root / "hatch_build.py").unlink()
    (root / "compiler/civrules/__init__.py").unlink()  # deleted, still tracked: the list keeps it
    assert package_files.stray_files(root) == [
        "hatchling would leave out 1 listed file, not in the checkout: compiler/civrules/__init__.py "
        "(restore it with `git checkout -- FILE`, or remove it with `git rm FILE`, then `make package-files`)"
    ]


@pytest.mark.slow
def test_the_sdist_and_wheel_built_beside_strays_hold_the_listed_files(tmp_path: Path) -> None:
    """The archives: the sdist holds the listed files, the readme, the licence and the metadata; the
    wheel the listed files at their import paths and the licence; a wheel built from the unpacked
    sdist (as `python -m build` and pip do) is the same bytes as one built from the checkout."""
    _git_checkout()
    from hatchling.builders.sdist import SdistBuilder
    from hatchling.builders.wheel import WheelBuilder

    root, tracked = _checkout_with_strays(tmp_path)
    out = tmp_path / "dist"
    sdist = Path(next(iter(SdistBuilder(str(root)).build(directory=str(out), versions=["standard"]))))
    wheel = Path(next(iter(WheelBuilder(str(root)).build(directory=str(out), versions=["standard"]))))
    top = f"civrules-{civrules.__version__}"
    with tarfile.open(sdist) as archive:
        held = sorted(member.name for member in archive.getmembers() if member.isfile())
        archive.extractall(tmp_path / "unpacked", filter="data")
    assert held == sorted(f"{top}/{name}" for name in (*tracked, *SDIST_EXTRAS, "PKG-INFO"))
    info = f"{top}.dist-info"
    dist_info = ("METADATA", "WHEEL", "RECORD", "entry_points.txt", "licenses/LICENSE")
    with zipfile.ZipFile(wheel) as archive:
        built = {name: archive.read(name) for name in archive.namelist()}
    assert sorted(built) == sorted([*map(_installed, tracked), *(f"{info}/{name}" for name in dist_info)])
    assert built[f"{info}/licenses/LICENSE"] == (REPO / "LICENSE").read_bytes()
    metadata = built[f"{info}/METADATA"].decode()
    assert "License-Expression: MIT\n" in metadata and "License-File: LICENSE\n" in metadata

    again = tmp_path / "again"
    from_sdist = Path(
        next(iter(WheelBuilder(str(tmp_path / "unpacked" / top)).build(directory=str(again), versions=["standard"])))
    )
    with zipfile.ZipFile(from_sdist) as archive:
        assert {name: archive.read(name) for name in archive.namelist()} == built
