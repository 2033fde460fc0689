"""Engine code that reads SETTINGS by its typed fields, in every family: it must type-check under
mypy --strict with no cast and no ignore (the project's mypy run checks it, and
``tests/engine/test_typed_settings.py`` runs mypy on it alone), and each ``assert_type`` states the
type an engine developer sees. ``run()`` gives the values read, for the test to compare with the
mapping SETTINGS was (``SETTINGS["ast"]["points_per_space"]``), which old code still reads.
"""

from __future__ import annotations

from typing import assert_type

import civrules_runtime_advanced_civilization.settings as ac
import civrules_runtime_imperial_settlers.settings as imp
import civrules_runtime_sid_meiers_civilization.settings as smc
from civrules_rulesets import advanced_civilization, imperial_settlers, mega_civilization, sid_meiers_civilization
from civrules_runtime_advanced_civilization import RulesetPackage


def ast_points(rules: RulesetPackage) -> int | None:
    """Victory points per A.S.T. space, through the family's protocol: None where the ruleset has no
    A.S.T. section or the sources do not give it."""
    assert_type(rules.SETTINGS, ac.Settings)
    ast = rules.SETTINGS.ast
    assert_type(ast, ac.Ast | None)
    return None if ast is None else ast.points_per_space


def advanced_civilization_facts() -> tuple[int | None, int, str, int, tuple[str, ...], bool | None]:
    settings = advanced_civilization.SETTINGS
    assert_type(settings, ac.Settings)
    ast = settings.ast
    assert ast is not None
    assert_type(ast.points_per_space, int | None)
    assert_type(ast.start_space, int)  # required by the schema
    assert_type(ast.order, ac.AstOrder)
    assert_type(ast.regression, ac.AstRegression | None)
    assert_type(ast.rule, str | tuple[str, ...] | None)
    policy = settings.credit_policy
    assert policy is not None
    assert_type(policy.group_credits, str)
    commodities = settings.commodities
    assert commodities is not None and commodities.trade_stacks is not None
    stacks = commodities.trade_stacks.stacks
    assert_type(stacks, tuple[ac.TradeStack, ...])
    setup = commodities.trade_stacks.setup
    assert setup is not None
    step = setup.steps[2]
    assert_type(step, ac.Step)
    assert step.stacks is not None
    assert_type(step.stacks.from_, int)  # the key "from" is the field from_
    assert_type(ast.unknown_fields, tuple[str, ...])
    mining = commodities.mining
    assert mining is not None and mining.set_bonus is not None
    assert_type(mining.set_bonus.applies_when, tuple[str, ...] | None)
    hand = settings.hand_limit
    assert hand is not None
    assert_type(hand.count_public, bool | None)
    return (
        ast.points_per_space,
        ast.start_space,
        policy.group_credits,
        step.stacks.from_,
        ast.unknown_fields,
        hand.count_public,
    )


def sid_meiers_facts() -> tuple[int, int, int | None]:
    settings = sid_meiers_civilization.SETTINGS
    assert_type(settings, smc.Settings)
    cities, combat = settings.cities, settings.combat
    assert cities is not None and combat is not None
    assert_type(cities.limit, int)
    assert_type(cities.raised_limit, smc.CitiesRaisedLimit | None)
    assert_type(combat.battle_hand.base, int)
    assert_type(combat.battle_hand.per_extra_figure, int | None)
    return cities.limit, combat.battle_hand.base, combat.battle_hand.per_extra_figure


def imperial_settlers_facts() -> tuple[int, int, tuple[str, ...]]:
    settings = imperial_settlers.SETTINGS
    assert_type(settings, imp.Settings)
    hand, rounds, uses = settings.starting_hand, settings.rounds, settings.card_uses
    assert hand is not None and rounds is not None and uses is not None
    assert_type(hand.common, int)
    assert_type(rounds.count, int)
    assert_type(uses.raze.spoils_on, tuple[str, ...])
    return hand.common, rounds.count, uses.raze.spoils_on


def run() -> dict[str, object]:
    return {
        "ast_points": (ast_points(advanced_civilization), ast_points(mega_civilization)),
        "advanced_civilization": advanced_civilization_facts(),
        "sid_meiers_civilization": sid_meiers_facts(),
        "imperial_settlers": imperial_settlers_facts(),
    }
