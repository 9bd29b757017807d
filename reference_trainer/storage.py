"""Paths that may be local or a URL (``gs://...``): URLs through ``tf.io.gfile``, local paths
through the standard library (so the PyTorch path and a local run never import TensorFlow).

Whether a path is remote is decided by its URL scheme, never by a substring such as ``"gs"``
(the reference scripts treated any output directory containing "gs" as a bucket).
"""

from __future__ import annotations

import glob
import os
import posixpath
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlparse


def is_url(path: str) -> bool:
    scheme = urlparse(path).scheme
    # A one-letter scheme is a Windows drive ("C:\\..."), not a URL.
    return len(scheme) > 1 and scheme != "file"


def join(base: str, *parts: str) -> str:
    return posixpath.join(base, *parts) if is_url(base) else os.path.join(base, *parts)


class _LocalFiles:
    """The subset of ``tf.io.gfile`` this package uses, for local paths, on the standard library."""

    @staticmethod
    def GFile(path: str, mode: str = "r") -> Any:  # noqa: N802 - tf.io.gfile's name
        return open(path, mode) if "b" in mode else open(path, mode, encoding="utf-8")

    @staticmethod
    def exists(path: str) -> bool:
        return os.path.exists(path)

    @staticmethod
    def makedirs(path: str) -> None:
        os.makedirs(path, exist_ok=True)

    @staticmethod
    def rename(src: str, dst: str, overwrite: bool = False) -> None:
        if not overwrite and os.path.exists(dst):
            raise FileExistsError(dst)
        os.replace(src, dst)

    @staticmethod
    def stat(path: str) -> Any:
        return SimpleNamespace(length=os.stat(path).st_size)

    @staticmethod
    def copy(src: str, dst: str, overwrite: bool = False) -> None:
        if not overwrite and os.path.exists(dst):
            raise FileExistsError(dst)
        shutil.copyfile(src, dst)

    @staticmethod
    def listdir(path: str) -> list[str]:
        return os.listdir(path)

    @staticmethod
    def glob(pattern: str) -> list[str]:
        return glob.glob(pattern)

    @staticmethod
    def walk(path: str) -> Iterator[tuple[str, list[str], list[str]]]:
        return os.walk(path)


class _Files:
    """``tf.io.gfile`` for URLs, :class:`_LocalFiles` for local paths, chosen per call by the
    first path argument (TensorFlow is imported only when a URL is used)."""

    def __getattr__(self, name: str) -> Any:
        def call(path: str, *args: Any, **kwargs: Any) -> Any:
            if is_url(path) or (args and isinstance(args[0], str) and is_url(args[0])):
                import tensorflow as tf

                return getattr(tf.io.gfile, name)(path, *args, **kwargs)
            return getattr(_LocalFiles, name)(path, *args, **kwargs)

        return call


_FILES = _Files()


def gfile() -> Any:
    return _FILES


def exists(path: str) -> bool:
    # Local paths without TensorFlow: the CLI reads the manifest before TensorFlow loads.
    return os.path.exists(path) if not is_url(path) else bool(gfile().exists(path))


def makedirs(path: str) -> None:
    gfile().makedirs(path)


def read_text(path: str) -> str:
    if not is_url(path):
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    with gfile().GFile(path, "r") as handle:
        return handle.read()


def write_text_atomic(path: str, text: str) -> None:
    """Write then rename, so a crash never leaves a half-written manifest behind."""
    tmp = path + ".tmp"
    with gfile().GFile(tmp, "w") as handle:
        handle.write(text)
    gfile().rename(tmp, path, overwrite=True)


def size(path: str) -> int:
    return int(gfile().stat(path).length)


def copy_tree(local_dir: str, target_dir: str) -> None:
    """Copy a local directory's files to ``target_dir`` (local or URL), replacing what is there."""
    g = gfile()
    g.makedirs(target_dir)
    for root, _dirs, files in os.walk(local_dir):
        rel = os.path.relpath(root, local_dir)
        dest_root = target_dir if rel == "." else join(target_dir, *rel.split(os.sep))
        g.makedirs(dest_root)
        for name in files:
            g.copy(os.path.join(root, name), join(dest_root, name), overwrite=True)


@contextmanager
def local_copy(source_dir: str) -> Iterator[str]:
    """A local path holding ``source_dir``: the path itself when it is local, else a temporary
    download of it, removed on exit (transformers' ``from_pretrained`` reads local paths only)."""
    if not is_url(source_dir):
        yield source_dir
        return
    with tempfile.TemporaryDirectory(prefix="reference_trainer_") as tmp:
        g = gfile()
        for root, _dirs, files in g.walk(source_dir):
            rel = root[len(source_dir):].lstrip("/")
            os.makedirs(os.path.join(tmp, rel), exist_ok=True)
            for name in files:
                g.copy(join(root, name), os.path.join(tmp, rel, name), overwrite=True)
        yield tmp
