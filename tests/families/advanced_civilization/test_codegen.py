"""`civrules build`: the generated engine packages, their helpers, determinism and safety."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit.output import read_tree
from civrules.emit.packaging import import_name
from civrules.families.advanced_civilization.commodities import set_value, set_value_rule
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Ruleset, of_family
from tests.budget import heavy
from tests.conftest import REPO, RULES, copy_shipped
from tests.rulefiles import shipped_analysis
from tests.variant_packages import run_script

RULESETS = ("advanced-civilization", "advanced-civilization-western")


def build(
    out: Path, rules: Path = RULES, *args: str, seed: str = "0", cache: bool = True
) -> subprocess.CompletedProcess[str]:
    """`civrules build` in a fresh interpreter with a chosen hash seed (for the tests about that);
    without ``cache`` it neither reads nor writes its data caches (map layouts made under this seed)."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    if not cache:
        env["CIVRULES_CACHE_DIR"] = ""
    return subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(rules), "build", "--out", str(out), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
        timeout=300,
    )


def build_here(out: Path, rules: Path = RULES, *args: str) -> tuple[int, str, str]:
    """`civrules build` in this process (exit code, stdout, stderr): for the tests of what a build
    writes or reports, which do not depend on a fresh interpreter."""
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", "--out", str(out), *args])
    return result.exit_code, result.stdout, result.stderr


@functools.cache
def model_of(ruleset: str) -> Ruleset:
    """The compiler's model of a shipped ruleset, analysed once per test process (models are frozen)."""
    model = shipped_analysis(ruleset).model
    return of_family(model)


@pytest.fixture(scope="module")
def shipped_rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped rules alone (tests/shipped.py), for the module's builds of every ruleset: a
    designer's own variant in rules/ (the README's five-minute variant) is no output these tests
    compare, and building rules/ itself put its package beside the shipped ones."""
    return copy_shipped(tmp_path_factory.mktemp("shipped") / "rules")


@pytest.fixture(scope="module")
def generated(shipped_rules: Path) -> Path:
    """Every shipped ruleset built once for the module, in this process: what the tests below look
    at is what a build writes, not how an interpreter starts (a fresh one cost 0.8 s more of CPU)."""
    out = shipped_rules.parent / "generated"
    code, stdout, stderr = build_here(out, shipped_rules)
    assert code == 0, stdout + stderr
    return out


def run_python(generated: Path, code: str) -> str:
    """What ``code`` prints in a fresh interpreter with only the build's packages on its path: for
    what a start shows (what importing a package imports)."""
    env = {**os.environ, "PYTHONPATH": str(generated / "python")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_here(generated: Path, code: str, *argv: str, stdin: str = "") -> str:
    """What ``code`` prints run in this process against the build's packages, in place of the
    shipped ones (tests/variant_packages.py): for a package's answers."""
    return run_script(generated / "python", code, *argv, stdin=stdin)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_package_imports_in_a_fresh_interpreter_without_the_compiler(generated: Path, ruleset: str) -> None:
    package = import_name(ruleset)
    out = run_python(
        generated,
        f"import sys, {package} as p\n"
        "assert not any(m == 'civrules' or m.startswith('civrules.') for m in sys.modules)\n"
        "assert not any(m.split('.')[0] in ('yaml', 'jinja2', 'networkx', 'click') for m in sys.modules)\n"
        "print(p.RULESET_ID, len(p.CARDS), len(p.AREAS), len(p.RULESET_FINGERPRINT))",
    )
    assert out.split()[0] == ruleset
    assert out.split()[3] == "64"


def test_helper_doctests_pass(generated: Path) -> None:
    out = run_here(
        generated,
        "import doctest, civrules_rulesets.advanced_civilization.helpers as h\n"
        "failed, tried = doctest.testmod(h)\nprint(failed, tried)",
    )
    failed, tried = map(int, out.split())
    assert failed == 0
    assert tried >= 4


def test_rulebook_worked_examples_through_the_generated_helpers(generated: Path) -> None:
    out = run_here(
        generated,
        "from civrules_rulesets.advanced_civilization import CardId as C, CommodityId as G\n"
        "from civrules_rulesets.advanced_civilization import credit_toward, purchase_cost, set_value\n"
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
    model = model_of("advanced-civilization")
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
    out = run_here(
        generated,
        "from civrules_rulesets.advanced_civilization import CARDS, COMMODITIES, credit_toward, set_value\n"
        "for o in CARDS:\n"
        "    for t in CARDS:\n"
        "        if o != t: print(o.value, t.value, credit_toward([o], t))\n"
        "for g, c in COMMODITIES.items():\n"
        "    for n in range(c.count + 1):\n"
        "        for m in (False, True): print(g.value, n, int(m), set_value(g, n, mining=m))\n",
    )
    assert out.splitlines() == expected_credit + expected_sets


def copy_of(generated: Path, out: Path) -> Path:
    """A copy of the module's build, to start from without building again."""
    shutil.copytree(generated, out)
    return out


@pytest.mark.slow  # make test: security/test_filesystem.py's two builds under two seeds
def test_two_builds_are_byte_identical_across_hash_seeds(generated: Path, shipped_rules: Path, tmp_path: Path) -> None:
    second = tmp_path / "b"
    # `generated` was built in the test process (under its own seed, random unless PYTHONHASHSEED
    # is set); this build, in a fresh interpreter, computes every map layout itself, under another.
    seed = "4243" if os.environ.get("PYTHONHASHSEED") == "4242" else "4242"
    assert build(second, shipped_rules, seed=seed, cache=False).returncode == 0
    assert read_tree(generated) == read_tree(second)


def test_check_catches_a_one_character_change_and_writes_nothing(
    generated: Path, tmp_path: Path, rules_copy: Path
) -> None:
    out = copy_of(generated, tmp_path / "generated")
    before = read_tree(out)
    # The ruleset changed, checked alone (a check of every ruleset, twice, cost 6 s of CPU).
    code, stdout, stderr = build_here(out, rules_copy, "--check", "advanced-civilization")
    assert code == 0, stdout + stderr
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 45", "cost: 46", 1), encoding="utf-8")
    code, stdout, stderr = build_here(out, rules_copy, "--check", "advanced-civilization")
    assert code == 1, stdout + stderr
    assert "-            cost=45," in stdout
    assert "+            cost=46," in stdout
    assert read_tree(out) == before


def test_check_of_one_ruleset_compares_its_part_and_the_marker(
    generated: Path, shipped_rules: Path, tmp_path: Path
) -> None:
    out = copy_of(generated, tmp_path / "generated")
    code, stdout, stderr = build_here(out, shipped_rules, "--check", "advanced-civilization")
    assert code == 0, stdout + stderr
    (out / ".civrules-output").unlink()
    assert build_here(out, shipped_rules, "--check", "advanced-civilization")[0] == 1


@heavy
def test_a_ruleset_with_errors_keeps_its_output_and_the_others_build(
    generated: Path, tmp_path: Path, rules_copy: Path
) -> None:
    out = copy_of(generated, tmp_path / "generated")
    before = read_tree(out)
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 45", "cost: -1", 1), encoding="utf-8")
    code, stdout, stderr = build_here(out, rules_copy)
    assert code == 1, stdout + stderr
    assert stderr.splitlines()[-1] == (
        "civrules: not built, the rules have errors (previous output kept): "
        "advanced-civilization, advanced-civilization-western"
    )
    assert read_tree(out) == before  # the broken ones kept, the clean ones rebuilt as they were


def test_hostile_names_become_safe_literals(tmp_path: Path, rules_copy: Path) -> None:
    hostile = 'Pot"\'tery \\ """ <script>alert(1)</script>\\n__import__("os")'
    cards = rules_copy / "cards" / "advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    quoted = '"' + hostile.replace("\\", "\\\\").replace('"', '\\"') + '"'
    cards.write_text(text.replace("    name: Pottery\n", f"    name: {quoted}\n", 1), encoding="utf-8")
    out = tmp_path / "generated"
    code, stdout, stderr = build_here(out, rules_copy, "advanced-civilization")
    assert code == 0, stdout + stderr
    printed = run_here(
        out,
        "from civrules_rulesets.advanced_civilization import CARDS, CardId\nprint(repr(CARDS[CardId.POTTERY].name))",
    )
    assert printed.strip() == repr(hostile)


def test_build_of_one_ruleset_keeps_the_others(generated: Path, shipped_rules: Path, tmp_path: Path) -> None:
    out = copy_of(generated, tmp_path / "generated")
    before = read_tree(out)
    code, stdout, stderr = build_here(out, shipped_rules, "advanced-civilization")
    assert code == 0, stdout + stderr
    assert read_tree(out) == before


def test_cli_build_reports_what_it_wrote(tmp_path: Path) -> None:
    runner = CliRunner()
    out = str(tmp_path / "g")
    result = runner.invoke(main, ["--rules", str(RULES), "build", "advanced-civilization", "--out", out])
    assert result.exit_code == 0
    assert "wrote" in result.stderr


def test_calamity_worked_examples_through_the_generated_helpers(generated: Path) -> None:
    out = run_here(
        generated,
        "from civrules_rulesets.advanced_civilization import CalamityId as K, CardId as C, CommodityId as G\n"
        "from civrules_rulesets.advanced_civilization import calamity_amount as a\n"
        # 30.4121-30.4123: the first faction is 15 + 5 (Music) + 5 (Drama and Poetry) + 10 (Democracy), then 20.
        "w = lambda *cs: a(K.CIVIL_WAR, 'first_faction_by_primary', cs, 'primary').value\n"
        "b = a(K.CIVIL_WAR, 'first_faction_by_beneficiary', [], 'primary').value\n"
        "print(w() + b, w(C.MUSIC, C.DRAMA_AND_POETRY, C.DEMOCRACY) + b)\n"
        # 30.4124: Philosophy: 15 chosen by the beneficiary, whatever else the victim holds.
        "p = a(K.CIVIL_WAR, 'first_faction_by_beneficiary', [C.PHILOSOPHY], 'primary').value\n"
        "print(w(C.PHILOSOPHY, C.MUSIC) + p)\n"
        # 30.611-30.615: 16 for the primary victim; Medicine -8, Roadbuilding +5, cumulative.
        "e = lambda *cs: a(K.EPIDEMIC, 'epidemic_primary', cs, 'primary').value\n"
        "print(e(), e(C.MEDICINE), e(C.ROADBUILDING), e(C.MEDICINE, C.ROADBUILDING))\n"
        # 30.711-30.715: all but three cities reduced, -1 per Music, Drama and Poetry, Law, Democracy; +1 Military.
        "d = lambda n, *cs: a(K.CIVIL_DISORDER, 'cities_reduced', cs, 'primary').loss(n)\n"
        "print(d(7), d(7, C.MUSIC, C.LAW), d(7, C.MILITARY), d(3, C.MILITARY), d(4, C.MUSIC, C.LAW))\n"
        # 30.321-30.322: three cities; Mysticism 2, Deism 1, Enlightenment none; only the highest counts.
        "s = lambda *cs: a(K.SUPERSTITION, 'cities_reduced', cs, 'primary').value\n"
        "print(s(), s(C.MYSTICISM), s(C.DEISM), s(C.ENLIGHTENMENT), s(C.MYSTICISM, C.DEISM))\n"
        # 30.312: Pottery reduces Famine losses by four unit points per Grain card.
        "print(a(K.FAMINE, 'famine_primary', [C.POTTERY], 'primary', {G.GRAIN: 2}).value)\n",
    )
    assert out.splitlines() == ["35 55", "15", "16 8 21 13", "4 2 5 1 0", "3 2 1 0 1", "2"]


def test_epoch_entry_through_the_generated_helpers(generated: Path) -> None:
    out = run_here(
        generated,
        "from civrules_rulesets.advanced_civilization import CardId as C, EpochId as E, NationId as N\n"
        "from civrules_rulesets.advanced_civilization import can_enter_epoch as c\n"
        "print(c(E.EARLY_BRONZE_AGE, 2, []), c(E.EARLY_BRONZE_AGE, 1, []))\n"
        # 33.23: three cities and three groups; a two-group card counts for both (31.55).
        "print(c(E.LATE_BRONZE_AGE, 3, [C.ENGINEERING, C.MYSTICISM]),\n"
        "      c(E.LATE_BRONZE_AGE, 3, [C.POTTERY, C.ASTRONOMY]))\n"
        # 33.24: four cities, nine cards, all five groups.
        "nine = [C.POTTERY, C.CLOTH_MAKING, C.METALWORKING, C.ASTRONOMY, C.COINAGE,\n"
        "        C.MUSIC, C.LAW, C.MYSTICISM, C.DEISM]\n"
        "print(c(E.EARLY_IRON_AGE, 4, nine), c(E.EARLY_IRON_AGE, 4, nine[:8]), c(E.EARLY_IRON_AGE, 3, nine))\n"
        # 33.25: Late Iron Age spaces need card value (Africa's first value space: 1300).
        "print(c(E.LATE_IRON_AGE, 5, nine, N.AFRICA))\n",
    )
    assert out.splitlines() == ["True False", "True False", "True False False", "False"]


@pytest.mark.parametrize("ruleset", ["advanced-civilization", "expansion-project"])
def test_generated_calamity_and_epoch_helpers_equal_the_compilers(generated: Path, ruleset: str) -> None:
    """Every effect, every subset of the cards that modify it, several unit and city counts: the
    package's answer is the compiler's (amount, immunity, loss, the losses a card adds)."""
    import itertools
    import json

    from civrules.families.advanced_civilization.calamities import calamity_amount, effect_side
    from civrules.families.advanced_civilization.succession import can_enter_epoch

    model = model_of(ruleset)
    cases = []
    for calamity in model.calamities:
        cards = sorted({m.card for m in calamity.modifiers})[:7]
        effects = [e["id"] for side in ("primary", "secondary") for e in calamity.raw.get(side) or ()]
        for effect in effects:
            role = effect_side(calamity, effect)
            assert role is not None
            for size in range(len(cards) + 1):
                for held in itertools.combinations(cards, size):
                    amount = calamity_amount(calamity, effect, set(held), role, {"grain": 2})
                    losses: list[int | None] = []
                    for units in (0, 3, 7, 12):
                        try:
                            losses.append(amount.loss(units, cities=4))
                        except ValueError:
                            losses.append(None)
                    added = sorted(m.card for m in amount.additions)
                    cases.append([calamity.id, effect, list(held), role, amount.value, amount.immune, losses, added])
    epochs = []
    card_ids = [c.id for c in model.cards if isinstance(c.groups, tuple) and isinstance(c.cost, int)]
    for epoch in model.epochs if ruleset == "advanced-civilization" else ():
        for cities in range(0, 6):
            for n in (0, 2, 5, 9, 12):
                hand = card_ids[:n]
                result = can_enter_epoch(model, epoch.id, cities, hand)
                epochs.append([epoch.id, cities, hand, result if isinstance(result, bool) else None])
    script = (
        "import json, sys\n"
        f"from {import_name(ruleset)} import calamity_amount, can_enter_epoch\n"
        "cases, epochs = json.loads(sys.stdin.read())\n"
        "out = []\n"
        "for c, e, held, role, *_ in cases:\n"
        "    a = calamity_amount(c, e, held, role, {'grain': 2})\n"
        "    losses = []\n"
        "    for u in (0, 3, 7, 12):\n"
        "        try: losses.append(a.loss(u, cities=4))\n"
        "        except (ValueError, LookupError): losses.append(None)\n"
        "    out.append([c, e, held, role, a.value, a.immune, losses, sorted(x.card for x in a.additions)])\n"
        "ep = [[e, n, h, can_enter_epoch(e, n, h)] for e, n, h, _ in epochs]\n"
        "print(json.dumps([out, ep]))\n"
    )
    produced = json.loads(run_here(generated, script, stdin=json.dumps([cases, epochs])))
    assert produced[0] == cases
    assert produced[1] == epochs
    assert len(cases) > 100


def test_generated_epoch_entry_by_level_equals_the_compilers(generated: Path) -> None:
    """Mega Civilization prints Basic and Expert requirements: both levels reach the package."""
    import json

    from civrules.families.advanced_civilization.succession import can_enter_epoch

    model = model_of("mega-civilization")
    cards = [c.id for c in model.cards]
    expected = []
    for level in ("basic", "expert"):
        for epoch in model.epochs:
            for cities in (2, 3, 5):
                for n in (0, 3, 9, 17):
                    answer = can_enter_epoch(model, epoch.id, cities, cards[:n], level=level)
                    expected.append([level, epoch.id, cities, n, answer if isinstance(answer, bool) else None])
    script = (
        "import json\n"
        "from civrules_rulesets.mega_civilization import CARDS, EpochId, UnknownFactError, can_enter_epoch\n"
        "cards = list(CARDS)\n"
        "out = []\n"
        "for level in ('basic', 'expert'):\n"
        "    for epoch in EpochId:\n"
        "        for cities in (2, 3, 5):\n"
        "            for n in (0, 3, 9, 17):\n"
        "                try: answer = can_enter_epoch(epoch, cities, cards[:n], level=level)\n"
        "                except UnknownFactError: answer = None\n"
        "                out.append([level, epoch.value, cities, n, answer])\n"
        "print(json.dumps(out))\n"
    )
    assert json.loads(run_here(generated, script)) == expected


def test_trade_blocks_and_decks_of_the_18_player_games(generated: Path) -> None:
    out = run_here(
        generated,
        "from civrules_rulesets.expansion_project import CommodityId as G, decks_for, set_value\n"
        # 26.3.3: three Oil (4 each, a western good) redeemed by an eastern player: 3 x 3 x 4 + 3 x 4.
        "east, west = (set_value(G.OIL, 3, players=12, redeemed_in=b) for b in ('east', 'west'))\n"
        "print(east, west)\n"
        "print(set_value(G.OIL, 3, players=10, redeemed_in='single'))\n"
        # 10.3.1: at 10 players one deck, so no eastern block to redeem in.
        "try:\n    set_value(G.OIL, 3, players=10, redeemed_in='east')\n"
        "except ValueError as e:\n    print(e)\n"
        # 10.3.3: from 12 players the western and eastern blocks are separate decks of 114 cards.
        "print(sorted((d.block.value, sum(c or 0 for _, c in d.commodities)) for d in decks_for(12)))\n",
    )
    assert out.splitlines() == [
        "48 36",
        "36",
        "redeemed_in='east': with 10 players the trade blocks in play are single",
        "[('east', 114), ('west', 114)]",
    ]


def test_generated_decks_and_block_bonuses_equal_the_compilers(generated: Path) -> None:
    import json

    from civrules.families.advanced_civilization.commodities import block_bonus, block_bonuses, deck_compositions

    for ruleset in ("expansion-project", "mega-civilization"):
        model = model_of(ruleset)
        bands = [
            [b.players_min, b.players_max, b.region, [[d.block, [list(c) for c in d.commodities]] for d in b.decks]]
            for b in deck_compositions(model)
        ]
        bonuses = block_bonuses(model)
        # Mega Civilization: how a set is valued is not in the sources, so set_value answers nothing.
        formula_known = set_value_rule(model).formula is not None
        compositions = deck_compositions(model)
        in_play = {
            p: {str(d.block) for b in compositions if b.players_min <= p <= b.players_max for d in b.decks}
            for p in (9, 12, 16)
        }
        # The goods some deck of that count holds (set_value refuses the others: no set of them is held).
        goods_in_play = {
            p: {
                g
                for b in compositions
                if b.players_min <= p <= b.players_max
                for d in b.decks
                for g, _ in d.commodities
            }
            for p in (9, 12, 16)
        }

        values = [
            [
                c.id,
                n,
                players,
                block,
                drawn,
                block_bonus(c, n, bonuses, players=players, redeemed_in=block, drawn_in=drawn)
                if formula_known
                else "unknown",
            ]
            for c in model.commodities
            if isinstance(c.count, int) and isinstance(c.value, int)
            for n in (1, 2)
            for players in (9, 12, 16)
            if c.id in goods_in_play[players]
            # a block in play at that count (another is refused: test_package_arguments.py), and for
            # a shared good the block it was drawn in
            for block in sorted(in_play[players] & {"single", "west", "east"})
            for drawn in (["west"] if c.block == "shared" and "west" in in_play[players] else [None])
        ]
        package = import_name(ruleset)
        script = (
            f"import json\nfrom {package} import COMMODITIES, DECK_COMPOSITIONS, CommodityId, set_value\n"
            "bands = [[b.players_min, b.players_max, b.region, [[d.block, [[c.value, k] for c, k in d.commodities]]"
            " for d in b.decks]] for b in DECK_COMPOSITIONS]\n"
            "import sys\nfrom civrules_runtime import UnknownFactError\nvalues = json.loads(sys.argv[1])\n"
            "def bonus(g, n, p, b, d):\n"
            "    try: return set_value(g, n, players=p, redeemed_in=b, drawn_in=d) - set_value(g, n)\n"
            "    except UnknownFactError: return 'unknown'\n"
            "out = [[g, n, p, b, d, bonus(g, n, p, b, d)] for g, n, p, b, d, _ in values]\n"
            "print(json.dumps([bands, out]))\n"
        )
        produced = json.loads(run_here(generated, script, json.dumps(values)))
        assert produced[0] == bands
        assert produced[1] == values


def test_generated_packages_are_already_formatted_and_lint_clean(generated: Path) -> None:
    """The emitter writes what `ruff format` would: no formatter runs at build time."""
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed (it is in the dev extras)")
    config = str(REPO / "pyproject.toml")
    formatted = subprocess.run(
        [str(ruff), "format", "--check", "--config", config, str(generated / "python")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
