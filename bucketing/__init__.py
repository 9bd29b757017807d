"""Shape-capped bucketing for XLA: few distinct input shapes, little padding."""

from __future__ import annotations

from bucketing.masking import MaskingSpec, mask_tokens_np, mask_tokens_tf, tf_masking_fn

__all__ = ["MaskingSpec", "mask_tokens_np", "mask_tokens_tf", "tf_masking_fn"]
