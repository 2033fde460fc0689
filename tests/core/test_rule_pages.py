"""Q001 for a section past the rulebook's end (`rule: p99` of a rulebook of 15 pages) names the
pages (or chapters) the rulebook has and the nearest of them by their titles: it said only "no
section of the rulebook is near this number" (round 28's designer trial)."""

from __future__ import annotations

import pytest

from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace

CASES = [
    (
        "imperial-settlers",
        "cards",
        "bar001",
        "p99",
        'pages run from `p1` to `p15`: the nearest is `p15` ("RESUMO DAS REGRAS")',
    ),
    (
        "sid-meiers-civilization",
        "technologies",
        "pottery",
        "p99",
        'pages run from `p1` to `p20`: the nearest is `p20` ("PERGUNTAS FREQUENTES…")',
    ),
    ("imperial-settlers", "cards", "bar001", "p0", "pages run from `p1` to `p15`: the nearest is `p1`"),
]


@pytest.mark.parametrize(("base", "collection", "entity", "number", "said"), CASES)
def test_a_page_past_the_rulebook_names_its_pages_and_the_nearest(
    base: str, collection: str, entity: str, number: str, said: str
) -> None:
    text = (
        f"kind: ruleset\nid: h\nname: H\nfamily: {base}\nextends: {base}\noverlay:\n  {collection}:\n"
        f'    patch:\n      - {{id: {entity}, rule: "{number}", source: "house rule"}}\n'
    )
    workspace = CachedWorkspace({"rulesets/h.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["h"]))
    (found,) = [d for d in analysis.diagnostics if d.code == "Q001"]
    assert found.message == f"section {number} is not in the rule index"
    assert found.hint is not None and said in found.hint, found.hint
    assert found.hint.startswith("the rulebook's pages run")


def test_a_ruleset_citing_only_known_sections_sorts_none_into_chapters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, never timed: Q001 (and Q005) sorted every section of the rule index into chapters,
    a vocabulary each, in every ruleset it checked, though most cite no unknown section: a
    session's update did it again for each ruleset an edit checks again (a base and its variants).
    The chapters are made at the first unknown number, and answer as before (the cases above)."""
    from civrules.checks import citations
    from civrules.diagnostics.suggest import Vocabulary

    made: list[int] = []

    class Counted(Vocabulary):
        def __init__(self, *args: object, **kwargs: object) -> None:
            made.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(citations, "Vocabulary", Counted)
    # A known page: no Q001, no chapters (the unknown `p99` above still gets its hint from them).
    text = (
        "kind: ruleset\nid: h\nname: H\nfamily: imperial-settlers\nextends: imperial-settlers\noverlay:\n"
        '  cards:\n    patch:\n      - {id: bar001, rule: "p15", source: "house rule"}\n'
    )
    workspace = CachedWorkspace({"rulesets/h.yaml": text})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()["h"]))
    assert [d for d in analysis.diagnostics if d.code in ("Q001", "Q005")] == []
    assert made == []
