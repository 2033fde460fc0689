"""A deletion is no uncited fact, and what a later change leaves is still cited by what wrote it
(round 21).

Q009 says a change that writes no fact (a `null`, a list's `remove:`, a `note`) needs no citation,
but the provenance outputs counted every change as a write: `export`'s `field_sources` and
`setting_sources`, the packages' ENTITY_FIELD_SOURCES and the sheets called such a field
"uncited" (the README's own "My house rules" example printed "uncited" on its cards sheet), and
`diff` said a removed element went "→ uncited". A field kept only its last changer, so a later
variant's removal of one element hid the cited `with:` of an earlier one. An entity's whole
citation (its `rule:`/`source:`, ENTITY_SOURCES) kept a patch whose every fact a later variant
wrote over, while its sheet row dropped it. Now one predicate (:func:`civrules.resolve.holds_a_fact`,
Q009's) decides what writes, and every output cites what still writes each fact.
"""

from __future__ import annotations

import functools
from typing import Any

from civrules.emit.export import export_ruleset
from civrules.emit.pyfmt import statement
from civrules.emit.runtime.mappings import FrozenMap
from civrules.pipeline import Analysis, analyse, derived_facts
from civrules.resolve import origin_field_citations
from civrules.resolve.diff import diff_rulesets, render_text
from tests.rulefiles import CachedWorkspace

IS = "kind: ruleset\nfamily: imperial-settlers\n"

VARIANTS = {
    # The README's "Variants" example: Law and Theology each lose one attribute.
    "ep-rm": """\
kind: ruleset
id: ep-rm
name: "EP rm"
extends: expansion-project
overlay:
  calamities:
    remove:
      - {id: banditry, why: "house rule: no Banditry"}
  civilization_cards:
    patch:
      - id: law
        attributes: {remove: [{rule: "30.23.4"}]}
      - id: theology
        attributes: {remove: [{rule: "29.9.3.2"}]}
""",
    "ac-null": """\
kind: ruleset
id: ac-null
name: "AC null"
extends: advanced-civilization
overlay:
  settings:
    hand_limit: {count_public: null, card_changes: null}
""",
    "smc-null": """\
kind: ruleset
id: smc-null
name: "SMC null"
extends: sid-meiers-civilization
overlay:
  settings:
    players: {min: 3, max: 5, best: null, source: "house rule: three to five"}
""",
    "is-two": f"""\
{IS}id: is-two
name: "IS two"
extends: imperial-settlers
overlay:
  settings:
    setup:
      patch:
        - where: {{step: 7}}
          with: {{text: "The youngest player goes first.", source: "house rule: youngest"}}
      append:
        - {{step: 8, text: "Deal each player one extra card.", source: "house rule: extra"}}
""",
    "is-three": f"""\
{IS}id: is-three
name: "IS three"
extends: is-two
overlay:
  settings:
    setup:
      remove: [{{step: 8}}]
""",
    "is-four": f"""\
{IS}id: is-four
name: "IS four"
extends: is-two
overlay:
  settings:
    setup:
      replace:
        - where: {{step: 7}}
          with: {{step: 7, text: "The oldest player goes first.", source: "house rule: oldest"}}
""",
    "ac-v1": """\
kind: ruleset
id: ac-v1
name: "AC v1"
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - {id: pottery, cost: 50, rule: "1.1"}
""",
    "ac-v2": """\
kind: ruleset
id: ac-v2
name: "AC v2"
extends: ac-v1
overlay:
  civilization_cards:
    patch:
      - {id: pottery, groups: [crafts, arts], source: "house rule: v2 groups"}
""",
    "ac-v3": """\
kind: ruleset
id: ac-v3
name: "AC v3"
extends: ac-v2
overlay:
  civilization_cards:
    patch:
      - {id: pottery, credits: {append: [{card: law, points: 5, source: "house rule: v3 credit"}]}}
""",
    "ac-v4": """\
kind: ruleset
id: ac-v4
name: "AC v4"
extends: ac-v2
overlay:
  civilization_cards:
    patch:
      - {id: pottery, cost: 60, rule: "3.2"}
""",
    "ac-v9": """\
kind: ruleset
id: ac-v9
name: "AC v9"
extends: ac-v3
overlay:
  civilization_cards:
    patch:
      - {id: pottery, credits: {remove: [{card: law}]}}
""",
}


@functools.cache
def _workspace() -> CachedWorkspace:
    return CachedWorkspace({f"rulesets/{name}.yaml": text for name, text in VARIANTS.items()})


@functools.cache
def _analysed(ruleset: str) -> Analysis:
    workspace = _workspace()
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    assert not [d for d in analysis.diagnostics if d.severity == "error"], analysis.diagnostics
    return analysis


@functools.cache
def _exported(ruleset: str) -> dict[str, Any]:
    analysis = _analysed(ruleset)
    assert analysis.model is not None and analysis.resolved is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def _item(ruleset: str, collection: str, key: str) -> dict[str, Any]:
    (found,) = [item for item in _exported(ruleset)[collection] if item["id"] == key]
    return dict(found)


def _card_rows(ruleset: str) -> dict[str, str]:
    from civrules.families.advanced_civilization.sheets.cards import card_chart

    model: Any = _analysed(ruleset).model
    return {row["name"]: row["rule"] for row in card_chart(model)["rows"]}


def _diff(old: str, new: str) -> str:
    before, after = _analysed(old).resolved, _analysed(new).resolved
    assert before is not None and after is not None
    return render_text(diff_rulesets(before, after))


def test_a_removed_attribute_leaves_the_card_cited_by_the_attributes_it_keeps() -> None:
    """The README's example: Law's attributes, one removed, are the definition's, each cited."""
    law = _item("ep-rm", "civilization_cards", "law")
    kept = {attribute["rule"] for attribute in law["attributes"] if isinstance(attribute["rule"], str)}
    assert "30.23.4" not in kept
    cited = law["field_sources"]["attributes"]
    assert cited is not None and "30.23.2" in cited and "30.23.4" not in cited
    rows = _card_rows("ep-rm")
    assert "uncited" not in rows["Law"] and "uncited" not in rows["Theology"]


def test_a_null_writes_no_fact_and_is_cited_by_nothing() -> None:
    """`count_public: null` deletes a fact, `card_changes: null` (a field the base's hand limit
    may not have) deletes nothing: neither is an uncited change of the hand limit."""
    from civrules.emit.sheets.common import Notes
    from civrules.families.advanced_civilization.sheets.quick_reference import _hand_limit

    assert "count_public" not in _exported("ac-null")["settings"]["hand_limit"]
    assert "hand_limit" not in _exported("ac-null").get("setting_sources", {})
    model: Any = _analysed("ac-null").model
    assert _hand_limit(model, Notes())["rule"] == "31.71, 31.72"
    text = _diff("ac-v1", "ac-null")
    assert "uncited" not in text and "cited: rule 31.71, 31.72" in text


def test_a_number_a_patch_deletes_is_not_cited_by_it() -> None:
    """`best: null` beside two numbers the house rule writes: the house rule cites the numbers;
    the deleted best number is cited by nothing (PLAYERS' `field_sources` are these)."""
    from civrules.emit.players import player_range

    house = "source: house rule: three to five"
    assert _exported("smc-null")["setting_sources"] == {"players": {"max": house, "min": house}}
    model: Any = _analysed("smc-null").model
    written = statement("PLAYERS", player_range(_exported("smc-null"), model))
    assert "field_sources" in written and '"best"' not in written


def test_a_later_removal_keeps_the_earlier_with_cited() -> None:
    """is-two cites the step it rewrote and the step it added; is-three removes the added step:
    the rewritten step is still the house rule's, and the removed one is cited by nothing after."""
    assert _exported("is-two")["setting_sources"] == {
        "setup": {"setup": "source: house rule: youngest; source: house rule: extra"}
    }
    assert _exported("is-three")["setting_sources"] == {"setup": {"setup": "source: house rule: youngest"}}
    text = _diff("is-two", "is-three")
    assert "setup[8]" in text and "uncited" not in text and "cited: source: house rule: extra\n" in text


def test_an_element_written_again_is_no_longer_cited_by_its_earlier_writer() -> None:
    """is-four replaces the step is-two rewrote: is-two still cites the step it added, not the
    one written over."""
    cited = _exported("is-four")["setting_sources"]["setup"]["setup"]
    assert cited == "source: house rule: extra; source: house rule: oldest"


def test_a_variant_s_element_removed_leaves_the_field_to_its_definition() -> None:
    """v3 appends a credit, v9 removes it: the credits are the definition's again, each cited."""
    assert (
        _item("ac-v3", "civilization_cards", "pottery")["field_sources"]["credits"] == "source: house rule: v3 credit"
    )
    pottery = _item("ac-v9", "civilization_cards", "pottery")
    assert pottery["field_sources"] == {
        "cost": "rule 1.1",
        "credits": "rule 32.212",
        "groups": "source: house rule: v2 groups",
    }
    model: Any = _analysed("ac-v9").model
    card = model.cards.get("pottery")
    assert origin_field_citations(card.origin) == pottery["field_sources"]  # ENTITY_FIELD_SOURCES' source
    assert "uncited" not in _card_rows("ac-v9")["Pottery"]
    assert "uncited" not in _diff("ac-v3", "ac-v9")
    from civrules.resolve import field_writers

    assert [writer for writer, _ in field_writers(card.origin, "credits")] == [None]  # the definition alone


def test_a_patch_whose_facts_were_all_written_over_no_longer_cites_the_entity() -> None:
    """v1 wrote Pottery's cost under 1.1, v4 wrote it again under 3.2: 1.1 cites nothing left."""
    from civrules.families.advanced_civilization.package import _entity_sources as sources_of

    pottery = _item("ac-v4", "civilization_cards", "pottery")
    assert (pottery["rule"], pottery["source"]) == (["32.21", "3.2"], "house rule: v2 groups")
    assert pottery["field_sources"] == {"cost": "rule 3.2", "groups": "source: house rule: v2 groups"}
    model: Any = _analysed("ac-v4").model
    whole = ("32.21", "3.2", "house rule: v2 groups")
    assert (*model.cards.get("pottery").rules, model.cards.get("pottery").source) == whole
    namespace: dict[str, object] = {"FrozenMap": FrozenMap}
    exec(statement("ENTITY_SOURCES", sources_of(model)), namespace)
    assert namespace["ENTITY_SOURCES"]["civilization_cards.pottery"] == whole  # type: ignore[index]
    assert _card_rows("ac-v4")["Pottery"] == "32.21; 3.2; house rule: v2 groups"  # the sheet, as before
    # A patch whose facts still stand keeps its place, the definition's first (v9: 1.1, v2, not v3).
    v9 = _item("ac-v9", "civilization_cards", "pottery")
    assert (v9["rule"], v9["source"]) == (["32.21", "1.1"], "house rule: v2 groups")
