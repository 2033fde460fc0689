"""Building the typed :class:`~civrules.families.advanced_civilization.model.Ruleset` from validated documents.

Only documents that passed schema validation reach this module, so shapes are trusted here; what
may still be wrong (dangling references, duplicate ids, inconsistent facts) is for the checks.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from civrules.diagnostics import words
from civrules.families.advanced_civilization.model import (
    CALAMITY_KINDS,
    FAMILY_ID,
    Area,
    AstSetting,
    AstTrack,
    Attribute,
    Beneficiary,
    BlockBonusBand,
    Border,
    Calamity,
    CalamityAlternative,
    CalamityEffect,
    CalamityFallback,
    CalamityLink,
    Card,
    CardChange,
    Coast,
    Combination,
    Commodity,
    Components,
    Configuration,
    CopiesBand,
    CreditLine,
    DeckComposition,
    DeckGood,
    DeckSpec,
    Effect,
    Epoch,
    ExcludedBorder,
    FloodPlainEntry,
    ForceAdvancement,
    ForceCard,
    GameOption,
    GeneralRule,
    Group,
    HandLimit,
    HandLimitBand,
    Immunity,
    LevelRequirements,
    MapFile,
    MiningSetting,
    Modifier,
    Nation,
    NoEffect,
    NonPlayerForce,
    OptionChoice,
    Override,
    Phase,
    PlayerCount,
    Purchase,
    PurchaseEffect,
    RateChange,
    Region,
    Ruleset,
    ScoringItem,
    SetupStep,
    SetValueExample,
    SetValueSetting,
    SpecialRule,
    SubActivity,
    Taxation,
    TotalCards,
    TradeDeckSetup,
    TradeStack,
    TradeStacks,
    Victory,
)
from civrules.load.document import Document
from civrules.model import (
    Collection,
    Origin,
    Unknown,
    best_players,
    description_of,
    known,
    player_range,
    rule_index_of,
    rules_of,
    setting_of,
    source_of,
)
from civrules.model.assembly import assembles, each, made_of
from civrules.resolve import Resolved


def entries(documents: Sequence[Document], key: str, *prefix: str) -> Iterator[tuple[Origin, dict[str, Any]]]:
    """Every mapping in the list at ``prefix + key`` of each document, with its origin."""
    for document in documents:
        node: Any = document.data
        for part in prefix:
            node = node.get(part) if isinstance(node, dict) else None
        items = node.get(key) if isinstance(node, dict) else None
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield Origin(document, (*prefix, key, index)), item


def collection(resolved: Resolved, name: str) -> Iterator[tuple[Origin, dict[str, Any]]]:
    """The entities of a resolved collection (overlays applied), with their origins."""
    for entry in resolved.collections.get(name, ()):
        yield entry.origin, entry.raw


def _ids(value: Any, field: str = "card") -> tuple[str, ...] | Unknown:
    value = known(value)
    if isinstance(value, Unknown):
        return value
    out = []
    for item in value or ():
        out.append(item[field] if isinstance(item, dict) else item)
    return tuple(out)


def _int(value: Any) -> int | None:
    """An integer as written (a boolean is none), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _limit(phase: Mapping[str, Any], part: str) -> Any:
    """A part of a phase's `max_primary_calamities`: a number is its `total` and has no other part
    (Advanced Civilization 29.5); a limit with parts gives each (Mega Civilization §8)."""
    written = phase.get("max_primary_calamities")
    if isinstance(written, Mapping):
        return written.get(part)
    return written if part == "total" else None


def _unknown(value: Any) -> Unknown | None:
    """``value`` where it is written `{unknown: why}`, else None."""
    written = known(value)
    return written if isinstance(written, Unknown) else None


def _limit_parts(phase: Mapping[str, Any]) -> Mapping[str, Any]:
    """A phase's limit with parts (its citation too), or nothing where the limit is a number."""
    written = phase.get("max_primary_calamities")
    return written if isinstance(written, Mapping) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _unit_points(value: Any) -> tuple[int, int] | None:
    """`unit_points: {city, token}` as (city, token), else None."""
    if not isinstance(value, Mapping):
        return None
    city, token = _int(value.get("city")), _int(value.get("token"))
    return None if city is None or token is None else (city, token)


def _mapping(value: Any) -> Mapping[str, Any]:
    """A mapping as written, or an empty one where something else (or nothing) is."""
    return value if isinstance(value, dict) else {}


def _cited(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """The rule sections an entry cites, then its public source (folded lines joined)."""
    source = source_of(raw)
    return rules_of(raw) + ((" ".join(source.split()),) if source is not None else ())


def _name(raw: Mapping[str, Any], fallback: str) -> str | Unknown:
    name = known(raw.get("name", fallback))
    return name if isinstance(name, (str, Unknown)) else fallback


@assembles("groups", "civilization_cards")
def build_cards(resolved: Resolved) -> tuple[Collection[Group], Collection[Card]]:
    groups = [
        Group(raw["id"], _name(raw, raw["id"]), origin, raw, known(raw.get("colour")), known(raw.get("shape")))
        for origin, raw in collection(resolved, "groups")
    ]
    cards = each(_card, collection(resolved, "civilization_cards"))
    return Collection.of("groups", groups), Collection.of("civilization_cards", cards)


def _card(origin: Origin, raw: dict[str, Any]) -> Card:
    credits_raw = known(raw.get("credits", []))
    credits: tuple[CreditLine, ...] | Unknown
    if isinstance(credits_raw, Unknown):
        credits = credits_raw
    else:
        credits = tuple(
            CreditLine(
                known(c["points"]),
                i,
                c.get("group"),
                c.get("card"),
                bool(c.get("extra", False)),
                c["target_name"]["text"] if "target_name" in c else None,
            )
            for i, c in enumerate(credits_raw)
        )
    links: list[CalamityLink] = []
    attributes_raw = known(raw.get("attributes", []))
    attributes: tuple[Attribute, ...] | Unknown = () if not isinstance(attributes_raw, Unknown) else attributes_raw
    if not isinstance(attributes_raw, Unknown):
        built = []
        for a, attribute in enumerate(attributes_raw):
            own = [
                CalamityLink(link["calamity"], link["effect"], ("attributes", a, "calamities", c))
                for c, link in enumerate(attribute.get("calamities", ()))
            ]
            links.extend(own)
            effects = tuple(
                Effect(
                    effect["kind"],
                    {k: v for k, v in effect.items() if k not in ("kind", "note")},
                    ("attributes", a, "effects", e),
                )
                for e, effect in enumerate(attribute.get("effects", ()))
            )
            built.append(
                Attribute(str(attribute["text"]), rules_of(attribute), effects, tuple(own), a, source_of(attribute))
            )
        attributes = tuple(built)
    groups_raw = known(raw.get("groups", ()))
    return Card(
        raw["id"],
        _name(raw, raw["id"]),
        origin,
        raw,
        groups_raw if isinstance(groups_raw, Unknown) else tuple(groups_raw),
        known(raw.get("cost")),
        _ids(raw.get("prerequisites", [])),
        credits,
        tuple(links),
        known(raw.get("victory_points")),
        attributes,
        "attributes" in raw,
        tuple(_purchase_effect(e) for e in raw.get("purchase_effects") or () if isinstance(e, dict)),
    )


def _purchase_effect(raw: Mapping[str, Any]) -> PurchaseEffect:
    kind = raw.get("kind")
    groups = raw.get("groups")
    return PurchaseEffect(
        _str(kind),
        str(raw.get("text", "")),
        _cited(raw),
        _int(raw.get("points")),
        _int(raw.get("max_cards")),
        _int(raw.get("max_face_value_below")),
        _str(raw.get("colours")),
        raw.get("usable_from") == "next_turn",
        tuple(groups) if isinstance(groups, list) else None,
    )


@assembles("commodities")
def build_commodities(resolved: Resolved) -> Collection[Commodity]:
    return Collection.of("commodities", each(_commodity, collection(resolved, "commodities")))


def _commodity(origin: Origin, raw: dict[str, Any]) -> Commodity:
    return Commodity(
        raw["id"],
        _name(raw, raw["id"]),
        origin,
        raw,
        known(raw.get("value")),
        known(raw.get("count")),
        raw.get("stack"),
        bool(raw.get("mining", False)),
        known(raw.get("block")),
        _block_counts(raw.get("block_counts")),
        tuple(str(field) for field in raw.get("inferred", ())),
        raw.get("name_language"),
    )


@assembles("calamities")
def build_calamities(resolved: Resolved) -> Collection[Calamity]:
    return Collection.of("calamities", each(_calamity, collection(resolved, "calamities")))


def _calamity(origin: Origin, raw: dict[str, Any]) -> Calamity:
    modifiers = tuple(_modifier(i, m) for i, m in enumerate(raw.get("modifiers", ())))
    effect_ids = tuple(
        e["id"]
        for side in ("primary", "secondary")
        for e in raw.get(side, ()) or ()
        if isinstance(e, dict) and "id" in e
    )
    combination = raw.get("modifier_combination")
    mode = combination.get("mode") if isinstance(combination, dict) else combination
    effects = tuple(
        _calamity_effect(side, i, e)
        for side in ("primary", "secondary")
        for i, e in enumerate(raw.get(side) or ())
        if isinstance(e, dict)
    )
    immune = tuple(
        Immunity(
            i,
            e.get("who"),
            e.get("card"),
            e.get("from", "both"),
            tuple(e.get("effects") or ()),
            _str(e.get("nation")),
            _str(e.get("text")),
            rules_of(e),
            source_of(e),
        )
        for i, e in enumerate(raw.get("immune") or ())
        if isinstance(e, dict)
    )
    beneficiary = raw.get("beneficiary")
    return Calamity(
        raw["id"],
        _name(raw, raw["id"]),
        origin,
        raw,
        raw["stack"],
        known(raw.get("tradable")),
        raw.get("severity"),
        modifiers,
        mode if isinstance(mode, str) else None,
        effect_ids,
        effects,
        immune,
        _combination(combination) if "modifier_combination" in raw else None,
        _int(raw.get("copies", 1)) or 1,  # absent means one card (the schema says so; Advanced Civilization 9.1)
        _beneficiary(beneficiary) if isinstance(beneficiary, dict) else None,
        tuple(
            NoEffect(_str(entry.get("condition")), _str(entry.get("text")), rules_of(entry), source_of(entry))
            for entry in raw.get("no_effect_when") or ()
            if isinstance(entry, dict)
        ),
        frozenset(
            part
            for part in ("effects", "primary", "secondary", "modifiers", "immune")
            if isinstance(known(raw.get(part)), Unknown)
        ),
        tuple(
            CopiesBand(
                _int(players.get("min")),
                _int(players.get("max")),
                _int(band.get("copies")),
                rules_of(band),
                source_of(band),
            )
            for band in raw.get("copies_by_players") or ()
            if isinstance(band, dict)
            for players in (_mapping(band.get("players")),)
        ),
        unknown_reasons=tuple(
            (part, lost.reason)
            for part in ("effects", "primary", "secondary", "modifiers", "immune")
            if isinstance(lost := known(raw.get(part)), Unknown) and lost.reason
        ),
    )


def _modifier(index: int, m: Mapping[str, Any]) -> Modifier:
    per, becomes, adds = _mapping(m.get("per")), _mapping(m.get("becomes")), _mapping(m.get("adds"))
    return Modifier(
        m["card"],
        m.get("applies_to", "primary"),
        m["effect"],
        known(m.get("amount")),
        tuple(m.get("modifies", ())),
        index,
        known(m.get("set_to")),
        "per" in m,
        "adds" in m,
        _str(per.get("kind")),
        _str(per.get("commodity")),
        _str(becomes.get("kind")),
        known(becomes.get("amount")),
        _str(becomes.get("unit")),
        _str(adds.get("kind")),
        _str(adds.get("unit")),
        _int(m.get("cap")),
        m.get("optional") is True,
        _str(m.get("text")),
        rules_of(m),
        source_of(m),
    )


def _calamity_effect(side: str, index: int, e: Mapping[str, Any]) -> CalamityEffect:
    amount = _mapping(e.get("amount"))
    site = _mapping(e.get("site"))
    alternative = e.get("alternative")
    fallback = e.get("fallback")
    return CalamityEffect(
        side,
        index,
        e.get("id"),
        e.get("amount"),
        e.get("condition"),
        e.get("chosen_by"),
        e.get("allocated_by"),
        e.get("replaced_by"),
        _str(e.get("kind")),
        _str(e.get("unit")),
        _int(amount.get("all_but")),
        _int(amount.get("per_city_owned")),
        _int(e.get("max_per_victim")),
        _int(e.get("victim_count")),
        _str(e.get("where")),
        tuple(c for c in e.get("constraints") or () if isinstance(c, str)),
        _str(e.get("text")),
        rules_of(e),
        source_of(e),
        CalamityAlternative(
            alternative["kind"],
            alternative["amount"],
            alternative["unit"],
            alternative.get("per_unit") is True,
            alternative.get("required_in_full") is True,
            _str(alternative.get("text")),
            rules_of(alternative),
            source_of(alternative),
        )
        if isinstance(alternative, dict)
        else None,
        CalamityFallback(fallback["kind"], _str(fallback.get("text")), rules_of(fallback), source_of(fallback))
        if isinstance(fallback, dict)
        else None,
        _str(e.get("chosen_by_if_not_traded")),
        _str(site.get("selection")),
        _str(site.get("tie_broken_by")),
    )


def _beneficiary(raw: Mapping[str, Any]) -> Beneficiary:
    return Beneficiary(
        _str(raw.get("selection")),
        _str(raw.get("overflow")),
        _int(raw.get("city_unit_points")),
        _int(raw.get("token_unit_points")),
        _str(raw.get("eligibility")),
        _str(raw.get("text")),
        rules_of(raw),
        source_of(raw),
    )


def _combination(written: Any) -> Combination:
    if not isinstance(written, dict):
        return Combination(written if isinstance(written, str) else None, False)
    overrides = tuple(
        Override(o, entry["card"], tuple(entry.get("overrides") or ()))
        for o, entry in enumerate(written.get("overrides") or ())
    )
    mode = known(written.get("mode"))
    return Combination(
        mode if isinstance(mode, str) else None,
        True,
        tuple(written.get("precedence") or ()),
        overrides,
        mode if isinstance(mode, Unknown) else None,
        _str(written.get("text")),
        rules_of(written),
        source_of(written),
    )


@assembles("nations", "epochs", "ast_tracks", "phases", "player_counts")
def build_structure(
    resolved: Resolved,
) -> tuple[Collection[Nation], Collection[Epoch], Collection[AstTrack], Collection[Phase], Collection[PlayerCount]]:
    nations = []
    for origin, raw in collection(resolved, "nations"):
        start = raw.get("start_areas")
        areas = known(start.get("areas")) if isinstance(start, dict) else None
        position = raw.get("ast_position")
        nations.append(
            Nation(
                raw["id"],
                _name(raw, raw["id"]),
                origin,
                raw,
                tuple(areas) if isinstance(areas, list) else areas,
                known(position.get("position")) if isinstance(position, dict) else None,
                _str(raw.get("region")),
                _str(colour.get("name")) if isinstance(colour := raw.get("colour"), dict) else None,
            )
        )
    epochs = [
        Epoch(
            raw["id"],
            _name(raw, raw["id"]),
            origin,
            raw,
            raw.get("requirements") or {},
            raw["order"] if isinstance(raw.get("order"), int) else None,
            tuple(
                LevelRequirements(
                    i,
                    str(entry["level"]) if entry.get("level") is not None else None,
                    entry["requirements"] if isinstance(entry.get("requirements"), dict) else None,
                )
                for i, entry in enumerate(raw.get("requirements_by_level") or ())
                if isinstance(entry, dict)
            ),
        )
        for origin, raw in collection(resolved, "epochs")
    ]
    tracks = []
    for origin, raw in collection(resolved, "ast_tracks"):
        starts = known(raw.get("epoch_starts"))
        spaces = known(raw.get("late_iron_age_spaces"))
        tracks.append(
            AstTrack(
                raw["nation"],
                raw["nation"],
                origin,
                raw,
                raw.get("spaces"),
                starts if isinstance(starts, Unknown) else tuple((s["epoch"], s["space"]) for s in starts or ()),
                spaces
                if isinstance(spaces, Unknown)
                else tuple((s["space"], known(s["min_card_value"])) for s in spaces or ()),
                raw.get("level"),
                raw.get("points_per_space"),
                str(raw.get("caveat", "")),
                raw.get("checked_against_second_source"),
            )
        )
    phases = [
        Phase(
            raw["id"],
            _name(raw, raw["id"]),
            origin,
            raw,
            raw.get("number"),
            raw.get("condition"),
            known(raw.get("order")),
            _str(raw.get("condition_text")),
            _str(raw.get("order_text")),
            _int(raw.get("min_trade_cards")),
            tuple(
                SubActivity(
                    _str(sub.get("id")), _str(sub.get("name")), rules_of(sub), _str(sub.get("card")), source_of(sub)
                )
                for sub in raw.get("sub_activities") or ()
                if isinstance(sub, dict)
            ),
            named_trade_cards=_int(raw.get("named_trade_cards")),
            max_primary_calamities=_int(_limit(raw, "total")),
            max_major_calamities=_int(_limit(raw, "major")),
            max_minor_calamities=_int(_limit(raw, "minor")),
            max_of_one_calamity=_int(_limit(raw, "of_one_calamity")),
            calamity_limit_rules=rules_of(_limit_parts(raw)),
            calamity_limit_source=source_of(_limit_parts(raw)),
            unit_points=_unit_points(raw.get("unit_points")),
            ship_moves=_int(raw.get("ship_moves")),
            military_last=_str(last.get("card")) if isinstance(last := raw.get("military_last"), dict) else None,
        )
        for origin, raw in collection(resolved, "phases")
    ]
    counts = []
    for origin, raw in collection(resolved, "player_counts"):
        configurations = raw.get("configurations") or []
        nation_sets = tuple(
            tuple(c["nations"]) for c in configurations if isinstance(c, dict) and isinstance(c.get("nations"), list)
        )
        counts.append(
            PlayerCount(
                str(raw["players"]),
                words.count(players, "player") if isinstance(players := raw["players"], int) else f"{players} players",
                origin,
                raw,
                raw["players"],
                raw.get("status", "given") == "given",
                nation_sets,
                tuple(_configuration(c, entry) for c, entry in enumerate(configurations) if isinstance(entry, dict)),
                known(raw.get("tokens_per_player")),
                build_rule_texts(raw.get("special_rules")),
                configurations_unknown=_unknown(raw.get("configurations")),
            )
        )
    return (
        Collection.of("nations", nations),
        Collection.of("epochs", epochs),
        Collection.of("ast_tracks", tracks),
        Collection.of("phases", phases),
        Collection.of("player_counts", counts),
    )


@assembles("options")
def build_options(resolved: Resolved) -> Collection[GameOption]:
    options = []
    for origin, raw in collection(resolved, "options"):
        values = known(raw.get("values"))
        choices: tuple[OptionChoice, ...] | Unknown = (
            values
            if isinstance(values, Unknown)
            else tuple(
                OptionChoice(str(value["id"]), _str(value.get("name")), _str(value.get("description")))
                for value in values or ()
                if isinstance(value, dict) and "id" in value
            )
        )
        label = known(raw.get("site_label"))
        options.append(
            GameOption(
                raw["id"],
                _name(raw, raw["id"]),
                origin,
                raw,
                label if isinstance(label, (str, Unknown)) else None,
                _str(raw.get("help_page")),
                _str(raw.get("help_section")),
                _str(raw.get("type")),
                choices,
                _int(raw.get("minimum")),
                _int(raw.get("maximum")),
                known(raw.get("default")),
                known(raw.get("rulebook_value")),
                _bool(raw.get("online_only")),
                _str(raw.get("description")),
            )
        )
    return Collection.of("options", options)


def _configuration(index: int, raw: Mapping[str, Any]) -> Configuration:
    board = raw.get("map")
    nations = raw.get("nations")
    in_play = known(board.get("areas_in_play")) if isinstance(board, dict) else None
    return Configuration(
        index,
        raw.get("id"),
        tuple(nations) if isinstance(nations, list) else None,
        isinstance(board, dict),
        tuple(a for a in in_play if isinstance(a, str)) if isinstance(in_play, list) else in_play,
        board.get("boundary") if isinstance(board, dict) else None,
        _str(raw.get("name")),
        _str(board.get("panels")) if isinstance(board, dict) else None,
        _str(board.get("western_extension")) if isinstance(board, dict) else None,
        _bool(board.get("open_sea_on_boundary_usable")) if isinstance(board, dict) else None,
        _str(board.get("text")) if isinstance(board, dict) else None,
        _int(raw.get("island_city_cost_tokens")),
        _bool(raw.get("island_city_sites_ignored")),
        tuple(
            TradeDeckSetup(_str(d.get("id")), _str(d.get("name")), _str(d.get("text")), rules_of(d), source_of(d))
            for d in raw.get("trade_decks") or ()
            if isinstance(d, dict)
        ),
    )


def _bool(raw: object) -> bool | None:
    return raw if isinstance(raw, bool) else None


def _block_counts(raw: object) -> tuple[tuple[str, int], ...] | None:
    """`block_counts` as (block, cards) pairs in the order written; None where not written."""
    if not isinstance(raw, dict):
        return None
    return tuple((str(k), v) for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool))


def build_map(
    resolved: Resolved,
) -> tuple[Collection[Area], Collection[Border], Collection[Region], Collection[Region]]:
    """The map's areas, borders, flood plains and volcanoes, each assembled from its own collection
    (an edit to one area assembles the areas again, not the borders)."""
    return (build_areas(resolved), build_borders(resolved), *build_regions(resolved))


@assembles("areas")
def build_areas(resolved: Resolved) -> Collection[Area]:
    return Collection.of("areas", each(_area, collection(resolved, "areas")))


def _area(origin: Origin, raw: dict[str, Any]) -> Area:
    return Area(
        raw["id"],
        _name(raw, raw["id"]),
        origin,
        raw,
        bool(raw.get("land", False)),
        bool(raw.get("water", False)),
        bool(raw.get("open_sea", False)),
        raw.get("coastal"),
        known(raw.get("population_limit")),
        raw.get("city_site"),
        raw.get("flood_plain"),
        raw.get("panel"),
        raw.get("start_nation"),
        _coasts(raw.get("coasts")),
    )


@assembles("borders")
def build_borders(resolved: Resolved) -> Collection[Border]:
    return Collection.of("borders", each(_border, collection(resolved, "borders")), unique_ids=False)


def _border(origin: Origin, raw: dict[str, Any]) -> Border:
    a, b = raw["areas"]
    kind = known(raw.get("kind"))
    return Border(f"{a}|{b}", f"{a} – {b}", origin, raw, a, b, kind if isinstance(kind, str) else "unknown")


@assembles("flood_plains", "volcanoes")
def build_regions(resolved: Resolved) -> tuple[Collection[Region], Collection[Region]]:
    plains: dict[str, Region] = {}
    order: list[str] = []
    for origin, raw in collection(resolved, "flood_plains"):
        previous = plains.get(raw["id"])
        if previous is not None and raw.get("continues_from"):
            plains[raw["id"]] = Region(
                previous.id,
                previous.name,
                previous.origin,
                previous.raw,
                previous.areas + tuple(raw.get("areas", ())),
                previous.listed,
            )
            continue
        if previous is None:
            order.append(raw["id"])
        listed = tuple(raw.get("areas") or ())
        plains.setdefault(raw["id"], Region(raw["id"], _name(raw, raw["id"]), origin, raw, listed, listed))
    volcanoes = [
        Region(raw["id"], _name(raw, raw["id"]), origin, raw, tuple(raw.get("areas", ())), tuple(raw.get("areas", ())))
        for origin, raw in collection(resolved, "volcanoes")
    ]
    return Collection.of("flood_plains", [plains[i] for i in order]), Collection.of("volcanoes", volcanoes)


def _coasts(written: Any) -> tuple[Coast, ...] | None:
    if not isinstance(written, list):
        return None
    return tuple(
        Coast(
            c, tuple(coast["touches"]) if isinstance(coast, dict) and isinstance(coast.get("touches"), list) else None
        )
        for c, coast in enumerate(written)
    )


def _panels(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(p for p in value if isinstance(p, str)) if isinstance(value, list) else ()


def build_map_files(documents: Sequence[Document]) -> tuple[MapFile, ...]:
    """The map files among ``documents`` (in their order), as written."""
    found = []
    for document in documents:
        data = document.data
        if not isinstance(data, dict) or data.get("kind") != "map":
            continue
        listed = known(data.get("two_coast_areas"))
        found.append(
            MapFile(
                data.get("id"),
                _panels(data.get("panel")),
                tuple(listed) if isinstance(listed, list) else listed,
                tuple(
                    FloodPlainEntry(raw["id"], tuple(raw.get("areas") or ()), raw.get("continues_from"), origin)
                    for origin, raw in entries((document,), "flood_plains")
                ),
                tuple(
                    ExcludedBorder(tuple(raw["areas"]) if isinstance(raw.get("areas"), list) else (), origin)
                    for origin, raw in entries((document,), "excluded_borders")
                ),
                Origin(document, ()),
            )
        )
    return tuple(found)


def _map_files(*documents: Document) -> tuple[MapFile, ...]:
    """:func:`build_map_files` of the map documents, made through the assembly's memo
    (:func:`~civrules.model.assembly.made_of`): a variant reading its base's maps holds the base's
    very tuple, so the checks made of it (M011, M020 ...) are run once for both."""
    return build_map_files(documents)


def build_trade_stacks(value: Any, origin: Origin) -> TradeStacks:
    written = value if isinstance(value, dict) else {}
    stacks = []
    for i, raw in enumerate(written.get("stacks") or ()):
        if not isinstance(raw, dict) or not isinstance(raw.get("number"), int):
            continue
        declared = raw.get("calamity_cards")
        cards = {kind: declared.get(kind, 0) for kind in CALAMITY_KINDS} if isinstance(declared, dict) else None
        purchases = tuple(
            Purchase(
                known(purchase.get("price")),
                _str(purchase.get("requires_card")),
                rules_of(purchase),
                source_of(purchase),
            )
            for purchase in raw.get("purchases") or ()
            if isinstance(purchase, dict)
        )
        stacks.append(
            TradeStack(raw["number"], bool(raw.get("calamities", False)), cards, origin.child("stacks", i), purchases)
        )
    setup = written.get("setup")
    steps = []
    for i, step in enumerate((setup.get("steps") if isinstance(setup, dict) else None) or ()):
        if not isinstance(step, dict):
            continue
        span = step.get("stacks")
        low, high = (span.get("from"), span.get("to")) if isinstance(span, dict) else (None, None)
        numbers = (low, high) if isinstance(low, int) and isinstance(high, int) else None
        steps.append(
            SetupStep(i, step.get("step"), numbers, step.get("count_per_stack"), _str(step.get("text")), rules_of(step))
        )
    return TradeStacks(
        origin, written.get("count"), written.get("numbered_by_value") is True, tuple(stacks), tuple(steps)
    )


def build_set_value(value: Any, origin: Origin) -> SetValueSetting:
    written = value if isinstance(value, dict) else {}
    examples = tuple(
        SetValueExample(i, example.get("commodity", ""), example.get("cards"), example.get("set_value"))
        for i, example in enumerate(written.get("examples") or ())
    )
    return SetValueSetting(
        origin,
        isinstance(value, dict),
        isinstance(known(value), Unknown),
        "formula" in written,
        written.get("formula"),
        written.get("max_set_size"),
        examples,
        rules_of(written),
        unknown.reason if isinstance(unknown := known(value), Unknown) else None,
    )


def build_mining(value: Any, origin: Origin) -> MiningSetting:
    bonus = value.get("set_bonus") if isinstance(value, dict) else None
    extra = bonus.get("extra_cards", 0) if isinstance(bonus, dict) else 0
    card = str(value.get("card", "mining")) if isinstance(value, dict) else None
    return MiningSetting(origin, isinstance(bonus, dict), extra if isinstance(extra, int) else 0, card)


def build_ast(value: Any, origin: Origin) -> AstSetting:
    written = value if isinstance(value, dict) else {}
    levels = tuple(level["id"] for level in written.get("levels") or () if isinstance(level, dict) and "id" in level)
    return AstSetting(
        origin,
        frozenset(written),
        written.get("spaces_per_track"),
        written.get("start_space"),
        written.get("finish_space"),
        written.get("points_per_space"),
        known(written.get("finish_space_min_card_value")),
        levels,
        tracks.reason if isinstance(tracks := known(written.get("tracks")), Unknown) else None,
        tuple(
            (str(level["id"]), str(level["name"]))
            for level in written.get("levels") or ()
            if isinstance(level, dict) and "id" in level and isinstance(level.get("name"), str)
        ),
        tuple(
            (str(entry["text"]), entry.get("rule"), source_of(entry), key)
            for key, entry in (("text", written), *((k, written.get(k)) for k in _AST_RULES))
            if isinstance(entry, dict) and isinstance(entry.get("text"), str) and entry.get("text")
        ),
    )


#: The A.S.T.'s rules in words, after its own text, in the order the sheet gives them.
_AST_RULES = ("epoch_entry", "frozen", "regression", "order")


def build_hand_limit(value: Any, origin: Origin) -> HandLimit | None:
    if not isinstance(value, dict):
        return None
    retained = value.get("tradable_calamities_retained")
    return HandLimit(
        origin,
        known(value.get("commodity_cards")),
        tuple(
            CardChange(_str(change.get("card")), _int(change.get("change")))
            for change in value.get("card_changes") or ()
            if isinstance(change, dict)
        ),
        value.get("card_changes_cumulative") is True,
        bool(value.get("count_public")),
        retained if isinstance(retained, bool) else None,
        rules_of(value),
        source_of(value),
        tuple(
            HandLimitBand(
                _int(players.get("min")),
                _int(players.get("max")),
                _int(band.get("commodity_cards")),
                rules_of(band),
                source_of(band),
            )
            for band in value.get("by_players") or ()
            if isinstance(band, dict)
            for players in (_mapping(band.get("players")),)
        ),
        text=_str(value.get("text")),
    )


def build_taxation(value: Any, origin: Origin) -> Taxation | None:
    if not isinstance(value, dict):
        return None
    card = _mapping(value.get("rate_card"))
    rates = card.get("rates")
    revolt = value.get("revolt")
    written_revolt = _mapping(revolt)
    combination = _mapping(value.get("rate_changes_combination"))
    beneficiary = known(written_revolt.get("beneficiary"))
    return Taxation(
        origin,
        known(value.get("tokens_per_city")),
        tuple(
            RateChange(_str(change.get("card")), _int(change.get("raise_by")), _int(change.get("lower_by")))
            for change in value.get("rate_changes") or ()
            if isinstance(change, dict)
        ),
        _str(card.get("card")),
        tuple(rates) if isinstance(rates, list) else None,
        _mapping(value.get("rate_changes_combination")).get("cumulative") is True,
        isinstance(revolt, dict),
        _str(written_revolt.get("immune_card")),
        rules_of(value),
        source_of(value),
        revolt_text=_str(written_revolt.get("text")),
        revolt_beneficiary=beneficiary if isinstance(beneficiary, str | Unknown) else None,
        revolt_rules=rules_of(written_revolt),
        revolt_source=source_of(written_revolt),
        combination_text=_str(combination.get("text")),
        combination_rules=rules_of(combination),
        combination_source=source_of(combination),
    )


#: The pieces of a nation's set, in the order a sheet lists them (`components.<kind>_per_set`).
PIECES = ("tokens", "cities", "ships", "census_markers", "succession_markers")


def build_components(value: Any, origin: Origin) -> Components:
    written = _mapping(value)
    return Components(
        origin,
        written.get("cities_per_set"),
        tuple(
            (kind, known(written[f"{kind}_per_set"])) for kind in PIECES if written.get(f"{kind}_per_set") is not None
        ),
        known(written.get("nation_sets")),
    )


def build_victory(value: Any, origin: Origin) -> Victory | None:
    if not isinstance(value, dict):
        return None
    complete, highest = value.get("complete_final_turn"), value.get("highest_wins")
    return Victory(
        origin,
        build_rule_texts(value.get("end_conditions")),
        complete if isinstance(complete, bool) else None,
        highest if isinstance(highest, bool) else None,
        _str(value.get("tie")),
    )


def build_scoring(value: Any) -> tuple[ScoringItem, ...] | None:
    items = _mapping(value).get("scoring")
    if not isinstance(items, list):
        return None
    return tuple(
        ScoringItem(
            str(item.get("id")),
            _str(item.get("name")),
            _str(item.get("per")),
            _int(item.get("points")),
            _str(item.get("text")),
            rules_of(item),
            source_of(item),
        )
        for item in items
        if isinstance(item, dict)
    )


def build_rule_texts(value: Any) -> tuple[SpecialRule, ...]:
    """A list of `rule_text`s (special rules, a force's rules), each with its citation."""
    return tuple(_rule_text(entry) for entry in (value if isinstance(value, list) else ()) if isinstance(entry, dict))


def _rule_text(entry: dict[str, Any]) -> SpecialRule:
    return SpecialRule(_str(entry.get("id")), _str(entry.get("text")), rules_of(entry), source_of(entry))


def build_non_player_forces(value: Any) -> tuple[NonPlayerForce, ...]:
    """`non_player_forces` as written."""
    found = []
    for entry in value if isinstance(value, list) else ():
        if not isinstance(entry, dict):
            continue
        activation, card = entry.get("activation"), entry.get("calamity_card")
        tradable, stack = (card.get("tradable"), card.get("stack")) if isinstance(card, dict) else (None, None)
        found.append(
            NonPlayerForce(
                _str(entry.get("id")),
                _str(entry.get("name")),
                tuple(str(item) for item in entry.get("replaces") or () if isinstance(item, str)),
                tuple(
                    ForceAdvancement(known(held.get("card")), _str(held.get("name")))
                    for held in entry.get("advancements") or ()
                    if isinstance(held, dict)
                ),
                _rule_text(activation) if isinstance(activation, dict) else None,
                ForceCard(
                    _str(card.get("name")),
                    known(tradable),
                    known(stack),
                    rules_of(card),
                    source_of(card),
                )
                if isinstance(card, dict)
                else None,
                build_rule_texts(entry.get("rules")),
                rules_of(entry),
                source_of(entry),
            )
        )
    return tuple(found)


def build_general_rules(value: Any) -> tuple[GeneralRule, ...]:
    return tuple(
        GeneralRule(str(entry["text"]), rules_of(entry), source_of(entry), _str(entry.get("id")))
        for entry in _mapping(value).get("general_rules") or ()
        if isinstance(entry, dict) and entry.get("text")
    )


def build_not_in_sources(value: Any) -> dict[str, str]:
    return {
        str(key): " ".join(entry["unknown"].split())
        for key, entry in _mapping(value).items()
        if isinstance(entry, dict) and isinstance(entry.get("unknown"), str)
    }


def build_block_bonuses(value: Any) -> tuple[BlockBonusBand, ...]:
    found = []
    for raw in value if isinstance(value, list) else ():
        players = _mapping(raw).get("players")
        if isinstance(players, dict) and isinstance(players.get("min"), int) and isinstance(players.get("max"), int):
            rule = raw.get("rule")
            rules = (
                (rule,)
                if isinstance(rule, str)
                else tuple(r for r in rule if isinstance(r, str))
                if isinstance(rule, list)
                else ()
            )
            exceeds = raw.get("may_exceed_printed_maximum")
            found.append(
                BlockBonusBand(
                    players["min"],
                    players["max"],
                    _str(raw.get("shared_goods")),
                    rules,
                    exceeds if isinstance(exceeds, bool) else None,
                    source_of(raw),
                )
            )
    return tuple(found)


def build_deck_compositions(value: Any) -> tuple[DeckComposition, ...]:
    found = []
    for raw in value if isinstance(value, list) else ():
        if not isinstance(raw, dict):
            continue
        players = _mapping(raw.get("players"))
        decks = []
        for deck in raw.get("decks") or ():
            if not isinstance(deck, dict):
                continue
            severities = known(deck.get("calamity_severities"))
            decks.append(
                DeckSpec(
                    _str(deck.get("block")),
                    tuple(
                        DeckGood(str(entry.get("commodity")), known(entry.get("count")), _str(entry.get("share")))
                        for entry in deck.get("commodities") or ()
                        if isinstance(entry, dict)
                    ),
                    known(deck.get("calamity_sets")),
                    tuple(severities) if isinstance(severities, list) else severities,
                )
            )
        found.append(
            DeckComposition(
                _int(players.get("min")),
                _int(players.get("max")),
                _str(raw.get("map_region")),
                tuple(decks),
                rules_of(raw),
                source_of(raw),
            )
        )
    return tuple(found)


def build_ruleset(resolved: Resolved) -> Ruleset:
    """The model of one resolved ruleset.

    A declared total or make-up a variant's change makes false (a stack's `calamity_cards` after a
    calamity is added, `total_cards` after a good is recounted, a set-value example after its good's
    value changed) is re-derived from the variant's data first (:func:`rederive_declared`): no
    stale value reaches `export`, the package or a sheet.
    """
    ruleset = _build_ruleset(resolved)
    if rederive_declared(resolved, ruleset):
        ruleset = _build_ruleset(resolved)
    return ruleset


#: What a declared stack make-up counts, per calamity: its stack, trade status and severity.
_STACK_FIELDS = ("stack", "tradable", "severity")


def rederive_declared(resolved: Resolved, ruleset: Ruleset) -> bool:
    """Replace, in ``resolved``'s settings, each declared fact a later ruleset of the chain changed
    what it counts of without restating it; True when one was replaced.

    The declaration is the base rulebook's statement about the base's deck; the variant's deck is
    what its data holds, so its value is derived (a value that stays true is left as written).
    """
    replaced = False
    stacks = [s for s in ruleset.trade_stacks.stacks if s.calamity_cards is not None] if ruleset.trade_stacks else []
    calamities = list(ruleset.calamities)
    latest = ruleset.latest_change("calamities", calamities, _STACK_FIELDS) if stacks else 0
    if stacks and latest > ruleset.layer(stacks[0].origin.child("calamity_cards")):
        held = _stack_make_up(calamities)
        written = _setting_value(resolved, "trade_stacks")
        if held is not None and isinstance(written, dict) and isinstance(written.get("stacks"), list):
            new = copy.deepcopy(written)
            restated = {s.number for s in stacks if not latest > ruleset.layer(s.origin.child("calamity_cards"))}
            for raw in new["stacks"]:
                cards = raw.get("calamity_cards") if isinstance(raw, dict) else None
                if not isinstance(cards, dict) or not isinstance(raw.get("number"), int) or raw["number"] in restated:
                    continue  # a make-up the variant restates is its statement: K002 holds it to the data
                found = held.get(raw["number"], dict.fromkeys(CALAMITY_KINDS, 0))
                if any(cards.get(kind, 0) != found[kind] for kind in CALAMITY_KINDS):
                    raw["calamity_cards"] = {k: n for k, n in found.items() if n or k in cards}
                    replaced = True
            if replaced:
                _set_setting(resolved, "trade_stacks", new)
    total = ruleset.total_cards
    goods = list(ruleset.commodities)
    counts = [c.count for c in goods]
    if (
        total is not None
        and isinstance(total.count, int)
        and all(isinstance(n, int) for n in counts)
        and sum(n for n in counts if isinstance(n, int)) != total.count
        and ruleset.changed_after(total.origin.child("count"), "commodities", goods, ("count",))
    ):
        written = _setting_value(resolved, "total_cards")
        if isinstance(written, dict):
            derived = sum(n for n in counts if isinstance(n, int))
            note = f"derived from this ruleset's counts of the goods (the base declares {total.count})"
            _set_setting(resolved, "total_cards", {"count": derived, "note": note})
            replaced = True
    rule = ruleset.set_value
    written = _setting_value(resolved, "set_value")
    if rule is not None and rule.formula == "count_squared_times_value" and isinstance(written, dict):
        new = copy.deepcopy(written)
        changed = False
        for example in rule.examples:
            good = ruleset.commodities.get(example.commodity)
            if good is None or not isinstance(good.value, int) or not isinstance(example.cards, int):
                continue
            derived = example.cards * example.cards * good.value
            if example.set_value != derived and ruleset.changed_after(
                rule.origin.child("examples", example.index), "commodities", [good], ("value", "count")
            ):
                new["examples"][example.index] = {
                    "commodity": example.commodity,
                    "cards": example.cards,
                    "set_value": derived,
                    "note": f"derived from this ruleset's value of the good (the base says {example.set_value})",
                }
                changed = True
        if changed:
            _set_setting(resolved, "set_value", new)
            replaced = True
    return replaced


def _stack_make_up(calamities: Sequence[Calamity]) -> dict[int, dict[str, int]] | None:
    """How many calamities of each kind each stack holds; None when a trade status is unknown."""
    held: dict[int, dict[str, int]] = {}
    for calamity in calamities:
        if calamity.severity == "minor":
            kind = "minor"
        elif isinstance(calamity.tradable, Unknown):
            return None
        else:
            kind = "tradable" if calamity.tradable else "non_tradable"
        held.setdefault(calamity.stack, dict.fromkeys(CALAMITY_KINDS, 0))[kind] += 1
    return held


def _setting_value(resolved: Resolved, key: str) -> Any:
    slot = resolved.family.settings.get(key)
    values = resolved.data if slot == "ruleset" else resolved.settings.get(slot or "", {})
    return values.get(key)


def _set_setting(resolved: Resolved, key: str, value: Any) -> None:
    """Put ``value`` in place of the setting, in a copy of its slot (the base's resolution shares the
    slot's other values, and is never changed)."""
    slot = resolved.family.settings.get(key)
    if slot == "ruleset":
        resolved.data[key] = value
    elif slot is not None:
        resolved.settings[slot] = {**resolved.settings.get(slot, {}), key: value}
    resolved.derive(key)


def _build_ruleset(resolved: Resolved) -> Ruleset:
    data = resolved.data
    groups, cards = build_cards(resolved)
    nations, epochs, tracks, phases, counts = build_structure(resolved)
    areas, borders, plains, volcanoes = build_map(resolved)
    players = data.get("players") or {}
    documents = tuple({id(d): d for d in resolved.documents}.values())

    def setting(key: str) -> tuple[Any, Origin] | None:
        return setting_of(resolved.data, resolved.settings, resolved.setting_origins, key)

    stacks, total, set_value, mining, ast, components = (
        setting(key) for key in ("trade_stacks", "total_cards", "set_value", "mining", "ast", "components")
    )
    hand_limit, taxation, victory = setting("hand_limit"), setting("taxation"), setting("victory")

    def value_of(key: str) -> Any:
        found = setting(key)
        return found[0] if found is not None else None

    return Ruleset(
        id=data["id"],
        name=data["name"],
        family=FAMILY_ID,
        manifest=Origin(resolved.manifest, ()),
        extends=data.get("extends"),
        players=made_of(player_range, players),
        best_players=best_players(players),
        description=description_of(resolved.manifest),
        credit_policy=data.get("credit_policy") or {},
        groups=groups,
        cards=cards,
        commodities=build_commodities(resolved),
        calamities=build_calamities(resolved),
        nations=nations,
        epochs=epochs,
        ast_tracks=tracks,
        phases=phases,
        player_counts=counts,
        options=build_options(resolved),
        areas=areas,
        borders=borders,
        flood_plains=plains,
        volcanoes=volcanoes,
        map_files=made_of(
            _map_files, *(d for d in documents if isinstance(d.data, dict) and d.data.get("kind") == "map")
        ),
        trade_stacks=made_of(build_trade_stacks, *stacks) if stacks is not None else None,
        total_cards=TotalCards(total[1], total[0].get("count") if isinstance(total[0], dict) else None)
        if total is not None
        else None,
        set_value=made_of(build_set_value, *set_value) if set_value is not None else None,
        mining=made_of(build_mining, *mining) if mining is not None else None,
        ast=made_of(build_ast, *ast) if ast is not None else None,
        components=made_of(build_components, *components) if components is not None else None,
        status=_str(data.get("status")),
        hand_limit=made_of(build_hand_limit, *hand_limit) if hand_limit is not None else None,
        taxation=made_of(build_taxation, *taxation) if taxation is not None else None,
        victory=made_of(build_victory, *victory) if victory is not None else None,
        scoring=made_of(build_scoring, value_of("victory")),
        general_rules=made_of(build_general_rules, value_of("sequence_of_play")),
        player_count_rules=made_of(build_general_rules, value_of("player_counts")),
        special_rules=made_of(build_rule_texts, value_of("special_rules")),
        non_player_forces=made_of(build_non_player_forces, value_of("non_player_forces")),
        not_in_sources=made_of(build_not_in_sources, value_of("not_in_sources")),
        block_bonuses=made_of(build_block_bonuses, value_of("non_native_block_bonus")),
        deck_compositions=made_of(build_deck_compositions, value_of("deck_compositions")),
        rule_index=made_of(rule_index_of, resolved.rule_index),
        documents=documents,
        settings=resolved.settings,
        removed={name: dict(ids) for name, ids in resolved.removed.items()},
        removed_settings=dict(resolved.removed_settings),
        chain=resolved.chain,
        data=resolved.data,
        setting_origins=dict(resolved.setting_origins),
        layers=dict(resolved.layers),
        names=dict(resolved.names),
    )
