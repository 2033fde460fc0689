"""The version of each ruleset package: semantic versioning of its public API, decided by ``build``.

A package's public API is what its ``__all__`` names, each with its type (a table's annotation, a
helper's signature, an id enum and its ids). ``build`` compares the API of the package it renders
with the API manifest the previous build left beside it (``api.json`` in the package's folder,
committed with ``generated/``) and moves the version the manifest records:

- a name or an id removed (a renamed id is one removed and one added), a type or signature changed:
  the next **major** version;
- a name or an id added, a constant's type narrowed to one of its subtypes that the API knows
  (:data:`NARROWINGS`: SETTINGS from ``Mapping[str, object]`` to a family runtime's typed
  ``settings`` record, itself a ``Mapping[str, object]``), or a helper given new parameters that
  every call written before leaves out (:func:`_widened`: each after the old ones, each with a
  default): the next **minor** version;
- the same API, other files (values: costs, texts, citations): the next **patch** version;
- nothing changed: the same version, so a rebuild of the same rules (a fresh clone's
  ``build --check`` included) writes the same files.

The previous manifest is the one in the output folder, or, where the build writes elsewhere
(``build --out DIR``), the project's own ``generated/`` (``baseline``): of the two, the one of the
higher version, so a build into a fresh folder versions each package from the version the project
publishes (1.2.4 and the same API: 1.2.4), not from nothing. A package without a manifest in
either (the first build of a ruleset) is 1.0.0. A
family's package is versioned when it is written with ``civrules.emit.runtimes.package_files``
(which renders :data:`UNVERSIONED` where the version goes); another has no version and no manifest.
Each move is said in one line (``BuildResult.versions``, printed by ``build`` on stderr).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from civrules.emit.pyfmt import Declarations
from civrules.support.files import RefusedError, read_under
from civrules.support.stored import json_document

#: The version a package is rendered with until ``build`` decides it (valid PEP 440, never shipped).
UNVERSIONED = "0.0.0.dev0+unversioned"
#: The API manifest's name, in the package's folder.
MANIFEST = "api.json"
#: The version of a package that has no manifest yet.
FIRST = "1.0.0"
#: A version a build writes: three numbers in ASCII digits, none with a leading zero (``str.isdigit``
#: takes ``²`` and ``١``, which ``int`` refuses or reads otherwise), none longer than a build could
#: count to (``int`` converts no more than 4,300 digits).
_VERSION = re.compile(r"(?:0|[1-9][0-9]{0,17})(?:\.(?:0|[1-9][0-9]{0,17})){2}")
#: How many changes a version line names before it says how many more there are.
SHOWN = 4
#: The modules whose definitions make up the API (``__init__`` re-exports the others' names).
MODULES = ("__init__.py", "data.py", "helpers.py", "ids.py")


#: The changes of a constant's type that only narrow it, by its type before: a read-only
#: constant of the narrower type is still one of the old (code written against the old type works
#: unchanged). The ``settings`` records of the family runtimes are all ``SettingsRecord``s, which
#: are ``Mapping[str, object]`` with the keys and values SETTINGS had as a FrozenMap.
NARROWINGS: Mapping[str, re.Pattern[str]] = {
    "Final[Mapping[str, object]]": re.compile(r"Final\[settings\.[A-Za-z_][A-Za-z0-9_]*\]"),
}


@dataclass(frozen=True, slots=True)
class Api:
    """A package's public API: each public name's type, each id enum's ids, a digest of its files."""

    names: Mapping[str, str]
    ids: Mapping[str, tuple[str, ...]]
    digest: str


@dataclass(frozen=True, slots=True)
class Decision:
    version: str
    #: "first", "major", "minor", "patch" or "none".
    bump: str
    changes: tuple[str, ...]


def package_api(files: Mapping[str, bytes], folder: str, known: Mapping[str, Declarations] | None = None) -> Api:
    """The API of the package whose files (by path relative to ``generated/python/``) lie in ``folder``:
    the names and ids its modules declare, its digest from its files' bytes. A module that ``known``
    says the declarations of (by its name: what its emitter wrote, :class:`~civrules.emit.pyfmt.Declarations`),
    of that very length, is not parsed but for its head: each statement after it declares what its
    target as written says (:func:`_written`); every other module is parsed."""
    # Each file is read once (from disk, for a staged tree), hashed, and its declarations taken.
    trees: dict[str, ast.Module] = {}
    written: dict[str, Sequence[tuple[str, str | None]]] = {}
    digest = hashlib.sha256()
    for path in sorted(files):
        if not path.startswith(f"{folder}/") or path == f"{folder}/{MANIFEST}":
            continue
        content = files[path]
        digest.update(f"{path}\0{len(content)}\0".encode())
        digest.update(content)
        name = path.removeprefix(f"{folder}/")
        if name in MODULES:
            given = (known or {}).get(name)
            if given is not None and given.size == len(content):
                trees[name] = _declarations(content[: given.head])
                written[name] = given.targets
            else:
                trees[name] = _declarations(content)
        del content
    public = _public_names(trees.get("__init__.py"))
    found: dict[str, str] = {}
    ids: dict[str, tuple[str, ...]] = {}
    for module in ("__init__.py", "ids.py", "helpers.py", "data.py"):
        tree = trees.get(module)
        if tree is None:
            continue
        definitions = [d for node in tree.body for d in _definitions(node, ids)]
        definitions += [d for target, value in written.get(module, ()) for d in _written(target, value)]
        for name, kind in definitions:
            if name in public and (name not in found or found[name].startswith("from ")):
                found[name] = kind
    return Api(
        names={name: found.get(name, "?") for name in sorted(public)},
        ids={name: members for name, members in sorted(ids.items()) if name in public},
        digest=digest.hexdigest(),
    )


def _written(target: str, value: str | None) -> list[tuple[str, str]]:
    """What the statement ``target = value`` declares, read from the strings it was written from as
    :func:`_definitions` reads its syntax tree: ``NAME: ANNOTATION`` declares NAME of the annotation
    as written (a bare ``Final`` of a constant, the constant's type: ``value``, its text, is parsed
    alone); a target without an annotation declares nothing."""
    name, colon, annotation = target.partition(":")
    if not colon or not name.isidentifier():
        return []
    annotation = annotation.strip()
    if annotation == "Final" and value is not None:
        try:
            constant = ast.parse(value.strip(), mode="eval").body
        except SyntaxError:
            constant = None
        if isinstance(constant, ast.Constant):
            annotation = f"Final[{type(constant.value).__name__}]"
    return [(name, annotation)]


#: A top-level statement's first line: it starts at column 0 and does not close a bracket or
#: continue a compound statement (whose parts would not parse alone, and so are parsed with it).
#: Matched from the newline before it, which the engine finds by a fast scan for one byte (``^`` in
#: MULTILINE mode is tried at every position: 3 ms of a 400 KB data.py).
_STATEMENT = re.compile(rb"\n(?=[^\s)\]}#])")
#: An annotated assignment's first line: the name, its annotation, and the value that follows.
_ANNOTATED = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*): (.+?) = ")
#: A function's first line up to the end of its signature (``def NAME(ARGS) -> RETURNS:``, on one
#: or more lines, perhaps with a comment after it): what the API reads of it. A match that is not
#: the signature's end (a ``):`` ending a line inside a default's brackets or string) does not
#: parse as one function with an ``...`` body ending where it should, and the module is then read
#: otherwise (:func:`_declarations_together`).
_SIGNATURE = re.compile(rb"def [A-Za-z_][A-Za-z0-9_]*\(.*?\)(?: -> [^\n]*?)?:(?:  #[^\n]*)?\n", re.DOTALL)
#: How many pieces a statement that does not parse alone is parsed with before the whole module is.
_MERGED = 64


def _declarations(source: bytes) -> ast.Module:
    """The module's top-level statements as far as the API reads them: each parsed alone, and an
    annotated assignment without its value where its type is its annotation (the tables of
    ``data.py`` are most of its bytes and none of its API: parsing them was half of a build's CPU
    time when a build renders many packages). A piece that does not parse alone (split inside a
    docstring, a bracket or a compound statement) is parsed with the pieces after it; past
    :data:`_MERGED` of them the whole module is parsed at once, as before. Generated modules put
    one statement on a line (no ``;``), which the shortcut relies on.

    The pieces are parsed together, in one call, with each table's value left out (124 parses of
    one statement each were most of a package's versioning: 8 of the largest shipped ruleset's 12 ms); only
    when that does not parse (a piece split inside a docstring, say) is each piece parsed alone."""
    starts = [0, *(match.end() for match in _STATEMENT.finditer(source))]
    ends = [*starts[1:], len(source)]
    together = _declarations_together(source, starts, ends)
    if together is not None:
        return together
    body: list[ast.stmt] = []
    index = 0
    while index < len(starts):
        # Matched in place: a table's piece is most of the module (a slice would copy it).
        head = _ANNOTATED.match(source, starts[index], ends[index])
        if head is not None and head.group(2) != b"Final":
            try:
                declared = ast.parse(head.group(1) + b": " + head.group(2)).body
            except SyntaxError:
                declared = []
            if len(declared) == 1 and isinstance(declared[0], ast.AnnAssign):
                body.extend(declared)
                index += 1
                continue
        for merged in range(index, min(index + _MERGED, len(starts))):
            try:
                body.extend(ast.parse(source[starts[index] : ends[merged]]).body)
            except SyntaxError:
                continue
            index = merged + 1
            break
        else:
            return ast.parse(source)
    return ast.Module(body=body, type_ignores=[])


def _declarations_together(source: bytes, starts: list[int], ends: list[int]) -> ast.Module | None:
    """:func:`_declarations` in one parse: each annotated table ``NAME: TYPE = value`` becomes
    ``NAME: TYPE``, each function its signature with ``...`` for its body (a helpers module's bodies
    and docstrings were half of its parse, and the API reads none of them), every other piece is
    kept as written. None when that does not parse, a table's declaration did not come out as the
    one annotated name it stands for, or a function as one function of that body (the pieces are
    then parsed one by one)."""
    parts: list[bytes] = []
    declared: list[int] = []
    #: Each function cut to its signature: its piece's index and the signature's lines.
    signatures: list[tuple[int, int]] = []
    for start, end in zip(starts, ends, strict=True):
        head = _ANNOTATED.match(source, start, end)
        signature = _SIGNATURE.match(source, start, end) if head is None else None
        if head is not None and head.group(2) != b"Final":
            declared.append(len(parts))
            parts.append(head.group(1) + b": " + head.group(2) + b"\n")
        elif signature is not None and signature.end() < end:
            signatures.append((len(parts), signature.group().count(b"\n")))
            parts.append(signature.group() + b"    ...\n")
        else:
            parts.append(source[start:end])
    text = b"".join(parts)
    try:
        module = ast.parse(text)
    except SyntaxError:
        return None
    # Each table's line must be one annotated name of its own: a line counts from the piece's first.
    lines = [0]
    for part in parts[:-1]:
        lines.append(lines[-1] + part.count(b"\n"))
    by_line = {statement.lineno - 1: statement for statement in module.body}
    for index in declared:
        statement = by_line.get(lines[index])
        if (
            not isinstance(statement, ast.AnnAssign)
            or statement.value is not None
            or statement.end_lineno != lines[index] + 1
        ):
            return None
    for index, count in signatures:
        function = by_line.get(lines[index])
        if (
            not isinstance(function, ast.FunctionDef)
            or function.end_lineno != lines[index] + count + 1
            or len(function.body) != 1
            or not isinstance(function.body[0], ast.Expr)
            or not isinstance(function.body[0].value, ast.Constant)
            or function.body[0].value.value is not Ellipsis
        ):
            return None
    return module


def _public_names(tree: ast.Module | None) -> set[str]:
    for node in tree.body if tree is not None else ():
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            value = ast.literal_eval(node.value)
            return {str(name) for name in value} | {"__version__"}
    return {"__version__"}


def _definitions(node: ast.stmt, ids: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """The names ``node`` defines at module level, each with its type as the API manifest records it."""
    if isinstance(node, ast.If):  # TYPE_CHECKING imports
        return [d for child in node.body for d in _definitions(child, ids)]
    if isinstance(node, ast.ImportFrom) and node.level == 0:
        return [(alias.asname or alias.name, f"from {node.module}") for alias in node.names]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        annotation = ast.unparse(node.annotation)
        if annotation == "Final" and isinstance(node.value, ast.Constant):  # the type is the value's
            annotation = f"Final[{type(node.value.value).__name__}]"
        return [(node.target.id, annotation)]
    if isinstance(node, ast.FunctionDef):
        returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
        return [(node.name, f"def ({ast.unparse(node.args)}){returns}")]
    if isinstance(node, ast.ClassDef):
        members = [
            target.id
            for statement in node.body
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
            for target in statement.targets
            if isinstance(target, ast.Name)
        ]
        values = [
            str(statement.value.value)
            for statement in node.body
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
        ]
        ids[node.name] = tuple(f"{m}={v}" for m, v in zip(members, values, strict=True))
        return [(node.name, f"class({', '.join(ast.unparse(base) for base in node.bases)})")]
    return []


def decide(previous: Mapping[str, object] | None, api: Api) -> Decision:
    """The version of a package of API ``api`` whose previous manifest is ``previous`` (None: none)."""
    version = previous.get("version") if previous is not None else None
    if previous is None or not isinstance(version, str) or not _is_version(version):
        return Decision(FIRST, "first", ())
    old_names = _str_map(previous.get("names"))
    old_ids = {k: tuple(v) for k, v in _list_map(previous.get("ids")).items()}
    major: list[str] = []
    minor: list[str] = []
    for name in sorted(set(old_names) | set(api.names)):
        if name not in api.names:
            major.append(f"removed {name}")
        elif name not in old_names:
            minor.append(f"added {name}")
        elif old_names[name] != api.names[name]:
            narrower = NARROWINGS.get(old_names[name])
            if narrower is not None and narrower.fullmatch(api.names[name]):
                minor.append(f"narrowed the type of {name} from `{old_names[name]}` to `{api.names[name]}`")
            elif _widened(old_names[name], api.names[name]):
                minor.append(f"widened {name} from `{old_names[name]}` to `{api.names[name]}`")
            else:
                major.append(f"changed the type of {name} from `{old_names[name]}` to `{api.names[name]}`")
    for enum in sorted(set(old_ids) & set(api.ids)):
        before, after = set(old_ids[enum]), set(api.ids[enum])
        major.extend(f"removed {enum}.{member.partition('=')[0]}" for member in sorted(before - after))
        minor.extend(f"added {enum}.{member.partition('=')[0]}" for member in sorted(after - before))
    a, b, c = (int(part) for part in version.split("."))
    if major:
        return Decision(f"{a + 1}.0.0", "major", tuple(major + minor))
    if minor:
        return Decision(f"{a}.{b + 1}.0", "minor", tuple(minor))
    if previous.get("digest") != api.digest:
        return Decision(f"{a}.{b}.{c + 1}", "patch", ("the same API, other values",))
    return Decision(version, "none", ())


def _widened(before: str, after: str) -> bool:
    """Whether the helper signature ``after`` (as :func:`_definitions` records it: ``def (ARGS) ->
    RETURNS``) takes every call ``before`` took, and means the same by it: the same parameters,
    kinds, types and defaults, the same return type, and only new parameters that come after the
    old ones of their kind and have a default (a positional one after the last old positional one,
    a keyword-only one anywhere among the keyword-only ones). A parameter inserted before an old
    positional one, or one without a default, breaks calls written before: not widened."""
    old, new = _signature(before), _signature(after)
    if old is None or new is None:
        return False
    old_args, old_returns = old
    new_args, new_returns = new
    if old_returns != new_returns or (_star(old_args.vararg), _star(old_args.kwarg)) != (
        _star(new_args.vararg),
        _star(new_args.kwarg),
    ):
        return False
    old_positional = _parameters(old_args.posonlyargs + old_args.args, old_args.defaults)
    new_positional = _parameters(new_args.posonlyargs + new_args.args, new_args.defaults)
    if (
        len(old_args.posonlyargs) != len(new_args.posonlyargs)
        or old_positional != new_positional[: len(old_positional)]
    ):
        return False
    if old_args.vararg is not None and len(new_positional) != len(old_positional):
        return False  # a positional parameter after *args cannot be added
    if any(default is None for _, _, default in new_positional[len(old_positional) :]):
        return False
    old_keywords = _parameters(old_args.kwonlyargs, old_args.kw_defaults, keyword=True)
    new_keywords = {
        name: (kind, default)
        for name, kind, default in _parameters(new_args.kwonlyargs, new_args.kw_defaults, keyword=True)
    }
    if any(new_keywords.get(name) != (kind, default) for name, kind, default in old_keywords):
        return False
    named = {name for name, _, _ in old_keywords}
    added = [default for name, (_, default) in new_keywords.items() if name not in named]
    if old_args.kwarg is not None and (added or len(new_positional) != len(old_positional)):
        return False  # a name **kwargs took before would now be a parameter of its own
    return all(default is not None for default in added)


def _signature(text: str) -> tuple[ast.arguments, str] | None:
    """The parameters and the return type of a helper signature as the API manifest records it."""
    if not text.startswith("def ("):
        return None
    try:
        tree = ast.parse(f"def _{text[4:]}: ...")
    except SyntaxError:
        return None
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        return None
    return node.args, ast.unparse(node.returns) if node.returns is not None else ""


def _parameters(
    params: list[ast.arg], defaults: Sequence[ast.expr | None], keyword: bool = False
) -> list[tuple[str, str, str | None]]:
    """Each parameter's name, type and default (None: none), as written."""
    padded: list[ast.expr | None] = [] if keyword else [None] * (len(params) - len(defaults))
    padded.extend(defaults)
    return [
        (
            param.arg,
            ast.unparse(param.annotation) if param.annotation is not None else "",
            ast.unparse(default) if default is not None else None,
        )
        for param, default in zip(params, padded, strict=True)
    ]


def _star(param: ast.arg | None) -> str | None:
    """``*args`` or ``**kwargs`` as written (None: none)."""
    return None if param is None else ast.unparse(param)


def _is_version(text: str) -> bool:
    return _VERSION.fullmatch(text) is not None


def _str_map(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def _list_map(value: object) -> dict[str, list[str]]:
    if not isinstance(value, dict):
        return {}
    return {str(k): [str(i) for i in v] for k, v in value.items() if isinstance(v, list)}


def manifest(package: str, decision: Decision, api: Api) -> bytes:
    """The API manifest's bytes: canonical JSON, keys sorted."""
    document = {
        "package": package,
        "version": decision.version,
        "digest": api.digest,
        "names": dict(api.names),
        "ids": {name: list(members) for name, members in api.ids.items()},
    }
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def read_manifest(folder: Path, at: str, max_bytes: int) -> Mapping[str, object] | None:
    """The previous manifest at ``folder/at``: None when there is none, or it is not a regular file
    within ``max_bytes`` reached without a link (from ``folder`` down: a linked package folder could
    lead out of the project), or it is not a JSON object (the package starts over at 1.0.0)."""
    try:
        raw = read_under(folder, at, max_bytes)
    except (RefusedError, OSError):
        return None
    document = json_document(raw)
    return document if isinstance(document, dict) else None


def versioned(path: str, folder: str) -> bool:
    """Whether ``path`` (relative to ``generated/``) is a file :func:`settle` writes the version of
    the package in ``folder`` (relative to ``python/``) into: its ``__init__.py`` or ``pyproject.toml``.
    A build holds them back until the version is decided, rather than writing each file twice."""
    return path in (f"python/{folder}/__init__.py", f"python/{folder}/pyproject.toml")


def settle(
    tree: MutableMapping[str, bytes],
    folders: Mapping[str, str],
    out: Path | None,
    max_bytes: int,
    held: Mapping[str, bytes] | None = None,
    baseline: Path | None = None,
    known: Mapping[str, Mapping[str, Declarations]] | None = None,
    *,
    committed: Mapping[str, bytes | None] | None = None,
    baseline_copy: Callable[[str], bytes | None] | None = None,
) -> list[str]:
    """Decide the version of each package rendered into ``tree`` (paths relative to ``generated/``),
    ``folders`` giving each package's folder (relative to ``python/``) by its import name; write it
    into its ``__init__.py`` and ``pyproject.toml`` and its manifest beside them. The previous
    manifests are read from ``out`` (None: there are none) and from ``baseline`` (the project's
    ``generated/``, for a build into another folder): the higher version of the two. Returns a
    line per package whose version moved, saying why.

    ``held`` are files of the packages kept out of ``tree`` until now (see :func:`versioned`): they
    are read as if in it, and each is put into it once, its version written in. A file of a staging
    tree written twice was removed and made again while the disk still synced it (a chain of 60
    variants waited 8 ms per removal).

    ``known`` gives, by folder, what a package's modules declare as its emitter wrote them, by
    module (:class:`~civrules.emit.pyfmt.Declarations`): such a module is not parsed back (the
    456 KB ``data.py`` of the largest shipped ruleset), see :func:`package_api`. ``committed``:
    files of ``out`` as a commit holds them; ``baseline_copy``: a file of ``baseline`` as the commit
    holds it (:func:`previous_manifest`)."""
    lines = []
    held = dict(held or {})
    view = _Held(tree, held)
    # Each package's files found in one pass over the tree, not one pass per package (a chain of 60
    # variants walked its 2,400 files 61 times).
    by_folder: dict[str, list[str]] = {folder: [] for folder in folders.values()}
    for path in view:
        if not path.startswith("python/"):
            continue
        folder = path.removeprefix("python/")
        while "/" in folder:  # the package folders it lies in, from the nearest (a package may hold folders)
            folder = folder.rpartition("/")[0]
            if folder in by_folder:
                by_folder[folder].append(path)
    placeholder = f'"{UNVERSIONED}"'.encode()
    for package, folder in sorted(folders.items()):
        versioned = [f"python/{folder}/{name}" for name in ("__init__.py", "pyproject.toml")]
        versioned = [path for path in versioned if view.get(path, b"").count(placeholder) == 1]
        if f"python/{folder}/__init__.py" not in versioned:
            continue  # a family's package not written with package_files (no placeholder) has no version
        api = package_api(_Python(view, by_folder.get(folder, [])), folder, (known or {}).get(folder))
        at = f"python/{folder}/{MANIFEST}"
        previous, read_from = previous_manifest(at, out, baseline, max_bytes, committed, baseline_copy)
        decision = decide(previous, api)
        for path in versioned:
            content = view[path].replace(placeholder, f'"{decision.version}"'.encode())
            if path in held:
                held[path] = content
            else:
                tree[path] = content
        tree[at] = manifest(package, decision, api)
        line = _line(package, previous, decision, at, read_from if read_from != out else None, baseline)
        if line is not None:
            lines.append(line)
    for path, content in held.items():
        tree[path] = content
    return lines


class _Held(Mapping[str, bytes]):
    """A tree and the files held out of it (:func:`settle`'s ``held``), read as one."""

    __slots__ = ("_held", "_tree")

    def __init__(self, tree: Mapping[str, bytes], held: Mapping[str, bytes]) -> None:
        self._tree = tree
        self._held = held

    def __getitem__(self, path: str) -> bytes:
        found = self._held.get(path)
        return self._tree[path] if found is None else found

    def __iter__(self) -> Iterator[str]:
        yield from self._tree
        yield from (path for path in self._held if path not in self._tree)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, path: object) -> bool:
        return path in self._held or path in self._tree


class _Python(Mapping[str, bytes]):
    """The files ``paths`` of ``python/`` in a tree (one package's), by path relative to it, each
    read when asked for: a :class:`~civrules.emit.output.StagedTree` reads a file back from disk,
    and reading them all at once held every package's files (at 50× the synthetic ruleset's, 34 MB)."""

    __slots__ = ("_paths", "_tree")

    def __init__(self, tree: Mapping[str, bytes], paths: list[str]) -> None:
        self._tree = tree
        self._paths = paths

    def __getitem__(self, path: str) -> bytes:
        return self._tree[f"python/{path}"]

    def __iter__(self) -> Iterator[str]:
        return (path.removeprefix("python/") for path in self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and f"python/{path}" in self._paths


def previous_manifest(
    at: str,
    out: Path | None,
    baseline: Path | None,
    max_bytes: int,
    committed: Mapping[str, bytes | None] | None = None,
    baseline_copy: Callable[[str], bytes | None] | None = None,
) -> tuple[Mapping[str, object] | None, Path | None]:
    """The manifest a package's version moves from, and the folder it was read from: of the
    manifests at ``at`` in ``out`` and in ``baseline``, the one of the higher version (``out``'s on
    a tie); (None, None) where neither has one. Where ``committed`` holds ``at`` (`build --check
    --staged` in a commit of some paths, which holds the last committed copy of an output file
    staged but not named), ``out``'s manifest is that copy (None: none), not the one on disk: the
    version moved from the staged manifest, and the commit's own was called stale. With
    ``baseline_copy`` (`--staged` with `--out DIR`), ``baseline``'s manifest is what it gives for
    ``at`` (the commit's copy, None: none), not the one on disk."""
    found: list[tuple[tuple[int, ...], int, Mapping[str, object], Path]] = []
    for rank, folder in enumerate((out, baseline)):
        if folder is None or (rank and out is not None and _same_folder(folder, out)):
            continue
        if rank and os.path.islink(folder):  # the project's generated/ leads elsewhere: not its history
            continue
        document: Mapping[str, object] | None
        if not rank and committed is not None and at in committed:
            document = _held_manifest(committed[at], max_bytes)
        elif rank and baseline_copy is not None:
            document = _held_manifest(baseline_copy(at), max_bytes)
        else:
            document = read_manifest(folder, at, max_bytes)
        version = document.get("version") if document is not None else None
        if document is not None and isinstance(version, str) and _is_version(version):
            found.append((tuple(int(part) for part in version.split(".")), -rank, document, folder))
    if not found:
        return None, None
    _, _, document, folder = max(found, key=lambda item: item[:2])
    return document, folder


def _held_manifest(copy: bytes | None, max_bytes: int) -> Mapping[str, object] | None:
    """A manifest's ``copy`` held (a commit's) as :func:`read_manifest` reads one from disk."""
    held = json_document(copy) if copy is not None and len(copy) <= max_bytes else None
    return held if isinstance(held, dict) else None


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _line(
    package: str,
    previous: Mapping[str, object] | None,
    decision: Decision,
    at: str,
    read_from: Path | None = None,
    baseline: Path | None = None,
) -> str | None:
    if decision.bump == "first":
        elsewhere = f" nor in {baseline}" if baseline is not None else ""
        return f"{package} {decision.version}: the first version (no API manifest at {at} before{elsewhere})"
    if read_from is None:  # the output folder's own manifest
        return None if decision.bump == "none" else _moved(package, previous, decision)
    if decision.bump == "none":
        return f"{package} {decision.version}: the version of {read_from / at}, the same API and files"
    return _moved(package, previous, decision) + f" (from {read_from / at})"


def _moved(package: str, previous: Mapping[str, object] | None, decision: Decision) -> str:
    changes = list(decision.changes[:SHOWN])
    if len(decision.changes) > SHOWN:
        changes.append(f"and {len(decision.changes) - SHOWN} more")
    was = previous.get("version") if previous is not None else None
    return f"{package} {was} -> {decision.version} ({decision.bump}): {'; '.join(changes)}"
