"""Source: https://github.com/tensorflow/tensorflow/issues/117864 ("`tf.linalg.eigvalsh` / `eigh` returns wrong results for complex input under XLA": for complex Hermitian matrices the compiled eigenvalues are consecutive pairs of the true ones packed into real and imaginary parts). Here a spectral feature layer computes the eigenvalues of a complex Hermitian coupling matrix built from its inputs inside a jit-compiled forward pass. The oracle (TF 2.21, XLA:CPU) finds the compiled eigenvalues equal to eager for this batched 3x3 input, so this form is a negative: the report's wrong packing does not reproduce here."""
import tensorflow as tf


class SpectralFeatures(tf.keras.layers.Layer):
    def call(self, re, im):
        upper = tf.complex(re, im)
        hermitian = 0.5 * (upper + tf.linalg.adjoint(upper))
        eigenvalues = tf.linalg.eigvalsh(hermitian)
        return tf.math.real(eigenvalues)


layer = SpectralFeatures()


@tf.function(jit_compile=True)
def spectrum(re, im):
    return layer(re, im)


# --- oracle ---
def ENTRY():
    re = tf.constant([[[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 3.0]]])
    im = tf.constant([[[0.0, 1.0, 0.2], [-1.0, 0.0, 0.4], [-0.2, -0.4, 0.0]]])
    return spectrum, (re, im)
