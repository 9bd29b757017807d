"""Source: https://github.com/tensorflow/tensorflow/issues/62233 ("Different Behavior of tf.raw_ops.RightShift with jit_compile=True": an int8 tensor shifted right by amounts drawn from 0..255 gives different results under XLA). Here an integer-only inference block requantizes int8 activations by right-shifting each channel by its exponent; two channels have exponents of 8 or more (the width of int8), where the shift is implementation-defined and the report saw XLA's result differ from eager. Does not reproduce on TF 2.21 CPU (the report saw it on GPU): eager and XLA shift alike, so this is a negative."""
import tensorflow as tf


class Int8Requantize(tf.Module):
    def __init__(self):
        super().__init__()
        self.exponents = tf.constant([1, 2, 9, 3, 12, 0], dtype=tf.int8)

    @tf.function(jit_compile=True)
    def __call__(self, acc):
        shifted = tf.bitwise.right_shift(acc, self.exponents)
        return tf.cast(shifted, tf.int32)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    block = Int8Requantize()
    _KEEP.append(block)
    acc = tf.constant([[-100, 64, -77, 120, -128, 5], [33, -64, 127, -9, 90, -1]], dtype=tf.int8)
    return block.__call__, (acc,)
