"""A cache the project could have written is not trusted (round 34).

A header entry says what a manifest's identity keys are without civrules reading them again; with
`CIVRULES_CACHE_DIR` inside the checkout, an entry a pull request committed made civrules judge a
ruleset by a family its file does not name. Where the cache folder is decides: in the rules
folder, a repository's work tree, an output folder, or writable by others, it is refused (R008).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.load.workspace import Workspace
from civrules.support import cache

_HOUSE = "kind: ruleset\nid: house\nname: House\nfamily: imperial-settlers\nstatus: house_rule\n"
_OTHER = "kind: ruleset\nid: other\nname: Other\nfamily: imperial-settlers\nstatus: house_rule\n"


def _project(tmp_path: Path) -> Path:
    rulesets = tmp_path / "project" / "rules" / "rulesets"
    rulesets.mkdir(parents=True)
    (rulesets / "house.yaml").write_text(_HOUSE, encoding="utf-8")
    (rulesets / "other.yaml").write_text(_OTHER, encoding="utf-8")
    return rulesets.parent


def _validate(rules: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> tuple[int, str]:
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(cache_dir))
    result = CliRunner().invoke(main, ["--no-shipped", "--rules", str(rules), "validate", "other", "--format", "json"])
    return result.exit_code, result.stdout + result.stderr


def test_a_forged_header_entry_committed_in_the_rules_folder_is_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = _project(tmp_path)
    monkeypatch.chdir(rules.parent)
    honest = _validate(rules, monkeypatch, tmp_path / "mine")
    assert honest[0] == 1 and "S004" in honest[1]
    # The entry a pull request commits: `other` extends `house`, which is of another family.
    (entry,) = (tmp_path / "mine").glob("headers-*.json")
    record = json.loads(entry.read_text(encoding="utf-8"))
    record["headers"]["rulesets/other.yaml"][1] = {"kind": "ruleset", "id": "other", "extends": "house"}
    forged = {"kind": "ruleset", "id": "house", "family": "sid-meiers-civilization"}
    record["headers"]["rulesets/house.yaml"][1] = forged
    committed = rules / ".cache"
    committed.mkdir(mode=0o700)
    (committed / entry.name).write_text(json.dumps(record), encoding="utf-8")
    code, output = _validate(rules, monkeypatch, committed)
    assert "is not an allowed value in `family`" not in output  # judged as another family's
    assert code == 2
    (found,) = json.loads(output)
    assert found["code"] == "R008" and "lies in the rules folder" in found["message"]
    assert "CIVRULES_CACHE_DIR" in found["hint"]


@pytest.mark.parametrize("where", ["repository", "holding", "others-write", "rules"])
def test_a_cache_folder_the_project_or_others_could_write_is_refused_and_said_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    rules = _project(tmp_path)
    monkeypatch.chdir(rules.parent)
    folder = {
        "repository": rules.parent / "build" / "cache",
        "holding": rules.parent,
        "others-write": tmp_path / "shared",
        "rules": rules / "cards",
    }[where]
    if where == "repository":
        (rules.parent / ".git").mkdir()
    if where == "others-write":
        folder.mkdir()
        folder.chmod(0o777)
    before = sorted(p.name for p in rules.parent.rglob("*"))
    code, output = _validate(rules, monkeypatch, folder)
    assert code == 2
    (found,) = json.loads(output)
    assert found["code"] == "R008" and f"`{folder}`" in found["message"]
    assert sorted(p.name for p in rules.parent.rglob("*")) == before  # no entry written


def test_a_cache_folder_of_this_user_outside_the_project_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = _project(tmp_path)
    monkeypatch.chdir(rules.parent)
    code, _ = _validate(rules, monkeypatch, tmp_path / "mine")
    assert code == 1
    assert list((tmp_path / "mine").glob("headers-*.json"))


@pytest.mark.parametrize("project_repository", [True, False])
def test_a_cache_in_another_repository_s_work_tree_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, project_repository: bool
) -> None:
    """A home folder kept as a dotfiles repository holds `~/.cache`, the default cache folder: a
    pull request to a project with a repository of its own cannot write there, so the cache is used
    (every command exited 2 when any repository's work tree held the cache). A project with no
    repository of its own lies in the home folder's: that one is the project's, and is refused."""
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    rules = _project(home / "projects")
    if project_repository:
        (rules.parent / ".git").mkdir()
    monkeypatch.chdir(rules.parent)
    code, output = _validate(rules, monkeypatch, home / ".cache" / "civrules")
    if project_repository:
        assert code == 1, output
        assert list((home / ".cache" / "civrules").glob("headers-*.json"))
    else:
        assert code == 2, output
        (found,) = json.loads(output)
        assert found["code"] == "R008" and f"the repository holding the rules folder (`{home}`" in found["message"]


def test_a_workspace_never_uses_a_cache_in_its_rules_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The language server and library callers too: no command line said R008 for them."""
    rules = _project(tmp_path)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(rules / ".cache"))
    Workspace(rules, shipped=False).manifests()
    assert cache.cache_dir() is None
    assert not (rules / ".cache").exists()
    shutil.rmtree(rules)
    assert os.path.realpath(rules) in cache._PROJECT


def test_an_output_folder_holding_the_cache_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from civrules.emit.output import OutputError, check_replaceable

    out = tmp_path / "out"
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(out / "cache"))
    with pytest.raises(OutputError, match="holds the cache folder") as refused:
        check_replaceable(out)
    assert refused.value.hint is not None and "CIVRULES_CACHE_DIR" in refused.value.hint


def test_the_repository_holding_a_folder_is_looked_for_once_not_at_each_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every entry read or written asks whether the cache folder lies in the project. It walked up
    from every rules folder of the process for a repository's mark on each entry: a test worker or
    a language server that had read a thousand rules folders spent 0.1 s of CPU per entry (the fast
    suite's last round grew by 20 s). The walk is made once per folder, as it is protected."""
    monkeypatch.setattr(cache, "_PROJECT", {})
    monkeypatch.setattr(cache, "_JUDGED", {}, raising=False)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "repository" / ".git").mkdir(parents=True)
    for number in range(20):
        cache.protect(tmp_path / "repository" / f"project-{number}" / "rules", "the rules folder")
    looked = []
    lexists = os.path.lexists

    def counted(path: str) -> bool:
        looked.append(path)
        return lexists(path)

    monkeypatch.setattr(os.path, "lexists", counted)
    for number in range(10):
        cache.write(f"entry-{number}", b"data")
        assert cache.read(f"entry-{number}") == b"data"
    assert looked == []
    # The verdict is the walk's: a cache in that repository's work tree is still refused.
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(tmp_path / "repository" / "cache"))
    assert cache.cache_dir() is None
    assert "lies in the work tree of the repository" in (cache.refusal() or ("", ""))[0]


@pytest.mark.parametrize("where", ["civrules", "build/cache", "holding"])
def test_a_cache_in_the_tree_of_a_project_with_no_repository_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """An unpacked archive has no repository's mark: its tree (the folder holding `rules/`) came
    with the rules, entries an archive brought included. `XDG_CACHE_HOME=$PWD` (cache
    `$PWD/civrules`) was used, and its entries believed, beside the rules (round 34's leftover)."""
    rules = _project(tmp_path)
    monkeypatch.chdir(rules.parent)
    folder = rules.parent if where == "holding" else rules.parent / where
    before = sorted(p.name for p in rules.parent.rglob("*"))
    code, output = _validate(rules, monkeypatch, folder)
    assert code == 2, output
    (found,) = json.loads(output)
    assert found["code"] == "R008" and f"the project's folder (`{rules.parent}`" in found["message"]
    assert sorted(p.name for p in rules.parent.rglob("*")) == before  # no entry written


@pytest.mark.parametrize("where", ["home", "shared"])
def test_a_cache_beside_rules_in_the_home_folder_or_a_shared_one_is_judged_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """`~/rules` makes the home folder the folder holding the rules, and the default cache lies in
    it; `/tmp/rules` a folder everyone writes: neither is one project's tree, so the cache folder is
    judged by its owner and mode alone, and used."""
    holding = tmp_path / where
    rules = _project(holding.parent)  # tmp_path/project/rules …
    shutil.move(str(rules.parent), str(holding))
    rules = holding / "rules"
    if where == "home":
        monkeypatch.setenv("HOME", str(holding))
    else:
        holding.chmod(0o1777)
    mine = holding / ".cache" / "civrules"
    monkeypatch.chdir(holding)
    code, output = _validate(rules, monkeypatch, mine)
    assert code == 1, output
    assert list(mine.glob("headers-*.json"))


def test_the_language_server_starts_with_a_refused_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`civrules lsp` exited 2 (R008 on a standard error the editor keeps out of sight): the editor
    showed a server that failed to start. It runs, as `validate` does not."""
    import civrules.lsp.server

    rules = _project(tmp_path)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(rules / ".cache"))
    served: list[Path] = []

    def serve(folder: Path, limits: object) -> int:
        served.append(folder)
        return 0

    monkeypatch.setattr(civrules.lsp.server, "serve", serve)
    for command in (["--rules", str(rules), "lsp"], ["lsp", "--rules", str(rules)]):
        result = CliRunner().invoke(main, ["--no-shipped", *command])
        assert result.exit_code == 0 and "R008" not in result.stderr, result.stderr
    assert served == [rules, rules]
    assert CliRunner().invoke(main, ["--no-shipped", "validate", "--rules", str(rules)]).exit_code == 2


def test_the_language_server_tells_the_editor_once_that_it_runs_without_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from tests.core.test_lsp import Editor

    rules = _project(tmp_path)
    monkeypatch.setenv("CIVRULES_CACHE_DIR", str(rules / ".cache"))

    async def session() -> Editor:
        editor = await Editor.started(rules)
        editor.notify("workspace/didChangeWatchedFiles", {"changes": []})
        editor.notify(
            "workspace/didChangeWorkspaceFolders",
            {"event": {"added": [{"uri": tmp_path.as_uri(), "name": "t"}], "removed": []}},
        )
        await editor.settle()
        return editor

    editor = asyncio.run(session())
    shown = [m["params"] for m in editor.sent if m.get("method") == "window/showMessage"]
    (told,) = [m for m in shown if "R008" in m["message"]]
    assert told["type"] == 2  # a warning: the server goes on
    assert f"`{rules / '.cache'}` lies in the rules folder" in told["message"]
    assert "runs without a cache" in told["message"] and "hint: set CIVRULES_CACHE_DIR" in told["message"]
    uri = (rules / "rulesets" / "other.yaml").as_uri()
    assert [d["code"] for d in editor.diagnostics(uri)]  # still checked: S004
    assert not (rules / ".cache").exists()
