"""A small engine written against the public names of one ruleset package (RulesetPackage).

It never names a ruleset: tests run it unchanged on every generated package, and the project's
mypy --strict checks that each package satisfies the protocol it is typed against.
"""

from __future__ import annotations

from collections.abc import Callable

from civrules_runtime import EffectKind, MapRegion, Role, RulesetPackage, UnknownFactError


def summary(rules: RulesetPackage) -> dict[str, object]:
    """What an engine asks of a ruleset before a game: each answer, or "unknown" where the ruleset
    lacks the facts (the helper raised UnknownFactError)."""
    out: dict[str, object] = {"id": rules.RULESET_ID, "draft": rules.DRAFT}

    def attempt(name: str, question: Callable[[], object]) -> None:
        try:
            out[name] = question()
        except UnknownFactError:
            out[name] = "unknown"

    cards = sorted(rules.CARDS)
    attempt("cheapest_card", lambda: min(rules.purchase_cost([], card) for card in cards))
    attempt("ship_effects", lambda: len(rules.effects_held(cards, EffectKind.MOVEMENT)))
    # the fewest players the ruleset is for: a hand limit may depend on the count (Mega Civilization §12)
    fewest = min(rules.PLAYER_COUNTS) if rules.PLAYER_COUNTS else None
    attempt("hand_limit", lambda: rules.hand_limit([], players=fewest))
    attempt("tax_rates", lambda: rules.tax_rates(cards))

    def famine() -> object:
        effects = rules.CALAMITY_EFFECTS.get("famine")
        first = effects[0].id if effects else "famine_primary"
        return rules.calamity_amount("famine", first, [], Role.PRIMARY).value

    attempt("famine", famine)
    goods = sorted(rules.COMMODITIES)
    attempt("set_of_one", lambda: rules.set_value(goods[0], 1))

    def decks() -> object:
        # six players, or the fewest the ruleset is for where six is not among them (Central America: 9)
        players = 6 if not rules.PLAYER_COUNTS or 6 in rules.PLAYER_COUNTS else min(rules.PLAYER_COUNTS)
        regions = {band.region for band in rules.DECK_COMPOSITIONS if band.players_min <= players <= band.players_max}
        region = MapRegion.WEST if MapRegion.WEST in regions else None
        return len(rules.decks_for(players, region))

    attempt("decks", decks)
    out["credit_rows"] = all(card in rules.CREDIT_MATRIX for card in cards)
    return out
