"""What a commit would hold: the files of a folder that differ from git's index (``--staged``).

pre-commit runs a hook on the working tree, with the changes not staged for commit stashed away
(`git stash --keep-index` of tracked files). Files git does not track stay: an untracked base,
one removed with `git rm --cached`, or an ignored one, is read by `civrules validate` from disk
although the commit will not hold it, so a broken commit passed. Tools that check files one by one
(ruff, mypy's hook) are passed the staged names; civrules checks a ruleset whole, so with
``--staged`` it checks instead that the folder it reads is the one being committed: each file
under it that is untracked (or ignored), changed but not staged, or staged but deleted, is an error
(R022), and the commit is stopped until the two agree.

git is run as the system's ``git`` (on the PATH), with a fixed list of arguments and no shell:
nothing from the working tree is executed (``core.fsmonitor`` is turned off for the call). The
index is the one git names in ``GIT_INDEX_FILE`` when set (a commit of some paths only, `git
commit -a`), as a hook sees it; and the work tree is the one git gives the hook's directory, also
where git names only the repository (``GIT_DIR``, as in a linked worktree), though git is run in the
rules folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: What each tag of `git ls-files -t` means here (others, modified, deleted).
_STATES = {
    "?": "untracked",
    "C": "changed",
    "R": "deleted",
}

#: Variables git sets for a hook whose value may be a path relative to the hook's directory.
_PATH_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR")


class StagedError(Exception):
    """git cannot say what is staged (no git, no repository): a sentence, and what to do."""

    def __init__(self, message: str, hint: str, *, missing_git: bool = False) -> None:
        super().__init__(message)
        self.hint = hint
        self.missing_git = missing_git


@dataclass(frozen=True, slots=True)
class Unstaged:
    """A file under the folder whose working copy is not what the commit holds."""

    #: The path relative to the folder (POSIX).
    relative: str
    #: "untracked" (not in the index), "ignored" (not in the index, and ignored by git: `git add`
    #: refuses it without `-f`), "changed" (not staged), "deleted" (still staged), "unmerged" (a
    #: conflict of a merge, a rebase or a cherry-pick not yet marked resolved: `git restore`
    #: refuses it).
    state: str


def unstaged(folder: Path, wanted: Callable[[str], bool] = lambda _relative: True) -> list[Unstaged]:
    """Every file under ``folder`` (its path relative to it passing ``wanted``) that differs from
    git's index, sorted by path; :class:`StagedError` when git cannot say."""
    git = shutil.which("git")
    if git is None:
        raise StagedError(
            "--staged compares the rules with git's index, and no `git` is on the PATH",
            "install git, or leave --staged out",
            missing_git=True,
        )
    environment = _as_in_the_hook(git)
    listed = _git(git, folder, environment, "ls-files", "-z", "-t", "--others", "--modified", "--deleted", "--", ".")
    found: dict[str, str] = {}
    for entry in listed.split(b"\0"):
        if len(entry) < 3 or entry[1:2] != b" ":
            continue
        tag, relative = entry[:1].decode("ascii", "replace"), os.fsdecode(entry[2:])
        state = _STATES.get(tag)
        if state is None or not wanted(relative):
            continue
        if found.get(relative) != "deleted":  # a deleted file is listed as changed too
            found[relative] = state
    # Each state names what to do, and git refuses `git add` of an ignored file and `git restore`
    # of an unmerged one: asked of git only when a file of that kind may be among those found.
    if "untracked" in found.values():
        ignored = _names(_git(git, folder, environment, *_IGNORED, "--", "."))
        found.update((relative, "ignored") for relative in ignored if found.get(relative) == "untracked")
    if any(state != "untracked" for state in found.values()):  # an unmerged file is listed as changed
        unmerged = _names(_git(git, folder, environment, "ls-files", "-z", "--unmerged", "--", "."), staged=True)
        found.update((relative, "unmerged") for relative in unmerged if relative in found)
    return [Unstaged(relative, found[relative]) for relative in sorted(found)]


#: `git ls-files` listing the files git does not track that its ignore rules cover (as `git add`
#: reads them: .gitignore files, .git/info/exclude, core.excludesFile).
_IGNORED = ("ls-files", "-z", "--others", "--ignored", "--exclude-standard")


def _names(listed: bytes, *, staged: bool = False) -> set[str]:
    """The paths of a `git ls-files -z` listing (with ``staged``, of `--stage`'s lines:
    ``mode object stage<TAB>path``)."""
    names = set()
    for entry in listed.split(b"\0"):
        if staged:
            entry = entry.partition(b"\t")[2]
        if entry:
            names.add(os.fsdecode(entry))
    return names


def _as_in_the_hook(git: str) -> dict[str, str]:
    """The environment that makes git, run in the rules folder, see the repository and work tree
    it sees in the hook's own directory (the current one).

    git run for a hook keeps its paths for the hook's directory: each may be relative to it, made
    absolute here. In a linked worktree (and after `git --git-dir=...`) git sets ``GIT_DIR`` and no
    ``GIT_WORK_TREE``, and with ``GIT_DIR`` alone git takes the directory it runs in as the top of
    the work tree (unless the repository's ``core.worktree`` says otherwise): run inside rules/, it
    compared rules/ with an index of paths under rules/, and every file looked untracked and
    deleted. So the top is asked of git where the hook runs, and named to git in the rules folder.
    """
    environment = dict(os.environ)
    for name in _PATH_VARIABLES:  # git runs in the rules folder, not in the hook's directory
        value = environment.get(name)
        if value and not os.path.isabs(value):
            environment[name] = os.path.abspath(value)
    if environment.get("GIT_DIR") and not environment.get("GIT_WORK_TREE"):
        top = _git(git, Path.cwd(), environment, "rev-parse", "--show-toplevel").rstrip(b"\n")
        environment["GIT_WORK_TREE"] = os.fsdecode(top)
    return environment


def _git(git: str, where: Path, environment: dict[str, str], *arguments: str) -> bytes:
    """What git prints for ``arguments`` run in ``where``; :class:`StagedError` when it fails."""
    command = [git, "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", *arguments]
    try:
        done = subprocess.run(
            command, cwd=where, env=environment, capture_output=True, check=False, stdin=subprocess.DEVNULL
        )
    except OSError as error:
        raise StagedError(
            f"--staged could not run git in `{where}`: {error.strerror or error}",
            "check that git runs, or leave --staged out",
        ) from None
    if done.returncode != 0:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:300] or f"status {done.returncode}"
        raise StagedError(
            f"--staged: git cannot list what is staged in `{where}` ({said})",
            "run it in a git repository that holds the rules folder (as pre-commit does), or leave --staged out",
        )
    return done.stdout


def is_rule_file(relative: str) -> bool:
    """Whether civrules reads ``relative`` as a rule file (or reports its suffix, R015)."""
    return relative.lower().endswith((".yaml", ".yml"))
