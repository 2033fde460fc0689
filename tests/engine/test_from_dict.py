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
from tests.engine.test_type_hints import EVERY_PACKAGE

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


@pytest.mark.parametrize("package", EVERY_PACKAGE)
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


def test_the_diaspora_attribute_is_refused_not_guessed() -> None:
    """Expansion Project's Diaspora has an effect ``CitySupport(change=-1)`` beside Central
    America's; ``HandLimitChange(change=-1)`` has the same asdict()."""
    diaspora = ep.CARDS["diaspora"]
    effects = [effect for attribute in diaspora.attributes or () for effect in attribute.effects]
    assert {"change": -1} in [effect.asdict() for effect in effects]
    with pytest.raises(OutOfDomainError, match=r"asdict\(\) does not say which it was"):
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
