"""A runtime's names imported on first use come from one helper of the shared runtime,
``civrules_runtime.lazy.lazy_names`` (runtime 2.19): each family runtime's ``__init__`` had its own
copy of the same ``__getattr__`` and ``__dir__`` (round 34's ``duplicates``). What those copies did
is held by tests/engine/test_runtime_reads.py (bound at the first read, refused at each, forgotten
at a reload, listed by ``dir``); these hold the helper itself, and that no family runtime writes a copy
of it again."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest

from tests.conftest import REPO

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_runtime.lazy import lazy_names  # noqa: E402 - the committed runtime

SOURCES = REPO / "compiler" / "civrules" / "families"


@pytest.mark.parametrize("init", sorted(SOURCES.glob("*/runtime/__init__.py")), ids=lambda path: path.parts[-3])
def test_no_family_runtime_writes_its_own_module_getattr_or_dir(init: Path) -> None:
    tree = ast.parse(init.read_text(encoding="utf-8"))
    own = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__")
    ]
    assert not own, f"{init}: use civrules_runtime.lazy.lazy_names"


def _module(name: str = "lazy_fixture") -> types.ModuleType:
    module = types.ModuleType(name)
    module.__package__ = "json"  # relative names resolve in a package of the standard library
    sys.modules[name] = module
    return module


def test_lazy_names_imports_a_name_at_its_first_read_and_binds_it() -> None:
    module = _module()
    try:
        getattr_, dir_ = lazy_names(vars(module), {"dumps": ".encoder", "JSONDecoder": "json.decoder"})
        vars(module).update(__getattr__=getattr_, __dir__=dir_)
        assert "dumps" not in vars(module)
        import json.decoder

        assert module.JSONDecoder is json.decoder.JSONDecoder
        assert vars(module)["JSONDecoder"] is json.decoder.JSONDecoder  # bound: no call next time
        with pytest.raises(AttributeError):  # json.encoder has no dumps: its module's refusal
            module.dumps  # noqa: B018
        assert "dumps" not in vars(module)
        with pytest.raises(AttributeError) as refused:
            module.missing  # noqa: B018
        assert (refused.value.name, refused.value.obj) == ("missing", module)
    finally:
        del sys.modules["lazy_fixture"]


def test_lazy_names_lists_its_names_and_the_modules_all_and_forgets_bound_names_when_made_again() -> None:
    module = _module()
    try:
        namespace = vars(module)
        namespace["__all__"] = ["JSONDecoder", "extra"]
        getattr_, dir_ = lazy_names(namespace, {"JSONDecoder": "json.decoder"})
        namespace.update(__getattr__=getattr_, __dir__=dir_)
        assert {"JSONDecoder", "extra", "__all__"} <= set(dir(module))
        assert module.JSONDecoder is not None
        lazy_names(namespace, {"JSONDecoder": "json.decoder"})  # as importlib.reload runs the module again
        assert "JSONDecoder" not in namespace
    finally:
        del sys.modules["lazy_fixture"]
