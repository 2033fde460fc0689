"""Shared fixtures: the repository root and a scratch copy of the real rules."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import Browser

#: No property test may fail because the machine is busy (`make test` runs on a loaded 2-core
#: machine): Hypothesis' per-example deadline and its "generation too slow" health check are
#: timings, so every property test of the suite runs without them; the profile is the default each
#: test's own ``@settings`` adds to. (test_package_names' id property failed FailedHealthCheck on a
#: machine running other work beside the suite.)
settings.register_profile("civrules", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("civrules")


def _no_local_constants() -> None:
    """Hypothesis (6.131 on) draws some values from the constants of the project's own modules: it
    parses the source of every module of civrules a process has imported, at collection and again
    whenever more are imported, in each pytest worker (2.2 s of CPU a process with every module
    imported and `.hypothesis/` empty, as on a fresh clone: CI's case). The suite's properties are
    stated over strategies of their own, and a compiled template's or validator's constants help
    none of them: the module's function gives none. Hypothesis has no setting for it (its issue
    4627); where a version lacks the function, nothing is changed."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - another layout of hypothesis' internals
        return
    made = getattr(providers, "Constants", None)
    if made is not None and callable(getattr(providers, "_get_local_constants", None)):
        none = made()
        providers._get_local_constants = lambda: none


_no_local_constants()

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"
#: The committed engine packages and runtimes (kept current by `civrules build --check`).
GENERATED_PYTHON = REPO / "generated" / "python"


def distribution_folder(name: str) -> str:
    """A generated distribution's folder under generated/python/, by its import package's last
    name: a runtime's (``civrules_runtime*``) at the top, a ruleset's in the namespace."""
    return name if name.startswith("civrules_runtime") else f"civrules_rulesets/{name}"


TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    """The suite's civrules runs (in-process and the subprocesses, which inherit the environment)
    keep their data caches in a scratch folder, never in the user's cache directory. Tests of the
    cache location set the variables themselves."""
    # Most tests work on copies of the shipped rules (`rules_copy`, `family_copy`): each such folder
    # is read alone, as `--no-shipped` reads it, or every copied manifest would shadow the shipped
    # one it copies (R013). The tests of the shipped rulesets (tests/core/test_shipped.py) clear it.
    os.environ["CIVRULES_NO_SHIPPED"] = "1"
    # The fast suite's budget of interpreters and Chromium tabs, counted (tests/budget.py).
    from tests import budget

    config.pluginmanager.register(budget, "civrules-budget")
    if os.environ.get("CIVRULES_TEST_CPU_RECORD"):
        from tests import cpu_record

        config.pluginmanager.register(cpu_record, "civrules-cpu-record")
    # A pytest-xdist controller rewrites the test modules' assertions once, before its workers
    # start, where each worker would rewrite every module itself (tests/assertion_cache.py).
    from tests import assertion_cache

    if assertion_cache.starts_workers(config):
        assertion_cache.rewrite_test_modules(config)
    # The shipped rule files are read once per test process (tests/rulefiles.py).
    from tests.rulefiles import install_shipped_reads

    install_shipped_reads()
    if "CIVRULES_CACHE_DIR" not in os.environ:
        scratch = tempfile.mkdtemp(prefix="civrules-test-cache-")
        os.environ["CIVRULES_CACHE_DIR"] = scratch
        config.stash[_SCRATCH] = scratch


@pytest.fixture(scope="session", autouse=True)
def _shipped_readings_stay_as_read() -> Iterator[None]:
    """The shipped readings this test process shared between its tests (tests/rulefiles.py) are
    left as read: checked once its last test has run (an error of that test where one changed)."""
    yield
    from tests.rulefiles import changed_shipped_reads

    changed = changed_shipped_reads()
    assert not changed, f"a test changed the data of shipped readings the suite shares: {', '.join(changed)}"


#: The libraries of tests/lazy.py that collecting the test modules imported (core/test_suite_rules.py).
IMPORTED_AT_COLLECTION = pytest.StashKey[list[str]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Notes which libraries of tests/lazy.py are imported once every module is collected, before
    any test runs: none should be (every worker collects every module)."""
    import sys

    from tests.lazy import LIBRARIES

    session.config.stash[IMPORTED_AT_COLLECTION] = sorted(name for name in LIBRARIES if name in sys.modules)


def pytest_unconfigure(config: pytest.Config) -> None:
    scratch = config.stash.get(_SCRATCH, None)
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
        os.environ.pop("CIVRULES_CACHE_DIR", None)


_SCRATCH = pytest.StashKey[str]()

#: The modules that take longest, in that order, by their path under tests/: ranked by the CPU time
#: of their tests (children included) and, for those that mostly wait on another process (a
#: Chromium tab, a language server, `watch`), by their wall time, from a per-test record of
#: `make pytest` (tests/README.md, "Fast and slow"). `make test` runs modules whole on two workers
#: (`--dist loadfile --no-loadscope-reorder`) in collection order: started first, the long ones leave
#: the short ones to fill the end, and neither worker waits for the other with a long module to go.
LONGEST_FIRST = (
    "core/test_checks.py",
    "families/advanced_civilization/test_sheets.py",
    "families/advanced_civilization/test_helpers.py",
    "families/advanced_civilization/test_codegen.py",
    "core/test_incremental.py",
    "security/test_hostile_yaml.py",
    "core/test_schemas.py",
    "security/test_resource_limits.py",
    "security/test_filesystem.py",
    "core/test_cli.py",
    "core/test_lsp.py",
    "core/test_init.py",
    "security/test_interrupts.py",
    "families/advanced_civilization/test_mutations.py",
    "security/test_lsp_responsiveness.py",
    "core/test_sheet_words.py",
    "core/test_watch.py",
    "families/imperial_settlers/test_editor.py",
)


#: The modules whose tests use the one Chromium of a test process (the `browser` fixture). With
#: two workers (`make test`), they run on one (:func:`pytest_xdist_make_scheduler`), one after
#: another, so one Chromium starts for them all and is closed once they have run: split by module,
#: each worker started its own. Measured on 2026-12-02, the browser's CPU is its rendering (9-10 s
#: for every page of the fast suite), split or together alike within the machine's noise; what
#: this keeps is the issue's one browser, started once and never idling beside the other tests.
BROWSER_MODULES = (
    "core/test_sheet_print_sizes.py",
    "families/advanced_civilization/test_sheets.py",
    "families/advanced_civilization/test_helpers.py",
    "families/imperial_settlers/test_sheets.py",
    "families/imperial_settlers/test_helpers.py",
    "families/sid_meiers_civilization/test_helpers.py",
    "families/sid_meiers_civilization/test_sheets.py",
)


_BROWSER_PATHS = frozenset(TESTS / name for name in BROWSER_MODULES)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (`make test`), with the modules of :data:`BROWSER_MODULES` one unit of
    work: each other module is still its own, so a module's fixtures are made once."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

    browser = {(TESTS / name).relative_to(config.rootpath).as_posix() for name in BROWSER_MODULES}

    class OneBrowser(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return "the browser tests" if module in browser else module

    return OneBrowser(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the longest modules first (see :data:`LONGEST_FIRST`); each module's tests keep their order.

    A name in :data:`LONGEST_FIRST` or :data:`BROWSER_MODULES` that is no test module (one moved or
    renamed) is a usage error: the ranking would silently stop applying to it. So is a test that
    uses the browser outside :data:`BROWSER_MODULES`: its worker would start a Chromium of its own."""
    missing = [name for name in (*LONGEST_FIRST, *BROWSER_MODULES) if not (TESTS / name).is_file()]
    if missing:
        raise pytest.UsageError(
            f"tests/conftest.py LONGEST_FIRST or BROWSER_MODULES names no test module at {', '.join(missing)}"
        )
    outside = sorted(
        {
            str(item.path)
            for item in items
            if "browser" in getattr(item, "fixturenames", ()) and item.path.resolve() not in _BROWSER_PATHS
        }
    )
    if outside:
        raise pytest.UsageError(
            f"tests/conftest.py BROWSER_MODULES lacks modules that use the browser: {', '.join(outside)}"
        )
    rank = {(TESTS / name): position for position, name in enumerate(LONGEST_FIRST)}
    # The browser modules one after another, where the first of them ranks: the one Chromium is
    # closed once they have run (:func:`pytest_runtest_protocol`).
    first = min((rank[path] for path in _BROWSER_PATHS if path in rank), default=len(rank))
    rank.update(dict.fromkeys(_BROWSER_PATHS, first))
    resolved: dict[Path, Path] = {}
    for item in items:
        if item.path not in resolved:  # one resolve() per module, not per test (2,700 of them)
            resolved[item.path] = item.path.resolve()
    items.sort(key=lambda item: rank.get(resolved[item.path], len(rank)))


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped rules/ directory."""
    return copy_shipped(tmp_path / "rules")


#: The Advanced Civilization family: a base ruleset and a variant of it.
FAMILY = ("advanced-civilization", "advanced-civilization-western")


@pytest.fixture
def family_copy(tmp_path: Path) -> Path:
    """A writable copy of rules/ holding only the Advanced Civilization rulesets (the base and
    its Western Extension variant) and the files they read: it validates clean, and a run over it
    reads half the files a run over every ruleset does, for the tests whose point one family makes."""
    return copy_rulesets(tmp_path / "rules", *FAMILY)


def copy_rulesets(target: Path, *ruleset_ids: str) -> Path:
    """A writable copy of rules/ at ``target`` holding only these rulesets (and their bases) and
    the files they read."""
    from tests.shipped import ruleset_files

    return copy_files(target, {relative for ruleset_id in ruleset_ids for relative in ruleset_files(ruleset_id)})


def copy_shipped(target: Path) -> Path:
    """A writable copy at ``target`` of the shipped files of rules/ (tests/shipped.py): never a
    designer's own variant beside them, which a test that makes one of the same name would find
    (`new-variant my-settlers`: "a ruleset `my-settlers` already exists")."""
    from tests.shipped import files

    return copy_files(target, files())


def copy_files(target: Path, relatives: Iterable[str]) -> Path:
    """A writable copy at ``target`` of these files of rules/ (paths relative to it)."""
    for relative in sorted(relatives):
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RULES / relative, target / relative)
    return target


# --- a pseudo-terminal: what a person at one sees -------------------------------------------------

_Ran = TypeVar("_Ran")


def on_terminal(run: Callable[[int], _Ran]) -> tuple[_Ran, bytes]:
    """What ``run`` returns, given the terminal's side of a new pseudo-terminal to write on (a
    child's standard output), and every byte it wrote there, read once it has returned."""
    import pty

    main, other = pty.openpty()
    try:
        ran = run(other)
        os.close(other)
        other = -1
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the terminal's other side is closed and everything was read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main)
        if other != -1:
            os.close(other)
    return ran, b"".join(chunks)


# --- signals: a test that depends on Ctrl-C sets the disposition it needs ---------------------------
# A run started in the background or under `nohup` (`nohup make test &`) inherits SIGINT ignored,
# and so would every civrules it starts: Ctrl-C tests then failed, and those waiting for a child to
# stop on Ctrl-C waited out their guard (issue 27, point 8).


def default_sigint() -> None:
    """``preexec_fn`` of a child that must stop on Ctrl-C: SIGINT's default disposition restored
    (Python then raises KeyboardInterrupt in it, as in a program started from a terminal)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def no_gc_callbacks() -> Iterator[None]:
    """The garbage collector's Python callbacks set aside for the block, and put back after it.

    Python handles a signal at the next bytecode it runs, and a collection runs the callbacks in
    ``gc.callbacks`` in the middle of whatever the test does: hypothesis installs one (its count of
    the time collections take) in the first process that runs a ``@given`` test. A Ctrl-C a test
    sends itself that lands in it is raised there, where no code can catch it: Python printed
    "Exception ignored in: <function gc_callback ...> KeyboardInterrupt" (at the end of a full
    run, with pytest's other unraisable exceptions), and the test's own code never saw it (about
    one in two Ctrl-Cs sent by a thread to a collecting main thread, 142 of 300). For the same
    reason, the garbage earlier tests left is kept out of the block's collections: a finalizer it
    runs is Python code too. It is frozen (``gc.freeze``: the collector does not look at it until
    ``gc.unfreeze`` after the block), not collected first: a full collection walked the whole heap
    of a pytest worker that had run hundreds of tests (0.27 s of CPU in a heap of 2 million objects,
    for each of the 10 tests of `make test` that use this; tests/collector.py, the same class). Not
    for a block that freezes and
    unfreezes the heap itself (:func:`tests.collector.left_for_the_collector`): its unfreeze would
    let the older garbage be collected in the block."""
    saved = list(gc.callbacks)
    gc.callbacks.clear()
    gc.freeze()  # what earlier tests left: its finalizers (``__del__``, weakref callbacks) run after, not mid-test
    try:
        yield
    finally:
        gc.unfreeze()
        gc.callbacks[:] = [*saved, *(added for added in gc.callbacks if added not in saved)]


@pytest.fixture
def sigint_default() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in this test, whatever disposition the run inherited, and
    in its code: never in a garbage collector's callback (:func:`no_gc_callbacks`)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with no_gc_callbacks():
            yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --- one headless Chromium for every browser test ------------------------------------------------


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    """A headless Chromium on the PATH. The tests never install one (that needs root): without it
    they skip, saying what to install, unless CIVRULES_REQUIRE_BROWSER=1 (CI) makes that a failure."""
    found = find_chromium()
    if found is None:
        reason = (
            "no chromium on the PATH: install one to run the browser tests "
            "(`sudo make setup-browser` installs Debian's `chromium`)"
        )
        if os.environ.get("CIVRULES_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; CIVRULES_REQUIRE_BROWSER=1 requires it")
        pytest.skip(reason)
    return found


#: The running Chromium of this test process, if one is.
_BROWSER: list[Browser] = []


@pytest.fixture(scope="module")
def browser(chromium: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Browser:
    """The one Chromium of a test process (tests/browser.py), started by the first test that needs
    it and shared by every sheet and helper test after it, a tab each: a start costs seconds of CPU,
    a tab a fraction of one. The pages keep their state in the URL, so no test sees another's.

    It is closed once the browser modules have run (:func:`pytest_runtest_protocol`), not when the
    process ends: left open, it spent about 2 s of CPU more beside the later tests of its worker
    (11.6 s against 9.6 s, 2026-12-02). A test that needs it after that (a run that does not keep
    the browser modules together: ``--dist load``) starts another."""
    if not _BROWSER:
        root = tmp_path_factory.mktemp("chromium")
        _BROWSER.append(Browser(chromium, root / "profile", root / "chromium.log"))
        request.config.add_cleanup(_close_browser)
    return _BROWSER[0]


@pytest.fixture
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own (`CIVRULES_CACHE_DIR`), outside its `tmp_path`: a cache in
    the folder holding a rules folder is refused (civrules.support.cache), so not `tmp_path / "cache"`
    beside `tmp_path / "rules"`."""
    folder = tmp_path_factory.mktemp("cache") / "civrules"
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(folder))
    return folder


def _close_browser() -> None:
    while _BROWSER:
        _BROWSER.pop().close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    # The folders a cache may not lie in are one run's (one process's): a test's rules folder is
    # not the next test's project (`Workspace(tmp_path)` made every folder beside it one).
    cache = sys.modules.get("civrules.support.cache")
    if cache is not None:
        cache.forget()
    # Only where the browser modules run one after another: in one process, or as one unit of
    # work (`--dist loadfile`); tests dealt out one by one (`make test-slow`) keep it to the end.
    together = getattr(item.config, "workerinput", {}).get(_TOGETHER, True)
    if _BROWSER and together and (nextitem is None or nextitem.path.resolve() not in _BROWSER_PATHS):
        _close_browser()


#: Told to each pytest-xdist worker: whether the browser modules come to it as one unit of work.
_TOGETHER = "civrules_browser_modules_together"


def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist, in the controller) what each worker is told: see :data:`_TOGETHER`."""
    node.workerinput[_TOGETHER] = node.config.getoption("dist") == "loadfile"
