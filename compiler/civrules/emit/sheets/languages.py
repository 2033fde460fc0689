"""The language of the names a sheet shows, and their marking where it is not the page's.

A sheet's own words (its headings, labels, notes) are English: the page says so (``<html
lang="en">``, :data:`PAGE_LANGUAGE`). The names it shows are the names the sources print, never
translated, so a sheet of a rulebook printed in Portuguese shows Portuguese names among English
words, and a rulebook may print a name in yet another language (an English name in a Portuguese
rulebook, an Italian one in an English transcription).

The language of a name is the data's, never a template's: the rulebook's (its rule index's
``rulebook.language``), unless the mapping holding the name says otherwise (``name_language``).
After a sheet is written, each run of its text that is a name in another language than the
element around it is wrapped in ``<span lang="...">``, so that a screen reader, a hyphenator or a
spell checker treats it as what it is. Attributes, ``<title>``, ``<style>`` and ``<script>`` are
left as they are (none can hold an element); an ``<option>``, which holds text only, takes the
``lang`` itself where its whole text is one name.

Examples
--------
>>> mark_names('<p>Take a Fulano</p>', {"Fulano": "pt-BR"})
'<p>Take a <span lang="pt-BR">Fulano</span></p>'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import escape

from civrules.load.document import Document
from civrules.model import Ruleset
from civrules.support import memo

#: The language of every sheet's own words (its templates are written in English).
PAGE_LANGUAGE = "en"

#: Elements whose content is not text that can hold a ``<span>``.
_RAW = frozenset({"style", "script", "title", "textarea", "option"})
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|<!--.*?-->|<![^>]*>", re.S)
_LANG = re.compile(r"""\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
#: Each tag that sets a language, and the raw elements a name is never marked in.
_DECLARED = re.compile(r"<[A-Za-z][^>]*?\slang\s*=[^>]*>")
_RAW_BLOCK = re.compile(r"<(style|script|title|textarea|option)\b[^>]*>.*?</\1\s*>", re.S | re.I)
#: An ``<option>``'s start tag (its attributes) and its text.
_OPTION = re.compile(r"<option\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>([^<]*)", re.I)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)


@dataclass(frozen=True, slots=True)
class NameLanguages:
    """The languages of a ruleset's names.

    ``rulebook`` is the language its rulebook is printed in (None where its rule index declares
    none); ``names`` gives each name's language (a name written in two languages is left out: no
    mark would be true of both); ``overridden`` counts the names of each language a
    ``name_language`` gives; ``title`` and ``source`` are the rulebook's (its rule index's
    ``rulebook.title`` and ``source_file``).
    """

    rulebook: str | None
    names: Mapping[str, str]
    overridden: Mapping[str, int]
    title: str | None = None
    source: str | None = None

    def others(self) -> list[tuple[str, str, int]]:
        """The languages ``name_language`` gives other than the rulebook's: (name, tag, how many names)."""
        return [
            (language_name(language), language, count)
            for language, count in self.overridden.items()
            if language != self.rulebook
        ]


#: The names of the languages shipped rule data is in, for a page to say which; another tag
#: is shown as it is written.
LANGUAGE_NAMES = {
    "en": "English",
    "es": "Spanish",
    "it": "Italian",
    "la": "Latin",
    "pt": "Portuguese",
    "pt-BR": "Brazilian Portuguese",
}


def language_name(tag: str | None) -> str:
    """The English name of a language tag (``pt-BR`` is Brazilian Portuguese), else the tag."""
    return LANGUAGE_NAMES.get(tag or "", tag or "unknown")


def rulebook_language(ruleset: Ruleset) -> str | None:
    """The language the ruleset's rulebook is printed in (its rule index's ``rulebook.language``)."""
    return _text(_rulebook(ruleset).get("language"))


def _rulebook(ruleset: Ruleset) -> Mapping[str, Any]:
    """The ``rulebook`` mapping of the ruleset's rule index (empty where it has none)."""
    index = ruleset.rule_index
    document = index.origin.document if index is not None and index.origin is not None else None
    data = document.data if document is not None else None
    book = data.get("rulebook") if isinstance(data, Mapping) else None
    return book if isinstance(book, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def name_languages(ruleset: Ruleset) -> NameLanguages:
    """Every name of the ruleset's files (a string ``name`` of any mapping) with its language.

    A name takes the ``name_language`` beside it, else the rulebook's; a name with neither has no
    known language and is not listed.
    """
    rulebook = rulebook_language(ruleset)
    found: dict[str, set[str]] = {}
    overridden: dict[str, set[str]] = {}
    for document in ruleset.documents:
        for name, own in _document_names(document):
            language = own or rulebook
            if language is not None:
                found.setdefault(name, set()).add(language)
            if own is not None:
                overridden.setdefault(own, set()).add(name)
    names = {name: next(iter(languages)) for name, languages in found.items() if len(languages) == 1}
    counts = {language: len(names_of) for language, names_of in sorted(overridden.items())}
    book = _rulebook(ruleset)
    return NameLanguages(
        rulebook, dict(sorted(names.items())), counts, _text(book.get("title")), _text(book.get("source_file"))
    )


def names_paragraph(ruleset: Ruleset, width: int = 99) -> str:
    """What a generated package's docstring says of its names' languages, as the sheets' index says
    it: plain text wrapped at ``width``, safe inside a triple-quoted docstring.

    A package's names are the sources', never translated, and a rulebook may print some in another
    language than its own: an engine developer reading one is told which language it is in, the
    rulebook's, and how many names its sources print in another (``name_language`` in the rule data
    and in ``civrules export``).
    """
    languages = name_languages(ruleset)
    rulebook = languages.rulebook
    if rulebook is None:
        text = (
            "Names (each record's `name`) are as the sources print them, never translated; the rule "
            "index declares no language for them."
        )
    else:
        printer = "the rulebook prints" if languages.source else "the sources print"
        book = f"the rulebook, {languages.title}" if languages.title else "the rulebook"
        where = (
            f" ({languages.source})"
            if languages.source
            else " (no text of it is in the sources; its rule index gives the language)"
        )
        text = (
            f"Names (each record's `name`) are as {printer} them, never translated: in "
            f"{language_name(rulebook)} ({rulebook}), the language of {book}{where}"
        )
        others = languages.others()
        if others:
            counted = ", ".join(f"{n} {'name' if n == 1 else 'names'} in {name} ({tag})" for name, tag, n in others)
            text += (
                f"; {counted}, as their sources print them (`name_language` beside each in the rule data and "
                "in the export)"
            )
        text += "."
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return textwrap.fill(escaped, width, break_long_words=False, break_on_hyphens=False)


def _document_names(document: Document) -> tuple[tuple[str, str | None], ...]:
    """The names of one document (:func:`_names`), found once while it lives: a base's files are
    read again by each of its variants' sheets."""
    found = _found.get(document)
    if found is None:
        found = _found.put(document, tuple(_names(document.data)))
    return found


_found: memo.Attached[Document, tuple[tuple[str, str | None], ...]] = memo.Attached()


def _names(data: Any) -> list[tuple[str, str | None]]:
    """Each string ``name`` under ``data``, with the ``name_language`` beside it (or None), in the
    order the document writes them (a mapping's own before those of its values).

    A manifest's own ``name`` is left out: like its ``description``, it is the designer's title of
    the ruleset, in the sheets' language, not a name the rulebook prints.

    One loop over a stack of the nodes still to read, not a generator per node: each name passed
    up through one ``yield from`` for each level above it (the walk was 2.8 ms of CPU of every
    build of the largest shipped ruleset, for about 8,000 nodes)."""
    found: list[tuple[str, str | None]] = []
    # A manifest's own name is the ruleset's title: only its values are read.
    stack = list(data.values())[::-1] if isinstance(data, Mapping) and data.get("kind") == "ruleset" else [data]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is str or kind is int or kind is bool:
            continue  # most nodes are scalars: nothing under them
        if kind is list:
            push(reversed(node))
        elif kind is dict or isinstance(node, Mapping):
            name = node.get("name")
            if isinstance(name, str) and name.strip():
                own = node.get("name_language")
                found.append((name, own if isinstance(own, str) else None))
            push(reversed(node.values()) if kind is dict else list(node.values())[::-1])
        elif isinstance(node, list):
            push(reversed(node))
    return found


class NameMarker:
    """Marks the names of :class:`NameLanguages` in a sheet (:meth:`mark`), its pattern made once."""

    def __init__(self, languages: Mapping[str, str], page: str = PAGE_LANGUAGE) -> None:
        self.page = page
        self.languages = {str(escape(name)): language for name, language in languages.items()}
        # Every name is looked for once one is foreign (a name in the page's language inside an
        # element of another is marked back); none is when all are the page's, and then no pattern
        # is made (the tree of 179 names was 1.4 ms of CPU of every build of the largest shipped
        # ruleset, whose names are all the page's, and thrown away).
        self.pattern: re.Pattern[str] | None = None
        # The same, outside any tag: `>` comes after `<` from a name in the text, never in a tag
        # (an attribute's `<` and `>` are escaped).
        self.in_text: re.Pattern[str] | None = None
        if any(language != page for language in self.languages.values()):
            names = rf"(?<![\w&#])(?:{_trie(self.languages)})(?!\w)"
            self.pattern = re.compile(names)
            self.in_text = re.compile(names + r"(?![^<>]*>)")

    def mark(self, html: str) -> str:
        """``html`` with each name in the text of an element of another language wrapped in
        ``<span lang="...">``.

        A name is found whole (not inside a longer word), the longest first; the text is the HTML
        as written (a name's ``'`` or ``&`` escaped as the templates escape it). An element's
        language is its ``lang`` attribute, else its parent's, from the page's down.
        """
        if self.in_text is None:
            return html
        html = _OPTION.sub(self._option, html)
        declared = _DECLARED.findall(html)
        if len(declared) == 1 and _language(declared[0]) == self.page:
            return self._in_page_language(html)
        pieces: list[str] = []
        stack: list[tuple[str, str, int]] = [("", self.page, 0)]
        raw: str | None = None
        position = 0
        for tag in _TAG.finditer(html):
            text = html[position : tag.start()]
            pieces.append(text if raw is not None else self._marked(text, stack[-1][1]))
            pieces.append(tag.group(0))
            position = tag.end()
            closing, name = tag.group(1), (tag.group(2) or "").lower()
            if not name:
                continue
            if raw is not None:
                raw = None if closing and name == raw else raw
                continue
            if closing:
                _close(stack, name)
            elif name in _RAW:
                raw = name
            elif name not in _VOID and not (tag.group(3) or "").rstrip().endswith("/"):
                _open(stack, name, tag.group(3) or "")
        tail = html[position:]
        pieces.append(tail if raw is not None else self._marked(tail, stack[-1][1]))
        return "".join(pieces)

    def _option(self, found: re.Match[str]) -> str:
        """An ``<option>`` whose whole text is a name in another language than the page's, with
        that ``lang``: an option holds text only, so no ``<span>`` can mark a name in it (an HTML
        parser drops one), and one holding more than a name is left as it is."""
        attributes, content = found.group(1), found.group(2)
        language = self.languages.get(content.strip())
        if language is None or language == self.page or _LANG.search(attributes) is not None:
            return found.group(0)
        return f'<option{attributes} lang="{escape(language)}">{content}'

    def _in_page_language(self, html: str) -> str:
        """:meth:`mark` of a page whose only element setting a language is its root, setting the
        page's: every run of its text is in the page's language. One pass of the names' pattern
        over the text between its raw elements, where walking its tags took three times as long."""
        assert self.in_text is not None
        pieces: list[str] = []
        position = 0

        def mark(found: re.Match[str]) -> str:
            language = self.languages[found.group(0)]
            if language == self.page:
                return found.group(0)
            return f'<span lang="{escape(language)}">{found.group(0)}</span>'

        for block in _RAW_BLOCK.finditer(html):
            pieces.append(self.in_text.sub(mark, html[position : block.start()]))
            pieces.append(block.group(0))
            position = block.end()
        pieces.append(self.in_text.sub(mark, html[position:]))
        return "".join(pieces)

    def _marked(self, text: str, around: str) -> str:
        if self.pattern is None or not text.strip():
            return text

        def mark(found: re.Match[str]) -> str:
            language = self.languages[found.group(0)]
            if language == around:
                return found.group(0)
            return f'<span lang="{escape(language)}">{found.group(0)}</span>'

        return self.pattern.sub(mark, text)


def marked_names(ruleset: Ruleset) -> tuple[NameLanguages, NameMarker]:
    """The languages of the ruleset's names (:func:`name_languages`) and their marker, made once for
    every page of it: its sheets and its helper page each made them, so a ruleset with names in
    another language than the page's had the pattern of all its names made twice in every build."""
    found = _marked.get(ruleset)
    if found is None:
        languages = name_languages(ruleset)
        found = _marked.put(ruleset, (languages, NameMarker(languages.names)))
    return found


_marked: memo.Attached[Ruleset, tuple[NameLanguages, NameMarker]] = memo.Attached()


def mark_names(html: str, languages: Mapping[str, str], page: str = PAGE_LANGUAGE) -> str:
    """``html`` with its names marked (:meth:`NameMarker.mark`)."""
    return NameMarker(languages, page).mark(html)


def _language(tag: str) -> str | None:
    """The language a tag sets (its ``lang`` attribute), or None."""
    declared = _LANG.search(tag)
    return next(group for group in declared.groups() if group is not None) if declared is not None else None


def _open(stack: list[tuple[str, str, int]], name: str, attributes: str) -> None:
    """An element opens: it is followed if it sets a language, or nests in one of its own name."""
    declared = _LANG.search(attributes)
    if declared is not None:
        stack.append((name, next(group for group in declared.groups() if group is not None), 0))
    elif stack[-1][0] == name:
        element, language, depth = stack[-1]
        stack[-1] = (element, language, depth + 1)


def _close(stack: list[tuple[str, str, int]], name: str) -> None:
    if len(stack) > 1 and stack[-1][0] == name:
        element, language, depth = stack[-1]
        if depth:
            stack[-1] = (element, language, depth - 1)
        else:
            stack.pop()


def _trie(names: Iterable[str]) -> str:
    """A pattern of ``names`` as a tree of their common beginnings, the longest tried first: a
    plain alternation of 300 names tried each at every position of a page took four times as
    long (20 ms of CPU for the sheets of the largest shipped ruleset with foreign names, where
    this takes 5)."""
    root: dict[str, Any] = {}
    for name in names:
        node = root
        for character in name:
            node = node.setdefault(character, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(character) + pattern(child) for character, child in sorted(node.items()) if character]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(root)
