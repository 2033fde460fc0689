"""A designer writing a variant is told what to write in the variant, never to edit a base they
do not own (round 35: M031's hint said "correct `start_nation`", the base's fact).

The walk makes each check's failing fixture (an edit of the shipped rules, `tests/fixtures/checks`)
again as a variant's `overlay:` of the same ruleset (each entity the edit changed patched with the
fields it changed, added or removed; each setting changed merged under `overlay.settings`), and
holds what the variant is told: at the variant's own file, and where a finding was moved there from
the base's fact it conflicts with, a hint that says how that fact is changed from the variant. A
fixture whose edit is no overlay (a rule index, an entity without an id) is left out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from civrules.diagnostics import Diagnostic
from civrules.diagnostics.words import quoted
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from civrules.resolve import Resolved
from tests.conftest import RULES
from tests.core.test_checks import CASES, Case, apply_edits
from tests.rulefiles import CachedWorkspace

VARIANT = "rulesets/hint-variant.yaml"
#: What a ruleset's manifest holds besides its settings.
_HEADER = ("kind", "id", "name", "extends", "family", "overlay", "suppress", "files", "description", "status")


def _resolved(ruleset: str, texts: dict[str, str]) -> Resolved | None:
    workspace = CachedWorkspace(texts)
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]), ("Q001",)).resolved


def _merge_patch(old: Any, new: Any) -> Any:
    """The RFC 7386 patch that makes ``old`` into ``new`` (a list is written whole)."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return new
    patch = {
        key: _merge_patch(old[key], value) if key in old else value
        for key, value in new.items()
        if old.get(key) != value
    }
    return {**patch, **dict.fromkeys((key for key in old if key not in new), None)}


def variant_of(case: Case) -> str | None:
    """The case's edit written as a variant's overlay of its ruleset; None where it is no overlay."""
    if case.ruleset not in CachedWorkspace({}).manifests():
        return None  # a ruleset the fixture itself writes
    base, edited = _resolved(case.ruleset, {}), _resolved(case.ruleset, apply_edits(case.edits))
    if base is None or edited is None:
        return None
    overlay: dict[str, Any] = {}
    for name, entries in edited.collections.items():
        old = {entry.raw.get("id"): entry.raw for entry in base.collections.get(name, [])}
        new = {entry.raw.get("id"): entry.raw for entry in entries}
        if None in old or None in new:
            if [e.raw for e in base.collections.get(name, [])] != [e.raw for e in entries]:
                return None
            continue
        operations: dict[str, Any] = {
            "add": [raw for key, raw in new.items() if key not in old],
            "patch": [
                {"id": key, **_merge_patch(old[key], raw), "source": "house rule: a test"}
                for key, raw in new.items()
                if key in old and raw != old[key]
            ],
            "remove": [key for key in old if key not in new],
        }
        operations = {op: entries for op, entries in operations.items() if entries}
        if operations:
            overlay[name] = operations

    def settings(resolved: Resolved) -> dict[str, Any]:
        found = {key: value for key, value in resolved.data.items() if key not in _HEADER}
        for values in resolved.settings.values():
            found.update(values)
        return found

    before, after = settings(base), settings(edited)
    if before != after:
        overlay["settings"] = _merge_patch(before, after)
    if not overlay:
        return None
    manifest: dict[str, Any] = {"kind": "ruleset", "id": "hint-variant", "name": "Hints", "extends": case.ruleset}
    manifest.update({key: base.data[key] for key in ("family", "status") if key in base.data})
    manifest["overlay"] = overlay
    return yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=200)


def told_in_variant(case: Case) -> tuple[list[Diagnostic], set[str]] | None:
    """What the variant of the case is told of its code, and what its overlay patches (the ids of
    the entities and the settings' keys)."""
    text = variant_of(case)
    if text is None:
        return None
    workspace = CachedWorkspace({VARIANT: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["hint-variant"]))
    overlay = yaml.safe_load(text)["overlay"]
    patched = set(overlay.get("settings", {}))
    patched.update(entry["id"] for name, ops in overlay.items() if name != "settings" for entry in ops.get("patch", ()))
    return [d for d in analysis.diagnostics if d.code == case.code and d.severity != "info"], patched


def _moved(diagnostic: Diagnostic) -> bool:
    """Moved to the variant's line from a base's fact (`the base fact it conflicts with`), or
    from where the base shows what the variant caused."""
    return any(
        r.at_base and r.label in ("the base fact it conflicts with", "where the base shows it")
        for r in diagnostic.related
    )


def _named(diagnostic: Diagnostic) -> set[str]:
    """The entities and settings a message names (`turn_order.disagreements[0]`: `turn_order`),
    and the entity or top-level setting the base's fact noted is written in (the nearest `id:` or
    unindented key above its line)."""
    names = {re.split(r"[.\[]", name, maxsplit=1)[0] for name in (*quoted(diagnostic.message), *diagnostic.subjects)}
    for related in diagnostic.related:
        if related.at_base:
            lines = Path(related.span.file).read_text(encoding="utf-8").splitlines()[: related.span.line]
            for line in reversed(lines):
                held = re.match(r"\s*(?:- )?id: ([\w-]+)|([a-z_]+):", line)
                if held:
                    names.add(held.group(1) or held.group(2))
                    break
    return names


FAILING = [case for case in CASES if not case.passing]


@pytest.mark.slow  # every failing fixture resolved twice and analysed as a variant: a minute under load
@pytest.mark.parametrize("case", FAILING, ids=[case.name for case in FAILING])
def test_a_check_tells_a_variant_what_to_write_in_the_variant(case: Case) -> None:
    told = told_in_variant(case)
    if told is None or not told[0]:
        pytest.skip("the edit is no overlay, or the variant is told another code first")
    found, patched = told
    for diagnostic in found:
        assert diagnostic.span is not None and diagnostic.span.file.endswith(VARIANT), (
            diagnostic.span,
            diagnostic.message,
        )
        # where the variant patches what the finding is about already, the fix goes in that patch
        if _moved(diagnostic) and not patched & _named(diagnostic):
            hint = diagnostic.hint or ""
            assert "this variant" in hint or "overlay" in hint, (diagnostic.message, hint)


@pytest.mark.slow  # Advanced Civilization read whole: 0.5 s of CPU; its fast sibling is below
def test_a_finding_moved_from_a_base_fact_says_how_the_variant_changes_that_fact() -> None:
    """A variant taking the city pieces down to 4 is told at its change that the Late Iron Age
    needs 5: "correct the number" named the base's epoch requirement, a line of the base's file."""
    text = (
        "kind: ruleset\nid: hint-variant\nname: Hints\nextends: advanced-civilization\n"
        'overlay:\n  settings:\n    components: {cities_per_set: 4, source: "house rule: fewer cities"}\n'
    )
    workspace = CachedWorkspace({VARIANT: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["hint-variant"]), ("A008",))
    [a008] = [d for d in analysis.diagnostics if d.code == "A008"]
    assert a008.span is not None and a008.span.file.endswith(VARIANT)
    assert a008.hint is not None and a008.hint.startswith("correct the number, or `components.cities_per_set`; "), (
        a008.hint
    )
    assert "from this variant: patch `late_iron_age` in `overlay.epochs`" in a008.hint, a008.hint


def test_a_finding_moved_from_a_base_setting_says_how_the_variant_changes_that_setting() -> None:
    """The same on the smallest ruleset that shows it (Sid Meier's, its files alone read): a variant
    giving Fundamentalism a battle hand of 2 is told at its change that the base's `combat` says 1;
    "make both 2" named the base's setting, which the variant changes in `overlay.settings`."""
    text = (
        "kind: ruleset\nid: hint-variant\nname: Hints\nextends: sid-meiers-civilization\nstatus: draft\n"
        "overlay:\n  governments:\n    patch:\n"
        '      - {id: fundamentalism, battle_hand: 2, source: "house rule: a test"}\n'
    )
    workspace = Workspace(RULES, None, {VARIANT: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["hint-variant"]), ("T019",))
    [t019] = [d for d in analysis.diagnostics if d.code == "T019"]
    assert t019.span is not None and t019.span.file.endswith(VARIANT)
    assert _moved(t019), t019.related
    assert t019.hint is not None and t019.hint.startswith("make both 2, or change both; "), t019.hint
    assert "is changed from this variant: change it in `overlay.settings` (`combat: {...}`" in t019.hint, t019.hint
