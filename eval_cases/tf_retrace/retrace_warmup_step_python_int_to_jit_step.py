"""Source: https://github.com/tensorflow/tensorflow/issues/34481 (the documented loop `for step in range(100): my_func(step)` passes the step as a Python int, so every step retraces the function; here the step drives a learning-rate warmup inside a jit-compiled train step)."""
import tensorflow as tf

WARMUP = 100


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build([None, 3])

    @tf.function(jit_compile=True)
    def train_step(self, x, y, step):
        lr = 0.1 * tf.minimum(1.0, tf.cast(step + 1, tf.float32) / WARMUP)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        for v, g in zip(self.model.trainable_variables, grads):
            v.assign_sub(lr * g)
        return loss

    def run(self, x, y, steps):
        return [self.train_step(x, y, step) for step in steps]  # XLA: retrace


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.run, (x, tf.ones([4, 1]), range(0, 2))


def ALT_ARGS():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return [(x, tf.ones([4, 1]), range(2, 4))]
