"""Imperial Settlers: facts of the rulebook held against `civrules export`, the decks adding up, and
custom faction decks checked by the deck-building rule (p12)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import REPO, RULES, copy_shipped

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def exported() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["--rules", str(RULES), "export", "imperial-settlers"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _by_id(data: dict[str, Any], collection: str) -> dict[str, Any]:
    return {item["id"]: item for item in data[collection]}


def _card_with(data: dict[str, Any], printed: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if printed in c["printed_ids"])


# Each fact: (page it is printed on, a function of the export, the value the rulebook gives).
FACTS: list[tuple[str, Any, Any]] = [
    ("p2", lambda d: _by_id(d, "components")["cards"]["count"], 220),
    ("p2", lambda d: _by_id(d, "components")["attack_cards"]["count"], 16),
    ("p2", lambda d: _by_id(d, "components")["faction_board"]["count"], 4),
    (
        "p2",
        lambda d: [_by_id(d, "decks")[f]["size"] for f in ("barbarians", "romans", "japanese", "egyptians")],
        [30] * 4,
    ),
    ("p2", lambda d: _by_id(d, "decks")["common"]["size"], 84),
    ("p3", lambda d: _by_id(d, "components")["raze_tokens"]["count"], 18),
    ("p3", lambda d: _by_id(d, "components")["defence_tokens"]["count"], 10),
    ("p3", lambda d: _by_id(d, "components")["gold_tokens"]["count"], 24),
    ("p3", lambda d: _by_id(d, "components")["multiplier_tokens"]["count"], 6),
    ("p3", lambda d: _by_id(d, "components")["egyptian_tokens"]["count"], 4),
    ("p3", lambda d: _by_id(d, "components")["workers"]["minimum"], 36),
    ("p3", lambda d: _by_id(d, "goods")["gold"]["stands_for"], ["food", "wood", "stone"]),
    (
        "p4",
        lambda d: [c["name"] for c in d["colours"]],
        ["Preto", "Violeta", "Azul", "Marrom", "Dourado", "Vermelho", "Rosa", "Cinza"],
    ),
    ("p4", lambda d: sorted(x["prefix"] for x in d["decks"]), ["BAR", "COM", "EGY", "JAP", "ROM"]),
    ("p5", lambda d: (d["settings"]["starting_hand"]["common"], d["settings"]["starting_hand"]["faction"]), (2, 2)),
    ("p6", lambda d: d["settings"]["rounds"]["count"], 5),
    (
        "p6",
        lambda d: [p["name"] for p in sorted(d["phases"], key=lambda p: p["order"])],
        ["Fase de Observação", "Fase de Produção", "Fase de Ação", "Fase de Limpeza"],
    ),
    (
        "p6",
        lambda d: _by_id(d, "factions")["japanese"]["board"]["production"],
        ["worker", "worker", "worker", "worker", "raze", "defence", "wood"],
    ),
    ("p7", lambda d: _by_id(d, "factions")["japanese"]["board"]["storage"], ["food"]),
    (
        "p7",
        lambda d: (d["settings"]["scoring"]["common_location_vp"], d["settings"]["scoring"]["faction_location_vp"]),
        (1, 2),
    ),
    (
        "p7",
        lambda d: [t["id"] for t in d["settings"]["scoring"]["tie_breaks"]],
        ["workers_and_resources_left", "cards_in_hand", "shared_victory"],
    ),
    ("p7", lambda d: d["settings"]["defence"]["tokens_per_production_phase"], 1),
    ("p7", lambda d: _by_id(d, "phases")["clean_up"]["skipped_in_last_round"], True),
    (
        "p8",
        lambda d: (_card_with(d, "COM003")["name"], _card_with(d, "COM003")["cost"], _card_with(d, "COM003")["spoils"]),
        ("Armazém de Madeira", ["wood", "wood", "stone"], ["wood", "wood"]),
    ),
    (
        "p8",
        lambda d: (
            _card_with(d, "BAR012")["cost"],
            _card_with(d, "BAR012")["production"],
            _card_with(d, "BAR012")["deal"],
        ),
        (["wood", "wood", "location"], ["raze", "worker"], "worker"),
    ),
    ("p8", lambda d: sorted(_card_with(d, "BAR014")["cost"]), ["location", "stone", "stone", "wood"]),
    ("p9", lambda d: _by_id(d, "actions")["deal"]["price"], {"food": 1}),
    ("p9", lambda d: _by_id(d, "actions")["raze_card_in_hand"]["price"], {"raze": 1}),
    ("p9", lambda d: _by_id(d, "actions")["raze_opponent_location"]["price"], {"raze": 2}),
    ("p9", lambda d: d["settings"]["foundation"]["owner_gains"], ["wood"]),
    ("p9", lambda d: _by_id(d, "actions")["raze_opponent_location"]["becomes"], "foundation"),
    ("p10", lambda d: _by_id(d, "actions")["spend_workers"]["price"], {"worker": 2}),
    ("p11", lambda d: sorted(_card_with(d, "ROM024")["colours"]), ["brown", "grey", "red"]),
    ("p11", lambda d: _card_with(d, "EGY001")["cost"], []),
    (
        "p11",
        lambda d: [_card_with(d, i)["kind"] for i in ("JAP008", "JAP013", "EGY013", "ROM019", "BAR016")],
        ["action", "ability", "action", "ability", "action"],
    ),
    ("p11", lambda d: all(c["spoils"] == ["vp"] for c in d["cards"] if c["printed_ids"][0].startswith("JAP")), True),
    (
        "p12",
        lambda d: (
            _card_with(d, "COM074")["name"],
            _card_with(d, "COM074")["cost"],
            "colours" in _card_with(d, "COM074"),
        ),
        ("Ruínas", [], False),
    ),
    ("p12", lambda d: _card_with(d, "BAR016")["activations_per_round"], 2),
    (
        "p12",
        lambda d: [(p["copies"], p["cards"]) for p in d["settings"]["deck_building"]["pattern"]],
        [(3, 3), (2, 6), (1, 9)],
    ),
    ("p13", lambda d: d["settings"]["solo"]["attacks_per_round"], 2),
    ("p13", lambda d: d["settings"]["solo"]["attack_priority"]["by_kind"], ["action", "ability", "production"]),
    (
        "p14",
        lambda d: d["settings"]["solo"]["japanese_target_order"]["order"],
        ["card", "raze", "gold", "vp", "stone", "worker", "food", "wood"],
    ),
    (
        "p14",
        lambda d: [
            (lv["name"], lv.get("at_least", lv.get("below"))) for lv in d["settings"]["solo"]["achievements"]["levels"]
        ],
        [
            ("Plebeu", 30),
            ("Servo", 30),
            ("Escudeiro", 40),
            ("Cavaleiro", 50),
            ("Castelão", 60),
            ("Rei", 70),
            ("Imperador", 80),
        ],
    ),
]


@pytest.mark.parametrize(("page", "fact", "expected"), FACTS, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(FACTS)])
def test_a_fact_of_the_rulebook_is_in_the_export(exported: dict[str, Any], page: str, fact: Any, expected: Any) -> None:
    assert fact(exported) == expected


def test_at_least_25_facts_are_held_and_the_readme_counts_them() -> None:
    """The README said 42 facts when 43 were held (round 26)."""
    assert len(FACTS) >= 25
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    said = re.findall(r"`tests/families/imperial_settlers/test_imperial_settlers\.py` holds (\d+) facts", readme)
    assert said == [str(len(FACTS))]


def test_every_deck_and_the_box_add_up(exported: dict[str, Any]) -> None:
    totals = exported["deck_totals"]
    assert totals == {"barbarians": 30, "romans": 30, "japanese": 30, "egyptians": 30, "common": 84}
    assert sum(totals.values()) + 16 == 220
    for deck, ids in exported["decks_expanded"].items():
        assert len(ids) == len(set(ids)), deck


def _rules_with_deck(tmp_path: Path, change: tuple[str, str] | None = None) -> Path:
    rules = tmp_path / "rules"
    copy_shipped(rules)
    manifest = rules / "rulesets" / "imperial-settlers.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace(
            "  factions: [factions/imperial-settlers.yaml]\n",
            "  factions: [factions/imperial-settlers.yaml]\n  faction_decks: [decks/my-romans.yaml]\n",
        ),
        encoding="utf-8",
    )
    deck = (HERE / "fixtures" / "roman-deck.yaml").read_text(encoding="utf-8")
    if change is not None:
        assert change[0] in deck
        deck = deck.replace(change[0], change[1])
    (rules / "decks").mkdir()
    (rules / "decks" / "my-romans.yaml").write_text(deck, encoding="utf-8")
    return rules


def _errors(rules: Path) -> list[tuple[str, str, int]]:
    result = CliRunner().invoke(main, ["--rules", str(rules), "validate", "imperial-settlers", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [(d["code"], Path(d["file"]).name, d["line"]) for d in json.loads(result.stdout) if d["severity"] == "error"]


def _line_of(text: str) -> int:
    deck = (HERE / "fixtures" / "roman-deck.yaml").read_text(encoding="utf-8")
    return deck[: deck.index(text)].count("\n") + 1


def test_a_correct_custom_deck_passes(tmp_path: Path) -> None:
    assert _errors(_rules_with_deck(tmp_path)) == []


@pytest.mark.parametrize(
    ("change", "code", "line_of"),
    [
        (("{card: rom001, copies: 2}", "{card: rom001, copies: 1}"), "F003", "{card: rom001"),  # one copy too few
        (("{card: rom003, copies: 3}", "{card: rom003, copies: 4}"), "F003", "{card: rom003"),  # one too many
        (("{card: rom001, copies: 2}", "{card: bar010, copies: 2}"), "F004", "{card: rom001"),  # another faction's card
    ],
)
def test_a_wrong_custom_deck_fails_at_its_line(
    tmp_path: Path, change: tuple[str, str], code: str, line_of: str
) -> None:
    assert _errors(_rules_with_deck(tmp_path, change)) == [(code, "my-romans.yaml", _line_of(line_of))]


# Effects whose icons the rulebook's card text lost, but which its clarifications and examples give in
# full: the printed id, then the sections the effect must cite beside the card's own text.
SETTLED_EFFECTS = [
    ("COM074", ["p12/com074", "p12/comum"]),  # "Habilidade: -": no ability at all
    ("BAR010", ["p11/bar010", "p11/os-barbaros", "p10/exemplos-de-como-usar-um-local-de-acao"]),
    ("EGY005", ["p11/egy005", "p11/os-egipcios", "p10/gastar-trabalhadores-para-pegar-recursos-ou-cartas"]),
    ("ROM019", ["p11/rom019", "p11/os-romanos", "p3/recursos-comida-madeira-pedra"]),
    ("JAP015", ["p11/jap015", "p11/os-japoneses", "p7/final-de-jogo"]),
    ("EGY003", ["p11/egy003", "p11/os-egipcios", "p9/para-destruir-um-local-de-um-oponente"]),
    ("EGY013", ["p11/egy013", "p11/os-egipcios"]),
]


@pytest.mark.parametrize(("printed", "sections"), SETTLED_EFFECTS, ids=[p for p, _ in SETTLED_EFFECTS])
def test_an_effect_the_rulebook_settles_is_known_and_cited(
    exported: dict[str, Any], printed: str, sections: list[str]
) -> None:
    card = _card_with(exported, printed)
    assert isinstance(card["effect"], str), card["effect"]
    assert set(sections) <= set(card["rule"])


def test_an_unknown_effect_says_which_icons_its_printed_text_lost(exported: dict[str, Any]) -> None:
    """A card whose text the rulebook prints (its own section, p11/bar014) but whose effect stays
    unknown says which icons are lost, so that the gap is the icons, not the whole text."""
    unsaid = []
    for card in exported["cards"]:
        effect = card.get("effect")
        own = [r for r in card.get("rule", ()) if r.split("/")[-1] in {p.lower() for p in card["printed_ids"]}]
        if isinstance(effect, dict) and own and "lost the icon" not in effect["unknown"]:
            unsaid.append(card["id"])
    assert unsaid == []


def test_a_card_drawn_from_one_deck_keeps_its_deck(exported: dict[str, Any]) -> None:
    """The transcription gives Legie (rom017) a common card and Dojo (jap024) a faction card, not a
    card of either deck, which `card` means (p10/regras-gerais)."""
    goods = _by_id(exported, "goods")
    assert goods["common_card"]["name"] == "Carta Comum"
    assert goods["faction_card"]["name"] == "Carta de Facção"
    legion, dojo = _card_with(exported, "ROM017"), _card_with(exported, "JAP024")
    assert (legion["production"], legion["build_bonus"]) == (["common_card"], ["common_card"])
    assert dojo["build_bonus"] == ["faction_card"]


#: Where the transcription's cards carry a condition of its Conditions enum: the field it conditions
#: (cardEffect, a production; cardEffectForPosition, a build bonus), the good given per counted
#: thing, what is counted (the player's locations of a colour, or Samurai), the enum's limit, and
#: the goods given beside (its source CARD: one card).
COUNTED: dict[str, tuple[str, str, Any, int, list[str] | None]] = {
    "jap006": ("production", "worker", {"colour": "pink"}, 3, None),  # HAS_PINK_3_MAX
    "jap009": ("production", "vp", "samurai", 3, None),  # HAS_SAMURAI_3_MAX
    "egy002": ("production", "stone", {"colour": "grey"}, 3, None),  # HAS_GRAY_3_MAX
    "com011": ("production", "stone", {"colour": "grey"}, 3, None),
    "com017": ("production", "worker", {"colour": "pink"}, 3, None),
    "com025": ("production", "food", {"colour": "red"}, 3, None),  # HAS_RED_3_MAX
    "com027": ("production", "gold", {"colour": "gold"}, 3, None),  # HAS_GOLD_3_MAX
    "com029": ("production", "wood", {"colour": "brown"}, 3, None),  # HAS_BROWN_3_MAX
    "bar022": ("build_bonus", "vp", {"colour": "black"}, 6, None),  # HAS_BLACK_COLOR_6_MAX
    "com001": ("build_bonus", "vp", {"colour": "grey"}, 6, ["card"]),  # HAS_GRAY_6_MAX_AND_GET_CARD
    "com003": ("build_bonus", "vp", {"colour": "brown"}, 6, ["card"]),
    "com075": ("build_bonus", "vp", {"colour": "red"}, 6, ["card"]),
    "com079": ("build_bonus", "vp", {"colour": "pink"}, 6, ["card"]),
    "com081": ("build_bonus", "vp", {"colour": "gold"}, 6, ["card"]),  # HAS_GOLD_COLOR_6_MAX_AND_GET_CARD
}
CONDITIONS = (
    "NcFerrari/imperialSettlers@c0550f408064a71a0ddc89cf4e8106111e584a7d:"
    "common/src/main/java/cz/games/lp/common/enums/Conditions.java"
)


@pytest.mark.parametrize("card_id", sorted(COUNTED))
def test_a_bonus_per_location_of_a_colour_or_per_samurai_is_a_fact(exported: dict[str, Any], card_id: str) -> None:
    """p11/esclarecimentos-gerais and p15/lembre-se: a production or build bonus of "1 good per
    location of a colour" counts the player's locations of that colour, the card itself included
    where its colour matches; p14: the Castelo do Daimiô (jap009) scores with Samurai. The colour,
    the limit and the card given beside are the transcription's (Conditions.java)."""
    field, each, per, at_most, plus = COUNTED[card_id]
    card = _by_id(exported, "cards")[card_id]
    value = card[field]
    assert {k: value.get(k) for k in ("each", "per", "at_most", "plus")} == {
        "each": each,
        "per": per,
        "at_most": at_most,
        "plus": plus,
    }
    assert value["source"] == CONDITIONS
    cited = value["rule"] if isinstance(value["rule"], list) else [value["rule"]]
    if per == "samurai":
        assert "p14" in cited and "p11/posicionando-samurais" in cited
    else:
        assert {"p11/esclarecimentos-gerais", "p15/lembre-se"} <= set(cited)
        assert per["colour"] in card["colours"]  # the card counts itself (p11): every one is of its colour


def test_an_unknown_production_says_what_the_transcription_encodes(exported: dict[str, Any]) -> None:
    """The productions left unknown name what the transcription writes for them (an alternative in
    orEffect, a condition its code never reads, an effect tied to no good), never a condition where
    it has none, nor "not stated" for what a source states."""
    reasons = {
        c["id"]: c[field]["unknown"]
        for c in exported["cards"]
        for field in ("production", "build_bonus")
        if isinstance(c.get(field), dict) and "unknown" in c[field]
    }
    assert not [card for card, why in reasons.items() if "what that condition means" in why]
    assert set(reasons) == {"egy004", "com016", "jap011", "rom011"}
    assert "orEffect" in reasons["egy004"] and "condition" not in reasons["egy004"]
    assert "PRODUCE_ANOTHER_PRODUCTION" in reasons["com016"] and "no condition" in reasons["com016"]
    for card in ("jap011", "rom011"):
        assert "CHOICE_FROM_2_FACTION_CARDS" in reasons[card] and "orEffect" in reasons[card]
