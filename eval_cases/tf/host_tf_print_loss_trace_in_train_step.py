"""Source: https://github.com/tensorflow/tensorflow/issues/100517 (`tf.print` inside a jit_compile function fails: tf.print lowers to StringFormat/PrintV2, which have no XLA kernel; here a training step prints its loss every call)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        tf.print("loss:", loss)  # XLA: host
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.train_step, (x, tf.reduce_sum(x, axis=1, keepdims=True))
