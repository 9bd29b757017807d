"""A training loop that rebuilds its jit-compiled step from a factory at the start of every epoch
(to bake in that epoch's learning rate): each epoch gets a new tf.function with an empty trace
cache and compiles again.

Rebuilt from the first cause TensorFlow's retracing warning names, "(1) creating @tf.function
repeatedly in a loop", as reported for a training function built inside `main` in
isl-org/DeepLagrangianFluids#28 (https://github.com/isl-org/DeepLagrangianFluids/issues/28).
"""
import tensorflow as tf


def make_step(w, lr):
    @tf.function(jit_compile=True)
    def step(x):
        grad = tf.reduce_mean(x, axis=0, keepdims=True)
        w.assign_sub(lr * tf.transpose(grad))
        return tf.reduce_sum(w)
    return step


def train(w, batches, epochs):
    out = []
    for epoch in range(epochs):
        step = make_step(w, 0.1 * 0.5 ** epoch)  # XLA: retrace
        for x in batches:
            out.append(step(x))
    return out


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    w = tf.Variable(tf.ones([4, 1]))
    _KEEP.append(w)
    return train, (w, [tf.ones([2, 4]), tf.zeros([2, 4])], 2)


def ALT_ARGS():
    return [(_KEEP[-1], [tf.ones([2, 4]), tf.zeros([2, 4])], 2)]
