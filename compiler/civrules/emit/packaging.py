"""The names of generated engine packages, whatever their family.

Every ruleset's package is an import package named after its id and a distribution
``civrules-<id>``; every package imports the shared runtime ``civrules_runtime``.
"""

from __future__ import annotations

#: The import package of the runtime every generated package shares.
RUNTIME = "civrules_runtime"
#: Its distribution (pip) name.
RUNTIME_DISTRIBUTION = "civrules-runtime"


def package_name(ruleset_id: str) -> str:
    """The import name of a ruleset's package: its id with hyphens as underscores."""
    return ruleset_id.replace("-", "_")


def distribution_name(ruleset_id: str) -> str:
    """The distribution (pip) name of a ruleset's package."""
    return f"civrules-{ruleset_id}"
