"""Source: https://github.com/tensorflow/tensorflow/issues/120620 (state that changes per iteration must be a loop variable, not Python state read at trace time). Here the add/subtract phase is a boolean loop variable and the branch is a `tf.where` on it."""
import tensorflow as tf


class AlternatingAccumulator(tf.keras.Model):
    def call(self, x):
        def loop_cond(i, add_phase, acc):
            return i < 3

        def loop_body(i, add_phase, acc):
            add_phase = tf.logical_not(add_phase)
            acc = acc + tf.where(add_phase, x, -x)
            return i + 1, add_phase, acc

        _, _, acc = tf.while_loop(loop_cond, loop_body, [tf.constant(0), tf.constant(True), tf.zeros_like(x)])
        return acc


# --- oracle ---
def ENTRY():
    model = AlternatingAccumulator()
    return model, (tf.constant([1.0, 2.0, 3.0]),)
