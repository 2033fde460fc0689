"""Every reference the schemas declare is checked: a bogus id there is an error, never exit 0.

A reference (`x-civrules-ref`) is checked by X001, or, where it says `"check": "CODE"`, by the
check that code names (a calamity's `precedence` by K004, a card's spoils by F009). Round 18 found
eighteen declared `"check": false` ("another check owns the question") that no check read: a
misspelt tax-rate card validated and built with exit 0, and its package failed at import
(AttributeError). These tests put a bogus id into each declared reference, in a copy of a shipped
file that uses it (or, where none does, the fixture of :data:`FIXTURES` or a file of
:data:`TREES`), and require an error of its check at that line: each reference another check
answers for in the fast suite, those of X001 in the slow sweep (three fast). A new declaration
that no check covers fails here, and so does `"check": false`, which names no check.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from civrules.checks.catalogue import catalogue
from civrules.diagnostics import Severity
from civrules.load.workspace import LoadedFile
from civrules.pipeline import analyse
from civrules.schema import SCHEMA_FILES, load_schema
from civrules.schema.references import KEYWORD, Ref, declared_references, find_references
from tests.conftest import TESTS
from tests.rulefiles import CachedWorkspace, get, nodes, relative_to_rules, shipped_text
from tests.shipped import ruleset_files

#: An id no collection of any shipped ruleset has, in the shape of an id.
BOGUS = "zzbogus"

#: Rule trees of the tests laid over the shipped rules, for the kinds of file no shipped ruleset
#: has (a faction deck, a card that names its deck): each folder as a `rules/` of its own.
TREES = (TESTS / "families" / "imperial_settlers" / "fixtures" / "house-rule",)

#: For a reference no file uses (absent, or unknown there): the file, the key path of a value, and
#: the text written in its place, which holds the bogus id.
FIXTURES: dict[tuple[str, str], tuple[str, tuple[str | int, ...], str]] = {
    ("imperial-settlers/ruleset", "/properties/solo/properties/attack_cards/properties/targets/oneOf/0/items/items"): (
        "rulesets/imperial-settlers.yaml",
        ("solo", "attack_cards", "targets"),
        f"[[{BOGUS}]]",
    ),
    ("sid-meiers-civilization/ruleset", "/properties/civilizations/items/properties/starting_technology/oneOf/0"): (
        "rulesets/sid-meiers-civilization.yaml",
        ("civilizations", 2, "starting_technology"),
        BOGUS,
    ),
    # No shipped technology unlocks a wonder (rule p7: any player may build any wonder of the market);
    # the field stays for house rules.
    (
        "sid-meiers-civilization/technologies",
        "/properties/technologies/items/properties/unlocks/oneOf/0/properties/wonders",
    ): (
        "cards/sid-meiers-civilization-community-technologies.yaml",
        ("technologies", 3, "unlocks"),
        f"{{buildings: [biblioteca], wonders: [{BOGUS}]}}",
    ),
    # The Mediterranean's areas with two coasts are unknown (no source lists them); a variant may
    # write them (round 24 gave them a reference and a place to cite them).
    ("map", "/properties/two_coast_areas/oneOf/0/items"): (
        "maps/mediterranean.yaml",
        ("two_coast_areas",),
        f"[{BOGUS}]\n\n",  # the value's span ends where the next key begins
    ),
    ("sid-meiers-civilization/map", "/properties/tiles/items/properties/civilization/oneOf/0"): (
        "maps/sid-meiers-civilization-tiles.yaml",
        ("tiles", 0, "name"),
        f'"Aztec"\n    civilization: {BOGUS}',
    ),
}


@dataclass(frozen=True, eq=False)
class _Source:
    """A rule file to put a bogus id in: its path under rules/, its reading (with the kind of the
    family that reads it), the ruleset to validate, and the files of a test tree it belongs to."""

    relative: str
    loaded: LoadedFile
    ruleset: str
    tree: tuple[tuple[str, str], ...] = ()

    @property
    def data(self) -> Any:
        assert self.loaded.document is not None
        return self.loaded.document.data


@functools.cache
def _sources() -> tuple[_Source, ...]:
    """Every shipped file, read for the ruleset with the fewest files that reads it (each its own
    manifest), then the files of :data:`TREES`."""
    found: dict[str, _Source] = {}
    workspace = CachedWorkspace()
    manifests = workspace.manifests()
    for ruleset_id in sorted(manifests, key=lambda r: (len(ruleset_files(r)), r)):
        _add(found, workspace, ruleset_id, ())
    for tree in TREES:
        files = tuple(sorted((p.relative_to(tree).as_posix(), p.read_text("utf-8")) for p in tree.rglob("*.yaml")))
        workspace = CachedWorkspace(dict(files))
        for relative, _ in files:
            if relative.startswith("rulesets/"):
                _add(found, workspace, relative.removeprefix("rulesets/").removesuffix(".yaml"), files)
    return tuple(found.values())


def _add(
    found: dict[str, _Source], workspace: CachedWorkspace, ruleset_id: str, tree: tuple[tuple[str, str], ...]
) -> None:
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    tree_files = {relative for relative, _ in tree}
    own = f"rulesets/{ruleset_id}.yaml"
    for one in [loaded.manifest.file, *(f for files in loaded.files.values() for f in files)]:
        relative = relative_to_rules(one.path) if not tree else _in_tree(one.path, tree_files)
        if relative is None or relative in found or one.document is None or one.kind is None:
            continue
        if relative.startswith("rulesets/") and relative != own:
            continue
        found[relative] = _Source(relative, one, ruleset_id, tree)


def _in_tree(path: str, tree_files: set[str]) -> str | None:
    relative = relative_to_rules(path)
    return relative if relative in tree_files else None


def _declarations() -> Iterator[tuple[str, str, Ref]]:
    for kind in sorted(SCHEMA_FILES):
        for pointer, ref in declared_references(load_schema(kind)):
            yield kind, pointer, ref


def _checker(ref: Ref) -> str:
    """The code of the check that answers for a reference."""
    return "X001" if ref.check else str(ref.owner)


DECLARED = list(_declarations())
#: The references X001 leaves to another check: each swept in the fast suite.
OWNED = [(kind, pointer) for kind, pointer, ref in DECLARED if not ref.check]
#: The references X001 checks: three of those no check read before round 18 fast (a setting, an
#: entity of a data file, a collection of another family), every one in the slow sweep.
CHECKED = [(kind, pointer) for kind, pointer, ref in DECLARED if ref.check]
CHECKED_FAST = {
    ("calamities", "/$defs/per/properties/commodity"),
    ("ruleset", "/properties/taxation/properties/rate_card/properties/card"),
    ("imperial-settlers/ruleset", "/properties/goods/items/properties/stands_for/items"),
}


def _ids(case: tuple[str, str]) -> str:
    return f"{case[0]}:{case[1]}"


def test_a_reference_x001_leaves_names_the_check_that_covers_it() -> None:
    """`"check": false` alone (an owner no one names) is refused: say which check reads it."""
    codes = catalogue()
    for kind, pointer, ref in DECLARED:
        if not ref.check:
            assert ref.owner is not None and ref.owner in codes, f"{kind}{pointer}: name the check that reads it"
            assert ref.owner != "X001", f"{kind}{pointer}: X001 is the default, write no `check`"


@functools.cache
def _patterns(kind: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """For each declaration's pointer in a schema, the key paths of a document where it applies
    (`*` for any list index or mapping key), following `$ref` into `$defs`."""
    schema = load_schema(kind)
    found: dict[str, set[tuple[str, ...]]] = {}

    def walk(node: Any, pointer: str, pattern: tuple[str, ...], defs: tuple[str, ...]) -> None:
        if not isinstance(node, dict) or len(pattern) > 24:
            return
        if KEYWORD in node:
            found.setdefault(pointer, set()).add(pattern)
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            name = target[len("#/$defs/") :]
            if name not in defs:
                walk(schema["$defs"].get(name), f"/$defs/{name}", pattern, (*defs, name))
        for keyword in ("allOf", "anyOf", "oneOf"):
            for i, branch in enumerate(node.get(keyword, ())):
                walk(branch, f"{pointer}/{keyword}/{i}", pattern, defs)
        for key, sub in node.get("properties", {}).items():
            walk(sub, f"{pointer}/properties/{key}", (*pattern, key), defs)
        for keyword in ("items", "additionalProperties"):
            if isinstance(node.get(keyword), dict):
                walk(node[keyword], f"{pointer}/{keyword}", (*pattern, "*"), defs)

    walk(schema, "", (), ())
    return {pointer: tuple(sorted(patterns)) for pointer, patterns in found.items()}


@functools.cache
def _shapes(source: _Source) -> dict[tuple[str, ...], list[tuple[str | int, ...]]]:
    """The key paths of a document by their shape (each list index a `*`)."""
    shapes: dict[tuple[str, ...], list[tuple[str | int, ...]]] = {}
    for path, _ in nodes(source.data):
        shapes.setdefault(tuple("*" if isinstance(p, int) else p for p in path), []).append(path)
    return shapes


@functools.cache
def _walked(source: _Source) -> dict[tuple[str | int, ...], Ref]:
    """Every reference the walk finds in a document, by path (what X001 and the editor read)."""
    schema = load_schema(str(source.loaded.kind))
    return {path: ref for path, _, ref in find_references(schema, (schema,), source.data)}


def _occurrence(kind: str, pointer: str, ref: Ref) -> tuple[_Source, tuple[str | int, ...]] | None:
    """A file of ``kind`` and the path of an id in it that the declaration at ``pointer`` describes."""
    patterns = _patterns(kind)[pointer]
    for source in _sources():
        if source.loaded.kind != kind:
            continue
        walked = _walked(source)
        for shape, paths in _shapes(source).items():
            if any(_fits(shape, pattern) for pattern in patterns):
                for path in paths:
                    for at in (path, (*path, 0)):
                        if walked.get(at) == ref:
                            return source, at
    return None


def _fits(shape: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    return len(shape) == len(pattern) and all(p in ("*", s) for s, p in zip(shape, pattern, strict=True))


def _splice(source: _Source, path: tuple[str | int, ...], replacement: str) -> tuple[str, int]:
    """The text of ``source`` with the value at ``path`` replaced, and the line of the bogus id."""
    assert source.loaded.document is not None
    span = source.loaded.document.span(path)
    text = dict(source.tree)[source.relative] if source.tree else shipped_text(source.relative)
    lines = text.splitlines(keepends=True)
    first, last = lines[span.line - 1], lines[span.end_line - 1]
    lines[span.line - 1 : span.end_line] = [first[: span.column - 1] + replacement + last[span.end_column - 1 :]]
    return "".join(lines), span.line + replacement[: replacement.index(BOGUS)].count("\n")


def _bogus_id_is_reported(kind: str, pointer: str) -> None:
    ref = next(r for k, p, r in DECLARED if (k, p) == (kind, pointer))
    fixture = FIXTURES.get((kind, pointer))
    if fixture is not None:
        assert _occurrence(kind, pointer, ref) is None, "a file uses it now: drop its fixture"
        relative, path, replacement = fixture
        source = next(s for s in _sources() if s.relative == relative)
    else:
        found = _occurrence(kind, pointer, ref)
        assert found is not None, f"no file uses {kind}{pointer}: add a fixture to FIXTURES"
        source, path = found
        assert get(source.data, path) != BOGUS
        replacement = BOGUS
    text, line = _splice(source, path, replacement)
    workspace = CachedWorkspace({**dict(source.tree), source.relative: text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[source.ruleset]))
    errors = [
        (d.code, relative_to_rules(d.span.file), d.span.line)
        for d in analysis.diagnostics
        if d.severity is Severity.ERROR and d.span is not None
    ]
    # A value the schema itself refuses (a card group is one of a fixed list) is its error (S003):
    # no check runs on a file the schema refused.
    place = (source.relative, line)
    reported = {code for code, *at in errors if tuple(at) == place}
    assert _checker(ref) in reported or any(code.startswith("S") for code in reported), (
        f"`{BOGUS}` as {ref.what} ({kind}{pointer}) in {source.relative}:{line} of `{source.ruleset}`: "
        f"expected {_checker(ref)} there, got {errors or 'no error'}"
    )


@pytest.mark.parametrize("case", OWNED, ids=_ids)
def test_a_bogus_id_where_another_check_answers_is_its_error(case: tuple[str, str]) -> None:
    _bogus_id_is_reported(*case)


@pytest.mark.parametrize("case", sorted(CHECKED_FAST), ids=_ids)
def test_a_bogus_id_in_a_reference_is_x001(case: tuple[str, str]) -> None:
    assert case in CHECKED
    _bogus_id_is_reported(*case)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CHECKED if c not in CHECKED_FAST], ids=_ids)
def test_a_bogus_id_in_every_reference_is_x001(case: tuple[str, str]) -> None:
    _bogus_id_is_reported(*case)


def _reported(overrides: dict[str, str], ruleset_id: str) -> list[tuple[str, str, int, int, str, str | None]]:
    workspace = CachedWorkspace(overrides)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    return [
        (d.code, relative_to_rules(d.span.file), d.span.line, d.span.column, d.message, d.hint)
        for d in analysis.diagnostics
        if d.severity is Severity.ERROR and d.span is not None
    ]


def test_a_variant_naming_a_card_its_base_lacks_in_taxation_is_x001_at_its_line() -> None:
    """The report's variant: Monarchy is an Expansion Project card, not an Advanced Civilization one."""
    variant = (
        "kind: ruleset\nid: ac-tax\nname: ac-tax\nextends: advanced-civilization\noverlay:\n  settings:\n"
        '    taxation:\n      revolt: {immune_card: monarchy, source: "house rule"}\n'
        '      rate_card: {card: coinag, source: "house rule"}\n'
    )
    found = _reported({"rulesets/ac-tax.yaml": variant}, "ac-tax")
    assert sorted(found) == [
        (
            "X001",
            "rulesets/ac-tax.yaml",
            8,
            29,
            "revolt immunity card `monarchy` does not exist in civilization_cards",
            "no civilization_cards entry has this id",
        ),
        (
            "X001",
            "rulesets/ac-tax.yaml",
            9,
            25,
            "tax-rate card `coinag` does not exist in civilization_cards",
            "did you mean `coinage`?",
        ),
    ]


def test_a_variant_patching_a_copy_to_a_good_that_does_not_exist_is_f009_at_its_line() -> None:
    variant = (
        "kind: ruleset\nid: is-m3\nname: is-m3\nfamily: imperial-settlers\nextends: imperial-settlers\n"
        "overlay:\n  cards:\n    patch:\n"
        "      - {id: rom003, differing_copies: {patch: [{where: {id: ROM005}, with: {deal: wod}}]}, source: x}\n"
    )
    found = _reported({"rulesets/is-m3.yaml": variant}, "is-m3")
    assert [(code, file, line, message) for code, file, line, _, message, _ in found] == [
        (
            "F009",
            "rulesets/is-m3.yaml",
            9,
            "deal of copy ROM005 of card `rom003`: no good of the ruleset is called `wod`",
        )
    ]
