"""Source: https://github.com/tensorflow/tensorflow/issues/117864 ("`tf.linalg.eigvalsh` / `eigh` returns wrong results for complex input under XLA"). Here the spectral feature layer avoids complex input: it takes the eigenvalues of the real symmetric embedding [[Re, -Im], [Im, Re]] of the Hermitian matrix (each eigenvalue appears twice) and keeps every other one, which XLA computes the same as eager."""
import tensorflow as tf


class SpectralFeatures(tf.keras.layers.Layer):
    def call(self, re, im):
        sym_re = 0.5 * (re + tf.linalg.matrix_transpose(re))
        anti_im = 0.5 * (im - tf.linalg.matrix_transpose(im))
        top = tf.concat([sym_re, -anti_im], axis=-1)
        bottom = tf.concat([anti_im, sym_re], axis=-1)
        eigenvalues = tf.linalg.eigvalsh(tf.concat([top, bottom], axis=-2))
        return eigenvalues[..., ::2]


layer = SpectralFeatures()


@tf.function(jit_compile=True)
def spectrum(re, im):
    return layer(re, im)


# --- oracle ---
def ENTRY():
    re = tf.constant([[[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 3.0]]])
    im = tf.constant([[[0.0, 1.0, 0.2], [-1.0, 0.0, 0.4], [-0.2, -0.4, 0.0]]])
    return spectrum, (re, im)
