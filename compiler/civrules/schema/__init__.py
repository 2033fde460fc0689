"""JSON Schema validation of rule files, with every error mapped back to a line and column.

Each file names its kind (``kind: cards``); the kind, read as a kind of the family of the
ruleset that uses the file, selects a schema: the core's (``rule_index``) or the family's. The
register knows a kind by its *qualified* name: the default family's kinds by their own names
(their schemas are the top-level ``schemas/*.schema.json`` they have always been), any other
family's as ``<family>/<kind>`` (``schemas/<family>/...``, or the schemas its distribution ships),
so two families may each have a kind called ``cards``.
jsonschema's errors are turned into diagnostics pointing at the offending key or value, with
"did you mean" hints for misspelt keys and enum values.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from civrules.diagnostics import Diagnostic, Related, Span, blanks, codes, named, stopped, words
from civrules.diagnostics.suggest import (
    Vocabulary,
    ascii_slug,
    closest,
    did_you_mean,
    mean,
    non_ascii,
)
from civrules.emit.packaging import NOT_KEBAB_CASE, RULESET_ID_PATTERN, ruleset_id_problems
from civrules.families import Family, default_family, families, family_named
from civrules.load.document import Document, NodePath
from civrules.schema import accepted, patterns
from civrules.support import files, memo

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

#: The kinds every family shares, and the schema file of each.
CORE_KINDS: Mapping[str, str] = {"rule_index": "rule-index.schema.json"}


def qualify(family: Family, kind: str) -> str:
    """The qualified name of ``kind`` read as a kind of ``family``."""
    return kind if kind in CORE_KINDS else family.qualified_kind(kind)


@functools.cache
def _register() -> dict[str, tuple[Family | None, str]]:
    """Every qualified kind: the family that declares it (None: the core's) and its schema file."""
    found: dict[str, tuple[Family | None, str]] = {kind: (None, file) for kind, file in CORE_KINDS.items()}
    for family in families().values():
        for kind, file in family.kinds.items():
            found.setdefault(qualify(family, kind), (family, file))
    return found


def registered() -> Mapping[str, tuple[Family | None, str]]:
    """Every qualified kind: the family that declares it (None: the core's) and its schema file."""
    return _register()


class _SchemaFiles(Mapping[str, str]):
    """The qualified kinds whose schemas civrules ships, and each one's file under ``schemas/``."""

    def _files(self) -> dict[str, str]:
        return {kind: file for kind, (family, file) in _register().items() if family is None or family.schemas is None}

    def __getitem__(self, kind: str) -> str:
        return self._files()[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._files())

    def __len__(self) -> int:
        return len(self._files())


#: The qualified kinds whose schemas civrules ships, and the schema file of each under ``schemas/``.
SCHEMA_FILES: Mapping[str, str] = _SchemaFiles()


def known_kind(kind: str) -> bool:
    """Whether ``kind`` is a qualified kind of the core or of an installed family."""
    return kind in _register()


def schema_path(kind: str) -> Path:
    """Where the schema of a qualified kind is: under ``schemas/``, or in its family's distribution."""
    family, file = _register()[kind]
    if family is not None and family.schemas is not None:
        # Imported here: only a family distributed on its own ships its schemas as package data, and
        # importlib.resources (with tempfile, shutil, lzma) was ~10 ms of every run's start-up.
        from importlib import resources

        return Path(str(resources.files(family.schemas).joinpath(file)))
    return schema_dir() / file


def validator_module(kind: str) -> str:
    """The name of the shipped fast validator of a qualified kind (``sid-meiers/map`` → ``sid_meiers__map``)."""
    return kind.replace("/", "__").replace("-", "_")


def schema_dir() -> Path:
    """Where the schemas are: inside the installed package, or beside it in a source checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "_schemas"
    return packaged if packaged.is_dir() else package.parent.parent / "schemas"


def schema_digest(schema: Any) -> str:
    """The SHA-256 of a schema's canonical JSON: what a shipped validator was generated from."""
    return hashlib.sha256(json.dumps(schema, sort_keys=True, ensure_ascii=True).encode("ascii")).hexdigest()


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema of a qualified kind."""
    with schema_path(kind).open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


def _is_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 1000.0 as an integer; YAML reads `1e3` as that float, and generated code
    # typed `int` would then hold a float. An integer here is an int, as fastjsonschema has it.
    return isinstance(instance, int) and not isinstance(instance, bool)


def _unique_key(value: Any) -> Any:
    """A hashable stand-in equal for two values exactly when JSON Schema calls them equal."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", value)
    if isinstance(value, list):
        return ("list", tuple(_unique_key(item) for item in value))
    if isinstance(value, dict):
        return ("mapping", frozenset((key, _unique_key(item)) for key, item in value.items()))
    return (type(value).__name__, value)


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    # jsonschema compares a list of mappings pair by pair: a 100,000-item list took minutes.
    from jsonschema.exceptions import ValidationError

    if unique and isinstance(instance, list):
        seen: set[Any] = set()
        for item in instance:
            key = _unique_key(item)
            if key in seen:
                yield ValidationError("the list has repeated items")
                return
            seen.add(key)


@functools.cache
def _validator_class() -> Any:
    """Draft 2020-12 with strict integers and a linear uniqueItems.

    jsonschema is imported here, on the first file the compiled validators reject: importing it
    costs more than validating every shipped file with them (~0.15 s of each run's ~0.6 s)."""
    import jsonschema

    return jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator,
        validators={"uniqueItems": _unique_items, "pattern": patterns.pattern_keyword},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


def validator_for(schema: Mapping[str, Any]) -> Any:
    """A validator of ``schema`` that judges as civrules does: strict integers, a linear
    uniqueItems, and patterns read as JSON Schema reads them (:mod:`civrules.schema.patterns`)."""
    return _validator_class()(schema)


@functools.cache
def _validator(kind: str) -> Any:
    return _validator_class()(load_schema(kind))


@functools.cache
def _fast_validator(kind: str) -> Callable[[Any], Any] | None:
    """The validator fastjsonschema generated from this kind's schema, shipped in the package; or None.

    Most files are valid; for them this answers ~20x faster than jsonschema. An invalid file is
    validated again by jsonschema, which reports every error with its path. Our schemas use only
    keywords both libraries implement alike (tests/core/test_schemas.py holds them to that). The code
    is generated ahead of time (``compiler/tools/validators.py``) and imported from the installed
    package: nothing compiled is cached in, or loaded from, the working directory. It is used only
    while it was generated from the very schema loaded here (else jsonschema alone answers).
    """
    import importlib

    try:
        module = importlib.import_module(f"civrules._generated.validators.{validator_module(kind)}")
    except ImportError:  # pragma: no cover - shipped with the package; degrade to jsonschema alone
        return None
    if getattr(module, "SCHEMA_SHA256", None) != schema_digest(load_schema(kind)):
        return None
    validate: Callable[[Any], Any] = module.validate
    return validate


def is_valid_fast(kind: str, data: Any) -> bool | None:
    """True or False from the compiled validator; None when it is unavailable."""
    fast = _fast_validator(kind)
    if fast is None:
        return None
    from fastjsonschema import JsonSchemaException

    try:
        fast(data)
    except JsonSchemaException:
        return False
    return True


def document_kind(
    document: Document, family: Family | None = None, among: Sequence[Family] = ()
) -> tuple[str | None, list[Diagnostic]]:
    """The qualified kind of a document, read as a file of ``family``; or a diagnostic saying why it
    has none.

    Without a family (a file no ruleset has claimed yet), a manifest's own ``family:`` decides, and
    any other file is of the families ``among`` (those of the rules folder's rulesets; every
    installed family where it has none): of the default family's kind where it is among them and
    has it, else of the first one's (by id) that has it. A kind none of them has is unknown there,
    its hint drawn from their kinds alone: a file of a kind only another family has, beside the
    rulesets of one family, was judged as that other family's, its hints describing another game.
    """
    data = document.data
    offered: Sequence[Family] = ()
    if family is None:
        family, problems = _family_of_file(document, among)
        if problems:
            return None, problems
        offered = among if family is None else ()
    known_kinds = sorted(
        {*CORE_KINDS, *(k for one in ((family,) if family is not None else offered) for k in one.kinds)}
    )
    known = ", ".join(known_kinds)
    if not isinstance(data, dict):
        return None, [
            _diag(
                codes.BAD_KIND,
                "a rule file must be a mapping that starts with `kind:`",
                document.span(()),
                f"start the file with `kind:` and one of: {known}",
                subjects=("kind",),
            )
        ]
    kind = data.get("kind")
    if kind is None:
        return None, [
            _diag(
                codes.BAD_KIND,
                "the file has no `kind:`",
                document.span(()),
                f"add `kind:` with one of: {known}",
                subjects=("kind",),
            )
        ]
    if not isinstance(kind, str) or kind not in known_kinds or (family is None and kind not in CORE_KINDS):
        hint = _did_you_mean(str(kind), known_kinds) or f"use one of: {known}"
        elsewhere = sorted(one.id for one in families().values() if kind in one.kinds) if offered else []
        if elsewhere:
            families_word = "family" if len(elsewhere) == 1 else "families"
            hint += (
                f" (`{kind}` is a kind of {families_word} {_either(elsewhere)}, "
                "which no ruleset of this rules folder is of)"
            )
        return None, [
            _diag(
                codes.BAD_KIND,
                f"unknown file kind {_show(kind)}",
                document.span(("kind",)),
                hint,
                _closest(str(kind), known_kinds),
                subjects=(kind,) if isinstance(kind, str) else (),
            )
        ]
    return (qualify(family, kind) if family is not None else kind), []


def _either(ids: Sequence[str]) -> str:
    """Family ids in words: `a`, `a` or `b`, `a`, `b` or `c`."""
    shown = [f"`{one}`" for one in ids]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _family_of_file(document: Document, among: Sequence[Family] = ()) -> tuple[Family | None, list[Diagnostic]]:
    """The family a file read on its own belongs to (see :func:`document_kind`); None where it is a
    data file of a kind none of ``among`` has."""
    data = document.data
    if not isinstance(data, dict):
        return default_family(), []
    named = data.get("family")
    kind = data.get("kind")
    if kind == "ruleset":
        if isinstance(named, str):
            found = family_named(named)
            if found is not None:
                return found, []
            return None, [unknown_family(document, named)]
        return default_family(), []
    return family_of_kind(kind, among), []


def family_of_kind(kind: object, among: Sequence[Family] = ()) -> Family | None:
    """The family a data file of ``kind`` that no ruleset reads is of: among ``among`` (the
    families of its rules folder's rulesets; every installed family where it has none), the
    default family where it is one of them and has the kind, else the first (by id) that has it;
    None where ``among`` is given and none of them has it (see :func:`document_kind`)."""
    fallback = default_family()
    candidates = sorted(among or families().values(), key=lambda one: one.id)
    first = fallback if fallback in candidates else candidates[0]
    if not isinstance(kind, str) or kind in CORE_KINDS:
        return first
    owners = [one for one in candidates if kind in one.kinds]
    if fallback in owners:
        return fallback
    if owners:
        return owners[0]
    return None if among else first


def unknown_family(document: Document, named: str) -> Diagnostic:
    """R012 at a manifest's ``family:`` that names no installed family."""
    ids = sorted(families())
    close = closest(named, ids)
    hint = mean(named, close) if close else f"the installed families: {', '.join(ids)}"
    problem = _diag(
        codes.UNKNOWN_FAMILY,
        f"unknown game family {words.shown(named)}",
        document.span(("family",)),
        hint,
        subjects=words.whole((named,)),
    )
    return replace(problem, suggestion=close)


def validate_document(document: Document, kind: str, limit: int | None = None) -> list[Diagnostic]:
    """Validate a document against its kind's schema; one diagnostic per problem.

    With a ``limit``, validation stops at the first problem beyond that many, and one summary
    (R011) says so: a file of 490,000 unknown keys took minutes of "did you mean" and gigabytes of
    output, and jsonschema's own walk through what is left of a broken file is slow.
    """
    data: Any = document.data
    found: dict[Diagnostic, None] = {}
    variant_only = [key for key in ("overlay", "suppress") if isinstance(data, dict) and key in data]
    if kind.rpartition("/")[2] == "ruleset" and variant_only and "extends" not in data:
        # A variant that forgot `extends:` is one mistake, not "overlay is not allowed" and a
        # missing key for every section a base ruleset must give: judged as the variant it is.
        for key in variant_only:
            diagnostic = _diag(
                codes.SCHEMA_VIOLATION,
                f"`{key}` changes a base ruleset, but this manifest names none (`extends:`)",
                document.key_span((key,)),
                "add `extends: BASE` under `name:` (`civrules list` names the rulesets)",
                subjects=(key, "extends"),
            )
            found[diagnostic] = None
        data = {**data, "extends": "base"}
    # fastjsonschema takes `1e3` for an integer; a document holding such a float is judged by
    # civrules' own validator, whose integers are ints.
    if not document.whole_floats and is_valid_fast(kind, data):
        return list(found)
    translate = _translator(document, _defs(kind), load_schema(kind))
    if not document.whole_floats:
        parts = _item_wise_diagnostics(kind, data, translate, limit)
        if parts is not None:
            item_wise = _collect(document.file, parts[0], limit, dict(found), exact=parts[1])
            if item_wise is not None:
                return item_wise
    whole = (d for error in _released(_validator(kind).iter_errors(data)) for d in translate((), error))
    collected = _collect(document.file, whole, limit, found, exact=True)
    assert collected is not None  # exact: never None
    return collected


#: The diagnostics of one of jsonschema's errors, its path read after a prefix (:func:`_translator`).
Translate = Callable[[NodePath, "ValidationError"], Iterator[Diagnostic]]


def _translator(document: Document, defs: Mapping[str, Any], root: Mapping[str, Any] | None = None) -> Translate:
    """The diagnostics of an error of ``document`` (its path read after a prefix), made as they are
    read: none for an error at a node the reader refused (its L diagnostic says it). ``defs`` are
    the `$defs` of the schema, which the hints of its errors read; ``root``, the schema itself (a
    key an `if`/`then` requires is described in the properties of the object it belongs to)."""

    def translate(prefix: NodePath, error: ValidationError) -> Iterator[Diagnostic]:
        if document.refused and (*prefix, *error.absolute_path) in document.refused:
            return iter(())
        if blanks.is_blank(error.instance):
            return iter(())  # a blank a hint wrote, left unfilled: the reader's L016 says what to write
        return _translate(document, error, prefix, defs=defs, root=root)

    return translate


def _collect(
    file: str, diagnostics: Iterable[Diagnostic], limit: int | None, found: dict[Diagnostic, None], exact: bool
) -> list[Diagnostic] | None:
    """``diagnostics`` added to ``found``, each once; past ``limit``, the first ``limit`` and R011.
    Only diagnostics met in the order of jsonschema's walk of the whole document (``exact``) decide
    which are the first: otherwise None says the limit was reached, and the caller walks the whole
    document (see :func:`_item_wise_diagnostics`)."""
    for diagnostic in diagnostics:
        if limit is not None and len(found) >= limit and diagnostic not in found:
            return [*found, stopped(file, limit)] if exact else None
        found[diagnostic] = None
    return list(found)


def _item_wise_diagnostics(
    kind: str, data: Any, translate: Translate, limit: int | None
) -> tuple[Iterator[Diagnostic], bool] | None:
    """The schema diagnostics of an invalid file (of its errors, by ``translate``), found without
    walking its valid parts; and whether they come in the order of a walk of the whole file. None
    where the file has no part judged apart (walk the whole file).

    Each top-level value with a schema of its own (:func:`_parts`) is judged apart: a list whose
    items only its ``items`` judges, item by item; any other value whole. A part the compiled
    validator passes is valid; jsonschema judges the others, and the rest of the file (its top
    level: required keys, unknown keys, conditions) against the schema less those parts. The
    errors are the whole file's, and in its walk's order: jsonschema meets the keywords of a schema
    in the order it writes them (`then` and `else` where `if` is), and the properties in theirs,
    so each part's errors come where it is written (:func:`_written_at`).

    The rest is walked whole first, to know whether its errors come in that order, and what is kept
    of each error until its place comes is its diagnostics, only until they are more than ``limit``:
    those come first of all that is left, so the limit is reached before any other is read. The
    errors themselves were kept, each with the errors of every branch of its `anyOf`: 20,000 map
    areas that failed the file's `then` (each cites no source) held 180 MB while `validate` printed
    100 diagnostics of them.

    An item holding more keys than its schema allows is known invalid without the compiled
    validator, which reads every key before it says so (0.9 s for one of 490,000 keys).

    One error of a 5,000-card file had jsonschema walk every card: 0.9 s of CPU per keystroke in an
    editor at ten times the largest shipped ruleset, 3 s at twenty, for the error of the card typed.
    """
    parts = _parts(kind)
    if not isinstance(data, dict) or not any(key in data for key in parts):
        return None
    schema = load_schema(kind)
    rest: list[tuple[tuple[int, ...], list[Diagnostic]]] = []
    last: tuple[int, ...] | None = None
    ordered = True  # the rest's errors each where its keyword is written, in the order written
    kept: dict[Diagnostic, None] = {}  # the rest's diagnostics, each once: past `limit`, no more are kept
    for error in _released(_shell_validator(kind).iter_errors(data)):
        at = _written_at(schema, parts, list(error.relative_schema_path))
        ordered = ordered and at is not None and (last is None or last <= at)
        last = at or ()
        if limit is not None and len(kept) > limit:
            continue  # its place is after more than `limit` diagnostics of the rest
        made = []
        for diagnostic in translate((), error):
            made.append(diagnostic)
            kept[diagnostic] = None
            if limit is not None and len(kept) > limit:
                break
        rest.append((last, made))

    def diagnostics() -> Iterator[Diagnostic]:
        waiting = iter(rest)
        held = next(waiting, None)
        for key, node in parts.items():
            if key not in data:
                continue
            here = _written_at(schema, parts, ["properties", key, *(("items",) if node is not None else ())]) or ()
            while held is not None and (not ordered or held[0] < here):
                yield from held[1]
                held = next(waiting, None)
            if node is None:
                whole = _fast_wrapped_validator(kind, (key,), whole=True)
                if whole is None or not _passes(whole, data[key]):
                    for error in _released(_property_validator(kind, key).iter_errors(data[key])):
                        yield from translate((key,), error)
                continue
            items = data[key]
            if not isinstance(items, list):
                continue  # `items` judges lists only; what else the value may be, the rest says
            fast = _fast_item_validator(kind, (key,)) or _fast_wrapped_validator(kind, (key,))
            slow = _item_validator(kind, (key,))
            most = _most_keys(kind, key)
            alike = _ItemErrors(slow, _own_properties(kind, key))
            for index, item in enumerate(items):
                too_many = most is not None and isinstance(item, dict) and len(item) > most
                if not too_many and fast is not None and _passes(fast, item):
                    continue
                for error in _released(alike.errors(item), kept=alike.holds):
                    yield from translate((key, index), error)
        while held is not None:
            yield from held[1]
            held = next(waiting, None)

    return diagnostics(), ordered


class _ItemErrors:
    """jsonschema's errors of the items of one list, each item judged once per shape.

    Items that fail alike are judged alike: 50,000 map areas each with `land: "yes"` were walked by
    jsonschema one by one (27 s of CPU). An item's *shape* is its keys in their order and its
    values, except the value of a property that only the item schema's own ``properties`` entry
    reads (:func:`_own_properties`) and that is valid there: no keyword reads it, so no error
    depends on it. Two items of one shape have the same errors, but for what an error of the
    item itself holds of it (its instance, and a message that may show it): an item's errors are
    reused only when each lies inside a value of the shape, or is of a keyword whose diagnostic
    reads only the item's keys (``required``, ``additionalProperties``)."""

    #: The most shapes held, the most keys and characters of one (a larger item is judged as it is).
    SHAPES, KEYS, SIZE = 256, 64, 4096

    def __init__(self, validator: Any, own: Mapping[str, Any] | None) -> None:
        self.validator, self.own = validator, own
        self.judges: dict[int, Any] = {}
        self.known: dict[tuple[tuple[str, str, str | None], ...], list[ValidationError] | None] = {}
        self._kept: set[int] = set()  # the errors of `known`, by identity: judged again, never released

    def errors(self, item: Any) -> Iterable[ValidationError]:
        own = self.own
        if own is None or not isinstance(item, dict) or len(item) > self.KEYS:
            return self.validator.iter_errors(item)  # type: ignore[no-any-return]
        try:
            shape = tuple(
                (type(key).__name__, repr(key), None if key in own and self._valid(value, own[key]) else repr(value))
                for key, value in item.items()
            )
        except RecursionError:
            return self.validator.iter_errors(item)  # type: ignore[no-any-return]
        if shape in self.known:
            known = self.known[shape]
            return known if known is not None else self.validator.iter_errors(item)
        errors = list(self.validator.iter_errors(item))
        if len(self.known) < self.SHAPES and sum(len(at[1]) + len(at[2] or "") for at in shape) <= self.SIZE:
            kept = {at[1] for at in shape if at[2] is not None}
            alike = all(
                (error.path and repr(error.path[0]) in kept) or (not error.path and error.validator in _KEYS_ONLY)
                for error in errors
            )
            self.known[shape] = errors if alike else None
            if alike:
                self._kept.update(id(error) for error in errors)
        return errors

    def holds(self, error: ValidationError) -> bool:
        """Whether ``error`` is kept to stand for the errors of other items of its shape."""
        return id(error) in self._kept

    def _valid(self, value: Any, schema: Any) -> bool:
        """Whether ``value`` passes ``schema`` as the item's ``properties`` would judge it (a schema
        with an `$id` of its own is looked up where it says)."""
        if not isinstance(schema, dict) or "$id" in schema:
            return _no_error(self.validator.descend(value, schema))
        judge = self.judges.get(id(schema))
        if judge is None:
            judge = self.judges[id(schema)] = self.validator.evolve(schema=schema)
        return _no_error(judge.iter_errors(value))


#: The keywords whose diagnostics of a mapping read its keys, not its values (:func:`_translate`).
_KEYS_ONLY = frozenset({"required", "additionalProperties"})

#: The keywords that may read an item's values otherwise than through its `properties`.
_READS_VALUES = frozenset(
    {"patternProperties", "unevaluatedProperties", "dependentSchemas", "const", "enum", "$dynamicRef", "$recursiveRef"}
)

#: The keywords of a schema applied to the item itself, whose subschemas apply to it too.
_APPLIED = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref")


@functools.cache
def _own_properties(kind: str, key: str) -> dict[str, Any] | None:
    """The properties of an item of the list ``key`` whose value only the item schema's own
    ``properties`` entry reads, each with that schema: not one any applied subschema (``allOf``,
    ``if``, a ``$ref``...) names in its ``properties``. None where a keyword may read values
    otherwise (``patternProperties``, ``additionalProperties`` with a schema,
    ``unevaluatedProperties``, ``dependentSchemas``, ``const`` or ``enum`` of the item,
    ``$dynamicRef``, a ``$ref`` out of ``$defs``)."""
    root = _item_validator(kind, (key,)).schema
    if not isinstance(root, dict) or not isinstance(root.get("properties"), dict):
        return None
    named: set[str] = set()
    seen: set[int] = set()

    def applied(node: Any, own: bool) -> bool:
        """False when a keyword of ``node``, applied to the item, may read a value otherwise."""
        if isinstance(node, bool):
            return True
        if not isinstance(node, dict):
            return False
        if id(node) in seen:
            return True
        seen.add(id(node))
        for word, value in node.items():
            if word == "properties" and not own:
                named.update(value)
            elif word in _READS_VALUES or (word == "additionalProperties" and not isinstance(value, bool)):
                return False
            elif word == "$ref":
                if not isinstance(value, str) or not value.startswith("#/$defs/"):
                    return False
                target = root.get("$defs", {}).get(value[len("#/$defs/") :])
                if target is None or not applied(target, False):
                    return False
            elif word in ("allOf", "anyOf", "oneOf"):
                if not isinstance(value, list) or not all(applied(branch, False) for branch in value):
                    return False
            elif word in _APPLIED and not applied(value, False):
                return False
        return True

    if not applied(root, True):
        return None
    own = {}
    for name, node in root["properties"].items():
        if name in named:
            continue
        # What a `$ref` beside annotations names is its schema: judged without looking it up each time.
        for _ in range(8):
            ref = node.get("$ref") if isinstance(node, dict) else None
            target = root.get("$defs", {}).get(ref[len("#/$defs/") :]) if isinstance(ref, str) else None
            if not (isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(target, dict)):
                break
            if not all(_annotation(word) for word in node if word != "$ref"):
                break
            node = target
        own[name] = node
    return own


@functools.cache
def _most_keys(kind: str, key: str) -> int | None:
    """The most keys an item of the top-level list ``key`` may hold: its schema's properties where
    it allows no other key (None: no such bound)."""
    schema = load_schema(kind)
    node = _parts(kind)[key]
    item = _deref(schema, node["items"]) if node is not None else None
    if not isinstance(item, dict) or item.get("additionalProperties") is not False or "patternProperties" in item:
        return None
    return len(item.get("properties", {}))


def _written_at(
    schema: dict[str, Any], parts: Mapping[str, dict[str, Any] | None], path: list[Any]
) -> tuple[int, ...] | None:
    """Where the keyword at the start of the schema path ``path`` of a file's schema is written, as
    jsonschema meets the keywords: the top-level keyword's place, and under `properties` the
    property's and (in a list of :func:`_parts`) its keyword's. None: not written there."""
    head = "if" if path and path[0] in ("then", "else") else (path[0] if path else None)
    words = list(schema)
    if head not in words or "$ref" in words or "$dynamicRef" in words:
        return None  # a `$ref`'s errors have the paths of the schema it names
    if head != "properties":
        return (words.index(head),)
    names = list(schema.get("properties", {}))
    if len(path) < 2 or path[1] not in names:
        return None
    node = parts.get(path[1])
    if node is None:
        return (words.index(head), names.index(path[1]), 0)
    inner = list(node)
    if len(path) < 3 or path[2] not in inner:
        return None
    return (words.index(head), names.index(path[1]), inner.index(path[2]))


@functools.cache
def _parts(kind: str) -> dict[str, dict[str, Any] | None]:
    """The top-level values of files of ``kind`` judged apart (:func:`_item_wise_diagnostics`), in the
    order the schema writes them: each list whose items only its own ``items`` judges, with its
    schema (its items are judged one by one; whatever else looks at the list, such as a rule
    index's conditional `maxItems`, looks at its length); every other value, None (judged whole).
    Not a value whose schema is a `$ref` beside other keywords (the two are one), nor a list whose
    items `prefixItems` or `unevaluatedItems` also judge."""
    if _fast_validator(kind) is None:
        return {}
    schema = load_schema(kind)
    found: dict[str, dict[str, Any] | None] = {}
    for key, node in schema.get("properties", {}).items():
        while isinstance(node, dict) and "$ref" in node and all(_annotation(word) for word in node if word != "$ref"):
            node = _deref(schema, {"$ref": node["$ref"]}) if str(node["$ref"]).startswith("#/$defs/") else None
        if not isinstance(node, dict) or "$ref" in node:
            continue
        listed = (
            node.get("type") == "array"
            and isinstance(node.get("items"), dict)
            and not {"prefixItems", "unevaluatedItems"} & set(node)
        )
        found[key] = node if listed else None
    return found


def _annotation(word: str) -> bool:
    """Whether a schema keyword says nothing of a value (a description, or an `x-` extension)."""
    return word in ("description", "title", "$comment", "default", "examples") or word.startswith("x-")


#: The annotation under which :func:`_shell_validator` keeps a property's schema as written.
_AS_WRITTEN = "x-civrules-as-written"


@functools.cache
def _shell_validator(kind: str) -> Any:
    """A validator of files of ``kind`` that judges everything but the parts :func:`_parts` names:
    a list's items, and the whole of each other value. What the diagnostics read of the schema
    is kept: each property's schema as written, under :data:`_AS_WRITTEN` (a missing key's hint
    says what the property is and what to write in it), and a list's own schema, where a `$ref`
    names it, under a `$ref` (a wrong length's hint)."""
    schema = load_schema(kind)
    properties: dict[str, Any] = dict(schema.get("properties", {}))
    definitions: dict[str, Any] = dict(schema.get("$defs", {}))
    for key, node in _parts(kind).items():
        written = properties[key]
        notes = {word: value for word, value in written.items() if _annotation(word)}
        notes[_AS_WRITTEN] = written
        if node is None:
            properties[key] = notes  # annotations only: any value passes
            continue
        listed = {word: value for word, value in node.items() if word != "items"}
        if written is node:
            properties[key] = listed
        else:
            name = f"civrules-without-items-{key}"
            definitions[name] = listed
            properties[key] = {**notes, "$ref": f"#/$defs/{name}"}
    return _validator_class()({**schema, "properties": properties, "$defs": definitions})


def items_keep_valid(kind: str, document: Document, path: tuple[str, ...], first: int, count: int) -> bool:
    """Whether ``document``, valid against its kind's schema before items ``first`` to
    ``first + count - 1`` of its list at ``path`` were read again (an edit spliced, see
    :mod:`civrules.load.splice`), is still valid: True only when the schema judges that list item
    by item (nothing of the list as a whole, nothing at the top that looks into it) and each new
    item passes the compiled validator of an element. False says nothing: validate the document.
    """
    if kind.rpartition("/")[2] == "ruleset" or document.whole_floats or len(path) != 1:
        return False
    (key,) = path
    node = _judged_by_item(kind, key)
    fast = _fast_item_validator(kind, (key,))
    items = document.data.get(key) if isinstance(document.data, dict) else None
    if node is None or fast is None or not isinstance(items, list):
        return False
    if not node.get("minItems", 0) <= len(items) <= node.get("maxItems", len(items)):
        return False
    # What the file's top-level condition asks of each item: its `if` looks at no list, so it
    # holds of the new reading as of the old one, valid, and its branch judges the items alone.
    conditioned = _conditional_items(kind, key)
    assert conditioned is not None  # _judged_by_item found it so
    branch: Any = None
    if conditioned:
        condition, then, otherwise = conditioned
        branch = then if _holds(condition, document.data) else otherwise
    return all(
        _passes(fast, item) and (branch is None or _holds(branch, item)) for item in items[first : first + count]
    )


#: What a list's schema may say for its elements to be judged one by one (annotations aside).
_ITEM_BY_ITEM = frozenset(
    {"type", "items", "minItems", "maxItems", "description", "title", "$comment", "default", "examples"}
)
#: Keywords at a schema's top that may look into one of its properties' values.
_LOOKING_IN = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "unevaluatedProperties")


@functools.cache
def _judged_by_item(kind: str, key: str) -> dict[str, Any] | None:
    """The schema of the top-level list ``key`` in files of ``kind`` when it judges the list
    element by element only (and its length), and nothing else in the schema looks at it, else
    None: of the lists :func:`_parts` judges item by item, those whose new items alone decide."""
    node = _parts(kind).get(key)
    if node is None:
        return None
    schema = load_schema(kind)
    if any(word not in _ITEM_BY_ITEM and not word.startswith("x-") for word in node):
        return None
    quoted = json.dumps(key)
    if any(quoted in json.dumps(schema[word]) for word in _LOOKING_IN if word in schema and word not in _CONDITION):
        return None
    if _conditional_items(kind, key) is None:
        return None
    if any(_pattern(pattern).search(key) for pattern in schema.get("patternProperties", {})):
        return None  # the pattern's schema judges the list too
    found: dict[str, Any] = node
    return found


#: The keywords of a top-level condition (:func:`_conditional_items`).
_CONDITION = ("if", "then", "else")
#: What a schema :func:`_holds` may say: which keys a mapping has, and the logic over such schemas.
_PRESENCE = frozenset({"required", "not", "anyOf", "allOf", "oneOf"})


@functools.cache
def _conditional_items(kind: str, key: str) -> tuple[Any, ...] | None:
    """What the top-level `if`/`then`/`else` of files of ``kind`` asks of each item of the list
    ``key``: ``()`` where it asks nothing (it names no such list, or there is none); ``(if, then,
    else)`` where `if` asks only which keys the file has (:func:`_holds`: no list's items can
    change it) and each branch asks only which keys each item of ``key`` has (the branch's schema
    of an item, or None); None where the condition may look into the list otherwise (the
    file is then judged whole after an edit of its items). A map file that cites no source for its
    areas has each area cite its own: `if` the file has no `rule` nor `source`, `then` each area
    has one."""
    schema = load_schema(kind)
    written = {word: schema[word] for word in _CONDITION if word in schema}
    quoted = json.dumps(key)
    if not any(quoted in json.dumps(part) for part in written.values()):
        return ()
    condition = written.get("if")
    if condition is None or not _presence_only(condition):
        return None
    branches: list[Any] = []
    for word in ("then", "else"):
        branch = written.get(word)
        if branch is None or quoted not in json.dumps(branch):
            if branch is not None and not _presence_only(branch):
                return None  # a branch that asks of the file more than which keys it has
            branches.append(None)
            continue
        if not isinstance(branch, dict) or any(word != "properties" and not _annotation(word) for word in branch):
            return None
        properties = branch.get("properties")
        listed = properties.get(key) if isinstance(properties, dict) and list(properties) == [key] else None
        if not isinstance(listed, dict) or any(word != "items" and not _annotation(word) for word in listed):
            return None
        items = listed.get("items")
        if not _presence_only(items):
            return None
        branches.append(items)
    return (condition, *branches)


def _presence_only(schema: Any) -> bool:
    """Whether ``schema`` asks nothing but which keys a mapping has (`required`, combined with
    `not`, `anyOf`, `allOf`, `oneOf`; annotations aside): what :func:`_holds` decides."""
    if not isinstance(schema, dict):
        return False
    for word, value in schema.items():
        if _annotation(word):
            continue
        if word not in _PRESENCE:
            return False
        if word == "required":
            if not isinstance(value, list) or not all(isinstance(one, str) for one in value):
                return False
        elif word == "not":
            if not _presence_only(value):
                return False
        elif not isinstance(value, list) or not value or not all(_presence_only(one) for one in value):
            return False
    return True


def _holds(schema: Any, data: Any) -> bool:
    """Whether ``data`` passes ``schema``, one :func:`_presence_only` says it can decide: as JSON
    Schema has it, `required` holds of any value that is not a mapping."""
    for word, value in schema.items():
        if word == "required":
            if isinstance(data, dict) and not all(one in data for one in value):
                return False
        elif word == "not":
            if _holds(value, data):
                return False
        elif word == "anyOf":
            if not any(_holds(one, data) for one in value):
                return False
        elif word == "allOf":
            if not all(_holds(one, data) for one in value):
                return False
        elif word == "oneOf" and sum(_holds(one, data) for one in value) != 1:
            return False
    return True


@functools.cache
def _item_validator(kind: str, list_path: tuple[str, ...]) -> Any:
    """A validator for one element of the list at ``list_path`` in files of ``kind``."""
    schema = load_schema(kind)
    node: Any = schema
    for part in list_path:
        node = _deref(schema, node)["properties"][part]
    item = _deref(schema, _deref(schema, node)["items"])
    return _validator_class()({**item, "$defs": schema.get("$defs", {})})


def entity_errors(kind: str, list_path: tuple[str, ...], data: Any) -> Counter[ErrorMark]:
    """Where one element of the list at ``list_path`` in files of ``kind`` breaks its schema, and
    the keyword it breaks (within one of several shapes, the shape that explains it), counted (see
    :func:`error_marks`): what a hint that writes a change checks the change against before it
    offers it (`after <= before`: the change adds no error)."""
    validator = _item_validator(kind, list_path)
    return error_marks(e for top in _released(validator.iter_errors(data)) for e in _expand(top))


def setting_errors(kind: str, key: str, data: Any) -> Counter[ErrorMark]:
    """:func:`entity_errors` of the setting ``key`` (a top-level value of a file of ``kind``): what
    a hint that writes a change of a setting checks it against before it offers it. A key the
    schema does not describe breaks it wherever it is (one mark)."""
    if key not in load_schema(kind).get("properties", {}):
        return Counter({((), "properties", (), key): 1})
    validator = _property_validator(kind, key)
    return error_marks(e for top in _released(validator.iter_errors(data)) for e in _expand(top))


#: What tells one schema error from another of the same keyword at the same place: the path of
#: its value, the keyword, the keyword's place in the schema and, for a missing key, the key.
ErrorMark = tuple[NodePath, str, tuple[str | int, ...], str]


def error_marks(errors: Iterable[ValidationError]) -> Counter[ErrorMark]:
    """``errors`` by their :data:`ErrorMark`, counted. A set of (path, keyword) pairs lost every
    error but one of a keyword at one place: a mapping missing `tie` and `rule` and then
    `deadline` too had no more `required` errors than before, so a hint that compared them
    took a required field for one that may be left out, and offered a change that broke it."""
    return Counter(
        (
            tuple(e.absolute_path),
            str(e.validator),
            tuple(e.relative_schema_path),
            # A missing key's message names the key, never the mapping (which the change alters).
            e.message if e.validator in ("required", "dependentRequired") else "",
        )
        for e in errors
    )


@functools.cache
def _fast_item_validator(kind: str, list_path: tuple[str, ...]) -> Callable[[Any], Any] | None:
    """The compiled validator of one element of the list at ``list_path`` in files of ``kind``: the
    function fastjsonschema generated for the `$defs` entry its `items` names, inside the kind's
    shipped fast validator (see :func:`_fast_validator`); None when there is none."""
    import importlib

    if _fast_validator(kind) is None:
        return None
    schema = load_schema(kind)
    node: Any = schema
    try:
        for part in list_path:
            node = _deref(schema, node)["properties"][part]
        items = _deref(schema, node)["items"]
    except (KeyError, TypeError):
        return None
    ref = items.get("$ref") if isinstance(items, dict) and len(items) == 1 else None
    if not isinstance(ref, str) or not ref.startswith("#/$defs/") or "/" in ref[len("#/$defs/") :]:
        return None
    module = importlib.import_module(f"civrules._generated.validators.{validator_module(kind)}")
    function = getattr(module, f"{module.validate.__name__}___defs_{re.sub(r'[^A-Za-z0-9_]', '_', ref[8:])}", None)
    return function if callable(function) else None


@functools.cache
def _fast_wrapped_validator(kind: str, list_path: tuple[str, ...], whole: bool = False) -> Callable[[Any], Any] | None:
    """Where a kind's list writes its items inline (no `$defs` entry, so no function of their own):
    the kind's whole compiled validator, given a file holding only that one element (``whole``:
    only that value, at ``list_path``) (None: no compiled validator). Its passing proves the element
    valid (every element of the list is held to the items' schema); its failing may be the file
    around it, so the caller judges the element again with jsonschema, which is then imported
    (what this spares on a clean run)."""
    validator = _fast_validator(kind)
    if validator is None:
        return None
    family, _, declared = kind.rpartition("/")
    # A manifest's list is held in the smallest manifest there is: a variant's (of its family).
    around: dict[str, Any] = {"kind": declared}
    if declared == "ruleset":
        around.update({"id": "a", "name": "a", "extends": "b", **({"family": family} if family else {})})

    def validate(data: Any) -> Any:
        wrapped: Any = data if whole else [data]
        for part in reversed(list_path):
            wrapped = {part: wrapped}
        return validator({**around, **wrapped})

    return validate


def _passes(validate: Callable[[Any], Any], data: Any) -> bool:
    from fastjsonschema import JsonSchemaException

    try:
        validate(data)
    except JsonSchemaException:
        return False
    return True


def _whole_floats(data: Any) -> bool:
    """Whether ``data`` holds a float with no fractional part (fastjsonschema takes it for an integer)."""
    if isinstance(data, float):
        return data.is_integer()
    if isinstance(data, dict):
        return any(_whole_floats(value) for value in data.values())
    if isinstance(data, list):
        return any(_whole_floats(value) for value in data)
    return False


def _deref(schema: dict[str, Any], node: Any) -> Any:
    """``node``, its `$ref`s into ``schema``'s `$defs` followed; a `$ref` the schema does not define
    (one a derived validator's schema made) is where it stops."""
    while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/$defs/"):
        found = schema.get("$defs", {}).get(node["$ref"][len("#/$defs/") :])
        if found is None:
            break
        node = found
    return node


def entity_passes_fast(kind: str, list_path: tuple[str, ...], data: Any) -> bool | None:
    """Whether the compiled validator finds one collection element valid; None where it cannot
    judge it (no compiled validator for the list, or whole floats, which it takes for integers)."""
    fast = _fast_item_validator(kind, list_path) or _fast_wrapped_validator(kind, list_path)
    if fast is None or _whole_floats(data):
        return None
    return _passes(fast, data)


def validate_entity(
    kind: str,
    list_path: tuple[str, ...],
    data: Any,
    locate: Callable[[NodePath], tuple[Document, NodePath]],
    base: Span | None = None,
) -> list[Diagnostic]:
    """Validate one collection element that an overlay added, replaced or patched.

    ``locate`` maps a path inside the element to the document and the path in it where that part
    was written (the overlay for what it set, the base for the rest); ``base`` is the base's
    definition, named in a note of every diagnostic located in the overlay.
    """
    try:
        key: tuple[str, tuple[str, ...], str] | None = (kind, list_path, json.dumps(data, sort_keys=True))
    except (TypeError, ValueError):  # pragma: no cover - loaded data is always JSON's
        key = None
    if key is not None and key in _VALID_ENTITIES:
        return []
    fast = _fast_item_validator(kind, list_path) or _fast_wrapped_validator(kind, list_path)
    if fast is not None and not _whole_floats(data) and _passes(fast, data):
        return []  # most added entities are valid: the compiled code says so ~20x faster
    found = _validate_part(_item_validator(kind, list_path), data, locate, base)
    if not found and key is not None:
        if len(_VALID_ENTITIES) >= 10_000:
            _VALID_ENTITIES.clear()
        _VALID_ENTITIES.add(key)
    return found


def validate_setting(
    kind: str,
    key: str,
    data: Any,
    locate: Callable[[NodePath], tuple[Document, NodePath]],
    base: Span | None = None,
) -> list[Diagnostic]:
    """Validate one setting (a top-level value of a file of ``kind``) that a variant changed.

    The compiled validator answers first, given a file holding only that setting: most changed
    settings are valid, and jsonschema is imported only for one it rejects (a clean run of a
    variant that patches a setting imports none)."""
    fast = _fast_wrapped_validator(kind, (key,), whole=True)
    if fast is not None and not _whole_floats(data) and _passes(fast, data):
        return []
    return _validate_part(_property_validator(kind, key), data, locate, base)


@functools.cache
def setting_items_cite(kind: str, key: str, field: str) -> bool:
    """Whether the elements of the list ``field`` of the setting ``key`` (of a file of ``kind``)
    take a citation of their own (`rule:`, `source:`): a limit's bands per player count do."""
    schema = load_schema(kind)
    setting = _deref(schema, schema.get("properties", {}).get(key, {}))
    node = _deref(schema, setting.get("properties", {}).get(field, {})) if isinstance(setting, dict) else None
    items = _deref(schema, node.get("items", {})) if isinstance(node, dict) else None
    return isinstance(items, dict) and {"rule", "source"} <= set(items.get("properties", {}))


@functools.cache
def setting_citation_keys(kind: str, key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where the setting ``key`` (of a file of ``kind``) takes a citation (`rule:`, `source:`): the
    citation keys of its own mapping, and those of each element of it as a list; none where it
    has no such place (a list of ids; a number)."""
    schema = load_schema(kind)
    own: dict[str, None] = {}
    elements: dict[str, None] = {}
    stack = [schema.get("properties", {}).get(key, {})]
    seen: list[Any] = []
    while stack:
        node = _deref(schema, stack.pop())
        if not isinstance(node, dict) or any(node is other for other in seen):
            continue
        seen.append(node)
        stack.extend(alternative for word in ("oneOf", "anyOf", "allOf") for alternative in node.get(word, ()))
        own.update(dict.fromkeys(k for k in ("rule", "source") if k in node.get("properties", {})))
        items = _deref(schema, node.get("items"))
        if isinstance(items, dict):
            for alternative in (items, *(_deref(schema, a) for w in ("oneOf", "anyOf") for a in items.get(w, ()))):
                if isinstance(alternative, dict):
                    elements.update(
                        dict.fromkeys(k for k in ("rule", "source") if k in alternative.get("properties", {}))
                    )
    return tuple(own), tuple(elements)


@functools.cache
def entity_citation_keys(kind: str, list_path: tuple[str, ...]) -> tuple[str, ...]:
    """The citation keys (`rule:`, `source:`) an element of the list at ``list_path`` in files of
    ``kind`` takes (none where it takes none)."""
    schema = load_schema(kind)
    node: Any = schema
    for part in list_path:
        node = _deref(schema, node).get("properties", {}).get(part, {})
    item = _deref(schema, _deref(schema, node).get("items", {}))
    properties = item.get("properties", {}) if isinstance(item, dict) else {}
    return tuple(key for key in ("rule", "source") if key in properties)


@functools.cache
def _property_validator(kind: str, key: str) -> Any:
    schema = load_schema(kind)
    node = _deref(schema, schema["properties"][key])
    return _validator_class()({**node, "$defs": schema.get("$defs", {})})


def _validate_part(
    validator: Any,
    data: Any,
    locate: Callable[[NodePath], tuple[Document, NodePath]],
    base: Span | None,
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    defs: Mapping[str, Any] = validator.schema.get("$defs", {})
    # Within "a value or {unknown: why}", the branch that explains the mistake is located by its
    # own path: a wrong value inside a patch is the variant's line, not the base's.
    for error in (inner for top in _released(validator.iter_errors(data)) for inner in _expand(top)):
        sub: NodePath = tuple(error.absolute_path)
        document, written = locate(sub)
        instance, schema = error.instance, error.schema if isinstance(error.schema, dict) else {}
        if error.validator == "additionalProperties" and isinstance(instance, dict):
            # Each unknown key where it was written: a misspelt key of a patch is in the variant.
            for key in instance:
                owner, at = locate((*sub, key))
                found.extend(_unknown_key(owner, at[:-1], key, schema, mapping=instance))
            continue
        if error.validator == "required" and isinstance(instance, dict):
            deleted = []
            required: Any = error.validator_value
            for key in required:
                owner, at = locate((*sub, key))
                if key not in instance and (owner is not document or at[:-1] != written) and _deleted(owner, at):
                    deleted.append(key)
                    found.append(
                        _diag(
                            codes.MISSING_KEY,
                            f"`{key}` is required{_where(at[:-1])}: this patch deletes it",
                            owner.key_span(at),
                            "keep the field (remove the `null`), or `replace` the whole entry",
                            subjects=(key,),
                        )
                    )
            if deleted:
                continue
        if isinstance(instance, dict) and error.validator in ("oneOf", "anyOf", "not"):
            # A mapping two writers made (a base's `by_count`, a variant's `per_player`) is
            # wrong because of the change: reported where the change was written, saying what the
            # base gives, never in the base, which the designer cannot edit.
            given, change = _writers(locate, sub, _keys_concerned(error, instance), document, written)
            if change is not None:
                document, written = change
                if error.validator == "oneOf" and not error.context:
                    found.append(_several_forms(document, error, written, defs, given))
                    continue
        conditioned = _conditioned_by_the_change(validator.schema, error, sub, locate, document)
        if conditioned is not None:
            found.append(conditioned)
            continue
        # The error's path (and the deeper ones of its branches) counted from where `sub` was written.
        translated = _translate(document, error, written, len(sub), defs)
        emptied = _emptied_hint(validator, data, error, sub, document, written)
        found.extend(replace(d, hint=emptied) for d in translated) if emptied else found.extend(translated)
    unique = list(dict.fromkeys(found))
    if base is None:
        return unique
    note = Related(base, "the base definition", at_base=True)
    return [replace(d, related=(*d.related, note)) if d.span and d.span.file != base.file else d for d in unique]


def _conditioned_by_the_change(
    schema: Mapping[str, Any],
    error: ValidationError,
    sub: NodePath,
    locate: Callable[[NodePath], tuple[Document, NodePath]],
    written: Document,
) -> Diagnostic | None:
    """S003 at a patch's key for a base's value that an `if`/`then` of the schema refuses because
    of that key (a variant's `open: false` for an item whose base writes `lit: true`): the
    value the condition asks for is written in the patch, not in the base's file, which the
    designer cannot edit. None where the error is not a `const` or `enum` of a `then`, or its
    condition's keys were written where the value was."""
    path = list(error.relative_schema_path)
    if error.validator not in ("const", "enum") or not sub or not isinstance(sub[-1], str):
        return None
    if len(path) < 4 or path[-4] not in ("then", "else") or path[-3] != "properties" or path[-2] != sub[-1]:
        return None
    node: Any = schema
    for part in path[:-4]:
        keyed = isinstance(node, dict) and part in node
        node = node[part] if keyed or (isinstance(node, list) and isinstance(part, int)) else None
    condition = node.get("if") if isinstance(node, dict) else None
    keys = [k for k in (condition.get("properties", {}) if isinstance(condition, dict) else {}) if isinstance(k, str)]
    changed = [(key, *locate((*sub[:-1], key))) for key in keys]
    changed = [(key, owner, at) for key, owner, at in changed if owner is not written and owner.has_key(at)]
    if not changed:
        return None
    key, owner, at = changed[0]
    value: Any = error.validator_value
    allowed = [value] if error.validator == "const" else list(value)
    field = sub[-1]
    why = node.get("description") if isinstance(node.get("description"), str) else None
    why = why.rstrip(".") if why else None
    there = locate(sub)
    ways = " or ".join(f"`{field}: {json.dumps(value)}`" for value in allowed)
    told = _diag(
        codes.BAD_ENUM,
        f"`{field}: {json.dumps(error.instance)}`, as the base gives it, does not fit "
        f"`{key}: {json.dumps(_node_of(owner, at))}` written here" + (f": {why[0].lower()}{why[1:]}" if why else ""),
        owner.key_span(at),
        f"write {ways} in this patch beside `{key}`",
        subjects=(field, key),
    )
    return replace(told, related=(Related(there[0].span(there[1]), "the base's value", at_base=True),))


def _condition_of(error: ValidationError, schemas: tuple[Any, ...]) -> tuple[Mapping[str, Any], str] | None:
    """The schema node whose `if`/`then` (or `else`) holds the `const` or `enum` ``error`` failed,
    with the branch's name: found by identity, as jsonschema hands the subschema itself over."""
    relative = list(error.relative_schema_path)
    if len(relative) < 4 or relative[-4] not in ("then", "else") or relative[-3] != "properties":
        return None
    branch, field = str(relative[-4]), relative[-2]
    stack: list[Any] = [s for s in schemas if s is not None]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            taken = node.get(branch)
            if (
                isinstance(node.get("if"), dict)
                and isinstance(taken, dict)
                and isinstance(taken.get("properties"), dict)
                and taken["properties"].get(field) is error.schema
            ):
                return node, branch
            stack.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return None


def _conditioned_here(
    document: Document, error: ValidationError, path: NodePath, allowed: list[Any], schemas: tuple[Any, ...]
) -> Diagnostic | None:
    """S003 for a value an `if`/`then` of the schema refuses because of another key of the same
    mapping, written in the same file (`lit: true` beside `open: false`): the message names
    that key and the schema's reason, the hint the two ways out, and a note points at the key. None
    where the error is not of a `then`'s `const`/`enum`, or the condition's keys are not written."""
    if not path or not isinstance(path[-1], str):
        return None
    found = _condition_of(error, schemas)
    if found is None:
        return None
    node, _ = found
    condition = node["if"]
    mapping = _node_of(document, path[:-1])
    if not isinstance(mapping, dict):
        return None
    keys = [k for k in condition.get("properties", {}) if isinstance(k, str) and k in mapping and k != path[-1]]
    if not keys:
        return None
    field = path[-1]
    written = ", ".join(f"`{key}: {json.dumps(mapping[key])}`" for key in keys)
    why = node.get("description") if isinstance(node.get("description"), str) else None
    why = why.rstrip(".") if why else None
    ways = " or ".join(f"`{field}: {json.dumps(value)}`" for value in allowed)
    told = _diag(
        codes.BAD_ENUM,
        f"`{field}: {json.dumps(error.instance)}` does not fit {written}{_where(path[:-1])}"
        + (f": {why[0].lower()}{why[1:]}" if why else ""),
        document.span(path),
        f"write {ways} here, or change {written} if that is what is wrong",
        subjects=(field, *keys),
    )
    return replace(
        told,
        related=tuple(Related(document.key_span((*path[:-1], key)), f"the `{key}` it must fit") for key in keys),
    )


def _node_of(document: Document, at: NodePath) -> Any:
    """The value at ``at`` of ``document`` (None where there is none)."""
    node: Any = document.data
    for part in at:
        keyed = isinstance(node, dict) and part in node
        if not keyed and not (isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)):
            return None
        node = node[part]
    return node


def _deleted(document: Document, at: NodePath) -> bool:
    """Whether ``at`` of ``document`` is a key written `null` (a patch's deletion of the field):
    only then does the patch delete it (a key missing from a value the variant wrote whole, though
    the base has one at the same place, is missing there)."""
    node: Any = document.data
    for part in at:
        keyed = isinstance(node, dict) and isinstance(part, str) and part in node
        if not keyed and not (isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)):
            return False
        node = node[part]
    return node is None and document.has_key(at)


def _keys_concerned(error: ValidationError, instance: Mapping[str, Any]) -> list[str]:
    """The keys of ``instance`` the failed keyword of ``error`` names (a `oneOf`'s required keys),
    or all of them where it names none."""
    named: set[str] = set()
    for branch in error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]:
        if isinstance(branch, dict):
            named.update(str(k) for k in branch.get("required", ()))
            named.update(str(k) for k in branch.get("properties", {}))
    return [key for key in instance if key in named] or list(instance)


def _writers(
    locate: Callable[[NodePath], tuple[Document, NodePath]],
    sub: NodePath,
    keys: list[str],
    document: Document,
    written: NodePath,
) -> tuple[list[str], tuple[Document, NodePath] | None]:
    """Of ``keys`` of the mapping at ``sub`` (written at ``written`` of ``document``): those still
    where the mapping was written (the base's), and where the first of the others was written (the
    variant's change, as the document and the mapping's path in it; None if no key was changed)."""
    given: list[str] = []
    change: tuple[Document, NodePath] | None = None
    for key in keys:
        owner, at = locate((*sub, key))
        if owner is document and at[:-1] == written:
            given.append(key)
        elif change is None:
            change = (owner, at[:-1])
    return given, change


def _several_forms(
    document: Document, error: ValidationError, path: NodePath, defs: Mapping[str, Any], given: Iterable[str] = ()
) -> Diagnostic:
    """S001 for a mapping that matches more than one branch of a `oneOf`: for branches that each
    require keys (`per_player` or `by_count`), that those keys exclude each other, and which
    to delete; ``given``, the keys a base gives (the mapping is a variant's patch of it), deleted
    with `null` beside the patch's own."""
    value: Any = error.validator_value
    branches = [b for b in (value if isinstance(value, list) else ()) if isinstance(b, dict)]
    matched = [b for b in branches if _validator_class()({**b, "$defs": defs}).is_valid(error.instance)]
    groups = [[str(k) for k in b["required"]] for b in matched if _adds_requirements(b) and b.get("required")]
    where = _where(path)
    if len(groups) < 2 or len(groups) != len(matched):
        hint = accepted.write_hint({"oneOf": branches}, defs)
        return _diag(
            codes.SCHEMA_VIOLATION,
            f"{_show(error.instance)} matches more than one of the allowed forms{where}: it must match exactly one",
            _head(document, path),
            f"{hint}, only one of them" if hint else None,
            subjects=_about(path, error.instance),
        )
    shown = [_conjoined([f"`{k}`" for k in group]) for group in groups]
    message = (
        f"{' and '.join(shown)} exclude each other{where}"
        if all(len(group) == 1 for group in groups)
        else f"{shown[0]} exclude {_conjoined(shown[1:])}{where}"
    )
    kept = set(given)
    based = [group for group in groups if set(group) <= kept]
    if based and len(based) < len(groups):
        deleted = [k for group in based for k in group]
        own = [k for group in groups if group not in based for k in group]
        nulls = ", ".join(f"`{k}: null`" for k in deleted)
        beside = _conjoined([f"`{k}`" for k in own])
        if path and path[0] != "overlay":
            # A setting a variant restates outside `overlay:` merges into the base's, but the
            # manifest's schema refuses its `null`: only an overlay's patch can delete.
            hint = (
                f"a setting written outside `overlay:` cannot delete the base's fields: move `{path[0]}` under "
                f"`overlay:` `settings:`, and there add {nulls} beside {beside}"
            )
        else:
            hint = f"add {nulls} beside {beside}: a patch deletes the base's field with `null`"
        return _diag(
            codes.SCHEMA_VIOLATION,
            f"{message}: the base gives {_conjoined([f'`{k}`' for k in deleted])}",
            _head(document, path),
            hint,
            subjects=(*_about(path), *deleted),
        )
    return _diag(
        codes.SCHEMA_VIOLATION,
        message,
        _head(document, path),
        f"keep one of them: delete {' or '.join(shown)}",
        subjects=_about(path),
    )


def _conjoined(items: list[str]) -> str:
    """``items`` as prose: `a`, `a and b`, `a, b and c`."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def _emptied_hint(
    validator: Any, data: Any, error: ValidationError, sub: NodePath, document: Document, written: NodePath
) -> str | None:
    """The hint for an optional field a variant's overlay leaves empty (`events: []`, or a list
    operation that removes its only element) where the schema wants at least one item: a patch
    deletes the field with `null` (merge-patch), an `add` or a `replace` leaves it out. None for
    any other error, a field that is required, or one not written in an overlay."""
    empty = (error.validator == "minItems" and error.instance == []) or (
        error.validator == "minProperties" and error.instance == {}
    )
    if not empty or not sub or not isinstance(sub[-1], str) or not _optional(validator, data, sub):
        return None
    field, what = sub[-1], "list" if isinstance(error.instance, list) else "mapping"
    merged = _merged_at(document, written)
    if merged is None:
        return None
    if merged:
        return f"a patch deletes a field with `null`: write `{field}: null` (an empty {what} is not allowed here)"
    unit = "item" if what == "list" else "key"
    return f"leave out `{field}` (an empty {what} is not allowed here), or write a {what} of at least 1 {unit}"


def _optional(validator: Any, data: Any, sub: NodePath) -> bool:
    """Whether the field at ``sub`` of ``data`` may be left out: without it, the mappings that hold
    it have no error they did not have already."""
    import copy

    pruned = copy.deepcopy(data)
    holder = pruned
    for part in sub[:-1]:
        holder = holder[part]
    if not isinstance(holder, dict):
        return False
    del holder[sub[-1]]

    def around(candidate: Any) -> Counter[ErrorMark]:
        errors = _released(validator.iter_errors(candidate))
        return error_marks(
            e for e in errors if (path := tuple(e.absolute_path)) == sub[: len(path)] and len(path) < len(sub)
        )

    # Counted, each missing key its own: a second missing key of a mapping that already misses one
    # is an error it did not have (:func:`error_marks`).
    return around(pruned) <= around(data)


def _merged_at(document: Document, written: NodePath) -> bool | None:
    """Whether the value at ``written`` of a manifest's `overlay` is merged into the base's (a
    patch, where `null` deletes a field), or written whole (an `add`, a `replace`, a list
    operation's `replace` or `insert`); None outside an overlay."""
    data = document.data
    if not isinstance(data, dict) or data.get("kind") != "ruleset" or len(written) < 3 or written[0] != "overlay":
        return None
    # A setting named under `overlay.settings` is patched; a collection's entities by its `patch`.
    merged = written[2] not in ("add", "replace", "remove") if written[1] == "settings" else written[2] == "patch"
    for at in range(3, len(written) - 1):
        operation, index, part = (*written[at : at + 3], None)[:3]
        if not isinstance(index, int):
            continue
        if (operation, part) == ("patch", "with"):
            merged = True
        elif (operation, part) in (("replace", "with"), ("insert", "items")) or operation == "append":
            merged = False
    return merged


#: Entities found valid, by kind, list and content: a long-lived session (`civrules lsp`) that
#: resolves a variant again after an edit elsewhere validates only the entities that changed.
_VALID_ENTITIES: set[tuple[str, tuple[str, ...], str]] = set()


def _translate(
    document: Document,
    error: ValidationError,
    prefix: NodePath = (),
    strip: int = 0,
    defs: Mapping[str, Any] | None = None,
    root: Mapping[str, Any] | None = None,
) -> Iterator[Diagnostic]:
    """The diagnostics of ``error``, its path read after ``prefix`` (less its first ``strip`` parts,
    which ``prefix`` already holds as written: a list operation's `with:` for an element's index);
    ``defs``, the `$defs` of the schema, name the forms a hint says to write."""
    defs = defs if defs is not None else {}
    stranger = _no_shape_knows(error)
    if stranger is not None:
        at: NodePath = (*prefix, *tuple(error.absolute_path)[strip:])
        yield _diag(
            codes.SCHEMA_VIOLATION, f"{stranger[0]}{_where(at)}", _head(document, at), stranger[1], subjects=_about(at)
        )
        return
    if error.validator in ("oneOf", "anyOf") and error.context:
        chosen = _branch_errors(error)
        if chosen:
            for inner in chosen:
                yield from _translate(document, inner, prefix, strip, defs, root)
            return
    path: NodePath = (*prefix, *tuple(error.absolute_path)[strip:])
    if error.validator == "oneOf" and not error.context and isinstance(error.validator_value, list):
        if not _fits_type(error.schema, error.instance):
            # A value of the wrong type (`9` where a mapping belongs) matches every form that only
            # names keys it must hold: its type's error says what to write, once.
            return
        yield _several_forms(document, error, path, defs)  # no branch failed: more than one matched
        return
    instance = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    keyword = error.validator
    expected: Any = error.validator_value
    if keyword == "additionalProperties" and isinstance(instance, dict):
        for key in instance:
            yield from _unknown_key(document, path, key, schema, root, instance)
        return
    if keyword == "required" and isinstance(instance, dict) and MERGE_KEY in instance:
        return  # what the merge key was meant to bring in: one diagnostic, at the `<<` (S002)
    if keyword == "required" and isinstance(instance, dict) and _citation_missing(error):
        yield _diag(
            codes.MISSING_KEY,
            f"missing key `rule` (or `source`){_where(path)}",
            _head(document, path),
            _cite(error),
            subjects=("rule", "source"),
        )
        return
    if keyword == "required" and isinstance(instance, dict):
        missing = [key for key in expected if key not in instance]
        # A misspelt key shows up twice (unknown `cots`, missing `cost`): keep only the unknown key,
        # whose hint names the fix. Inside a oneOf only one of the two errors is translated (the
        # best branch's best error), so the unknown key is reported from here as well; the
        # duplicate this makes outside a oneOf is dropped by the callers.
        known = schema.get("properties", {})
        strays = Vocabulary(key for key in instance if key not in known)
        for key in missing:
            # ... or the key is written longer (`all_items:` for `items:`): the same
            longer = (
                stray for stray in instance if stray not in known and _stands_for(stray, instance, schema, root) == key
            )
            close = strays.closest(key) or next(longer, None)
            if close is not None:
                if schema.get("additionalProperties") is False:
                    yield from _unknown_key(document, path, close, schema, root, instance)
                continue
            yield _diag(
                codes.MISSING_KEY,
                f"missing key `{key}`{_where(path)}",
                _head(document, path),
                _field_hint(schema, key, defs)
                or _field_hint(_object_schema(root, defs, path), key, defs)
                or _one_of_the_forms(error),
                subjects=(key,),
            )
        return
    if keyword in ("enum", "const"):
        allowed_values = expected if keyword == "enum" else [expected]
        # A key's name judged (`propertyNames`): the error's path is its mapping's, so the caret
        # goes under the key itself, not the mapping's first line.
        span = (
            document.key_span((*path, instance))
            if tuple(error.relative_schema_path)[-2:-1] == ("propertyNames",)
            and isinstance(instance, str)
            and document.has_key((*path, instance))
            else document.span(path)
        )
        elsewhere = (
            _placement_hint(document, path, instance, root, [str(v) for v in allowed_values])
            if isinstance(instance, str)
            else None
        )
        if elsewhere is not None:
            # A right key at the wrong level, or under an empty key: no "did you mean".
            yield _diag(
                codes.BAD_ENUM,
                f"{_show(instance)} is not an allowed value{_where(path)}",
                span,
                elsewhere,
                subjects=_about(path, instance),
            )
            return
        conditioned = _conditioned_here(document, error, path, allowed_values, (root, defs))
        if conditioned is not None:
            yield conditioned
            return
        hint = (
            _did_you_mean(str(instance), [str(v) for v in allowed_values])
            or f"use one of: {', '.join(_show(v) for v in allowed_values)}"
        )
        yield _diag(
            codes.BAD_ENUM,
            f"{_show(instance)} is not an allowed value{_where(path)}",
            span,
            hint,
            _closest(str(instance), [str(v) for v in allowed_values]) if isinstance(instance, str) else None,
            subjects=_about(path, instance),
        )
        return
    repeat = _first_repeat_at(instance) if keyword == "uniqueItems" and isinstance(instance, list) else None
    example = _id_example(instance, str(expected)) if keyword == "pattern" and isinstance(instance, str) else None
    if keyword == "pattern" and expected == CODE_PATTERN and isinstance(instance, str):
        # A misspelt code (a `suppress:` entry's): the one code its "did you mean" proposes.
        from civrules.families.code_hints import CodeHints

        example = CodeHints(_family_id(document)).meant(instance)
    told = _hint(error, defs, _family_id(document))
    if example is not None and _sibling_has(document.data, path, example):
        told = f"`{example}` is the id of another entry of this list already: give this one an id of its own"
        example = None
    yield _diag(
        codes.SCHEMA_VIOLATION,
        _message(error, path),
        # a repeated item is told at the repeat, the entry to delete, not at the list's first one
        document.span(path if repeat is None else (*path, repeat)),
        told,
        # the id its hint proposes: a resolution that knows the ruleset's ids says whether it is taken
        example,
        subjects=_about(path, error.instance),
    )


def _family_id(document: Document) -> str | None:
    """The family a manifest names (or the default one), whose codes its `suppress:` entries mean
    first; None for any other file, or a family not installed."""
    data = document.data
    if not isinstance(data, dict) or data.get("kind") != "ruleset":
        return None
    named = data.get("family", default_family().id)
    return named if isinstance(named, str) and named in families() else None


#: YAML 1.1's merge key: read as a plain key (YAML 1.2 has none), never merged.
MERGE_KEY = "<<"

#: The schemas' pattern of a diagnostic code (a variant's `suppress:` entry's `code`).
CODE_PATTERN = "^[A-Z][0-9]{3}$"


def _citation_missing(error: ValidationError) -> bool:
    """True for the error of "cite `rule` or `source`" (an anyOf of the two requirements)."""
    parent = error.parent
    alternatives = parent.validator_value if parent is not None and parent.validator == "anyOf" else None
    return isinstance(alternatives, list) and sorted(map(str, alternatives)) == sorted(
        str({"required": [key]}) for key in ("rule", "source")
    )


def _cite(error: ValidationError) -> str:
    """The hint of a missing citation: what `rule:` holds for this entity, as its schema describes it."""
    holder = error.parent.schema if error.parent is not None and isinstance(error.parent.schema, dict) else {}
    described = holder.get("properties", {}).get("rule", {})
    text = described.get("description") if isinstance(described, dict) else None
    said = text.rstrip(". ") if isinstance(text, str) else ""
    what = f", {said[0].lower()}{said[1:]}" if said else " (the rulebook section or page that states it)"
    return (
        f"add `rule:`{what}; or, where the rulebook is silent, `source:` (a community transcription, "
        'or `source: "house rule: write why here"`)'
    )


def _unknown_key(
    document: Document,
    path: NodePath,
    key: str,
    schema: dict[str, Any],
    root: Mapping[str, Any] | None = None,
    mapping: Mapping[str, Any] | None = None,
) -> Iterator[Diagnostic]:
    """S002 for ``key`` of the mapping at ``path``, unless the schema allows it; ``root``, the
    schema of the whole document (a manifest's, which says where its overlay keys belong);
    ``mapping``, what the mapping holds, from which a required key it lacks that ``key`` was
    written for is named (:func:`_stands_for`)."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    if key in properties or any(_pattern(p).search(key) for p in patterns):
        return
    where = _where(path)
    if key == MERGE_KEY:
        yield _diag(
            codes.UNKNOWN_KEY,
            f"a YAML merge key (`<<`) is not read in rule data{where}",
            document.key_span((*path, key)),
            "write the merged keys out here: a mapping holds what it says, nothing it merges from elsewhere",
            subjects=("<<",),
        )
        return
    allowed = list(properties)
    elsewhere = _placement_hint(document, path, key, root, allowed)
    if elsewhere is not None:
        # Right key, wrong level (or another game's): no "did you mean" points at an unrelated key.
        yield _diag(
            codes.UNKNOWN_KEY,
            f"unknown key {words.shown(key)}{where}",
            document.key_span((*path, key)),
            elsewhere,
            subjects=words.whole((key,)),
        )
        return
    meant = _stands_for(key, mapping, schema, root) if mapping is not None else None
    if meant is not None and _closest(key, allowed) is None:
        yield _diag(
            codes.UNKNOWN_KEY,
            f"unknown key {words.shown(key)}{where}",
            document.key_span((*path, key)),
            f"did you mean `{meant}`? `{meant}` is missing here, and this key's value is of its kind: "
            f"write `{meant}:` in its place",
            meant,
            subjects=words.whole((key,)),
        )
        return
    outdented = _outdented(document, path, key, allowed)
    hint = (
        _did_you_mean(key, allowed) or outdented or (f"allowed keys{where}: {', '.join(allowed)}" if allowed else None)
    )
    yield _diag(
        codes.UNKNOWN_KEY,
        f"unknown key {words.shown(key)}{where}",
        document.key_span((*path, key)),
        hint,
        _closest(key, allowed),
        subjects=words.whole((key,)),
    )


def _stands_for(
    key: str, mapping: Mapping[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any] | None
) -> str | None:
    """The required key, missing from ``mapping``, that an unknown ``key`` was written for: one
    whose words end or begin ``key``'s (`all_items` for `items`: the name a manifest's overlay
    gives a collection, written at the top of its file), where ``key``'s value is of
    the missing key's type. A misspelling is :class:`Vocabulary`'s; this is a key named longer."""
    if key in mapping and isinstance(key, str):
        written = key.split("_")
        for wanted in schema.get("required", ()):
            if wanted in mapping or not isinstance(wanted, str):
                continue
            parts = wanted.split("_")
            if len(written) <= len(parts) or parts not in (written[-len(parts) :], written[: len(parts)]):
                continue
            node = schema.get("properties", {}).get(wanted)
            if isinstance(node, dict) and isinstance(node.get(_AS_WRITTEN), dict):
                node = node[_AS_WRITTEN]  # the item-wise shell's property: its `$ref` is the shell's own
            node = _deref(dict(root), node) if isinstance(root, Mapping) and isinstance(node, dict) else node
            types = node.get("type") if isinstance(node, dict) else None
            allowed = [types] if isinstance(types, str) else types if isinstance(types, list) else None
            value = mapping[key]
            numeric = ("integer", "number")
            if allowed is None or any(
                isinstance(value, patterns.JSON_TYPES.get(t, ())) and not (isinstance(value, bool) and t in numeric)
                for t in allowed
            ):
                return wanted
    return None


#: The operations of `overlay.settings` that are not settings: what they hold is settings.
_SETTINGS_OPERATIONS = ("add", "replace", "remove")


def _overlay_keys(root: Mapping[str, Any] | None) -> tuple[list[str], list[str]] | None:
    """The collections and the settings a manifest's `overlay` takes, as its family's schema
    (``root``) declares them; None for a schema without an overlay (not a manifest's)."""
    if not isinstance(root, dict):
        return None
    overlay = _deref(root, root.get("properties", {}).get("overlay"))
    if not isinstance(overlay, dict):
        return None
    keys = overlay.get("properties", {})
    settings = _deref(root, keys.get("settings"))
    named = settings.get("properties", {}) if isinstance(settings, dict) else {}
    return [k for k in keys if k != "settings"], [k for k in named if k not in _SETTINGS_OPERATIONS]


def _overlay_level(path: NodePath) -> str | None:
    """Which place of a manifest's overlay ``path`` is: `overlay`, `settings` (`overlay.settings`),
    `operation` (the mapping of `overlay.settings.add` or `.replace`, or an entry of `.remove`);
    None for any other path."""
    if path == ("overlay",):
        return "overlay"
    if path == ("overlay", "settings"):
        return "settings"
    if path in (("overlay", "settings", "add"), ("overlay", "settings", "replace")):
        return "operation"
    if path[:3] == ("overlay", "settings", "remove") and len(path) == 4 and isinstance(path[3], int):
        return "operation"
    return None


def _placement_hint(
    document: Document, path: NodePath, key: str, root: Mapping[str, Any] | None, allowed: list[str]
) -> str | None:
    """The hint for a ``key`` written where a manifest's overlay does not take it (``path``: any
    of its places, :func:`_overlay_level`), every check run at every place: the key just above
    left empty, which was meant to hold ``key``, said first (`limits:` then `per_player: 9` at
    its level is not a misplaced field; its indentation is what to change), unless ``key``
    is known not to belong under it; then a key of another place or another family
    (:func:`_overlay_level_hint`). None for any other key, or a path outside an overlay: the
    caller's "did you mean" or list of the allowed keys then."""
    level = _overlay_level(path)
    if level is None:
        return None
    above = _empty_key_above(document, path, key, allowed)
    if above is not None and _belongs_under(path, above[1], key, root) is not False:
        return _outdented(document, path, key, allowed)
    return _overlay_level_hint(path, key, root, allowed) or _citation_hint(document, path, key, root)


def _citation_hint(document: Document, path: NodePath, key: str, root: Mapping[str, Any] | None) -> str | None:
    """The hint for a citation (`rule:`, `source:`) written among the settings (or in a settings
    operation) instead of inside the setting it cites: "did you mean `not_in_sources`?" led to
    another error. The setting is named where the mapping holds one alone."""
    if key not in ("rule", "source") or _overlay_level(path) not in ("settings", "operation"):
        return None
    declared = _overlay_keys(root)
    node = document.data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    written = [name for name in node if declared is not None and name in declared[1]] if isinstance(node, dict) else []
    setting = written[0] if len(written) == 1 else "SETTING"
    where = ".".join(str(part) for part in path)
    return (
        f"`{key}` cites a setting, and is written inside the setting it cites, not beside it: `{where}.{setting}.{key}`"
    )


def _belongs_under(path: NodePath, above: str, key: str, root: Mapping[str, Any] | None) -> bool | None:
    """Whether ``key`` is a key of ``above`` (an empty key beside it in the overlay at ``path``):
    a setting under `settings:`, `add:` or `replace:`, an operation under a collection or
    `settings:`, a field under its setting; None where the overlay's schema does not say."""
    declared = _overlay_keys(root)
    if declared is None:
        return None
    collections, settings = declared
    if above == "settings" and path == ("overlay",):
        return key in settings or key in _SETTINGS_OPERATIONS
    if above in collections and path == ("overlay",):
        return key in ("add", "replace", "patch", "remove")
    if above in ("add", "replace") and path == ("overlay", "settings"):
        return key in settings
    if above in settings and path != ("overlay",):
        fields = _setting_fields(root, above)
        return (key in fields) if fields else None
    return None


def _overlay_level_hint(path: NodePath, key: str, root: Mapping[str, Any] | None, allowed: list[str]) -> str | None:
    """The hint for a ``key`` a manifest's overlay does not take where it is written (``path``:
    `overlay`, `overlay.settings`, or the settings an `overlay.settings` `add`, `replace` or
    `remove` names) that is a key of another of those places, or of another family; every check
    is run at every place: a collection, a setting, a setting's field (named with its setting's
    full path), a settings operation, another family's collection or setting. None for any
    other key. ``allowed``: the keys the place takes."""
    level = _overlay_level(path)
    declared = _overlay_keys(root) if level is not None else None
    if declared is None:
        return None
    collections, settings = declared
    operation = f"overlay.settings.{path[2]}" if level == "operation" else ""
    if level == "settings" and key in collections:
        return (
            f"`{key}` is a collection, not a setting: move its block one level up, beside `settings:` "
            f"(`overlay.{key}`, not `overlay.settings.{key}`)"
        )
    if level == "operation" and key in collections:
        return (
            f"`{key}` is a collection, not a setting: `{operation}` takes settings only; change "
            f"its entities in `overlay.{key}` (with its own `add`, `replace`, `patch` and `remove`)"
        )
    if level == "overlay" and key in settings:
        return f"`{key}` is a setting, not a collection: move it under `settings:` (`overlay.settings.{key}`)"
    holders = _field_holders(root, settings).get(key, []) if key not in settings else []
    if len(holders) == 1:
        # A setting's field written at the wrong level. A field many settings have (`rule`,
        # `source`) is not told one of them.
        return _setting_field_hint(level, operation, key, holders[0], root)
    if level == "overlay" and key in _SETTINGS_OPERATIONS:
        return (
            f"`{key}` is an operation of `overlay.settings` or of one collection: move it under `settings:` "
            f"(`overlay.settings.{key}`) for settings, or under the collection it changes "
            f"(e.g. `overlay.{collections[0] if collections else 'COLLECTION'}.{key}`)"
        )
    if level == "operation" and key in _SETTINGS_OPERATIONS:
        return (
            f"`{key}` is an operation of `overlay.settings`, not a setting: write it beside `{path[2]}:`, "
            f"directly under `settings:` (`overlay.settings.{key}`)"
        )
    games = _families_with_collection(key)
    what = "collection"
    if not games:
        games, what = _families_with_setting(key), "setting"
    if not games:
        return None
    # Another game's key, named exactly: not a misspelling of one of this family's (V009 tells
    # which base such an overlay fits).
    return (
        f"`{key}` is a {what} of {' or '.join(f'`{game}`' for game in games)}, not of the family this "
        f"ruleset is read as (the one its `family:` names, else its base's, else `{default_family().id}`): "
        f"{'overlay keys' if level == 'overlay' else 'keys'} here: {', '.join(allowed)}"
    )


def _setting_field_hint(
    level: str | None, operation: str, key: str, holder: str, root: Mapping[str, Any] | None
) -> str:
    """The hint for ``key``, a field of the setting ``holder`` alone, written at ``level`` of the
    overlay (``operation``: the settings operation it was written in, if any)."""
    full = f"`overlay.settings.{holder}.{key}`"
    said = f"`{key}` is a field of the setting `{holder}`"
    if level == "overlay":
        return f"{said}, not a collection: move it under `settings:` and `{holder}:` ({full})"
    if level == "settings":
        return f"{said}, not a setting: move it under `{holder}:` ({full})"
    if operation.endswith(".remove"):
        if key in _setting_required(root, holder):
            return (
                f"{said}, not a setting, and `{holder}` cannot be without it: `{operation}` deletes whole "
                f"settings; change the field under `{holder}:` ({full}), or remove the whole setting "
                f"(`remove: [{holder}]`)"
            )
        return (
            f"{said}, not a setting: `{operation}` deletes whole settings; to delete the field alone, "
            f"write `{key}: null` under `{holder}:` ({full}), which drops it from the base's `{holder}`"
        )
    return (
        f"{said}, not a setting: change the field alone under `{holder}:` ({full}, merged into the "
        f"base's `{holder}`), or write the whole setting under `{operation}` (`{operation}.{holder}`)"
    )


def _field_holders(root: Mapping[str, Any] | None, settings: list[str]) -> dict[str, list[str]]:
    """Each field of the ``settings`` of the manifest schema ``root``, and the settings that have
    it: made once per schema, so a mapping of many unknown keys does not read every setting's
    schema once per key."""
    cached = _HOLDERS.get(id(root))
    if cached is not None and cached[0] is root:
        return cached[1]
    holders: dict[str, list[str]] = {}
    for name in settings:
        for field in sorted(_setting_fields(root, name)):
            holders.setdefault(field, []).append(name)
    _HOLDERS[id(root)] = (root, holders)
    return holders


#: :func:`_field_holders` by schema (each kept alive, as :func:`load_schema` keeps it).
_HOLDERS: dict[int, tuple[Mapping[str, Any] | None, dict[str, list[str]]]] = {}


def _setting_schema(root: Mapping[str, Any] | None, name: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The schema that declares the setting ``name`` (the manifest's, ``root``, or the data file's
    its family keeps it in) and the setting's node in it; None if neither declares it."""
    if not isinstance(root, dict):
        return None
    node = _deref(root, root.get("properties", {}).get(name))
    if isinstance(node, dict):
        return root, node
    for family in families().values():
        if load_schema(family.slot_kind("ruleset")) is not root or name not in family.settings:
            continue
        held = load_schema(family.slot_kind(family.settings[name]))
        node = _deref(held, held.get("properties", {}).get(name))
        return (held, node) if isinstance(node, dict) else None
    return None


def _setting_fields(root: Mapping[str, Any] | None, name: str) -> set[str]:
    """The fields of the setting ``name`` in any of its forms, as its schema declares them: the
    manifest's (``root``) or, for a setting a data file holds, that file's."""
    found = _setting_schema(root, name)
    if found is None:
        return set()
    schema, node = found
    forms = [node, *(_deref(schema, b) for word in ("oneOf", "anyOf", "allOf") for b in node.get(word, ()))]
    return {key for form in forms if isinstance(form, dict) for key in form.get("properties", {})}


def _setting_required(root: Mapping[str, Any] | None, name: str) -> set[str]:
    """The fields the setting ``name`` cannot be without (those its schema requires in every form)."""
    found = _setting_schema(root, name)
    if found is None:
        return set()
    schema, node = found
    required = {key for key in node.get("required", ()) if isinstance(key, str)}
    for form in (_deref(schema, b) for b in node.get("allOf", ())):
        if isinstance(form, dict):
            required.update(key for key in form.get("required", ()) if isinstance(key, str))
    return required


def _families_with_collection(key: str) -> list[str]:
    """The families (by id) that have a collection named ``key``."""
    return [family.id for family in families().values() if key in family.collections]


def _families_with_setting(key: str) -> list[str]:
    """The families (by id) that have a setting named ``key``."""
    return [family.id for family in families().values() if key in family.settings]


def _outdented(document: Document, path: NodePath, key: str, allowed: Sequence[str] | None = None) -> str | None:
    """The indentation hint when the key just above ``key`` is empty (passing over the lines of the
    same outdented block, with ``allowed``): it was meant to hold ``key``.

    `limits:` followed by `per_player: 9` at the same indentation is a `limits` of null (which
    deletes it) beside an unknown `per_player`.
    """
    above = _empty_key_above(document, path, key, allowed)
    if above is None:
        return None
    return (
        f"`{above[1]}:` on line {above[0]} has no value, so `{words.clipped(key)}` is read beside it: "
        f"indent `{words.clipped(key)}` (and the lines that belong with it) under `{above[1]}:`"
    )


#: The most lines of an outdented block passed over to find the empty key it was meant for: a
#: mapping of 490,000 unknown keys is not walked back from each of them.
_OUTDENTED_BLOCK = 64


def _empty_key_above(
    document: Document, path: NodePath, key: str, allowed: Sequence[str] | None = None
) -> tuple[int, str] | None:
    """The line and name of the key just above ``key`` in the mapping at ``path``, if it has no
    value; None otherwise. With ``allowed`` (the keys the mapping takes), the keys between that it
    does not take are passed over: the second and later lines of an outdented block (`limits:`
    left empty, then `per_player: 3` and `source: ...` at its level) were meant for it too."""
    node: Any = document.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(node, dict) or not document.has_key((*path, key)):
        return None
    line = document.key_span((*path, key)).line
    lines, names = _sibling_lines(document, path, node)
    at = bisect.bisect_left(lines, line) - 1
    passed = 0
    while (
        at >= 0
        and allowed is not None
        and passed < _OUTDENTED_BLOCK
        and names[at] not in allowed
        and node.get(names[at]) is not None
    ):
        at, passed = at - 1, passed + 1  # a line of the same outdented block
    above = (lines[at], names[at]) if at >= 0 else None
    if above is None or node.get(above[1]) is not None:
        return None
    return above


def _sibling_lines(document: Document, path: NodePath, node: dict[str, Any]) -> tuple[list[int], list[str]]:
    """The lines of the keys of the mapping at ``path``, ascending, each with the first key on it:
    made once per mapping, so a mapping of 490,000 unknown keys is not walked once per key."""
    by_path = _SIBLINGS.get(document)
    if by_path is None:
        by_path = _SIBLINGS.put(document, {})
    cached = by_path.get(path)
    if cached is not None:
        return cached
    first: dict[int, str] = {}
    for sibling, line in document.key_lines(path):
        first.setdefault(line, sibling)
    lines = sorted(first)
    names = [first[at] for at in lines]
    by_path[path] = (lines, names)
    return lines, names


#: Key lines per mapping (:func:`_sibling_lines`), by document and path, for as long as the
#: document lives (64 entries each kept their document alive).
_SIBLINGS: memo.Attached[Document, dict[NodePath, tuple[list[int], list[str]]]] = memo.Attached()


def _pattern(pattern: str) -> re.Pattern[str]:
    return patterns.compiled(pattern)  # search it, as JSON Schema's `pattern` does, with ECMA-262's `$`


#: At most this many mistakes of one shape are reported one by one; beyond it, the one that explains
#: the value best: a list of 20,000 items of the wrong kind under "a name or a list of names" is one
#: diagnostic, as before, and does not push the file's other errors past --max-diagnostics.
_MISTAKES_PER_SHAPE = 10


def _branch_errors(error: ValidationError) -> list[ValidationError]:
    """Every error of the branch (the shape) that explains why ``error``'s value fits none: two
    mistakes in one new card (a misspelt effect kind, a change of 0) are two diagnostics. Past
    :data:`_MISTAKES_PER_SHAPE`, the best of them only.
    """
    # Prefer a branch whose declared type fits the value: for `cost: "45"` against
    # integer-or-unknown, the integer branch explains the mistake, not the unknown-object branch;
    # for `colour: orang`, the enum of the string branch does.
    # Among branches that fit, prefer the one the value got furthest into: for a mapping checked
    # against "a set-value rule or {unknown: why}", a short list inside the rule explains the
    # mistake better than "missing key `unknown`".
    context = list(error.context or ())
    alternatives = error.schema.get(str(error.validator), []) if isinstance(error.schema, dict) else []

    def fits(candidate: ValidationError) -> bool:
        branch = candidate.relative_schema_path[0] if candidate.relative_schema_path else None
        schema = alternatives[branch] if isinstance(branch, int) and branch < len(alternatives) else candidate.schema
        # A wrong type deeper in the value (`append: {id: x}` where list operations take lists) is
        # the mistake inside the branch the designer meant, not a sign of another branch.
        wrong_type = candidate.validator == "type" and not candidate.path
        return not wrong_type and _fits_type(schema, error.instance)

    fitting = [e for e in context if fits(e)]
    candidates = fitting or context
    if not candidates:
        return []
    branches: dict[Any, list[ValidationError]] = {}
    for candidate in candidates:
        branch = candidate.relative_schema_path[0] if candidate.relative_schema_path else None
        branches.setdefault(branch, []).append(candidate)
    written = set(error.instance) if isinstance(error.instance, dict) else set()

    def closeness(errors: list[ValidationError]) -> tuple[int, int]:
        """How many of the keys written the branch knows, then how many of the others are close
        to a key it requires and lacks (`crad` of a card's credit, whose `card` is missing): the
        branch the designer meant."""
        if any(e.path for e in errors):
            return 0, 0  # the branch got inside the value: depth decides
        known = {
            k
            for e in errors
            if isinstance(e.schema, dict)
            for k in (*e.schema.get("properties", {}), *e.schema.get("required", ()))
        }
        lacking = [
            k for e in errors if isinstance(e.schema, dict) for k in e.schema.get("required", ()) if k not in written
        ]
        misspelt = sum(1 for k in written - known if lacking and closest(str(k), lacking) is not None)
        return len(written & known), misspelt

    chosen = max(
        branches.values(), key=lambda errors: (max(len(e.path) for e in errors), closeness(errors), -len(errors))
    )
    if len(chosen) > _MISTAKES_PER_SHAPE:
        from jsonschema.exceptions import best_match

        best: ValidationError | None = best_match(chosen)
        return [best] if best is not None else chosen[:1]
    return chosen


#: The operations of a variant's overlay: written outside `overlay:`, they are a dedent.
_OVERLAY_OPERATIONS = ("add", "replace", "patch", "remove")


def _no_shape_knows(error: ValidationError) -> tuple[str, str] | None:
    """The message and hint for a mapping none of whose keys any shape of ``error`` knows.

    `sides: {add: [...]}` dedented out of `overlay:` is neither a list of sides nor
    `{unknown: why}`: "missing key `unknown`" names a key the designer never meant.
    """
    if error.validator not in ("oneOf", "anyOf") or not error.context or not isinstance(error.instance, dict):
        return None
    written = list(error.instance)
    if not written or MERGE_KEY in error.instance:
        return None
    shapes: list[str] = []
    for candidate in error.context:
        if candidate.path:
            return None  # a branch got inside the value: it knows the shape
        schema = candidate.schema if isinstance(candidate.schema, dict) else {}
        if candidate.validator == "type":
            shapes.append(_types(candidate.validator_value))
            continue
        if _adds_requirements(schema):
            return None  # `anyOf: [{required: [rule]}, {required: [source]}]`: keys missing here, not a shape
        properties = schema.get("properties", {})
        if any(key in properties for key in written):
            return None
        if properties and any(Vocabulary(properties).closest(key) is not None for key in written):
            return None  # `{unknwon: why}`: that shape's key misspelt, its "did you mean" says so
        required = schema.get("required") or list(properties)[:1]
        if required:
            shapes.append("`{" + ", ".join(f"{k}: ..." for k in required) + "}`")
    keys = ", ".join(f"`{k}`" for k in written)
    forms = " or ".join(dict.fromkeys(shapes)) or "another shape"
    operations = [k for k in written if k in _OVERLAY_OPERATIONS]
    if operations:
        hint = (
            f"`{operations[0]}` is an operation of a variant's `overlay:`: indent this key (and its lines) "
            "under `overlay:`"
        )
    else:
        hint = f"write {forms} here"
    return f"a mapping of {keys} where {forms} belongs", hint


def _adds_requirements(branch: Mapping[str, Any]) -> bool:
    """Whether a branch of `anyOf`/`oneOf` only requires keys of the mapping it sits in (the
    citation's `{required: [rule]}` or `{required: [source]}`, an event's forms): it names keys
    this mapping must hold, not another shape the mapping could take instead."""
    return bool(branch) and set(branch) <= {"required", "description", "$comment"}


def _best_branch(error: ValidationError) -> ValidationError | None:
    """The one error that best explains why ``error``'s value fits none of its shapes."""
    errors = _branch_errors(error)
    if not errors:
        return None
    from jsonschema.exceptions import best_match

    chosen: ValidationError | None = best_match(errors)
    return chosen


def _release(error: ValidationError) -> None:
    """Undo the cycles of ``error``'s tree, once nothing reads it again: each error of a `oneOf`'s
    or an `anyOf`'s ``context`` names that error as its ``parent``, so an error of one is freed
    only by a collection of the garbage collector's, which a run makes seldom
    (:func:`civrules.support.collector.for_a_run`). 20,000 map areas each failing its `anyOf`
    held 180 MB of such errors when `validate` printed their 40,000 diagnostics, more than
    everything else the run held. Without the links each tree is freed as soon as it is let go of;
    what reads a released error's ``absolute_path`` reads its path below the error released."""
    below = list(error.context or ())
    while below:
        inner = below.pop()
        inner.parent = None
        below.extend(inner.context or ())


def _released(
    errors: Iterable[ValidationError], kept: Callable[[ValidationError], bool] | None = None
) -> Iterator[ValidationError]:
    """``errors``, each released (:func:`_release`) once the next is asked for, but those ``kept``
    (held to be read again): one at a time, every diagnostic of an error is made before the next
    error is read."""
    for error in errors:
        yield error
        if kept is None or not kept(error):
            _release(error)


def _no_error(errors: Iterable[ValidationError]) -> bool:
    """Whether ``errors`` holds none (the first one found is released)."""
    first = next(iter(errors), None)
    if first is None:
        return True
    _release(first)
    return False


def _expand(error: ValidationError) -> Iterator[ValidationError]:
    """``error``, or within "one of these shapes", the errors of the shape that explains it, each
    located by its own path. A mapping none of whose keys a shape knows stays whole: its one
    diagnostic says which shapes belong there (:func:`_no_shape_knows`), as it does in a data file;
    expanded, a patch's `items: {name: a}` was told "missing key `unknown`" and "unknown key
    `name`", two diagnostics naming a key the designer never meant."""
    if error.validator in ("oneOf", "anyOf") and error.context and _no_shape_knows(error) is None:
        chosen = _branch_errors(error)
        if chosen:
            for inner in chosen:
                yield from _expand(inner)
            return
    yield error


def _fits_type(schema: Any, instance: Any) -> bool:
    if not isinstance(schema, dict) or "type" not in schema:
        return True
    return bool(_validator_class()({"type": schema["type"]}).is_valid(instance))


def _head(document: Document, path: NodePath) -> Span:
    """The first line of a node: where a designer would add a missing key."""
    span = document.key_span(path) if path and document.has_key(path) else document.span(path)
    if span.end_line != span.line:
        return Span(span.file, span.line, span.column, span.line, span.column + 1)
    return span


def _message(error: ValidationError, path: NodePath) -> str:
    value, rule = _show(error.instance), error.validator_value
    where = _where(path)
    match error.validator:
        case "type" if isinstance(error.instance, (dict, list)) and _one_form_of_several(error):
            return f"{value}, which is none of the forms the field takes{where}"
        case "type" if isinstance(error.instance, (dict, list)):
            return f"{value} where {_types(rule)} belongs{where}"
        case "type" if _one_form_of_several(error):
            # the branch best_match chose is one form of the field's (a mapping, for `{unknown: why}`):
            # naming its type alone says the field takes only that; the hint lists every form
            return f"{value} is {_type_of(error.instance)}, which is none of the forms the field takes{where}"
        case "type":
            kind = _type_of(error.instance)
            return f"{value} is {kind}, where {_types(rule)} belongs{where}"
        case "minimum":
            return f"{value} is less than the minimum {rule}{where}"
        case "maximum":
            return f"{value} is more than the maximum {rule}{where}"
        case "exclusiveMinimum":
            return f"{value} must be more than {rule}{where}"
        case "pattern" if rule == RULES_PATH_PATTERN and isinstance(error.instance, str):
            plain = plain_rules_path(error.instance)
            if plain is not None:  # R003's words, where the resolver would have said them
                return f"{value}{where} is `{plain}` spelt otherwise: a file is named one way"
            return f"{value} is not a path relative to the rules folder{where}"
        case "pattern" if rule == patterns.NOT_BLANK:
            return f"the text is blank{where}: it says nothing"
        case "pattern" if rule == patterns.SOURCE and isinstance(error.instance, str) and not error.instance.strip():
            return f"the citation is blank{where}: it says nothing"
        case "pattern" if rule == patterns.SOURCE and isinstance(error.instance, str):
            return f"{value} is no citation{where}: {patterns.citation_shape(error.instance)}"
        case "pattern" if rule in accepted.PATTERN_WORDS:
            return f"{value} is not {accepted.PATTERN_WORDS[rule]}{where}"
        case "pattern":
            return f"{value} is not written as this field's values are{where}"
        case "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minLength" | "maxLength" if isinstance(
            error.instance, (list, dict, str)
        ):
            return _size_message(error.validator, error.instance, rule, where)
        case "uniqueItems" if isinstance(error.instance, list):
            repeated = _first_repeated(error.instance)
            said = _show(repeated) if isinstance(repeated, (str, int, float)) else "an item"
            return f"the list names {said} more than once{where}"
        case "uniqueItems":
            return f"the list names an item more than once{where}"
        case "oneOf" if not error.context:
            return f"{value} matches more than one of the allowed forms{where}: it must match exactly one"
        case "oneOf" | "anyOf":
            return f"{value} matches none of the allowed forms{where}"
        case "not" if isinstance(rule, dict) and set(rule) == {"const"}:
            reason = " (a change is signed, never 0)" if rule["const"] == 0 else ""
            return f"{_show(rule['const'])} is not allowed{where}{reason}"
        case "not":
            return f"{value} is not allowed here{where}"
    # A keyword no case above words (none of the schemas' today: tests/core/test_schema_words.py):
    # said in the designer's words, never jsonschema's (`{} should be non-empty`, Python's reprs).
    return f"{value} is not allowed here{where}"


#: What each bound on a size counts, by its keyword: the thing measured, its unit, and whether
#: the bound is the least allowed.
_SIZES = {
    "minItems": ("list", "item", True),
    "maxItems": ("list", "item", False),
    "minProperties": ("mapping", "key", True),
    "maxProperties": ("mapping", "key", False),
    "minLength": ("text", "character", True),
    "maxLength": ("text", "character", False),
}


def _one_form_of_several(error: ValidationError) -> bool:
    """Whether ``error`` is one branch's of the `oneOf`/`anyOf` of the value it judges (the same
    value, not one inside it) whose every branch refuses the value's type: no form explains the
    mistake better than another."""
    from jsonschema.exceptions import ValidationError

    parent = error.parent
    if not isinstance(parent, ValidationError) or error.relative_path or parent.validator not in ("oneOf", "anyOf"):
        return False
    alternatives = parent.schema.get(str(parent.validator), []) if isinstance(parent.schema, dict) else []
    refused = {
        e.relative_schema_path[0]
        for e in parent.context or ()
        if e.validator == "type" and not e.relative_path and e.relative_schema_path
    }
    return len(alternatives) > 1 and refused >= set(range(len(alternatives)))


def _forms_of(error: ValidationError) -> list[Any]:
    """The branches of the `oneOf`/`anyOf` whose one branch ``error`` is (:func:`_one_form_of_several`)."""
    parent = error.parent
    schema = getattr(parent, "schema", None)
    return list(schema.get(str(getattr(parent, "validator", "")), [])) if isinstance(schema, dict) else []


def _takes(branch: Any, value: Any) -> bool:
    """Whether a branch that stands alone (no `$ref`) takes ``value``."""
    if not isinstance(branch, dict) or "$ref" in json.dumps(branch):
        return False
    return bool(_validator_class()(branch).is_valid(value))


def _size_message(keyword: str, instance: list[Any] | dict[str, Any] | str, bound: Any, where: str) -> str:
    """A list, mapping or text of the wrong size, in words: what it holds and how many it needs,
    each count with its noun in the number it takes (`citations: {}` said "fewer than 1 keys").

    >>> _size_message("minProperties", {}, 1, " in `citations`")
    'the mapping is empty, at least 1 key needed in `citations`'
    >>> _size_message("maxItems", [1, 2, 3], 2, "")
    'the list has 3 items, at most 2 allowed'
    >>> _size_message("minItems", ["oak"], 2, "")
    'the list has 1 item, at least 2 items needed'
    >>> _size_message("minLength", "", 1, "")
    'the text is empty'
    """
    what, unit, least = _SIZES[keyword]
    if not instance and least:
        need = "" if isinstance(instance, str) and bound == 1 else f", at least {words.count(bound, unit)} needed"
        return f"the {what} is empty{need}{where}"  # a text needs no "at least 1 character"
    held = f"the {what} has {words.count(len(instance), unit)}"
    if least:
        return f"{held}, at least {words.count(bound, unit)} needed{where}"
    return f"{held}, at most {bound:,} allowed{where}"


def _first_repeated(items: list[Any]) -> Any:
    """The first item of ``items`` that an earlier one repeats (None when none does)."""
    at = _first_repeat_at(items)
    return None if at is None else items[at]


def _first_repeat_at(items: list[Any]) -> int | None:
    """The index of the first item of ``items`` that an earlier one repeats (None when none does).

    >>> _first_repeat_at(["a", "b", "a", "b"]), _first_repeat_at(["a"])
    (2, None)
    """
    seen: set[Any] = set()
    for at, item in enumerate(items):
        key = _unique_key(item)
        if key in seen:
            return at
        seen.add(key)
    return None


def _items(count: int) -> str:
    return f"{count} item{'' if count == 1 else 's'}"


def _hint(error: ValidationError, defs: Mapping[str, Any], family: str | None = None) -> str | None:
    """What to do about a schema error (S001): for the mistakes a designer makes most, the fix of
    that mistake (a quoted number, `yes` for true, a repeated item, a long name); else what to write
    in its place, from the schema of the field (:mod:`civrules.schema.accepted`) and never the
    field's description, which says what it means and not what to write. ``family``: the id of the
    family of the manifest the error is in, whose codes a misspelt code means first."""
    specific = _specific_hint(error, defs, family)
    return specific if specific is not None else _write_hint(error, defs)


def _specific_hint(error: ValidationError, defs: Mapping[str, Any], family: str | None = None) -> str | None:
    expected: Any = error.validator_value
    if error.validator == "type":
        if (
            "boolean" in expected
            and isinstance(error.instance, str)
            and error.instance.lower() in {"yes", "no", "on", "off", "y", "n"}
        ):
            return "civrules reads YAML 1.2: write true or false"
        if isinstance(error.instance, float) and "integer" in expected and error.instance.is_integer():
            return f"write the whole number `{int(error.instance)}`: YAML reads `1e3` or `1000.0` as a decimal number"
        if isinstance(error.instance, float) and "string" in expected:
            return "quote the value: unquoted, a rule number such as 32.21 is read as a number"
        if isinstance(error.instance, bool) and "string" in expected:
            written = str(error.instance).lower()
            return f'write `"{written}"` in quotes if it is meant as text: unquoted, YAML reads {written} as a boolean'
        if type(error.instance) is int and "string" in expected and "integer" not in expected:
            return f'write `"{error.instance}"` in quotes if it is meant as text: unquoted, YAML reads it as a number'
        if error.instance is None and "string" in expected:
            return (
                'write the text, in quotes if it is `"null"` or `"~"`: unquoted, YAML reads those (and a '
                "value left empty) as null"
            )
        if isinstance(error.instance, str) and ("integer" in expected or "number" in expected):
            written = error.instance.strip()
            if re.fullmatch(r"[+-]?[0-9]+" if "integer" in expected else r"[+-]?[0-9]+(\.[0-9]+)?", written):
                return f"write the number without quotes or a `!!str` tag: `{written}`"
            return f"write {'a whole number' if 'integer' in expected else 'a number'} in digits, without quotes"
    named = error.path[-1] if error.path and isinstance(error.path[-1], str) else None
    if error.validator == "type" and _one_form_of_several(error):
        # one form's type (the `{unknown: why}` mapping's, say) is not what the field wants: a value
        # written in brackets that one of its forms takes, else every form (:func:`_write_hint`)
        if isinstance(error.instance, list) and len(error.instance) == 1:
            (only,) = error.instance
            if any(_takes(branch, only) for branch in _forms_of(error)):
                written = _show(only).strip("`")
                return (
                    f"write one {named}, not a list: `{named}: {written}`"
                    if named
                    else f"drop the brackets: `{written}`"
                )
        return None
    if error.validator == "type" and isinstance(error.instance, list) and len(error.instance) == 1 and named:
        # `id: [lantern]`: one value in brackets where the value belongs.
        (only,) = error.instance
        fits = (isinstance(only, str) and "string" in expected) or (
            isinstance(only, int) and not isinstance(only, bool) and "integer" in expected
        )
        if fits:
            return f"write one {named}, not a list: `{named}: {only}`"
    if (
        error.validator == "type"
        and isinstance(error.instance, str)
        and "array" in expected
        and isinstance(error.schema, dict)
        and error.schema.get("minItems") == error.schema.get("maxItems") == 2
        and named
    ):
        # `areas: north|south`: a pair as messages write it (its key), where the pair belongs.
        parts = [part.strip() for part in error.instance.split("|")]
        if len(parts) == 2 and all(parts):
            return f"write the pair as a list: `{named}: [{parts[0]}, {parts[1]}]`"
    if (
        error.validator == "type"
        and isinstance(error.instance, (str, int))
        and not isinstance(error.instance, bool)
        and "object" in expected
    ):
        around = _entry_around(error.instance, _entry_schema(error, defs), defs)
        if around is not None:
            # `remove: [lantern]`: the value the entry is named by, written where the entry belongs
            whole, more = around
            return f"write the entry whole: `{whole}`" + (", with any other field you mean it to have" if more else "")
    if error.validator == "type" and isinstance(error.instance, dict) and "array" in expected:
        return "write a list: `[{...}]`, or each entry on its own line starting with `- `"
    if error.validator == "type" and isinstance(error.instance, list) and "object" in expected:
        return "write a mapping (`{KEY: VALUE}`), not a list: drop the `- ` or the `[...]`"
    if error.validator == "pattern" and error.validator_value == CODE_PATTERN:
        # Every family's codes, as a `# civrules: ignore[...]` comment's are judged (R020), the
        # manifest's family's first: the registry alone holds only the codes of the checks
        # imported so far, none of a family's.
        from civrules.families.code_hints import CodeHints

        written = str(error.instance)
        near = CodeHints(family).hint(written)
        shape = "a code is a letter and three digits, such as `A010`: `civrules explain --list` lists them"
        return f"{near} ({shape})" if near else shape
    if error.validator == "pattern" and isinstance(error.instance, str) and error.validator_value == RULESET_ID_PATTERN:
        kebab = (
            "a ruleset id is kebab-case: lower-case letters (a-z) and digits, starting with a letter, words "
            "joined by single hyphens"
        )
        problems = ruleset_id_problems(error.instance)
        if problems and problems[0].malformed and problems[0].why != NOT_KEBAB_CASE:
            return f"{kebab}; this one {problems[0].why}"
        return _pattern_hint(error.instance, RULESET_ID_PATTERN, kebab)
    if error.validator == "uniqueItems" and isinstance(error.instance, list):
        texts = [json.dumps(item, sort_keys=True, ensure_ascii=False) for item in error.instance]
        seen: set[str] = set()
        for item, text in zip(error.instance, texts, strict=True):
            if text in seen:
                said = _show(item) if not isinstance(item, (dict, list)) else f"`{text}`"
                return f"{said} is listed {words.times(texts.count(text))}: keep one"
            seen.add(text)
    if error.validator == "maxLength" and isinstance(error.instance, str):
        if error.path and error.path[-1] == "name":
            # Names are bounded because every sheet and package naming the entry repeats its name.
            return (
                f"shorten the name to {words.count(expected, 'character')} or fewer: "
                "it is printed wherever the entry is named"
            )
        if isinstance(error.schema, dict) and error.schema.get("pattern") == "^[a-z][a-z0-9_]*$":
            return (
                f"shorten the id to {words.count(expected, 'character')} or fewer: "
                "every mention of the entry repeats it"
            )
        return f"shorten the text to {words.count(expected, 'character')} or fewer"
    if error.validator == "pattern" and isinstance(error.instance, str) and error.validator_value == patterns.SOURCE:
        return _source_hint(error.instance)
    if error.validator == "pattern" and isinstance(error.instance, str):
        plain = plain_rules_path(error.instance) if error.validator_value == RULES_PATH_PATTERN else None
        if plain is not None:
            return f"write `{plain}`"
        return _pattern_hint(error.instance, str(error.validator_value), _write_hint(error, defs))
    if error.validator == "not" and isinstance(error.instance, dict) and isinstance(expected, dict):
        refused = [key for key in _required_in(expected) if key in error.instance]
        if refused:
            return f"leave out {words.listed(refused)}: {'it is' if len(refused) == 1 else 'they are'} not allowed here"
    if error.validator == "unevaluatedProperties" and isinstance(error.instance, dict):
        taken = list(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
        return "leave out the keys this mapping does not take" + (f" (it takes {words.listed(taken)})" if taken else "")
    if error.validator == "dependentRequired" and isinstance(error.instance, dict) and isinstance(expected, dict):
        for key, needs in expected.items():
            missing = [need for need in needs if key in error.instance and need not in error.instance]
            if missing:
                return f"add {words.listed(missing)} beside `{key}`, or leave out `{key}`"
    return None


def _source_hint(written: str) -> str:
    """What to write for a `source:` that is no citation (:data:`patterns.SOURCE`): where the fact
    comes from in words, or a repository's file cited by its commit and path."""
    house_rule = '`source: "house rule: write why here"`'
    if not written.strip():
        return (
            f"write where the fact comes from: {house_rule} for a house rule (any other source in words too), "
            "or `rule:` with the rulebook section it follows"
        )
    return (
        "cite a repository's file at a commit, `owner/repo@<commit>:path` (the commit's 40 hex digits: "
        f"`git rev-parse HEAD` in a clone of it; rules/README.md shows the shapes), or a house rule as {house_rule}"
    )


def _required_in(schema: Mapping[str, Any]) -> list[str]:
    """The keys a `not` refuses: those of its `required`, or of each branch of its `anyOf`."""
    found = [key for key in schema.get("required", ()) if isinstance(key, str)]
    for branch in schema.get("anyOf", ()):
        if isinstance(branch, Mapping):
            found.extend(_required_in(branch))
    return list(dict.fromkeys(found))


#: The `$defs` of an overlay operation's entries, where a family's schema gives each collection
#: its own (`overlay_removal_groups`): the operation's shared schema says only "a mapping".
_ENTRY_DEFS = {
    "add": "overlay_entity",
    "replace": "overlay_entity",
    "patch": "overlay_patch",
    "remove": "overlay_removal",
}


def _entry_schema(error: ValidationError, defs: Mapping[str, Any]) -> Any:
    """The schema of the value ``error`` found: its own, or, for an entry of an overlay operation
    (`overlay.groups.remove[0]`) judged by the operation's shared schema, its collection's entry's."""
    path = tuple(error.absolute_path)  # from the overlay, which is judged apart, or from the file
    if len(path) >= 3 and isinstance(path[-1], int) and isinstance(path[-2], str) and isinstance(path[-3], str):
        name = _ENTRY_DEFS.get(path[-2])
        found = defs.get(f"{name}_{path[-3]}") if name is not None else None
        if isinstance(found, Mapping):
            return found
    return error.schema


def _entry_around(value: str | int, schema: Any, defs: Mapping[str, Any]) -> tuple[str, bool] | None:
    """The mapping a bare ``value`` belongs in, written whole in flow style, where ``schema`` (a
    mapping's) requires first a key whose value ``value`` can be (an entry's `id`): `{id: lantern,
    why: "write why here"}`, with a blank (L016) for each other key it requires; and whether it
    takes keys besides (a patch's fields to change). None where the value could be no such key's.

    >>> _entry_around("oak", {"type": "object", "required": ["id", "why"], "properties": {"id": {"type": "string"},
    ...     "why": {"type": "string"}}, "additionalProperties": False}, {})
    ('{id: oak, why: "write why here"}', False)
    >>> _entry_around("oak", {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"},
    ...     "cost": {"type": "integer"}}}, {})
    ('{id: oak}', True)
    >>> _entry_around(7, {"required": ["id"], "properties": {"id": {"type": "string"}}}, {}) is None
    True
    """
    schema = accepted.resolve(schema, defs)
    if not isinstance(schema, Mapping):
        return None
    required, properties = schema.get("required"), schema.get("properties")
    if not isinstance(required, list) or not required or not isinstance(properties, Mapping):
        return None
    key = required[0]
    field = accepted.resolve(properties.get(key), defs)
    if not isinstance(field, Mapping):
        return None
    kind = field.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    fits = ("string" in kinds and isinstance(value, str)) or ("integer" in kinds and isinstance(value, int))
    pattern, longest = field.get("pattern"), field.get("maxLength")
    if isinstance(value, str) and (
        (isinstance(pattern, str) and not patterns.matches(pattern, value))
        or (isinstance(longest, int) and len(value) > longest)
        or not value.strip()
    ):
        return None  # no value of the key, or not one a hint shows whole
    if not fits:
        return None
    parts = [f"{key}: {value}"]
    parts.extend(f'{other}: "{blanks.blank(str(other))}"' for other in required[1:])
    # a form that also requires one of some keys (a citation: `rule` or `source`) has the first
    # written, a blank: without it the entry pasted was told "missing key `rule` (or `source`)"
    cited: list[str] = []
    for word in ("anyOf", "oneOf"):
        branches = schema.get(word)
        if (
            isinstance(branches, list)
            and branches
            and all(isinstance(b, Mapping) and _adds_requirements(b) for b in branches)
        ):
            first = next((b["required"][0] for b in branches if b.get("required")), None)
            if isinstance(first, str) and first not in required:
                cited.append(first)
    citing = {"rule": blanks.SECTION, "source": blanks.HOUSE_RULE}
    parts.extend(f'{other}: "{citing.get(other) or blanks.blank(other)}"' for other in cited)
    closed = schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False
    more = any(name not in required and name not in cited for name in properties) or not closed
    return "{" + ", ".join(parts) + "}", more


def _write_hint(error: ValidationError, defs: Mapping[str, Any]) -> str | None:
    """ "write ..." and what the field of ``error`` accepts: every form of it (the value, or
    `{unknown: why}`), though the error is one form's (a `oneOf` branch's)."""
    from jsonschema.exceptions import ValidationError

    field = error
    while isinstance(field.parent, ValidationError) and not field.relative_path:
        field = field.parent  # the same value: a branch of its field's `oneOf`
    return accepted.write_hint(field.schema, defs)


def _defs(kind: str) -> Mapping[str, Any]:
    """The `$defs` of the kind's schema."""
    found: Mapping[str, Any] = load_schema(kind).get("$defs", {})
    return found


#: The id patterns of the schemas, and how their ids are written: entries' and rulesets'.
_ID_STYLES = {
    "^[a-z][a-z0-9_]*$": ("lower_snake_case", "a-z, 0-9, `_`", "_"),
    "^[a-z][a-z0-9-]*$": ("kebab-case", "a-z, 0-9, `-`", "-"),
    "^[a-z][a-z0-9]*(-[a-z0-9]+)*$": ("kebab-case", "a-z, 0-9, `-`", "-"),
}


#: The pattern of a rule file's path in a manifest (`$defs/rules_path` of every family's schema).
RULES_PATH_PATTERN = "^(?!/)(?!.*\\.\\.)[A-Za-z0-9_][A-Za-z0-9_./-]*$"


def plain_rules_path(value: str) -> str | None:
    r"""The plain spelling of a path the rules-path pattern refuses only for its spelling (`./cards/x.yaml`,
    `cards\x.yaml`, a space around it), which the pattern accepts; None for any other (an
    absolute path, a `..`, a character no file name of rule data holds): it names no file under
    the rules folder in another spelling.

    >>> plain_rules_path("./cards/x.yaml"), plain_rules_path("cards\\x.yaml"), plain_rules_path(" cards/x.yaml ")
    ('cards/x.yaml', 'cards/x.yaml', 'cards/x.yaml')
    >>> plain_rules_path("/etc/passwd"), plain_rules_path("../x.yaml"), plain_rules_path("cards/x y.yaml")
    (None, None, None)
    """
    written = value.strip().replace("\\", "/")
    if written.startswith("/") or ".." in written:
        return None
    plain = files.plain_path(written)
    return plain if plain != value and patterns.matches(RULES_PATH_PATTERN, plain) else None


def _pattern_hint(value: str, pattern: str, written: str | None) -> str:
    """The hint of a value its pattern refuses: for an id, an example that passes; else what to
    write (``written``), or the pattern itself. A hint never proposes a value the pattern refuses."""
    style = _ID_STYLES.get(pattern)
    if style is None:
        return written or f"write a value matching the pattern `{pattern}`"
    name, letters, _ = style
    # A format character (Cf) prints as nothing: it was said to "only look like a Latin letter".
    hidden = non_ascii("".join(c for c in value if unicodedata.category(c) == "Cf"))
    shown = "".join(c for c in value if unicodedata.category(c) != "Cf")
    foreign = non_ascii(shown) if ascii_slug(shown) is None else None
    held = [
        *([f"the invisible {hidden}, which prints as nothing"] if hidden is not None else []),
        *([f"{foreign}, which only looks like a Latin letter"] if foreign is not None else []),
    ]
    if held:
        fix = "retype it" if foreign is not None else "delete it"
        return f"ids are {name} ASCII ({letters}); this one holds {', and '.join(held)}: {fix}"
    example = _id_example(value, pattern)
    if example is not None:
        return f"ids are {name}, e.g. `{example}`"
    return f"ids are {name} ({letters}), starting with a letter"


def _sibling_has(data: Any, path: NodePath, value: str) -> bool:
    """Whether another entry of the list holding the entry at ``path`` (its field's path in
    ``data``, a file as written) has that field at ``value``: the id a hint would propose is taken
    in the file itself (a variant's entity proposed the base's id is told where it is resolved).

    >>> _sibling_has({"cards": [{"id": "oak"}, {"id": "Oak"}]}, ("cards", 1, "id"), "oak")
    True
    """
    if len(path) < 2 or not isinstance(path[-2], int):
        return False
    holder: Any = data
    for part in path[:-2]:
        if isinstance(holder, dict) and isinstance(part, str):
            holder = holder.get(part)
        elif isinstance(holder, list) and isinstance(part, int) and 0 <= part < len(holder):
            holder = holder[part]
        else:
            return False
    field = path[-1]
    return isinstance(holder, list) and any(
        isinstance(entry, dict) and entry.get(field) == value for at, entry in enumerate(holder) if at != path[-2]
    )


def _id_example(value: str, pattern: str) -> str | None:
    """The id of the form ``pattern`` (an id's pattern) that ``value`` reads as: its ASCII slug
    (a Cyrillic `о` made an example that read as the same id as the one refused); None for another
    pattern, or a value with no such id.

    >>> _id_example("Lantern", "^[a-z][a-z0-9_]*$"), _id_example("Lantern", "^[0-9]+$")
    ('lantern', None)
    """
    style = _ID_STYLES.get(pattern)
    slug = ascii_slug(value) if style is not None else None
    example = slug.replace("_", style[2]) if slug and style is not None else None
    return example if example is not None and patterns.matches(pattern, example) else None


def _one_of_the_forms(error: ValidationError) -> str | None:
    """The hint of a key missing from one of the forms an entry may take, each a set of keys
    (an entry's `low` and `high`, or its `exact` alone)."""
    parent = error.parent
    if parent is None or error.relative_path or parent.validator not in ("oneOf", "anyOf"):
        return None
    branches = parent.schema.get(str(parent.validator)) if isinstance(parent.schema, dict) else None
    sets = [
        branch["required"]
        for branch in branches or ()
        if isinstance(branch, dict) and isinstance(branch.get("required"), list) and set(branch) <= {"required"}
    ]
    if len(sets) < 2 or len(sets) != len(branches or ()):
        return None
    shown = "; or ".join(", ".join(f"`{key}`" for key in keys) for keys in sets)
    return f"give the keys of one form: {shown}"


def _object_schema(root: Mapping[str, Any] | None, defs: Mapping[str, Any], path: NodePath) -> dict[str, Any]:
    """The schema of the object at ``path`` as the root schema's properties and items describe it
    (its `$ref` followed), where a keyword of a subschema (`then: {required: [...]}`) names keys
    without describing them; empty where the path leaves what the properties say."""
    schema: Any = accepted.resolve(root, defs) if root is not None else {}
    for part in path:
        if not isinstance(schema, Mapping):
            return {}
        schema = schema.get("items") if isinstance(part, int) else schema.get("properties", {}).get(part)
        schema = accepted.resolve(schema, defs)
    return dict(schema) if isinstance(schema, Mapping) else {}


def _field_hint(schema: dict[str, Any], key: str, defs: Mapping[str, Any]) -> str | None:
    """The hint of a missing key: what the field is (its description) and what to write in it."""
    described = schema.get("properties", {}).get(key, {})
    described = described.get(_AS_WRITTEN, described) if isinstance(described, dict) else described
    text = described.get("description") if isinstance(described, dict) else None
    written = accepted.write_hint(described, defs)
    if isinstance(text, str) and written is not None:
        return f"`{key}`: {text.rstrip('. ')}; {written}"
    if isinstance(text, str):
        return f"`{key}`: {text}"
    return f"`{key}`: {written}" if written is not None else None


def _did_you_mean(word: str, choices: Any) -> str | None:
    return did_you_mean(word, choices)


def _closest(word: str, choices: Any) -> str | None:
    """The choice a misspelt word most likely meant (the suggestion of a "did you mean")."""
    return closest(word, choices)


def _where(path: NodePath) -> str:
    return f" in `{_render_path(path)}`" if path else ""


def _about(path: NodePath, value: object = None) -> tuple[str, ...]:
    """What a schema diagnostic is about (its subjects): the place in the file, as its message
    names it, and the value found there where it is text the message shows whole (:func:`_show`).
    A longer value is named by its place: whole, an anchor of a long text aliased into many
    wrong places made each diagnostic carry it, the output growing with the aliases times the
    text where the messages stay a line."""
    shown = isinstance(value, str) and len(value) <= _SHOWN_WHOLE
    return (*((_render_path(path),) if path else ()), *((value,) if shown and isinstance(value, str) else ()))


def _render_path(path: NodePath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _type_of(value: Any) -> str:
    """What ``value`` is, in the designer's words (YAML's, not JSON Schema's `string`, `integer`).
    A number written with a point or an exponent whose value is whole (`3.0`, `1e3`) has no
    fraction: it is read as a decimal number, not a whole one."""
    if isinstance(value, float) and value.is_integer():
        return "a decimal number"
    return {
        bool: "true or false",
        int: "a whole number",
        float: "a number with a fraction",
        str: "a text",
        list: "a list",
        dict: "a mapping",
        type(None): "empty (null)",
    }.get(type(value), type(value).__name__)


#: Each JSON Schema type, as a designer calls what is written for it.
_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "null": "null",
    "string": "a text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}


def _types(rule: Any) -> str:
    listed = rule if isinstance(rule, list) else [rule]
    return " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in listed)


#: The longest text a schema error's message shows whole; a longer one is shown cut.
_SHOWN_WHOLE = words.SHOWN_WHOLE


def _show(value: Any) -> str:
    if isinstance(value, str):
        return words.shown(value, _SHOWN_WHOLE)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return f"`{value}`"


def _diag(
    code: codes.Code,
    message: str,
    span: Span,
    hint: str | None,
    suggestion: str | None = None,
    *,
    subjects: Iterable[object],
) -> Diagnostic:
    return Diagnostic(code.code, code.severity, message, span, hint, suggestion=suggestion, subjects=named(subjects))
