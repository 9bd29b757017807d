"""Source: https://github.com/tensorflow/tensorflow/issues/118380 ("XLA jit_compile=True returns incorrect eigenvalues for large symmetric matrix in tf.linalg.eigvalsh": for [[3e19, 3e19], [3e19, 3e19]] eager returns [0, 6e19], XLA on CPU [3e19, 3e19]). Here a spectral feature extractor takes the eigenvalues of the Gram matrix of raw, unscaled transaction amounts inside its jit-compiled call."""
import tensorflow as tf


class SpectralFeatures(tf.Module):
    @tf.function(jit_compile=True)
    def __call__(self, amounts):
        gram = tf.matmul(amounts, amounts, transpose_a=True)
        return tf.linalg.eigvalsh(gram)  # XLA: op


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    f = SpectralFeatures()
    _KEEP.append(f)
    v = 3.0e9
    amounts = tf.constant([[v, v], [v, v], [v, v]])
    return f.__call__, (amounts,)
