"""A package that would name an id its ruleset lacks is refused, never written (round 18).

The data module writes each reference as an enum member (`CardId.DEMOCRACY`); one the ruleset
lacks made the package fail at import with a bare AttributeError. X001 now checks every reference
the schemas declare (tests/core/test_reference_owners.py), and the emitter refuses such a module
whatever let it through: these tests take X001 away to reach it.
"""

from __future__ import annotations

from typing import Any

import pytest

import civrules.emit.build as build_module
from civrules.diagnostics import codes
from civrules.emit.export import export_ruleset
from civrules.emit.packaging import PackageRefusedError
from civrules.families.advanced_civilization.model import of_family
from civrules.families.advanced_civilization.package import data_module, render_package
from civrules.pipeline import Analysis, analyse, derived_facts
from civrules.support.tracked import sharing
from tests.rulefiles import CachedWorkspace, shipped_text

#: The report's variant: Monarchy is an Expansion Project card, not an Advanced Civilization one.
AC_TAX = """\
kind: ruleset
id: ac-tax
name: "ac-tax"
extends: advanced-civilization
overlay:
  settings:
    taxation:
      revolt: {immune_card: monarchy, source: "house rule: Monarchy protects from revolt"}
"""

CALAMITIES = "calamities/advanced-civilization.yaml"


def _without_x001(workspace: CachedWorkspace, ruleset_id: str) -> Analysis:
    """The analysis of a ruleset as if X001 missed its references."""
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]), ignore=("X001",))
    assert analysis.ok and analysis.model is not None and analysis.resolved is not None
    return analysis


def _exported(analysis: Analysis) -> dict[str, Any]:
    assert analysis.model is not None and analysis.resolved is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def test_a_card_the_ruleset_lacks_is_refused_with_what_it_is() -> None:
    workspace = CachedWorkspace({"rulesets/ac-tax.yaml": AC_TAX})
    analysis = _without_x001(workspace, "ac-tax")
    with pytest.raises(PackageRefusedError) as refused:
        render_package(of_family(analysis.model), _exported(analysis))
    said = str(refused.value)
    assert "`CardId.MONARCHY` (`monarchy` is not among the ruleset's civilization_cards)" in said, said
    assert "fail at import" in said


def test_a_statement_written_once_for_several_rulesets_is_judged_each_time() -> None:
    """A table shared between the rulesets of a build (a variant that keeps its base's calamities
    writes them once) names the same members each time it is reused: refused again."""
    text = shipped_text(CALAMITIES).replace("          commodity: grain\n", "          commodity: graine\n", 1)
    workspace = CachedWorkspace({CALAMITIES: text})
    analysis = _without_x001(workspace, "advanced-civilization")
    model, exported = of_family(analysis.model), _exported(analysis)
    with sharing({}):
        for _ in range(2):
            with pytest.raises(PackageRefusedError, match=r"`CommodityId\.GRAINE`"):
                data_module(model, exported)


def test_the_shipped_packages_name_only_members_that_exist() -> None:
    """The guard refuses nothing a clean ruleset writes (what `build --check` holds byte for byte)."""
    workspace = CachedWorkspace()
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.ok
    assert data_module(of_family(analysis.model), _exported(analysis)).source.startswith(b'"""The data of')


def test_build_reports_the_refusal_and_writes_nothing_of_the_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing_x001(*args: Any, **kwargs: Any) -> Analysis:
        return analyse(*args, **{**kwargs, "ignore": ("X001",)})

    monkeypatch.setattr(build_module, "analyse", missing_x001)
    workspace = CachedWorkspace({"rulesets/ac-tax.yaml": AC_TAX})
    result = build_module.render(workspace, [workspace.load_ruleset(workspace.manifests()["ac-tax"])])
    assert result.failed_ids == ["ac-tax"]
    assert not any("ac_tax" in path or "ac-tax" in path for path in result.tree)
    (refusal,) = [d for d in result.diagnostics if d.code == codes.INTERNAL_ERROR.code]
    assert refusal.message.startswith("ruleset `ac-tax` was not built: its package would name `CardId.MONARCHY`")
    assert refusal.hint is not None and refusal.hint.startswith("correct the id in your rules")


#: Round 19: an id ending in a line break, which Python's `$` let through the schemas.
AC_BREWING = """\
kind: ruleset
id: ac-brewing
name: "ac-brewing"
extends: advanced-civilization
overlay:
  civilization_cards:
    add:
      - id: "brewing\\n"
        name: Brewing
        source: "house rule: brewing"
        groups: [crafts]
        cost: 45
        prerequisites: []
        credits: []
        attributes: []
"""


def test_an_id_no_check_refused_is_refused_by_build_not_written_as_broken_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Defence in depth: with the schemas' patterns read as Python's `re.search` reads them (as
    before round 19), the id reaches the package, whose enum member would be `BREWING\\n`: an
    IndentationError in the module (R900 "IndentationError"). The package refuses it, naming it."""
    import re

    import civrules.schema
    from civrules.schema import patterns

    monkeypatch.setattr(patterns, "matches", lambda pattern, text: re.search(pattern, text) is not None)
    monkeypatch.setattr(civrules.schema, "_VALID_ENTITIES", set())  # what it judges valid is not kept
    workspace = CachedWorkspace({"rulesets/ac-brewing.yaml": AC_BREWING})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-brewing"]))
    assert analysis.ok, [d.message for d in analysis.diagnostics if d.severity == "error"]
    result = build_module.render(workspace, [workspace.load_ruleset(workspace.manifests()["ac-brewing"])])
    assert result.failed_ids == ["ac-brewing"]
    assert not any("ac_brewing" in path or "ac-brewing" in path for path in result.tree)
    (refusal,) = [d for d in result.diagnostics if d.code == codes.INTERNAL_ERROR.code]
    assert refusal.message.startswith(
        'ruleset `ac-brewing` was not built: its package would make the id "brewing\\n" an enum member'
    ), refusal.message
    assert refusal.hint is not None and refusal.hint.startswith("correct the id in your rules")


@pytest.mark.parametrize("family", ["advanced_civilization", "imperial_settlers", "sid_meiers_civilization"])
def test_every_family_refuses_an_id_that_is_no_python_name(family: str) -> None:
    import importlib

    member = importlib.import_module(f"civrules.families.{family}.package").member
    assert member("pottery") == "POTTERY"
    for bad in ("brewing\n", "two words", "a-b", "x\u200b"):
        with pytest.raises(PackageRefusedError, match="no Python name"):
            member(bad)
