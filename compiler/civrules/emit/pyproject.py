"""The ``pyproject.toml`` of every generated distribution: written by a TOML serializer, read back.

A distribution's metadata holds text from the rule data (a ruleset's name becomes its
description), so it is never assembled by string formatting: :func:`render_pyproject` builds the
document as data and ``tomli_w`` writes it, escaping by construction; the only text written around
it is a comment whose words civrules chooses (package paths, which are identifiers).
:func:`verify_pyproject` parses a file back (``tomllib``) and validates it as package metadata
(PEP 517 and 621, with ``validate-pyproject``): ``civrules build`` writes nothing when any file fails it.
"""

from __future__ import annotations

import ast
import functools
import inspect
import io
import tokenize
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

#: The build backend every generated distribution names (its wheel is built from the files listed).
BUILD_SYSTEM = {"requires": ["hatchling>=1.21"], "build-backend": "hatchling.build"}
REQUIRES_PYTHON = ">=3.11"
#: Written beside every ``pyproject.toml``, as each of these names. Hatchling copies into an sdist
#: the first ``.gitignore`` (``.hgignore``) it finds from the folder up to a checkout's root, or up
#: to the file system's outside one, and no option turns that off: a designer's checkout's own, or
#: one in a home folder, was published in the sdist, which changed with where it was built. This
#: one, the first found, stops the search; it ignores nothing (the files are the ones declared).
VCS_IGNORE_FILES = (".gitignore", ".hgignore")
VCS_IGNORE = (
    b"# Written by `civrules build` (do not edit): it ignores nothing. The build backend copies the\n"
    b"# first ignore file it finds above a distribution's folder into its sdist; this one stops it here.\n"
)
#: The long description is the import package's docstring, as ``help()`` shows it: prose, never markup.
README_CONTENT_TYPE = "text/plain"


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
    #: The long description (``pip show``'s and an index's page): the import package's docstring
    #: (:func:`docstring`), what the package says of itself; none when empty.
    readme: str = ""


def document(distribution: Distribution) -> dict[str, Any]:
    """The ``pyproject.toml`` as data.

    No licence and no project URL: no source states a licence of the rule data, and civrules knows
    no address of a designer's repository (a git remote is the machine's, not the data's)."""
    project: dict[str, Any] = {
        "name": distribution.name,
        "version": distribution.version,
        "description": " ".join(distribution.description.split()),
    }
    if distribution.readme:
        project["readme"] = {"text": distribution.readme, "content-type": README_CONTENT_TYPE}
    project["requires-python"] = REQUIRES_PYTHON
    project["dependencies"] = list(distribution.dependencies)
    return {
        "build-system": dict(BUILD_SYSTEM),
        "project": project,
        "tool": {
            "hatch": {
                "build": {
                    # The files are the ones listed, whatever a `.gitignore` above the folder says
                    # (the first one hatchling finds, up to a checkout's root or the file system's):
                    # one naming `data.py` left it out of the sdist, and so of a wheel built from it.
                    "ignore-vcs": True,
                    "targets": {
                        # The sdist holds the wheel's files and the metadata, not whatever else lies in
                        # the folder (the API manifest `api.json`, a designer's notes, a scratch module).
                        "sdist": {"only-include": list(distribution.files)},
                        "wheel": {
                            "only-include": list(distribution.files),
                            # The files lie in the import package's folder; the wheel puts them at its path.
                            "sources": {"": distribution.folder},
                            # `pip install -e` puts this folder on sys.path: generated/python/, where the
                            # import path starts. Hatchling's default, the package's own folder, would make
                            # its modules top-level ones (`records`, `settings`, `data`), shadowing others.
                            "dev-mode-dirs": ["/".join([".."] * len(distribution.folder.split("/")))],
                        },
                    },
                }
            }
        },
    }


def docstring(source: bytes) -> str:
    """The module docstring of a Python source, cleaned as ``help()`` shows it ("" when it has none).

    Read from its first tokens: the module is not parsed (a ruleset's ``data.py`` is megabytes, and
    its ``__init__.py`` is rendered at every build)."""
    tokens = tokenize.tokenize(io.BytesIO(source).readline)
    skipped = (tokenize.ENCODING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)
    try:
        first = next(token for token in tokens if token.type not in skipped)
    except (StopIteration, tokenize.TokenError, SyntaxError):
        return ""
    if first.type != tokenize.STRING:
        return ""
    value = ast.literal_eval(first.string)
    return inspect.cleandoc(value) if isinstance(value, str) else ""


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
