"""A data file is named by one spelling, and read once per ruleset (round 19).

`maps/./mediterranean.yaml`, `maps//mediterranean.yaml` and `maps/mediterranean.yaml/` open the
same file as `maps/mediterranean.yaml`, while `uniqueItems` compares what is written: listed
under two spellings, the file was read twice and every area was I001 at the data file (494
diagnostics), none at the manifest. A variant that lists a file its base already reads did the
same, whatever the spelling.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from civrules.diagnostics import Diagnostic
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, shipped_text

BASE = "rulesets/advanced-civilization.yaml"
WESTERN = "rulesets/advanced-civilization-western.yaml"
MAP = "    - maps/mediterranean.yaml\n"


def errors(files: dict[str, str], ruleset_id: str) -> list[Diagnostic]:
    workspace = CachedWorkspace(files)
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset_id]))
    return [d for d in analysis.diagnostics if d.severity == "error"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    "spelling", ["maps/./mediterranean.yaml", "maps//mediterranean.yaml", "maps/mediterranean.yaml/"]
)
def test_a_file_listed_again_under_another_spelling_is_one_error_at_that_entry(spelling: str) -> None:
    text = shipped_text(BASE)
    assert MAP in text
    edited = text.replace(MAP, f"{MAP}    - {spelling}\n", 1)
    (found,) = errors({BASE: edited}, "advanced-civilization")
    assert found.code == "R003", found
    assert found.span is not None and found.span.file.endswith(BASE)
    assert found.span.line == line_of(edited, f"- {spelling}")
    assert f"`{spelling}`" in found.message and "`maps/mediterranean.yaml`" in found.message


def test_a_path_spelt_otherwise_is_refused_even_alone() -> None:
    text = shipped_text(BASE)
    assert errors({BASE: text.replace(MAP, "    - maps//mediterranean.yaml\n", 1)}, "advanced-civilization")
    assert errors({BASE: text}, "advanced-civilization") == []


@pytest.mark.parametrize("spelling", ["maps/mediterranean.yaml", "maps/./mediterranean.yaml"])
def test_a_variant_listing_a_file_its_base_reads_is_one_error_naming_the_base(spelling: str) -> None:
    text = shipped_text(WESTERN)
    entry = "    - maps/western-panel.yaml\n"
    assert entry in text
    edited = text.replace(entry, f"{entry}    - {spelling}\n", 1)
    (found,) = errors({WESTERN: edited}, "advanced-civilization-western")
    assert found.span is not None and found.span.file.endswith(WESTERN)
    assert found.span.line == line_of(edited, f"- {spelling}")
    if spelling == "maps/mediterranean.yaml":
        assert found.code == "V010", found
        assert "advanced-civilization" in found.message
        assert any(
            r.span.file.endswith(BASE) and r.span.line == line_of(shipped_text(BASE), MAP) for r in found.related
        )
    else:
        assert found.code == "R003", found


def test_the_refusal_says_how_to_write_the_path() -> None:
    text = shipped_text(BASE).replace(MAP, "    - maps/./mediterranean.yaml\n", 1)
    (found,) = errors({BASE: text}, "advanced-civilization")
    assert (
        found.message
        == "`maps/./mediterranean.yaml` is `maps/mediterranean.yaml` spelt otherwise: a file is named one way"
    )
    assert found.hint == "write `maps/mediterranean.yaml`"


# The schema's path pattern refuses `./maps/x.yaml`, `maps\x.yaml` and a space around the path
# before the resolver sees them: S001 "does not match the pattern `^(?!/)(?!.*\.\.)...`", hinted
# "write a path relative to the rules folder, without `..`", which it already was (round 19).


@pytest.mark.parametrize(
    "spelling", ['"./maps/mediterranean.yaml"', '"maps\\\\mediterranean.yaml"', '"maps/mediterranean.yaml "']
)
def test_a_spelling_the_schema_refuses_is_told_as_r003_tells_it_and_its_hint_fixes_it(spelling: str) -> None:
    text = shipped_text(BASE)
    edited = text.replace(MAP, f"    - {spelling}\n", 1)
    (found,) = errors({BASE: edited}, "advanced-civilization")
    assert found.span is not None and found.span.line == line_of(edited, spelling)
    assert found.message.endswith(" is `maps/mediterranean.yaml` spelt otherwise: a file is named one way")
    assert found.hint == "write `maps/mediterranean.yaml`"
    assert errors({BASE: edited.replace(spelling, "maps/mediterranean.yaml")}, "advanced-civilization") == []


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.yaml", "maps/my map.yaml"])
def test_a_path_no_spelling_makes_plain_is_not_given_one(path: str) -> None:
    edited = shipped_text(BASE).replace(MAP, f'    - "{path}"\n', 1)
    (found,) = errors({BASE: edited}, "advanced-civilization")
    assert found.code == "S001"
    assert "pattern" not in found.message and "spelt otherwise" not in found.message
    assert found.hint == "write a path relative to the rules folder, without `..`"


def test_a_suppression_of_a_base_file_spelt_otherwise_is_told_the_same() -> None:
    entry = '  - {code: Q007, file: "./cards/advanced-civilization.yaml", reason: x}\n'
    variant = shipped_text(WESTERN) + "suppress:\n" + entry
    (found,) = errors({WESTERN: variant}, "advanced-civilization-western")
    assert found.hint == "write `cards/advanced-civilization.yaml`"


def test_a_missing_data_file_is_offered_only_files_of_its_slots_kind(tmp_path: Path) -> None:
    """A cards file renamed on disk (`cards/deck.yaml`) while the manifest still lists the old name:
    L012's "did you mean" offered the closest rule file of any kind, the manifest itself or the
    factions file named like it, and the quick fix applying it made a kind mismatch. Only a file of
    the slot's kind is offered: here none is close enough, and the hint says where paths start."""
    from civrules.pipeline.incremental import Session
    from tests.conftest import copy_rulesets

    rules = copy_rulesets(tmp_path / "rules", "imperial-settlers")
    (rules / "cards/imperial-settlers.yaml").rename(rules / "cards/deck.yaml")
    session = Session(rules)
    (found,) = [d for d in session.update().diagnostics if d.code == "L012"]
    assert found.hint is not None and found.hint.startswith("the path is relative to"), found.hint
    assert found.suggestion is None
    # Named close to what was listed, the renamed file is the one offered.
    (rules / "cards/deck.yaml").rename(rules / "cards/imperial-settlers-core.yaml")
    (found,) = [d for d in session.update().diagnostics if d.code == "L012"]
    assert found.hint is not None and found.hint.startswith("did you mean `cards/imperial-settlers-core.yaml`?")
    # And the editor's quick fix writes it (a "did you mean" of a path had none: it was to be typed).
    assert found.suggestion == "cards/imperial-settlers-core.yaml"


def test_rule_files_whose_names_differ_only_in_case_are_a_warning_at_the_one_to_rename(tmp_path: Path) -> None:
    """`cards/Foo.yaml` beside `cards/foo.yaml` worked on Linux and said nothing; a checkout on
    macOS or Windows keeps one of them. A warning (R023) at the first of those to rename (all but
    the one spelt in lower case) names every one of them and says which to keep (round 34: it
    said "rename A or B"); a file named alone, and a `.yml` beside a `.yaml`, are not reported."""
    from civrules.load.workspace import Workspace

    rules = tmp_path / "rules"
    for relative in ("rulesets/a.yaml", "cards/Foo.yaml", "cards/foo.yaml", "cards/FOO.yaml", "maps/b.yaml",
                     "maps/b.yml", "Maps/c.yaml", "maps/c.yaml"):  # fmt: skip
        (rules / relative).parent.mkdir(parents=True, exist_ok=True)
        (rules / relative).write_text("kind: cards\n", encoding="utf-8")
    workspace = Workspace(rules)
    workspace.rule_files()
    found = sorted(
        (d for d in workspace.discovery_diagnostics if d.code == "R023"),
        key=lambda d: d.sort_key(),
    )
    assert [(d.severity.value, Path(d.span.file).relative_to(rules).as_posix()) for d in found if d.span] == [
        ("warning", "Maps/c.yaml"),
        ("warning", "cards/FOO.yaml"),
    ]
    maps, cards = found
    assert cards.subjects == ("cards/FOO.yaml", "cards/Foo.yaml", "cards/foo.yaml")
    assert "`cards/FOO.yaml`, `cards/Foo.yaml` differ from `cards/foo.yaml` only in case" in cards.message
    assert cards.hint is not None and cards.hint.startswith(
        "keep `cards/foo.yaml` (spelt in lower case, as rule files are): rename each of `cards/FOO.yaml`, "
        "`cards/Foo.yaml` to a name of its own"
    )
    assert [(Path(r.span.file).name, r.label) for r in cards.related] == [
        ("foo.yaml", "the name to keep"),
        ("Foo.yaml", "the same name in other letters"),
    ]
    assert maps.subjects == ("Maps/c.yaml", "maps/c.yaml")
    assert maps.hint is not None and maps.hint.startswith("keep `maps/c.yaml` (spelt in lower case")


def test_of_twins_in_case_the_one_the_manifests_name_is_kept(tmp_path: Path) -> None:
    """Round 34: R023 kept `cards/foo.yaml` for its spelling while the manifest's `files:` read
    `cards/Foo.yaml`: following the hint broke the ruleset. The one named alone is kept; where the
    manifests name both, or neither, the spelling decides as before."""
    from civrules.load.workspace import Workspace

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "cards").mkdir()
    (rules / "rulesets" / "a.yaml").write_text(
        "kind: ruleset\nid: a\nname: A\nfiles: {cards: [cards/Foo.yaml, cards/./Oak.yaml, cards/oak.yaml]}\n",
        encoding="utf-8",
    )
    for relative in ("cards/Foo.yaml", "cards/foo.yaml", "cards/Oak.yaml", "cards/oak.yaml", "cards/Elm.yaml",
                     "cards/elm.yaml"):  # fmt: skip
        (rules / relative).write_text("kind: cards\n", encoding="utf-8")
    workspace = Workspace(rules)
    workspace.rule_files()
    found = {Path(d.span.file).name: d for d in workspace.discovery_diagnostics if d.code == "R023" and d.span}
    assert sorted(found) == ["Elm.yaml", "Oak.yaml", "foo.yaml"], sorted(found)
    kept = found["foo.yaml"]
    assert kept.hint is not None and kept.hint.startswith(
        "keep `cards/Foo.yaml` (the one the manifests' `files:` name): rename `cards/foo.yaml`"
    )
    assert [(Path(r.span.file).name, r.label) for r in kept.related] == [("Foo.yaml", "the name to keep")]
    both, neither = found["Oak.yaml"], found["Elm.yaml"]
    assert both.hint is not None and both.hint.startswith("keep `cards/oak.yaml` (spelt in lower case")
    assert neither.hint is not None and neither.hint.startswith("keep `cards/elm.yaml` (spelt in lower case")


def test_a_manifest_and_its_twin_in_other_case_are_told_which_to_keep(tmp_path: Path) -> None:
    """`rulesets/loop-b.yaml` and `rulesets/Loop-B.yaml` (round 33's leftover): R023 said "rename
    `rulesets/Loop-B.yaml` or `rulesets/loop-b.yaml`", and it stood at `loop-b.yaml`, the file
    R006 asks the other to be named. It now stands at `Loop-B.yaml` and keeps `loop-b.yaml`;
    twins with no name in lower case keep the first in sorted order and say so."""
    from civrules.load.workspace import Workspace

    rules = tmp_path / "rules"
    (rules / "rulesets").mkdir(parents=True)
    (rules / "cards").mkdir()
    for relative in ("rulesets/loop-b.yaml", "rulesets/Loop-B.yaml", "cards/Oak.yaml", "cards/OAK.yaml"):
        (rules / relative).write_text("kind: ruleset\nid: loop-b\nname: Loop\n", encoding="utf-8")
    workspace = Workspace(rules)
    workspace.rule_files()
    found = {Path(d.span.file).name: d for d in workspace.discovery_diagnostics if d.code == "R023" and d.span}
    assert sorted(found) == ["Loop-B.yaml", "Oak.yaml"], sorted(found)
    manifest, cards = found["Loop-B.yaml"], found["Oak.yaml"]
    assert manifest.message.startswith("`rulesets/Loop-B.yaml` differs from `rulesets/loop-b.yaml` only in case")
    assert manifest.hint is not None and manifest.hint.startswith(
        "keep `rulesets/loop-b.yaml` (spelt in lower case, as rule files are): rename `rulesets/Loop-B.yaml` to a "
        "name of its own (`git mv`), or merge it into `rulesets/loop-b.yaml` and delete it (`git rm`)"
    )
    assert cards.hint is not None and cards.hint.startswith("keep `cards/OAK.yaml` (first in sorted order): rename")
