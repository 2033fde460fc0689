"""The shipped player helpers name what a player reads, never the data's ids (round 31).

A card, technology, calamity, nation or faction whose name the sources do not give is, on a helper
page as on the sheets, ``unnamed`` with the rule sections that cite it (``unnamed (30.9)``,
civrules.emit.sheets.common.label_of); before round 31 the helpers wrote its id instead
(``advancement_30_9`` in the purchase planner's card list of Expansion Project and Central America).
Read in process for every shipped helper page: no text of a label or an option is an id of the
committed engine package's entities, and each unnamed card the package holds is on the page as
``label_of`` words it.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Mapping
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated"
HELPERS = shipped.built("helpers/*.html")  # never a designer's variant built beside them
_OPTION = re.compile(r"<option\b[^>]*>(.*?)</option>", re.S)
_LABEL = re.compile(r"<label\b[^>]*>(.*?)</label>", re.S)
_SELECT = re.compile(r"<select\b.*?</select>", re.S)
_TAG = re.compile(r"<[^>]+>")


def _package(ruleset_id: str) -> Any:
    if str(GENERATED / "python") not in sys.path:
        sys.path.insert(0, str(GENERATED / "python"))
    return importlib.import_module(f"civrules_rulesets.{ruleset_id.replace('-', '_')}.data")


def _ids(data: Any) -> dict[str, str]:
    """Every entity id of the package whose entity has a ``name`` (named or not): the id, its collection."""
    found = {}
    for collection in dir(data):
        table = getattr(data, collection)
        if collection.isupper() and isinstance(table, Mapping):
            for key, record in table.items():
                if isinstance(key, str) and hasattr(record, "name"):
                    found[key] = collection
    return found


@pytest.mark.parametrize("page", HELPERS, ids=lambda p: p.stem)
def test_no_label_of_a_helper_is_an_id_of_the_data(page: Path) -> None:
    data = _package(page.stem)
    ids = _ids(data)
    assert ids
    html = page.read_text(encoding="utf-8")
    texts = [m.group(1) for m in _OPTION.finditer(html)] + [_SELECT.sub("", m.group(1)) for m in _LABEL.finditer(html)]
    shown = [" ".join(unescape(_TAG.sub("", t)).split()) for t in texts]
    assert shown
    leaked = sorted({s for s in shown if s in ids})
    assert not leaked, f"labels that are ids of the data: {leaked}"
    cards = getattr(data, "CARDS", {})
    for card_id, card in cards.items():
        # (An Imperial Settlers card no source names stands as its printed id, as on its sheets.)
        if getattr(card, "name", "") is None and getattr(card, "rules", None) and not hasattr(card, "printed_ids"):
            assert f"unnamed ({', '.join(card.rules)})" in shown, card_id
