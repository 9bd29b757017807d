from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_trainer.manifest import ManifestMismatch, StageError
from reference_trainer.shards import blocks, prepare, verify_prepared
from tests.reference_trainer.conftest import copy_prepared, tiny_config

pytestmark = pytest.mark.tf


@given(st.lists(st.lists(st.integers(0, 99), max_size=40), max_size=20), st.integers(1, 16))
def test_blocks_keep_every_token_in_order(sequences: list[list[int]], length: int) -> None:
    cut = list(blocks(iter(sequences), length))
    assert [t for b in cut for t in b] == [t for s in sequences for t in s]
    assert all(len(b) == length for b in cut[:-1])
    assert all(0 < len(b) <= length for b in cut)


def _records(path: Path) -> list[list[int]]:
    import tensorflow as tf

    return [
        list(tf.train.Example.FromString(r.numpy()).features.feature["input_ids"].int64_list.value)
        for r in tf.data.TFRecordDataset(str(path))
    ]


def test_manifest_counts_match_the_shards(prepared_dir: Path) -> None:
    manifest = json.loads((prepared_dir / "manifest.json").read_text())["prepare"]
    for split in ("train", "eval"):
        info = manifest["splits"][split]
        rows = [r for shard in info["shards"] for r in _records(prepared_dir / shard["file"])]
        assert len(rows) == info["records"] == sum(s["records"] for s in info["shards"])
        assert sum(map(len, rows)) == info["tokens"]
        assert all(len(r) == 32 for r in rows[:-1])
        assert len(info["shards"]) > 1 or info["records"] <= 40


def test_tokenizer_dir_loads_with_transformers(prepared_dir: Path) -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(prepared_dir / "tokenizer")
    assert (tok.bos_token_id, tok.pad_token_id, tok.eos_token_id) == (0, 1, 2)
    assert tok.mask_token == "<mask>" and tok.mask_token_id == len(tok) - 1 == 299
    ids = tok("Return the value.")["input_ids"]
    assert ids[0] == 0 and ids[-1] == 2


def test_second_prepare_reuses_and_a_changed_field_is_rejected(prepared_dir: Path, tmp_path: Path) -> None:
    out = copy_prepared(prepared_dir, tmp_path / "run")
    assert prepare(tiny_config(out)).reused
    with pytest.raises(ManifestMismatch, match=r"--vocab-size=400 does not match .*manifest.json \(vocab_size=300"):
        prepare(tiny_config(out, vocab_size=400))


def test_missing_shard_is_one_clear_error(prepared_dir: Path, tmp_path: Path) -> None:
    out = copy_prepared(prepared_dir, tmp_path / "run")
    (out / "data" / "train-00001.tfrecord").unlink()
    section = json.loads((out / "manifest.json").read_text())["prepare"]
    with pytest.raises(StageError, match=r"shard .*train-00001.tfrecord listed in .* is missing; run `prepare`"):
        verify_prepared(str(out), section)


def test_truncated_shard_is_one_clear_error(prepared_dir: Path, tmp_path: Path) -> None:
    out = copy_prepared(prepared_dir, tmp_path / "run")
    shard = out / "data" / "eval-00000.tfrecord"
    shard.write_bytes(shard.read_bytes()[:-7])
    section = json.loads((out / "manifest.json").read_text())["prepare"]
    with pytest.raises(StageError, match=r"eval-00000.tfrecord is corrupt: \d+ bytes, .* says \d+"):
        verify_prepared(str(out), section)


def test_text_files_and_a_saved_hf_dataset_are_corpora(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    from pydoc_data.topics import topics

    text = "\n\n".join(topics[k] for k in sorted(topics)[:25])
    (tmp_path / "a.txt").write_text(text)
    from_files = prepare(tiny_config(tmp_path / "files", train_files=(str(tmp_path / "*.txt"),), max_documents=None))
    rows = [{"text": line} for line in text.splitlines()]
    datasets.DatasetDict({"train": datasets.Dataset.from_list(rows)}).save_to_disk(str(tmp_path / "hf"))
    from_hf = prepare(tiny_config(tmp_path / "hfrun", hf_dataset=str(tmp_path / "hf"), max_documents=None))
    (tmp_path / "hf_files").mkdir()
    datasets.Dataset.from_list(rows).to_json(str(tmp_path / "hf_files" / "part.jsonl"))
    from_data_files = prepare(tiny_config(tmp_path / "jsonrun", hf_dataset=str(tmp_path / "hf_files"), max_documents=None))
    assert from_files.train_records > 0 and from_hf.train_records > 0
    assert from_data_files.train_tokens == from_hf.train_tokens  # same rows, same documents
    with pytest.raises(StageError, match="--train-files .* matches no file"):
        prepare(tiny_config(tmp_path / "none", train_files=(str(tmp_path / "*.md"),)))
    with pytest.raises(StageError, match="--hf-dataset 'no_such_dataset_xyz' could not be loaded offline"):
        prepare(tiny_config(tmp_path / "none2", hf_dataset="no_such_dataset_xyz"))
