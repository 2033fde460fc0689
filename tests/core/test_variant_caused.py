"""A diagnostic a variant causes in its base's files is reported at the variant.

A check that sums or compares across entities (a deck's size, the one technology at the top of the
pyramid, a wonder's discount under its cost) reports at a fact of the base, though the variant's
change broke it. When the base alone does not have it, it is the variant's: reported at the change
that causes it (or the block, or the `overlay:` line), with the base's place as a note and a hint
the designer can follow in the variant. A problem the base has too stays in the base.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules import pipeline
from civrules.cli import main
from civrules.diagnostics import Diagnostic, Related, Severity, Span
from civrules.resolve import Resolved
from tests.conftest import RULES, copy_rulesets
from tests.families.advanced_civilization.test_designer_trial import HEAD, analysed

HOUSE_IS = """\
kind: ruleset
id: house-is
name: House IS
family: imperial-settlers
extends: imperial-settlers
overlay:
  factions:
    patch:
      - id: barbarians
        special_rules: {remove: [{id: dark_altar_protected}]}
        source: "house rule: no dark altar"
  cards:
    remove: [{id: bar014, why: "house rule: no dark altar"}]
"""

HOUSE_SID = """\
kind: ruleset
id: house-sid
name: House Sid
family: sid-meiers-civilization
extends: sid-meiers-civilization
"""

NO_SPACE_FLIGHT = HOUSE_SID + 'overlay: {technologies: {remove: [{id: space_flight, why: "house rule"}]}}\n'
CHEAP_COLOSSUS = HOUSE_SID + 'overlay: {wonders: {patch: [{id: colossus, cost: 9, source: "house rule"}]}}\n'


def _validated(rules: Path, ruleset: str) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(main, ["--rules", str(rules), "validate", ruleset, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, [d for d in json.loads(result.stdout) if d["severity"] != "info"]


def _alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, text: str
) -> tuple[int, list[dict[str, Any]]]:
    """A rules folder holding only the variant, which extends a shipped ruleset (the designer's trial)."""
    monkeypatch.delenv("CIVRULES_NO_SHIPPED", raising=False)
    (tmp_path / "rules" / "rulesets").mkdir(parents=True)
    (tmp_path / "rules" / "rulesets" / f"{ruleset}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return _validated(Path("rules"), ruleset)


def _place(text: str, needle: str) -> tuple[int, int]:
    """The line and column (1-based) where ``needle`` starts in ``text``."""
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def _at(found: dict[str, Any]) -> tuple[str, int, int]:
    return found["file"], found["line"], found["column"]


def test_a_deck_the_variant_shortens_is_reported_at_the_removal_with_the_base_deck_noted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F001 was at the shipped manifest's deck, its hint ("add 2 cards") only to be followed there.
    The variant changes two collections, but of what F001 reads (the decks, the factions' decks,
    the cards' copies) only the removal of `bar014`: there, not its `overlay:` line."""
    code, found = _alone(tmp_path, monkeypatch, "house-is", HOUSE_IS)
    assert code == 1
    (short,) = found
    assert short["code"] == "F001" and "`barbarians` holds 28 cards" in short["message"]
    assert _at(short) == ("rules/rulesets/house-is.yaml", *_place(HOUSE_IS, "{id: bar014"))
    base = (RULES / "rulesets" / "imperial-settlers.yaml").read_text(encoding="utf-8")
    lines = base.splitlines()
    (line,) = [n for n, text in enumerate(lines, start=1) if "{id: barbarians, name:" in text]
    shows = short["related"][0]
    assert shows["label"] == "where the base shows it"
    column = lines[line - 1].index("size: 30") + len("size: ") + 1
    # JSON names a shipped base's file behind <civrules>/, never where it is installed
    assert _at(shows) == ("<civrules>/rulesets/imperial-settlers.yaml", line, column)
    assert short["hint"].startswith("from this variant (the base has no such problem): ")
    # the fix as the variant writes it (round 29), not the base file's "add 1 card of 2 copies"
    assert "in the base's file" not in short["hint"]
    assert short["hint"].startswith(
        "from this variant (the base has no such problem): bring the deck `barbarians` to 30 cards in "
        '`overlay.cards`, e.g. `add: [{id: "write the new card\'s id here", name: "write the card\'s name here", '
        'deck: barbarians, kind: "write the card\'s kind here", copies: 2, printed_ids: [BAR031, BAR032], '
        'cost: "write the card\'s cost here", colours: ["write the card\'s colour here"], '
        'deal: "write the good the card deals here", source: "house rule: write why here"}]`'
    )
    assert "undo or amend this change" in short["hint"]


def test_a_removed_top_technology_is_reported_at_the_removal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """T002 was at the shipped manifest's `top_level: 5`; the variant's one change is the cause."""
    code, found = _alone(tmp_path, monkeypatch, "house-sid", NO_SPACE_FLIGHT)
    assert code == 1
    (top,) = [d for d in found if d["code"] == "T002"]
    assert _at(top) == ("rules/rulesets/house-sid.yaml", *_place(NO_SPACE_FLIGHT, "{id: space_flight"))
    base = (RULES / "rulesets" / "sid-meiers-civilization.yaml").read_text(encoding="utf-8")
    shows = top["related"][0]
    assert shows["file"] == "<civrules>/rulesets/sid-meiers-civilization.yaml"
    assert shows["line"] == _place(base, "top_level: 5")[0]
    assert top["hint"].startswith("from this variant")
    assert top["hint"].endswith(
        "undo or amend this change; or, in `overlay`, patch the base's fact the note "
        '"where the base shows it" points at: give the victory technology the top level'
    )
    assert {d["file"] for d in found} == {"rules/rulesets/house-sid.yaml"}


def test_a_wonder_the_variant_makes_cheaper_than_its_discount_is_reported_at_the_patch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """T012 was at the shipped wonders file, the variant named only by the hint."""
    code, found = _alone(tmp_path, monkeypatch, "house-sid", CHEAP_COLOSSUS)
    assert code == 1
    (wonder,) = found
    assert wonder["code"] == "T012"
    assert _at(wonder) == ("rules/rulesets/house-sid.yaml", *_place(CHEAP_COLOSSUS, "{id: colossus"))
    wonders = RULES / "cards" / "sid-meiers-civilization-wonders.yaml"
    shows = wonder["related"][0]
    assert (shows["file"], shows["line"]) == (
        "<civrules>/cards/sid-meiers-civilization-wonders.yaml",
        _place(wonders.read_text(encoding="utf-8"), "{id: colossus")[0],
    )
    assert wonder["hint"] == (
        "from this variant (the base has no such problem): patch `colossus` in "
        "`overlay.wonders` (`- id: colossus` and the fields to change), which writes the fix: "
        "make it less than 9; or undo this change"
    )


def test_a_problem_of_the_base_the_variant_does_not_touch_stays_in_the_base(tmp_path: Path) -> None:
    """The failing counterpart: a base whose Colossus saves nothing has T012 itself; its variant
    that removes Space Flight moves its own T002, and leaves the base's T012 as the base has it."""
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    wonders = rules / "cards" / "sid-meiers-civilization-wonders.yaml"
    text = wonders.read_text(encoding="utf-8")
    wonders.write_text(text.replace("discount: {cost: 10,", "discount: {cost: 15,"), encoding="utf-8")
    (rules / "rulesets" / "house-sid.yaml").write_text(NO_SPACE_FLIGHT, encoding="utf-8")
    _, in_base = _validated(rules, "sid-meiers-civilization")
    (base_t012,) = [d for d in in_base if d["code"] == "T012"]
    code, found = _validated(rules, "house-sid")
    assert code == 1
    (t012,) = [d for d in found if d["code"] == "T012"]
    assert t012 == base_t012  # where the base has it, with the base's hint and notes
    assert (
        t012["file"].endswith("cards/sid-meiers-civilization-wonders.yaml") and t012["hint"] == "make it less than 15"
    )
    (t002,) = [d for d in found if d["code"] == "T002"]
    assert t002["file"].endswith("rulesets/house-sid.yaml")


def test_a_problem_of_the_base_in_other_words_in_the_variant_stays_in_the_base(tmp_path: Path) -> None:
    """A base whose Colossus saves nothing, and a variant that patches its cost: T012 counts the
    variant's cost, but the problem at that place is the base's, told how to fix it from the variant."""
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    wonders = rules / "cards" / "sid-meiers-civilization-wonders.yaml"
    text = wonders.read_text(encoding="utf-8")
    wonders.write_text(text.replace("discount: {cost: 10,", "discount: {cost: 15,"), encoding="utf-8")
    dearer = CHEAP_COLOSSUS.replace("cost: 9", "cost: 14")
    (rules / "rulesets" / "house-sid.yaml").write_text(dearer, encoding="utf-8")
    _, found = _validated(rules, "house-sid")
    (t012,) = found
    assert t012["file"].endswith("cards/sid-meiers-civilization-wonders.yaml") and "costs 14 and 15" in t012["message"]
    assert t012["hint"] == (
        "this file is the base's: from this variant, patch `colossus` in `overlay.wonders` "
        "(`- id: colossus` and the fields to change), which writes the fix: make it less than 14"
    )


# --- where in the variant: the change, the block of what the check reads, the `overlay:` line ----------

PATCHES = HEAD + (
    "overlay:\n  areas:\n    patch:\n"
    '      - {id: cyprus, panel: main, source: "house rule"}\n'
    '      - {id: rhodes, panel: main, source: "house rule"}\n'
    "  civilization_cards:\n    patch:\n"
    '      - {id: pottery, cost: 50, source: "house rule"}\n'
)


def _resolved() -> tuple[Resolved, list[str]]:
    analysis = analysed(PATCHES)
    # The areas' patches restate the one panel the base has (a V013 warning each, since round 29):
    # these tests ask where a finding goes, which what the patches write does not change.
    told = [d for d in analysis.diagnostics if d.severity != "info"]
    assert analysis.resolved is not None and [d.code for d in told] == ["V013", "V013"]
    return analysis.resolved, [analysis.loaded.manifest.file.path]


def _area(resolved: Resolved, area: str) -> Span:
    (entry,) = [e for e in resolved.collections["areas"] if e.raw["id"] == area]
    return entry.origin.span("name")


def _moved(diagnostic: Diagnostic, resolved: Resolved, own: list[str], base_has: bool = False) -> Diagnostic:
    (moved,) = pipeline.caused_by_the_variant(
        [diagnostic],
        resolved,
        own,
        {diagnostic.code: [diagnostic]},
        lambda wanted: {code: [diagnostic] if base_has else [] for code in wanted},
    )
    return moved


@pytest.mark.parametrize(
    ("code", "needle", "told"),
    [
        # M011 reads the areas' panels: the variant changes two, so the block they are written in
        ("M011", "areas:", "the change in `overlay.areas` that makes it"),
        # C006 reads the cards: the variant's one change of them
        ("C006", "{id: pottery", "undo or amend this change"),
        # X001 may read anything: the variant changes more than one thing
        ("X001", "overlay:", "the change in `overlay` that makes it"),
    ],
)
def test_a_caused_diagnostic_goes_to_what_the_variant_changes_of_what_its_check_reads(
    code: str, needle: str, told: str
) -> None:
    resolved, own = _resolved()
    at = _area(resolved, "adriatic_sea")  # not patched
    moved = _moved(Diagnostic(code, Severity.ERROR, "wrong", at, "fix it"), resolved, own)
    assert moved.span is not None and moved.span.file == own[0]
    assert (moved.span.line, moved.span.column) == _place(PATCHES, needle)
    assert moved.related == (Related(at, "where the base shows it", at_base=True),)
    assert moved.hint is not None and moved.hint.startswith("from this variant") and told in moved.hint
    assert moved.hint.endswith(
        f'{told}; or, in `overlay`, patch the base\'s fact the note "where the base shows it" points at: fix it'
    )


def test_a_caused_diagnostic_in_or_beside_an_entity_the_variant_patches_goes_to_the_patch() -> None:
    resolved, own = _resolved()
    inside = _moved(Diagnostic("M005", Severity.ERROR, "wrong", _area(resolved, "cyprus")), resolved, own)
    assert inside.span is not None and inside.span.line == _place(PATCHES, "{id: cyprus")[0]
    assert inside.hint is not None and "patch `cyprus` in `overlay.areas`" in inside.hint
    noted = Related(_area(resolved, "rhodes"), "the other side")
    beside = Diagnostic("M005", Severity.ERROR, "wrong", _area(resolved, "adriatic_sea"), None, (noted,))
    moved = _moved(beside, resolved, own)
    assert moved.span is not None and moved.span.line == _place(PATCHES, "{id: rhodes")[0]
    assert [r.label for r in moved.related] == ["where the base shows it", "the other side"]


def test_a_diagnostic_the_base_has_too_or_of_a_check_not_run_on_the_base_stays() -> None:
    resolved, own = _resolved()
    diagnostic = Diagnostic("M005", Severity.ERROR, "wrong", _area(resolved, "adriatic_sea"), "fix it")
    assert _moved(diagnostic, resolved, own, base_has=True) is diagnostic
    unknown = pipeline.caused_by_the_variant([diagnostic], resolved, own, {"M005": [diagnostic]}, lambda wanted: {})
    assert unknown == [diagnostic]
    info = Diagnostic("Q006", Severity.INFO, "unknown", _area(resolved, "adriatic_sea"))
    assert pipeline.caused_by_the_variant([info], resolved, own, {"Q006": [info]}, lambda wanted: {"Q006": []}) == [
        info
    ]


def test_the_variants_changes_are_indexed_once_for_all_the_diagnostics_it_causes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each diagnostic finds its place by bisection and counts by collection, never by trying
    every change: the changes are walked once, however many diagnostics the variant causes."""
    resolved, own = _resolved()
    walked: list[object] = []
    real = pipeline._changed_by_the_variant

    def counted(resolved: Resolved) -> Any:
        walked.append(resolved)
        return real(resolved)

    monkeypatch.setattr(pipeline, "_changed_by_the_variant", counted)
    diagnostics = [
        Diagnostic("M011", Severity.ERROR, f"`{entry.raw['id']}` is wrong", entry.origin.span("name"))
        for entry in resolved.collections["areas"]
    ]
    assert len(diagnostics) > 100
    moved = pipeline.caused_by_the_variant(
        diagnostics, resolved, own, {"M011": diagnostics}, lambda wanted: {"M011": []}
    )
    assert len(walked) == 1
    lines = {d.message.split("`")[1]: d.span.line for d in moved if d.span is not None}
    assert lines["cyprus"] == _place(PATCHES, "{id: cyprus")[0]
    assert lines["aleppo"] == _place(PATCHES, "areas:")[0]


# A variant that also changes what the check does not read: the change of what it reads, not the
# `overlay:` line (the designer trial of round 17).
POTTERY_AT_THE_TOP = HOUSE_SID + (
    "overlay:\n"
    "  technologies:\n"
    '    patch: [{id: pottery, level: 5, source: "house rule"}]\n'
    "  buildings:\n"
    '    patch: [{id: celeiro, name: "Celeiro Real", source: "house rule"}]\n'
)
TWENTY_COINS = HOUSE_SID + (
    "overlay:\n"
    "  technologies:\n"
    '    patch: [{id: pottery, name: "Cerâmica", source: "house rule"}]\n'
    "  wonders:\n"
    '    patch: [{id: colossus, cost: 11, source: "house rule"}]\n'
    "  settings:\n"
    '    coins: {victory: 20, source: "house rule"}\n'
)
ONE_COPY_FEWER = """\
kind: ruleset
id: house-is
name: House IS
family: imperial-settlers
extends: imperial-settlers
overlay:
  cards:
    patch:
      - {id: bar001, copies: 2, source: "house rule"}
      - {id: bar007, name: "Renamed", source: "house rule"}
"""
# P006 reads the nations: their removal, not the A.S.T. tracks removed beside it nor the card renamed
# (the designer trial of round 18: P001-P006 said they read every collection and setting).
SEVENTEEN_NATIONS = """\
kind: ruleset
id: mega-17
name: Mega 17
extends: mega-civilization
overlay:
  nations:
    remove:
      - {id: kushan, why: "house rule: 17 civilizations"}
  ast_tracks:
    remove:
      - {nation: kushan@basic, why: "house rule"}
      - {nation: kushan@expert, why: "house rule"}
  civilization_cards:
    patch:
      - {id: pottery, name: "Clay", source: "house rule"}
"""
# T007 reads the technologies' unlocks, the buildings and the governments, not the unit types.
NO_CATHEDRAL = """\
kind: ruleset
id: house-sid
name: House Sid
family: sid-meiers-civilization
extends: sid-meiers-civilization-community
overlay:
  technologies:
    patch:
      - {id: theology, unlocks: {buildings: []}, source: "house rule"}
  unit_types:
    patch:
      - {id: cavalaria, name: "Cavalry", source: "house rule"}
"""
# F005 reads the decks and the cards' copies, not the deck-building rule (F001-F005 said they all
# read what F001 does).
A_DEARER_COMMON_DECK = """\
kind: ruleset
id: house-is
name: House IS
family: imperial-settlers
extends: imperial-settlers
overlay:
  cards:
    patch:
      - {id: com001, copies: 3, source: "house rule"}
  settings:
    deck_building: {all_copies: true, source: "house rule"}
"""

# F008 reads the cards' printed ids and copies, not their costs (round 19's designer trial: it said
# it read the whole `cards` collection, so the unrelated cost patch sent it to the `cards:` line).
# bar004 gives up its first number (a number given up after a card's last is free on purpose).
A_GAP_AND_A_COST = """\
kind: ruleset
id: house-is
name: House IS
family: imperial-settlers
extends: imperial-settlers
overlay:
  cards:
    patch:
      - {id: bar004, copies: 2, printed_ids: [BAR005, BAR006], source: "house rule"}
      - {id: bar001, cost: [wood, wood], source: "house rule"}
"""


@pytest.mark.parametrize(
    ("ruleset", "text", "code", "needle"),
    [
        # T002 reads the technologies' levels: the pottery patch, not the building's
        ("house-sid", POTTERY_AT_THE_TOP, "T002", "{id: pottery"),
        # T015 reads the victories and the coins setting: the coins line, not the other blocks
        ("house-sid", TWENTY_COINS, "T015", "{victory: 20"),
        # F001 reads the cards' copies: the patch that changes them, not the one renaming a card
        ("house-is", ONE_COPY_FEWER, "F001", "{id: bar001"),
        ("mega-17", SEVENTEEN_NATIONS, "P006", "{id: kushan"),
        ("house-sid", NO_CATHEDRAL, "T007", "{id: theology"),
        ("house-is", A_DEARER_COMMON_DECK, "F005", "{id: com001"),
        ("house-is", A_GAP_AND_A_COST, "F008", "{id: bar004"),
    ],
)
def test_a_caused_diagnostic_goes_to_the_one_change_of_what_its_check_reads_among_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, text: str, code: str, needle: str
) -> None:
    exit_code, found = _alone(tmp_path, monkeypatch, ruleset, text)
    assert exit_code == (0 if code == "T007" else 1)  # T007 is a warning
    (caused,) = [d for d in found if d["code"] == code]
    assert _at(caused) == (f"rules/rulesets/{ruleset}.yaml", *_place(text, needle))
    assert "undo or amend this change" in caused["hint"]
    assert caused["related"][0]["label"] == "where the base shows it"


#: A problem of the base's own inside an entity a shipped variant patches, in fields the patch
#: does not write: Sid Meier's community variant patches the Colossus's era and source, the
#: western variant Africa's start areas.
BASE_OWN = {
    "sid-meiers-civilization-community": (
        "cards/sid-meiers-civilization-wonders.yaml",
        "technology: metalworking}",
        "technology: metalworkin}",
        "metalworkin}",
    ),
    "advanced-civilization-western": (
        "rulesets/advanced-civilization.yaml",
        '    name: Africa\n    rule: ["5.1", "15.3", "17.4"]',
        '    name: Africa\n    rule: ["5.1", "15.3", "17.49"]',
        '"17.49"',
    ),
}


def test_a_finding_the_base_makes_in_the_same_words_is_left_as_the_base_tells_it() -> None:
    """What the variant's analysis finds in a base file, inside an entity the variant patches, is
    told "from this variant" only where the base's own checks do not find it in the same words at
    the same place (the cheap case of the test below, which runs `validate` on both families)."""
    text = HEAD + "overlay:\n  calamities:\n    patch:\n      - {id: epidemic, modifier_combination: null}\n"
    analysis = analysed(text)
    assert analysis.resolved is not None and analysis.found_by is not None
    found = analysis.found_by["K003"]  # in the base's calamities file, inside the patched epidemic
    assert found and all(d.span is not None and "calamities/" in d.span.file for d in found)
    asked: list[frozenset[str]] = []

    def the_base(finds: list[Diagnostic]) -> Any:
        def found_by_the_base(wanted: frozenset[str]) -> dict[str, list[Diagnostic]]:
            asked.append(wanted)
            return {"K003": finds}

        return found_by_the_base

    assert pipeline.from_the_variant(found, analysis.resolved, the_base(found)) == found
    assert asked == [frozenset({"K003"})]
    for base in ([], [dataclasses.replace(d, message=f"{d.message} (in other words)") for d in found]):
        told = pipeline.from_the_variant(found, analysis.resolved, the_base(base))
        assert all("this file is the base's: from this variant, patch `epidemic`" in (d.hint or "") for d in told)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(BASE_OWN))
def test_a_problem_of_the_base_in_an_entity_the_variant_patches_is_told_once_as_the_base_tells_it(
    tmp_path: Path, variant: str
) -> None:
    """Round 19: a typo in the base's `discount:` of the Colossus, which the community variant
    patches elsewhere, was told twice at one place, the second time "from this variant, patch
    `colossus`", a change that leaves the base broken. The base's own finding is the base's."""
    relative, find, wrong, needle = BASE_OWN[variant]
    rules = copy_rulesets(tmp_path / "rules", variant)
    path = rules / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(find) == 1
    path.write_text(text.replace(find, wrong), encoding="utf-8")
    line, _ = _place(text.replace(find, wrong), needle)
    result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", "validate", "--format", "json"])
    assert result.exit_code == 1, result.output
    here = [d for d in _told(result.stdout) if d["file"].endswith(relative) and d["line"] == line]
    assert len(here) == 1 and here[0]["severity"] == "error", here
    assert "from this variant" not in (here[0]["hint"] or "")
    base = variant.rsplit("-", 1)[0]
    result = CliRunner().invoke(main, ["--rules", str(rules), "--no-shipped", "validate", base, "--format", "json"])
    assert [d for d in _told(result.stdout) if d["file"].endswith(relative) and d["line"] == line] == here


def _told(output: str) -> list[dict[str, Any]]:
    return [d for d in json.loads(output) if d["severity"] != "info"]


def test_a_note_that_names_an_id_holding_base_does_not_stand_for_the_base_definition() -> None:
    """A diagnostic inside a variant's overlay entry gets a note at the base definition unless it
    has a note at the base already; that was told by the word "base" in a note's label, so a note
    naming `database` (or a variant's `remove` of `base_camp`) kept the base definition out. A
    note made at the base says so (``at_base``), whatever its label's words."""
    from civrules.pipeline import note_base_definitions

    entry, defined = Span("v.yaml", 5, 1, 9, 1), Span("base.yaml", 20, 3, 20, 9)
    named = Related(Span("v.yaml", 8, 5, 8, 13), "`database` requires `writing` here")
    inside = Diagnostic("K005", Severity.ERROR, "wrong", Span("v.yaml", 6, 3, 6, 8), None, (named,))
    (noted,) = note_base_definitions([inside], [(entry, defined)])
    assert noted.related == (named, Related(defined, "the base definition", at_base=True))
    fact = Related(Span("base.yaml", 30, 1, 30, 4), "the fact it conflicts with", at_base=True)
    conflicting = Diagnostic("K005", Severity.ERROR, "wrong", Span("v.yaml", 6, 3, 6, 8), None, (fact,))
    assert note_base_definitions([conflicting], [(entry, defined)]) == [conflicting]


# Round 24: the variant's places were registered by each field's last changer alone, so a
# diagnostic about a fact an earlier patch entry of the same field wrote went to the later entry
# ("undo or amend this change"), and one inside an entity two entries patched went to whichever
# field sorted first, not to the first change of it.

TWO_ENTRIES = HEAD + (
    "overlay:\n  civilization_cards:\n    patch:\n"
    '      - {id: pottery, groups: {append: [civics]}, source: "house rule: a"}\n'
    '      - {id: pottery, cost: 50, source: "house rule: b"}\n'
    '      - {id: pottery, groups: {replace: [{where: civics, with: arts}]}, source: "house rule: c"}\n'
)


ONE_FIELD_TWICE = HEAD + (
    "overlay:\n  civilization_cards:\n    patch:\n"
    '      - {id: pottery, groups: {append: [civics]}, source: "house rule: a"}\n'
    '      - {id: pottery, groups: {replace: [{where: civics, with: arts}]}, source: "house rule: b"}\n'
)


def test_a_caused_diagnostic_of_a_field_two_entries_changed_goes_to_their_block_not_the_last() -> None:
    """Two entries change Pottery's groups (and nothing else): the variant changes what C006 reads
    in two places, so the block they are written in, not the second entry alone."""
    analysis = analysed(ONE_FIELD_TWICE)
    assert analysis.resolved is not None
    resolved, own = analysis.resolved, [analysis.loaded.manifest.file.path]
    at = _area(resolved, "adriatic_sea")  # no entity the variant patches
    moved = _moved(Diagnostic("C006", Severity.ERROR, "wrong", at, "fix it"), resolved, own)
    assert moved.span is not None and moved.span.file == own[0]
    assert (moved.span.line, moved.span.column) == _place(ONE_FIELD_TWICE, "civilization_cards:"), moved.span
    assert moved.hint is not None and "the change in `overlay.civilization_cards` that makes it" in moved.hint


def test_a_caused_diagnostic_inside_an_entity_two_entries_patched_goes_to_the_first_of_them() -> None:
    """Inside Pottery, which three entries patch: the first change of it, as the hint's "patch
    `pottery`" is written there (it went to the last changer of `cost`, the field sorting first)."""
    analysis = analysed(TWO_ENTRIES)
    assert analysis.resolved is not None
    resolved, own = analysis.resolved, [analysis.loaded.manifest.file.path]
    (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    inside = Diagnostic("C006", Severity.ERROR, "wrong", pottery.origin.document.span(pottery.origin.path))
    moved = _moved(inside, resolved, own)
    assert moved.span is not None and moved.span.line == _place(TWO_ENTRIES, "{id: pottery")[0], moved.span


NO_JAPANESE_DEALS = """\
kind: ruleset
id: house-deals
name: House deals
family: imperial-settlers
extends: imperial-settlers
overlay:
  settings:
    card_uses:
      deal: {deal_on: [barbarians, romans, egyptians], source: "house rule: no deals with the Japanese"}
"""


def _japanese_cards_with_a_deal() -> list[str]:
    import yaml

    cards = yaml.safe_load((RULES / "cards" / "imperial-settlers.yaml").read_text(encoding="utf-8"))["cards"]
    return [card["id"] for card in cards if card["id"].startswith("jap") and card.get("deal") is not None]


def test_a_setting_every_card_of_a_deck_contradicts_is_one_diagnostic_at_it_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 25's designer: dropping `japanese` from `card_uses.deal.deal_on` made F010 find each
    Japanese card with a deal, and each was moved to the variant's one line: 36 errors there for one
    mistake. Round 27's: every card of the deck contradicting the setting, F010 tells it at the
    setting's list, naming it and the deck, once, with a note at the first ten cards (as in a base
    ruleset, where it was an error at each card)."""
    japanese = _japanese_cards_with_a_deal()
    assert len(japanese) > 10
    code, found = _alone(tmp_path, monkeypatch, "house-deals", NO_JAPANESE_DEALS)
    assert code == 1
    (deals,) = found
    assert deals["code"] == "F010"
    assert _at(deals) == ("rules/rulesets/house-deals.yaml", *_place(NO_JAPANESE_DEALS, "[barbarians, romans"))
    assert deals["message"].startswith(
        f"`card_uses.deal.deal_on` does not name `japanese`, but its card `{japanese[0]}` has a deal (p9); "
        f"the same fix answers {len(japanese) - 1} more findings of the kind"
    )
    assert set(japanese) <= set(deals["subjects"])
    # and the base's `card_uses`, which the variant's list is merged into
    labels = [f"card `{card}`" for card in japanese[:10]]
    assert [note["label"] for note in deals["related"]] == [*labels, "the base definition"]
    assert deals["hint"] == (
        "add `japanese` to `card_uses.deal.deal_on`: every card of `japanese` has a deal; "
        "or remove `deal` from each of them"
    )


def test_a_suppression_of_one_finding_of_a_grouped_change_silences_that_one_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Suppressions are judged finding by finding, before the findings of one change are said once.
    The variant keeps one Japanese card without a deal: the rest are findings at their cards,
    each the variant's doing, said once at its change."""
    japanese = _japanese_cards_with_a_deal()
    silenced = NO_JAPANESE_DEALS.replace(
        "overlay:", f'suppress:\n  - {{code: F010, target: {japanese[1]}, reason: "its deal is kept"}}\noverlay:'
    ) + (f"  cards:\n    patch:\n      - {{id: {japanese[0]}, deal: null}}\n")
    code, found = _alone(tmp_path, monkeypatch, "house-deals", silenced)
    assert code == 1
    (deals,) = found
    assert deals["line"] == _place(silenced, "overlay:")[0]  # it changes two things F010 reads
    assert f"this change makes {len(japanese) - 3} more findings" in deals["message"]
    assert japanese[0] not in deals["subjects"] and japanese[1] not in deals["subjects"]
    assert deals["hint"].startswith("from this variant (the base has no such problem): undo or amend the change")
    assert deals["hint"].endswith(
        "that makes it; or, in `overlay`, patch the base's fact the note "
        '"where the base shows it" points at: remove `deal`'
    )
