"""The rules of the game over the typed model: what research, the pyramid, units, buildings,
combat and the victories come to for a ruleset. The sheets read these, and the engine package's
helpers are held to them (tests/families/sid_meiers_civilization/test_engine_package.py).

Where an answer depends on a fact the sources do not give, :class:`CannotJudgeError`: never a guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from civrules.diagnostics.words import times
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset, Technology, Unlocks
from civrules.model import Unknown
from civrules.support.memo import by_identity


class CannotJudgeError(LookupError):
    """The answer depends on a fact the sources do not give."""


@dataclass(frozen=True, slots=True)
class Pyramid:
    """The pyramid's rules: minimums by level, top level, total, and whether a row must hold one more
    than the row above (None: not in the sources; ``inferred``: read from the figures)."""

    levels: int | None
    top_level: int | None
    minimums: Mapping[int, int]
    total: int | None
    one_more_below: bool | None
    inferred: bool
    starting_technology_in_base_row: bool


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def research_costs(ruleset: CivilizationRuleset) -> dict[int, int]:
    """The trade each level of technology needs."""
    costs = ruleset.rule("research").get("costs") or ()
    return {
        c["level"]: c["trade"]
        for c in costs
        if isinstance(c, Mapping) and _int(c.get("level")) is not None and _int(c.get("trade")) is not None
    }


def trade_kept_per_coin(ruleset: CivilizationRuleset) -> int | None:
    return _int(ruleset.rule("research").get("trade_kept_per_coin"))


def pyramid(ruleset: CivilizationRuleset) -> Pyramid:
    raw = ruleset.rule("pyramid")
    minimums = {
        m["level"]: m["count"]
        for m in raw.get("minimums") or ()
        if isinstance(m, Mapping) and _int(m.get("level")) is not None and _int(m.get("count")) is not None
    }
    rule = raw.get("each_level_needs_one_more_below")
    inferred = isinstance(rule, Mapping) and rule.get("inferred") is True
    if isinstance(rule, Mapping):
        rule = rule.get("value") if "value" in rule else None
    return Pyramid(
        _int(raw.get("levels")),
        _int(raw.get("top_level")),
        dict(sorted(minimums.items())),
        _int(raw.get("total")),
        rule if isinstance(rule, bool) else None,
        inferred,
        raw.get("starting_technology_in_base_row") is True,
    )


def battle_hand(ruleset: CivilizationRuleset) -> dict[str, int | None]:
    raw = ruleset.rule("combat").get("battle_hand")
    raw = raw if isinstance(raw, Mapping) else {}
    return {key: _int(raw.get(key)) for key in ("base", "per_extra_figure", "defending_city")}


def _get(collection: Any, item: str, what: str) -> Any:
    found = collection.get(item)
    if found is None:
        raise KeyError(f"{item!r} is not {'an' if what[:1] in 'aeiou' else 'a'} {what} of this ruleset")
    return found


def _once(ids: Iterable[str], parameter: str, why: str) -> list[str]:
    """``ids`` as a list; ValueError when one is listed twice (a collection of game objects is no
    multiset: the runtime's ``once_each``)."""
    listed = list(ids)
    seen: set[str] = set()
    for item in listed:
        if item in seen:
            raise ValueError(f"{item!r} is listed {times(listed.count(item))} in {parameter}: {why}")
        seen.add(item)
    return listed


ONE_TECHNOLOGY = "a player has one card of each technology"
ONE_WONDER = "the game has 1 copy of it"


def research_cost(ruleset: CivilizationRuleset, level: int, wonders: Iterable[str] = ()) -> int:
    costs = research_costs(ruleset)
    top = max(costs, default=None)
    if isinstance(level, bool) or not isinstance(level, int) or level < 1 or (top is not None and level > top):
        raise ValueError(f"level={level!r} is not a level of the research table (1 to {top or 'its top'})")
    cost = costs.get(level)
    if cost is None:
        raise CannotJudgeError(f"the research cost of level {level} is not in the sources")
    held = _once(wonders, "wonders", ONE_WONDER)
    discount = sum(_get(ruleset.wonders, w, "wonder").research_discount or 0 for w in held)
    return max(0, cost - discount)


def trade_after_research(
    ruleset: CivilizationRuleset, level: int, trade: int, coins: int = 0, wonders: Iterable[str] = ()
) -> int:
    cost = research_cost(ruleset, level, wonders)
    dial = _int(ruleset.rule("trade").get("dial_max"))
    if dial is not None and trade > dial:
        raise ValueError(f"trade={trade!r}: the dial holds 0 to {dial} trade (trade.dial_max)")
    if trade < cost:
        raise ValueError(f"level {level} needs {cost} trade; the player has {trade}")
    if ruleset.rule("research").get("spends_all_trade") is not True:
        return trade - cost
    kept = trade_kept_per_coin(ruleset)
    if kept is None:
        raise CannotJudgeError("the trade a coin keeps after research is not in the sources")
    return min(trade, coins * kept)


def _rows(ruleset: CivilizationRuleset, held: Iterable[str], starting: str | None) -> dict[int, int]:
    rows: dict[int, int] = {}
    for tech_id in _once(held, "pyramid", ONE_TECHNOLOGY):
        tech: Technology = _get(ruleset.technologies, tech_id, "technology")
        if tech_id == starting:
            level = 1
        elif isinstance(tech.level, Unknown):
            raise CannotJudgeError(f"the level of {tech_id} is not in the sources: the pyramid cannot be judged")
        else:
            level = tech.level
        rows[level] = rows.get(level, 0) + 1
    return rows


def may_place_technology(
    ruleset: CivilizationRuleset, held: Iterable[str], technology: str, starting: str | None = None
) -> bool:
    held = _once(held, "pyramid", ONE_TECHNOLOGY)
    tech: Technology = _get(ruleset.technologies, technology, "technology")
    if technology in held:
        return False
    if isinstance(tech.level, Unknown):
        raise CannotJudgeError(f"the level of {technology} is not in the sources: its place cannot be judged")
    rows = _rows(ruleset, held, starting)
    if tech.level == 1:
        return True
    rules = pyramid(ruleset)
    if rules.one_more_below is None:
        raise CannotJudgeError("how many technologies a row needs below a new one is not in the sources")
    if rules.top_level is not None and tech.level > rules.top_level:
        return False
    below, row = rows.get(tech.level - 1, 0), rows.get(tech.level, 0)
    return below > row + 1 if rules.one_more_below else below > row


def pyramid_needs(ruleset: CivilizationRuleset, held: Iterable[str], starting: str | None = None) -> dict[int, int]:
    rows = _rows(ruleset, held, starting)
    return {
        level: need - rows.get(level, 0)
        for level, need in pyramid(ruleset).minimums.items()
        if need > rows.get(level, 0)
    }


def unit_cost(ruleset: CivilizationRuleset, unit: str, rank: int) -> int:
    found = _get(ruleset.unit_types, unit, "unit type").rank(rank)
    if found is None:
        raise KeyError(f"{unit} has no rank {rank}")
    if isinstance(found.cost, Unknown):
        raise CannotJudgeError(f"the cost of {unit} at rank {rank} is not in the sources")
    return int(found.cost)


def may_stand_on(ruleset: CivilizationRuleset, building: str, terrain: str) -> bool:
    found = _get(ruleset.buildings, building, "building")
    _get(ruleset.terrains, terrain, "terrain")
    if isinstance(found.terrains, Unknown):
        raise CannotJudgeError(f"the terrains of {building} are not in the sources")
    return terrain in found.terrains


def stacking_limit(ruleset: CivilizationRuleset, technologies: Iterable[str] = ()) -> int | None:
    """The figures a square holds for a player holding ``technologies``: movement.stacking_limit, or
    the highest limit a technology held raises it to; None where that limit is not in the sources."""
    limit = _int(ruleset.rule("movement").get("stacking_limit"))
    for tech in _once(technologies, "technologies", ONE_TECHNOLOGY):
        for effect in _get(ruleset.technologies, tech, "technology").effects:
            if effect.kind == "stacking_limit":
                if effect.value is None:
                    return None
                limit = effect.value if limit is None else max(limit, effect.value)
    return limit


def battle_hand_size(
    ruleset: CivilizationRuleset,
    figures: int,
    government: str | None = None,
    defending_city: bool = False,
    technologies: Iterable[str] = (),
) -> int:
    if figures < 0:
        raise ValueError("a side in battle has 0 figures or more")
    limit = stacking_limit(ruleset, technologies)
    if limit is not None and figures > limit:
        raise ValueError(f"figures={figures}: a square holds 0 to {limit} figures (movement.stacking_limit)")
    hand = battle_hand(ruleset)
    base, per, defence = hand["base"], hand["per_extra_figure"], hand["defending_city"]
    if base is None or per is None or (defending_city and defence is None):
        raise CannotJudgeError("the battle hand's size is not in the sources")
    size = base + per * max(figures - 1, 0)
    if government is not None:
        size += _get(ruleset.governments, government, "government").battle_hand or 0
    return size + (defence or 0 if defending_city else 0)


def combat_bonus(
    ruleset: CivilizationRuleset,
    buildings: Mapping[str, int] | None = None,
    generals: int = 0,
    defending: str | None = None,
    walled: bool = False,
) -> int:
    buildings = buildings or {}
    total = 0
    for bonus in ruleset.combat_bonuses:
        if bonus.situation == "defending_walls":
            total += bonus.amount if walled and defending is not None else 0
        elif bonus.situation is not None:
            total += bonus.amount if bonus.situation == defending else 0
        elif bonus.per == "building" and bonus.building is not None:
            total += bonus.amount * buildings.get(bonus.building, 0)
        elif bonus.per == "great_person":
            total += bonus.amount * generals
    return total


def wonder_cost(ruleset: CivilizationRuleset, wonder: str, technologies: Iterable[str] = ()) -> int:
    found = _get(ruleset.wonders, wonder, "wonder")
    technologies = _once(technologies, "technologies", ONE_TECHNOLOGY)
    if isinstance(found.cost, Unknown):
        raise CannotJudgeError(f"the cost of {wonder} is not in the sources")
    if found.discount is not None and found.discount.technology in set(technologies):
        return int(found.discount.cost)
    return int(found.cost)


def victories_met(
    ruleset: CivilizationRuleset,
    technologies: Iterable[str] = (),
    coins: int = 0,
    culture_space: int | None = None,
    captured_capital: bool = False,
) -> tuple[str, ...]:
    held = set(_once(technologies, "technologies", ONE_TECHNOLOGY))
    last = max((s.position for s in ruleset.spaces), default=None)
    if culture_space is not None and last is not None and culture_space > last:
        raise ValueError(f"culture_space={culture_space}: the culture track's spaces go to {last}")
    met = []
    for victory in ruleset.victories:
        if victory.kind == "technology" and victory.technology is not None:
            hit = victory.technology in held
        elif victory.kind == "economy" and victory.coins is not None:
            hit = coins >= victory.coins
        elif victory.kind == "military":
            hit = captured_capital
        elif victory.kind == "culture":
            if culture_space is None:
                continue
            ends = [s.position for s in ruleset.spaces if s.kind == "culture_victory"]
            if not ends:
                raise CannotJudgeError("the culture track's spaces are not in the sources")
            hit = culture_space >= min(ends)
        else:
            raise CannotJudgeError(f"what {victory.id} needs is not in the sources")
        if hit:
            met.append(victory.id)
    return tuple(met)


def known_unlocks(tech: Technology) -> Unlocks | None:
    """What ``tech`` unlocks, or None where the sources do not say: an unknown, or a technology whose
    entry gives no unlocks at all (the text names it for another reason; that it unlocks nothing is
    not said)."""
    if isinstance(tech.unlocks, Unknown) or not tech.unlocks.stated:
        return None
    return tech.unlocks


@by_identity(64)
def _unlocks(technologies: Any) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """What each technology unlocks, by item (the technologies in their order), and those whose
    unlocks the sources do not give: made once per model, not once per item asked (a sheet and the
    export ask it for every building, government and wonder)."""
    by_item: dict[str, list[str]] = {}
    silent: list[str] = []
    for tech in technologies:
        u = known_unlocks(tech)
        if u is None:
            silent.append(tech.id)
            continue
        for item in dict.fromkeys((*u.buildings, *u.governments, *u.wonders, *(unit.type for unit in u.units))):
            by_item.setdefault(item, []).append(tech.id)
    return {item: tuple(techs) for item, techs in by_item.items()}, tuple(silent)


@by_identity(64)
def _rank_unlocks(technologies: Any) -> dict[tuple[str, int], tuple[str, ...]]:
    """The technologies that raise each unit type's rank, by (unit type, rank), in their order
    (each once): made once per model (the units sheet asked every technology for every rank, the
    square of the data where one grows with the other)."""
    by_rank: dict[tuple[str, int], dict[str, None]] = {}
    for tech in technologies:
        u = known_unlocks(tech)
        if u is None:
            continue
        for unit in u.units:
            by_rank.setdefault((unit.type, unit.rank), {})[tech.id] = None
    return {key: tuple(techs) for key, techs in by_rank.items()}


def rank_unlocked_by(ruleset: CivilizationRuleset, unit_type: str, rank: int) -> tuple[str, ...]:
    """The technologies whose stated unlocks raise ``unit_type`` to ``rank``, in their order."""
    return _rank_unlocks(ruleset.technologies).get((unit_type, rank), ())


def unlocked_by(ruleset: CivilizationRuleset, item: str) -> tuple[str, ...]:
    """The technologies that unlock ``item``; CannotJudgeError when none known does and some are silent."""
    by_item, silent = _unlocks(ruleset.technologies)
    found = by_item.get(item, ())
    if not found and silent:
        raise CannotJudgeError(
            f"no technology known unlocks {item}, and what {len(silent)} technologies unlock is not in the sources"
        )
    return tuple(found)
