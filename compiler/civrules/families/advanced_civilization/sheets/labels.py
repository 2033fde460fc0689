"""Where the map picture puts each area's label, so that no label covers another.

Text widths are estimated from the metrics of Helvetica, which Liberation Sans and Arial (the
fonts the picture names) share, with a margin: no font is loaded, so the estimate is the same on
every machine. Each label tries places around its area (below, above, beside, the corners), then
the same farther out, with a thin line back to its area; the first place that covers no label
placed before it and no area mark wins, else the one that covers least. Areas with the most
neighbours close by choose first. The result is a pure function of the positions and the names.

>>> boxes = place_labels([("a", 100.0, 100.0, "Athens", ""), ("b", 100.0, 118.0, "Sparta", "")], 1000.0, 600.0)
>>> overlaps([box for box, _ in boxes.values()])
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Helvetica's advance widths (per 1000 units of the font size), printable ASCII from the space on.
_WIDTHS = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)  # fmt: skip
#: Ascent and descent of Liberation Sans, in ems (what a browser's text box spans).
ASCENT, DESCENT = 0.905, 0.212
#: The font sizes of an area's name and of the nation under a start area's name.
NAME_SIZE, NATION_SIZE = 11.5, 10.0
#: Room kept between a label and anything else, in user units (the white halo is 1.5 wide).
MARGIN = 2.0
#: How far an area's mark reaches from its centre (the start ring, the city square, the volcano).
MARK = 13.0


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The estimated advance of ``text`` at ``size`` (bold is about a tenth wider)."""
    units = sum(_WIDTHS[ord(ch) - 32] if 32 <= ord(ch) < 127 else 667 for ch in text)
    return units * size / 1000 * (1.1 if bold else 1.0) * 1.04


@dataclass(frozen=True, slots=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: Box) -> bool:
        across = self.left < other.right and other.left < self.right
        return across and self.top < other.bottom and other.top < self.bottom

    def shared(self, other: Box) -> float:
        if not self.meets(other):
            return 0.0
        return (min(self.right, other.right) - max(self.left, other.left)) * (
            min(self.bottom, other.bottom) - max(self.top, other.top)
        )


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a label is drawn: the baseline of the name (centred on ``x``), that of the nation under
    it (0 when none), and the line back to the area when the label stands off."""

    x: float
    y: float
    nation_y: float
    leader: tuple[float, float, float, float] | None


#: Directions tried, as (horizontal, vertical) unit steps: below first, as the picture always did.
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
#: How far out a label may stand, in steps of the area's reach.
_DISTANCES = (1.0, 1.9, 2.8, 3.8)


def place_labels(
    areas: Sequence[tuple[str, float, float, str, str]], width: float, height: float
) -> dict[str, tuple[Box, Placed]]:
    """The box and place of the label of each ``(id, x, y, name, nation)``, inside ``width`` x ``height``."""
    sizes = {}
    for key, _, _, name, nation in areas:
        w = max(text_width(name, NAME_SIZE), text_width(nation, NATION_SIZE, bold=True) if nation else 0.0)
        h = (ASCENT + DESCENT) * NAME_SIZE + ((ASCENT + DESCENT) * NATION_SIZE + 1.0 if nation else 0.0)
        sizes[key] = (w + 2 * MARGIN, h + 2 * MARGIN)
    marks = [Box(x - MARK, y - MARK - 3, x + MARK, y + MARK) for _, x, y, _, _ in areas]

    def crowd(area: tuple[str, float, float, str, str]) -> tuple[int, str]:
        _, x, y, _, _ = area
        near = sum(1 for _, ox, oy, _, _ in areas if abs(ox - x) < 80 and abs(oy - y) < 40)
        return (-near, area[0])

    placed: dict[str, tuple[Box, Placed]] = {}
    boxes: list[Box] = []
    for index_key in sorted(areas, key=crowd):
        key, x, y, name, nation = index_key
        w, h = sizes[key]
        best: tuple[float, float, Box, float, float] | None = None
        for distance in _DISTANCES:
            for dx, dy in _DIRECTIONS:
                reach = MARK * distance
                cx = x + dx * (reach + w / 2 if dx else 0.0)
                cy = y + dy * (reach + h / 2) if dy else y
                if dx and not dy:
                    cy = y
                box = Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                outside = max(0.0, -box.left) + max(0.0, box.right - width)
                outside += max(0.0, -box.top) + max(0.0, box.bottom - height)
                covered = sum(box.shared(other) for other in boxes)
                hidden = sum(box.shared(mark) for i, mark in enumerate(marks) if areas[i][0] != key)
                score = (covered * 10 + hidden + outside * 1000, distance)
                if best is None or score < (best[0], best[1]):
                    best = (score[0], distance, box, cx, cy)
                if score[0] == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        _, distance, box, cx, cy = best
        top = cy - h / 2 + MARGIN
        baseline = top + ASCENT * NAME_SIZE
        nation_y = baseline + DESCENT * NAME_SIZE + 1.0 + ASCENT * NATION_SIZE if nation else 0.0
        leader = None
        if distance > 1.0:
            ex = min(max(x, box.left), box.right)
            ey = min(max(y, box.top), box.bottom)
            length = ((ex - x) ** 2 + (ey - y) ** 2) ** 0.5 or 1.0
            sx, sy = x + (ex - x) * 8.0 / length, y + (ey - y) * 8.0 / length  # from the mark's edge
            leader = (round(sx, 1), round(sy, 1), round(ex, 1), round(ey, 1))
        boxes.append(Box(box.left + MARGIN / 2, box.top + MARGIN / 2, box.right - MARGIN / 2, box.bottom - MARGIN / 2))
        placed[key] = (box, Placed(round(cx, 1), round(baseline, 1), round(nation_y, 1), leader))
    return placed


def overlaps(boxes: Sequence[Box]) -> list[tuple[int, int]]:
    """The pairs of boxes that meet."""
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if boxes[i].meets(boxes[j])]
