"""Where an editor writes a fix's :class:`~civrules.diagnostics.Addition` in a rule file's text.

A diagnostic's fix may be entries to write away from where it stands (V006's patch of each
referrer, in `overlay.<collection>.patch` of the variant). The compiler knows the YAML path; the
language server has the buffer. The entry goes after the last line of the deepest block of the
path the file has, with the keys it lacks, indented as that block's own children are; the
edited text is read back, and the edit offered only where it adds that entry and changes
nothing else (a flow collection, a key already written, an alias: no edit).
"""

from __future__ import annotations

from typing import Any

from civrules.diagnostics import Addition, Diagnostic, codes
from civrules.load.reader import read_yaml_text

#: A key's place in the text: its 0-based line and its indentation.
_Place = tuple[int, int]


def insertion(text: str, addition: Addition) -> tuple[int, str] | None:
    """The 0-based line before which ``addition`` is written into ``text``, and the lines
    written (each ending with a line break); None where it cannot be written as a block.

    >>> patch = Addition("f", ("overlay", "cards", "patch"), "{id: b}", append=True)
    >>> insertion("overlay:\\n  cards:\\n    remove: [a]\\n", patch)
    (3, '    patch:\\n      - {id: b}\\n')
    """
    document, problems = read_yaml_text(text, "buffer")
    if document is None or _misread(problems) or document.aliases:
        return None
    path = addition.path
    known = next((end for end in range(len(path), 0, -1) if document.has_key(path[:end])), 0)
    if known == 0:
        return None  # not even the first key (`overlay:`): the file is not the one the fix is for
    lines = text.split("\n")
    key = document.key_span(path[:known])
    value = document.span(path[:known])
    if value.line == key.line and not _empty(document.data, path[:known]):
        return None  # written on the key's line: a flow collection or a scalar, no block to extend
    place = (key.line - 1, key.column - 1)
    if known == len(path):
        if not addition.append:
            return None  # the key is written already: the fix would write over it
        dash = _dash(lines, place)
        if dash is None:
            return None
        written = [f"{' ' * dash}- {addition.text}"]
    else:
        indent = _child_indent(lines, place)
        missing = path[known:]
        written = []
        for depth, name in enumerate(missing):
            last = depth == len(missing) - 1
            at = " " * (indent + 2 * depth)
            if last and not addition.append:
                written.append(f"{at}{name}: {addition.text}")
            else:
                written.append(f"{at}{name}:")
        if addition.append:
            written.append(f"{' ' * (indent + 2 * (len(missing) - 1) + 2)}- {addition.text}")
    after = _block_end(lines, place, list_too=known == len(path)) + 1
    added = "".join(f"{line}\n" for line in written)
    if not _adds_only(text, lines, after, added, addition, document.data):
        return None
    return after, added


def _empty(data: Any, path: tuple[str, ...]) -> bool:
    """Whether the key at ``path`` holds nothing (`items:` written with no value)."""
    node = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node is None


def _block_end(lines: list[str], place: _Place, *, list_too: bool) -> int:
    """The 0-based last line of the block of the key at ``place``: each line after it indented
    deeper (a block sequence's dashes may stand at the key's own indentation), blank lines and
    comments aside."""
    first, indent = place
    last = first
    for at in range(first + 1, len(lines)):
        stripped = lines[at].strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(lines[at]) - len(lines[at].lstrip(" "))
        if depth > indent or (list_too and depth == indent and stripped.startswith("- ")):
            last = at
        else:
            break
    return last


def _dash(lines: list[str], place: _Place) -> int | None:
    """The indentation of the dashes of the block sequence under the key at ``place``."""
    first, indent = place
    for at in range(first + 1, len(lines)):
        stripped = lines[at].strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(lines[at]) - len(lines[at].lstrip(" "))
        return depth if stripped.startswith("- ") and depth >= indent else None
    return None


def _child_indent(lines: list[str], place: _Place) -> int:
    """The indentation of the keys of the block mapping under the key at ``place`` (two deeper
    than the key where it has none yet)."""
    first, indent = place
    for at in range(first + 1, len(lines)):
        stripped = lines[at].strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(lines[at]) - len(lines[at].lstrip(" "))
        return depth if depth > indent else indent + 2
    return indent + 2


def _adds_only(text: str, lines: list[str], after: int, added: str, addition: Addition, before: Any) -> bool:
    """Whether ``added`` written before line ``after`` gives the data of ``text`` with the
    addition's value at its path, and nothing else changed."""
    edited = "\n".join(lines[:after]) + ("\n" if after else "") + added + "\n".join(lines[after:])
    if after >= len(lines):
        edited = text + ("" if text.endswith("\n") else "\n") + added
    document, problems = read_yaml_text(edited, "buffer")
    value, value_problems = read_yaml_text(f"value: {addition.text}\n", "value")
    if document is None or _misread(problems) or value is None or _misread(value_problems):
        return False
    expected = _with(before, addition.path, value.data["value"], addition.append)
    return expected is not None and document.data == expected


def _with(data: Any, path: tuple[str, ...], value: Any, append: bool) -> Any:
    """``data`` with ``value`` at ``path`` (appended to the list there), the mappings on the way
    made where missing; None where the path runs through something else."""
    if not isinstance(data, dict) and data is not None:
        return None
    made = dict(data or {})
    name, rest = path[0], path[1:]
    if rest:
        inner = _with(made.get(name), rest, value, append)
        if inner is None:
            return None
        made[name] = inner
    elif append:
        old = made.get(name)
        if old is not None and not isinstance(old, list):
            return None
        made[name] = [*(old or []), value]
    else:
        if name in made:
            return None
        made[name] = value
    return made


def _misread(problems: list[Diagnostic]) -> bool:
    """Whether the reader's ``problems`` say a text was not read as written: any but a blank a fix
    writes for the designer to fill (L016), which it reads as written."""
    return any(problem.code != codes.UNFILLED_BLANK.code for problem in problems)


def written(text: str, additions: tuple[Addition, ...]) -> str | None:
    """``text`` with every one of ``additions`` written in turn (a later one may extend the
    block an earlier one made), in the text's own line breaks; None where one of them cannot be
    written."""
    if "\r" in text:
        if text.replace("\r\n", "").count("\r") or "\n" in text.replace("\r\n", ""):
            return None  # line breaks of more than one kind: no edit can keep them as they are
        made = written(text.replace("\r\n", "\n"), additions)
        return made.replace("\n", "\r\n") if made is not None else None
    for addition in additions:
        found = insertion(text, addition)
        if found is None:
            return None
        at, added = found
        lines = text.split("\n")
        if at >= len(lines) or (at == len(lines) - 1 and lines[-1] == ""):
            text = text + ("" if text.endswith("\n") or not text else "\n") + added
        else:
            text = "\n".join(lines[:at]) + ("\n" if at else "") + added + "\n".join(lines[at:])
    return text
