"""Checks of what a variant's overlay writes: a change a later change of the same variant undoes.

A variant's entries apply in turn; each one a later entry of the same file writes over is an edit
the designer made and the ruleset does not have. The resolver records, for every field an overlay
changed, what each of its writers wrote that a later one wrote over
(:func:`civrules.resolve.overwritten`, which Q009 also reads); this check tells the designer of
those whose winner is in the same file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from civrules.checks import ALL_COLLECTIONS, SETTINGS, check, diagnostic
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.load.document import Document, NodePath
from civrules.model import Origin, Ruleset
from civrules.resolve import CITATION_FIELDS, LIST_OPERATIONS, changers, is_list_operations, overwritten


@check("V012", "change-written-over", Severity.WARNING, reads=(ALL_COLLECTIONS, SETTINGS))
def check_changes_written_over(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a variant changes a field (of an entity, or of a setting) in one entry and a later entry
    of the same variant writes it again: the earlier value never reaches the ruleset. Most often
    the same entity is patched twice (one entry pasted, or reused through a YAML alias, and edited
    in one place), or a setting restated at the manifest's top level is patched again under
    `overlay.settings`. An entry written as a YAML alias of another (`- *lantern`) applies that
    entry a second time: what it appends to a list is appended twice.

    Why: entries apply in the order written and the last one holds, so the earlier edit is lost
    with no other sign: `validate`, `diff` and the packages show the later value only, and the
    designer who edited the earlier line sees nothing change.

    Fix: keep one change of the field: delete the earlier one, or write the value you mean in the
    entry that holds (the note points at it); delete an alias repeating an entry. A later variant
    writing over its base variant's change is no mistake, and is not told.

        overlay:
          items:
            patch:
              - {id: lantern, cost: 12, source: "house rule: a dearer lantern"}   # FAIL: written over below
              - {id: lantern, cost: 14, source: "house rule: dearer still"}
              - {id: lantern, weight: 2, source: "house rule: a lighter lantern"}  # PASS: another field
    """
    own = len(ruleset.chain) - 1
    if own < 1:
        return
    document = ruleset.manifest.document
    repeats = _repeated_entries(document)
    for alias, anchor in sorted(repeats.items()):
        entry = _at(document.data, alias)
        key = next((k for k in ("id", "name") if isinstance(entry, dict) and k in entry), None)
        what = f"the patch of `{entry[key]}`" if key is not None and isinstance(entry, dict) else "the patch"
        first = document.span(anchor)
        yield diagnostic(
            "V012",
            f"this entry repeats {what} at line {first.line} through a YAML alias: its changes apply twice"
            + (" (what it appends or inserts into a list, twice over)" if _grows_a_list(entry) else ""),
            document.exact_span(alias) or document.span(alias),
            "delete the alias: an entry applies where it is written; another entity to change alike takes "
            "an entry of its own",
            (Related(first, "the entry repeated"),),
            subjects=(str(entry[key]),) if key is not None and isinstance(entry, dict) else (),
        )
    written: list[tuple[str, str, Origin]] = []  # what a message calls it, its id, where it was read
    for collection in ruleset.collections():
        for entity in collection:
            if entity.origin.changes:
                written.append((f"`{entity.id}`", entity.id, entity.origin))
    for key, origin in sorted(ruleset.setting_origins.items()):
        if origin.changes:
            written.append((f"the setting `{key}`", key, origin))
    for what, subject, origin in written:
        # what the variant's entries wrote that a later entry of it wrote over, by that later entry
        # (the one that holds): one diagnostic for each, at the first change it undoes
        lost: dict[int, tuple[Origin, dict[int, tuple[Origin, list[NodePath]]]]] = {}
        for name, _ in origin.changes:
            if name in CITATION_FIELDS or name == "note":
                continue
            winners = _Winners(changers(origin, name), name, own, ruleset.layers)
            for change, path in overwritten(origin, name):
                if ruleset.layers.get(change.file) != own:
                    continue
                winner = winners.of(change, path[len(change.path) + 1 :])
                if winner is None or winner.path in repeats:
                    continue  # another variant's entry (the layering is meant), or a repeat told above
                changes = lost.setdefault(id(winner), (winner, {}))[1]
                paths = changes.setdefault(id(change), (change, []))[1]
                if path not in paths:
                    paths.append(path)
        for winner, changes in lost.values():
            undone = sorted(changes.values(), key=lambda item: _written_at(item[0]))
            fields = list(dict.fromkeys(_field(p[len(c.path) :]) for c, paths in undone for p in paths))
            earliest, at = undone[0]
            there = winner.document.key_span((*winner.path, at[0][len(earliest.path)]))
            verb = "is" if len(fields) == 1 else "are"
            more = ""
            if len(undone) > 1:
                lines = [str(c.document.span(c.path).line) for c, _ in undone[1:]]
                more = f"; so {'is' if len(lines) == 1 else 'are'} {words.count(len(lines), 'more change')} of it " + (
                    f"(line{'s' if len(lines) > 1 else ''} {', '.join(lines[:NOTED_PLACES])}"
                    f"{', ...' if len(lines) > NOTED_PLACES else ''})"
                )
            yield diagnostic(
                "V012",
                f"{what}: {words.listed(fields)}{_in_lists(undone)} written here {verb} written over by a "
                "later entry of this "
                f"variant (line {there.line}), which holds{more}",
                earliest.document.key_span(at[0]),
                f"keep one change of {words.listed(fields)}: delete "
                f"{'it here' if len(undone) == 1 else 'the earlier ones'}, or write the value you mean in the "
                f"entry at line {there.line}",
                (
                    Related(there, "this entry's change holds"),
                    *(
                        Related(c.document.key_span(ps[0]), "written over too")
                        for c, ps in undone[1 : 1 + NOTED_PLACES]
                    ),
                ),
                subjects=(subject, *fields),
            )


#: How many of the other changes written over a diagnostic notes (the pipeline's measure).
NOTED_PLACES = 10


def _written_at(change: Origin) -> tuple[int, int]:
    span = change.document.span(change.path)
    return span.line, span.column


def _repeated_entries(document: Document) -> dict[NodePath, NodePath]:
    """The `patch` entries of the manifest's overlay that are a YAML alias of another entry, by
    their path, with the path of the entry they repeat."""
    return {
        alias: anchor
        for alias, anchor in document.aliases.items()
        if len(alias) == 4
        and alias[0] == "overlay"
        and alias[2] == "patch"
        and isinstance(alias[3], int)
        and len(anchor) == 4
        and anchor[0] == "overlay"
        and anchor[2] == "patch"
    }


def _in_lists(undone: list[tuple[Origin, list[NodePath]]]) -> str:
    """`` (what its list operations add)`` where every place written over is inside what an
    entry's list operations wrote (an element it appended, a field of one), not the field whole."""
    listed = all(
        any(part in LIST_OPERATIONS for part in path[len(change.path) + 1 :] if isinstance(part, str))
        for change, paths in undone
        for path in paths
    )
    return " (what its list operations add)" if listed else ""


def _field(inside: NodePath) -> str:
    """The field (or the key inside one) at ``inside``, a path in an overlay entry, as a message
    names it: up to the list operations in it, whose elements are named by the list."""
    parts: list[str] = []
    for part in inside:
        if not isinstance(part, str) or part in LIST_OPERATIONS:
            break
        parts.append(part)
    return ".".join(parts)


def _grows_a_list(entry: Any) -> bool:
    """Whether an overlay entry appends or inserts into a list anywhere in it."""
    if isinstance(entry, dict):
        return (is_list_operations(entry) and bool({"append", "insert"} & set(entry))) or any(
            _grows_a_list(value) for value in entry.values()
        )
    return isinstance(entry, list) and any(_grows_a_list(value) for value in entry)


class _Winners:
    """Which entry of the variant holds what an earlier entry of it wrote in one field: the last
    entry of the variant that writes it (:func:`_writes`), found once for each place in the field,
    not once for each entry written over (n entries writing one field, each asked of the later ones,
    was the square of n)."""

    def __init__(self, writers: tuple[Origin, ...], name: str, own: int, layers: Mapping[str, int]) -> None:
        self._name = name
        self._later = [w for w in writers if layers.get(w.file) == own]  # the variant's, in order
        self._at = {id(w): i for i, w in enumerate(self._later)}
        self._last: dict[NodePath, int | None] = {}

    def of(self, change: Origin, inside: NodePath) -> Origin | None:
        """The entry holding what ``change`` wrote at ``inside`` (a path in the field), or None
        where no later entry of the variant changes the field. Where no later entry writes the
        place itself (an element a list operation removed), the last entry changing the field."""
        at = self._at.get(id(change))
        if at is None or at == len(self._later) - 1:
            return None
        if inside not in self._last:
            self._last[inside] = next(
                (
                    i
                    for i in range(len(self._later) - 1, -1, -1)
                    if _writes(_at(self._later[i].document.data, (*self._later[i].path, self._name)), inside)
                    and isinstance(_at(self._later[i].document.data, self._later[i].path), dict)
                    and self._name in _at(self._later[i].document.data, self._later[i].path)
                ),
                None,
            )
        last = self._last[inside]
        return self._later[last if last is not None and last > at else -1]


def _writes(value: Any, inside: NodePath) -> bool:
    """Whether a patch's ``value`` writes the path ``inside`` of its field: a value written whole
    at it or above it, not merged into it key by key without naming it."""
    for part in inside:
        if not isinstance(value, dict) or is_list_operations(value) or set(value) == {"unknown"}:
            return True
        if part not in value:
            return False
        value = value[part]
    return True


def _at(data: Any, path: NodePath) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


#: Numbers a text may word instead of writing its digits (the data's texts are English).
_NUMBER_WORDS = {
    **dict(
        enumerate(
            (
                *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
                *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen"),
                *("nineteen", "twenty"),
            )
        )
    ),
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    70: "seventy",
    80: "eighty",
    90: "ninety",
    100: "hundred",
}


def _worded(text: str, number: int) -> re.Match[str] | None:
    """Where ``text`` states ``number`` (its digits, or its English word; a loss of -5 is worded
    "five"), None where it does not."""
    number = abs(number)
    digits = re.search(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)", text)
    if digits is not None:
        return digits
    word = _NUMBER_WORDS.get(number)
    return re.search(rf"\b{word}\b", text, re.IGNORECASE) if word is not None else None


def _said(text: str, number: int) -> int:
    """How many times ``text`` states ``number`` (:func:`_worded`)."""
    number = abs(number)
    times = len(re.findall(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)", text))
    word = _NUMBER_WORDS.get(number)
    return times + (len(re.findall(rf"\b{word}\b", text, re.IGNORECASE)) if word is not None else 0)


def _alike(before: dict[str, Any], after: dict[str, Any], changed: str, number: int) -> int:
    """How many other whole numbers beside ``changed`` are ``number`` and left as they were: the
    text may word one of them (`width: 3` beside `depth: 3`), each once."""
    return sum(
        1
        for key, value in after.items()
        if key != changed
        and isinstance(value, int)
        and not isinstance(value, bool)
        and abs(value) == abs(number)
        and before.get(key) == value
    )


def _reworded(text: str, found: re.Match[str], number: int) -> str | None:
    """``text`` with the number ``found`` in it written as ``number``, in the same form (digits, or
    a word of the same case); None where ``number`` has no word to put in a word's place."""
    number = abs(number)
    said = found.group(0)
    if said.isdigit():
        new = str(number)
    else:
        word = _NUMBER_WORDS.get(number)
        if word is None:
            return None
        new = word.capitalize() if said[:1].isupper() else word
    return text[: found.start()] + new + text[found.end() :]


def text_reworded(text: str, old: int, new: int) -> str | None:
    """``text`` with where it states ``old`` (:func:`_worded`) written as ``new``, as V014's hint
    writes it; None where it does not state ``old``, or ``new`` has no word for the word it uses.
    A variant's scaffold writes its example's text so."""
    found = _worded(text, old)
    return _reworded(text, found, new) if found is not None else None


def _left_behind(before: Any, after: Any, path: tuple[str, ...]) -> Iterator[tuple[str, int, int, str]]:
    """Each whole number of ``after`` (a value a variant changed) that differs from ``before`` (as
    its definition writes it) while the `text` beside it is the definition's and words the old
    number and not the new: its path, the numbers, the text. Lists pair their elements by `id`
    where every element has one, else by place where they are as many."""
    if isinstance(before, dict) and isinstance(after, dict):
        text = after.get("text")
        if isinstance(text, str) and before.get("text") == text:
            for key, new in after.items():
                old = before.get(key)
                if (
                    isinstance(new, int)
                    and isinstance(old, int)
                    and not isinstance(new, bool)
                    and not isinstance(old, bool)
                    and abs(old) != abs(new)
                    and _worded(text, new) is None
                    and _said(text, old) > _alike(before, after, key, old)
                ):
                    yield ".".join((*path, key)).replace(".[", "["), old, new, text
        for key, value in after.items():
            if key in before and key not in CITATION_FIELDS:
                yield from _left_behind(before[key], value, (*path, key))
    elif isinstance(before, list) and isinstance(after, list):
        ids = [item.get("id") if isinstance(item, dict) else None for item in (*before, *after)]
        if ids and all(isinstance(one, str) for one in ids):
            earlier = {item["id"]: item for item in before}
            for item in after:
                if item["id"] in earlier:
                    yield from _left_behind(earlier[item["id"]], item, (*path, f"[{item['id']}]"))
        elif len(before) == len(after):
            for index, (old_item, new_item) in enumerate(zip(before, after, strict=True)):
                yield from _left_behind(old_item, new_item, (*path, f"[{index}]"))


@check("V014", "text-left-behind", Severity.WARNING, reads=(ALL_COLLECTIONS, SETTINGS))
def check_text_left_behind(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a variant changes a number of an entity or of a setting, or of an element of their
    lists, and leaves the `text` beside it as its definition words it, which states the old number
    (in digits, or as an English word: "ten") and not the new one.

    Why: the text is what the sheets print beside the number and what players read: "15 points:
    the holder loses ten points" is two rules at once, and nothing else tells the designer the
    text still says the base's.

    Fix: write the text anew in the same change (in a list's `patch:`, beside the number in its
    `with:`); the hint gives the text with the number changed.

        overlay:
          items:
            patch:
              - id: lantern
                effects: {patch: [{where: {id: burn}, with: {amount: 12}}]}   # FAIL: its text says "ten"
              - id: lantern
                effects: {patch: [{where: {id: burn}, with: {amount: 12, text: "Burns twelve."}}]}   # PASS
          settings:
            bag: {slots: 10}   # FAIL: its text says "eight slots"
    """
    own = len(ruleset.chain) - 1
    if own < 1:
        return
    written: list[tuple[str, str, Origin, Mapping[str, Any]]] = []  # how it is named, its id, origin, value
    for collection in ruleset.collections():
        for entity in collection:
            written.append((f"`{entity.id}`", entity.id, entity.origin, entity.raw))
    for key, origin in sorted(ruleset.setting_origins.items()):
        value = ruleset.setting(key)
        if value is not None and isinstance(value[0], Mapping):
            written.append((f"the setting `{key}`", key, origin, value[0]))
    for what, subject, origin, now in written:
        if not origin.changes or origin.replaced:
            continue  # a replace writes the entity or setting whole, its texts too
        defined = _at(origin.document.data, origin.path)
        if not isinstance(defined, dict):
            continue
        for name, change in origin.changes:
            if name in CITATION_FIELDS or name == "note" or ruleset.layers.get(change.file) != own:
                continue
            if name == "text" or name not in defined:
                continue
            for where, old, new, text in _left_behind(
                {name: defined[name], "text": defined.get("text")},
                {name: now.get(name), "text": now.get("text")},
                (),
            ):
                found = _worded(text, old)
                written_anew = _reworded(text, found, new) if found is not None else None
                anew = f": `text: {json.dumps(written_anew, ensure_ascii=False)}`" if written_anew is not None else ""
                said = found.group(0).lower() if found is not None else str(old)
                yield diagnostic(
                    "V014",
                    f"{what}: `{where}` is changed from {old} to {new}, but the `text` beside it still says {said}",
                    change.document.key_span((*change.path, name)),
                    f"write the text anew in this change, beside the number{anew}",
                    subjects=(subject, where),
                )
