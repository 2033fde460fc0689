"""Every text the rules hold for players is printed on a sheet of its ruleset.

A text a designer transcribed (a card's effect, a calamity's rule of who may benefit, a victory
condition's name) that no sheet prints is a rule the players never read. Round 23 held every text
of every ruleset's `export` against its sheets by hand and found many unprinted; this holds them
every run.

Which fields are texts is the schemas' word, not a list here: a property whose schema admits a
string with no `enum`, `pattern`, `const` or `format` (through `$ref`, `oneOf`, `anyOf`, `allOf`)
holds free text. Of those, what is not for players is left out, each with its reason
(:data:`NOT_FOR_PLAYERS`), and so are ids: the fields that name an entity or an element of a list
(the family's naming keys) and a text equal to its element's id (`export` names an entity that has
no name by its key). The sheets are the committed ones (``generated/sheets``, which
``tests/generated`` and ``build --check`` hold equal to what the rules render), read as text: tags
dropped, entities unescaped, whitespace collapsed.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from civrules.emit.export import export_ruleset
from civrules.families import Family, family_named
from civrules.pipeline import derived_facts
from tests import shipped
from tests.conftest import REPO
from tests.rulefiles import shipped_analysis
from tests.sheet_text import unmarked

SCHEMAS = REPO / "schemas"
SHEETS = REPO / "generated" / "sheets"

#: The free-text fields (and what they hold) that are not for players: why each is left unprinted.
NOT_FOR_PLAYERS = {
    "note": "its schema's 'free text a designer should know': remarks on the transcription and the sources",
    "caveat": "how reliable a source is, as the source says (tracks read from a fan module): the source's word",
    "source_name": "the name a source in another language gives a card, 'never printed as the card's name'",
    "disagreements": "where the sources differ about a field, and which was chosen: the transcription's record",
    "source": "a citation: each sheet prints its citations in a short form of its own",
    "rulebook": "the rule index the citations cite: the sheets cite its sections, not its title",
    "named_cards_not_identified": "card names the rulebook prints that no source ties to a card: the data's gap",
}

#: A string no `enum`, `pattern`, `const` or `format` constrains.
_CONSTRAINTS = ("enum", "pattern", "const", "format")


def _free_text(node: Any, definitions: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> bool:
    if not isinstance(node, Mapping):
        return False
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        name = reference.rsplit("/", 1)[1]
        return name not in seen and _free_text(definitions.get(name), definitions, seen | {name})
    types = node.get("type")
    if (types == "string" or (isinstance(types, list) and "string" in types)) and not any(
        key in node for key in _CONSTRAINTS
    ):
        return True
    return any(
        _free_text(branch, definitions, seen) for key in ("oneOf", "anyOf", "allOf") for branch in node.get(key, ())
    )


@functools.cache
def text_fields(family_id: str) -> frozenset[str]:
    """The properties the family's schemas give as free text, whatever file kind holds them."""
    family = family_named(family_id)
    assert family is not None
    found: set[str] = set()
    for file in family.kinds.values():
        schema = json.loads((SCHEMAS / file).read_text(encoding="utf-8"))
        definitions = schema.get("$defs", {})
        stack: list[Any] = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, Mapping):
                properties = node.get("properties")
                if isinstance(properties, Mapping):
                    found.update(key for key, sub in properties.items() if _free_text(sub, definitions))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return frozenset(found)


def player_texts(exported: Any, family: Family) -> Iterator[tuple[str, str]]:
    """Each text of ``exported`` a player reads: (its path, the text)."""
    fields = text_fields(family.id) - set(family.naming_keys)

    def walk(node: Any, path: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in NOT_FOR_PLAYERS:
                    continue
                at = f"{path}.{key}" if path else str(key)
                if key in fields and isinstance(value, str) and value != node.get("id"):
                    yield at, value
                else:
                    yield from walk(value, at)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                yield from walk(item, f"{path}[{i}]")

    yield from walk(exported, "")


def readable(text: str) -> str:
    """``text`` as a reader reads it: entities unescaped, whitespace collapsed."""
    return " ".join(html.unescape(text).split())


def sheets_text(ruleset_id: str) -> str:
    """Every sheet of the ruleset as a reader reads it (no style, script or tag)."""
    pages = []
    for page in sorted((SHEETS / ruleset_id).glob("*.html")):
        text = re.sub(r"<(style|script)\b.*?</\1>", " ", unmarked(page.read_text(encoding="utf-8")), flags=re.DOTALL)
        pages.append(readable(re.sub(r"<[^>]+>", " ", text)))
    return "\n".join(pages)


RULESETS = sorted(shipped.RULESETS)


def test_the_texts_are_the_schemas_free_strings_and_ids_are_not_texts() -> None:
    fields = text_fields("advanced-civilization")
    assert {"name", "text", "condition_text", "eligibility"} <= fields
    assert not {"unit", "kind", "severity"} & fields  # enums
    family = family_named("imperial-settlers")
    assert family is not None
    exported = {"cards": [{"id": "a1", "name": "a1", "effect": "Gain  2 wood."}, {"id": "a2", "note": "a designer's"}]}
    assert list(player_texts(exported, family)) == [("cards[0].effect", "Gain  2 wood.")]
    assert readable("Gain&nbsp;2\n wood &amp; stone") == "Gain 2 wood & stone"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_text_for_players_is_printed_on_a_sheet(ruleset_id: str) -> None:
    analysis = shipped_analysis(ruleset_id)
    assert analysis.model is not None and analysis.resolved is not None
    family = family_named(analysis.model.family)
    assert family is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    printed = sheets_text(ruleset_id)
    # A variant that writes no `description` has its base's in the export: it describes the base,
    # whose index prints it, not the variant (a variant's index prints only its own, round 23).
    inherited = {"settings.description"} if analysis.model.description is None else set()
    missing = [
        f"{at}: {text!r}"
        for at, text in player_texts(exported, family)
        if at not in inherited and readable(text) not in printed
    ]
    assert not missing, f"texts of {ruleset_id} no sheet prints ({len(missing)}):\n" + "\n".join(missing)
