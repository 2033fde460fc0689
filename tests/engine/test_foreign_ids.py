"""mypy --strict rejects another ruleset's ids, ids of the wrong kind and misspelt ids given to a
package's helpers, and accepts the package's own ids and engine code typed against the protocol:
the lines it rejects in ``foreign_ids.py`` are exactly those marked ``# rejected``.

The project's own mypy run (`make typecheck`, which `make test` runs beside pytest) checks the file:
each marked line silences its error with ``# type: ignore[code]``, and strict mypy fails an ignore
that silences nothing. The fast test holds the marks, the ignores and the configuration to that;
the slow one runs mypy on the file with its ignores taken out and reads each error (a second mypy
run costs seconds of CPU, and `make test` already runs one over this file)."""

from __future__ import annotations

import re
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

FILE = REPO / "tests" / "engine" / "foreign_ids.py"
#: A rejected line: its code, the ignore of the error mypy gives it, and the mark.
MARKED = re.compile(r"  # type: ignore\[(arg-type|list-item)\]  # rejected$")


def _lines() -> list[str]:
    return FILE.read_text(encoding="utf-8").splitlines()


def _comments() -> list[tuple[int, str]]:
    """Each comment of the file, with its line (a docstring that names an ignore is no comment)."""
    with FILE.open("rb") as source:
        return [
            (token.start[0], token.string)
            for token in tokenize.tokenize(source.readline)
            if token.type == tokenize.COMMENT
        ]


def test_each_rejected_line_and_only_it_silences_its_error_in_the_projects_mypy_run() -> None:
    lines = _lines()
    marked = [n for n, line in enumerate(lines, 1) if line.endswith("# rejected")]
    assert len(marked) >= 10
    assert [n for n in marked if not MARKED.search(lines[n - 1])] == []
    ignored = [n for n, comment in _comments() if "type: ignore" in comment]
    assert ignored == marked
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    # checked by the project's run (the `files` it names hold it, no `exclude` leaves it out), strictly:
    # strict turns on warn_unused_ignores, which fails a marked line that type-checks
    assert "tests" in config["files"]
    assert not any(re.search(pattern, "tests/engine/foreign_ids.py") for pattern in config.get("exclude", []))
    assert config["strict"] is True and config.get("warn_unused_ignores", True) is True


@pytest.mark.slow
def test_mypy_rejects_exactly_the_marked_lines(tmp_path: Path) -> None:
    lines = _lines()
    marked = {n for n, line in enumerate(lines, 1) if line.endswith("# rejected")}
    # The file without its ignores, beside the original (the same imports resolve), under a name
    # of its own; with a mypy cache of its own: `make test` runs the project's mypy beside pytest,
    # and the two would otherwise write one SQLite cache at once.
    bare = tmp_path / "foreign_ids_bare.py"
    bare.write_text("\n".join(MARKED.sub("  # rejected", line) for line in lines) + "\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), str(bare)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = re.findall(rf"^{re.escape(str(bare))}:(\d+): error: (.*)$", run.stdout, re.MULTILINE)
    assert run.returncode == 1, run.stdout + run.stderr
    assert {int(number) for number, _ in errors} == marked, run.stdout
    by_line = {int(number): message for number, message in errors}
    # each error is the one its ignore names
    for number, message in by_line.items():
        code = MARKED.search(lines[number - 1])
        assert code is not None and message.endswith(f"[{code.group(1)}]"), (number, message)
    law = next(n for n in marked if "mega.CardId.LAW" in lines[n - 1])
    assert "mega_civilization.ids.CardId.LAW" in by_line[law]
