"""Source: https://github.com/tensorflow/tensorflow/issues/117883 (a ranked shape invariant for a TensorArray loop variable of tf.while_loop: "enters the loop with shape (None, ...), but has shape () after one iteration"): per-step features collected in a jit-compiled function."""
import tensorflow as tf


@tf.function(jit_compile=True)
def collect_step_features(frames):
    n = frames.shape[0]
    features = tf.TensorArray(tf.float32, size=n)

    def body(i, features):
        return i + 1, features.write(i, tf.reduce_mean(frames[i], axis=0))

    _, features = tf.while_loop(  # XLA: shape
        lambda i, features: i < n, body, [tf.constant(0), features],
        shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 2])])
    return features.stack()


# --- oracle ---
def ENTRY():
    return collect_step_features, (tf.reshape(tf.range(3 * 4 * 2, dtype=tf.float32), [3, 4, 2]),)
