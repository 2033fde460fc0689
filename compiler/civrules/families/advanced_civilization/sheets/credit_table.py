"""The civilization card credits: the credit table where it fits one page, else the credit chart.

The table (owned cards down, targets across, like the back cover of the Advanced Civilization
rulebook) fits one landscape page up to about 40 cards. A larger deck (Mega Civilization's 51,
the Expansion Project's 53, or any variant's) gets the credit chart: one row per card with the
credit it gives to each group and to single cards, which grows with the deck, not its square.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup, escape

from civrules.emit.sheets.common import Notes, Page, environment, label_of, name_of, setting_citation
from civrules.emit.sheets.registry import Source, sheet
from civrules.families.advanced_civilization import FAMILY
from civrules.families.advanced_civilization.credits import credit_matrix
from civrules.families.advanced_civilization.model import Card, Ruleset
from civrules.families.advanced_civilization.sheets.cards import credit_target
from civrules.families.advanced_civilization.sheets.marks import (
    Symbol,
    SymbolsMarkup,
    drawn_note,
    group_marks,
    group_symbols,
    symbols,
)
from civrules.model import Unknown


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
    mark: str = ""
    #: The marks as the ``symbols`` macro writes them, at the table's size.
    symbols_html: Markup = field(default=Markup(""))
    #: The name as its row's heading prints it: its lines, each escaped, joined by ``<br>``.
    row_name: Markup = field(default=Markup(""))
    #: The heading's font size where the name does not fit one line at the table's ("" if it does).
    row_font: str = ""


#: The table's rules (mm): its frame, the rule before each group's first card, each cell's
#: hairline. The table has a set width, so both engines lay it out with the fixed layout: each
#: column is as wide as its ``col`` with its rules inside it, and only the frame's outer halves
#: are added. Until round 34 its width was ``auto``, so the fixed layout never applied: with the
#: automatic layout WeasyPrint added every rule to the columns (a table sized as if they took no
#: room ran 4 mm into the right margin of its PDF, round 20), the columns were sized net of all
#: of them, and each engine then spread the room left over its own way (Chromium 0.26 mm to a
#: card's column, WeasyPrint 1.85 mm to a long-named variant's name column, whose headings' lines
#: were made for 40 mm).
FRAME, GROUP_RULE, HAIRLINE = 0.6, 0.6, 0.15

#: Room left besides the rules, for rounding (mm).
SLACK = 0.5

#: The least size any text of a sheet prints at (mm, the em): an x-height of 0.9 mm in Liberation
#: Sans (see the group marks in ``_macros.j2``, which hold to it too).
PRINT_FLOOR = 1.75

#: The smallest legible credit table: below these a deck gets the credit chart instead (mm).
MIN_COLUMN = 4.6
MIN_ROW = 3.2


def credit_table(ruleset: Ruleset, page: Page, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    """The credit table when it fits one page legibly, else the credit chart (one row per card).

    The table (cards down and across) grows with the square of the deck; the chart (each card's
    credits to each group and to single cards) grows with the deck, so it prints at any size.
    """
    cards = list(ruleset.cards.by_id.values())
    count = max(len(cards), 1)
    notes = Notes()

    # Sizes in mm, measured in Chromium and WeasyPrint. Up to about 30 cards (Advanced Civilization
    # has 24) the names get 40 mm; a larger deck gets smaller type.
    name_width, cost_width = (40.0 if count <= 30 else 30.0), 9.0
    # Net of the frame's outer halves (the other rules lie inside the columns, above) and slack.
    column = min(12.0, (page.content_width - name_width - cost_width - FRAME - SLACK) / count)
    # The table's width: its columns. A fixed layout needs it set (see FRAME above).
    table_width = name_width + cost_width + count * column
    # Everything but the body rows: title, legend line, column labels, cost row, the policy note
    # under the table, the notes of unknown facts, and a little slack for rounding.
    title_height, legend_height, label_height, cost_height, foot_height = 9.5, 6.0, 31.0, 5.0, 8.0
    body = page.content_height - title_height - legend_height - label_height - cost_height - foot_height - 3.0
    body -= 3.5 * len(_topics(cards))
    if column < MIN_COLUMN or body / count < MIN_ROW:
        return credit_chart(ruleset, page, source)
    row = max(MIN_ROW, min(5.8, body / count))
    label_font = min(2.7, column * 0.32)
    matrix = credit_matrix(ruleset)
    top = max((points for row in matrix.values() for points in row.values()), default=0)

    previous: str | None = None
    labelled = []
    marked, symbol_size = SymbolsMarkup(), f"{min(2.9, row * 0.62):.2f}mm"
    font = min(3.0, row * 0.56)
    # A row heading's room for the name: the name column less its padding, the marks' box and a
    # hairline.
    name_room = name_width - 2.0 - (2 * min(2.9, row * 0.62) + 1.8) - HAIRLINE
    for card in cards:
        first = card.group_list()[0] if card.group_list() else ""
        head = CreditCard(
            card.id,
            label_of(card),
            symbols(ruleset, card),
            notes.fact(card.cost, "cost"),
            _needs(ruleset, card, notes),
            previous is not None and first != previous,
            mark=source.changed("civilization_cards", card.id) if source is not None else "",
        )
        previous = first
        label = (
            environment(FAMILY.package)
            .get_template("_column-label.svg.j2")
            .render(
                card=head,
                width=column,
                height=label_height,
                font=label_font,
                symbol=min(3.2, column * 0.36),
                floor=PRINT_FLOOR,
                lines=label_lines,
            )
        )
        row_font, row_lines = row_heading(head.name, name_room - (3.0 if head.mark else 0.0), font, row)
        labelled.append(
            replace(
                head,
                label=Markup(label),
                symbols_html=marked(head.symbols, symbol_size),
                row_name=Markup("<br>").join(escape(line) for line in row_lines),
                row_font=f"{row_font:.2f}mm" if row_font != font else "",
            )
        )
    rows = []
    for owned in labelled:
        credits = matrix.get(owned.id, {})
        cells = []
        for target in labelled:
            points = credits.get(target.id)
            level = math.ceil(5 * points / top) if points and top else 0
            cells.append(CreditCell(points, level, owned.id == target.id))
        rows.append((owned, _cells(cells, labelled)))
    policy = ruleset.credit_policy
    groups = group_symbols(ruleset)
    return {
        "form": "table",
        "cards": labelled,
        "rows": rows,
        "groups": groups,
        "drawn": drawn_note(groups),
        "policy": policy_sentences(policy),
        "policy_rules": setting_citation(ruleset.setting_origins, "credit_policy"),
        "policy_mark": source.setting_mark("credit_policy") if source is not None else "",
        "notes": notes.listed(),
        "geometry": {
            "table": f"{table_width:.2f}mm",
            "frame": f"{FRAME:.2f}mm",
            "group_rule": f"{GROUP_RULE:.2f}mm",
            "hairline": f"{HAIRLINE:.2f}mm",
            "name": f"{name_width:.2f}mm",
            "cost": f"{cost_width:.2f}mm",
            "column": f"{column:.2f}mm",
            "row": f"{row:.2f}mm",
            "label": f"{label_height:.2f}mm",
            "font": f"{font:.2f}mm",
            "symbol": f"{min(2.9, row * 0.62):.2f}mm",
            "symbols": f"{2 * min(2.9, row * 0.62) + 1.8:.2f}mm",
        },
    }


def row_heading(name: str, room: float, font: float, row: float) -> tuple[float, list[str]]:
    """A card's name as its row's heading prints it in ``room`` mm of a ``row`` mm row: at the
    table's ``font`` on one line where it fits; else at the size that fits it on one line, down to
    the sheets' floor (:data:`PRINT_FLOOR`), then broken into the lines the row holds as a column
    label is (:func:`label_lines`: at spaces, a word no line holds with a hyphen at each line's
    end, an ellipsis only when out of lines; the full name is the heading's title).

    Until round 33 the heading never broke: a variant's 66-letter card name made the table
    1379 px wide on a 1123 px page, and Chromium shrank the whole printed page, its smallest text
    to 1.35 mm.

    >>> row_heading("Pottery", 30.0, 3.0, 5.3)
    (3.0, ['Pottery'])
    >>> row_heading("Agriculturalirrigationandfloodplaincultivation", 30.0, 3.0, 5.3)
    (1.75, ['Agriculturalirrigationandfloo-', 'dplaincultivation'])
    """
    width = 0.56 * max(len(name), 1)
    if width * font <= room:
        return font, [name]
    size = max(PRINT_FLOOR, room / width)
    if width * size <= room:
        return size, [name]
    return size, label_lines(name, room, size, 0.56, max(1, int(row / (1.05 * size))))


def label_lines(text: str, room: float, size: float, em: float, most: int) -> list[str]:
    """``text`` as a column label prints it at ``size`` mm (a letter ``em`` of it wide) along
    ``room`` mm: in as few lines as it takes, broken at spaces, at most ``most``. A name is never
    printed smaller than the sheets' floor to fit its cell (:data:`PRINT_FLOOR`): a designer's long
    card name printed at 1 mm. The full name stays the label's accessible name and title, and
    heads the card's row.

    A word longer than the room starts a line and is broken where the room ends, a hyphen at each
    break, as CSS breaks a word no line holds (``overflow-wrap: anywhere``, with the hyphen of
    ``hyphens`` so it reads as one word): no break leaves fewer than two letters on a line. The
    labels are SVG text, which CSS neither breaks nor hyphenates, and no dictionary is at hand
    for every family's language, so the break is by room, not by syllable. Only what ``most``
    lines still do not hold is cut, with an ellipsis. Until round 33 such a word was cut on its
    first line though the cell had room for more lines.

    >>> label_lines("Agriculturalirrigation", 20.0, 2.0, 0.5, 3)
    ['Agriculturalirrigat-', 'ion']
    >>> label_lines("Agriculturalirrigation", 10.0, 2.0, 0.5, 3)
    ['Agricultu-', 'ralirriga-', 'tion']
    >>> label_lines("Agriculturalirrigation", 10.0, 2.0, 0.5, 2)
    ['Agricultu-', 'ralirriga…']
    """
    fits = max(2, int(room / (em * size)))
    found: list[str] = []
    for word in text.split():
        if found and len(found[-1]) + 1 + len(word) <= fits:
            found[-1] += " " + word
            continue
        while len(word) > fits and fits >= 5:
            # The piece a line holds with its hyphen, leaving at least two letters for the next.
            piece = min(fits - 1, len(word) - 2)
            found.append(word[:piece] + "-")
            word = word[piece:]
        found.append(word)
    cut = [line if len(line) <= fits else line[: fits - 1] + "\u2026" for line in found or [""]]
    if len(cut) > most:
        last = cut[most - 1].removesuffix("-") if cut[most - 1].endswith("-") else cut[most - 1][: fits - 1]
        cut = [*cut[: most - 1], last.rstrip() + "\u2026"]
    return cut


def _cells(cells: list[CreditCell], cards: list[CreditCard]) -> Markup:
    """A row's cells of the credit table, one ``<td>`` a line: the table's square of cells (576 for
    Advanced Civilization's 24 cards) written here in one pass, not a template loop whose every
    attribute look-up goes through Jinja (a sixth of a ruleset's sheets)."""
    return Markup(
        "".join(
            f'<td class="c l{escape(cell.level)}{" diag" if cell.diagonal else ""}{" gs" if card.group_start else ""}">'
            f"{escape(cell.points) if cell.points else ''}</td>\n"
            for cell, card in zip(cells, cards, strict=True)
        )
    )


def _topics(cards: list[Card]) -> set[str]:
    """Which of costs and prerequisites have unknowns (each is one line of notes under the table)."""
    return {
        topic
        for card in cards
        for topic, value in (("cost", card.cost), ("prerequisites", card.prerequisites))
        if isinstance(value, Unknown)
    }


def _needs(ruleset: Ruleset, card: Card, notes: Notes) -> str:
    if isinstance(card.prerequisites, Unknown):
        return notes.fact(card.prerequisites, "prerequisites")
    return ", ".join(name_of(ruleset.cards, p) for p in card.prerequisites)


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One card of the credit chart: its marks, facts, and the credits it gives."""

    id: str
    name: str
    symbols: list[Symbol]
    groups: str
    cost: str
    prerequisites: str
    to_groups: list[str]
    to_cards: list[str]
    group_start: bool
    mark: str
    #: The marks as the ``symbols`` macro writes them, at the chart's size.
    symbols_html: Markup = field(default=Markup(""))


def credit_chart(ruleset: Ruleset, page: Page, source: Source[Ruleset] | None = None) -> dict[str, Any]:
    """The credit chart: one row per card with the credit it gives to each group and to single cards.

    Read down the column of the group of the card you want: each card you hold gives that much.
    """
    notes = Notes()
    marks = group_marks(ruleset)
    marked = SymbolsMarkup()
    group_ids = list(marks)
    rows = []
    previous: str | None = None
    for card in ruleset.cards.by_id.values():
        first = card.group_list()[0] if card.group_list() else ""
        if isinstance(card.credits, Unknown):
            to_groups = [notes.fact(card.credits, "credits")] * len(group_ids)
            to_cards: list[str] = []
        else:
            by_group: dict[str, list[str]] = {}
            to_cards = []
            for line in card.credits:
                points = notes.fact(line.points, "credit")
                extra = " extra" if line.extra else ""
                if line.card is not None:
                    to_cards.append(f"{credit_target(ruleset, line)} {points}{extra}")
                elif line.group in marks:
                    by_group.setdefault(line.group, []).append(f"{points}{extra}")
                elif line.group is not None:
                    to_cards.append(f"all {name_of(ruleset.groups, line.group)} {points}{extra}")
            to_groups = [" + ".join(by_group.get(g, [])) for g in group_ids]
        rows.append(
            ChartRow(
                card.id,
                label_of(card),
                symbols(ruleset, card),
                notes.fact(card.groups, "group") if isinstance(card.groups, Unknown) else "",
                notes.fact(card.cost, "cost"),
                _needs(ruleset, card, notes) or "—",
                to_groups,
                to_cards,
                previous is not None and first != previous,
                source.changed("civilization_cards", card.id) if source is not None else "",
                marked(symbols(ruleset, card), "2.8mm"),
            )
        )
        previous = first
    groups = group_symbols(ruleset)
    if sum(r.group_start for r in rows) >= len(groups):  # not ordered by group: no group rules
        rows = [replace(r, group_start=False) for r in rows]
    policy = ruleset.credit_policy
    cards = list(ruleset.cards.by_id.values())
    # A column no card knows is left out, and said once above the chart.
    all_unknown = [
        f"{topic} {notes.fact(next(iter(values)), topic)}"
        for topic, values in (("cost", [c.cost for c in cards]), ("prerequisites", [c.prerequisites for c in cards]))
        if values and all(isinstance(v, Unknown) for v in values)
    ]
    fixed = 44.0 + 11.0 + 48.0
    group_width = max(9.0, min(16.0, (page.content_width - fixed - 40.0) / max(len(groups), 1)))
    return {
        "form": "chart",
        "count": len(rows),
        "how": chart_how(policy),
        "rows": rows,
        "groups": groups,
        "drawn": drawn_note(groups),
        "policy": policy_sentences(policy),
        "policy_rules": setting_citation(ruleset.setting_origins, "credit_policy"),
        "policy_mark": source.setting_mark("credit_policy") if source is not None else "",
        "notes": notes.listed(),
        "variant": source is not None and source.variant,
        "all_unknown": all_unknown,
        "with_cost": not any(text.startswith("cost") for text in all_unknown),
        "with_needs": not any(text.startswith("prerequisites") for text in all_unknown),
        "geometry": {"group": f"{group_width:.2f}mm"},
    }


@sheet(
    "credit-table.html",
    "Civilization card credits",
    "Owned cards down, cards to buy across: the credit each owned card gives, with costs and prerequisites.",
    position=10,
    landscape=True,
    sources=("civilization_cards",),
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    return credit_table(source.ruleset, source.page, source)


def chart_how(policy: Mapping[str, Any]) -> str:
    """How to add the chart's credits up, as the ruleset's policy says."""
    if policy.get("two_group_cards") == "highest_group":
        return (
            "Add each column up over the cards you hold: a card of one group costs its price less its group's "
            "total; a card of two groups, less the larger of its two groups' totals (never both). The credits "
            "toward it by name add on."
        )
    return "Add them up: the card costs its price less the total."


def policy_sentences(policy: Mapping[str, Any]) -> list[str]:
    """The ruleset's credit policy in words, one sentence per declared rule."""
    said = []
    highest = policy.get("two_group_cards") == "highest_group"
    if policy.get("across_owned_cards") == "sum":
        said.append(
            "The credits of all cards held add up, group by group; a card costs its price less their total."
            if highest
            else "The credits of all cards held add up; a card costs its price less their total."
        )
    if policy.get("group_credits") == "other_cards_in_group":
        said.append("A credit toward a group goes to every other card of that group.")
    if policy.get("two_group_cards") == "both_groups":
        said.append("A card of two groups receives the credits toward either.")
    elif highest:
        said.append(
            "A card of two groups receives only the credits of the group whose credits held total more, "
            "never both; the credits toward it by name add on."
        )
    if policy.get("same_target") == "highest":
        said.append("Where one card held credits a card twice, the higher credit counts.")
    elif policy.get("same_target") == "sum":
        said.append("Where one card held credits a card twice, both credits count.")
    return said
