"""The model is the contract: checks, emitters, rule logic and sheets read the typed model, never
the raw YAML mappings (DESIGN.md, pipeline step 3).

An ``ast`` scan of ``compiler/civrules/checks/``, ``compiler/civrules/emit/`` and every family's
room (``compiler/civrules/families/``) finds each read of an attribute that holds data as written:
``.raw`` (an entity's or a resolved entry's mapping), ``.data`` (a document's tree, a resolved
manifest), ``.settings`` (the data files' settings) and calls of ``.setting(...)`` (a setting's
value as written). A family's ``model.py`` and ``assemble.py`` build the model from those and are
left out, as is its ``runtime/`` (the source of generated packages, which never sees the compiler).

A read that stays is allowed below, by module, function and attribute, with the reason the model
cannot serve it. A new raw read fails the test: add the fact to the family's model instead (built
in its assembly), or, where the code reads what is written by nature, allow it here and say why.
An allowance that no longer matches a read fails too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.budget import heavy
from tests.conftest import REPO

PACKAGE = REPO / "compiler" / "civrules"
SCANNED = ("checks", "emit", "families")
#: The attributes that hold data as written, and the method that returns a setting as written.
RAW_ATTRIBUTES = frozenset({"raw", "data", "settings"})
RAW_METHODS = frozenset({"setting"})
RAW_NAMES = RAW_ATTRIBUTES | RAW_METHODS

_CITATIONS = (
    "citations and the rule index: a citation may be anywhere in any document, and an index's "
    "entries carry the paths its diagnostics point at; the walk names no game"
)

_OVERLAY_ENTRIES = (
    "V012 judges the overlay entries as written (which entry writes what, and which is a YAML alias of "
    "another), as Q009 does: the model holds what they resolved to, not the entries"
)

#: (module under compiler/civrules, function, attribute): why the read stays.
ALLOWED: dict[tuple[str, str, str], str] = {
    ("checks/citations.py", "_beyond_the_rulebook", "data"): _CITATIONS,
    ("checks/citations.py", "_index_of", "data"): _CITATIONS,
    ("checks/citations.py", "superseded", "data"): _CITATIONS,
    ("checks/citations.py", "_written_over", "data"): _CITATIONS,
    ("checks/citations.py", "_listed_definition", "data"): _CITATIONS,
    ("checks/citations.py", "_walk", "data"): _CITATIONS,
    ("checks/citations.py", "_restored", "data"): (
        "Q009 asks whether the variant's entries leave a field as its definition writes it (a change "
        "written over by the base's value, which V012 tells): the definition as written, not the "
        "resolved model, which holds the variant's result"
    ),
    ("checks/citations.py", "_base_citation_restated", "data"): (
        "Q009 asks whether a variant puts back the value its base definition writes, and how that "
        "definition cites it: the definition as written, not the resolved model, which holds the "
        "variant's result"
    ),
    ("checks/citations.py", "_duplicate_sections", "data"): _CITATIONS,
    ("checks/citations.py", "_dangling_sections", "data"): _CITATIONS,
    ("checks/citations.py", "check_settings_citations_used", "data"): _CITATIONS,
    ("checks/overlays.py", "check_changes_written_over", "data"): _OVERLAY_ENTRIES,
    ("checks/overlays.py", "check_text_left_behind", "data"): (
        "V014 compares a changed entity's numbers and its `text` with its definition as written, in any "
        "field of any family's entity (a list's elements by id): the model holds the variant's result"
    ),
    ("checks/overlays.py", "check_text_left_behind", "raw"): (
        "V014 reads the numbers and texts of any family's entity as the variant leaves them, beside its "
        "definition as written: no family's model is known to the core"
    ),
    ("checks/overlays.py", "check_text_left_behind", "setting"): (
        "V014 reads a setting's numbers and text as the variant leaves them, beside its definition as "
        "written, for any family's settings: no family's typed settings are known to the core"
    ),
    ("checks/overlays.py", "_Winners.of", "data"): _OVERLAY_ENTRIES,
    ("checks/players.py", "check_player_range", "setting"): (
        "R024 is told at the bound of `players` a variant wrote, with a note at the other: the setting's "
        "origin says where each bound was written and which a layer changed; the typed `Ruleset.players` "
        "holds the two numbers, not their places"
    ),
    ("checks/unknowns.py", "fact_field", "data"): (
        "an unknown fact is named by its field path in the document as written, once for Q006 and "
        "the packages' UNKNOWN_FACTS and UNKNOWN_COLLECTIONS"
    ),
    ("checks/references.py", "_walk_collection.found_in", "raw"): (
        "references are declared in the schemas (x-civrules-ref) and found at their schema paths in "
        "each entity as written; no family's model is known to the core (the collection's entities' "
        "data are compared by identity with `_RAW`, to walk again only where it changed)"
    ),
    ("checks/references.py", "_Referrer.key", "raw"): (
        "V006's hint names an entity by the key the resolver matches an overlay entry with "
        "(resolve.entity_key of the entity as written: `kushan@basic`, `crete|cyprus`)"
    ),
    ("checks/identity.py", "_patch_entry", "raw"): (
        "I001's and I002's hints write the patch that makes the base's entity what the variant's copy "
        "writes: the fields the copy gives otherwise, as written (any field of any family's entity)"
    ),
    ("checks/identity.py", "_changed_facts", "raw"): (
        "I001's hint tells whether the variant's copy differs from the base's entity but for its "
        "citation, reading both as written (any field of any family's entity), as `_patch_entry` does"
    ),
    ("checks/references.py", "_patch_entry", "raw"): (
        "V006's hint writes the overlay patch that drops each reference: list operations on the entity "
        "as written (its lists, the fields that select an element), checked against its schema"
    ),
    ("checks/references.py", "_keyed_again", "raw"): (
        "V006's retarget writes an entity keyed by the renamed one (a border's `areas`) again under "
        "the new key: the entity as written, its other fields kept, checked against its schema"
    ),
    ("checks/references.py", "_parts", "setting"): (
        "the same walk over each setting as written, at the schema's paths"
    ),
    ("checks/references.py", "_owned_references", "raw"): (
        "V006 counts the references another check owns (x-civrules-ref with a `check`) in a referrer "
        "as written, at the schema's paths, so that the patch it writes drops them with the rest"
    ),
    ("checks/references.py", "_owned_elsewhere", "raw"): (
        "V006 asks whether another check's references (x-civrules-ref with a `check`) name the removed "
        "entity in an entity it does not list, at the schema's paths in each entity as written, before "
        "offering a quick fix that would leave them"
    ),
    ("checks/references.py", "_setting_entry", "setting"): (
        "V006's hint writes the `overlay.settings` entry that drops or retargets a reference: list "
        "operations on the setting as written, as `_patch_entry` writes them on an entity"
    ),
    ("checks/references.py", "_setting_entry", "settings"): (
        "the family declaration's slot of the setting (Family.settings), whose schema says where it takes a citation"
    ),
    ("checks/citations.py", "_citation_keys", "settings"): (
        "the family declaration's slot of a setting (Family.settings), whose schema says where it takes a citation"
    ),
    ("checks/references.py", "_parts", "settings"): (
        "the family declaration's slot of each setting (Family.settings), not data"
    ),
    ("checks/disagreements.py", "_collection_disagreements.found_in", "raw"): (
        "a disagreement's `field` names any field of any entity as written (no family's model is known "
        "to the core), and Q008 compares its `chosen` with that field's resolved value (the collection's "
        "entities' data are compared by identity with `_RAW`, to look again only where it changed)"
    ),
    ("checks/disagreements.py", "_settings", "setting"): "the same walk over each setting as written",
    ("checks/disagreements.py", "_settings", "settings"): (
        "the family declaration's slot of each setting (Family.settings), not data"
    ),
    ("emit/settings_types.py", "_settings_types", "settings"): (
        "the family declaration's slot of each setting (Family.settings), not data: which schema types it"
    ),
    ("emit/export.py", "export_ruleset", "data"): (
        "`civrules export` is the resolved ruleset as written (DESIGN.md: cards carry cost, groups, "
        "prerequisites, credits as written), a contract of its own"
    ),
    ("emit/export.py", "export_ruleset", "raw"): "the same: every entity of the export as written",
    ("emit/export.py", "export_ruleset", "settings"): "the same: every setting of the export as written",
    ("emit/build.py", "variant_changes", "data"): (
        "the base a variant extends, to diff the two resolved rulesets (civrules diff works on "
        "resolved rulesets, before any model)"
    ),
    ("emit/repository.py", "data_files", "data"): (
        "`civrules init --new-base` copies the files a shipped manifest names: paths, not facts"
    ),
    ("emit/repository.py", "_status_line", "data"): (
        "`civrules new-variant` writes the base manifest's `status:` into the scaffold: its header, not a fact"
    ),
    ("emit/sheets/common.py", "source_files", "data"): (
        "the kind of each file, to list the files a sheet is made from: provenance, not a fact"
    ),
    ("emit/sheets/common.py", "origin_citation", "data"): (
        "the `rule:` and `source:` where a row's entity or setting was defined: provenance (as export's field_sources"
        " and setting_sources), not a fact"
    ),
    ("emit/sheets/render.py", "_all_kinds", "data"): "the same: the kinds of the files the index is made from",
    ("emit/sheets/languages.py", "_rulebook", "data"): (
        "the rule index's `rulebook` (its language, title and file): the sheets mark and state the names' "
        "language, a fact of the source, not of the game"
    ),
    ("emit/sheets/languages.py", "_document_names", "data"): (
        "every `name` of the files with its `name_language`: the language each name is printed in, which "
        "the sheets mark; no model field holds the names of every mapping"
    ),
    ("emit/sheets/registry.py", "_setting_marks", "settings"): (
        "the settings a variant's diff (RulesetDiff) changes, not data"
    ),
    ("emit/sheets/registry.py", "_in_diff", "settings"): (
        "the family declaration's slot of each setting (Family.settings), not data: where the diff names it"
    ),
    ("families/advanced_civilization/scaffold.py", "variant_example", "raw"): (
        "new-variant's hook runs on a resolved ruleset (no model) and writes YAML examples that must "
        "validate as written"
    ),
    ("families/advanced_civilization/scaffold.py", "variant_example", "data"): "the same",
    ("families/sid_meiers_civilization/scaffold.py", "_first", "raw"): (
        "new-variant's hook runs on a resolved ruleset (no model) and writes YAML examples that must "
        "validate as written"
    ),
    ("families/sid_meiers_civilization/scaffold.py", "variant_example", "data"): "the same",
}


def _modules() -> Iterator[Path]:
    for folder in SCANNED:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            relative = path.relative_to(PACKAGE)
            if "runtime" in relative.parts or (
                relative.parts[0] == "families" and path.name in ("model.py", "assemble.py")
            ):
                continue
            yield path


def raw_reads(source: str, module: str) -> list[tuple[str, str, str, int]]:
    """Every read of a raw attribute in a module's source: (module, function, attribute, line)."""
    found: list[tuple[str, str, str, int]] = []

    def walk(node: ast.AST, scope: tuple[str, ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = (*scope, node.name)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in RAW_NAMES:
            found.append((module, ".".join(scope) or "<module>", node.attr, node.lineno))
        for child in ast.iter_child_nodes(node):
            walk(child, scope)

    walk(ast.parse(source, module), ())
    return sorted(found, key=lambda read: read[3])


def reads_in_package() -> list[tuple[str, str, str, int]]:
    return [
        read
        for path in _modules()
        for read in raw_reads(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    ]


def test_the_scan_sees_raw_reads_in_functions_and_methods() -> None:
    source = (
        "def price(card, ruleset):\n"
        "    return card.raw['cost'], ruleset.setting('ast'), ruleset.data.get('x')\n"
        "class Sheet:\n"
        "    def build(self, ruleset):\n"
        "        return ruleset.settings['commodities']\n"
    )
    assert raw_reads(source, "families/x/sample.py") == [
        ("families/x/sample.py", "price", "raw", 2),
        ("families/x/sample.py", "price", "setting", 2),
        ("families/x/sample.py", "price", "data", 2),
        ("families/x/sample.py", "Sheet.build", "settings", 5),
    ]


@heavy
def test_checks_emitters_rule_logic_and_sheets_read_the_model() -> None:
    unexplained = [
        f"{module}:{line}: `.{attribute}` in {function}"
        for module, function, attribute, line in reads_in_package()
        if (module, function, attribute) not in ALLOWED
    ]
    assert not unexplained, (
        "raw reads outside the model (read a typed model field, adding it to the family's model and "
        "assembly, or allow the read in tests/core/test_model_contract.py with the reason):\n" + "\n".join(unexplained)
    )


@heavy
def test_every_allowed_raw_read_is_still_there() -> None:
    seen = {(module, function, attribute) for module, function, attribute, _ in reads_in_package()}
    stale = sorted(set(ALLOWED) - seen)
    assert not stale, f"allowances that match no read any more (remove them): {stale}"


def test_every_allowance_says_why() -> None:
    assert all(reason.strip() for reason in ALLOWED.values())
