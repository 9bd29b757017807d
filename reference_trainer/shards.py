"""The `prepare` stage: corpus -> tokenizer -> token ids -> blocks or sequences -> TFRecord shards.

Fixed-block mode (default) tokenizes every document as ``<s> ... </s>``, concatenates them and
cuts blocks of ``block_length`` ids; only the last block of a split may be shorter (it is padded
in the pipeline, so no token is dropped). Bucketing mode keeps one record per document,
truncated to ``block_length``, and records the length histogram the bucketing pipeline fits its
shapes to. Record counts, byte sizes, token counts and the tokenizer hash go to the manifest;
a later stage verifies them before reading.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from reference_trainer import storage
from reference_trainer.config import DATA_FIELDS, TrainerConfig
from reference_trainer.corpus import split_documents
from reference_trainer.manifest import (
    StageError,
    check_fields,
    config_fields,
    manifest_path,
    read_manifest,
    write_section,
)
from reference_trainer.tokenizer import file_sha256, save_tokenizer, train_tokenizer

log = logging.getLogger(__name__)

TOKENIZER_DIR = "tokenizer"
DATA_DIR = "data"
SPLITS = ("train", "eval")


@dataclass(frozen=True)
class PrepareResult:
    output_dir: str
    reused: bool
    train_records: int
    eval_records: int
    train_tokens: int
    vocab_size: int
    layout: str
    artifacts: tuple[str, ...]


def _encode(tokenizer: Any, documents: Sequence[str]) -> Iterator[list[int]]:
    batch = 1000
    for start in range(0, len(documents), batch):
        for encoding in tokenizer.encode_batch(list(documents[start:start + batch])):
            yield encoding.ids


def blocks(sequences: Iterator[list[int]], block_length: int) -> Iterator[list[int]]:
    """Concatenate and cut into ``block_length`` ids; the last block keeps the remainder."""
    buffer: list[int] = []
    for ids in sequences:
        buffer.extend(ids)
        while len(buffer) >= block_length:
            yield buffer[:block_length]
            buffer = buffer[block_length:]
    if buffer:
        yield buffer


def truncated(sequences: Iterator[list[int]], max_length: int, eos_id: int) -> Iterator[list[int]]:
    for ids in sequences:
        yield ids if len(ids) <= max_length else ids[: max_length - 1] + [eos_id]


def _write_split(records: Iterator[list[int]], output_dir: str, split: str, per_shard: int) -> dict[str, Any]:
    """TFRecord shards of ``tf.train.Example`` (``input_ids``: Int64List), written without
    TensorFlow by :mod:`reference_trainer.tfrecord` (byte-identical to ``tf.io.TFRecordWriter``)."""
    from reference_trainer.tfrecord import encode_int64_example, write_records

    shards: list[dict[str, Any]] = []
    lengths: Counter[int] = Counter()
    handle: Any = None
    current = 0

    def close() -> None:
        if handle is not None:
            handle.close()
            path = storage.join(output_dir, shards[-1]["file"])
            shards[-1].update(records=current, bytes=storage.size(path))

    for ids in records:
        if handle is None or current == per_shard:
            close()
            name = f"{DATA_DIR}/{split}-{len(shards):05d}.tfrecord"
            shards.append({"file": name})
            handle = storage.gfile().GFile(storage.join(output_dir, name), "wb")
            current = 0
        write_records(handle, [encode_int64_example("input_ids", ids)])
        lengths[len(ids)] += 1
        current += 1
    close()
    return {
        "records": sum(lengths.values()),
        "tokens": sum(length * count for length, count in lengths.items()),
        "shards": shards,
        "length_histogram": {str(length): count for length, count in sorted(lengths.items())},
    }


def verify_prepared(output_dir: str, section: dict[str, Any]) -> None:
    """Every shard present with its recorded size, and the tokenizer the shards were cut with."""
    path = manifest_path(output_dir)
    for split in SPLITS:
        for shard in section["splits"][split]["shards"]:
            shard_path = storage.join(output_dir, shard["file"])
            if not storage.exists(shard_path):
                raise StageError(
                    f"shard {shard_path} listed in {path} is missing; run `prepare` again "
                    "into a new --output-dir"
                )
            actual = storage.size(shard_path)
            if actual != shard["bytes"]:
                raise StageError(
                    f"shard {shard_path} is corrupt: {actual} bytes, {path} says {shard['bytes']}; "
                    "run `prepare` again into a new --output-dir"
                )
    tokenizer_dir = storage.join(output_dir, TOKENIZER_DIR)
    try:
        digest = file_sha256(tokenizer_dir)
    except Exception as error:  # NotFoundError and friends: one clear line instead
        raise StageError(f"tokenizer in {tokenizer_dir} cannot be read ({error}); run `prepare` again") from error
    if digest != section["tokenizer"]["sha256"]:
        raise StageError(
            f"tokenizer in {tokenizer_dir} changed since the shards were written (sha256 {digest[:12]} "
            f"!= {section['tokenizer']['sha256'][:12]} in {path}); run `prepare` again"
        )


def corrupt_shard_error(output_dir: str, error: Exception) -> StageError:
    """The one-line error for a record that fails its CRC while reading (a DataLossError):
    the start-up size check catches truncation, a flipped byte only shows here."""
    detail = str(error).splitlines()[0].split("}}")[-1].strip()
    return StageError(
        f"a shard under {storage.join(output_dir, DATA_DIR)} is corrupt ({detail}); "
        "run `prepare` again into a new --output-dir"
    )


def prepare(config: TrainerConfig) -> PrepareResult:
    out = config.output_dir
    manifest = read_manifest(out)
    if manifest is not None and "prepare" in manifest:
        section = manifest["prepare"]
        check_fields(config, section["config"], DATA_FIELDS, out, "prepare")
        verify_prepared(out, section)
        log.info("prepare: reusing the shards and tokenizer recorded in %s", manifest_path(out))
        return _result(out, section, reused=True)

    storage.makedirs(storage.join(out, DATA_DIR))
    train_docs, eval_docs, corpus_info = split_documents(config)
    tokenizer = train_tokenizer(train_docs, config.vocab_size)
    tokenizer_info = save_tokenizer(tokenizer, storage.join(out, TOKENIZER_DIR))
    eos = tokenizer_info.eos_token_id
    splits = {}
    for split, docs in (("train", train_docs), ("eval", eval_docs)):
        ids = _encode(tokenizer, docs)
        records = (
            truncated(ids, config.block_length, eos) if config.bucketing else blocks(ids, config.block_length)
        )
        splits[split] = _write_split(records, out, split, config.records_per_shard)
        log.info("prepare: %s: %d records, %d tokens in %d shards", split, splits[split]["records"],
                 splits[split]["tokens"], len(splits[split]["shards"]))
    section = {
        "config": config_fields(config, DATA_FIELDS),
        "corpus": asdict(corpus_info),
        "tokenizer": {**tokenizer_info.to_dict(), "path": TOKENIZER_DIR},
        "layout": "sequences" if config.bucketing else "blocks",
        "block_length": config.block_length,
        "features": {"input_ids": {"dtype": "int64", "max_length": config.block_length}},
        "splits": splits,
    }
    write_section(out, "prepare", section)
    return _result(out, section, reused=False)


def _result(out: str, section: dict[str, Any], *, reused: bool) -> PrepareResult:
    splits = section["splits"]
    artifacts = [storage.join(out, TOKENIZER_DIR), manifest_path(out)]
    artifacts += [storage.join(out, s["file"]) for split in SPLITS for s in splits[split]["shards"]]
    return PrepareResult(
        output_dir=out, reused=reused, train_records=splits["train"]["records"],
        eval_records=splits["eval"]["records"], train_tokens=splits["train"]["tokens"],
        vocab_size=section["tokenizer"]["vocab_size"], layout=section["layout"], artifacts=tuple(artifacts),
    )
