"""Unknown facts and other notes (INFO): reported once each, at the right place, never failing a run.

`tests/core/test_checks.py` pins errors and warnings only; the `infos` / `no_infos` anchors of the fixtures
of info codes are checked here.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics import Diagnostic, Severity
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests import shipped as shipped_rules
from tests.conftest import FIXTURES, RULES
from tests.core.test_checks import RULESET, apply_edits, locate
from tests.engine.facts import exported
from tests.rulefiles import CachedWorkspace, reading_apart, shipped_analysis

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def info_cases() -> list[tuple[str, str, tuple[dict[str, Any], ...], list[dict[str, Any]], bool]]:
    cases = []
    for path in sorted((FIXTURES / "checks").glob("*.yaml")):
        for entry in read_yaml(path) or []:
            for kind, present in (("bad", True), ("good", False)):
                for n, case in enumerate(entry.get(kind, [])):
                    anchors = case.get("infos" if present else "no_infos")
                    if anchors is not None:
                        name = f"{entry['code']}-{kind}-{n}"
                        cases.append((name, entry["code"], tuple(case["edits"]), anchors, present))
    return cases


INFO_CASES = info_cases()


def diagnostics(texts: dict[str, str] | None = None, ruleset: str = RULESET) -> list[Diagnostic]:
    """A ruleset's diagnostics with some files' texts replaced (the others read once per module)."""
    workspace = CachedWorkspace(texts or {})
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset])).diagnostics


@functools.cache
def shipped(ruleset: str = RULESET) -> tuple[Diagnostic, ...]:
    """A shipped ruleset's diagnostics, from the analysis the worker's tests share (its export too)."""
    return tuple(shipped_analysis(ruleset).diagnostics)


def fresh(ruleset: str = RULESET) -> list[Diagnostic]:
    """A shipped ruleset's diagnostics from a workspace that reads every file itself."""
    with reading_apart():
        workspace = Workspace(RULES)
        return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset])).diagnostics


def where(d: Diagnostic) -> tuple[str, int, int]:
    assert d.span is not None
    return Path(d.span.file).resolve().relative_to(RULES).as_posix(), d.span.line, d.span.column


@pytest.mark.parametrize(("name", "code", "edits", "anchors", "present"), INFO_CASES, ids=[c[0] for c in INFO_CASES])
def test_info_fixture(name: str, code: str, edits: tuple[dict[str, Any], ...], anchors: Any, present: bool) -> None:
    texts = apply_edits(edits)
    found = {where(d) for d in diagnostics(texts) if d.code == code and d.severity is Severity.INFO}
    for anchor in anchors:
        place = locate(texts, anchor)
        assert (place in found) is present, f"{name}: {code} {'missing' if present else 'unexpected'} at {place}"


def _count_unknowns(node: Any) -> int:
    if isinstance(node, dict):
        if set(node) == {"unknown"}:
            return 1
        # a disagreement's `chosen` restates its field, its alternatives are not the data's: not counted
        return sum(_count_unknowns(v) for k, v in node.items() if k != "disagreements")
    if isinstance(node, list):
        return sum(_count_unknowns(v) for v in node)
    return 0


def test_each_unknown_fact_is_reported_once_and_counted() -> None:
    manifest = read_yaml(RULES / "rulesets" / f"{RULESET}.yaml")
    files = [f"rulesets/{RULESET}.yaml", *(p for paths in manifest["files"].values() for p in paths)]
    expected = {f: n for f in files if (n := _count_unknowns(read_yaml(RULES / f)))}
    found = shipped()
    unknowns = [d for d in found if d.code == "Q006"]
    assert all(d.severity is Severity.INFO for d in unknowns)
    places = Counter(where(d) for d in unknowns)
    assert [p for p, n in places.items() if n > 1] == []
    assert Counter(where(d)[0] for d in unknowns) == Counter(expected)
    (summary,) = [d for d in found if d.code == "Q007"]
    assert f"has {sum(expected.values())} unknown facts" in summary.message
    for file, n in expected.items():
        assert f"{n} in {file}" in summary.message
    assert where(summary)[:2] == (f"rulesets/{RULESET}.yaml", 10)


def test_unknown_count_is_stable_across_runs() -> None:
    first = [(d.code, d.message, d.span) for d in fresh() if d.code.startswith("Q")]
    second = [(d.code, d.message, d.span) for d in fresh() if d.code.startswith("Q")]
    assert first == second
    assert first == [(d.code, d.message, d.span) for d in shipped() if d.code.startswith("Q")]


def test_unknown_fact_names_its_field_and_reason() -> None:
    messages = {d.message: d.hint for d in shipped() if d.code == "Q006"}
    assert "`ast.finish_space_min_card_value` is unknown" in messages
    assert "sources disagree" in (messages["`ast.finish_space_min_card_value` is unknown"] or "")
    assert "`player_counts.counts[6].configurations` is unknown" in messages


def test_strict_does_not_fail_on_infos() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["--rules", str(RULES), "validate", RULESET, "--strict", "--select", "Q", "--select", "P"]
    )
    assert "info[Q006]" in result.output
    assert "info[Q007]" in result.output
    assert result.exit_code == 0, result.output


def test_strict_fails_on_a_warning(rules_copy: Path) -> None:
    calamities = rules_copy / "calamities" / f"{RULESET}.yaml"
    text = calamities.read_text(encoding="utf-8")
    old = '    name: "Treachery"\n'
    assert old in text
    calamities.write_text(text.replace(old, '    name: "FAMINE"\n', 1), encoding="utf-8")
    runner = CliRunner()
    loose = runner.invoke(main, ["--rules", str(rules_copy), "validate", RULESET, "--select", "I002"])
    strict = runner.invoke(main, ["--rules", str(rules_copy), "validate", RULESET, "--strict", "--select", "I002"])
    assert "warning[I002]" in strict.output
    assert (loose.exit_code, strict.exit_code) == (0, 1)


VARIANT = """\
kind: ruleset
id: test-variant
name: "A variant that learns three facts"
extends: advanced-civilization
overlay:
  nations:
    patch:
      - id: egypt
        colour: {name: black, rule: "4.6"}
      - id: thrace
        colour: {name: white, rule: "4.6"}
      - id: asia
        colour: {name: red, rule: "4.6"}
"""


def test_a_variant_does_not_count_the_unknowns_it_replaced() -> None:
    base = [d for d in shipped() if d.code == "Q006"]
    found = diagnostics({"rulesets/test-variant.yaml": VARIANT}, "test-variant")
    assert [d for d in found if d.severity is not Severity.INFO and d.code[0] in "APQ"] == []
    variant = [d for d in found if d.code == "Q006"]
    gone = {d.message for d in base} - {d.message for d in variant}
    assert gone == {
        "`nations[egypt].colour` is unknown",
        "`nations[thrace].colour` is unknown",
        "`nations[asia].colour` is unknown",
    }
    assert len(variant) == len(base) - 3
    (summary,) = [d for d in found if d.code == "Q007"]
    assert f"has {len(base) - 3} unknown facts" in summary.message


def _readme_rows() -> dict[str, list[str]]:
    """The README's rulesets table: ruleset id -> its cells (ruleset, what, state, unknown facts)."""
    readme = (RULES.parent / "README.md").read_text(encoding="utf-8")
    header = "| ruleset | what | state | unknown facts |"
    assert header in readme, "the README's rulesets table lost its 'state' or 'unknown facts' column"
    rows = {}
    for line in readme[readme.index(header) :].splitlines()[2:]:
        if not line.startswith("| `"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        # A row of five cells renders its fifth as nothing (GitHub drops the cells past the
        # header's): the count must be the fourth cell, not the last one.
        assert len(cells) == 4, f"the README's row of {cells[0]} has {len(cells)} cells, not 4: {line}"
        rows[cells[0].strip("`")] = cells
    return rows


README_ROWS = _readme_rows()
README_COUNTS = {ruleset: int(cells[3]) for ruleset, cells in README_ROWS.items()}


def test_the_readme_lists_every_ruleset() -> None:
    """The README's table holds the shipped rulesets (tests/shipped.py), not a designer's own."""
    assert set(README_COUNTS) == set(shipped_rules.RULESETS)


@pytest.mark.parametrize("ruleset", sorted(README_ROWS))
def test_the_readme_calls_a_ruleset_a_draft_where_its_manifest_does(ruleset: str) -> None:
    """A row whose state starts with "draft" is a ruleset whose manifest says ``status: draft`` (its
    package's DRAFT, which require_complete() refuses), and no other: the Sid Meier's rulesets were
    drafts in the README and complete in their packages."""
    state = README_ROWS[ruleset][2]
    status = Workspace(RULES).manifests()[ruleset].data.get("status")
    assert state.startswith("draft") == (status == "draft"), (
        f"README says {ruleset} is {state!r}, its manifest's status is {status!r}"
    )


@pytest.mark.parametrize("ruleset", sorted(README_COUNTS))
def test_the_readme_unknown_count_is_the_tools(ruleset: str) -> None:
    """The README's count of unknown facts per ruleset is what `civrules validate --select Q006` reports."""
    found = sum(1 for d in shipped(ruleset) if d.code == "Q006")
    assert README_COUNTS[ruleset] == found, (
        f"README says {README_COUNTS[ruleset]} unknown facts for {ruleset}, the tool {found}"
    )


def _unknowns_in(node: object) -> int:
    """The `{"unknown": why}` values of an exported ruleset, but those of its `disagreements` entries:
    they restate a fact's value (the one chosen where the fact is unknown, or a base's unknown beside
    the variant's value), never a fact of their own."""
    if isinstance(node, dict):
        if isinstance(node.get("unknown"), str):
            return 1
        return sum(_unknowns_in(value) for key, value in node.items() if key != "disagreements")
    if isinstance(node, list):
        return sum(_unknowns_in(value) for value in node)
    return 0


@pytest.mark.parametrize("ruleset", sorted(README_COUNTS))
def test_the_readme_unknown_count_is_the_exports(ruleset: str) -> None:
    """Round 35: the README's counts, held above to Q006, are counted again in `civrules export`, the
    data itself: a `{unknown: why}` Q006 did not report (or reported twice) would leave the README's
    number the tool's and not the data's."""
    assert README_COUNTS[ruleset] == _unknowns_in(exported(ruleset)), (
        f"README says {README_COUNTS[ruleset]} unknown facts for {ruleset}; its export holds another number"
    )


@pytest.mark.parametrize("ruleset", ["advanced-civilization", "expansion-project"])
def test_the_command_the_summary_names_lists_every_unknown_fact(ruleset: str) -> None:
    """Q007's hint is a command that lists every unknown fact, whatever the per-file cap hides."""
    summary = next(d for d in shipped(ruleset) if d.code == "Q007")
    total = int(summary.message.split(" has ", 1)[1].split(" ", 1)[0])
    assert summary.hint is not None
    command = summary.hint.split("`")[1].split()
    assert command[0] == "civrules"
    result = CliRunner().invoke(main, ["--rules", str(RULES), *command[1:], "--format", "json"])
    assert result.exit_code == 0, result.output
    listed = [d for d in json.loads(result.stdout) if d["code"] == "Q006"]
    assert len(listed) == total


# The README's lists of gaps (`### <game>`, "Gaps"): for each section, the rulesets whose unknown facts
# it lists (a variant's with its base's), and for each kind of unknown fact those rulesets report (a
# Q006 path with its entities' ids and list positions dropped) the words the section lists it with and
# how many facts of the kind there are (distinct Q006 paths over the section's rulesets). The count holds
# single facts: a new unknown of a kind already listed (a third calamity whose victims' chooser is
# unknown, a ninth nation colour) fails until its item is read again, and where the item states the
# number or names the facts, the words include it.
README_GAPS: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, int]]]] = {
    "Advanced Civilization (`advanced-civilization`)": (
        ("advanced-civilization", "advanced-civilization-western"),
        {
            "ast.finish_space_min_card_value": ("Whether the finish box carries a card value is unknown", 1),
            "borders[].kind": ("the kind of the Caucasus–Media border", 1),
            "calamities[].primary[].chosen_by": ("who chooses the city when Treachery is not traded", 1),
            "calamities[].primary[].chosen_by_if_not_traded": (
                "who picks the coastal cities when Piracy is not traded",
                1,
            ),
            "calamities[].secondary[].chosen_by": (
                "who chooses the secondary victims' losses in Epidemic (30.611) and Iconoclasm and Heresy (30.818)",
                2,
            ),
            "nations[].colour": ("the other eight are unknown", 8),
            "nations[].start_areas.areas": ("start areas are unknown in both", 2),
            "options[].default": ("all eleven defaults", 11),
            "options[].site_label": ("the site's labels but Stoic's are unknown", 10),
            "options[].values": ("the time limit's choices", 1),
            "overlay.player_counts.patch[].configurations.append[].map.areas_in_play": (
                "the line that bounds the Western Extension's four-player map",
                1,
            ),
            "overlay.player_counts.patch[].configurations.append[].map.boundary": (
                "the line that bounds the Western Extension's four-player map",
                1,
            ),
            "player_counts.counts[].configurations": ("16.4 (six players) and 16.5 (five players) are missing", 2),
            "player_counts.counts[].configurations[].map.areas_in_play": (
                "which areas are in play on the reduced maps",
                3,
            ),
            "player_counts.counts[].tokens_per_player": ("16.4 (six players) and 16.5 (five players) are missing", 2),
            "sequence_of_play.phases[].order": ("no order criterion for Census or for moving A.S.T. markers", 2),
            "two_coast_areas": ("the areas with two coasts (23.57) are named by no source", 1),
            "victory.scoring[].space_counting": ("whether the A.S.T. start arrow counts in 35.1 D", 1),
        },
    ),
    "Civilization: The Expansion Project": (
        ("expansion-project", "central-america"),
        {
            "ast.tracks": ("their A.S.T. tracks and order", 1),
            "calamities[].modifier_combination.mode": (
                "how modifiers combine for Famine, Tempest, Cyclone, Corruption, Iconoclasm and Heresy and Piracy",
                6,
            ),
            "calamities[].primary[].chosen_by": ("who reduces the city when Treachery is not traded", 1),
            "calamities[].primary[].chosen_by_if_not_traded": ("who picks Piracy's cities when it is not traded", 1),
            "cards[].cost": ("Every advancement's cost, groups and prerequisites", 53),
            "cards[].groups": ("Every advancement's cost, groups and prerequisites", 53),
            "cards[].name": ("The names of 30.9, 30.17, 30.25, 30.27, 30.34, 30.44 and 30.54", 7),
            "cards[].prerequisites": ("Every advancement's cost, groups and prerequisites", 53),
            "credit_policy.purchases.same_turn_credits.value": ("whether credits apply to a purchase in the turn", 1),
            "credit_policy.purchases.several_cards_per_turn.value": ("whether several advancements may be bought", 1),
            "credit_policy.purchases.treasury_within_price.value": ("whether treasury tokens may pay more", 1),
            "credit_policy.two_group_cards": ("How a two-group advancement uses credit tokens", 1),
            "deck_compositions[].decks[].calamity_severities": (
                "Whether the 5–7-player deck holds the minor calamities",
                1,
            ),
            "epochs[].requirements.criteria": ("Early/Late Bronze Age requirements", 2),
            "nations": ("The 18 civilizations", 1),
            "non_player_forces[].advancements[].card": ("matches no advancement", 1),
            "non_player_forces[].calamity_card.stack": ("the stack of the Conquistador calamity", 1),
            "not_in_sources.map": ("The maps of both games", 1),
            "player_counts.counts[].configurations": ("the 5–17-player configurations", 13),
            "player_counts.counts[].configurations[].map.panels": ("The maps of both games", 1),
            "player_counts.counts[].configurations[].nations": ("The 18 civilizations", 1),
            "taxation.revolt.beneficiary": ("who takes over revolting cities", 1),
            "victory.scoring[].points": ("points for advancements of 100 or more", 1),
            "victory.scoring[].space_counting": ("whether the A.S.T. start arrow counts in 35.1 A", 1),
        },
    ),
    "Mega Civilization (`mega-civilization`)": (
        ("mega-civilization",),
        {
            "credit_policy.credits_must_be_used": ("Whether a player must apply every credit", 1),
            "nations[].colour": ("each civilization's colour and start areas", 18),
            "nations[].start_areas.areas": ("each civilization's colour and start areas", 18),
            "nations[].start_areas.fixed": ("each civilization's colour and start areas", 18),
            "not_in_sources.map": ("The map and the areas in play per player count", 1),
            "not_in_sources.victory": ("Victory in the typed section", 1),
            "player_counts.counts[].configurations[].map.boundary": ("The map panels and boundary of each", 19),
            "player_counts.counts[].configurations[].map.panels": ("The map panels and boundary of each", 19),
        },
    ),
    "Sid Meier's Civilization (`sid-meiers-civilization`, `sid-meiers-civilization-community`)": (
        ("sid-meiers-civilization", "sid-meiers-civilization-community"),
        {
            "buildings[].cost": ("those building costs the rulebook does not print", 13),
            "buildings[].limited": ("and whether it is limited", 1),
            "buildings[].terrains": ("the Barracks' terrains", 1),
            "buildings[].upgrade_of": ("which basic building each of four improved ones upgrades", 4),
            "civilizations[].starting_government": ("the starting governments of Rome and Russia", 2),
            "civilizations[].starting_technology": ("the starting technologies of its three civilizations", 3),
            "great_people[].category": ("the category of one great person", 1),
            "technologies[].level": ("the levels of the technologies the rulebook names without one", 19),
            "unit_types[].deck_size": ("unit deck sizes", 4),
            "unit_types[].ranks[].name": ("rank names", 8),
            "wonders[].cost": ("wonder eras and costs", 6),
            "wonders[].era": ("wonder eras and costs", 7),
        },
    ),
    "Imperial Settlers (`imperial-settlers` and its three variants)": (
        (
            "imperial-settlers",
            "imperial-settlers-advanced-lookout",
            "imperial-settlers-alternative-lookout",
            "imperial-settlers-peaceful",
        ),
        {
            "cards[].effect": ("82 of the 89 ability and action effects", 82),
            "cards[].name": ("The names of 92 of the 126 cards", 92),
            "cards[].production": ("4 productions the transcription encodes", 4),
            "solo.attack_cards.targets": ("The 16 solo attack cards and the goods of their target areas", 1),
        },
    ),
}


def _unknown_kind(message: str) -> str:
    """A Q006 message's path with its entities' ids and list positions dropped (`nations[].colour`)."""
    found = re.match(r"`([^`]+)` is unknown", message)
    assert found is not None, f"a Q006 message of another shape: {message}"
    return re.sub(r"\[[^\]]*\]", "[]", found.group(1))


def _readme_section(heading: str) -> str:
    """The body of the README's `### heading...` section, its whitespace made single spaces."""
    for section in re.split(r"^### ", (RULES.parent / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE):
        if section.startswith(heading):
            return " ".join(section.split("\n## ", 1)[0].split())
    raise AssertionError(f"the README has no section `### {heading}`")


def test_the_readme_gap_sections_cover_every_shipped_ruleset() -> None:
    covered = [ruleset for rulesets, _ in README_GAPS.values() for ruleset in rulesets]
    assert sorted(covered) == sorted(shipped_rules.RULESETS)


@pytest.mark.parametrize("heading", sorted(README_GAPS))
def test_the_readme_lists_each_kind_of_unknown_fact(heading: str) -> None:
    """Every kind of unknown fact the section's rulesets report is listed in the section's words, with
    its number of facts, and every kind the list names still occurs: an unknown added to the data fails
    until the README lists it, one filled fails until its line (here and in the README) goes."""
    rulesets, listed = README_GAPS[heading]
    facts: dict[str, set[str]] = {}
    for ruleset in rulesets:
        for d in shipped(ruleset):
            if d.code == "Q006":
                facts.setdefault(_unknown_kind(d.message), set()).add(d.message)
    assert sorted(set(facts) - set(listed)) == [], f"unknown facts the README's `### {heading}` does not list"
    assert sorted(set(listed) - set(facts)) == [], f"listed in `### {heading}` but no longer unknown in the data"
    counted = {kind: len(messages) for kind, messages in facts.items()}
    assert counted == {kind: count for kind, (_, count) in listed.items()}, (
        f"the number of unknown facts of a kind the README's `### {heading}` lists has changed: read its item again"
    )
    body = _readme_section(heading)
    missing = {kind: words for kind, (words, _) in listed.items() if words not in body}
    assert missing == {}, f"the README's `### {heading}` no longer says these (kind: words)"


GAPS_LIST = "**Gaps (explicitly unknown in the data)**"


def _gaps_list(heading: str) -> list[str]:
    """The items of the section's Gaps list, each on one line: the list is the lines after its bold
    heading up to the first blank one, each item a line starting `- ` and the lines indented under it."""
    body = _readme_section(heading)
    assert body.count(GAPS_LIST) == 1, f"`### {heading}` holds no one Gaps list"
    text = (RULES.parent / "README.md").read_text(encoding="utf-8")
    lines = text[text.index(GAPS_LIST, text.index(f"### {heading}")) :].splitlines()[1:]
    items: list[str] = []
    for line in lines:
        if not line.strip():
            break
        assert line.startswith(("- ", "  ")), f"`### {heading}`'s Gaps list holds a line that is no item: {line}"
        if line.startswith("- "):
            items.append(line[2:])
        else:
            items[-1] += " " + line.strip()
    return items


#: Words that tell an item of another kind than an unknown fact: a choice the data records (a
#: disagreement), a fact taken from a source, a value read rather than printed, a note of the data.
OTHER_KINDS = ("recorded", " come from ", "inferred", " are facts", "not counted", "in notes")


@pytest.mark.parametrize("heading", sorted(README_GAPS))
def test_each_item_of_the_gaps_list_is_an_unknown_fact_of_the_data(heading: str) -> None:
    """Round 35: the A.S.T. item mixed a recorded disagreement (the numbering) and a fact filled from
    one community author (the order) into Advanced Civilization's Gaps list, and the other games' lists
    mixed in disagreements (the Expansion Project's 51 advancements of 53 sections), inferences (its
    commodity values), notes that are no fields (Imperial Settlers' unidentified locations, Sid Meier's
    `not_in_sources`) and facts the sources give. Each section's list, under one heading, now holds
    only items with the words of an unknown fact's kind, and every kind's words are in the list, not
    elsewhere in the section; the other kinds have lists of their own."""
    items = _gaps_list(heading)
    listed = " ".join(items)
    words = [w for w, _ in README_GAPS[heading][1].values()]
    assert items, f"`### {heading}`'s Gaps list has no item"
    assert [item for item in items if not any(w in item for w in words)] == []
    assert [item for item in items if any(other in item for other in OTHER_KINDS)] == []
    assert [w for w in words if w not in listed] == []


def test_the_readme_counts_the_imperial_settlers_gains_per_location() -> None:
    """Round 34 could not confirm the README's '14 productions and build bonuses ... per location';
    round 35 counted them in the transcription (cards.json@c0550f40: 16 cards with a `condition`, two
    of them CHOICE_FROM_2_FACTION_CARDS) and in the data: 8 productions and 6 build bonuses with `per`."""
    cards = read_yaml(RULES / "cards" / "imperial-settlers.yaml")["cards"]
    counted = {key: [c["id"] for c in cards if "per" in (c.get(key) or {})] for key in ("production", "build_bonus")}
    body = _readme_section("Imperial Settlers")
    stated = re.search(r"The (\d+) cards whose production \((\d+)\) or build bonus \((\d+)\)", body)
    assert stated is not None, "the README's Imperial Settlers gaps no longer count the gains per location"
    assert [int(n) for n in stated.groups()] == [
        len(counted["production"]) + len(counted["build_bonus"]),
        len(counted["production"]),
        len(counted["build_bonus"]),
    ]


# Gaps the data records as lists of notes, not as `{unknown}` fields (so no Q006 reports them): for each
# README section, each list (its manifest and setting) and, for each of its entries (by the words it starts
# with), the words the section lists it with. A note added to a list fails until the README lists it, one
# removed fails until its line goes: the Sid Meier's base game's seventh `not_in_sources` entry (its
# civilizations beyond the three the rulebook names, c316cdaf) was never in the README's summary.
README_NOTED_GAPS: dict[str, dict[tuple[str, str], dict[str, str]]] = {
    "Sid Meier's Civilization (`sid-meiers-civilization`, `sid-meiers-civilization-community`)": {
        ("sid-meiers-civilization", "not_in_sources"): {
            "The component list and set-up": "the component list and set-up",
            "The levels of 19 of the 21 technologies the rulebook names": (
                "the levels of 19 of the 21 technologies it names, and the technologies it does not name"
            ),
            "Government effects beyond": "governments' effects beyond Feudalism's coin and Fundamentalism's",
            "Building costs except": "building costs but the Granary's and the Aqueduct's, and which technology",
            "Unit decks, the names of most ranks": "unit decks and most rank names; the culture track's spaces",
            "Wonders' eras and costs except": "wonders' eras and costs but the Colossus's; civilizations' abilities",
            "The base game's civilizations beyond the three": "the base game's civilizations beyond the three",
        },
        ("sid-meiers-civilization-community", "not_in_sources"): {
            "The component list and set-up": "own `not_in_sources` lists what it still lacks: the component list",
            "Government effects beyond": "governments' effects (its transcriptions' are an expansion's cards)",
            "The culture event cards themselves": "the culture event cards themselves and civilizations' abilities",
            "Which technologies, wonders, civilizations": "which of its cards and civilizations are the base game's",
        },
    },
    "Imperial Settlers (`imperial-settlers` and its three variants)": {
        ("imperial-settlers", "named_cards_not_identified"): {
            name: name
            for name in (
                "Moinho",
                "Campos do Lorde",
                "Tendas",
                "Cassino",
                "Guilda dos Construtores",
                "Castelo",
                "Marceneiro",
                "Fornecedor de Madeira",
            )
        },
    },
}


def _note_words(entry: Any) -> str:
    """A noted gap's words: the entry itself, or the name of an entry that is a mapping."""
    return entry["name"] if isinstance(entry, dict) else str(entry)


@pytest.mark.parametrize("heading", sorted(README_NOTED_GAPS))
def test_the_readme_lists_each_gap_the_data_notes(heading: str) -> None:
    """Every entry of a list of noted gaps is in the README's section, and every listed entry is still
    noted; a variant that writes such a list of its own needs its own line here."""
    body = _readme_section(heading)
    for (ruleset, setting), listed in README_NOTED_GAPS[heading].items():
        manifest = read_yaml(RULES / "rulesets" / f"{ruleset}.yaml")
        own = manifest.get(setting, ((manifest.get("overlay") or {}).get("settings") or {}).get(setting))
        entries = [_note_words(e) for e in own]
        matched = {entry: [start for start in listed if entry.startswith(start)] for entry in entries}
        assert {e: m for e, m in matched.items() if len(m) != 1} == {}, (
            f"{ruleset}'s {setting}: an entry not listed once in README_NOTED_GAPS (and so in the README)"
        )
        assert sorted(set(listed) - {m[0] for m in matched.values()}) == [], (
            f"listed for {ruleset}'s {setting} but no longer noted in the data"
        )
        missing = {start: words for start, words in listed.items() if words not in body}
        assert missing == {}, f"the README's `### {heading}` no longer says these (entry: words)"
    noted = {key for gaps in README_NOTED_GAPS.values() for key in gaps}
    for ruleset in shipped_rules.RULESETS:
        manifest = read_yaml(RULES / "rulesets" / f"{ruleset}.yaml")
        changes = (manifest.get("overlay") or {}).get("settings") or {}
        for _, setting in README_NOTED_GAPS[heading]:
            own = [value for value in (manifest.get(setting), changes.get(setting)) if isinstance(value, list)]
            assert own == [] or (ruleset, setting) in noted, (
                f"{ruleset} writes a {setting} list of its own: list it in README_NOTED_GAPS and the README"
            )


@pytest.mark.parametrize("ruleset", ["sid-meiers-civilization", "sid-meiers-civilization-community"])
def test_the_noted_gaps_a_ruleset_resolves_to_count_its_unknown_technology_levels(ruleset: str) -> None:
    """The `not_in_sources` a ruleset resolves to (its own, or its base's when it writes none) says as
    many technology levels are unknown as its facts do: the community variant, which fills all of them,
    inherited the base's "19 of the 21" with the rest of a list its transcriptions fill."""
    result = CliRunner().invoke(main, ["--rules", str(RULES), "export", ruleset])
    assert result.exit_code == 0, result.output
    notes = json.loads(result.stdout)["settings"]["not_in_sources"]
    stated = [
        int(m.group(1)) for note in notes if (m := re.match(r"The levels of (\d+) of the \d+ technologies", note))
    ]
    levels = [d for d in shipped(ruleset) if d.code == "Q006" and _unknown_kind(d.message) == "technologies[].level"]
    assert stated == ([len(levels)] if levels else []), f"{ruleset}'s not_in_sources: {notes}"


def _readme_prose_counts() -> list[tuple[str, int]]:
    """Each "N facts are unknown" the README's prose states, with the ruleset its section is about
    (the first ruleset id its `###` heading names)."""
    readme = (RULES.parent / "README.md").read_text(encoding="utf-8")
    found = []
    for section in re.split(r"^### ", readme, flags=re.MULTILINE)[1:]:
        heading, _, body = section.partition("\n")
        named = re.findall(r"`([a-z0-9-]+)`", heading)
        for count in re.findall(r"(\d+)\s+facts\s+are\s+unknown", body):
            assert named, f"the README states {count} unknown facts under `### {heading}`, which names no ruleset"
            found.append((named[0], int(count)))
    return found


def test_the_readme_prose_states_the_tables_unknown_counts() -> None:
    """A count of unknown facts written in the README's prose is the table's (which the tool holds):
    a sentence cannot keep a number the data has moved on from."""
    stated = _readme_prose_counts()
    assert stated, "the README's prose states no count of unknown facts: update this test"
    for ruleset, count in stated:
        assert README_COUNTS[ruleset] == count, (
            f"README's prose says {count} unknown facts for {ruleset}, its table {README_COUNTS[ruleset]}"
        )


def test_the_readme_counts_the_rule_index_titles_it_leaves_out() -> None:
    """The README says how many rule-index section titles are `{unknown: why}` (not counted as
    facts, but found by a grep of the data): that sentence holds the data's numbers."""
    readme = " ".join((RULES.parent / "README.md").read_text(encoding="utf-8").split())
    per_index = {}
    for path in shipped_rules.yaml_files("rulebooks"):
        unknown = sum(
            1 for s in _sections(read_yaml(path)) if isinstance(s.get("title"), dict) and "unknown" in s["title"]
        )
        if unknown:
            per_index[path.name] = unknown
    stated = re.search(r"(\d+) sections of the rulebook indexes \(([^)]*)\)", readme)
    assert stated is not None, "the README no longer says how many rule-index titles are unknown"
    assert int(stated.group(1)) == sum(per_index.values())
    written = dict(re.findall(r"`(?:rules/rulebooks/)?([a-z0-9-]+\.yaml)` (\d+)", stated.group(2)))
    assert {name: int(n) for name, n in written.items()} == per_index


def _sections(value: Any) -> list[dict[str, Any]]:
    """Every section entry of a rule index (a mapping with a `section`), at any depth: the
    rulebook's and its parts' (an online help's) alike."""
    if isinstance(value, list):
        return [one for item in value for one in _sections(item)]
    if not isinstance(value, dict):
        return []
    own = [value] if "section" in value else []
    return own + [one for item in value.values() for one in _sections(item)]


def test_an_unknown_a_disagreement_restates_is_not_counted_again() -> None:
    """Barracks' terrains are unknown in the base game of Sid Meier's Civilization, and its
    disagreement says the unknown was chosen: one unknown fact, not two (Q008 holds `chosen` to the
    field's value, so an unknown there is always the field's)."""
    found = [d.message for d in shipped("sid-meiers-civilization") if d.code == "Q006"]
    assert "`buildings[barracks].terrains` is unknown" in found
    assert [message for message in found if "disagreements" in message] == []


def _wonder_variants() -> dict[str, str]:
    """Variants of Sid Meier's Civilization that remove, add again, replace and patch wonders:
    `smc-ra` removes the Panama Canal and adds it again in one manifest; `smc-mid` (over the
    community variant, which patches the canal) removes the canal, replaces Stonehenge and patches
    the Colossus, each with an unknown; `smc-leaf` adds the canal again and replaces the other two."""
    return {
        "rulesets/smc-ra.yaml": """\
kind: ruleset
id: smc-ra
name: RA
extends: sid-meiers-civilization
overlay:
  wonders:
    remove:
      - {id: panama_canal, why: house rule}
    add:
      - {id: panama_canal, name: "Panama Canal", era: {unknown: "ra's"}, cost: 30, source: "house rule: ra"}
""",
        "rulesets/smc-mid.yaml": """\
kind: ruleset
id: smc-mid
name: Mid
extends: sid-meiers-civilization-community
overlay:
  wonders:
    remove:
      - {id: panama_canal, why: house rule}
    replace:
      - {id: stonehenge, name: "Stonehenge", era: {unknown: "mid's"}, cost: 3, source: "house rule: mid"}
    patch:
      - {id: colossus, cost: {unknown: "mid's patch"}, source: "house rule: mid"}
""",
        "rulesets/smc-leaf.yaml": """\
kind: ruleset
id: smc-leaf
name: Leaf
extends: smc-mid
overlay:
  wonders:
    add:
      - {id: panama_canal, name: "Panama Canal", era: modern, cost: 30, source: "house rule: leaf"}
    replace:
      - {id: stonehenge, name: "Stonehenge", era: ancient, cost: 4, source: "house rule: leaf"}
      - {id: colossus, name: "Colossus", era: ancient, cost: 4, source: "house rule: leaf"}
""",
    }


@functools.cache
def _wonder_analysis(ruleset: str) -> Any:
    workspace = CachedWorkspace(_wonder_variants())
    return analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))


def _unknown_wonders(ruleset: str) -> list[tuple[str, str, int]]:
    """The ruleset's Q006 about wonders (message, file, line) and, as the package's UNKNOWN_FACTS
    reads them (`unknown_facts`), its unknown wonder facts."""
    from civrules.checks.unknowns import field_path, unknown_facts
    from civrules.families import family_named

    analysis = _wonder_analysis(ruleset)
    assert [d for d in analysis.diagnostics if d.severity is not Severity.INFO] == []
    family = family_named(analysis.model.family)
    assert family is not None
    reported = [(d.message, *where(d)[:2]) for d in analysis.diagnostics if d.code == "Q006" and "wonders" in d.message]
    facts = [
        (f"{analysis.model.file_name(document.file)}: {field_path(document.data, path, family)}", "UNKNOWN_FACTS", 0)
        for document, path, _ in unknown_facts(analysis.model)
        if "wonders" in path
    ]
    return reported + facts


def test_an_entity_removed_and_added_again_keeps_none_of_the_removed_ones_unknowns() -> None:
    """The removed Panama Canal's unknown era and cost go with it; the canal added again in the same
    variant counts its own unknown era, and no other."""
    canal = [fact for fact in _unknown_wonders("smc-ra") if "panama_canal" in fact[0]]
    assert canal == [
        ("`overlay.wonders.add[panama_canal].era` is unknown", "rulesets/smc-ra.yaml", 10),
        ("rulesets/smc-ra.yaml: overlay.wonders.add[panama_canal].era", "UNKNOWN_FACTS", 0),
    ]
    base = [d for d in shipped("sid-meiers-civilization") if d.code == "Q006"]
    (summary,) = [d for d in _wonder_analysis("smc-ra").diagnostics if d.code == "Q007"]
    assert f"has {len(base) - 2 + 1} unknown facts" in summary.message


def test_a_chain_that_removes_then_adds_or_replaces_again_counts_only_what_holds() -> None:
    """Across a chain: the canal removed by `smc-mid` and added by `smc-leaf`, Stonehenge replaced by
    both, the Colossus patched by one and replaced by the other. The leaf's wonders are all known:
    none of the unknowns its bases wrote for them counts, nor their citations."""
    from civrules.checks.citations import citations

    assert [fact[:2] for fact in _unknown_wonders("smc-mid")] == [
        ("`overlay.wonders.replace[stonehenge].era` is unknown", "rulesets/smc-mid.yaml"),
        ("`overlay.wonders.patch[colossus].cost` is unknown", "rulesets/smc-mid.yaml"),
        ("rulesets/smc-mid.yaml: overlay.wonders.replace[stonehenge].era", "UNKNOWN_FACTS"),
        ("rulesets/smc-mid.yaml: overlay.wonders.patch[colossus].cost", "UNKNOWN_FACTS"),
    ]
    leaf = _wonder_analysis("smc-leaf")
    assert _unknown_wonders("smc-leaf") == []
    (summary,) = [d for d in leaf.diagnostics if d.code == "Q007"]
    assert "smc-mid.yaml" not in summary.message and "wonders.yaml" not in summary.message
    # The base's wonders cite their rulebook pages; the leaf's three replace every one of them.
    wonders = {"colossus", "stonehenge", "panama_canal"}
    cited = [
        path
        for document, path, _ in citations(leaf.model)
        if path[:1] == ("wonders",) and document.data["wonders"][path[1]]["id"] in wonders
    ]
    assert cited == []


def _unknowns_with_variants(count: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[Any]]:
    """How many unknown facts were looked up against the nodes a variant replaced while Mega
    Civilization and ``count`` variants of it writing nothing but their id and name were analysed as
    one command analyses them (one resolver, the memos they share), and each analysis."""
    from civrules.checks import citations, unknowns
    from civrules.pipeline import Shared
    from civrules.resolve import Resolver
    from civrules.support import memo

    names = [f"zz-empty-{i}" for i in range(count)]
    manifest = "kind: ruleset\nid: {}\nname: Empty\nextends: mega-civilization\n"
    workspace = CachedWorkspace({f"rulesets/{name}.yaml": manifest.format(name) for name in names})
    looked = Counter[str]()

    def counted(path: Any, paths: Any) -> bool:
        looked["facts"] += 1
        return unknowns_replaced_at(path, paths)

    memo.forget()  # counted from cold: another test may have read the same documents
    unknowns_replaced_at = citations.replaced_at
    monkeypatch.setattr(unknowns, "replaced_at", counted)
    resolver, shared = Resolver(workspace), Shared(count + 1)
    analyses = []
    for name in ("mega-civilization", *names):
        loaded = workspace.load_ruleset(workspace.manifests()[name])
        with shared.ruleset():
            analyses.append(analyse(workspace, loaded, resolver=resolver))
    monkeypatch.setattr(unknowns, "replaced_at", unknowns_replaced_at)
    for name, analysis in zip(("mega-civilization", *names), analyses, strict=True):
        alone = analyse(workspace, workspace.load_ruleset(workspace.manifests()[name]))
        assert analysis.found_by is not None and alone.found_by is not None
        assert analysis.found_by["Q006"] == alone.found_by["Q006"], name
        assert analysis.found_by["Q007"] == alone.found_by["Q007"], name
    return looked["facts"], analyses


def test_the_variants_replacing_the_same_nodes_of_a_base_look_its_unknown_facts_through_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each variant of Mega Civilization replaces its manifest's `id` and `name`: its 95 unknown
    facts were looked up against those in each variant (Q006 and Q007 of twelve rulesets after an
    edit of the base, in a long-lived session). What is left of a document's unknown facts depends
    on the document and the nodes replaced alone: looked through once for every ruleset replacing
    the same nodes, as many facts looked up under two variants as under four."""
    two, analyses = _unknowns_with_variants(2, monkeypatch)
    four, _ = _unknowns_with_variants(4, monkeypatch)
    assert 0 < two == four
    # the variants are told the base manifest's facts less those at the nodes they replace
    base, variant = (a.found_by["Q006"] for a in analyses[:2] if a.found_by is not None)
    assert 0 < len(variant) <= len(base)
