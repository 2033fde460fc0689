"""Every committed package, of every family: its version is the one its API manifest decided, the
manifest describes the package as committed, it names its base, and it depends on its runtimes only."""

from __future__ import annotations

import ast
import functools
import json
import tomllib
from collections.abc import Mapping

import pytest
import yaml

from civrules.emit import versions
from civrules.emit.packaging import import_name
from civrules.emit.pyfmt import Declarations
from tests import shipped
from tests.conftest import REPO, RULES

GENERATED = REPO / "generated" / "python"
#: The shipped rulesets' packages (tests/shipped.py: never a designer's variant built beside them).
PACKAGES = shipped.package_names()


def _constant(source: str, name: str) -> object:
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            assert node.value is not None
            return ast.literal_eval(node.value)
    raise AssertionError(f"no {name}")


#: libyaml's loader where PyYAML has it: the manifests are read when the module is collected (for
#: :data:`RULESET_IDS`), in every pytest process; PyYAML's pure-Python loader took 0.33 s of CPU
#: for them (300 KB), libyaml's 0.04 s, for the same data.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def _manifests() -> list[dict[str, object]]:
    loaded = (yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) for path in shipped.manifests())
    return [data for data in loaded if isinstance(data, dict) and isinstance(data.get("id"), str)]


def _extends(ruleset_id: str) -> str | None:
    data = next(data for data in _manifests() if data["id"] == ruleset_id)
    extends = data.get("extends")
    return extends if isinstance(extends, str) else None


def _ruleset_id(package: str) -> str:
    return next(str(data["id"]) for data in _manifests() if import_name(str(data["id"])) == package)


@pytest.mark.parametrize("name", PACKAGES)
def test_version_manifest_base_and_dependencies(name: str) -> None:
    folder = GENERATED / "civrules_rulesets" / name
    source = (folder / "__init__.py").read_text(encoding="utf-8")
    version = _constant(source, "__version__")
    assert isinstance(version, str) and versions._is_version(version)
    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    manifest = json.loads((folder / versions.MANIFEST).read_text(encoding="utf-8"))
    assert project["version"] == version == manifest["version"]

    # The manifest is the API of the package as committed (with the version put back as rendered).
    files = {}
    for path in folder.iterdir():
        if not path.is_file():  # __pycache__ of the tests that imported the package
            continue
        content = path.read_bytes()
        if path.name in ("__init__.py", "pyproject.toml"):
            content = content.replace(f'"{version}"'.encode(), f'"{versions.UNVERSIONED}"'.encode())
        files[f"civrules_rulesets/{name}/{path.name}"] = content
    api = versions.package_api(files, f"civrules_rulesets/{name}")
    assert manifest["package"] == f"civrules_rulesets.{name}"
    assert (manifest["names"], manifest["ids"], manifest["digest"]) == (
        dict(api.names),
        {k: list(v) for k, v in api.ids.items()},
        api.digest,
    )
    assert "__version__" in manifest["names"] and "BASE_RULESET" in manifest["names"]

    # A variant names its base (None for a ruleset that extends none).
    assert _constant(source, "BASE_RULESET") == _extends(_ruleset_id(manifest["package"]))
    # The standard library and the two runtimes: never another ruleset's package, not even the base's.
    requirements = [r.split(">")[0].split("=")[0].strip() for r in project["dependencies"]]
    assert requirements[0] == "civrules-runtime" and requirements[1].startswith("civrules-runtime-")
    assert len(requirements) == 2


#: The shipped rulesets, by id: each package's folder name is its id's.
RULESET_IDS = sorted(shipped.RULESETS)


@functools.cache
def _rendered(ruleset_id: str) -> tuple[dict[str, bytes], Mapping[str, Declarations] | None]:
    """The package of a shipped ruleset as its family renders it in this process, and what its
    modules declare as the family's emitter wrote them."""
    from civrules.emit.export import export_ruleset
    from civrules.emit.runtimes import PackageFiles
    from civrules.families import family_named
    from civrules.pipeline import analyse, derived_facts
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace()
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    family = family_named(analysis.model.family)
    render = family.hook("package") if family is not None else None
    assert render is not None
    files = render(analysis.model, export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model)))
    return dict(files), files.declared if isinstance(files, PackageFiles) else None


def _folder(ruleset_id: str) -> str:
    return f"civrules_rulesets/{import_name(ruleset_id).rpartition('.')[2]}"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_what_a_data_module_was_written_to_declare_is_what_it_declares(ruleset_id: str) -> None:
    """A build versions a package without parsing its data module back: each of its statements
    declares what the target it was written from says (``NAME: ANNOTATION``, a bare ``Final`` of
    a constant typed by the constant). For every shipped ruleset that is the API the modules
    declare, parsed whole: name by name, type by type, id by id. An annotation the emitter writes in
    another form than the parser reads it back (``Mapping[str,Card]``), or a statement whose
    target is recorded otherwise than written, fails here."""
    files, declared = _rendered(ruleset_id)
    assert declared is not None and set(declared) == {"data.py"}, "the family's data module declares nothing"
    folder = _folder(ruleset_id)
    assert declared["data.py"].size == len(files[f"{folder}/data.py"])
    assert versions.package_api(files, folder, declared) == versions.package_api(files, folder)


def test_a_module_of_other_bytes_than_its_declarations_were_written_for_is_parsed() -> None:
    """Declarations are read only for the module they were made with (of its length): a module
    changed since is parsed, and what it declares now is what its API says."""
    files, declared = _rendered("imperial-settlers")
    assert declared is not None
    folder = _folder("imperial-settlers")
    data = files[f"{folder}/data.py"]
    changed = {**files, f"{folder}/data.py": data.replace(b"DRAFT: Final[bool] = ", b"DRAFT: Final[object] = ")}
    assert versions.package_api(changed, folder, declared).names["DRAFT"] == "Final[object]"


def test_a_build_parses_the_templated_modules_and_only_the_head_of_each_data_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Parsing the data modules a build has just rendered (456 KB for the largest shipped ruleset)
    was most of its versioning: a build of one ruleset of each family parses each package's
    templated modules (``__init__``, ``ids``, ``helpers``: a few KB) and of its data module only the
    head before its first table (its imports and the maker of each record class it makes: 6 KB at
    most), and writes the manifests a whole parse would (the committed ones, as nothing changed)."""
    from civrules.emit.build import render
    from civrules.load.workspace import Workspace

    parsed: list[bytes] = []
    parse = versions._declarations

    def counted(source: bytes) -> ast.Module:
        parsed.append(source)
        return parse(source)

    monkeypatch.setattr(versions, "_declarations", counted)
    workspace = Workspace(RULES)
    manifests = workspace.manifests()
    chosen = ["mega-civilization", "imperial-settlers", "sid-meiers-civilization"]
    result = render(workspace, [workspace.load_ruleset(manifests[name]) for name in chosen], out=REPO / "generated")
    assert not result.failed
    data_modules = [result.tree[f"python/{_folder(name)}/data.py"] for name in chosen]
    heads = [source for source in parsed if any(data.startswith(source) for data in data_modules)]
    assert len(parsed) == 4 * len(chosen) and len(heads) == len(chosen)
    for head in heads:
        assert b"RULESET_ID" not in head and len(head) < 8192, head[-200:]
    for name in chosen:
        at = f"python/{_folder(name)}/{versions.MANIFEST}"
        assert result.tree[at] == (REPO / "generated" / at).read_bytes(), at
