"""Ruleset ids become Python packages and distributions. A ruleset's package lives in civrules' own
namespace, ``civrules_rulesets.<id>``, so no id can make it replace, shadow or be imported in place
of another module: `pip`, `sitecustomize`, `yaml`, `click`, `enum` build like any other id, and the
verdict depends on the rules alone. Refused at its line (I003), before anything is written: an id
that cannot be imported (a keyword), whose distribution would be a runtime's or no valid
distribution name, or that is too long to name a folder.
How hostile names become safe literals inside a package is in
tests/families/advanced_civilization/test_codegen.py; the metadata's escaping in
tests/generated/test_distributions.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.cli import main
from civrules.emit.output import read_tree
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import RULES, copy_rulesets
from tests.rulefiles import CachedWorkspace


def i003(ruleset_id: str) -> list[tuple[str, int, int]]:
    """The I003 errors of a variant of Advanced Civilization with this id: (message, line, column)."""
    manifest = f"kind: ruleset\nid: {ruleset_id}\nname: X\nextends: advanced-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": manifest})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    return [(d.message, d.span.line, d.span.column) for d in analysis.diagnostics if d.code == "I003" and d.span]


@pytest.mark.parametrize(
    ("ruleset_id", "what"),
    [
        ("in", "Python keyword"),
        ("import", "Python keyword"),
        ("runtime", "the shared runtime's"),
        ("runtime-advanced-civilization", "a family runtime's"),
        ("runtime-imperial-settlers", "a family runtime's"),
        ("house-", "ends in a letter or digit"),
    ],
)
def test_an_id_that_cannot_be_imported_or_would_take_a_runtimes_distribution_is_refused(
    ruleset_id: str, what: str
) -> None:
    found = i003(ruleset_id)
    assert len(found) == 1 and what in found[0][0], found
    assert found[0][1:] == (2, 5)


@pytest.mark.parametrize(
    "ruleset_id",
    # An installer, a module Python runs at start-up, civrules' dependencies, the standard library,
    # civrules itself, soft keywords: inside the namespace none of them is a threat.
    ["pip", "sitecustomize", "usercustomize", "yaml", "click", "jinja2", "enum", "typing", "civrules", "match", "type"],
)
def test_an_id_named_like_an_installed_module_is_accepted(ruleset_id: str) -> None:
    assert i003(ruleset_id) == []


def test_a_ruleset_named_pip_builds_into_the_namespace_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`civrules build` writes a ruleset `pip`'s package as civrules_rulesets/pip/ and its
    distribution as `civrules-pip`: nothing it writes can be imported as `pip`."""
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
    assert b'name = "civrules-pip"' in tree["python/civrules_rulesets/pip/pyproject.toml"]


def test_the_reserved_distributions_are_those_the_emitter_writes() -> None:
    """A ruleset `runtime-<family>` would be distributed as that family runtime's distribution."""
    from civrules.checks.identity import RESERVED_DISTRIBUTIONS
    from civrules.emit.packaging import RUNTIME_DISTRIBUTION, family_runtime_distribution
    from civrules.families import families

    assert RUNTIME_DISTRIBUTION in RESERVED_DISTRIBUTIONS
    for family in families():
        assert family_runtime_distribution(family) in RESERVED_DISTRIBUTIONS


def test_a_ruleset_id_too_long_to_name_a_folder_is_i003() -> None:
    long_id = "a" * 101
    text = f"kind: ruleset\nid: {long_id}\nname: Long\nextends: advanced-civilization\n"
    workspace = Workspace(RULES, overrides={f"rulesets/{long_id}.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[long_id]))
    assert [(d.code, d.span.line if d.span else 0) for d in analysis.diagnostics if d.severity == "error"] == [
        ("I003", 2)
    ]
