"""Source: https://github.com/tensorflow/tensorflow/issues/50551 (`tf.cond` switching dropout on a training flag crashed under XLA with TF1 (v1) control flow; `tf.enable_control_flow_v2()` worked around it. With TF 2.21 and v2 control flow the same train/inference switch inside a compiled step compiles: the report does not reproduce)."""
import tensorflow as tf


class Tagger(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.out = tf.keras.layers.Dense(3)

    def call(self, x, training):
        h = self.hidden(x)
        h = tf.cond(training, lambda: tf.nn.dropout(h, rate=0.3, seed=1), lambda: tf.identity(h))
        return self.out(h)


# --- oracle ---
_KEEP = []
COMPARE = False


def ENTRY():
    m = Tagger()
    m(tf.zeros([2, 4]), tf.constant(False))
    _KEEP.append(m)
    x = tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]) / 8.0
    return m, (x, tf.constant(True))
