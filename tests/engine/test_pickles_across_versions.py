"""A pickle of a record made by another version of its runtime, whose record class has other fields,
is an OutOfDomainError that says so (the fields this version's class has, how many the pickle
gave, the runtime and its version, what to do), never a record with its values in the wrong fields
and never an error from inside pickle.

(Round 28's release and this round's load each other's pickles of every table of five packages
alike: no record's fields changed between them. A pickle holds a record's values in the order of
its fields, so a version that adds or removes a field cannot read the other's.)
"""

from __future__ import annotations

import pickle
import re
import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime.errors import OutOfDomainError  # noqa: E402 - the committed runtime
from civrules_runtime.records import Record  # noqa: E402


def pickled_by_another_version(record: Record, state: tuple[object, ...]) -> bytes:
    """A pickle of ``record``'s class with ``state``, as a version whose class has those fields writes it."""

    class Other:
        def __reduce__(self) -> tuple[object, ...]:
            return (object.__new__, (type(record),), state)  # made, then its state set: as pickle restores a record

    return pickle.dumps(Other())


def test_a_pickle_of_a_record_with_other_fields_says_another_version_made_it() -> None:
    import civrules_runtime_advanced_civilization
    from civrules_rulesets import advanced_civilization

    card = next(iter(advanced_civilization.CARDS.values()))
    assert pickle.loads(pickle.dumps(card)) == card
    fields = ", ".join(card._names())
    version = civrules_runtime_advanced_civilization.__version__
    for state in (card.__getstate__()[:-1], (*card.__getstate__(), "a field this version has not")):
        said = (
            rf"Card is restored from its {len(card._names())} fields \({re.escape(fields)}\), not {len(state)} values:"
            rf" the pickle was made by another version of civrules_runtime_advanced_civilization than this"
            rf" {re.escape(version)}.* load it with the version that made it"
        )
        with pytest.raises(OutOfDomainError, match=said):
            pickle.loads(pickled_by_another_version(card, state))


def test_a_pickle_of_a_settings_record_with_other_fields_says_so_too() -> None:
    from civrules_rulesets import imperial_settlers

    settings = imperial_settlers.SETTINGS
    assert pickle.loads(pickle.dumps(settings)) == settings
    state = settings.__getstate__()[1:]  # a version whose Settings had one field fewer
    with pytest.raises(OutOfDomainError, match=r"Settings is restored from its \d+ fields \(.*unknown_fields\), not"):
        pickle.loads(pickled_by_another_version(settings, state))
