"""Source: https://github.com/tensorflow/tensorflow/issues/120238 ("XLA jit_compile=True returns incorrect eigenvalues for large symmetric matrix in tf.linalg.eigvalsh": for entries around 3e19 the compiled eigensolver returns [3e19, 3e19] where eager returns [0, 6e19]). Here a whitening layer that reads the spectrum of the raw (unscaled) feature covariance of byte-count features with `tf.linalg.eigvalsh` in a jit-compiled forward pass."""
import tensorflow as tf


class SpectrumFeatures(tf.keras.Model):
    @tf.function(jit_compile=True)
    def call(self, traffic_bytes):
        cov = tf.matmul(traffic_bytes, traffic_bytes, transpose_a=True) / tf.cast(tf.shape(traffic_bytes)[0], tf.float32)
        spectrum = tf.linalg.eigvalsh(cov)  # XLA: op
        return spectrum / tf.reduce_max(spectrum)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = SpectrumFeatures()
    _KEEP.append(m)
    traffic_bytes = tf.fill([4, 2], 5.5e9)
    return m, (traffic_bytes,)
