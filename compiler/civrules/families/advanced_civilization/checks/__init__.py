"""The checks of the Advanced Civilization family.

What each reads of the rule data files (:attr:`civrules.checks.Check.reads`): the map checks read
the map's collections and nothing of the cards, commodities and calamities; the others read those
and nothing of the map; none reads the rule index (a ruleset's `rulebook.rule_index`) but K010,
whose hint cites as the index allows. An edit of one kind then runs only the checks of that kind
again in a long-running session.
"""

from civrules.checks import RULE_INDEX

__all__ = ["CARDS", "MAP", "RULE_INDEX"]

#: The collections of map files.
MAP = ("areas", "borders", "flood_plains", "volcanoes")
#: The collections of the other data files: cards and their groups, commodities, calamities.
CARDS = ("groups", "civilization_cards", "commodities", "calamities")
