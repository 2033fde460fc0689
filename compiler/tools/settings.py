"""Generating each shipped family runtime's ``settings`` module: the typed records of SETTINGS.

The records follow the family's schemas (:mod:`civrules.emit.settings_types`); they are written
into the family's runtime sources (``civrules/families/<family>/runtime/settings.py``), which are
type-checked and formatted with the rest of civrules and copied into the runtime distribution.

Regenerate after changing a schema's settings (tests/generated/test_settings_records.py fails until then)::

    cd compiler && python -m tools.settings          # rewrite the runtimes' settings.py
    cd compiler && python -m tools.settings --check  # exit 1 if one differs
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from civrules.emit.settings_types import render_module
from civrules.families import Family, families
from tools import write_or_check


def shipped_families() -> list[Family]:
    """The families whose rooms are civrules' own (a family from a distribution writes its own)."""
    return sorted((f for f in families().values() if f.package.startswith("civrules.families.")), key=lambda f: f.id)


def target(family: Family) -> Path:
    """Where the family's ``settings`` module is written."""
    module = importlib.import_module(family.package)
    return Path(str(module.__file__)).resolve().parent / "runtime" / "settings.py"


def rendered() -> dict[Path, str]:
    """Every shipped family's ``settings`` module, by where it is written, each with the names a
    release of it had that it lacks (the ledger of released names, tools/runtime_names.json)."""
    from civrules.emit.packaging import family_runtime_package
    from tools.runtimes import NAMES, module_names, read_names

    released = read_names() if NAMES.exists() else {}
    found: dict[Path, str] = {}
    for family in shipped_families():
        text = render_module(family, bounded=True)
        module = f"{family_runtime_package(family.id)}.settings"
        has = set(module_names({module.replace(".", "/") + ".py": text.encode()})[module])
        found[target(family)] = render_module(
            family, bounded=True, retired=[name for name in released.get(module, ()) if name not in has]
        )
    return found


def main(argv: list[str]) -> int:
    return write_or_check(rendered(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
