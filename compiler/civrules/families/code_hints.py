"""Did-you-mean for a diagnostic code that is none, aware of the family that owns each code.

Here, not in :mod:`civrules.checks.catalogue`: the schema's hints ask it too, and the schema may not
import the checks (they import the models, which import the resolver, which imports the schema).
The codes are :func:`civrules.diagnostics.codes.every_code`'s: every family's once the catalogue is
imported, as it is by every command that judges rules.
"""

from __future__ import annotations

from civrules.diagnostics import codes
from civrules.families import families, family_of_code


class CodeHints:
    """Did-you-mean for a code that is no diagnostic code, aware of the families that own codes.

    With ``family`` (the id of the ruleset's family), the codes that can be reported for that
    ruleset (the core's and its family's) are suggested first; a code of another family is
    suggested only when none of them is close, saying whose it is, since it can never be reported
    there (`A011` in an Advanced Civilization variant meant `A010`, not Sid Meier's `T011`).
    Without one (`civrules explain`: no ruleset), the closest codes are suggested, each with its
    family. Among codes as close, one of the same letter, then the nearest number, is preferred
    (difflib alone prefers the larger code: `R011` for `A011`). At most
    :data:`~civrules.diagnostics.suggest.QUERIES` distinct codes are answered (a file may name
    thousands).
    """

    def __init__(self, family: str | None = None, *, cutoff: float = 0.5) -> None:
        self.known = codes.every_code()
        self.cutoff = cutoff
        self.family = families().get(family) if family is not None else None
        self.owner = {code: family_of_code(code) for code in self.known}
        self.answers: dict[str, tuple[str | None, str | None]] = {}

    def hint(self, written: str) -> str | None:
        """The did-you-mean of ``written``, with whose each suggestion is; None when nothing is close."""
        return self._answer(written)[0]

    def meant(self, written: str) -> str | None:
        """The one code :meth:`hint` proposes in place of ``written``, for an editor's quick fix;
        None where it proposes none, or several (as close, of different owners).

        >>> hints = CodeHints()
        >>> hints.meant("R01O"), hints.hint("R01O")
        ('R010', 'did you mean `R010`?')
        """
        return self._answer(written)[1]

    def _answer(self, written: str) -> tuple[str | None, str | None]:
        from civrules.diagnostics.suggest import LONGEST, QUERIES

        if written not in self.answers:
            self.answers[written] = (
                self._hint(written) if len(self.answers) < QUERIES and len(written) <= LONGEST else (None, None)
            )
        return self.answers[written]

    def _hint(self, written: str) -> tuple[str | None, str | None]:
        """The hint, and the one code it proposes (None: none, or several)."""
        from civrules.diagnostics.suggest import DIGIT_LOOKALIKES, mean

        upper = written.upper()
        digits = upper[:1] + upper[1:].translate(DIGIT_LOOKALIKES)
        ranked = self._ranked(digits)
        if self.family is not None:
            own = self.family
            ours = [(ratio, code) for ratio, code in ranked if self.owner[code] is None or self.owner[code] is own]
            if not ranked:
                return None, None
            other = ranked[0][1]
            elsewhere = (
                f"`{other}` is {self._whose(other)}: it is never reported for a ruleset of the {own.name} family"
            )
            if not ours:
                return f"the nearest code, {elsewhere}", None
            if ours[0][0] < ranked[0][0]:  # another family's is nearer: say why it is not suggested
                return f"{mean(written, ours[0][1])} (nearer, {elsewhere})", ours[0][1]
            return mean(written, ours[0][1]), ours[0][1]
        if not ranked:
            return None, None
        if ranked[0][1] == digits:
            return (mean(written, digits), digits) if digits != upper else (None, None)
        # The closest code of each owner (a family, or the core) as close as the closest of all.
        best = ranked[0][0]
        shown: dict[str | None, str] = {}
        for ratio, code in ranked:
            owner = self.owner[code]
            if ratio == best:
                shown.setdefault(owner.id if owner is not None else None, code)
        proposed = list(shown.values())
        text = "did you mean " + " or ".join(f"`{code}` ({self._whose(code)})" for code in proposed) + "?"
        return text, proposed[0] if len(proposed) == 1 else None

    def _ranked(self, digits: str) -> list[tuple[float, str]]:
        """The known codes at least ``cutoff`` like ``digits``, closest first, with how alike."""
        import difflib

        if digits in self.known:
            return [(1.0, digits)]
        matcher = difflib.SequenceMatcher(None, b=digits)
        scored = []
        for code in self.known:
            matcher.set_seq1(code)
            if matcher.real_quick_ratio() >= self.cutoff and matcher.quick_ratio() >= self.cutoff:
                ratio = matcher.ratio()
                if ratio >= self.cutoff:
                    number = abs(int(code[1:]) - int(digits[1:])) if digits[1:].isdigit() else 0
                    scored.append((-ratio, code[:1] != digits[:1], number, code))
        return [(-ratio, code) for ratio, _, _, code in sorted(scored)]

    def _whose(self, code: str) -> str:
        owner = self.owner.get(code)
        return "a core code, reported for every family" if owner is None else f"a check of the {owner.name} family"
