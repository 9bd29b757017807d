"""Source: https://github.com/tensorflow/tensorflow/issues/45940 (near miss: a Keras Mean metric updated inside the jit-compiled step compiles; its state is a pair of variables)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.opt = tf.keras.optimizers.SGD(0.1)
        self.loss_tracker = tf.keras.metrics.Mean()

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        self.loss_tracker.update_state(loss)
        return self.loss_tracker.result()


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[1.0], [2.0]]))
