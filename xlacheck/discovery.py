"""Which files a run looks at: walk the paths given, honour ``exclude``, skip non-ML files cheaply.

Paths named on the command line are always linted (ruff's rule: naming a file is a stronger
signal than a default exclude, so ``xlacheck .venv/lib/.../site-packages/transformers`` works);
``force_exclude`` applies ``exclude`` (and ``.gitignore``) to them too, which is what a
pre-commit hook wants.

``.gitignore`` files are respected as ruff and git respect them (``respect-gitignore = false``
turns it off): the ones in the folders walked, in their parents up to the repository root (the
folder holding ``.git``), and ``.git/info/exclude``; a deeper file's patterns win, ``!`` negation
included. Matching is `pathspec`'s implementation of git's rules, not ours.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlacheck.config import Settings

log = logging.getLogger("xlacheck")

# A file that never names one of these cannot hold an XLA hazard we detect: skip it unparsed.
ML_MENTION = re.compile(rb"\b(?:tensorflow|keras|tf_keras|jax|flax|torch|torch_xla|transformers)\b")


SOURCE_SUFFIXES = (".py", ".ipynb")  # what a folder walk picks up (ruff's default, .pyi aside)


def mentions_ml_framework(source: bytes) -> bool:
    return ML_MENTION.search(source) is not None


@dataclass(frozen=True)
class SourceFile:
    path: Path  # absolute
    display: str  # what reports show: relative to the working directory when below it
    rel: str  # POSIX path relative to the settings' root, for globs
    stdin: bytes | None = field(default=None, compare=False, repr=False)  # `-`: the text read from stdin


@dataclass(frozen=True)
class Discovery:
    files: tuple[SourceFile, ...]
    missing: tuple[str, ...]  # paths given that do not exist
    gitignored: int = 0  # entries skipped because a .gitignore names them
    # (display path, message) of what could not be read while walking or as given: an unreadable
    # folder, a symlink loop; reported as errors (exit 1), never skipped silently
    unreadable: tuple[tuple[str, str], ...] = ()


class GitIgnore:
    """The .gitignore patterns that apply below some folders, loaded once per folder."""

    def __init__(self) -> None:
        self._specs: dict[Path, tuple[tuple[Path, Any], ...]] = {}  # folder -> (base, spec), deepest last

    def _own(self, folder: Path) -> tuple[tuple[Path, Any], ...]:
        import pathspec

        found = []
        names = [folder / ".gitignore"]
        if (folder / ".git").is_dir():
            names.insert(0, folder / ".git" / "info" / "exclude")
        for name in names:
            try:
                lines = name.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            found.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))
        return tuple(found)

    def specs(self, folder: Path) -> tuple[tuple[Path, Any], ...]:
        """Every spec that applies to entries of ``folder``, shallowest first."""
        cached = self._specs.get(folder)
        if cached is not None:
            return cached
        parent = folder.parent
        inherited: tuple[tuple[Path, Any], ...] = ()
        if parent != folder and not (folder / ".git").exists():  # stop at the repository root
            inherited = self.specs(parent)
        result = inherited + self._own(folder)
        self._specs[folder] = result
        return result

    def ignored(self, path: Path, is_dir: bool) -> bool:
        for base, spec in reversed(self.specs(path.parent)):  # the deepest file decides
            rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
            include = spec.check_file(rel).include
            if include is not None:
                return include
        return False


def discover(paths: list[str | os.PathLike[str]], settings: Settings) -> Discovery:
    root = settings.root.resolve()
    cwd = Path.cwd()
    excludes = settings.all_excludes
    seen: dict[Path, SourceFile] = {}
    missing: list[str] = []
    gitignore = GitIgnore() if settings.respect_gitignore else None
    gitignored = 0
    unreadable: list[tuple[str, str]] = []

    def rel_to_root(path: Path) -> str:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return path.as_posix().lstrip("/")

    def add(path: Path) -> None:
        if path not in seen:
            seen[path] = SourceFile(path, _display(path, cwd), rel_to_root(path))

    def walk(directory: Path) -> None:
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as e:
            unreadable.append((_display(directory, cwd), f"cannot read directory: {e.strerror or e}"))
            return
        for entry in entries:
            path = directory / entry.name
            rel = rel_to_root(path)
            if any(glob.matches_name(rel, entry.name) for glob in excludes):
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if not is_dir and not entry.name.endswith(SOURCE_SUFFIXES):
                continue
            if gitignore is not None and gitignore.ignored(path, is_dir):
                nonlocal gitignored
                gitignored += 1
                log.debug("%s: skipped (.gitignore)", _display(path, cwd))
                continue
            if is_dir:
                walk(path)
            elif entry.is_file():
                add(path)
            elif entry.is_symlink() and not entry.name.startswith(".#"):  # a .py link to nowhere, or a loop
                # (".#name.py" is an editor's lock file, a dangling link by design)
                unreadable.append((_display(path, cwd), f"cannot read file: {_stat_error(path)}"))

    for given in paths:
        path = Path(os.path.abspath(given))
        try:
            os.stat(path)
        except FileNotFoundError:
            if os.path.islink(path):  # a dangling link is not a typo in the path
                unreadable.append((os.fspath(given), "cannot read file: it is a symbolic link to a missing file"))
            else:
                missing.append(os.fspath(given))
            continue
        except OSError as e:  # a symlink loop (ELOOP), a path through a file (ENOTDIR), no permission
            unreadable.append((os.fspath(given), f"cannot read path: {e.strerror or e}"))
            continue
        if settings.force_exclude and any(glob.matches(rel_to_root(path)) for glob in excludes):
            continue
        if settings.force_exclude and gitignore is not None and _gitignored_or_below(gitignore, path):
            continue
        if path.is_dir():
            walk(path)
        else:
            add(path)
    return Discovery(
        tuple(sorted(seen.values(), key=lambda f: f.display)), tuple(missing), gitignored, tuple(unreadable)
    )


def _stat_error(path: Path) -> str:
    try:
        os.stat(path)
    except OSError as e:
        return e.strerror or str(e)
    return "not a regular file"


def _gitignored_or_below(gitignore: GitIgnore, path: Path) -> bool:
    """A path named on the command line: ignored itself, or inside an ignored folder."""
    if gitignore.ignored(path, path.is_dir()):
        return True
    return any(gitignore.ignored(parent, True) for parent in path.parents if parent.parent != parent)


def _display(path: Path, cwd: Path) -> str:
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return str(path)
