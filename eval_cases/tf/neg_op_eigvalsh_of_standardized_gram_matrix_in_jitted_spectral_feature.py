"""Source: https://github.com/tensorflow/tensorflow/issues/118380 ("XLA jit_compile=True returns incorrect eigenvalues for large symmetric matrix in tf.linalg.eigvalsh"). The numerically safe variant of the spectral feature extractor: divide the transaction amounts by their largest magnitude before forming the Gram matrix, take the eigenvalues, and scale them back."""
import tensorflow as tf


class SpectralFeatures(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, amounts):
        scale = tf.reduce_max(tf.abs(amounts))
        a = amounts / scale
        gram = tf.matmul(a, a, transpose_a=True)
        return tf.linalg.eigvalsh(gram) * tf.square(scale)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    f = SpectralFeatures()
    _KEEP.append(f)
    amounts = tf.constant([[3.0e9, 1.0e9], [2.0e9, 3.0e9], [1.0e9, 1.5e9]])
    return f.__call__, (amounts,)
