"""What an engine gets back from a package's tables and helpers: a value for every pair of the credit
matrix, UnknownIdError (a KeyError) naming the closest id for a key a table lacks, a clear error for
the wrong object given to ``CreditMatrix.from_export``, sets of ids iterated alike in every process,
read-only (hashable) results, and a variant's house rule cited on the records it changes; a build
into another folder versions its packages from the project's ``generated/``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from civrules.cli import main
from tests.conftest import REPO, copy_rulesets

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime.errors import UnknownIdError, unknown_id  # noqa: E402
from civrules_runtime.mappings import FrozenMap, OrderedFrozenSet  # noqa: E402
from civrules_runtime_advanced_civilization.credits import CreditMatrix  # noqa: E402


@pytest.mark.parametrize(
    ("package", "owned", "target"), [(ac, "law", "democracy"), (ac, "pottery", "law"), (ep, "law", "democracy")]
)
def test_a_pair_of_cards_without_a_credit_is_worth_zero(package: object, owned: str, target: str) -> None:
    row = package.CREDIT_MATRIX[owned]  # type: ignore[attr-defined]
    assert row[target] == 0
    assert row.get(target) == 0
    assert target not in row and target not in dict(row)  # a row iterates the cards it credits


def test_a_credit_row_still_answers_its_credits() -> None:
    assert ac.CREDIT_MATRIX["pottery"]["cloth_making"] == ac.credit_toward(["pottery"], "cloth_making") > 0


@pytest.mark.parametrize("lookup", [lambda m: m["potery"], lambda m: m["pottery"]["democrazy"]])
def test_an_unknown_card_in_the_credit_matrix_is_an_unknown_id_naming_the_closest(lookup: object) -> None:
    with pytest.raises(UnknownIdError, match="did you mean") as raised:
        lookup(ac.CREDIT_MATRIX)  # type: ignore[operator]
    assert isinstance(raised.value, KeyError)
    assert ac.CREDIT_MATRIX["pottery"].get("democrazy") is None  # Mapping.get: a KeyError is a miss


def test_a_table_refuses_an_unknown_key_with_the_closest_id_and_stays_a_mapping() -> None:
    with pytest.raises(UnknownIdError, match="'potery' is not in this table: did you mean 'pottery'") as raised:
        ac.CARDS["potery"]
    assert isinstance(raised.value, KeyError) and raised.value.args == ("potery",)
    with pytest.raises(UnknownIdError, match="its keys are"):
        ac.PLAYER_COUNTS[42]
    assert ac.CARDS.get("potery") is None and "potery" not in ac.CARDS
    assert ac.CARDS["pottery"].id == "pottery"


def test_credit_matrix_from_export_names_the_object_it_takes(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--rules", str(REPO / "rules"), "export", "advanced-civilization"])
    assert result.exit_code == 0, result.stderr
    exported = json.loads(result.stdout)
    assert CreditMatrix.from_export(exported["credit_matrix"]) == ac.CREDIT_MATRIX
    with pytest.raises(ValueError, match=r'exported\["credit_matrix"\] \(this is the whole export\)'):
        CreditMatrix.from_export(exported)
    with pytest.raises(ValueError, match=r"exported\[\"credit_matrix\"\]: it has no 'policy', 'groups', 'credits'"):
        CreditMatrix.from_export({})
    with pytest.raises(TypeError, match="credit_matrix"):
        CreditMatrix.from_export("credit_matrix")  # type: ignore[arg-type]


def _credit_matrix_export() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["--rules", str(REPO / "rules"), "export", "mega-civilization"])
    assert result.exit_code == 0, result.stderr
    exported: dict[str, Any] = json.loads(result.stdout)["credit_matrix"]
    return exported


# Each malformation of the credit_matrix object, as (where in it, how it is made wrong, what the
# message names): every part a matrix is read from, and every part a lookup reads later.
_MALFORMED: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("policy not an object", lambda m: m.__setitem__("policy", []), r'\["policy"\]'),
    ("policy without same_target", lambda m: m["policy"].pop("same_target"), "same_target"),
    ("same_target misspelt", lambda m: m["policy"].__setitem__("same_target", "higest"), "higest"),
    ("known not a bool", lambda m: m["policy"].__setitem__("two_group_cards_known", "yes"), "two_group_cards_known"),
    ("two_group_cards misspelt", lambda m: m["policy"].__setitem__("two_group_cards", "highest"), "two_group_cards"),
    ("groups a list", lambda m: m.__setitem__("groups", []), r'\["groups"\]'),
    ("a card's groups a string", lambda m: m["groups"].__setitem__("law", "civics"), r'\["groups"\]\["law"\]'),
    ("a group no str", lambda m: m["groups"].__setitem__("law", [3]), r'\["groups"\]\["law"\]'),
    ("credits a list", lambda m: m.__setitem__("credits", []), r'\["credits"\]'),
    ("lines an object", lambda m: m["credits"].__setitem__("pottery", {}), r'\["credits"\]\["pottery"\]'),
    ("a line a number", lambda m: m["credits"].__setitem__("pottery", [10]), r'\["pottery"\]\[0\]'),
    ("a line without points", lambda m: m["credits"].__setitem__("pottery", [{"group": "crafts"}]), "points"),
    ("points a string", lambda m: m["credits"].__setitem__("pottery", [{"points": "10", "group": "crafts"}]), "points"),
    ("points a bool", lambda m: m["credits"].__setitem__("pottery", [{"points": True, "group": "crafts"}]), "points"),
    ("a line crediting nothing", lambda m: m["credits"].__setitem__("pottery", [{"points": 10}]), "group.*card"),
    (
        "extra not a bool",
        lambda m: m["credits"].__setitem__("pottery", [{"points": 5, "card": "law", "extra": 1}]),
        "extra",
    ),
    ("credits of no card", lambda m: m["credits"].__setitem__("potery", [{"points": 5, "card": "law"}]), "potery"),
    ("a credited card no str", lambda m: m["credits"].__setitem__("pottery", [{"points": 5, "card": 7}]), "card"),
]


@pytest.mark.parametrize(("malform", "named"), [(m, n) for _, m, n in _MALFORMED], ids=[i for i, _, _ in _MALFORMED])
def test_credit_matrix_from_export_refuses_a_malformed_object_naming_the_part(
    malform: Callable[[dict[str, Any]], object], named: str
) -> None:
    """A credit_matrix object whose parts are not what ``civrules export`` writes (edited by hand, from
    another tool) is a ValueError naming the part, when the matrix is made: never a bare KeyError,
    AttributeError or TypeError from inside it, then or at a later lookup."""
    exported = _credit_matrix_export()
    assert CreditMatrix.from_export(copy.deepcopy(exported)) == _mega_matrix(exported)
    broken = copy.deepcopy(exported)
    malform(broken)
    with pytest.raises(ValueError, match=named) as raised:
        CreditMatrix.from_export(broken)
    assert type(raised.value) is ValueError
    assert "CreditMatrix.from_export" in str(raised.value)


#: A credit_matrix object of three cards, as ``civrules export`` writes one (the facts below tamper it).
_SMALL_EXPORT: dict[str, Any] = {
    "policy": {"same_target": "highest", "two_group_cards_known": True, "two_group_cards": "both_groups"},
    "groups": {"pottery": ["crafts"], "mining": ["crafts"], "law": ["civics"]},
    "credits": {"pottery": [{"points": 10, "group": "crafts"}], "mining": [{"points": 5, "card": "law"}]},
}

# Each line of a tampered export whose shape is right and whose facts no export holds: points the
# data cannot give (1 to 1000), a credit toward a card the matrix lacks (and what the message names).
_UNTRUE: list[tuple[str, dict[str, Any], str]] = [
    ("negative points", {"points": -10, "group": "crafts"}, r'\["points"\] should be a whole number from 1 to 1000'),
    ("no points", {"points": 0, "card": "law"}, "from 1 to 1000, not 0"),
    ("points past the data's", {"points": 1001, "card": "law"}, "from 1 to 1000, not 1001"),
    ("a number of 5,000 digits", {"points": 10**5000, "card": "law"}, "from 1 to 1000"),
    ("a card the matrix lacks", {"points": 5, "card": "lawx"}, r'\["card"\] should be one of the cards of its groups'),
]


@pytest.mark.parametrize(("line", "named"), [(line, n) for _, line, n in _UNTRUE], ids=[i for i, _, _ in _UNTRUE])
def test_credit_matrix_from_export_refuses_a_line_no_export_holds(line: dict[str, Any], named: str) -> None:
    """A tampered export with negative points or a credit toward no card of the matrix was read: a
    negative credit raised a card's cost. It is refused naming the line, as a pickle or a call with
    those parts is (round 36)."""
    assert CreditMatrix.from_export(_SMALL_EXPORT)["mining"]["law"] == 5
    tampered = copy.deepcopy(_SMALL_EXPORT)
    tampered["credits"]["mining"] = [line]
    with pytest.raises(ValueError, match=named) as raised:
        CreditMatrix.from_export(tampered)
    assert '["credits"]["mining"][0]' in str(raised.value)
    points, group, card = line["points"], line.get("group"), line.get("card")
    groups = {card: tuple(of) for card, of in _SMALL_EXPORT["groups"].items()}
    with pytest.raises(ValueError, match="a pickle that holds it was changed"):
        CreditMatrix("highest", True, groups, {"mining": ((points, group, card, False),)})


def _mega_matrix(exported: dict[str, Any]) -> Mapping[str, Mapping[str, int]]:
    """The matrix of a well-formed object: the committed Mega Civilization package's."""
    from civrules_rulesets import mega_civilization as mega

    assert exported["policy"]["two_group_cards"] == "highest_group"
    return mega.CREDIT_MATRIX


@pytest.mark.parametrize(
    ("settings", "key", "closest"),
    [(lambda: ac.SETTINGS, "credit_polcy", "credit_policy"), (lambda: ac.SETTINGS.ast, "start_spac", "start_space")],
)
def test_a_settings_record_refuses_a_key_it_lacks_as_a_table_does(
    settings: Callable[[], Mapping[str, object]], key: str, closest: str
) -> None:
    """SETTINGS and its sections are the read-only mappings they were as FrozenMaps: a key the data
    lacks is an UnknownIdError (a KeyError) naming the closest key, as every table's miss is."""
    record = settings()
    with pytest.raises(UnknownIdError, match=f"did you mean '{closest}'") as raised:
        record[key]
    assert isinstance(raised.value, KeyError) and raised.value.args == (key,)
    assert record.get(key) is None and key not in record
    with pytest.raises(UnknownIdError, match="its keys are"):
        record[42]  # type: ignore[index]


def test_an_unknown_id_error_says_a_unit_type() -> None:
    """The article goes by the sound of the word: a unit type, an era."""
    with pytest.raises(UnknownIdError, match="'tank' is not a unit type of this ruleset"):
        smc.unit_cost("tank", 1)  # type: ignore[arg-type]
    assert "is not an era of" in str(unknown_id("modern", {"ancient": 1}, "era"))
    assert "is not a user of" in str(unknown_id("x", {}, "user"))


_ORDER = """
import sys
sys.path.insert(0, sys.argv[1])
from civrules_rulesets import advanced_civilization as ac, imperial_settlers as i
print([str(a) for a in ac.neighbours("aleppo")], [str(a) for a in ac.ADJACENCY["sea"]["aegean_sea"]],
      sorted(ac.UNKNOWN_COLLECTIONS) == list(ac.UNKNOWN_COLLECTIONS), list(i.UNKNOWN_COLLECTIONS))
"""


@pytest.mark.parametrize(
    "seeds",
    [pytest.param(("1", "2"), id="two-seeds"), pytest.param(("3", "4", "5", "6"), id="more", marks=pytest.mark.slow)],
)
def test_sets_of_ids_iterate_alike_whatever_the_hash_seed(seeds: tuple[str, ...]) -> None:
    """Two interpreters under two seeds in `make test` (tests/budget.py: at most two per fast test),
    four more in `make test-slow`."""
    seen = {
        subprocess.run(
            [sys.executable, "-c", _ORDER, str(GENERATED)],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in seeds
    }
    assert len(seen) == 1, seen
    near = ac.neighbours("aleppo")
    assert isinstance(near, frozenset) and isinstance(near, OrderedFrozenSet)
    assert list(near) == sorted(near)


def test_an_ordered_frozen_set_is_the_frozenset_of_its_items() -> None:
    import copy
    import pickle

    made = OrderedFrozenSet(("syria", "assyria", "syria"))
    assert list(made) == ["syria", "assyria"] and made == frozenset({"assyria", "syria"})
    assert hash(made) == hash(frozenset(made))
    assert list(pickle.loads(pickle.dumps(made))) == ["syria", "assyria"]
    assert copy.deepcopy(made) is made
    with pytest.raises(AttributeError):
        made._order = ()


def test_results_by_key_are_read_only_and_hashable() -> None:
    results = [
        smc.pyramid_needs([]),
        imperial.production("romans"),
        imperial.missing_to_pay(imperial.CardId.BAR001, []),
        ac.secondary_losses("famine", "famine_secondary", {"b": 2}),
    ]
    for result in results:
        assert isinstance(result, FrozenMap), type(result)
        hash(result)
        with pytest.raises(TypeError):
            result["x"] = 1  # type: ignore[index]


HOUSE = """\
kind: ruleset
id: house-limit
name: "House limit"
extends: advanced-civilization
overlay:
  settings:
    hand_limit: {commodity_cards: 9, source: "house rule: nine cards"}
"""


def test_a_house_rule_setting_cites_the_house_rule_on_its_record_and_a_build_elsewhere_keeps_the_version(
    tmp_path: Path,
) -> None:
    rules = copy_rulesets(tmp_path / "project" / "rules", "advanced-civilization")
    (rules / "rulesets" / "house-limit.yaml").write_text(HOUSE, encoding="utf-8")
    runner = CliRunner()
    first = runner.invoke(
        main, ["--rules", str(rules), "build", "house-limit", "--out", str(rules.parent / "generated")]
    )
    assert first.exit_code == 0, first.stderr
    package = rules.parent / "generated" / "python" / "civrules_rulesets" / "house_limit"
    data = (package / "data.py").read_text(encoding="utf-8")
    limit = data[data.index("HAND_LIMIT: ") :]
    assert 'rules=("31.71", "31.72", "house rule: nine cards")' in limit[: limit.index("\n)\n")]
    # The project's generated/ is at 1.3.0: a build into a fresh folder moves from it, not from nothing.
    manifest = json.loads((package / "api.json").read_text(encoding="utf-8"))
    (package / "api.json").write_text(json.dumps({**manifest, "version": "1.3.0"}), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    second = runner.invoke(main, ["--rules", str(rules), "build", "house-limit", "--out", str(elsewhere)])
    assert second.exit_code == 0, second.stderr
    built = json.loads((elsewhere / "python" / "civrules_rulesets" / "house_limit" / "api.json").read_text())
    assert built["version"] == "1.3.0"
    assert "the same API" in second.stderr and "1.0.0" not in second.stderr


@pytest.mark.parametrize(
    ("lookup", "closest"),
    [
        (lambda: imperial.card_of("jap011"), "JAP011"),  # a card id where its printed id belongs
        (lambda: ac.purchase_cost([], "DEMOCRACY"), "democracy"),  # type: ignore[arg-type]
        (lambda: ac.CARDS["Pottery"], "pottery"),
    ],
    ids=["printed-id", "helper", "table"],
)
def test_an_id_spelt_in_another_case_is_named_as_the_closest(lookup: Callable[[], object], closest: str) -> None:
    """An id the ruleset has in another case ("JAP011" given as the card id "jap011", "DEMOCRACY")
    is the one an UnknownIdError proposes: difflib's ratio of the two is below its cut-off, so the
    message named the table's first ids instead."""
    with pytest.raises(UnknownIdError, match=f"did you mean '{closest}'"):
        lookup()


def _row_for_its_id() -> list[tuple[str, Callable[[], object], str]]:
    """A table's row given where its id belongs, in each family: to a table, the credit matrix and
    helpers of several kinds (the name, the call, the row's id)."""
    law, colossus = ac.CARDS["law"], smc.WONDERS["colossus"]
    faction = next(iter(imperial.FACTIONS.values()))
    return [
        ("CARDS[card]", lambda: ac.CARDS[law], "law"),  # type: ignore[index]
        ("CREDIT_MATRIX[card]", lambda: ac.CREDIT_MATRIX[law], "law"),  # type: ignore[index]
        ("CREDIT_MATRIX[id][card]", lambda: ac.CREDIT_MATRIX["pottery"][law], "law"),  # type: ignore[index]
        ("purchase_cost([card], id)", lambda: ac.purchase_cost([law], "democracy"), "law"),  # type: ignore[list-item]
        ("wonder_cost(wonder)", lambda: smc.wonder_cost(colossus), "colossus"),  # type: ignore[arg-type]
        ("production(faction)", lambda: imperial.production(faction), faction.id),  # type: ignore[arg-type]
        # a row of another table (TECHNOLOGIES[wonder]): test_refused_ids_as_given, no id to give
    ]


@pytest.mark.parametrize("case", range(len(_row_for_its_id())))
def test_a_row_given_for_its_id_is_named_by_its_id_not_printed_whole(case: int) -> None:
    """An engine passing ``CARDS["law"]`` where ``"law"`` belongs got its whole repr (1,700-1,900
    characters for a card, every field nested) in the message, with no word of what to give instead."""
    name, call, row_id = _row_for_its_id()[case]
    with pytest.raises(UnknownIdError) as raised:
        call()
    said = str(raised.value)
    assert f"record {row_id!r}" in said and f"give its id, {row_id!r} (record.id), not the record" in said, (name, said)
    assert len(said) < 200, (name, said)


def test_a_large_value_where_a_number_or_an_id_belongs_is_shown_cut() -> None:
    """SETTINGS given for a number was printed whole in the refusal (6,547 characters for Sid Meier's
    research_cost, 33,091 for the Expansion Project's PLAYERS.replace)."""
    from civrules_runtime.errors import OutOfDomainError

    for call in (
        lambda: smc.research_cost(smc.SETTINGS),  # type: ignore[arg-type]
        lambda: ep.PLAYERS.replace(min=ep.SETTINGS) if ep.PLAYERS else None,  # type: ignore[arg-type]
        lambda: ac.neighbours(ac.SETTINGS),  # type: ignore[arg-type]
        lambda: ac.CARDS[3],  # type: ignore[index]
    ):
        with pytest.raises((OutOfDomainError, UnknownIdError)) as raised:
            call()
        said = str(raised.value)
        assert len(said) < 300 and "<CardId." not in said, said  # an id enum's member is shown as its id


def _mappings_of(value: object, found: dict[type, Mapping[Any, Any]], depth: int = 0) -> None:
    """One mapping of each class reachable from ``value`` (a package's table, record or settings)."""
    from civrules_runtime.records import Record

    if depth > 6:
        return
    if isinstance(value, Mapping):
        if type(value) in found:
            return
        found[type(value)] = value
        for item in list(value.values())[:3]:
            _mappings_of(item, found, depth + 1)
    elif isinstance(value, Record):
        for field in value._values():
            _mappings_of(field, found, depth + 1)
    elif isinstance(value, tuple):
        for item in value[:3]:
            _mappings_of(item, found, depth + 1)


@pytest.mark.parametrize("package", [ac, imperial, smc], ids=lambda package: package.__name__.rpartition(".")[2])
def test_a_key_no_table_can_hold_is_a_miss_of_every_kind_of_table(package: Any) -> None:
    """A list of ids (or a dict) where one id belongs, as a key: every kind of table a package has
    (FrozenMap, the credit matrix and its rows, the settings records) answers it as a key it lacks,
    UnknownIdError (a KeyError) on lookup, None from ``get`` and False from ``in``. Before round 32
    the tables that are FrozenMaps (and the credit matrix's ``in``) raised Python's bare
    ``TypeError: unhashable type: 'list'`` from inside the runtime, while the settings records
    answered a miss."""
    found: dict[type, Mapping[Any, Any]] = {}
    for name in package.__all__:
        _mappings_of(getattr(package, name), found)
    assert FrozenMap in found
    for key in (["law"], {"law": 1}):
        for table in found.values():
            with pytest.raises(UnknownIdError):
                table[key]
            assert table.get(key) is None
            assert key not in table
    with pytest.raises(UnknownIdError, match=r"^\['law'\] is not in this table"):
        ac.CARDS[["law"]]  # type: ignore[index]


@pytest.mark.parametrize("package", [ac, ep], ids=["advanced_civilization", "expansion_project"])
def test_the_matrix_credit_toward_refuses_what_the_packages_credit_toward_refuses(package: Any) -> None:
    """``CREDIT_MATRIX.credit_toward([], "xyz")`` answered 0, a credit toward no card, where the
    package's ``credit_toward`` refuses the id; a string held was read as its letters ("'t' is
    listed twice in held") and a number or a list for the target was Python's TypeError from inside
    the runtime (round 33)."""
    from civrules_runtime.errors import NotACollectionError

    matrix: Any = package.CREDIT_MATRIX
    for target in ("xyz", ["law"], 5, None):
        with pytest.raises(UnknownIdError, match="is not a civilization card of this ruleset"):
            matrix.credit_toward([], target)
        with pytest.raises(UnknownIdError):
            package.credit_toward([], target)
    with pytest.raises(UnknownIdError, match="did you mean 'law'"):
        matrix.credit_toward([], "lwa")
    for held in ("pottery", 5, None):
        with pytest.raises(NotACollectionError, match="held is a collection of ids"):
            matrix.credit_toward(held, "law")
    assert matrix.credit_toward(["pottery"], "law") == package.credit_toward(["pottery"], "law")
