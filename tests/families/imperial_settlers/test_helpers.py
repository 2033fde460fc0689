"""The Imperial Settlers player helper (generated/helpers/imperial-settlers.html) in Chromium, offline:
the deck builder names the same problems (F001-F004) as `civrules validate` gives a ruleset whose
custom faction deck holds the same cards, and the card reference finds a card by name, id or effect."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.browser import Browser
from tests.conftest import REPO, copy_rulesets
from tests.families.advanced_civilization.test_helpers import open_offline
from tests.generated.test_sheet_languages import misplaced, name_languages
from tests.rulefiles import shipped_analysis

PAGE = REPO / "generated" / "helpers" / "imperial-settlers.html"
DECK_CODES = {"F001", "F002", "F003", "F004"}


@pytest.fixture(scope="module")
def printed_romans() -> dict[str, int]:
    model = shipped_analysis("imperial-settlers").model  # shared: this only reads it
    assert model is not None
    return {card.id: card.copies for card in model.cards if card.deck == "romans"}  # type: ignore[attr-defined]


def _decks(printed: dict[str, int]) -> dict[str, dict[str, int]]:
    """The printed Roman deck and decks one change away from it. (A broken copies pattern, F002,
    needs a card the shipped data does not have: every Roman card is in the printed deck.)"""
    one = next(c for c, n in printed.items() if n == 1)
    two = next(c for c, n in printed.items() if n == 2)
    return {
        "printed": dict(printed),
        "one_card_short": {c: n for c, n in printed.items() if c != one},
        "a_copy_short": {**printed, two: 1},
        "a_barbarian_card": {**{c: n for c, n in printed.items() if c != one}, "bar001": 3},
    }


def _compiler_codes(tmp: Path, deck: dict[str, int]) -> set[str]:
    rules = copy_rulesets(tmp / "rules", "imperial-settlers")
    (rules / "decks").mkdir(exist_ok=True)
    entries = "".join(f"      - {{card: {card}, copies: {copies}}}\n" for card, copies in deck.items())
    (rules / "decks" / "test-romans.yaml").write_text(
        "kind: faction_deck\nfaction_decks:\n  - id: test_romans\n    faction: romans\n"
        f'    source: "a deck of the test"\n    cards:\n{entries}',
        encoding="utf-8",
    )
    (rules / "rulesets" / "deck-test.yaml").write_text(
        "kind: ruleset\nfamily: imperial-settlers\nid: deck-test\nname: a deck of the test\n"
        "extends: imperial-settlers\nfiles:\n  faction_decks: [decks/test-romans.yaml]\n",
        encoding="utf-8",
    )
    workspace = Workspace(rules)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["deck-test"]))
    return {d.code for d in analysis.diagnostics if d.code in DECK_CODES}


def test_the_deck_builder_names_the_problems_the_compiler_reports(
    browser: Browser, printed_romans: dict[str, int], tmp_path: Path
) -> None:
    said = ""
    for case, deck in _decks(printed_romans).items():
        expected = _compiler_codes(tmp_path / case, deck)
        fragment = "#faction=romans&" + "&".join(f"d.{card}={copies}" for card, copies in deck.items())
        with open_offline(browser, PAGE, fragment) as page:
            got = set(
                page.evaluate("Array.from(document.querySelectorAll('#deck-problems li')).map(e => e.dataset.code)")
            )
            if not expected:
                assert page.evaluate("document.getElementById('deck-ok') !== null"), case
            if case == "a_barbarian_card":
                said = page.evaluate("document.querySelector('#deck-problems li[data-code=F004]').textContent")
        assert got == expected, f"{case}: the page says {sorted(got)}, civrules validate {sorted(expected)}"
    # The decks by the names the card sheets print, never the data's ids: before round 32 it read
    # "BAR001 is a card of the barbarians deck, not romans" to a player (round 31 left this line).
    decks = shipped_analysis("imperial-settlers").model.decks  # type: ignore[union-attr]
    named = {deck.id: deck.name for deck in decks}
    assert said.endswith(f"BAR001 is a card of the {named['barbarians']} deck, not {named['romans']}"), said


def test_the_card_reference_finds_a_card_by_its_printed_id(browser: Browser) -> None:
    with open_offline(browser, PAGE, "#q=rom001") as page:
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('#card-reference tbody tr')).map(e => e.dataset.card)"
        )
        assert shown == ["rom001"]
        page.evaluate("document.getElementById('search').focus()")
        page.evaluate("document.getElementById('search').value = ''")
        page.evaluate("document.getElementById('search').dispatchEvent(new Event('input', {bubbles: true}))")
        every = json.loads(page.evaluate("JSON.stringify(civrules.data('civrules-tables').card_order)"))
        assert page.evaluate("document.querySelectorAll('#card-reference tbody tr').length") == len(every)
        # Every card's name as the script wrote it, each in its language (round 30).
        assert misplaced(page.evaluate("document.documentElement.outerHTML"), name_languages("imperial-settlers")) == []


def _as_page(given: object) -> object:
    """A package's production or build bonus as the page's tables write it (None: unknown or none)."""
    if given is None or isinstance(given, tuple):
        return None if given is None else list(given)
    return {
        "each": given.each,  # type: ignore[attr-defined]
        "per": given.per,  # type: ignore[attr-defined]
        "colour": given.colour,  # type: ignore[attr-defined]
        "at_most": given.at_most,  # type: ignore[attr-defined]
        "plus": list(given.plus),  # type: ignore[attr-defined]
    }


def test_the_card_reference_gives_what_the_package_gives(browser: Browser) -> None:
    """Each card's production and build bonus on the page are the package's (goods, or goods per
    location of a colour or per Samurai, p11 and p14; unknown where the package has None), and the
    reference prints a production per location of a colour with its limit."""
    generated = str(REPO / "generated" / "python")
    if generated not in sys.path:
        sys.path.insert(0, generated)
    from civrules_rulesets import imperial_settlers

    with open_offline(browser, PAGE, "#q=com025") as page:
        cards = json.loads(page.evaluate("JSON.stringify(civrules.data('civrules-tables').cards)"))
        cells = page.evaluate(
            "Array.from(document.querySelectorAll('#card-reference tbody tr[data-card=com025] td.gives'))"
            ".map(e => e.textContent)"
        )
    assert set(cards) == set(imperial_settlers.CARDS)
    counted = 0
    for card_id, record in imperial_settlers.CARDS.items():
        for field in ("production", "build_bonus"):
            on_page, in_package = cards[card_id][field], getattr(record, field)
            if isinstance(on_page, dict) and "unknown" in on_page:
                on_page = None  # the page says why; the package's None is the same unknown
            assert on_page == _as_page(in_package), (card_id, field)
            counted += isinstance(on_page, dict)
    assert counted == 14
    # In the words the card sheets print, the package's names (round 31: "1 food per red location").
    made = imperial_settlers.CARDS["com025"].production
    assert made is not None and not isinstance(made, tuple) and made.colour is not None
    good, colour = imperial_settlers.GOODS[made.each].name, imperial_settlers.COLOURS[made.colour].name
    assert cells == [f"1 {good} per {colour} location (this one included), at most {made.at_most}", "—"]


def test_the_card_reference_has_the_words_of_the_cards_not_the_datas_ids() -> None:
    """The page's tables name each good, colour and kind of location a card shows as the package
    names it, and a card no source names by its first printed id, as the card sheets do: before
    round 31 the reference read "food, location", "blue", "production", "japanese" and "bar001"
    where the sheets print "Comida + a location discarded", "Azul", "Local de Produção", "Japoneses"
    and "BAR001". Read in process, from the page as shipped and the committed package."""
    generated = str(REPO / "generated" / "python")
    if generated not in sys.path:
        sys.path.insert(0, generated)
    from civrules_rulesets import imperial_settlers as package

    html = PAGE.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="civrules-tables">(.*?)</script>', html, re.S)
    assert found is not None
    tables = json.loads(found.group(1))
    names = tables.get("names", {})
    for kind, collection in (("goods", package.GOODS), ("colours", package.COLOURS),
                             ("location_kinds", package.LOCATION_KINDS)):  # fmt: skip
        shown = names.get(kind, {})
        named = {i: collection[i].name for i in shown if i in collection}
        assert named, kind
        assert {i: shown[i] for i in named} == named, kind
    used = {c.kind for c in package.CARDS.values()} | {x for c in package.CARDS.values() for x in c.colours}
    assert used <= set(names["location_kinds"]) | set(names["colours"])
    for card_id, card in package.CARDS.items():
        assert tables["cards"][card_id]["name"] == (card.name or card.printed_ids[0]), card_id
    assert all(tables["decks"][c.deck]["name"] == package.DECKS[c.deck].name for c in package.CARDS.values() if c.deck)


def test_a_screenshot_of_the_deck_builder_for_the_readme(browser: Browser, tmp_path: Path) -> None:
    """docs/helpers-deck-builder.png: written when missing (or with CIVRULES_UPDATE_SCREENSHOT=1)."""
    target = REPO / "docs" / "helpers-deck-builder.png"
    with open_offline(browser, PAGE, "#faction=romans&d.rom001=2&d.rom003=3&d.bar001=3", size=(1000, 620)) as page:
        page.evaluate("document.getElementById('builder').scrollIntoView()")
        shot = tmp_path / target.name
        shot.write_bytes(page.screenshot())
    assert shot.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("CIVRULES_UPDATE_SCREENSHOT") == "1" or not target.exists():
        shutil.copyfile(shot, target)
    assert target.exists()


_COST = """(function (card) {
  var heads = Array.from(document.querySelectorAll('#card-reference thead th')).map(e => e.textContent);
  var row = document.querySelector('#card-reference tbody tr[data-card=' + card + ']');
  return row.children[heads.indexOf('Cost')].textContent;
})(%s)"""


@pytest.mark.slow  # two tabs
@pytest.mark.parametrize(
    ("query", "card", "cost"),
    [
        # p8 ("Custos de construção"): to build the Armazém de Madeira a player discards 2 wood and 1 stone;
        ("#q=com003", "com003", "2 × Madeira, Pedra"),
        # to build the Barbarians' Altar Sombrio, a location built before, 1 wood and 2 stones.
        ("#q=bar014", "bar014", "Madeira, 2 × Pedra + a location discarded"),
    ],
)
def test_the_card_reference_gives_the_rulebooks_building_costs(
    browser: Browser, query: str, card: str, cost: str
) -> None:
    with open_offline(browser, PAGE, query) as page:
        assert page.evaluate(_COST % json.dumps(card)) == cost


@pytest.mark.slow  # one tab
def test_the_card_reference_works_the_rulebooks_guard_tower_example(browser: Browser) -> None:
    """p8, "Exemplo de Construção de Local": Luis (the Barbarians) builds the Torre de Guarda by
    discarding 2 wood and the Moinho, one of his locations; a production location, it gives its
    goods as it is built: 1 raze token and 1 worker."""
    cells = "Array.from(document.querySelector('#card-reference tbody tr[data-card=bar012]').children)"
    heads = "Array.from(document.querySelectorAll('#card-reference thead th'))"
    with open_offline(browser, PAGE, "#q=bar012") as page:
        names = page.evaluate(heads + ".map(e => e.textContent)")
        row = dict(zip(names, page.evaluate(cells + ".map(c => c.textContent)"), strict=True))
    assert row["Card"] == "Torre de Guarda" and row["Kind"] == "Local de Produção" and row["Deck"] == "Bárbaros"
    assert row["Cost"] == "2 × Madeira + a location discarded"
    assert row["Production"] == "Ficha de Pilhagem, Trabalhador"
