"""The names that left this runtime when it was split by family, and where they live now.

Until the runtime was split, ``civrules_runtime`` held the records, vocabularies, rule logic and
protocol of the Advanced Civilization family; they live in that family's runtime,
``civrules_runtime_advanced_civilization`` (distribution ``civrules-runtime-advanced-civilization``).
For now they stay importable from here, loaded from there on first use, so an engine or an
installed package written against the old layout keeps working; import them from the family's
runtime instead.
"""

import importlib
from collections.abc import Collection

#: The family runtime the moved names live in now.
FAMILY_RUNTIME = "civrules_runtime_advanced_civilization"
FAMILY_DISTRIBUTION = "civrules-runtime-advanced-civilization"


def attribute(module: str, name: str, submodule: str, retired: "Collection[str]" = ()) -> object:
    """``name`` of ``FAMILY_RUNTIME.<submodule>`` (of the package itself for ``""``), for ``module``'s
    ``__getattr__``; ``retired``: the names a release of ``module`` had (``errors.absent``)."""
    if name.startswith("_"):  # import machinery and tools probe dunders: never import for them
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    try:
        target = importlib.import_module(f"{FAMILY_RUNTIME}.{submodule}" if submodule else FAMILY_RUNTIME)
    except ModuleNotFoundError as error:
        if error.name != FAMILY_RUNTIME:
            raise
        raise AttributeError(
            f"module {module!r} has no attribute {name!r}: the names of the Advanced Civilization family "
            f"moved to {FAMILY_RUNTIME} (pip install {FAMILY_DISTRIBUTION})"
        ) from None
    try:
        return getattr(target, name)
    except (AttributeError, ImportError):  # the family runtime's own refusal names the family's module
        from .errors import absent  # a class this version has nowhere: a pickle of another version's names it

        raise absent(module, name, retired) from None
