"""Source: https://github.com/keras-team/keras/issues/14442 (a validation loss that ignores NaN targets counts them with `K.get_value(num_nan) > 0` and divides by `K.get_value(num_obs)`; get_value needs a concrete value, which a traced loss does not have)."""
import tensorflow as tf
from tensorflow.keras import backend as K


def mse_without_nan(y_true, y_pred):
    sqr = K.square(y_pred - y_true)
    num_nan = tf.reduce_sum(tf.cast(tf.math.is_nan(sqr), tf.int32))
    if K.get_value(num_nan) > 0:  # XLA: host
        sqr = tf.where(tf.math.is_nan(sqr), tf.zeros_like(sqr), sqr)
    num_obs = tf.reduce_sum(1.0 - tf.cast(tf.math.is_nan(y_true), tf.float32))
    return tf.reduce_sum(sqr) / num_obs


class Forecaster(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.rnn = tf.keras.layers.SimpleRNN(4)
        self.out = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.rnn(x))


# --- oracle ---
_KEEP = []


def ENTRY():
    model = Forecaster()
    _KEEP.append(model)
    x = tf.reshape(tf.range(24, dtype=tf.float32), [4, 3, 2]) / 24.0
    y = tf.constant([[0.5], [float("nan")], [0.2], [0.9]])
    return lambda a, b: mse_without_nan(b, model(a)), (x, y)
