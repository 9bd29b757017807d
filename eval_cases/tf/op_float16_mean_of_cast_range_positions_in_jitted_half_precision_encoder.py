"""Source: https://github.com/tensorflow/tensorflow/issues/113143 ("[XLA] Unsupported dtype float16 for tf.range when jit_compile=True"). The near miss (the position ramp built with an integer `tf.range` and cast to float16) compiles, but the compiled float16 `reduce_mean` over the sequence differs from eager by one float16 unit in the last place (XLA accumulates the half-precision mean in float32, eager in float16): the oracle labels it a wrong result. The same half-precision encoder and jit-compiled forward pass."""
import tensorflow as tf

SEQ_LEN = 12


class HalfPrecisionEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(8, dtype="float16")

    @tf.function(jit_compile=True)
    def call(self, tokens):
        x = self.proj(tf.cast(tokens, tf.float16))
        positions = tf.cast(tf.range(0, SEQ_LEN), tf.float16)
        ramp = positions[tf.newaxis, :, tf.newaxis] / tf.constant(SEQ_LEN, tf.float16)
        return tf.reduce_mean(x + ramp, axis=1)  # XLA: op


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = HalfPrecisionEncoder()
    _KEEP.append(m)
    tokens = tf.reshape(tf.range(2 * SEQ_LEN * 4, dtype=tf.float32), [2, SEQ_LEN, 4]) / 100.0
    return m, (tokens,)
