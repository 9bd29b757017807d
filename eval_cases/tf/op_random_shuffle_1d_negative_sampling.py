"""Source: https://github.com/tensorflow/tensorflow/issues/110219 (tf.random.shuffle on a rank-1 float tensor fails XLA compilation: "Expected comparison type SIGNED"): shuffled negatives for a contrastive loss."""
import tensorflow as tf


@tf.function(jit_compile=True)
def contrastive_loss(anchor_scores, negative_scores):
    shuffled = tf.random.shuffle(negative_scores)  # XLA: op
    return tf.reduce_mean(tf.nn.softplus(shuffled - anchor_scores))


# --- oracle ---
COMPARE = False


def ENTRY():
    return contrastive_loss, (tf.constant([0.5, 1.0, 0.2, 0.9]), tf.constant([0.1, 0.4, 0.8, 0.3]))
