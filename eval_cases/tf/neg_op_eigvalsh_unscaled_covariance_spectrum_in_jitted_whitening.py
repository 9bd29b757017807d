"""Source: https://github.com/tensorflow/tensorflow/issues/120238 ("XLA jit_compile=True returns incorrect eigenvalues for large symmetric matrix in tf.linalg.eigvalsh"). The near miss: the byte counts are rescaled to gigabytes before the covariance, so its entries are of order one; the same spectrum features in a jit-compiled forward pass."""
import tensorflow as tf


class SpectrumFeatures(tf.keras.Model):
    @tf.function(jit_compile=True)
    def call(self, traffic_bytes):
        x = traffic_bytes / 1e9
        cov = tf.matmul(x, x, transpose_a=True) / tf.cast(tf.shape(x)[0], tf.float32)
        spectrum = tf.linalg.eigvalsh(cov)
        return spectrum / tf.reduce_max(spectrum)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = SpectrumFeatures()
    _KEEP.append(m)
    traffic_bytes = tf.fill([4, 2], 5.5e9)
    return m, (traffic_bytes,)
