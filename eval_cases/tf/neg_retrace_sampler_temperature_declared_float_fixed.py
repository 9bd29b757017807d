"""Source: https://github.com/tensorflow/tensorflow/issues/34025 (near miss: the compiled sampler declares `temperature: float`, but every batch of every call gets the same temperature, so it is traced once)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def sample_probs(logits, temperature: float):
    return tf.nn.softmax(logits / temperature, axis=-1)


def sample_all(batches, temperature):
    return [sample_probs(b, temperature) for b in batches]


# --- oracle ---
WRAP = False


def ENTRY():
    return sample_all, ([tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])] * 2, 0.7)


def ALT_ARGS():
    return [([tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) * 2.0] * 2, 0.7)]
