"""Source: https://github.com/tensorflow/tensorflow/issues/38038 ("Custom Metrics and Losses: AttributeError: 'Tensor' object has no attribute 'numpy' raised during training": a custom metric converts its batch to NumPy in `update_state`, which only works eagerly)."""
import numpy as np
import tensorflow as tf


class MedianAbsoluteError(tf.keras.metrics.Metric):
    def __init__(self, name="median_ae", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_weight(name="total", initializer="zeros")
        self.count = self.add_weight(name="count", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        err = np.abs(y_true.numpy() - y_pred.numpy())  # XLA: host
        self.total.assign_add(float(np.median(err)))
        self.count.assign_add(1.0)

    def result(self):
        return self.total / self.count


class Evaluator:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.metric = MedianAbsoluteError()

    def eval_step(self, x, y):
        self.metric.update_state(y, self.model(x))
        return self.metric.result()


# --- oracle ---
_KEEP = []


def ENTRY():
    ev = Evaluator()
    _KEEP.append(ev)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]) / 12.0
    return ev.eval_step, (x, tf.constant([[0.1], [0.4], [0.6], [0.9]]))
