"""The suite holds what the project ships in ``rules/``, and a designer's own ruleset beside it
fails none of its tests (tests/shipped.py).

Round 32's newcomer followed the README's "Start a variant in five minutes" in the project's own
folder: with ``rules/rulesets/my-variant.yaml`` there, ``make test`` failed four tests (the
README's table, the helpers, the sheet texts, and the game-terms guard, which read ``my-variant``
as a game's term in the core), because they read whatever ``rules/`` held as the shipped data.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from civrules.cli import main
from tests import rulefiles, shipped
from tests.budget import heavy
from tests.conftest import REPO, copy_shipped
from tests.core import test_audit_sample as audit_sample
from tests.core import test_game_terms as game_terms
from tests.core import test_unknowns as unknowns

#: The designers' own rulesets: the README's five-minute variant, and one of another family.
DESIGNERS = {"my-variant": "expansion-project", "my-settlers": "imperial-settlers"}


def test_the_shipped_rulesets_and_files_are_what_git_tracks() -> None:
    """In a clone (as CI runs) the list and the tracked files are the same: a ruleset added to the
    project is added to tests/shipped.py too, and every shipped file is one a shipped ruleset reads
    (or one of its other files)."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the list is checked where git tracks the files")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", "rules"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    tracked = sorted(Path(name).relative_to("rules").as_posix() for name in listed.split("\0") if name)
    assert list(shipped.files()) == tracked
    manifests = sorted(Path(f).stem for f in tracked if f.startswith("rulesets/"))
    assert manifests == sorted(shipped.RULESETS), "a ruleset the project ships goes into tests/shipped.py"


def test_the_listed_bases_are_what_the_manifests_extend() -> None:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    extends = {}
    for manifest in shipped.manifests():
        base = yaml.load(manifest.read_text(encoding="utf-8"), Loader=loader).get("extends")
        if base is not None:
            extends[manifest.stem] = base
    assert extends == shipped.EXTENDS, "a variant the project ships goes into tests/shipped.py EXTENDS"


def _caches_clear() -> None:
    for cached in (shipped.ruleset_files, shipped.files, rulefiles._shipped_rule_files, game_terms.data_terms):
        getattr(cached, "cache_clear", lambda: None)()


@pytest.fixture
def designer_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of rules/ with the designers' variants made by `civrules new-variant`, read by the
    suite's helpers as its rules/ (the README's tutorial run in the project's folder)."""
    copy = tmp_path / "rules"
    copy_shipped(copy)
    for name, base in DESIGNERS.items():
        made = CliRunner().invoke(main, ["new-variant", name, "--extends", base, "--rules", str(copy)])
        assert made.exit_code == 0, made.output
    for module in (shipped, rulefiles, game_terms, unknowns):
        monkeypatch.setattr(module, "RULES", copy)
    _caches_clear()
    try:
        yield copy
    finally:
        monkeypatch.undo()
        _caches_clear()  # nothing read from the copy outlives the test


def test_a_designers_ruleset_in_rules_is_not_the_projects(designer_rules: Path) -> None:
    assert {f"{name}.yaml" for name in DESIGNERS} <= {p.name for p in (designer_rules / "rulesets").iterdir()}
    # The shipped files and rulesets are the project's, whatever else rules/ holds.
    assert sorted(Path(f).stem for f in shipped.files() if f.startswith("rulesets/")) == sorted(shipped.RULESETS)
    assert not {f"rulesets/{name}.yaml" for name in DESIGNERS} & set(shipped.files())
    # The workspace the suite's tests of the shipped data share sees only them.
    assert sorted(rulefiles.CachedWorkspace().manifests()) == sorted(shipped.RULESETS)


def test_a_designers_ruleset_is_no_game_term(designer_rules: Path) -> None:
    """The game-terms guard read "my-variant" (a ruleset's id) and "My Variant" (its name) as a
    game's terms, and found the first in the core's own words (new-variant's example)."""
    names, data = game_terms.game_names(), game_terms.data_terms()
    assert not {"my-variant", "My Variant", "my-settlers", "My Settlers"} & (names | data)
    assert {"expansion-project", "Expansion Project", "imperial-settlers"} <= names


def test_the_readme_and_audit_tests_hold_the_shipped_rulesets(designer_rules: Path) -> None:
    """The README's table of rulesets and the audit's coverage are held to the shipped rulesets;
    both failed, naming the designer's variant."""
    unknowns.test_the_readme_lists_every_ruleset()
    for audit in audit_sample.AUDITS:
        audit_sample.test_the_audit_draws_ten_facts_of_each_shipped_ruleset_and_two_of_each_variant(audit)


#: The test modules that list what ``generated/`` holds when they are collected, and the listings
#: (a name ending in ``()``: a function, called).
WALKERS = {
    "generated/test_distributions.py": ("PYPROJECTS",),
    "generated/test_package_versions.py": ("PACKAGES", "RULESET_IDS"),
    "generated/test_package_values.py": ("PACKAGES",),
    "generated/test_helper_id_types.py": ("PACKAGES",),
    "generated/test_docstring_examples.py": ("MODULES",),
    "generated/test_table_headers.py": ("PAGES",),
    "generated/test_helper_labels.py": ("HELPERS",),
    "core/test_sheet_words.py": ("ALL",),
    "engine/test_unknown_collections.py": ("PACKAGES",),
    "engine/test_type_hints.py": ("EVERY_PACKAGE",),
    "generated/test_sheet_languages.py": ("_shipped()",),
    "generated/test_helper_languages.py": ("_shipped()",),
}


def _named(value: object) -> str:
    return str(getattr(value, "values", value))  # a pytest.param: its values


@heavy
def test_a_designers_built_variant_is_no_output_of_the_project(
    designer_rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's five-minute variant, built (`make`, `civrules build`), puts its package, sheets
    and helper page into generated/ beside the shipped ones: test_distributions counted 12 packages
    where 11 are shipped, and the tests walking generated/ judged the variant's files with checks
    meant for the shipped outputs (its package against their API snapshot). They hold the shipped
    rulesets' outputs and the runtimes, never a designer's (tests/shipped.py, :func:`shipped.built`)."""
    import importlib.util
    import shutil
    import sys

    from tests import conftest

    repo = tmp_path / "repo"
    generated = repo / "generated"
    shutil.copytree(REPO / "generated", generated)
    for entry in REPO.iterdir():  # the rest of the checkout as it is (the modules read compiler/tools/)
        if entry.name not in ("generated", ".git"):
            (repo / entry.name).symlink_to(entry)
    names = sorted(DESIGNERS)
    built = CliRunner().invoke(main, ["--rules", str(designer_rules), "build", *names, "--out", str(generated)])
    assert built.exit_code == 0, built.output
    assert (generated / "python" / "civrules_rulesets" / "my_variant" / "pyproject.toml").is_file()
    assert (generated / "sheets" / "my-settlers").is_dir() and (generated / "helpers" / "my-variant.html").is_file()
    monkeypatch.setattr(conftest, "REPO", repo)
    monkeypatch.setattr(conftest, "GENERATED_PYTHON", generated / "python")
    monkeypatch.setattr(shipped, "GENERATED", generated, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the modules put generated/python on it
    designers = (*names, *(name.replace("-", "_") for name in names))
    for relative, listings in WALKERS.items():
        path = REPO / "tests" / relative
        spec = importlib.util.spec_from_file_location(f"_walker_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up there
        spec.loader.exec_module(module)  # its listings made as at collection, over the designer's generated/
        for listing in listings:
            found_by = getattr(module, listing.removesuffix("()"))
            listed = [_named(value) for value in (found_by() if listing.endswith("()") else found_by)]
            assert listed, (relative, listing)
            found = [value for value in listed if any(name in value for name in designers)]
            assert not found, f"{relative} {listing} holds a designer's variant: {found[:3]}"
        if relative == "generated/test_distributions.py":
            module.test_every_package_and_runtime_has_metadata()
    # What the tests list as they run is the project's too.
    for pattern in ("python/**/*.py", "python/**/pyproject.toml", "sheets/*/*.html", "helpers/*.html", "sheets/*"):
        listed = [path.relative_to(generated).as_posix() for path in shipped.built(pattern)]
        assert listed and not [value for value in listed if any(name in value for name in designers)], pattern
