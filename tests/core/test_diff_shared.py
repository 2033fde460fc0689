"""A variant's diff against its base skips the entities the two share (issue 32, point 6).

A variant's resolution keeps its base's entries where it leaves them alone (the very objects read
from the base's files), and :func:`~civrules.resolve.diff.diff_rulesets` takes a shared entry as
unchanged without cleaning and comparing it. Resolved from a workspace of its own (nothing shared), every entity is
compared in full: both diffs must be the same for every shipped variant.
"""

from __future__ import annotations

import pytest

from civrules.load.workspace import Workspace
from civrules.resolve import Resolved, Resolver
from civrules.resolve.diff import diff_rulesets
from tests import shipped
from tests.conftest import RULES
from tests.rulefiles import reading_apart

WORKSPACE = Workspace(RULES)
#: The shipped variants (tests/shipped.py): a designer's own ruleset in rules/ is not one.
VARIANTS = sorted(
    name
    for name, manifest in WORKSPACE.manifests().items()
    if name in shipped.RULESETS and manifest.data.get("extends")
)


def _shared(old: Resolved, new: Resolved) -> bool:
    """Whether some entry of ``new`` holds the very data object an entry of ``old`` holds."""
    olds = {id(e.raw) for entries in old.collections.values() for e in entries}
    return any(id(e.raw) in olds for entries in new.collections.values() for e in entries)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_diff_over_shared_entries_equals_the_diff_compared_in_full(variant: str) -> None:
    manifests = WORKSPACE.manifests()
    base_id = manifests[variant].data["extends"]
    shared = Resolver(WORKSPACE)
    new, _ = shared.resolve(WORKSPACE.load_ruleset(manifests[variant]))
    old, _ = shared.resolve(WORKSPACE.load_ruleset(manifests[base_id]))
    with reading_apart():  # its own documents: nothing shared with the variant's
        elsewhere = Workspace(RULES)
        apart, _ = Resolver(elsewhere).resolve(elsewhere.load_ruleset(elsewhere.manifests()[base_id]))
    assert new is not None and old is not None and apart is not None
    assert _shared(old, new), "the shortcut is not exercised"
    assert not _shared(apart, new)
    assert diff_rulesets(old, new) == diff_rulesets(apart, new)
    assert diff_rulesets(old, new, citations=True) == diff_rulesets(apart, new, citations=True)
