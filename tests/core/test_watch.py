"""`civrules watch`: validate on every save, print only what changed, Ctrl-C exits 130."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest

from tests.conftest import default_sigint
from tests.core.test_incremental import copy_subset

#: Generous: a round takes well under a second; this only keeps a broken watcher from hanging.
HANG_GUARD = 60.0
CARDS = "cards/advanced-civilization.yaml"


class Watcher:
    def __init__(self, rules: Path, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "civrules", "--rules", str(rules), "watch", "--interval", "0.05", *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=default_sigint,  # stops on Ctrl-C even where this run inherited SIGINT ignored
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line.rstrip("\n"))

    def until(self, prefix: str) -> list[str]:
        """Every line printed up to and including the first that starts with ``prefix``."""
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=HANG_GUARD)
            except queue.Empty:
                self.process.kill()
                raise AssertionError(f"civrules watch printed no `{prefix}`; it printed {seen}") from None
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=HANG_GUARD)
        finally:
            self.process.kill()


def test_watch_prints_what_a_save_changes_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    watcher = Watcher(rules)
    first = watcher.until("civrules: ")
    assert not any("error[" in line for line in first)
    cards = rules / CARDS
    text = cards.read_text(encoding="utf-8")
    assert '    rule: "32.21"\n' in text
    cards.write_text(text.replace('    rule: "32.21"\n', '    rule: "32.12"\n', 1), encoding="utf-8")
    changed = watcher.until("civrules: ")
    # Only what changed: the one new diagnostic (its location, source line, caret and hint).
    assert [line for line in changed if "]: " in line] == [
        f"{rules / CARDS}:44:11: error[Q001]: section 32.12 is not in the rule index"
    ]
    assert "  hint: did you mean `32.21`?" in changed
    assert f"read {CARDS};" in changed[-1]
    cards.write_text(text, encoding="utf-8")
    fixed = watcher.until("civrules: ")
    assert [line for line in fixed if "]: " in line] == [
        f"fixed: {rules / CARDS}:44:11: error[Q001]: section 32.12 is not in the rule index"
    ]
    assert watcher.interrupt() == 130


@pytest.mark.slow  # a whole build of a ruleset: seconds
def test_watch_build_writes_the_generated_tree(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    out = tmp_path / "generated"
    watcher = Watcher(rules, "advanced-civilization", "--build", "--out", str(out))
    said = watcher.until("civrules: wrote")
    assert "for 1 ruleset into" in said[-1]
    assert (out / "python" / "civrules_rulesets" / "advanced_civilization" / "__init__.py").is_file()
    assert watcher.interrupt() == 130
