"""Source: https://github.com/tensorflow/tensorflow/issues/117546 ("tf.math.cumsum / tf.math.cumprod crash with jit_compile=True on complex dtypes": No registered 'Cumsum' OpKernel for XLA_CPU_JIT). The powers lambda^k of a diagonal state-space recurrence, taken as a cumulative product of complex eigenvalues."""
import tensorflow as tf


class DiagonalSSMKernel(tf.keras.layers.Layer):
    def __init__(self, state_dim=4, length=8, **kwargs):
        super().__init__(**kwargs)
        self.state_dim = state_dim
        self.length = length

    def build(self, input_shape):
        self.log_decay = self.add_weight(name="log_decay", shape=(self.state_dim,), initializer="zeros")

    def call(self, u):
        decay = tf.exp(-tf.nn.softplus(self.log_decay) - 0.1)
        lam = tf.cast(decay, tf.complex64)
        steps = tf.ones([self.length, 1], tf.complex64) * lam[None, :]
        powers = tf.math.cumprod(steps, axis=0, exclusive=True)  # XLA: op
        kernel = tf.math.real(tf.reduce_sum(powers, axis=-1))
        return u * kernel[None, :]


ssm = DiagonalSSMKernel()


@tf.function(jit_compile=True)
def apply_kernel(u):
    return ssm(u)


# --- oracle ---
def ENTRY():
    return apply_kernel, (tf.ones([2, 8]),)
