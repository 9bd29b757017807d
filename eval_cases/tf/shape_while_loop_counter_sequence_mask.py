"""Source: https://github.com/tensorflow/tensorflow/issues/56769 (a size argument taken from a loop counter inside a compiled loop: "Input 1 to node `while/bincount/Bincount` ... must be a compile-time constant"); here a decoding loop whose causal mask is built with the step counter as maxlen."""
import tensorflow as tf


@tf.function(jit_compile=True)
def prefix_energy(scores, steps):
    def body(step, total):
        visible = tf.sequence_mask(tf.fill([tf.shape(scores)[0]], step), maxlen=step + 1, dtype=scores.dtype)  # XLA: shape
        return step + 1, total + tf.reduce_sum(visible * scores[:, :1])

    _, total = tf.while_loop(lambda step, total: step < steps, body, (tf.constant(1), tf.constant(0.0)))
    return total


# --- oracle ---
def ENTRY():
    return prefix_energy, (tf.constant([[0.5, 1.0, 2.0], [1.0, 0.0, 3.0]]), tf.constant(3))
