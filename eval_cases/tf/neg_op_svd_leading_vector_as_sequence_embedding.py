"""Source: https://github.com/tensorflow/tensorflow/issues/50017 (linear-algebra decompositions under jit_compile=True return another eigensystem than eager mode) and xlacheck/data/tf_xla_divergence.json (decomposition_sign: XLA's svd returns some singular vectors negated). A sequence summarizer uses the leading right singular vector of each (time x feature) window, scaled by its singular value, as the window embedding. Written as a failure, labelled ok by the compiler: on this window the leading right singular vector has the same sign in both modes (which vectors XLA negates depends on the matrix; the table's 4x4 probe flips others)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def window_embedding(window):
    s, u, v = tf.linalg.svd(window)
    return v[:, 0] * s[0]


# --- oracle ---
def ENTRY():
    window = tf.constant([[2.0, -1.0, 0.5, 0.0], [0.3, 1.5, -0.7, 1.1], [-0.4, 0.9, 2.2, -0.6],
                          [1.0, 0.2, -0.3, 1.8], [0.7, -1.2, 0.4, 0.9]])
    return window_embedding, (window,)
