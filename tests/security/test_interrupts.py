"""`civrules build` under faults: killed at random points it leaves generated/ as the old tree or
the new one, never a mix; and its output does not depend on hash seeds or on file creation order.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit.output import read_tree
from tests.conftest import REPO, RULES

RULESET = "advanced-civilization"
KILLS = 6  # builds killed in `make test`; the slow variant (`make test-slow`) kills 20
WRITE_DELAY = 0.03  # seconds per file written (CIVRULES_TEST_WRITE_DELAY): a window to kill in


def civrules(
    rules: Path, *args: str, seed: str = "0", delay: float = 0.0, cache: bool = True
) -> subprocess.Popen[bytes]:
    """civrules in a fresh interpreter; without ``cache`` it neither reads nor writes its data caches
    (every map layout is computed under this hash seed, none read from another run's)."""
    env = {**os.environ, "PYTHONHASHSEED": seed, "CIVRULES_TEST_WRITE_DELAY": str(delay)}
    if not cache:
        env["CIVRULES_CACHE_DIR"] = ""
    return subprocess.Popen(
        [sys.executable, "-m", "civrules", "--rules", str(rules), *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def build(rules: Path, out: Path, *rulesets: str, seed: str = "0", cache: bool = True) -> dict[str, bytes]:
    """A build in a fresh interpreter with the given hash seed."""
    process = civrules(rules, "build", *rulesets, "--out", str(out), seed=seed, cache=cache)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr.decode()
    return read_tree(out)


def build_here(rules: Path, out: Path, *rulesets: str) -> dict[str, bytes]:
    """A build in this process, where a fresh interpreter is not the point."""
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", *rulesets, "--out", str(out)])
    assert result.exit_code == 0, result.stdout + result.stderr
    return read_tree(out)


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The rules after a one-fact change, and the trees a build writes before and after it."""
    root = tmp_path_factory.mktemp("faults")
    changed = root / "rules"
    shutil.copytree(RULES, changed)
    cards = changed / "cards" / "advanced-civilization.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "    cost: 45\n" in text
    cards.write_text(text.replace("    cost: 45\n", "    cost: 46\n", 1), encoding="utf-8")
    old = build_here(RULES, root / "old", RULESET)
    new = build_here(changed, root / "new", RULESET)
    assert old != new and set(old) == set(new)
    return changed, old, new


def kill_once(n: int, rules: Path, old_tree: Path, work: Path) -> tuple[str, bool]:
    """One build killed with SIGKILL: half of the time at a random moment of its run, half of the
    time at a random moment of its writing (once the staging directory appears). Returns what
    generated/ then holds and whether the kill came while files were being written."""
    chance = random.Random(n)
    out = work / f"run{n}" / "generated"
    shutil.copytree(old_tree, out)
    process = civrules(rules, "build", RULESET, "--out", str(out), seed=str(n), delay=WRITE_DELAY)
    writing = False
    if n % 2:
        time.sleep(chance.uniform(0.0, 2.5))
    else:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            if any(p.name.startswith(".generated.new-") for p in out.parent.iterdir()):
                time.sleep(chance.uniform(0.0, 14 * WRITE_DELAY))
                break
            time.sleep(0.005)
    if process.poll() is None:
        writing = any(p.name.startswith(".generated.new-") for p in out.parent.iterdir())
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    return ("killed" if process.returncode == -signal.SIGKILL else "finished"), writing


def test_a_build_killed_at_random_points_leaves_the_old_tree_or_the_new_one(
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kill_builds(KILLS, trees, tmp_path, capsys)


@pytest.mark.slow
def test_twenty_builds_killed_at_random_points_leave_the_old_tree_or_the_new_one(
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kill_builds(20, trees, tmp_path, capsys)


def kill_builds(
    kills: int,
    trees: tuple[Path, dict[str, bytes], dict[str, bytes]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules, old, new = trees
    old_tree = tmp_path / "old"
    for relative, content in old.items():
        (old_tree / relative).parent.mkdir(parents=True, exist_ok=True)
        (old_tree / relative).write_bytes(content)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda n: kill_once(n, rules, old_tree, tmp_path), range(kills)))
    seen = []
    for n, (how, _writing) in enumerate(runs):
        tree = read_tree(tmp_path / f"run{n}" / "generated")
        state = "old" if tree == old else "new" if tree == new else "mixed"
        assert state != "mixed", f"run {n} ({how}): generated/ is neither the old tree nor the new one"
        seen.append(state)
    killed_writing = sum(1 for how, writing in runs if how == "killed" and writing)
    with capsys.disabled():
        print(
            f"\n{kills} builds, {sum(how == 'killed' for how, _ in runs)} killed ({killed_writing} while writing): "
            f"{seen.count('old')} left the old tree, {seen.count('new')} the new one, none a mix"
        )
    assert killed_writing >= kills // 4, runs  # the kills did land in the middle of writing
    # A killed build leaves its staging directory beside generated/; the next build still succeeds.
    out = tmp_path / "run0" / "generated"
    assert build_here(rules, out, RULESET) == new


def test_output_is_byte_identical_across_hash_seeds_and_file_creation_orders(tmp_path: Path) -> None:
    """The rules tree copied file by file in two opposite orders (directory listings follow
    creation order on some file systems) to the same place, each built with another PYTHONHASHSEED."""
    files = sorted(p.relative_to(RULES) for p in RULES.rglob("*") if p.is_file())
    rules = tmp_path / "rules"
    built = []
    for n, order in enumerate((files, list(reversed(files)))):
        shutil.rmtree(rules, ignore_errors=True)
        for relative in order:
            (rules / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(RULES / relative, rules / relative)
        built.append(
            build(rules, tmp_path / f"out{n}", RULESET, f"{RULESET}-western", seed=("1", "31337")[n], cache=False)
        )
    assert built[0] == built[1]
    assert any(path.startswith("python/") for path in built[0])


def test_a_killed_builds_staging_tree_is_removed_by_the_next_build(tmp_path: Path) -> None:
    from civrules.emit.output import MARKER, MARKER_TEXT, write_tree

    out = tmp_path / "generated"
    write_tree(out, {"a.txt": b"one"})
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    abandoned = tmp_path / f".generated.new-{dead.stdout.strip()}-x1y2"
    (abandoned / "python").mkdir(parents=True)
    (abandoned / MARKER).write_bytes(MARKER_TEXT)  # written first into every staging tree
    lookalike = tmp_path / f".generated.new-{dead.stdout.strip()}-committed"
    (lookalike / "python").mkdir(parents=True)
    (lookalike / "python" / "work.txt").write_text("not civrules'", encoding="utf-8")
    live = tmp_path / f".generated.new-{os.getpid()}-z3"
    live.mkdir()
    write_tree(out, {"a.txt": b"two"})
    assert not abandoned.exists()
    assert live.exists()  # a build still running is left alone
    assert (lookalike / "python" / "work.txt").exists()  # not marked: not civrules' to delete
    assert (out / "a.txt").read_bytes() == b"two"
