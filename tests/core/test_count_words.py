"""How often a thing is listed, in a message: the whole list's count, never the count up to the entry
the message is about (round 35: a calamity a game holds none of, listed twice, was "listed once",
as the runtime's ``at_most`` stopped counting at the first excess; its members in the compiler said
"twice" of the third entry of three)."""

from __future__ import annotations

import pytest

from civrules.diagnostics import Diagnostic
from civrules.families.imperial_settlers import rules as is_rules
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.families.sid_meiers_civilization import rules as smc_rules
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.pipeline import analyse
from tests.families.advanced_civilization.test_designer_trial import HEAD
from tests.rulefiles import CachedWorkspace, shipped_analysis, shipped_text

MANIFEST = HEAD + "files: {civilization_cards: [cards/extra.yaml]}\n"
LOOM = (
    "  - {id: loom, name: Loom, cost: 50, groups: [crafts], prerequisites: [], credits: [], attributes: [],\n"
    '     source: "house rule: a loom"}\n'
)


def _diagnostics(texts: dict[str, str], ruleset: str = "house") -> list[Diagnostic]:
    workspace = CachedWorkspace(texts)
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset])).diagnostics


def test_an_id_used_three_times_is_told_so_at_each_copy() -> None:
    extra = "kind: civilization_cards\ncards:\n" + LOOM * 3
    told = [
        d.message
        for d in _diagnostics({"rulesets/house.yaml": MANIFEST, "cards/extra.yaml": extra})
        if d.code == "I001"
    ]
    assert told == ["civilization card id `loom` is used 3 times"] * 2


def test_an_item_listed_three_times_is_hinted_so() -> None:
    extra = "kind: civilization_cards\ncards:\n" + LOOM.replace("groups: [crafts]", "groups: [crafts, crafts, crafts]")
    hints = [d.hint for d in _diagnostics({"rulesets/house.yaml": MANIFEST, "cards/extra.yaml": extra})]
    assert "`crafts` is listed 3 times: keep one" in hints


def test_a_section_listed_three_times_in_one_list_is_told_so() -> None:
    path = "rulebooks/advanced-civilization.yaml"
    text = shipped_text(path)
    again = '\n  - section: "4.25"\n    reason: "Listed by mistake."\n'
    text = text.replace("\nanomalies:\n", again * 3 + "anomalies:\n", 1)
    told = [d.message for d in _diagnostics({path: text}, "advanced-civilization") if d.code == "Q004"]
    assert told and all(message.endswith("is listed 3 times in `missing`") for message in told), told


def test_the_compilers_once_each_counts_the_whole_list() -> None:
    model = shipped_analysis("sid-meiers-civilization").model
    assert isinstance(model, CivilizationRuleset)
    with pytest.raises(ValueError, match=r"^'porcelain_tower' is listed 3 times in wonders: "):
        smc_rules.research_cost(model, 1, ["porcelain_tower"] * 3)


def test_a_ruleset_id_declared_by_three_manifests_is_told_so_at_each_copy() -> None:
    manifest = "kind: ruleset\nid: dup\nname: Dup\nextends: advanced-civilization\n"
    texts = {f"rulesets/{name}": manifest for name in ("dup.yaml", "dup.yml", "other.yaml")}
    workspace = CachedWorkspace(texts)
    workspace.manifests()
    told = [d.message for path in texts for d in workspace.load(path).diagnostics if d.code == "R002"]
    assert told == ["ruleset id `dup` is declared 3 times"] * 2


def test_the_compilers_imperial_settlers_production_words_the_times_as_the_package_does() -> None:
    model = shipped_analysis("imperial-settlers").model
    assert isinstance(model, ImperialSettlersRuleset)
    with pytest.raises(ValueError, match=r"^'com007' is listed twice in locations: "):
        is_rules.production(model, "barbarians", locations=["com007", "com007"])
