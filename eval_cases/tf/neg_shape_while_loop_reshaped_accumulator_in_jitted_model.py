"""Source: https://github.com/tensorflow/tensorflow/issues/125686 ("tf.while_loop returns a consistent result under eager and jit_compile=True, but autoclustering returns an empty array": a Keras model reshapes its loop carry to `(-1, 1)` and doubles it in a `tf.while_loop`). The reported bug is in autoclustering; under `jit_compile=True` the loop compiles and matches eager on TF 2.21. Here a feature-doubling layer of a jit-compiled model runs the same loop."""
import tensorflow as tf


class DoublingModel(tf.keras.Model):
    def call(self, x):
        carry = tf.reshape(x, (-1, 1))

        def cond(i, a):
            return i < 5

        def body(i, a):
            return i + 1, tf.reshape(a, (-1, 1)) + a

        _, out = tf.while_loop(cond, body, (0, carry))
        return out


model = DoublingModel()


@tf.function(jit_compile=True)
def forward(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return forward, (tf.constant([4.0, 5.0, 6.0, 7.0]),)
