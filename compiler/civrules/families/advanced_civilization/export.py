"""The facts ``civrules export`` derives for a ruleset of the Advanced Civilization family."""

from __future__ import annotations

from typing import Any

from civrules.families.advanced_civilization.calamities import resolution_order
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Ruleset


def derived_facts(model: Ruleset) -> dict[str, Any]:
    """``credit_matrix`` in its linear form (the credit policy, every card's groups, each giving
    card's credit lines: ``CreditMatrix.from_export`` of the family's runtime answers
    ``[owned][target]`` from it), and the order in which calamities are resolved (30.1)."""
    return {
        "credit_matrix": credit_matrix(model).export(),
        "calamity_resolution_order": [c.id for c in resolution_order(model)],
    }
