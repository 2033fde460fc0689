"""The designer trial of round 34, followed up: a variant's own cards file restating an entity of
its base is I001 alone; what counts or sums a collection sees the first of an id, as references do."""

from __future__ import annotations

from civrules.pipeline import analyse
from tests.families.advanced_civilization.test_designer_trial import HEAD
from tests.rulefiles import CachedWorkspace, shipped_text

MANIFEST = HEAD + "files: {civilization_cards: [cards/extra.yaml]}\n"


def told(extra: str, manifest: str = MANIFEST, ruleset: str = "house", cards: str = "cards/extra.yaml") -> list[str]:
    workspace = CachedWorkspace({f"rulesets/{ruleset}.yaml": manifest, cards: extra})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    return [f"{d.code}: {d.message}" for d in analysis.diagnostics if d.severity != "info"]


def test_a_card_group_restated_in_a_variants_file_is_one_diagnostic() -> None:
    """Round 34's trial: the Crafts group copied into a variant's own cards file gave I001 and
    A008 "epoch `early_iron_age` needs cards of all 6 groups, but the cards can cover only 5": the
    groups were counted with the copy (7 entries of 6 ids). One cause, one diagnostic."""
    extra = (
        "kind: civilization_cards\n"
        'groups: [{id: crafts, name: Crafts, colour: orange, rule: "32.2"}]\n'
        "cards:\n"
        "  - {id: loom, name: Loom, cost: 50, groups: [crafts], prerequisites: [], credits: [], attributes: [],\n"
        '     source: "house rule: a loom"}\n'
    )
    assert told(extra) == ["I001: card group id `crafts` is used twice"]


def test_a_card_restated_with_another_cost_is_one_diagnostic() -> None:
    """The same class for cards: Pottery copied with a new cost is I001 alone (its hint says to
    patch it), not also counted twice where the cards are counted or their points summed."""
    extra = (
        "kind: civilization_cards\n"
        'groups: [{id: crafts, name: Crafts, colour: orange, rule: "32.2"}]\n'
        "cards:\n"
        "  - {id: pottery, name: Pottery, cost: 50, groups: [crafts], prerequisites: [], credits: [], attributes: [],\n"
        '     source: "house rule: dearer"}\n'
    )
    assert told(extra) == [
        "I001: card group id `crafts` is used twice",
        "I001: civilization card id `pottery` is used twice",
    ]


def test_an_imperial_settlers_card_restated_in_a_variants_file_is_one_diagnostic() -> None:
    """The class in another family: a Roman card copied into a variant's own cards file made the
    Roman deck hold its copies twice (F001, the deck's size) and its printed ids twice (F008),
    beside I001."""
    manifest = (
        "kind: ruleset\nfamily: imperial-settlers\nid: is-copy\nname: copy\nextends: imperial-settlers\n"
        "files: {cards: [cards/extra.yaml]}\n"
    )
    text = shipped_text("cards/imperial-settlers.yaml")
    start = text.index("  - id: rom030\n")
    end = text.find("\n  - id:", start + 1)
    card = text[start : end + 1 if end != -1 else len(text)]
    extra = "kind: cards\ncards:\n" + card
    found = told(extra, manifest, "is-copy")
    assert [line.split(":")[0] for line in found] == ["I001"], found


def test_a_variants_own_cards_file_adding_to_its_bases_groups_writes_no_group() -> None:
    """Round 34's trial copied the Crafts group into a variant's own cards file because the
    schema required `groups` (1 to 5) in every cards file: a file adding a card to its base's
    groups could not be written without restating one (I001). It writes its cards alone now;
    a key named for the collection (`civilization_cards:`) is then one S002, naming `cards`."""
    card = (
        "  - {id: loom, name: Loom, cost: 50, groups: [crafts], prerequisites: [], credits: [], attributes: [],\n"
        '     source: "house rule: a loom"}\n'
    )
    assert told("kind: civilization_cards\ncards:\n" + card) == []
    assert told("kind: civilization_cards\ncivilization_cards:\n" + card) == ["S002: unknown key `civilization_cards`"]
