"""Source: https://github.com/tensorflow/tensorflow/issues/60485 (Cumsum's XLA kernel takes no int8/int16; float16, bfloat16, float32, float64, int32 and int64 compile). Soft position weights accumulated in the float16 compute dtype of a mixed-precision layer. Written as a negative (float16 has a Cumsum kernel, and it compiles), but the oracle labels it wrong_result: the compiled float16 running sum differs from the eager one by up to 3.3e-4 (rounding of a float16 accumulation), so it is a positive whose failure is not a missing kernel."""
import tensorflow as tf


class SoftPositions(tf.keras.layers.Layer):
    def call(self, gates):
        g = tf.cast(tf.sigmoid(gates), tf.float16)
        positions = tf.math.cumsum(g, axis=1, exclusive=True)  # XLA: op
        return tf.cast(positions, tf.float32) / tf.cast(tf.shape(gates)[1], tf.float32)


soft = SoftPositions()


@tf.function(jit_compile=True)
def position_features(gates):
    return soft(gates)


# --- oracle ---
def ENTRY():
    return position_features, (tf.reshape(tf.linspace(-2.0, 2.0, 12), [2, 6]),)
