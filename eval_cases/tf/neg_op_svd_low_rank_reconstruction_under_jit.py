"""Source: https://github.com/tensorflow/tensorflow/issues/50017 (decompositions under jit_compile=True differ from eager mode) and xlacheck/data/tf_xla_divergence.json (decomposition_sign, form product: u diag(s) v^T is measured close). The near miss: a low-rank denoiser keeps the top two singular triplets and rebuilds the matrix; the signs of u and v cancel, so XLA and eager agree."""
import tensorflow as tf


@tf.function(jit_compile=True)
def low_rank_denoise(window):
    s, u, v = tf.linalg.svd(window)
    return tf.matmul(u[:, :2] * s[:2], v[:, :2], transpose_b=True)


# --- oracle ---
def ENTRY():
    window = tf.constant([[2.0, -1.0, 0.5, 0.0], [0.3, 1.5, -0.7, 1.1], [-0.4, 0.9, 2.2, -0.6],
                          [1.0, 0.2, -0.3, 1.8], [0.7, -1.2, 0.4, 0.9]])
    return low_rank_denoise, (window,)
