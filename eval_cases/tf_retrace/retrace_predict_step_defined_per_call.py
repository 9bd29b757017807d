"""Prediction helper that defines its jit-compiled step inside the method, so every call compiles.

Rebuilt from YosefLab/epitome#43 (https://github.com/YosefLab/epitome/issues/43): the warning
named `VariationalPeakModel.run_predictions.<locals>.predict_step` (a tf.function defined in the
method body and called over the batches) as retracing on every call of run_predictions.
"""
import tensorflow as tf


class PeakModel:
    def __init__(self):
        self.w = tf.Variable(tf.ones([4, 2]))

    def run_predictions(self, batches):
        @tf.function(jit_compile=True)  # XLA: retrace
        def predict_step(x):
            return tf.nn.sigmoid(tf.matmul(x, self.w))

        return tf.concat([predict_step(x) for x in batches], axis=0)


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    m = PeakModel()
    _KEEP.append(m)
    return m.run_predictions, ([tf.ones([2, 4]), tf.zeros([2, 4])],)


def ALT_ARGS():
    return [([tf.fill([2, 4], 0.5), tf.ones([2, 4])],), ([tf.zeros([2, 4]), tf.zeros([2, 4])],)]
