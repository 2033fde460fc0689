"""`civrules build`: typed, self-contained Python engine modules for a resolved ruleset.

The package ``generated/python/<ruleset_id>/`` needs only the standard library: enums of ids,
frozen slotted records, read-only mappings of every collection, the derived credit matrix,
adjacency by border kind, trade stacks, phase order, and small pure helpers. Every string from
the data is written as a Python literal (``repr``), or escaped where it is free text in a docstring
(``doc``), so quotes, backslashes, newlines or `\"\"\"` in a name can never break the code; ids are
valid identifiers by schema and check (I003).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import jinja2

from civrules.calamities import resolution_order
from civrules.commodities import block_bonuses, deck_compositions
from civrules.credits import credit_matrix
from civrules.emit.templating import template_environment
from civrules.mapgraph import map_graph
from civrules.model import Epoch, Ruleset, Unknown


def environment() -> jinja2.Environment:
    # Python source, not HTML: every data value goes through `lit` (or `doc` in docstrings).
    env = template_environment("python", autoescape=False)
    env.filters["lit"] = lit
    env.filters["doc"] = doc
    return env


def package_name(ruleset_id: str) -> str:
    """The import name of a ruleset's package: its id with hyphens as underscores."""
    return ruleset_id.replace("-", "_")


def member(value: str) -> str:
    """The enum member name of an id."""
    return value.upper()


def lit(value: Any) -> str:
    """A Python literal for plain data: strings (always repr, so always safe), numbers, bools, None,
    and tuples of those. Unknown facts become None."""
    if isinstance(value, Unknown) or value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, str)):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(lit(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no literal for {type(value).__name__}")


def doc(value: str) -> str:
    """Free text for inside a docstring: backslashes and double quotes escaped, so that no text
    (a name holding `\"\"\"`, or ending in a backslash) can end the docstring or break it."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def ref(enum: str, value: Any) -> str:
    """An enum member reference, or None for an unknown or absent id."""
    if not isinstance(value, str):
        return "None"
    return f"{enum}.{member(value)}"


def refs(enum: str, values: Iterable[str] | Unknown | None) -> str:
    if values is None or isinstance(values, Unknown):
        return "None"
    items = [ref(enum, v) for v in values]
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def fingerprint(exported: Mapping[str, Any]) -> str:
    """A hash of the resolved ruleset's canonical JSON: changes whenever any fact changes."""
    canonical = json.dumps(exported, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _rules(raw: Mapping[str, Any]) -> tuple[str, ...]:
    rule = raw.get("rule")
    if isinstance(rule, str):
        return (rule,)
    return tuple(rule) if isinstance(rule, list) else ()


#: The name of the only A.S.T. level of a game that prints one.
STANDARD_LEVEL = "standard"


def _levels(ruleset: Ruleset) -> tuple[str, ...]:
    levels = (ruleset.data.get("ast") or {}).get("levels") if isinstance(ruleset.data.get("ast"), dict) else None
    ids = tuple(level["id"] for level in levels or () if isinstance(level, dict) and isinstance(level.get("id"), str))
    return ids or (STANDARD_LEVEL,)


def _requirements(epoch: Epoch, level: str) -> dict[str, Any]:
    from civrules.ast import requirements_of

    req = requirements_of(epoch, None if level == STANDARD_LEVEL else level)
    criteria = req.get("criteria") if isinstance(req, dict) else None
    known_requirements = not (isinstance(req, dict) and set(req) == {"unknown"}) and not (
        isinstance(criteria, dict) and "unknown" in criteria  # lost from the sources (Expansion Project 28.2.2)
    )
    values = []
    for entry in req.get("min_cards_of_value") or ():
        if isinstance(entry, dict):
            values.append((entry.get("count", 1), entry.get("min_value", 0), _int(entry.get("max_value_below"))))
    return {
        "min_cities": _int(req.get("min_cities")),
        "min_card_groups": _int(req.get("min_card_groups")),
        "min_cards": _int(req.get("min_cards")),
        "all_card_groups": bool(req.get("all_card_groups", False)),
        "two_group_cards_count_twice": bool(req.get("two_group_cards_count_twice", False)),
        "card_value_per_space": bool(req.get("card_value_per_space", False)),
        "min_victory_points": _int(req.get("min_victory_points")),
        "min_cards_of_value": values,
        "requirements_known": known_requirements,
    }


def _tracks(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """Each nation's tracks by level (the standard level for a game without levels)."""
    out: dict[str, dict[str, Any]] = {}
    for track in ruleset.ast_tracks:
        level = track.raw.get("level")
        out.setdefault(track.id, {})[level if isinstance(level, str) else STANDARD_LEVEL] = track
    return out


def render_package(ruleset: Ruleset, exported: Mapping[str, Any]) -> dict[str, bytes]:
    """Every file of the ruleset's package, by path relative to ``generated/python/``."""
    name = package_name(ruleset.id)
    graph = map_graph(ruleset)
    context = {
        "ruleset": ruleset,
        "package": name,
        "fingerprint": fingerprint(exported),
        "member": member,
        "ref": ref,
        "refs": refs,
        "lit": lit,
        "rules": _rules,
        "int": _int,
        "requirements": _requirements,
        "levels": _levels(ruleset),
        "tracks": _tracks(ruleset),
        "credit_matrix": credit_matrix(ruleset),
        "resolution_order": [c.id for c in resolution_order(ruleset)],
        "adjacency": {
            kind: {area.id: sorted(graph.neighbours(area.id, kind)) for area in ruleset.areas}
            for kind in ("land", "sea", "all")
        },
        "border_kinds": sorted({b.kind for b in ruleset.borders}),
        "stacks": _stacks(ruleset),
        "set_rule": _set_rule(ruleset),
        "calamity_effects": _calamity_effects(ruleset),
        "examples": _examples(ruleset),
        "decks": deck_compositions(ruleset),
        "block_bonuses": block_bonuses(ruleset),
    }
    files = {}
    for template in ("__init__.py", "ids.py", "records.py", "data.py", "helpers.py"):
        text = environment().get_template(f"{template}.j2").render(context)
        files[f"{name}/{template}"] = text.encode("utf-8")
    files[f"{name}/py.typed"] = b""
    return files


def _stacks(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Trade stacks: number → commodities and calamities in it."""
    numbers = sorted(
        {c.stack for c in ruleset.commodities if isinstance(c.stack, int)} | {c.stack for c in ruleset.calamities}
    )
    return [
        {
            "number": n,
            "commodities": [c.id for c in ruleset.commodities if c.stack == n],
            "calamities": [c.id for c in ruleset.calamities if c.stack == n],
        }
        for n in numbers
    ]


def _set_rule(ruleset: Ruleset) -> dict[str, Any]:
    from civrules.commodities import set_value_rule

    rule = set_value_rule(ruleset)
    return {"formula": rule.formula, "mining_extra_cards": rule.mining_extra_cards}


def _calamity_effects(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Per calamity: its effects, its modifiers (with what each states) and its combination mode."""
    from civrules.calamities import modified_effects

    out = []
    for calamity in ruleset.calamities:
        effects = []
        for side in ("primary", "secondary"):
            for raw in calamity.raw.get(side) or ():
                if not isinstance(raw, dict) or "id" not in raw:
                    continue
                amount = raw.get("amount")
                effects.append(
                    {
                        "id": raw["id"],
                        "side": side,
                        "kind": raw.get("kind"),
                        "amount": _int(amount),
                        "all_but": _int(amount.get("all_but")) if isinstance(amount, dict) else None,
                        "max_per_victim": _int(raw.get("max_per_victim")),
                        "unknown": isinstance(amount, dict) and set(amount) == {"unknown"},
                    }
                )
        modifiers = []
        for modifier in calamity.modifiers:
            raw = calamity.raw["modifiers"][modifier.index]
            becomes = raw.get("becomes") if isinstance(raw.get("becomes"), dict) else {}
            stated = raw.get("set_to", becomes.get("amount"))
            if stated is None and modifier.effect == "nullifies" and modifier.amount is None:
                stated = 0
            per = raw.get("per")
            modifiers.append(
                {
                    "card": modifier.card,
                    "applies_to": modifier.applies_to,
                    "effect": modifier.effect,
                    "effects": list(modified_effects(calamity, modifier)),
                    "amount": _int(modifier.amount),
                    "amount_unknown": isinstance(modifier.amount, Unknown),
                    "stated": _int(stated),
                    "cap": _int(raw.get("cap")),
                    "per_commodity": per.get("commodity")
                    if isinstance(per, dict) and per.get("kind") == "commodity_card"
                    else None,
                    "adds": "adds" in raw,
                    "becomes_kind": becomes.get("kind"),
                    "per_any_commodity": isinstance(per, dict) and per.get("kind") == "any_commodity_card",
                }
            )
        combination = calamity.raw.get("modifier_combination")
        combination = combination if isinstance(combination, dict) else {}
        out.append(
            {
                "id": calamity.id,
                "effects": effects,
                "modifiers": modifiers,
                "mode": calamity.modifier_combination,
                "mode_unknown": isinstance(combination.get("mode"), dict) and "unknown" in combination["mode"],
                "precedence": list(combination.get("precedence") or ()),
                "overrides": [
                    (o.get("card"), list(o.get("overrides") or ()))
                    for o in combination.get("overrides") or ()
                    if isinstance(o, dict)
                ],
            }
        )
    return out


def _examples(ruleset: Ruleset) -> dict[str, Any]:
    """Worked examples for the helpers' docstrings, computed by the compiler (doctests check them)."""
    from civrules.calamities import Role, calamity_amount
    from civrules.commodities import set_value, set_value_rule

    out: dict[str, Any] = {
        "credit": None,
        "purchase": None,
        "set": None,
        "calamities": [],
        "epoch": None,
        "bonus": None,
    }
    matrix = credit_matrix(ruleset)
    for owned, row in matrix.items():
        for target, points in row.items():
            card = ruleset.cards.get(target)
            if card is not None and isinstance(card.cost, int):
                out["credit"] = (owned, target, points)
                out["purchase"] = (owned, target, max(0, card.cost - points))
                break
        if out["credit"]:
            break
    rule = set_value_rule(ruleset)
    for commodity in ruleset.commodities:
        if (
            commodity.mining
            and isinstance(commodity.count, int)
            and commodity.count >= 4
            and isinstance(commodity.value, int)
        ):
            out["set"] = (commodity.id, set_value(commodity, 3, rule=rule), set_value(commodity, 3, True, rule))
            break
    out["bonus"] = _bonus_example(ruleset)
    for calamity in ruleset.calamities:
        for modifier in calamity.modifiers:
            effects = [e for e in _calamity_effects_of(calamity) if e in modifier.modifies]
            side: Role = "secondary" if modifier.applies_to == "secondary" else "primary"
            for effect in effects:
                try:
                    base = calamity_amount(calamity, effect, set(), side).value
                    held = calamity_amount(calamity, effect, {modifier.card}, side).value
                except (KeyError, ValueError):
                    continue
                if base is not None and held is not None and base != held and len(out["calamities"]) < 2:
                    out["calamities"].append((calamity.id, effect, [], side, base))
                    out["calamities"].append((calamity.id, effect, [modifier.card], side, held))
    for epoch in ruleset.epochs:
        need = _requirements(epoch, _levels(ruleset)[0])
        if (
            need["min_cities"]
            and need["requirements_known"]
            and not (
                need["min_card_groups"] or need["min_cards"] or need["all_card_groups"] or need["min_cards_of_value"]
            )
        ):
            out["epoch"] = (epoch.id, need["min_cities"])
            break
    return out


def _bonus_example(ruleset: Ruleset) -> tuple[str, int, int, str, int] | None:
    """A set redeemed outside its native block, for the docstring: (good, cards, players, block, value)."""
    from civrules.commodities import block_bonus, set_value, set_value_rule

    bonuses = block_bonuses(ruleset)
    if not bonuses:
        return None
    band = bonuses[0]
    for commodity in ruleset.commodities:
        block = commodity.raw.get("block")
        if block in ("west", "east") and isinstance(commodity.count, int) and commodity.count >= 3:
            other = "east" if block == "west" else "west"
            value = set_value(commodity, 3, rule=set_value_rule(ruleset)) + block_bonus(
                commodity, 3, bonuses, players=band.players_min, redeemed_in=other
            )
            return (commodity.id, 3, band.players_min, other, value)
    return None


def _calamity_effects_of(calamity: Any) -> list[str]:
    return [e["id"] for side in ("primary", "secondary") for e in calamity.raw.get(side) or () if isinstance(e, dict)]


Renderer = Callable[[Ruleset, Mapping[str, Any]], dict[str, bytes]]
