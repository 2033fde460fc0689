"""Ruleset ids become Python packages and distributions: an id that would shadow a module (the standard
library's, a family runtime's, civrules' own) or a distribution, that cannot be imported, or that is too
long to name a folder is refused at its line before anything is written.
How hostile names become safe literals inside a package is in
tests/families/advanced_civilization/test_codegen.py.
"""

from __future__ import annotations

import pytest

from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace


@pytest.mark.parametrize(("ruleset_id", "what"), [("enum", "standard-library module"), ("in", "Python keyword")])
def test_a_ruleset_id_that_would_shadow_a_module_or_cannot_be_imported_is_refused(ruleset_id: str, what: str) -> None:
    """generated/python/enum/ would shadow the standard library's enum for every generated package."""
    manifest = f"kind: ruleset\nid: {ruleset_id}\nname: X\nextends: advanced-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    found = [d for d in analysis.diagnostics if d.code == "I003"]
    assert len(found) == 1 and what in found[0].message
    assert found[0].span is not None and (found[0].span.line, found[0].span.column) == (2, 5)


def test_the_reserved_names_are_those_the_emitter_writes() -> None:
    from civrules.checks.identity import RESERVED_DISTRIBUTIONS, RESERVED_PACKAGES
    from civrules.emit.packaging import RUNTIME, RUNTIME_DISTRIBUTION

    assert RUNTIME in RESERVED_PACKAGES
    assert RUNTIME_DISTRIBUTION in RESERVED_DISTRIBUTIONS


def test_no_ruleset_can_take_the_name_of_a_family_runtime() -> None:
    """A ruleset `runtime-advanced-civilization` would be distributed as the family runtime's
    `civrules-runtime-advanced-civilization`; one `civrules-runtime-advanced-civilization` would
    import as its package."""
    from civrules.checks.identity import RESERVED_DISTRIBUTIONS, RESERVED_PACKAGES
    from civrules.emit.packaging import family_runtime_distribution, family_runtime_package
    from civrules.families import families

    for family in families():
        assert family_runtime_package(family) in RESERVED_PACKAGES
        assert family_runtime_distribution(family) in RESERVED_DISTRIBUTIONS


def test_a_ruleset_id_too_long_to_name_a_folder_is_i003() -> None:
    from civrules.pipeline import analyse

    long_id = "a" * 101
    text = f"kind: ruleset\nid: {long_id}\nname: Long\nextends: advanced-civilization\n"
    workspace = Workspace(RULES, overrides={f"rulesets/{long_id}.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[long_id]))
    assert [(d.code, d.span.line if d.span else 0) for d in analysis.diagnostics if d.severity == "error"] == [
        ("I003", 2)
    ]
