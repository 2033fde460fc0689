"""A citation has a citation's shape, in every schema (round 20).

A blank `source:` (`"   "`) passed where an empty one was S001, and so did a blank removal `why:`
or unknown's reason; a repository cited without its commit (`cash1981/playciv:path`, or with a
commit of three characters) passed as words, though rules/README.md gives its one shape,
`owner/repo@<40-hex commit>:path`.
"""

from __future__ import annotations

import re

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline import Analysis, analyse
from civrules.schema.patterns import citation_shape
from tests import shipped
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace

SMC = "kind: ruleset\nid: cite\nname: Cite\nextends: sid-meiers-civilization\n"


def analysed(text: str) -> Analysis:
    workspace = CachedWorkspace({"rulesets/cite.yaml": text})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()["cite"]))


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def colossus(source: str) -> str:
    return SMC + f"overlay:\n  wonders:\n    patch:\n      - {{id: colossus, cost: 12, source: {source}}}\n"


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ('"   "', "the citation is blank"),
        ('"cash1981/playciv:packages/engine/src/building-data.ts"', "`cash1981/playciv` is cited without the commit"),
        ('"cash1981/playciv@abc:x.ts"', "`cash1981/playciv` is cited at `abc`, which is not a commit"),
        (f'"cash1981/playciv@{"a" * 40}"', "names no file"),
        (f'"house rule; cash1981/playciv@{"A" * 40}:x.ts"', "which is not a commit"),
    ],
)
def test_a_source_that_is_no_citation_is_s001_saying_what_is_missing(source: str, said: str) -> None:
    text = colossus(source)
    (found,) = problems(analysed(text))
    assert found.code == "S001" and said in found.message, found.message
    assert found.span is not None
    assert text.splitlines()[found.span.line - 1][found.span.column - 1 :].startswith(source)
    assert 'source: "house rule: write why here"' in (found.hint or "")
    if "playciv" in source:
        assert "`owner/repo@<commit>:path`" in (found.hint or "")


@pytest.mark.parametrize(
    "source",
    [
        "house rule: a dearer Colossus",
        "house rule: ...",  # as the hints wrote it before their blanks (round 33): words, a citation
        "https://example.com/rules.pdf",
        "community/advciv_map_areas.csv",
        "community/megaciv_advances_by_source.csv: czvandijk/MegaCivAid (1 of 8 transcriptions)",
        f"cash1981/playciv@{'a' * 40}:x.ts; other/repo@{'b' * 40}:y.json agrees",
        "p6/edificios-terrenos-validos (the text has lost the table's layout)",
    ],
)
def test_a_source_in_words_or_a_whole_repository_citation_is_taken(source: str) -> None:
    assert citation_shape(source) is None
    assert problems(analysed(colossus(f'"{source}"'))) == []


@pytest.mark.parametrize(
    ("ruleset", "file"),
    [
        ("imperial-settlers", "cards/imperial-settlers.yaml"),
        ("sid-meiers-civilization-community", "cards/sid-meiers-civilization-community-wonders.yaml"),
        ("mega-civilization", "cards/mega-civilization-commodities.yaml"),
    ],
)
def test_a_blank_source_in_a_data_file_is_s001_in_every_family(ruleset: str, file: str) -> None:
    text = (RULES / file).read_text(encoding="utf-8")
    start = text.index('source: "') + len('source: "')
    blank = text[:start] + "  " + text[text.index('"', start) :]
    workspace = CachedWorkspace({file: blank})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    found = [d for d in analysis.diagnostics if d.code == "S001"]
    assert [d.message.startswith("the citation is blank") for d in found] == [True], found


@pytest.mark.parametrize(
    "overlay",
    [
        '  calamities:\n    remove:\n      - {id: flood, why: "   "}\n',
        '  civilization_cards:\n    patch:\n      - {id: pottery, cost: {unknown: "  "}, source: "house rule"}\n',
    ],
    ids=["removal-why", "unknown-reason"],
)
def test_a_blank_reason_is_s001_as_an_empty_one_is(overlay: str) -> None:
    text = "kind: ruleset\nid: cite\nname: Cite\nextends: advanced-civilization\noverlay:\n" + overlay
    (found,) = problems(analysed(text))
    assert found.code == "S001" and "blank" in found.message, found.message
    assert found.hint == "write a text that is not blank"


#: A repository named with a file and no commit, anywhere in a text (`(owner/repo:path`, `; owner/repo:path`):
#: the schema's pattern judges a `source:` that starts so, or a part after `;` naming one with `@`.
_UNPINNED = re.compile(r"(?<![@A-Za-z0-9._/-])(?P<repository>[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+):(?=[^\s/])")
#: The shipped data's own paths that have the shape (a rulebook page's anchor, a data file).
_NOT_REPOSITORIES = ("community", "rulesets", "cards", "calamities", "maps", "factions", "rulebooks")


def test_every_repository_the_shipped_data_names_with_a_file_names_its_commit() -> None:
    """Round 21: 136 Mega Civilization sources named `bubba0077/MegaCiv:…/Civ_Constants.xml` in
    parentheses (the community CSV's provenance), which no schema pattern reads there; each is now
    pinned to the commit its 123 facts were checked at. Comments and prose are read too."""
    unpinned = [
        f"{path.relative_to(RULES)}:{number}: {found['repository']}"
        for path in shipped.yaml_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for found in _UNPINNED.finditer(line)
        if found["repository"].split("/")[0] not in _NOT_REPOSITORIES and not re.match(r"p\d+/", found["repository"])
    ]
    assert unpinned == [], unpinned


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "community/megaciv.csv (bubba0077/MegaCiv:MegaCivAid/Civ_Constants.xml)",
            "`bubba0077/MegaCiv` is cited without the commit",
        ),
        ("as printed (see ( cash1981/playciv@abc:x.ts)", "`cash1981/playciv` is cited at `abc`, which is not a commit"),
    ],
)
def test_a_repository_cited_in_parentheses_is_held_to_a_citations_shape(source: str, said: str) -> None:
    """The shipped-data guard below read a repository named with a file and no commit inside
    parentheses, `(owner/repo:path`, and the schemas' pattern did not: a designer's own data
    written so passed, as the shipped data's 136 Mega Civilization sources had before round 21."""
    assert _UNPINNED.search(source) or "@abc" in source  # the guard's shape
    assert said in (citation_shape(source) or "")
    (found,) = problems(analysed(colossus(f'"{source}"')))
    assert found.code == "S001" and said in found.message, found.message


def test_a_repository_in_parentheses_pinned_to_its_commit_is_taken() -> None:
    source = f"community/megaciv.csv (bubba0077/MegaCiv@{'c' * 40}:MegaCivAid/Civ_Constants.xml)"
    assert citation_shape(source) is None
    assert problems(analysed(colossus(f'"{source}"'))) == []


def test_a_cited_path_with_backslashes_is_given_back_with_slashes_and_nothing_else_is() -> None:
    """Q011's fix (round 33): only the path of each repository file cited at a commit changes, a
    run of `\\` (YAML's escaped `\\\\` too) one `/`; the words around it, a citation without its
    commit and a path already written with `/` stay as they are."""
    import doctest

    from civrules.schema import patterns

    assert doctest.testmod(patterns).failed == 0
    commit = "0123456789abcdef0123456789abcdef01234567"
    text = f"house rule: a\\b (o/r@{commit}:rules\\\\cards\\x.yaml); p/q@{commit}:y/z.csv; s/t@{commit}:u\\v"
    assert patterns.slashed_paths(text) == (
        f"house rule: a\\b (o/r@{commit}:rules/cards/x.yaml); p/q@{commit}:y/z.csv; s/t@{commit}:u/v"
    )
    assert patterns.backslashed_paths(text) == ("rules\\\\cards\\x.yaml", "u\\v")
    for untouched in (f"o/r@{commit}:a/b.yaml", "C:\\Users\\me\\x.txt", "o/r:a\\b", f"house rule: o/r@{commit}:a\\b"):
        assert patterns.slashed_paths(untouched) is None, untouched
