"""`civrules build`: the generated engine packages, their helpers, determinism and safety."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import main
from compiler.commodities import set_value, set_value_rule
from compiler.credits import credit_matrix
from compiler.emit.output import read_tree
from compiler.pipeline import analyse
from compiler.workspace import Workspace
from tests.conftest import REPO, RULES

RULESETS = ("advanced-civilization", "advanced-civilization-western")


def build(out: Path, rules: Path = RULES, *args: str, seed: str = "0") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-m", "compiler", "--rules", str(rules), "build", "--out", str(out), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
        timeout=300,
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated") / "generated"
    done = build(out)
    assert done.returncode == 0, done.stderr
    return out


def run_python(generated: Path, code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(generated / "python")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_package_imports_in_a_fresh_interpreter_without_the_compiler(generated: Path, ruleset: str) -> None:
    package = ruleset.replace("-", "_")
    out = run_python(
        generated,
        f"import sys, {package} as p\n"
        "assert not any(m == 'compiler' or m.startswith('compiler.') for m in sys.modules)\n"
        "assert not any(m.split('.')[0] in ('yaml', 'jinja2', 'networkx', 'click') for m in sys.modules)\n"
        "print(p.RULESET_ID, len(p.CARDS), len(p.AREAS), len(p.RULESET_FINGERPRINT))",
    )
    assert out.split()[0] == ruleset
    assert out.split()[3] == "64"


def test_helper_doctests_pass(generated: Path) -> None:
    out = run_python(
        generated,
        "import doctest, advanced_civilization.helpers as h\nfailed, tried = doctest.testmod(h)\nprint(failed, tried)",
    )
    failed, tried = map(int, out.split())
    assert failed == 0
    assert tried >= 4


def test_rulebook_worked_examples_through_the_generated_helpers(generated: Path) -> None:
    out = run_python(
        generated,
        "from advanced_civilization import CardId as C, CommodityId as G, credit_toward, purchase_cost, set_value\n"
        # 2.8: Drama and Poetry, Architecture and Literacy reduce Democracy's cost by 45.
        "print(credit_toward([C.DRAMA_AND_POETRY, C.ARCHITECTURE, C.LITERACY], C.DEMOCRACY))\n"
        "print(purchase_cost([C.DRAMA_AND_POETRY, C.ARCHITECTURE, C.LITERACY], C.DEMOCRACY))\n"
        # 31.58: Mysticism gives 5 toward Music (60): 5 credit + 45 in cards + 10 treasury.
        "print(credit_toward([C.MYSTICISM], C.MUSIC), purchase_cost([C.MYSTICISM], C.MUSIC))\n"
        "print(set_value(G.GRAIN, 3) + set_value(G.PAPYRUS, 2) + set_value(G.HIDES, 1))\n"
        # 28.53, 32.261: Mining turns 3 Iron from 18 into 32, 2 Gems from 32 into 72, 3 Bronze from 54 into 96.
        "print(set_value(G.IRON, 3), set_value(G.IRON, 3, mining=True))\n"
        "print(set_value(G.GEMS, 2), set_value(G.GEMS, 2, mining=True))\n"
        "print(set_value(G.BRONZE, 3), set_value(G.BRONZE, 3, mining=True))\n"
        # 31.54: Astronomy's 20 applies once to each of Coinage and Medicine.
        "print(credit_toward([C.ASTRONOMY], C.COINAGE), credit_toward([C.ASTRONOMY], C.MEDICINE))\n",
    )
    assert out.split("\n")[:8] == ["45", "155", "5 55", "45", "18 32", "32 72", "54 96", "20 20"]


def test_generated_tables_equal_the_compilers_for_every_pair(generated: Path) -> None:
    workspace = Workspace(RULES)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    model = analysis.model
    assert model is not None
    matrix = credit_matrix(model)
    rule = set_value_rule(model)
    expected_credit = [
        f"{owned.id} {target.id} {matrix.get(owned.id, {}).get(target.id, 0)}"
        for owned in model.cards
        for target in model.cards
        if owned.id != target.id
    ]
    expected_sets = [
        f"{good.id} {n} {int(mining)} {set_value(good, n, mining, rule)}"
        for good in model.commodities
        for n in range(int(good.count) + 1)  # type: ignore[arg-type]
        for mining in (False, True)
    ]
    out = run_python(
        generated,
        "from advanced_civilization import CARDS, COMMODITIES, credit_toward, set_value\n"
        "for o in CARDS:\n"
        "    for t in CARDS:\n"
        "        if o != t: print(o.value, t.value, credit_toward([o], t))\n"
        "for g, c in COMMODITIES.items():\n"
        "    for n in range(c.count + 1):\n"
        "        for m in (False, True): print(g.value, n, int(m), set_value(g, n, mining=m))\n",
    )
    assert out.splitlines() == expected_credit + expected_sets


def test_two_builds_are_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert build(first, seed="1").returncode == 0
    assert build(second, seed="4242").returncode == 0
    assert read_tree(first) == read_tree(second)


def test_check_catches_a_one_character_change_and_writes_nothing(tmp_path: Path, rules_copy: Path) -> None:
    out = tmp_path / "generated"
    assert build(out, rules_copy).returncode == 0
    before = read_tree(out)
    assert build(out, rules_copy, "--check").returncode == 0
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 45", "cost: 46", 1), encoding="utf-8")
    done = build(out, rules_copy, "--check")
    assert done.returncode == 1
    assert "-            cost=45," in done.stdout
    assert "+            cost=46," in done.stdout
    assert read_tree(out) == before


def test_a_ruleset_with_errors_writes_nothing(tmp_path: Path, rules_copy: Path) -> None:
    out = tmp_path / "generated"
    assert build(out, rules_copy).returncode == 0
    before = read_tree(out)
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 45", "cost: -1", 1), encoding="utf-8")
    done = build(out, rules_copy)
    assert done.returncode == 1
    assert "nothing was written" in done.stderr
    assert read_tree(out) == before


def test_hostile_names_become_safe_literals(tmp_path: Path, rules_copy: Path) -> None:
    hostile = 'Pot"\'tery \\ """ <script>alert(1)</script>\\n__import__("os")'
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    quoted = '"' + hostile.replace("\\", "\\\\").replace('"', '\\"') + '"'
    cards.write_text(text.replace("    name: Pottery\n", f"    name: {quoted}\n", 1), encoding="utf-8")
    out = tmp_path / "generated"
    done = build(out, rules_copy, "advanced-civilization")
    assert done.returncode == 0, done.stdout + done.stderr
    printed = run_python(
        out, "from advanced_civilization import CARDS, CardId\nprint(repr(CARDS[CardId.POTTERY].name))"
    )
    assert printed.strip() == repr(hostile)


def test_build_of_one_ruleset_keeps_the_others(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert build(out).returncode == 0
    before = read_tree(out)
    assert build(out, RULES, "advanced-civilization").returncode == 0
    assert read_tree(out) == before


def test_cli_build_reports_what_it_wrote(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--rules", str(RULES), "build", "--out", str(tmp_path / "g")])
    assert result.exit_code == 0
    assert "wrote" in result.stderr
