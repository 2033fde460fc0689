"""The map picture's SVG is rendered once per run for the same picture, and the text is the same
as rendering it anew, title included (issue 32, point 6: an `extends` chain drew one picture 60 times)."""

from __future__ import annotations

import dataclasses

import pytest
from markupsafe import escape

from civrules.families.advanced_civilization.model import Ruleset, of_family
from civrules.families.advanced_civilization.sheets import svgmap
from tests.rulefiles import shipped_analysis


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    return of_family(analysis.model)


@pytest.mark.parametrize("name", ["Advanced Civilization", "A <b>\"bold\"</b> & 'quoted' map", "<civrules-map-title/>"])
def test_a_reused_picture_is_the_picture_rendered_anew(ruleset: Ruleset, name: str) -> None:
    renamed = dataclasses.replace(ruleset, name=name)
    svgmap._svg_text.cache_clear()
    first = svgmap.map_svg(ruleset, 180.0, 240.0)
    again = svgmap.map_svg(renamed, 180.0, 240.0)
    assert svgmap._svg_text.cache_info().hits == 1
    expected = (
        svgmap.environment()
        .get_template("map-graph.svg.j2")
        .render(
            picture=svgmap.picture(renamed, 240.0 / 180.0, None),
            width_mm="180.0",
            height_mm="240.0",
            standalone=False,
            title=f"Map graph of {name}",
        )
    )
    assert str(again) == expected
    assert str(first) == expected.replace(
        str(escape(f"Map graph of {name}")), str(escape("Map graph of Advanced Civilization"))
    )
