"""A view with assumptions is its family's ``RulesetPackage`` for mypy --strict, with no ``type:
ignore`` anywhere (issue 28 point 6): the engine code of ``assumed_engine.py`` type-checks and runs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

FILE = REPO / "tests" / "engine" / "assumed_engine.py"
GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))


def test_engine_code_runs_on_the_views_of_every_family() -> None:
    from tests.engine import assumed_engine

    law, points, pottery, income = assumed_engine.run()
    assert (law, points, pottery) == (170, 6, True)
    assert income == {"defence": 1, "raze": 1, "wood": 2, "worker": 4}


@pytest.mark.slow
def test_mypy_accepts_the_views_as_the_protocols_without_an_ignore() -> None:
    sources = [FILE.read_text(encoding="utf-8")]
    for family in (
        "emit/runtime",
        *(f"families/{f}/runtime" for f in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")),
    ):
        folder = REPO / "compiler" / "civrules" / family
        sources += [
            path.read_text(encoding="utf-8")
            for path in (folder / "assumed.py", folder / "assumptions.py")
            if path.exists()
        ]
    assert all("type: ignore" not in source for source in sources)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "tests/engine/assumed_engine.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_shared_view_fills_only_unknown_fields_and_forwards_the_rest() -> None:
    """civrules_runtime.assumed, which every family's view is built on, on records of its own."""
    from civrules_runtime.assumed import AssumedView, fill
    from civrules_runtime.errors import OutOfDomainError, UnknownIdError
    from civrules_runtime.records import Record, UnknownFact

    class _Fact(Record):
        """A fact whose reason the sources may leave out (None)."""

        __slots__ = ("file", "field", "reason")  # noqa: RUF023 - in the order of the fields

        file: str
        field: str
        reason: str | None

        def __init__(self, file: str, field: str, reason: str | None) -> None:
            object.__setattr__(self, "file", file)
            object.__setattr__(self, "field", field)
            object.__setattr__(self, "reason", reason)

    table = {"a": UnknownFact("f.yaml", "x", ""), "b": UnknownFact("f.yaml", "x", "given")}
    # "reason" stands in for a field the sources may leave out: "" is given, None is unknown (a
    # record of the test's own, whose reason may be None: a call of a record's class holds each
    # field to its type, and UnknownFact's reason is a str).
    unknown = {"a": _Fact("f.yaml", "x", None)}
    assert fill(unknown, [("a", "assumed")], "reason", "fact")["a"].reason == "assumed"
    assert unknown["a"].reason is None  # the table itself is unchanged
    with pytest.raises(OutOfDomainError, match="the reason of b is in the rule data"):
        fill(table, [("b", "other")], "reason", "fact")
    with pytest.raises(UnknownIdError, match="'c' is not a fact of this ruleset"):
        fill(table, [("c", "other")], "reason", "fact")

    from civrules_rulesets import imperial_settlers

    view = AssumedView(imperial_settlers, "why not")
    assert view.ASSUMPTIONS == "why not" and view.RULESET_ID == "imperial-settlers"
    assert view.CARDS is imperial_settlers.CARDS  # forwarded
    view.require_complete()
    assert repr(view) == "<imperial-settlers assuming 'why not'>"
