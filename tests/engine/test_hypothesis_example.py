"""docs/engine.md ("Property tests with hypothesis"): the packages hold no hypothesis strategies
(round 35: they are standard library only); the page shows how to build them from a package's own
values and ``replace``. Its example runs here, as the page gives it, with few examples: a fast test."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from tests.conftest import REPO

hypothesis = pytest.importorskip("hypothesis")

MARKER = "<!-- hypothesis example: run by tests/engine/test_hypothesis_example.py -->"


def _example() -> dict[str, object]:
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    found = re.search(re.escape(MARKER) + r"\n```python\n(.*?)```", text, re.S)
    assert found is not None, "docs/engine.md lost its hypothesis example"
    scope: dict[str, object] = {"__name__": "engine_example"}
    exec(compile(found.group(1), "docs/engine.md", "exec"), scope)
    return scope


@pytest.mark.parametrize(
    "name", ["test_credits_never_raise_a_price", "test_a_changed_card_keeps_its_id_and_reads_back"]
)
def test_the_pages_hypothesis_example_holds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "generated" / "python"))
    test = _example()[name]
    assert callable(test)
    few = hypothesis.settings(max_examples=20, database=None, deadline=None, derandomize=True)
    run: Callable[[], None] = few(test)
    run()


def test_the_packages_import_no_hypothesis() -> None:
    # the page's promise: a strategy helper would make hypothesis a dependency of every engine
    pyprojects = sorted((REPO / "generated" / "python").glob("*/pyproject.toml")) + sorted(
        (REPO / "generated" / "python" / "civrules_rulesets").glob("*/pyproject.toml")
    )
    assert pyprojects
    assert not [path for path in pyprojects if "hypothesis" in path.read_text(encoding="utf-8")]
