"""The turn summary: the five phases in order with what each allows, the victories, and the rules of
cities, trade, production, movement, villages and ties a player asks for at the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import row_citation, rules_text, setting_citation
from civrules.emit.sheets.registry import Source, joined_mark, sheet
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import Row, Section, Sheet, listed, name_in

#: What a phase allows, in words (the activities of the ruleset schema).
ACTIVITIES = {
    "build_city": "build cities",
    "change_government": "change government",
    "place_great_person": "place great people",
    "declare_scout_gathering": "declare scouts gathering",
    "collect_trade": "collect trade",
    "negotiate": "negotiate",
    "trade": "trade",
    "city_action": "one action per city",
    "spend_culture": "spend culture",
    "rush_production": "rush production with trade",
    "move_figures": "move figures",
    "explore_tile": "explore tiles",
    "explore_hut_or_village": "explore huts and villages",
    "battle": "battle",
    "research_technology": "research a technology",
}
ENDS = {"immediately": "at once", "end_of_turn": "at the end of the turn"}
#: Where a new city may stand, in words (the constraints of the ruleset schema).
PLACEMENT = {
    "not_water": "not on water",
    "eight_neighbours_revealed": "with its eight neighbouring squares revealed",
    "not_next_to_hut_or_village": "not next to a hut or a village",
    "not_next_to_enemy_figure": "not next to an enemy figure",
    "three_squares_from_other_cities": "three squares from any other city, diagonals included",
}
#: What players may trade, in words (the values of the ruleset schema).
TRADEABLE = {
    "promises": "promises",
    "trade_points": "trade",
    "culture_tokens": "culture tokens",
    "resource_tokens": "resource tokens",
    "culture_event_cards": "culture event cards",
}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _at_the_table(page: Sheet) -> Section:
    """The rules of cities, trade, production, movement and villages, a row each, cited and marked:
    settings the data holds that no sheet printed (what a player asks at the table)."""
    ruleset = page.source.ruleset
    section = Section("At the table", ("Topic", "What the rules say"))
    section.empty = "The sources of this ruleset give none of these rules."

    def add(key: str, label: str, said: list[str]) -> None:
        if said:
            cited = setting_citation(ruleset.setting_origins, key)
            section.rows.append(Row([label, " ".join(said)], cited, page.setting_mark(key)))

    cities = ruleset.rule("cities")
    said = []
    limit, raised, distance = _int(cities.get("limit")), cities.get("raised_limit"), _int(cities.get("min_distance"))
    if limit is not None:
        said.append(f"At most {limit} cities a player")
        if isinstance(raised, Mapping) and _int(raised.get("limit")) is not None:
            tech = raised.get("technology")
            said[-1] += (
                f", {raised['limit']} with {name_in(ruleset.technologies, tech) if isinstance(tech, str) else '—'}"
            )
        said[-1] += "."
    if cities.get("founded_by") == "scout":
        said.append("A scout is given up to found one.")
    placement = [p.get("id") for p in cities.get("placement") or () if isinstance(p, Mapping)]
    if placement:
        said.append(
            "A new city stands: " + "; ".join(PLACEMENT.get(str(p), str(p).replace("_", " ")) for p in placement) + "."
        )
    elif distance is not None:
        said.append(f"A new city stands {distance} squares from any other city, diagonals included.")
    if isinstance(cities.get("centre_yields"), bool):
        said.append(
            "The city centre yields its icons." if cities["centre_yields"] else "The city centre yields no icons."
        )
    add("cities", "Cities", said)
    _entities_row(page, section, "city_actions", "City actions", [_city_action(a) for a in ruleset.city_actions], "; ")
    _entities_row(page, section, "resources", "Resources", [r.display_name for r in ruleset.resources])
    trade = ruleset.rule("trade")
    said = []
    if _int(trade.get("dial_max")) is not None:
        said.append(f"The trade dial goes up to {trade['dial_max']}.")
    if isinstance(trade.get("kept_between_turns"), bool):
        said.append(
            "Trade is kept from turn to turn."
            if trade["kept_between_turns"]
            else "Trade is lost at the end of the turn."
        )
    tradeable = [TRADEABLE.get(str(t), str(t).replace("_", " ")) for t in trade.get("tradeable") or ()]
    if tradeable:
        said.append(f"Players may trade {listed(tradeable)}.")
    add("trade", "Trade", said)
    production = ruleset.rule("production")
    said = []
    if _int(production.get("trade_per_production")) is not None:
        said.append(f"{production['trade_per_production']} trade buy one production.")
    if isinstance(production.get("saved"), bool):
        said.append("Unspent production is kept." if production["saved"] else "Unspent production is lost.")
    figures = production.get("figures")
    if isinstance(figures, Mapping):
        costs = [
            f"{'an army' if kind == 'army' else 'a scout'} {cost}"
            for kind, cost in figures.items()
            if kind in ("army", "scout") and _int(cost) is not None
        ]
        if costs:
            said.append(f"A figure costs: {listed(costs)}.")
    add("production", "Production", said)
    movement = ruleset.rule("movement")
    said = []
    if _int(movement.get("travel_speed")) is not None:
        said.append(
            f"A figure moves {movement['travel_speed']} squares"
            + (", never diagonally." if movement.get("diagonal") is False else ".")
        )
    if _int(movement.get("stacking_limit")) is not None:
        said.append(f"A square holds at most {movement['stacking_limit']} figures.")
    if _int(movement.get("explore_cost")) is not None:
        said.append(
            f"Revealing a tile costs {movement['explore_cost']} move{'s' if movement['explore_cost'] != 1 else ''}."
        )
    add("movement", "Movement", said)
    villages = ruleset.rule("villages")
    said = []
    if villages.get("barbarian_player") in ("left", "right"):
        units = [name_in(ruleset.unit_types, str(u)) for u in villages.get("barbarian_units") or ()]
        rank = _int(villages.get("barbarian_rank"))
        said.append(
            f"The player to the {villages['barbarian_player']} plays the barbarians of a village"
            + (f", drawing {listed(units)}" if units else "")
            + (f" of rank {rank}" if rank is not None else "")
            + "."
        )
    add("villages", "Villages", said)
    coins = ruleset.rule("coins")
    if isinstance(coins.get("token_coins_lost"), bool):
        add(
            "coins", "Coins", ["Coin tokens can be lost." if coins["token_coins_lost"] else "Coin tokens are not lost."]
        )
    ties = ruleset.rule("tie_break")
    said = []
    if ties.get("default") == "first_in_turn_order":
        said.append("Of two players who win at once, the first in turn order wins.")
    advanced = ties.get("advanced")
    if isinstance(advanced, Mapping):
        parts = []
        if advanced.get("military_ends_at_once") is True:
            parts.append("a military victory ends the game at once")
        if advanced.get("others_finish_the_turn") is True:
            parts.append("the others let the turn finish")
        score = [SCORE.get(str(item), str(item).replace("_", " ")) for item in advanced.get("score") or ()]
        if score:
            parts.append(f"the score adds {listed(score)}")
        if advanced.get("still_tied") == "shared":
            parts.append("still tied, the victory is shared")
        if parts:
            said.append("In the advanced version: " + "; ".join(parts) + ".")
    add("tie_break", "Ties", said)
    markers = [(ruleset.huts, "huts", "Huts"), (ruleset.villages_markers, "villages_markers", "Village markers")]
    for collection, name, label in markers:
        _entities_row(page, section, name, label, [f"{m.display_name} {m.count}" for m in collection])
    return section


#: What the advanced tie break's score adds, in words (the values of the ruleset schema).
SCORE = {"technologies": "technologies", "culture_spaces": "culture spaces", "coins": "coins"}


def _city_action(action: Any) -> str:
    """A city action as the data holds it: its name, and what it gives."""
    gives = []
    if action.culture is not None:
        gives.append(f"{action.culture} culture")
    if action.per_culture_icon is not None:
        gives.append(f"+{action.per_culture_icon} per culture icon in the outskirts")
    if action.per_action is not None:
        gives.append(f"{action.per_action} resource{'s' if action.per_action != 1 else ''}")
    return f"{action.display_name}: {', '.join(gives)}" if gives else action.display_name


def _entities_row(
    page: Sheet, section: Section, collection: str, label: str, said: list[str], joint: str = ", "
) -> None:
    """A row listing the entities of ``collection`` (``said``, one each, in order), cited by the
    citations of all of them (their rule sections together, then what else cites one) and marked
    where the variant adds or changes any."""
    entities = list(getattr(page.source.ruleset, collection))
    if not said:
        return
    sections: dict[str, None] = {}
    others: dict[str, None] = {}
    for entity in entities:
        own = rules_text(list(entity.rules))
        for part in row_citation(entity, transcriptions=True).split("; "):
            if part and part == own:
                sections.update(dict.fromkeys(str(rule) for rule in entity.rules))
            elif part:
                others[part] = None
    cited = "; ".join(part for part in (", ".join(sections), *others) if part)
    marks = [page.source.changed(collection, entity.id) for entity in entities]
    section.rows.append(Row([label, joint.join(said) + "."], cited, joined_mark(mark for mark in marks if mark)))


def turn_sheet(source: Source[CivilizationRuleset]) -> dict[str, Any]:
    ruleset = source.ruleset
    page = Sheet(source)
    phases = Section("Phases", ("No.", "Phase", "Players may"), numeric=frozenset({0}))
    for phase in sorted(ruleset.phases, key=lambda p: p.order):
        allows = listed(ACTIVITIES.get(a, a.replace("_", " ")) for a in phase.allows)
        phases.rows.append(page.row(phase, "phases", (phase.order, phase.display_name, allows)))
    phases.empty = "The sources of this ruleset give no phase of the turn."
    page.sections.append(phases)
    victories = Section("Victories", ("Victory", "Needs", "Ends the game"))
    for victory in ruleset.victories:
        if victory.technology:
            needs = f"researching {name_in(ruleset.technologies, victory.technology)}"
        elif victory.coins is not None:
            needs = f"{victory.coins} coins"
        elif victory.kind == "culture":
            needs = "reaching the last space of the culture track"
        elif victory.kind == "military":
            needs = "capturing an enemy capital"
        else:
            needs = ""
        victories.rows.append(page.row(victory, "victories", (victory.display_name, needs, ENDS.get(victory.ends, ""))))
    victories.empty = "The sources of this ruleset give no victory."
    page.sections.append(victories)
    page.sections.append(_at_the_table(page))
    direction = ruleset.rule("turn_order").get("direction")
    lead = page.lead(
        (
            f"The turn passes to the {direction}." if direction in ("left", "right") else "",
            page.setting_mark("turn_order.direction"),
        ),
        (_players(ruleset), page.setting_mark("players.min", "players.max", "players.best")),
    )
    return page.context(lead=lead)


def _players(ruleset: CivilizationRuleset) -> str:
    """How many play, and the best number where the source says (`players.best`, which the index
    gives too), at the head of the turn."""
    low, high = ruleset.players
    best = ruleset.best_players
    if not high or best is None:
        return ""  # the index gives the range alone
    return f"{low} to {high} players, best with {best}."


@sheet(
    "turn-summary.html",
    "Turn summary",
    "The phases of a turn in order with what each allows, the four victories, and the rules of cities, city "
    "actions, resources, trade, production, movement, villages, coins and ties.",
    position=5,
    sources=("ruleset",),
)
def build(source: Source[CivilizationRuleset]) -> Mapping[str, Any]:
    return turn_sheet(source)
