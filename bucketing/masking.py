"""Masked-language-model masking: one specification, a numpy and a TF-native implementation.

The algorithm, written once here and implemented twice below:

1. A position is a *candidate* unless it holds padding or a special token.
2. Each candidate is selected independently with probability ``mlm_probability``.
3. A selected position is replaced by ``mask_token_id`` with probability
   ``mask_replace_prob``, by a token drawn uniformly from ``[0, vocab_size)`` with probability
   ``random_replace_prob``, and kept unchanged otherwise.
4. ``labels`` hold the original id at selected positions and ``ignore_index`` elsewhere.

Both probabilities in step 3 are fractions *of the selected tokens* (Hugging Face's
``DataCollatorForLanguageModeling`` terms). HF's TF and torch copies of this algorithm
drifted apart (TF replaced ~2% of selected tokens at random, torch 10%); here
``tests/bucketing/test_masking_statistics.py`` holds both implementations to the same rates.

numpy is imported at module level (it is this package's core dependency); TensorFlow only
inside :func:`mask_tokens_tf` and :func:`tf_masking_fn`, so importing this module is cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import tensorflow as tf


@dataclass(frozen=True)
class MaskingSpec:
    """What to mask and how. Validated on construction."""

    mask_token_id: int
    vocab_size: int
    mlm_probability: float = 0.15
    mask_replace_prob: float = 0.8
    random_replace_prob: float = 0.1
    special_token_ids: tuple[int, ...] = ()
    pad_token_id: int | None = None
    ignore_index: int = -100

    def __post_init__(self) -> None:
        for name in ("mlm_probability", "mask_replace_prob", "random_replace_prob"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"MaskingSpec.{name} must be in [0, 1], got {value}")
        if self.mask_replace_prob + self.random_replace_prob > 1.0 + 1e-9:
            raise ValueError(
                "MaskingSpec: mask_replace_prob + random_replace_prob must be <= 1 "
                f"(got {self.mask_replace_prob} + {self.random_replace_prob})"
            )
        if self.vocab_size <= 0:
            raise ValueError(f"MaskingSpec.vocab_size must be positive, got {self.vocab_size}")
        if not 0 <= self.mask_token_id < self.vocab_size:
            raise ValueError(
                f"MaskingSpec.mask_token_id {self.mask_token_id} is outside the vocabulary "
                f"[0, {self.vocab_size})"
            )
        object.__setattr__(self, "special_token_ids", tuple(int(t) for t in self.special_token_ids))

    @property
    def excluded_ids(self) -> tuple[int, ...]:
        """Ids that are never selected: special tokens and padding."""
        ids = set(self.special_token_ids)
        if self.pad_token_id is not None:
            ids.add(self.pad_token_id)
        return tuple(sorted(ids))

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, **overrides: Any) -> MaskingSpec:
        """Build a spec from a Hugging Face tokenizer (its mask, pad and special ids)."""
        if tokenizer.mask_token_id is None:
            raise ValueError("the tokenizer has no mask token; MLM masking needs one")
        fields: dict[str, Any] = dict(
            mask_token_id=int(tokenizer.mask_token_id),
            vocab_size=len(tokenizer),
            special_token_ids=tuple(int(i) for i in tokenizer.all_special_ids),
            pad_token_id=tokenizer.pad_token_id,
        )
        fields.update(overrides)
        return cls(**fields)


def _candidates_np(
    input_ids: np.ndarray, spec: MaskingSpec, special_tokens_mask: np.ndarray | None
) -> np.ndarray:
    candidates = np.ones(input_ids.shape, dtype=bool)
    # a few comparisons beat np.isin's sort-based set logic for the handful of special ids
    for excluded in spec.excluded_ids:
        candidates &= input_ids != excluded
    if special_tokens_mask is not None:
        candidates &= ~np.asarray(special_tokens_mask, dtype=bool)
    return candidates


def mask_tokens_np(
    input_ids: np.ndarray,
    spec: MaskingSpec,
    rng: np.random.Generator,
    special_tokens_mask: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(masked_input_ids, labels)``; ``input_ids`` is not modified."""
    ids = np.asarray(input_ids)
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"input_ids must be integers, got dtype {ids.dtype}")
    candidates = _candidates_np(ids, spec, special_tokens_mask)
    selected = candidates & (rng.random(ids.shape) < spec.mlm_probability)
    labels = np.where(selected, ids, np.asarray(spec.ignore_index, dtype=ids.dtype))
    # step 3's draws only for the selected positions (~15%): the same distribution, less work
    where_selected = np.flatnonzero(selected)
    action = rng.random(where_selected.size)
    to_mask = where_selected[action < spec.mask_replace_prob]
    to_random = where_selected[
        (action >= spec.mask_replace_prob)
        & (action < spec.mask_replace_prob + spec.random_replace_prob)
    ]
    masked = ids.copy()
    masked.flat[to_mask] = spec.mask_token_id
    masked.flat[to_random] = rng.integers(0, spec.vocab_size, size=to_random.size, dtype=ids.dtype)
    return masked, labels


def mask_tokens_tf(
    input_ids: tf.Tensor,
    spec: MaskingSpec,
    seed: tf.Tensor | Iterable[int],
    special_tokens_mask: tf.Tensor | None = None,
) -> tuple[tf.Tensor, tf.Tensor]:
    """TF-native twin of :func:`mask_tokens_np` (stateless: the same seed gives the same masks).

    Only ops with XLA and TPU kernels are used, so it runs inside ``tf.data`` on a TPU Node
    and inside a ``jit_compile=True`` step. ``seed`` is a shape-[2] integer tensor.
    The Philox algorithm is named explicitly: the default ``auto_select`` gives different
    numbers under XLA than eagerly.
    """
    import tensorflow as tf

    ids = tf.convert_to_tensor(input_ids)
    seed = tf.cast(tf.convert_to_tensor(seed), tf.int64)
    shape = tf.shape(ids)
    candidates = tf.ones_like(ids, dtype=tf.bool)
    for excluded in spec.excluded_ids:
        candidates = tf.logical_and(candidates, tf.not_equal(ids, tf.cast(excluded, ids.dtype)))
    if special_tokens_mask is not None:
        candidates = tf.logical_and(
            candidates, tf.logical_not(tf.cast(special_tokens_mask, tf.bool))
        )

    def uniform(salt: int) -> tf.Tensor:
        sub_seed = tf.random.experimental.stateless_fold_in(seed, salt, alg="philox")
        return tf.random.stateless_uniform(shape, sub_seed, alg="philox")

    selected = tf.logical_and(candidates, uniform(1) < spec.mlm_probability)
    action = uniform(2)
    to_mask = tf.logical_and(selected, action < spec.mask_replace_prob)
    to_random = tf.logical_and(
        selected,
        tf.logical_and(
            action >= spec.mask_replace_prob,
            action < spec.mask_replace_prob + spec.random_replace_prob,
        ),
    )
    random_seed = tf.random.experimental.stateless_fold_in(seed, 3, alg="philox")
    random_ids = tf.random.stateless_uniform(
        shape, random_seed, minval=0, maxval=spec.vocab_size, dtype=tf.int64, alg="philox"
    )
    masked = tf.where(to_mask, tf.cast(spec.mask_token_id, ids.dtype), ids)
    masked = tf.where(to_random, tf.cast(random_ids, ids.dtype), masked)
    labels = tf.where(selected, ids, tf.cast(spec.ignore_index, ids.dtype))
    return masked, labels


def tf_masking_fn(spec: MaskingSpec, seed: int, input_key: str = "input_ids") -> Any:
    """A function for ``dataset.enumerate().map(fn)`` that masks ``features[input_key]``.

    Each element's seed is ``fold_in([seed, 0], element_index)``, so the masks depend only on
    the seed and the element's position: reshuffling or re-running gives the same masks for
    the same element order (fixed eval masks), and a new ``seed`` per epoch gives new ones.
    It returns ``(features, labels)`` with ``features[input_key]`` masked.
    """
    import tensorflow as tf

    base = tf.constant([seed, 0], dtype=tf.int64)

    def fn(index: tf.Tensor, features: dict[str, tf.Tensor]) -> Any:
        element_seed = tf.random.experimental.stateless_fold_in(
            base, tf.cast(index, tf.int64), alg="philox"
        )
        out = dict(features)
        special = out.pop("special_tokens_mask", None)
        out[input_key], labels = mask_tokens_tf(features[input_key], spec, element_seed, special)
        return out, labels

    return fn
