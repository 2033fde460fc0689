"""The bugs the adversarial corpus and the fuzzers found, each pinned where it was fixed.

The corpus (test_adversarial.py) shows each threat end to end in a subprocess; these tests hold
the individual fixes in place, in-process and fast.
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.checks.catalogue import all_checks
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.diagnostics.render import SourceLines, diagnostic_record, render_json, render_text
from civrules.diagnostics.suggest import COMPARISONS, QUERIES, Vocabulary
from civrules.emit.export import export_ruleset
from civrules.families.advanced_civilization.model import of_family
from civrules.families.advanced_civilization.package import doc, lit, render_package
from civrules.load import Limits, read_yaml_file, read_yaml_text
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse, derived_facts
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace, shipped_text


def codes_of(text: str, limits: Limits | None = None) -> list[tuple[str, int, int]]:
    _, diagnostics = read_yaml_text(text, "f.yaml", limits or Limits())
    return [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span is not None]


# --- The reader --------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["0x", "0o"])
def test_hex_and_octal_integers_too_long_to_print_are_refused(prefix: str) -> None:
    """Python reads any number of hex digits, but every later stage prints numbers in decimal,
    which has a limit (4300 digits): jsonschema's error message raised ValueError (exit 2)."""
    digit = "f" if prefix == "0x" else "7"
    assert codes_of(f"n: {prefix}{digit * 10_000}\n") == [("L011", 1, 4)]
    document, diagnostics = read_yaml_text(f"n: {prefix}{digit * 100}\n", "f.yaml")
    assert (
        diagnostics == [] and document is not None and document.data["n"] == int(digit * 100, 16 if digit == "f" else 8)
    )


def test_aliases_cannot_nest_data_deeper_than_the_bound() -> None:
    """Each anchor a list holding the alias of the one before: flat text, data 900 levels deep;
    the resolver's merge patch (copy.deepcopy) raised RecursionError (exit 2)."""
    ladder = "l0: &l0 [x]\n" + "".join(f"l{k}: &l{k} [*l{k - 1}, x]\n" for k in range(1, 900))
    assert codes_of(ladder) == [("L006", 100, 12)]
    assert codes_of(ladder, Limits(max_depth=1000)) == []  # the bound, not the shape, refuses it
    assert codes_of("a: &a [[[x]]]\nb: [[*a]]\n") == []  # modest nesting through an alias is fine


def test_a_collection_with_a_forbidden_tag_is_reported_once() -> None:
    """Like a refused scalar, a refused collection becomes a null the schema does not judge again."""
    document, diagnostics = read_yaml_text("a: !!python/object:x {b: 1}\nc: !custom [1]\n", "f.yaml")
    assert [d.code for d in diagnostics] == ["L004", "L004"]
    assert document is not None and document.data == {"a": None, "c": None}
    assert document.refused == {("a",), ("c",)}


def test_a_file_is_read_only_up_to_the_bound_whatever_its_size_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that grows after stat (or a /proc file that says 0 bytes) is not read unbounded."""
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"a: " + b"x" * 5000 + b"\n")
    real = os.stat_result(os.stat(path))
    small = os.stat_result((real.st_mode, *real[1:6], 10, *real[7:]))
    monkeypatch.setattr(Path, "stat", lambda self, **_: small if self == path else os.stat(self))
    _, diagnostics = read_yaml_file(path, "growing.yaml", Limits(max_bytes=1000))
    assert [d.code for d in diagnostics] == ["L007"]


# --- Schema validation ---------------------------------------------------------------------------


def test_a_misspelt_key_inside_a_one_of_branch_is_reported() -> None:
    """Found by the fuzzer: a credit line with `0points` for `points` fails both branches of its
    oneOf; the best branch's best error was "missing `points`", dropped as the echo of an unknown
    key that was never reported. The file passed as valid and assembling it raised KeyError."""
    cards = shipped_text("cards/advanced-civilization.yaml")
    broken = cards.replace("{group: crafts, points: 10", "{group: crafts, poinst: 10", 1)
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": broken})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    assert [(d.code, d.hint) for d in errors] == [("S002", "did you mean `points`?")]
    line = broken[: broken.index("poinst")].count("\n") + 1
    assert errors[0].span is not None and errors[0].span.line == line


# --- Files outside rules/ and output that quotes them -------------------------------------------


def test_a_symbolic_link_out_of_rules_found_by_scanning_is_refused_unread(tmp_path: Path) -> None:
    """`validate` reads every file under rules/ and every manifest: a link out was read (and its
    content shown in diagnostics) unless a manifest named it."""
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "a.yaml").write_text((RULES / "rulesets" / "advanced-civilization.yaml").read_text())
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: [SECRET\n", encoding="utf-8")
    os.symlink(secret, rules / "rulesets" / "evil.yaml")
    os.symlink(secret, rules / "evil.yaml")
    workspace = Workspace(rules)
    for relative in ("rulesets/evil.yaml", "evil.yaml"):
        loaded = workspace.load(relative)
        assert loaded.document is None
        assert [(d.code, d.span) for d in loaded.diagnostics] == [("R003", Span.at(loaded.path))]


def test_quoting_a_line_reads_no_huge_file_and_follows_no_link(tmp_path: Path) -> None:
    """Text output quoted the line of a 100 MB file by reading all of it (374 MB of memory)."""
    big = tmp_path / "big.yaml"
    big.write_bytes(b"kind: map\n" + b"# padding\n" * 2000)
    link = tmp_path / "link.yaml"
    os.symlink(big, link)
    sources = SourceLines(root=tmp_path, max_bytes=1000)
    assert sources.line("big.yaml", 1) is None
    assert SourceLines(root=tmp_path).line("big.yaml", 1) == "kind: map"
    assert SourceLines(root=tmp_path).line("link.yaml", 1) is None
    text = render_text([Diagnostic("L007", Severity.ERROR, "too large", Span.at("big.yaml"))], sources)
    assert "kind: map" not in text


def test_json_output_is_written_record_by_record_in_the_same_format() -> None:
    """`--format json` for the 90,000 diagnostics of a file at the node bound held 526 MB: the
    indenting encoder keeps every piece of the output. Record by record, the text is the same."""
    related = (Related(Span("g.yaml", 1, 1, 1, 2), "note"),)
    found = [
        Diagnostic("X001", Severity.ERROR, 'a "quoted"\nmessage é', Span("f.yaml", 1, 2, 3, 4), "hint", related),
        Diagnostic("R004", Severity.ERROR, "no span", None),
    ]
    for diagnostics in (found, found[:1], []):
        expected = json.dumps([diagnostic_record(d) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"
        assert render_json(diagnostics) == expected


# --- Generated code ----------------------------------------------------------------------------


def test_a_ruleset_name_cannot_end_the_generated_docstring() -> None:
    """The ruleset name went raw into the package docstring: `\"\"\"` in it ended the docstring and
    what followed was code, run on import."""
    hostile = 'Evil """\nimport os; os.system("echo pwned")\n""" \\N \\'
    assert doc(hostile) == 'Evil \\"\\"\\"\nimport os; os.system(\\"echo pwned\\")\n\\"\\"\\" \\\\N \\\\'
    manifest = shipped_text("rulesets/advanced-civilization.yaml").replace(
        'name: "Advanced Civilization"',
        "name: " + '"' + hostile.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"',
        1,
    )
    workspace = CachedWorkspace({"rulesets/advanced-civilization.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert analysis.model is not None and analysis.resolved is not None and analysis.model.name == hostile
    files = render_package(
        of_family(analysis.model), export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    )
    init = files["advanced_civilization/__init__.py"].decode("utf-8")
    module = compile(init, "__init__.py", "exec")  # raised SyntaxError, or compiled the injected code
    assert "system" not in module.co_names
    data = files["advanced_civilization/data.py"].decode("utf-8")
    assert "system" not in compile(data, "data.py", "exec").co_names
    assert lit(hostile) in data and ast.literal_eval(lit(hostile)) == hostile  # RULESET_NAME keeps the exact string


@pytest.mark.parametrize(("ruleset_id", "what"), [("enum", "standard-library module"), ("in", "Python keyword")])
def test_a_ruleset_id_that_would_shadow_a_module_or_cannot_be_imported_is_refused(ruleset_id: str, what: str) -> None:
    """generated/python/enum/ would shadow the standard library's enum for every generated package."""
    manifest = f"kind: ruleset\nid: {ruleset_id}\nname: X\nextends: advanced-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    found = [d for d in analysis.diagnostics if d.code == "I003"]
    assert len(found) == 1 and what in found[0].message
    assert found[0].span is not None and (found[0].span.line, found[0].span.column) == (2, 5)


# --- Checks that were quadratic ------------------------------------------------------------------


def test_the_credit_cover_check_is_linear_in_the_number_of_cheap_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """C007 asked networkx for a path per (giver, target) pair and rescanned every credit line per
    target: 5,000 cheap Craft cards took 111 s. Now both are done once per giver, which this counts
    (the work, not the time: the verdict does not depend on the machine's load)."""
    import networkx

    from civrules.families.advanced_civilization.checks import cards as module

    calls = {"ancestors": 0, "counting_lines": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    cards = shipped_text("cards/advanced-civilization.yaml")
    added = "".join(
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: 10, prerequisites: [], '
        "credits: [], attributes: []}\n"
        for i in range(2000)
    )
    workspace = CachedWorkspace(
        {"cards/advanced-civilization.yaml": cards.replace("\ncards:\n", "\ncards:\n" + added, 1)}
    )
    analysis = analyse(
        workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]), select=["C006"]
    )
    assert analysis.model is not None
    (check,) = [c for c in all_checks() if c.code.code == "C007"]
    monkeypatch.setattr(networkx, "ancestors", counted("ancestors", networkx.ancestors))
    monkeypatch.setattr(module, "counting_lines", counted("counting_lines", module.counting_lines))
    found = list(check.run(analysis.model))
    assert len(found) == 7  # one per Craft card's group credit, each covering the 2,000 cards
    assert all(len(d.related) == 2000 for d in found)
    givers = len(of_family(analysis.model).cards)
    assert 0 < calls["ancestors"] <= givers, calls  # per (giver, target) pair it was 14,000
    assert 0 < calls["counting_lines"] <= givers, calls


# --- The command line --------------------------------------------------------------------------


def test_a_broken_manifest_named_on_the_command_line_shows_its_errors(family_copy: Path) -> None:
    """`validate NAME` with NAME's manifest unreadable said "no ruleset NAME" (exit 2)."""
    (family_copy / "rulesets" / "broken.yaml").write_text("kind: ruleset\nid: broken\nname: [\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "validate", "broken"])
    assert result.exit_code == 1
    assert "broken.yaml:4:1: error[L001]" in result.stdout
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "validate", "nowhere"])
    assert result.exit_code == 2 and "no ruleset `nowhere`" in result.stdout


# --- Output, work and exit 0 (issue 14, points 4 to 6) ------------------------------------------


def test_list_escapes_what_it_prints_and_opens_no_workflow_command(family_copy: Path) -> None:
    """`list` printed manifest fields raw, even into a pipe; a manifest it lists need not be valid."""
    (family_copy / "rulesets" / "evil.yaml").write_text(
        'kind: ruleset\nid: "::error::pwned"\nname: "a\\tb"\nextends: advanced-civilization\n', encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "list"])
    assert result.exit_code == 0
    (line,) = [line for line in result.stdout.splitlines() if "pwned" in line]
    assert line.startswith("./::error::pwned") and "a\\tb" in line


def test_the_cli_lists_at_most_max_diagnostics_per_file(family_copy: Path) -> None:
    (family_copy / "rulesets" / "hostile.yaml").write_text(
        "kind: ruleset\nid: hostile\nname: H\nextends: advanced-civilization\n"
        + "".join(f"k{n}: 1\n" for n in range(5)),
        encoding="utf-8",
    )
    for limit, listed in ((None, 5), ("3", 3)):
        options = ["--max-diagnostics", limit] if limit else []
        result = CliRunner().invoke(
            main, ["--rules", str(family_copy), *options, "validate", "hostile", "--format", "json"]
        )
        found = json.loads(result.stdout)
        assert result.exit_code == 1
        assert sum(d["code"] == "S002" for d in found) == listed
        assert [d["message"] for d in found if d["code"] == "R011"] == (
            ["civrules stopped checking this file after 3 diagnostics; it has more"] if limit else []
        )


def test_control_characters_written_as_escapes_are_refused_where_they_are() -> None:
    """A NUL in a name validated and built, and the generated package did not import."""
    text = 'a: "x\\0y"\n"k\\e": 1\nb: ["ok\\ttab\\nline", "\\x85"]\nc: "\\u202e"\n'
    document, diagnostics = read_yaml_text(text, "f.yaml")
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics if d.span] == [
        ("L008", 1, 4),
        ("L008", 2, 1),
        ("L008", 3, 22),
        ("L008", 4, 4),
    ]
    assert document is not None and document.data == {"a": None, "b": ["ok\ttab\nline", None], "c": None}
    assert document.refused == {("a",), ("b", 1), ("c",)}  # judged once: not again by the schema


@pytest.mark.parametrize("written", ["1e3", "1000.0", "!!float 1000"])
def test_a_whole_float_is_not_an_integer(written: str) -> None:
    """jsonschema and fastjsonschema both took 1000.0 for an integer; the package got a float."""
    cards = shipped_text("cards/advanced-civilization.yaml")
    broken = cards.replace("    cost: 45\n", f"    cost: {written}\n", 1)
    workspace = CachedWorkspace({"cards/advanced-civilization.yaml": broken})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    (error,) = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    line = broken[: broken.index(f"cost: {written}")].count("\n") + 1
    assert (error.code, error.span is not None and error.span.line) == ("S001", line)
    assert error.hint == "write the whole number `1000`: YAML reads `1e3` or `1000.0` as a fraction"


def test_unique_items_is_linear_and_means_what_json_schema_means() -> None:
    from civrules.schema import _validator_class

    unique = _validator_class()({"uniqueItems": True})
    assert unique.is_valid([1, True, "1", [1], {"a": 1}, {"a": True}, None, 0, False])
    for repeated in ([1, 1.0], [{"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}], [[1, "x"], [1, "x"]]):
        assert not unique.is_valid(repeated), repeated
    mixed = [n if n % 2 else f"s{n}" for n in range(200_000)]  # unsortable: jsonschema compared all pairs
    assert unique.is_valid(mixed) and not unique.is_valid([*mixed, 7])


def test_did_you_mean_compares_a_bounded_number_of_candidates() -> None:
    """X001 asked difflib for every missing id against every id: 10,000 of each took 255 s."""
    words = [f"card_{n:05d}" for n in range(20_000)] + ["astronomy", "agriculture"]
    assert (Vocabulary(words).comparisons, Vocabulary(words).queries) == (COMPARISONS, QUERIES)  # the defaults
    vocabulary = Vocabulary(words)
    assert vocabulary.closest("astronmy") == "astronomy"
    assert len(vocabulary._candidates(len("card_00000"))) == COMPARISONS
    # The bound on distinct words, with a smaller one than QUERIES: each answer costs COMPARISONS ratios.
    bounded = Vocabulary(words, queries=40)
    assert bounded.closest("astronmy") == "astronomy"
    for n in range(40 + 10):
        bounded.closest(f"missing_{n}")
    assert len(bounded.answers) == 40  # later misspellings get no suggestion
    assert bounded.closest("astronmy") == "astronomy"  # answered before the bound: kept
    assert bounded.closest("agricultur") is None  # a new word after the bound
