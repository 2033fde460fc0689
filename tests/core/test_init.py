"""`civrules init` makes a rule-data repository that works at once, and `civrules schemas` exports
the schemas its modelines point at.

The slow test does what a new user does: it makes a repository, runs pre-commit (the local hook,
offline), yamllint and check-jsonschema in it, runs the workflow's `run:` steps, lints the workflow
with actionlint, then plants a mistake and sees pre-commit and the workflow catch it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from civrules import __version__
from civrules.cli import main
from civrules.emit.output import MARKER, marker_text
from civrules.emit.repository import YAMLLINT, schema_files, schema_tree
from tests.conftest import REPO
from tests.security.helpers import tree_of

BIN = Path(sys.executable).parent
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.fixture(autouse=True)
def with_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A made repository extends the shipped rulesets (the suite reads its copies alone)."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)


def civrules(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def made(tmp_path: Path, *options: str, name: str = "house") -> Path:
    target = tmp_path / name
    code, _, err = civrules("init", str(target), *options)
    assert code == 0, err
    return target


def validate(repository: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, list[dict[str, Any]]]:
    monkeypatch.chdir(repository)
    code, out, _ = civrules("validate", "--format", "json", *args)
    return code, json.loads(out)


def test_init_makes_a_repository_whose_variant_validates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repository = made(tmp_path)
    written = sorted(p.relative_to(repository).as_posix() for p in repository.rglob("*") if p.is_file())
    assert [p for p in written if not p.startswith("schemas/")] == [
        ".gitattributes",
        ".github/workflows/rules.yml",
        ".pre-commit-config.yaml",
        ".yamllint",
        "README.md",
        "rules/rulesets/house.yaml",
    ]
    assert {p.removeprefix("schemas/") for p in written if p.startswith("schemas/")} == {
        *schema_files(),
        "README.md",
        MARKER,
    }
    manifest = yaml.safe_load((repository / "rules" / "rulesets" / "house.yaml").read_text(encoding="utf-8"))
    assert manifest == {"kind": "ruleset", "id": "house", "name": "House", "extends": "advanced-civilization"}
    readme = (repository / "README.md").read_text(encoding="utf-8")
    assert "| `.gitattributes` | line endings: LF in YAML files on every checkout" in readme
    assert "## Line endings" not in readme
    code, found = validate(repository, monkeypatch, "--strict")
    assert code == 0 and {d["severity"] for d in found} == {"info"}


def test_init_inside_another_repository_says_where_its_workflow_and_hook_must_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of a larger git repository (`init games/alpha` in a monorepo) got the workflow and
    the hook as for a repository of its own, where GitHub and pre-commit never read them: CI and
    the commits went unchecked, and nothing said so. init now says so, and the README's step 4
    says what to move where; followed, the hook and the workflow's step validate the folder."""
    root = tmp_path / "mono"
    (root / ".git").mkdir(parents=True)  # git's own `git init` makes it: no git process is needed
    monkeypatch.chdir(root)
    code, _, err = civrules("init", "games/alpha")
    assert code == 0, err
    assert "note: `games/alpha` is inside the git repository `.`" in err
    folder = root / "games" / "alpha"
    step = (folder / "README.md").read_text(encoding="utf-8").split("\n4. ")[1].split("\n5. ")[0]
    assert "`games/alpha` of the git repository at `../..`" in step
    defaults, entry = re.findall(r"`(defaults: [^`]*|civrules --rules [^`]*)`", step)
    # What a user does: the workflow's job given the defaults, the hook given the entry, at the root.
    workflow = yaml.safe_load((folder / ".github" / "workflows" / "rules.yml").read_text(encoding="utf-8"))
    workflow["jobs"]["validate"].update(yaml.safe_load(defaults))
    config = yaml.safe_load((folder / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    config["repos"][0]["hooks"][0]["entry"] = entry
    (hook,) = config["repos"][0]["hooks"]
    command = shlex.split(hook["entry"])
    assert command[0] == "civrules" and "--staged" in command
    command.remove("--staged")  # needs a real git index: test_staged.py runs git itself
    code, out, err = civrules(*command[1:], "--format", "json")
    assert code == 0 and {d["severity"] for d in json.loads(out)} == {"info"}, err
    (step,) = [s for s in workflow["jobs"]["validate"]["steps"] if s.get("name") == "civrules validate"]
    monkeypatch.chdir(root / workflow["jobs"]["validate"]["defaults"]["run"]["working-directory"])
    assert civrules(*shlex.split(step["run"])[1:])[0] == 0


def test_init_at_a_repository_root_or_outside_any_says_nothing_of_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "own" / ".git").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    for folder in ("own", "alone"):
        code, _, err = civrules("init", folder)
        assert code == 0 and "note:" not in err, err
        readme = (tmp_path / folder / "README.md").read_text(encoding="utf-8")
        assert "\n4. `git init && pre-commit install`: each commit is validated first.\n" in readme


def test_every_modeline_resolves_in_the_repository(tmp_path: Path) -> None:
    for repository in (made(tmp_path), made(tmp_path, "--new-base", "--family", "sid-meiers-civilization", name="b")):
        files = sorted((repository / "rules").rglob("*.yaml"))
        assert files
        for path in files:
            first = path.read_text(encoding="utf-8").splitlines()[0]
            match = MODELINE.match(first)
            assert match is not None, path
            target = (path.parent / match.group(1)).resolve()
            assert target.is_file() and target.is_relative_to(repository / "schemas"), (path, target)


@pytest.mark.parametrize("family", ["advanced-civilization", "imperial-settlers", "sid-meiers-civilization"])
def test_each_family_starts_a_variant_or_a_base_that_validates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str
) -> None:
    variant = made(tmp_path, "--family", family, name="variant")
    code, found = validate(variant, monkeypatch)
    assert code == 0, [d for d in found if d["severity"] == "error"]
    manifest = yaml.safe_load((variant / "rules" / "rulesets" / "variant.yaml").read_text(encoding="utf-8"))
    assert manifest["extends"] == family
    base = made(tmp_path, "--family", family, "--new-base", name="base")
    code, found = validate(base, monkeypatch)
    assert code == 0, [d for d in found if d["severity"] == "error"]
    manifest = yaml.safe_load((base / "rules" / "rulesets" / "base.yaml").read_text(encoding="utf-8"))
    assert manifest["id"] == "base" and "extends" not in manifest
    assert "README.md" in os.listdir(base)


def test_init_extends_the_ruleset_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repository = made(tmp_path, "--extends", "advanced-civilization-western", "--name", "western-house")
    manifest = yaml.safe_load((repository / "rules" / "rulesets" / "western-house.yaml").read_text(encoding="utf-8"))
    assert manifest["extends"] == "advanced-civilization-western"
    assert validate(repository, monkeypatch)[0] == 0


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--extends", "nowhere"], "no ruleset `nowhere`"),
        (["--family", "imperial-settlers", "--extends", "advanced-civilization"], "not of `imperial-settlers`"),
        (["--family", "chess"], "no game family `chess`"),
        (["--new-base", "--extends", "advanced-civilization"], "leave --extends out"),
        (["--name", "Not An Id"], "kebab-case"),
        (["--name", "mega-civilization"], "shipped with civrules"),
    ],
)
def test_init_refuses_what_cannot_be_made(tmp_path: Path, options: list[str], said: str) -> None:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "new"), *options])
    assert result.exit_code == 2
    assert said in result.stdout + result.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("where", ["after", "before"])
def test_init_refuses_rules_which_it_would_not_honour(tmp_path: Path, where: str) -> None:
    """`civrules init DIR --rules data/rules` wrote DIR/rules and exited 0: the option, listed in
    `init --help`, was silently ignored."""
    target = tmp_path / "house"
    rules = ["--rules", str(tmp_path)]
    args = [*rules, "init", str(target)] if where == "before" else ["init", str(target), *rules]
    code, out, err = civrules(*args)
    assert code == 2, out + err
    assert (
        "error[R008]" in out + err
        and "--rules does not choose it" in out + err
        and "hint: leave --rules out" in out + err
    )
    assert not target.exists()


def test_init_never_writes_over_a_file(tmp_path: Path) -> None:
    target = tmp_path / "existing"
    (target / ".github" / "workflows").mkdir(parents=True)
    (target / "README.md").write_text("mine\n", encoding="utf-8")
    (target / ".github" / "workflows" / "rules.yml").write_text("mine\n", encoding="utf-8")
    code, out, _ = civrules("init", str(target))
    assert code == 2 and "<command line>:1:1: error[R007]: " in out
    assert "`.github/workflows/rules.yml`, `README.md`" in out and "nothing was written" in out
    assert "hint: civrules init writes only new files" in out
    assert sorted(p.name for p in target.rglob("*")) == [".github", "README.md", "rules.yml", "workflows"]
    assert (target / "README.md").read_text(encoding="utf-8") == "mine\n"


def test_init_writes_beside_files_of_its_own_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder that holds other files (a licence, .git) is written into: only new files are added."""
    target = tmp_path / "existing"
    target.mkdir()
    (target / "LICENSE").write_text("mine\n", encoding="utf-8")
    (target / "rules").mkdir()  # empty: nothing in it to keep
    monkeypatch.chdir(target)
    code, _, err = civrules("init")
    assert code == 0, err
    assert (target / "LICENSE").read_text(encoding="utf-8") == "mine\n"
    assert (target / "rules" / "rulesets" / "existing.yaml").is_file()


@pytest.mark.parametrize(
    ("folder", "shown"),
    [("Ünï Cöde!!", "'Ünï Cöde!!'"), ("my rules", "'my rules'"), ("it's $HOME", "'it'\"'\"'s $HOME'"), ("-x", "./-x")],
)
def test_init_says_the_next_command_as_it_can_be_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, shown: str
) -> None:
    """`next: `cd Ünï Cöde!! && civrules validate`` could not be pasted: the shell split the name."""
    monkeypatch.chdir(tmp_path)
    code, _, err = civrules("init", "--", folder)
    assert code == 0, err
    (line,) = [line for line in err.splitlines() if line.startswith("next: ")]
    readme = f"./{folder}" if folder.startswith("-") else folder  # `-x/README.md` reads as an option
    assert line == f"next: `cd {shown} && civrules validate`, then see `{readme}/README.md`"
    command = line.split("`")[1].replace("civrules validate", "pwd")
    ran = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert ran.stdout == f"{tmp_path / folder}\n"


def test_init_does_not_follow_a_link(tmp_path: Path) -> None:
    target = tmp_path / "linked"
    target.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, target / ".github")
    code, out, _ = civrules("init", str(target))
    assert code == 2 and "error[R007]" in out and "symbolic link" in out and "hint:" in out
    assert list(elsewhere.iterdir()) == []


def test_init_refuses_a_link_on_the_way_before_writing_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`civrules init lnk/a/b/c` wrote every file but the schemas through the link `lnk`, then said
    it refused to write into it."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "lnk").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    code, out, _ = civrules("init", "lnk/a/b/c")
    assert code == 2 and "error[R007]" in out and "`lnk` is a symbolic link" in out, out
    assert "hint: " in out and "--out" not in out, out
    assert list(real.iterdir()) == []


def test_init_refuses_a_folder_that_is_a_link_before_writing_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`civrules init l7`, `l7` a link to a folder: `.github/workflows` was made in the folder it
    points at."""
    real = tmp_path / "t7"
    real.mkdir()
    (tmp_path / "l7").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    code, out, _ = civrules("init", "l7")
    assert code == 2 and "error[R007]" in out and "`l7` is a symbolic link" in out, out
    assert list(real.iterdir()) == []


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "existing-folder"])
def test_a_write_that_fails_part_way_leaves_nothing_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool
) -> None:
    """A full disk (or a file-size limit) as the schemas were written left five files of the
    repository, said "nothing was changed", and hinted to move files aside; a second `init` was
    then refused. Either every file is written or none, and the hint is about the disk."""
    import errno

    from civrules.emit import output

    target = tmp_path / "fz"
    if existing:
        target.mkdir()
        (target / "LICENSE").write_text("mine\n", encoding="utf-8")
    written: list[str] = []
    put = output._put

    def full(staging: Path, relative: str, *args: Any) -> None:
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(relative)
        put(staging, relative, *args)

    monkeypatch.setattr(output, "_put", full)
    code, out, _ = civrules("init", str(target))
    assert code == 2 and "error[R007]" in out and "no space is left on the device" in out, out
    assert "nothing was changed" in out and "move those aside" not in out and "free space" in out, out
    if existing:
        assert sorted(p.name for p in target.iterdir()) == ["LICENSE"]
    else:
        assert not target.exists() and list(tmp_path.iterdir()) == []
    monkeypatch.setattr(output, "_put", put)
    assert civrules("init", str(target))[0] == 0  # nothing was left in the way


def test_ctrl_c_while_init_writes_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.emit import output

    renamed: list[Path] = []
    rename = output.rename_new

    def interrupted(source: Path, target: Path) -> None:
        if len(renamed) == 3:  # as the files are renamed into place, three of them moved already
            raise KeyboardInterrupt
        rename(source, target)
        renamed.append(target)

    monkeypatch.setattr(output, "rename_new", interrupted)
    target = tmp_path / "house"
    (target / ".github" / "workflows").mkdir(parents=True)
    (target / ".github" / "workflows" / "mine.yml").write_text("mine\n", encoding="utf-8")
    code, out, _ = civrules("init", str(target))
    assert code == 130 and "error[R016]" in out, out
    assert len(renamed) == 3
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == [
        ".github",
        ".github/workflows",
        ".github/workflows/mine.yml",
    ]


def test_schemas_exports_every_schema_and_checks_them(tmp_path: Path) -> None:
    out = tmp_path / "schemas"
    code, _, err = civrules("schemas", "--out", str(out))
    assert code == 0, err
    for name, text in schema_files().items():
        assert (out / name).read_text(encoding="utf-8") == text
    assert (out / "ruleset.schema.json").read_bytes() == (REPO / "schemas" / "ruleset.schema.json").read_bytes()
    assert __version__ in (out / "README.md").read_text(encoding="utf-8")
    assert civrules("schemas", "--out", str(out), "--check")[0] == 0
    (out / "map.schema.json").write_text("{}\n", encoding="utf-8")
    code, out_text, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1 and "error[R009]: " in out_text and "map.schema.json` differs from the one civrules" in out_text
    assert f"hint: write the schemas again: `civrules schemas --out {out}`" in out_text
    assert civrules("schemas", "--out", str(out))[0] == 0  # a folder civrules wrote is written again
    assert civrules("schemas", "--out", str(out), "--check")[0] == 0


def test_schemas_check_says_which_civrules_wrote_schemas_of_another_version(tmp_path: Path) -> None:
    """Round 34's CI trial: a rule-data repository whose workflow pins one civrules while its
    designer upgraded. CI's older civrules told the designer to write the schemas again, which
    writes older schemas over those the newer civrules wrote; an upgraded civrules told nothing
    of the workflow's pin. Each R009 now names the civrules that wrote the folder and what to do."""
    out = tmp_path / "schemas"
    assert civrules("schemas", "--out", str(out))[0] == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    (out / "map.schema.json").write_text("{}\n", encoding="utf-8")
    for written, said in (
        ("99.0.0", f"was written by civrules 99.0.0, newer than this civrules {__version__}: run civrules 99.0.0"),
        ("0.0.1", f"was written by civrules 0.0.1: pin civrules {__version__} where CI installs it"),
    ):
        (out / "README.md").write_text(readme.replace(f"civrules {__version__},", f"civrules {written},"), "utf-8")
        code, out_text, _ = civrules("schemas", "--out", str(out), "--check")
        assert code == 1
        hints = [line for line in out_text.splitlines() if line.startswith("  hint: ")]
        assert len(hints) == 2 and all(said in hint for hint in hints), out_text
        assert ("write the schemas again" in hints[0]) == (written == "0.0.1")


def test_schemas_check_reports_each_link_fifo_and_folder_as_build_check_does(tmp_path: Path) -> None:
    """`schemas --check` read the folder with the files only: a link, a FIFO or a folder in it passed
    ("holds the schemas of civrules ..."), and a schema replaced by a link was "missing"."""
    out = tmp_path / "schemas"
    assert civrules("schemas", "--out", str(out))[0] == 0
    secret = tmp_path / "secret.json"
    secret.write_text("{}\n", encoding="utf-8")
    (out / "evil.schema.json").symlink_to(secret)
    os.mkfifo(out / "fifo.json")
    (out / "emptydir").mkdir()
    (out / "ruleset.schema.json").unlink()
    (out / "ruleset.schema.json").symlink_to(REPO / "schemas" / "ruleset.schema.json")
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1, said
    errors = sorted(line for line in said.splitlines() if "error[R009]" in line)
    link = "a symbolic link (civrules writes none; it is not followed)"
    assert errors == [
        f"{out}/emptydir:1:1: error[R009]: `{out}/emptydir` is no file civrules {__version__} writes: "
        "an empty folder (civrules writes none)",
        f"{out}/evil.schema.json:1:1: error[R009]: `{out}/evil.schema.json` is no file civrules {__version__} "
        f"writes: {link}",
        f"{out}/fifo.json:1:1: error[R009]: `{out}/fifo.json` is no file civrules {__version__} writes: "
        "not a regular file (civrules writes none; it is not read)",
        f"{out}/ruleset.schema.json:1:1: error[R009]: `{out}/ruleset.schema.json` is not the file civrules "
        f"{__version__} writes: {link}",
    ]
    assert (tmp_path / "secret.json").read_text(encoding="utf-8") == "{}\n"


def test_schemas_check_of_a_folder_that_is_a_link_says_so(tmp_path: Path) -> None:
    real = tmp_path / "real"
    assert civrules("schemas", "--out", str(real))[0] == 0
    out = tmp_path / "schemas"
    out.symlink_to(real, target_is_directory=True)
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1, said
    (error,) = [line for line in said.splitlines() if "error[R009]" in line]
    assert error == (
        f"{out}:1:1: error[R009]: `{out}` is not a folder civrules {__version__} writes: "
        "a symbolic link (civrules writes none; it is not followed)"
    )


def test_the_schemas_hint_quotes_the_folder_for_the_shell(tmp_path: Path) -> None:
    out = tmp_path / "my schemas"
    assert civrules("schemas", "--out", str(out))[0] == 0
    (out / "map.schema.json").write_text("{}\n", encoding="utf-8")
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1
    assert f"hint: write the schemas again: `civrules schemas --out '{out}'`" in said


def test_schemas_never_replace_a_folder_civrules_did_not_write(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, out_text, _ = civrules("schemas", "--out", str(out))
    assert code == 2 and "error[R007]" in out_text and "did not write" in out_text and "hint:" in out_text
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_an_output_command_refuses_the_tree_another_command_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`civrules build --out schemas` (or `sheets X --out schemas`) deleted the schemas `init`
    wrote, and `schemas --out gen` a build: each command now takes only a tree of its own kind."""
    repository = made(tmp_path)
    monkeypatch.chdir(repository)
    before = sorted(p.name for p in (repository / "schemas").iterdir())
    code, said, _ = civrules("build", "--out", "schemas")
    assert code == 2, said
    assert "error[R007]" in said and "holds the output of civrules' `schemas` command" in said and "hint:" in said
    assert sorted(p.name for p in (repository / "schemas").iterdir()) == before
    (repository / "gen").mkdir()
    (repository / "gen" / MARKER).write_bytes(marker_text("build"))
    (repository / "gen" / "kept.txt").write_text("built\n", encoding="utf-8")
    code, said, _ = civrules("schemas", "--out", "gen")
    assert code == 2 and "holds the output of civrules' `build` command" in said, said
    assert (repository / "gen" / "kept.txt").read_text(encoding="utf-8") == "built\n"
    assert civrules("schemas", "--out", "schemas")[0] == 0  # its own tree is written again
    assert civrules("schemas", "--out", "schemas", "--check")[0] == 0


def test_check_of_a_tree_another_command_wrote_is_refused_as_its_write_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build --check --out schemas` (init's schemas) said 58 stale files, each hinted `civrules
    build --out schemas`, which R007 then refused; `schemas --check --out gen` did the same of a
    build's tree. --check judges the folder's kind as the write does, and names the check of it."""
    repository = made(tmp_path)
    monkeypatch.chdir(repository)
    code, said, _ = civrules("build", "--check", "--out", "schemas")
    assert code == 2, said
    (error,) = [line for line in said.splitlines() if "error[" in line]
    assert error == (
        "<command line>:1:1: error[R007]: refusing to compare `schemas` with what `build` writes: it holds the "
        f"output of civrules' `schemas` command (its `{MARKER}` says so)"
    )
    hint = " ".join(line.strip() for line in said.splitlines() if line.startswith("  hint:"))
    assert "`civrules schemas --check --out schemas` compares it" in hint, said
    assert "build --out schemas" not in said
    (repository / "gen").mkdir()
    (repository / "gen" / MARKER).write_bytes(marker_text("build"))
    code, said, _ = civrules("schemas", "--check", "--out", "gen")
    assert code == 2 and "error[R009]" not in said, said
    assert "refusing to compare `gen` with what `schemas` writes: it holds the output of civrules' `build`" in said
    assert "`civrules build --check --out gen` compares it" in said and "schemas --out gen" not in said
    (repository / "sheets").mkdir()
    (repository / "sheets" / MARKER).write_bytes(marker_text("sheets"))
    code, said, _ = civrules("schemas", "--check", "--out", "sheets")
    assert code == 2 and "it holds the output of civrules' `sheets` command" in said, said
    assert "`sheets` is written again by `sheets`" in said  # sheets has no --check


def test_a_stale_schemas_hint_never_pastes_a_write_that_is_refused(tmp_path: Path) -> None:
    """A schemas folder kept by hand (no marker) is compared, and its hint said `civrules schemas
    --out X`, which refuses a folder civrules did not write: it says to move the folder aside first."""
    out = tmp_path / "kept"
    out.mkdir()
    (out / "notes.json").write_text("{}\n", encoding="utf-8")
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1, said
    hints = {line for line in said.splitlines() if line.startswith("  hint:")}
    assert f"  hint: move `{out}` aside (or delete it) yourself, as `schemas` replaces only a folder it wrote; " in (
        "\n".join(hints)
    ), said
    assert all(f"then write the schemas again: `civrules schemas --out {out}`" in hint for hint in hints), said
    assert civrules("schemas", "--out", str(out))[0] == 2  # the write refuses it, as the hint says
    shutil.rmtree(out)
    assert civrules("schemas", "--out", str(out))[0] == 0  # and takes it once moved aside


def test_the_yamllint_configuration_is_the_one_init_writes() -> None:
    assert (REPO / ".yamllint").read_text(encoding="utf-8") == YAMLLINT


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"`{name}` is not installed: it is a development dependency (`make setup` installs it)")
    return found


@pytest.mark.slow
def test_civrules_own_rules_pass_the_yamllint_configuration() -> None:
    """yamllint with its defaults reported 3,852 problems in rules/; this configuration none."""
    done = subprocess.run(
        [_tool("yamllint"), "--strict", "-c", str(REPO / ".yamllint"), "rules"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def _environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CIVRULES_NO_SHIPPED"}
    return {
        **env,
        "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(home / "pre-commit"),
        "HOME": str(home),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def _run(command: list[str] | str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        shell=isinstance(command, str),
    )


def _workflow_steps(repository: Path) -> list[str]:
    """The workflow's `run:` steps, but the one that installs civrules (here it is installed)."""
    workflow = yaml.safe_load((repository / ".github" / "workflows" / "rules.yml").read_text(encoding="utf-8"))
    steps = [step for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]
    assert steps[0]["name"] == "Install civrules and the linters" and "pip install" in steps[0]["run"]
    return [step["run"] for step in steps[1:]]


@pytest.mark.slow
def test_a_new_repository_catches_a_planted_mistake_in_pre_commit_and_ci(tmp_path: Path) -> None:
    env = _environment(tmp_path / "home")
    (tmp_path / "home").mkdir()
    repository = tmp_path / "house"
    started = _run([str(BIN / "civrules"), "init", str(repository)], tmp_path, env)
    assert started.returncode == 0, started.stderr

    # The workflow is valid for actionlint; every file passes yamllint; every rule file its schema.
    linted = _run([_tool("actionlint"), ".github/workflows/rules.yml"], repository, env)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert _run([_tool("yamllint"), "--strict", "."], repository, env).returncode == 0
    for path in sorted((repository / "rules").rglob("*.yaml")):
        match = MODELINE.match(path.read_text(encoding="utf-8").splitlines()[0])
        assert match is not None
        checked = _run([_tool("check-jsonschema"), "--schemafile", match.group(1), path.name], path.parent, env)
        assert checked.returncode == 0, checked.stdout + checked.stderr

    # pre-commit, offline: the local hook runs the installed civrules.
    for command in (["git", "init", "-q"], ["git", "add", "-A"], [_tool("pre-commit"), "install"]):
        assert _run(command, repository, env).returncode == 0
    committed = _run(["git", "commit", "-q", "-m", "rules"], repository, env)
    assert committed.returncode == 0, committed.stdout + committed.stderr
    for step in _workflow_steps(repository):
        done = _run(step, repository, env)
        assert done.returncode == 0, (step, done.stdout[-2000:], done.stderr[-2000:])

    # A planted mistake: a card the base does not have. pre-commit refuses the commit, CI fails.
    manifest = repository / "rules" / "rulesets" / "house.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        + "overlay:\n  civilization_cards:\n    patch:\n      - id: potery\n        cost: 55\n"
        + '        source: "house rule: cheaper Pottery"\n',
        encoding="utf-8",
    )
    assert _run(["git", "add", "-A"], repository, env).returncode == 0
    refused = _run(["git", "commit", "-q", "-m", "cheaper pottery"], repository, env)
    assert refused.returncode != 0
    said = refused.stdout + refused.stderr  # git gives the hook's output on standard error
    assert "civrules validate" in said and "Failed" in said
    assert "rules/rulesets/house.yaml:" in said and "did you mean `pottery`?" in said
    annotated = _run(_workflow_steps(repository)[0], repository, env)
    assert annotated.returncode == 1
    assert annotated.stdout.startswith("::error file=rules/rulesets/house.yaml,line=")

    # A commit that only deletes a file: the base a second variant extends. pre-commit names no
    # deleted file to a hook, so only a hook that runs on every commit catches it (V001).
    assert _run(["git", "reset", "-q", "--hard"], repository, env).returncode == 0
    assert _run([str(BIN / "civrules"), "new-variant", "street", "--extends", "house"], repository, env).returncode == 0
    assert _run(["git", "add", "-A"], repository, env).returncode == 0
    assert _run(["git", "commit", "-q", "-m", "street"], repository, env).returncode == 0
    assert _run(["git", "rm", "-q", "rules/rulesets/house.yaml"], repository, env).returncode == 0
    deleted = _run(["git", "commit", "-q", "-m", "drop house"], repository, env)
    assert deleted.returncode != 0, deleted.stdout + deleted.stderr
    assert "V001" in deleted.stdout + deleted.stderr


def test_an_editor_shows_live_diagnostics_on_a_variant_of_a_shipped_ruleset(tmp_path: Path) -> None:
    """What the README promises: edit the new repository's variant, see the mistake as you type."""
    from tests.core.test_lsp import Client, position

    repository = made(tmp_path)
    rules = repository / "rules"
    variant = rules / "rulesets" / "house.yaml"
    uri = variant.absolute().as_uri()
    text = variant.read_text(encoding="utf-8")
    client = Client(rules)  # it inherits the environment, which `with_shipped` cleared of CIVRULES_NO_SHIPPED
    try:
        client.request("initialize", {"processId": None, "rootUri": repository.as_uri(), "capabilities": {}})
        client.notify("initialized", {})
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        typo = (
            text + 'overlay:\n  civilization_cards:\n    patch:\n      - {id: potery, cost: 55, source: "house rule"}\n'
        )
        client.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typo}]}
        )
        found = [d for d in client.diagnostics_until(uri, "V005") if d["code"] == "V005"]
        assert found and found[0]["range"]["start"]["line"] == position(typo, "potery")["line"]
        assert "did you mean `pottery`?" in found[0]["message"]
        assert client.close() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def _listed_unknowns(repository: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    """How many unknown facts (Q006) `civrules validate ARGS` lists in the repository."""
    monkeypatch.chdir(repository)
    code, out, err = civrules(*args, "--format", "json")
    assert code == 0, err
    return sum(d["code"] == "Q006" for d in json.loads(out))


@pytest.mark.parametrize(
    "options", [[], ["--extends", "expansion-project"], ["--new-base"]], ids=["variant", "many", "new-base"]
)
def test_the_readme_first_step_lists_the_unknown_facts_it_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    """Step 1 of the new repository's README says how to list the unknown facts the info counts;
    following it lists every one. It said `--verbose` lists them, which in a variant of a shipped
    ruleset lists nothing more: their facts are in the shipped base's files, left out of its listing."""
    repository = made(tmp_path, *options)
    readme = (repository / "README.md").read_text(encoding="utf-8")
    step = readme.split("\n1. ", 1)[1].split("\n2. ", 1)[0]
    _, found = validate(repository, monkeypatch)
    [count] = [d for d in found if d["code"] == "Q007"]
    total = int(re.search(r"has (\d+) unknown facts?", count["message"]).group(1))  # type: ignore[union-attr]
    assert total
    for option in re.findall(r"`(--[a-z-]+)`", step):
        assert _listed_unknowns(repository, monkeypatch, "validate", option) == total, (option, step)
    if "Q007" in step and "hint" in step:
        [listing] = re.findall(r"`civrules ([^`]+)`", count["hint"])
        assert _listed_unknowns(repository, monkeypatch, *listing.split()) == total, listing
    else:
        assert re.search(r"`--[a-z-]+`", step), f"step 1 says nothing that lists the unknown facts: {step}"


@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_init_of_a_fifo_or_a_socket_says_it_is_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """`civrules init ./-f`, `-f` a FIFO (or a socket, or `/dev/null`), said "`./-f` already holds
    `.`", as if it were a folder with a file in it: it is no folder at all."""
    import socket

    monkeypatch.chdir(tmp_path)
    if kind == "fifo":
        os.mkfifo("-f")
        said = "a FIFO (a named pipe)"
    else:
        held = socket.socket(socket.AF_UNIX)
        held.bind("-f")
        said = "a socket"
    code, out, _ = civrules("init", "./-f")
    assert code == 2 and f"error[R007]: `./-f` is not a folder but {said}: nothing was written" in out, out
    assert "already holds" not in out and "hint: name a new folder" in out
    assert sorted(os.listdir(tmp_path)) == ["-f"]


def test_init_names_a_link_it_refuses_as_it_was_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`civrules init ./-lnk`, a link, said "refusing to write into `-lnk`" (read as an option,
    pasted): the folder is named as every other message names one, `./-lnk`."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "-lnk").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    code, out, _ = civrules("init", "./-lnk")
    assert code == 2 and "refusing to write into `./-lnk`: `./-lnk` is a symbolic link" in out, out
    assert list(real.iterdir()) == []


def test_schemas_check_tells_a_missing_folder_once(tmp_path: Path) -> None:
    """`schemas --check --out X` of a folder not written yet said each of its 17 schemas missing,
    an R009 each; a family's folder gone, each of its schemas. Each folder is told once."""
    out = tmp_path / "schemas"
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    assert code == 1, said
    count = len(schema_tree())  # the schemas, the README and the marker civrules writes beside them
    assert [line for line in said.splitlines() if "R009" in line] == [
        f"{out}:1:1: error[R009]: `{out}` is missing, and the {count} files in it"
    ]
    assert f"  hint: write the schemas again: `civrules schemas --out {out}`" in said.splitlines()
    assert civrules("schemas", "--out", str(out))[0] == 0
    family = sorted(path for path in out.iterdir() if path.is_dir())[0]
    shutil.rmtree(family)
    code, said, _ = civrules("schemas", "--out", str(out), "--check")
    errors = [line for line in said.splitlines() if "R009" in line]
    inside = sum(1 for name in schema_files() if name.startswith(f"{family.name}/"))
    assert (code, errors) == (1, [f"{family}:1:1: error[R009]: `{family}` is missing, and the {inside} files in it"])
    assert f"  hint: write the schemas again: `civrules schemas --out {out}`" in said.splitlines()  # never "delete"


def _steps_using(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Each step of a workflow that uses an action: its `uses:` line as written (with its comment)."""
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith(("- uses:", "uses:"))]
    workflow = yaml.safe_load(text)
    steps = [step for job in workflow["jobs"].values() for step in job["steps"] if "uses" in step]
    assert len(lines) == len(steps)
    return list(zip(lines, steps, strict=True))


def test_the_workflows_pin_each_action_by_commit_and_keep_no_token() -> None:
    """The workflow `civrules init` writes (and docs/ci.md's) used `actions/checkout@v4`: a tag its
    owner can move to other code, and a checkout that leaves its token in `.git/config` for every
    later step (a `pip install` running a package's build) to read. Each action is pinned by a
    commit, its version said beside it, and no checkout keeps its credentials."""
    from civrules.emit.repository import WORKFLOW

    fenced = re.findall(r"^```yaml\n(.*?)^```$", (REPO / "docs" / "ci.md").read_text(encoding="utf-8"), re.M | re.S)
    workflows = [WORKFLOW.format(version=__version__), *(text for text in fenced if "steps:" in text)]
    assert len(workflows) == 3
    pinned = re.compile(r"^-? ?uses: [\w.-]+/[\w./-]+@[0-9a-f]{40}  # v\d+\.\d+\.\d+$")
    for text in workflows:
        for line, step in _steps_using(text):
            assert pinned.match(line), line
            if step["uses"].startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, text
    # One version of each action throughout: the docs say what `init` writes.
    uses = {line.split("uses: ")[1] for text in workflows for line, _ in _steps_using(text)}
    assert len({use.split("@")[0] for use in uses}) == len(uses)


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_the_staging_folder_a_killed_init_left_is_removed_by_the_next(tmp_path: Path) -> None:
    """`civrules init` killed while it wrote left `.civrules-init-*` (a copy of the schemas and
    more) in the new repository for good: the next init went on beside it, and `git add -A` took
    it. The next init removes one that holds init's mark and no process holds; a folder of that
    name without the mark, or one a running init holds, is left alone."""
    import fcntl

    target = tmp_path / "house"
    killed, running, users = (target / f".civrules-init-{name}" for name in ("killed", "running", "users"))
    for folder in (killed, running):
        (folder / "schemas").mkdir(parents=True)
        (folder / ".civrules-init-staging").write_bytes(b"civrules init\n")
    (users / "notes").mkdir(parents=True)
    held = os.open(running, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        code, _, err = civrules("init", str(target))
    finally:
        os.close(held)
    assert code == 0, err
    assert not killed.exists() and running.is_dir() and (users / "notes").is_dir()
    assert not (target / ".civrules-init-staging").exists()  # init's mark stays in its staging folder
    assert sorted(path.name for path in target.iterdir() if path.name.startswith(".civrules-init-")) == [
        running.name,
        users.name,
    ]


def _a_move(place: Path) -> bool:
    """Whether a rename into ``place`` moves a file of init's out of its staging folder (the
    schemas' tree is first renamed into that folder)."""
    return not any(part.startswith(".civrules-init-") for part in place.parts)


def _moves_of_an_init(tmp_path: Path) -> int:
    """How many renames an init makes to move its files into place."""
    from civrules.emit import output

    count = 0
    renamed = output.rename_new

    def counted(source: Path, target: Path) -> None:
        nonlocal count
        count += _a_move(target)
        renamed(source, target)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(output, "rename_new", counted)
        made(tmp_path / "counted", name="house")
    return count


@pytest.mark.parametrize("stage", ["before-the-first", "after-the-first", "halfway", "after-the-last"])
def test_an_init_killed_while_it_moves_its_files_into_place_is_undone_by_the_next(tmp_path: Path, stage: str) -> None:
    """`civrules init` killed between two of the renames that move its files into place left part
    of the repository, and the init run again refused ("already holds README.md") until the user
    deleted it by hand. The next init takes back what the killed one had moved (as it moved it)
    and writes the repository whole."""
    from civrules.emit import output
    from tests.security.helpers import killed_in_a_child

    moves = _moves_of_an_init(tmp_path)
    assert moves >= 3
    kill_before = {"before-the-first": 1, "after-the-first": 2, "halfway": moves // 2 + 1, "after-the-last": moves + 1}[
        stage
    ]
    target = tmp_path / "house"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n")  # the user's, before init
    renamed = output.rename_new

    def at_the_rename(kill: Any) -> None:
        count = 0

        def rename_or_kill(source: Path, target: Path) -> None:
            nonlocal count
            if not _a_move(target):
                renamed(source, target)
                return
            count += 1
            if count == kill_before:
                kill()
            renamed(source, target)
            if count == moves == kill_before - 1:
                kill()

        output.rename_new = rename_or_kill

    assert killed_in_a_child(at_the_rename, lambda: civrules("init", str(target))) == 9
    assert any(path.name.startswith(".civrules-init-") for path in target.iterdir())
    code, _, err = civrules("init", str(target))
    assert code == 0, err
    assert not any(path.name.startswith(".civrules-init-") for path in target.iterdir())
    expected = tree_of(tmp_path / "counted" / "house")
    assert tree_of(target) == {**expected, "notes.txt": b"mine\n"}


def test_what_the_user_changed_after_an_init_was_killed_is_not_taken_back(tmp_path: Path) -> None:
    """Only what the killed init moved, as it moved it, is taken back: a file the user edited
    since stays, and the next init refuses it as before (nothing else written)."""
    from civrules.emit import output
    from tests.security.helpers import killed_in_a_child

    target = tmp_path / "house"
    target.mkdir()
    renamed = output.rename_new

    def after_three_renames(kill: Any) -> None:
        count = 0

        def rename_or_kill(source: Path, target: Path) -> None:
            nonlocal count
            count += _a_move(target)
            if count == 4:
                kill()
            renamed(source, target)

        output.rename_new = rename_or_kill

    assert killed_in_a_child(after_three_renames, lambda: civrules("init", str(target))) == 9
    placed = sorted(
        path.name
        for path in target.iterdir()
        if not path.name.startswith(".civrules-init-") and path.name != ".gitattributes"
    )
    assert len(placed) >= 1  # (a .gitattributes there is kept, never refused: another test)
    edited = target / placed[0]
    if edited.is_dir():
        (edited / "mine.txt").write_text("mine\n")
    else:
        edited.write_bytes(edited.read_bytes() + b"# mine\n")
    code, out, err = civrules("init", str(target))
    assert code == 2 and f"already holds `{placed[0]}" in out + err, out + err
    assert sorted(path.name for path in target.iterdir() if path.name != ".gitattributes") == [placed[0]]


def test_a_record_of_moves_init_did_not_write_moves_nothing_outside_the_folder(tmp_path: Path) -> None:
    """The record a killed init left is data found on the disk: a name outside the new repository
    (absolute, `..`) or through a link put there is never taken back, even when what it names is
    as the record says."""
    import json

    from civrules.cli import _likeness

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("mine\n")
    target = tmp_path / "house"
    staging = target / ".civrules-init-forged"
    staging.mkdir(parents=True)
    (staging / ".civrules-init-staging").write_bytes(b"civrules init\n")
    (target / "way").symlink_to(outside)
    like = _likeness(outside / "precious.txt")
    journal = [
        ["a", str(outside / "precious.txt"), like],
        ["b", "../outside/precious.txt", like],
        ["c", "way/precious.txt", like],
    ]
    (staging / ".civrules-init-moves").write_text(json.dumps(journal))
    code, _, err = civrules("init", str(target))
    assert code == 0, err
    assert (outside / "precious.txt").read_text() == "mine\n"
    assert not staging.exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_windows_checkout_of_a_new_repository_keeps_lf_where_civrules_compares_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34 left it: init wrote no `.gitattributes`, so a clone with `core.autocrlf` (Git for
    Windows' default, a Windows runner's) wrote CRLF: `civrules schemas --check` called every
    schema stale (R009) and yamllint's new-lines rule refused every YAML file."""
    source = made(tmp_path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], cwd=source, check=True, capture_output=True)
    subprocess.run([*git, "add", "-A"], cwd=source, check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=source, check=True, capture_output=True)
    clone = tmp_path / "clone"
    subprocess.run([*git, "clone", "-q", "-c", "core.autocrlf=true", str(source), str(clone)], check=True)
    for path in (clone / "rules" / "rulesets" / "house.yaml", clone / ".yamllint", clone / "schemas" / "README.md"):
        assert b"\r\n" not in path.read_bytes(), path
    monkeypatch.chdir(clone)
    code, out, err = civrules("schemas", "--out", "schemas", "--check")
    assert code == 0, out + err


def test_init_keeps_a_gitattributes_that_is_there_and_says_what_it_lacks(tmp_path: Path) -> None:
    """A repository's root often has a `.gitattributes`: init is not refused for it, nor writes over it."""
    target = tmp_path / "existing"
    target.mkdir()
    (target / ".gitattributes").write_text("* text=auto\n", encoding="utf-8")
    code, _, err = civrules("init", str(target))
    assert code == 0, err
    assert (target / ".gitattributes").read_text(encoding="utf-8") == "* text=auto\n"
    assert "`existing/.gitattributes` is there already and was kept" in err.replace(str(tmp_path) + "/", "")
    assert "\n  schemas/** -text linguist-generated=true\n" in err, err
    # Round 35 left it: the README's row still described the `.gitattributes` init writes.
    readme = (target / "README.md").read_text(encoding="utf-8")
    assert "line endings: LF in YAML files on every checkout" not in readme
    assert "| `.gitattributes` | yours, kept as it was" in readme
    assert "\nschemas/** -text linguist-generated=true\n" in readme.partition("## Line endings")[2]


def test_what_init_moves_and_its_record_of_the_moves_are_on_the_disk_before_the_first_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """init's record of its moves, and the files it moves, were written but not synced: after a
    power loss (not a kill) the renames could be on the disk and the record empty or missing, and
    the next init could not take back what had been moved. Each file and every folder of the
    staging tree is now synced before the first rename."""
    from civrules.emit import output

    events: list[tuple[str, str | int]] = []  # a file is synced before it has its name: by inode
    synced, renamed = os.fsync, output.rename_new

    def sync(fd: int) -> None:
        events.append(("sync", os.readlink(f"/proc/self/fd/{fd}")))
        events.append(("sync", os.fstat(fd).st_ino))
        synced(fd)

    def rename(source: Path, target: Path) -> None:
        if _a_move(target):
            staging = next(folder for folder in source.parents if folder.name.startswith(".civrules-init-"))
            events.append(("move", str(source)))
            record = (staging / ".civrules-init-moves").stat().st_ino
            folders = [source.parent, *(Path(top) for top, _, _ in os.walk(source))]
            inodes = [path.stat().st_ino for path in [source, *source.rglob("*")] if path.is_file()]
            moved.append((folders, record, inodes))
        renamed(source, target)

    moved: list[tuple[list[Path], int, list[int]]] = []  # the folders, the record's and the files' inodes

    monkeypatch.setattr(os, "fsync", sync)
    monkeypatch.setattr(output, "rename_new", rename)
    target = tmp_path / "house"
    code, _, err = civrules("init", str(target))
    assert code == 0, err
    first = next(index for index, (what, _) in enumerate(events) if what == "move")
    before = {path for what, path in events[:first] if what == "sync"}
    assert moved
    for folders, record, inodes in moved:
        assert record in before
        assert all(folder.as_posix() in before for folder in folders)  # each name moved, or in what is moved
        assert all(inode in before for inode in inodes)
