"""Source: https://github.com/tensorflow/tensorflow/issues/122886 (the report's own finding: one loop compiles; only repeated `tf.while_loop`s fail). Here the three refinement stages run inside a single `tf.while_loop` that carries the stage index, under `jit_compile=True`."""
import tensorflow as tf

NUM_STAGES = 3


def refine_scores(scores):
    def not_done(stage, values, budget):
        return tf.logical_or(stage < NUM_STAGES - 1, tf.reduce_any(values < 10.0))

    def bump(stage, values, budget):
        stage = tf.where(tf.reduce_any(values < 10.0), stage, stage + 1)
        values = tf.where(tf.reduce_any(values < 10.0), values + 1.0, values)
        return stage, values, budget

    _, values, _ = tf.while_loop(not_done, bump, (tf.constant(0), 3.0 - scores, tf.constant(6)))
    return values


# --- oracle ---
def ENTRY():
    return refine_scores, (tf.constant([1.0, 2.5, -0.5, 4.0]),)
