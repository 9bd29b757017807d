"""Source: https://github.com/tensorflow/tensorflow/issues/30580 ("TPU has XLA compilation issue on TF 1.14": gradient aggregation through `accumulate_n` did not compile under XLA; `tf.add_n` is the plain sum XLA lowers directly). Here the train step sums the micro-batch gradients with `tf.add_n` inside the jit-compiled function."""
import tensorflow as tf

MICRO = 3


class Trainer:
    def __init__(self):
        self.model = tf.keras.layers.Dense(2)
        self.model.build((None, 4))
        self.opt = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        per_micro = []
        for xb, yb in zip(tf.split(x, MICRO), tf.split(y, MICRO)):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.model(xb) - yb))
            per_micro.append(tape.gradient(loss, self.model.trainable_variables))
        summed = [tf.add_n(list(gs)) / MICRO for gs in zip(*per_micro)]
        self.opt.apply_gradients(zip(summed, self.model.trainable_variables))
        return tf.reduce_sum(self.model.kernel)


# --- oracle ---
_KEEP = []


def ENTRY():
    trainer = Trainer()
    _KEEP.append(trainer)
    x = tf.reshape(tf.range(6 * 4, dtype=tf.float32), [6, 4]) / 24.0
    return trainer.train_step, (x, tf.ones([6, 2]))


WRAP = False
