"""The names of generated engine packages and runtimes, whatever their family.

Every ruleset's package is an import package in civrules' own namespace,
``civrules_rulesets.<id with underscores>``, and a distribution ``civrules-<id>``. The namespace is
what keeps a ruleset's package from replacing or shadowing anything else installed: whatever its id
(``pip``, ``sitecustomize``, ``yaml``, a dependency of an engine), the package can only ever be
``civrules_rulesets.pip``; ``civrules_rulesets`` is an implicit namespace package (PEP 420), which
no distribution owns, so any number of rulesets install side by side. Whether an id is accepted
depends on the rules alone, never on what the building machine has installed.

Every package imports the shared runtime ``civrules_runtime`` (errors, the record and protocol
bases: what every family shares) and its family's runtime ``civrules_runtime_<family>``
(distribution ``civrules-runtime-<family>``: the family's records, vocabularies, rule logic and
protocol), which all the family's rulesets share. Their names are civrules' own, fixed by civrules
and the family, never by rule data; a ruleset whose distribution would take a runtime's
(``civrules-runtime``, ``civrules-runtime-<family>``) is refused (check I003).
"""

from __future__ import annotations

#: The namespace every ruleset's import package lives in (a PEP 420 namespace: no ``__init__.py``).
NAMESPACE = "civrules_rulesets"
#: The import package of the runtime every generated package shares.
RUNTIME = "civrules_runtime"
#: Its distribution (pip) name.
RUNTIME_DISTRIBUTION = "civrules-runtime"


def package_name(ruleset_id: str) -> str:
    """The name of a ruleset's package within the namespace: its id with hyphens as underscores."""
    return ruleset_id.replace("-", "_")


def import_name(ruleset_id: str) -> str:
    """What an engine imports: ``advanced-civilization`` → ``civrules_rulesets.advanced_civilization``."""
    return f"{NAMESPACE}.{package_name(ruleset_id)}"


def package_folder(ruleset_id: str) -> str:
    """The package's folder relative to ``generated/python/`` (its distribution's files lie in it)."""
    return f"{NAMESPACE}/{package_name(ruleset_id)}"


def distribution_name(ruleset_id: str) -> str:
    """The distribution (pip) name of a ruleset's package."""
    return f"civrules-{ruleset_id}"


def family_runtime_package(family_id: str) -> str:
    """The import name of a family's runtime: ``advanced-civilization`` → ``civrules_runtime_advanced_civilization``."""
    return f"{RUNTIME}_{family_id.replace('-', '_')}"


def family_runtime_distribution(family_id: str) -> str:
    """The distribution (pip) name of a family's runtime: ``civrules-runtime-<family id>``."""
    return f"{RUNTIME_DISTRIBUTION}-{family_id}"
