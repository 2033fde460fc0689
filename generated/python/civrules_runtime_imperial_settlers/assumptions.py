"""Facts an engine supplies where the rule data has none, and the view of a package that uses them.

The sources leave what some locations produce, give when built or cost unknown. An engine that plays
anyway states what it assumes in an :class:`Assumptions` and asks the package for a view,
``package.assuming(Assumptions(...))``: the view has every name of the package, its cards with the
assumed facts filled in, and helpers that use them. An assumption only ever fills a fact the
sources do not give (one the ruleset gives is an OutOfDomainError, never overridden), the view
names them (``ASSUMPTIONS``), and ``require_complete()`` still refuses a draft.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from civrules_runtime.assumed import AssumedView, fill
from civrules_runtime.errors import OutOfDomainError, shown
from civrules_runtime.protocol import AnyId

from . import logic
from .protocol import RulesetPackage
from .records import (
    Action,
    Assumptions,
    Card,
    CardPart,
    Colour,
    Component,
    Deck,
    DeckRule,
    Faction,
    GeneralRule,
    Good,
    LocationRow,
    Phase,
    Scoring,
    SoloLevel,
)
from .settings import Settings
from .vocab import RazeTargetName

TYPE_CHECKING = False


class AssumedPackage(AssumedView):
    """A view of a ruleset package with an engine's :class:`Assumptions` filled in: every name of
    the package, its cards changed only where a fact was unknown, its helpers using them.
    Satisfies :class:`RulesetPackage` (checked by the type checker: its members are declared)."""

    ASSUMPTIONS_TYPE = Assumptions

    @property
    def SETTINGS(self) -> Settings:  # noqa: N802 - the package's constant (the typed records)
        return self._package.SETTINGS

    if TYPE_CHECKING:  # the package's own, forwarded at run time by AssumedView.__getattr__
        FACTIONS: Mapping[str, Faction]
        DECKS: Mapping[str, Deck]
        DECK_CARDS: Mapping[str, tuple[str, ...]]
        GOODS: Mapping[str, Good]
        ACTIONS: Mapping[str, Action]
        PHASES: Mapping[str, Phase]
        PHASE_ORDER: tuple[str, ...]
        ROUNDS: int | None
        SCORING: Scoring | None
        SOLO_ACHIEVEMENTS: tuple[SoloLevel, ...] | None
        DECK_RULE: DeckRule | None
        COLOURS: Mapping[str, Colour]
        LOCATION_KINDS: Mapping[str, LocationRow]
        CARD_ANATOMY: Mapping[str, CardPart]
        COMPONENTS: Mapping[str, Component]
        GENERAL_RULES: Mapping[str, GeneralRule]
        STARTING_HAND: Mapping[str, int]

    def __init__(self, package: RulesetPackage, assumed: Assumptions) -> None:
        super().__init__(package, assumed)
        self._package: RulesetPackage = package
        self.ASSUMPTIONS: Assumptions = assumed
        costs = {**package.GOODS, "location": None}  # a cost may take a location (p3): no good
        for field, allowed in (
            (assumed.card_costs, costs),
            (assumed.card_productions, package.GOODS),
            (assumed.card_build_bonuses, package.GOODS),
        ):
            for _, goods in field:
                for good in goods:
                    logic.known(allowed, good, "good")
        for card, _ in assumed.card_productions:
            found = package.CARDS.get(card)
            if found is not None and found.kind != "production":
                raise OutOfDomainError(f"{shown(card)} is not a production location: it produces nothing to assume")
        cards = fill(package.CARDS, assumed.card_costs, "cost", "card")
        cards = fill(cards, assumed.card_productions, "production", "card")
        self.CARDS: Mapping[str, Card] = fill(cards, assumed.card_build_bonuses, "build_bonus", "card")

    # The helpers, over the view's cards (the package's own for what nothing was assumed about).

    def deck(self, deck: AnyId) -> tuple[str, ...]:
        return self._package.deck(deck)

    def card_of(self, printed_id: str) -> Card:
        return self.CARDS[self._package.card_of(printed_id).id]

    def can_pay(self, card: AnyId, goods: Mapping[str, int] | Iterable[str]) -> bool:
        return not self.missing_to_pay(card, goods)

    def missing_to_pay(self, card: AnyId, goods: Mapping[str, int] | Iterable[str]) -> Mapping[str, int]:
        return logic.missing_to_pay(self.CARDS, self._package.GOODS, card, goods)

    def raze_price(self, target: RazeTargetName, defence: int = 0, samurai: int = 0) -> int:
        return self._package.raze_price(target, defence, samurai)

    def worker_exchange(self, workers: int) -> int:
        return self._package.worker_exchange(workers)

    def production(
        self, faction: AnyId, deals: Iterable[AnyId] = (), locations: Iterable[AnyId] = (), samurai: int = 0
    ) -> Mapping[str, int]:
        return logic.production(
            self._package.FACTIONS, self.CARDS, self._package.GOODS, faction, deals, locations, samurai
        )

    def build_gains(
        self, faction: AnyId, card: AnyId, locations: Iterable[AnyId] = (), samurai: int = 0
    ) -> Mapping[str, int]:
        return logic.build_gains(
            self._package.FACTIONS,
            self.CARDS,
            self._package.GOODS,
            faction,
            card,
            locations,
            samurai,
            self._package.UNKNOWN_FACTS,
        )

    def build_samurai(self, faction: AnyId, card: AnyId, locations: Iterable[AnyId] = (), samurai: int = 0) -> int:
        return logic.build_samurai(
            self._package.FACTIONS,
            self.CARDS,
            self._package.GOODS,
            faction,
            card,
            locations,
            samurai,
            self._package.UNKNOWN_FACTS,
        )

    def board_score(self, common_locations: int, faction_locations: int, vp: int = 0) -> int:
        return self._package.board_score(common_locations, faction_locations, vp)

    def solo_achievement(self, score: int) -> SoloLevel:
        return self._package.solo_achievement(score)

    def assuming(self, assumptions: Assumptions) -> RulesetPackage:
        """A view with other assumptions (of the same package: they do not add up)."""
        return self._package.assuming(assumptions)


def assuming(package: RulesetPackage, assumptions: Assumptions) -> RulesetPackage:
    """``package`` as an engine that assumes ``assumptions`` sees it (see :class:`AssumedPackage`)."""
    view: RulesetPackage = AssumedPackage(package, assumptions)
    return view


#: The names a released version of this module had and this one lacks (the ledger of released names,
#: compiler/tools/runtime_names.json): a pickle of that version that names one is told which this is.
_RETIRED: frozenset[str] = frozenset(("UnknownIdError",))

if not TYPE_CHECKING:  # a name this module lacks stays a type error

    def __getattr__(name: str) -> object:
        # A pickle names a view's class by its module and name: one this version lacks is said so.
        from civrules_runtime.errors import absent

        raise absent(__name__, name, _RETIRED)
