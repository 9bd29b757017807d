"""Source: https://github.com/tensorflow/tensorflow/issues/118313 ("[tf.keras][XLA] BinaryCrossentropy(from_logits=False) on explicit sigmoid output returns logits-scale loss under tf.function(jit_compile=True)": in graph mode the Keras backend sees that the probabilities come from a `Sigmoid` op and computes the loss from its input, skipping the epsilon clip that eager applies, so saturated outputs give a different loss). Here a click-through scorer whose head returns `tf.sigmoid(logits)` explicitly, scored with `tf.keras.losses.binary_crossentropy` in a jit-compiled evaluation step on confident predictions."""
import tensorflow as tf


class ClickScorer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu", kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return tf.sigmoid(self.out(self.hidden(x)))


class Evaluator:
    def __init__(self):
        self.model = ClickScorer()

    @tf.function(jit_compile=True)
    def eval_step(self, features, clicks):
        probs = self.model(features, training=False)
        return tf.reduce_mean(tf.keras.losses.binary_crossentropy(clicks, probs))  # XLA: op


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    e = Evaluator()
    _KEEP.append(e)
    features = tf.constant([[3.0, 2.0, 4.0], [-3.0, -2.0, -4.0]])
    clicks = tf.constant([[0.0], [1.0]])
    return e.eval_step, (features, clicks)
