"""The marks of the civilization card groups on the sheets of the Advanced Civilization family."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from markupsafe import Markup

from civrules.families.advanced_civilization.model import Card, Ruleset
from civrules.support.memo import by_identity, run_memo

# --- Group symbols -----------------------------------------------------------------------------

#: Print-friendly fills for the colour names the data uses; anything else is grey (never a URL).
PALETTE: Mapping[str, str] = {
    "black": "#222222",
    "blue": "#2f6fd0",
    "brown": "#8b5a2b",
    "green": "#2e9e4a",
    "grey": "#9a9a9a",
    "gray": "#9a9a9a",
    "orange": "#f08a24",
    "pink": "#f29bc1",
    "purple": "#8e44ad",
    "red": "#d33a2c",
    "white": "#ffffff",
    "yellow": "#f7d038",
    "yellow-green": "#a8c93a",
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
SHAPES = frozenset({"triangle", "square", "circle", "hexagon", "star", "diamond", "pentagon"})


#: Shapes drawn for groups whose symbol the data does not give, in this order (ones a group of the
#: ruleset already uses are skipped). They are print marks only, told apart by their letters too.
DRAWN_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star")


@dataclass(frozen=True, slots=True)
class Symbol:
    """A group's mark: its shape and fill, the group's name and its letters.

    ``drawn`` marks a shape chosen by civrules because the data gives none: it is drawn with the
    group's letters in it (hollow unless the data gives the group's colour), and the legend says the
    symbol is not the game's.
    """

    shape: str
    fill: str
    name: str
    letter: str = ""
    drawn: bool = False


def fill_of(colour: object) -> str:
    if isinstance(colour, str):
        if _HEX.fullmatch(colour):
            return colour.lower()
        return PALETTE.get(colour.lower(), "#bbbbbb")
    return "#ffffff"


def group_letters(names: Mapping[str, str]) -> dict[str, str]:
    """Short unique labels for group names: the initial, or as many letters as tell them apart.

    A group's label is the first ``size`` letters (alphanumeric characters) of its name, for the
    smallest ``size`` at which no other group's name begins with the same letters, case-folded,
    when cut to as many letters (a name without letters is labelled by its group's id instead).

    >>> group_letters({"crafts": "Crafts", "civics": "Civics", "arts": "Arts"})
    {'crafts': 'Cr', 'civics': 'Ci', 'arts': 'A'}

    Each name is compared with each other once, in time linear in their length (a model has at
    most five groups: their ids are fixed). Asking for every size in turn whether another name
    began alike, making both prefixes again each time, took the square of a name's length: five
    names of 4,000 letters made a build take 7.7 s (2.1 s at 1,000)."""
    spelled = {key: _Spelled([ch for ch in name if ch.isalnum()]) for key, name in names.items()}
    found: dict[str, str] = {}
    for key in names:
        own = spelled[key] if spelled[key].letters else _Spelled(list(key))
        alike = [_Alike(own, other) for other_key, other in spelled.items() if other_key != key]
        size = 1
        while size < len(own.letters):
            reach = max((one.covers(size) for one in alike), default=0)
            if not reach:
                break
            size = reach + 1
        letters = own.letters[: min(size, len(own.letters))]
        found[key] = letters[0].upper() + "".join(letters[1:]).lower()
    return found


class _Spelled:
    """A name's letters and their case folds. ``casefold`` folds a text one character at a time and
    some characters fold to more than one (ß to ss), so the first ``s`` letters of two names fold
    alike exactly when the folds of the whole names agree as far as the length of the first ``s``
    folds (:meth:`end`), and that length is the same in both."""

    __slots__ = ("_ends", "folded", "letters", "widths")

    def __init__(self, letters: list[str]) -> None:
        self.letters = letters
        folds = [ch.casefold() for ch in letters]
        self.folded = "".join(folds)
        #: Each letter's fold length as one character, or "" when every letter folds to one.
        self.widths = "" if len(self.folded) == len(letters) else "".join(chr(len(fold)) for fold in folds)
        self._ends = array("q", [0, *accumulate(map(len, folds))]) if self.widths else None

    def end(self, size: int) -> int:
        """The length of the folds of the first ``size`` letters."""
        return size if self._ends is None else self._ends[size]

    def within(self, length: int) -> int:
        """The most letters whose folds lie within the first ``length`` characters of ``folded``."""
        if self._ends is None:
            return min(length, len(self.letters))
        return bisect_right(self._ends, length) - 1

    def shape(self, size: int) -> str:
        return self.widths[:size] if self.widths else "\x01" * min(size, len(self.letters))


class _Alike:
    """Where one name's first ``s`` letters fold as another name's first ``s`` (all of the other's
    where it has fewer) do: at every ``s`` up to ``run`` (the folds, and their lengths letter by
    letter, agree that far), and past it at most at single counts up to ``reach`` (the folds agree
    that far), which :meth:`covers` tests one by one."""

    __slots__ = ("mine", "other", "reach", "run")

    def __init__(self, mine: _Spelled, other: _Spelled) -> None:
        self.mine, self.other = mine, other
        self.reach = mine.within(_common_length(mine.folded, other.folded))
        both = min(len(mine.letters), len(other.letters))
        alike = both if not (mine.widths or other.widths) else _common_length(mine.shape(both), other.shape(both))
        self.run = min(alike, self.reach)

    def covers(self, size: int) -> int:
        """0 where the other name does not begin as the first ``size`` letters of this one fold;
        otherwise the largest count, ``size`` or more, up to which it does at every count."""
        if size <= self.run:
            return self.run
        if size > self.reach:
            return 0
        return size if self.mine.end(size) == self.other.end(min(size, len(self.other.letters))) else 0


def _common_length(one: str, other: str) -> int:
    """The length of the longest common prefix of two texts, found by comparing halves (each
    comparison is one call, in C, where a loop over the characters is one step of Python each)."""
    low, high = 0, min(len(one), len(other))
    while low < high:
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def group_marks(ruleset: Ruleset) -> dict[str, Symbol]:
    """The mark of every group of the ruleset, by group id, in data order."""
    return dict(_marks_of(ruleset.groups))


@by_identity(64)
def _marks_of(groups: Any) -> Mapping[str, Symbol]:
    """The marks of a model's groups, looked up by the collection itself: :func:`symbols` is asked
    for every card of every sheet, and making the groups' key (and hashing it, for :func:`_marks`)
    on each ask cost the number of groups each time."""
    return _marks(_groups_key(groups))


#: What a group's mark is made of: its id, name, and its shape and colour where the data gives them
#: as text (anything else is drawn alike).
_GroupKey = tuple[str, str, str | None, str | None]


def _groups_key(groups: Any) -> tuple[_GroupKey, ...]:
    return tuple(
        (
            g.id,
            g.display_name,
            g.shape if isinstance(g.shape, str) else None,
            g.colour if isinstance(g.colour, str) else None,
        )
        for g in groups.by_id.values()
    )


@run_memo(maxsize=32)
def _marks(groups: tuple[_GroupKey, ...]) -> Mapping[str, Symbol]:
    """The marks of the groups, made once per process for the same groups: every card of every
    sheet asked for them (the letters compare each group's name with every other's), and a variant
    mostly keeps its base's groups. Read-only to callers: :func:`group_marks` hands out a copy."""
    letters = group_letters({key: name for key, name, _, _ in groups})
    used = {shape for _, _, shape, _ in groups if shape in SHAPES}
    spare = [shape for shape in DRAWN_SHAPES if shape not in used] or list(DRAWN_SHAPES)
    marks: dict[str, Symbol] = {}
    drawn = 0
    for key, name, shape, colour in groups:
        if shape in SHAPES:
            marks[key] = Symbol(shape, fill_of(colour), name, letters[key])
        else:
            drawn_shape = spare[drawn % len(spare)]
            drawn += 1
            marks[key] = Symbol(
                drawn_shape, fill_of(colour) if colour is not None else "#ffffff", name, letters[key], True
            )
    return marks


def symbols(ruleset: Ruleset, card: Card) -> list[Symbol]:
    """The marks of a card's groups, in the order the card lists them."""
    marks = _marks_of(ruleset.groups)
    return [marks.get(g) or Symbol("circle", "#ffffff", g, g[:1].upper(), True) for g in card.group_list()]


class SymbolsMarkup:
    """The markup of a card's marks, as the ``symbols`` macro of ``_macros.j2`` writes it (the same
    macro, called from here), made once per sheet for the same marks and size: every card's row
    called the macro, and its four nested macros per mark, where most cards share their groups'
    marks with others (mega-civilization: 51 cards). Kept for one sheet's build, not the process."""

    __slots__ = ("_macro", "_made")

    def __init__(self) -> None:
        from civrules.emit.sheets.common import environment
        from civrules.families.advanced_civilization import FAMILY

        self._macro = environment(FAMILY.package).get_template("_macros.j2").module.symbols  # type: ignore[attr-defined]
        self._made: dict[tuple[tuple[Symbol, ...], str], Markup] = {}

    def __call__(self, marks: list[Symbol], size: str = "3.2mm") -> Markup:
        key = (tuple(marks), size)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = Markup(self._macro(marks, size))
        return made


def group_symbols(ruleset: Ruleset) -> list[Symbol]:
    """The marks of every group, in data order (for legends)."""
    return list(group_marks(ruleset).values())


def drawn_note(marks: Iterable[Symbol]) -> str:
    """The legend's note when some marks are drawn by civrules, else empty: it describes them as
    they are drawn (hollow where the data gives no colour, filled with the group's colour where it does)."""
    drawn = [mark for mark in marks if mark.drawn]
    if not drawn:
        return ""
    names = ", ".join(mark.name for mark in drawn)
    filled = [mark for mark in drawn if mark.fill != "#ffffff"]
    if not filled:
        look = "the hollow shapes with letters"
    elif len(filled) == len(drawn):
        look = "the shapes with letters, in the groups' colours,"
    else:
        look = "the shapes with letters (in the group's colour where the sources give one)"
    return f"The symbols of {names} are not in the sources: {look} are drawn here to tell the groups apart."
