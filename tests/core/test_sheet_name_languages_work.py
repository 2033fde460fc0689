"""The names a ruleset's sheets mark are found in one walk of each document, and looked for only
where one is in another language than the page's (round 30).

:func:`civrules.emit.sheets.languages._names` lists every string ``name`` of a document's data
with the ``name_language`` beside it. It was a generator that called itself for each node, so each
name went up through a ``yield from`` for each level above it: 2.8 ms of CPU in every build of
the largest shipped ruleset (issue 32, point 3). Held here: one call for the whole document, and
the same names in the same order as the recursive definition below.

:class:`~civrules.emit.sheets.languages.NameMarker` made the pattern of every name (a tree of their
common beginnings) before it asked whether any name is foreign, and threw it away when none is, as
in every sheet of that ruleset, whose 179 names are all English: 1.4 ms of every build.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from civrules.emit.sheets import languages


class _Frozen(Mapping[str, Any]):
    """A mapping that is not a dict: read through the Mapping protocol alone."""

    def __init__(self, **items: Any) -> None:
        self._items = items

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def _expected(node: Any, top: bool = True) -> Iterator[tuple[str, str | None]]:
    """The names as the documentation defines them: a mapping's own (not a manifest's), then its values'."""
    if isinstance(node, Mapping):
        name = node.get("name")
        if isinstance(name, str) and name.strip() and not (top and node.get("kind") == "ruleset"):
            own = node.get("name_language")
            yield name, own if isinstance(own, str) else None
        for value in node.values():
            yield from _expected(value, False)
    elif isinstance(node, list):
        for value in node:
            yield from _expected(value, False)


_CARDS = {
    "name": "Deck",
    "cards": [
        {"id": "a", "name": "Fulano", "name_language": "pt-BR", "parts": [{"name": "Inner"}, {"name": "  "}]},
        {"id": "b", "name": 3, "credits": [[{"name": "Deep", "name_language": 7}]], "tags": ("no", {"name": "T"})},
        _Frozen(name="Frozen", nested=_Frozen(name="Inside", name_language="it"), after=[{"name": "After"}]),
        {"name": "Last", "kind": "ruleset"},
    ],
    "tail": {"name": "Tail"},
}
_MANIFEST = {"kind": "ruleset", "name": "The title", "extends": "base", "sections": [{"name": "Own"}]}


class _Document:
    """A document as the walk reads it: its data."""

    def __init__(self, data: Any) -> None:
        self.data = data


@pytest.mark.parametrize(
    "data", [_CARDS, _MANIFEST, _Frozen(kind="ruleset", name="Title", x=[{"name": "X"}]), [], "text"]
)
def test_a_documents_names_are_found_in_one_walk_in_the_order_it_writes_them(
    data: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    walk = languages._names
    calls: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return walk(*args, **kwargs)

    monkeypatch.setattr(languages, "_names", counted)
    document = _Document(data)
    assert list(languages._document_names(document)) == list(_expected(data))  # type: ignore[arg-type]
    assert calls == [data]  # the old walk called itself once more for every node under the document


@pytest.mark.parametrize(
    ("names", "trees"),
    [({"Fulano": "en", "Beltrano": "en"}, 0), ({}, 0), ({"Fulano": "pt-BR", "Beltrano": "en"}, 1)],
)
def test_the_pattern_of_the_names_is_made_only_where_one_is_foreign(
    names: dict[str, str], trees: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[object] = []
    trie = languages._trie

    def counted(*args: Any) -> str:
        made.append(args)
        return trie(*args)

    monkeypatch.setattr(languages, "_trie", counted)
    marker = languages.NameMarker(names)
    html = "<p>Take a Fulano and a Beltrano</p>"
    marked = '<p>Take a <span lang="pt-BR">Fulano</span> and a Beltrano</p>'
    assert marker.mark(html) == (marked if trees else html)
    assert len(made) == trees


def test_a_rulesets_sheets_and_helper_page_make_the_pattern_of_its_names_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sid Meier's Civilization's names are Brazilian Portuguese on English pages: its sheets made
    the pattern of all its names, and its helper page made it again, in every build (round 31)."""
    from civrules.emit.helpers.render import render_helper
    from civrules.emit.sheets.render import render_sheets
    from civrules.load.workspace import Workspace
    from civrules.pipeline import analyse
    from tests.conftest import RULES

    workspace = Workspace(RULES)
    model = analyse(workspace, workspace.load_ruleset(workspace.manifests()["sid-meiers-civilization"])).model
    assert model is not None
    made: list[object] = []
    trie = languages._trie

    def counted(*args: Any) -> str:
        made.append(args)
        return trie(*args)

    monkeypatch.setattr(languages, "_trie", counted)
    sheet = render_sheets(model, "0" * 64, only=["units.html"])["units.html"]
    page = render_helper(model, "0" * 64)
    assert len(made) == 1
    assert b'<span lang="pt-BR">' in sheet and b'id="civrules-languages"' in page  # marked, as before
