from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from reference_trainer.pipeline import DataSpec, eval_dataset, eval_steps, train_dataset

pytestmark = pytest.mark.tf


class _Context:
    """A single-pipeline tf.distribute.InputContext stand-in (same three members)."""

    num_input_pipelines = 1
    input_pipeline_id = 0
    num_replicas_in_sync = 1

    def get_per_replica_batch_size(self, global_batch: int) -> int:
        return global_batch


def _spec(prepared_dir: Path) -> DataSpec:
    prepare = json.loads((prepared_dir / "manifest.json").read_text())["prepare"]
    return DataSpec.from_manifest(str(prepared_dir), prepare, mlm_probability=0.15)


def _train(data: DataSpec, start_step: int, steps: int) -> list:
    ds = train_dataset(data, global_batch=8, seed=3, shuffle_buffer=50, start_step=start_step, max_shapes=4,
                       pad_to_multiple_of=8, ctx=_Context())
    return [(f["input_ids"].numpy(), f["attention_mask"].numpy(), labels.numpy()) for f, labels in ds.take(steps)]


def test_train_batches_have_one_static_shape_and_honest_labels(prepared_dir: Path) -> None:
    data = _spec(prepared_dir)
    ds = train_dataset(data, global_batch=8, seed=3, shuffle_buffer=50, start_step=0, max_shapes=4,
                       pad_to_multiple_of=8, ctx=_Context())
    features, labels = ds.element_spec
    assert features["input_ids"].shape.as_list() == [8, 32] and labels.shape.as_list() == [8, 32]
    for ids, mask, labels in _train(data, 0, 12):
        selected = labels != -100
        assert selected.any()
        assert not (selected & (mask == 0)).any()  # padding is never a target
        assert not np.isin(labels[selected], data.masking.excluded_ids).any()


def test_a_resumed_pipeline_continues_with_the_same_batches_and_masks(prepared_dir: Path) -> None:
    data = _spec(prepared_dir)
    full = _train(data, 0, 9)
    resumed = _train(data, 5, 4)
    for a, b in zip(full[5:], resumed):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def _eval(data: DataSpec, batch: int) -> list:
    steps = eval_steps(data, global_batch=batch, num_replicas=1, max_shapes=4, pad_to_multiple_of=8)
    ds = eval_dataset(data, global_batch=batch, seed=0, steps=steps, max_shapes=4, pad_to_multiple_of=8,
                      ctx=_Context())
    return [(f["input_ids"].numpy(), f["attention_mask"].numpy(), labels.numpy()) for f, labels in ds]


@pytest.mark.parametrize("batch", [8, 64, 4096])  # 4096: the eval set is smaller than one batch
def test_eval_sees_every_token_once_in_one_shape_with_fixed_masks(prepared_dir: Path, batch: int) -> None:
    data = _spec(prepared_dir)
    first, second = _eval(data, batch), _eval(data, batch)
    assert {ids.shape for ids, _, _ in first} == {(batch, 32)}
    real_tokens = sum(int(mask.sum()) for _, mask, _ in first)
    manifest = json.loads((prepared_dir / "manifest.json").read_text())["prepare"]
    assert real_tokens == manifest["splits"]["eval"]["tokens"]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[2], b[2])
