"""Sid Meier's Civilization's player helper: the technology pyramid planner.

Tables from the model, as the engine package holds them (each technology's level and what it
unlocks, the research costs by level, the trade a coin keeps, the pyramid's rule and the
technology victory's minimums, the wonders' research discounts); the rules of :mod:`.rules` mirror
the package's ``may_place_technology``, ``pyramid_needs``, ``research_cost`` and
``trade_after_research`` (tests/families/sid_meiers_civilization/test_helpers.py holds them to it).
"""

from __future__ import annotations

from typing import Any

from civrules.emit.helpers import HelperPage, attr, static, text
from civrules.emit.sheets.common import label_of
from civrules.families.sid_meiers_civilization import rules as game
from civrules.families.sid_meiers_civilization.helpers.rules import RULES
from civrules.families.sid_meiers_civilization.model import CivilizationRuleset
from civrules.families.sid_meiers_civilization.sheets.tables import name_in
from civrules.model import Ruleset as CoreRuleset
from civrules.model import Unknown


def _unlocks(ruleset: CivilizationRuleset, tech: Any) -> Any:
    """What ``tech`` unlocks, by the names a player reads on the cards (the technology pyramid
    sheet's words: "Cavalaria rank 2"), never the data's ids; None where the sources do not say."""
    found = game.known_unlocks(tech)
    if found is None:
        return None
    return {
        "buildings": [name_in(ruleset.buildings, b) for b in found.buildings],
        "units": [f"{name_in(ruleset.unit_types, u.type)} rank {u.rank}" for u in found.units],
        "governments": [name_in(ruleset.governments, g) for g in found.governments],
        "wonders": [name_in(ruleset.wonders, w) for w in found.wonders],
    }


def _dial_max(ruleset: CivilizationRuleset) -> int | None:
    """The most trade the dial holds (trade.dial_max); None where the ruleset gives none."""
    found = ruleset.rule("trade").get("dial_max")
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _cited(rule: Any) -> list[str]:
    """A setting's ``rule`` as a list of citations (one, several or none)."""
    if isinstance(rule, str):
        return [rule]
    return [r for r in rule if isinstance(r, str)] if isinstance(rule, list | tuple) else []


def _left_out(what: str) -> dict[str, str]:
    """The page's unknown for a rule the ruleset leaves out (the schema takes no ``{unknown: why}``
    for these: a house ruleset may simply not write them), as the package's helpers word it."""
    return {"unknown": f"this ruleset does not give {what}"}


def tables(ruleset: CivilizationRuleset) -> dict[str, Any]:
    p = game.pyramid(ruleset)
    kept = game.trade_kept_per_coin(ruleset)
    return {
        "technologies": {
            t.id: {
                "name": label_of(t),
                "level": {"unknown": t.level.reason} if isinstance(t.level, Unknown) else t.level,
                "unlocks": _unlocks(ruleset, t),
            }
            for t in ruleset.technologies
        },
        "technology_order": [t.id for t in ruleset.technologies],
        "research_costs": {str(level): trade for level, trade in game.research_costs(ruleset).items()},
        "trade_kept_per_coin": kept if kept is not None else _left_out("the trade a coin keeps after research"),
        "spends_all_trade": ruleset.rule("research").get("spends_all_trade") is True,
        "dial_max": _dial_max(ruleset),
        "dial_rules": _cited(ruleset.rule("trade").get("rule")),
        "pyramid": {
            "top_level": p.top_level,
            "one_more_below": p.one_more_below
            if p.one_more_below is not None
            else _left_out("how many technologies a row needs below a new one"),
            "minimums": [{"level": level, "count": count} for level, count in p.minimums.items()],
            "inferred": p.inferred,
        },
        "wonders": {
            w.id: {"name": label_of(w), "research_discount": w.research_discount or 0} for w in ruleset.wonders
        },
    }


def _body(ruleset: CivilizationRuleset) -> str:
    techs = "".join(
        f'<label><input type="checkbox" data-state={attr("t." + t.id)} data-tech={attr(t.id)}> '
        f"{text(label_of(t))}</label>"
        for t in ruleset.technologies
    )
    starting = '<option value="">none</option>' + "".join(
        f"<option value={attr(t.id)}>{text(label_of(t))}</option>" for t in ruleset.technologies
    )
    discounting = [w for w in ruleset.wonders if w.research_discount]
    dial = _dial_max(ruleset)
    wonders = "".join(
        f'<label><input type="checkbox" data-state={attr("w." + w.id)} data-wonder={attr(w.id)}> '
        f"{text(label_of(w))}</label>"
        for w in discounting
    )
    return (
        '<section class="tool" id="pyramid"><h2>Technology pyramid planner</h2>'
        f'<fieldset><legend>Technologies in your pyramid</legend><div class="choices">{techs}</div></fieldset>'
        '<div class="pickers">'
        f'<label>Starting technology <select data-state="start" data-default="" id="start-choice">{starting}</select>'
        "</label>"
        '<label>Trade on the dial <input type="number" min="0"'
        + (f" max={attr(str(dial))}" if dial is not None else "")
        + ' step="1" placeholder="0" data-state="trade" id="trade">'
        "</label>"
        '<label>Coins <input type="number" min="0" step="1" placeholder="0" data-state="coins" id="coins"></label>'
        "</div>"
        + (
            "<fieldset><legend>Wonders held that discount research</legend>"
            f'<div class="choices">{wonders}</div></fieldset>'
            if wonders
            else ""
        )
        + '<div class="result" id="trade-refused" role="alert" hidden></div>'
        '<div class="result" id="victory" aria-live="polite"></div>'
        '<div class="table-wrap"><table id="technologies"><thead><tr><th>Technology</th><th class="n">Level</th>'
        '<th>May place now</th><th class="n">Research cost</th><th>Trade left after</th><th>Unlocks</th></tr>'
        "</thead><tbody></tbody></table></div></section>"
    )


def helper_page(model: CoreRuleset) -> HelperPage:
    """The family's ``helpers`` hook: the page of one ruleset."""
    if not isinstance(model, CivilizationRuleset):
        raise TypeError(f"not a Sid Meier's Civilization ruleset: {model!r:.80}")
    return HelperPage(
        body=_body(model),
        tables=tables(model),
        rules=RULES,
        script=static("pyramid.js", __name__),
        tools=(("pyramid", "Technology pyramid planner"),),
        draft=model.draft,
    )
