"""The generated packages as an engine uses them: the rulebook's rules exactly, unknown facts
refused, vocabularies checked, one engine for every ruleset, and an installable distribution."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from tests.conftest import REPO, distribution_folder

GENERATED = REPO / "generated" / "python"
PIP = (sys.executable, "-m", "pip")
RULESETS = (
    "advanced-civilization",
    "advanced-civilization-western",
    "expansion-project",
    "central-america",
    "mega-civilization",
)

if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    advanced_civilization,
    advanced_civilization_western,
    central_america,
    expansion_project,
    mega_civilization,
)
from civrules_runtime import (  # noqa: E402
    Block,
    CalamityKind,
    CalamityUnit,
    CityBuild,
    DraftRulesetError,
    EffectKind,
    MapRegion,
    Movement,
    OutOfDomainError,
    Role,
    RulesetPackage,
    UnknownFactError,
    UnknownIdError,
)
from civrules_runtime_advanced_civilization import AstTrack  # noqa: E402
from tests.engine.summary import summary  # noqa: E402

if TYPE_CHECKING:
    # An effect's id has no enum: a record's `str` id is cast to the package's literal type.
    from civrules_rulesets.advanced_civilization.ids import CalamityEffectIdName as AcEffect
    from civrules_rulesets.expansion_project.ids import CalamityEffectIdName as EpEffect
    from civrules_rulesets.mega_civilization.ids import CalamityEffectIdName as MegaEffect

ac = advanced_civilization
ep = expansion_project
mc = mega_civilization
#: Typed as the protocol: mypy --strict (the project's) checks that every package satisfies it.
PACKAGES: dict[str, RulesetPackage] = {
    "advanced-civilization": advanced_civilization,
    "advanced-civilization-western": advanced_civilization_western,
    "expansion-project": expansion_project,
    "central-america": central_america,
    "mega-civilization": mega_civilization,
}


# --- The rulebook's text, exactly -------------------------------------------------------------


def test_military_destroys_five_unit_points_of_each_faction_in_civil_war() -> None:
    """30.414: 'If the primary victim holds Military, five unit points are removed from each
    faction after the factions are selected' — a separate loss, not a change of the selection,
    taken once: an engine applying each effect of Civil War in turn removes 5, not 15."""
    amount = ac.calamity_amount("civil_war", "first_faction_by_primary", [ac.CardId.MILITARY], Role.PRIMARY)
    assert amount.value == 15
    assert amount.additions == ()
    held = [ac.CardId.MILITARY]
    taken = [
        (effect.id, a.card, a.amount, a.per, a.kind)
        for effect in ac.CALAMITY_EFFECTS["civil_war"] or ()
        for a in ac.calamity_amount("civil_war", cast("AcEffect", effect.id), held, Role.PRIMARY).additions
    ]
    assert taken == [("faction_annexed", "military", 5, "faction", "lose_unit_points")]
    assert ac.calamity_amount("civil_war", "faction_annexed", [], Role.PRIMARY).additions == ()


def test_the_expansion_projects_war_cards_each_cost_each_faction_five_unit_points_once() -> None:
    """Expansion Project 29.4.1.6: five unit points from each faction for each of Military, Naval
    Warfare and Advanced Military held: three cards, fifteen per faction, each counted once."""
    held = [ep.CardId.MILITARY, ep.CardId.NAVAL_WARFARE, ep.CardId.ADVANCED_MILITARY]
    taken = [
        (effect.id, a.card, a.amount)
        for effect in ep.CALAMITY_EFFECTS["civil_war"] or ()
        for a in ep.calamity_amount("civil_war", cast("EpEffect", effect.id), held, Role.PRIMARY).additions
    ]
    assert taken == [("faction_annexed", card, 5) for card in ("military", "naval_warfare", "advanced_military")]


def test_a_secondary_victim_of_famine_loses_at_most_eight_unit_points() -> None:
    """30.311: '20 unit points, no more than eight from any one player'."""
    famine = ac.calamity_amount("famine", "famine_secondary", [], Role.SECONDARY)
    assert famine.value == 8
    assert [famine.loss(allotted) for allotted in (3, 8, 20)] == [3, 8, 8]


def test_a_secondary_victim_of_piracy_loses_one_city() -> None:
    """30.912: 'each secondary victim loses only one city'; with Cartography one more (EP 30.8.4)."""
    assert ac.calamity_amount("piracy", "other_coastal_cities_taken", [], Role.SECONDARY).loss(2) == 1
    effect = cast("EpEffect", next(e.id for e in ep.CALAMITY_EFFECTS["piracy"] or () if e.side == Role.SECONDARY))
    assert ep.calamity_amount("piracy", effect, [], Role.SECONDARY).loss(2) == 1
    assert ep.calamity_amount("piracy", effect, ["cartography"], Role.SECONDARY).loss(2) == 2


def test_tyranny_annexes_twice_as_many_unit_points_as_the_victim_owns_cities() -> None:
    """Expansion Project 29.8.1.3: twice as many unit points as the victim owns cities."""
    tyranny = ep.calamity_amount("tyranny", "unit_points_annexed", [], Role.PRIMARY)
    assert tyranny.value is None
    assert tyranny.loss(30, cities=4) == 8
    assert tyranny.loss(5, cities=4) == 5
    with pytest.raises(ValueError, match="cities="):
        tyranny.loss(30)


def test_crete_cannot_be_the_primary_victim_of_barbarian_hordes() -> None:
    """30.527: 'Crete cannot be the primary victim of Barbarian Hordes.'"""
    effect = cast("AcEffect", (ac.CALAMITY_EFFECTS["barbarian_hordes"] or ())[0].id)
    assert ac.calamity_amount("barbarian_hordes", effect, [], Role.PRIMARY, nation="crete").immune
    assert not ac.calamity_amount("barbarian_hordes", effect, [], Role.PRIMARY, nation="egypt").immune


def test_card_abilities_are_typed_effects_beside_their_text() -> None:
    cloth = ac.CARDS["cloth_making"].attributes
    assert cloth is not None
    assert cloth[0].rules == ("32.221",)
    assert cloth[0].effects == (Movement(range=5),)
    assert ac.effects_held(["astronomy"], EffectKind.MOVEMENT)[0] == Movement(open_sea=True)
    assert ac.hand_limit([]) == 8
    assert ac.tax_rates([]) == (2,) and ac.tax_rates(["coinage"]) == (1, 2, 3)  # 19.2, 32.421
    assert ep.hand_limit(["trade_routes", "diaspora"]) == 8  # 27.2.3: cumulative
    assert ep.tax_rates(["monarchy", "coinage"]) == (1, 2, 3, 4)  # 13.2.3


def test_a_hand_limit_that_depends_on_the_player_count_needs_the_count() -> None:
    """Mega Civilization §12: 8 commodity cards at 5-11 players, 9 at 12-18 (hand_limit.by_players)."""
    assert (mc.hand_limit([], players=5), mc.hand_limit([], players=11)) == (8, 8)
    assert (mc.hand_limit([], players=12), mc.hand_limit([], players=18)) == (9, 9)
    assert mc.HAND_LIMIT is not None and [
        (b.players_min, b.players_max, b.commodity_cards) for b in mc.HAND_LIMIT.by_players
    ] == [
        (5, 11, 8),
        (12, 18, 9),
    ]
    with pytest.raises(OutOfDomainError, match=r"give players= \(5-11 players: 8, 12-18 players: 9\)"):
        mc.hand_limit([])
    with pytest.raises(OutOfDomainError, match="players=4 is outside"):
        mc.hand_limit([], players=4)
    # One number for every count: the count is optional, and still checked.
    assert ac.hand_limit([], players=3) == ac.hand_limit([]) == 8
    with pytest.raises(OutOfDomainError, match="players=9 is outside"):
        ac.hand_limit([], players=9)
    # A limit the data gives per count is not an unknown an engine may assume.
    from civrules_runtime_advanced_civilization import Assumptions

    with pytest.raises(OutOfDomainError, match="the hand limit is in the rule data"):
        mc.assuming(Assumptions(hand_limit=8))


def _ac_tracks_with(nation: str, **changes: Any) -> dict[str, dict[str, AstTrack]]:
    """The base package's tracks, ``nation``'s standard track changed field by field."""
    tracks = {n: dict(by_level) for n, by_level in ac.AST_TRACKS.items()}
    old = ac.AST_TRACKS[nation]["standard"]
    fields = {f: getattr(old, f) for f in ("nation", "level", "spaces", "epoch_starts", "space_values")}
    tracks[nation]["standard"] = AstTrack(**{**fields, **changes})
    return tracks


def _enter(tracks: Mapping[str, Mapping[str, AstTrack]], space: int, held: list[str], cities: int = 9) -> bool:
    from civrules_rulesets.advanced_civilization import data
    from civrules_runtime_advanced_civilization import logic

    return logic.can_enter_space(
        data.EPOCHS, data.CARDS, tracks, data.NATIONS, len(data.GROUPS), data.AST_LEVELS,
        "africa", space, cities, held, None, data.SETTINGS,
    )  # fmt: skip


def test_a_track_without_space_values_is_no_card_value_gate() -> None:
    """`late_iron_age_spaces: []` says no space carries a card value of its own (a fact): the Late
    Iron Age's spaces are entered on its other requirements, not refused as unknown; the finish
    still needs ast.finish_space_min_card_value, which the base ruleset does not know."""
    everything = list(ac.CARDS)
    none = _ac_tracks_with("africa", space_values=())
    assert _enter(none, 14, everything) is True and _enter(none, 15, everything) is True
    assert _enter(none, 14, [], cities=4) is False  # the epoch's other requirements (33.25: 5 cities) decide
    with pytest.raises(UnknownFactError, match=r"finish \(space 16\) of africa"):
        _enter(none, 16, everything)
    # A track that lists values but not one of its own spaces is a gap, as it was.
    with pytest.raises(UnknownFactError, match="no card value is given for space 15 of africa"):
        _enter(_ac_tracks_with("africa", space_values=((14, 1300),)), 15, everything)
    # A track of no length of its own takes the A.S.T.'s (ast.spaces_per_track), as finish_space does.
    assert _enter(_ac_tracks_with("africa", spaces=None), 15, everything) is True


# --- Unknown facts are refused ----------------------------------------------------------------


def test_mega_civilization_is_a_draft_that_answers_nothing_it_does_not_know() -> None:
    assert mc.DRAFT and mc.UNKNOWN_FACTS and not ac.DRAFT
    with pytest.raises(DraftRulesetError):
        mc.require_complete()
    ac.require_complete()
    # The rulebook transcription (issue 31): n x n x v (section 7), effects add up and no prerequisites
    # (section 12); its worked purchases: Music toward Mysticism, Pottery toward Agriculture.
    assert mc.set_value("ochre", 3) == 9
    assert mc.calamity_amount("famine", "famine_primary", ["pottery"], Role.PRIMARY).change == -5
    assert mc.calamity_amount("famine", "famine_primary", ["agriculture", "pottery"], Role.PRIMARY).change == 0
    assert mc.CARDS["agriculture"].prerequisites == ()
    assert (mc.purchase_cost(["music"], "mysticism"), mc.purchase_cost(["pottery"], "agriculture")) == (40, 100)
    with pytest.raises(UnknownFactError):
        ep.purchase_cost([], "agriculture")


# --- Vocabularies and ids are checked --------------------------------------------------------


def test_a_misspelt_id_or_vocabulary_value_is_an_error_naming_the_allowed_values() -> None:
    """Vocabulary parameters are typed as the enum or its values (a Literal): mypy --strict rejects
    the misspellings below (the ignores would otherwise be unused), and the helpers at run time."""
    with pytest.raises(ValueError, match="give region"):
        mc.decks_for(6)
    assert len(mc.decks_for(6, MapRegion.WEST)) == 1
    with pytest.raises(UnknownIdError, match="'west'"):
        mc.decks_for(6, "wset")  # type: ignore[arg-type]
    with pytest.raises(UnknownIdError, match="trade block"):
        ep.set_value("oil", 3, players=12, redeemed_in="eats")  # type: ignore[arg-type]
    assert ep.set_value("oil", 3, players=12, redeemed_in=Block.EAST) == 48  # 26.3.3
    with pytest.raises(UnknownIdError, match="'land'"):
        ac.neighbours("egypt", "both")  # type: ignore[arg-type]
    with pytest.raises(UnknownIdError):
        ac.purchase_cost([], "potery")  # type: ignore[arg-type]  # misspelt on purpose
    with pytest.raises(KeyError):  # UnknownIdError is a KeyError
        ac.calamity_amount("famine", "famine_primary", ["potery"], Role.PRIMARY)  # type: ignore[list-item]


def test_every_known_card_has_a_credit_row() -> None:
    assert ac.CREDIT_MATRIX["law"] == {}
    assert ac.credit_toward(["law"], "democracy") == 0
    for package in PACKAGES.values():
        assert set(package.CREDIT_MATRIX) == set(package.CARDS)


def test_the_same_good_and_phase_have_the_same_id_in_every_ruleset() -> None:
    assert {"spices", "gems"} <= set(ac.COMMODITIES) & set(ep.COMMODITIES) & set(mc.COMMODITIES)
    assert "acquisition_of_civilization_cards" in set(ac.PHASES) & set(ep.PHASES)
    assert mc.canonical_id("gemstones") == "gems" and mc.COMMODITIES["gems"].name == "Gemstones"


# --- One engine, every ruleset ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_engine_runs_unchanged_on_every_ruleset(ruleset: str) -> None:
    """tests/engine/summary.py is typed against RulesetPackage (mypy checks every package
    satisfies it): it answers from every package, and says unknown where the facts are."""
    out = summary(PACKAGES[ruleset])
    assert out["id"] == ruleset
    assert out["credit_rows"] is True
    unknown = {k for k, v in out.items() if v == "unknown"}
    if ruleset.startswith("advanced-civilization"):
        assert unknown == set()
        assert out["cheapest_card"] == 45 and out["famine"] == 10 and out["ship_effects"] == 3
    if ruleset == "mega-civilization":
        assert "set_of_one" not in unknown  # the set-value rule: the rulebook transcription, section 7
        assert out["famine"] == 10  # the calamity texts are transcribed (issue 20)
    if ruleset == "expansion-project":
        assert "cheapest_card" in unknown  # 30.x: the advancements' costs are lost
        assert out["ship_effects"] == "unknown" or isinstance(out["ship_effects"], int)


# --- An installable distribution --------------------------------------------------------------


@pytest.mark.slow
def test_pip_installs_a_package_that_imports_and_type_checks(tmp_path: Path) -> None:
    """`pip install generated/python/<package>` (offline: wheels built without isolation, installed
    with --no-index --no-deps into a fresh venv); the engine then runs and passes mypy --strict."""
    pytest.importorskip("hatchling")
    pytest.importorskip("mypy")
    dist = tmp_path / "dist"
    for name in (
        "civrules_runtime",
        "civrules_runtime_advanced_civilization",
        "advanced_civilization",
        "mega_civilization",
        "civrules_runtime_sid_meiers_civilization",  # the second family's runtime and packages
        "sid_meiers_civilization",
        "sid_meiers_civilization_community",
    ):
        source = shutil.copytree(GENERATED / distribution_folder(name), tmp_path / "src" / name)
        before = sorted(p.name for p in source.iterdir())
        built = subprocess.run(
            [*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(source)],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
        assert built.returncode == 0, built.stderr
        assert sorted(p.name for p in source.iterdir()) == before  # nothing written beside the sources
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    wheels = sorted(str(w) for w in dist.glob("*.whl"))
    installed = subprocess.run(
        [*PIP, "--python", str(python), "install", "-q", "--no-index", "--no-deps", *wheels],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    engine = tmp_path / "engine.py"
    engine.write_text(
        (REPO / "tests" / "engine" / "summary.py").read_text(encoding="utf-8")
        + "\n\n"
        + (REPO / "tests" / "families" / "sid_meiers_civilization" / "engine.py").read_text(encoding="utf-8")
        + "\n\nfrom civrules_rulesets import advanced_civilization, mega_civilization\n"
        "from civrules_rulesets import sid_meiers_civilization, sid_meiers_civilization_community\n\n"
        "print(summary(advanced_civilization)['cheapest_card'], summary(mega_civilization)['famine'])\n"
        "print(civilization_summary(sid_meiers_civilization)['culture_win'])\n"
        "print(civilization_summary(sid_meiers_civilization_community)['first_level_2'])\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ran = subprocess.run([str(python), str(engine)], capture_output=True, text=True, env=env, check=False, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["45", "10", "unknown", "agriculture"]
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-executable", str(python), "--no-incremental", str(engine)],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=600,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_card_ability_in_the_data_reaches_the_package(ruleset: str) -> None:
    """Each attribute's text, rule sections, calamity links and every parameter of every effect."""
    from civrules.families.advanced_civilization.assemble import build_ruleset
    from civrules.resolve import Resolver
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace()  # the model only (the checks run elsewhere), from the one reading of the files
    resolved, _ = Resolver(workspace).resolve(workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert resolved is not None
    model = build_ruleset(resolved)
    package = PACKAGES[ruleset]
    effects = 0
    for card in model.cards:
        record = package.CARDS[card.id]
        if not isinstance(card.attributes, tuple):
            assert record.attributes is None
            continue
        assert record.attributes is not None
        assert len(record.attributes) == len(card.attributes)
        for attribute, written in zip(card.attributes, record.attributes, strict=True):
            assert written.text == " ".join(attribute.text.split())
            assert written.rules == attribute.rules
            assert [(c.calamity, c.effect) for c in written.calamities] == [
                (c.calamity, c.effect) for c in attribute.calamities
            ]
            assert [e.kind for e in written.effects] == [e.kind for e in attribute.effects]
            for effect, typed in zip(attribute.effects, written.effects, strict=True):
                effects += 1
                for key, item in effect.params.items():
                    if key == "per_turn" and item == "unlimited":
                        assert isinstance(typed, CityBuild) and typed.unlimited
                    else:
                        expected = tuple(item) if isinstance(item, list) else item
                        assert getattr(typed, key) == expected, (card.id, effect.kind, key)
    assert effects > 0 or ruleset == "mega-civilization"


def test_calamity_effects_carry_who_chooses_and_their_rule() -> None:
    """30.311: the primary victim shares the 20 unit points out, each secondary victim picks his."""
    (_, secondary) = ac.CALAMITY_EFFECTS["famine"] or ()
    assert (secondary.allocated_by, secondary.chosen_by, secondary.unit) == (
        "primary_victim",
        "secondary_victim",
        "unit_points",
    )
    assert secondary.rules == ("30.311",) and secondary.text
    assert ac.CALAMITIES["civil_war"].no_effect_when == (
        "primary_victim_has_most_unit_points_in_stock",
        "no_second_faction",
    )
    pottery = (ac.CALAMITY_MODIFIERS["famine"] or ())[0]
    assert pottery.optional and pottery.rules == ("30.312", "32.211")
    purchases = {s.number: s.purchases for s in ep.TRADE_STACKS if s.purchases}
    assert purchases[2] == ((7, "cartography"),)  # 30.8.2


# --- Calamity alternatives, and every exported field of calamities and cards ------------------


def test_city_in_flames_may_be_bought_off_with_ten_treasury_tokens_paid_in_full() -> None:
    """Expansion Project 29.4.3.2: 'The victim may, instead of eliminating the city, pay ten
    treasury tokens. If the victim does not have ten tokens in treasury, he must eliminate a city.'"""
    amount = ep.calamity_amount("city_in_flames", "city_destroyed", [], Role.PRIMARY)
    assert (amount.value, amount.kind) == (1, CalamityKind.DESTROY_CITIES)
    alternative = amount.alternative
    assert alternative is not None
    assert (alternative.kind, alternative.amount, alternative.unit) == (
        CalamityKind.LOSE_TREASURY,
        10,
        CalamityUnit.TREASURY_TOKENS,
    )
    assert alternative.required_in_full and not alternative.per_unit
    assert alternative.rules == ("29.4.3.2",)
    assert alternative.cost(1) == 10 and alternative.cost(0) == 0
    (effect,) = ep.CALAMITY_EFFECTS["city_in_flames"] or ()
    assert effect.alternative == alternative
    # Effects without a payment say so: an engine never has to guess.
    assert ep.calamity_amount("civil_war", "first_faction_by_primary", [], Role.PRIMARY).alternative is None


@pytest.mark.parametrize("units", [-1, 1.5, "2", None, True])
def test_buying_off_a_calamity_refuses_units_no_rule_counts_as_losing_them_does(units: object) -> None:
    """``alternative.cost(units)`` is held to the domain ``loss(units)`` is: a negative count, a
    fraction, a string or a flag is OutOfDomainError naming ``units``; it answered 0 for -1 (a
    price for a count no player has), 15.0 for 1.5, and a bare TypeError from inside for "2"."""
    for amount in (
        ep.calamity_amount("city_in_flames", "city_destroyed", [], Role.PRIMARY),
        mc.calamity_amount("banditry", "commodities_discarded", [], Role.PRIMARY),
    ):
        alternative = amount.alternative
        assert alternative is not None
        with pytest.raises(OutOfDomainError, match=r"units=") as raised:
            alternative.cost(units)  # type: ignore[arg-type]
        assert isinstance(raised.value, ValueError)
        with pytest.raises(OutOfDomainError, match=r"units="):
            amount.loss(units)  # type: ignore[arg-type]


def test_mega_civilization_banditry_is_bought_off_card_by_card() -> None:
    """Mega Civilization Banditry: two commodity cards discarded, four treasury tokens per card kept
    (a public transcription, cited as the source)."""
    amount = mc.calamity_amount("banditry", "commodities_discarded", [], Role.PRIMARY)
    (effect,) = [e for e in mc.CALAMITY_EFFECTS["banditry"] or () if e.id == "commodities_discarded"]
    assert effect.unit == CalamityUnit.COMMODITY_CARDS
    assert amount.value == 2
    alternative = amount.alternative
    assert alternative is not None and alternative.per_unit and not alternative.required_in_full
    assert (alternative.kind, alternative.amount, alternative.unit) == ("lose_treasury", 4, "treasury_tokens")
    assert [alternative.cost(kept) for kept in (0, 1, 2)] == [0, 4, 8]
    assert alternative.rules and alternative.rules[0].startswith("bubba0077/MegaCiv@")
    assert effect.rules == alternative.rules  # no rulebook text: the effect cites its source


def test_mega_civilization_slave_revolt_raises_the_city_support_rate() -> None:
    (effect,) = mc.CALAMITY_EFFECTS["slave_revolt"] or ()
    assert (effect.kind, effect.amount, effect.unit) == (CalamityKind.RAISE_CITY_SUPPORT_RATE, 2, CalamityUnit.TOKENS)
    assert mc.calamity_amount("slave_revolt", cast("MegaEffect", effect.id), [], Role.PRIMARY).kind == (
        "raise_city_support_rate"
    )


def test_the_calamity_vocabularies_are_the_schemas() -> None:
    """A kind or unit added to schemas/calamities.schema.json must reach the runtime's enums."""
    import json

    defs = json.loads((REPO / "schemas" / "calamities.schema.json").read_text(encoding="utf-8"))["$defs"]
    assert [k.value for k in CalamityKind] == defs["effect_kind"]["enum"]
    assert [u.value for u in CalamityUnit] == defs["unit"]["enum"]


#: Exported fields of calamities and cards that the packages deliberately do not carry, and why
#: (a field name anywhere, or a path from the collection, ``[]`` left out). Every other field must
#: reach the package (test_every_exported_field_reaches_the_package): a schema field the emitter
#: forgets fails it as soon as the data uses it.
NOT_CARRIED_ANYWHERE = {
    "note",  # a designer's note
    "disagreements",  # the value chosen is the field itself; the others are for designers
}
NOT_CARRIED = {
    # Prose restating structured fields carried beside it (no_effect_when's conditions, the
    # combination's mode / precedence / overrides, the beneficiary's selection and overflow).
    "calamities.no_effect_when.text",
    "calamities.modifier_combination.text",
    "calamities.modifier_combination.overrides.text",
    "calamities.beneficiary.text",
    # Citations of a part of an entity: the entity's own (ENTITY_SOURCES, Calamity.rules, Card.rules)
    # and each effect's, modifier's, attribute's and alternative's are carried.
    "calamities.no_effect_when.rule",
    "calamities.modifier_combination.rule",
    "calamities.modifier_combination.source",
    "calamities.modifier_combination.overrides.rule",
    "calamities.beneficiary.rule",
    "calamities.immune.rule",
    "civilization_cards.credits.rule",
    "civilization_cards.credits.source",
    "civilization_cards.credits.target_name.rule",
    "civilization_cards.prerequisites.rule",
    "civilization_cards.attributes.calamities.rule",
    "civilization_cards.attributes.calamities.source",
}


def _flat(item: object) -> set[object]:
    """Every value in a record, tuple or mapping (enums as their strings, text whitespace-joined)."""
    out: set[object] = set()
    stack = [item]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list, frozenset)):
            stack.extend(node)
        elif isinstance(node, Mapping):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif hasattr(node, "__slots__") and not isinstance(node, str):
            stack.extend(getattr(node, name) for name in node.__slots__)
            stack.append(getattr(node, "kind", None))  # a card effect's kind is its class's
        elif isinstance(node, str):
            out.add(" ".join(node.split()))
        else:
            out.add(node)
    return out


def _leaves(item: object, path: str) -> Iterator[tuple[str, object]]:
    if isinstance(item, dict):
        for key, child in item.items():
            yield from _leaves(child, f"{path}.{key}")
    elif isinstance(item, list):
        for child in item:
            yield from _leaves(child, f"{path}[]")
    else:
        yield path, item


#: How a field's value is written in the package where it is not the value itself.
WRITTEN_AS: dict[str, Callable[[object], object]] = {
    "civilization_cards.purchase_effects.usable_from": lambda v: v == "next_turn",  # .next_turn
    "civilization_cards.attributes.effects.per_turn": lambda v: v == "unlimited" or v,  # .unlimited
    # commodity_card: per_commodity holds the good; any_commodity_card: per_any_commodity is True
    "calamities.modifiers.per.kind": lambda v: v if v not in ("commodity_card", "any_commodity_card") else True,
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_exported_field_reaches_the_package(ruleset: str) -> None:
    """Walks `civrules export`'s calamities and civilization cards: every leaf value is in the
    package's records for that entity, except unknowns (None there, listed in UNKNOWN_FACTS) and
    the NOT_CARRIED fields."""
    from civrules.emit.export import export_ruleset
    from civrules.families.advanced_civilization.assemble import build_ruleset
    from civrules.pipeline import derived_facts
    from civrules.resolve import Resolver
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace()  # the one reading of the shipped files
    resolved, _ = Resolver(workspace).resolve(workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert resolved is not None
    model = build_ruleset(resolved)
    exported = export_ruleset(resolved, model, derived_facts(model))
    package = PACKAGES[ruleset]
    reasons = {" ".join(u.reason.split()) for u in package.UNKNOWN_FACTS}
    missing: list[str] = []
    checked = 0
    for collection in ("calamities", "civilization_cards"):
        for entity in exported[collection]:
            key = entity["id"]
            if collection == "calamities":
                records: object = [
                    table.get(key)
                    for table in (
                        package.CALAMITIES,
                        package.CALAMITY_EFFECTS,
                        package.CALAMITY_MODIFIERS,
                        package.CALAMITY_COMBINATIONS,
                        package.CALAMITY_IMMUNITIES,
                    )
                ]
            else:
                records = [package.CARDS.get(key), package.CREDIT_MATRIX.get(key)]
            cited = f"{collection}.{key}"
            values = _flat([records, package.ENTITY_SOURCES.get(cited), package.ENTITY_FIELD_SOURCES.get(cited)])
            for path, leaf in _leaves(entity, collection):
                fields = [part.removesuffix("[]") for part in path.split(".")]
                general = ".".join(fields)
                if NOT_CARRIED_ANYWHERE & set(fields) or general in NOT_CARRIED:
                    continue
                checked += 1
                if fields[-1] == "unknown":
                    found = " ".join(str(leaf).split()) in reasons
                else:
                    written = WRITTEN_AS[general](leaf) if general in WRITTEN_AS else leaf
                    found = (" ".join(written.split()) if isinstance(written, str) else written) in values
                if not found:
                    missing.append(f"{path} ({key}: {leaf!r})")
    assert checked > 0
    assert not missing, "\n".join(missing)
