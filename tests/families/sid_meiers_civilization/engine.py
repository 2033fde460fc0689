"""A small engine written against the family's protocol (RulesetPackage of
civrules_runtime_sid_meiers_civilization): it never names a ruleset, so it runs unchanged on every
package of the family, and mypy --strict checks that each package satisfies the protocol.

(No ``from __future__`` import: the slow install test appends it to the other families' engine.)
"""

from collections.abc import Callable

from civrules_runtime_sid_meiers_civilization import RulesetPackage as CivilizationPackage
from civrules_runtime_sid_meiers_civilization import UnknownFactError as CivilizationUnknown


def civilization_summary(rules: CivilizationPackage) -> dict[str, object]:
    """What an engine asks of a ruleset before a game: each answer, or "unknown" where the ruleset
    lacks the facts (the helper raised UnknownFactError)."""
    out: dict[str, object] = {"id": rules.RULESET_ID, "draft": rules.DRAFT}

    def attempt(name: str, question: Callable[[], object]) -> None:
        try:
            out[name] = question()
        except CivilizationUnknown:
            out[name] = "unknown"

    attempt("level_2_cost", lambda: rules.research_cost(2))
    attempt("kept_with_4_coins", lambda: rules.trade_after_research(2, 18, coins=4))
    attempt("technologies_to_win", lambda: sum(rules.pyramid_needs([]).values()))
    attempt("first_level_2", lambda: next(t for t in sorted(rules.TECHNOLOGIES) if rules.may_place_technology([], t)))
    attempt("cheapest_unit", lambda: min(rules.unit_cost(u, 1) for u in sorted(rules.UNIT_TYPES)))
    attempt("battle_hand", lambda: rules.battle_hand_size(2, defending_city=True))
    attempt("capital_bonus", lambda: rules.combat_bonus(defending="defending_capital", walled=True))
    attempt("coins_win", lambda: rules.victories_met(coins=15))
    # The last space of the culture track (0 where none is known: the answer is then unknown).
    last = max((space.position for space in rules.CULTURE_SPACES.values()), default=0)
    attempt("culture_win", lambda: rules.victories_met(culture_space=last))
    return out
