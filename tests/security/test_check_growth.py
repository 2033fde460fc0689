"""Every check's work grows linearly in the data, counted rather than timed (issue 32, points 1 and 6).

The adversarial shapes of ``bench/shapes.py`` grow one list or chain of the shipped rules (a card
requiring and crediting thousands, a chain of prerequisites, a calamity with thousands of
modifiers...). Each check is run on a shape at ``n`` and at ``2n`` while the lines of Python it
runs and the C functions it calls are counted (a machine's load does not change the count): a
check whose count more than doubles and a half when the data doubles does work that grows faster
than the data. Such checks (a card's modifiers searched for among all of a calamity's, a card's
transitive prerequisites walked card by card) took 5 s and 220 s at 5,000 before round ten.
``make test`` runs one shape and the control; ``make test-slow`` every shape, each family's
synthetic ruleset and a whole build of each shape, function by function.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import itertools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from bench import shapes, synth, synth_family
from civrules.checks import Check
from civrules.checks.catalogue import all_checks
from civrules.load.workspace import Workspace
from civrules.model import Ruleset
from civrules.pipeline import analyse
from civrules.support import memo
from civrules.support.walks import reachable
from tests.conftest import copy_shipped

#: The shapes whose every check is counted, with the size ``n`` (the count at ``2n`` is compared).
GROWN = {"prerequisite-chain": 150, "one-card-lists": 150, "calamity-modifiers": 150, "cards": 150}
#: A count at ``2n`` at most this many times the count at ``n``: linear work doubles, plus what a
#: message or a look-up of a longer list adds; the square of the data would quadruple.
MOST = 2.5
#: A check counting fewer calls than this at ``2n`` is not judged (a constant cost, or one per card
#: of the shipped rules, is not the growth this looks for).
SMALL = 2_000
#: The five card groups of the Advanced Civilization family (their ids are fixed).
GROUPS_OF_THE_GAME = ("arts", "crafts", "sciences", "civics", "religion")


@contextlib.contextmanager
def _nothing_kept() -> Iterator[None]:
    """A run that keeps nothing of earlier runs: the process's memos cleared and the disk cache off
    (``CIVRULES_CACHE_DIR=""``). The suite's cache folder is shared by every test and both xdist
    workers: a map's layout another test had stored made a shape's run at ``n`` skip the layout that
    its run at ``2n`` computed, and numpy's ``norm`` then counted as work grown from 0 to 23,664."""
    memo.forget()
    before = os.environ.get("CIVRULES_CACHE_DIR")
    os.environ["CIVRULES_CACHE_DIR"] = ""
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("CIVRULES_CACHE_DIR", None)
        else:
            os.environ["CIVRULES_CACHE_DIR"] = before


def work_by_code(run: Callable[[], object]) -> collections.Counter[str]:
    """The lines of Python ``run`` runs, by the function (its file, line and name) that runs them,
    from a process that keeps nothing of earlier runs (:func:`_nothing_kept`): a function whose
    count grows as the square is found even where the rest of a build hides it in the total."""
    counts: collections.Counter[Any] = collections.Counter()

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        counts[frame.f_code] += 1
        return lines

    with _nothing_kept():
        sys.settrace(lambda frame, event, arg: lines)
        try:
            run()
        finally:
            sys.settrace(None)
    return collections.Counter(
        {f"{code.co_filename}:{code.co_firstlineno}({code.co_name})": n for code, n in counts.items()}
    )


def nodes_in(value: object) -> int:
    """How many nodes a value read from YAML holds: each mapping, list and scalar (what a walk of
    it meets, against which the work of a walk is counted)."""
    if isinstance(value, dict):
        return 1 + sum(nodes_in(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(nodes_in(item) for item in value)
    return 1


def calls_made(run: Callable[[], object], within: str | None = None) -> int:
    """How much work ``run`` does: the lines of Python it runs (a loop's every turn counts, a call
    without a loop around it too) and the C functions it calls, from a process that keeps nothing
    of earlier runs (:func:`_nothing_kept`: a map's picture shared by content would otherwise make
    whichever model came second look cheaper); ``within`` (a module's file) counts only what that
    file's code runs and calls (a library's work, which its release may change, left out).
    Counting calls alone missed a comprehension scanning a calamity's every modifier for each of
    them (no call in its loop)."""
    made = 0

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal made
        made += 1
        return lines

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal made
        if event == "c_call" and (within is None or frame.f_code.co_filename == within):
            made += 1
        return None

    def traced(frame: FrameType, event: str, arg: Any) -> Any:
        return lines if within is None or frame.f_code.co_filename == within else None

    with _nothing_kept():
        sys.settrace(traced)
        sys.setprofile(calls)
        try:
            run()
        finally:
            sys.settrace(None)
            sys.setprofile(None)
    return made


def _run(check: Check, model: Ruleset) -> None:
    list(check.run(model))


def _render(rules: Path, named: list[str]) -> None:
    from civrules.emit.build import render

    workspace = Workspace(rules)
    manifests = workspace.manifests()
    render(workspace, [workspace.load_ruleset(manifests[name]) for name in named])


def model_of(tmp_path: Path, shape: str, n: int) -> Ruleset:
    """The model of advanced-civilization with ``shape`` at size ``n`` (every check selected away:
    they are run apart, one at a time)."""
    out = tmp_path / f"{shape}-{n}"
    rules = out / "rules"
    copy_shipped(rules)
    shapes.SHAPES[shape](rules, n)
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["-"])
    assert analysis.model is not None
    return analysis.model


@pytest.mark.parametrize(
    "shape",
    # One shape in `make test` (one card's long lists: most of the card checks' code); the sweep of
    # the others in `make test-slow` (a traced run costs seconds).
    [shape if shape == "one-card-lists" else pytest.param(shape, marks=pytest.mark.slow) for shape in sorted(GROWN)],
)
def test_no_check_does_work_growing_faster_than_the_shape(tmp_path: Path, shape: str) -> None:
    n = GROWN[shape]
    small, large = model_of(tmp_path, shape, n), model_of(tmp_path, shape, 2 * n)
    checks = [c for c in all_checks("advanced-civilization") if c.family in (None, "advanced-civilization")]
    grown = {}
    for check in checks:
        at_n, at_2n = (calls_made(functools.partial(_run, check, model)) for model in (small, large))
        if at_2n >= SMALL and at_2n > MOST * at_n:
            grown[check.code.code] = (at_n, at_2n)
    assert grown == {}, f"checks whose work more than doubles with the data ({shape} at {n} and {2 * n}): {grown}"


#: Shapes whose whole build is known to grow faster than the data, each with why (strict: the
#: test fails once it no longer does, and the shape is then taken off this list).
#: ``patched-elements`` left this list in round 27 (what still writes a list element patched by
#: entry after entry followed each entry's element through the chain of every later `patch:` of it).
STILL_SQUARE: dict[str, str] = {
    "aliased-credits": (
        "round 27, the cells: every card credits every other card of its group, n x n cells, and C004"
        " names each target in its warning (in constant work per target now, not once per line: 200"
        " lines per card; C007 weighs none of them since round 28)"
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(shape, marks=pytest.mark.xfail(strict=True, reason=STILL_SQUARE[shape]))
        if shape in STILL_SQUARE
        else shape
        for shape in sorted(shapes.SHAPES)
    ],
)
def test_a_whole_build_does_no_work_growing_faster_than_the_shape(tmp_path: Path, shape: str) -> None:
    """Seconds each (a whole build traced line by line, four times): the shape's commands from
    reading to rendering (resolving, the model, the checks, the package and the sheets), counted
    at ``n`` and ``2n`` (the extends chain at 6 and 12 variants), net of the empty shape's count, in
    total and function by function (a sheet asking a calamity's amount for each of its modifiers,
    each asking scanning all of them, was a small share of the total at these sizes)."""
    sizes = (6, 12) if shape == "extends-chain" else (100, 200)
    if shape in FAMILY_SHAPES:  # a hundred factions is 1,800 cards, traced line by line
        sizes = (FAMILY_SHAPES[shape][1], 2 * FAMILY_SHAPES[shape][1])
    counts: list[collections.Counter[str]] = []
    for n in (0, 0, *sizes):  # the first run of the empty shape warms the process up (imports, caches)
        out = tmp_path / f"{shape}-{n}-{len(counts)}"
        rules = out / "rules"
        copy_shipped(rules)
        words = shapes.SHAPES[shape](rules, n)[0].split()
        # The rulesets the command names (``validate a b`` or ``build big --out ...``).
        command = next(at for at, word in enumerate(words) if word in ("validate", "build"))
        named = list(itertools.takewhile(lambda w: not w.startswith("-"), words[command + 1 :]))
        counts.append(work_by_code(functools.partial(_render, rules, named)))
    _, empty, small, large = counts
    net_small, net_large = small - empty, large - empty
    assert sum(net_large.values()) <= MOST * sum(net_small.values()), (shape, counts)
    grown = {
        code: (net_small[code], count)
        for code, count in net_large.items()
        if count >= LINES and count > MOST * net_small[code]
    }
    assert grown == {}, f"functions whose work more than doubles with the data ({shape}): {grown}"


#: A function running fewer lines than this at ``2n`` (net of the empty shape) is not judged alone.
LINES = 20_000


#: Every family's synthetic ruleset of the scaling series (bench/synth.py for Advanced Civilization,
#: bench/synth_family.py's copies of a base ruleset for the others): each check's count at scale 4
#: against scale 2 (scale 1 is the shipped data, not half of scale 2: the copies are joined).
FAMILIES = {
    "advanced-civilization": None,
    "sid-meiers-civilization": "sid-meiers-civilization",
    "imperial-settlers": "imperial-settlers",
}


@pytest.mark.parametrize(
    "family",
    [
        pytest.param("advanced-civilization", marks=pytest.mark.slow),
        pytest.param("imperial-settlers", marks=pytest.mark.slow),
        pytest.param("sid-meiers-civilization", marks=pytest.mark.slow),
    ],
)
def test_no_check_of_a_family_does_work_growing_faster_than_its_synthetic_ruleset(tmp_path: Path, family: str) -> None:
    models = []
    for scale in (2, 4):
        base = FAMILIES[family]
        out = tmp_path / f"x{scale}"
        rules = synth.generate(out, scale) if base is None else synth_family.generate(out, base, scale)
        workspace = Workspace(rules)
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["synthetic"]), select=["-"])
        assert analysis.model is not None
        models.append(analysis.model)
    grown = {}
    for check in all_checks(family):
        if check.family not in (None, family):
            continue
        at_2, at_4 = (calls_made(functools.partial(_run, check, model)) for model in models)
        if at_4 >= SMALL and at_4 > MOST * at_2:
            grown[check.code.code] = (at_2, at_4)
    assert grown == {}, f"checks whose work more than doubles with the data ({family}, at scales 2 and 4): {grown}"


def test_the_count_finds_work_growing_as_the_square(tmp_path: Path) -> None:
    """The measure can fail: a check walking every card's prerequisites, as C005 did before round
    ten, is found on the prerequisite chain."""
    small, large = model_of(tmp_path, "prerequisite-chain", 150), model_of(tmp_path, "prerequisite-chain", 300)
    from civrules.families.advanced_civilization.checks.cards import prerequisite_graph

    def walk_each(model: Ruleset) -> None:
        graph = prerequisite_graph(model)  # type: ignore[arg-type]
        for card in graph:
            reachable(graph.requires, card)

    assert calls_made(lambda: walk_each(large)) > MOST * calls_made(lambda: walk_each(small))


def _runtime_credits() -> Any:
    """The credit module of Advanced Civilization's generated runtime, as committed, imported with
    the runtimes it needs from ``generated/python`` (as the package tests import them): loaded from
    its file alone, it found no ``civrules_runtime`` unless another module had put that folder on
    the path first."""
    import importlib

    from tests.conftest import GENERATED_PYTHON

    if str(GENERATED_PYTHON) not in sys.path:
        sys.path.insert(0, str(GENERATED_PYTHON))
    return importlib.import_module("civrules_runtime_advanced_civilization.credits")


def _long_row(credits: Any, n: int) -> Any:
    """A runtime credit matrix whose one card credits each of ``n`` others and their group (the
    one-card-lists shape, as a package holds it)."""
    others = [f"card{i}" for i in range(n)]
    groups = {"giver": ("arts",), **dict.fromkeys(others, ("crafts",))}
    lines = (*((5, None, card, False) for card in others), (10, "crafts", None, False), (3, "crafts", None, True))
    return credits.CreditMatrix("sum", True, groups, {"giver": lines})


def test_a_packages_long_credit_row_is_read_in_work_linear_in_it() -> None:
    """An engine reading one card's row of a generated package cell by cell (``dict(row)``, its
    items, membership, the matrix's hash) does work linear in the row: before round eleven each
    cell scanned the row's every line, 25 million steps for one card crediting 5,000 others."""
    credits = _runtime_credits()

    def read(n: int) -> int:
        matrix = _long_row(credits, n)

        def run() -> None:
            row = matrix["giver"]
            assert dict(row) == {f"card{i}": 5 + 10 + 3 for i in range(n)}
            assert all(f"card{i}" in row for i in range(n)) and "giver" not in row
            hash(matrix)

        return calls_made(run)

    at_n, at_2n = read(300), read(600)
    assert at_2n <= MOST * at_n, (at_n, at_2n)


def test_the_group_letters_of_long_names_are_found_in_work_linear_in_them() -> None:
    """The letters telling the groups apart on the sheets, for five names alike up to their last
    letter (one with letters that fold to two, ß): before round twelve each size in turn made every
    other name's prefix again, the square of a name's length (five names of 4,000 letters: a
    build of 7.7 s)."""
    from civrules.families.advanced_civilization.sheets.marks import group_letters

    def label(length: int) -> int:
        names = {group: "Ab" * (length // 2) + str(i) for i, group in enumerate(GROUPS_OF_THE_GAME[:4])}
        names[GROUPS_OF_THE_GAME[4]] = "Straße" * (length // 6)
        return calls_made(lambda: group_letters(names))

    at_n, at_2n = label(600), label(1_200)
    assert at_2n <= MOST * at_n, (at_n, at_2n)


#: The families' shapes of bench/shapes.py (round thirteen: an audit of the two newer families),
#: the ruleset each is built as, a size ``n`` (``2n`` is compared) and what each grew as the square
#: of before: a sheet, a helper page or a check asking every technology, card or faction per row.
FAMILY_SHAPES = {
    "smc-unit-ranks": (("sid-meiers-civilization-community",), 40),
    "smc-terrains": (("sid-meiers-civilization",), 40),
    # The base's printed faction decks (F002, the helper page), the variant's custom ones (its sheet).
    "is-faction-decks": (("imperial-settlers", "imperial-settlers-custom"), 20),
}


def family_models(tmp_path: Path, shape: str, n: int) -> list[Ruleset]:
    rulesets, _ = FAMILY_SHAPES[shape]
    rules = tmp_path / f"{shape}-{n}" / "rules"
    copy_shipped(rules)
    shapes.SHAPES[shape](rules, n)
    workspace = Workspace(rules)
    models = []
    for ruleset in rulesets:
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]), select=["-"])
        assert analysis.model is not None
        models.append(analysis.model)
    return models


def _family_outputs(family: str, models: list[Ruleset]) -> None:
    for model in models:
        _family_output(family, model)


def _family_output(family: str, model: Ruleset) -> None:
    """Every check of ``family``, the contexts of the sheets the shapes grew and its helper page
    (what the build renders from; the templates' work is the size of their contexts)."""
    from civrules.emit.sheets.common import PAPERS, page_for
    from civrules.emit.sheets.registry import Source

    page = page_for(PAPERS["a4"], True)
    for check in all_checks(family):
        if check.family == family:
            list(check.run(model))
    if family == "sid-meiers-civilization":
        from civrules.families.sid_meiers_civilization.helpers import helper_page
        from civrules.families.sid_meiers_civilization.sheets.buildings import buildings_sheet
        from civrules.families.sid_meiers_civilization.sheets.units import units_sheet

        for make in (units_sheet, buildings_sheet):
            make(Source(model, page))  # type: ignore[arg-type]
    else:
        from civrules.families.imperial_settlers.helpers import helper_page
        from civrules.families.imperial_settlers.sheets.cards import build_faction_cards

        build_faction_cards(Source(model, page))
    helper_page(model)


#: `make test` keeps one family's shape (the cheapest); `make test-slow` runs the others.
FAMILY_SHAPE_FAST = "smc-unit-ranks"


@pytest.mark.parametrize(
    "shape",
    [s if s == FAMILY_SHAPE_FAST else pytest.param(s, marks=pytest.mark.slow) for s in sorted(FAMILY_SHAPES)],
)
def test_a_familys_checks_sheets_and_helper_do_work_linear_in_its_shape(tmp_path: Path, shape: str) -> None:
    """Before round thirteen: the units sheet asked every technology's unlocks for each unit rank,
    the buildings sheet marked every building on every terrain, F002 and the faction-cards sheet
    walked every card for each faction deck, and the helper page every faction for each card."""
    _, n = FAMILY_SHAPES[shape]
    small, large = family_models(tmp_path, shape, n), family_models(tmp_path, shape, 2 * n)
    family = "sid-meiers-civilization" if shape.startswith("smc-") else "imperial-settlers"
    at_n, at_2n = (work_by_code(functools.partial(_family_outputs, family, models)) for models in (small, large))
    grown = {code: (at_n[code], count) for code, count in at_2n.items() if count >= SMALL and count > MOST * at_n[code]}
    assert grown == {}, f"functions whose work more than doubles with the data ({shape} at {n} and {2 * n}): {grown}"


@pytest.mark.slow
def test_a_whole_build_makes_only_the_suppression_warnings_a_file_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``unknown-suppressions`` shape (round 30): each of the comments' codes no check has was a
    warning made in full, with its "did you mean" (a million from a 6.9 MB file: 12 s, 683 MB),
    while 100 a file were listed. Built whole at ``n`` and ``2n`` comments, the warnings made are
    the file's bound at both (the growth of the build's work is
    :func:`test_a_whole_build_does_no_work_growing_faster_than_the_shape`'s)."""
    import civrules.pipeline.suppression as suppression
    from civrules.load import Limits

    made: list[str] = []
    refusal = suppression.Judge.refusal

    def counted(judge: suppression.Judge, found: suppression.Suppression, hides: bool) -> object:
        diagnostic = refusal(judge, found, hides)
        if diagnostic is not None:
            made.append(diagnostic.code)
        return diagnostic

    monkeypatch.setattr(suppression.Judge, "refusal", counted)
    warnings = []
    for n in (0, 50, 100):  # 1,000 and 2,000 codes
        rules = tmp_path / str(n) / "rules"
        copy_shipped(rules)
        words = shapes.SHAPES["unknown-suppressions"](rules, n)[0].split()
        made.clear()
        _render(rules, words[1:])
        warnings.append(len(made))
    assert warnings == [0, Limits().max_diagnostics, Limits().max_diagnostics]
