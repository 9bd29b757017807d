"""Source: https://github.com/tensorflow/tensorflow/issues/121232 (near miss: the same rank-1 shuffle written as a gather by the argsort of uniform noise, which XLA compiles)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def contrastive_loss(anchor_scores, negative_scores):
    order = tf.argsort(tf.random.uniform(tf.shape(negative_scores)))
    shuffled = tf.gather(negative_scores, order)
    return tf.reduce_mean(tf.nn.softplus(shuffled - anchor_scores))


# --- oracle ---
COMPARE = False


def ENTRY():
    return contrastive_loss, (tf.constant([0.5, 1.0, 0.2, 0.9]), tf.constant([0.1, 0.4, 0.8, 0.3]))
