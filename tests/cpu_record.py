"""A per-test record of CPU time, to see where `make test`'s time goes (tests/README.md, "Fast and slow").

Opt-in: ``CIVRULES_TEST_CPU_RECORD=/tmp/cpu make pytest`` (tests/conftest.py registers this plugin
when the variable is set) writes one JSON file per pytest process (each xdist worker's, by its
name) into that folder: each test's CPU time (user + system) of the test's process and of the
children it waited for, and its wall time. ``python -m tests.cpu_record /tmp/cpu`` prints the
modules and the tests that cost most, and ``python -m tests.cpu_record /tmp/cpu --over [SECONDS]``
every test over that many seconds (by default a fast test's ceiling, tests/budget.py); `make
test-cpu` runs both over a fresh record. A child is counted when it is waited for, so a process
started by one test and reaped by a later one (a session's Chromium) is charged to the later test.
It records; it asserts nothing.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_ROWS: list[tuple[str, float, float, float]] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, children = _cpu()
    started = time.perf_counter()
    yield
    own_after, children_after = _cpu()
    _ROWS.append((item.nodeid, own_after - own, children_after - children, time.perf_counter() - started))


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ["CIVRULES_TEST_CPU_RECORD"]
    own, children = _cpu()
    Path(folder).mkdir(parents=True, exist_ok=True)
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    record = {"tests": _ROWS, "process_own": own, "process_children": children}
    (Path(folder) / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")


def over_the_ceiling(folder: Path, ceiling: float) -> list[tuple[float, str]]:
    """The tests of the record that spent more than ``ceiling`` seconds of CPU, costliest first: the
    candidates for ``tests.budget.heavy`` (tests/README.md, "Fast and slow")."""
    found = []
    for path in sorted(folder.glob("*.json")):
        for nodeid, own, children, _ in json.loads(path.read_text(encoding="utf-8"))["tests"]:
            if own + children > ceiling:
                found.append((own + children, nodeid))
    return sorted(found, key=lambda entry: (-entry[0], entry[1]))


def report(folder: Path, top: int = 30) -> str:
    """The processes' totals, then the modules and the tests that cost most CPU."""
    lines = []
    modules: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    tests = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        rows = record["tests"]
        in_tests = sum(own + children for _, own, children, _ in rows)
        lines.append(
            f"{path.stem}: process {record['process_own']:.1f} s own + {record['process_children']:.1f} s children, "
            f"tests {in_tests:.1f} s CPU, {sum(row[3] for row in rows):.1f} s wall"
        )
        for nodeid, own, children, wall in rows:
            module = modules[nodeid.split("::")[0]]
            module[0] += own + children
            module[1] += children
            module[2] += wall
            tests.append((own + children, children, nodeid))
    lines.append("modules (CPU s, of it children, wall s):")
    for name, (cpu, children, wall) in sorted(modules.items(), key=lambda entry: -entry[1][0])[:top]:
        lines.append(f"  {cpu:6.1f} {children:6.1f} {wall:6.1f}  {name}")
    lines.append("tests (CPU s, of it children):")
    for cpu, children, nodeid in sorted(tests, reverse=True)[:top]:
        lines.append(f"  {cpu:6.2f} {children:6.2f}  {nodeid}")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[2] == "--over":
        from tests.budget import CEILING_CPU_SECONDS

        ceiling = float(sys.argv[3]) if len(sys.argv) == 4 else CEILING_CPU_SECONDS
        heavy = over_the_ceiling(Path(sys.argv[1]), ceiling)
        print(f"{len(heavy)} tests over {ceiling} s of CPU ({sum(cpu for cpu, _ in heavy):.1f} s in all):")
        print("\n".join(f"  {cpu:6.2f}  {nodeid}" for cpu, nodeid in heavy))
    else:
        print(report(Path(sys.argv[1])))
