"""`sort_diagnostics`: one diagnostic per root cause, in file and position order.

A schema error (S…) about a node holding a value or key the reader refused (L…) is that refusal's
consequence and is left out. Which S diagnostics hold an L span is looked up among the L spans of
the file sorted by start (`_Holding`), not tested against each: held here to the plain definition.
"""

from __future__ import annotations

import random

from civrules.diagnostics import Diagnostic, Severity, Span, _Holding, sort_diagnostics


def _holds_any(span: Span, inner: list[Span]) -> bool:
    """The definition: another span of the same file lying within ``span``."""
    start, end = (span.line, span.column), (span.end_line, span.end_column)
    return any(
        other.file == span.file
        and other != span
        and start <= (other.line, other.column)
        and (other.end_line, other.end_column) <= end
        for other in inner
    )


def _span(rng: random.Random) -> Span:
    line, column = rng.randint(1, 12), rng.randint(1, 6)
    end_line = line + rng.choice([0, 0, 1, 3])
    end_column = rng.randint(column if end_line == line else 1, 9)
    return Span(rng.choice(["a.yaml", "b.yaml"]), line, column, end_line, end_column)


def test_holding_is_the_definition_on_random_spans() -> None:
    """Nested, apart, overlapping, equal and same-start spans, in two files."""
    rng = random.Random(11)
    for _ in range(400):
        inner = [_span(rng) for _ in range(rng.randint(0, 12))]
        holding = _Holding(inner)
        for _ in range(12):
            span = rng.choice(inner) if inner and rng.random() < 0.3 else _span(rng)
            assert holding(span) == _holds_any(span, inner), (span, inner)
    assert _Holding([])(None) is False


def test_a_schema_error_holding_a_refused_key_is_left_out() -> None:
    area = Span("m.yaml", 3, 3, 9, 1)
    refused = Diagnostic("L002", Severity.ERROR, "duplicate key `z1`", Span("m.yaml", 5, 5, 5, 7))
    consequence = Diagnostic("S001", Severity.ERROR, "unknown key", area)
    apart = Diagnostic("S001", Severity.ERROR, "unknown key", Span("m.yaml", 10, 3, 12, 1))
    elsewhere = Diagnostic("S001", Severity.ERROR, "unknown key", Span("n.yaml", 3, 3, 9, 1))
    assert sort_diagnostics([apart, consequence, elsewhere, refused]) == [refused, apart, elsewhere]
