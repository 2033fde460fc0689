"""What a check says it reads (:attr:`civrules.checks.Check.reads`) is what it reads: no less, and
no more.

A long-running session reuses a check's findings after an edit of a collection it does not read,
and a diagnostic a variant causes goes to the variant's change of what its check reads: a check
that read more than it says would keep a stale finding, or send a designer to the wrong line; one
that says it reads more than it does sends the designer to the variant's `overlay:` line, with a
vague hint, whenever the variant also changes something the check never looks at (the designer
trial of round 18: P006, which reads the nations, said it read every collection and setting).

Each check that names what it reads runs here on every shipped ruleset of its family through a
watched model: every collection, every setting (as the manifest's data, the data files' settings,
their origins, or the model's typed field made of it), the rule index and the removed entities of
a collection report each read. Restricted, a read of what the check does not name raises; recorded,
everything the check names must have been read, on a shipped ruleset or on one of the check's
fixtures (a hint may read what only a finding needs).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import pytest

from civrules import checks
from civrules.checks import ALL_COLLECTIONS, RULE_INDEX, SETTINGS, Check, setting
from civrules.checks.catalogue import all_checks
from civrules.families import Family, families
from civrules.model import Collection, Ruleset
from civrules.pipeline import Analysis, analyse
from tests import shipped
from tests.conftest import RULES
from tests.rulefiles import CachedWorkspace, shipped_analysis

#: The fields of a model that hold something made of a setting (the setting's key; Advanced
#: Civilization's typed settings), or the rule index. A field that holds a collection is read as
#: that collection, whatever its name (Imperial Settlers' `components` is a collection).
MADE_OF: dict[str, str] = {
    "players": setting("players"),
    "best_players": setting("players"),
    "rule_index": RULE_INDEX,
    "credit_policy": setting("credit_policy"),
    "trade_stacks": setting("trade_stacks"),
    "total_cards": setting("total_cards"),
    "set_value": setting("set_value"),
    "mining": setting("mining"),
    "ast": setting("ast"),
    "components": setting("components"),
    "hand_limit": setting("hand_limit"),
    "taxation": setting("taxation"),
    "scoring": setting("victory"),
    "victory": setting("victory"),
    "player_count_rules": setting("player_counts"),
    "special_rules": setting("special_rules"),
    "non_player_forces": setting("non_player_forces"),
    "general_rules": setting("sequence_of_play"),
    "not_in_sources": setting("not_in_sources"),
    "block_bonuses": setting("non_native_block_bonus"),
    "deck_compositions": setting("deck_compositions"),
}
#: A map file's lists, as what they are read as (its `panel` is the file's own, as its id).
MAP_FILE_PARTS = {
    "flood_plains": "flood_plains",
    "excluded_borders": setting("excluded_borders"),
    "two_coast_areas": setting("two_coast_areas"),
}
#: The fields that hold no rule data a check could be said to read (files' names; the manifest's
#: `status` and `description` are neither a collection nor a setting: a manifest's edit runs every
#: check again); `data`, `settings`, `setting_origins`, `removed` and `removed_settings` are watched
#: key by key, `map_files` list by list.
UNWATCHED = frozenset(
    {
        "id",
        "name",
        "family",
        "manifest",
        "extends",
        "documents",
        "chain",
        "layers",
        "names",
        "status",
        "draft",
        "description",
    }
)
WATCHED_MAPPINGS = frozenset({"data", "settings", "setting_origins", "removed", "removed_settings", "map_files"})


class UndeclaredReadError(AssertionError):
    """A check read what its `reads` does not name."""


@dataclasses.dataclass(frozen=True)
class _Watch:
    """How a watched model reports a read: ``on_read`` gets the name :attr:`Check.reads` gives it."""

    on_read: Callable[[str], None]
    #: The model's fields by the name a read of them is (or the names: a field made of several).
    fields: Mapping[str, str | tuple[str, ...]]


def _watched_getattribute(self: Any, name: str) -> Any:
    value = object.__getattribute__(self, name)
    watch: _Watch = object.__getattribute__(self, "_watch")
    read = watch.fields.get(name)
    if isinstance(read, str):
        watch.on_read(read)
    elif read is not None:
        for each in read:
            watch.on_read(each)
    if name == "map_files":
        return tuple(_watched_value(map_file, MAP_FILE_PARTS, watch.on_read) for map_file in value)
    return value


_WATCHING: dict[type[Any], type[Any]] = {}


def _watching(cls: type[Any]) -> type[Any]:
    """A subclass of the frozen value ``cls`` whose instances report the reads of their fields."""
    made = _WATCHING.get(cls)
    if made is None:
        made = _WATCHING[cls] = type(f"Watched{cls.__name__}", (cls,), {"__getattribute__": _watched_getattribute})
    return made


def _watched_value(value: Any, fields: Mapping[str, str], on_read: Callable[[str], None]) -> Any:
    """``value`` (a frozen value) with the reads of ``fields`` reported to ``on_read``."""
    made = _watching(type(value))(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init})
    object.__setattr__(made, "_watch", _Watch(on_read, fields))
    return made


class _WatchedMapping(Mapping[str, Any]):
    """A mapping whose reads are reported by key (``name_of`` gives the name of a key's read, None:
    no rule data); listing its keys is reading them all (``listed``)."""

    def __init__(
        self,
        real: Mapping[str, Any],
        name_of: Callable[[str], str | None],
        on_read: Callable[[str], None],
        listed: str | None = SETTINGS,
        inner: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    ) -> None:
        self._real, self._name_of, self._on_read, self._listed, self._inner = real, name_of, on_read, listed, inner

    def __getitem__(self, key: str) -> Any:
        name = self._name_of(key)
        if name is not None:
            self._on_read(name)
        value = self._real[key]
        return self._inner(value) if self._inner is not None and isinstance(value, Mapping) else value

    def __iter__(self) -> Iterator[str]:
        if self._listed is not None:
            self._on_read(self._listed)
        return iter(self._real)

    def __len__(self) -> int:
        return len(self._real)


def _data_key(family: Family, key: str) -> str | None:
    """What reading the manifest's ``key`` reads: a setting, a collection the manifest holds, or
    nothing a check is said to read (its `id`, its `status`)."""
    if key in family.settings:
        return setting(key)
    held = [name for name, spec in family.collections.items() if spec.slot == "ruleset" and spec.path[0] == key]
    return held[0] if held else None


def watched(model: Ruleset, on_read: Callable[[str], None]) -> Ruleset:
    """``model`` with every read of rule data reported to ``on_read``, by the name
    :attr:`civrules.checks.Check.reads` gives it (a collection, `settings.<key>`, `settings` for
    them all, the rule index)."""
    family = families()[model.family]
    fields: dict[str, str] = {}
    collections: dict[str, Collection[Any]] = {}
    for field in dataclasses.fields(model):
        value = getattr(model, field.name)
        if isinstance(value, Collection):
            fields[field.name] = entities(value.name)
            collections[field.name] = _watched_collection(value, on_read)
        elif field.name in MADE_OF:
            fields[field.name] = MADE_OF[field.name]
        else:
            assert field.name in UNWATCHED | WATCHED_MAPPINGS, f"say what the model's `{field.name}` is read as"
    values = {field.name: getattr(model, field.name) for field in dataclasses.fields(model) if field.init}
    values.update(collections)

    def a_setting(key: str) -> str:
        return setting(key)

    def slot(values: Mapping[str, Any]) -> Mapping[str, Any]:
        return _WatchedMapping(values, a_setting, on_read)

    values["data"] = _WatchedMapping(model.data, functools.partial(_data_key, family), on_read)
    values["setting_origins"] = _WatchedMapping(model.setting_origins, a_setting, on_read)
    # A setting of a data file is looked for in every slot: listing the slots reads nothing.
    values["settings"] = _WatchedMapping(model.settings, lambda slot: None, on_read, listed=None, inner=slot)
    # An entity removed is a change of which entities there are: read by any declaration of them.
    values["removed"] = _WatchedMapping(model.removed, entities, on_read)
    # A setting removed is a change of that setting.
    values["removed_settings"] = _WatchedMapping(model.removed_settings, a_setting, on_read)
    made = _watching(type(model))(**values)
    object.__setattr__(made, "_watch", _Watch(on_read, fields))
    assert isinstance(made, Ruleset)
    return made


#: The model's fields of an entity made of fields written under other names (the fields that make
#: it, as :attr:`civrules.checks.Check.reads` names them), by the collection and field; any
#: other field written nowhere (derived from the entity as a whole) is a read of the whole entity.
DERIVED: dict[tuple[str, str], tuple[str, ...]] = {
    # Imperial Settlers: a card's copies are its printed ids where it writes no `copies:`.
    ("cards", "copies"): ("cards.copies", "cards.printed_ids"),
}


def entities(collection: str) -> str:
    """The read of a collection's entities as such: listing them, looking one up, their ids. Every
    declaration of the collection covers it, whole or by fields (an entity added or removed is a
    change of each of its fields); a check that reads nothing else declares `collection.id`."""
    return f"{collection}.id"


@functools.cache
def _schema_keys() -> frozenset[str]:
    """Every key a schema describes: an entity's field of one of these names is written in the data
    as that key (a field of another name is made of the entity as a whole, or :data:`DERIVED`)."""
    import json
    from pathlib import Path

    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            properties = value.get("properties")
            if isinstance(properties, dict):
                found.update(properties)
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for file in sorted((Path(__file__).parents[2] / "schemas").rglob("*.json")):
        walk(json.loads(file.read_text(encoding="utf-8")))
    return frozenset(found)


def _watched_collection(collection: Collection[Any], on_read: Callable[[str], None]) -> Collection[Any]:
    """``collection`` whose entities report the reads of their fields: `collection.field` for a
    field written in the data (its raw mapping key by key), the collection whole for one derived
    from the entity as a whole (its raw mapping listed), nothing for its origin (where it is
    written, not what)."""
    name = collection.name
    written = _schema_keys()

    def read_of(field: str) -> str | tuple[str, ...] | None:
        if field in ("origin", "raw"):  # the raw mapping reports its keys' reads itself
            return None
        if field == "id":
            return entities(name)
        made_of = DERIVED.get((name, field))
        if made_of is not None:
            return made_of
        return f"{name}.{field}" if field in written or field == "name" else name

    made: list[Any] = []
    for item in collection:
        reads = {f.name: read_of(f.name) for f in dataclasses.fields(item)}
        raw = _WatchedMapping(item.raw, lambda key: f"{name}.{key}", on_read, listed=name)
        values = {f.name: raw if f.name == "raw" else getattr(item, f.name) for f in dataclasses.fields(item) if f.init}
        watched_item = _watching(type(item))(**values)
        object.__setattr__(watched_item, "_watch", _Watch(on_read, {f: r for f, r in reads.items() if r is not None}))
        made.append(watched_item)
    # Indexed by the ids as they are (looking each up would be a read), the first of an id winning.
    by_id: dict[str, Any] = {}
    for item, watched_item in zip(collection, made, strict=True):
        by_id.setdefault(item.id, watched_item)
    return Collection(name, tuple(made), by_id, collection.unique_ids)


def _names(reads: Iterable[str]) -> frozenset[str]:
    """What a declaration covers at a collection's granularity: its collections (whole or a field of
    them), its settings, the rule index."""
    return frozenset(name if name.startswith(f"{SETTINGS}.") else name.partition(".")[0] for name in reads)


def covers(reads: frozenset[str], read: str) -> bool:
    """Whether a check declaring ``reads`` may make the read ``read`` (``ALL_COLLECTIONS``: a core
    check's every collection, which it cannot name; not the rule index, nor a setting): a field of
    an entity is covered by its collection whole or by that field, the entities as such by any
    declaration of their collection, the collection whole only by itself."""
    if ALL_COLLECTIONS in reads and read != RULE_INDEX and not read.startswith(f"{SETTINGS}."):
        return True
    if read.startswith(f"{SETTINGS}."):
        return read in reads or SETTINGS in reads
    collection = read.partition(".")[0]
    if read == entities(collection):
        return collection in _names(reads)
    return read in reads or collection in reads


def restricted(model: Ruleset, entry: Check) -> Ruleset:
    """``model`` as ``entry`` may read it: a read of what it does not declare raises."""
    reads = entry.all_reads  # what it reads for its hints too
    assert reads is not None

    def on_read(read: str) -> None:
        if not covers(reads, read):
            raise UndeclaredReadError(f"read `{read}`")

    return watched(model, on_read)


def reads_of(entry: Check, models: Iterable[Ruleset]) -> set[str]:
    """What ``entry`` reads of ``models`` (the results the same as on the models themselves)."""
    found: set[str] = set()
    for model in models:
        assert list(entry.run(watched(model, found.add))) == list(entry.run(model)), model.id
    return found


def never_read(entry: Check, found: set[str]) -> list[str]:
    """What ``entry`` declares and was not seen to read (``SETTINGS`` is read by listing them), and
    each collection it declares whole but was seen to read only some fields of, with those fields
    (the declaration to write instead): a whole collection sends a variant's diagnostic to its
    `overlay` block whenever the variant also changes a field the check never reads (round 19:
    F008 read the cards' printed ids and decks, and declared `cards`)."""
    reads = entry.all_reads  # what it reads for its hints too
    assert reads is not None
    if ALL_COLLECTIONS in reads and not any(
        read != RULE_INDEX and not read.startswith(f"{SETTINGS}.") for read in found
    ):
        return [ALL_COLLECTIONS]
    unread = []
    for name in sorted(reads - {ALL_COLLECTIONS}):
        if name in (SETTINGS, RULE_INDEX) or name.startswith(f"{SETTINGS}."):
            if name not in found:
                unread.append(name)
            continue
        collection = name.partition(".")[0]
        if name in found or (name != collection and collection in found):
            continue
        if name != collection:
            unread.append(name)
            continue
        fields = sorted(read for read in found if read.startswith(f"{collection}.") and read != entities(collection))
        if fields or entities(collection) in found:
            unread.append(f"{name} whole (it reads {', '.join(fields or [entities(collection)])})")
        else:
            unread.append(name)
    return unread


@functools.cache
def _models(family: str) -> tuple[Ruleset, ...]:
    """Every shipped ruleset of ``family``, analysed when a test first asks (not at collection)."""
    found = []
    for ruleset_id, manifest in sorted(CachedWorkspace().manifests().items()):
        if manifest.family.id == family:
            model = shipped_analysis(ruleset_id).model
            assert model is not None, ruleset_id
            found.append(model)
    return tuple(found)


#: A core check that says what it reads (family None) runs on every family's rulesets.
DECLARED = [entry for entry in all_checks() if entry.reads is not None]


def _models_of(entry: Check) -> tuple[Ruleset, ...]:
    """The shipped rulesets ``entry`` is run on: its family's, or every family's for a core check."""
    if entry.family is not None:
        return _models(entry.family)
    return tuple(model for family in sorted(families()) for model in _models(family))


def _first_of_each_family() -> list[Check]:
    """`make test`'s representatives of the sweeps below (`make test-slow` runs every check): each
    family's first check and the core's, and the checks whose declarations this guard has caught
    (round 19: F008 declared the cards whole; C001 and M005 read fields of theirs). Watching every
    read of every shipped ruleset, field by field, costs 6 s of CPU for the hundred checks."""
    chosen: dict[str | None, Check] = {}
    for entry in sorted(DECLARED, key=lambda entry: entry.code.code):
        chosen.setdefault(entry.family, entry)
    caught = [entry for entry in DECLARED if entry.code.code in ("F008", "C001", "M005")]
    return sorted({*chosen.values(), *caught}, key=lambda entry: entry.code.code)


#: Each sweep over the checks, in `make test` (the representatives) and `make test-slow` (the rest).
SWEEP = [
    pytest.param(entry, id=entry.code.code, marks=() if entry in _first_of_each_family() else pytest.mark.slow)
    for entry in DECLARED
]


@pytest.mark.parametrize("entry", SWEEP)
def test_a_check_reads_only_what_it_says_it_reads(entry: Check) -> None:
    models = _models_of(entry)
    assert models
    for model in models:
        assert list(entry.run(restricted(model, entry))) == list(entry.run(model)), model.id


@pytest.mark.parametrize("entry", SWEEP)
def test_a_check_says_it_reads_nothing_it_never_reads(entry: Check) -> None:
    """Every name of a declaration is read on a shipped ruleset, or else on a fixture of the check
    (each analysed only when the shipped rulesets leave a name unread)."""
    found = reads_of(entry, _models_of(entry))
    unread = never_read(entry, found)
    for model in _fixture_models(entry.code.code) if unread else ():
        found |= reads_of(entry, [model])
        unread = never_read(entry, found)
        if not unread:
            break
    assert unread == [], f"{entry.code.code} declares {unread} and never reads them"


def _fixture_models(code: str) -> Iterator[Ruleset]:
    """The models of the check's fixtures, the failing ones first."""
    from tests.core.test_checks import CASES, apply_edits

    for case in sorted((case for case in CASES if case.code == code), key=lambda case: case.passing):
        workspace = CachedWorkspace(apply_edits(case.edits))
        model = analyse(workspace, workspace.load_ruleset(workspace.manifests()[case.ruleset])).model
        if model is not None:
            yield model


@pytest.mark.slow
@pytest.mark.parametrize("entry", DECLARED, ids=[entry.code.code for entry in DECLARED])
def test_a_check_reads_only_what_it_says_on_every_fixture(entry: Check) -> None:
    """A finding's message and hint may read what the shipped rulesets, which have no finding of
    most checks, never make them read: every fixture of the check, failing and passing."""
    for model in _fixture_models(entry.code.code):
        assert list(entry.run(restricted(model, entry))) == list(entry.run(model)), model.id


def test_every_family_check_says_what_it_reads() -> None:
    """A family's check that says nothing may read anything: a variant's diagnostic it causes goes
    to the variant's `overlay:` line whenever the variant changes two things."""
    silent = [entry.code.code for entry in all_checks() if entry.family is not None and entry.reads is None]
    assert silent == []


def _one(code: str) -> Check:
    (entry,) = [e for e in DECLARED if e.code.code == code]
    return entry


def test_the_restriction_catches_a_check_that_reads_more_than_it_says() -> None:
    entry = _one("T015")
    liar = dataclasses.replace(entry, reads=frozenset({"victories"}))  # it reads `coins` too
    (model,) = [m for m in _models("sid-meiers-civilization") if m.id == "sid-meiers-civilization"]
    with pytest.raises(UndeclaredReadError, match="coins"):
        list(liar.run(restricted(model, liar)))


def test_the_restriction_catches_a_typed_setting_read_undeclared() -> None:
    """Advanced Civilization's checks read most settings as the model's typed fields (`ast`,
    `trade_stacks`, `players`), not from the manifest's mapping: a read of one is a read all the same."""
    entry = _one("D005")  # the stacks against the players
    liar = dataclasses.replace(entry, reads=frozenset({"commodities", setting("trade_stacks")}))
    (model,) = [m for m in _models("advanced-civilization") if m.id == "advanced-civilization"]
    with pytest.raises(UndeclaredReadError, match=r"settings\.players"):
        list(liar.run(restricted(model, liar)))


def test_the_record_catches_a_check_that_says_it_reads_more_than_it_does() -> None:
    """What round 18's designer trial found: P006 reads the nations and said it read every
    collection and setting of the cards' files and the manifest."""
    entry = _one("P006")
    boaster = dataclasses.replace(entry, reads=frozenset({"nations.ast_position", "civilization_cards", SETTINGS}))
    found = reads_of(boaster, _models("advanced-civilization"))
    assert found == {"nations.ast_position", "nations.id"}
    assert never_read(boaster, found) == ["civilization_cards", SETTINGS]


def test_the_record_catches_a_check_that_says_it_reads_a_whole_collection_it_reads_fields_of() -> None:
    """What round 19's designer trial found: F008 read the cards' printed ids and copies and said
    it read every field of the cards, and the guard, which watched reads by collection, let it
    (a field of a collection was read as the collection): a variant's unrelated cost patch sent
    F008's diagnostic to the `cards:` block. Reads are watched field by field now."""
    entry = _one("F008")
    boaster = dataclasses.replace(entry, reads=frozenset({"cards", "decks.prefix"}))
    found = reads_of(boaster, _models("imperial-settlers"))
    assert {"cards.printed_ids", "cards.copies"} <= found and "cards.cost" not in found
    (whole,) = never_read(boaster, found)
    assert whole.startswith("cards whole (it reads ") and "cards.printed_ids" in whole


def test_the_restriction_catches_a_field_read_undeclared() -> None:
    """A check that names the fields it reads may read no other field of their collection: F007
    reads the cards' decks beside their printed ids."""
    entry = _one("F007")
    liar = dataclasses.replace(entry, reads=frozenset({"cards.printed_ids", "decks.prefix"}))
    (model,) = [m for m in _models("imperial-settlers") if m.id == "imperial-settlers"]
    with pytest.raises(UndeclaredReadError, match=r"cards\.deck"):
        list(liar.run(restricted(model, liar)))


def test_a_check_of_every_collection_is_run_again_after_an_edit_of_any_but_the_rule_index() -> None:
    """A core check reads every family's collections without naming them (`ALL_COLLECTIONS`): a
    session runs it again after an edit of any collection, and reuses what it found after an edit of
    the rule index, which it does not read."""
    (entry,) = [e for e in all_checks() if e.code.code == "Q008"]
    assert entry.reads is not None and ALL_COLLECTIONS in entry.reads
    assert entry.reads_any_of({"buildings"}) and entry.reads_any_of({"cards", "rule_index"})
    assert not entry.reads_any_of({"rule_index"})
    (named,) = [e for e in all_checks() if e.code.code == "T015"]
    assert not named.reads_any_of({"buildings"})


#: The checks whose findings are kept for every ruleset holding what they are made of
#: (:func:`civrules.checks.made_of`).
SHARED = [entry for entry in all_checks() if entry.made_of is not None]


def fenced(model: Ruleset, made_of: Iterable[str]) -> Ruleset:
    """``model`` where a read of any of its fields but ``made_of`` raises: its id, family, layers,
    chain, files, manifest, settings' mappings and origins, every collection and typed setting.
    A method of the model reads through the same fence."""
    allowed = frozenset(made_of)
    # a map file's lists are read through the model's `map_files`, as what each is read as
    within = frozenset(MAP_FILE_PARTS.values()) if "map_files" in allowed else frozenset()

    def on_read(read: str) -> None:
        if read not in allowed | within:
            raise UndeclaredReadError(f"read the ruleset's `{read}`")

    values = {field.name: getattr(model, field.name) for field in dataclasses.fields(model) if field.init}
    made = _watching(type(model))(**values)
    object.__setattr__(made, "_watch", _Watch(on_read, {field.name: field.name for field in dataclasses.fields(model)}))
    assert isinstance(made, Ruleset)
    return made


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(entry, id=entry.code.code, marks=() if entry.code.code in ("C004", "M002") else pytest.mark.slow)
        for entry in SHARED
    ],
)
def test_a_shared_check_reads_nothing_of_the_ruleset_but_what_its_findings_are_made_of(entry: Check) -> None:
    """A check made of some fields of the model is given, in every ruleset holding them, what it
    found in the first: it may read nothing else of the ruleset (its id, layers, chain, files,
    another setting), on every shipped ruleset of its family and every fixture of the check."""
    assert entry.made_of is not None
    models = _models_of(entry)
    fixtures = tuple(_fixture_models(entry.code.code)) if entry.code.code not in ("C004", "M002") else ()
    for model in (*models, *fixtures):
        assert list(entry.run(fenced(model, entry.made_of))) == list(entry.run(model)), model.id


def test_the_fence_catches_a_shared_check_that_reads_what_its_findings_are_not_said_to_be_made_of() -> None:
    """C007 reads the credit policy beside the cards: declared made of the cards alone, each
    variant writing another policy would be given the base's findings."""
    (entry,) = [e for e in SHARED if e.code.code == "C007"]
    assert entry.made_of == ("cards", "credit_policy")
    (model,) = [m for m in _models("advanced-civilization") if m.id == "advanced-civilization"]
    with pytest.raises(UndeclaredReadError, match="credit_policy"):
        list(entry.run(fenced(model, ("cards",))))
    (m002,) = [e for e in SHARED if e.code.code == "M002"]
    assert m002.made_of == ("areas", "borders")
    with pytest.raises(UndeclaredReadError, match="borders"):
        list(m002.run(fenced(model, ("areas",))))


def _empty(name: str, base: str) -> str:
    return f"kind: ruleset\nid: {name}\nname: Empty\nextends: {base}\n"


def _with_empty_variants(base: str, count: int) -> list[Analysis]:
    """The analyses of the shipped ruleset ``base`` and of ``count`` variants of it that change
    nothing, analysed as one command of them all analyses them (one resolver, the memos they share)."""
    from civrules.pipeline import Shared
    from civrules.resolve import Resolver

    names = [f"zz-empty-{i}" for i in range(count)]
    workspace = CachedWorkspace({f"rulesets/{name}.yaml": _empty(name, base) for name in names})
    resolver, shared = Resolver(workspace), Shared(count + 1)
    analyses = []
    for name in (base, *names):
        with shared.ruleset():
            analyses.append(analyse(workspace, workspace.load_ruleset(workspace.manifests()[name]), resolver=resolver))
        assert analyses[-1].model is not None, name
    return analyses


def _held_by_an_empty_variant(base: str) -> tuple[Ruleset, Ruleset]:
    """The models of the shipped ruleset ``base`` and of a variant of it that changes nothing."""
    models = [analysis.model for analysis in _with_empty_variants(base, 1)]
    assert models[0] is not None and models[1] is not None
    return models[0], models[1]


@pytest.mark.slow
@pytest.mark.parametrize("base", sorted(name for name in shipped.RULESETS if name not in shipped.EXTENDS))
def test_a_variant_that_changes_nothing_holds_each_field_its_checks_findings_are_made_of(base: str) -> None:
    """A check made of some fields is run once for every ruleset holding them, the very objects
    (:func:`civrules.checks.made_of`): a field the model made anew in each ruleset, equal but not
    the same (Advanced Civilization's map files and every family's player range, each built
    again; Imperial Settlers' and Sid Meier's collections, built without the assembly's memo), had
    those checks run again in each variant of a base, for nothing."""
    model, variant = _held_by_an_empty_variant(base)
    made_of = {one for entry in SHARED if entry.family == model.family for one in entry.made_of or ()}
    assert made_of
    assert [name for name in sorted(made_of) if getattr(variant, name) is not getattr(model, name)] == []


#: The checks whose hints cite as the ruleset's rule index allows (`rule:` or `source:`, a blank:
#: :meth:`Ruleset.citation_blank`), their findings made of the rule index beside their collections.
CITING_AS_THE_INDEX_ALLOWS = ("K003", "K008", "K009")


def test_the_checks_citing_as_the_rule_index_allows_run_once_for_a_base_and_its_variants_keeping_its_index() -> None:
    """K003, K008 and K009 word a hint's citation as the rule index allows, so their findings are
    made of it (:func:`civrules.checks.made_of`): a variant reading its base's index file holds
    the base's very rule index (made once through the assembly's memo), and they run once for
    both, not once each (round 33 ran them in each ruleset: the index was made anew in each). A
    variant naming another index holds another, and they run again for it. Counted by the calls
    of each check's own function; each ruleset's findings are those of its analysis alone."""
    import inspect
    import sys

    from civrules.pipeline import Shared
    from civrules.resolve import Resolver

    other = (
        "kind: ruleset\nid: zz-other-index\nname: Other index\nextends: advanced-civilization\n"
        "rulebook: {title: Mega Civilization, rule_index: rulebooks/mega-civilization.yaml}\n"
    )
    names = ["zz-empty-0", "zz-empty-1", "zz-other-index"]
    # Law says it reduces Famine, which has no Law modifier: K009's hint writes the modifier,
    # cited with the blank the index allows (`rule:` in Advanced Civilization's, `source:` in Mega
    # Civilization's, which has no section to cite)
    cards = (RULES / "cards/advanced-civilization.yaml").read_text(encoding="utf-8")
    link = '          - {calamity: iconoclasm_and_heresy, effect: reduces, rule: "30.812"}\n'
    assert cards.count(link) == 1
    workspace = CachedWorkspace(
        {
            "cards/advanced-civilization.yaml": cards.replace(
                link, link + '          - {calamity: famine, effect: reduces, rule: "30.312"}\n'
            ),
            "rulesets/zz-empty-0.yaml": _empty("zz-empty-0", "advanced-civilization"),
            "rulesets/zz-empty-1.yaml": _empty("zz-empty-1", "advanced-civilization"),
            "rulesets/zz-other-index.yaml": other,
        }
    )
    counted = {inspect.unwrap(_one(code).run).__code__: code for code in CITING_AS_THE_INDEX_ALLOWS}
    frames: dict[str, list[Any]] = {code: [] for code in CITING_AS_THE_INDEX_ALLOWS}

    def count(frame: Any, event: str, arg: Any) -> None:
        code = counted.get(frame.f_code) if event == "call" else None
        if code is not None and all(frame is not seen for seen in frames[code]):
            frames[code].append(frame)  # a generator's frame is called again at each finding

    resolver, shared = Resolver(workspace), Shared(len(names) + 1)
    analyses = []
    sys.setprofile(count)
    try:
        for name in ("advanced-civilization", *names):
            loaded = workspace.load_ruleset(workspace.manifests()[name])
            with shared.ruleset():
                analyses.append(analyse(workspace, loaded, resolver=resolver))
    finally:
        sys.setprofile(None)
    models = [analysis.model for analysis in analyses]
    assert all(model is not None for model in models)
    base, empty_0, empty_1, other_index = models
    assert base is not None and empty_0 is not None and empty_1 is not None and other_index is not None
    assert base.rule_index is empty_0.rule_index is empty_1.rule_index is not None
    assert other_index.rule_index is not None and other_index.rule_index is not base.rule_index
    assert {code: len(called) for code, called in frames.items()} == dict.fromkeys(CITING_AS_THE_INDEX_ALLOWS, 2)
    for name, analysis in zip(("advanced-civilization", *names), analyses, strict=True):
        alone = analyse(workspace, workspace.load_ruleset(workspace.manifests()[name]))
        assert alone.found_by is not None and analysis.found_by is not None
        for code in CITING_AS_THE_INDEX_ALLOWS:
            assert analysis.found_by[code] == alone.found_by[code], (name, code)
    hints = [[one.hint or "" for one in analysis.found_by["K009"]] for analysis in analyses if analysis.found_by]
    assert len(hints) == 4 and all(len(found) == 1 for found in hints)
    assert hints[0] == hints[1] == hints[2] and "rule: " in hints[0][0] and "source: " in hints[3][0]


def _shared_parts() -> list[Any]:
    """Each part of a check whose findings are made of some fields alone (:func:`made_of` on a
    helper: M021's memberships, its hints' layers read apart), with the check it serves."""
    from civrules.families.advanced_civilization.checks import regions

    return [pytest.param(regions._memberships, "M021", id="M021-memberships")]


@pytest.mark.parametrize(("part", "code"), _shared_parts())
@pytest.mark.parametrize("fixtures", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_shared_part_of_a_check_reads_nothing_but_what_it_is_made_of(part: Any, code: str, fixtures: bool) -> None:
    """A check's part made of some fields (M021's findings, without the hint the layers choose) is
    given to every ruleset holding them, as a shared check's findings are: it may read nothing
    else of the ruleset, on every shipped ruleset of its family and every fixture of its check."""
    fields = getattr(part, checks.MADE_OF)
    entry = _one(code)
    models = tuple(_fixture_models(code)) if fixtures else _models_of(entry)
    assert models
    for model in models:
        assert list(part(fenced(model, fields))) == list(part(model)), model.id


@pytest.mark.slow
def test_m021_looks_through_the_flood_plains_once_for_every_ruleset_holding_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """M021 read each ruleset's layers (for the hint telling a variant how to list an area it put
    on a flood plain), so it went through every area and flood plain again in each variant holding
    its base's: its findings are now made once for them, the layers read for each ruleset's hint
    alone. The diagnostics are those of each ruleset analysed alone."""
    from civrules.families.advanced_civilization.checks import regions

    looks: list[str] = []
    spans = regions.member_spans

    def counted(ruleset: Any) -> Any:
        looks.append(ruleset.id)
        return spans(ruleset)

    monkeypatch.setattr(regions, "member_spans", counted)
    analyses = _with_empty_variants("advanced-civilization", 2)
    assert looks and set(looks) == {"advanced-civilization"}  # the base alone: its variants are given what it found
    for analysis in analyses:
        name = analysis.loaded.id
        own = {f"rulesets/{name}.yaml": _empty(name, "advanced-civilization")} if name.startswith("zz-") else {}
        workspace = CachedWorkspace(own)
        alone = analyse(workspace, workspace.load_ruleset(workspace.manifests()[analysis.loaded.id]))
        assert alone.diagnostics == analysis.diagnostics, analysis.loaded.id


def test_what_a_check_declares_it_reads_is_made_once() -> None:
    """A long-lived session asks each check what it reads (:attr:`Check.all_reads`, and its
    collections) in each ruleset an edit checks again: ninety checks in each of thirteen rulesets
    under an edit of a base. Made once for the check (the very sets at each ask), not again at
    each; a check made anew from it (``dataclasses.replace``) answers for what it declares."""
    for entry in DECLARED:
        assert entry.all_reads is entry.all_reads and entry.read_collections is entry.read_collections
        assert entry.all_reads == (entry.reads or frozenset()) | entry.hint_reads
    entry = _one("T015")
    other = dataclasses.replace(entry, hint_reads=frozenset({"wonders"}))
    assert other.all_reads == (entry.all_reads or frozenset()) | {"wonders"} and "wonders" in other.read_collections
    assert "wonders" not in (entry.all_reads or ())
