"""The engine package's answers to the helper page's questions (run by test_helpers.py).

    python package_answers.py PACKAGE SEED RANDOM_HOLDINGS   (the package importable on sys.path)

prints JSON: the questions (drawn from the package's own data: every target card × {nothing held,
each single card held, RANDOM_HOLDINGS seeded random holdings}; every calamity effect × its role ×
{no cards, each modifying card, all of them}; the trader of every tradable calamity × its effects
on secondary victims; every nation × every calamity effect (its immunities); every good × set size
× Mining, and × players × trade blocks where the ruleset has their bonus; every epoch × cities ×
holdings, and × every nation × every A.S.T. level) and the package's answer to each, "unknown"
where it raises UnknownFactError, "refused" where it refuses the trade blocks given
(OutOfDomainError), null where it refuses a holding that lists a card twice (OutOfDomainError: a
player holds one of each; the page answers null). test_helpers.py runs it in its own process against
a build's folder (tests/variant_packages.run_script), so that a house variant's package, built
into a temporary folder, is imported from there.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from typing import Any

from civrules_runtime.errors import OutOfDomainError, UnknownFactError


def answer(f: Any, *args: Any) -> Any:
    try:
        return f(*args)
    except UnknownFactError:
        return "unknown"


def held_answer(f: Any, *args: Any) -> Any:
    """:func:`answer`, None where the holding lists a card twice (refused)."""
    try:
        return answer(f, *args)
    except OutOfDomainError as refused:
        if "is listed twice in" not in str(refused):
            raise
        return None


def main(package: str, seed: int, draws: int) -> dict[str, Any]:
    helpers = importlib.import_module(f"civrules_rulesets.{package}.helpers")
    data = importlib.import_module(f"civrules_rulesets.{package}.data")
    cards = list(data.CARDS)
    rng = random.Random(seed)
    holdings = [
        [],
        *([c] for c in cards),
        *(sorted(rng.sample(cards, rng.randint(2, min(12, len(cards))))) for _ in range(draws)),
    ]
    twice = [cards[0], cards[1], cards[0]]  # a card listed twice: refused by the package and the page
    prices = [
        {
            "held": held,
            "target": target,
            "price": held_answer(helpers.purchase_cost, held, target),
            "credit": held_answer(helpers.credit_toward, held, target),
        }
        for held in [*holdings, twice]
        for target in cards
    ]
    calamities = []
    for calamity, effects in data.CALAMITY_EFFECTS.items():
        modifiers = data.CALAMITY_MODIFIERS.get(calamity) or ()
        for effect in effects or ():
            role = str(effect.side)
            modifying = sorted(
                {m.card for m in modifiers if effect.id in m.effects and str(m.applies_to) in (role, "both")}
            )
            for held in [[], *([c] for c in modifying), modifying, modifying[:1] * 2]:
                try:
                    amount = helpers.calamity_amount(calamity, effect.id, held, role)
                    got: Any = {
                        "value": amount.value,
                        "change": amount.change,
                        "set_to": amount.set_to,
                        "cap": amount.cap,
                        "immune": amount.immune,
                        "unknown": amount.unknown,
                        "unknown_reason": amount.unknown_reason,
                        "kind": None if amount.kind is None else str(amount.kind),
                    }
                except UnknownFactError:
                    got = "unknown"
                except OutOfDomainError:
                    assert len(set(held)) < len(held)
                    got = None
                calamities.append(
                    {"calamity": calamity, "effect": effect.id, "role": role, "held": held, "amount": got}
                )
    # The trader of a tradable calamity: may he take a share of each effect on secondary victims
    # (secondary_losses refuses the player who traded it a share: immune)?
    traders = []
    for calamity, effects in data.CALAMITY_EFFECTS.items():
        if data.CALAMITIES[calamity].tradable is not True:
            continue
        for effect in effects or ():
            if str(effect.side) != "secondary":
                continue
            try:
                helpers.secondary_losses(calamity, effect.id, {"trader": 1}, traded_by="trader")
                immune: Any = False
            except OutOfDomainError:
                immune = True
            except UnknownFactError:
                immune = "unknown"
            traders.append({"calamity": calamity, "effect": effect.id, "immune": immune})
    # Each nation: its immunities (every calamity effect, no card held) and, at every A.S.T. level,
    # the card value of the first space of each epoch on its track (holdings up to every card).
    nations = list(data.NATIONS)
    for nation in nations:
        for calamity, effects in data.CALAMITY_EFFECTS.items():
            for effect in effects or ():
                try:
                    amount = helpers.calamity_amount(calamity, effect.id, [], str(effect.side), nation=nation)
                    got = {"value": amount.value, "immune": amount.immune}
                except UnknownFactError:
                    got = "unknown"
                calamities.append(
                    {"calamity": calamity, "effect": effect.id, "role": str(effect.side), "held": [],
                     "nation": nation, "amount": got}
                )  # fmt: skip
    sets = []
    for good, commodity in data.COMMODITIES.items():
        for n in range(0, (commodity.count or 0) + 1):
            for mining in (False, True):
                sets.append(
                    {
                        "good": good,
                        "n": n,
                        "mining": mining,
                        "value": answer(lambda g, k, m: helpers.set_value(g, k, mining=m), good, n, mining),
                    }
                )
    # The trade-block bonus (BLOCK_BONUSES): every good × set size × each band's edges, a count
    # outside every band and the counts just outside the ruleset's (or none given) × the block
    # redeemed in (or none) × (for a shared good) the block drawn in. "refused" where the package
    # raises OutOfDomainError (a block not in play, a count not of the ruleset, the players without
    # the block or the other way round, no drawn_in for a shared good): the page refuses them too.
    counts: list[int | None] = [
        None,
        *sorted(
            {p for b in data.BLOCK_BONUSES for p in (b.players_min, b.players_max, b.players_min - 1)}
            | ({min(data.PLAYER_COUNTS) - 1, max(data.PLAYER_COUNTS) + 1} if data.PLAYER_COUNTS else set())
        ),
    ]
    blocks = sorted({str(c.block) for c in data.COMMODITIES.values() if c.block is not None} & {"west", "east"})
    for good, commodity in data.COMMODITIES.items() if data.BLOCK_BONUSES else ():
        drawn_in = [None, *blocks] if str(commodity.block) == "shared" else [None]
        for n in range(1, (commodity.count or 0) + 1):
            for players in counts:
                for redeemed in [None, *blocks]:
                    for drawn in drawn_in:
                        if players is None and redeemed is None:
                            continue  # no trade block given: the plain set, asked above
                        try:
                            value = answer(
                                lambda *a: helpers.set_value(a[0], a[1], players=a[2], redeemed_in=a[3], drawn_in=a[4]),
                                good, n, players, redeemed, drawn,
                            )  # fmt: skip
                        except OutOfDomainError:
                            value = "refused"
                        trade = {"players": players, "redeemed": redeemed, "drawn": drawn}
                        sets.append({"good": good, "n": n, "mining": False, "trade": trade, "value": value})
    epochs = [
        {"epoch": epoch, "cities": cities, "held": held, "nation": None, "level": data.AST_LEVELS[0],
         "ok": held_answer(helpers.can_enter_epoch, epoch, cities, held)}
        for epoch in data.EPOCHS
        for cities in range(0, 10)
        for held in [*holdings[:: max(1, len(holdings) // 12)], twice]
    ]  # fmt: skip
    rich = [holdings[-1], cards[: len(cards) // 2], cards]
    epochs += [
        {"epoch": epoch, "cities": cities, "held": held, "nation": nation, "level": level,
         "ok": answer(lambda *a: helpers.can_enter_epoch(*a[:3], nation=a[3], level=a[4]),
                      epoch, cities, held, nation, level)}
        for nation in [None, *nations]
        for level in data.AST_LEVELS
        for epoch in data.EPOCHS
        for cities in (0, 9)
        for held in rich
    ]  # fmt: skip
    return {"prices": prices, "calamities": calamities, "traders": traders, "sets": sets, "epochs": epochs}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])), sort_keys=True))
