"""`sort_diagnostics`: one diagnostic per root cause, in file and position order.

A schema error (S…) about a node holding a value or key the reader refused (L…) is that refusal's
consequence and is left out. Which S diagnostics hold an L span is looked up among the L spans of
the file sorted by start (`_Holding`), not tested against each: held here to the plain definition.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from civrules.diagnostics import Diagnostic, Severity, Span, _Holding, sort_diagnostics
from civrules.load.workspace import Workspace


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


#: Files whose reading warns (L014, L015) and whose document the schema refuses as a whole: the
#: warning stands inside the document's span, and the schema error at the document's root.
WARNED_FILES = {
    "a number, then a soft hyphen": ("0\u00ad", "L015", "must be a mapping"),
    "a key holding a soft hyphen": ("x\u00ad: 1\n", "L015", "has no `kind:`"),
    "a key holding a zero width space": ("kind: map\nid: m\nx\u200by: 1\n", "L015", "x\u200by"),
    "a number with a leading zero": ("x: 012\n", "L014", "has no `kind:`"),
}


@pytest.mark.parametrize("name", WARNED_FILES)
def test_a_load_warning_never_hides_the_schema_error_around_it(tmp_path: Path, name: str) -> None:
    """A load warning (L014 leading zero, L015 invisible character) reads the value as written: no
    schema error is its consequence. Taken for a refusal because its code starts with L, it hid
    the schema error of every node holding it, up to the document's (`0` and a soft hyphen:
    exit 1, and no error listed)."""
    text, warning, said = WARNED_FILES[name]
    (tmp_path / "calamities").mkdir()
    (tmp_path / "calamities" / "c.yaml").write_text(text, encoding="utf-8")
    loaded = Workspace(tmp_path, shipped=False).load("calamities/c.yaml")
    listed = sort_diagnostics(loaded.diagnostics)
    assert [d.code for d in listed if d.code.startswith("L")] == [warning], listed
    errors = [d for d in listed if d.severity is Severity.ERROR]
    assert errors and all(d.code.startswith("S") for d in errors), listed
    assert any(said in d.message for d in errors), listed


def test_a_load_error_still_hides_the_schema_error_it_causes() -> None:
    """The other side: an L error stands where the reader dropped a value (a stand-in null), and
    the schema's word on the node holding it is left out, whatever the warnings beside it."""
    area = Span("m.yaml", 3, 3, 9, 1)
    refused = Diagnostic("L004", Severity.ERROR, "forbidden tag", Span("m.yaml", 5, 5, 5, 9))
    warned = Diagnostic("L015", Severity.WARNING, "invisible character", Span("m.yaml", 6, 5, 6, 6))
    consequence = Diagnostic("S001", Severity.ERROR, "unknown key", area)
    assert sort_diagnostics([consequence, warned, refused]) == [refused, warned]


def test_a_warning_at_a_files_path_never_stops_the_file_being_read(tmp_path: Path) -> None:
    """`load_ruleset` skips a `files:` path the schema already refused (absolute, `..`): it is
    reported once, by the schema. It took any diagnostic at the path's span for that refusal, so a
    warning there (an invisible character's, say) left the file named and never read, its own
    errors unlisted. Only an error refuses."""
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "factions").mkdir()
    (tmp_path / "rulesets" / "x.yaml").write_text(
        "kind: ruleset\nfamily: imperial-settlers\nid: x\nname: X\nfiles:\n  factions: [factions/f.yaml]\n",
        encoding="utf-8",
    )
    (tmp_path / "factions" / "f.yaml").write_text("kind: factions\n", encoding="utf-8")

    def read_with(*said: Diagnostic) -> bool:
        workspace = Workspace(tmp_path, shipped=False)
        manifest = workspace.manifests()["x"]
        manifest.file.diagnostics.extend(said)
        named = workspace.display(tmp_path / "factions" / "f.yaml")
        return any(file.path == named for files in workspace.load_ruleset(manifest).files.values() for file in files)

    document = Workspace(tmp_path, shipped=False).manifests()["x"].file.document
    assert document is not None
    at = document.span(("files", "factions", 0))
    assert read_with()
    assert read_with(Diagnostic("L015", Severity.WARNING, "an invisible character", at))
    assert not read_with(Diagnostic("S001", Severity.ERROR, "the path is refused", at))
