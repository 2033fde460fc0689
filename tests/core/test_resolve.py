"""Variants: extends chains, overlay operations, provenance, and diff/export on the real rulesets."""

from __future__ import annotations

import collections
import dataclasses
import functools
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics import Diagnostic
from civrules.families import Continuation, default_family
from civrules.families.advanced_civilization.model import of_family
from civrules.load.workspace import Workspace
from civrules.pipeline import Analysis, analyse
from civrules.resolve import Resolver, merge_patch
from tests.budget import heavy
from tests.conftest import REPO, RULES
from tests.rulefiles import CachedWorkspace

HEADER = """# yaml-language-server: $schema=../../schemas/ruleset.schema.json
kind: ruleset
id: {id}
name: "{id}"
extends: {extends}
"""


def variant(ruleset_id: str, extends: str, body: str = "") -> tuple[str, str]:
    return f"rulesets/{ruleset_id}.yaml", HEADER.format(id=ruleset_id, extends=extends) + body


def card_patches(entries: list[str]) -> str:
    """An overlay whose `civilization_cards` `patch:` entries are ``entries`` (flow mappings)."""
    return "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {e}\n" for e in entries)


def resolved_counted(files: dict[int, tuple[str, str]], sizes: tuple[int, int]) -> tuple[Resolver, tuple[int, int]]:
    """The calls made resolving the variants ``files`` (``big{k}``, one for each of ``sizes``), the
    base resolved once before them (it is no part of what grows); and the resolver, for what a
    test asks of them after."""
    from tests.security.test_check_growth import calls_made

    workspace = CachedWorkspace(dict(files.values()))
    resolver = Resolver(workspace)
    resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))

    def work(k: int) -> int:
        loaded = workspace.load_ruleset(workspace.manifests()[f"big{k}"])
        return calls_made(lambda: resolver.resolve(loaded))

    small, large = (work(k) for k in sizes)
    return resolver, (small, large)


def analysed(ruleset_id: str, *files: tuple[str, str]) -> tuple[Analysis, dict[str, str]]:
    """A ruleset analysed with some files added or replaced (the shipped ones read once per module)."""
    overrides = dict(files)
    workspace = CachedWorkspace(overrides)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    return analyse(workspace, loaded), overrides


def located(analysis: Analysis, code: str) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.code == code]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_a_variant_with_no_changes_resolves_to_its_base() -> None:
    analysis, _ = analysed("plain", variant("plain", "advanced-civilization"))
    assert analysis.ok
    assert analysis.model is not None
    assert analysis.model.chain == ("advanced-civilization", "plain")
    assert len(of_family(analysis.model).cards) == 24
    assert len(of_family(analysis.model).areas) == 131


def test_unknown_base_is_located_at_the_extends_line() -> None:
    path, text = variant("lost", "advanced-civilisation")
    analysis, _ = analysed("lost", (path, text))
    (found,) = located(analysis, "V001")
    assert found.span is not None
    assert (found.span.line, found.span.column) == (line_of(text, "extends:"), 10)
    assert found.hint == "did you mean `advanced-civilization`?"


@pytest.mark.parametrize("broken", ["<<<<<<< HEAD\nname: a\n=======\nname: b\n>>>>>>> other\n", "name: [a\n"])
def test_a_base_whose_file_is_not_read_is_its_error_alone(broken: str) -> None:
    """A base ruleset whose file git left merge-conflict markers in (or a syntax error) gave its
    L001 and, in each variant, V001 "names no ruleset": a second error for one cause, and untrue.
    The variant is now not checked (V003, information), naming the file whose error says why."""
    base = ("rulesets/mid.yaml", HEADER.format(id="mid", extends="advanced-civilization") + broken)
    analysis, _ = analysed("top", base, variant("top", "mid"))
    assert [(d.code, d.message, d.hint) for d in analysis.diagnostics if d.severity != "info" or d.code == "V003"] == [
        (
            "V003",
            "the base ruleset `mid` cannot be read, so this variant was not checked",
            f"fix `{RULES.name}/rulesets/mid.yaml` first; its error is listed with it",
        )
    ]


def test_an_unknown_base_never_suggests_the_ruleset_itself_or_one_of_its_variants() -> None:
    """`extends: myvr` in myvar.yaml suggested `myvar`, and taking it (or the editor's quick fix)
    gave V002, a cycle; a variant of it is a cycle too."""
    files = [variant("myvar", "myvr"), variant("myvars", "myvar"), variant("myvar-two", "myvars")]
    analysis, _ = analysed("myvar", *files)
    (found,) = located(analysis, "V001")
    assert found.suggestion is None and "myvar" not in str(found.hint), found.hint
    analysis, _ = analysed("myvar", variant("myvar", "myvr"), variant("myvrs", "advanced-civilization"))
    (found,) = located(analysis, "V001")
    assert (found.suggestion, found.hint) == ("myvrs", "did you mean `myvrs`?")


def test_extends_cycles_of_length_one_and_three_are_reported() -> None:
    analysis, _ = analysed("selfish", variant("selfish", "selfish"))
    assert [d.message for d in located(analysis, "V002")] == ["`extends` makes a cycle: selfish → selfish"]
    files = [variant("va", "vc"), variant("vb", "va"), variant("vc", "vb")]
    analysis, _ = analysed("va", *files)
    (found,) = located(analysis, "V002")
    assert found.message == "`extends` makes a cycle: va → vc → vb → va"


def test_add_of_an_existing_id_points_at_the_overlay_with_a_note_at_the_base() -> None:
    body = (
        "overlay:\n  calamities:\n    add:\n"
        + '      - {id: famine, name: Famine II, stack: 3, tradable: false, rule: "9.1"}\n'
    )
    path, text = variant("twice", "advanced-civilization", body)
    analysis, _ = analysed("twice", (path, text))
    (found,) = located(analysis, "V004")
    assert found.span is not None
    assert found.span.file.endswith("rulesets/twice.yaml")
    assert found.span.line == line_of(text, "{id: famine")
    assert found.related[0].span.file.endswith("calamities/advanced-civilization.yaml")


@pytest.mark.parametrize("operation", ["patch", "replace", "remove"])
def test_changing_an_absent_id_is_an_error_with_the_closest_id(operation: str) -> None:
    entry = (
        '{id: famin, why: "test"}'
        if operation == "remove"
        else '{id: famin, name: X, stack: 3, tradable: false, rule: "9.1"}'
    )
    body = f"overlay:\n  calamities:\n    {operation}:\n      - {entry}\n"
    path, text = variant("absent", "advanced-civilization", body)
    analysis, _ = analysed("absent", (path, text))
    (found,) = located(analysis, "V005")
    assert found.span is not None
    assert found.span.line == line_of(text, "{id: famin")
    assert found.hint == "did you mean `famine`?"


def test_removing_an_entity_still_referenced_names_the_referrer() -> None:
    body = 'overlay:\n  civilization_cards:\n    remove:\n      - {id: engineering, why: "test"}\n'
    path, text = variant("no-engineering", "advanced-civilization", body)
    analysis, _ = analysed("no-engineering", (path, text))
    (found,) = located(analysis, "V006")
    assert found.span is not None and found.span.file.endswith("rulesets/no-engineering.yaml")
    referrers = {r.span.file for r in found.related}
    assert any(f.endswith("cards/advanced-civilization.yaml") for f in referrers)


def test_a_patch_merges_by_key_and_appends_on_request() -> None:
    body = """overlay:
  nations:
    patch:
      - id: illyria
        start_areas: {areas: {append: [dalmatia]}}
  civilization_cards:
    patch:
      - {id: pottery, cost: 50}
"""
    analysis, _ = analysed("patched", variant("patched", "advanced-civilization", body))
    assert analysis.model is not None
    illyria = of_family(analysis.model).nations.get("illyria")
    assert illyria is not None
    assert illyria.start_areas == ("sudeten", "germania_2", "dalmatia")
    assert illyria.raw["start_areas"]["fixed"] is False  # the rest of the mapping is kept
    pottery = of_family(analysis.model).cards.get("pottery")
    assert pottery is not None
    assert pottery.cost == 50
    assert pottery.credit_list()  # untouched fields survive


def test_a_patched_field_is_located_in_the_overlay_with_a_note_at_the_base() -> None:
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n      - id: mining\n"
        '        prerequisites: [{card: enginering, rule: "31.62"}]\n'
    )
    path, text = variant("typo", "advanced-civilization", body)
    analysis, _ = analysed("typo", (path, text))
    (found,) = located(analysis, "X001")
    assert found.span is not None
    assert found.span.file.endswith("rulesets/typo.yaml")
    assert found.span.line == line_of(text, "enginering")
    assert any(r.span.file.endswith("cards/advanced-civilization.yaml") for r in found.related)


def test_a_patch_that_breaks_the_entity_schema_is_located_in_the_overlay() -> None:
    body = "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: cheap}\n"
    path, text = variant("cheap", "advanced-civilization", body)
    analysis, _ = analysed("cheap", (path, text))
    (found,) = [d for d in analysis.diagnostics if d.code.startswith("S")]
    assert found.span is not None
    assert found.span.file.endswith("rulesets/cheap.yaml")
    assert found.span.line == line_of(text, "cost: cheap")


def test_a_card_patched_many_times_is_validated_once_each_part_located_where_last_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An entity patched by several entries of one block is validated once, as they left it: a
    part an earlier patch broke is reported once, at that patch, not once per later patch."""
    from civrules.schema import validate_entity as validate

    appended = "".join(
        f'      - {{id: pottery, attributes: {{append: [{{text: "Kiln {i}.", rule: "32.21"}}]}}}}\n' for i in range(30)
    )
    body = "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: cheap}\n" + appended
    path, text = variant("kilns", "advanced-civilization", body)
    validated: list[Any] = []

    def counted(*args: Any) -> list[Diagnostic]:
        validated.append(args[2].get("id"))
        return validate(*args)

    monkeypatch.setattr("civrules.resolve.validate_entity", counted)
    analysis, _ = analysed("kilns", (path, text))
    assert validated == ["pottery"]
    (found,) = [d for d in analysis.diagnostics if d.code.startswith("S")]
    assert found.span is not None and found.span.file.endswith("rulesets/kilns.yaml")
    assert found.span.line == line_of(text, "cost: cheap")


def test_multi_level_extends_and_provenance_through_the_chain() -> None:
    middle = variant(
        "middle",
        "advanced-civilization",
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 50}\n",
    )
    top = variant("top", "middle", "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cost: 55}\n")
    analysis, _ = analysed("top", middle, top)
    assert analysis.model is not None
    assert analysis.model.chain == ("advanced-civilization", "middle", "top")
    pottery = of_family(analysis.model).cards.get("pottery")
    assert pottery is not None
    assert pottery.cost == 55
    assert pottery.origin.span("cost").file.endswith("rulesets/top.yaml")
    assert pottery.origin.span("name").file.endswith("cards/advanced-civilization.yaml")


def test_variant_settings_replace_the_base_ones() -> None:
    body = 'players: {min: 3, max: 6, rule: "16.1"}\n'
    analysis, _ = analysed("fewer", variant("fewer", "advanced-civilization", body))
    assert analysis.model is not None
    assert analysis.model.players == (3, 6)


@pytest.mark.parametrize("path", ["../outside.yaml", "/etc/passwd"])
def test_paths_that_leave_rules_are_refused(path: str) -> None:
    body = f"files:\n  map:\n    - {path}\n"
    manifest, text = variant("escape", "advanced-civilization", body)
    analysis, _ = analysed("escape", (manifest, text))
    assert [d.code for d in analysis.diagnostics if d.severity == "error"] == ["S001"]


def test_a_symbolic_link_out_of_rules_is_refused(tmp_path: Path, family_copy: Path) -> None:
    rules = family_copy
    outside = tmp_path / "outside.yaml"
    outside.write_text((RULES / "maps" / "western-panel.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(outside, rules / "maps" / "linked.yaml")
    path, text = variant("linked", "advanced-civilization", "files:\n  map:\n    - maps/linked.yaml\n")
    (rules / path).write_text(text, encoding="utf-8")
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["linked"]))
    (found,) = [d for d in analysis.diagnostics if d.severity == "error"]
    assert found.code == "R003"
    assert found.span is not None
    assert found.span.line == line_of(text, "maps/linked.yaml")


def test_merge_patch_follows_rfc_7386_with_append() -> None:
    assert merge_patch({"a": 1, "b": [1]}, {"a": None, "b": [2]}) == {"b": [2]}
    assert merge_patch({"b": [1]}, {"b": {"append": [2]}}) == {"b": [1, 2]}
    assert merge_patch({"u": {"unknown": "x"}}, {"u": {"v": 1}}) == {"u": {"v": 1}}
    assert merge_patch({"u": {"v": 1}}, {"u": {"unknown": "why"}}) == {"u": {"unknown": "why"}}


def test_the_western_extension_validates_clean_and_diffs_as_its_rules() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--rules", str(RULES), "validate", "advanced-civilization-western"])
    assert result.exit_code == 0, result.stdout
    result = runner.invoke(
        main,
        ["--rules", str(RULES), "diff", "advanced-civilization", "advanced-civilization-western", "--format", "json"],
    )
    assert result.exit_code == 0
    changes = json.loads(result.stdout)["collections"]
    assert len(changes["areas"]["added"]) == 27
    assert {c["id"] for c in changes["nations"]["changed"]} == {"africa"}  # Italy's change is only its note
    assert changes["player_counts"]["changed"][0]["fields"][0]["field"] == "configurations[western]"
    assert "removed" not in json.dumps(changes["areas"]["removed"])


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_diff_refuses_rulesets_of_two_games_naming_both_families(fmt: str) -> None:
    result = CliRunner().invoke(
        main, ["--rules", str(RULES), "diff", "advanced-civilization", "imperial-settlers", "--format", fmt]
    )
    assert result.exit_code == 2, result.output
    assert result.stdout == ""  # no diff: the refusal on standard error
    if fmt == "json":  # the refusal alone, in the format asked for
        [refusal] = json.loads(result.stderr)
        assert refusal["code"] == "R014" and refusal["file"] == "<command line>"
    else:
        assert result.stderr.count("\n") <= 4, result.stderr  # no removals listed, only the refusal
    assert "R014" in result.output
    assert "`advanced-civilization` is of `advanced-civilization`" in result.output
    assert "`imperial-settlers` of `imperial-settlers`" in result.output


def test_export_shows_the_resolved_variant() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--rules", str(RULES), "export", "advanced-civilization-western"])
    assert result.exit_code == 0
    exported = json.loads(result.stdout)
    assert exported["ruleset"]["chain"] == ["advanced-civilization", "advanced-civilization-western"]
    assert len(exported["areas"]) == 158
    africa = next(n for n in exported["nations"] if n["id"] == "africa")
    assert "cirta" in africa["start_areas"]["areas"]


def test_diff_text_reads_as_the_western_extension_rules() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["--rules", str(REPO / "rules"), "diff", "advanced-civilization", "advanced-civilization-western"]
    )
    assert result.exit_code == 0
    assert result.stdout.startswith("advanced-civilization → advanced-civilization-western\n")
    assert "areas: 27 added" in result.stdout
    assert "  + cirta  Cirta" in result.stdout


def test_new_variant_scaffolds_a_valid_variant(family_copy: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["--rules", str(family_copy), "new-variant", "my-civ", "--extends", "advanced-civilization"]
    )
    assert result.exit_code == 0, result.output
    created = family_copy / "rulesets" / "my-civ.yaml"
    assert created.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=../../schemas/")
    result = runner.invoke(main, ["--rules", str(family_copy), "validate", "my-civ"])
    assert result.exit_code == 0, result.stdout
    result = runner.invoke(main, ["--rules", str(family_copy), "diff", "advanced-civilization", "my-civ"])
    assert result.stdout.endswith("no differences\n")
    again = runner.invoke(
        main, ["--rules", str(family_copy), "new-variant", "my-civ", "--extends", "advanced-civilization"]
    )
    assert again.exit_code == 2
    unknown = runner.invoke(main, ["--rules", str(family_copy), "new-variant", "other", "--extends", "nowhere"])
    assert unknown.exit_code == 2


def test_diff_with_citations_also_shows_changed_notes() -> None:
    runner = CliRunner()
    args = ["--rules", str(RULES), "diff", "advanced-civilization", "advanced-civilization-western", "--format", "json"]
    result = runner.invoke(main, [*args, "--citations"])
    assert result.exit_code == 0
    changes = json.loads(result.stdout)["collections"]
    assert {c["id"] for c in changes["nations"]["changed"]} == {"africa", "italy"}


def test_a_collections_index_finds_the_first_entry_of_a_key_through_puts_pops_and_appends() -> None:
    """The resolver's index of a collection's keys (`_find`), kept up to date by `_put` and `_pop`
    rather than made again after each (5,000 patches took 11 s), answers as the search for the
    first entry of the key, with keys written twice and operations in any order: entries appended
    and not yet looked up when one is put or popped, and a last entry replaced another way, too."""
    import random

    from civrules.families.family import CollectionSpec
    from civrules.model import Origin
    from civrules.resolve import Entry, _find, _pop, _put

    spec = CollectionSpec(slot="cards", path=("cards",))
    rng = random.Random(7)
    origin = Origin.__new__(Origin)  # never read: the index looks only at the entries' data
    for _ in range(60):
        entries = [Entry(origin, {"id": f"k{rng.randint(0, 12)}", "n": i}) for i in range(rng.randint(0, 20))]
        for step in range(80):
            key = f"k{rng.randint(0, 14)}"
            found = _find(spec, entries, key)
            assert found == next((i for i, e in enumerate(entries) if e.raw["id"] == key), None), (step, key)
            move = rng.random()
            if found is not None and move < 0.3:
                _put(spec, entries, found, Entry(origin, {"id": key, "n": -step}))
            elif found is not None and move < 0.5:
                _pop(spec, entries, found)
            elif move < 0.7:
                entries.append(Entry(origin, {"id": key, "n": step}))
            elif move < 0.9:
                entries.append(Entry(origin, {"id": key, "n": step}))
                at = rng.randrange(len(entries))
                if move < 0.8:
                    _pop(spec, entries, at)
                else:
                    _put(spec, entries, at, Entry(origin, {"id": entries[at].raw["id"], "n": -step}))
            elif entries and move < 0.95:
                entries[-1] = Entry(origin, {"id": key, "n": step})  # its last entry, another way


def test_a_collections_index_never_scans_or_copies_the_list() -> None:
    """Finding an entry's place, and checking that the list is as indexed, read only the entries
    asked for: each was a scan of the list (30,000 areas patched by a variant: 50 s)."""
    from civrules.families.family import CollectionSpec
    from civrules.model import Origin
    from civrules.resolve import Entry, _find, _pop, _put

    class Unscanned(list[Entry]):
        def index(self, *_: object) -> int:
            raise AssertionError("the list was scanned")

        def __getitem__(self, at: Any) -> Any:
            assert not isinstance(at, slice), "the list was copied"
            return super().__getitem__(at)

        def __eq__(self, other: object) -> bool:
            raise AssertionError("the list was compared")

        __hash__ = None

    spec = CollectionSpec(slot="areas", path=("areas",))
    origin = Origin.__new__(Origin)
    entries = Unscanned(Entry(origin, {"id": f"a{i}"}) for i in range(2_000))
    for i in range(0, 2_000, 3):
        at = _find(spec, entries, f"a{i}")
        assert at is not None and entries[at].raw["id"] == f"a{i}"
        _pop(spec, entries, at)
        entries.append(Entry(origin, {"id": f"b{i}"}))
    for i in range(1, 2_000, 3):
        at = _find(spec, entries, f"a{i}")
        assert at is not None
        _put(spec, entries, at, Entry(origin, {"id": f"a{i}", "patched": True}))
    assert [e.raw["id"] for e in entries if e.raw.get("patched")] == [f"a{i}" for i in range(1, 2_000, 3)]
    assert _find(spec, entries, "b1998") == len(entries) - 1 and _find(spec, entries, "a0") is None


@pytest.mark.parametrize(
    ("first", "code", "needle"),
    [
        ('{card: enginering, rule: "31.62"}', "X001", "enginering"),
        ("{card: engineering}", "S004", "{card: engineering}"),
    ],
    ids=["reference", "schema"],
)
def test_an_element_an_earlier_patch_appended_is_located_in_that_patch(first: str, code: str, needle: str) -> None:
    """Two entries append to Mining's prerequisites: what is wrong in the first one's element is
    reported there, not at the second entry (the field's last changer), where it is not written
    (round 22: the record of where list operations wrote each element kept the last entry's alone)."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n"
        f"      - {{id: mining, prerequisites: {{append: [{first}]}}, source: 'house rule: a'}}\n"
        "      - {id: mining, prerequisites: {append: [{card: law, rule: \"31.62\"}]}, source: 'house rule: b'}\n"
    )
    path, text = variant("twice", "advanced-civilization", body)
    analysis, _ = analysed("twice", (path, text))
    (found,) = located(analysis, code)
    assert found.span is not None and found.span.file.endswith("rulesets/twice.yaml")
    assert found.span.line == line_of(text, needle), (found.span, found.message)


IS_VARIANT = "kind: ruleset\nfamily: imperial-settlers\nid: {id}\nname: {id}\nextends: {extends}\n"


@pytest.mark.parametrize(
    ("mid", "leaf"),
    [
        (
            "overlay:\n  cards:\n    patch:\n      - {id: bar004, cost: {append: [5]}, source: 'house rule: a'}\n",
            "overlay:\n  cards:\n    patch:\n      - {id: bar004, cost: {append: [food]}, source: 'house rule: b'}\n",
        ),
        (
            "overlay:\n  settings:\n    setup:\n      append:\n        - {step: 8, text: 5, source: 'house rule: a'}\n",
            "overlay:\n  settings:\n    setup:\n      append:\n"
            "        - {step: 9, text: More., source: 'house rule: b'}\n",
        ),
    ],
    ids=["entity", "list-setting"],
)
def test_an_element_an_earlier_variant_appended_is_located_in_that_variant(mid: str, leaf: str) -> None:
    """A variant appends a wrong element, a variant of it appends another to the same list: the
    variant of it reports the wrong element in the file that wrote it, not at its own change."""
    workspace = CachedWorkspace(
        {
            "rulesets/mid.yaml": IS_VARIANT.format(id="mid", extends="imperial-settlers") + mid,
            "rulesets/leaf.yaml": IS_VARIANT.format(id="leaf", extends="mid") + leaf,
        }
    )
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["leaf"]))
    found = [d for d in analysis.diagnostics if d.code.startswith("S")]
    assert found and all(d.span is not None and d.span.file.endswith("rulesets/mid.yaml") for d in found), found


def _work_of_entries(entries: list[str]) -> int:
    """The work (lines run and C calls, counted as the growth trace counts them) of resolving a
    variant of advanced-civilization whose overlay patches Pottery with ``entries``, asking what
    still writes each of its fields and locating each of its attributes: the base resolved before,
    uncounted."""
    from civrules.resolve import Resolver, field_writers
    from tests.security.test_check_growth import calls_made

    body = "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {entry}\n" for entry in entries)
    workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", body if entries else "")]))
    resolver = Resolver(workspace)
    resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    loaded = workspace.load_ruleset(workspace.manifests()["big"])

    def run() -> None:
        resolved, _ = resolver.resolve(loaded)
        assert resolved is not None
        (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
        for name in pottery.raw:
            field_writers(pottery.origin, name)
        for i in range(len(pottery.raw["attributes"])):
            pottery.origin.span("attributes", i)

    return calls_made(run)


def test_what_wrote_each_field_is_recorded_at_a_cost_linear_in_the_entries() -> None:
    """Counted, never timed (tests/security/test_check_growth.py's count): n elements appended to
    one list of a card, then n entries replacing an element of another, at n and 2n, net of none.
    Round 22's records of where each entry wrote its elements cost the square of the entries:
    each change passed over every earlier entry's record of every list of the card, and each
    element located passed over them all again (issue 32)."""

    def entries(n: int) -> list[str]:
        appended = [f'{{id: pottery, attributes: {{append: [{{text: "A{i}.", rule: "32.211"}}]}}}}' for i in range(n)]
        return [*appended, *['{id: pottery, groups: {replace: [{where: crafts, with: crafts}]}, rule: "32.211"}'] * n]

    work = {n: _work_of_entries(entries(n)) for n in (0, 40, 80)}
    small, large = work[40] - work[0], work[80] - work[0]
    assert large <= 2.5 * small, work


@pytest.mark.parametrize("operation", ["replace", "remove", "patch"])
def test_entries_changing_elements_an_earlier_entry_appended_keep_its_records_at_a_cost_linear_in_them(
    operation: str,
) -> None:
    """Counted, never timed: one entry appending 10k attributes to Pottery, then k entries each
    changing one of them by a selector (removing it, replacing it, patching its text), resolved at
    k and 2k. Each entry other than an append placed again the record of every element the entries
    before it wrote, by the element's index (``Origin.earlier_moved``; one removal moved every
    record after it): k entries over 10k records, the square of k (issue 32; bench/shapes.py's
    `appends-then-replaces`). Every attribute is still located where it was written."""
    from tests.security.test_check_growth import MOST

    def change(i: int) -> str:
        where = f'{{text: "A{i}."}}'
        if operation == "remove":
            return f"{{remove: [{where}]}}"
        return f'{{{operation}: [{{where: {where}, with: {{text: "B{i}.", rule: "32.212"}}}}]}}'

    def body(k: int) -> str:
        attributes = ", ".join(f'{{text: "A{i}.", rule: "32.211"}}' for i in range(10 * k))
        entries = [f"{{id: pottery, attributes: {{append: [{attributes}]}}}}"]
        entries += [f"{{id: pottery, attributes: {change(i)}}}" for i in range(0, 2 * k, 2)]
        return card_patches(entries)

    sizes = (20, 40)
    files = {k: variant(f"big{k}", "advanced-civilization", body(k)) for k in sizes}
    resolver, (small, large) = resolved_counted(files, sizes)
    assert large <= MOST * small, (small, large)
    resolved = resolver.resolution("big20")
    assert resolved is not None
    (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    text = files[20][1]
    located = {
        attribute["text"]: pottery.origin.span("attributes", i, "text").line
        for i, attribute in enumerate(pottery.raw["attributes"])
        if re.fullmatch(r"[AB][0-9]+\.", attribute["text"])
    }
    expected: dict[str, int] = {}
    for i in range(200):
        if i % 2 or i >= 40:
            expected[f"A{i}."] = line_of(text, "append:")  # the first entry's, wherever it is now
        elif operation != "remove":
            expected[f"B{i}."] = line_of(text, f'"B{i}."')
    assert located == expected


def test_entries_changing_another_list_keep_the_records_of_the_first_s_elements_at_a_cost_linear_in_them() -> None:
    """Counted, never timed: one entry appending 25k attributes to Pottery, then k entries each
    changing its groups by list operations, resolved at k and 2k. Each of those entries copied the
    first's 25k records of where it wrote its attributes (``Origin.moved``), and searched them for
    the last changer's records of the groups: the square of k (round 24)."""
    from tests.security.test_check_growth import MOST

    def body(k: int) -> str:
        attributes = ", ".join(f'{{text: "A{i}.", rule: "32.211"}}' for i in range(25 * k))
        entries = [f"{{id: pottery, attributes: {{append: [{attributes}]}}}}"]
        entries += ['{id: pottery, groups: {replace: [{where: crafts, with: crafts}]}, rule: "32.211"}'] * k
        return card_patches(entries)

    sizes = (24, 48)
    files = {k: variant(f"big{k}", "advanced-civilization", body(k)) for k in sizes}
    resolver, (small, large) = resolved_counted(files, sizes)
    assert large <= MOST * small, (small, large)
    resolved = resolver.resolution("big24")
    assert resolved is not None
    (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    text = files[24][1]
    assert pottery.origin.span("attributes", 150, "text").line == line_of(text, "append:")
    assert pottery.origin.span("groups", 0).line == text.count("\n")  # the last entry's


def test_an_id_inserted_then_appended_again_is_located_at_each_entry_when_a_later_one_removes() -> None:
    """One entry inserts an id into Pottery's groups, a second appends the same id, a third removes
    another group: each wrong id is reported at the entry that wrote it. The records of where the
    entries wrote elements followed an element by its object to the last place that object held
    (the reader gives equal ids one object): the third entry moved the first's record onto the
    second's element, and the first id was reported in the base's card file, which never wrote it
    (round 24: a record follows its element's place)."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - {id: pottery, groups: {insert: [{before: crafts, items: [craftz]}]}, source: 'house rule: a'}\n"
        "      - {id: pottery, groups: {append: [craftz]}, source: 'house rule: b'}\n"
        "      - {id: pottery, groups: {remove: [crafts]}, source: 'house rule: c'}\n"
    )
    path, text = variant("twice", "advanced-civilization", body)
    analysis, _ = analysed("twice", (path, text))
    found = sorted(
        (d.span.line, d.span.column)
        for d in analysis.diagnostics
        if d.code == "S003" and d.span is not None and d.span.file.endswith("rulesets/twice.yaml")
    )
    inserted, appended = line_of(text, "insert:"), line_of(text, "append:")
    assert found == [
        (inserted, text.splitlines()[inserted - 1].index("craftz") + 1),
        (appended, text.splitlines()[appended - 1].index("craftz") + 1),
    ], analysis.diagnostics


def test_a_field_two_entries_patched_in_an_appended_element_is_located_at_the_later_after_an_append() -> None:
    """One entry appends an attribute, a second patches its `rule`, a third patches it again with a
    wrong one, a fourth appends another attribute: the wrong `rule` is reported at the third entry,
    its last writer. The fourth entry made the third's records earlier ones beside the second's,
    and the earliest record of the place was the one taken: the wrong value was reported at the
    second entry, which wrote a good one (round 24)."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: pottery, attributes: {append: [{text: "A.", rule: "32.211"}]}}\n'
        '      - {id: pottery, attributes: {patch: [{where: {text: "A."}, with: {rule: "32.212"}}]}}\n'
        '      - {id: pottery, attributes: {patch: [{where: {text: "A."}, with: {rule: 5}}]}}\n'
        '      - {id: pottery, attributes: {append: [{text: "B.", rule: "32.211"}]}}\n'
    )
    path, text = variant("twice", "advanced-civilization", body)
    analysis, _ = analysed("twice", (path, text))
    found = [d for d in analysis.diagnostics if d.code.startswith("S")]
    assert found, analysis.diagnostics
    assert {(d.span.line, d.span.column) for d in found if d.span is not None} == {
        (line_of(text, "rule: 5"), text.splitlines()[line_of(text, "rule: 5") - 1].index("5}") + 1)
    }, found


def test_an_element_removed_is_named_by_no_selector_of_a_shape_first_asked_after_its_removal() -> None:
    """A `remove:` naming an element by a value that is a list (`{rule: [a, b]}`: compared with
    each element), then a selector of another shape (`{id: x}`) naming the same element, in the
    same entry or the next: the second names no element. The index of the new shape, made after
    the removal, held the removed element still (its place kept until the list is compacted): the
    second removal took it again, and the list lost the element after it (round 24)."""
    base = [{"id": "x", "rule": ["1", "2"]}, {"id": "y"}, {"id": "z"}]
    problems: list[Any] = []
    together = merge_patch(list(base), {"remove": [{"rule": ["1", "2"]}, {"id": "x"}]}, problems)
    assert together == [{"id": "y"}, {"id": "z"}]
    assert [p.message for p in problems] == ['{"id": "x"} names no element of the list']
    first = merge_patch(list(base), {"remove": [{"rule": ["1", "2"]}]})
    problems = []
    assert merge_patch(first, {"remove": [{"id": "x"}]}, problems) == [{"id": "y"}, {"id": "z"}]
    assert [p.message for p in problems] == ['{"id": "x"} names no element of the list']


def test_entries_patching_one_field_keep_the_records_of_another_s_elements_at_a_cost_linear_in_them() -> None:
    """Counted function by function, never timed: one entry appending n attributes to Pottery,
    then n entries each changing its cost (bench/shapes.py's `patches-beside-appends`), resolved at
    n and 2n. Each of those entries copied the record of where the first wrote its n attributes
    (``Origin.moved``), keeping every one: the square of n (4,000 took 5.2 s to analyse), which the
    rest of a resolution hid in the total."""
    from civrules.resolve import Resolver
    from tests.security.test_check_growth import MOST, work_by_code

    def work(n: int) -> collections.Counter[str]:
        attributes = ", ".join(f'{{text: "A{i}.", rule: "32.211"}}' for i in range(n))
        entries = [f"{{id: pottery, attributes: {{append: [{attributes}]}}}}"]
        entries += [f'{{id: pottery, cost: {100 + i}, source: "house rule"}}' for i in range(n)]
        body = "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {e}\n" for e in entries)
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", body)]))
        resolver = Resolver(workspace)
        resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
        loaded = workspace.load_ruleset(workspace.manifests()["big"])
        return work_by_code(lambda: resolver.resolve(loaded))

    small, large = work(60), work(120)
    # A function running 5,000 lines or more at 2n is judged alone (the copies: 14,400 at 120).
    grown = {code: (small[code], n) for code, n in large.items() if n >= 5_000 and n > MOST * small[code]}
    assert grown == {}, grown


def test_an_entity_s_citation_from_its_writers_is_joined_at_a_cost_linear_in_them(monkeypatch: Any) -> None:
    """Counted in what is joined, never timed: n entries each appending an attribute to Pottery
    under a house rule of its own, resolved at n and 2n; once they are applied, Pottery is cited by
    its definition and each of the n writers. Joined two at a time, each joining was handed every
    source before it (the square of n in what was hashed and copied: round 25); each writer's
    citation is now handed over once."""
    from civrules import resolve

    handed = 0
    joining = resolve._both_citations

    def counted(*citations: Any) -> dict[str, Any]:
        nonlocal handed
        for cited in citations:
            handed += len(cited.get("source") or "") + len(resolve._listed(cited.get("rule")))
        return joining(*citations)

    def work(n: int) -> int:
        nonlocal handed
        entries = [
            f'{{id: pottery, attributes: {{append: [{{text: "A{i}.", rule: "32.211"}}]}}, source: "house rule {i}"}}'
            for i in range(n)
        ]
        body = "overlay:\n  civilization_cards:\n    patch:\n" + "".join(f"      - {e}\n" for e in entries)
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", body)]))
        resolver = Resolver(workspace)
        resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
        written, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()["big"]))
        assert written is not None
        [pottery] = [e for e in written.collections["civilization_cards"] if e.raw.get("id") == "pottery"]
        assert pottery.raw["source"].endswith(f"house rule {n - 2}; house rule {n - 1}"), pottery.raw
        handed = 0
        with monkeypatch.context() as patched:
            patched.setattr(resolve, "_both_citations", counted)
            again = resolve._cited_by_writers(pottery.origin, pottery.raw, written.layers)
        assert again == pottery.raw
        return handed

    small, large = work(100), work(200)
    assert large <= 2.5 * small, (small, large)


@pytest.mark.parametrize(
    ("ruleset", "again", "located"),
    [
        # a later entry writes the list whole, the id in it (round 23)
        ("twice", "groups: [crafts, craftz]", "[crafts, craftz]"),
        # a later entry's `replace: [{where: craftz, with: craftz}]` writes the id as itself (round 24)
        ("again", "groups: {replace: [{where: craftz, with: craftz}]}", "with: craftz"),
    ],
)
def test_an_id_a_later_patch_writes_again_is_located_in_that_patch(ruleset: str, again: str, located: str) -> None:
    """One entry appends an id to Pottery's groups, a later one writes that id again: the id is the
    later entry's, and what is wrong with it is reported there, not at the entry that appended it
    first. The reader gives equal ids one object, and the record of where the first entry wrote
    its element, looked up by identity, found it again in what the later entry wrote."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n"
        "      - {id: pottery, groups: {append: [craftz]}, source: 'house rule: a'}\n"
        f"      - {{id: pottery, {again}, source: 'house rule: b'}}\n"
    )
    path, text = variant(ruleset, "advanced-civilization", body)
    analysis, _ = analysed(ruleset, (path, text))
    found = [d for d in analysis.diagnostics if d.span is not None and "craftz" in d.message]
    assert found and all(d.span is not None and d.span.file.endswith(f"rulesets/{ruleset}.yaml") for d in found)
    assert {d.span.line for d in found if d.span is not None} == {line_of(text, located)}, found


def test_elements_list_operations_wrote_are_located_at_a_cost_linear_in_them() -> None:
    """Counted, never timed: one entry appending n attributes to Pottery and one patching a field
    of each, every attribute then located (its span, its key's, its place and its origin, and its
    patched field's), at n and 2n. Each locating passed over every record of where the entries
    wrote their elements (``Origin.moved``): n elements located were n² steps (issue 32)."""
    from civrules.resolve import Resolver
    from tests.security.test_check_growth import MOST, calls_made

    def body(n: int) -> str:
        attributes = ", ".join(f'{{text: "A{i}.", rule: "32.211"}}' for i in range(n))
        patched = ", ".join(f'{{where: {{text: "A{i}."}}, with: {{rule: "32.212"}}}}' for i in range(n))
        entries = [
            f"{{id: pottery, attributes: {{append: [{attributes}]}}}}",
            f'{{id: pottery, attributes: {{patch: [{patched}]}}, source: "house rule"}}',
        ]
        return card_patches(entries)

    sizes = (40, 80)
    workspace = CachedWorkspace(dict(variant(f"big{n}", "advanced-civilization", body(n)) for n in sizes))
    resolver = Resolver(workspace)  # the base resolved once, for both

    def work(n: int) -> int:
        resolved, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()[f"big{n}"]))
        assert resolved is not None
        (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
        assert len(pottery.raw["attributes"]) >= n
        origin = pottery.origin

        def locate() -> None:
            for i in range(n):
                origin.span("attributes", i)
                origin.key_span("attributes", i, "rule")
                origin.place(("attributes", i, "text"))
                origin.child("attributes", i).span("rule")

        return calls_made(locate)

    small, large = (work(n) for n in sizes)
    assert large <= MOST * small, (small, large)


@pytest.mark.parametrize("operation", ["replace", "remove", "patch", "insert"])
def test_entries_changing_one_list_in_turn_do_work_linear_in_them(operation: str) -> None:
    """Counted, never timed: n entries each appending an element to one list, then n entries each
    changing one of them by a selector (``operation``; or inserting before it, the last first),
    merged in turn as a variant's entries are (each into what the one before made), at n and 2n.
    Each entry's list operations made the list's cells and selector index anew, a pass over the
    whole list per entry: the square of n (issue 32); and an insertion before the last element
    numbered every cell after it again (round 24). The lists each entry made are held to what
    they were."""
    from tests.security.test_check_growth import MOST, calls_made

    def change(i: int) -> dict[str, Any]:
        where = {"text": f"A{i}."}
        if operation == "remove":
            return {"remove": [where]}
        if operation == "insert":
            return {"insert": [{"before": where, "items": [{"text": f"C{i}.", "rule": "32.212"}]}]}
        return {operation: [{"where": where, "with": {"text": f"B{i}.", "rule": "32.212"}}]}

    def merged(n: int) -> tuple[list[Any], list[dict[Any, Any]]]:
        entity: Any = {"id": "pottery", "attributes": [{"text": "base"}]}
        made, records = [], []
        entries = [{"attributes": {"append": [{"text": f"A{i}.", "rule": "32.211"}]}} for i in range(n)]
        for entry in [*entries, *({"attributes": change(i)} for i in reversed(range(n)))]:
            moved: dict[Any, Any] = {}
            entity = merge_patch(entity, entry, moved=moved)
            made.append(entity["attributes"])
            records.append(moved)
        return made, records

    def alone(n: int) -> tuple[list[Any], list[dict[Any, Any]]]:
        # each entry's list operations from a list of their own (no cells of an earlier entry's)
        entity: Any = {"id": "pottery", "attributes": [{"text": "base"}]}
        made, records = [], []
        entries = [{"attributes": {"append": [{"text": f"A{i}.", "rule": "32.211"}]}} for i in range(n)]
        for entry in [*entries, *({"attributes": change(i)} for i in reversed(range(n)))]:
            moved: dict[Any, Any] = {}
            entity = merge_patch({**entity, "attributes": list(entity["attributes"])}, entry, moved=moved)
            made.append(entity["attributes"])
            records.append(moved)
        return made, records

    assert merged(30) == alone(30)
    small, large = calls_made(lambda: merged(200)), calls_made(lambda: merged(400))
    assert large <= MOST * small, (small, large)


def test_what_entries_appending_to_a_long_list_write_over_is_found_in_work_linear_in_them() -> None:
    """Counted, never timed: what n entries each appending to (or inserting into) a list of n
    elements write over (Q009's question of every change), at n and 2n. Each made a cell of every
    element of the list to apply operations that write over nothing: the square of n."""
    from civrules.resolve import written_over
    from tests.security.test_check_growth import MOST, calls_made

    def work(n: int) -> int:
        base = [{"text": f"A{i}."} for i in range(n)]
        entries: list[dict[str, Any]] = [{"append": [{"text": f"B{i}."}]} for i in range(n)]
        entries += [{"insert": [{"before": {"text": "A0."}, "items": [{"text": f"C{i}."}]}]} for i in range(n)]

        def run() -> None:
            for entry in entries:
                assert list(written_over(base, entry, ("attributes",))) == []

        return calls_made(run)

    small, large = work(200), work(400)
    assert large <= MOST * small, (small, large)


@pytest.mark.parametrize("operation", ["remove", "replace", "patch"])
def test_what_entries_changing_one_element_of_a_long_list_write_over_is_found_in_work_linear_in_them(
    operation: str,
) -> None:
    """Counted, never timed: what n entries each removing, replacing or patching one element of a
    list of n write over (Q009's and the unknown count's question of every change: a long list an
    earlier variant added, changed by n entries of a later one), at n and 2n. Each made a cell of
    every element of the list (and its selector index) to find the one it names: the square of n.
    What each writes over is still found: the element, or the field its patch writes."""
    from civrules.resolve import written_over
    from tests.security.test_check_growth import MOST, calls_made

    def entry(i: int) -> dict[str, Any]:
        where = {"text": f"A{i}."}
        if operation == "remove":
            return {"remove": [where]}
        if operation == "replace":
            return {"replace": [{"where": where, "with": {"text": f"B{i}."}}]}
        return {"patch": [{"where": where, "with": {"n": i}}]}

    def work(n: int) -> int:
        base = [{"text": f"A{i}.", "n": {"unknown": "why"}} for i in range(n)]
        entries = [entry(i) for i in range(n)]
        wrote = [("attributes", i, "n") if operation == "patch" else ("attributes", i) for i in range(n)]

        def run() -> None:
            for i, change in enumerate(entries):
                assert list(written_over(base, change, ("attributes",))) == [wrote[i]]

        return calls_made(run)

    small, large = work(100), work(200)
    assert large <= MOST * small, (small, large)


def test_an_id_a_later_variant_replaces_with_itself_in_a_list_setting_is_located_in_that_variant() -> None:
    """The list setting's member of the case above: a variant appends an id to the two-coast
    areas, a variant of it writes that id again (`replace`): the id is located at that change (where
    a diagnostic about it points), not in the variant that appended it first (round 24)."""
    ac = "kind: ruleset\nid: {id}\nname: {id}\nextends: {extends}\noverlay:\n  settings:\n    two_coast_areas: "
    leaf = ac.format(id="leaf", extends="mid") + "{replace: [{where: atlantiz, with: atlantiz}]}\n"
    workspace = CachedWorkspace(
        {
            "rulesets/top.yaml": ac.format(id="top", extends="advanced-civilization") + "[corinth]\n",
            "rulesets/mid.yaml": ac.format(id="mid", extends="top") + "{append: [atlantiz]}\n",
            "rulesets/leaf.yaml": leaf,
        }
    )
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["leaf"]))
    assert analysis.resolved is not None
    span = analysis.resolved.setting_origins["two_coast_areas"].span(1)
    assert span.file.endswith("rulesets/leaf.yaml") and span.line == line_of(leaf, "with: atlantiz"), span


def test_an_element_a_later_patch_merged_into_is_located_where_each_of_its_fields_was_written() -> None:
    """One entry appends an attribute with no citation, a later one patches its effects: what the
    attribute lacks is reported at the entry that appended it (it was reported at the patch, as
    if the patch had written the attribute whole), what the patch wrote at the patch (round 24)."""
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n"
        '      - {id: pottery, attributes: {append: [{text: "Ships move far.", '
        "effects: [{kind: movement, units: ships, range: 5}]}]}}\n"
        '      - {id: pottery, attributes: {patch: [{where: {text: "Ships move far."}, '
        "with: {effects: [{kind: movement, units: ships, range: -6}]}}]}, source: 'house rule: b'}\n"
    )
    path, text = variant("patched", "advanced-civilization", body)
    analysis, _ = analysed("patched", (path, text))
    cited = [d for d in analysis.diagnostics if d.code == "S004"]
    assert cited and {d.span.line for d in cited if d.span is not None} == {line_of(text, "append:")}, cited
    written = [d for d in analysis.diagnostics if d.code == "S001" and "range" in d.message + (d.hint or "")]
    assert written and {d.span.line for d in written if d.span is not None} == {line_of(text, "patch: [")}, written


# --- continuations: how an entity continues one an earlier file declares is its family's ---------


def _flood_plains(continuation: Continuation | None, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, str]]:
    """The flood plains the Western Extension resolves to, its family's flood plains declaring
    ``continuation``: (id, areas, the file that last changed the areas) of each."""
    workspace = CachedWorkspace()
    loaded = workspace.load_ruleset(workspace.manifests()["advanced-civilization-western"])
    family = loaded.family
    plains = dataclasses.replace(family.collections["flood_plains"], continuation=continuation)
    changed = dataclasses.replace(family, collections={**family.collections, "flood_plains": plains})
    monkeypatch.setattr(loaded.manifest, "family", changed)
    resolved, _ = Resolver(workspace).resolve(loaded)
    assert resolved is not None
    return [
        (e.raw["id"], e.raw.get("areas"), dict(e.origin.changes).get("areas", e.origin).document.file)
        for e in resolved.collections["flood_plains"]
    ]


def test_a_flood_plain_continued_in_a_later_map_file_gains_its_areas_there(monkeypatch: pytest.MonkeyPatch) -> None:
    declared = default_family().collections["flood_plains"].continuation
    assert declared == Continuation("continues_from", ("areas",))
    plains = _flood_plains(declared, monkeypatch)
    (etruria,) = [p for p in plains if p[0] == "etruria"]
    assert etruria[1] == ["etruria_2", "rubicon", "gaul", "narbo"] and etruria[2].endswith("western-panel.yaml")


def test_a_collection_continues_as_its_family_declares_and_not_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolver merges no field the family does not name: without a declared continuation the
    later file's entry stays an entity of its own (which the family's checks report), and with
    another marker the map file's `continues_from` marks nothing."""
    for continuation in (None, Continuation("extends_plain", ("areas",))):
        found = [p for p in _flood_plains(continuation, monkeypatch) if p[0] == "etruria"]
        assert [areas for _, areas, _ in found] == [["etruria_2", "rubicon"], ["gaul", "narbo"]], continuation
    # A continuation extends the fields its family names, and only those.
    (etruria,) = [
        p for p in _flood_plains(Continuation("continues_from", ("volcanoes",)), monkeypatch) if p[0] == "etruria"
    ]
    assert etruria[1] == ["etruria_2", "rubicon"]


def _old_both_citations(first: Any, *then: Any, grow: bool = False) -> dict[str, Any]:
    """:func:`resolve._both_citations` as it was before round 25's sections were remembered (d1d1f884):
    the reference the per-entry fold is held to (``grow``, round 26's, changes no value: ignored)."""
    from civrules import resolve

    rules = dict.fromkeys(resolve._listed(first.get("rule")))
    listed = isinstance(first.get("rule"), list)
    sources = [first["source"]] if isinstance(first.get("source"), str) else []
    joined = len(sources[0]) if sources else 0
    for cited in then:
        rules.update(dict.fromkeys(resolve._listed(cited.get("rule"))))
        listed = bool(rules) and (listed or len(rules) != 1)
        source = cited.get("source")
        if isinstance(source, str) and not (sources and len(source) == joined and source == "; ".join(sources)):
            joined += len(source) + (2 if sources else 0)
            sources.append(source)
    out: dict[str, Any] = {}
    if rules:
        out["rule"] = list(rules) if listed else next(iter(rules))
    if sources:
        out["source"] = "; ".join(sources)
    return out


def _old_citation_value(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


@heavy
def test_an_entity_patched_entry_after_entry_is_cited_as_the_per_entry_fold_cited_it(monkeypatch: Any) -> None:
    """Random chains of patch entries on one entity (each entry's citation: a section, a list of
    them, none, an empty list, a `null`, a refused one; sources joined, repeated, refused; notes,
    `unknown:`; and entries applied again to an earlier state of the chain, as a second variant
    or an edited file does), each entry merged and cited by :func:`cite_patched` now and by the
    fold as it was (d1d1f884): the same values, key order and types at every step, the fall-backs
    (a definition citing nothing, a refused citation, a patch citing nothing) included."""
    import random

    from civrules import resolve

    pick = random.Random(32)
    rules: list[Any] = ["1", "2", "3", "4.1", "4.2", 7, ["1", 7]]
    sources: list[Any] = ["a", "b", "a; b", "house rule", 3]

    def citation() -> dict[str, Any]:
        cited: dict[str, Any] = {}
        roll = pick.random()
        if roll < 0.45:
            cited["rule"] = pick.choice(rules[:5])
        elif roll < 0.75:
            cited["rule"] = [pick.choice(rules[:5]) for _ in range(pick.randrange(4))]
        elif roll < 0.8:
            cited["rule"] = pick.choice([None, 7, ["1", 7]])
        if pick.random() < 0.3:
            cited["source"] = pick.choice([*sources, None])
        return cited

    def entry() -> dict[str, Any]:
        written: dict[str, Any] = {"cost": pick.randrange(5)} if pick.random() < 0.8 else {}
        written.update(citation())
        if pick.random() < 0.1:
            written["note"] = "n"
        if pick.random() < 0.03:
            written["unknown"] = "why"
        return written

    def fold(raw: dict[str, Any], written: dict[str, Any], old: bool) -> dict[str, Any]:
        with monkeypatch.context() as patched:
            if old:
                patched.setattr(resolve, "_both_citations", _old_both_citations)
                patched.setattr(resolve, "_citation_value", _old_citation_value)
            merged = merge_patch(raw, written)
            return dict(resolve.cite_patched(raw, written, merged, whole_entity=True))

    steps = 0
    for _ in range(300):
        definition = {"id": "x", "cost": 1, **citation()}
        new_chain, old_chain = [definition], [json.loads(json.dumps(definition))]
        for _ in range(pick.randrange(1, 60)):
            at = len(new_chain) - 1 if pick.random() < 0.85 else pick.randrange(len(new_chain))
            written = entry()
            new_chain.append(fold(new_chain[at], written, old=False))
            old_chain.append(fold(old_chain[at], json.loads(json.dumps(written)), old=True))
            assert repr(new_chain[-1]) == repr(old_chain[-1]), (at, written, old_chain[at])
            steps += 1
        # Every state of the chain still as it was made (none changed by a later entry's joining).
        assert [repr(state) for state in new_chain] == [repr(state) for state in old_chain]
    assert steps > 5_000


def test_an_entity_patched_under_a_rule_of_each_entry_is_cited_at_a_cost_linear_in_the_entries() -> None:
    """Counted in the rule sections read for joining, never timed: n entries each changing
    Pottery's cost under a `rule:` of its own, resolved at n and 2n. Each entry joined the
    entity's citation so far with its own, reading (and hashing, and checking as text) every
    section cited before it, the square of n (20,000 entries: 22.5 s, round 25); now it reads the
    sections it adds."""
    from civrules import resolve

    read = 0
    listed = resolve._listed

    def counted(rule: Any) -> list[Any]:
        nonlocal read
        found = listed(rule)
        read += len(found)
        return found

    def work(n: int) -> int:
        nonlocal read
        entries = [f'{{id: pottery, cost: {100 + i}, rule: "32.2.{i}"}}' for i in range(n)]
        workspace = CachedWorkspace(dict([variant("big", "advanced-civilization", card_patches(entries))]))
        resolver = Resolver(workspace)
        resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
        read = 0
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(resolve, "_listed", counted)
            written, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()["big"]))
        assert written is not None
        [pottery] = [e for e in written.collections["civilization_cards"] if e.raw.get("id") == "pottery"]
        # Cited by its definition and the last entry, the one writer whose fact still stands.
        assert pottery.raw["rule"][-1] == f"32.2.{n - 1}", pottery.raw["rule"]
        return read

    small, large = work(200), work(400)
    assert large <= 2.5 * small, (small, large)


def _own_keys(k: int, credit: bool) -> str:
    """k patch entries of Pottery each writing a key of its own (a schema error each): a field of
    the card (bench/shapes.py's `entity-keys`), or a key of its credit to the Crafts, an element of
    the card's own list (`entry-element-keys`)."""
    written = "credits: {{patch: [{{where: {{group: crafts}}, with: {{k{i}: 1}}}}]}}" if credit else "k{i}: 1"
    return card_patches([f"{{id: pottery, {written.format(i=i)}}}" for i in range(k)])


@pytest.mark.slow
def test_entries_each_writing_a_field_of_their_own_are_resolved_in_work_linear_in_them() -> None:
    """Counted, never timed: k entries each giving Pottery a field of its own, resolved at k and
    2k (the resolver's own work: the schema's is the shape `entity-keys`'s). Each entry sorted the
    card's records of the fields written before it again (``changes``, ``writers``,
    ``changed_by``) and searched them for its own: the square of k (57 s at 8,000, round 31). Each
    field is still recorded as its own entry's."""
    from civrules import resolve
    from civrules.resolve import changers, field_writers
    from tests.security.test_check_growth import MOST, calls_made

    sizes = (150, 300)
    files = {k: variant(f"big{k}", "advanced-civilization", _own_keys(k, credit=False)) for k in sizes}
    workspace = CachedWorkspace(dict(files.values()))
    resolver = Resolver(workspace)
    resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    loaded = {k: workspace.load_ruleset(workspace.manifests()[f"big{k}"]) for k in sizes}
    small, large = (calls_made(functools.partial(resolver.resolve, loaded[k]), within=resolve.__file__) for k in sizes)
    assert large <= MOST * small, (small, large)
    resolved = resolver.resolution("big150")
    assert resolved is not None
    (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
    names = [name for name, _ in pottery.origin.changes]
    assert names == sorted(names) and set(names) == {f"k{i}" for i in range(150)}
    for i in (0, 7, 149):
        entry = ("overlay", "civilization_cards", "patch", i)
        assert [at.path for at in changers(pottery.origin, f"k{i}")] == [entry]
        writers = field_writers(pottery.origin, f"k{i}")
        assert [(w.path if w else None, paths) for w, paths in writers] == [(entry, ((),))]
    assert list(pottery.raw)[-150:] == [f"k{i}" for i in range(150)]


@pytest.mark.slow
def test_entries_each_writing_a_key_into_one_credit_tell_what_was_written_over_in_work_linear_in_them() -> None:
    """Counted, never timed: k entries each writing a key of its own into Pottery's credit to the
    Crafts, resolved at k and 2k and asked what a later entry wrote over (V012, and the citations
    superseded). Each entry's copy of the credit was told every key written after it as written
    over, keys it did not have: the square of k (39.5 s at 8,000, round 31), and nothing written over."""
    from civrules.resolve import overwritten
    from tests.security.test_check_growth import MOST, calls_made

    sizes = (150, 300)
    files = {k: variant(f"big{k}", "advanced-civilization", _own_keys(k, credit=True)) for k in sizes}
    workspace = CachedWorkspace(dict(files.values()))
    resolver = Resolver(workspace)
    resolver.resolve(workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    found: dict[int, list[Any]] = {}

    def work(k: int) -> int:
        resolved, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()[f"big{k}"]))
        assert resolved is not None
        (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
        return calls_made(lambda: found.setdefault(k, list(overwritten(pottery.origin, "credits"))))

    small, large = (work(k) for k in sizes)
    assert large <= MOST * small, (small, large)
    assert found == {150: [], 300: []}


def _credit_records_held(log: Any) -> tuple[int, int]:
    """The elements of Pottery's credits its log of what wrote them holds (each change's own and
    what each `patch:` merged into), by identity, and their keys."""
    held: dict[int, Any] = {}
    while log is not None:
        mine = log.mine
        merged_into = (x for now, was, _, _ in log.patched for x in (now, was))
        for element in (*(mine[2] if mine is not None else ()), *merged_into):
            if isinstance(element, dict):
                held[id(element)] = element
        log = log.before
    return len(held), sum(len(element) for element in held.values())


@pytest.mark.slow
def test_entries_each_writing_a_key_into_one_credit_leave_their_records_no_copy_of_it() -> None:
    """Counted: k entries each writing a key of its own into Pottery's credit to the Crafts, at k
    and 2k, and the keys of the copies of that credit the records of what wrote it hold. Each
    entry's record held the credit as its entry left it, followed by its identity alone: k copies
    of up to k keys, the square of k (1,355 MB at 10,000, round 31). The credit is still each
    entry's in the key it wrote, and its definition's in the others."""
    from civrules.model import record_of
    from civrules.resolve import field_writers
    from tests.security.test_check_growth import MOST

    sizes = (150, 300)
    files = {k: variant(f"big{k}", "advanced-civilization", _own_keys(k, credit=True)) for k in sizes}
    workspace = CachedWorkspace(dict(files.values()))
    resolver = Resolver(workspace)
    held: dict[int, tuple[int, int]] = {}
    for k in sizes:
        resolved, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()[f"big{k}"]))
        assert resolved is not None
        (pottery,) = [e for e in resolved.collections["civilization_cards"] if e.raw["id"] == "pottery"]
        logged = record_of(pottery.origin.writers, "credits")
        assert logged is not None
        held[k] = _credit_records_held(logged[1])
        writers = field_writers(pottery.origin, "credits")
        assert writers[0] == (None, ((0, "points"), (1,), (2,)))  # its `group:` named it, no fact
        # each entry's in the key it wrote; the last one's the element it left, whole
        assert [(w.path[-1] if w else None, paths) for w, paths in writers[1:]] == [
            *((i, (("patch", 0, "with", f"k{i}"),)) for i in range(k - 1)),
            (k - 1, (("patch", 0),)),
        ]
    (small_copies, small), (large_copies, large) = held[150], held[300]
    assert large <= MOST * small, (held, "keys of the credit's copies the records hold")
    assert large_copies <= small_copies, held


@pytest.mark.slow
def test_a_key_a_later_entry_adds_to_a_patched_element_writes_over_nothing_of_it() -> None:
    """V012 tells a variant's entry whose change a later entry of it writes over. A later entry
    adding a key the element did not have (a credit's `rule:` after its `points:`) wrote over
    nothing, yet the earlier entry was told written over (round 31); one writing the same key
    again still is."""
    added = card_patches(
        [
            "{id: pottery, credits: {patch: [{where: {group: crafts}, with: {note: x}}]}}",
            "{id: pottery, credits: {patch: [{where: {group: crafts}, with: {points: 4}}]}}",
            '{id: pottery, credits: {patch: [{where: {group: crafts}, with: {rule: "32.2"}}]}}',
        ]
    )
    analysis, _ = analysed("big", variant("big", "advanced-civilization", added))
    assert located(analysis, "V012") == []
    again = card_patches(
        [
            "{id: pottery, credits: {patch: [{where: {group: crafts}, with: {points: 3}}]}}",
            "{id: pottery, credits: {patch: [{where: {group: crafts}, with: {note: x}}]}}",
            "{id: pottery, credits: {patch: [{where: {group: crafts}, with: {points: 4}}]}}",
        ]
    )
    text = variant("big", "advanced-civilization", again)
    analysis, _ = analysed("big", text)
    (told,) = located(analysis, "V012")
    assert told.span is not None and told.span.line == line_of(text[1], "{points: 3}")
    assert "line " + str(line_of(text[1], "{points: 4}")) in told.message and "more change" not in told.message
