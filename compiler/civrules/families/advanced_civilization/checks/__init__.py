"""The checks of the Advanced Civilization family.

Each names what it reads of the rule data (:attr:`civrules.checks.Check.reads`): the collections
it reads (`nations`, `civilization_cards`, `areas` ...), the settings (`setting("trade_stacks")`;
the model's typed settings are made of them: `ruleset.ast` of `ast`, `ruleset.players` of
`players`) and the rule index (K010 alone, whose hint cites as the index allows), and nothing
else. An edit of one collection then runs only the checks that read it again in a long-running
session, and a diagnostic a variant causes goes to the variant's one change of what its check
reads: P006 (positions beyond the number of nations) to the removal of a nation, not to the
`overlay:` line of a variant that also removes A.S.T. tracks or patches a card.
`tests/core/test_check_reads.py` holds each declaration to what the check reads, no less and no more.
"""
