"""Running Hugging Face models on packed rows: what each backend needs (transformers 4.57).

PyTorch BERT/RoBERTa need no adapter: pass ``attention_mask=segment_mask_torch(segment_ids)``
(3-D, 1 = attend; the model makes it additive) and ``position_ids`` (offset for RoBERTa by
:func:`bucketing.packing_masks.hf_position_ids`). :func:`torch_packed_inputs` builds both.

TensorFlow BERT/RoBERTa cannot take a packed mask through ``call``: ``TFBertMainLayer.call``
reshapes ``attention_mask`` to ``(batch, 1, 1, L)`` (a 2-D padding mask only), and
``TFRobertaMainLayer`` is a copy of it. :func:`tf_packed_masked_lm_logits` is a thin adapter
that runs the same sublayers the model's own ``call`` runs (embeddings, encoder, LM head),
with the block-diagonal additive mask handed to the encoder where ``call`` would have handed
its ``(batch, 1, 1, L)`` one. It reads no private state besides the sublayer names below, and
``tests/bucketing/test_packing_equivalence_tf.py`` proves it equal to running each sequence
alone through the model's own ``call``, under ``jit_compile``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bucketing.packing_masks import (
    TF_MASKED_VALUE,
    block_diagonal_mask_tf,
    hf_position_ids,
    segment_mask_torch,
)

if TYPE_CHECKING:  # pragma: no cover
    import tensorflow as tf
    import torch

# model_type -> (main layer attribute, masked-LM head attribute) of HF's TF*ForMaskedLM
TF_MASKED_LM_LAYERS = {"bert": ("bert", "mlm"), "roberta": ("roberta", "lm_head")}


def tf_packed_masked_lm_logits(
    model: Any,
    input_ids: tf.Tensor,
    segment_ids: tf.Tensor,
    position_ids: tf.Tensor,
    token_type_ids: tf.Tensor | None = None,
    training: bool = False,
) -> tf.Tensor:
    """Logits ``(batch, L, vocab)`` of an HF ``TFBertForMaskedLM``/``TFRobertaForMaskedLM`` on
    packed rows; ``position_ids`` are the packer's 0-based ones (offset here for RoBERTa)."""
    import tensorflow as tf

    model_type = model.config.model_type
    if model_type not in TF_MASKED_LM_LAYERS:
        raise ValueError(
            f"tf_packed_masked_lm_logits supports model types {sorted(TF_MASKED_LM_LAYERS)}, "
            f"got {model_type!r}"
        )
    if model.config.is_decoder:
        raise ValueError("tf_packed_masked_lm_logits: decoder (causal) configs are not supported")
    main_name, head_name = TF_MASKED_LM_LAYERS[model_type]
    main, head = getattr(model, main_name), getattr(model, head_name)
    if not model.built:
        model(model.dummy_inputs, training=False)
    # HF's TF RoBERTa numbers positions from its constant padding_idx (1)
    padding_idx = getattr(main.embeddings, "padding_idx", 1)
    positions = hf_position_ids(tf.convert_to_tensor(position_ids), tf.convert_to_tensor(segment_ids),
                                model_type, padding_idx)
    if token_type_ids is None:
        token_type_ids = tf.zeros_like(input_ids)
    hidden = main.embeddings(
        input_ids=input_ids, position_ids=positions, token_type_ids=token_type_ids, training=training
    )
    mask = block_diagonal_mask_tf(segment_ids, hidden.dtype, masked_value=TF_MASKED_VALUE)
    encoded = main.encoder(
        hidden_states=hidden,
        attention_mask=mask,
        head_mask=[None] * model.config.num_hidden_layers,
        encoder_hidden_states=None,
        encoder_attention_mask=None,
        past_key_values=None,
        use_cache=False,
        output_attentions=False,
        output_hidden_states=False,
        return_dict=True,
        training=training,
    )
    return head(encoded.last_hidden_state)  # the MLM heads have no dropout


def torch_packed_inputs(
    segment_ids: torch.Tensor, position_ids: torch.Tensor, model_type: str, padding_idx: int = 1
) -> dict[str, torch.Tensor]:
    """``attention_mask`` (3-D segment mask) and ``position_ids`` for an HF PyTorch encoder;
    ``padding_idx`` is ``config.pad_token_id`` for RoBERTa."""
    return {
        "attention_mask": segment_mask_torch(segment_ids),
        "position_ids": hf_position_ids(position_ids, segment_ids, model_type, padding_idx),
    }
