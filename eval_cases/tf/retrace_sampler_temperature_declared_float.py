"""Source: https://github.com/tensorflow/tensorflow/issues/34025 ("triggered tf.function retracing": a Python float handed to a compiled function takes a new value each call); here the compiled sampler declares `temperature: float` and the caller anneals it batch by batch from a schedule it is given."""
import tensorflow as tf


@tf.function(jit_compile=True)
def sample_probs(logits, temperature: float):
    return tf.nn.softmax(logits / temperature, axis=-1)


def anneal(batches, temperatures):
    return [sample_probs(b, t) for b, t in zip(batches, temperatures)]  # XLA: retrace


# --- oracle ---
WRAP = False


def ENTRY():
    return anneal, ([tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])] * 2, [1.0, 0.5])


def ALT_ARGS():
    return [([tf.reshape(tf.range(8, dtype=tf.float32), [2, 4])] * 2, [0.25, 0.125])]
