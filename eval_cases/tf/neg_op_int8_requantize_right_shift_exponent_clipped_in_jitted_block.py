"""Source: https://github.com/tensorflow/tensorflow/issues/62233 ("Different Behavior of tf.raw_ops.RightShift with jit_compile=True": shift amounts outside the bit width). The documented fix for the int8 requantization block: clip each channel's exponent to [0, 7] before the right shift, so every shift is within the width of int8 and defined."""
import tensorflow as tf


class Int8Requantize(tf.Module):
    def __init__(self):
        super().__init__()
        self.exponents = tf.constant([1, 2, 9, 3, 12, 0], dtype=tf.int8)

    @tf.function(jit_compile=True)
    def __call__(self, acc):
        exps = tf.clip_by_value(self.exponents, 0, 7)
        shifted = tf.bitwise.right_shift(acc, exps)
        return tf.cast(shifted, tf.int32)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    block = Int8Requantize()
    _KEEP.append(block)
    acc = tf.constant([[-100, 64, -77, 120, -128, 5], [33, -64, 127, -9, 90, -1]], dtype=tf.int8)
    return block.__call__, (acc,)
