"""Shape-capped bucketing for XLA: few distinct input shapes, little padding.

numpy is the core; TensorFlow (``bucketing.tf_data``, ``return_tensors="tf"``), PyTorch
(``bucketing.torch_sampler``, ``"pt"``) and JAX (``"jax"``) are imported only when asked for.
"""

from __future__ import annotations

from bucketing.batching import BatchFormer, DummyRow, FormedBatch
from bucketing.boundaries import (
    ShapeBudget,
    choose_num_shapes,
    optimal_boundaries,
    optimal_padding_by_num_shapes,
    padded_tokens,
    padding_fraction,
    power_of_two_boundaries,
    quantile_boundaries,
)
from bucketing.collator import BucketingCollator
from bucketing.lengths import sample_lengths
from bucketing.masking import MaskingSpec, mask_tokens_np, mask_tokens_tf, tf_masking_fn
from bucketing.packing import (
    PackedBatchSampler,
    PackingPlan,
    fit_packing_spec,
    pack_batches,
    pack_features,
    packing_cost,
    plan_next_fit,
    plan_packing,
    row_cost,
)
from bucketing.packing_collator import PackingCollator
from bucketing.report import BucketReport, BucketStats, report
from bucketing.spec import BucketSpec

__all__ = [
    "BatchFormer",
    "BucketReport",
    "BucketSpec",
    "BucketStats",
    "BucketingCollator",
    "DummyRow",
    "FormedBatch",
    "MaskingSpec",
    "PackedBatchSampler",
    "PackingCollator",
    "PackingPlan",
    "ShapeBudget",
    "choose_num_shapes",
    "fit_packing_spec",
    "mask_tokens_np",
    "mask_tokens_tf",
    "optimal_boundaries",
    "optimal_padding_by_num_shapes",
    "pack_batches",
    "pack_features",
    "packing_cost",
    "padded_tokens",
    "padding_fraction",
    "plan_next_fit",
    "plan_packing",
    "power_of_two_boundaries",
    "quantile_boundaries",
    "report",
    "row_cost",
    "sample_lengths",
    "tf_masking_fn",
]
