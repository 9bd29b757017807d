"""Source: https://github.com/tensorflow/tensorflow/issues/77045 (near miss: tf.constant of Python numbers and tf.TensorShape of a static shape inside call() are fine; only tensors, like the report's tf.shape() value, have no Python value while tracing)."""
import tensorflow as tf


class ScaledProjection(tf.keras.layers.Layer):
    def __init__(self, units, scales=(0.5, 2.0)):
        super().__init__()
        self.proj = tf.keras.layers.Dense(units)
        self.scales = list(scales)

    def call(self, x):
        h = self.proj(x)
        scale = tf.constant(self.scales, dtype=tf.float32)
        shape = tf.TensorShape(h.shape)
        return tf.ensure_shape(h[:, :2] * scale, shape[:1].concatenate([2]))


layer = ScaledProjection(4)


def forward(x):
    return layer(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0,)
