"""The core names no game: the shared runtime and the compiler outside ``families/`` carry no game
terms in their docstrings, comments and messages (DESIGN.md: "the core never names a game").

The shared runtime (``civrules_runtime``) is shipped into every generated package of every family:
an engine of Sid Meier's Civilization read, in ``not_given``'s documentation, of ``hand_limit`` and
``cards[law]``, which its game has not (round 22's words, found in round 23). The core's examples
use neutral ids (``items[a].cost``, ``limits.per_player``); a game's own examples belong to its
family's room.

The terms are read from the games themselves, never picked by hand (a hand-picked list let every
term it lacked through): what only one family declares (its file kinds, collections, settings and
their entities in words, ``hand_limit``, ``hand limit``, ``calamity``), the compound field names
only one family's schemas declare (``by_players``, ``flood_plain``, ``group credits``), the games' names (each
family's, each shipped ruleset's id and the names its manifest prints, ``Expansion Project``), and
the ids and names of every entity of the shipped rules (``crete``, ``Pottery``). The shipped rules
are the project's (tests/shipped.py), never a designer's own variant beside them in ``rules/``:
``my-variant``, the README's example, is no game's term. Ordinary English
words that are also a game's ids or fields (``cost``, ``map``, ``build``) are not game terms
(:data:`COMMON`, reviewed); what may name a game all the same stays, with its reason (:data:`ALLOWED`).
"""

from __future__ import annotations

import functools
import io
import re
import textwrap
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from civrules.families import families, family_named, family_of_code
from civrules.schema import load_schema
from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, RULES

PACKAGE = REPO / "compiler" / "civrules"
#: The shared runtime, shipped into every generated package.
RUNTIME = PACKAGE / "emit" / "runtime"

#: Ordinary English words (and a board game's common words) that are also an id, a name or a field
#: of some game's data: the core uses them in their ordinary sense. Reviewed: a word goes here only
#: when the core's use of it is not the game's (``lead`` outside the project, a last line of
#: ``defence``, code ``units``), never to let a game's example through. Single words, matched
#: whatever their case.
COMMON = frozenset(
    {
        # what every board game has, and the core speaks of in general
        *("action", "actions", "area", "areas", "border", "borders", "card", "cards", "component"),
        *("components", "deck", "decks", "effect", "group", "groups", "map", "option", "options"),
        *("player count", "player counts", "round", "rounds", "setup", "spaces", "trade"),
        # a YAML document's own (a game's `top_level` field in words)
        "top level",
        # English words that a game also uses as an id or a name
        *("advanced", "basic", "build", "building", "colour", "colours", "common", "conflict"),
        *("construction", "copies", "cost"),
        *("defence", "east", "expansion", "expert", "fish", "flood", "general", "good", "hides"),
        *("lead", "library", "movement", "navigation", "produce", "shells", "standard", "treasury"),
        *("units", "workers", "writing"),
    }
)

#: (module under compiler/civrules, term): why it stays.
ALLOWED: dict[tuple[str, str], str] = {
    ("emit/runtime/_moved.py", "Advanced Civilization"): (
        "the shim that keeps the names the first family's runtime had here importable for a round, "
        "and says where they went"
    ),
    ("emit/runtime/__init__.py", "Advanced Civilization"): "the same shim's list of names",
    ("emit/runtime/records.py", "Advanced Civilization"): "the same shim",
    ("emit/runtime/logic.py", "Advanced Civilization"): "the same shim",
    ("emit/sheets/languages.py", "Spanish"): (
        "the name of a language, which the sheets' index page gives a rulebook's or a name's (a game "
        "has a civilization of that name)"
    ),
    ("emit/runtime/vocab.py", "Advanced Civilization"): "the same shim",
    ("schema/patterns.py", "media"): (
        "`/media/`, the folder where Linux mounts a removable disk, in Q012's pattern of a path on one computer "
        "(not the game term of that name)"
    ),
    ("emit/versions.py", "ast"): "Python's `ast` module, in the expressions of f-strings (not the game's A.S.T.)",
    ("emit/runtime/errors.py", "at_most"): (
        "the shared runtime's own function `at_most` (how often an id may be listed), not a game's field"
    ),
}

#: Words that make a phrase English's rather than a game's: a compound field in words with one of
#: them (``at_most``: ``at most``, ``applies_to``: ``applies to``) is an ordinary phrase of the
#: core's prose; the field as written (``at_most``) is still a term.
FUNCTION_WORDS = frozenset({"a", "all", "an", "and", "at", "but", "by", "for", "from", "if", "in", "no", "not"})
FUNCTION_WORDS |= {"of", "on", "or", "per", "than", "the", "to", "when", "with"}


def family_terms() -> frozenset[str]:
    """The names of collections, settings and file kinds that only one family declares, and their
    entities in words (``calamity``, ``A.S.T. track``): a field of one game, not of every game. A
    compound name is a term as written (``hand_limit``) and in words (``hand limit``)."""
    declared: dict[str, set[str]] = {}
    for family_id in families():
        family = family_named(family_id)
        assert family is not None
        names = [*family.kinds, *family.collections, *family.settings]
        names += [spec.word for spec in family.collections.values() if spec.word]
        for name in names:
            for term in {name, name.replace("_", " ")}:
                declared.setdefault(term, set()).add(family_id)
    return frozenset(name for name, owners in declared.items() if len(owners) == 1)


def _declared_fields() -> dict[str, set[str]]:
    """Each field name the families' schemas declare, at any depth of any of their kinds, with the
    families that declare it."""
    declared: dict[str, set[str]] = {}
    for family_id in families():
        family = family_named(family_id)
        assert family is not None
        fields: set[str] = set()
        for kind in family.kinds:
            _field_names(load_schema(family.qualified_kind(kind)), fields)
        for name in fields:
            declared.setdefault(name, set()).add(family_id)
    return declared


def _field_names(node: Any, found: set[str]) -> None:
    """Every name a schema (or any part of it) declares under ``properties``, at any depth."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            found.update(properties)
        for value in node.values():
            _field_names(value, found)
    elif isinstance(node, list):
        for value in node:
            _field_names(value, found)


def schema_field_terms() -> frozenset[str]:
    """The compound field names (``by_players``, ``flood_plain``) that only one family's schemas
    declare, at any depth of any of its kinds: as written, and in words (``flood plain``) unless
    a word of it is one of :data:`FUNCTION_WORDS`.

    A single-word field is left to :func:`family_terms`: one family's single-word fields are
    mostly English's or the core's own words too (``base``, ``limit``, ``pattern``, ``rules``,
    ``from``), and the single words that are a game's own name its collections and settings."""
    declared = _declared_fields()
    found: set[str] = set()
    for name, owners in declared.items():
        words = name.split("_")
        if len(owners) == 1 and len(words) > 1:
            found.add(name)
            if not FUNCTION_WORDS & set(words):
                found.add(" ".join(words))
    return frozenset(found)


#: A run of capitalised words in a name a manifest prints (``Sid Meier's Civilization``).
_CAPITALISED = re.compile(r"[A-Z][\w']*(?:\s+[A-Z][\w']*)+")


def game_names() -> frozenset[str]:
    """The games' names: each family's id and name, and each shipped ruleset's id and the runs of
    capitalised words of its name (``Civilization: The Expansion Project`` gives ``Expansion
    Project``)."""
    found: set[str] = set()
    for family_id in families():
        family = family_named(family_id)
        assert family is not None
        found.update((family.id, *_CAPITALISED.findall(family.name)))
    for manifest in shipped.manifests():
        found.add(manifest.stem)
        name = re.search(r"^name: *(.+)$", manifest.read_text(encoding="utf-8"), re.MULTILINE)
        if name is not None:
            found.update(_CAPITALISED.findall(name.group(1)))
    return frozenset(found)


#: An entity's id or name as the shipped rule files write them (block or flow style).
_ID = re.compile(r"(?<![\w-])id: *[\"']?([a-z][a-z0-9_]*)")
_NAME = re.compile(r"(?<![\w-])name: *(?:\"([^\"\n]+)\"|'([^'\n]+)'|([^\"'\s,{}\[\]#][^\n,{}\[\]#]*))")


@functools.cache
def data_terms() -> frozenset[str]:
    """The ids and names of the shipped rules' entities (``crete``, ``Drama and Poetry``); the rule
    indexes are left out: their sections' titles are the rulebooks' headings, not the games' terms."""
    found: set[str] = set()
    for path in shipped.yaml_files():
        if path.relative_to(RULES).parts[0] == "rulebooks":
            continue
        text = path.read_text(encoding="utf-8")
        found.update(_ID.findall(text))
        found.update(" ".join((a or b or c).split()) for a, b, c in _NAME.findall(text))
    return frozenset(term for term in found if term)


@functools.cache
def terms() -> frozenset[str]:
    """Every game term: what the families declare, their schemas' fields, the games' names and
    their data's ids and names, less the ordinary words of :data:`COMMON`."""
    every = family_terms() | schema_field_terms() | game_names() | data_terms()
    return frozenset(term for term in every if term.lower() not in COMMON)


def _pattern(terms: frozenset[str]) -> re.Pattern[str]:
    alternatives = sorted((re.escape(term) for term in terms), key=len, reverse=True)
    return re.compile(rf"(?<![\w.-])(?:{'|'.join(alternatives)})(?![\w-])")


def words_in(source: str) -> Iterator[tuple[int, str]]:
    """Each comment and string literal (docstrings, messages, f-strings' text) of ``source``, with
    its line."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING) or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            yield token.start[0], token.string


def game_terms(source: str, terms: frozenset[str]) -> list[tuple[int, str]]:
    """Each game term in the words of ``source``: (line, term)."""
    pattern = _pattern(terms)
    return [(line, found.group()) for line, text in words_in(source) for found in pattern.finditer(text)]


def _core_modules() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).parts
        if relative[0] not in ("families", "_generated"):
            yield path


@functools.cache
def _core_terms() -> tuple[tuple[str, int, str], ...]:
    """Every game term in the core's words: (module, line, term); read once for the tests here.
    Only the terms whose every word the module holds somewhere are looked for in it (a pattern of
    two thousand terms over every module cost seconds), and only the modules holding one are
    tokenized."""
    every = terms()
    by_word: dict[str, list[str]] = {}
    for term in every:
        by_word.setdefault(max(re.findall(r"\w+", term), key=len), []).append(term)
    found: list[tuple[str, int, str]] = []
    for path in _core_modules():
        source = path.read_text(encoding="utf-8")
        words = set(re.findall(r"\w+", source))
        candidates = frozenset(
            term for word in words & by_word.keys() for term in by_word[word] if set(re.findall(r"\w+", term)) <= words
        )
        if not candidates or _pattern(candidates).search(source) is None:
            continue
        module = path.relative_to(PACKAGE).as_posix()
        found.extend((module, line, term) for line, term in game_terms(source, candidates))
    return tuple(found)


def test_the_scan_finds_a_game_term_in_a_docstring_a_comment_and_a_message() -> None:
    source = (
        'def f():\n    """The limit (``hand_limit.commodity_cards``)."""\n'
        "    # cards[law] costs\n"
        '    raise ValueError(f"{x}: the hand limit")\n'
        "    hand_limit = 1  # a name of code is no word of its documentation\n"
        '    return "lawful, flawless, a.law, by-law, my-game"\n'
        "    # `civrules diff my-game v`\n"
    )
    found = game_terms(source, frozenset({"hand_limit", "law", "hand limit", "my-game"}))
    assert found == [(2, "hand_limit"), (3, "law"), (4, "hand limit"), (6, "my-game"), (7, "my-game")]
    # Each term comes from the games themselves: a term no list held is found all the same.
    assert {"hand_limit", "law", "hand limit"} <= terms()


@heavy
def test_the_shared_runtime_and_the_core_name_no_game() -> None:
    assert {"hand_limit", "civilization_cards", "ast_tracks", "city_actions"} <= family_terms()
    assert {"calamity", "calamities", "hand limit", "A.S.T. track"} <= family_terms()
    # Fields no collection or setting names, each found in the core's words before round 25.
    assert {"by_players", "start_areas", "unless_holding", "map_region", "group credits"} <= schema_field_terms()
    assert {"spoils_on", "city_actions", "flood plain"} <= schema_field_terms()
    assert not {"at most", "applies to", "base", "limit"} & schema_field_terms()
    assert {"Expansion Project", "Sid Meier's Civilization", "mega-civilization", "Imperial Settlers"} <= game_names()
    assert {"crete", "kushan", "pottery", "Pottery", "Drama and Poetry", "deserto"} <= data_terms()
    found = [f"{module}:{line}: {term}" for module, line, term in _core_terms() if (module, term) not in ALLOWED]
    assert not found, (
        "game terms in the core (word it with a neutral example, `items[a].cost`; a game's own "
        "example belongs to its family's room):\n" + "\n".join(found)
    )


def test_the_shared_runtime_dates_nothing_by_the_projects_rounds() -> None:
    """The shared runtime names no game, so a "round" in its text is the project's working rounds,
    which mean nothing to an engine developer: its moved names were importable "for this round"
    (round 31's newcomer read it in `help(civrules_runtime)`). They are importable "for now", as the
    README says."""
    found = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in sorted(RUNTIME.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bround\b(?!\()", line, re.IGNORECASE)
    ]
    assert found == []


def test_every_allowance_is_still_needed() -> None:
    seen = {(module, term) for module, _, term in _core_terms()}
    assert not set(ALLOWED) - seen, f"allowances no module needs (remove them): {sorted(set(ALLOWED) - seen)}"


def test_the_core_codes_examples_write_no_key_only_one_game_declares() -> None:
    """`civrules explain X001`, for every family's rulesets, showed Advanced Civilization's
    `prerequisites: [{card: ..., rule: "31.62"}]`, and Q009 a Sid Meier's wonder's `discount: {cost: ...}`:
    a single-word field is no term of the scan above (most are English's too), but written as a key
    in a core code's example it is one game's shape. The keys of the core codes' examples are
    neutral; a game's example belongs to its family's codes."""
    from civrules.checks.catalogue import catalogue

    declared = _declared_fields()
    own = {name: owners.pop() for name, owners in declared.items() if len(owners) == 1}
    assert {"prerequisites", "discount", "spoils"} <= own.keys()
    # A stand-in the core's examples use in its English sense: a keyed-by-two-fields entity's
    # `{side: ..., level: ...}` (Imperial Settlers' `side` is a card's face).
    neutral = {"side"}
    found = []
    for code in catalogue().values():
        if family_of_code(code.code) is not None:
            continue
        text = textwrap.dedent(code.doc)
        examples = re.findall(r"`([^`]+)`", text) + re.findall(r"^    .*$", text, flags=re.MULTILINE)
        for example in examples:
            for key in re.findall(r"(?:^|[\s{,-])([a-z_]+):", example):
                if key in own and key not in neutral:
                    found.append(f"{code.code}: `{key}:` is {own[key]}'s")
    assert not found, "\n".join(found)
