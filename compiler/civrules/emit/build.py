"""Building ``generated/`` from the rulesets: render every file into a staging tree (or in memory),
then swap atomically.

Every ruleset without errors is built; one with errors is reported and keeps its previous output
(the command then exits 1). ``--check`` renders the same tree and compares it with the one on
disk, writing nothing.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from civrules.diagnostics import Diagnostic, codes
from civrules.diagnostics.words import ticked
from civrules.emit import versions
from civrules.emit.export import export_ruleset, fingerprint
from civrules.emit.helpers import FOLDER as HELPERS
from civrules.emit.helpers.render import render_helper
from civrules.emit.output import (
    DEFAULT_MAX_BYTES,
    MARKER,
    StagedTree,
    StaleReport,
    check_replaceable,
    marker_text,
    scan_tree,
    stale_files,
    write_tree,
)
from civrules.emit.packaging import (
    RUNTIME,
    PackageRefusedError,
    distribution_name,
    family_runtime_package,
    import_name,
    normalized_distribution,
    package_folder,
)
from civrules.emit.pyfmt import Declarations
from civrules.emit.pyproject import runtime_verdict, verify_pyproject
from civrules.emit.runtimes import PackageFiles, render_core_runtime
from civrules.emit.sheets import each_sheet
from civrules.families import family_named
from civrules.load.document import Document
from civrules.load.workspace import LoadedRuleset, Workspace, shipped_for
from civrules.pipeline import Shared, analyse, compare, derived_facts
from civrules.resolve import Resolved, Resolver
from civrules.resolve.diff import RulesetDiff
from civrules.support.allocator import trim
from civrules.support.tracked import Read, sharing


@dataclass(slots=True)
class BuildResult:
    #: Every output file by path relative to ``generated/``: in memory, or a StagedTree already on disk.
    tree: MutableMapping[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The rulesets that have errors: nothing of theirs is rendered, their previous output is kept.
    failed_ids: list[str] = field(default_factory=list)
    #: The folders of the runtimes rendered (under python/): the shared one and each family's.
    runtimes: list[str] = field(default_factory=list)
    #: A line for each package whose version moved, saying why (civrules.emit.versions).
    versions: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.failed_ids)

    def prefixes(self, ruleset_ids: Sequence[str]) -> list[str]:
        runtimes = [f"python/{folder}/" for folder in self.runtimes] if ruleset_ids else []
        return runtimes + [
            p for r in ruleset_ids for p in (f"python/{package_folder(r)}/", f"sheets/{r}/", f"{HELPERS}/{r}.html")
        ]


@dataclass(frozen=True, slots=True)
class Swapped:
    """What a build put in place of ``out`` (:func:`build`): ``dropped``, the files of the old tree
    not carried over, with why; ``written``, the SHA-256 of each file of the new tree, by relative
    path, from the bytes civrules wrote (never read back: a change made in the tree just after the
    swap is not civrules'); ``carried``, those of them carried over from the old tree, not rendered."""

    dropped: dict[str, str] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    carried: frozenset[str] = frozenset()


def render(
    workspace: Workspace,
    rulesets: Sequence[LoadedRuleset],
    *,
    debug: bool = False,
    out: Path | None = None,
    tree: MutableMapping[str, bytes] | None = None,
    let_go: bool = False,
    baseline: Path | None = None,
    committed: Mapping[str, bytes | None] | None = None,
    baseline_copy: Callable[[str], bytes | None] | None = None,
) -> BuildResult:
    """Every output file of the given rulesets, by path relative to ``generated/``.

    Each package's version is decided against the API manifest the previous build wrote in ``out``
    (None: as if there were none; see :mod:`civrules.emit.versions`), or in ``baseline`` (the
    project's ``generated/``, for a build into another folder) where that is of a higher version;
    a manifest of ``committed`` (by path under ``out``: `build --check --staged` in a commit of
    some paths) is read as it holds it, not from disk, and one of ``baseline`` as ``baseline_copy``
    gives it (the commit's copy) where it is given. Each file is put into
    ``tree`` (a :class:`~civrules.emit.output.StagedTree` writes it at once) as it is made; by
    default a dict. What a ruleset's files are made from (its model, its export) is let go before
    the next ruleset is analysed.

    ``let_go`` (a process that ends with the build, ``civrules build``): once a ruleset is checked,
    what only its checks needed is let go before its files are rendered: the positions of each
    document no later ruleset of the run reads (through its own files or its ``extends`` chain),
    the checks' walks of them, and the family's own (its ``checked`` hook: a family's map
    graphs); the ruleset's unknown facts (a few paths, which its package lists) once its files are
    made. Nothing is located in those documents again; a long-lived session (``watch``)
    keeps them for its next round. The allocator's free pages are handed back between a ruleset's
    stages (:func:`civrules.support.allocator.trim`), so that one stage's peak does not stack on
    the holes the last one left.
    """
    from civrules.checks.unknowns import forget_unknown_facts

    result = BuildResult(tree=tree if tree is not None else {})
    packages: dict[str, str] = {}
    #: Each package's files that its version is written into, held until it is decided (small).
    held: dict[str, bytes] = {}
    #: What each package's modules declare as its family's emitter wrote them, by folder and module
    #: (pyfmt.Declarations: a few KB each, no module's source).
    known: dict[str, Mapping[str, Declarations]] = {}
    runtimes: dict[str, Callable[[], dict[str, bytes]] | None] = {}
    # One resolver for the run: a variant reuses its base's resolution (for its analysis and for the
    # changes its sheets mark) instead of resolving its whole `extends` chain again.
    resolver = Resolver(workspace)
    bases = Resolver.bases(rulesets)
    extended = Resolver.still_extended(bases)
    last_read = _last_read(workspace, rulesets) if let_go else {}
    shared = Shared(len(rulesets))
    # Each sheet's last context and what it read: a variant that keeps what a sheet shows reuses it.
    sheets_kept: dict[str, tuple[list[Read], Any]] | None = {} if len(rulesets) > 1 else None
    # And each family's tables of its data module, where it writes them through tracked.shared().
    tables_kept: dict[str, tuple[list[Read], Any]] | None = {} if len(rulesets) > 1 else None
    for index, loaded in enumerate(rulesets):
        if let_go:
            forget_unknown_facts()  # the last ruleset's, kept until its files were made (see _checked)
        resolver.retain(next(extended))
        with shared.ruleset():
            analysis = analyse(workspace, loaded, debug=debug, resolver=resolver)
        result.diagnostics.extend(analysis.diagnostics)
        built = analysis.ok and analysis.model is not None
        # What a variant's sheets mark as changed is found while the positions are held (it tells
        # the sections an entry cites by where they are written).
        changes = (
            variant_changes(workspace, loaded, analysis.resolved, resolver) if built and analysis.resolved else None
        )
        if let_go:
            _checked(loaded, analysis.model, last_read.pop(index, []))
            trim()
        if not built or analysis.model is None or analysis.resolved is None:
            result.failed_ids.append(loaded.id)
            continue
        exported = export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))
        stamp = fingerprint(exported)
        family = family_named(analysis.model.family)
        package = family.hook("package") if family is not None else None
        if family is not None and package is not None:
            runtimes.setdefault(family.id, family.hook("runtime"))
            try:
                with sharing(tables_kept):
                    files = package(analysis.model, exported)
            except PackageRefusedError as refused:  # it would not import: nothing of the ruleset is written
                hint = (
                    "correct the id in your rules (or add what it names), and please report that no check "
                    "caught it, with the output of --debug; nothing was written"
                )
                result.diagnostics.append(_internal_error(loaded.id, str(refused), hint))
                result.failed_ids.append(loaded.id)
                continue
            del exported  # the package was its last reader: 7 MB at 50x, let go before the sheets
            problem = _package_problem(loaded.id, family.id, files)
            if problem is not None:
                result.diagnostics.append(_internal_error(loaded.id, problem))
                result.failed_ids.append(loaded.id)
                continue
            folder = package_folder(loaded.id)
            if isinstance(files, PackageFiles) and files.declared is not None:
                known[folder] = files.declared
            for relative, content in files.items():
                path = f"python/{relative}"
                if versions.versioned(path, folder):
                    held[path] = content  # written once its version is in it (settle)
                else:
                    result.tree[path] = content
            del files
            if let_go:
                trim()
            packages[import_name(loaded.id)] = folder
        else:
            del exported
        for relative, content in each_sheet(analysis.model, stamp, changes=changes, kept=sheets_kept):
            result.tree[f"sheets/{loaded.id}/{relative}"] = content
            del content  # each sheet written as it is made (into the staging tree, for a build)
        if let_go:
            trim()
        result.tree[f"{HELPERS}/{loaded.id}.html"] = render_helper(analysis.model, stamp)
        del analysis, changes
        if let_go:
            trim()
    if let_go:
        forget_unknown_facts()
    result.versions = versions.settle(
        result.tree,
        packages,
        out,
        DEFAULT_MAX_BYTES,
        held,
        baseline,
        known,
        committed=committed,
        baseline_copy=baseline_copy,
    )
    del held
    if let_go:
        trim()
    if runtimes:  # the runtimes the packages built import: the shared one, rendered by the core, and each family's
        result.tree.update({f"python/{relative}": content for relative, content in render_core_runtime().items()})
        result.runtimes.append(RUNTIME)
    for family_id, runtime in sorted(runtimes.items()):
        if runtime is not None:
            result.tree.update({f"python/{relative}": content for relative, content in runtime().items()})
            result.runtimes.append(family_runtime_package(family_id))
    for path in list(result.tree):
        if path.startswith("python/") and path.endswith("/pyproject.toml") and path.count("/") == 2:
            problem = runtime_verdict(result.tree[path])  # a runtime's (a ruleset's were verified above)
            if problem is not None:
                raise RuntimeError(f"the metadata of {path} does not parse back: {problem}")
    return result


def _documents_read(workspace: Workspace, loaded: LoadedRuleset) -> Iterator[Document]:
    """The documents a ruleset's analysis may locate something in: its manifest and files, and
    those of every ruleset of its ``extends`` chain (read through the workspace, which reads each
    file once)."""
    seen: set[str] = set()
    current: LoadedRuleset | None = loaded
    while current is not None and current.id not in seen:
        seen.add(current.id)
        if current.manifest.file.document is not None:
            yield current.manifest.file.document
        for files in current.files.values():
            yield from (one.document for one in files if one.document is not None)
        base = Resolver.bases([current])[0]
        manifest = workspace.manifest(base) if base is not None else None
        current = workspace.load_ruleset(manifest) if manifest is not None else None


def _last_read(workspace: Workspace, rulesets: Sequence[LoadedRuleset]) -> dict[int, list[Document]]:
    """The documents the run reads, by the index of the last ruleset that reads them."""
    last: dict[int, tuple[int, Document]] = {}
    for index, loaded in enumerate(rulesets):
        for document in _documents_read(workspace, loaded):
            last[id(document)] = (index, document)
    found: dict[int, list[Document]] = {}
    for index, document in last.values():
        found.setdefault(index, []).append(document)
    return found


def _checked(loaded: LoadedRuleset, model: object | None, documents: Sequence[Document]) -> None:
    """What a ruleset's checks needed, let go once they have run (see :func:`render`'s ``let_go``):
    ``documents`` are those no later ruleset of the run reads. Not the ruleset's unknown facts:
    its package lists them, and found again they were each document walked a second time (the
    walks let go here), in every ``civrules build``."""
    from civrules.checks.citations import forget
    from civrules.checks.unknowns import unknown_facts
    from civrules.model import Ruleset

    if isinstance(model, Ruleset):
        unknown_facts(model)  # found from the walks before they go (Q006 reads them a document at a time)
    for document in documents:
        document.forget_positions()
    forget(documents)
    hook = loaded.family.hook("checked")
    if hook is not None and model is not None:
        hook(model)


def _package_problem(ruleset_id: str, family_id: str, files: dict[str, bytes]) -> str | None:
    """What is wrong with a family's rendering of a ruleset's package, if anything: a file outside
    the package's folder (a family writes that package and nothing else, never a name of its
    choosing), a ``pyproject.toml`` that does not parse back as TOML and validate as metadata, or
    one that names another distribution than the ruleset's (``civrules-rulesets-<id>``: any other
    name may be a project installing it would uninstall)."""
    folder = f"{package_folder(ruleset_id)}/"
    for relative, content in sorted(files.items()):
        if not relative.startswith(folder) or any(part in ("", ".", "..") for part in relative.split("/")):
            return f"the {family_id} family's package hook wrote {ticked(relative)}, outside `{folder}`"
        if relative == f"{folder}pyproject.toml":
            problem = verify_pyproject(content)
            if problem is not None:
                return f"the package metadata written for `{ruleset_id}` ({relative}): {problem}"
            project = tomllib.loads(content.decode("utf-8")).get("project")
            named = project.get("name") if isinstance(project, dict) else None
            if not isinstance(named, str) or normalized_distribution(named) != distribution_name(ruleset_id):
                return (
                    f"the {family_id} family's package hook named the distribution of `{ruleset_id}` "
                    f"{f'`{named}`' if isinstance(named, str) else 'nothing'}, not `{distribution_name(ruleset_id)}`"
                )
    return None


def _internal_error(ruleset_id: str, problem: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(
        codes.INTERNAL_ERROR.code,
        codes.INTERNAL_ERROR.severity,
        f"ruleset `{ruleset_id}` was not built: {problem}",
        None,
        hint
        or "this is a bug in civrules (or in the family's plugin), not in your rules: please report it "
        "with the output of --debug; nothing was written",
        subjects=(ruleset_id,),
    )


def variant_changes(
    workspace: Workspace, loaded: LoadedRuleset, resolved: Resolved, resolver: Resolver | None = None
) -> RulesetDiff | None:
    """`civrules diff BASE VARIANT`, for a variant's sheets (which mark what it changes); ``resolver``
    may be the one that resolved the variant (its base is then not resolved again)."""
    base_id = resolved.data.get("extends")
    base_manifest = workspace.manifest(base_id) if isinstance(base_id, str) else None
    if base_manifest is None:
        return None
    base, _ = (resolver or Resolver(workspace)).resolve(workspace.load_ruleset(base_manifest))
    # Each as built (pipeline.compare): a base that this run had not built listed its own derived
    # deck total as the variant's change.
    return compare(base, resolved) if base is not None else None


def protected_folders(rules: Path) -> tuple[Path, ...]:
    """The folders no output may replace or be written into, for the rules folder ``rules``: it,
    and the shipped rulesets it reads (read-only)."""
    shipped = shipped_for(rules)
    return (rules,) if shipped is None else (rules, shipped)


def project_generated(rules: Path) -> Path:
    """The project's ``generated/`` (beside its rules folder ``rules``): the versions a build into
    another folder (``build --out DIR``) moves its packages' versions from."""
    return rules.parent / "generated"


def build_rulesets(
    rules: Path,
    out: Path,
    workspace: Workspace,
    rulesets: Sequence[LoadedRuleset],
    *,
    everything: bool,
    debug: bool = False,
    rendered: Callable[[BuildResult], None] | None = None,
) -> tuple[BuildResult, Swapped]:
    """What ``civrules --rules RULES build`` does once it has read its options, loaded its
    ``rulesets`` (from ``workspace``, of the rules folder ``rules``) and found its stamp stale
    (:mod:`civrules.emit.stamp`: its check before and its record after are the command's own):
    render every file of the rulesets into a staging tree beside ``out``, each written (and its
    sync started) as it is made, then swap it in (:func:`build`), the rules folder and the shipped
    rulesets protected (:func:`protected_folders`), each package's version moved from ``out`` or
    the project's ``generated/`` (:func:`project_generated`). ``everything``: no ruleset was named,
    the whole of ``out`` is replaced. ``rendered`` is called with the result once every file is
    made and before the tree is swapped in (the command says its notes and diagnostics there).

    The benchmark's in-process ``validate`` + ``build`` (bench/run.py) calls this very function,
    so that what it measures is what the command does. Returns the result and what was swapped in
    (see :func:`build`); nothing is, and none is said, when no ruleset built.
    Raises :class:`~civrules.emit.output.OutputError` when ``out`` may not be replaced or the file
    system fails; the staging tree is then gone."""
    staged = StagedTree(out, "build")
    try:
        # A process that ends with the build: what only the checks needed is let go (let_go).
        result = render(
            workspace, rulesets, debug=debug, out=out, tree=staged, let_go=True, baseline=project_generated(rules)
        )
        if rendered is not None:
            rendered(result)
        ids = [one.id for one in rulesets]
        if len(ids) == len(result.failed_ids):
            return result, Swapped()
        return result, build(out, result, ids, everything, protected=protected_folders(rules))
    finally:
        staged.discard()


def build(
    out: Path,
    result: BuildResult,
    ruleset_ids: Sequence[str],
    everything: bool,
    *,
    protected: Sequence[Path],
) -> Swapped:
    """Write the rendered tree: the whole of ``out`` when building every ruleset, else only theirs.

    ``protected`` (the rules folder) is required: no caller may forget that ``out`` must neither be
    it, nor hold it, nor lie inside it. A partial build carries the other rulesets' files over;
    what in ``out`` is not a regular file within the size bound (a link, a FIFO) is not carried,
    and is said with the reason in what is returned (:class:`Swapped`).
    Raises :class:`~civrules.emit.output.OutputError` when ``out`` may not be replaced.
    """
    keep: dict[str, bytes] = {}
    dropped: dict[str, str] = {}
    failed_ids = set(result.failed_ids)
    built = [r for r in ruleset_ids if r not in failed_ids]
    if not everything or result.failed_ids:
        # Only the rulesets that built replace their part: a broken one keeps its previous output.
        # Refuse a folder civrules may not replace before reading anything in it.
        check_replaceable(out, protected, kind="build")
        prefixes = tuple(result.prefixes(built))
        failed = tuple(result.prefixes(result.failed_ids))

        def carried(relative: str) -> bool:
            return not relative.startswith(prefixes) and (not everything or relative.startswith(failed))

        # Only the files carried over are read: those the build replaces were read for nothing
        # (the whole old tree, in every `civrules build RULESET`).
        scan = scan_tree(out, wanted=carried)
        keep = {k: v for k, v in scan.files.items() if carried(k)}
        dropped = scan.foreign
    # (before the write: a staged tree takes the files carried over in)
    copied = frozenset(relative for relative in keep if relative not in result.tree and relative != MARKER)
    written = write_tree(out, result.tree, keep, protected=protected, kind="build")
    return Swapped(dropped, written, copied)


def check(
    out: Path,
    result: BuildResult,
    ruleset_ids: Sequence[str],
    everything: bool,
    committed: Mapping[str, bytes | None] | None = None,
) -> StaleReport:
    """What differs between ``out`` and what a build would write, file by file (nothing when up to date).

    Links, FIFOs and devices in ``out`` are named, never read; a file is read no further than what
    would be written in its place. A ruleset that did not build is not compared. The files of
    ``committed`` (by path under ``out``) are compared as it holds them, not as they are on disk
    (:func:`civrules.emit.output.stale_files`).
    """
    tree = {**result.tree, MARKER: marker_text("build")}
    failed_ids = set(result.failed_ids)
    built = [r for r in ruleset_ids if r not in failed_ids]
    scope = None if everything and not result.failed_ids else iter(result.prefixes(built))
    return StaleReport(stale_files(out, tree, scope, committed))
