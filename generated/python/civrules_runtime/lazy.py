"""Names a module imports on first use: the ``__getattr__`` and ``__dir__`` of a runtime's package.

A runtime's ``__init__`` re-exports names of its submodules (the records, the protocol) that cost
import time an engine needing only the errors or the vocabularies should not pay: :func:`lazy_names`
makes the module functions that import each on its first read. Each family runtime's ``__init__``
had its own copy of them::

    __getattr__, __dir__ = lazy_names(globals(), {"Record": ".records", "Base": ".protocol"})

Where a name lives is a module name, relative to the package (``.records``) or absolute.
"""

import importlib
from collections.abc import Callable, Mapping, MutableMapping

TYPE_CHECKING = False


def lazy_names(
    namespace: MutableMapping[str, object], sources: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__`` (``namespace``: its ``globals()``), for the names
    of ``sources``, each by the module it is read from.

    ``__getattr__`` imports a name's module at its first read and binds the name in ``namespace``,
    so a later read is a plain global lookup that never calls it again; threads reading a name
    first all get the one object. A name ``sources`` lacks is refused at each read with Python's
    AttributeError (its ``name`` and ``obj`` set, so a traceback suggests the closest name).
    ``__dir__`` lists the module's names, those not read yet among them, so ``dir()``,
    ``inspect.getmembers`` and ``mock.create_autospec`` see them.

    Made again (``importlib.reload`` runs the module's code again in the same globals), it forgets
    the names reads bound: they are read again from their modules.
    """
    module = str(namespace["__name__"])
    anchor = str(namespace.get("__package__") or module)
    table = dict(sources)
    for name in table:
        namespace.pop(name, None)

    def __getattr__(name: str) -> object:  # noqa: N807 - the module function Python calls
        source = table.get(name)
        if source is None:
            import sys

            raise AttributeError(f"module {module!r} has no attribute {name!r}", name=name, obj=sys.modules.get(module))
        found = getattr(importlib.import_module(source, anchor), name)
        return namespace.setdefault(name, found)

    def __dir__() -> list[str]:  # noqa: N807 - likewise
        listed = namespace.get("__all__", ())
        return sorted({*namespace, *table, *(listed if isinstance(listed, list | tuple) else ())})

    __getattr__.__qualname__ = __getattr__.__name__
    __dir__.__qualname__ = __dir__.__name__
    __getattr__.__module__ = __dir__.__module__ = module
    return __getattr__, __dir__


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset()

if not TYPE_CHECKING:  # hidden from type checkers: a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        from .errors import absent

        raise absent(__name__, name, _RETIRED)
