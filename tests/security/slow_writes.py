"""civrules, pausing after each file it writes: `python -m tests.security.slow_writes SECONDS ARGS...`
runs `civrules ARGS...` as the console script does, with ``civrules.emit.output.WRITE_DELAY`` set.

The pause gives a test a window to kill or interrupt a build in the middle of writing its tree
(test_interrupts.py). It is the test suite's alone: civrules reads it from no environment variable,
so no variable left set in a user's or a CI's environment can slow or break a build.
"""

from __future__ import annotations

import sys


def main() -> None:
    delay = float(sys.argv.pop(1))
    from civrules.emit import output

    output.WRITE_DELAY = delay
    from civrules.launch import main as launch

    launch()


if __name__ == "__main__":
    main()
