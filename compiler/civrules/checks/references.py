"""References: every id a ruleset names exists in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from civrules.checks import check, diagnostic, entity_word
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.diagnostics.suggest import Vocabulary, mean
from civrules.families import family_named
from civrules.model import Collection, Entity, Origin, Ruleset
from civrules.schema.references import find_references, node_at, references_in, schema_of

#: A reference: where it is (origin and sub-path), the id named, the collection it must be in, and what.
Reference = tuple[Origin, tuple[str | int, ...], Any, Collection[Any], str]


def references(ruleset: Ruleset) -> Iterator[Reference]:
    """Every reference of the ruleset the schemas declare (``x-civrules-ref``) for X001 to check.

    Each entity is walked with the schema of its collection's elements, each setting with the
    schema of its key (the collections inside a setting, as `ast.tracks`, are walked as entities);
    a reference declared with ``"check": false`` is the editor's only.
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
    dangling: dict[tuple[str, str], list[tuple[Related, int]]] = {}
    for origin, sub, target, collection, what in references(ruleset):
        if not isinstance(target, str) or target in collection:
            continue
        removal = ruleset.removed.get(collection.name, {}).get(target)
        if removal is not None:
            dangling.setdefault((collection.name, target), []).append(
                (Related(origin.span(*sub), f"{what} `{target}` is still referred to here"), id(origin))
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
        referrers = [related for related, _ in found]
        entities = list(dict.fromkeys(owners[key] for _, key in found if key in owners))
        named = ", ".join(f"{entity_word(kind, ruleset.family)} `{key}`" for kind, key in entities[:5])
        named += f" and {len(entities) - 5} more" if len(entities) > 5 else ""
        count = len(referrers)
        yield diagnostic(
            "V006",
            f"{entity_word(name, ruleset.family)} `{target}` is removed, but {count} "
            f"{'references to it remain' if count > 1 else 'reference to it remains'}"
            + (f": {named}" if named else ""),
            removal.span(),
            _dangling_hint(target, entities),
            referrers,
        )


def _owners(ruleset: Ruleset) -> dict[int, tuple[str, str]]:
    """The collection and id of every entity, by the identity of its origin (what a reference carries)."""
    return {
        id(entity.origin): (collection.name, entity.id) for collection in ruleset.collections() for entity in collection
    }


def _dangling_hint(target: str, entities: list[tuple[str, str]]) -> str:
    """How to drop the references to a removed entity from the variant, naming where."""
    if not entities:
        return "patch or remove each referrer in this variant too (the notes point at them), or keep the entity"
    kind, key = entities[0]
    more = " (and likewise each referrer the notes point at)" if len(entities) > 1 else ""
    return (
        f"in this variant, patch `{key}` in `overlay.{kind}` to drop the reference{more}: a list element "
        f"goes with `{{remove: [SELECTOR]}}`, one inside an element with `{{patch: [{{where: SELECTOR, with: "
        f"{{...}}}}]}}`; or keep `{target}`"
    )
