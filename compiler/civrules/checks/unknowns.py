"""Unknown facts: every `{unknown: why}` in a ruleset's data, so what the sources lack stays visible.

Raw reads, on purpose: an unknown fact may be any value of any document, so the check walks every
node of every document (with :func:`civrules.checks.citations.walked`) instead of a family's model.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from civrules.checks import check, diagnostic
from civrules.checks.citations import document_walk, replaced_at, walks_of
from civrules.diagnostics import Diagnostic, Severity
from civrules.diagnostics.escape import printable
from civrules.diagnostics.words import ticked
from civrules.families import Family, family_named
from civrules.load import Limits
from civrules.load.document import Document, NodePath
from civrules.load.names import SHIPPED
from civrules.model import Ruleset
from civrules.support import memo
from civrules.support.commands import command

#: How many diagnostics per file the output lists unless told otherwise (`--max-diagnostics`).
DEFAULT_PER_FILE = Limits().max_diagnostics


def is_unknown(node: Any) -> bool:
    """True for an `{unknown: why}` mapping (the only key is `unknown`)."""
    return isinstance(node, dict) and set(node) == {"unknown"}


_found: list[tuple[Ruleset, list[tuple[Document, NodePath, str]]]] = []


def unknown_facts(ruleset: Ruleset) -> Iterator[tuple[Document, NodePath, str]]:
    """Every unknown fact in the ruleset's manifests and data files, once, in document order.

    The rule index is left out: its unknowns (an unprinted section's title) are about the
    transcription of the rulebook, not facts of the game. So is what a variant replaced.
    Found once per ruleset for the checks that read them (one walk of the data, not one per check).
    """
    if not _found or _found[0][0] is not ruleset:
        _found[:] = [(ruleset, list(_find_unknown_facts(ruleset)))]
    return iter(_found[0][1])


def forget_unknown_facts() -> None:
    """Let go of the last ruleset's unknown facts (a build, once the ruleset is checked)."""
    _found.clear()


def _find_unknown_facts(ruleset: Ruleset) -> Iterator[tuple[Document, NodePath, str]]:
    for document, facts, _ in unknown_facts_by_document(ruleset):
        for path, reason in facts:
            yield document, path, reason


def unknown_facts_by_document(ruleset: Ruleset) -> Iterator[tuple[Document, tuple[tuple[NodePath, str], ...], bool]]:
    """:func:`unknown_facts` a document at a time: each document, its unknown facts, and whether
    they are all of its walk's (no variant replaced a node of it). Those depend on the document
    alone, so what is made of them is kept with it (Q006's notes): a base's file is looked through
    once, not again in each ruleset reading it; an edit looks through the documents it read again."""
    index_document = ruleset.rule_index.origin.document if ruleset.rule_index and ruleset.rule_index.origin else None
    for document, walk, paths in walks_of(ruleset, index_document):
        if paths is None:
            yield document, walk.unknowns, True
        else:
            yield document, _unreplaced(document, walk.unknowns, paths), False


def _unreplaced(
    document: Document, unknowns: tuple[tuple[NodePath, str], ...], paths: set[NodePath]
) -> tuple[tuple[NodePath, str], ...]:
    """The unknown facts of ``document`` (its walk's ``unknowns``) at no node of ``paths`` (those a
    variant replaced): what depends on the document and the paths alone, found once for each set
    of paths, the very tuple for every ruleset replacing the same nodes. Each variant of a base
    that writes no setting replaces the same keys of the base's manifest (its `id` and `name`), and
    looked through the base manifest's unknown facts again (95 in the largest shipped one's, twelve
    rulesets under an edit of the base); Q006 then tells them once for the tuple (:data:`_said_part`)."""
    kept = _unreplaced_facts.get(document)
    if kept is None:
        kept = _unreplaced_facts.put(document, {})
    key = frozenset(paths)
    found = kept.get(key)
    if found is None:
        if len(kept) >= _SETS_KEPT:
            kept.clear()
        found = kept[key] = tuple((path, reason) for path, reason in unknowns if not replaced_at(path, paths))
    return found


#: The unknown facts of :func:`_unreplaced`, by the set of paths replaced, kept with the document
#: (never holding it: the facts are paths and reasons) for as long as it lives.
_unreplaced_facts: memo.Attached[Document, dict[frozenset[NodePath], tuple[tuple[NodePath, str], ...]]] = (
    memo.Attached()
)

#: How many sets of replaced paths a document's entry keeps (each chain shape reading it has one).
_SETS_KEPT = 8


def field_path(data: Any, path: NodePath, family: Family) -> str:
    """A readable path: an element of a list named by the first of the family's naming keys it
    has (:attr:`~civrules.families.Family.naming_keys`), or by its pair of ids, else by its place.

    >>> family = Family("x", "X", "x", ("Y",), element_keys=("slot",))
    >>> data = {"items": [{"id": "a", "cost": 1}], "rows": [{"slot": 2}, {"size": 1}]}
    >>> field_path(data, ("items", 0, "cost"), family), field_path(data, ("rows", 0), family)
    ('items[a].cost', 'rows[2]')
    >>> field_path(data, ("rows", 1, "size"), family)
    'rows[1].size'
    """
    naming, pairs = _keys_of(family)
    out = ""
    node = data
    for part in path:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            label: Any = part
            if isinstance(item, dict):
                label = next(
                    (item[k] for k in naming if isinstance(item.get(k), (str, int)) and not is_unknown(item[k])),
                    None,
                )
                if label is None:
                    label = next(
                        (
                            "|".join(item[k])
                            for k in pairs
                            if isinstance(item.get(k), list) and all(isinstance(a, str) for a in item[k])
                        ),
                        None,
                    )
                if label is None:
                    label = part
            out += f"[{label}]"
            node = item
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or "(document)"


def _keys_of(family: Family) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The family's naming keys and pair keys, made once per family (a family's properties make
    them anew at each ask, from its every collection: 190 times in a validate of the largest
    shipped ruleset, for its 95 unknown facts)."""
    found = _keys.get(family.id)
    if found is None or found[0] is not family:
        found = _keys[family.id] = (family, family.naming_keys, family.pair_keys)
    return found[1], found[2]


#: What :func:`_keys_of` made, by family id, with the family it was made of.
_keys: dict[str, tuple[Family, tuple[str, ...], tuple[str, ...]]] = {}


#: Each unknown fact's field as :func:`field_path` names it, by family and path, kept with its
#: document for as long as it lives (see `citations.document_walk`): Q006 names it, and so does each
#: family's package (its table of unknown facts, and a family's list of the tables left unknown).
#: Named anew by each, a build of the largest shipped ruleset walked down 285 paths from their
#: documents' tops for its 95 unknown facts.
_fields: memo.Attached[Document, dict[tuple[str, NodePath], str]] = memo.Attached()


def fact_field(document: Document, path: NodePath, family: Family) -> str:
    """:func:`field_path` of the node at ``path`` of ``document`` (an unknown fact's), named once
    while the document lives (it never changes once read)."""
    named = _fields.get(document)
    if named is None:
        named = _fields.put(document, {})
    found = named.get((family.id, path))
    if found is None:
        found = named[family.id, path] = field_path(document.data, path, family)
    return found


@check("Q006", "unknown-fact", Severity.INFO)
def check_unknown_facts(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a fact is recorded as `{unknown: why}`: the sources do not give it.

    Why: unknown facts are kept explicit rather than guessed (never 0 or empty); checks skip them
    and generated code exposes them as unknown. This note lists each one, with its reason, so a
    designer sees what is still to be found.

    Fix: when a source gives the fact, write it (with its `rule:` or `source:`) in place of the
    unknown mapping.

        colour:
          unknown: "no source names the north's colour"   # INFO: sides[north].colour is unknown
    """
    family = family_named(ruleset.family)
    assert family is not None  # a ruleset is read only by a family installed
    for document, facts, whole in unknown_facts_by_document(ruleset):
        if not whole:
            part = _said_part.get(document)
            if part is None:
                part = _said_part.put(document, {})
            told = part.get((family.id, id(facts)))
            if told is None or told[0] is not facts:
                if len(part) >= _SETS_KEPT:
                    part.clear()
                told = part[family.id, id(facts)] = (
                    facts,
                    tuple(_unknown_fact(document, path, reason, family) for path, reason in facts),
                )
            yield from told[1]
            continue
        said = _said_whole.get(document)
        if said is None:
            said = _said_whole.put(document, {})
        found = said.get(family.id)
        if found is None:
            found = said[family.id] = tuple(_unknown_fact(document, path, reason, family) for path, reason in facts)
        yield from found


#: Q006 of every unknown fact of a document no variant replaced a node of, by family: kept with
#: the document as :data:`_said` is, so each ruleset reading it takes them whole.
_said_whole: memo.Attached[Document, dict[str, tuple[Diagnostic, ...]]] = memo.Attached()


#: Q006 of the unknown facts :func:`_unreplaced` left of a document, by family and the tuple's
#: identity (the entry holds the tuple: an id that matches names it): kept with the document.
_said_part: memo.Attached[
    Document, dict[tuple[str, int], tuple[tuple[tuple[NodePath, str], ...], tuple[Diagnostic, ...]]]
] = memo.Attached()


#: Q006 of one unknown fact depends only on its document: kept with the document, for as long as
#: it lives (see `citations.document_walk`), so a long-lived session builds it again only for an
#: edited file, and keeps nothing of the versions it let go.
_said: memo.Attached[Document, dict[tuple[str, NodePath], Diagnostic]] = memo.Attached()


def _unknown_fact(document: Document, path: NodePath, reason: str, family: Family) -> Diagnostic:
    said = _said.get(document)
    if said is None:
        said = _said.put(document, {})
    found = said.get((family.id, path))
    if found is None:
        named = fact_field(document, path, family)
        found = said[family.id, path] = diagnostic(
            "Q006",
            f"`{named}` is unknown",
            document.span(path),
            " ".join(reason.split()),
            subjects=(named,),
        )
    return found


@check("Q007", "unknown-facts-summary", Severity.INFO)
def check_unknown_summary(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a summary of the ruleset's unknown facts: how many, and in which files.

    Why: the count is a measure of how complete the ruleset is; a change of it in review shows a
    fact found (or lost).

    Fix: nothing to fix here; see Q006 for each unknown fact. In a variant of a ruleset shipped
    with civrules, the unknown facts of the shipped files (named `<civrules>/...`) are civrules' to
    find: the variant's own listing leaves them out, and the hint names the command that lists
    them, the shipped base's (`civrules validate my-game --select Q006`).

        id: my-game   # INFO: N unknown facts: n1 in rulesets/my-game.yaml, ...
    """
    by_document: dict[int, tuple[Document, int]] = {}
    for document, facts, _ in unknown_facts_by_document(ruleset):
        if facts:
            _, n = by_document.get(id(document), (document, 0))
            by_document[id(document)] = (document, n + len(facts))
    by_file: dict[str, int] = {}
    # A ruleset of the user's own lists the Q006 of its own files only: those in the files shipped
    # with civrules are civrules' (pipeline._own), listed by validating the shipped base itself.
    own_ruleset = not ruleset.file_name(ruleset.manifest.file).startswith(SHIPPED)
    shipped: dict[str, tuple[Document, int]] = {}
    for document, n in by_document.values():
        name = ruleset.file_name(document.file)
        by_file[name] = by_file.get(name, 0) + n
        if own_ruleset and name.startswith(SHIPPED):
            shipped[name] = (document, shipped.get(name, (document, 0))[1] + n)
    total = sum(by_file.values())
    if not total:
        return
    files = ", ".join(f"{n} in {printable(name)}" for name, n in by_file.items())
    own = [n for name, n in by_file.items() if name not in shipped]
    hints = []
    if own:
        whose = " of its own files" if shipped else ""
        hints.append(f"{ticked(_listing(ruleset.id, max(own)))} lists each one{whose} with its reason")
    if shipped:
        base = _shipped_base(ruleset)
        # The base lists every unknown fact of those files, those this ruleset replaced too.
        most = max(len(document_walk(document).unknowns) for document, _ in shipped.values())
        listing = ticked(_listing(base, most))
        hints.append(
            f"{listing} lists those of the files shipped with civrules, as its shipped base `{base}` has them"
            if own
            else f"{listing} lists each one with its reason: they are in the files of its base `{base}`, "
            "shipped with civrules"
        )
    yield diagnostic(
        "Q007",
        f"ruleset `{ruleset.id}` has {total} unknown fact{'s' if total != 1 else ''}: {files}",
        ruleset.manifest.span("id"),
        "; ".join(hints),
        subjects=(ruleset.id,),
    )


def _listing(ruleset_id: str, most: int) -> str:
    """The command that lists a ruleset's Q006, ``most`` of them in one file: output lists at most
    --max-diagnostics per file (100 by default), so a larger count names the bound that lists all."""
    bound = ("--max-diagnostics", str(most)) if most > DEFAULT_PER_FILE else ()
    return command(*bound, "validate", ruleset_id, "--select", "Q006")


def _shipped_base(ruleset: Ruleset) -> str:
    """The nearest ruleset of the chain shipped with civrules (whose files a file name is among)."""
    layers = [ruleset.layers.get(file, 0) for file, name in ruleset.names.items() if name.startswith(SHIPPED)]
    return ruleset.chain[max(layers, default=0)]
