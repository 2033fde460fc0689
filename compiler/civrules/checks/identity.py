"""Identity: every entity is named once and unambiguously."""

from __future__ import annotations

import keyword
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial

from civrules.checks import check, diagnostic, entity_word
from civrules.checks.references import flow
from civrules.diagnostics import Diagnostic, Related, Severity, blanks, words
from civrules.emit.packaging import ruleset_id_problems
from civrules.model import Collection, Entity, Origin, Ruleset
from civrules.schema.references import remembered


def collections(ruleset: Ruleset) -> list[Collection[Entity]]:
    """The collections whose ids must be unique (a family may key one otherwise: a map's borders are pairs)."""
    return [collection for collection in ruleset.collections() if collection.unique_ids]


def _patch_entry(key: str, target: str, entity: Entity, base: Entity) -> str:
    """The overlay patch entry that makes the base's ``base`` (named ``target`` by its ``key``) what
    the variant's own ``entity`` writes: each field ``entity`` gives otherwise, known, with a
    citation (the entity's own where it changes, else a blank for the designer's reason, L016)."""
    raw = entity.raw if isinstance(entity.raw, dict) else {}
    was = base.raw if isinstance(base.raw, dict) else {}
    changed = {name: value for name, value in raw.items() if name != key and was.get(name, _ABSENT) != value}
    if not changed.keys() & _CITATIONS:
        changed["source"] = blanks.HOUSE_RULE
    fields = "".join(f", {name}: {flow(value)}" for name, value in changed.items())
    return f"{{{key}: {flow(target)}{fields}}}"


def _changed_facts(key: str, entity: Entity, base: Entity) -> list[str]:
    """The fields the variant's ``entity`` gives otherwise than the base's ``base``, but for its
    citations and note (what a patch of it would change)."""
    raw = entity.raw if isinstance(entity.raw, dict) else {}
    was = base.raw if isinstance(base.raw, dict) else {}
    return [
        name
        for name, value in raw.items()
        if name != key and name not in _CITATIONS and name != "note" and was.get(name, _ABSENT) != value
    ]


_ABSENT = object()
#: The keys a fact is cited by (Q009 asks one of a patch that changes a fact).
_CITATIONS = frozenset(("rule", "source"))


@check("I001", "duplicate-id", Severity.ERROR)
def check_duplicate_ids(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two entities of one collection (two cards, two areas, two pieces ...) share an id.

    Why: references name entities by id, so one of the two can never be reached and every
    reference is ambiguous; generated code would define the same enum member twice.

    Fix: rename one of them (and its references), or delete the copy.

        cards:
          - id: lantern
          - id: lantern      # FAIL: second card with id `lantern`
    """
    for collection in collections(ruleset):
        pairs: tuple[tuple[Entity, Entity], ...] = remembered(
            collection, (_repeated_keys,), partial(_repeated_keys, collection)
        )
        uses = Counter(id(previous) for _, previous in pairs)
        for entity, previous in pairs:
            hint = "rename one of the two, or delete the copy"
            if ruleset.layer(entity.origin) > ruleset.layer(previous.origin):
                # A variant's own data file adds entities: restating one of the base's is not a change.
                patch = _patch_entry(entity.KEY_FIELD, previous.id, entity, previous)
                word = entity_word(collection.name, ruleset.family)
                hint = (
                    f"the base already has {word} `{entity.id}`: to change "
                    f"it, patch it in the variant's manifest (`overlay: {{{collection.name}: {{patch: [{patch}]}}}}`) "
                    f"and delete it here; or give this one a new id"
                )
                if not _changed_facts(entity.KEY_FIELD, entity, previous):
                    # a patch of its citation alone changes nothing (V013): the copy is the base's fact
                    hint = (
                        f"the base already has {word} `{entity.id}`, the same fact (its citation aside): delete it "
                        "here (a fact the variant does not change keeps the base's citation); or give this one a new id"
                    )
            yield diagnostic(
                "I001",
                f"{entity_word(collection.name, ruleset.family)} id `{entity.id}` is used "
                f"{words.times(uses[id(previous)] + 1)}",
                entity.origin.head(),
                hint,
                [Related(previous.origin.head(), "first defined here")],
                subjects=(entity.id,),
            )


def _slug(text: str) -> str:
    """How ``text`` reads: its letters and digits, whatever their case, width or form (NFKC), with
    `&` read as `and` and what prints as nothing (format characters, Cf) left out.

    >>> _slug("Sun & Moon"), _slug("Ｌａｎ\u200btern"), _slug("Ἀθῆναι"), _slug("Pão") != _slug("Pêo")
    ('sun_and_moon', 'lantern', 'ἀθῆναι', True)
    """
    if not text.isascii():
        # Every non-ASCII letter was dropped: two Greek names both read as "", the same. Folded
        # then composed (NFKC): a folded letter may come apart (`ῆ` into `η` and its accent).
        text = unicodedata.normalize("NFKC", text.casefold())
        text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = text.lower().replace("&", " and ")
    return re.sub(r"[\W_]+", "_", text).strip("_")


@check("I002", "duplicate-name", Severity.WARNING)
def check_duplicate_names(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two entities of one collection have names that read the same (ignoring case, spacing,
    punctuation and `&` for `and`), or one's name reads as another's id.

    Why: players and sheets show names; two "Sun & Moon" cards confuse everyone, and generated
    code derived from names would collide.

    Fix: give each entity its own name, or merge the two entities.

        - {id: sun_and_moon, name: Sun and Moon}
        - {id: sun, name: "Sun & Moon"}     # FAIL: reads as `sun_and_moon`
    """
    for collection in collections(ruleset):
        # what it finds is the collection's (the very object, whatever ruleset asks): a file's layer
        # is its place in every chain that reads it
        found: tuple[Diagnostic, ...] = remembered(
            collection,
            (_duplicate_names,),
            partial(_duplicate_names, collection, entity_word(collection.name, ruleset.family), ruleset.layer),
        )
        yield from found


def _repeated_keys(collection: Collection[Entity]) -> tuple[tuple[Entity, Entity], ...]:
    """Each entity of ``collection`` whose key an earlier one has, with the first that has it: what
    I001 reports (worded by the ruleset that asks: its layers say whose the copy is), found once for
    the same collection while a session's memo holds it, as :func:`_duplicate_names` is."""
    first: dict[str, Entity] = {}
    pairs = []
    for entity in collection.items:  # every entity written (iterating gives the first of an id)
        previous = first.setdefault(entity.key, entity)
        if previous is not entity:
            pairs.append((entity, previous))
    return tuple(pairs)


def _duplicate_names(
    collection: Collection[Entity], word: str, layer: Callable[[Origin], int]
) -> tuple[Diagnostic, ...]:
    """What I002 finds in one collection: found once for the same collection (the very object)
    while a session's memo holds it, whichever ruleset (a base, its variants) asks."""
    found: list[Diagnostic] = []
    first_by_slug: dict[str, Entity] = {}
    reported: set[frozenset[str]] = set()
    for entity in collection:
        if not isinstance(entity.name, str):
            continue
        slug = _slug(entity.name)
        clash = first_by_slug.get(slug) or collection.get(slug)
        first_by_slug.setdefault(slug, entity)
        if clash is None or clash.id == entity.id or frozenset((clash.id, entity.id)) in reported:
            continue
        reported.add(frozenset((clash.id, entity.id)))
        hint = f"give each {word} a name of its own"
        if layer(entity.origin) > layer(clash.origin):
            # a variant's entity named as one of its base's: the designer may mean to change that one
            patch = _patch_entry(entity.KEY_FIELD, clash.id, entity, clash)
            hint = (
                f"the base already has {word} `{clash.id}` named `{clash.display_name}`: to change it, write "
                f"`patch: [{patch}]` in the manifest's `overlay.{collection.name}` and drop "
                f"`{entity.id}`; or give `{entity.id}` a name of its own"
            )
        found.append(
            diagnostic(
                "I002",
                f"{word} `{entity.display_name}` (`{entity.id}`) reads the same as "
                f"`{clash.display_name}` (`{clash.id}`)",
                entity.origin.span("name") if entity.names_itself else entity.origin.head(),
                hint,
                [Related(clash.origin.head(), "the other one")],
                subjects=(entity.display_name, clash.display_name, clash.id),
            )
        )
    return tuple(found)


@check("I004", "mixed-script-name", Severity.WARNING)
def check_mixed_script_names(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a word of a name mixes letters of two alphabets that share shapes (Latin, Greek,
    Cyrillic, Armenian, Cherokee, Coptic): a Cyrillic `а` (U+0430) in a Latin `Lantern`.

    Why: the word looks like another entity's name on a sheet, in a review and in an editor, yet
    it is another string: a player or a search cannot tell the two apart, and an engine matching
    names finds the wrong one (Unicode TR39's mixed-script detection; Rust warns of such
    identifiers, `mixed_script_confusables`). A word in one alphabet, and a name whose words are
    each in one (`Ελληνικά (Greek)`), are what sources print.

    Fix: type the word again in one alphabet (text copied from a web page or a PDF may bring in
    another's letters).

        - {id: lantern, name: Lantern}          # PASS
        - {id: lamp, name: "L\u0430ntern"}       # FAIL: a Cyrillic `а` among Latin letters
    """
    for collection in collections(ruleset):
        found: tuple[Diagnostic, ...] = remembered(
            collection, (_mixed_script_names,), partial(_mixed_script_names, collection)
        )
        yield from found


#: The alphabets whose letters share shapes (TR39's confusables are mostly among them).
_LOOKALIKE_SCRIPTS = frozenset(("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC"))


def _mixed_script_names(collection: Collection[Entity]) -> tuple[Diagnostic, ...]:
    """What I004 finds among one collection's names, kept as :func:`_duplicate_names` is."""
    found = []
    for entity in collection:
        name = entity.name
        if not isinstance(name, str) or name.isascii():
            continue
        for word in re.findall(r"\w+", name):
            scripts: dict[str, str] = {}  # alphabet: its first letter in the word
            for letter in word:
                script = unicodedata.name(letter, "").partition(" ")[0]
                if script in _LOOKALIKE_SCRIPTS:
                    scripts.setdefault(script, letter)
            if len(scripts) < 2:
                continue
            letters = ", ".join(
                f"`{letter}` (U+{ord(letter):04X} {unicodedata.name(letter)})" for letter in scripts.values()
            )
            found.append(
                diagnostic(
                    "I004",
                    f"{collection.name}: the name `{entity.display_name}` (`{entity.id}`) mixes alphabets in "
                    f"`{word}`: {letters}",
                    entity.origin.span("name") if entity.names_itself else entity.origin.head(),
                    f"type `{word}` again in one alphabet: it looks like a word it is not",
                    subjects=(entity.display_name, entity.id),
                )
            )
            break
    return tuple(found)


@check("I005", "confusable-names", Severity.WARNING)
def check_confusable_names(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: two entities of one collection have names that look the same but are written in other
    letters: `Paper` and `Рарег`, every letter of it Cyrillic, or `Сова` in Cyrillic and `Cова`
    with a Latin `C`. Their skeletons (Unicode Technical Standard #39, from Unicode's
    `confusables.txt` 17.0.0) are equal, though each word may be in one alphabet (which I004,
    a word mixing alphabets, does not see).

    Why: a sheet, a review and an editor show the two alike, yet they are other strings: a player
    cannot tell which card is meant, and an engine matching names finds the wrong one. Names
    that read the same letter for letter are I002's; two names written in ASCII alone are not
    judged here (`Corn` and `Com` are told apart by the sources that print them).

    Fix: give one of the two a name of its own, or type it again in the alphabet of its source.

        - {id: paper, name: Paper}
        - {id: scroll, name: "\u0420\u0430\u0440\u0435\u0433"}     # FAIL: Cyrillic letters that look like `Paper`
    """
    for collection in collections(ruleset):
        found: tuple[Diagnostic, ...] = remembered(
            collection,
            (_confusable_names,),
            partial(_confusable_names, collection, entity_word(collection.name, ruleset.family)),
        )
        yield from found


def _confusable_names(collection: Collection[Entity], word: str) -> tuple[Diagnostic, ...]:
    """What I005 finds among one collection's names, kept as :func:`_duplicate_names` is. Only a
    collection holding a name beyond ASCII is looked at, and each pair reported once."""
    named = [(entity, entity.name) for entity in collection if isinstance(entity.name, str)]
    if all(name.isascii() for _, name in named):
        return ()
    from civrules.support.confusables import skeleton

    found = []
    first: dict[str, tuple[Entity, str]] = {}
    for entity, name in named:
        other, its = first.setdefault(skeleton(name), (entity, name))
        if other is entity or other.id == entity.id or (name.isascii() and its.isascii()):
            continue
        if its == name or _slug(its) == _slug(name):
            continue  # the same name, or one that reads the same letter for letter: I002's
        found.append(
            diagnostic(
                "I005",
                f"{word} `{entity.display_name}` (`{entity.id}`) looks the same as `{other.display_name}` "
                f"(`{other.id}`) but is written in other letters: {_letters_apart(name, its)}",
                entity.origin.span("name") if entity.names_itself else entity.origin.head(),
                f"give `{entity.id}` a name of its own, or type it again in the alphabet of its source",
                [Related(other.origin.head(), "the one it looks like")],
                subjects=(entity.display_name, other.display_name, other.id),
            )
        )
    return tuple(found)


def _letters_apart(one: str, other: str) -> str:
    """The first letter where ``one`` and ``other`` differ, each named (what the reader cannot see)."""
    for mine, theirs in zip(unicodedata.normalize("NFD", one), unicodedata.normalize("NFD", other), strict=False):
        if mine != theirs:
            return f"`{mine}` (U+{ord(mine):04X} {unicodedata.name(mine, '?')}) where the other has `{theirs}` " + (
                f"(U+{ord(theirs):04X} {unicodedata.name(theirs, '?')})"
            )
    return "one is longer, by letters that print as nothing"


@check("I003", "unusable-identifier", Severity.ERROR)
def check_identifiers(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an id that cannot become a Python identifier in the generated engine modules: a Python
    keyword (`class`, `import`), a soft keyword (`match`, `type`), or a dunder name (`__import__`);
    or a ruleset id that cannot name what civrules generates for it: one that is not kebab-case
    (lower-case letters and digits, words joined by single hyphens), whose package name (hyphens
    as underscores) is a keyword, that is a Windows device name (`con`, `prn`, `aux`, `nul`,
    `com0`-`com9`, `lpt0`-`lpt9`), or that is longer than 100 characters.

    Why: `civrules build` turns ids into enum members and mapping keys, and a ruleset id into the
    package `civrules_rulesets.<id>` and the distribution `civrules-rulesets-<id>`; a keyword would
    not compile or import, and a dunder would shadow Python machinery. pip reads `-`, `_` and `.`
    alike and folds case, so `civrules-rulesets-a--b` is `civrules-rulesets-a-b`: installing one
    would uninstall the other; kebab-case ids are never read as another. (Any other id is safe:
    the namespaces keep a ruleset `pip`, `yaml` or `runtime-chess` from replacing what another
    program installed, a runtime or a game family included, so the verdict never depends on the
    machine that builds.) A ruleset id also names folders and files (its manifest, its sheets, its
    helper): Windows can create none named as a device, and file systems limit a name to 255 bytes.

    Fix: choose another id (`class_` or a more specific word; `house-rules` for a ruleset).

        - id: import      # FAIL: a Python keyword
    """
    for problem in ruleset_id_problems(ruleset.id):
        yield diagnostic(
            "I003",
            problem.message,
            ruleset.manifest.span("id"),
            f"{problem.hint} (and name the manifest file after it)",
            subjects=(ruleset.id,),
        )
    for collection in collections(ruleset):
        found: tuple[Diagnostic, ...] = remembered(collection, (_unusable_ids,), partial(_unusable_ids, collection))
        yield from found


def _unusable_ids(collection: Collection[Entity]) -> tuple[Diagnostic, ...]:
    """What I003 finds among one collection's ids, kept as :func:`_duplicate_names` is."""
    return tuple(
        diagnostic(
            "I003",
            f"{collection.name}: id `{entity.id}` cannot be used as a Python identifier",
            entity.origin.head(),
            f"rename it, e.g. `{entity.id.strip('_')}_{collection.name.rstrip('s')}`",
            subjects=(entity.id,),
        )
        for entity in collection
        if _unusable(entity.id)
    )


def _unusable(name: str) -> bool:
    return (
        keyword.iskeyword(name)
        or keyword.issoftkeyword(name)
        or name.startswith("__")
        or name.upper() in {"MAPPING", "FINAL"}
    )
