"""Issue 27, points 6 and 7: no run that read nothing it needed exits 0, no documented input ends in
"internal error", and the messages the trial found misleading say what is wrong, where, with a hint.
"""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules import __version__
from civrules.cli import main
from civrules.diagnostics import codes
from civrules.diagnostics.suggest import did_you_mean, mean
from civrules.load import read_yaml_bytes, read_yaml_text
from civrules.support import files
from tests.conftest import copy_files

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"
BASE = "rulesets/advanced-civilization.yaml"
VARIANT = "rulesets/advanced-civilization-western.yaml"
CARDS = "cards/advanced-civilization.yaml"
KEEP = (
    BASE,
    VARIANT,
    CARDS,
    "cards/advanced-civilization-commodities.yaml",
    "calamities/advanced-civilization.yaml",
    "maps/mediterranean.yaml",
    "maps/western-panel.yaml",
    "rulebooks/advanced-civilization.yaml",
)


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_files(tmp_path / "rules", KEEP)


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return result.exit_code, result.output


def no_bug(output: str) -> None:
    assert "internal error" not in output and "Traceback" not in output and "bug in civrules" not in output, output


# --- 6. a run that read nothing it needed fails -------------------------------------------------


@pytest.mark.parametrize("bound", [("--max-file-size", "1"), ("--max-nodes", "1")])
def test_a_command_that_read_no_manifest_fails(rules: Path, tmp_path: Path, bound: tuple[str, str]) -> None:
    """`build --max-file-size 1` printed "0 errors" and exited 0 where `validate` exited 1."""
    for command in (
        ["build", "--out", tmp_path / "out"],
        ["build", "--check", "--out", tmp_path / "out"],
        ["validate"],
        ["sheets", "advanced-civilization", "--out", tmp_path / "sheets"],
        ["diff", "advanced-civilization", "advanced-civilization-western"],
        ["export", "advanced-civilization"],
    ):
        code, output = invoke("--rules", rules, *bound, *command)
        assert code == 1, (command, output)
        assert "L007" in output or "L005" in output, output
        no_bug(output)
    assert not (tmp_path / "out").exists() and not (tmp_path / "sheets").exists()


def test_a_build_of_every_ruleset_with_a_manifest_it_cannot_read_builds_nothing(rules: Path, tmp_path: Path) -> None:
    (rules / "rulesets" / "broken.yaml").write_text("kind: ruleset\nid: [broken\n", encoding="utf-8")
    code, output = invoke("--rules", rules, "build", "--out", tmp_path / "out")
    assert code == 1 and "broken.yaml" in output and "L001" in output and "nothing was built" in output
    assert not (tmp_path / "out").exists()
    # Naming a ruleset builds that one.
    code, output = invoke("--rules", rules, "build", "advanced-civilization", "--out", tmp_path / "out")
    assert code == 0, output


def test_a_folder_without_manifests_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "rules" / "cards").mkdir(parents=True)
    code, output = invoke("--rules", tmp_path / "rules", "build", "--out", tmp_path / "out")
    assert code == 2 and "R004" in output and "no ruleset manifests" in output


def test_out_of_memory_is_exit_2_naming_the_bounds(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import civrules.pipeline

    def exhausted(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(civrules.pipeline, "analyse", exhausted)
    code, output = invoke("--rules", rules, "validate", "advanced-civilization")
    assert code == 2
    assert "<command line>:1:1: error[R017]: out of memory on ruleset `advanced-civilization`" in output
    assert "--max-file-size" in output and "--max-nodes" in output and "ulimit -v" in output
    no_bug(output)
    # In json, a valid document holding the diagnostic (stdout was left empty).
    code, output = invoke("--rules", rules, "validate", "advanced-civilization", "--format", "json")
    (said,) = json.loads(output)
    assert (code, said["code"], said["file"]) == (2, "R017", "<command line>") and "--max-nodes" in said["hint"]


@pytest.mark.parametrize(
    "failure",
    [
        RuntimeError("can't start new thread"),
        ImportError("numpy C-extensions failed", name="numpy"),
    ],
)
def test_a_thread_or_library_the_memory_cannot_hold_is_out_of_memory(
    rules: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    """Under `ulimit -v`, a build ended in "internal error" when no thread could be started, or when
    numpy's compiled modules could not be mapped."""
    import civrules.pipeline

    if isinstance(failure, ImportError):
        failure.__cause__ = ImportError("libopenblas.so: failed to map segment from shared object")

    def exhausted(*args: Any, **kwargs: Any) -> Any:
        raise failure

    monkeypatch.setattr(civrules.pipeline, "analyse", exhausted)
    code, output = invoke("--rules", rules, "validate", "advanced-civilization", "--format", "json")
    (said,) = json.loads(output)
    assert (code, said["code"]) == (2, "R017"), said
    assert said["message"].startswith("out of memory: ") and "ulimit -v" in said["hint"]


def test_numpy_is_not_loaded_where_the_address_space_cannot_hold_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenBLAS, loaded with numpy, ended the process with status 1 (the rules have errors) where it
    could not map its buffers: the room is asked for first, and its absence is a MemoryError."""
    import mmap

    from civrules.support import memory

    memory.reserve(2**20, "a test")  # room there is: nothing raised

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(mmap, "mmap", refused)
    with pytest.raises(MemoryError, match="no room in the address space to load numpy"):
        memory.reserve(memory.NUMPY_ROOM, "numpy")


def test_a_check_out_of_memory_is_not_reported_as_its_bug(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.checks import catalogue

    entries = catalogue.all_checks()

    class Exhausting:
        def __init__(self, entry: Any) -> None:
            self.code, self.family = entry.code, entry.family

        def run(self, ruleset: Any) -> Any:
            raise MemoryError

    monkeypatch.setattr(catalogue, "all_checks", lambda family=None: [Exhausting(entries[0]), *entries[1:]])
    code, output = invoke("--rules", rules, "validate", "advanced-civilization")
    assert code == 2 and "out of memory" in output and "R900" not in output
    no_bug(output)


# Seconds of CPU in a child of its own (an address-space limit cannot be lifted once set): `make
# test-slow`. `make test` holds the same message with a MemoryError raised in process (above).
@pytest.mark.slow
def test_a_build_beyond_the_address_space_limit_is_exit_2_with_a_hint(rules: Path, tmp_path: Path) -> None:
    """A real MemoryError, in a child under a 600 MiB address-space limit: a sparse file of 1 GiB
    read whole (a raised --max-file-size lets it be)."""
    with (rules / CARDS).open("r+b") as handle:
        handle.truncate(2**30)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (600 * 2**20, 600 * 2**20))

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "civrules",
            "--rules",
            str(rules),
            "--max-file-size",
            str(2**31),
            "build",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        preexec_fn=limited,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "error[R017]: out of memory" in done.stdout and "address-space limit is 600 MiB" in done.stdout
    assert "--max-file-size (now 2,147,483,648 bytes)" in done.stdout
    no_bug(done.stdout + done.stderr)


# --- 6 and 7: the rules folder named on the command line ------------------------------------------


def test_a_rules_folder_that_is_no_folder_is_a_located_usage_error(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    cases: list[tuple[list[str | Path], dict[str, str] | None, str, str, str]] = [
        (["--rules", loop, "validate"], None, "R003", "`--rules ", "link loop"),
        (["list"], {"CIVRULES_RULES": str(loop)}, "R003", "CIVRULES_RULES=", "link loop"),
        (["--rules", loop, "build", "--out", tmp_path / "out"], None, "R003", "`--rules ", "link loop"),
        (["--rules", tmp_path / "fifo", "validate"], None, "R004", "`--rules ", "not a folder but a FIFO"),
        (["--rules", tmp_path / "file", "list"], None, "R008", "invalid value for '--rules'", "is a file"),
        (["list"], {"CIVRULES_RULES": str(tmp_path / "file")}, "R008", "invalid value for '--rules'", "is a file"),
        (["--rules", tmp_path / "missing", "validate"], None, "R004", "`--rules ", "no such folder"),
        (["validate"], {"CIVRULES_RULES": str(tmp_path / "missing")}, "R004", "CIVRULES_RULES=", "no such folder"),
    ]
    # `lsp` starts all the same: it tells the editor through the protocol (tests/core/test_lsp_workspace.py).
    for args, env, code_name, named, said in cases:
        code, output = invoke(*args, env=env)
        assert code == 2, (args, output)
        assert code_name in output and named in output and said in output, (args, output)
        assert "no ruleset manifests" not in output
        no_bug(output)


def test_an_empty_rules_folder_name_is_refused_not_the_working_directory(tmp_path: Path) -> None:
    for args in (["--rules", "", "validate"], ["validate", "--rules", ""], ["--rules", " ", "list"]):
        code, output = invoke(*args)
        assert code == 2 and "the name of the rules folder is empty" in output, output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["schemas", "--out", "-"], "`-` stands for standard input or output"),
        (["build", "--out", "-"], "`-` stands for standard input or output"),
        (["watch", "--out", "-"], "`-` stands for standard input or output"),
        (["sheets", "x", "--out", "-"], "`-` stands for standard input or output"),
        (["helpers", "x", "--out", "-"], "`-` stands for standard input or output"),
        (["init", "-"], "`-` stands for standard input or output"),
        (["--rules", "-", "list"], "`-` stands for standard input or output"),
        (["init", ""], "the name of the new repository's folder is empty"),
        (["schemas", "--out", ""], "the name of the output folder is empty"),
        (["schemas", "--out", "out\n"], "ends in a line's end (`out\\n`)"),
        (["init", "new\n"], "ends in a line's end (`new\\n`)"),
        (["build", "--out", "out\r\n"], "ends in a line's end"),
    ],
)
def test_a_folder_named_dash_empty_or_with_a_lines_end_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], said: str
) -> None:
    """`civrules schemas --out -` wrote a folder named `-` (no command writes a folder to standard
    output), `init ""` (`init "$DIR"` with DIR unset) made the repository in the working directory,
    and `--out $'out\\n'` a folder whose name ends in a newline. Each is R008, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    code, output = invoke(*args)
    assert (code, "error[R008]" in output, said in output) == (2, True, True), output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    no_bug(output)


def test_a_folder_called_dash_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = invoke("schemas", "--out", "./-")
    assert code == 0, output
    assert (tmp_path / "-" / ".civrules-output").is_file()


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("./-", "`./-`"),  # as a path, `-`: read as standard output
        ("./-x", "`./-x`"),  # read as an option
        ("~/out", "`./~/out`"),  # a folder called `~`, not the home folder
        ("my out", "`my out`"),  # one name, not two words
        ("a\x1b[31mred", "`a\\x1b[31mred`"),  # no escape sequence reaches the terminal
    ],
)
def test_each_message_names_the_folder_the_user_typed(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, named: str
) -> None:
    """Round 27's attacker: `--out ./-` said "wrote 18 files into -" (the path dropped its `./`),
    and a folder was named bare in the notes of a write, so `~/out` (a folder called `~`) read as
    the home folder and `my out` as two words. Every note and refusal naming the folder names it
    escaped, in backquotes, as typed."""
    monkeypatch.chdir(tmp_path)
    code, output = invoke("schemas", "--out", typed)
    assert (code, output.splitlines()[-1]) == (0, f"civrules: wrote 18 files into {named}"), output
    code, output = invoke("schemas", "--check", "--out", typed)
    assert (code, output.splitlines()[-1]) == (0, f"civrules: {named} holds the schemas of civrules {__version__}")
    code, output = invoke("--rules", rules, "build", "--out", typed)  # the schemas' folder: refused, named
    assert (code, f"refusing to replace {named}: it holds the output of civrules' `schemas`" in output) == (2, True)
    assert "\x1b" not in output, output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([""], 'no command `""` (empty)'),
        (["validate", ""], 'no ruleset `""` (empty)'),
        (["sheets", " "], 'no ruleset `" "` (blank)'),
        (["explain", " "], 'no diagnostic code `" "` (blank)'),
        (["validate", "a`b"], "no ruleset `` a`b ``"),
    ],
)
def test_a_name_typed_empty_blank_or_with_a_backquote_is_shown_so(rules: Path, args: list[str], said: str) -> None:
    """`civrules validate "$RULESET"` with the variable unset said "no ruleset ``", and a blank
    code "no diagnostic code ` `": nothing to read between the backquotes. A name the command line
    does not know is quoted as the data's names are (:func:`civrules.diagnostics.words.shown`)."""
    code, output = invoke("--rules", rules, *args)
    assert code == 2 and said in output.splitlines()[0], output
    no_bug(output)


def test_a_command_a_hint_gives_keeps_the_dot_of_a_folder_called_dash(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build --check --out ./-` on the schemas' folder hinted `civrules schemas --check --out -`,
    which, pasted, is refused (R008: `-` is no folder). The command keeps the `./`, and runs."""
    monkeypatch.chdir(tmp_path)
    assert invoke("schemas", "--out", "./-")[0] == 0
    code, output = invoke("--rules", rules, "build", "--check", "--out", "./-")
    assert code == 2 and "error[R007]" in output, output
    from civrules.diagnostics.words import quoted

    pasted = [name for name in quoted(output) if name.startswith("civrules ")]
    assert [name.endswith(" schemas --check --out ./-") for name in pasted] == [True], output
    assert invoke(*shlex.split(pasted[0])[1:])[0] == 0


# --- 7. messages ------------------------------------------------------------------------------------


class _Os:
    """The os module as civrules.support.files sees it, with another `open`."""

    def __init__(self, opener: Any) -> None:
        self.open = opener

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


def test_new_variant_on_a_full_disk_names_the_file_it_could_not_write(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while `new-variant` wrote its manifest was "cannot write the output", hinted
    to send the output elsewhere: the write to a descriptor named no file, and was taken for
    standard output's. It is the manifest it could not create, and nothing is left of it."""
    opened = os.fdopen

    class Full:
        def __init__(self, fd: int, mode: str) -> None:
            self.handle = opened(fd, mode)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    def full(fd: int, content: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", Full)  # the one files.create_under calls for a file made by name
    monkeypatch.setattr(files, "write_all", full)  # and for one made without a name
    code, output = invoke("--rules", rules, "new-variant", "my-variant", "--extends", "advanced-civilization")
    assert code == 2
    assert "error[R007]: cannot create `" in output and "my-variant.yaml`: no space is left" in output, output
    assert "the output" not in output and "hint: civrules needs to write a new file into" in output
    assert not (rules / "rulesets" / "my-variant.yaml").exists()
    no_bug(output)


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EACCES])
def test_a_file_the_system_refused_is_named_as_it_was_typed(number: int) -> None:
    """A file the system refused under `--out ./-o` (a full disk) or `--rules ./-r` was "cannot
    write `-o/x.json`", an option to whoever pastes it: named as every message names a path."""
    from civrules.diagnostics.process import diagnose

    failure = diagnose(OSError(number, os.strerror(number), "-o/x.json"))
    assert "`./-o/x.json`" in failure.diagnostic.message and "`-o" not in failure.diagnostic.message


def test_new_variant_where_it_cannot_write_says_it_cannot_create(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        nameless = getattr(os, "O_TMPFILE", 0)
        if flags & os.O_CREAT or (nameless and flags & nameless == nameless):  # a file made by name, or not
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(files, "os", _Os(read_only))
    code, output = invoke("--rules", rules, "new-variant", "my-variant", "--extends", "advanced-civilization")
    assert code == 2
    assert "cannot create" in output and "cannot read" not in output and "permission denied" in output.lower()
    assert "hint:" in output
    no_bug(output)


def test_list_says_when_a_name_cannot_be_read(rules: Path) -> None:
    variant = rules / VARIANT
    text = variant.read_text(encoding="utf-8")
    variant.write_text(
        re.sub(r'^name: ".*"$', lambda _: 'name: "bad\\x01name"', text, count=1, flags=re.MULTILINE),
        encoding="utf-8",
    )
    code, output = invoke("--rules", rules, "list")
    assert code == 0
    (line,) = [line for line in output.splitlines() if line.startswith("advanced-civilization-western ")]
    assert "None" not in line and "no readable name" in line


def test_a_non_finite_key_is_one_diagnostic_saying_it_is_a_key() -> None:
    """`.nan: 1` was "mapping key null is a null" besides L011."""
    for key in (".nan", ".inf", "-.Inf", ".NaN"):
        _, diagnostics = read_yaml_text(f"kind: map\n{key}: 1\n", "f.yaml")
        (diagnostic,) = diagnostics
        assert diagnostic.code == "L011" and diagnostic.span is not None
        assert (diagnostic.span.line, diagnostic.span.column) == (2, 1)
        assert f"mapping key `{key}`" in diagnostic.message and "null" not in diagnostic.message
        assert diagnostic.hint == f'quote it if it is meant as text: "{key}"'
    # As a value, as before.
    _, diagnostics = read_yaml_text("cost: .nan\n", "f.yaml")
    assert [d.message for d in diagnostics] == ["`.nan` is not a finite number"]


def test_a_number_of_thousands_of_digits_is_quoted_cut_in_its_message() -> None:
    """A float of 3,000,000 digits that is not finite was quoted whole: a 3 MB message, and as
    much again in `--format json`, times every alias of it (round 33). The number, a `!!int` that
    is none and a leading zero's reading are shown cut, as a long key is (`words.clipped`)."""
    long = "9" * 3_000
    text = f"a: 1.{long}e999\nb: {long}.5e999\nc: !!int 1.{long}\nd: 0{'7' * 3_000}\ne: &n .{long}e999\nf: [*n, *n]\n"
    _, diagnostics = read_yaml_text(text, "f.yaml")
    assert {d.code for d in diagnostics} == {"L011", "L014", "S001"}
    for diagnostic in diagnostics:
        shown = diagnostic.message + (diagnostic.hint or "") + "".join(diagnostic.subjects)
        assert len(shown) < 500, (diagnostic.code, len(shown))


def test_a_number_with_a_leading_zero_is_a_warning_saying_how_it_was_read() -> None:
    document, diagnostics = read_yaml_text("cost: 012\nb: 09\nc: -07\nd: 0\ne: 10\nf: 0.5\ng: '012'\n", "f.yaml")
    assert document is not None and document.data["cost"] == 12  # still read, as YAML 1.2 reads it
    found = {d.span.line: d for d in diagnostics if d.span is not None}
    assert sorted(found) == [1, 2, 3] and all(d.code == "L014" and d.severity.value == "warning" for d in diagnostics)
    assert "read as the decimal number 12" in found[1].message and "octal, 10" in found[1].message
    assert found[1].hint == 'write `12`, or quote it if it is text (`"012"`)'
    assert "read it as the text `09`" in found[2].message
    assert found[3].message == "`-07` has a leading zero: read as the decimal number -7"
    span = found[1].span
    assert span is not None and (span.line, span.column) == (1, 7)


def test_the_leading_zero_code_is_documented_with_its_fixtures() -> None:
    """L014's documentation says What, Why and Fix; its FAIL line warns, its PASS lines do not."""
    code = codes.lookup("L014")
    assert code is not None and code.severity.value == "warning"
    doc = textwrap.dedent(code.doc)
    assert all(part in doc for part in ("What:", "Why:", "Fix:"))
    examples = [line.strip() for line in doc.splitlines() if "# PASS" in line or "# FAIL" in line]
    assert len(examples) == 3
    for line in examples:
        _, diagnostics = read_yaml_text(line.split("#")[0] + "\n", "f.yaml")
        assert [d.code for d in diagnostics] == (["L014"] if "# FAIL" in line else []), line
    exit_code, output = invoke("explain", "L014")
    assert exit_code == 0 and "leading-zero" in output


def test_a_leading_zero_in_rule_data_is_reported_by_validate(rules: Path) -> None:
    cards = rules / CARDS
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("    cost: 45\n", "    cost: 045\n", 1), encoding="utf-8"
    )
    code, output = invoke("--rules", rules, "validate", "advanced-civilization", "--format", "json")
    assert code == 0  # a warning
    (found,) = [d for d in json.loads(output) if d["code"] == "L014"]
    assert found["file"].endswith(CARDS) and "read as the decimal number 45" in found["message"]
    code, _ = invoke("--rules", rules, "validate", "advanced-civilization", "--strict")
    assert code == 1


def test_a_utf32_file_is_called_utf32() -> None:
    for mark in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        _, (diagnostic,) = read_yaml_bytes(mark + "kind: map\n".encode("utf-32-le"), "f.yaml")
        assert diagnostic.code == "L008" and "UTF-32" in diagnostic.message and "UTF-16" not in diagnostic.message
    _, (diagnostic,) = read_yaml_bytes(b"\xff\xfe" + "kind: map\n".encode("utf-16-le"), "f.yaml")
    assert "UTF-16" in diagnostic.message


def test_no_internal_marker_reaches_a_message(rules: Path) -> None:
    """An alias of a refused node (a collection used as a key) was the reader's sentinel, which a
    schema message then showed as `<object object at 0x...>`."""
    text = "kind: map\n? &k [1]\n: 2\nareas: *k\n? *k\n: 3\nborders: *k\n"
    document, diagnostics = read_yaml_text(text, "f.yaml")
    assert document is not None and document.data == {"kind": "map", "areas": None, "borders": None}
    assert [d.code for d in diagnostics] == ["L003"]
    map_file = rules / "maps" / "hostile.yaml"
    map_file.write_text(text, encoding="utf-8")
    _, output = invoke("--rules", rules, "validate")
    assert "object at 0x" not in output and "<object" not in output


def test_a_look_alike_id_is_not_proposed_as_its_own_fix(rules: Path) -> None:
    """An id with a Cyrillic `о` got the hint "ids are lower_snake_case, e.g. `demоcracy`": the
    same look-alike id it refused."""
    cards = rules / CARDS
    text = cards.read_text(encoding="utf-8")
    assert "{card: democracy" in text
    cards.write_text(text.replace("{card: democracy", "{card: dem\u043ecracy", 1), encoding="utf-8")
    code, output = invoke("--rules", rules, "validate", "advanced-civilization", "--format", "json")
    assert code == 1
    (found,) = [d for d in json.loads(output) if d["code"] == "S001"]
    assert "U+043E CYRILLIC SMALL LETTER O" in found["hint"] and "retype" in found["hint"]
    assert "dem\u043ecracy" not in found["hint"]
    # An accent has an ASCII form: the example is it.
    cards.write_text(text.replace("{card: democracy", "{card: d\u00e9mocracy", 1), encoding="utf-8")
    _, output = invoke("--rules", rules, "validate", "advanced-civilization", "--format", "json")
    (found,) = [d for d in json.loads(output) if d["code"] == "S001"]
    assert found["hint"] == "ids are lower_snake_case, e.g. `democracy`"


def test_a_did_you_mean_between_look_alikes_names_the_difference() -> None:
    assert mean("enginering", "engineering") == "did you mean `engineering`?"
    hint = mean("p\u043ettery", "pottery")
    assert hint.startswith("did you mean `pottery`? ") and "U+043E CYRILLIC SMALL LETTER O" in hint
    assert "U+006F LATIN SMALL LETTER O" in hint
    assert "U+200B ZERO WIDTH SPACE" in mean("pot\u200btery", "pottery")
    assert did_you_mean("p\u043ettery", ["pottery", "astronomy"]) == hint


def test_a_build_whose_sync_threads_cannot_start_syncs_its_files_itself(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under `ulimit -v` (or a process's thread limit) the threads that sync the written files could
    not start: the build, its tree already rendered into the staging folder, ended in R017 (exit 2).
    The threads only overlap the syncs with the work: without them each file is synced where it is
    written, and the build is whole."""
    import threading

    start = threading.Thread.start
    refused: list[str] = []

    def no_room(thread: threading.Thread) -> None:
        if thread.name == "civrules-sync":
            refused.append(thread.name)
            raise RuntimeError("can't start new thread")
        start(thread)

    out = tmp_path / "generated"
    code, expected = invoke("--rules", rules, "--no-shipped", "build", "advanced-civilization", "--out", out)
    assert code == 0, expected
    built = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    again = tmp_path / "again"
    opened = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    monkeypatch.setattr(threading.Thread, "start", no_room)
    code, output = invoke("--rules", rules, "--no-shipped", "build", "advanced-civilization", "--out", again)
    monkeypatch.setattr(threading.Thread, "start", start)
    assert code == 0, output
    no_bug(output)
    assert refused == ["civrules-sync"]  # one refusal, then every file synced where it was written
    assert {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()} == built
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again", "generated", "rules"]
    if opened is not None:  # every file's descriptor closed
        assert len(os.listdir("/proc/self/fd")) <= opened


#: A path said at a word's start as `-/...` (read as an option) or `~/...` (read as the home folder).
_BARE = re.compile(r"(?:^|[\s`(])[-~]/")


@pytest.mark.parametrize("folder", ["-", "~"])
def test_every_file_of_a_rules_folder_typed_with_its_dot_is_said_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """Round 28's attacker: round 27 named a folder the user typed as typed (`./-`), but the files
    in it were said without the `./`: `--rules ./-` located an error at `-/cards/x.yaml:1:1`, and
    `cannot read `-/maps/m.yaml``, where a reader pasting the name gives an option, and `./~` the
    home folder. Every location, note and message of the text output says `./-/...`; the machine
    formats keep the file as a path (`-/cards/x.yaml`), which no reader takes for anything else."""
    monkeypatch.chdir(tmp_path)
    rules = copy_files(tmp_path / folder, KEEP)
    (rules / CARDS).write_text((rules / CARDS).read_text() + "\n  - [\n")  # a syntax error
    (rules / "maps" / "linked.yaml").symlink_to(rules / "maps" / "mediterranean.yaml")
    manifest = rules / VARIANT
    manifest.write_text(manifest.read_text().replace("maps/western-panel.yaml", "maps/missing.yaml"))
    code, output = invoke("--rules", f"./{folder}", "--color", "never", "validate")
    assert code == 1, output
    no_bug(output)
    assert f"./{folder}/{CARDS}:" in output, output
    assert [line for line in output.splitlines() if _BARE.search(line)] == [] and f"`{folder}`" not in output
    code, output = invoke("--rules", f"./{folder}", "validate", "--format", "json")
    assert code == 1 and f'"file": "{folder}/{CARDS}"' in output, output


def test_a_stale_schema_is_named_as_the_folder_was_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`schemas --check --out ./-s` said "`-s/extra.json` is no file civrules writes" and hinted
    "delete `-s/extra.json`": an option, pasted. It is `./-s/extra.json`, at the location too."""
    monkeypatch.chdir(tmp_path)
    assert invoke("schemas", "--out", "./-s")[0] == 0
    (tmp_path / "-s" / "extra.json").write_text("{}\n")
    code, output = invoke("schemas", "--check", "--out", "./-s")
    assert code == 1 and "`./-s/extra.json` is no file" in output and "delete `./-s/extra.json`" in output, output
    assert output.startswith("./-s/extra.json:1:1: error[R009]"), output
    assert [line for line in output.splitlines() if _BARE.search(line)] == []


@pytest.mark.parametrize(
    "args",
    [["--rules", "{name}", "validate"], ["schemas", "--out", "{name}"], ["init", "{name}"]],
)
@pytest.mark.parametrize(("name", "said"), [("./-f", "`./-f`"), ("it's", "`it's`"), ("a`b", "`` a`b ``")])
def test_a_file_given_for_a_folder_is_named_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], name: str, said: str
) -> None:
    """Round 28's attacker: a file given where a folder is wanted was click's own words, "Directory
    'it's' is a file", whose quotes a name holding one ended early: the one message naming a folder
    of the command line not said as the others are."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("")
    code, output = invoke(*(a.format(name=name) for a in args))
    assert (code, f"{said} is a file, not a folder" in output.splitlines()[0]) == (2, True), output
    no_bug(output)


def test_what_a_diagnostic_quotes_is_bounded_whatever_the_code() -> None:
    """The one bound (round 34): a message, hint or note quoting a text of 200,000 letters in
    backquotes shows at most :data:`~civrules.diagnostics.words.QUOTED_AT_MOST` of it, and a
    subject that long is none; a short message is left as it is."""
    from civrules.diagnostics import Diagnostic, Related, Severity, Span
    from civrules.diagnostics.words import QUOTED_AT_MOST, quoted

    long = "q" * 200_000
    at = Span.at("f.yaml")
    made = Diagnostic(
        "X999",
        Severity.ERROR,
        f"`{long}` and `` a`b ``",
        at,
        f"write ``` {long}`` ```",
        (Related(at, f"`{long}`"),),
        subjects=(long, "a`b"),
    )
    for text in (made.message, made.hint or "", made.related[0].label):
        assert len(text) < QUOTED_AT_MOST + 20 and all(len(name) <= QUOTED_AT_MOST for name in quoted(text)), text[-40:]
    assert quoted(made.message)[1] == "a`b" and made.subjects == ("a`b",)
    short = Diagnostic("X999", Severity.ERROR, "`a`", at, "`b`", subjects=("a",))
    assert (short.message, short.hint, short.subjects) == ("`a`", "`b`", ("a",))


def test_a_value_of_200000_letters_is_quoted_cut_in_every_message_that_names_it(rules: Path) -> None:
    """Round 33 left V001 quoting an `extends:` of 200,000 letters whole (a 200 kB message); R012
    (`family:`), R020 (a suppressed code), L001's hint (a key indented under a key with a value),
    V002 (a cycle of long ids) and V005's subjects (a patch of no entity) did the same. Each now
    shows the value cut, as a long key is (`words.clipped`), and a value shown cut is no subject."""
    long = "q" * 200_000
    cycle = ["a" * 240, "b" * 240]  # the longest ids a manifest's file name holds
    bodies = {
        "ext": f"extends: {long}\n",
        "fam": f"family: {long}\n",
        "sup": f"extends: advanced-civilization\n# civrules: ignore-file[{long}] why\n",
        "ind": f"extends: advanced-civilization\noverlay:\n  settings:\n    {long}: 1\n",
        "pid": f"extends: advanced-civilization\noverlay:\n  calamities:\n    remove:\n    - {{id: {long}, why: x}}\n",
        cycle[0]: f"extends: {cycle[1]}\n",
        cycle[1]: f"extends: {cycle[0]}\n",
    }
    for name, body in bodies.items():
        (rules / "rulesets" / f"{name}.yaml").write_text(f"kind: ruleset\nid: {name}\nname: {name[:9]}\n{body}")
    code, output = invoke("--rules", rules, "--max-file-size", "1000000", "validate", "--format", "json")
    assert code == 1, output[:2000]
    found = json.loads(output)
    assert {"V001", "R012", "R020", "L001", "V002", "V005"} <= {d["code"] for d in found}
    written = {f"rulesets/{name}.yaml" for name in bodies}
    for diagnostic in (d for d in found if any(d["file"].endswith(name) for name in written)):
        texts = [diagnostic["message"], diagnostic["hint"] or "", *(r["label"] for r in diagnostic["related"])]
        assert all(len(text) < 400 for text in texts), (diagnostic["code"], [len(text) for text in texts])
        assert all(len(subject) <= 240 for subject in diagnostic["subjects"]), diagnostic["code"]


def test_a_ruleset_not_found_names_a_few_known_ones_and_counts_the_rest(tmp_path: Path) -> None:
    """With no close name, the hint listed every ruleset of the folder (5,000 manifests, 5,000 ids)."""
    rulesets = tmp_path / "rules" / "rulesets"
    rulesets.mkdir(parents=True)
    for n in range(13):
        (rulesets / f"house-{n:02}.yaml").write_text(
            f"kind: ruleset\nfamily: imperial-settlers\nid: house-{n:02}\nname: House {n}\nstatus: house_rule\n",
            encoding="utf-8",
        )
    rules = str(tmp_path / "rules")
    result = CliRunner().invoke(main, ["--no-shipped", "--rules", rules, "validate", "qqqq", "--format", "json"])
    assert result.exit_code == 2, result.output
    (found,) = json.loads(result.stdout)
    assert found["hint"].endswith(
        "known rulesets: house-00, house-01, house-02, house-03, house-04, house-05, "
        "house-06, house-07, house-08, house-09 and 3 more"
    ), found["hint"]


# --- An OSError naming no file: what the errno means, not "cannot write the output" (round 36) -----


@pytest.mark.parametrize(
    ("number", "code", "said", "hinted"),
    [
        (errno.EIO, "R018", "an input/output error", "the device failed"),
        (errno.ENOLCK, "R018", "no locks available", "gives no locks"),
        (errno.EMFILE, "R018", "too many open files", "ulimit -n"),
        (errno.ENFILE, "R018", "too many open files in system", "fs.file-max"),
        (errno.EAGAIN, "R018", "temporarily unavailable", "it was busy"),
        (errno.ENOMEM, "R017", "out of memory", "ulimit -v"),
    ],
    ids=["EIO", "ENOLCK", "EMFILE", "ENFILE", "EAGAIN", "ENOMEM"],
)
def test_a_failure_on_a_descriptor_is_told_by_its_errno_not_as_the_outputs(
    monkeypatch: pytest.MonkeyPatch, number: int, code: str, said: str, hinted: str
) -> None:
    """An fsync, a lock or a read on a descriptor raises an OSError with no file name, and every
    such error that reached the top was "cannot write the output", hinted to free space: an EIO, a
    missing lock service, too many open files, no memory were told as a full disk."""
    from civrules.diagnostics.process import diagnose

    def failing(fd: int) -> None:
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match=re.escape(os.strerror(number))) as raised:
        os.fsync(0)
    failure = diagnose(raised.value)
    text = f"{failure.diagnostic.message} | {failure.diagnostic.hint}"
    assert failure.diagnostic.code == code and failure.exit_code == 2, text
    assert "the output" not in text and "free space" not in text, text
    assert said in failure.diagnostic.message.lower() and hinted in (failure.diagnostic.hint or ""), text


def test_a_failure_marked_with_what_civrules_did_names_it_and_its_file() -> None:
    from civrules.diagnostics.process import diagnose

    failure = diagnose(files.doing(OSError(errno.EIO, os.strerror(errno.EIO)), "sync", "out/data.py"))
    assert failure.diagnostic.message == "cannot sync `out/data.py`: an input/output error"
    assert "the output" not in failure.diagnostic.message and "device" in (failure.diagnostic.hint or "")


@pytest.mark.parametrize(
    ("number", "hinted"), [(errno.ENOSPC, "free space"), (errno.EIO, "the device failed")], ids=["ENOSPC", "EIO"]
)
def test_a_failed_write_of_standard_output_is_the_outputs_with_a_hint_for_its_errno(
    monkeypatch: pytest.MonkeyPatch, number: int, hinted: str
) -> None:
    from civrules.diagnostics.process import diagnose
    from civrules.support import streams

    def failing(fd: int, data: object) -> int:
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(os, "write", failing)
    with pytest.raises(OSError, match=re.escape(os.strerror(number))) as raised:
        streams.WholeWrites(1).write(b"x")
    failure = diagnose(raised.value)
    assert failure.diagnostic.message.startswith("cannot write the output: ") and failure.on_stderr
    assert hinted in (failure.diagnostic.hint or ""), failure.diagnostic.hint


def test_a_rules_folder_made_a_file_while_watched_is_said_so_and_not_quoted(tmp_path: Path) -> None:
    """A rules folder made a file while `watch` ran was R004 "no ruleset manifests in
    `rules/rulesets`", quoting the file's first line as a rule file's source line."""
    from civrules.diagnostics.render import SourceLines, render_text
    from civrules.pipeline.incremental import Session

    rules = tmp_path / "rules"
    rules.mkdir()
    session = Session(rules)
    session.update([])
    rules.rmdir()
    rules.write_text("kind: ruleset\n", encoding="utf-8")
    said = render_text(session.update([]).diagnostics, SourceLines())
    assert "error[R004]: the rules folder `" in said and "rules` is not a folder but a file" in said, said
    assert "rulesets" not in said and "kind: ruleset" not in said and " | " not in said, said


def test_a_base_unreadable_when_new_variant_reads_it_again_is_its_l012_not_a_bug(
    rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`new-variant` reads the base's manifest, then reads it again to resolve it: an I/O error
    the second time (a failing disk, a network file system) was R900, an assertion in the resolver."""
    read, reads = files._read_from_start, []

    def failing_the_second_time(fd: int, shown: str, *args: Any) -> bytes:
        if shown.endswith("rulesets/advanced-civilization.yaml"):
            reads.append(shown)
            if len(reads) == 2:
                raise files.RefusedError("unreadable", f"cannot read `{shown}`: an input/output error", error=errno.EIO)
        return read(fd, shown, *args)

    monkeypatch.setattr(files, "_read_from_start", failing_the_second_time)
    code, output = invoke("--rules", rules, "new-variant", "mine", "--extends", "advanced-civilization")
    assert code == 1 and "error[L012]" in output and "input/output error" in output, output
    assert len(reads) >= 2 and not (rules / "rulesets" / "mine.yaml").exists()
    no_bug(output)
