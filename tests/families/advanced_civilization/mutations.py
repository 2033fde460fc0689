"""Mutation testing of the shipped rule data: break one fact, expect the check that owns it to say so.

Each mutation kind is generated systematically from the data (every border, every prerequisite,
every card a calamity modifier names ...): one single-point change of one file, and the diagnostic
it must produce (code, file, line). A mutation is *caught* when that diagnostic is reported at that
place; the catch rate per kind is the measure of how well the checks guard the data.

    python -m tests.families.advanced_civilization.mutations             # every instance of every kind, with the table
    python -m tests.families.advanced_civilization.mutations --sample 5  # what CI runs: up to 5 per kind, spread evenly

test_mutations.py beside this module runs the sample and asserts a catch rate of 100% for every kind.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from civrules.load import NodePath
from civrules.pipeline import analyse
from tests.rulefiles import CachedWorkspace, dump, get, pristine, relative_to_rules

BASE = "advanced-civilization"
VARIANT = "advanced-civilization-western"

#: An edit of a deep copy of one file's data; returns where the diagnostic must be: (file or None
#: for the edited file, path in that file's data, key=True to point at the key rather than the value).
Edit = Callable[[Any], tuple[str | None, NodePath, bool]]


@dataclass(frozen=True)
class Mutation:
    kind: str
    instance: str
    ruleset: str
    file: str
    code: str
    edit: Edit = field(compare=False, repr=False)


@dataclass(frozen=True)
class Outcome:
    mutation: Mutation
    caught: bool
    expected: tuple[str, str, int]
    found: tuple[tuple[str, str, int], ...]  # the errors and warnings reported (code, file, line)


def data_of(relative: str) -> Any:
    document = pristine()[relative].document
    assert document is not None, relative
    return document.data


def files_of(ruleset: str, slot: str) -> list[str]:
    manifest = data_of(f"rulesets/{ruleset}.yaml")
    return list((manifest.get("files") or {}).get(slot) or [])


def spread(items: list[Any], limit: int | None) -> list[Any]:
    """Up to ``limit`` items spread evenly over the list (all of them when ``limit`` is None)."""
    if limit is None or len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


# --- The kinds --------------------------------------------------------------------------------


def border_side_removed() -> Iterator[Mutation]:
    """One side of a border names an area that does not exist (X001 at that side)."""
    for file in files_of(BASE, "map"):
        for i, border in enumerate(data_of(file).get("borders") or []):
            a, b = border["areas"]

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["borders"][i]["areas"][1] += "_gone"
                return None, ("borders", i, "areas", 1), False

            yield Mutation("border-side-removed", f"{a} – {b}", BASE, file, "X001", edit)


def area_cut_off() -> Iterator[Mutation]:
    """Every border of an area is deleted (M005 at the area)."""
    for file in files_of(BASE, "map"):
        data = data_of(file)
        for j, area in enumerate(data.get("areas") or []):
            if not any(area["id"] in border["areas"] for border in data.get("borders") or []):
                continue  # bordered only from another file

            def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
                gone = data["areas"][j]["id"]
                data["borders"] = [border for border in data["borders"] if gone not in border["areas"]]
                return None, ("areas", j, "id"), False

            yield Mutation("area-cut-off", area["id"], BASE, file, "M005", edit)


def area_duplicated() -> Iterator[Mutation]:
    """An area entry appears twice (I001 at the copy's id)."""
    for file in files_of(BASE, "map"):
        for j, area in enumerate(data_of(file).get("areas") or []):

            def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
                data["areas"].append(copy.deepcopy(data["areas"][j]))
                return None, ("areas", len(data["areas"]) - 1, "id"), False

            yield Mutation("area-duplicated", area["id"], BASE, file, "I001", edit)


def prerequisite_renamed() -> Iterator[Mutation]:
    """A prerequisite names a card that does not exist (X001 at the prerequisite)."""
    for file in files_of(BASE, "civilization_cards"):
        for i, card in enumerate(data_of(file).get("cards") or []):
            for j, required in enumerate(card.get("prerequisites") or []):

                def edit(data: Any, i: int = i, j: int = j) -> tuple[str | None, NodePath, bool]:
                    data["cards"][i]["prerequisites"][j]["card"] += "_x"
                    return None, ("cards", i, "prerequisites", j, "card"), False

                yield Mutation("prerequisite-renamed", f"{card['id']} → {required['card']}", BASE, file, "X001", edit)


def prerequisite_reversed() -> Iterator[Mutation]:
    """A card's prerequisite also requires the card back (C001, at the entry that closes the cycle:
    the one pointing at the card of the two that comes first in the file)."""
    for file in files_of(BASE, "civilization_cards"):
        cards = data_of(file).get("cards") or []
        index = {card["id"]: i for i, card in enumerate(cards)}
        for i, card in enumerate(cards):
            for j, required in enumerate(card.get("prerequisites") or []):
                if required["card"] not in index:
                    continue
                k = index[required["card"]]

                def edit(data: Any, i: int = i, j: int = j, k: int = k) -> tuple[str | None, NodePath, bool]:
                    back = data["cards"][k].setdefault("prerequisites", [])
                    back.append({"card": data["cards"][i]["id"], "rule": "31.62"})
                    if i < k:  # the new entry points back at the earlier card: it closes the cycle
                        return None, ("cards", k, "prerequisites", len(back) - 1, "card"), False
                    return None, ("cards", i, "prerequisites", j, "card"), False

                yield Mutation("prerequisite-reversed", f"{card['id']} ⇄ {required['card']}", BASE, file, "C001", edit)


def credit_to_itself() -> Iterator[Mutation]:
    """A specific credit is redirected to the card that gives it (C003 at the credit's target)."""
    for file in files_of(BASE, "civilization_cards"):
        for i, card in enumerate(data_of(file).get("cards") or []):
            for j, line in enumerate(card.get("credits") or []):
                if not isinstance(line, dict) or "card" not in line:
                    continue

                def edit(data: Any, i: int = i, j: int = j) -> tuple[str | None, NodePath, bool]:
                    data["cards"][i]["credits"][j]["card"] = data["cards"][i]["id"]
                    return None, ("cards", i, "credits", j, "card"), False

                yield Mutation("credit-target-changed", f"{card['id']} → {line['card']}", BASE, file, "C003", edit)


def card_duplicated() -> Iterator[Mutation]:
    """A card entry appears twice (I001 at the copy's id)."""
    for file in files_of(BASE, "civilization_cards"):
        for i, card in enumerate(data_of(file).get("cards") or []):

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["cards"].append(copy.deepcopy(data["cards"][i]))
                return None, ("cards", len(data["cards"]) - 1, "id"), False

            yield Mutation("card-duplicated", card["id"], BASE, file, "I001", edit)


def modifier_card_removed() -> Iterator[Mutation]:
    """A card that a calamity modifier names is deleted (X001 at the first modifier naming it)."""
    (cards_file,) = files_of(BASE, "civilization_cards")
    index = {card["id"]: i for i, card in enumerate(data_of(cards_file)["cards"])}
    first: dict[str, tuple[str, NodePath]] = {}
    for file in files_of(BASE, "calamities"):
        for c, calamity in enumerate(data_of(file).get("calamities") or []):
            for m, modifier in enumerate(calamity.get("modifiers") or []):
                first.setdefault(modifier["card"], (file, ("calamities", c, "modifiers", m, "card")))
    for card, (where, path) in first.items():
        if card not in index:
            continue

        def edit(
            data: Any, i: int = index[card], where: str = where, path: NodePath = path
        ) -> tuple[str | None, NodePath, bool]:
            del data["cards"][i]
            return where, path, False

        yield Mutation("modifier-card-removed", card, BASE, cards_file, "X001", edit)


def effect_renamed() -> Iterator[Mutation]:
    """An effect that a modifier `modifies` is renamed in the calamity (K005 at the modifier's entry)."""
    for file in files_of(BASE, "calamities"):
        for c, calamity in enumerate(data_of(file).get("calamities") or []):
            for m, modifier in enumerate(calamity.get("modifiers") or []):
                for e, effect in enumerate(modifier.get("modifies") or []):
                    side, k = next(
                        (side, k)
                        for side in ("primary", "secondary")
                        for k, entry in enumerate(calamity.get(side) or [])
                        if entry.get("id") == effect
                    )

                    def edit(
                        data: Any, c: int = c, m: int = m, e: int = e, side: str = side, k: int = k
                    ) -> tuple[str | None, NodePath, bool]:
                        data["calamities"][c][side][k]["id"] += "_renamed"
                        return None, ("calamities", c, "modifiers", m, "modifies", e), False

                    yield Mutation(
                        "effect-renamed", f"{calamity['id']}.{effect} ({modifier['card']})", BASE, file, "K005", edit
                    )


def stack_changed() -> Iterator[Mutation]:
    """A calamity moves to another trade stack (K002 at the declaration of the stack it left)."""
    (commodities,) = files_of(BASE, "commodities")
    declared = {s["number"]: k for k, s in enumerate(data_of(commodities)["trade_stacks"]["stacks"])}
    for file in files_of(BASE, "calamities"):
        calamities = data_of(file).get("calamities") or []
        for c, calamity in enumerate(calamities):
            others = sorted(n for n in declared if n not in (1, calamity["stack"]))
            to = others[c % len(others)]

            def edit(
                data: Any, c: int = c, to: int = to, left: int = calamity["stack"]
            ) -> tuple[str | None, NodePath, bool]:
                data["calamities"][c]["stack"] = to
                return commodities, ("trade_stacks", "stacks", declared[left], "calamity_cards"), False

            yield Mutation("stack-changed", f"{calamity['id']}: {calamity['stack']} → {to}", BASE, file, "K002", edit)


def count_total_broken() -> Iterator[Mutation]:
    """A commodity's card count changes, so the declared total no longer adds up (D001 at the total)."""
    (file,) = files_of(BASE, "commodities")
    for g, good in enumerate(data_of(file).get("commodities") or []):
        if not isinstance(good.get("count"), int):
            continue

        def edit(data: Any, g: int = g) -> tuple[str | None, NodePath, bool]:
            data["commodities"][g]["count"] += 1
            return None, ("total_cards", "count"), False

        yield Mutation("count-total-broken", good["id"], BASE, file, "D001", edit)


def epochs_swapped() -> Iterator[Mutation]:
    """Two neighbouring epochs change places in the list (A001 at the first one's `order`)."""
    file = f"rulesets/{BASE}.yaml"
    epochs = data_of(file).get("epochs") or []
    for e in range(len(epochs) - 1):

        def edit(data: Any, e: int = e) -> tuple[str | None, NodePath, bool]:
            listed = data["epochs"]
            listed[e], listed[e + 1] = listed[e + 1], listed[e]
            return None, ("epochs", e, "order"), False

        yield Mutation("epochs-swapped", f"{epochs[e]['id']} ⇄ {epochs[e + 1]['id']}", BASE, file, "A001", edit)


def ast_position_taken() -> Iterator[Mutation]:
    """A nation takes the A.S.T. position of the nation before it (P005 at the later of the two)."""
    file = f"rulesets/{BASE}.yaml"
    nations = data_of(file).get("nations") or []
    known = [
        (n, nation)
        for n, nation in enumerate(nations)
        if isinstance((nation.get("ast_position") or {}).get("position"), int)
    ]
    for (_, earlier), (n, nation) in itertools.pairwise(known):

        def edit(
            data: Any, n: int = n, position: int = earlier["ast_position"]["position"]
        ) -> tuple[str | None, NodePath, bool]:
            data["nations"][n]["ast_position"]["position"] = position
            return None, ("nations", n, "ast_position", "position"), False

        yield Mutation("ast-position-taken", f"{nation['id']} takes {earlier['id']}'s", BASE, file, "P005", edit)


def coastal_flipped() -> Iterator[Mutation]:
    """The `coastal` flag of an area with land and water is flipped against its borders (M010 at the
    flag; on an area without water the schema already allows only `false`)."""
    for file in files_of(BASE, "map"):
        for j, area in enumerate(data_of(file).get("areas") or []):
            if not isinstance(area.get("coastal"), bool) or not (area.get("land") and area.get("water")):
                continue

            def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
                data["areas"][j]["coastal"] = not data["areas"][j]["coastal"]
                return None, ("areas", j, "coastal"), False

            yield Mutation("coastal-flipped", area["id"], BASE, file, "M010", edit)


def citation_mistyped() -> Iterator[Mutation]:
    """A `rule:` cites a section the rulebook does not have (Q001 at the citation)."""
    from tests.rulefiles import nodes

    for file in [f"rulesets/{BASE}.yaml", *files_of(BASE, "civilization_cards"), *files_of(BASE, "calamities")]:
        for path, value in nodes(data_of(file)):
            if not path or path[-1] != "rule" or not isinstance(value, str):
                continue

            def edit(data: Any, path: NodePath = path) -> tuple[str | None, NodePath, bool]:
                get(data, path[:-1])["rule"] = "99.99"
                return None, path, False

            yield Mutation(
                "citation-mistyped", f"{file.split('/')[0]} {'.'.join(map(str, path))}", BASE, file, "Q001", edit
            )


def overlay_target_renamed() -> Iterator[Mutation]:
    """A variant's overlay patches an entity under a misspelt id (V005 at the overlay entry)."""
    file = f"rulesets/{VARIANT}.yaml"
    for collection, operations in (data_of(file).get("overlay") or {}).items():
        for operation, entries in operations.items():
            for i, entry in enumerate(entries):
                key = next((k for k in ("id", "players", "nation") if k in entry), None)
                if key is None or operation == "add":
                    continue

                def edit(
                    data: Any, collection: str = collection, operation: str = operation, i: int = i, key: str = key
                ) -> tuple[str | None, NodePath, bool]:
                    item = data["overlay"][collection][operation][i]
                    item[key] = f"{item[key]}_x" if isinstance(item[key], str) else item[key] + 100
                    return None, ("overlay", collection, operation, i, key), False

                yield Mutation("overlay-target-renamed", f"{collection}.{operation}[{i}]", VARIANT, file, "V005", edit)


def start_area_renamed() -> Iterator[Mutation]:
    """A nation's start area names an area that does not exist (X001 at the start area)."""
    file = f"rulesets/{BASE}.yaml"
    for n, nation in enumerate(data_of(file).get("nations") or []):
        areas = (nation.get("start_areas") or {}).get("areas")
        for a, area in enumerate(areas if isinstance(areas, list) else []):

            def edit(data: Any, n: int = n, a: int = a) -> tuple[str | None, NodePath, bool]:
                data["nations"][n]["start_areas"]["areas"][a] += "_x"
                return None, ("nations", n, "start_areas", "areas", a), False

            yield Mutation("start-area-renamed", f"{nation['id']}: {area}", BASE, file, "X001", edit)


def flood_plain_member_dropped() -> Iterator[Mutation]:
    """A flood plain stops listing an area that still names it (M021 at the area's `flood_plain`)."""
    for file in files_of(BASE, "map"):
        data = data_of(file)
        index = {area["id"]: j for j, area in enumerate(data.get("areas") or [])}
        for f, plain in enumerate(data.get("flood_plains") or []):
            for k, member in enumerate(plain.get("areas") or []):
                if member not in index:
                    continue

                def edit(
                    data: Any, f: int = f, k: int = k, j: int = index[member]
                ) -> tuple[str | None, NodePath, bool]:
                    del data["flood_plains"][f]["areas"][k]
                    return None, ("areas", j, "flood_plain"), False

                yield Mutation("flood-plain-member-dropped", f"{plain['id']}: {member}", BASE, file, "M021", edit)


def flood_plain_flag_dropped() -> Iterator[Mutation]:
    """An area listed by a flood plain loses its `flood_plain` (M021 at the flood plain's entry)."""
    for file in files_of(BASE, "map"):
        data = data_of(file)
        listed = {
            m: (f, k) for f, plain in enumerate(data.get("flood_plains") or []) for k, m in enumerate(plain["areas"])
        }
        for j, area in enumerate(data.get("areas") or []):
            if "flood_plain" not in area or area["id"] not in listed:
                continue
            f, k = listed[area["id"]]

            def edit(data: Any, j: int = j, f: int = f, k: int = k) -> tuple[str | None, NodePath, bool]:
                del data["areas"][j]["flood_plain"]
                data["areas"][j].pop("city_site", None)  # a white site needs a flood plain (M021 too)
                return None, ("flood_plains", f, "areas", k), False

            yield Mutation("flood-plain-flag-dropped", area["id"], BASE, file, "M021", edit)


def modifier_removed() -> Iterator[Mutation]:
    """Every modifier of one card on one calamity is deleted while the card still says it changes
    that calamity (K009 at the card's link)."""
    (cards_file,) = files_of(BASE, "civilization_cards")
    links: dict[tuple[str, str], NodePath] = {}
    for i, card in enumerate(data_of(cards_file)["cards"]):
        for a, attribute in enumerate(card.get("attributes") or []):
            for c, link in enumerate(attribute.get("calamities") or []):
                links.setdefault(
                    (card["id"], link["calamity"]), ("cards", i, "attributes", a, "calamities", c, "calamity")
                )
    for file in files_of(BASE, "calamities"):
        for c, calamity in enumerate(data_of(file).get("calamities") or []):
            for card in sorted({m["card"] for m in calamity.get("modifiers") or []}):
                link = links.get((card, calamity["id"]))
                if link is None:
                    continue

                def edit(
                    data: Any, c: int = c, card: str = card, link: NodePath = link
                ) -> tuple[str | None, NodePath, bool]:
                    kept = data["calamities"][c]
                    kept["modifiers"] = [m for m in kept["modifiers"] if m["card"] != card]
                    kept["immune"] = [e for e in kept.get("immune") or [] if e.get("card") != card]
                    combination = kept.get("modifier_combination")
                    if isinstance(combination, dict) and isinstance(combination.get("cards"), list):
                        combination["cards"] = [x for x in combination["cards"] if x != card]
                    return cards_file, link, False

                yield Mutation("modifier-removed", f"{calamity['id']}: {card}", BASE, file, "K009", edit)


def set_example_broken() -> Iterator[Mutation]:
    """A worked example of the set value no longer fits the formula (D006 at its value)."""
    (file,) = files_of(BASE, "commodities")
    for e, example in enumerate((data_of(file).get("set_value") or {}).get("examples") or []):

        def edit(data: Any, e: int = e) -> tuple[str | None, NodePath, bool]:
            data["set_value"]["examples"][e]["set_value"] += 1
            return None, ("set_value", "examples", e, "set_value"), False

        yield Mutation("set-example-broken", f"{example['commodity']} x{example['cards']}", BASE, file, "D006", edit)


def commodity_stack_changed() -> Iterator[Mutation]:
    """A good moves to another trade stack although stacks go by face value (D002 at its stack)."""
    (file,) = files_of(BASE, "commodities")
    data = data_of(file)
    if not (data.get("trade_stacks") or {}).get("numbered_by_value"):
        return
    for g, good in enumerate(data.get("commodities") or []):
        if not isinstance(good.get("stack"), int):
            continue

        def edit(data: Any, g: int = g) -> tuple[str | None, NodePath, bool]:
            good = data["commodities"][g]
            good["stack"] = good["stack"] % 9 + 1
            return None, ("commodities", g, "stack"), False

        yield Mutation("commodity-stack-changed", good["id"], BASE, file, "D002", edit)


# --- Sid Meier's Civilization (the second family) ----------------------------------------------

SMC = "sid-meiers-civilization"
SMC_COMMUNITY = "sid-meiers-civilization-community"


def research_cost_flattened() -> Iterator[Mutation]:
    """A level's research cost drops to the level below's (T004 at its trade)."""
    file = f"rulesets/{SMC}.yaml"
    costs = data_of(file)["research"]["costs"]
    for j in range(1, len(costs)):

        def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
            data["research"]["costs"][j]["trade"] = data["research"]["costs"][j - 1]["trade"]
            return None, ("research", "costs", j, "trade"), False

        yield Mutation("research-cost-flattened", f"level {costs[j]['level']}", SMC, file, "T004", edit)


def unit_rank_cheapened() -> Iterator[Mutation]:
    """A unit rank costs what the rank below costs (T010 at its cost)."""
    for file in files_of(SMC, "units"):
        for i, unit in enumerate(data_of(file).get("unit_types") or []):
            for j in range(1, len(unit.get("ranks") or [])):

                def edit(data: Any, i: int = i, j: int = j) -> tuple[str | None, NodePath, bool]:
                    ranks = data["unit_types"][i]["ranks"]
                    ranks[j]["cost"] = ranks[j - 1]["cost"]
                    return None, ("unit_types", i, "ranks", j, "cost"), False

                yield Mutation("unit-rank-cheapened", f"{unit['id']} rank {j + 1}", SMC, file, "T010", edit)


def upgrade_cheapened() -> Iterator[Mutation]:
    """An upgraded building costs what the building it upgrades costs (T008 at its cost)."""
    for file in files_of(SMC, "buildings"):
        buildings = data_of(file).get("buildings") or []
        costs = {b["id"]: b.get("cost") for b in buildings}
        for i, building in enumerate(buildings):
            if not isinstance(building.get("cost"), int) or not isinstance(costs.get(building.get("upgrade_of")), int):
                continue

            def edit(
                data: Any, i: int = i, base: int = costs[building["upgrade_of"]]
            ) -> tuple[str | None, NodePath, bool]:
                data["buildings"][i]["cost"] = base
                return None, ("buildings", i, "cost"), False

            yield Mutation("upgrade-cheapened", building["id"], SMC, file, "T008", edit)


def limited_building_on_water() -> Iterator[Mutation]:
    """A limited building's terrains gain water (T009 at its terrains)."""
    for file in files_of(SMC, "buildings"):
        for i, building in enumerate(data_of(file).get("buildings") or []):
            if building.get("limited") is not True or not isinstance(building.get("terrains"), list):
                continue

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["buildings"][i]["terrains"].insert(0, "agua")
                return None, ("buildings", i, "terrains"), False

            yield Mutation("limited-building-on-water", building["id"], SMC, file, "T009", edit)


def wonder_discount_lost() -> Iterator[Mutation]:
    """A wonder's discounted cost rises to its cost (T012 at the discounted cost)."""
    for file in files_of(SMC, "wonders"):
        for i, wonder in enumerate(data_of(file).get("wonders") or []):
            if not isinstance(wonder.get("cost"), int) or not isinstance(wonder.get("discount"), dict):
                continue

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["wonders"][i]["discount"]["cost"] = data["wonders"][i]["cost"]
                return None, ("wonders", i, "discount", "cost"), False

            yield Mutation("wonder-discount-lost", wonder["id"], SMC, file, "T012", edit)


def tile_row_shortened() -> Iterator[Mutation]:
    """A map tile loses a square of its last row (T016 at its squares)."""
    for file in files_of(SMC_COMMUNITY, "map"):
        for i, tile in enumerate(data_of(file).get("tiles") or []):

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["tiles"][i]["squares"][-1].pop()
                return None, ("tiles", i, "squares"), False

            yield Mutation("tile-row-shortened", tile["id"], SMC_COMMUNITY, file, "T016", edit)


def culture_cost_lowered() -> Iterator[Mutation]:
    """A culture track space costs less culture than the space before it (T013 at its cost)."""
    for file in files_of(SMC_COMMUNITY, "culture"):
        spaces = data_of(file).get("spaces") or []
        for i in range(1, len(spaces)):
            if spaces[i]["cost"]["culture"] == 0:
                continue

            def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
                data["spaces"][i]["cost"]["culture"] = data["spaces"][i - 1]["cost"]["culture"] - 1
                return None, ("spaces", i, "cost"), False

            yield Mutation("culture-cost-lowered", spaces[i]["id"], SMC_COMMUNITY, file, "T013", edit)


def pyramid_total_off() -> Iterator[Mutation]:
    """The pyramid's declared total is one more than its minimums add up to (T003 at the total)."""
    file = f"rulesets/{SMC}.yaml"

    def edit(data: Any) -> tuple[str | None, NodePath, bool]:
        data["pyramid"]["total"] += 1
        return None, ("pyramid", "total"), False

    yield Mutation("pyramid-total-off", "total", SMC, file, "T003", edit)


def research_above_dial() -> Iterator[Mutation]:
    """The top level's research costs more trade than the dial holds (T005 at its trade)."""
    file = f"rulesets/{SMC}.yaml"
    costs = data_of(file)["research"]["costs"]
    n = len(costs) - 1

    def edit(data: Any) -> tuple[str | None, NodePath, bool]:
        data["research"]["costs"][n]["trade"] = data["trade"]["dial_max"] + 1
        return None, ("research", "costs", n, "trade"), False

    yield Mutation("research-above-dial", f"level {costs[n]['level']}", SMC, file, "T005", edit)


def victory_coins_changed() -> Iterator[Mutation]:
    """The economic victory asks for other coins than the coin rule (T015 at its coins)."""
    file = f"rulesets/{SMC}.yaml"
    for i, victory in enumerate(data_of(file)["victories"]):
        if victory.get("kind") != "economy":
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["victories"][i]["coins"] += 1
            return None, ("victories", i, "coins"), False

        yield Mutation("victory-coins-changed", victory["id"], SMC, file, "T015", edit)


def second_top_technology() -> Iterator[Mutation]:
    """A level-4 technology of the transcription is raised to the top level (T002 at its level)."""
    (file,) = files_of(SMC_COMMUNITY, "technologies")
    for i, tech in enumerate(data_of(file)["technologies"]):
        if tech.get("level") != 4:
            continue

        def edit(data: Any, i: int = i) -> tuple[str | None, NodePath, bool]:
            data["technologies"][i]["level"] = 5
            return None, ("technologies", i, "level"), False

        yield Mutation("second-top-technology", tech["id"], SMC_COMMUNITY, file, "T002", edit)


def pyramid_minimum_raised() -> Iterator[Mutation]:
    """A level of the pyramid needs more technologies than the transcription holds (T001). The base
    knows not every technology's level, but 99 at a level is more than all of its technologies of
    no known level could fill, whatever their levels: the base judges it too, and the error is the
    base's own, at its minimums (the variant has nothing to change)."""
    file = f"rulesets/{SMC}.yaml"
    minimums = data_of(file)["pyramid"]["minimums"]
    for j, minimum in enumerate(minimums):

        def edit(data: Any, j: int = j) -> tuple[str | None, NodePath, bool]:
            data["pyramid"]["minimums"][j]["count"] = 99
            return None, ("pyramid", "minimums"), False

        yield Mutation("pyramid-minimum-raised", f"level {minimum['level']}", SMC_COMMUNITY, file, "T001", edit)


def unlocked_rank_missing() -> Iterator[Mutation]:
    """A technology unlocks a rank its unit type does not have, one above its highest (T006 at the
    rank; only where that rank is one the schema allows, 1 to 4)."""
    (units_file,) = files_of(SMC, "units")
    highest = {u["id"]: max(r["rank"] for r in u["ranks"]) for u in data_of(units_file)["unit_types"]}
    (file,) = files_of(SMC, "technologies")
    for i, tech in enumerate(data_of(file)["technologies"]):
        units = (tech.get("unlocks") or {}).get("units") if isinstance(tech.get("unlocks"), dict) else None
        for n, unit in enumerate(units or ()):
            missing = highest.get(unit["type"], 4) + 1
            if missing > 4:
                continue

            def edit(data: Any, i: int = i, n: int = n, missing: int = missing) -> tuple[str | None, NodePath, bool]:
                data["technologies"][i]["unlocks"]["units"][n]["rank"] = missing
                return None, ("technologies", i, "unlocks", "units", n, "rank"), False

            yield Mutation("unlocked-rank-missing", f"{tech['id']} unit {n}", SMC, file, "T006", edit)


def trump_cycle_broken() -> Iterator[Mutation]:
    """The first basic unit type trumps itself: the three no longer form one cycle (T011 at its trumps)."""
    (file,) = files_of(SMC, "units")
    units = data_of(file)["unit_types"]
    first = next((i for i, u in enumerate(units) if u.get("available_at_start")), None)
    if first is None:
        return

    def edit(data: Any) -> tuple[str | None, NodePath, bool]:
        data["unit_types"][first]["trumps"] = data["unit_types"][first]["id"]
        return None, ("unit_types", first, "trumps"), False

    yield Mutation("trump-cycle-broken", units[first]["id"], SMC, file, "T011", edit)


def culture_victory_moved() -> Iterator[Mutation]:
    """The culture track's last space is no longer the culture victory (T014 at its kind)."""
    (file,) = [f for f in files_of(SMC_COMMUNITY, "culture") if "community" in f]
    spaces = data_of(file)["spaces"]
    last = max(range(len(spaces)), key=lambda i: spaces[i]["position"])
    other = next(s["kind"] for s in spaces if s["kind"] != "culture_victory")

    def edit(data: Any) -> tuple[str | None, NodePath, bool]:
        data["spaces"][last]["kind"] = other
        return None, ("spaces", last, "kind"), False

    yield Mutation("culture-victory-moved", spaces[last]["id"], SMC_COMMUNITY, file, "T014", edit)


def building_left_locked() -> Iterator[Mutation]:
    """A transcribed technology stops unlocking a building no other technology unlocks (T007).
    The base unlocks every building: the variant's change is the cause, so T007 is at the variant,
    at its patch of the building (else at its `overlay:`), the base's building a note."""
    (file,) = [f for f in files_of(SMC_COMMUNITY, "technologies") if "community" in f]
    (buildings_file,) = files_of(SMC, "buildings")
    buildings = [b["id"] for b in data_of(buildings_file)["buildings"]]
    manifest = f"rulesets/{SMC_COMMUNITY}.yaml"
    patches = data_of(manifest)["overlay"].get("buildings", {}).get("patch", [])
    patched = {patch["id"]: k for k, patch in enumerate(patches)}
    workspace = CachedWorkspace({})
    model = analyse(workspace, workspace.load_ruleset(workspace.manifests()[SMC_COMMUNITY])).model
    unlockers: dict[str, list[str]] = {}
    for tech in getattr(model, "technologies", ()):
        for building in getattr(tech.unlocks, "buildings", ()):
            unlockers.setdefault(building, []).append(tech.id)
    for i, tech in enumerate(data_of(file)["technologies"]):
        unlocks = tech.get("unlocks")
        for building in unlocks.get("buildings") or () if isinstance(unlocks, dict) else ():
            if unlockers.get(building) != [tech["id"]] or building not in buildings:
                continue

            def edit(data: Any, i: int = i, building: str = building) -> tuple[str | None, NodePath, bool]:
                data["technologies"][i]["unlocks"]["buildings"].remove(building)
                if building in patched:
                    return manifest, ("overlay", "buildings", "patch", patched[building]), False
                return manifest, ("overlay",), True

            yield Mutation("building-left-locked", building, SMC_COMMUNITY, file, "T007", edit)


KINDS: dict[str, Callable[[], Iterator[Mutation]]] = {
    "border-side-removed": border_side_removed,
    "area-cut-off": area_cut_off,
    "area-duplicated": area_duplicated,
    "coastal-flipped": coastal_flipped,
    "prerequisite-renamed": prerequisite_renamed,
    "prerequisite-reversed": prerequisite_reversed,
    "credit-target-changed": credit_to_itself,
    "card-duplicated": card_duplicated,
    "modifier-card-removed": modifier_card_removed,
    "effect-renamed": effect_renamed,
    "stack-changed": stack_changed,
    "count-total-broken": count_total_broken,
    "epochs-swapped": epochs_swapped,
    "ast-position-taken": ast_position_taken,
    "citation-mistyped": citation_mistyped,
    "overlay-target-renamed": overlay_target_renamed,
    "start-area-renamed": start_area_renamed,
    "flood-plain-member-dropped": flood_plain_member_dropped,
    "flood-plain-flag-dropped": flood_plain_flag_dropped,
    "modifier-removed": modifier_removed,
    "set-example-broken": set_example_broken,
    "commodity-stack-changed": commodity_stack_changed,
    "research-cost-flattened": research_cost_flattened,
    "unit-rank-cheapened": unit_rank_cheapened,
    "upgrade-cheapened": upgrade_cheapened,
    "limited-building-on-water": limited_building_on_water,
    "wonder-discount-lost": wonder_discount_lost,
    "tile-row-shortened": tile_row_shortened,
    "culture-cost-lowered": culture_cost_lowered,
    "pyramid-total-off": pyramid_total_off,
    "research-above-dial": research_above_dial,
    "victory-coins-changed": victory_coins_changed,
    "second-top-technology": second_top_technology,
    "pyramid-minimum-raised": pyramid_minimum_raised,
    "unlocked-rank-missing": unlocked_rank_missing,
    "trump-cycle-broken": trump_cycle_broken,
    "culture-victory-moved": culture_victory_moved,
    "building-left-locked": building_left_locked,
}


def mutations(sample: int | None = None) -> list[Mutation]:
    """Every mutation of every kind (or up to ``sample`` per kind, spread over the instances)."""
    return [m for generate in KINDS.values() for m in spread(list(generate()), sample)]


def run(mutation: Mutation) -> Outcome:
    data = copy.deepcopy(data_of(mutation.file))
    where, path, key = mutation.edit(data)
    workspace = CachedWorkspace({mutation.file: dump(data)})
    loaded = workspace.load_ruleset(workspace.manifests()[mutation.ruleset])
    diagnostics = analyse(workspace, loaded).diagnostics
    document = workspace.load(where or mutation.file).document
    assert document is not None, workspace.load(mutation.file).diagnostics
    span = document.key_span(path) if key else document.span(path)
    expected = (mutation.code, where or mutation.file, span.line)
    found = tuple(
        (d.code, relative_to_rules(d.span.file), d.span.line)
        for d in diagnostics
        if d.span is not None and d.severity in ("error", "warning")
    )
    return Outcome(mutation, expected in found, expected, found)


def table(outcomes: list[Outcome]) -> str:
    """The catch rate per kind, as a Markdown table."""
    kinds: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        kinds.setdefault(outcome.mutation.kind, []).append(outcome)
    rows = ["| mutation kind | check | mutations | caught | rate |", "| --- | --- | ---: | ---: | ---: |"]
    for kind, found in kinds.items():
        caught = sum(o.caught for o in found)
        rows.append(
            f"| {kind} | {found[0].mutation.code} | {len(found)} | {caught} | {100 * caught / len(found):.0f}% |"
        )
    caught = sum(o.caught for o in outcomes)
    rows.append(f"| **all** | | {len(outcomes)} | {caught} | {100 * caught / max(len(outcomes), 1):.0f}% |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sample", type=int, default=None, help="Up to N instances per kind (default: all).")
    parser.add_argument("--kind", action="append", help="Only these kinds.")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    chosen = [m for m in mutations(args.sample) if not args.kind or m.kind in args.kind]
    outcomes = [run(m) for m in chosen]
    print(table(outcomes))
    for outcome in outcomes:
        if not outcome.caught:
            print(f"missed: {outcome.mutation.kind} {outcome.mutation.instance}: expected {outcome.expected}")
            print(f"   found: {sorted(set(outcome.found))[:12]}")
    print(f"{len(outcomes)} mutations in {time.perf_counter() - started:.1f} s")
    return 0 if all(o.caught for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
