"""Source: https://github.com/tensorflow/tensorflow/issues/108305 ("Type mismatch in tf.maximum with mixed int/float arguments in XLA compilation mode": `dampening_factor * tf.maximum(0, 1 - tf.abs(v_scaled))` in a spiking model raises "Input 'y' of 'Maximum' Op has type float32 that does not match type int32 of argument 'x'" under jit_compile). Here a spiking recurrent model computes the surrogate gradient of its threshold with `tf.maximum(0, 1 - tf.abs(v_scaled))` inside a `tf.custom_gradient` spike function, in a jit-compiled forward and backward step."""
import tensorflow as tf


@tf.custom_gradient
def spike(v_scaled):
    z = tf.cast(v_scaled > 0.0, tf.float32)

    def grad(dy):
        pseudo_derivative = 0.3 * tf.maximum(0, 1 - tf.abs(v_scaled))  # XLA: op
        return dy * pseudo_derivative

    return z, grad


class SpikingModel(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(4 * 3, dtype=tf.float32), [4, 3]) / 12.0 - 0.4)

    @tf.function(jit_compile=True)
    def step(self, x):
        with tf.GradientTape() as tape:
            v = tf.matmul(x, self.w)
            z = spike(v / 2.0)
            loss = tf.reduce_sum(z * v)
        return loss, tape.gradient(loss, self.w)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = SpikingModel()
    _KEEP.append(m)
    return m.step, (tf.reshape(tf.range(2 * 4, dtype=tf.float32), [2, 4]) / 8.0 - 0.3,)
