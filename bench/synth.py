"""A deterministic synthetic ruleset generator, for measuring how civrules grows with data size.

``python bench/synth.py OUT --scale K`` writes a rules tree with K copies of the largest shipped
ruleset's cards, commodities, calamities, areas and borders (ids suffixed ``_k2``, ``_k3`` ...),
every copy's map joined to the previous one by a border, totals and per-stack compositions scaled
to match, plus one variant that overlays it, so the tree validates clean and exercises every
stage. The same scale always gives the same bytes.
"""

from __future__ import annotations

import argparse
import copy
import shutil
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"
BASE = "advanced-civilization"


def _load(relative: str) -> Any:
    return yaml.safe_load((RULES / relative).read_text(encoding="utf-8"))


def _dump(path: Path, kind_schema: str, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    # PyYAML writes YAML 1.1 booleans as true/false and quotes strings that need it: valid 1.2 too.
    path.write_text(f"# yaml-language-server: $schema=../../schemas/{kind_schema}\n{text}", encoding="utf-8")


def _suffix(value: Any, ids: set[str], k: int) -> Any:
    """Rename every id of ``ids`` inside ``value`` to its copy ``k`` (copy 1 keeps the names)."""
    if k == 1:
        return copy.deepcopy(value)
    if isinstance(value, str):
        return f"{value}_k{k}" if value in ids else value
    if isinstance(value, list):
        return [_suffix(v, ids, k) for v in value]
    if isinstance(value, dict):
        return {key: v if key in _VOCABULARY else _suffix(v, ids, k) for key, v in value.items()}
    return value


#: Fields whose values are words of a closed vocabulary, not ids, though a word may spell an id
#: (a card effect's `goods: mining` is the Mining card's rule, not the card).
_VOCABULARY = frozenset({"goods"})


def _names(items: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    if k > 1:
        for item in items:
            if isinstance(item.get("name"), str):
                item["name"] = f"{item['name']} k{k}"
    return items


def generate(out: Path, scale: int) -> Path:
    """Write the synthetic tree under ``out`` (replaced) and return its rules directory."""
    rules = out / "rules"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(RULES / "rulebooks", rules / "rulebooks")
    manifest = _load(f"rulesets/{BASE}.yaml")
    cards = _load("cards/advanced-civilization.yaml")
    commodities = _load("cards/advanced-civilization-commodities.yaml")
    calamities = _load("calamities/advanced-civilization.yaml")
    board = _load("maps/mediterranean.yaml")

    card_ids = {c["id"] for c in cards["cards"]}
    commodity_ids = {c["id"] for c in commodities["commodities"]}
    calamity_ids = {c["id"] for c in calamities["calamities"]}
    area_ids = {a["id"] for a in board["areas"]}
    plain_ids = {p["id"] for p in board["flood_plains"]} | {v["id"] for v in board["volcanoes"]}

    # Cards: K families; credits and prerequisites stay inside a family, groups are shared.
    cards_out: dict[str, Any] = {"kind": "civilization_cards", "groups": cards["groups"], "cards": []}
    for k in range(1, scale + 1):
        family = _suffix(cards["cards"], card_ids | calamity_ids, k)
        cards_out["cards"].extend(_names(family, k))
    # Calamities: K copies in the same stacks; the declared per-stack composition is scaled.
    calamities_out: dict[str, Any] = {"kind": "calamities", "calamities": []}
    for k in range(1, scale + 1):
        copies = _suffix(calamities["calamities"], card_ids | calamity_ids, k)
        calamities_out["calamities"].extend(_names(copies, k))
    # Commodities: K copies of each good in its stack; totals and compositions scaled.
    commodities_out = copy.deepcopy(commodities)
    commodities_out["commodities"] = []
    for k in range(1, scale + 1):
        commodities_out["commodities"].extend(_names(_suffix(commodities["commodities"], commodity_ids, k), k))
    commodities_out["total_cards"]["count"] *= scale
    if commodities_out["total_cards"]["count"] > 10_000:  # the schema's bound (at 100x: 11,400)
        del commodities_out["total_cards"]  # optional: the total is then the sum of the counts
    for stack in commodities_out["trade_stacks"]["stacks"]:
        for kind, count in list((stack.get("calamity_cards") or {}).items()):
            if isinstance(count, int):
                stack["calamity_cards"][kind] = count * scale
    commodities_out["set_value"].pop("examples", None)  # worked examples of the real goods only
    commodities_out.pop("note", None)
    # Map: K boards, each joined to the previous by one land border between copies of one area.
    board_out = {key: value for key, value in board.items() if key not in ("excluded_borders",)}
    board_out["areas"], board_out["borders"], board_out["flood_plains"], board_out["volcanoes"] = [], [], [], []
    for k in range(1, scale + 1):
        ids = area_ids | plain_ids
        areas = _names(_suffix(board["areas"], ids, k), k)
        if k > 1:
            for area in areas:
                area.pop("start_nation", None)  # the nations start on the first copy only
        board_out["areas"].extend(areas)
        board_out["borders"].extend(_suffix(board["borders"], ids, k))
        board_out["flood_plains"].extend(_names(_suffix(board["flood_plains"], ids, k), k))
        board_out["volcanoes"].extend(_names(_suffix(board["volcanoes"], ids, k), k))
        if k > 1:
            previous = "sahara" if k == 2 else f"sahara_k{k - 1}"
            board_out["borders"].append(
                {"areas": sorted([previous, f"sahara_k{k}"]), "kind": "land", "basis": "area_types"}
            )
    # The manifest: the copies' tracks and nations stay those of the base (one A.S.T.).
    manifest_out = copy.deepcopy(manifest)
    manifest_out["id"] = "synthetic"
    manifest_out["name"] = f"Synthetic Advanced Civilization x{scale}"
    manifest_out["files"] = {
        "civilization_cards": ["cards/synthetic.yaml"],
        "commodities": ["cards/synthetic-commodities.yaml"],
        "calamities": ["calamities/synthetic.yaml"],
        "map": ["maps/synthetic.yaml"],
    }
    variant: dict[str, Any] = {
        "kind": "ruleset",
        "id": "synthetic-variant",
        "name": "Synthetic variant",
        "extends": "synthetic",
        "overlay": {
            "civilization_cards": {"patch": [{"id": "pottery", "cost": 50, "source": "house rule"}]},
            "areas": {"patch": [{"id": "sahara", "population_limit": 2, "source": "house rule"}]},
        },
    }
    _dump(rules / "rulesets" / "synthetic.yaml", "ruleset.schema.json", manifest_out)
    _dump(rules / "rulesets" / "synthetic-variant.yaml", "ruleset.schema.json", variant)
    _dump(rules / "cards" / "synthetic.yaml", "civilization-cards.schema.json", cards_out)
    _dump(rules / "cards" / "synthetic-commodities.yaml", "commodities.schema.json", commodities_out)
    _dump(rules / "calamities" / "synthetic.yaml", "calamities.schema.json", calamities_out)
    _dump(rules / "maps" / "synthetic.yaml", "map.schema.json", board_out)
    for path in (rules / "rulebooks").glob("*.yaml"):
        if path.name != "advanced-civilization.yaml":
            path.unlink()
    return rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    rules = generate(args.out, args.scale)
    print(rules)


if __name__ == "__main__":
    main()
