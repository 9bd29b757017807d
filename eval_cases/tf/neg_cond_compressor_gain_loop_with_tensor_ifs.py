"""Source: https://github.com/tensorflow/tensorflow/issues/47599 (an audio dynamic-range compressor written as `tf.function(experimental_compile=True)` with a `for i in tf.range(length)` loop, tensor `if`s converted by AutoGraph and a fixed-size TensorArray: it compiles and runs on its own; the report's failure came only from mapping it over a `tf.data` pipeline). The compressor's gain loop, jit-compiled."""
import tensorflow as tf


def log10(x):
    return tf.math.log(x) / tf.math.log(tf.constant(10.0, dtype=x.dtype))


@tf.function(jit_compile=True)
def compressor_gain(inputs, threshold=-36.0, ratio=8.0, release=0.9):
    buffer = tf.reduce_mean(inputs, axis=1, keepdims=True)
    length = tf.shape(inputs)[0]
    gains = tf.TensorArray(tf.float32, size=length, element_shape=[1])
    y_prev = tf.constant([0.0])
    for i in tf.range(length):
        if tf.abs(buffer[i]) < 1e-6:
            x_g = tf.constant([-120.0])
        else:
            x_g = 20.0 * log10(tf.abs(buffer[i]))
        if x_g > threshold:
            y_g = threshold + (x_g - threshold) / ratio
        else:
            y_g = x_g
        y_prev = release * y_prev + (1.0 - release) * (x_g - y_g)
        gains = gains.write(i, y_prev)
    return gains.stack()


# --- oracle ---
WRAP = False


def ENTRY():
    t = tf.linspace(0.0, 6.0, 64)
    stereo = tf.stack([tf.sin(t), 0.5 * tf.cos(t)], axis=1)
    return compressor_gain, (stereo,)
