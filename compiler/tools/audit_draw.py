"""Drawing a data audit's sample (provenance/audits/round-N.md, "The draw").

Rounds 28-33 each rebuilt this script from the previous audit's text; it is kept here from round 34
on, with the rule rounds 32-33 could no longer follow: the Imperial Settlers variants have only a
few facts of their own, and each round draws its share of them.

The facts of a ruleset are the leaves of ``civrules export RULESET`` (a list of scalars counts as one
fact; a list of mappings is entered by each one's ``id``, ``step``, ``level``, ``card``, ``rank`` or
``name``, else by its index) without the manifest's header, the citations and prose about them, the
``{unknown: why}`` facts, ids, a ``name`` that restates its element's id, and every family's derived
keys. A fact's kind is its collection and its own key (``calamities/amount``). A variant's facts are
its own: the paths its export holds with a value its base's does not (the rest are drawn in its base).

**The rule.** Each ruleset is drawn in every round, ``quota`` facts (10 of a base ruleset, 2 of a
variant), among the facts no earlier round's table lists, weighted toward the kinds earlier rounds
drew least (Efraimidis-Spirakis keys ``u ** (1 + n)``, ``n`` the paths of the kind drawn before, one
``random.Random(seed)`` per ruleset, the largest keys taken). A ruleset with fewer such facts than its
quota takes all of them and fills the rest by **re-reading** its own facts whose last reading is the
oldest (the latest round whose section of that ruleset lists the path; ties by the same keys). A
re-read row says so in its ``#`` cell: ``3 (re-read, round 32)``, the round it was last read in.
``tests/core/test_audit_sample.py`` holds the audits to this rule.

Run from the repository's root (the export of each ruleset is the installed ``civrules``)::

    .venv/bin/python compiler/tools/audit_draw.py --seed 34 [--before 34] RULESET...

``--before N`` reads the audits of rounds before N only (default: the seed), so an older round's
draw can be made again and compared with its table (from a checkout of its commit, the working
folder, with this script and ``civrules`` run by their paths).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PROSE = {"rule", "source", "note", "disagreements", "why"}
DERIVED = {
    "credit_matrix",
    "calamity_resolution_order",
    "field_sources",
    "entity_sources",
    "setting_sources",
    "decks_expanded",
    "deck_totals",
    "faction_deck_in_use",
    "technologies_by_level",
    "unlocked_by",
}
#: The variants drawn by their own facts, and their bases (central-america, which extends the
#: Expansion Project, is drawn as a ruleset of its own, as since round 28).
VARIANTS = {
    "advanced-civilization-western": "advanced-civilization",
    "imperial-settlers-advanced-lookout": "imperial-settlers",
    "imperial-settlers-alternative-lookout": "imperial-settlers",
    "imperial-settlers-peaceful": "imperial-settlers",
    "sid-meiers-civilization-community": "sid-meiers-civilization",
}
KEYS = ("id", "step", "level", "card", "rank", "name")
AUDITS = Path("provenance/audits")
#: The command that exports a ruleset; `--no-shipped` reads the working folder's `rules/` alone, so
#: an older checkout's draw can be made again with this checkout's civrules.
CIVRULES = str(Path(sys.executable).with_name("civrules"))
ROUND = re.compile(r"round-(\d+)\.md$")
SECTION = re.compile(r"^## .*\(`([a-z0-9-]+)`, seed (\d+)\)$")
ROW = re.compile(r"^\| (\d+)(?: \(re-read, round (\d+)\))? \| `((?:[^`\\]|\\.)+)` \|")

Fact = tuple[str, object, str]


@dataclass(frozen=True)
class Drawn:
    path: str
    value: object
    kind: str
    kind_drawn: int  # the paths of its kind earlier rounds drew
    reread: int | None  # the round that last read it, for a re-read


def label(item: object, index: int) -> str:
    if isinstance(item, dict):
        for key in KEYS:
            value = item.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
    return str(index)


def leaves(value: object, path: list[str], kind: list[str]) -> Iterator[tuple[str, object, list[str]]]:
    if isinstance(value, dict):
        if set(value) == {"unknown"}:
            return
        for key, item in value.items():
            if key in PROSE or key in DERIVED or (key in ("id", "step") and path):
                continue
            if key == "name" and item == value.get("id"):
                continue
            yield from leaves(item, [*path, key], [*kind, key])
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        for index, item in enumerate(value):
            yield from leaves(item, [*path, label(item, index)], [*kind, "*"])
    else:
        yield ".".join(path), value, kind


def kind_of(kind: Sequence[str]) -> str:
    keys = [key for key in kind if key != "*"]
    return f"{keys[0]}/{keys[-1]}" if len(keys) > 1 else keys[0]


def facts_of(exported: Mapping[str, object]) -> list[Fact]:
    document = {key: value for key, value in exported.items() if key != "ruleset"}
    return [(path, value, kind_of(kind)) for path, value, kind in leaves(document, [], [])]


def own_facts(facts: list[Fact], base: list[Fact]) -> list[Fact]:
    """A variant's facts whose path its base lacks or holds with another value."""
    held = {(path, json.dumps(value, sort_keys=True)) for path, value, _ in base}
    return [fact for fact in facts if (fact[0], json.dumps(fact[1], sort_keys=True)) not in held]


def readings(texts: Mapping[int, str]) -> tuple[set[str], dict[str, dict[str, int]]]:
    """Every path the audits' tables list; and per ruleset, each path's latest round in its section."""
    paths: set[str] = set()
    latest: dict[str, dict[str, int]] = {}
    for number, text in sorted(texts.items()):
        ruleset = None
        for line in text.splitlines():
            section = SECTION.match(line)
            if section:
                ruleset = section.group(1)
                continue
            row = ROW.match(line)
            if row:
                path = row.group(3).replace("\\|", "|")
                paths.add(path)
                if ruleset is not None:
                    latest.setdefault(ruleset, {})[path] = number
    return paths, latest


def draw(
    facts: Sequence[Fact],
    quota: int,
    seed: int,
    before: set[str],
    kind_counts: Mapping[str, int],
    last_read: Mapping[str, int],
) -> list[Drawn]:
    """The rule (module docstring): the fresh facts by weighted keys, then the oldest readings."""
    rng = random.Random(seed)

    def keys(chosen: list[Fact]) -> list[tuple[float, Fact]]:
        return [(rng.random() ** (1 + kind_counts.get(fact[2], 0)), fact) for fact in chosen]

    # The fresh facts' keys first, in the export's order: the draws of rounds 28-33 made no others.
    fresh = sorted(keys([fact for fact in facts if fact[0] not in before]), key=lambda item: -item[0])
    taken = [Drawn(p, v, k, kind_counts.get(k, 0), None) for _, (p, v, k) in fresh[:quota]]
    if len(taken) < quota:
        again = keys([fact for fact in facts if fact[0] in last_read])
        again.sort(key=lambda item: (last_read[item[1][0]], -item[0]))
        taken += [Drawn(p, v, k, kind_counts.get(k, 0), last_read[p]) for _, (p, v, k) in again[: quota - len(taken)]]
    return sorted(taken, key=lambda fact: fact.path)


def export(ruleset: str) -> dict[str, object]:
    command = [CIVRULES, "--rules", "rules", "--no-shipped", "export", ruleset]
    result: dict[str, object] = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--before", type=int, help="read the audits of rounds before this one (default: the seed)")
    parser.add_argument("--variant-quota", type=int, default=2)
    parser.add_argument("--quota", type=int, default=10)
    parser.add_argument("rulesets", nargs="+")
    args = parser.parse_args(argv)
    limit = args.before if args.before is not None else args.seed
    texts = {}
    for audit in AUDITS.glob("round-*.md"):
        number = int(ROUND.search(audit.name).group(1))  # type: ignore[union-attr]
        if number < limit:
            texts[number] = audit.read_text(encoding="utf-8")
    before, latest = readings(texts)
    exports = {ruleset: export(ruleset) for ruleset in args.rulesets}
    everything = {ruleset: facts_of(document) for ruleset, document in exports.items()}
    kinds = {path: kind for found in everything.values() for path, _, kind in found}
    kind_counts = Counter(kinds[path] for path in before if path in kinds)
    for ruleset, found in everything.items():
        quota, read = args.quota, before
        if ruleset in VARIANTS:
            # A variant's own fact is read only in the variant's own section: the same path listed
            # for its base or another variant is another value (rounds 32-33 left these out too).
            found, quota = own_facts(found, everything[VARIANTS[ruleset]]), args.variant_quota
            read = set(latest.get(ruleset, {}))
        fresh = sum(1 for path, *_ in found if path not in read)
        print(f"## {ruleset}: {len(found)} facts, {fresh} not drawn before")
        for fact in draw(found, quota, args.seed, read, kind_counts, latest.get(ruleset, {})):
            mark = f" (re-read, round {fact.reread})" if fact.reread is not None else ""
            value = json.dumps(fact.value, ensure_ascii=False)
            print(f"{fact.path}\t{value}\t{fact.kind}\t{fact.kind_drawn}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
