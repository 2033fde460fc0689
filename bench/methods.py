"""The in-process figures of point 3 measured both ways, in one process, in the same minutes.

``python bench/methods.py [--rounds N]`` measures the parse floor, ``validate`` and ``validate`` +
``build`` of the largest shipped ruleset the way ``bench/run.py`` did until round six (each action's
runs one after another, at Python's default collector pace, the process's memos kept) and the way it
does now (:func:`bench.run.timed_in_process`), alternately, and prints each figure (median, fastest)
and the ratio of ``validate`` + ``build`` to the floor. bench/README.md ("Round seven: measuring as
a command runs") has a run of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from bench.run import in_process, largest_ruleset, ruleset_files  # noqa: E402
from civrules.emit.build import build as write_build  # noqa: E402
from civrules.emit.build import render  # noqa: E402
from civrules.load.workspace import Workspace  # noqa: E402
from civrules.pipeline import analyse  # noqa: E402


def _as_before(action: Callable[[], object], repeat: int) -> list[float]:
    """Until round six: one warm-up run, then ``repeat`` runs of this action alone."""
    action()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rules = REPO / "rules"
    ruleset = largest_ruleset(rules)
    files = [path for _, path in ruleset_files(rules, ruleset)]
    with tempfile.TemporaryDirectory() as name:
        out = Path(name) / "generated"

        def floor() -> None:
            for path in files:
                yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)

        def validate() -> None:
            workspace = Workspace(rules)
            analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))

        def validate_and_build() -> None:
            workspace = Workspace(rules)
            result = render(workspace, [workspace.load_ruleset(workspace.manifests()[ruleset])])
            write_build(out, result, [ruleset], everything=True, protected=())

        actions = {"parse_floor": floor, "validate": validate, "validate_build": validate_and_build}
        for round_ in range(1, args.rounds + 1):
            before = {key: _as_before(action, args.repeat) for key, action in actions.items()}
            now = in_process(rules, ruleset, Path(name) / "now", args.repeat)
            for method, figures in (
                ("until round six", {key: (statistics.median(runs), min(runs)) for key, runs in before.items()}),
                ("round seven", {key: (now[key]["median"], now[key]["min"]) for key in actions}),
            ):
                shown = ", ".join(f"{key} {1000 * m:.1f} ms ({1000 * f:.1f})" for key, (m, f) in figures.items())
                ratio = figures["validate_build"][0] / figures["parse_floor"][0]
                print(f"run {round_}, {method}: {shown}; validate + build / floor {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
