"""Counts and articles for messages, so that no message says "1 small batteries" or "a `anchor`".

>>> count(1, "small battery", "small batteries")
'1 small battery'
>>> count(3, "card")
'3 cards'
>>> count(1000, "line")
'1,000 lines'
>>> a("`anchor`")
'an `anchor`'
>>> a("unit")
'a unit'
>>> listed(["oak", "birch"])
'`oak`, `birch`'
>>> listed([f"c{i}" for i in range(5000)], shown=3)
'`c0`, `c1`, `c2` and 4,997 more'
>>> times(1), times(2), times(3)
('once', 'twice', '3 times')
>>> between(5, 8)
'6 or 7'
>>> between(5, 6) is None
True
>>> ticked("git add 'a`b.yaml'")
"`` git add 'a`b.yaml' ``"
>>> quoted("cannot read `` a`b.yaml ``: no such file, nor `c d.yaml`")
['a`b.yaml', 'c d.yaml']
>>> clipped("per_player"), clipped("x" * 100)[-5:], len(clipped("x" * 100))
('per_player', 'xx...', 60)
>>> whole(["per_player", "x" * 100])
('per_player',)
>>> shown("oak"), shown(""), shown("  ")
('`oak`', '`""` (empty)', '`"  "` (blank)')
>>> named_path("-"), named_path("~/out"), named_path("my out"), named_path("a\x1b[31m")
('`./-`', '`./~/out`', '`my out`', '`a\\\\x1b[31m`')
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence

from civrules.diagnostics.escape import printable

#: Words spelt with a vowel but said with a consonant ("a unit", "a one-off").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once")


def plural(n: int, singular: str, plural: str | None = None) -> str:
    """``singular`` for one, else ``plural`` (``singular`` + "s" unless given)."""
    return singular if n == 1 else plural if plural is not None else singular + "s"


def count(n: int, singular: str, plural_form: str | None = None) -> str:
    """``n`` and the noun in the number it takes: `1 card`, `2 cards`, `0 cards`."""
    return f"{n:,} {plural(n, singular, plural_form)}"


def times(n: int) -> str:
    """How often a thing is listed, in words: `once`, `twice`, `3 times`. ``n`` is the whole list's
    count of it, never the count up to the entry a message is about (the third entry of three is not
    "listed twice")."""
    return "once" if n == 1 else "twice" if n == 2 else count(n, "time")


def article(word: str) -> str:
    """`a` or `an` for ``word`` as it is said (an id in backquotes by its first letter)."""
    bare = word.lstrip("`\"'*_ ").lower()
    if not bare:
        return "a"
    if bare.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if bare[0] in "aeiou" else "a"


def a(word: str) -> str:
    """``word`` with its indefinite article: `an `anchor``, `a `lantern``."""
    return f"{article(word)} {word}"


#: How many ids a message names before it says how many more there are.
SHOWN = 10


def listed(ids: Sequence[str], count: int | None = None, shown: int = SHOWN) -> str:
    """The first ``shown`` of ``ids`` in backquotes, and how many more there are (of ``count``, where
    the caller holds only the first ids): a message stays a line whatever the data holds (5,000
    cards in one list named every one of them)."""
    total = len(ids) if count is None else count
    names = ", ".join(ticked(i) for i in ids[:shown])
    return names if total <= min(shown, len(ids)) else f"{names} and {total - min(shown, len(ids)):,} more"


def between(low: int | None, high: int | None) -> str | None:
    """The whole numbers above ``low`` and below ``high`` (either bound may be absent), in words, or
    None when none is: a hint that proposes a value names only values that pass every bound the data
    puts on it (a cost above the building it upgrades and below the building that upgrades it).

    >>> between(5, None), between(None, 3), between(5, 7), between(5, 9)
    ('more than 5', 'less than 3', '6', '6 to 8')
    """
    if low is None and high is None:
        return None
    if high is None:
        return f"more than {low}"
    if low is None:
        return f"less than {high}"
    if high - low < 2:
        return None
    if high - low == 2:
        return str(low + 1)
    if high - low == 3:
        return f"{low + 1} or {low + 2}"
    return f"{low + 1} to {high - 1}"


_BACKTICKS = re.compile("`+")


def ticked(name: str | os.PathLike[str]) -> str:
    """``name`` (a path, or a command, already printable) in the backquotes of a message or a hint,
    as a Markdown code span is fenced: by a run of backticks longer than any run inside, with a
    space inside each fence when ``name`` holds one, or begins and ends with a space (CommonMark
    strips one space each side of such a span). A backtick in a file's name (``a`b.yaml``)
    otherwise ended the quoted command early, and what was pasted was part of it. The paths and
    commands that hints give to paste are quoted through this; :func:`quoted` reads them back.
    """
    text = os.fspath(name)
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    padded = bool(longest) or (len(text) > 1 and text[0] == text[-1] == " " and bool(text.strip(" ")))
    return f"{fence} {text} {fence}" if padded else f"{fence}{text}{fence}"


def name_ticked(name: str) -> str:
    """A name found on disk or in the data (a rule file's path, a manifest's file name; never a
    command to paste) as a message quotes it: escaped (:func:`~civrules.diagnostics.escape.printable`),
    then in backquotes (:func:`ticked`). Quoted raw, one holding a zero width space read as another
    name in the message a program reads (round 33: R005, R006, R015, R023 of `maps/a\\u200b.yaml`)."""
    return ticked(printable(name))


def named_path(path: str | os.PathLike[str]) -> str:
    """A file or folder the user named (``--out``, ``--rules``, ``init DIRECTORY``) as a message
    names it: escaped (:func:`civrules.diagnostics.escape.printable`: a newline or an escape
    sequence in the name can neither start a forged line nor colour the terminal), in backquotes
    (:func:`ticked`: a name with spaces is one name), and a relative one whose first character a
    reader takes for something else led by ``./`` as it was typed: `-` (standard output), `~` (the
    home folder, which a folder literally called `~` is not), a leading `-` (an option). A path
    object drops the ``./`` of ``--out ./-``: "wrote 18 files into -" read as standard output.
    """
    return ticked(typed_path(path))


def typed_path(path: str | os.PathLike[str]) -> str:
    """``path`` as :func:`named_path` shows it, before the backquotes (for a message that quotes it
    with more words: `` `--rules ./-` ``)."""
    text = os.fspath(path)
    if text[:1] in ("-", "~"):
        text = f".{os.sep}{text}"
    return printable(text)


def quoted(text: str) -> list[str]:
    """The names ``text`` (a message, a hint) quotes, as a reader of Markdown reads its code spans,
    and as :func:`ticked` and a plain `` `id` `` write them: a run of backticks opens a span, only
    the next run of the same length closes it, and one space inside each fence is stripped where
    both are (and the span is not all spaces). What a message says it is about, read whole: a
    name holding a backtick (`` a`b.yaml ``) is one name, not two halves and what lies between.

    Each run is read once (the next run of each length found from the end): linear in ``text``.

    >>> quoted("`a` or `b`"), quoted("``` x``y ```"), quoted("` a`"), quoted("`  b  `"), quoted("`a")
    (['a', 'b'], ['x``y'], [' a'], [' b '], [])
    """
    return [inside for _, _, inside in _spans(text)]


def _spans(text: str) -> list[tuple[int, int, str]]:
    """The code spans of ``text`` as :func:`quoted` reads them: where each begins (its opening
    fence) and ends (after its closing fence), and the name inside."""
    runs = [(match.start(), match.end()) for match in _BACKTICKS.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for at in range(len(runs) - 1, -1, -1):
        length = runs[at][1] - runs[at][0]
        following[at] = last.get(length)
        last[length] = at
    spans = []
    at = 0
    while at < len(runs):
        closing = following[at]
        if closing is None:
            at += 1
            continue
        inside = text[runs[at][1] : runs[closing][0]]
        if len(inside) > 1 and inside[0] == inside[-1] == " " and inside.strip(" "):
            inside = inside[1:-1]
        spans.append((runs[at][0], runs[closing][1], inside))
        at = closing + 1
    return spans


#: The longest text a diagnostic quotes whole in backquotes, whatever the text is (a path, a
#: command, a name of the data): longer than any path a hint gives to paste in practice, and
#: far longer than :data:`SHOWN_WHOLE`, the bound of names that messages cut themselves.
QUOTED_AT_MOST = 1000


def bounded(text: str, limit: int = QUOTED_AT_MOST) -> str:
    """``text`` (a message, a hint, a note) with each code span longer than ``limit`` characters
    cut (:func:`clipped`): the one bound of what a diagnostic quotes, applied where every
    diagnostic is made (:class:`~civrules.diagnostics.Diagnostic`), whichever message quoted a
    value as the data wrote it. Round 33: an `extends:` of 200,000 letters was a V001 of 200 kB,
    and R012, R020 and L001's hint quoted the same way. A text no longer than ``limit`` is
    returned as it is, read no further.

    >>> bounded("unknown family `" + "q" * 2000 + "`") == "unknown family `" + "q" * 997 + "...`"
    True
    >>> bounded("`a` and `b`", limit=1)
    '`a` and `b`'
    """
    if len(text) <= limit:
        return text
    pieces = []
    at = 0
    for start, end, inside in _spans(text):
        if len(inside) > limit:
            pieces += [text[at:start], ticked(clipped(inside, limit))]
            at = end
    return "".join(pieces) + text[at:] if pieces else text


#: The longest name written in the data (a key, a value) that a message shows whole; a longer one
#: is shown cut (:func:`clipped`), and is no subject of it (:func:`whole`).
SHOWN_WHOLE = 60


def clipped(text: str, limit: int = SHOWN_WHOLE) -> str:
    """``text`` whole when at most ``limit`` characters long, else its start and "...": a message
    quoting a name as the data writes it stays short however long the name (a 200,000-character key
    written 40 times, through an alias, made 8 MB of messages from a file of 200 kB)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole(names: Sequence[str], limit: int = SHOWN_WHOLE) -> tuple[str, ...]:
    """The ``names`` a message shows whole (:func:`clipped`): what it is about, as a `suppress:`
    target can name it. A name shown cut is no subject: no target is written to match it, and held
    whole it would make the output grow as the name times the diagnostics quoting it."""
    return tuple(name for name in names if len(name) <= limit)


def shown(text: str, limit: int = SHOWN_WHOLE) -> str:
    """``text``, a name or value as the data writes it, quoted as a message quotes it: in
    backquotes (:func:`ticked`), cut where long (:func:`clipped`); an empty or blank one in double
    quotes inside them, and said to be so, where backquotes around nothing showed nothing at all
    ("unknown key ``", "cannot patch cards ` `")."""
    if text.strip():
        return ticked(clipped(text, limit))
    said = "empty" if not text else "blank"
    return f"`{json.dumps(clipped(text, limit), ensure_ascii=False)}` ({said})"
