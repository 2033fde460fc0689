"""Every failure of the command line is a diagnostic: a code, a location and a hint, printed in the
format the command was asked for (exit 2 for usage, 1 for rules); `-q` leaves errors and warnings only."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics.suggest import meant_code
from civrules.load import Limits
from civrules.load.workspace import Workspace
from tests.conftest import REPO

RULES = str(REPO / "rules")
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def one_json_diagnostic(out: str) -> dict[str, object]:
    (diagnostic,) = json.loads(out)
    assert isinstance(diagnostic, dict)
    return diagnostic


# --- usage failures in the command's format --------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["validate", "--format", "json", "--rules", "/nonexistent-w6"], "R004"),
        (["list", "--format=json", "--rules", "/nonexistent-w6"], "R004"),
        (["validate", "--rules", RULES, "--select", "ZZ", "--format", "json"], "R008"),
        (["--max-nodes", "0", "validate", "--format", "json"], "R008"),
        (["validate", "--format", "json", "--fromat", "json"], "R008"),
        (["diff", "--rules", RULES, "--format", "json", "nosuch", "advanced-civilization"], "R001"),
    ],
)
def test_a_usage_failure_is_printed_in_the_format_asked_for(args: list[str], code: str) -> None:
    exit_code, out, err = invoke(*args)
    assert exit_code == 2, out
    # `validate` prints its report on standard output; `list` and `diff`, which make data, on standard error
    report, elsewhere = (out, err) if "validate" in args else (err, out)
    assert elsewhere == ""
    found = one_json_diagnostic(report)
    assert found["code"] == code and found["file"] == "<command line>" and found["hint"], found
    assert "Usage:" not in out + err and "Error:" not in out + err


def test_a_usage_failure_in_sarif_is_a_failed_invocation_not_a_result() -> None:
    """A command-line error was a result at the file `%3Ccommand%20line%3E`: uploaded, code scanning
    would open an alert on a file that does not exist. It is a notification of the invocation."""
    exit_code, out, _ = invoke("validate", "--rules", RULES, "--format", "sarif", "--select", "ZZ")
    assert exit_code == 2
    log = json.loads(out)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (run,) = log["runs"]
    assert run["results"] == [] and run["tool"]["driver"]["rules"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["descriptor"] == {"id": "R008", "index": 0} and note["level"] == "error"
    assert "no diagnostic code starts with `ZZ`\nhint: " in note["message"]["text"]
    assert run["tool"]["driver"]["notifications"][0]["id"] == "R008"
    assert "<command line>" not in out and "command%20line" not in out


def test_a_clean_sarif_run_is_a_successful_invocation() -> None:
    exit_code, out, _ = invoke("validate", "--rules", RULES, "--format", "sarif", "advanced-civilization")
    assert exit_code == 0
    (run,) = json.loads(out)["runs"]
    assert run["invocations"] == [{"executionSuccessful": True}]


# --- click's usage errors become diagnostics ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said", "hint"),
    [
        (["--max-nodes", "0", "list"], "invalid value for '--max-nodes': 0 is not in the range", "--help` lists"),
        (["explain", "K01O"], "no diagnostic code `K01O`", "did you mean `K010`?"),
        (["validate", "--rules", RULES, "--select", "ZZ"], "no diagnostic code starts with `ZZ`", "explain --list"),
        (["valdate"], "no command `valdate`", "did you mean `validate`?"),
        (["validate", "--fromat", "json"], "no such option `--fromat`", "did you mean `--format`?"),
        # Round 31: a command's option written before the command was sent to `civrules --help`
        (
            ["--strict", "validate"],
            "no such option `--strict`",
            "`--strict` is an option of the command `validate`: write it after `validate`",
        ),
        (["new-variant"], "missing argument 'NAME'", "new-variant --help` lists what it takes"),
        # click's parser raises this one without a context: the hint named `civrules --help`.
        (["build", "--out"], "option '--out' requires an argument", "`civrules build --help` lists what it takes"),
        # Round 29: an argument or option the command would not read was dropped, not refused.
        (["explain", "--list", "R001"], "`--list` lists every code: name one (`R001`) or", "explain --help` lists"),
        (["explain", "R001", "--family", "imperial-settlers"], "`--family` chooses the codes `--list`", "--help"),
        (
            ["explain", "--list", "--family", "\u0430dvanced-civilization"],
            "no game family",
            "U+0430 CYRILLIC SMALL LETTER A where `advanced-civilization` has `a`",
        ),
    ],
)
def test_a_command_line_civrules_does_not_understand_is_a_located_diagnostic(
    args: list[str], said: str, hint: str
) -> None:
    exit_code, out, err = invoke(*args)
    assert exit_code == 2
    # `list` and `explain` make data: their diagnostics are on standard error
    said_on = err if {"list", "explain"} & set(args) else out
    first, hint_line = said_on.splitlines()[:2]
    assert first.startswith("<command line>:1:1: error[R008]: ") and said in first, out
    assert hint_line.startswith("  hint: ") and hint in hint_line, out
    assert "Usage:" not in out + err and "Error:" not in out + err


def test_a_file_named_as_the_rules_folder_gets_the_rules_folder_hint(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    exit_code, out, err = invoke("--rules", tmp_path / "file", "list")
    assert exit_code == 2 and "error[R008]: invalid value for '--rules'" in err and out == ""
    assert "hint: pass the rules folder" in err


def test_a_misspelt_code_is_read_with_its_letters_as_digits() -> None:
    assert meant_code("K01O", ["K010", "K015", "K016", "K017"]) == "K010"
    assert meant_code("c0o7", ["C001", "C007"]) == "C007"
    assert meant_code("ZZZZ", ["C001", "C007"]) is None


# --- output folders and files civrules refuses -----------------------------------------------------


def test_an_output_folder_that_is_a_link_is_refused_with_a_code_and_a_hint(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").symlink_to(elsewhere)
    exit_code, out, _ = invoke("--rules", RULES, "schemas", "--out", tmp_path / "out")
    assert exit_code == 2
    first, hint_line = out.splitlines()[:2]
    assert first.startswith("<command line>:1:1: error[R007]: refusing to replace") and "symbolic link" in first
    assert hint_line.startswith("  hint: name a new or empty folder with --out")


def _rules_with_one_ruleset(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules" / "rulesets", rules / "rulesets")
    for path in (rules / "rulesets").iterdir():
        if path.name != "advanced-civilization.yaml":
            path.unlink()
    return rules


def test_new_variant_over_an_existing_file_is_refused(tmp_path: Path) -> None:
    rules = _rules_with_one_ruleset(tmp_path)
    (rules / "rulesets" / "mine.yaml").write_text("not a manifest: [\n", encoding="utf-8")
    exit_code, out, _ = invoke("--rules", rules, "new-variant", "mine", "--extends", "advanced-civilization")
    assert exit_code == 2 and "already exists" in out and "error[R008]" in out


@pytest.mark.parametrize("base", ["loop-a", "loop-b", "orphan"])
def test_new_variant_of_a_base_that_cannot_be_resolved_is_refused_with_its_errors(tmp_path: Path, base: str) -> None:
    """A base in an `extends` cycle (or whose own base is unknown) made a variant that could never
    be checked, said "created ...; next: validate it", exit 0 (round 33): refused, its errors said."""
    rules = _rules_with_one_ruleset(tmp_path)
    for one, parent in (("loop-a", "loop-b"), ("loop-b", "loop-a"), ("orphan", "nowhere")):
        (rules / "rulesets" / f"{one}.yaml").write_text(
            f"kind: ruleset\nid: {one}\nname: {one}\ndescription: {one}\nextends: {parent}\n", encoding="utf-8"
        )
    exit_code, out, err = invoke("--rules", rules, "new-variant", "mine", "--extends", base)
    said = out + err
    assert exit_code == 1, said
    other = "loop-b" if base == "loop-a" else "loop-a"
    cycle = f"error[V002]: `extends` makes a cycle: {base} → {other} → {base}"
    assert cycle in said if base != "orphan" else "error[V001]: `extends: nowhere` names no ruleset" in said, said
    assert f"info[V003]: the ruleset `{base}` cannot be extended: its `extends` chain" in said, said
    assert "no variant was created" in said
    assert "created" not in said.replace("no variant was created", "")
    assert not (rules / "rulesets" / "mine.yaml").exists()
    exit_code, _, _ = invoke("--rules", rules, "new-variant", "mine", "--extends", "advanced-civilization")
    assert exit_code == 0 and (rules / "rulesets" / "mine.yaml").is_file()


def test_new_variant_of_a_base_extending_a_long_id_quotes_it_cut_as_validate_does(tmp_path: Path) -> None:
    """`new-variant` says the V001 of its base's chain in `validate`'s words, which quoted an
    `extends:` of 200,000 letters whole (round 33); both now cut it (`words.clipped`)."""
    rules = _rules_with_one_ruleset(tmp_path)
    long = "q" * 200_000
    (rules / "rulesets" / "orphan.yaml").write_text(
        f"kind: ruleset\nid: orphan\nname: orphan\ndescription: orphan\nextends: {long}\n", encoding="utf-8"
    )
    exit_code, out, err = invoke(
        "--rules", rules, "--max-file-size", "1000000", "new-variant", "m", "--extends", "orphan"
    )
    said = out + err
    assert exit_code == 1 and f"error[V001]: `extends: {long[:57]}...` names no ruleset" in said, said[:300]
    assert len(said) < 2_000, len(said)


@pytest.mark.parametrize("what", ["fifo", "file"])
def test_new_variant_where_rulesets_is_no_folder_names_it_and_what_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    """`rules/rulesets` a FIFO (or a file), the base a shipped ruleset: `new-variant` said "cannot
    create `rules/rulesets/mine.yaml`: a part of the path is not a folder" (round 33), where
    `validate` says which part and what it is. The same words now, and nothing written."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    if what == "fifo":
        os.mkfifo(tmp_path / "rules" / "rulesets")
    else:
        (tmp_path / "rules" / "rulesets").write_text("", encoding="utf-8")
    exit_code, out, err = invoke("new-variant", "mine", "--extends", "advanced-civilization")
    said = out + err
    kind = "a FIFO (a named pipe)" if what == "fifo" else "a file"
    assert exit_code == 2 and f"`rules/rulesets` is not a folder but {kind}" in said, said
    assert "a part of the path" not in said and sorted(p.name for p in (tmp_path / "rules").iterdir()) == ["rulesets"]


def test_new_variant_of_a_base_manifest_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    """`rulesets/base.yaml` a FIFO: `new-variant --extends base` said "no ruleset `base`" (exit 2)
    where `validate base` says it cannot be read (round 33)."""
    rules = _rules_with_one_ruleset(tmp_path)
    os.mkfifo(rules / "rulesets" / "base.yaml")
    exit_code, out, err = invoke("--rules", rules, "new-variant", "mine", "--extends", "base")
    assert exit_code == 1 and "error[L012]" in out + err and "not a regular file" in out + err, out + err
    assert "no ruleset `base`" not in out + err and not (rules / "rulesets" / "mine.yaml").exists()


def test_an_extends_longer_than_a_file_name_is_an_unknown_base_not_an_os_error(tmp_path: Path) -> None:
    """`extends:` of 300 letters: looking for a shipped ruleset of that name raised ENAMETOOLONG
    (Path.is_file), an R018 naming a path in civrules' own folder, exit 2 (round 33)."""
    rules = _rules_with_one_ruleset(tmp_path)
    (rules / "rulesets" / "long.yaml").write_text(
        f"kind: ruleset\nid: long\nname: L\ndescription: l\nextends: {'a' * 300}\n", encoding="utf-8"
    )
    for args in (["validate", "long"], ["--no-shipped", "validate", "long"]):
        exit_code, out, err = invoke("--rules", rules, *args, "--format", "json")
        codes = [d["code"] for d in json.loads(out or err)]
        assert exit_code == 1 and codes == ["V001"], (args, codes)


# --- -q: errors and warnings only ------------------------------------------------------------------


def test_quiet_silences_every_progress_line(tmp_path: Path) -> None:
    exit_code, _, err = invoke("--rules", RULES, "helpers", "imperial-settlers", "--out", tmp_path / "h1")
    assert exit_code == 0 and "civrules: wrote" in err
    exit_code, out, err = invoke("--rules", RULES, "-q", "helpers", "imperial-settlers", "--out", tmp_path / "h2")
    assert exit_code == 0 and out == err == ""
    exit_code, _, err = invoke("--rules", RULES, "build", "imperial-settlers", "--out", tmp_path / "b1")
    assert exit_code == 0 and re.search(r"civrules_rulesets\.imperial_settlers \d+\.\d+\.\d+", err)  # the version line
    exit_code, out, err = invoke("--rules", RULES, "-q", "build", "imperial-settlers", "--out", tmp_path / "b2")
    assert exit_code == 0 and out == err == ""


def test_quiet_silences_what_new_variant_made(tmp_path: Path) -> None:
    rules = _rules_with_one_ruleset(tmp_path)
    exit_code, out, err = invoke("--rules", rules, "-q", "new-variant", "mine", "--extends", "advanced-civilization")
    assert exit_code == 0 and out == err == ""
    assert (rules / "rulesets" / "mine.yaml").is_file()


# --- locations and hints of the rules' own diagnostics ----------------------------------------------


def test_no_manifests_is_located_at_the_rules_folder(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    (rules / "cards").mkdir(parents=True)
    exit_code, out, _ = invoke("--rules", rules, "validate", "--format", "json")
    assert exit_code == 2
    found = one_json_diagnostic(out)
    assert found["code"] == "R004" and found["file"] == str(rules) and found["line"] == 1


def _manifest_diagnostics(tmp_path: Path, file_name: str, ruleset_id: str) -> list[tuple[str, str | None]]:
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / file_name).write_text(
        f'kind: ruleset\nid: "{ruleset_id}"\nname: "Mine"\nextends: advanced-civilization\n', encoding="utf-8"
    )
    workspace = Workspace(rules, Limits())
    workspace.manifests()
    loaded = workspace.load(f"rulesets/{file_name}")
    return [(d.code, d.hint) for d in loaded.diagnostics]


def test_a_manifest_id_hint_proposes_only_names_that_pass(tmp_path: Path) -> None:
    found = dict(_manifest_diagnostics(tmp_path / "a", "V1.yaml", "v1"))
    assert found["R006"] == "name the file `v1.yaml`"  # not `set id: V1`, which no id may be
    found = dict(_manifest_diagnostics(tmp_path / "b", "evil.yaml", "../evil"))
    assert found["R006"] == "set `id: evil`"  # not `name the file ../evil.yaml`
    assert found["S001"] == "ids are kebab-case, e.g. `evil`"
    found = dict(_manifest_diagnostics(tmp_path / "c", "Évil.yaml", "../evil"))
    assert (found["R006"] or "").startswith("give the manifest a kebab-case id")


# --- the repository's own schemas/ ----------------------------------------------------------------


def test_the_committed_schemas_pass_the_documented_check(tmp_path: Path) -> None:
    exit_code, out, err = invoke("schemas", "--out", REPO / "schemas", "--check")
    assert exit_code == 0, out + err
    # Still judged: a schema that differs, or a file civrules does not write.
    copy = tmp_path / "schemas"
    copy.mkdir()
    for path in (REPO / "schemas").rglob("*.json"):
        target = copy / path.relative_to(REPO / "schemas")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    assert invoke("schemas", "--out", copy, "--check")[0] == 0
    (copy / "notes.json").write_text("{}\n", encoding="utf-8")
    exit_code, out, _ = invoke("schemas", "--out", copy, "--check")
    assert exit_code == 1 and "error[R009]" in out and "notes.json` is no file civrules" in out
    assert os.path.exists(copy / "notes.json")
    # An edited schema is told at its first changed line, quoted (round 36: the renderer, which
    # quotes only rule files of its own accord, was given the stale file's text).
    (copy / "notes.json").unlink()
    edited = sorted(copy.rglob("*.json"))[0]
    lines = edited.read_text(encoding="utf-8").split("\n")
    edited.write_text("\n".join([*lines[:2], '  "edited": true,', *lines[2:]]), encoding="utf-8")
    exit_code, out, _ = invoke("schemas", "--out", copy, "--check")
    assert exit_code == 1 and f"{edited}:3:" in out and '"edited": true' in out, out


def test_nesting_past_the_bound_is_located_where_the_bound_is_crossed(tmp_path: Path) -> None:
    """`x: [[[[...` 5,000 deep was reported at column 1003, where libyaml's own guard (1,000 levels)
    stopped; it is at the bracket that opens level 101 (the root mapping is level 1), as 150 deep."""
    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)  # a manifest: d.yaml, which no ruleset names, is read too
    shutil.copyfile(REPO / "rules/rulesets/advanced-civilization.yaml", rules / "rulesets/a.yaml")
    for levels in (150, 5_000):
        (rules / "d.yaml").write_text("kind: map\nid: m\nx: " + "[" * levels + "]" * levels + "\n")
        _, out, _ = invoke("--rules", rules, "validate", "--format", "json")
        (found,) = [d for d in json.loads(out) if d["code"] == "L006"]
        assert found["file"].endswith("rules/d.yaml") and (found["line"], found["column"]) == (3, 103), found
