"""Packages of small variants of the shipped rulesets, rendered in the test's process (from a
CachedWorkspace over the shipped rules) and imported from a temporary folder under their own
names, never in a fresh interpreter: what a test of a package's answers to a variant needs.

A whole build's packages (`civrules build --out`) are imported in the test's process too, in place
of the shipped ones of the same names (:func:`packages_of`, :func:`run_script`): a fresh
interpreter is for what only a start shows (what a package imports), not for a package's answers."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import sys
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from civrules.emit.export import export_ruleset
from civrules.families import family_named
from civrules.pipeline import Analysis, analyse, derived_facts
from tests.rulefiles import CachedWorkspace


def variant(ruleset_id: str, base: str, overlay: str) -> str:
    """The manifest of the variant ``ruleset_id`` of ``base`` with ``overlay`` (YAML, indented)."""
    return f'kind: ruleset\nid: {ruleset_id}\nname: "{ruleset_id}"\nextends: {base}\noverlay:\n{overlay}'


def analysed(ruleset_id: str, manifest: str) -> Analysis:
    """The analysis of the variant ``manifest`` (its id ``ruleset_id``) over the shipped rules; it
    must have none but infos."""
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    assert analysis.ok and analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    return analysis


def built(tmp_path: Path, ruleset_id: str, manifest: str) -> ModuleType:
    """The package of the variant ``manifest`` (its id ``ruleset_id``), rendered by its family in
    this process and imported under its own name from ``tmp_path`` (forget it with
    :func:`forgetting`)."""
    analysis = analysed(ruleset_id, manifest)
    assert analysis.model is not None and analysis.resolved is not None
    family = family_named(analysis.model.family)
    assert family is not None
    render = family.hook("package")
    assert render is not None, f"the {family.id} family renders no package"
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    for relative, content in render(analysis.model, exported).items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes(content)
    folder = tmp_path / "civrules_rulesets" / ruleset_id.replace("-", "_")
    name = f"civrules_rulesets.{folder.name}"  # as the package names itself (assuming() imports it)
    assert name not in sys.modules, f"{ruleset_id} is the id of a shipped ruleset or already built: take another"
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextmanager
def forgetting(packages: Collection[str]) -> Iterator[None]:
    """Forgets the modules of the ``packages`` (folder names under ``civrules_rulesets``) imported
    within it, once it ends: a test's variant is never another test's."""
    before = set(sys.modules)
    try:
        yield
    finally:
        for name in set(sys.modules) - before:
            if name.startswith("civrules_rulesets.") and name.split(".")[1] in packages:
                del sys.modules[name]


def _generated(name: str) -> bool:
    """Whether the module ``name`` is of a generated distribution: a ruleset's package (in the
    ``civrules_rulesets`` namespace) or a runtime (``civrules_runtime``, ``civrules_runtime_<family>``)."""
    top = name.split(".", 1)[0]
    return top == "civrules_rulesets" or top.startswith("civrules_runtime")


def _holds_generated(entry: str) -> bool:
    """Whether an entry of ``sys.path`` is a folder from which a generated distribution imports."""
    folder = Path(entry or ".")
    return (folder / "civrules_rulesets").is_dir() or any(folder.glob("civrules_runtime*/__init__.py"))


@contextmanager
def packages_of(python: Path) -> Iterator[None]:
    """The packages and runtimes of the build folder ``python`` (a build's ``<out>/python``), imported
    under their own names within it as ``PYTHONPATH=python`` imports them in a fresh interpreter:
    the ones this process holds (the shipped packages, from generated/python) are put aside with
    every folder they import from, and back as they were once it ends, the build's forgotten."""
    held = {name: module for name, module in sys.modules.items() if _generated(name)}
    path = list(sys.path)
    for name in held:
        del sys.modules[name]
    sys.path[:] = [str(python), *(entry for entry in path if not _holds_generated(entry))]
    importlib.invalidate_caches()
    try:
        yield
    finally:
        for name in [name for name in sys.modules if _generated(name)]:
            del sys.modules[name]
        sys.modules.update(held)
        for name, module in held.items():  # each package's attribute names its module again
            parent, _, child = name.rpartition(".")
            if parent in held:
                setattr(held[parent], child, module)
        sys.path[:] = path
        importlib.invalidate_caches()


def run_script(python: Path, code: str, *argv: str, stdin: str = "") -> str:
    """What ``python -c code argv...`` prints with ``PYTHONPATH=python``, run in this process against
    that build's packages (:func:`packages_of`); an exception the script raises fails the test, as
    its exit status would."""
    printed = io.StringIO()
    saved = sys.argv, sys.stdin
    sys.argv, sys.stdin = ["-c", *argv], io.StringIO(stdin)
    try:
        with packages_of(python), contextlib.redirect_stdout(printed):
            exec(compile(code, "<script>", "exec"), {"__name__": "__main__"})
    finally:
        sys.argv, sys.stdin = saved
    return printed.getvalue()
