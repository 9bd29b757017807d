"""Source: https://github.com/tensorflow/tensorflow/issues/31362 ("Non-tensorflow code gets executed only on the first run of tf.function": Python state changed inside a `tf.function` updates only at trace time; the documented fix is to keep such state in a `tf.Variable`). Here the trainer counts its steps in a `tf.Variable` and computes the warmup factor from it as a tensor inside the jit-compiled train step."""
import tensorflow as tf

WARMUP = 4


class WarmupTrainer:
    def __init__(self):
        self.model = tf.keras.layers.Dense(1)
        self.model.build((None, 3))
        self.opt = tf.keras.optimizers.SGD(0.1)
        self.step = tf.Variable(0, dtype=tf.int32, trainable=False)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        self.step.assign_add(1)
        scale = tf.minimum(1.0, tf.cast(self.step, tf.float32) / WARMUP)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.opt.apply_gradients([(g * scale, v) for g, v in zip(grads, self.model.trainable_variables)])
        return loss, tf.reduce_sum(self.model.kernel)


# --- oracle ---
_KEEP = []


def _batch():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return x, tf.ones([4, 1])


def ENTRY():
    trainer = WarmupTrainer()
    _KEEP.append(trainer)
    return trainer.train_step, _batch()


def ALT_ARGS():
    return [_batch(), _batch(), _batch()]


WRAP = False
