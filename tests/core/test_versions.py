"""Package versions: semantic versioning of each package's public API, decided by ``build`` against
the API manifest (``api.json``) the previous build left beside the package."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from civrules.cli import main
from civrules.emit import versions
from tests import shipped
from tests.budget import heavy
from tests.conftest import REPO, copy_rulesets

FOLDER = "civrules_rulesets/example"
INIT = f'''__all__ = ["CARDS", "CardId", "cost"]
__version__: Final = "{versions.UNVERSIONED}"
'''
IDS = 'class CardId(StrEnum):\n    POTTERY = "pottery"\n    LAW = "law"\n'
DATA = "CARDS: Final[Mapping[str, int]] = FrozenMap({CardId.POTTERY: 40, CardId.LAW: 150})\n"
HELPERS = "def cost(card: str) -> int:\n    return data.CARDS[card]\n"


def api(init: str = INIT, ids: str = IDS, data: str = DATA, helpers: str = HELPERS) -> versions.Api:
    files = {"__init__.py": init, "ids.py": ids, "data.py": data, "helpers.py": helpers}
    return versions.package_api({f"{FOLDER}/{k}": v.encode() for k, v in files.items()}, FOLDER)


def previous(version: str = "1.4.2", **changes: str) -> dict[str, object]:
    document: dict[str, object] = json.loads(
        versions.manifest("example", versions.Decision(version, "none", ()), api(**changes))
    )
    return document


def test_the_api_is_each_public_name_with_its_type_and_each_id() -> None:
    found = api()
    assert found.names == {
        "CARDS": "Final[Mapping[str, int]]",
        "CardId": "class(StrEnum)",
        "__version__": "Final[str]",
        "cost": "def (card: str) -> int",
    }
    assert found.ids == {"CardId": ("POTTERY=pottery", "LAW=law")}


def _read_whole(source: bytes) -> tuple[list[tuple[str, str]], dict[str, tuple[str, ...]]]:
    ids: dict[str, tuple[str, ...]] = {}
    return [d for node in ast.parse(source).body for d in versions._definitions(node, ids)], ids


def _read_by_statement(source: bytes) -> tuple[list[tuple[str, str]], dict[str, tuple[str, ...]]]:
    ids: dict[str, tuple[str, ...]] = {}
    return [d for node in versions._declarations(source).body for d in versions._definitions(node, ids)], ids


@heavy
def test_reading_the_api_statement_by_statement_finds_what_parsing_the_whole_module_does() -> None:
    """The shortcut (each top-level statement alone, a table's type without its value) against
    the whole module parsed, on every generated module and on the shapes that do not split."""
    modules = shipped.built("python/**/*.py")
    assert modules
    tricky = [
        b'"""A docstring\nX: int = 1\n"""\n\nY: Final[int] = 2\n',  # a split inside a docstring
        b'X: Literal["a = b"] = "a = b"\nZ: Final = 3\n',  # "=" inside the annotation; bare Final
        b"if TYPE_CHECKING:\n    from x import Y\nelse:\n    Y = 1\nW: tuple[\n    int, ...\n] = (\n1,\n)\n",
        b"@decorated\ndef f(a: int = 1) -> int:\n    return a\n# a comment\nclass K(StrEnum):\n    A = 'a'\n",
        # A signature over lines, and "):" ending a line inside a default (brackets, a string).
        b"def f(\n    a: int = 1,\n    *,\n    b: str | None = None,\n) -> tuple[int, ...]:\n    return (a,)\n",
        b'def g(a={(1):\n    2}) -> int:\n    return 1\n\n\ndef h(a: str = """x):\n""") -> str:\n    return a\n',
        b"def k(): return 1\ndef m(a=(1)) -> None:\n    pass\n",
        b"def n(\n    a: int,\n) -> int:  # fmt: skip\n    return a\n",
    ]
    for source in [path.read_bytes() for path in modules] + tricky:
        assert _read_by_statement(source) == _read_whole(source)


def test_the_generated_modules_are_read_in_one_parse() -> None:
    """Every generated module is read by the one-parse path (its tables' values left out), which
    finds what parsing each statement alone finds; a module split inside a docstring is not."""
    for path in shipped.built("python/**/*.py"):
        source = path.read_bytes()
        starts = [0, *(match.end() for match in versions._STATEMENT.finditer(source))]
        together = versions._declarations_together(source, starts, [*starts[1:], len(source)])
        assert together is not None, path
    split = b'"""A docstring\nX: int = 1\n"""\n\nY: Final[int] = 2\n'
    starts = [0, *(match.end() for match in versions._STATEMENT.finditer(split))]
    assert versions._declarations_together(split, starts, [*starts[1:], len(split)]) is None


def test_of_a_function_the_api_reads_only_its_signature() -> None:
    """A helpers module's function bodies (and their docstrings) are none of the API: each function
    is read as its signature with an ``...`` body, so the parse makes no node of a body."""
    for path in shipped.built("python/civrules_rulesets/*/helpers.py"):
        tree = versions._declarations(path.read_bytes())
        functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
        assert functions, path
        for function in functions:
            body = ast.Module(body=function.body, type_ignores=[])
            assert ast.dump(body) == ast.dump(ast.parse("...")), function.name


def test_without_a_manifest_a_package_is_1_0_0() -> None:
    assert versions.decide(None, api()) == versions.Decision("1.0.0", "first", ())
    assert versions.decide({"version": "not a version"}, api()).version == "1.0.0"


def test_nothing_changed_keeps_the_version() -> None:
    assert versions.decide(previous(), api()) == versions.Decision("1.4.2", "none", ())


def test_values_only_is_a_patch() -> None:
    decision = versions.decide(previous(), api(data=DATA.replace("40", "45")))
    assert (decision.version, decision.bump) == ("1.4.3", "patch")


def test_an_added_name_or_id_is_a_minor_version() -> None:
    added_id = versions.decide(previous(), api(ids=IDS + '    MUSIC = "music"\n'))
    assert (added_id.version, added_id.changes) == ("1.5.0", ("added CardId.MUSIC",))
    added_name = versions.decide(
        previous(), api(init=INIT.replace('"cost"]', '"cost", "limit"]'), helpers=HELPERS + "def limit() -> int: ...\n")
    )
    assert (added_name.version, added_name.changes) == ("1.5.0", ("added limit",))


def test_a_removed_or_renamed_id_or_a_changed_type_is_a_major_version() -> None:
    renamed = versions.decide(previous(), api(ids=IDS.replace('LAW = "law"', 'CODE_OF_LAWS = "code_of_laws"')))
    assert renamed.version == "2.0.0" and renamed.bump == "major"
    assert renamed.changes == ("removed CardId.LAW", "added CardId.CODE_OF_LAWS")
    typed = versions.decide(previous(), api(helpers=HELPERS.replace("card: str", "card: CardId")))
    assert typed.version == "2.0.0"
    assert typed.changes == ("changed the type of cost from `def (card: str) -> int` to `def (card: CardId) -> int`",)
    removed = versions.decide(previous(), api(init=INIT.replace(', "cost"', "")))
    assert (removed.version, removed.changes) == ("2.0.0", ("removed cost",))


def test_settings_narrowed_to_the_typed_records_is_a_minor_version() -> None:
    """SETTINGS from Mapping[str, object] to a family runtime's settings record (itself a
    Mapping[str, object], with the same keys and values) keeps code written for the mapping
    working; any other change of its type is major."""
    init = INIT.replace('"cost"]', '"cost", "SETTINGS"]')
    mapping = DATA + "SETTINGS: Final[Mapping[str, object]] = FrozenMap({})\n"
    before = previous(init=init, data=mapping)
    typed = versions.decide(before, api(init=init, data=mapping.replace("Mapping[str, object]", "settings.Settings")))
    assert (typed.version, typed.bump) == ("1.5.0", "minor")
    assert typed.changes == (
        "narrowed the type of SETTINGS from `Final[Mapping[str, object]]` to `Final[settings.Settings]`",
    )
    other = versions.decide(before, api(init=init, data=mapping.replace("[str, object]", "[str, int]")))
    assert other.bump == "major"
    back = versions.decide(
        previous(init=init, data=mapping.replace("Mapping[str, object]", "settings.Settings")),
        api(init=init, data=mapping),
    )
    assert back.bump == "major"


def _build(rules: Path, out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--rules", str(rules), "build", "--out", str(out), *extra])
    return result.exit_code, result.stderr


def test_build_decides_each_version_says_why_and_a_rebuild_keeps_it(tmp_path: Path) -> None:
    # The base ruleset alone (its variant would be built five times more for nothing said here).
    rules = copy_rulesets(tmp_path / "rules", "advanced-civilization")
    out = tmp_path / "generated"
    package = out / "python" / "civrules_rulesets" / "advanced_civilization"
    code, said = _build(rules, out)
    assert code == 0, said
    assert "civrules_rulesets.advanced_civilization 1.0.0: the first version" in said
    assert '__version__: Final[str] = "1.0.0"' in (package / "__init__.py").read_text()
    assert json.loads((package / "api.json").read_text())["version"] == "1.0.0"
    assert _build(rules, out, "--check")[0] == 0  # the manifest makes the rebuild identical

    # values only: a patch
    cards = rules / "cards" / "advanced-civilization.yaml"
    text = cards.read_text()
    assert "cost: 45" in text
    cards.write_text(text.replace("cost: 45", "cost: 46", 1))
    code, said = _build(rules, out)
    assert code == 0, said
    assert "civrules_rulesets.advanced_civilization 1.0.0 -> 1.0.1 (patch): the same API, other values" in said
    assert 'version = "1.0.1"' in (package / "pyproject.toml").read_text()

    # the manifest of an API that had an id this one lacks: a major version
    manifest = json.loads((package / "api.json").read_text())
    manifest["ids"]["CardId"].append("ASTROLOGY=astrology")
    (package / "api.json").write_text(json.dumps(manifest))
    code, said = _build(rules, out)
    assert "civrules_rulesets.advanced_civilization 1.0.1 -> 2.0.0 (major): removed CardId.ASTROLOGY" in said
    assert _build(rules, out, "--check")[0] == 0


def test_a_variant_names_its_base_and_does_not_depend_on_it() -> None:
    package = REPO / "generated" / "python" / "civrules_rulesets" / "advanced_civilization_western"
    assert 'BASE_RULESET: Final[str | None] = "advanced-civilization"' in (package / "__init__.py").read_text()
    assert "civrules-rulesets-advanced-civilization" not in (package / "pyproject.toml").read_text().replace(
        "civrules-rulesets-advanced-civilization-western", ""
    )


def test_the_version_a_build_elsewhere_moves_from_is_never_read_through_a_link(tmp_path: Path) -> None:
    """`build --out DIR` moves each package's version on from the project's generated/ too: a
    package folder there that is a link (to a manifest outside the project claiming 9.9.9) is no
    history of the project's, and is not read; the same manifest in a real folder is."""
    at = "python/civrules_rulesets/central_america/api.json"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "api.json").write_text(json.dumps({"package": "central_america", "version": "9.9.9"}), "utf-8")
    linked = tmp_path / "linked" / "generated"
    (linked / "python" / "civrules_rulesets").mkdir(parents=True)
    (linked / "python" / "civrules_rulesets" / "central_america").symlink_to(outside, target_is_directory=True)
    assert versions.previous_manifest(at, None, linked, 1 << 20) == (None, None)
    real = tmp_path / "real" / "generated"
    (real / "python" / "civrules_rulesets" / "central_america").mkdir(parents=True)
    (real / at).write_bytes((outside / "api.json").read_bytes())
    document, folder = versions.previous_manifest(at, None, real, 1 << 20)
    assert document is not None and document["version"] == "9.9.9" and folder == real


@pytest.mark.parametrize(
    "forged",
    [
        b"[" * 200_000 + b"]" * 200_000,  # RecursionError: once an internal error (R900)
        b'{"version": "1.4.2", "names": ' + b"[" * 900 + b"]" * 900 + b"}",  # parses; too deep for a manifest
        '{"version": "1.\u00b2.0"}'.encode(),  # a digit to str.isdigit, not to int()
        b'{"version": "1.0.' + b"9" * 5000 + b'"}',  # more digits than int() converts
        b'{"version": "1.4.2", "names": {"CARDS": "\\ud800"}}',  # a lone surrogate: no text civrules writes
        b'{"version": "1.4.2", "names": {"\\udfff": "int"}}',
        b'{"version": "1.4.2", "digest": NaN}',
        b'{"version": "1.4.2", "digest": 1e999}',
        b'"1.4.2"',
    ],
)
def test_a_forged_or_corrupt_manifest_is_no_manifest(tmp_path: Path, forged: bytes) -> None:
    """An api.json of an output tree is anyone's to write (generated/ comes from pull requests):
    whatever it holds, the package starts over at the first version, as without one."""
    at = f"python/{FOLDER}/{versions.MANIFEST}"
    (tmp_path / at).parent.mkdir(parents=True)
    (tmp_path / at).write_bytes(forged)
    assert versions.previous_manifest(at, tmp_path, None, 1 << 20) == (None, None)
    assert versions.decide(versions.read_manifest(tmp_path, at, 1 << 20), api()).bump == "first"


def test_a_version_is_plain_ascii_digits_of_a_size_a_build_reaches() -> None:
    assert versions._is_version("1.4.2") and versions._is_version("10.0.123")
    for text in ("1.\u00b2.0", "1.\u0661.0", "01.0.0", "1.0", "1.0.0.0", "1.0." + "9" * 5000, "-1.0.0", "1.0.0 "):
        assert not versions._is_version(text), text


def test_a_helper_given_parameters_every_earlier_call_leaves_out_is_a_minor_version() -> None:
    """`calamity_resolution_order(calamities)` given `players: int | None = None` after its own
    parameter, or `calamities_suffered(received, *, rng=None)` a keyword-only `players=None`: every
    call written before still works and means the same. The change was read as a changed type
    (major), so an additive parameter stepped every package to a new major version."""
    positional = versions.decide(previous(), api(helpers=HELPERS.replace("card: str", "card: str, n: int = 1")))
    assert (positional.version, positional.bump) == ("1.5.0", "minor")
    assert positional.changes == ("widened cost from `def (card: str) -> int` to `def (card: str, n: int=1) -> int`",)
    keyword = versions.decide(
        previous(helpers=HELPERS.replace("card: str", "card: str, *, rng: int | None = None")),
        api(helpers=HELPERS.replace("card: str", "card: str, *, rng: int | None = None, players: int | None = None")),
    )
    assert keyword.bump == "minor"


@pytest.mark.parametrize(
    "after",
    [
        "card: str, n: int",  # a new parameter every earlier call leaves out, without a default
        "card: str, *, n: int",  # keyword-only, without a default
        "card: CardId, n: int = 1",  # an old parameter's type changed
        "card: str = 'law', n: int = 1",  # an old parameter's default changed (here: given one)
        "kard: str, n: int = 1",  # an old parameter renamed (a call by keyword breaks)
    ],
)
def test_a_helper_given_parameters_an_earlier_call_cannot_leave_out_is_a_major_version(after: str) -> None:
    decision = versions.decide(previous(), api(helpers=HELPERS.replace("card: str", after)))
    assert decision.bump == "major", decision.changes


def test_a_parameter_inserted_or_one_args_or_kwargs_took_before_is_a_major_version() -> None:
    for before, after in (("card: str, k: int = 0", "card: str, n: int = 1, k: int = 0"),
                          ("card: str, *rest: str", "card: str, n: int = 1, *rest: str"),
                          ("card: str, **rest: str", "card: str, *, n: int = 1, **rest: str")):  # fmt: skip
        decision = versions.decide(
            previous(helpers=HELPERS.replace("card: str", before)), api(helpers=HELPERS.replace("card: str", after))
        )
        assert decision.bump == "major", (before, after, decision.changes)
