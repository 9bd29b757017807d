"""Source: https://github.com/tensorflow/tensorflow/issues/118313 ("BinaryCrossentropy(from_logits=False) on explicit sigmoid output returns logits-scale loss under tf.function(jit_compile=True)"). The recommended form: the model outputs logits and the loss is `BinaryCrossentropy(from_logits=True)`, so eager and compiled code compute the same thing. The same click-through model and jit-compiled evaluation step on confident predictions."""
import tensorflow as tf


class ClickModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu", kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return self.out(self.hidden(x))


class Evaluator:
    def __init__(self):
        self.model = ClickModel()
        self.loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    @tf.function(jit_compile=True)
    def eval_step(self, features, clicks):
        logits = self.model(features, training=False)
        return self.loss_fn(clicks, logits)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    e = Evaluator()
    _KEEP.append(e)
    features = tf.constant([[3.0, 2.0, 4.0], [-3.0, -2.0, -4.0]])
    clicks = tf.constant([[0.0], [1.0]])
    return e.eval_step, (features, clicks)
