"""Source: https://github.com/tensorflow/tensorflow/issues/113170 (fix twin: the error message's advice, create the `tf.Variable` once outside the compiled function). The same jit-compiled training step updates a smoothed-loss variable created once in `__init__`. (Regression MLP trained with a smoothed-loss tracker.)"""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build((None, 6))
        self.opt = tf.keras.optimizers.SGD(0.05)
        self.smoothed = tf.Variable(0.0)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        self.smoothed.assign(0.9 * self.smoothed + 0.1 * loss)
        return loss, self.smoothed.read_value()


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(8 * 6, dtype=tf.float32), [8, 6]) / 48.0
    return t.train_step, (x, tf.reduce_sum(x, axis=1, keepdims=True))
