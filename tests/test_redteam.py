"""The attacker's re-trial (issue 14): hostile inputs beyond tests/adversarial/cases.yaml.

Each test is one defect class found open by a second trial, named by what must hold; the corpus
format could not express these (an editor's requests, a watcher's later rounds, SARIF's URIs,
the command's options), so they are driven here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.cli.watcher import describe_changes, snapshot
from civrules.diagnostics import Diagnostic, Severity, Span
from civrules.diagnostics.render import render_sarif, sarif_uri
from civrules.load import Limits
from civrules.load.workspace import Workspace
from civrules.pipeline.incremental import Session
from civrules.support import files
from tests.core.test_incremental import copy_subset
from tests.core.test_lsp import Client
from tests.core.test_watch import Watcher

SECRET = "CIVRULES-REDTEAM-SECRET S001"
ESC_NAME = "e\x1b]0;PWNED\x07.yaml"
#: Generous: each step takes well under a second; this only keeps a broken civrules from hanging.
HANG_GUARD = 20.0


# --- the language server reads as the rules are read --------------------------------------------


def test_the_language_server_reads_nothing_outside_and_waits_on_nothing(tmp_path: Path) -> None:
    """A request about `rules/../secret`, a FIFO and a link to /dev/zero: answered, nothing read.

    The server read a file an editor asked about with `Path.read_text`: through `..` out of the
    workspace, through links, without a bound (a link to /dev/zero ran out of memory) and
    blocking on a FIFO (the server never answered again).
    """
    rules = copy_subset(tmp_path / "rules")
    (tmp_path / "secret.yaml").write_text(f"# {SECRET}\n", encoding="utf-8")
    os.mkfifo(rules / "cards" / "fifo.yaml")
    (rules / "cards" / "zero.yaml").symlink_to("/dev/zero")
    client = Client(rules)
    try:
        client.request("initialize", {"processId": None, "rootUri": rules.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        outside = rules.as_uri() + "/../secret.yaml"
        for uri in (outside, (rules / "cards/fifo.yaml").as_uri(), (rules / "cards/zero.yaml").as_uri()):
            at = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}}
            hover = client.request("textDocument/hover", at)
            assert hover is None or SECRET not in json.dumps(hover), uri
            completion = client.request("textDocument/completion", at)
            assert completion is not None
        # The file outside is no document of the workspace: its text is not taken, nor checked.
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": outside, "languageId": "yaml", "version": 1, "text": "kind: nonsense\n"}},
        )
        assert (
            client.request(
                "textDocument/hover", {"textDocument": {"uri": outside}, "position": {"line": 0, "character": 1}}
            )
            is None
        )
        assert client.close() == 0
    finally:
        client.process.kill()
    assert not any("secret.yaml" in json.dumps(n) for n in client.notifications)


def test_a_path_through_dotdot_is_outside_the_session(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    assert session.relative(rules / ".." / "secret.yaml") is None
    assert session.relative(rules / "cards" / ".." / ".." / "rules" / "cards" / "x.yaml") == "cards/x.yaml"
    assert session.relative(rules) is None
    assert session.relative(rules / "cards" / "x.yaml") == "cards/x.yaml"


def test_an_editor_buffer_is_held_to_the_file_size_bound(tmp_path: Path) -> None:
    rules = copy_subset(tmp_path / "rules")
    workspace = Workspace(rules, Limits(max_bytes=1000), overrides={"cards/big.yaml": "kind: map\n# " + "x" * 2000})
    loaded = workspace.load("cards/big.yaml")
    assert loaded.document is None
    assert [d.code for d in loaded.diagnostics] == ["L007"]
    # Characters are not bytes: 600 two-byte letters are 1,200 bytes.
    workspace = Workspace(rules, Limits(max_bytes=1000), overrides={"cards/big.yaml": "kind: map\n# " + "é" * 600})
    assert [d.code for d in workspace.load("cards/big.yaml").diagnostics] == ["L007"]


def test_a_file_turned_into_a_fifo_after_its_stat_is_not_waited_on(tmp_path: Path) -> None:
    """The session's signature read with `open()`: a FIFO swapped in after `stat` blocked it."""
    rules = copy_subset(tmp_path / "rules")
    session = Session(rules)
    workspace = Workspace(rules)
    target = rules / "cards" / "swapped.yaml"
    os.mkfifo(target)
    real_stat = os.stat

    def regular_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if Path(str(path)) == target:  # as if the FIFO came just after this stat
            values = list(found)
            values[0] = 0o100644
            return os.stat_result(values)
        return found

    found: list[tuple[str, str]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "stat", regular_stat)
        reader = threading.Thread(
            target=lambda: found.append(session.signature("cards/swapped.yaml", {}, workspace)), daemon=True
        )
        reader.start()
        reader.join(HANG_GUARD)
    if reader.is_alive():  # let the blocked open() return, so that the thread ends
        with open(target, "wb"):
            pass
    assert found and found[0][0] == "unread"


# --- watch ------------------------------------------------------------------------------------------


def test_watch_prints_no_control_character_of_a_file_name(tmp_path: Path) -> None:
    """A file whose name holds an OSC sequence appears, then goes: every line printed is escaped.

    The "fixed:" lines and the summary's list of files read were formatted by hand, raw.
    """
    rules = copy_subset(tmp_path / "rules")
    hostile = rules / "cards" / ESC_NAME
    watcher = Watcher(rules)
    try:
        seen = watcher.until("civrules: ")
        hostile.write_text("kind: map\n", encoding="utf-8")
        seen += watcher.until("civrules: ")
        hostile.unlink()
        seen += watcher.until("civrules: ")
        assert any(line.startswith("fixed: ") and "PWNED" in line for line in seen)
        assert not [line for line in seen if "\x1b" in line or "\x07" in line]
        assert watcher.interrupt() == 130
    finally:
        watcher.process.kill()


def test_describe_changes_escapes_what_went_away() -> None:
    gone = Diagnostic("S002", Severity.ERROR, "unknown key `\x1b[2J`", Span.at("rules/\x1b[31m.yaml"))
    out = describe_changes([gone], [], sources=None)  # type: ignore[arg-type]
    assert "\x1b" not in out
    assert out == "fixed: rules/\\x1b[31m.yaml:1:1: error[S002]: unknown key `\\x1b[2J`\n"


def test_watch_snapshot_follows_no_link_and_sees_a_file_become_a_fifo(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.yaml").write_text("x: 1\n", encoding="utf-8")
    (rules / "cards" / "up").symlink_to(tmp_path / "outside")
    (rules / "cards" / "a.yaml").write_text("kind: map\n", encoding="utf-8")
    before = snapshot(rules)
    assert sorted(before) == ["cards/a.yaml"]
    (rules / "cards" / "a.yaml").unlink()
    os.mkfifo(rules / "cards" / "a.yaml")
    after = snapshot(rules)
    assert sorted(after) == ["cards/a.yaml"] and after != before


@pytest.mark.parametrize("interval", ["nan", "inf", "-inf", "1e308"])
def test_watch_interval_must_be_a_number_of_seconds(interval: str) -> None:
    result = CliRunner().invoke(main, ["watch", "--interval", interval])
    assert result.exit_code == 2, result.output
    assert "--interval" in result.output
    assert "internal error" not in result.output


def test_watch_build_never_replaces_a_folder_that_holds_the_rules(tmp_path: Path) -> None:
    """`build` refused `--out` holding the rules folder; `watch --build` did not pass the guard on."""
    out = tmp_path / "work"
    rules = copy_subset(out / "rules")
    (out / ".civrules-output").write_bytes(
        (Path(__file__).parent.parent / "generated" / ".civrules-output").read_bytes()
    )
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    process = subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(rules), "watch", "--build", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert process.returncode == 2, process.stderr
    assert "holds the rules folder" in process.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before


# --- SARIF ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "uri"),
    [
        ("rules/cards/a b#c?d%41.yaml", "rules/cards/a%20b%23c%3Fd%2541.yaml"),
        ("javascript:alert(1).yaml", "javascript%3Aalert%281%29.yaml"),
        ("rules/cards/nl\nx.yaml", "rules/cards/nl%0Ax.yaml"),
        ("rules/cards/bad\udcff.yaml", "rules/cards/bad%FF.yaml"),
        ("rules/cards/plain.yaml", "rules/cards/plain.yaml"),
    ],
)
def test_sarif_names_each_file_by_a_uri_of_that_file(name: str, uri: str) -> None:
    """A file name was put in `artifactLocation.uri` as text: `#` cut it, `%41` read as `A`,
    `javascript:` read as a scheme."""
    assert sarif_uri(name) == uri
    log = json.loads(render_sarif([Diagnostic("S002", Severity.ERROR, "x", Span.at(name))]))
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri


# --- bounded walks ----------------------------------------------------------------------------------


def test_a_walk_of_a_huge_tree_stops_with_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--rules /` (or a home folder) walked the whole file system: 21 s and every link reported."""
    rules = copy_subset(tmp_path / "rules")
    (rules / "junk").mkdir()
    for number in range(60):
        (rules / "junk" / f"{number:02}.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(files, "MAX_ENTRIES", 40)
    assert [e.kind for e in files.walk(rules)][-1] == "many"
    assert len(list(files.walk(rules))) == 41
    workspace = Workspace(rules)
    workspace.rule_files()
    (found,) = [d for d in workspace.discovery_diagnostics if "more than 40 files and folders" in d.message]
    assert found.code == "L012" and found.hint is not None and "--rules" in found.hint


# --- names civrules takes itself ------------------------------------------------------------------


def test_the_reserved_names_are_those_the_emitter_writes() -> None:
    from civrules.checks.identity import RESERVED_DISTRIBUTIONS, RESERVED_PACKAGES
    from civrules.emit.packaging import RUNTIME, RUNTIME_DISTRIBUTION

    assert RUNTIME in RESERVED_PACKAGES
    assert RUNTIME_DISTRIBUTION in RESERVED_DISTRIBUTIONS


def test_no_ruleset_can_take_the_name_of_a_family_runtime() -> None:
    """A ruleset `runtime-advanced-civilization` would be distributed as the family runtime's
    `civrules-runtime-advanced-civilization`; one `civrules-runtime-advanced-civilization` would
    import as its package."""
    from civrules.checks.identity import RESERVED_DISTRIBUTIONS, RESERVED_PACKAGES
    from civrules.emit.packaging import family_runtime_distribution, family_runtime_package
    from civrules.families import families

    for family in families():
        assert family_runtime_package(family) in RESERVED_PACKAGES
        assert family_runtime_distribution(family) in RESERVED_DISTRIBUTIONS


def test_a_deleted_working_directory_is_said_with_a_hint(tmp_path: Path) -> None:
    """A run from a folder deleted meanwhile said only `cannot access: no such file or directory`."""
    gone = tmp_path / "gone"
    gone.mkdir()
    process = subprocess.run(
        [
            "sh",
            "-c",
            'cd "$1" && rmdir "$1" && exec "$2" -m civrules --rules "$3" list',
            "sh",
            str(gone),
            sys.executable,
            str(copy_subset(tmp_path / "rules")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert process.returncode == 2, process.stderr
    assert "the working directory no longer exists" in process.stderr
    assert "hint: cd into an existing folder" in process.stderr
    assert "Traceback" not in process.stderr


@pytest.mark.parametrize("command", [["export", "advanced-civilization"], ["explain", "--list"]])
def test_output_cut_short_by_a_file_size_limit_is_exit_2(tmp_path: Path, command: list[str]) -> None:
    """With RLIMIT_FSIZE, Python's buffered stdout took part of a write and dropped the rest:
    `export > file` left 1,024 bytes of JSON and exited 0."""
    import resource

    rules = copy_subset(tmp_path / "rules")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    with (tmp_path / "out.json").open("wb") as out:
        process = subprocess.run(
            [sys.executable, "-m", "civrules", "--rules", str(rules), *command],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            preexec_fn=limit,
            check=False,
        )
    assert process.returncode == 2, process.stderr
    assert "file-size limit" in process.stderr
    assert "Traceback" not in process.stderr and "Exception ignored" not in process.stderr


# --- output bounded by the problems, not by the length of a line -----------------------------------


def test_a_long_line_is_quoted_as_a_window_around_the_caret() -> None:
    """One 4 MB line with 100 unknown keys printed the whole line under each: 450 MB of text."""
    from civrules.diagnostics.render import QUOTE_WIDTH, SourceLines, render_text

    line = "extra: {" + ", ".join(f"k{i}: {'x' * 10_000}" for i in range(100)) + "}"
    columns = [line.index(f"k{i}:") + 1 for i in range(100)]
    diagnostics = [
        Diagnostic("S002", Severity.ERROR, f"unknown key `k{i}`", Span("f.yaml", 1, c, 1, c + len(f"k{i}")))
        for i, c in enumerate(columns)
    ]
    out = render_text(diagnostics, SourceLines(texts={"f.yaml": line}))
    assert len(out) < 100 * (QUOTE_WIDTH + 200)
    quoted = out.splitlines()
    for i in (0, 57, 99):
        at = quoted.index(f"f.yaml:1:{columns[i]}: error[S002]: unknown key `k{i}`")
        source, caret = quoted[at + 1], quoted[at + 2]
        where = caret.index("^")
        assert source[where : where + len(f"k{i}")] == f"k{i}"
        assert caret.count("^") == len(f"k{i}")


@pytest.mark.parametrize(
    "arguments",
    [["validate", "--select", "X\x1b]0;T\x07"], ["explain", "\x1b]0;T\x07"]],
)
def test_an_option_value_is_echoed_escaped(arguments: list[str]) -> None:
    """An OSC sequence (which click's own stripping of colours leaves) in a rejected option value."""
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert "\\x1b]0;T\\x07" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output


@pytest.mark.parametrize(
    "command",
    [["new-variant", "mine", "--extends", "advanced-civilization"], ["validate"], ["list"], ["diff", "a", "b"]],
)
def test_every_command_says_why_a_linked_rules_folder_has_no_rulesets(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "real" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules").symlink_to(tmp_path / "real")
    result = CliRunner().invoke(main, ["--rules", str(tmp_path / "rules"), *command])
    assert result.exit_code == 2, result.output
    assert "R003" in result.output and "symbolic link" in result.output, result.output
    assert not (tmp_path / "real" / "rulesets" / "mine.yaml").exists()
