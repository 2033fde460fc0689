"""A ruleset package imports its tables and helpers at their first read (importing the package
stays cheap), then binds the name in its globals: a later read is a plain global lookup, never
again a call of the package's ``__getattr__`` (which cost 0.5-0.8 us a read, against some 20 ns:
an engine reads ``package.CARDS[...]`` in its loops). A reload forgets what a read bound, and
threads reading a name first all get the submodule's object."""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType

import pytest

from tests.conftest import REPO
from tests.variant_packages import packages_of

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import imperial_settlers as imperial  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402

#: One package a family: each family renders its own package __init__.
PACKAGES = {"advanced_civilization": ac, "imperial_settlers": imperial, "sid_meiers_civilization": smc}
#: A table and a helper every family's package has.
NAMES = ("SETTINGS", "require_complete")


@pytest.mark.parametrize("package", PACKAGES.values(), ids=PACKAGES.keys())
def test_a_name_read_once_is_read_again_without_the_package_getattr(
    package: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    lazy = vars(package)["__getattr__"]

    def counting(name: str) -> object:
        calls.append(name)
        return lazy(name)

    monkeypatch.setitem(vars(package), "__getattr__", counting)
    for name in NAMES:  # the first read (or another test's before it) loads the submodule
        getattr(package, name)
    calls.clear()
    for _ in range(100):
        for name in NAMES:
            getattr(package, name)
    assert calls == []
    assert package.SETTINGS is sys.modules[f"{package.__name__}.data"].SETTINGS
    assert package.require_complete is sys.modules[f"{package.__name__}.helpers"].require_complete


def test_a_reload_forgets_the_names_a_read_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name bound by a read would outlive ``importlib.reload`` (it runs the file again in the same
    globals): the package would keep answering the table its data held before."""
    data = sys.modules[f"{ac.__name__}.data"]
    assert ac.CARDS is data.CARDS  # read: bound
    other = object()
    monkeypatch.setattr(data, "CARDS", other)  # as a reloaded data module holds another table
    try:
        importlib.reload(ac)
        assert "CARDS" not in vars(ac)
        assert ac.CARDS is other
    finally:
        vars(ac).pop("CARDS", None)  # the next read binds the table monkeypatch puts back


def test_threads_reading_a_name_first_all_get_the_submodules_object() -> None:
    with packages_of(GENERATED):  # fresh modules: no read has bound anything yet
        package = importlib.import_module("civrules_rulesets.advanced_civilization")
        assert f"{package.__name__}.data" not in sys.modules  # importing the package loads no data
        start = threading.Barrier(4)
        read: list[object] = []

        def first_read() -> None:
            start.wait()
            read.append(package.CARDS)

        threads = [threading.Thread(target=first_read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        cards = sys.modules[f"{package.__name__}.data"].CARDS
        assert len(read) == 4 and all(table is cards for table in read)
        assert vars(package)["CARDS"] is cards


@pytest.mark.parametrize("name", PACKAGES.keys())
def test_dir_of_a_package_lists_its_tables_and_helpers_before_any_is_read(name: str) -> None:
    """``dir(package)`` listed a table or helper only once a read had bound it (round 34): before,
    ``mock.create_autospec(package)`` had no ``purchase_cost`` (AttributeError where an engine's test
    called it), and ``inspect.getmembers(package)`` none of the tables. A module's ``__dir__`` lists
    them, as ``dir()`` of a view with assumptions always did; listing loads no data."""
    from unittest import mock

    with packages_of(GENERATED):  # fresh modules: no read has bound anything yet
        package = importlib.import_module(f"civrules_rulesets.{name}")
        listed = dir(package)
        assert f"{package.__name__}.data" not in sys.modules  # listing loads nothing
        assert set(package.__all__) <= set(listed) and listed == sorted(listed)
        assert "__version__" in listed and "TYPE_CHECKING" in listed  # the module's own names are there too
        spec = mock.create_autospec(package)
        spec.require_complete()
        spec.require_complete.assert_called_once_with()
        with pytest.raises(TypeError):
            spec.require_complete("an argument it does not take")


@pytest.mark.parametrize("package", PACKAGES.values(), ids=PACKAGES.keys())
def test_the_package_reads_its_names_with_the_runtime_lazy_names(package: ModuleType) -> None:
    """One ``__getattr__``/``__dir__`` for the runtimes and the packages (the shared runtime's
    ``lazy_names``), not a copy of it rendered into every package: a fix to it reaches them all.
    Its refusal names the package and sets ``name`` and ``obj`` (a traceback's did-you-mean)."""
    from civrules_runtime import lazy

    made = lazy.lazy_names({"__name__": "probe"}, {})
    assert vars(package)["__getattr__"].__code__ is made[0].__code__
    assert vars(package)["__dir__"].__code__ is made[1].__code__
    with pytest.raises(AttributeError, match=f"module '{package.__name__}' has no attribute 'CARD'") as refused:
        package.__getattr__("CARD")
    assert refused.value.name == "CARD" and refused.value.obj is package
