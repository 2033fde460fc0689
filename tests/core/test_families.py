"""Game families: the register, a family from an installed distribution, and the boundary between
families (kinds, prefixes, variants, export)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import civrules.families as register
from civrules import checks, schema
from civrules.checks import catalogue
from civrules.cli import main
from civrules.diagnostics import codes
from civrules.emit.export import Export, export_ruleset, fingerprint
from civrules.emit.packaging import normalized_distribution
from civrules.families import CollectionSpec, Family, FamilyError, default_family, families
from civrules.pipeline import analyse, derived_facts
from tests.conftest import REPO, copy_rulesets
from tests.rulefiles import CachedWorkspace, shipped_analysis

EXAMPLE = REPO / "tests" / "families" / "example"
ENTRY = metadata.EntryPoint("example-dice", "civrules_example_family:FAMILY", register.ENTRY_POINT_GROUP)


def _forget() -> None:
    register.families.cache_clear()
    schema._register.cache_clear()
    schema.load_schema.cache_clear()


def _install_entry_point(folder: Path, name: str, value: str, *, distribution: str | None = None) -> None:
    """A distribution's metadata declaring a family, on ``sys.path`` as an installed one would be;
    the distribution is named ``distribution`` (by default as the entry point)."""
    distribution = distribution or name
    info = folder / f"{distribution.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{register.ENTRY_POINT_GROUP}]\n{name} = {value}\n", encoding="utf-8")


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The example family registered as an installed distribution registers it (its entry point)."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    _install_entry_point(tmp_path / "site", ENTRY.name, ENTRY.value)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _forget()
    yield EXAMPLE / "rules"
    monkeypatch.undo()
    _forget()
    _unload("civrules_example_family")


def _unload(package: str) -> None:
    """Forget a family's checks, codes and modules, so that the tests after it see civrules as installed."""
    gone = [c for c in checks._CHECKS if c.run.__module__.startswith(package)]
    for entry in gone:
        checks._CHECKS.remove(entry)
        codes._REGISTRY.pop(entry.code.code, None)
    catalogue._imported.discard(f"{package}.checks")
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]


def _rules(tmp_path: Path, **files: str) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(EXAMPLE / "rules", rules)
    for relative, text in files.items():
        path = rules / relative.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return rules


def _validate(rules: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(main, ["--rules", str(rules), "validate", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


# --- The register -------------------------------------------------------------------------------


def test_advanced_civilization_is_the_registered_default() -> None:
    assert default_family().id == "advanced-civilization"
    assert "advanced-civilization" in families()
    # Every family shipped with civrules is also declared as an entry point, and only those.
    assert sorted(e.value for e in metadata.entry_points(group=register.ENTRY_POINT_GROUP)) == sorted(register.BUILTIN)


@pytest.mark.parametrize(
    ("prefixes", "family_id", "message"),
    [
        (("A",), "another", "is already the family `advanced-civilization`'s"),
        (("Q",), "another", "is the core's"),
        (("ZZ",), "another", "is not one capital letter"),
        (("Z",), "advanced-civilization", "two families take the id"),
        (("Z",), "Not An Id", "is not lower-case words"),
    ],
)
def test_a_family_that_would_make_codes_or_ids_ambiguous_is_refused(
    prefixes: tuple[str, ...], family_id: str, message: str
) -> None:
    found = dict(families())
    with pytest.raises(FamilyError, match=message):
        register._register(
            found,
            dict.fromkeys(found, "built in"),
            Family(family_id, "x", "x", prefixes, hooks={"assemble": "x:y"}),
            "x:FAMILY",
        )


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        # The name the Family docstring gave the new-variant hook until round 26: never called.
        ({"scaffold": "x.scaffold:variant_example"}, r"declares the hook `scaffold`, which civrules never calls"),
        ({"helper": "x.helpers:helper_page"}, r"the hooks are `assemble`, .*`helpers`"),
        (
            {"package": "x.package.render_package"},
            r"hook `package` is 'x.package.render_package', not `module:attribute`",
        ),
        ({"package": "x:"}, r"not `module:attribute`"),
    ],
)
def test_a_hook_civrules_never_calls_or_cannot_import_is_refused(hooks: dict[str, str], message: str) -> None:
    """A hook under a name the core never asks for (a misspelling, or a name documentation gave)
    was kept and silently never called: the family's variants got no examples, its page no helper."""
    found = dict(families())
    with pytest.raises(FamilyError, match=message):
        register._register(
            found,
            dict.fromkeys(found, "built in"),
            Family("another", "x", "x", ("Z",), hooks={"assemble": "x:y", **hooks}),
            "x:FAMILY",
        )


def test_named_ids_of_a_collection_the_family_lacks_are_refused() -> None:
    """Ids a family declares its rules name (:attr:`Family.named_ids`) under a collection it does
    not have (a misspelt name) were never asked for: a rename of them went ahead, unsaid."""
    found = dict(families())
    rows = {"rows": CollectionSpec("ruleset", ("rows",))}
    with pytest.raises(FamilyError, match=r"declares ids its rules name in `row`, which is none of its collections"):
        register._register(
            found,
            dict.fromkeys(found, "built in"),
            Family(
                "another", "x", "x", ("Z",), collections=rows, hooks={"assemble": "x:y"}, named_ids={"row": {"a": "b"}}
            ),
            "x:FAMILY",
        )


def test_every_hook_a_shipped_family_declares_is_one_the_core_calls() -> None:
    from civrules.families import HOOKS

    for family in families().values():
        assert set(family.hooks) <= set(HOOKS), family.id
        for name in family.hooks:
            assert family.hook(name) is not None


def test_a_check_of_a_family_must_use_its_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check in Advanced Civilization's room under a letter that is not the family's is refused
    when the catalogue is read (so `--select E` could never select it by mistake)."""
    from civrules.diagnostics import Severity

    def fake(ruleset: object) -> list[object]:
        return []

    fake.__module__ = "civrules.families.advanced_civilization.checks.fake"
    catalogue.all_checks()  # every check registered first, into the list the patch below replaces
    entry = checks.Check(codes.Code("E999", "fake", Severity.ERROR, ""), fake)  # type: ignore[arg-type]
    monkeypatch.setattr(checks, "_CHECKS", [*checks._CHECKS, entry])
    with pytest.raises(FamilyError, match="not of the family `advanced-civilization`'s prefixes"):
        catalogue.all_checks()


def test_the_checks_are_listed_once_while_the_families_and_the_registered_checks_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The catalogue's list of checks (each with the family whose room holds it) was made again
    for every ruleset checked, 13 times in an edit of a base under twelve variants: it is made once
    for the same families and registered checks, and again when a check is registered."""
    from civrules.diagnostics import Severity

    catalogue.all_checks()
    asked: list[str] = []

    def room_of(module: str) -> Family | None:
        asked.append(module)
        return register.family_of_module(module)

    monkeypatch.setattr(catalogue, "family_of_module", room_of)
    first, again = catalogue.all_checks(), catalogue.all_checks("advanced-civilization")
    assert asked == [] and first == again and first is not again

    def double(ruleset: object) -> list[object]:
        return []

    entry = checks.Check(codes.Code("Z998", "double", Severity.ERROR, ""), double)  # type: ignore[arg-type]
    monkeypatch.setattr(checks, "_CHECKS", [*checks._CHECKS, entry])
    assert [c.code.code for c in catalogue.all_checks()] == sorted([*(c.code.code for c in first), "Z998"])
    assert len(asked) == len(first) + 1


def test_a_broken_family_distribution_is_named_not_a_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _install_entry_point(tmp_path / "site", "broken", "no_such_module_anywhere:FAMILY")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _forget()
    try:
        with pytest.raises(FamilyError, match=r"the family `broken` .* could not be imported"):
            families()
    finally:
        monkeypatch.undo()
        _forget()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_broken_family_is_its_distributions_fault_not_civrules_bug(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fmt: str
) -> None:
    """A broken third-party family was reported as "internal error ... a bug in civrules, not in
    your rules", with json output left empty: it is R019, naming the family and its distribution."""
    _install_entry_point(tmp_path / "site", "broken", "no_such_module_anywhere:FAMILY", distribution="broken-dist")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _forget()
    try:
        result = CliRunner().invoke(main, ["--rules", str(REPO / "rules"), "validate", "--format", fmt])
    finally:
        monkeypatch.undo()
        _forget()
    assert result.exit_code == 2, result.output
    assert "bug in civrules" not in result.output and "internal error" not in result.output
    said = (
        json.loads(result.stdout)
        if fmt == "json"
        else [{"code": "R019", "message": result.stdout.splitlines()[0], "hint": result.stdout.splitlines()[1]}]
    )
    (one,) = said
    assert one["code"] == "R019"
    assert "the family `broken` (no_such_module_anywhere:FAMILY) could not be imported" in one["message"]
    assert f"the distribution `broken-dist` at `{tmp_path / 'site'}`" in one["message"]
    from civrules.support.install import python

    # The Python that runs civrules: `python` on the PATH may be another, without the distribution.
    assert f"`{python()} -m pip uninstall broken-dist`" in one["hint"]
    if fmt == "text":
        assert result.stdout.startswith("<command line>:1:1: error[R019]: a game family cannot be used: ")


@pytest.mark.parametrize(
    "distribution",
    [
        "civrules-rulesets-dice-game",  # the distribution of a ruleset `dice-game`
        "Civrules_Rulesets.Dice",  # as pip reads it: `civrules-rulesets-dice`
        "civrules-runtime-example-dice",  # the family's own runtime
        "civrules-runtime",
    ],
)
def test_a_family_whose_distribution_civrules_would_generate_is_refused(
    distribution: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A family distributed as `civrules-rulesets-<id>` (or as a runtime) would be uninstalled when
    that ruleset's package (or runtime) is installed: refused by name, before its code is imported."""
    _install_entry_point(tmp_path / "site", "example-dice", "no_such_module_anywhere:FAMILY", distribution=distribution)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _forget()
    try:
        with pytest.raises(FamilyError, match=rf"the distribution `{distribution}`.*rename the family's distribution"):
            families()
    finally:
        monkeypatch.undo()
        _forget()


def test_a_ruleset_named_as_a_familys_distribution_is_distributed_under_another_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The example family installed as `civrules-example-family` (its pyproject's name) and a
    ruleset `example-family`: its distribution was `civrules-example-family`, so installing it
    uninstalled the family. Built now, no distribution it writes is pip's name of an installed
    family, of a runtime, or of another ruleset."""
    family_distribution = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    assert family_distribution == "civrules-example-family"
    monkeypatch.syspath_prepend(str(EXAMPLE))
    _install_entry_point(tmp_path / "site", ENTRY.name, ENTRY.value, distribution=family_distribution)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _forget()
    try:
        assert "example-dice" in families()
        installed = {
            normalized_distribution(entry.dist.name)
            for entry in metadata.entry_points(group=register.ENTRY_POINT_GROUP)
            if entry.dist is not None
        }
        assert "civrules-example-family" in installed
        rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
        (rules / "rulesets" / "example-family.yaml").write_text(
            "kind: ruleset\nid: example-family\nname: House rules\nextends: advanced-civilization\n", encoding="utf-8"
        )
        out = tmp_path / "out"
        built = CliRunner().invoke(main, ["--rules", str(rules), "build", "--out", str(out), "example-family"])
        assert built.exit_code == 0, built.output
        written = {
            pyproject.parent.relative_to(out / "python").as_posix(): normalized_distribution(
                tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["name"]
            )
            for pyproject in (out / "python").glob("**/pyproject.toml")
        }
    finally:
        monkeypatch.undo()
        _forget()
        _unload("civrules_example_family")
    ruleset = written.pop("civrules_rulesets/example_family")
    assert ruleset == "civrules-rulesets-example-family"
    assert set(written) == {"civrules_runtime", "civrules_runtime_advanced_civilization"}
    assert ruleset not in installed | set(written.values())


# --- A family from outside ------------------------------------------------------------------------


def test_the_example_familys_distribution_holds_exactly_the_files_it_lists(tmp_path: Path) -> None:
    """Round 36: the example docs/families.md tells family authors to copy named its package
    (`packages = [...]`), so its wheel took a stray module beside the family's, its sdist every
    file of the folder (notes, rules/), a `NOTICE` lying there was its licence, and the author's
    repository's `.gitignore` naming a file of the family (`*.json`) left the schemas out: a
    family that could not load. It lists its files; the wheel and sdist hold exactly those, the
    sdist its pyproject.toml and the empty ignore files beside it, which stop hatchling copying
    the repository's. Asked of hatchling's builders, writing no archive."""
    from hatchling.builders.sdist import SdistBuilder
    from hatchling.builders.wheel import WheelBuilder

    declared = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]
    package = sorted(
        path.relative_to(EXAMPLE).as_posix()
        for path in (EXAMPLE / "civrules_example_family").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )
    assert declared["only-include"] == package  # a file added to the example is listed too

    repository = tmp_path / "repository"
    (repository / ".git").mkdir(parents=True)
    (repository / ".gitignore").write_text("*.json\nmodel.py\n", encoding="utf-8")  # the author's own
    family = repository / "family"
    shutil.copytree(EXAMPLE, family, ignore=shutil.ignore_patterns("__pycache__"))
    for stray in ("notes.txt", "NOTICE", "civrules_example_family/stray.py", "hatch-me/x.py"):
        (family / stray).parent.mkdir(exist_ok=True)
        (family / stray).write_text("stray\n", encoding="utf-8")
    wheel, sdist = WheelBuilder(str(family)), SdistBuilder(str(family))
    assert sorted(f.distribution_path for f in wheel.recurse_included_files()) == package
    assert wheel.metadata.core.license_files == []
    assert sorted(f.distribution_path for f in sdist.recurse_included_files()) == package
    forced = sdist.get_default_build_data()["force_include"]
    assert forced == {str(family / name): name for name in ("pyproject.toml", ".gitignore", ".hgignore")}


def test_the_example_family_validates_builds_and_explains(example: Path, tmp_path: Path) -> None:
    assert families()["example-dice"].code_prefixes == ("E",)
    assert _validate(example) == (0, [])
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["--rules", str(example), "build", "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert (
        (out / "python" / "civrules_rulesets" / "dice_game" / "__init__.py")
        .read_text()
        .endswith("FACES: Final[dict[str, int]] = {'d20': 20, 'd6': 6}\n")
    )
    explained = CliRunner().invoke(main, ["explain", "E001"])
    assert explained.exit_code == 0 and "What: a die has fewer than two faces." in explained.stdout


def test_the_example_check_fails_at_its_line(example: Path, tmp_path: Path) -> None:
    rules = _rules(
        tmp_path,
        dice__dice_yaml=(
            "kind: dice\ndice:\n  - {id: d6, faces: 6, source: house rule}\n"
            "  - {id: coin, faces: 1, source: house rule}\n"
        ),
    )
    (rules / "dice" / "dice_yaml").rename(rules / "dice" / "dice.yaml")
    code, found = _validate(rules)
    assert code == 1
    assert [(d["code"], d["line"], d["column"]) for d in found] == [("E001", 4, 23)]


def test_the_checks_of_one_family_never_run_on_another(example: Path) -> None:
    workspace = CachedWorkspace()  # analysed afresh, with the example family registered
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["advanced-civilization"]))
    assert not any(d.code.startswith("E") for d in analysis.diagnostics)


def test_a_manifest_naming_an_unknown_family_is_located_with_did_you_mean(example: Path, tmp_path: Path) -> None:
    rules = _rules(tmp_path)
    manifest = rules / "rulesets" / "dice-game.yaml"
    manifest.write_text(manifest.read_text().replace("family: example-dice", "family: example-dise"))
    code, found = _validate(rules, "dice-game")
    assert code == 1
    assert [(d["code"], d["line"], d["column"], d["hint"]) for d in found] == [
        ("R012", 2, 9, "did you mean `example-dice`?")
    ]


def test_a_variant_takes_its_base_family_and_may_not_name_another(example: Path, tmp_path: Path) -> None:
    variant = (
        "kind: ruleset\nid: loaded-dice\nname: Loaded dice\nextends: dice-game\n"
        "overlay:\n  dice:\n    patch:\n      - {id: d6, faces: 1, source: house rule}\n"
    )
    rules = _rules(tmp_path, rulesets__loaded_dice_yaml=variant)
    (rules / "rulesets" / "loaded_dice_yaml").rename(rules / "rulesets" / "loaded-dice.yaml")
    code, found = _validate(rules, "loaded-dice")
    assert code == 1
    assert [(d["code"], str(d["file"]).endswith("loaded-dice.yaml"), d["line"]) for d in found] == [("E001", True, 8)]
    manifest = rules / "rulesets" / "loaded-dice.yaml"
    manifest.write_text(variant.replace("extends:", "family: advanced-civilization\nextends:"))
    code, found = _validate(rules, "loaded-dice")
    assert code == 1
    assert found[0]["code"] == "V009" and found[0]["line"] == 4, found
    assert "drop `family:`" in str(found[0]["hint"])


def test_an_overlay_entry_without_its_key_is_an_error_though_the_familys_schema_lets_it_through(
    example: Path, tmp_path: Path
) -> None:
    """The example family's schema does not type its overlay: the resolver skipped each entry
    without its key, and `validate` exited 0 with the die neither removed nor patched."""
    variant = (
        "kind: ruleset\nid: loaded-dice\nname: Loaded dice\nextends: dice-game\n"
        "overlay:\n  dice:\n    remove:\n      - {name: d6, why: house rule}\n"
        "    patch:\n      - {faces: 1}\n    add:\n      - {name: d4, faces: 4, source: house rule}\n"
    )
    rules = _rules(tmp_path, rulesets__loaded_dice_yaml=variant)
    (rules / "rulesets" / "loaded_dice_yaml").rename(rules / "rulesets" / "loaded-dice.yaml")
    code, found = _validate(rules, "loaded-dice")
    assert code == 1
    assert [(d["code"], d["line"], d["hint"]) for d in found] == [
        ("S004", line, "write the die's id: `id: \"write the die's id here\"`") for line in (8, 10, 12)
    ], found
    assert all(str(d["message"]).startswith("missing key `id` in `overlay.dice.") for d in found), found
    followed = variant.replace("{name: d6", "{id: d6").replace("{faces: 1}", "{id: d6, faces: 1}")
    followed = followed.replace("{name: d4", "{id: d4, name: d4")
    (rules / "rulesets" / "loaded-dice.yaml").write_text(followed, encoding="utf-8")
    code, found = _validate(rules, "loaded-dice")
    assert [d["code"] for d in found if d["severity"] == "error"] == ["V005"], found  # d6 is removed before its patch


def test_two_families_may_each_have_a_kind_of_the_same_name(
    example: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example family's `dice` and another family's `dice` are read by their own schemas."""
    package = tmp_path / "other_dice"
    (package / "schemas").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from civrules.families import CollectionSpec, Family\n"
        "FAMILY = Family('other-dice', 'Other dice', 'other_dice', ('W',),\n"
        "    kinds={'ruleset': 'ruleset.schema.json', 'dice': 'dice.schema.json'}, slots={'dice': 'dice'},\n"
        "    collections={'dice': CollectionSpec('dice', ('dice',))}, schemas='other_dice.schemas',\n"
        "    hooks={'assemble': 'civrules_example_family.model:build_model'})\n"
    )
    (package / "schemas" / "__init__.py").write_text("")
    dice = json.loads((EXAMPLE / "civrules_example_family" / "schemas" / "dice.schema.json").read_text())
    item = dice["properties"]["dice"]["items"]
    item["properties"]["sides"] = item["properties"].pop("faces")
    item["required"] = ["id", "sides", "source"]
    (package / "schemas" / "dice.schema.json").write_text(json.dumps(dice))
    ruleset = json.loads((EXAMPLE / "civrules_example_family" / "schemas" / "ruleset.schema.json").read_text())
    (package / "schemas" / "ruleset.schema.json").write_text(json.dumps(ruleset))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(register, "BUILTIN", (*register.BUILTIN, "other_dice:FAMILY"))
    _forget()
    assert schema.schema_path("other-dice/dice") != schema.schema_path("example-dice/dice")
    rules = _rules(
        tmp_path,
        rulesets__other_yaml=(
            "kind: ruleset\nfamily: other-dice\nid: other\nname: Other\nfiles:\n  dice: [other/dice.yaml]\n"
        ),
        other__dice_yaml="kind: dice\ndice:\n  - {id: d6, sides: 6, source: house rule}\n",
    )
    (rules / "rulesets" / "other_yaml").rename(rules / "rulesets" / "other.yaml")
    (rules / "other" / "dice_yaml").rename(rules / "other" / "dice.yaml")
    assert _validate(rules, "other", "dice-game") == (0, [])
    # The other family's file read as the example family's kind is wrong by the example's schema.
    wrong = rules / "rulesets" / "dice-game.yaml"
    wrong.write_text(wrong.read_text().replace("dice/dice.yaml", "other/dice.yaml"))
    code, found = _validate(rules, "dice-game")
    assert code == 1 and {d["code"] for d in found} >= {"S004"}, found


# --- Export and fingerprints ---------------------------------------------------------------------


def test_export_names_the_family_and_the_fingerprint_does_not_count_it() -> None:
    analysis = shipped_analysis("advanced-civilization")  # shared: the export is the test's own
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    assert exported["ruleset"]["family"] == "advanced-civilization"
    without = {**exported, "ruleset": {k: v for k, v in exported["ruleset"].items() if k != "family"}}
    assert fingerprint(exported) == fingerprint(without)
    sheet = (REPO / "generated" / "sheets" / "advanced-civilization" / "cards.html").read_text(encoding="utf-8")
    assert f'content="{fingerprint(exported)}"' in sheet


def test_an_export_is_hashed_once_and_a_changed_copy_again() -> None:
    """The build and the family's package both ask for the fingerprint: the export keeps it."""
    analysis = shipped_analysis("advanced-civilization")  # shared: the export is the test's own
    assert analysis.resolved is not None and analysis.model is not None
    exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
    assert isinstance(exported, Export) and exported.stamp is None
    stamp = fingerprint(exported)
    assert exported.stamp == stamp == fingerprint(dict(exported))
    changed = Export({**exported, "ruleset": {**exported["ruleset"], "name": "Another"}})
    assert changed.stamp is None and fingerprint(changed) != stamp


# --- Sheets ----------------------------------------------------------------------------------------


def test_a_familys_sheets_are_the_core_ones_and_its_own() -> None:
    from civrules.emit.sheets.render import registered, registered_for

    for family_id in families():
        assert registered_for(family_id) == tuple(s for s in registered() if s.family in (None, family_id))
        assert any(s.family == family_id for s in registered_for(family_id))


def test_the_index_sheet_says_the_best_number_of_players_of_any_family_whose_data_gives_it() -> None:
    """`players.best` was printed on Sid Meier's turn summary alone: the shared index, which every
    family's sheets open with, gave only the range (round 23). The model holds it for every family
    (`Ruleset.best_players`), so the index prints it wherever the data gives it."""
    import dataclasses
    import html
    import re

    from civrules.emit.sheets import render_sheets
    from civrules.model import Ruleset

    def players(model: Ruleset) -> str:
        page = html.unescape(render_sheets(model, "0" * 64, only={"index.html"})["index.html"].decode())
        found = re.search(r"<dt>Players</dt><dd>(.*?)</dd>", page)
        assert found is not None
        return found.group(1)

    sid = shipped_analysis("sid-meiers-civilization").model
    assert sid is not None and sid.best_players == 4
    assert players(sid) == "2–4, best with 4"
    base = shipped_analysis("advanced-civilization").model
    assert base is not None and base.best_players is None
    assert players(base) == "2–8"
    assert players(dataclasses.replace(base, best_players=6)) == "2–8, best with 6"  # no family's special case


def test_the_index_sheet_says_what_the_ruleset_is_by_its_own_description() -> None:
    """A manifest's `description` was printed by no sheet (round 23). A variant that writes none
    has none: its base's describes another ruleset (Imperial Settlers' "The base game ...")."""
    import html
    import re

    from civrules.emit.sheets import render_sheets
    from civrules.model import Ruleset

    def about(model: Ruleset | None) -> str:
        assert model is not None
        page = html.unescape(render_sheets(model, "0" * 64, only={"index.html"})["index.html"].decode())
        found = re.search(r"<dt>Ruleset</dt><dd>(.*?)</dd>", page)
        assert found is not None
        return re.sub(r"<[^>]+>", "", found.group(1))

    base = about(shipped_analysis("imperial-settlers").model)
    assert base.startswith("Imperial Settlers (imperial-settlers): The base game: four factions of 30 cards"), base
    peaceful = about(shipped_analysis("imperial-settlers-peaceful").model)
    assert peaceful.endswith("a variant of imperial-settlers") and "The base game" not in peaceful, peaceful


@pytest.mark.slow
def test_rendering_one_familys_sheets_imports_no_other_familys_sheet_modules() -> None:
    """A build of one ruleset imports its family's sheet modules, not every family's."""
    script = (
        "import sys\n"
        "from civrules.emit.sheets.render import registered_for\n"
        "registered_for('sid-meiers-civilization')\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('civrules.families.') "
        "and '.sheets' in m}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "['sid_meiers_civilization']", done.stdout + done.stderr


# --- Installed for real -----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_example_family_installed_as_a_distribution_is_found(tmp_path: Path) -> None:
    """pip installs the example family into a folder of its own; civrules, run with that folder on
    its path, finds the family by its entry point alone."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(EXAMPLE)],
        check=True, timeout=300,
    )  # fmt: skip
    environment = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "CIVRULES_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "civrules", "--rules", str(EXAMPLE / "rules")]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *args], capture_output=True, text=True, env=environment, timeout=120)

    assert run("validate").returncode == 0
    built = run("build", "--out", str(tmp_path / "out"))
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "out" / "python" / "civrules_rulesets" / "dice_game" / "__init__.py").is_file()
    explained = run("explain", "E001")
    assert explained.returncode == 0 and "die-with-too-few-faces" in explained.stdout


# --- Rulebooks cited by page and heading ----------------------------------------------------------


@pytest.mark.parametrize(
    ("cited", "hint"),
    [
        ("p2/dados-de-seis-face", "did you mean `p2/dados-de-seis-faces`?"),
        ("p2/dados-de-oito-faces", "the nearest enclosing section is `p2`"),
        # a page past the rulebook's: the pages it has and the nearest, by its title (round 28)
        ("p7", 'the rulebook\'s pages run from `p1` to `p2`: the nearest is `p2` ("Os dados")'),
    ],
)
def test_a_citation_by_page_and_heading_is_checked_as_a_section_is(
    example: Path, tmp_path: Path, cited: str, hint: str
) -> None:
    """The example rulebook numbers no sections: its index lists pages and the headings on them."""
    rules = _rules(tmp_path)
    dice = rules / "dice" / "dice.yaml"
    dice.write_text(dice.read_text().replace("p2/dados-de-seis-faces", cited))
    code, found = _validate(rules)
    assert code == 1
    assert [(d["code"], d["line"], d["hint"]) for d in found] == [("Q001", 3, hint)]


def test_a_heading_not_under_a_page_is_refused_by_the_schema(example: Path, tmp_path: Path) -> None:
    rules = _rules(tmp_path)
    index = rules / "rulebooks" / "dice-game.yaml"
    index.write_text(index.read_text().replace('section: "p2/dados-de-seis-faces"', 'section: "dados-de-seis-faces"'))
    code, found = _validate(rules)
    assert code == 1 and found[0]["code"] == "S001", found


def test_installed_metadata_is_read_only_where_a_distribution_may_declare_another_family(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """civrules' own distribution declares the built-in families only: the register looks its
    ``entry_points.txt`` over and need not import importlib.metadata (issue 32, point 5)."""
    assert register._only_builtin_entry_points()
    assert register._installed_entry_points() == []
    _install_entry_point(tmp_path / "site", "other-game", "other_game_family:FAMILY")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert not register._only_builtin_entry_points()
    installed = [e.value for e in register._installed_entry_points() if e.value not in register.BUILTIN]
    assert installed == ["other_game_family:FAMILY"]


def test_which_top_level_keys_describe_a_data_file_is_each_familys_own() -> None:
    """The core held one set of the keys that describe a data file rather than state a setting,
    with a map file's `panel` and `requires` (one game's) in it: a family with a setting of either
    name lost it in the resolver and in Q009's walk. Each family declares its own
    (:attr:`Family.file_keys`) beside the keys every file may have."""
    from civrules.families import FILE_METADATA, Family, family_named
    from tests.rulefiles import shipped_analysis

    own = Family("own-game", "Own", "own_game", ("W",))
    assert not own.describes_file("panel") and all(own.describes_file(key) for key in FILE_METADATA)
    ac = family_named("advanced-civilization")
    assert ac is not None and ac.describes_file("panel") and ac.describes_file("requires")
    model = shipped_analysis("advanced-civilization").model
    assert model is not None and not any({"panel", "requires"} & set(values) for values in model.settings.values())
    assert any("two_coast_areas" in values for values in model.settings.values())  # a map file's setting is one


def test_the_guide_to_families_lists_every_family_with_its_room_and_prefixes() -> None:
    """docs/families.md's table of families lacked Sid Meier's Civilization (codes T) until round
    26: a newcomer looking for a family to copy, or a free letter, was shown two of the three."""
    import re

    from civrules.families import CORE_PREFIXES

    page = (REPO / "docs" / "families.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z-]+)`[^|]*\| `([^`]+)` \| ([A-Z ]+) \|$", page, re.MULTILINE)
    listed = {family_id: (room, tuple(prefixes.split())) for family_id, room, prefixes in rows}
    example = listed.pop("example-dice")
    assert example[0] == "tests/families/example/" and (REPO / example[0]).is_dir()
    shipped = {
        family.id: (
            f"compiler/civrules/{family.package.removeprefix('civrules.').replace('.', '/')}/",
            family.code_prefixes,
        )
        for family in families().values()
    }
    assert listed == shipped
    assert all((REPO / room).is_dir() for room, _ in listed.values())
    assert f"The core's own codes begin with {' '.join(CORE_PREFIXES)}." in page


def test_no_helper_script_writes_a_count_as_singular_and_plural_at_once() -> None:
    """The Imperial Settlers deck builder said "3 card(s) of 3 copies" (round 28 worded the
    compiler's F001/F002 as "3 cards of 3 copies" and left the page's script): every family's helper
    script words a count by its number, as the diagnostics do."""
    import re

    scripts = sorted((REPO / "compiler" / "civrules").glob("**/helpers/*.js"))
    assert any(script.parent.parent.name == "imperial_settlers" for script in scripts)
    written = {
        f"{script.relative_to(REPO)}:{number}": line.strip()
        for script in scripts
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\"[^\"]*[a-z]\(s\)[^\"]*\"", line)  # in a text the page shows
    }
    assert not written
