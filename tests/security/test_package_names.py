"""Ruleset ids become Python packages and distributions. A ruleset's package lives in civrules' own
namespace, ``civrules_rulesets.<id>``, so no id can make it replace, shadow or be imported in place
of another module: `pip`, `sitecustomize`, `yaml`, `click`, `enum` build like any other id, and the
verdict depends on the rules alone. Its distribution is ``civrules-rulesets-<id>``, in civrules' own
namespace of distribution names, so no id can make it a runtime's, a game family's or another
project's (`runtime`, `runtime-chess`, `example-family` build like any other id). Refused at its
line, before anything is written: an id that is not kebab-case (S001: pip would read
`civrules-rulesets-a--b` as `civrules-rulesets-a-b`, another ruleset's), that cannot be imported (a
keyword), that Windows cannot name a file after (`aux`), or that is too long to name a folder (I003).
How hostile names become safe literals inside a package is in
tests/families/advanced_civilization/test_codegen.py; the metadata's escaping in
tests/generated/test_distributions.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from civrules.cli import main
from civrules.emit.output import read_tree
from civrules.emit.packaging import (
    RULESET_ID,
    RULESET_ID_PATTERN,
    WINDOWS_DEVICE_NAMES,
    distribution_name,
    normalized_distribution,
    package_name,
    ruleset_id_problems,
)
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.budget import heavy
from tests.conftest import RULES, copy_rulesets
from tests.rulefiles import CachedWorkspace


def errors(ruleset_id: str, code: str = "I003") -> list[tuple[str, int, int]]:
    """The ``code`` errors of a variant of Advanced Civilization with this id: (message, line, column)."""
    manifest = f"kind: ruleset\nid: {ruleset_id}\nname: X\nextends: advanced-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    return [(d.message, d.span.line, d.span.column) for d in analysis.diagnostics if d.code == code and d.span]


def i003(ruleset_id: str) -> list[tuple[str, int, int]]:
    return errors(ruleset_id)


@pytest.mark.parametrize(
    ("ruleset_id", "what"),
    [
        ("in", "Python keyword"),
        ("import", "Python keyword"),
        ("aux", "a device name on Windows"),
        ("con", "a device name on Windows"),
        ("nul", "a device name on Windows"),
        ("com1", "a device name on Windows"),
        ("lpt9", "a device name on Windows"),
    ],
)
def test_an_id_that_cannot_be_imported_or_name_a_file_is_refused(ruleset_id: str, what: str) -> None:
    found = i003(ruleset_id)
    assert len(found) == 1 and what in found[0][0], found
    assert found[0][1:] == (2, 5)


@pytest.mark.parametrize(
    "ruleset_id",
    # An installer, a module Python runs at start-up, civrules' dependencies, the standard library,
    # civrules itself, soft keywords, civrules' runtimes and a game family's distribution: inside
    # the namespaces none of them is a threat.
    [
        "pip", "sitecustomize", "usercustomize", "yaml", "click", "jinja2", "enum", "typing", "civrules", "match",
        "type", "runtime", "runtime-advanced-civilization", "runtime-chess", "example-family", "rulesets",
    ],
)  # fmt: skip
def test_an_id_named_like_an_installed_module_or_distribution_is_accepted(ruleset_id: str) -> None:
    assert i003(ruleset_id) == []


def test_a_ruleset_named_pip_builds_into_the_namespace_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`civrules build` writes a ruleset `pip`'s package as civrules_rulesets/pip/ and its
    distribution as `civrules-rulesets-pip`: nothing it writes can be imported as `pip`."""
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    for name in ("pip", "sitecustomize"):
        (rules / "rulesets" / f"{name}.yaml").write_text(
            f"kind: ruleset\nid: {name}\nname: House rules\nextends: advanced-civilization\n", encoding="utf-8"
        )
    out = tmp_path / "generated"
    with pytest.raises(SystemExit) as ended:
        main(["--rules", str(rules), "build", "--out", str(out), "pip", "sitecustomize"])
    assert ended.value.code in (0, None), capsys.readouterr().err
    tree = read_tree(out)
    tops = {path.split("/")[1] for path in tree if path.startswith("python/")}
    assert tops == {"civrules_rulesets", "civrules_runtime", "civrules_runtime_advanced_civilization"}
    assert "python/civrules_rulesets/pip/__init__.py" in tree
    assert "python/civrules_rulesets/sitecustomize/__init__.py" in tree
    assert not any(path.startswith("python/civrules_rulesets/__init__") for path in tree)  # a namespace: no owner
    assert b'name = "civrules-rulesets-pip"' in tree["python/civrules_rulesets/pip/pyproject.toml"]


def test_no_ruleset_id_names_a_runtimes_distribution() -> None:
    """A ruleset's distribution is in the rulesets' namespace whatever its id: never a runtime's,
    for any family, installed here or not, so civrules need not keep `runtime-...` ids for them."""
    from civrules.emit.packaging import RUNTIME_DISTRIBUTION, family_runtime_distribution
    from civrules.families import families

    runtimes = {RUNTIME_DISTRIBUTION} | {
        family_runtime_distribution(family) for family in [*families(), "chess", "some-family-from-elsewhere"]
    }
    for runtime in runtimes:
        ruleset_id = runtime.removeprefix("civrules-")  # the id that took the runtime's name before
        assert ruleset_id_problems(ruleset_id) == [], ruleset_id
        assert normalized_distribution(distribution_name(ruleset_id)) not in runtimes
        assert distribution_name(ruleset_id) == f"civrules-rulesets-{ruleset_id}"


@pytest.mark.parametrize(
    ("ruleset_id", "read_as"),
    [
        ("a--b", "`civrules-rulesets-a-b`, the distribution of a ruleset `a-b`"),
        ("runtime--advanced-civilization", "`civrules-rulesets-runtime-advanced-civilization`, the distribution of a"),
        ("runtime-", "would end in a hyphen"),
        ("house-", "would end in a hyphen"),
    ],
)
def test_an_id_pip_reads_as_another_is_refused_at_its_line(ruleset_id: str, read_as: str) -> None:
    """The schema's `ruleset_id` is kebab-case with single hyphens; its hint says what pip would read."""
    found = errors(ruleset_id, "S001")
    assert [line_column for _, *line_column in found] == [[2, 5]], found
    manifest = f"kind: ruleset\nid: {ruleset_id}\nname: X\nextends: advanced-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    (hint,) = [d.hint for d in analysis.diagnostics if d.code == "S001"]
    assert hint is not None and "words joined by single hyphens" in hint and read_as in hint, hint


@pytest.mark.parametrize("ruleset_id", ["a--b", "a_b", "A-b", "a.b", "a-_-b", "runtime_x"])
def test_an_id_pip_reads_as_another_is_refused_whatever_a_familys_schema_allows(ruleset_id: str) -> None:
    """I003 does not rely on the schema's pattern: a family from elsewhere may declare a laxer one."""
    (problem,) = ruleset_id_problems(ruleset_id)
    assert problem.malformed and "pip reads" in problem.message, problem


@heavy
@given(st.from_regex(RULESET_ID, fullmatch=True))
def test_distinct_accepted_ids_are_distinct_distributions_and_packages(ruleset_id: str) -> None:
    """A kebab-case id's distribution is already as pip compares names, and its package name has
    no other spelling: two rulesets of a folder, or one and a shipped one, collide only if their
    ids are equal (which the workspace refuses)."""
    canonicalize_name = pytest.importorskip("packaging.utils").canonicalize_name
    distribution = distribution_name(ruleset_id)
    assert normalized_distribution(distribution) == canonicalize_name(distribution) == distribution
    assert package_name(ruleset_id).replace("_", "-") == ruleset_id


def test_every_ruleset_schema_holds_the_id_pattern_the_check_enforces() -> None:
    from civrules.schema import SCHEMA_FILES, load_schema

    kinds = [kind for kind in SCHEMA_FILES if kind.split("/")[-1] == "ruleset"]
    assert len(kinds) >= 3
    for kind in kinds:
        assert load_schema(kind)["$defs"]["ruleset_id"]["pattern"] == RULESET_ID_PATTERN, kind


def test_windows_device_names_are_refused_in_any_case() -> None:
    for name in sorted(WINDOWS_DEVICE_NAMES):
        assert ruleset_id_problems(name) and ruleset_id_problems(name.upper())
    assert not ruleset_id_problems("aux-rules") and not ruleset_id_problems("com10")


def test_building_ids_pip_reads_as_one_fails_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The trial's `civrules build runtime--advanced-civilization a--b a-b`: both refused at
    their line, and nothing of theirs written (what the build writes of `a-b` is its own)."""
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    for name in ("runtime--advanced-civilization", "a--b", "a-b"):
        (rules / "rulesets" / f"{name}.yaml").write_text(
            f"kind: ruleset\nid: {name}\nname: House rules {name}\nextends: advanced-civilization\n", encoding="utf-8"
        )
    out = tmp_path / "generated"
    with pytest.raises(SystemExit) as ended:
        main(["--rules", str(rules), "build", "--out", str(out), "runtime--advanced-civilization", "a--b", "a-b"])
    assert ended.value.code == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert "runtime--advanced-civilization.yaml:2:5: error[S001]" in text and "a--b.yaml:2:5: error[S001]" in text
    written = read_tree(out) if out.exists() else {}
    assert not any("a__b" in path or "runtime__" in path or "runtime--" in path for path in written), sorted(written)


# `v\udcff`: a name typed in another encoding than UTF-8 (the byte 0xff), as Python reads it from
# the command line; it ended in R900 where the id's length was measured in UTF-8.
@pytest.mark.parametrize("name", ["aux", "AUX", "a--b", "house-", "v\udcff"])
def test_new_variant_refuses_the_ids_the_check_refuses(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    before = sorted(path.name for path in (rules / "rulesets").iterdir())
    with pytest.raises(SystemExit) as ended:
        main(["--rules", str(rules), "new-variant", name, "--extends", "advanced-civilization"])
    assert ended.value.code == 2
    out = capsys.readouterr().out
    shown = name.replace("\udcff", "\\udcff")  # printed escaped
    assert f"ruleset id `{shown}`" in out and "error[R008]" in out
    assert "hint: `civrules new-variant --help` lists what it takes" in out
    assert sorted(path.name for path in (rules / "rulesets").iterdir()) == before


def test_a_ruleset_id_too_long_to_name_a_folder_is_i003() -> None:
    long_id = "a" * 101
    text = f"kind: ruleset\nid: {long_id}\nname: Long\nextends: advanced-civilization\n"
    workspace = Workspace(RULES, overrides={f"rulesets/{long_id}.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[long_id]))
    assert [(d.code, d.span.line if d.span else 0) for d in analysis.diagnostics if d.severity == "error"] == [
        ("I003", 2)
    ]


@pytest.mark.parametrize("ruleset_id", ["1e3", "123", "0x10"])
def test_an_id_of_digits_and_letters_that_starts_with_a_digit_is_told_it_must_start_with_a_letter(
    ruleset_id: str,
) -> None:
    """`1e3` is lower-case letters and digits: the rule it breaks is the letter it must start with."""
    result = CliRunner().invoke(main, ["init", "unused-folder", "--name", ruleset_id])
    assert result.exit_code == 2
    assert "starting with a letter" in result.output, result.output


@pytest.mark.parametrize(
    ("ruleset_id", "meant"), [("My Variant", "my-variant"), ("House_Rules", "house-rules"), ("a--b", "a-b")]
)
def test_an_id_not_kebab_case_is_told_the_kebab_case_id_it_reads_as(ruleset_id: str, meant: str) -> None:
    """Trial: `new-variant "My Variant"` was told the rule for ids and `civrules new-variant --help`,
    not the id to type: the hint ends with it where it is one a ruleset can have."""
    [problem] = ruleset_id_problems(ruleset_id)
    assert problem.hint.endswith(f", e.g. `{meant}`"), problem.hint


def test_no_kebab_case_id_is_proposed_that_is_refused_itself() -> None:
    """`AUX` reads as `aux`, a device name on Windows: no id is proposed."""
    [problem] = ruleset_id_problems("AUX")
    assert "e.g." not in problem.hint
