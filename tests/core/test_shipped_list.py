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
from click.testing import CliRunner

from civrules.cli import main
from tests import rulefiles, shipped
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
        audit_sample.test_the_audit_lists_at_least_sixty_facts_of_every_shipped_ruleset(audit)
