"""An editor's hover on an entity shows what the family of the ruleset at hand declares of its
collection (:class:`civrules.families.Hover`): an Advanced Civilization card's credits, an Imperial
Settlers card's production, a Sid Meier's technology's level. A collection that declares none shows
its name, rule and place, and no other game's fields (the hover read one game's list of fields in
every family's files before round 24)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from civrules.families import CollectionSpec, Family, Hover, HoverList
from civrules.lsp.index import Index, entity_facts
from civrules.pipeline.incremental import Session
from tests.conftest import copy_rulesets


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    rules = copy_rulesets(
        tmp_path_factory.mktemp("hovers") / "rules",
        "advanced-civilization",
        "imperial-settlers",
        "sid-meiers-civilization-community",
    )
    return Index(Session(rules).update())


def _hover(index: Index, collection: str, entity: str) -> list[str]:
    """The paragraphs of the hover on the definition of ``entity`` of ``collection``, the place
    it is defined at relative to the rules folder."""
    (symbol,) = [s for s in index.by_id[entity] if s.definition and s.collection == collection]
    paragraphs = index.describe(symbol).split("\n\n")
    return [re.sub(r"`/\S*/rules/", "`rules/", paragraph) for paragraph in paragraphs]


def test_an_advanced_civilization_card_shows_its_cost_groups_and_credits(index: Index) -> None:
    assert _hover(index, "civilization_cards", "pottery") == [
        "**Pottery** — civilization card `pottery`",
        r"cost\: 45\; groups\: crafts",
        r"credits\: 10 to crafts\, 10 to democracy\, 10 to monotheism",
        r"rule 32\.21",
        "defined at `rules/cards/advanced-civilization.yaml:42`",
        "as resolved in `advanced-civilization`",
    ]


def test_an_imperial_settlers_card_shows_its_production(index: Index) -> None:
    hover = _hover(index, "cards", "bar001")
    facts = r"kind\: production\; colours\: brown\; copies\: 3\; cost\: wood\; deal\: wood\; production\: wood\, wood"
    assert facts in hover
    # Not an Advanced Civilization card's fields alone: its production was never shown.
    assert not any(line.startswith(r"cost\: wood") for line in hover)


def test_a_sid_meiers_technology_shows_its_level(index: Index) -> None:
    assert _hover(index, "technologies", "animal_husbandry")[1] == r"level\: 1\; unlocks\: none"
    assert _hover(index, "technologies", "philosophy")[1] == r"level\: 1\; unlocks\: buildings templo"


def test_a_collection_that_declares_no_hover_shows_no_other_games_fields() -> None:
    """A family of its own (declaring no hover) whose entity has fields named as another game's
    (`cost`, `credits`): the hover reads none of them."""
    bare = Family("x-dice", "Dice", "x", ("Y",), collections={"dice": CollectionSpec("dice", ("dice",), word="die")})
    raw = {"id": "d6", "name": "Six", "cost": 3, "credits": [{"points": 5, "card": "d20"}], "faces": 6}
    assert entity_facts(bare, "dice", raw) == []
    assert entity_facts(None, "dice", raw) == []
    # What a family declares is read in its words, whatever the game.
    declared = Family(
        "x-dice",
        "Dice",
        "x",
        ("Y",),
        collections={
            "dice": CollectionSpec(
                "dice", ("dice",), hover=Hover(("faces",), (HoverList("credits", "points", ("card",), "toward"),))
            )
        },
    )
    assert entity_facts(declared, "dice", raw) == [r"faces\: 6", r"credits\: 5 toward d20"]


def test_a_hover_of_a_collection_that_declares_none_shows_its_name_rule_and_place(index: Index) -> None:
    """Sid Meier's eras declare no hover: the name, the kind in words, where it is defined."""
    assert _hover(index, "eras", "ancient") == [
        "**Ancient Wonders** — era `ancient`",
        "defined at `rules/cards/sid-meiers-civilization-community-wonders.yaml:6`",
        "as resolved in `sid-meiers-civilization-community`",
    ]


def test_the_examples_of_the_declarations_run() -> None:
    import doctest

    from civrules.families import family
    from civrules.lsp import index as module

    for checked in (family, module):
        assert doctest.testmod(checked).failed == 0, checked.__name__


def test_collections_of_one_name_in_two_families_are_each_read_in_their_own_files(index: Index) -> None:
    """Every family has `phases`, and two have `decks` (Imperial Settlers' in the manifest, Sid
    Meier's in its culture file): the editor read each name's first family only, so Imperial
    Settlers' and Sid Meier's phases and Sid Meier's culture decks had no definition, hover or
    references."""
    phases = {s.relative for s in index.by_id["lookout"] if s.definition and s.collection == "phases"}
    assert phases == {"rulesets/imperial-settlers.yaml"}
    assert _hover(index, "phases", "lookout")[:2] == ["**Fase de Observação** — phase `lookout`", r"order\: 1"]
    assert _hover(index, "phases", "inicio_do_turno")[:2] == [
        "**Inicio do turno** — phase `inicio_do_turno`",
        r"order\: 1",
    ]
    (deck,) = [s for s in index.by_id["culture_i"] if s.definition]
    assert deck.collection == "decks" and deck.relative == "cards/sid-meiers-civilization-community-culture.yaml"
    assert _hover(index, "decks", "culture_i")[:2] == ["**Culture I** — culture event deck `culture_i`", r"cards\: 27"]
    # A culture space's deck goes to it.
    assert any(s.relative == deck.relative for s in index.references(deck, include_definition=False))


def test_a_shipped_file_is_named_in_the_editor_as_in_civrules_messages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q007 and R013 name a file shipped with civrules `<civrules>/cards/...`; the hover's "defined
    at" and a rename's refusals named the same file by where it is installed (in civrules' checkout
    by its path from the working directory, `rules/cards/...`, which read as the designer's own
    file). One spelling now: `<civrules>/...`, in every text of the server."""
    from civrules.load import workspace
    from civrules.lsp.index import RenameRefusedError

    shipped = tmp_path / "shipped"
    (shipped / "rulesets").mkdir(parents=True)
    (shipped / "cards").mkdir()
    (shipped / "rulesets/base.yaml").write_text(
        "kind: ruleset\nfamily: imperial-settlers\nid: base\nname: Base\nfiles:\n  cards: [cards/base.yaml]\n",
        encoding="utf-8",
    )
    (shipped / "cards/base.yaml").write_text("kind: cards\ncards:\n  - id: hut\n    name: Hut\n", encoding="utf-8")
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets/v.yaml").write_text(
        "kind: ruleset\nid: v\nname: V\nextends: base\n"
        "overlay:\n  cards:\n    add:\n      - id: shed\n        name: Shed\n",
        encoding="utf-8",
    )
    monkeypatch.delenv("CIVRULES_NO_SHIPPED")
    monkeypatch.setattr(workspace, "shipped_rules", lambda: shipped)
    index = Index(Session(rules).update())
    (hut,) = [s for s in index.by_id["hut"] if s.definition]
    assert "defined at `<civrules>/cards/base.yaml:3`" in index.describe(hut).split("\n\n")
    with pytest.raises(RenameRefusedError) as refused:
        index.renamable(hut)
    assert "shipped with civrules (<civrules>/cards/base.yaml)" in str(refused.value)
    (shed,) = [s for s in index.by_id["shed"] if s.definition]
    with pytest.raises(RenameRefusedError) as taken:
        index.rename(shed, "hut")
    assert "already exists (<civrules>/cards/base.yaml:3)" in str(taken.value)
    assert str(shipped) not in str(taken.value) + str(refused.value) + index.describe(hut)


def test_a_hover_names_a_few_of_the_rulesets_resolving_an_entity_and_counts_the_rest(
    index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every variant of a base resolves the base's entities: the hover named each (a base with 1,000
    variants wrote a paragraph of 1,000 ids). Here the resolution is the index's own, said to be
    made by 13 rulesets (13 variants to analyse cost seconds)."""
    resolved = index._resolved

    def by_thirteen(symbol: object) -> object:
        raw, _ = resolved(symbol)  # type: ignore[arg-type]
        return raw, [f"house-{n:02}" for n in range(13)]

    monkeypatch.setattr(index, "_resolved", by_thirteen)
    hover = _hover(index, "cards", "bar001")[-1]
    assert hover.startswith("as resolved in `house-00`, `house-01`,") and hover.endswith("`house-09` and 3 more"), hover
