"""Facts of the rulebook of Sid Meier's Civilization (cited by page) held against `civrules export`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import REPO


@pytest.fixture(scope="module")
def exported() -> dict[str, Any]:
    """`civrules export`'s document, through the command line in this process: what is held is its
    facts, not how an interpreter starts."""
    done = CliRunner().invoke(main, ["--rules", str(REPO / "rules"), "export", "sid-meiers-civilization"])
    assert done.exit_code == 0, done.output
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def by_id(data: dict[str, Any], collection: str) -> dict[str, Any]:
    return {e["id"]: e for e in data[collection]}


# (page, what the rulebook says, a path into the export, the value)
FACTS: list[tuple[str, str, tuple[Any, ...], Any]] = [
    ("p2", "two players at least", ("ruleset", "players", "min"), 2),
    ("p2", "economic victory at 15 coins", ("settings", "coins", "victory"), 15),
    ("p2", "city limit two", ("settings", "cities", "limit"), 2),
    ("p2", "three with Irrigação", ("settings", "cities", "raised_limit", "limit"), 3),
    ("p2", "the technology that raises it", ("settings", "cities", "raised_limit", "technology"), "irrigacao"),
    ("p2", "three squares from any other city", ("settings", "cities", "min_distance"), 3),
    ("p2", "the turn passes to the left", ("settings", "turn_order", "direction"), "left"),
    ("p3", "trade dial up to 27", ("settings", "trade", "dial_max"), 27),
    ("p5", "3 trade buy 1 production", ("settings", "production", "trade_per_production"), 3),
    ("p5", "an army figure costs 4", ("settings", "production", "figures", "army"), 4),
    ("p5", "a scout figure costs 6", ("settings", "production", "figures", "scout"), 6),
    ("p9", "travel speed 2", ("settings", "movement", "travel_speed"), 2),
    ("p9", "stacking limit 2", ("settings", "movement", "stacking_limit"), 2),
    ("p8", "culture hand of two cards", ("settings", "culture_hand", "size"), 2),
    ("p11", "each coin keeps one trade", ("settings", "research", "trade_kept_per_coin"), 1),
    ("p11", "level I needs 6 trade", ("settings", "research", "costs", 0, "trade"), 6),
    ("p11", "level II needs 11", ("settings", "research", "costs", 1, "trade"), 11),
    ("p11", "level III needs 16", ("settings", "research", "costs", 2, "trade"), 16),
    ("p11", "level IV needs 21", ("settings", "research", "costs", 3, "trade"), 21),
    ("p11", "level V needs 26", ("settings", "research", "costs", 4, "trade"), 26),
    ("p13", "15 technologies for the technology victory", ("settings", "pyramid", "total"), 15),
    ("p13", "five at level I", ("settings", "pyramid", "minimums", 0, "count"), 5),
    ("p13", "two at level IV", ("settings", "pyramid", "minimums", 3, "count"), 2),
    (
        "p12",
        "the pyramid's row rule is inferred",
        ("settings", "pyramid", "each_level_needs_one_more_below", "inferred"),
        True,
    ),
    ("p14", "battle hand begins at 3", ("settings", "combat", "battle_hand", "base"), 3),
    ("p14", "+2 per friendly figure after the first", ("settings", "combat", "battle_hand", "per_extra_figure"), 2),
    ("p14", "+3 defending a city", ("settings", "combat", "battle_hand", "defending_city"), 3),
    ("p17", "ties go to the defender", ("settings", "combat", "ties"), "defender"),
    ("p17", "one figure lost per two units destroyed", ("settings", "combat", "figures_lost_per_destroyed_units"), 2),
    ("p17", "three trade of loot", ("settings", "combat", "loot", "figures", "trade"), 3),
    ("p17", "two resources from a city", ("settings", "combat", "loot", "city", "resources"), 2),
]


@pytest.mark.parametrize(("page", "what", "path", "value"), FACTS, ids=[f[1] for f in FACTS])
def test_a_rulebook_fact_is_in_the_export(
    exported: dict[str, Any], page: str, what: str, path: tuple[Any, ...], value: Any
) -> None:
    node: Any = exported
    for key in path:
        node = node[key]
    assert node == value, f"{page}: {what}"


def test_entity_facts_of_the_rulebook(exported: dict[str, Any]) -> None:
    tech = by_id(exported, "technologies")
    assert tech["sailing"]["level"] == 2  # p11, Example 1
    assert tech["space_flight"]["level"] == 5  # p13
    assert "unknown" in tech["pottery"]["level"]  # the rulebook gives no level
    buildings = by_id(exported, "buildings")
    assert buildings["celeiro"]["cost"] == 5 and buildings["aqueduto"]["cost"] == 8  # p6, p13
    assert buildings["aqueduto"]["upgrade_of"] == "celeiro"  # p12
    assert buildings["porto"]["terrains"] == ["agua"]  # p6
    units = by_id(exported, "unit_types")
    assert [r["cost"] for r in units["cavalaria"]["ranks"]] == [5, 7, 9, 11]  # p6
    assert units["aeronave"]["ranks"][0]["cost"] == 12  # p20 (errata)
    assert units["aeronave"]["ranks"][0]["strength"] == {"min": 5, "max": 7}  # p17
    assert units["infantaria"]["trumps"] == "cavalaria"  # p16
    wonders = by_id(exported, "wonders")
    assert wonders["colossus"]["cost"] == 15 and wonders["colossus"]["discount"]["cost"] == 10  # p7
    assert wonders["porcelain_tower"]["research_discount"] == 5  # p20
    bonuses = by_id(exported, "combat_bonuses")
    assert (bonuses["defending_capital"]["amount"], bonuses["defending_city"]["amount"]) == (12, 6)  # p15
    assert {v["kind"] for v in exported["victories"]} == {"culture", "technology", "economy", "military"}  # p2
    assert next(p["id"] for p in exported["phases"]) == "inicio_do_turno"  # p2
