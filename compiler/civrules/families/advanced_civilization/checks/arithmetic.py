"""Calamity arithmetic: the numbers of an effect and of what changes it, held against each other.

A card's modifier changes an effect's amount, and a secondary effect shares its total among a
number of victims with a cap each. Where the numbers written cannot all hold, the engine still
computes something (a reduction past zero is clamped to zero, points that no victim may take are
never dealt) in silence; these checks say so, with the numbers, as warnings: a rule may mean it.
"""

from __future__ import annotations

from collections.abc import Iterator

from civrules.checks import check, diagnostic, made_of
from civrules.diagnostics import Diagnostic, Related, Severity, words
from civrules.families.advanced_civilization.calamities import modified_effects
from civrules.families.advanced_civilization.model import CalamityEffect, Ruleset


def _points(effect: CalamityEffect) -> int | None:
    """The effect's amount where it is one plain number."""
    amount = effect.amount
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else None


@check(
    "K016",
    "modifier-larger-than-effect",
    Severity.WARNING,
    reads=(
        "calamities.effects",
        "calamities.modifiers",
    ),
)
@made_of("calamities")
def check_modifier_within_effect(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: a card's modifier reduces an effect by more than the effect's whole amount (−20 on a
    12-point Famine): the amount is clamped to zero, so the part beyond it means nothing. A
    reduction written once for several effects is held to the largest of them.

    Why: the number is most often a slip (−2 written −20, or the modifier aimed at the wrong
    effect); if the card is meant to cancel the effect, the data should say so, and the player aid
    should not print a reduction no one can receive.

    Fix: write the reduction the rule gives (at most the effect's amount), or, for a card that
    cancels the effect, `set_to: 0`.

        primary:
          - {id: famine_primary, kind: lose_unit_points, amount: 12, ...}
        modifiers:
          - {card: pottery, effect: reduces, modifies: [famine_primary], amount: -20, ...}   # FAIL: 20 > 12
    """
    for calamity in ruleset.calamities:
        effects = {e.id: e for side in ("primary", "secondary") for e in calamity.effects_of(side) if e.id}
        for modifier in calamity.modifiers:
            amount = modifier.amount
            if not isinstance(amount, int) or isinstance(amount, bool) or amount >= 0:
                continue
            if modifier.per or modifier.adds or modifier.set_to is not None or modifier.becomes_amount is not None:
                continue
            # A reduction written once for several effects (Theology: three cities fewer, for the
            # primary victim's and the secondary victims') need only fit the largest of them.
            changed = [effects[i] for i in modified_effects(calamity, modifier) if i in effects]
            sized = [(e, p) for e in changed if (p := _points(e)) is not None]
            if not sized or len(sized) < len(changed) or -amount <= max(p for _, p in sized):
                continue
            effect, points = max(sized, key=lambda pair: pair[1])
            yield diagnostic(
                "K016",
                f"`{modifier.card}` reduces `{effect.id}` of `{calamity.id}` by {-amount}, more than its "
                f"{words.count(points, 'point')}: the amount is clamped to 0",
                calamity.origin.span("modifiers", modifier.index, "amount"),
                f"write the reduction the rule gives (at most {points}), or `set_to: 0` if the card cancels the effect",
                [Related(calamity.origin.span(effect.side, effect.index, "amount"), f"`{effect.id}`: {points}")],
                subjects=(modifier.card, effect.id, calamity.id),
            )


@check("K017", "secondary-total-beyond-caps", Severity.WARNING, reads=("calamities.effects",))
@made_of("calamities")
def check_secondary_total_within_caps(ruleset: Ruleset) -> Iterator[Diagnostic]:
    """
    What: an effect shares a total among a number of victims with a cap per victim
    (`victim_count`, `max_per_victim`), and the total is more than the victims can take together
    (20 points for 3 victims of at most 5 each: 15).

    Why: the points beyond victims × cap are never dealt, so the total printed on the player aid
    is not what happens; one of the three numbers is a slip.

    Fix: correct the `amount`, the `victim_count` or the `max_per_victim` against the rule.

        secondary:
          - {id: famine_secondary, amount: 20, max_per_victim: 5, victim_count: 3, ...}   # FAIL: 20 > 15
    """
    for calamity in ruleset.calamities:
        for side in ("primary", "secondary"):
            for effect in calamity.effects_of(side):
                points, cap, victims = _points(effect), effect.max_per_victim, effect.victim_count
                if points is None or not isinstance(cap, int) or not isinstance(victims, int):
                    continue
                if points <= cap * victims:
                    continue
                name = f"`{effect.id}`" if effect.id else f"the {side} effect {effect.index + 1}"
                yield diagnostic(
                    "K017",
                    f"{name} of `{calamity.id}` deals {words.count(points, 'point')} to "
                    f"{words.count(victims, 'victim')} of at most {cap} each ({cap * victims}): "
                    f"{points - cap * victims} can never be dealt",
                    calamity.origin.span(side, effect.index, "amount"),
                    "correct the `amount`, the `victim_count` or the `max_per_victim` against the rule",
                    [
                        Related(calamity.origin.span(side, effect.index, "max_per_victim"), f"at most {cap} each"),
                        Related(calamity.origin.span(side, effect.index, "victim_count"), f"{victims} victims"),
                    ],
                    subjects=(calamity.id,),
                )
