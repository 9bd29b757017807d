"""Source: https://github.com/keras-team/keras/issues/20592 ("Why can tf.range not be jit_compiled when used in a Keras model?": `for _ in tf.range(5)` in `call` is not converted, and iterating a symbolic tensor raises OperatorNotAllowedInGraphError). Here the iterative-refinement model's `call` is marked `tf.autograph.experimental.do_not_convert` (to silence AutoGraph warnings), so its `for _ in tf.range(...)` loop runs as Python over a symbolic tensor in the jit-compiled step."""
import tensorflow as tf


class IterativeRefiner(tf.keras.Model):
    def __init__(self, steps=3):
        super().__init__()
        self.steps = steps
        self.update = tf.keras.layers.Dense(6, activation="tanh")

    @tf.autograph.experimental.do_not_convert
    def call(self, x, training=None):
        y = x
        for _ in tf.range(self.steps):  # XLA: cond
            y = y + 0.5 * self.update(y)
        return y


model = IterativeRefiner()
model(tf.zeros([1, 6]))


@tf.function(jit_compile=True)
def refine(x):
    return model(x)


# --- oracle ---
def ENTRY():
    return refine, (tf.reshape(tf.range(2 * 6, dtype=tf.float32), [2, 6]) / 12.0,)
