"""Sid Meier's Civilization's player helper (generated/helpers/<ruleset>.html) in Chromium, offline:
the pyramid planner's answers held equal to the engine package's (`may_place_technology` for every
technology × {an empty pyramid, each single technology, a technology listed twice, seeded random
pyramids} with and without a starting technology, `pyramid_needs`, `research_cost` and
`trade_after_research` for every level, trade and coins, with no wonder, each wonder and a wonder
listed twice), the package answering in this process (tests/variant_packages.run_script): where
it refuses a technology or a wonder listed twice (OutOfDomainError), the page answers null."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.browser import Browser
from tests.conftest import REPO
from tests.families.advanced_civilization.test_helpers import open_offline
from tests.generated.test_sheet_languages import misplaced, name_languages
from tests.variant_packages import run_script

GENERATED = REPO / "generated"
RULESETS = ("sid-meiers-civilization", "sid-meiers-civilization-community")

#: The package's answers (run with the package on PYTHONPATH): argv = package, seed, draws.
_PACKAGE = r"""
import importlib, json, random, sys
from civrules_runtime.errors import UnknownFactError
h = importlib.import_module(f"civrules_rulesets.{sys.argv[1]}.helpers")
d = importlib.import_module(f"civrules_rulesets.{sys.argv[1]}.data")
def ask(f, *a):
    try:
        return f(*a)
    except UnknownFactError:
        return "unknown"
    except ValueError:
        return None
def needs(pyramid, start):
    return [{"level": k, "needs": v} for k, v in h.pyramid_needs(pyramid, start).items()]
techs = list(d.TECHNOLOGIES)
rng = random.Random(int(sys.argv[2]))
drawn = [sorted(rng.sample(techs, rng.randint(2, min(10, len(techs))))) for _ in range(int(sys.argv[3]))]
pyramids = [[], *([t] for t in techs), [techs[1], techs[1]], *drawn]
wonders = [[], *([w] for w in d.WONDERS), *([w, w] for w in d.WONDERS)]
starts = [None, techs[0]]
out = {
  "place": [
    {"held": p, "tech": t, "start": s, "ok": ask(h.may_place_technology, p, t, s)}
    for p in pyramids for t in techs for s in starts
  ],
  "needs": [
    {"held": p, "start": s, "needs": ask(needs, p, s)}
    for p in pyramids for s in starts
  ],
  "cost": [{"level": l, "wonders": w, "cost": ask(h.research_cost, l, w)} for l in range(1, 6) for w in wonders],
  "after": [
    {"level": l, "trade": t, "coins": c, "wonders": w, "left": ask(h.trade_after_research, l, t, c, w)}
    for l in range(1, 6) for t in range(0, 31, 3) for c in range(0, 6) for w in wonders[:1] + wonders[-1:]
  ],
}
print(json.dumps(out))
"""

_ASK = """(function (q) {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  var U = civrules.isUnknown;
  function a(v) { return U(v) ? "unknown" : v; }
  return JSON.stringify({
    place: q.place.map(function (x) { return a(E.call("may_place", [x.held, x.tech, x.start])); }),
    needs: q.needs.map(function (x) { return a(E.call("pyramid_needs", [x.held, x.start])); }),
    cost: q.cost.map(function (x) { return a(E.call("research_cost", [x.level, x.wonders])); }),
    after: q.after.map(function (x) { return a(E.call("trade_after", [x.level, x.trade, x.coins, x.wonders])); })
  });
})(%s)"""


def _package(ruleset_id: str, draws: int) -> dict[str, Any]:
    printed = run_script(GENERATED / "python", _PACKAGE, ruleset_id.replace("-", "_"), "7", str(draws))
    answers: dict[str, Any] = json.loads(printed)
    return answers


def _hold_equal(browser: Browser, draws: int) -> None:
    for ruleset_id in RULESETS:
        expected = _package(ruleset_id, draws)
        with open_offline(browser, GENERATED / "helpers" / f"{ruleset_id}.html") as page:
            got = json.loads(page.evaluate(_ASK % json.dumps(expected)))
            # The names its script wrote (the technologies' table) each in their language (round 30).
            assert misplaced(page.evaluate("document.documentElement.outerHTML"), name_languages(ruleset_id)) == []
        for key, field in (("place", "ok"), ("needs", "needs"), ("cost", "cost"), ("after", "left")):
            for question, answer in zip(expected[key], got[key], strict=True):
                assert answer == question[field], f"{ruleset_id} {key}: {question}: the page says {answer}"
        twice = [q for q in expected["place"] + expected["needs"] if len(set(q["held"])) < len(q["held"])]
        twice += [q for q in expected["cost"] + expected["after"] if len(set(q["wonders"])) < len(q["wonders"])]
        assert twice and all(q.get("ok", q.get("needs", q.get("cost", q.get("left")))) is None for q in twice)


def test_the_pyramid_planner_answers_as_the_engine_package(browser: Browser) -> None:
    _hold_equal(browser, 3)


@pytest.mark.slow
def test_the_pyramid_planner_answers_as_the_engine_package_for_fifty_random_pyramids(browser: Browser) -> None:
    _hold_equal(browser, 50)


def test_ticking_technologies_updates_what_the_victory_needs(browser: Browser) -> None:
    page_path = GENERATED / "helpers" / "sid-meiers-civilization-community.html"
    with open_offline(browser, page_path) as page:
        before = page.evaluate("document.getElementById('victory').textContent")
        first = page.evaluate("document.querySelector('input[data-tech]').getAttribute('data-tech')")
        page.evaluate("document.querySelector('input[data-tech]').click()")
        after = page.evaluate("document.getElementById('victory').textContent")
        assert before != after and "still needs" in after
        assert f"t.{first}=1" in page.evaluate("location.hash")
        disabled = page.evaluate(
            "Array.from(document.querySelectorAll('input[data-tech]:disabled')).map(e => e.dataset.tech)"
        )
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('#technologies tr[data-tech]'))"
            ".filter(r => r.querySelector('td.may-place').textContent === 'no').map(r => r.dataset.tech)"
        )
        assert disabled and disabled == shown  # legal placements only


def test_a_reason_many_figures_share_is_one_note_under_the_table(browser: Browser) -> None:
    """The base game's rulebook gives no technology its level, for one reason: before round 31 each
    of 77 cells of the planner said that reason in full (some 40 words), a table three screens long
    that a phone showed a word a line. A cell now reads "unknown (note N)", the reason in its title,
    and the reasons follow the table once each, in the order the cells first give them."""
    with open_offline(browser, GENERATED / "helpers" / "sid-meiers-civilization.html") as page:
        cells = json.loads(
            page.evaluate(
                "JSON.stringify(Array.from(document.querySelectorAll('#technologies td .unknown'))"
                ".map(e => [e.textContent, e.title]))"
            )
        )
        notes = json.loads(
            page.evaluate(
                "JSON.stringify(Array.from(document.querySelectorAll('#technologies-notes li'))"
                ".map(e => e.textContent))"
            )
        )
    reasons = list(dict.fromkeys(title for _, title in cells))
    assert len(cells) > len(reasons) >= 1
    assert notes == [f"unknown: {reason}" for reason in reasons]
    assert all(said == f"unknown (note {reasons.index(title) + 1})" for said, title in cells)


def test_a_screenshot_of_the_pyramid_planner_for_the_readme(browser: Browser, tmp_path: Path) -> None:
    """docs/helpers-pyramid.png: written when missing (or with CIVRULES_UPDATE_SCREENSHOT=1)."""
    target = REPO / "docs" / "helpers-pyramid.png"
    page_path = GENERATED / "helpers" / "sid-meiers-civilization-community.html"
    with open_offline(browser, page_path, "#trade=14&coins=2", size=(1000, 720)) as page:
        techs = page.evaluate("Array.from(document.querySelectorAll('input[data-tech]')).map(e => e.dataset.tech)")
        for tech in techs[:5]:  # in order: a technology with no legal space is disabled, its click does nothing
            page.evaluate(f"document.querySelector('input[data-tech={tech}]').click()")
        page.evaluate("document.getElementById('victory').scrollIntoView()")
        shot = tmp_path / target.name
        shot.write_bytes(page.screenshot())
    assert shot.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("CIVRULES_UPDATE_SCREENSHOT") == "1" or not target.exists():
        shutil.copyfile(shot, target)
    assert target.exists()


def test_more_trade_than_the_dial_holds_is_refused_as_the_package_refuses_it(browser: Browser) -> None:
    """The dial holds 27 trade (trade.dial_max, p3): the page answered "Trade left after: 3" for 40
    trade, as the package did (player audit, round 20, defect 5); both refuse it now."""
    page_path = GENERATED / "helpers" / "sid-meiers-civilization.html"
    ask = (
        "(function () {"
        " var E = new civrules.Evaluator(civrules.data('civrules-tables'), civrules.data('civrules-rules'));"
        " return JSON.stringify([E.call('trade_after', [1, 28, 0, []]), E.call('trade_after', [1, 27, 3, []])]); })()"
    )
    after = "Array.from(document.querySelectorAll('#technologies td.after')).map(c => c.textContent)"
    with open_offline(browser, page_path, "#trade=40&coins=3") as page:
        assert json.loads(page.evaluate(ask)) == [None, 3]
        assert page.evaluate("document.getElementById('trade').getAttribute('max')") == "27"
        said = page.evaluate("document.getElementById('trade-refused').textContent")
        assert said.startswith("Not counted: the trade dial holds at most 27 trade (p3/") and said.endswith(
            ", not 40."
        ), said
        assert page.evaluate("document.getElementById('trade-refused').hidden") is False
        cells = page.evaluate(after)
        assert "more trade than the dial holds" in cells and "3" not in cells
    with open_offline(browser, page_path, "#trade=27&coins=3") as page:
        assert page.evaluate("document.getElementById('trade-refused').hidden") is True
        assert "3" in page.evaluate(after)


_TABLES = re.compile(r'<script type="application/json" id="civrules-tables">(.*?)</script>', re.S)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_what_a_technology_unlocks_is_named_as_the_package_names_it(ruleset_id: str) -> None:
    """The Unlocks column gives the names a player reads on the cards (the package's ``name`` of each
    building, unit type, government and wonder; a unit with its rank, as the pyramid sheet words it),
    never the data's ids: before round 31 it read "puesto_comercial, republic" and "cavalaria 2".
    Read in process, from the page's tables and the committed package's data."""
    if str(GENERATED / "python") not in sys.path:
        sys.path.insert(0, str(GENERATED / "python"))
    data = importlib.import_module(f"civrules_rulesets.{ruleset_id.replace('-', '_')}.data")
    html = (GENERATED / "helpers" / f"{ruleset_id}.html").read_text(encoding="utf-8")
    found = _TABLES.search(html)
    assert found is not None
    technologies = json.loads(found.group(1))["technologies"]
    named = 0
    for tech_id, tech in data.TECHNOLOGIES.items():
        u = tech.unlocks
        want = None if u is None else {
            "buildings": [data.BUILDINGS[b].name for b in u.buildings],
            "units": [f"{data.UNIT_TYPES[x.type].name} rank {x.rank}" for x in u.units],
            "governments": [data.GOVERNMENTS[g].name for g in u.governments],
            "wonders": [data.WONDERS[w].name for w in u.wonders],
        }  # fmt: skip
        assert technologies[tech_id]["unlocks"] == want, tech_id
        named += 0 if want is None else sum(map(len, want.values()))
    assert named


COMMUNITY = "sid-meiers-civilization-community"


def _sailing(page: Any) -> list[str]:
    """Sailing's row of the planner: level, may place now, research cost, trade left after."""
    cells: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('tr[data-tech=sailing] td')).slice(1, 5).map(c => c.textContent)"
    )
    return cells


@pytest.mark.slow  # four tabs
@pytest.mark.parametrize(
    ("ruleset_id", "state", "row"),
    [
        # The rulebook's research examples: Sailing, a level II technology, needs 11 trade on the dial;
        # with 18 the dial goes to 0 (Exemplo 1), and with 4 coins it keeps 4 (Exemplo 2).
        ("sid-meiers-civilization", "#trade=18", ["2", "no", "11", "0"]),
        ("sid-meiers-civilization", "#trade=18&coins=4", ["2", "no", "11", "4"]),
        # "E um espaço legal na pirâmide": two level I technologies hold a level II one (the
        # community ruleset gives levels to the technologies the rulebook leaves without one).
        (COMMUNITY, "#t.animal_husbandry=1&t.agriculture=1&trade=18&coins=4", ["2", "yes", "11", "4"]),
        (COMMUNITY, "#t.animal_husbandry=1&trade=18", ["2", "no", "11", "0"]),
    ],
)  # fmt: skip
def test_the_pyramid_planner_works_the_rulebooks_research_examples(
    browser: Browser, ruleset_id: str, state: str, row: list[str]
) -> None:
    with open_offline(browser, GENERATED / "helpers" / f"{ruleset_id}.html", state) as page:
        assert _sailing(page) == row


@pytest.mark.slow  # one tab
def test_the_pyramid_planner_says_what_the_rulebooks_technology_victory_needs(browser: Browser) -> None:
    """p12, "A Pirâmide de Tecnologia": Space Flight, level V, tops the pyramid, each level stands on
    one more of the level below, and the technology victory takes "um total de 15 tecnologias":
    5 + 4 + 3 + 2 + 1, what an empty pyramid still needs (in the base game too, whose technologies
    mostly have no level)."""
    for ruleset_id in ("sid-meiers-civilization", COMMUNITY):
        with open_offline(browser, GENERATED / "helpers" / f"{ruleset_id}.html") as page:
            said = page.evaluate("document.getElementById('victory').textContent")
        assert said.startswith(
            "The technology victory still needs: 5 of level 1, 4 of level 2, 3 of level 3, 2 of level 4, 1 of level 5 "
        ), (ruleset_id, said)
