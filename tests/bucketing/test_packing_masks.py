"""Packed attention masks: one meaning in numpy, TensorFlow and PyTorch."""

from __future__ import annotations

import os

import numpy as np
import pytest

from bucketing.packing_masks import (
    block_diagonal_mask_np,
    hf_position_ids,
    segment_mask_np,
)

SEGMENTS = np.array([[1, 1, 2, 2, 2, 0], [1, 2, 3, 0, 0, 0]])
POSITIONS = np.array([[0, 1, 0, 1, 2, 0], [0, 0, 0, 0, 0, 0]])


def test_block_diagonal_with_padding_as_its_own_block():
    same = segment_mask_np(SEGMENTS)
    assert same.shape == (2, 6, 6)
    assert same[0].tolist() == [
        [1, 1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0, 0],
        [0, 0, 1, 1, 1, 0],
        [0, 0, 1, 1, 1, 0],
        [0, 0, 1, 1, 1, 0],
        [0, 0, 0, 0, 0, 1],  # padding sees padding only: no fully masked row
    ]
    additive = block_diagonal_mask_np(SEGMENTS)
    assert additive.shape == (2, 1, 6, 6) and additive.dtype == np.float32
    assert np.array_equal(additive[:, 0] == 0, same.astype(bool))
    assert (additive[:, 0][same == 0] == np.finfo(np.float32).min).all()
    assert (block_diagonal_mask_np(SEGMENTS, masked_value=-1e4)[:, 0][same == 0] == -1e4).all()


def test_roberta_positions_start_after_padding_idx():
    assert hf_position_ids(POSITIONS, SEGMENTS, "roberta", 1).tolist() == [
        [2, 3, 2, 3, 4, 1], [2, 2, 2, 1, 1, 1]
    ]
    assert hf_position_ids(POSITIONS, SEGMENTS, "bert", 1) is POSITIONS


def test_tf_builders_match_numpy():
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    tf = pytest.importorskip("tensorflow")
    from bucketing.packing_masks import block_diagonal_mask_tf, segment_mask_tf

    seg = tf.constant(SEGMENTS)
    built = tf.function(lambda s: (segment_mask_tf(s), block_diagonal_mask_tf(s)), jit_compile=True)(seg)
    assert np.array_equal(built[0].numpy(), segment_mask_np(SEGMENTS))
    assert np.array_equal(built[1].numpy(), block_diagonal_mask_np(SEGMENTS))
    positions = hf_position_ids(tf.constant(POSITIONS), seg, "roberta", 1)
    assert np.array_equal(positions.numpy(), hf_position_ids(POSITIONS, SEGMENTS, "roberta", 1))


def test_torch_builders_match_numpy():
    torch = pytest.importorskip("torch")
    from bucketing.packing_masks import block_diagonal_mask_torch, segment_mask_torch

    seg = torch.from_numpy(SEGMENTS)
    assert np.array_equal(segment_mask_torch(seg).numpy(), segment_mask_np(SEGMENTS))
    assert np.array_equal(block_diagonal_mask_torch(seg).numpy(), block_diagonal_mask_np(SEGMENTS))
    positions = hf_position_ids(torch.from_numpy(POSITIONS), seg, "roberta", 1)
    assert np.array_equal(positions.numpy(), hf_position_ids(POSITIONS, SEGMENTS, "roberta", 1))


@pytest.mark.parametrize("bad", [np.zeros(3, dtype=int), np.zeros((1, 3))])
def test_bad_segment_ids(bad):
    with pytest.raises((ValueError, TypeError), match="segment_ids must be"):
        segment_mask_np(bad)
