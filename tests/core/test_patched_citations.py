"""A variant's citation is added to what it patches, never put in the place of the definition's
(round 21).

Merged key by key like data, a patch's `rule:` took the place of the definition's `rule:` and its
`source:` of the definition's `source:`: a card patched `{cost: 50, rule: "1.1"}` had its groups
and credits cited by 1.1 alone in `export`, in the package's records and in `ENTITY_SOURCES`, and
a nested fact with a citation of its own kept the base's for the values a house rule wrote. The
fields a patch left keep the definition's citation; those it wrote are cited by the patch
(`field_sources`); the entity's own citation lists both, the definition's first. What the sheets
print is tests/core/test_sheet_citations.py's.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from typing import Any

from civrules.emit.export import export_ruleset
from civrules.emit.pyfmt import statement
from civrules.emit.runtime.mappings import FrozenMap
from civrules.pipeline import Analysis, analyse, derived_facts
from tests.rulefiles import CachedWorkspace

TRANSCRIPTION = "NcFerrari/imperialSettlers@c0550f408064a71a0ddc89cf4e8106111e584a7d:"
CARDS_JSON = f"{TRANSCRIPTION}backend/src/main/resources/data/cards.json"
CONDITIONS = f"{TRANSCRIPTION}common/src/main/java/cz/games/lp/common/enums/Conditions.java"

VARIANTS = {
    "ac-rr": """\
kind: ruleset
id: ac-rr
name: "AC rr"
extends: advanced-civilization
overlay:
  civilization_cards:
    patch:
      - {id: pottery, cost: 50, rule: "1.1"}
  settings:
    players: {max: 8, source: "house rule: eight"}
""",
    "is-cg": """\
kind: ruleset
family: imperial-settlers
id: is-cg
name: "IS cg"
extends: imperial-settlers
overlay:
  cards:
    patch:
      - {id: com027, production: {each: gold, per: {colour: gold}, at_most: 4}, source: "house rule: d"}
      - {id: com011, production: {at_most: 2}, source: "house rule: e"}
  phases:
    patch:
      - id: lookout
        source: "house rule: f"
        steps:
          patch:
            - {where: {step: 2}, with: {text: "Reveal players + 2 common cards."}}
            - {where: {step: 3}, with: {text: "Each takes 1 revealed card.", pick: clockwise}}
""",
    "smc-cite": """\
kind: ruleset
id: smc-cite
name: "SMC cite"
extends: sid-meiers-civilization
overlay:
  wonders:
    patch:
      - {id: colossus, cost: 12, rule: "p20/perguntas-frequentes"}
  settings:
    players: {min: 3, max: 5, best: null, source: "house rule: three to five"}
""",
}


@functools.cache
def _analysed(ruleset: str) -> Analysis:
    workspace = CachedWorkspace({f"rulesets/{ruleset}.yaml": VARIANTS[ruleset]})
    analysis = analyse(workspace, workspace.load_ruleset(workspace.manifests()[ruleset]))
    assert analysis.model is not None and analysis.resolved is not None, analysis.diagnostics
    assert not [d for d in analysis.diagnostics if d.severity == "error"], analysis.diagnostics
    return analysis


@functools.cache
def _exported(ruleset: str) -> dict[str, Any]:
    analysis = _analysed(ruleset)
    assert analysis.model is not None and analysis.resolved is not None
    return export_ruleset(analysis.resolved, analysis.model, derived_facts(analysis.model))


def _model(ruleset: str) -> Any:
    """The typed model of the variant (its family's own ruleset type)."""
    model = _analysed(ruleset).model
    assert model is not None
    return model


def _item(ruleset: str, collection: str, key: str) -> dict[str, Any]:
    (found,) = [item for item in _exported(ruleset)[collection] if item["id"] == key]
    return dict(found)


def _entity_sources(node: Any) -> Any:
    namespace: dict[str, object] = {"FrozenMap": FrozenMap}
    exec(statement("ENTITY_SOURCES", node), namespace)
    return namespace["ENTITY_SOURCES"]


FAMILY_PACKAGES = {
    "ac-rr": "advanced_civilization",
    "is-cg": "imperial_settlers",
    "smc-cite": "sid_meiers_civilization",
}


@functools.cache
def _data_lines(ruleset: str) -> tuple[str, ...]:
    """The variant's package's data.py (its family's emitter, in process), line by line."""
    emitter = importlib.import_module(f"civrules.families.{FAMILY_PACKAGES[ruleset]}.package")
    text: bytes = emitter.data_module(_model(ruleset), _exported(ruleset)).source
    return tuple(text.decode("utf-8").splitlines())


def _block(lines: tuple[str, ...], first: int) -> str:
    """The lines from ``first`` to the one that closes it, at its indentation (parsed alone: the
    whole module's syntax tree costs more than a fast test may)."""
    indent = len(lines[first]) - len(lines[first].lstrip())
    for last in range(first + 1, len(lines)):
        line = lines[last]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            if line.lstrip().startswith(")"):
                return "\n".join(lines[first : last + 1])
            return "\n".join(lines[first:last])
    return "\n".join(lines[first:])


def _plain(node: ast.expr) -> Any:
    """A literal of data.py, its FrozenMaps as dicts."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "FrozenMap":
        return _plain(node.args[0])
    if isinstance(node, ast.Dict):
        return {ast.literal_eval(k): _plain(v) for k, v in zip(node.keys, node.values, strict=True) if k is not None}
    return ast.literal_eval(node)


def _package_sources(ruleset: str, table: str = "ENTITY_SOURCES") -> dict[str, Any]:
    """ENTITY_SOURCES (or ``table``) as the package writes it."""
    lines = _data_lines(ruleset)
    (first,) = [i for i, line in enumerate(lines) if line.startswith(f"{table}: ")]
    (statement,) = ast.parse(_block(lines, first)).body
    assert isinstance(statement, ast.AnnAssign) and statement.value is not None
    found = _plain(statement.value)
    assert isinstance(found, dict)
    return found


def _record_rules(ruleset: str, key: str, *inside: str) -> Any:
    """The `rules` of the record of the entity ``key`` (of its part ``inside``, a keyword's record)."""
    lines = _data_lines(ruleset)
    heads = (f'"{key}"', f".{key.upper()}")  # keyed by id, or by its enum member
    # `KEY: _Card(`: a record made by its class's maker (`_Card = data_maker(Card)`)
    records = [i for i, line in enumerate(lines) if re.search(r": _[A-Z]\w*\($", line)]
    (first,) = [i for i in records if lines[i].split(": ")[0].endswith(heads)]
    text = _block(lines, first).strip().split(": ", 1)[1].rstrip(",")
    record = ast.parse(text, mode="eval").body
    for part in (*inside, "rules"):
        assert isinstance(record, ast.Call)
        record = {k.arg: k.value for k in record.keywords}[part]
    return ast.literal_eval(record)


def test_an_advanced_civilization_card_is_cited_by_its_definition_then_the_patch() -> None:
    from civrules.families.advanced_civilization.package import _entity_sources as sources_of

    pottery = _item("ac-rr", "civilization_cards", "pottery")
    assert pottery["rule"] == ["32.21", "1.1"]
    assert pottery["field_sources"] == {"cost": "rule 1.1"}
    model = _model("ac-rr")
    assert model.cards.get("pottery").rules == ("32.21", "1.1")  # the Card record's `rules`
    assert _entity_sources(sources_of(model))["civilization_cards.pottery"] == ("32.21", "1.1")
    assert _package_sources("ac-rr")["civilization_cards.pottery"] == ("32.21", "1.1")
    assert _package_sources("ac-rr", "ENTITY_FIELD_SOURCES") == {"civilization_cards.pottery": {"cost": "rule 1.1"}}
    assert _record_rules("ac-rr", "pottery") == ("32.21", "1.1")


def test_an_imperial_settlers_card_keeps_its_transcription_beside_the_house_rule() -> None:
    com027 = _item("is-cg", "cards", "com027")
    assert com027["source"] == f"{CARDS_JSON}; house rule: d"
    # the house rule wrote every fact of the production: it alone cites it, as `diff` says
    assert com027["production"] == {"each": "gold", "per": {"colour": "gold"}, "at_most": 4, "source": "house rule: d"}
    assert com027["field_sources"] == {"production": "source: house rule: d"}
    model = _model("is-cg")
    card = model.cards.get("com027")
    assert (card.rules, card.source) == ((), f"{CARDS_JSON}; house rule: d")
    assert card.production is not None and (card.production.rules, card.production.source) == ((), "house rule: d")
    assert _record_rules("is-cg", "com027") == (f"{CARDS_JSON}; house rule: d",)
    assert _record_rules("is-cg", "com027", "production") == ("house rule: d",)


def test_a_nested_fact_a_patch_wrote_in_part_is_cited_by_both() -> None:
    com011 = _item("is-cg", "cards", "com011")
    production = com011["production"]
    assert production["at_most"] == 2
    assert production["rule"] == ["p11/esclarecimentos-gerais", "p15/lembre-se"]
    assert production["source"] == f"{CONDITIONS}; house rule: e"


def test_imperial_settlers_entity_sources_list_both() -> None:
    from civrules.families.imperial_settlers.package import _cited

    model = _model("is-cg")
    card = model.cards.get("com027")
    assert _cited(card.rules, card.source) == (f"{CARDS_JSON}; house rule: d",)
    assert _package_sources("is-cg")["cards.com027"] == (f"{CARDS_JSON}; house rule: d",)
    field_sources = _package_sources("is-cg", "ENTITY_FIELD_SOURCES")
    assert field_sources["cards.com027"] == {"production": "source: house rule: d"}
    assert field_sources["cards.com027"] == _item("is-cg", "cards", "com027")["field_sources"]


def test_a_sid_meier_s_wonder_is_cited_by_its_definition_then_the_patch() -> None:
    from civrules.families.sid_meiers_civilization.package import _cited

    colossus = _item("smc-cite", "wonders", "colossus")
    assert colossus["rule"] == ["p7/produzindo-maravilhas", "p20/perguntas-frequentes"]
    assert colossus["field_sources"] == {"cost": "rule p20/perguntas-frequentes"}
    model = _model("smc-cite")
    wonder = model.wonders.get("colossus")
    assert _cited(wonder) == ("p7/produzindo-maravilhas", "p20/perguntas-frequentes")
    assert _package_sources("smc-cite")["wonders.colossus"] == ("p7/produzindo-maravilhas", "p20/perguntas-frequentes")
    field_sources = _package_sources("smc-cite", "ENTITY_FIELD_SOURCES")
    assert field_sources == {"wonders.colossus": {"cost": "rule p20/perguntas-frequentes"}}


def test_export_s_players_cite_what_wrote_their_numbers() -> None:
    """`ruleset.players` is cited as PLAYERS and `setting_sources.players` cite it: a house rule
    that wrote every number alone; one that wrote the most players beside the base's sections."""
    every = _exported("smc-cite")["ruleset"]["players"]
    assert every == {"min": 3, "max": 5, "source": "house rule: three to five", "note": every["note"]}
    some = _exported("ac-rr")["ruleset"]["players"]
    assert some == {"min": 2, "max": 8, "rule": ["1.1", "16.1"], "source": "house rule: eight"}


def test_an_element_a_list_operation_patched_is_cited_by_what_wrote_its_facts() -> None:
    """A `with:` that wrote a step's text under a house rule: the step's reveal is still the
    rulebook's (both cite it); one that wrote every fact of a step: the house rule alone (its
    `step:` names it, it is no fact left)."""
    steps = {step["step"]: step for step in _item("is-cg", "phases", "lookout")["steps"]}
    assert (steps[2]["rule"], steps[2]["source"]) == ("p6/fase-de-observacao", "house rule: f")
    assert "rule" not in steps[3] and steps[3]["source"] == "house rule: f"
    assert steps[1]["rule"] == "p6/fase-de-observacao" and "source" not in steps[1]
