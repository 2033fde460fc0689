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
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.run import in_process, in_process_actions, largest_ruleset, timed  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rules = REPO / "rules"
    ruleset = largest_ruleset(rules)
    with tempfile.TemporaryDirectory() as name:
        actions = in_process_actions(rules, ruleset, Path(name) / "generated", write_floor=False)
        for round_ in range(1, args.rounds + 1):
            before = {key: timed(action, args.repeat) for key, action in actions.items()}  # until round six
            now = in_process(rules, ruleset, Path(name) / "now", args.repeat, write_floor=False)
            for method, figures in (
                ("until round six", {key: (before[key]["median"], before[key]["min"]) for key in actions}),
                ("round seven", {key: (now[key]["median"], now[key]["min"]) for key in actions}),
            ):
                shown = ", ".join(f"{key} {1000 * m:.1f} ms ({1000 * f:.1f})" for key, (m, f) in figures.items())
                ratio = figures["validate_build"][0] / figures["parse_floor"][0]
                print(f"run {round_}, {method}: {shown}; validate + build / floor {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
