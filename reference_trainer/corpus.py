"""Where the text comes from: an embedded default, local/``gs://`` text files, or a Hugging Face
dataset already on this machine (a ``save_to_disk`` directory or the offline cache).

A document is a paragraph (text between blank lines, inner line breaks joined). Each document
goes to the eval split by a hash of its text, so the split does not depend on order or seed.
"""

from __future__ import annotations

import inspect
import logging
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from reference_trainer.config import TrainerConfig
from reference_trainer.manifest import StageError

log = logging.getLogger(__name__)

# Modules every CPython install carries, whose docstrings add prose to pydoc's topic texts.
_DOCSTRING_MODULES = (
    "argparse", "asyncio", "collections", "contextlib", "dataclasses", "datetime", "decimal",
    "email.message", "enum", "fractions", "functools", "http.client", "inspect", "io", "itertools",
    "json", "logging", "os", "pathlib", "pickle", "random", "re", "shutil", "socket", "statistics",
    "string", "subprocess", "tarfile", "textwrap", "threading", "typing", "unittest", "urllib.parse",
    "zipfile",
)
_MIN_DOCUMENT_CHARS = 20
# pydoc's topics include ASCII tables and rulers; as masked-LM targets they are mostly spaces.
_MIN_LETTER_SHARE = 0.6


@dataclass(frozen=True)
class CorpusInfo:
    source: str
    documents: int
    eval_documents: int
    characters: int


def describe_source(config: TrainerConfig) -> str:
    if config.train_files:
        return "text files: " + ", ".join(config.train_files)
    if config.hf_dataset:
        return f"Hugging Face dataset {config.hf_dataset}" + (f"/{config.hf_config}" if config.hf_config else "")
    return "embedded default (Python's pydoc topics and standard-library docstrings)"


def _paragraphs(text: str) -> Iterator[str]:
    block: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped:
            block.append(stripped)
        elif block:
            yield " ".join(block)
            block = []
    if block:
        yield " ".join(block)


def _embedded_texts() -> Iterator[str]:
    import importlib

    try:
        from pydoc_data.topics import topics
    except ImportError:  # some distributions package pydoc's data separately
        log.warning("pydoc_data is not installed: the embedded corpus is standard-library docstrings only")
        topics = {}
    for name in sorted(topics):
        yield topics[name]
    for module_name in _DOCSTRING_MODULES:
        module = importlib.import_module(module_name)
        yield inspect.getdoc(module) or ""
        for attr in sorted(vars(module)):
            value = getattr(module, attr)
            if attr.startswith("_") or getattr(value, "__module__", None) != module.__name__:
                continue
            doc = inspect.getdoc(value)
            if doc:
                yield doc


def _file_texts(patterns: tuple[str, ...]) -> Iterator[str]:
    from reference_trainer import storage

    for pattern in patterns:
        paths = sorted(storage.gfile().glob(pattern))
        if not paths:
            raise StageError(f"--train-files {pattern!r} matches no file; check the path or glob")
        for path in paths:
            with storage.gfile().GFile(path, "rb") as handle:
                raw = handle.read()
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise _not_utf8(path, raw[: error.start].count(b"\n") + 1, error.start, error) from None


_CHUNK = 1 << 20


def _not_utf8(path: str, line: int, offset: int, error: UnicodeDecodeError) -> StageError:
    bad = error.object[error.start:error.end]
    return StageError(
        f"--train-files {path} is not UTF-8 text: byte offset {offset} (line {line}) holds "
        f"{bad!r} ({error.reason}); convert it, e.g. iconv -f latin1 -t utf-8"
    )


def check_local_text_file(path: str) -> None:
    """A readable, non-empty UTF-8 text file, or a StageError naming the file (and the byte
    offset of the first invalid byte); read in chunks, so a large corpus costs one pass of I/O."""
    if os.path.isdir(path):
        raise StageError(f"--train-files {path} is a directory; give the text files in it (e.g. '{path}/*.txt')")
    offset, line, carry, text_seen = 0, 1, b"", False
    try:
        with open(path, "rb") as handle:
            while True:
                chunk = handle.read(_CHUNK)
                data = carry + chunk
                if not data:
                    break
                try:
                    data.decode("utf-8")
                    carry = b""
                except UnicodeDecodeError as error:
                    # a multi-byte character cut by the chunk boundary: decode it with the next chunk
                    if chunk and error.end == len(data) and len(data) - error.start < 4:
                        carry = data[error.start:]
                    else:
                        raise _not_utf8(path, line + data[: error.start].count(b"\n"), offset + error.start,
                                        error) from None
                done = data[: len(data) - len(carry)]
                text_seen = text_seen or bool(done.strip())
                line += done.count(b"\n")
                offset += len(done)
                if not chunk:
                    break
    except OSError as error:
        raise StageError(f"--train-files {path} cannot be read ({error.strerror})") from None
    if not text_seen:
        raise StageError(f"--train-files {path} is empty; give a file with text (paragraphs are documents)")


def check_inputs(config: TrainerConfig) -> None:
    """What can be checked without TensorFlow, before it loads: local corpus files exist, hold
    text and are UTF-8; a local --hf-dataset path exists. Remote (gs://) files are checked as
    they are read."""
    import glob

    from reference_trainer.storage import is_url

    for pattern in config.train_files:
        if is_url(pattern):
            continue
        paths = sorted(glob.glob(pattern))
        if not paths:
            raise StageError(f"--train-files {pattern!r} matches no file; check the path or glob")
        for path in paths:
            check_local_text_file(path)
    name = config.hf_dataset
    # A path (not a Hub name such as `wikitext` or `user/name`) that is not there.
    if name and name.startswith((".", "/", "~")) and not os.path.exists(os.path.expanduser(name)):
        raise StageError(f"--hf-dataset {name!r} does not exist; give a save_to_disk directory or a cached name")


def _hf_texts(config: TrainerConfig) -> Iterator[str]:
    # Never download: a run must work offline; the datasets library reads this at import.
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import datasets
    except ImportError as error:
        raise StageError("--hf-dataset needs the `datasets` package: pip install datasets") from error
    name = config.hf_dataset
    assert name is not None
    try:
        if os.path.isdir(name) and _saved_to_disk(name):
            loaded = datasets.load_from_disk(name)
            if isinstance(loaded, datasets.DatasetDict):
                if config.hf_split not in loaded:
                    raise StageError(
                        f"--hf-split {config.hf_split!r} is not in {name} (splits: {sorted(loaded)})"
                    )
                loaded = loaded[config.hf_split]
        else:
            loaded = datasets.load_dataset(
                name, config.hf_config, split=config.hf_split, cache_dir=config.hf_cache_dir
            )
    except StageError:
        raise
    except Exception as error:  # datasets raises many types for "not cached"
        raise StageError(
            f"--hf-dataset {name!r} could not be loaded offline ({type(error).__name__}: {error}); "
            "download it once with datasets.load_dataset(...) or pass a save_to_disk directory"
        ) from error
    if config.hf_text_column not in loaded.column_names:
        raise StageError(
            f"--hf-text-column {config.hf_text_column!r} is not a column of {name} "
            f"(columns: {loaded.column_names})"
        )
    for row in loaded:
        yield row[config.hf_text_column] or ""


def _saved_to_disk(path: str) -> bool:
    """A directory written by ``save_to_disk`` (a Dataset or a DatasetDict); any other directory
    of data files goes to ``load_dataset``, which reads csv/json/parquet/text files offline."""
    return any(os.path.exists(os.path.join(path, marker)) for marker in ("state.json", "dataset_dict.json"))


def iter_documents(config: TrainerConfig) -> Iterator[str]:
    """Every document of the configured source, in a deterministic order."""
    if config.train_files:
        texts = _file_texts(config.train_files)
    elif config.hf_dataset:
        texts = _hf_texts(config)
    else:
        texts = _embedded_texts()
    embedded = not (config.train_files or config.hf_dataset)
    count = 0
    for text in texts:
        for paragraph in _paragraphs(text):
            if len(paragraph) < _MIN_DOCUMENT_CHARS:
                continue
            if embedded and sum(c.isalpha() for c in paragraph) < _MIN_LETTER_SHARE * len(paragraph):
                continue
            yield paragraph
            count += 1
            if config.max_documents is not None and count >= config.max_documents:
                return


def is_eval_document(text: str, eval_fraction: float) -> bool:
    return zlib.crc32(text.encode("utf-8")) % 100_000 < eval_fraction * 100_000


def split_documents(config: TrainerConfig) -> tuple[list[str], list[str], CorpusInfo]:
    train: list[str] = []
    evaluation: list[str] = []
    characters = 0
    for document in iter_documents(config):
        (evaluation if is_eval_document(document, config.eval_fraction) else train).append(document)
        characters += len(document)
    if not train or not evaluation:
        raise StageError(
            f"the corpus ({describe_source(config)}) gave {len(train)} train and {len(evaluation)} eval "
            "documents; give more text or change --eval-fraction"
        )
    info = CorpusInfo(describe_source(config), len(train) + len(evaluation), len(evaluation), characters)
    log.info("corpus: %s: %d documents (%d eval), %d characters", info.source, info.documents,
             info.eval_documents, characters)
    return train, evaluation, info
