"""The letters of the group marks (sheets/marks.py): the shortest start of each group's name that no
other group's name shares, case-folded, whatever the names' letters fold to."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from civrules.families.advanced_civilization.sheets.marks import group_letters

#: Letters that fold to one (s, S, f), to two (ß, ẞ, ŉ, İ, the ligature ﬀ), a final and a plain
#: sigma, digits, and what is not a letter (space, hyphen).
ALPHABET = "sSaAßẞﬀfFİiı-ŉnΣσς1 "


def by_definition(names: Mapping[str, str]) -> dict[str, str]:
    """The labels as their definition reads: for each size in turn, does another name begin alike?"""
    found = {}
    for key, name in names.items():
        letters = [ch for ch in name if ch.isalnum()] or list(key)
        size = 1
        while size < len(letters) and any(
            "".join(letters[:size]).casefold() == "".join([c for c in other if c.isalnum()][:size]).casefold()
            for other_key, other in names.items()
            if other_key != key
        ):
            size += 1
        found[key] = letters[0].upper() + "".join(letters[1:size]).lower()
    return found


def test_the_letters_are_those_of_the_definition_on_random_names() -> None:
    rng = random.Random(12)
    for _ in range(4_000):
        groups = rng.sample(["arts", "crafts", "sciences", "civics", "religion"], rng.randint(1, 5))
        names = {g: "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 9))) for g in groups}
        assert group_letters(names) == by_definition(names), names


@pytest.mark.parametrize(
    ("names", "letters"),
    [
        ({"crafts": "Crafts", "civics": "Civics", "arts": "Arts"}, {"crafts": "Cr", "civics": "Ci", "arts": "A"}),
        # Alike to the last letter: the whole name, and the shorter one is told apart by its end.
        ({"arts": "Age 1", "crafts": "Age 12"}, {"arts": "Age1", "crafts": "Age12"}),
        # ß folds to ss: "Straße" and "Strasse" fold alike, but not at the same count of letters.
        ({"arts": "Straße", "crafts": "Strasse"}, {"arts": "Straß", "crafts": "Stras"}),
        # No letter in the name: the group's id, compared with the other names (whose own letters
        # are compared with the other names only).
        ({"arts": "--", "crafts": "Arts"}, {"arts": "Arts", "crafts": "A"}),
    ],
)
def test_worked_examples(names: dict[str, str], letters: dict[str, str]) -> None:
    assert group_letters(names) == letters == by_definition(names)


def test_names_of_a_hundred_thousand_letters_alike_but_at_their_end() -> None:
    names = {g: "Ab" * 50_000 + str(i) for i, g in enumerate(["arts", "crafts", "sciences"])}
    names["civics"] = "Ab" * 49_999 + "ß"
    found = group_letters(names)
    assert found["arts"] == "A" + ("b" + "ab" * 49_999) + "0"
    assert found["civics"] == "A" + "b" + "ab" * 49_998 + "ß"
