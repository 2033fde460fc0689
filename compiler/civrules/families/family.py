"""What a game family is: the :class:`Family` object a family's room declares.

This module is the contract between the core and a family, and it imports nothing of either: a
family's room imports it to declare itself, the register (:mod:`civrules.families`) imports the
rooms to find them, and neither depends on the other's module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from civrules.diagnostics import words
from civrules.support.values import frozen_value

#: The letters of the codes the core's own diagnostics use (loading, schema, resolution, identity,
#: references, citations and unknown facts, variants); no family may take them.
CORE_PREFIXES = ("I", "L", "Q", "R", "S", "V", "X")

FAMILY_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
PREFIX = re.compile(r"^[A-Z]$")

#: The hooks the core asks a family for, by name, each with what it is given and returns
#: (:attr:`Family.hooks`). A family that declares another name is refused when the register is
#: first read: the core would never call it, silently.
HOOKS: Mapping[str, str] = {
    "assemble": "resolved ruleset → the family's typed model (required)",
    "export": "the derived facts `civrules export` adds",
    "package": "the files of a ruleset's engine package",
    "runtime": "the files of the family's runtime distribution",
    "variant_example": "the commented examples `civrules new-variant` writes under the core's header",
    "helpers": "model → the interactive helper page's part (civrules.emit.helpers.HelperPage)",
    "checked": "called with the model once `civrules build` has checked it, to let go of what only the checks need",
}

#: What a hook names: ``module:attribute``, a dotted import path and a name in it.
HOOK_TARGET = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


@frozen_value
class HoverList:
    """A list field an editor's hover reads element by element, each as ``amount to target``:
    ``HoverList("credits", "points", ("card", "group"))`` reads ``credits: 10 to crafts, 20 to
    military``. An element's target is the first of ``targets`` it gives."""

    field: str
    #: The field of an element that holds its amount (``points``).
    amount: str
    #: The fields of an element that name what it goes to, in the order tried.
    targets: tuple[str, ...]
    #: The word between the amount and the target.
    joiner: str = "to"


@frozen_value
class Hover:
    """What an editor's hover shows of an entity of a collection, besides what every entity's
    shows (its name, its id and kind in words, its rule, where it is defined, the rulesets that
    resolve it).

    A collection that declares none shows only that: the core cannot tell which of a game's fields
    a player looks for, and reads no game's fields in another's.

    >>> Hover(facts=("cost", "groups"), lists=(HoverList("credits", "points", ("card", "group")),)).facts
    ('cost', 'groups')
    """

    #: The fields shown as ``field: value`` on one line, in this order, each where the entity has it.
    facts: tuple[str, ...] = ()
    #: The lists shown one line each, element by element (:class:`HoverList`).
    lists: tuple[HoverList, ...] = ()


@frozen_value
class Continuation:
    """How an entity of a collection continues one read before it, in a later file of the same
    ruleset: one that has the key of an entity read before and writes ``marker`` (the file it
    continues) adds its ``extends`` lists to that entity's, which then records the continuing file
    as where those fields were last changed. An entity with the marker that continues nothing is
    kept as its own entry (the family's checks report it).
    """

    #: The field that marks a continuation (it names what is continued).
    marker: str
    #: The list fields a continuation adds to the entity it continues, in this order.
    extends: tuple[str, ...]


@frozen_value
class CollectionSpec:
    """Where a collection of a family lives and how its entities are keyed.

    ``slot`` is the manifest's file slot that holds it (``ruleset``: the manifest itself), ``path``
    the keys down to its list in such a file, ``key`` the field that identifies an entity. Two
    ways of keying besides one field: ``qualifier`` (an entity per key *and* qualifier, written
    ``key@qualifier``), and ``pair`` (the key is a pair of ids in either order, written ``a|b``).
    """

    slot: str
    path: tuple[str, ...]
    key: str = "id"
    qualifier: str | None = None
    pair: bool = False
    #: One entity in words (``card group``), for messages.
    word: str = ""
    #: What an editor's hover shows of an entity (:class:`Hover`; none declared: its name, rule and place).
    hover: Hover = Hover()
    #: How an entity continues one read before it in another file (:class:`Continuation`), if it can.
    continuation: Continuation | None = None

    def naming(self, key: str) -> str:
        """The fields that name the entity of key ``key`` (as the resolver keys it) in an overlay
        entry, in YAML's flow style: what a hint tells a designer to write.

        >>> CollectionSpec("ruleset", ("nations",)).naming("egypt")
        'id: egypt'
        >>> CollectionSpec("ruleset", ("ast", "tracks"), "nation", qualifier="level").naming("kushan@basic")
        'nation: kushan, level: basic'
        >>> CollectionSpec("map", ("borders",), "areas", pair=True).naming("crete|cyprus")
        'areas: [crete, cyprus]'
        """
        if self.pair and "|" in key:
            first, _, second = key.partition("|")
            return f"{self.key}: [{first}, {second}]"
        if self.qualifier is not None and "@" in key:
            value, _, qualifier = key.rpartition("@")
            return f"{self.key}: {value}, {self.qualifier}: {qualifier}"
        return f"{self.key}: {key}"

    def fields_of(self, key: str) -> dict[str, object]:
        """The fields that name the entity of key ``key`` (as the resolver keys it) in an overlay
        entry, as values: what :meth:`naming` writes, for a machine to read (``civrules diff
        --format json``).

        >>> CollectionSpec("map", ("borders",), "areas", pair=True).fields_of("crete|cyprus")
        {'areas': ['crete', 'cyprus']}
        >>> CollectionSpec("ruleset", ("ast", "tracks"), "nation", qualifier="level").fields_of("kushan@basic")
        {'nation': 'kushan', 'level': 'basic'}
        >>> CollectionSpec("ruleset", ("nations",)).fields_of("egypt")
        {'id': 'egypt'}
        """
        if self.pair and "|" in key:
            first, _, second = key.partition("|")
            return {self.key: [first, second]}
        if self.qualifier is not None and "@" in key:
            value, _, qualifier = key.rpartition("@")
            return {self.key: value, self.qualifier: qualifier}
        return {self.key: key}

    @property
    def naming_fields(self) -> tuple[str, ...]:
        """The fields an overlay entry names its entity by: the key, and the qualifier where the
        collection has one (a `patch` writing `level: basic` selects the basic track; it changes
        nothing of it).

        >>> CollectionSpec("ruleset", ("ast", "tracks"), "nation", qualifier="level").naming_fields
        ('nation', 'level')
        """
        return (self.key,) if self.qualifier is None else (self.key, self.qualifier)

    @property
    def composite(self) -> bool:
        """Whether an entity is keyed by more than one field's value (a pair, or a key and a
        qualifier): its resolver's key (``a|b``, ``key@qualifier``) is no text a designer writes."""
        return self.pair or self.qualifier is not None

    def shown(self, key: str) -> str:
        """The entity of key ``key`` (as the resolver keys it) as a message names it: its id in
        backquotes, or, keyed by a pair or a qualifier, the fields an overlay entry names it by (a
        designer writes `areas: [crete, cyprus]`, never the resolver's `crete|cyprus`).

        >>> CollectionSpec("map", ("borders",), "areas", pair=True).shown("crete|cyprus")
        '`areas: [crete, cyprus]`'
        >>> CollectionSpec("ruleset", ("nations",)).shown("egypt")
        '`egypt`'
        """
        if (self.pair and "|" in key) or (self.qualifier is not None and "@" in key):
            return words.shown(self.naming(key))
        return words.shown(key)

    @property
    def named_by(self) -> str:
        """The fields an overlay entry names an entity by, in words (`` `nation` and `level` ``)."""
        if self.qualifier is not None:
            return f"`{self.key}` and, where the ruleset has several per {self.key}, `{self.qualifier}`"
        if self.pair:
            return f"`{self.key}` (the pair, in either order)"
        return f"`{self.key}`"


class FamilyError(Exception):
    """A family that cannot be registered (a bad id, a prefix another family or the core holds).

    ``family`` is the entry point's name, and ``distribution`` the name of the installed
    distribution that declares it and the folder it is installed in, where known: the command line
    names them (R019), since the fault is that distribution's.
    """

    def __init__(self, message: str, *, family: str | None = None, distribution: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.family = family
        self.distribution = distribution


#: Top-level keys any data file may have that describe the file itself rather than state rules.
FILE_METADATA = frozenset({"kind", "id", "name", "source", "rule", "note"})


@frozen_value
class Family:
    """What one game family adds to the core.

    Parameters
    ----------
    id:
        The value of a manifest's ``family:`` (``advanced-civilization``).
    name:
        The family in words, for listings (``Advanced Civilization``).
    package:
        The import package of the family's room; its checks and sheets are modules under it.
    code_prefixes:
        The letters that begin the codes of the family's checks. One letter each, so that
        ``--select``/``--ignore``, which match by prefix, never select two families at once.
    kinds:
        The file kinds the family reads, each with its schema file (relative to ``schemas/``).
        ``ruleset`` (its manifests) is required. Two families may use the same kind names: a
        file is read as a kind of the family of the ruleset that uses it.
    slots:
        The manifest's file slots (``files: {slot: [paths]}``), each with the kind its files
        must declare.
    collections:
        The family's collections of entities by name: where each lives and how it is keyed
        (:class:`CollectionSpec`); a variant's ``overlay:`` changes them by name.
    settings:
        The family's settings (every top-level fact that is not a collection) by the slot of
        the file that holds them; a variant changes them in ``overlay: settings:``.
    checks:
        Packages whose every module registers checks of this family.
    sheets:
        Packages whose every module registers sheets of this family.
    hooks:
        ``name → "module:attribute"`` of the family's functions, imported when first asked for;
        the names are :data:`HOOKS` (any other is refused when the register is read):
        ``assemble`` (resolved ruleset → typed model; required), ``export`` (the derived facts
        ``export`` adds), ``package`` (the engine package's files), ``runtime`` (the runtime's
        files), ``variant_example`` (resolved base → the commented examples ``civrules
        new-variant`` writes under the core's header, taken from the base's data), ``helpers``
        (model → the interactive helper page's part, :class:`civrules.emit.helpers.HelperPage`;
        a family without one gets a page that says so) and ``checked`` (called with the model
        once ``civrules build`` has checked the ruleset, to let go of what only the checks need).
    element_keys:
        The fields of the family's data that name an element of a list of mappings (a modifier by
        its ``card``, a track by its ``nation``), in the order they are tried: what a field path
        prints in brackets (Q006's ``items[a].cost``, ``civrules diff``'s paths), before an
        element's place. ``id`` is tried first and a collection's own key after these, whether
        declared or not (:attr:`naming_keys`), so a family that declares none still names its
        elements by their ids.
    file_keys:
        Top-level keys of the family's data files that describe the file rather than state a rule
        (a map file's ``panel``), besides those every file may have (:data:`FILE_METADATA`): no
        setting is made of them, and no variant changes them.
    default:
        Whether a manifest without ``family:`` belongs to this family (one family at most).
    schemas:
        The import package whose files are the schemas named in ``kinds`` (for a family that is a
        distribution of its own); None for the families shipped with civrules (``schemas/``).
    named_ids:
        The ids the family's own code or schemas name (a check, the model, the runtime, a sheet,
        a schema's fixed set), by collection, each with what names it in words: an editor's rename
        refuses them, since it would rewrite the data and leave the family's rules naming the old
        id (its checks then report every use of the new one).
    """

    id: str
    name: str
    package: str
    code_prefixes: tuple[str, ...]
    kinds: Mapping[str, str] = field(default_factory=dict)
    slots: Mapping[str, str] = field(default_factory=dict)
    collections: Mapping[str, CollectionSpec] = field(default_factory=dict)
    settings: Mapping[str, str] = field(default_factory=dict)
    checks: tuple[str, ...] = ()
    sheets: tuple[str, ...] = ()
    hooks: Mapping[str, str] = field(default_factory=dict)
    element_keys: tuple[str, ...] = ()
    file_keys: frozenset[str] = frozenset()
    default: bool = False
    #: The import package that holds the family's schema files (a family from a distribution of
    #: its own ships them there); None: they are civrules' own, under ``schemas/``.
    schemas: str | None = None
    #: ``collection → {id: what names it}``: the ids the family's rules name (:attr:`named_ids`).
    named_ids: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def named_by(self, collection: str, identifier: str) -> str | None:
        """What of the family's rules names ``identifier`` of ``collection`` (in words), or None
        where nothing does.

        >>> family = Family("x", "X", "x", ("Y",), named_ids={"rows": {"top": "the layout check (Y001)"}})
        >>> family.named_by("rows", "top"), family.named_by("rows", "bottom")
        ('the layout check (Y001)', None)
        """
        return self.named_ids.get(collection, {}).get(identifier)

    def describes_file(self, key: str) -> bool:
        """Whether the top-level ``key`` of one of the family's data files describes the file
        (:data:`FILE_METADATA`, :attr:`file_keys`) rather than states a setting."""
        return key in FILE_METADATA or key in self.file_keys

    def hook(self, name: str) -> Callable[..., Any] | None:
        """The family's function ``name`` (imported now), or None where the family has none."""
        target = self.hooks.get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
        return found

    @property
    def naming_keys(self) -> tuple[str, ...]:
        """The fields that name an element of a list, in the order they are tried: ``id``, the
        family's :attr:`element_keys`, then the key of each collection keyed by one field.

        >>> Family("x", "X", "x", ("Y",)).naming_keys
        ('id',)
        >>> Family("x", "X", "x", ("Y",), collections={"rows": CollectionSpec("ruleset", ("rows",), "row")},
        ...        element_keys=("slot", "id")).naming_keys
        ('id', 'slot', 'row')
        """
        keys = ("id", *self.element_keys)
        keys += tuple(spec.key for spec in self.collections.values() if not spec.pair)
        return tuple(dict.fromkeys(keys))

    @property
    def pair_keys(self) -> tuple[str, ...]:
        """The fields that name an element by a pair of ids (written ``a|b``): the keys of the
        family's collections keyed by a pair."""
        return tuple(dict.fromkeys(spec.key for spec in self.collections.values() if spec.pair))

    def owns_code(self, code: str) -> bool:
        return code[:1] in self.code_prefixes

    def qualified_kind(self, kind: str) -> str:
        """The kind as the schema register knows it: the default family's kinds by their own
        names (their schemas are at the top of ``schemas/``), another family's as ``<id>/<kind>``."""
        return kind if self.default else f"{self.id}/{kind}"

    def slot_kind(self, slot: str) -> str:
        """The qualified kind of the files of a manifest's slot (``ruleset``: the manifest itself)."""
        return self.qualified_kind(self.slots.get(slot, slot))

    def entity_word(self, collection: str) -> str:
        """One entity of ``collection`` in words (``calamities`` → ``calamity``)."""
        spec = self.collections.get(collection)
        return spec.word if spec is not None and spec.word else collection
