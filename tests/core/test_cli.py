"""The command line, through click's runner and through a real subprocess.

The tests that break or add files work on the Advanced Civilization family alone (``family_copy``):
what they prove about the command line does not need the other rulesets' files read too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import REPO, copy_rulesets
from tests.core.test_loader import billion_laughs

SARIF_SCHEMA = Path(__file__).parent.parent / "data" / "sarif-schema-2.1.0.json"
CARDS = "cards/advanced-civilization.yaml"


def run(*args: str, rules: Path | None = None) -> tuple[int, str]:
    runner = CliRunner()
    prefix = ["--rules", str(rules)] if rules is not None else ["--rules", str(REPO / "rules")]
    result = runner.invoke(main, [*prefix, *args])
    return result.exit_code, result.stdout


def break_four_ways(rules: Path) -> None:
    """One duplicated key, one misspelt key, one `!!python/object` tag, one billion-laughs file."""
    cards = rules / CARDS
    text = cards.read_text(encoding="utf-8")
    text = text.replace("    cost: 45\n", "    cost: 45\n    cost: 45\n", 1)
    text = text.replace("    cost: 80\n", "    cots: 80\n", 1)
    text = text.replace("    cost: 110\n", "    cost: !!python/object:os.system 110\n", 1)
    cards.write_text(text, encoding="utf-8")
    (rules / "cards" / "laughs.yaml").write_text(billion_laughs(), encoding="utf-8")


def test_shipped_rules_validate_clean() -> None:
    code, out = run("validate", "--format", "json")
    errors = [d for d in json.loads(out) if d["severity"] == "error"]
    assert errors == []
    assert code == 0


def test_list_names_the_shipped_rulesets() -> None:
    code, out = run("list")
    assert code == 0
    assert "advanced-civilization" in out


def test_listing_many_variants_lists_the_rules_folder_once_not_once_per_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each variant without a `family:` asked whether its base is a file of the folder by listing
    and sorting every file (10,000 variant manifests: 60 s of `civrules list`)."""
    from civrules.load.workspace import Workspace

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    for i in range(60):
        (rules / "rulesets" / f"v{i}.yaml").write_text(
            f"kind: ruleset\nid: v{i}\nname: V{i}\nextends: {'base' if i == 0 else f'v{i - 1}'}\n", encoding="utf-8"
        )
    (rules / "rulesets" / "base.yaml").write_text(
        "kind: ruleset\nid: base\nname: Base\nextends: advanced-civilization\n", encoding="utf-8"
    )
    listed = 0
    rule_files = Workspace.rule_files

    def counted(self: Workspace) -> list[str]:
        nonlocal listed
        listed += 1
        return rule_files(self)

    monkeypatch.setattr(Workspace, "rule_files", counted)
    code, out = run("list", rules=rules)
    assert code == 0 and "v59" in out and "base" in out
    assert listed <= 3


def test_four_broken_things_give_four_located_errors_in_every_format(family_copy: Path) -> None:
    break_four_ways(family_copy)
    code, out = run("validate", "--format", "json", rules=family_copy)
    assert code == 1
    errors = [d for d in json.loads(out) if d["severity"] == "error"]
    assert sorted((Path(d["file"]).name, d["code"]) for d in errors) == [
        ("advanced-civilization.yaml", "L002"),
        ("advanced-civilization.yaml", "L004"),
        ("advanced-civilization.yaml", "S002"),
        ("laughs.yaml", "L005"),
    ]
    assert all(d["line"] and d["column"] for d in errors)
    misspelt = next(d for d in errors if d["code"] == "S002")
    assert misspelt["hint"] == "did you mean `cost`?"
    located = {(d["code"], d["line"], d["column"]) for d in errors}

    code, text = run("validate", rules=family_copy)
    assert code == 1
    for code_, line, column in located:
        assert f":{line}:{column}: error[{code_}]" in text

    code, github = run("validate", "--format", "github", rules=family_copy)
    assert code == 1
    annotations = [line for line in github.splitlines() if line.startswith("::error")]
    assert len(annotations) == 4
    for code_, line, column in located:
        assert any(f"line={line},col={column}," in a and f"title={code_}" in a for a in annotations)

    code, sarif = run("validate", "--format", "sarif", rules=family_copy)
    assert code == 1
    log = json.loads(sarif)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    results = [r for r in log["runs"][0]["results"] if r["level"] == "error"]
    regions = {
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in results
    }
    assert regions == located


def test_strict_turns_warnings_into_failure(family_copy: Path) -> None:
    (family_copy / "cards" / "spare.yaml").write_text((family_copy / CARDS).read_text(encoding="utf-8"))
    code, out = run("validate", rules=family_copy)
    assert code == 0
    assert "warning[R005]" in out
    code, _ = run("validate", "--strict", rules=family_copy)
    assert code == 1


def test_unknown_ruleset_is_a_usage_error_with_a_suggestion() -> None:
    code, out = run("validate", "advanced-civilisation")
    assert code == 2
    assert "did you mean `advanced-civilization`?" in out


def test_a_file_named_for_a_ruleset_is_told_the_ruleset_or_the_run_that_reads_every_file() -> None:
    """Round 34's CI trial: a step validating what a change touched (`git diff --name-only | xargs
    civrules validate`) named files, and each was "no ruleset `rules/rulesets/x.yaml`" with the list
    of every ruleset. A manifest's file is now told its ruleset's id, any other file the run
    without a ruleset, which reads every file and checks each ruleset that uses it."""
    for file in (
        "rules/rulesets/advanced-civilization.yaml",
        "advanced-civilization.yml",
        "rules\\rulesets\\advanced-civilization.yaml",
    ):
        code, out = run("validate", file)
        assert code == 2
        assert "hint: name the ruleset by its id, `advanced-civilization`, not by its file" in out, out
    for file in ("rules/cards/advanced-civilization.yaml", "README.md"):
        code, out = run("validate", file)
        assert code == 2
        assert "`civrules validate` with no ruleset reads every file under the rules folder" in out, out


#: Every command that reads a project's rules folder, with the arguments it needs (the rest of the
#: commands, `init`, `schemas`, `explain`, `list --families` and `lsp`, need none, or say it otherwise).
PROJECT_COMMANDS = (
    ("list",),
    ("validate",),
    ("export", "advanced-civilization"),
    ("diff", "advanced-civilization", "advanced-civilization-western"),
    ("new-variant", "mine", "--extends", "advanced-civilization"),
    ("build",),
    ("build", "--check"),
    ("sheets", "advanced-civilization"),
    ("helpers", "advanced-civilization"),
    ("watch",),
)


def test_a_command_run_outside_any_project_names_civrules_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 35's packaging trial: `civrules list` run from a fresh install, in a folder that is no
    project, was told to pass --rules or run from the project root, and a newcomer has neither yet.
    Every command that needs a project names `civrules init` too; one given `--rules DIR` that is
    not there is not (init always writes `./rules`), nor one run in a folder of a project, which
    is told the folder above that holds the rules."""
    monkeypatch.delenv("CIVRULES_RULES", raising=False)
    monkeypatch.chdir(tmp_path)
    for command in PROJECT_COMMANDS:
        result = CliRunner().invoke(main, list(command))
        assert result.exit_code == 2, (command, result.output)
        said = result.stdout + result.stderr
        assert "error[R004]: the rules folder `rules` (the default of --rules): no such folder" in said, command
        assert "run `civrules init`" in said, (command, said)
    assert list(tmp_path.iterdir()) == []  # none wrote anything
    named = CliRunner().invoke(main, ["--rules", "missing", "validate"])  # a missing rules folder: a usage error
    assert named.exit_code == 2 and "error[R004]: `--rules missing`: no such folder" in named.stdout
    assert "civrules init" not in named.stdout

    (tmp_path / "rules" / "rulesets").mkdir(parents=True)  # a project, run in a folder of it
    (tmp_path / "compiler").mkdir()
    monkeypatch.chdir(tmp_path / "compiler")
    inside = CliRunner().invoke(main, ["list"])
    assert inside.exit_code == 2 and "civrules init" not in inside.stderr
    assert f"; `{tmp_path}`, a folder above this one, holds a rules folder: run civrules there" in inside.stderr


def test_an_empty_rules_folder_is_told_how_to_write_its_first_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34's CI trial: a new repository's empty `rules/` (or empty `rules/rulesets/`), run at
    its root, was told "run civrules from the project root, or pass --rules DIR", where it was.
    It is told the command that writes a manifest, with the bases it may extend; the command
    pasted makes a folder that validates."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 2
    assert "error[R004]: no ruleset manifests in `rules/rulesets`" in result.stdout
    assert (
        "hint: write one: `civrules new-variant NAME --extends BASE` (BASE one of the rulesets shipped" in result.stdout
    )
    assert "advanced-civilization," in result.stdout
    assert CliRunner().invoke(main, ["new-variant", "mine", "--extends", "advanced-civilization"]).exit_code == 0
    assert CliRunner().invoke(main, ["validate"]).exit_code == 0


def test_explain_prints_the_documentation_of_a_code() -> None:
    code, out = run("explain", "l002")
    assert code == 0
    assert out.startswith("L002 (duplicate-key) — error")
    code, _ = run("explain", "Z999")
    assert code == 2


@pytest.mark.parametrize(
    "ruleset",
    [
        "advanced-civilization",
        # the other families' first export in a worker loads their schemas and data: with the slow tests
        pytest.param("imperial-settlers", marks=pytest.mark.slow),
        pytest.param("sid-meiers-civilization", marks=pytest.mark.slow),
    ],
)
def test_export_is_canonical_and_stable(ruleset: str) -> None:
    """In every family: the same bytes twice, and JSON read back and written canonically is those bytes."""
    code, first = run("export", ruleset)
    assert code == 0
    _, second = run("export", ruleset)
    assert first == second
    exported = json.loads(first)
    assert exported["ruleset"]["id"] == ruleset
    assert json.dumps(exported, indent=2, sort_keys=True, ensure_ascii=False) == first.rstrip("\n")


def test_export_of_a_broken_ruleset_fails_with_diagnostics(family_copy: Path) -> None:
    break_four_ways(family_copy)
    result = CliRunner().invoke(main, ["--rules", str(family_copy), "export", "advanced-civilization"])
    assert result.exit_code == 1
    assert result.stdout == "" and "error[L002]" in result.stderr  # standard output holds the export or nothing


def test_internal_errors_exit_2_with_an_apology(monkeypatch: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)

    def explode(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("civrules.load.workspace.Workspace.manifests", explode)
    runner = CliRunner()
    result = runner.invoke(main, ["--rules", str(REPO / "rules"), "list"])
    assert result.exit_code == 2
    assert "error[R900]: internal error" in result.stderr and result.stdout == ""  # `list` makes data
    assert "Traceback" not in result.stdout + result.stderr
    result = runner.invoke(main, ["--rules", str(REPO / "rules"), "--debug", "list"])
    assert result.exit_code == 2
    assert "Traceback" in result.stderr


def test_console_script_runs_in_a_real_subprocess(family_copy: Path) -> None:
    break_four_ways(family_copy)
    env = {**os.environ, "PYTHONHASHSEED": "7"}
    done = subprocess.run(
        [sys.executable, "-m", "civrules", "--rules", str(family_copy), "validate", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert len([d for d in json.loads(done.stdout) if d["severity"] == "error"]) == 4
    assert "Traceback" not in done.stderr


def test_two_manifests_with_one_id_are_reported_at_the_second(family_copy: Path) -> None:
    original = (family_copy / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    (family_copy / "rulesets" / "zz-copy.yaml").write_text(original, encoding="utf-8")
    code, out = run("validate", "--format", "json", rules=family_copy)
    assert code == 1
    found = [d for d in json.loads(out) if d["code"] == "R002"]
    assert [Path(d["file"]).name for d in found] == ["zz-copy.yaml"]
    assert found[0]["related"][0]["file"].endswith("advanced-civilization.yaml")


def test_a_distinct_id_is_fine(family_copy: Path) -> None:
    original = (family_copy / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    copy = original.replace("id: advanced-civilization\n", "id: zz-copy\n", 1)
    (family_copy / "rulesets" / "zz-copy.yaml").write_text(copy, encoding="utf-8")
    code, out = run("validate", "--format", "json", rules=family_copy)
    assert [d for d in json.loads(out) if d["code"] == "R002"] == []
    assert code == 0


def test_a_manifest_whose_id_is_not_its_file_name_is_a_warning(family_copy: Path) -> None:
    manifest = family_copy / "rulesets" / "advanced-civilization-western.yaml"
    manifest.rename(family_copy / "rulesets" / "western.yaml")
    code, out = run("validate", "--format", "json", rules=family_copy)
    (found,) = [d for d in json.loads(out) if d["code"] == "R006"]
    assert (Path(found["file"]).name, found["line"]) == ("western.yaml", 8)
    assert code == 0
    code, _ = run("validate", "--strict", rules=family_copy)
    assert code == 1


@pytest.mark.parametrize("suffix", [".YAML", ".Yml"])
def test_a_rule_file_with_an_upper_case_suffix_is_an_error_where_it_lies(family_copy: Path, suffix: str) -> None:
    """`validate` ignored `*.YAML` files: no R005, no schema check, `rulesets/V2.YAML` dropped silently."""
    original = (family_copy / "rulesets" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    (family_copy / "rulesets" / f"V2{suffix}").write_text(original.replace("cost: 45", "cost: -1"), encoding="utf-8")
    (family_copy / "cards" / f"spare{suffix}").write_text("kind: nonsense\n", encoding="utf-8")
    code, out = run("validate", "--format", "json", rules=family_copy)
    assert code == 1
    found = sorted((Path(d["file"]).name, d["severity"], d["hint"]) for d in json.loads(out) if d["code"] == "R015")
    assert found == [
        (f"V2{suffix}", "error", f"rename it to `V2{suffix.lower()}` (a lower-case suffix)"),
        (f"spare{suffix}", "error", f"rename it to `spare{suffix.lower()}` (a lower-case suffix)"),
    ]
    assert run("list", rules=family_copy)[1].count("advanced-civilization ") == 1  # not read as a ruleset


def test_a_manifest_naming_a_file_with_an_upper_case_suffix_is_refused_there(family_copy: Path) -> None:
    """`maps/y.YAML` named in a manifest was read (and found on a case-insensitive file system
    for `maps/y.yaml`): it is refused at the reference, and the file is not read."""
    manifest = family_copy / "rulesets" / "advanced-civilization.yaml"
    text = manifest.read_text(encoding="utf-8")
    (named,) = {line.split("- ", 1)[1] for line in text.splitlines() if line.strip().startswith("- maps/")}
    (family_copy / named).rename(family_copy / named.replace(".yaml", ".YAML"))
    manifest.write_text(text.replace(named, named.replace(".yaml", ".YAML")), encoding="utf-8")
    code, out = run("validate", "advanced-civilization", "--format", "json", rules=family_copy)
    assert code == 1
    at_reference = [
        d for d in json.loads(out) if d["code"] == "R015" and d["file"].endswith("advanced-civilization.yaml")
    ]
    (one,) = at_reference
    assert one["line"] == text.splitlines().index(f"    - {named}") + 1
    assert one["hint"] == f"rename the file to `{named}` and name it so here"
    code, out = run("build", "advanced-civilization", "--check", rules=family_copy)
    assert code == 1 and "R015" in out


def _sarif_files(log: dict[str, Any]) -> set[tuple[str, str | None]]:
    (one,) = log["runs"]
    return {
        (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            result["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId"),
        )
        for result in one["results"]
    }


def test_sarif_names_files_relative_to_the_repository_however_rules_is_written(
    family_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An absolute `--rules` gave absolute file URIs with no base, which code scanning cannot map."""
    repository = family_copy.parent
    (repository / ".git").mkdir()
    break_four_ways(family_copy)
    logs = []
    for cwd, rules in (
        (repository, "rules"),
        (repository, str(family_copy)),
        (family_copy, "."),
        (REPO, str(family_copy)),
    ):
        monkeypatch.chdir(cwd)
        result = CliRunner().invoke(main, ["--rules", rules, "validate", "--format", "sarif"])
        assert result.exit_code == 1
        log = json.loads(result.stdout)
        jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
        bases = log["runs"][0]["originalUriBaseIds"]
        assert sorted(bases) == ["%CIVRULES%", "%SRCROOT%"]  # descriptions, and no machine's path
        assert bases["%SRCROOT%"] == {"description": {"text": "The root of the repository."}}
        assert "uri" not in bases["%CIVRULES%"]
        logs.append(_sarif_files(log))
    assert logs[0] == logs[1] == logs[2] == logs[3]
    assert ("rules/cards/laughs.yaml", "%SRCROOT%") in logs[0]
    assert all(base == "%SRCROOT%" and not uri.startswith(("/", "file:")) for uri, base in logs[0])


def test_sarif_and_github_name_a_shipped_base_behind_civrules_not_where_it_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant of a shipped ruleset whose change leaves a reference in the base: the note at the
    base was `file:///<install path>/...` in SARIF and the absolute path in GitHub's annotations."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    repository = tmp_path / "repo"
    (repository / "rules" / "rulesets").mkdir(parents=True)
    (repository / ".git").mkdir()
    (repository / "rules" / "rulesets" / "v1.yaml").write_text(
        'kind: ruleset\nid: v1\nname: "V1"\nextends: advanced-civilization\noverlay:\n  civilization_cards:\n'
        '    remove: [{id: pottery, why: "house rule: a test"}]\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(repository)
    outputs = {}
    for fmt in ("sarif", "github"):
        result = CliRunner().invoke(main, ["validate", "v1", "--format", fmt])
        assert result.exit_code == 1, result.output
        outputs[fmt] = result.stdout
        assert str(REPO) not in result.stdout  # the shipped rules here are the clone's
    (run,) = json.loads(outputs["sarif"])["runs"]
    (removed,) = [one for one in run["results"] if one["ruleId"] == "V006"]
    (note,) = removed["relatedLocations"]
    artifact = note["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "calamities/advanced-civilization.yaml", "uriBaseId": "%CIVRULES%"}
    assert "note: <civrules>/calamities/advanced-civilization.yaml:" in outputs["github"]


def test_json_and_text_name_a_shipped_base_behind_civrules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON named a shipped base's file by its install path after SARIF and GitHub's annotations
    stopped: two machines' records of the same rules differed, and a script kept a path of one
    machine. JSON is read and kept by machines and names it `<civrules>/...` as they do. Text kept
    the install path (for a person to open it) until round 34, where the messages themselves (Q007,
    R013) say `<civrules>/`: one name for one file in every format, and no machine's path in a log."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    from civrules.load.workspace import shipped_rules

    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules" / "rulesets" / "v1.yaml").write_text(
        'kind: ruleset\nid: v1\nname: "V1"\nextends: advanced-civilization\noverlay:\n  civilization_cards:\n'
        '    remove: [{id: pottery, why: "house rule: a test"}]\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "v1", "--format", "json"])
    assert result.exit_code == 1, result.output
    (removed,) = [one for one in json.loads(result.stdout) if one["code"] == "V006"]
    assert removed["file"] == "rules/rulesets/v1.yaml"
    assert [note["file"] for note in removed["related"]] == ["<civrules>/calamities/advanced-civilization.yaml"]
    installed = shipped_rules()
    assert installed is not None and str(installed) not in result.stdout
    text = CliRunner().invoke(main, ["validate", "v1"])
    assert text.exit_code == 1, text.output
    (note,) = [line for line in text.stdout.splitlines() if "note:" in line and "calamities" in line]
    assert note.split("note: ", 1)[1].startswith("<civrules>/calamities/advanced-civilization.yaml:")
    assert str(installed) not in text.stdout + text.stderr


def test_list_json_names_a_shipped_ruleset_behind_civrules_as_every_json_output_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`list --format json` gave a shipped ruleset's install path next to `"shipped": true`, where
    diagnostics, SARIF and annotations name it `<civrules>/...`: two machines' listings of one
    repository differed. Its own rulesets keep the name diagnostics give them."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    from civrules.load.workspace import shipped_rules

    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules" / "rulesets" / "v1.yaml").write_text(
        'kind: ruleset\nid: v1\nname: "V1"\nextends: imperial-settlers\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["list", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    assert rows["v1"]["file"] == "rules/rulesets/v1.yaml" and rows["v1"]["shipped"] is False
    shipped = [row for row in rows.values() if row["shipped"]]
    assert shipped and all(row["file"] == f"<civrules>/rulesets/{row['id']}.yaml" for row in shipped)
    installed = shipped_rules()
    assert installed is not None and str(installed) not in result.stdout


def test_json_names_the_files_of_civrules_own_checkout_as_the_repositorys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In civrules' own checkout the rules folder is the shipped one, read as the repository's
    (not shipped): JSON named its files `<civrules>/...` all the same, where annotations and SARIF
    name them by their path in the repository, and `list` said `"shipped": false` beside such a
    name. Here a copy stands for the checkout."""
    import civrules.cli
    import civrules.load.workspace

    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers")
    (rules / "rulesets" / "v1.yaml").write_text(
        'kind: ruleset\nid: v1\nname: "V1"\nextends: imperial-settlers\n'
        "files: {cards: [cards/imperial-settlers.yaml]}\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(civrules.load.workspace, "shipped_rules", lambda: rules)
    monkeypatch.setattr(civrules.cli, "shipped_rules", lambda: rules, raising=False)
    monkeypatch.chdir(tmp_path)
    listed = CliRunner().invoke(main, ["list", "--format", "json"])
    assert listed.exit_code == 0, listed.output
    assert {row["file"] for row in json.loads(listed.stdout)} == {
        f"rules/rulesets/{name}" for name in os.listdir(rules / "rulesets")
    }
    result = CliRunner().invoke(main, ["validate", "v1", "--format", "json"])
    assert result.exit_code == 1, result.output
    (again,) = json.loads(result.stdout)  # V010: the file is its base's, named there
    assert again["file"] == "rules/rulesets/v1.yaml"
    assert [note["file"] for note in again["related"]] == ["rules/rulesets/imperial-settlers.yaml"], again


DUPLICATE_NAME = 'kind: ruleset\nid: x\nname: "X"\nname: "Y"\n'


def test_github_names_files_from_the_repository_root_as_sarif_does_however_rules_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--format github` named a file from the working directory as `--rules` spelt it
    (`rules/../rules/...`, `rulesets/...` from inside rules/, `../repo/...`): GitHub resolves `file=`
    from the repository's root, so the annotations attached to no file (round 20). Annotations and
    their notes now name it as SARIF does; json names it one way from the working directory."""
    repository = tmp_path / "repo"
    rules = repository / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (repository / ".git").mkdir()
    (rules / "rulesets" / "x.yaml").write_text(DUPLICATE_NAME, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    absolute = (rules / "rulesets" / "x.yaml").as_posix()
    for cwd, spelt, named in (
        (repository, "rules/../rules", "rules/rulesets/x.yaml"),
        (repository, "./rules", "rules/rulesets/x.yaml"),
        (rules, ".", "rulesets/x.yaml"),
        (rules, "../../repo/rules", "rulesets/x.yaml"),
        (elsewhere, str(rules), absolute),
        (elsewhere, "../repo/rules", absolute),
    ):
        monkeypatch.chdir(cwd)
        outputs = {}
        for fmt in ("github", "json", "sarif"):
            result = CliRunner().invoke(main, ["--rules", spelt, "--no-shipped", "validate", "--format", fmt])
            assert result.exit_code == 1, result.output
            outputs[fmt] = result.stdout
        annotations = outputs["github"].splitlines()
        assert annotations and all("file=rules/rulesets/x.yaml," in line for line in annotations), (spelt, annotations)
        (duplicate,) = [line for line in annotations if "title=L002" in line]
        assert "%0Anote: rules/rulesets/x.yaml:3:1: first defined here" in duplicate
        records = json.loads(outputs["json"])
        assert {d["file"] for d in records} | {r["file"] for d in records for r in d["related"]} == {named}
        assert _sarif_files(json.loads(outputs["sarif"])) == {("rules/rulesets/x.yaml", "%SRCROOT%")}


def test_rules_in_a_submodule_are_named_from_the_superproject_s_root_as_a_workflow_checks_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34's CI trial: a repository holding its rules as a submodule (`data/`, checked out by
    the workflow with `submodules: true`). The submodule's `.git` is a file, and annotations and SARIF
    named its files from the submodule (`rules/rulesets/x.yaml`): GitHub resolves them from the
    superproject's root, where that file does not exist. A linked worktree's `.git` file is a
    checkout of its own, and stays the root."""
    superproject = tmp_path / "game"
    (superproject / ".git" / "modules" / "data").mkdir(parents=True)
    rules = superproject / "data" / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "rulesets" / "x.yaml").write_text(DUPLICATE_NAME, encoding="utf-8")
    worktree = tmp_path / "linked"
    (worktree / "rules" / "rulesets").mkdir(parents=True)
    (worktree / "rules" / "rulesets" / "x.yaml").write_text(DUPLICATE_NAME, encoding="utf-8")
    (superproject / ".git" / "worktrees" / "linked").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {superproject / '.git' / 'worktrees' / 'linked'}\n", encoding="utf-8")
    (superproject / "data" / ".git").write_text("gitdir: ../.git/modules/data\n", encoding="utf-8")
    for cwd, spelt, named in (
        (superproject, "data/rules", "data/rules/rulesets/x.yaml"),
        (superproject / "data", "rules", "data/rules/rulesets/x.yaml"),
        (worktree, "rules", "rules/rulesets/x.yaml"),
    ):
        monkeypatch.chdir(cwd)
        outputs = {}
        for fmt in ("github", "sarif"):
            result = CliRunner().invoke(main, ["--rules", spelt, "--no-shipped", "validate", "--format", fmt])
            assert result.exit_code == 1, result.output
            outputs[fmt] = result.stdout
        annotations = outputs["github"].splitlines()
        assert annotations and all(f"file={named}," in line for line in annotations), (cwd, annotations)
        assert _sarif_files(json.loads(outputs["sarif"])) == {(named, "%SRCROOT%")}


def test_a_github_annotation_about_no_file_names_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A usage error was an annotation on `file=<command line>`, which exists nowhere."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "nosuch", "--format", "github"])
    assert result.exit_code == 2
    (annotation,) = result.stdout.splitlines()
    assert annotation.startswith("::error title=R004::") and "file=" not in annotation


def test_github_and_sarif_leave_infos_out_unless_asked() -> None:
    """A clean run printed 379 notices in `github` format: each an annotation, or an alert. One
    ruleset (with unknown facts, so infos) says it: every ruleset, four times, cost 3 s of CPU."""
    for fmt in ("github", "sarif"):
        code, out = run("validate", "advanced-civilization", "--format", fmt)
        assert code == 0
        code, with_infos = run("validate", "advanced-civilization", "--format", fmt, "--infos")
        assert code == 0
        if fmt == "github":
            assert out == ""
            assert with_infos.startswith("::notice ")
        else:
            assert json.loads(out)["runs"][0]["results"] == []
            assert {r["level"] for r in json.loads(with_infos)["runs"][0]["results"]} == {"note"}


def test_list_starts_every_name_in_one_column_after_the_longest_id() -> None:
    for args in (("list",), ("list", "--families")):
        code, out = run(*args)
        assert code == 0
        lines = out.splitlines()
        ids = [line.split(" ", 1)[0] for line in lines]
        # `imperial-settlers-alternative-lookout` (37 characters) ran into its name in a column of 36.
        starts = {len(line) - len(line[len(one) :].lstrip(" ")) for line, one in zip(lines, ids, strict=True)}
        assert len(starts) == 1 and starts.pop() >= max(map(len, ids)) + 2, out
