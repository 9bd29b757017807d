"""RoBERTa for masked-LM built from a config (no download), and the optimizer that trains it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reference_trainer.config import TrainerConfig

# RoBERTa numbers positions from pad_token_id + 1, so a block of L ids needs L + 2 positions.
_POSITION_OFFSET = 2


def roberta_config(config: TrainerConfig, tokenizer: dict[str, Any]) -> Any:
    from transformers import RobertaConfig

    preset = config.preset
    return RobertaConfig(
        vocab_size=tokenizer["vocab_size"],
        hidden_size=preset.hidden_size,
        num_hidden_layers=preset.num_hidden_layers,
        num_attention_heads=preset.num_attention_heads,
        intermediate_size=preset.intermediate_size,
        max_position_embeddings=preset.max_position_embeddings or config.block_length + _POSITION_OFFSET,
        type_vocab_size=1,
        bos_token_id=tokenizer["bos_token_id"],
        pad_token_id=tokenizer["pad_token_id"],
        eos_token_id=tokenizer["eos_token_id"],
    )


@contextmanager
def precision_policy(precision: str) -> Iterator[None]:
    """Layers built inside compute in ``precision``: ``bf16`` is Keras's ``mixed_bfloat16`` policy
    (bfloat16 matmuls and activations, float32 variables, so no loss scaling); the loss is computed
    from the logits cast to float32 (:func:`reference_trainer.steps.masked_lm_totals`). A layer keeps
    the policy it was built with, so the global policy is put back on the way out."""
    if precision == "fp32":
        yield
        return
    from transformers.modeling_tf_utils import keras  # the Keras transformers' TF models are built with

    previous = keras.mixed_precision.global_policy()
    keras.mixed_precision.set_global_policy("mixed_bfloat16")
    try:
        yield
    finally:
        keras.mixed_precision.set_global_policy(previous)


def build_model(config: TrainerConfig, tokenizer: dict[str, Any]) -> Any:
    """Call under ``strategy.scope()``: variables are created here, on the strategy's devices."""
    import tensorflow as tf
    from transformers import TFAutoModelForMaskedLM

    with precision_policy(config.precision):
        model = TFAutoModelForMaskedLM.from_config(roberta_config(config, tokenizer))
    ids = tf.fill([1, config.block_length], tokenizer["bos_token_id"])
    model({"input_ids": ids, "attention_mask": tf.ones_like(ids)}, training=False)
    return model


def build_optimizer(config: TrainerConfig) -> tuple[Any, Any]:
    """AdamW with linear warmup and decay; the config guarantees a decay phase of >= 1 step."""
    from transformers import create_optimizer

    return create_optimizer(
        init_lr=config.learning_rate,
        num_train_steps=config.train_steps,
        num_warmup_steps=config.warmup_steps,
        weight_decay_rate=config.weight_decay,
        adam_global_clipnorm=1.0,
        include_in_weight_decay=None,
    )
