"""The compiled templates shipped in civrules/_generated/templates/ are exactly what
compiler/tools/templates.py generates from today's templates; one that no longer matches its template is not used."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import jinja2
import pytest

from civrules.emit import templating
from civrules.emit.sheets import common
from tools import templates as generator

SHIPPED = generator.shipped()


def _shipped_version(key: str, folder: str, name: str) -> str:
    module = importlib.import_module(f"civrules._generated.templates.{key}.{folder}.{templating.module_name(name)}")
    return Path(module.__file__ or "").read_text(encoding="utf-8").split("by jinja2 ", 1)[1].split(";", 1)[0]


@pytest.mark.parametrize(("key", "folder", "name"), SHIPPED, ids=[f"{k}/{f}/{n}" for k, f, n in SHIPPED])
def test_each_template_is_rendered_from_its_shipped_code(key: str, folder: str, name: str) -> None:
    version = _shipped_version(key, folder, name)
    if version != jinja2.__version__:
        pytest.skip(f"shipped code is from jinja2 {version}, {jinja2.__version__} is installed")
    assert generator.render_module(key, folder, name) == (
        templating.TARGET / key / folder / f"{templating.module_name(name)}.py"
    ).read_text(encoding="utf-8"), "run `make templates` (cd compiler && python -m tools.templates)"
    template = generator.environments()[(key, folder)].get_template(name)
    assert template.filename is not None and Path(template.filename).parent == templating.TARGET / key / folder


def test_each_family_finds_its_own_templates_first_then_the_cores() -> None:
    """A family's `cards.html.j2` is its own; the page every sheet extends is the core's."""
    from civrules.families import families

    keys = {key for key, _, _ in SHIPPED}
    assert templating.CORE in keys
    for family in families().values():
        key = templating.owner_key(family.package)
        if key not in keys:
            continue  # a family whose sheets are all the core's (it has no templates of its own)
        assert key != templating.CORE
        environment = common.environment(family.package)
        loaders = templating.own_loaders(environment)
        assert [loader.key for loader in loaders] == [key, templating.CORE]
        own = set(loaders[0].list_templates())
        core = set(loaders[1].list_templates())
        assert "_base.html.j2" in core and "_base.html.j2" not in own
        for name in own | core:
            assert environment.get_template(name).name == name


def test_the_shipped_modules_are_all_and_only_the_templates() -> None:
    assert generator.main(["--check"]) == 0, "run `make templates` (cd compiler && python -m tools.templates)"


def test_a_template_edited_without_regenerating_is_compiled_from_its_source() -> None:
    """A template changed since its code was generated: its source answers, never the stale code."""
    environment = templating.template_environment("sheets", autoescape=True)
    assert environment.loader is not None
    source, _, _ = environment.loader.get_source(environment, "index.html.j2")
    assert (
        templating._shipped("core", "sheets", "index.html.j2", templating.source_digest("sheets", source)) is not None
    )
    edited = source.replace("{% endblock %}", "<p>edited</p>{% endblock %}", 1)
    assert edited != source
    assert templating._shipped("core", "sheets", "index.html.j2", templating.source_digest("sheets", edited)) is None


def test_another_environment_compiles_from_source() -> None:
    """The shipped code serves the environment it was generated for (its options, its filters):
    another one over the same folder compiles the templates itself."""
    other = jinja2.Environment(loader=templating._ShippedLoader("sheets"), autoescape=True)
    other.filters.update(common.environment().filters)
    template = other.get_template("index.html.j2")
    assert template.filename is not None and template.filename.endswith("index.html.j2")


#: Each family's macros that a sheet calls only with a mark or a citation to show (``{{ changed(x)
#: if x else "" }}``: a macro call is a few µs, and most rows have neither), by its sheets' package.
_GUARDED_MACROS = {
    "civrules.families.advanced_civilization": ("_macros.j2", ("changed", "rule")),
    "civrules.families.imperial_settlers": ("_is_macros.j2", ("changed", "rule")),
    "civrules.families.sid_meiers_civilization": ("_tables.j2", ("changed",)),
}


@pytest.mark.parametrize("family", sorted(_GUARDED_MACROS))
def test_a_mark_or_citation_macro_writes_nothing_for_nothing(family: str) -> None:
    """The sheets skip the call of these macros where the argument is empty (no mark, no
    citation): that writes what the call wrote only while the macro writes nothing for it. And
    no sheet template calls one of them unguarded."""
    env = common.environment(family)
    macros, names = _GUARDED_MACROS[family]
    for name in names:
        template = env.from_string(f'{{% from "{macros}" import {name} %}}[{{{{ {name}(x) }}}}]')
        for empty in ("", None, ()):
            assert template.render(x=empty) == "[]", (family, name, empty)
        assert template.render(x="added") != "[]"
    folder = Path(importlib.import_module(family).__file__ or "").parent / "templates" / "sheets"
    for path in sorted(folder.glob("*.j2")):
        for name in names:
            for call in re.findall(r"\{\{ " + name + r"\(([^)]*)\)([^}]*)\}\}", path.read_text(encoding="utf-8")):
                assert call[1] == f' if {call[0]} else "" ', (path.name, name, call)
