"""A trainer keeps its softmax temperature as a Python float attribute, anneals it once per epoch
and passes it to the jit-compiled step: every epoch's new value traces and compiles the step again.

Rebuilt from yerkojahve/Meta-Pseudo-label#1 (https://github.com/yerkojahve/Meta-Pseudo-label/issues/1):
`learning_rate` and `temperature` (Python floats updated in the training loop of
snlds/examples/lorenz_attractor_trainer.py) passed to the tf.function `train_step`, "every time the
value changes, a new graph will be generated".
"""
import tensorflow as tf


class DistillTrainer:
    def __init__(self):
        self.w = tf.Variable(tf.ones([4, 3]))
        self.temperature = 4.0

    @tf.function(jit_compile=True)
    def train_step(self, x, temperature):
        logits = tf.matmul(x, self.w) / temperature
        return tf.reduce_mean(tf.nn.softmax(logits))

    def anneal(self):
        self.temperature = max(1.0, self.temperature * 0.5)

    def fit(self, batches, epochs):
        out = []
        for _ in range(epochs):
            self.anneal()
            for x in batches:
                out.append(self.train_step(x, self.temperature))  # XLA: retrace
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
