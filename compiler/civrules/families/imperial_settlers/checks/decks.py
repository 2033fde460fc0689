"""Decks: every faction deck follows the deck-building rule (p12), the common deck has its printed
count, and the decks add up to the cards the box holds (p2)."""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import partial

from civrules.checks import check, diagnostic, entity_word, made_of, setting
from civrules.diagnostics import Diagnostic, Related, Severity, Span, blanks, words
from civrules.families.imperial_settlers.checks.cards import PRINTED_ID, grown, repeated_ids
from civrules.families.imperial_settlers.decks import DeckRule, deck_rule
from civrules.families.imperial_settlers.model import Card, Deck, FactionDeck, ImperialSettlersRuleset

#: What the size and pattern checks (F001, F002) read: the deck-building rule, the faction of each deck, the deck of
#: each faction and its custom deck, and of the cards the deck each is printed for (its printed ids'
#: code, or its `deck:`) and its copies. A variant's patch of a card's colours or goods does not
#: change a deck. The other deck checks read less, and say so.
DECKS = (
    "decks.faction",
    "factions.deck",
    "faction_decks",
    "cards.copies",
    "cards.printed_ids",
    "cards.deck",
    setting("deck_building"),
)


#: What F001 reads besides, for its hint only (:attr:`civrules.checks.Check.hint_reads`): what
#: names a card (another card's `refers_to`, the colourless cards, a faction's special rules), as
#: the card its fix proposes to remove must be one nothing names. Read for the hint only, a change
#: of them does not place the finding: a variant removing a card and the special rule naming it
#: has F001 at the card's removal, not at its `overlay:` line.
NAMING_CARDS = ("cards.refers_to", setting("colourless_cards"), "factions.special_rules")


def _rule(ruleset: ImperialSettlersRuleset) -> DeckRule | None:
    return deck_rule(ruleset.fact("deck_building"))


def _cited(ruleset: ImperialSettlersRuleset, part: str) -> str:
    """Where ``part`` of the deck-building rule (`deck_size`, `pattern`) comes from, as a message
    cites it: the rulebook's p12, or the variant that changed it (a deck of 32 is a house rule's
    number, not p12's)."""
    origin = ruleset.fact_origin("deck_building")
    if origin is None or not ruleset.layer(origin, part):
        return "p12"
    return f"`deck_building.{part}` as `{ruleset.chain[ruleset.layer(origin, part)]}` writes it"


def _custom_entry_problems(ruleset: ImperialSettlersRuleset, deck: FactionDeck) -> bool:
    """Whether a custom deck has an entry F003 or F004 reports (its size and pattern then follow)."""
    faction = ruleset.factions.get(deck.faction)
    for entry in deck.entries:
        card = ruleset.cards.get(entry.card)
        if card is None:
            return True
        if card.copies != entry.copies or (faction is not None and card.deck != faction.deck):
            return True
    return False


def _faction_decks(ruleset: ImperialSettlersRuleset) -> Iterator[tuple[Deck, FactionDeck | None]]:
    for deck in ruleset.decks:
        if deck.faction is not None:
            yield deck, ruleset.custom_deck(deck.faction)


#: The facts of a card a hint adds that only its designer knows: blanks (L016) until written.
_NEW_ID = blanks.blank("the new card's id")
_NEW_NAME = blanks.blank("the card's name")
_NEW_KIND = blanks.blank("the card's kind")
_NEW_COST = blanks.blank("the card's cost")
#: The facts every card of a deck may carry that its faction's cards need (F011: colours, F012: a
#: deal or spoils), each a blank an added card is written with where every card of the deck has it.
_DECK_FACTS: tuple[tuple[str, Callable[[Card], bool], str], ...] = (
    ("colours", lambda card: bool(card.colours), '["' + blanks.blank("the card's colour") + '"]'),
    ("deal", lambda card: card.deal is not None, '"' + blanks.blank("the good the card deals") + '"'),
    ("spoils", lambda card: card.spoils is not None, '"' + blanks.blank("the card's spoils") + '"'),
)


@check(
    "F001",
    "faction-deck-size",
    Severity.ERROR,
    reads=DECKS,
    hint_reads=(*NAMING_CARDS, "cards.colours", "cards.deal", "cards.spoils"),
)
def check_faction_deck_size(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a faction deck does not hold the number of cards the deck-building rule gives (30,
    p12), counting every copy: a printed deck (the cards whose ids carry its code) or a custom
    faction deck a ruleset uses in its place.

    Why: "Cada Baralho de Facção consiste de 30 cartas fixas" (p12): a faction drawing from a
    deck of another size draws more or fewer cards over the game than the others.

    Fix: add or remove cards (with all their copies) until the deck holds 30; the hint names them
    by their copies, so that the deck then also follows the copies pattern (F002). A printed deck a
    variant's change left at another size is mended in the variant's `overlay.cards`: the hint
    writes the entries, whole where the data give them (a card of the deck patched to the copies
    the pattern lacks where its printed ids can follow on, or reach back into numbers another card
    gave up, its ids written; else a card removed, one that nothing else names, and one added,
    numbered after the deck's last). A number the deck prints twice is named in the message (a
    card given a copy more, numbered into the next card's): the fix first takes down a card whose
    numbers given up are the repeated ones.

        faction_decks:
          - id: my_romans
            faction: romans
            cards:                 # FAIL: 28 cards, the rule asks for 30
              - {card: rom001, copies: 2}
              ...
    """
    rule = _rule(ruleset)
    if rule is None:
        return
    for deck, custom in _faction_decks(ruleset):
        if custom is not None and _custom_entry_problems(ruleset, custom):
            continue
        total = sum(copies for _, copies in ruleset.deck_cards(deck))
        if total == rule.size:
            continue
        span = custom.origin.key_span("cards") if custom is not None else deck.origin.span("size")
        what = f"faction deck `{custom.id}`" if custom is not None else f"the printed deck `{deck.id}`"
        # a number printed twice in the deck is this change's too (F008 leaves it here)
        doubled = (
            {printed: pair for printed, pair in repeated_ids(ruleset).items() if printed[:3] == deck.prefix}
            if custom is None
            else {}
        )
        also = "".join(f"; `{printed}` is printed on `{a.id}` and on `{b.id}`" for printed, (a, b) in doubled.items())
        yield diagnostic(
            "F001",
            f"{what} holds {words.count(total, 'card')}; "
            f"a faction deck holds {rule.size} ({_cited(ruleset, 'deck_size')}){also}",
            span,
            _size_hint(ruleset, rule, custom, [copies for _, copies in ruleset.deck_cards(deck)]),
            subjects=(custom.id,) if custom is not None else (deck.id,),
            from_variant=_size_in_overlay(
                rule,
                deck,
                ruleset.deck_cards(deck),
                partial(_named_by_others, ruleset),
                _own_files(ruleset),
                _cited(ruleset, "pattern"),
            )
            if custom is None and len(ruleset.chain) > 1
            else None,
        )


def _size_in_overlay(
    rule: DeckRule,
    deck: Deck,
    held: list[tuple[Card, int]],
    named: Callable[[], Mapping[str, str]],
    own: Collection[str] = (),
    cited: str = "p12",
) -> str | None:
    """F001's fix as a variant writes it in `overlay.cards` for a printed deck its changes left at
    another size, each entry whole where the data give it (None where the rule has no pattern).

    The printed ids of a card's copies run on without a gap (F008): a card of the deck is
    patched to the copies the pattern lacks only where its numbers can follow on, reach back into
    numbers free before its first or end the deck's, and its printed ids are written; else a card
    of the spare copies is removed (the numbers a variant removes are free on purpose) and one of
    the copies lacking added, numbered
    after the deck's last, which is written whole: its id, name and facts are the designer's to give
    (`printed_ids: [...]` was left to fill, and a patch of a card in the middle of the deck gave
    F008 however its ids were written). A card removed is one nothing else names (``named``: each
    card another entity or a setting names, by what names it first) and the variant neither adds
    (``own``: its files) nor patches; where every card of those copies is, the hint says what must
    change with it: removing a card another card's `refers_to` names was V006 once the hint was
    followed, one the variant patches V005. ``cited``: where the pattern comes from (:func:`_cited`)."""
    if not rule.pattern or sum(copies * cards for copies, cards in rule.pattern.items()) != rule.size:
        return None
    have = collections.Counter(copies for _, copies in held)
    more = [c for c in sorted(rule.pattern, reverse=True) for _ in range(rule.pattern[c] - have[c])]
    fewer = [c for c in sorted(have, reverse=True) for _ in range(have[c] - rule.pattern.get(c, 0))]
    numbers = {int(m.group(2)) for card, _ in held for p in card.printed_ids if (m := PRINTED_ID.match(p))}
    printed_on = collections.Counter(p for card, _ in held for p in card.printed_ids)
    doubled = {int(m.group(2)) for p, n in printed_on.items() if n > 1 and (m := PRINTED_ID.match(p))}
    by_copies: dict[int, list[Card]] = {}
    for card, copies in sorted(held, key=lambda item: bool(item[0].origin.changes)):  # a card no variant changed first
        by_copies.setdefault(copies, []).append(card)
    entries: dict[str, list[str]] = {"patch": [], "add": [], "remove": []}
    # the facts the deck's cards all carry, which an added card of it needs too (F011, F012)
    facts = "".join(f", {key}: {blank}" for key, has, blank in _DECK_FACTS if held and all(has(c) for c, _ in held))
    still: list[str] = []  # what else a removal asks to change
    for lacking, spare in itertools.zip_longest(more, fewer):
        # a card the variant changed is not proposed back: that would undo the change
        unchanged = [card for card in by_copies.get(spare, []) if not card.origin.changes]
        mended = _renumbered(unchanged, deck.prefix, lacking, numbers, doubled) if lacking and spare else None
        if mended is not None:
            card, printed = mended
            by_copies[spare].remove(card)
            # a second card mended, or one added, takes none of the numbers this one now prints
            numbers.update(int(m.group(2)) for p in printed if (m := PRINTED_ID.match(p)))
            entries["patch"].append(
                f"{{id: {card.id}, copies: {lacking}, printed_ids: [{', '.join(printed)}], "
                'source: "house rule: write why here"}'
            )
            continue
        if spare:
            names = named()
            # a base's card nothing names first: removing one that is named leaves a reference
            # dangling (V006), and a variant does not remove a card it adds (it leaves it out)
            card = min(by_copies[spare], key=lambda one: (one.origin.file in own, one.id in names))
            by_copies[spare].remove(card)
            entries["remove"].append(f'{{id: {card.id}, why: "house rule: write why here"}}')
            if any(writer.file in own for _, writer in card.origin.changes):
                still.append(f"drop this variant's patch of `{card.id}`")
            if card.id in names:
                still.append(f"{names[card.id]} names `{card.id}`: change it too")
        if lacking:
            last = max(numbers, default=0)
            printed = [f"{deck.prefix}{last + n + 1:03d}" for n in range(lacking)]
            numbers.update(range(last + 1, last + lacking + 1))
            entries["add"].append(
                f'{{id: "{_NEW_ID}", name: "{_NEW_NAME}", deck: {deck.id}, kind: "{_NEW_KIND}", copies: {lacking}, '
                f'printed_ids: [{", ".join(printed)}], cost: "{_NEW_COST}"{facts}, source: "{blanks.HOUSE_RULE}"}}'
            )
    shown = [
        f"`{verb}: [{', '.join(written[:3])}{', ...' if len(written) > 3 else ''}]`"
        for verb, written in entries.items()
        if written
    ]
    if not shown:
        return None
    whole = (
        " (a card added is written whole, as the base's cards are: its id, name, kind, cost and the other facts of "
        "its kind are yours to give, where the blanks are)"
        if entries["add"]
        else ""
    )
    whole += f" ({'; '.join(still)})" if still else ""
    pattern = _pattern_hint(rule).removeprefix("a faction deck holds ")
    return (
        f"bring the deck `{deck.id}` to {words.count(rule.size, 'card')} in `overlay.cards`, "
        f"e.g. {' and '.join(shown)}{whole}; "
        f"the pattern it then follows: {pattern} ({cited})"
    )


def _own_files(ruleset: ImperialSettlersRuleset) -> set[str]:
    """The files the ruleset itself brings (not its bases'): a card defined in one is the variant's."""
    own = len(ruleset.chain) - 1
    return {file for file, layer in ruleset.layers.items() if layer == own}


def _named_by_others(ruleset: ImperialSettlersRuleset) -> dict[str, str]:
    """Each card another card, a setting or a faction's special rule names (a card's `refers_to`,
    the colourless cards, the cards a special rule names), with
    what names it first, as V006 words it (see :data:`NAMING_CARDS`)."""
    named: dict[str, str] = {}
    for card in ruleset.cards:
        for target in card.refers_to:
            if target != card.id:
                named.setdefault(target, f"{entity_word('cards', ruleset.family)} `{card.id}`")
    for target in sorted(ruleset.colourless_cards()):
        named.setdefault(target, "the setting `colourless_cards`")
    for faction in ruleset.factions:
        for rule in faction.special_rules:
            for target in rule.cards:
                named.setdefault(
                    target, f"the special rule `{rule.id}` of {entity_word('factions', ruleset.family)} `{faction.id}`"
                )
    return named


def _renumbered(
    cards: list[Card], prefix: str, copies: int, numbers: set[int], doubled: Collection[int] = ()
) -> tuple[Card, list[str]] | None:
    """A card of ``cards`` whose printed ids (of ``prefix``) can be made ``copies`` without a
    gap or a repeat in the deck's ``numbers``: one whose next numbers are free, to take more
    copies, else one whose numbers before its first are (given up by another card); to give some
    up, first one whose numbers given up are each printed on another card too (``doubled``: a
    variant gave a card another's number with a copy more), so that the repeat goes with the copy;
    else one whose last numbers end the deck's. With its printed ids then."""
    for card in cards if doubled else ():
        own = [int(m.group(2)) for p in card.printed_ids if (m := PRINTED_ID.match(p))]
        if copies >= len(own) or len(own) != len(card.printed_ids):
            continue
        for kept in (own[len(own) - copies :], own[:copies]):
            if all(n in doubled for n in own if n not in kept):
                return card, [f"{prefix}{n:03d}" for n in kept]
    for card in cards:
        own = [int(m.group(2)) for p in card.printed_ids if (m := PRINTED_ID.match(p))]
        if not own or len(own) != len(card.printed_ids) or own != list(range(own[0], own[0] + len(own))):
            continue
        first, count = own[0], len(own)
        if copies > count and (run := grown(own, copies, lambda n: n not in numbers)) is not None and run[0] == first:
            return card, [f"{prefix}{n:03d}" for n in run]
        if copies < count and not any(n in numbers for n in range(first + count, max(numbers, default=0) + 1)):
            return card, list(card.printed_ids[:copies])
    for card in cards:
        # none can grow forward: one may reach back into numbers free before its first (given up)
        own = [int(m.group(2)) for p in card.printed_ids if (m := PRINTED_ID.match(p))]
        consecutive = bool(own) and len(own) == len(card.printed_ids) and own == list(range(own[0], own[0] + len(own)))
        if consecutive and (run := grown(own, copies, lambda n: n not in numbers)) is not None:
            return card, [f"{prefix}{n:03d}" for n in run]
    return None


def _size_hint(ruleset: ImperialSettlersRuleset, rule: DeckRule, custom: FactionDeck | None, held: list[int]) -> str:
    """What brings a deck holding cards of ``held`` copies to the rule's size. Where the rule has a
    pattern, the cards to add and remove by their copies, so that the deck then follows it (F002)
    too; else the copies to add or remove in all, where some of its cards hold exactly that many."""
    total = sum(held)
    if rule.pattern and sum(copies * cards for copies, cards in rule.pattern.items()) == rule.size:
        have = collections.Counter(held)
        changes = []
        for copies in sorted(set(rule.pattern) | set(have), reverse=True):
            change = rule.pattern.get(copies, 0) - have[copies]
            if change:
                verb = "add" if change > 0 else "remove"
                changes.append(f"{verb} {words.count(abs(change), 'card')} of {words.count(copies, 'copy', 'copies')}")
        pattern = _pattern_hint(rule).removeprefix("a faction deck holds ")
        hint = f"{'; '.join(changes)} (the pattern: {pattern}, {_cited(ruleset, 'pattern')})"
        if custom is not None:
            spare = _spare_cards(ruleset, custom)
            short = [copies for copies in rule.pattern if rule.pattern[copies] - have[copies] > spare.get(copies, 0)]
            if short:
                listed = ", ".join(map(str, sorted(short)))
                hint += f"; the faction has too few other cards of {listed} copies: a variant may add them"
        return hint
    missing = abs(rule.size - total)
    what = f"cards holding {words.count(missing, 'copy', 'copies')} in all, each card with all its copies"
    if total < rule.size:
        return f"add {what}"
    # Bit n: some of the deck's cards hold n copies in all; bits above ``missing`` are dropped, so
    # the number stays as small as the answer needs whatever the copies written.
    reachable, within = 1, (1 << missing + 1) - 1
    for copies in held:
        reachable = (reachable | reachable << min(copies, missing + 1)) & within
    if reachable >> missing & 1:
        return f"remove {what}"
    return f"no set of the deck's cards holds exactly {words.count(missing, 'copy', 'copies')}: change which it holds"


def _spare_cards(ruleset: ImperialSettlersRuleset, custom: FactionDeck) -> collections.Counter[int]:
    """The cards of the custom deck's faction it does not hold, counted by their copies."""
    faction = ruleset.factions.get(custom.faction)
    held = {entry.card for entry in custom.entries}
    if faction is None:
        return collections.Counter()
    return collections.Counter(
        card.copies for card in ruleset.cards if card.deck == faction.deck and card.id not in held
    )


@check("F002", "faction-deck-copies-pattern", Severity.ERROR, reads=DECKS)
def check_copies_pattern(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a faction deck of the right size breaks the copies pattern of the deck-building rule: 3
    cards in 3 copies, 6 cards in 2 copies and 9 single cards (p12). Reported at the first card
    one too many for its part of the pattern, or at the deck where a part is short.

    Why: the pattern fixes how often each card comes up; a deck of ten 3-copy cards is another game.

    Fix: swap the card for one with the copies the pattern still lacks (all copies of it).

        cards:
          - {card: rom001, copies: 3}   # FAIL: a fourth card of 3 copies; the pattern has 3
    """
    rule = _rule(ruleset)
    if rule is None or not rule.pattern or sum(c * n for c, n in rule.pattern.items()) != rule.size:
        return  # no pattern, or one F015 reports
    for deck, custom in _faction_decks(ruleset):
        if custom is not None and _custom_entry_problems(ruleset, custom):
            continue
        if sum(copies for _, copies in ruleset.deck_cards(deck)) != rule.size:
            continue  # F001 reports the deck's size: a deck of another size cannot follow the pattern
        seen: dict[int, int] = {}
        reported = False
        if custom is not None:
            # Located only where it is reported: every card located was most of the check's work.
            items = [
                (entry.copies, partial(custom.origin.span, "cards", entry.index, "copies")) for entry in custom.entries
            ]
        else:
            items = [(card.copies, partial(card.origin.span, "copies")) for card in ruleset.printed_cards(deck.id)]
        for copies, locate in items:
            seen[copies] = seen.get(copies, 0) + 1
            if seen[copies] > rule.pattern.get(copies, 0) and not reported:
                reported = True
                yield diagnostic(
                    "F002",
                    f"deck `{custom.id if custom else deck.id}` has more cards of {copies} "
                    f"cop{'y' if copies == 1 else 'ies'} than the pattern's {rule.pattern.get(copies, 0)} "
                    f"({_cited(ruleset, 'pattern')})",
                    locate(),
                    _pattern_hint(rule),
                    subjects=(custom.id if custom else deck.id,),
                )
        if reported:
            continue
        short = [copies for copies, cards in sorted(rule.pattern.items()) if seen.get(copies, 0) < cards]
        if short:
            span = custom.origin.key_span("cards") if custom is not None else deck.origin.span("size")
            yield diagnostic(
                "F002",
                f"deck `{custom.id if custom else deck.id}` lacks cards of {', '.join(map(str, short))} "
                f"copies the pattern asks for ({_cited(ruleset, 'pattern')})",
                span,
                _pattern_hint(rule),
                subjects=(custom.id if custom else deck.id,),
            )


def _pattern_hint(rule: DeckRule) -> str:
    parts = ", ".join(
        f"{words.count(cards, 'card')} of {words.count(copies, 'copy', 'copies')}"
        for copies, cards in sorted(rule.pattern.items(), reverse=True)
    )
    return f"a faction deck holds {parts}"


@check(
    "F003", "deck-card-copies-incomplete", Severity.ERROR, reads=("faction_decks", "cards.copies", "cards.printed_ids")
)
@made_of("cards", "faction_decks")
def check_all_copies(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a custom faction deck holds a card in another number of copies than the card has: one
    copy too few, or one too many.

    Why: "Você deve incluir todas as cópias" (p12): a deck includes every copy of a card it
    includes, and a card has only the copies printed for it.

    Fix: write the card's own number of copies (the hint gives it), or leave the card out.

        cards:
          - {card: rom001, copies: 1}   # FAIL: rom001 has 2 copies; include both
    """
    for deck in ruleset.faction_decks:
        for entry in deck.entries:
            card = ruleset.cards.get(entry.card)
            if card is None or card.copies == entry.copies:
                continue
            yield diagnostic(
                "F003",
                f"faction deck `{deck.id}` holds {entry.copies} cop{'y' if entry.copies == 1 else 'ies'} of "
                f"`{card.id}`, which has {card.copies}: a deck includes all copies of a card (p12)",
                deck.origin.span("cards", entry.index, "copies"),
                f"write `copies: {card.copies}`, or leave the card out",
                [Related(card.origin.span("copies"), "the card's copies")],
                subjects=(deck.id, card.id),
            )


@check(
    "F004",
    "deck-card-of-another-faction",
    Severity.ERROR,
    reads=(
        "faction_decks",
        "factions.deck",
        "cards.deck",
        "cards.copies",
        "cards.printed_ids",
        setting("deck_building"),
    ),
)
def check_own_faction(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a custom faction deck holds a card of another faction's deck or of the common deck.

    Why: each faction draws only from its own deck (p2) and the rule speaks of a faction's deck
    (p12); that a deck holds only its faction's cards (printed, or added to it by the ruleset) is
    an inference the ruleset states in `deck_building.own_faction_only`.

    Fix: replace the card by one of the deck's faction (all its copies); the hint writes the entry
    of a card of the faction's deck with as many copies that the deck does not hold yet.

        faction_decks:
          - faction: romans
            cards:
              - {card: bar001, copies: 3}   # FAIL: a Barbarian card in the Roman deck
    """
    rule = _rule(ruleset)
    if rule is None or not rule.own_faction_only:
        return
    for deck in ruleset.faction_decks:
        faction = ruleset.factions.get(deck.faction)
        if faction is None:
            continue
        for entry in deck.entries:
            card = ruleset.cards.get(entry.card)
            if card is None or card.deck == faction.deck:
                continue
            yield diagnostic(
                "F004",
                f"faction deck `{deck.id}` of `{faction.id}` holds `{card.id}`, a card of the "
                f"`{card.deck}` deck: a faction deck holds only its faction's cards (inferred from p2 and p12)",
                deck.origin.span("cards", entry.index, "card"),
                _own_card_hint(ruleset, deck, faction.deck, entry.copies),
                subjects=(deck.id, faction.id, card.id, card.deck),
            )


def _own_card_hint(ruleset: ImperialSettlersRuleset, deck: FactionDeck, own: str | None, copies: int) -> str:
    """F004's fix, the entry to write in place of the other deck's card: a card of the faction's
    own deck with as many copies that the custom deck does not hold yet (so that its size and
    copies pattern stay), else what the faction's deck lacks."""
    held = {entry.card for entry in deck.entries}
    spare = [card.id for card in ruleset.cards if card.deck == own and card.id not in held and card.copies == copies]
    if spare:
        others = (
            f" (or {', '.join(f'`{c}`' for c in spare[1:4])}{', ...' if len(spare) > 4 else ''})" if spare[1:] else ""
        )
        return f"write a card of the `{own}` deck in its place: `{{card: {spare[0]}, copies: {copies}}}`{others}"
    return (
        f"write a card of the `{own}` deck in its place; the deck holds every one of its cards of "
        f"{words.count(copies, 'copy', 'copies')} already: a variant may add one in `overlay.cards` "
        f"(`deck: {own}, copies: {copies}`)"
    )


@check(
    "F005",
    "common-deck-size",
    Severity.ERROR,
    reads=("decks.faction", "decks.size", "faction_decks.id", "cards.copies", "cards.printed_ids", "cards.deck"),
)
@made_of("cards", "decks", "faction_decks")
def check_common_deck(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: a deck no faction draws (the common deck) does not hold its printed count: the copies
    of its cards do not add up to the deck's `size` (84, p2).

    Why: the draft of the lookout phase draws from it every round; a missing card is a card data
    error, not a variant.

    Fix: correct the copies or the printed ids of the deck's cards, or the size.

        decks:
          - {id: common, prefix: COM, size: 84}   # FAIL where the cards add up to 83
    """
    for deck in ruleset.decks:
        if deck.faction is not None:
            continue
        total = sum(copies for _, copies in ruleset.deck_cards(deck))
        if total != deck.size:
            yield diagnostic(
                "F005",
                f"deck `{deck.id}` holds {words.count(total, 'card')}; it prints {deck.size} (p2)",
                deck.origin.span("size"),
                "correct the copies of its cards, or the size",
                subjects=(deck.id,),
            )


@check("F006", "decks-do-not-add-up-to-components", Severity.ERROR, reads=("components.count", "decks.size"))
@made_of("components", "decks")
def check_component_count(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the printed decks' sizes and the attack cards do not add up to the cards the box holds
    (`components: cards`, 220 = 4 x 30 + 84 + 16, p2).

    Why: the component list is the rulebook's own total; a deck size that does not add up is a slip
    in one of them.

    Fix: correct the deck size or the component count.

        components:
          - {id: cards, count: 221}   # FAIL: the decks and attack cards add up to 220
    """
    cards = ruleset.components.get("cards")
    if cards is None or cards.count is None:
        return
    attack = ruleset.components.get("attack_cards")
    total = sum(deck.size for deck in ruleset.decks) + (attack.count or 0 if attack is not None else 0)
    if total != cards.count:
        yield diagnostic(
            "F006",
            f"the decks ({', '.join(f'{d.id} {d.size}' for d in ruleset.decks)}) and the attack cards add up to "
            f"{words.count(total, 'card')}; the components say {cards.count} (p2)",
            cards.origin.span("count"),
            "correct a deck's size or the count",
            subjects=(*(d.id for d in ruleset.decks), cards.id),
        )


@check("F015", "deck-building-pattern-sum", Severity.ERROR, reads=(setting("deck_building"),))
def check_pattern_sum(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the deck-building pattern (copies x cards) does not add up to the deck size.

    Why: 3 x 3 + 2 x 6 + 1 x 9 = 30 (p12); a pattern that adds up to another number makes every
    faction deck fail F001 or F002.

    Fix: correct the pattern or the deck size.

        deck_building:
          deck_size: 30
          pattern: [{copies: 3, cards: 3}, {copies: 2, cards: 6}, {copies: 1, cards: 8}]   # FAIL: 29
    """
    rule = _rule(ruleset)
    origin = ruleset.fact_origin("deck_building")
    if rule is None or origin is None:
        return
    total = sum(copies * cards for copies, cards in rule.pattern.items())
    if total != rule.size:
        span: Span = origin.span("pattern")
        yield diagnostic(
            "F015",
            f"the deck-building pattern adds up to {words.count(total, 'card')}, the deck size is {rule.size} "
            f"({_cited(ruleset, 'deck_size')})",
            span,
            "make copies x cards add up to the deck size",
            subjects=("deck_building.pattern", "deck_building.size"),
        )


@check(
    "F019",
    "attack-cards-disagree",
    Severity.ERROR,
    reads=("components.count", setting("solo")),
)
def check_attack_cards(ruleset: ImperialSettlersRuleset) -> Iterator[Diagnostic]:
    """
    What: the solo game's attack cards (`solo.attack_cards.count`) are not as many as the box
    holds (the `attack_cards` component, 16, p2 and p13).

    Why: the rulebook counts the 16 attack cards once; the data writes the number twice, in the
    component list (which F006 adds up with the decks) and in the solo game's setting (which the
    package and the solo sheet give), so a change to one is a slip unless the other follows.

    Fix: make both the same number.

        solo: {attack_cards: {count: 15}}   # FAIL: the components hold 16
        solo: {attack_cards: {count: 16}}   # PASS
    """
    attack = ruleset.components.get("attack_cards")
    solo = ruleset.solo_rules()
    origin = ruleset.fact_origin("solo")
    if attack is None or attack.count is None or solo is None or solo.attack_cards is None or origin is None:
        return
    if solo.attack_cards != attack.count:
        yield diagnostic(
            "F019",
            f"the solo game has {solo.attack_cards} attack cards; the components hold {attack.count} (p2, p13)",
            origin.span("attack_cards", "count"),
            f"make both {attack.count}, or change both"
            + (
                # the component is the base's: "change both" said nothing of how, from the variant
                f": in this variant, patch `{attack.id}` in `overlay.components`, `patch: [{{id: {attack.id}, "
                f'count: {solo.attack_cards}, source: "{blanks.HOUSE_RULE}"}}]`'
                if ruleset.from_base(attack.origin, "count")
                else ""
            ),
            [Related(attack.origin.span("count"), f"the attack_cards component counts {attack.count} here")],
            subjects=("attack_cards",),
        )
