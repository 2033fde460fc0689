"""Every overlay entry is named by its own collection's key, in every family and every operation.

The overlay schema's entries were shared by every collection (`{id: ...}` or `{players: ...}` or
`{nation: ...}` or `{areas: ...}`, whatever the collection's key), and the resolver skipped an
entry without its key, trusting the schema: `{nation: thrace, why: x}` under `overlay.nations.remove`
validated with exit 0 and removed nothing. A patch without its key was told of four keys, and to
"write a mapping ... of `remove`, `replace`, `patch`, `insert`, `append`" for the id. The
collections are read from each family's ruleset schema (`overlay.<collection>`), never listed here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from civrules.diagnostics import Severity, blanks
from civrules.families import families
from civrules.families.family import CollectionSpec
from civrules.pipeline import Analysis, analyse
from civrules.resolve import _unnamed
from civrules.schema import load_schema
from tests.rulefiles import CachedWorkspace

#: A shipped ruleset of each family, which the variants below extend.
BASES = {
    "advanced-civilization": "advanced-civilization",
    "imperial-settlers": "imperial-settlers",
    "sid-meiers-civilization": "sid-meiers-civilization",
}

#: The keys an overlay entry of some collection is named by: the mistake is another collection's.
_KEYS = ("id", "players", "nation", "areas")

#: What the hint of a missing key says to write, by the key's type.
_WRITES = {"string": "write a text", "integer": "write a whole number", "array": "write a list of exactly 2 items"}


def _deref(schema: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        node = schema["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return node


def overlay_collections() -> list[tuple[str, str]]:
    """(family, collection) for every collection of every family's `overlay` schema."""
    found = []
    for family_id in sorted(BASES):
        overlay = load_schema(families()[family_id].slot_kind("ruleset"))["properties"]["overlay"]
        found += [(family_id, name) for name in overlay["properties"] if name != "settings"]
    return found


COLLECTIONS = overlay_collections()


def test_the_schemas_overlay_collections_are_the_families_collections() -> None:
    for family_id in BASES:
        named = {name for family, name in COLLECTIONS if family == family_id}
        assert named == set(families()[family_id].collections), family_id


def _item_fields(family_id: str, name: str) -> list[str]:
    """The fields an entity of the collection has, as its data file's schema declares them."""
    family = families()[family_id]
    spec = family.collections[name]
    schema = load_schema(family.slot_kind(spec.slot))
    node: Any = schema
    for part in spec.path:
        node = _deref(schema, _deref(schema, node)["properties"][part])
    item = _deref(schema, node["items"])
    shapes = [item, *(_deref(schema, b) for b in [*item.get("oneOf", ()), *item.get("anyOf", ())])]
    return list(dict.fromkeys(key for shape in shapes for key in shape.get("properties", {})))


def _keyless(family_id: str, name: str) -> tuple[str, dict[str, int]]:
    """A variant whose every operation on ``name`` names its entity by another collection's key
    (a patch by no key at all), and the line of each operation's entry."""
    spec = families()[family_id].collections[name]
    foreign = next(key for key in _KEYS if key != spec.key)
    value = "[crete, cyprus]" if foreign == "areas" else "3" if foreign == "players" else "crete"
    field = next(f for f in _item_fields(family_id, name) if f not in (spec.key, spec.qualifier, "rule", "source"))
    family = "" if family_id == "advanced-civilization" else f"family: {family_id}\n"
    text = (
        f"kind: ruleset\n{family}id: keyless\nname: keyless\nextends: {BASES[family_id]}\noverlay:\n  {name}:\n"
        f"    add:\n      - {{{foreign}: {value}, name: X}}\n"
        f"    replace:\n      - {{{foreign}: {value}, name: X}}\n"
        f'    patch:\n      - {{{field}: 1, source: "house rule"}}\n'
        f'    remove:\n      - {{{foreign}: {value}, why: "house rule"}}\n'
    )
    lines = {op: text.splitlines().index(f"    {op}:") + 2 for op in ("add", "replace", "patch", "remove")}
    return text, lines


def analysed(text: str) -> Analysis:
    workspace = CachedWorkspace({"rulesets/keyless.yaml": text})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()["keyless"]))


@pytest.mark.parametrize(("family_id", "name"), COLLECTIONS, ids=[f"{f}:{n}" for f, n in COLLECTIONS])
def test_an_entry_without_its_collections_key_is_one_error_naming_that_key(family_id: str, name: str) -> None:
    spec = families()[family_id].collections[name]
    text, lines = _keyless(family_id, name)
    errors = [d for d in analysed(text).diagnostics if d.severity == "error"]
    key_type = "array" if spec.pair else "integer" if spec.key == "players" else "string"
    for op, line in lines.items():
        here = [d for d in errors if d.span is not None and d.span.line == line]
        missing = [d for d in here if d.code == "S004"]
        assert [d.message for d in missing] == [f"missing key `{spec.key}` in `overlay.{name}.{op}[0]`"], (op, here)
        hint = missing[0].hint or ""
        assert hint.startswith(f"`{spec.key}`: ") and hint.endswith(_WRITES[key_type]), (op, hint)
        assert not [key for key in _KEYS if key != spec.key and f"`{key}`" in hint], (op, hint)
        assert not re.search(r"`(remove|insert|append)`|\{(id|players|nation|areas): \.\.\.\}", hint), (op, hint)
        # The entry is one mistake: only an unknown key (another collection's) may be told beside it.
        assert all(d.code == "S002" for d in here if d is not missing[0]), (op, here)
    patch = [d for d in errors if d.span is not None and d.span.line == lines["patch"]]
    assert len(patch) == 1, patch


def test_a_card_patch_without_its_id_is_told_the_id_and_following_the_hint_makes_it_valid() -> None:
    text = (
        "kind: ruleset\nid: keyless\nname: keyless\nextends: advanced-civilization\noverlay:\n"
        '  civilization_cards:\n    patch:\n      - {cost: 50, source: "house rule"}\n'
    )
    (found,) = [d for d in analysed(text).diagnostics if d.severity != "info"]
    assert (found.code, found.message) == ("S004", "missing key `id` in `overlay.civilization_cards.patch[0]`")
    assert found.hint is not None and found.hint.endswith("write a text"), found.hint
    (example,) = re.findall(r"e\.g\. (\w+)", found.hint)
    followed = text.replace("{cost: 50", f"{{id: {example}, cost: 50")
    assert [d for d in analysed(followed).diagnostics if d.severity != "info"] == []


def test_a_track_patch_without_its_nation_is_one_error() -> None:
    text = (
        "kind: ruleset\nid: keyless\nname: keyless\nextends: advanced-civilization\noverlay:\n"
        "  ast_tracks:\n    patch:\n      - {spaces: 16}\n"
    )
    (found,) = [d for d in analysed(text).diagnostics if d.severity != "info"]
    assert (found.code, found.message) == ("S004", "missing key `nation` in `overlay.ast_tracks.patch[0]`")
    assert found.hint == "`nation`: Nation id; write a text"
    followed = text.replace("{spaces: 16", "{nation: crete, spaces: 16, source: house rule")
    # What is left is the house rule's own consequence (A004: the tracks' lengths differ).
    assert [d.code for d in analysed(followed).diagnostics if d.severity != "info"] == ["A004"]


def test_a_removal_by_another_collections_key_is_refused_and_the_nation_is_kept() -> None:
    """The report's case: validated with exit 0, and `export` still had Thrace."""
    text = (
        "kind: ruleset\nid: keyless\nname: keyless\nextends: advanced-civilization\noverlay:\n"
        '  nations:\n    remove:\n      - {nation: thrace, why: "house rule"}\n'
    )
    found = [(d.code, d.message) for d in analysed(text).diagnostics if d.severity != "info"]
    assert found == [
        ("S004", "missing key `id` in `overlay.nations.remove[0]`"),
        ("S002", "unknown key `nation` in `overlay.nations.remove[0]`"),
    ]
    followed = analysed(text.replace("{nation: thrace", "{id: thrace"))
    # What is left is the removal's own consequences (V006: the base refers to Thrace; P006: a gap
    # in the A.S.T. order): the entry itself is right.
    assert {d.code for d in followed.diagnostics if d.severity != "info"} == {"P006", "V006"}
    assert followed.resolved is not None
    assert "thrace" not in [e.raw["id"] for e in followed.resolved.collections["nations"]]


def _bare(family_id: str, name: str) -> tuple[str, dict[str, int]]:
    """A variant whose every operation on ``name`` writes its entry as the bare key (`remove:
    [jap001]`, as `overlay.settings.remove` names a setting), and the line of each."""
    spec = families()[family_id].collections[name]
    value = "[crete, cyprus]" if spec.pair else "3" if spec.key == "players" else "crete"
    family = "" if family_id == "advanced-civilization" else f"family: {family_id}\n"
    text = f"kind: ruleset\n{family}id: keyless\nname: keyless\nextends: {BASES[family_id]}\noverlay:\n  {name}:\n"
    text += "".join(f"    {op}:\n      - {value}\n" for op in ("add", "replace", "patch", "remove"))
    lines = {op: text.splitlines().index(f"    {op}:") + 2 for op in ("add", "replace", "patch", "remove")}
    return text, lines


@pytest.mark.parametrize(("family_id", "name"), COLLECTIONS, ids=[f"{f}:{n}" for f, n in COLLECTIONS])
def test_an_entry_written_as_its_bare_key_is_one_error_where_it_is_written(family_id: str, name: str) -> None:
    """Imperial Settlers' and Sid Meier's `remove: [jap001]` validated with exit 0 and removed
    nothing: the compiled validator judged `items: {type: object, $ref: ...}` by its `$ref` alone
    (fastjsonschema reads a `$ref`'s siblings as draft 4 did, not at all), and the resolver skips
    an entry that is no mapping, trusting the schema."""
    text, lines = _bare(family_id, name)
    errors = [d for d in analysed(text).diagnostics if d.severity == "error"]
    for op, line in lines.items():
        here = [(d.code, d.message) for d in errors if d.span is not None and d.span.line == line]
        assert len(here) == 1 and here[0][0] == "S001", (op, here)
        assert here[0][1].endswith(f" where a mapping belongs in `overlay.{name}.{op}[0]`"), (op, here)


@pytest.mark.parametrize(("family_id", "name"), COLLECTIONS, ids=[f"{f}:{n}" for f, n in COLLECTIONS])
def test_a_removal_written_as_its_bare_key_is_shown_whole_and_the_entry_shown_validates(
    family_id: str, name: str
) -> None:
    """S001's hint at `remove: [jap001]` was "write `{id: ..., why: ...}`": the form, not the entry
    the designer meant. It writes the entry whole with the key written and a blank for the reason
    (`{id: jap001, why: "write why here"}`); pasted as it is, the blank alone is reported (L016);
    written in place, with a reason, it is no schema error any more (what is left is the
    removal's own consequences, such as an id the base lacks)."""
    spec = families()[family_id].collections[name]
    if spec.pair:
        return  # a border's `[crete, cyprus]` is a list where a mapping belongs: "write a mapping"
    text, _ = _bare(family_id, name)
    text = text.split("    add:\n")[0] + "    remove:\n" + text.split("    remove:\n")[1]
    line = text.splitlines().index("    remove:") + 2
    (found,) = [d for d in analysed(text).diagnostics if d.span is not None and d.span.line == line]
    value = "3" if spec.key == "players" else "crete"
    assert found.hint is not None and found.hint.startswith(
        f'write the entry whole: `{{{spec.key}: {value}, why: "write why here"'
    ), found.hint
    whole = found.hint.split("`")[1]
    pasted = text.replace(f"      - {value}\n", f"      - {whole}\n")
    told = [d.code for d in analysed(pasted).diagnostics if d.severity is Severity.ERROR]
    assert "L016" in told and not [code for code in told if code[0] in "SR"], told
    fixed = pasted.replace('"write why here"', '"house rule: none"')
    assert [d for d in analysed(fixed).diagnostics if d.code in ("S001", "S002", "S004")] == []


class _At:
    """Where an overlay entry stands, as `_unnamed` reads it (a path and no place in a file)."""

    path = ("overlay", "borders", "patch", 0)

    def span(self, *_: object) -> None:
        return None


@pytest.mark.parametrize(
    ("spec", "item", "written"),
    [
        (CollectionSpec("map", ("areas",), word="area"), {"side": "north"}, 'id: "write the area\'s id here"'),
        (
            CollectionSpec("map", ("borders",), "areas", pair=True, word="border"),
            {"kind": "sea"},
            'areas: ["write the first id here", "write the second id here"]',
        ),
        (
            CollectionSpec("map", ("borders",), "areas", pair=True, word="border"),
            {"areas": "crete|"},
            'areas: ["write the first id here", "write the second id here"]',
        ),
    ],
)
def test_the_resolvers_hint_for_an_entry_without_its_key_writes_blanks(
    spec: CollectionSpec, item: dict[str, Any], written: str
) -> None:
    """Round 33: the resolver's hint for an overlay entry that has no key (a family's schema lets
    it through) wrote `id: ...`, and a pair it could not split `[FIRST, SECOND]`: placeholders a
    designer pasting the hint left as they were. Each is now a blank, L016 until written."""
    found = _unnamed("things", spec, item, _At())  # type: ignore[arg-type]
    assert found.hint is not None and found.hint.endswith(f"`{written}`"), found.hint
    (value,) = yaml.safe_load("{" + written + "}").values()
    for one in value if isinstance(value, list) else [value]:
        assert blanks.is_blank(one), written
