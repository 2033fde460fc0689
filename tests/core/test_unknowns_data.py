"""The unknown facts civrules lists are the `{unknown: why}` written in the data (round 25's audit).

`tests/core/test_unknowns.py` holds the README's counts to what `civrules validate --select Q006`
reports; these hold that report to the data itself, read here with PyYAML and nothing of civrules':
each `{unknown: why}` in the files a ruleset reads (its manifest, the files it names, its base's,
never a rule index, whose unknown titles are no facts, nor a `disagreements:` entry restating an
unknown value) is listed once, at its line, and nothing else is. A variant lists only what it
leaves of its base's unknowns (what it wrote over is no fact), never one the data does not hold.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from civrules.cli import main
from tests import shipped
from tests.conftest import RULES
from tests.core.test_unknowns import README_COUNTS

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The key of a mapping that restates another field's value, not a fact of its own.
RESTATING = "disagreements"


def _manifest(ruleset: str) -> dict[str, Any]:
    data = yaml.load((RULES / "rulesets" / f"{ruleset}.yaml").read_text(encoding="utf-8"), Loader=_LOADER)
    assert isinstance(data, dict)
    return data


def _files(ruleset: str) -> list[str]:
    """The files (relative to `rules/`) a ruleset reads, its base's first; no rule index."""
    manifest = _manifest(ruleset)
    base = manifest.get("extends")
    named: list[str] = []
    for value in (manifest.get("files") or {}).values():
        named += value if isinstance(value, list) else [value]
    own = [f"rulesets/{ruleset}.yaml", *(path for path in named if not path.startswith("rulebooks/"))]
    found = _files(base) if isinstance(base, str) else []
    return found + [path for path in own if path not in found]


def _unknown_lines(node: yaml.Node) -> list[tuple[int, int]]:
    """The 1-based line and column of each `{unknown: why}` mapping in a composed YAML tree,
    outside `disagreements:` entries."""
    if isinstance(node, yaml.MappingNode):
        keys = [key.value for key, _ in node.value]
        if keys == ["unknown"]:
            return [(node.start_mark.line + 1, node.start_mark.column + 1)]
        return [line for key, value in node.value if key.value != RESTATING for line in _unknown_lines(value)]
    if isinstance(node, yaml.SequenceNode):
        return [line for item in node.value for line in _unknown_lines(item)]
    return []


@functools.cache
def written(path: str) -> tuple[tuple[int, int], ...]:
    node = yaml.compose((RULES / path).read_text(encoding="utf-8"), Loader=_COMPOSER)
    return tuple(_unknown_lines(node)) if node is not None else ()


@functools.cache
def listed(ruleset: str) -> list[tuple[str, int, int]]:
    """Each unknown fact `civrules validate RULESET --select Q006` lists: its file, line and column."""
    result = CliRunner().invoke(
        main,
        [
            "--rules",
            str(RULES),
            "--max-diagnostics",
            "100000",
            "validate",
            ruleset,
            "--select",
            "Q006",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    return [
        (str(Path(d["file"]).relative_to("rules")), d["line"], d["column"])
        for d in json.loads(result.stdout)
        if d["code"] == "Q006"
    ]


def data_unknowns(ruleset: str) -> list[tuple[str, int, int]]:
    return [(path, line, column) for path in _files(ruleset) for line, column in written(path)]


@pytest.mark.parametrize("ruleset", sorted(README_COUNTS))
def test_each_unknown_listed_is_one_the_data_writes_and_is_listed_once(ruleset: str) -> None:
    found = listed(ruleset)
    assert len(found) == len(set(found)), f"{ruleset}: an unknown fact is listed twice"
    stray = set(found) - set(data_unknowns(ruleset))
    assert not stray, f"{ruleset} lists unknown facts the data does not write: {sorted(stray)[:5]}"
    assert README_COUNTS[ruleset] == len(found)


@pytest.mark.parametrize("ruleset", sorted(r for r in README_COUNTS if r not in shipped.EXTENDS))
def test_a_base_ruleset_lists_every_unknown_its_data_writes(ruleset: str) -> None:
    """A ruleset that extends none writes over nothing: its README count is the number of
    `{unknown: why}` in its files, and each is listed."""
    data = data_unknowns(ruleset)
    assert sorted(listed(ruleset)) == sorted(data)
    assert README_COUNTS[ruleset] == len(data)


@pytest.mark.parametrize("ruleset", sorted(r for r in README_COUNTS if r in shipped.EXTENDS))
def test_a_variant_lists_every_unknown_its_own_manifest_writes_and_leaves(ruleset: str) -> None:
    """What a variant leaves out is its base's: an unknown its own manifest writes is a fact of
    the variant (its overlay writes none that a later entry of its own takes back)."""
    own = {found for found in data_unknowns(ruleset) if found[0] == f"rulesets/{ruleset}.yaml"}
    assert own <= set(listed(ruleset))
