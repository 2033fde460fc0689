"""Every id or name civrules writes into YAML reads back as that text.

`civrules init --name true`, `new-variant null` and the editor's rename wrote `id: true`, a
boolean, so the file they made failed its first `validate` (S001); R006's hint proposed the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from civrules.cli import main
from civrules.load import read_yaml_text
from civrules.load.reader import scalar_text
from civrules.load.workspace import Workspace
from civrules.schema import validate_document

#: Words YAML reads as something else than text when written plain (1.2, or 1.1 for `yes`).
RESERVED = ["true", "false", "null", "yes", "no", "on", "off", "12", "1e3", "0x1", "True", "~", ""]


@pytest.fixture(autouse=True)
def with_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)


@pytest.mark.parametrize("word", [*RESERVED, "house-rules", "pottery", "yes-please", "a: b", 'say "hi"'])
def test_a_scalar_written_reads_back_as_the_same_text(word: str) -> None:
    line = f"v: {scalar_text(word)}\n"
    document, problems = read_yaml_text(line, "x.yaml")
    assert not problems and document is not None and document.data == {"v": word}
    assert yaml.safe_load(line) == {"v": word}  # YAML 1.1 readers (yamllint's truthy) too
    if word in ("house-rules", "pottery", "yes-please"):
        assert scalar_text(word) == word  # plain where plain is safe: nothing changes for them


def _manifest_problems(path: Path) -> tuple[dict[str, object], list[str]]:
    document, problems = read_yaml_text(path.read_text(encoding="utf-8"), str(path))
    assert document is not None and not problems
    return document.data, [d.message for d in validate_document(document, "ruleset")]


@pytest.mark.parametrize("word", ["true", "null"])
def test_init_and_new_variant_write_a_reserved_id_that_validates(tmp_path: Path, word: str) -> None:
    target = tmp_path / "repo"
    result = CliRunner().invoke(main, ["init", str(target), "--name", word])
    assert result.exit_code == 0, result.output
    data, problems = _manifest_problems(target / "rules" / "rulesets" / f"{word}.yaml")
    assert data["id"] == word and data["name"] == word.capitalize() and not problems
    other = "false" if word == "true" else "off"
    result = CliRunner().invoke(
        main, ["--rules", str(target / "rules"), "new-variant", other, "--extends", "advanced-civilization"]
    )
    assert result.exit_code == 0, result.output
    data, problems = _manifest_problems(target / "rules" / "rulesets" / f"{other}.yaml")
    assert (data["id"], data["extends"]) == (other, "advanced-civilization") and not problems


def test_a_new_base_under_a_reserved_id_keeps_it_text(tmp_path: Path) -> None:
    from civrules.emit.repository import main_ruleset, new_base
    from civrules.families import families
    from civrules.load.workspace import shipped_rules

    workspace = Workspace(tmp_path / "rules", shipped=shipped_rules())
    family = families()["sid-meiers-civilization"]
    base = main_ruleset(workspace, family)
    assert base is not None
    written = new_base(workspace, base, "null")["rules/rulesets/null.yaml"].decode("utf-8")
    data = yaml.safe_load(written)
    assert (data["id"], data["name"]) == ("null", "Null")


def test_the_id_hint_of_a_manifest_named_by_a_reserved_word_quotes_it(tmp_path: Path) -> None:
    rulesets = tmp_path / "rules" / "rulesets"
    rulesets.mkdir(parents=True)
    (rulesets / "true.yaml").write_text(
        'kind: ruleset\nid: house\nname: "House"\nextends: advanced-civilization\n', encoding="utf-8"
    )
    workspace = Workspace(tmp_path / "rules")
    manifest = workspace.manifests()["house"]
    hints = [d.hint for d in workspace.load_ruleset(manifest).all_diagnostics() if d.code == "R006"]
    assert hints and 'set `id: "true"`' in str(hints[0])


@pytest.mark.parametrize(
    ("written", "said"),
    [("true", 'write `"true"` in quotes'), ("null", 'in quotes if it is `"null"`'), ("12", 'write `"12"` in quotes')],
)
def test_a_boolean_null_or_number_where_text_belongs_is_told_to_quote_it(written: str, said: str) -> None:
    document, _ = read_yaml_text(f"kind: ruleset\nid: house\nname: {written}\nextends: x\n", "m.yaml")
    assert document is not None
    found = [d for d in validate_document(document, "ruleset") if d.code == "S001"]
    assert found and said in str(found[0].hint), found
