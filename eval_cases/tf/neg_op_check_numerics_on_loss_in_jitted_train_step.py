"""Source: https://github.com/tensorflow/tensorflow/issues/118075 ("XLA jit_compile=True ignores tf.debugging.check_numerics on NaN input while eager raises InvalidArgumentError"). Here a regression trainer guards its loss with `tf.debugging.check_numerics` inside the jit-compiled train step; on finite batches the step compiles and matches eager (under XLA the check is simply not enforced)."""
import tensorflow as tf


class Trainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.constant([[0.1], [-0.2], [0.3]]))
        self.b = tf.Variable(tf.zeros([1]))

    @tf.function(jit_compile=True)
    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, self.w) + self.b
            loss = tf.reduce_mean(tf.square(pred - y))
            loss = tf.debugging.check_numerics(loss, "regression loss")
        gw, gb = tape.gradient(loss, [self.w, self.b])
        self.w.assign_sub(0.1 * gw)
        self.b.assign_sub(0.1 * gb)
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(4 * 3, dtype=tf.float32), [4, 3]) / 12.0
    y = tf.constant([[0.5], [1.0], [1.5], [2.0]])
    return t.train_step, (x, y)
