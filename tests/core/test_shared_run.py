"""Rulesets analysed in one command share the models and walks of the entries a variant keeps
(:class:`civrules.pipeline.Shared`): each finds exactly what it finds analysed alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from civrules.diagnostics import Diagnostic
from civrules.load.workspace import Workspace
from civrules.pipeline import Shared, analyse
from civrules.resolve import Resolver
from tests.budget import heavy
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


def test_a_run_of_one_ruleset_installs_no_memo() -> None:
    """One ruleset has nothing to share: its analysis keeps nothing beyond itself (the memory of
    issue 32, point 2, is measured on one ruleset at 50x)."""
    from civrules.model import assembly
    from civrules.schema.references import is_remembering

    for rulesets, installed in ((1, False), (2, True)):
        with Shared(rulesets).ruleset():
            assert is_remembering() is installed and bool(assembly._assembled) is installed
    shared = Shared(1)
    _found(CachedWorkspace(FILES), ["ep-house"], shared)
    assert shared.reused == 0


#: The house rules again under another name: every collection the same objects as ep-house's.
AGAIN = HOUSE_RULES.replace("id: ep-house", "id: ep-again").replace('name: "The Expansion Project', 'name: "Again')


def _sheets(names: Sequence[str], files: dict[str, str]) -> dict[str, bytes]:
    from civrules.emit.build import render

    workspace = CachedWorkspace(files)
    manifests = workspace.manifests()
    result = render(workspace, [workspace.load_ruleset(manifests[name]) for name in names])
    assert not result.failed
    return {path: content for path, content in result.tree.items() if path.startswith(("sheets/", "helpers/"))}


@pytest.mark.slow  # make test keeps the run of each ruleset alone against its bases, below, which compares sheets too
def test_sheets_built_with_what_a_run_shares_are_the_sheets_built_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant that keeps what a sheet shows reuses its context (its marks, its map, its cards
    the same); one that changes it builds its own. Either way each page is what the same run
    renders with nothing shared."""
    from civrules.emit import build
    from civrules.emit.sheets import each_sheet

    files = {**FILES, "rulesets/ep-again.yaml": AGAIN}
    files["rulesets/ep-pottery.yaml"] = BROKEN.replace("ep-broken", "ep-pottery").replace("coinagee", "pottery")
    names = ["expansion-project", "ep-house", "ep-again", "ep-pottery"]
    shared = _sheets(names, files)
    kept: list[object] = []

    def unshared(*args: Any, **kwargs: Any) -> Any:
        kept.append(kwargs.pop("kept", None))
        return each_sheet(*args, **kwargs)

    monkeypatch.setattr(build, "each_sheet", unshared)
    monkeypatch.setattr(build, "Shared", lambda rulesets: Shared(1))
    alone = _sheets(names, files)
    assert len(kept) == len(names) and all(one is not None for one in kept)  # the run did offer its contexts
    assert shared.keys() == alone.keys()
    for path in shared:
        assert shared[path] == alone[path], path
    assert b"Again" in shared["sheets/ep-again/map.html"] and b"Again" not in shared["sheets/ep-house/map.html"]


def _tree(names: Sequence[str], files: dict[str, str]) -> dict[str, bytes]:
    from civrules.emit.build import render

    workspace = CachedWorkspace(files)
    manifests = workspace.manifests()
    result = render(workspace, [workspace.load_ruleset(manifests[name]) for name in names])
    assert not result.failed
    return dict(result.tree)


@heavy
def test_each_rulesets_files_are_the_same_built_alone_and_with_its_bases() -> None:
    """What `civrules build RULESET` writes for a ruleset is what `civrules build` writes for it.

    A variant of a variant built without its base listed, on its "what this variant changes" sheet,
    the deck total its base derived (a commodity count the base changed) as its own change: the
    base's resolution had not been assembled, the variant's had."""
    files = {
        **FILES,
        "rulesets/ep-pottery.yaml": BROKEN.replace("ep-broken", "ep-pottery").replace("coinagee", "pottery"),
    }
    names = ["expansion-project", "ep-house", "ep-pottery"]
    together = _tree(names, files)
    for name in names:
        alone = _tree([name], files)
        own = [path for path in alone if f"/{name}/" in path or f"/{name}." in path or name.replace("-", "_") in path]
        assert own
        for path in own:
            assert alone[path] == together[path], path


@pytest.mark.slow
def test_every_shipped_rulesets_files_are_the_same_built_alone_and_all_together() -> None:
    """The class of the defect above, over every shipped ruleset of every family: what a ruleset's
    build writes does not depend on which other rulesets the run builds (nor on what they share)."""
    files: dict[str, str] = {}
    names = sorted(CachedWorkspace(files).manifests())
    together = _tree(names, files)
    for name in names:
        alone = _tree([name], files)
        own = [path for path in alone if f"/{name}/" in path or f"/{name}." in path or path.endswith(f"/{name}.html")]
        own += [path for path in alone if path.startswith(f"python/civrules_rulesets/{name.replace('-', '_')}/")]
        assert own, name
        for path in own:
            assert alone[path] == together[path], path
