"""References are declared once, in the schemas (`x-civrules-ref`), and found by walking the data.

The reference check (X001, V006) and the language server read the same declarations; these tests
hold the declarations to what the hand-written table of reference edges they replaced covered.
"""

from __future__ import annotations

from typing import Any

import pytest

from civrules.checks.references import references
from civrules.families import default_family, family_named
from civrules.pipeline import analyse
from civrules.schema import SCHEMA_FILES, load_schema
from civrules.schema.references import KEYWORD, Ref, declared, declared_references, find_references, node_at, ref_at
from tests.rulefiles import CachedWorkspace

COLLECTIONS = default_family().collections

CARDS = "civilization_cards"

#: Every edge of the table of references the Advanced Civilization family wrote by hand before the
#: schemas declared them (families/advanced_civilization/references.py): the file kind, the key
#: path of the field in a file of that kind, the collection it names and the reference in words.
OLD_TABLE = [
    ("civilization_cards", ("cards", "groups"), "groups", "card group"),
    ("civilization_cards", ("cards", "prerequisites", "card"), CARDS, "prerequisite"),
    ("civilization_cards", ("cards", "credits", "card"), CARDS, "credit target"),
    ("civilization_cards", ("cards", "credits", "group"), "groups", "credit group"),
    ("civilization_cards", ("cards", "attributes", "calamities", "calamity"), "calamities", "calamity"),
    ("civilization_cards", ("cards", "attributes", "effects", "card"), CARDS, "immunity card"),
    ("civilization_cards", ("cards", "attributes", "effects", "unless_holding"), CARDS, "immunity card"),
    ("civilization_cards", ("cards", "attributes", "effects", "before_holders_of"), CARDS, "conflict card"),
    ("civilization_cards", ("cards", "attributes", "effects", "exempt_holders"), CARDS, "special_ability card"),
    ("calamities", ("calamities", "modifiers", "card"), CARDS, "modifier card"),
    ("calamities", ("calamities", "immune", "card"), CARDS, "immunity card"),
    ("ruleset", ("nations", "start_areas", "areas"), "areas", "start area"),
    ("ruleset", ("ast", "tracks", "nation"), "nations", "A.S.T. track nation"),
    ("ruleset", ("ast", "tracks", "epoch_starts", "epoch"), "epochs", "epoch"),
    ("ruleset", ("player_counts", "counts", "configurations", "nations"), "nations", "nation"),
    ("ruleset", ("hand_limit", "card_changes", "card"), CARDS, "hand-limit card"),
    ("ruleset", ("taxation", "rate_changes", "card"), CARDS, "tax-rate card"),
    ("ruleset", ("sequence_of_play", "phases", "sub_activities", "card"), CARDS, "activity card"),
    ("ruleset", ("non_player_forces", "advancements", "card"), CARDS, "advancement of a non-player force"),
    ("map", ("areas", "flood_plain"), "flood_plains", "flood plain"),
    ("map", ("areas", "start_nation"), "nations", "nation"),
    ("map", ("borders", "areas"), "areas", "border area"),
    ("map", ("flood_plains", "areas"), "areas", "area"),
    ("map", ("volcanoes", "areas"), "areas", "area"),
    ("commodities", ("set_value", "examples", "commodity"), "commodities", "commodity"),
    ("commodities", ("mining", "card"), CARDS, "Mining card"),
    ("commodities", ("trade_stacks", "stacks", "purchases", "requires_card"), CARDS, "purchase card"),
]


@pytest.mark.parametrize("edge", OLD_TABLE, ids=lambda e: f"{e[0]}:{'.'.join(e[1])}")
def test_every_edge_of_the_old_table_is_declared_in_the_schemas(edge: tuple[str, tuple[str, ...], str, str]) -> None:
    kind, path, collection, what = edge
    schema = load_schema(kind)
    assert ref_at(schema, node_at(schema, path)) == Ref(collection, what, check=True)


def test_each_effect_names_its_cards_after_its_kind() -> None:
    """The old table called a card an effect names "<kind> card", for every effect kind."""
    schema = load_schema("civilization_cards")
    seen = []
    for name, definition in schema["$defs"].items():
        kind = definition.get("properties", {}).get("kind", {}).get("const")
        for field in ("card", "unless_holding", "before_holders_of", "exempt_holders"):
            if kind is not None and field in definition["properties"]:
                seen.append(name)
                assert ref_at(schema, (definition["properties"][field],)) == Ref(CARDS, f"{kind} card")
    assert len(seen) == 4


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_every_declaration_names_a_collection_and_says_what(kind: str) -> None:
    family = family_named(kind.partition("/")[0]) if "/" in kind else default_family()  # a family's own kinds
    assert family is not None, kind
    for pointer, ref in declared_references(load_schema(kind)):
        assert ref.collection in family.collections or (ref.collection == "rulesets" and not ref.check), pointer
        assert ref.what.strip() == ref.what and ref.what, pointer
        assert "/overlay_patch_" not in pointer, "a patch is read with its collection's own schema"


def test_a_declaration_is_a_vendor_keyword_the_validators_ignore() -> None:
    import fastjsonschema
    import jsonschema

    schema = {
        "type": "object",
        "properties": {"card": {KEYWORD: {"collection": CARDS, "what": "prerequisite"}, "type": "string"}},
    }
    jsonschema.Draft202012Validator.check_schema(schema)
    assert fastjsonschema.compile(schema)({"card": "astronomy"}) == {"card": "astronomy"}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors({"card": "astronomy"})) == []


def _walk(kind: str, path: tuple[str, ...], value: Any, *, patches: bool = False) -> list[tuple[Any, ...]]:
    schema = load_schema(kind)
    return [
        (sub, target, ref.what)
        for sub, target, ref in find_references(schema, node_at(schema, path), value, patches=patches)
    ]


def test_an_effect_s_kind_chooses_the_schema_it_is_read_with() -> None:
    effect = {"kind": "conflict", "aspect": "removal_order", "before_holders_of": ["engineering", 7]}
    assert _walk("civilization_cards", ("cards", "attributes", "effects"), [effect]) == [
        ((0, "before_holders_of", 0), "engineering", "conflict card")
    ]


def test_an_unknown_fact_holds_no_reference() -> None:
    card = {"id": "x", "prerequisites": {"unknown": "the source is silent"}, "groups": ["crafts"]}
    assert _walk("civilization_cards", ("cards",), [card]) == [((0, "groups", 0), "crafts", "card group")]


def test_list_operations_are_read_as_the_elements_they_write() -> None:
    patch = {
        "append": [{"card": "astronomy", "rule": "1"}],
        "patch": [{"where": {"card": "pottery"}, "with": {"card": "cloth_making"}}],
    }
    found = _walk("civilization_cards", ("cards", "prerequisites"), patch, patches=True)
    assert found == [
        (("append", 0, "card"), "astronomy", "prerequisite"),
        (("patch", 0, "where", "card"), "pottery", "prerequisite"),
        (("patch", 0, "with", "card"), "cloth_making", "prerequisite"),
    ]
    assert _walk("civilization_cards", ("cards", "prerequisites"), patch) == []  # resolved data has none


def test_every_kind_of_reference_of_the_old_table_is_found_in_the_shipped_rules() -> None:
    """Each reference the old table yielded for the shipped rulesets is still yielded (by what).

    The old table was Advanced Civilization's: its rulesets are the ones held to it."""
    workspace = CachedWorkspace({})
    found: set[str] = set()
    for ruleset, manifest in sorted(workspace.manifests().items()):
        if not manifest.family.default:
            continue
        model = analyse(workspace, workspace.load_ruleset(manifest)).model
        assert model is not None, ruleset
        found |= {what for _, _, _, _, what in references(model)}
    assert found == {what for *_, what in OLD_TABLE} | ROUND_18


#: The references X001 checks since round 18, which were declared for the editor only (`"check":
#: false`) though no other check read them.
ROUND_18 = {
    "commodity counted",
    "immune nation",
    "deck commodity",
    "excluded border area",
    "epoch without regression",
    "military-last card",
    "revolt immunity card",
    "group of the cards acquired",
}


def test_a_reference_another_check_answers_for_names_it() -> None:
    """`"check": "K004"`: the editor navigates it, X001 leaves it to the check that code names
    (tests/core/test_reference_owners.py holds each such check to a bogus id there)."""
    schema = load_schema("calamities")
    ref = ref_at(schema, node_at(schema, ("calamities", "modifier_combination", "precedence")))
    assert ref == Ref(CARDS, "card of the precedence", check=False, owner="K004")
    schema = load_schema("commodities")  # round 18: no check read a deck's commodities; X001 does
    ref = ref_at(schema, node_at(schema, ("deck_compositions", "decks", "commodities", "commodity")))
    assert ref == Ref("commodities", "deck commodity")


def test_check_false_names_no_owner() -> None:
    """`"check": false` (an owner no one names) is read, but as a reference X001 leaves to no one:
    the shipped schemas never write it (test_reference_owners.py refuses it)."""
    ref = declared({KEYWORD: {"collection": CARDS, "what": "card", "check": False}})
    assert ref == Ref(CARDS, "card", check=False, owner=None)


_IMMUNE = {"kind": "immunity", "against": "card_ability", "card": "law"}


def _card(number: int) -> dict[str, Any]:
    return {
        "id": f"card_{number}",
        "name": f"Card {number}",
        "cost": 100,
        "groups": ["crafts", "arts"],
        "prerequisites": [{"card": "pottery", "rule": "1"}],
        "credits": [{"group": "arts", "points": 10}, {"card": "mysticism", "points": 5}],
        "attributes": [{"text": "Immune.", "effects": [_IMMUNE]}],
    }


def test_the_reference_walk_costs_a_look_up_per_node_once_it_has_met_the_shapes() -> None:
    """Counted, never timed (tests/README.md): X001 walks every entity of a ruleset with its schema,
    and each node of the data built a key of its schema nodes' identities (and the ``repr`` of an
    effect's `kind`) to find its step again: about 23 counted steps a node of a card, most of
    X001's time. A node's step is now found in its parent's (about 16)."""
    from tests.security.test_check_growth import calls_made, nodes_in

    schema = load_schema("civilization_cards")
    nodes = node_at(schema, ("cards",), item=True)
    cards = [_card(number) for number in range(50)]
    assert [target for _, target, _ in find_references(schema, nodes, cards[0])] == [
        "crafts",
        "arts",
        "pottery",
        "arts",
        "mysticism",
        "law",
    ]
    work = calls_made(lambda: [list(find_references(schema, nodes, card)) for card in cards])
    assert work <= 19 * sum(nodes_in(card) for card in cards)


def test_the_schema_nodes_of_a_path_are_found_once_for_the_same_schema() -> None:
    """Counted, never timed: X001 asked :func:`node_at` for each collection of each ruleset, and a
    session's update asks again for every ruleset an edit checks again (a base and its variants:
    about 180 walks of the same schemas an update on Mega Civilization). The nodes of a schema and
    path are found once; another schema (an equal copy is another object) gets its own nodes."""
    import copy

    from civrules.schema import references as module

    schema = load_schema("civilization_cards")
    first = node_at(schema, ("cards",), item=True)
    looked = module._branches_of.cache_info()
    again = node_at(schema, tuple(["cards", "x"][:1]), item=True)  # an equal path, another tuple
    after = module._branches_of.cache_info()
    assert again == first and all(a is b for a, b in zip(again, first, strict=True))
    assert (after.hits + after.misses) == (looked.hits + looked.misses)
    other = copy.deepcopy(schema)
    theirs = node_at(other, ("cards",), item=True)
    assert theirs == first and not any(a is b for a, b in zip(theirs, first, strict=True))
    assert node_at(schema, ("cards",)) != first  # the list's nodes, not its items'


@pytest.mark.slow  # eight runs of X001 over a shipped ruleset: 0.3 s
def test_rulesets_holding_one_collection_look_each_unknown_id_up_in_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """X001's "did you mean" looked every unknown id up again in each ruleset, though a base and
    its variants that leave a collection alone hold the very same one (an area renamed in a base
    under ten variants and a chain: thirteen lookups of each of its referrers' ids). Within a
    session's memo, one lookup is given to each ruleset holding the collection; a ruleset holding
    another collection (a variant that adds an area) looks it up in its own, and may be given
    another answer. The diagnostics are those of each ruleset checked alone."""
    import dataclasses
    import difflib

    from civrules.checks.references import check_references
    from civrules.families.advanced_civilization.model import Ruleset as CivilizationRuleset
    from civrules.model import Collection
    from civrules.schema.references import Remembered, remembering
    from tests.rulefiles import shipped_analysis

    model = shipped_analysis("advanced-civilization").model
    assert isinstance(model, CivilizationRuleset)
    (gone,) = [area for area in model.areas if area.id == "thebes"]
    kept = Collection.of("areas", [area for area in model.areas if area is not gone])
    renamed = dataclasses.replace(gone, id="thebez", raw={**gone.raw, "id": "thebez"})
    added = Collection.of("areas", [*kept, renamed])
    rulesets = [dataclasses.replace(model, id=name, areas=kept) for name in ("base", "v1", "v2")]
    rulesets.append(dataclasses.replace(model, id="v3", areas=added))
    alone = [list(check_references(one)) for one in rulesets]
    assert {d.suggestion for d in alone[0]} == {"athens"} and {d.suggestion for d in alone[3]} == {"thebez"}
    lookups: list[str] = []
    looked = difflib.get_close_matches

    def counted(word: str, *args: Any, **kwargs: Any) -> list[str]:
        lookups.append(word)
        return looked(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    with remembering(Remembered()):
        shared = [list(check_references(one)) for one in rulesets]
    assert shared == alone
    assert lookups == ["thebes", "thebes"]  # once for the three holding one collection, once for v3
