"""The ledger of the runtime distributions' releases: each runtime's version and the digest of what
its distribution holds at that version (``tools/runtimes.json``).

A runtime's version is written by hand (``__version__`` of the shared runtime and of each family's),
and what its distribution holds is not only that code: its ``pyproject.toml`` requires the shared
runtime of the version civrules ships, so a new minor shared runtime changed every family runtime's
metadata under an unchanged version. Two distributions of one name and version that differ are what
a package index refuses and what ``pip`` never reinstalls: an engine kept the old one. The ledger
makes that a test failure (tests/generated/test_distributions.py) instead of a release::

    cd compiler && python -m tools.runtimes          # record each runtime's version and digest
    cd compiler && python -m tools.runtimes --check  # exit 1 if one changed under its recorded version

Recording refuses a runtime whose files changed while its version did not: step the version first.

Beside it, the ledger of the names each runtime module has had in any release
(``tools/runtime_names.json``), which recording only adds to: a module that lacks a name a release
had lists it in its ``_RETIRED``, so that a pickle of that release naming it is told
``OtherVersionError``, and any other name it lacks is Python's AttributeError (``hasattr`` and
pickle's search of the imported modules catch nothing else). ``--check`` fails for a name the
ledger does not hold yet; ``tests/engine/test_pickles_across_versions.py`` holds each ``_RETIRED`` to it.

From both, the table in ``docs/engine.md`` of the distribution each runtime module is in: a
pickle naming a module of a runtime that is not installed is pickle's own "No module named ...",
which only that table answers (no code of an absent runtime runs to say it). Recording writes it;
``--check`` fails where it is stale (``tests/engine/test_module_distributions.py`` too).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: Where the ledger lives, beside this tool.
LEDGER = Path(__file__).resolve().parent / "runtimes.json"
#: Where the ledger of the names released runtime modules had lives.
NAMES = Path(__file__).resolve().parent / "runtime_names.json"
#: The page whose table names each runtime module's distribution, between these two lines.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
TABLE_START = "<!-- module distributions: written by `cd compiler && python -m tools.runtimes` from its ledgers -->"
TABLE_END = "<!-- end of module distributions -->"


def distributions() -> dict[str, Mapping[str, bytes]]:
    """Every runtime distribution civrules ships, by its import package: the shared runtime and each
    registered family's, as ``build`` writes them (files by path relative to ``generated/python/``)."""
    from civrules.emit.packaging import RUNTIME, family_runtime_package
    from civrules.emit.runtimes import render_core_runtime
    from civrules.families import families

    found: dict[str, Mapping[str, bytes]] = {RUNTIME: render_core_runtime()}
    for family in families().values():
        hook: Callable[[], Mapping[str, bytes]] | None = family.hook("runtime")
        if hook is not None:
            found[family_runtime_package(family.id)] = hook()
    return dict(sorted(found.items()))


def version_of(files: Mapping[str, bytes]) -> str:
    """The version a distribution's ``pyproject.toml`` declares."""
    import tomllib

    (path,) = [path for path in files if path.endswith("/pyproject.toml")]
    return str(tomllib.loads(files[path].decode("utf-8"))["project"]["version"])


def distribution_of(files: Mapping[str, bytes]) -> str:
    """The distribution (pip) name a distribution's ``pyproject.toml`` declares."""
    import tomllib

    (path,) = [path for path in files if path.endswith("/pyproject.toml")]
    return str(tomllib.loads(files[path].decode("utf-8"))["project"]["name"])


def distribution_table(names: Mapping[str, list[str]], packages: Mapping[str, str]) -> str:
    """The Markdown table of each runtime distribution (``packages``: by its import package) and
    every module of it the ledger of names holds (``names``): each module any release had, so a
    pickle of any version finds its distribution here."""
    rows = ["| distribution (`pip install ...`) | its modules a pickle may name |", "| --- | --- |"]
    for package, distribution in sorted(packages.items()):
        modules = [module for module in sorted(names) if module == package or module.startswith(package + ".")]
        rows.append(f"| `{distribution}` | {', '.join(f'`{module}`' for module in modules)} |")
    return "\n".join(rows) + "\n"


def written_table(page: str) -> str | None:
    """The table ``page`` holds between TABLE_START and TABLE_END, or None where it has no such lines."""
    start, end = page.find(TABLE_START + "\n"), page.find(TABLE_END)
    if start < 0 or end < start:
        return None
    return page[start + len(TABLE_START) + 1 : end]


def digest(files: Mapping[str, bytes]) -> str:
    """The SHA-256 of a distribution's files: each path and its bytes, in the order of the paths."""
    hashed = hashlib.sha256()
    for path in sorted(files):
        content = files[path]
        hashed.update(f"{path}\0{len(content)}\0".encode())
        hashed.update(content)
    return hashed.hexdigest()


def current() -> dict[str, dict[str, str]]:
    """Each runtime's version and digest as civrules ships it now."""
    return {name: {"version": version_of(files), "digest": digest(files)} for name, files in distributions().items()}


def module_names(files: Mapping[str, bytes]) -> dict[str, list[str]]:
    """The public names of each module of a distribution (``civrules_runtime.records``: what it
    defines, assigns or imports from a runtime at its top level: a capital first, as a class's, which a
    pickle or ``from module import Name`` asks for; not ``typing``'s names it imports, nor
    ``TYPE_CHECKING``), sorted."""
    import ast

    found: dict[str, list[str]] = {}
    for path, content in sorted(files.items()):
        if not path.endswith(".py"):
            continue
        module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        names: set[str] = set()
        for node in ast.parse(content).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(target.id for target in node.targets if isinstance(target, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").startswith("civrules_runtime")
            ):
                names.update(alias.asname or alias.name for alias in node.names)  # a runtime's name it re-exports
        # TYPE_CHECKING is a bool, which a pickle holds by value: no pickle names it
        found[module] = sorted(name for name in names if name[:1].isupper() and name != "TYPE_CHECKING")
    return found


def current_names() -> dict[str, list[str]]:
    """The public names of every runtime module civrules ships now."""
    found: dict[str, list[str]] = {}
    for files in distributions().values():
        found.update(module_names(files))
    return dict(sorted(found.items()))


def read_names(path: Path = NAMES) -> dict[str, list[str]]:
    loaded = json.loads(path.read_text(encoding="utf-8"))
    return {str(module): [str(name) for name in names] for module, names in loaded.items()}


def unrecorded_names(recorded: Mapping[str, list[str]], now: Mapping[str, list[str]]) -> list[str]:
    """A sentence for each module with a name the ledger of names lacks (record it)."""
    return [
        f"{module} has {', '.join(missing)}, which the ledger of released names lacks: record it"
        " (python -m tools.runtimes)"
        for module, names in now.items()
        if (missing := sorted(set(names) - set(recorded.get(module, ()))))
    ]


def read_ledger(path: Path = LEDGER) -> dict[str, dict[str, str]]:
    loaded = json.loads(path.read_text(encoding="utf-8"))
    return {str(name): {str(k): str(v) for k, v in entry.items()} for name, entry in loaded.items()}


#: What a difference between the ledger and the runtimes asks for: stepping a version (recording
#: cannot help), or recording a release.
STEP, RECORD = "step", "record"


def problems(recorded: Mapping[str, Mapping[str, str]], now: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str]]:
    """What differs between the ledger and the runtimes as shipped, each what it asks for (STEP or
    RECORD) and a sentence saying so: a runtime whose files changed under its recorded version (step
    it), and a version or a runtime the ledger does not hold yet (record it)."""
    found: list[tuple[str, str]] = []
    for name, entry in now.items():
        before = recorded.get(name)
        if before is None:
            missing = f"{name} {entry['version']} is not in the ledger: record it (python -m tools.runtimes)"
            found.append((RECORD, missing))
        elif before["version"] == entry["version"] and before["digest"] != entry["digest"]:
            found.append(
                (
                    STEP,
                    f"{name} {entry['version']} holds other files than the release the ledger records under that "
                    "version: step its version (its __version__), rebuild, then record it (python -m tools.runtimes)",
                )
            )
        elif before["version"] != entry["version"]:
            found.append(
                (
                    RECORD,
                    f"{name} is {entry['version']}, the ledger records {before['version']}: record the new release "
                    "(python -m tools.runtimes)",
                )
            )
    found.extend(
        (RECORD, f"{name} is in the ledger but civrules ships no such runtime: record (python -m tools.runtimes)")
        for name in recorded
        if name not in now
    )
    return found


def main(argv: list[str]) -> int:
    now = current()
    recorded = read_ledger() if LEDGER.exists() else {}
    found = problems(recorded, now)
    recorded_names = read_names() if NAMES.exists() else {}
    names_now = current_names()
    packages = {package: distribution_of(files) for package, files in distributions().items()}
    if "--check" in argv:
        for _, problem in found:
            print(problem, file=sys.stderr)
        unrecorded = unrecorded_names(recorded_names, names_now)
        for problem in unrecorded:
            print(problem, file=sys.stderr)
        stale = written_table(DOCS.read_text(encoding="utf-8")) != distribution_table(recorded_names, packages)
        if stale:
            print(
                f"{DOCS.name}'s table of module distributions is stale: record (python -m tools.runtimes)",
                file=sys.stderr,
            )
        return 1 if found or unrecorded or stale else 0
    unstepped = [problem for asks, problem in found if asks == STEP]
    if unstepped:
        for problem in unstepped:
            print(problem, file=sys.stderr)
        return 1
    LEDGER.write_text(json.dumps(now, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    merged = {  # a name once released stays: a pickle of that release may name it
        module: sorted(set(recorded_names.get(module, ())) | set(names_now.get(module, ())))
        for module in sorted(set(recorded_names) | set(names_now))
    }
    NAMES.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    page = DOCS.read_text(encoding="utf-8")
    table = written_table(page)
    if table is None:
        print(f"{DOCS} has no lines {TABLE_START!r} and {TABLE_END!r} to write the table between", file=sys.stderr)
        return 1
    DOCS.write_text(
        page.replace(TABLE_START + "\n" + table, TABLE_START + "\n" + distribution_table(merged, packages)),
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
