""" "Did you mean ...?" at a bounded cost, however many misspellings a file holds.

difflib's ``get_close_matches`` compares a word with every candidate: asked once per unknown
reference, 10,000 references to missing ids among 10,000 ids took 255 s. A :class:`Vocabulary`
answers each distinct word once (a file repeats its misspellings), compares it with at most
:data:`COMPARISONS` candidates of the nearest lengths (a misspelling keeps its length within a
letter or two), and stops suggesting after :data:`QUERIES` distinct words: only the first
diagnostics of a file are listed (``--max-diagnostics``), and a hint no one reads is not worth
minutes. Within those bounds the answer is difflib's, so hints are deterministic.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: Candidates compared with one word, nearest lengths first.
COMPARISONS = 500
#: Distinct words a vocabulary answers; later ones get no suggestion.
QUERIES = 500


class Vocabulary:
    """Known words, asked for the closest one to a misspelling.

    >>> Vocabulary(["astronomy", "agriculture", "pottery"]).closest("astronmy")
    'astronomy'
    """

    def __init__(
        self, words: Iterable[str], *, cutoff: float = 0.6, comparisons: int = COMPARISONS, queries: int = QUERIES
    ) -> None:
        self.cutoff = cutoff
        self.comparisons = comparisons
        self.queries = queries
        self.by_length: dict[int, list[str]] = {}
        for word in dict.fromkeys(words):
            self.by_length.setdefault(len(word), []).append(word)
        self.answers: dict[str, str | None] = {}

    def closest(self, word: str) -> str | None:
        """The known word most like ``word`` (difflib's ratio at least ``cutoff``), or None."""
        if word in self.answers:
            return self.answers[word]
        if len(self.answers) >= self.queries:
            return None
        found = difflib.get_close_matches(word, self._candidates(len(word)), n=1, cutoff=self.cutoff)
        answer = found[0] if found else None
        self.answers[word] = answer
        return answer

    def _candidates(self, length: int) -> list[str]:
        # difflib's ratio is 2M/(a+b) with M <= min(a, b): lengths outside this window cannot reach it.
        low = int(length * self.cutoff / (2 - self.cutoff))
        high = int(length * (2 - self.cutoff) / self.cutoff) + 1
        picked: list[str] = []
        for distance in range(max(length - low, high - length) + 1):
            for size in {length - distance, length + distance}:
                if low <= size <= high:
                    picked.extend(self.by_length.get(size, ()))
            if len(picked) >= self.comparisons:
                return picked[: self.comparisons]
        return picked


def closest(word: str, words: Iterable[str], cutoff: float = 0.6) -> str | None:
    """One question to a vocabulary made for it (at most :data:`COMPARISONS` comparisons)."""
    return Vocabulary(words, cutoff=cutoff, queries=1).closest(word)


def did_you_mean(word: str, words: Iterable[str]) -> str | None:
    """The hint ``did you mean `x`?`` for the closest known word, or None."""
    found = closest(word, words)
    return f"did you mean `{found}`?" if found else None
