"""``typing.get_type_hints`` answers for every public class and function of every runtime and of a
package of each family: the tools engines introspect with (dataclass-style field readers, cattrs,
typeguard, pydantic's ``TypeAdapter``, ``inspect.get_annotations(eval_str=True)``) evaluate the
postponed annotations in the module's globals, so each name an annotation uses must be there at run
time, not only for type checkers (``NameError: name 'Callable' is not defined`` before round 31).

The modules walked are those the ledger of released runtime names lists (every module of every
runtime) and the modules of one package of each family, so a module or a name added later is
walked too; the modules themselves (their constants' annotations) of every package.

A record class's hints are its fields, in their order, and its public ``ClassVar`` constants, as a
frozen dataclass's are: no public class's hints name a private attribute (the record base's class
settings ``_schema``, ``_bounds`` ... were among ``get_type_hints(Card)`` before round 32, and a
field reader took them for fields).
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import typing
from collections.abc import Iterable, Iterator
from random import Random
from types import ModuleType

import pytest

from tests import shipped
from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

#: Every module of every runtime, as the ledger of released names has them.
RUNTIME_MODULES = sorted(json.loads((REPO / "compiler" / "tools" / "runtime_names.json").read_text(encoding="utf-8")))
#: One package of each family.
PACKAGES = ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")
#: Every package built.
EVERY_PACKAGE = shipped.package_names()  # never a designer's variant built beside them
#: Every package built, as parameters: one of each family (:data:`PACKAGES`) in `make test`, the
#: others (the same family's templates and runtime over other data) in `make test-slow`, for the
#: walks that cost a large part of a second a package (tests/README.md, "Fast and slow").
EVERY_PACKAGE_SWEPT = [
    package if package in PACKAGES else pytest.param(package, marks=pytest.mark.slow) for package in EVERY_PACKAGE
]


def package_modules(package: str) -> list[str]:
    folder = GENERATED / "civrules_rulesets" / package
    return sorted(
        f"civrules_rulesets.{package}" + ("" if path.stem == "__init__" else f".{path.stem}")
        for path in folder.glob("*.py")
    )


def annotated(module: ModuleType) -> Iterator[tuple[str, object]]:
    """Each public class and function ``module`` defines (a name it re-exports is walked in the
    module that defines it), with each function, property, class and static method a class defines
    itself, by its dotted name."""
    for name, value in list(vars(module).items()):  # not __all__'s names: those loaded on use are walked where defined
        if name.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if value.__module__ != module.__name__:
            continue
        yield f"{module.__name__}.{name}", value
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if isinstance(member, staticmethod | classmethod):
                    member = member.__func__
                elif isinstance(member, property):
                    member = member.fget
                if inspect.isfunction(member):
                    yield f"{module.__name__}.{name}.{attribute}", member


@pytest.mark.parametrize("module", [*RUNTIME_MODULES, *(m for package in PACKAGES for m in package_modules(package))])
def test_every_public_class_and_function_has_type_hints_that_evaluate(module: str) -> None:
    imported = importlib.import_module(module)
    failed = {}
    for name, value in annotated(imported):
        try:
            typing.get_type_hints(value)
        except NameError as error:  # a name an annotation uses is imported for type checkers only
            failed[name] = str(error)
    assert not failed


@pytest.mark.parametrize("package", EVERY_PACKAGE)
def test_every_module_of_every_package_has_type_hints_that_evaluate(package: str) -> None:
    """``get_type_hints(module)``: the package's constants (``RULESET_ID``, ``__version__``, every table)
    with the types a type checker reads (a bare ``Final`` was Python 3.11's TypeError, ``Final``
    imported for type checkers only a NameError)."""
    failed = {}
    for module in package_modules(package):
        try:
            typing.get_type_hints(importlib.import_module(module))
        except (NameError, TypeError) as error:
            failed[module] = f"{type(error).__name__}: {error}"
    assert not failed
    hints = typing.get_type_hints(importlib.import_module(f"civrules_rulesets.{package}.data"))
    assert hints["RULESET_ID"] == typing.Final[str]
    assert hints["DRAFT"] == typing.Final[bool]
    package_hints = typing.get_type_hints(importlib.import_module(f"civrules_rulesets.{package}"))
    assert package_hints["__version__"] == typing.Final[str]


@pytest.mark.parametrize("module", RUNTIME_MODULES)
def test_a_public_class_hints_are_its_public_attributes_and_a_records_its_fields(module: str) -> None:
    from civrules_runtime.records import Record, SettingsRecord

    imported = importlib.import_module(module)
    private, not_fields = {}, {}
    for name, value in annotated(imported):
        if not inspect.isclass(value):
            continue
        hints = typing.get_type_hints(value)
        if any(hint.startswith("_") for hint in hints):
            private[name] = sorted(hint for hint in hints if hint.startswith("_"))
        if issubclass(value, Record) and value not in (Record, SettingsRecord):
            fields = [hint for hint, kind in hints.items() if typing.get_origin(kind) is not typing.ClassVar]
            if fields != list(value.__slots__):
                not_fields[name] = fields
    assert not private
    assert not not_fields


def test_the_hints_are_the_types_a_type_checker_reads() -> None:
    from civrules_rulesets import advanced_civilization
    from civrules_rulesets.advanced_civilization.ids import CalamityIdName
    from civrules_runtime_advanced_civilization.records import Card, Credit

    suffered = typing.get_type_hints(advanced_civilization.calamities_suffered)
    assert suffered["received"] == Iterable[CalamityIdName]
    assert suffered["rng"] == Random | None
    assert typing.get_type_hints(Card)["credits"] == tuple[Credit, ...] | None
    assert typing.get_type_hints(Card.replace)["return"] is typing.Self
    assert inspect.get_annotations(advanced_civilization.calamities_suffered, eval_str=True) == suffered
