"""A record that says a fact is not in the sources (a flag: Advanced Civilization's
``CalamityEffect.unknown``, ``CalamityModifier.amount_unknown``, ``Combination.mode_unknown``, Sid
Meier's ``Building.upgrade_unknown``) and gives it all the same is no record the rules could give:
an engine that fills the fact with ``replace(mode=...)`` and leaves the flag had a record the helpers
go on reading as unknown. It is refused (OutOfDomainError) saying to clear the flag with the value,
as a settings record's unknown fact is known once given a value (family runtimes 2.10.5, 1.14.5)."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import central_america as ca  # noqa: E402 - the committed packages
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import OutOfDomainError  # noqa: E402
from civrules_runtime_advanced_civilization.vocab import CombinationMode  # noqa: E402


def test_a_fact_given_while_its_flag_says_it_is_unknown_is_refused_and_the_flag_cleared_with_it_is_not() -> None:
    combination = ca.CALAMITY_COMBINATIONS["famine"]
    assert combination.mode_unknown and combination.mode is None
    told = r"mode_unknown=True says .* mode='cumulative' gives it: give mode_unknown=False"
    with pytest.raises(OutOfDomainError, match=told):
        combination.replace(mode=CombinationMode.CUMULATIVE)
    known = combination.replace(mode=CombinationMode.CUMULATIVE, mode_unknown=False)
    assert known.mode == "cumulative" and not known.mode_unknown
    with pytest.raises(OutOfDomainError, match="mode_unknown=True"):
        known.replace(mode_unknown=True)
    effect = next(e for effects in ca.CALAMITY_EFFECTS.values() for e in effects or () if e.amount is not None)
    with pytest.raises(OutOfDomainError, match=r"unknown=True says .* amount="):
        effect.replace(unknown=True)
    modifier = next(m for ms in ca.CALAMITY_MODIFIERS.values() for m in ms or () if m.amount is not None)
    with pytest.raises(OutOfDomainError, match=r"amount_unknown=True says .* amount="):
        type(modifier)(**{**{n: getattr(modifier, n) for n in type(modifier).__match_args__}, "amount_unknown": True})
    university = smc.BUILDINGS["universidade"]
    assert university.upgrade_unknown and university.upgrade_of is None
    with pytest.raises(OutOfDomainError, match=r"upgrade_unknown=True says .* upgrade_of='biblioteca' gives it"):
        university.replace(upgrade_of="biblioteca")
    assert university.replace(upgrade_of="biblioteca", upgrade_unknown=False).upgrade_of == "biblioteca"
