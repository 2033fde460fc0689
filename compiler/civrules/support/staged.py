"""What a commit would hold: the files of a folder that differ from git's index (``--staged``).

pre-commit runs a hook on the working tree, with the changes not staged for commit stashed away
(`git stash --keep-index` of tracked files). Files git does not track stay: an untracked base,
one removed with `git rm --cached`, or an ignored one, is read by `civrules validate` from disk
although the commit will not hold it, so a broken commit passed. Tools that check files one by one
(ruff, mypy's hook) are passed the staged names; civrules checks a ruleset whole, so with
``--staged`` it checks instead that the folder it reads is the one being committed: each file
under it that is untracked (or ignored), changed but not staged, or staged but deleted, is an error
(R022), and the commit is stopped until the two agree.

git is run as the system's ``git`` (on the PATH, never from a folder of it that lies in the
project's tree: :func:`find_git`), with a fixed list of arguments and no shell:
nothing from the working tree is executed (``core.fsmonitor`` is turned off for the call). A file
git is told not to look at is hashed by `git hash-object`, as `git add` would stage it: a clean
filter its attributes name runs as it does for `git add`, the command being the user's git
configuration's (global or system), never the repository's own: a folder unpacked from an archive
brings its `.git/config`, whose filter driver (`filter.x.clean = ./x.sh`, named for `*.yaml` in a
`.gitattributes`) `git ls-files --modified` and `git hash-object` ran, once for each rule file git
compared by content. Each filter command the repository's own configuration (git's local and
worktree scopes) sets is emptied for the call (``-c filter.x.clean=``), which git reads as no
filter. The
index is the one git names in ``GIT_INDEX_FILE`` when set (a commit of some paths only, `git
commit -a`), as a hook sees it; and the work tree is the one git gives the hook's directory, also
where git names only the repository (``GIT_DIR``, as in a linked worktree), though git is run in the
rules folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from civrules.diagnostics.escape import printable
from civrules.diagnostics.words import ticked
from civrules.support import cache, files, search_path

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
    #: refuses it), "sparse" or "assumed" (marked skip-worktree or assume-unchanged, and the work
    #: tree does not hold the index's copy: git lists neither as changed), "not-in-commit"
    #: (`git commit PATHS` makes the commit from an index of HEAD and the paths named: a file
    #: otherwise untracked, changed or deleted there whose change the repository's own index
    #: holds, staged, was not named).
    state: str


def unstaged(folder: Path, wanted: Callable[[str], bool] = lambda _relative: True) -> list[Unstaged]:
    """Every file under ``folder`` (its path relative to it passing ``wanted``) that differs from
    git's index, sorted by path; :class:`StagedError` when git cannot say."""
    git, skipped = _look_up_git(folder)
    if git is None:
        if skipped:
            shown = ", ".join(ticked(printable(one)) for one in skipped[:3])
            more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
            raise StagedError(
                "--staged compares the rules with git's index, and no `git` is in the PATH's absolute folders "
                f"outside the checked project (skipped, as they lie in its tree: {shown}{more})",
                "install git in a folder outside the project and put it on the PATH, or leave --staged out"
                " (civrules never runs a program from the checked tree, which a pull request can write)",
                missing_git=True,
            )
        raise StagedError(
            "--staged compares the rules with git's index, and no `git` is in the PATH's absolute folders",
            "install git, or leave --staged out (a relative folder of the PATH, such as `.` or an empty"
            " entry, is never searched: what it finds is the checked tree's)",
            missing_git=True,
        )
    environment = _as_in_the_hook(git, folder)
    git = _Git(git, _repository_filters_off(git, folder, environment))
    _refuse_special_rule_files(git, folder, environment)
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
    found.update(_hidden(git, folder, environment, wanted, found))
    found.update(_staged_but_not_named(git, folder, environment, found))
    return [Unstaged(relative, found[relative]) for relative in sorted(found)]


def _staged_but_not_named(git: str, folder: Path, environment: dict[str, str], found: dict[str, str]) -> dict[str, str]:
    """Of ``found`` in the index of a commit made from an index of its own, the files that differ
    there only because they were not given to it: the repository's own index holds what the work
    tree does. They were called untracked (with `git add` to do, which was done) or changed.

    The commit's index is its own where ``GIT_INDEX_FILE`` names another file than the repository's
    index and that index's lock: `git commit PATHS` (`--only`, `-o`, its default with paths) makes
    the commit from HEAD and the paths named, in `next-index-PID.lock` (in a linked worktree,
    under `.git/worktrees/NAME/`); any tool that commits from an index of its own and runs the
    hooks names it so. `git commit -a`, `-i PATHS` and a plain commit name the repository's own
    index (`index.lock` while git holds it, or `index`): what it holds is what is committed."""
    index = environment.get("GIT_INDEX_FILE", "")
    candidates = [relative for relative, state in found.items() if state in ("untracked", "changed", "deleted")]
    if not index or not candidates:
        return {}
    own = {name: value for name, value in environment.items() if name != "GIT_INDEX_FILE"}
    named = os.fsdecode(_git(git, folder, own, "rev-parse", "--git-path", "index").rstrip(b"\n"))
    repository_index = os.path.realpath(os.path.join(folder, named)) if named else ""
    if os.path.realpath(index) in (repository_index, repository_index + ".lock"):
        return {}
    listed = _git(git, folder, own, "ls-files", "-z", "--others", "--modified", "--deleted", "--", ".")
    differ = _names(listed)
    return {relative: "not-in-commit" for relative in candidates if relative not in differ}


#: The modes of an index entry whose blob is a file's bytes (`git ls-files -s`).
_FILE_MODES = (b"100644", b"100755")


def committed_copies(folder: Path, relatives: list[str]) -> dict[str, bytes | None]:
    """What the commit's index (``GIT_INDEX_FILE`` as the hook has it) holds at each of ``relatives``
    (paths under ``folder``): the file's bytes, as git stores them, or None where it holds no file
    there. A path it holds as something else (a symbolic link, a submodule) is left out.

    A partial commit (`git commit PATHS`) holds its last committed copy, or none, of a file staged
    but not named (:func:`unstaged`'s "not-in-commit"): the rules the commit holds are read with
    that copy in its place."""
    git = find_git(folder)
    if git is None or not relatives:
        return {}
    environment = _as_in_the_hook(git, folder)
    git = _Git(git, _repository_filters_off(git, folder, environment))
    listed = _git(git, folder, environment, "--literal-pathspecs", "ls-files", "-z", "-s", "--", *relatives)
    blobs: dict[str, tuple[bytes, str]] = {}
    for entry in listed.split(b"\0"):
        head, _, path = entry.partition(b"\t")
        fields = head.split(b" ")
        if len(fields) == 3 and path and fields[2] == b"0":
            blobs[os.fsdecode(path)] = (fields[0], fields[1].decode("ascii", "replace"))
    copies: dict[str, bytes | None] = {relative: None for relative in relatives if relative not in blobs}
    wanted = {relative: blob for relative, (mode, blob) in blobs.items() if mode in _FILE_MODES}
    # One git for every blob (`cat-file --batch`): a partial commit leaves out a whole regenerated
    # output folder staged, hundreds of files, and a git for each took a second.
    read = _blobs(git, folder, environment, sorted(set(wanted.values())))
    copies.update((relative, read[blob]) for relative, blob in wanted.items() if blob in read)
    return copies


def _blobs(git: str, folder: Path, environment: dict[str, str], ids: list[str]) -> dict[str, bytes]:
    """The bytes of each blob of ``ids`` (`git cat-file --batch`: for each, a line `ID blob SIZE`,
    the bytes, a line break); one git cannot give is left out."""
    if not ids:
        return {}
    settings = git.settings if isinstance(git, _Git) else ()
    command = [git, "-c", "core.fsmonitor=false", *settings, "cat-file", "--batch"]
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            env=environment,
            input="".join(f"{one}\n" for one in ids).encode("ascii"),
            capture_output=True,
            check=False,
        )
    except OSError as error:
        raise StagedError(
            f"--staged could not run git in {ticked(folder)}: {error.strerror or error}",
            "check that git runs, or leave --staged out",
        ) from None
    if done.returncode != 0:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:300] or f"status {done.returncode}"
        raise StagedError(f"--staged: git cannot read what is staged in {ticked(folder)} ({said})", _refused_hint(""))
    found: dict[str, bytes] = {}
    output, at = done.stdout, 0
    for one in ids:
        end = output.find(b"\n", at)
        if end < 0:
            break
        header = output[at:end].split(b" ")
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":  # `ID missing`, or another kind of object
            continue
        size = int(header[2])
        found[one] = output[at : at + size]
        at += size + 1
    return found


def work_tree_top(folder: Path) -> Path | None:
    """The top of the work tree git compares ``folder`` in (as :func:`unstaged` runs it), or None
    where git cannot say: what a hint's git command must be run in, or told with `git -C`."""
    git = find_git(folder)
    if git is None:
        return None
    try:
        named = _git(git, folder, _as_in_the_hook(git, folder), "rev-parse", "--show-toplevel").rstrip(b"\n")
    except StagedError:
        return None
    return Path(os.fsdecode(named)) if named else None


#: The files of each folder of the work tree git reads rules from: what it ignores, and the
#: attributes that say how a file is compared (`ls-files`, `hash-object`).
_GIT_RULE_FILES = (".gitignore", ".gitattributes")
#: The keys naming such files outside the work tree; a repository's own `.git/config` may set them.
_GIT_RULE_KEYS = ("core.excludesFile", "core.attributesFile")
_SPECIAL_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


def _refuse_special_rule_files(git: str, folder: Path, environment: dict[str, str]) -> None:
    """:class:`StagedError` where a file git would read ignore or attribute rules from is a FIFO,
    a device or a socket.

    git opens such a file and waits for a writer that never comes: a folder unpacked from an
    archive holding a FIFO named `.gitignore` (or a `.git/config` whose `core.excludesFile`
    names one) made the pre-commit hook hang, where civrules itself refuses a FIFO (L012) without
    waiting on it. The files looked at are those git reads for the rules folder: `.gitignore` and
    `.gitattributes` in it, below it and in each folder above it up to the top of the work tree,
    the repository's `info/exclude` and `info/attributes`, and the files `core.excludesFile` and
    `core.attributesFile` name."""
    named = _git(git, folder, environment, "rev-parse", "--show-toplevel", "--absolute-git-dir").splitlines()
    if len(named) < 2:
        return
    top, repository = Path(os.fsdecode(named[0])), Path(os.fsdecode(named[1]))
    here = Path(os.path.abspath(folder))
    candidates = [repository / "info" / "exclude", repository / "info" / "attributes"]
    for key in _GIT_RULE_KEYS:
        value = _git(git, folder, environment, "config", "--path", "--get", key, absent=1).rstrip(b"\n")
        if value:
            candidates.append(Path(here, os.fsdecode(value)))  # a relative one is the work tree's, as git reads it
    above = here
    while True:
        candidates += [above / name for name in _GIT_RULE_FILES]
        if above == top or above.parent == above or top not in above.parents:
            break
        above = above.parent
    candidates += [
        here / entry.relative
        for entry in files.walk(here)
        if entry.kind == "special" and entry.relative.rsplit("/", 1)[-1] in _GIT_RULE_FILES
    ]
    for path in candidates:
        try:
            kind = _SPECIAL_KINDS.get(stat.S_IFMT(os.lstat(path).st_mode))
        except OSError:
            continue
        if kind is not None:
            raise StagedError(
                f"--staged: git would wait forever on {ticked(os.fsdecode(path))}, {kind}, reading its ignore or "
                "attribute rules from it",
                "remove it (git reads such rules from a text file), or leave --staged out",
            )


def _hidden(
    git: str, folder: Path, environment: dict[str, str], wanted: Callable[[str], bool], found: dict[str, str]
) -> dict[str, str]:
    """The files git is told not to look at whose working copy is not what the index holds:
    "sparse" for a skip-worktree entry (a sparse checkout leaves the file out of the work tree) and
    "assumed" for an assume-unchanged one. `git ls-files --modified --deleted` never lists either
    (git trusts the flag, not the file), so a sparse checkout's committed file broke a commit that
    passed the hook, and an assume-unchanged file's staged copy was committed unread. Each is judged
    by its content: its blob id from the bytes on disk, and where that differs from the index's,
    from git (`git hash-object`, which converts the file as `git add` would: line ends, `ident`,
    an encoding its attributes name), so a checkout git wrote with CRLF is not called changed."""
    listed = _git(git, folder, environment, "ls-files", "-z", "-v", "-s", "--", ".")
    hidden: dict[str, str] = {}
    converted: list[tuple[str, str, str]] = []  # (path, the index's blob, the state): asked of git
    for entry in listed.split(b"\0"):
        head, _, path = entry.partition(b"\t")
        fields = head.split(b" ")
        if len(fields) != 4 or not path:
            continue
        tag, mode, blob = fields[0], fields[1], fields[2].decode("ascii", "replace")
        skipped, assumed = tag in (b"S", b"s"), tag.islower()
        relative = os.fsdecode(path)
        if not (skipped or assumed) or relative in found or not wanted(relative):
            continue
        state = "sparse" if skipped else "assumed"
        raw = _blob_id(folder / relative, mode, len(blob))
        if raw is None or (raw != blob and mode == b"120000"):  # gone from the work tree, or a link changed
            hidden[relative] = state
        elif raw != blob:
            converted.append((relative, blob, state))
    if converted:
        named = _git(git, folder, environment, "hash-object", "--", *(path for path, _, _ in converted)).split()
        for index, (relative, blob, state) in enumerate(converted):
            if index >= len(named) or named[index].decode("ascii", "replace") != blob:
                hidden[relative] = state
    return hidden


def _blob_id(path: Path, mode: bytes, length: int) -> str | None:
    """git's object id of the file at ``path`` as the index entry of ``mode`` would store it (a
    link's target for mode 120000), in the repository's hash (SHA-1, or SHA-256 for an id of 64
    digits); None when there is no such file."""
    try:
        data = os.fsencode(os.readlink(path)) if mode == b"120000" else _read_no_link(path)
    except OSError:
        return None
    hasher = hashlib.sha256() if length == 64 else hashlib.sha1(usedforsecurity=False)  # git names objects so
    hasher.update(b"blob %d\0" % len(data))
    hasher.update(data)
    return hasher.hexdigest()


def _read_no_link(path: Path) -> bytes:
    """A regular file's bytes, never through a link (an OSError for a link, a folder or a FIFO)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise OSError(f"{path} is not a regular file")
        with os.fdopen(handle, "rb", closefd=False) as stream:
            return stream.read()
    finally:
        os.close(handle)


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


def find_git(folder: Path) -> str | None:
    """The absolute path of the `git` of the PATH's absolute folders outside the project of the
    rules folder ``folder`` (:mod:`civrules.support.search_path`: a relative folder is one of the
    checked project, and so is `$PWD/node_modules/.bin`), or None."""
    return _look_up_git(folder)[0]


def _look_up_git(folder: Path) -> tuple[str | None, list[str]]:
    """:func:`find_git`'s answer, and the PATH's folders skipped because they lie in the project
    (only those that hold a `git`: what would have run)."""
    folders, skipped = search_path.outside(cache.project_trees(folder))
    found = shutil.which("git", path=folders) if folders else None
    if found is not None:
        return os.path.abspath(found), []
    return None, [one for one in skipped if shutil.which("git", path=one) is not None]


def _as_in_the_hook(git: str, folder: Path) -> dict[str, str]:
    """The environment that makes git, run in the rules folder ``folder``, see the repository and
    work tree it sees in the hook's own directory (the current one), where that repository holds
    the rules folder.

    git run for a hook keeps its paths for the hook's directory: each may be relative to it, made
    absolute here. In a linked worktree (and after `git --git-dir=...`) git sets ``GIT_DIR`` and no
    ``GIT_WORK_TREE``, and with ``GIT_DIR`` alone git takes the directory it runs in as the top of
    the work tree (unless the repository's ``core.worktree`` says otherwise): run inside rules/, it
    compared rules/ with an index of paths under rules/, and every file looked untracked and
    deleted. So the top is asked of git where the hook runs, and named to git in the rules folder.

    Where the rules folder lies in another repository than the hook's (a submodule the
    superproject's hook checks, `--rules data/rules`; a repository of its own that ``GIT_DIR``,
    exported, does not name), the hook's variables are not its: the superproject's index in
    ``GIT_INDEX_FILE`` was read as the submodule's partial commit, every rule file as absent (R004,
    "no ruleset manifests"), and with ``GIT_DIR`` git did not look into the nested repository and
    found nothing staged, or unstaged. git is then left to find the rules folder's repository
    itself, as it does where no hook runs: the submodule's own index is what it will commit.
    """
    environment = dict(os.environ)
    for name in _PATH_VARIABLES:  # git runs in the rules folder, not in the hook's directory
        value = environment.get(name)
        if value and not os.path.isabs(value):
            environment[name] = os.path.abspath(value)
    if not any(environment.get(name) for name in _PATH_VARIABLES):
        return environment
    own = {name: value for name, value in environment.items() if name not in _PATH_VARIABLES}
    found = _git(git, folder, own, "rev-parse", "--absolute-git-dir", "--show-toplevel", absent=128).splitlines()
    # (a bare repository has no work tree: git exits 128, and is left to say so where it lists)
    hooked = _git(git, Path.cwd(), environment, "rev-parse", "--absolute-git-dir", "--show-toplevel", absent=128)
    theirs = hooked.splitlines()
    same = len(found) > 1 and len(theirs) > 1 and os.path.realpath(found[0]) == os.path.realpath(theirs[0])
    if len(found) > 1 and len(theirs) > 1 and not same:
        inner, outer = (Path(os.path.realpath(os.fsdecode(one[1]))) for one in (found, theirs))
        if outer in inner.parents:  # a repository inside the hook's work tree holds the rules folder
            return own
    if environment.get("GIT_DIR") and not environment.get("GIT_WORK_TREE"):
        if same:  # the rules folder's own top, wherever civrules runs from (git would take the cwd)
            environment["GIT_WORK_TREE"] = os.fsdecode(found[1])
        else:
            top = _git(git, Path.cwd(), environment, "rev-parse", "--show-toplevel").rstrip(b"\n")
            environment["GIT_WORK_TREE"] = os.fsdecode(top)
    return environment


class _Git(str):
    """The path of git, with the ``-c`` settings each call of it is given (:func:`_repository_filters_off`)."""

    settings: tuple[str, ...]

    def __new__(cls, path: str, settings: tuple[str, ...] = ()) -> _Git:
        made = super().__new__(cls, path)
        made.settings = settings
        return made


#: The keys of a filter driver's commands (`gitattributes(5)`: clean, smudge, and the long-running process).
_FILTER_COMMANDS = r"^filter\..+\.(clean|smudge|process)$"


def _repository_filters_off(git: str, where: Path, environment: dict[str, str]) -> tuple[str, ...]:
    """The ``-c KEY=`` settings that empty every filter command the repository's own configuration
    (its `.git/config`, a worktree's `config.worktree`, and what they include: git's "local" and
    "worktree" scopes) sets: git runs no command for a filter whose command is empty. Reading the
    configuration runs nothing. (A git older than 2.26, without `--show-scope`, is asked for the
    `--local` file alone.)"""
    try:
        listed = _git(
            git, where, environment, "config", "-z", "--show-scope", "--get-regexp", _FILTER_COMMANDS, absent=1
        )
        fields = listed.split(b"\0")  # scope, then "key\nvalue", for each
        keys = [
            entry for scope, entry in zip(fields[::2], fields[1::2], strict=False) if scope in (b"local", b"worktree")
        ]
    except StagedError:
        listed = _git(
            git, where, environment, "config", "-z", "--local", "--includes", "--get-regexp", _FILTER_COMMANDS, absent=1
        )
        keys = listed.split(b"\0")
    settings: list[str] = []
    for entry in keys:
        key = os.fsdecode(entry.partition(b"\n")[0])
        if key and f"{key}=" not in settings:
            settings += ["-c", f"{key}="]
    return tuple(settings)


def _git(git: str, where: Path, environment: dict[str, str], *arguments: str, absent: int | None = None) -> bytes:
    """What git prints for ``arguments`` run in ``where`` (nothing where it exits ``absent``: what
    `git config` says of a key that is not set); :class:`StagedError` when it fails."""
    settings = git.settings if isinstance(git, _Git) else ()
    command = [git, "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", *settings, *arguments]
    try:
        done = subprocess.run(
            command, cwd=where, env=environment, capture_output=True, check=False, stdin=subprocess.DEVNULL
        )
    except OSError as error:
        raise StagedError(
            f"--staged could not run git in {ticked(where)}: {error.strerror or error}",
            "check that git runs, or leave --staged out",
        ) from None
    if absent is not None and done.returncode == absent:
        return b""
    if done.returncode != 0:
        told = done.stderr.decode("utf-8", "replace")
        said = " ".join(told.split())[:300] or f"status {done.returncode}"
        raise StagedError(f"--staged: git cannot list what is staged in {ticked(where)} ({said})", _refused_hint(told))
    return done.stdout


#: The command git's "dubious ownership" refusal gives (a repository another user owns: a CI
#: container's checkout, a mounted volume), on its own line of git's message.
_SAFE_DIRECTORY = re.compile(r"^\s*(git config --global --add safe\.directory \S.*?)\s*$", re.MULTILINE)


def _refused_hint(told: str) -> str:
    """The hint for git's refusal ``told``: what git says to do where it says it (a repository it
    does not trust is still a repository), else to run in one."""
    if "dubious ownership" in told:
        command = _SAFE_DIRECTORY.search(told)
        trust = ticked(printable(command.group(1))) if command else "a `safe.directory` entry (`git help config`)"
        return (
            f"git refuses a repository another user owns: if you trust it, add it as git says, {trust} "
            "(in CI, a step before civrules), or run as the user who owns the checkout"
        )
    return "run it in a git repository that holds the rules folder (as pre-commit does), or leave --staged out"


def is_rule_file(relative: str) -> bool:
    """Whether civrules reads ``relative`` as a rule file (or reports its suffix, R015)."""
    return relative.lower().endswith((".yaml", ".yml"))
