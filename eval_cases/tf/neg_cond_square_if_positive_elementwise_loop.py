"""Source: https://github.com/tensorflow/tensorflow/issues/34940 (the TF guide's `square_if_positive` AutoGraph example failed to convert with an incompatible gast version; with a working AutoGraph the tensor `if` inside a tf.range loop becomes tf.cond/while_loop and compiles)."""
import tensorflow as tf


def square_if_positive(x):
    out = tf.TensorArray(tf.float32, size=x.shape[0])
    for i in tf.range(x.shape[0]):
        if x[i] > 0:
            out = out.write(i, x[i] * x[i])
        else:
            out = out.write(i, 0.0)
    return out.stack()


@tf.function(jit_compile=True)
def positive_energy(x):
    return tf.reduce_sum(square_if_positive(x))


# --- oracle ---
def ENTRY():
    return positive_energy, (tf.constant([1.5, -2.0, 0.5, 3.0]),)
