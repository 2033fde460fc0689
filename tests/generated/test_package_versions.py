"""Every committed package, of every family: its version is the one its API manifest decided, the
manifest describes the package as committed, it names its base, and it depends on its runtimes only."""

from __future__ import annotations

import ast
import functools
import json
import tomllib

import pytest
import yaml

from civrules.emit import versions
from civrules.emit.packaging import import_name
from tests.conftest import REPO, RULES

GENERATED = REPO / "generated" / "python"
PACKAGES = sorted(p.name for p in (GENERATED / "civrules_rulesets").iterdir() if (p / "__init__.py").is_file())


def _constant(source: str, name: str) -> object:
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            assert node.value is not None
            return ast.literal_eval(node.value)
    raise AssertionError(f"no {name}")


@functools.cache
def _manifests() -> list[dict[str, object]]:
    loaded = (yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted((RULES / "rulesets").glob("*.yaml")))
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
RULESET_IDS = sorted(str(data["id"]) for data in _manifests())


@functools.cache
def _rendered(ruleset_id: str) -> tuple[dict[str, bytes], versions.Declared | None]:
    """The package of a shipped ruleset as its family renders it in this process, and the API the
    family says it rendered."""
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


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_api_a_family_says_it_rendered_is_what_its_modules_declare(ruleset_id: str) -> None:
    """A build versions a package from the API its family's emitter says it rendered (the family's
    ``API_TYPES`` and its id enums), not by parsing the modules back: for every shipped ruleset it
    is the API the modules declare, name by name, type by type, id by id. A template or table whose
    type changes without its ``API_TYPES`` fails here."""
    files, declared = _rendered(ruleset_id)
    assert declared is not None, "the family says nothing of its package's API: the build parses it"
    folder = f"civrules_rulesets/{import_name(ruleset_id).rpartition('.')[2]}"
    assert versions.package_api(files, folder, declared) == versions.package_api(files, folder)


def test_a_build_reads_the_api_its_families_rendered_and_parses_no_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing the modules a build has just rendered was 7 ms of CPU a build of the largest shipped
    ruleset: a build of one ruleset of each family parses none of them, and writes the manifests
    a parse would (the committed ones, as nothing changed)."""
    from civrules.emit.build import render
    from civrules.load.workspace import Workspace

    calls_made: list[int] = []
    parse = versions._declarations

    def counted(source: bytes) -> ast.Module:
        calls_made.append(len(source))
        return parse(source)

    monkeypatch.setattr(versions, "_declarations", counted)
    workspace = Workspace(RULES)
    manifests = workspace.manifests()
    chosen = ["mega-civilization", "imperial-settlers", "sid-meiers-civilization"]
    result = render(workspace, [workspace.load_ruleset(manifests[name]) for name in chosen], out=REPO / "generated")
    assert not result.failed
    assert calls_made == []
    for name in chosen:
        at = f"python/civrules_rulesets/{import_name(name).rpartition('.')[2]}/{versions.MANIFEST}"
        assert result.tree[at] == (REPO / "generated" / at).read_bytes(), at
