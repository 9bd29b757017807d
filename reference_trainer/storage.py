"""Paths that may be local or a URL (``gs://...``), all through ``tf.io.gfile``.

Whether a path is remote is decided by its URL scheme, never by a substring such as ``"gs"``
(the reference scripts treated any output directory containing "gs" as a bucket).
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse


def is_url(path: str) -> bool:
    scheme = urlparse(path).scheme
    # A one-letter scheme is a Windows drive ("C:\\..."), not a URL.
    return len(scheme) > 1 and scheme != "file"


def join(base: str, *parts: str) -> str:
    return posixpath.join(base, *parts) if is_url(base) else os.path.join(base, *parts)


def gfile():  # noqa: ANN201 - tf.io.gfile has no importable type
    import tensorflow as tf

    return tf.io.gfile


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
