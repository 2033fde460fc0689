"""How civrules is installed, for messages that name the exact command to run.

A message that names a missing piece says the command for the user's situation: in a clone of
civrules (an editable install: the package sits in ``<clone>/compiler/civrules``) `make` or the
clone's own ``.venv``; elsewhere the Python that runs civrules, with the extra that brings the piece.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from civrules.diagnostics.escape import UNSAFE


def clone_root() -> Path | None:
    """The root of the civrules clone this package runs from (editable install), or None."""
    package = Path(__file__).resolve().parent.parent
    root = package.parent.parent
    if package.parent.name == "compiler" and (root / "pyproject.toml").is_file() and (root / "Makefile").is_file():
        return root
    return None


def shown(path: Path | str) -> str:
    """A path as a command line should hold it: relative to the working directory when inside it."""
    text = os.fspath(path)
    try:
        relative = os.path.relpath(text)
    except ValueError:  # pragma: no cover - another drive on Windows
        relative = text
    chosen = text if relative.startswith("..") else relative
    if not os.path.isabs(chosen) and os.sep not in chosen:
        chosen = f".{os.sep}{chosen}" if chosen != "." else chosen
    return word(chosen)


def word(text: str) -> str:
    r"""``text`` as one word of a command a user pastes into a POSIX shell: quoted where the shell
    would split, expand or glob it (``my rules``, ``Ünï Cöde!!``), as it is where it need not be.

    A word holding a character that is never printed as itself (a newline, a control, a
    bidirectional override: :data:`civrules.diagnostics.escape.UNSAFE`) is made by `printf`, whose
    format's escapes (``\n``, ``\t``, ``\r``, ``\\`` and octal ``\ddd``, each byte of the
    character's UTF-8) every POSIX sh turns back into those bytes: ``"$(printf 'n\nl.yaml')"``
    runs in any POSIX sh (the tests paste words into dash and bash where installed; zsh, ksh and
    busybox sh read the same POSIX forms). Single quotes hold the character itself, which every
    printed line shows escaped (``'n\nl.yaml'``), and a shell took that for a backslash and an
    ``n``; bash's ``$'...'`` is not read by dash, the ``sh`` of Debian and Ubuntu. fish is no POSIX
    shell and is not written for (it reads ``\\`` inside single quotes as one backslash): the
    README tells its users to paste into ``sh``. A command substitution drops the newlines a word
    ends with, so a name ending in a newline, and only it, is written in ``$'...'`` (POSIX.1-2024,
    bash, zsh, ksh; not dash 0.5.12). A byte of a name that is not UTF-8 (decoded by the file system's
    ``surrogateescape``) is that byte.

    >>> word("house-rules"), word("my rules")
    ('house-rules', "'my rules'")
    >>> print(word("n\nl.yaml"), word("it's\t"), word("end\n"))
    "$(printf 'n\nl.yaml')" "$(printf 'it'\''s\t')" $'end\n'
    """
    if not _UNSAFE.search(text):
        return shlex.quote(text)
    if text.endswith("\n"):
        return "$'" + _DOLLAR_QUOTED.sub(_dollar_escape, text) + "'"
    made = _PRINTF_FORMAT.sub(_printf_escape, text)
    # A format that begins with `-` is an option to some printf (dash's): its dash as an escape.
    made = "\\055" + made[1:] if made.startswith("-") else made
    single = made.replace("'", "'\\''")  # a quote ends the single quotes, is given escaped, and they start again
    return f"\"$(printf '{single}')\""


#: What a printf format cannot hold as itself: its escape character, its conversions' `%`, and
#: every character a printed line escapes.
_PRINTF_FORMAT = re.compile(f"[\\\\%{UNSAFE}]")
_PRINTF_NAMED = {"\\": "\\\\", "%": "%%", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _printf_escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _PRINTF_NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte the file system's decoding kept (surrogateescape)
        return f"\\{code - 0xDC00:03o}"
    return "".join(f"\\{byte:03o}" for byte in char.encode("utf-8"))


#: What dollar-single-quotes cannot hold as itself: their escape character, their quote, and
#: every character a printed line escapes.
_DOLLAR_QUOTED = re.compile(f"[\\\\'{UNSAFE}]")
_UNSAFE = re.compile(f"[{UNSAFE}]")
_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _dollar_escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte the file system's decoding kept (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    # \x is a byte: below 0x80 it is the character; above, the character's UTF-8 (\u) is wanted.
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def path_word(path: os.PathLike[str] | str) -> str:
    """A path as one word of such a command, kept as given (relative or absolute), and a relative
    one that begins with `-` led by ``./`` (`cd -x` would read an option).

    >>> path_word("-x"), path_word(Path("my rules/out"))
    ('./-x', "'my rules/out'")
    """
    text = os.fspath(path)
    return word(f".{os.sep}{text}" if text.startswith("-") else text)


def python() -> str:
    """The Python that runs civrules, as a command (not `python`, which may be another one)."""
    return shown(sys.executable) if sys.executable else "python3"


def install_extra(extra: str) -> str:
    """The command that installs civrules' optional ``extra`` into the Python that runs civrules."""
    root = clone_root()
    if root is not None:
        return f"{python()} -m pip install -e {word(_posix(shown_raw(root)) + f'[{extra}]')}"
    return f"{python()} -m pip install 'civrules[{extra}]'"


def reinstall() -> str:
    """The command that installs civrules again with every dependency it declares."""
    root = clone_root()
    if root is not None:
        where = shown_raw(root)
        return "make" if where == "." else f"make -C {word(where)}"
    return f"{python()} -m pip install --force-reinstall civrules"


def shown_raw(path: Path) -> str:
    """``path`` relative to the working directory where that is short (`.`, `..`, `../..`), else absolute."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") and relative.strip("./" + os.sep) else relative


def clone_command() -> str | None:
    """The civrules of the clone's ``.venv`` (which `make` makes), as a command; None outside a clone."""
    root = clone_root()
    if root is None:
        return None
    where = shown_raw(root)
    return word(_posix(os.path.join(where, ".venv/bin/civrules") if where != "." else ".venv/bin/civrules"))


def _posix(text: str) -> str:
    return text.replace(os.sep, "/")
