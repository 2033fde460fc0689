"""A variant's header is its own: its `status` and `description` are never its base's.

Round 25 left `resolve` copying the base's data whole, header included: a house rule built on
Imperial Settlers' peaceful variant was an `official_variant`, and a variant of a draft was a draft
whatever it said. Each family's model reads its own manifest's status now; V011 warns where a base
says a status and its variant none (the tests below are its fixtures).
"""

from __future__ import annotations

import pytest

from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

CA_HOUSE = """\
kind: ruleset
id: ca-house
name: "Central America, our table"
extends: central-america
{status}overlay:
  settings:
    hand_limit: {{commodity_cards: 9, source: "house rule: nine cards"}}
"""

PEACEFUL_HOUSE = """\
kind: ruleset
family: imperial-settlers
id: peaceful-house
name: "Imperial Settlers, peaceful, our table"
extends: imperial-settlers-peaceful
{status}"""

SMC_HOUSE = """\
kind: ruleset
family: sid-meiers-civilization
id: smc-house
name: "Sid Meier's Civilization, community, our table"
extends: sid-meiers-civilization-community
{status}"""


def _status(ruleset: str, text: str) -> object:
    workspace = CachedWorkspace({f"rulesets/{ruleset}.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert analysis.model is not None, [d.message for d in analysis.diagnostics]
    model = analysis.model
    # each family's word for it: Advanced Civilization and Imperial Settlers keep the value,
    # Sid Meier's Civilization whether it is a draft
    return model.draft if hasattr(model, "draft") else model.status  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("ruleset", "text", "unsaid", "said", "own"),
    [
        ("ca-house", CA_HOUSE, None, "status: draft\n", "draft"),
        ("peaceful-house", PEACEFUL_HOUSE, None, "status: house_rule\n", "house_rule"),
        ("smc-house", SMC_HOUSE, False, "status: draft\n", True),
    ],
)
def test_a_variant_of_a_variant_has_its_own_status_never_its_bases(
    ruleset: str, text: str, unsaid: object, said: str, own: object
) -> None:
    assert _status(ruleset, text.format(status="")) == unsaid
    assert _status(ruleset, text.format(status=said)) == own


def _v011(ruleset: str, text: str, edits: dict[str, str] | None = None) -> list[tuple[str, int, int]]:
    workspace = CachedWorkspace({f"rulesets/{ruleset}.yaml": text, **(edits or {})})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    return [(d.span.file, d.span.line, d.span.column) for d in analysis.diagnostics if d.code == "V011" and d.span]


@pytest.mark.parametrize(
    ("ruleset", "text", "said"),
    [
        ("ca-house", CA_HOUSE, "status: draft\n"),  # three deep: a house rule of a variant of a draft
        ("peaceful-house", PEACEFUL_HOUSE, "status: house_rule\n"),  # an official variant's is no house rule's
        ("smc-house", SMC_HOUSE, "status: draft\n"),
    ],
)
def test_a_variant_that_says_no_status_where_its_base_says_one_is_told_at_its_extends(
    ruleset: str, text: str, said: str
) -> None:
    written = text.format(status="")
    line = written.splitlines().index(next(s for s in written.splitlines() if s.startswith("extends: "))) + 1
    assert _v011(ruleset, written) == [(f"rules/rulesets/{ruleset}.yaml", line, len("extends: ") + 1)]
    assert _v011(ruleset, text.format(status=said)) == []


def test_a_variant_of_a_base_that_says_no_status_is_asked_for_none() -> None:
    text = "kind: ruleset\nid: west-house\nname: West\nextends: advanced-civilization-western\n"
    assert _v011("west-house", text) == []
