"""What the project ships in ``rules/``: the suite's tests of the shipped data hold exactly this.

The README invites a designer to start a variant in this folder (``civrules new-variant``), and
``make`` builds whatever sits there. The tests that hold the shipped data, sheets, helpers and the
README's tables read the rulesets named here and the files they read, never whatever else is in
``rules/``: a designer's own ruleset there failed four of them (the round-32 newcomer's trial, with
the README's five-minute variant), one reading ``my-variant`` as a game term in the core.

:data:`RULESETS` is checked against the files git tracks (tests/core/test_shipped_list.py): in a
fresh clone, as CI runs, the two are the same, and a ruleset added to the project goes into both.
"""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

from tests.conftest import RULES

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
