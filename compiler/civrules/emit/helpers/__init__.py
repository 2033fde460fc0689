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
import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from civrules.families import family_named
from civrules.model import Ruleset, Unknown

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


def text(value: object) -> str:
    """``value`` as HTML text (``<``, ``>``, ``&`` and quotes escaped)."""
    return html.escape(str(value), quote=True)


def attr(value: object) -> str:
    """``value`` as a double-quoted attribute value (quotes escaped as well)."""
    return '"' + html.escape(str(value), quote=True) + '"'


def plain(value: Any) -> Any:
    """Model values as JSON: an unknown fact becomes ``{"unknown": why}``, tuples lists."""
    if isinstance(value, Unknown):
        return {"unknown": value.reason}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
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


def static(name: str, package: str = __name__) -> str:
    """A static file shipped in ``package`` (the evaluator, the page script, a family's script)."""
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


def render_helper(model: Ruleset, fingerprint: str) -> bytes:
    """The helper page of ``model``: its family's helper in the shell, or a page that says there is none."""
    family = family_named(model.family)
    hook = family.hook("helpers") if family is not None else None
    page: HelperPage | None = hook(model) if hook is not None else None
    return page_html(model, fingerprint, page).encode("utf-8")


def page_html(model: Ruleset, fingerprint: str, page: HelperPage | None) -> str:
    """The whole page: the shell around ``page`` (None: this family has no helper yet)."""
    style = static("page.css") + (page.style if page is not None else "")
    scripts: list[str] = []
    data = ""
    body = (
        '<main><section class="tool"><p>civrules has no interactive helper for this game family yet; '
        "the printable sheets are in <code>generated/sheets/</code>.</p></section></main>"
    )
    nav = ""
    if page is not None:
        scripts = [static("evaluator.js"), static("page.js"), page.script]
        data = (
            '<script type="application/json" id="civrules-tables">'
            + embed_json(page.tables)
            + "</script>\n"
            + '<script type="application/json" id="civrules-rules">'
            + embed_json({name: {"params": list(rule.params), "body": rule.body} for name, rule in page.rules.items()})
            + "</script>\n"
        )
        body = "<main>" + page.body + "</main>"
        if page.tools:
            links = "".join(f"<a href={attr('#' + anchor)} data-jump>{text(title)}</a>" for anchor, title in page.tools)
            nav = f'<nav class="tools" aria-label="Tools">{links}</nav>'
    draft = getattr(model, "status", None) == "draft"
    header = (
        '<header class="ruleset">'
        f"<h1>{text(model.name)} — player helper</h1>"
        f"<p>Ruleset <code>{text(model.id)}</code>"
        + (f", a variant of <code>{text(model.extends)}</code>" if model.extends else "")
        + f"; fingerprint <code>{text(fingerprint)}</code>.</p>"
        + (
            '<p class="unknown">This ruleset is a draft: some facts are not in the sources. A figure that '
            "depends on one is marked “unknown” with the reason.</p>"
            if draft
            else ""
        )
        + "<p>Generated by civrules from the rule files; edit those, not this page. Works offline.</p>"
        "</header>"
    )
    script_tags = "".join(f"<script>{s}</script>\n" for s in scripts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content={attr(content_security_policy(scripts, [style]))}>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{text(model.name)} — player helper</title>\n"
        f"<style>{style}</style>\n</head>\n<body>\n"
        + header
        + nav
        + body
        + "\n"
        + data
        + script_tags
        + "</body>\n</html>\n"
    )
