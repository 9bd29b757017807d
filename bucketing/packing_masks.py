"""Attention masks and position ids for packed rows, in numpy, TensorFlow and PyTorch.

A token may attend to a token of the same segment only. Padding (segment 0) is its own
block: padding queries attend to padding keys and nothing else, so no query row is fully
masked (a fully masked row is a softmax over nothing: NaN with ``-inf`` and a uniform mix of
real tokens with a finite minimum) and no real token ever sees padding.

Two forms, because Hugging Face models accept different ones (read from transformers 4.57):

- ``segment_mask_*``: ``(batch, L, L)``, 1 = may attend. HF's **PyTorch** BERT/RoBERTa take it
  as ``attention_mask`` directly (``ModuleUtilsMixin.get_extended_attention_mask`` accepts a
  3-D mask and makes it additive itself; it raises on a 4-D one).
- ``block_diagonal_mask_*``: ``(batch, 1, L, L)`` additive (0 = attend, ``masked_value``
  elsewhere), what attention layers add to their scores. HF's **TensorFlow** BERT/RoBERTa
  accept neither form through ``call`` (``TFBertMainLayer`` reshapes ``attention_mask`` to
  ``(batch, 1, 1, L)``, so only a 2-D mask fits); :mod:`bucketing.packing_models` passes this
  one to their encoder directly.

The TF and torch builders use only elementwise comparisons and casts: they build the mask on
the device, inside ``jit_compile``/torch_xla graphs, from the small ``segment_ids`` tensor.

Position ids: BERT's positions are ``0, 1, ...`` per segment, as :func:`bucketing.packing.
pack_features` makes them. RoBERTa-family models (HF ``create_position_ids_from_input_ids``)
number real tokens from ``padding_idx + 1`` and give padding ``padding_idx``;
:func:`hf_position_ids` applies that offset. ``padding_idx`` is ``config.pad_token_id`` in
HF's PyTorch RoBERTa and the constant 1 in its TensorFlow RoBERTa (both 1 for roberta-base).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import tensorflow as tf
    import torch

# model types whose embeddings number positions from padding_idx + 1 (HF's RobertaEmbeddings
# and its copies)
PADDING_OFFSET_POSITIONS = frozenset({"roberta", "xlm-roberta", "camembert"})
TF_MASKED_VALUE = -10000.0  # what HF's TF BERT adds at masked positions


def segment_mask_np(segment_ids: np.ndarray) -> np.ndarray:
    """``(batch, L, L)`` int8, 1 where query and key are in the same segment."""
    seg = _check_segments(np.asarray(segment_ids))
    return (seg[:, :, None] == seg[:, None, :]).astype(np.int8)


def block_diagonal_mask_np(
    segment_ids: np.ndarray, dtype: Any = np.float32, masked_value: float | None = None
) -> np.ndarray:
    """``(batch, 1, L, L)`` additive mask: 0 within a segment, ``masked_value`` (default the
    dtype's minimum, as HF's PyTorch models use) across segments."""
    seg = _check_segments(np.asarray(segment_ids))
    fill = np.finfo(dtype).min if masked_value is None else masked_value
    same = seg[:, None, :, None] == seg[:, None, None, :]
    return np.where(same, np.asarray(0, dtype=dtype), np.asarray(fill, dtype=dtype))


def segment_mask_tf(segment_ids: tf.Tensor) -> tf.Tensor:
    """TF-native :func:`segment_mask_np` (int32)."""
    import tensorflow as tf

    seg = tf.convert_to_tensor(segment_ids)
    return tf.cast(tf.equal(seg[:, :, None], seg[:, None, :]), tf.int32)


def block_diagonal_mask_tf(
    segment_ids: tf.Tensor, dtype: Any = "float32", masked_value: float | None = None
) -> tf.Tensor:
    """TF-native :func:`block_diagonal_mask_np`."""
    import tensorflow as tf

    dtype = tf.as_dtype(dtype)
    seg = tf.convert_to_tensor(segment_ids)
    fill = dtype.min if masked_value is None else masked_value
    same = tf.equal(seg[:, None, :, None], seg[:, None, None, :])
    return tf.where(same, tf.constant(0, dtype), tf.constant(fill, dtype))


def segment_mask_torch(segment_ids: torch.Tensor) -> torch.Tensor:
    """torch-native :func:`segment_mask_np` (int64, on ``segment_ids``' device)."""
    return (segment_ids[:, :, None] == segment_ids[:, None, :]).long()


def block_diagonal_mask_torch(
    segment_ids: torch.Tensor, dtype: Any = None, masked_value: float | None = None
) -> torch.Tensor:
    """torch-native :func:`block_diagonal_mask_np` (float32 unless ``dtype``)."""
    import torch

    dtype = dtype or torch.float32
    fill = torch.finfo(dtype).min if masked_value is None else masked_value
    same = segment_ids[:, None, :, None] == segment_ids[:, None, None, :]
    return torch.zeros(same.shape, dtype=dtype, device=segment_ids.device).masked_fill(~same, fill)


def hf_position_ids(position_ids: Any, segment_ids: Any, model_type: str, padding_idx: int = 1) -> Any:
    """Position ids for an HF model of ``model_type`` from packed 0-based ``position_ids``.

    RoBERTa-family: ``position + padding_idx + 1`` on real tokens, ``padding_idx`` on padding
    (what the model computes from ``input_ids`` for an unpacked sequence). Others: unchanged.
    Works on numpy arrays and TF or torch tensors alike (arithmetic and comparisons only).
    """
    if model_type not in PADDING_OFFSET_POSITIONS:
        return position_ids
    real = segment_ids > 0
    if hasattr(real, "astype"):  # numpy
        return np.where(real, position_ids + padding_idx + 1, padding_idx)
    if type(real).__module__.startswith("torch"):
        return (position_ids + padding_idx + 1) * real + padding_idx * (~real)
    import tensorflow as tf

    real = tf.cast(real, position_ids.dtype)
    return (position_ids + padding_idx + 1) * real + padding_idx * (1 - real)


def _check_segments(seg: np.ndarray) -> np.ndarray:
    if seg.ndim != 2:
        raise ValueError(f"segment_ids must be (batch, length), got shape {seg.shape}")
    if not np.issubdtype(seg.dtype, np.integer):
        raise TypeError(f"segment_ids must be integers, got dtype {seg.dtype}")
    return seg
