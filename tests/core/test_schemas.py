"""The JSON Schemas: valid draft 2020-12, documented, consistent, and usable by other tools."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from civrules.schema import SCHEMA_FILES, load_schema
from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, RULES

SCHEMAS = REPO / "schemas"
COMMON_DEFS = ("id", "section", "rule", "source", "note", "unknown", "disagreements")
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def rule_files() -> list[Path]:
    return shipped.yaml_files()


@functools.cache
def read(path: Path) -> Any:
    """A rule file's data, parsed once per module by libyaml (the tests only read it)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@functools.cache
def _families_of_files() -> dict[Path, str]:
    """Each rule file of a family other than the default, with that family (from the manifests)."""
    found: dict[Path, str] = {}
    manifests = {p: read(p) for p in shipped.manifests()}
    family_of = {d["id"]: d.get("family") for d in manifests.values() if isinstance(d, dict)}
    for path, data in manifests.items():
        family = data.get("family") or family_of.get(data.get("extends"))
        if not family or family == "advanced-civilization":
            continue
        found[path.resolve()] = family
        for files in (data.get("files") or {}).values():
            for file in files:
                found[(RULES / file).resolve()] = family
    return found


def kind_of(path: Path) -> str:
    """The qualified kind of a rule file: a family's own kinds are `<family>/<kind>`."""
    data = read(path)
    assert isinstance(data, dict)
    family = _families_of_files().get(path.resolve())
    return f"{family}/{data['kind']}" if family else str(data["kind"])


def qualified_kind_of(path: Path) -> str:
    """The kind as the schema register knows it (:func:`kind_of` qualifies another family's kinds)."""
    return kind_of(path)


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_schema_is_valid_draft_2020_12(kind: str) -> None:
    schema = load_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(SCHEMA_FILES[kind])
    jsonschema.Draft202012Validator.check_schema(schema)


CONDITIONS = {"allOf", "not", "if", "then", "else", "dependentSchemas"}


def walk(node: Any, path: str = "#", condition: bool = False) -> list[str]:
    """Object schemas without additionalProperties: false, and declared properties without a description.

    Subschemas under allOf/if/then/not only constrain properties declared elsewhere, so only
    declarations outside them need descriptions and closing.
    """
    problems = []
    if isinstance(node, dict):
        if not condition and node.get("type") == "object" and "properties" in node:
            if node.get("additionalProperties") is not False:
                problems.append(f"{path}: object without additionalProperties: false")
            for name, sub in node["properties"].items():
                if isinstance(sub, dict) and "description" not in sub:
                    problems.append(f"{path}/properties/{name}: no description")
        for key, value in node.items():
            problems.extend(walk(value, f"{path}/{key}", condition or key in CONDITIONS))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            problems.extend(walk(value, f"{path}/{i}", condition))
    return problems


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_every_object_is_closed_and_every_property_described(kind: str) -> None:
    assert walk(load_schema(kind)) == []


def test_common_definitions_are_identical_in_every_schema() -> None:
    reference = load_schema("ruleset")["$defs"]
    for kind in SCHEMA_FILES:
        defs = load_schema(kind)["$defs"]
        for name in COMMON_DEFS:
            assert defs[name] == reference[name], f"{kind}: $defs/{name} differs from ruleset.schema.json"


def test_every_schema_file_is_registered() -> None:
    assert sorted(p.relative_to(SCHEMAS).as_posix() for p in SCHEMAS.rglob("*.schema.json")) == sorted(
        SCHEMA_FILES.values()
    )


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_rule_file_names_its_schema_in_a_modeline(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path.name}: first line is not a yaml-language-server modeline"
    target = (path.parent / match.group(1)).resolve()
    assert target == (SCHEMAS / SCHEMA_FILES[qualified_kind_of(path)]).resolve()


def test_check_jsonschema_accepts_a_card_file_and_rejects_what_civrules_rejects(tmp_path: Path) -> None:
    """The peer tool reads the schemas as civrules does: in one run (it checks every file it is
    given), the cards schema, which refers to the most definitions, accepts the smallest card file
    and rejects a copy with a misspelt key. Every file of every kind: `make test-slow`; every file
    is also validated with jsonschema in-process by the fast-path tests below."""
    cards = [path for path in rule_files() if kind_of(path) == "civilization_cards"]
    smallest = min(cards, key=lambda p: p.stat().st_size)
    broken = tmp_path / "cards.yaml"
    text = (RULES / "cards" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    assert "    cost: 80\n" in text
    broken.write_text(text.replace("    cost: 80\n", "    cots: 80\n", 1), encoding="utf-8")
    done = run_check_jsonschema("civilization_cards", [smallest, broken])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cots" in done.stdout
    errors = [line.strip() for line in done.stdout.splitlines() if "::" in line]
    assert errors, done.stdout
    assert all(line.startswith(f"{broken}::") for line in errors), done.stdout
    assert str(smallest) not in done.stdout + done.stderr


@pytest.mark.slow
def test_check_jsonschema_accepts_every_rule_file() -> None:
    by_kind: dict[str, list[Path]] = {}
    for path in rule_files():
        by_kind.setdefault(qualified_kind_of(path), []).append(path)
    for kind, paths in sorted(by_kind.items()):
        done = run_check_jsonschema(kind, paths)
        assert done.returncode == 0, done.stdout + done.stderr


def run_check_jsonschema(kind: str, paths: list[Path]) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if executable is None:
        pytest.skip("check-jsonschema is not installed (it is in the dev extras)")
    return subprocess.run(
        [executable, "--schemafile", str(SCHEMAS / SCHEMA_FILES[kind]), *(str(path) for path in paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _mutations(data: Any, limit: int = 50) -> list[Any]:
    """Distinct single-point mutations of a document: drop a key, change a value's type, add a stray key."""
    import copy

    found: list[Any] = []

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        if len(found) >= limit:
            return
        if isinstance(node, dict):
            for index, key in enumerate(list(node)[:6]):
                for change in ("drop", "type", "stray"):
                    if len(found) >= limit:
                        return
                    if change == "stray" and index > 0:
                        continue  # the same document as the first key's stray
                    mutated = copy.deepcopy(data)
                    target = mutated
                    for part in path:
                        target = target[part]
                    if change == "drop":
                        del target[key]
                    elif change == "type":
                        target[key] = [] if not isinstance(target[key], list) else "text"
                    else:
                        target["zz_stray"] = 1
                    found.append(mutated)
                visit(node[key], (*path, key))
        elif isinstance(node, list):
            for index, item in enumerate(node[:3]):
                visit(item, (*path, index))

    visit(data, ())
    return found


def shortened(node: Any, items: int = 3) -> Any:
    """The data with every list cut to its first ``items`` items."""
    if isinstance(node, dict):
        return {key: shortened(value, items) for key, value in node.items()}
    if isinstance(node, list):
        return [shortened(value, items) for value in node[:items]]
    return node


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_the_compiled_fast_path_agrees_with_jsonschema(path: Path) -> None:
    """The whole file, then five distinct single-point mutations (all at the top of the document)
    of the file with its lists cut to three items, itself valid: the rest of a long list only made
    jsonschema walk it again for each. Fifty mutations of the whole file in `make test-slow`."""
    from civrules.schema import is_valid_fast

    kind = qualified_kind_of(path)
    data = read(path)
    validator = jsonschema.Draft202012Validator(load_schema(kind))
    assert is_valid_fast(kind, data) == validator.is_valid(data)
    short = shortened(data)
    assert is_valid_fast(kind, short) and validator.is_valid(short), "the shortened file must stay valid"
    for candidate in _mutations(short, 5):
        assert is_valid_fast(kind, candidate) == validator.is_valid(candidate)


@pytest.mark.slow
@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_the_compiled_fast_path_agrees_with_jsonschema_on_fifty_mutations(path: Path) -> None:
    from civrules.schema import is_valid_fast

    kind = qualified_kind_of(path)
    data = read(path)
    validator = jsonschema.Draft202012Validator(load_schema(kind))
    for candidate in [data, *_mutations(data, 50)]:
        assert is_valid_fast(kind, candidate) == validator.is_valid(candidate)


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.relative_to(RULES).as_posix())
def test_the_compiled_path_of_one_added_entity_agrees_with_jsonschema(path: Path) -> None:
    """What an overlay adds, replaces or patches is validated alone: by the function the compiled
    validator has for its list's items where there is one, by jsonschema otherwise. The two agree
    on the first items of every collection of the file and on five mutations of each."""
    from civrules.families import families
    from civrules.schema import _fast_item_validator, _item_validator, _passes

    kind = qualified_kind_of(path)
    data = read(path)
    lists = {
        spec.path for f in families().values() for spec in f.collections.values() if f.slot_kind(spec.slot) == kind
    }
    for list_path in sorted(lists):
        fast = _fast_item_validator(kind, list_path)
        items: Any = data
        for part in list_path:
            items = items.get(part) if isinstance(items, dict) else None
        if fast is None or not isinstance(items, list):
            continue
        slow = _item_validator(kind, list_path)
        for item in items[:3]:
            for candidate in [item, *_mutations(item, 5)]:
                assert _passes(fast, candidate) == slow.is_valid(candidate), (list_path, candidate)


@heavy
def test_generating_the_fast_path_leaves_the_shared_schemas_untouched() -> None:
    """fastjsonschema rewrites refs in place; the schemas jsonschema uses must not see that."""
    import copy

    from tools.validators import render_validator

    for kind in SCHEMA_FILES:
        before = copy.deepcopy(load_schema(kind))
        render_validator(kind)
        assert load_schema(kind) == before


def _calamity_def(name: str) -> jsonschema.Draft202012Validator:
    schema = load_schema("calamities")
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


def test_a_calamity_effect_cites_a_rule_or_a_public_source() -> None:
    # Mega Civilization has no rulebook text: its effects cite `source:` where others cite `rule:`.
    effect = {"id": "treasury_lost", "kind": "lose_treasury", "amount": 10, "unit": "treasury_tokens", "text": "t"}
    validator = _calamity_def("effect")
    assert not validator.is_valid(effect)
    assert validator.is_valid({**effect, "rule": "29.2.3.1"})
    assert validator.is_valid({**effect, "source": "owner/repo@" + "0" * 40 + ":path"})
    modifier = {"card": "law", "applies_to": "primary", "effect": "reduces", "amount": -5, "text": "t"}
    assert not _calamity_def("modifier").is_valid(modifier)
    assert _calamity_def("modifier").is_valid({**modifier, "source": "community/x.csv"})


def test_an_effect_alternative_is_a_payment_with_its_citation() -> None:
    effect = {"id": "city_destroyed", "kind": "destroy_cities", "amount": 1, "unit": "cities", "text": "t", "rule": "1"}
    payment = {"kind": "lose_treasury", "amount": 10, "unit": "treasury_tokens", "text": "t", "rule": "29.4.3.2"}
    validator = _calamity_def("effect")
    assert validator.is_valid({**effect, "alternative": payment})
    assert validator.is_valid({**effect, "alternative": {**payment, "per_unit": True, "required_in_full": True}})
    assert not validator.is_valid({**effect, "alternative": {k: v for k, v in payment.items() if k != "rule"}})
    assert not validator.is_valid({**effect, "alternative": {k: v for k, v in payment.items() if k != "amount"}})
    assert not validator.is_valid({**effect, "alternative": {**payment, "amount": 0}})


def test_a_yaml_merge_key_is_one_diagnostic_at_the_merge_key() -> None:
    """`<<: *anchor` is not merged (YAML 1.2 has no merge keys): one S002 where it is written, not
    one more for each key it was meant to bring in."""
    from civrules.diagnostics import Severity
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    relative = "cards/advanced-civilization.yaml"
    text = (RULES / relative).read_text(encoding="utf-8").replace("  - id: pottery\n", "  - &pot\n    id: pottery\n", 1)
    text = text.rstrip("\n") + "\n  - <<: *pot\n    id: pottery_two\n    name: Pottery Two\n"
    workspace = CachedWorkspace({relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    line = text.count("\n", 0, text.index("<<: *pot")) + 1
    assert [(d.code, d.span and (d.span.line, d.span.column)) for d in errors] == [("S002", (line, 5))]
    assert "merge key" in errors[0].message and errors[0].hint is not None


def test_an_overlay_entry_named_in_a_yaml_merge_key_is_one_diagnostic_at_the_merge_key() -> None:
    """An overlay entry whose `id` was written in what `<<` was to merge (`- <<: {id: gold_tokens,
    count: 5}`) was told "missing key `id`", with the hint "write the component's id": of an entry
    that wrote it. The merge key is the cause, told where it is written, as anywhere else."""
    from civrules.diagnostics import Severity
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    text = (
        "kind: ruleset\nfamily: imperial-settlers\nid: merged\nname: Merged\nextends: imperial-settlers\n"
        "status: house_rule\noverlay:\n  components:\n    patch:\n"
        '      - <<: {id: gold_tokens, count: 5}\n        source: "house rule: more gold"\n'
    )
    workspace = CachedWorkspace({"rulesets/merged.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["merged"]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    assert [(d.code, d.span and (d.span.line, d.span.column)) for d in errors] == [("S002", (10, 9))], errors
    assert "merge key" in errors[0].message


#: The longest name a schema admits: every sheet and package that names an entry repeats its name
#: (a good's name is printed hundreds of times on Imperial Settlers' card sheets), so an unbounded
#: name made the output grow as the product of the name and its mentions.
NAME_LENGTH = 120


def _name_properties(node: Any, where: str = "") -> list[tuple[str, Any]]:
    found = []
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and isinstance(properties.get("name"), dict):
            found.append((f"{where}/properties/name", properties["name"]))
        for key, value in node.items():
            found += _name_properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _name_properties(value, f"{where}[{index}]")
    return found


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_every_name_is_bounded(kind: str) -> None:
    """Every `name` a file may write is text of at most :data:`NAME_LENGTH` characters (the
    overlays' patches of names are checked against the entry's own schema once applied)."""
    unbounded = []
    for where, name in _name_properties(load_schema(kind)):
        if name.get("$ref") == "#/$defs/setting_patch":
            continue
        texts = [
            shape for shape in [name, *name.get("oneOf", []), *name.get("anyOf", [])] if shape.get("type") == "string"
        ]
        if not texts or any(shape.get("maxLength") != NAME_LENGTH for shape in texts):
            unbounded.append(where)
    assert unbounded == []


@pytest.mark.parametrize("length", [NAME_LENGTH, NAME_LENGTH + 1])
@pytest.mark.parametrize("route", ["file", "overlay"])
def test_a_name_longer_than_the_bound_is_one_error_at_it_with_a_hint(length: int, route: str) -> None:
    """A group's name of 120 characters is clean; of 121, one S001 at the name, in the file the
    designer wrote it in: the card file, or the variant's overlay patching the group."""
    from civrules.diagnostics import Severity
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    long = "Arts of " + "x" * (length - len("Arts of "))
    if route == "file":
        relative, ruleset = "cards/advanced-civilization.yaml", "advanced-civilization"
        text = (RULES / relative).read_text(encoding="utf-8").replace("    name: Arts\n", f"    name: {long}\n", 1)
    else:
        relative, ruleset = "rulesets/long-names.yaml", "long-names"
        text = (
            "kind: ruleset\nid: long-names\nname: Long names\nextends: advanced-civilization\n"
            f"overlay:\n  groups:\n    patch:\n      - {{id: arts, name: {long}, source: house rule}}\n"
        )
    workspace = CachedWorkspace({relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    if length <= NAME_LENGTH:
        assert errors == []
        return
    line = text.count("\n", 0, text.index(long)) + 1
    column = text.index(long) - text.rfind("\n", 0, text.index(long))
    assert [(d.code, d.span and (d.span.file.endswith(relative), d.span.line, d.span.column)) for d in errors] == [
        ("S001", (True, line, column))
    ]
    assert errors[0].message.startswith(f"the text has {length} characters, at most {NAME_LENGTH} allowed")
    assert errors[0].hint is not None and "shorten the name" in errors[0].hint


#: The longest id and section number a schema admits (the longest shipped: 45 and 54 characters).
#: Messages, packages and hints repeat an id at every mention of its entry, and the checks of a
#: citation cut and compare its number: unbounded, either made work or output grow as the square.
ID_LENGTH, SECTION_LENGTH = 64, 120


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_ids_and_section_numbers_are_bounded(kind: str) -> None:
    defs = load_schema(kind)["$defs"]
    assert (defs["id"].get("maxLength"), defs["section"].get("maxLength")) == (ID_LENGTH, SECTION_LENGTH)


@pytest.mark.parametrize("length", [ID_LENGTH, ID_LENGTH + 1])
def test_an_id_longer_than_the_bound_is_one_error_at_it_with_a_hint(length: int) -> None:
    from civrules.diagnostics import Severity
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    long = "pottery_" + "x" * (length - len("pottery_"))
    relative = "rulesets/long-ids.yaml"
    text = (
        "kind: ruleset\nid: long-ids\nname: Long ids\nextends: advanced-civilization\n"
        "overlay:\n  civilization_cards:\n    add:\n"
        f'      - {{id: {long}, name: Long, rule: "32.21", groups: [crafts], cost: 45, prerequisites: [],'
        " attributes: [], credits: []}\n"
    )
    workspace = CachedWorkspace({relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["long-ids"]))
    errors = [d for d in analysis.diagnostics if d.severity is Severity.ERROR]
    if length <= ID_LENGTH:
        assert errors == []
        return
    assert [(d.code, d.span and d.span.line) for d in errors] == [("S001", 8)]
    assert errors[0].message.startswith(f"the text has {length} characters, at most {ID_LENGTH} allowed")
    assert errors[0].hint is not None and "shorten the id" in errors[0].hint


#: The citation every fact carries (DESIGN.md: "Every fact cites its source").
CITATION = [{"required": ["rule"]}, {"required": ["source"]}]

#: Lists of entities with ids that do not cite one by one, each with why, which the test checks.
CITED_OTHERWISE = {
    # Every area fact of a shipped map comes from the map's transcriptions, which the map file
    # cites; a map file that cites nothing has each area cite its own (`if`/`then` at its root).
    ("map", "#/properties/areas"): "the map file, else each area",
    # A create-game option cites the online site's help page and section it is described in.
    ("ruleset", "#/properties/options"): "help_page and help_section",
}


def _cites(node: Any) -> bool:
    """Whether a mapping of schema ``node`` must cite: `rule` or `source` required, or the anyOf of both."""
    if not isinstance(node, dict):
        return False
    required = node.get("required", ())
    return (
        "rule" in required
        or "source" in required
        or node.get("anyOf") == CITATION
        or node.get("oneOf") == CITATION
        or any(_cites(part) for part in node.get("allOf", ()))
    )


def _uncited_entities(kind: str) -> dict[str, tuple[Any, list[Any]]]:
    """Each list of entities (an `items` object with an `id`) whose schema requires no citation, by
    pointer, with its item schema and the enclosing objects' schemas, outermost first."""
    root = load_schema(kind)

    def resolved(node: Any) -> Any:
        while isinstance(node, dict) and str(node.get("$ref", "")).startswith("#/"):
            target: Any = root
            for part in node["$ref"][2:].split("/"):
                target = target[part]
            node = target
        return node

    found: dict[str, tuple[Any, list[Any]]] = {}

    def walk(node: Any, pointer: str, enclosing: list[Any]) -> None:
        if isinstance(node, dict):
            item = resolved(node.get("items"))
            if isinstance(item, dict) and "id" in item.get("properties", {}) and not _cites(item):
                found[pointer] = (item, enclosing)
            inner = [*enclosing, node] if "properties" in node else enclosing
            for key, value in node.items():
                walk(value, f"{pointer}/{key}", inner)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{pointer}/{index}", enclosing)

    walk(root, "#", [])
    return found


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_every_entity_cites_its_source(kind: str) -> None:
    """Each entity a rule file lists by id cites where its facts come from, as its schema requires
    (round 19: no entity of Sid Meier's Civilization had to, and an uncited wonder validated with
    `--strict`). What is left is a part of an entity that cites (a copy of a card, a level of a
    table: no `rule` of its own to give), a variant's change to an entity (`patch`, `remove`), or
    a list cited as :data:`CITED_OTHERWISE` says."""
    root = load_schema(kind)
    otherwise = {pointer: why for (owner, pointer), why in CITED_OTHERWISE.items() if owner == kind}
    uncited = _uncited_entities(kind)
    cited_otherwise = [id(uncited[pointer][0]) for pointer in otherwise if pointer in uncited]
    for pointer, (item, enclosing) in uncited.items():
        if pointer in otherwise:
            continue
        properties = item.get("properties", {})
        if "/overlay" in pointer or "overlay_" in pointer:
            assert "rule" not in item.get("required", ()), pointer  # a change, to an entity that cites
            continue
        assert "rule" not in properties and "source" not in properties, f"{kind} {pointer}: cite `rule` or `source`"
        assert any(_cites(outer) or id(outer) in cited_otherwise for outer in enclosing if outer is not root), (
            f"{kind} {pointer}: no enclosing citation"
        )
    for pointer, why in otherwise.items():
        assert pointer in uncited, f"{kind} {pointer} is cited one by one now: drop it"
        if why == "the map file, else each area":
            assert root["if"] == {"description": root["if"]["description"], "not": {"anyOf": CITATION}}
            assert root["then"]["properties"]["areas"]["items"] == {"anyOf": CITATION}
        else:
            item, _ = uncited[pointer]
            assert {"help_page", "help_section"} <= set(item["required"])
