"""The Imperial Settlers family's player helper: a faction deck builder and a searchable card reference.

The deck builder checks the deck-building rule (p12) as cards and copies are chosen, by the rules
of :mod:`.rules` over the ruleset's own rule (``deck_building``) and cards, and names each problem
with the code and the words of the compiler's check that reports it in a ruleset (F001-F004, from
the code registry), so that the page and ``civrules validate`` speak alike.
"""

from __future__ import annotations

from typing import Any

from civrules.diagnostics import codes
from civrules.emit.helpers import HelperPage, attr, plain, static, text
from civrules.emit.sheets.common import label_of
from civrules.families.imperial_settlers.checks import decks as deck_checks
from civrules.families.imperial_settlers.helpers.rules import RULES
from civrules.families.imperial_settlers.model import Card, Counted, ImperialSettlersRuleset
from civrules.families.imperial_settlers.sheets.words import name_of
from civrules.model import Ruleset as CoreRuleset

#: The checks of the deck-building rule whose words the deck builder shows.
DECK_CODES = ("F001", "F002", "F003", "F004")


def _goods(value: Any) -> Any:
    """Goods as the page's JSON: a list, ``{"unknown": why}``, or, where they depend on the
    player's empire, ``{"each", "per", "colour", "at_most", "plus"}`` as the package's CountedGoods."""
    if isinstance(value, Counted):
        return {
            "each": value.each,
            "per": value.per,
            "colour": value.colour,
            "at_most": value.at_most,
            "plus": list(value.plus),
        }
    return plain(value) if value is not None else None


def _ids_in(value: Any) -> list[str]:
    """The goods a card's cost, production, build bonus or spoils names (a counted one's too)."""
    if isinstance(value, Counted):
        return [value.each, *value.plus]
    return [g for g in value if isinstance(g, str)] if isinstance(value, list | tuple) else []


def _names(ruleset: ImperialSettlersRuleset) -> dict[str, dict[str, str]]:
    """The words the card reference prints for the data's values, as the card sheets print them
    (:func:`~civrules.families.imperial_settlers.sheets.words.name_of`: an entity's name in the
    edition's language, a phrase for a value that names none): goods, colours, kinds of location."""
    goods: set[str] = set()
    colours: set[str] = set()
    for c in ruleset.cards:
        for value in (c.cost, c.production, c.build_bonus, c.spoils):
            goods.update(_ids_in(value))
            if isinstance(value, Counted) and value.colour is not None:
                colours.add(value.colour)
        colours.update(c.colours)
    kinds = {c.kind for c in ruleset.cards if isinstance(c.kind, str)}
    return {
        "goods": {g: name_of(ruleset, "goods", g) for g in sorted(goods)},
        "colours": {c: name_of(ruleset, "colours", c) for c in sorted(colours)},
        "location_kinds": {k: name_of(ruleset, "location_kinds", k) for k in sorted(kinds)},
    }


def _label(card: Card) -> str:
    """A card's name, or where no source in the edition's language names it its first printed id,
    as the card sheets print it (``BAR001``; :func:`~civrules.families.imperial_settlers.sheets.words.card_label`),
    never the data's id (``bar001``)."""
    if isinstance(card.name, str):
        return card.name
    return card.printed_ids[0] if card.printed_ids else card.id.upper()


def tables(ruleset: ImperialSettlersRuleset) -> dict[str, Any]:
    rule = ruleset.deck_building()
    registry = {}
    for code in DECK_CODES:
        found = codes.lookup(code)
        if found is not None:
            registry[code] = {"name": found.name, "severity": found.severity.value, "summary": found.summary()}
    assert deck_checks.__name__  # the module registers F001-F004 when imported
    return {
        "cards": {
            c.id: {
                "name": _label(c),
                "printed_ids": list(c.printed_ids),
                "kind": c.kind,
                "colours": list(c.colours),
                "copies": c.copies,
                "deck": c.deck,
                "cost": _goods(c.cost),
                "production": _goods(c.production),
                "build_bonus": _goods(c.build_bonus),
                "build_bonus_placed_as": c.build_bonus_placed_as,
                "spoils": _goods(c.spoils),
                "effect": plain(c.effect),
                "rules": list(c.rules),
            }
            for c in ruleset.cards
        },
        "card_order": [c.id for c in ruleset.cards],
        "factions": {f.id: {"name": label_of(f), "deck": f.deck} for f in ruleset.factions},
        "faction_order": [f.id for f in ruleset.factions],
        "decks": {d.id: {"name": label_of(d), "faction": d.faction, "size": d.size} for d in ruleset.decks},
        "deck_rule": None
        if rule is None
        else {
            "size": rule.size,
            "pattern": [{"copies": c, "cards": n} for c, n in sorted(rule.pattern.items(), reverse=True)],
            "all_copies": rule.all_copies,
            "own_faction_only": rule.own_faction_only,
            "rules": list(ruleset.deck_building_rules()),
        },
        "codes": registry,
        "names": _names(ruleset),
    }


def _body(ruleset: ImperialSettlersRuleset) -> str:
    factions = "".join(f"<option value={attr(f.id)}>{text(label_of(f))}</option>" for f in ruleset.factions)
    first = next(iter(ruleset.factions), None)
    faction_decks = {f.deck for f in ruleset.factions}
    rows = "".join(
        f"<tr data-card={attr(c.id)} data-deck={attr(c.deck or '')}><td>{text(_label(c))}</td>"
        f'<td>{text(", ".join(c.printed_ids))}</td><td class="n">{c.copies}</td>'
        f'<td><label class="copies">copies in the deck <input type="number" min="0" step="1" placeholder="0" '
        f"data-state={attr('d.' + c.id)} data-copies={attr(c.id)}></label></td></tr>"
        for c in ruleset.cards
        if c.deck in faction_decks
    )
    return (
        '<section class="tool" id="builder"><h2>Faction deck builder</h2><div class="pickers">'
        f'<label>Faction <select data-state="faction" data-default={attr(first.id if first else "")} '
        f'id="faction-choice">{factions}</select></label>'
        '<label>Show <select data-state="show" data-default="own" id="show-choice">'
        '<option value="own">the faction\'s cards</option><option value="all">every faction\'s cards</option>'
        "</select></label></div>"
        '<div class="result" id="deck-verdict" aria-live="polite"></div>'
        '<div class="table-wrap"><table id="deck-cards"><thead><tr><th>Card</th><th>Printed ids</th>'
        f'<th class="n">Copies printed</th><th>In the deck</th></tr></thead><tbody>{rows}</tbody></table></div>'
        "</section>"
        '<section class="tool" id="reference"><h2>Card reference</h2>'
        '<label class="search">Search names, ids and effects <input type="search" data-state="q" id="search"></label>'
        '<div class="table-wrap"><table id="card-reference"><thead><tr><th>Card</th><th>Ids</th><th>Kind</th>'
        '<th>Colours</th><th class="n">Copies</th><th>Deck</th><th>Cost</th><th>Production</th>'
        "<th>Build bonus</th><th>Effect</th></tr></thead>"
        "<tbody></tbody></table></div></section>"
    )


def helper_page(model: CoreRuleset) -> HelperPage:
    """The family's ``helpers`` hook: the page of one ruleset."""
    if not isinstance(model, ImperialSettlersRuleset):
        raise TypeError(f"not an Imperial Settlers ruleset: {model!r:.80}")
    return HelperPage(
        body=_body(model),
        tables=tables(model),
        rules=RULES,
        script=static("deck.js", __name__),
        tools=(("builder", "Faction deck builder"), ("reference", "Card reference")),
        draft=model.status == "draft",
    )
