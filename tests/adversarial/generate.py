"""Hostile inputs too large (or too regular) to commit: written into a case's rules tree at test time.

Each generator writes one or more files under ``rules`` and returns nothing; the expectations
(code, line, column) are in ``cases.yaml`` beside this module, and follow from the shapes below.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Generator = Callable[..., None]


def fanout(rules: Path, to: str, references: int = 200_001) -> None:
    """Wide fan-out: one small anchored mapping (5 nodes), then one alias of it per list item."""
    lines = ["kind: map", "areas:", "  - &a {id: x, name: x}"]
    lines.extend("  - *a" for _ in range(references))
    _write(rules / to, lines)


def quadratic(rules: Path, to: str, width: int = 1_001) -> None:
    """Quadratic blow-up: a list of ``width`` strings, aliased ``width`` times (text 2n, data n²)."""
    lines = ["kind: map", "wide: &w [" + ", ".join(["x"] * width) + "]", "areas:"]
    lines.extend("  - *w" for _ in range(width))
    _write(rules / to, lines)


def alias_ladder(rules: Path, to: str, rungs: int = 900) -> None:
    """Depth through aliases: each anchor a list holding the alias of the one before, in a variant's
    overlay (which accepts any field), so the data is ``rungs`` deep although the text is flat."""
    lines = [
        "kind: ruleset",
        "id: hostile",
        'name: "Hostile"',
        "extends: advanced-civilization",
        "overlay:",
        "  civilization_cards:",
        "    patch:",
        "      - id: pottery",
        "        k0: &l0 [x]",
    ]
    lines.extend(f"        k{k}: &l{k} [*l{k - 1}, x]" for k in range(1, rungs))
    _write(rules / to, lines)


def nesting_flow(rules: Path, to: str, depth: int = 10_000) -> None:
    """Flow lists nested ``depth`` deep on one line."""
    _write(rules / to, ["kind: map", "areas: " + "[" * depth + "]" * depth])


def nesting_block(rules: Path, to: str, depth: int = 10_000) -> None:
    """Block lists nested ``depth`` deep in YAML's compact form (`- - - x`: one level per `- `)."""
    _write(rules / to, ["kind: map", "areas:", "- " * depth + "x"])


def big_file(rules: Path, to: str, megabytes: int = 100) -> None:
    """A file of ``megabytes`` MiB of comments after a valid first line (real bytes, not sparse)."""
    line = b"# " + b"x" * 1021 + b"\n"
    with (rules / to).open("wb") as handle:
        handle.write(b"kind: map\n")
        chunk = line * 1024
        for _ in range(megabytes):
            handle.write(chunk)


def long_integer(rules: Path, to: str, find: str, value: str, digits: int = 10_000, prefix: str = "") -> None:
    """An integer of ``digits`` digits (decimal, or hexadecimal/octal with ``prefix``) in place of
    ``value`` within the text ``find`` of a shipped file."""
    digit = {"": "9", "0x": "f", "0o": "7"}[prefix]
    path = rules / to
    text = path.read_text(encoding="utf-8")
    assert find in text, f"{find!r} not in {to}"
    path.write_text(text.replace(find, find.replace(value, prefix + digit * digits), 1), encoding="utf-8")


def chain_map(rules: Path, to: str, areas: int = 10_000) -> None:
    """A map file of ``areas`` water areas in one chain (``s00000`` - ``s00001`` - ...), hung on the
    Aegean Sea of the main board: the longest path any graph check can walk."""
    lines = [
        "kind: map",
        "id: chain",
        "name: A chain of areas",
        "panel: main",
        'rule: ["4.1"]',
        "requires: [mediterranean]",
        "areas:",
    ]
    lines.extend(f"  - {{id: s{i:05d}, name: S{i}, panel: main, land: false, water: true}}" for i in range(areas))
    lines.append("borders:")
    lines.append("  - {areas: [aegean_sea, s00000], kind: sea}")
    lines.extend(f"  - {{areas: [s{i:05d}, s{i + 1:05d}], kind: sea}}" for i in range(areas - 1))
    _write(rules / to, lines)


def prerequisite_cycle(rules: Path, to: str, cards: int = 5_000, cost: int = 100) -> None:
    """``cards`` Craft cards at the top of the shipped card list, each requiring the next and the
    last the first: a cycle of length ``cards``. Every Craft card's group credit reaches each of
    them, so the credit checks see thousands of targets too."""
    path = rules / to
    text = path.read_text(encoding="utf-8")
    added = [
        f'  - {{id: c{i}, name: C{i}, rule: "32.21", groups: [crafts], cost: {cost}, '
        f'prerequisites: [{{card: c{(i + 1) % cards}, rule: "31.62"}}], credits: [], attributes: []}}'
        for i in range(cards)
    ]
    assert "\ncards:\n" in text, f"{to} has no top-level `cards:` list"
    path.write_text(text.replace("\ncards:\n", "\ncards:\n" + "\n".join(added) + "\n", 1), encoding="utf-8")


def mixed_unique_list(rules: Path, to: str, items: int = 100_000) -> None:
    """A map whose `source:` (a list with uniqueItems) holds ``items`` numbers and strings by turns:
    numbers and strings cannot be sorted together, and jsonschema then compares every pair."""
    values = ", ".join(str(i) if i % 2 else f"s{i}" for i in range(items))
    _write(rules / to, ["kind: map", "id: hostile", "name: Hostile", "panel: main", f"source: [{values}]", "areas: []"])


def unknown_keys_spread(rules: Path, to: str, areas: int = 20_000, keys: int = 5) -> None:
    """``areas`` areas of ``keys`` unknown keys each: one schema error per area, not one for a file."""
    lines = ["kind: map", "id: hostile", "name: Hostile", "panel: main", 'rule: ["4.1"]', "areas:"]
    for i in range(areas):
        extra = ", ".join(f"z{i}_{k}: 1" for k in range(keys))
        lines.append(f"  - {{id: h{i}, name: H{i}, panel: main, land: false, water: true, {extra}}}")
    _write(rules / to, lines)


def missing_areas(rules: Path, to: str, borders: int = 10_000) -> None:
    """A map file of ``borders`` sea borders from the Aegean Sea to areas nobody defines, each a
    different misspelling to look up ("did you mean")."""
    lines = [
        "kind: map",
        "id: hostile",
        "name: Hostile",
        "panel: main",
        'rule: ["4.1"]',
        "requires: [mediterranean]",
        "areas:",
    ]
    lines.append("  - {id: hostile_sea, name: Hostile Sea, panel: main, land: false, water: true}")
    lines.append("borders:")
    lines.append("  - {areas: [aegean_sea, hostile_sea], kind: sea}")
    lines.extend(f"  - {{areas: [aegean_sea, nowhere_{i:05d}], kind: sea}}" for i in range(borders))
    _write(rules / to, lines)


def unknown_sections(rules: Path, to: str, cards: int = 3_000) -> None:
    """``cards`` cards at the top of the shipped card list, each citing a different section the rule
    index does not have (each looked up among the sections for "did you mean")."""
    path = rules / to
    text = path.read_text(encoding="utf-8")
    added = [
        f'  - {{id: u{i}, name: U{i}, rule: "{40 + i % 50}.{i}", groups: [arts], cost: 100, '
        "prerequisites: [], credits: [], attributes: []}"
        for i in range(cards)
    ]
    assert "\ncards:\n" in text, f"{to} has no top-level `cards:` list"
    path.write_text(text.replace("\ncards:\n", "\ncards:\n" + "\n".join(added) + "\n", 1), encoding="utf-8")


def nested_folders(rules: Path, to: str, depth: int = 1_500) -> None:
    """``depth`` folders nested in each other (``d/d/d/...``), made one at a time (no recursion)."""
    folder = rules / to
    folder.mkdir()
    for _ in range(depth - 1):
        folder = folder / "d"
        folder.mkdir()


def extends_chain(rules: Path, to: str, length: int = 600) -> None:
    """``length`` variants each extending the one before (``c0`` extends advanced-civilization),
    the last of them written to ``to`` as `hostile`."""
    previous = "advanced-civilization"
    for i in range(length - 1):
        _write(rules / "rulesets" / f"c{i}.yaml", ["kind: ruleset", f"id: c{i}", f"name: C{i}", f"extends: {previous}"])
        previous = f"c{i}"
    _write(rules / to, ["kind: ruleset", "id: hostile", "name: Hostile", f"extends: {previous}"])


def long_ruleset_id(rules: Path, to: str, length: int = 300) -> None:
    """A variant whose id is ``length`` characters long (its manifest cannot be named after it)."""
    _write(rules / to, ["kind: ruleset", f"id: {'a' * length}", "name: Long", "extends: advanced-civilization"])


def long_names(rules: Path, to: str, length: int = 1_500_000) -> None:
    """A variant renaming the five card groups ``length`` characters each, alike but for their last
    character (7.5 MB within the 8 MiB bound): each name was printed on every card's mark, and their
    letters were found in the square of their length."""
    lines = ["kind: ruleset", "id: hostile", "name: Hostile", "extends: advanced-civilization", "overlay:",
             "  groups:", "    patch:"]  # fmt: skip
    groups = ("arts", "crafts", "sciences", "civics", "religion")
    lines.extend(f"      - {{id: {group}, name: {'A' * (length - 1)}{i}}}" for i, group in enumerate(groups))
    _write(rules / to, lines)


def forged_code_cache(rules: Path, to: str) -> None:
    """What civrules before issue 14 loaded and executed from ``.civrules_cache/`` in the working
    directory: for each schema, compiled code under the exact name it looked for, which runs a
    command and accepts every file (schema validation off)."""
    import hashlib
    import json
    import marshal
    import sys

    import fastjsonschema

    from civrules.schema import SCHEMA_FILES, load_schema

    def digest(*parts: str) -> str:
        hasher = hashlib.sha256()
        for part in parts:
            data = part.encode("utf-8")
            hasher.update(len(data).to_bytes(8, "little"))
            hasher.update(data)
        return hasher.hexdigest()

    folder = rules / to
    folder.mkdir(parents=True, exist_ok=True)
    payload = "import pathlib\npathlib.Path('@PWNED@').touch()\ncivrules_validate = lambda data: None\n"
    pwned = str(rules.parent / "pwned")
    code = compile(payload.replace("@PWNED@", pwned), "<forged>", "exec")
    for kind in SCHEMA_FILES:
        source = json.dumps(load_schema(kind), sort_keys=True)
        key = f"validator-2-{kind}-{fastjsonschema.VERSION}-{source}"
        (folder / f"code-{digest(key, sys.version)}.marshal").write_bytes(marshal.dumps(code))


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


GENERATORS: dict[str, Generator] = {
    "fanout": fanout,
    "quadratic": quadratic,
    "alias_ladder": alias_ladder,
    "nesting_flow": nesting_flow,
    "nesting_block": nesting_block,
    "big_file": big_file,
    "long_integer": long_integer,
    "chain_map": chain_map,
    "prerequisite_cycle": prerequisite_cycle,
    "mixed_unique_list": mixed_unique_list,
    "unknown_keys_spread": unknown_keys_spread,
    "missing_areas": missing_areas,
    "unknown_sections": unknown_sections,
    "nested_folders": nested_folders,
    "extends_chain": extends_chain,
    "long_ruleset_id": long_ruleset_id,
    "long_names": long_names,
    "forged_code_cache": forged_code_cache,
}


def generate(rules: Path, name: str, **params: Any) -> None:
    GENERATORS[name](rules, **params)
