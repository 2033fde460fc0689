"""The JSON documents `list` and `diff` print are described, and held, by their schemas.

Round 33's CI trial: `validate --format json` had docs/validate-json.schema.json (format 1), while
`list --format json` and `diff --format json`, which a CI step saves and reads (`civrules diff base
my-variant --format json > diff.json`), were described by nothing but their output. Each has its
schema now, format 1, fields only ever added; here every record validates against it, and a field
the output has that its schema does not name, or one its schema names that no record has, fails
until the schema says so. (`export` prints the resolved data, described per family in the README
and by the family's schemas; `explain` prints no JSON.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics.escape import dumps_json
from civrules.pipeline import analyse, compare
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace

DOCS = Path(__file__).parent.parent.parent / "docs"

#: A variant that makes each of the diff's optional fields: a patched count (its source differs
#: from the base's; the deck's total is derived from it) and a removal with its reason.
EVERY_FIELD = """\
kind: ruleset
id: every-diff-field
name: "Every field of a diff"
extends: expansion-project
status: draft
overlay:
  commodities:
    patch:
      - {id: clay, count: 8, source: "house rule: more clay"}
    remove:
      - {id: ochre, why: "house rule: no ochre"}
"""


def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((DOCS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _held(records: list[dict[str, Any]], definition: dict[str, Any], what: str) -> None:
    """Each record has the fields ``definition`` requires and no other than it names; together
    they have every field it names (an optional one in some record)."""
    named = list(definition["properties"])
    assert named == sorted(named), f"{what}: the schema names its fields in the order they are printed (sorted)"
    assert set(definition["required"]) <= set(named)
    seen: set[str] = set()
    for record in records:
        assert set(definition["required"]) <= set(record), (what, record)
        assert set(record) <= set(named), f"{what}: a field the schema does not name: {set(record) - set(named)}"
        seen |= set(record)
    assert seen == set(named), f"{what}: named by the schema, never printed: {set(named) - seen}"


def _list(*args: str) -> Any:
    result = CliRunner().invoke(main, ["--rules", str(RULES), "list", "--format", "json", *args])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_list_json_is_the_documented_format_field_for_field() -> None:
    schema = _schema("list-json.schema.json")
    rulesets, families = _list(), _list("--families")
    empty: list[Any] = []  # of both shapes: the schema takes either (`anyOf`)
    for document in (rulesets, families, empty):
        jsonschema.Draft202012Validator(schema).validate(document)
    _held(rulesets, schema["$defs"]["ruleset"], "a ruleset")
    players = schema["$defs"]["ruleset"]["properties"]["players"]
    _held([row["players"] for row in rulesets], players, "a ruleset's players")
    _held(families, schema["$defs"]["family"], "a family")


def _diffs() -> Iterator[dict[str, Any]]:
    workspace = CachedWorkspace({"rulesets/every-diff-field.yaml": EVERY_FIELD})
    # The western extension adds borders, each named by its pair of areas (`named_by`).
    pairs = (("expansion-project", "every-diff-field"), ("advanced-civilization", "advanced-civilization-western"))
    for old, new in pairs:
        resolved = []
        for ruleset in (old, new):
            analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
            assert analysis.resolved is not None
            resolved.append(analysis.resolved)
        # As `civrules diff --format json` prints it.
        yield json.loads(dumps_json(compare(*resolved).to_json(), indent=2, sort_keys=True))


def test_diff_json_is_the_documented_format_field_for_field() -> None:
    schema = _schema("diff-json.schema.json")
    documents = list(_diffs())
    for document in documents:
        jsonschema.Draft202012Validator(schema).validate(document)
    _held(documents, schema, "a diff")
    collections = [c for d in documents for c in d["collections"].values()]
    _held(collections, schema["$defs"]["collection"], "a collection")
    entities = [e for c in collections for kind in ("added", "removed", "changed") for e in c[kind]]
    _held(entities, schema["$defs"]["entity"], "an entity")
    changes = [*(f for e in entities for f in e["fields"]), *(f for d in documents for f in d["settings"])]
    _held(changes, schema["$defs"]["change"], "a change")
    sources = schema["$defs"]["change"]["properties"]["sources"]
    _held([c["sources"] for c in changes if "sources" in c], sources, "sources")


#: A designer's rules folder as `civrules init` and `new-variant` make it, and manifests that fail
#: validation (each is still listed): a name, an `extends:` and players of another type.
DESIGNER_TREE = {
    "mine.yaml": 'kind: ruleset\nid: mine\nname: "Mine"\nextends: advanced-civilization\n',
    "numbered.yaml": "kind: ruleset\nid: numbered\nname: 5\nextends: [advanced-civilization]\n",
    "flagged.yaml": 'kind: ruleset\nid: flagged\nname: ["a", 1]\nplayers: {min: true, max: "eight"}\n',
}


def test_list_json_types_each_field_for_a_designer_s_variants_and_broken_manifests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 34: the schema left `name`, `extends` and `players` untyped, because a manifest that
    fails validation is listed with whatever it holds (`name: 5` printed 5). A CI step reading the
    list then had no type to rely on. Now each is typed (a text, an integer, or null) and a value of
    another type is printed as null; a designer's own variant is listed as it is written."""
    schema = _schema("list-json.schema.json")
    ruleset = schema["$defs"]["ruleset"]["properties"]
    typed = [ruleset["name"], ruleset["extends"], *ruleset["players"]["properties"].values()]
    assert all("type" in each for each in typed), "each field a CI step reads has its type"
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)  # a designer's folder lists the shipped rulesets too
    rulesets = tmp_path / "rules" / "rulesets"
    rulesets.mkdir(parents=True)
    for name, text in DESIGNER_TREE.items():
        (rulesets / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--rules", str(tmp_path / "rules"), "list", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    listed = json.loads(result.stdout)
    jsonschema.Draft202012Validator(schema).validate(listed)
    by_id = {row["id"]: row for row in listed}
    assert (by_id["mine"]["name"], by_id["mine"]["extends"]) == ("Mine", "advanced-civilization")
    assert by_id["mine"]["players"] == by_id["advanced-civilization"]["players"] == {"min": 2, "max": 8}
    assert (by_id["numbered"]["name"], by_id["numbered"]["extends"]) == (None, None)
    assert (by_id["flagged"]["name"], by_id["flagged"]["players"]) == (None, {"min": None, "max": None})
