"""A pickle of a record made by another version of its runtime, whose record class has other fields,
is an OutOfDomainError that says so (the fields this version's class has, how many the pickle
gave, the runtime and its version, what to do), never a record with its values in the wrong fields
and never an error from inside pickle.

(Round 28's release and this round's load each other's pickles of every table of five packages
alike: no record's fields changed between them. A pickle holds a record's values in the order of
its fields, so a version that adds or removes a field cannot read the other's.)
"""

from __future__ import annotations

import pickle
import re
import sys

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime.errors import OutOfDomainError  # noqa: E402 - the committed runtime
from civrules_runtime.records import Record  # noqa: E402


def pickled_by_another_version(record: Record, state: tuple[object, ...]) -> bytes:
    """A pickle of ``record``'s class with ``state``, as a version whose class has those fields writes it."""

    class Other:
        def __reduce__(self) -> tuple[object, ...]:
            return (object.__new__, (type(record),), state)  # made, then its state set: as pickle restores a record

    return pickle.dumps(Other())


def test_a_pickle_of_a_record_with_other_fields_says_another_version_made_it() -> None:
    import civrules_runtime_advanced_civilization
    from civrules_rulesets import advanced_civilization

    card = next(iter(advanced_civilization.CARDS.values()))
    assert pickle.loads(pickle.dumps(card)) == card
    fields = ", ".join(card._names())
    version = civrules_runtime_advanced_civilization.__version__
    for state in (card.__getstate__()[:-1], (*card.__getstate__(), "a field this version has not")):
        said = (
            rf"Card is restored from its {len(card._names())} fields \({re.escape(fields)}\), not {len(state)} values:"
            rf" the pickle was made by another version of civrules_runtime_advanced_civilization than this"
            rf" {re.escape(version)}.* load it with the version that made it, or make it again from a ruleset"
            r" package's data"
        )
        with pytest.raises(OutOfDomainError, match=said):
            pickle.loads(pickled_by_another_version(card, state))


def test_a_pickle_of_a_settings_record_with_other_fields_says_so_too() -> None:
    from civrules_rulesets import imperial_settlers

    settings = imperial_settlers.SETTINGS
    assert pickle.loads(pickle.dumps(settings)) == settings
    state = settings.__getstate__()[1:]  # a version whose Settings had one field fewer
    with pytest.raises(OutOfDomainError, match=r"Settings is restored from its \d+ fields \(.*unknown_fields\), not"):
        pickle.loads(pickled_by_another_version(settings, state))


# --- A class, an id or a package this version lacks -------------------------------------------------


def _pickled_modules() -> list[str]:
    """Every module of the runtimes and packages whose objects a pickle names by module and name: each
    record class's (shared and family runtimes, settings included), the tables' and credit matrix's,
    the vocabularies', and the id enums of a package of each family."""
    import importlib

    from civrules_runtime.mappings import FrozenMap, OrderedFrozenSet

    def subclasses(cls: type) -> list[type]:
        found: list[type] = [cls]
        below: list[type] = type.__subclasses__(cls)
        for sub in below:
            found += subclasses(sub)
        return found

    modules = {FrozenMap.__module__, OrderedFrozenSet.__module__}
    for name in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization"):
        package = importlib.import_module(f"civrules_rulesets.{name}")
        modules |= {enum.__module__ for enum in package.ID_ENUMS.values()}
        modules |= {type(getattr(package, name)).__module__ for name in package.__all__}  # its tables
    for family in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization"):
        runtime = importlib.import_module(f"civrules_runtime_{family}")
        for name in dir(runtime):
            value = getattr(runtime, name)
            if isinstance(value, type) and value.__module__.startswith("civrules_runtime"):
                modules.add(value.__module__)
        importlib.import_module(f"civrules_runtime_{family}.settings")
    modules |= {cls.__module__ for cls in subclasses(Record)}
    modules |= {"civrules_runtime.assumed"}  # a view's class (each family's ``assumptions``, a view's)
    modules |= {
        f"civrules_runtime_{family}.assumptions"
        for family in ("advanced_civilization", "imperial_settlers", "sid_meiers_civilization")
    }
    for module in modules:
        importlib.import_module(module)
    return sorted(m for m in modules if m.startswith("civrules_") and not m.endswith(".protocol"))


def test_a_pickle_of_a_class_a_released_version_had_names_the_version_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pickle finds a record's class (an enum, a table's class) by its module and name; a version
    without that class said only "Can't get attribute 'X' on <module ...>". Each such module says,
    for a name a released version of it had (its ``_RETIRED``), which distribution and version it
    is, and to load the pickle with the version that made it."""
    from civrules_runtime import OtherVersionError

    modules = [module for module in _pickled_modules() if not module.endswith(".ids")]  # no ids module lost one
    some = {
        "civrules_runtime.records",
        "civrules_runtime.mappings",
        "civrules_runtime.assumed",
        "civrules_runtime_advanced_civilization.assumptions",
        "civrules_runtime_advanced_civilization.credits",
        "civrules_runtime_sid_meiers_civilization.settings",
    }
    assert some <= set(modules)
    for module in modules:
        imported = sys.modules[module]
        monkeypatch.setattr(imported, "_RETIRED", frozenset({"RetiredRecord"}))
        package = sys.modules[module.rpartition(".")[0]]
        distribution = package.__name__.replace(".", "-").replace("_", "-")
        with pytest.raises(OtherVersionError) as raised:
            pickle.loads(f"c{module}\nRetiredRecord\n.".encode())  # protocol 0: the class alone, by its name
        said = str(raised.value)
        assert said.startswith(f"{module} has no 'RetiredRecord' in {distribution} {package.__version__}:"), said
        assert "load the pickle with the version that made it, or make the value again with this one" in said, said
        assert "package" not in said or module.startswith("civrules_rulesets."), said  # a runtime's is no package
        assert isinstance(raised.value, ImportError) and raised.value.missing == "RetiredRecord"


def test_a_name_no_version_had_is_the_attribute_error_hasattr_and_pickle_expect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Any name no release of a module had is Python's AttributeError, as a module's ``__getattr__``
    owes it. It was OtherVersionError for every capitalised name: ``hasattr(records, "Anything")``
    raised, and ``pickle.dumps`` of an object whose ``__module__`` is None failed, as pickle looks for
    it by name in every imported module and stops at any error but AttributeError."""
    import types

    modules = _pickled_modules()
    for module in modules:
        imported = sys.modules[module]
        assert not any(hasattr(imported, name) for name in ("NoSuchRecord", "__wrapped__", "_private", "lower"))
        with pytest.raises(AttributeError, match="NoSuchRecord"):
            pickle.loads(f"c{module}\nNoSuchRecord\n.".encode())
    assert {"civrules_runtime", "civrules_runtime.records"} <= set(sys.modules)  # the shared one's forwarders too
    assert not hasattr(sys.modules["civrules_runtime"], "NoSuchRecord")
    assert not hasattr(sys.modules["civrules_runtime.records"], "NoSuchRecord")

    def made_elsewhere() -> None: ...

    made_elsewhere.__module__ = None  # type: ignore[assignment]  # as some C extensions' functions are
    made_elsewhere.__qualname__ = made_elsewhere.__name__ = "MadeElsewhere"
    main = types.ModuleType("__main__")
    main.MadeElsewhere = made_elsewhere  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "__main__", main)  # where pickle settles when no module has it
    assert pickle.loads(pickle.dumps(made_elsewhere)) is made_elsewhere


def test_every_name_a_release_had_is_there_or_said_to_be_another_versions() -> None:
    """The ledger of released names (compiler/tools/runtime_names.json) against the runtimes: each name
    a release of a module had is still there (forwarded, for the shared runtime's names that moved to
    a family's) or is in the module's ``_RETIRED``, so that a pickle of that release is told so."""
    import importlib
    import json

    from civrules_runtime import OtherVersionError

    ledger = json.loads((REPO / "compiler" / "tools" / "runtime_names.json").read_text(encoding="utf-8"))
    assert {"civrules_runtime.records", "civrules_runtime_advanced_civilization.records"} <= set(ledger)
    told: list[str] = []
    for module, names in ledger.items():
        imported = importlib.import_module(module)
        for name in names:
            try:
                getattr(imported, name)
            except OtherVersionError as error:
                told.append(f"{error.name}.{error.missing}")
    assert "civrules_runtime.assumed.UnknownIdError" in told  # imported there once, from errors since


def test_an_id_this_version_lacks_names_the_closest_and_the_version() -> None:
    """A pickled id is made again by calling its enum with its value: an id the package no longer has
    (or a misspelt one given to the enum) was Enum's "'x' is not a valid CardId"."""
    from civrules_rulesets import advanced_civilization, sid_meiers_civilization
    from civrules_runtime import UnknownIdError

    version = advanced_civilization.__version__
    # the id as an engine holds it, a record's (the enum its package's data module made it with)
    lost = pickle.dumps(advanced_civilization.CARDS["pottery"].id).replace(b"pottery", b"pxttery")
    said = (
        rf"'pxttery' is no CardId of civrules-rulesets-advanced-civilization {re.escape(version)}:"
        r" did you mean 'pottery'\? .*load that pickle with the version"
    )
    with pytest.raises(UnknownIdError, match=said):
        pickle.loads(lost)
    with pytest.raises(ValueError, match=r"'potery' is no TechnologyId of civrules-rulesets-sid-meiers-civilization"):
        sid_meiers_civilization.TechnologyId("potery")  # still a ValueError, as Enum's own
    with pytest.raises(ValueError, match=r"^3 is no CardId of .*: an id is a str, one of "):
        advanced_civilization.CardId(3)  # type: ignore[arg-type]
    assert advanced_civilization.CardId("pottery") is advanced_civilization.CardId.POTTERY


def test_an_id_of_an_enum_with_no_ids_is_unknown_id_error_too() -> None:
    """An id enum with no members (the Expansion Project's nations and areas) answered any value with
    Enum's own TypeError ("<enum 'NationId'> has no members defined"): Enum says so before it asks
    ``_missing_``. It is UnknownIdError, as for an enum with members, and says the enum has none."""
    import importlib

    from civrules_runtime import UnknownIdError

    empty = []
    for name in ("advanced_civilization", "expansion_project", "imperial_settlers", "sid_meiers_civilization"):
        package = importlib.import_module(f"civrules_rulesets.{name}")
        empty += [(package, enum) for enum in package.ID_ENUMS.values() if not len(enum)]
    assert {enum.__name__ for _, enum in empty} >= {"NationId"}
    for package, enum in empty:
        with pytest.raises(UnknownIdError, match=rf"^'egypt' is no {enum.__name__} of .* {package.__version__}: "):
            enum("egypt")
        with pytest.raises(ValueError, match=r"^3 is no "):
            enum(3)
        assert list(enum) == [] and pickle.loads(pickle.dumps(enum)) is enum


def test_an_enum_name_is_a_value_at_run_time_and_no_other_name_is_said_to_be_one() -> None:
    """A ``<Enum>Name`` (``CardIdName``) was defined for type checkers only, which ``typing.get_type_hints``
    of every helper tripped on (tests/engine/test_type_hints.py): each is a value now, the union a
    type checker reads; a name a module lacks is still AttributeError (``hasattr``), and a package
    built before that still passes ``for_type_checkers`` is told as before."""
    import importlib
    import typing

    from civrules_rulesets.advanced_civilization.ids import CardId, CardIdName
    from civrules_runtime.errors import OtherVersionError, absent

    assert CardId in typing.get_args(CardIdName) and "pottery" in typing.get_args(typing.get_args(CardIdName)[1])
    checked = 0
    for module in _pickled_modules():
        if module.endswith((".ids", ".vocab")):
            imported = importlib.import_module(module)
            assert not hasattr(imported, "_TYPE_ONLY") and not hasattr(imported, "NoSuchName"), module
            checked += 1
    assert checked >= 6  # three families' vocabularies, and a package's ids of each
    said = absent("civrules_rulesets.advanced_civilization.ids", "CardIdName", for_type_checkers=True)
    assert isinstance(said, OtherVersionError) and "for type checkers only" in str(said)


def test_a_pickled_view_of_a_package_not_installed_names_its_distribution() -> None:
    """A view pickles as its package's name and its assumptions: unpickled where that package is not
    installed, it said only "No module named 'civrules_rulesets.x'"."""
    import civrules_runtime_advanced_civilization as runtime
    from civrules_rulesets import advanced_civilization

    view = advanced_civilization.assuming(runtime.Assumptions(why="a test"))
    assert pickle.loads(pickle.dumps(view)) == view
    # the same length: a pickle's strings are written with their length
    gone = pickle.dumps(view).replace(b"rulesets.advanced_civilization", b"rulesets.not_installed_anywher")
    said = r"view of civrules_rulesets.not_installed_anywher .* not installed here: pip install civrules-rulesets-not-"
    with pytest.raises(ModuleNotFoundError, match=said):
        pickle.loads(gone)
