"""The test suite's own rules (tests/README.md, "Fast and slow"): no test can fail because the
machine running it is busy."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, settings

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
