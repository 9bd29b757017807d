"""Source: https://github.com/tensorflow/tensorflow/issues/38561 (variable-length inputs retrace; here `padded_batch` pads each batch to its own longest sequence and a jit-compiled step compiles once per batch length: row dataset_padded_batch_longest of xlacheck/data/tf_retrace.json, 3 batch lengths, 3 compiles)."""
import tensorflow as tf

BATCH = 2


@tf.function(jit_compile=True)
def pooled_sum(tokens):
    return tf.reduce_sum(tf.reduce_mean(tokens, axis=1))


def evaluate(lengths):
    ds = tf.data.Dataset.from_generator(lambda: (tf.ones([n]) for n in lengths),
                                        output_signature=tf.TensorSpec([None], tf.float32))
    total = 0.0
    for batch in ds.padded_batch(BATCH, padded_shapes=[None]):
        total += pooled_sum(batch)  # XLA: retrace
    return total


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, ([3, 5, 4, 4],)


def ALT_ARGS():
    return [([7, 2, 6, 6],)]
