"""What every sheet of the family is made of: sections of rows, each cell text the data gives, an
unknown fact as a dash with its note, an empty section as one line that says why."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from civrules.emit.sheets.common import Notes, label_of, row_citation
from civrules.emit.sheets.registry import Source, joined_mark
from civrules.model import Entity

#: Roman numerals of the pyramid's levels, as the rulebook prints them (p11).
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


@dataclass(slots=True)
class Row:
    cells: list[str]
    rule: str = ""
    mark: str = ""


@dataclass(slots=True)
class Section:
    title: str
    columns: Sequence[str]
    rows: list[Row] = field(default_factory=list)
    #: One line saying why the section is empty (shown only when it is).
    empty: str = ""
    lead: str = ""
    numeric: frozenset[int] = frozenset()
    #: The mark of a variant that adds or changes what the title gives (a setting's: a level's cost).
    mark: str = ""


class Sheet:
    """A sheet's sections and the notes of its unknown facts."""

    def __init__(self, source: Source[Any]) -> None:
        self.source = source
        self.notes = Notes()
        self.sections: list[Section] = []

    def fact(self, value: object, topic: str, none: str = "—") -> str:
        return self.notes.fact(value, topic, none)

    def row(
        self,
        entity: Entity,
        collection: str,
        cells: Iterable[object],
        rule: object = None,
        fields: Iterable[str] | None = None,
    ) -> Row:
        """A row of ``entity`` showing ``cells``, cited for the ``fields`` they show (None: all)."""
        cited = row_citation(entity, fields, rule, transcriptions=True)  # the community data cites no rule
        return Row([str(c) for c in cells], cited, self.source.changed(collection, entity.id))

    def context(self, **more: Any) -> dict[str, Any]:
        return {"sections": self.sections, "notes": self.notes.listed(), **more}

    def setting_mark(self, *paths: str) -> str:
        """One mark for what several parts of settings feed (:meth:`Source.setting_mark` of each):
        ``added`` where each is added, ``changed`` where any is changed; empty where none is marked."""
        return joined_mark(self.source.setting_mark(path) for path in paths)

    def lead(self, *sentences: tuple[str, str]) -> list[tuple[str, str]]:
        """The sheet's lead: each sentence with the mark of the settings it gives (see
        :meth:`setting_mark`), empty sentences left out."""
        return [(text, mark) for text, mark in sentences if text]


def name_in(collection: Any, item: str) -> str:
    """The printed name of ``item`` in ``collection`` (:func:`label_of`: ``unnamed (p12)`` where the
    sources do not name it, never its id; the id only where the data has no such entity)."""
    found = collection.get(item)
    if found is None:
        return item
    return label_of(found)


def listed(names: Iterable[str]) -> str:
    return ", ".join(names)
