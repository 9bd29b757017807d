"""Source: https://github.com/bayesflow-org/bayesflow/issues/223 (near miss, the fix from the report: the step is a tf.Variable updated with assign_add)."""
import tensorflow as tf


class ConsistencyTrainer:
    def __init__(self, total_steps=10):
        self.total_steps = total_steps
        self.current_step = tf.Variable(0.0, trainable=False)

    @tf.function(jit_compile=True)
    def train_step(self, x):
        discretization = 2.0 + 8.0 * self.current_step / self.total_steps
        self.current_step.assign_add(1.0)
        return tf.reduce_mean(x) * discretization


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = ConsistencyTrainer()
    _KEEP.append(t)
    return t.train_step, (tf.constant([1.0, 2.0, 3.0]),)


def ALT_ARGS():
    return [(tf.constant([1.0, 2.0, 3.0]),), (tf.constant([2.0, 2.0, 2.0]),)]
