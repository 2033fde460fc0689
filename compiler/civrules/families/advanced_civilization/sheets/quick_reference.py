"""One page for the table: the turn's phases, the hand limit, taxation, the trade draw and the order
calamities are resolved in, from the resolved ruleset.

A fact the rules do not give is ``—`` with a note of the reason (the ruleset's ``not_in_sources``
entry where it has one); nothing is filled in. On a variant, what the variant changes is marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.diagnostics.words import count
from civrules.emit.sheets.common import Notes, citation_text, humanize, known, name_of, row_citation, setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization.calamities import order_basis, resolution_order
from civrules.families.advanced_civilization.model import Ruleset
from civrules.model import Unknown

#: The phase whose order is the trade draw.
TRADE_DRAW_PHASE = "acquisition_of_trade_cards"


def _missing(ruleset: Ruleset, key: str) -> str:
    """Why the ruleset has no ``key``: its ``not_in_sources`` entry, or that no rule file gives it."""
    reason = ruleset.not_in_sources.get(key)
    if reason is not None:
        return reason
    return "not in any rule file of this ruleset"


def _hand_limit(ruleset: Ruleset, notes: Notes) -> dict[str, Any]:
    found = ruleset.hand_limit
    if found is None:
        return {"value": "—" + notes.mark("hand limit", _missing(ruleset, "hand_limit")), "facts": [], "rule": ""}
    facts = []
    for change in found.card_changes:
        if change.change is not None:
            amount = change.change
            sign = f"−{-amount}" if amount < 0 else f"+{amount}"
            facts.append(f"{name_of(ruleset.cards, str(change.card))} {sign}")
    if found.count_public:
        facts.append("how many you keep is public")
    if found.tradable_calamities_retained is False:
        facts.append("tradable calamities may not be kept")
    # the limit's own facts, each cited by what wrote it; each band is cited on its own
    rules = setting_citation(ruleset.setting_origins, "hand_limit", cited_apart=("by_players",))
    if found.by_players:
        # One limit per band of player counts (Mega Civilization §12): "8 commodity cards with 5–11
        # players; 9 with 12–18", each band's own citation beside it where it has one.
        bands = []
        for i, band in enumerate(found.by_players):
            kept = notes.fact(band.commodity_cards, "hand limit") if band.commodity_cards is not None else "—"
            cited = citation_text(band.rules, band.source)
            bands.append(
                f"{kept}{' commodity cards' if i == 0 else ''} with {band.players_min}–{band.players_max}"
                f"{' players' if i == 0 else ''}{f' ({cited})' if cited else ''}"
            )
        return {"value": "; ".join(bands), "facts": facts, "rule": rules}
    count = found.commodity_cards
    value = (
        notes.fact(count, "hand limit") if count is not None else "—" + notes.mark("hand limit", "the rules state none")
    )
    return {"value": f"{value} commodity cards", "facts": facts, "rule": rules}


def _taxation(ruleset: Ruleset, notes: Notes) -> dict[str, Any]:
    found = ruleset.taxation
    if found is None:
        return {"value": "—" + notes.mark("taxation", _missing(ruleset, "taxation")), "facts": [], "rule": ""}
    facts = []
    if found.rates is not None:
        rates = "/".join(str(r) for r in found.rates)
        facts.append(f"{name_of(ruleset.cards, str(found.rate_card))}: {rates} per city")
    for change in found.rate_changes:
        words = [
            f"+{change.raise_by}" if change.raise_by else "",
            f"−{change.lower_by}" if change.lower_by else "",
        ]
        facts.append(f"{name_of(ruleset.cards, str(change.card))} {' or '.join(w for w in words if w)}")
    if found.revolt:
        facts.append("cities you cannot pay for revolt")
        if found.revolt_immune_card is not None:
            facts.append(f"never with {name_of(ruleset.cards, found.revolt_immune_card)}")
    per_city = found.tokens_per_city
    value = notes.fact(per_city, "tax") if per_city is not None else "—" + notes.mark("tax", "the rules state no rate")
    return {
        "value": f"{value} tokens per city",
        "facts": facts,
        "rule": setting_citation(ruleset.setting_origins, "taxation"),
    }


def _phases(source: Source[Ruleset], notes: Notes) -> tuple[list[dict[str, Any]], str]:
    ruleset = source.ruleset
    if not len(ruleset.phases):
        return [], notes.mark("phases", _missing(ruleset, "sequence_of_play"))
    position = {phase.id: i for i, phase in enumerate(ruleset.phases)}
    ordered = sorted(
        ruleset.phases.by_id.values(),
        key=lambda p: (p.number if isinstance(p.number, int) else 10**6, position[p.id]),
    )
    rows = []
    for phase in ordered:
        condition = phase.condition_text or ""
        if condition.rstrip(".").casefold() == "always":
            condition = ""
        if isinstance(phase.order, Unknown):
            order = notes.fact(phase.order, "order of play")
        else:
            order = humanize(phase.order or "").replace("ast ", "A.S.T. ")
        rows.append(
            {
                "number": known(phase.number, ""),
                "name": phase.display_name,
                "condition": condition,
                "order": order,
                "rule": row_citation(phase),
                "mark": source.changed("phases", phase.id),
            }
        )
    return rows, ""


def _trade_draw(ruleset: Ruleset, notes: Notes) -> dict[str, Any]:
    phase = ruleset.phases.get(TRADE_DRAW_PHASE)
    if phase is None:
        reason = _missing(ruleset, "sequence_of_play") if not len(ruleset.phases) else "no phase of the rules says it"
        return {"text": "—" + notes.mark("trade draw", reason), "rule": ""}
    if isinstance(phase.order, Unknown):
        return {"text": notes.fact(phase.order, "trade draw"), "rule": row_citation(phase, ("order",))}
    text = phase.order_text or humanize(phase.order or "")
    return {"text": text, "rule": row_citation(phase, ("order", "order_text"))}


def _minimum_trade(ruleset: Ruleset) -> str:
    """The trade's rules the package's trade_problems holds a trade to: the fewest cards each side
    gives and, where the data says, how many of them are named truthfully."""
    for phase in ruleset.phases:
        if phase.min_trade_cards is not None:
            fields = ["min_trade_cards"]
            text = f"{count(phase.min_trade_cards, 'card')} at least per trade"
            if phase.named_trade_cards is not None:
                fields.append("named_trade_cards")
                text += (
                    f"; each side states truthfully how many cards it gives and names {phase.named_trade_cards} "
                    "of them truthfully"
                )
            rules = row_citation(phase, fields)
            return text + (f" ({rules})" if rules else "")
    return ""


def _calamity_limits(ruleset: Ruleset) -> list[str]:
    """The calamity rules the package's calamities_suffered and unit_points apply beyond the order:
    the most calamities a player suffers as primary victim a turn, and what a city and a token
    count for in a loss of unit points, each cited (none where the data gives neither)."""
    said = []
    for phase in ruleset.phases:
        if phase.max_primary_calamities is not None:
            rules = row_citation(phase, ("max_primary_calamities",))
            most = phase.max_primary_calamities
            parts = [
                f"at most {limit} {severity}"
                for severity, limit in (("major", phase.max_major_calamities), ("minor", phase.max_minor_calamities))
                if limit is not None and limit < most
            ]
            if phase.max_of_one_calamity is not None:
                one = phase.max_of_one_calamity
                parts.append("none twice" if one == 1 else f"at most {one} cards of one calamity")
            if parts:
                said.append(
                    f"A player suffers at most {most} calamit{'y' if most == 1 else 'ies'} as primary victim a turn, "
                    + ", ".join(parts)
                    + ": of more, he discards the extra cards of one calamity first, then the excess at random"
                    + (f" ({rules})" if rules else "")
                    + "."
                )
            else:
                said.append(
                    f"A player suffers at most {most} calamit{'y' if most == 1 else 'ies'} as primary victim a turn: "
                    f"of more, {most} drawn at random" + (f" ({rules})" if rules else "") + "."
                )
        if phase.unit_points is not None:
            city, token = phase.unit_points
            rules = row_citation(phase, ("unit_points",))
            said.append(
                f"In a loss of unit points a city counts {city} and a token {token}"
                + (f" ({rules})" if rules else "")
                + "."
            )
    return said


@sheet(
    "quick-reference.html",
    "Quick reference",
    "The turn on one page: phases, hand limit, taxation, the trade draw and the calamity order.",
    position=5,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    notes = Notes()
    phases, no_phases = _phases(source, notes)
    calamities = [
        {
            "name": calamity.display_name,
            "stack": calamity.stack,
            "tradable": calamity.tradable is True,
            "mark": source.changed("calamities", calamity.id),
        }
        for calamity in resolution_order(ruleset)
    ]
    return {
        "phases": phases,
        "no_phases": no_phases,
        "hand": _hand_limit(ruleset, notes),
        "hand_mark": source.setting_mark("hand_limit"),
        "tax": _taxation(ruleset, notes),
        "tax_mark": source.setting_mark("taxation"),
        "draw": _trade_draw(ruleset, notes),
        "minimum_trade": _minimum_trade(ruleset),
        "calamity_limits": _calamity_limits(ruleset) if calamities else [],
        "calamities": calamities,
        "calamity_order_basis": order_basis(ruleset) if calamities else "",
        "variant": source.variant,
        "notes": notes.listed(),
    }
