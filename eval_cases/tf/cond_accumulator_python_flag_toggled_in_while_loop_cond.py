"""Source: https://github.com/tensorflow/tensorflow/issues/120620 ("XLA produces different output for tf.while_loop when loop body depends on Python mutable state": a Keras model toggles a Python boolean `self.flag` inside `loop_cond` and branches on it with `if self.flag` in `loop_body`; eagerly the flag flips on every iteration, but the compiled loop traces `cond` and `body` once, so the branch taken at trace time is baked into the graph and `jit_compile=True` returns a different result). Here a signed accumulator alternates between adding and subtracting its input by toggling a Python attribute in the loop condition."""
import tensorflow as tf


class AlternatingAccumulator(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.add_phase = True

    def call(self, x):
        def loop_cond(i, acc):
            self.add_phase = not self.add_phase
            return i < 3

        def loop_body(i, acc):
            if self.add_phase:  # XLA: cond
                acc = acc + x
            else:
                acc = acc - x
            return i + 1, acc

        _, acc = tf.while_loop(loop_cond, loop_body, [tf.constant(0), tf.zeros_like(x)])
        return acc


# --- oracle ---
def ENTRY():
    model = AlternatingAccumulator()
    return model, (tf.constant([1.0, 2.0, 3.0]),)
