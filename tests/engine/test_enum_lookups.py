"""An id enum (``CardId``) or a vocabulary (``EffectKind``) asked for a member it lacks says what it
has (round 34): by a name it lacks (``CardId["LAWX"]``, ``CardId.LAWX``), the closest member; by
its id where a name belongs (``CardId["law"]``, an engine holding the id from a save), the member
that id is and that ``CardId("law")`` takes it. Enum said only the name (``KeyError: 'law'``, as if
the card were missing; ``AttributeError: LAWX``). A vocabulary given a value it lacks
(``EffectKind("x")``) is an UnknownIdError naming the closest, as an id enum's is. The errors are
of Enum's own kinds (KeyError, AttributeError, ValueError): code that catches them is unchanged."""

from __future__ import annotations

import enum
import importlib
import pickle
import sys

import pytest

from tests.conftest import REPO
from tests.engine.test_type_hints import EVERY_PACKAGE

GENERATED = REPO / "generated" / "python"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

from civrules_rulesets import advanced_civilization as ac  # noqa: E402 - the committed packages
from civrules_runtime import UnknownIdError  # noqa: E402

FAMILY_VOCABULARIES = (
    "civrules_runtime_advanced_civilization.vocab",
    "civrules_runtime_imperial_settlers.vocab",
    "civrules_runtime_sid_meiers_civilization.vocab",
)


def _enums(module: str) -> list[type[enum.Enum]]:
    imported = importlib.import_module(module)
    return [
        value
        for value in vars(imported).values()
        if isinstance(value, enum.EnumType) and value.__module__ == module and issubclass(value, enum.Enum)
    ]


def test_a_card_asked_by_its_id_where_its_name_belongs_names_the_member() -> None:
    with pytest.raises(KeyError) as refused:
        ac.CardId["law"]
    assert isinstance(refused.value, UnknownIdError)
    assert (
        str(refused.value)
        == "'law' is an id of CardId, not a member's name: CardId('law') takes the id, and is CardId.LAW"
    )
    assert ac.CardId["LAW"] is ac.CardId("law") is ac.CardId.LAW


def test_a_name_the_enum_lacks_names_the_closest_member() -> None:
    for asked in ("LAWX", "Law", "lawx"):
        with pytest.raises(
            UnknownIdError, match=rf"^'{asked}' is no member of CardId: did you mean 'LAW'\? \(a member's"
        ):
            ac.CardId[asked]
    with pytest.raises(AttributeError, match=r"^'LAWX' is no member of CardId: did you mean 'LAW'\?") as refused:
        ac.CardId.LAWX  # type: ignore[attr-defined]  # noqa: B018
    assert refused.value.name == "LAWX" and refused.value.obj is ac.CardId
    assert not hasattr(ac.CardId, "LAWX") and hasattr(ac.CardId, "LAW")
    with pytest.raises(AttributeError, match=r"^type object 'CardId' has no attribute '_nothing'$"):
        ac.CardId._nothing  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize(
    "module", [f"civrules_rulesets.{name}.ids" for name in EVERY_PACKAGE] + list(FAMILY_VOCABULARIES)
)
def test_every_enum_of_every_package_and_runtime_says_what_it_lacks(module: str) -> None:
    enums = _enums(module)
    assert enums
    for each in enums:
        members = list(each)
        for member in members[:3]:
            assert each[member.name] is member and getattr(each, member.name) is member
            assert pickle.loads(pickle.dumps(member)) is member
            assert member.value != member.name  # the names are the ids in capitals
            with pytest.raises(UnknownIdError, match=rf"is an id of {each.__name__}, not a member's name"):
                each[member.value]
        with pytest.raises(UnknownIdError, match=rf"^'NO_SUCH_NAME' is no member of {each.__name__}: "):
            each["NO_SUCH_NAME"]
        with pytest.raises(AttributeError, match=rf"^'NO_SUCH_NAME' is no member of {each.__name__}: "):
            getattr(each, "NO_SUCH_NAME")  # noqa: B009
        with pytest.raises(UnknownIdError, match=rf"^'no such value' is no {each.__name__} of civrules-"):
            each("no such value")


@pytest.mark.parametrize(
    "module", [f"civrules_rulesets.{name}.ids" for name in EVERY_PACKAGE] + list(FAMILY_VOCABULARIES)
)
def test_a_value_an_enum_lacks_names_the_distribution_a_pickle_of_it_came_from(module: str) -> None:
    """A vocabulary is a runtime's, not a package's: its refusal said "another version of the package
    made it" (the words of an id enum's) where another version of the runtime did (round 34). Each
    names the distribution that defines it, a ruleset package's for an id enum, a runtime's for a
    vocabulary, and its version."""
    top = module.rpartition(".")[0]
    distribution = top.replace(".", "-").replace("_", "-")
    version = sys.modules[top].__version__ if top in sys.modules else importlib.import_module(top).__version__
    for each in _enums(module):
        with pytest.raises(UnknownIdError) as refused:
            each("no such value")
        said = str(refused.value)
        assert said.startswith(f"'no such value' is no {each.__name__} of {distribution} {version}: "), said
        assert said.endswith(
            f"(if a pickle holds it, another version of {distribution} made it: load that pickle with the"
            " version that made it)"
        ), said
        assert "the package" not in said, said
