"""Variants of Imperial Settlers: a house rule from its own files (an action's price changed, a card
traded in a faction deck of its own), the rulebook's three variants, and `new-variant`'s examples."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.families.imperial_settlers.export import expanded_decks
from civrules.families.imperial_settlers.model import ImperialSettlersRuleset
from civrules.families.imperial_settlers.rules import can_pay
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import RULES, copy_shipped
from tests.sheet_text import unmarked

HOUSE = Path(__file__).resolve().parent / "fixtures" / "house-rule"


@pytest.fixture(scope="module")
def house_rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped rules with the house rule's own three files beside them."""
    rules = tmp_path_factory.mktemp("house") / "rules"
    copy_shipped(rules)
    for path in HOUSE.rglob("*.yaml"):
        target = rules / path.relative_to(HOUSE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return rules


def _run(rules: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), *args])
    return result.exit_code, result.stdout


def _problems(rules: Path, ruleset: str) -> list[str]:
    code, out = _run(rules, "validate", ruleset, "--format", "json")
    assert code in (0, 1), out
    return [f"{d['code']} {d['message']}" for d in json.loads(out) if d["severity"] in ("error", "warning")]


def _analysed(rules: Path, ruleset: str) -> tuple[ImperialSettlersRuleset, dict[str, bytes]]:
    workspace = Workspace(rules)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset])
    analysis = analyse(workspace, loaded)
    assert analysis.ok and isinstance(analysis.model, ImperialSettlersRuleset) and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    sheets = render_sheets(analysis.model, "0" * 64, "a4", changes)
    return analysis.model, {name: unmarked(page.decode()).encode() for name, page in sheets.items()}


def test_the_house_rule_validates_clean_from_its_own_files(house_rules: Path) -> None:
    assert _problems(house_rules, "imperial-settlers-house") == []


def test_diff_shows_each_change_of_the_house_rule(house_rules: Path) -> None:
    code, out = _run(house_rules, "diff", "imperial-settlers", "imperial-settlers-house")
    assert code == 0, out
    assert re.search(r"~ deal .*\n\s+~ price\.food: 1 → 2", out)
    assert "cards: 1 added" in out and "+ rom031" in out
    assert "faction_decks: 1 added" in out and "+ house_romans" in out


def test_the_house_rule_plays_its_own_deck_and_price(house_rules: Path) -> None:
    model, sheets = _analysed(house_rules, "imperial-settlers-house")
    romans = expanded_decks(model)["romans"]
    assert len(romans) == 30 and "ROM031" in romans and "ROM030" not in romans
    deal = model.actions.get("deal")
    assert deal is not None and dict(deal.price) == {"food": 2}
    assert can_pay(model, "rom031", ["stone", "gold", "location"])
    cards = sheets["faction-cards.html"].decode()
    assert "without ROM030 (1), with ROM031 (1)" in cards
    assert 'title="added by this variant"' in cards  # ROM031 and the deck
    assert "<td>2 × Comida" in sheets["round-and-actions.html"].decode()
    assert "Romanos da casa" in sheets["deck-building.html"].decode()
    changes = sheets["variant-changes.html"].decode()
    for change in ("price.food", "rom031", "house_romans"):
        assert change in changes


@pytest.mark.parametrize(
    ("ruleset", "heading"),
    [
        ("imperial-settlers-peaceful", "p12/variante-pacifica"),
        ("imperial-settlers-alternative-lookout", "p12/fase-de-observacao-alternativa"),
        ("imperial-settlers-advanced-lookout", "p12/fase-de-observacao-avancada"),
    ],
)
def test_the_rulebooks_variants_are_variants_of_the_ruleset(ruleset: str, heading: str) -> None:
    assert _problems(RULES, ruleset) == []
    code, out = _run(RULES, "diff", "imperial-settlers", ruleset)
    assert code == 0 and "~ lookout" in out
    model, sheets = _analysed(RULES, ruleset)
    assert model.extends == "imperial-settlers" and model.status == "official_variant"
    lookout = model.phases.get("lookout")
    assert lookout is not None and any(heading in step.rules for step in lookout.phase_steps)
    assert 'title="changed by this variant"' in sheets["round-and-actions.html"].decode()


def _uncommented(text: str) -> str:
    """The scaffold with its overlay example uncommented (one `# ` deleted per line, as it says)."""
    head, _, examples = text.partition("# overlay:")
    return (
        head
        + "\n".join(line[2:] if line.startswith("# ") else line for line in ("# overlay:" + examples).splitlines())
        + "\n"
    )


def test_new_variant_scaffolds_examples_valid_for_the_base(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    copy_shipped(rules)
    code, out = _run(rules, "new-variant", "my-settlers", "--extends", "imperial-settlers")
    assert code == 0, out
    manifest = rules / "rulesets" / "my-settlers.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "schemas/imperial-settlers/ruleset.schema.json" in text and "faction_decks:" in text
    assert _problems(rules, "my-settlers") == []
    manifest.write_text(_uncommented(text), encoding="utf-8")
    assert _problems(rules, "my-settlers") == []
    code, out = _run(rules, "diff", "imperial-settlers", "my-settlers")
    assert "~ price.food: 1 → 2" in out and "+ my_barbarians" in out
    model, _ = _analysed(rules, "my-settlers")
    assert model.custom_deck("barbarians") is not None and len(expanded_decks(model)["barbarians"]) == 30


def _findings(overrides: dict[str, str], ruleset: str) -> list[tuple[str, str, int, str]]:
    from civrules.diagnostics import Severity
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace(overrides)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    return [
        (d.code, Path(d.span.file).name, d.span.line, d.hint or "")
        for d in analysis.diagnostics
        if d.severity is Severity.ERROR and d.span is not None
    ]


THREE_FOUR = """\
kind: ruleset
family: imperial-settlers
id: is-three-four
name: "Three and four"
extends: imperial-settlers
overlay:
  settings:
    players: {min: 3, max: 4, source: "house rule: three and four"}
"""


def test_a_player_range_that_leaves_out_the_first_and_solo_games_is_told_with_a_patch_that_validates() -> None:
    """Round 20: a range of 3-4 kept the base's first game for 2 and its solo rules, and validated.
    Both are F017 at the variant's players line; each hint writes the patch, which validates."""
    found = _findings({"rulesets/is-three-four.yaml": THREE_FOUR}, "is-three-four")
    assert [(code, file, line) for code, file, line, _ in found] == [("F017", "is-three-four.yaml", 8)] * 2
    patches = [re.search(r"add `(\w+: null)` to this variant's `overlay.settings`", hint) for *_, hint in found]
    assert all(patches), found
    patched = THREE_FOUR + "".join(f"    {patch.group(1)}\n" for patch in patches if patch)
    assert _findings({"rulesets/is-three-four.yaml": patched}, "is-three-four") == []


ONE_PLACE = """\
kind: ruleset
family: imperial-settlers
id: is-one-place
name: "IS one place"
extends: imperial-settlers
overlay:
  settings:
    defence: {raze_added: 2, source: "house rule: stronger walls"}
    foundation: {owner_gains: [stone], source: "house rule: stone foundations"}
  factions:
    patch:
      - id: japanese
        special_rules:
          patch:
            - where: {id: samurai}
              with: {raze_added: 3, source: "house rule: fiercer Samurai"}
"""


def test_what_a_defence_token_a_samurai_and_a_foundation_give_is_written_once_and_razing_reads_it() -> None:
    """p7 "Fichas de Defesa" (each defence token adds 1 raze token), p11 "Posicionando Samurais" (each
    Samurai adds 1) and p9 (a razed location's owner takes 1 wood as it becomes a foundation) are each
    written in one place, the defence setting, the `samurai` rule and the foundation setting: the raze
    action says only that they apply to it, so a house rule changing one changes the raze price and
    the owner's gain (it changed the sheet's defence line and left the price at +1)."""
    from civrules.families.imperial_settlers.rules import raze_price
    from tests.rulefiles import CachedWorkspace, shipped_analysis

    base = shipped_analysis("imperial-settlers").model
    assert isinstance(base, ImperialSettlersRuleset)
    raze = base.actions.get("raze_opponent_location")
    assert raze is not None
    assert not {"extra_per_defence", "extra_per_samurai", "owner_gains"} & set(raze.raw)
    assert (raze.extra_per_defence, raze.extra_per_samurai, raze.owner_gains) == (1, 1, ("wood",))
    in_hand = base.actions.get("raze_card_in_hand")
    assert in_hand is not None and in_hand.extra_per_defence == 0  # a card in hand holds no token
    assert raze_price(base, "raze_opponent_location", defence=1, samurai=1) == 4  # 2, +1, +1 (p9 example)

    workspace = CachedWorkspace({"rulesets/is-one-place.yaml": ONE_PLACE})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-one-place"]))
    assert analysis.ok, [d.message for d in analysis.diagnostics if d.severity.value == "error"]
    house = analysis.model
    assert isinstance(house, ImperialSettlersRuleset)
    assert raze_price(house, "raze_opponent_location", defence=1) == 4
    assert raze_price(house, "raze_opponent_location", samurai=1) == 5
    house_raze = house.actions.get("raze_opponent_location")
    assert house_raze is not None and house_raze.owner_gains == ("stone",)


def test_a_changed_solo_attack_count_is_told_the_component_to_patch_in_the_variant() -> None:
    """Round 36: a variant giving the solo game 12 attack cards was told "make both 16, or change
    both" at its own line: the other side is the base's `attack_cards` component, and nothing said
    how to change it from the variant. The hint writes its patch; pasted in, F019 is answered."""
    text = (
        "kind: ruleset\nid: is-attack\nname: Fewer attacks\nextends: imperial-settlers\nstatus: house_rule\n"
        'overlay:\n  settings:\n    solo: {attack_cards: {count: 12}, source: "house rule: a gentler solo game"}\n'
    )

    def f019(text: str) -> list[str]:
        workspace = Workspace(RULES, None, {"rulesets/is-attack.yaml": text})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["is-attack"]), ("F019",))
        return [d.hint or "" for d in analysis.diagnostics if d.code == "F019"]

    [hint] = f019(text)
    patch = re.search(r"in `overlay.components`, `(patch: \[.*?\])`", hint)
    assert patch is not None, hint
    assert patch.group(1) == 'patch: [{id: attack_cards, count: 12, source: "house rule: write why here"}]'
    assert f019(text + f"  components: {{{patch.group(1).replace('write why here', 'a gentler game')}}}\n") == []
