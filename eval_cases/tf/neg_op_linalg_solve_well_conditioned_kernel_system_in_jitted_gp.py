"""Source: https://github.com/tensorflow/tensorflow/issues/118378 ("XLA jit_compile=True returns finite values for singular tf.linalg.solve while eager raises error"). Here a Gaussian-process regressor solves its kernel system with observation noise on the diagonal (never singular) with `tf.linalg.solve` inside its jit-compiled predict; eager and XLA agree."""
import tensorflow as tf


class GPRegressor(tf.Module):
    @tf.function(jit_compile=True)
    def predict(self, x_train, y_train, x_test):
        d = x_train[:, None] - x_train[None, :]
        k = tf.exp(-0.5 * tf.square(d)) + 0.05 * tf.eye(tf.shape(x_train)[0])
        alpha = tf.linalg.solve(k, y_train[:, None])
        ks = tf.exp(-0.5 * tf.square(x_test[:, None] - x_train[None, :]))
        return tf.squeeze(tf.matmul(ks, alpha), -1)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    g = GPRegressor()
    _KEEP.append(g)
    x_train = tf.linspace(-2.0, 2.0, 6)
    y_train = tf.sin(x_train)
    x_test = tf.linspace(-1.5, 1.5, 4)
    return g.predict, (x_train, y_train, x_test)
