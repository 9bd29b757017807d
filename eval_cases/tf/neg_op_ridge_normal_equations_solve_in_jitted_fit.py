"""Source: https://github.com/tensorflow/tensorflow/issues/57579 ("tf.linalg.solve produces incorrect output when compiled using XLA" on singular normal equations) and https://github.com/tensorflow/tensorflow/issues/118378 (XLA returns finite values for a singular `tf.linalg.solve` where eager raises). The usual fix for the per-batch linear probe: add a ridge term to A^T A so the system is well conditioned, then solve inside the jit-compiled fit."""
import tensorflow as tf


class LinearProbe(tf.Module):
    @tf.function(jit_compile=True)
    def fit_predict(self, features, targets):
        ata = tf.matmul(features, features, transpose_a=True)
        atb = tf.matmul(features, targets, transpose_a=True)
        ridge = 0.1 * tf.eye(tf.shape(ata)[0])
        w = tf.linalg.solve(ata + ridge, atb)
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
