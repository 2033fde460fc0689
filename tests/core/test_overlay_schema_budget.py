"""A variant's overlay stops being judged by the schema at --max-diagnostics, as a base file does.

Round 20's performance audit: every entity an overlay added, replaced or patched that failed the
schema cost jsonschema's interpreted walk (about 1 ms) with no bound; 20,000 wrong cards added by a
variant took 17 s where as many in a base file stopped at the bound in 2.6 s.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import civrules.resolve
import civrules.schema
from civrules.cli import main
from tests.conftest import copy_rulesets

CITED = "source: 'house rule: a test card'"


def _card(id_: str, cost: int) -> str:
    credit = f"{{group: crafts, points: 10, {CITED}}}"
    return (
        f"      - {{id: {id_}, name: {id_.title()}, {CITED}, groups: [crafts], cost: {cost}, "
        f"prerequisites: [], attributes: [], credits: [{credit}]}}"
    )


def _variant(tmp_path: Path, wrong: int, right: int = 0, right_first: bool = True) -> Path:
    """A variant adding ``wrong`` cards over the cost's maximum and ``right`` cards that are fine."""
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    head = ["kind: ruleset", "id: va", "name: Va", "extends: advanced-civilization", "overlay:"]
    head += ["  civilization_cards:", "    add:"]
    fine = [_card(f"fine{i}", 100) for i in range(right)]
    bad = [_card(f"card{i}", 1001 + i) for i in range(wrong)]
    lines = [*head, *fine, *bad] if right_first else [*head, *bad, *fine]
    (rules / "rulesets" / "va.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rules


def _run(rules: Path, *options: str) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(
        main, ["--rules", str(rules), "--no-shipped", *options, "validate", "va", "--format", "json"]
    )
    return result.exit_code, json.loads(result.stdout)


def test_an_overlay_with_more_wrong_entities_than_the_bound_stops_at_it_and_says_so(tmp_path: Path) -> None:
    rules = _variant(tmp_path, wrong=8)
    exit_code, found = _run(rules, "--max-diagnostics", "3")
    assert exit_code == 1
    costs = [d for d in found if "1000" in str(d.get("hint", ""))]
    assert len([d for d in found if d["severity"] == "error"]) == 3, found
    assert len(costs) == 3
    summary = [d for d in found if d["code"] == "R011"]
    assert len(summary) == 1 and "stopped checking this file after 3" in str(summary[0]["message"])
    assert str(summary[0]["file"]).endswith("va.yaml")


def test_an_overlay_within_the_bound_is_judged_whole_and_says_nothing_of_stopping(tmp_path: Path) -> None:
    rules = _variant(tmp_path, wrong=3, right=5)
    exit_code, found = _run(rules, "--max-diagnostics", "3")
    assert exit_code == 1
    assert len([d for d in found if d["severity"] == "error"]) == 3, found
    assert not [d for d in found if d["code"] == "R011"]


def test_valid_entities_past_the_bound_do_not_claim_more_problems(tmp_path: Path) -> None:
    rules = _variant(tmp_path, wrong=3, right=4, right_first=False)
    exit_code, found = _run(rules, "--max-diagnostics", "3")
    assert exit_code == 1 and not [d for d in found if d["code"] == "R011"]
    exit_code, found = _run(rules, "--max-diagnostics", "100")
    assert exit_code == 1
    assert len([d for d in found if d["severity"] == "error"]) == 3


def test_the_interpreted_schema_walk_runs_for_no_more_wrong_entities_than_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work, not the time: each wrong entity judged in full costs jsonschema's interpreted walk;
    past the bound one compiled check stops the rest."""
    judged: list[object] = []
    full = civrules.schema.validate_entity

    def counted(*args: Any, **kwargs: Any) -> Any:
        judged.append(args[2])
        return full(*args, **kwargs)

    monkeypatch.setattr(civrules.resolve, "validate_entity", counted)
    rules = _variant(tmp_path, wrong=40)
    exit_code, found = _run(rules, "--max-diagnostics", "3")
    assert exit_code == 1
    assert [d for d in found if d["code"] == "R011"]
    assert 3 <= len(judged) <= 3 * 2, len(judged)  # the base's resolution and the variant's, at most


def test_a_resolution_judges_unbounded_outside_its_overlays_application(tmp_path: Path) -> None:
    """The bound is the overlay's: before and after it is applied a resolution's budget is one
    with no limit (judging there is the schema's judgement whole), never a missing one."""
    from civrules.load.reader import Limits
    from civrules.load.workspace import Workspace

    rules = _variant(tmp_path, wrong=4)
    workspace = Workspace(rules, Limits(max_diagnostics=2), shipped=False)
    resolved, found = civrules.resolve.Resolver(workspace).resolve(workspace.load_ruleset(workspace.manifests()["va"]))
    assert resolved is not None and [d for d in found if d.code == "R011"]  # the overlay stopped at 2
    budget = resolved.budget
    assert isinstance(budget, civrules.resolve.SchemaBudget) and budget.limit is None and not budget.stopped
