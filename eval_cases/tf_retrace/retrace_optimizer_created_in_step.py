"""A train step that creates its Adam optimizer inside the compiled function.

Rebuilt from tensorflow/tensorflow#27120 (https://github.com/tensorflow/tensorflow/issues/27120):
"I tried to create new optimizer instance in every training step" -> "tf.function-decorated
function tried to create variables on non-first call".
"""
import tensorflow as tf


@tf.function(jit_compile=True)
def train_one_step(w, x, y):
    optim = tf.keras.optimizers.Adam(0.001)  # XLA: retrace
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    optim.apply_gradients([(tape.gradient(loss, w), w)])
    return loss


# --- oracle ---
_W = []


def ENTRY():
    w = tf.Variable([[0.5], [-0.5]])
    _W.append(w)
    return train_one_step, (w, tf.constant([[1.0, 2.0], [0.5, -1.0]]), tf.constant([[1.0], [0.0]]))


def ALT_ARGS():
    return [(_W[-1], tf.constant([[2.0, 1.0], [0.5, 1.0]]), tf.constant([[0.0], [1.0]]))]
