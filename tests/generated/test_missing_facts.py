"""What a package's helpers say of a fact they need and the ruleset does not give, in every family
(round 22).

Every such refusal said the fact "is not in the sources". That is true of a fact the rule data
records as unknown (``{unknown: why}``), and then the data says why; it is untrue of one a ruleset
merely leaves out: a house ruleset without a hand limit, a variant removing a setting, an optional
field a family's ruleset does not write. ``civrules_runtime.errors.not_given`` now words each case
from the data: an unknown fact is one "the sources do not give", with the data's why; one left out
is one "this ruleset does not give", naming the field. The packages and their ``assuming()`` views call
the family logic through ``errors.Told``, which finds the data's why in UNKNOWN_FACTS, a variant's
overlay's too.

Each ruleset here is a small variant of a shipped one, built in this process (its package rendered
from a CachedWorkspace and imported from a temporary folder), never a fresh interpreter.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.variant_packages import analysed, built, forgetting, variant

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime import UnknownFactError  # noqa: E402 - the committed runtime

#: The packages of the variants built here.
VARIANTS = ("ac_house", "smc_house", "is_house")
#: What every refusal said before, true only of a fact recorded as unknown.
OLD = "is not in the sources"


@pytest.fixture
def imported() -> Iterator[None]:
    """Forgets the packages of the variants a test built (their modules), once it has run."""
    with forgetting(VARIANTS):
        yield


def _said(call: object) -> UnknownFactError:
    assert callable(call)
    with pytest.raises(UnknownFactError) as refused:
        call()
    return refused.value


# --- Advanced Civilization ----------------------------------------------------------------------

#: A house ruleset without a hand limit or taxation, and with a card whose cost is drawn in play.
AC_HOUSE = variant(
    "ac-house",
    "advanced-civilization",
    "  settings:\n"
    "    remove: [hand_limit, taxation]\n"
    "  civilization_cards:\n"
    "    patch:\n"
    '      - {id: law, cost: {unknown: "house rule: the price of Law is drawn at the start"}}\n',
)


def test_a_setting_a_house_ruleset_leaves_out_is_one_it_does_not_give(tmp_path: Path, imported: None) -> None:
    package = built(tmp_path, "ac-house", AC_HOUSE)
    assert package.HAND_LIMIT is None and package.TAXATION is None
    limit = _said(lambda: package.hand_limit([]))
    assert str(limit) == "this ruleset does not give the hand limit (hand_limit)"
    assert (limit.what, limit.field, limit.reason) == ("the hand limit", "hand_limit", None)
    tax = _said(lambda: package.tax_rates([]))
    assert str(tax) == "this ruleset does not give the tax rate (taxation)"
    for error in (limit, tax):
        assert OLD not in str(error)


def test_a_fact_a_variant_records_as_unknown_is_refused_with_its_why(tmp_path: Path, imported: None) -> None:
    """The variant's `{unknown: why}` is in its overlay (UNKNOWN_FACTS names the field
    `overlay.civilization_cards.patch[law].cost`): the helper finds it as the card's cost."""
    package = built(tmp_path, "ac-house", AC_HOUSE)
    assert package.CARDS["law"].cost is None
    cost = _said(lambda: package.purchase_cost([], "law"))
    why = "house rule: the price of Law is drawn at the start"
    assert str(cost) == f"the sources do not give the cost of law: {why}"
    assert cost.reason == why and cost.field == "cards[law].cost"
    from civrules_runtime_advanced_civilization import Assumptions

    view = package.assuming(Assumptions())  # a view words it as its package does
    assert str(_said(lambda: view.purchase_cost([], "law"))) == str(cost)
    assert str(_said(lambda: view.hand_limit([]))) == "this ruleset does not give the hand limit (hand_limit)"


def test_a_phase_number_said_as_round_21_words_it_and_an_unknown_one_with_its_why() -> None:
    """The precedent: a phase number the ruleset does not write (the Expansion Project's limit of
    calamities a player suffers; its ship range, until round 25 found it in 17.5.1) is one "this
    ruleset does not give", with how to supply it; the base's card costs are recorded unknown with a
    why, which the refusal now carries."""
    from civrules_rulesets import expansion_project

    limit = _said(lambda: expansion_project.calamities_suffered(["flood", "famine", "piracy"]))
    assert str(limit) == (
        "this ruleset does not give how many calamities a player suffers "
        "(sequence_of_play.phases[resolution_of_calamities].max_primary_calamities): "
        "an engine may supply it with assuming(Assumptions(max_primary_calamities=...))"
    )
    reasons = {fact.field: fact.reason for fact in expansion_project.UNKNOWN_FACTS}
    cost = _said(lambda: expansion_project.purchase_cost([], "law"))
    assert str(cost) == f"the sources do not give the cost of law: {reasons['cards[law].cost']}"
    # the requirements are unknown because their criteria are (the fact under the field asked)
    entry = _said(lambda: expansion_project.can_enter_epoch("late_bronze_age", 3, []))
    assert entry.reason == reasons["epochs[late_bronze_age].requirements.criteria"], str(entry)
    assert str(entry).startswith("the sources do not give the entry requirements of late_bronze_age: ")


# --- Sid Meier's Civilization ---------------------------------------------------------------------

#: A house ruleset whose pyramid does not say how many technologies a row needs below a new one.
SMC_HOUSE = variant(
    "smc-house",
    "sid-meiers-civilization",
    "  settings:\n    pyramid:\n      each_level_needs_one_more_below: null\n",
)


def test_sid_meiers_a_left_out_rule_and_an_unknown_level(tmp_path: Path, imported: None) -> None:
    package = built(tmp_path, "smc-house", SMC_HOUSE)
    assert package.PYRAMID.one_more_below is None
    placed = [t for t, r in package.TECHNOLOGIES.items() if r.level == 1][:1]
    second = next(t for t, r in package.TECHNOLOGIES.items() if r.level == 2)
    rule = _said(lambda: package.may_place_technology(placed, second))
    assert str(rule) == (
        "this ruleset does not give how many technologies a row needs below a new one "
        "(pyramid.each_level_needs_one_more_below)"
    )
    reasons = {fact.field: fact.reason for fact in package.UNKNOWN_FACTS}
    level = _said(lambda: package.may_place_technology([], "pottery"))
    assert level.reason == reasons["technologies[pottery].level"]
    assert str(level) == f"the sources do not give the level of pottery (its place cannot be judged): {level.reason}"


# --- Imperial Settlers ----------------------------------------------------------------------------

#: A house ruleset that drops the end-of-game scoring of locations.
IS_HOUSE = variant(
    "is-house",
    "imperial-settlers",
    "  settings:\n    remove: [scoring]\n",
)


def test_imperial_settlers_a_removed_scoring_and_an_unknown_production(tmp_path: Path, imported: None) -> None:
    package = built(tmp_path, "is-house", IS_HOUSE)
    assert package.SCORING is None
    score = _said(lambda: package.board_score(1, 1))
    assert str(score) == "this ruleset does not give the end-of-game VP of locations (scoring)"
    reasons = {fact.field: fact.reason for fact in package.UNKNOWN_FACTS}
    unknown = next(
        (field[len("cards[") : -len("].production")], why)
        for field, why in reasons.items()
        if field.endswith("].production")
    )
    card, why = unknown
    said = str(_said(lambda: package.production(package.CARDS[card].deck or "barbarians", locations=[card])))
    assert said.startswith("the sources do not give what ") and said.endswith(f" produces: {why}"), said
    assert OLD not in said


def test_sid_meiers_player_helper_words_a_left_out_rule_as_one_the_ruleset_does_not_give() -> None:
    """The player helper page's tables (the pyramid planner) said "not in the sources" of a rule
    the ruleset leaves out (the schema takes no `{unknown}` there: only a ruleset can leave it out)."""
    from civrules.families.sid_meiers_civilization.helpers import tables
    from civrules.families.sid_meiers_civilization.model import CivilizationRuleset

    left_out = analysed("smc-house", SMC_HOUSE).model
    assert isinstance(left_out, CivilizationRuleset)
    said = tables(left_out)["pyramid"]["one_more_below"]
    assert said == {"unknown": "this ruleset does not give how many technologies a row needs below a new one"}


def test_an_unknown_is_found_by_the_field_it_leaves_unknown_wherever_the_data_writes_it() -> None:
    """UNKNOWN_FACTS names each fact where its file writes it: a base file's field, or a variant's
    overlay path (settings and list operations included); the value holding a field counts too."""
    from civrules_runtime.errors import not_given
    from civrules_runtime.records import UnknownFact

    facts = (
        UnknownFact("rulesets/v.yaml", "overlay.settings.replace.taxation", "house rule: taxes vary"),
        UnknownFact("rulesets/v.yaml", "overlay.epochs.patch[late_iron_age].requirements", "lost page"),
        UnknownFact("rulesets/b.yaml", "ast.tracks", "the tracks are on the board"),
    )
    said = not_given("the tax rate", "taxation.tokens_per_city", facts)
    assert str(said) == "the sources do not give the tax rate: house rule: taxes vary"
    assert said.reason == "house rule: taxes vary" and said.field == "taxation.tokens_per_city"
    assert not_given("x", "epochs[late_iron_age].requirements", facts).reason == "lost page"
    assert not_given("x", "ast.tracks[egypt].epoch_starts", facts).reason == "the tracks are on the board"
    left_out = not_given("the hand limit", "hand_limit", facts, hint="supply it")
    assert str(left_out) == "this ruleset does not give the hand limit (hand_limit): supply it"
    assert left_out.reason is None
    # a value one of whose parts is recorded unknown is unknown for that part's why
    assert not_given("x", "epochs[late_iron_age]", facts).reason == "lost page"
    # a value merely named like another field is no part of it
    assert not_given("x", "taxation_extra", facts).reason is None


# --- an amount computed from several facts, one of them unknown (round 23) -------------------------

#: A house ruleset in which Pottery's relief from Famine is drawn in play.
AC_FAMINE = variant(
    "ac-house",
    "advanced-civilization",
    "  calamities:\n"
    "    patch:\n"
    "      - id: famine\n"
    "        modifiers:\n"
    "          - {card: pottery, applies_to: both, effect: reduces, modifies: [famine_primary, famine_secondary],"
    ' amount: {unknown: "house rule: Pottery\'s relief is drawn in play"},'
    ' text: "Pottery relieves the victim.", source: "house rule"}\n',
)


def test_an_amount_whose_modifiers_combine_unknown_is_refused_with_that_why() -> None:
    """CalamityAmount.loss knew only that the amount was unknown (a bool), and named the amount's
    own field: "this ruleset does not give the amount of famine.famine_secondary", though the data
    says why (29.3.1 does not say whether Pottery's and Calendar's reductions add up). The amount now
    keeps the unknown input's field and why, as the package's helper found them, and its loss says
    them wherever it is called: from the package, a view, and secondary_losses."""
    from civrules_rulesets import expansion_project
    from civrules_runtime_advanced_civilization import Assumptions

    field = "calamities[famine].modifier_combination.mode"
    why = {fact.field: fact.reason for fact in expansion_project.UNKNOWN_FACTS}[field]
    said = (
        "the sources do not give the amount of famine.famine_secondary"
        f" (how the modifiers of the cards held combine): {why}"
    )
    amount = expansion_project.calamity_amount("famine", "famine_secondary", ["pottery", "calendar"], "secondary")
    assert (amount.unknown, amount.unknown_field, amount.unknown_reason) == (True, field, why)
    refused = _said(lambda: amount.loss(8))
    assert (str(refused), refused.field, refused.reason) == (said, field, why)
    view = expansion_project.assuming(Assumptions())
    in_view = view.calamity_amount("famine", "famine_secondary", ["pottery", "calendar"], "secondary")
    assert str(_said(lambda: in_view.loss(8))) == said
    losses = _said(
        lambda: expansion_project.secondary_losses(
            "famine", "famine_secondary", {"ann": 8}, {"ann": ["pottery", "calendar"]}
        )
    )
    assert str(losses) == said
    # one card: nothing to combine, the amount is known
    alone = expansion_project.calamity_amount("famine", "famine_secondary", ["pottery"], "secondary")
    assert alone.unknown_field is None and alone.unknown_reason is None


def test_an_amount_whose_card_change_is_unknown_is_refused_with_that_why(tmp_path: Path, imported: None) -> None:
    package = built(tmp_path, "ac-house", AC_FAMINE)
    why = "house rule: Pottery's relief is drawn in play"
    amount = package.calamity_amount("famine", "famine_primary", ["pottery"], "primary")
    assert (amount.unknown_field, amount.unknown_reason) == ("calamities[famine].modifiers[pottery].amount", why)
    refused = _said(lambda: amount.loss(20))
    said = f"the sources do not give the amount of famine.famine_primary (the change pottery makes): {why}"
    assert str(refused) == said
    assert OLD not in str(refused)
    # called without the package's unknown facts (an engine on the family logic), it names the input
    from civrules_runtime_advanced_civilization import logic

    bare = logic.calamity_amount(
        package.CALAMITY_EFFECTS, package.CALAMITY_MODIFIERS, package.CALAMITY_COMBINATIONS,
        package.CALAMITY_IMMUNITIES, package.CARDS, package.NATIONS, package.COMMODITIES,
        "famine", "famine_primary", ["pottery"], "primary", None, None,
    )  # fmt: skip
    assert str(_said(lambda: bare.loss(20))) == (
        "this ruleset does not give the amount of famine.famine_primary"
        " (calamities[famine].modifiers[pottery].amount): the change pottery makes"
    )
