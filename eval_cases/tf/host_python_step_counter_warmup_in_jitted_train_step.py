"""Source: https://github.com/tensorflow/tensorflow/issues/31362 ("Non-tensorflow code gets executed only on the first run of tf.function": `o.value += 1` on a Python object inside a `tf.function` runs once, at trace time). Here a trainer counts its steps in a Python attribute to scale a learning-rate warmup inside its jit-compiled train step; the compiled step keeps the warmup factor of the first call, while eager execution raises it every step."""
import tensorflow as tf

WARMUP = 4


class WarmupTrainer:
    def __init__(self):
        self.model = tf.keras.layers.Dense(1)
        self.model.build((None, 3))
        self.opt = tf.keras.optimizers.SGD(0.1)
        self.step = 0

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        self.step += 1
        scale = min(1.0, self.step / WARMUP)  # XLA: host
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
