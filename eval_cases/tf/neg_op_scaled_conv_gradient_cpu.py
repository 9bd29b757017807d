"""Source: https://github.com/ROCm/legacy-rocm-build/issues/6379 (NaN losses with jit_compile on ROCm: a convolution scaled by 0.01 had its scale folded into the GPU conv and diverged from the non-XLA result; near miss: on XLA:CPU the scaled convolution and its gradients match eager)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def conv_scaled(inp, w):
    with tf.GradientTape() as tape:
        tape.watch([inp, w])
        y = 0.01 * tf.nn.conv2d(inp, w, 1, "SAME")
        loss = tf.reduce_sum(y * y)
    grad_x, grad_w = tape.gradient(loss, [inp, w])
    return y, grad_x, grad_w


# --- oracle ---
def ENTRY():
    x = tf.reshape(tf.sin(tf.range(2 * 6 * 6 * 4, dtype=tf.float32)), [2, 6, 6, 4])
    w = tf.reshape(tf.cos(tf.range(3 * 3 * 4 * 4, dtype=tf.float32)), [3, 3, 4, 4]) * 0.1
    return conv_scaled, (x, w)
