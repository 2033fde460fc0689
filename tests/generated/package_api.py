"""The public API of the generated ruleset packages as JSON: every public name of each package and of
its modules, with its type and a structural value.

tests/generated/test_package_api.py holds today's packages to the snapshot committed in
``tests/data/package-api.json`` (recorded before the runtime was split by family, at 53eba5c:
0f58774 with the Mega Civilization data of issue 31; its module names moved into the
``civrules_rulesets`` namespace in issue 27, with every value unchanged; rewritten in issue 32's
round eleven for one private slot of the credit matrix's class, ``_indexes``, its lines indexed per
row, no public name, type or value changed), so a change to how the packages are generated cannot
change what an engine sees. After a deliberate
change to the packages' API, rewrite the snapshot and review its diff::

    .venv/bin/python -m tests.generated.package_api --write

It was recorded from the packages of 53eba5c (before the split)::

    git archive 53eba5c generated/python | tar -x -C /tmp/api-before
    .venv/bin/python -m tests.generated.package_api --write --generated /tmp/api-before/generated/python

A value is recorded by its structure (records by their class and fields, enum members by their
class and value, mappings as pairs in their order), never by where a class is defined: the records
and vocabularies may move from one runtime module to another without changing the API. Values
whose structure is long are recorded by the SHA-256 of it, with its size; the rest in full.
"""

from __future__ import annotations
import __future__

import enum
import hashlib
import importlib
import inspect
import json
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent.parent
GENERATED = REPO / "generated" / "python"
SNAPSHOT = REPO / "tests" / "data" / "package-api.json"
#: The import packages of the rulesets whose API the snapshot holds, and their modules.
PACKAGES = (
    "civrules_rulesets.advanced_civilization",
    "civrules_rulesets.advanced_civilization_western",
    "civrules_rulesets.central_america",
    "civrules_rulesets.expansion_project",
    "civrules_rulesets.mega_civilization",
)
MODULES = ("", ".data", ".helpers", ".ids")
#: The names the shared runtime exported before its split; each must stay importable from it.
RUNTIME = "civrules_runtime"
#: Structures longer than this (in characters of canonical JSON) are recorded by digest.
INLINE_LIMIT = 400


def structure(value: object) -> Any:
    """``value`` as JSON-able data that says what it is, independent of where its class is defined."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, enum.Enum):
        return {"enum": type(value).__qualname__, "name": value.name, "value": structure(value.value)}
    if isinstance(value, int | float | str):
        return value
    if isinstance(value, types.ModuleType):
        return {"module": value.__name__.rpartition(".")[2]}
    if isinstance(value, type):
        return _class(value)
    if isinstance(value, types.FunctionType):
        return {"function": value.__qualname__, "signature": str(inspect.signature(value)), "doc": value.__doc__}
    if isinstance(value, Mapping):
        return {"mapping": type(value).__qualname__, "items": [[structure(k), structure(v)] for k, v in value.items()]}
    if isinstance(value, tuple | list):
        return {type(value).__qualname__: [structure(v) for v in value]}
    if isinstance(value, frozenset | set):
        items = [structure(v) for v in value]
        return {type(value).__qualname__: sorted(items, key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, types.UnionType):  # a type alias such as `Effect`
        return {"union": [structure(member) for member in value.__args__]}
    if typing.get_origin(value) is not None:  # a typing alias such as `CardIdName` (a Union of a Literal)
        return {"alias": repr(typing.get_origin(value)), "args": [structure(a) for a in typing.get_args(value)]}
    if isinstance(value, typing.TypeVar):
        return {"typevar": value.__name__}
    if isinstance(value, __future__._Feature):  # `from __future__ import annotations`
        return {"future": value.compiler_flag}
    slots = getattr(type(value), "__slots__", None)
    if isinstance(slots, tuple) and slots:
        return {"record": type(value).__qualname__, "fields": [[n, structure(getattr(value, n))] for n in slots]}
    raise TypeError(f"no structure for {type(value).__qualname__}: {value!r}")


def _class(cls: type) -> Any:
    described: dict[str, Any] = {"class": cls.__qualname__, "metaclass": type(cls).__qualname__}
    if issubclass(cls, enum.Enum):
        described["members"] = [[m.name, structure(m.value)] for m in cls]
        return described
    # Inherited members count: a class's API does not depend on which of its bases declares a name.
    bases = [k for k in reversed(cls.__mro__) if k.__module__ not in ("builtins", "typing", "abc")]
    own = {k: v for base in bases for k, v in vars(base).items() if not k.startswith("_")}
    annotations = {k: v for base in bases for k, v in vars(base).get("__annotations__", {}).items()}
    described["slots"] = list(getattr(cls, "__slots__", ()))
    described["match_args"] = list(getattr(cls, "__match_args__", ()))
    described["annotations"] = sorted(annotations.items())
    described["attributes"] = sorted(
        (k, str(inspect.signature(v)) if isinstance(v, types.FunctionType) else type(v).__qualname__)
        for k, v in own.items()
        if k not in annotations
    )
    described["init"] = str(inspect.signature(cls)) if any("__init__" in vars(base) for base in bases) else None
    described["doc"] = cls.__doc__
    return described


def _entry(value: object) -> dict[str, Any]:
    data = structure(value)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    entry: dict[str, Any] = {"type": type(value).__qualname__}
    if len(text) > INLINE_LIMIT:
        entry["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        entry["size"] = len(text)
    else:
        entry["value"] = data
    return entry


def public_names(module: types.ModuleType) -> list[str]:
    """The module's ``__all__``, or every name it binds that does not begin with ``_``."""
    listed = getattr(module, "__all__", None)
    if listed is not None:
        return sorted(listed)
    return sorted(name for name in vars(module) if not name.startswith("_"))


def snapshot(generated: Path = GENERATED) -> dict[str, Any]:
    """The API of every package (and the names the runtime exported), read from ``generated``."""
    if str(generated) not in sys.path:
        sys.path.insert(0, str(generated))
    api: dict[str, Any] = {}
    for package in PACKAGES:
        for suffix in MODULES:
            module = importlib.import_module(package + suffix)
            api[package + suffix] = {name: _entry(getattr(module, name)) for name in public_names(module)}
    runtime = importlib.import_module(RUNTIME)
    api[RUNTIME] = {name: _entry(getattr(runtime, name)) for name in sorted(runtime.__all__) if name != "__version__"}
    return api


def render(api: Mapping[str, Any]) -> str:
    return json.dumps(api, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """``--write``: rewrite the snapshot; ``--generated DIR``: read the packages from DIR (an older
    commit's ``generated/python``, extracted with ``git archive``)."""
    generated = Path(argv[argv.index("--generated") + 1]).resolve() if "--generated" in argv else GENERATED
    text = render(snapshot(generated))
    if "--write" in argv:
        SNAPSHOT.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
