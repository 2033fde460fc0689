"""A name the data gives is printed where its `rule:` cites, or its note says that no line prints it
(round 28's audit).

The rulebooks cited by page and heading (a rule index whose numbering is `pages_and_headings`) give
the names the data writes, as printed and never translated (README, "Player aids"). Held here: in a
base ruleset citing such a rulebook, and in the files its manifest lists, every entity with an `id`, a
`name` and a `rule:` has its name printed in a section it cites (the section's heading and text, to
the next heading; a page, to the next page), case and accents aside and each word in the singular or
the plural (`Tabuleiro de Facção` for '4 TABULEIROS DE FACÇÃO', `Local` for 'Locais'); or its `note`
says "No line prints the name" and what the name is made from. Without `../shared` the test skips.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO, RULES

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
WORKSPACE = REPO.parent
#: What a note says where the name is the data's own words for an unnamed thing.
UNPRINTED = "No line prints the name"
_WORD = re.compile(r"\w+")


def _load(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def fold(text: str) -> str:
    """Lower case without accents: 'FACÇÃO' is 'faccao'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def _word(word: str) -> str:
    """A word in the singular or the plural: Portuguese adds -s or -es, and -l becomes -is."""
    stem = re.escape(word)
    if word.endswith("l"):
        return f"(?:{stem}|{re.escape(word[:-1])}is)"
    return f"{stem}(?:e?s)?"


def printed(name: str, text: str) -> bool:
    """Whether ``name`` is printed in ``text`` (both folded), word after word."""
    words = _WORD.findall(fold(name))
    if not words:
        return False
    return re.search(r"(?<!\w)" + r"\W+".join(_word(word) for word in words) + r"(?!\w)", fold(text)) is not None


def section_texts(index: dict[str, Any], text: str) -> dict[str, str]:
    """Each section's text: from its line to the next section's (a heading), or to the next page
    (a page)."""
    lines = text.split("\n")
    sections = sorted((entry["line"], str(entry["section"])) for entry in index["sections"])
    texts = {}
    for position, (line, name) in enumerate(sections):
        later = sections[position + 1 :]
        if "/" in name:
            end = next((at for at, _ in later if at > line), len(lines) + 1)
        else:
            end = next((at for at, other in later if "/" not in other), len(lines) + 1)
        texts[name] = " ".join(lines[line - 1 : end - 1])
    return texts


def named(value: Any) -> Iterator[dict[str, Any]]:
    """Every mapping with an id, a name (a string) and a `rule:`, however deep."""
    if isinstance(value, dict):
        if "id" in value and isinstance(value.get("name"), str) and value.get("rule") is not None:
            yield value
        for item in value.values():
            yield from named(item)
    elif isinstance(value, list):
        for item in value:
            yield from named(item)


def unprinted(manifest: Path) -> list[str]:
    """The names of a base ruleset (its manifest and listed files) that no cited section prints and no
    note accounts for, as `file: id 'name' (sections)`."""
    data = _load(manifest)
    index = _load(RULES / data["rulebook"]["rule_index"])
    text_path = WORKSPACE / index["rulebook"]["source_file"]
    if not text_path.is_file():
        pytest.skip(f"{index['rulebook']['source_file']} is not beside the checkout")
    texts = section_texts(index, text_path.read_text(encoding="utf-8"))
    files = [manifest, *(RULES / file for listed in (data.get("files") or {}).values() for file in listed)]
    found = []
    for file in files:
        for entity in named(_load(file)):
            rules = [entity["rule"]] if isinstance(entity["rule"], str) else list(entity["rule"])
            if any(printed(entity["name"], texts.get(str(rule), "")) for rule in rules):
                continue
            if UNPRINTED in str(entity.get("note", "")):
                continue
            found.append(f"{file.relative_to(RULES)}: {entity['id']} {entity['name']!r} ({', '.join(map(str, rules))})")
    return found


def _page_and_heading_bases() -> list[Path]:
    bases = []
    for manifest in sorted((RULES / "rulesets").glob("*.yaml")):
        data = _load(manifest)
        index = (data.get("rulebook") or {}).get("rule_index")
        by_pages = index is not None and _load(RULES / index)["rulebook"].get("numbering") == "pages_and_headings"
        if data.get("extends") is None and by_pages:
            bases.append(manifest)
    return bases


BASES = _page_and_heading_bases()


def test_the_rulebooks_cited_by_page_and_heading_have_base_rulesets() -> None:
    assert len(BASES) >= 2, BASES


@pytest.mark.parametrize("manifest", BASES, ids=lambda path: path.stem)
def test_every_name_is_printed_where_it_is_cited_or_its_note_says_why(manifest: Path) -> None:
    assert unprinted(manifest) == []


def test_a_name_is_printed_in_the_singular_or_the_plural_case_and_accents_aside() -> None:
    assert printed("Tabuleiro de Facção", "4 TABULEIROS DE FACÇÃO")
    assert printed("Local de Produção", "os Locais de Produção não possuem ruas")
    assert printed("Pedra", "Recursos: Comida, Madeira, Pedra")
    assert not printed("Destruir uma carta da mão", "PARA DESTRUIR UMA CARTA COMUM DA MÃO:")
    assert not printed("Defending a capital", "+12 se estiver defendendo uma capital.")
    assert printed("Pedra", "Pedras")
    assert not printed("Ouro", "Ourives")
