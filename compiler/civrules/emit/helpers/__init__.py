"""Interactive player helpers: one self-contained HTML page per ruleset (``helpers/<ruleset>.html``).

The page is built from the model like every output, and carries everything it needs: the ruleset's
facts as tables and its rules as expression trees, both JSON in ``<script type="application/json">``
blocks, read by one small generic evaluator (``evaluator.js``, shipped with civrules, with no game
in it) and the family's page script, which only wires the form to named rules. Nothing is fetched:
a Content-Security-Policy in a ``<meta>`` tag forbids every source but the page's own script and
style, allowed by their sha256 hashes, so the page works opened from disk and reaches no network.

What the page shows is its family's (a ``helpers`` hook, :class:`HelperPage`); the core adds the
shell: the ruleset's id, name, base and fingerprint, the draft warning, the escaping, the CSP and
the state kept in the URL fragment (``page.js``). A family without a helper still gets a page that
says so. Output is a pure function of the model: keys sorted, nothing from the clock.

Examples
--------
>>> embed_json({"name": "</script><b>"})
'{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from civrules.model import Unknown

#: The folder of ``generated/`` the pages go to.
FOLDER = "helpers"


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule the page evaluates: its parameters and its body, an expression tree (JSON)."""

    params: tuple[str, ...]
    body: Any


@dataclass(frozen=True, slots=True)
class HelperPage:
    """What a family's helper puts in the page shell.

    ``body`` is HTML the family built with :func:`text` and :func:`attr` for every value from the
    data; ``tables`` the facts and ``rules`` the rules, embedded as JSON; ``script`` and ``style``
    the family's own page script and CSS (static files of its room, with no game in them).
    """

    body: str
    tables: Mapping[str, Any]
    rules: Mapping[str, Rule]
    script: str
    style: str = ""
    #: The tools of the page (anchor id, title), for the page's navigation.
    tools: Sequence[tuple[str, str]] = field(default_factory=tuple)
    #: Whether the ruleset is a draft (`status: draft`): the page says its unknown facts are marked.
    draft: bool = False


def text(value: object) -> str:
    """``value`` as HTML text (``<``, ``>``, ``&`` and quotes escaped)."""
    return html.escape(str(value), quote=True)


def attr(value: object) -> str:
    """``value`` as a double-quoted attribute value (quotes escaped as well)."""
    return '"' + html.escape(str(value), quote=True) + '"'


#: The values JSON writes as they are: returned at once (most of a large table's cells are these).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """Model values as JSON: an unknown fact becomes ``{"unknown": why}``, tuples lists."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    # The plain containers by their exact type first, their scalars taken as they are: the tables
    # are mostly dicts and lists of scalars, and the ABC check of Mapping was most of the walk.
    if kind is dict:
        return {str(k): v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if isinstance(value, Unknown):
        return {"unknown": value.reason}
    if isinstance(value, Mapping):
        return {str(k): v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [plain(v) for v in value]
        return sorted(items, key=json.dumps) if isinstance(value, (set, frozenset)) else items
    return value


def embed_json(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script type="application/json">`` block.

    ``<`` ``>`` and ``&`` are written as ``\\u003c`` ``\\u003e`` ``\\u0026`` (no ``</script>`` nor
    ``<!--`` can end or change the block), U+2028 and U+2029 as escapes (older script parsers end a
    line there); the JSON reads back the same. Keys are sorted: the output is deterministic.
    """
    out = json.dumps(plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        out = out.replace(char, escaped)
    return out


@functools.lru_cache(maxsize=32)
def static(name: str, package: str = __name__) -> str:
    """A static file shipped in ``package`` (the evaluator, the page script, a family's script), read
    once per process: it is civrules' own, the same at every build of a language server or ``watch``
    session, which read it again for each helper page."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def sha256(content: str) -> str:
    """The CSP source of an inline script or style: ``'sha256-…'`` of its exact text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(scripts: Sequence[str], styles: Sequence[str]) -> str:
    """Nothing but these inline scripts and styles: no network, no other script, font or image."""
    return "; ".join(
        (
            "default-src 'none'",
            "script-src " + " ".join(sha256(s) for s in scripts),
            "style-src " + " ".join(sha256(s) for s in styles),
            "img-src 'none'",
            "font-src 'none'",
            "connect-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        )
    )
