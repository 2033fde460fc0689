"""Every generated distribution's metadata is written by a TOML serializer and read back: it parses
(tomllib), validates as package metadata (PEP 621, validate-pyproject), names its folder, and
depends on nothing but civrules' runtimes; a name that Python quoting broke (a no-break space, a
soft hyphen, more `"` than `'`) comes back exactly. The slow test builds and installs a wheel of
every package and imports each, and checks that no installed file lies outside civrules' names;
then an engine outside the repository, typed with `mypy --strict` against what is installed (each
distribution's `py.typed`, nothing from the clone), uses two families at once and subclasses a record.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from civrules.emit.build import _package_problem
from civrules.emit.packaging import NAMESPACE, RUNTIME, package_folder
from civrules.emit.pyproject import (
    VCS_IGNORE,
    VCS_IGNORE_FILES,
    Distribution,
    docstring,
    render_pyproject,
    verify_pyproject,
)
from tests import shipped
from tests.conftest import GENERATED_PYTHON, REPO

PIP = (sys.executable, "-m", "pip")
#: The runtimes' and the shipped rulesets' metadata (tests/shipped.py: never a designer's variant
#: built beside them, which `make` builds too).
PYPROJECTS = shipped.built("python/**/pyproject.toml")


def folder_of(pyproject: Path) -> str:
    return pyproject.parent.relative_to(GENERATED_PYTHON).as_posix()


def test_every_package_and_runtime_has_metadata() -> None:
    folders = {folder_of(p) for p in PYPROJECTS}
    assert RUNTIME in folders and f"{NAMESPACE}/advanced_civilization" in folders
    assert len([f for f in folders if f.startswith(f"{NAMESPACE}/")]) == 11  # every shipped ruleset
    assert not (GENERATED_PYTHON / NAMESPACE / "__init__.py").exists()  # a namespace package: nobody owns it


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=folder_of)
def test_each_pyproject_parses_back_and_validates_as_metadata(pyproject: Path) -> None:
    content = pyproject.read_bytes()
    assert verify_pyproject(content) is None
    data = tomllib.loads(content.decode("utf-8"))
    folder = folder_of(pyproject)
    project = data["project"]
    wheel = data["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["sources"] == {"": folder}  # the wheel installs the files at their import path
    assert set(wheel["only-include"]) <= {p.name for p in pyproject.parent.iterdir()}
    assert all(dependency.startswith("civrules-runtime") for dependency in project["dependencies"])
    if folder.startswith(f"{NAMESPACE}/"):
        ruleset_id = folder.partition("/")[2].replace("_", "-")
        assert project["name"] == f"civrules-rulesets-{ruleset_id}"  # the words of its import path
        assert len(project["dependencies"]) == 2  # the shared runtime and the family's


@pytest.mark.parametrize(
    "name",
    [
        "Advanced\u00a0Civilization",  # a no-break space
        "Civ\u00adilization",  # a soft hyphen
        'The "Big" "House" "Rules" don\'t',  # more " than '
        "Back\\slash \"\"\" ''' [table] # not a comment",
        "Tab\tand\nnew line\u2028and a separator",
        "\u202eright-to-left \U0001f3b2",
    ],
)
def test_a_hostile_name_comes_back_exactly(name: str) -> None:
    written = render_pyproject(
        Distribution(
            name="civrules-house",
            version="1.0.0+abc",
            description=f"{name}: the rules",
            dependencies=("civrules-runtime>=2,<3",),
            folder=package_folder("house"),
            files=("__init__.py",),
            what="a test",
        )
    )
    assert verify_pyproject(written) is None
    assert tomllib.loads(written.decode("utf-8"))["project"]["description"] == " ".join(f"{name}: the rules".split())


def test_metadata_that_is_not_toml_or_not_metadata_is_named() -> None:
    assert "not TOML" in (verify_pyproject(b'[project]\nname = "a\nb"\n') or "")
    problem = verify_pyproject(b'[project]\nname = "not a name!"\nversion = "1"\n')
    assert problem is not None and "metadata" in problem
    # A family's hook renders it: nested past tomllib's recursion is named too, not an internal error.
    assert "not TOML" in (verify_pyproject(b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n") or "")


def test_civrules_depends_on_what_the_metadata_validator_reads_license_expressions_with() -> None:
    """validate-pyproject judges a license expression (`license = "MIT"`, PEP 639) with `packaging`,
    an extra of its own (`validate-pyproject[all]`): installed without it, as civrules' wheel was, the
    check passes any expression, and the validator's import prints "Could not find an up-to-date
    installation of `packaging`" on standard error, at every `civrules build` and `build --check`
    of a pre-commit hook or a CI job. civrules asks for it at the validator's own least version."""
    wanted = [
        requirement.partition(";")[0]
        for requirement in importlib.metadata.requires("validate-pyproject") or []
        if re.match(r"packaging\b", requirement)
    ]
    assert wanted, "validate-pyproject no longer reads `packaging`: drop it from civrules' dependencies"
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert set(wanted) <= {requirement.replace(" ", "") for requirement in declared}
    problem = verify_pyproject(b'[project]\nname = "a"\nversion = "1"\nlicense = "not a licence ((("\n')
    assert problem is not None and "license" in problem  # the expression is judged where civrules runs


def test_the_metadata_tables_are_judged_and_other_tools_tables_left_to_their_tools() -> None:
    """[build-system] and [project] (PEP 517, 621: what a generated file is made of) are judged
    whatever plugins validate-pyproject has beside it; another tool's table is that tool's to read."""
    assert "build-system.requires" in (verify_pyproject(b'[build-system]\nrequires = "hatchling"\n') or "")
    problem = verify_pyproject(b'[project]\nname = "x"\nversion = "1"\ndependencies = ["not a requirement!!"]\n')
    assert problem is not None and "project.dependencies" in problem
    assert verify_pyproject(b'[project]\nname = "x"\nversion = "1"\n[tool.setuptools]\npackages = 3\n') is None


def _second_build(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str], list[str]]:
    """What the second of two builds of one ruleset in one process validated (the distributions'
    names), read of the runtimes' sources and read of the shipped static files (their names)."""
    from importlib import resources

    from civrules.emit import pyproject
    from civrules.emit.build import render
    from civrules.load.workspace import Workspace
    from tests.conftest import RULES

    validate = pyproject._validator()
    validated: list[str] = []
    read: list[str] = []
    shipped: list[str] = []

    def counted(document: dict[str, Any]) -> object:
        validated.append(str(document["project"]["name"]))
        return validate(document)

    read_bytes = Path.read_bytes

    def counted_read(path: Path) -> bytes:
        if "runtime" in path.parent.name:
            read.append(path.name)
        return read_bytes(path)

    files = resources.files

    def counted_files(package: Any) -> Any:
        shipped.append(str(package))
        return files(package)

    monkeypatch.setattr(pyproject, "_validator", lambda: counted)
    monkeypatch.setattr(Path, "read_bytes", counted_read)
    monkeypatch.setattr(resources, "files", counted_files)
    workspace = Workspace(RULES)
    manifest = workspace.manifests()["imperial-settlers"]
    for _ in range(2):
        for calls_made in (validated, read, shipped):
            calls_made.clear()
        result = render(workspace, [workspace.load_ruleset(manifest)])
        assert not result.failed and any(path.startswith("python/civrules_runtime/") for path in result.tree)
    return validated, read, shipped


def test_a_process_makes_each_runtime_and_helper_file_once_and_each_ruleset_at_every_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The runtimes and the helper page's shipped scripts are civrules' own, the same at every build
    of a process (the language server, ``watch``): the second build validates only the ruleset's
    metadata, which its data can change, and reads no runtime source and no shipped script again."""
    validated, read, shipped = _second_build(monkeypatch)
    assert validated == ["civrules-rulesets-imperial-settlers"]
    assert read == []
    assert shipped == []


def test_a_family_writes_its_package_and_nothing_else() -> None:
    """The build refuses (R900, nothing written) a package hook that writes outside its folder,
    metadata that does not validate, or metadata naming another distribution than the ruleset's."""
    good = render_pyproject(
        Distribution("civrules-rulesets-x", "1.0", "X", (), package_folder("x"), ("__init__.py",), "a test")
    )
    assert (
        _package_problem(
            "x", "dice", {"civrules_rulesets/x/__init__.py": b"", "civrules_rulesets/x/pyproject.toml": good}
        )
        is None
    )
    for path in ("pip/__init__.py", "civrules_rulesets/y/__init__.py", "civrules_rulesets/x/../../pip.py"):
        assert "outside" in (_package_problem("x", "dice", {path: b""}) or "")
    bad = {"civrules_rulesets/x/pyproject.toml": b'[project]\nname = "x x"\n'}
    assert "metadata" in (_package_problem("x", "dice", bad) or "")
    # Its distribution is the ruleset's, never a name the family chose (its own, another project's).
    for name in ("civrules-example-family", "civrules-x", "pip", "civrules-rulesets-y"):
        taken = render_pyproject(Distribution(name, "1.0", "X", (), package_folder("x"), ("__init__.py",), "a test"))
        said = _package_problem("x", "dice", {"civrules_rulesets/x/pyproject.toml": taken}) or ""
        assert f"named the distribution of `x` `{name}`, not `civrules-rulesets-x`" in said, said
    spelled = good.replace(b'"civrules-rulesets-x"', b'"Civrules_Rulesets.X"')  # as pip reads it: the same
    assert _package_problem("x", "dice", {"civrules_rulesets/x/pyproject.toml": spelled}) is None
    unnamed = b'[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
    assert "named the distribution of `x` nothing" in (
        _package_problem("x", "dice", {"civrules_rulesets/x/pyproject.toml": unnamed}) or ""
    )


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=folder_of)
def test_an_editable_install_puts_on_the_path_only_the_folder_of_civrules_names(
    pyproject: Path, tmp_path: Path
) -> None:
    """`pip install -e` of a generated folder (the editable wheel its backend builds, in process) adds
    to `sys.path` the folder its import path starts in, `generated/python/`, which holds civrules'
    names only. Hatchling's default put the package's own folder there: its modules became top-level
    ones (`import records`, `settings`, `data`, `helpers` found civrules' files, shadowing any other
    program's) while `civrules_runtime` itself did not import; and it needed `editables`, which an
    offline `--no-build-isolation` install with hatchling alone lacks."""
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    built = next(iter(WheelBuilder(str(pyproject.parent)).build(directory=str(tmp_path), versions=["editable"])))
    with zipfile.ZipFile(built) as archive:
        written = [name for name in archive.namelist() if not name.startswith(f"{Path(built).name.split('-')[0]}-")]
        entries = [
            line
            for name in written
            if name.endswith(".pth")
            for line in archive.read(name).decode("utf-8").splitlines()
            if line.strip()
        ]
    assert [name for name in written if not name.endswith(".pth")] == []  # no import hook, no module of its own
    assert entries and not [line for line in entries if line.startswith("import")]
    assert {Path(entry).resolve() for entry in entries} == {GENERATED_PYTHON.resolve()}
    for child in GENERATED_PYTHON.iterdir():
        assert child.name in (NAMESPACE, RUNTIME) or child.name.startswith(f"{RUNTIME}_"), child.name


def copy_into_a_checkout(pyproject: Path, checkout: Path, gitignore: str | None) -> Path:
    """The distribution's folder copied where it lies in a designer's checkout (a `.git` marks the
    checkout's root, where hatchling stops looking for a `.gitignore`), with that `.gitignore`."""
    (checkout / ".git").mkdir(parents=True)
    if gitignore is not None:
        (checkout / ".gitignore").write_text(gitignore, encoding="utf-8")
    folder = checkout / "generated" / "python" / folder_of(pyproject)
    folder.parent.mkdir(parents=True)
    shutil.copytree(pyproject.parent, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def build_sdist(folder: Path, out: Path) -> tuple[str, dict[str, bytes]]:
    """The sdist its backend builds (in process): its top folder and its files by path below it."""
    pytest.importorskip("hatchling")
    from hatchling.builders.sdist import SdistBuilder

    built = next(iter(SdistBuilder(str(folder)).build(directory=str(out))))
    files = {}
    with tarfile.open(built) as archive:
        for member in archive.getmembers():
            content = archive.extractfile(member) if member.isfile() else None
            if content is not None:
                files[member.name] = content.read()
    tops = {name.split("/")[0] for name in files}
    assert len(tops) == 1, tops
    top = tops.pop()
    return top, {name.partition("/")[2]: content for name, content in files.items()}


def declared_files(pyproject: Path) -> list[str]:
    """The files the distribution declares: those its wheel installs."""
    document = tomllib.loads(pyproject.read_text("utf-8"))
    return list(document["tool"]["hatch"]["build"]["targets"]["wheel"]["only-include"])


#: A ruleset's distribution and a runtime's.
TWO_KINDS = [PYPROJECTS[0], PYPROJECTS[-1]]
#: What an sdist holds beside the declared files: the metadata, and the ignore files civrules writes.
SDIST_ALSO = ("pyproject.toml", "PKG-INFO", *VCS_IGNORE_FILES)


@pytest.mark.parametrize("pyproject", TWO_KINDS, ids=folder_of)
def test_an_sdist_holds_the_declared_files_and_nothing_else_of_the_folder(pyproject: Path, tmp_path: Path) -> None:
    """A distribution's sdist (`python -m build`, `pip download`) holds the files its wheel declares,
    its pyproject.toml and PKG-INFO: it took every file of the folder, so the API manifest `api.json`,
    a designer's notes or a scratch module left there were published with it."""
    folder = copy_into_a_checkout(pyproject, tmp_path / "checkout", gitignore=None)
    (folder / "notes.txt").write_text("a designer's notes", encoding="utf-8")
    (folder / "scratch").mkdir()
    (folder / "scratch" / "try.py").write_text("print('scratch')\n", encoding="utf-8")
    _, files = build_sdist(folder, tmp_path / "dist")
    assert sorted(files) == sorted([*declared_files(pyproject), *SDIST_ALSO])
    for name in [*declared_files(pyproject), *VCS_IGNORE_FILES]:
        assert files[name] == (pyproject.parent / name).read_bytes(), name


@pytest.mark.parametrize("pyproject", TWO_KINDS, ids=folder_of)
def test_a_gitignore_above_the_folder_leaves_no_declared_file_out(pyproject: Path, tmp_path: Path) -> None:
    """A `.gitignore` in the designer's checkout naming one of the package's files (`data.py`: a
    scratch file of that name elsewhere) left it out of the sdist, and so out of a wheel built from
    that sdist (pip installing from an index that has the sdist only). The files are the declared
    ones whatever the checkout ignores. Hatchling copies into the sdist the first `.gitignore` and
    `.hgignore` it finds (no option turns that off): the checkout's own were published with it; the
    ones civrules writes beside the metadata, which ignore nothing, are found first."""
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    ignored = "\n".join([*declared_files(pyproject), "*.typed", "# the checkout's own", ""])
    folder = copy_into_a_checkout(pyproject, tmp_path / "checkout", gitignore=ignored)
    (tmp_path / "checkout" / ".hgignore").write_text(ignored, encoding="utf-8")
    top, files = build_sdist(folder, tmp_path / "dist")
    assert sorted(files) == sorted([*declared_files(pyproject), *SDIST_ALSO])
    assert {files[name] for name in VCS_IGNORE_FILES} == {VCS_IGNORE}  # civrules', not the checkout's
    unpacked = tmp_path / "unpacked" / top
    for name, content in files.items():
        (unpacked / name).parent.mkdir(parents=True, exist_ok=True)
        (unpacked / name).write_bytes(content)
    wheel = next(iter(WheelBuilder(str(unpacked)).build(directory=str(tmp_path / "wheel"))))
    with zipfile.ZipFile(wheel) as archive:
        installed = {name for name in archive.namelist() if ".dist-info/" not in name}
    assert installed == {f"{folder_of(pyproject)}/{name}" for name in declared_files(pyproject)}


@pytest.mark.parametrize("pyproject", PYPROJECTS, ids=folder_of)
def test_the_long_description_is_what_the_package_says_of_itself(pyproject: Path) -> None:
    """`pip show -v`, `importlib.metadata` and an index's page had no description beyond the summary
    (twine: "long_description missing"). It is the import package's docstring, as `help()` shows
    it, in plain text. No licence and no project URL: no source gives either."""
    project = tomllib.loads(pyproject.read_text("utf-8"))["project"]
    said = ast.get_docstring(ast.parse((pyproject.parent / "__init__.py").read_text("utf-8")))
    assert said
    assert project.get("readme") == {"text": said, "content-type": "text/plain"}
    assert not {"license", "license-files", "urls"} & set(project)


def test_the_docstring_read_is_the_modules_and_only_a_docstring() -> None:
    assert docstring(b'# -*- coding: utf-8 -*-\n# a comment\n\n"""Title.\n\n    Body."""\nx = 1\n') == "Title.\n\nBody."
    assert docstring(b"x = 1\n'''not a docstring'''\n") == ""
    assert docstring(b"") == ""
    assert docstring(b'"""never closed\n') == ""
    assert docstring(b"b'bytes'\n") == ""


@pytest.mark.slow
def test_a_wheel_of_every_package_builds_installs_and_imports(tmp_path: Path) -> None:
    """`pip wheel` of every folder with a pyproject (offline, no build isolation), installed together
    into a fresh environment: every package imports there, and every installed file lies in
    civrules' own names (the namespace, the runtimes, their dist-info)."""
    pytest.importorskip("hatchling")
    dist = tmp_path / "dist"
    offline = ("--no-deps", "--no-build-isolation", "--no-index")
    for pyproject in PYPROJECTS:
        built = subprocess.run(
            [*PIP, "wheel", "-q", *offline, "-w", str(dist), str(pyproject.parent)],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert built.returncode == 0, built.stderr
    wheels = sorted(dist.glob("*.whl"))
    assert len(wheels) == len(PYPROJECTS)
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                top = name.split("/")[0]
                assert top in (NAMESPACE, RUNTIME) or top.startswith((f"{RUNTIME}_", "civrules_")), (wheel.name, name)
                assert not name.startswith(f"{NAMESPACE}/__init__"), (wheel.name, name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [*PIP, "--python", str(python), "install", "-q", "--no-index", "--no-deps", *map(str, wheels)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    names = [folder_of(p).replace("/", ".") for p in PYPROJECTS]
    program = "import importlib\n" + "".join(f"importlib.import_module({n!r})\n" for n in names) + "print('ok')\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ran = subprocess.run(
        [str(python), "-I", "-c", program],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0 and ran.stdout.strip() == "ok", ran.stderr
    engine = tmp_path / "engine" / "engine.py"
    engine.parent.mkdir()
    engine.write_text(ENGINE, encoding="utf-8")
    played = subprocess.run(
        [str(python), "-I", str(engine)],
        capture_output=True, text=True, env=env, cwd=engine.parent, check=False, timeout=120,
    )  # fmt: skip
    assert played.returncode == 0 and played.stdout.split() == ["45", "200", "True", "5", "True"], played.stderr
    typed = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", str(python),
            "--config-file", os.devnull, "engine.py",
        ],
        capture_output=True, text=True, env={**env, "MYPYPATH": ""}, cwd=engine.parent, check=False, timeout=600,
    )  # fmt: skip
    assert typed.returncode == 0, typed.stdout + typed.stderr


@pytest.mark.slow
def test_editable_installs_import_and_make_no_module_of_theirs_top_level(tmp_path: Path) -> None:
    """The editable wheels of the shared runtime, a family runtime and a ruleset (built in process, as
    `pip install -e --no-build-isolation` has them built), installed by pip into a fresh environment:
    the package imports from generated/ and `import records` (a module of the runtime's folder) does not."""
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    folders = [f"{RUNTIME}", f"{RUNTIME}_imperial_settlers", package_folder("imperial-settlers")]
    wheels = [
        next(iter(WheelBuilder(str(GENERATED_PYTHON / folder)).build(directory=str(tmp_path), versions=["editable"])))
        for folder in folders
    ]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [*PIP, "--python", str(python), "install", "-q", "--no-index", "--no-deps", *wheels],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    program = (
        "import importlib.util, civrules_rulesets.imperial_settlers as rules\n"
        "print(rules.__file__, *(importlib.util.find_spec(n) is None for n in ('records', 'settings', 'data')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ran = subprocess.run(
        [str(python), "-I", "-c", program],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == [
        str(GENERATED_PYTHON / package_folder("imperial-settlers") / "__init__.py"),
        "True",
        "True",
        "True",
    ]


#: An engine of two families, written against the installed distributions only (typed, run).
ENGINE = """\
from __future__ import annotations

import copy
import typing
from typing import Any

from civrules_rulesets import advanced_civilization as ac
from civrules_rulesets import imperial_settlers as settlers
from civrules_rulesets.advanced_civilization.ids import CardIdName
from civrules_runtime import UnknownFactError
from civrules_runtime_advanced_civilization import RulesetPackage
from civrules_runtime_advanced_civilization.records import Card


class PricedCard(Card):
    __slots__ = ("price",)
    price: int

    def __init__(self, card: Card, price: int) -> None:
        fields: dict[str, Any] = card.asdict()
        super().__init__(**{name: getattr(card, name) for name in fields})
        object.__setattr__(self, "price", price)


def cheapest(rules: RulesetPackage) -> int | None:
    prices: list[int] = []
    for card in rules.CARDS:
        try:
            prices.append(rules.purchase_cost([], card))
        except UnknownFactError:
            continue
    return min(prices, default=None)


def cost(owned: list[CardIdName], target: CardIdName) -> int:
    return ac.purchase_cost(owned, target)


priced = PricedCard(ac.CARDS["law"], 5)
draft: bool = settlers.DRAFT
hints = typing.get_type_hints(ac)
same = copy.deepcopy(priced) == priced
print(cheapest(ac), cost(["law"], "democracy"), same, priced.price, hints["__version__"] == typing.Final[str])
"""


@pytest.mark.parametrize("pyproject", [p for p in PYPROJECTS if folder_of(p).startswith(RUNTIME)], ids=folder_of)
def test_each_runtime_says_the_version_its_distribution_has(pyproject: Path) -> None:
    """`civrules_runtime.__version__` (and each family runtime's) is its distribution's version: the
    packages pin the runtimes by it (a merge left the shared runtime's at 2.2.0 in a 2.3.0 wheel)."""
    import ast

    version = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    tree = ast.parse((pyproject.parent / "__init__.py").read_text(encoding="utf-8"))
    said = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
        and isinstance(node.value, ast.Constant)
    ]
    assert said == [version]


def test_no_runtime_holds_other_files_under_a_version_it_was_released_with() -> None:
    """Each runtime distribution civrules ships is the one the ledger records for its version
    (tools/runtimes.py): a new shared runtime moved every family runtime's requirement on it while
    their versions stayed, two distributions under one name and version, which pip never reinstalls."""
    from tools.runtimes import current, problems, read_ledger

    assert [problem for _, problem in problems(read_ledger(), current())] == []


def test_the_ledger_asks_for_a_step_where_files_changed_under_a_version_and_a_record_where_one_is_new() -> None:
    from tools.runtimes import RECORD, STEP, problems

    released = {"civrules_runtime": {"version": "2.1.0", "digest": "a"}, "gone": {"version": "1.0.0", "digest": "g"}}
    now = {
        "civrules_runtime": {"version": "2.1.0", "digest": "b"},  # changed, version kept
        "civrules_runtime_x": {"version": "1.0.0", "digest": "x"},  # new
    }
    found = problems(released, now)
    assert [asks for asks, _ in found] == [STEP, RECORD, RECORD]
    assert "civrules_runtime 2.1.0" in found[0][1] and "step its version" in found[0][1]
    assert problems(released, {**now, "civrules_runtime": {"version": "2.2.0", "digest": "b"}})[0][0] == RECORD
    same = {"civrules_runtime": {"version": "2.1.0", "digest": "a"}}
    assert problems(same, same) == []
