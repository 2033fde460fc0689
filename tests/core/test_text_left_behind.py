"""Round 35's designer trial: an Expansion Project house rule raising Famine's primary loss
(`with: {amount: 15}`) validated clean, `diff` showed 10 → 15, and the calamity sheet printed
"Primary 15 unit points: The primary victim removes ten unit points himself." The `text` beside a
number a variant changes, left as its definition words it, still says the old number: V014."""

from __future__ import annotations

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

HEAD = 'kind: ruleset\nid: ep-famine\nname: "Ep Famine"\nextends: expansion-project\nstatus: draft\n'


def _v014(overlay: str) -> list[Diagnostic]:
    workspace = CachedWorkspace({"rulesets/ep-famine.yaml": HEAD + overlay})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ep-famine"]))
    return [d for d in analysis.diagnostics if d.code == "V014"]


def _famine(with_: str) -> str:
    return (
        "overlay:\n  calamities:\n    patch:\n      - id: famine\n"
        f"        primary: {{patch: [{{where: {{id: famine_primary}}, with: {with_}}}]}}\n"
        '        source: "house rule: harsher famine"\n'
    )


def test_a_number_changed_beside_a_text_that_words_the_old_one_is_told_with_the_text_to_write() -> None:
    [v014] = _v014(_famine("{amount: 15}"))
    assert v014.severity == "warning"
    assert v014.message == (
        "`famine`: `primary[famine_primary].amount` is changed from 10 to 15, but the `text` beside it still says ten"
    )
    assert v014.span is not None and v014.span.file.endswith("rulesets/ep-famine.yaml") and v014.span.line == 10
    written = 'text: "The primary victim removes fifteen unit points himself."'
    assert v014.hint is not None and written in v014.hint, v014.hint


def test_the_text_the_hint_writes_pasted_beside_the_number_clears_it() -> None:
    [v014] = _v014(_famine("{amount: 15}"))
    assert _v014(_famine('{amount: 15, text: "The primary victim removes fifteen unit points himself."}')) == []
    assert v014.hint is not None


def test_a_text_that_names_no_number_changed_is_not_told() -> None:
    """The secondary loss's text says "twenty" and "eight": changing its cap from 8 to 6 is told,
    a number no text words (a copies count with no text beside it) is not."""
    secondary = (
        "overlay:\n  calamities:\n    patch:\n      - id: famine\n"
        "        secondary: {patch: [{where: {id: famine_secondary}, with: {max_per_victim: 6}}]}\n"
        "        copies: 3\n"
        '        source: "house rule: a lighter cap"\n'
    )
    assert [d.message for d in _v014(secondary)] == [
        "`famine`: `secondary[famine_secondary].max_per_victim` is changed from 8 to 6, "
        "but the `text` beside it still says eight"
    ]


def test_a_number_the_text_words_for_another_field_left_alike_is_not_told() -> None:
    """Epoch requirements word "three" for the cities and the groups: changing the groups (3 → 4)
    where the text says "three" for both is told; a text that says it once, for the other field
    left at 3, would word that field, not the changed one."""
    from civrules.checks.overlays import _left_behind

    before = {"min_cities": 3, "min_groups": 3, "text": "Three cities and cards of three groups."}
    assert [found[:3] for found in _left_behind(before, {**before, "min_groups": 4}, ())] == [("min_groups", 3, 4)]
    once = {**before, "text": "Cards of three groups."}
    assert list(_left_behind(once, {**once, "min_cities": 5}, ())) == []


def test_a_setting_changed_beside_its_text_is_told_with_the_text_to_write() -> None:
    """Round 35: V014 read entities only. The Expansion Project's hand limit, "may keep up to eight
    commodity cards", raised to 10 by restating the setting or patching it under
    `overlay.settings`, printed eight beside 10."""
    for overlay in (
        "hand_limit: {commodity_cards: 10}\n",
        "overlay:\n  settings:\n    hand_limit: {commodity_cards: 10}\n",
    ):
        [v014] = _v014(overlay)
        assert v014.message == (
            "the setting `hand_limit`: `commodity_cards` is changed from 8 to 10, but the `text` beside it still "
            "says eight"
        ), v014.message
        assert v014.span is not None and v014.span.file.endswith("rulesets/ep-famine.yaml")
        assert v014.hint is not None and "keep up to ten commodity cards" in v014.hint, v014.hint
        text = v014.hint.split("`text: ", 1)[1].removesuffix("`")
        followed = overlay.replace("commodity_cards: 10}", f"commodity_cards: 10, text: {text}}}")
        assert _v014(followed) == [], followed
