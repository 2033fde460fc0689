"""A helper given a value whose repr fails refuses it with the rule's own error.

A refusal names the value it refuses (``shown``). Two kinds of value an engine can pass have no
repr: an integer past the digits Python turns into text (``10**5000``: ValueError "Exceeds the limit
(4300 digits) for integer string conversion") and a list or mapping nested past the stack
(RecursionError). Showing one raised that error in place of the refusal, from 317 calls of the
committed packages' helpers (a count, a player number, an id, a role, an exported credit matrix).
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime.errors import OutOfDomainError, UnknownIdError, within  # noqa: E402
from civrules_runtime_advanced_civilization.credits import CreditMatrix  # noqa: E402

HUGE = 10**5000


def _deep() -> list[Any]:
    nested: list[Any] = []
    for _ in range(5_000):  # past the interpreter's recursion limit (1,000), which a repr counts
        nested = [nested]
    return nested


def _calls(values: tuple[Any, ...] | None = None) -> list[tuple[str, Any, dict[str, Any]]]:
    """Each helper of the packages with each of its parameters given each of ``values`` (default:
    values that cannot be shown), the others the least they take (a collection where one is named
    so, else 1)."""
    calls = []
    values = values if values is not None else (HUGE, _deep(), {"k": [HUGE]})
    for package in (ac, imperial, smc):
        for name in package.__all__:
            helper = getattr(package, name)
            if not inspect.isfunction(helper) or name == "assuming":  # assuming() takes an Assumptions
                continue
            named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            parameters = [p for p in inspect.signature(helper).parameters.values() if p.kind in named]
            for given in parameters:
                for value in values:
                    arguments = {
                        p.name: value if p is given else ([] if p.name.endswith(("s", "held", "owned")) else 1)
                        for p in parameters
                        if p is given or p.default is inspect.Parameter.empty
                    }
                    calls.append((f"{package.__name__}.{name}({given.name}=...)", helper, arguments))
    return calls


def test_no_helper_shows_a_value_by_the_interpreters_error() -> None:
    raised = []
    for said, helper, arguments in _calls():
        try:
            helper(**arguments)
        except Exception as error:  # noqa: BLE001 - which one is the question
            if not type(error).__module__.startswith("civrules_runtime"):
                raised.append(f"{said}: {type(error).__name__}: {str(error)[:80]}")
    assert raised == []


def test_an_integer_too_long_to_write_is_said_by_its_digits() -> None:
    with pytest.raises(OutOfDomainError, match=r"^n=<an integer of about 5,001 digits> is outside the domain"):
        within(HUGE, "n", 0, 5)
    with pytest.raises(UnknownIdError, match="<a list that cannot be shown> is not a defending situation"):
        smc.combat_bonus(defending=_deep())  # type: ignore[arg-type]
    assert "<an integer of about 5,001 digits> cards stated" in ac.trade_problems(["grain"] * 3, HUGE, ["grain"])[0]


def test_an_exported_credit_matrix_nested_too_deep_is_refused_as_not_what_export_writes() -> None:
    with pytest.raises(ValueError, match=r'\["policy"\] should be an object, not <a list that cannot be shown>'):
        CreditMatrix.from_export({"policy": _deep(), "groups": {}, "credits": {}})


class _CallersBugError(Exception):
    """What an engine's own ``__hash__`` or ``__eq__`` raises: none of the runtime's."""


class _Unhashing:
    """An engine's value whose ``__hash__`` and ``__eq__`` fail (the caller's bug)."""

    def __hash__(self) -> int:
        raise _CallersBugError("hash")

    def __eq__(self, other: object) -> bool:
        raise _CallersBugError("eq")


class _Uncomparing(str):
    """An engine's str whose ``==`` fails: hashed as the id it spells, then compared."""

    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        raise _CallersBugError("eq")


def test_a_value_whose_own_hash_or_eq_fails_is_no_id_in_every_helper() -> None:
    """A value whose ``__hash__`` raised TypeError was "no id" (as an unhashable list is), and
    one whose ``__hash__`` or ``__eq__`` raised anything else came out of 37 helper calls of the
    committed packages (a table's ``in`` and ``[]``, a vocabulary, the credit matrix's ``in``):
    the same bug of the caller told two ways. Any failure of the value's own hash or comparison
    is now a refusal of the value as no id, the runtime's error: one rule, and no traceback
    through the helpers."""
    raised = []
    for said, helper, arguments in _calls((_Unhashing(), _Uncomparing("grain"), [_Unhashing()])):
        try:
            helper(**arguments)
        except Exception as error:  # noqa: BLE001 - which one is the question
            if not type(error).__module__.startswith("civrules_runtime"):
                raised.append(f"{said}: {type(error).__name__}: {str(error)[:80]}")
    assert raised == []
    assert _Unhashing() not in ac.CARDS
    with pytest.raises(KeyError):  # the runtime's MissingKeyError
        ac.CARDS[_Unhashing()]  # type: ignore[index]
