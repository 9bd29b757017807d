"""Source: https://github.com/tensorflow/tensorflow/issues/57579 ("tf.linalg.solve produces incorrect output when compiled using XLA": `solve(A^T A, A^T B)` with A of shape (2, 3), so A^T A is singular, gives a very different result under XLA). Here a per-batch linear probe fits its weights by the normal equations on a batch with fewer samples than features, inside its jit-compiled fit."""
import tensorflow as tf


class LinearProbe(tf.Module):
    @tf.function(jit_compile=True)
    def fit_predict(self, features, targets):
        ata = tf.matmul(features, features, transpose_a=True)
        atb = tf.matmul(features, targets, transpose_a=True)
        w = tf.linalg.solve(ata, atb)  # XLA: op
        return tf.matmul(features, w)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    p = LinearProbe()
    _KEEP.append(p)
    features = tf.constant([[0.5488135, 0.71518937, 0.60276338], [0.54488318, 0.4236548, 0.64589411]])
    targets = tf.constant([[0.43758721, 0.891773, 0.96366276, 0.38344152, 0.79172504],
                           [0.52889492, 0.56804456, 0.92559664, 0.07103606, 0.0871293]])
    return p.fit_predict, (features, targets)
