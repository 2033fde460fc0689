"""The diagnostics a command prints are written as they are rendered, never held whole.

The SARIF log of 50,000 results is 46 MB: joined before it was written, then encoded whole by
click's ``echo``, it was held three times at the end of a run. Each format is rendered in pieces
(whole diagnostics) and written in batches of about :data:`civrules.cli.ECHO_CHUNK` characters.
"""

from __future__ import annotations

from typing import Any

import click
import pytest

from civrules import cli
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.diagnostics.render import FORMATS, SourceLines, render

#: The batch the test asks for, small so that a few hundred diagnostics make many batches.
BATCH = 2048


def _many() -> list[Diagnostic]:
    """300 errors over 20 files (15 a file: under the default cap per file), in the order printed."""
    return [
        Diagnostic(
            "S002",
            Severity.ERROR,
            f"unknown key `k{line}` in `cards[{line}]`",
            Span(f"rules/cards/f{file:02}.yaml", line, 3, line, 7),
            hint="remove the key, or spell it as the schema does",
            related=(Related(Span(f"rules/cards/f{file:02}.yaml", 1, 1, 1, 6), "the list begins here"),),
            subjects=(f"k{line}",),
        )
        for file in range(20)
        for line in range(2, 17)
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_many_diagnostics_are_written_in_batches_the_same_text(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "ECHO_CHUNK", BATCH, raising=False)
    writes: list[str] = []

    def echo(message: Any = None, nl: bool = True, err: bool = False, color: bool | None = None, **_: Any) -> None:
        if not err:
            writes.append(message)

    monkeypatch.setattr(click, "echo", echo)
    diagnostics = _many()
    cli._emit(diagnostics, fmt, keep_order=True, err=False)
    printed = "".join(writes)
    assert printed == render(diagnostics, fmt, SourceLines())
    assert len(printed) > 20 * BATCH
    # A batch ends at the first whole diagnostic past the size: never more than one over it (a
    # diagnostic here prints under 1,000 characters; SARIF's frame before the results, 2,000).
    assert max(len(write) for write in writes) < BATCH + 3000


def test_the_same_hint_of_many_diagnostics_is_kept_once() -> None:
    # Made anew for each finding, as a check formats it: equal strings, not the same object.
    made = [
        Diagnostic(
            "S004", Severity.ERROR, f"missing key `rule` in `areas[{i}]`", hint="".join(["add `rule:`", " here"])
        )
        for i in range(3)
    ]
    assert len({id(diagnostic.hint) for diagnostic in made}) == 1
    assert made[0].hint == "add `rule:` here"
