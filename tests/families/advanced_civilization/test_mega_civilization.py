"""The Mega Civilization ruleset (issue 9): its totals, the extra-credit families, the errata cards,
the trade decks per player count, the victory-point bands and the A.S.T. levels, against the
community transcriptions it was transcribed from (shared/sources/community/megaciv_*)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from civrules.diagnostics import Severity
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Card, Ruleset
from civrules.families.advanced_civilization.succession import can_enter_epoch, layout, requirements_of, track_of
from civrules.model import Unknown
from civrules.pipeline import analyse
from tests.conftest import RULES
from tests.rulefiles import shipped_analysis

RULESET = "mega-civilization"
COMMUNITY = Path(__file__).resolve().parents[4] / "shared" / "sources" / "community"
needs_community = pytest.mark.skipif(
    not (COMMUNITY / "megaciv_advances_by_source.csv").is_file(),
    reason=f"community transcriptions not found at {COMMUNITY} (shared/ is checked out beside the repository in CI)",
)

#: The 17 families of megaciv_disagreements.md: the first advance gives 10 extra credits to the
#: second, the second 20 to the third.
FAMILIES = [
    ("cloth_making", "naval_warfare", "diaspora"),
    ("mysticism", "monument", "wonder_of_the_world"),
    ("sculpture", "architecture", "mining"),
    ("urbanism", "diplomacy", "provincial_empire"),
    ("empiricism", "medicine", "anatomy"),
    ("masonry", "engineering", "roadbuilding"),
    ("monarchy", "law", "cultural_ascendancy"),
    ("mythology", "literacy", "mathematics"),
    ("pottery", "agriculture", "democracy"),
    ("written_record", "cartography", "library"),
    ("deism", "fundamentalism", "monotheism"),
    ("astronavigation", "calendar", "public_works"),
    ("drama_and_poetry", "rhetoric", "politics"),
    ("music", "enlightenment", "philosophy"),
    ("theocracy", "universal_doctrine", "theology"),
    ("coinage", "trade_routes", "trade_empire"),
    ("metalworking", "military", "advanced_military"),
]

#: The six cards of the official errata list and the values chosen (cost, groups, group credits,
#: extra credit) — the majority of the eight transcriptions; no source differs on Engineering and
#: Library.
ERRATA: dict[str, tuple[int, tuple[str, ...], dict[str, int], tuple[str, int] | None]] = {
    "engineering": (160, ("crafts", "sciences"), {"crafts": 10, "sciences": 10}, ("roadbuilding", 20)),
    "fundamentalism": (150, ("religion",), {"arts": 5, "religion": 10}, ("monotheism", 20)),
    "library": (220, ("sciences",), {"arts": 5, "sciences": 20}, None),
    "mathematics": (
        250,
        ("arts", "sciences"),
        {"arts": 20, "civics": 10, "crafts": 10, "religion": 10, "sciences": 20},
        None,
    ),
    "mythology": (60, ("religion",), {"arts": 5, "religion": 10}, ("literacy", 10)),
    "politics": (230, ("arts",), {"arts": 20, "religion": 5}, None),
}

#: What the dissenting transcriptions give for the errata cards the transcriptions disagree on.
ERRATA_ALTERNATIVES = {
    "fundamentalism": [{"arts": 5, "sciences": 10}],
    "mathematics": [{"arts": 20, "civics": 5, "crafts": 5, "religion": 5, "sciences": 20}],
    "mythology": [{"civics": 5, "religion": 10}, "none (no extra credit)"],
    "politics": [{"arts": 20, "sciences": 5}],
}


@pytest.fixture(scope="module")
def analysis() -> Any:
    return shipped_analysis(RULESET)


@pytest.fixture(scope="module")
def ruleset(analysis: Any) -> Ruleset:
    assert analysis.model is not None
    model: Ruleset = analysis.model
    return model


def group_credits(card: Card) -> dict[str, int]:
    """The group credits as written: group -> points."""
    out: dict[str, int] = {}
    for line in card.credit_list():
        if line.group is not None and isinstance(line.points, int):
            out[line.group] = line.points
    return out


def extra_credits(card: Card) -> list[tuple[str, int]]:
    """The extra credits as written: (target, points)."""
    return [
        (line.card, line.points)
        for line in card.credit_list()
        if line.extra and line.card is not None and isinstance(line.points, int)
    ]


def starts(ruleset: Ruleset, nation: str, level: str) -> dict[str, int]:
    """A nation's epoch starts at an A.S.T. level."""
    found = track_of(ruleset, nation, level).epoch_starts
    assert not isinstance(found, Unknown)
    return dict(found)


def band(cost: int) -> int:
    """Victory points by cost (community/README.md): under 100 -> 1, 100-199 -> 3, 200 and more -> 6."""
    return 1 if cost < 100 else 3 if cost < 200 else 6


def decks(ruleset: Ruleset) -> list[Mapping[str, Any]]:
    compositions = ruleset.settings["commodities"]["deck_compositions"]
    assert isinstance(compositions, list)
    return compositions


def composition(ruleset: Ruleset, players: int, region: str) -> Mapping[str, Any]:
    found = [
        c for c in decks(ruleset) if c["players"]["min"] <= players <= c["players"]["max"] and c["map_region"] == region
    ]
    assert len(found) == 1, (players, region, found)
    return found[0]


def deck_size(ruleset: Ruleset, players: int, region: str) -> int:
    """Trade cards in the deck(s): the goods' counts plus one of each calamity of the listed severities."""
    total = 0
    for deck in composition(ruleset, players, region)["decks"]:
        goods = sum(entry["count"] for entry in deck["commodities"])
        calamities = sum(1 for c in ruleset.calamities if c.severity in deck["calamity_severities"])
        total += int(goods + calamities * deck["calamity_sets"])
    return total


def read_csv(name: str) -> list[dict[str, str]]:
    with (COMMUNITY / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def slug(name: str) -> str:
    return "_".join(name.lower().split())


#: Goods whose id is the one Advanced Civilization and the Expansion Project use for the same good,
#: not the slug of the transcriptions' name (rules/cards/mega-civilization-commodities.yaml notes).
GOOD_IDS = {"spice": "spices", "gemstones": "gems"}


def good_id(name: str) -> str:
    return GOOD_IDS.get(slug(name), slug(name))


# --- The ruleset as a whole ------------------------------------------------------------------------


def test_validates_without_errors_or_warnings(analysis: Any) -> None:
    problems = [d for d in analysis.diagnostics if d.severity in (Severity.ERROR, Severity.WARNING)]
    assert problems == []
    assert analysis.ok


def test_is_an_independent_base_ruleset(ruleset: Ruleset) -> None:
    assert ruleset.extends is None
    assert ruleset.players == (5, 18)


def test_totals(ruleset: Ruleset) -> None:
    assert len(ruleset.cards) == 51
    assert len(ruleset.calamities) == 24
    assert len(ruleset.commodities) == 45
    assert sum(c.count for c in ruleset.commodities if isinstance(c.count, int)) == 296
    assert ruleset.settings["commodities"]["total_cards"]["count"] == 296
    assert len(ruleset.nations) == 18
    assert len(ruleset.epochs) == 6
    assert len(ruleset.ast_tracks) == 36
    assert len(ruleset.areas) == 0  # no map in the sources


def _nodes(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _nodes(value, (*path, i))


#: A public transcription cited by repository, commit and path (owner/repo@<40 hex>:path).
PUBLIC = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@(?P<commit>[0-9a-f]+):[^\s;,()]+")


def test_every_fact_cites_a_community_source_never_a_rule(ruleset: Ruleset) -> None:
    assert ruleset.rule_index is not None
    assert ruleset.rule_index.sections == frozenset()
    for document in ruleset.documents:
        for path, value in _nodes(document.data):
            assert not (path and path[-1] == "rule"), (document.file, path)
            if path and path[-1] == "source":
                assert isinstance(value, str), (document.file, path)
                cited = list(PUBLIC.finditer(value))
                assert value.startswith("community/") or cited, (document.file, path, value)
                assert all(len(m["commit"]) == 40 for m in cited), (document.file, path, value)


def test_unknown_parts_are_declared(ruleset: Ruleset) -> None:
    declared = ruleset.data["not_in_sources"]
    assert set(declared) == {"map", "victory"}
    assert all(set(value) == {"unknown"} for value in declared.values())
    assert "map" not in ruleset.data["files"]
    # the rulebook transcription (menuan/megacivrules-flutter, section 12): the two colours of an advance
    # are never combined, the better one counts
    assert ruleset.credit_policy["same_target"] == "highest"


def test_the_rulebook_transcription_gives_the_turn_and_the_purchase_rules(ruleset: Ruleset) -> None:
    """menuan/megacivrules-flutter's chapters.json: 13 phases (sequence of play), no prerequisites (section 12),
    tradable minor calamities (section 7), n x n x v set values (section 7)."""
    phases = ruleset.data["sequence_of_play"]["phases"]
    assert [p["number"] for p in phases] == list(range(1, 14))
    assert phases[8]["order"] == "ascending_calamity_order"
    assert all(card.raw["prerequisites"] == [] for card in ruleset.cards)
    assert all(c.tradable is True for c in ruleset.calamities if c.severity == "minor")
    assert ruleset.settings["commodities"]["set_value"]["formula"] == "count_squared_times_value"


# --- Advances ------------------------------------------------------------------------------------


def test_victory_points_follow_the_cost_bands(ruleset: Ruleset) -> None:
    for card in ruleset.cards:
        assert isinstance(card.cost, int)
        assert card.victory_points == band(card.cost), card.id
    by_band = Counter(card.victory_points for card in ruleset.cards)
    assert by_band == {1: 17, 3: 17, 6: 17}
    assert (band(99), band(100), band(199), band(200)) == (1, 3, 3, 6)


def test_every_family_chain_gives_10_then_20(ruleset: Ruleset) -> None:
    cards = ruleset.cards.by_id
    for first, second, third in FAMILIES:
        assert extra_credits(cards[first]) == [(second, 10)], first
        assert extra_credits(cards[second]) == [(third, 20)], second
        assert extra_credits(cards[third]) == [], third
        # one advance of each victory-point band in every family
        assert [cards[c].victory_points for c in (first, second, third)] == [1, 3, 6]
    members = [card for family in FAMILIES for card in family]
    assert sorted(members) == sorted(ruleset.cards.ids())


def test_the_extra_credits_are_the_only_card_credits(ruleset: Ruleset) -> None:
    for card in ruleset.cards:
        for line in card.credit_list():
            assert (line.card is not None) == line.extra, card.id


def test_extra_credits_add_on_top_of_group_credits(ruleset: Ruleset) -> None:
    matrix = credit_matrix(ruleset)
    # Pottery: crafts 10, and 10 extra toward Agriculture (a craft); Agriculture: 20 extra to Democracy.
    assert matrix["pottery"]["agriculture"] == 20
    assert matrix["agriculture"]["democracy"] == 20
    assert matrix["agriculture"]["mining"] == 10


def test_pairs_reached_through_two_groups(ruleset: Ruleset) -> None:
    """61 of the 1211 owned-target pairs that group credits reach are reached through two groups; the
    rulebook transcription (section 12) counts only the better colour (`same_target: highest`)."""
    reached = two_routes = 0
    for owned in ruleset.cards:
        credits = group_credits(owned)
        for target in ruleset.cards:
            if target.id == owned.id:
                continue
            routes = [group for group in target.group_list() if group in credits]
            reached += bool(routes)
            two_routes += len(routes) > 1
    assert (two_routes, reached) == (61, 1211)


@pytest.mark.parametrize("card_id", sorted(ERRATA))
def test_errata_cards_have_the_chosen_values(ruleset: Ruleset, card_id: str) -> None:
    cost, groups, credits, extra = ERRATA[card_id]
    card = ruleset.cards.by_id[card_id]
    assert card.cost == cost
    assert card.groups == groups
    assert group_credits(card) == credits
    assert extra_credits(card) == ([extra] if extra else [])
    note = card.raw.get("note", "")
    assert "errata" in note
    recorded = card.raw.get("disagreements", [])
    if card_id in ERRATA_ALTERNATIVES:
        alternatives = [a["value"] for entry in recorded for a in entry["alternatives"]]
        assert alternatives == ERRATA_ALTERNATIVES[card_id]
    else:
        assert recorded == []  # all eight transcriptions agree on Engineering and Library


def test_two_group_advances(ruleset: Ruleset) -> None:
    two = {card.id for card in ruleset.cards if len(card.group_list()) == 2}
    assert two == {
        "engineering",
        "literacy",
        "mathematics",
        "monument",
        "mysticism",
        "philosophy",
        "theocracy",
        "wonder_of_the_world",
        "written_record",
    }


@needs_community
def test_values_are_the_majority_of_the_transcriptions(ruleset: Ruleset) -> None:
    for row in read_csv("megaciv_advances.csv"):
        card = ruleset.cards.by_id[slug(row["name"])]
        assert card.display_name == row["name"]
        assert card.cost == int(row["cost"])
        assert list(card.group_list()) == row["groups"].split(";")
        expected = {g: int(p) for g, p in (item.split(":") for item in row["group_credits"].split(";"))}
        assert group_credits(card) == expected, card.id
        target = row["extra_credit_target"]
        assert extra_credits(card) == ([(slug(target), int(row["extra_credit_amount"]))] if target else [])


def _field_values(row: Mapping[str, str]) -> dict[str, Any]:
    credits = {g: int(p) for g, p in (item.split(":") for item in row["group_credits"].split(";"))}
    target, amount = row["extra_credit_target"], row["extra_credit_amount"]
    return {
        "cost": int(row["cost"]),
        "groups": row["groups"].split(";"),
        "credits (group credits)": credits,
        "credits (extra credit)": (slug(target), amount) if target else None,
    }


@needs_community
def test_every_dissent_is_a_disagreement_with_its_support(ruleset: Ruleset) -> None:
    by_card: dict[str, list[dict[str, str]]] = {}
    for row in read_csv("megaciv_advances_by_source.csv"):
        by_card.setdefault(slug(row["name"]), []).append(row)
    dissents = 0
    for card_id, rows in by_card.items():
        assert len(rows) == 8
        card = ruleset.cards.by_id[card_id]
        recorded = {entry["field"]: entry for entry in card.raw.get("disagreements", [])}
        expected_fields = set()
        for name in ("cost", "groups", "credits (group credits)", "credits (extra credit)"):
            support = Counter(repr(_field_values(row)[name]) for row in rows)
            if len(support) == 1:
                continue
            expected_fields.add(name)
            entry = recorded[name]
            (_, count), *others = support.most_common()
            assert f"Chosen by {count} of 8 transcriptions" in entry["why"], (card_id, name)
            assert len(entry["alternatives"]) == len(others), (card_id, name)
            for alternative, (value, n) in zip(entry["alternatives"], others, strict=True):
                assert f"({n} of 8 transcriptions)" in alternative["source"], (card_id, name)
                dissenters = [r["source_repo"] for r in rows if repr(_field_values(r)[name]) == value]
                assert len(dissenters) == n
                assert all(repo in alternative["source"] for repo in dissenters), (card_id, name)
                dissents += n
        assert set(recorded) == expected_fields, card_id
    # One per dissenting transcription and field: megaciv_disagreements.md's 18 differences, where
    # Mythology's missing extra credit counts twice (target and amount).
    assert dissents == 17


#: The names that the cited transcriptions write for Mega Civilization's calamities and goods, read
#: at their commits: the rulebook transcription (its set-up list of goods for 5-8 players, and the
#: calamity it quotes in 9b) and czvandijk's calamity page (every calamity). bubba0077's card list
#: names none (the community files render its identifiers), so a name may come from either.
RULEBOOK = "menuan/megacivrules-flutter@e2c96578c5bcd4e1bd7f068826166ce2f7a4d197:assets/data/json/chapters.json"
CALAMITY_PAGE = "czvandijk/MegaCivAid@e9603e453963fabc2bcb9b8b1c21bc22c194791a:pages/4_calamities.py"
NAMES_WRITTEN: dict[str, dict[str, str]] = {
    RULEBOOK: {
        "volcano_earthquake": "Volcanic Eruption or Earthquake",
        **{good_id(name): name for name in ("Ochre", "Clay", "Fruit", "Iron", "Fish", "Oil", "Wool", "Textiles")},
        **{good_id(name): name for name in ("Copper", "Incense", "Tin", "Resin", "Gemstones", "Gold", "Marble")},
        **{good_id(name): name for name in ("Ivory", "Flax", "Hides", "Salt", "Stone", "Furs", "Timber", "Cotton")},
        **{good_id(name): name for name in ("Livestock", "Bronze", "Spice", "Silver", "Jade", "Pearls", "Dye", "Silk")},
        "papyrus": "Papyri",
        "wine": "Wines",
    },
    CALAMITY_PAGE: {
        "volcano_earthquake": "Volcanic Eruption/Earthquake",
        "city_in_flames": "City in Flames",
        **{
            slug(name): name
            for name in (
                "Treachery",
                "Squandered Wealth",
                "Famine",
                "Superstition",
                "Tempest",
                "Civil War",
                "Slave Revolt",
                "City Riots",
                "Flood",
                "Barbarian Hordes",
                "Cyclone",
                "Epidemic",
                "Coastal Migration",
                "Corruption",
                "Civil Disorder",
                "Tribal Conflict",
                "Tyranny",
                "Iconoclasm and Heresy",
                "Minor Uprising",
                "Regression",
                "Piracy",
                "Banditry",
            )
        },
    },
}


@pytest.mark.parametrize("source", sorted(NAMES_WRITTEN))
def test_a_name_a_cited_transcription_writes_otherwise_is_a_recorded_disagreement(
    ruleset: Ruleset, source: str
) -> None:
    """Where a transcription the data cites writes a calamity's or a good's name otherwise than the
    data, the entity records it under `disagreements` (field `name`) with that source, the choice and
    why: two sources that disagree are never left to a reader to find."""
    entities = {e.id: e for e in (*ruleset.calamities, *ruleset.commodities)}
    unrecorded = []
    for entity_id, written in NAMES_WRITTEN[source].items():
        entity = entities[entity_id]
        if entity.name == written:
            continue
        named = [d for d in entity.raw.get("disagreements", []) if d["field"] == "name"]
        alternatives = {(a["value"], a["source"].split(" (")[0]) for d in named for a in d["alternatives"]}
        if (written, source) not in alternatives or not all(d["why"] and d["chosen"] == entity.name for d in named):
            unrecorded.append((entity_id, entity.name, written))
    assert unrecorded == []


@needs_community
def test_a_name_other_than_the_community_files_records_the_files_name(ruleset: Ruleset) -> None:
    """The community files are where the calamities' and goods' other facts come from: a name the
    data takes from elsewhere records the files' name as an alternative."""
    files = {
        **{slug(row["name"]): row["name"] for row in read_csv("megaciv_calamities.csv")},
        **{good_id(row["name"]): row["name"] for row in read_csv("megaciv_commodities.csv")},
    }
    files["volcano_earthquake"] = files.pop(slug("Volcanic Eruption / Earthquake"))
    entities = {e.id: e for e in (*ruleset.calamities, *ruleset.commodities)}
    assert set(files) == set(entities)
    for entity_id, name in files.items():
        entity = entities[entity_id]
        if entity.name != name:
            named = [d for d in entity.raw.get("disagreements", []) if d["field"] == "name"]
            assert any(
                a["value"] == name and a["source"].startswith("community/megaciv_")
                for d in named
                for a in d["alternatives"]
            ), entity_id


# --- Calamities ----------------------------------------------------------------------------------


def test_calamities_per_stack(ruleset: Ruleset) -> None:
    stacks: dict[int, Counter[str]] = {}
    for calamity in ruleset.calamities:
        kind = "minor" if calamity.severity == "minor" else "tradable" if calamity.tradable is True else "non_tradable"
        stacks.setdefault(calamity.stack, Counter())[kind] += 1
    assert sorted(stacks) == list(range(2, 10))
    assert all(kinds == {"non_tradable": 1, "tradable": 1, "minor": 1} for kinds in stacks.values())


def test_every_calamity_has_a_trade_status_and_every_effect_is_transcribed(ruleset: Ruleset) -> None:
    for calamity in ruleset.calamities:
        assert "effects" not in calamity.raw, calamity.id
        assert calamity.raw["primary"], calamity.id
        assert isinstance(calamity.tradable, bool), calamity.id
        if calamity.severity == "minor":
            assert calamity.tradable is True, calamity.id  # section 7: only the non-tradeable ones are not
            assert calamity.modifiers == (), calamity.id  # no advance text names a minor calamity


def test_every_advance_has_its_abilities(ruleset: Ruleset) -> None:
    """All 51 advances carry their abilities (or none) from the card texts, each attribute with a public source."""
    without = set()
    for card in ruleset.cards:
        attributes = card.raw["attributes"]
        assert isinstance(attributes, list), card.id
        for attribute in attributes:
            assert PUBLIC.search(attribute["source"]), (card.id, attribute)
        if not attributes and "purchase_effects" not in card.raw:
            without.add(card.id)
    assert without == {"empiricism", "literacy", "mathematics"}
    assert {c.id for c in ruleset.cards if "purchase_effects" in c.raw} == {
        "anatomy",
        "library",
        "monument",
        "written_record",
    }


def _modifiers(ruleset: Ruleset, calamity: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for m in ruleset.calamities.by_id[calamity].modifiers:
        if isinstance(m.amount, int):
            found.setdefault(m.card, []).append(m.amount)
    return found


@pytest.mark.parametrize(
    ("calamity", "expected"),
    [
        (
            "civil_war",
            {"music": [-5], "drama_and_poetry": [-5], "democracy": [-10], "philosophy": [5], "military": [5]},
        ),
        ("superstition", {"mysticism": [-1], "deism": [-1], "enlightenment": [-1], "universal_doctrine": [1]}),
        ("corruption", {"law": [-5], "coinage": [5], "wonder_of_the_world": [5]}),
        ("treachery", {"diplomacy": [1]}),
        ("slave_revolt", {"mythology": [-1], "enlightenment": [-1], "mining": [1]}),
    ],
)
def test_calamity_modifiers_as_transcribed(ruleset: Ruleset, calamity: str, expected: dict[str, list[int]]) -> None:
    assert _modifiers(ruleset, calamity) == expected


def test_disputed_modifiers_record_their_dissent(ruleset: Ruleset) -> None:
    fields = {
        (c.id, d["field"])
        for c in ruleset.calamities
        for d in c.raw.get("disagreements", ())
        if isinstance(d, dict) and d["field"] != "name"  # names: test_a_name_a_cited_transcription_writes_...
    }
    assert fields == {
        ("treachery", "modifiers (diplomacy)"),
        ("slave_revolt", "modifiers (mining)"),
        ("civil_war", "modifiers (military)"),
        ("civil_disorder", "modifiers (democracy)"),
        ("corruption", "modifiers (coinage)"),
        ("corruption", "modifiers (wonder_of_the_world; provincial_empire)"),
        ("piracy", "modifiers (cartography)"),
        ("civil_disorder", "modifiers (naval_warfare)"),
    }


def test_modifiers_add_up(ruleset: Ruleset) -> None:
    """Section 12 of the rulebook transcription: all effects of advances are cumulative."""
    for calamity in ruleset.calamities:
        if len({m.card for m in calamity.modifiers}) > 1:
            assert calamity.raw["modifier_combination"]["mode"] == "cumulative", calamity.id


# --- Commodities and trade decks -----------------------------------------------------------------


def test_goods_five_per_stack_valued_by_stack_split_west_east(ruleset: Ruleset) -> None:
    per_stack = Counter(c.stack for c in ruleset.commodities)
    assert per_stack == dict.fromkeys(range(1, 10), 5)
    for good in ruleset.commodities:
        assert good.value == good.stack
        counts = good.raw["block_counts"]
        assert counts["west"] + counts["east"] == good.count
        block = good.raw["block"]
        assert (counts["east"] == 0) == (block == "west") and (counts["west"] == 0) == (block == "east")
    assert sum(g.raw["block_counts"]["west"] for g in ruleset.commodities) == 148
    assert sum(g.raw["block_counts"]["east"] for g in ruleset.commodities) == 148


@pytest.mark.parametrize(
    ("players", "region", "size"),
    [
        (5, "west", 135),
        (5, "east", 135),
        (8, "east", 135),
        (9, "west", 201),
        (9, "east", 201),
        (10, "west", 201),
        (11, "east", 201),
        (12, "whole", 270),
        (14, "whole", 270),
        (15, "whole", 344),
        (18, "whole", 344),
    ],
)
def test_deck_sizes(ruleset: Ruleset, players: int, region: str, size: int) -> None:
    assert deck_size(ruleset, players, region) == size


def test_every_player_count_has_a_deck_and_only_the_sourced_ones(ruleset: Ruleset) -> None:
    covered = Counter(
        (n, c["map_region"]) for c in decks(ruleset) for n in range(c["players"]["min"], c["players"]["max"] + 1)
    )
    assert all(n == 1 for n in covered.values())
    assert {n for n, _ in covered} == set(range(5, 19))
    assert (10, "east") not in covered and (11, "west") not in covered  # absent from the source


def test_the_18_player_deck_holds_every_card(ruleset: Ruleset) -> None:
    counts: Counter[str] = Counter()
    for deck in composition(ruleset, 18, "whole")["decks"]:
        counts.update({entry["commodity"]: entry["count"] for entry in deck["commodities"]})
        assert deck["calamity_severities"] == ["major", "minor"]
    assert dict(counts) == {good.id: good.count for good in ruleset.commodities}


@needs_community
def test_decks_equal_the_transcription(ruleset: Ruleset) -> None:
    region = {"West": "west", "East": "east", "Both": "whole"}
    found: dict[tuple[int, str], Counter[str]] = {}
    for row in read_csv("megaciv_trade_deck_by_playercount.csv"):
        key = (int(row["player_count"]), region[row["game_region"]])
        if row["card_kind"] == "commodity":
            found.setdefault(key, Counter())[good_id(row["card"])] += int(row["quantity"])
    for (players, where), goods in found.items():
        # the two blocks (12-18 players) hold the transcription's one deck between them
        listed: Counter[str] = Counter()
        for deck in composition(ruleset, players, where)["decks"]:
            listed.update({e["commodity"]: e["count"] for e in deck["commodities"]})
        assert dict(listed) == dict(goods), (players, where)


# --- Civilizations and the A.S.T. ---------------------------------------------------------------------


def test_civilizations_ranks_and_regions(ruleset: Ruleset) -> None:
    ranks: dict[str, int] = {}
    for nation in ruleset.nations:
        assert isinstance(nation.ast_position, int)
        ranks[nation.id] = nation.ast_position
    assert sorted(ranks.values()) == list(range(1, 19))
    ranked = sorted(ranks, key=ranks.__getitem__)
    assert ranked[:3] == ["minoa", "saba", "assyria"]
    assert ranked[-1] == "parthia"
    # the ranks alternate west (odd) and east (even)
    regions = [ruleset.nations.by_id[n].raw["region"] for n in ranked]
    assert regions == ["west", "east"] * 9


def test_basic_and_expert_tracks(ruleset: Ruleset) -> None:
    assert starts(ruleset, "minoa", "basic") == {
        "stone_age": 0,
        "early_bronze_age": 6,
        "middle_bronze_age": 9,
        "late_bronze_age": 11,
        "early_iron_age": 14,
        "late_iron_age": 15,
    }
    assert starts(ruleset, "minoa", "expert")["middle_bronze_age"] == 8
    assert starts(ruleset, "maurya", "basic")["early_bronze_age"] == 5
    assert starts(ruleset, "maurya", "expert")["early_bronze_age"] == 6


def test_tracks_count_steps_from_the_arrow(ruleset: Ruleset) -> None:
    # bubba0077/MegaCiv: the Stone Age starts on step 0 (the arrow); the last step is 15 at Basic, 16 at Expert.
    assert layout(ruleset).start_space == 0
    for track in ruleset.ast_tracks:
        assert isinstance(track.epoch_starts, tuple)
        assert track.epoch_starts[0] == ("stone_age", 0)
        assert layout(ruleset).last_space(track) == {"basic": 15, "expert": 16}[str(track.level)]
    levels = Counter(track.raw["level"] for track in ruleset.ast_tracks)
    assert levels == {"basic": 18, "expert": 18}


def test_epoch_requirements_by_level(ruleset: Ruleset) -> None:
    epochs = ruleset.epochs.by_id
    assert requirements_of(epochs["early_bronze_age"], "basic")["min_cities"] == 2
    assert requirements_of(epochs["early_bronze_age"], "expert")["min_cities"] == 3
    late_iron_expert = requirements_of(epochs["late_iron_age"], "expert")
    assert late_iron_expert["min_victory_points"] == 56
    assert late_iron_expert["min_cards_of_value"] == [{"count": 17, "max_value_below": 100}]


def test_entering_epochs_at_each_level(ruleset: Ruleset) -> None:
    cheap = [card.id for card in ruleset.cards if isinstance(card.cost, int) and card.cost < 100]
    assert len(cheap) == 17  # exactly the 17 advances the Expert Late Iron Age asks for
    dear = [card.id for card in ruleset.cards if isinstance(card.cost, int) and card.cost >= 200]
    # Basic Late Bronze Age: 3 cities and 3 advances worth 100 or more.
    assert can_enter_epoch(ruleset, "late_bronze_age", 3, dear[:3], level="basic") is True
    assert can_enter_epoch(ruleset, "late_bronze_age", 3, cheap[:3], level="basic") is False
    # Expert Middle Bronze Age: 3 cities and 5 victory points in advances (1 point each under 100).
    assert can_enter_epoch(ruleset, "middle_bronze_age", 3, cheap[:5], level="expert") is True
    assert can_enter_epoch(ruleset, "middle_bronze_age", 3, cheap[:4], level="expert") is False
    # Expert Late Iron Age: 6 cities, 56 points and the 17 advances under 100 (17 points) + 7 of 200+ (42).
    assert can_enter_epoch(ruleset, "late_iron_age", 6, cheap + dear[:7], level="expert") is True
    assert can_enter_epoch(ruleset, "late_iron_age", 6, cheap[:16] + dear, level="expert") is False


# --- a house variant's changes, as `diff` and the variant sheet name them ----------------------------

MEGA_HOUSE = """\
kind: ruleset
id: mega-house
name: "Mega house rules"
extends: mega-civilization
overlay:
  epochs:
    patch:
      - id: late_bronze_age
        source: "house rule"
        requirements_by_level:
          patch:
            - where: {level: expert}
              with:
                requirements:
                  source: "house rule"
                  text: "5 Cities and 12 Advances"
                  min_cities: 5
                  min_cards: 12
"""


def _mega_house_changes() -> str:
    from civrules.emit.build import variant_changes
    from civrules.resolve.diff import render_text
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace({"rulesets/mega-house.yaml": MEGA_HOUSE})
    loaded = workspace.load_ruleset(workspace.manifests()["mega-house"])
    analysis = analyse(workspace, loaded)
    assert analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    return render_text(changes)


def test_a_changed_expert_requirement_is_named_by_its_level_not_as_an_element() -> None:
    """Basic and Expert requirements were both `requirements_by_level[…]`: which one changed?"""
    text = _mega_house_changes()
    assert "~ requirements_by_level[expert].requirements.min_cities: 4 → 5" in text, text
    assert "[…]" not in text and "basic" not in text


def test_an_unknown_fact_in_a_diff_prints_its_reason_as_text() -> None:
    text = (RULES.parent / "docs" / "diff-expansion-project-to-mega-civilization.txt").read_text(encoding="utf-8")
    assert '"unknown": ""' not in text and "[…]" not in text
    assert "credits_must_be_used: true → unknown (§12 does not say whether" in text
    # a fact that does not apply (tracks of two lengths have no one finish) is left out, not unknown
    assert "  - ast.finish_space: 16\n" in text
    assert '"calamity_severities": "unknown (10.3.1 adds' in text


def test_the_diff_file_of_the_readme_is_current() -> None:
    from click.testing import CliRunner

    from civrules.cli import main

    result = CliRunner().invoke(main, ["--rules", str(RULES), "diff", "expansion-project", "mega-civilization"])
    assert result.exit_code == 0
    written = (RULES.parent / "docs" / "diff-expansion-project-to-mega-civilization.txt").read_text(encoding="utf-8")
    assert result.stdout == written, "regenerate docs/diff-expansion-project-to-mega-civilization.txt"


# --- round 19: the data audit's defects 2-6 -------------------------------------------------------


@pytest.mark.parametrize("players", [12, 14, 15, 18])
def test_two_blocks_have_a_deck_each_split_by_block_counts(ruleset: Ruleset, players: int) -> None:
    # menuan chapter 4 (12-14, 15-18 players): West and East are separate blocks, each drawing from its own
    # cards; the goods' block_counts say how many of each good go to each
    (west, east) = composition(ruleset, players, "whole")["decks"]
    assert (west["block"], east["block"]) == ("west", "east")
    counts = {c.id: c.raw["block_counts"] for c in ruleset.commodities}
    for deck in (west, east):
        for entry in deck["commodities"]:
            assert entry["count"] == counts[entry["commodity"]][deck["block"]], (deck["block"], entry)
        # each block has its own calamities: a game of two blocks has duplicates (menuan §8)
        assert deck["calamity_sets"] == 1
    assert sum(e["count"] for e in west["commodities"]) == sum(e["count"] for e in east["commodities"])


def test_each_count_names_the_civilizations_in_play(ruleset: Ruleset) -> None:
    # bubba0077/MegaCiv Civ_Constants.xml StartingCivs: one list per half for 5-9 players, one for 10-18
    counts = {count.raw["players"]: count.raw for count in ruleset.player_counts}
    assert sorted(counts) == list(range(5, 19))
    for players, count in counts.items():
        configurations = count["configurations"]
        assert all(len(c["nations"]) == players for c in configurations), players
        assert len(configurations) == (2 if players <= 9 else 1), players
    assert counts[5]["configurations"][0]["nations"] == ["hellas", "minoa", "hatti", "assyria", "egypt"]
    assert len(counts[18]["configurations"][0]["nations"]) == len(ruleset.nations)
    # start credits (SmallGameCredits; menuan chapter 4 and The Short Game): 10 at 5, 5 at 6 and at 12
    credits = {
        players: rule["text"]
        for players, count in counts.items()
        for rule in count.get("special_rules", ())
        if rule["id"] == "start_credits"
    }
    assert sorted(credits) == [5, 6, 12]
    assert "of 10 " in credits[5] and "of 5 " in credits[6] and "of 5 " in credits[12]


def test_taxation_is_written(ruleset: Ruleset) -> None:
    taxation = ruleset.taxation
    assert taxation is not None and taxation.tokens_per_city == 2
    assert {change.card: (change.raise_by, change.lower_by) for change in taxation.rate_changes} == {
        "monarchy": (1, 0),
        "coinage": (1, 1),
    }


def test_facts_the_sources_give_are_not_counted_unknown(analysis: Any) -> None:
    # a track without value-gated spaces is a fact ([]), and tracks of two lengths need no one length
    reasons = [d.message for d in analysis.diagnostics if d.code == "Q006"]
    assert reasons, "the ruleset still has unknown facts"
    assert not [m for m in reasons if "late_iron_age_spaces" in m or "spaces_per_track" in m or "finish_space" in m]
    assert all("Known, not expressible" not in m and "Known per level" not in m for m in reasons)


# --- hand_limit.by_players: one limit per count, within the counts the ruleset is for (P007) ----------

_HAND_NAME = "rulesets/mega-civilization.yaml"
_HAND_BANDS = (
    "    - {players: {min: 5, max: 11}, commodity_cards: 8}\n    - {players: {min: 12, max: 18}, commodity_cards: 9}\n"
)


def _with_bands(first: str, second: str) -> str:
    """Mega Civilization's manifest with its two hand-limit bands' players written as given."""
    text = (RULES / _HAND_NAME).read_text(encoding="utf-8")
    assert text.count(_HAND_BANDS) == 1
    bands = f"    - {{players: {first}, commodity_cards: 8}}\n    - {{players: {second}, commodity_cards: 9}}\n"
    return text.replace(_HAND_BANDS, bands)


def _p007(text: str) -> list[Any]:
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace({_HAND_NAME: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["mega-civilization"]))
    return [d for d in analysis.diagnostics if d.code == "P007"]


@pytest.mark.parametrize(
    ("bands", "at", "message", "fixed"),
    [
        (  # the later-written band starts inside the first: it does not apply at 10-11
            ("{min: 5, max: 11}", "{min: 10, max: 18}"),
            1,
            "the hand-limit bands for 5-11 players and 10-18 players both hold 10-11 players",
            "{min: 12, max: 18}",
        ),
        (  # written the other way round, the later band (5-11) is the one to move
            ("{min: 10, max: 18}", "{min: 5, max: 11}"),
            1,
            "the hand-limit bands for 10-18 players and 5-11 players both hold 10-11 players",
            "{min: 5, max: 9}",
        ),
        (  # one count shared
            ("{min: 5, max: 11}", "{min: 11, max: 18}"),
            1,
            "the hand-limit bands for 5-11 players and 11-18 players both hold 11 players",
            "{min: 12, max: 18}",
        ),
        (  # a band inside another: nothing of it applies
            ("{min: 5, max: 18}", "{min: 12, max: 18}"),
            1,
            "the hand-limit bands for 5-18 players and 12-18 players both hold 12-18 players",
            None,
        ),
        (
            ("{min: 5, max: 11}", "{min: 12, max: 20}"),
            1,
            "the hand-limit band for 12-20 players reaches beyond the 5-18 players the ruleset is for",
            "{min: 12, max: 18}",
        ),
        (
            ("{min: 3, max: 11}", "{min: 12, max: 18}"),
            0,
            "the hand-limit band for 3-11 players reaches beyond the 5-18 players the ruleset is for",
            "{min: 5, max: 11}",
        ),
        (
            ("{min: 5, max: 11}", "{min: 18, max: 12}"),
            1,
            "the hand-limit band for 18-12 players holds no player count: its `min` is above its `max`",
            "{min: 12, max: 18}",
        ),
    ],
)
def test_a_misplaced_hand_limit_band_is_p007_at_the_band_and_its_hint_fixes_it(
    bands: tuple[str, str], at: int, message: str, fixed: str | None
) -> None:
    text = _with_bands(*bands)
    (found,) = _p007(text)
    assert found.message == message and found.severity is Severity.ERROR
    band_line = text.index(f"{{players: {bands[at]}, commodity_cards: {8 + at}}}")
    assert found.span is not None and found.span.line == text.count("\n", 0, band_line) + 1
    hint = found.hint or ""
    if fixed is None:
        assert hint.startswith("remove this band"), hint
        return
    assert f"`{fixed}`" in hint, hint
    # the hint followed leaves no P007
    followed = (fixed, bands[1]) if at == 0 else (bands[0], fixed)
    assert _p007(_with_bands(*followed)) == []


def test_the_shipped_hand_limit_bands_pass_p007() -> None:
    assert [d for d in shipped_analysis("mega-civilization").diagnostics if d.code == "P007"] == []
