"""Engine code that must not type-check: each line marked ``# rejected`` is one mypy --strict refuses.

Each package's helpers take only its own ids (an id enum's member, or the id as a literal), so
another ruleset's id, an id of the wrong kind or a misspelt one is a type error before it is an
UnknownIdError at run time. The unmarked lines are what an engine writes and must type-check: its
own ids, literals, and code typed against the family's protocol, which runs on every ruleset.

The project's mypy run (`make typecheck`, beside the fast suite) checks this file: each marked
line carries ``# type: ignore[code]`` with the code mypy gives it, and mypy --strict reports an
ignore that silences nothing (``warn_unused_ignores``), so a marked line that type-checks fails the
run, as does an unmarked line that does not. ``tests/engine/test_foreign_ids.py`` holds the marks
and the ignores to each other; its slow test runs mypy on the file with the ignores taken out and
reads what each error says. It is never imported.
"""

from __future__ import annotations

from civrules_rulesets import advanced_civilization as ac
from civrules_rulesets import imperial_settlers as imperial
from civrules_rulesets import mega_civilization as mega
from civrules_rulesets import sid_meiers_civilization as smc
from civrules_runtime_advanced_civilization import Role, RulesetPackage

# The example: Mega Civilization's Law toward Advanced Civilization's Democracy.
ac.purchase_cost([mega.CardId.LAW], "democracy")  # type: ignore[list-item]  # rejected
ac.purchase_cost([], mega.CardId.DEMOCRACY)  # type: ignore[arg-type]  # rejected
ac.purchase_cost([], "democrazy")  # type: ignore[arg-type]  # rejected
ac.credit_toward(["agriculture", "potery"], "cloth_making")  # type: ignore[list-item]  # rejected
ac.neighbours(ac.NationId.EGYPT)  # type: ignore[arg-type]  # rejected
ac.can_enter_epoch(ac.CardId.POTTERY, 2, [])  # type: ignore[arg-type]  # rejected
ac.calamity_amount(mega.CalamityId.FLOOD, "flood_primary", [], Role.PRIMARY)  # type: ignore[arg-type]  # rejected
ac.calamity_resolution_order([ac.CardId.POTTERY])  # type: ignore[list-item]  # rejected
smc.unit_cost(smc.BuildingId.PORTO, 1)  # type: ignore[arg-type]  # rejected
imperial.production(imperial.DeckId.COMMON)  # type: ignore[arg-type]  # rejected
# Ids without an enum are literals too: a calamity's effect, an A.S.T. level, a tech unlock.
ac.calamity_amount(ac.CalamityId.FAMINE, "famine_secondry", [], Role.SECONDARY)  # type: ignore[arg-type]  # rejected
ac.secondary_losses(ac.CalamityId.FAMINE, "famine_primary_typo", {})  # type: ignore[arg-type]  # rejected
ac.can_enter_epoch(ac.EpochId.LATE_BRONZE_AGE, 2, [], level="expert")  # type: ignore[arg-type]  # rejected
ac.finish_space(ac.NationId.EGYPT, level="standrd")  # type: ignore[arg-type]  # rejected
ac.has_finished(ac.NationId.EGYPT, 10, level="basic")  # type: ignore[arg-type]  # rejected
smc.unlocked_by("celeiro_typo")  # type: ignore[arg-type]  # rejected
smc.unlocked_by(smc.TechnologyId.POTTERY)  # type: ignore[arg-type]  # rejected


def held_from_a_save(names: list[str]) -> int:
    return ac.hand_limit(names)  # type: ignore[arg-type]  # rejected


# What an engine writes: the package's own ids and literals.
ac.purchase_cost([ac.CardId.LAW], ac.CardId.DEMOCRACY)
ac.purchase_cost(["drama_and_poetry", "architecture", "literacy"], "democracy")
ac.calamity_amount(ac.CalamityId.FLOOD, "flood_primary", [ac.CardId.ENGINEERING], Role.PRIMARY)
mega.purchase_cost([mega.CardId.LAW], mega.CardId.DEMOCRACY)
smc.research_cost(1)
imperial.production(imperial.FactionId.ROMANS)
ac.calamity_amount(ac.CalamityId.FAMINE, "famine_secondary", [], Role.SECONDARY)
ac.secondary_losses(ac.CalamityId.FAMINE, "famine_secondary", {"b": 2})
mega.has_finished(mega.NationId.MINOA, 10, level="expert")
ac.finish_space(ac.NationId.EGYPT, level="standard")
smc.unlocked_by("celeiro")
cheapest_card = min(ac.purchase_cost([], card) for card in ac.CardId)


def cheapest(rules: RulesetPackage) -> int:
    """Engine code typed against the protocol: the ids it reads from the package are accepted."""
    return min(rules.purchase_cost([], card) for card in rules.CARDS)


cheapest(ac)
cheapest(mega)
