"""The goods of each trade stack with their set values, with Mining, and the deck compositions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import humanize, known, name_of, rules_text
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.calamities import resolution_order
from civrules.families.advanced_civilization.commodities import commodity_total, set_value, set_value_rule
from civrules.families.advanced_civilization.model import Commodity, Ruleset
from civrules.model import Unknown


def commodity_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    rule = set_value_rule(ruleset)
    counts = [c.count for c in ruleset.commodities if isinstance(c.count, int)]
    width = max(counts, default=0)
    numbers = sorted(
        {c.stack for c in ruleset.commodities if isinstance(c.stack, int)} | {c.stack for c in ruleset.calamities}
    )
    order = {calamity.id: i for i, calamity in enumerate(resolution_order(ruleset))}
    with_block = any("block" in c.raw for c in ruleset.commodities)

    def good(commodity: Commodity) -> dict[str, Any]:
        values: list[str] = []
        mining: list[str] = []
        try:
            for n in range(1, commodity.count + 1 if isinstance(commodity.count, int) else 1):
                values.append(str(set_value(commodity, n, rule=rule)))
                if commodity.mining and rule.mining_extra_cards:
                    mining.append(str(set_value(commodity, n, True, rule)))
        except ValueError:  # a value or count unknown, or a set value formula no function knows
            values, mining = [], []
        return {
            "name": commodity.display_name,
            "mark": source.changed("commodities", commodity.id) if source is not None else "",
            "value": known(commodity.value),
            "count": known(commodity.count),
            "values": values,
            "mining": mining,
            "unknown": not values,
            "block": known(commodity.raw.get("block")) if with_block else "",
        }

    stacks = []
    for number in numbers:
        calamities = sorted((c for c in ruleset.calamities if c.stack == number), key=lambda c: order[c.id])
        stacks.append(
            {
                "number": number,
                "goods": [good(c) for c in ruleset.commodities if c.stack == number],
                "calamities": [
                    {
                        "name": c.display_name,
                        "mark": source.changed("calamities", c.id) if source is not None else "",
                        "tradable": "unknown" if isinstance(c.tradable, Unknown) else ("yes" if c.tradable else "no"),
                    }
                    for c in calamities
                ],
            }
        )
    loose = [good(c) for c in ruleset.commodities if not isinstance(c.stack, int)]
    settings = ruleset.settings.get("commodities", {})
    total = commodity_total(ruleset)
    purchases = []
    trade_stacks = ruleset.setting("trade_stacks")
    if trade_stacks is not None and isinstance(trade_stacks[0], dict):
        for stack in trade_stacks[0].get("stacks") or ():
            for purchase in (stack.get("purchases") or ()) if isinstance(stack, dict) else ():
                if isinstance(purchase, dict):
                    price = purchase.get("price")
                    purchases.append(
                        {
                            "stack": stack.get("number"),
                            "price": "unknown" if isinstance(price, dict) and "unknown" in price else known(price),
                            "rule": rules_text(purchase.get("rule")),
                        }
                    )
    return {
        "columns": list(range(1, width + 1)),
        "stacks": stacks,
        "loose": loose,
        "with_block": with_block,
        "mining_card": name_of(ruleset.cards, str(settings.get("mining", {}).get("card", "mining")))
        if isinstance(settings.get("mining"), dict)
        else "Mining",
        "mining_extra": rule.mining_extra_cards,
        "formula": "n × n × value"
        if rule.formula == "count_squared_times_value"
        else humanize(rule.formula or "unknown (not in the sources)"),
        "set_rule": rules_text(settings.get("set_value", {}).get("rule"))
        if isinstance(settings.get("set_value"), dict)
        else "",
        "total": total if isinstance(total, int) else "",
        "purchases": purchases,
        "decks": _deck_compositions(ruleset, settings.get("deck_compositions")),
    }


def _deck_compositions(ruleset: Ruleset, compositions: object) -> list[dict[str, Any]]:
    """The trade decks per band of player counts (Expansion Project 10.3), when the data has them."""
    if not isinstance(compositions, list):
        return []
    found = []
    for composition in compositions:
        if not isinstance(composition, dict):
            continue
        players = composition.get("players")
        low = players.get("min") if isinstance(players, dict) else None
        high = players.get("max") if isinstance(players, dict) else None
        band = f"{low}" if low == high else f"{known(low, '?')}–{known(high, '?')}"
        decks = []
        for deck in composition.get("decks") or ():
            if not isinstance(deck, dict):
                continue
            goods = []
            for entry in deck.get("commodities") or ():
                if isinstance(entry, dict):
                    count = entry.get("count")
                    amount = (
                        f"{entry['share']} of the cards"
                        if "share" in entry
                        else ("unknown" if isinstance(count, dict) else known(count))
                    )
                    goods.append({"name": name_of(ruleset.commodities, str(entry.get("commodity"))), "count": amount})
            severities = ", ".join(str(s) for s in deck.get("calamity_severities") or ())
            decks.append(
                {
                    "block": humanize(deck.get("block", "")),
                    "goods": goods,
                    "calamities": severities,
                    "sets": known(deck.get("calamity_sets"), ""),
                }
            )
        found.append(
            {
                "players": band,
                "region": humanize(composition.get("map_region", "")),
                "decks": decks,
                "rule": rules_text(composition.get("rule")),
            }
        )
    return found


@sheet(
    "commodities.html",
    "Commodities and trade stacks",
    "The goods of each trade stack: value, number of cards and set values, with Mining.",
    position=40,
    sources=("commodities", "calamities"),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return commodity_sheet(source.ruleset, source)
