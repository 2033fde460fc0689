"""One ruleset through the pipeline: load → (resolve) → validate → model → check.

Semantic checks run only on rulesets whose files all passed schema validation: checking a model
built from malformed data would bury the real error under its consequences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from civrules.assemble import build_ruleset
from civrules.checks import run_checks
from civrules.diagnostics import Diagnostic, has_errors
from civrules.model import Ruleset
from civrules.resolve import Resolved, Resolver
from civrules.workspace import LoadedRuleset, Workspace


@dataclass(slots=True)
class Analysis:
    """What the pipeline learnt about one ruleset."""

    loaded: LoadedRuleset
    model: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    resolved: Resolved | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None and not has_errors(self.diagnostics)


def analyse(
    workspace: Workspace,
    loaded: LoadedRuleset,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    *,
    debug: bool = False,
) -> Analysis:
    """Validate one loaded ruleset and, when its files are well-formed, run the semantic checks."""
    diagnostics = loaded.all_diagnostics()
    if has_errors(diagnostics):
        return Analysis(loaded, None, diagnostics)
    resolved, problems = Resolver(workspace).resolve(loaded)
    diagnostics.extend(problems)
    if resolved is None or has_errors(problems):
        return Analysis(loaded, None, diagnostics)
    model = build_ruleset(resolved)
    diagnostics.extend(run_checks(model, select, ignore, debug=debug))
    diagnostics = suppress(diagnostics, workspace)
    return Analysis(loaded, model, diagnostics, resolved)


# `# civrules: ignore[M003,M004] reason` on the offending line, or `# civrules: ignore-file[M003] reason`
# anywhere in the file. A reason is required so that a suppression documents itself.
_SUPPRESSION = re.compile(r"#\s*civrules:\s*(ignore|ignore-file)\[([A-Z0-9, ]+)\]\s*(\S.*)?$")


def suppress(diagnostics: Iterable[Diagnostic], workspace: Workspace) -> list[Diagnostic]:
    """Drop diagnostics silenced by a suppression comment in the file they point at.

    Load and schema errors cannot be silenced: they mean the file was not read as written.
    """
    tables: dict[str, tuple[dict[int, set[str]], set[str]]] = {}
    kept = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        if span is None or diagnostic.code.startswith(("L", "S")):
            kept.append(diagnostic)
            continue
        if span.file not in tables:
            tables[span.file] = _suppressions(workspace.source_lines(span.file))
        by_line, whole_file = tables[span.file]
        if diagnostic.code in whole_file or diagnostic.code in by_line.get(span.line, ()):
            continue
        kept.append(diagnostic)
    return kept


def _suppressions(lines: Sequence[str]) -> tuple[dict[int, set[str]], set[str]]:
    by_line: dict[int, set[str]] = {}
    whole_file: set[str] = set()
    for number, text in enumerate(lines, start=1):
        if "civrules:" not in text:
            continue
        match = _SUPPRESSION.search(text)
        if match is None or not match.group(3):
            continue
        listed = {c.strip() for c in match.group(2).split(",") if c.strip()}
        if match.group(1) == "ignore-file":
            whole_file |= listed
        else:
            by_line.setdefault(number, set()).update(listed)
    return by_line, whole_file
