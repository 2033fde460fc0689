"""The shipped sheets say truly which language each name is in (round 29).

A sheet's own words are English (``<html lang="en">``); the names it shows are the sources',
untranslated: Portuguese names of the Brazilian rulebooks of Imperial Settlers and Sid Meier's
Civilization, English names some of them print, Italian ones of the Central America variant.
Held here, for every shipped sheet: each run of text that is a name of the ruleset's data sits in
an element whose language (its own ``lang``, else its parent's) is the language of that name, and
the index page states the rulebook's language.

A name's language is read from the rule files here, apart from civrules: the ``rulebook.language``
of the ruleset's rule index, unless the mapping holding the name writes ``name_language``. No name is
listed here. Before round 29 every sheet declared English and marked no name, and this failed on
the first Portuguese name of each sheet of those families.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from html.parser import HTMLParser
from typing import Any

import pytest
import yaml

from civrules.emit.sheets.languages import mark_names
from tests import shipped
from tests.conftest import REPO, RULES
from tests.shipped import ruleset_files

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SHEETS = REPO / "generated" / "sheets"
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_NOT_TEXT = {"title", "style", "script"}
#: The rulesets whose sheets are small enough for the fast suite; the others run with the slow tests.
_FAST = {"imperial-settlers", "sid-meiers-civilization"}


def _load(relative: str) -> Any:
    return yaml.load((RULES / relative).read_text(encoding="utf-8"), Loader=_LOADER)


def _rulebook_language(ruleset_id: str) -> str | None:
    manifest = _load(f"rulesets/{ruleset_id}.yaml")
    index = (manifest.get("rulebook") or {}).get("rule_index")
    if index is not None:
        language = (_load(index).get("rulebook") or {}).get("language")
        return language if isinstance(language, str) else None
    return _rulebook_language(manifest["extends"]) if manifest.get("extends") else None


def _names(node: Any, top: bool) -> Iterator[tuple[str, str | None]]:
    if isinstance(node, Mapping):
        name = node.get("name")
        if isinstance(name, str) and not (top and node.get("kind") == "ruleset"):
            own = node.get("name_language")
            yield name, own if isinstance(own, str) else None
        for value in node.values():
            yield from _names(value, False)
    elif isinstance(node, list):
        for value in node:
            yield from _names(value, False)


def name_languages(ruleset_id: str) -> dict[str, set[str]]:
    """Each name of the ruleset's rule files, with the languages the data gives it."""
    rulebook = _rulebook_language(ruleset_id)
    found: dict[str, set[str]] = {}
    for relative in sorted(ruleset_files(ruleset_id)):
        for name, own in _names(_load(relative), True):
            language = own or rulebook
            if language is not None:
                found.setdefault(name, set()).add(language)
    return found


class _Runs(HTMLParser):
    """Each run of text of a page with the language of the element holding it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, str | None]] = []
        self.runs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self.open.append((tag, dict(attrs).get("lang")))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        # An end tag closes its element and any left open inside it (a <p> or <li> the page
        # does not close).
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if any(tag in _NOT_TEXT for tag, _ in self.open):
            return
        language = next((lang for _, lang in reversed(self.open) if lang is not None), None)
        self.runs.append((data, language))


def runs_of(html: str) -> list[tuple[str, str | None]]:
    parser = _Runs()
    parser.feed(html)
    parser.close()
    return parser.runs


def misplaced(html: str, languages: Mapping[str, set[str]]) -> list[str]:
    """Each name of ``languages`` in a run of ``html`` whose language is not the name's."""
    names = sorted(languages, key=lambda name: (-len(name), name))
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(name) for name in names) + r")(?!\w)")
    found = []
    for text, language in runs_of(html):
        for match in pattern.finditer(text):
            if language not in languages[match.group(0)]:
                found.append(f"{match.group(0)!r} in {language!r} text {text.strip()[:60]!r}")
    return found


def _shipped() -> list[Any]:
    return [
        pytest.param(path.name, marks=() if path.name in _FAST else pytest.mark.slow)
        for path in shipped.built("sheets/*")  # never a designer's variant built beside them
        if path.is_dir()
    ]


@pytest.mark.parametrize("ruleset_id", _shipped())
def test_every_name_on_a_shipped_sheet_carries_its_language(ruleset_id: str) -> None:
    languages = name_languages(ruleset_id)
    wrong = {}
    for page in sorted((SHEETS / ruleset_id).glob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert '<html lang="en">' in html, page.name
        found = misplaced(html, languages)
        if found:
            wrong[page.name] = found[:3]
    assert not wrong


@pytest.mark.parametrize("ruleset_id", _shipped())
def test_the_index_page_states_the_rulebooks_language(ruleset_id: str) -> None:
    language = _rulebook_language(ruleset_id)
    assert language is not None, "every shipped rule index declares rulebook.language"
    runs = "".join(text for text, _ in runs_of((SHEETS / ruleset_id / "index.html").read_text(encoding="utf-8")))
    assert re.search(r"As the (rulebook prints|sources print) them, never translated: in ", runs)
    assert f"({language})" in runs


@pytest.mark.parametrize("ruleset_id", sorted(_FAST))
def test_no_name_is_tagged_with_another_form_of_the_rulebooks_language(ruleset_id: str) -> None:
    """A name printed in the Brazilian rulebook is ``pt-BR``, as the rulebook is; a name the data
    says is in another language (Sid Meier's English technology names, the Spanish "Puesto
    comercial") keeps that language. Until round 33 two Sid Meier's names printed in the rulebook
    (Irrigação, Monarquia) were tagged ``pt``, every other Portuguese name ``pt-BR``: a slip of the
    data, not a fact of the source. Held on the data and on every sheet's ``lang`` tags."""
    rulebook = _rulebook_language(ruleset_id)
    assert rulebook == "pt-BR"
    primary = rulebook.split("-")[0].lower()

    def slip(tag: str | None) -> bool:  # the rulebook's language, but another form of it
        return tag is not None and tag != rulebook and tag.split("-")[0].lower() == primary

    data = {name: sorted(tags) for name, tags in name_languages(ruleset_id).items() if any(map(slip, tags))}
    assert data == {}, f"names the data tags with another form of {rulebook}"
    sheets = {}
    for page in sorted((SHEETS / ruleset_id).glob("*.html")):
        tags = set(re.findall(r'\slang="([^"]*)"', page.read_text(encoding="utf-8")))
        if any(map(slip, tags)):
            sheets[page.name] = sorted(tags)
    assert sheets == {}, f"sheets tagging names with another form of {rulebook}"


def test_a_name_is_marked_in_text_and_not_in_attributes_titles_or_styles() -> None:
    html = (
        '<html lang="en"><head><title>Celeiro</title><style>.Celeiro {}</style></head>'
        '<body><p title="Celeiro">Celeiros: a Celeiro, <b>Celeiro</b>; '
        '<span lang="pt-BR">o Celeiro <i>e</i> Barracks</span> Barracks</p></body></html>'
    )
    marked = mark_names(html, {"Celeiro": "pt-BR", "Barracks": "en"})
    assert misplaced(html, {"Celeiro": {"pt-BR"}, "Barracks": {"en"}})
    assert not misplaced(marked, {"Celeiro": {"pt-BR"}, "Barracks": {"en"}})
    assert "<title>Celeiro</title>" in marked and ".Celeiro {}" in marked and 'title="Celeiro"' in marked
    assert "Celeiros:" in marked  # a longer word holds no name
    assert marked.count('<span lang="pt-BR">Celeiro</span>') == 2
    assert '<span lang="en">Barracks</span></span> Barracks' in marked


def test_an_escaped_name_is_found_as_the_page_writes_it() -> None:
    html = "<p>Leonardo&#39;s Workshop &amp; Notre-Dame</p>"
    marked = mark_names(html, {"Leonardo's Workshop": "it", "Notre-Dame": "fr"})
    assert marked == '<p><span lang="it">Leonardo&#39;s Workshop</span> &amp; <span lang="fr">Notre-Dame</span></p>'


def test_names_all_in_the_pages_language_leave_the_page_untouched() -> None:
    html = "<p>Agriculture and Pottery</p>"
    assert mark_names(html, {"Agriculture": "en", "Pottery": "en"}) is html


def _package_docstring(ruleset_id: str) -> str:
    package = REPO / "generated" / "python" / "civrules_rulesets" / ruleset_id.replace("-", "_")
    source = (package / "__init__.py").read_text(encoding="utf-8")
    return " ".join((ast.get_docstring(ast.parse(source)) or "").split())


@pytest.mark.parametrize(
    "ruleset_id",
    [
        pytest.param(ruleset_id, marks=() if ruleset_id in _FAST else pytest.mark.slow)
        for ruleset_id in sorted(shipped.RULESETS)
    ],
)
def test_a_package_docstring_says_which_language_its_names_are_in(ruleset_id: str) -> None:
    """Round 30 left it: an engine developer reading `Marcado` or `Himeji Samurai Castle` in a
    package was not told in which language its names are. Its docstring names the rulebook's
    language, and each other language its names are printed in with how many."""
    doc = _package_docstring(ruleset_id)
    rulebook = _rulebook_language(ruleset_id)
    assert rulebook is not None
    assert "never translated: in " in doc and f"({rulebook}), the language of the rulebook" in doc, doc
    others: dict[str, set[str]] = {}
    for relative in sorted(ruleset_files(ruleset_id)):
        for name, own in _names(_load(relative), True):
            if own is not None and own != rulebook:
                others.setdefault(own, set()).add(name)
    for tag, names in others.items():
        assert f"{len(names)} {'name' if len(names) == 1 else 'names'} in " in doc and f"({tag})" in doc, (tag, doc)
    if not others:
        assert "names in" not in doc.split("never translated", 1)[1], doc
