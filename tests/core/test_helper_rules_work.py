"""A family's rules are embedded in its helper pages as JSON made once per build (issue 32, point 3).

Every helper page of a family embeds the same rules (its helpers' ``RULES``, a constant): a build
of several rulesets of one family made their JSON again for each page, 1 ms of CPU each for the
largest family's.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from civrules.emit.helpers import HelperPage, Rule, render
from civrules.model import Ruleset
from civrules.support import memo


def _model(ruleset_id: str) -> Ruleset:
    """What the page's shell reads of a model: its id, name and base."""
    return cast(Ruleset, SimpleNamespace(id=ruleset_id, name=ruleset_id.title(), extends=None))


def test_the_rules_of_a_family_are_made_json_once_for_all_its_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = {"double": Rule(("x",), {"op": "*", "args": [{"var": "x"}, 2]}), "one": Rule((), 1)}
    made: list[Any] = []
    from civrules.emit.helpers import embed_json as embed

    def counted(value: Any) -> str:
        made.append(value)
        return embed(value)

    monkeypatch.setattr(render, "embed_json", counted)
    memo.forget()
    pages = [
        render.page_html(_model(name), "0" * 64, HelperPage(body="<p>x</p>", tables={"n": [i]}, rules=rules, script=""))
        for i, name in enumerate(("first", "second"))
    ]
    embedded = [value for value in made if set(value) == {"double", "one"}]
    assert len(embedded) == 1  # the rules' JSON, made for the first page and taken by the second
    assert all('{"double":{"body":{"args":[{"var":"x"},2],"op":"*"},"params":["x"]}' in page for page in pages)
    other = {"one": Rule((), 1)}  # another family's rules are theirs
    render.page_html(_model("third"), "0" * 64, HelperPage(body="", tables={}, rules=other, script=""))
    assert [value for value in made if set(value) == {"one"}] == [{"one": {"params": [], "body": 1}}]
