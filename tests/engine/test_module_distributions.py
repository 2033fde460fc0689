"""docs/engine.md names the distribution of every runtime module a pickle may name: a pickle loaded
where that module's runtime is not installed at all is pickle's own "No module named ...", which no
code of civrules can word (the runtime that would is the one missing), so the page answers it.

The table is written from the ledgers (``cd compiler && python -m tools.runtimes``); these tests hold
it to them: every module any release had, under the distribution that ships it.
"""

from __future__ import annotations

import re
import tomllib

from tests.conftest import REPO


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
