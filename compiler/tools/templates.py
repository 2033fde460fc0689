"""Generating the compiled templates shipped in ``civrules/_generated/templates/``.

The package loads them (:mod:`civrules.emit.templating`) and never imports this module. Regenerate
after changing a template (`make templates`; tests/test_templates.py fails until then)::

    cd compiler && python -m tools.templates          # rewrite civrules/_generated/templates/
    cd compiler && python -m tools.templates --check  # exit 1 if a shipped module differs
"""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2

from civrules.emit.templating import _HEADER, FOLDERS, TARGET, module_name, source_digest


def _environments() -> dict[str, jinja2.Environment]:
    """Each folder's environment with the filters its emitters add (compiling checks filter names)."""
    from civrules.emit.sheets import common
    from civrules.families.advanced_civilization import package as python
    from civrules.families.advanced_civilization.sheets import svgmap

    sheets = common.environment()
    svgmap.environment()
    return {"python": python.environment(), "sheets": sheets}


def render_module(folder: str, name: str) -> str:
    """The source of the shipped module of the template ``folder/name``."""
    environment = _environments()[folder]
    assert environment.loader is not None
    source, filename, _ = environment.loader.get_source(environment, name)
    # defer_init: the code finds `environment` among the module's globals when it runs, not when it is imported.
    code = environment.compile(source, name, filename, raw=True, defer_init=True)
    header = _HEADER.format(folder=folder, name=name, version=jinja2.__version__, digest=source_digest(folder, source))
    return header + code.strip() + "\n"


def _expected() -> dict[Path, str]:
    modules = {
        TARGET / "__init__.py": '"""Compiled templates, generated ahead of time (see compiler/tools/templates.py)."""\n'
    }
    for folder in FOLDERS:
        environment = _environments()[folder]
        modules[TARGET / folder / "__init__.py"] = f'"""The compiled templates of templates/{folder}."""\n'
        for name in environment.list_templates():
            modules[TARGET / folder / f"{module_name(name)}.py"] = render_module(folder, name)
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
