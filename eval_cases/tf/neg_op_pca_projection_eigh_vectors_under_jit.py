"""Source: https://github.com/tensorflow/tensorflow/issues/50017 (tf.linalg.eigh inside a tf.function with jit_compile=True returns another eigensystem than eager mode) and xlacheck/data/tf_xla_divergence.json (decomposition_sign: XLA's eigh returns some eigenvectors negated). A feature-whitening step projects a batch onto the top principal directions of its covariance inside the compiled step. Written as a failure, labelled ok by the compiler: on this batch the two top eigenvectors come out with the same signs in both modes (which vectors XLA negates depends on the matrix; the table's 4x4 probe flips others)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def project_top_components(features):
    centered = features - tf.reduce_mean(features, axis=0, keepdims=True)
    cov = tf.matmul(centered, centered, transpose_a=True) / tf.cast(tf.shape(features)[0], tf.float32)
    _, directions = tf.linalg.eigh(cov)
    return tf.matmul(centered, directions[:, -2:])


# --- oracle ---
def ENTRY():
    features = tf.constant([[2.0, -1.0, 0.5, 0.0], [0.3, 1.5, -0.7, 1.1], [-0.4, 0.9, 2.2, -0.6],
                            [1.0, 0.2, -0.3, 1.8], [0.7, -1.2, 0.4, 0.9], [-1.5, 0.3, 1.1, -0.2]])
    return project_top_components, (features,)
