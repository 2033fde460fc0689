"""The generated packages answer the rules exactly: one computation per rule (a calamity's amount,
cap and loss agree for every input), arguments outside a rule's domain refused, every copy of a
calamity card resolved, and the rule helpers held to the rulebook's worked examples."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import (  # noqa: E402 - the committed packages, kept current by `civrules build --check`
    advanced_civilization,
    advanced_civilization_western,
    central_america,
    expansion_project,
    mega_civilization,
)
from civrules_runtime import OutOfDomainError, RulesetPackage, UnknownFactError  # noqa: E402

ac = advanced_civilization
ep = expansion_project
PACKAGES: dict[str, RulesetPackage] = {
    "advanced-civilization": advanced_civilization,
    "advanced-civilization-western": advanced_civilization_western,
    "expansion-project": expansion_project,
    "central-america": central_america,
    "mega-civilization": mega_civilization,
}
#: More units than any effect takes (a nation has 55 tokens and 9 cities, 5.1).
PLENTY = 60


def _holdings(package: RulesetPackage, calamity: str, effect: str) -> list[tuple[str, ...]]:
    """No card, each card that changes the effect alone, and all of them together."""
    cards = sorted({m.card for m in package.CALAMITY_MODIFIERS[calamity] or () if effect in m.effects})
    return [(), *((card,) for card in cards), *([tuple(cards)] if len(cards) > 1 else [])]


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_calamity_amount_cap_and_loss_agree_for_every_input(ruleset: str) -> None:
    """For every calamity, effect, role, holding and amount: ``loss(n)`` never exceeds ``value``,
    reaches it once ``n`` is large enough, grows with ``n``, and a primary victim never loses more
    than he has (Flood's secondary effect: value 10, loss(25) was 25, 30.512)."""
    package = PACKAGES[ruleset]
    checked = 0
    for calamity, effects in package.CALAMITY_EFFECTS.items():
        for effect in effects or ():
            for held in _holdings(package, calamity, effect.id):
                amount = package.calamity_amount(calamity, effect.id, held, effect.side)
                for cities in (None, *range(0, 10)) if effect.per_city is not None else (None,):
                    losses: list[int] = []
                    for units in range(PLENTY + 1):
                        try:
                            losses.append(amount.loss(units, cities=cities))
                        except (UnknownFactError, OutOfDomainError):
                            losses = []
                            break
                    where = (calamity, effect.id, held, cities)
                    if not losses:
                        assert amount.value is None or cities is None, where
                        continue
                    checked += 1
                    assert losses == sorted(losses), where
                    if effect.side == "primary":
                        assert all(loss <= units for units, loss in enumerate(losses)), where
                    if amount.limit is not None:
                        assert len(set(losses[amount.limit :])) == 1, where
                    if amount.value is not None:
                        assert max(losses) <= amount.value, where
                        assert losses[-1] == amount.value, where
    assert checked > 0


def test_a_secondary_victim_loses_no_more_than_the_effect_allows() -> None:
    """The issue's two examples: Flood's secondary victims lose ten unit points between them
    (30.512), Iconoclasm and Heresy's two cities (30.818): one victim is allotted at most that."""
    flood = ac.calamity_amount("flood", "flood_secondary", [], "secondary")
    assert (flood.value, flood.loss(25), flood.loss(5), flood.limit) == (10, 10, 5, 10)
    assert ac.calamity_amount("flood", "flood_secondary", ["engineering"], "secondary").loss(25) == 7
    heresy = ac.calamity_amount("iconoclasm_and_heresy", "other_cities_reduced", [], "secondary")
    assert (heresy.value, heresy.loss(5), heresy.loss(1)) == (2, 2, 1)
    assert ac.calamity_amount("epidemic", "epidemic_secondary", [], "secondary").loss(0) == 0


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: ac.can_enter_epoch("early_bronze_age", -3, []), "cities=-3"),
        (lambda: ac.can_enter_space("egypt", 3, -1, []), "cities=-1"),
        (lambda: ac.can_enter_space("egypt", 99, 9, []), "space=99"),
        (lambda: ac.set_value("grain", -1), "n=-1"),
        (lambda: ac.set_value("grain", 99), "n=99"),
        (lambda: ep.decks_for(0), "players=0"),
        (lambda: ac.calamity_amount("famine", "famine_secondary", [], "secondary").loss(-1), "units=-1"),
        (lambda: ep.calamity_amount("tyranny", "unit_points_annexed", [], "primary").loss(5, cities=-2), "cities=-2"),
    ],
)
def test_an_argument_outside_a_rules_domain_is_the_runtimes_error_naming_value_and_domain(
    call: object, named: str
) -> None:
    with pytest.raises(OutOfDomainError, match=named) as raised:
        call()  # type: ignore[operator]
    assert isinstance(raised.value, ValueError)
    assert "or more" in str(raised.value) or " to " in str(raised.value)


def test_resolution_order_keeps_every_copy_of_a_calamity_card() -> None:
    """The Expansion Project has two cards of each calamity (EP 3.x: 24x2); both are resolved."""
    assert ep.calamity_resolution_order(["flood", "famine", "flood"]) == ("famine", "flood", "flood")
    assert ac.calamity_resolution_order(["piracy", "volcano_earthquake"]) == ("volcano_earthquake", "piracy")


def test_secondary_amounts_are_the_same_through_every_holding() -> None:
    """value and loss are one computation: for every secondary effect, ``value`` is ``loss`` of
    its limit, whatever the victim holds."""
    for package in PACKAGES.values():
        for calamity, effects in package.CALAMITY_EFFECTS.items():
            for effect in effects or ():
                if effect.side != "secondary":
                    continue
                for held in _holdings(package, calamity, effect.id):
                    amount = package.calamity_amount(calamity, effect.id, held, "secondary")
                    if amount.value is not None and amount.limit is not None:
                        assert amount.value == amount.loss(amount.limit), (calamity, effect.id, held)


def test_holdings_cover_every_modifier() -> None:
    """The sweep above holds each card that changes an effect (so none is left untested)."""
    seen = {
        (calamity, card)
        for calamity, effects in ac.CALAMITY_EFFECTS.items()
        for effect in effects or ()
        for held in _holdings(ac, calamity, effect.id)
        for card in held
    }
    modifiers = {(c, m.card) for c, mods in ac.CALAMITY_MODIFIERS.items() for m in mods or ()}
    assert modifiers <= seen
