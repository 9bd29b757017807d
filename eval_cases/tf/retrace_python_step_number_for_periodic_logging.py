"""Source: https://github.com/tensorflow/tensorflow/issues/32157 ("non-tensor argument to target of tf.function logging slows down training": the training loop passes its Python step number to the compiled step so that it can log every N steps, and every new int traces and compiles the step again)."""
import tensorflow as tf

LOG_EVERY = 2


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        self.model.build([None, 3])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x, y, step):
        with tf.GradientTape() as tape:
            pred = self.model(x)
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        if step % LOG_EVERY == 0:
            return loss, tf.linalg.global_norm(grads)
        return loss, tf.constant(0.0)

    def fit(self, x, y, steps):
        logs = []
        for step in steps:
            logs.append(self.train_step(x, y, step))  # XLA: retrace
        return logs


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.fit, (x, tf.ones([4, 1]), range(0, 2))


def ALT_ARGS():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return [(x, tf.ones([4, 1]), range(2, 4))]
