"""Source: https://github.com/tensorflow/tensorflow/issues/118313 ("[tf.keras][XLA] BinaryCrossentropy(from_logits=False) on explicit sigmoid output returns logits-scale loss under tf.function(jit_compile=True)": in graph mode the Keras backend sees that the probabilities come from a `Sigmoid` op and computes the loss from its logits, skipping the epsilon clip that eager applies, so saturated outputs give a different loss). This rebuild does not reproduce on TF 2.21 CPU (tf-keras): when the sigmoid is the `activation` of a Keras `Dense` layer, the loss reads the logits the layer attaches to its output both eagerly and in the compiled function, so the two agree. A click-through model whose last layer is `Dense(1, activation="sigmoid")`, scored with `BinaryCrossentropy()` in a jit-compiled evaluation step on confident predictions."""
import tensorflow as tf


class ClickModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu", kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")

    def call(self, x):
        return self.out(self.hidden(x))


class Evaluator:
    def __init__(self):
        self.model = ClickModel()
        self.loss_fn = tf.keras.losses.BinaryCrossentropy()

    @tf.function(jit_compile=True)
    def eval_step(self, features, clicks):
        probs = self.model(features, training=False)
        return self.loss_fn(clicks, probs)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    e = Evaluator()
    _KEEP.append(e)
    features = tf.constant([[3.0, 2.0, 4.0], [-3.0, -2.0, -4.0]])
    clicks = tf.constant([[0.0], [1.0]])
    return e.eval_step, (features, clicks)
