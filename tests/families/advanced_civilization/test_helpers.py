"""The interactive player helpers (generated/helpers/<ruleset>.html) of the Advanced Civilization family.

The pages are driven in the real headless Chromium (tests/browser.py, one browser for the module),
opened from file:// with the network emulated offline, and their answers are held equal to the
engine packages' helpers for the same inputs: every target card × {nothing held, each single card
held, seeded random holdings, a holding listing a card twice: refused by both} for prices and
credits; every calamity effect × its role × {no cards,
each modifying card, all of them}; every good × set size × Mining, and × the trade blocks given
(the package's refusals of them the page's too); every epoch × cities × holdings.
The package's answers come from package_answers.py, run in this process against the packages of
a build's folder in place of the shipped ones (tests/variant_packages.py), so that a house
variant's package, built into a temporary folder, answers too. `make test` holds the largest ruleset's page
equal to its package (3 random holdings) and its credits cell by cell; `make test-slow` every
ruleset's (50 random holdings): each page is a second or more of Chromium's CPU.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit.helpers import embed_json
from civrules.emit.helpers.render import page_html, render_helper
from civrules.pipeline import analyse
from tests import shipped
from tests.browser import Browser, Page
from tests.budget import heavy
from tests.conftest import REPO, copy_rulesets
from tests.rulefiles import CachedWorkspace, shipped_analysis
from tests.variant_packages import run_script

GENERATED = REPO / "generated"
HELPERS = GENERATED / "helpers"
ANSWERS = Path(__file__).with_name("package_answers.py")
#: The README's pictures of the three helpers, each written when missing (or with
#: CIVRULES_UPDATE_SCREENSHOT=1), never otherwise, so that a test run leaves the tree clean.
SCREENSHOTS = {tool: REPO / "docs" / f"helpers-{tool}.png" for tool in ("planner", "calamity", "ast")}
#: The hand the README's pictures show (a state in the fragment, as a shared link holds it).
README_STATE = (
    "#h.agriculture=1&h.pottery=1&h.mysticism=1&h.engineering=1&h.mining=1&h.music=1&c.grain=3&c.cloth=2&c.bronze=4"
    "&treasury=12&cities=5&calamity=civil_war&role=primary"
)
RULESETS = (
    "advanced-civilization",
    "advanced-civilization-western",
    "expansion-project",
    "central-america",
    "mega-civilization",
)
#: The ruleset whose page `make test` holds equal to its package in full: the largest (18 players,
#: nations, trade blocks, the most cards); the pages of the others are `make test-slow`'s, and the
#: base ruleset's answers the other tests here.
LARGEST = "mega-civilization"

#: Asks the page's own evaluator, with the page's own tables and rules, the package's questions.
_ASK = """(function (q) {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  var U = civrules.isUnknown;
  function a(v) { return U(v) ? "unknown" : v; }
  return JSON.stringify({
    prices: q.prices.map(function (x) {
      return { price: a(E.call("price", [x.held, x.target])), credit: a(E.call("credit", [x.held, x.target])) };
    }),
    calamities: q.calamities.map(function (x) {
      var r = E.call("calamity_amount", [x.calamity, x.effect, x.held, x.role, {}, x.nation || null]);
      if (U(r)) { return "unknown"; }
      if (r === null) { return null; }
      if (x.nation) { return { value: E.call("calamity_value", [r]), immune: r.immune }; }
      return { value: E.call("calamity_value", [r]), change: r.change, set_to: r.set_to, cap: r.cap,
               immune: r.immune, unknown: r.unknown, unknown_reason: r.unknown_reason, kind: r.kind };
    }),
    traders: q.traders.map(function (x) { return a(E.call("trader_immune", [x.calamity, x.effect])); }),
    sets: q.sets.map(function (x) {
      if (x.trade && E.call("trade_refusal", [x.good, x.n, x.trade]) !== null) { return "refused"; }
      return a(E.call("set_value_in", [x.good, x.n, x.mining, x.trade || null]));
    }),
    epochs: q.epochs.map(function (x) {
      return a(E.call("can_enter_epoch", [x.epoch, x.cities, x.held, x.nation, x.level]));
    })
  });
})(%s)"""


def open_offline(browser: Browser, path: Path, fragment: str = "", size: tuple[int, int] = (1280, 900)) -> Page:
    """A tab with the network off, then the page from disk; returns once its script has rendered."""
    page = browser.open("about:blank", size)
    browser.send("Network.enable", session=page.session)
    browser.send(
        "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0},
        session=page.session,
    )
    page.goto(path.absolute().as_uri() + fragment)
    assert page.evaluate("document.body.getAttribute('data-rendered')") == "1", "the page's script did not run"
    return page


def package_answers(python_path: Path, ruleset_id: str, draws: int) -> dict[str, Any]:
    """What package_answers.py prints for the packages of the build folder ``python_path``."""
    printed = run_script(
        python_path, ANSWERS.read_text(encoding="utf-8"), ruleset_id.replace("-", "_"), "33", str(draws)
    )
    answers: dict[str, Any] = json.loads(printed)
    return answers


def hold_equal(page: Page, expected: dict[str, Any]) -> None:
    got = json.loads(page.evaluate(_ASK % json.dumps(expected)))
    for key, field in (
        ("prices", None),
        ("calamities", "amount"),
        ("traders", "immune"),
        ("sets", "value"),
        ("epochs", "ok"),
    ):
        for question, answer in zip(expected[key], got[key], strict=True):
            want = {"price": question["price"], "credit": question["credit"]} if field is None else question[field]
            assert answer == want, f"{key}: {question}: the page says {answer}, the package {want}"
    # A holding that lists a card twice is refused by the package (a player holds one of each) and
    # answered null by the page: never priced as if the card gave its credit twice, or once.
    twice = [q for q in expected["prices"] + expected["epochs"] if len(set(q["held"])) < len(q["held"])]
    assert all(q.get("price", q.get("ok")) is None for q in twice)
    assert twice or not expected["prices"]  # asked wherever prices are


@pytest.fixture(scope="module")
def largest_page(browser: Browser) -> Iterator[Page]:
    """Mega Civilization's page, opened once for the tests that only ask its evaluator: they call
    functions of their arguments and read the page's tables, and none of them clicks, types or
    navigates, so none sees another's doing."""
    with open_offline(browser, HELPERS / f"{LARGEST}.html") as page:
        yield page


@pytest.fixture(scope="module")
def base_page(browser: Browser) -> Iterator[Page]:
    """The base ruleset's page, opened once for the tests that only ask its evaluator (as above)."""
    with open_offline(browser, HELPERS / "advanced-civilization.html") as page:
        yield page


def _equal_for(browser: Browser, rulesets: tuple[str, ...], draws: int) -> None:
    for ruleset_id in rulesets:
        expected = package_answers(GENERATED / "python", ruleset_id, draws)
        with open_offline(browser, HELPERS / f"{ruleset_id}.html") as page:
            hold_equal(page, expected)


def test_the_largest_ruleset_answers_as_its_engine_package(largest_page: Page) -> None:
    hold_equal(largest_page, package_answers(GENERATED / "python", LARGEST, 3))


def test_the_trade_block_bonus_and_its_refusals_are_the_packages(browser: Browser) -> None:
    """Every good × set size × player count × block redeemed in × block drawn in of the Expansion
    Project (the ruleset with trade blocks): the page's value is the package's, and where the
    package refuses the blocks (a block not in play, a count not of the ruleset, the players
    without the block, a shared good without the block it was drawn in) the page refuses too: it
    counted a bonus, or none, in each (player audit, round 19, defect 7)."""
    expected = package_answers(GENERATED / "python", "expansion-project", 0)
    counts = {
        good: max(q["n"] for q in expected["sets"] if q["good"] == good)
        for good in {q["good"] for q in expected["sets"]}
    }
    # A set of one card and the whole good (`make test-slow` asks every size).
    traded = [q for q in expected["sets"] if "trade" in q and q["n"] in (1, counts[q["good"]])]
    refused = {json.dumps(q["trade"], sort_keys=True) for q in traded if q["value"] == "refused"}
    assert len(refused) > 10 and any(q["value"] != "refused" for q in traded)
    with open_offline(browser, HELPERS / "expansion-project.html") as page:
        hold_equal(page, {key: [] for key in expected} | {"sets": traded})


@pytest.mark.parametrize(
    ("state", "said"),
    [
        ("#c.oil=3&players=11&redeemed=west", "With 11 players the trade blocks in play are single: the block you "
         "redeem in, west, is not one of them."),
        ("#c.oil=3&players=19&redeemed=west", "With 19 players: this ruleset is for 5–18 players."),
        ("#c.oil=3&players=12", "Give both the players in the game and the block you redeem in, or neither"),
    ],
)  # fmt: skip
def test_the_planner_refuses_trade_blocks_the_package_refuses_and_says_why(
    browser: Browser, state: str, said: str
) -> None:
    path = HELPERS / "expansion-project.html"
    with open_offline(browser, path, state) as page:
        assert said in page.evaluate("document.getElementById('budget').textContent")
        assert page.evaluate("document.getElementById('trade-refused').getAttribute('role')") == "alert"
        assert page.evaluate("document.getElementById('best').textContent").startswith("No purchase planned")
        assert page.evaluate("document.querySelector('#prices td.affordable').textContent") == "—"


def test_the_planner_takes_the_players_alone_where_one_deck_is_played(browser: Browser) -> None:
    """The Expansion Project's 5-11 players draw from one deck (10.3): there is no block to redeem a
    set in, and the package's set_value now takes players= alone there; the page refused it, as the
    package did ("Give both ..."; player audit, round 20, defect 3)."""
    ask = (
        "(function () {"
        " var E = new civrules.Evaluator(civrules.data('civrules-tables'), civrules.data('civrules-rules'));"
        " return JSON.stringify([9, 11, 12].map(function (p) {"
        " return E.call('trade_refusal', ['oil', 3, {players: p, redeemed: null, drawn: null}]); })); })()"
    )
    with open_offline(browser, HELPERS / "expansion-project.html", "#c.oil=3&players=9") as page:
        text = page.evaluate("document.getElementById('budget').textContent")
        assert text.startswith("Commodity cards worth 36"), text
        assert json.loads(page.evaluate(ask)) == [None, None, {"kind": "both"}]


def test_a_shared_good_without_the_block_it_was_drawn_in_is_refused_where_its_bonus_depends_on_it(
    browser: Browser,
) -> None:
    """At 12-15 players a shared good's bonus depends on the block its cards were drawn in (26.3.4):
    the page counted none when it was not given."""
    path = HELPERS / "expansion-project.html"
    with open_offline(browser, path) as page:
        shared, name = page.evaluate(
            "(function () { var T = civrules.data('civrules-tables'); var g = T.commodity_order.filter("
            "function (g) { return T.commodities[g].block === 'shared'; })[0]; return [g, T.commodities[g].name]; })()"
        )
    # 15 players: shared goods are in the decks (12-14 play without them, 10.3) and gain the bonus (12-15).
    with open_offline(browser, path, f"#c.{shared}=2&players=15&redeemed=west") as page:
        text = page.evaluate("document.getElementById('budget').textContent")
        assert text.startswith(f"Not counted: {name} is a shared good: give the block its cards were drawn in"), text
    with open_offline(browser, path, f"#c.{shared}=2&players=15&redeemed=west&drawn=east") as page:
        assert page.evaluate("document.getElementById('budget').textContent").startswith("Commodity cards worth ")
    # 13 players: no deck holds it, as the package's set_value refuses it.
    with open_offline(browser, path, f"#c.{shared}=2&players=13&redeemed=west&drawn=east") as page:
        text = page.evaluate("document.getElementById('budget').textContent")
        assert text == f"Not counted: With 13 players no trade deck holds {name}: a set of it cannot be held.", text


@pytest.mark.slow
def test_every_ruleset_answers_as_its_engine_package_for_fifty_random_holdings(browser: Browser) -> None:
    _equal_for(browser, RULESETS, 50)


#: Every owned card → target card credit the page derives from its embedded linear form
#: (credit_matrix: {policy, groups, credits}), the cells that are not zero.
_CELLS = """(function () {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  var m = civrules.data("civrules-tables").credit_matrix, cells = {};
  Object.keys(m.groups).forEach(function (owned) {
    Object.keys(m.groups).forEach(function (target) {
      var c = owned === target ? 0 : E.call("credit_cell", [owned, target]);
      if (c !== 0) { (cells[owned] = cells[owned] || {})[target] = c; }
    });
  });
  return JSON.stringify(cells);
})()"""

#: The engine packages' CREDIT_MATRIX of the shipped rulesets, written out cell by cell (run as package_answers).
_PACKAGE_CELLS = """import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    data = importlib.import_module("civrules_rulesets." + name.replace("-", "_") + ".data")
    out[name] = {o: dict(row) for o, row in data.CREDIT_MATRIX.items() if len(row)}
print(json.dumps(out))
"""


@pytest.mark.parametrize(
    "rulesets",
    [pytest.param((LARGEST,), id="largest"), pytest.param(RULESETS, id="every-ruleset", marks=pytest.mark.slow)],
)
def test_the_pages_credits_are_the_packages_credit_matrix_for_every_pair(
    browser: Browser, largest_page: Page, rulesets: tuple[str, ...]
) -> None:
    """The page embeds the credits as written and derives each cell as the package does: the same
    matrix, cell for cell, for every owned × target pair of the largest ruleset (`make test`) and of
    every shipped ruleset (`make test-slow`)."""
    expected = json.loads(run_script(GENERATED / "python", _PACKAGE_CELLS, *rulesets))
    for ruleset_id in rulesets:
        if ruleset_id == LARGEST:
            got = json.loads(largest_page.evaluate(_CELLS))
        else:
            with open_offline(browser, HELPERS / f"{ruleset_id}.html") as page:
                got = json.loads(page.evaluate(_CELLS))
        assert expected[ruleset_id], ruleset_id
        assert got == expected[ruleset_id], ruleset_id


#: The page's credit toward each card of two groups for every pair of cards held.
_PAIRS = """(function () {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  var m = civrules.data("civrules-tables").credit_matrix, ids = Object.keys(m.groups).sort(), out = {};
  ids.filter(function (t) { return m.groups[t].length === 2; }).forEach(function (t) {
    var row = [];
    for (var i = 0; i < ids.length; i++) {
      for (var j = i + 1; j < ids.length; j++) { row.push(E.call("credit", [[ids[i], ids[j]], t])); }
    }
    out[t] = row;
  });
  return JSON.stringify(out);
})()"""

#: The package's credit_toward for the same pairs (run as package_answers).
_PACKAGE_PAIRS = """import itertools, json, sys
data = __import__("civrules_rulesets." + sys.argv[1] + ".data", fromlist=["data"])
helpers = __import__("civrules_rulesets." + sys.argv[1] + ".helpers", fromlist=["helpers"])
ids = sorted(data.CARDS)
print(json.dumps({t: [helpers.credit_toward(list(p), t) for p in itertools.combinations(ids, 2)]
                  for t in ids if len(data.CARDS[t].groups or ()) == 2}))
"""


def test_the_pages_credit_toward_a_two_group_card_is_the_packages_for_every_pair(largest_page: Page) -> None:
    """Mega Civilization §12: a card of two colours takes the higher colour's credits held, never
    both; the page's planner computes a holding colour by colour as the package does (2,672 of the
    pairs were the sum of the cells, up to 20 too much)."""
    expected = json.loads(run_script(GENERATED / "python", _PACKAGE_PAIRS, LARGEST.replace("-", "_")))
    assert len(expected) == 9
    assert json.loads(largest_page.evaluate(_PAIRS)) == expected
    ask = (
        "(function () { var E = new civrules.Evaluator(civrules.data('civrules-tables'), "
        "civrules.data('civrules-rules')); return [E.call('price', [['music', 'deism'], 'mysticism']), "
        "E.call('price', [['library', 'trade_empire'], 'engineering'])]; })()"
    )
    got = largest_page.evaluate(ask)
    assert got == [35, 140]


def _cell(page: Page, card: str, column: str) -> str:
    text: str = page.evaluate(f"document.querySelector('#prices tr[data-card={card}] td.{column}').textContent")
    return text


def test_ticking_a_card_and_typing_change_the_prices_and_the_state_survives_a_reload(browser: Browser) -> None:
    path = HELPERS / "advanced-civilization.html"
    with open_offline(browser, path) as page:
        assert _cell(page, "cloth_making", "price") == "45"
        page.evaluate("document.querySelector('input[data-card=agriculture]').click()")
        assert _cell(page, "cloth_making", "price") == "35"  # purchase_cost(["agriculture"], "cloth_making")
        page.evaluate("document.getElementById('treasury').focus()")
        browser.send("Input.insertText", {"text": "40"}, session=page.session)
        assert _cell(page, "cloth_making", "affordable") == "yes"
        assert _cell(page, "metalworking", "affordable") == "no"  # 70 after credits
        fragment = page.evaluate("location.hash")
        assert "h.agriculture=1" in fragment and "treasury=40" in fragment
        best = page.evaluate("document.getElementById('best-cards').textContent")
        assert "face value 45" in best
    with open_offline(browser, path, fragment) as page:  # a shared link, or a reload
        assert page.evaluate("document.querySelector('input[data-card=agriculture]').checked") is True
        assert page.evaluate("document.getElementById('treasury').value") == "40"
        assert _cell(page, "cloth_making", "price") == "35"


def test_the_calamity_reference_applies_the_held_cards_modifiers(browser: Browser) -> None:
    path = HELPERS / "advanced-civilization.html"
    fragment = "#calamity=volcano_earthquake&role=secondary"
    with open_offline(browser, path, fragment) as page:
        loss = "document.querySelector('[data-effect=earthquake_secondary] .loss').textContent"
        assert page.evaluate(loss).endswith(": 1")
    with open_offline(browser, path, fragment + "&h.engineering=1") as page:
        assert ": 0" in page.evaluate(loss)  # the package's docstring example: Engineering (30.213)
        assert "Engineering" in page.evaluate(
            "document.querySelector('[data-effect=earthquake_secondary]').textContent"
        )


def test_civil_disorder_says_how_many_of_the_cities_typed_are_reduced(browser: Browser) -> None:
    """30.711-30.712 worked at the table: seven cities in play, Music and Law held: all but three are
    reduced (four), one fewer for each card: two. Typing the cities (the page's own input, as a
    player does) gives the number; before any is typed, the page asks for them, never says 0."""
    path = HELPERS / "advanced-civilization.html"
    loss = "document.querySelector('[data-effect=cities_reduced] .loss')"
    with open_offline(browser, path, "#calamity=civil_disorder&h.music=1&h.law=1") as page:
        assert page.evaluate(loss + ".querySelector('[data-loss]')") is None
        assert "type your cities in play" in page.evaluate(loss + ".textContent")
        page.evaluate("document.getElementById('cities').focus()")
        browser.send("Input.insertText", {"text": "7"}, session=page.session)
        assert page.evaluate(loss + ".querySelector('[data-loss]').textContent") == "2"
        assert "7 cities you have in play" in page.evaluate(loss + ".textContent")
        page.evaluate("document.querySelector('input[data-card=military]').click()")  # one more (30.713)
        assert page.evaluate(loss + ".querySelector('[data-loss]').textContent") == "3"


def _package(ruleset_id: str) -> tuple[Any, Any, Any]:
    """The committed engine package of ``ruleset_id`` imported here (no interpreter started): its
    helpers, its data and the runtime's errors."""
    if str(GENERATED / "python") not in sys.path:
        sys.path.insert(0, str(GENERATED / "python"))
    name = ruleset_id.replace("-", "_")
    return (
        importlib.import_module(f"civrules_rulesets.{name}.helpers"),
        importlib.import_module(f"civrules_rulesets.{name}.data"),
        importlib.import_module("civrules_runtime.errors"),
    )


#: The page's loss of every question: its own calamity_amount, then its calamity_loss.
_LOSSES = """(function (qs) {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  return JSON.stringify(qs.map(function (q) {
    var r = E.call("calamity_amount", [q.calamity, q.effect, q.held, q.role, {}, null]);
    var loss = civrules.isUnknown(r) ? null : E.call("calamity_loss", [r, q.units, q.cities]);
    return civrules.isUnknown(loss) ? null : loss;
  }));
})(%s)"""


@pytest.mark.parametrize("fixture", ["base_page", "largest_page"])
def test_the_pages_loss_of_units_and_cities_is_the_packages(fixture: str, request: pytest.FixtureRequest) -> None:
    """CalamityAmount.loss(units, cities=) of every effect, each role, no card, each modifying card
    and all of them, for units and cities from none to more than any rule takes: the page's
    calamity_loss answers as the package (None where the package refuses to say)."""
    page: Page = request.getfixturevalue(fixture)
    helpers, data, errors = _package(RULESETS[0] if fixture == "base_page" else LARGEST)
    questions, expected = [], []
    for calamity, effects in data.CALAMITY_EFFECTS.items():
        modifiers = data.CALAMITY_MODIFIERS.get(calamity) or ()
        for effect in effects or ():
            role = str(effect.side)
            modifying = sorted(
                {m.card for m in modifiers if effect.id in m.effects and str(m.applies_to) in (role, "both")}
            )
            for held in [[], *([c] for c in modifying), modifying]:
                try:
                    amount = helpers.calamity_amount(calamity, effect.id, held, role)
                except errors.UnknownFactError:
                    continue  # the page's amount is unknown too (test_every_ruleset_answers_...)
                for units, cities in ((None, None), (0, 0), (2, None), (2, 2), (4, 7), (9, 9), (40, 12)):
                    try:
                        want = amount.value if units is None else amount.loss(units, cities=cities)
                    except (errors.UnknownFactError, errors.OutOfDomainError):
                        want = None  # the amount unknown, or one per city and no cities given
                    questions.append(
                        {"calamity": calamity, "effect": effect.id, "role": role, "held": held,
                         "units": units, "cities": cities}
                    )  # fmt: skip
                    expected.append(want)
    got = json.loads(page.evaluate(_LOSSES % json.dumps(questions)))
    wrong = [(q, g, w) for q, g, w in zip(questions, got, expected, strict=True) if g != w]
    assert not wrong, f"{len(wrong)} of {len(questions)} differ, the first (question, page, package): {wrong[0]}"
    assert any(w not in (None, 0) for w in expected)


def test_the_trader_role_says_what_the_trader_loses(browser: Browser) -> None:
    path = HELPERS / "advanced-civilization.html"
    said = "document.querySelector('#trader-out').textContent"
    kind = "Array.from(document.querySelectorAll('#trader-out [data-trader]')).map(p => p.dataset.trader).join()"
    # Epidemic: the trader cannot be a secondary victim (30.611, 29.61) — he loses nothing of it.
    with open_offline(browser, path, "#calamity=epidemic&role=trader") as page:
        assert page.evaluate(kind) == "immune"
        assert "Loses nothing" in page.evaluate(said) and "29.61" in page.evaluate(said)
    # Treachery strikes the primary victim only; Famine is not tradable, so it has no trader.
    with open_offline(browser, path, "#calamity=treachery&role=trader") as page:
        assert page.evaluate(kind) == "nothing"
    with open_offline(browser, path, "#calamity=famine&role=trader") as page:
        assert page.evaluate(kind) == "untradable"


@pytest.mark.slow  # two tabs
def test_the_calamity_reference_works_the_rulebooks_epidemic_example(browser: Browser) -> None:
    """29.61's EXAMPLE: Crete draws Epidemic and trades it to Egypt; Egypt loses 16 unit points, and
    Crete, who traded it, is immune from its secondary effects (the trader's role: pinned above)."""
    path = HELPERS / "advanced-civilization.html"
    loss = "document.querySelector('#calamity-out .loss').textContent"
    with open_offline(browser, path, "#calamity=epidemic&role=primary&nation=egypt") as page:
        assert page.evaluate(loss).startswith("Amount (lose unit points, unit points): 16")
    # Egypt's choice of secondary victims: each of them loses at most 10 (30.612).
    with open_offline(browser, path, "#calamity=epidemic&role=secondary&nation=thrace") as page:
        assert page.evaluate(loss).startswith("Amount (lose unit points, unit points): 10")


def test_a_nation_brings_its_immunities_and_its_track_card_values(browser: Browser) -> None:
    path = HELPERS / "advanced-civilization.html"
    loss = "document.querySelector('#calamity-out .loss').textContent"
    with open_offline(browser, path, "#calamity=barbarian_hordes&role=primary") as page:
        assert "immune" not in page.evaluate(loss)
    with open_offline(browser, path, "#calamity=barbarian_hordes&role=primary&nation=crete") as page:
        assert page.evaluate(loss).startswith("Amount") and ": 0 — immune" in page.evaluate(loss)
    # 33.25: without a nation the space values are not judged; Africa's Late Iron Age starts at 1300.
    row = "document.querySelector('#epochs tr[data-epoch=late_iron_age]').textContent"
    cell = "document.querySelector('#epochs tr[data-epoch=late_iron_age] td.may-enter').textContent"
    with open_offline(browser, path, "#cities=5") as page:
        assert page.evaluate(cell) == "yes"
    with open_offline(browser, path, "#cities=5&nation=africa") as page:
        assert page.evaluate(cell) == "no"
        assert "value of the civilization cards held" in page.evaluate(row) and "0 of 1300" in page.evaluate(row)


def test_a_set_redeemed_outside_its_trade_block_gains_its_bonus(browser: Browser) -> None:
    # Expansion Project 26.3.3's example: three Oil (4 each, a western good) redeemed by an eastern
    # player in a 12-15 player game are worth 3 x 3 x 4 + 3 x 4 = 48, not 36.
    path = HELPERS / "expansion-project.html"
    budget = "document.getElementById('budget').textContent"
    with open_offline(browser, path, "#c.oil=3") as page:
        assert page.evaluate(budget).startswith("Commodity cards worth 36 ")
        assert "26.3.3" in page.evaluate("document.getElementById('purchase-rules').textContent")
        assert "Bonuses a ruleset gives" not in page.evaluate("document.getElementById('purchase-rules').textContent")
    with open_offline(browser, path, "#c.oil=3&players=12&redeemed=east") as page:
        assert page.evaluate(budget).startswith("Commodity cards worth 48, of which 12 is the bonus")
    with open_offline(browser, path, "#c.oil=3&players=12&redeemed=west") as page:
        assert page.evaluate(budget).startswith("Commodity cards worth 36 ")


def test_the_ast_check_says_what_an_epoch_lacks(browser: Browser) -> None:
    with open_offline(browser, HELPERS / "advanced-civilization.html", "#cities=1") as page:
        row = "document.querySelector('#epochs tr[data-epoch=early_bronze_age]').textContent"
        assert "cities: 1 of 2" in page.evaluate(row)
    with open_offline(browser, HELPERS / "advanced-civilization.html", "#cities=2") as page:
        assert (
            page.evaluate("document.querySelector('#epochs tr[data-epoch=early_bronze_age] td.may-enter').textContent")
            == "yes"
        )


def test_the_page_reaches_nothing_and_runs_no_script_but_its_own(browser: Browser) -> None:
    with open_offline(browser, HELPERS / "advanced-civilization.html") as page:
        online = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        browser.send("Network.emulateNetworkConditions", online, session=page.session)
        fetched = page.evaluate(
            "fetch('https://example.org/').then(function () { return 'reached'; }, function () { return 'refused'; })"
        )
        assert fetched == "refused"  # connect-src 'none', whatever the network
        ran = page.evaluate(
            "(function () { var s = document.createElement('script'); s.textContent = 'window.injected = 1';"
            " document.body.appendChild(s); return window.injected === undefined; })()"
        )
        assert ran is True
        assert page.evaluate("document.querySelectorAll('img, link, iframe, object, embed').length") == 0


#: Every target a finger taps on a page smaller than WCAG 2.5.8's 24 by 24 CSS pixels, as
#: (what, width, height): a link, a button, a field, a disclosure, or the label that holds a
#: checkbox or a radio button (the label is what is tapped; the box itself is the browser's own). A
#: link inside a sentence is left out, as 2.5.8 leaves it (its size is the line's).
_SMALL_TARGETS = """(function () {
  var small = [];
  var seen = new Set();
  document.querySelectorAll("a[href], button, select, input, textarea, summary").forEach(function (el) {
    if (el.type === "hidden") return;
    var target = (el.type === "checkbox" || el.type === "radio") && el.closest("label") || el;
    if (seen.has(target)) return;
    seen.add(target);
    if (target.tagName === "A" && target.closest("p, dd, td, .what, .note, .cite, footer")) return;
    var box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return;
    if (box.width < 24 || box.height < 24) {
      small.push([target.tagName.toLowerCase() + " " + (target.textContent || target.name || "").trim().slice(0, 30),
                  Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10]);
    }
  });
  return small;
})()"""


def test_the_page_fits_a_phone_and_prints(browser: Browser, tmp_path: Path) -> None:
    """On a phone the helper does not scroll sideways, prints, and each target a finger taps, on
    the helper, on the other families' helpers (their page's style is the same) and on the sheets'
    index, is at least 24 CSS pixels each way (WCAG 2.5.8): until round 34 the helpers' navigation
    links were 20 pixels tall, their selects 20 and checkbox labels 22, the index's links 15. The
    other pages are opened in the same tab (the suite's tab budget)."""
    with open_offline(browser, HELPERS / "mega-civilization.html", size=(375, 812)) as page:
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"the page scrolls sideways on a phone: {widths}"
        small = page.evaluate(_SMALL_TARGETS)
        assert not small, f"targets under 24 CSS pixels on the helper: {small}"
        pdf = page.pdf()
        assert pdf.startswith(b"%PDF")
        for other in ("sid-meiers-civilization.html", "imperial-settlers.html"):
            page.goto((HELPERS / other).absolute().as_uri())
            assert page.evaluate("document.body.getAttribute('data-rendered')") == "1", other
            small = page.evaluate(_SMALL_TARGETS)
            assert not small, f"targets under 24 CSS pixels on {other}: {small}"
        page.goto((GENERATED / "sheets" / "mega-civilization" / "index.html").absolute().as_uri())
        small = page.evaluate(_SMALL_TARGETS)
        assert not small, f"targets under 24 CSS pixels on the sheets' index: {small}"


#: The page's best purchase for a hand, its budget and how it pays.
_BEST = """(function (held, treasury, hand) {
  var E = new civrules.Evaluator(civrules.data("civrules-tables"), civrules.data("civrules-rules"));
  var budget = E.call("hand_value", [hand, held, null]) + treasury;
  var pick = E.call("best_purchase", [held, budget]);
  var total = pick.reduce(function (s, c) { return s + E.call("price", [held, c]); }, 0);
  return JSON.stringify({budget: budget, pick: pick, pay: E.call("payment", [hand, held, treasury, total, null])});
})(%s, %d, %s)"""


@pytest.mark.parametrize(
    ("held", "treasury", "hand"),
    [
        ([], 0, {}),
        (["agriculture"], 40, {"grain": 3}),
        (["pottery", "engineering", "mining"], 15, {"bronze": 4, "cloth": 2}),
        (["astronomy", "mysticism", "law"], 30, {"gems": 2, "wine": 3, "salt": 2}),
    ],
)
def test_the_best_purchase_is_the_highest_face_value_within_the_hand(
    base_page: Page, held: list[str], treasury: int, hand: dict[str, int]
) -> None:
    sys.path.insert(0, str(GENERATED / "python"))
    try:
        from civrules_rulesets.advanced_civilization import CardId, CommodityId, data, helpers
    finally:
        sys.path.remove(str(GENERATED / "python"))
    goods = [CommodityId(g) for g in hand]
    owned = [CardId(c) for c in held]
    mining = "mining" in held
    plain = sum(helpers.set_value(g, hand[g]) for g in goods)
    gains = (
        [helpers.set_value(g, hand[g], mining=True) - helpers.set_value(g, hand[g]) for g in goods] if mining else []
    )
    budget = plain + max([0, *gains]) + treasury
    buyable = [c for c in data.CARDS if c not in held and all(p in held for p in data.CARDS[c].prerequisites or ())]
    got = json.loads(base_page.evaluate(_BEST % (json.dumps(held), treasury, json.dumps(hand))))
    assert got["budget"] == budget
    prices = {c: helpers.purchase_cost(owned, CardId(c)) for c in buyable}
    spent = sum(prices[c] for c in got["pick"])
    assert set(got["pick"]) <= set(buyable) and spent <= budget
    face = sum(data.CARDS[c].cost or 0 for c in got["pick"])
    # No set of cards of a higher face value fits: a knapsack by dynamic programming over the budget.
    table = [0] * (budget + 1)
    for card in buyable:
        for room in range(budget, prices[card] - 1, -1):
            table[room] = max(table[room], table[room - prices[card]] + (data.CARDS[card].cost or 0))
    assert face == table[budget]
    if got["pick"]:
        pay = got["pay"]
        assert pay["tokens"] <= treasury and pay["value"] + pay["tokens"] >= spent
        assert pay["excess"] == max(0, pay["value"] - spent)


def test_screenshots_of_each_helper_for_the_readme(browser: Browser, tmp_path: Path) -> None:
    with open_offline(browser, HELPERS / "advanced-civilization.html", README_STATE, size=(1000, 720)) as page:
        for tool, target in SCREENSHOTS.items():
            page.evaluate(f"document.getElementById('{tool}').scrollIntoView()")
            shot = tmp_path / target.name
            shot.write_bytes(page.screenshot())
            assert shot.read_bytes().startswith(b"\x89PNG")
            if os.environ.get("CIVRULES_UPDATE_SCREENSHOT") == "1" or not target.exists():
                shutil.copyfile(shot, target)
            assert target.exists()


def test_every_control_has_a_label() -> None:
    text = (HELPERS / "advanced-civilization.html").read_text(encoding="utf-8")
    body = text[text.index("<main>") : text.index("</main>")]
    # Every input and select sits inside its <label> (which names it for a screen reader).
    assert body.count("<input") + body.count("<select") == body.count("<label")


def test_every_ruleset_has_a_helper_and_the_pages_are_deterministic() -> None:
    workspace = CachedWorkspace()
    analysis = shipped_analysis("advanced-civilization")
    assert analysis.model is not None
    first = render_helper(analysis.model, "f" * 64)
    assert first == render_helper(analysis.model, "f" * 64)
    manifests = sorted(workspace.manifests())
    assert manifests == sorted(shipped.RULESETS)
    # What the project ships: a designer's own variant, built beside them by `make`, is not (its
    # page is checked by `civrules build --check` with the rest of the generated tree).
    assert [name for name in manifests if not (HELPERS / f"{name}.html").is_file()] == []


def test_embedded_json_cannot_end_its_script_element() -> None:
    hostile = {"name": "</script><script>alert(1)</script>\u2028\u2029<!-- &amp;"}
    embedded = embed_json(hostile)
    assert "<" not in embedded and ">" not in embedded and "&" not in embedded
    assert "\u2028" not in embedded and "\u2029" not in embedded
    assert json.loads(embedded) == hostile


def test_model_values_become_json_whatever_container_holds_them() -> None:
    """Plain dicts, lists and tuples (taken by their exact type), a read-only mapping, sets (sorted),
    unknown facts at any depth, keys that are not strings."""
    from types import MappingProxyType

    from civrules.emit.helpers import plain
    from civrules.model import Unknown

    why = Unknown("not in the sources")
    value = {
        "list": [1, "a", None, why, (2, 3), {"k": why}],
        "tuple": (True, 1.5, [why]),
        "set": frozenset({"b", "a"}),
        "mapping": MappingProxyType({1: why, "x": ("y",)}),
        2: why,
    }
    assert plain(value) == {
        "list": [1, "a", None, {"unknown": "not in the sources"}, [2, 3], {"k": {"unknown": "not in the sources"}}],
        "tuple": [True, 1.5, [{"unknown": "not in the sources"}]],
        "set": ["a", "b"],
        "mapping": {"1": {"unknown": "not in the sources"}, "x": ["y"]},
        "2": {"unknown": "not in the sources"},
    }
    assert plain(why) == {"unknown": "not in the sources"} and plain("text") == "text"


def test_a_hostile_ruleset_name_is_text_in_the_page() -> None:
    workspace = CachedWorkspace()  # analysed afresh: the test renames its model
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["imperial-settlers"]))
    assert analysis.model is not None
    model = analysis.model
    object.__setattr__(model, "name", '"><script>alert(1)</script>')  # frozen: a test's own copy of a name
    page = page_html(model, "0" * 64, None)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


HOUSE_VARIANT = """kind: ruleset
id: house-astronomy
name: "House rule: Astronomy gives 30 to the sciences"
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - id: astronomy
        credits:
          - {group: sciences, points: 30, source: "house rule of this test"}
          - {card: philosophy, points: 20, rule: "32.412"}
          - {card: theology, points: 20, rule: "32.412"}
"""


@heavy
def test_a_house_variant_that_changes_a_credit_shows_the_new_price_after_build(
    browser: Browser, tmp_path: Path
) -> None:
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    (rules / "rulesets" / "house-astronomy.yaml").write_text(HOUSE_VARIANT, encoding="utf-8")
    out = tmp_path / "generated"
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", "house-astronomy", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with open_offline(browser, out / "helpers" / "house-astronomy.html", "#h.astronomy=1") as page:
        assert _cell(page, "coinage", "price") == "80"  # 110 less 30 (the base: 90)
        hold_equal(page, package_answers(out / "python", "house-astronomy", 3))


def test_the_purchase_planner_cites_the_rules_on_buying_and_follows_them(browser: Browser, tmp_path: Path) -> None:
    fact = "document.querySelector('[data-purchase-fact=%s]').textContent"
    with open_offline(browser, HELPERS / "advanced-civilization.html", "#c.grain=3&treasury=12") as page:
        assert "yes" in page.evaluate(fact % "several_cards_per_turn") and "31.1" in page.evaluate(
            fact % "several_cards_per_turn"
        )
        assert page.evaluate(fact % "same_turn_credits").startswith(
            "Credits of cards bought in the same phase count: no"
        )
        assert "31.53" in page.evaluate(fact % "same_turn_credits")
        assert "31.41" in page.evaluate(fact % "treasury_within_price")
        assert "31.58" in page.evaluate(fact % "overpayment")
        assert "it assumes" not in page.evaluate("document.getElementById('purchase-rules').textContent")
        split = page.evaluate("document.getElementById('split-sets').textContent")
        assert "28.52" in split and "does not split a set" in split
    with open_offline(browser, HELPERS / "expansion-project.html") as page:
        assert "unknown: 26.1.1" in page.evaluate(fact % "several_cards_per_turn")
        assert "it assumes that several cards may be bought in one phase" in page.evaluate(
            "document.getElementById('purchase-rules').textContent"
        )
    with open_offline(browser, HELPERS / "mega-civilization.html") as page:
        assert "chapters.json" in page.evaluate(fact % "same_turn_credits")
    # A house rule of one card a phase: the best purchase is one card, the dearest the hand buys.
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    (rules / "rulesets" / "house-one-card.yaml").write_text(ONE_CARD_VARIANT, encoding="utf-8")
    out = tmp_path / "generated"
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", "house-one-card", "--out", str(out)])
    assert result.exit_code == 0, result.output
    state = "#c.grain=4&treasury=40"  # 4 x 4 x 1 + 40 = 56: one card of up to 56, not Pottery and Mysticism
    with open_offline(browser, out / "helpers" / "house-one-card.html", state) as page:
        best = page.evaluate("document.getElementById('best-cards').textContent")
        assert best.startswith("Buy ") and ", " not in best.split(":")[0], best
        assert page.evaluate(fact % "several_cards_per_turn").startswith("Several cards in one phase: no")
    with open_offline(browser, HELPERS / "advanced-civilization.html", state) as page:
        assert ", " in page.evaluate("document.getElementById('best-cards').textContent").split(":")[0]


ONE_CARD_VARIANT = """kind: ruleset
id: house-one-card
name: "House rule: one civilization card a phase"
extends: advanced-civilization
overlay:
  settings:
    credit_policy:
      purchases:
        several_cards_per_turn: {value: false, source: "house rule of this test"}
"""


def test_a_draft_rulesets_figures_that_depend_on_unknown_facts_say_so(browser: Browser) -> None:
    """Each with the data's why: a calamity's loss too, where what is unknown is how the held cards'
    modifiers combine (Famine, 29.3.1), not the amount (round 23: the page said "the amount is not
    in the sources, or how these cards combine is not", as the package said no why)."""
    from civrules.families.advanced_civilization.helpers import tables
    from civrules.families.advanced_civilization.model import of_family

    model = shipped_analysis("expansion-project").model
    assert model is not None
    why = tables(of_family(model))["calamities"]["famine"]["mode_unknown_why"]
    assert why and "29.3.1" in why
    fragment = "#c.grain=2&treasury=5&calamity=famine&role=secondary&h.pottery=1&h.calendar=1"
    with open_offline(browser, HELPERS / "expansion-project.html", fragment) as page:
        assert page.evaluate("document.querySelector('header .unknown') !== null")  # the draft warning
        marked = page.evaluate(
            "Array.from(document.querySelectorAll('#prices .unknown')).map(function (e) { return e.title; })"
        )
        assert marked and all(reason for reason in marked), "no price is marked unknown, or one without its reason"
        loss = page.evaluate("document.querySelector('[data-effect=famine_secondary] .loss').textContent")
        assert loss.endswith(f"unknown: {why}"), loss


@pytest.mark.parametrize(
    ("ruleset", "cards"),
    [
        ("advanced-civilization", ["military"]),
        ("expansion-project", ["military", "naval_warfare", "advanced_military"]),
    ],
)
def test_the_page_lists_a_civil_war_loss_under_one_effect(ruleset: str, cards: list[str]) -> None:
    """The page works out and lists a card's separate loss under each effect the card names: Military's
    in Civil War (30.414; Expansion Project 29.4.1.6, with Naval Warfare and Advanced Military) under
    the annexation alone, so a player reading the effects one by one takes it once, not three times."""
    from civrules.families.advanced_civilization.helpers import tables
    from civrules.families.advanced_civilization.model import of_family

    model = shipped_analysis(ruleset).model
    assert model is not None
    war = tables(of_family(model))["calamities"]["civil_war"]
    losses = {m["card"]: m["effects"] for m in war["modifiers"] if m["adds"]}
    assert losses == {card: ["faction_annexed"] for card in cards}


def test_the_page_gives_the_data_s_why_of_a_calamity_part_and_of_entry_requirements_it_does_not_know() -> None:
    """The page said "the effects of x are not in the sources", "the entry requirements of x are not
    in the sources" and no more, where the data says why (round 23): a calamity's parts, an epoch's
    requirements and the set value formula now carry the data's why, as the packages say it."""
    from civrules.families.advanced_civilization.helpers import commodity_tables, tables
    from civrules.families.advanced_civilization.model import of_family

    project = shipped_analysis("expansion-project").model
    assert project is not None
    requirements = tables(of_family(project))["epochs"]["early_bronze_age"]["requirements"]
    assert next(iter(requirements.values()))["unknown"].startswith("28.2.2 is not printed")
    house = (
        "kind: ruleset\nid: ac-lost\nname: ac-lost\nextends: advanced-civilization\noverlay:\n"
        '  settings:\n    set_value: {unknown: "house rule: sets are valued by the table"}\n'
        "  calamities:\n    replace:\n"
        '      - {id: famine, name: Famine, stack: 3, tradable: false, source: "house rule: famine",'
        ' effects: {unknown: "house rule: the famine is drawn"}}\n'
    )
    workspace = CachedWorkspace({"rulesets/ac-lost.yaml": house})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["ac-lost"]))
    assert analysis.model is not None, analysis.diagnostics
    lost = of_family(analysis.model)
    famine = tables(lost)["calamities"]["famine"]
    assert (
        famine["effects"]
        == famine["modifiers"]
        == famine["immunities"]
        == {"unknown": "house rule: the famine is drawn"}
    )
    assert commodity_tables(lost)["set_value_formula"] == {"unknown": "house rule: sets are valued by the table"}


@pytest.mark.slow  # eight tabs
@pytest.mark.parametrize(
    ("state", "card", "price", "best"),
    [
        # 2.8: Democracy (200) costs 45 less with Drama and Poetry, Architecture and Literacy.
        ("#h.drama_and_poetry=1&h.architecture=1&h.literacy=1", "democracy", "155", None),
        # 31.54: Astronomy's 20 toward the other sciences goes to Coinage and to Medicine alike.
        ("#h.astronomy=1", "coinage", "90", None),
        ("#h.astronomy=1", "medicine", "120", None),
        # 31.58: Mysticism (5 toward Music), three Grain, two Papyrus and a Hides (45) and ten tokens:
        # "just enough to acquire Music" (60).
        ("#h.mysticism=1&c.grain=3&c.papyrus=2&c.hides=1&treasury=10", "music", "55", None),
        # 32.261: with Mining, three Iron (18) and two Gems (32) are worth 32 + 32 or 18 + 72, once a
        # turn: 90 at most; Pottery (35 after Mining's credit) and Mysticism (50), 85, the dearest it buys.
        ("#h.mining=1&c.iron=3&c.gems=2", "pottery", "35", "Buy Pottery, Mysticism: face value 95, price 85"),
        # 31.55: Engineering, a craft and a science, is bought with the credits of both groups (Pottery's
        # 10 toward crafts, Astronomy's 20 toward sciences: 140 less 30), and held, gives both.
        pytest.param("#h.pottery=1&h.astronomy=1", "engineering", "110", None, id="31.55-buying"),
        pytest.param("#h.engineering=1", "metalworking", "70", None, id="31.55-held-craft"),
        pytest.param("#h.engineering=1", "medicine", "120", None, id="31.55-held-science"),
    ],
)
def test_the_purchase_planner_works_the_rulebooks_examples(
    browser: Browser, state: str, card: str, price: str, best: str | None
) -> None:
    with open_offline(browser, HELPERS / "advanced-civilization.html", state) as page:
        assert _cell(page, card, "price") == price
        if "treasury" in state:
            assert _cell(page, card, "affordable") == "yes"
        if best is not None:
            assert page.evaluate("document.getElementById('best-cards').textContent").startswith(best)
