"""A name the data gives is printed where its `rule:` cites (rounds 28 and 29 of the audit).

The rulebooks cited by page and heading (a rule index whose numbering is `pages_and_headings`) give
the names the data writes, as printed and never translated (README, "Player aids"). Held here: in a
base ruleset citing such a rulebook, and in the files its manifest lists, every mapping with a
`name` (a string) has that name printed in a section its `rule:` cites, or, where it has none, the
nearest `rule:` around it (the section's heading and text, to the next heading; a page, to the next
page), case and accents aside and each word in the singular or the plural (`Tabuleiro de Facção` for
'4 TABULEIROS DE FACÇÃO', `Local` for 'Locais'). A name no section prints is `{unknown: why}`; a
note saying that no line prints it does not excuse it (round 28 allowed that, and so kept a name the
data had made up). Without `../shared` the test skips.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, RULES

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
WORKSPACE = REPO.parent
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


def named(value: Any, rule: Any = None) -> Iterator[tuple[dict[str, Any], Any]]:
    """Every mapping with a name (a string) below ``value``, however deep, with the `rule:` that
    cites it: its own, else the nearest one around it (None where there is none)."""
    if isinstance(value, dict):
        rule = value.get("rule", rule)
        if isinstance(value.get("name"), str):
            yield value, rule
        for key, item in value.items():
            if key != "rule":
                yield from named(item, rule)
    elif isinstance(value, list):
        for item in value:
            yield from named(item, rule)


def unprinted_names(files: dict[str, Any], texts: dict[str, str]) -> list[str]:
    """The names in ``files`` (each file's data, by its name) that no section their `rule:` cites
    prints, as `file: id 'name' (sections)`; ``texts`` is each section's text."""
    found = []
    for file, data in files.items():
        for entity, rule in named(data):
            # A name no `rule:` cites (a manifest's title) is not held to a section.
            if rule is None:
                continue
            rules = [rule] if isinstance(rule, str) else list(rule)
            if not any(printed(entity["name"], texts.get(str(section), "")) for section in rules):
                found.append(f"{file}: {entity.get('id')} {entity['name']!r} ({', '.join(map(str, rules))})")
    return found


def unprinted(manifest: Path) -> list[str]:
    """The names of a base ruleset (its manifest and listed files) that no cited section prints."""
    data = _load(manifest)
    index = _load(RULES / data["rulebook"]["rule_index"])
    text_path = WORKSPACE / index["rulebook"]["source_file"]
    if not text_path.is_file():
        pytest.skip(f"{index['rulebook']['source_file']} is not beside the checkout")
    texts = section_texts(index, text_path.read_text(encoding="utf-8"))
    files = [manifest, *(RULES / file for listed in (data.get("files") or {}).values() for file in listed)]
    return unprinted_names({str(file.relative_to(RULES)): _load(file) for file in files}, texts)


def _page_and_heading_bases() -> list[Path]:
    bases = []
    for manifest in shipped.manifests():
        data = _load(manifest)
        index = (data.get("rulebook") or {}).get("rule_index")
        by_pages = index is not None and _load(RULES / index)["rulebook"].get("numbering") == "pages_and_headings"
        if data.get("extends") is None and by_pages:
            bases.append(manifest)
    return bases


#: The base rulesets whose rulebook is cited by page and heading: listed, not read from the rule
#: indexes when the module is collected (every pytest worker collects it; reading them cost each
#: about 0.15 s of CPU), and held to them below.
BASES = [RULES / "rulesets" / f"{ruleset_id}.yaml" for ruleset_id in ("imperial-settlers", "sid-meiers-civilization")]


def test_the_rulebooks_cited_by_page_and_heading_have_base_rulesets() -> None:
    assert _page_and_heading_bases() == BASES
    assert len(BASES) >= 2, BASES


@pytest.mark.parametrize("manifest", BASES, ids=lambda path: path.stem)
def test_every_name_is_printed_where_it_is_cited(manifest: Path) -> None:
    assert unprinted(manifest) == []


SECTIONS = {
    "p9/heading": "PARA DESTRUIR UMA CARTA COMUM DA MÃO: 1. Descarte 1 Ficha de Pilhagem.",
    "p9": "Locais de Ação",
}


def test_a_name_no_cited_section_prints_is_reported_whatever_its_note_says() -> None:
    data = {
        "actions": [
            {
                "id": "raze",
                "name": "Destruir uma carta da mão",
                "rule": "p9/heading",
                "note": "No line prints the name: it is the heading without 'Comum'.",
            }
        ]
    }
    assert unprinted_names({"rules.yaml": data}, SECTIONS) == [
        "rules.yaml: raze 'Destruir uma carta da mão' (p9/heading)"
    ]


def test_a_name_without_its_own_rule_is_held_to_the_nearest_rule_around_it() -> None:
    levels = [{"id": "action", "name": "Local de Ação"}, {"id": "x", "name": "Local de Defesa"}]
    data = {"kinds": {"rule": "p9", "levels": levels}}
    assert unprinted_names({"rules.yaml": data}, SECTIONS) == ["rules.yaml: x 'Local de Defesa' (p9)"]


def test_a_printed_name_and_an_unknown_one_pass() -> None:
    data = {
        "actions": [
            {"id": "raze", "name": "Destruir uma carta Comum da mão", "rule": "p9/heading"},
            {"id": "other", "name": {"unknown": "no section names it"}, "rule": "p9/heading"},
        ]
    }
    assert unprinted_names({"rules.yaml": data}, SECTIONS) == []


def test_a_name_is_printed_in_the_singular_or_the_plural_case_and_accents_aside() -> None:
    assert printed("Tabuleiro de Facção", "4 TABULEIROS DE FACÇÃO")
    assert printed("Local de Produção", "os Locais de Produção não possuem ruas")
    assert printed("Pedra", "Recursos: Comida, Madeira, Pedra")
    assert not printed("Destruir uma carta da mão", "PARA DESTRUIR UMA CARTA COMUM DA MÃO:")
    assert not printed("Defending a capital", "+12 se estiver defendendo uma capital.")
    assert printed("Pedra", "Pedras")
    assert not printed("Ouro", "Ourives")


_LINE_CITED = re.compile(r"\(([\w.-]+\.txt), line (\d+)\)")
_COMMUNITY_FILE = re.compile(r"community/[\w.-]+\.(?:csv|md)")


def _own_rules(entity: dict[str, Any]) -> list[str]:
    rule = entity.get("rule")
    return [] if rule is None else [str(rule)] if isinstance(rule, (str, int, float)) else [str(r) for r in rule]


def names_off_their_line(
    files: dict[str, Any], sources: dict[str, str], sections: dict[str, dict[str, str]]
) -> list[str]:
    """The names in ``files`` whose own `source:` cites a line of a source text ('(FILE, line N)')
    and that neither that line, nor a section their own `rule:` cites in that text, nor a community
    file their `source:` names prints, as `file: id 'name' (FILE, line N)`. ``sources`` is each
    source file's text by its path under the sources folder; ``sections`` each text's section
    texts (from the rule indexes reading it)."""
    found = []
    for file, data in files.items():
        for entity, _ in named(data):
            cited = entity.get("source")
            if not isinstance(cited, str):
                continue
            for text_name, line in _LINE_CITED.findall(cited):
                lines = sources.get(text_name, "").split("\n")
                places = [lines[int(line) - 1] if int(line) <= len(lines) else ""]
                places += [sections.get(text_name, {}).get(section, "") for section in _own_rules(entity)]
                places += [sources.get(community, "") for community in _COMMUNITY_FILE.findall(cited)]
                if not any(printed(entity["name"], place) for place in places):
                    found.append(f"{file}: {entity.get('id')} {entity['name']!r} ({text_name}, line {line})")
    return found


def test_a_name_its_cited_line_does_not_print_is_reported_unless_a_cited_section_or_file_does() -> None:
    sources = {"rules.txt": "one\nBeans(7), Miele (8)\nthree", "community/goods.csv": "name\nMarble\n"}
    sections = {"rules.txt": {"8.2.1": "Ceramics(8), Salt(9)"}}
    line = "variant, item 11 (rules.txt, line 2)"
    goods = [
        {"id": "beans", "name": "Beans", "source": line},
        {"id": "honey", "name": "Honey", "source": line, "note": "a translation"},
        {"id": "honey_as_printed", "name": "Miele", "name_language": "it", "source": line},
        {"id": "salt", "name": "Salt", "rule": "8.2.1", "source": line},
        {"id": "jade", "name": "Jade", "rule": "8.2.1", "source": line},
        {"id": "marble", "name": "Marble", "source": f"{line}; the English name: community/goods.csv"},
    ]
    assert names_off_their_line({"goods.yaml": {"commodities": goods}}, sources, sections) == [
        "goods.yaml: honey 'Honey' (rules.txt, line 2)",
        "goods.yaml: jade 'Jade' (rules.txt, line 2)",
    ]


@heavy
def test_every_name_read_from_a_line_of_a_source_text_is_printed_there() -> None:
    """An auditor (round 30) found five goods of the Central America variant named in English
    ('Honey', 'Squash', 'Turkey', 'Pyrite', 'Shells') that no source prints: the variant's line
    prints them in Italian and their notes called the English 'a translation'. A name whose
    `source:` cites a line of a source text is printed on it, or in a section its `rule:` cites, or
    in a community file its `source:` names."""
    folder = WORKSPACE / "shared" / "sources"
    if not folder.is_dir():
        pytest.skip("../shared/sources is not beside the checkout")
    sources = {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(folder.rglob("*"))
        if path.suffix in {".txt", ".csv", ".md"}
    }
    sections: dict[str, dict[str, str]] = {}
    for path in shipped.yaml_files("rulebooks"):
        index = _load(path)
        # A rule index without a source text (Mega Civilization's: no text of its rulebook is here)
        # gives no section a text.
        text_name = Path(index["rulebook"].get("source_file", "")).name
        if text_name in sources:
            sections.setdefault(text_name, {}).update(section_texts(index, sources[text_name]))
    files = {str(path.relative_to(RULES)): _load(path) for path in shipped.yaml_files()}
    checked = [
        entity for data in files.values() for entity, _ in named(data) if _LINE_CITED.search(str(entity.get("source")))
    ]
    assert len(checked) >= 27, "the Central America goods no longer cite their line: update this test"
    assert names_off_their_line(files, sources, sections) == []
