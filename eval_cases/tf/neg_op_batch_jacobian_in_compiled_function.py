"""Source: https://github.com/tensorflow/tensorflow/issues/40885 (tf.GradientTape.batch_jacobian failed inside a compiled tf.function because of an unsupported graph assert (TF 2.5 nightly); on TF 2.21 XLA:CPU a per-example Jacobian penalty computed with batch_jacobian compiles)."""
import tensorflow as tf

net = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh")])
net.build((None, 2))


@tf.function(jit_compile=True)
def jacobian_penalty(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = net(x)
    jac = tape.batch_jacobian(y, x)
    return tf.reduce_mean(tf.reduce_sum(tf.square(jac), axis=[1, 2]))


# --- oracle ---
def ENTRY():
    return jacobian_penalty, (tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]) / 6.0,)
