"""Source: https://github.com/tensorflow/tensorflow/issues/38561 (unwanted retracing with variable-length inputs; the input_signature cure with a None time dimension still compiles XLA once per length under jit_compile): a tagger exported as an entry point that other modules call with sentences of their own length."""
import tensorflow as tf

MAX_BATCH = 1
TOKENS = tf.TensorSpec(tf.TensorShape([MAX_BATCH, None]), tf.int32)
table = tf.reshape(tf.range(40, dtype=tf.float32), [20, 2])


@tf.function(input_signature=[TOKENS], jit_compile=True)  # XLA: retrace
def tag(ids):
    return tf.argmax(tf.gather(table, ids), axis=-1)


# --- oracle ---
WRAP = False


def ENTRY():
    return tag, (tf.constant([[1, 2, 3]]),)


def ALT_ARGS():
    return [(tf.constant([[4, 5, 6, 7, 8]]),), (tf.constant([[9, 1]]),)]
