"""Variants as a designer writes them: house rules of the Expansion Project, and each mistake located.

The done-when scenario of issue 15 is :data:`HOUSE_RULES`: a variant of `expansion-project` that
removes a calamity, changes three costs, adds an advancement with credits and a prerequisite,
changes a commodity count and the hand limit. It must validate clean from its own file alone.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.diagnostics import Diagnostic, Severity, Span, words
from civrules.emit.build import variant_changes
from civrules.emit.sheets import render_sheets
from civrules.families.advanced_civilization.model import of_family
from civrules.pipeline import Analysis, analyse
from civrules.resolve import Resolved, merge_patch
from tests.conftest import RULES, copy_rulesets
from tests.rulefiles import CachedWorkspace

HOUSE_RULES = """\
# yaml-language-server: $schema=../../schemas/ruleset.schema.json
kind: ruleset
id: ep-house
name: "The Expansion Project, house rules"
extends: expansion-project
overlay:
  calamities:
    remove:
      - {id: banditry, why: "House rule: Banditry is left out of the game."}
  civilization_cards:
    patch:
      - {id: pottery, cost: 45, source: "house rule"}
      - {id: agriculture, cost: 110, source: "house rule"}
      - {id: law, cost: 170, source: "house rule"}
      - id: law
        attributes: {remove: [{rule: "30.23.4"}]}
      - id: theology
        attributes: {remove: [{rule: "29.9.3.2"}]}
    add:
      - id: banking
        name: "Banking"
        groups: [crafts]
        cost: 140
        prerequisites: [{card: coinage, source: "house rule"}]
        credits:
          - {group: crafts, points: 10, source: "house rule"}
          - {card: trade_empire, points: 10, extra: true, source: "house rule"}
        attributes: []
        source: "house rule"
  commodities:
    patch:
      - {id: clay, count: 8, source: "house rule"}
  settings:
    hand_limit: {commodity_cards: 9, text: "Keep nine cards.", source: "house rule"}
"""


def analysed(ruleset_id: str, *files: tuple[str, str]) -> Analysis:
    workspace = CachedWorkspace(dict(files))
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset_id])
    return analyse(workspace, loaded)


def house(text: str = HOUSE_RULES) -> tuple[str, str]:
    return "rulesets/ep-house.yaml", text


def problems(analysis: Analysis) -> list[Diagnostic]:
    return [d for d in analysis.diagnostics if d.severity != "info"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_the_house_rules_of_the_expansion_project_validate_clean_from_their_own_file() -> None:
    analysis = analysed("ep-house", house())
    assert problems(analysis) == [], [str(d) for d in problems(analysis)]
    model = of_family(analysis.model)
    assert model.calamities.get("banditry") is None
    assert [model.cards.get(c).cost for c in ("pottery", "agriculture", "law")] == [45, 110, 170]  # type: ignore[union-attr]
    banking = model.cards.get("banking")
    assert banking is not None and banking.prerequisites == ("coinage",)
    assert model.commodities.get("clay").count == 8  # type: ignore[union-attr]
    hand_limit = model.data["hand_limit"]
    assert hand_limit["commodity_cards"] == 9
    assert hand_limit["card_changes"], "the base's card changes are kept: settings merge key by key"


def test_diff_lists_each_change_of_the_house_rules(tmp_path: Path) -> None:
    workspace_rules = _rules_with(tmp_path, "expansion-project", house())
    runner = CliRunner()
    args = ["--rules", str(workspace_rules), "diff", "expansion-project", "ep-house", "--format", "json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)
    collections = changes["collections"]
    assert [c["id"] for c in collections["calamities"]["removed"]] == ["banditry"]
    (added,) = collections["civilization_cards"]["added"]
    assert added["id"] == "banking"
    assert {f["field"] for f in added["fields"]} >= {"cost", "credits", "prerequisites", "groups"}
    changed = {c["id"] for c in collections["civilization_cards"]["changed"]}
    assert changed == {"pottery", "agriculture", "law", "theology"}
    assert [c["id"] for c in collections["commodities"]["changed"]] == ["clay"]
    assert any(s["field"].startswith("hand_limit") for s in changes["settings"])
    text = runner.invoke(main, ["--rules", str(workspace_rules), "diff", "expansion-project", "ep-house"]).stdout
    assert "+ banking" in text and "cost: 140" in text
    assert "- attributes[" in text  # the removed attribute, element by element


def _rules_with(tmp_path: Path, base: str, *files: tuple[str, str]) -> Path:
    """A copy of rules/ with only ``base`` (and what it extends) and the files they read, plus ``files``."""
    root = copy_rulesets(tmp_path / "rules", base)
    for relative, text in files:
        (root / relative).write_text(text, encoding="utf-8")
    return root


# --- each designer mistake of the issue, located at the variant ------------------------------------


def test_a_misspelt_key_in_a_patch_is_reported_at_the_variant_line() -> None:
    text = HOUSE_RULES.replace("{id: pottery, cost: 45,", "{id: pottery, cots: 45,")
    analysis = analysed("ep-house", house(text))
    (found,) = [d for d in analysis.diagnostics if d.code == "S002"]
    assert found.span is not None and found.span.file.endswith("rulesets/ep-house.yaml")
    assert found.span.line == line_of(text, "cots: 45")
    assert found.hint == "did you mean `cost`?"
    assert any(r.span.file.endswith("cards/expansion-project.yaml") for r in found.related)


def test_deleting_a_required_field_in_a_patch_is_reported_at_the_null() -> None:
    body = "overlay:\n  areas:\n    patch:\n      - {id: cyrene, population_limit: null}\n"
    text = _header("no-limit", "advanced-civilization") + body
    analysis = analysed("no-limit", ("rulesets/no-limit.yaml", text))
    found = [d for d in analysis.diagnostics if d.code.startswith("S")]
    assert found, analysis.diagnostics
    assert all(d.span is not None and d.span.file.endswith("rulesets/no-limit.yaml") for d in found)
    assert found[0].span is not None and found[0].span.line == line_of(text, "population_limit: null")
    assert any(r.span.file.endswith("maps/mediterranean.yaml") for r in found[0].related)


def test_a_settings_patch_keeps_what_it_does_not_name() -> None:
    body = "overlay:\n  settings:\n    hand_limit: {commodity_cards: 10}\n"
    analysis = analysed("big-hands", ("rulesets/big-hands.yaml", _header("big-hands", "expansion-project") + body))
    assert analysis.model is not None, analysis.diagnostics
    assert analysis.model.data["hand_limit"]["commodity_cards"] == 10
    assert len(analysis.model.data["hand_limit"]["card_changes"]) == 2


def test_a_misspelt_setting_key_is_reported_at_the_variant() -> None:
    body = "overlay:\n  settings:\n    hand_limit: {comodity_cards: 10}\n"
    text = _header("typo", "expansion-project") + body
    analysis = analysed("typo", ("rulesets/typo.yaml", text))
    (found,) = [d for d in analysis.diagnostics if d.code == "S002"]
    assert found.span is not None and found.span.file.endswith("rulesets/typo.yaml")
    assert found.span.line == line_of(text, "comodity_cards")


def test_a_list_remove_that_matches_nothing_is_located_at_the_selector() -> None:
    text = HOUSE_RULES.replace('{remove: [{rule: "30.23.4"}]}', '{remove: [{rule: "30.23.9"}]}')
    analysis = analysed("ep-house", house(text))
    found = [d for d in analysis.diagnostics if d.code == "V007"]
    assert len(found) == 1, analysis.diagnostics
    assert found[0].span is not None and found[0].span.line == line_of(text, '{rule: "30.23.9"}')


def test_removing_a_calamity_still_named_by_a_card_is_one_error_at_the_removal() -> None:
    text = HOUSE_RULES.replace('        attributes: {remove: [{rule: "30.23.4"}]}\n', "        source: house rule\n")
    analysis = analysed("ep-house", house(text))
    (found,) = [d for d in analysis.diagnostics if d.code == "V006"]
    assert found.span is not None and found.span.line == line_of(text, "{id: banditry")
    assert [r.span.file for r in found.related] == ["rules/cards/expansion-project.yaml"]  # Law's, not Theology's


def test_changing_a_commodity_count_derives_the_deck_total() -> None:
    body = "overlay:\n  commodities:\n    patch:\n      - {id: clay, count: 9, source: house rule}\n"
    analysis = analysed("clay", ("rulesets/clay.yaml", _header("clay", "expansion-project") + body))
    assert not [d for d in analysis.diagnostics if d.code == "D001"]


RAISED_BRONZE_AGE = (
    "overlay:\n  epochs:\n    patch:\n"
    "      - id: early_bronze_age\n"
    "        requirements: {min_cities: 4, text: Four cities in play., source: house rule}\n"
)


def test_a_variant_can_silence_a_diagnostic_its_change_causes_in_a_base_file() -> None:
    loud = analysed("loud", ("rulesets/loud.yaml", _header("loud", "advanced-civilization") + RAISED_BRONZE_AGE))
    (found,) = [d for d in loud.diagnostics if d.code == "A010"]  # the base's Late Bronze Age is now lower
    assert found.span is not None and found.span.file == "rules/rulesets/loud.yaml"  # where to edit
    assert found.span.line == line_of(_header("loud", "advanced-civilization") + RAISED_BRONZE_AGE, "min_cities: 4")
    assert found.related[0].span.file == "rules/rulesets/advanced-civilization.yaml"
    suppress = (
        "suppress:\n"
        "  - {code: A010, target: late_bronze_age, reason: the house rule makes the first city step the hardest}\n"
    )
    text = _header("quiet", "advanced-civilization") + suppress + RAISED_BRONZE_AGE
    quiet = analysed("quiet", ("rulesets/quiet.yaml", text))
    assert quiet.ok and not problems(quiet), problems(quiet)


def test_a_suppression_that_silences_nothing_is_a_warning() -> None:
    text = _header("idle", "advanced-civilization") + "suppress:\n  - {code: A010, reason: just in case}\n"
    analysis = analysed("idle", ("rulesets/idle.yaml", text))
    (found,) = problems(analysis)
    assert found.code == "V008" and found.span is not None and found.span.line == line_of(text, "{code: A010")


CARDS, CALAMITIES = "rules/cards/advanced-civilization.yaml", "rules/calamities/advanced-civilization.yaml"


def _warning(code: str, message: str, file: str = CARDS, subjects: tuple[str, ...] | None = None) -> Diagnostic:
    """A warning of ``code``; what it is about is given, or the names its message quotes, as every
    check gives them (`test_checks.py` holds each check's to its message)."""
    from civrules.diagnostics.words import quoted

    about = tuple(quoted(message)) if subjects is None else subjects
    return Diagnostic(code, Severity.WARNING, message, Span(file, 3, 1, 3, 5), subjects=about)


def _suppressing(*entries: str) -> Resolved:
    text = _header("quiet", "advanced-civilization") + "suppress:\n" + "".join(f"  - {e}\n" for e in entries)
    resolved = analysed("quiet", ("rulesets/quiet.yaml", text)).resolved
    assert resolved is not None
    return resolved


def test_each_diagnostic_tries_only_the_suppress_entries_that_can_silence_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant silencing 60 warnings of one code by their ids: each warning is tried against
    its own entry, not against all 60 (3,000 of them: 9 million tries, 5 s)."""
    from civrules.pipeline import suppression as pipeline

    resolved = _suppressing(*(f"{{code: M003, target: h{n}, reason: order kept}}" for n in range(60)))
    diagnostics = [_warning("M003", f"write the border `h{n}` – `h{n + 1}x` in id order") for n in range(60)]
    tried: list[object] = []

    def counted(entry: dict[str, object], needle: str | None, diagnostic: Diagnostic) -> bool:
        tried.append(entry)
        return real(entry, needle, diagnostic)

    real = pipeline._silences
    monkeypatch.setattr(pipeline, "_silences", counted)
    assert pipeline.suppress_in_base(diagnostics, resolved) == []
    assert len(tried) == len(diagnostics)


def test_the_hints_of_unused_suppress_entries_ask_each_code_s_diagnostics_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """V008's "did you mean" for n entries of one code whose targets are misspelt: the subjects of
    that code's diagnostics are gathered into one vocabulary, asked by every entry, not gathered
    again for each (n entries and n warnings: n² names handed over, 2,000 of each 5.8 s). Counted,
    never timed; the first entries still get their suggestion."""
    from civrules.diagnostics import suggest
    from civrules.pipeline import suppression as pipeline

    given: list[int] = []

    class Counted(suggest.Vocabulary):
        def __init__(self, words: Any, **options: Any) -> None:
            words = list(words)
            given.append(len(words))
            super().__init__(words, **options)

    n = 60
    resolved = _suppressing(*(f"{{code: M003, target: hh{i}, reason: order kept}}" for i in range(n)))
    diagnostics = [_warning("M003", f"write the border `h{i}` – `h{i + 1}x` in id order") for i in range(n)]
    monkeypatch.setattr(suggest, "Vocabulary", Counted)
    kept = pipeline.suppress_in_base(diagnostics, resolved)
    hints = [d.hint for d in kept if d.code == "V008"]
    assert len(hints) == n and hints[0] == "`target`: did you mean `h0`?"
    assert sum(given) <= 2 * n, f"{len(given)} vocabularies of {sum(given):,} names for {n} entries"


def test_suppress_entries_silence_what_trying_every_entry_silences() -> None:
    """The entries found by a diagnostic's code and quotes silence what trying each entry of its
    code did: a target is any name the message quotes (not the text between two quotes: see
    the test after the next), an entry without a target silences its code anywhere, `file` narrows, the
    variant's own lines are left to comments; the unused entries are reported in order."""
    from civrules.pipeline import suppression as pipeline

    entries = [
        "{code: K003, target: pottery, reason: r}",
        "{code: K003, target: pottery, file: cards/advanced-civilization.yaml, reason: twice}",
        "{code: K003, target: pottery, file: calamities/advanced-civilization.yaml, reason: elsewhere}",
        "{code: K003, target: b, reason: the second of two quotes}",
        "{code: K016, reason: everywhere}",
        "{code: K016, target: never, reason: unused}",
        "{code: M003, target: h1, reason: r}",
        "{code: M003, target: h2, reason: unused in a message of many quotes}",
        "{code: A010, target: pottery, reason: no such diagnostic}",
        *(f"{{code: K003, target: spare{n}, reason: unused}}" for n in range(4)),  # more targets than quotes
    ]
    resolved = _suppressing(*entries)
    many = " ".join(f"`h{n}`" for n in range(3, 30))
    diagnostics = [
        _warning("K003", "`pottery` costs too much"),
        _warning("K003", "`pottery` costs too much", CALAMITIES),
        _warning("K003", "`pottery` costs too much", "rules/rulesets/quiet.yaml"),
        _warning("K003", "`pottery`s"),
        _warning("K003", "`a` or `b` is wrong"),
        _warning("K003", "`c` or `d` is wrong"),
        _warning("K003", "`music` costs too much"),
        _warning("K016", "anything"),
        _warning("M003", f"{many} and `h1`"),
        _warning("M003", many),
        _warning("M003", "h1 unquoted"),
        _warning("L001", "`pottery`"),
        Diagnostic("K003", Severity.WARNING, "`pottery` nowhere"),
    ]
    own = len(resolved.chain) - 1
    written = resolved.manifest.data["suppress"]
    needles = [e.get("target") for e in written]

    def silencing(d: Diagnostic) -> list[int]:
        if d.span is None or not pipeline.suppressible(d.code) or resolved.layers.get(d.span.file) == own:
            return []
        return [n for n, e in enumerate(written) if pipeline._silences(e, needles[n], d)]

    expected = [d for d in diagnostics if not silencing(d)]
    used = {n for d in diagnostics for n in silencing(d)}
    unused = [
        f"`suppress` entry {n + 1} ({e['code']}) silences nothing" for n, e in enumerate(written) if n not in used
    ]
    kept = pipeline.suppress_in_base(diagnostics, resolved)
    assert kept == expected + [d for d in kept if d.code == "V008"]
    assert [d.message for d in kept if d.code == "V008"] == unused
    assert [d.message for d in expected] == [
        "`pottery` costs too much",  # in the variant's own file
        "`c` or `d` is wrong",
        "`music` costs too much",
        many,
        "h1 unquoted",
        "`pottery`",
        "`pottery` nowhere",
    ]
    assert len(unused) == 7


def test_merge_patch_list_operations_by_value_and_by_fields() -> None:
    assert merge_patch([1, 2, 3], {"remove": [2]}) == [1, 3]
    items = [{"id": "a", "v": 1}, {"id": "b", "v": 2}]
    assert merge_patch(items, {"patch": [{"where": {"id": "b"}, "with": {"v": 3}}]}) == [
        {"id": "a", "v": 1},
        {"id": "b", "v": 3},
    ]
    assert merge_patch(items, {"replace": [{"where": {"id": "a"}, "with": {"id": "z"}}]})[0] == {"id": "z"}
    assert merge_patch([1, 3], {"insert": [{"before": 3, "items": [2]}]}) == [1, 2, 3]
    assert merge_patch([1, 2], {"insert": [{"after": 1, "items": [9]}], "append": [4]}) == [1, 9, 2, 4]


def _header(ruleset_id: str, extends: str) -> str:
    return (
        "# yaml-language-server: $schema=../../schemas/ruleset.schema.json\n"
        f'kind: ruleset\nid: {ruleset_id}\nname: "{ruleset_id}"\nextends: {extends}\n'
    )


def test_build_builds_the_clean_rulesets_and_reports_the_broken_one(tmp_path: Path) -> None:
    broken = _header("broken", "advanced-civilization") + (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, cots: 50}\n"
    )
    rules = _rules_with(tmp_path, "advanced-civilization", ("rulesets/broken.yaml", broken))
    out = tmp_path / "generated"
    runner = CliRunner()
    result = runner.invoke(main, ["--rules", str(rules), "build", "advanced-civilization", "broken", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert (out / "python" / "civrules_rulesets" / "advanced_civilization" / "__init__.py").is_file()
    assert not (out / "sheets" / "broken").exists()
    lines = result.stderr.splitlines()
    assert "error[S002]" in result.stdout.splitlines()[0]
    assert "info[" not in result.stdout, "infos are one line of the summary without --verbose"
    assert lines[-1] == "civrules: not built, the rules have errors (previous output kept): broken"


def _uncomment(text: str) -> str:
    """The scaffold with its examples uncommented as a designer would: one `# ` off each line."""
    lines, inside = [], False
    for line in text.splitlines():
        inside = inside or line.startswith("# overlay:")
        lines.append(line[2:] if inside and line.startswith("# ") else line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("base", ["advanced-civilization", "expansion-project"])
def test_the_scaffold_validates_as_is_and_with_its_examples_uncommented(tmp_path: Path, base: str) -> None:
    rules = _rules_with(tmp_path, base)
    runner = CliRunner()
    assert runner.invoke(main, ["--rules", str(rules), "new-variant", "mine", "--extends", base]).exit_code == 0
    created = rules / "rulesets" / "mine.yaml"
    created.write_text(_uncomment(created.read_text(encoding="utf-8")), encoding="utf-8")
    uncommented = runner.invoke(main, ["--rules", str(rules), "validate", "mine", "--format", "json"])
    assert uncommented.exit_code == 0, uncommented.stdout
    assert not [d for d in json.loads(uncommented.stdout) if d["severity"] != "info"]
    changes = runner.invoke(main, ["--rules", str(rules), "diff", base, "mine"]).stdout
    assert "civilization_cards: 1 changed" in changes and "hand_limit.commodity_cards" in changes


@pytest.mark.parametrize(
    "base",
    [
        "imperial-settlers",
        pytest.param("imperial-settlers-peaceful", marks=pytest.mark.slow),
        pytest.param("sid-meiers-civilization", marks=pytest.mark.slow),
    ],
)
def test_the_scaffold_keeps_its_head_keys_together(tmp_path: Path, base: str) -> None:
    """`new-variant` of an Imperial Settlers ruleset wrote a blank line between `extends:` and
    the `family:` its family's example begins with, where the base says no `status:`."""
    rules = _rules_with(tmp_path, base)
    assert CliRunner().invoke(main, ["--rules", str(rules), "new-variant", "mine", "--extends", base]).exit_code == 0
    text = (rules / "rulesets" / "mine.yaml").read_text(encoding="utf-8")
    head = text[text.index("kind: ruleset") :].split("\n\n")[0].splitlines()
    keys = [line.split(":")[0] for line in head if not line.startswith("#")]
    assert keys[:4] == ["kind", "id", "name", "extends"]
    if base.startswith("imperial-settlers"):
        assert "family" in keys, head


def _house_changes_sheet() -> str:
    """The house rules' "what this variant changes" sheet, as text."""
    workspace = CachedWorkspace({"rulesets/ep-house.yaml": HOUSE_RULES})
    loaded = workspace.load_ruleset(workspace.manifests()["ep-house"])
    analysis = analyse(workspace, loaded)
    assert analysis.model is not None and analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    return html.unescape(render_sheets(analysis.model, "0" * 64, changes=changes)["variant-changes.html"].decode())


def test_the_variant_sheet_shows_each_change_of_the_house_rules() -> None:
    sheet = _house_changes_sheet()
    for change in (
        "- banditry  Banditry",
        "+ banking  Banking",
        "+ cost: 140",
        "+ prerequisites",  # a list of mappings in words, never JSON
        "· card: coinage",
        "~ cost: unknown (The heading of 30.41 is lost; no passage gives the advancement's cost.) → 45",
        "~ count: 7 → 8",
        "~ hand_limit.commodity_cards: 8 → 9",
        '- attributes[text: "Five fewer face-value points…"]',
    ):
        assert change in sheet, change
    # Every element is named by what tells it apart, every unknown by its reason.
    assert "[…]" not in sheet and '"unknown": ""' not in sheet
    assert '[{"' not in sheet and '{"' not in sheet


def test_diff_and_the_variant_sheet_list_the_same_changes_as_built(tmp_path: Path) -> None:
    """`civrules diff` and the variant's changes sheet compare the rulesets as built: the house
    rules' clay count and removed calamity change the deck total and stack 9's minor calamities,
    which the family derives. The command listed neither while the sheet listed both."""
    rules = _rules_with(tmp_path, "expansion-project", house())
    text = CliRunner().invoke(main, ["--rules", str(rules), "diff", "expansion-project", "ep-house"]).stdout
    sheet = _house_changes_sheet()
    for derived in ("~ commodities.total_cards.count: 286 → 287", "calamity_cards.minor: 1 → 0"):
        assert derived in text and derived in sheet, derived


def _yaml_after(text: str, marker: str) -> str:
    start = text.index("```yaml\n", text.index(marker)) + len("```yaml\n")
    return text[start : text.index("```", start)]


def test_the_house_rules_examples_of_the_readme_and_the_reference_validate_clean() -> None:
    from tests.conftest import REPO
    from tools.reference import render_reference

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for example in (
        _yaml_after(readme, "A house rule of the Expansion Project"),
        _yaml_after(render_reference(), "Example (a house rule of the Expansion Project)"),
    ):
        analysis = analysed("my-house-rules", ("rulesets/my-house-rules.yaml", example))
        assert analysis.ok and not problems(analysis), problems(analysis)


def test_a_check_on_a_patched_entity_points_at_the_patch_with_a_note_at_the_base() -> None:
    body = (
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: pottery, name: Cloth Making, source: house rule}\n"
    )
    text = _header("renamed", "advanced-civilization") + body
    analysis = analysed("renamed", ("rulesets/renamed.yaml", text))
    (found,) = [d for d in analysis.diagnostics if d.code == "I002"]
    assert found.span is not None and found.span.line == line_of(text, "name: Cloth Making")
    notes = {r.label: r.span for r in found.related}
    base = notes["the base definition"]
    assert base.file == "rules/cards/advanced-civilization.yaml"
    cards = (RULES / "cards" / "advanced-civilization.yaml").read_text(encoding="utf-8")
    assert base.line == line_of(cards, "id: pottery")


def test_a_settings_patch_that_names_a_collection_points_at_the_collection_block() -> None:
    text = _header("tracks", "advanced-civilization") + "overlay:\n  settings:\n    ast: {tracks: []}\n"
    analysis = analysed("tracks", ("rulesets/tracks.yaml", text))
    (found,) = problems(analysis)
    assert found.span is not None and found.span.line == line_of(text, "ast: {tracks")
    assert found.hint is not None and "`overlay.ast_tracks`" in found.hint


def test_a_suppression_narrowed_to_another_file_silences_nothing() -> None:
    suppress = "suppress:\n  - {code: A010, file: cards/advanced-civilization.yaml, reason: wrong file}\n"
    text = _header("elsewhere", "advanced-civilization") + suppress + RAISED_BRONZE_AGE
    analysis = analysed("elsewhere", ("rulesets/elsewhere.yaml", text))
    assert sorted(d.code for d in problems(analysis)) == ["A010", "V008"]
    right = text.replace("cards/advanced-civilization.yaml", "rulesets/advanced-civilization.yaml")
    assert not problems(analysed("elsewhere", ("rulesets/elsewhere.yaml", right)))


def test_settings_are_replaced_added_and_removed_whole_as_collections_are() -> None:
    header = _header("whole", "expansion-project")
    replaced = analysed(
        "whole",
        (
            "rulesets/whole.yaml",
            header + "overlay:\n  settings:\n    replace:\n"
            '      hand_limit: {commodity_cards: 9, rule: "27.2", text: "Nine cards; no card changes them."}\n',
        ),
    )
    assert replaced.model is not None and not problems(replaced)
    assert "card_changes" not in replaced.model.data["hand_limit"]
    removed = analysed("whole", ("rulesets/whole.yaml", header + "overlay:\n  settings:\n    remove: [total_cards]\n"))
    assert removed.model is not None and "total_cards" not in removed.model.settings["commodities"]
    text = header + 'overlay:\n  settings:\n    add:\n      hand_limit: {commodity_cards: 9, rule: "27.2", text: "x"}\n'
    (twice,) = problems(analysed("whole", ("rulesets/whole.yaml", text)))
    assert twice.code == "V004" and twice.span is not None and twice.span.line == line_of(text, "hand_limit:")


def test_elements_without_an_id_are_named_by_what_tells_them_apart() -> None:
    from civrules.resolve.diff import diff_values, distinguish

    decks = [
        {"players": {"min": 9, "max": 9}, "map_region": "east"},
        {"players": {"min": 9, "max": 9}, "map_region": "west"},
        {"players": {"min": 10, "max": 10}, "map_region": "east"},
    ]
    assert distinguish(decks) == [
        "players: 9-9, map_region: east",
        "players: 9-9, map_region: west",
        "players: 10-10, map_region: east",
    ]
    assert distinguish([{"rank": 2, "type": "infantaria"}, {"rank": 3, "type": "infantaria"}]) == ["rank: 2", "rank: 3"]
    old = [{"rank": 2, "type": "a", "cost": 3}, {"rank": 3, "type": "a", "cost": 4}]
    new = [{"rank": 2, "type": "a", "cost": 5}, {"rank": 3, "type": "a", "cost": 4}]
    assert [(c.path, c.old, c.new) for c in diff_values(old, new, "units")] == [("units[rank: 2].cost", 3, 5)]
    added = list(diff_values(["gaul"], ["gaul", "narbo"], "areas"))
    assert [(c.path, c.new) for c in added] == [("areas[narbo]", "narbo")]


@pytest.mark.parametrize(
    ("family", "base"),
    [
        ("advanced-civilization", "imperial-settlers"),
        ("imperial-settlers", "sid-meiers-civilization"),
        ("sid-meiers-civilization", "advanced-civilization"),
        ("sid-meiers-civilization", "imperial-settlers-peaceful"),
    ],
)
def test_a_variant_naming_another_family_than_its_base_is_one_v009_at_its_family(family: str, base: str) -> None:
    text = f"kind: ruleset\nfamily: {family}\nid: other\nname: Other\nextends: {base}\n"
    found = problems(analysed("other", ("rulesets/other.yaml", text)))
    assert [(d.code, d.span and d.span.line) for d in found] == [("V009", 2)], found
    hint = str(found[0].hint)
    base_family = "imperial-settlers" if base.startswith("imperial") else base
    assert f"`{family}`" in hint and f"`{base_family}`" in hint, hint
    assert "drop `family:`" in hint and "point `extends:`" in hint, hint
    assert found[0].related[0].span.line == 5  # the `extends:` line


def test_a_variant_of_another_game_s_overlay_is_named_at_its_extends_line() -> None:
    text = (
        "kind: ruleset\nid: other\nname: Other\nextends: imperial-settlers\n"
        "overlay:\n  civilization_cards:\n    patch:\n      - {id: metalworking, cost: 200}\n"
    )
    found = problems(analysed("other", ("rulesets/other.yaml", text)))
    assert sorted((d.code, d.span and d.span.line) for d in found) == [("S002", 6), ("V009", 4)], found
    (v009,) = [d for d in found if d.code == "V009"]
    assert "`advanced-civilization`" in v009.message and "point `extends:`" in str(v009.hint)


@pytest.mark.parametrize("base", ["imperial-settlers", "sid-meiers-civilization", "advanced-civilization"])
def test_a_variant_of_any_family_may_leave_family_out(base: str) -> None:
    text = f"kind: ruleset\nid: other\nname: Other\nextends: {base}\n"
    assert problems(analysed("other", ("rulesets/other.yaml", text))) == []


CITED_CHANGES = """\
kind: ruleset
id: cited
name: Cited
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - id: metalworking
        credits:
          remove: [{card: military}]
          append: [{card: military, points: 25, source: "house rule: more for Military"}]
      - id: agriculture
        source: "house rule: a gentler Agriculture"
        attributes:
          patch:
            - where: {rule: "32.241"}
              with: {text: "Population limit +2 in areas occupied only by the holder's tokens."}
"""


@pytest.mark.parametrize("reverse", [False, True])
def test_diff_cites_a_change_inside_a_list_element_by_the_element_on_each_side(tmp_path: Path, reverse: bool) -> None:
    """A credit line cites 32.232 where its card cites 32.23; a rewritten attribute text is the
    house rule's on the new side (the `where:` selector's `rule:` is no citation), 32.241 on the old."""
    rules = _rules_with(tmp_path, "advanced-civilization", ("rulesets/cited.yaml", CITED_CHANGES))
    pair = ["cited", "advanced-civilization"] if reverse else ["advanced-civilization", "cited"]
    result = CliRunner().invoke(main, ["--rules", str(rules), "diff", *pair, "--format", "json"])
    assert result.exit_code == 0, result.output
    changed = json.loads(result.stdout)["collections"]["civilization_cards"]["changed"]
    sources = {(c["id"], f["field"].split("[")[0]): f.get("sources") for c in changed for f in c["fields"]}
    expected = {
        ("metalworking", "credits"): {"old": "rule 32.232", "new": "source: house rule: more for Military"},
        ("agriculture", "attributes"): {"old": "rule 32.241", "new": "source: house rule: a gentler Agriculture"},
    }
    if reverse:
        expected = {k: {"old": v["new"], "new": v["old"]} for k, v in expected.items()}
    assert sources == expected


UNITS_PATCHED = """\
kind: ruleset
id: ranks
name: Ranks
extends: sid-meiers-civilization-community
overlay:
  technologies:
    patch:
      - id: logistics
        unlocks:
          units:
            patch:
              - {where: {rank: 9}, with: {rank: 3}}
              - {where: {type: infantaria, rank: 7}, with: {rank: 3}}
              - {where: {type: zzz}, with: {rank: 3}}
"""


def test_a_selector_naming_no_element_lists_the_values_its_field_takes() -> None:
    found = [d for d in analysed("ranks", ("rulesets/ranks.yaml", UNITS_PATCHED)).diagnostics if d.code == "V007"]
    assert [d.hint for d in found] == [
        "`rank` takes, in this list: 2",
        "`rank` takes, in this list: 2",
        '`type` takes, in this list: "artilharia", "cavalaria", "infantaria"',
    ]


def test_a_selector_hint_shows_a_few_values_sorted_then_an_ellipsis() -> None:
    from civrules.resolve import _selector_hint

    items = [{"number": n, "text": f"t{n}"} for n in range(20, 0, -1)]
    assert _selector_hint(items, {"number": 99}) == "`number` takes, in this list: 1, 2, 3, 4, 5, 6, 7, 8, …"
    assert _selector_hint([3, 1, 2], 7) == "the list holds: 1, 2, 3"


SETTINGS_A = """\
kind: ruleset
family: imperial-settlers
id: isv-a
name: "IS variant A"
extends: imperial-settlers
overlay:
  settings:
    starting_hand: {common: 3, source: "house rule: bigger start"}
    rounds: {count: 6}  # civrules: ignore[Q009] an uncited change, to show how it is cited
"""

SETTINGS_B = (
    SETTINGS_A.replace("isv-a", "isv-b")
    .replace("variant A", "variant B")
    .replace(
        '    starting_hand: {common: 3, source: "house rule: bigger start"}\n'
        "    rounds: {count: 6}  # civrules: ignore[Q009] an uncited change, to show how it is cited\n",
        '    starting_hand: {faction: 1, source: "house rule: smaller start"}\n',
    )
)


def test_diff_cites_each_field_of_a_setting_as_export_s_setting_sources_does(tmp_path: Path) -> None:
    """A settings patch cites the fields it writes, not the ones it leaves (the rulebook's), and a
    patch that cites nothing leaves its field uncited: in the diff (text and JSON) as in `export`."""
    rules = _rules_with(
        tmp_path, "imperial-settlers", ("rulesets/isv-a.yaml", SETTINGS_A), ("rulesets/isv-b.yaml", SETTINGS_B)
    )
    runner = CliRunner()
    exported = json.loads(runner.invoke(main, ["--rules", str(rules), "export", "isv-a"]).stdout)
    assert exported["setting_sources"] == {
        "rounds": {"count": None},
        "starting_hand": {"common": "source: house rule: bigger start"},
    }
    result = runner.invoke(main, ["--rules", str(rules), "diff", "isv-a", "isv-b", "--citations", "--format", "json"])
    assert result.exit_code == 0, result.output
    sources = {c["field"]: c.get("sources") for c in json.loads(result.stdout)["settings"]}
    assert sources == {
        "rounds.count": {"old": None, "new": "rule p6, p7/final-de-jogo"},
        "starting_hand.common": {"old": "source: house rule: bigger start", "new": "rule p5"},
        "starting_hand.faction": {"old": "rule p5", "new": "source: house rule: smaller start"},
        "starting_hand.source": None,  # a citation changed is no fact to cite
    }
    for field_name, cited in exported["setting_sources"]["starting_hand"].items():
        assert sources[f"starting_hand.{field_name}"]["old"] == cited
    text = runner.invoke(main, ["--rules", str(rules), "diff", "imperial-settlers", "isv-a"]).stdout
    assert text == (
        "imperial-settlers → isv-a\nsettings:\n"
        "  ~ rounds.count: 5 → 6\n      cited: rule p6, p7/final-de-jogo → uncited\n"
        "  ~ starting_hand.common: 2 → 3\n      cited: rule p5 → source: house rule: bigger start\n"
    )


def test_the_variant_changes_sheet_cites_a_setting_field_as_the_diff_does() -> None:
    from civrules.emit.sheets.variant_changes import changes_sheet
    from civrules.resolve.diff import render_text

    workspace = CachedWorkspace({"rulesets/isv-a.yaml": SETTINGS_A})
    loaded = workspace.load_ruleset(workspace.manifests()["isv-a"])
    analysis = analyse(workspace, loaded)
    assert analysis.resolved is not None
    changes = variant_changes(workspace, loaded, analysis.resolved)
    assert changes is not None
    lines = [line["text"] for line in changes_sheet(render_text(changes))["lines"]]
    assert lines[lines.index("~ rounds.count: 5 → 6") + 1] == "cited: rule p6, p7/final-de-jogo → uncited"
    assert (
        lines[lines.index("~ starting_hand.common: 2 → 3") + 1] == "cited: rule p5 → source: house rule: bigger start"
    )


def test_a_suppress_target_silences_a_diagnostic_that_quotes_it_whatever_the_name_holds() -> None:
    """A target is a name the message quotes, read whole: one holding a backtick is quoted by a
    longer fence (`` a`b.yaml ``), and an entry naming it silenced nothing, looked for as
    `` `a`b.yaml` `` in the message's text; spaces, letters outside ASCII, a newline and a tab
    are names like any other."""
    from civrules.diagnostics.words import ticked
    from civrules.pipeline import suppression as pipeline
    from tests.core.test_pasted_commands import QUOTED_NAMES

    resolved = _suppressing(*(f"{{code: K003, target: {json.dumps(name)}, reason: r}}" for name in QUOTED_NAMES))
    assert [e["target"] for e in resolved.manifest.data["suppress"]] == QUOTED_NAMES
    diagnostics = [_warning("K003", f"the rule index {ticked(name)} cites no such section") for name in QUOTED_NAMES]
    assert pipeline.suppress_in_base(diagnostics, resolved) == []


def test_a_suppress_target_is_matched_against_what_the_diagnostic_is_about_not_its_words() -> None:
    """A target is one of the subjects the check gave its diagnostic: the ids a message names
    unquoted (a section number) or past the first ten of a list (`and 2 more`) are silenced by
    name; a name the message quotes that the diagnostic is not about (a value) silences nothing."""
    from civrules.pipeline import suppression as pipeline

    resolved = _suppressing(
        '{code: Q003, target: "16.4", reason: a section named unquoted}',
        "{code: C006, target: c11, reason: the eleventh of a list}",
        "{code: K003, target: unknown, reason: a quoted value and no subject}",
    )
    unquoted = _warning("Q003", "section 16.4 is cited, but its text is missing", subjects=("16.4",))
    ids = [f"c{n}" for n in range(12)]
    listed = _warning("C006", f"{words.listed(ids)} come free", subjects=tuple(ids))
    value = _warning("K003", "`pottery` costs `unknown`", subjects=("pottery",))
    kept = pipeline.suppress_in_base([unquoted, listed, value], resolved)
    assert kept[0] == value
    assert [(d.code, d.message) for d in kept[1:]] == [("V008", "`suppress` entry 3 (K003) silences nothing")]


def test_a_suppress_target_is_one_name_not_the_text_between_two() -> None:
    """`` `a` or `b` `` names `a` and `b`: a target `` a` or `b `` (or `` or ``) is no name it
    quotes, and silences nothing, so V008 says so; V008's hint proposes the names quoted, a name
    holding a backtick whole."""
    from civrules.diagnostics.words import quoted, ticked
    from civrules.pipeline import suppression as pipeline

    resolved = _suppressing(
        '{code: K003, target: "a` or `b", reason: across two quotes}',
        '{code: K003, target: " or ", reason: between two quotes}',
        '{code: K016, target: "cards/a`c.yaml", reason: misspelt}',
    )
    wrong = _warning("K003", "`a` or `b` is wrong")
    named = _warning("K016", f"{ticked('cards/a`b.yaml')} is wrong")
    kept = pipeline.suppress_in_base([wrong, named], resolved)
    assert kept[:2] == [wrong, named]
    assert [d.code for d in kept[2:]] == ["V008"] * 3
    assert quoted(kept[-1].hint or "")[-1] == "cards/a`b.yaml"


@pytest.mark.parametrize(
    ("extends", "overlay", "code", "subjects"),
    [
        ("nowhere", "", "V001", ("nowhere",)),
        (
            "advanced-civilization",
            "overlay:\n  civilization_cards:\n    patch:\n      - {id: potery, cost: 9, source: 'house rule: x'}\n",
            "V005",
            ("potery",),
        ),
    ],
    ids=["unknown-base", "patch-of-no-entry"],
)
def test_a_variants_diagnostics_say_what_they_are_about(
    extends: str, overlay: str, code: str, subjects: tuple[str, ...]
) -> None:
    """What the resolver reports names its subjects as data, as the checks' diagnostics do: the
    base `extends` names, the id a patch names; a `suppress:` target reaches them by that name."""
    found = analysed("about", ("rulesets/about.yaml", _header("about", extends) + overlay)).diagnostics
    assert [d.subjects for d in found if d.code == code] == [subjects]
