"""The speed goals of the adversarial corpus (tests/adversarial/cases.yaml): CPU time per case.

The tests check what each hostile input gets back (exit code, located diagnostics, peak memory) and
stop a hang; they assert nothing about time, whose figures depend on the machine and its load. This
measures each case's CPU time (user + system, as the kernel counts it) against the case's `cpu`
goal (2 s unless the case says otherwise). ``make bench`` runs it; results go to
bench/out/adversarial.json. Exit status 1 when a goal is missed.

Usage: ``python bench/adversarial.py [--case ID ...]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import bench  # noqa: E402, F401  (its copies of the shipped rules are read alone: CIVRULES_NO_SHIPPED)
from tests.security.test_resource_limits import CASES, remove_tree, run_case  # noqa: E402

OUT = REPO / "bench" / "out" / "adversarial.json"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--case", action="append", help="only these cases (by id)")
    args = parser.parse_args(argv)
    chosen = [case for case in CASES if not args.case or case.id in args.case]
    # One unmeasured run first: a fresh clone compiles and caches the schema validators once.
    subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(REPO / "rules"), "validate", "advanced-civilization"],
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    rows = []
    for case in chosen:
        work = Path(tempfile.mkdtemp())
        try:
            outcome, _, _ = run_case(case, work)
        finally:
            remove_tree(work)  # not shutil.rmtree: the 1,500-nested-folders case overflows its recursion
        rows.append(
            {
                "case": case.id,
                "cpu_seconds": round(outcome.cpu_seconds, 3),
                "goal_seconds": case.cpu,
                "met": outcome.cpu_seconds < case.cpu,
                "max_rss_mb": round(outcome.max_rss_bytes / 1e6, 1),
                "wall_seconds": round(outcome.wall_seconds, 3),
            }
        )
        row = rows[-1]
        print(
            f"{case.id:<36} {row['cpu_seconds']:6.2f} s of CPU (goal {case.cpu:g} s) "
            f"{row['max_rss_mb']:6.1f} MB  {'met' if row['met'] else 'MISSED'}"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    missed = [row["case"] for row in rows if not row["met"]]
    print(f"{len(rows) - len(missed)} of {len(rows)} cases within their CPU goal; results: {OUT.relative_to(REPO)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
