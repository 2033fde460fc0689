"""The modules of civrules import one another without a cycle, counting imports inside functions.

A cycle hidden in a function (``import x`` at call time) is still a cycle: the two modules can only
be understood, tested and moved together, and which one finishes importing first depends on who
imports first. The graph below has one node per module of ``compiler/civrules/`` and one edge per
``import`` / ``from … import`` anywhere in a module (module level, functions, ``TYPE_CHECKING``
blocks), relative imports resolved and ``from package import submodule`` counted as an import of
the submodule.

Imports by name count too: the registers import modules named in strings. A string that is exactly
a civrules module (``module`` or ``module:attribute``, ``__name__`` substituted in f-strings: the
register's ``"civrules.families.advanced_civilization:FAMILY"``) is an edge from the module that
holds it. A family's declaration (``Family(...)``) names modules it does not import itself: its
hooks (``f"{__name__}.assemble:build_ruleset"``) are imported by whoever calls ``family.hook(...)``,
its ``checks=``/``sheets=`` packages by whoever walks ``family.checks``/``family.sheets`` with
``pkgutil.iter_modules``: those modules get the edges, to every hook and to every module of those
packages. A package named in a module that calls ``pkgutil.iter_modules`` is an edge to each of its
modules. An f-string that begins with a package and ends in a placeholder
(``f"civrules._generated.validators.{kind}"``) is an edge to every module under that package.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests import lazy
from tests.conftest import REPO

if TYPE_CHECKING:
    import networkx as nx
else:  # imported by the tests that use it, on the worker that runs this module (tests/lazy.py)
    nx = lazy.module("networkx")

SOURCE = REPO / "compiler"
PACKAGE = SOURCE / "civrules"
#: Modules written by ``compiler/tools/`` (compiled templates, validators): left out of the graph,
#: which is allowed only while they import nothing of civrules (asserted below).
GENERATED = "civrules._generated"


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_NAMED = re.compile(r"^civrules(\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_.]*)?$")


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_name(node: object) -> bool:
    return isinstance(node, ast.Name) and node.id == "__name__"


def declared(found: dict[str, Path]) -> dict[str, set[str]]:
    """What the ``Family(...)`` declarations name: ``hooks`` (modules), ``checks`` and ``sheets``
    (packages), each ``__name__`` substituted."""
    names: dict[str, set[str]] = {"hooks": set(), "checks": set(), "sheets": set()}
    for module, path in found.items():
        text = path.read_text(encoding="utf-8")
        if "Family" not in text:  # no call of it: not parsed (the generated modules are megabytes)
            continue
        tree = ast.parse(text, str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Family"):
                continue
            for keyword in node.keywords:
                if keyword.arg not in names:
                    continue
                for part in ast.walk(keyword.value):
                    if isinstance(part, ast.JoinedStr):
                        text = "".join(
                            str(v.value) if isinstance(v, ast.Constant) else module
                            for v in part.values
                            if isinstance(v, ast.Constant)
                            or getattr(getattr(v, "value", None), "id", None) == "__name__"
                        )
                    elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                        text = part.value
                    else:
                        continue
                    names[keyword.arg].add(text.partition(":")[0])
    return names


def imported(
    module: str,
    path: Path,
    known: set[str],
    family: dict[str, set[str]] | None = None,
    tree: ast.Module | None = None,
) -> set[str]:
    """The civrules modules ``module`` imports (each resolved to the deepest known module); ``tree``
    is the module's parse where the caller has it."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    def named(text: str, *, open_end: bool = False, every_module: bool = False) -> None:
        if open_end:  # f"civrules.pkg.{x}": any module under the package
            prefix = text.rstrip(".")
            for name in known:
                if name.startswith(prefix + "."):
                    add(name)
            return
        if not _NAMED.match(text):
            return
        target = text.partition(":")[0]
        if target not in known:
            return
        add(target)
        if every_module:
            for name in known:
                if name.rpartition(".")[0] == target:
                    add(name)

    def text_of(node: ast.AST) -> tuple[str, bool] | None:
        """A string's text (``__name__`` substituted) and whether it ends in a placeholder."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value, False
        if not isinstance(node, ast.JoinedStr):
            return None
        text = ""
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Name)
                and part.value.id == "__name__"
            ):
                text += module
            else:
                return text, True
        return text, False

    if tree is None:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    iterates = "iter_modules" in attributes
    declaration: set[int] = set()  # the strings of a Family(...): the modules that use them import them
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Family":
            declaration.update(id(n) for n in ast.walk(node))
    for kind, used in (("hooks", "hook" in attributes), ("checks", iterates), ("sheets", iterates)):
        if used and family is not None and (kind == "hooks" or kind in attributes):
            for target in family[kind]:
                named(target, every_module=kind != "hooks")
    for node in ast.walk(tree):
        if id(node) in declaration:
            continue
        string = text_of(node)
        if string is not None:
            text, open_end = string
            if open_end:
                if text.startswith("civrules.") and text.endswith("."):
                    named(text, open_end=True)
            else:
                named(text, every_module=iterates)
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not (target == "civrules" or target.startswith("civrules.")):
                continue
            for alias in node.names:
                if f"{target}.{alias.name}" in known:
                    add(f"{target}.{alias.name}")  # `from package import submodule`
                else:
                    add(target)
    return {name for name in found if name == "civrules" or name.startswith("civrules.")}


@functools.cache
def import_graph() -> nx.DiGraph:
    """The graph of civrules' own modules, made once per test process (two tests read it)."""
    return _walked()[0]


@functools.cache
def _walked() -> tuple[nx.DiGraph, tuple[str, ...]]:
    """The import graph and every import of another module's private name: each module parsed once
    for both (the parse is most of their cost), its tree let go once walked, never held (2 MB of
    source as trees made every later garbage collection of the process walk them)."""
    found = modules()
    known = set(found)
    family = declared(found)
    graph = nx.DiGraph()
    private: list[str] = []
    for module, path in found.items():
        if module.startswith(GENERATED):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph.add_node(module)
        for target in imported(module, path, known, family, tree):
            if not target.startswith(GENERATED):
                graph.add_edge(module, target)
        private.extend(_private_imports(module, tree))
    return graph, tuple(private)


def _private_imports(module: str, tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("civrules"):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{module}: from {node.module} import {alias.name}")
    return found


#: The walk of every module's source the three tests below share (each module parsed once, 2-3 s of
#: CPU, a fast suite's longest test): `make test-slow` (round 35; round 29 had moved the control
#: alone, which saved nothing: the walk was made for the others). What an import does as a process
#: starts is `make test`'s (tests/core/test_cli.py, the fresh interpreters of tests/budget.py).
_WALKS_EVERY_MODULE = pytest.mark.slow


@_WALKS_EVERY_MODULE
def test_the_import_graph_sees_imports_inside_functions() -> None:
    """The control of the two tests of the graph below (an empty graph has no cycle): it costs
    nothing of its own, the graph made once per process for :func:`test_no_import_cycle`."""
    graph = import_graph()
    assert "civrules.checks" in graph
    # A parent package is a node of its own: importing `civrules.checks.identity` runs
    # `civrules/checks/__init__.py` too, but that is Python's doing, not an edge of ours.
    assert graph.number_of_edges() > 100


#: What a module must hold to import a civrules module outside the generated package: the name
#: (in an import, or a string naming a module) or a relative import (``from .. import x``).
_MAY_LEAVE_GENERATED = re.compile(r"\bcivrules\b(?!\._generated\b)|^[ \t]*from[ \t]+\.", re.MULTILINE)


def test_generated_modules_import_nothing_of_civrules() -> None:
    found = modules()
    known = set(found)
    # The generated modules are megabytes of compiled templates and validators: one that holds
    # neither the name of a civrules module outside them nor a relative import cannot import one,
    # so only the others are parsed (each once).
    targets = {
        module: imported(module, path, known)
        for module, path in found.items()
        if module.startswith(GENERATED) and _MAY_LEAVE_GENERATED.search(path.read_text(encoding="utf-8"))
    }
    leaks = {module: sorted(t for t in names if not t.startswith(GENERATED)) for module, names in targets.items()}
    assert {m: t for m, t in leaks.items() if t} == {}


@_WALKS_EVERY_MODULE
def test_no_import_cycle() -> None:
    graph = import_graph()
    cycles = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            cycles.append(" -> ".join([*(a for a, _ in cycle), cycle[0][0]]))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(cycles))


@pytest.mark.slow
def test_every_module_imports_first() -> None:
    """Each module of civrules imports on its own, before any other: a cycle Python only meets at
    run time (a package's __init__ importing what imports it back) fails here, whichever module an
    engine, a tool or a test happens to import first."""
    program = (
        "import importlib, sys\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    for loaded in [m for m in sys.modules if m == 'civrules' or m.startswith('civrules.')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as error:\n"
        "        failed.append(f'{name}: {type(error).__name__}: {error}')\n"
        "print('\\n'.join(failed))\n"
    )
    # The runtime sources are copied into generated packages, where `civrules_runtime` is beside them.
    names = [m for m in modules() if not m.startswith(GENERATED) and ".runtime" not in m and m != "civrules.__main__"]
    done = subprocess.run([sys.executable, "-c", program, *names], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


@_WALKS_EVERY_MODULE
def test_no_module_imports_another_modules_private_name() -> None:
    """A name with a leading underscore is its module's own: another module that needs it gets a
    public name (the helper page took the package emitter's `_levels` and `_tracks`, three families
    the unknowns check's `_relative`, the manifest header the reader's scalar tables)."""
    assert list(_walked()[1]) == []
