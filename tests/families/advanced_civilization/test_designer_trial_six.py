"""The designer trial of round 34: a renamed area (removed, and added under a new id), told as
the rename it looks like, with the borders it keeps written under the new id."""

from __future__ import annotations

import re

from civrules.lsp.additions import written
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed, line_of, problems

DIMASHQ = HEAD + (
    "overlay:\n  areas:\n    remove:\n"
    '      - {id: damascus, why: "house rule: renamed"}\n'
    "    add:\n"
    "      - {id: dimashq, name: Dimashq, panel: main, land: true, water: false, coastal: false,\n"
    '         population_limit: 2, city_site: black, source: "house rule: the Arabic name"}\n'
)

#: Damascus's five borders in the Mediterranean map (rules/maps/mediterranean.yaml).
NEIGHBOURS = ("jericho", "phoenicia", "sidon", "syria", "tyros")


def test_an_area_removed_and_added_under_a_new_id_is_told_as_a_rename_once_with_its_borders_written() -> None:
    """Round 33 left it: V006 offered to remove Damascus's five borders (the new area would have
    none), and M005 "area `dimashq` has no border" stood apart. One diagnostic now, at the
    `remove`: it says what the change looks like, names M005's consequence, and its retarget
    writes the borders removed and added again under `dimashq`; the quick fix writes the same."""
    found = problems(analysed(DIMASHQ))
    assert [d.code for d in found] == ["V006"], [(d.code, d.message) for d in found]
    (v006,) = found
    assert v006.span is not None and v006.span.file.endswith("rulesets/house.yaml")
    assert v006.span.line == line_of(DIMASHQ, "{id: damascus")
    assert "`dimashq`, which this variant adds, looks like `damascus` renamed" in v006.message
    assert "M005" in v006.message  # the added area's missing borders: the same change
    hint = v006.hint or ""
    assert hint.startswith("if `dimashq`, which this variant adds, is `damascus` renamed")
    retarget = hint.split("; or ")[0]
    removed = re.search(r"in `overlay\.borders`: `remove: \[([^`]*)\]`", retarget)
    added = re.search(r"`add: \[([^`]*)\]`", retarget)
    assert removed is not None and added is not None, retarget
    for neighbour in NEIGHBOURS:
        assert f"{{areas: [damascus, {neighbour}]" in removed[1]
        assert f"{{areas: [dimashq, {neighbour}], kind: land, basis: independent_map" in added[1]
    # the name-only way, which keeps `damascus` and its borders, is offered too
    assert "keep `damascus` (delete its `remove` and the `add` of `dimashq`)" in hint
    assert v006.fix_title == "Point the references at `dimashq`"
    fixed = written(DIMASHQ, v006.additions)
    assert fixed is not None
    left = problems(analysed(fixed))
    assert left and {d.code for d in left} == {"L016"}, [(d.code, d.message) for d in left]
    filled = fixed.replace("write why here", "the Arabic name")
    assert problems(analysed(filled)) == []


def test_a_misspelt_key_choosing_between_two_forms_is_told_as_the_key_it_is_close_to() -> None:
    """A credit is a group's or a card's: `{crad: democracy, points: 5}` was held to the group's
    form (both know `points`, and the first won), and told "missing key `group`" with the list of
    groups. The form whose key the unknown one is close to is the one meant: `crad` is `card`."""
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: pottery, credits: {append: [{crad: democracy, points: 5, source: "house rule: x"}]}}\n'
    )
    found = problems(analysed(text))
    assert [(d.code, d.message) for d in found] == [
        ("S002", "unknown key `crad` in `overlay.civilization_cards.patch[0].credits.append[0]`")
    ]
    assert found[0].hint is not None and found[0].hint.startswith("did you mean `card`?")
    assert found[0].span is not None and found[0].span.column == text.splitlines()[-1].index("crad") + 1


def test_a_patch_that_only_cites_is_told_it_changes_nothing() -> None:
    """A designer re-citing Music (`{id: music, source: ...}`) was told nothing, and the patch was
    without effect: a patch's citation cites the fields it writes (the merged entity keeps the
    base's `rule: "32.62"`), so `diff --citations` said "no differences". V013 now says so, at the
    citation, as it says a patch restating every value."""
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: music, source: "owner/repo@0123456789abcdef0123456789abcdef01234567:cards.yaml"}\n'
    )
    found = problems(analysed(text))
    assert [d.code for d in found] == ["V013"], [(d.code, d.message) for d in found]
    (v013,) = found
    assert v013.message == (
        "this patch of civilization card `music` changes nothing: it writes no field but its citation, "
        "and a patch's citation cites the fields it writes"
    )
    assert v013.span is not None and v013.span.line == line_of(text, "{id: music")
    assert v013.span.column == text.splitlines()[-1].index("source") + 1
    assert v013.hint is not None and "delete this entry" in v013.hint


def test_a_bare_id_where_a_cited_entry_belongs_is_written_whole_with_its_citations_blank() -> None:
    """`prerequisites: [philosophy]` in a card added: the hint wrote `{card: philosophy}`, which,
    pasted, was S004 "missing key `rule` (or `source`)". The entry is written with the blank of
    the citation its form requires, so that pasted it says L016 alone, and filled it validates."""
    text = HEAD + (
        "overlay:\n  civilization_cards:\n    add:\n"
        "      - {id: one_god, name: One God, cost: 220, groups: [religion], prerequisites: [philosophy],\n"
        '         credits: [], attributes: [], source: "house rule: renamed"}\n'
    )
    (s001,) = problems(analysed(text))
    assert s001.code == "S001" and s001.hint is not None
    written = re.search(r"`(\{card: philosophy[^`]*\})`", s001.hint)
    assert written is not None, s001.hint
    assert "with the fields it changes" not in s001.hint
    pasted = text.replace("[philosophy]", f"[{written[1]}]")
    assert [d.code for d in problems(analysed(pasted))] == ["L016"]
    filled = pasted.replace("write the rule's section here", "31.62")
    assert problems(analysed(filled)) == []


def test_a_copy_of_a_base_entity_differing_only_in_its_citation_is_told_to_be_deleted() -> None:
    """A variant's own cards file restating the base's Crafts group, cited otherwise: I001's hint
    wrote the patch of its differing fields, `{id: crafts, rule: "32.2"}`, a patch that only cites,
    which changes nothing (V013). The copy is the base's fact: the hint says to delete it."""
    from civrules.pipeline import analyse
    from tests.rulefiles import CachedWorkspace

    extra = (
        "kind: civilization_cards\n"
        'groups: [{id: crafts, name: Crafts, colour: orange, rule: "32.2"}]\n'
        "cards:\n"
        "  - {id: weaving, name: Weaving, cost: 50, groups: [crafts], prerequisites: [], credits: [], attributes: [],\n"
        '     source: "house rule: a craft"}\n'
    )
    manifest = HEAD + "files: {civilization_cards: [cards/extra.yaml]}\n"
    workspace = CachedWorkspace({"rulesets/house.yaml": manifest, "cards/extra.yaml": extra})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["house"]))
    (i001,) = [d for d in analysis.diagnostics if d.code == "I001"]
    assert i001.hint is not None and "patch" not in i001.hint, i001.hint
    assert i001.hint.startswith(
        "the base already has card group `crafts`, the same fact (its citation aside): delete it here"
    )
