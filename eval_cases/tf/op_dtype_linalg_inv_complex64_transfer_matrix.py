"""Source: https://github.com/tensorflow/tensorflow/issues/88040 ("[XLA] can't compile tf.linalg.inv when input tensor dtype is tf.complex64": eager passes, XLA fails on MatrixInverse). A layer that inverts a complex channel (transfer) matrix for zero-forcing equalisation."""
import tensorflow as tf


class ZeroForcingEqualizer(tf.keras.layers.Layer):
    def call(self, h_real, h_imag, received):
        h = tf.complex(h_real, h_imag)
        h_inv = tf.linalg.inv(tf.cast(h, tf.complex64))  # XLA: op
        y = tf.cast(received, tf.complex64)
        return tf.math.real(tf.linalg.matvec(h_inv, y))


eq = ZeroForcingEqualizer()


@tf.function(jit_compile=True)
def equalize(h_real, h_imag, received):
    return eq(h_real, h_imag, received)


# --- oracle ---
def ENTRY():
    h_real = tf.constant([[[2.0, 0.5], [0.25, 1.5]]])
    h_imag = tf.constant([[[0.1, 0.0], [0.0, -0.2]]])
    return equalize, (h_real, h_imag, tf.constant([[1.0, 2.0]]))
