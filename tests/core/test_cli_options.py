"""The command line as a newcomer types it: global options anywhere, codes checked, plain messages."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from civrules import cli
from civrules.checks.catalogue import catalogue
from civrules.diagnostics import Diagnostic, Span
from civrules.diagnostics.render import render_sarif
from civrules.support import install
from tests.conftest import REPO, copy_shipped
from tests.rulefiles import reading_apart

RULES = str(REPO / "rules")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


# --- Global options before and after the command -----------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", RULES, "list", "--format", "json"],
        ["list", "--rules", RULES, "--format", "json"],
        ["list", "--format", "json", "--rules", RULES],
    ],
)
def test_rules_is_accepted_before_and_after_the_command(args: list[str], tmp_path: Path) -> None:
    code, out, _ = invoke(*args)
    assert code == 0, out
    assert "advanced-civilization" in {row["id"] for row in json.loads(out)}


def test_the_option_after_the_command_wins(tmp_path: Path) -> None:
    code, out, _ = invoke("--rules", str(tmp_path / "nowhere"), "list", "--rules", RULES, "--format", "json")
    assert code == 0 and json.loads(out)
    code, out, err = invoke("--rules", RULES, "list", "--rules", str(tmp_path / "nowhere"))
    assert code == 2 and "R004" in err and out == ""


def test_limits_and_debug_after_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[cli.Context] = []
    original = cli.Context.workspace

    def spy(self: cli.Context) -> object:
        seen.append(self)
        return original(self)

    monkeypatch.setattr(cli.Context, "workspace", spy)
    code, _, _ = invoke(
        "validate", "advanced-civilization", "--rules", RULES, "--max-nodes", "5000000", "--max-file-size", "99999999"
    )
    assert code == 0
    assert (seen[0].limits.max_nodes, seen[0].limits.max_bytes, seen[0].debug) == (5_000_000, 99_999_999, False)
    invoke("list", "--debug", "--rules", RULES)
    assert seen[-1].debug is True


def test_debug_after_the_command_shows_the_traceback_of_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(self: cli.Context) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli.Context, "workspace", crash)
    code, out, err = invoke("list", "--rules", RULES)
    assert code == 2 and "Traceback" not in out + err and "output of --debug" in err and out == ""
    assert err.startswith("<command line>:1:1: error[R900]: internal error (RuntimeError: boom)")
    code, out, err = invoke("list", "--rules", RULES, "--debug")
    assert code == 2 and "Traceback" in err and "the traceback below" in err


def test_every_command_takes_the_global_options() -> None:
    for name, command in cli.main.commands.items():
        options = {opt for param in command.params for opt in getattr(param, "opts", [])}
        assert {"--rules", "--max-file-size", "--max-nodes", "--debug"} <= options, name


# --- --select and --ignore ---------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_an_unknown_code_is_a_usage_error_with_a_suggestion(option: str) -> None:
    code, out, _ = invoke("validate", "advanced-civilization", "--rules", RULES, option, "C0O7")
    assert code == 2
    assert "error[R008]: invalid value for '" + option + "': no diagnostic code starts with `C0O7`" in out
    assert "hint: did you mean `C007`?" in out
    code, out, _ = invoke("validate", "advanced-civilization", "--rules", RULES, option, "XYZ")
    assert code == 2 and "`XYZ`" in out and "civrules explain --list" in out


def test_one_unknown_code_in_a_comma_list_is_a_usage_error() -> None:
    code, out, _ = invoke("validate", "advanced-civilization", "--rules", RULES, "--select", "C001,Q999")
    assert code == 2 and "`Q999`" in out


@pytest.mark.parametrize("option", ["--select", "--ignore"])
@pytest.mark.parametrize("given", ["", " ", ",", " , ,"])
def test_a_value_naming_no_code_is_a_usage_error_not_every_check(option: str, given: str) -> None:
    # `--select "$CODES"` with the variable unset ran every check (or skipped none) and exited 0.
    code, out, _ = invoke("validate", "advanced-civilization", "--rules", RULES, "--select", "L", option, given)
    assert code == 2, out
    assert f"error[R008]: invalid value for '{option}': " in out and "names no diagnostic code" in out
    assert f"hint: give {option} CODE[,CODE...]" in out and f"leave {option} out" in out


def test_comma_lists_and_repeats_select_the_union(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    copy_shipped(rules)
    commodities = rules / "cards" / "advanced-civilization-commodities.yaml"
    text = commodities.read_text(encoding="utf-8")
    assert "total_cards:\n  count: 114\n" in text
    commodities.write_text(text.replace("  count: 114\n", "  count: 115\n", 1), encoding="utf-8")

    def codes_for(*options: str) -> set[str]:
        code, out, _ = invoke("validate", "advanced-civilization", "--rules", str(rules), "--format", "json", *options)
        assert code in (0, 1), out
        return {d["code"] for d in json.loads(out) if d["severity"] == "error"}

    assert codes_for("--select", "d001") == {"D001"}
    assert codes_for("--select", "A,D") == codes_for("--select", "A", "--select", "D") == {"D001"}
    assert codes_for("--select", "A,K") == set()
    assert "D001" in codes_for()
    assert "D001" not in codes_for("--ignore", "Q, D")


def test_a_whole_letter_and_a_whole_code_are_prefixes() -> None:
    for given in ("M", "m0", "R900", "q00"):
        code, _, err = invoke("validate", "advanced-civilization", "--rules", RULES, "--select", given)
        assert code == 0, (given, err)


# --- explain -------------------------------------------------------------------------------------


def test_explain_list_prints_every_code_once() -> None:
    code, out, _ = invoke("explain", "--list")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == sorted(catalogue()) and len(listed) == len(set(listed)) > 100
    assert "C007  warning  credit-covers-cost: The credit one card gives" in out


def test_explain_unknown_code_suggests_and_points_at_the_list() -> None:
    code, _, err = invoke("explain", "C0O7")
    assert code == 2 and "did you mean `C007`" in err and "--list" in err
    code, _, err = invoke("explain")
    assert code == 2 and "--list" in err and "error[R008]" in err


def test_explain_says_the_family_of_each_code_it_suggests() -> None:
    """`explain` has no ruleset: `A011` is as near Advanced Civilization's `A010` as Sid Meier's
    `T011`; it suggested only `T011`, without saying whose it was (round 19)."""
    code, _, err = invoke("explain", "A011")
    assert code == 2
    assert "did you mean `A010` (a check of the Advanced Civilization family) or " in err
    assert "`T011` (a check of the Sid Meier's Civilization: The Board Game family)" in err
    code, _, err = invoke("explain", "R0200")
    assert code == 2 and "did you mean `R020` (a core code, reported for every family)?" in err


def test_no_command_summary_is_cut_in_the_help() -> None:
    _, out, _ = invoke("--help")
    listing = out.split("Commands:", 1)[1]
    assert "..." not in listing and "(e.g." not in listing
    assert len(listing.strip().splitlines()) == len(cli.main.commands)


def _options() -> list[tuple[str, click.Option]]:
    """Every option of the group and of each command, with the command's name ('' for the group)."""
    commands: dict[str, click.Command] = {"": cli.main, **cli.main.commands}
    return [(name, p) for name, command in commands.items() for p in command.params if isinstance(p, click.Option)]


def test_an_option_an_environment_variable_sets_names_it_in_every_help() -> None:
    """`--rules` falls back on CIVRULES_RULES, which `civrules --help` and each command's help did
    not name (only `init --help` did, to say it is not read there): a newcomer could not learn it
    from the tool. Each option the environment can set names its variable, on the group and on each
    command that takes the option again."""
    variables = {p.name: p.envvar for _, p in _options() if isinstance(p.envvar, str)}
    assert variables, "no option reads the environment: update this test"
    for command, option in _options():
        if option.name in variables:
            assert f"${variables[option.name]}" in (option.help or ""), (command or "civrules", option.opts)


def test_no_option_shows_a_bare_type_as_its_value() -> None:
    """A value shown as `TEXT` says nothing of what to type (`new-variant --extends TEXT`, where the
    README and the command's own summary say BASE): every option taking a string names its value."""
    bare = [
        (command or "civrules", option.opts)
        for command, option in _options()
        if not option.is_flag and option.metavar is None and isinstance(option.type, click.types.StringParamType)
    ]
    assert bare == []


# --- list ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "shown"),
    [
        ({"min": 2, "max": 8}, "2-8 players"),
        ({"min": 9, "max": 9}, "9 players"),
        ({"min": 1, "max": 1}, "1 player"),
        ({"min": 5, "max": None}, "5 or more players"),
        ({"min": None, "max": 6}, "up to 6 players"),
        ({"min": None, "max": None}, "players not given"),
    ],
)
def test_list_says_players_as_a_person_would(players: dict[str, int | None], shown: str) -> None:
    assert cli._players(players) == shown


def test_list_of_the_shipped_rulesets_has_no_degenerate_range() -> None:
    code, out, _ = invoke("--rules", RULES, "list")
    assert code == 0
    assert "central-america" in out and "9 players" in out and "9-9" not in out


# --- SARIF ---------------------------------------------------------------------------------------


def test_sarif_short_descriptions_are_whole_sentences_and_no_link_is_invented() -> None:
    used = [
        Diagnostic(code, entry.severity, "m", Span.at("rules/x.yaml"))
        for code, entry in catalogue().items()
        if code != "R900"
    ]
    log = json.loads(render_sarif(used))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(used)
    for rule in rules:
        text = rule["shortDescription"]["text"]
        # A sentence begins with a capital, a code span, or the program's name, written in lower case.
        starts = text[0].isupper() or text[0] == "`" or text.startswith("civrules ")
        assert starts and text.endswith((".", ")")), (rule["id"], text)
        assert text.count("(") == text.count(")") and text.count("`") % 2 == 0, (rule["id"], text)
        assert "helpUri" not in rule


# --- sheets --pdf without WeasyPrint ---------------------------------------------------------------


def test_pdf_without_weasyprint_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # `import weasyprint` raises ImportError
    code, err, _ = invoke("--rules", RULES, "sheets", "advanced-civilization", "--pdf", "--out", str(tmp_path / "s"))
    assert code == 2
    assert "error[R910]" in err and "bug in civrules" not in err and "Traceback" not in err
    # The command names the Python that runs civrules (not a `python` that may be another) and the
    # `pdf` extra; in this clone, the clone itself, editable.
    assert f"`{install.python()} -m pip install -e " in err and "[pdf]'`" in err
    assert not (tmp_path / "s").exists()


def test_the_pdf_extra_is_named_for_an_installed_civrules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install, "clone_root", lambda: None)
    assert install.install_extra("pdf") == f"{install.python()} -m pip install 'civrules[pdf]'"
    assert install.reinstall() == f"{install.python()} -m pip install --force-reinstall civrules"


def test_python_m_civrules_without_its_dependencies_says_to_run_make() -> None:
    """`python3 -m civrules` in a clone before `make` printed a raw traceback."""
    started = subprocess.run(
        [
            sys.executable,
            "-c",
            "import runpy, sys; sys.modules['click'] = None; runpy.run_module('civrules', run_name='__main__')",
            "validate",
        ],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO / "compiler")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert started.returncode == 2
    assert "Traceback" not in started.stdout + started.stderr
    assert started.stdout.startswith("<command line>:1:1: error[R910]: the module `click` is not installed")
    assert "`make`, then run `.venv/bin/civrules`" in started.stdout


def test_python_m_civrules_imports_nothing_from_the_working_directory(tmp_path: Path) -> None:
    """`python -m civrules` (README names it) puts the working directory first on sys.path: a
    `yaml.py`, a `click.py` or a folder `*.dist-info` declaring a family there was imported."""
    ran = tmp_path / "ran"
    for module in ("yaml", "click", "evilfam"):
        code = f"open({str(ran / module)!r}, 'w').close()\n"
        (tmp_path / (f"{module}/__init__.py" if module == "evilfam" else f"{module}.py")).parent.mkdir(exist_ok=True)
        (tmp_path / (f"{module}/__init__.py" if module == "evilfam" else f"{module}.py")).write_text(code, "utf-8")
    (tmp_path / "evil.dist-info").mkdir()
    (tmp_path / "evil.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: evil\nVersion: 1\n", "utf-8")
    (tmp_path / "evil.dist-info" / "entry_points.txt").write_text(
        "[civrules.families]\nevil = evilfam:FAMILY\n", "utf-8"
    )
    ran.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", RULES, "list"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO / "compiler")},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in ran.iterdir()) == []
    assert "advanced-civilization" in done.stdout


def test_a_dependency_missing_at_run_time_is_no_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A clean run imports jsonschema only where the compiled validators (fastjsonschema) cannot run.
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    monkeypatch.setitem(sys.modules, "fastjsonschema", None)
    for name in [m for m in sys.modules if m.startswith(("civrules.schema", "civrules._generated"))]:
        monkeypatch.delitem(sys.modules, name)
    with reading_apart():  # the files validated, not their verdicts kept by the suite (tests/rulefiles.py)
        code, out, err = invoke("--rules", RULES, "validate", "advanced-civilization")
    assert code == 2
    assert "error[R910]: the module `jsonschema` is not installed" in out and "bug in civrules" not in out + err
    assert f"`{install.reinstall()}`" in out


def test_pdf_without_weasyprints_system_libraries_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import builtins

    real_import = builtins.__import__

    def without_pango(name: str, *args: object, **kwargs: object) -> object:
        if name == "weasyprint":
            raise OSError("cannot load library 'libgobject-2.0-0': cannot open shared object file")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(builtins, "__import__", without_pango)
    code, err, _ = invoke("--rules", RULES, "sheets", "advanced-civilization", "--pdf", "--out", str(tmp_path / "s"))
    assert code == 2
    assert "error[R910]" in err and "libpango" in err and "bug in civrules" not in err


def test_missing_dependency_is_documented() -> None:
    code, out, _ = invoke("explain", "R910")
    assert code == 0 and "WeasyPrint" in out


# --- The code registry does not import its users -----------------------------------------------------


def test_the_code_registry_imports_no_check() -> None:
    program = (
        "import sys, civrules.diagnostics.codes; print(sorted(m for m in sys.modules if m.startswith('civrules.')))"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60)
    assert "civrules.checks" not in done.stdout, done.stdout


# --- pre-commit ----------------------------------------------------------------------------------


def _hooks_shown_in_docs_ci() -> list[dict[str, object]]:
    """The hooks of every `.pre-commit-config.yaml` example in docs/ci.md."""
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    found: list[dict[str, object]] = []
    for block in re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL):
        config = yaml.safe_load(block)
        if isinstance(config, dict) and "repos" in config:
            found.extend(hook for repo in config["repos"] for hook in repo["hooks"])
    return found


def test_the_pre_commit_hooks_run_civrules_validate() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    by_id = {hook["id"]: hook for hook in hooks}
    assert by_id["civrules-validate"]["entry"] == "python -I -m civrules validate --staged"
    assert by_id["civrules-build-check"]["entry"] == "python -I -m civrules build --check --staged"
    for hook in hooks:
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False  # a ruleset is validated whole, not file by file


def _planted_sitecustomize(folder: Path) -> tuple[Path, dict[str, str]]:
    """A `sitecustomize.py` in ``folder`` that leaves a file when imported (the file it leaves), and
    an environment whose PYTHONPATH holds relative folders (`.` and an empty entry)."""
    planted = folder / "ran"
    (folder / "sitecustomize.py").write_text(f"open({str(planted)!r}, 'w').close()\n", encoding="utf-8")
    return planted, {**os.environ, "PYTHONPATH": f".{os.pathsep}"}


@pytest.mark.slow  # an interpreter started: the fast suite checks the hooks' entries (above)
def test_the_shipped_hooks_import_nothing_from_the_checked_repository(tmp_path: Path) -> None:
    """pre-commit runs a hook in the checked repository with the user's environment: with a relative
    folder on PYTHONPATH (`.`, or an empty entry), Python imported the repository's
    `sitecustomize.py` before civrules' entry point could take the folder off the search path. Each
    shipped hook's command, run as pre-commit runs it (its ``python`` the hook environment's, here
    this one's), runs nothing the repository holds."""
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    planted, env = _planted_sitecustomize(tmp_path)
    starts = set()
    for hook in hooks:
        words = shlex.split(hook["entry"])
        assert words[0] == "python", hook  # the hook environment's interpreter, not a console script
        starts.add(tuple(words[1 : words.index("civrules") + 1]))
    (start,) = starts  # every hook starts civrules the same way: run that start once
    done = subprocess.run(
        [sys.executable, *start, "--version"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert not planted.exists()


@pytest.mark.slow
def test_a_start_without_isolation_runs_the_planted_sitecustomize(tmp_path: Path) -> None:
    """The hooks' test above can tell: the same start without `-I` imports the planted module."""
    planted, env = _planted_sitecustomize(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "civrules", "--version"], cwd=tmp_path, env=env, capture_output=True, timeout=120
    )
    assert planted.exists()


def test_every_pre_commit_hook_runs_on_a_commit_that_only_deletes_or_adds_an_odd_suffix() -> None:
    """pre-commit gives a `files:` filter no deleted file, and matches it case-sensitively: a hook
    filtered on `\\.ya?ml$` skipped a commit that only deleted the base a variant extends (V001
    after it) or only added a `.YAML` file (R015). Each hook civrules ships, writes or shows runs on
    every commit instead: the shipped hooks, `civrules init`'s local hook, and docs/ci.md's examples."""
    from civrules.emit.repository import PRE_COMMIT

    shipped = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    written = [hook for repo in yaml.safe_load(PRE_COMMIT.format(version="0.0.0"))["repos"] for hook in repo["hooks"]]
    shown = [hook for hook in _hooks_shown_in_docs_ci() if str(hook.get("id", "")).startswith("civrules")]
    assert shipped and written and shown
    for hook in [*shipped, *written, *shown]:
        if "entry" not in hook:  # a remote hook named by id: its definition is the shipped one
            assert hook["id"] in {h["id"] for h in shipped}
            continue
        assert hook.get("always_run") is True, hook
        assert "files" not in hook and "types" not in hook, hook
        # What the commit holds, not the working tree: an untracked base passed (R022 now).
        assert "--staged" in str(hook["entry"]).split(), hook


# --- Output into a closed pipe ---------------------------------------------------------------------


def test_a_reader_that_goes_away_is_not_a_bug() -> None:
    """`civrules explain --list | head -1`: the pipe closes before civrules writes (it is closed
    here before the interpreter has even started); civrules exits as if killed by SIGPIPE."""
    process = subprocess.Popen(
        [sys.executable, "-m", "civrules", "explain", "--list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == cli.EXIT_BROKEN_PIPE
    assert stderr == ""


# --- A standard stream closed (`>&-`, `2>&-`) --------------------------------------------------------


@pytest.mark.parametrize(
    ("closed", "command", "status", "said"),
    [
        # Python made `sys.stdout` None, and click dropped the text: exit 0, nothing written.
        (1, ["explain", "R016"], 2, "error[R007]: cannot write the output: standard output is closed"),
        # Nothing to print there: exits as it would have (coreutils' close_stdout judges so too).
        (1, ["schemas", "--out", "{tmp}", "-q"], 0, ""),
        # "civrules: wrote 18 files" cannot be said: exit 2, with nowhere to say why.
        (2, ["schemas", "--out", "{tmp}"], 2, None),
    ],
    ids=["stdout", "stdout-unused", "stderr"],
)
def test_a_closed_standard_stream_that_civrules_writes_is_a_failure(
    tmp_path: Path, closed: int, command: list[str], status: int, said: str | None
) -> None:
    args = [word.replace("{tmp}", str(tmp_path / "schemas")) for word in command]
    done = subprocess.run(
        [sys.executable, "-m", "civrules", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(closed),
    )
    assert done.returncode == status, (done.stdout, done.stderr)
    if closed == 1:
        assert done.stderr.startswith(f"<command line>:1:1: {said}") if said else done.stderr == "", done.stderr
    else:
        assert done.stdout == ""


# --- A locale whose encoding lacks what civrules prints ----------------------------------------------


def _run_in_latin1(*args: str, stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "civrules", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=REPO,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "latin-1"},
    )


@pytest.mark.parametrize(
    ("command", "said"),
    [
        # An em dash in the heading: R900 (UnicodeEncodeError), exit 2.
        (["explain", "K018"], "K018 (addition-on-several-effects) \u2014 error"),
        # The arrow between the two rulesets: R900 too.
        pytest.param(
            ["diff", "advanced-civilization", "advanced-civilization-western"], "\u2192", marks=pytest.mark.slow
        ),
    ],
    ids=["explain", "diff"],
)
def test_output_into_a_pipe_is_utf8_whatever_the_locale(command: list[str], said: str) -> None:
    done = _run_in_latin1(*command)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert said in done.stdout.decode("utf-8")


@pytest.mark.slow
def test_diagnostics_on_standard_error_are_utf8_whatever_the_locale() -> None:
    """`explain K\u00e9\u03b1` under a Latin-1 locale wrote the \u00e9 as a Latin-1 byte and the
    \u03b1 as an escape: neither UTF-8 nor what was typed."""
    done = _run_in_latin1("explain", "K\u00e9\u03b1")
    assert done.returncode == 2
    assert "no diagnostic code `K\u00e9\u03b1`" in done.stderr.decode("utf-8")


@pytest.mark.slow
def test_a_terminal_of_another_encoding_shows_what_it_lacks_as_an_escape() -> None:
    from tests.conftest import on_terminal

    done, shown = on_terminal(lambda terminal: _run_in_latin1("explain", "K018", stdout=terminal))
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"K018 (addition-on-several-effects) \\u2014 error" in shown


@pytest.mark.slow
def test_a_closed_standard_input_is_an_input_that_ended() -> None:
    """`civrules lsp <&-`: the language server reads no message, as from an input that ended (exit 1,
    as LSP says), not an internal error."""
    done = subprocess.run(
        [sys.executable, "-m", "civrules", "lsp"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert "R900" not in done.stderr and "Traceback" not in done.stderr


# --- Run as a module -------------------------------------------------------------------------------


def test_the_cli_package_runs_as_a_module() -> None:
    """`python -m civrules.cli` is the command line, as `civrules` is: it used to import and exit 0
    without a word."""
    done = subprocess.run(
        [sys.executable, "-m", "civrules.cli", "explain", "--list"], capture_output=True, text=True, cwd=REPO
    )
    in_process = CliRunner().invoke(cli.main, ["explain", "--list"])
    assert done.returncode == in_process.exit_code == 0
    assert done.stdout == in_process.output != ""
