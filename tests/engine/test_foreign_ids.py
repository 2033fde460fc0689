"""mypy --strict rejects another ruleset's ids, ids of the wrong kind and misspelt ids given to a
package's helpers, and accepts the package's own ids and engine code typed against the protocol:
the lines it rejects in ``foreign_ids.py`` are exactly those marked ``# rejected``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

FILE = REPO / "tests" / "engine" / "foreign_ids.py"


def test_mypy_rejects_exactly_the_marked_lines(tmp_path: Path) -> None:
    source = FILE.read_text(encoding="utf-8")
    assert "type: ignore" not in source
    marked = {number for number, line in enumerate(source.splitlines(), 1) if line.endswith("# rejected")}
    assert len(marked) >= 10
    # The project's configuration (strict, mypy_path = compiler, generated/python), on this file only,
    # with a cache of its own: `make test` runs the project's mypy beside pytest, and the two would
    # otherwise write one SQLite cache at once.
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "mypy"),
            "tests/engine/foreign_ids.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = re.findall(r"^tests/engine/foreign_ids\.py:(\d+): error: (.*)$", run.stdout, re.MULTILINE)
    assert run.returncode == 1, run.stdout + run.stderr
    assert {int(number) for number, _ in errors} == marked, run.stdout
    assert all(re.search(r"\[(arg-type|list-item)\]$", message) for _, message in errors), run.stdout
    by_line = {int(number): message for number, message in errors}
    law = next(n for n in marked if "mega.CardId.LAW" in source.splitlines()[n - 1])
    assert "mega_civilization.ids.CardId.LAW" in by_line[law]
