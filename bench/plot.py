"""The scaling series as a picture: ``bench/scaling.svg``, drawn from bench/run.py's results with the
standard library alone (the SVG is built as an element tree and serialized, never as text).

Left: the time of validate + build at k times the data, as a multiple of the 1x time, on log-log
axes, one line per family, beside the linear line (k) and the target (1.2 k): a family whose line
stays under the target grows linearly. Right: the peak memory at each scale, beside the targets of
150 MB at 50x and 250 MB at 100x.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

PLOT = Path(__file__).resolve().parent / "scaling.svg"
#: One colour per family, in the order of their ids (colour-blind-safe: Okabe and Ito's palette).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
WIDTH, HEIGHT, PANEL, MARGIN = 960, 460, 400, 60
MEMORY_TARGETS = {50: 150.0, 100: 250.0}


def scaling_svg(scaling: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """The SVG of the series: {family: {scale: row}} as bench/run.py records them."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(WIDTH),
            "height": str(HEIGHT),
            "font-family": "sans-serif",
        },
    )
    ET.SubElement(svg, "title").text = "civrules: validate + build at k times the data, per family"
    ET.SubElement(svg, "rect", {"width": str(WIDTH), "height": str(HEIGHT), "fill": "white"})
    families = sorted(scaling)
    scales = sorted({int(scale) for rows in scaling.values() for scale in rows})
    if not scales:
        return _text(svg)
    ratios = [row["time_vs_1x"] for rows in scaling.values() for row in rows.values()]
    low, top = min(1.0, *ratios) / 1.2, max(scales[-1] * 1.2, *ratios) * 1.2
    time_panel = _Panel(
        svg, MARGIN, "time / time at 1x (log)", "k x the data (log)", (scales[0], scales[-1]), (low, top)
    )
    time_panel.line([(k, k) for k in scales], "#999999", dash="6 4", label="linear")
    time_panel.line([(k, 1.2 * k) for k in scales], "#999999", dash="2 3", label="target 1.2 k")
    memory = [row["peak_rss_mb"] for rows in scaling.values() for row in rows.values()] + list(MEMORY_TARGETS.values())
    memory_panel = _Panel(
        svg, MARGIN * 2 + PANEL, "peak memory, MB (log)", "k x the data (log)", (scales[0], scales[-1]),
        (max(1.0, min(memory) / 1.5), max(memory) * 1.5),
    )  # fmt: skip
    for scale, target in MEMORY_TARGETS.items():
        if scales[0] <= scale <= scales[-1]:
            memory_panel.mark(scale, target, f"target {target:g} MB at {scale}x")
    for index, family in enumerate(families):
        rows = scaling[family]
        colour = COLOURS[index % len(COLOURS)]
        ordered = sorted(rows.items(), key=lambda item: int(item[0]))
        time_panel.line([(int(k), row["time_vs_1x"]) for k, row in ordered], colour, label=family, marked=True)
        memory_panel.line([(int(k), row["peak_rss_mb"]) for k, row in ordered], colour, marked=True)
    return _text(svg)


def _text(svg: ET.Element) -> str:
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


class _Panel:
    """One log-log chart at ``left``: axes with ticks at the powers of ten and the scales drawn."""

    def __init__(
        self,
        svg: ET.Element,
        left: int,
        y_title: str,
        x_title: str,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
    ) -> None:
        self.svg, self.left, self.top, self.size = svg, left, 30, PANEL - 40
        self.x_range = (math.log10(x_range[0]), math.log10(x_range[1]))
        self.y_range = (math.log10(y_range[0]), math.log10(y_range[1]))
        self.legend = 0
        bottom = self.top + self.size
        ET.SubElement(svg, "rect", self._box(left, self.top, self.size, self.size, fill="none", stroke="#333333"))
        placed_x: list[float] = []
        for tick in sorted(_ticks(*x_range), key=lambda t: (t in x_range, t)):
            x = self.x(tick)
            if any(abs(x - other) < 24 for other in placed_x):
                continue
            placed_x.append(x)
            ET.SubElement(svg, "line", self._box2(x, bottom, x, bottom + 5))
            self._label(x, bottom + 18, f"{tick:.3g}", anchor="middle")
        placed: list[float] = []
        for tick in sorted(_ticks(*y_range), key=lambda t: (t in y_range, t)):  # the ends give way
            y = self.y(tick)
            if any(abs(y - other) < 14 for other in placed):
                continue
            placed.append(y)
            ET.SubElement(svg, "line", self._box2(left - 5, y, left, y))
            ET.SubElement(svg, "line", {**self._box2(left, y, left + self.size, y), "stroke": "#eeeeee"})
            self._label(left - 8, y + 4, f"{tick:.3g}", anchor="end")
        self._label(left + self.size / 2, bottom + 36, x_title, anchor="middle")
        self._label(left, self.top - 10, y_title, anchor="start")

    def x(self, value: float) -> float:
        low, high = self.x_range
        return self.left + (math.log10(value) - low) / ((high - low) or 1) * self.size

    def y(self, value: float) -> float:
        low, high = self.y_range
        return self.top + self.size - (math.log10(value) - low) / ((high - low) or 1) * self.size

    def line(
        self,
        points: Sequence[tuple[float, float]],
        colour: str,
        *,
        dash: str | None = None,
        label: str | None = None,
        marked: bool = False,
    ) -> None:
        path = " ".join(f"{self.x(x):.1f},{self.y(y):.1f}" for x, y in points)
        attributes = {"points": path, "fill": "none", "stroke": colour, "stroke-width": "2"}
        if dash:
            attributes["stroke-dasharray"] = dash
        ET.SubElement(self.svg, "polyline", attributes)
        if marked:
            for x, y in points:
                ET.SubElement(
                    self.svg, "circle", {"cx": f"{self.x(x):.1f}", "cy": f"{self.y(y):.1f}", "r": "3.5", "fill": colour}
                )
        if label:
            y = self.top + 16 + 16 * self.legend
            self.legend += 1
            ET.SubElement(
                self.svg, "line", {**self._box2(self.left + 10, y - 4, self.left + 34, y - 4), "stroke": colour}
            )
            self._label(self.left + 40, y, label, anchor="start")

    def mark(self, x: float, y: float, label: str) -> None:
        """A target: a hollow square at (x, y), labelled."""
        cx, cy = self.x(x), self.y(y)
        ET.SubElement(self.svg, "rect", self._box(cx - 5, cy - 5, 10, 10, fill="none", stroke="#333333"))
        self._label(cx - 8, cy - 8, label, anchor="end")

    def _label(self, x: float, y: float, text: str, *, anchor: str) -> None:
        attributes = {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": "12", "text-anchor": anchor}
        ET.SubElement(self.svg, "text", attributes).text = text

    @staticmethod
    def _box(x: float, y: float, width: float, height: float, **style: str) -> dict[str, str]:
        return {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{width:.1f}", "height": f"{height:.1f}", **style}

    @staticmethod
    def _box2(x1: float, y1: float, x2: float, y2: float) -> dict[str, str]:
        return {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}", "y2": f"{y2:.1f}", "stroke": "#333333"}


def _ticks(low: float, high: float) -> list[float]:
    """The powers of ten and their halves within [low, high], and the ends."""
    found = {low, high}
    power = 10 ** math.floor(math.log10(low))
    while power <= high:
        for step in (1, 5):
            if low <= power * step <= high:
                found.add(power * step)
        power *= 10
    return sorted(found)
