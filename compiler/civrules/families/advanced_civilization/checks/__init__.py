"""The checks of the Advanced Civilization family.

What each reads of the rule data files (:attr:`civrules.checks.Check.reads`): the map checks read
the map's collections and nothing of the cards, commodities and calamities; the others read those
and nothing of the map; both may read the manifest's collections and settings; none reads the rule
index (a ruleset's `rulebook.rule_index`) but K010, whose hint cites as the index allows. An edit
of one kind then runs only the checks of that kind again in a long-running session.
"""

from civrules.checks import RULE_INDEX, SETTINGS

__all__ = ["CARDS", "MANIFEST", "MAP", "RULE_INDEX"]

#: The collections and settings of the manifest, which the checks of either kind may read (the
#: nations' start areas, the epochs, the player counts, the credit policy): a manifest's edit runs
#: every check again anyway.
MANIFEST = ("nations", "epochs", "ast_tracks", "phases", "player_counts", "options", SETTINGS)
#: The collections of map files, and the manifest's.
MAP = ("areas", "borders", "flood_plains", "volcanoes", *MANIFEST)
#: The collections of the other data files (cards and their groups, commodities, calamities), and
#: the manifest's.
CARDS = ("groups", "civilization_cards", "commodities", "calamities", *MANIFEST)
