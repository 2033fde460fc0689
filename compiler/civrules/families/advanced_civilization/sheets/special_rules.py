"""The rules a ruleset states beside its sequence of play: what each number of players plays with
(tokens, the map and nations in play, the count's own rules), the rules of every count, the
ruleset's special rules, taxation and the hand limit in full (the quick reference gives them in
short) and the forces no player leads (Central America's Conquistadors).

Each is printed in words with its citation; on a variant, what the variant adds or changes is
marked. These rules were in the data and printed on no sheet: a player of Central America had the
Conquistadors only as JSON on the variant's changes sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civrules.emit.sheets.common import (
    Notes,
    citation_text,
    cited_once,
    humanize,
    label_of,
    name_of,
    row_citation,
    setting_citation,
)
from civrules.emit.sheets.registry import Source, joined_mark, sheet
from civrules.families.advanced_civilization.model import (
    GameOption,
    NonPlayerForce,
    PlayerCount,
    Ruleset,
    SpecialRule,
)
from civrules.model import Unknown

#: What a force replaces, in words (the values the schema allows).
REPLACED = {"barbarians": "the Barbarians", "pirates": "the Pirates"}


def _text(rule: SpecialRule, mark: str) -> dict[str, str]:
    return {"text": " ".join((rule.text or "").split()), "rule": citation_text(rule.rules, rule.source), "mark": mark}


def _option_value(option: GameOption, value: object) -> str:
    """A value of an option as the site's form holds it: a box checked or not, a number, a choice's name."""
    if isinstance(value, bool):
        return "checked" if value else "unchecked"
    if isinstance(option.choices, tuple):
        for choice in option.choices:
            if choice.id == value:
                return choice.name or choice.id
    return str(value)


#: An option's kind of value, in words (the values the schema allows).
OPTION_KINDS = {"boolean": "checked or not", "integer": "a number"}


def _option(source: Source[Ruleset], option: GameOption, notes: Notes, *, with_default: bool) -> dict[str, Any]:
    """One option a game is created with, as the data holds it: its name (and the site's label), what
    it does, its choices, default and the printed rules' value, cited by its help section and rules."""
    if isinstance(option.choices, Unknown):
        choices = [notes.fact(option.choices, "choices")]
    elif option.choices:
        choices = [
            f"{choice.name or choice.id}: {' '.join(choice.description.split())}"
            if choice.description
            else choice.name or choice.id
            for choice in option.choices
        ]
    else:
        bounds = " to ".join(str(n) for n in (option.minimum, option.maximum) if n is not None)
        kind = OPTION_KINDS.get(option.kind or "", humanize(option.kind or ""))
        choices = [f"{kind}, {bounds}" if bounds else kind] if kind else []
    label = ""
    if isinstance(option.site_label, Unknown):
        label = notes.mark("site label", option.site_label.reason or "not in the sources")
    elif option.site_label and option.site_label != option.name:
        label = f" (on the site: “{option.site_label}”)"
    if not with_default:
        default = ""
    elif isinstance(option.default, Unknown):
        default = notes.fact(option.default, "default")
    else:
        default = _option_value(option, option.default) if option.default is not None else ""
    if option.rulebook_value is not None:
        printed = _option_value(option, option.rulebook_value)
    else:
        printed = {True: "online only", False: "in the printed rules", None: ""}[option.online_only]
    help_at = " ".join(part for part in (option.help_page, option.help_section) if part)
    return {
        "name": label_of(option) + label,
        "text": " ".join((option.description or "").split()),
        "choices": choices,
        "default": default,
        "printed": printed,
        "rule": "; ".join(part for part in (help_at, row_citation(option, transcriptions=True)) if part),
        "mark": source.changed("options", option.id),
    }


def _options(source: Source[Ruleset], notes: Notes) -> dict[str, Any]:
    """The options' rows; a default unknown for every option is said once, not a dash a row (as the
    credit chart leaves out a column no card knows)."""
    options = list(source.ruleset.options)
    defaults = [option.default for option in options]
    unknown = bool(defaults) and all(isinstance(default, Unknown) for default in defaults)
    rows = [_option(source, option, notes, with_default=not unknown) for option in options]
    said = ""
    if unknown:
        # each reason counted in the note (as when a row each printed it), its mark printed once
        marks = [notes.fact(default, "default") for default in defaults]
        said = f"the default {marks[0]}"
    return {"options": rows, "with_default": not unknown, "defaults_unknown": said}


def _count(source: Source[Ruleset], count: PlayerCount, notes: Notes) -> dict[str, Any]:
    ruleset = source.ruleset
    setups = []
    for configuration in count.configurations:
        if configuration.nations is None:
            nations = ""
        else:
            nations = ", ".join(name_of(ruleset.nations, nation) for nation in configuration.nations)
        setups.append(
            {
                "name": configuration.name or "",  # an id where the data gives no name: none printed
                "map": " ".join((configuration.map_text or "").split()),
                "nations": nations,
                # the trade decks it plays with and what each holds (printed by no sheet before)
                "decks": [
                    {
                        "text": f"{deck.name or humanize(deck.id or '')}: {' '.join(deck.text.split())}",
                        "rule": citation_text(deck.rules, deck.source),
                    }
                    for deck in configuration.trade_decks
                    if deck.text
                ],
            }
        )
    tokens = count.tokens_per_player
    return {
        "players": count.players,
        "given": count.given,
        "tokens": notes.fact(tokens, "tokens per player") if tokens is not None else "—",
        "setups": setups,
        "setups_unknown": notes.mark("set-up", count.configurations_unknown.reason or "unknown")
        if count.configurations_unknown is not None
        else "",
        # a count's own rules are its fields: the count's mark and citation cover them
        "rules": [_text(rule, "") for rule in count.special_rules if rule.text],
        "rule": row_citation(count, transcriptions=True),  # Mega Civilization's cite a transcription
        "mark": source.changed("player_counts", count.id),
    }


def _force(source: Source[Ruleset], force: NonPlayerForce, notes: Notes) -> dict[str, Any]:
    ruleset = source.ruleset
    at = f"non_player_forces[{force.id}]"
    whole = source.setting_mark(at)

    def mark(part: str) -> str:
        """The mark of a part of the force: none where the force is the variant's (its heading says so)."""
        return "" if whole == "added" else source.setting_mark(f"{at}{part}")

    held = []
    for advancement in force.advancements:
        if isinstance(advancement.card, Unknown):
            held.append((advancement.name or "—") + notes.mark("advancement", advancement.card.reason or "unknown"))
        elif advancement.card is not None and ruleset.cards.get(advancement.card) is not None:
            shown = label_of(ruleset.cards.get(advancement.card))
            held.append(f"{advancement.name} ({shown})" if advancement.name and advancement.name != shown else shown)
        else:
            held.append(advancement.name or "—")
    card = force.calamity_card
    calamity = None
    if card is not None:
        if isinstance(card.tradable, Unknown):
            tradable = "tradability " + notes.fact(card.tradable, "calamity card")
        else:
            tradable = "tradable" if card.tradable else "non-tradable" if card.tradable is False else ""
        stack = f"stack {notes.fact(card.stack, 'calamity card')}" if card.stack is not None else ""
        calamity = {
            "text": f"The {card.name or 'calamity'} calamity card brings them into play: "
            + "; ".join(part for part in (tradable, stack) if part)
            + ".",
            "rule": citation_text(card.rules, card.source),
            "mark": mark(".calamity_card"),
        }
    replaced = [REPLACED.get(item, humanize(item)) for item in force.replaces]
    lines = [
        *(
            [_text(force.activation, mark(".activation"))]
            if force.activation is not None and force.activation.text
            else []
        ),
        *([calamity] if calamity is not None else []),
        *(_text(rule, mark(f".rules[{rule.id}]")) for rule in force.rules if rule.text),
    ]
    return {
        "name": force.name or "—",
        "replaces": " and ".join(replaced),
        "rule": citation_text(force.cited, force.source),
        "mark": whole,
        "held": ", ".join(held),
        "held_mark": mark(".advancements"),
        "lines": cited_once(lines),
    }


#: A nation's pieces, in words, one and more (the kinds of `components.<kind>_per_set`).
PIECES = {
    "tokens": ("population token", "population tokens"),
    "cities": ("city", "cities"),
    "ships": ("ship", "ships"),
    "census_markers": ("census marker", "census markers"),
    "succession_markers": ("succession marker", "succession markers"),
}

#: Who takes a tax revolt's cities, in words (the values the schema allows).
BENEFICIARIES = {
    "most_unit_points_in_stock": (
        "The player with the most unit points in stock (a city 5, a token 1) picks the revolting cities and "
        "takes them; when his cities run out, the player with the next most takes the rest, and so on."
    ),
    "most_cities_then_tokens_in_stock": (
        "The player with the most cities in stock (ties: the most tokens in stock, then the A.S.T. ranking) "
        "takes the revolting cities; when his cities run out, the next takes the rest, and so on."
    ),
}


def _taxes_and_hand(source: Source[Ruleset], notes: Notes) -> list[dict[str, str]]:
    """The rules of taxation and of the hand limit in full, as the data words them, each with its
    citation: the quick reference, one page, gives them only in short ("cities you cannot pay for
    revolt"). Who takes the revolting cities (`taxation.revolt.beneficiary`) is said in words, or
    that the sources do not say."""
    ruleset = source.ruleset
    mark = source.setting_mark
    origins = ruleset.setting_origins
    lines = []
    taxation = ruleset.taxation
    if taxation is not None:
        if taxation.combination_text:
            lines.append(
                {
                    "text": " ".join(taxation.combination_text.split()),
                    "rule": citation_text(taxation.combination_rules, taxation.combination_source, transcriptions=True)
                    or setting_citation(origins, "taxation", ("rate_changes_combination",)),
                    "mark": mark("taxation.rate_changes_combination"),
                }
            )
        revolt = citation_text(taxation.revolt_rules, taxation.revolt_source, transcriptions=True) or setting_citation(
            origins, "taxation", ("revolt",)
        )
        if taxation.revolt_text:
            lines.append(
                {
                    "text": " ".join(taxation.revolt_text.split()),
                    "rule": revolt,
                    "mark": mark("taxation.revolt.text"),
                }
            )
        chosen = taxation.revolt_beneficiary
        if isinstance(chosen, Unknown):
            reason = chosen.reason or "not in the sources"
            said = (
                "The sources do not say who takes the revolting cities" + notes.mark("revolting cities", reason) + "."
            )
        else:
            said = BENEFICIARIES.get(chosen, f"Who takes the revolting cities: {humanize(chosen)}.") if chosen else ""
        if said:
            lines.append({"text": said, "rule": revolt, "mark": mark("taxation.revolt.beneficiary")})
    limit = ruleset.hand_limit
    if limit is not None and limit.text:
        lines.append(
            {
                "text": " ".join(limit.text.split()),
                "rule": setting_citation(origins, "hand_limit", cited_apart=("by_players",))
                or citation_text((), limit.source, transcriptions=True),
                "mark": mark("hand_limit.text"),
            }
        )
    return cited_once(lines)


#: Who wins a tie, in words (the values the schema allows).
TIES = {
    "tie": "equal totals are a tie",
    "wealth": "equal totals are broken by wealth: the set value of the commodity cards held plus the treasury tokens",
}


def _victory(source: Source[Ruleset]) -> dict[str, Any] | None:
    """How the game ends and is won (`victory`): its end conditions, the final score item by item,
    who wins; None where the ruleset has no victory section."""
    ruleset = source.ruleset
    victory = ruleset.victory
    if victory is None:
        return None
    mark = source.setting_mark
    winning, winning_marks = [], []  # the line's mark: of the parts it shows, as one
    if victory.highest_wins is not None:
        winning.append("The highest total wins" if victory.highest_wins else "The lowest total wins")
        winning_marks.append(mark("victory.highest_wins"))
    if victory.tie is not None:
        winning.append(TIES.get(victory.tie, humanize(victory.tie)))
        winning_marks.append(mark("victory.tie"))
    return {
        "ends": [
            _text(rule, mark(f"victory.end_conditions[{rule.id}]") if rule.id else "")
            for rule in victory.end_conditions
            if rule.text
        ],
        "final_turn": victory.complete_final_turn is True,
        "final_turn_mark": mark("victory.complete_final_turn"),
        "scoring": [
            {
                "text": " ".join((item.text or item.name or "").split()),
                # its name before its text, where the text does not begin with it
                "label": item.name
                if item.name and item.text and not " ".join(item.text.split()).lower().startswith(item.name.lower())
                else "",
                "rule": citation_text(item.rules, item.source),
                "mark": mark(f"victory.scoring[{item.id}]"),
            }
            for item in ruleset.scoring or ()
            if item.text or item.name
        ],
        "winning": "; ".join(winning) + "." if winning else "",
        "winning_mark": joined_mark(winning_marks),
        "rule": setting_citation(ruleset.setting_origins, "victory", ("highest_wins", "tie", "complete_final_turn")),
    }


@sheet(
    "special-rules.html",
    "Players, special rules and the end of the game",
    "What each number of players plays with, the rules of every count, the ruleset's special rules, "
    "taxes and the hand limit in full, the forces no player leads, how the game ends and is won, and the "
    "options a game is created with.",
    position=65,
)
def build(source: Source[Ruleset]) -> Mapping[str, Any]:
    ruleset = source.ruleset
    notes = Notes()
    counts = [
        _count(source, count, notes) for count in sorted(ruleset.player_counts, key=lambda c: c.players, reverse=True)
    ]
    pieces = []
    sets = ""
    if ruleset.components is not None and ruleset.components.nation_sets is not None:
        sets = notes.fact(ruleset.components.nation_sets, "sets of pieces")
    if ruleset.components is not None:
        for kind, count in ruleset.components.per_set:
            shown = notes.fact(count, "pieces")
            word = PIECES.get(kind, humanize(kind))
            pieces.append(f"{shown} {word[0] if count == 1 else word[1]}")
    return {
        "pieces": ", ".join(pieces),
        "sets": sets,
        "pieces_rule": setting_citation(ruleset.setting_origins, "components"),
        "pieces_mark": source.setting_mark("components"),
        "counts": counts,
        "count_rules": [
            {
                "text": " ".join(entry.text.split()),
                "rule": citation_text(entry.rules, entry.source),
                "mark": source.setting_mark(f"player_counts.general_rules[{entry.id}]") if entry.id else "",
            }
            for entry in ruleset.player_count_rules
        ],
        "special": [
            _text(rule, source.setting_mark(f"special_rules[{rule.id}]") if rule.id else "")
            for rule in ruleset.special_rules
            if rule.text
        ],
        "forces": [_force(source, force, notes) for force in ruleset.non_player_forces],
        "taxes": _taxes_and_hand(source, notes),
        **_options(source, notes),
        "victory": _victory(source),
        "missing": ruleset.not_in_sources.get("player_counts", ""),
        "variant": source.variant,
        "notes": notes.listed(),
    }
