"""The register of sheets: each sheet module registers itself, the renderer asks for them all.

A sheet is a module of this package (or of a family's sheets package) with one function decorated
with :func:`sheet`: the function turns a :class:`Source` (the ruleset, the page box, a variant's
changes) into the context of its template, ``templates/sheets/<file>.j2``. Adding a sheet is one
module, one template and one test; nothing else lists the sheets.

This module imports no sheet and not the register of families: the renderer
(:func:`civrules.emit.sheets.render.all_sheets`) imports the sheets and says which family each
belongs to, so a sheet module that imports this one makes no cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from civrules.emit.sheets.common import Page
from civrules.model import Ruleset
from civrules.resolve.diff import RulesetDiff

R = TypeVar("R", bound=Ruleset, covariant=True)


@dataclass(frozen=True, slots=True)
class Source(Generic[R]):
    """What a sheet is made from: the ruleset, the page box, and what a variant changes.

    ``changes`` is ``civrules diff BASE VARIANT`` for a variant, ``None`` otherwise; sheets ask
    :meth:`changed` whether to mark an entity or a setting as this variant's.
    """

    ruleset: R
    page: Page
    changes: RulesetDiff | None = None
    #: :meth:`changed`'s marks of each collection asked for, made once (a read of the real object,
    #: never of a stand-in's record: :mod:`civrules.support.tracked` records what the method returns).
    _marks: dict[str, dict[str, str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def variant(self) -> bool:
        """Whether the sheet is a variant's (its changes are marked)."""
        return self.changes is not None

    def changed_keys(self, collection: str) -> dict[str, str]:
        """The keys of the entities of ``collection`` the variant adds or changes, each with
        ``added`` or ``changed`` (in the order of the diff)."""
        found: dict[str, str] = {}
        for diff in self.changes.collections if self.changes is not None else ():
            if diff.name == collection:
                for mark, entities in (("added", diff.added), ("changed", diff.changed)):
                    found.update((entity.key, mark) for entity in entities)
        return found

    def changed(self, collection: str, key: str) -> str:
        """``added`` or ``changed`` when the variant adds or changes that entity, else empty.

        The marks of a collection are made once, in one pass over its diff: a sheet asks for every
        entity, and a search of the diff for each made a variant adding thousands of cards cost
        the square of them."""
        if self.changes is None:
            return ""
        marks = self._marks.get(collection)
        if marks is None:
            marks = self._marks[collection] = {}
            for found in self.changes.collections:
                if found.name == collection:
                    for mark, entities in (("added", found.added), ("changed", found.changed)):
                        for entity in entities:
                            marks.setdefault(entity.key, mark)
        return marks.get(key, "")

    def setting_changed(self, *roots: str) -> bool:
        """Whether the variant changes a ruleset setting under any of ``roots`` (``limits`` ...)."""
        return any(self.setting_mark(root) for root in roots)

    def setting_mark(self, path: str) -> str:
        """``added`` when the variant adds the setting, or the element of one, that ``path`` names
        (or what holds it), ``changed`` when it changes anything at, within or around it; else empty.

        ``path`` names a setting's part as ``civrules diff`` does: ``limits.per_player``,
        ``costs[1]``, ``rules[measure]``, ``setup[3]`` (an element of a list by the field that
        names it: ``id``, ``step``, ``level`` ...), a setting of a data file's by its own name
        (``scale``, which the diff names ``pieces.scale`` where the file of kind ``pieces`` holds
        it). A row a setting feeds is marked as an entity's row is (:meth:`changed`): a house
        rule's hand at the start was printed
        unmarked, as if the rulebook gave it. The marks are made once, in one pass over the diff's
        settings; each question is then a look-up per enclosing part of ``path``."""
        if self.changes is None:
            return ""
        marks = self._marks.get(_SETTINGS)
        if marks is None:
            marks, self._marks[_WHOLE] = _setting_marks(self.changes)
            self._marks[_SETTINGS] = marks
        path = _in_diff(self.ruleset.family, path)
        found = marks.get(path)
        if found is not None:
            return found
        # a part of what the variant added or changed whole (a setting added, an element replaced)
        whole = self._marks[_WHOLE]
        for outer in reversed(_enclosing(path)):
            if outer in whole:
                return marks[outer]
        return ""


def joined_mark(marks: Iterable[str]) -> str:
    """One mark for a line several parts of a setting feed: ``added`` where every one is added,
    ``changed`` where any is changed or some but not all are added; empty where none is marked."""
    found = list(marks)
    if not any(found):
        return ""
    return "added" if all(mark == "added" for mark in found) else "changed"


#: The keys of :attr:`Source._marks` that hold the settings' marks and the paths a change wrote
#: whole (what they hold is the change's too); no collection is named so.
_SETTINGS = "\0settings"
_WHOLE = "\0whole"


def _in_diff(family_id: str, path: str) -> str:
    """``path`` of a setting as ``civrules diff`` names it: behind its slot where a data file of the
    family holds it (``scale`` → ``pieces.scale``)."""
    from civrules.families import family_named  # not at import: see the module's documentation

    family = family_named(family_id)
    root = re.split(r"[.\[]", path, maxsplit=1)[0]
    slot = family.settings.get(root) if family is not None else None
    return path if slot in (None, "ruleset") else f"{slot}.{path}"


def _enclosing(path: str) -> list[str]:
    """The parts of ``path`` that enclose it, outermost first: ``a.b[1].c`` → ``a``, ``a.b``,
    ``a.b[1]`` (a dot or bracket within an element's name, ``[text: "A.B"]``, splits nothing)."""
    found, depth = [], 0
    for i, char in enumerate(path):
        if char == "[":
            if depth == 0 and i:
                found.append(path[:i])
            depth += 1
        elif char == "]":
            depth = max(depth - 1, 0)
        elif char == "." and depth == 0 and i:
            found.append(path[:i])
    return found


def _setting_marks(changes: RulesetDiff) -> tuple[dict[str, str], dict[str, str]]:
    """Each settings path a variant's change is at or within: ``added`` where it adds that part
    whole, or where the part holds only what the variant added (a setting the base has not, which
    the diff shows key by key: :attr:`FieldChange.fresh`), else ``changed``; and the paths a change
    wrote whole."""
    marks: dict[str, str] = {}
    whole: dict[str, str] = {}

    def mark_as(path: str, mark: str) -> None:
        marks[path] = mark if marks.get(path, mark) == mark else "changed"

    for change in changes.settings:
        mark = "added" if change.old is None else "changed"
        if change.new is not None:  # a part removed is printed nowhere: only what held it changed
            whole[change.path] = mark
        mark_as(change.path, mark)
        fresh = change.fresh
        if fresh is not None:
            whole[fresh] = "added"
        for outer in _enclosing(change.path):
            # what holds the part: added with it where the base had none of it
            within = fresh is not None and (outer == fresh or fresh in _enclosing(outer))
            mark_as(outer, "added" if within else "changed")
    return marks, whole


#: A sheet's builder: a family's sheets take a Source of the family's model.
Builder = Callable[[Source[Any]], Mapping[str, Any]]


def _no_context(source: Source[Any]) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its file, title, one-line summary, orientation and the kinds of rule file it reads.

    ``position`` orders the sheets (index, PDF); ``variant_only`` sheets exist only for a variant.
    """

    file: str
    title: str
    summary: str
    landscape: bool
    sources: tuple[str, ...]
    position: int = 0
    variant_only: bool = False
    build: Builder = field(default=_no_context, compare=False, repr=False)
    #: The id of the family whose rulesets have the sheet; None: every ruleset's (the core's).
    #: Set by the renderer, from the room of the builder's module.
    family: str | None = None


_SHEETS: dict[str, Sheet] = {}


def sheet(
    file: str,
    title: str,
    summary: str,
    *,
    position: int,
    landscape: bool = False,
    sources: tuple[str, ...] = (),
    variant_only: bool = False,
) -> Callable[[Builder], Builder]:
    """Register the decorated function as the builder of the sheet ``file``."""

    def register(build: Builder) -> Builder:
        if file in _SHEETS:
            raise ValueError(f"two sheets write {file}")
        _SHEETS[file] = Sheet(file, title, summary, landscape, sources, position, variant_only, build)
        return build

    return register
