"""Round 34 left it (designer2's trial 15): a variant that takes away the only unlock of a
government the data give (`code_of_laws` unlocks `republic`, p12) was told only T007's info "what
is unlocked cannot be judged", as the base's 15 technologies whose unlocks the rulebook does not
give might unlock anything. Those cannot judge what the data do say: an item a technology as
defined unlocks, no technology unlocks any more; and an item a variant adds is one no base
technology's unknown unlocks can name."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

HEAD = (
    'kind: ruleset\nid: house\nname: "House rules"\nfamily: sid-meiers-civilization\nextends: sid-meiers-civilization\n'
)
NO_REPUBLIC = HEAD + (
    "overlay:\n  technologies:\n    patch:\n"
    '      - {id: code_of_laws, unlocks: {governments: {remove: [republic]}}, source: "house rule: later"}\n'
)


def _found(text: str) -> list[Diagnostic]:
    workspace = CachedWorkspace({"rulesets/house.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    return [d for d in analysis.diagnostics if d.code == "T007"]


def test_a_government_whose_only_unlock_a_variant_removes_is_told_at_the_change() -> None:
    warnings = [d for d in _found(NO_REPUBLIC) if d.severity == "warning"]
    assert [d.message for d in warnings] == [
        "no technology unlocks government `republic` any more: `code_of_laws` unlocks it as defined, "
        "and no other technology whose unlocks are known does"
    ]
    [t007] = warnings
    assert t007.span is not None and t007.span.file.endswith("rulesets/house.yaml") and t007.span.line == 9
    assert [r.label for r in t007.related] == ["where the base shows it", "`code_of_laws` unlocks it here"]


def test_following_the_hint_leaves_no_warning() -> None:
    """The hint's way, pasted beside the change with its blanks filled, leaves the base's info alone."""
    [t007] = [d for d in _found(NO_REPUBLIC) if d.severity == "warning"]
    way = (
        '`patch: [{id: "write the technology\'s id here", unlocks: {governments: {append: [republic]}}, '
        'source: "house rule: write why here"}]`'
    )
    assert t007.hint is not None and way in t007.hint and t007.hint.endswith("; or undo this change"), t007.hint
    entry = way.strip("`").removeprefix("patch: [").removesuffix("]")
    filled = entry.replace("write the technology's id here", "democracy").replace("write why here", "later")
    followed = NO_REPUBLIC + f"      - {filled}\n"  # beside the variant's own patch
    assert [d.severity for d in _found(followed)] == ["info"]  # the base's own: what no source gives


def test_a_removed_technology_takes_its_unlocks_with_it() -> None:
    text = HEAD + 'overlay:\n  technologies:\n    remove:\n      - {id: code_of_laws, why: "house rule: no laws"}\n'
    warnings = [d.message for d in _found(text) if d.severity == "warning"]
    assert "no technology unlocks government `republic` any more: `code_of_laws` unlocks it as defined, " in "".join(
        warnings
    ), warnings
    assert any("building `puesto_comercial`" in message for message in warnings), warnings


def test_a_government_a_variant_adds_with_no_unlock_is_told() -> None:
    """No technology of the base, whose unlocks were written before it, can unlock it."""
    text = HEAD + (
        "overlay:\n  governments:\n    add:\n"
        '      - {id: oligarchy, name: "Oligarchy", starting: false, transitional: false, source: "house rule"}\n'
    )
    warnings = [d.message for d in _found(text) if d.severity == "warning"]
    assert warnings == ["no technology unlocks government `oligarchy`"], warnings


def test_the_base_is_still_told_only_that_it_cannot_be_judged() -> None:
    assert [(d.severity, d.message) for d in _found(HEAD)] == [
        ("info", "what is unlocked cannot be judged: 15 technologies have no known unlocks")
    ]


SHORT_GAME = (
    HEAD
    + "overlay:\n  technologies:\n    remove:\n"
    + "".join(
        f'      - {{id: {tech}, why: "house rule: a short game"}}\n'
        for tech in (
            "chivalry",
            "navigation",
            "steam_power",
            "theology",
            "printing_press",
            "democracy",
            "biology",
            "computers",
            "horseback_riding",
            "currency",
        )
    )
)


def test_a_pyramid_too_few_technologies_could_fill_whatever_their_levels_is_told() -> None:
    """The same blind spot in T001: with levels unknown it said only "the pyramid cannot be
    judged". A variant leaving 11 technologies, 9 of no known level, where the minimums ask 13 more
    than the known levels give (5, 3, 3 and 2 at levels 1-4), cannot complete it at any levels."""
    workspace = CachedWorkspace({"rulesets/house.yaml": SHORT_GAME})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    [t001] = [d for d in analysis.diagnostics if d.code == "T001"]
    assert t001.severity == "error"
    assert t001.message == (
        "the pyramid cannot be completed at any levels: its minimums ask 13 technologies more than the "
        "known levels give, and 9 technologies have no known level"
    )
    assert t001.span is not None and t001.span.file.endswith("rulesets/house.yaml")
    way = "in `overlay.technologies`, remove fewer technologies or add some, 4 technologies more in all"
    assert t001.hint is not None and way in t001.hint, t001.hint
