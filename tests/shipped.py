"""What the project ships in ``rules/``: the suite's tests of the shipped data hold exactly this.

The README invites a designer to start a variant in this folder (``civrules new-variant``), and
``make`` builds whatever sits there. The tests that hold the shipped data, sheets, helpers and the
README's tables read the rulesets named here and the files they read, never whatever else is in
``rules/``: a designer's own ruleset there failed four of them (the round-32 newcomer's trial, with
the README's five-minute variant), one reading ``my-variant`` as a game term in the core.

:data:`RULESETS` is checked against the files git tracks (tests/core/test_shipped_list.py): in a
fresh clone, as CI runs, the two are the same, and a ruleset added to the project goes into both.

The same holds for what is built from them: the README's five-minute variant, built (``make``,
``civrules build``), puts its package, sheets and helper page into ``generated/`` beside the shipped
ones, and the tests that walked ``generated/`` counted it (11 packages), held it to the shipped
packages' API snapshot, or judged its files with checks meant for the shipped outputs. They walk
:func:`built` instead: the runtimes and what the shipped rulesets build, never a designer's output.
"""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from tests.conftest import REPO, RULES

#: The rulesets the project ships, by id (their manifests are ``rules/rulesets/<id>.yaml``).
RULESETS: tuple[str, ...] = (
    "advanced-civilization",
    "advanced-civilization-western",
    "central-america",
    "expansion-project",
    "imperial-settlers",
    "imperial-settlers-advanced-lookout",
    "imperial-settlers-alternative-lookout",
    "imperial-settlers-peaceful",
    "mega-civilization",
    "sid-meiers-civilization",
    "sid-meiers-civilization-community",
)

#: The shipped variants' bases (their manifests' ``extends``): the rulesets not listed extend none.
#: A listing for the parametrizations that choose bases or variants when a module is collected,
#: which every pytest worker does, where reading the manifests' YAML cost each worker about 0.1 s of
#: CPU; tests/core/test_shipped_list.py holds it to the manifests.
EXTENDS: dict[str, str] = {
    "advanced-civilization-western": "advanced-civilization",
    "central-america": "expansion-project",
    "imperial-settlers-advanced-lookout": "imperial-settlers",
    "imperial-settlers-alternative-lookout": "imperial-settlers",
    "imperial-settlers-peaceful": "imperial-settlers",
    "sid-meiers-civilization-community": "sid-meiers-civilization",
}

#: What ``civrules build`` writes for the rules of the project (committed, kept current by
#: ``civrules build --check``).
GENERATED = REPO / "generated"

#: The files of ``rules/`` that no ruleset reads and the project ships all the same.
OTHER_FILES: tuple[str, ...] = ("README.md",)


def manifests() -> list[Path]:
    """The shipped rulesets' manifests, in the order of their ids."""
    return [RULES / "rulesets" / f"{ruleset_id}.yaml" for ruleset_id in sorted(RULESETS)]


@functools.cache
def ruleset_files(ruleset_id: str) -> frozenset[str]:
    """The files a ruleset's validation reads, relative to rules/: its manifest, the data files and
    rule index it names, and those of the rulesets it extends."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    manifest = f"rulesets/{ruleset_id}.yaml"
    data = yaml.load((RULES / manifest).read_text(encoding="utf-8"), Loader=loader)
    found = {manifest}
    for paths in (data.get("files") or {}).values():
        found.update(paths)
    rule_index = (data.get("rulebook") or {}).get("rule_index")
    if rule_index is not None:
        found.add(rule_index)
    if data.get("extends"):
        found |= ruleset_files(data["extends"])
    return frozenset(found)


@functools.cache
def files() -> tuple[str, ...]:
    """Every shipped file of ``rules/``, relative to it, sorted: what the shipped rulesets read, and
    :data:`OTHER_FILES`."""
    found = set(OTHER_FILES).union(*(ruleset_files(ruleset_id) for ruleset_id in RULESETS))
    return tuple(sorted(found))


def yaml_files(under: str = "") -> list[Path]:
    """The shipped YAML files of ``rules/`` (of its folder ``under``, if given), sorted by their
    path in it."""
    prefix = f"{under}/" if under else ""
    return [RULES / f for f in files() if f.startswith(prefix) and f.endswith((".yaml", ".yml"))]


def package_names() -> list[str]:
    """The shipped rulesets' packages, by their folder's name under
    ``generated/python/civrules_rulesets/`` (``advanced_civilization``), sorted."""
    from civrules.emit.packaging import package_name

    return sorted(package_name(ruleset_id) for ruleset_id in RULESETS)


def is_built(path: Path) -> bool:
    """Whether ``path``, under ``generated/``, is the project's own: a runtime's or shared file, or
    the output of a shipped ruleset (its package, its sheets' folder, its helper page), not of a
    designer's ruleset built beside them."""
    parts = path.relative_to(GENERATED).parts
    if parts[:2] == ("python", "civrules_rulesets") and len(parts) > 2:
        return parts[2] in package_names()
    if parts[:1] == ("sheets",) and len(parts) > 1:
        return parts[1] in RULESETS
    if parts[:1] == ("helpers",) and len(parts) > 1:
        return parts[1].removesuffix(".html") in RULESETS
    return True


def built(pattern: str) -> list[Path]:
    """The project's files or folders under ``generated/`` matching a glob ``pattern`` (relative to
    it), sorted: :func:`is_built`, never a designer's variant built beside them."""
    return sorted(path for path in GENERATED.glob(pattern) if is_built(path))
