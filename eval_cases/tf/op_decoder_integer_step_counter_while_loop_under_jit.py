"""Source: https://github.com/tensorflow/tensorflow/issues/123067 ("XLA simplify-while-loops incorrectly folds an integer tf.while_loop to its initial value": a loop with `i = 0`, condition `i < 1` and body `i + 2` returns 2 eagerly and in a plain `tf.function`, but 0 under `jit_compile=True`; an int32 or int64 loop variable is folded, a float32 one is not). Here a decoder counts its strided decoding steps with an integer `tf.while_loop` and scales its logits by the number of positions covered, under `jit_compile=True`."""
import tensorflow as tf

STRIDE = 2
MIN_POSITIONS = 1


def covered_logits(logits):
    def not_covered(i):
        return i < MIN_POSITIONS

    def advance(i):
        return [i + STRIDE]

    positions = tf.while_loop(not_covered, advance, [tf.constant(0)])[0]  # XLA: op
    return logits * tf.cast(positions, logits.dtype)


# --- oracle ---
def ENTRY():
    return covered_logits, (tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]),)
