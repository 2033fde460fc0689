"""docs/engine.md names the distribution of every runtime module a pickle may name: a pickle loaded
where that module's runtime is not installed at all is pickle's own "No module named ...", which no
code of civrules can word (the runtime that would is the one missing, and a pickle format that ran
civrules code as it loads could not be read by earlier runtimes: round 33 kept the format), so the
page answers it, and gives an engine's ``load`` that names the distribution to install, run here.

The table is written from the ledgers (``cd compiler && python -m tools.runtimes``); these tests hold
it to them: every module any release had, under the distribution that ships it.
"""

from __future__ import annotations

import pickle
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import imperial_settlers as imperial  # noqa: E402 - the committed packages
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402


def shipped() -> dict[str, str]:
    """Each runtime's import package and its distribution, as the committed build declares it
    (tests/generated/test_distributions.py holds the build to what civrules ships)."""
    return {
        path.parent.name: tomllib.loads(path.read_text(encoding="utf-8"))["project"]["name"]
        for path in (REPO / "generated" / "python").glob("civrules_runtime*/pyproject.toml")
    }


def documented() -> dict[str, str]:
    """Each module the page's table lists, and the distribution it lists it under."""
    from tools.runtimes import DOCS, written_table

    table = written_table(DOCS.read_text(encoding="utf-8"))
    assert table is not None, "docs/engine.md lost the lines the table is written between"
    found: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        distribution, modules = (re.findall(r"`([^`]+)`", cell) for cell in line.strip("|").split("|"))
        for module in modules:
            assert module not in found, f"{module} is listed twice"
            found[module] = distribution[0]
    return found


def test_every_module_a_release_had_is_listed_under_the_distribution_that_ships_it() -> None:
    from tools.runtimes import read_names

    packages = shipped()
    listed = documented()
    assert set(listed) == set(read_names())
    for module, distribution in listed.items():
        assert packages[module.partition(".")[0]] == distribution, module
    assert set(listed.values()) == set(packages.values())


def test_the_table_is_the_one_the_tool_writes_from_the_ledgers() -> None:
    from tools.runtimes import DOCS, distribution_table, read_names, written_table

    assert written_table(DOCS.read_text(encoding="utf-8")) == distribution_table(read_names(), shipped())
    assert (REPO / "docs" / "engine.md") == DOCS


def _load_block() -> Callable[[bytes], object]:
    """docs/engine.md's ``load``: the block after its marker line, run as the page gives it."""
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    marker = (
        "<!-- pickle of a distribution not installed: tests/engine/test_module_distributions.py runs this block -->"
    )
    block = text.split(marker + "\n```python\n", 1)[1].split("\n```", 1)[0]
    scope: dict[str, Any] = {}
    exec(compile(block, "docs/engine.md", "exec"), scope)
    loaded: Callable[[bytes], object] = scope["load"]
    return loaded


def _not_installed(monkeypatch: pytest.MonkeyPatch, prefix: str) -> None:
    """The modules under ``prefix`` as if their distribution were not installed: ``prefix`` None in
    sys.modules (importing it is ModuleNotFoundError naming it, as for a missing one), its
    submodules left to be imported through it."""
    for name in [n for n in sys.modules if n.startswith(prefix + ".")]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh, through the package that is not there
    monkeypatch.setitem(sys.modules, prefix, None)


@pytest.mark.parametrize(
    ("made", "missing", "needed"),
    [
        (
            lambda: imperial.CARDS[next(iter(imperial.CARDS))],
            "civrules_runtime_imperial_settlers",
            "civrules-runtime-imperial-settlers",
        ),
        (
            lambda: imperial.CardId(next(iter(imperial.CARDS))),
            "civrules_rulesets.imperial_settlers",
            "civrules-rulesets-imperial-settlers",
        ),
        (lambda: smc.PLAYERS, "civrules_runtime", "civrules-runtime"),
    ],
)
def test_the_pages_load_names_the_distribution_a_pickle_needs(
    made: Callable[[], object], missing: str, needed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    load = _load_block()
    data = pickle.dumps(made())
    assert load(data) == made()  # installed: the value
    _not_installed(monkeypatch, missing)
    with pytest.raises(ModuleNotFoundError, match=f"pip install {needed}$") as raised:
        load(data)
    assert raised.value.name is not None and raised.value.name.startswith(missing)  # the module pickle looked for


def test_the_pages_load_leaves_other_missing_modules_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    load = _load_block()
    data = pickle.dumps(Path("a"))
    monkeypatch.setitem(sys.modules, "pathlib", None)
    with pytest.raises(ModuleNotFoundError) as raised:
        load(data)
    assert "pip install" not in str(raised.value)
