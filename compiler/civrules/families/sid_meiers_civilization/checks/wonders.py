"""Wonders: a discount is below the cost."""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Severity
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset


@check(
    "T012",
    "wonder-discount-not-below-cost",
    Severity.ERROR,
    reads=(
        "wonders.cost",
        "wonders.discount",
    ),
)
@made_of("wonders")
def check_discounts(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a wonder's discounted cost is not below its cost (the Colossus: 15, 10 with Metalworking, p7).

    Why: a discount that saves nothing makes its technology's promise empty.

    Fix: lower the discounted cost.

        - {id: colossus, cost: 15, discount: {cost: 15, technology: metalworking}}   # FAIL
    """
    for wonder in ruleset.wonders:
        if wonder.discount is not None and isinstance(wonder.cost, int) and wonder.discount.cost >= wonder.cost:
            yield diagnostic(
                "T012",
                f"wonder `{wonder.id}` costs {wonder.cost} and {wonder.discount.cost} with `{wonder.discount.technology}`: no discount",  # noqa: E501
                wonder.origin.span("discount", "cost"),
                f"make it less than {wonder.cost}" if wonder.cost > 1 else "remove the discount: no cost is below 1",
                subjects=(wonder.id, wonder.discount.technology),
            )
