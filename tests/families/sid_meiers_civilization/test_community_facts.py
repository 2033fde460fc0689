"""Facts of the community variant of Sid Meier's Civilization held against its sources: what the
rulebook says wins over a transcription's reading, a fact a cited file gives is written (not left
unknown), each citation names a file that holds the fact, and where two sources differ the data says
which it chose (round 18's data audit)."""

from __future__ import annotations

from typing import Any

import pytest

from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.model import Unknown
from tests.rulefiles import shipped_analysis

XLSX = (
    "cash1981/civilization-boardgame-rest@37b6219f42d150b833be42050f3cb22cdec41333"
    ":src/main/resources/assets/gamedata-faf-waw.xlsx"
)
TECH_TEXT = "cash1981/playciv@746f207075c7292ca479fad46a5a65c5b43a3865:packages/web/src/views/techText.ts"
BUILDING_TERRAIN = "cash1981/playciv@2cca7518f4aa84a8f913dec56db99ceec96e151a:docs/agents/tasks/building-terrain.md"
CULTURE_TRACK = "cash1981/playciv@e1b0fcf4555548b0bf41f2c5e274ee5dbe1b247c:packages/engine/src/culture-track.ts"
ASSISTED = "cash1981/playciv@d6e14ae21cf9f91ae96e9d397621c4d7b65479f8:packages/engine/src/assisted.ts"
GOVERNMENT = "cash1981/playciv@018c260d81041623aaa0e5044344036e3fd520f3:packages/engine/src/government.ts"


def model(ruleset_id: str) -> CivilizationRuleset:
    found = shipped_analysis(ruleset_id).model
    assert isinstance(found, CivilizationRuleset)
    return found


@pytest.fixture(scope="module")
def community() -> CivilizationRuleset:
    return model("sid-meiers-civilization-community")


def disagreement(raw: Any, field: str) -> dict[str, Any]:
    (found,) = [d for d in raw.get("disagreements") or () if d["field"] == field]
    assert isinstance(found, dict)
    return found


def test_barracks_disagreement_says_the_variant_chose_the_transcription_s_terrains(
    community: CivilizationRuleset,
) -> None:
    """The variant takes cash1981/playciv's terrains for Barracks: its disagreement says so, and the
    rulebook's silence (p6 has no row for Barracks) is the alternative it set aside."""
    barracks = community.buildings.by_id["barracks"]
    assert barracks.terrains == ("deserto", "montanha", "pradaria", "floresta")
    entry = disagreement(barracks.raw, "terrains")
    assert entry["chosen"] == list(barracks.terrains)
    assert any("p6" in alternative["source"] for alternative in entry["alternatives"])
    # the base game keeps the rulebook's gap, and its disagreement says that
    base = model("sid-meiers-civilization").buildings.by_id["barracks"]
    assert isinstance(base.terrains, Unknown)


def test_no_technology_unlocks_a_wonder(community: CivilizationRuleset) -> None:
    """Any player may build any wonder of the market (p7/produzindo-maravilhas); a technology lowers
    a wonder's cost (its `discount`), it never unlocks it. The card text's 'Unlocks:' line is not taken
    for one."""
    unlocking = [t.id for t in community.technologies if not isinstance(t.unlocks, Unknown) and t.unlocks.wonders]
    assert unlocking == []
    # the link the card text names is the wonder's discount, from the wonder's own row
    assert community.wonders.by_id["the_oracle"].discount is not None
    assert community.wonders.by_id["the_oracle"].discount.technology == "code_of_laws"


def test_angkor_wat_s_discount_technology_records_the_transcriptions_disagreement(
    community: CivilizationRuleset,
) -> None:
    """The spreadsheet's Wonders sheet gives Angkor Wat 10 with Theology; playciv's card text lists
    Angkor Wat under Philosophy. The data keeps the wonder's own row and says so."""
    angkor = community.wonders.by_id["angkor_wat"]
    assert angkor.discount is not None and angkor.discount.technology == "theology"
    entry = disagreement(angkor.raw, "discount.technology")
    assert entry["chosen"] == "theology"
    assert [a["value"] for a in entry["alternatives"]] == ["philosophy"]
    assert TECH_TEXT in entry["alternatives"][0]["source"]


def test_city_walls_cost_what_masonry_s_card_text_says(community: CivilizationRuleset) -> None:
    walls = community.buildings.by_id["muros"]
    assert walls.cost == 7
    assert TECH_TEXT in (walls.source or "")


def test_barracks_limited_is_cited_to_the_file_that_gives_it(community: CivilizationRuleset) -> None:
    """`limited` (one per city) is in building-terrain.md's reading of the printed table, not in
    building-data.ts or terrain.ts, which the data cited for it."""
    barracks = community.buildings.by_id["barracks"]
    assert barracks.limited is True
    assert BUILDING_TERRAIN in (barracks.source or "")


def test_the_slash_pairs_of_the_printed_table_are_upgrades(community: CivilizationRuleset) -> None:
    buildings = community.buildings.by_id
    upgrades = {b.id: b.upgrade_of for b in community.buildings if b.upgrade_of is not None}
    assert upgrades == {
        "mina_de_ferro": "oficina",
        "aqueduto": "celeiro",
        "universidade": "biblioteca",
        "banco": "marcado",
        "catedral": "templo",
        "academia_militar": "barracks",
    }
    for upgrade in ("universidade", "banco", "catedral", "academia_militar"):
        assert BUILDING_TERRAIN in (buildings[upgrade].source or ""), upgrade
        entry = disagreement(buildings[upgrade].raw, "upgrade_of")
        assert entry["chosen"] == buildings[upgrade].upgrade_of


def test_each_culture_event_space_draws_from_its_section_s_deck(community: CivilizationRuleset) -> None:
    decks = {s.position: s.deck for s in community.spaces}
    expected = {
        p: ("culture_i" if p <= 7 else "culture_ii" if p <= 14 else "culture_iii")
        for p in range(1, 21)
        if p not in (3, 7, 12, 18)
    }
    assert {p: d for p, d in decks.items() if d is not None} == expected
    # a great person space draws a great person; the victory space ends the game (p8)
    assert [decks[p] for p in (3, 7, 12, 18, 21)] == [None] * 5
    for space in community.spaces:
        if space.deck is not None:
            assert ASSISTED in (space.source or "") and CULTURE_TRACK in (space.source or "")


def test_starting_governments_are_p3_s_despotism_but_where_government_ts_names_another(
    community: CivilizationRuleset,
) -> None:
    """p3/trocando-o-governo: every civilization starts with Despotism, Rome and Russia excepted (their
    governments unnamed); government.ts names them, Republic and Communism, and the Japanese' Feudalism,
    an expansion's civilization p3 does not speak of (a disagreement the data records)."""
    governments = {c.id: c.starting_government for c in community.civilizations}
    assert len(governments) == 16
    named = {"roma": "republic", "russia": "communism", "japanese": "feudalismo"}
    for civilization, government in governments.items():
        entity = community.civilizations.by_id[civilization]
        if civilization in named:
            assert government == named[civilization], civilization
            assert GOVERNMENT in (entity.source or ""), civilization
        else:
            assert government == "despotismo", civilization
            assert "p3/trocando-o-governo" in entity.rules
    assert community.governments.by_id["communism"].source == GOVERNMENT
    assert "communism" in community.technologies.by_id["communism"].unlocks.governments  # type: ignore[union-attr]
    japanese = disagreement(community.civilizations.by_id["japanese"].raw, "starting_government")
    assert japanese["chosen"] == "feudalismo"
    assert [a["value"] for a in japanese["alternatives"]] == ["despotismo"]


def test_the_player_count_cites_the_rulebook_not_the_spreadsheet(community: CivilizationRuleset) -> None:
    players = community.data["players"]
    assert (players["min"], players["max"]) == (2, 5)
    assert players.get("rule") == "p2"
    assert XLSX not in str(players.get("source", ""))
