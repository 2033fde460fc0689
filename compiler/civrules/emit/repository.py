"""A rule-data repository: what `civrules init` writes and `civrules schemas` exports.

A rule-data repository keeps rule data of its own (a variant of a shipped ruleset, or a base of
its own) outside civrules' checkout: ``rules/`` with one manifest, the schemas its modelines point
at (``schemas/``, exported from the installed civrules), a pre-commit configuration whose hook runs
the installed civrules (no network), a GitHub Actions workflow, a ``.yamllint`` that agrees with
how civrules writes rule data (civrules' own ``rules/`` passes it), a ``.gitattributes`` keeping
line endings as civrules and yamllint compare them, and a README saying what to do next.
Everything is rendered here, in memory; the command line writes it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Collection, Mapping
from pathlib import Path, PurePosixPath

from civrules import __version__
from civrules.diagnostics import Diagnostic
from civrules.diagnostics.escape import printable
from civrules.diagnostics.words import ticked
from civrules.families import Family, families
from civrules.load.reader import scalar_text
from civrules.load.workspace import SHIPPED, Manifest, Workspace
from civrules.support.install import word

#: The folder the schemas are exported to, at the root of the repository (modelines point there).
SCHEMAS = "schemas"

#: yamllint's configuration for rule data: its defaults, less what civrules' own files do on purpose.
YAMLLINT = """\
# yamllint (https://yamllint.readthedocs.io) for rule data, as civrules writes it: yamllint's
# defaults, except what rule files do on purpose. civrules' own rules/ passes this file.
extends: default

rules:
  # A rule file is one document that starts with its modeline comment and `kind:`, not `---`.
  document-start: disable
  # Notes, disagreements and citations are quoted prose on one line each, worded as the sources
  # word them: a line is as long as its sentence.
  line-length: disable
  indentation:
    spaces: 2
    # Both `key:\\n  - item` and `key:\\n- item` are written; each file keeps to one.
    indent-sequences: whatever
    check-multi-line-strings: false
  truthy:
    # GitHub Actions' `on:` is a key, not a boolean; values are still `true` and `false` only.
    check-keys: false
"""


#: The attributes of a new repository's files: a checkout with `core.autocrlf` (git's default on
#: Windows, and on a Windows runner) wrote CRLF, which yamllint's `new-lines` rule refuses, and
#: which `civrules schemas --check` (and `build --check`) called stale in every file (R009).
GITATTRIBUTES = """\
# Line endings for every checkout, a Windows one (git's core.autocrlf) included: rule files and
# the YAML configuration keep LF, as civrules writes them and yamllint's new-lines rule wants them.
*.yaml text eol=lf
*.yml text eol=lf
.yamllint text eol=lf
# The folders civrules writes are compared byte for byte (`civrules schemas --check`, `civrules
# build --check`): git changes nothing in them, and GitHub folds their diffs as generated.
schemas/** -text linguist-generated=true
generated/** -text linguist-generated=true
"""

#: The files `civrules init` writes only where the folder has none: one already there is kept,
#: and what it lacks is said (a repository's root often has a `.gitattributes` of its own).
KEPT_IF_THERE = (".gitattributes",)


def schema_files() -> dict[str, str]:
    """Every schema civrules knows, by the path it is exported to under ``schemas/``
    (``ruleset.schema.json``, ``example-dice/dice.schema.json``): the core's, the shipped
    families' and those of families installed as distributions of their own."""
    from civrules.schema import registered, schema_path

    found: dict[str, str] = {}
    for kind in sorted(registered()):
        found[exported_name(kind)] = schema_path(kind).read_text(encoding="utf-8")
    return found


def exported_name(kind: str) -> str:
    """Where the schema of a qualified kind is exported, relative to ``schemas/``."""
    from civrules.schema import registered

    family, file = registered()[kind]
    if family is not None and family.schemas is not None and not file.startswith(f"{family.id}/"):
        return f"{family.id}/{file}"
    return file


def schema_tree() -> dict[str, bytes]:
    """`civrules schemas --out DIR`: the exported schemas, and a README saying where they come from."""
    tree = {name: text.encode("utf-8") for name, text in schema_files().items()}
    tree["README.md"] = (
        "# Schemas\n\n"
        f"The JSON Schemas (draft 2020-12) of civrules {__version__}, exported by `civrules schemas --out DIR`:\n"
        "each rule file's `# yaml-language-server: $schema=...` modeline points at one of them, for\n"
        "editors and for check-jsonschema. Do not edit them: `civrules schemas --out DIR` writes them\n"
        "again (for a newer civrules), and `civrules schemas --out DIR --check` fails when they differ\n"
        "from the installed civrules' own.\n"
    ).encode()
    return tree


def main_ruleset(workspace: Workspace, family: Family) -> Manifest | None:
    """The shipped ruleset a new repository of ``family`` extends by default: the one named as the
    family is, else the first of its rulesets that extends none."""
    shipped = {k: v for k, v in workspace.shipped_manifests().items() if v.family is family}
    if family.id in shipped:
        return shipped[family.id]
    bases = [k for k, v in sorted(shipped.items()) if not isinstance(v.head.get("extends"), str)]
    return shipped[bases[0]] if bases else None


def family_named(name: str | None) -> Family | None:
    """The family ``name`` (the default family for None), or None when no family has that id."""
    found = families()
    if name is None:
        return next((f for f in found.values() if f.default), None)
    return found.get(name)


_SCAFFOLD = """\
# yaml-language-server: $schema=../../schemas/{schema}
# {name}: a variant of {base}. Everything not changed here is inherited from {base};
# `{command}` shows what this variant changes. The examples below are valid for
# {base}: uncomment them (delete one `# ` per line) and change what differs. A house rule cites
# `source: "house rule: ..."`; a change taken from a rulebook cites its section with `rule:`.
kind: ruleset
id: {id}
name: {name}
extends: {base}
{head}
{changes}"""


class UnreadableBaseError(Exception):
    """The base of a new variant could not be resolved as it was read again: ``diagnostics`` say why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("the base ruleset could not be read")
        self.diagnostics = diagnostics


def variant_manifest(workspace: Workspace, base: Manifest, name: str) -> str:
    """A new variant's manifest (`new-variant`, `init`): the header is the core's, the examples of
    what it may change its family's (the hook ``variant_example``, from the base's own data, so
    that they validate)."""
    from civrules.resolve import Resolver

    family = base.family
    resolved, found = Resolver(workspace).resolve(workspace.load_ruleset(base))
    if resolved is None:  # its files read before, unreadable now (an I/O error): said, not a crash
        raise UnreadableBaseError(found)
    example = family.hook("variant_example")
    if example is not None:
        changes: str = example(resolved)
    else:
        collections = ", ".join(family.collections) or "none"
        changes = (
            f"# Changes to the base: one block per collection ({collections}), entities named by their\n"
            "# key, each with add / replace / patch / remove; and `settings` for everything else.\n"
            "# overlay:\n"
        )
    schema = exported_name(_qualified(family, "ruleset"))
    # A family's example may begin with keys of the manifest's head (`family:`): they go with
    # `extends:` and `status:`, one blank line before the examples, whether the base says a status or not.
    lines = changes.splitlines(keepends=True)
    keys = next((at for at, line in enumerate(lines) if not line.strip() or line.startswith("#")), len(lines))
    head = "".join(lines[:keys]) + _status_line(family, base)
    return _SCAFFOLD.format(
        head=head,
        schema=schema,
        id=scalar_text(name),  # `id: true` would be a boolean: every id is written to read back
        name=json.dumps(title_of(name), ensure_ascii=False),
        base=scalar_text(base.id),
        changes="".join(lines[keys:]).lstrip("\n"),
        command=f"civrules diff {word(base.id)} {word(name)}",
    )


def _status_line(family: Family, base: Manifest) -> str:
    """The scaffold's `status:`, where its base says one: a variant's status is its own (V011 where
    it says none), so the scaffold writes the base's and says what else it may be."""
    said = base.data.get("status")
    if not isinstance(said, str):
        return ""
    from civrules.schema import load_schema

    described = load_schema(_qualified(family, "ruleset")).get("properties", {}).get("status", {})
    allowed = [value for value in described.get("enum", ()) if isinstance(value, str) and value != said]
    others = f" (or {', '.join(f'`{value}`' for value in allowed)})" if allowed else ""
    return (
        f"# A variant's status is its own, never its base's. The base says `{said}`: keep it only if that\n"
        f"# holds for this variant too{others}.\n"
        f"status: {scalar_text(said)}\n"
    )


def _qualified(family: Family, kind: str) -> str:
    from civrules.schema import qualify

    return qualify(family, kind)


def title_of(name: str) -> str:
    """``my-house-rules`` → ``My House Rules``."""
    return " ".join(part.capitalize() for part in name.split("-"))


def new_base(workspace: Workspace, base: Manifest, name: str) -> dict[str, bytes]:
    """A base of its own for ``--new-base``: the family's shipped base copied under the id ``name``
    (its manifest renamed, every data file it names copied as it is, modelines included), so that
    it validates at once and a designer edits its facts throughout."""
    copied: dict[str, bytes] = {}
    manifest_text = workspace.read_bytes(workspace.key_of(base.file.path)).decode("utf-8")
    written_id = f"id: {scalar_text(name)}"  # `id: true` would be a boolean
    written_name = f"name: {json.dumps(title_of(name), ensure_ascii=False)}"
    manifest_text = re.sub(r"(?m)^id: .*$", lambda _match: written_id, manifest_text, count=1)
    manifest_text = re.sub(r"(?m)^name: .*$", lambda _match: written_name, manifest_text, count=1)
    copied[f"rules/rulesets/{name}.yaml"] = manifest_text.encode("utf-8")
    for relative in data_files(base):
        copied[f"rules/{relative}"] = workspace.read_bytes(SHIPPED + relative if base.shipped else relative)
    return copied


def data_files(manifest: Manifest) -> list[str]:
    """The paths (relative to rules/) of the data files a manifest names, and of its rule index."""
    found: list[str] = []
    files = manifest.data.get("files")
    if isinstance(files, Mapping):
        for paths in files.values():
            if isinstance(paths, list):
                found.extend(p for p in paths if isinstance(p, str))
    rulebook = manifest.data.get("rulebook")
    if isinstance(rulebook, Mapping) and isinstance(rulebook.get("rule_index"), str):
        found.append(rulebook["rule_index"])
    return sorted(set(found), key=found.index)


PRE_COMMIT = """\
# pre-commit (https://pre-commit.com) runs civrules before each commit: run `pre-commit install`
# once in this repository. The hook is local: it runs the civrules installed on this machine (on
# the PATH), so it needs no network. Once civrules is published, the remote form pins a release
# instead (https://github.com/OWNER/civrules: the repository civrules comes from):
#
#   repos:
#     - repo: https://github.com/OWNER/civrules
#       rev: v{version}
#       hooks:
#         - id: civrules-validate
#           args: [--strict]     # the hook runs `civrules validate --staged`
repos:
  - repo: local
    hooks:
      - id: civrules-validate
        name: civrules validate
        entry: civrules validate --strict --staged  # --staged: what the commit holds, not untracked files
        language: system
        pass_filenames: false
        always_run: true  # a commit that only deletes a file must be validated too
        require_serial: true
"""

WORKFLOW = """\
# Validates the rule data on every push and pull request: each error and warning becomes an
# annotation on the line it is about. Replace OWNER in the install step by the owner of the
# civrules repository this one uses (or pin another source of civrules {version}).
name: rules

on:
  push:
  pull_request:

permissions:
  contents: read

jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      # Each action is pinned by the commit of its release (a tag can be moved to other code), and
      # the checkout keeps no token in .git/config for the steps after it to read.
      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262  # v4.4.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065  # v5.6.0
        with:
          python-version: "3.12"
      - name: Install civrules and the linters
        run: python -m pip install "civrules @ git+https://github.com/OWNER/civrules@v{version}" yamllint
      - name: civrules validate
        run: civrules validate --format github --strict
      - name: The schemas are the installed civrules' own
        run: civrules schemas --out schemas --check
      - name: yamllint
        run: yamllint --strict .
"""

README = """\
# {title}

Rule data for [civrules](https://github.com/OWNER/civrules) {version}: {what}. Made by
`civrules init{arguments}`.

| path | what it is |
| --- | --- |
| `rules/rulesets/{id}.yaml` | the ruleset manifest: {manifest} |
{data_rows}| `schemas/` | the JSON Schemas the modelines point at (`civrules schemas --out schemas` renews them) |
| `.pre-commit-config.yaml` | validates what each commit holds: `civrules validate --strict --staged` |
| `.github/workflows/rules.yml` | validates every push and pull request, with annotations |
| `.yamllint` | yamllint as civrules writes YAML |
{attributes_row}
## Next

1. Check that the repository works: `civrules validate` (exit 0). Its info Q007 counts the facts
   the sources leave unknown, and its hint is the command that lists each one with its reason.
2. {edit}
3. Open the folder in an editor with a YAML language server (VS Code's YAML extension, Neovim's
   yamlls): the modelines give completion and checks as you type. For civrules' own diagnostics
   while you type, start `civrules lsp` from the editor (civrules' docs/editors.md).
4. {git}
5. In `.github/workflows/rules.yml`, replace `OWNER` by the owner of the civrules repository, so
   that CI installs the same civrules.

`civrules explain CODE` says what a diagnostic means and how to fix it; `civrules list` lists
this repository's rulesets and the ones shipped with civrules that it can extend.
{attributes_kept}"""

#: The README's row of the `.gitattributes` init wrote.
_ATTRIBUTES_WRITTEN = (
    "| `.gitattributes` | line endings: LF in YAML files on every checkout, nothing converted in `schemas/` |\n"
)
#: The README's row of a `.gitattributes` that was there and kept (:data:`KEPT_IF_THERE`), and
#: the section it points at: the row of the file init writes described a file init did not write.
_ATTRIBUTES_KEPT_ROW = '| `.gitattributes` | yours, kept as it was: add to it the lines of "Line endings" below |\n'
_ATTRIBUTES_KEPT = """
## Line endings

`civrules init` found a `.gitattributes` here and kept it as it was. So that every checkout (a
Windows one, with git's `core.autocrlf`) keeps the line endings civrules and yamllint compare, add
to it what it lacks of these lines:

```
{lines}
```
"""


#: Step 4 of the README of a folder made inside another git repository (:func:`enclosing_repository`).
_INSIDE = """\
This folder is {inside} of the git repository at {up}, and GitHub runs only the
   workflows of a repository's root (`.github/workflows/`), pre-commit reads only its root's
   `.pre-commit-config.yaml`: the two written here run nowhere. Move them to the root (into what
   is there, if anything) and have them read this folder: the workflow's job given
   {defaults}, the hook's entry {entry}; then
   `pre-commit install` at the root. Or make this folder a repository of its own: `git init` in
   it, then `pre-commit install`."""


#: How a schemas folder's README names the civrules that wrote it (:func:`schema_tree`'s README).
_SCHEMAS_VERSION = re.compile(r"\bof civrules ([0-9][0-9A-Za-z.+!-]*[0-9A-Za-z]), exported by `civrules schemas")


def schemas_version(out: Path) -> str | None:
    """The civrules version the README of the schemas folder ``out`` names, or None (no README,
    a README not civrules', unreadable). Read as a regular file only: never through a link."""
    try:
        if not stat.S_ISREG(os.lstat(out / "README.md").st_mode):
            return None
        with open(out / "README.md", "rb") as readme:
            head = readme.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    found = _SCHEMAS_VERSION.search(head)
    return found[1] if found else None


def enclosing_repository(directory: Path) -> Path | None:
    """The git repository ``directory`` is a folder of, below its root: the nearest folder above
    it holding a `.git`, when ``directory`` holds none. GitHub runs only the workflows in a
    repository's root `.github/workflows/` and pre-commit reads only the root's
    `.pre-commit-config.yaml`, so the ones `civrules init` writes there would run nowhere."""
    folder = Path(os.path.normpath(Path.cwd() / directory))
    if os.path.lexists(folder / ".git"):
        return None
    return next((above for above in folder.parents if os.path.lexists(above / ".git")), None)


def _git_step(inside: str | None) -> str:
    """Step 4 of the README: the hook installed, or, for a folder ``inside`` (its path from the
    root) of another repository, what the workflow and the hook need to run at all."""
    if inside is None:
        return "`git init && pre-commit install`: each commit is validated first."
    up = "/".join([".."] * len(PurePosixPath(inside).parts))
    return _INSIDE.format(
        inside=ticked(printable(inside)),
        up=ticked(up),
        defaults=ticked(f"defaults: {{run: {{working-directory: {json.dumps(inside)}}}}}"),
        entry=ticked(printable(f"civrules --rules {word(inside + '/rules')} validate --strict --staged")),
    )


def readme(
    manifest_id: str,
    base: Manifest,
    *,
    new_base_files: list[str] | None,
    arguments: str,
    inside: str | None = None,
    kept: Collection[str] = (),
) -> str:
    """The README of a new repository: what is in it, and what to do next; ``inside``: the
    folder's path from the root of the git repository it is made in (:func:`enclosing_repository`);
    ``kept``: the files of :data:`KEPT_IF_THERE` that were there and are kept, not written."""
    if new_base_files is None:
        what = f"`{manifest_id}`, a variant of `{base.id}` (shipped with civrules, read from it, not copied)"
        manifest = f"it extends `{base.id}` and changes nothing yet; its comments show what a change looks like"
        edit = (
            f"Edit `rules/rulesets/{manifest_id}.yaml`: uncomment an example, change it, and run "
            f"`civrules validate`; `civrules diff {word(base.id)} {word(manifest_id)}` shows what the variant changes."
        )
        rows = ""
    else:
        what = f"`{manifest_id}`, a base ruleset of its own, started from a copy of `{base.id}`"
        manifest = f"a copy of `{base.id}`'s, under its own id"
        edit = (
            "Edit the facts throughout: every fact cites its source (`rule:` or `source:`), and a fact no "
            "source gives is `{unknown: why}`, never a guess."
        )
        rows = "".join(f"| `rules/{path}` | copied from `{base.id}` |\n" for path in new_base_files)
    return README.format(
        title=title_of(manifest_id),
        version=__version__,
        what=what,
        arguments=arguments,
        id=manifest_id,
        manifest=manifest,
        data_rows=rows,
        edit=edit,
        git=_git_step(inside),
        attributes_row=_ATTRIBUTES_KEPT_ROW if ".gitattributes" in kept else _ATTRIBUTES_WRITTEN,
        attributes_kept=_ATTRIBUTES_KEPT.format(lines=gitattributes_lines()) if ".gitattributes" in kept else "",
    )


def gitattributes_lines() -> str:
    """The lines of :data:`GITATTRIBUTES` without its comments: what a kept `.gitattributes` needs."""
    return "\n".join(line for line in GITATTRIBUTES.splitlines() if line and not line.startswith("#"))


def repository_files(
    workspace: Workspace,
    base: Manifest,
    name: str,
    *,
    new: bool,
    arguments: str,
    inside: str | None = None,
    kept: Collection[str] = (),
) -> dict[str, bytes]:
    """Every file `civrules init` writes but the schemas, by path relative to the repository
    (``inside``: its path from the root of the git repository it is made in, if any; ``kept``: the
    files of :data:`KEPT_IF_THERE` that are there, left out)."""
    tree: dict[str, bytes] = {}
    if new:
        copied = new_base(workspace, base, name)
        tree.update(copied)
        data = [PurePosixPath(p).relative_to("rules").as_posix() for p in copied if not p.startswith("rules/rulesets/")]
    else:
        tree[f"rules/rulesets/{name}.yaml"] = variant_manifest(workspace, base, name).encode("utf-8")
        data = None
    tree[".pre-commit-config.yaml"] = PRE_COMMIT.format(version=__version__).encode("utf-8")
    tree[".github/workflows/rules.yml"] = WORKFLOW.format(version=__version__).encode("utf-8")
    tree[".yamllint"] = YAMLLINT.encode("utf-8")
    tree[".gitattributes"] = GITATTRIBUTES.encode("utf-8")
    tree["README.md"] = readme(name, base, new_base_files=data, arguments=arguments, inside=inside, kept=kept).encode(
        "utf-8"
    )
    return {relative: content for relative, content in tree.items() if relative not in kept}
