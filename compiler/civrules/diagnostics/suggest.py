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

import unicodedata
from collections.abc import Iterable, Mapping

from civrules.diagnostics.words import ticked

#: Candidates compared with one word, nearest lengths first.
COMPARISONS = 500
#: Distinct words a vocabulary answers; later ones get no suggestion.
QUERIES = 500
#: The longest word a vocabulary answers (a name's bound): difflib compares two words in time that
#: grows as the square of their length (two ids of 40,000 characters: 4 to 15 s), and ids are not
#: bounded. A longer word gets no suggestion.
LONGEST = 120


class Vocabulary:
    """Known words, asked for the closest one to a misspelling.

    >>> Vocabulary(["lantern", "ladder", "pulley"]).closest("lanter")
    'lantern'
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
        if len(self.answers) >= self.queries or len(word) > LONGEST:
            return None
        import difflib  # asked only when there is something to suggest: not at every start

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
    return mean(word, found) if found else None


#: Letters a typed code holds where it means digits (`K01O` for `K010`, `M3l0` for `M310`).
DIGIT_LOOKALIKES = str.maketrans("OIL", "011")


def meant_code(written: str, known: Iterable[str], vocabulary: Vocabulary | None = None) -> str | None:
    """The diagnostic code (or code prefix) a misspelt one meant: letters read as digits first,
    then the closest of ``known`` (asked of ``vocabulary`` where a caller asks many: its bound on
    the questions holds); None when nothing is close.

    Difflib alone ranks `K017` above `K010` for `K01O` (the same ratio, and ties go to the larger
    word); a letter O among a code's digits is a zero.

    >>> meant_code("K01O", ["K010", "K015", "K016", "K017"])
    'K010'
    >>> meant_code("k16", ["K010", "K016"])
    'K016'
    """
    words = known if isinstance(known, Mapping) else dict.fromkeys(known)
    upper = written.upper()
    digits = upper[:1] + upper[1:].translate(DIGIT_LOOKALIKES)
    if digits in words:
        return digits
    return vocabulary.closest(digits) if vocabulary is not None else closest(digits, words)


def mean(written: str, meant: str) -> str:
    """The hint proposing ``meant`` for ``written``; where the two look alike (a Cyrillic `о` for a
    Latin `o`, an invisible character), it names the characters that differ, which no reader sees.

    >>> mean("lanterm", "lantern")
    'did you mean `lantern`?'
    >>> print(mean("m\u043etor", "motor"))  # doctest: +NORMALIZE_WHITESPACE
    did you mean `motor`? `mоtor` looks the same but holds U+043E CYRILLIC SMALL LETTER O
    where `motor` has `o` (U+006F LATIN SMALL LETTER O): retype it
    """
    differences = lookalike_differences(written, meant)
    if not differences:
        return f"did you mean {ticked(meant)}?"
    return f"did you mean {ticked(meant)}? {ticked(written)} looks the same but holds {differences}: retype it"


def _named(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'an unnamed character')}"


def non_ascii(text: str) -> str | None:
    """The characters of ``text`` outside ASCII, named (``U+043E CYRILLIC SMALL LETTER O``), or None."""
    found = dict.fromkeys(_named(c) for c in text if not c.isascii())
    return ", ".join(found) if found else None


def ascii_slug(text: str) -> str | None:
    """``text`` as a lower_snake_case ASCII id (accents dropped: `Émile` → `emile`), or None when a
    character has no ASCII form (a Cyrillic `о` is no Latin `o`, whatever it looks like)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    if not kept.isascii():
        return None
    slug = "".join(c if c.isalnum() else "_" for c in kept).strip("_")
    return slug or None


def lookalike_differences(written: str, meant: str) -> str | None:
    """What sets apart two words that read alike, or None when they differ visibly.

    They read alike where every character that differs is one outside ASCII in ``written`` (a
    homoglyph in place of a letter, or an invisible format character such as U+200B).
    """
    if written == meant or written.isascii():
        return None
    if len(written) == len(meant):
        pairs = [(w, m) for w, m in zip(written, meant, strict=True) if w != m]
        if pairs and all(not w.isascii() for w, _ in pairs):
            shown = dict.fromkeys(f"{_named(w)} where `{meant}` has `{m}` ({_named(m)})" for w, m in pairs)
            return "; ".join(shown)
        return None
    invisible = dict.fromkeys(c for c in written if unicodedata.category(c) == "Cf")
    if invisible and "".join(c for c in written if c not in invisible) == meant:
        return "the invisible " + ", ".join(_named(c) for c in invisible)
    return None
