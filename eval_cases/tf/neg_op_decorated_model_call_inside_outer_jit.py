"""Source: https://github.com/tensorflow/tensorflow/issues/118314 (a Keras Model whose call is itself decorated with @tf.function gave numerically wrong results when invoked from an outer tf.function(jit_compile=True); on TF 2.21 XLA:CPU this small Dense+softmax model matches eager)."""
import tensorflow as tf


class Scorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(4)

    @tf.function
    def call(self, x):
        return tf.nn.softmax(self.dense(x))


model = Scorer()


@tf.function(jit_compile=True)
def outer(x):
    return model(x)


# --- oracle ---
WRAP = False


def ENTRY():
    return outer, (tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0,)
