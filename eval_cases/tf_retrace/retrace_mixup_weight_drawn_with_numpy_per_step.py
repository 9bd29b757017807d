"""Mixup training whose mixing weight is drawn on the host with NumPy at every step and passed to a
jit-compiled train step: `rng.beta(a, a)` without `size` returns a Python float, a new trace key
(and XLA compilation) at every step.

Source: https://github.com/tensorflow/tensorflow/issues/34025 ("triggered tf.function retracing":
a Python float passed to a compiled function changes at every call), here the Beta(alpha, alpha)
weight of mixup (arXiv:1710.09412) drawn with NumPy as its reference code does.
"""
import numpy as np
import tensorflow as tf


class MixupTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(2)])
        self.model.build((None, 3))
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x1, y1, x2, y2, lam):
        x = lam * x1 + (1.0 - lam) * x2
        y = lam * y1 + (1.0 - lam) * y2
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, self.model(x), from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    def fit(self, batches, seed, alpha=0.2):
        rng = np.random.RandomState(seed)
        losses = []
        for (x1, y1), (x2, y2) in zip(batches, batches[::-1]):
            lam = rng.beta(alpha, alpha)
            losses.append(self.train_step(x1, y1, x2, y2, lam))  # XLA: retrace
        return tf.stack(losses)


# --- oracle ---
_KEEP = []
WRAP = False


def _batches():
    xs = tf.reshape(tf.range(24, dtype=tf.float32), [4, 2, 3]) / 24.0
    ys = tf.one_hot([[0, 1], [1, 0], [1, 1], [0, 0]], 2)
    return [(xs[i], ys[i]) for i in range(4)]


def ENTRY():
    t = MixupTrainer()
    _KEEP.append(t)
    return t.fit, (_batches(), 0)


def ALT_ARGS():
    return [(_batches(), 1)]
