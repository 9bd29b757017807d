"""Source: https://github.com/tensorflow/tensorflow/issues/122886 ("XLA InternalError when compiling repeated tf.while_loop: Cannot find body function for While node": a function that runs the same `tf.while_loop` three times in a Python `for` loop works eagerly and in a plain `tf.function`, but fails under `jit_compile=True`; one or two repeated loops compile). Here a score refiner raises calibration scores in three unrolled stages, each a `tf.while_loop` that bumps the scores until all pass a floor, under `jit_compile=True`."""
import tensorflow as tf

NUM_STAGES = 3


def refine_scores(scores):
    state = (3.0 - scores, tf.constant(6))

    def below_floor(values, budget):
        return tf.reduce_any(values < 10.0)

    def bump(values, budget):
        return tf.add(values, 1.0), budget

    for _ in range(NUM_STAGES):
        state = tf.while_loop(below_floor, bump, state)  # XLA: op
    return state[0]


# --- oracle ---
def ENTRY():
    return refine_scores, (tf.constant([1.0, 2.5, -0.5, 4.0]),)
