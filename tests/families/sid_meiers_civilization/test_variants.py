"""Variants of the Sid Meier's Civilization family: a house-rule variant validates clean from its own
file and `civrules diff` and its changes sheet show each change; `civrules new-variant` scaffolds a
variant whose examples (the family's `variant_example` hook) validate for the base they came from."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.load.workspace import Workspace
from civrules.pipeline import analyse
from tests.conftest import copy_rulesets
from tests.sheet_text import unmarked

#: A house rule: a dearer economic victory, a cheaper Colossus, a technology that unlocks the Library.
HOUSE_RULES = """\
# yaml-language-server: $schema=../../schemas/sid-meiers-civilization/ruleset.schema.json
kind: ruleset
id: smc-house
name: "Sid Meier's Civilization, house rules"
extends: sid-meiers-civilization
overlay:
  victories:
    patch:
      - {id: economy, coins: 20, source: "house rule: the economic victory at 20 coins"}
  wonders:
    patch:
      - {id: colossus, cost: 12, source: "house rule: the Colossus costs 12"}
  technologies:
    add:
      - id: bookbinding
        name: "Bookbinding"
        level: 1
        unlocks: {buildings: [biblioteca]}
        source: "house rule: Bookbinding unlocks the Library"
  settings:
    coins:
      victory: 20
      source: "house rule: the economic victory at 20 coins"
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    rules = copy_rulesets(tmp_path / "rules", "sid-meiers-civilization")
    (rules / "rulesets" / "smc-house.yaml").write_text(HOUSE_RULES, encoding="utf-8")
    return rules


def test_the_house_rules_validate_clean_from_their_own_file(house: Path) -> None:
    result = CliRunner().invoke(main, ["--rules", str(house), "validate", "smc-house", "--format", "json"])
    assert result.exit_code == 0, result.stdout
    found = json.loads(result.stdout)
    assert [d for d in found if d["severity"] != "info"] == []
    assert {Path(d["file"]).name for d in found if d["code"].startswith("V")} <= {"smc-house.yaml"}


def test_diff_shows_each_change_of_the_house_rules(house: Path) -> None:
    result = CliRunner().invoke(main, ["--rules", str(house), "diff", "sid-meiers-civilization", "smc-house"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for change in (
        "technologies: 1 added",
        "+ bookbinding  Bookbinding",
        "~ cost: 15 → 12",
        "~ coins: 15 → 20",
        "coins.victory",
    ):
        assert change in out, (change, out)


def test_the_changes_sheet_and_the_sheets_mark_each_change(house: Path) -> None:
    workspace = Workspace(house)
    loaded = workspace.load_ruleset(workspace.manifests()["smc-house"])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    files = {
        k: html.unescape(unmarked(v.decode()))
        for k, v in render_sheets(analysis.model, "0" * 64, changes=changes).items()
    }
    sheet = files["variant-changes.html"]
    for change in ("+ bookbinding  Bookbinding", "~ cost: 15 → 12", "~ coins: 15 → 20", "~ coins.victory: 15 → 20"):
        assert change in sheet, change
    assert "Bookbinding" in files["technology-pyramid.html"] and "Biblioteca" in files["technology-pyramid.html"]
    assert 'title="changed by this variant"' in files["wonders.html"]
    assert "20 coins" in files["turn-summary.html"]


def test_the_engine_helpers_follow_the_house_rules(house: Path) -> None:
    from civrules.families.sid_meiers_civilization import rules

    workspace = Workspace(house)
    model = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-house"])).model
    assert model is not None
    assert rules.wonder_cost(model, "colossus") == 12  # type: ignore[arg-type]
    assert rules.victories_met(model, coins=15) == ()  # type: ignore[arg-type]
    assert rules.unlocked_by(model, "biblioteca") == ("bookbinding",)  # type: ignore[arg-type]


def _uncomment(text: str) -> str:
    """The scaffold with its examples uncommented as a designer would: one `# ` off each line."""
    lines, inside = [], False
    for line in text.splitlines():
        inside = inside or line.startswith("# overlay:")
        lines.append(line[2:] if inside and line.startswith("# ") else line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("base", ["sid-meiers-civilization", "sid-meiers-civilization-community"])
def test_new_variant_scaffolds_a_variant_valid_as_is_and_with_its_examples(tmp_path: Path, base: str) -> None:
    rules = copy_rulesets(tmp_path / "rules", base)
    runner = CliRunner()
    made = runner.invoke(main, ["--rules", str(rules), "new-variant", "mine", "--extends", base])
    assert made.exit_code == 0, made.output
    created = rules / "rulesets" / "mine.yaml"
    text = created.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schemas/sid-meiers-civilization/ruleset.schema.json")
    as_is = runner.invoke(main, ["--rules", str(rules), "validate", "mine", "--format", "json"])
    assert as_is.exit_code == 0, as_is.stdout
    assert runner.invoke(main, ["--rules", str(rules), "diff", base, "mine"]).stdout.endswith("no differences\n")
    created.write_text(_uncomment(text), encoding="utf-8")
    uncommented = runner.invoke(main, ["--rules", str(rules), "validate", "mine", "--format", "json"])
    assert uncommented.exit_code == 0, uncommented.stdout
    assert [d for d in json.loads(uncommented.stdout) if d["severity"] != "info"] == []
    diff = runner.invoke(main, ["--rules", str(rules), "diff", base, "mine"]).stdout
    for change in ("victories: 1 changed", "wonders: 1 changed", "technologies: 1 added", "coins.victory"):
        assert change in diff, (change, diff)


def test_the_reference_documents_every_kind_collection_and_setting_of_the_family() -> None:
    from civrules.families import family_named
    from tests.conftest import REPO

    family = family_named("sid-meiers-civilization")
    assert family is not None
    text = (REPO / "docs" / "reference.md").read_text(encoding="utf-8")
    for kind in family.kinds:
        assert f"`kind: {kind}`" in text, kind
    for name in family.collections:
        assert f"| `overlay.{name}` |" in text, name
    for key in family.settings:
        assert f"| `{key}` |" in text, key
    assert "### `technologies[].unlocks`" in text


FIVE_SIX = """\
kind: ruleset
family: sid-meiers-civilization
id: smc-five-six
name: "Five and six"
extends: sid-meiers-civilization
overlay:
  settings:
    players: {min: 5, max: 6, source: "house rule: five and six"}
"""


def test_a_player_range_that_leaves_out_the_best_number_is_told_with_a_patch_that_validates() -> None:
    """Round 20: a range of 5-6 kept the base's best number, 4, and validated. It is T018 at the
    variant's players line, and the hint's patch (`best: null` in the variant's players) validates."""
    import re

    from civrules.diagnostics import Severity
    from tests.rulefiles import CachedWorkspace

    def errors(text: str) -> list[tuple[str, str, int, str]]:
        workspace = CachedWorkspace({"rulesets/smc-five-six.yaml": text})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-five-six"]))
        return [
            (d.code, Path(d.span.file).name, d.span.line, d.hint or "")
            for d in analysis.diagnostics
            if d.severity is Severity.ERROR and d.span is not None
        ]

    found = errors(FIVE_SIX)
    assert [(code, file, line) for code, file, line, _ in found] == [("T018", "smc-five-six.yaml", 8)]
    patch = re.search(r"add `(best: null)` to this variant's `overlay.settings.players`", found[0][3])
    assert patch is not None, found
    assert errors(FIVE_SIX.replace("max: 6,", f"max: 6, {patch.group(1)},")) == []


def _package_players(text: str) -> tuple[object, dict[str, object]]:
    """The PLAYERS a package of the variant ``text`` (smc-five-six) is written with, evaluated on
    the shared runtime's records, and `civrules export`'s setting_sources."""
    from civrules.emit import players
    from civrules.emit.export import export_ruleset
    from civrules.emit.pyfmt import statement
    from civrules.emit.runtime.mappings import FrozenMap
    from civrules.emit.runtime.records import PlayerRange
    from civrules.pipeline import derived_facts
    from tests.rulefiles import CachedWorkspace

    workspace = CachedWorkspace({"rulesets/smc-five-six.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-five-six"]))
    assert analysis.ok and analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    namespace: dict[str, object] = {"PlayerRange": PlayerRange, "FrozenMap": FrozenMap}
    exec(statement("PLAYERS", players.player_range(exported, analysis.model)), namespace)
    return namespace["PLAYERS"], exported.get("setting_sources") or {}


def test_players_a_house_rule_wrote_are_cited_by_the_house_rule_field_by_field() -> None:
    """Round 20's review: a variant's patch `players: {min: 5, max: 6, best: null, source: "house
    rule"}` gave PLAYERS `rule=("p2",)`, the base's section, which seats 2-4, while `export`'s
    setting_sources and `diff` cite the house rule for each field. PLAYERS cites what wrote its
    values, and names the writer of each field a variant changed as export does."""
    from civrules.emit.runtime.records import PlayerRange

    whole = FIVE_SIX.replace("max: 6,", "max: 6, best: null,")
    found, sources = _package_players(whole)
    house = "source: house rule: five and six"
    # `best: null` deletes a fact and writes none: no field cites it (round 21: a deletion is no
    # uncited fact, and cites nothing)
    assert sources["players"] == {"max": house, "min": house}
    assert found == PlayerRange(
        5, 6, best=None, rule=(), source="house rule: five and six", field_sources=sources["players"]
    )
    # a patch of the most players alone: the base's p2 still cites the fewest and the best number
    only_max = FIVE_SIX.replace("{min: 5, max: 6, ", "{max: 6, ")
    found, sources = _package_players(only_max)
    assert sources["players"] == {"max": house}
    assert found == PlayerRange(
        2, 6, best=4, rule=("p2",), source="house rule: five and six", field_sources={"max": house}
    )
    assert isinstance(found, PlayerRange) and found.field_sources["max"] == house and "min" not in found.field_sources


QUICK_ECONOMY = """\
kind: ruleset
family: sid-meiers-civilization
id: smc-quick
name: "Quicker economy"
extends: sid-meiers-civilization
overlay:
  settings:
    coins: {victory: 12, source: "house rule: a quicker economic victory"}
"""


def test_a_changed_coin_victory_is_told_the_victory_to_patch_in_the_variant() -> None:
    """Round 31: a variant lowering `coins.victory` to 12 was told T015 "make both 12, or change
    both" behind "patch, in this variant's overlay, the base's fact the note points at", the
    victory in the base's manifest. The hint writes the patch of the economic victory in the
    variant's `overlay.victories`; pasted in, the variant validates."""
    import re

    from civrules.diagnostics import Severity
    from tests.rulefiles import CachedWorkspace

    def errors(text: str) -> list[tuple[str, str]]:
        workspace = CachedWorkspace({"rulesets/smc-quick.yaml": text})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-quick"]))
        return [(d.code, d.hint or "") for d in analysis.diagnostics if d.severity is Severity.ERROR]

    ((code, hint),) = errors(QUICK_ECONOMY)
    assert code == "T015"
    patch = re.search(r"in `overlay.victories`, `(patch: \[.*\])`", hint)
    assert patch is not None, hint
    assert patch.group(1) == 'patch: [{id: economy, coins: 12, source: "house rule: write why here"}]'
    pasted = QUICK_ECONOMY + f"  victories: {{{patch.group(1)}}}\n"
    assert [code for code, _ in errors(pasted)] == ["L016"]  # the blank, for the designer's reason
    assert errors(pasted.replace("write why here", "a quicker game")) == []


def test_a_changed_economic_victory_is_told_the_coins_setting_to_change_in_the_variant() -> None:
    """Round 36: a variant lowering the economic victory itself to 12 coins was told "patch the
    economic victory to 15 coins ...; or make both 15, or change both": changing both means the
    base's `coins` setting too, and nothing said how from the variant. The hint writes it in
    `overlay.settings`; pasted in, the variant validates."""
    import re

    from civrules.diagnostics import Severity
    from tests.rulefiles import CachedWorkspace

    text = QUICK_ECONOMY.replace(
        '  settings:\n    coins: {victory: 12, source: "house rule: a quicker economic victory"}\n',
        "  victories:\n    patch:\n"
        '      - {id: economy, coins: 12, source: "house rule: a quicker economic victory"}\n',
    )

    def errors(text: str) -> list[tuple[str, str]]:
        workspace = CachedWorkspace({"rulesets/smc-quick.yaml": text})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-quick"]))
        return [(d.code, d.hint or "") for d in analysis.diagnostics if d.severity is Severity.ERROR]

    ((code, hint),) = errors(text)
    assert code == "T015"
    setting = re.search(r"in `overlay.settings`, `(coins: \{.*?\})`", hint)
    assert setting is not None, hint
    assert setting.group(1) == 'coins: {victory: 12, source: "house rule: write why here"}'
    pasted = text + f"  settings:\n    {setting.group(1).replace('write why here', 'a quicker game')}\n"
    assert errors(pasted) == []


def test_a_changed_battle_hand_setting_is_told_the_government_to_patch_in_the_variant() -> None:
    """Round 36: a variant giving Fundamentalism 2 more cards in `combat.battle_hand` was told "make
    both 1, or change both" at its own line: the other side is the base's government, and nothing
    said how to change it from the variant. The hint writes its patch; pasted in, it validates."""
    import re

    from civrules.diagnostics import Severity
    from tests.rulefiles import CachedWorkspace

    text = QUICK_ECONOMY.replace(
        '    coins: {victory: 12, source: "house rule: a quicker economic victory"}\n',
        '    combat: {battle_hand: {fundamentalism: 2}, source: "house rule: a bigger hand"}\n',
    )

    def errors(text: str) -> list[tuple[str, str]]:
        workspace = CachedWorkspace({"rulesets/smc-quick.yaml": text})
        analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["smc-quick"]))
        return [(d.code, d.hint or "") for d in analysis.diagnostics if d.severity is Severity.ERROR]

    ((code, hint),) = errors(text)
    assert code == "T019"
    patch = re.search(r"in `overlay.governments`, `(patch: \[.*?\])`", hint)
    assert patch is not None, hint
    assert patch.group(1) == 'patch: [{id: fundamentalism, battle_hand: 2, source: "house rule: write why here"}]'
    pasted = text + f"  governments: {{{patch.group(1).replace('write why here', 'a bigger hand')}}}\n"
    assert errors(pasted) == []
