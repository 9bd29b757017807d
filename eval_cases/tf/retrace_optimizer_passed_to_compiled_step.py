"""Source: https://github.com/tensorflow/tensorflow/issues/27120 (a tf.function train step that takes the optimizer as an argument: a new optimizer retraces and then "tried to create variables on non-first call")."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.model.build([None, 2])
        self.optimizers = [tf.keras.optimizers.Adam(0.01), tf.keras.optimizers.Adam(0.001)]

    @tf.function(jit_compile=True)
    def apply_grads(self, optimizer, x, y):  # XLA: retrace
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    def step(self, x, y):
        # alternate a fast and a slow optimizer within one training step
        fast_loss = self.apply_grads(self.optimizers[0], x, y)
        slow_loss = self.apply_grads(self.optimizers[1], x, y)
        return fast_loss + slow_loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.step, (tf.constant([[1.0, 2.0]]), tf.constant([[1.0]]))
