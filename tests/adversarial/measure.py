"""Run a command and report its exit code, peak memory and CPU time, as the kernel counts them.

Usage: ``python tests/adversarial/measure.py REPORT.json COMMAND [ARG...]``

The command's standard output and error pass through. ``REPORT.json`` receives ``returncode``,
``max_rss_bytes`` (peak resident set size), ``cpu_seconds`` (user + system) and ``wall_seconds``
of the command alone: ``resource.getrusage(RUSAGE_CHILDREN)`` counts only children that have been
waited for, and this wrapper has exactly one. CPU time, not wall time, is what the adversarial
tests bound: it does not depend on what else the machine is running.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    report, command = argv[0], argv[1:]
    started = time.perf_counter()
    returncode = subprocess.run(command, check=False).returncode
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is in bytes on macOS, KiB on Linux
    with open(report, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "returncode": returncode,
                "max_rss_bytes": usage.ru_maxrss * scale,
                "cpu_seconds": usage.ru_utime + usage.ru_stime,
                "wall_seconds": wall,
            },
            handle,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
