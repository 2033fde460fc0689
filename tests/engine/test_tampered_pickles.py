"""A pickle is its values' constructors and their arguments, which anyone can write: what a value
checks when an engine makes it, it checks when a pickle makes it again. Records (their fields'
types and the schemas' bounds, round 26 and 29), settings records, ``PlayerRange``, an engine's
``Assumptions`` and a view always did. A package's credit matrix and its rows did not: a pickle of
``CREDIT_MATRIX`` with a policy, a group or a credit line of another shape loaded silently and
answered wrong credits, or failed later from inside the matrix (``can only concatenate str (not
"int") to str``), and a pickled row with other lines than its matrix's answered them (and indexed
them into the matrix for its card). Both are refused as they load, with an OutOfDomainError (a
ValueError) naming the part. A ``FrozenMap`` or an ``OrderedFrozenSet`` holds any values: it has no
invariant of its own beyond what its constructor makes.
"""

from __future__ import annotations

import copy
import pickle
import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime.errors import OutOfDomainError  # noqa: E402 - the committed runtime
from civrules_runtime_advanced_civilization.credits import CreditMatrix, CreditRow  # noqa: E402

GROUPS = {"mining": ("crafts",), "pottery": ("crafts",), "law": ("civics",)}
LINES = {"pottery": ((10, "crafts", None, False), (5, None, "law", True))}


class Written:
    """A pickle of ``cls`` made again from ``args``, as someone other than the package writes it."""

    def __init__(self, cls: type, args: tuple[object, ...]) -> None:
        self.made = (cls, args)

    def __reduce__(self) -> tuple[object, ...]:
        return self.made


def loaded(cls: type, *args: object) -> object:
    return pickle.loads(pickle.dumps(Written(cls, args)))


def test_a_credit_matrix_and_its_rows_round_trip_as_before() -> None:
    from civrules_rulesets import advanced_civilization

    for matrix in (advanced_civilization.CREDIT_MATRIX,):
        again = pickle.loads(pickle.dumps(matrix))
        assert again == matrix and isinstance(again, CreditMatrix)
        for owned in list(matrix)[:5]:
            row = matrix[owned]
            assert pickle.loads(pickle.dumps(row)) == row == copy.deepcopy(row) == copy.copy(row)
            assert pickle.loads(pickle.dumps((matrix, row)))[1]._matrix is not None
    assert loaded(CreditMatrix, "sum", True, GROUPS, LINES)["pottery"]["mining"] == 10  # type: ignore[index]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("highesx", True, GROUPS, LINES), r"^CreditMatrix\.same_target should be one of highest, sum, not 'highesx'"),
        (("sum", 1, GROUPS, LINES), r"^CreditMatrix\.two_group_cards_known should be True or False, not 1"),
        (("sum", True, {"mining": "crafts"}, {}), r"^CreditMatrix\.groups\['mining'\] should be a tuple of group ids"),
        (("sum", True, GROUPS, {"wheel": ()}), r"^CreditMatrix\.credits should be keyed by the cards of its groups"),
        (("sum", True, GROUPS, {"pottery": [(10, "crafts", None, False)]}), r"credits\['pottery'\] should be a tuple"),
        (("sum", True, GROUPS, {"pottery": (("10", "crafts", None, False),)}), r"credits\['pottery'\]\[0\] should be"),
        (("sum", True, GROUPS, {"pottery": ((10, "crafts", None, "no"),)}), r"credits\['pottery'\]\[0\] should be"),
        (("sum", True, GROUPS, {"pottery": ((10, None, None, False),)}), r"a group or a card given, not \(10, None"),
        (("sum", True, GROUPS, {"pottery": ((10, "crafts", None),)}), r"credits\['pottery'\]\[0\] should be"),
    ],
)
def test_a_changed_pickle_of_a_credit_matrix_is_refused_naming_the_part(args: tuple[object, ...], said: str) -> None:
    with pytest.raises(OutOfDomainError, match=said) as raised:
        loaded(CreditMatrix, *args)
    assert "a pickle that holds it was changed" in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_a_changed_pickle_of_a_credit_row_is_refused_and_leaves_its_matrix_as_it_was() -> None:
    from civrules_rulesets import advanced_civilization

    matrix = advanced_civilization.CREDIT_MATRIX
    owned = next(card for card in matrix if matrix[card])
    target = next(iter(matrix[owned]))
    before = matrix[owned][target]
    with pytest.raises(OutOfDomainError, match=rf"^CreditRow of '{owned}' should be its matrix's \d+ credit lines"):
        loaded(CreditRow, matrix, owned, ((before + 90, None, target, False),))
    with pytest.raises(OutOfDomainError, match=r"^CreditRow of 'wheel' should be a credit matrix and one of its"):
        loaded(CreditRow, matrix, "wheel", ())
    with pytest.raises(OutOfDomainError, match=r"^CreditRow of 'law' should be a credit matrix"):
        loaded(CreditRow, {"law": ()}, "law", ())
    assert matrix[owned][target] == before
