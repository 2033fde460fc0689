"""The fast suite's budget of its costliest steps, counted, never timed (tests/README.md, "Fast and slow").

`make test` must stay within 2 minutes of wall time on two cores as the suite grows. Most tests
cost milliseconds; what costs a large part of a second each is a fresh Python interpreter (civrules
and its libraries imported again, 0.3-0.8 s of CPU) and a Chromium tab (a page loaded, laid out
and scripted: 0.4-1.7 s of Chromium's CPU). This plugin counts both in every test, by the
interpreter's audit events (``subprocess.Popen``) and by :meth:`tests.browser.Browser.open`:

- a fast test (not ``@pytest.mark.slow``) starts at most :data:`INTERPRETERS_PER_TEST`
  interpreters: two fresh interpreters under two hash seeds are the most one property needs; a
  sweep keeps one cheap case in `make test` and goes slow;
- the whole fast suite starts at most :data:`SUITE_INTERPRETERS` interpreters and opens at most
  :data:`SUITE_TABS` tabs. A new test that needs either spends from that budget: raising it is a
  decision a reviewer sees in this file's diff, not a minute that creeps into every run.

Each budget is what the suite uses, not a margin: a test that starts one more interpreter or opens
one more tab fails the run until it is made cheaper or the budget is raised here. What still needs
an interpreter of its own in `make test` (round 31: a CLI behaviour that click's test runner can
show in process is tested there, and a sweep over cases one fast test already proves is slow):

- what a process's start decides: `python -m civrules` and `civrules.cli`, the console script, an
  import missing or failing as civrules starts, what a start imports (no jsonschema, networkx,
  another family's checks, the compiler under a generated package), ``PATH`` and ``PYTHONPATH``
  read by the entry point, the locale a pipe is written in, two hash seeds;
- the operating system's side of a process: Ctrl-C, SIGTERM and a crash at their moments (exit
  130 or 2, a staging tree left), a closed standard stream, a reader that goes away, a
  pseudo-terminal, a file-size limit (RLIMIT_FSIZE), the adversarial cases marked ``fresh``;
- the long-running programs as an editor or a shell runs them: the language server over its pipes
  and `civrules watch` stopped by Ctrl-C;
- not a generated package's answers: a build's packages are imported in the test's process in
  place of the shipped ones of the same names (`tests/variant_packages.run_script`); only what a
  package imports as an interpreter starts needs one (`test_codegen`'s fresh interpreter).

A Chromium tab is a page laid out and scripted: what is held on a page's HTML alone is held on the
HTML in process (`page_html`), and a tab is for what only a browser shows (layout within the
paper, the page's script answering as the package does).

Counts are the same on every machine and under any load, so neither check can fail because a
machine is busy. The totals are checked where the whole fast suite ran (the configuration's test
paths, the default ``-m 'not slow'``, no ``-k``), in the one process or in the controller of
pytest-xdist's workers, which adds up what each worker counted.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import pytest

#: A fast test's fresh interpreters: two, for a property of two interpreters (hash seeds).
INTERPRETERS_PER_TEST = 2
#: The fast suite's fresh interpreters and Chromium tabs: what its tests started and opened on
#: 2026-12-05 (round 32), no more, whatever the number of workers (pytest-xdist's own are not counted).
#: 78 before round 32 ran the generated packages' answers in process (tests/variant_packages.py:
#: test_codegen's 12, the helper pages' packages 7, the package API's snapshot 1).
SUITE_INTERPRETERS = 58
#: 61 when round 31 set the budgets to what the suite used; 63 with that round's players' trial:
#: the calamity helper's script answers for the cities a player types as the package does (Civil
#: Disorder's reduced cities, and each calamity's loss of units and cities), which only a page's
#: script shows.
#: 62 in round 36: the quick reference laid out on one page joined `make test-slow` with the tests
#: over a fast test's ceiling (:data:`CEILING_CPU_SECONDS`).
SUITE_TABS = 62

#: A fast test's ceiling of CPU time, on a quiet machine (its own process and the children it
#: waited for): `make test-cpu` records the whole fast suite and lists every test over it. Most tests
#: cost milliseconds; one over the ceiling is a whole ruleset analysed or built several times over, a
#: walk of every module or file, or a property's many examples, and in `make test` it is paid on every
#: run of every developer. Such a test whose claim a cheaper test keeps in `make test` (a sweep's
#: representative, the check's fixtures, a smaller case of the same mechanism) is :data:`heavy`. This
#: is a ceiling read from a record, never asserted: a test that fails because a machine is busy is a
#: broken test.
CEILING_CPU_SECONDS = 0.3

#: The mark of a test over :data:`CEILING_CPU_SECONDS` (round 36, #32 point 7): it runs in `make
#: test-slow`, which CI runs too, so nothing it checks stops being checked; `make test` keeps its
#: cheaper siblings. The same mark as ``@pytest.mark.slow``, named for why.
heavy = pytest.mark.slow


_INTERPRETER = re.compile(r"(python[0-9.]*|civrules)")

#: What this process counted: interpreters started, tabs opened.
_counted = {"interpreters": 0, "tabs": 0}
_KEY = "civrules_budget"


def is_interpreter(executable: object, args: object) -> bool:
    """Whether a process started with these ``subprocess.Popen`` arguments is a Python interpreter
    (this one's, another ``python``, or an installed ``civrules`` script)."""
    program = executable
    if program is None and isinstance(args, (list, tuple)) and args:
        program = args[0]
    if program is None:
        program = args
    if isinstance(program, bytes):
        program = os.fsdecode(program)
    if not isinstance(program, (str, os.PathLike)):
        return False
    path = os.fspath(program)
    return path == sys.executable or _INTERPRETER.fullmatch(os.path.basename(path)) is not None


def started_interpreter(event: str, args: tuple[Any, ...]) -> bool:
    """Whether an audit event starts a Python interpreter: ``subprocess.Popen`` (asyncio's
    subprocesses too), ``os.posix_spawn`` and ``os.spawn*``, ``os.system`` by its command's first word."""
    if event == "subprocess.Popen":
        return is_interpreter(args[0], args[1])
    if event == "os.posix_spawn":
        return is_interpreter(args[0], args[1])
    if event == "os.spawn":
        return is_interpreter(args[1], args[2])
    if event == "os.system":
        command = os.fsdecode(args[0]) if isinstance(args[0], bytes) else str(args[0])
        return is_interpreter(None, command.split()[:1])
    return False


#: Whether a test (its setup, call and teardown, with the fixtures set up for it) is running in this
#: process. What starts outside one is pytest's own: pytest-xdist's controller starts each worker as
#: an interpreter, and counting them made the total depend on the worker count (81 with `make
#: test`'s three workers, 80 with two) for nothing a test spends.
_running: list[bool] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _running and started_interpreter(event, args):
        _counted["interpreters"] += 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    _running.append(True)
    try:
        yield
    finally:
        _running.pop()


def tab_opened() -> None:
    """Called by :meth:`tests.browser.Browser.open`."""
    _counted["tabs"] += 1


def _whole_fast_suite(config: pytest.Config) -> bool:
    """Whether this run is the whole fast suite: the test paths of the configuration (no file or
    folder named), the default ``-m 'not slow'``, no ``-k``."""
    return (
        config.args_source is pytest.Config.ArgsSource.TESTPATHS
        and str(config.getoption("markexpr")).strip() == "not slow"
        and not config.getoption("keyword")
    )


def pytest_configure(config: pytest.Config) -> None:
    if not _hooked:  # an audit hook is never removed: one per process, however many sessions
        sys.addaudithook(_audit)
        _hooked.append(True)


_hooked: list[bool] = []


#: The interpreters counted when the running test's setup began.
_at_setup: dict[str, int] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _at_setup[item.nodeid] = _counted["interpreters"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A fast test over :data:`INTERPRETERS_PER_TEST` fails at its teardown, saying what to do."""
    outcome = yield
    if call.when != "teardown":
        return
    started = _counted["interpreters"] - _at_setup.pop(item.nodeid, _counted["interpreters"])
    report = outcome.get_result()
    problem = too_many(item.nodeid, started, slow=item.get_closest_marker("slow") is not None)
    if problem is not None and report.passed:
        report.outcome = "failed"
        report.longrepr = problem


def too_many(nodeid: str, started: int, *, slow: bool) -> str | None:
    """What is wrong with a test that started ``started`` interpreters, if anything."""
    if slow or started <= INTERPRETERS_PER_TEST:
        return None
    return (
        f"{nodeid} started {started} Python interpreters; a fast test starts at most "
        f"{INTERPRETERS_PER_TEST} (tests/budget.py): keep one cheap case in `make test` and mark the "
        "sweep @pytest.mark.slow (tests/README.md, 'Fast and slow')"
    )


def over_budget(counted: dict[str, int]) -> list[str]:
    """What the whole fast suite spent beyond its budgets, given what it counted."""
    problems = []
    for what, words, budget in (
        ("interpreters", "started {} Python interpreters", SUITE_INTERPRETERS),
        ("tabs", "opened {} Chromium tabs", SUITE_TABS),
    ):
        if counted.get(what, 0) > budget:
            problems.append(
                f"the fast suite {words.format(counted[what])}, over its budget of {budget} (tests/budget.py): "
                "make a new test cheaper, move a sweep to @pytest.mark.slow, or raise the budget there saying why"
            )
    return problems


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller adds up
        workeroutput[_KEY] = dict(_counted)
        return
    if _problems(session.config) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_testnodedown(node: Any, error: Any) -> None:
    """(pytest-xdist, in the controller) a worker's counts."""
    found = getattr(node, "workeroutput", {}).get(_KEY)
    if found:
        for key, value in found.items():
            _counted[key] += value


def _problems(config: pytest.Config) -> list[str]:
    return over_budget(_counted) if _whole_fast_suite(config) else []


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if getattr(config, "workeroutput", None) is not None:
        return
    problems = _problems(config)
    if problems:
        terminalreporter.section("the fast suite's budget", sep="=", red=True)
        for problem in problems:
            terminalreporter.write_line(problem, red=True)
    elif _whole_fast_suite(config):
        terminalreporter.write_line(
            f"budget: {_counted['interpreters']} of {SUITE_INTERPRETERS} interpreters, "
            f"{_counted['tabs']} of {SUITE_TABS} Chromium tabs (tests/budget.py)"
        )
