"""`civrules watch`: validate on every save, print only what changed, Ctrl-C exits 130."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

import pytest

from civrules.cli import watcher
from civrules.cli.watcher import compare, describe_changes, summary
from civrules.diagnostics import Diagnostic, Severity, Span
from tests.conftest import default_sigint
from tests.core.test_incremental import copy_subset
from tests.security.test_interrupts import crashing_check  # noqa: F401 - a fixture

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


def test_every_save_ends_with_the_counts_validate_prints_even_when_nothing_changed(tmp_path: Path) -> None:
    """The docs promise a summary after each save; a save that changes no diagnostic printed nothing,
    and the counts were of the infos shown (2) where `validate` counts every one."""
    from click.testing import CliRunner

    from civrules.cli import main

    rules = copy_subset(tmp_path / "rules")
    # What `validate` counts is the command line's, in this process as in the watcher's.
    validated = CliRunner().invoke(main, ["--rules", str(rules), "validate"])
    counts = validated.stderr.strip().splitlines()[-1]
    assert counts.startswith("civrules: 0 errors, 0 warnings, ") and "infos not shown" in counts
    watcher = Watcher(rules)
    try:
        assert watcher.until("civrules: ")[-1].startswith(counts + " (read ")
        cards = rules / CARDS
        cards.write_text(cards.read_text(encoding="utf-8") + "# a comment changes no diagnostic\n", encoding="utf-8")
        after = watcher.until("civrules: ")
        assert after == [f"{counts} (read {CARDS}; {after[-1].rsplit('; ', 1)[1]}"]
        assert watcher.interrupt() == 130
    finally:
        watcher.process.kill()


def test_a_ruleset_that_stops_validating_has_nothing_fixed_and_its_infos_come_back_unannounced(
    tmp_path: Path,
) -> None:
    """A syntax error stops the checks: the unknown-facts summary (Q007) going away was printed as
    `fixed:`, and printed again in full once the error was mended."""
    rules = copy_subset(tmp_path / "rules")
    watcher = Watcher(rules, "advanced-civilization")
    try:
        first = watcher.until("civrules: ")
        assert any("info[Q007]" in line for line in first)
        cards = rules / CARDS
        text = cards.read_text(encoding="utf-8")
        cards.write_text(text.replace("kind:", "kind: [", 1), encoding="utf-8")
        broken = watcher.until("civrules: ")
        assert not any(line.startswith("fixed:") for line in broken), broken
        assert any("error[" in line for line in broken)
        cards.write_text(text, encoding="utf-8")
        mended = watcher.until("civrules: ")
        assert [line for line in mended if "]: " in line and not line.startswith("fixed:")] == [], mended
        assert any(line.startswith("fixed:") and "error[" in line for line in mended)
        assert watcher.interrupt() == 130
    finally:
        watcher.process.kill()


def _at(code: str, severity: Severity, line: int, file: str = "rules/cards/a.yaml", message: str = "m") -> Diagnostic:
    return Diagnostic(code, severity, message, Span(file, line, 1, line, 2))


def test_an_info_that_goes_away_is_not_fixed() -> None:
    info = _at("Q007", Severity.INFO, 3)
    assert compare([info], []).fixed == []
    assert describe_changes([info], [], sources=None) == ""  # type: ignore[arg-type]


def test_a_check_that_did_not_run_is_held_not_fixed_and_not_new_when_it_comes_back() -> None:
    warning = _at("K010", Severity.WARNING, 7)
    syntax = _at("L001", Severity.ERROR, 2)
    stopped = compare([warning], [syntax], unchecked={"rules/cards/a.yaml"})
    assert stopped.appeared == [syntax] and stopped.fixed == []
    assert warning in stopped.current
    back = compare(stopped.current, [warning])
    assert back.appeared == [] and back.fixed == [syntax]
    # Checked again and gone: now it is fixed.
    assert compare(stopped.current, []).fixed == [syntax, warning]


def test_a_read_stage_error_of_a_stopped_ruleset_is_fixed_all_the_same() -> None:
    syntax = _at("L001", Severity.ERROR, 2)
    schema = _at("S002", Severity.ERROR, 9)
    assert compare([syntax], [schema], unchecked={"rules/cards/a.yaml"}).fixed == [syntax]


def test_a_diagnostic_that_only_moved_is_no_change() -> None:
    before = [_at("Q001", Severity.ERROR, 44)]
    after = [_at("Q001", Severity.ERROR, 45)]
    moved = compare(before, after)
    assert moved.appeared == [] and moved.fixed == [] and moved.current == after
    other = [_at("Q001", Severity.ERROR, 45, message="another section")]
    assert compare(before, other).fixed == before


def test_the_summary_counts_every_diagnostic_as_validate_does() -> None:
    found = [_at("Q006", Severity.INFO, n) for n in range(1, 6)] + [_at("Q007", Severity.INFO, 9)]
    assert summary(found) == "0 errors, 0 warnings, 6 infos (5 infos not shown: --verbose lists them)"
    assert summary(found, verbose=True) == "0 errors, 0 warnings, 6 infos"


class _Saves:
    """A stand-in for ``time.sleep`` in the watcher: each pause is counted, and the save's next
    step (a callable) is taken at the pause named for it, as a writer put aside for that long would."""

    def __init__(self, steps: dict[int, Callable[[], object]]) -> None:
        self.steps = steps
        self.pauses = 0

    def __call__(self, seconds: float) -> None:
        self.pauses += 1
        step = self.steps.get(self.pauses)
        if step is not None:
            step()


def _settle(monkeypatch: pytest.MonkeyPatch, rules: Path, saves: _Saves, before: dict[str, tuple[int, ...]]) -> int:
    monkeypatch.setattr(time, "sleep", saves)  # the watcher's pauses, for this test only
    found = watcher._settled(rules, watcher.snapshot(rules), 0.05, before)
    return found["a.yaml"][2]


def test_a_save_that_keeps_the_size_and_the_modification_time_is_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`touch -r` or `cp -p` puts the modification time back, and a coarse file system clock
    (whole seconds, FAT's two) gives two saves within a step the same times: a save of the same
    size then changed nothing `watch` looked at, and was never checked."""
    import os

    from tests.security.helpers import coarse_times

    rules = tmp_path / "rules"
    rules.mkdir()
    file = rules / "a.yaml"
    file.write_text("kind: x\n", encoding="utf-8")
    before = watcher.snapshot(rules)
    put_back = file.stat().st_mtime_ns
    file.write_text("kind: y\n", encoding="utf-8")
    os.utime(file, ns=(put_back, put_back))
    assert watcher.snapshot(rules) != before
    coarse_times(monkeypatch, watcher, "lstat", file, time.time_ns())
    before = watcher.snapshot(rules)
    file.write_text("kind: z\n", encoding="utf-8")
    assert watcher.snapshot(rules) != before


def test_a_file_settling_after_a_save_is_no_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file just saved is looked at by its content until its times are a step behind the clock;
    that step passing is no change (a round reading nothing two seconds after every save)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.yaml").write_text("kind: x\n", encoding="utf-8")
    first = watcher.snapshot(rules)
    later = time.time_ns() + 10_000_000_000
    monkeypatch.setattr(time, "time_ns", lambda: later)
    assert watcher._as_before(watcher.snapshot(rules), first) == first
    settled = watcher.snapshot(rules)
    assert watcher._as_before(watcher.snapshot(rules), settled) == settled


def _emptied(tmp_path: Path) -> tuple[Path, Path, dict[str, tuple[int, ...]]]:
    """A rules folder whose ``a.yaml`` a save has just emptied: the folder, the file, and the state
    read before the save."""
    rules = tmp_path / "rules"
    rules.mkdir()
    file = rules / "a.yaml"
    file.write_text("kind: x\n", encoding="utf-8")
    before = watcher.snapshot(rules)
    file.write_bytes(b"")
    return rules, file, before


def test_a_save_put_aside_between_truncating_and_writing_is_read_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's save that empties the file and writes it a while later (a busy machine holds the
    writer ten pauses, 0.5 s, where one pause of standing still was taken for the end of the save):
    the file is read once written, not as the empty file it was in between."""
    rules, file, before = _emptied(tmp_path)
    saves = _Saves({10: lambda: file.write_text("kind: x\nid: y\n", encoding="utf-8")})
    assert _settle(monkeypatch, rules, saves, before) == len("kind: x\nid: y\n")
    assert saves.pauses == 11  # the pause that saw it written, and one that saw it stand still


def test_a_file_emptied_on_purpose_is_read_after_the_bounded_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, _, before = _emptied(tmp_path)
    saves = _Saves({})
    assert _settle(monkeypatch, rules, saves, before) == 0
    assert saves.pauses == round(watcher.EMPTIED_WAIT / 0.05) + 1


def test_an_empty_file_no_save_touched_delays_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a file the change emptied is waited for: an empty file that was empty before, beside
    the file saved, is read after one pause of standing still, as any save is."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "empty.yaml").write_bytes(b"")
    file = rules / "a.yaml"
    file.write_text("kind: x\n", encoding="utf-8")
    before = watcher.snapshot(rules)
    file.write_text("kind: x\nid: y\n", encoding="utf-8")
    saves = _Saves({})
    assert _settle(monkeypatch, rules, saves, before) == len("kind: x\nid: y\n")
    assert saves.pauses == 1


# --- the global options and streams of `validate`, and the rulesets named, every round (round 21) ---
# `watch -q` printed the infos and the summary lines, and printed every summary on standard output;
# a ruleset named on the command line was looked for once, at the start: deleted (or renamed, or its
# manifest broken) while watched, it was checked no more and the round said "0 errors, 0 warnings,
# 0 infos"; a shipped ruleset named (a variant of it in the rules folder) was never checked at all.
# The loop runs in this process: its pauses (`time.sleep`) are the steps of the session, and the
# last one stops it as Ctrl-C does.

HOUSE = "kind: ruleset\nid: house\nname: house\nextends: {base}\noverlay:\n  settings:\n    {setting}\n"
#: A variant of a small shipped ruleset: its first round checks it whole (it has infos).
SMALL = HOUSE.format(base="imperial-settlers", setting='starting_hand: {common: 3, source: "house rule"}')
#: A variant whose base is nowhere: checked at once (an error, no checks), for the rounds about names.
BASELESS = HOUSE.format(base="nowhere", setting='players: {source: "house rule"}')


class _Session:
    """A stand-in for the watcher's pauses: at the pause named for a step (a save, a deletion) the
    step is taken, and at ``stop`` the session ends as Ctrl-C ends it."""

    def __init__(self, steps: dict[int, Callable[[], object]], stop: int) -> None:
        self.steps, self.stop, self.pauses = steps, stop, 0

    def __call__(self, seconds: float) -> None:
        self.pauses += 1
        step = self.steps.get(self.pauses)
        if step is not None:
            step()
        if self.pauses >= self.stop:
            raise KeyboardInterrupt


def _watched(
    monkeypatch: pytest.MonkeyPatch, rules: Path, arguments: list[str], steps: Mapping[int, Callable[[], object]]
) -> tuple[int, str, str]:
    """`civrules ARGUMENTS watch` over ``rules``, each step taken after the round before it: a
    round is a pause of waiting and one of settling (:func:`watcher._settled`), so step ``n`` is at
    pause ``2n - 1``; the session stops at the first pause after the last round."""
    from click.testing import CliRunner

    from civrules.cli import main

    monkeypatch.setattr(time, "sleep", _Session({2 * n - 1: step for n, step in steps.items()}, 2 * len(steps) + 1))
    monkeypatch.setattr(watcher, "settle", lambda: None)  # the collector is this test process's
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)  # the variants extend shipped rulesets
    result = CliRunner().invoke(main, ["--rules", str(rules), *arguments])
    return result.exit_code, result.stdout, result.stderr


def _house(tmp_path: Path, text: str, *others: str) -> Path:
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "house.yaml").write_text(text, encoding="utf-8")
    for other in others:
        (rules / "rulesets" / f"{other}.yaml").write_text(text.replace("id: house", f"id: {other}"), encoding="utf-8")
    return rules


@pytest.mark.slow  # whole builds (or validations) of a ruleset: seconds under load; a fast case guards it
def test_a_save_while_watch_builds_is_not_vouched_for_by_the_stamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """`watch --build` stamped the tree with the rules as they were once it was written: a save
    while the round built, then the watch stopped before its next round, and `civrules build`
    said "up to date" over a tree of the text before the save."""
    from civrules.emit import build as builder
    from civrules.emit import stamp
    from civrules.load import Limits

    rules = _house(tmp_path, SMALL)
    out = tmp_path / "generated"
    manifest = rules / "rulesets" / "house.yaml"
    built = builder.build

    def saved_meanwhile(*args: Any, **kwargs: Any) -> Any:
        done = built(*args, **kwargs)
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 3", "common: 4"), encoding="utf-8")
        return done

    with monkeypatch.context() as saving:
        saving.setattr(builder, "build", saved_meanwhile)
        code, stdout, err = _watched(saving, rules, ["watch", "house", "--build", "--out", str(out)], {})
    assert code == 130 and "wrote" in err, stdout + err
    limits = Limits()
    arguments = ["house", f"max_bytes={limits.max_bytes}", f"max_nodes={limits.max_nodes}"]  # as `build house`
    assert not stamp.is_up_to_date(rules, out, arguments, limits.max_bytes)
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 4", "common: 3"), encoding="utf-8")
    assert stamp.is_up_to_date(rules, out, arguments, limits.max_bytes)  # what the round read and built


@pytest.mark.slow  # whole builds of a ruleset: seconds under load; a fast case guards it
@pytest.mark.parametrize("when", ["read", "swap"])
def test_what_watch_build_records_is_what_it_read_and_wrote_not_what_it_found_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path, when: str
) -> None:
    """`watch --build` took its stamp's input digest once the round had read the rules, and read its
    new tree again once swapped in: a save right after the read was vouched for as built (`read`),
    and a change made in the output right after the swap was recorded as civrules' own (`swap`)."""
    from civrules.emit import output, stamp
    from civrules.load import Limits
    from civrules.pipeline import incremental

    rules = _house(tmp_path, SMALL)
    out = tmp_path / "generated"
    manifest = rules / "rulesets" / "house.yaml"
    data = out / "python" / "civrules_rulesets" / "house" / "data.py"
    updated, swapped = incremental.Session.update, output._swap

    def saved_after_the_read(session: Any, *args: Any, **kwargs: Any) -> Any:
        done = updated(session, *args, **kwargs)
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 3", "common: 4"), encoding="utf-8")
        return done

    def edited_once_swapped(staging: Path, root: Path) -> None:
        swapped(staging, root)
        data.write_bytes(data.read_bytes() + b"# mine\n")

    with monkeypatch.context() as hooked:
        if when == "read":
            hooked.setattr(incremental.Session, "update", saved_after_the_read)
        else:
            hooked.setattr(output, "_swap", edited_once_swapped)
        code, stdout, err = _watched(hooked, rules, ["watch", "house", "--build", "--out", str(out)], {})
    assert code == 130 and "wrote" in err, stdout + err
    limits = Limits()
    arguments = ["house", f"max_bytes={limits.max_bytes}", f"max_nodes={limits.max_nodes}"]  # as `build house`
    assert not stamp.is_up_to_date(rules, out, arguments, limits.max_bytes)
    if when == "swap":
        monkeypatch.setattr(stamp, "_WRITTEN_HERE", {}, raising=False)  # the cache's record, as another run reads it
        assert [edit.relative for edit in stamp.edits(out)] == ["python/civrules_rulesets/house/data.py"]
    else:
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 4", "common: 3"), encoding="utf-8")
        assert stamp.is_up_to_date(rules, out, arguments, limits.max_bytes)  # what the round read and built


@pytest.mark.slow  # two whole builds of a ruleset under watch: seconds under load
def test_watch_build_finds_a_change_made_in_the_output_while_it_writes_the_new_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """`watch --build` looked for changes made by hand in the output before it wrote the new tree
    (`build` looks just before the swap): a change made while the files were written was replaced
    without a word."""
    from civrules.emit import output

    rules = _house(tmp_path, SMALL)
    out = tmp_path / "generated"
    data = out / "python" / "civrules_rulesets" / "house" / "data.py"
    command = ["watch", "house", "--build", "--out", str(out)]
    code, _, err = _watched(monkeypatch, rules, command, {})
    assert code == 130 and "wrote" in err and data.is_file(), err
    put = output._put
    edits: list[Path] = []

    def edited_while_written(staging: Path, *args: Any, **kwargs: Any) -> None:
        if not edits:
            edits.append(data)
            data.write_bytes(data.read_bytes() + b"# mine\n")
        put(staging, *args, **kwargs)

    with monkeypatch.context() as hooked:
        hooked.setattr(output, "_put", edited_while_written)
        code, _, err = _watched(hooked, rules, command, {})
    assert code == 130 and edits, err
    assert "data.py` was changed since civrules wrote it; this build wrote it anew" in err, err
    assert b"# mine" not in data.read_bytes()


def test_watch_q_lists_errors_and_warnings_only_and_no_summary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _house(tmp_path, SMALL)
    code, out, err = _watched(monkeypatch, rules, ["-q", "watch", "house"], {})
    assert code == 130
    assert (out, err) == ("", ""), (out, err)


def test_r011s_command_under_watch_is_validate_of_the_rulesets_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 31's editor trial (see tests/core/test_pasted_commands.py): R011 under `watch` said
    `civrules --max-diagnostics N --rules DIR watch house`, which lists nothing more and never ends.
    Here, beside the other in-process watches whose set-up it shares (0.4 s of CPU alone in its
    module, most of it the first watch's imports; 0.06 s after another watch)."""
    import shlex

    from tests.core.test_pasted_commands import code_spans

    rules = _house(tmp_path / "my rules", BASELESS.replace("name: house\n", "name: house\nbogus: 1\nworse: 2\n"))
    code, out, _ = _watched(monkeypatch, rules, ["--max-diagnostics", "1", "watch", "house"], {})
    assert code == 130
    (line,) = [line for line in out.splitlines() if "list more with" in line]
    command = code_spans(line)[0]
    assert command == f"civrules --max-diagnostics N --rules {shlex.quote(str(rules))} validate house", line


def test_watch_prints_its_summaries_on_standard_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As `validate`: the report (diagnostics) on standard output, the summary line on standard error."""
    rules = _house(tmp_path, SMALL)
    code, out, err = _watched(monkeypatch, rules, ["watch", "house"], {})
    assert code == 130
    assert "info[Q007]: ruleset `house`" in out and "civrules: " not in out, out
    [line] = err.splitlines()
    assert line.startswith("civrules: 0 errors, 0 warnings, ") and "(read " in line, err


def test_a_watched_ruleset_deleted_is_r001_as_validate_says_and_fixed_when_it_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = _house(tmp_path, BASELESS, "housr")
    manifest = rules / "rulesets" / "house.yaml"
    aside = tmp_path / "house.yaml"
    validated = _watched(monkeypatch, rules, ["validate", "house-x"], {})
    said = [line for line in validated[1].splitlines() if "R001" in line or line.startswith("  hint:")]
    assert said == ["<command line>:1:1: error[R001]: no ruleset `house-x`", "  hint: did you mean `house`?"]
    steps = {1: lambda: manifest.rename(aside), 2: lambda: aside.rename(manifest)}
    code, out, err = _watched(monkeypatch, rules, ["watch", "house"], steps)
    assert code == 130
    rounds = err.splitlines()
    # Its own error (V001: no such base), then R001 in its place, then its own again.
    assert len(rounds) == 3 and all(line.startswith("civrules: 1 error, ") for line in rounds), err
    gone = "<command line>:1:1: error[R001]: no ruleset `house`"
    assert f"{gone}\n  hint: did you mean `housr`?\n" in out, out
    assert f"fixed: {gone}" in out, out


def test_a_watched_ruleset_whose_manifest_breaks_is_told_why_as_validate_tells_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = _house(tmp_path, BASELESS)
    manifest = rules / "rulesets" / "house.yaml"
    code, out, _ = _watched(
        monkeypatch, rules, ["watch", "house"], {1: lambda: manifest.write_text("kind: ruleset\nid: [house\n")}
    )
    assert code == 130
    assert f"{manifest}:3:1: error[L001]: " in out, out


def test_a_shipped_ruleset_named_is_watched_as_validate_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rules folder holding a variant of a shipped ruleset: `watch imperial-settlers` checks the
    shipped one, as `validate imperial-settlers` does (it said "0 errors, 0 warnings, 0 infos")."""
    rules = _house(tmp_path, SMALL)
    code, out, err = _watched(monkeypatch, rules, ["watch", "imperial-settlers"], {})
    validated = _watched(monkeypatch, rules, ["validate", "imperial-settlers"], {})
    assert (code, validated[0]) == (130, 0)
    assert "info[Q007]: ruleset `imperial-settlers`" in out, out
    assert err.split(" (read ")[0] == validated[2].strip().splitlines()[-1], (err, validated[2])


@pytest.mark.usefixtures("crashing_check")
def test_watch_debug_shows_a_crashing_checks_traceback_as_validate_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--debug` reached `build` but not the watch's checks: a check that crashed was R900, whose
    hint asks for "the output of --debug", and `--debug watch` printed the same R900 again."""
    rules = _house(tmp_path, SMALL)
    code, out, err = _watched(monkeypatch, rules, ["--debug", "watch", "house"], {})
    assert code == 2, (out, err)
    assert "Traceback (most recent call last)" in err and "RuntimeError: boom" in err
    code, out, err = _watched(monkeypatch, rules, ["watch", "house"], {})
    assert code == 130 and "error[R900]" in out and "Traceback" not in out + err


# --- a file no ruleset reads any more, judged as `validate` judges it (round 33) ---
# A manifest's path to a missing file has a did-you-mean, found by reading every rule file: it
# read a file another ruleset had just stopped reading before the rulesets were all loaded, and
# the session kept that file's reading as the old ruleset's family had judged it (the round-32
# rule kept a claimed reading until every ruleset was loaded, and for good under `watch RULESET`).
# `watch` went on listing a Sid Meier's Civilization `map`'s errors for a file `validate` judges
# as Advanced Civilization's `map` (the folder's default family), as did the language server.

#: A Sid Meier's Civilization map (its `tiles`), read by `civ`, then by no ruleset.
TILES = "kind: map\ntiles:\n  - id: t1\n"
CIV_READING = "kind: ruleset\nid: civ\nname: Civ\nfamily: sid-meiers-civilization\nfiles:\n  map:\n    - maps/{}.yaml\n"


def test_a_file_a_manifest_stops_reading_for_a_missing_one_is_judged_as_validate_judges_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.core.test_lsp import TINY

    rules = tmp_path / "rules"
    for relative, text in {**TINY, "maps/board.yaml": TILES, "rulesets/civ.yaml": CIV_READING.format("board")}.items():
        (rules / relative).parent.mkdir(parents=True, exist_ok=True)
        (rules / relative).write_text(text, encoding="utf-8")
    manifest = rules / "rulesets" / "civ.yaml"
    # The same size as before: a typo of one letter (a save of the same second is told by its inode).
    typo = CIV_READING.format("bord") + "\n"
    code, out, err = _watched(monkeypatch, rules, ["watch"], {1: lambda: manifest.write_text(typo, encoding="utf-8")})
    validated = _watched(monkeypatch, rules, ["validate"], {})
    assert code == 130 and validated[0] == 1
    # The map read by no ruleset is Advanced Civilization's: its `tiles` is an unknown key.
    assert "error[S002]: unknown key `tiles`" in validated[1], validated[1]
    assert "error[S002]: unknown key `tiles`" in out, out
    assert err.splitlines()[-1].split(" (read ")[0] == validated[2].strip().splitlines()[-1], (err, validated[2])


@pytest.mark.parametrize("cache", ["on", pytest.param("off", marks=pytest.mark.slow)])
def test_watch_build_says_a_change_made_in_the_output_that_its_build_replaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path, cache: str
) -> None:
    """`watch --build` writes the tree as `build` does, and says, as `build` does, on standard error,
    each file of it changed by hand since civrules wrote it that a round's build replaces, once: the
    round after says nothing. Watching one ruleset, a file added beside its packages is carried
    over, as by `build house`, and not said. With the cache off, a round knows what the round
    before wrote (it said nothing of a change by hand: the record was the cache's alone)."""
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(own_cache) if cache == "on" else "")
    rules = _house(tmp_path, SMALL)
    out = tmp_path / "generated"
    data = out / "python" / "civrules_rulesets" / "house" / "data.py"
    manifest = rules / "rulesets" / "house.yaml"

    def edit_the_output_and_save() -> None:
        data.write_bytes(data.read_bytes() + b"# mine\n")
        (out / "notes.txt").write_text("mine\n", encoding="utf-8")
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 3", "common: 4"), encoding="utf-8")

    def save_again() -> None:
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("common: 4", "common: 5"), encoding="utf-8")

    steps = {1: edit_the_output_and_save, 2: save_again}
    code, stdout, err = _watched(monkeypatch, rules, ["watch", "house", "--build", "--out", str(out)], steps)
    assert code == 130, stdout + err
    # the first round's, and one a save (44 files since round 35: the shared runtime's lazy.py, and an
    # empty .gitignore and .hgignore beside each of the three distributions' metadata)
    assert err.count("civrules: wrote 44 files for 1 ruleset") == 3, err
    said = [line for line in err.splitlines() if "civrules wrote it" in line or "not written by" in line]
    assert said == [f"civrules: `{data}` was changed since civrules wrote it; this build wrote it anew"], err
    assert err.count("  hint: what you change in the output is not kept") == 1, err
    assert not data.read_bytes().endswith(b"# mine\n") and (out / "notes.txt").exists()


def test_a_clock_set_back_between_two_rounds_is_no_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set back an hour, the clock made every settled rule file look unsettled (its times in the
    future): each snapshot took its digest, each file looked changed, and a round read them all."""
    import os

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    for name in ("a.yaml", "b.yaml"):
        (rules / "rulesets" / name).write_text("kind: ruleset\n", encoding="utf-8")
        os.utime(rules / "rulesets" / name, (time.time() - 60, time.time() - 60))
    now = time.time_ns()
    monkeypatch.setattr(time, "time_ns", lambda: now + 10**10)  # both settled
    before = watcher._as_before(watcher.snapshot(rules), None)
    monkeypatch.setattr(time, "time_ns", lambda: now - 3600 * 10**9)  # set back an hour
    assert watcher._as_before(watcher.snapshot(rules), before) == before
