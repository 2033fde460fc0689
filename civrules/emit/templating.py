"""The jinja2 environments of the emitters: one per template folder, configured in one place."""

from __future__ import annotations

import functools

import jinja2


@functools.cache
def template_environment(folder: str, *, autoescape: bool) -> jinja2.Environment:
    """The environment for ``civrules/emit/templates/<folder>``.

    Undefined names are errors (a typo in a template must not print nothing), whitespace control
    is on, and escaping is on for markup (sheets) and off for Python source (whose emitter writes
    every data value as a literal itself).
    """
    return jinja2.Environment(
        loader=jinja2.PackageLoader("civrules.emit", f"templates/{folder}"),
        autoescape=autoescape,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
