"""Player aids of the Sid Meier's Civilization family: one module per sheet (each registers itself
with ``@sheet``), their tables built by :mod:`.tables` and laid out by ``templates/sheets/``."""

from __future__ import annotations

import jinja2

from civrules.emit.sheets.common import environment as common_environment


def environment() -> jinja2.Environment:
    """The family's sheets environment (its templates, then the core's)."""
    return common_environment(__name__.rpartition(".")[0])
