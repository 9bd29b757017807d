"""The same prediction helper with its compiled step built once in __init__ (the usual fix).

Counterpart of YosefLab/epitome#43 (https://github.com/YosefLab/epitome/issues/43).
"""
import tensorflow as tf


class PeakModel:
    def __init__(self):
        self.w = tf.Variable(tf.ones([4, 2]))
        self._predict_step = tf.function(self._predict, jit_compile=True)

    def _predict(self, x):
        return tf.nn.sigmoid(tf.matmul(x, self.w))

    def run_predictions(self, batches):
        return tf.concat([self._predict_step(x) for x in batches], axis=0)


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    m = PeakModel()
    _KEEP.append(m)
    return m.run_predictions, ([tf.ones([2, 4]), tf.zeros([2, 4])],)


def ALT_ARGS():
    return [([tf.fill([2, 4], 0.5), tf.ones([2, 4])],), ([tf.zeros([2, 4]), tf.zeros([2, 4])],)]
