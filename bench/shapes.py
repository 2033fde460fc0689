"""Adversarial shapes within the documented limits, at any size, for measuring that civrules' cost
grows linearly in them (issue 32, point 6).

``python bench/shapes.py OUT SHAPE --n N`` copies the shipped ``rules/`` to ``OUT/rules`` and adds the
shape at size ``N``; it prints the command that measures it (run from the repository, with
``/usr/bin/time -v`` in front for the peak memory). Run it at ``N`` and ``10·N``: the time at ``10·N``
should stay within ``1.2 · 10`` times the time at ``N``. The same arguments always give the same bytes.

Shapes (``N`` of the issue's figures in brackets):

- ``group-cards``: a variant ``big`` of advanced-civilization adding ``N`` Craft cards, each with
  a group credit of 10 to Crafts (2,000): the credit matrix is ``N²`` cells; validate and build;
- ``cards``: ``N`` cards of the five groups written into the shipped card file, each crediting its
  own group and the next group (5,000);
- ``diagnostics``: a map of ``N`` areas each with a wrong type (``land: "yes"``), one schema error
  each, validated with ``--max-diagnostics 1000000`` (5,000);
- ``unknown-keys``: one area holding ``N`` unknown keys (490,000, a 6.7 MB file);
- ``extends-chain``: ``N`` variants each extending the one before, the first advanced-civilization
  (99), all built.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GROUPS = ("arts", "civics", "crafts", "religion", "sciences")


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def group_cards(rules: Path, n: int) -> list[str]:
    lines = ["kind: ruleset", "id: big", "name: Big", "extends: advanced-civilization", "overlay:",
             "  civilization_cards:", "    add:"]  # fmt: skip
    lines.extend(
        f'      - {{id: card{i}, name: Card {i}, rule: "32.21", groups: [crafts], cost: 45, prerequisites: [], '
        f'attributes: [], credits: [{{group: crafts, points: 10, rule: "32.212"}}]}}'
        for i in range(n)
    )
    _write(rules / "rulesets" / "big.yaml", lines)
    return ["validate big", "build big --out {out}/generated"]


def cards(rules: Path, n: int) -> list[str]:
    path = rules / "cards" / "advanced-civilization.yaml"
    text = path.read_text(encoding="utf-8")
    added = []
    for i in range(n):
        group, other = GROUPS[i % 5], GROUPS[(i + 1) % 5]
        added.append(
            f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [{group}], cost: {100 + i % 200}, '
            f'prerequisites: [], attributes: [], credits: [{{group: {group}, points: 10, rule: "32.212"}}, '
            f'{{group: {other}, points: 5, rule: "32.212"}}]}}'
        )
    if "\ncards:\n" not in text:
        raise SystemExit("the shipped card file has no top-level `cards:` list")
    path.write_text(text.replace("\ncards:\n", "\ncards:\n" + "\n".join(added) + "\n", 1), encoding="utf-8")
    return ["validate advanced-civilization", "build advanced-civilization --out {out}/generated"]


def _map_variant(rules: Path) -> None:
    _write(rules / "rulesets" / "hostile.yaml",
           ["kind: ruleset", "id: hostile", "name: Hostile", "extends: advanced-civilization", "files:",
            "  map:", "    - maps/hostile.yaml"])  # fmt: skip


def diagnostics(rules: Path, n: int) -> list[str]:
    lines = ["kind: map", "id: hostile", "name: Hostile", "panel: main", "areas:"]
    lines.extend(f'  - {{id: h{i}, name: H{i}, panel: main, land: "yes", water: true}}' for i in range(n))
    _write(rules / "maps" / "hostile.yaml", lines)
    _map_variant(rules)
    return ["--max-diagnostics 1000000 validate hostile --format json"]


def unknown_keys(rules: Path, n: int) -> list[str]:
    lines = ["kind: map", "id: hostile", "name: Hostile", "panel: main", "areas:",
             "  - id: h0", "    name: H0", "    panel: main", "    land: false", "    water: true"]  # fmt: skip
    lines.extend(f"    z{i}: 1" for i in range(n))
    _write(rules / "maps" / "hostile.yaml", lines)
    _map_variant(rules)
    return ["validate hostile"]


def extends_chain(rules: Path, n: int) -> list[str]:
    previous = "advanced-civilization"
    for i in range(n):
        _write(rules / "rulesets" / f"c{i}.yaml", ["kind: ruleset", f"id: c{i}", f"name: C{i}", f"extends: {previous}"])
        previous = f"c{i}"
    return ["validate", "build --out {out}/generated"]


SHAPES = {
    "group-cards": group_cards,
    "cards": cards,
    "diagnostics": diagnostics,
    "unknown-keys": unknown_keys,
    "extends-chain": extends_chain,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("shape", choices=sorted(SHAPES))
    parser.add_argument("--n", type=int, required=True)
    args = parser.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    rules = args.out / "rules"
    shutil.copytree(REPO / "rules", rules)
    for command in SHAPES[args.shape](rules, args.n):
        print(f".venv/bin/civrules --rules {rules} {command.format(out=args.out)}")


if __name__ == "__main__":
    main()
