"""The game: its four victories are present, map tiles are 4x4 squares, a number written twice agrees."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from civrules.checks import check, diagnostic, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, blanks, words
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset, Government

VICTORIES = ("culture", "technology", "economy", "military")


@check("T015", "victory-missing", Severity.ERROR, reads=("victories.coins", "victories.kind", setting("coins")))
def check_victories(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: one of the four victories (culture, technology, economy, military, p2) is missing, or the
    economic victory's coins differ from the coins setting.

    Why: a game without one of its victories plays differently; a variant that means to drop one
    should say so with a suppression.

    Fix: add the victory; give the economic victory the coins of the setting. A variant is given
    both ways from its overlay: the patch of the victory in `overlay.victories`, and the coins
    setting in `overlay.settings`.

        victories: [{id: culture, kind: culture}]   # FAIL: three victories missing
    """
    kinds = {v.kind for v in ruleset.victories}
    for kind in VICTORIES:
        if kind not in kinds:
            yield diagnostic(
                "T015",
                f"the {kind} victory is missing",
                ruleset.manifest.span("victories") if len(ruleset.victories) else ruleset.manifest.span("id"),
                f"add a victory of kind {kind}",
                subjects=(kind,),
            )
    coins = ruleset.rule("coins").get("victory")
    for victory in ruleset.victories:
        if (
            victory.kind == "economy"
            and isinstance(coins, int)
            and victory.coins is not None
            and victory.coins != coins
        ):
            yield diagnostic(
                "T015",
                f"the economic victory needs {victory.coins} coins but the coins setting says {coins}",
                victory.origin.span("coins"),
                f"make both {coins}, or change both",
                subjects=(victory.id, "coins"),
                # both ways from the variant: the coins setting is most often the base's, which a
                # variant changing the victory's coins changes in `overlay.settings`
                from_variant=(
                    f"patch the economic victory to {coins} coins in `overlay.victories`, "
                    f'`patch: [{{id: {victory.id}, coins: {coins}, source: "{blanks.HOUSE_RULE}"}}]`; or give '
                    f"the coins setting {victory.coins} in `overlay.settings`, "
                    f'`coins: {{victory: {victory.coins}, source: "{blanks.HOUSE_RULE}"}}`'
                    if len(ruleset.chain) > 1
                    else None
                ),
            )


@check("T016", "tile-not-four-by-four", Severity.ERROR, reads=("tiles.squares",))
@made_of("tiles")
def check_tiles(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: a map tile is not 4 rows of 4 squares.

    Why: every map tile is a 4x4 square (p9): tiles are laid edge to edge.

    Fix: give the tile four rows of four terrains.

        squares: [[agua, agua, agua], ...]   # FAIL: three squares in a row
    """
    for tile in ruleset.tiles:
        if len(tile.squares) != 4 or any(len(row) != 4 for row in tile.squares):
            shape = "x".join(str(len(r)) for r in tile.squares)
            yield diagnostic(
                "T016",
                f"tile `{tile.id}` has rows of {shape} squares, not 4x4",
                tile.origin.span("squares"),
                "four rows of four squares",
                subjects=(tile.id,),
            )


@check("T019", "battle-hand-disagrees", Severity.ERROR, reads=("governments.battle_hand", setting("combat")))
def check_battle_hand(ruleset: CivilizationRuleset) -> Iterator[Diagnostic]:
    """
    What: the battle hand's cards for a government (`combat.battle_hand.<government>`) differ from
    that government's own `battle_hand` (Fundamentalism: 1 more card, p14).

    Why: the rulebook gives the extra card once; the data writes it twice, in the government (which
    the package's `battle_hand_size` reads) and in the battle hand's setting (which the package's
    SETTINGS give), so a change to one is a slip unless the other follows.

    Fix: make both the same number.

        combat: {battle_hand: {fundamentalism: 2}}   # FAIL: the government says 1
        combat: {battle_hand: {fundamentalism: 1}}   # PASS
    """
    combat, origin = ruleset.rule("combat"), ruleset.rule_origin("combat")
    hand = combat.get("battle_hand")
    if not isinstance(hand, Mapping) or origin is None:
        return
    for government in ruleset.governments:
        written = hand.get(government.id)
        if (
            isinstance(written, int)
            and not isinstance(written, bool)
            and government.battle_hand is not None
            and written != government.battle_hand
        ):
            yield diagnostic(
                "T019",
                f"the battle hand gives {words.count(written, 'more card')} under {government.id}; the government says "
                f"{government.battle_hand} (p14)",
                origin.span("battle_hand", government.id),
                f"make both {government.battle_hand}, or change both"
                + _government_from_variant(ruleset, government, written),
                [Related(government.origin.span("battle_hand"), f"{government.id}'s battle_hand is here")],
                subjects=(government.id,),
            )


def _government_from_variant(ruleset: CivilizationRuleset, government: Government, written: int) -> str:
    """How a variant whose battle hand's setting T019 finds at its own line changes the other
    side, the government its base writes: "change both" named a base's entity and said no more."""
    if not ruleset.from_base(government.origin, "battle_hand"):
        return ""
    return (
        f": in this variant, patch `{government.id}` in `overlay.governments`, "
        f'`patch: [{{id: {government.id}, battle_hand: {written}, source: "{blanks.HOUSE_RULE}"}}]`'
    )
