"""``record.replace(...)`` is typed for each record class: a type checker refuses a field the class
does not have and a value of another type, as the runtime does when it runs.

Every record class (the families' records, the settings records, the shared ``PlayerRange``)
declares to type checkers a ``replace`` of its own, written by ``compiler/tools/replaces.py`` (the
settings records' by their generator): its fields keyword-only, each optional, each with the type
its constructor takes. The fast tests hold the sources to that generator; the slow one runs
``mypy --strict`` over an engine module that uses ``replace`` rightly and wrongly, in each family.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

COMPILER = REPO / "compiler"
if str(COMPILER) not in sys.path:
    sys.path.insert(0, str(COMPILER))

from tools import replaces  # noqa: E402 - the generators live beside the compiler, not in it

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))


def test_every_record_source_holds_the_typed_replace_its_generator_writes() -> None:
    stale = [path.name for path, text in replaces.rendered().items() if path.read_text(encoding="utf-8") != text]
    assert not stale, "run: cd compiler && python -m tools.replaces"


def test_a_class_with_its_own_constructor_gets_each_field_keyword_only_with_the_type_its_constructor_takes() -> None:
    source = """
class Area(Record):
    __slots__ = ("id", "cities")

    id: str
    cities: int

    def __init__(self, id: str, cities: int | None = None) -> None:
        _set(self, "id", id)
        _set(self, "cities", cities or 0)


class Capital(Area):
    __slots__ = ()
"""
    rendered = replaces.render(source)
    written = "\n".join(replaces.block([("id", "str"), ("cities", "int | None")]))
    last = '        _set(self, "cities", cities or 0)\n'
    assert rendered == source.replace(last, f"{last}\n{written}\n")
    assert replaces.render(rendered) == rendered  # written again, it is the same


def test_replace_refuses_a_value_given_without_its_fields_name() -> None:
    from civrules_rulesets import advanced_civilization

    card = next(iter(advanced_civilization.CARDS.values()))
    with pytest.raises(TypeError, match=r"Card\.replace takes its changes by field name \(id, name, "):
        card.replace(card.id)  # type: ignore[call-arg]  # what mypy refuses, refused when it runs too
    settings = advanced_civilization.SETTINGS
    with pytest.raises(TypeError, match=r"Settings\.replace takes its changes by field name"):
        settings.replace(None)  # type: ignore[call-arg]


def _declared_record_classes() -> list[Any]:
    """Every record class of the runtimes that declares a ``replace`` of its own."""
    import importlib
    import inspect

    from civrules_runtime.records import Record, SettingsRecord

    found: dict[str, Any] = {}
    for runtime in ("civrules_runtime", *(f"civrules_runtime_{family}" for family in FAMILIES)):
        for module in ("records", "settings"):
            try:
                imported = importlib.import_module(f"{runtime}.{module}")
            except ModuleNotFoundError:
                continue
            for _, cls in inspect.getmembers(imported, inspect.isclass):
                if issubclass(cls, Record) and cls not in (Record, SettingsRecord) and "replace" in vars(cls):
                    found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


FAMILIES = ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")


def test_inspect_reads_each_record_classs_replace_as_declared_its_fields_keyword_only_and_typed() -> None:
    import inspect
    import typing

    classes = _declared_record_classes()
    assert len(classes) > 100  # every family's records and settings records, and the shared ones
    wrong = []
    for cls in classes:
        fields = [name for name in cls._fields if not name.startswith("_")]
        parameters = list(inspect.signature(cls.replace).parameters.values())
        hints = typing.get_type_hints(cls.replace)
        if (
            [parameter.name for parameter in parameters] != ["self", *fields]
            or any(parameter.kind is not inspect.Parameter.KEYWORD_ONLY for parameter in parameters[1:])
            or set(hints) != {*fields, "return"}
        ):
            wrong.append(f"{cls.__module__}.{cls.__qualname__}: {inspect.signature(cls.replace)}")
    assert not wrong, "\n".join(wrong[:5])


def test_a_declared_replace_runs_its_bases_and_says_what_it_is() -> None:
    import inspect

    from civrules_rulesets import advanced_civilization
    from civrules_runtime.records import Record

    card = next(iter(advanced_civilization.CARDS.values()))
    assert str(inspect.signature(card.replace)).startswith("(*, id: 'str' = Ellipsis, name: 'str | None' = Ellipsis")
    assert type(card).replace.__qualname__ == "Card.replace"
    assert type(card).replace.__code__ is Record.replace.__code__  # the base's code, checks included
    assert "keyword-only" in (type(card).replace.__doc__ or "")
    assert card.replace(name="x").name == "x"
    with pytest.raises(TypeError, match="did you mean 'cost'"):
        card.replace(cots=1)  # type: ignore[call-arg]


def test_typed_replace_on_a_class_that_is_no_record_says_so_when_called_not_its_stubs_error() -> None:
    import inspect
    from typing import Self

    from civrules_runtime.records import Record, typed_replace

    class Piece:  # an engine's own class, no Record
        @typed_replace
        def replace(self, *, cost: int = ...) -> Self:
            raise NotImplementedError  # the declaration only

    class Token(Record):
        __slots__ = ("cost",)
        cost: int

        def __init__(self, cost: int) -> None:
            object.__setattr__(self, "cost", cost)

        @typed_replace
        def change(self, *, cost: int = ...) -> Self:  # declared under another name than replace
            raise NotImplementedError

    assert str(inspect.signature(Piece.replace)) == "(self, *, cost: 'int' = Ellipsis) -> 'Self'"
    no_record = r"Piece\.replace is declared with .*typed_replace.* Piece is no civrules_runtime\.Record"
    with pytest.raises(TypeError, match=no_record):
        Piece().replace(cost=1)
    with pytest.raises(TypeError, match=r"Token\.change .* a record class's replace only: name it replace"):
        Token(1).change(cost=2)
    assert Token(1).replace(cost=2) == Token(2)  # a record class's replace is its base's, as before


def test_a_class_without_a_base_is_no_record_and_gets_no_replace() -> None:
    source = """
class _Plain:
    __slots__ = ("types",)

    def __init__(self, types: tuple[type, ...]) -> None:
        self.types = types
"""
    assert replaces.render(source) == source


#: An engine module using ``replace`` rightly (lines 6-10) and wrongly (each line from 11 on: a
#: field of another type or one the class has not, in each family, a settings record and a
#: shared record).
CONSUMER = """from __future__ import annotations

from civrules_rulesets import advanced_civilization, imperial_settlers, sid_meiers_civilization
from civrules_runtime_advanced_civilization.records import Card

card: Card = next(iter(advanced_civilization.CARDS.values())).replace(cost=80, name=None)
tech = next(iter(sid_meiers_civilization.TECHNOLOGIES.values())).replace(level=2)
settler = next(iter(imperial_settlers.CARDS.values())).replace(cost=("wood",), copies=2)
players = imperial_settlers.PLAYERS.replace(best=3) if imperial_settlers.PLAYERS else None
ast = advanced_civilization.SETTINGS.ast.replace(points_per_space=5) if advanced_civilization.SETTINGS.ast else None
card.replace(cost="ten")
card.replace(costs=80)
tech.replace(level="2")
tech.replace(era="ancient")
settler.replace(copies=None)
settler.replace(cost="wood")
imperial_settlers.PLAYERS and imperial_settlers.PLAYERS.replace(best="3")
advanced_civilization.SETTINGS.replace(ast=5)
advanced_civilization.SETTINGS.ast and advanced_civilization.SETTINGS.ast.replace(points=5)
"""


@pytest.mark.slow
def test_mypy_refuses_a_replace_of_a_field_the_record_has_not_or_of_another_type(tmp_path: Path) -> None:
    consumer = tmp_path / "consumer.py"
    consumer.write_text(CONSUMER, encoding="utf-8")
    # The project's configuration (strict, mypy_path), with a cache of its own (as test_typed_settings).
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), str(consumer)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = {int(line.split(":")[1]) for line in run.stdout.splitlines() if ": error:" in line}
    assert lines == set(range(11, 20)), run.stdout + run.stderr
