"""Source: https://github.com/tensorflow/tensorflow/issues/113170 ("XLA compilation fails when tf.Variable is created inside @tf.function-decorated method": a `@tf.function(jit_compile=True)` function that creates `v = tf.Variable(0.0)` and assigns to it runs eagerly but raises "tf.function only supports singleton tf.Variables created on the first call" when compiled). Here a jit-compiled training step creates a `tf.Variable` for its running loss average on every call and assigns the smoothed loss to it. (Regression MLP trained with a smoothed-loss tracker.)"""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build((None, 6))
        self.opt = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        smoothed = tf.Variable(0.0)  # XLA: op
        smoothed.assign(0.9 * smoothed + 0.1 * loss)
        return loss, smoothed.read_value()


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(8 * 6, dtype=tf.float32), [8, 6]) / 48.0
    return t.train_step, (x, tf.reduce_sum(x, axis=1, keepdims=True))
