"""Edit-to-diagnostics latency of the incremental core (what `civrules lsp` and `watch` wait for).

A :class:`civrules.pipeline.incremental.Session` is brought up to date once (an editor's start-up), then each
file of the ruleset is edited ``repeat`` times (a comment appended: the content hash changes, so the
file is read and schema-validated again and every ruleset that reads it is checked again) and the
time of each ``update()`` is taken: from the edited text to the full list of diagnostics of the
whole rules tree, equal to a full ``validate``. The figure per ruleset is the slowest file's median.
"""

from __future__ import annotations

import cProfile
import io
import math
import pstats
import statistics
import time
from pathlib import Path
from typing import Any

from civrules.pipeline.incremental import Session

#: The repository root: profiles name its files relative to it.
REPO = Path(__file__).resolve().parent.parent

#: The targets of issue 19: diagnostics ready this long after a one-file edit.
TARGET_SHIPPED_S = 0.100
TARGET_10X_S = 0.500


def edit_latency(rules: Path, ruleset: str, repeat: int) -> dict[str, Any]:
    """Latency per edited file of ``ruleset`` (median, min, max of ``repeat`` edits) and the worst."""
    session = Session(rules)
    started = time.perf_counter()
    first = session.update()
    cold = time.perf_counter() - started
    files: dict[str, Any] = {}
    for relative in sorted(first.depends[ruleset]):
        text = (rules / relative).read_text(encoding="utf-8")
        times, cpu = [], []
        rechecked: list[str] = []
        for i in range(repeat):
            session.set_text(relative, f"{text}\n# edit {i}\n")
            started, processor = time.perf_counter(), time.process_time()
            result = session.update()
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - processor)
            rechecked = result.rechecked
        session.set_text(relative, None)
        session.update()
        files[relative] = {
            "median": statistics.median(times),
            "min": min(times),
            "max": max(times),
            "runs": repeat,
            # CPU time of this process: what the wall time would be on an idle machine, roughly.
            "cpu_median": statistics.median(cpu),
            "bytes": len(text.encode()),
            "rechecked": rechecked,
        }
    worst = max(files, key=lambda name: files[name]["median"])
    return {
        "cold_update": cold,
        "files": files,
        "worst_file": worst,
        "worst_median": files[worst]["median"],
        "worst_cpu_median": files[worst]["cpu_median"],
    }


def profile_edit(rules: Path, relative: str, top: int = 12) -> str:
    """cProfile of one edit of ``relative`` (cumulative time): where the latency goes."""
    session = Session(rules)
    session.update()
    text = (rules / relative).read_text(encoding="utf-8")
    session.set_text(relative, f"{text}\n# profiled edit\n")
    profiler = cProfile.Profile()
    profiler.enable()
    session.update()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    # Recorded figures name files relative to the repository, never this machine's paths.
    return out.getvalue().replace(f"{REPO}/", "")


def scale_for(target_bytes: int, one_bytes: int) -> int:
    """The synthetic scale whose ruleset is closest to ``target_bytes`` (at least 1)."""
    return max(1, math.ceil(target_bytes / one_bytes))


def print_latency(figures: dict[str, Any]) -> None:
    print("edit-to-diagnostics (incremental session, in-process)      median (CPU)   target")
    for label, row in figures.items():
        target = TARGET_SHIPPED_S if label == "shipped" else TARGET_10X_S
        verdict = "met" if row["worst_median"] <= target else "missed"
        print(
            f"  {label:<8} {row['ruleset']:<24} worst file {row['worst_file']:<40}"
            f"{row['worst_median'] * 1000:8.1f} ms ({row['worst_cpu_median'] * 1000:.0f} ms)"
            f"  ≤ {target * 1000:.0f} ms  {verdict}"
        )
