"""Source: https://github.com/tensorflow/tensorflow/issues/113143 ("[XLA] Unsupported dtype float16 for tf.range when jit_compile=True": a Keras model that builds `tf.range(0, 10, dtype=tf.float16)` inside `call` works eagerly and fails once compiled). Here a half-precision sequence encoder that builds its position ramp with `tf.range(..., dtype=tf.float16)` in a jit-compiled forward pass."""
import tensorflow as tf

SEQ_LEN = 12


class HalfPrecisionEncoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.proj = tf.keras.layers.Dense(8, dtype="float16")

    @tf.function(jit_compile=True)
    def call(self, tokens):
        x = self.proj(tf.cast(tokens, tf.float16))
        positions = tf.range(0, SEQ_LEN, dtype=tf.float16)  # XLA: op
        ramp = positions[tf.newaxis, :, tf.newaxis] / tf.constant(SEQ_LEN, tf.float16)
        return tf.reduce_mean(x + ramp, axis=1)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = HalfPrecisionEncoder()
    _KEEP.append(m)
    tokens = tf.reshape(tf.range(2 * SEQ_LEN * 4, dtype=tf.float32), [2, SEQ_LEN, 4]) / 100.0
    return m, (tokens,)
