"""References: every id a ruleset names exists in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from civrules.checks import check, diagnostic, entity_word
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.diagnostics.suggest import Vocabulary, mean
from civrules.families import CollectionSpec, family_named
from civrules.model import Collection, Entity, Origin, Ruleset
from civrules.resolve import entity_key
from civrules.schema.references import find_references, node_at, references_in, schema_of

#: A reference: where it is (origin and sub-path), the id named, the collection it must be in, and what.
Reference = tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]


def references(ruleset: Ruleset) -> Iterator[Reference]:
    """Every reference of the ruleset the schemas declare (``x-civrules-ref``) for X001 to check.

    Each entity is walked with the schema of its collection's elements, each setting with the
    schema of its key (the collections inside a setting, as `ast.tracks`, are walked as entities);
    a reference declared with ``"check": "CODE"`` is left to the check that code names.
    """
    family = family_named(ruleset.family)
    if family is None:
        return
    collections = {collection.name: collection for collection in ruleset.collections()}
    for collection in ruleset.collections():
        spec = family.collections.get(collection.name)
        schema = schema_of(family.slot_kind(spec.slot)) if spec is not None else None
        if spec is None or schema is None:
            continue
        nodes = node_at(schema, spec.path, item=True)
        for entity in collection:
            for sub, target, ref in references_in(schema, nodes, entity.raw):
                if ref.check and ref.collection in collections:
                    yield entity.origin, sub, target, collections[ref.collection], ref.what
    for key in ruleset.setting_origins:
        slot = family.settings.get(key)
        schema = schema_of(family.slot_kind(slot)) if slot is not None else None
        found = ruleset.setting(key)
        if schema is None or found is None:
            continue
        value, origin = found
        inside = {spec.path[1:] for spec in family.collections.values() if spec.slot == slot and spec.path[0] == key}
        for sub, target, ref in find_references(schema, node_at(schema, (key,)), value):
            if ref.check and ref.collection in collections and not any(sub[: len(p)] == p for p in inside):
                yield origin, sub, target, collections[ref.collection], ref.what


def closest(name: str, collection: Collection[Entity]) -> str | None:
    return Vocabulary(collection.ids(), queries=1).closest(name)


@check("X001", "unknown-reference", Severity.ERROR)
def check_references(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an id is referenced (a prerequisite, a credit target or group, a calamity modifier's card,
    a start area, a border's area, a flood plain member ...) but nothing in the ruleset has that id.

    Why: the reference silently does nothing: a credit nobody receives, a modifier that never
    applies, a nation that cannot start. Usually a misspelling, or an entity a variant removed.

    Fix: correct the id (the hint names the closest existing one), or add the missing entity.

        prerequisites:
          - {card: enginering, rule: "31.62"}   # FAIL: did you mean `engineering`?
    """
    vocabularies: dict[str, Vocabulary] = {}  # one per collection: each misspelling looked up once
    # A removal still referred to is one mistake at the variant's `remove` line, however many
    # referrers the base has: one V006 there, with a note at each referrer.
    dangling: dict[tuple[str, str], list[tuple[Related, int, tuple[str | int, ...]]]] = {}
    for origin, sub, target, collection, what in references(ruleset):
        if not isinstance(target, str) or target in collection:
            continue
        removal = ruleset.removed.get(collection.name, {}).get(target)
        if removal is not None:
            dangling.setdefault((collection.name, target), []).append(
                (Related(origin.span(*sub), f"{what} `{target}` is still referred to here"), id(origin), sub)
            )
            continue
        if collection.name not in vocabularies:
            vocabularies[collection.name] = Vocabulary(collection.ids())
        suggestion = vocabularies[collection.name].closest(target)
        hint = mean(target, suggestion) if suggestion else f"no {collection.name} entry has this id"
        span: Span = origin.span(*sub)
        base = origin.defined_at(*sub)
        related = [Related(base, "the base ruleset's definition")] if base is not None else []
        yield diagnostic(
            "X001", f"{what} `{target}` does not exist in {collection.name}", span, hint, related, suggestion
        )
    owners = _owners(ruleset) if dangling else {}
    for (name, target), found in dangling.items():
        removal = ruleset.removed[name][target]
        referrers = [related for related, _, _ in found]
        # Each referring entity once, with whether the reference is its key (a track's `nation`).
        entities: dict[tuple[str, str], _Referrer] = {}
        for _, key, sub in found:
            if key in owners:
                kind, entity = owners[key]
                referrer = entities.setdefault((kind, entity.key), _Referrer(kind, entity, False))
                referrer.at_key = referrer.at_key or _is_key(ruleset, kind, sub)
        listed = list(entities.values())
        named = ", ".join(f"{entity_word(r.kind, ruleset.family)} `{r.key(ruleset)}`" for r in listed[:5])
        named += f" and {len(listed) - 5} more" if len(listed) > 5 else ""
        count = len(referrers)
        yield diagnostic(
            "V006",
            f"{entity_word(name, ruleset.family)} `{target}` is removed, but {count} "
            f"{'references to it remain' if count > 1 else 'reference to it remains'}"
            + (f": {named}" if named else ""),
            removal.span(),
            _dangling_hint(ruleset, target, listed),
            referrers,
        )


class _Referrer:
    """An entity that still refers to a removed one: its collection, and whether the reference is
    its key (then no patch can drop it: the entity must go too)."""

    __slots__ = ("at_key", "entity", "kind")

    def __init__(self, kind: str, entity: Entity, at_key: bool) -> None:
        self.kind = kind
        self.entity = entity
        self.at_key = at_key

    def spec(self, ruleset: Ruleset) -> CollectionSpec | None:
        family = family_named(ruleset.family)
        return family.collections.get(self.kind) if family is not None else None

    def key(self, ruleset: Ruleset) -> str:
        """The entity's key as the resolver names it (`kushan@basic`, `crete|cyprus`)."""
        spec = self.spec(ruleset)
        key = entity_key(spec, self.entity.raw) if spec is not None else None
        return key if key is not None else self.entity.id

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


#: How many entities a hint writes out whole (a removal's entries); the notes point at every one.
_WRITTEN = 6


def _dangling_hint(ruleset: Ruleset, target: str, referrers: list[_Referrer]) -> str:
    """How to drop the references to a removed entity, by what works for each referrer: one the
    ruleset itself writes is changed where it is written; one whose key the reference is (a
    track's `nation`, a border's `areas`) is removed too, named as the resolver names it; any
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
    if patched:
        first = patched[0]
        more = " (and likewise each referrer the notes point at)" if len(patched) > 1 else ""
        ways.append(
            f"in this variant, patch `{first.key(ruleset)}` in `overlay.{first.kind}` to drop the reference{more}: a "
            f"list element goes with `{{remove: [SELECTOR]}}`, one inside an element with `{{patch: [{{where: "
            f"SELECTOR, with: {{...}}}}]}}`"
        )
    return "; ".join(ways) + f"; or keep `{target}`"


def _own_way(ruleset: Ruleset, target: str, own: list[_Referrer]) -> str:
    """Where the ruleset itself writes a referrer: there it drops the reference (or the entity)."""
    first = own[0]
    origin = first.entity.origin
    path = origin.path
    key = first.key(ruleset)
    more = " (and likewise each referrer the notes point at)" if len(own) > 1 else ""
    if origin.document is ruleset.manifest.document and len(path) > 2 and path[0] == "overlay":
        operation = path[2]
        entry = f"this variant's `{operation}` entry of `{key}` (`overlay.{first.kind}`){more}"
        if first.at_key:
            return f"delete {entry}: `{target}` is in its key"
        why = (
            "a patch applies to the base, before `add`, and cannot reach it"
            if operation == "add"
            else "it is written whole there"
        )
        return f"drop the reference in {entry}: {why}"
    if first.at_key:
        return f"delete `{key}` from `{origin.file}`, where this ruleset writes it{more}: `{target}` is in its key"
    return f"drop the reference from `{key}` in `{origin.file}`, where this ruleset writes it{more}"


def _removal_way(ruleset: Ruleset, target: str, kind: str, keyed: list[_Referrer]) -> str:
    """Referrers whose key the removed entity is in: removed in the variant too, each named by the
    fields the resolver keys it by."""
    spec = keyed[0].spec(ruleset)
    named = [spec.naming(r.key(ruleset)) if spec is not None else f"id: {r.key(ruleset)}" for r in keyed]
    entries = ", ".join(f"{{{fields}, why: ...}}" for fields in named[:_WRITTEN])
    rest = f" (and each other the notes point at: {len(named) - _WRITTEN} more)" if len(named) > _WRITTEN else ""
    several = len(keyed) > 1
    return (
        f"`{target}` is in the key of {'each' if several else 'the'} {entity_word(kind, ruleset.family)} that "
        f"names it, which no patch can change: remove {'them' if several else 'it'} in this variant too, in "
        f"`overlay.{kind}`: `remove: [{entries}]`{rest}"
    )
