"""The ``pyproject.toml`` of every generated distribution: written by a TOML serializer, read back.

A distribution's metadata holds text from the rule data (a ruleset's name becomes its
description), so it is never assembled by string formatting: :func:`render_pyproject` builds the
document as data and ``tomli_w`` writes it, escaping by construction; the only text written around
it is a comment whose words civrules chooses (package paths, which are identifiers).
:func:`verify_pyproject` parses a file back (``tomllib``) and validates it as package metadata
(PEP 517 and 621, with ``validate-pyproject``): ``civrules build`` writes nothing when any file fails it.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

#: The build backend every generated distribution names (its wheel is built from the files listed).
BUILD_SYSTEM = {"requires": ["hatchling>=1.21"], "build-backend": "hatchling.build"}
REQUIRES_PYTHON = ">=3.11"


@dataclass(frozen=True, slots=True)
class Distribution:
    """What a generated distribution's ``pyproject.toml`` says."""

    #: The distribution (pip) name.
    name: str
    version: str
    #: One line: the summary pip shows (whitespace, line breaks included, is collapsed).
    description: str
    #: PEP 508 requirements.
    dependencies: Sequence[str]
    #: The import package's folder, relative to ``generated/python/`` (``civrules_rulesets/<package>``);
    #: the distribution's files lie in it, and its wheel installs them at that path.
    folder: str
    #: The files of the import package that its wheel holds.
    files: Sequence[str]
    #: Who the distribution is for, for the header comment (civrules' words, not the rule data's).
    what: str
    #: The folders to ``pip install``, in order, to install it (its runtimes first).
    install: Sequence[str] = ()


def document(distribution: Distribution) -> dict[str, Any]:
    """The ``pyproject.toml`` as data."""
    return {
        "build-system": dict(BUILD_SYSTEM),
        "project": {
            "name": distribution.name,
            "version": distribution.version,
            "description": " ".join(distribution.description.split()),
            "requires-python": REQUIRES_PYTHON,
            "dependencies": list(distribution.dependencies),
        },
        "tool": {
            "hatch": {
                "build": {
                    "targets": {
                        "wheel": {
                            "only-include": list(distribution.files),
                            # The files lie in the import package's folder; the wheel puts them at its path.
                            "sources": {"": distribution.folder},
                            # `pip install -e` puts this folder on sys.path: generated/python/, where the
                            # import path starts. Hatchling's default, the package's own folder, would make
                            # its modules top-level ones (`records`, `settings`, `data`), shadowing others.
                            "dev-mode-dirs": ["/".join([".."] * len(distribution.folder.split("/")))],
                        }
                    }
                }
            }
        },
    }


def render_pyproject(distribution: Distribution) -> bytes:
    """The file's bytes: a comment saying what it is and how to install it, then the document."""
    install = " ".join(f"generated/python/{folder}" for folder in (*distribution.install, distribution.folder))
    header = (
        f"# The distribution of {distribution.what} (written by `civrules build`; do not edit).\n"
        f"# Install: pip install {install}\n"
        "# The build backend writes nothing beside these files, so installing leaves generated/ as built.\n\n"
    )
    for line in header.splitlines():  # the comment is civrules' own words: never a line break from the data
        if line and not line.startswith("# "):
            raise ValueError(f"a pyproject comment line would break: {line!r}")
    return (header + tomli_w.dumps(document(distribution))).encode("utf-8")


def verify_pyproject(content: bytes) -> str | None:
    """None when ``content`` parses as TOML and validates as package metadata; else what is wrong."""
    from validate_pyproject import errors

    try:
        parsed = tomllib.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return f"it is not TOML: {error}"
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        return "it is not TOML civrules can read: nested too deep"
    try:
        _validator()(parsed)
    except errors.ValidationError as error:
        return f"it is not valid package metadata: {error.message}"
    return None


#: How many runtimes' files :func:`runtime_verdict` keeps the verdict of (a build writes the shared
#: runtime's and one per family: three families today).
_RUNTIME_VERDICTS = 16


@functools.lru_cache(maxsize=_RUNTIME_VERDICTS)
def runtime_verdict(content: bytes) -> str | None:
    """:func:`verify_pyproject` of a runtime's ``pyproject.toml``, judged once per process by its
    bytes. A runtime's file is made from civrules' own sources and versions, the same at every build
    of a process (the language server, ``watch``): parsing and validating it again was 0.6 ms of
    CPU a build (two of the three files a build of one ruleset verifies), for the same verdict. A
    ruleset's file, made from its data, is verified at each build (:func:`verify_pyproject`)."""
    return verify_pyproject(content)


@functools.cache
def _validator() -> Callable[[dict[str, Any]], Any]:
    """validate-pyproject's validator of the tables a distribution's metadata is made of
    (``[build-system]`` and ``[project]``, PEP 517 and 621), made once.

    Without the plugins installed beside it, which judge other tools' ``[tool.*]`` tables
    (setuptools' and distutils'; a generated file writes only ``[tool.hatch]``, which none of them
    reads): compiling their schemas was most of the first verification in a ``civrules build``
    (80-115 ms of CPU, against 30-40 ms without them), and the verdict no longer depends on which
    plugins the environment happens to have."""
    from validate_pyproject import api

    return api.Validator(plugins=())
