"""Source: https://github.com/tensorflow/tensorflow/issues/22102 (a DT_STRING argument reaches the compiled cluster: "No registered '_Arg' OpKernel for XLA_CPU_JIT ... T=DT_STRING"): the step takes its mode as a string tensor."""
import tensorflow as tf

dense = tf.keras.layers.Dense(2)


@tf.function(jit_compile=True)
def step(x, mode):  # XLA: op
    y = dense(x)
    return tf.where(tf.equal(mode, "train"), y * 0.9, y)


# --- oracle ---
def ENTRY():
    return step, (tf.constant([[1.0, 2.0]]), tf.constant("train"))
