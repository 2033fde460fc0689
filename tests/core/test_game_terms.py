"""The core names no game: the shared runtime and the compiler outside ``families/`` carry no game
terms in their docstrings, comments and messages (DESIGN.md: "the core never names a game").

The shared runtime (``civrules_runtime``) is shipped into every generated package of every family:
an engine of Sid Meier's Civilization read, in ``not_given``'s documentation, of ``hand_limit`` and
``cards[law]``, which its game has not (round 22's words, found in round 23). The core's examples
use neutral ids (``items[a].cost``, ``limits.per_player``); a game's own examples belong to its
family's room.

The terms are the fields only one family declares (its collections, settings and file kinds whose
names are compounds, ``hand_limit``, ``civilization_cards``: read from the families' registrations,
so a new family's are found too), the games' names, and the words and ids the core's examples took
from the games (:data:`WORDS`). What may name a game stays, with its reason (:data:`ALLOWED`).
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from civrules.families import families, family_named
from tests.conftest import REPO

PACKAGE = REPO / "compiler" / "civrules"
#: The shared runtime, shipped into every generated package.
RUNTIME = PACKAGE / "emit" / "runtime"

#: The games' names, and the words and ids the core's docstrings, comments and messages took from
#: the games' rules (case-sensitive, whole words).
WORDS = (
    "Advanced Civilization",
    "Mega Civilization",
    "Expansion Project",
    "Sid Meier",
    "Imperial Settlers",
    "civilization card",
    "civilization cards",
    "calamity",
    "calamities",
    "commodity",
    "commodities",
    "hand limit",
    "A.S.T.",
    "epoch",
    "epochs",
    "technology",
    "technologies",
    "pyramid",
    "samurai",
    "taxation",
    "law",
    "pottery",
    "potery",
    "astronomy",
    "famine",
    "crete",
    "kushan",
    "thrace",
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
    ("emit/runtime/vocab.py", "Advanced Civilization"): "the same shim",
    # Code, not words: the keys that name an element of a list by a field of it, tried in order, for
    # every family's data (`modifiers[pottery]` by its `card`). Each family should declare its own
    # (round 23 found them; the order decides `diff`'s and Q006's paths, which the packages print).
    ("checks/unknowns.py", "epoch"): "NAMING_KEYS: the fields that name a list element in a field path",
    ("checks/unknowns.py", "calamity"): "the same",
    ("resolve/diff.py", "calamity"): "_ELEMENT_KEYS: the fields that name a list element in a diff",
    ("resolve/diff.py", "commodity"): "the same",
    ("resolve/diff.py", "epoch"): "the same",
}


def family_terms() -> frozenset[str]:
    """The compound names (``hand_limit``) of collections, settings and file kinds that only one
    family declares: a field of one game, not of every game."""
    declared: dict[str, set[str]] = {}
    for family_id in families():
        family = family_named(family_id)
        assert family is not None
        for name in (*family.kinds, *family.collections, *family.settings):
            declared.setdefault(name, set()).add(family_id)
    return frozenset(name for name, owners in declared.items() if len(owners) == 1 and "_" in name)


def _pattern(terms: frozenset[str]) -> re.Pattern[str]:
    alternatives = sorted((re.escape(term) for term in terms), key=len, reverse=True)
    return re.compile(rf"(?<![\w.])(?:{'|'.join(alternatives)})(?![\w])")


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
    """Every game term in the core's words: (module, line, term); read once for the tests here,
    and only the modules whose text holds a term anywhere are tokenized."""
    terms = family_terms() | frozenset(WORDS)
    pattern = _pattern(terms)
    found: list[tuple[str, int, str]] = []
    for path in _core_modules():
        source = path.read_text(encoding="utf-8")
        if pattern.search(source) is None:
            continue
        module = path.relative_to(PACKAGE).as_posix()
        found.extend((module, line, term) for line, term in game_terms(source, terms))
    return tuple(found)


def test_the_scan_finds_a_game_term_in_a_docstring_a_comment_and_a_message() -> None:
    source = (
        'def f():\n    """The limit (``hand_limit.commodity_cards``)."""\n'
        "    # cards[law] costs\n"
        '    raise ValueError(f"{x}: the hand limit")\n'
        "    hand_limit = 1  # a name of code is no word of its documentation\n"
        '    return "lawful, flawless, a.law"\n'
    )
    terms = family_terms() | frozenset(WORDS)
    assert game_terms(source, terms) == [(2, "hand_limit"), (3, "law"), (4, "hand limit")]


def test_the_shared_runtime_and_the_core_name_no_game() -> None:
    assert {"hand_limit", "civilization_cards", "ast_tracks", "city_actions"} <= family_terms()
    found = [f"{module}:{line}: {term}" for module, line, term in _core_terms() if (module, term) not in ALLOWED]
    assert not found, (
        "game terms in the core (word it with a neutral example, `items[a].cost`; a game's own "
        "example belongs to its family's room):\n" + "\n".join(found)
    )


def test_every_allowance_is_still_needed() -> None:
    seen = {(module, term) for module, _, term in _core_terms()}
    assert not set(ALLOWED) - seen, f"allowances no module needs (remove them): {sorted(set(ALLOWED) - seen)}"
