"""docs/engine.md ("Records and tables are values"): ``Record.from_dict`` is ``asdict()``'s inverse, of
its output and of ``json.loads`` of its JSON, for every record of every shipped package (each record
class they hold, nested ones too), checked as a call of the class checks (round 33). Its two limits
are ``asdict()``'s: a field holding one of several record classes with the same fields is refused,
never guessed, and a settings record's unknown fields are not in ``asdict()``."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import REPO
from tests.engine.test_type_hints import EVERY_PACKAGE_SWEPT

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_rulesets import expansion_project as ep  # noqa: E402
from civrules_rulesets import sid_meiers_civilization as smc  # noqa: E402
from civrules_runtime import NotACollectionError, OutOfDomainError  # noqa: E402
from civrules_runtime.mappings import FrozenMap  # noqa: E402
from civrules_runtime.records import Record, SettingsRecord  # noqa: E402


def _records(value: object) -> Iterator[Record]:
    if isinstance(value, Record):
        yield value
        for field in value._values():
            yield from _records(field)
    elif isinstance(value, tuple):
        for item in value:
            yield from _records(item)
    elif isinstance(value, FrozenMap):
        for item in value.values():
            yield from _records(item)


def _every_record(package: Any) -> dict[Record, None]:
    found: dict[Record, None] = {}
    for name in package.__all__:
        for record in _records(getattr(package, name)):
            found.setdefault(record)
    return found


def _has_unknown_fields(record: Record) -> bool:
    return any(isinstance(each, SettingsRecord) and each.unknown_fields for each in _records(record))


def _same_fields_effects(record: Record) -> bool:
    """Whether ``record`` holds (or is) an Advanced Civilization ``Attribute`` whose effects include
    a ``HandLimitChange`` or a ``CitySupport``: ``{"change": n}`` in asdict() for both."""
    return any(
        type(effect).__name__ in ("HandLimitChange", "CitySupport")
        for each in _records(record)
        if type(each).__name__ == "Attribute"
        for effect in each.effects  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("package", EVERY_PACKAGE_SWEPT)
def test_every_record_is_made_again_from_its_asdict_and_its_json(package: str) -> None:
    imported = importlib.import_module(f"civrules_rulesets.{package}")
    classes: dict[type[Record], int] = {}
    for record in _every_record(imported):
        cls = type(record)
        classes.setdefault(cls, 0)
        for given in (record.asdict(), json.loads(json.dumps(record.asdict()))):
            if _same_fields_effects(record):
                with pytest.raises(OutOfDomainError, match=r"is a record of any of CitySupport, HandLimitChange"):
                    cls.from_dict(given)
                continue
            made = cls.from_dict(given)
            assert type(made) is cls
            assert made.asdict() == record.asdict(), record
            if _has_unknown_fields(record):  # asdict() does not say which None fields are unknown
                continue
            assert made == record, record
            assert hash(made) == hash(record)
            classes[cls] += 1
    assert classes
    # each record class the package holds was made again equal to a record of it, but a settings
    # record whose shipped ones all have unknown fields
    assert [cls.__name__ for cls, equal in classes.items() if not equal and not issubclass(cls, SettingsRecord)] == []


def _untagged(value: object) -> object:
    """``value`` (an ``asdict(tagged=True)``) without the keys that tag it."""
    if isinstance(value, dict):
        return {key: _untagged(item) for key, item in value.items() if key not in ("@record", "@unknown_fields")}
    if isinstance(value, (tuple, list)):
        return type(value)(_untagged(item) for item in value)
    return value


@pytest.mark.parametrize("package", EVERY_PACKAGE_SWEPT)
def test_every_record_is_made_again_equal_from_its_tagged_asdict_and_its_json(package: str) -> None:
    """``asdict(tagged=True)`` is lossless (round 34): every record comes back equal, with an equal
    hash, those ``asdict()`` cannot say (an effect whose fields another effect class has, a settings
    record's unknown fields) included; the tagged dict is ``asdict()`` plus its tags, and no more."""
    imported = importlib.import_module(f"civrules_rulesets.{package}")
    tags: dict[str, int] = {"@record": 0, "@unknown_fields": 0}
    for record in _every_record(imported):
        tagged = record.asdict(tagged=True)
        assert _untagged(tagged) == record.asdict(), record
        written = json.dumps(tagged)
        for tag in tags:
            tags[tag] += written.count(f'"{tag}"')
        for given in (tagged, json.loads(written)):
            made = type(record).from_dict(given)
            assert type(made) is type(record)
            assert made == record, record
            assert hash(made) == hash(record)
            if isinstance(record, SettingsRecord):
                assert isinstance(made, SettingsRecord) and made.unknown_fields == record.unknown_fields
    if package in ("advanced_civilization", "expansion_project"):  # effects, unknown fields (EP's nations)
        assert tags["@record"] and (package == "advanced_civilization" or tags["@unknown_fields"]), tags


def test_a_tagged_effect_names_its_class_and_no_other_record_does() -> None:
    """Only a record of a class one of several a field may hold names its class (an engine on a
    runtime before 2.18 reads every other record of a tagged dict as before)."""
    diaspora = ep.CARDS["diaspora"]
    tagged = diaspora.asdict(tagged=True)
    assert "@record" not in tagged
    effects = [effect for attribute in tagged["attributes"] for effect in attribute["effects"]]  # type: ignore[attr-defined]
    assert effects and all("@record" in effect and next(iter(effect)) == "@record" for effect in effects)
    held = [effect for attribute in diaspora.attributes or () for effect in attribute.effects]
    assert [effect["@record"] for effect in effects] == [type(effect).__name__ for effect in held]
    assert {"@record": "HandLimitChange", "change": -1} in effects
    assert ac.CARDS["law"].asdict(tagged=True) == ac.CARDS["law"].asdict()
    assert "@unknown_fields" not in ac.SETTINGS.asdict(tagged=True)  # it has none
    assert ep.SETTINGS.asdict(tagged=True)["@unknown_fields"] == list(ep.SETTINGS.unknown_fields)


def test_what_from_dict_refuses_of_the_tags() -> None:
    diaspora = ep.CARDS["diaspora"]
    card = type(diaspora)
    tagged = diaspora.asdict(tagged=True)
    with pytest.raises(OutOfDomainError, match=r"^Card\.from_dict: the dict is of the record 'Calamity' \(@record\)"):
        card.from_dict({**tagged, "@record": "Calamity"})
    attribute = dict(tagged["attributes"][0])  # type: ignore[index]
    effect = {**attribute["effects"][0], "@record": "Nonsense"}
    with pytest.raises(
        OutOfDomainError, match=r"^'Nonsense' \(@record\) is none of the records this field holds: Immunity"
    ):
        card.from_dict({**tagged, "attributes": [{**attribute, "effects": [effect]}]})
    with pytest.raises(OutOfDomainError, match=r"^Card\.from_dict: @unknown_fields is for a settings record"):
        card.from_dict({**tagged, "@unknown_fields": ["cost"]})
    settings = type(ep.SETTINGS)
    given = ep.SETTINGS.asdict(tagged=True)
    with pytest.raises(
        OutOfDomainError, match=r"^Settings\.from_dict: @unknown_fields is a list of its data's keys, not 'x'"
    ):
        settings.from_dict({**given, "@unknown_fields": "x"})
    with pytest.raises(
        OutOfDomainError,
        match=r"^Settings\.from_dict: @unknown_fields names 'nonsense', no key of its data: its keys are ",
    ):
        settings.from_dict({**given, "@unknown_fields": ["nonsense"]})


def test_the_diaspora_attribute_is_refused_not_guessed() -> None:
    """Expansion Project's Diaspora has an effect ``CitySupport(change=-1)`` beside Central
    America's; ``HandLimitChange(change=-1)`` has the same asdict()."""
    diaspora = ep.CARDS["diaspora"]
    effects = [effect for attribute in diaspora.attributes or () for effect in attribute.effects]
    assert {"change": -1} in [effect.asdict() for effect in effects]
    with pytest.raises(OutOfDomainError, match=r"asdict\(\) does not say which it was \(save asdict\(tagged=True\)"):
        type(diaspora).from_dict(diaspora.asdict())
    # each class alone reads it
    for effect in effects:
        assert type(effect).from_dict(effect.asdict()) == effect


def test_whole_number_keys_json_wrote_as_text_are_numbers_again() -> None:
    research = smc.RESEARCH
    assert research is not None and research.costs
    written = json.loads(json.dumps(research.asdict()))
    assert all(isinstance(key, str) for key in written["costs"])
    made = type(research).from_dict(written)
    assert made == research
    assert list(made.costs) == list(research.costs)


def test_a_settings_record_is_made_again_with_its_values_not_its_unknown_fields() -> None:
    settings = ac.SETTINGS
    made = type(settings).from_dict(json.loads(json.dumps(settings.asdict())))
    assert made.asdict() == settings.asdict()
    assert made.unknown_fields == ()


def test_what_from_dict_refuses_is_the_runtimes_error_naming_what() -> None:
    law = ac.CARDS["law"]
    card = type(law)
    given = law.asdict()
    with pytest.raises(NotACollectionError, match=r"^Card\.from_dict takes a mapping of its fields .*not 'law'"):
        card.from_dict("law")  # type: ignore[arg-type]
    with pytest.raises(OutOfDomainError, match=r"'costs' is no field of Card: did you mean 'cost'\?"):
        card.from_dict({**given, "costs": 80})
    without = dict(given)
    del without["cost"]
    with pytest.raises(OutOfDomainError, match=r"^Card\.from_dict: cost missing"):
        card.from_dict(without)
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost='ten' is not of its type"):
        card.from_dict({**given, "cost": "ten"})
    with pytest.raises(OutOfDomainError, match=r"^Card\.cost=0 is outside its schema's bound"):
        card.from_dict({**given, "cost": 0})
    with pytest.raises(OutOfDomainError, match=r"^Card\.groups=.* is not of its type"):
        card.from_dict({**given, "groups": ["no_such_group"]})
    attribute = dict(given["attributes"][0])  # type: ignore[index]
    with pytest.raises(OutOfDomainError, match=r"^Attribute\.rules=.* is not of its type"):
        card.from_dict({**given, "attributes": [{**attribute, "rules": 5}]})
    with pytest.raises(OutOfDomainError, match=r"^Attribute\.from_dict: 'rule' is no field"):
        card.from_dict({**given, "attributes": [{**{k: v for k, v in attribute.items() if k != "rules"}, "rule": ()}]})
    with pytest.raises(OutOfDomainError, match=r"no record of .* has the fields nonsense"):
        card.from_dict({**given, "attributes": [{**attribute, "effects": [{"nonsense": 1}]}]})


def test_a_record_refused_as_a_whole_is_shown_cut_not_printed_in_full() -> None:
    """A refusal of a whole record (its ``_problem``) shows the record as every refusal does, cut
    (``errors.shown``): a settings record's repr is some 20,000 characters (round 34; it was printed
    in full)."""
    settings = ep.SETTINGS
    fields = {name: getattr(settings, name) for name in type(settings)._fields}
    with pytest.raises(
        OutOfDomainError, match=r"^Settings\(description=.*\.\.\.: its unknown fields are keys"
    ) as refused:
        type(settings)(**fields, unknown_fields=("nonsense",))
    assert len(str(refused.value)) < 400, len(str(refused.value))
