"""What names an element of a list in a field path (Q006, the packages' unknown facts, Q008's
`field:`) and in a diff is each family's own declaration (``Family.element_keys``), not a table of
every game's field names in the core.

The core held two such tables (``checks/unknowns.NAMING_KEYS``, ``resolve/diff._ELEMENT_KEYS``):
a family's field was tried in another family's data, and a new family's own keys were never tried.
The shipped rulesets' paths are the same as the tables gave them (``build --check`` holds the
packages and sheets that print them).
"""

from __future__ import annotations

import functools
import re

from civrules.checks.disagreements import values_of
from civrules.checks.unknowns import field_path
from civrules.families import CollectionSpec, Family, family_named
from civrules.resolve.diff import diff_values, distinguish, named_by
from tests import shipped
from tests.rulefiles import shipped_text
from tests.shipped import ruleset_files

#: A family of its own that declares no naming keys: its elements are named by their ids, by the
#: key of a collection keyed by another field, by a pair of ids, else by their places.
BARE = Family(
    "bare-game",
    "Bare",
    "bare_game",
    ("W",),
    collections={
        "rows": CollectionSpec("ruleset", ("rows",), "row"),
        "links": CollectionSpec("ruleset", ("links",), "ends", pair=True),
    },
)

#: The same game declaring a key of its own.
SLOTTED = Family("slotted-game", "Slotted", "slotted_game", ("W",), element_keys=("slot",))

DATA = {
    "items": [{"id": "a", "cost": 1}, {"id": "b", "cost": {"unknown": "no source"}}],
    "rows": [{"row": 3, "size": 1}],
    "links": [{"ends": ["p", "q"], "far": True}],
    "slots": [{"slot": "left", "size": 2}, {"nation": "x", "size": 3}],
}


def test_a_family_that_declares_no_keys_names_elements_by_id_by_its_collections_keys_else_by_place() -> None:
    assert BARE.naming_keys == ("id", "row") and BARE.pair_keys == ("ends",)
    assert field_path(DATA, ("items", 1, "cost"), BARE) == "items[b].cost"
    assert field_path(DATA, ("rows", 0, "size"), BARE) == "rows[3].size"
    assert field_path(DATA, ("links", 0, "far"), BARE) == "links[p|q].far"
    # Another game's field (`nation`) names nothing in this one's data: the element's place does.
    assert field_path(DATA, ("slots", 1, "size"), BARE) == "slots[1].size"


def test_a_family_names_elements_by_the_keys_it_declares() -> None:
    assert SLOTTED.naming_keys == ("id", "slot")
    assert field_path(DATA, ("slots", 0, "size"), SLOTTED) == "slots[left].size"
    assert values_of(DATA, "slots[left].size", SLOTTED.naming_keys) == [2]
    assert values_of(DATA, "slots[left].size", BARE.naming_keys) is None


def test_a_diff_names_list_elements_by_the_keys_of_the_family_compared() -> None:
    old = [{"slot": "left", "size": 2, "colour": "red"}, {"slot": "right", "size": 2, "colour": "red"}]
    new = [{"slot": "left", "size": 5, "colour": "red"}, {"slot": "right", "size": 2, "colour": "red"}]
    with named_by(SLOTTED):
        assert [c.path for c in diff_values(old, new, "slots")] == ["slots[left].size"]
        assert distinguish([{"size": 1, "slot": "a"}, {"size": 2, "slot": "b"}]) == ["slot: a", "slot: b"]
    with named_by(BARE):
        # Not a key of this family: the element is named by what tells it apart, as any field is.
        assert [c.path for c in diff_values(old, new, "slots")] == ["slots[slot: left].size"]
        assert distinguish([{"size": 1, "slot": "a"}, {"size": 2, "slot": "b"}]) == ["size: 1", "size: 2"]


@functools.cache
def _family_texts() -> dict[str, str]:
    """Each shipped family's rule files' texts, joined (its rulesets' files, their bases' too)."""
    found: dict[str, set[str]] = {}
    for path in shipped.manifests():
        family = re.search(r"^family: *([\w-]+)", path.read_text(encoding="utf-8"), re.MULTILINE)
        found.setdefault(family.group(1) if family else "advanced-civilization", set()).update(ruleset_files(path.stem))
    return {family: "\n".join(shipped_text(f) for f in sorted(files)) for family, files in found.items()}


def test_every_key_a_shipped_family_declares_is_a_field_of_its_data() -> None:
    """A key no mapping of the family's data has is a field of another game, declared by mistake
    (read as text: a key is a word before a colon, `- card: x` or `{card: x}`)."""
    unused = []
    for family_id, text in sorted(_family_texts().items()):
        family = family_named(family_id)
        assert family is not None
        unused += [
            f"{family_id}: {key}" for key in family.element_keys if not re.search(rf"(?<![\w-]){re.escape(key)}:", text)
        ]
    assert not unused, "naming keys no mapping of the family's shipped data has:\n" + "\n".join(unused)


def test_the_examples_of_the_naming_keys_run() -> None:
    import doctest

    from civrules.checks import disagreements, unknowns
    from civrules.families import family

    for module in (family, unknowns, disagreements):
        assert doctest.testmod(module).failed == 0, module.__name__
