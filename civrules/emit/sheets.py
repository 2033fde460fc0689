"""Printable player aids ("sheets"): self-contained HTML pages and one PDF, from a resolved ruleset.

Each sheet is one HTML file with its CSS inline and nothing fetched from anywhere (no URL, no
font, no script), laid out for print with ``@page`` rules for A4 or US Letter; the PDF is the
same pages typeset by WeasyPrint. Every page carries the ruleset's name, its fingerprint and the
note that it is generated, naming the rule files to edit instead.

- ``credit-table.html``: the civilization card credit table (owned cards down, targets across),
  one landscape page, like the back cover of the Advanced Civilization rulebook;
- ``cards.html``: the card quick chart (groups, cost, prerequisites, credits, attributes);
- ``calamities.html``: the calamities in resolution order, with every card modifier in words
  and numbers;
- ``commodities.html``: the goods of each trade stack with their set values, with Mining, and the
  deck compositions where the data has them;
- ``ast.html``: each nation's A.S.T. track with its epochs and Late Iron Age values, and the
  epochs' entry requirements;
- ``sequence-of-play.html``: the phases with their conditions and order;
- ``map.html``: a picture of the map graph and the index of every area;
- ``variant-changes.html``: what a variant changes (``civrules diff`` output), when given;
- ``index.html``: the list of sheets.

Templates are jinja2 with autoescape on, so a name from the data is always text, never markup;
strings that go into CSS (the running page header) are CSS-escaped. The output is a pure function
of the model: everything is sorted or in data order, nothing depends on the time or on hashing.

Examples
--------
>>> files = render_sheets(ruleset, fingerprint)  # doctest: +SKIP
>>> sorted(files)[:3]  # doctest: +SKIP
['ast.html', 'calamities.html', 'cards.html']
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

import jinja2
from markupsafe import Markup

from civrules.ast import ast_settings, epoch_order, epoch_spans, is_value_gated, layout, space_value
from civrules.calamities import calamity_amount, effect_raw, effect_side, modified_effects, resolution_order
from civrules.commodities import commodities_document, set_value, set_value_rule
from civrules.credits import credit_matrix
from civrules.emit.svgmap import map_svg
from civrules.emit.templating import template_environment
from civrules.mapgraph import map_graph
from civrules.model import Calamity, Card, Commodity, Modifier, Ruleset, Unknown

# --- Paper and pages ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size: its CSS name, its name for people, and its portrait width and height in mm."""

    id: str
    css: str
    label: str
    width: float
    height: float


PAPERS: Mapping[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "letter", "US Letter", 215.9, 279.4),
}


@dataclass(frozen=True, slots=True)
class Page:
    """The page box of one sheet: size, orientation and margins (mm)."""

    paper: Paper
    landscape: bool
    top: float
    side: float
    bottom: float

    @property
    def width(self) -> float:
        return self.paper.height if self.landscape else self.paper.width

    @property
    def height(self) -> float:
        return self.paper.width if self.landscape else self.paper.height

    @property
    def content_width(self) -> float:
        return self.width - 2 * self.side

    @property
    def content_height(self) -> float:
        return self.height - self.top - self.bottom

    @property
    def size(self) -> str:
        return f"{self.paper.css} {'landscape' if self.landscape else 'portrait'}"


def _page(paper: Paper, landscape: bool) -> Page:
    if landscape:
        return Page(paper, True, top=11.0, side=8.0, bottom=11.0)
    return Page(paper, False, top=14.0, side=12.0, bottom=14.0)


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its file, title, one-line summary, orientation and the kinds of rule file it reads."""

    file: str
    title: str
    summary: str
    landscape: bool
    sources: tuple[str, ...]


SHEETS: tuple[Sheet, ...] = (
    Sheet(
        "credit-table.html",
        "Civilization card credits",
        "Owned cards down, cards to buy across: the credit each owned card gives, with costs and prerequisites.",
        True,
        ("civilization_cards",),
    ),
    Sheet(
        "cards.html",
        "Civilization cards",
        "Every card's groups, cost, prerequisites, credits and attributes, with rule sections.",
        False,
        ("civilization_cards", "calamities"),
    ),
    Sheet(
        "calamities.html",
        "Calamities",
        "The calamities in resolution order: effects on primary and secondary victims and every card modifier.",
        False,
        ("calamities", "civilization_cards"),
    ),
    Sheet(
        "commodities.html",
        "Commodities and trade stacks",
        "The goods of each trade stack: value, number of cards and set values, with Mining.",
        False,
        ("commodities", "calamities"),
    ),
    Sheet(
        "ast.html",
        "Archaeological Succession Table",
        "Each nation's track with its epochs and Late Iron Age values; the entry requirements of each epoch.",
        True,
        (),
    ),
    Sheet(
        "sequence-of-play.html",
        "Sequence of play",
        "The phases of a turn, when each happens and in which order players act.",
        False,
        (),
    ),
    Sheet(
        "map.html",
        "Map",
        "A picture of the map graph and an index of every area with its borders.",
        False,
        ("map",),
    ),
)

CHANGES = Sheet(
    "variant-changes.html",
    "What this variant changes",
    "Every entity and setting this ruleset adds, removes or changes relative to its base.",
    False,
    (),
)

INDEX = Sheet("index.html", "Player aids", "The sheets of this ruleset.", False, ())


# --- Text helpers ------------------------------------------------------------------------------

_SAFE_CSS = re.compile(r"[A-Za-z0-9.,_-]")


def css_string(value: object) -> Markup:
    """A quoted CSS string whose every character outside ``[A-Za-z0-9 .,_-]`` is a hex escape.

    Nothing in it can end the string, the declaration or the ``<style>`` element it sits in.

    >>> str(css_string('a"</style>'))
    '"a\\\\000022\\\\00003c\\\\00002fstyle\\\\00003e"'
    """
    escaped = "".join(ch if _SAFE_CSS.fullmatch(ch) else f"\\{ord(ch):06x}" for ch in str(value))
    return Markup(f'"{escaped}"')


def humanize(value: object) -> str:
    """An id or enum value as words: ``ascending_city_count`` → ``ascending city count``."""
    return str(value).replace("_", " ")


def known(value: object, none: str = "—") -> str:
    """A fact as printed: ``unknown`` for an unknown one, ``none`` for an absent one."""
    if isinstance(value, Unknown):
        return "unknown"
    if value is None:
        return none
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def signed(amount: int) -> str:
    """A change with its sign, using a true minus: ``−8``, ``+5``."""
    return f"−{-amount}" if amount < 0 else f"+{amount}"


def rules_text(rules: object) -> str:
    """Rule sections as printed: ``30.613, 32.431``."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, (list, tuple)):
        return ", ".join(str(rule) for rule in rules)
    return ""


_UNITS = {
    "unit_points": ("unit point", "unit points"),
    "cities": ("city", "cities"),
    "tokens": ("token", "tokens"),
}


def unit_words(unit: object, amount: int | None = None) -> str:
    """The unit of an amount in words, singular for one."""
    singular, plural = _UNITS.get(str(unit), (humanize(unit), humanize(unit)))
    return singular if amount is not None and abs(amount) == 1 else plural


def _name(collection: Any, item_id: str) -> str:
    found = collection.get(item_id)
    return str(found.display_name) if found is not None else item_id


# --- Group symbols -----------------------------------------------------------------------------

#: Print-friendly fills for the colour names the data uses; anything else is grey (never a URL).
PALETTE: Mapping[str, str] = {
    "black": "#222222",
    "blue": "#2f6fd0",
    "brown": "#8b5a2b",
    "green": "#2e9e4a",
    "grey": "#9a9a9a",
    "gray": "#9a9a9a",
    "orange": "#f08a24",
    "pink": "#f29bc1",
    "purple": "#8e44ad",
    "red": "#d33a2c",
    "white": "#ffffff",
    "yellow": "#f7d038",
    "yellow-green": "#a8c93a",
}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
SHAPES = frozenset({"triangle", "square", "circle", "hexagon", "star", "diamond", "pentagon"})


@dataclass(frozen=True, slots=True)
class Symbol:
    """A group's mark: its shape (``unknown`` if not given) and fill, and the group's name."""

    shape: str
    fill: str
    name: str


def fill_of(colour: object) -> str:
    if isinstance(colour, str):
        if _HEX.fullmatch(colour):
            return colour.lower()
        return PALETTE.get(colour.lower(), "#bbbbbb")
    return "#ffffff"


def symbols(ruleset: Ruleset, card: Card) -> list[Symbol]:
    """The marks of a card's groups, in the order the card lists them."""
    marks = []
    for group_id in card.group_list():
        group = ruleset.groups.get(group_id)
        if group is None:
            marks.append(Symbol("unknown", "#ffffff", group_id))
            continue
        shape = group.shape if isinstance(group.shape, str) and group.shape in SHAPES else "unknown"
        marks.append(Symbol(shape, fill_of(group.colour), group.display_name))
    return marks


def group_symbols(ruleset: Ruleset) -> list[Symbol]:
    marks = []
    for group in ruleset.groups.by_id.values():
        shape = group.shape if isinstance(group.shape, str) and group.shape in SHAPES else "unknown"
        marks.append(Symbol(shape, fill_of(group.colour), group.display_name))
    return marks


# --- 1. Credit table ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreditCell:
    points: int | None
    level: int
    diagonal: bool


@dataclass(frozen=True, slots=True)
class CreditCard:
    id: str
    name: str
    symbols: list[Symbol]
    cost: str
    prerequisites: str
    group_start: bool
    label: Markup = field(default=Markup(""))


#: Most cards drawn as a credit table: a table grows with the square of the cards, and beyond this
#: it can be neither printed legibly nor rendered in bounded memory (the real games have 24 to 53).
MAX_CREDIT_TABLE_CARDS = 80


def credit_table(ruleset: Ruleset, page: Page) -> dict[str, Any]:
    """The credit table: cards in data order, the derived matrix, and a geometry that fits ``page``."""
    if len(ruleset.cards) > MAX_CREDIT_TABLE_CARDS:
        return {"too_many": len(ruleset.cards), "limit": MAX_CREDIT_TABLE_CARDS, "groups": group_symbols(ruleset)}
    cards = list(ruleset.cards.by_id.values())
    matrix = credit_matrix(ruleset)
    top = max((points for row in matrix.values() for points in row.values()), default=0)
    count = max(len(cards), 1)

    # Sizes in mm, measured in Chromium and WeasyPrint. Up to about 30 cards (Advanced Civilization
    # has 24) everything fits one page; a larger deck gets smaller type, then rows run onto a
    # second page (the header repeats) rather than below a legible size.
    name_width, cost_width = (40.0 if count <= 30 else 30.0), 9.0
    # 2 mm to spare for the collapsed outer border and rounding.
    column = min(12.0, (page.content_width - name_width - cost_width - 2.0) / count)
    # Everything but the body rows: title, legend line, column labels, cost row, the policy note
    # under the table, and a little slack for rounding.
    title_height, legend_height, label_height, cost_height, foot_height = 9.5, 6.0, 31.0, 5.0, 8.0
    body = page.content_height - title_height - legend_height - label_height - cost_height - foot_height - 3.0
    row = max(3.2, min(5.8, body / count))
    label_font = min(2.7, column * 0.32)

    previous: str | None = None
    labelled = []
    for card in cards:
        first = card.group_list()[0] if card.group_list() else ""
        if isinstance(card.prerequisites, Unknown):
            needs = "unknown"
        else:
            needs = ", ".join(_name(ruleset.cards, p) for p in card.prerequisites)
        head = CreditCard(
            card.id,
            card.display_name,
            symbols(ruleset, card),
            known(card.cost),
            needs,
            previous is not None and first != previous,
        )
        previous = first
        label = (
            environment()
            .get_template("_column-label.svg.j2")
            .render(card=head, width=column, height=label_height, font=label_font, symbol=min(3.2, column * 0.36))
        )
        labelled.append(replace(head, label=Markup(label)))
    rows = []
    for owned in labelled:
        cells = []
        for target in labelled:
            points = matrix.get(owned.id, {}).get(target.id)
            level = math.ceil(5 * points / top) if points and top else 0
            cells.append(CreditCell(points, level, owned.id == target.id))
        rows.append((owned, cells))
    policy = ruleset.credit_policy
    return {
        "cards": labelled,
        "rows": rows,
        "groups": group_symbols(ruleset),
        "policy": policy_sentences(policy),
        "policy_rules": rules_text(policy.get("rule")),
        "geometry": {
            "name": f"{name_width:.2f}mm",
            "cost": f"{cost_width:.2f}mm",
            "column": f"{column:.2f}mm",
            "row": f"{row:.2f}mm",
            "label": f"{label_height:.2f}mm",
            "font": f"{min(3.0, row * 0.56):.2f}mm",
            "symbol": f"{min(2.9, row * 0.62):.2f}mm",
            "symbols": f"{2 * min(2.9, row * 0.62) + 1.8:.2f}mm",
        },
    }


def policy_sentences(policy: Mapping[str, Any]) -> list[str]:
    """The ruleset's credit policy in words, one sentence per declared rule."""
    said = []
    if policy.get("across_owned_cards") == "sum":
        said.append("The credits of all cards held add up; a card costs its price less their total.")
    if policy.get("group_credits") == "other_cards_in_group":
        said.append("A credit toward a group goes to every other card of that group.")
    if policy.get("two_group_cards") == "both_groups":
        said.append("A card of two groups receives the credits toward either.")
    if policy.get("same_target") == "highest":
        said.append("Where one card held credits a card twice, the higher credit counts.")
    elif policy.get("same_target") == "sum":
        said.append("Where one card held credits a card twice, both credits count.")
    return said


# --- 2. Card quick chart -----------------------------------------------------------------------


def _credit_lines(ruleset: Ruleset, card: Card) -> list[str]:
    """A card's credits as written; equal credits toward single cards merged (``10 to Democracy, Monotheism``)."""
    if isinstance(card.credits, Unknown):
        return ["unknown"]
    merged: dict[tuple[str, bool, bool], list[str]] = {}
    for line in card.credits:
        if line.card is not None:
            key, target = (known(line.points), True, line.extra), _name(ruleset.cards, line.card)
        else:
            group = _name(ruleset.groups, line.group) if line.group is not None else "?"
            key, target = (known(line.points), False, line.extra), f"all other {group} cards"
        merged.setdefault(key, []).append(target)
    lines = []
    for (points, single, extra), targets in merged.items():
        said = ", ".join(targets) if single else "; ".join(targets)
        lines.append(f"{points} to {said}{' (extra)' if extra else ''}")
    return lines


def card_chart(ruleset: Ruleset) -> dict[str, Any]:
    rows = []
    for card in ruleset.cards.by_id.values():
        attributes = []
        for raw in card.raw.get("attributes") or ():
            if not isinstance(raw, dict):
                continue
            links = []
            for link in raw.get("calamities") or ():
                if isinstance(link, dict) and isinstance(link.get("calamity"), str):
                    links.append(
                        f"{humanize(link.get('effect', 'changes'))} {_name(ruleset.calamities, link['calamity'])}"
                    )
            attributes.append({"text": str(raw.get("text", "")), "rule": rules_text(raw.get("rule")), "links": links})
        if isinstance(card.prerequisites, Unknown):
            prerequisites = ["unknown"]
        else:
            prerequisites = [_name(ruleset.cards, p) for p in card.prerequisites]
        rows.append(
            {
                "name": card.display_name,
                "symbols": symbols(ruleset, card),
                "groups": " / ".join(_name(ruleset.groups, g) for g in card.group_list())
                if not isinstance(card.groups, Unknown)
                else "unknown",
                "cost": known(card.cost),
                "prerequisites": prerequisites,
                "credits": _credit_lines(ruleset, card),
                "attributes": attributes,
                "rule": rules_text(list(card.rules)),
                "victory_points": known(card.victory_points),
            }
        )
    with_points = any(card.victory_points is not None for card in ruleset.cards.by_id.values())
    return {"rows": rows, "groups": group_symbols(ruleset), "victory_points": with_points}


# --- 3. Calamities -----------------------------------------------------------------------------


def effect_amount_text(effect: Mapping[str, Any]) -> str:
    """An effect's amount as printed: ``10 unit points``, ``all but 3 cities``, ``unknown``."""
    amount = effect.get("amount")
    unit = effect.get("unit")
    if isinstance(amount, dict) and "unknown" in amount:
        text = "unknown"
    elif isinstance(amount, dict) and isinstance(amount.get("all_but"), int):
        text = f"all but {amount['all_but']} {unit_words(unit, amount['all_but'])}"
    elif isinstance(amount, int) and not isinstance(amount, bool):
        text = f"{amount} {unit_words(unit, amount)}"
    else:
        return ""
    most = effect.get("max_per_victim")
    if isinstance(most, int):
        text += f", at most {most} per victim"
    return text


def _effect_label(calamity: Calamity, effect_id: str) -> str:
    """The effect's id in words, when its side has several effects (otherwise the side says it)."""
    side = effect_side(calamity, effect_id)
    effects = calamity.raw.get(side or "") or ()
    return humanize(effect_id) if len(effects) > 1 else ""


def modifier_parts(ruleset: Ruleset, calamity: Calamity, modifier: Modifier) -> list[str]:
    """A card's modifier of a calamity in words and numbers, one part per effect it changes.

    E.g. Medicine on Epidemic: ``−8 unit points (primary, 16 → 8)``.
    """
    raw: Mapping[str, Any] = calamity.raw["modifiers"][modifier.index]
    parts: list[tuple[str, str]] = []
    for effect_id in modified_effects(calamity, modifier):
        side = effect_side(calamity, effect_id)
        if side is None or modifier.applies_to not in (side, "both"):
            continue
        effect = effect_raw(calamity, effect_id) or {}
        becomes = raw.get("becomes") if isinstance(raw.get("becomes"), dict) else {}
        unit = becomes.get("unit", effect.get("unit")) if isinstance(becomes, dict) else effect.get("unit")
        base = effect.get("amount")
        stated = raw.get("set_to", becomes.get("amount") if isinstance(becomes, dict) else None)
        amount = modifier.amount
        per = raw.get("per") if isinstance(raw.get("per"), dict) else None
        if modifier.effect == "immunity":
            words = "immune"
        elif isinstance(raw.get("adds"), dict) and isinstance(amount, int):
            adds = raw["adds"]
            words = f"{signed(amount)} {unit_words(adds.get('unit', unit), amount)}"
            if per is not None:
                words += f" per {humanize(per.get('kind', ''))}"
            words += ", an added loss"
        elif isinstance(stated, int):
            if isinstance(base, int):
                words = (
                    f"none instead of {base} {unit_words(unit, base)}"
                    if stated == 0
                    else f"{stated} instead of {base} {unit_words(unit, base)}"
                )
            else:
                words = f"{stated} {unit_words(unit, stated)}"
        elif isinstance(becomes, dict) and "kind" in becomes:
            words = f"{humanize(becomes['kind'])} instead of {humanize(effect.get('kind', 'the effect'))}"
        elif isinstance(amount, Unknown):
            words = "unknown"
        elif isinstance(amount, int):
            words = f"{signed(amount)} {unit_words(unit, amount)}"
            if per is not None and per.get("kind") == "commodity_card":
                words += f" per {_name(ruleset.commodities, str(per.get('commodity')))} card"
            elif per is not None:
                words += f" per {humanize(per.get('kind', ''))}"
            if isinstance(raw.get("cap"), int):
                words += f", at most {raw['cap']}"
        elif isinstance(raw.get("cap"), int):
            words = f"at most {raw['cap']} {unit_words(unit, raw['cap'])}"
        elif modifier.effect == "nullifies":
            words = "no effect"
        else:
            words = humanize(modifier.effect)
        if raw.get("optional"):
            words += ", optional"
        where: list[str] = [side]
        label = _effect_label(calamity, effect_id)
        if label:
            where.append(label)
        if modifier.effect != "immunity" and not isinstance(raw.get("adds"), dict) and "instead of" not in words:
            result = calamity_amount(calamity, effect_id, {modifier.card}, side)
            if isinstance(result.base, int) and result.value is not None and result.value != result.base:
                where.append(f"{result.base} → {result.value}")
        parts.append((words, ", ".join(where)))
    return merge_parts(parts)


def merge_parts(parts: Iterable[tuple[str, str]]) -> list[str]:
    """Parts with the same words said once: ``−4 unit points (primary; secondary)``."""
    merged: dict[str, list[str]] = {}
    for words, where in parts:
        merged.setdefault(words, []).append(where)
    return [f"{words} ({'; '.join(where)})" for words, where in merged.items()]


def calamity_sheet(ruleset: Ruleset) -> dict[str, Any]:
    entries = []
    for number, calamity in enumerate(resolution_order(ruleset), start=1):
        sides = {}
        for side in ("primary", "secondary"):
            sides[side] = [
                {
                    "amount": effect_amount_text(effect),
                    "text": str(effect.get("text", humanize(effect.get("kind", "")))),
                    "rule": rules_text(effect.get("rule")),
                }
                for effect in calamity.raw.get(side) or ()
                if isinstance(effect, dict)
            ]
        immune = [
            {"text": str(entry.get("text", "")), "rule": rules_text(entry.get("rule"))}
            for entry in calamity.raw.get("immune") or ()
            if isinstance(entry, dict)
        ]
        by_card: dict[str, list[str]] = {}
        for modifier in calamity.modifiers:
            for part in modifier_parts(ruleset, calamity, modifier):
                if part not in by_card.setdefault(modifier.card, []):
                    by_card[modifier.card].append(part)
        modifiers = [{"card": _name(ruleset.cards, card), "parts": parts} for card, parts in by_card.items()]
        combination = calamity.raw.get("modifier_combination")
        combination_text = ""
        if isinstance(combination, dict):
            combination_text = str(combination.get("text", humanize(combination.get("mode", ""))))
        beneficiary = calamity.raw.get("beneficiary")
        notes = [
            {"text": str(entry["text"]), "rule": rules_text(entry.get("rule"))}
            for entry in [*(calamity.raw.get("no_effect_when") or ()), beneficiary]
            if isinstance(entry, dict) and entry.get("text")
        ]
        if isinstance(calamity.tradable, Unknown):
            tradable = "tradability unknown"
        else:
            tradable = "tradable" if calamity.tradable else "non-tradable"
        entries.append(
            {
                "number": number,
                "name": calamity.display_name,
                "stack": calamity.stack,
                "tradable": tradable,
                "is_tradable": calamity.tradable is True,
                "severity": calamity.severity or "",
                "rule": rules_text(list(calamity.rules)),
                "primary": sides["primary"],
                "secondary": sides["secondary"],
                "immune": immune,
                "modifiers": modifiers,
                "combination": combination_text,
                "combination_rule": rules_text(combination.get("rule")) if isinstance(combination, dict) else "",
                "notes": notes,
            }
        )
    return {"calamities": entries}


# --- 4. Commodities ----------------------------------------------------------------------------


def commodity_sheet(ruleset: Ruleset) -> dict[str, Any]:
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
                        "tradable": "unknown" if isinstance(c.tradable, Unknown) else ("yes" if c.tradable else "no"),
                    }
                    for c in calamities
                ],
            }
        )
    loose = [good(c) for c in ruleset.commodities if not isinstance(c.stack, int)]
    settings = ruleset.settings.get("commodities", {})
    total = settings.get("total_cards")
    purchases = []
    document = commodities_document(ruleset, "trade_stacks")
    if document is not None:
        for stack in document.data["trade_stacks"].get("stacks") or ():
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
        "mining_card": _name(ruleset.cards, str(settings.get("mining", {}).get("card", "mining")))
        if isinstance(settings.get("mining"), dict)
        else "Mining",
        "mining_extra": rule.mining_extra_cards,
        "formula": "n × n × value" if rule.formula == "count_squared_times_value" else humanize(rule.formula),
        "set_rule": rules_text(settings.get("set_value", {}).get("rule"))
        if isinstance(settings.get("set_value"), dict)
        else "",
        "total": known(total.get("count")) if isinstance(total, dict) else "",
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
                    goods.append({"name": _name(ruleset.commodities, str(entry.get("commodity"))), "count": amount})
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


# --- 5. A.S.T. and epochs ----------------------------------------------------------------------


def epoch_initials(epochs: Sequence[Any]) -> dict[str, str]:
    """Short labels for the epochs: the initials of their names (``Early Bronze Age`` → ``EBA``), unique."""
    found: dict[str, str] = {}
    for epoch in epochs:
        short = "".join(word[0] for word in str(epoch.display_name).split() if word[:1].isalnum()).upper() or epoch.id
        while short in found.values():
            short += "'"
        found[epoch.id] = short
    return found


def ast_sheet(ruleset: Ruleset) -> dict[str, Any]:
    shape = layout(ruleset)
    epochs = list(epoch_order(ruleset))
    shades = {epoch.id: i % 5 for i, epoch in enumerate(epochs)}
    initials = epoch_initials(epochs)
    spaces = max(
        [shape.last_space(track) or 0 for track in ruleset.ast_tracks] + [shape.spaces_per_track or 0],
    )
    columns = list(range(shape.start_space, spaces + 1))
    tracks = []
    for track in ruleset.ast_tracks:
        nation = ruleset.nations.get(track.id)
        spans = epoch_spans(ruleset, track)
        row: dict[str, Any] = {
            "name": nation.display_name if nation is not None else track.id,
            "position": known(nation.ast_position) if nation is not None else "unknown",
            "cells": [],
            "unknown": "",
            "caveat": str(track.raw.get("caveat", "")),
            "checked": track.raw.get("checked_against_second_source"),
        }
        if isinstance(spans, Unknown) or spans is None:
            row["unknown"] = spans.reason if isinstance(spans, Unknown) else "the epochs of this track are not usable"
            tracks.append(row)
            continue
        last = shape.last_space(track)
        for space in columns:
            span = next((s for s in spans if space in s), None)
            if span is None:
                row["cells"].append({"space": space, "epoch": "", "shade": -1, "start": False, "value": ""})
                continue
            epoch = ruleset.epochs.by_id[span.epoch]
            value = ""
            if is_value_gated(epoch) or (space == last and space_value(ruleset, track, space) is not None):
                needed = space_value(ruleset, track, space)
                value = "unknown" if needed is None or isinstance(needed, Unknown) else str(needed)
            row["cells"].append(
                {
                    "space": space,
                    "epoch": epoch.display_name,
                    "short": initials[span.epoch],
                    "shade": shades[span.epoch],
                    "start": space == span.first,
                    "value": value,
                }
            )
        tracks.append(row)
    requirements = []
    for epoch in epochs:
        found = epoch.requirements
        facts = []
        if isinstance(found.get("min_cities"), int):
            facts.append(f"{found['min_cities']} cities in play")
        if isinstance(found.get("min_card_groups"), int):
            facts.append(f"cards of {found['min_card_groups']} groups")
        if found.get("all_card_groups"):
            facts.append("cards of every group")
        if isinstance(found.get("min_cards"), int):
            facts.append(f"{found['min_cards']} civilization cards")
        if found.get("two_group_cards_count_twice"):
            facts.append("a card of two groups counts for both")
        if found.get("card_value_per_space"):
            facts.append("card face value at least the space's value")
        if found.get("none"):
            facts.append("none")
        requirements.append(
            {
                "name": epoch.display_name,
                "short": initials[epoch.id],
                "shade": shades[epoch.id],
                "text": str(found.get("text", "")),
                "facts": facts,
                "rule": rules_text(found.get("rule") or list(epoch.rules)),
            }
        )
    settings = ast_settings(ruleset)
    notes = []
    for key in ("epoch_entry", "frozen", "regression"):
        entry = settings.get(key)
        if isinstance(entry, dict) and entry.get("text"):
            notes.append({"text": str(entry["text"]), "rule": rules_text(entry.get("rule"))})
    order = settings.get("order")
    if isinstance(order, dict) and order.get("text"):
        notes.append({"text": str(order["text"]), "rule": rules_text(order.get("rule"))})
    return {
        "columns": columns,
        "start": shape.start_space,
        "finish": shape.finish_space,
        "points": known(shape.points_per_space),
        "tracks": tracks,
        "epochs": [{"name": e.display_name, "short": initials[e.id], "shade": shades[e.id]} for e in epochs],
        "unchecked": any(t["checked"] is False and not t["unknown"] for t in tracks),
        "requirements": requirements,
        "notes": notes,
    }


# --- 6. Sequence of play -----------------------------------------------------------------------


def sequence_sheet(ruleset: Ruleset) -> dict[str, Any]:
    position = {phase.id: i for i, phase in enumerate(ruleset.phases)}
    phases = sorted(
        ruleset.phases.by_id.values(),
        key=lambda p: (p.number if isinstance(p.number, int) else 10**6, position[p.id]),
    )
    rows = []
    for phase in phases:
        if isinstance(phase.order, Unknown):
            order, reason = "unknown", phase.order.reason
        else:
            order = str(phase.raw.get("order_text") or humanize(phase.order or "")) or "—"
            reason = ""
        subs = [
            {"name": str(sub.get("name", humanize(sub.get("id", "")))), "rule": rules_text(sub.get("rule"))}
            for sub in phase.raw.get("sub_activities") or ()
            if isinstance(sub, dict)
        ]
        rows.append(
            {
                "number": known(phase.number, ""),
                "name": phase.display_name,
                "rule": rules_text(list(phase.rules)),
                "condition": str(phase.raw.get("condition_text") or humanize(phase.condition or "")) or "—",
                "order": order,
                "reason": reason,
                "subs": subs,
            }
        )
    settings = ruleset.data.get("sequence_of_play")
    general = []
    if isinstance(settings, dict):
        for entry in settings.get("general_rules") or ():
            if isinstance(entry, dict) and entry.get("text"):
                general.append({"text": str(entry["text"]), "rule": rules_text(entry.get("rule"))})
    return {"phases": rows, "general": general}


# --- 7. Map ------------------------------------------------------------------------------------


#: Largest map drawn as a picture on the map sheet; larger maps get the index only.
MAX_PICTURE_AREAS = 600


def map_sheet(ruleset: Ruleset, page: Page) -> dict[str, Any]:
    graph = map_graph(ruleset)
    names = {area.id: area.display_name for area in ruleset.areas.by_id.values()}
    starts: dict[str, list[str]] = {}
    for nation in ruleset.nations.by_id.values():
        if isinstance(nation.start_areas, tuple):
            for area_id in nation.start_areas:
                starts.setdefault(area_id, []).append(nation.display_name)
    volcanoes: dict[str, list[str]] = {}
    for region in ruleset.volcanoes:
        for area_id in region.areas:
            volcanoes.setdefault(area_id, []).append(region.display_name)
    floods = {region.id: region.display_name for region in ruleset.flood_plains}
    kinds = ("land", "sea", "both")
    rows: list[dict[str, Any]] = []
    for area in sorted(ruleset.areas.by_id.values(), key=lambda a: (a.display_name.casefold(), a.id)):
        neighbours: dict[str, list[str]] = {kind: [] for kind in (*kinds, "unknown")}
        for other in graph.neighbours(area.id):
            kind = graph.kind(area.id, other) or "unknown"
            neighbours[kind if kind in kinds else "unknown"].append(names.get(other, other))
        kind_text = "land" if area.land else ("open sea" if area.open_sea else "water")
        rows.append(
            {
                "name": area.display_name,
                "kind": kind_text,
                "water": not area.land,
                "population": known(area.population_limit),
                "city": area.city_site or "—",
                "flood": floods.get(area.flood_plain, humanize(area.flood_plain)) if area.flood_plain else "—",
                "coastal": known(area.coastal) if area.land else "—",
                "volcano": ", ".join(sorted(volcanoes.get(area.id, []))),
                "start": ", ".join(sorted(starts.get(area.id, []))),
                "neighbours": {kind: sorted(found, key=str.casefold) for kind, found in neighbours.items()},
            }
        )
    with_unknown = any(row["neighbours"]["unknown"] for row in rows)
    width = page.content_width
    height = page.content_height - 22.0
    # A spring layout costs memory quadratic in the areas and cannot be read beyond a few hundred.
    drawable = 0 < len(ruleset.areas) <= MAX_PICTURE_AREAS
    return {
        "picture": map_svg(ruleset, width, height) if drawable else None,
        "rows": rows,
        "unknown_borders": with_unknown,
        "counts": {
            "areas": len(ruleset.areas),
            "borders": graph.all.number_of_edges(),
        },
    }


# --- 8. What a variant changes -----------------------------------------------------------------


def changes_sheet(changes: str) -> dict[str, Any]:
    """The lines of ``civrules diff`` output, each with a class by its mark (+ added, - removed, ~ changed)."""
    lines = []
    for text in changes.splitlines():
        stripped = text.lstrip()
        if not stripped:
            continue
        mark = stripped[0]
        kind = {"+": "added", "-": "removed", "~": "changed"}.get(mark, "heading" if text == stripped else "detail")
        lines.append({"kind": kind, "indent": len(text) - len(stripped), "text": stripped})
    return {"lines": lines}


# --- Rendering ---------------------------------------------------------------------------------


def environment() -> jinja2.Environment:
    env = template_environment("sheets", autoescape=True)
    env.filters["css_string"] = css_string
    env.filters["mm"] = _mm
    return env


def _mm(value: object) -> str:
    return f"{float(value):.2f}mm"  # type: ignore[arg-type]


def source_files(ruleset: Ruleset, kinds: Iterable[str]) -> list[str]:
    """The rule files a sheet is made from: the manifests of the ruleset's chain and its files of ``kinds``.

    Paths are given from the rules directory's name (``rules/cards/…``), whatever the working
    directory, so the sheets are the same wherever they are built.
    """
    manifest = PurePosixPath(ruleset.manifest.file)
    root = manifest.parent.parent
    prefix = root.name or "rules"
    wanted = set(kinds)
    found: list[str] = []
    for document in ruleset.documents:
        data = document.data
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind != "ruleset" and kind not in wanted:
            continue
        path = PurePosixPath(document.file)
        try:
            shown = f"{prefix}/{path.relative_to(root).as_posix()}" if root.parts else f"{prefix}/{path.as_posix()}"
        except ValueError:
            shown = path.as_posix()
        if shown not in found:
            found.append(shown)
    return found


def _paper(paper: str) -> Paper:
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}: expected one of {', '.join(sorted(PAPERS))}") from None


Builder = Callable[[Ruleset, Page], Mapping[str, Any]]

_BUILDERS: Mapping[str, Builder] = {
    "credit-table.html": credit_table,
    "cards.html": lambda ruleset, page: card_chart(ruleset),
    "calamities.html": lambda ruleset, page: calamity_sheet(ruleset),
    "commodities.html": lambda ruleset, page: commodity_sheet(ruleset),
    "ast.html": lambda ruleset, page: ast_sheet(ruleset),
    "sequence-of-play.html": lambda ruleset, page: sequence_sheet(ruleset),
    "map.html": map_sheet,
}


def _sheets(changes: str | None) -> list[Sheet]:
    return [*SHEETS, CHANGES] if changes is not None else list(SHEETS)


def _render(
    ruleset: Ruleset, fingerprint: str, paper: Paper, sheet: Sheet, context: Mapping[str, Any], listed: Sequence[Sheet]
) -> str:
    page = _page(paper, sheet.landscape)
    sources = source_files(ruleset, sheet.sources if sheet is not INDEX else _ALL_KINDS)
    template = environment().get_template(sheet.file.replace(".html", ".html.j2"))
    return template.render(
        ruleset=ruleset,
        fingerprint=fingerprint,
        short=fingerprint[:12],
        sheet=sheet,
        page=page,
        sources=sources,
        note=f"generated by civrules — do not edit; from {', '.join(sources)}",
        sheets=listed,
        **context,
    )


_ALL_KINDS = ("civilization_cards", "calamities", "commodities", "map")


def _contexts(ruleset: Ruleset, paper: Paper, changes: str | None) -> list[tuple[Sheet, Mapping[str, Any]]]:
    found: list[tuple[Sheet, Mapping[str, Any]]] = []
    for sheet in _sheets(changes):
        page = _page(paper, sheet.landscape)
        if sheet is CHANGES:
            found.append((sheet, changes_sheet(changes or "")))
        else:
            found.append((sheet, _BUILDERS[sheet.file](ruleset, page)))
    return found


def render_sheets(model: Ruleset, fingerprint: str, paper: str = "a4", changes: str | None = None) -> dict[str, bytes]:
    """Every sheet of a ruleset as HTML, by path relative to ``generated/sheets/<ruleset_id>/``.

    ``paper`` is ``a4`` or ``letter``; ``changes`` is the text of ``civrules diff BASE RULESET``
    for a variant, rendered as the "what this variant changes" sheet when given.

    Raises:
        ValueError: ``paper`` is not a known paper size.
    """
    chosen = _paper(paper)
    listed = _sheets(changes)
    files: dict[str, bytes] = {}
    for sheet, context in _contexts(model, chosen, changes):
        files[sheet.file] = _render(model, fingerprint, chosen, sheet, context, listed).encode("utf-8")
    index = _render(model, fingerprint, chosen, INDEX, {"paper": chosen}, listed)
    files[INDEX.file] = index.encode("utf-8")
    return dict(sorted(files.items()))


def _refuse(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    raise ValueError(f"sheets are self-contained; refusing to fetch {url!r}")


def render_pdf(model: Ruleset, fingerprint: str, paper: str = "a4", changes: str | None = None) -> bytes:
    """One PDF with every sheet (the index left out), typeset by WeasyPrint.

    WeasyPrint is imported here, not at module level, so commands that never print stay quick to
    start. Nothing is fetched: the pages have no URL, and the fetcher refuses any all the same.
    """
    import weasyprint  # type: ignore[import-untyped]

    chosen = _paper(paper)
    listed = _sheets(changes)
    documents = []
    logger = logging.getLogger("weasyprint")
    logger.addFilter(_for_browsers_only)
    try:
        for sheet, context in _contexts(model, chosen, changes):
            html = _render(model, fingerprint, chosen, sheet, context, listed)
            documents.append(weasyprint.HTML(string=html, url_fetcher=_refuse).render())
    finally:
        logger.removeFilter(_for_browsers_only)
    pages = [page for document in documents for page in document.pages]
    pdf: bytes = documents[0].copy(pages).write_pdf()
    return pdf


def _for_browsers_only(record: logging.LogRecord) -> bool:
    """Drop WeasyPrint's notice that it ignores ``print-color-adjust`` (it prints backgrounds anyway)."""
    return "print-color-adjust" not in record.getMessage()
