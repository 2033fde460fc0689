"""The Advanced Civilization family's player helper: purchase planner, calamity reference, A.S.T. check.

The tables are the model's facts, as the engine package holds them (costs, groups, prerequisites,
the credit matrix derived by the ruleset's credit policy, commodities and the set value rule,
calamity effects with their modifiers and how they combine, epoch requirements); the rules are
expression trees over them (:mod:`.rules`) that mirror the package's helpers, so that the page and
the package answer alike (tests/families/advanced_civilization/test_helpers.py holds them to it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.helpers import HelperPage, attr, plain, static, text
from civrules.emit.sheets.common import label_of
from civrules.families.advanced_civilization.calamities import modified_effects
from civrules.families.advanced_civilization.commodities import (
    DeckBand,
    block_bonuses,
    deck_compositions,
    set_value_rule,
)
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.helpers.rules import COUNT_SQUARED_TIMES_VALUE, RULES
from civrules.families.advanced_civilization.model import AstTrack, Calamity, Epoch, Ruleset, of_family
from civrules.families.advanced_civilization.succession import (
    STANDARD_LEVEL,
    ast_levels,
    epoch_spans,
    gate_value,
    is_value_gated,
    requirement_numbers,
    requirements_of,
    tracks_by_level,
)
from civrules.model import Ruleset as CoreRuleset
from civrules.model import Unknown

ROLES = ("primary", "secondary", "trader")


def _int(item: Any) -> int | None:
    return item if isinstance(item, int) and not isinstance(item, bool) else None


def _cited(rules: tuple[str, ...], source: str | None) -> list[str]:
    return [*rules, *((source,) if source else ())]


def _known_int(item: Any, what: str) -> Any:
    """``item`` where it is a number; else the page's unknown: the data's why where the data records
    it as unknown, or that the ruleset does not give ``what`` (a field it leaves out), never that
    the sources lack what the data merely does not write (as the package's helpers word it)."""
    if isinstance(item, Unknown):
        return {"unknown": item.reason}
    return item if _int(item) is not None else {"unknown": f"this ruleset does not give {what}"}


def _known(item: Any, what: str) -> Any:
    """The page's unknown for a fact ``item`` that is no value the page can use (see _known_int)."""
    return {"unknown": item.reason if isinstance(item, Unknown) else f"this ruleset does not give {what}"}


def card_tables(ruleset: Ruleset) -> dict[str, Any]:
    cards = {}
    for card in ruleset.cards:
        cards[card.id] = {
            "name": label_of(card),
            "cost": _known_int(card.cost, f"the cost of {card.id}"),
            "groups": plain(card.groups),
            "prerequisites": plain(card.prerequisites),
            "victory_points": _known_int(card.victory_points, f"the victory points of {card.id}"),
            "rules": _cited(card.rules, card.source),
        }
    return {"cards": cards, "card_order": [card.id for card in ruleset.cards]}


def commodity_tables(ruleset: Ruleset) -> dict[str, Any]:
    rule = set_value_rule(ruleset)
    formula: Any = rule.formula
    if formula is None:
        why = ruleset.set_value.unknown_reason if ruleset.set_value is not None else None
        formula = {"unknown": why or "the sources do not say how a set of commodity cards is valued"}
    elif formula != COUNT_SQUARED_TIMES_VALUE:
        formula = {"unknown": f"the set value formula {formula!r} is not one these helpers know"}
    mining = ruleset.mining
    mining_card = (mining.card or "mining") if mining is not None and mining.set_bonus else None
    return {
        "commodities": {
            c.id: {
                "name": label_of(c),
                "value": _known_int(c.value, f"the value of {c.id}"),
                "count": _known_int(c.count, f"the count of {c.id}"),
                "mining": c.mining,
                "block": c.block if isinstance(c.block, str) else None,
                "inferred": list(c.inferred),
            }
            for c in ruleset.commodities
        },
        "commodity_order": [c.id for c in ruleset.commodities],
        "set_value_formula": formula,
        "set_value_rules": list(ruleset.set_value.rules) if ruleset.set_value is not None else [],
        "mining_extra_cards": rule.mining_extra_cards,
        "mining_card": mining_card if mining_card in ruleset.cards.by_id else None,
        # The package's BLOCK_BONUSES (Expansion Project 26.3.3-26.3.4): a set redeemed outside its
        # native trade block gains its face value per card, in these bands of player counts.
        "block_bonuses": [
            {"min": b.players_min, "max": b.players_max, "shared_goods": b.shared_goods, "rules": list(band.rules)}
            for b, band in zip(block_bonuses(ruleset), ruleset.block_bonuses, strict=True)
        ],
        "blocks": sorted({c.block for c in ruleset.commodities if c.block in ("west", "east")}),
        # What the package's set_value holds the trade blocks given to: the ruleset's player counts
        # (PLAYER_COUNTS: the fewest and the most; none known: any) and the blocks of the decks of
        # each band of player counts (DECK_COMPOSITIONS).
        "player_counts": [min(counts), max(counts)] if (counts := [c.players for c in ruleset.player_counts]) else [],
        # and the cards of each good they hold (the package's set_value bounds a set by them, and
        # refuses a good no deck of that count holds): `unbounded`, the goods a deck holds cards of
        # the sources do not count.
        "deck_blocks": [_deck_band(band) for band in deck_compositions(ruleset)],
    }


def _deck_band(band: DeckBand) -> dict[str, Any]:
    """A band of DECK_COMPOSITIONS as the page reads it: its player counts, the blocks of its
    decks, and how many cards of each good its decks hold together."""
    goods: dict[str, int] = {}
    unbounded: set[str] = set()
    for deck in band.decks:
        for good, cards in deck.commodities:
            if cards is None:
                unbounded.add(good)
            else:
                goods[good] = goods.get(good, 0) + cards
    return {
        "min": band.players_min,
        "max": band.players_max,
        "blocks": sorted({deck.block for deck in band.decks}),
        "goods": {good: cards for good, cards in sorted(goods.items()) if good not in unbounded},
        "unbounded": sorted(unbounded),
    }


def _calamity(calamity: Calamity) -> dict[str, Any]:
    lost = calamity.unknown_parts
    effects: Any = [
        {
            "id": e.id,
            "side": e.side,
            "kind": e.kind,
            "unit": e.unit,
            "amount": _int(e.amount),
            "all_but": e.all_but,
            "max_per_victim": e.max_per_victim,
            "per_city": e.per_city,
            "unknown": e.amount_unknown is not None,
            "unknown_why": e.amount_unknown.reason if e.amount_unknown is not None else None,
            "text": e.text,
            "rules": _cited(e.rules, e.source),
        }
        for e in calamity.effects
        if e.id is not None
    ]
    modifiers: Any = []
    for m in calamity.modifiers:
        stated = m.stated
        if stated is None and m.effect == "nullifies" and m.amount is None:
            stated = 0
        modifiers.append(
            {
                "card": m.card,
                "applies_to": m.applies_to,
                "effect": m.effect,
                "effects": list(modified_effects(calamity, m)),
                "amount": _int(m.amount),
                "amount_unknown": isinstance(m.amount, Unknown),
                "amount_unknown_why": m.amount.reason if isinstance(m.amount, Unknown) else None,
                "stated": _int(stated),
                "cap": m.cap,
                "per_commodity": m.per_commodity if m.per_kind == "commodity_card" else None,
                "per_any_commodity": m.per_kind == "any_commodity_card",
                "per": m.per_kind if m.per_kind not in ("commodity_card", "any_commodity_card") else None,
                "adds": m.adds,
                "adds_kind": m.adds_kind,
                "adds_unit": m.adds_unit,
                "becomes_kind": m.becomes_kind,
                "optional": m.optional,
                "text": m.text,
                "rules": _cited(m.rules, m.source),
            }
        )
    immunities: Any = [
        {
            "who": i.who,
            "side": i.side,
            "card": i.card,
            "nation": i.nation,
            "effects": list(i.effects),
            "text": i.text,
            "rules": list(i.rules),
        }
        for i in calamity.immune
    ]
    # each with the data's why (of the first part left unknown): the page said only that it was not
    # in the sources (round 23)
    why = dict(calamity.unknown_reasons)

    def said(parts: tuple[str, ...], what: str) -> dict[str, str]:
        return {"unknown": next((why[p] for p in parts if p in why), f"the sources do not give {what}")}

    if lost & {"effects", "primary", "secondary"}:
        effects = said(("effects", "primary", "secondary"), f"the effects of {calamity.id}")
    if lost & {"effects", "modifiers"}:
        modifiers = said(("modifiers", "effects"), f"the civilization cards that change {calamity.id}")
    if lost & {"effects", "immune"}:
        immunities = said(("immune", "effects"), f"who is immune to {calamity.id}")
    combination = calamity.combination
    return {
        "name": label_of(calamity),
        "rules": _cited(calamity.rules, calamity.source),
        "tradable": {"unknown": calamity.tradable.reason}
        if isinstance(calamity.tradable, Unknown)
        else calamity.tradable,
        "effects": effects,
        "modifiers": modifiers,
        "immunities": immunities,
        "mode": calamity.modifier_combination,
        "mode_unknown": combination is not None and combination.mode_unknown is not None,
        "mode_unknown_why": combination.mode_unknown.reason
        if combination is not None and combination.mode_unknown is not None
        else None,
        "combination_text": combination.text if combination is not None else None,
        "combination_rules": list(combination.rules) if combination is not None else [],
        "precedence": list(combination.precedence) if combination is not None else [],
        "overrides": [{"card": o.card, "overrides": list(o.overrides)} for o in combination.overrides]
        if combination is not None
        else [],
    }


def _requirements(epoch: Epoch, level: str | None) -> Any:
    numbers, known = requirement_numbers(epoch, level)
    if not known:  # with the data's why, where it gives one (the page gave none before round 23)
        written = requirements_of(epoch, level)
        criteria = written.get("criteria")
        why = written.get("unknown") or (criteria.get("unknown") if isinstance(criteria, Mapping) else None)
        return {
            "unknown": why if isinstance(why, str) else f"the sources do not give the entry requirements of {epoch.id}"
        }
    values = [
        {"count": count, "min_value": least, "below": below} for count, least, below in numbers["min_cards_of_value"]
    ]
    return {**numbers, "min_cards_of_value": values, "rules": _cited(epoch.rules, epoch.source)}


def _track(ruleset: Ruleset, track: AstTrack, gated: set[str]) -> dict[str, Any]:
    """A track's table; ``gated``: the ids of the value-gated epochs (asked once per page, not
    once per track)."""
    starts: Any = (
        _known(track.epoch_starts, f"where the epochs start on the A.S.T. track of {track.id}")
        if not isinstance(track.epoch_starts, tuple)
        else dict(track.epoch_starts)
    )
    values: Any = (
        _known(track.late_iron_age, f"the A.S.T. values of {track.id}")
        if not isinstance(track.late_iron_age, tuple)
        else {
            str(space): _known_int(value, f"the value of space {space} of {track.id}")
            for space, value in track.late_iron_age
        }
    )
    if isinstance(track.late_iron_age, tuple):
        # A space of a value-gated epoch that needs no card value (a track whose
        # late_iron_age_spaces are [], a finish that carries none): null, as the package's None.
        spans = epoch_spans(ruleset, track)
        for span in spans if isinstance(spans, tuple) else ():
            for space in range(span.first, span.last + 1) if span.epoch in gated else ():
                if gate_value(ruleset, track, space) is None:
                    values[str(space)] = None
    return {"epoch_starts": starts, "space_values": values}


def epoch_tables(ruleset: Ruleset) -> dict[str, Any]:
    """The epochs' requirements at each A.S.T. level (the package's AST_LEVELS, the first the
    default), the nations and their tracks by level (the card value each space needs)."""
    levels = ast_levels(ruleset)
    gated = {e.id for e in ruleset.epochs if is_value_gated(e)}
    return {
        "epochs": {
            e.id: {
                "name": label_of(e),
                "requirements": {
                    level: _requirements(e, None if level == STANDARD_LEVEL else level) for level in levels
                },
            }
            for e in ruleset.epochs
        },
        "epoch_order": [e.id for e in ruleset.epochs],
        "group_count": len(ruleset.groups),
        "groups": {g.id: label_of(g) for g in ruleset.groups},
        "ast_levels": list(levels),
        "nations": {n.id: label_of(n) for n in ruleset.nations},
        "nation_order": [n.id for n in ruleset.nations],
        "ast_tracks": {
            nation: {level: _track(ruleset, track, gated) for level, track in by_level.items()}
            for nation, by_level in tracks_by_level(ruleset).items()
        },
    }


def purchase_tables(ruleset: Ruleset) -> dict[str, Any]:
    """What the rule data says of buying civilization cards: the phase, its citations, the policy."""
    phase = ruleset.phases.by_id.get("acquisition_of_civilization_cards")
    return {
        "credit_policy": plain(dict(ruleset.credit_policy)),
        "purchase_phase": None
        if phase is None
        else {"name": label_of(phase), "rules": _cited(phase.rules, phase.source), "order_text": phase.order_text},
    }


def tables(ruleset: Ruleset) -> dict[str, Any]:
    return {
        **card_tables(ruleset),
        "credit_matrix": credit_matrix(ruleset).export(),
        **commodity_tables(ruleset),
        "calamities": {c.id: _calamity(c) for c in ruleset.calamities},
        "calamity_order": [c.id for c in ruleset.calamities],
        **epoch_tables(ruleset),
        **purchase_tables(ruleset),
        "roles": list(ROLES),
        "draft": ruleset.status == "draft",
    }


def _body(ruleset: Ruleset) -> str:
    held = "".join(
        f'<label><input type="checkbox" data-state={attr("h." + c.id)} data-card={attr(c.id)}> '
        f"{text(label_of(c))}</label>"
        for c in ruleset.cards
    )
    hand = "".join(
        f"<label>{text(label_of(c))}{' †' if 'value' in c.inferred else ''} "
        '<input type="number" min="0" step="1" placeholder="0" '
        f"data-state={attr('c.' + c.id)} data-good={attr(c.id)} aria-label={attr(label_of(c) + ' cards')}></label>"
        for c in ruleset.commodities
    )
    inferred = (
        '<p class="note" id="inferred-values">† No source prints the values of the goods so marked: the data '
        "reads each from the row of the source's table that lists the good, and the payments below count them so.</p>"
        if any("value" in c.inferred for c in ruleset.commodities)
        else ""
    )
    nations = "".join(f"<option value={attr(n.id)}>{text(label_of(n))}</option>" for n in ruleset.nations)
    levels = ast_levels(ruleset)
    level_names = dict(ruleset.ast.level_names) if ruleset.ast is not None else {}
    level_options = "".join(
        f"<option value={attr(level)}>{text(str(level_names.get(level, level)))}</option>" for level in levels
    )
    nation_pick = (
        '<label>Nation <select data-state="nation" data-default="" id="nation-choice">'
        f'<option value="">none chosen</option>{nations}</select></label>'
        if nations
        else ""
    )
    level_pick = (
        f'<label>A.S.T. level <select data-state="level" data-default={attr(levels[0])} id="level-choice">'
        f"{level_options}</select></label>"
        if len(levels) > 1
        else ""
    )
    blocks = sorted({c.block for c in ruleset.commodities if c.block in ("west", "east")})
    block_options = "".join(f"<option value={attr(b)}>{text(b)}</option>" for b in blocks)
    trade_pick = (
        "<fieldset><legend>Trade blocks (the bonus of a set redeemed outside its native block)</legend>"
        '<div class="counts">'
        '<label>Players in the game <input type="number" min="1" step="1" placeholder="—" data-state="players" '
        'id="players"></label>'
        '<label>Block you redeem in <select data-state="redeemed" data-default="" id="redeemed-choice">'
        f'<option value="">not given</option>{block_options}</select></label>'
        '<label>Block your shared goods were drawn in <select data-state="drawn" data-default="" '
        f'id="drawn-choice"><option value="">not given</option>{block_options}</select></label>'
        "</div></fieldset>"
        if ruleset.block_bonuses and blocks
        else ""
    )
    first = next(iter(ruleset.calamities), None)
    calamities = "".join(f"<option value={attr(c.id)}>{text(label_of(c))}</option>" for c in ruleset.calamities)
    roles = "".join(f"<option value={attr(r)}>{text(r)}</option>" for r in ROLES)
    return (
        '<section class="tool" id="holding"><h2>What you hold</h2>'
        f'<fieldset><legend>Civilization cards held</legend><div class="choices">{held}</div></fieldset>'
        f'<fieldset><legend>Commodity cards in hand (by count)</legend><div class="counts">{hand}</div>'
        f"{inferred}</fieldset>"
        '<fieldset><legend>Treasury and cities</legend><div class="counts">'
        '<label>Treasury tokens <input type="number" min="0" step="1" placeholder="0" data-state="treasury" '
        'id="treasury"></label>'
        '<label>Cities in play <input type="number" min="0" step="1" placeholder="0" data-state="cities" '
        'id="cities"></label>'
        f"{nation_pick}{level_pick}"
        "</div></fieldset>"
        f"{trade_pick}</section>"
        '<section class="tool" id="planner"><h2>Purchase planner</h2>'
        '<div class="result" id="budget" aria-live="polite"></div>'
        '<div class="table-wrap"><table id="prices"><thead><tr><th>Card</th><th>Groups</th>'
        '<th class="n">Face value</th>'
        '<th class="n">Credits</th><th class="n">Price</th><th>Prerequisites</th><th>Affordable</th></tr></thead>'
        "<tbody></tbody></table></div>"
        '<h3>Best purchase for this hand</h3><div class="result" id="best" aria-live="polite"></div>'
        '<div id="purchase-rules" class="note"></div></section>'
        '<section class="tool" id="calamity"><h2>Calamity reference</h2><div class="pickers">'
        f'<label>Calamity <select data-state="calamity" data-default={attr(first.id if first else "")}'
        f' id="calamity-choice">{calamities}</select></label>'
        f'<label>Role <select data-state="role" data-default={attr(ROLES[0])} id="role-choice">{roles}</select>'
        "</label></div>"
        '<div id="calamity-out" aria-live="polite"></div></section>'
        '<section class="tool" id="ast"><h2>A.S.T. check</h2>'
        '<div class="table-wrap"><table id="epochs"><thead><tr><th>Epoch</th><th>May enter</th><th>Lacks</th>'
        "</tr></thead><tbody></tbody></table></div></section>"
    )


def helper_page(model: CoreRuleset) -> HelperPage:
    """The family's ``helpers`` hook: the page of one ruleset."""
    ruleset = of_family(model)
    return HelperPage(
        body=_body(ruleset),
        tables=tables(ruleset),
        rules=RULES,
        script=static("planner.js", __name__),
        tools=(
            ("holding", "What you hold"),
            ("planner", "Purchase planner"),
            ("calamity", "Calamity reference"),
            ("ast", "A.S.T. check"),
        ),
        draft=ruleset.status == "draft",
    )
