"""Semantic checks over the resolved ruleset model: the register, and the checks every family shares.

Each concern is one module: the family-neutral ones here (``identity.py``, ``references.py``,
``citations.py``, ``unknowns.py``, ``disagreements.py``), a family's own in its room
(``civrules/families/<family>/checks/``). A check is a generator registered with :func:`check`:
its code, a name, a severity, and its docstring, which is the user documentation ``civrules
explain CODE`` prints (What / Why / Fix, with the smallest PASS and FAIL snippets). Adding a check
never touches the others. A family's checks run only on that family's rulesets.

The core's codes: ``I`` identity, ``X`` references, ``Q`` rule citations, unknown facts and
disagreements, ``R`` a ruleset's own facts (its `players` range, ``players.py``), and, outside
the checks, ``L`` loading, ``S`` schema, ``R`` rulesets' manifests, ``V`` variants. Each family owns
the prefixes it declares (:attr:`civrules.families.Family.code_prefixes`); a check whose code is
not of its room's prefixes is refused when the catalogue is first read.

This module is the register checks write into, and it imports none of them nor the register of
families: :mod:`civrules.checks.catalogue` imports every check (the core's and each family's) and
runs them. A check module imports this one; nothing here imports a check, so there is no cycle.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from civrules.diagnostics import Diagnostic, Related, Severity, Span, codes, named
from civrules.diagnostics.words import quoted
from civrules.families import families
from civrules.schema.references import is_remembering, remembered
from civrules.support.values import frozen_value

if TYPE_CHECKING:
    from civrules.model import Ruleset

#: A check's function: a family's checks take the family's model (a subclass of the core's Ruleset).
CheckFunction = Callable[[Any], Iterable[Diagnostic]]
R = TypeVar("R", bound="Ruleset")
T = TypeVar("T")


@frozen_value
class Check:
    code: codes.Code
    run: CheckFunction
    #: The id of the family whose rulesets the check runs on; None: every ruleset (the core's).
    #: Set by the catalogue, from the room of the check's module.
    family: str | None = None
    #: What the check, and what the model derives for it, reads: the collections (the family's
    #: collection names) whose entities it reads, or only some fields of them (`cards.copies`:
    #: an entity added or removed changes every field), or :data:`ALL_COLLECTIONS` for every one
    #: (a core check, which names no family's collections), the settings it reads (:func:`setting`,
    #: or :data:`SETTINGS` for any), and :data:`RULE_INDEX` if it reads the ruleset's rule index;
    #: None: it may read anything (its default). A long-running session runs it again only when
    #: one of them changed (see :mod:`civrules.pipeline.incremental`); what a manifest gives is
    #: always read again. A diagnostic a variant causes in its base goes to the variant's one
    #: change of what it reads (:func:`civrules.pipeline.caused_by_the_variant`): a check that
    #: names what it reads is located at the change that broke it, not at the variant's `overlay:`.
    reads: frozenset[str] | None = None
    #: What the check reads only to word its hints (named as :attr:`reads` names them): a
    #: session runs it again when one of them changes, as for :attr:`reads`, but a diagnostic a
    #: variant causes is not placed by a change of them (a variant removing a card and the
    #: special rule naming it: the finding goes to the card's removal, not to `overlay:`).
    #: Only with :attr:`reads` (a check that may read anything reads these too).
    hint_reads: frozenset[str] = frozenset()
    #: The model's fields its findings are made of (:func:`made_of`), and nothing else of the
    #: ruleset; None: it may read any field, and runs in each ruleset.
    made_of: tuple[str, ...] | None = None

    @property
    def all_reads(self) -> frozenset[str] | None:
        """Everything the check reads: :attr:`reads` and :attr:`hint_reads` (None: anything)."""
        return _declared(self)[0]

    @property
    def read_collections(self) -> frozenset[str]:
        """The collections (and :data:`RULE_INDEX`) of :attr:`all_reads`, whole or some of their fields."""
        return _declared(self)[1]

    def reads_any_of(self, collections: frozenset[str] | set[str]) -> bool:
        """Whether the check reads one of ``collections`` (collection names, or :data:`RULE_INDEX`),
        for its findings or its hints."""
        reads, named = _declared(self)
        if reads is None:
            return True
        if ALL_COLLECTIONS in reads and any(name != RULE_INDEX for name in collections):
            return True
        return not named.isdisjoint(collections)


_CHECKS: list[Check] = []

#: :attr:`Check.all_reads` and :attr:`Check.read_collections` of each check, with the check (an
#: id that matches names it): made once, not at each ask (a session asks them of each of a
#: ruleset's 90 checks in each ruleset an edit checks again, thirteen under an edit of a base).
_DECLARED: dict[int, tuple[Check, frozenset[str] | None, frozenset[str]]] = {}


def _declared(entry: Check) -> tuple[frozenset[str] | None, frozenset[str]]:
    found = _DECLARED.get(id(entry))
    if found is None or found[0] is not entry:
        every = entry.reads | entry.hint_reads if entry.reads is not None else None
        found = _DECLARED[id(entry)] = (entry, every, frozenset(name.partition(".")[0] for name in every or ()))
    return found[1], found[2]


#: The name in :attr:`Check.reads` of the ruleset's rule index (its `rulebook.rule_index` file).
RULE_INDEX = "rule_index"

#: The name in :attr:`Check.reads` of every setting (a check that may read any of them).
SETTINGS = "settings"

#: The name in :attr:`Check.reads` of every collection of the ruleset's family (a core check that
#: reads any entity: the core names no family's collections). Not a collection's name: those are
#: identifiers.
ALL_COLLECTIONS = "*"


def setting(key: str) -> str:
    """The name in :attr:`Check.reads` of the setting ``key`` (`limits`, `timing`): not a
    collection's name, whatever the family calls its collections.

    >>> setting("limits")
    'settings.limits'
    """
    return f"{SETTINGS}.{key}"


def check(
    code: str,
    name: str,
    severity: Severity,
    *,
    reads: Iterable[str] | None = None,
    hint_reads: Iterable[str] = (),
) -> Callable[[Callable[[R], Iterable[Diagnostic]]], Callable[[R], Iterable[Diagnostic]]]:
    """Register a check; its docstring becomes the documentation of ``code``.

    ``reads`` names the collections of rule data files it reads (see :attr:`Check.reads`); a check
    that names none may read anything and is run again after every edit. ``hint_reads`` names what
    it reads besides only to word its hints (:attr:`Check.hint_reads`).
    """
    if reads is None and hint_reads:
        raise ValueError(f"{code}: `hint_reads` without `reads` (a check that may read anything reads them too)")

    def register(function: Callable[[R], Iterable[Diagnostic]]) -> Callable[[R], Iterable[Diagnostic]]:
        entry = codes.define(code, name, severity, function.__doc__ or "")
        declared = frozenset(reads) if reads is not None else None
        _CHECKS.append(
            Check(
                entry,
                function,
                reads=declared,
                hint_reads=frozenset(hint_reads),
                made_of=getattr(function, MADE_OF, None),
            )
        )
        return function

    return register


#: The attribute :func:`made_of` gives the function it wraps: the fields it named (read by :func:`check`).
MADE_OF = "__civrules_made_of__"


def made_of(*fields: str) -> Callable[[Callable[[R], Iterable[T]]], Callable[[R], Iterator[T]]]:
    """A check whose findings are made of the model's ``fields`` and nothing else of the ruleset
    (its id, layers, files and other settings unread): collections, and settings (the model's
    fields made of them).

    What it finds is kept in a long-running session's memo
    (:func:`civrules.schema.references.remembered`) while those fields hold the very same
    objects: a base and each variant that holds its collections and settings as they are (a
    variant that writes none of a setting holds its base's) ask once per edit, not once each (an
    edit of a base under ten variants ran such a check over the same collections eleven times).
    Kept by identity, not by what they hold: a key made of a setting's value cost a walk of it, a
    map file's lists, at every ask. Without a session's memo the check runs as it is. Put it under
    :func:`check`, whose ``reads`` names no more than ``fields`` (or some of their fields);
    `tests/core/test_check_reads.py` runs every such check on a model that refuses a read of any
    other field.
    """
    if not fields:
        raise ValueError("made_of names the fields the findings are made of")

    def decorate(function: Callable[[R], Iterable[T]]) -> Callable[[R], Iterator[T]]:
        @functools.wraps(function)
        def kept(ruleset: R) -> Iterator[T]:
            if not is_remembering():  # a run of one ruleset: nothing to share
                yield from function(ruleset)
                return
            parts = [getattr(ruleset, name) for name in fields]
            found: tuple[T, ...] = remembered(parts[0], (function, *parts[1:]), lambda: tuple(function(ruleset)))
            yield from found

        setattr(kept, MADE_OF, fields)
        return kept

    return decorate


def diagnostic(
    code: codes.Code | str,
    message: str,
    span: Span | None,
    hint: str | None = None,
    related: Iterable[Related] = (),
    suggestion: str | None = None,
    *,
    subjects: Iterable[object] | None = None,
    from_variant: str | None = None,
) -> Diagnostic:
    """Build a diagnostic for a registered code (its severity comes from the registry).

    ``suggestion`` is the replacement for the text at ``span`` that a "did you mean" hint proposes.
    ``subjects`` are what it is about: the ids, keys, section numbers and files it names, as data
    (:attr:`Diagnostic.subjects`), what a `suppress:` entry's `target` is matched against. Every
    check of civrules names them (`tests/core/test_checks.py` holds each to its message); a
    family's check written before they existed names none, and its diagnostics are about the
    names their message quotes, so that the targets written for them silence what they did.
    ``from_variant`` is the fix as a variant writes it in its own overlay (:attr:`Diagnostic.from_variant`).
    """
    entry = codes.lookup(code) if isinstance(code, str) else code
    if entry is None:
        raise KeyError(f"unregistered diagnostic code {code}")
    about = named(subjects) if subjects is not None else tuple(dict.fromkeys(quoted(message)))
    return Diagnostic(
        entry.code,
        entry.severity,
        message,
        span,
        hint,
        tuple(related),
        suggestion,
        subjects=about,
        from_variant=from_variant,
    )


def cannot_judge(code: str, message: str, span: Span | None, hint: str, *, subjects: Iterable[object]) -> Diagnostic:
    """The one info a check gives where the data lacks the facts it needs (never a false error);
    ``subjects``: the ids of what lacks them."""
    return dataclasses.replace(diagnostic(code, message, span, hint, subjects=subjects), severity=Severity.INFO)


def entity_word(collection: str, family: str | None = None) -> str:
    """One entity of ``collection`` in words (``batteries`` → ``battery``), as ``family`` (or the
    first family that has such a collection) words it."""
    if collection == "rulesets":
        return "ruleset"
    known = families()
    candidates = [known[family]] if family is not None and family in known else list(known.values())
    for candidate in candidates:
        if collection in candidate.collections:
            return candidate.entity_word(collection)
    return collection
