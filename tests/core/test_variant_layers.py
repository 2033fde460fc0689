"""A finding a variant of a variant shows stands in the nearest ruleset of its chain that caused it.

Each layer of a chain relocates what its own changes cause (:func:`civrules.pipeline.relocate`):
`ep-house2` extending `ep-house`, which lowered `players.min`, showed P002 in the first base's file
with the first base's hint, though `ep-house` alone shows it at its own line. Every check that
relocates, with its cause in the middle of a chain of three or at its top, and alone (two deep).
"""

from __future__ import annotations

import re

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.core import test_variant_caused as caused
from tests.families.advanced_civilization import test_designer_trial_four as trial_four
from tests.families.advanced_civilization.test_designer_trial import HEAD
from tests.rulefiles import CachedWorkspace

EARLY_CITIES = (
    "overlay:\n  epochs:\n    patch:\n      - id: early_bronze_age\n"
    "        requirements: {min_cities: 4, source: house rule}\n"
)
SEPARATE_UNIVERSITY = (
    "overlay:\n  buildings:\n    patch:\n"
    '      - {id: universidade, upgrade_of: null, source: "house rule: separate university"}\n'
)

#: A variant whose one change makes a check's finding: its id, its text, the code and what its line holds.
CAUSES = [
    ("house", trial_four.RAISED, "P002", "players: {max: 9"),
    ("house", trial_four.LOWERED, "P003", "players: {min: 4"),
    ("house-is", caused.HOUSE_IS, "F001", "{id: bar014"),
    ("house-sid", caused.NO_SPACE_FLIGHT, "T002", "{id: space_flight"),
    ("house-sid", caused.CHEAP_COLOSSUS, "T012", "{id: colossus"),
    ("house-sid", caused.POTTERY_AT_THE_TOP, "T002", "{id: pottery"),
    ("house-sid", caused.TWENTY_COINS, "T015", "{victory: 20"),
    ("house-is", caused.ONE_COPY_FEWER, "F001", "{id: bar001"),
    ("mega-17", caused.SEVENTEEN_NATIONS, "P006", "{id: kushan"),
    ("house-sid", caused.NO_CATHEDRAL, "T007", "{id: theology"),
    ("house-is", caused.A_DEARER_COMMON_DECK, "F005", "{id: com001"),
    ("house-is", caused.A_GAP_AND_A_COST, "F008", "{id: bar004"),
    # at a related place of the variant (:func:`civrules.pipeline.at_the_variant`)
    ("house", HEAD + EARLY_CITIES, "A010", "min_cities: 4"),
    (
        "house-sid",
        caused.HOUSE_SID.replace("extends: sid-meiers-civilization", "extends: sid-meiers-civilization-community")
        + SEPARATE_UNIVERSITY,
        "Q008",
        "{id: universidade",
    ),
]


def _shown(files: dict[str, str], ruleset: str, code: str) -> Diagnostic:
    workspace = CachedWorkspace({f"rulesets/{name}.yaml": text for name, text in files.items()})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    (found,) = [d for d in analysis.diagnostics if d.code == code]
    return found


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _renamed(text: str, ruleset: str, to: str, extends: str | None = None) -> str:
    text = text.replace(f"id: {ruleset}\n", f"id: {to}\n", 1)
    return text if extends is None else re.sub(r"(?m)^extends: .*$", f"extends: {extends}", text, count=1)


def _empty_over(text: str, ruleset: str, to: str) -> str:
    """A variant of ``text``'s base that changes nothing: ``text``'s head, its overlay left out."""
    head = text[: text.index("overlay:")] if "overlay:" in text else text
    return _renamed(head, ruleset, to)


@pytest.mark.parametrize(("ruleset", "text", "code", "needle"), CAUSES, ids=[f"{c[2]}-{c[3]}" for c in CAUSES])
def test_a_finding_stands_at_the_layer_that_caused_it_two_and_three_deep(
    ruleset: str, text: str, code: str, needle: str
) -> None:
    alone = _shown({ruleset: text}, ruleset, code)
    assert alone.span is not None and alone.span.file.endswith(f"rulesets/{ruleset}.yaml")
    assert alone.span.line == _line(text, needle)

    # the cause in the middle: the top variant shows it where the middle variant alone does
    middle, top = _renamed(text, ruleset, "mid"), _empty_over(text, ruleset, "top")
    top = _renamed(top, "top", "top", extends="mid")
    shown = _shown({"mid": middle, "top": top}, "top", code)
    assert shown.span is not None and shown.span.file.endswith("rulesets/mid.yaml"), shown
    assert shown.span.line == _line(middle, needle)
    assert shown.hint == _shown({"mid": middle}, "mid", code).hint

    # the cause at the top, over a middle variant that changes nothing: at the top's line
    middle, top = _empty_over(text, ruleset, "mid"), _renamed(text, ruleset, "top", extends="mid")
    shown = _shown({"mid": middle, "top": top}, "top", code)
    assert shown.span is not None and shown.span.file.endswith("rulesets/top.yaml"), shown
    assert shown.span.line == _line(top, needle)


def _models_built_validating_a_chain(depth: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many models a run validating `house` and ``depth`` variants stacked on it builds, each
    ruleset after its base with one resolver, as `civrules validate` runs them."""
    import civrules.pipeline as pipeline
    from civrules.resolve import Resolver

    files = {"house": trial_four.RAISED}
    below = "house"
    for level in range(depth):
        files[f"v{level}"] = _renamed(HEAD, "house", f"v{level}", extends=below)
        below = f"v{level}"
    workspace = CachedWorkspace({f"rulesets/{name}.yaml": text for name, text in files.items()})
    manifests = workspace.manifests()
    loaded = [workspace.load_ruleset(manifests[name]) for name in files]
    built = 0
    build_model = pipeline.build_model

    def counted(resolved: object) -> object:
        nonlocal built
        built += 1
        return build_model(resolved)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "build_model", counted)
    resolver = Resolver(workspace)
    bases = Resolver.bases(loaded)
    for index, ruleset in enumerate(loaded):
        resolver.retain(base for base in bases[index:] if base is not None)
        found = analyse(workspace, ruleset, resolver=resolver).diagnostics
        assert [d.code for d in found if d.code == "P002"], ruleset.id  # told in every layer
    return built


def test_a_chain_of_variants_asks_each_base_for_what_it_shows_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each variant of a chain asked its base how it shows its findings, and the base its own base,
    down to the first, each time resolving and building the model of every base again: a chain of
    60 variants took 13.9 s to validate and build where it took 5.5 s without the layers (the
    bench shape `extends-chain`). Each base is now asked once: the models built grow with the chain."""
    short, long = (_models_built_validating_a_chain(depth, monkeypatch) for depth in (4, 8))
    assert long <= 2.5 * short, (short, long)


#: A variant of Imperial Settlers that patches one action with a citation of its own: each variant
#: above the first patches it to what its base made it already (V013), which each variant above
#: finds again in that layer's file (the attacker's shape, round 35).
PACIFIC = (
    "kind: ruleset\nfamily: imperial-settlers\nid: {id}\nname: {name}\nextends: {base}\nstatus: house_rule\n"
    "overlay:\n  actions:\n    patch:\n      - id: raze_opponent_location\n        allowed: false\n"
    '        rule: "p12/variante-pacifica"\n'
)


def _work_validating_a_pacific_chain(
    depth: int, monkeypatch: pytest.MonkeyPatch, told: list[str] | None = None
) -> tuple[int, int]:
    """How many models a run validating ``depth`` variants of Imperial Settlers, each extending the
    one before, builds, and how many resolutions it makes (its own and its bases', each resolved
    afresh), as `civrules validate` runs them: one resolver, which forgets what no ruleset left
    extends. ``told``: each V013 the analyses hold is added to it, by its file's name."""
    import civrules.pipeline as pipeline
    from civrules.resolve import Resolver

    files, below = {}, "imperial-settlers"
    for level in range(depth):
        files[f"p{level}"] = PACIFIC.format(id=f"p{level}", name=f"P {level}", base=below)
        below = f"p{level}"
    workspace = CachedWorkspace({f"rulesets/{name}.yaml": text for name, text in files.items()})
    manifests = workspace.manifests()
    loaded = [workspace.load_ruleset(manifests[name]) for name in files]
    counts = {"built": 0, "resolved": 0}
    build_model, afresh = pipeline.build_model, Resolver._resolve_afresh

    def counted_build(resolved: object) -> object:
        counts["built"] += 1
        return build_model(resolved)  # type: ignore[arg-type]

    def counted_resolution(self: Resolver, *args: object) -> object:
        counts["resolved"] += 1
        return afresh(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "build_model", counted_build)
    monkeypatch.setattr(Resolver, "_resolve_afresh", counted_resolution)
    resolver = Resolver(workspace)
    bases = Resolver.bases(loaded)
    shown: list[str] = []
    for ruleset, extended in zip(loaded, Resolver.still_extended(bases), strict=True):
        resolver.retain(extended)
        found = analyse(workspace, ruleset, resolver=resolver).diagnostics
        shown += [d.span.file.rsplit("/", 1)[-1] for d in found if d.code == "V013" and d.span is not None]
    # the no-op patch (V013) of each variant above the first, each where its own layer shows it
    assert sorted(set(shown)) == sorted(f"p{below}.yaml" for below in range(1, depth)), shown
    if told is not None:
        told += shown
    return counts["built"], counts["resolved"]


def test_a_chain_whose_layers_each_find_in_their_bases_files_builds_and_resolves_linearly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each variant of a chain asked its base how it shows its findings of codes the base had not
    been asked, the base asked its own base, down to the first: what a base had found and shown
    was kept with its resolution, which the run forgets once no ruleset left extends it, so each
    was resolved again (its whole chain below it) and its model built again. 64 variants: 3,014
    models built for 65 rulesets, 3.05 s of CPU against 0.50 s for 64 variants of one base. What
    each ruleset's checks find and how its base shows them is kept by the resolver, by id, for the
    run: both counts grow with the chain."""
    short, long = (_work_validating_a_pacific_chain(depth, monkeypatch) for depth in (1, 4))
    # each layer more: two models (its own, and its base's checks it is the first to ask for) and
    # one resolution; asked down the chain again for each layer, 3 layers more made 18 and 14
    assert long[0] - short[0] <= 2 * 3 and long[1] - short[1] <= 3, (short, long)


def test_a_chain_tells_each_layers_no_op_patch_once_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant's resolution holds what resolving each of its bases found: the k-th variant of a
    chain whose every layer patches a field to the value its base made it (V013 in each layer but
    the first) held the k - 1 bases' V013 beside its own, each relocated and judged against the
    suppressions again, and the run merged them into one each: the square of the chain in all
    (1 + 2 + 3 for 4 variants). Each layer's own finding is now held once a run, by the first
    analysis that resolves it (a base's own, in a chain checked base first)."""
    told: list[str] = []
    _work_validating_a_pacific_chain(4, monkeypatch, told)
    assert sorted(told) == [f"p{below}.yaml" for below in range(1, 4)]
