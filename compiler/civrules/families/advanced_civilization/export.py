"""The facts ``civrules export`` derives for a ruleset of the Advanced Civilization family."""

from __future__ import annotations

from typing import Any

from civrules.families.advanced_civilization.calamities import resolution_order
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Ruleset


def derived_facts(model: Ruleset) -> dict[str, Any]:
    """``credit_matrix`` {owned: {target: points}} by the ruleset's credit policy, and the order in
    which calamities are resolved (30.1)."""
    return {
        "credit_matrix": credit_matrix(model),
        "calamity_resolution_order": [c.id for c in resolution_order(model)],
    }
