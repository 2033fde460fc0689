"""Keys of a mapping that exclude each other (a `oneOf` of required keys): a mapping holding
both is told so, at the change that made it hold both, with a hint that works when followed.

A variant's settings patch merges key by key: `hand_limit: {commodity_cards: 10}` on a base that
gives `by_players` holds both. The error belongs to the variant's line, not the shipped base's,
and its hint says to delete the base's key with `null`.
"""

from __future__ import annotations

from typing import Any

import yaml

from civrules.diagnostics import Diagnostic, blanks
from civrules.emit.export import export_ruleset
from civrules.pipeline import Analysis, analyse, derived_facts
from civrules.resolve import Resolver
from civrules.resolve.diff import diff_rulesets
from civrules.schema import accepted, load_schema
from tests.rulefiles import CachedWorkspace


def _header(ruleset_id: str, extends: str) -> str:
    return f'kind: ruleset\nid: {ruleset_id}\nname: "{ruleset_id}"\nextends: {extends}\n'


def analysed(ruleset_id: str, text: str) -> Analysis:
    workspace = CachedWorkspace({f"rulesets/{ruleset_id}.yaml": text})
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    return analyse(workspace, loaded)


def export_of(analysis: Analysis) -> dict[str, Any]:
    assert analysis.resolved is not None and analysis.model is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def errors(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity == "error"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _follow(text: str, hint: str, after: str) -> str:
    """``text`` with the `KEY: null` the hint names written after ``after``, as a designer would."""
    added = hint.split("add `", 1)[1].split("`", 1)[0]
    assert added.endswith(": null"), hint
    return text.replace(after, f"{after}, {added}", 1)


def test_a_mega_variant_giving_one_limit_is_told_at_its_line_to_delete_the_bands() -> None:
    text = _header("mega-hl", "mega-civilization") + (
        'overlay:\n  settings:\n    hand_limit: {commodity_cards: 10, source: "house rule"}\n'
    )
    (found,) = errors(analysed("mega-hl", text))
    assert found.code == "S001"
    assert found.span is not None and found.span.file.endswith("rulesets/mega-hl.yaml")
    assert found.span.line == line_of(text, "hand_limit:")
    assert "`commodity_cards` and `by_players` exclude each other" in found.message
    assert "the base gives `by_players`" in found.message
    assert "none" not in found.message
    assert found.hint is not None and "`by_players: null`" in found.hint
    assert "rule" not in found.hint and "source" not in found.hint
    assert any(r.span.file.endswith("rulesets/mega-civilization.yaml") for r in found.related)
    fixed = analysed("mega-hl", _follow(text, found.hint, "commodity_cards: 10"))
    assert errors(fixed) == []
    assert fixed.model is not None
    assert fixed.model.data["hand_limit"]["commodity_cards"] == 10
    assert "by_players" not in fixed.model.data["hand_limit"]


def test_a_bare_number_where_the_forms_exclude_each_others_keys_is_one_diagnostic() -> None:
    # A number holds no key, so every "required keys" form matches it: the forms' "exclude each
    # other" said nothing the number's own type error had not (round 33's second S001, at the key).
    text = _header("mega-bare", "mega-civilization") + "overlay:\n  settings:\n    hand_limit: 9\n"
    (found,) = errors(analysed("mega-bare", text))
    assert found.code == "S001"
    assert "where a mapping belongs" in found.message
    assert found.span is not None and (found.span.line, found.span.column) == (line_of(text, "hand_limit:"), 17)
    assert found.hint is not None and "commodity_cards" in found.hint and "by_players" in found.hint


def test_an_advanced_civilization_variant_giving_bands_is_told_to_delete_the_one_limit() -> None:
    text = _header("ac-hl", "advanced-civilization") + (
        "overlay:\n  settings:\n    hand_limit:\n"
        '      source: "house rule"\n'
        "      by_players:\n"
        "        - {players: {min: 2, max: 4}, commodity_cards: 9}\n"
        "        - {players: {min: 5, max: 8}, commodity_cards: 8}\n"
    )
    (found,) = errors(analysed("ac-hl", text))
    assert found.span is not None and found.span.file.endswith("rulesets/ac-hl.yaml")
    assert found.span.line == line_of(text, "hand_limit:")
    assert "`commodity_cards` and `by_players` exclude each other" in found.message
    assert "the base gives `commodity_cards`" in found.message
    assert found.hint is not None and "`commodity_cards: null`" in found.hint
    added = found.hint.split("add `", 1)[1].split("`", 1)[0]
    fixed_text = text.replace('      source: "house rule"\n', f'      source: "house rule"\n      {added}\n')
    fixed = analysed("ac-hl", fixed_text)
    assert errors(fixed) == []
    assert fixed.model is not None and "commodity_cards" not in fixed.model.data["hand_limit"]


def test_a_calamity_patch_giving_effects_beside_the_bases_victims_is_told_at_the_patch() -> None:
    text = _header("ac-cal", "advanced-civilization") + (
        "overlay:\n  calamities:\n    patch:\n"
        '      - {id: volcano_earthquake, effects: {unknown: "house rule: not known"}, source: "house rule"}\n'
    )
    (found,) = errors(analysed("ac-cal", text))
    assert found.span is not None and found.span.file.endswith("rulesets/ac-cal.yaml")
    assert "`primary`, `secondary`, `immune` and `modifiers` exclude `effects`" in found.message
    assert "the base gives `primary`, `secondary`, `immune` and `modifiers`" in found.message
    assert found.hint is not None
    nulls = found.hint.split("add ", 1)[1].split(" beside ", 1)[0]
    assert nulls == "`primary: null`, `secondary: null`, `immune: null`, `modifiers: null`"
    fixed = analysed("ac-cal", text.replace("effects:", nulls.replace("`", "") + ", effects:"))
    assert [d for d in errors(fixed) if d.code.startswith("S")] == []


def test_both_keys_in_one_list_operation_are_told_to_keep_one() -> None:
    text = _header("mega-ins", "mega-civilization") + (
        "overlay:\n  settings:\n    special_rules:\n      insert:\n"
        "        - {before: {id: a}, after: {id: b}, items: [{id: c}]}\n"
    )
    found = [d for d in errors(analysed("mega-ins", text)) if d.code == "S001"]
    (one,) = found
    assert "`before` and `after` exclude each other" in one.message
    assert "none" not in one.message
    assert one.hint is not None and "keep one" in one.hint


DECK_PATCH = """\
overlay:
  settings:
    deck_compositions:
      patch:
        - where: {players: {min: 5, max: 7}}
          with:
            decks:
              patch:
                - where: {block: single}
                  with:
                    commodities:
                      patch:
                        - where: {commodity: clay}
                          with: {count: 3}
"""


def test_a_deck_patch_giving_a_count_where_the_base_gives_a_share_is_told_to_delete_the_share() -> None:
    text = _header("ep-deck", "expansion-project") + DECK_PATCH
    (found,) = [d for d in errors(analysed("ep-deck", text)) if d.code.startswith("S")]
    assert found.span is not None and found.span.file.endswith("rulesets/ep-deck.yaml")
    assert found.span.line == line_of(text, "with: {count: 3}")
    assert "`count` and `share` exclude each other" in found.message
    assert "the base gives `share`" in found.message
    assert found.hint is not None
    fixed = analysed("ep-deck", _follow(text, found.hint, "count: 3"))
    assert [d for d in errors(fixed) if d.code.startswith("S")] == []
    assert fixed.resolved is not None
    compositions = [v["deck_compositions"] for v in fixed.resolved.settings.values() if "deck_compositions" in v]
    (block,) = compositions[0][0]["decks"]
    (clay,) = [c for c in block["commodities"] if c["commodity"] == "clay"]
    assert clay == {"commodity": "clay", "count": 3}


def test_a_setting_restated_outside_the_overlay_is_judged_as_merged() -> None:
    """Merged key by key with the base's, `hand_limit: {commodity_cards: 10, ...}` written at the
    top of a Mega variant held both forms and was exported so, unjudged."""
    text = _header("mega-top", "mega-civilization") + (
        'hand_limit: {commodity_cards: 10, source: "house rule", text: "Ten cards."}\n'
    )
    (found,) = errors(analysed("mega-top", text))
    assert found.span is not None and found.span.file.endswith("rulesets/mega-top.yaml")
    assert found.span.line == line_of(text, "hand_limit:")
    assert "the base gives `by_players`" in found.message
    assert found.hint is not None and "under `overlay:` `settings:`" in found.hint
    moved = _header("mega-top", "mega-civilization") + (
        'overlay:\n  settings:\n    hand_limit: {commodity_cards: 10, source: "house rule", text: "Ten cards."}\n'
    )
    fixed = analysed("mega-top", _follow(moved, found.hint, "commodity_cards: 10"))
    assert errors(fixed) == []


def test_the_forms_of_a_cited_setting_leave_out_its_citation() -> None:
    """`{rule: ...}` is no form of a hand limit: the citation `anyOf` is required beside the form."""
    ruleset = load_schema("ruleset")
    hint = accepted.write_hint(ruleset["properties"]["hand_limit"], ruleset.get("$defs", {}))
    assert hint == (
        'write `{commodity_cards: "write the commodity cards here"}`, or `{by_players: "write the by players here"}`'
    )
    # Round 33: each form pastes as written, its values blanks (L016 until written), not `...`
    for form in hint.split("`")[1::2]:
        (value,) = yaml.safe_load(form).values()
        assert blanks.is_blank(value), form


MEGA_SOURCE = "menuan/megacivrules-flutter@e2c96578c5bcd4e1bd7f068826166ce2f7a4d197:assets/data/json/chapters.json"


def test_a_band_patch_cites_the_band_it_changes_and_leaves_the_others_the_bases_citation() -> None:
    """`source: "house rule"` on a hand-limit patch that changes one band cites that band: the
    untouched band and the limit's text keep the base's citation (§12), as entities' fields do."""
    text = _header("mega-bands", "mega-civilization") + (
        "status: draft\n"  # its own, as its base's: else the diff shows its status gone too
        "overlay:\n  settings:\n    hand_limit:\n"
        '      source: "house rule"\n'
        "      by_players:\n"
        "        patch:\n"
        "          - {where: {commodity_cards: 8}, with: {commodity_cards: 7}}\n"
    )
    analysis = analysed("mega-bands", text)
    assert errors(analysis) == []
    assert analysis.resolved is not None
    hand_limit = analysis.resolved.data["hand_limit"]
    assert hand_limit["source"].startswith(MEGA_SOURCE), "the text and the untouched facts keep the base's citation"
    changed, kept = hand_limit["by_players"]
    assert changed["commodity_cards"] == 7 and changed["source"] == "house rule"
    assert kept["commodity_cards"] == 9 and kept["source"].startswith(MEGA_SOURCE)
    exported = export_of(analysis)
    assert [band["source"] for band in exported["settings"]["hand_limit"]["by_players"]] == [
        "house rule",
        kept["source"],
    ]
    assert exported["setting_sources"] == {"hand_limit": {"by_players": "source: house rule"}}


def test_bands_written_whole_cite_the_patch_and_the_limit_cites_its_rule_and_the_patch() -> None:
    """The bands cite the house rule; the hand limit keeps 31.71/31.72 for its text and the facts
    the patch left, and cites the house rule too (round 21: a patch's citation is added to the
    mapping's, never put in its place or dropped: the house rule removed the single limit)."""
    text = _header("ac-bands", "advanced-civilization") + (
        "overlay:\n  settings:\n    hand_limit:\n"
        '      source: "house rule"\n'
        "      commodity_cards: null\n"
        "      by_players:\n"
        "        - {players: {min: 2, max: 4}, commodity_cards: 9}\n"
        "        - {players: {min: 5, max: 8}, commodity_cards: 8}\n"
    )
    analysis = analysed("ac-bands", text)
    assert errors(analysis) == []
    assert analysis.resolved is not None
    hand_limit = analysis.resolved.data["hand_limit"]
    assert hand_limit["rule"] == ["31.71", "31.72"] and hand_limit["source"] == "house rule"
    assert [band["source"] for band in hand_limit["by_players"]] == ["house rule", "house rule"]


def test_diff_cites_a_settings_change_as_it_cites_an_entitys() -> None:
    text = _header("mega-bands", "mega-civilization") + (
        "status: draft\n"  # its own, as its base's: else the diff shows its status gone too
        "overlay:\n  settings:\n    hand_limit:\n"
        '      source: "house rule"\n'
        "      by_players: {patch: [{where: {commodity_cards: 8}, with: {commodity_cards: 7}}]}\n"
    )
    workspace = CachedWorkspace({"rulesets/mega-bands.yaml": text})
    resolver = Resolver(workspace)
    old, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()["mega-civilization"]))
    new, _ = resolver.resolve(workspace.load_ruleset(workspace.manifests()["mega-bands"]))
    assert old is not None and new is not None
    (change,) = diff_rulesets(old, new).settings
    assert change.path == "hand_limit.by_players[5-11].commodity_cards"
    assert change.sources is not None
    assert change.sources[0] is not None and MEGA_SOURCE in change.sources[0]
    assert change.sources[1] == "source: house rule"
