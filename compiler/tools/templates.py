"""Generating the compiled templates shipped in ``civrules/_generated/templates/``.

The package loads them (:mod:`civrules.emit.templating`) and never imports this module. Regenerate
after changing a template (`make templates`; tests/generated/test_templates.py fails until then)::

    cd compiler && python -m tools.templates          # rewrite civrules/_generated/templates/
    cd compiler && python -m tools.templates --check  # exit 1 if a shipped module differs

The code of each owner's templates goes to its own folder, ``<owner>/<folder>/`` (``core``, or the
last part of a family's package), generated in the environment that loads them: the core's
templates in the core's, a family's in the family's (with the filters its emitters add).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2

from civrules.emit.templating import (
    _HEADER,
    CORE,
    TARGET,
    _ShippedLoader,
    module_name,
    own_loaders,
    source_digest,
)


def environments() -> dict[tuple[str, str], jinja2.Environment]:
    """The environment of each owner's folder, ``(owner, folder)``, with the filters its emitters add
    (compiling checks filter names): every registered family's, from its ``package`` hook's module
    (``environment()``, Python) and the sheets' environment of its package, with the filters any
    module of its sheets packages adds (an ``environment()`` of its own)."""
    import importlib
    import pkgutil

    from civrules.emit.sheets import common
    from civrules.families import families

    found = {(CORE, "sheets"): common.environment()}
    for family in families().values():
        by_folder = {"sheets": common.environment(family.package)}
        hook = family.hooks.get("package")
        emitter = importlib.import_module(hook.partition(":")[0]) if hook else None
        if emitter is not None and hasattr(emitter, "environment"):
            by_folder["python"] = emitter.environment()
        for package in family.sheets:
            for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
                module = importlib.import_module(f"{package}.{info.name}")
                if callable(getattr(module, "environment", None)):
                    module.environment()  # adds its filters to the family's (cached) sheets environment
        for folder, environment in by_folder.items():
            for loader in own_loaders(environment):
                if loader.key != CORE:
                    found[(loader.key, folder)] = environment
    return found


def _loader(environment: jinja2.Environment, key: str) -> _ShippedLoader:
    (loader,) = [each for each in own_loaders(environment) if each.key == key]
    return loader


def shipped() -> list[tuple[str, str, str]]:
    """Every ``(owner, folder, template)`` whose code is shipped."""
    return sorted(
        (key, folder, name)
        for (key, folder), environment in environments().items()
        for name in _loader(environment, key).list_templates()
    )


def render_module(key: str, folder: str, name: str) -> str:
    """The source of the shipped module of the template ``key/folder/name``."""
    environment = environments()[(key, folder)]
    source, filename, _ = _loader(environment, key).get_source(environment, name)
    # defer_init: the code finds `environment` among the module's globals when it runs, not when it is imported.
    code = environment.compile(source, name, filename, raw=True, defer_init=True)
    header = _HEADER.format(
        owner=key, folder=folder, name=name, version=jinja2.__version__, digest=source_digest(folder, source)
    )
    return header + code.strip() + "\n"


def _expected() -> dict[Path, str]:
    modules = {
        TARGET / "__init__.py": '"""Compiled templates, generated ahead of time (see compiler/tools/templates.py)."""\n'
    }
    for key, folder in environments():
        modules[TARGET / key / "__init__.py"] = f'"""The compiled templates of `{key}`."""\n'
        modules[TARGET / key / folder / "__init__.py"] = (
            f'"""The compiled templates of `{key}`: templates/{folder}."""\n'
        )
    for key, folder, name in shipped():
        modules[TARGET / key / folder / f"{module_name(name)}.py"] = render_module(key, folder, name)
    return modules


def main(argv: list[str]) -> int:
    check = "--check" in argv
    expected = _expected()
    stale = [path for path, source in expected.items() if not path.is_file() or path.read_text("utf-8") != source]
    extra = sorted(p for p in TARGET.rglob("*.py") if p not in expected) if TARGET.is_dir() else []
    if not check:
        for path in stale:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(expected[path], encoding="utf-8")
        for path in extra:
            path.unlink()
    verb = "differs from what compiler/tools/templates.py generates" if check else "regenerated"
    for path in stale:
        print(f"{path}: {verb}", file=sys.stderr)
    for path in extra:
        print(f"{path}: {'not generated' if check else 'removed'}", file=sys.stderr)
    return 1 if check and (stale or extra) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
