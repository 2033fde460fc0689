"""The names of generated engine packages and runtimes, whatever their family.

Every ruleset's package is an import package named after its id and a distribution
``civrules-<id>``. Every package imports the shared runtime ``civrules_runtime`` (errors, the
record and protocol bases: what every family shares) and its family's runtime
``civrules_runtime_<family>`` (distribution ``civrules-runtime-<family>``: the family's records,
vocabularies, rule logic and protocol), which all the family's rulesets share. The family runtimes
are named under the shared one's, so that they sort and read as parts of it and no ruleset's
package can take their names by accident (check I003 reserves them).
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


def family_runtime_package(family_id: str) -> str:
    """The import name of a family's runtime: ``advanced-civilization`` → ``civrules_runtime_advanced_civilization``."""
    return f"{RUNTIME}_{family_id.replace('-', '_')}"


def family_runtime_distribution(family_id: str) -> str:
    """The distribution (pip) name of a family's runtime: ``civrules-runtime-<family id>``."""
    return f"{RUNTIME_DISTRIBUTION}-{family_id}"
