"""The code the run compiles: masked-LM loss and metrics, the per-replica train and eval steps.

Kept in its own module so the preflight can lint exactly what XLA will see. The per-replica
forward/backward pass is a ``tf.function(jit_compile=...)``; the optimizer update and the
cross-replica reductions stay outside it, because all-reduces cannot run inside an XLA cluster
on CPU/GPU replicas (Keras's own trainer splits it the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tensorflow as tf

IGNORE_INDEX = -100
# Per-step totals, summed over replicas and steps: [loss_sum, masked, correct, real_tokens].
TOTALS = 4


def masked_lm_totals(labels: tf.Tensor, logits: tf.Tensor, attention_mask: tf.Tensor) -> tf.Tensor:
    """Loss summed over masked positions, their count, correct predictions, non-pad tokens.

    Accuracy counts only positions whose label is not -100 (the reference scripts' "accuracy"
    counted every position, the -100 ones included).
    """
    mask = tf.not_equal(labels, IGNORE_INDEX)
    safe_labels = tf.where(mask, labels, tf.zeros_like(labels))
    per_token = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=safe_labels, logits=tf.cast(logits, tf.float32))
    weight = tf.cast(mask, tf.float32)
    predicted = tf.argmax(logits, axis=-1, output_type=labels.dtype)
    correct = tf.cast(tf.equal(predicted, labels), tf.float32) * weight
    return tf.stack([
        tf.reduce_sum(per_token * weight),
        tf.reduce_sum(weight),
        tf.reduce_sum(correct),
        tf.reduce_sum(tf.cast(attention_mask, tf.float32)),
    ])


def label_histogram(labels: tf.Tensor, vocab_size: int) -> tf.Tensor:
    """Counts of each token id among masked labels (for the most-frequent-token baseline)."""
    mask = tf.not_equal(labels, IGNORE_INDEX)
    ids = tf.reshape(tf.where(mask, labels, tf.zeros_like(labels)), [-1])
    weights = tf.reshape(tf.cast(mask, tf.float32), [-1])
    return tf.math.unsorted_segment_sum(weights, ids, num_segments=vocab_size)


@dataclass(frozen=True)
class StepFunctions:
    forward_backward: Any  # tf.function(jit_compile=...), per replica
    replica_train_step: Any
    replica_eval_step: Any
    eval_forward: Any  # tf.function(jit_compile=...), per replica

    def train_traces(self) -> int:
        """Traces of the compiled train function: with jit_compile, one XLA compilation each."""
        return int(self.forward_backward.experimental_get_tracing_count())

    def eval_traces(self) -> int:
        return int(self.eval_forward.experimental_get_tracing_count())


def make_step_functions(model: Any, optimizer: Any, *, num_replicas: int, jit_compile: bool, vocab_size: int) -> StepFunctions:
    variables = model.trainable_variables

    def forward_backward(features: dict[str, tf.Tensor], labels: tf.Tensor) -> tuple[list[tf.Tensor], tf.Tensor]:
        with tf.GradientTape() as tape:
            logits = model(features, training=True).logits
            totals = masked_lm_totals(labels, logits, features["attention_mask"])
            # Mean over this replica's masked tokens; replicas' gradients are summed, so divide.
            loss = totals[0] / tf.maximum(totals[1], 1.0) / num_replicas
        return tape.gradient(loss, variables), totals

    compiled_forward_backward = tf.function(forward_backward, jit_compile=jit_compile)

    def replica_train_step(features: dict[str, tf.Tensor], labels: tf.Tensor) -> tf.Tensor:
        gradients, totals = compiled_forward_backward(features, labels)
        optimizer.apply_gradients(zip(gradients, variables))
        return totals

    def eval_forward(features: dict[str, tf.Tensor], labels: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        logits = model(features, training=False).logits
        return masked_lm_totals(labels, logits, features["attention_mask"]), label_histogram(labels, vocab_size)

    compiled_eval_forward = tf.function(eval_forward, jit_compile=jit_compile)

    def replica_eval_step(features: dict[str, tf.Tensor], labels: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        return compiled_eval_forward(features, labels)

    return StepFunctions(compiled_forward_backward, replica_train_step, replica_eval_step, compiled_eval_forward)
