"""The civilization card credit table: owned cards down, targets across, like the back cover of the
Advanced Civilization rulebook; one landscape page."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup

from civrules.credits import credit_matrix
from civrules.emit.sheets.common import (
    Page,
    Symbol,
    environment,
    group_symbols,
    known,
    name_of,
    rules_text,
    symbols,
)
from civrules.emit.sheets.registry import Source, sheet
from civrules.model import Ruleset, Unknown


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
            needs = ", ".join(name_of(ruleset.cards, p) for p in card.prerequisites)
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


@sheet(
    "credit-table.html",
    "Civilization card credits",
    "Owned cards down, cards to buy across: the credit each owned card gives, with costs and prerequisites.",
    position=10,
    landscape=True,
    sources=("civilization_cards",),
)
def build(source: Source) -> Mapping[str, Any]:
    return credit_table(source.ruleset, source.page)


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
