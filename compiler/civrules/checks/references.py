"""References: every id a ruleset names exists in it."""

from __future__ import annotations

import json
import operator
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple

from civrules.checks import check, diagnostic, entity_word
from civrules.diagnostics import Addition, Diagnostic, Related, Severity, Span, blanks
from civrules.diagnostics.suggest import LONGEST, QUERIES, Vocabulary, mean
from civrules.diagnostics.words import named_path
from civrules.families import CollectionSpec, family_named
from civrules.load.reader import string_scalar
from civrules.model import Collection, Entity, Origin, Ruleset
from civrules.resolve import SETTINGS_CITATIONS, entity_key, merge_patch
from civrules.schema import entity_citation_keys, entity_errors, setting_citation_keys, setting_errors
from civrules.schema.references import each_remembered, node_at, references_in, remembered, schema_of

#: A reference: where it is (origin and sub-path), the id named, the collection it must be in, and what.
Reference = tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]


def references(ruleset: Ruleset) -> Iterator[Reference]:
    """Every reference of the ruleset the schemas declare (``x-civrules-ref``) for X001 to check.

    Each entity is walked with the schema of its collection's elements, each setting with the
    schema of its key (the collections inside a setting, as `board.tracks`, are walked as entities);
    a reference declared with ``"check": "CODE"`` is left to the check that code names.
    """
    collections = {collection.name: collection for collection in ruleset.collections()}
    for found, _ in _parts(ruleset):
        for origin, sub, target, name, what in found:
            if name in collections:
                yield origin, sub, target, collections[name], what


#: A reference as the walk of one part of a ruleset finds it: where it is (origin and sub-path),
#: the id named, the name of the collection it must be in, and what.
Found = tuple[Origin, tuple[str | int, ...], Any, str, str]


def _parts(ruleset: Ruleset) -> Iterator[tuple[tuple[Found, ...], tuple[str, ...]]]:
    """The references of each part of the ruleset (a collection's entities, a setting), in the
    order :func:`references` gives them, with the collections each part's references name.

    A part's references depend on that part alone: while a session's memo holds it
    (:func:`~civrules.schema.references.remembered`), the same collection or setting value (an
    edit leaves every other the very object, and a variant keeps its base's where it changes
    nothing) is walked once, whichever ruleset asks."""
    family = family_named(ruleset.family)
    if family is None:
        return
    for collection in ruleset.collections():
        spec = family.collections.get(collection.name)
        schema = schema_of(family.slot_kind(spec.slot)) if spec is not None else None
        if spec is None or schema is None:
            continue
        nodes = node_at(schema, spec.path, item=True)
        walked: tuple[tuple[Found, ...], tuple[str, ...]] = remembered(
            collection, (_walk_collection, schema, *nodes), partial(_walk_collection, schema, nodes, collection)
        )
        yield walked
    for key in ruleset.setting_origins:
        slot = family.settings.get(key)
        setting_schema = schema_of(family.slot_kind(slot)) if slot is not None else None
        found = ruleset.setting(key)
        if setting_schema is None or found is None:
            continue
        value, origin = found
        inside = tuple(
            spec.path[1:] for spec in family.collections.values() if spec.slot == slot and spec.path[0] == key
        )
        yield _setting_references(setting_schema, key, value, origin, inside)


def _walk_collection(
    schema: Mapping[str, Any], nodes: tuple[Any, ...], collection: Collection[Entity]
) -> tuple[tuple[Found, ...], tuple[str, ...]]:
    """The references of a collection's entities: found once for the same collection (the very
    object) while a session's memo holds it (:func:`_parts`).

    A collection assembled again (an edit of one area makes the map's collections anew, every
    other entity of them the same data) walks again only the entities whose data is not the same
    object at the same place (:func:`each_remembered`): what an entity's walk finds depends on its
    data alone, and each is given the entity's origin of now."""
    entities = collection.items

    def found_in(at: int) -> tuple[tuple[tuple[str | int, ...], Any, str, str], ...]:
        return tuple(
            (sub, target, ref.collection, ref.what)
            for sub, target, ref in references_in(schema, nodes, entities[at].raw)
            if ref.check
        )

    each = each_remembered(
        (_walk_collection, collection.name), tuple(map(_RAW, entities)), (schema, *nodes), found_in, placed=False
    )
    found = tuple((entity.origin, *one) for entity, refs in zip(entities, each, strict=True) if refs for one in refs)
    return found, tuple(sorted({one[3] for one in found}))


#: An entity's data as written (C: no Python frame per entity).
_RAW = operator.attrgetter("raw")


def _setting_references(
    schema: Mapping[str, Any], key: str, value: Any, origin: Origin, inside: tuple[tuple[str, ...], ...]
) -> tuple[tuple[Found, ...], tuple[str, ...]]:
    """The references of the setting ``key`` (its ``value`` defined at ``origin``), those of the
    collections written inside it (at ``inside``) left out: found once for the same value, origin
    and collections while a session's memo holds them."""

    def walk() -> tuple[str, tuple[tuple[str, ...], ...], tuple[tuple[Found, ...], tuple[str, ...]]]:
        found: list[Found] = []
        for sub, target, ref in references_in(schema, node_at(schema, (key,)), value):
            if ref.check and not any(sub[: len(p)] == p for p in inside):
                found.append((origin, sub, target, ref.collection, ref.what))
        return key, inside, (tuple(found), tuple(sorted({one[3] for one in found})))

    kept: tuple[str, tuple[tuple[str, ...], ...], tuple[tuple[Found, ...], tuple[str, ...]]] = remembered(
        value, (_setting_references, schema, origin), walk
    )
    # The memo knows the value and origin by identity: a key or collections other than those it
    # was found for (which no ruleset gives one value and origin) are walked afresh.
    return kept[2] if kept[:2] == (key, inside) else walk()[2]


def unresolved(ruleset: Ruleset) -> Iterator[Reference]:
    """The references of :func:`references` whose id is not in the collection they name.

    What one part finds depends on its references and on the collections they name: while a
    session's memo holds them (the very objects), that part is not looked through again, however
    many rulesets (a base and its variants) hold it, and an edit looks through the parts it made
    anew and those naming a collection it made anew."""
    collections = {collection.name: collection for collection in ruleset.collections()}
    for walked in _parts(ruleset):
        named = tuple(collections.get(name) for name in walked[1])
        missing: tuple[Found, ...] = remembered(walked, (_missing, *named), partial(_missing, walked[0], collections))
        for origin, sub, target, name, what in missing:
            yield origin, sub, target, collections[name], what


def _missing(found: tuple[Found, ...], collections: Mapping[str, Collection[Entity]]) -> tuple[Found, ...]:
    # Each id looked up in its collection's index itself, not through the collection (a Python
    # frame per reference: the borders of a large map name 15,000 areas).
    indexes = {name: collection.by_id for name, collection in collections.items()}
    return tuple(
        one
        for one in found
        if (index := indexes.get(one[3])) is not None and isinstance(one[2], str) and one[2] not in index
    )


def closest(name: str, collection: Collection[Entity]) -> str | None:
    return Vocabulary(collection.ids(), queries=1).closest(name)


class _Asked:
    """One ruleset's questions to the vocabulary of a collection's ids: at most
    :data:`~civrules.diagnostics.suggest.QUERIES` distinct ids looked up, as a
    :class:`Vocabulary` of its own answers them. The answers are the collection's
    (:func:`_vocabulary`): a base and each variant holding its very collection look an id up
    once, not once each (a renamed area's referrers under ten variants: thirteen lookups)."""

    __slots__ = ("_asked", "_vocabulary")

    def __init__(self, collection: Collection[Entity]) -> None:
        self._vocabulary = _vocabulary(collection)
        self._asked: set[str] = set()

    def closest(self, word: str) -> str | None:
        if word not in self._asked:
            if len(self._asked) >= QUERIES or len(word) > LONGEST:
                return None
            self._asked.add(word)
        return self._vocabulary.closest(word)


def _vocabulary(collection: Collection[Entity]) -> Vocabulary:
    """The vocabulary of the collection's ids, with no bound on its questions (:class:`_Asked`
    bounds each ruleset's): one while a session's memo holds the collection."""
    found: Vocabulary = remembered(
        collection, (_vocabulary,), lambda: Vocabulary(collection.ids(), queries=sys.maxsize)
    )
    return found


@check("X001", "unknown-reference", Severity.ERROR)
def check_references(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an id is referenced (a field the family's schema marks as naming an entity of a
    collection, `x-civrules-ref`: an entity another requires, the one a bonus goes to, an area a
    border joins ...) but nothing in the ruleset has that id.

    Why: the reference silently does nothing: a bonus nobody receives, a requirement that can
    never be met, a border to nowhere. Usually a misspelling, or an entity a variant removed.

    Fix: correct the id (the hint names the closest existing one), or add the missing entity.

        items:
          - {id: torch, needs: [lanturn], rule: "2.1"}   # FAIL: did you mean `lantern`?
    """
    vocabularies: dict[str, _Asked] = {}  # one per collection: each misspelling looked up once
    # A removal still referred to is one mistake at the variant's `remove` line, however many
    # referrers the base has: one V006 there, with a note at each referrer.
    dangling: dict[tuple[str, str], list[tuple[Related, int, tuple[str | int, ...], tuple[str | int, ...]]]] = {}
    for origin, sub, target, collection, what in unresolved(ruleset):
        removal = ruleset.removed.get(collection.name, {}).get(target)
        if removal is not None:
            dangling.setdefault((collection.name, target), []).append(
                (
                    Related(origin.span(*sub), f"{what} `{target}` is still referred to here"),
                    id(origin),
                    sub,
                    (*origin.path, *sub),
                )
            )
            continue
        if collection.name not in vocabularies:
            vocabularies[collection.name] = _Asked(collection)
        suggestion = vocabularies[collection.name].closest(target)
        hint = mean(target, suggestion) if suggestion else f"no {collection.name} entry has this id"
        span: Span = origin.span(*sub)
        base = origin.defined_at(*sub)
        related = [Related(base, "the base ruleset's definition", at_base=True)] if base is not None else []
        yield diagnostic(
            "X001",
            f"{what} `{target}` does not exist in {collection.name}",
            span,
            hint,
            related,
            suggestion,
            subjects=(target,),
        )
    owners = _owners(ruleset) if dangling else {}
    for (name, target), found in dangling.items():
        removal = ruleset.removed[name][target]
        referrers = [related for related, _, _, _ in found]
        # Each referring entity once, with whether the reference is its key (a track's `side`);
        # a reference no entity holds is a setting's (a rule naming the item that exempts from it).
        entities: dict[tuple[str, str], _Referrer] = {}
        settings: dict[str, tuple[str | int, ...]] = {}
        inside: dict[str, list[tuple[str | int, ...]]] = {}  # by setting: where in it each reference is
        for _, key, sub, place in found:
            if key in owners:
                kind, entity = owners[key]
                referrer = entities.setdefault((kind, entity.key), _Referrer(kind, entity, False))
                referrer.at_key = referrer.at_key or _is_key(ruleset, kind, sub)
                referrer.subs.append(sub)
            else:
                settings.setdefault(_setting_name(place), place)
                if place and isinstance(place[0], str):
                    inside.setdefault(place[0], []).append(place[1:])
        for referrer in entities.values():
            for sub, what in _owned_references(ruleset, referrer, name, target):
                referrers.append(
                    Related(referrer.entity.origin.span(*sub), f"{what} `{target}` is still referred to here")
                )
                referrer.subs.append(sub)
        listed = list(entities.values())
        names = [f"{entity_word(r.kind, ruleset.family)} {r.shown(ruleset)}" for r in listed]
        names += [f"the setting `{name}`" for name in settings]
        named = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        hint = _dangling_hint(ruleset, target, listed) if listed or not settings else ""
        renamed = _renamed_to(ruleset, name, target)
        retargeted = _retarget_way(ruleset, target, renamed, listed, inside) if renamed is not None else None
        retarget = retargeted[0] if retargeted is not None else None
        additions = retargeted[1](removal.span().file) if retargeted is not None else ()
        if additions and _owned_elsewhere(ruleset, name, target, {id(r.entity.origin) for r in listed}):
            additions = ()  # references another check reports (a card's cost naming a good) stay: no fix
        if settings:
            # Each setting's entry, written whole where a list operation drops the reference; else
            # the setting named by its place, for the designer to write anew.
            written = {key: _setting_entry(ruleset, key, subs, None) for key, subs in inside.items()}
            changed = "; ".join(
                [entry.text() for entry in written.values() if entry is not None]
                + [
                    _setting_change(place)
                    for place in settings.values()
                    if not (place and isinstance(place[0], str) and written.get(place[0]) is not None)
                ][:_WRITTEN]
            )
            way = f"in this variant, change what the setting names in `overlay.settings`: {changed}"
            hint = way + "; " + hint if hint else f"{way}; or keep `{target}`"
        kept = _renamed_only(ruleset, name, target, renamed) if renamed is not None else None
        if kept is not None:
            hint = f"{kept}; or {hint}" if hint else kept
        if retarget is not None:
            hint = f"{retarget}; or {hint}" if hint else retarget
        count = len(referrers)
        # What the change looks like, said where it was written: what the added twin lacks (an
        # area without its borders) is then this diagnostic's too (`pipeline.one_per_removal`).
        looks = f"; `{renamed}`, which this variant adds, looks like `{target}` renamed" if renamed else ""
        found_here = diagnostic(
            "V006",
            f"{entity_word(name, ruleset.family)} `{target}` is removed, but {count} "
            f"{'references to it remain' if count > 1 else 'reference to it remains'}"
            + (f": {named}" if named else "")
            + looks,
            removal.span(),
            hint,
            referrers,
            subjects=(target, renamed) if renamed else (target,),
        )
        # The retarget as an editor's quick fix: the entries it writes in this variant's overlay
        # (every referrer's, as the hint's first way; none where one is not written out).
        yield (
            replace(found_here, additions=additions, fix_title=f"Point the references at `{renamed}`")
            if additions
            else found_here
        )


def _owned_references(
    ruleset: Ruleset, referrer: _Referrer, name: str, target: str
) -> list[tuple[tuple[str | int, ...], str]]:
    """Where ``referrer`` names ``target`` of collection ``name`` in a reference another check
    owns (``"check": "K004"``, the order in which several references combine), and what it is:
    X001 leaves it, but it is a reference the variant's removal leaves all the same, and the
    entity's patch must drop it with the others, or that check reports what the patch left."""
    family = family_named(ruleset.family)
    spec = referrer.spec(ruleset)
    schema = schema_of(family.slot_kind(spec.slot)) if family is not None and spec is not None else None
    if spec is None or schema is None:
        return []
    nodes = node_at(schema, spec.path, item=True)
    return [
        (sub, ref.what)
        for sub, found, ref in references_in(schema, nodes, referrer.entity.raw)
        if not ref.check and ref.collection == name and found == target
    ]


def _owned_elsewhere(ruleset: Ruleset, name: str, target: str, listed: set[int]) -> bool:
    """Whether an entity other than those ``listed`` (by the identity of their origins) names
    ``target`` of collection ``name`` in a reference another check owns: V006 does not count it
    (that check reports it), so a fix of V006's referrers alone leaves it."""
    family = family_named(ruleset.family)
    if family is None:
        return False
    for collection in ruleset.collections():
        spec = family.collections.get(collection.name)
        schema = schema_of(family.slot_kind(spec.slot)) if spec is not None else None
        if spec is None or schema is None:
            continue
        nodes = node_at(schema, spec.path, item=True)
        for entity in collection:
            if id(entity.origin) in listed:
                continue
            for _, found, ref in references_in(schema, nodes, entity.raw):
                if not ref.check and ref.collection == name and found == target:
                    return True
    return False


def _setting_name(place: tuple[str | int, ...]) -> str:
    """A setting's place as messages name it: `rules.penalty.exempt_item`, `x[0].y`."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in place).lstrip(".")


def _setting_change(place: tuple[str | int, ...]) -> str:
    """The `overlay.settings` entry that writes the setting at ``place`` anew: nested mappings
    where every part is a key, else the setting named by its place."""
    if any(isinstance(part, int) for part in place):
        return f"`{_setting_name(place)}`"
    written = flow(blanks.blank("what the setting names instead"))
    for part in reversed(place):
        written = f"{{{part}: {written}}}"
    return f"`{written[1:-1]}`"


class _Referrer:
    """An entity that still refers to a removed one: its collection, and whether the reference is
    its key (then no patch can drop it: the entity must go too)."""

    __slots__ = ("at_key", "entity", "kind", "subs")

    def __init__(self, kind: str, entity: Entity, at_key: bool) -> None:
        self.kind = kind
        self.entity = entity
        self.at_key = at_key
        self.subs: list[tuple[str | int, ...]] = []  # where in the entity it refers to the removed one

    def spec(self, ruleset: Ruleset) -> CollectionSpec | None:
        family = family_named(ruleset.family)
        return family.collections.get(self.kind) if family is not None else None

    def key(self, ruleset: Ruleset) -> str:
        """The entity's key as the resolver names it (`north@basic`, `left|right`)."""
        spec = self.spec(ruleset)
        key = entity_key(spec, self.entity.raw) if spec is not None else None
        return key if key is not None else self.entity.id

    def shown(self, ruleset: Ruleset) -> str:
        """The entity as a message names it: by the fields an overlay entry names it by (a border
        `areas: [left, right]`), not by the resolver's key (:meth:`CollectionSpec.shown`)."""
        spec = self.spec(ruleset)
        return spec.shown(self.key(ruleset)) if spec is not None else f"`{self.key(ruleset)}`"

    def own(self, ruleset: Ruleset) -> bool:
        """Whether the ruleset itself writes the entity (its `add` or `replace`, a file of its own),
        rather than a base it patches: a patch applies to the base, and cannot reach it."""
        layer = ruleset.layers.get(self.entity.origin.file)
        return len(ruleset.chain) > 1 and layer == len(ruleset.chain) - 1


def _is_key(ruleset: Ruleset, kind: str, sub: tuple[str | int, ...]) -> bool:
    """Whether a reference at ``sub`` of an entity of ``kind`` is (part of) the entity's key."""
    family = family_named(ruleset.family)
    spec = family.collections.get(kind) if family is not None else None
    return spec is not None and bool(sub) and sub[0] in (spec.key, spec.qualifier)


def _owners(ruleset: Ruleset) -> dict[int, tuple[str, Entity]]:
    """The collection and entity of every entity, by the identity of its origin (what a reference carries)."""
    return {
        id(entity.origin): (collection.name, entity) for collection in ruleset.collections() for entity in collection
    }


#: How many entities a hint writes out whole (a removal's or a patch's entries); the notes point at
#: every one. A shipped ruleset seats one side at up to 9 player counts (6-9, 11, 15-18).
_WRITTEN = 12


def _dangling_hint(ruleset: Ruleset, target: str, referrers: list[_Referrer]) -> str:
    """How to drop the references to a removed entity, by what works for each referrer: one the
    ruleset itself writes is changed where it is written; one whose key the reference is (a
    track's `side`, a border's `areas`) is removed too, named as the resolver names it; any
    other is patched from the variant."""
    if not referrers:
        return "patch or remove each referrer in this variant too (the notes point at them), or keep the entity"
    own = [r for r in referrers if r.own(ruleset)]
    keyed = [r for r in referrers if r.at_key and not r.own(ruleset)]
    patched = [r for r in referrers if not r.at_key and not r.own(ruleset)]
    ways = []
    if own:
        ways.append(_own_way(ruleset, target, own))
    for kind in dict.fromkeys(r.kind for r in keyed):
        ways.append(_removal_way(ruleset, target, kind, [r for r in keyed if r.kind == kind]))
    # Each referrer whose references are list elements gets its patch written out; any other
    # (a reference in a field of its own, which no list operation drops) is told the forms.
    # Written for the first few of each collection only: past them, the notes point at the rest.
    unwritten: list[_Referrer] = []
    for kind in dict.fromkeys(r.kind for r in patched):
        entries: list[str] = []
        beyond = 0
        for referrer in (r for r in patched if r.kind == kind):
            entry = _patch_entry(ruleset, referrer) if len(entries) < _WRITTEN else None
            if entry is not None:
                entries.append(entry)
            elif len(entries) < _WRITTEN:
                unwritten.append(referrer)
            else:
                beyond += 1
        if not entries:
            continue
        rest = f" (and each other the notes point at: {beyond} more)" if beyond else ""
        ways.append(
            f"in this variant, patch {'each' if len(entries) > 1 else 'the'} {entity_word(kind, ruleset.family)} "
            f"that names it to drop the reference, in `overlay.{kind}`: `patch: [{', '.join(entries)}]`{rest}"
        )
    if unwritten:
        first = unwritten[0]
        more = " (and likewise each referrer the notes point at)" if len(unwritten) > 1 else ""
        ways.append(
            f"in this variant, patch {first.shown(ruleset)} in `overlay.{first.kind}` to drop the reference{more}: a "
            f"list element goes with `{{remove: [{_ELEMENT}]}}`, one inside an element with `{{patch: [{{where: "
            f"{_ELEMENT}, with: {_FIELDS}}}]}}`"
        )
    return "; ".join(ways) + f"; or keep `{target}`"


#: The blanks of the list operations a hint names without writing them (L016, pasted as they are).
_ELEMENT = f'"{blanks.blank("the fields that name the element")}"'
_FIELDS = f'"{blanks.blank("the element without the reference")}"'


def _renamed_to(ruleset: Ruleset, kind: str, target: str) -> str | None:
    """The entity of collection ``kind`` that this variant adds and that is likely ``target``
    renamed (removed, then added under a new id): the only one it adds, else the one whose id
    or name is closest to ``target``'s; None where it adds none, or none is close."""
    if len(ruleset.chain) < 2:
        return None
    own = len(ruleset.chain) - 1
    collection = next((c for c in ruleset.collections() if c.name == kind), None)
    if collection is None:
        return None
    added = [
        entity
        for entity in collection
        if ruleset.layers.get(entity.origin.file) == own
        and not (entity.origin.path[:1] == ("overlay",) and "add" not in entity.origin.path[:3])
    ]
    if len(added) == 1:
        return added[0].id
    by_word = {entity.id: entity.id for entity in added} | {
        entity.name: entity.id for entity in added if isinstance(entity.name, str)
    }
    close = Vocabulary(by_word, queries=1).closest(target)
    return by_word[close] if close is not None else None


def _renamed_only(ruleset: Ruleset, kind: str, target: str, renamed: str) -> str | None:
    """Where the entity the variant adds as ``target`` renamed has a name of another: the way
    that keeps ``target`` (and every reference to it) and changes its name alone, which is what
    a rename for the table often means (a good renamed on the sheets, named by 156 cards)."""
    collection = next((c for c in ruleset.collections() if c.name == kind), None)
    added = collection.get(renamed) if collection is not None else None
    removed = ruleset.removed.get(kind, {}).get(target)
    family = family_named(ruleset.family)
    spec = family.collections.get(kind) if family is not None else None
    if added is None or removed is None or spec is None or spec.composite or not isinstance(added.name, str):
        return None
    entry = f'{{{spec.naming(target)}, name: {flow(added.name)}, source: "{_HOUSE_RULE}"}}'
    return (
        f"if only what it is called changes, keep `{target}` (delete its `remove` and the `add` of "
        f"`{renamed}`) and patch its name in `overlay.{kind}`: `patch: [{entry}]`"
    )


def _retarget_way(
    ruleset: Ruleset,
    target: str,
    renamed: str,
    referrers: list[_Referrer],
    settings: Mapping[str, list[tuple[str | int, ...]]],
) -> tuple[str, Callable[[str], tuple[Addition, ...]]] | None:
    """The way that points the references to ``target`` at ``renamed`` (the entity the variant
    likely renamed it to), in `overlay.<collection>` patches of the base's referrers that hold it
    outside their key, and in `overlay.settings` entries of the ``settings`` that name it (where in
    each, by setting), and the entries it writes as a quick fix's additions to a file (none where
    some reference is left unwritten); None where no referrer can be so patched."""
    ways = []
    patches: list[tuple[str, str, str]] = []  # each collection's entries, by operation, for the quick fix
    complete = True  # whether every reference is pointed at it by what the hint writes
    for kind in dict.fromkeys(r.kind for r in referrers):
        kinds = [r for r in referrers if r.kind == kind]
        entries = [
            entry
            for referrer in kinds
            if not referrer.at_key and not referrer.own(ruleset)
            if (entry := _patch_entry(ruleset, referrer, renamed)) is not None
        ]
        # A referrer keyed by the renamed entity (a border's `areas`) is no patch's: removed, and
        # added again naming the new id, the same fact (its other fields) under its new key.
        keyed = [
            pair
            for referrer in kinds
            if referrer.at_key and not referrer.own(ruleset)
            if (pair := _keyed_again(ruleset, referrer, renamed)) is not None
        ]
        complete = complete and len(entries) + len(keyed) == len(kinds)
        entries = entries[:_WRITTEN]
        keyed = keyed[:_WRITTEN]
        if entries:
            ways.append(f"in `overlay.{kind}`: `patch: [{', '.join(entries)}]`")
            patches.extend((kind, "patch", entry) for entry in entries)
        if keyed:
            gone = ", ".join(removal for removal, _ in keyed)
            again = ", ".join(addition for _, addition in keyed)
            ways.append(f"in `overlay.{kind}`: `remove: [{gone}]` and `add: [{again}]`")
            patches.extend((kind, "remove", removal) for removal, _ in keyed)
            patches.extend((kind, "add", addition) for _, addition in keyed)
    written = [one for key, subs in settings.items() if (one := _setting_entry(ruleset, key, subs, renamed))]
    complete = complete and len(written) == len(settings) and len(patches) <= _WRITTEN
    if written:
        ways.append(f"in `overlay.settings`: {'; '.join(one.text() for one in written)}")
    if not ways:
        return None

    def additions(file: str) -> tuple[Addition, ...]:
        if not complete:
            return ()
        made = [Addition(file, ("overlay", kind, operation), entry, append=True) for kind, operation, entry in patches]
        return (*made, *(addition for one in written for addition in one.additions(file)))

    told = (
        f"if `{renamed}`, which this variant adds, is `{target}` renamed, point the references at it "
        + ", and ".join(ways)
    )
    return told, additions


def _keyed_again(ruleset: Ruleset, referrer: _Referrer, renamed: str) -> tuple[str, str] | None:
    """The `remove` and the `add` entries, in YAML's flow style, that write ``referrer`` (keyed by
    the removed entity: a border's `areas`) again with ``renamed`` at each of its references,
    its other fields as the base gives them; the entry added is cited where its schema takes
    `source:` and the base's cites nothing. None where a reference is not a field or list element
    of the entity, or the entry would break its schema."""
    family = family_named(ruleset.family)
    spec = referrer.spec(ruleset)
    raw = referrer.entity.raw
    if family is None or spec is None or not isinstance(raw, dict):
        return None
    again: Any = json.loads(json.dumps(raw))
    for sub in referrer.subs:
        holder: Any = again
        for part in sub[:-1]:
            holder = _part_of(holder, part)
        if not sub or _part_of(holder, sub[-1]) is None:
            return None
        holder[sub[-1]] = renamed
    kind = family.slot_kind(spec.slot)
    cites = entity_citation_keys(kind, tuple(spec.path))
    if "source" in cites and not any(key in again for key in cites):
        again["source"] = _HOUSE_RULE
    errors = partial(entity_errors, kind, spec.path)
    if errors(again) - errors(raw):
        return None
    removal = f'{{{spec.naming(referrer.key(ruleset))}, why: "{blanks.HOUSE_RULE}"}}'
    fields = ", ".join(f"{key}: {flow(value)}" for key, value in again.items())
    return removal, f"{{{fields}}}"


def _part_of(value: Any, part: str | int) -> Any:
    """The field or element ``part`` of ``value`` as written; None where it holds none."""
    if isinstance(value, dict) and isinstance(part, str):
        return value.get(part)
    if isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
        return value[part]
    return None


def _setting_entry(
    ruleset: Ruleset, key: str, subs: list[tuple[str | int, ...]], renamed: str | None
) -> _SettingEntry | None:
    """The `overlay.settings` entry that drops (or, given ``renamed``, points at it) each reference
    at ``subs`` inside the setting ``key``; the reference written anew is cited: in each
    patched element's `with:` (`raiders: {patch: [{where: {id: x}, with: {..., source:
    "house rule: ..."}}]}`) where the elements take a citation, in the setting's own mapping where
    it does, else in `citations:` beside it. None where no list operation reaches a reference
    (a setting that is the reference itself, dropped), or the setting is not known."""
    found = ruleset.setting(key)
    family = family_named(ruleset.family)
    slot = family.settings.get(key) if family is not None else None
    if found is None or family is None or slot is None:
        return None
    value = found[0]
    change: Any
    if renamed is not None and any(not sub for sub in subs):
        change = renamed
    elif any(not sub for sub in subs):
        return None
    elif isinstance(value, list):
        change = _list_patch(value, subs, (key,)) if renamed is None else _list_retarget(value, subs, renamed)
    elif isinstance(value, dict):
        # a reference that is a field of its own is deleted (`null`) where the setting may lack it
        change = _mapping_change(value, subs, (key,), renamed, fields=True)
    else:
        return None
    if change is None or not _schema_keeps(
        partial(_setting_errors, family.slot_kind(slot), key), {key: value}, {key: change}
    ):
        return None
    change = _written(change)
    if renamed is None:  # a reference dropped writes no fact, and needs no citation
        return _SettingEntry(key, flow(change))
    own, elements = setting_citation_keys(family.slot_kind(slot), key)
    citation = {"source": _HOUSE_RULE}
    apart = False
    if isinstance(value, list) and elements and isinstance(change, dict) and "patch" in change:
        change = {**change, "patch": [{**p, "with": {**p["with"], **citation}} for p in change["patch"]]}
        apart = "replace" in change  # an element replaced whole is one the patch does not cite
    elif isinstance(value, dict) and own and isinstance(change, dict):
        change = {**change, **citation}
    else:
        apart = True
    return _SettingEntry(key, flow(change), flow(citation) if apart else None)


def _setting_errors(kind: str, key: str, settings: dict[str, Any]) -> Counter[Any]:
    """:func:`setting_errors` of the setting ``key`` in ``settings``, each at its place from the
    setting's key (where the places its patch names start)."""
    found = setting_errors(kind, key, settings.get(key))
    return Counter({((key, *mark[0]), *mark[1:]): count for mark, count in found.items()})


class _SettingEntry(NamedTuple):
    """An `overlay.settings` entry a hint writes: the setting, its value in flow style, and the
    citation written apart for it in `overlay.settings.citations` (None: none, or in the value)."""

    key: str
    value: str
    cited: str | None = None

    def text(self) -> str:
        apart = f" and `{SETTINGS_CITATIONS}: {{{self.key}: {self.cited}}}`" if self.cited is not None else ""
        return f"`{self.key}: {self.value}`{apart}"

    def additions(self, file: str) -> tuple[Addition, ...]:
        made = (Addition(file, ("overlay", "settings", self.key), self.value),)
        if self.cited is None:
            return made
        return (*made, Addition(file, ("overlay", "settings", SETTINGS_CITATIONS, self.key), self.cited))


#: The citation a written fix leaves for the designer to complete: a blank (L016) until then.
_HOUSE_RULE = blanks.HOUSE_RULE


def _patch_entry(ruleset: Ruleset, referrer: _Referrer, renamed: str | None = None) -> str | None:
    """The `overlay.<collection>` patch entry that drops each of ``referrer``'s references, in YAML's
    flow style (`{id: lantern, uses: {patch: [{where: {rule: "2.1"}, with: {needs: null}}]}}`);
    None where a reference is not in a list, so that no list operation drops it, or
    where the entity so patched would break its schema (a required list left empty)."""
    family = family_named(ruleset.family)
    spec = referrer.spec(ruleset)
    raw = referrer.entity.raw
    if family is None or spec is None or not isinstance(raw, dict) or len(referrer.subs) > _REFERENCES_WRITTEN:
        return None
    changes = _mapping_change(raw, referrer.subs, (), renamed, fields=True)
    if changes is None:
        return None
    kind = family.slot_kind(spec.slot)
    if not _schema_keeps(partial(entity_errors, kind, spec.path), raw, changes):
        return None
    written = _written(changes)
    if renamed is not None and "source" in entity_citation_keys(kind, tuple(spec.path)):
        written["source"] = _HOUSE_RULE  # a reference written anew is a fact changed: Q009 asks its citation
    fields = ", ".join(f"{key}: {flow(value)}" for key, value in written.items())
    return f"{{{spec.naming(referrer.key(ruleset))}, {fields}}}"


def _schema_keeps(errors: Callable[[Any], Counter[Any]], raw: Any, changes: Any) -> bool:
    """Whether ``raw`` patched by ``changes`` breaks its schema (``errors``) nowhere it did not
    already: what a hint checks a patch it writes against. A list left with no element keeps the
    field (`remove` all of it) where the schema allows an empty list; where it does not, the patch
    deletes the field (`null`), as merge-patch does (marked on ``changes``' emptied lists)."""
    before = errors(raw)
    emptied = list(_emptied(changes))
    after = errors(merge_patch(raw, _written(changes)))
    for empty in emptied:
        empty.deleted = any(mark[0] == empty.path for mark in after - before)
    if any(empty.deleted for empty in emptied):
        after = errors(merge_patch(raw, _written(changes)))
    return after <= before


#: How many references of one entity its patch entry drops, written out; past them, the hint
#: names the forms (a list of hundreds of references to one item is no entry to paste).
_REFERENCES_WRITTEN = 32


class _Emptied:
    """The list operations that remove every element of a list at ``path`` (inside the entity):
    written as they are, or (``deleted``) as merge-patch's `null`, which deletes the field."""

    __slots__ = ("deleted", "operations", "path")

    def __init__(self, operations: dict[str, Any], path: tuple[str | int, ...]) -> None:
        self.operations = operations
        self.path = path
        self.deleted = False


def _emptied(value: Any) -> Iterator[_Emptied]:
    if isinstance(value, _Emptied):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _emptied(item)
    elif isinstance(value, list):
        for item in value:
            yield from _emptied(item)


def _written(value: Any) -> Any:
    """``value`` as the patch writes it: each emptied list its operations, or `null`."""
    if isinstance(value, _Emptied):
        return None if value.deleted else value.operations
    if isinstance(value, dict):
        return {key: _written(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_written(item) for item in value]
    return value


def _mapping_change(
    mapping: dict[str, Any],
    subs: list[tuple[str | int, ...]],
    at: tuple[str | int, ...],
    renamed: str | None = None,
    *,
    fields: bool = False,
) -> dict[str, Any] | None:
    """The merge-patch of ``mapping`` (at ``at`` in the entity) that drops the references at ``subs``
    (paths inside it) or, given ``renamed``, writes it in place of each. Dropped: each list element
    that holds one removed, or patched where the reference is deeper in a list of its own; with
    ``fields`` (no list on the way from the entity), a reference that is a field of its own deleted
    (`lit_by: null`: whether the entity may lack it, its schema says after). Renamed: a field set
    to it, a list's element replaced or patched (by the selector that names it alone). None where
    a dropped reference is a field of ``mapping`` itself (without ``fields``), or where a
    reference is in no list, or its element has no such selector."""
    by_field: dict[str, list[tuple[str | int, ...]]] = {}
    for sub in subs:
        if not sub or not isinstance(sub[0], str) or (renamed is None and len(sub) < 2 and not fields):
            return None
        by_field.setdefault(sub[0], []).append(sub[1:])
    changes: dict[str, Any] = {}
    for field, rests in by_field.items():
        value = mapping.get(field)
        if any(not rest for rest in rests):
            changes[field] = renamed  # the field is the reference: `null` (None) deletes it, as merge-patch does
            continue
        change = (
            (_list_patch(value, rests, (*at, field)) if renamed is None else _list_retarget(value, rests, renamed))
            if isinstance(value, list)
            else _mapping_change(value, rests, (*at, field), renamed, fields=fields)
            if isinstance(value, dict)
            else None
        )
        if change is None:
            return None
        changes[field] = change
    return changes


def _list_retarget(items: list[Any], subs: list[tuple[str | int, ...]], renamed: str) -> dict[str, Any] | None:
    """The list operations that write ``renamed`` in place of each reference at ``subs`` (paths
    starting at an index of ``items``): `{replace: [{where: OLD, with: NEW}]}` for an element that
    is one, `{patch: [{where: SELECTOR, with: ...}]}` for one holding it."""
    by_index: dict[int, list[tuple[str | int, ...]]] = {}
    for sub in subs:
        if not isinstance(sub[0], int) or not 0 <= sub[0] < len(items):
            return None
        by_index.setdefault(sub[0], []).append(sub[1:])
    replaced: list[dict[str, Any]] = []
    patched: list[dict[str, Any]] = []
    counts = _Counts()
    for index, rests in sorted(by_index.items()):
        element = items[index]
        whole = any(not rest for rest in rests)
        deeper = _mapping_change(element, rests, (), renamed) if isinstance(element, dict) and not whole else None
        selector = _selector(items, index, () if whole else rests[0], counts)
        if selector is None or (deeper is None and not whole):
            return None
        if whole:
            replaced.append({"where": selector, "with": renamed})
        else:
            patched.append({"where": selector, "with": deeper})
    operations: dict[str, Any] = {}
    if replaced:
        operations["replace"] = replaced
    if patched:
        operations["patch"] = patched
    return operations


def _list_patch(items: list[Any], subs: list[tuple[str | int, ...]], at: tuple[str | int, ...]) -> Any:
    """The list operations that drop the references at ``subs`` (paths starting at an index of
    ``items``, the list at ``at``): `{remove: [...]}` for an element that is (or directly holds)
    one, `{patch: [{where: ..., with: ...}]}` for one holding it deeper; an :class:`_Emptied`
    where every element goes."""
    by_index: dict[int, list[tuple[str | int, ...]]] = {}
    for sub in subs:
        if not isinstance(sub[0], int) or not 0 <= sub[0] < len(items):
            return None
        by_index.setdefault(sub[0], []).append(sub[1:])
    removed: list[Any] = []
    patched: list[dict[str, Any]] = []
    counts = _Counts()
    for index, rests in sorted(by_index.items()):
        element = items[index]
        deeper = _mapping_change(element, rests, (*at, index)) if isinstance(element, dict) else None
        selector = _selector(items, index, () if deeper is not None else rests[0], counts)
        if selector is None:
            return None
        if deeper is not None:
            patched.append({"where": selector, "with": deeper})
        else:
            removed.append(selector)
    if len(removed) == len(items):
        return _Emptied({"remove": removed}, at)
    operations: dict[str, Any] = {}
    if removed:
        operations["remove"] = removed
    if patched:
        operations["patch"] = patched
    return operations


def _selector(items: list[Any], index: int, sub: tuple[str | int, ...], counts: _Counts) -> Any:
    """What names ``items[index]`` alone in a list operation: the value itself, or the fewest of its
    fields (the one holding the reference, at ``sub``, first; then `id`; then the shortest) that no
    other element has the same; None where nothing does."""
    element = items[index]
    if not isinstance(element, dict):
        return element if counts.matching(items, (), element) == 1 else None
    scalars = {k: v for k, v in element.items() if isinstance(v, (str, int, float, bool))}
    first = sub[0] if sub and sub[0] in scalars else None
    order = sorted(scalars, key=lambda k: (k != first, k != "id", len(flow(scalars[k])), k))
    for keys in [(k,) for k in order] + [tuple(sorted(scalars))]:
        if keys and counts.matching(items, keys, tuple(scalars[k] for k in keys)) == 1:
            return {k: scalars[k] for k in keys}
    return None


class _Counts:
    """How many elements of one list have each value of a set of fields (``()``: each value of a
    list of scalars), counted once per set: a list of thousands of elements is read once per
    set, not once per element named."""

    __slots__ = ("_by_keys",)

    def __init__(self) -> None:
        self._by_keys: dict[tuple[str, ...], Counter[Any]] = {}

    def matching(self, items: list[Any], keys: tuple[str, ...], values: Any) -> int:
        counted = self._by_keys.get(keys)
        if counted is None:
            counted = self._by_keys[keys] = Counter(
                _hashable(item)
                if not keys
                else tuple(_hashable(item[k]) for k in keys)
                if isinstance(item, dict) and all(k in item for k in keys)
                else None
                for item in items
            )
        return counted[_hashable(values) if not keys else tuple(_hashable(v) for v in values)]


def _hashable(value: Any) -> Any:
    """``value`` as a key equal where the resolver's selector finds it equal (Python's `==`)."""
    if isinstance(value, dict):
        return ("{}", frozenset((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("[]", tuple(_hashable(v) for v in value))
    return value


def flow(value: Any) -> str:
    """``value`` in YAML's flow style, each text quoted where the reader would take it for another
    type or another structure (`"32.211"`, `"a: b"`).

    >>> flow({"where": {"rule": "2.1"}, "with": {"needs": None}})
    '{where: {rule: "2.1"}, with: {needs: null}}'
    >>> flow({"remove": ["north", "7", "a, b"]})
    '{remove: [north, "7", "a, b"]}'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(key)}: {flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    text = str(value)
    plain = string_scalar(text, plain=True) == text and _PLAIN.fullmatch(text) is not None
    return text if plain else json.dumps(text, ensure_ascii=False)


#: A text written plain in flow style: no indicator YAML reads there, no space at either end.
_PLAIN = re.compile(r"[^\s,\[\]{}#&*!|>'\"%@`:?-][^,\[\]{}#:]*(?<!\s)")


def _own_way(ruleset: Ruleset, target: str, own: list[_Referrer]) -> str:
    """Where the ruleset itself writes a referrer: there it drops the reference (or the entity)."""
    first = own[0]
    origin = first.entity.origin
    path = origin.path
    key = first.shown(ruleset)
    more = " (and likewise each referrer the notes point at)" if len(own) > 1 else ""
    if origin.document is ruleset.manifest.document and len(path) > 2 and path[0] == "overlay":
        operation = path[2]
        entry = f"this variant's `{operation}` entry of {key} (`overlay.{first.kind}`){more}"
        if first.at_key:
            return f"delete {entry}: `{target}` is in its key"
        why = (
            "a patch applies to the base, before `add`, and cannot reach it"
            if operation == "add"
            else "it is written whole there"
        )
        return f"drop the reference in {entry}: {why}"
    if first.at_key:
        where = named_path(origin.file)
        return f"delete {key} from {where}, where this ruleset writes it{more}: `{target}` is in its key"
    return f"drop the reference from {key} in {named_path(origin.file)}, where this ruleset writes it{more}"


def _removal_way(ruleset: Ruleset, target: str, kind: str, keyed: list[_Referrer]) -> str:
    """Referrers whose key the removed entity is in: removed in the variant too, each named by the
    fields the resolver keys it by."""
    spec = keyed[0].spec(ruleset)
    named = [spec.naming(r.key(ruleset)) if spec is not None else f"id: {r.key(ruleset)}" for r in keyed]
    entries = ", ".join(f'{{{fields}, why: "{blanks.HOUSE_RULE}"}}' for fields in named[:_WRITTEN])
    rest = f" (and each other the notes point at: {len(named) - _WRITTEN} more)" if len(named) > _WRITTEN else ""
    several = len(keyed) > 1
    return (
        f"`{target}` is in the key of {'each' if several else 'the'} {entity_word(kind, ruleset.family)} that "
        f"names it, which no patch can change: remove {'them' if several else 'it'} in this variant too, in "
        f"`overlay.{kind}`: `remove: [{entries}]`{rest}"
    )
