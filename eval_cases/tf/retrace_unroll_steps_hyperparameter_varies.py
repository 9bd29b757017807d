"""Source: https://github.com/tensorflow/tensorflow/issues/24742 (discussion of tf.function and Python hyperparameters such as num_layers or unroll_steps: each new Python value is baked into a new trace; a schedule that changes the value per call retraces and recompiles every time)."""
import tensorflow as tf

cell = tf.keras.layers.Dense(4, activation="tanh")
cell.build((None, 8))


@tf.function(jit_compile=True)
def refine(state, context, unroll_steps):
    for _ in range(unroll_steps):
        state = cell(tf.concat([state, context], axis=-1))
    return state


def curriculum(state, context, schedule):
    return [refine(state, context, n) for n in schedule]  # XLA: retrace


# --- oracle ---
def ENTRY():
    return refine, (tf.zeros([2, 4]), tf.ones([2, 4]) * 0.5, 2)


def ALT_ARGS():
    return [(tf.zeros([2, 4]), tf.ones([2, 4]) * 0.5, 3), (tf.zeros([2, 4]), tf.ones([2, 4]) * 0.5, 4)]
