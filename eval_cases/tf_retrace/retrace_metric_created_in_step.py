"""A compiled eval step that builds its Keras metric inside the step.

Rebuilt from tensorflow/tensorflow#26812 (https://github.com/tensorflow/tensorflow/issues/26812)
and suinleelab/attributionpriors#6 (https://github.com/suinleelab/attributionpriors/issues/6):
state (a tf.Variable, here the metric's accumulators) created inside a tf.function ->
"tf.function only supports singleton tf.Variables created on the first call".
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def eval_step(y_true, y_pred):
    acc = tf.keras.metrics.BinaryAccuracy()  # XLA: retrace
    acc.update_state(y_true, y_pred)
    return acc.result()


# --- oracle ---
def ENTRY():
    return eval_step, (tf.constant([1.0, 0.0, 1.0]), tf.constant([0.9, 0.2, 0.4]))


def ALT_ARGS():
    return [(tf.constant([0.0, 0.0, 1.0]), tf.constant([0.1, 0.7, 0.8]))]
