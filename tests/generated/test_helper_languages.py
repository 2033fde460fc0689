"""The shipped player helpers say truly which language each name is in (round 30).

A helper page's own words are English (``<html lang="en">``); the names it shows are the sources',
untranslated, as on the sheets (``test_sheet_languages``, whose reading of the rule files and of a
page's text runs this shares). Held here, for every shipped helper page: each run of the page as
written that is a name of the ruleset's data sits in an element of that name's language (an
``<option>``, which holds text only, carries it itself), and the page embeds each name in another
language than English with its language (``civrules-languages``), from which its script marks the
names it writes (the families' browser tests see those). Before round 30 the helpers declared
English and marked no name: this failed on the faction menu of Imperial Settlers (``Bárbaros``).
"""

from __future__ import annotations

import json
import re

import pytest

from civrules.emit.sheets.languages import mark_names
from tests import shipped
from tests.conftest import REPO
from tests.generated.test_sheet_languages import misplaced, name_languages

HELPERS = REPO / "generated" / "helpers"
_EMBEDDED = re.compile(r'<script type="application/json" id="civrules-languages">(.*?)</script>', re.S)
#: The pages read in the fast suite (each well under 0.3 s, with names in Portuguese and English);
#: the others, larger (0.3-0.5 s each: Central America's Italian names among them), with the slow tests.
_FAST = {"imperial-settlers", "sid-meiers-civilization"}


def _shipped() -> list[object]:
    return [
        pytest.param(path.stem, marks=() if path.stem in _FAST else pytest.mark.slow)
        for path in shipped.built("helpers/*.html")  # never a designer's variant built beside them
    ]


@pytest.mark.parametrize("ruleset_id", _shipped())
def test_every_name_on_a_shipped_helper_carries_its_language(ruleset_id: str) -> None:
    html = (HELPERS / f"{ruleset_id}.html").read_text(encoding="utf-8")
    languages = name_languages(ruleset_id)
    assert '<html lang="en">' in html
    assert misplaced(html, languages) == []
    embedded = _EMBEDDED.search(html)
    foreign = {name: tags for name, tags in languages.items() if len(tags) == 1 and tags != {"en"}}
    written = json.loads(embedded.group(1)) if embedded is not None else {}
    assert written == {name: next(iter(tags)) for name, tags in foreign.items()}


def test_an_option_takes_the_language_of_the_name_it_holds() -> None:
    html = (
        '<html lang="en"><body><select><option value="a">Bárbaros</option>'
        '<option value="b">Bárbaros and more</option><option lang="es" value="c">Bárbaros</option>'
        "<option>Pottery</option></select><p>Bárbaros</p></body></html>"
    )
    marked = mark_names(html, {"Bárbaros": "pt-BR", "Pottery": "en"})
    assert '<option value="a" lang="pt-BR">Bárbaros</option>' in marked
    assert '<option value="b">Bárbaros and more</option>' in marked  # no span can sit in an option
    assert '<option lang="es" value="c">Bárbaros</option>' in marked
    assert "<option>Pottery</option>" in marked
    assert '<p><span lang="pt-BR">Bárbaros</span></p>' in marked
