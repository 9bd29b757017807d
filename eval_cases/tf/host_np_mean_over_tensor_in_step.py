"""Source: https://github.com/tensorflow/tensorflow/issues/36792 ("Cannot convert a symbolic Tensor (Neg_1:0) to a numpy array": NumPy mixed with TF ops inside a tf.function; "in general, you can't mix NumPy and TF ops")."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])


@tf.function(jit_compile=True)
def eval_step(x, y):
    logits = model(x)
    neg_log_lik = -tf.nn.log_softmax(logits)
    per_example = tf.reduce_sum(neg_log_lik * y, axis=-1)
    return np.mean(per_example)  # XLA: host


# --- oracle ---
def ENTRY():
    return eval_step, (tf.constant([[1.0, 2.0], [0.5, 0.1]]), tf.constant([[1.0, 0.0], [0.0, 1.0]]))
