"""The runtimes beside the generated packages: the shared one, rendered here, and each family's
(rendered by the family's ``runtime`` hook with :func:`runtime_distribution`).

A runtime is a distribution of one import package whose modules are copied from the compiler's
sources as they are (they are written, formatted and type-checked as part of civrules), with a
``py.typed`` marker and a ``pyproject.toml``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from civrules.emit.packaging import RUNTIME, RUNTIME_DISTRIBUTION
from civrules.emit.templating import template_environment

#: The sources of the shared runtime, and the modules it ships.
SOURCES = Path(__file__).resolve().parent / "runtime"
FILES = ("__init__.py", "_moved.py", "errors.py", "logic.py", "protocol.py", "records.py", "vocab.py")
#: The shared runtime's version: 2.1 added the record and protocol bases; the names that moved to
#: the family runtimes are still importable from it (so packages built for 2.0 keep working).
VERSION = "2.1.0"


def quoted(names: Iterable[str]) -> str:
    """Names as the items of a TOML array: ``"a", "b"``."""
    return ", ".join(json.dumps(name) for name in names)


def runtime_distribution(
    package: str,
    distribution: str,
    sources: Path,
    files: Iterable[str],
    *,
    what: str,
    version: str,
    description: str,
    dependencies: Iterable[str] = (),
    install: Iterable[str] = (),
) -> dict[str, bytes]:
    """The files of a runtime's distribution, by path relative to ``generated/python/``.

    ``install`` names the runtimes it needs (installed before it); ``what`` says whose runtime it is.
    """
    modules = tuple(files)
    out = {f"{package}/{name}": (sources / name).read_bytes() for name in modules}
    out[f"{package}/py.typed"] = b""
    text = (
        template_environment("python", autoescape=False)
        .get_template("runtime-pyproject.toml.j2")
        .render(
            {
                "what": what,
                "install": " ".join(f"generated/python/{p}" for p in (*install, package)),
                "package": package,
                "distribution": distribution,
                "version": version,
                "description": json.dumps(description, ensure_ascii=False),
                "dependencies": quoted(dependencies),
                "files": quoted((*modules, "py.typed")),
            }
        )
    )
    out[f"{package}/pyproject.toml"] = text.encode("utf-8")
    return out


def render_core_runtime() -> dict[str, bytes]:
    """The shared runtime's distribution, by path relative to ``generated/python/``."""
    return runtime_distribution(
        RUNTIME,
        RUNTIME_DISTRIBUTION,
        SOURCES,
        FILES,
        what="civrules' shared runtime",
        version=VERSION,
        description="The runtime every family's generated packages share: errors, the record and protocol bases.",
    )
