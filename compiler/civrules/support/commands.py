"""Commands printed for the user to paste: one place that writes them.

A hint that says "run `civrules validate my-variant --select Q006`" must run what the user ran, read
from the rules the user's command read: pasted without the invocation's `--rules DIR` (or
`--no-shipped`, or a bound on what is read), it reads the default `./rules` instead, and fails or
judges other rules (round 19's designer trial: Q007's, R011's and new-variant's commands). The
command line records its arguments here (:func:`invoked`) while it runs; :func:`command` writes a
command with the options of them that choose what is read, and :func:`rerun` the invocation itself
with options changed. Each word is shell-quoted (:func:`civrules.support.install.word`).

A session that checks a rules folder in this process (the language server's, `civrules watch`'s:
:class:`civrules.pipeline.incremental.Session`) stands for `civrules --rules DIR validate` of its
own folder while it checks (:func:`validating`, recorded by :func:`invoked`), whatever the process
was started as: the server serves one folder per workspace folder of a multi-root editor, each
found under a relative `--rules` or none, and a hint of one of them that repeated the server's
options named the folder a terminal opened in another one reads (or, started by another program,
no folder at all: the default `./rules`; `watch`'s repeated `watch`, which lists nothing more).

Without an invocation nor a session (a library caller) the commands carry no options: what such a
caller reads is its own to say.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence

from civrules.support.install import path_word, word

#: The global options that choose what a command reads, and whether each takes a value: a
#: command printed for the user repeats them as given.
READING_OPTIONS: dict[str, bool] = {
    "--rules": True,
    "--no-shipped": False,
    "--max-file-size": True,
    "--max-nodes": True,
}

#: The arguments of the running invocation (after the program's name), while it runs.
_INVOKED: list[tuple[str, ...]] = []


@contextlib.contextmanager
def invoked(args: Sequence[str]) -> Iterator[None]:
    """Record ``args`` as the running invocation's while the block runs (nested calls: the inner)."""
    _INVOKED.append(tuple(args))
    try:
        yield
    finally:
        _INVOKED.pop()


def validating(
    rules: str | os.PathLike[str], rulesets: Sequence[str] = (), *, otherwise: Sequence[str] = ()
) -> tuple[str, ...]:
    """The arguments of `civrules --rules RULES OPTIONS... validate RULESETS...`: what a session
    checking the folder ``rules`` in this process stands for, to record with :func:`invoked` while
    it checks. OPTIONS are the running invocation's that choose what is read, but its `--rules`
    (the server's, found in a workspace folder, names no folder a terminal reads), or without
    one ``otherwise`` (the session's own, spelt as :data:`READING_OPTIONS` spells them). A folder
    named by a path that begins with `-` is led by ``./``.

    >>> with invoked(validating("/home/me/my rules", ["mine"], otherwise=["--no-shipped"])):
    ...     command("validate", "mine", "--select", "Q006")
    "civrules --rules '/home/me/my rules' --no-shipped validate mine --select Q006"
    >>> with invoked(["--rules", "elsewhere", "--max-nodes=9", "lsp"]), invoked(validating("-r")):
    ...     rerun(["--max-diagnostics", "9"])
    'civrules --max-diagnostics 9 --rules ./-r --max-nodes=9 validate'
    """
    arguments = _arguments()
    if arguments is None:
        reading = list(otherwise)
    else:
        reading = _split(_split(arguments, READING_OPTIONS)[0], {"--rules": True})[1]
    text = os.fspath(rules)
    return ("--rules", f".{os.sep}{text}" if text.startswith("-") else text, *reading, "validate", *rulesets)


def _arguments() -> tuple[str, ...] | None:
    return _INVOKED[-1] if _INVOKED else None


def _split(args: Sequence[str], names: dict[str, bool]) -> tuple[list[str], list[str]]:
    """``args`` parted into the options named in ``names`` (each with its value, as given: `--rules
    DIR` or `--rules=DIR`) and the rest. Past a `--`, every word is the rest."""
    chosen: list[str] = []
    rest: list[str] = []
    index = 0
    while index < len(args):
        given = args[index]
        if given == "--":
            rest.extend(args[index:])
            break
        name, equals, _ = given.partition("=")
        if name in names:
            takes_value = names[name]
            if takes_value and not equals and index + 1 < len(args):
                chosen.extend(args[index : index + 2])
                index += 2
                continue
            chosen.append(given)
        else:
            rest.append(given)
        index += 1
    return chosen, rest


def reading_options() -> list[str]:
    """The running invocation's options that choose what it reads, as given (none without one)."""
    arguments = _arguments()
    return _split(arguments, READING_OPTIONS)[0] if arguments is not None else []


def command(*words: str | os.PathLike[str]) -> str:
    """`civrules WORDS...` with the running invocation's options that choose what it reads first,
    each word shell-quoted: a command for the user to paste where they ran theirs. A path (a
    :class:`os.PathLike`, which has lost the ``./`` of `--out ./-`) is led by ``./`` where it begins
    with `-` (:func:`civrules.support.install.path_word`): `--out -` is refused, `--out -x` read
    as options.

    >>> from pathlib import Path
    >>> command("validate", "my variant"), command("schemas", "--out", Path("./-"))
    ("civrules validate 'my variant'", 'civrules schemas --out ./-')
    >>> with invoked(["--rules", "../my rules", "list", "--no-shipped"]):
    ...     command("validate", "my-variant")
    "civrules --rules '../my rules' --no-shipped validate my-variant"
    """
    given = (path_word(one) if isinstance(one, os.PathLike) else word(one) for one in words)
    return " ".join(["civrules", *(word(one) for one in reading_options()), *given])


def rerun(first: Sequence[str] = (), *, dropping: dict[str, bool] | None = None) -> str | None:
    """The running invocation again, with the options ``dropping`` names (and whether each takes a
    value) left out and ``first`` put before the rest; None without an invocation.

    >>> with invoked(["--rules", "r", "validate", "v", "--max-diagnostics=5"]):
    ...     rerun(["--max-diagnostics", "9"], dropping={"--max-diagnostics": True})
    'civrules --max-diagnostics 9 --rules r validate v'
    """
    arguments = _arguments()
    if arguments is None:
        return None
    kept = _split(arguments, dropping or {})[1]
    return " ".join(["civrules", *(word(one) for one in (*first, *kept))])
