"""Rulesets analysed in one command share the models and walks of the entries a variant keeps
(:class:`civrules.pipeline.Shared`): each finds exactly what it finds analysed alone."""

from __future__ import annotations

from collections.abc import Sequence

from civrules.diagnostics import Diagnostic
from civrules.load.workspace import Workspace
from civrules.pipeline import Shared, analyse
from civrules.resolve import Resolver
from tests.core.test_variants import HOUSE_RULES
from tests.rulefiles import CachedWorkspace

#: A variant of the house rules with a mistake its checks find: a prerequisite that names no card.
BROKEN = """\
kind: ruleset
id: ep-broken
name: "The house rules, mistyped"
extends: ep-house
overlay:
  civilization_cards:
    patch:
      - id: banking
        prerequisites: [{card: coinagee, source: "house rule"}]
"""
FILES = {"rulesets/ep-house.yaml": HOUSE_RULES, "rulesets/ep-broken.yaml": BROKEN}


def _found(workspace: Workspace, names: Sequence[str], shared: Shared) -> list[list[Diagnostic]]:
    manifests = workspace.manifests()
    loaded = [workspace.load_ruleset(manifests[name]) for name in names]
    resolver = Resolver(workspace)
    found = []
    for index, one in enumerate(loaded):
        resolver.retain(base for base in Resolver.bases(loaded)[index:] if base is not None)
        with shared.ruleset():
            found.append(analyse(workspace, one, resolver=resolver).diagnostics)
    return found


def test_a_run_of_every_ruleset_finds_what_each_finds_alone_and_reuses_the_bases_models() -> None:
    names = sorted(CachedWorkspace(FILES).manifests())
    assert {"ep-house", "ep-broken", "advanced-civilization", "mega-civilization"} <= set(names)
    shared = Shared(len(names))
    together = _found(CachedWorkspace(FILES), names, shared)
    alone = [_found(CachedWorkspace(FILES), [name], Shared(1))[0] for name in names]
    for name, with_others, by_itself in zip(names, together, alone, strict=True):
        assert with_others == by_itself, name
    broken = together[names.index("ep-broken")]
    assert any(d.code == "X001" and "coinagee" in d.message for d in broken)
    # The variants took their bases' models of the entries they keep (counted, never timed).
    assert shared.reused > 0


def test_a_run_of_one_ruleset_keeps_nothing() -> None:
    shared = Shared(1)
    _found(CachedWorkspace(FILES), ["ep-house"], shared)
    assert shared.reused == 0
