"""Synthetic rulesets of any family, for measuring how civrules grows with data size.

``python bench/synth_family.py OUT --ruleset ID --scale K`` writes a rules tree holding the base
ruleset ``ID`` (one that extends nothing) with every collection of its data files (not its
manifest's vocabularies) repeated K times: copy k of an entity has the id ``<id>_k<k>`` and the
name ``<name> k<k>``, and every reference inside it that the schemas declare (``x-civrules-ref``)
to a repeated collection points at copy k too, so each copy is a whole, consistent game's worth of
data. What a family's checks need besides (a declared count to scale, an entity to keep single)
is said in :data:`ADJUSTMENTS`. The same arguments always give the same bytes. Advanced
Civilization's series is ``bench/synth.py`` (its map copies are joined into one board).
"""

from __future__ import annotations

import argparse
import copy
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _dump(path: Path, data: Any, header: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    path.write_text(header + text, encoding="utf-8")


def _header(path: Path) -> str:
    """The modeline of a shipped file (its schema), kept on the synthetic copy."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first + "\n" if first.startswith("# yaml-language-server:") else ""


def _at(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _copy_of(value: str) -> int:
    """The copy an id belongs to: ``x_k3`` → 3, an original id → 1."""
    head, _, number = value.rpartition("_k")
    return int(number) if head and number.isdigit() else 1


def _sid_meiers(slot: str, document: dict[str, Any], scale: int) -> None:
    """One technology sits on top of the pyramid (T002): the copies of the top level are left out."""
    if slot == "technologies":
        top = max((t["level"] for t in document["technologies"] if isinstance(t.get("level"), int)), default=None)
        document["technologies"] = [
            t for t in document["technologies"] if _copy_of(t["id"]) == 1 or t.get("level") != top
        ]


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _prefix(prefix: str, k: int) -> str:
    """The printed code of copy ``k`` of a deck: the deck's first letter and two more, never the
    original's (the five decks begin with five different letters, so no two codes meet)."""
    codes = [a + b for a in _LETTERS for b in _LETTERS if a + b != prefix[1:]]
    return prefix[0] + codes[k - 2]


def _imperial_settlers(slot: str, document: dict[str, Any], scale: int) -> None:
    """Copy k of a faction has a deck of its own (the manifest's decks are repeated with printed
    codes of their own), and copy k of a card is printed under its deck's code of copy k."""
    if slot == "cards":
        for card in document["cards"]:
            k = _copy_of(card["id"])
            if k > 1 and isinstance(card.get("printed_ids"), list):
                card["printed_ids"] = [_prefix(p[:3], k) + p[3:] for p in card["printed_ids"]]
    elif slot == "factions":
        for faction in document["factions"]:
            k = _copy_of(faction["id"])
            if k > 1 and isinstance(faction.get("deck"), str):
                faction["deck"] = f"{faction['deck']}_k{k}"
    elif slot == "ruleset":
        decks = document["decks"]
        originals = list(decks)
        for k in range(2, scale + 1):
            for deck in originals:
                twin = copy.deepcopy(deck)
                twin["id"], twin["name"] = f"{deck['id']}_k{k}", f"{deck['name']} k{k}"
                twin["prefix"] = _prefix(deck["prefix"], k)
                if isinstance(twin.get("faction"), str):
                    twin["faction"] = f"{deck['faction']}_k{k}"
                decks.append(twin)
        # What the copies' decks allow (spoils, deals) is what the originals' allow; the box holds them all.
        for use in (document.get("card_uses") or {}).values():
            for key in ("spoils_on", "deal_on"):
                if isinstance(use.get(key), list):
                    use[key] = use[key] + [f"{d}_k{k}" for k in range(2, scale + 1) for d in use[key]]
        colourless = document.get("colourless_cards")
        if isinstance(colourless, list):
            colourless += [{**c, "card": f"{c['card']}_k{k}"} for k in range(2, scale + 1) for c in list(colourless)]
        printed = sum(deck["size"] for deck in originals if isinstance(deck.get("size"), int))
        for component in document.get("components") or ():
            if component.get("id") == "cards" and isinstance(component.get("count"), int):
                component["count"] += (scale - 1) * printed


#: Per ruleset, what the copies need beyond renaming: a function of (file slot, or ``ruleset`` for
#: the manifest; the document; the scale), changing the document in place.
ADJUSTMENTS: dict[str, Callable[[str, dict[str, Any], int], None]] = {
    "sid-meiers-civilization": _sid_meiers,
    "imperial-settlers": _imperial_settlers,
}


def generate(out: Path, ruleset: str, scale: int) -> Path:
    """Write the synthetic tree under ``out`` (replaced); return its rules directory. The synthetic
    ruleset's id is ``synthetic``."""
    from civrules.load.workspace import Workspace
    from civrules.schema.references import find_references, node_at, schema_of

    rules = out / "rules"
    if out.exists():
        shutil.rmtree(out)
    workspace = Workspace(RULES)
    loaded = workspace.load_ruleset(workspace.manifests()[ruleset])
    family = loaded.family
    manifest_path = RULES / "rulesets" / f"{ruleset}.yaml"
    manifest = _load(manifest_path)
    if manifest.get("extends"):
        raise SystemExit(f"{ruleset} extends {manifest['extends']}: give a base ruleset")
    shutil.copytree(RULES / "rulebooks", rules / "rulebooks")
    scaled = {name: spec for name, spec in family.collections.items() if spec.slot != "ruleset"}
    files: dict[str, list[str]] = {}
    for slot, written in (manifest.get("files") or {}).items():
        for relative in written:
            source = RULES / relative
            document = _load(source)
            kind = family.slot_kind(slot)
            schema = schema_of(kind) if kind else None
            for spec in scaled.values():
                if spec.slot != slot or schema is None:
                    continue
                entities = _at(document, spec.path)
                if not isinstance(entities, list):
                    continue
                node = node_at(schema, spec.path, item=True)
                copies = []
                for k in range(2, scale + 1):
                    for entity in entities:
                        twin = copy.deepcopy(entity)
                        if isinstance(twin.get(spec.key), str):
                            twin[spec.key] = f"{twin[spec.key]}_k{k}"
                        if isinstance(twin.get("name"), str):
                            twin["name"] = f"{twin['name']} k{k}"
                        for path, target, ref in list(find_references(schema, node, entity)):
                            if ref.collection in scaled and path:
                                _set(twin, path, f"{target}_k{k}")
                        copies.append(twin)
                entities.extend(copies)
            adjust = ADJUSTMENTS.get(ruleset)
            if adjust is not None:
                adjust(slot, document, scale)
            target = f"{Path(relative).parent}/synthetic-{Path(relative).name}"
            files.setdefault(slot, []).append(target)
            _dump(rules / target, document, _header(source))
    adjust = ADJUSTMENTS.get(ruleset)
    if adjust is not None:
        adjust("ruleset", manifest, scale)
    manifest["id"] = "synthetic"
    manifest["name"] = f"Synthetic {manifest.get('name', ruleset)} x{scale}"
    manifest["files"] = files
    _dump(rules / "rulesets" / "synthetic.yaml", manifest, _header(manifest_path))
    return rules


def _set(data: Any, path: tuple[Any, ...], value: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    print(generate(args.out, args.ruleset, args.scale))


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(REPO / "compiler"))
    main()
