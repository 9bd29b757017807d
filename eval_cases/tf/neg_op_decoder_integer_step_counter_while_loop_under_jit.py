"""Source: https://github.com/tensorflow/tensorflow/issues/123067 (the report's control: the same loop with a float32 loop variable is not folded and returns the eager result under `jit_compile=True`). Here the decoder counts covered positions with a float32 loop variable."""
import tensorflow as tf

STRIDE = 2.0
MIN_POSITIONS = 1.0


def covered_logits(logits):
    def not_covered(i):
        return i < MIN_POSITIONS

    def advance(i):
        return [i + STRIDE]

    positions = tf.while_loop(not_covered, advance, [tf.constant(0.0)])[0]
    return logits * tf.cast(positions, logits.dtype)


# --- oracle ---
def ENTRY():
    return covered_logits, (tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]),)
