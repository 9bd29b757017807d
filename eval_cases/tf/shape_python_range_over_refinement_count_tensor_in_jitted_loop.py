"""Source: https://github.com/tensorflow/tensorflow/issues/30182 ("autograph should handle `for` loops over `range` in a manner that is compatible with XLA compilation": `for _ in range(count)` with a tensor `count` failed with "Input 1 to node range with op Range must be a compile-time constant"). Still reproduces on TF 2.21 (the oracle's label: value_specialized): the `Range` AutoGraph emits for the loop compiles only when XLA specialises on the value of `count`, and fails when compiled from shapes alone. Here an iterative depth-refinement step runs a tensor number of smoothing passes."""
import tensorflow as tf


@tf.function(jit_compile=True)
def refine_depth(depth, num_passes):
    for _ in range(num_passes):  # XLA: shape
        padded = tf.pad(depth, [[0, 0], [1, 1]], mode="SYMMETRIC")
        depth = 0.25 * padded[:, :-2] + 0.5 * padded[:, 1:-1] + 0.25 * padded[:, 2:]
    return depth


# --- oracle ---
def ENTRY():
    depth = tf.reshape(tf.range(2 * 8, dtype=tf.float32), [2, 8]) % 5.0
    return refine_depth, (depth, tf.constant(3))


def ALT_ARGS():
    depth = tf.reshape(tf.range(2 * 8, dtype=tf.float32), [2, 8]) % 5.0
    return [(depth, tf.constant(5))]
