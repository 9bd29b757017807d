"""A Hugging Face-compatible collator that pads every batch to one of ``spec.shapes()``.

It pads with a handful of vectorized numpy operations per batch (one flat copy of all
tokens, one boolean scatter), instead of a Python loop per row and key, and masks for MLM
with :func:`bucketing.masking.mask_tokens_np`. Framework conversion happens last, with the
framework imported only when ``return_tensors`` asks for it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Literal

import numpy as np

from bucketing.batching import DummyRow
from bucketing.masking import MaskingSpec, mask_tokens_np
from bucketing.spec import BucketSpec, Overlong, check_overlong, overlong_error

ReturnTensors = Literal["np", "tf", "pt", "jax"]
RETURN_TENSORS: tuple[str, ...] = ("np", "tf", "pt", "jax")
LABEL_KEYS = frozenset({"labels", "label", "label_ids"})
IGNORE_INDEX = -100  # Hugging Face's "no label here"
# what padding holds, per key (HF's tokenizer.pad marks padding as special)
_SEQUENCE_PAD = {"attention_mask": 0, "token_type_ids": 0, "special_tokens_mask": 1}


@dataclass(frozen=True)
class BucketingCollator:
    """``collator(features) -> dict`` of arrays shaped like one of ``spec.shapes()``.

    ``features`` is a list of dicts (``input_ids`` and optionally ``attention_mask``,
    ``token_type_ids``, ``special_tokens_mask``, ``labels``, scalar keys) and
    :class:`~bucketing.batching.DummyRow` placeholders. The batch goes to the bucket of its
    longest sequence; with ``pad_rows`` (default) it is filled up to that bucket's batch size
    with dummy rows (attention_mask 0, labels -100, ``sample_weight`` 0). With ``masking``, the
    result holds MLM-masked ``input_ids`` and ``labels`` (padding and special tokens never
    selected), as ``DataCollatorForLanguageModeling`` does.
    """

    spec: BucketSpec
    pad_token_id: int = 0
    return_tensors: ReturnTensors = "np"
    padding_side: Literal["right", "left"] = "right"
    masking: MaskingSpec | None = None
    seed: int | None = None
    overlong: Overlong = "error"
    pad_rows: bool = True
    sample_weight_key: str | None = "sample_weight"
    label_pad_id: int = -100
    dtype: Any = np.int64
    _rng: np.random.Generator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.return_tensors not in RETURN_TENSORS:
            raise ValueError(
                f"BucketingCollator.return_tensors must be one of {RETURN_TENSORS}, "
                f"got {self.return_tensors!r}"
            )
        if self.padding_side not in ("right", "left"):
            raise ValueError(
                f"BucketingCollator.padding_side must be 'right' or 'left', got {self.padding_side!r}"
            )
        check_overlong(self.overlong, "BucketingCollator")
        object.__setattr__(self, "_rng", np.random.default_rng(self.seed))

    def __call__(self, features: Sequence[Mapping[str, Any] | DummyRow]) -> dict[str, Any]:
        return convert(self.collate_np(features), self.return_tensors)

    def collate_np(self, features: Sequence[Mapping[str, Any] | DummyRow]) -> dict[str, np.ndarray]:
        rows_in = _read_rows(features)
        rows_in = self._handle_overlong(rows_in)
        layout = self._layout(rows_in, len(features))
        first = rows_in.real[0] if rows_in.real else _template(features)
        flat, scalars = self._flat_columns(rows_in, layout, first)
        token_weight = self._mask_and_weigh_labels(flat)
        batch = self._pad(flat, layout)
        for key, values in scalars.items():
            column = np.full(
                layout.rows, self.label_pad_id if key in LABEL_KEYS else 0, dtype=np.asarray(first[key]).dtype
            )
            column[rows_in.positions] = values
            batch[key] = column
        _rename_label_aliases(batch)
        if self.sample_weight_key is not None:
            batch[self.sample_weight_key] = _sample_weight(token_weight, layout, rows_in.positions)
        return batch

    def _handle_overlong(self, rows: _Rows) -> _Rows:
        """``overlong``: "error" raises, "drop" turns each overlong row into a dummy row (the row
        count holds), "truncate" keeps them (cut to the bucket's width by :meth:`_flat_columns`)."""
        longest = int(rows.lengths.max()) if len(rows.lengths) else 0
        if longest <= self.spec.max_length or self.overlong == "truncate":
            return rows
        if self.overlong == "error":
            raise overlong_error(longest, self.spec, "BucketingCollator")
        keep = rows.lengths <= self.spec.max_length
        return _Rows(
            real=[r for r, k in zip(rows.real, keep) if k],
            positions=[p for p, k in zip(rows.positions, keep) if k],
            sequences=[s for s, k in zip(rows.sequences, keep) if k],
            lengths=rows.lengths[keep],
            dummy_buckets=rows.dummy_buckets,
        )

    def _layout(self, rows_in: _Rows, count: int) -> _Layout:
        """The bucket of the longest row (or of a dummy row), its shape and where tokens go."""
        lengths = rows_in.lengths
        longest = int(lengths.max()) if len(lengths) else 0
        buckets = list(rows_in.dummy_buckets)
        if len(lengths):
            buckets.append(bisect_left(self.spec.boundaries, min(longest, self.spec.max_length)))
        bucket = max(buckets, default=0)  # every row dropped: an all-dummy batch of bucket 0
        width = self.spec.boundaries[bucket]
        rows = self.spec.batch_sizes[bucket] if self.pad_rows else count
        if count > rows:
            raise ValueError(
                f"BucketingCollator: got {count} rows for bucket {bucket} whose batch size "
                f"is {rows}; form batches with bucketing.BatchFormer, or use a DataLoader "
                f"batch_size <= {min(self.spec.batch_sizes)}"
            )
        cut = longest > width  # only overlong="truncate" gets here with rows to cut
        kept = np.minimum(lengths, width) if cut else lengths
        row_lengths = np.zeros(rows, dtype=np.int64)
        row_lengths[rows_in.positions] = kept
        positions = np.arange(width)
        if self.padding_side == "right":
            filled = positions[None, :] < row_lengths[:, None]
        else:
            filled = positions[None, :] >= (width - row_lengths)[:, None]
        return _Layout(rows, width, filled, kept if cut else None, int(kept.sum()))

    def _flat_columns(self, rows_in: _Rows, layout: _Layout, first: Mapping[str, Any]
                      ) -> tuple[dict[str, np.ndarray], dict[str, list[Any]]]:
        """Every per-token key as one flat array of real tokens in row order; scalar keys as lists."""
        flat = {"input_ids": _flatten(rows_in.sequences, layout.cut_to, layout.total, self.dtype, "input_ids")}
        scalars: dict[str, list[Any]] = {}
        for key in first:
            if key == "input_ids":
                continue
            values = [f[key] for f in rows_in.real]
            if _is_sequence(first[key]):
                sample = np.asarray(first[key][:1])
                dtype = self.dtype if sample.dtype.kind in "iub" or not sample.size else sample.dtype
                flat[key] = _flatten(values, layout.cut_to, layout.total, dtype, key)
            else:
                scalars[key] = values
        _rename_label_aliases(flat)
        return flat, scalars

    def _mask_and_weigh_labels(self, flat: dict[str, np.ndarray]) -> np.ndarray | None:
        """MLM-mask the real tokens (with ``masking``); per-token weights: 1 where a label counts,
        0 elsewhere (None without per-token labels). Ignored labels become ``label_pad_id``."""
        if self.masking is not None:
            # masking the real tokens only: padding is never a candidate and costs nothing
            special = flat.pop("special_tokens_mask", None)
            flat["input_ids"], flat["labels"] = mask_tokens_np(
                flat["input_ids"], self.masking, self._rng, special_tokens_mask=special
            )
            ignore_index = self.masking.ignore_index
        elif "labels" in flat:
            ignore_index = IGNORE_INDEX
        else:
            return None
        ignored = flat["labels"] == ignore_index
        if self.label_pad_id != ignore_index:
            flat["labels"][ignored] = self.label_pad_id
        return (~ignored).astype(np.float32)

    def _pad(self, flat: dict[str, np.ndarray], layout: _Layout) -> dict[str, np.ndarray]:
        """Each flat key scattered into a (rows, width) array of its padding value."""
        batch: dict[str, np.ndarray] = {}
        for key, values in flat.items():
            if key == "input_ids":
                fill = self.pad_token_id
            else:
                fill = self.label_pad_id if key in LABEL_KEYS else _SEQUENCE_PAD.get(key, 0)
            padded = np.full((layout.rows, layout.width), fill, dtype=values.dtype)
            padded[layout.filled] = values
            batch[key] = padded
        if "attention_mask" not in batch:
            batch["attention_mask"] = layout.filled.astype(self.dtype)
        return batch


@dataclass(frozen=True)
class _Rows:
    """The real rows of a batch (with their places in it) and the buckets of its dummy rows."""

    real: list[Mapping[str, Any]]
    positions: list[int]
    sequences: list[Any]
    lengths: np.ndarray
    dummy_buckets: list[int]


@dataclass(frozen=True)
class _Layout:
    """The padded batch's shape and which of its cells hold real tokens."""

    rows: int
    width: int
    filled: np.ndarray  # (rows, width) bool
    cut_to: np.ndarray | None  # tokens kept per real row, when overlong rows are truncated
    total: int  # real tokens kept


def _read_rows(features: Sequence[Mapping[str, Any] | DummyRow]) -> _Rows:
    if isinstance(features, (str, bytes, Mapping)):
        raise TypeError(
            f"BucketingCollator: features must be a list of examples (dicts), got one {type(features).__name__}; "
            "pass a list, e.g. collator([tokenizer(text) for text in texts])"
        )
    try:  # the common case, no dummy rows: one pass
        sequences = [f["input_ids"] for f in features]  # type: ignore[index]
        real = list(features)
        real_positions = list(range(len(features)))
        dummy_buckets: list[int] = []
    except (TypeError, KeyError, IndexError):
        real_positions = [i for i, f in enumerate(features) if not isinstance(f, DummyRow)]
        real = [features[i] for i in real_positions]
        dummy_buckets = [f.bucket for f in features if isinstance(f, DummyRow)]
        for i in real_positions:
            _check_feature(features[i], i)
        sequences = [f["input_ids"] for f in real]  # type: ignore[index]
    if not real and not dummy_buckets:
        raise ValueError("BucketingCollator: got an empty batch")
    lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    return _Rows(real, real_positions, sequences, lengths, dummy_buckets)  # type: ignore[arg-type]


def _rename_label_aliases(columns: dict[str, Any]) -> None:
    for alias in ("label", "label_ids"):  # Hugging Face's collators call them all "labels"
        if alias in columns and "labels" not in columns:
            columns["labels"] = columns.pop(alias)


def _sample_weight(token_weight: np.ndarray | None, layout: _Layout, real_positions: list[int]) -> np.ndarray:
    """Per token when labels are per token (Keras multiplies the per-token loss by them; one weight
    per row would not match the labels' shape), else 1 per real row; 0 for padding and dummy rows."""
    if token_weight is not None:
        per_token = np.zeros((layout.rows, layout.width), dtype=np.float32)
        per_token[layout.filled] = token_weight
        return per_token
    per_row = np.zeros(layout.rows, dtype=np.float32)
    per_row[real_positions] = 1.0
    return per_row


def _check_feature(feature: Any, index: int) -> None:
    """One clear error for an example the collator cannot read."""
    if isinstance(feature, (str, bytes)):
        raise TypeError(
            f"BucketingCollator: feature {index} is text ({feature[:20]!r}...), not a tokenized example; "
            "pass dicts with 'input_ids', e.g. collator([tokenizer(text) for text in texts])"
        )
    if not isinstance(feature, Mapping):
        raise TypeError(
            f"BucketingCollator: feature {index} is a {type(feature).__name__}; expected a dict with "
            "'input_ids' (or a DummyRow)"
        )
    if "input_ids" not in feature:
        raise ValueError(
            f"BucketingCollator: feature {index} has no 'input_ids' (keys: {sorted(feature)}); rename the "
            "token-id column to 'input_ids'"
        )


def _template(features: Sequence[Mapping[str, Any] | DummyRow]) -> Mapping[str, Any]:
    """The keys of a batch with no real row: from a dummy row's template, else input_ids only."""
    for f in features:
        if isinstance(f, DummyRow) and isinstance(f.template, Mapping):
            return f.template
    return {"input_ids": []}


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)


def _flatten(values: list[Any], cut_to: np.ndarray | None, total: int, dtype: Any, key: str) -> np.ndarray:
    """All rows' values (the first ``cut_to[i]`` of row i, when given) concatenated in one pass."""
    if not values:
        return np.empty(0, dtype=dtype)
    if cut_to is not None:
        values = [v[:n] for v, n in zip(values, cut_to.tolist())]
    if sum(map(len, values)) != total:
        raise ValueError(f"BucketingCollator: {key!r} and 'input_ids' differ in length in some row")
    if isinstance(values[0], np.ndarray):
        return np.concatenate(values).astype(dtype, copy=False)
    return np.fromiter(chain.from_iterable(values), dtype=dtype, count=total)


def convert(batch: dict[str, np.ndarray], return_tensors: str) -> dict[str, Any]:
    """numpy arrays to the requested framework's tensors; the framework is imported here."""
    if return_tensors == "np":
        return batch
    if return_tensors == "tf":
        import tensorflow as tf

        return {k: tf.convert_to_tensor(v) for k, v in batch.items()}
    if return_tensors == "pt":
        try:
            import torch
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("return_tensors='pt' needs PyTorch: pip install torch") from error
        return {k: torch.from_numpy(v) for k, v in batch.items()}
    if return_tensors == "jax":
        try:
            import jax.numpy as jnp
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("return_tensors='jax' needs JAX: pip install jax") from error
        return {k: jnp.asarray(v) for k, v in batch.items()}
    raise ValueError(f"return_tensors must be one of {RETURN_TENSORS}, got {return_tensors!r}")
