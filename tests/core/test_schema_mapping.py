"""Schema errors land on the offending key or value, with hints."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.load import read_yaml_text
from civrules.schema import document_kind, load_schema, validate_document
from tests.budget import heavy
from tests.conftest import RULES

CARD = """kind: civilization_cards
groups:
  - {id: crafts, name: Crafts, colour: orange, rule: "6.1"}
cards:
  - id: pottery
    name: Pottery
    rule: "32.21"
    groups: [crafts]
    cost: 45
    prerequisites: []
    credits: []
    attributes: []
"""


def problems(text: str) -> list[Diagnostic]:
    document, diagnostics = read_yaml_text(text, "c.yaml")
    assert diagnostics == []
    assert document is not None
    kind, kind_problems = document_kind(document)
    if kind is None:
        return kind_problems
    return validate_document(document, kind)


def where(diagnostic: Diagnostic) -> tuple[str, int, int]:
    assert diagnostic.span is not None
    return diagnostic.code, diagnostic.span.line, diagnostic.span.column


def test_the_base_document_is_valid() -> None:
    assert problems(CARD) == []


def test_a_misspelt_key_is_one_error_at_the_key_with_a_suggestion() -> None:
    (found,) = problems(CARD.replace("    cost: 45", "    cots: 45"))
    assert where(found) == ("S002", 9, 5)
    assert found.hint == "did you mean `cost`?"


def test_a_bad_enum_value_suggests_the_closest() -> None:
    (found,) = problems(CARD.replace("colour: orange", "colour: orang"))
    assert where(found) == ("S003", 3, 40)
    assert found.hint == "did you mean `orange`?"


def test_a_missing_key_points_at_the_entity_and_describes_the_field() -> None:
    (found,) = problems(CARD.replace("    cost: 45\n", ""))
    assert where(found) == ("S004", 5, 5)
    assert found.hint is not None and found.hint.startswith("`cost`:")


def test_a_quoted_number_is_reported_against_the_number_branch() -> None:
    (found,) = problems(CARD.replace("cost: 45", 'cost: "45"'))
    assert where(found) == ("S001", 9, 11)
    assert found.hint == "write the number without quotes or a `!!str` tag: `45`"


def test_an_unquoted_rule_number_gets_a_quoting_hint() -> None:
    (found,) = problems(CARD.replace('rule: "32.21"', "rule: 32.21"))
    assert where(found) == ("S001", 7, 11)
    assert found.hint is not None and "quote" in found.hint


def test_yaml_1_1_booleans_get_a_hint() -> None:
    text = (RULES / "calamities" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    assert "    tradable: false\n" in text
    found = problems(text.replace("    tradable: false\n", "    tradable: no\n", 1))
    assert [d.code for d in found] == ["S001"]
    assert found[0].hint == "civrules reads YAML 1.2: write true or false"


def test_an_unknown_kind_suggests_the_closest() -> None:
    (found,) = problems(CARD.replace("kind: civilization_cards", "kind: civilisation_cards"))
    assert where(found) == ("S005", 1, 7)
    assert found.hint == "did you mean `civilization_cards`?"


def test_a_file_that_is_not_a_mapping_has_no_kind() -> None:
    document, _ = read_yaml_text("- a\n- b\n", "x.yaml")
    assert document is not None
    _, found = document_kind(document)
    assert [d.code for d in found] == ["S005"]


def test_an_id_that_is_not_snake_case_gets_a_slug_hint() -> None:
    (found,) = problems(CARD.replace("id: pottery", "id: Pottery Wheel"))
    assert found.code == "S001"
    assert found.hint == "ids are lower_snake_case, e.g. `pottery_wheel`"


def test_an_id_another_entry_of_the_file_has_is_not_proposed() -> None:
    second = CARD.split("cards:\n", 1)[1].replace("id: pottery", "id: Pottery").replace("name: Pottery", "name: Pots")
    (found,) = problems(CARD + second)
    assert found.code == "S001" and found.suggestion is None
    assert found.hint == "`pottery` is the id of another entry of this list already: give this one an id of its own"


def test_a_number_made_text_by_a_str_tag_is_hinted_at_the_tag() -> None:
    """`cost: !!str 45` has no quotes to drop: the hint names the tag too, which following it removes."""
    (found,) = problems(CARD.replace("cost: 45", "cost: !!str 45"))
    assert found.code == "S001"
    assert found.hint is not None and "`!!str` tag" in found.hint


def test_a_top_level_key_named_for_its_collection_is_one_error_with_the_key_meant() -> None:
    """Round 34's designer trial: a variant's own cards file began `civilization_cards:` (the
    name its overlay gives the collection) where the file's key is `cards:`. It was told three
    times (missing `cards`, missing `groups`, unknown `civilization_cards` with the allowed keys)
    and no "did you mean". The unknown key whose name ends in a missing key's, and whose value is
    of its type, stands for it: one S002 at the key, naming `cards`."""
    text = CARD.replace("\ncards:\n", "\ncivilization_cards:\n")
    (found,) = problems(text)
    assert where(found) == ("S002", 4, 1)
    assert found.hint is not None and found.hint.startswith("did you mean `cards`?"), found.hint


@heavy
def test_every_document_kinds_required_top_level_key_written_with_a_prefix_is_one_error_at_it() -> None:
    """The class: each kind's required top-level keys, written in a shipped file of the kind as
    `my_<key>`, give one S002 at that key naming the key meant (no S004 beside it)."""
    seen: dict[str, str] = {}
    for path in sorted(RULES.rglob("*.yaml")):
        document, _ = read_yaml_text(path.read_text(encoding="utf-8"), path.name)
        assert document is not None
        kind, _ = document_kind(document)
        if kind is not None and kind not in seen and validate_document(document, kind) == []:
            seen[kind] = path.read_text(encoding="utf-8")
    assert len(seen) >= 8, sorted(seen)
    tried = 0
    for kind, text in seen.items():
        lines = text.splitlines(keepends=True)
        tops = [(n, line.split(":", 1)[0]) for n, line in enumerate(lines) if line[:1].isalpha() and ":" in line]
        for n, key in tops:
            if key == "kind":
                continue
            renamed = "".join([*lines[:n], f"my_{lines[n]}", *lines[n + 1 :]])
            document, _ = read_yaml_text(renamed, "k.yaml")
            assert document is not None
            if key not in _required(kind):
                continue
            tried += 1
            found = validate_document(document, kind)
            assert [where(d) for d in found] == [("S002", n + 1, 1)], (kind, key, [d.message for d in found])
            assert found[0].hint is not None and f"did you mean `{key}`?" in found[0].hint, (kind, key, found[0].hint)
    assert tried >= 10


def _required(kind: str) -> list[str]:
    required: list[str] = load_schema(kind).get("required", [])
    return required


def test_a_prefixed_key_judged_by_the_item_wise_shell_names_the_key_meant_without_an_internal_error() -> None:
    """The item-wise shell validator's schema names a list's own schema by a `$ref` into its own
    `$defs` (`civrules-without-items-sections`), which the kind's schema does not define: the
    did-you-mean for `my_sections:` looked that `$ref` up in the kind's schema and raised KeyError
    (an internal error, in the suite when the shell's node was a copy). It reads the property as
    written, and a `$ref` no schema defines stops the lookup."""
    from civrules.schema import _AS_WRITTEN, _stands_for

    shell = {
        "required": ["sections"],
        "properties": {
            "sections": {
                _AS_WRITTEN: {"type": "array", "items": {"$ref": "#/$defs/indexed_section"}},
                "$ref": "#/$defs/civrules-without-items-sections",
            }
        },
    }
    root = {"$defs": {"indexed_section": {"type": "object"}}}
    assert _stands_for("my_sections", {"my_sections": []}, shell, root) == "sections"
    assert _stands_for("my_sections", {"my_sections": 5}, shell, root) is None  # not of its type
    unwritten = {"required": ["sections"], "properties": {"sections": {"$ref": "#/$defs/civrules-elsewhere"}}}
    assert _stands_for("my_sections", {"my_sections": []}, unwritten, root) == "sections"
