"""The test suite's own rules (tests/README.md, "Fast and slow"): no test can fail because the
machine running it is busy."""

from __future__ import annotations

import importlib
import re
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import budget
from tests.conftest import TESTS


def test_property_tests_run_without_a_deadline_or_a_timing_health_check() -> None:
    """Hypothesis' per-example deadline and its too-slow health check are timings: on a loaded
    2-core machine a property test failed FailedHealthCheck with every assertion holding."""
    default = settings.default
    assert default is not None
    assert default.deadline is None
    assert HealthCheck.too_slow in default.suppress_health_check


def test_no_property_test_sets_a_deadline_of_its_own() -> None:
    """A test's own deadline in ``@settings`` would put back the timing the suite's profile removes."""
    timed = []
    for path in sorted(TESTS.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for value in re.findall(r"\bdeadline=([^,)]+)", line):
                if value.strip() != "None":
                    timed.append(f"{path.relative_to(TESTS)}:{number}")
    assert timed == []


def test_a_fast_test_over_two_interpreters_is_told_to_split_and_a_slow_one_is_not() -> None:
    assert budget.too_many("t.py::fast", 2, slow=False) is None
    told = budget.too_many("t.py::fast", 3, slow=False)
    assert told is not None and "t.py::fast started 3 Python interpreters" in told and "slow" in told
    assert budget.too_many("t.py::sweep", 20, slow=True) is None


def test_the_fast_suite_over_its_budget_is_told_what_it_spent() -> None:
    within = {"interpreters": budget.SUITE_INTERPRETERS, "tabs": budget.SUITE_TABS}
    assert budget.over_budget(within) == []
    over = budget.over_budget({"interpreters": budget.SUITE_INTERPRETERS + 1, "tabs": budget.SUITE_TABS + 5})
    assert len(over) == 2
    assert f"started {budget.SUITE_INTERPRETERS + 1} Python interpreters" in over[0]
    assert f"opened {budget.SUITE_TABS + 5} Chromium tabs" in over[1]


def test_an_interpreter_is_told_from_other_programs_by_its_name() -> None:
    import sys

    assert budget.is_interpreter(sys.executable, [sys.executable, "-c", "pass"])
    assert budget.is_interpreter(None, ["python3", "-m", "civrules"])
    assert budget.is_interpreter(None, ["/usr/local/bin/civrules", "validate"])
    assert budget.is_interpreter(b"/usr/bin/python3.11", [b"python3.11"])
    assert not budget.is_interpreter(None, ["git", "status"])
    assert not budget.is_interpreter(None, ["/usr/bin/chromium", "--headless"])
    assert not budget.is_interpreter(None, "git status")


def test_every_way_of_starting_a_process_is_counted_when_it_starts_an_interpreter() -> None:
    import sys

    assert budget.started_interpreter("subprocess.Popen", (sys.executable, [sys.executable, "-c", ""], None, None))
    assert budget.started_interpreter("os.posix_spawn", ("/usr/bin/python3", ["python3", "-c", ""], {}))
    assert budget.started_interpreter("os.spawn", (0, "/usr/bin/python3", ["python3"], {}))
    assert budget.started_interpreter("os.system", (b"python3 -m civrules validate",))
    assert not budget.started_interpreter("os.system", ("git status",))
    assert not budget.started_interpreter("os.system", ("",))
    assert not budget.started_interpreter("open", ("python3", "r", 0))


def test_only_an_interpreter_started_within_a_test_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist's controller starts each worker as an interpreter, outside any test: counted, the
    suite's total was 81 with `make test`'s three workers and 80 with two, for nothing a test spends."""
    started = (sys.executable, [sys.executable, "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"], None, None)
    monkeypatch.setitem(budget._counted, "interpreters", 0)
    monkeypatch.setattr(budget, "_running", [], raising=False)  # as the controller, which runs no test
    budget._audit("subprocess.Popen", started)
    assert budget._counted["interpreters"] == 0
    monkeypatch.setattr(budget, "_running", [True])  # as this test
    budget._audit("subprocess.Popen", started)
    assert budget._counted["interpreters"] == 1


def test_the_controller_rewrites_a_test_module_once_as_pytest_would_and_again_when_it_changes(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/assertion_cache.py: what the controller writes is the pyc pytest's import hook reads
    (its assertions rewritten), so no worker rewrites the module again; a changed module is
    rewritten again. Where a pytest lacks the functions it calls, this fails (the suite still runs,
    each worker rewriting every module as before)."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

    from tests.assertion_cache import rewrite_test_modules

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    module = tmp_path / "test_sample.py"
    module.write_text("def test_one():\n    x = [1]\n    assert x == [2]\n", encoding="utf-8")
    pyc = get_cache_dir(module) / (module.name[:-3] + PYC_TAIL)
    assert _read_pyc(module, pyc) is None
    assert rewrite_test_modules(request.config, [module]) == [module]
    code = _read_pyc(module, pyc)
    assert code is not None
    function = next(const for const in code.co_consts if isinstance(const, types.CodeType))
    assert any(name.startswith("@py_assert") for name in function.co_varnames), "the assertion is rewritten"
    assert rewrite_test_modules(request.config, [module]) == []
    module.write_text("def test_one():\n    assert [1] == [1]\n", encoding="utf-8")
    assert rewrite_test_modules(request.config, [module]) == [module]


def test_the_controller_rewrites_every_module_the_workers_collect(request: pytest.FixtureRequest) -> None:
    """Every module this run collected is among those the controller rewrites before the workers
    start (tests/conftest.py, ``pytest_configure``): a module it missed each worker rewrites."""
    from tests.assertion_cache import test_modules

    collected = {Path(str(item.path)).resolve() for item in request.session.items}
    assert collected
    assert collected <= set(test_modules(request.config))


def test_what_a_run_leaves_for_the_collector_is_counted_among_what_it_made() -> None:
    """tests/collector.py: the objects a run leaves in cycles are counted (ten pairs referring to
    each other), the garbage made before it is not (frozen with the rest of the process, so a
    collection walks the run's objects alone), and the collector is as it was after."""
    import gc
    import weakref

    from tests.collector import left_for_the_collector

    class Node:
        other: object

    def pairs(n: int) -> int:
        for _ in range(n):
            a, b = Node(), Node()
            a.other, b.other = b, a
        return n

    older = Node()
    older.other = older
    gone = weakref.ref(older)
    del older
    assert left_for_the_collector(lambda: pairs(10)) == (10, 20)
    assert left_for_the_collector(lambda: pairs(0)) == (0, 0)
    # The older garbage was left to a later collection of the process (not made here: a full
    # collection of a worker's heap is the cost the helper spares, 0.6 s of CPU in a suite run).
    assert gc.isenabled() and gone() is not None


def test_collecting_the_package_versions_module_parses_no_yaml_in_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pytest process (each worker of `make test`) imports each test module to collect it,
    so a module that reads rule files when imported pays it once per process. The package-versions
    module reads every shipped manifest (300 KB) for its ruleset ids: with PyYAML's pure-Python
    loader that was 0.33 s of CPU per worker, with libyaml's 0.04 s. Counted: the pure-Python
    readers made while a fresh copy of the module is executed (libyaml's loader makes none)."""
    import importlib.util

    import yaml

    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("this PyYAML was built without libyaml: the pure-Python loader is the only one")
    made = [0]
    original = yaml.reader.Reader.__init__

    def counted(self: yaml.reader.Reader, stream: str | bytes) -> None:
        made[0] += 1
        original(self, stream)

    monkeypatch.setattr(yaml.reader.Reader, "__init__", counted)
    path = TESTS / "generated" / "test_package_versions.py"
    spec = importlib.util.spec_from_file_location("_collected_package_versions", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.RULESET_IDS, "the module found no shipped ruleset"
    assert made == [0], f"{made[0]} documents read by PyYAML's pure-Python reader at collection"


@pytest.mark.parametrize("after", ["unfrozen", pytest.param("collected", marks=pytest.mark.slow)])
def test_the_signal_tests_keep_older_garbage_out_of_their_collections_without_collecting_the_heap(
    monkeypatch: pytest.MonkeyPatch, after: str
) -> None:
    """:func:`tests.conftest.no_gc_callbacks` (the signal tests: a Ctrl-C they send must land in
    their code, never in a finalizer) collected the whole heap of the worker first, one full
    collection per test. Now no collection is made on entry, and the garbage made before the block
    still has no finalizer run in it, even by a full collection there; it goes after the block.

    That it goes after is shown two ways: `make test` sees nothing left frozen (the collector's next
    full collection reaches it), `make test-slow` makes that collection, which walks the whole heap
    of a worker late in its run (the fast suite's longest test, 2-3 s, when it made it)."""
    import gc

    from tests.conftest import no_gc_callbacks

    finalized: list[str] = []

    class Cyclic:
        def __init__(self, name: str) -> None:
            self.name = name
            self.me = self

        def __del__(self) -> None:
            finalized.append(self.name)

    collect = gc.collect
    collections = [0]

    def counted(generation: int = 2) -> int:
        collections[0] += 1
        return collect(generation)

    enabled = gc.isenabled()
    gc.disable()  # the older garbage stays uncollected until the block (no automatic collection)
    try:
        Cyclic("older")
        monkeypatch.setattr(gc, "collect", counted)
        with no_gc_callbacks():
            assert collections == [0], "a collection was made on entering the block"
            Cyclic("in the block")
            collect()
            assert finalized == ["in the block"]
        if after == "collected":
            collect()
            assert finalized == ["in the block", "older"]
        else:
            assert gc.get_freeze_count() == 0 and finalized == ["in the block"]
    finally:
        if enabled:
            gc.enable()


def test_a_builds_packages_are_run_in_process_in_place_of_the_shipped_ones_and_put_back(tmp_path: Path) -> None:
    """tests/variant_packages.run_script stands for ``PYTHONPATH=<build>/python python -c``: the
    build's packages and runtime answer, never the shipped ones of the same names this process
    holds (a test of a fresh build that asked the shipped package would pass on a broken emitter),
    with the script's arguments and input; once it ends, the shipped ones are back as they were."""
    from tests.conftest import GENERATED_PYTHON
    from tests.variant_packages import run_script

    if str(GENERATED_PYTHON) not in sys.path:
        sys.path.insert(0, str(GENERATED_PYTHON))
    importlib.import_module("civrules_rulesets.advanced_civilization")
    importlib.import_module("civrules_runtime")

    # what this process holds under those names (an earlier test of the worker may have left a
    # package's attribute naming an older module object than sys.modules does)
    shipped = sys.modules["civrules_rulesets.advanced_civilization"]
    shipped_runtime = sys.modules["civrules_runtime"]

    build = tmp_path / "python"
    (build / "civrules_runtime").mkdir(parents=True)
    (build / "civrules_runtime" / "__init__.py").write_text("WHERE = 'the build'\n", encoding="utf-8")
    package = build / "civrules_rulesets" / "advanced_civilization"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from civrules_runtime import WHERE\nRULESET_ID = 'built'\n", encoding="utf-8")
    script = (
        "import sys\nimport civrules_rulesets.advanced_civilization as p\n"
        "print(p.RULESET_ID, p.WHERE, sys.argv[1:], sys.stdin.read())\n"
        "import civrules_rulesets.mega_civilization\n"
    )
    with pytest.raises(ModuleNotFoundError, match="mega_civilization"):  # not in the build: not found
        run_script(build, script, "a", stdin="b")
    assert run_script(build, script.rpartition("import civrules_rulesets.mega")[0], "a", stdin="b") == (
        "built the build ['a'] b\n"
    )
    assert sys.modules["civrules_rulesets.advanced_civilization"] is shipped
    assert sys.modules["civrules_runtime"] is shipped_runtime
    assert sys.modules["civrules_rulesets"].advanced_civilization is shipped  # as the import system left it
    assert str(build) not in sys.path


def test_collecting_the_modules_imports_no_library_only_some_tests_use(request: pytest.FixtureRequest) -> None:
    """Every pytest-xdist worker imports and collects every test module and runs about a third of
    them: a library imported at a module's top (the sheet modules' pypdf, html5lib and Pillow,
    networkx) cost each worker its import, about 0.4 s of CPU together, whether or not it ran a test
    that uses it. Those modules bind them with tests/lazy.py, and collecting this run's modules
    imported none of them."""
    from tests.conftest import IMPORTED_AT_COLLECTION

    imported = request.config.stash.get(IMPORTED_AT_COLLECTION, None)
    assert imported is not None, "tests/conftest.py pytest_collection_finish notes them"
    assert imported == [], f"collecting the test modules imported {', '.join(imported)}: bind it with tests/lazy.py"


def test_a_lazy_library_is_imported_at_its_first_use_and_answers_no_mark() -> None:
    from tests import lazy

    stand_in = lazy.module("networkx")
    assert getattr(stand_in, "__test__", None) is None and getattr(stand_in, "_fixture_function_marker", None) is None
    assert stand_in.DiGraph is importlib.import_module("networkx").DiGraph
    with pytest.raises(ValueError, match="LIBRARIES"):
        lazy.module("json")
