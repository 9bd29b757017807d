"""The same trainer with the temperature kept in a tf.Variable and annealed with `assign`: the
compiled step reads the variable, so one trace serves every epoch.

Near miss for yerkojahve/Meta-Pseudo-label#1 (https://github.com/yerkojahve/Meta-Pseudo-label/issues/1),
the fix the report suggests (tensors instead of Python floats).
"""
import tensorflow as tf


class DistillTrainer:
    def __init__(self):
        self.w = tf.Variable(tf.ones([4, 3]))
        self.temperature = tf.Variable(4.0)

    @tf.function(jit_compile=True)
    def train_step(self, x):
        logits = tf.matmul(x, self.w) / self.temperature
        return tf.reduce_mean(tf.nn.softmax(logits))

    def anneal(self):
        self.temperature.assign(tf.maximum(1.0, self.temperature * 0.5))

    def fit(self, batches, epochs):
        out = []
        for _ in range(epochs):
            self.anneal()
            for x in batches:
                out.append(self.train_step(x))
        return out


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    t = DistillTrainer()
    _KEEP.append(t)
    return t.fit, ([tf.ones([2, 4]), tf.zeros([2, 4])], 1)


def ALT_ARGS():
    return [([tf.ones([2, 4]), tf.zeros([2, 4])], 1)]
