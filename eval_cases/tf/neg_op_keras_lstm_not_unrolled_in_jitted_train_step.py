"""Source: https://github.com/tensorflow/tensorflow/issues/18102 ("Keras LSTM layer error with TPU unless it is unrolled": a Keras LSTM in a TPU-compiled model fails to build its gradient unless `unroll=True`). Here a sequence classifier with a default (not unrolled) Keras LSTM is trained in a jit-compiled step; on TF 2.21 XLA:CPU the LSTM's while loop and its gradient compile and match eager (the TF 1.x TPU failure does not reproduce)."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.LSTM(8),
            tf.keras.layers.Dense(3),
        ])
        self.model.build((None, 6, 4))
        self.opt = tf.keras.optimizers.SGD(0.05)
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    x = tf.reshape(tf.range(2 * 6 * 4, dtype=tf.float32) / 48.0, [2, 6, 4])
    return trainer.train_step, (x, tf.constant([0, 2]))


WRAP = False
