"""The goods of each trade stack with their set values, with Mining, and the deck compositions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from civrules.emit.sheets.common import (
    citation_text,
    cited_once,
    humanize,
    known,
    name_of,
    origin_citation,
    setting_citation,
)
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization import FAMILY
from civrules.families.advanced_civilization.calamities import resolution_order
from civrules.families.advanced_civilization.commodities import commodity_total, set_value, set_value_rule
from civrules.families.advanced_civilization.model import Commodity, Ruleset
from civrules.model import Unknown
from civrules.resolve.diff import distinguish, named_by


def commodity_sheet(ruleset: Ruleset, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    mark = source.setting_mark if source is not None else _no_mark
    rule = set_value_rule(ruleset)
    counts = [c.count for c in ruleset.commodities if isinstance(c.count, int)]
    width = max(counts, default=0)
    numbers = sorted(
        {c.stack for c in ruleset.commodities if isinstance(c.stack, int)} | {c.stack for c in ruleset.calamities}
    )
    order = {calamity.id: i for i, calamity in enumerate(resolution_order(ruleset))}
    with_block = any(c.block is not None for c in ruleset.commodities)

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
            "inferred": "value" in commodity.inferred,
            "count": known(commodity.count),
            "values": values,
            "mining": mining,
            "unknown": not values,
            "block": known(commodity.block) if with_block else "",
        }

    stacks = []
    # each stack's goods and calamities, gathered in one pass (not all of them walked per stack)
    goods_of: dict[object, list[Any]] = {}
    for commodity in ruleset.commodities:
        goods_of.setdefault(commodity.stack, []).append(commodity)
    calamities_of_stack: dict[object, list[Any]] = {}
    for calamity in ruleset.calamities:
        calamities_of_stack.setdefault(calamity.stack, []).append(calamity)
    for number in numbers:
        calamities = sorted(calamities_of_stack.get(number, ()), key=lambda c: order[c.id])
        stacks.append(
            {
                "number": number,
                "goods": [good(c) for c in goods_of.get(number, ())],
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
    total = commodity_total(ruleset)
    purchases = [
        {
            "stack": stack.number,
            "price": known(purchase.price),
            "rule": citation_text(purchase.rules, purchase.source),
            "mark": mark(f"trade_stacks.stacks[{stack.number}].purchases"),
        }
        for stack in (ruleset.trade_stacks.stacks if ruleset.trade_stacks is not None else ())
        for purchase in stack.purchases
    ]
    mining, set_rule = ruleset.mining, ruleset.set_value
    stacks_cited = (
        origin_citation(ruleset.trade_stacks.origin, transcriptions=True) if ruleset.trade_stacks is not None else ""
    )
    return {
        "set_mark": mark("set_value.formula"),  # its examples are printed nowhere
        "mining_mark": mark("mining"),
        "total_mark": mark("total_cards"),
        "inferred": _inferred_note(ruleset),
        "columns": list(range(1, width + 1)),
        "stacks": stacks,
        "loose": loose,
        "with_block": with_block,
        "mining_card": name_of(ruleset.cards, mining.card)
        if mining is not None and mining.card is not None
        else "Mining",
        "mining_extra": rule.mining_extra_cards,
        "formula": "n × n × value"
        if rule.formula == "count_squared_times_value"
        else humanize(rule.formula or "unknown (not in the sources)"),
        "set_rule": setting_citation(ruleset.setting_origins, "set_value", cited_apart=("examples",))
        if set_rule is not None
        else "",
        "total": total if isinstance(total, int) else "",
        "purchases": purchases,
        "decks": _deck_compositions(ruleset, mark),
        "preparation": cited_once(
            [
                {
                    "text": " ".join(step.text.split()),
                    # a step citing nothing of its own is the trade stacks' (Mega Civilization's transcription)
                    "rule": citation_text(step.rules, None) or stacks_cited,
                    "mark": mark(f"trade_stacks.setup.steps[{step.step}]"),
                }
                for step in (ruleset.trade_stacks.setup if ruleset.trade_stacks is not None else ())
                if step.text
            ]
        ),
        "block_bonuses": _block_bonuses(ruleset, mark),
    }


def _no_mark(path: str) -> str:
    return ""


def _block_bonuses(ruleset: Ruleset, mark: Callable[[str], str] = _no_mark) -> list[dict[str, Any]]:
    """The bonus of a set redeemed outside its good's native trade block, per band of player counts
    (`non_native_block_bonus`; Expansion Project 26.3.3-26.3.4), as the package's set_value and the
    helper page count it: whom it reaches (shared goods or not), whether it may pass the printed
    maximum, and its citation."""
    return [
        {
            "players": f"{band.players_min}"
            if band.players_min == band.players_max
            else f"{band.players_min}–{band.players_max}",
            "shared": band.shared_goods == "bonus",
            "exceeds": band.may_exceed_printed_maximum is True,
            "rule": citation_text(band.rules, band.source),
            # the bands are named by their players in a variant's changes, as `5-7`
            "mark": mark(f"non_native_block_bonus[{band.players_min}-{band.players_max}]"),
        }
        for band in ruleset.block_bonuses
    ]


def _inferred_note(ruleset: Ruleset) -> str:
    """What the mark of an inferred value says, where some good's value (and stack) is read from the
    layout of a source's table rather than printed; empty where none is."""
    fields = {field for c in ruleset.commodities for field in c.inferred}
    if "value" not in fields:
        return ""
    also = "; so is the stack the good is sorted into" if "stack" in fields else ""
    return (
        "Not printed by any source: each marked value is read from the row of the source's table that lists "
        f"the good{also}."
    )


def _deck_compositions(ruleset: Ruleset, mark: Callable[[str], str] = _no_mark) -> list[dict[str, Any]]:
    """The trade decks per band of player counts (Expansion Project 10.3), when the data has them,
    each with the mark of a variant that adds or changes it (named as its changes name it: by its
    players, or by its players and map region where two share a band)."""
    found = []
    with named_by(FAMILY):
        names = distinguish(
            [
                {"players": {"min": c.players_min, "max": c.players_max}}
                | ({"map_region": c.region} if c.region is not None else {})
                for c in ruleset.deck_compositions
            ]
        )
    bands = [f"{c.players_min}-{c.players_max}" for c in ruleset.deck_compositions]
    if len(set(bands)) == len(bands):  # each band of its own: named by it
        names = bands
    for composition, name in zip(ruleset.deck_compositions, names, strict=True):
        low, high = composition.players_min, composition.players_max
        band = f"{low}" if low == high else f"{known(low, '?')}–{known(high, '?')}"
        decks = [
            {
                "block": humanize(deck.block or ""),
                "goods": [
                    {
                        "name": name_of(ruleset.commodities, entry.commodity),
                        "count": f"{entry.share} of the cards" if entry.share is not None else known(entry.count),
                    }
                    for entry in deck.goods
                ],
                "calamities": "unknown"
                if isinstance(deck.calamity_severities, Unknown)
                else ", ".join(deck.calamity_severities or ()),
                "sets": known(deck.calamity_sets, ""),
            }
            for deck in composition.decks
        ]
        found.append(
            {
                "players": band,
                "region": humanize(composition.region or ""),
                "decks": decks,
                "rule": citation_text(composition.rules, composition.source),
                "mark": mark(f"deck_compositions[{name}]"),
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
