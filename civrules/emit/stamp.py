"""Knowing, cheaply, that a build would write exactly what is already there.

A build's output is a pure function of its inputs: the rule files, the schemas, civrules' own
source and templates, the versions of the libraries that shape the output, and the command's
arguments. After a build, civrules records a digest of those inputs and of the tree it wrote in
the cache (:mod:`civrules.cache`); a later build whose inputs and output tree still hash the same
has nothing to do and stops before reading a single rule. Deleting the cache only costs one build.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from civrules import cache

#: Libraries whose version can change the bytes of the output (templates, map layout).
_SHAPING = ("jinja2", "networkx", "numpy", "markupsafe")


def _files(root: Path) -> Iterable[Path]:
    if root.is_dir():
        yield from sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def input_digest(rules: Path, arguments: Iterable[str]) -> str:
    """A digest of everything a build reads, and of how it was asked for."""
    package = Path(__file__).resolve().parent.parent
    parts: list[str | bytes] = [json.dumps(sorted(arguments))]
    for name in _SHAPING:
        try:
            parts.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name}=absent")
    for root in (rules, package, package.parent / "schemas"):
        for path in _files(root):
            parts.extend((path.relative_to(root).as_posix(), path.read_bytes()))
    return cache.digest(*parts)


def output_digest(out: Path) -> str:
    parts: list[str | bytes] = []
    for path in _files(out):
        parts.extend((path.relative_to(out).as_posix(), path.read_bytes()))
    return cache.digest(*parts)


def _entry(out: Path, arguments: Iterable[str]) -> str:
    return f"build-{cache.digest(str(out.resolve()), json.dumps(sorted(arguments)))}.json"


def is_up_to_date(rules: Path, out: Path, arguments: Iterable[str]) -> bool:
    """True when the last build into ``out`` had the same inputs and ``out`` is as it left it."""
    arguments = list(arguments)
    raw = cache.read(_entry(out, arguments))
    if raw is None or not out.is_dir():
        return False
    try:
        recorded = json.loads(raw)
    except ValueError:
        return False
    return bool(
        recorded.get("inputs") == input_digest(rules, arguments) and recorded.get("outputs") == output_digest(out)
    )


def record(rules: Path, out: Path, arguments: Iterable[str]) -> None:
    arguments = list(arguments)
    entry = {"inputs": input_digest(rules, arguments), "outputs": output_digest(out)}
    cache.write(_entry(out, arguments), json.dumps(entry).encode("utf-8"))
