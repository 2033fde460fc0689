"""Every section a rule index lists is where it says in the source text (round 26's audit).

A `rule:` citation leads a reader to the fact in two steps: civrules holds the citation to the
ruleset's rule index (Q001, an unknown section), and these hold the index to the text it indexes
(`rulebook.source_file`, beside the checkout in `../shared/sources`): each section's line lies in
the indexed part of the text; a printed section number is printed on its line ('5,6' for 5.6
included), or the index's note says what is printed there instead (`Printed '29.8.1.6'`) and that
is; a printed heading is on its line; and a page (`p7`, `p7/its-heading`) is a page of the text,
the one its line is on (the text's pages are split by lines `---`). Without `../shared` there is no
text to hold the index to, and the tests skip. The checks are `tools/provenance.py`'s
(``index_problems``), which `make provenance-check` runs on every rule index since round 28.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import shipped
from tests.conftest import REPO
from tools.provenance import index_problems as problems

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: A rule index's `source_file` is written from the folder that holds the checkout.
WORKSPACE = REPO.parent
INDEXES = shipped.yaml_files("rulebooks")


def _index(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("path", INDEXES, ids=lambda path: path.stem)
def test_each_section_of_a_rule_index_is_where_it_says_in_the_text(path: Path) -> None:
    index = _index(path)
    source_file = index["rulebook"].get("source_file")
    if source_file is None:
        assert index["rulebook"].get("text_in_sources") is False and index["sections"] == []
        return
    text_path = WORKSPACE / source_file
    if not text_path.is_file():
        pytest.skip(f"{source_file} is not beside the checkout")
    assert list(problems(index, text_path.read_text(encoding="utf-8"))) == []


_PAGES = "intro\n---\n2\nHEADING ONE\nbody\n---\n3\nHEADING TWO\n"
_DECIMAL = "1. START\n1.1 first words\n1.2 misprinted 1.3 here\n2,1 with a comma\n"


def _doctored(numbering: str, sections: list[dict[str, Any]], last: int) -> dict[str, Any]:
    return {"rulebook": {"numbering": numbering, "part": {"first_line": 1, "last_line": last}}, "sections": sections}


def test_a_page_or_heading_not_where_the_index_says_is_reported() -> None:
    good = [
        {"section": "p2", "title": "HEADING ONE", "line": 4, "status": "printed"},
        {"section": "p2/heading-one", "title": "HEADING ONE", "line": 4, "status": "printed"},
        {"section": "p3/heading-two", "title": "HEADING TWO", "line": 8, "status": "printed"},
    ]
    assert list(problems(_doctored("pages_and_headings", good, 8), _PAGES)) == []
    bad = [
        {"section": "p3", "title": "HEADING ONE", "line": 4, "status": "printed"},
        {"section": "p2/heading-two", "title": "HEADING TWO", "line": 5, "status": "printed"},
        {"section": "p4", "title": "beyond", "line": 9, "status": "printed"},
    ]
    assert list(problems(_doctored("pages_and_headings", bad, 8), _PAGES)) == [
        "p3: line 4 is on page 2 of the text (3 pages)",
        "p2/heading-two: its heading 'HEADING TWO' is not on line 5",
        "p4: line 9 is outside the part indexed, lines 1-8",
    ]


def test_a_section_number_not_printed_on_its_line_is_reported_unless_a_note_says_why() -> None:
    good = [
        {"section": "1", "title": "START", "line": 1, "status": "printed"},
        {"section": "1.1", "title": "first words", "line": 2, "status": "printed"},
        {"section": "1.2", "title": "misprinted", "line": 3, "status": "printed"},
        {"section": "1.4", "title": "misprinted", "line": 3, "status": "printed", "note": "Printed '1.3'."},
        {"section": "2.1", "title": "with a comma", "line": 4, "status": "printed"},
        {"section": "3", "title": "not printed", "line": 4, "status": "implied"},
    ]
    assert list(problems(_doctored("decimal_digits", good, 4), _DECIMAL)) == []
    bad = [
        {"section": "1.1", "title": "first words", "line": 3, "status": "printed"},
        {"section": "2", "title": "a prefix of 2,1 is no 2", "line": 4, "status": "printed"},
        {"section": "1.5", "title": "misprinted", "line": 3, "status": "printed", "note": "Printed '1.6'."},
    ]
    assert [found.split(":")[0] for found in problems(_doctored("decimal_digits", bad, 4), _DECIMAL)] == [
        "1.1",
        "2",
        "1.5",
    ]
