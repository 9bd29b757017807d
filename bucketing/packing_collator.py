"""PackingCollator: packed rows in one of ``spec.shapes()``, with the bucketing collator's interface.

``collator(features) -> dict`` of arrays (``return_tensors`` "np", "tf", "pt" or "jax"). Each
bucket of the spec is a packed shape ``(rows, width)``: the examples of a call are packed by
best-fit decreasing into the narrowest bucket whose rows hold them (falling back to packing
them in the given order, narrowest bucket first, which :func:`bucketing.packing.pack_batches`
guarantees to fit in the width its rows were planned at), and
missing rows are dummy rows (segment 0 everywhere, labels -100). So the model sees at most
``len(spec.shapes())`` shapes, all known up front; one or two are enough (the widest for full
batches, a narrow one for the last).

Keys: ``input_ids``, ``segment_ids`` (0 = padding), ``position_ids`` (restarting per example;
RoBERTa's offset when ``model_type`` asks for it), ``segment_starts`` (rows x
``max_segments``), per-token keys packed, scalar keys per segment (rows x ``max_segments``;
one classification label per example). ``attention_mask``: "none" (default: build it on the
device with :mod:`bucketing.packing_masks`, a few bytes per token to transfer instead of L per
token), "segment" (``(rows, L, L)`` 0/1, what HF's PyTorch encoders take as
``attention_mask``) or "additive" (``(rows, 1, L, L)`` float32). A 2-D padding mask is never
produced: it would let every token attend to its row's other examples.

An empty ``features`` list gives a batch of dummy rows in the widest shape (a replica's empty
share of the last global batch, see :func:`bucketing.packing.pack_batches`); it has no
per-segment scalar keys (no example to take them from), labels only with ``masking`` or
``causal_lm``.

``max_segments`` (default 64) caps the examples per row, so the per-segment arrays have a
static shape; a low cap costs padding on short texts (stdlib docstrings, ``benchmarks/
bucketing.py`` section 1b: 17% padding with 16, 2.1% with 64).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from bucketing.collator import RETURN_TENSORS, ReturnTensors, convert
from bucketing.masking import MaskingSpec, mask_tokens_np
from bucketing.packing import (
    IGNORE_INDEX,
    PackingPlan,
    pack_features,
    plan_next_fit,
    plan_packing,
)
from bucketing.packing_masks import (
    block_diagonal_mask_np,
    hf_position_ids,
    segment_mask_np,
)
from bucketing.spec import BucketSpec, Overlong, check_overlong

AttentionMaskForm = Literal["none", "segment", "additive"]
ATTENTION_MASK_FORMS: tuple[str, ...] = ("none", "segment", "additive")


@dataclass(frozen=True)
class PackingCollator:
    """Packs a list of examples (dicts with ``input_ids``) into one of ``spec.shapes()``."""

    spec: BucketSpec
    max_segments: int = 64
    pad_token_id: int = 0
    return_tensors: ReturnTensors = "np"
    masking: MaskingSpec | None = None
    causal_lm: bool = False
    seed: int | None = None
    overlong: Overlong = "error"
    attention_mask: AttentionMaskForm = "none"
    model_type: str | None = None
    padding_idx: int = 1
    label_pad_id: int = IGNORE_INDEX
    dtype: Any = np.int64
    _rng: np.random.Generator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.return_tensors not in RETURN_TENSORS:
            raise ValueError(
                f"PackingCollator.return_tensors must be one of {RETURN_TENSORS}, got {self.return_tensors!r}"
            )
        if self.attention_mask not in ATTENTION_MASK_FORMS:
            raise ValueError(
                f"PackingCollator.attention_mask must be one of {ATTENTION_MASK_FORMS}, "
                f"got {self.attention_mask!r}"
            )
        if self.max_segments < 1:
            raise ValueError(f"PackingCollator.max_segments must be >= 1, got {self.max_segments}")
        if self.masking is not None and self.causal_lm:
            raise ValueError("PackingCollator: give masking= (MLM) or causal_lm=True, not both")
        check_overlong(self.overlong, "PackingCollator")
        object.__setattr__(self, "_rng", np.random.default_rng(self.seed))

    def __call__(self, features: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return convert(self.collate_np(features), self.return_tensors)

    def plan(self, lengths: Sequence[int]) -> tuple[int, PackingPlan]:
        """The bucket and the packing of a batch of ``lengths``."""
        if not len(lengths):  # a replica's empty share of the last global batch: dummy rows only
            return self.spec.num_buckets - 1, plan_packing([], self.spec.max_length)
        widest = plan_packing(lengths, self.spec.max_length, max_segments=self.max_segments,
                              overlong=self.overlong)
        longest = int(widest.lengths.max())
        for bucket, (rows, width) in enumerate(self.spec.shapes()):
            if width < longest:
                continue
            plan = widest if width == self.spec.max_length else plan_packing(
                widest.lengths[widest.lengths > 0], width, max_segments=self.max_segments
            )
            if plan.num_rows <= rows:
                return bucket, widest if plan is widest else _expand(plan, widest)
        # in the given order: a pack_batches list of rows of width w never needs more rows of w
        kept = widest.lengths[widest.lengths > 0]
        for bucket, (rows, width) in enumerate(self.spec.shapes()):
            if width < longest:
                continue
            fallback = plan_next_fit(kept, width, max_segments=self.max_segments)
            if fallback.num_rows <= rows:
                return bucket, _expand(fallback, widest)
        raise ValueError(
            f"PackingCollator: {len(lengths)} examples ({widest.real_tokens} tokens) need "
            f"{fallback.num_rows} rows of {self.spec.max_length}, more than the batch's "
            f"{self.spec.batch_sizes[-1]}; form batches with bucketing.packing.pack_batches"
        )

    def collate_np(self, features: Sequence[Mapping[str, Any]]) -> dict[str, np.ndarray]:
        lengths = [len(f["input_ids"]) for f in features]
        bucket, plan = self.plan(lengths)
        batch = pack_features(
            features, plan, pad_token_id=self.pad_token_id, label_pad_id=self.label_pad_id,
            causal_lm=self.causal_lm, num_rows=self.spec.batch_sizes[bucket],
            max_segments=self.max_segments, dtype=self.dtype,
        )
        segment_ids = batch["segment_ids"]
        if self.masking is not None:
            # only real tokens are candidates: padding never is, and costs nothing
            real = segment_ids > 0
            special = batch.pop("special_tokens_mask", None)
            masked, labels = mask_tokens_np(
                batch["input_ids"][real], self.masking, self._rng,
                special_tokens_mask=None if special is None else special[real],
            )
            batch["input_ids"][real] = masked
            labels[labels == self.masking.ignore_index] = self.label_pad_id
            batch["labels"] = np.full(segment_ids.shape, self.label_pad_id, dtype=labels.dtype)
            batch["labels"][real] = labels
        if self.model_type is not None:
            batch["position_ids"] = hf_position_ids(batch["position_ids"], segment_ids, self.model_type,
                                                    self.padding_idx)
        if self.attention_mask == "segment":
            batch["attention_mask"] = segment_mask_np(segment_ids).astype(self.dtype)
        elif self.attention_mask == "additive":
            batch["attention_mask"] = block_diagonal_mask_np(segment_ids)
        return batch


def _expand(plan: PackingPlan, widest: PackingPlan) -> PackingPlan:
    """``plan`` made over the kept examples of ``widest``, indexed like ``widest``'s examples."""
    kept = np.flatnonzero(widest.lengths > 0)
    row = np.full(widest.lengths.size, -1, dtype=np.int64)
    segment = np.zeros_like(row)
    offset = np.zeros_like(row)
    row[kept], segment[kept], offset[kept] = plan.row, plan.segment, plan.offset
    return PackingPlan(plan.max_length, widest.lengths, row, segment, offset, plan.num_rows)
