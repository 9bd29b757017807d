"""Source: https://github.com/keras-team/keras/issues/17227 (the documented fix: string preprocessing in the tf.data pipeline, the jit-compiled model sees numbers only)."""
import tensorflow as tf


class ParseNumbers(tf.keras.layers.Layer):
    def call(self, fields):
        return tf.strings.to_number(fields, out_type=tf.float32)


def build(fields, targets):
    parse = ParseNumbers()
    ds = tf.data.Dataset.from_tensor_slices((fields, targets)).batch(2).map(lambda f, t: (parse(f), t))
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    return ds, model


# --- oracle ---
def ENTRY():
    _, model = build(tf.constant([["1.5", "2.0"]]), tf.constant([[1.0]]))
    return model, (tf.constant([[1.5, 2.0], [0.5, 3.0]]),)
