"""The runtimes beside the generated packages: the shared one, rendered here, and each family's
(rendered by the family's ``runtime`` hook with :func:`runtime_distribution`).

A runtime is a distribution of one import package whose modules are copied from the compiler's
sources as they are (they are written, formatted and type-checked as part of civrules), with a
``py.typed`` marker and a ``pyproject.toml``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jinja2

from civrules.emit.packaging import (
    RUNTIME,
    RUNTIME_DISTRIBUTION,
    distribution_name,
    family_runtime_distribution,
    family_runtime_package,
    package_folder,
)
from civrules.emit.pyfmt import Declarations, Module
from civrules.emit.pyproject import VCS_IGNORE, VCS_IGNORE_FILES, Distribution, docstring, render_pyproject
from civrules.emit.versions import UNVERSIONED

#: The sources of the shared runtime, and the modules it ships.
SOURCES = Path(__file__).resolve().parent / "runtime"
FILES = (
    "__init__.py",
    "_moved.py",
    "assumed.py",
    "errors.py",
    "lazy.py",
    "logic.py",
    "mappings.py",
    "protocol.py",
    "records.py",
    "vocab.py",
)
#: The shared runtime's version: 2.1 added the record and protocol bases; the names that moved to
#: the family runtimes are still importable from it (so packages built for 2.0 keep working); 2.2
#: made records and mappings Python values (FrozenMap; pickle, copy, ``replace``, ``asdict``); 2.3
#: added the view every family's ``assuming()`` builds on (``assumed``); 2.4 the base of the typed
#: settings records (``records.SettingsRecord``), which each family runtime's ``settings`` module uses;
#: 2.4.1 refuses a value that is no collection where one belongs (``collection``); 2.5 the checks
#: every family runtime refuses an argument with (``errors.flag``, ``unknown_id``, ``closest_id``,
#: ``some_ids``: each family runtime had its own copy); 2.6 the checks of an engine's assumptions
#: (``assumed.pairs``, ``count``, ``optional``, ``text``) and of ids that are no str (``errors.an_id``);
#: 2.7 the sets of ids in a fixed order (``mappings.OrderedFrozenSet``), and a key a FrozenMap lacks
#: raises UnknownIdError (a KeyError) naming the closest key; 2.8 the players a ruleset seats
#: (``records.PlayerRange``, every package's ``PLAYERS``) and the refusal of a game object listed more
#: times than the game has of it (``errors.at_most``, ``once_each``); 2.9 the citation of each field
#: a variant changed of an entity (``ENTITY_FIELD_SOURCES`` on ``RulesetPackageBase`` and the views);
#: 2.10 the wording of a fact a helper lacks by why it lacks it (``errors.not_given``: recorded
#: unknown, with the data's why, or left out by the ruleset; ``UnknownFactError.what``, ``field``,
#: ``reason``), and ``errors.Told``, through which a package's helpers call the rule logic; 2.11
#: ``errors.reason_of``, the data's why of one field (kept by a value a later call may refuse);
#: 2.11.1 its examples name no game's ids (``mappings``); 2.11.2 a key a settings record lacks raises
#: UnknownIdError naming the closest key, as a FrozenMap's miss (it was a bare KeyError), and
#: ``unknown_id`` says "a user", not "an user"; an id the table has in another case is the
#: closest (``closest_id``); 2.11.3 ``replace`` and unpickling hold a record's fields to their
#: declared types (and ``PlayerRange`` to a range it could be), a misspelt field naming the closest;
#: 2.11.4 so does a call of a record's class (``Card(...)``), but for a package's own data module;
#: 2.12 names how that module makes its records unchecked (``records.data_maker``, which its data
#: module calls), where a module was trusted by its name, read from the caller's frame; 2.13 holds
#: records to their schemas' bounds (``records.bound``, ``Record._schema``); 2.14 those of each item of
#: a list (``items_<constraint>``) and of fields linked otherwise than by their name
#: (``Record._properties``; ``bound``'s ``where``: the property each such field is held to); 2.15 names
#: a class a module lacks, as a pickle of another version asks for it (``errors.absent``,
#: ``OtherVersionError``, each pickled module's ``__getattr__``), and a view's package not installed;
#: 2.16 tells ``OtherVersionError`` only for a name a release of the module had (``absent``'s
#: ``retired``, each module's ``_RETIRED``: the ledger ``tools/runtime_names.json``), any other name
#: being Python's AttributeError, as ``hasattr`` and ``pickle.whichmodule`` expect; and an id enum
#: with no members refuses an id with UnknownIdError (``errors.NoIdsEnumType``); and it imports at
#: run time each name its annotations use (``typing``'s, ``collections.abc``'s, the runtime's own), so
#: ``typing.get_type_hints`` evaluates them (it raised NameError for names imported for type checkers only);
#: 2.16.1 declares the record base's class settings (``_schema``, ``_bounds`` ...) and the mappings'
#: private slots for type checkers only, so a record class's ``typing.get_type_hints`` is its fields,
#: as a dataclass-like reader takes them; and a key no table can hold (a list of ids) is a miss of a
#: ``FrozenMap`` (UnknownIdError, ``get`` None, ``in`` False), where it was Python's bare TypeError;
#: and an engine's subclass of a record class has its base's fields then its own (``Record._fields``),
#: where a record's fields were its class's own ``__slots__`` (a subclass could not be made);
#: 2.17 says what ``FrozenMap`` and ``OrderedFrozenSet`` take when made of what they cannot hold
#: (``FrozenMap(5)``: NotACollectionError, where it was Python's "'int' object is not iterable"), and
#: what a record class takes when called with a value too many by position, a field twice or too few;
#: it makes a record again from its ``asdict()`` or that dict's JSON (``Record.from_dict``, checked
#: as a call of its class is), and gives ``FrozenMap`` what ``dict`` and ``MappingProxyType`` read that
#: it lacked: ``|`` (either side; ``|=`` rebinds), ``reversed()`` and ``copy()``;
#: 2.18 writes a record's JSON form from which ``from_dict`` makes the very record again
#: (``asdict(tagged=True)``: ``"@record"`` names the class of a record of an alias of several, whose
#: ``asdict()`` another's may equal; ``"@unknown_fields"`` a settings record's unknown fields), reads
#: it beside ``asdict()``'s, which is unchanged; it binds each name a module's ``__getattr__`` finds
#: (a base, a moved name) at its first read, and shows a record refused as a whole cut (``shown``);
#: and ``OrderedFrozenSet``'s set algebra gives an OrderedFrozenSet, in its operands' order, where it
#: gave a plain frozenset whose order changed with ``PYTHONHASHSEED``; ``errors.IdEnumType``, the
#: metaclass of the id enums and vocabularies, names the closest member, or the member an id is, where
#: Enum refused a name it lacks with the bare name (``ItemId["alpha"]``: ``KeyError: 'alpha'``); a
#: vocabulary's refusal of a value names the runtime another version of which made a pickle of it
#: (``absent_id`` said "the package" for every enum), and the record base's docstrings say that
#: records are no dataclasses and what does the work of ``dataclasses``' functions for them; and
#: ``dir(civrules_runtime)`` lists the names its ``__getattr__`` loads before a read binds one; an
#: engine's subclass of a record class with fields of its own has them after its base's in its
#: ``__match_args__`` (it inherited the base's), as a frozen dataclass's subclass has; and imported
#: on a Python older than 3.11 it says it needs 3.11 (it failed inside, on ``enum.EnumType``).
#: Also (same step, unreleased): its pyproject.toml names ``dev-mode-dirs``, so ``pip install -e``
#: puts generated/python/ on sys.path, not the runtime's own folder (which made its modules
#: top-level ones, ``import records``, and left the runtime unimportable).
#: Also (same step, unreleased, round 34): a count in its errors agrees with its noun ("has 1 value,
#: not 2" of a table's item, "restored from its 1 field"), not "1 values".
#: 2.19 the ``__getattr__`` and ``__dir__`` of a module whose names are imported on first use
#: (``lazy.lazy_names``: each family runtime's ``__init__`` had a copy of its own), and
#: ``records.typed_replace``, with which a record class declares its ``replace``: the base's code,
#: whose keyword-only, typed fields ``inspect.signature`` and ``help()`` read (they read
#: ``(*args, **changes)``; the declaration was for type checkers only).
#: Also (same step, unreleased): a refusal shows an id enum's member given for an id as the id
#: (``errors.shown``: ``'a' is listed twice``, where it said ``<ItemId.A: 'a'>``), and a record
#: of another table given for an id is no longer told to give its id (``unknown_id``, a FrozenMap's
#: miss: a card given for an area's id, whose id is no area either).
#: Also (same step, unreleased): its pyproject.toml declares the sdist's files (the wheel's, not
#: whatever else lies in the folder), ignores a `.gitignore` above the folder (one naming `data.py`
#: emptied it), and gives its docstring as the long description; an empty `.gitignore` and
#: `.hgignore` beside it keep a checkout's own out of the sdist.
#: Also (same step, unreleased): a refusal of a value whose repr fails (``within(10**5000, ...)``: an integer past
#: the digits Python turns into text; a list nested past the stack) raises the rule's error naming it
#: ``<an integer of about 5,001 digits>``, where it raised the interpreter's ValueError or RecursionError.
#: Also (same step, unreleased): a settings record read by a key that is one of its fields the data
#: leave out (``SETTINGS["items"]`` where the ITEMS table holds them) says so, where it asked "did you
#: mean" another key (``MissingKeyError.field_of``).
#: Also (same step, unreleased): a refusal of an id listed more times than the game has of it counts
#: all the times it is listed: an id a game holds none of, listed twice, was "listed once" (the count
#: stopped at the first excess).
#: 2.20.0 (minor: a record can be referred to weakly) lets a record be referred to weakly (the
#: record base's one slot, ``__weakref__``: a ``WeakValueDictionary`` of records; it was Python's
#: "cannot create weak reference"), keeps a
#: settings record's unknown fact unknown where ``replace`` gives it None (``replace(key=None)``
#: forgot it: a replace of a field by its own value gave another record), and a ``replace``
#: declared with ``records.typed_replace`` on a class that is no record raises TypeError saying so
#: (it ran the declaration's bare NotImplementedError).
#: Also (same step, unreleased): a refusal of an id the game has no copy of says it is listed, with
#: no count of the times ("'a' is in pieces, but the game has no copy of it"), where it said "is
#: listed twice ... has 0 copies", as if once would do; a bound of none is "no copy".
#: Also (same step, unreleased): a key whose own ``__hash__`` or ``__eq__`` fails is in no
#: table (``key in table`` False, ``table[key]`` MissingKeyError), as an unhashable one: the caller's
#: exception came out of the table's lookup, where a TypeError of the same hash was "not there".
#: Also (same step, unreleased): ``within`` refuses a float whose value is whole (3.0) as "a float, not
#: an int", where it said the value "is not a whole number".
VERSION = "2.20.0"


def runtime_distribution(
    package: str,
    distribution: str,
    sources: Path,
    files: Iterable[str],
    *,
    what: str,
    version: str,
    description: str,
    dependencies: Iterable[str] = (),
    install: Iterable[str] = (),
) -> dict[str, bytes]:
    """The files of a runtime's distribution, by path relative to ``generated/python/``.

    ``install`` names the runtimes it needs (installed before it); ``what`` says whose runtime it is.

    Made once per process (:func:`_distribution`): a runtime is civrules' own sources and versions,
    the same at every build of a language server or ``watch`` session, which read each source
    file and wrote the metadata again at every build (0.5 ms of CPU a build of one ruleset).
    """
    made = _distribution(
        package, distribution, sources, tuple(files), what, version, description, tuple(dependencies), tuple(install)
    )
    return dict(made)


@functools.lru_cache(maxsize=16)
def _distribution(
    package: str,
    distribution: str,
    sources: Path,
    modules: tuple[str, ...],
    what: str,
    version: str,
    description: str,
    dependencies: tuple[str, ...],
    install: tuple[str, ...],
) -> tuple[tuple[str, bytes], ...]:
    """:func:`runtime_distribution`'s files, made from its arguments (a tuple: no caller can change it)."""
    out = {f"{package}/{name}": (sources / name).read_bytes() for name in modules}
    out[f"{package}/py.typed"] = b""
    out.update((f"{package}/{name}", VCS_IGNORE) for name in VCS_IGNORE_FILES)
    out[f"{package}/pyproject.toml"] = render_pyproject(
        Distribution(
            name=distribution,
            version=version,
            description=description,
            dependencies=dependencies,
            folder=package,
            files=(*modules, "py.typed"),
            what=what,
            install=install,
            readme=docstring(out[f"{package}/__init__.py"]),
        )
    )
    return tuple(out.items())


def render_core_runtime() -> dict[str, bytes]:
    """The shared runtime's distribution, by path relative to ``generated/python/``."""
    return runtime_distribution(
        RUNTIME,
        RUNTIME_DISTRIBUTION,
        SOURCES,
        FILES,
        what="civrules' shared runtime",
        version=VERSION,
        description="The runtime every family's generated packages share: errors, the record and protocol bases.",
    )


def compatible(distribution: str, version: str) -> str:
    """The requirement on ``distribution`` that accepts ``version`` and what may follow it without
    breaking its API: the same major version, at least this minor one (``name>=2.2,<3``)."""
    major, minor, _ = version.split(".", 2)
    return f"{distribution}>={major}.{minor},<{int(major) + 1}"


def family_runtime(
    family_id: str, family_name: str, sources: Path, files: Iterable[str], version: str
) -> dict[str, bytes]:
    """A family's runtime distribution (``civrules_runtime_<family>``), by path relative to
    ``generated/python/``: the records, vocabularies, rule logic and protocol its packages share,
    on the shared runtime of this major version."""
    return runtime_distribution(
        family_runtime_package(family_id),
        family_runtime_distribution(family_id),
        sources,
        files,
        what=f"the runtime of the {family_name} family's packages",
        version=version,
        description=(
            f"The runtime the {family_name} family's generated packages share: "
            "records, vocabularies, rule logic, protocol."
        ),
        dependencies=(compatible(RUNTIME_DISTRIBUTION, VERSION),),
        install=(RUNTIME,),
    )


def public_names(*groups: Iterable[str]) -> list[str]:
    """A package's public names in the order its ``__all__`` lists them: constants, then classes,
    then functions, each group alphabetical."""
    return sorted((name for group in groups for name in group), key=lambda n: (not n.isupper(), n[0].islower(), n))


#: The files of a ruleset's import package (what its wheel holds), in every family.
PACKAGE_FILES = ("__init__.py", "data.py", "helpers.py", "ids.py", "py.typed")


def runtime_check(runtimes: Iterable[tuple[str, str, str]]) -> str:
    """The lines of a package's ``__init__`` that refuse, as it is imported, a runtime older than
    the one it was built with (or of another major version), each of ``runtimes`` an import name,
    its distribution and the version built with.

    Its ``pyproject.toml`` asks the installer for the same (:func:`compatible`), but a runtime put
    on the path otherwise (copied beside the engine, installed with ``--no-deps``, or a consumer's
    second package built by another civrules, whose runtime came first) is imported as it is: a
    name the package needs and that runtime lacks ended the import of a table in ``ImportError:
    cannot import name 'data_maker'``, or a record built otherwise. The package now says which
    runtime it needs, which it found and where, and what to install. The imports that follow in the
    template are marked ``# noqa: E402``: they come after the check on purpose.
    """
    rows = []
    for module, distribution, version in runtimes:
        major, minor, _ = version.split(".", 2)
        rows.append(f'    ("{module}", ({int(major)}, {int(minor)}), "{compatible(distribution, version)}"),')
    # Imported and checked one by one, the shared runtime first: a family's runtime imports the
    # shared one, and a module of its name that is no runtime (a user's `civrules_runtime.py`)
    # ended that import before the shared runtime was checked.
    return "\n".join(
        [
            "import importlib as _importlib",
            "",
            "for _name, _least, _wanted in (",
            *rows,
            "):",
            "    try:",
            "        _runtime = _importlib.import_module(_name)",
            "    except ModuleNotFoundError as _missing:",
            "        if _missing.name != _name:",
            "            raise",
            "        raise ImportError(",
            '            f"{__name__} needs {_wanted}, and no {_name} is installed: install the runtimes "',
            "            f\"this package names: pip install '{_wanted}'\",",
            "            name=_name,",
            "        ) from None",
            '    _found = str(getattr(_runtime, "__version__", ""))',
            '    _parts = tuple(int(part) if part.isdigit() else -1 for part in _found.split(".")[:2])',
            "    if not _least <= _parts < (_least[0] + 1,):",
            "        raise ImportError(",
            '            f"{__name__} needs {_wanted}, but the {_name} imported "',
            "            f\"(from {_runtime.__file__}) is {_found or 'of no version'}: install the runtimes \"",
            "            f\"this package names: pip install '{_wanted}'\",",
            "            name=_name,",
            "        )",
        ]
    )


def package_files(
    environment: jinja2.Environment,
    ruleset_id: str,
    ruleset_name: str,
    family_id: str,
    fingerprint: str,
    context: Mapping[str, Any],
    data_module: bytes | Module,
    *,
    base_ruleset: str | None,
    family_runtime_version: str,
) -> PackageFiles:
    """A ruleset package's files, by path relative to ``generated/python/``: its templated modules
    (from the family's ``__init__``/``ids``/``helpers`` templates), its data module, the marker that
    says it is typed, and its distribution's ``pyproject.toml``, all in
    ``civrules_rulesets/<package>/``.

    The package's version is :data:`~civrules.emit.versions.UNVERSIONED` here: ``build`` decides it
    against the package's API manifest (:mod:`civrules.emit.versions`). ``base_ruleset`` (a variant's
    base) is named as ``BASE_RULESET``; the package holds the whole resolved ruleset, so it does not
    depend on the base's package: a package needs the standard library and its runtimes, nothing else.

    ``data_module`` is the source of ``data.py``, or the :class:`~civrules.emit.pyfmt.Module` a
    :class:`~civrules.emit.pyfmt.Source` rendered (``Source.rendered``): then the files carry what it
    declares, as its statements were written (:attr:`PackageFiles.declared`), and ``build`` versions
    the package without parsing it back (the templated modules, a few KB, are parsed).
    """
    folder = package_folder(ruleset_id)
    family_runtime = family_runtime_package(family_id)
    context = {
        **context,
        "runtime_check": runtime_check(
            (
                (RUNTIME, RUNTIME_DISTRIBUTION, VERSION),
                (family_runtime, family_runtime_distribution(family_id), family_runtime_version),
            )
        ),
        "version": UNVERSIONED,
        "base_ruleset": base_ruleset,
        "all_names": public_names(context["all_names"], ("BASE_RULESET", "__version__")),
    }
    files = {}
    for template in ("__init__.py", "ids.py", "helpers.py"):
        files[f"{folder}/{template}"] = environment.get_template(f"{template}.j2").render(context).encode("utf-8")
    declared = None
    if isinstance(data_module, Module):
        data_module, data_declarations = data_module
        if data_declarations is not None:
            declared = {"data.py": data_declarations}
    files[f"{folder}/data.py"] = data_module
    files[f"{folder}/py.typed"] = b""
    files.update((f"{folder}/{name}", VCS_IGNORE) for name in VCS_IGNORE_FILES)
    files[f"{folder}/pyproject.toml"] = render_pyproject(
        Distribution(
            name=distribution_name(ruleset_id),
            version=UNVERSIONED,
            description=f"{ruleset_name}: the rules as typed data (generated by civrules)",
            dependencies=(
                compatible(RUNTIME_DISTRIBUTION, VERSION),
                compatible(family_runtime_distribution(family_id), family_runtime_version),
            ),
            folder=folder,
            files=PACKAGE_FILES,
            what=f"the generated package `{folder.replace('/', '.')}`",
            install=(RUNTIME, family_runtime),
            readme=docstring(files[f"{folder}/__init__.py"]),
        )
    )
    return PackageFiles(files, declared)


class PackageFiles(dict[str, bytes]):
    """A ruleset package's files by path (:func:`package_files`), and what its modules declare as
    their emitter wrote them, by module name (None, or a module it does not name: ``build`` parses
    the module for it)."""

    __slots__ = ("declared",)

    def __init__(self, files: Mapping[str, bytes], declared: Mapping[str, Declarations] | None) -> None:
        super().__init__(files)
        self.declared = declared
