"""What a check says it reads (:attr:`civrules.checks.Check.reads`) is what it reads.

A long-running session reuses a check's findings after an edit of a collection it does not read,
and a diagnostic a variant causes goes to the variant's change of what its check reads: a check
that read more than it says would keep a stale finding, or send a designer to the wrong line.
Each check that names what it reads runs here on every shipped ruleset of its family with the
rest taken away: a collection it does not name, and a setting it does not name, raise when read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from civrules.checks import ALL_COLLECTIONS, SETTINGS, Check
from civrules.checks.catalogue import all_checks
from civrules.load.workspace import Workspace
from civrules.model import Collection, Ruleset
from civrules.pipeline import analyse
from tests.conftest import RULES


class UndeclaredReadError(AssertionError):
    """A check read what its `reads` does not name."""


class _Unread(Collection[Any]):
    """A collection the check does not say it reads: any use of it is a read."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("name", "__class__"):
            return object.__getattribute__(self, name)
        raise UndeclaredReadError(f"read `{object.__getattribute__(self, 'name')}` ({name})")

    def __iter__(self) -> Iterator[Any]:
        raise UndeclaredReadError(f"iterated `{self.name}`")

    def __len__(self) -> int:
        raise UndeclaredReadError(f"counted `{self.name}`")

    def __contains__(self, item: object) -> bool:
        raise UndeclaredReadError(f"looked in `{self.name}`")


class _Settings(Mapping[str, Any]):
    """A mapping of settings (and the manifest's data) whose undeclared keys raise when read."""

    def __init__(self, real: Mapping[str, Any], allowed: frozenset[str] | None, collections: frozenset[str]) -> None:
        self._real, self._allowed, self._collections = real, allowed, collections

    def __getitem__(self, key: str) -> Any:
        if self._allowed is not None and key not in self._allowed and key not in self._collections:
            raise UndeclaredReadError(f"read the setting `{key}`")
        return self._real[key]

    def __iter__(self) -> Iterator[str]:
        raise UndeclaredReadError("listed the settings")

    def __len__(self) -> int:
        return len(self._real)


def _models() -> dict[str, list[Ruleset]]:
    workspace = Workspace(RULES)
    found: dict[str, list[Ruleset]] = {}
    for manifest in workspace.manifests().values():
        model = analyse(workspace, workspace.load_ruleset(manifest)).model
        if model is not None:
            found.setdefault(model.family, []).append(model)
    return found


MODELS = _models()
#: A core check (family None) runs on every family's rulesets.
DECLARED = [
    entry for entry in all_checks() if entry.reads is not None and (entry.family is None or entry.family in MODELS)
]


def _restricted(model: Ruleset, entry: Check) -> Ruleset:
    assert entry.reads is not None
    read = entry.read_collections
    settings = (
        None
        if SETTINGS in entry.reads
        else frozenset(name.partition(".")[2] for name in entry.reads if name.startswith(f"{SETTINGS}."))
    )
    names = {collection.name for collection in model.collections()}
    if ALL_COLLECTIONS in entry.reads:
        read = frozenset(names)
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(model):
        value = getattr(model, field.name)
        if isinstance(value, Collection) and value.name in names and value.name not in read:
            changes[field.name] = _Unread(value.name, (), {})
    if settings is not None:
        kept = frozenset(names)
        changes["data"] = _Settings(model.data, settings, kept)
        changes["settings"] = _Settings(model.settings, settings, kept)
        changes["setting_origins"] = _Settings(model.setting_origins, settings, kept)
    return dataclasses.replace(model, **changes)


@pytest.mark.parametrize("entry", DECLARED, ids=[entry.code.code for entry in DECLARED])
def test_a_check_reads_only_what_it_says_it_reads(entry: Check) -> None:
    models = MODELS[entry.family] if entry.family is not None else [m for found in MODELS.values() for m in found]
    for model in models:
        restricted = _restricted(model, entry)
        assert list(entry.run(restricted)) == list(entry.run(model)), model.id


def test_every_family_check_says_what_it_reads() -> None:
    """A family's check that says nothing may read anything: a variant's diagnostic it causes goes
    to the variant's `overlay:` line whenever the variant changes two things."""
    silent = [entry.code.code for entry in all_checks() if entry.family is not None and entry.reads is None]
    assert silent == []


def test_the_restriction_catches_a_check_that_reads_more_than_it_says() -> None:
    (entry,) = [e for e in DECLARED if e.code.code == "T015"]
    liar = dataclasses.replace(entry, reads=frozenset({"victories"}))  # it reads `coins` too
    (model,) = [m for m in MODELS["sid-meiers-civilization"] if m.id == "sid-meiers-civilization"]
    with pytest.raises(UndeclaredReadError, match="coins"):
        list(liar.run(_restricted(model, liar)))


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
