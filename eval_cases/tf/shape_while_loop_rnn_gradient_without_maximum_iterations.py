"""Source: https://github.com/tensorflow/tensorflow/issues/73367 (the gradient of a tf.while_loop under jit_compile: "XLA compilation requires a fixed tensor list size ... a while loop that does not have its maximum_iteration set"); here without vectorized_map: a hand-written RNN cell unrolled by tf.while_loop in a jit-compiled train step."""
import tensorflow as tf


class TinyRnn:
    def __init__(self):
        init = tf.keras.initializers.RandomUniform(-0.3, 0.3, seed=4)
        self.w_in = tf.Variable(init([3, 4]))
        self.w_h = tf.Variable(init([4, 4]))
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, inputs, target):
        steps = tf.shape(inputs)[1]
        with tf.GradientTape() as tape:
            def body(t, h):
                x_t = inputs[:, t, :]
                return t + 1, tf.tanh(tf.matmul(x_t, self.w_in) + tf.matmul(h, self.w_h))

            _, h = tf.while_loop(lambda t, h: t < steps, body,  # XLA: shape
                                 (tf.constant(0), tf.zeros([tf.shape(inputs)[0], 4])))
            loss = tf.reduce_mean(tf.square(h - target))
        variables = [self.w_in, self.w_h]
        self.opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = TinyRnn()
    _KEEP.append(m)
    inputs = tf.reshape(tf.range(2 * 5 * 3, dtype=tf.float32) / 30.0, [2, 5, 3])
    return m.train_step, (inputs, tf.ones([2, 4]) * 0.5)
