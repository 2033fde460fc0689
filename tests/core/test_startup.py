"""What a run imports: only what the rulesets at hand need (issue 32, point 5: start-up time).

Measured by which modules a run leaves in ``sys.modules``, in one fresh interpreter for the whole
file (a second interpreter per case would cost more than the cases), never by time; what a run
reports is checked in process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import REPO, copy_rulesets

#: Runs civrules' CLI in process once per argument (a JSON list of CLI arguments), printing after each
#: run the modules of interest it left imported.
PROGRAM = """
import json, sys
from civrules.cli import main
for given in sys.argv[1:]:
    before = set(sys.modules)
    try:
        main(json.loads(given), standalone_mode=False)
    except SystemExit:
        pass
    watched = ("jsonschema", "networkx", "civrules.families.")
    print(json.dumps(sorted(m for m in set(sys.modules) - before if m.startswith(watched) and m.count(".") <= 3)))
"""


def _imports(*runs: list[str]) -> list[list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, *(json.dumps(run) for run in runs)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]


def test_a_clean_validate_imports_its_own_family_only_and_no_jsonschema() -> None:
    """The shipped Sid Meier's community variant names no family and extends a Sid Meier's ruleset:
    it is validated once, as Sid Meier's (judged first as Advanced Civilization's, it failed the
    compiled validator and imported jsonschema); validating it imports no other family's checks or
    model, nor networkx (Advanced Civilization's graph checks)."""
    rules = str(REPO / "rules")
    (sid_meiers,) = _imports(["--rules", rules, "validate", "sid-meiers-civilization-community"])
    assert not [m for m in sid_meiers if m.startswith(("jsonschema", "networkx"))], sid_meiers
    assert "civrules.families.sid_meiers_civilization.checks" in sid_meiers
    # The other families' register entries (their packages) only: no model, check or emitter.
    others = ("civrules.families.imperial_settlers.", "civrules.families.advanced_civilization.")
    assert not [m for m in sid_meiers if m.startswith(others)], sid_meiers


def test_a_variant_naming_no_family_is_judged_by_its_base_family_schema(tmp_path: Path) -> None:
    """Judged once, as its base's family: its schema errors are that family's (the failing fixture
    of the hint that picks the schema before the family is settled)."""
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    variant = (
        "kind: ruleset\nid: smc-variant\nname: A variant\nextends: sid-meiers-civilization\n"
        "players: {min: many, best: 4}\n"
    )
    judged = []
    for text in (variant, variant.replace("extends:", "family: sid-meiers-civilization\nextends:")):
        (rules / "rulesets" / "smc-variant.yaml").write_text(text)
        done = CliRunner().invoke(main, ["--rules", str(rules), "validate", "smc-variant", "--format", "json"])
        assert done.exit_code == 1, done.stderr
        judged.append([(d["code"], d["message"]) for d in json.loads(done.stdout) if d["severity"] == "error"])
    # `best` is a key of Sid Meier's players only (another family's schema: an unknown key); the
    # keys it leaves out, its base gives (the setting merges into the base's: no missing key).
    assert [code for code, _ in judged[0]] == ["S001"], judged[0]
    # The same findings as when it names its family itself (a line further down).
    assert judged[0] == judged[1]
