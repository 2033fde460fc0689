"""The runtimes' modules load some of their names on first use through a module ``__getattr__``:
``civrules_runtime``'s bases (``FrozenMap``, ``Record`` ...) and the names that moved to the
Advanced Civilization family's runtime, those names in ``civrules_runtime.records``, ``logic``,
``protocol`` and ``vocab`` (where pickles of older versions find them), and each family runtime's
records and protocol. Each name found is bound in the module's globals at its first read, as a
ruleset package binds its tables (round 33): a later read is a plain global lookup, never again a
call of that ``__getattr__`` (0.75-2.2 us a read on Python 3.11 before round 34). A refusal is never
bound (it is said again at each read), and ``importlib.reload`` forgets what reads bound."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

import civrules_runtime  # noqa: E402 - the committed runtimes
import civrules_runtime.logic  # noqa: E402
import civrules_runtime.protocol  # noqa: E402
import civrules_runtime.records  # noqa: E402
import civrules_runtime.vocab  # noqa: E402
import civrules_runtime_advanced_civilization  # noqa: E402
import civrules_runtime_imperial_settlers  # noqa: E402
import civrules_runtime_sid_meiers_civilization  # noqa: E402

#: Each module whose ``__getattr__`` answers names, with names it answers and where each lives.
READS: dict[str, tuple[ModuleType, dict[str, str]]] = {
    "civrules_runtime": (
        civrules_runtime,
        {
            "FrozenMap": "civrules_runtime.mappings",
            "OrderedFrozenSet": "civrules_runtime.mappings",
            "Record": "civrules_runtime.records",
            "SettingsRecord": "civrules_runtime.records",
            "PlayerRange": "civrules_runtime.records",
            "UnknownFact": "civrules_runtime.records",
            "RulesetPackageBase": "civrules_runtime.protocol",
            "Card": "civrules_runtime_advanced_civilization",  # moved
        },
    ),
    "civrules_runtime.records": (civrules_runtime.records, {"Card": "civrules_runtime_advanced_civilization.records"}),
    "civrules_runtime.logic": (civrules_runtime.logic, {"Epoch": "civrules_runtime_advanced_civilization.logic"}),
    "civrules_runtime.protocol": (
        civrules_runtime.protocol,
        {"RulesetPackage": "civrules_runtime_advanced_civilization.protocol"},
    ),
    "civrules_runtime.vocab": (civrules_runtime.vocab, {"EffectKind": "civrules_runtime_advanced_civilization.vocab"}),
    **{
        family.__name__: (
            family,
            {
                "Assumptions": f"{family.__name__}.records",
                "UnknownFact": f"{family.__name__}.records",
                "RulesetPackage": f"{family.__name__}.protocol",
                "AssumedPackage": f"{family.__name__}.assumptions",
            },
        )
        for family in (
            civrules_runtime_advanced_civilization,
            civrules_runtime_imperial_settlers,
            civrules_runtime_sid_meiers_civilization,
        )
    },
}


def _counting(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    lazy = vars(module)["__getattr__"]

    def counting(name: str) -> object:
        calls.append(name)
        return lazy(name)

    monkeypatch.setitem(vars(module), "__getattr__", counting)
    return calls


@pytest.mark.parametrize("module", READS, ids=list(READS))
def test_a_name_read_once_is_read_again_without_the_modules_getattr(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    imported, names = READS[module]
    calls = _counting(imported, monkeypatch)
    for name in names:  # the first read (or another test's before it) finds it
        getattr(imported, name)
    calls.clear()
    for _ in range(100):
        for name in names:
            getattr(imported, name)
    assert calls == []
    for name, home in names.items():
        assert vars(imported)[name] is getattr(importlib.import_module(home), name), name


def test_a_name_refused_is_refused_again_at_each_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal is never bound: a name the runtime lacks, and a moved name while the family's
    runtime cannot be imported (its error says to install it, at every read)."""
    for module in (civrules_runtime, civrules_runtime.records, civrules_runtime_imperial_settlers):
        for _ in range(2):
            with pytest.raises(AttributeError):
                module.NoSuchName  # noqa: B018
        assert "NoSuchName" not in vars(module)
    family = "civrules_runtime_advanced_civilization"
    vars(civrules_runtime).pop("Calamity", None)  # a moved name no other test reads from here
    monkeypatch.setitem(sys.modules, family, None)  # its import raises ModuleNotFoundError
    for _ in range(2):
        with pytest.raises(AttributeError, match=rf"moved to {family} \(pip install civrules-runtime-"):
            civrules_runtime.Calamity  # noqa: B018
    assert "Calamity" not in vars(civrules_runtime)
    monkeypatch.undo()
    assert civrules_runtime.Calamity is sys.modules[family].Calamity
    assert "Calamity" in vars(civrules_runtime)


@pytest.mark.parametrize(
    "module",
    [civrules_runtime, civrules_runtime.logic, civrules_runtime.vocab, civrules_runtime_imperial_settlers],
    ids=lambda module: module.__name__,
)
def test_a_reload_forgets_the_names_reads_bound(module: ModuleType) -> None:
    """These modules define no class of their own a reload would make again (the others' records
    would be other classes than every record made before): a reload only forgets what reads bound."""
    names = READS[module.__name__][1]
    for name in names:
        getattr(module, name)
        assert name in vars(module)
    before = {name: getattr(module, name) for name in names}
    importlib.reload(module)
    assert [name for name in names if name in vars(module)] == []
    for name in names:  # read again, from where they live
        assert getattr(module, name) is before[name]


@pytest.mark.parametrize(
    "name",
    [
        "civrules_runtime",
        "civrules_runtime_advanced_civilization",
        "civrules_runtime_imperial_settlers",
        "civrules_runtime_sid_meiers_civilization",
    ],
)
def test_dir_of_a_runtime_lists_the_names_it_loads_before_any_is_read(name: str) -> None:
    """``dir(civrules_runtime_imperial_settlers)`` lacked ``Card`` and every record until a read
    bound one (round 34), as a package's ``dir`` lacked its tables: ``inspect.getmembers`` and
    ``mock.create_autospec`` of a runtime missed them. Each lists its ``__all__`` before any read."""
    from tests.variant_packages import packages_of

    with packages_of(GENERATED):  # fresh modules: no read has bound anything yet
        module = importlib.import_module(name)
        listed = dir(module)
        assert set(module.__all__) <= set(listed) and listed == sorted(listed)
        assert "__version__" in listed
