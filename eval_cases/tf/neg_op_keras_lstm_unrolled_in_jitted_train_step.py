"""Source: https://github.com/tensorflow/tensorflow/issues/18102 ("Keras LSTM layer error with TPU unless it is unrolled": the reporter's workaround is `unroll=True`). Here the sequence classifier's Keras LSTM is built with `unroll=True` (the documented workaround), so the jit-compiled train step has no while loop at all and compiles."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.LSTM(8, unroll=True),
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
