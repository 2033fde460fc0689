"""Commands printed for the user to paste run what the user ran, on the rules the user's command read.

Round 19's designer trial: run with `--rules DIR --no-shipped`, Q007's hint printed `civrules
--max-diagnostics 165 validate my-ep18 --select Q006`, which pasted in the same shell read the default
`./rules` (R004, or another copy of the rules); new-variant's "next:" and R011's `civrules
--max-diagnostics N` left the options out too. Each command here is pasted as a shell would split
it, from another working directory than the rules' parent, and must run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.support import commands
from tests.conftest import REPO, copy_rulesets

if TYPE_CHECKING:
    from civrules.pipeline.incremental import Result, Session

RULES = REPO / "rules"


def _pasted(command: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Run ``command`` (a `civrules ...` line) as a shell would split it, in ``cwd``."""
    words = shlex.split(command)
    assert words[0] == "civrules"
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, words[1:])
    return result.exit_code, result.stdout


def code_spans(text: str) -> list[str]:
    """The code spans of ``text`` as CommonMark reads them: a run of backticks opens one, and only
    a run of the same length closes it; one space inside each fence is stripped where both are."""
    spans = []
    runs = list(re.finditer("`+", text))
    index = 0
    while index < len(runs):
        opening = runs[index]
        closing = next((i for i in range(index + 1, len(runs)) if len(runs[i].group()) == len(opening.group())), None)
        if closing is None:
            index += 1
            continue
        inside = text[opening.end() : runs[closing].start()]
        if len(inside) > 1 and inside[0] == inside[-1] == " " and inside.strip(" "):
            inside = inside[1:-1]
        spans.append(inside)
        index = closing + 1
    return spans


def _hint_command(hint: str | None) -> str:
    assert hint is not None
    return code_spans(hint)[0]


def test_the_commands_module_says_what_it_does() -> None:
    import doctest

    assert doctest.testmod(commands).failed == 0


def test_q007s_command_repeats_the_options_that_chose_the_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = CliRunner().invoke(
        main, ["--rules", str(RULES), "--no-shipped", "validate", "imperial-settlers", "-v", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    (summary,) = [d for d in json.loads(result.stdout) if d["code"] == "Q007"]
    command = _hint_command(summary["hint"])
    assert command.startswith(f"civrules --rules {shlex.quote(str(RULES))} --no-shipped ")
    assert command.endswith(" validate imperial-settlers --select Q006")
    exit_code, out = _pasted(command + " --format json", tmp_path, monkeypatch)
    assert exit_code == 0, out
    total = int(summary["message"].split(" has ", 1)[1].split(" ", 1)[0])
    assert len([d for d in json.loads(out) if d["code"] == "Q006"]) == total


def test_new_variants_next_command_names_the_rules_folder_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = copy_rulesets(tmp_path / "my rules", "advanced-civilization")
    result = CliRunner().invoke(
        main, ["--rules", str(rules), "new-variant", "mine", "--extends", "advanced-civilization"]
    )
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.splitlines() if "next:" in line]
    command = line.split("`")[1]
    assert command == f"civrules --rules {shlex.quote(str(rules))} validate mine"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    exit_code, out = _pasted(command, elsewhere, monkeypatch)
    assert exit_code == 0, out


def test_r011s_command_is_the_invocation_again_with_the_bound_that_lists_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = ["--rules", str(RULES), "validate", "imperial-settlers", "--select", "Q006", "-v"]
    result = CliRunner().invoke(main, [*given, "--max-diagnostics=2", "--format", "json"])
    assert result.exit_code == 0, result.output
    cut = [d for d in json.loads(result.stdout) if d["code"] == "R011"]
    assert cut
    command = _hint_command(cut[0]["hint"])
    bound = command.split()[2]
    assert command == shlex.join(["civrules", "--max-diagnostics", bound, *given, "--format", "json"])
    exit_code, out = _pasted(command, tmp_path, monkeypatch)
    assert exit_code == 0 and not [d for d in json.loads(out) if d["code"] == "R011"]


def test_r011s_one_line_for_a_file_that_stopped_and_was_cut_is_the_invocation_again(tmp_path: Path) -> None:
    """A file whose checking stopped at the bound and of which more diagnostics were not listed has
    one R011, whose command was a bare `civrules --max-diagnostics N` (two branches met there)."""
    repository = tmp_path / "repo"
    assert CliRunner().invoke(main, ["init", str(repository)]).exit_code == 0
    rules = repository / "rules"
    keys = "".join(f"k{i}: {i}\n" for i in range(200))  # 200 unknown keys: the schema stage stops at 100
    (rules / "extra.yaml").write_text("kind: map\n" + keys, encoding="utf-8")
    given = ["--rules", str(rules), "validate", "--format", "json"]
    result = CliRunner().invoke(main, given)
    (summary,) = [d for d in json.loads(result.stdout) if d["code"] == "R011"]
    assert "stopped checking" in summary["message"] and "not listed" in summary["message"]
    assert _hint_command(summary["hint"]) == shlex.join(["civrules", "--max-diagnostics", "N", *given])


def test_a_stale_builds_command_is_the_build_without_check() -> None:
    from civrules.cli import _build_command

    with commands.invoked(["--rules", "my rules", "build", "--check", "house", "--out", "out"]):
        assert _build_command() == "civrules --rules 'my rules' build house --out out"
    assert _build_command() == "civrules build"


def test_without_an_invocation_a_command_has_no_options() -> None:
    assert commands.command("validate", "x") == "civrules validate x"
    assert commands.rerun() is None


def test_every_civrules_command_with_arguments_is_built_in_one_place() -> None:
    """No f-string writes `civrules ... {argument}` itself: a command with arguments is built by
    :mod:`civrules.support.commands`, which adds the invocation's options (the repository that
    `civrules init` writes names its own commands: no invocation of this one reads it)."""
    import re

    source = REPO / "compiler" / "civrules"
    built = []
    for path in sorted(source.rglob("*.py")):
        if path.name == "repository.py":
            continue
        text = path.read_text(encoding="utf-8")
        built += [f"{path.relative_to(source)}: {m.group(0)}" for m in re.finditer(r"`civrules [^`\n]*\{", text)]
    assert built == []


#: Names a shell would not take as a line prints them: a newline, a tab, an escape, a C1 control,
#: a bidirectional override, a byte that is not UTF-8 (as the file system's decoding keeps it), and
#: what quoting must keep from the shell (a quote, a backslash, `$`, a glob, a leading `-`).
AWKWARD = ["n\nl", "t\tab", "e\x1bsc", "c\x851", "\u202eback", "b\udcffyte", "it's \\ $HOME *", "-n", "\\x41"]

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def _bash_words(command: str) -> list[str]:
    """The words of ``command`` as bash reads it pasted."""
    return _shell_words("bash", command)


def _shell_words(shell: str, command: str) -> list[str]:
    """The words of ``command`` as ``shell`` reads it pasted."""
    done = subprocess.run([shell, "-c", "printf '%s\\0' " + command], capture_output=True, check=True)
    return [os.fsdecode(one) for one in done.stdout.split(b"\0")[:-1]]


#: The shells pasted words are read back by, as the README says (it tells fish's users to use `sh`).
PASTED_INTO = ["dash", "bash"]


def test_the_readme_names_the_shells_pasted_commands_are_written_for_and_tested_in() -> None:
    """Hints give commands to paste written for a POSIX shell; the README says which shells that
    is, which ones the tests paste into, and what fish's users do (fish reads them otherwise)."""
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert "is written for a POSIX shell: sh, dash, bash, zsh or ksh" in readme
    assert f"(the tests paste them into {' and '.join(PASTED_INTO)})" in readme
    assert "in fish, start `sh` and paste the command there" in readme


@pytest.mark.parametrize("shell", PASTED_INTO)
def test_a_word_is_read_back_as_it_was_by_every_posix_sh(shell: str) -> None:
    """A name holding a newline, a control or a bidirectional override was written in bash's
    `$'...'`, which dash (the `sh` of Debian and Ubuntu, and of many CI images) reads as a `$` and
    the escapes as they are: the pasted command named another file. Only a name ending in a newline
    (which a command substitution would drop) keeps `$'...'`."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: the word's form is checked in the shells there are")
    from civrules.support.install import word

    assert _shell_words(shell, " ".join(word(one) for one in AWKWARD)) == AWKWARD
    assert _shell_words(shell, " ".join(word(one) for one in ["50%\x01\\n", "-\x1b", "%s\u202e"])) == [
        "50%\x01\\n",
        "-\x1b",
        "%s\u202e",
    ]


@needs_bash
def test_a_word_is_read_back_by_the_shell_as_it_was_and_prints_as_one_safe_line() -> None:
    from civrules.diagnostics.escape import printable
    from civrules.support.install import path_word, word

    quoted = [word(one) for one in AWKWARD]
    assert all(printable(one) == one for one in quoted)  # printed as is: no escape of the printer's in it
    assert _bash_words(" ".join(quoted)) == AWKWARD
    assert _bash_words(path_word("-n\nx")) == ["./-n\nx"]


@needs_bash
def test_r009s_command_writes_the_folder_named_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`schemas --out DIR --check`: R009's command named DIR in single quotes with its newline
    printed escaped, which a shell read as another folder."""
    monkeypatch.chdir(tmp_path)
    out = "sch\nemas \u202e"
    result = CliRunner().invoke(main, ["schemas", "--out", out, "--check"])
    assert result.exit_code == 1 and "error[R009]" in result.stdout
    hints = {line.split("`")[1] for line in result.stdout.splitlines() if line.strip().startswith("hint:")}
    (command,) = hints
    words = _bash_words(command)
    assert words == ["civrules", "schemas", "--out", out]
    assert CliRunner().invoke(main, words[1:]).exit_code == 0
    assert CliRunner().invoke(main, ["schemas", "--out", out, "--check"]).exit_code == 0


@needs_bash
def test_new_variants_and_inits_next_commands_name_a_folder_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rules = copy_rulesets(tmp_path / "r\nules\x1b", "advanced-civilization")
    result = CliRunner().invoke(
        main, ["--rules", rules.name, "new-variant", "mine", "--extends", "advanced-civilization"]
    )
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.splitlines() if "next:" in line]
    words = _bash_words(line.split("`")[1])
    assert words == ["civrules", "--rules", rules.name, "validate", "mine"]
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, result.output
    made = CliRunner().invoke(main, ["init", "--", "-in\nit"])
    assert made.exit_code == 0, made.output
    (line,) = [line for line in made.stderr.splitlines() if "next:" in line]
    change, _, then = line.split("`")[1].partition(" && ")
    assert then == "civrules validate"
    done = subprocess.run(["bash", "-c", f"{change} && pwd -P"], capture_output=True, check=True)
    assert os.fsdecode(done.stdout).removesuffix("\n") == str((tmp_path / "-in\nit").resolve())


def test_every_command_quotes_its_words_in_one_place() -> None:
    """`shlex.quote` is called by :func:`civrules.support.install.word` alone: a word quoted
    elsewhere (the Python to run, a `make -C` folder, a pip requirement) kept a newline that the
    printed line showed as `\\n`, and a shell read as a backslash and an n."""
    source = REPO / "compiler" / "civrules"
    counts = {
        path.relative_to(source).as_posix(): path.read_text(encoding="utf-8").count("shlex.quote(")
        for path in sorted(source.rglob("*.py"))
    }
    assert {name: count for name, count in counts.items() if count} == {"support/install.py": 1}


@pytest.fixture(autouse=True)
def _no_leftover_invocation() -> Iterator[None]:
    """No test leaves an invocation recorded (a CliRunner's run pops its own)."""
    yield
    assert commands.rerun() is None


def test_a_backtick_in_a_folders_name_does_not_end_the_quoted_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """new-variant's "next:" named a rules folder ``my `rules` `` inside single backquotes: the
    backtick in the name ended the quoted command, and what was pasted was `civrules --rules 'my `."""
    rules = copy_rulesets(tmp_path / "my `rules` ``x", "advanced-civilization")
    result = CliRunner().invoke(
        main, ["--rules", str(rules), "new-variant", "mine", "--extends", "advanced-civilization"]
    )
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.splitlines() if "next:" in line]
    (command,) = code_spans(line.split("next:", 1)[1])
    assert shlex.split(command) == ["civrules", "--rules", str(rules), "validate", "mine"]
    exit_code, out = _pasted(command, tmp_path, monkeypatch)
    assert exit_code == 0, out


def test_the_commands_hints_give_to_paste_are_quoted_in_one_place() -> None:
    """A command made by :mod:`civrules.support.commands` or :mod:`civrules.support.install`, and a
    file's name shown by :meth:`Workspace.display` (or a language server's URI), is put in
    backquotes by :func:`civrules.diagnostics.words.ticked` alone, whose fence no backtick of a
    name can close: `` `{command(...)}` `` written by hand broke on such a name."""
    made = (
        r"(command|rerun|reinstall|install_extra|clone_command|_build_command|_with_bound|_listing|python"
        r"|path_word|word)\("
    )
    shown = (
        r"|`\{(display\}|self\.display\(|workspace\.display\(|_shown\(uri\)"
        # a file's path or name however it is held (round 23: the names a message quotes are read back)
        r"|[\w.]*\.(file|relative)\}|path\.name\}|self\.name_of\(|plain_path\()"
    )
    literal = re.compile(r"`\{(printable\()?" + made + shown)
    source = REPO / "compiler" / "civrules"
    found = [
        f"{path.relative_to(source).as_posix()}:{number}"
        for path in sorted(source.rglob("*.py"))
        if "_generated" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert found == []


def test_q007s_and_r011s_commands_name_a_rules_folder_with_a_backtick_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Q007's listing command and R011's were put in single backquotes by hand: `--rules` of a
    folder named with a backtick ended them inside the folder's name."""
    rules = copy_rulesets(tmp_path / "r`s", "imperial-settlers")
    given = ["--rules", str(rules), "--no-shipped", "validate", "imperial-settlers"]
    result = CliRunner().invoke(main, [*given, "-v", "--max-diagnostics=2", "--format", "json"])
    found = json.loads(result.stdout)
    (summary,) = [d for d in found if d["code"] == "Q007"]
    listing = shlex.split(_hint_command(summary["hint"]))
    assert listing[:4] == ["civrules", "--rules", str(rules), "--no-shipped"]
    cut = [d for d in found if d["code"] == "R011"]
    assert cut
    again = shlex.split(_hint_command(cut[0]["hint"]))
    assert again[3:] == [*given, "-v", "--format", "json"]


def test_a_file_named_with_a_backtick_is_one_code_span_in_the_message(tmp_path: Path) -> None:
    """The messages that name a file put it in backquotes by hand (`cannot read `{display}``): a
    backtick in the name ended them, and the rest of the name read as prose."""
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers")
    named = "cards/a`b ``c.YAML"  # R015: a rule file's suffix civrules does not read, named in the message
    (rules / named).write_text("kind: ruleset\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", "validate", "--format", "json"])
    found = [d for d in json.loads(result.stdout) if d["file"] and d["file"].endswith("c.YAML")]
    assert found, result.stdout
    assert [code_spans(d["message"])[0] for d in found] == [named], [d["message"] for d in found]


#: Names a message may quote: a backtick (alone, doubled, leading, trailing), a space (inside,
#: leading, trailing, both), letters outside ASCII, a newline, a tab.
QUOTED_NAMES = [
    "cards/a`b.yaml",
    "a``b",
    "`lead",
    "trail`",
    "my cards.yaml",
    " lead",
    "trail ",
    " both ",
    "Ünï Cöde.yaml",
    "line\nbreak.yaml",
    "tab\there",
]


@pytest.mark.parametrize("name", QUOTED_NAMES)
def test_a_name_ticked_in_a_message_reads_back_whole(name: str) -> None:
    """What :func:`ticked` quotes, a reader of Markdown (:func:`code_spans`, this module's own) and
    :func:`civrules.diagnostics.words.quoted` read back as it was, among other quotes: a name that
    begins and ends with a space lost both, as CommonMark strips one from each side of a span."""
    from civrules.diagnostics.words import quoted, ticked

    message = f"`x` and {ticked(name)} or {ticked('y')}"
    assert code_spans(message) == ["x", name, "y"]
    assert quoted(message) == ["x", name, "y"]


def test_quoted_reads_a_message_of_many_fences_in_one_pass() -> None:
    """:func:`quoted` pairs each run of backticks with the next of its length, as :func:`code_spans`
    does, on text of runs that never close (every length once) and runs that do."""
    from civrules.diagnostics.words import quoted

    text = " ".join("`" * n + "x" for n in range(4, 60)) + " `a` `` b`c `` ```"
    assert quoted(text) == code_spans(text) == ["a", "b`c"]


def test_the_quoting_modules_say_what_they_do() -> None:
    import doctest

    from civrules.diagnostics import suggest, words

    assert doctest.testmod(words).failed == 0
    assert doctest.testmod(suggest).failed == 0


def test_without_an_invocation_r011s_command_is_validate(tmp_path: Path) -> None:
    """A session in another program's process (the language server in an editor's extension, a
    test, a library caller) has no command line to repeat: R011's hint said `civrules
    --max-diagnostics 4`, which names no command and runs none. It names `validate` of the session's
    rules folder, which lists them."""
    from civrules.load import Limits
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    keys = "".join(f"k{i}: {i}\n" for i in range(3))
    (rules / "rulesets" / "tiny.yaml").write_text("kind: ruleset\nid: tiny\nname: Tiny\n" + keys, encoding="utf-8")
    session = Session(rules, Limits(max_diagnostics=1))
    cut = [d for ds in session.update().by_file(1).values() for d in ds if d.code == "R011"]
    assert cut
    for summary in cut:
        words = shlex.split(_hint_command(summary.hint))
        assert words[:2] == ["civrules", "--max-diagnostics"], words
        assert words[3:] == ["--rules", str(rules), "--no-shipped", "validate"], words


# --- a session checking a rules folder in this process (round 31's editor trial) ---
# The language server recorded its own invocation (`--rules rules`, relative, looked for in each
# workspace folder) and `watch` recorded `watch`: Q007's command of a second workspace folder named
# the first's rules (or, in a server started by another program, none: the default `./rules`), and
# R011's under `watch` was `civrules --max-diagnostics N --rules DIR watch`, which lists nothing more
# and never ends.


def _by_turns(sessions: list[Session]) -> list[Result]:
    """The sessions' runs taken a step at a time each, by turns, as the server takes its folders'."""
    runs = [session.steps() for session in sessions]
    results: list[Result | None] = [None] * len(runs)
    while not all(results):
        for at, run in enumerate(runs):
            if results[at] is None:
                results[at] = next(run)
    return [result for result in results if result is not None]


def _commands_of(result: Result, code: str, limit: int | None = None) -> list[str]:
    found = [d for d in result.diagnostics if d.code == code]
    if limit is not None:
        found = [d for listed in result.by_file(limit).values() for d in listed if d.code == code]
    assert found
    return [_hint_command(d.hint) for d in found]


def test_each_sessions_r011_names_its_own_rules_folder(tmp_path: Path) -> None:
    """Two sessions, of two workspace folders' rules found under one relative `--rules`, run by
    turns as the server runs them: each one's R011 (a file whose checking stopped; a file with more
    than the bound) lists the rest from its own folder."""
    from civrules.load import Limits
    from civrules.pipeline.incremental import Session

    folders = [tmp_path / name / "rules" for name in ("one", "two words")]
    for folder in folders:
        folder.mkdir(parents=True)
        (folder / "extra.yaml").write_text("kind: map\nk1: 1\nk2: 2\nk3: 3\n", encoding="utf-8")
    sessions = [Session(folder, Limits(max_diagnostics=1)) for folder in folders]
    with commands.invoked(["--rules", "rules", "validate"]):  # what `civrules --rules rules lsp` records
        results = _by_turns(sessions)
    for folder, result in zip(folders, results, strict=True):
        wanted = f"civrules --max-diagnostics N --rules {shlex.quote(str(folder))} validate"
        assert _commands_of(result, "R011") == [wanted]
        assert _commands_of(result, "R011", 2) == [wanted]  # as the server lists a file's diagnostics
    # In a process that recorded no invocation (a server another program started), the same, with
    # the options of its own that choose what it reads.
    alone = Session(folders[1], Limits(max_diagnostics=1, max_nodes=99)).update()
    (command,) = _commands_of(alone, "R011")
    assert command == _commands_of(results[1], "R011")[0].replace(" validate", " --no-shipped --max-nodes 99 validate")
    assert commands.rerun() is None  # nothing of the sessions' is left recorded


@pytest.mark.slow  # checks a copy of imperial-settlers twice, and pastes the command (about 1.5 s)
def test_each_sessions_q007_names_its_own_rules_folder_and_runs_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from civrules.pipeline.incremental import Session

    monkeypatch.setenv("CIVRULES_NO_SHIPPED", "1")  # the folders hold their own copies of the shipped rulesets
    folders = [copy_rulesets(tmp_path / name / "rules", "imperial-settlers") for name in ("one", "two words")]
    # What `civrules --rules rules --no-shipped lsp` records.
    with commands.invoked(["--rules", "rules", "--no-shipped", "validate"]):
        results = _by_turns([Session(folder) for folder in folders])
    for folder, result in zip(folders, results, strict=True):
        (command,) = _commands_of(result, "Q007")
        assert command == (
            f"civrules --rules {shlex.quote(str(folder))} --no-shipped --max-diagnostics 178 "
            "validate imperial-settlers --select Q006"
        )
        monkeypatch.delenv("CIVRULES_NO_SHIPPED")
        exit_code, out = _pasted(command + " --format json", tmp_path, monkeypatch)
        (summary,) = [d for d in result.diagnostics if d.code == "Q007"]
        total = int(summary.message.split(" has ", 1)[1].split(" ", 1)[0])
        assert exit_code == 0 and len([d for d in json.loads(out) if d["code"] == "Q006"]) == total, out
        monkeypatch.setenv("CIVRULES_NO_SHIPPED", "1")
