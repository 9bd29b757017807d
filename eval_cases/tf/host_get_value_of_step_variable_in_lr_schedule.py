"""Source: https://github.com/keras-team/keras/issues/13396 ("TF2 K.get_value() - bug or feature?": an optimizer reads its step variable with `K.get_value` to decide the update; in a compiled step get_value escapes to the host at trace time, so the value it read is frozen into the program)."""
import tensorflow as tf
from tensorflow.keras import backend as K


class WarmupSGD:
    def __init__(self, var_list, lr=0.1, warmup_steps=2):
        self.var_list = var_list
        self.lr = lr
        self.warmup_steps = warmup_steps
        self.iterations = tf.Variable(0, dtype=tf.int64, trainable=False)

    def apply(self, grads):
        step = K.get_value(self.iterations)  # XLA: host
        scale = min(1.0, (step + 1) / self.warmup_steps)
        for v, g in zip(self.var_list, grads):
            v.assign_sub(self.lr * scale * g)
        self.iterations.assign_add(1)


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.model.build([None, 3])
        self.optimizer = WarmupSGD(self.model.trainable_variables)

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        self.optimizer.apply(tape.gradient(loss, self.model.trainable_variables))
        return self.model.trainable_variables[0]


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return t.train_step, (x, tf.ones([4, 1]))


def ALT_ARGS():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return [(x, tf.ones([4, 1])), (x, tf.ones([4, 1]))]
