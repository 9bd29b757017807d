"""A jit step with a None-dimension input_signature, iterated on its own output: one shape, one compile.

Near miss for tensorflow/tensorflow#29075 (https://github.com/tensorflow/tensorflow/issues/29075):
the signature's None dims recompile only when new shapes arrive; state carried through the loop
(`state = relax(state)`) keeps the shape it started with.
"""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], jit_compile=True)
def relax(state):
    return 0.5 * (state + tf.roll(state, 1, axis=0))


def iterate(state, steps):
    for _ in range(steps):
        state = relax(state)
    return state


# --- oracle ---
WRAP = False
_STATE = tf.constant([1.0, 0.0, 0.0, 0.0, 2.0, 0.0])


def ENTRY():
    return iterate, (_STATE, 2)


def ALT_ARGS():
    return [(_STATE, 5), (_STATE * 2.0, 3)]
