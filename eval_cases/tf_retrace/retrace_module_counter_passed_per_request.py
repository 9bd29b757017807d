"""A request handler bumps a module-level Python counter and passes it to the jit-compiled model
(to vary dropout noise per request): every request is a new Python int, so every request traces
and compiles the model again.

Rebuilt from tensorflow/tensorboard#6219 (https://github.com/tensorflow/tensorboard/issues/6219):
a Python `step` passed to a tf.function "every time the value changes, a new graph will be
generated"; here the step lives in a `global` counter, as request handlers keep it.
"""
import tensorflow as tf

REQUESTS = 0
w = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def noisy_score(x, request_id):
    noise = tf.random.stateless_uniform(tf.shape(x), seed=[request_id, 7], maxval=0.01)
    return tf.matmul(x + noise, w)


def handle(x):
    global REQUESTS
    REQUESTS += 1
    return noisy_score(x, REQUESTS)  # XLA: retrace


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return handle, (tf.ones([2, 3]),)


def ALT_ARGS():
    return [(tf.ones([2, 3]),), (tf.zeros([2, 3]),)]
