"""Which files a run looks at: walk the paths given, honour ``exclude``, skip non-ML files cheaply.

Paths named on the command line are always linted (ruff's rule: naming a file is a stronger
signal than a default exclude, so ``xlacheck .venv/lib/.../site-packages/transformers`` works);
``force_exclude`` applies ``exclude`` to them too, which is what a pre-commit hook wants.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from xlacheck.config import Settings

# A file that never names one of these cannot hold an XLA hazard we detect: skip it unparsed.
ML_MENTION = re.compile(rb"\b(?:tensorflow|keras|tf_keras|jax|flax|torch|torch_xla|transformers)\b")


def mentions_ml_framework(source: bytes) -> bool:
    return ML_MENTION.search(source) is not None


@dataclass(frozen=True)
class SourceFile:
    path: Path  # absolute
    display: str  # what reports show: relative to the working directory when below it
    rel: str  # POSIX path relative to the settings' root, for globs


@dataclass(frozen=True)
class Discovery:
    files: tuple[SourceFile, ...]
    missing: tuple[str, ...]  # paths given that do not exist


def discover(paths: list[str | os.PathLike[str]], settings: Settings) -> Discovery:
    root = settings.root.resolve()
    cwd = Path.cwd()
    excludes = settings.all_excludes
    seen: dict[Path, SourceFile] = {}
    missing: list[str] = []

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
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = directory / entry.name
            rel = rel_to_root(path)
            if any(glob.matches_name(rel, entry.name) for glob in excludes):
                continue
            if entry.is_dir(follow_symlinks=False):
                walk(path)
            elif entry.name.endswith(".py") and entry.is_file():
                add(path)

    for given in paths:
        path = Path(os.path.abspath(given))
        if not path.exists():
            missing.append(os.fspath(given))
            continue
        if settings.force_exclude and any(glob.matches(rel_to_root(path)) for glob in excludes):
            continue
        if path.is_dir():
            walk(path)
        else:
            add(path)
    return Discovery(tuple(sorted(seen.values(), key=lambda f: f.display)), tuple(missing))


def _display(path: Path, cwd: Path) -> str:
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return str(path)
