"""The same handler with the request counter in a tf.Variable, read inside the compiled function:
one trace, one compilation for every request.

Near miss for tensorflow/tensorboard#6219 (https://github.com/tensorflow/tensorboard/issues/6219):
state that changes per call belongs in a variable (or a tensor argument), not a Python int.
"""
import tensorflow as tf

REQUESTS = tf.Variable(0, dtype=tf.int32)
w = tf.constant([[0.5], [-0.25], [1.0]])


@tf.function(jit_compile=True)
def noisy_score(x):
    REQUESTS.assign_add(1)
    noise = tf.random.stateless_uniform(tf.shape(x), seed=tf.stack([REQUESTS, 7]), maxval=0.01)
    return tf.matmul(x + noise, w)


def handle(x):
    return noisy_score(x)


# --- oracle ---
WRAP = False
COMPARE = False


def ENTRY():
    return handle, (tf.ones([2, 3]),)


def ALT_ARGS():
    return [(tf.ones([2, 3]),), (tf.zeros([2, 3]),)]
