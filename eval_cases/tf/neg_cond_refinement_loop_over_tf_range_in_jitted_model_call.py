"""Source: https://github.com/keras-team/keras/issues/20592 ("Why can tf.range not be jit_compiled when used in a Keras model?": `for _ in tf.range(5)` in a Keras 3 model's `call` raises OperatorNotAllowedInGraphError when the model is called from a `tf.function`, because Keras 3 does not run AutoGraph on `call`). With tf-keras, `Layer.__call__` converts `call` with AutoGraph when the caller has it on, so this iterative-refinement model's `tf.range` loop becomes a while loop inside the jit-compiled step."""
import tensorflow as tf


class IterativeRefiner(tf.keras.Model):
    def __init__(self, steps=3):
        super().__init__()
        self.steps = steps
        self.update = tf.keras.layers.Dense(6, activation="tanh")

    def call(self, x):
        y = x
        for _ in tf.range(self.steps):
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
